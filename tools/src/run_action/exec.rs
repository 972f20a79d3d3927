//! Runs one argv without a shell: the program is an absolute path or found in `SAFE_PATH`,
//! the environment is cleared, stdout and stderr are kept up to a cap (the rest drained so
//! the child never blocks), and a timeout or cancellation kills it.

use std::path::PathBuf;
use std::process::Stdio;
use std::time::{Duration, Instant};

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio_util::sync::CancellationToken;

use crate::command_executor::{locate, not_installed_message, SAFE_PATH};

/// How one run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecResult {
    /// None when killed (timeout, cancellation), ended by a signal, or not started.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    pub duration_ms: u64,
    /// It could not start (not installed, spawn error): the user-facing message.
    pub spawn_error: Option<String>,
}

async fn read_bounded<R: AsyncRead + Unpin>(mut r: R, cap: usize) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buf = [0u8; 8192];
    let mut cut = false;
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buf[..n.min(room)]);
                cut |= n > room;
            }
        }
    }
    (kept, cut)
}

/// Runs `argv` (no shell) under `timeout`.
pub async fn run_argv(
    argv: &[String],
    timeout: Duration,
    cap: usize,
    cancel: &CancellationToken,
) -> ExecResult {
    let started = Instant::now();
    let mut out = ExecResult::default();
    let Some((program, args)) = argv.split_first() else {
        out.spawn_error = Some("空命令 / empty argv".into());
        return out;
    };
    let path = if program.starts_with('/') {
        Some(PathBuf::from(program))
    } else {
        let search: Vec<PathBuf> = SAFE_PATH.split(':').map(PathBuf::from).collect();
        locate(program, &search)
    };
    let Some(path) = path.filter(|p| p.is_file()) else {
        out.spawn_error = Some(not_installed_message(program));
        return out;
    };
    let spawned = tokio::process::Command::new(&path)
        .args(args)
        .env_clear()
        .env("PATH", SAFE_PATH)
        .env("LC_ALL", "C")
        .env("SYSTEMD_PAGER", "")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn();
    let mut child = match spawned {
        Ok(c) => c,
        Err(e) => {
            out.spawn_error = Some(format!(
                "无法启动 {program}: {e} / cannot start {program}: {e}"
            ));
            return out;
        }
    };
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let readers = async {
        let o = async {
            match stdout {
                Some(s) => read_bounded(s, cap).await,
                None => (Vec::new(), false),
            }
        };
        let e = async {
            match stderr {
                Some(s) => read_bounded(s, cap).await,
                None => (Vec::new(), false),
            }
        };
        tokio::join!(o, e)
    };
    let run = async {
        let (o, e) = readers.await;
        (child.wait().await, o, e)
    };
    tokio::select! {
        (status, (o, ot), (e, et)) = run => {
            out.exit_code = status.ok().and_then(|s| s.code());
            out.stdout = String::from_utf8_lossy(&o).into_owned();
            out.stderr = String::from_utf8_lossy(&e).into_owned();
            out.truncated = ot || et;
        }
        () = tokio::time::sleep(timeout) => out.timed_out = true,
        () = cancel.cancelled() => out.cancelled = true,
    }
    out.duration_ms = started.elapsed().as_millis() as u64;
    out
}
