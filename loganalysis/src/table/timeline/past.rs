//! A notable kind that goes on after a timeline's window: how many more of it follow the
//! window without a long pause and when the last of them is ("the errors went on until
//! 02:31:24"): the end of what an operator asked "what happened around 02:14" about.

use rustc_hash::FxHashMap;

use super::Kind;
use crate::ts::Ts;

/// How far past the window's end (µs) a notable kind is followed.
const PAST_SPAN: i64 = 6 * 3600 * 1_000_000;

/// Times kept past the window, all kinds together, at most.
const PAST_MAX: usize = 200_000;

/// The longest pause (µs) inside a run: three times the kind's spacing in the window, from
/// two to ten minutes (a retry loop's errors come every few seconds, a job's every few
/// minutes).
const RUN_GAP_MIN: i64 = 120_000_000;
const RUN_GAP_MAX: i64 = 600_000_000;

/// Whether an event at `time` is near enough past the window's `end` (µs) to be followed.
pub(super) fn follows(time: Ts, end: i64) -> bool {
    time.key - end <= PAST_SPAN
}

/// The times of notable events past the window, per file and kind.
#[derive(Debug, Default)]
pub(super) struct Past {
    times: FxHashMap<(usize, Vec<u8>), Vec<Ts>>,
    kept: usize,
    /// Times not kept (past `PAST_MAX`): a run may then end early.
    pub dropped: u64,
}

impl Past {
    /// Keeps a notable event's time (see [`follows`]).
    pub fn add(&mut self, file: usize, key: Vec<u8>, time: Ts) {
        if self.kept >= PAST_MAX {
            self.dropped += 1;
            return;
        }
        self.kept += 1;
        self.times.entry((file, key)).or_default().push(time);
    }

    pub fn merge(&mut self, o: Past) {
        self.dropped += o.dropped;
        for (k, mut v) in o.times {
            self.kept += v.len();
            self.times.entry(k).or_default().append(&mut v);
        }
    }

    /// The times of one kind (taken out).
    pub fn take(&mut self, file: usize, key: &[u8]) -> Vec<Ts> {
        self.times.remove(&(file, key.to_vec())).unwrap_or_default()
    }
}

/// How many events of a notable kind follow its last in the window without a pause longer
/// than its run allows, and the last of them; `span` is the window's length (µs).
pub(super) fn run(k: &mut Kind, span: i64) -> Option<(u64, Ts)> {
    let mut times = std::mem::take(&mut k.past);
    let mut prev = k.last?;
    times.sort_unstable_by_key(|t| t.key);
    let spacing = span / k.count.max(1) as i64;
    let gap = spacing.saturating_mul(3).clamp(RUN_GAP_MIN, RUN_GAP_MAX);
    let mut n = 0;
    for t in times {
        if t.key - prev.key > gap {
            break;
        }
        n += 1;
        prev = t;
    }
    (n > 0).then_some((n, prev))
}
