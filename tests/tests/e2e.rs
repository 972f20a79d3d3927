//! `make e2e`: the real server and the real TUI in a pseudo-terminal, driven like a user.
//! One line per scenario and a closing `N passed, N failed`; exits non-zero on any failure,
//! printing the screen of the failed scenario.

use std::time::{Duration, Instant};

use llmops_tests::pty::Tui;
use llmops_tests::{fixtures_dir, ServerProc};

const T: Duration = Duration::from_secs(20);
const ENTER: &[u8] = b"\r";
const BACKSPACE: &[u8] = b"\x7f";
const ALT_2: &[u8] = b"\x1b2";
const ESC: &[u8] = b"\x1b";
const CTRL_U: &[u8] = b"\x15";

type Scenario = fn() -> anyhow::Result<()>;

#[path = "e2e/cockpit.rs"]
mod cockpit;
#[path = "e2e/long_nights.rs"]
mod long_nights;

fn start(cols: u16, rows: u16) -> anyhow::Result<(ServerProc, Tui)> {
    let server = ServerProc::start()?;
    let tui = Tui::start(&server.addr.to_string(), cols, rows, &[])?;
    tui.wait_for("connected", T)?;
    Ok((server, tui))
}

fn ask(tui: &mut Tui, text: &str) -> anyhow::Result<()> {
    tui.type_text(text)?;
    tui.keys(ENTER)
}

fn welcome_and_gauges() -> anyhow::Result<()> {
    let (_s, tui) = start(120, 36)?;
    tui.wait_for("欢迎使用 llmops", T)?;
    tui.wait_until("CPU gauge with a percentage", T, |s| {
        s.lines()
            .any(|l| l.contains("CPU") && l.contains('%') && l.contains("cores"))
    })?;
    tui.wait_for("egress: none", T)?;
    // The gauges move: each monitor snapshot adds a sample to the CPU sparkline (the row
    // under the CPU gauge), so its drawn part grows.
    let samples = |s: &str| -> usize {
        let mut rows = s.lines().skip_while(|l| !l.contains("cores"));
        rows.nth(1)
            .and_then(|l| l.rsplit('│').nth(1))
            .map_or(0, |cell| {
                cell.chars().filter(|c| !c.is_whitespace()).count()
            })
    };
    let first = samples(&tui.screen());
    tui.wait_until("a new CPU sample in the sparkline", T, |s| {
        samples(s) > first
    })?;
    Ok(())
}

fn cpu_question_streams_an_answer() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    ask(&mut tui, "CPU使用率是多少？")?;
    tui.wait_for("▸ sys_monitor", T)?;
    tui.wait_until("an answer with a CPU percentage", T, |s| {
        s.lines()
            .any(|l| l.contains("CPU 使用率") && l.contains('%') && !l.contains('▸'))
    })?;
    Ok(())
}

fn upload_from_browser_with_note() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    std::fs::copy(fixtures_dir().join("app.log"), tui.home().join("app.log"))?;
    tui.keys(ALT_2)?;
    tui.keys(b"u")?;
    tui.wait_for("app.log", T)?;
    tui.type_text("app.lo")?;
    tui.keys(ENTER)?;
    tui.wait_until("the note prompt", T, |s| {
        s.contains("note") || s.contains("备注")
    })?;
    ask(&mut tui, "这个日志有什么错误？")?;
    tui.wait_for("uploaded app.log", T)?;
    tui.wait_until("a read or a query of the log", T, |s| {
        s.contains("▸ file_read") || s.contains("▸ log_query")
    })?;
    tui.wait_until("an answer about the log's errors", T, |s| {
        s.contains("inventory timeout") && s.contains("ERROR")
    })?;
    Ok(())
}

fn search_shows_hits_with_bars() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    let p = fixtures_dir().join("app.log");
    ask(&mut tui, &format!("/upload {}", p.display()))?;
    tui.wait_for("uploaded app.log", T)?;
    ask(&mut tui, "/search inventory timeout")?;
    tui.wait_until("a hit for app.log with a similarity bar", T, |s| {
        let search = s
            .lines()
            .skip_while(|l| !l.contains("Search"))
            .collect::<Vec<_>>();
        search.iter().any(|l| l.contains("app.log")) && search.iter().any(|l| l.contains('█'))
    })?;
    Ok(())
}

/// Uploads the nginx.conf fixture, asks for it back with `request` and waits for the offer
/// dialog; returns the fixture's path.
fn offer_nginx(tui: &mut Tui, request: &str) -> anyhow::Result<std::path::PathBuf> {
    let p = fixtures_dir().join("nginx.conf");
    ask(tui, &format!("/upload {}", p.display()))?;
    tui.wait_for("uploaded nginx.conf", T)?;
    ask(tui, request)?;
    tui.wait_for("[a] accept", T)?;
    Ok(p)
}

fn wait_rejected(tui: &mut Tui) -> anyhow::Result<()> {
    tui.wait_until("the rejection acknowledged", T, |s| {
        s.contains("declined") || s.contains("已拒绝")
    })?;
    Ok(())
}

fn offer_accept_puts_the_verified_file_on_disk() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    let p = offer_nginx(&mut tui, "把配置文件发给我")?;
    tui.keys(b"a")?;
    // The save-as prompt starts at the download folder (HOME here) with the offered name;
    // Ctrl+U clears it and a relative path lands under that folder, created on demand.
    let home = tui.home().to_path_buf();
    tui.wait_for(&home.join("nginx.conf").display().to_string(), T)?;
    tui.wait_for("Save download as", T)?;
    tui.keys(CTRL_U)?;
    tui.type_text("saved/nginx-copy.conf")?;
    tui.wait_for("saved/nginx-copy.conf", T)?;
    tui.keys(ENTER)?;
    tui.wait_for("sha256 verified", T)?;
    let got = std::fs::read(home.join("saved/nginx-copy.conf"))?;
    anyhow::ensure!(got == std::fs::read(&p)?, "downloaded bytes differ");
    anyhow::ensure!(
        !home.join("nginx.conf").exists(),
        "the default path was used instead of the typed one"
    );
    Ok(())
}

fn offer_overwrite_needs_confirmation_then_reject_another() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    let dest = tui.home().join("nginx.conf");
    std::fs::write(&dest, "old contents\n")?;
    let p = offer_nginx(&mut tui, "把配置文件发给我")?;
    tui.keys(b"a")?;
    tui.wait_for("Save download as", T)?;
    tui.keys(ENTER)?;
    // The existing file needs a second answer: "n" goes back to the prompt untouched.
    tui.wait_for("already exists", T)?;
    tui.keys(b"n")?;
    tui.wait_for("Save download as", T)?;
    anyhow::ensure!(
        std::fs::read_to_string(&dest)? == "old contents\n",
        "the file changed before the overwrite was confirmed"
    );
    tui.keys(ENTER)?;
    tui.wait_for("already exists", T)?;
    tui.keys(b"y")?;
    tui.wait_for("sha256 verified", T)?;
    anyhow::ensure!(
        std::fs::read(&dest)? == std::fs::read(&p)?,
        "the confirmed overwrite did not replace the file"
    );
    // Close the result view, then reject the next offer of the same file.
    tui.keys(ESC)?;
    tui.wait_until("the result view closed", T, |s| !s.contains("Download ─"))?;
    ask(&mut tui, "再发一次 nginx.conf")?;
    tui.wait_for("[a] accept", T)?;
    tui.keys(b"r")?;
    wait_rejected(&mut tui)?;
    anyhow::ensure!(
        std::fs::read(&dest)? == std::fs::read(&p)?,
        "a rejected offer touched the file"
    );
    Ok(())
}

/// The id prefix of the session marked `●` (current) in the `/sessions` picker.
fn current_session_prefix(screen: &str) -> Option<String> {
    screen.lines().find_map(|l| {
        // "● title   2 msg  2026-11-24 04:29  8583d4e2│…": the word after the time.
        let meta = l.split('●').nth(1)?.split(" msg ").nth(1)?;
        let id = meta.split_whitespace().nth(2)?;
        Some(id.split('│').next()?.chars().take(8).collect())
    })
}

/// Opens the picker, reads the current session's id prefix and closes it again.
fn picker_current(tui: &mut Tui) -> anyhow::Result<String> {
    ask(tui, "/sessions")?;
    let s = tui.wait_until("the picker with the current session", T, |s| {
        current_session_prefix(s).is_some()
    })?;
    tui.keys(ESC)?;
    tui.wait_until("the picker closed", T, |s| !s.contains("Sessions ─"))?;
    current_session_prefix(&s).ok_or_else(|| anyhow::anyhow!("no current session\n{s}"))
}

fn switch_sessions_restores_history() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    ask(&mut tui, "内存够用吗")?;
    tui.wait_for("▸ sys_monitor", T)?;
    tui.wait_until("the turn to finish", T, |s| !s.contains("Ctrl+C cancels"))?;
    let first = picker_current(&mut tui)?;
    ask(&mut tui, "/new")?;
    tui.wait_until("a new, empty session", T, |s| {
        !s.contains("❯ 内存够用吗") && s.contains("✓ session ")
    })?;
    let second = picker_current(&mut tui)?;
    anyhow::ensure!(first != second, "/new kept the session {first}");
    ask(&mut tui, &format!("/switch {first}"))?;
    // The switch reloads that session's history (the new one has none).
    tui.wait_for("❯ 内存够用吗", T)?;
    let s = picker_current(&mut tui)?;
    anyhow::ensure!(s == first, "not back in session {first} but {s}");
    Ok(())
}

fn offer_reject_is_acknowledged() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    offer_nginx(&mut tui, "send me nginx.conf")?;
    tui.keys(b"r")?;
    wait_rejected(&mut tui)?;
    anyhow::ensure!(
        !tui.home().join("nginx.conf").exists(),
        "a rejected file was written"
    );
    Ok(())
}

fn chinese_typing_and_deleting_leaves_no_residue() -> anyhow::Result<()> {
    let (_s, mut tui) = start(100, 30)?;
    tui.type_text("你好世界😀")?;
    tui.wait_for("你好世界😀", T)?;
    for _ in 0..5 {
        tui.keys(BACKSPACE)?;
    }
    tui.wait_until("an empty input", T, |s| {
        !s.contains('你')
            && !s.contains('好')
            && !s.contains('世')
            && !s.contains('界')
            && !s.contains('😀')
    })?;
    tui.type_text("测试")?;
    let s = tui.wait_for("测试", T)?;
    let line = s.lines().find(|l| l.contains("测试")).unwrap_or_default();
    anyhow::ensure!(
        !line.contains("世") && !line.contains('界'),
        "residue: {line}"
    );
    // A bracketed paste lands in the input as text, newlines included, and is sent as one.
    for _ in 0..2 {
        tui.keys(BACKSPACE)?;
    }
    tui.paste("粘贴第一行\nsecond pasted line")?;
    tui.wait_for("second pasted line", T)?;
    tui.keys(ENTER)?;
    tui.wait_for("❯ 粘贴第一行", T)?;
    Ok(())
}

fn resize_small_and_back() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    tui.wait_for("Files", T)?;
    tui.resize(60, 20)?;
    tui.wait_until("a narrow layout that still shows the connection", T, |s| {
        s.lines().count() <= 20
            && s.lines().all(|l| l.chars().count() <= 60)
            && s.contains("connected")
    })?;
    tui.resize(30, 8)?;
    tui.wait_until("the too-small notice", T, |s| {
        s.to_lowercase().contains("small") || s.contains("太小")
    })?;
    tui.resize(120, 36)?;
    tui.wait_until("the wide layout with gauges", T, |s| {
        s.contains("CPU") && s.contains("Files")
    })?;
    ask(&mut tui, "hi")?;
    tui.wait_for("❯ hi", T)?;
    // Ctrl+C when idle quits, and the terminal program exits cleanly. The greeting shown
    // and no turn running: a Ctrl+C sent earlier would cancel the turn instead.
    tui.wait_until("the turn to finish", T, |s| {
        s.contains("llmops operations assistant")
            && s.contains("● connected")
            && !s.contains("thinking")
            && !s.contains("Ctrl+C cancels")
    })?;
    std::thread::sleep(Duration::from_millis(300));
    // Ctrl+C when idle asks first; the second one within 2 s quits.
    tui.keys(b"\x03")?;
    tui.wait_for("Ctrl+C again", T)?;
    tui.keys(b"\x03")?;
    anyhow::ensure!(tui.wait_exit(T)?, "llmops-tui exited with an error");
    Ok(())
}

/// The session name in the status bar.
fn bar_session(s: &str) -> Option<String> {
    s.lines()
        .find(|l| l.contains("session:") && l.contains("connected"))
        .and_then(|l| l.split("session:").nth(1))
        .map(|x| x.split('│').next().unwrap_or_default().trim().to_string())
}

fn quit_asks_and_relaunch_resumes_the_session() -> anyhow::Result<()> {
    let server = ServerProc::start()?;
    let addr = server.addr.to_string();
    let mut tui = Tui::start(&addr, 120, 36, &[])?;
    tui.wait_for("connected", T)?;
    ask(&mut tui, "/rename incident-42")?;
    tui.wait_for("session renamed to incident-42", T)?;
    ask(&mut tui, "内存够用吗")?;
    tui.wait_for("▸ sys_monitor", T)?;
    tui.wait_until("the turn to finish", T, |s| !s.contains("Ctrl+C cancels"))?;
    tui.keys(b"\x03")?;
    let s = tui.wait_for("Ctrl+C again", T)?;
    anyhow::ensure!(s.contains("/quit"), "the hint names /quit\n{s}");
    tui.keys(b"\x03")?;
    anyhow::ensure!(tui.wait_exit(T)?, "llmops-tui exited with an error");
    let home = tui
        .take_home()
        .ok_or_else(|| anyhow::anyhow!("no home to relaunch in"))?;
    drop(tui);
    // Relaunched: the same session, its history reloaded.
    let mut again = Tui::start_in(&addr, 120, 36, &[], home)?;
    // The cached history can be drawn before the connection is up; the bar names the
    // session only once connected, so wait for both.
    let s = again.wait_until("the history and the session", T, |s| {
        s.contains("❯ 内存够用吗") && bar_session(s).is_some()
    })?;
    anyhow::ensure!(
        bar_session(&s).as_deref() == Some("incident-42"),
        "not the same session\n{s}"
    );
    // --new-session starts fresh.
    let home = again
        .take_home()
        .ok_or_else(|| anyhow::anyhow!("no home to relaunch in"))?;
    drop(again);
    let fresh = Tui::start_in(&addr, 120, 36, &["--new-session"], home)?;
    let s = fresh.wait_until("a session in the bar", T, |s| bar_session(s).is_some())?;
    anyhow::ensure!(
        bar_session(&s).as_deref() != Some("incident-42"),
        "--new-session resumed\n{s}"
    );
    Ok(())
}

fn processes_pane_shows_a_busy_process() -> anyhow::Result<()> {
    // A CPU-busy process with a name to look for (comm is the name it was run as).
    let dir = tempfile::tempdir()?;
    let burner = dir.path().join("llmops-burner");
    std::os::unix::fs::symlink("/bin/sh", &burner)?;
    let mut child = std::process::Command::new(&burner)
        .args(["-c", "while :; do :; done"])
        .spawn()?;
    let pid = child.id();
    let result = (|| {
        let (_s, mut tui) = start(120, 36)?;
        tui.keys(b"\x1b4")?;
        tui.keys(b"/")?;
        tui.type_text("burner")?;
        tui.wait_until("the planted process in the list", T, |s| {
            s.lines()
                .any(|l| l.contains(&pid.to_string()) && l.contains("llmops-burner"))
        })?;
        // Enter keeps the filter; `a` asks the agent about it.
        tui.keys(ENTER)?;
        tui.keys(b"a")?;
        // The question is at the top of the transcript (Home on the empty input); the
        // answer may still be growing below it, so Home is pressed until it shows.
        let want = format!("❯ 进程 {pid}（llmops-burner）在做什么？");
        let deadline = Instant::now() + T;
        while !tui.screen().contains(&want) {
            anyhow::ensure!(
                Instant::now() < deadline,
                "the question never showed\n{}",
                tui.dump()
            );
            tui.keys(b"\x1b[H")?;
            std::thread::sleep(Duration::from_millis(300));
        }
        Ok(())
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn reconnects_and_resumes_after_server_restart() -> anyhow::Result<()> {
    let server = ServerProc::start()?;
    let addr = server.addr.to_string();
    let mut tui = Tui::start(&addr, 120, 36, &[])?;
    tui.wait_for("connected", T)?;
    ask(&mut tui, "CPU使用率是多少？")?;
    tui.wait_for("▸ sys_monitor", T)?;
    let session_line = |s: &str| {
        s.lines()
            .find(|l| l.contains("session:") && l.contains("connected"))
            .and_then(|l| l.split("session:").nth(1))
            .map(|x| x.split('│').next().unwrap_or_default().trim().to_string())
    };
    // A new session is titled from its first question once the turn ends: read the name
    // after that, so the comparison below is about resuming, not about the title.
    let titled = tui.wait_until("the session titled from its question", T, |s| {
        session_line(s).is_some_and(|n| n.contains("CPU"))
    })?;
    let before = session_line(&titled).unwrap_or_default();
    let dir = server.kill9();
    tui.wait_until("the reconnecting state", T, |s| {
        s.to_lowercase().contains("reconnect")
    })?;
    let _server = ServerProc::start_in(dir, &["--listen", &addr])?;
    let s = tui.wait_until("connected again", Duration::from_secs(40), |s| {
        s.lines().any(|l| l.contains("● connected"))
    })?;
    let after = session_line(&s).unwrap_or_default();
    anyhow::ensure!(
        !before.is_empty() && before == after,
        "session changed: {before:?} -> {after:?}"
    );
    ask(&mut tui, "内存够用吗")?;
    tui.wait_for("▸ sys_monitor {\"metric\":\"memory\"}", T)?;
    Ok(())
}

fn download_through_lossy_relay() -> anyhow::Result<()> {
    use llmops_tests::relay::{Impairment, Relay};
    // Capped at 512 KiB/s so the ~1.3 MB transfer spans many 250 ms progress reports and
    // the window strip is on screen for seconds, not by luck.
    let relay = Relay::bind(
        Impairment {
            rate: Some(512 * 1024),
            queue: Duration::from_millis(100),
            ..Impairment::lossy(0.10)
        },
        7,
    )?;
    let server = ServerProc::start_with(&["--rdt-advertise", &relay.addr.to_string()])?;
    relay.set_upstream(
        server
            .rdt_addr
            .ok_or_else(|| anyhow::anyhow!("no rdt address"))?,
    );
    let mut tui = Tui::start(&server.addr.to_string(), 120, 36, &[])?;
    tui.wait_for("connected", T)?;
    // A 2 MB text file (uploads must be text).
    let body: String = (0..40_000)
        .map(|i| format!("2026-11-02 line {i} payload ok\n"))
        .collect();
    let src = tui.home().join("src");
    std::fs::create_dir_all(&src)?;
    std::fs::write(src.join("big.log"), &body)?;
    ask(
        &mut tui,
        &format!("/upload {}", src.join("big.log").display()),
    )?;
    tui.wait_for("uploaded big.log", T)?;
    ask(&mut tui, "下载 big.log")?;
    tui.wait_for("[a] accept", T)?;
    tui.keys(b"a")?;
    tui.wait_for("Save download as", T)?;
    tui.keys(ENTER)?;
    // While it runs, the transfer view shows the window strip with its legend.
    let s = tui.wait_until("the window strip or the result", T, |s| {
        s.contains("cwnd") || s.contains("sha256 verified")
    })?;
    anyhow::ensure!(
        s.contains("in flight") && s.contains("lost") && s.contains("cwnd"),
        "the transfer finished before its window strip was drawn\n{s}"
    );
    tui.wait_for("sha256 verified", Duration::from_secs(90))?;
    anyhow::ensure!(
        std::fs::read(tui.home().join("big.log"))? == body.as_bytes(),
        "bytes differ"
    );
    let dropped = relay
        .stats
        .dropped
        .load(std::sync::atomic::Ordering::Relaxed);
    anyhow::ensure!(
        dropped > 0,
        "the relay dropped nothing: it was not in the path"
    );
    Ok(())
}

/// A planted memory hog and a 20,000-line log with known counts: the answers through the
/// real TUI name the process (with its pid) and give the log's exact counts.
fn incident_answers_name_the_process_and_exact_counts() -> anyhow::Result<()> {
    use std::io::BufRead;
    let mut hog = std::process::Command::new(env!("CARGO_BIN_EXE_memhog"))
        .arg("700")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()?;
    // Dropping the guard closes the hog's stdin and reaps it, also when a wait fails.
    struct Reap(std::process::Child);
    impl Drop for Reap {
        fn drop(&mut self) {
            drop(self.0.stdin.take());
            if self.0.kill().is_err() {
                eprintln!("memhog already gone");
            }
            if let Err(e) = self.0.wait() {
                eprintln!("memhog wait: {e}");
            }
        }
    }
    let mut line = String::new();
    std::io::BufReader::new(hog.stdout.take().expect("piped stdout")).read_line(&mut line)?;
    let hog = Reap(hog);
    let pid = hog.0.id();
    anyhow::ensure!(line.starts_with("ready"), "memhog did not start: {line:?}");

    let (_s, mut tui) = start(160, 45)?;
    let log = llmops_tests::planted_log(20_000, 7);
    let path = tui.home().join("orders.log");
    std::fs::write(&path, &log.text)?;
    ask(&mut tui, &format!("/upload {}", path.display()))?;
    tui.wait_for("uploaded orders.log", T)?;
    ask(&mut tui, "orders.log 里有多少个 ERROR？")?;
    let want = format!("**{}**", log.errors);
    let lines = format!("共 {} 行", log.errors);
    // "共 390 条", or "共 390" at a line's end when the answer wraps before "条".
    let events = format!("共 {} ", log.errors);
    tui.wait_until("the exact ERROR count of the whole log", T, |s| {
        s.contains(&want) || s.contains(&lines) || s.contains(&events)
    })?;
    // Read whole, with the file's line count (`wc -l`).
    tui.wait_until("the whole file's line count", T, |s| {
        s.contains(&format!("全文共 {} 行", log.lines))
            || (s.contains("全文") && s.contains(&format!("{} 行", log.lines)))
    })?;
    ask(&mut tui, "哪个进程占用内存最多")?;
    tui.wait_until("the hog named with its pid", T, |s| {
        s.contains(&format!("memhog（pid {pid}"))
    })?;
    Ok(())
}

fn main() {
    let scenarios: &[(&str, Scenario)] = &[
        ("connect: welcome and gauges", welcome_and_gauges),
        (
            "ask CPU: streamed answer with a number",
            cpu_question_streams_an_answer,
        ),
        (
            "upload from the browser with a note",
            upload_from_browser_with_note,
        ),
        (
            "/search: hits with similarity bars",
            search_shows_hits_with_bars,
        ),
        (
            "download offer: accept, verified file on disk",
            offer_accept_puts_the_verified_file_on_disk,
        ),
        (
            "download offer: reject is acknowledged",
            offer_reject_is_acknowledged,
        ),
        (
            "download offer: overwrite needs a yes, then reject another",
            offer_overwrite_needs_confirmation_then_reject_another,
        ),
        (
            "sessions: /new, /switch back restores the history",
            switch_sessions_restores_history,
        ),
        (
            "Chinese typing and deleting: no residue",
            chinese_typing_and_deleting_leaves_no_residue,
        ),
        (
            "resize to 60x20, too small, and back",
            resize_small_and_back,
        ),
        (
            "Ctrl+C when idle asks, a second quits; relaunch resumes the session",
            quit_asks_and_relaunch_resumes_the_session,
        ),
        (
            "processes pane: a planted CPU-busy process, `a` asks about it",
            processes_pane_shows_a_busy_process,
        ),
        (
            "cockpit: a planted process found by command line, detailed, stopped after approval",
            cockpit::planted_process_found_detailed_and_stopped,
        ),
        (
            "cockpit: I/O rates match /proc/net/dev and /proc/diskstats; per-core CPU shown",
            cockpit::io_rates_match_the_kernel_counters,
        ),
        (
            "cockpit: /watch 2 ss -tln sees a new listener",
            cockpit::watch_sees_a_new_listener,
        ),
        (
            "cockpit: upload, files, download and ask in the TUI's session without --session",
            cockpit::scripts_share_the_tuis_session,
        ),
        (
            "server restart: reconnect and resume",
            reconnects_and_resumes_after_server_restart,
        ),
        (
            "download through the UDP relay at 10% loss, window strip shown",
            download_through_lossy_relay,
        ),
        (
            "incident: the memory hog is named, the log's counts are exact",
            incident_answers_name_the_process_and_exact_counts,
        ),
        (
            "pager: a tool output opened full-screen, searched with / and n",
            long_nights::pager_search_over_a_tool_output,
        ),
        (
            "picker switch: two sessions, filter, Enter switches, history shown",
            long_nights::picker_switch,
        ),
        (
            "hit viewer: Enter on a search hit shows the file region around it",
            long_nights::hit_viewer_shows_the_region,
        ),
    ];
    let filter = std::env::args().nth(1).filter(|a| !a.starts_with('-'));
    let (mut passed, mut failed) = (0, 0);
    for (name, f) in scenarios {
        if filter.as_ref().is_some_and(|x| !name.contains(x.as_str())) {
            continue;
        }
        let t = Instant::now();
        match f() {
            Ok(()) => {
                passed += 1;
                println!("ok   {name} ({:.1}s)", t.elapsed().as_secs_f64());
            }
            Err(e) => {
                failed += 1;
                println!("FAIL {name} ({:.1}s)\n{e:#}", t.elapsed().as_secs_f64());
            }
        }
    }
    println!("{passed} passed, {failed} failed");
    if failed > 0 {
        std::process::exit(1);
    }
}
