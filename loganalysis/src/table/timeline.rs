//! A timeline's events: every kind of event (message template) in the window once, with
//! how many times it occurred there and when it last did, ranked by how telling it is, so
//! that "what happened around 02:36" lists the election, the reload and the dominant error
//! once each instead of ten copies of the same error.

use llmops_common::query::{Continued, Repeats, Row};
use rustc_hash::FxHashMap;

use super::hit::{make_hit, Hit, MAX_ROW_TEXT};
use super::plan::{Plan, RowAccess};
use crate::ts::{self, Precision, Ts};

mod cluster;
use cluster::cluster;
mod gap;
use gap::Gap;
mod key;
mod past;
pub(super) use key::REQUEST_KEY;
use key::{answered_fine, crash_at, kind_key, KindKey};
use past::Past;

/// Past this many kinds in one window the rows of a new kind are not listed (the window's
/// counts stay exact); a window of one template per line is not worth a larger map.
pub(super) const MAX_KINDS: usize = 20_000;

/// A notable event (an incident tag, WARN or worse) weighs as much as a kind 2^6 times
/// rarer in its file.
const NOTABLE_BITS: f64 = 6.0;

/// A request answered without error (1xx-3xx), of a kind that recurs, weighs as little as a
/// kind 2^3 times more common: a proxy's kinds of request are many (one per path and
/// backend), each rare in its file, and without this its routine traffic outranks every
/// other log's events.
const ROUTINE_BITS: f64 = 3.0;

/// A recurring kind that comes back well into the window weighs as much as one this many
/// times rarer: more than a routine request loses (`ROUTINE_BITS`), less than a notable one
/// gains.
const RESUMED_BITS: f64 = 5.0;

/// Events of a kind in the window, at least, for it to have resumed.
const RESUMED_MIN: u64 = 3;

/// Silence (µs) before a kind's first event in the window, at least, for it to have
/// resumed.
const RESUMED_SILENCE: i64 = 30_000_000;

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
    /// A service's change of state (see `Plan::milestone`).
    milestone: bool,
    /// Some event of it was slow (see `Plan::slow`).
    slow: bool,
    /// A request answered without error.
    routine: bool,
    /// Its longest silence in the window (see [`gap::split`]).
    gap: Option<Gap>,
    /// The events of a kind that stopped and came back, from the first after its silence
    /// (µs).
    resumed_after: Option<i64>,
    /// Its events past the window (notable kinds; see [`past::run`]).
    past: Vec<Ts>,
    /// How many of them follow on from the window, and the last one's time.
    continued: Option<(u64, Ts)>,
}

/// A shown kind: the row of its first event in the window, how many events it stands for
/// and the time of the last of them.
pub struct Shown {
    pub hit: Hit,
    pub count: u64,
    pub last: Option<Ts>,
    /// The first of its kind after this silence (µs).
    pub resumed_after: Option<i64>,
    /// Events of its kind that follow on past the window, and the last one's time.
    pub continued: Option<(u64, Ts)>,
}

impl Shown {
    pub fn into_row(self, files: &[String]) -> Row {
        let mut row = self.hit.into_row(files);
        if self.count > 1 || self.resumed_after.is_some() || self.continued.is_some() {
            row.repeats = Some(Repeats {
                count: self.count,
                last_time: self.last.map(|t| ts::format(&t, Precision::Full)),
                resumed_after_secs: self
                    .resumed_after
                    .map(|us| u64::try_from(us / 1_000_000).unwrap_or(0)),
                continued: self.continued.map(|(count, t)| Continued {
                    count,
                    last_time: ts::format(&t, Precision::Full),
                }),
            });
        }
        row
    }
}

/// The events a timeline keeps.
#[derive(Debug)]
pub struct Timeline {
    /// Per file, keyed by the template as written.
    kinds: FxHashMap<usize, FxHashMap<Vec<u8>, Kind>>,
    /// Kinds in `kinds`, all files together.
    n_kinds: usize,
    /// Events whose kind was not tracked (past `MAX_KINDS`).
    unlisted: u64,
    /// Per file, its timed events in the window (the base of a kind's burst) and the
    /// earliest one's µs key (a kind has resumed only after its file ran without it).
    per_file: FxHashMap<usize, (u64, i64)>,
    /// The middle of the window (µs keys): of equally telling kinds, the nearest first.
    center: Option<i64>,
    /// The window's ends (µs keys), when both are closed.
    bounds: Option<(i64, i64)>,
    /// Notable events past a closed window.
    past: Past,
}

impl Timeline {
    pub fn new(plan: &Plan) -> Timeline {
        Timeline {
            // An open end (`i64::MIN`/`MAX`) has no middle: the closed end is the nearest.
            center: plan.window.and_then(|(from, to)| match (from, to) {
                (i64::MIN, i64::MAX) => None,
                (i64::MIN, to) => Some(to.saturating_mul(1_000_000)),
                (from, i64::MAX) => Some(from.saturating_mul(1_000_000)),
                (from, to) => from.checked_add(to).map(|s| s.saturating_mul(500_000)),
            }),
            bounds: plan.window.and_then(|(from, to)| {
                (from != i64::MIN && to != i64::MAX)
                    .then(|| (from.saturating_mul(1_000_000), to.saturating_mul(1_000_000)))
            }),
            kinds: FxHashMap::default(),
            n_kinds: 0,
            unlisted: 0,
            per_file: FxHashMap::default(),
            past: Past::default(),
        }
    }

    /// Takes in a notable event past a closed window (see [`past::run`]).
    pub fn add_past(&mut self, row: &mut dyn RowAccess, time: Ts, plan: &Plan, file: usize) {
        // The cheap check first: most rows past the window are not notable.
        let notable = crash_at(row.whole()).is_some() || plan.notable.iter().any(|c| c.holds(row));
        if self.bounds.is_some() && notable {
            self.past.add(file, kind_key(row, plan).key, time);
        }
    }

    pub fn add(&mut self, row: &mut dyn RowAccess, time: Ts, plan: &Plan, file: usize, line: u64) {
        let (n, first) = self.per_file.entry(file).or_insert((0, time.key));
        *n += 1;
        *first = (*first).min(time.key);
        let KindKey {
            key,
            in_file,
            file_total,
            crash,
        } = kind_key(row, plan);
        let crashed = crash.is_some();
        let notable = crashed || plan.notable.iter().any(|c| c.holds(row));
        let milestone = plan.milestone.as_ref().is_some_and(|c| c.holds(row));
        let slow = plan.slow.as_ref().is_some_and(|c| c.holds(row));
        let of_file = self.kinds.entry(file).or_default();
        if let Some(k) = of_file.get_mut(key.as_slice()) {
            gap::note(k, time, || timeline_hit(row, plan, (file, line), crash));
            k.count += 1;
            k.notable |= notable;
            k.milestone |= milestone;
            k.slow |= slow;
            if k.first.time.is_none_or(|t| time.key < t.key) {
                k.first = timeline_hit(row, plan, (file, line), crash);
            }
            if k.last.is_none_or(|t| time.key >= t.key) {
                k.last = Some(time);
            }
            return;
        }
        if self.n_kinds >= MAX_KINDS {
            self.unlisted += 1;
            return;
        }
        let kind = Kind {
            first: timeline_hit(row, plan, (file, line), crash),
            last: Some(time),
            count: 1,
            in_file,
            file_total,
            notable,
            milestone,
            slow,
            // The status is part of a request's kind: its first event tells for all.
            routine: !crashed && answered_fine(row, plan),
            gap: None,
            resumed_after: None,
            past: Vec::new(),
            continued: None,
        };
        of_file.insert(key, kind);
        self.n_kinds += 1;
    }

    /// Each kind's count of events (all files together), and whether every event had a
    /// kind tracked: what a pre-pass over a whole file gives as its counts of kinds.
    pub fn counts(self) -> Option<FxHashMap<Vec<u8>, u64>> {
        if self.unlisted > 0 {
            return None;
        }
        let mut out: FxHashMap<Vec<u8>, u64> = FxHashMap::default();
        for (key, k) in self.kinds.into_values().flatten() {
            *out.entry(key).or_insert(0) += k.count;
        }
        Some(out)
    }

    /// Shifts part-relative line numbers by `offset`.
    pub fn shift_lines(&mut self, offset: u64) {
        for k in self.kinds.values_mut().flat_map(|m| m.values_mut()) {
            k.first.line += offset;
        }
    }

    /// Merges a later part (or another file) into this one.
    pub fn merge(&mut self, o: Timeline) {
        self.unlisted += o.unlisted;
        self.past.merge(o.past);
        for (f, (n, t)) in o.per_file {
            let (mine, first) = self.per_file.entry(f).or_insert((0, t));
            *mine += n;
            *first = (*first).min(t);
        }
        for (file, kinds) in o.kinds {
            let mine = self.kinds.entry(file).or_default();
            for (key, b) in kinds {
                let Some(a) = mine.get_mut(&key) else {
                    if self.n_kinds < MAX_KINDS {
                        mine.insert(key, b);
                        self.n_kinds += 1;
                    } else {
                        self.unlisted += b.count;
                    }
                    continue;
                };
                a.absorb(b);
            }
        }
    }

    /// The `limit` most telling kinds (see [`Kind::score`]), in time order, and the
    /// events in no tracked kind; with `extra`, a few more of a restart's state changes
    /// past the limit (see [`with_one_offs`]).
    pub fn finish(self, limit: usize, extra: bool) -> (Vec<Shown>, u64) {
        let unlisted = self.unlisted;
        let per_file = self.per_file;
        let span = self.bounds.map(|(from, to)| to - from);
        let mut all = self.kinds;
        let mut past = self.past;
        for (file, kinds) in &mut all {
            for (key, k) in kinds.iter_mut() {
                k.past = past.take(*file, key);
            }
        }
        let mut kinds: Vec<(f64, Kind)> = all
            .into_values()
            .flat_map(cluster)
            .flat_map(|k| {
                let (k, after) = gap::split(k, span);
                std::iter::once(k).chain(after)
            })
            .map(|mut k| {
                k.notable |= k.slow_one_off();
                if k.notable {
                    k.continued = span.and_then(|s| past::run(&mut k, s));
                }
                let (events, since) = per_file.get(&k.first.file).copied().unwrap_or((1, 0));
                let resumed = if k.resumed_after.is_some() || k.resumed(self.bounds, since) {
                    RESUMED_BITS
                } else {
                    0.0
                };
                (k.score(events) + resumed, k)
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
        let storms = storms(&kinds, &per_file);
        let kinds = with_one_offs(kinds, limit, extra, &storms);
        let mut shown: Vec<Shown> = kinds
            .into_iter()
            .map(|(_, k)| Shown {
                hit: k.first,
                count: k.count,
                last: k.last,
                resumed_after: k.resumed_after,
                continued: k.continued,
            })
            .collect();
        shown.sort_by_key(|s| (s.hit.time.map(|t| t.key), s.hit.file, s.hit.line));
        (shown, unlisted)
    }
}

/// How many kinds a timeline shows: as asked, else 10 for one file and 5 more for each
/// other file (at most 25), so each log keeps room for its own story.
pub fn shown_limit(q: &llmops_common::query::Query, files: usize) -> usize {
    match q.limit {
        Some(_) => q.limit(),
        None => (10 + 5 * files.saturating_sub(1)).min(25),
    }
}

/// Kinds that occur at most this often in their whole file are one-offs.
const ONE_OFF: u64 = 3;

/// One-off state changes shown past a timeline's limit, at most.
const EXTRA_MILESTONES: usize = 3;

/// The `limit` best of `sorted` (best first), a fifth of them kept for the best one-offs
/// that are not notable (an operator's `rm` of a dump, a deploy, a config reload: quiet
/// lines that are often the cause or the fix), a service's change of state before the
/// rest of them (the database ready again outranks a kernel report's hardware line); the
/// rest shared between the files by [`fair_share`]. Without the reserve a burst of errors
/// takes every place. With `extra` (no limit was asked), up to [`EXTRA_MILESTONES`] more
/// one-off state changes are kept past the limit.
fn with_one_offs(
    sorted: Vec<(f64, Kind)>,
    limit: usize,
    extra: bool,
    storms: &[usize],
) -> Vec<(f64, Kind)> {
    let one_off = |k: &Kind| !k.notable && k.in_file.max(k.count) <= ONE_OFF;
    // The reserve: the best one-off state changes, then the best other one-offs.
    let of_kind = |milestone: bool| {
        sorted
            .iter()
            .enumerate()
            .filter(move |(_, (_, k))| one_off(k) && k.milestone == milestone)
            .map(|(i, _)| i)
    };
    let mut picked: Vec<usize> = of_kind(true).chain(of_kind(false)).collect();
    picked.truncate(limit / 5);
    // Each log's storm of warnings or errors, the largest first and an eighth of the
    // places at most: a one-off outranks it by rarity, but it is what the window is about
    // (a storm of rejects while single bounces come and go).
    for &i in storms.iter().take((limit / 8).max(1)) {
        if !picked.contains(&i) {
            picked.push(i);
        }
    }
    // A restart's lines are several one-off state changes in a row ("shutting down", …,
    // "ready to accept connections"): a few more of them show past the limit, so the
    // service coming back is never crowded out by its going down.
    let extra: Vec<usize> = of_kind(true)
        .filter(|i| !picked.contains(i))
        .take(if extra { EXTRA_MILESTONES } else { 0 })
        .collect();
    let room = limit - picked.len();
    picked.extend(extra);
    let (kept, rest): (Vec<_>, Vec<_>) = sorted
        .into_iter()
        .enumerate()
        .partition(|(i, _)| picked.contains(i));
    let mut kept: Vec<(f64, Kind)> = kept.into_iter().map(|(_, k)| k).collect();
    let rest = rest.into_iter().map(|(_, k)| k).collect();
    let others = fair_share(rest, room);
    kept.extend(others);
    kept
}

/// Events of one notable kind, at least, to make a storm.
const STORM_MIN: u64 = 10;

/// Per file, the notable kind with the most events in the window when it is a storm: a
/// tenth of the file's events in the window and [`STORM_MIN`] at least. Their indices in
/// `sorted`, the largest first.
fn storms(sorted: &[(f64, Kind)], per_file: &FxHashMap<usize, (u64, i64)>) -> Vec<usize> {
    let mut best: FxHashMap<usize, (u64, usize)> = FxHashMap::default();
    for (i, (_, k)) in sorted.iter().enumerate() {
        let in_window = per_file.get(&k.first.file).map_or(0, |(n, _)| *n);
        if !k.notable || k.count < STORM_MIN || k.count * 10 < in_window {
            continue;
        }
        let slot = best.entry(k.first.file).or_insert((k.count, i));
        if k.count > slot.0 {
            *slot = (k.count, i);
        }
    }
    let mut out: Vec<(u64, usize)> = best.into_values().collect();
    out.sort_unstable_by_key(|&(n, i)| (std::cmp::Reverse(n), i));
    out.into_iter().map(|(_, i)| i).collect()
}

/// The `limit` best of `sorted` (best first), each file given its best `limit / files`
/// notable kinds first: across logs, the app's error and the proxy's 503s both show,
/// however telling the database's own kinds are; a log with nothing notable gets no room
/// of its own.
fn fair_share(sorted: Vec<(f64, Kind)>, limit: usize) -> Vec<(f64, Kind)> {
    let mut files: Vec<usize> = sorted.iter().map(|(_, k)| k.first.file).collect();
    files.sort_unstable();
    files.dedup();
    if files.len() <= 1 || sorted.len() <= limit {
        let mut sorted = sorted;
        sorted.truncate(limit);
        return sorted;
    }
    let quota = (limit / files.len()).max(1);
    let mut per_file: FxHashMap<usize, usize> = FxHashMap::default();
    let mut first: Vec<bool> = Vec::with_capacity(sorted.len());
    let mut taken = 0;
    for (_, k) in &sorted {
        let n = per_file.entry(k.first.file).or_insert(0);
        let take = k.notable && *n < quota && taken < limit;
        if take {
            *n += 1;
            taken += 1;
        }
        first.push(take);
    }
    let mut rest = limit - taken;
    sorted
        .into_iter()
        .zip(first)
        .filter(|(_, take)| {
            *take || {
                let more = rest > 0;
                rest = rest.saturating_sub(1);
                more
            }
        })
        .map(|(k, _)| k)
        .collect()
}

/// A JSON event is shown as its scalar fields, the message first, without its time and
/// ids: `msg=Replica set state transition attr.newState=SECONDARY …` says what happened
/// in the first 300 characters where the raw object would spend them on braces and keys.
/// An event with a crash below it (`crash`: where it starts) shows the crash.
fn timeline_hit(
    row: &mut dyn RowAccess,
    plan: &Plan,
    (file, line): (usize, u64),
    crash: Option<usize>,
) -> Hit {
    let compact = row
        .whole()
        .starts_with(b"{")
        .then(|| serde_json::from_slice::<serde_json::Value>(row.whole()).ok())
        .flatten()
        .map(|v| compact_json(&v));
    let mut hit = make_hit(row, plan, file, line);
    if let Some(text) = compact.filter(|t| !t.is_empty()) {
        hit.text = text;
    }
    // A crash below the event is what it shows, from the crash's own line.
    if let Some(at) = crash {
        let whole = row.whole();
        hit.line += memchr::memchr_iter(b'\n', &whole[..at]).count() as u64;
        hit.text = super::hit::row_text(&whole[at..]);
    }
    hit
}

/// Keys shown first, by what they say: what happened, who did it, to what, with what
/// outcome (the last part of a key, any case); the rest follow.
const KEY_ORDER: [&[&str]; 5] = [
    &[
        "msg", "message", "@m", "@mt", "error", "err", "reason", "event",
    ],
    &[
        "user",
        "username",
        "principal",
        "client",
        "remote",
        "sourceips",
        "ip",
    ],
    &["verb", "method", "action", "op", "operation", "command"],
    &[
        "resource",
        "name",
        "namespace",
        "ns",
        "path",
        "uri",
        "requesturi",
        "url",
    ],
    &["code", "status", "decision", "level", "s", "severity"],
];

fn compact_json(v: &serde_json::Value) -> String {
    let mut leaves: Vec<(String, String)> = Vec::new();
    if let Some(m) = v.as_object() {
        super::json_path::flatten("", m, &mut leaves);
    }
    leaves.retain(|(k, v)| !v.is_empty() && !noise(k, v));
    for (_, v) in &mut leaves {
        *v = llmops_common::truncate_chars(v, 160);
    }
    let rank = |k: &str| {
        let last = k.rsplit('.').next().unwrap_or(k).to_ascii_lowercase();
        KEY_ORDER
            .iter()
            .position(|keys| keys.contains(&last.as_str()))
            .unwrap_or(KEY_ORDER.len())
    };
    leaves.sort_by_key(|(k, _)| rank(k));
    let mut out = String::new();
    for (k, v) in leaves {
        if out.len() >= MAX_ROW_TEXT {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&format!("{k}={v}"));
    }
    out
}

/// Whether a leaf is the event's time (the row's own) or an id beside it (a uuid).
fn noise(key: &str, value: &str) -> bool {
    let last = key.rsplit('.').next().unwrap_or(key).to_ascii_lowercase();
    let time = ["t", "ts", "@t", "time", "date", "$date", "@timestamp"].contains(&last.as_str())
        || last.ends_with("timestamp");
    time || (last.ends_with("id") && uuid_like(value))
}

fn uuid_like(s: &str) -> bool {
    s.len() == 36
        && s.bytes().filter(|b| *b == b'-').count() == 4
        && s.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit())
}

impl Kind {
    /// Whether the kind is slow and a one-off in its file: a backup that took 40 minutes
    /// is notable, a mail log's deliveries of a second or more are routine.
    fn slow_one_off(&self) -> bool {
        self.slow && self.in_file.max(self.count) <= ONE_OFF
    }

    /// Takes in another template's events as the same kind. Neither's silence is the
    /// merged kind's (the other's events may fall in it).
    fn merge(&mut self, mut b: Kind) {
        self.in_file += b.in_file;
        self.past.append(&mut b.past);
        self.gap = None;
        b.gap = None;
        self.absorb(b);
    }

    /// Takes in the same kind's events from another part of its file.
    fn absorb(&mut self, mut b: Kind) {
        gap::join(self, &mut b);
        self.count += b.count;
        self.notable |= b.notable;
        self.milestone |= b.milestone;
        self.slow |= b.slow;
        let at = |h: &Hit| (h.time.map(|t| t.key), h.file, h.line);
        if at(&b.first) < at(&self.first) {
            self.first = b.first;
        }
        if b.last.map(|t| t.key) > self.last.map(|t| t.key) {
            self.last = b.last;
        }
    }

    /// Whether a recurring kind came back well into the window (`bounds`, µs): it occurs
    /// outside the window too, and its file ran without it (from `since`, the file's first
    /// event in the window) for three times its spacing there, and half a minute at least.
    /// The first success after an outage (a write accepted again), a worker's jobs
    /// resuming: the recovery is when a common kind comes back.
    fn resumed(&self, bounds: Option<(i64, i64)>, since: i64) -> bool {
        let (Some((from, to)), Some(first)) = (bounds, self.first.time) else {
            return false;
        };
        if self.notable || self.count < RESUMED_MIN || self.in_file <= self.count || to <= from {
            return false;
        }
        let spacing = (to - from) / self.count as i64;
        let silent = first.key - since.max(from);
        silent >= 3 * spacing && silent >= RESUMED_SILENCE
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
        // A one-off request (an operator's `exec` in an audit log) is no routine traffic.
        let routine = if self.routine && self.in_file.max(self.count) > ONE_OFF {
            ROUTINE_BITS
        } else {
            0.0
        };
        rare + burst + notable - routine
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn kind(count: u64, in_file: u64, file_total: u64, notable: bool) -> Kind {
        Kind {
            first: Hit {
                file: 0,
                line: 1,
                time: None,
                text: String::new(),
                lines: 1,
                fields: Vec::new(),
            },
            last: None,
            count,
            in_file,
            file_total,
            notable,
            milestone: false,
            slow: false,
            routine: false,
            gap: None,
            resumed_after: None,
            past: Vec::new(),
            continued: None,
        }
    }

    #[test]
    fn a_json_event_reads_as_its_message_and_fields_without_time_or_ids() {
        let v: serde_json::Value = serde_json::from_str(
            r#"{"t":{"$date":"2031-06-05T03:41:09.100+00:00"},"s":"I","c":"REPL","id":21358,
               "ctx":"ReplCoord-3","msg":"Replica set state transition",
               "attr":{"newState":"SECONDARY","oldState":"PRIMARY"},
               "auditID":"6bd3bfe4-d173-413c-9d36-d862f8c1812e","tags":["a","b"]}"#,
        )
        .expect("json");
        assert_eq!(
            compact_json(&v),
            "msg=Replica set state transition s=I attr.newState=SECONDARY attr.oldState=PRIMARY \
             c=REPL ctx=ReplCoord-3 id=21358 tags=[\"a\",\"b\"]"
        );
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

    #[test]
    fn a_storm_of_warnings_in_a_log_is_shown_beside_rarer_ones() {
        // Twelve errors seen once in the whole file outrank, by rarity, a storm of 175
        // rejects (in 1500 events of the window); the storm still takes a place. Five
        // warnings of 1500 are no storm.
        let mut sorted: Vec<(f64, Kind)> = (0..12)
            .map(|i| {
                let mut k = kind(1, 1, 8000, true);
                k.first.line = i;
                (k.score(1500), k)
            })
            .collect();
        let storm = kind(175, 175, 8000, true);
        sorted.push((storm.score(1500), storm));
        let per_file = FxHashMap::from_iter([(0, (1500, 0))]);
        let storms = storms(&sorted, &per_file);
        assert_eq!(storms, [12]);
        let kept = with_one_offs(sorted, 10, false, &storms);
        assert_eq!(kept.len(), 10);
        assert!(kept.iter().any(|(_, k)| k.count == 175));
        let few = [(0.0, kind(5, 5, 8000, true))];
        assert!(super::storms(&few, &per_file).is_empty());
    }

    #[test]
    fn a_slow_kind_is_notable_only_as_a_one_off() {
        let mut once = kind(1, 1, 8000, false);
        once.slow = true;
        assert!(once.slow_one_off());
        let mut routine = kind(40, 900, 8000, false);
        routine.slow = true;
        assert!(!routine.slow_one_off());
    }
}
