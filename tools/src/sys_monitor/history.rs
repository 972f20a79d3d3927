//! The last few minutes of the machine's figures, one point per sample, kept by the one
//! sampler so a client that subscribes sees the recent past at once (the TUI's sparklines)
//! instead of starting from an empty graph.

use std::collections::VecDeque;

pub use protocol::HistoryPoint;

/// Points kept: five minutes at the server's one-second sampling.
pub const HISTORY_POINTS: usize = 300;

/// A bounded ring of points, oldest first.
#[derive(Debug, Clone)]
pub(super) struct History {
    points: VecDeque<HistoryPoint>,
    cap: usize,
}

impl History {
    pub fn new(cap: usize) -> History {
        History {
            points: VecDeque::with_capacity(cap),
            cap: cap.max(1),
        }
    }

    pub fn push(&mut self, p: HistoryPoint) {
        while self.points.len() >= self.cap {
            self.points.pop_front();
        }
        self.points.push_back(p);
    }

    /// Oldest first.
    pub fn to_vec(&self) -> Vec<HistoryPoint> {
        self.points.iter().copied().collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tools_sys_monitor_history_keeps_the_newest_points_in_order() {
        let mut h = History::new(3);
        for i in 1..=5u64 {
            h.push(HistoryPoint {
                ts_ms: i,
                ..HistoryPoint::default()
            });
        }
        let ts: Vec<u64> = h.to_vec().iter().map(|p| p.ts_ms).collect();
        assert_eq!(ts, vec![3, 4, 5]);
    }
}
