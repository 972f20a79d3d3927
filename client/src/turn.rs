//! One chat turn as a client sees it, without a socket: the turn's messages, folded in
//! arrival order into its answer text and end status. Messages of other requests are
//! ignored, so a caller may feed everything it receives.

use protocol::{EndStatus, Message, RequestId};

/// The answer of one chat turn so far.
#[derive(Debug, Clone, PartialEq)]
pub struct Turn {
    pub request_id: RequestId,
    /// The turn's STREAM_DELTA texts, joined in arrival order.
    pub answer: String,
    /// Set by the turn's STREAM_END.
    pub status: Option<EndStatus>,
    /// STREAM_END's message (why a turn was cancelled or failed).
    pub end_message: Option<String>,
}

impl Turn {
    pub fn new(request_id: RequestId) -> Self {
        Turn {
            request_id,
            answer: String::new(),
            status: None,
            end_message: None,
        }
    }

    /// Folds one message in; true once this turn's STREAM_END has arrived.
    pub fn push(&mut self, m: &Message) -> bool {
        match m {
            Message::StreamDelta(d) if d.request_id == self.request_id => {
                self.answer.push_str(&d.text);
            }
            Message::StreamEnd(e) if e.request_id == self.request_id => {
                self.status = Some(e.status);
                self.end_message = e.message.clone();
            }
            _ => {}
        }
        self.is_over()
    }

    /// True once this turn's STREAM_END has arrived.
    pub fn is_over(&self) -> bool {
        self.status.is_some()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::{StreamDelta, StreamEnd};

    fn delta(request_id: RequestId, text: &str) -> Message {
        Message::StreamDelta(StreamDelta {
            request_id,
            text: text.into(),
        })
    }

    #[test]
    fn folds_only_its_own_request_until_stream_end() {
        let mut t = Turn::new(7);
        assert!(!t.push(&delta(7, "CPU 使用率")));
        assert!(!t.push(&delta(8, "another turn")));
        assert!(!t.push(&Message::Heartbeat(protocol::Empty)));
        assert!(!t.push(&delta(7, ": 12.5%")));
        assert!(!t.push(&Message::StreamEnd(StreamEnd {
            request_id: 8,
            status: EndStatus::Ok,
            message: None,
        })));
        assert!(t.push(&Message::StreamEnd(StreamEnd {
            request_id: 7,
            status: EndStatus::Cancelled,
            message: Some("cancelled by the user".into()),
        })));
        assert_eq!(t.answer, "CPU 使用率: 12.5%");
        assert_eq!(t.status, Some(EndStatus::Cancelled));
        assert_eq!(t.end_message.as_deref(), Some("cancelled by the user"));
        assert!(t.is_over());
    }
}
