//! e2e scenario for reading long output: the pager with a search over a real tool output.

use super::{ask, start, ENTER, T};

const ALT_UP: &[u8] = b"\x1b[1;3A";

pub fn pager_search_over_a_tool_output() -> anyhow::Result<()> {
    let (_s, mut tui) = start(120, 36)?;
    ask(&mut tui, "ps -ef")?;
    tui.wait_for("▸ command_executor", T)?;
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
