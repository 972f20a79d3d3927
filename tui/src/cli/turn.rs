//! One chat turn as a script sees it: its events collected into the answer, the tool steps
//! and the approvals (each approval request answered by an `Approver`), and the status word
//! a turn ends with.

use protocol::{AgentEventKind, EndStatus, Message};
use serde_json::json;

use super::approve;
use crate::client::{Client, ClientError};

#[derive(Debug, Default, serde::Serialize)]
pub struct Step {
    pub tool: String,
    pub args: serde_json::Value,
    pub ok: bool,
    pub output: String,
}

#[derive(Debug, Default)]
pub struct TurnResult {
    pub answer: String,
    pub steps: Vec<Step>,
    pub status: Option<EndStatus>,
    pub error: Option<String>,
    /// Every approval of the turn and how it ended.
    pub approvals: Vec<llmops_client::Approval>,
}

impl TurnResult {
    /// `ask --json`'s `approvals`: `[{approval_id, argv, state, grant_id?}]`.
    pub fn approvals_json(&self) -> serde_json::Value {
        self.approvals
            .iter()
            .map(|a| {
                let mut v =
                    json!({"approval_id": a.approval_id, "argv": a.argv, "state": a.state_word()});
                if let Some(g) = &a.grant_id {
                    v["grant_id"] = json!(g);
                }
                v
            })
            .collect()
    }
}

/// Collects one turn's events; `live` prints answer text as it streams. Approval requests
/// are all rejected (script mode never approves by itself; see `collect_turn_with`).
pub async fn collect_turn(
    client: &Client,
    text: &str,
    file_ids: Vec<String>,
    live: impl FnMut(&Message),
) -> Result<TurnResult, ClientError> {
    collect_turn_with(client, text, file_ids, &mut approve::Approver::none(), live).await
}

/// `collect_turn` answering approval requests with `approver` (each answer said on stderr).
pub async fn collect_turn_with(
    client: &Client,
    text: &str,
    file_ids: Vec<String>,
    approver: &mut approve::Approver,
    mut live: impl FnMut(&Message),
) -> Result<TurnResult, ClientError> {
    let (id, mut rx) = client.chat(text, file_ids).await?;
    let mut r = TurnResult::default();
    while let Some(m) = rx.recv().await {
        live(&m);
        llmops_client::fold_approval(&mut r.approvals, id, &m);
        match m {
            Message::ApprovalRequest(a) => {
                let d = approver.decide(&a.argv);
                errln!("{}", approve::decision_line(&a.argv, &d));
                client.reply_approval(&a.approval_id, d).await?;
            }
            Message::StreamDelta(d) => r.answer.push_str(&d.text),
            Message::AgentEvent(e) => match e.event {
                AgentEventKind::ToolCall { tool, args, .. } => r.steps.push(Step {
                    tool,
                    args,
                    ..Default::default()
                }),
                AgentEventKind::ToolResult {
                    tool, ok, summary, ..
                } => {
                    if let Some(s) = r.steps.iter_mut().rev().find(|s| s.tool == tool) {
                        s.ok = ok;
                        s.output = summary;
                    }
                }
                AgentEventKind::Status { .. } => {}
            },
            Message::StreamEnd(e) => {
                r.status = Some(e.status);
                r.error = e.message;
                return Ok(r);
            }
            Message::Error(e) => return Err(ClientError::from(e)),
            _ => {}
        }
    }
    Err(ClientError::Disconnected)
}

/// A turn's status word (`ok`, `cancelled`, `error`) and, unless it is `ok`, the reason.
pub(super) fn turn_status(r: &TurnResult) -> (&'static str, Option<String>) {
    match r.status {
        Some(EndStatus::Ok) => ("ok", None),
        Some(EndStatus::Cancelled) => (
            "cancelled",
            Some(
                r.error
                    .clone()
                    .unwrap_or_else(|| "已取消 / cancelled".into()),
            ),
        ),
        Some(EndStatus::Error) | None => (
            "error",
            Some(
                r.error
                    .clone()
                    .unwrap_or_else(|| "本轮对话失败 / the turn failed".into()),
            ),
        ),
    }
}
