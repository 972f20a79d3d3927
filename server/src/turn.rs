//! One chat turn as the session sees it: the events an agent turn emits (status, tool
//! calls and results, answer deltas, offers, search hits) and its outcome. The session
//! task turns these into frames for legacy or extension clients; the turn itself never
//! touches a socket.

mod approval;

pub use approval::{ApprovalAsk, ApprovalOutcome, ApprovalReplySlot};

use protocol::{EndStatus, SearchResults};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::store::{OfferRow, Store, ToolCallRow};

#[derive(Debug, Clone, PartialEq)]
pub enum TurnEvent {
    Status(String),
    ToolCall {
        step: u32,
        tool: String,
        args: serde_json::Value,
    },
    /// Live lines of the running tool call of `step` (follow mode).
    ToolOutput {
        step: u32,
        tool: String,
        lines: Vec<String>,
        dropped: u64,
        total: u64,
    },
    ToolResult {
        step: u32,
        tool: String,
        ok: bool,
        duration_ms: u64,
        summary: String,
        /// The step's whole output as stored for paging (None when it could not be stored).
        output: Option<protocol::OutputRef>,
    },
    /// The answer starts (sent once, before the first delta).
    AnswerStart,
    Delta(String),
    Search(SearchResults),
    Offer(Box<OfferRow>),
    /// A mutating action waits for the operator: the connection asks the client (or a
    /// standing grant answers) and replies through `ApprovalAsk::reply`.
    Approval(Box<ApprovalAsk>),
    /// A proposed action a deny rule refuses: never offered for approval, but reported
    /// (`APPROVAL_STATE` denied) and audited.
    ApprovalDenied {
        argv: Vec<String>,
        detail: String,
    },
    Done(TurnOutcome),
}

#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    pub status: EndStatus,
    pub message: Option<String>,
    pub answer: String,
    pub tool_calls: Vec<ToolCallRow>,
}

/// What a turn is for.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum TurnKind {
    /// A question: the planner (LLM or offline) chooses the steps; history is written.
    #[default]
    Ask,
    /// The operator proposes exactly this argv (a signal from the process pane): one
    /// `run_action` step through the approval path, nothing planned.
    Propose(Vec<String>),
    /// A watch run: answered like a question, but nothing is written to the history or
    /// kept as a stored output, and no action is proposed.
    Watch,
}

#[derive(Debug, Clone)]
pub struct TurnRequest {
    pub request_id: u64,
    pub session_id: String,
    pub text: String,
    pub file_ids: Vec<String>,
    /// The peer address of the connection that sent it (audited with what the turn runs).
    pub client: Option<String>,
    pub kind: TurnKind,
}

/// Handle on a running turn held by the session task.
pub struct RunningTurn {
    pub request_id: u64,
    pub cancel: CancellationToken,
    pub events: mpsc::Receiver<TurnEvent>,
}

/// Who wrote a history message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    User,
    Assistant,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// Appends one message of a turn to the session's history. A failure is logged with the
/// session id and what was lost, and returned as the reason for the client.
pub async fn save_history(
    store: &Store,
    session_id: &str,
    role: Role,
    text: &str,
    calls: &[ToolCallRow],
) -> Result<(), String> {
    let (sid, t, c) = (session_id.to_string(), text.to_string(), calls.to_vec());
    let res = store
        .run(move |st| st.append_message(&sid, role.as_str(), &t, &c))
        .await;
    res.map_err(|e| {
        tracing::error!(
            session = %session_id,
            role = role.as_str(),
            chars = text.chars().count(),
            tool_calls = calls.len(),
            "history write failed; this message is not saved: {e}"
        );
        e.to_string()
    })
}

/// The end of a turn: `unsaved` (why its history could not be written) turns an answered
/// turn into an error the client shows, after the answer it already saw.
pub fn end_of_turn(
    status: EndStatus,
    message: Option<String>,
    unsaved: Option<String>,
) -> (EndStatus, Option<String>) {
    match unsaved {
        None => (status, message),
        Some(reason) => (
            EndStatus::Error,
            Some(format!(
                "对话已显示但未能保存到历史: {reason} / the answer was shown but could not be \
                 saved to the history: {reason}"
            )),
        ),
    }
}

/// Splits an answer into small pieces for streaming: word by word for Latin text and a few
/// characters at a time for CJK, never cutting a character.
pub fn stream_pieces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cjk_run = 0;
    for ch in text.chars() {
        cur.push(ch);
        let wide = llmops_common::is_wide(ch);
        if wide {
            cjk_run += 1;
        }
        let boundary = ch.is_whitespace() || (wide && cjk_run >= 3) || cur.len() >= 24;
        if boundary {
            out.push(std::mem::take(&mut cur));
            cjk_run = 0;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_full_database_fails_the_history_write_with_its_reason() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("db.sqlite")).expect("open");
        let sid = store
            .run(|s| s.create_session(None))
            .await
            .expect("session")
            .id;
        save_history(&store, &sid, Role::User, "hi", &[])
            .await
            .expect("room left");
        // No room for one more page: the next message cannot be written (SQLITE_FULL).
        store
            .run(|s| s.set_max_pages_for_test())
            .await
            .expect("pragma");
        let big = "满".repeat(20_000);
        let err = save_history(&store, &sid, Role::Assistant, &big, &[])
            .await
            .expect_err("database is full");
        assert!(err.contains("full"), "{err}");
        let (status, msg) = end_of_turn(EndStatus::Ok, None, Some(err.clone()));
        assert_eq!(status, EndStatus::Error);
        let msg = msg.expect("message");
        assert!(msg.starts_with("对话已显示但未能保存到历史: "));
        assert!(msg.contains("could not be saved") && msg.contains(&err));
        assert_eq!(
            end_of_turn(EndStatus::Cancelled, Some("x".into()), None),
            (EndStatus::Cancelled, Some("x".into()))
        );
    }

    #[test]
    fn pieces_rejoin_to_the_text() {
        for t in [
            "",
            "hello world, how are you",
            "当前 CPU 使用率为 12.5%，负载正常。",
            "a😀b",
        ] {
            let p = stream_pieces(t);
            assert_eq!(p.concat(), t);
            assert!(p.iter().all(|s| !s.is_empty()));
        }
        assert!(stream_pieces("one two three").len() >= 3);
    }
}
