//! The answer of a task from its own steps: each step's result rendered (a query as its
//! typed result, a page superseded by the analysis that follows it left out), joined.

use super::text::Lang;
use super::{
    act, answer, incident_summary, lookup, process_detail, ReadMode, StepRecord, Task, Then,
    ToolArgs, ToolName,
};
use llmops_tooldata::Metric;

fn analyses(s: &StepRecord) -> bool {
    matches!(&s.args, ToolArgs::FileRead(a) if a.mode == ReadMode::Analyze)
}

/// The answer of one step of a task, or `None` for a step the next one supersedes.
fn step_answer(
    task: &Task,
    own: &[StepRecord],
    i: usize,
    question: &str,
    lang: Lang,
) -> Option<String> {
    let s = &own[i];
    let followed = own.len() > 1;
    if !s.ok {
        return Some(answer::failure(s, lang));
    }
    let d = &s.data;
    if let ToolArgs::SysMonitor(a) = &s.args {
        return Some(if a.is_processes() {
            answer::procs::render(d.as_processes(), a, lang)
        } else {
            let metric = a.metric().unwrap_or(Metric::All);
            answer::monitor(d.as_monitor(), metric.as_str(), lang)
        });
    }
    Some(match s.tool {
        // A page superseded by the whole-file analysis that follows it.
        ToolName::FileRead if own.get(i + 1).is_some_and(analyses) => {
            return None;
        }
        ToolName::FileRead if analyses(s) => {
            answer::log_report::render_report(d.as_analysis(), question, lang)
        }
        ToolName::CommandExecutor => answer::command(s, lang),
        ToolName::SemanticSearch if followed => {
            let search = d.as_search();
            let n = search.map_or(0, |x| x.results.len());
            let query = search.map_or("", |x| x.query.as_str());
            match lang {
                Lang::Zh => format!("搜索“{query}”找到 {n} 条结果，选用最匹配的文件。"),
                Lang::En => {
                    format!("Searching \"{query}\" found {n} results; using the best match.")
                }
            }
        }
        ToolName::SemanticSearch => {
            let mut t = answer::search(d.as_search(), lang);
            if let Task::Search {
                then: Then::Download | Then::Read,
                ..
            } = task
            {
                if d.as_search().is_none_or(|x| x.results.is_empty()) {
                    t.push_str(lang.pick(
                        "\n因此无法继续处理该文件。",
                        "\nSo there is no file to continue with.",
                    ));
                }
            }
            t
        }
        ToolName::FileRead => answer::read(d, question, lang),
        ToolName::FileUpload if i + 1 < own.len() => {
            let names: Vec<&str> = d
                .as_uploads()
                .unwrap_or_default()
                .iter()
                .map(|f| f.filename.as_str())
                .collect();
            match lang {
                Lang::Zh => format!("相关的上传文件：{}。", names.join("、")),
                Lang::En => format!("Matching upload(s): {}.", names.join(", ")),
            }
        }
        ToolName::FileUpload => answer::uploads(d.as_uploads().unwrap_or_default(), lang),
        ToolName::FileDownload => answer::download(d.as_offer(), lang),
        _ => s.output.clone(),
    })
}

/// The answer for one task from its own steps.
pub(crate) fn task_answer(task: &Task, own: &[StepRecord], lang: Lang) -> String {
    // A query's answer, then the events it counted when it listed them; a sum of written
    // numbers that found none gives way to the count after it, and a field no event has
    // to the number written before the unit asked.
    if let Task::Query(frame) = task {
        let own = match own {
            [_, next] if frame.sums_written() || frame.written_instead.is_some() => {
                std::slice::from_ref(next)
            }
            _ => own,
        };
        if !own.is_empty() {
            let parts: Vec<String> = own.iter().map(|s| query_answer(s, lang)).collect();
            return parts.join("\n\n");
        }
    }
    if let Task::ProcessDetail { pid } = task {
        return process_detail::answer(*pid, own, lang);
    }
    if let Task::Incident { .. } = task {
        return incident_summary::answer(own, lang);
    }
    if let Task::Act(_) = task {
        if !own.is_empty() {
            return act::answer(own, lang);
        }
    }
    if let Task::Reply(text) = task {
        return text.clone();
    }
    if let (
        Task::Search {
            then: Then::Lookup,
            question,
            ..
        },
        [search, reads @ ..],
    ) = (task, own)
    {
        return lookup::answer(search, reads, question, lang);
    }
    if let Task::ExplainError(report) = task {
        let hits = own
            .first()
            .filter(|s| s.ok)
            .and_then(|s| s.data.as_search());
        return answer::error::render(report, hits, lang);
    }
    if own.is_empty() {
        return match task {
            Task::ReadListed { name, .. } => match lang {
                Lang::Zh => format!("目录列表中没有找到 {name}，也没有同名的上传文件。"),
                Lang::En => format!("{name} is not in the listing and no upload has that name."),
            },
            _ => lang
                .pick(
                    "（步数已用完，这一项没有执行）",
                    "(step budget used up; this part was not run)",
                )
                .to_string(),
        };
    }
    let question = match task {
        Task::Read { question, .. }
        | Task::Analyse { question, .. }
        | Task::ReadListed { question, .. }
        | Task::Search { question, .. }
        | Task::Uploads { question, .. } => question.as_str(),
        _ => "",
    };
    let mut parts: Vec<String> = (0..own.len())
        .filter_map(|i| step_answer(task, own, i, question, lang))
        .collect();
    if let Task::Analyse {
        note: Some(note), ..
    } = task
    {
        parts.insert(0, note.clone());
    }
    parts.join("\n\n")
}

/// The answer of a query step, read as the typed result.
fn query_answer(step: &StepRecord, lang: Lang) -> String {
    if !step.ok {
        return answer::failure(step, lang);
    }
    match step.data.as_query() {
        Some(r) => answer::query::render(r, lang),
        None => step.output.clone(),
    }
}

/// The line that sets the figures of several queries side by side, when every task is a
/// query and they differ only in one condition's value ("4xx vs 5xx").
pub(crate) fn side_by_side(
    tasks: &[Task],
    steps: &[StepRecord],
    ranges: &[std::ops::Range<usize>],
    lang: Lang,
) -> Option<String> {
    let mut results = Vec::new();
    for (task, r) in tasks.iter().zip(ranges) {
        if !matches!(task, Task::Query(_)) {
            return None;
        }
        let own = steps.get(r.clone())?;
        results.push(
            own.iter()
                .find_map(|s| s.data.as_query().filter(|_| s.ok))?,
        );
    }
    answer::query::sides::side_by_side(&results, lang)
}
