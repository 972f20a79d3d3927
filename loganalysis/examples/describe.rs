//! Prints what the planner sees of a log: its detected format and its columns (the same
//! sample the server reads). `cargo run -p llmops-loganalysis --example describe -- FILE`

fn main() -> std::io::Result<()> {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: describe FILE");
        std::process::exit(2);
    };
    let sample = llmops_loganalysis::table::Sample::read(std::path::Path::new(&path))?;
    let reg = llmops_loganalysis::table::builtin_registry();
    let d = llmops_loganalysis::table::describe_sample(reg, &sample);
    println!("format: {}", d.format.as_deref().unwrap_or("-"));
    for c in d.columns {
        println!(
            "  {:<32} numeric={:<5} roles={:?} values={:?}",
            c.name, c.numeric, c.roles, c.values
        );
    }
    Ok(())
}
