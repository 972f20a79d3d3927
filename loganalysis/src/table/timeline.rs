//! A timeline's events: every kind of event (message template) in the window once, with
//! how many times it occurred there and when it last did, ranked by how telling it is, so
//! that "what happened around 02:36" lists the election, the reload and the dominant error
//! once each instead of ten copies of the same error.

use llmops_common::query::{Repeats, Row};
use rustc_hash::FxHashMap;

use super::agg::{make_hit, Hit};
use super::plan::{Plan, RowAccess};
use crate::ts::{self, Precision, Ts};

/// Past this many kinds in one window the rows of a new kind are not listed (the window's
/// counts stay exact); a window of one template per line is not worth a larger map.
const MAX_KINDS: usize = 20_000;

/// A notable event (an incident tag, WARN or worse) weighs as much as a kind 2^6 times
/// rarer in its file.
const NOTABLE_BITS: f64 = 6.0;

/// One kind of event in the window.
#[derive(Debug)]
pub struct Kind {
    /// Its earliest event in the window (the earliest line on equal times).
    pub first: Hit,
    pub last: Option<Ts>,
    /// Its events in the window.
    pub count: u64,
    /// Its events in the whole file, and the file's events (from the template counts).
    in_file: u64,
    file_total: u64,
    notable: bool,
}

/// A shown kind: the row of its first event in the window, how many events it stands for
/// and the time of the last of them.
pub struct Shown {
    pub hit: Hit,
    pub count: u64,
    pub last: Option<Ts>,
}

impl Shown {
    pub fn into_row(self, files: &[String]) -> Row {
        let mut row = self.hit.into_row(files);
        if self.count > 1 {
            row.repeats = Some(Repeats {
                count: self.count,
                last_time: self.last.map(|t| ts::format(&t, Precision::Full)),
            });
        }
        row
    }
}

/// The events a timeline keeps.
#[derive(Debug)]
pub struct Timeline {
    /// Kinds shown at most.
    limit: usize,
    /// Per file, keyed by the template as written.
    kinds: FxHashMap<usize, FxHashMap<Vec<u8>, Kind>>,
    /// Kinds in `kinds`, all files together.
    n_kinds: usize,
    /// Timed events in the window per file (the base of a kind's burst).
    per_file: FxHashMap<usize, u64>,
    /// The middle of the window (µs keys): of equally telling kinds, the nearest first.
    center: Option<i64>,
}

impl Timeline {
    pub fn new(limit: usize, plan: &Plan) -> Timeline {
        Timeline {
            limit,
            center: plan.window.map(|(from, to)| (from + to) * 500_000),
            kinds: FxHashMap::default(),
            n_kinds: 0,
            per_file: FxHashMap::default(),
        }
    }

    pub fn add(&mut self, row: &mut dyn RowAccess, time: Ts, plan: &Plan, file: usize, line: u64) {
        *self.per_file.entry(file).or_insert(0) += 1;
        // Without template counts (a table without templates) an event is a kind of its
        // own text, neither rare nor common: notable ones first, then the nearest the
        // asked time. A row without a template is a kind of its own, as rare as can be.
        let (key, in_file, file_total) = match &plan.rarity {
            None => (row.whole().to_vec(), 1, 1),
            Some(r) => match row.val(r.field.id) {
                Some(v) => {
                    let k = v.as_bytes().to_vec();
                    let n = r.counts.get(&k).copied().unwrap_or(1);
                    (k, n, r.total)
                }
                None => (row.whole().to_vec(), 1, r.total),
            },
        };
        let notable = plan.notable.iter().any(|c| c.holds(row));
        let of_file = self.kinds.entry(file).or_default();
        if let Some(k) = of_file.get_mut(key.as_slice()) {
            k.count += 1;
            k.notable |= notable;
            if k.first.time.is_none_or(|t| time.key < t.key) {
                k.first = make_hit(row, plan, file, line);
            }
            if k.last.is_none_or(|t| time.key >= t.key) {
                k.last = Some(time);
            }
            return;
        }
        if self.n_kinds >= MAX_KINDS {
            return;
        }
        let kind = Kind {
            first: make_hit(row, plan, file, line),
            last: Some(time),
            count: 1,
            in_file,
            file_total,
            notable,
        };
        of_file.insert(key, kind);
        self.n_kinds += 1;
    }

    /// Shifts part-relative line numbers by `offset`.
    pub fn shift_lines(&mut self, offset: u64) {
        for k in self.kinds.values_mut().flat_map(|m| m.values_mut()) {
            k.first.line += offset;
        }
    }

    /// Merges a later part (or another file) into this one.
    pub fn merge(&mut self, o: Timeline) {
        for (f, n) in o.per_file {
            *self.per_file.entry(f).or_insert(0) += n;
        }
        for (file, kinds) in o.kinds {
            let mine = self.kinds.entry(file).or_default();
            for (key, b) in kinds {
                let Some(a) = mine.get_mut(&key) else {
                    if self.n_kinds < MAX_KINDS {
                        mine.insert(key, b);
                        self.n_kinds += 1;
                    }
                    continue;
                };
                a.absorb(b);
            }
        }
    }

    /// The `limit` most telling kinds (see [`Kind::score`]), in time order.
    pub fn finish(self) -> Vec<Shown> {
        let limit = self.limit;
        let per_file = self.per_file;
        let mut kinds: Vec<(f64, Kind)> = self
            .kinds
            .into_values()
            .flat_map(|m| m.into_values())
            .map(|k| {
                (
                    k.score(per_file.get(&k.first.file).copied().unwrap_or(1)),
                    k,
                )
            })
            .collect();
        let distance = |k: &Kind| match (self.center, k.first.time) {
            (Some(c), Some(t)) => (t.key - c).unsigned_abs(),
            _ => 0,
        };
        kinds.sort_by(|(sa, a), (sb, b)| {
            sb.total_cmp(sa)
                .then(b.notable.cmp(&a.notable))
                .then(distance(a).cmp(&distance(b)))
                .then((a.first.file, a.first.line).cmp(&(b.first.file, b.first.line)))
        });
        kinds.truncate(limit);
        let mut shown: Vec<Shown> = kinds
            .into_iter()
            .map(|(_, k)| Shown {
                hit: k.first,
                count: k.count,
                last: k.last,
            })
            .collect();
        shown.sort_by_key(|s| (s.hit.time.map(|t| t.key), s.hit.file, s.hit.line));
        shown
    }
}

impl Kind {
    /// Takes in the same kind's events from a later part or file.
    fn absorb(&mut self, b: Kind) {
        self.count += b.count;
        self.notable |= b.notable;
        let at = |h: &Hit| (h.time.map(|t| t.key), h.file, h.line);
        if at(&b.first) < at(&self.first) {
            self.first = b.first;
        }
        if b.last.map(|t| t.key) > self.last.map(|t| t.key) {
            self.last = b.last;
        }
    }

    /// How telling the kind is, in bits: how rare it is in its file, how much more of
    /// the window it takes than of the file (a burst), and whether it is notable.
    /// `window` is the file's events in the window.
    fn score(&self, window: u64) -> f64 {
        let total = self.file_total.max(1) as f64;
        let in_file = self.in_file.max(self.count).max(1) as f64;
        let rare = (total / in_file).log2().max(0.0);
        let share_window = self.count as f64 / window.max(1) as f64;
        let burst = (share_window / (in_file / total)).log2().max(0.0);
        let notable = if self.notable { NOTABLE_BITS } else { 0.0 };
        rare + burst + notable
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(count: u64, in_file: u64, file_total: u64, notable: bool) -> Kind {
        Kind {
            first: Hit {
                file: 0,
                line: 1,
                time: None,
                text: String::new(),
                fields: Vec::new(),
            },
            last: None,
            count,
            in_file,
            file_total,
            notable,
        }
    }

    #[test]
    fn a_kind_rare_in_its_file_or_bursting_in_the_window_scores_above_a_steady_one() {
        // 1000 events in the file, 100 in the window.
        let steady = kind(10, 100, 1000, false).score(100);
        let once = kind(1, 1, 1000, false).score(100);
        let burst = kind(20, 40, 1000, false).score(100);
        assert!((steady - 10f64.log2()).abs() < 1e-9, "{steady}");
        assert!(once > burst && burst > steady, "{once} {burst} {steady}");
        // An error as common as the steady kind still outranks it.
        assert!(kind(10, 100, 1000, true).score(100) > steady + 5.0);
    }
}
