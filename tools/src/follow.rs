//! Follow mode: runs a follow command (`tail -f`, `journalctl -f`: a `ValidatedCommand` with
//! `follow` set) and streams its lines to the client live (batched, rate limited) until the
//! operator cancels the turn or the cap (`follow_max_secs`, default 10 min) is reached. It
//! ends with an OK result holding the last N lines and the counts; the whole output (up to
//! the per-step cap) goes to the session's output store. The child is always killed and
//! reaped at the end.

use std::collections::VecDeque;
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncReadExt, BufReader};
use tokio::process::{Child, ChildStdout};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

mod result;

use super::live::{LiveChunk, LiveSink};
use super::{ToolCtx, ToolResult};
use crate::audit::AuditOp;
pub use crate::data::FollowEnd;
use llmops_policy::ValidatedCommand;
use llmops_policy::SAFE_PATH;

pub use result::{span, thousands, to_result};

/// Limits of one follow run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowLimits {
    /// The cap: a follow ends after this long.
    pub max: Duration,
    /// Lines kept for the result (the last N).
    pub keep_lines: usize,
    /// Live lines are sent at most this often.
    pub batch_every: Duration,
    /// At most this many lines a second are sent live; the rest are counted as dropped.
    pub live_lines_per_sec: u32,
    /// Bytes of the whole output kept for the session's store.
    pub store_cap: usize,
}

impl Default for FollowLimits {
    fn default() -> Self {
        FollowLimits {
            max: Duration::from_secs(600),
            keep_lines: 200,
            batch_every: Duration::from_millis(250),
            live_lines_per_sec: 100,
            store_cap: crate::outputs::STEP_CAP,
        }
    }
}

/// Extra time the agent gives a follow beyond its cap (kill, reap, result).
pub const FOLLOW_GRACE: Duration = Duration::from_secs(5);
/// A live line longer than this is cut (the stored output keeps it whole).
pub const LIVE_LINE_MAX: usize = 2000;
const STDERR_CAP: usize = 16 * 1024;

/// What a follow run saw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FollowOutcome {
    pub end: FollowEnd,
    pub elapsed: Duration,
    /// Lines read (a last line without a newline counts).
    pub lines: u64,
    pub bytes: u64,
    /// Lines not sent live because of the rate limit.
    pub not_live: u64,
    /// The last `keep_lines` lines.
    pub last: Vec<String>,
    /// Everything read, up to `store_cap` bytes.
    pub whole: String,
    pub stderr: String,
    pub pid: Option<u32>,
    pub spawn_error: Option<String>,
}

/// Batches live lines: a chunk at most every `every`, at most `per_sec` lines a second;
/// lines over the rate are counted, not sent. Time is passed in, so it is testable.
#[derive(Debug)]
pub struct LiveBatcher {
    every: Duration,
    per_sec: u32,
    pending: Vec<String>,
    dropped: u64,
    dropped_sum: u64,
    total: u64,
    window_start: Instant,
    in_window: u32,
    last_flush: Instant,
}

impl LiveBatcher {
    pub fn new(every: Duration, per_sec: u32, now: Instant) -> Self {
        LiveBatcher {
            every,
            per_sec,
            pending: Vec::new(),
            dropped: 0,
            dropped_sum: 0,
            total: 0,
            window_start: now,
            in_window: 0,
            last_flush: now,
        }
    }

    pub fn push(&mut self, line: &str, now: Instant) {
        self.total += 1;
        if now.duration_since(self.window_start) >= Duration::from_secs(1) {
            self.window_start = now;
            self.in_window = 0;
        }
        if self.in_window < self.per_sec {
            self.in_window += 1;
            self.pending.push(cut_line(line));
        } else {
            self.dropped += 1;
            self.dropped_sum += 1;
        }
    }

    /// Lines not sent live so far (rate limit).
    pub fn dropped_total(&self) -> u64 {
        self.dropped_sum
    }

    /// A chunk when one is due (`every` since the last) and there is something to say.
    pub fn due(&mut self, now: Instant) -> Option<LiveChunk> {
        if now.duration_since(self.last_flush) < self.every {
            return None;
        }
        self.flush(now)
    }

    /// Whatever is pending, now (the end of the run).
    pub fn flush(&mut self, now: Instant) -> Option<LiveChunk> {
        if self.pending.is_empty() && self.dropped == 0 {
            return None;
        }
        self.last_flush = now;
        Some(LiveChunk {
            lines: std::mem::take(&mut self.pending),
            dropped: std::mem::take(&mut self.dropped),
            total: self.total,
        })
    }
}

fn cut_line(line: &str) -> String {
    if line.len() <= LIVE_LINE_MAX {
        return line.to_string();
    }
    let mut end = LIVE_LINE_MAX;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &line[..end])
}

async fn read_stderr<R: AsyncRead + Unpin>(r: Option<R>) -> String {
    let Some(mut r) = r else {
        return String::new();
    };
    let mut kept = Vec::new();
    let mut chunk = [0u8; 4096];
    loop {
        match r.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = STDERR_CAP.saturating_sub(kept.len());
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
    String::from_utf8_lossy(&kept).into_owned()
}

/// Runs `cmd` in follow mode. Never returns before the child is killed and reaped.
pub async fn run(
    cmd: &ValidatedCommand,
    limits: &FollowLimits,
    live: &LiveSink,
    cancel: &CancellationToken,
) -> FollowOutcome {
    let started = Instant::now();
    let mut out = FollowOutcome {
        end: FollowEnd::Exited(None),
        elapsed: Duration::ZERO,
        lines: 0,
        bytes: 0,
        not_live: 0,
        last: Vec::new(),
        whole: String::new(),
        stderr: String::new(),
        pid: None,
        spawn_error: None,
    };
    if cancel.is_cancelled() {
        out.end = FollowEnd::Cancelled;
        return out;
    }
    if let Err(e) = tokio::fs::create_dir_all(&cmd.cwd).await {
        out.spawn_error = Some(format!("无法创建工作目录 {}: {e}", cmd.cwd.display()));
        return out;
    }
    let mut child = match spawn(cmd) {
        Ok(c) => c,
        Err(why) => {
            out.spawn_error = Some(why);
            return out;
        }
    };
    out.pid = child.id();
    let stderr_task = tokio::spawn(read_stderr(child.stderr.take()));
    // Kept open until the child is killed: it must not see a closed pipe first.
    let mut reader = child.stdout.take().map(BufReader::new);
    let mut kept = Kept::new(limits);
    let end = follow_lines(
        &mut child,
        &mut reader,
        &mut kept,
        &mut out,
        started + limits.max,
        live,
        cancel,
    )
    .await;
    if let Err(e) = child.start_kill() {
        // Already exited (the Exited case) is the normal reason.
        tracing::debug!(program = %cmd.program, "follow kill: {e}");
    }
    if let Err(e) = child.wait().await {
        tracing::warn!(program = %cmd.program, "follow reap failed: {e}");
    }
    if let Some(c) = kept.batcher.flush(Instant::now()) {
        live.send(c);
    }
    out.stderr = match tokio::time::timeout(Duration::from_secs(2), stderr_task).await {
        Ok(Ok(s)) => s,
        _ => String::new(),
    };
    out.not_live = kept.batcher.dropped_total();
    out.last = kept.ring.into_iter().collect();
    out.end = end;
    out.elapsed = started.elapsed();
    out
}

/// Starts the follow command without a shell, in a cleared environment; the error is the
/// user-facing message.
fn spawn(cmd: &ValidatedCommand) -> Result<Child, String> {
    let mut command = tokio::process::Command::new(&cmd.program);
    command
        .args(&cmd.argv)
        .current_dir(&cmd.cwd)
        .env_clear()
        .env("PATH", SAFE_PATH)
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", &cmd.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    command.spawn().map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            format!("找不到命令: {} (command not found)", cmd.program)
        } else {
            format!("无法启动命令 {}: {e}", cmd.program)
        }
    })
}

/// What a follow keeps of the lines it reads: the last `keep_lines`, the whole output up
/// to the store cap, and the live batches.
struct Kept<'a> {
    limits: &'a FollowLimits,
    ring: VecDeque<String>,
    whole_full: bool,
    batcher: LiveBatcher,
}

impl<'a> Kept<'a> {
    fn new(limits: &'a FollowLimits) -> Kept<'a> {
        Kept {
            limits,
            ring: VecDeque::with_capacity(limits.keep_lines.min(4096)),
            whole_full: false,
            batcher: LiveBatcher::new(
                limits.batch_every,
                limits.live_lines_per_sec,
                Instant::now(),
            ),
        }
    }

    /// Counts one line read (`raw`, with its newline if any) and keeps it.
    fn take_line(&mut self, raw: &[u8], out: &mut FollowOutcome) {
        let text = String::from_utf8_lossy(raw);
        let line = text.strip_suffix('\n').unwrap_or(&text);
        let line = line.strip_suffix('\r').unwrap_or(line);
        out.lines += 1;
        out.bytes += raw.len() as u64;
        if !self.whole_full {
            if out.whole.len() + line.len() < self.limits.store_cap {
                out.whole.push_str(line);
                out.whole.push('\n');
            } else {
                self.whole_full = true;
            }
        }
        if self.limits.keep_lines > 0 {
            if self.ring.len() == self.limits.keep_lines {
                self.ring.pop_front();
            }
            self.ring.push_back(line.to_string());
        }
        self.batcher.push(line, Instant::now());
    }
}

/// Reads the child's lines, sending live batches as they fall due, until it exits, the
/// `deadline` (the cap) or cancellation. A partial last line still counts.
async fn follow_lines(
    child: &mut Child,
    reader: &mut Option<BufReader<ChildStdout>>,
    kept: &mut Kept<'_>,
    out: &mut FollowOutcome,
    deadline: Instant,
    live: &LiveSink,
    cancel: &CancellationToken,
) -> FollowEnd {
    let mut buf: Vec<u8> = Vec::new();
    let cap = tokio::time::sleep_until(deadline);
    tokio::pin!(cap);
    let every = kept.limits.batch_every.max(Duration::from_millis(10));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let end = loop {
        let Some(r) = reader.as_mut() else {
            break FollowEnd::Exited(None);
        };
        tokio::select! {
            biased;
            () = cancel.cancelled() => break FollowEnd::Cancelled,
            () = &mut cap => break FollowEnd::Cap,
            _ = tick.tick() => {
                if let Some(c) = kept.batcher.due(Instant::now()) {
                    live.send(c);
                }
            }
            // read_until keeps partial bytes in `buf` when another branch wins.
            res = r.read_until(b'\n', &mut buf) => match res {
                Ok(0) | Err(_) => {
                    if !buf.is_empty() {
                        kept.take_line(&buf, out);
                        buf.clear();
                    }
                    let status = tokio::time::timeout(Duration::from_secs(2), child.wait()).await;
                    break FollowEnd::Exited(status.ok().and_then(|s| s.ok()).and_then(|s| s.code()));
                }
                Ok(_) => {
                    kept.take_line(&buf, out);
                    buf.clear();
                }
            },
        }
    };
    // A partial last line read before the end still counts.
    if !buf.is_empty() {
        kept.take_line(&buf, out);
    }
    end
}

/// Runs a validated follow command for a tool call: asks the agent for the time it needs,
/// follows, audits, and builds the result. The one entry point `command_executor` calls.
pub async fn run_tool(cmd: &ValidatedCommand, shown: &str, ctx: &ToolCtx) -> ToolResult {
    let limits = ctx.follow.clone();
    ctx.budget.extend_to(limits.max + FOLLOW_GRACE);
    let o = run(cmd, &limits, &ctx.live, &ctx.cancel).await;
    let status = if o.spawn_error.is_some() {
        "spawn_error"
    } else {
        o.end.as_str()
    };
    let exit = match o.end {
        FollowEnd::Exited(Some(c)) => c.to_string(),
        _ => "none".into(),
    };
    ctx.audit.record(
        AuditOp::Exec,
        &[
            ("session", &ctx.session_id),
            ("command", &cmd.program),
            ("args", &cmd.display_args.join(" ")),
            ("cwd", &cmd.cwd.display().to_string()),
            ("status", status),
            ("exit_code", &exit),
            ("lines", &o.lines.to_string()),
        ],
    );
    to_result(cmd, shown, &limits, o)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command_executor::CommandExecutorTool;
    use crate::testutil::Env;
    use crate::Tool;
    use std::io::Write as _;
    use tokio::sync::mpsc::UnboundedReceiver;

    fn alive(pid: u64) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(s) => !s.contains(") Z "),
            Err(_) => false,
        }
    }

    /// A context with a live sink and fast batching; the file is this session's upload.
    fn setup(
        env: &Env,
        content: &str,
    ) -> (
        ToolCtx,
        UnboundedReceiver<LiveChunk>,
        String,
        std::path::PathBuf,
    ) {
        let u = env.upload("s1", "f.log", content.as_bytes(), "2025-01-01T00:00:00Z");
        let (sink, rx) = LiveSink::channel();
        let mut ctx = env.ctx.clone();
        ctx.live = sink;
        ctx.follow.batch_every = Duration::from_millis(10);
        (ctx, rx, format!("{}/{}", u.file_id, u.filename), u.path)
    }

    /// Receives live chunks until `total` lines were seen; returns the lines sent live.
    async fn live_until(rx: &mut UnboundedReceiver<LiveChunk>, total: u64) -> (Vec<String>, u64) {
        let mut lines = Vec::new();
        let mut dropped = 0;
        loop {
            let c = rx.recv().await.expect("live chunk");
            lines.extend(c.lines);
            dropped += c.dropped;
            if c.total >= total {
                return (lines, dropped);
            }
        }
    }

    fn append(path: &std::path::Path, text: &str) {
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(path)
            .expect("open");
        f.write_all(text.as_bytes()).expect("append");
    }

    #[tokio::test]
    async fn follow_cancel_returns_the_collected_lines_and_kills_the_child() {
        let env = Env::new();
        let (ctx, mut rx, rel, path) = setup(&env, "one\ntwo\nthree\n");
        let cancel = ctx.cancel.clone();
        let task = tokio::spawn({
            let ctx = ctx.clone();
            let rel = rel.clone();
            async move {
                CommandExecutorTool
                    .call(
                        serde_json::json!({"command": "tail", "args": ["-f", rel]}),
                        &ctx,
                    )
                    .await
            }
        });
        let (first, _) = live_until(&mut rx, 3).await;
        assert_eq!(first, ["one", "two", "three"]);
        append(&path, "four\nfive\n");
        let (more, _) = live_until(&mut rx, 5).await;
        assert_eq!(more, ["four", "five"]);
        cancel.cancel();
        let r = task.await.expect("join");
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data.to_value()["follow"]["ended"], "cancelled");
        assert_eq!(r.data.to_value()["follow"]["lines"], 5);
        assert_eq!(r.data.to_value()["stdout"], "one\ntwo\nthree\nfour\nfive\n");
        assert!(
            r.output.contains("收到 5 行，以下是全部 5 行"),
            "{}",
            r.output
        );
        assert!(
            r.output.contains("5 lines, all 5 lines shown"),
            "{}",
            r.output
        );
        assert!(r
            .output
            .contains(&format!("$ tail -f {rel}\none\ntwo\nthree\nfour\nfive\n")));
        assert!(r.summary().starts_with("跟踪了 "), "{}", r.summary());
        let full = r.full.expect("whole output");
        assert_eq!(full.text, "one\ntwo\nthree\nfour\nfive\n");
        assert_eq!(full.produced, 24);
        let pid = r.data.to_value()["pid"].as_u64().expect("pid");
        assert!(!alive(pid), "child {pid} must be killed and reaped");
        let log = env.audit_log();
        assert!(log.contains("status=cancelled"), "{log}");
        assert!(log.contains("lines=5"), "{log}");
    }

    #[tokio::test]
    async fn follow_cap_returns_the_last_lines() {
        let env = Env::new();
        let content: String = (1..=30).map(|i| format!("line {i}\n")).collect();
        let (mut ctx, mut rx, rel, _) = setup(&env, &content);
        ctx.follow.max = Duration::from_millis(1500);
        ctx.follow.keep_lines = 4;
        let v = ctx
            .commands
            .validate(
                "tail",
                &["-n".into(), "30".into(), "-f".into(), rel],
                &ctx.paths,
            )
            .expect("valid");
        assert!(v.follow);
        let r = run_tool(&v, "tail -n 30 -f f.log", &ctx).await;
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data.to_value()["follow"]["ended"], "cap");
        assert_eq!(r.data.to_value()["follow"]["lines"], 30);
        assert_eq!(r.data.to_value()["follow"]["shown_lines"], 4);
        assert_eq!(
            r.data.to_value()["stdout"],
            "line 27\nline 28\nline 29\nline 30\n"
        );
        assert!(
            r.output.contains("收到 30 行，以下是最后 4 行"),
            "{}",
            r.output
        );
        assert!(
            r.output.contains("followed for 1s, 30 lines, last 4 shown"),
            "{}",
            r.output
        );
        assert!(r.output.contains("reached the 1s cap"), "{}", r.output);
        assert_eq!(r.full.expect("whole").text, content);
        // The agent was asked for the cap plus the grace period.
        assert_eq!(
            ctx.budget.requested(),
            Duration::from_millis(1500) + FOLLOW_GRACE
        );
        let (live, dropped) = live_until(&mut rx, 30).await;
        assert_eq!((live.len(), dropped), (30, 0));
        assert!(!alive(r.data.to_value()["pid"].as_u64().expect("pid")));
    }

    #[tokio::test]
    async fn follow_rate_limit_counts_lines_not_sent_live() {
        let env = Env::new();
        let content: String = (1..=500).map(|i| format!("{i}\n")).collect();
        let (mut ctx, mut rx, rel, _) = setup(&env, &content);
        ctx.follow.live_lines_per_sec = 50;
        let cancel = ctx.cancel.clone();
        let v = ctx
            .commands
            .validate(
                "tail",
                &["-n".into(), "500".into(), "-f".into(), rel],
                &ctx.paths,
            )
            .expect("valid");
        let task = tokio::spawn(async move { run_tool(&v, "tail -n 500 -f f.log", &ctx).await });
        let (live, dropped) = live_until(&mut rx, 500).await;
        cancel.cancel();
        let r = task.await.expect("join");
        assert!(r.ok, "{r:?}");
        assert_eq!(live.len() as u64 + dropped, 500);
        assert!(
            dropped >= 400,
            "at most 50 lines a second go live: {dropped}"
        );
        assert_eq!(live[0], "1");
        assert_eq!(r.data.to_value()["follow"]["not_live"], dropped);
        let n = thousands(dropped);
        assert!(
            r.output.contains(&format!("{n} lines not shown live")),
            "{}",
            r.output
        );
        assert!(r.output.contains("last 200 shown"), "{}", r.output);
        assert_eq!(
            r.full.expect("whole").text,
            content,
            "the stored output has every line"
        );
    }

    #[tokio::test]
    async fn follow_command_that_exits_is_reported() {
        let env = Env::new();
        let (ctx, _rx, _, _) = setup(&env, "x\n");
        let v = ctx
            .commands
            .validate("tail", &["-f".into(), "missing.log".into()], &ctx.paths)
            .expect("valid");
        let r = run_tool(&v, "tail -f missing.log", &ctx).await;
        assert!(!r.ok);
        assert_eq!(r.data.to_value()["follow"]["ended"], "exited");
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("命令已退出: tail -f missing.log"));
        assert!(r.data.to_value()["stderr"]
            .as_str()
            .unwrap_or("")
            .contains("missing.log"));
    }

    #[test]
    fn follow_batcher_rate_limits_and_counts() {
        let t0 = Instant::now();
        let ms = |n: u64| t0 + Duration::from_millis(n);
        let mut b = LiveBatcher::new(Duration::from_millis(250), 3, t0);
        for i in 0..5 {
            b.push(&format!("l{i}"), ms(10));
        }
        assert_eq!(b.due(ms(100)), None, "not due before 250 ms");
        let c = b.due(ms(250)).expect("due");
        assert_eq!(c.lines, ["l0", "l1", "l2"]);
        assert_eq!((c.dropped, c.total), (2, 5));
        assert_eq!(b.due(ms(600)), None, "nothing pending");
        // A new second opens a new window.
        b.push("l5", ms(1010));
        b.push(&"x".repeat(LIVE_LINE_MAX + 5), ms(1020));
        let c = b.flush(ms(1030)).expect("flush");
        assert_eq!(c.lines[0], "l5");
        assert_eq!(c.lines[1].chars().count(), LIVE_LINE_MAX + 1);
        assert_eq!((c.dropped, c.total), (0, 7));
        assert_eq!(b.dropped_total(), 2);
    }

    #[test]
    fn follow_numbers_and_spans() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1204), "1,204");
        assert_eq!(thousands(12_345_678), "12,345,678");
        assert_eq!(
            span(Duration::from_secs(192)),
            ("3 分 12 秒".into(), "3m12s".into())
        );
        assert_eq!(span(Duration::from_secs(7)), ("7 秒".into(), "7s".into()));
        assert_eq!(span(Duration::from_secs(3725)).1, "1h2m5s");
    }
}
