//! A byte budget shared by many codecs: fragment reassembly reserves from it before it keeps
//! a peer's bytes and gives them back when the message completes, is dropped or the codec
//! goes away, so the total held for all peers is bounded by configuration, not by peers.

use std::fmt;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A global cap on bytes held for reassembly (all connections together).
#[derive(Debug)]
pub struct ByteBudget {
    limit: usize,
    used: AtomicUsize,
}

impl ByteBudget {
    pub fn new(limit: usize) -> Arc<ByteBudget> {
        Arc::new(ByteBudget {
            limit,
            used: AtomicUsize::new(0),
        })
    }

    pub fn limit(&self) -> usize {
        self.limit
    }

    /// Bytes currently reserved.
    pub fn used(&self) -> usize {
        self.used.load(Ordering::Relaxed)
    }

    /// Takes `n` bytes if they fit under the limit; `false` (and nothing taken) otherwise.
    pub fn try_reserve(&self, n: usize) -> bool {
        self.used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |u| {
                u.checked_add(n).filter(|t| *t <= self.limit)
            })
            .is_ok()
    }

    /// Gives back `n` bytes taken with [`try_reserve`](Self::try_reserve).
    pub fn release(&self, n: usize) {
        // Saturating: a release never underflows even if a caller miscounts. The closure
        // always returns `Some`, so the update cannot fail.
        let _ = self
            .used
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |u| {
                Some(u.saturating_sub(n))
            });
    }
}

/// Which limit a peer ran into.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetScope {
    /// This connection's share (tiny before HELLO).
    Connection,
    /// The budget all connections share.
    Global,
}

impl fmt::Display for BudgetScope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            BudgetScope::Connection => "connection",
            BudgetScope::Global => "global",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reserve_and_release_stay_within_the_limit() {
        let b = ByteBudget::new(100);
        assert!(b.try_reserve(60));
        assert!(!b.try_reserve(41));
        assert_eq!(b.used(), 60);
        assert!(b.try_reserve(40));
        b.release(100);
        assert_eq!(b.used(), 0);
        b.release(5);
        assert_eq!(b.used(), 0);
        assert!(!b.try_reserve(usize::MAX));
    }
}
