//! e2e scenario for reading long output: the pager with a search over a real tool output.

use llmops_tests::fixtures_dir;

use super::{ask, bar_session, start, ENTER, T};

const ALT_UP: &[u8] = b"\x1b[1;3A";

pub fn pager_search_over_a_tool_output() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    ask(&mut tui, "ps -ef")?;
    // The step line scrolls away under a long listing (how long depends on how many
    // processes the machine runs): the listing's fold marker shows the output arrived too.
    tui.wait_until("the command's output", T, |s| {
        s.contains("▸ command_executor") || s.contains("more lines)")
    })?;
    tui.wait_until("the turn to finish", T, |s| !s.contains("Ctrl+C cancels"))?;
    // The last entry is the answer; one more Alt+Up selects the tool line.
    tui.keys(ALT_UP)?;
    tui.wait_for("Enter opens it full-screen", T)?;
    tui.keys(ALT_UP)?;
    tui.keys(ENTER)?;
    tui.wait_until("the pager over the command's output", T, |s| {
        s.lines()
            .next()
            .is_some_and(|l| l.contains("command_executor") && l.contains("lines 1–"))
    })?;
    tui.keys(b"/")?;
    tui.type_text("root")?;
    tui.keys(ENTER)?;
    let s = tui.wait_for("matches for root", T)?;
    anyhow::ensure!(s.contains("match 1/"), "no current match in the title\n{s}");
    tui.keys(b"n")?;
    tui.wait_for("match 2/", T)?;
    tui.keys(b"G")?;
    tui.keys(b"q")?;
    tui.wait_until("the chat again", T, |s| s.contains("Message"))?;
    Ok(())
}

/// Two sessions with messages; the second question is typed right after `/new`, before its
/// reply (it must land in the new session, not the old one); the status bar takes the
/// title the first question gave; `/sessions`, a filter and Enter switch back, and the
/// transcript shows the other session's history.
pub fn picker_switch() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    ask(&mut tui, "内存够用吗")?;
    tui.wait_for("▸ sys_monitor", T)?;
    tui.wait_until("the turn to finish", T, |s| !s.contains("Ctrl+C cancels"))?;
    tui.wait_until("the status bar titled by the first question", T, |s| {
        bar_session(s).as_deref() == Some("内存够用吗")
    })?;
    ask(&mut tui, "/new")?;
    ask(&mut tui, "CPU使用率是多少？")?;
    tui.wait_for("❯ CPU使用率是多少？", T)?;
    tui.wait_until("the second turn to finish", T, |s| {
        s.contains("CPU 使用率") && !s.contains("Ctrl+C cancels")
    })?;
    tui.wait_until(
        "the status bar titled by the new session's question",
        T,
        |s| bar_session(s).as_deref() == Some("CPU使用率是多少？"),
    )?;
    ask(&mut tui, "/sessions")?;
    let s = tui.wait_until("both sessions in the picker", T, |s| {
        s.contains("Sessions ─") && s.contains("内存够用吗") && s.contains("CPU使用率是多少？")
    })?;
    let row = |s: &str, title: &str| -> String {
        s.lines()
            .find(|l| l.contains(title) && l.contains(" msg "))
            .unwrap_or_default()
            .to_string()
    };
    anyhow::ensure!(
        row(&s, "CPU使用率是多少？").contains("● CPU")
            && row(&s, "CPU使用率是多少？").contains("2 msg"),
        "the new session is not the current one with its two messages\n{s}"
    );
    anyhow::ensure!(
        row(&s, "内存够用吗").contains("2 msg") && !row(&s, "内存够用吗").contains('●'),
        "the first session did not keep exactly its own two messages\n{s}"
    );
    tui.type_text("内存")?;
    tui.wait_until("the filter leaves the first session", T, |s| {
        s.contains("filter: 内存") && !s.contains("● CPU使用率")
    })?;
    tui.keys(ENTER)?;
    let s = tui.wait_until("the first session's history", T, |s| {
        !s.contains("Sessions ─") && s.contains("❯ 内存够用吗")
    })?;
    anyhow::ensure!(
        !s.contains("❯ CPU使用率是多少？"),
        "the other session's question is still shown\n{s}"
    );
    anyhow::ensure!(
        bar_session(&s).as_deref() == Some("内存够用吗"),
        "the status bar does not name the session switched to\n{s}"
    );
    Ok(())
}

/// `/search` over an uploaded log, Enter on the hit: the file region around the chunk from
/// FILE_REGION: every line of the (short) file, the hit's lines marked ┃ in the gutter.
pub fn hit_viewer_shows_the_region() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    let p = fixtures_dir().join("app.log");
    let total = std::fs::read_to_string(&p)?.lines().count();
    ask(&mut tui, &format!("/upload {}", p.display()))?;
    tui.wait_for("uploaded app.log", T)?;
    ask(&mut tui, "/search inventory timeout")?;
    tui.wait_until("a hit for app.log", T, |s| {
        s.lines()
            .skip_while(|l| !l.contains("Search"))
            .any(|l| l.contains("app.log"))
    })?;
    tui.keys(b"\x1b3")?;
    tui.keys(ENTER)?;
    // The whole (short) file comes back: every line numbered, the hit's lines (from the
    // title's `lines A-B`) marked ┃ and the others │, each row the file's own text.
    let s = tui.wait_until("the region with the marked hit", T, |s| {
        s.lines().any(|l| l.starts_with("   1 "))
            && s.lines().any(|l| l.starts_with(&format!("{total:>4} ")))
    })?;
    let (a, b) = s
        .lines()
        .next()
        .and_then(|l| l.split(" · lines ").nth(1))
        .and_then(|r| r.split(' ').next())
        .and_then(|r| r.split_once('-'))
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .ok_or_else(|| anyhow::anyhow!("no hit position in the title\n{s}"))?;
    let file = std::fs::read_to_string(&p)?;
    for (i, text) in file.lines().enumerate() {
        let n = i + 1;
        let bar = if (a..=b).contains(&n) { '┃' } else { '│' };
        let want = format!("{n:>4} {bar} {text}");
        anyhow::ensure!(
            s.lines().any(|l| l.starts_with(&want)),
            "line {n} is not shown as {want:?}\n{s}"
        );
    }
    anyhow::ensure!(s.contains("matches"), "no match count\n{s}");
    tui.keys(b"q")?;
    tui.wait_until("the pager closed", T, |s| {
        !s.lines().next().is_some_and(|l| l.contains(" · lines "))
    })?;
    Ok(())
}
