//! Prints the offline planner's first call for a question over some log files, with the
//! columns and format the server would hand it, as if sent with the question: a quick look
//! at how a question is read. `PLAN_UNREFERENCED=1`: the files are the session's uploads,
//! none named with the question. `PLAN_TASKS=1`: every task of the message too.
//! `cargo run -p llmops-server --example plan -- FILE... -- "question"`

use std::path::PathBuf;

use llmops_common::UploadRef;
use llmops_planner::conversation::Conversation;
use llmops_planner::{plan, PlannerInput};

fn upload(i: usize, path: &str) -> std::io::Result<UploadRef> {
    let size = std::fs::metadata(path)?.len();
    let sample = llmops_loganalysis::table::Sample::read(std::path::Path::new(path))?;
    let d = llmops_loganalysis::table::describe_sample(
        llmops_loganalysis::table::builtin_registry(),
        &sample,
    );
    if std::env::var_os("PLAN_COLUMNS").is_some() {
        let names: Vec<String> = d
            .columns
            .iter()
            .map(|c| format!("{}{:?}", c.name, c.roles))
            .collect();
        eprintln!("{path}: {}", names.join(" "));
    }
    let abs = std::fs::canonicalize(path)?;
    Ok(UploadRef {
        file_id: format!("f{i}"),
        filename: abs
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        path: PathBuf::from(&abs),
        size,
        sha256: String::new(),
        uploaded_at: String::new(),
        content_type: "text/plain".into(),
        columns: d.columns,
        format: d.format,
    })
}

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(sep) = args.iter().position(|a| a == "--") else {
        eprintln!("usage: plan FILE... -- QUESTION...");
        std::process::exit(2);
    };
    let uploads = args[..sep]
        .iter()
        .enumerate()
        .map(|(i, p)| upload(i, p))
        .collect::<std::io::Result<Vec<_>>>()?;
    let conversation = Conversation::default();
    // As the server sends a question that names no file: no upload referenced.
    let referenced: &[UploadRef] = if std::env::var_os("PLAN_UNREFERENCED").is_some() {
        &[]
    } else {
        &uploads
    };
    for text in &args[sep + 1..] {
        let action = plan(&PlannerInput {
            text,
            referenced_files: referenced,
            uploads: &uploads,
            history: &[],
            conversation: &conversation,
            steps: &[],
        });
        println!("{text}\n  => {action:?}");
        if std::env::var_os("PLAN_TASKS").is_some() {
            let ctx = llmops_planner::understand::MessageCtx {
                lang: llmops_planner::text::Lang::detect(text),
                uploads: &uploads,
                referenced: referenced.iter().collect(),
                history: &[],
                conv: &conversation,
            };
            for task in llmops_planner::understand::understand(text, &ctx) {
                println!("  task: {task:?}");
            }
        }
    }
    Ok(())
}
