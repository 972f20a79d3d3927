//! Uploads still being received or saved, by session and announced sha256, so that an
//! UPLOAD_LOOKUP after a lost connection waits for the old connection's upload to land or
//! fail instead of answering "not here" while it is still being committed (the retry then
//! would duplicate the file).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::watch;

type Key = (String, String);

/// The registry (cheap to clone).
#[derive(Clone)]
pub struct InFlight {
    inner: Arc<Inner>,
}

struct Inner {
    counts: Mutex<HashMap<Key, usize>>,
    /// Bumped whenever an upload ends, to wake lookups.
    ended: watch::Sender<u64>,
}

impl Default for InFlight {
    fn default() -> Self {
        Self {
            inner: Arc::new(Inner {
                counts: Mutex::default(),
                ended: watch::channel(0).0,
            }),
        }
    }
}

/// Held by an upload from its start until it is saved (dropped after the row commits) or
/// abandoned (its connection's upload slot dropped).
pub struct InFlightGuard {
    inner: Arc<Inner>,
    key: Key,
}

impl std::fmt::Debug for InFlightGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InFlightGuard")
            .field("session", &self.key.0)
            .finish()
    }
}

impl Drop for InFlightGuard {
    fn drop(&mut self) {
        if let Ok(mut c) = self.inner.counts.lock() {
            if let Some(n) = c.get_mut(&self.key) {
                *n -= 1;
                if *n == 0 {
                    c.remove(&self.key);
                }
            }
        }
        self.inner.ended.send_modify(|g| *g = g.wrapping_add(1));
    }
}

fn key(session: &str, sha256: &str) -> Key {
    (session.to_string(), sha256.trim().to_ascii_lowercase())
}

impl InFlight {
    /// Registers an upload of `session` announcing `sha256`.
    pub fn start(&self, session: &str, sha256: &str) -> InFlightGuard {
        let key = key(session, sha256);
        if let Ok(mut c) = self.inner.counts.lock() {
            *c.entry(key.clone()).or_default() += 1;
        }
        InFlightGuard {
            inner: self.inner.clone(),
            key,
        }
    }

    fn count(&self, key: &Key) -> usize {
        self.inner
            .counts
            .lock()
            .map(|c| c.get(key).copied().unwrap_or(0))
            .unwrap_or(0)
    }

    /// Waits until no upload of `session` with `sha256` is in flight, at most `limit`;
    /// returns how many still are.
    pub async fn settled(&self, session: &str, sha256: &str, limit: Duration) -> usize {
        let key = key(session, sha256);
        let mut rx = self.inner.ended.subscribe();
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            // Marked seen before counting: an end after the count wakes the wait below.
            rx.borrow_and_update();
            let n = self.count(&key);
            if n == 0 {
                return 0;
            }
            match tokio::time::timeout_at(deadline, rx.changed()).await {
                Ok(Ok(())) => {}
                // Timed out (or the sender is gone, which cannot happen while `self` lives).
                _ => return self.count(&key),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_lookup_waits_for_the_same_content_in_flight_and_only_for_it() {
        let f = InFlight::default();
        // Virtual time: a lookup that waited would move this clock.
        let t0 = tokio::time::Instant::now();
        assert_eq!(f.settled("s1", "ab", Duration::from_secs(5)).await, 0);
        let g = f.start("s1", "AB");
        // Another session or another content does not wait.
        assert_eq!(f.settled("s2", "ab", Duration::from_secs(5)).await, 0);
        assert_eq!(f.settled("s1", "cd", Duration::from_secs(5)).await, 0);
        assert_eq!(t0.elapsed(), Duration::ZERO);
        // Still in flight at the limit: said so.
        assert_eq!(f.settled("s1", "ab", Duration::from_secs(1)).await, 1);
        let waiter = {
            let f = f.clone();
            tokio::spawn(async move { f.settled("s1", "ab", Duration::from_secs(60)).await })
        };
        tokio::time::sleep(Duration::from_secs(3)).await;
        assert!(!waiter.is_finished());
        drop(g);
        assert_eq!(waiter.await.expect("join"), 0);
        // Two at once: both must end.
        let (a, b) = (f.start("s1", "ab"), f.start("s1", "ab"));
        drop(a);
        assert_eq!(f.settled("s1", "ab", Duration::from_secs(1)).await, 1);
        drop(b);
        assert_eq!(f.settled("s1", "ab", Duration::from_secs(1)).await, 0);
    }
}
