//! After an action ran: what can be seen of its effect. `systemctl is-active` (and the
//! unit's main pid and since when it is active) after start/restart/reload/stop,
//! `systemctl is-failed` after reset-failed, the pid gone (or a zombie, or its pid reused by
//! another process) after TERM/INT/KILL and still running after HUP, and
//! `journalctl --disk-usage` before and after a vacuum, quoted as journalctl prints it.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::procfs::{proc_state, ProcState};
use super::{run_argv, VERIFY_WAIT};
use llmops_policy::{ActionKind, Signal, SystemctlVerb};
use llmops_tooldata::{Verdict, Verification};

/// What is recorded before the action runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Before {
    Nothing,
    Process(ProcState),
    /// `journalctl --disk-usage`'s figure.
    JournalUsage(Option<String>),
}

const POLL: Duration = Duration::from_millis(100);
const CHECK_TIMEOUT: Duration = Duration::from_secs(10);

pub async fn before(kind: &ActionKind, cancel: &CancellationToken) -> Before {
    match kind {
        ActionKind::Kill { pid, .. } => Before::Process(proc_state(*pid)),
        ActionKind::JournalVacuum(_) => Before::JournalUsage(journal_usage(cancel).await),
        _ => Before::Nothing,
    }
}

pub async fn after(kind: &ActionKind, before: Before, cancel: &CancellationToken) -> Verification {
    match kind {
        ActionKind::Kill { signal, pid } => {
            let start = match before {
                Before::Process(ProcState::Alive { start_ticks }) => Some(start_ticks),
                _ => None,
            };
            kill_effect(*signal, *pid, start).await
        }
        ActionKind::Systemctl { verb, unit } => unit_effect(*verb, unit, cancel).await,
        ActionKind::JournalVacuum(_) => {
            let was = match before {
                Before::JournalUsage(u) => u,
                _ => None,
            };
            let now = journal_usage(cancel).await;
            match (was, now) {
                (Some(b), Some(a)) => Verification {
                    verdict: Verdict::Confirmed,
                    detail: format!(
                        "日志占用 (journalctl --disk-usage): 之前 {b}，之后 {a} / journal disk usage: before {b}, after {a}"
                    ),
                },
                _ => not_checked("无法读取 journalctl --disk-usage / could not read journalctl --disk-usage"),
            }
        }
        ActionKind::Configured { .. } => not_checked(
            "已配置的操作没有自动验证，只有退出码 / configured actions have no automatic check; exit code only",
        ),
    }
}

fn not_checked(detail: &str) -> Verification {
    Verification {
        verdict: Verdict::NotChecked,
        detail: detail.to_string(),
    }
}

/// Whether `pid` is still the process that was signalled.
fn still_running(pid: u32, start: Option<u64>) -> bool {
    match proc_state(pid) {
        ProcState::Alive { start_ticks } => start.is_none_or(|s| s == start_ticks),
        ProcState::Zombie | ProcState::Gone => false,
    }
}

async fn kill_effect(signal: Signal, pid: u32, start: Option<u64>) -> Verification {
    let secs = VERIFY_WAIT.as_secs();
    if !signal.ends_process() {
        tokio::time::sleep(Duration::from_millis(200)).await;
        return if still_running(pid, start) {
            Verification {
                verdict: Verdict::Confirmed,
                detail: format!(
                    "进程 {pid} 收到 SIG{signal} 后仍在运行 / pid {pid} is still running after SIG{signal}"
                ),
            }
        } else {
            Verification {
                verdict: Verdict::NotConfirmed,
                detail: format!(
                    "进程 {pid} 收到 SIG{signal} 后退出了 / pid {pid} exited after SIG{signal}"
                ),
            }
        };
    }
    let deadline = tokio::time::Instant::now() + VERIFY_WAIT;
    loop {
        if !still_running(pid, start) {
            return Verification {
                verdict: Verdict::Confirmed,
                detail: format!(
                    "进程 {pid} 已退出 (/proc/{pid} 已不存在或已成僵尸进程) / pid {pid} is gone (no longer running in /proc)"
                ),
            };
        }
        if tokio::time::Instant::now() >= deadline {
            return Verification {
                verdict: Verdict::NotConfirmed,
                detail: format!(
                    "进程 {pid} 在 {secs} 秒后仍在运行 / pid {pid} still running after {secs} s"
                ),
            };
        }
        tokio::time::sleep(POLL).await;
    }
}

async fn systemctl(args: &[&str], cancel: &CancellationToken) -> Option<String> {
    let argv: Vec<String> = std::iter::once("systemctl")
        .chain(args.iter().copied())
        .map(String::from)
        .collect();
    let r = run_argv(&argv, CHECK_TIMEOUT, 4096, cancel).await;
    if r.spawn_error.is_some() || r.timed_out || r.cancelled {
        return None;
    }
    Some(r.stdout.trim().to_string())
}

async fn unit_effect(verb: SystemctlVerb, unit: &str, cancel: &CancellationToken) -> Verification {
    if verb == SystemctlVerb::ResetFailed {
        return match systemctl(&["is-failed", unit], cancel).await {
            Some(s) if s != "failed" => Verification {
                verdict: Verdict::Confirmed,
                detail: format!(
                    "systemctl is-failed {unit}: {s}（不再是 failed / no longer failed）"
                ),
            },
            Some(s) => Verification {
                verdict: Verdict::NotConfirmed,
                detail: format!("systemctl is-failed {unit}: {s}"),
            },
            None => not_checked("无法运行 systemctl is-failed / could not run systemctl is-failed"),
        };
    }
    let want_active = verb != SystemctlVerb::Stop;
    let deadline = tokio::time::Instant::now() + VERIFY_WAIT;
    let state = loop {
        let Some(s) = systemctl(&["is-active", unit], cancel).await else {
            return not_checked("无法运行 systemctl is-active / could not run systemctl is-active");
        };
        let settling = matches!(
            s.as_str(),
            "activating" | "deactivating" | "reloading" | "refreshing"
        );
        if !settling || tokio::time::Instant::now() >= deadline {
            break s;
        }
        tokio::time::sleep(POLL * 2).await;
    };
    let ok = if want_active {
        state == "active"
    } else {
        matches!(state.as_str(), "inactive" | "failed" | "unknown")
    };
    let mut detail = format!("systemctl is-active {unit}: {state}");
    if want_active && ok {
        if let Some(show) = systemctl(
            &["show", unit, "-p", "MainPID", "-p", "ActiveEnterTimestamp"],
            cancel,
        )
        .await
        {
            let get = |k: &str| {
                show.lines()
                    .find_map(|l| l.strip_prefix(k)?.strip_prefix('='))
                    .filter(|v| !v.is_empty() && *v != "0")
                    .map(String::from)
            };
            if let Some(p) = get("MainPID") {
                detail.push_str(&format!(", MainPID {p}"));
            }
            if let Some(t) = get("ActiveEnterTimestamp") {
                detail.push_str(&format!(", 自 / since {t}"));
            }
        }
    }
    Verification {
        verdict: if ok {
            Verdict::Confirmed
        } else {
            Verdict::NotConfirmed
        },
        detail,
    }
}

/// The size in `Archived and active journals take up 1.1G in the file system.`
pub fn parse_disk_usage(out: &str) -> Option<String> {
    let after = out.split("take up ").nth(1)?;
    let size = after.split_whitespace().next()?;
    (!size.is_empty()).then(|| size.to_string())
}

async fn journal_usage(cancel: &CancellationToken) -> Option<String> {
    let argv = vec!["journalctl".to_string(), "--disk-usage".to_string()];
    let r = run_argv(&argv, CHECK_TIMEOUT, 4096, cancel).await;
    parse_disk_usage(&r.stdout)
}
