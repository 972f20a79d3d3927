//! What a running tool call may send out before it returns: live output lines (`LiveSink`,
//! follow mode) and a request for more time than the agent's per-call limit (`TimeBudget`).
//! Both are no-ops in contexts without a client or a deadline (tests, requests outside a
//! turn).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::mpsc;

/// A batch of live lines from a running tool call.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LiveChunk {
    pub lines: Vec<String>,
    /// Lines seen since the previous chunk that are not sent live (rate limit); they are in
    /// the step's stored output.
    pub dropped: u64,
    /// Every line seen so far in this call.
    pub total: u64,
}

/// Where a tool sends live lines. Cloning shares the channel; the default sends nowhere.
#[derive(Debug, Clone, Default)]
pub struct LiveSink(Option<mpsc::UnboundedSender<LiveChunk>>);

impl LiveSink {
    /// A sink that drops everything (no client).
    pub fn none() -> Self {
        LiveSink(None)
    }

    /// A sink and the receiver the agent loop forwards to the client. Unbounded is safe:
    /// senders batch and rate limit (see `follow`), so at most a few chunks a second.
    pub fn channel() -> (Self, mpsc::UnboundedReceiver<LiveChunk>) {
        let (tx, rx) = mpsc::unbounded_channel();
        (LiveSink(Some(tx)), rx)
    }

    /// Whether anyone listens (a tool may skip batching work otherwise).
    pub fn is_connected(&self) -> bool {
        self.0.as_ref().is_some_and(|t| !t.is_closed())
    }

    pub fn send(&self, chunk: LiveChunk) {
        if let Some(tx) = &self.0 {
            if tx.send(chunk).is_err() {
                // The turn stopped listening (it ended); the lines stay in the tool's result.
                tracing::debug!("live output receiver gone");
            }
        }
    }
}

/// The time a tool call asks for beyond the agent's per-call limit (a follow runs up to its
/// own cap). Shared between the tool and the agent loop that enforces the limit.
#[derive(Debug, Clone, Default)]
pub struct TimeBudget(Arc<Mutex<Duration>>);

impl TimeBudget {
    /// Asks for `total` from the start of the call (never lowers an earlier request).
    pub fn extend_to(&self, total: Duration) {
        let mut g = self.0.lock().unwrap_or_else(|p| p.into_inner());
        *g = (*g).max(total);
    }

    /// The time asked for so far (zero: only the agent's default limit).
    pub fn requested(&self) -> Duration {
        *self.0.lock().unwrap_or_else(|p| p.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn live_sink_none_and_channel() {
        LiveSink::none().send(LiveChunk::default());
        assert!(!LiveSink::none().is_connected());
        let (s, mut rx) = LiveSink::channel();
        assert!(s.is_connected());
        s.send(LiveChunk {
            lines: vec!["a".into()],
            dropped: 2,
            total: 3,
        });
        let c = rx.try_recv().expect("chunk");
        assert_eq!((c.lines, c.dropped, c.total), (vec!["a".to_string()], 2, 3));
        drop(rx);
        assert!(!s.is_connected());
        s.send(LiveChunk::default());
    }

    #[test]
    fn time_budget_only_grows() {
        let b = TimeBudget::default();
        assert_eq!(b.requested(), Duration::ZERO);
        b.extend_to(Duration::from_secs(600));
        b.clone().extend_to(Duration::from_secs(5));
        assert_eq!(b.requested(), Duration::from_secs(600));
    }
}
