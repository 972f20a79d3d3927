//! The streaming analyser: bytes in (any chunking), per-line level / timestamp / template
//! accounting, exact merging of analysers of consecutive parts, and the final report.

use rustc_hash::FxHashMap;

use crate::level::{self, Level};
use crate::mask;
use crate::report::{Bucket, BucketSize, Histogram, LevelCount, LogReport, TemplateCount};
use crate::ts::{self, Precision, Ts, DAY, HOUR, MINUTE};

/// Only the first 64 KiB of a line are examined (the line still counts once).
pub const MAX_LINE: usize = 64 * 1024;
/// Raw examples are cut at this many bytes.
pub const MAX_EXAMPLE: usize = 500;
/// Distinct histogram cells kept before the cells grow (minute -> hour -> day).
const MAX_HIST_CELLS: usize = 100_000;
/// Continuous (zero-filled) histograms have at most this many buckets; beyond, only
/// non-empty buckets are listed.
pub const MAX_BUCKETS: usize = 1000;

/// Tuning of an analysis.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalyzeOptions {
    /// `analyze_file` reads at most this many bytes (then `complete == false`).
    pub max_bytes: u64,
    /// Distinct templates tracked (per worker thread); beyond, `templates_capped`.
    pub max_templates: usize,
    /// Templates listed by count.
    pub top_templates: usize,
    /// Extra templates listed per level FATAL, CRITICAL, ERROR, WARN when not in the top.
    pub per_level_templates: usize,
    /// Worker threads for `analyze_file`; 0 = available cores (at most 8).
    pub threads: usize,
}

impl Default for AnalyzeOptions {
    fn default() -> Self {
        AnalyzeOptions {
            max_bytes: u64::MAX,
            max_templates: 50_000,
            top_templates: 20,
            per_level_templates: 5,
            threads: 0,
        }
    }
}

#[derive(Debug, Clone, Default)]
struct LevelAcc {
    count: u64,
    first_line: u64,
    first_ts: Option<Ts>,
    last_ts: Option<Ts>,
}

#[derive(Debug, Clone)]
struct TplAcc {
    level: Level,
    count: u64,
    first_line: u64,
    first_ts: Option<Ts>,
    last_ts: Option<Ts>,
    example: Box<[u8]>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Counts {
    total: u64,
    errors: u64,
    warns: u64,
}

impl Counts {
    fn add(&mut self, o: Counts) {
        self.total += o.total;
        self.errors += o.errors;
        self.warns += o.warns;
    }
}

/// Histogram cells at width `gran` (microseconds); the current cell is kept apart so sorted
/// logs touch the map once per cell.
#[derive(Debug, Clone)]
struct HistAcc {
    gran: i64,
    cells: FxHashMap<i64, Counts>,
    cur: Option<(i64, Counts)>,
}

impl HistAcc {
    fn new() -> Self {
        HistAcc {
            gran: MINUTE,
            cells: FxHashMap::default(),
            cur: None,
        }
    }

    #[inline]
    fn add(&mut self, key: i64, level: Level) {
        let idx = key.div_euclid(self.gran);
        let one = Counts {
            total: 1,
            errors: u64::from(level.is_error()),
            warns: u64::from(level == Level::Warn),
        };
        match &mut self.cur {
            Some((i, c)) if *i == idx => c.add(one),
            _ => {
                self.flush();
                self.cur = Some((idx, one));
            }
        }
    }

    fn flush(&mut self) {
        if let Some((i, c)) = self.cur.take() {
            self.cells.entry(i).or_default().add(c);
            if self.cells.len() > MAX_HIST_CELLS && self.gran < DAY {
                let next = if self.gran == MINUTE { HOUR } else { DAY };
                self.regrid(next);
            }
        }
    }

    fn regrid(&mut self, gran: i64) {
        self.flush();
        if gran == self.gran {
            return;
        }
        let old = self.gran;
        let mut cells = FxHashMap::default();
        for (i, c) in self.cells.drain() {
            cells
                .entry((i * old).div_euclid(gran))
                .or_insert_with(Counts::default)
                .add(c);
        }
        self.cells = cells;
        self.gran = gran;
    }

    fn merge(&mut self, mut o: HistAcc) {
        self.flush();
        o.flush();
        let gran = self.gran.max(o.gran);
        self.regrid(gran);
        o.regrid(gran);
        for (i, c) in o.cells {
            self.cells.entry(i).or_default().add(c);
        }
    }
}

/// Streaming analyser: `feed` any chunks, then `finish`.
#[derive(Debug, Clone)]
pub struct LogAnalyzer {
    opts: AnalyzeOptions,
    bytes: u64,
    lines: u64,
    /// The open (unterminated) line, at most [`MAX_LINE`] bytes of it.
    carry: Vec<u8>,
    carry_open: bool,
    levels: [LevelAcc; 9],
    templates: FxHashMap<Box<[u8]>, TplAcc>,
    capped: bool,
    untemplated: u64,
    first_ts: Option<Ts>,
    last_ts: Option<Ts>,
    min_key: i64,
    max_key: i64,
    ts_lines: u64,
    hist: HistAcc,
    scratch: Vec<u8>,
}

/// Bytes that separate a timestamp or level from the message.
#[inline]
fn is_delim(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b']' | b':' | b'-' | b'|' | b'>' | b',')
}

/// The string value of `"msg"`/`"message"` in a JSON line (raw, escapes kept).
fn json_message(line: &[u8]) -> Option<&[u8]> {
    for key in [&b"\"msg\""[..], b"\"message\""] {
        let Some(p) = memchr::memmem::find(line, key) else {
            continue;
        };
        let mut j = p + key.len();
        while matches!(line.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if line.get(j) != Some(&b':') {
            continue;
        }
        j += 1;
        while matches!(line.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if line.get(j) != Some(&b'"') {
            continue;
        }
        let s = j + 1;
        let mut k = s;
        while k < line.len() {
            match line[k] {
                b'\\' => k += 2,
                b'"' => return Some(&line[s..k]),
                _ => k += 1,
            }
        }
        return Some(&line[s..]);
    }
    None
}

/// The message part of `line`: the JSON message, else what follows the level (or the
/// timestamp ending at `from`) and its delimiters.
fn message_of(line: &[u8], hit: Option<(Level, usize)>, from: usize) -> &[u8] {
    let json_msg = if line.first() == Some(&b'{') {
        json_message(line)
    } else {
        None
    };
    match json_msg {
        Some(m) => m,
        None => {
            let mut s = hit.map_or(from, |h| h.1.max(from));
            if s > 0 {
                while s < line.len() && is_delim(line[s]) {
                    s += 1;
                }
            }
            &line[s.min(line.len())..]
        }
    }
}

/// `bytes` cut at `max` (at a UTF-8 boundary, then `…`), invalid UTF-8 as U+FFFD.
pub(crate) fn lossy_cut(bytes: &[u8], max: usize) -> String {
    if bytes.len() <= max {
        return String::from_utf8_lossy(bytes).into_owned();
    }
    let mut cut = max;
    while cut > 0 && bytes[cut] & 0xC0 == 0x80 {
        cut -= 1;
    }
    let mut s = String::from_utf8_lossy(&bytes[..cut]).into_owned();
    s.push('…');
    s
}

impl LogAnalyzer {
    pub fn new(opts: AnalyzeOptions) -> Self {
        LogAnalyzer {
            opts,
            bytes: 0,
            lines: 0,
            carry: Vec::new(),
            carry_open: false,
            levels: Default::default(),
            templates: FxHashMap::default(),
            capped: false,
            untemplated: 0,
            first_ts: None,
            last_ts: None,
            min_key: i64::MAX,
            max_key: i64::MIN,
            ts_lines: 0,
            hist: HistAcc::new(),
            scratch: Vec::with_capacity(512),
        }
    }

    /// Bytes fed so far.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }

    /// Feeds the next bytes of the log; lines may span calls.
    pub fn feed(&mut self, data: &[u8]) {
        self.bytes += data.len() as u64;
        let mut rest = data;
        if self.carry_open {
            match memchr::memchr(b'\n', rest) {
                None => {
                    self.append_carry(rest);
                    return;
                }
                Some(p) => {
                    self.append_carry(&rest[..p]);
                    self.close_carry();
                    rest = &rest[p + 1..];
                }
            }
        }
        let mut start = 0;
        for p in memchr::memchr_iter(b'\n', rest) {
            self.line(&rest[start..p]);
            start = p + 1;
        }
        if start < rest.len() {
            self.carry_open = true;
            self.append_carry(&rest[start..]);
        }
    }

    fn append_carry(&mut self, bytes: &[u8]) {
        let room = MAX_LINE.saturating_sub(self.carry.len());
        self.carry
            .extend_from_slice(&bytes[..bytes.len().min(room)]);
    }

    fn close_carry(&mut self) {
        let carry = std::mem::take(&mut self.carry);
        self.line(&carry);
        self.carry = carry;
        self.carry.clear();
        self.carry_open = false;
    }

    /// Accounts one line (without its `\n`).
    fn line(&mut self, raw: &[u8]) {
        self.lines += 1;
        let n = self.lines;
        let mut line = &raw[..raw.len().min(MAX_LINE)];
        if let [head @ .., b'\r'] = line {
            line = head;
        }
        if n == 1 && line.starts_with(b"\xEF\xBB\xBF") {
            line = &line[3..];
        }
        let found = ts::find(line);
        let (ts, ts_end) = match found {
            Some((t, end)) => (Some(t), end),
            None => (None, None),
        };
        let from = ts_end.unwrap_or(0);
        let hit = level::detect(line, from);
        let level = hit.map_or(Level::None, |h| h.0);
        self.count_level(level, n, ts);
        let msg = message_of(line, hit, from);
        self.count_template(level, n, ts, line, msg);
    }

    /// Counts line `n` of `level` in its level, and its time in the range and histogram.
    fn count_level(&mut self, level: Level, n: u64, ts: Option<Ts>) {
        let la = &mut self.levels[level.index()];
        la.count += 1;
        if la.count == 1 {
            la.first_line = n;
        }
        if let Some(t) = ts {
            if la.first_ts.is_none() {
                la.first_ts = Some(t);
            }
            la.last_ts = Some(t);
            self.ts_lines += 1;
            if self.first_ts.is_none() {
                self.first_ts = Some(t);
            }
            self.last_ts = Some(t);
            self.min_key = self.min_key.min(t.key);
            self.max_key = self.max_key.max(t.key);
            self.hist.add(t.key, level);
        }
    }

    /// Counts line `n` (message `msg`) under its template, or as untemplated once the
    /// template cap is reached.
    fn count_template(&mut self, level: Level, n: u64, ts: Option<Ts>, line: &[u8], msg: &[u8]) {
        self.scratch.clear();
        self.scratch.push(level as u8);
        mask::template(msg, &mut self.scratch);
        if let Some(t) = self.templates.get_mut(self.scratch.as_slice()) {
            t.count += 1;
            if let Some(x) = ts {
                if t.first_ts.is_none() {
                    t.first_ts = Some(x);
                }
                t.last_ts = Some(x);
            }
        } else if self.templates.len() < self.opts.max_templates {
            let example = line[..line.len().min(MAX_EXAMPLE + 4)].into();
            self.templates.insert(
                self.scratch.as_slice().into(),
                TplAcc {
                    level,
                    count: 1,
                    first_line: n,
                    first_ts: ts,
                    last_ts: ts,
                    example,
                },
            );
        } else {
            self.capped = true;
            self.untemplated += 1;
        }
    }

    /// Closes an unterminated last line (it counts, as with `grep -c ''`).
    fn end_input(&mut self) {
        if self.carry_open {
            self.close_carry();
        }
        self.hist.flush();
    }

    /// Appends the analysis of the bytes that directly follow this analyser's (exact: counts
    /// add, line numbers shift, firsts come from `self`, lasts from `later`).
    pub(crate) fn merge(&mut self, mut later: LogAnalyzer) {
        self.end_input();
        later.end_input();
        let off = self.lines;
        for (a, b) in self.levels.iter_mut().zip(later.levels) {
            if b.count == 0 {
                continue;
            }
            if a.count == 0 {
                a.first_line = b.first_line + off;
            }
            a.count += b.count;
            a.first_ts = a.first_ts.or(b.first_ts);
            a.last_ts = b.last_ts.or(a.last_ts);
        }
        for (k, b) in later.templates {
            if let Some(a) = self.templates.get_mut(&k) {
                a.count += b.count;
                a.first_ts = a.first_ts.or(b.first_ts);
                a.last_ts = b.last_ts.or(a.last_ts);
            } else if self.templates.len() < self.opts.max_templates {
                let first_line = b.first_line + off;
                self.templates.insert(k, TplAcc { first_line, ..b });
            } else {
                self.capped = true;
                self.untemplated += b.count;
            }
        }
        self.capped |= later.capped;
        self.untemplated += later.untemplated;
        self.first_ts = self.first_ts.or(later.first_ts);
        self.last_ts = later.last_ts.or(self.last_ts);
        self.min_key = self.min_key.min(later.min_key);
        self.max_key = self.max_key.max(later.max_key);
        self.ts_lines += later.ts_lines;
        self.hist.merge(later.hist);
        self.lines += later.lines;
        self.bytes += later.bytes;
    }

    /// The report of everything fed (`bytes == bytes_read`, `complete`).
    pub fn finish(mut self) -> LogReport {
        self.end_input();
        let fmt = |t: &Option<Ts>| t.as_ref().map(|t| ts::format(t, Precision::Full));
        let levels = Level::ALL
            .iter()
            .zip(&self.levels)
            .filter(|(_, a)| a.count > 0)
            .map(|(&level, a)| LevelCount {
                level,
                count: a.count,
                first_ts: fmt(&a.first_ts),
                last_ts: fmt(&a.last_ts),
                first_line: a.first_line,
            })
            .collect();
        let templates = self.top_templates(&fmt);
        let span_seconds = (self.ts_lines > 0)
            .then(|| u64::try_from((self.max_key - self.min_key) / 1_000_000).unwrap_or(0));
        let histogram = self.histogram();
        LogReport {
            bytes: self.bytes,
            bytes_read: self.bytes,
            complete: true,
            lines: self.lines,
            levels,
            templates,
            distinct_templates: self.templates.len() as u64,
            templates_capped: self.capped,
            untemplated_lines: self.untemplated,
            first_ts: fmt(&self.first_ts),
            last_ts: fmt(&self.last_ts),
            ts_lines: self.ts_lines,
            span_seconds,
            histogram,
        }
    }

    fn top_templates(&self, fmt: &dyn Fn(&Option<Ts>) -> Option<String>) -> Vec<TemplateCount> {
        let mut all: Vec<(&Box<[u8]>, &TplAcc)> = self.templates.iter().collect();
        all.sort_by(|a, b| {
            b.1.count
                .cmp(&a.1.count)
                .then(a.1.first_line.cmp(&b.1.first_line))
        });
        let mut picked = vec![false; all.len()];
        for p in picked.iter_mut().take(self.opts.top_templates) {
            *p = true;
        }
        for level in [Level::Fatal, Level::Critical, Level::Error, Level::Warn] {
            let mut n = 0;
            for (i, (_, t)) in all.iter().enumerate() {
                if n >= self.opts.per_level_templates {
                    break;
                }
                if t.level == level {
                    picked[i] = true;
                    n += 1;
                }
            }
        }
        all.iter()
            .zip(picked)
            .filter(|(_, p)| *p)
            .map(|((k, t), _)| TemplateCount {
                template: String::from_utf8_lossy(&k[1..]).into_owned(),
                level: t.level,
                count: t.count,
                example: lossy_cut(&t.example, MAX_EXAMPLE),
                first_ts: fmt(&t.first_ts),
                last_ts: fmt(&t.last_ts),
                first_line: t.first_line,
            })
            .collect()
    }

    fn histogram(&mut self) -> Option<Histogram> {
        if self.ts_lines == 0 {
            return None;
        }
        let span = self.max_key - self.min_key;
        let wanted = if span <= 3 * HOUR {
            MINUTE
        } else if span <= 7 * DAY {
            HOUR
        } else {
            DAY
        };
        let gran = wanted.max(self.hist.gran);
        self.hist.regrid(gran);
        let size = match gran {
            MINUTE => BucketSize::Minute,
            HOUR => BucketSize::Hour,
            _ => BucketSize::Day,
        };
        let precision = if size == BucketSize::Day {
            Precision::Day
        } else {
            Precision::Minute
        };
        let dated = self.first_ts.map_or(ts::Dated::Full, |t| t.dated);
        let start = |idx: i64| {
            let t = Ts {
                key: idx * gran,
                zone: ts::Zone::None,
                frac_digits: 0,
                dated,
            };
            ts::format(&t, precision)
        };
        let lo = self.min_key.div_euclid(gran);
        let hi = self.max_key.div_euclid(gran);
        let continuous = usize::try_from(hi - lo).is_ok_and(|n| n < MAX_BUCKETS);
        let bucket = |i: i64, c: Counts| Bucket {
            start: start(i),
            total: c.total,
            errors: c.errors,
            warns: c.warns,
        };
        let buckets = if continuous {
            (lo..=hi)
                .map(|i| bucket(i, self.hist.cells.get(&i).copied().unwrap_or_default()))
                .collect()
        } else {
            let mut idx: Vec<i64> = self.hist.cells.keys().copied().collect();
            idx.sort_unstable();
            idx.into_iter()
                .map(|i| bucket(i, self.hist.cells[&i]))
                .collect()
        };
        Some(Histogram {
            bucket: size,
            buckets,
        })
    }
}

#[cfg(test)]
#[path = "analyzer_tests.rs"]
mod tests;
