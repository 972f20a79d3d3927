//! Query throughput over logs no shipped format reads and over a field a query defines:
//! a generated ~100 MiB controller log in a layout the engine learns from its first lines
//! (`17.02.2032 01:19:02.155 [W] arm3   : message k=v`), a ~100 MiB CSV with a header row
//! (a header table), and distinct order ids cut out of the controller log's text by
//! `Query::extract`.
//! Each engine query (one thread) runs beside the shell command that gives the same figure,
//! medians of 5 runs, every run checked against the planted truth. Rewrites its section of
//! docs/benchmarks.md (between the `bench:layouts` markers).
//!
//! Run: `cargo bench -p llmops-loganalysis --bench layouts` (release, in `make bench`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::AtomicBool;

use llmops_common::query::{Extract, Field, Filter, FilterOp, Measure, Query, QueryValue, Scalar};
use llmops_loganalysis::{run_query, QueryFile, QueryOptions};

mod common;
use common::{cpu, load, sh, time_runs, write_section, RUNS};

const SIZE: usize = 100 * 1024 * 1024;
const START: &str = "<!-- bench:layouts:begin -->";
const END: &str = "<!-- bench:layouts:end -->";

/// A small deterministic generator (an LCG).
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// What a generated file holds: its bytes, the planted count of the filter, the planted
/// top group's count, and what the third query must give.
struct Planted {
    bytes: u64,
    count: u64,
    top: u64,
    third: u64,
}

/// Writes lines from `line` until the file is about `SIZE` bytes.
fn write_until(path: &Path, header: &str, mut line: impl FnMut(u64, &mut String)) -> u64 {
    let file = std::fs::File::create(path).expect("create");
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    w.write_all(header.as_bytes()).expect("write");
    let (mut bytes, mut i, mut buf) = (header.len(), 0u64, String::new());
    while bytes < SIZE {
        buf.clear();
        line(i, &mut buf);
        w.write_all(buf.as_bytes()).expect("write");
        bytes += buf.len();
        i += 1;
    }
    w.flush().expect("flush");
    bytes as u64
}

/// A day-first controller log: `[E]` lines, arms, and order ids (for `extract`).
fn plant_learned(path: &Path) -> Planted {
    let arms = ["arm1", "arm2", "arm3", "scan", "door"];
    let mut rng = Lcg(5);
    let (mut errors, mut by_arm) = (0u64, BTreeMap::<&str, u64>::new());
    let mut orders = BTreeSet::new();
    let bytes = write_until(path, "", |i, out| {
        let arm = arms[rng.below(5) as usize];
        let level = ["I", "I", "I", "W", "E"][rng.below(5) as usize];
        let order = 7_000_000 + rng.below(50_000);
        errors += u64::from(level == "E");
        *by_arm.entry(arm).or_default() += 1;
        orders.insert(order);
        let (s, ms) = (i / 20, i % 1000);
        out.push_str(&format!(
            "17.02.2032 {:02}:{:02}:{:02}.{ms:03} [{level}] {arm:<6} : pick done order=ORD-{order} slot=S{} ms={}\n",
            (s / 3600) % 24,
            (s / 60) % 60,
            s % 60,
            100 + rng.below(80),
            rng.below(6000)
        ));
    });
    Planted {
        bytes,
        count: errors,
        top: by_arm.values().copied().max().unwrap_or(0),
        third: orders.len() as u64,
    }
}

/// A CSV export with a header row: ERROR rows, services, and a numeric latency column.
fn plant_table(path: &Path) -> Planted {
    let services = ["checkout", "search", "auth", "inventory", "ledger", "media"];
    let mut rng = Lcg(9);
    let (mut errors, mut by_service) = (0u64, BTreeMap::<&str, u64>::new());
    let mut slow = 0u64;
    let header = "timestamp,level,service,latency_ms,message\n";
    let bytes = write_until(path, header, |i, out| {
        let service = services[rng.below(6) as usize];
        let level = ["INFO", "INFO", "INFO", "WARN", "ERROR"][rng.below(5) as usize];
        let latency = rng.below(3000);
        errors += u64::from(level == "ERROR");
        slow += u64::from(latency > 2000);
        *by_service.entry(service).or_default() += 1;
        let s = i / 30;
        out.push_str(&format!(
            "2032-02-17T{:02}:{:02}:{:02}.{:03}Z,{level},{service},{latency},\"request handled, id {i}\"\n",
            (s / 3600) % 24,
            (s / 60) % 60,
            s % 60,
            i % 1000
        ));
    });
    Planted {
        bytes,
        count: errors,
        top: by_service.values().copied().max().unwrap_or(0),
        third: slow,
    }
}

/// (task, command, (wall, cpu), the engine's (wall, cpu) for the same task, file bytes).
type Measured = common::Measured<String, String>;

/// Rows whose `level` is `value`.
fn level_is(value: &str) -> Query {
    Query {
        filters: vec![Filter::new(
            Some(Field::new("level")),
            FilterOp::Eq,
            Scalar::Text(value.into()),
        )],
        ..Query::default()
    }
}

/// Rows grouped by `field`, the top 10.
fn grouped_by(field: &str) -> Query {
    Query {
        group_by: vec![Field::new(field)],
        ..Query::default()
    }
}

/// One engine query and the shell command for the same figure, each run checked.
struct Task<'a> {
    what: &'a str,
    query: Query,
    engine: &'a str,
    shell: String,
    /// The planted figure both must give: a count, a top group's count or a distinct count.
    want: u64,
}

fn measure(dir: &Path, name: &str, bytes: u64, tasks: Vec<Task<'_>>) -> Vec<Measured> {
    let files = [QueryFile::new(name, dir.join(name))];
    let opts = QueryOptions {
        threads: 1,
        ..QueryOptions::default()
    };
    let cancel = AtomicBool::new(false);
    let mut rows = Vec::new();
    for t in tasks {
        let engine = time_runs(false, || {
            let r = run_query(&files, &t.query, &opts, &cancel).expect("query");
            assert_eq!(figure(&r.value), Some(t.want), "{}: {:?}", t.what, r.value);
        });
        let shell = time_runs(true, || {
            let out = sh(dir, &t.shell);
            let first = out.split_whitespace().next().unwrap_or_default();
            assert_eq!(first, t.want.to_string(), "{}: {out:?}", t.shell);
        });
        rows.push((
            t.what.to_string(),
            t.engine.to_string(),
            engine,
            engine,
            bytes,
        ));
        rows.push((t.what.to_string(), t.shell, shell, engine, bytes));
    }
    rows
}

/// The figure a result gives: a count, a distinct count, or the top group's count.
fn figure(v: &QueryValue) -> Option<u64> {
    match v {
        QueryValue::Count { count } | QueryValue::Distinct { count } => Some(*count),
        QueryValue::Groups { rows, .. } => rows.first().map(|g| g.count),
        _ => None,
    }
}

fn learned_rows(dir: &Path) -> (Vec<Measured>, Planted) {
    let name = "carousel.log";
    let p = plant_learned(&dir.join(name));
    let (errors, by_logger) = (level_is("ERROR"), grouped_by("logger"));
    let orders = Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new("order_id")),
        extract: vec![Extract {
            name: "order_id".into(),
            regex: r"(?i)\b(ORD[-_:#]?[A-Za-z0-9]*\d[A-Za-z0-9]*)".into(),
            numeric: false,
        }],
        ..Query::default()
    };
    let tasks = vec![
        Task {
            what: "learned layout: filter + count (level E)",
            query: errors,
            engine: "run_query: level = ERROR, count (1 thread)",
            shell: format!("grep -c ' \\[E\\] ' {name}"),
            want: p.count,
        },
        Task {
            what: "learned layout: group + top 10 (component)",
            query: by_logger,
            engine: "run_query: group_by logger, top 10 (1 thread)",
            shell: format!("awk '{{print $4}}' {name} | sort | uniq -c | sort -rn | head"),
            want: p.top,
        },
        Task {
            what: "extract: distinct ids cut from the text",
            query: orders,
            engine: "run_query: extract ORD ids, count_distinct (1 thread)",
            shell: format!("grep -oE 'ORD-[0-9]+' {name} | sort -u | wc -l"),
            want: p.third,
        },
    ];
    (measure(dir, name, p.bytes, tasks), p)
}

fn table_rows(dir: &Path) -> (Vec<Measured>, Planted) {
    let name = "requests.csv";
    let p = plant_table(&dir.join(name));
    let (errors, by_service) = (level_is("ERROR"), grouped_by("service"));
    let slow = Query {
        filters: vec![Filter::new(
            Some(Field::new("latency_ms")),
            FilterOp::Gt,
            Scalar::Number(2000.0),
        )],
        ..Query::default()
    };
    let tasks = vec![
        Task {
            what: "header table: filter + count (ERROR)",
            query: errors,
            engine: "run_query: level = ERROR, count (1 thread)",
            shell: format!("awk -F, '$2 == \"ERROR\"' {name} | wc -l"),
            want: p.count,
        },
        Task {
            what: "header table: group + top 10 (service)",
            query: by_service,
            engine: "run_query: group_by service, top 10 (1 thread)",
            shell: format!(
                "awk -F, 'NR > 1 {{print $3}}' {name} | sort | uniq -c | sort -rn | head"
            ),
            want: p.top,
        },
        Task {
            what: "header table: numeric filter (latency_ms > 2000)",
            query: slow,
            engine: "run_query: latency_ms > 2000, count (1 thread)",
            shell: format!("awk -F, 'NR > 1 && $4 > 2000' {name} | wc -l"),
            want: p.third,
        },
    ];
    (measure(dir, name, p.bytes, tasks), p)
}

fn main() {
    let load = load();
    let dir = tempfile::tempdir().expect("tempdir");
    let (mut rows, learned) = learned_rows(dir.path());
    std::fs::remove_file(dir.path().join("carousel.log")).expect("remove");
    let (more, table) = table_rows(dir.path());
    rows.extend(more);
    let out = common::table(&rows);
    let section = format!(
        "{START}\n## Learned layouts, header tables and fields cut from the text\n\n\
         Command: `cargo bench -p llmops-loganalysis --bench layouts` (release, in `make bench`), \
         {date}, {cpu}. Two generated files of about 100 MiB in a temp dir, just written (page \
         cache warm): a controller log in a layout no shipped format reads \
         (`17.02.2032 01:19:02.155 [E] arm3   : pick done order=ORD-7012345 …`, day-first dates, \
         bracketed one-letter levels; the engine learns its columns from the first lines), \
         {lmib:.0} MiB; and a CSV export with a header row (`timestamp,level,service,latency_ms,\
         message`, a quoted message with a comma), {tmib:.0} MiB. Every run is checked against \
         the planted figures (controller: {le} `[E]` lines, top component {lt}, {ld} distinct \
         order ids; CSV: {te} ERROR rows, top service {tt}, {ts} rows over 2000 ms). The engine \
         runs on one thread beside the shell command that gives the same figure; {RUNS} runs \
         each, medians. The machine is shared (load average {load} when the bench started); \
         the CPU column (user + system time, from /proc) is the per-thread speed.\n\n{out}{END}",
        date = sh(dir.path(), "date -u +%Y-%m-%d"),
        cpu = cpu(),
        lmib = learned.bytes as f64 / (1024.0 * 1024.0),
        tmib = table.bytes as f64 / (1024.0 * 1024.0),
        le = learned.count,
        lt = learned.top,
        ld = learned.third,
        te = table.count,
        tt = table.top,
        ts = table.third,
    );
    println!("{section}");
    write_section(START, END, &section);
}
