//! Whole-file log analysis throughput: a generated 100 MiB logback-style log in a temp dir,
//! `analyze_file` on all cores and on one thread, medians; rewrites its section of
//! docs/benchmarks.md (`bench:loganalysis`, with the CPU, the command and the date).
//!
//! Run: `cargo bench -p llmops-loganalysis --bench throughput` (release).

use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use llmops_loganalysis::synth::{generate, SynthFormat, SynthSpec};
use llmops_loganalysis::{analyze_file, AnalyzeOptions, Level};

const SIZE: u64 = 100 * 1024 * 1024;
const RUNS: usize = 7;

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn run(path: &Path, threads: usize, expect_lines: u64, expect_errors: u64) -> Duration {
    let opts = AnalyzeOptions {
        threads,
        ..AnalyzeOptions::default()
    };
    let mut times = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let t = Instant::now();
        let r =
            analyze_file(path, &opts, &AtomicBool::new(false), &mut |_, _| {}).expect("analyze");
        times.push(t.elapsed());
        assert_eq!(r.lines, expect_lines, "exact line count");
        assert_eq!(r.count(Level::Error), expect_errors, "exact ERROR count");
    }
    median(times)
}

fn rate(bytes: u64, d: Duration) -> (f64, f64) {
    let s = d.as_secs_f64();
    (bytes as f64 / 1e6 / s, bytes as f64 / (1024.0 * 1024.0) / s)
}

fn main() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("app.log");
    let mut spec = SynthSpec::new(2024, SynthFormat::Logback, 0);
    spec.min_bytes = SIZE;
    spec.step_ms = 30;
    let truth = {
        let file = std::fs::File::create(&path).expect("create");
        let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
        let t = generate(&spec, &mut w).expect("generate");
        w.flush().expect("flush");
        t
    };
    let errors = truth.levels.get(&Level::Error).map_or(0, |l| l.count);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let all = run(&path, 0, truth.lines, errors);
    let one = run(&path, 1, truth.lines, errors);
    let (all_mb, all_mib) = rate(truth.bytes, all);
    let (one_mb, one_mib) = rate(truth.bytes, one);
    println!(
        "loganalysis: {} bytes, {} lines: {cores} threads {:.1} ms ({all_mb:.0} MB/s), 1 thread {:.1} ms ({one_mb:.0} MB/s)",
        truth.bytes,
        truth.lines,
        all.as_secs_f64() * 1e3,
        one.as_secs_f64() * 1e3
    );

    let body = format!(
        "A generated logback-style log of {:.0} MiB ({} lines, {} distinct templates, \
         timestamps {} to {}, ERROR lines with stack traces) in a temp dir, just written \
         (page cache warm); `analyze_file` over the whole file: exact per-level counts, templates, \
         first/last times and histogram, checked against the planted line and ERROR counts on \
         every run. {RUNS} runs each, medians.\n\n\
         | threads | median | throughput |\n|---|---|---|\n\
         | {cores} (default: all cores) | {:.0} ms | {all_mb:.0} MB/s ({all_mib:.0} MiB/s) |\n\
         | 1 | {:.0} ms | {one_mb:.0} MB/s ({one_mib:.0} MiB/s) |\n",
        truth.bytes as f64 / (1024.0 * 1024.0),
        truth.lines,
        truth.templates.len(),
        truth.first_ts.as_deref().unwrap_or("-"),
        truth.last_ts.as_deref().unwrap_or("-"),
        all.as_secs_f64() * 1e3,
        one.as_secs_f64() * 1e3,
    );
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let section = llmops_common::bench_doc::Section {
        name: "loganalysis",
        title: "Whole-file log analysis (`file_read` mode \"analyze\")",
        command: "cargo bench -p llmops-loganalysis --bench throughput",
        body: &body,
    };
    llmops_common::bench_doc::write(&doc, &section).expect("write docs/benchmarks.md");
    println!("updated {}", doc.display());
}
