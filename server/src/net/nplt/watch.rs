//! WATCH_RUN: one run of a client's watch pane (`/watch 2 ss -tln`). A command line goes
//! straight to the command tool (its grammar, read-only whitelist, timeout, output cap and
//! audit, as when the agent runs it); anything else is a question answered by a turn of
//! kind `Watch`, which writes no history and proposes no action. It runs beside the
//! connection's chat turn, never in its slot. Budget: one run at a time per connection and
//! at most one start per `WATCH_MIN_GAP`; more is refused with ERROR `busy`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use llmops_tooldata::CommandArgs;
use llmops_tools::ToolArgs;
use protocol::{Message, WatchKind, WatchOutput, WatchRun};
use tokio::sync::mpsc;

use super::Conn;
use crate::turn::{TurnEvent, TurnKind, TurnRequest};

/// Shortest time between the starts of two watch runs of one connection.
pub const WATCH_MIN_GAP: Duration = Duration::from_secs(1);

/// The watch run of one connection.
#[derive(Debug, Default)]
pub(super) struct WatchSlot {
    busy: Arc<AtomicBool>,
    last_start: Option<Instant>,
}

/// Clears the busy flag when the run ends, however it ends.
struct Running(Arc<AtomicBool>);

impl Drop for Running {
    fn drop(&mut self) {
        self.0.store(false, Ordering::Release);
    }
}

fn lines(text: &str) -> Vec<String> {
    text.lines().map(str::to_string).collect()
}

impl Conn {
    pub(super) fn watch_run(&mut self, w: WatchRun, out: &mut Vec<Message>) {
        let busy = |why: &str| Message::error("busy", why.to_string(), Some(w.request_id));
        if w.text.trim().is_empty() {
            out.push(Message::error(
                "empty",
                "监视的命令为空 / nothing to watch",
                Some(w.request_id),
            ));
            return;
        }
        if self.watch.busy.load(Ordering::Acquire) {
            out.push(busy(
                "上一次监视运行尚未结束 / the previous watch run has not finished",
            ));
            return;
        }
        let now = Instant::now();
        if self
            .watch
            .last_start
            .is_some_and(|t| now.duration_since(t) < WATCH_MIN_GAP)
        {
            out.push(busy(
                "监视运行每秒最多一次 / at most one watch run a second",
            ));
            return;
        }
        self.watch.last_start = Some(now);
        self.watch.busy.store(true, Ordering::Release);
        let running = Running(self.watch.busy.clone());
        let ctx = self.ctx.clone();
        let tx = self.push_tx.clone();
        let sid = self.session_id.clone();
        let client = self.peer.to_string();
        self.ctx.tracker.spawn(async move {
            let _running = running;
            let started = Instant::now();
            let tool_ctx = ctx.tool_ctx(&sid);
            let uploads = tool_ctx.session_uploads();
            let reply = match llmops_planner::command_line::explicit_command(&w.text, &uploads) {
                Some(cl) => {
                    let args = ToolArgs::Command(CommandArgs::new(cl.raw, Vec::new()));
                    let r = ctx.agent.tools.call_args(&args, &tool_ctx).await;
                    WatchOutput {
                        request_id: w.request_id,
                        kind: WatchKind::Command,
                        ok: r.ok,
                        lines: lines(&r.output),
                        error: r.error,
                        duration_ms: 0,
                    }
                }
                None => {
                    let req = TurnRequest {
                        request_id: w.request_id,
                        session_id: sid,
                        text: w.text.clone(),
                        file_ids: Vec::new(),
                        client: Some(client),
                        kind: TurnKind::Watch,
                    };
                    answer(&ctx, req).await
                }
            };
            let duration_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
            let msg = Message::WatchOutput(WatchOutput {
                duration_ms,
                ..reply
            });
            if tx.send(msg).await.is_err() {
                tracing::debug!("watch result dropped: the connection is gone");
            }
        });
    }
}

/// A question's answer from a `Watch` turn (its events are not forwarded: only the answer
/// counts).
async fn answer(ctx: &crate::app::Ctx, req: TurnRequest) -> WatchOutput {
    let request_id = req.request_id;
    let (tx, mut rx) = mpsc::channel(64);
    let cancel = ctx.shutdown.child_token();
    let turn = async {
        let o = crate::agent::run::run_turn(ctx.agent.clone(), req, &tx, cancel).await;
        drop(tx);
        o
    };
    let drain = async {
        while let Some(ev) = rx.recv().await {
            // A watch turn proposes nothing; should one ask anyway, nothing runs.
            if let TurnEvent::Approval(ask) = ev {
                ask.reply.send(crate::turn::ApprovalOutcome::Rejected {
                    approval_id: String::new(),
                });
            }
        }
    };
    let (outcome, ()) = tokio::join!(turn, drain);
    let ok = outcome.status == protocol::EndStatus::Ok;
    WatchOutput {
        request_id,
        kind: WatchKind::Answer,
        ok,
        lines: lines(&outcome.answer),
        error: outcome.message.filter(|_| !ok),
        duration_ms: 0,
    }
}
