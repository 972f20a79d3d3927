//! Starting a turn and rendering its events as extension-mode frames.

use protocol::{
    AgentEvent, AgentEventKind, EndStatus, Message, StreamDelta, StreamEnd, StreamStart, ToolOutput,
};

use crate::turn::{TurnEvent, TurnKind, TurnRequest};

use super::approvals::{Abandon, ApprovalBroker};
use super::{Conn, Dialect};

impl Conn {
    pub(super) fn start_turn(
        &mut self,
        request_id: u64,
        text: String,
        file_ids: Vec<String>,
        kind: TurnKind,
    ) {
        let req = TurnRequest {
            request_id,
            session_id: self.session_id.clone(),
            text,
            file_ids,
            client: Some(self.peer.to_string()),
            kind,
        };
        self.turn = Some(self.ctx.spawn_turn(req));
        self.legacy_pending.clear();
    }

    pub(super) async fn on_turn_event(&mut self, ev: Option<TurnEvent>, out: &mut Vec<Message>) {
        let Some(rid) = self.turn.as_ref().map(|t| t.request_id) else {
            return;
        };
        let legacy = self.mode == Dialect::Legacy;
        let Some(ev) = ev else {
            self.on_turn_lost(rid, legacy, out);
            return;
        };
        if legacy {
            self.legacy_turn_event(ev, out);
            return;
        }
        match ev {
            TurnEvent::Approval(ask) => {
                let who = who!(self);
                self.approvals
                    .ask(&self.ctx.approvals, who, rid, ask, out)
                    .await;
            }
            TurnEvent::ApprovalDenied { argv, detail } => {
                ApprovalBroker::denied(&self.ctx.approvals, who!(self), rid, argv, detail, out)
            }
            TurnEvent::Done(outcome) => {
                self.turn = None;
                // A turn that ends stops waiting: anything still pending never runs.
                let who = who!(self);
                self.approvals.abandon(
                    &self.ctx.approvals,
                    who,
                    Some(rid),
                    Abandon::TurnEnded,
                    out,
                );
                out.push(Message::StreamEnd(StreamEnd {
                    request_id: rid,
                    status: outcome.status,
                    message: outcome.message,
                }));
            }
            ev @ (TurnEvent::Status(_)
            | TurnEvent::ToolCall { .. }
            | TurnEvent::ToolOutput { .. }
            | TurnEvent::ToolResult { .. }
            | TurnEvent::AnswerStart
            | TurnEvent::Delta(_)
            | TurnEvent::Search(_)
            | TurnEvent::Offer(_)) => out.extend(progress_frame(rid, ev)),
        }
    }

    /// The turn task ended without a Done event (it panicked): say so.
    fn on_turn_lost(&mut self, rid: u64, legacy: bool, out: &mut Vec<Message>) {
        self.turn = None;
        let who = who!(self);
        self.approvals
            .abandon(&self.ctx.approvals, who, Some(rid), Abandon::TurnEnded, out);
        if legacy {
            self.legacy_flush_end(out, Some("内部错误，本轮对话中止 / internal error"));
        } else {
            out.push(Message::StreamEnd(StreamEnd {
                request_id: rid,
                status: EndStatus::Error,
                message: Some("内部错误，本轮对话中止 / internal error".into()),
            }));
        }
    }
}

/// The frame of a turn event that only reports progress; `None` for the events the
/// connection acts on (approvals, the end of the turn), which `on_turn_event` handles.
fn progress_frame(rid: u64, ev: TurnEvent) -> Option<Message> {
    let m = match ev {
        TurnEvent::Status(text) => agent_event(rid, AgentEventKind::Status { text }),
        TurnEvent::ToolCall { step, tool, args } => {
            agent_event(rid, AgentEventKind::ToolCall { step, tool, args })
        }
        TurnEvent::ToolOutput {
            step,
            tool,
            lines,
            dropped,
            total,
        } => Message::ToolOutput(ToolOutput {
            request_id: rid,
            step,
            tool,
            lines,
            dropped,
            total,
        }),
        TurnEvent::ToolResult {
            step,
            tool,
            ok,
            duration_ms,
            summary,
            output,
        } => agent_event(
            rid,
            AgentEventKind::ToolResult {
                step,
                tool,
                ok,
                duration_ms,
                summary,
                output,
            },
        ),
        TurnEvent::AnswerStart => Message::StreamStart(StreamStart { request_id: rid }),
        TurnEvent::Delta(text) => Message::StreamDelta(StreamDelta {
            request_id: rid,
            text,
        }),
        TurnEvent::Search(mut s) => {
            s.request_id = Some(rid);
            Message::SearchResults(s)
        }
        TurnEvent::Offer(o) => Message::Offer(crate::wire::offer_msg(&o)),
        TurnEvent::Approval(_) | TurnEvent::ApprovalDenied { .. } | TurnEvent::Done(_) => {
            return None
        }
    };
    Some(m)
}

fn agent_event(request_id: u64, event: AgentEventKind) -> Message {
    Message::AgentEvent(AgentEvent { request_id, event })
}
