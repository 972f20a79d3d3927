//! Tests of `sys_monitor {"metric":"processes"}`: the answer on a fixed table, and the real
//! sampler against planted processes (a memory hog and a busy loop) checked with `ps`.

use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;
use std::sync::Arc;
use sysinfo::MINIMUM_CPU_UPDATE_INTERVAL;

use super::*;
use crate::testutil::Env;

fn row(pid: u32, name: &str, user: &str, cpu: f64, rss: u64, cmd: &str) -> ProcessInfo {
    ProcessInfo {
        pid,
        ppid: 1,
        user: user.into(),
        name: name.into(),
        cpu_percent: cpu,
        rss_bytes: rss,
        mem_percent: sample::percent(rss, 8 << 30),
        command: cmd.into(),
        program: super::program::program_of_line(cmd, name),
    }
}

fn fixed_tool() -> SysMonitorTool {
    let table = ProcessTable {
        seq: 3,
        interval_ms: 1000,
        memory_total_bytes: 8 << 30,
        processes: vec![
            row(1, "systemd", "root", 0.0, 12 << 20, "/sbin/init"),
            row(
                4242,
                "java",
                "app",
                12.5,
                1288490189,
                "java -Xmx2g -jar orders.jar",
            ),
            row(777, "nginx", "root", 1.0, 8 << 20, "nginx: master process"),
            row(
                778,
                "nginx",
                "www-data",
                35.0,
                20 << 20,
                "nginx: worker process",
            ),
            row(900, "python3", "app", 80.0, 300 << 20, "python3 etl.py"),
        ],
    };
    let snap = Snapshot {
        seq: 3,
        cpu: CpuStats {
            cores: 2,
            ..CpuStats::default()
        },
        ..Snapshot::default()
    };
    SysMonitorTool::new(SamplerHandle::fixed_with_processes(snap, table))
}

#[tokio::test]
async fn tools_sys_monitor_processes_names_the_top_process() {
    let env = Env::new();
    let tool = fixed_tool();
    let r = tool
        .call(
            json!({"metric": "processes", "sort": "memory", "limit": 3}),
            &env.ctx,
        )
        .await;
    assert!(r.ok, "{r:?}");
    let first = r.output.lines().next().expect("headline");
    assert_eq!(
        first,
        "占用内存最多的进程: java (pid 4242, 用户 app) RSS 1.2 GiB，占内存 15.0%，CPU 12.5%"
    );
    assert!(
        r.output.contains("按内存排序的前 3 个（共 5 个进程）"),
        "{}",
        r.output
    );
    assert_eq!(r.data.to_value()["metric"], "processes");
    assert_eq!(r.data.to_value()["sort"], "memory");
    assert_eq!(r.data.to_value()["total_processes"], 5);
    assert_eq!(r.data.to_value()["memory_total_bytes"], 8u64 << 30);
    assert_eq!(r.data.to_value()["cores"], 2);
    let pids: Vec<u64> = r.data.to_value()["processes"]
        .as_array()
        .expect("array")
        .iter()
        .map(|p| p["pid"].as_u64().expect("pid"))
        .collect();
    assert_eq!(pids, vec![4242, 900, 778]);
    assert_eq!(
        r.data.to_value()["processes"][0]["rss_bytes"],
        1288490189u64
    );
    assert_eq!(r.data.to_value()["processes"][0]["user"], "app");
    assert_eq!(
        r.data.to_value()["processes"][0]["command"],
        "java -Xmx2g -jar orders.jar"
    );
    // Table: header plus three rows.
    assert_eq!(r.output.lines().count(), 2 + 1 + 3);

    // Default sort is CPU, default limit 10 (all five shown).
    let r = tool.call(json!({"metric": "processes"}), &env.ctx).await;
    assert!(r.output.starts_with(
        "占用 CPU 最多的进程: python3 (pid 900, 用户 app) CPU 80.0%（最近 1.0 秒，100% = 1 个核，共 2 核）"
    ), "{}", r.output);
    assert!(r.output.contains("按CPU排序，全部 5 个:"), "{}", r.output);
    assert_eq!(
        r.data.to_value()["processes"].as_array().map(Vec::len),
        Some(5)
    );
}

#[tokio::test]
async fn tools_sys_monitor_processes_filter_by_name() {
    let env = Env::new();
    let tool = fixed_tool();
    let r = tool
        .call(
            json!({"metric": "processes", "sort": "cpu", "name": "NGINX"}),
            &env.ctx,
        )
        .await;
    assert!(r.ok, "{r:?}");
    assert!(
        r.output.starts_with(
            "名称或命令行包含 \"NGINX\" 的进程共 2 个；其中占用 CPU 最多的进程: nginx (pid 778, 用户 www-data)"
        ),
        "{}",
        r.output
    );
    assert_eq!(r.data.to_value()["matched"], 2);
    let pids: Vec<u64> = r.data.to_value()["processes"]
        .as_array()
        .expect("array")
        .iter()
        .map(|p| p["pid"].as_u64().expect("pid"))
        .collect();
    assert_eq!(pids, vec![778, 777]);
    // Command-line matches count too.
    let r = tool
        .call(
            json!({"metric": "processes", "name": "orders.jar"}),
            &env.ctx,
        )
        .await;
    assert_eq!(r.data.to_value()["processes"][0]["pid"], 4242);

    let r = tool
        .call(json!({"metric": "processes", "name": "redis"}), &env.ctx)
        .await;
    assert!(r.ok);
    assert_eq!(
        r.output,
        "没有名称或命令行包含 \"redis\" 的进程（共检查 5 个进程）。\
         No process matched \"redis\" (5 processes checked)."
    );
    assert_eq!(r.data.to_value()["matched"], 0);
    assert_eq!(r.data.to_value()["processes"], json!([]));
}

#[tokio::test]
async fn tools_sys_monitor_processes_arguments() {
    let env = Env::new();
    let tool = fixed_tool();
    let r = tool
        .call(json!({"metric": "processes", "limit": "2"}), &env.ctx)
        .await;
    assert_eq!(
        r.data.to_value()["processes"].as_array().map(Vec::len),
        Some(2)
    );
    let r = tool
        .call(json!({"metric": "processes", "limit": 500}), &env.ctx)
        .await;
    assert_eq!(
        r.data.to_value()["processes"].as_array().map(Vec::len),
        Some(5)
    );
    let r = tool
        .call(json!({"metric": "processes", "limit": 0}), &env.ctx)
        .await;
    assert_eq!(
        r.data.to_value()["processes"].as_array().map(Vec::len),
        Some(1)
    );
    let r = tool
        .call(json!({"metric": "processes", "sort": "io"}), &env.ctx)
        .await;
    assert_eq!(
        r.error.as_deref(),
        Some("sort 必须是 cpu 或 memory: io (sort must be cpu or memory)")
    );
    let r = tool
        .call(json!({"metric": "processes", "limit": "many"}), &env.ctx)
        .await;
    assert!(!r.ok);
    // `all` stays the summary, without processes.
    let r = tool.call(json!({"metric": "all"}), &env.ctx).await;
    assert!(r.data.to_value().get("processes").is_none());
    // No table yet (fixed handle without processes): a clear failure, not an empty answer.
    let bare = SysMonitorTool::new(SamplerHandle::fixed(Snapshot {
        seq: 1,
        ..Snapshot::default()
    }));
    let r = bare.call(json!({"metric": "processes"}), &env.ctx).await;
    assert_eq!(
        r.error.as_deref(),
        Some("进程列表暂不可用 (no process table yet)")
    );
    let schema = tool.schema();
    assert_eq!(
        schema["properties"]["metric"]["enum"],
        json!(["cpu", "memory", "disk", "processes", "all"])
    );
}

/// Kills and reaps the planted children however the test ends.
struct Planted(Vec<Child>);

impl Drop for Planted {
    fn drop(&mut self) {
        for c in &mut self.0 {
            if let Err(e) = c.kill() {
                eprintln!("kill {}: {e}", c.id());
            }
            if let Err(e) = c.wait() {
                eprintln!("wait {}: {e}", c.id());
            }
        }
    }
}

/// `ps -o FIELD= -p PID`, trimmed.
fn ps(field: &str, pid: u32) -> String {
    let out = Command::new("ps")
        .args(["-o", &format!("{field}="), "-p", &pid.to_string()])
        .output()
        .expect("ps runs");
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// Waits (bounded) for a process table at least `after` samples newer than now in which
/// `pred` holds.
async fn table_where(
    h: &SamplerHandle,
    after: u64,
    pred: impl Fn(&ProcessTable) -> bool,
) -> Arc<ProcessTable> {
    let mut rx = h.subscribe();
    let start = rx.borrow_and_update().seq;
    let wait = async {
        loop {
            rx.changed().await.expect("sampler alive");
            let seq = rx.borrow_and_update().seq;
            let t = h.processes();
            if seq >= start + after && pred(&t) {
                return t;
            }
        }
    };
    tokio::time::timeout(Duration::from_secs(60), wait)
        .await
        .expect("the sampler saw the planted process within 60 s")
}

const PLANTED_MIB: u64 = 768;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tools_sys_monitor_processes_find_planted_memory_and_cpu_hogs() {
    let marker = format!("llmops-planted-{}", std::process::id());
    let bytes = PLANTED_MIB << 20;
    // A python process holding `bytes` written (so resident) bytes, then sleeping.
    let mut mem = Command::new("python3")
        .args([
            "-c",
            &format!(
                "# {marker}-mem\nimport time\nb = b'\\x01' * {bytes}\n\
                 print('ready', flush=True)\ntime.sleep(600)"
            ),
        ])
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs");
    let mem_stdout = mem.stdout.take().expect("stdout");
    let cpu = Command::new("sh")
        .args(["-c", &format!("while :; do :; done # {marker}-cpu")])
        .spawn()
        .expect("sh runs");
    let (mem_pid, cpu_pid) = (mem.id(), cpu.id());
    let _guard = Planted(vec![mem, cpu]);
    // Wait until the memory is written.
    let mut line = String::new();
    let read = tokio::task::spawn_blocking(move || {
        use std::io::BufRead;
        std::io::BufReader::new(mem_stdout)
            .read_line(&mut line)
            .map(|_| line)
    });
    let line = read.await.expect("join").expect("read");
    assert_eq!(line.trim(), "ready");

    let handle = Sampler::spawn(MINIMUM_CPU_UPDATE_INTERVAL);
    let table = table_where(&handle, 2, |t| {
        t.processes
            .iter()
            .any(|p| p.pid == mem_pid && p.rss_bytes >= bytes)
            && t.processes
                .iter()
                .any(|p| p.pid == cpu_pid && p.cpu_percent > 0.0)
    })
    .await;
    let ours = |pid: u32| {
        table
            .processes
            .iter()
            .find(|p| p.pid == pid)
            .cloned()
            .expect("listed")
    };

    // Memory: RSS within the planted size plus interpreter overhead, and equal to ps's
    // figure (taken now; the process is idle so it does not move by more than a little).
    let m = ours(mem_pid);
    assert!(
        (bytes..=bytes + (64 << 20)).contains(&m.rss_bytes),
        "rss {} vs planted {bytes}",
        m.rss_bytes
    );
    let ps_rss: u64 = ps("rss", mem_pid).parse::<u64>().expect("ps rss") * 1024;
    assert!(
        m.rss_bytes.abs_diff(ps_rss) <= 4 << 20,
        "ours {} vs ps {ps_rss}",
        m.rss_bytes
    );
    let ps_mem: f64 = ps("%mem", mem_pid).parse().expect("ps %mem");
    assert!(
        (m.mem_percent - ps_mem).abs() <= 0.2,
        "{} vs ps {ps_mem}",
        m.mem_percent
    );
    assert_eq!(m.user, ps("user", mem_pid));
    assert!(m.command.contains(&format!("{marker}-mem")), "{m:?}");

    // CPU: the busy loop is busy (one thread: at most one core).
    let c = ours(cpu_pid);
    assert!(c.cpu_percent > 5.0 && c.cpu_percent <= 100.0, "{c:?}");
    assert_eq!(c.name, "sh");
    let ps_cpu: f64 = ps("%cpu", cpu_pid).parse().expect("ps %cpu");
    assert!(ps_cpu > 5.0, "ps agrees the loop is busy: {ps_cpu}");

    // The tool names them. Filtered by the marker: exactly our two processes.
    let env = Env::new();
    let tool = SysMonitorTool::new(handle.clone());
    let r = tool
        .call(
            json!({"metric": "processes", "sort": "memory", "name": marker}),
            &env.ctx,
        )
        .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["matched"], 2, "{}", r.output);
    assert_eq!(r.data.to_value()["processes"][0]["pid"], mem_pid);
    assert!(
        r.output.contains("占用内存最多的进程: python"),
        "{}",
        r.output
    );
    assert!(
        r.output.contains(&format!("(pid {mem_pid}, 用户 ")),
        "{}",
        r.output
    );
    let r = tool
        .call(
            json!({"metric": "processes", "sort": "cpu", "name": marker}),
            &env.ctx,
        )
        .await;
    assert_eq!(
        r.data.to_value()["processes"][0]["pid"],
        cpu_pid,
        "{}",
        r.output
    );
    assert!(
        r.output
            .starts_with(&format!("名称或命令行包含 \"{marker}\" 的进程共 2 个；其中占用 CPU 最多的进程: sh (pid {cpu_pid}")),
        "{}",
        r.output
    );

    // Unfiltered: the ranking is the real one. The planted process is first by memory
    // unless `ps` shows something even larger (a compiler on a shared machine).
    let r = tool
        .call(
            json!({"metric": "processes", "sort": "memory", "limit": 50}),
            &env.ctx,
        )
        .await;
    let data = r.data.to_value();
    let rows = data["processes"].as_array().expect("array");
    let rss: Vec<u64> = rows
        .iter()
        .map(|p| p["rss_bytes"].as_u64().expect("rss"))
        .collect();
    assert!(
        rss.windows(2).all(|w| w[0] >= w[1]),
        "sorted by RSS: {rss:?}"
    );
    let pos = rows
        .iter()
        .position(|p| p["pid"] == mem_pid)
        .expect("planted process among the top 50 by memory");
    // Its rank is the number of processes with more RSS in the same sample (a linker on a
    // shared machine may briefly be bigger; comparing with a later `ps` would race), and
    // the answer names whoever is first.
    let planted = rss[pos];
    assert_eq!(
        pos,
        rss.iter().filter(|r| **r > planted).count(),
        "{}",
        r.output
    );
    let first = rows[0]["name"].as_str().expect("name");
    assert!(
        r.output.starts_with(&format!(
            "占用内存最多的进程: {first} (pid {}",
            rows[0]["pid"]
        )),
        "{}",
        r.output
    );
    // The snapshot carries both in its bounded top list.
    let snap = handle.latest();
    assert!(snap.top_processes.len() <= 2 * SNAPSHOT_TOP);
    assert!(snap.process_count >= 2);
}

#[test]
fn tools_sys_monitor_old_snapshot_json_still_parses() {
    // A snapshot as sent before memory details and processes existed.
    let old = r#"{"seq":1,"taken_at":"t","cpu":{"usage_percent":1.0,"cores":2,
        "frequency_mhz":0,"load_avg":[0.0,0.0,0.0]},
        "memory":{"total_bytes":10,"used_bytes":5,"available_bytes":5,"usage_percent":50.0},
        "disks":[]}"#;
    let s: Snapshot = serde_json::from_str(old).expect("backward compatible");
    assert_eq!(s.memory.total_bytes, 10);
    assert_eq!(s.memory.buff_cache_bytes, 0);
    assert!(s.top_processes.is_empty());
}

/// A process started after the last sample is in the table `fresh` waits for, long before
/// the sampler's own interval would have seen it.
#[tokio::test]
async fn a_fresh_sample_has_a_process_started_a_moment_ago() {
    let sampler = Sampler::spawn(Duration::from_secs(3600));
    // The first sample and the first with CPU shares, both asked for.
    sampler.fresh().await;
    sampler.fresh().await;
    let mut child = Command::new("sleep")
        .arg("30")
        .stdout(Stdio::null())
        .spawn()
        .expect("spawn sleep");
    let pid = child.id();
    let seen = |t: &ProcessTable| t.processes.iter().any(|p| p.pid == pid);
    assert!(!seen(&sampler.processes()), "the table predates the child");
    let snap = sampler.fresh().await;
    let table = sampler.processes();
    let _ = child.kill();
    let _ = child.wait();
    assert!(snap.seq >= 1);
    assert!(seen(&table), "pid {pid} missing from the fresh table");
}

/// The scanner reads a process's program off its whole command line: a script named after
/// options that push it past the shown width is still the program.
#[tokio::test]
async fn tools_sys_monitor_the_program_is_read_off_the_whole_command_line() {
    let dir = tempfile::tempdir().expect("tempdir");
    let script = dir.path().join("planted-prog.py");
    std::fs::write(&script, "import time\ntime.sleep(600)\n").expect("write script");
    let warnings = [
        "ignore::DeprecationWarning",
        "ignore::ResourceWarning",
        "ignore::UserWarning",
        "ignore::FutureWarning",
    ];
    let mut cmd = Command::new("python3");
    for w in warnings {
        cmd.args(["-W", w]);
    }
    let child = cmd.arg(&script).spawn().expect("python3 runs");
    let pid = child.id();
    let _guard = Planted(vec![child]);
    let handle = Sampler::spawn(MINIMUM_CPU_UPDATE_INTERVAL);
    // Once python runs: a version manager's shim (pyenv's, a script run by `/usr/bin/env
    // bash` under the name `python3`) may exec it a moment later.
    let interpreter = |p: &ProcessInfo| {
        let first = p.command.split_whitespace().next().unwrap_or("");
        let base = first.rsplit('/').next().unwrap_or(first);
        p.name.starts_with("python") && base.starts_with("python")
    };
    let table = table_where(&handle, 1, |t| {
        t.processes.iter().any(|p| p.pid == pid && interpreter(p))
    })
    .await;
    let p = table
        .processes
        .iter()
        .find(|p| p.pid == pid)
        .expect("listed");
    assert!(
        !p.command.contains("planted-prog"),
        "the shown command line is cut before the script: {}",
        p.command
    );
    assert_eq!(p.program, "planted-prog.py");
}
