//! Log query throughput: a generated 100 MiB nginx combined access log in a temp dir;
//! filter + count (5xx) and group + top 10 (by client) with `run_query` on one thread,
//! side by side with `grep -c` and `awk | sort | uniq -c | sort -rn | head` on the same
//! file, medians; every run checked against the planted truth. Then a timeline of a
//! 10-minute window of a generated 100 MiB logback log (its template pre-pass and its
//! kinds) beside a count of the same window. Rewrites its section of docs/benchmarks.md
//! (between the `bench:logquery` markers).
//!
//! Run: `cargo bench -p llmops-loganalysis --bench logquery` (release, in `make bench`).

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use llmops_common::query::{
    Field, Filter, FilterOp, Measure, Query, QueryValue, Scalar, TimePoint, Window,
};
use llmops_loganalysis::table::truth::{generate, TruthLog};
use llmops_loganalysis::{run_query, QueryFile, QueryOptions};

mod common;
use common::{cpu, load, sh, time_runs, write_section, RUNS};

const SIZE: u64 = 100 * 1024 * 1024;
const START: &str = "<!-- bench:logquery:begin -->";
const END: &str = "<!-- bench:logquery:end -->";

/// The generated log and the figures planted in it.
struct Planted {
    truth: TruthLog,
    five: u64,
    top: u64,
}

/// Writes about 100 MiB of combined access log to `path`.
fn plant(path: &Path) -> Planted {
    let per_event = {
        let mut probe = Vec::new();
        let t = generate("nginx_combined", 1, 2000, &mut probe).expect("probe");
        t.bytes / 2000
    };
    let file = std::fs::File::create(path).expect("create");
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let truth =
        generate("nginx_combined", 2024, (SIZE / per_event) as usize, &mut w).expect("generate");
    w.flush().expect("flush");
    let five = truth
        .events
        .iter()
        .filter(|e| e.status.is_some_and(|s| (500..600).contains(&s)))
        .count() as u64;
    let mut by: BTreeMap<String, u64> = BTreeMap::new();
    for e in &truth.events {
        if let Some(k) = &e.key {
            *by.entry(k.clone()).or_insert(0) += 1;
        }
    }
    let top = by.values().copied().max().unwrap_or(0);
    Planted { truth, five, top }
}

/// (task, command, (wall, cpu), the engine's (wall, cpu) for the same task, file bytes).
type Measured = common::Measured<&'static str, String>;

/// Every measured row, each run checked against the planted figures.
fn measure(dir: &Path, name: &str, p: &Planted) -> Vec<Measured> {
    let files = [QueryFile::new(name, dir.join(name))];
    let opts = QueryOptions {
        threads: 1,
        ..QueryOptions::default()
    };
    let count_q = Query {
        filters: vec![Filter::new(
            Some(Field::new("status")),
            FilterOp::Class,
            Scalar::Number(5.0),
        )],
        ..Query::default()
    };
    let group_q = Query {
        group_by: vec![Field::new("client")],
        ..Query::default()
    };
    let cancel = AtomicBool::new(false);
    let mut count_pipe = String::new();
    let engine_count = time_runs(false, || {
        let r = run_query(&files, &count_q, &opts, &cancel).expect("count");
        assert_eq!(
            r.value,
            QueryValue::Count { count: p.five },
            "planted 5xx count"
        );
        count_pipe = r.pipeline.unwrap_or_default();
    });
    let engine_group = time_runs(false, || {
        let r = run_query(&files, &group_q, &opts, &cancel).expect("group");
        let QueryValue::Groups { rows, .. } = r.value else {
            panic!("groups")
        };
        assert_eq!(rows[0].count, p.top, "planted top client");
    });
    let grep_cmd = format!("grep -c -E '\" 5[0-9][0-9] ' {name}");
    let grep = time_runs(true, || assert_eq!(sh(dir, &grep_cmd), p.five.to_string()));
    let awk_count = time_runs(true, || {
        assert_eq!(sh(dir, &count_pipe), p.five.to_string())
    });
    let awk_cmd = format!("awk '{{print $1}}' {name} | sort | uniq -c | sort -rn | head");
    let awk_group = time_runs(true, || {
        let out = sh(dir, &awk_cmd);
        assert!(out.starts_with(&p.top.to_string()), "{out}");
    });
    let (fc, gt) = ("filter + count (5xx)", "group + top 10 (client)");
    vec![
        (
            fc,
            "run_query: status class 5, count (1 thread)".into(),
            engine_count,
            engine_count,
            p.truth.bytes,
        ),
        (fc, grep_cmd, grep, engine_count, p.truth.bytes),
        (fc, count_pipe, awk_count, engine_count, p.truth.bytes),
        (
            gt,
            "run_query: group_by client, top 10 (1 thread)".into(),
            engine_group,
            engine_group,
            p.truth.bytes,
        ),
        (gt, awk_cmd, awk_group, engine_group, p.truth.bytes),
    ]
}

/// A timeline of the 10 minutes around the middle of a generated logback log, beside a
/// count of the same window: what the template pre-pass and the kinds cost.
fn measure_timeline(dir: &Path) -> Vec<Measured> {
    let name = "app.log";
    let path = dir.join(name);
    let per_event = {
        let mut probe = Vec::new();
        let t = generate("java_logback", 1, 2000, &mut probe).expect("probe");
        t.bytes / 2000
    };
    let file = std::fs::File::create(&path).expect("create");
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let truth = generate("java_logback", 7, (SIZE / per_event) as usize, &mut w).expect("gen");
    w.flush().expect("flush");
    timeline_rows(
        dir,
        name,
        &truth,
        "10-minute window of a 100 MiB logback log",
        "template",
    )
}

/// A count of the 10 minutes around the middle of `name`, its first timeline (the pre-pass
/// that counts the file's kinds, then the window's kinds) and a timeline with the counts
/// cached. Every run checked: the timeline's total is the window's count, and its rows stand
/// for every event of the window once.
fn timeline_rows(
    dir: &Path,
    name: &str,
    truth: &TruthLog,
    what: &'static str,
    kinds: &str,
) -> Vec<Measured> {
    let mid = truth.events[truth.events.len() / 2]
        .sec
        .expect("a timed event");
    let at = sh(dir, &format!("date -u -d @{mid} '+%Y-%m-%d %H:%M:%S'"));
    let window = Some(Window::Around {
        at: TimePoint(at),
        seconds: 300,
    });
    let files = [QueryFile::new(name, dir.join(name))];
    let opts = QueryOptions {
        threads: 1,
        ..QueryOptions::default()
    };
    let cancel = AtomicBool::new(false);
    let count_q = Query {
        window: window.clone(),
        ..Query::default()
    };
    let mut in_window = 0;
    let count = time_runs(false, || {
        let r = run_query(&files, &count_q, &opts, &cancel).expect("count");
        let QueryValue::Count { count } = r.value else {
            panic!("count")
        };
        in_window = count;
    });
    assert!(in_window > 0, "the window holds events");
    let timeline_q = Query {
        measure: Measure::Timeline,
        window,
        ..Query::default()
    };
    let run_timeline = || {
        let r = run_query(&files, &timeline_q, &opts, &cancel).expect("timeline");
        let QueryValue::Timeline { rows, total, .. } = r.value else {
            panic!("timeline")
        };
        assert_eq!(
            total, in_window,
            "the timeline's total is the window's count"
        );
        assert!(!rows.is_empty() && rows.len() <= Query::DEFAULT_LIMIT as usize);
    };
    // A new modification time each run: the file's counts are not cached.
    let mut touched = 0;
    let timeline = time_runs(false, || {
        touched += 1;
        let t = std::time::SystemTime::now() + Duration::from_secs(touched);
        std::fs::File::options()
            .write(true)
            .open(dir.join(name))
            .and_then(|f| f.set_modified(t))
            .expect("touch");
        run_timeline()
    });
    run_timeline();
    let again = time_runs(false, run_timeline);
    vec![
        (
            what,
            "run_query: count in the window (1 thread)".into(),
            count,
            count,
            truth.bytes,
        ),
        (
            what,
            format!("run_query: timeline of the window, {kinds} pre-pass + kinds (1 thread)"),
            timeline,
            count,
            truth.bytes,
        ),
        (
            what,
            format!("run_query: another timeline of the file, {kinds} counts cached (1 thread)"),
            again,
            count,
            truth.bytes,
        ),
    ]
}

fn main() {
    let load = load();
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "access.log";
    let planted = plant(&dir.path().join(name));
    let mut rows = measure(dir.path(), name, &planted);
    rows.extend(timeline_rows(
        dir.path(),
        name,
        &planted.truth,
        "10-minute window of the 100 MiB access log",
        "request-kind",
    ));
    rows.extend(measure_timeline(dir.path()));
    let table = common::table(&rows);
    let section = format!(
        "{START}\n## Log query (`run_query`, logs as tables)\n\n\
         Command: `cargo bench -p llmops-loganalysis --bench logquery` (release, in `make bench`), \
         {date}, {cpu}. A generated nginx combined access log of {:.0} MiB ({} lines) in a temp \
         dir, just written (page cache warm); every run checked against the planted 5xx count \
         ({five}) and top client count ({top}). The engine runs on one thread; the shell tools \
         are single-threaded too (`sort` may use more). {RUNS} runs each, medians. The machine is \
         shared (load average {load} when the bench started), so wall times are slowed for every \
         tool alike; the CPU column (user + system time of the engine, or of the shell command's \
         processes, from /proc) is the per-thread speed. The last three rows read a generated \
         logback log of about the same size: a count of the 10 minutes around its middle; the \
         timeline of that window, the file's first (one extra scan of the whole file counts its \
         message templates; the window's events are grouped into kinds); and a timeline of a \
         file whose template counts are cached (the server keeps the last 8 files'), each \
         checked to hold every event of the window; their `wall vs engine` is against that \
         count. The three rows before them do the same over the access log, whose kinds are \
         kinds of request (status, method, masked path) counted by the pre-pass.\n\n{table}{END}",
        planted.truth.bytes as f64 / (1024.0 * 1024.0),
        planted.truth.lines,
        date = sh(dir.path(), "date -u +%Y-%m-%d"),
        cpu = cpu(),
        five = planted.five,
        top = planted.top,
    );
    println!("{section}");
    write_section(START, END, &section);
}
