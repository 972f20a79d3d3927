//! One chat turn as the session sees it: the events an agent turn emits (status, tool
//! calls and results, answer deltas, offers, search hits) and its outcome. The session
//! task turns these into frames for legacy or extension clients; the turn itself never
//! touches a socket.

use protocol::{EndStatus, SearchResults};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::store::{OfferRow, ToolCallRow};

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
    Done(TurnOutcome),
}

#[derive(Debug, Clone, PartialEq)]
pub struct TurnOutcome {
    pub status: EndStatus,
    pub message: Option<String>,
    pub answer: String,
    pub tool_calls: Vec<ToolCallRow>,
}

#[derive(Debug, Clone)]
pub struct TurnRequest {
    pub request_id: u64,
    pub session_id: String,
    pub text: String,
    pub file_ids: Vec<String>,
}

/// Handle on a running turn held by the session task.
pub struct RunningTurn {
    pub request_id: u64,
    pub cancel: CancellationToken,
    pub events: mpsc::Receiver<TurnEvent>,
}

/// Splits an answer into small pieces for streaming: word by word for Latin text and a few
/// characters at a time for CJK, never cutting a character.
pub fn stream_pieces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cjk_run = 0;
    for ch in text.chars() {
        cur.push(ch);
        let is_cjk = (ch as u32) >= 0x2E80;
        if is_cjk {
            cjk_run += 1;
        }
        let boundary = ch.is_whitespace() || (is_cjk && cjk_run >= 3) || cur.len() >= 24;
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
