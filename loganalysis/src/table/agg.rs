//! Accumulators for every measure, fed row by row, merged exactly across worker threads
//! and files. Percentiles are exact: values are kept as a count per distinct value (memory
//! grows with the number of distinct values, not with the number of rows).

use std::cmp::Ordering;

use llmops_common::query::{FieldKind, Measure, Order, Query, Rank};
use rustc_hash::{FxHashMap, FxHashSet};

use super::event::Val;
use super::hit::cut;
use super::hit::{make_hit, Hit};
use super::plan::{FieldRef, Plan, RowAccess};
use super::timeline::Timeline;
use crate::ts::Ts;

/// Appends a value as a group / distinct key: numbers by value, text as written.
pub fn push_key(buf: &mut Vec<u8>, v: &Val<'_>, f: &FieldRef) {
    use std::io::Write;
    match v.number().filter(|_| f.is_numeric()) {
        Some(n) if n.fract() == 0.0 && n.abs() < 1e15 => {
            write!(buf, "{}", n as i64).expect("writing to a Vec cannot fail")
        }
        Some(n) => write!(buf, "{n}").expect("writing to a Vec cannot fail"),
        None => buf.extend_from_slice(v.as_bytes()),
    }
}

/// Appends one part of a composite key, length-prefixed so parts never run together; a
/// request path read from a key without its query string.
fn push_part(buf: &mut Vec<u8>, v: &Val<'_>, f: &FieldRef) {
    let at = buf.len();
    buf.extend_from_slice(&[0; 4]);
    push_key(buf, v, f);
    if f.path_key {
        if let Some(q) = memchr::memchr(b'?', &buf[at + 4..]) {
            buf.truncate(at + 4 + q);
        }
    }
    let len = (buf.len() - at - 4) as u32;
    buf[at..at + 4].copy_from_slice(&len.to_le_bytes());
}

/// The parts of a composite key.
pub fn split_key(mut k: &[u8]) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    while k.len() >= 4 {
        let len = u32::from_le_bytes([k[0], k[1], k[2], k[3]]) as usize;
        let end = (4 + len).min(k.len());
        out.push(k[4..end].to_vec());
        k = &k[end..];
    }
    out
}

pub fn fmt_num(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        format!("{n}")
    }
}

/// Values of a numeric field: count, sum, extremes (with their rows) and a count per
/// distinct value for exact percentiles.
#[derive(Debug, Default)]
pub struct Values {
    pub n: u64,
    pub min: Option<(f64, Option<Hit>)>,
    pub max: Option<(f64, Option<Hit>)>,
    pub counts: FxHashMap<u64, u64>,
}

impl Values {
    /// Adds `v`; `hit` builds the row when `v` is a new extreme (rows kept when
    /// `with_rows`).
    fn add(&mut self, v: f64, with_rows: bool, hit: &mut dyn FnMut() -> Hit) {
        self.n += 1;
        *self.counts.entry(v.to_bits()).or_insert(0) += 1;
        if self.max.as_ref().is_none_or_lt(v) {
            self.max = Some((v, with_rows.then(&mut *hit)));
        }
        if self.min.as_ref().is_none_or_gt(v) {
            self.min = Some((v, with_rows.then(hit)));
        }
    }

    fn merge(&mut self, o: Values) {
        self.n += o.n;
        for (k, c) in o.counts {
            *self.counts.entry(k).or_insert(0) += c;
        }
        if let Some((v, h)) = o.max {
            if self.max.as_ref().is_none_or_lt(v) {
                self.max = Some((v, h));
            }
        }
        if let Some((v, h)) = o.min {
            if self.min.as_ref().is_none_or_gt(v) {
                self.min = Some((v, h));
            }
        }
    }

    /// Nearest-rank percentile: the value at rank ceil(r/10000 * n), `r` in hundredths of
    /// a percent (integer arithmetic, so 90% of 10 values is rank 9 exactly).
    pub fn percentile(&self, sorted: &[(f64, u64)], r: Rank) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        let rank = (r.hundredths() * self.n).div_ceil(10_000).max(1);
        let mut seen = 0;
        for &(v, c) in sorted {
            seen += c;
            if seen >= rank {
                return Some(v);
            }
        }
        sorted.last().map(|x| x.0)
    }

    /// The sum over the values in ascending order: the same whatever order the rows (or
    /// the threads) came in.
    pub fn exact_sum(&self) -> f64 {
        self.sorted().iter().map(|&(v, c)| v * c as f64).sum()
    }

    pub fn sorted(&self) -> Vec<(f64, u64)> {
        let mut v: Vec<(f64, u64)> = self
            .counts
            .iter()
            .map(|(&k, &c)| (f64::from_bits(k), c))
            .collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        v
    }

    pub fn stat(&self, m: Measure) -> Option<f64> {
        if self.n == 0 {
            return None;
        }
        match m {
            Measure::Min => self.min.as_ref().map(|x| x.0),
            Measure::Max => self.max.as_ref().map(|x| x.0),
            Measure::Sum => Some(self.exact_sum()),
            Measure::Mean => Some(self.exact_sum() / self.n as f64),
            m => m.rank().and_then(|r| self.percentile(&self.sorted(), r)),
        }
    }
}

trait Extreme {
    fn is_none_or_lt(&self, v: f64) -> bool;
    fn is_none_or_gt(&self, v: f64) -> bool;
}

impl Extreme for Option<&(f64, Option<Hit>)> {
    fn is_none_or_lt(&self, v: f64) -> bool {
        self.is_none_or(|x| x.0 < v)
    }
    fn is_none_or_gt(&self, v: f64) -> bool {
        self.is_none_or(|x| x.0 > v)
    }
}

/// One group's figures.
#[derive(Debug, Default)]
pub struct Group {
    pub count: u64,
    pub values: Option<Values>,
    pub distinct: Option<FxHashSet<Vec<u8>>>,
    /// The first event's first line, when the key masks what varies (a message template).
    pub example: Option<String>,
}

/// A group example is cut here.
const MAX_EXAMPLE: usize = 300;

/// A group seen for the first time; a template hides the numbers, hosts and ids, so it
/// keeps one real line.
fn new_group(row: &mut dyn RowAccess, plan: &Plan) -> Group {
    let example = plan.group.iter().any(|g| g.name == "template").then(|| {
        let whole = row.whole();
        let first = memchr::memchr(b'\n', whole).map_or(whole, |p| &whole[..p]);
        cut(first, MAX_EXAMPLE)
    });
    Group {
        example: example.or_else(|| exception_line(row, plan)),
        ..Group::default()
    }
}

/// Grouped by an exception or its cause, the trace's line that names it, message and all
/// ("Caused by: java.lang.NumberFormatException: For input string: "12,5""):
/// the class alone does not say what went wrong. The cause is the innermost, the last line.
fn exception_line(row: &mut dyn RowAccess, plan: &Plan) -> Option<String> {
    let g = plan
        .group
        .iter()
        .find(|g| matches!(g.name.as_str(), "exception" | "cause"))?;
    let value = row.val(g.id)?.as_bytes().to_vec();
    let whole = row.whole();
    // The line that names it, not a stack frame of its class (`\tat …Exception.from(…)`).
    let frame = |l: &[u8]| {
        let t = l.trim_ascii_start();
        t.starts_with(b"at ") || t.starts_with(b"...")
    };
    let mut lines = whole
        .split(|&b| b == b'\n')
        .filter(|l| !frame(l) && memchr::memmem::find(l, &value).is_some());
    let line = if g.name == "cause" {
        lines.next_back()
    } else {
        lines.next()
    }?;
    Some(cut(line, MAX_EXAMPLE))
}

/// A sort key for rows: numbers (and times) or text; rows without one sort last.
#[derive(Debug, Clone, PartialEq)]
pub enum SortKey {
    Num(f64),
    Text(Vec<u8>),
    Missing,
}

fn cmp_keys(a: &SortKey, b: &SortKey, order: Order) -> Ordering {
    let o = match (a, b) {
        (SortKey::Missing, SortKey::Missing) => return Ordering::Equal,
        (SortKey::Missing, _) => return Ordering::Greater,
        (_, SortKey::Missing) => return Ordering::Less,
        (SortKey::Num(x), SortKey::Num(y)) => x.total_cmp(y),
        (SortKey::Text(x), SortKey::Text(y)) => x.cmp(y),
        (SortKey::Num(_), SortKey::Text(_)) => Ordering::Less,
        (SortKey::Text(_), SortKey::Num(_)) => Ordering::Greater,
    };
    match order {
        Order::Asc => o,
        Order::Desc => o.reverse(),
    }
}

/// The rows a query returns: the first `limit` in file order, or the best `limit` by key.
#[derive(Debug)]
pub struct Rows {
    pub limit: usize,
    /// Sort by time (Some(None)), by a field (Some(Some)), or file order (None).
    pub sort: Option<Option<FieldRef>>,
    pub order: Order,
    pub hits: Vec<(SortKey, Hit)>,
}

impl Rows {
    fn key(&self, row: &mut dyn RowAccess) -> SortKey {
        match &self.sort {
            None => SortKey::Missing,
            Some(None) => row
                .time()
                .map_or(SortKey::Missing, |t| SortKey::Num(t.key as f64)),
            Some(Some(f)) => match row.val(f.id) {
                None => SortKey::Missing,
                Some(v) if f.is_numeric() || f.kind == FieldKind::Time => {
                    v.number().map_or(SortKey::Missing, SortKey::Num)
                }
                Some(v) => SortKey::Text(v.as_bytes().to_vec()),
            },
        }
    }

    fn add(&mut self, row: &mut dyn RowAccess, plan: &Plan, file: usize, line: u64) {
        if self.sort.is_none() {
            if self.hits.len() < self.limit {
                let h = make_hit(row, plan, file, line);
                self.hits.push((SortKey::Missing, h));
            }
            return;
        }
        let key = self.key(row);
        self.keep(key, row, plan, file, line);
    }

    /// Keeps the row when its key is among the best `limit`.
    fn keep(&mut self, key: SortKey, row: &mut dyn RowAccess, plan: &Plan, file: usize, line: u64) {
        if self.hits.len() >= self.limit
            && cmp_keys(&key, &self.hits[self.limit - 1].0, self.order) != Ordering::Less
        {
            return;
        }
        let h = make_hit(row, plan, file, line);
        // Insert after equal keys: ties stay in file order.
        let at = self
            .hits
            .partition_point(|(k, _)| cmp_keys(k, &key, self.order) != Ordering::Greater);
        self.hits.insert(at, (key, h));
        self.hits.truncate(self.limit);
    }

    fn merge(&mut self, o: Rows) {
        if self.sort.is_none() {
            let room = self.limit.saturating_sub(self.hits.len());
            self.hits.extend(o.hits.into_iter().take(room));
            return;
        }
        for (k, h) in o.hits {
            let at = self
                .hits
                .partition_point(|(x, _)| cmp_keys(x, &k, self.order) != Ordering::Greater);
            self.hits.insert(at, (k, h));
        }
        self.hits.truncate(self.limit);
    }
}

/// Matched rows per time bucket (micro-second bucket width), per file.
#[derive(Debug, Default)]
pub struct Buckets {
    pub width: i64,
    pub cells: FxHashMap<(i64, usize), u64>,
    pub dated: crate::ts::Dated,
    pub min: Option<i64>,
    pub max: Option<i64>,
}

impl Buckets {
    fn add(&mut self, t: Ts, file: usize) {
        *self
            .cells
            .entry((t.key.div_euclid(self.width), file))
            .or_insert(0) += 1;
        self.dated = self.dated.max(t.dated);
        self.min = Some(self.min.map_or(t.key, |m| m.min(t.key)));
        self.max = Some(self.max.map_or(t.key, |m| m.max(t.key)));
    }

    fn merge(&mut self, o: Buckets) {
        for (k, c) in o.cells {
            *self.cells.entry(k).or_insert(0) += c;
        }
        self.dated = self.dated.max(o.dated);
        for v in [o.min, o.max].into_iter().flatten() {
            self.min = Some(self.min.map_or(v, |m| m.min(v)));
            self.max = Some(self.max.map_or(v, |m| m.max(v)));
        }
    }
}

/// What a measure accumulates.
#[derive(Debug)]
pub enum AccKind {
    Count,
    Distinct(FxHashSet<Vec<u8>>),
    /// Keyed by the group values, length-prefixed ([`split_key`]).
    Groups(FxHashMap<Vec<u8>, Group>),
    Values(Values),
    Buckets(Buckets),
    Rows(Rows),
    Timeline(Timeline, Buckets),
}

/// The state of one part of one file (or of everything, once merged).
#[derive(Debug)]
pub struct Acc {
    pub matched: u64,
    /// Matched rows without a value for the measured field.
    pub missing: u64,
    /// Matched rows without a timestamp (buckets, timeline).
    pub untimed: u64,
    pub kind: AccKind,
    /// Reused key buffer (no allocation per row for a known group).
    pub scratch: Vec<u8>,
}

/// The bucket width in microseconds to collect at: the asked width, or a minute for
/// `auto` (regridded once the span is known).
pub fn collect_width(q: &Query) -> i64 {
    q.bucket.seconds().unwrap_or(60) as i64 * 1_000_000
}

impl Acc {
    pub fn new(q: &Query, plan: &Plan) -> Acc {
        let kind = match q.measure {
            _ if !plan.group.is_empty() && q.measure != Measure::Rows => {
                AccKind::Groups(FxHashMap::default())
            }
            Measure::Count | Measure::Fields => AccKind::Count,
            Measure::CountDistinct => AccKind::Distinct(FxHashSet::default()),
            Measure::Buckets => AccKind::Buckets(Buckets {
                width: collect_width(q),
                ..Buckets::default()
            }),
            Measure::Rows => AccKind::Rows(Rows {
                limit: q.limit(),
                sort: q.field.as_ref().map(|_| plan.field.clone()).or(
                    // A sort on `time` resolves to the time field; keep it numeric.
                    None,
                ),
                order: q.order,
                hits: Vec::new(),
            }),
            Measure::Timeline => AccKind::Timeline(
                Timeline::new(plan),
                Buckets {
                    width: collect_width(q),
                    ..Buckets::default()
                },
            ),
            _ => AccKind::Values(Values::default()),
        };
        let kind = match kind {
            AccKind::Rows(mut r) => {
                if let Some(Some(f)) = &r.sort {
                    if plan.time == Some(f.id) {
                        r.sort = Some(None);
                    }
                }
                AccKind::Rows(r)
            }
            k => k,
        };
        Acc {
            matched: 0,
            missing: 0,
            untimed: 0,
            kind,
            scratch: Vec::new(),
        }
    }

    /// Whether rows past the window are read (a timeline's notable kinds that go on).
    pub fn follows_past(&self) -> bool {
        matches!(self.kind, AccKind::Timeline(..))
    }

    /// Adds a row past the window (see [`Acc::follows_past`]).
    pub fn add_past(&mut self, row: &mut dyn RowAccess, time: Ts, plan: &Plan, file: usize) {
        if let AccKind::Timeline(r, _) = &mut self.kind {
            r.add_past(row, time, plan, file);
        }
    }

    /// Adds a row that passed the plan.
    pub fn add(&mut self, row: &mut dyn RowAccess, plan: &Plan, q: &Query, file: usize, line: u64) {
        self.matched += 1;
        match &mut self.kind {
            AccKind::Count => {}
            AccKind::Distinct(set) => {
                let key = &mut self.scratch;
                key.clear();
                let f = plan.field.as_ref().or(plan.group.first());
                let found = f.is_some_and(|f| match row.val(f.id) {
                    Some(v) => {
                        push_key(key, &v, f);
                        true
                    }
                    None => false,
                });
                if !found {
                    self.missing += 1;
                } else if !set.contains(key.as_slice()) {
                    set.insert(key.clone());
                }
            }
            AccKind::Groups(map) => {
                let key = &mut self.scratch;
                key.clear();
                for g in &plan.group {
                    match row.val(g.id) {
                        Some(v) => push_part(key, &v, g),
                        None => {
                            self.missing += 1;
                            return;
                        }
                    }
                }
                if !map.contains_key(key.as_slice()) {
                    map.insert(key.clone(), new_group(row, plan));
                }
                let g = map
                    .get_mut(key.as_slice())
                    .expect("the group was inserted just above");
                g.count += 1;
                add_group_measure(g, row, plan, q);
            }
            AccKind::Values(vals) => {
                let f = plan
                    .field
                    .as_ref()
                    .expect("statistics have a field (checked in run)");
                match row.val(f.id).and_then(|v| v.number()) {
                    Some(v) => {
                        let mut hit = || make_hit(row, plan, file, line);
                        vals.add(v, true, &mut hit);
                    }
                    None => self.missing += 1,
                }
            }
            AccKind::Buckets(b) => match row.time() {
                Some(t) => b.add(t, file),
                None => self.untimed += 1,
            },
            AccKind::Rows(r) => r.add(row, plan, file, line),
            AccKind::Timeline(r, b) => match row.time() {
                Some(t) => {
                    b.add(t, file);
                    r.add(row, t, plan, file, line);
                }
                None => self.untimed += 1,
            },
        }
    }

    /// Shifts part-relative line numbers by `offset` (the lines of the parts before).
    pub fn shift_lines(&mut self, offset: u64) {
        let shift = |hits: &mut Vec<(SortKey, Hit)>| {
            for (_, h) in hits {
                h.line += offset;
            }
        };
        match &mut self.kind {
            AccKind::Rows(r) => shift(&mut r.hits),
            AccKind::Timeline(t, _) => t.shift_lines(offset),
            AccKind::Values(v) => {
                for h in [&mut v.min, &mut v.max].into_iter().flatten() {
                    if let Some(h) = &mut h.1 {
                        h.line += offset;
                    }
                }
            }
            _ => {}
        }
    }

    /// Merges a later part or file into this one.
    pub fn merge(&mut self, o: Acc) {
        self.matched += o.matched;
        self.missing += o.missing;
        self.untimed += o.untimed;
        match (&mut self.kind, o.kind) {
            (AccKind::Distinct(a), AccKind::Distinct(b)) => a.extend(b),
            (AccKind::Groups(a), AccKind::Groups(b)) => {
                for (k, g) in b {
                    let mine = a.entry(k).or_default();
                    mine.count += g.count;
                    if mine.example.is_none() {
                        mine.example = g.example;
                    }
                    if let Some(v) = g.values {
                        mine.values.get_or_insert_with(Values::default).merge(v);
                    }
                    if let Some(d) = g.distinct {
                        mine.distinct
                            .get_or_insert_with(FxHashSet::default)
                            .extend(d);
                    }
                }
            }
            (AccKind::Values(a), AccKind::Values(b)) => a.merge(b),
            (AccKind::Buckets(a), AccKind::Buckets(b)) => a.merge(b),
            (AccKind::Rows(a), AccKind::Rows(b)) => a.merge(b),
            (AccKind::Timeline(ar, ab), AccKind::Timeline(br, bb)) => {
                ar.merge(br);
                ab.merge(bb);
            }
            _ => {}
        }
    }
}

fn add_group_measure(g: &mut Group, row: &mut dyn RowAccess, plan: &Plan, q: &Query) {
    let Some(f) = plan.field.as_ref() else { return };
    if q.measure == Measure::CountDistinct {
        if let Some(v) = row.val(f.id) {
            let mut k = Vec::new();
            push_key(&mut k, &v, f);
            g.distinct.get_or_insert_with(FxHashSet::default).insert(k);
        }
    } else if q.measure.is_stat() || q.measure == Measure::Stats {
        if let Some(v) = row.val(f.id).and_then(|v| v.number()) {
            g.values
                .get_or_insert_with(Values::default)
                .add(v, false, &mut || unreachable_hit());
        }
    }
}

/// Groups keep no rows; `add` never calls the builder when `with_rows` is false.
fn unreachable_hit() -> Hit {
    Hit {
        file: 0,
        line: 0,
        time: None,
        text: String::new(),
        lines: 0,
        fields: Vec::new(),
    }
}
