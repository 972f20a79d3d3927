//! What the log benches share: medians of wall and CPU time, shell runs, the CPU's name,
//! the side-by-side table and the rewrite of a bench's own section of docs/benchmarks.md.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// Runs of each measured task.
pub const RUNS: usize = 5;

pub fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// CPU seconds (user + system) of this process and of its waited-for children, from
/// /proc/self/stat (clock ticks of 10 ms).
fn cpu_times() -> (f64, f64) {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit_once(')').map_or("", |x| x.1);
    let f: Vec<f64> = after
        .split_whitespace()
        .map(|x| x.parse().unwrap_or(0.0))
        .collect();
    let tick = 100.0;
    let get = |i: usize| f.get(i).copied().unwrap_or(0.0) / tick;
    // Fields 14-17 of stat are utime, stime, cutime, cstime (indices 11-14 after the name).
    (get(11) + get(12), get(13) + get(14))
}

/// Medians of wall time and of CPU time (this process, or its children for shell runs).
pub fn time_runs(children: bool, mut f: impl FnMut()) -> (Duration, Duration) {
    let mut wall = Vec::with_capacity(RUNS);
    let mut cpu = Vec::with_capacity(RUNS);
    for _ in 0..RUNS {
        let c0 = cpu_times();
        let t = Instant::now();
        f();
        wall.push(t.elapsed());
        let c1 = cpu_times();
        let used = if children { c1.1 - c0.1 } else { c1.0 - c0.0 };
        cpu.push(Duration::from_secs_f64(used.max(0.0)));
    }
    (median(wall), median(cpu))
}

/// What `cmd` prints in `dir`, trimmed.
pub fn sh(dir: &Path, cmd: &str) -> String {
    let out = Command::new("sh")
        .arg("-c")
        .arg(cmd)
        .current_dir(dir)
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

pub fn mbps(bytes: u64, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64()
}

pub fn cpu() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

/// The one-minute load average when the bench starts.
pub fn load() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "unknown".into())
}

/// (wall, CPU) medians.
pub type Times = (Duration, Duration);

/// A measured row: the task, the command, its times, the engine's times for the same task
/// and the bytes read.
pub type Measured<T, C> = (T, C, Times, Times, u64);

/// The side-by-side table of `rows`: each a task, a command, its (wall, CPU) medians, the
/// engine's (wall, CPU) medians for the same task and the bytes read.
pub fn table<T: AsRef<str>, C: AsRef<str>>(rows: &[Measured<T, C>]) -> String {
    let mut out = String::from(
        "| task | command | median wall | wall throughput | wall vs engine | median CPU | MB per CPU-second |\n|---|---|---|---|---|---|---|\n",
    );
    for (task, cmd, (d, c), (engine, _), bytes) in rows {
        // A `|` inside a table cell must be escaped, even in a code span.
        let cmd = cmd.as_ref().replace('|', "\\|");
        out += &format!(
            "| {} | `{cmd}` | {:.0} ms | {:.0} MB/s | {:.2}× | {:.0} ms | {:.0} MB/s |\n",
            task.as_ref(),
            d.as_secs_f64() * 1e3,
            mbps(*bytes, *d),
            d.as_secs_f64() / engine.as_secs_f64(),
            c.as_secs_f64() * 1e3,
            mbps(*bytes, (*c).max(Duration::from_millis(1))),
        );
    }
    out
}

/// Replaces the section between `start` and `end` of docs/benchmarks.md (or appends it).
pub fn write_section(start: &str, end: &str, section: &str) {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let text = std::fs::read_to_string(&doc).unwrap_or_default();
    let new = match (text.find(start), text.find(end)) {
        (Some(a), Some(b)) if b > a => {
            format!("{}{section}{}", &text[..a], &text[b + end.len()..])
        }
        _ => format!("{}\n\n{section}\n", text.trim_end()),
    };
    std::fs::write(&doc, new).expect("write docs/benchmarks.md");
    println!("updated {}", doc.display());
}
