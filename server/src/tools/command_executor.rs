//! The `command_executor` tool: runs a command that passed the command policy. Never a shell:
//! explicit argv, fixed PATH, cleared environment, stdin null, a timeout that kills the child
//! (also on cancellation), stdout/stderr capped. `grep` runs in-process (see `grep.rs`).

use std::process::Stdio;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde::Deserialize;
use serde_json::{json, Value};
use tokio::io::{AsyncRead, AsyncReadExt};
use tokio_util::sync::CancellationToken;

use super::{check_session_isolation, grep, parse_args, Tool, ToolCtx, ToolFuture, ToolResult};
use crate::audit::AuditOp;
use crate::policy::ValidatedCommand;

/// PATH for executed commands: system directories only, so a file dropped in the working dir
/// (or a poisoned server PATH) is never what runs.
pub(crate) const SAFE_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecOutcome {
    /// None when killed (timeout, cancellation) or terminated by a signal.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// Output exceeded the cap and was cut.
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    /// Process id of the child (None for in-process grep).
    pub pid: Option<u32>,
    /// Could not start at all.
    pub spawn_error: Option<String>,
}

/// Reads everything, keeping at most `cap` bytes; keeps draining after the cap so the child
/// never blocks on a full pipe.
async fn read_capped<R: AsyncRead + Unpin>(reader: Option<R>, cap: usize) -> (Vec<u8>, bool) {
    let Some(mut r) = reader else {
        return (Vec::new(), false);
    };
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        match r.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                if n > room {
                    truncated = true;
                }
                kept.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
    (kept, truncated)
}

/// Lossy UTF-8 that does not end in a split character (the cap may cut one).
fn to_text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Runs a validated command with `timeout`, killing it on timeout or cancellation.
pub async fn execute(
    cmd: &ValidatedCommand,
    timeout: Duration,
    max_output: usize,
    cancel: &CancellationToken,
) -> ExecOutcome {
    if cancel.is_cancelled() {
        return ExecOutcome {
            cancelled: true,
            ..Default::default()
        };
    }
    if let Some(opts) = cmd.grep.clone() {
        return execute_grep(opts, timeout, max_output, cancel).await;
    }
    // The working dir is inside the allow-list (checked by the policy); it may not exist yet
    // on a fresh data dir.
    if let Err(e) = tokio::fs::create_dir_all(&cmd.cwd).await {
        return ExecOutcome {
            spawn_error: Some(format!("无法创建工作目录 {}: {e}", cmd.cwd.display())),
            ..Default::default()
        };
    }
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
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            let why = if e.kind() == std::io::ErrorKind::NotFound {
                format!("找不到命令: {} (command not found)", cmd.program)
            } else {
                format!("无法启动命令 {}: {e}", cmd.program)
            };
            return ExecOutcome {
                spawn_error: Some(why),
                ..Default::default()
            };
        }
    };
    let pid = child.id();
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();

    enum End {
        Done(
            std::io::Result<std::process::ExitStatus>,
            (Vec<u8>, bool),
            (Vec<u8>, bool),
        ),
        TimedOut,
        Cancelled,
    }
    let end = {
        let run = async {
            let (o, e, status) = tokio::join!(
                read_capped(stdout, max_output),
                read_capped(stderr, max_output),
                child.wait()
            );
            End::Done(status, o, e)
        };
        tokio::select! {
            biased;
            () = cancel.cancelled() => End::Cancelled,
            () = tokio::time::sleep(timeout) => End::TimedOut,
            end = run => end,
        }
    };
    match end {
        End::Done(status, (out, out_trunc), (err, err_trunc)) => ExecOutcome {
            exit_code: status.ok().and_then(|s| s.code()),
            stdout: to_text(&out),
            stderr: to_text(&err),
            truncated: out_trunc || err_trunc,
            pid,
            ..Default::default()
        },
        other => {
            // Kill and reap now (kill_on_drop alone would leave a zombie until tokio's
            // orphan reaper runs).
            let _ = child.start_kill();
            let _ = child.wait().await;
            ExecOutcome {
                timed_out: matches!(other, End::TimedOut),
                cancelled: matches!(other, End::Cancelled),
                pid,
                ..Default::default()
            }
        }
    }
}

async fn execute_grep(
    opts: crate::policy::GrepOptions,
    timeout: Duration,
    max_output: usize,
    cancel: &CancellationToken,
) -> ExecOutcome {
    let flag = Arc::new(AtomicBool::new(false));
    let flag2 = flag.clone();
    let handle = tokio::task::spawn_blocking(move || grep::run(&opts, max_output, &flag2));
    let res = tokio::select! {
        biased;
        () = cancel.cancelled() => Err(true),
        () = tokio::time::sleep(timeout) => Err(false),
        r = handle => Ok(r),
    };
    match res {
        Ok(Ok(g)) => ExecOutcome {
            exit_code: Some(g.exit_code),
            stdout: g.stdout,
            stderr: g.stderr,
            truncated: g.truncated,
            ..Default::default()
        },
        Ok(Err(_)) => ExecOutcome {
            spawn_error: Some("grep 内部错误 (internal error)".into()),
            ..Default::default()
        },
        Err(cancelled) => {
            // The blocking thread sees the flag within 1024 lines and stops.
            flag.store(true, Ordering::Relaxed);
            ExecOutcome {
                timed_out: !cancelled,
                cancelled,
                ..Default::default()
            }
        }
    }
}

#[derive(Debug, Deserialize)]
struct Args {
    command: String,
    #[serde(default)]
    args: Vec<String>,
    /// Optional shorter timeout in seconds (never longer than the policy's).
    #[serde(default)]
    timeout: Option<f64>,
}

/// `command_executor {command, args}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CommandExecutorTool;

impl Tool for CommandExecutorTool {
    fn name(&self) -> &'static str {
        "command_executor"
    }

    fn description(&self) -> &'static str {
        "安全地执行白名单系统命令（不经过 shell）。Run a whitelisted command without a shell: \
         ls, cat, grep, head, tail, ps, pwd, whoami, df, free. 文件参数必须在允许的目录内；\
         不允许 ; & | > < ` $ ( ) 等字符。grep 支持 -i -n -c -v -E -F -w -l -o -m，“或”请用多个 -e。\
         关键词：执行、运行、命令、ls、cat、grep、进程"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "command": {
                    "type": "string",
                    "description": "命令名（不带路径）/ bare command name, e.g. ls"
                },
                "args": {
                    "type": "array",
                    "items": {"type": "string"},
                    "default": [],
                    "description": "参数列表 / argument list, e.g. [\"-la\"]"
                }
            },
            "required": ["command"]
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let shown = std::iter::once(args.command.as_str())
                .chain(args.args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" ");
            let cmd = match ctx.commands.validate(&args.command, &args.args, &ctx.paths) {
                Ok(c) => c,
                Err(e) => return ctx.deny(self.name(), &shown, &e),
            };
            // Other sessions' uploads stay private even though the uploads root is allowed.
            let mine = ctx.session_uploads();
            for p in &cmd.paths {
                if let Err(e) = check_session_isolation(ctx, &mine, p, &p.display().to_string()) {
                    return ctx.deny(self.name(), &shown, &e);
                }
            }
            if cmd.follow {
                return super::follow::run_tool(&cmd, &shown, ctx).await;
            }
            let mut timeout = ctx.commands.timeout();
            if let Some(secs) = args.timeout.filter(|s| s.is_finite() && *s > 0.0) {
                timeout = timeout.min(Duration::from_secs_f64(secs));
            }
            let max_output = ctx.commands.max_output_bytes();
            // Captured up to the per-step store cap; the model and `data` get `max_output`.
            let capture = max_output.max(crate::outputs::STEP_CAP);
            let mut out = execute(&cmd, timeout, capture, &ctx.cancel).await;
            let full = super::FullOutput::split(&mut out.stdout, &mut out.truncated, max_output);
            let exit = out
                .exit_code
                .map(|c| c.to_string())
                .unwrap_or_else(|| "none".into());
            let status = if out.timed_out {
                "timeout"
            } else if out.cancelled {
                "cancelled"
            } else if out.spawn_error.is_some() {
                "spawn_error"
            } else {
                "done"
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
                ],
            );
            let data = json!({
                "command": cmd.program,
                "args": cmd.display_args,
                "exit_code": out.exit_code,
                "stdout": out.stdout,
                "stderr": out.stderr,
                "truncated": out.truncated,
                "cwd": cmd.cwd.display().to_string(),
                "timed_out": out.timed_out,
                "pid": out.pid,
            });
            if let Some(e) = out.spawn_error {
                return ToolResult::failure_with_data(format!("命令执行失败: {e}"), data);
            }
            if out.cancelled {
                return ToolResult::failure_with_data("操作已取消 (cancelled)", data);
            }
            if out.timed_out {
                return ToolResult::failure_with_data(
                    format!(
                        "命令执行超时: {shown}（{} 秒后已终止 / killed after timeout）",
                        timeout.as_secs_f64()
                    ),
                    data,
                );
            }
            let mut text = String::new();
            text.push_str(&format!("$ {shown}\n"));
            text.push_str(&out.stdout);
            if !out.stdout.is_empty() && !out.stdout.ends_with('\n') {
                text.push('\n');
            }
            if out.truncated {
                text.push_str(&format!(
                    "[输出已截断，仅保留前 {max_output} 字节 / output truncated]\n"
                ));
            }
            if !out.stderr.trim().is_empty() {
                text.push_str(&format!("[stderr]\n{}\n", out.stderr.trim_end()));
            }
            text.push_str(&format!("[退出码 exit code: {exit}]"));
            // grep's 1 means "no match", a normal answer rather than a failure.
            let ok =
                out.exit_code == Some(0) || (cmd.program == "grep" && out.exit_code == Some(1));
            let mut r = if ok {
                ToolResult::success(text, data)
            } else {
                let detail = out.stderr.lines().next().unwrap_or("").trim().to_string();
                let mut r = ToolResult::failure_with_data(
                    format!("命令返回非零退出码 {exit}: {detail}"),
                    data,
                );
                r.output = text;
                r
            };
            r.full = full;
            r
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{CommandPolicy, CommandPolicyConfig};
    use crate::tools::testutil::Env;

    fn with_timeout(env: &Env, ms: u64) -> ToolCtx {
        let mut cfg = CommandPolicyConfig::with_defaults(&env.data);
        cfg.timeout_ms = ms;
        let mut ctx = env.ctx.clone();
        ctx.commands = Arc::new(CommandPolicy::new(cfg));
        ctx
    }

    #[tokio::test]
    async fn tools_cmd_refusals_are_specific_and_audited() {
        let env = Env::new();
        let tool = CommandExecutorTool;
        for (args, msg) in [
            (
                json!({"command": "rm", "args": ["-rf", "/"]}),
                "命令不在白名单中: rm",
            ),
            (
                json!({"command": "cat", "args": ["/etc/shadow"]}),
                "路径匹配禁止模式: /etc/shadow",
            ),
            (json!({"command": "ls; reboot"}), "参数包含非法字符: ;"),
            (
                json!({"command": "ps", "args": ["aux", "|", "head"]}),
                "参数包含非法字符: |",
            ),
            (json!({"command": "ps aux | head"}), "参数包含非法字符: |"),
            (
                json!({"command": "/bin/ls"}),
                "命令必须是不带路径的命令名: /bin/ls（例如 ls 而不是 /bin/ls）",
            ),
            (
                json!({"command": "grep", "args": ["-f", "/etc/shadow", "x"]}),
                "不允许通过选项读取文件: -f（grep 的该选项已禁用）",
            ),
        ] {
            let r = tool.call(args.clone(), &env.ctx).await;
            assert!(!r.ok, "{args}");
            assert_eq!(r.error.as_deref(), Some(msg), "{args}");
            assert_eq!(r.data["blocked"], true);
        }
        let log = env.audit_log();
        let denies: Vec<&str> = log.lines().filter(|l| l.contains("[DENY]")).collect();
        assert_eq!(denies.len(), 7, "{log}");
        assert!(denies[0].contains("tool=command_executor target=\"rm -rf /\" code=not_whitelisted reason=\"命令不在白名单中: rm\""), "{}", denies[0]);
        assert!(denies[1].contains("reason=\"路径匹配禁止模式: /etc/shadow\""));
        assert!(denies[2].contains("reason=\"参数包含非法字符: ;\""));
        assert!(!log.contains("[EXEC]"), "nothing refused was executed");
    }

    #[tokio::test]
    async fn tools_cmd_runs_real_processes_in_working_dir() {
        let env = Env::new();
        let notes = up(&env, "notes.txt", "one\ntwo\nthree\n");
        let tool = CommandExecutorTool;
        let r = tool.call(json!({"command": "ls"}), &env.ctx).await;
        assert!(r.ok, "{r:?}");
        assert!(r.data["stdout"].as_str().unwrap_or("").contains("id-s1-0"));
        assert_eq!(r.data["exit_code"], 0);
        assert_eq!(r.data["cwd"], env.ctx.uploads_root().display().to_string());

        let r = tool
            .call(
                json!({"command": "head", "args": ["-n", "2", notes]}),
                &env.ctx,
            )
            .await;
        assert_eq!(r.data["stdout"], "one\ntwo\n");
        assert!(r.output.contains("[退出码 exit code: 0]"));

        let r = tool.call(json!({"command": "pwd"}), &env.ctx).await;
        assert_eq!(
            r.data["stdout"].as_str().map(str::trim),
            Some(env.ctx.uploads_root().to_str().unwrap_or(""))
        );

        // A nonzero exit is reported with stderr.
        let r = tool
            .call(json!({"command": "cat", "args": ["missing.txt"]}), &env.ctx)
            .await;
        assert!(!r.ok);
        assert_eq!(r.data["exit_code"], 1);
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("命令返回非零退出码 1: "));
        assert!(r.data["stderr"]
            .as_str()
            .unwrap_or("")
            .contains("missing.txt"));

        let log = env.audit_log();
        assert!(
            log.contains("[EXEC] session=s1 command=ls args=\"\""),
            "{log}"
        );
        assert!(log.contains("command=cat args=missing.txt"), "{log}");
    }

    #[tokio::test]
    async fn tools_cmd_other_sessions_uploads_are_private() {
        let env = Env::new();
        let mine = env.upload("s1", "mine.txt", b"mine\n", "2025-01-01T00:00:00Z");
        let theirs = env.upload("s2", "theirs.txt", b"theirs\n", "2025-01-01T00:00:00Z");
        let tool = CommandExecutorTool;
        let rel = |u: &crate::tools::UploadRef| format!("{}/{}", u.file_id, u.filename);
        let r = tool
            .call(json!({"command": "cat", "args": [rel(&mine)]}), &env.ctx)
            .await;
        assert_eq!(r.data["stdout"], "mine\n");
        for args in [
            json!({"command": "cat", "args": [rel(&theirs)]}),
            json!({"command": "ls", "args": [theirs.file_id.clone()]}),
            json!({"command": "grep", "args": ["x", rel(&theirs)]}),
        ] {
            let r = tool.call(args.clone(), &env.ctx).await;
            assert!(
                r.error
                    .as_deref()
                    .unwrap_or("")
                    .starts_with("该文件不属于本会话的上传"),
                "{args}: {r:?}"
            );
        }
        let r = tool
            .call(
                json!({"command": "ls", "args": [mine.file_id.clone()]}),
                &env.ctx,
            )
            .await;
        assert!(r.ok, "own upload dir is listable: {r:?}");
        assert!(env.audit_log().contains("code=foreign_upload"));
    }

    #[tokio::test]
    async fn tools_cmd_grep_runs_in_process() {
        let env = Env::new();
        let app = up(&env, "app.log", "ok\nERROR a\nerror b\n");
        let tool = CommandExecutorTool;
        let r = tool
            .call(
                json!({"command": "grep", "args": ["-in", "error", app.clone()]}),
                &env.ctx,
            )
            .await;
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data["stdout"], "2:ERROR a\n3:error b\n");
        assert_eq!(r.data["pid"], Value::Null);
        let r = tool
            .call(json!({"command": "grep", "args": ["zzz", app]}), &env.ctx)
            .await;
        assert!(r.ok, "no match is not a failure");
        assert_eq!(r.data["exit_code"], 1);
    }

    #[tokio::test]
    async fn tools_cmd_output_is_capped() {
        let env = Env::new();
        let big = up(&env, "big.txt", &"x".repeat(300 * 1024));
        let r = CommandExecutorTool
            .call(json!({"command": "cat", "args": [big]}), &env.ctx)
            .await;
        assert!(r.ok);
        assert_eq!(r.data["truncated"], true);
        assert_eq!(r.data["stdout"].as_str().map(str::len), Some(100 * 1024));
        assert!(r.output.contains("[输出已截断"));
        // The whole output is kept for the session's store.
        let full = r.full.expect("whole output");
        assert_eq!((full.text.len(), full.produced), (300 * 1024, 300 * 1024));
    }

    /// Stores a file as this session's upload; returns its path relative to the working dir.
    fn up(env: &Env, name: &str, content: &str) -> String {
        let u = env.upload("s1", name, content.as_bytes(), "2025-01-01T00:00:00Z");
        format!("{}/{}", u.file_id, u.filename)
    }

    fn alive(pid: u64) -> bool {
        // A reaped child has no /proc entry; a zombie would show state Z.
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Ok(s) => !s.contains(") Z "),
            Err(_) => false,
        }
    }

    #[tokio::test]
    async fn tools_cmd_timeout_kills_the_child() {
        let env = Env::new();
        let f = up(&env, "f.log", "line\n");
        // `tail -f` never exits on its own, so only the timeout can end this run (the tool
        // runs it in follow mode; `execute` itself applies the timeout to anything).
        let v = env
            .ctx
            .commands
            .validate("tail", &["-f".into(), f], &env.ctx.paths)
            .expect("valid");
        let out = execute(
            &v,
            Duration::from_millis(300),
            1024,
            &CancellationToken::new(),
        )
        .await;
        assert!(out.timed_out);
        let pid = u64::from(out.pid.expect("pid"));
        assert!(!alive(pid), "child {pid} must be killed and reaped");
    }

    #[tokio::test]
    async fn tools_cmd_follow_cancellation_kills_the_child_and_keeps_the_lines() {
        let env = Env::new();
        let f = up(&env, "f.log", "line\n");
        let ctx = with_timeout(&env, 600_000);
        let cancel = ctx.cancel.clone();
        let task = tokio::spawn(async move {
            CommandExecutorTool
                .call(json!({"command": "tail", "args": ["-f", f]}), &ctx)
                .await
        });
        tokio::time::sleep(Duration::from_millis(100)).await;
        cancel.cancel();
        let r = task.await.expect("join");
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data["follow"]["ended"], "cancelled");
        if let Some(pid) = r.data["pid"].as_u64() {
            assert!(!alive(pid));
        }
    }

    #[tokio::test]
    async fn tools_cmd_execute_is_reusable_without_the_tool() {
        let env = Env::new();
        let v = env
            .ctx
            .commands
            .validate("whoami", &[], &env.ctx.paths)
            .expect("valid");
        let out = execute(&v, Duration::from_secs(5), 1024, &CancellationToken::new()).await;
        assert_eq!(out.exit_code, Some(0));
        assert!(!out.stdout.trim().is_empty());
    }
}
