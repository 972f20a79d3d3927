//! Per-session LLM health: after `limit` consecutive failed turns a session uses the offline
//! planner for a cool-down, then tries the LLM again (one more failure sends it straight back
//! to offline). Uses tokio's clock so tests can pause time.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use tokio::time::Instant;

/// Consecutive failures that switch a session to the offline planner.
pub const FAILURE_LIMIT: u32 = 3;
/// How long a session stays offline before the LLM is tried again.
pub const COOL_DOWN: Duration = Duration::from_secs(300);

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Availability {
    /// Ask the LLM.
    Use,
    /// Offline planner until this instant.
    CoolingDown { until: Instant },
}

#[derive(Debug, Default, Clone, Copy)]
struct State {
    failures: u32,
    offline_until: Option<Instant>,
}

#[derive(Debug)]
pub struct LlmHealth {
    sessions: Mutex<HashMap<String, State>>,
    limit: u32,
    cool_down: Duration,
}

impl Default for LlmHealth {
    fn default() -> Self {
        LlmHealth::new(FAILURE_LIMIT, COOL_DOWN)
    }
}

impl LlmHealth {
    pub fn new(limit: u32, cool_down: Duration) -> LlmHealth {
        LlmHealth {
            sessions: Mutex::new(HashMap::new()),
            limit: limit.max(1),
            cool_down,
        }
    }

    fn with<T>(&self, f: impl FnOnce(&mut HashMap<String, State>) -> T) -> T {
        // A poisoned lock only means a panic elsewhere mid-update of plain counters.
        let mut g = self.sessions.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut g)
    }

    pub fn check(&self, session_id: &str) -> Availability {
        let now = Instant::now();
        let limit = self.limit;
        self.with(|m| {
            let Some(st) = m.get_mut(session_id) else {
                return Availability::Use;
            };
            match st.offline_until {
                Some(until) if now < until => Availability::CoolingDown { until },
                Some(_) => {
                    // Cool-down over: try again, but one more failure trips at once.
                    st.offline_until = None;
                    st.failures = limit - 1;
                    Availability::Use
                }
                None => Availability::Use,
            }
        })
    }

    pub fn success(&self, session_id: &str) {
        self.with(|m| {
            m.remove(session_id);
        });
    }

    /// Records a failed turn; true when this failure switched the session offline.
    pub fn failure(&self, session_id: &str) -> bool {
        let until = Instant::now() + self.cool_down;
        let limit = self.limit;
        self.with(|m| {
            let st = m.entry(session_id.to_string()).or_default();
            st.failures += 1;
            if st.failures >= limit && st.offline_until.is_none() {
                st.offline_until = Some(until);
                true
            } else {
                false
            }
        })
    }

    /// Forgets a session (deleted or closed for good).
    pub fn forget(&self, session_id: &str) {
        self.success(session_id);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn trips_after_limit_and_recovers_after_cool_down() {
        let h = LlmHealth::new(3, Duration::from_secs(60));
        assert!(!h.failure("s"));
        assert!(!h.failure("s"));
        assert_eq!(h.check("s"), Availability::Use);
        assert!(h.failure("s"));
        assert!(matches!(h.check("s"), Availability::CoolingDown { .. }));
        assert_eq!(h.check("other"), Availability::Use);
        tokio::time::advance(Duration::from_secs(61)).await;
        assert_eq!(h.check("s"), Availability::Use);
        // One more failure after the cool-down goes straight back offline.
        assert!(h.failure("s"));
        h.success("s");
        assert_eq!(h.check("s"), Availability::Use);
    }

    #[test]
    fn success_resets_the_count() {
        let h = LlmHealth::default();
        h.failure("s");
        h.failure("s");
        h.success("s");
        assert!(!h.failure("s"));
    }
}
