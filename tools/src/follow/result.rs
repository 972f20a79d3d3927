//! The tool result of a follow run: the sentence with the counts (the call's summary), the
//! command line, the last lines and notes, and the follow's data; the number and duration
//! formats it uses.

use std::time::Duration;

use super::{FollowEnd, FollowLimits, FollowOutcome};
use crate::data::{FollowData, FollowStats, ToolData};
use crate::{FullOutput, ToolResult};
use llmops_policy::ValidatedCommand;

/// `1,204`.
pub fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// (`3 分 12 秒`, `3m12s`), whole seconds.
pub fn span(d: Duration) -> (String, String) {
    let s = d.as_secs();
    let (h, m, sec) = (s / 3600, (s / 60) % 60, s % 60);
    if h > 0 {
        (
            format!("{h} 小时 {m} 分 {sec} 秒"),
            format!("{h}h{m}m{sec}s"),
        )
    } else if m > 0 {
        (format!("{m} 分 {sec} 秒"), format!("{m}m{sec}s"))
    } else {
        (format!("{sec} 秒"), format!("{sec}s"))
    }
}

/// The tool result of a follow run: the sentence with the counts first (it is the call's
/// summary), then the command line and the last lines.
pub fn to_result(
    cmd: &ValidatedCommand,
    shown: &str,
    limits: &FollowLimits,
    o: FollowOutcome,
) -> ToolResult {
    let data = follow_data(cmd, limits, &o);
    if let Some(e) = o.spawn_error {
        return ToolResult::failure_with_data(format!("命令执行失败: {e}"), data);
    }
    let text = follow_text(shown, limits, &o);
    let produced = o.bytes;
    let whole = o.whole;
    let exited_badly = matches!(o.end, FollowEnd::Exited(c) if c != Some(0));
    let mut r = if exited_badly {
        let detail = o.stderr.lines().next().unwrap_or("").trim().to_string();
        let mut r = ToolResult::failure_with_data(
            format!("命令已退出: {shown}: {detail} (the follow command exited)"),
            data,
        );
        r.output = text;
        r
    } else {
        ToolResult::success(text, data)
    };
    r.full = Some(FullOutput {
        text: whole,
        produced,
    });
    r
}

/// The structured result: the kept lines as stdout, and the follow's counts.
fn follow_data(cmd: &ValidatedCommand, limits: &FollowLimits, o: &FollowOutcome) -> ToolData {
    let kept = o.last.len() as u64;
    ToolData::Follow(FollowData {
        command: cmd.program.clone(),
        args: cmd.display_args.clone(),
        exit_code: match o.end {
            FollowEnd::Exited(c) => c,
            _ => None,
        },
        stdout: o.last.iter().map(|l| format!("{l}\n")).collect::<String>(),
        stderr: o.stderr.clone(),
        truncated: kept < o.lines,
        cwd: cmd.cwd.display().to_string(),
        timed_out: false,
        pid: o.pid,
        follow: FollowStats {
            ended: o.end,
            elapsed_ms: u64::try_from(o.elapsed.as_millis()).unwrap_or(u64::MAX),
            lines: o.lines,
            bytes: o.bytes,
            shown_lines: kept,
            not_live: o.not_live,
            cap_secs: limits.max.as_secs(),
        },
    })
}

/// Why the follow ended, in both languages.
fn end_reason(end: FollowEnd, limits: &FollowLimits) -> String {
    match end {
        FollowEnd::Cancelled => "已由用户停止 / stopped by the operator".to_string(),
        FollowEnd::Cap => {
            let (zh, en) = span(limits.max);
            format!("已达到 {zh} 上限 / reached the {en} cap")
        }
        FollowEnd::Exited(c) => format!(
            "命令已退出，退出码 {} / the command exited ({})",
            c.map_or("none".into(), |c| c.to_string()),
            c.map_or("no exit code".into(), |c| format!("exit code {c}"))
        ),
    }
}

/// The text the model sees: the counts sentence, the command line, the last lines and notes.
fn follow_text(shown: &str, limits: &FollowLimits, o: &FollowOutcome) -> String {
    let kept = o.last.len() as u64;
    let (zh_t, en_t) = span(o.elapsed);
    let n = thousands(o.lines);
    let why = end_reason(o.end, limits);
    let which = if kept == o.lines {
        format!("以下是全部 {n} 行 / all {n} lines shown")
    } else {
        let k = thousands(kept);
        format!("以下是最后 {k} 行 / last {k} shown")
    };
    let mut text = format!(
        "跟踪了 {zh_t}，收到 {n} 行，{which_zh} / followed for {en_t}, {n} lines, {which_en}（{why}）\n",
        which_zh = which.split(" / ").next().unwrap_or(""),
        which_en = which.split(" / ").nth(1).unwrap_or(""),
    );
    text.push_str(&format!("$ {shown}\n"));
    for l in &o.last {
        text.push_str(l);
        text.push('\n');
    }
    if o.not_live > 0 {
        text.push_str(&format!(
            "[实时显示时因限速省略了 {} 行，完整输出已保存 / {} lines not shown live (rate limit); the whole output is kept]\n",
            thousands(o.not_live),
            thousands(o.not_live)
        ));
    }
    if !o.stderr.trim().is_empty() {
        text.push_str(&format!("[stderr]\n{}\n", o.stderr.trim_end()));
    }
    text
}
