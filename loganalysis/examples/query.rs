//! Runs one query over log files and prints the result as JSON: what the `log_query` tool
//! computes, without a server. `cargo run -p llmops-loganalysis --example query -- '<query
//! json>' FILE...` (the query's own `files` are ignored).

use std::sync::atomic::AtomicBool;

use llmops_common::query::Query;
use llmops_loganalysis::table::{run_query, QueryFile, QueryOptions};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some((json, files)) = args.split_first() else {
        eprintln!("usage: query QUERY_JSON FILE...");
        std::process::exit(2);
    };
    let q: Query = match serde_json::from_str(json) {
        Ok(q) => q,
        Err(e) => {
            eprintln!("bad query: {e}");
            std::process::exit(2);
        }
    };
    let files: Vec<QueryFile> = files
        .iter()
        .map(|p| {
            let name = p.rsplit('/').next().unwrap_or(p).to_string();
            QueryFile::new(name, p)
        })
        .collect();
    match run_query(
        &files,
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    ) {
        Ok(r) => println!(
            "{}",
            serde_json::to_string_pretty(&r).unwrap_or_else(|e| format!("unprintable: {e}"))
        ),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
