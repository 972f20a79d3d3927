//! A notable kind that goes on after a timeline's window: how many more of it follow the
//! window without a long pause and when the last of them is ("the errors went on until
//! 04:26:47"): the end of what an operator asked "what happened around 04:10" about.

use rustc_hash::FxHashMap;

use super::Kind;
use crate::ts::Ts;

/// Times kept past the window, all kinds together, at most. Past it no run is told: a
/// count cut short would read as the whole run.
const PAST_MAX: usize = 200_000;

/// The longest pause (µs) inside a run: three times the kind's spacing in the window, from
/// two to ten minutes (a retry loop's errors come every few seconds, a job's every few
/// minutes).
const RUN_GAP_MIN: i64 = 120_000_000;
const RUN_GAP_MAX: i64 = 600_000_000;

/// The times of notable events past the window, per file and kind.
#[derive(Debug, Default)]
pub(super) struct Past {
    times: FxHashMap<usize, FxHashMap<Vec<u8>, Vec<Ts>>>,
    kept: usize,
    /// Whether some time was not kept (past `PAST_MAX`).
    dropped: bool,
}

impl Past {
    /// Keeps a notable event's time.
    pub fn add(&mut self, file: usize, key: Vec<u8>, time: Ts) {
        if self.kept >= PAST_MAX {
            self.dropped = true;
            return;
        }
        self.kept += 1;
        self.times
            .entry(file)
            .or_default()
            .entry(key)
            .or_default()
            .push(time);
    }

    pub fn merge(&mut self, o: Past) {
        self.dropped |= o.dropped;
        for (file, kinds) in o.times {
            let mine = self.times.entry(file).or_default();
            for (key, mut v) in kinds {
                self.kept += v.len();
                mine.entry(key).or_default().append(&mut v);
            }
        }
    }

    /// The times of one kind (taken out); none when some were not kept.
    pub fn take(&mut self, file: usize, key: &[u8]) -> Vec<Ts> {
        if self.dropped {
            return Vec::new();
        }
        self.times
            .get_mut(&file)
            .and_then(|m| m.remove(key))
            .unwrap_or_default()
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

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: i64) -> Ts {
        Ts {
            key: s * 1_000_000,
            zone: crate::ts::Zone::Utc,
            frac_digits: 0,
            dated: crate::ts::Dated::Full,
        }
    }

    #[test]
    fn no_kinds_times_are_given_once_some_were_not_kept() {
        let mut p = Past::default();
        p.add(0, b"a".to_vec(), at(1));
        let mut other = Past::default();
        other.add(0, b"a".to_vec(), at(2));
        p.merge(other);
        assert_eq!(p.take(0, b"a").len(), 2);
        let mut full = Past::default();
        for s in 0..=PAST_MAX as i64 {
            full.add(1, b"b".to_vec(), at(s));
        }
        assert!(full.take(1, b"b").is_empty(), "a run cut short is not told");
    }
}
