//! Requests about the machine answered from the one sampler: the monitor forwarder (each
//! subscriber's snapshots, with the process list it asked for and the recent history once)
//! and the details of one process (PROCESS_GET), read from `/proc` under the path policy.

use std::time::Duration;

use llmops_tools::sys_monitor::details::process_details;
use llmops_tools::sys_monitor::{ProcSort, ProcView};
use protocol::{Message, MonitorSubscribe, ProcessGet, ProcessInfoReply, ProcessSort};
use tokio::sync::mpsc;

use super::Conn;

/// The sampler's process view for a subscription's.
fn proc_view(v: protocol::ProcessView) -> ProcView {
    ProcView {
        filter: v.filter,
        sort: match v.sort {
            ProcessSort::Cpu => ProcSort::Cpu,
            ProcessSort::Memory => ProcSort::Memory,
        },
        limit: usize::try_from(v.limit).unwrap_or(usize::MAX),
        tree: v.tree,
    }
}

impl Conn {
    /// Starts (or re-rates, or re-scopes) this connection's monitor snapshots: the latest
    /// sample at once, then each new sample once `interval` has passed since the last one
    /// sent (never the same sample twice, so consecutive snapshots' counters and rates
    /// line up).
    pub(super) fn subscribe_monitor(&mut self, m: MonitorSubscribe) {
        if let Some(t) = self.monitor.take() {
            t.cancel();
        }
        let interval = Duration::from_millis(u64::from(m.interval_ms).clamp(250, 60_000));
        // A sampler one interval apart from the last send is due, give or take its jitter.
        let due = interval.saturating_sub(interval / 10);
        let tok = self.ctx.shutdown.child_token();
        self.monitor = Some(tok.clone());
        let tx = self.push_tx.clone();
        let sampler = self.ctx.sampler.clone();
        let view = m.processes.map(proc_view);
        let mut history_due = m.history;
        self.ctx.tracker.spawn(async move {
            let mut rx = sampler.subscribe();
            let mut last_sent: Option<(u64, tokio::time::Instant)> = None;
            loop {
                if last_sent.is_some() {
                    tokio::select! {
                        _ = tok.cancelled() => break,
                        r = rx.changed() => if r.is_err() { break },
                    }
                }
                let latest = rx.borrow_and_update().clone();
                let now = tokio::time::Instant::now();
                if let Some((seq, at)) = last_sent {
                    if latest.seq == seq {
                        continue;
                    }
                    if now.duration_since(at) < due {
                        // Too soon for this subscriber: wait for a later sample.
                        let wait = at + due - now;
                        tokio::select! {
                            _ = tok.cancelled() => break,
                            () = tokio::time::sleep(wait) => {}
                        }
                        continue;
                    }
                }
                let mut snap = crate::wire::snapshot_msg(&latest);
                if let Some(v) = &view {
                    let table = sampler.processes();
                    snap.top_processes = table
                        .select(v)
                        .iter()
                        .map(crate::wire::process_stats)
                        .collect();
                }
                if history_due {
                    snap.history = sampler.history().to_vec();
                }
                // A full queue means the peer is slow: skip this sample rather than pile up.
                match tx.try_send(Message::MonitorSnapshot(snap)) {
                    Ok(()) => history_due = false,
                    Err(mpsc::error::TrySendError::Full(_)) => {}
                    Err(mpsc::error::TrySendError::Closed(_)) => break,
                }
                last_sent = Some((latest.seq, tokio::time::Instant::now()));
            }
        });
    }

    /// PROCESS_GET: the process's details, or ERROR `not_found`.
    pub(super) async fn process_get(&self, g: ProcessGet) -> Message {
        let table = self.ctx.sampler.processes();
        let paths = self.ctx.agent.tool_base.paths.clone();
        let pid = g.pid;
        match tokio::task::spawn_blocking(move || process_details(pid, &table, &paths)).await {
            Ok(Ok(process)) => Message::ProcessInfo(ProcessInfoReply {
                request_id: g.request_id,
                process,
            }),
            Ok(Err(e)) => Message::error("not_found", e.to_string(), Some(g.request_id)),
            Err(e) => {
                tracing::warn!("process details task failed: {e}");
                Message::error(
                    "internal",
                    "读取进程信息失败 / reading the process failed",
                    Some(g.request_id),
                )
            }
        }
    }
}
