//! The `command_executor` tool: validates a command line (a single command or a `|`
//! pipeline) with the command policy, keeps other sessions' uploads private, runs it without a
//! shell (`command_executor/run.rs`) and reports output, exit code and which file each
//! relative name resolved to.

mod run;

use std::time::Duration;

use serde_json::{json, Value};

use super::{check_session_isolation, parse_args, Tool, ToolCtx, ToolFuture, ToolResult};
use crate::audit::AuditOp;
use crate::data::{CommandData, ToolData};
use llmops_common::ToolName;
use llmops_policy::{Cmd, CommandError, Pipeline, ResolvedArg, UploadFile, ValidatedCommand};
use llmops_tooldata::CommandArgs;

pub use run::{execute, execute_pipeline, locate, not_installed_message, ExecOutcome, SAFE_PATH};

/// `command_executor {command, args}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct CommandExecutorTool;

/// Refuses what the path policy alone cannot see: another session's upload, and a recursive
/// walk (`find`, `ls -R`, `du -a`) starting at the shared uploads root or above it.
fn check_paths(ctx: &ToolCtx, p: &Pipeline) -> Result<(), Box<dyn super::DenyReason>> {
    let mine = ctx.session_uploads();
    let uploads_root = llmops_policy::path::resolve(&ctx.uploads_root()).ok();
    for stage in &p.stages {
        for path in &stage.paths {
            check_session_isolation(ctx, &mine, path, &path.display().to_string())
                .map_err(|e| Box::new(e) as Box<dyn super::DenyReason>)?;
            if stage.recursive {
                if let Some(root) = &uploads_root {
                    if root.starts_with(path) {
                        return Err(Box::new(CommandError::SharedUploadsRoot {
                            command: stage.program.clone(),
                            path: path.display().to_string(),
                        }));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Listing the shared uploads root (a bare `ls` or `du` in the working dir, or naming the
/// root) shows only this session's uploads: every other entry of the root is hidden from
/// that stage (`ls --ignore=NAME`, `du --exclude=NAME`), so other sessions' upload ids
/// never reach the output nor the next stage of a pipeline. Other paths under the root are
/// refused by the session isolation check.
fn hide_foreign_uploads(ctx: &ToolCtx, p: &mut Pipeline) {
    let Ok(root) = llmops_policy::path::resolve(&ctx.uploads_root()) else {
        return;
    };
    let mine: std::collections::HashSet<std::ffi::OsString> = ctx
        .session_uploads()
        .iter()
        .filter_map(|u| {
            let r = llmops_policy::path::resolve(&u.path).ok()?;
            let first = r.strip_prefix(&root).ok()?.components().next()?;
            Some(first.as_os_str().to_os_string())
        })
        .collect();
    for stage in &mut p.stages {
        let opt = match stage.cmd {
            Cmd::Ls => "--ignore=",
            Cmd::Du => "--exclude=",
            _ => continue,
        };
        if !stage.paths.iter().any(|path| path == &root) {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&root) else {
            continue;
        };
        let hidden: Vec<std::ffi::OsString> = entries
            .flatten()
            .map(|e| e.file_name())
            .filter(|n| !mine.contains(n))
            .map(|n| {
                let mut o = std::ffi::OsString::from(opt);
                o.push(glob_escape(&n.to_string_lossy()));
                o
            })
            .collect();
        stage.argv.splice(0..0, hidden);
    }
}

/// `name` as a shell pattern matching only itself.
fn glob_escape(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn stage_words(p: &Pipeline) -> Vec<Vec<String>> {
    p.stages
        .iter()
        .map(|s| {
            std::iter::once(s.program.clone())
                .chain(s.display_args.iter().cloned())
                .collect()
        })
        .collect()
}

impl Tool for CommandExecutorTool {
    fn name(&self) -> &'static str {
        ToolName::CommandExecutor.as_str()
    }

    fn description(&self) -> &'static str {
        "安全地执行只读的白名单系统命令（不经过 shell，支持 | 管道，最多 5 段）。\
         Run read-only whitelisted commands without a shell; plain `|` pipelines (up to 5 stages) \
         such as `ps aux | grep nginx | head -20`. 命令族 / families: \
         文件 files: ls cat head tail(-f) wc sort uniq cut grep find stat file md5sum sha256sum du; \
         进程 processes: ps (-eo FIELDS --sort KEY) lsof (-i, -p PID -i); \
         系统 system: uname uptime hostname id w whoami pwd df(-i) free dmesg; \
         服务与日志 services/journal: systemctl status|is-active|list-units|show|cat, \
         journalctl -u UNIT -p PRIO -n N --since T; \
         网络 network: ss netstat ip addr|link|route|neigh ping -c N getent hosts. \
         相对文件名优先匹配本会话上传的文件（如 grep -c ERROR app.log）。文件参数必须在允许的目录内；\
         不允许 ; & > < ` $ || 等 shell 操作符，不允许修改系统的子命令和选项。\
         关键词：执行、运行、命令、管道、进程、服务、日志、网络"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "command": {
                    "type": "string",
                    "description": "命令名或整行命令（可含 | 管道和引号）/ a bare command name, or a whole line with quotes and | pipes, e.g. \"ps aux | grep nginx | head -20\""
                },
                "args": {
                    "type": "array",
                    "items": {"type": "string"},
                    "default": [],
                    "description": "参数列表（每个元素是一个原样的参数）/ literal arguments, e.g. [\"-la\"]"
                },
                "timeout": {
                    "type": "number",
                    "description": "可选的更短超时（秒）/ optional shorter timeout in seconds"
                }
            },
            "required": ["command"]
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: CommandArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let shown = args.line();
            let uploads: Vec<UploadFile> = ctx
                .session_uploads()
                .into_iter()
                .map(|u| UploadFile {
                    filename: u.filename,
                    path: u.path,
                })
                .collect();
            let mut pipeline = match ctx.commands.validate_pipeline(
                &args.command,
                &args.args,
                &ctx.paths,
                &uploads,
            ) {
                Ok(p) => p,
                Err(e) => return ctx.deny(self.name(), &shown, &e),
            };
            if let Err(e) = check_paths(ctx, &pipeline) {
                return ctx.deny(self.name(), &shown, e.as_ref());
            }
            hide_foreign_uploads(ctx, &mut pipeline);
            let mut timeout = ctx.commands.timeout();
            if let Some(secs) = args.timeout.filter(|s| s.is_finite() && *s > 0.0) {
                timeout = timeout.min(Duration::from_secs_f64(secs));
            }
            let max_output = ctx.commands.max_output_bytes();
            let follow = pipeline.follow();
            if let [single] = pipeline.stages.as_slice() {
                if single.follow {
                    // Streams live until the operator cancels or the follow cap.
                    return super::follow::run_tool(single, &shown, ctx).await;
                }
            }
            // Captured up to the per-step store cap (kept whole for paging); the model and
            // `data` get `max_output`.
            let capture = max_output.max(crate::outputs::STEP_CAP);
            let mut out = if follow {
                run_follow(ctx, &pipeline, timeout, capture).await
            } else {
                execute_pipeline(&pipeline, timeout, capture, &ctx.cancel).await
            };
            let full = super::FullOutput::split(&mut out.stdout, &mut out.truncated, max_output);
            let mut r = report(ctx, &pipeline, &out, timeout, max_output, follow);
            r.full = full;
            r
        })
    }
}

/// Audits the run and turns the outcome into the tool result.
fn report(
    ctx: &ToolCtx,
    pipeline: &Pipeline,
    out: &ExecOutcome,
    timeout: Duration,
    max_output: usize,
    follow: bool,
) -> ToolResult {
    let shown = pipeline.display();
    let exit = out
        .exit_code
        .map(|c| c.to_string())
        .unwrap_or_else(|| "none".into());
    audit_run(ctx, pipeline, &shown, out, &exit);
    let resolved = pipeline.resolved();
    let data = command_data(pipeline, out, resolved.clone(), follow);
    if let Some(msg) = &out.not_installed {
        return ToolResult::failure_with_data(msg.clone(), data);
    }
    if let Some(e) = &out.spawn_error {
        return ToolResult::failure_with_data(format!("命令执行失败: {e}"), data);
    }
    if out.cancelled {
        return ToolResult::failure_with_data("操作已取消 (cancelled)", data);
    }
    let text = output_text(&shown, &resolved, out, timeout, max_output, &exit);
    let ran = Ran {
        pipeline,
        out,
        shown: &shown,
        exit: &exit,
        timeout,
        follow,
    };
    verdict(&ran, text, data)
}

/// Records the run in the audit log, with how it ended.
fn audit_run(ctx: &ToolCtx, pipeline: &Pipeline, shown: &str, out: &ExecOutcome, exit: &str) {
    let first = &pipeline.stages[0];
    let rest_of_line = shown
        .strip_prefix(first.program.as_str())
        .unwrap_or("")
        .trim_start()
        .to_string();
    let status = if out.timed_out {
        "timeout"
    } else if out.cancelled {
        "cancelled"
    } else if out.not_installed.is_some() {
        "not_installed"
    } else if out.spawn_error.is_some() {
        "spawn_error"
    } else {
        "done"
    };
    ctx.audit.record(
        AuditOp::Exec,
        &[
            ("session", &ctx.session_id),
            ("command", &first.program),
            ("args", &rest_of_line),
            ("cwd", &first.cwd.display().to_string()),
            ("status", status),
            ("exit_code", exit),
        ],
    );
}

/// The structured result of the run, for the UI and later steps.
fn command_data(
    pipeline: &Pipeline,
    out: &ExecOutcome,
    resolved: Vec<ResolvedArg>,
    follow: bool,
) -> ToolData {
    let first = &pipeline.stages[0];
    ToolData::Command(CommandData {
        command: first.program.clone(),
        args: first.display_args.clone(),
        exit_code: out.exit_code,
        stdout: out.stdout.clone(),
        stderr: out.stderr.clone(),
        truncated: out.truncated,
        stopped_at_cap: out.stopped_at_cap,
        cwd: first.cwd.display().to_string(),
        timed_out: out.timed_out,
        pid: out.pid,
        stages: stage_words(pipeline),
        stage_exit_codes: out.stage_exit_codes.clone(),
        resolved,
        follow,
    })
}

/// The text the model sees: the line, resolved names, output and the notes on how it ended.
fn output_text(
    shown: &str,
    resolved: &[ResolvedArg],
    out: &ExecOutcome,
    timeout: Duration,
    max_output: usize,
    exit: &str,
) -> String {
    let mut text = format!("$ {shown}\n");
    for r in resolved {
        text.push_str(&r.describe());
        text.push('\n');
    }
    text.push_str(&out.stdout);
    if !out.stdout.is_empty() && !out.stdout.ends_with('\n') {
        text.push('\n');
    }
    if out.truncated {
        text.push_str(&format!(
            "[输出已截断，仅保留前 {max_output} 字节 / output truncated]\n"
        ));
    }
    let secs = timeout.as_secs_f64();
    if out.timed_out {
        text.push_str(&format!(
            "[已在 {secs} 秒后终止，以上是终止前收集到的输出（不完整）/ stopped after {secs} s; the output above is what was collected until then (cut off)]\n"
        ));
    }
    if !out.stderr.trim().is_empty() {
        text.push_str(&format!("[stderr]\n{}\n", out.stderr.trim_end()));
    }
    text.push_str(&format!("[退出码 exit code: {exit}]"));
    text
}

/// A run that started and ended by itself (or by the timeout), for [`verdict`].
struct Ran<'a> {
    pipeline: &'a Pipeline,
    out: &'a ExecOutcome,
    shown: &'a str,
    exit: &'a str,
    timeout: Duration,
    follow: bool,
}

/// Success or failure of a finished run: a timeout, a zero exit, an exit that is an answer.
fn verdict(ran: &Ran<'_>, mut text: String, data: ToolData) -> ToolResult {
    let out = ran.out;
    if out.timed_out {
        if ran.follow {
            // Following until the limit is the expected end of a follow command.
            return ToolResult::success(text, data);
        }
        let secs = ran.timeout.as_secs_f64();
        let shown = ran.shown;
        let mut r = ToolResult::failure_with_data(
            format!("命令执行超时: {shown}（{secs} 秒后已终止 / killed after timeout）"),
            data,
        );
        r.output = text;
        return r;
    }
    let answer = out.exit_code.and_then(|code| {
        ran.pipeline
            .stages
            .last()
            .and_then(|last| answer_exit(last, code, &out.stderr))
    });
    // Stopped at the output cap: the kept head of the output is the answer (marked cut).
    if out.exit_code == Some(0) || out.stopped_at_cap {
        ToolResult::success(text, data)
    } else if let Some(meaning) = answer {
        text.push_str(&format!("\n[{meaning}]"));
        ToolResult::success(text, data)
    } else {
        let detail = out.stderr.lines().next().unwrap_or("").trim().to_string();
        let exit = ran.exit;
        let mut r =
            ToolResult::failure_with_data(format!("命令返回非零退出码 {exit}: {detail}"), data);
        r.output = text;
        r
    }
}

/// A non-zero exit that is the command's answer rather than a failure: grep's and lsof's 1
/// (nothing matched), `systemctl is-active|is-enabled|is-failed|status` reporting a unit
/// that is not active. Returns what it means, for the output.
fn answer_exit(last: &ValidatedCommand, code: i32, stderr: &str) -> Option<&'static str> {
    let verb = last.display_args.iter().find(|a| !a.starts_with('-'));
    match last.program.as_str() {
        _ if last.grep.is_some() && code == 1 => Some("没有匹配的行 / no matching lines"),
        "lsof" if code == 1 && stderr.trim().is_empty() => {
            Some("没有匹配的打开文件或连接 / nothing matched")
        }
        // systemctl's LSB codes: 1-3 for a unit that is not running; 4 (no such unit) and a
        // missing systemd come with stderr and stay failures.
        "systemctl"
            if matches!(
                verb.map(String::as_str),
                Some("is-active" | "is-enabled" | "is-failed" | "status")
            ) && (1..=3).contains(&code)
                && stderr.trim().is_empty() =>
        {
            Some("单元不处于运行/启用状态 / the unit is not active or not enabled")
        }
        _ => None,
    }
}

/// A pipeline with a follow stage (`tail -f app.log | grep ERROR`): runs with the normal
/// timeout and returns the lines collected before it, marked as cut off (never thrown away).
/// A single follow command streams live through `crate::follow` instead.
async fn run_follow(
    ctx: &ToolCtx,
    pipeline: &Pipeline,
    timeout: Duration,
    max_output: usize,
) -> ExecOutcome {
    execute_pipeline(pipeline, timeout, max_output, &ctx.cancel).await
}

#[cfg(test)]
mod tests;
