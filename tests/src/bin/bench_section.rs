//! Writes one section of docs/benchmarks.md from a script (`llmops_common::bench_doc`:
//! the section between its markers, with the CPU, the command and the date):
//! `bench_section NAME TITLE COMMAND < BODY`.

use std::io::Read;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [name, title, command] = args.as_slice() else {
        eprintln!("usage: bench_section NAME TITLE COMMAND < BODY");
        std::process::exit(2);
    };
    let mut body = String::new();
    if let Err(e) = std::io::stdin().read_to_string(&mut body) {
        eprintln!("bench_section: reading the body: {e}");
        std::process::exit(1);
    }
    let doc = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let section = llmops_common::bench_doc::Section {
        name,
        title,
        command,
        body: &body,
    };
    if let Err(e) = llmops_common::bench_doc::write(&doc, &section) {
        eprintln!("bench_section: {}: {e}", doc.display());
        std::process::exit(1);
    }
}
