//! One chat turn as a client sees it, without a socket: the turn's messages, folded in
//! arrival order into its answer text and end status. Messages of other requests are
//! ignored, so a caller may feed everything it receives.

use protocol::{ApprovalRequest, ApprovalStateKind, EndStatus, Message, RequestId};

/// One approval of a turn: asked (`request`, from APPROVAL_REQUEST) and/or ended (`state`,
/// from APPROVAL_STATE). A grant-approved or denied action has a state but no request.
#[derive(Debug, Clone, PartialEq)]
pub struct Approval {
    pub approval_id: String,
    /// Exactly what would run.
    pub argv: Vec<String>,
    pub request: Option<Box<ApprovalRequest>>,
    /// `None` while it waits for an answer.
    pub state: Option<ApprovalStateKind>,
    pub grant_id: Option<String>,
    pub detail: Option<String>,
}

impl Approval {
    /// The state as the words of `ask --json` (`pending` while unanswered).
    pub fn state_word(&self) -> &'static str {
        match self.state {
            None => "pending",
            Some(ApprovalStateKind::Approved) => "approved",
            Some(ApprovalStateKind::Rejected) => "rejected",
            Some(ApprovalStateKind::Expired) => "expired",
            Some(ApprovalStateKind::Denied) => "denied",
        }
    }
}

/// Folds an APPROVAL_REQUEST or APPROVAL_STATE of `request_id` into `list`; other messages
/// are ignored. Returns the entry it changed.
pub fn fold_approval<'a>(
    list: &'a mut Vec<Approval>,
    request_id: RequestId,
    m: &Message,
) -> Option<&'a mut Approval> {
    let (id, argv) = match m {
        Message::ApprovalRequest(r) if r.request_id == Some(request_id) => {
            (&r.approval_id, &r.argv)
        }
        Message::ApprovalState(s) if s.request_id == Some(request_id) => (&s.approval_id, &s.argv),
        _ => return None,
    };
    let i = match list.iter().position(|a| &a.approval_id == id) {
        Some(i) => i,
        None => {
            list.push(Approval {
                approval_id: id.clone(),
                argv: argv.clone(),
                request: None,
                state: None,
                grant_id: None,
                detail: None,
            });
            list.len() - 1
        }
    };
    let a = &mut list[i];
    match m {
        Message::ApprovalRequest(r) => a.request = Some(r.clone()),
        Message::ApprovalState(s) => {
            a.state = Some(s.state);
            a.grant_id = s.grant_id.clone();
            a.detail = s.detail.clone();
        }
        _ => {}
    }
    Some(a)
}

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
    /// Every approval of the turn, in the order first seen.
    pub approvals: Vec<Approval>,
}

impl Turn {
    pub fn new(request_id: RequestId) -> Self {
        Turn {
            request_id,
            answer: String::new(),
            status: None,
            end_message: None,
            approvals: Vec::new(),
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
            Message::ApprovalRequest(_) | Message::ApprovalState(_) => {
                fold_approval(&mut self.approvals, self.request_id, m);
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

    #[test]
    fn approvals_fold_by_id_and_decode_from_the_wire() {
        use protocol::{ApprovalState, GrantScope};
        let argv: Vec<String> = ["kill", "-TERM", "4242"].map(String::from).to_vec();
        let req = Message::ApprovalRequest(Box::new(ApprovalRequest {
            approval_id: "a1".into(),
            request_id: Some(7),
            argv: argv.clone(),
            action: "kill".into(),
            tool: "command_executor".into(),
            args: serde_json::json!({}),
            user_request: "stop 4242".into(),
            reason: "runaway".into(),
            risk: "work lost".into(),
            always: GrantScope {
                rule: ["kill", "-TERM", "{pid}"].map(String::from).to_vec(),
                text: "kill -TERM <pid>".into(),
            },
            expires_at: 1_000_120,
        }));
        // Through the codec, as the client receives it.
        let decode = |m: &Message| {
            let mut codec = protocol::MessageCodec::new();
            let mut buf = bytes::BytesMut::new();
            codec.encode(m, &mut buf).expect("encode");
            match codec.decode(&mut buf) {
                Ok(Some(protocol::Inbound::Msg(m))) => m,
                other => panic!("decoded {other:?}"),
            }
        };
        let mut t = Turn::new(7);
        t.push(&decode(&req));
        assert_eq!(t.approvals.len(), 1);
        assert_eq!(t.approvals[0].state_word(), "pending");
        assert_eq!(
            t.approvals[0]
                .request
                .as_ref()
                .map(|r| r.always.text.as_str()),
            Some("kill -TERM <pid>")
        );
        let state = |id: &str, rid: u64, s: ApprovalStateKind, g: Option<&str>| {
            Message::ApprovalState(ApprovalState {
                approval_id: id.into(),
                request_id: Some(rid),
                argv: argv.clone(),
                state: s,
                grant_id: g.map(String::from),
                detail: None,
            })
        };
        // Another turn's state is not ours.
        t.push(&state("a1", 8, ApprovalStateKind::Rejected, None));
        assert_eq!(t.approvals[0].state, None);
        t.push(&decode(&state("a1", 7, ApprovalStateKind::Approved, None)));
        // A grant-approved action has a state only.
        t.push(&decode(&state(
            "a2",
            7,
            ApprovalStateKind::Approved,
            Some("g1"),
        )));
        let words: Vec<_> = t
            .approvals
            .iter()
            .map(|a| {
                (
                    a.approval_id.as_str(),
                    a.state_word(),
                    a.grant_id.as_deref(),
                )
            })
            .collect();
        assert_eq!(
            words,
            vec![("a1", "approved", None), ("a2", "approved", Some("g1"))]
        );
        assert!(t.approvals[1].request.is_none());
    }
}
