//! The turn's side of an approval: what the agent asks the connection when it proposes a
//! mutating action, and the one answer it gets back. The agent checks the action grammar and
//! the deny rules before asking; the connection owns the exchange with the client (ids,
//! standing grants, expiry, the audit records) and answers through the reply slot.

use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// How an approval ended, as the agent sees it. Only `Approved` lets the action run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApprovalOutcome {
    /// The operator approved (once or always), or a standing grant did (`grant_id`).
    Approved {
        approval_id: String,
        grant_id: Option<String>,
    },
    Rejected {
        approval_id: String,
    },
    /// Nobody answered in time.
    Expired {
        approval_id: String,
    },
    /// The client cannot approve (a legacy client): treated as a rejection.
    Unsupported {
        approval_id: String,
    },
}

/// A proposed mutating action that passed the grammar and the deny rules.
#[derive(Debug, Clone, PartialEq)]
pub struct ApprovalAsk {
    /// Exactly what will run.
    pub argv: Vec<String>,
    /// `systemctl restart`, `kill`, `journalctl vacuum`, or a configured action's name.
    pub action: String,
    pub tool: String,
    pub args: serde_json::Value,
    pub user_request: String,
    pub reason: String,
    pub risk: String,
    /// What "approve always" would grant (`policy::GrantRule` and its one-line text).
    pub always: protocol::GrantScope,
    pub reply: ApprovalReplySlot,
}

/// The one-shot answer channel, in a shape `TurnEvent` can carry (it is `Clone` and
/// `PartialEq` for tests; the first `send` wins, later ones are ignored).
#[derive(Debug, Clone)]
pub struct ApprovalReplySlot(Arc<Mutex<Option<oneshot::Sender<ApprovalOutcome>>>>);

impl ApprovalReplySlot {
    /// A slot and the receiver the agent awaits. A dropped slot (connection gone) makes the
    /// receiver fail, which the agent must treat as a rejection.
    pub fn new() -> (ApprovalReplySlot, oneshot::Receiver<ApprovalOutcome>) {
        let (tx, rx) = oneshot::channel();
        (ApprovalReplySlot(Arc::new(Mutex::new(Some(tx)))), rx)
    }

    /// Answers; returns false when already answered or the agent stopped waiting.
    pub fn send(&self, outcome: ApprovalOutcome) -> bool {
        let tx = match self.0.lock() {
            Ok(mut guard) => guard.take(),
            Err(poisoned) => poisoned.into_inner().take(),
        };
        tx.is_some_and(|tx| tx.send(outcome).is_ok())
    }
}

impl PartialEq for ApprovalReplySlot {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn first_answer_wins_and_a_dropped_slot_fails_the_receiver() {
        let (slot, rx) = ApprovalReplySlot::new();
        let copy = slot.clone();
        assert!(slot.send(ApprovalOutcome::Rejected {
            approval_id: "a".into()
        }));
        assert!(!copy.send(ApprovalOutcome::Expired {
            approval_id: "a".into()
        }));
        assert_eq!(
            rx.await.expect("answered"),
            ApprovalOutcome::Rejected {
                approval_id: "a".into()
            }
        );
        let (slot, rx) = ApprovalReplySlot::new();
        drop(slot);
        assert!(rx.await.is_err());
    }
}
