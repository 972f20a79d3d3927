//! e2e scenarios of the operator's cockpit: a planted process found by its command line in
//! the process pane, its details, and stopped after approving in the modal; the System
//! pane's I/O rates checked against the kernel's counters; `/watch 2 ss -tln` seeing a new
//! listener; and the script subcommands working in the session the TUI used.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use llmops_tests::pty::Tui;
use llmops_tests::{fixtures_dir, run_tui_in, ExtConn, ServerProc};
use protocol::{Message, MonitorSnapshot};

use super::{ask, start, ENTER, T};

const ALT_4: &[u8] = b"\x1b4";

/// An idle process nobody would see in a top list, with a command line to look for.
fn plant() -> anyhow::Result<std::process::Child> {
    Ok(std::process::Command::new("sleep")
        .arg("987654.25")
        .stdin(std::process::Stdio::null())
        .spawn()?)
}

pub fn planted_process_found_detailed_and_stopped() -> anyhow::Result<()> {
    let mut child = plant()?;
    let pid = child.id();
    let result = (|| {
        let (_s, mut tui) = start(160, 45)?;
        tui.keys(ALT_4)?;
        tui.keys(b"/")?;
        tui.type_text("987654")?;
        tui.wait_until("the planted process by its command line", T, |s| {
            s.lines()
                .any(|l| l.contains(&pid.to_string()) && l.contains("sleep 987654.25"))
        })?;
        // Enter keeps the filter; Enter again opens the details.
        tui.keys(ENTER)?;
        tui.keys(ENTER)?;
        let s = tui.wait_until("the details from /proc", T, |s| {
            s.contains("Process") && s.contains("Sockets (") && s.contains("Parent")
        })?;
        anyhow::ensure!(
            s.lines()
                .any(|l| l.contains("Command") && l.contains("sleep 987654.25")),
            "no full command line\n{s}"
        );
        anyhow::ensure!(
            s.lines()
                .any(|l| l.contains("State") && l.contains("S (sleeping)")),
            "no state\n{s}"
        );
        // k: the menu (TERM first); Enter proposes; the approval modal shows the argv.
        tui.keys(b"k")?;
        tui.wait_for("TERM", T)?;
        tui.keys(ENTER)?;
        tui.wait_until("the approval modal with the exact argv", T, |s| {
            s.contains("Approval needed") && s.contains(&format!("kill -TERM {pid}"))
        })?;
        anyhow::ensure!(
            child.try_wait()?.is_none(),
            "the process was signalled before the approval"
        );
        tui.keys(b"o")?;
        let deadline = Instant::now() + T;
        let status = loop {
            if let Some(st) = child.try_wait()? {
                break st;
            }
            anyhow::ensure!(
                Instant::now() < deadline,
                "still running after the approval\n{}",
                tui.dump()
            );
            std::thread::sleep(Duration::from_millis(100));
        };
        use std::os::unix::process::ExitStatusExt;
        anyhow::ensure!(
            status.signal() == Some(15),
            "ended by {status:?}, not SIGTERM"
        );
        tui.wait_until(
            "the approval and the verification in the transcript",
            T,
            |s| s.contains(&format!("approved: kill -TERM {pid}")),
        )?;
        anyhow::ensure!(
            !Path::new(&format!("/proc/{pid}")).exists(),
            "pid {pid} is still in /proc"
        );
        Ok(())
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}

/// `rx`, `tx` of `iface` in /proc/net/dev.
fn net_counters(iface: &str) -> anyhow::Result<(u64, u64)> {
    let text = std::fs::read_to_string("/proc/net/dev")?;
    for l in text.lines() {
        if let Some((name, rest)) = l.split_once(':') {
            if name.trim() == iface {
                let f: Vec<u64> = rest
                    .split_whitespace()
                    .filter_map(|x| x.parse().ok())
                    .collect();
                return Ok((f[0], f[8]));
            }
        }
    }
    anyhow::bail!("{iface} not in /proc/net/dev")
}

/// Bytes written to `devices` so far, from /proc/diskstats (sectors of 512 bytes).
fn disk_written(devices: &[String]) -> anyhow::Result<u64> {
    let text = std::fs::read_to_string("/proc/diskstats")?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (devices.iter().any(|d| Some(&d.as_str()) == f.get(2)))
                .then(|| f.get(9)?.parse::<u64>().ok())
                .flatten()
        })
        .sum::<u64>()
        * 512)
}

fn snapshot(c: &mut ExtConn) -> anyhow::Result<MonitorSnapshot> {
    loop {
        if let Message::MonitorSnapshot(s) = c.recv()? {
            return Ok(s);
        }
    }
}

/// Loopback traffic and fsync'd writes for as long as `run` holds.
fn load(run: Arc<AtomicBool>, dir: &Path) -> anyhow::Result<Vec<std::thread::JoinHandle<()>>> {
    let l = TcpListener::bind("127.0.0.1:0")?;
    let addr = l.local_addr()?;
    let r1 = run.clone();
    let sink = std::thread::spawn(move || {
        if let Ok((mut s, _)) = l.accept() {
            let mut buf = vec![0u8; 1 << 16];
            while r1.load(Ordering::Relaxed) && s.read(&mut buf).is_ok_and(|n| n > 0) {}
        }
    });
    let r2 = run.clone();
    let source = std::thread::spawn(move || {
        if let Ok(mut s) = TcpStream::connect(addr) {
            let chunk = vec![7u8; 1 << 16];
            // About 8 MB a second: steady enough to compare averages.
            while r2.load(Ordering::Relaxed) {
                for _ in 0..16 {
                    let _ = s.write_all(&chunk);
                }
                std::thread::sleep(Duration::from_millis(125));
            }
        }
    });
    let path = dir.join("io.bin");
    let r3 = run;
    let writer = std::thread::spawn(move || {
        let block = vec![3u8; 4 << 20];
        while r3.load(Ordering::Relaxed) {
            if let Ok(mut f) = std::fs::File::create(&path) {
                let _ = f.write_all(&block);
                let _ = f.sync_all();
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    });
    Ok(vec![sink, source, writer])
}

/// The server's rates match /proc/net/dev and /proc/diskstats: each snapshot's counters lie
/// between two reads of the kernel's files taken around it, each rate is its counter's
/// delta over the reported interval, and the average rate over a few seconds of planted
/// traffic matches the kernel's delta over the same seconds within 25%.
pub fn io_rates_match_the_kernel_counters() -> anyhow::Result<()> {
    let server = ServerProc::start()?;
    let dir = tempfile::tempdir_in(std::env::current_dir()?)?;
    let run = Arc::new(AtomicBool::new(true));
    let threads = load(run.clone(), dir.path())?;
    let result = (|| {
        // A server that just started has sampled nothing yet: subscribe again (history
        // comes with a subscription's first snapshot) until it has.
        let mut tries = 0;
        let (mut c, first) = loop {
            let mut c = ExtConn::connect(server.addr, None, None)?;
            c.send(&Message::MonitorSubscribe(protocol::MonitorSubscribe {
                interval_ms: 1000,
                processes: None,
                history: true,
            }))?;
            let first = snapshot(&mut c)?;
            tries += 1;
            if !first.history.is_empty() || tries == 20 {
                break (c, first);
            }
            std::thread::sleep(Duration::from_millis(500));
        };
        anyhow::ensure!(
            !first.history.is_empty(),
            "no history with the first snapshot after 10 s"
        );
        anyhow::ensure!(!first.cpu.per_core.is_empty(), "no per-core CPU");
        let devices: Vec<String> = first
            .disk_io
            .as_ref()
            .map(|d| d.devices.iter().map(|x| x.name.clone()).collect())
            .unwrap_or_default();
        anyhow::ensure!(!devices.is_empty(), "no disk device counted");
        let (lo0, _) = net_counters("lo")?;
        let w0 = disk_written(&devices)?;
        let t0 = Instant::now();
        let mut snaps = Vec::new();
        while snaps.len() < 5 {
            let before = (net_counters("lo")?.0, disk_written(&devices)?);
            let s = snapshot(&mut c)?;
            let after = (net_counters("lo")?.0, disk_written(&devices)?);
            snaps.push((before, s, after));
        }
        let (lo1, _) = net_counters("lo")?;
        let w1 = disk_written(&devices)?;
        let secs = t0.elapsed().as_secs_f64();
        // Counters: each snapshot's cumulative figures are the kernel's at its sample.
        let lo_of = |s: &MonitorSnapshot| -> Option<(u64, u64)> {
            let i = s.net.as_ref()?.interfaces.iter().find(|i| i.name == "lo")?;
            Some((i.rx_bytes, i.rx_bytes_per_sec))
        };
        let written_of = |s: &MonitorSnapshot| -> u64 {
            s.disk_io
                .as_ref()
                .map_or(0, |d| d.devices.iter().map(|x| x.written_bytes).sum())
        };
        for (i, (before, s, after)) in snaps.iter().enumerate().skip(1) {
            let (rx, _) = lo_of(s).ok_or_else(|| anyhow::anyhow!("no lo in the snapshot"))?;
            // The sample was taken before it was received, after the previous one.
            let prev_after = snaps[i - 1].2;
            anyhow::ensure!(
                (snaps[i - 1].0 .0..=after.0).contains(&rx),
                "lo rx {rx} outside the kernel's {}..={} (previous read {})",
                snaps[i - 1].0 .0,
                after.0,
                prev_after.0
            );
            let w = written_of(s);
            anyhow::ensure!(
                (snaps[i - 1].0 .1..=after.1).contains(&w),
                "written {w} outside the kernel's {}..={}",
                snaps[i - 1].0 .1,
                after.1
            );
            let _ = before;
        }
        // Rates: delta over the reported interval (consecutive samples are distinct).
        for pair in snaps.windows(2) {
            let (a, b) = (&pair[0].1, &pair[1].1);
            anyhow::ensure!(
                b.ts_ms > a.ts_ms,
                "the same sample twice: {} {}",
                a.ts_ms,
                b.ts_ms
            );
            let (ra, _) = lo_of(a).unwrap_or_default();
            let (rb, rate) = lo_of(b).unwrap_or_default();
            let want = rb.saturating_sub(ra) as f64 / (b.interval_ms.max(1) as f64 / 1000.0);
            anyhow::ensure!(
                (rate as f64 - want).abs() <= want * 0.05 + 1024.0,
                "lo rate {rate} vs delta/interval {want:.0} (interval {} ms)",
                b.interval_ms
            );
        }
        // Averages over the window against the kernel's delta.
        let avg = |f: &dyn Fn(&MonitorSnapshot) -> u64| -> f64 {
            snaps.iter().map(|(_, s, _)| f(s) as f64).sum::<f64>() / snaps.len() as f64
        };
        let lo_rate = avg(&|s| lo_of(s).map_or(0, |x| x.1));
        let kernel_lo = (lo1 - lo0) as f64 / secs;
        anyhow::ensure!(
            (lo_rate - kernel_lo).abs() <= kernel_lo * 0.25,
            "lo: server {lo_rate:.0} B/s, kernel {kernel_lo:.0} B/s"
        );
        let w_rate = avg(&|s| s.disk_io.as_ref().map_or(0, |d| d.write_bytes_per_sec));
        let kernel_w = (w1 - w0) as f64 / secs;
        anyhow::ensure!(
            (w_rate - kernel_w).abs() <= kernel_w * 0.25 + 256.0 * 1024.0,
            "disk writes: server {w_rate:.0} B/s, kernel {kernel_w:.0} B/s"
        );
        // And the pane shows them, per core and with history.
        let tui = Tui::start(&server.addr.to_string(), 160, 45, &[])?;
        tui.wait_until(
            "per-core CPU, net and disk rates in the System pane",
            T,
            |s| {
                s.contains("cores  0")
                    && s.lines().any(|l| l.contains("Net") && l.contains("/s"))
                    && s.lines()
                        .any(|l| l.contains("I/O") && l.contains("R ") && l.contains("W "))
            },
        )?;
        Ok(())
    })();
    run.store(false, Ordering::Relaxed);
    for t in threads {
        let _ = t.join();
    }
    result
}

pub fn watch_sees_a_new_listener() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    ask(&mut tui, "/watch 2 ss -tln")?;
    tui.wait_until("the first run of ss", T, |s| {
        s.contains("watch: ss -tln") && s.contains("LISTEN") && s.contains("run 1")
    })?;
    let l = TcpListener::bind("127.0.0.1:0")?;
    let port = l.local_addr()?.port();
    let want = format!("127.0.0.1:{port}");
    let s = tui.wait_until("the new listener in a later run", T, |s| s.contains(&want))?;
    anyhow::ensure!(
        s.lines().any(|l| l.contains(&want) && l.contains('▌')),
        "the new line is not marked as changed\n{s}"
    );
    tui.keys(b"\x1b")?;
    tui.wait_until("the watch stopped", T, |s| !s.contains("watch: ss -tln"))?;
    Ok(())
}

fn json(out: &str) -> anyhow::Result<serde_json::Value> {
    serde_json::from_str(out.trim()).map_err(|e| anyhow::anyhow!("not JSON ({e}): {out}"))
}

/// The script subcommands use the session the TUI last used on that server: `upload`,
/// `files` and `download` without `--session`; `ask` continues it; `--new-session` makes a
/// new one and leaves the remembered one alone.
pub fn scripts_share_the_tuis_session() -> anyhow::Result<()> {
    let (server, mut tui) = start(120, 36)?;
    ask(&mut tui, "CPU使用率是多少？")?;
    tui.wait_for("▸ sys_monitor", T)?;
    let state = tui.home().join("state");
    let remembered: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
        state.join("llmops/last_sessions.json"),
    )?)?;
    let addr = server.addr.to_string();
    let sid = remembered[&addr]
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("the TUI remembered no session: {remembered}"))?
        .to_string();
    let file = fixtures_dir().join("app.log");
    let file = file.to_str().unwrap_or_default();
    let (code, out, err) = run_tui_in(&state, &["upload", "--server", &addr, "--json", file])?;
    anyhow::ensure!(code == 0, "upload: {code} {err}");
    let up = json(&out)?;
    anyhow::ensure!(
        up["session_id"] == sid.as_str(),
        "upload went to {up}, not {sid}"
    );
    let fid = up["file_id"].as_str().unwrap_or_default().to_string();
    let (code, out, err) = run_tui_in(&state, &["files", "--server", &addr, "--json"])?;
    anyhow::ensure!(code == 0, "files: {code} {err}");
    let files = json(&out)?;
    anyhow::ensure!(
        files["files"]
            .as_array()
            .is_some_and(|f| f.iter().any(|x| x["file_id"] == fid.as_str())),
        "files does not list the upload: {files}"
    );
    let dest = tempfile::tempdir()?;
    let d = dest.path().to_str().unwrap_or_default();
    let (code, _, err) = run_tui_in(
        &state,
        &["download", "--server", &addr, "--out", d, "--json", &fid],
    )?;
    anyhow::ensure!(code == 0, "download: {code} {err}");
    anyhow::ensure!(
        std::fs::read(dest.path().join("app.log"))? == std::fs::read(file)?,
        "the downloaded file differs"
    );
    let (code, out, err) = run_tui_in(&state, &["ask", "--server", &addr, "--json", "内存够用吗"])?;
    anyhow::ensure!(code == 0, "ask: {code} {err}");
    anyhow::ensure!(
        json(&out)?["session_id"] == sid.as_str(),
        "ask did not continue it"
    );
    // --new-session: a new session, as before; the remembered one stays.
    let (code, out, err) = run_tui_in(
        &state,
        &["upload", "--server", &addr, "--new-session", "--json", file],
    )?;
    anyhow::ensure!(code == 0, "upload --new-session: {code} {err}");
    let up2 = json(&out)?;
    let other = up2["session_id"].as_str().unwrap_or_default().to_string();
    anyhow::ensure!(!other.is_empty() && other != sid, "no new session: {other}");
    // That session's upload is listed and fetched by naming the session, as before.
    let fid2 = up2["file_id"].as_str().unwrap_or_default().to_string();
    let (code, out, err) = run_tui_in(
        &state,
        &["files", "--server", &addr, "--session", &other, "--json"],
    )?;
    anyhow::ensure!(code == 0, "files --session: {code} {err}");
    anyhow::ensure!(
        json(&out)?["files"]
            .as_array()
            .is_some_and(|f| f.len() == 1 && f[0]["file_id"] == fid2.as_str()),
        "files --session {other} does not list only its upload: {out}"
    );
    let dest2 = tempfile::tempdir()?;
    let d2 = dest2.path().to_str().unwrap_or_default();
    let (code, _, err) = run_tui_in(
        &state,
        &[
            "download",
            "--server",
            &addr,
            "--session",
            &other,
            "--out",
            d2,
            "--json",
            &fid2,
        ],
    )?;
    anyhow::ensure!(code == 0, "download --session: {code} {err}");
    anyhow::ensure!(
        std::fs::read(dest2.path().join("app.log"))? == std::fs::read(file)?,
        "the file downloaded from the new session differs"
    );
    let (_, out, _) = run_tui_in(&state, &["files", "--server", &addr, "--json"])?;
    anyhow::ensure!(
        json(&out)?["session_id"] == sid.as_str(),
        "the remembered session changed"
    );
    Ok(())
}
