//! One event's fields, extracted lazily: a line is split (pattern), matched (regex) or
//! decoded (JSON, logfmt) once, and only the fields a query reads are turned into values.

use std::borrow::Cow;

use regex::CaptureLocations;
use serde_json::{Map, Value};

use super::def::{
    AnalyserPart, DerivedFrom, Format, LevelFormat, Origin, Parser, Tail, TimeFormat,
};
use super::inline_pairs::logfmt_pairs;
use super::rest_group::RegexLocs;
use crate::ts::{self, Ts};
use crate::{level, Level};

/// Serilog's compact JSON (CLEF) level key: an event without it is at Information.
pub(crate) const CLEF_LEVEL: &str = "@l";

pub use super::schema::{Inner, Schema};

/// The inner line without the newline the writer kept (`"...\n"`).
pub fn trim_line(b: &[u8]) -> &[u8] {
    let end = b
        .iter()
        .rposition(|c| !matches!(c, b'\n' | b'\r'))
        .map_or(0, |p| p + 1);
    &b[..end]
}

/// A field's value: borrowed from the event text where possible.
#[derive(Debug, Clone, PartialEq)]
pub enum Val<'a> {
    Bytes(&'a [u8]),
    Text(Cow<'a, str>),
}

impl Val<'_> {
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Val::Bytes(b) => b,
            Val::Text(t) => t.as_bytes(),
        }
    }

    pub fn to_text(&self) -> String {
        String::from_utf8_lossy(self.as_bytes()).into_owned()
    }

    /// The value as a number; `-` and empty are no value.
    pub fn number(&self) -> Option<f64> {
        parse_number(self.as_bytes())
    }
}

/// Whether a field holds spans of time: numbers in a unit of time.
pub fn is_span(spec: &super::def::FieldSpec) -> bool {
    spec.unit.dimension() == llmops_common::query::Dimension::Time
        && matches!(
            spec.kind,
            llmops_common::query::FieldKind::Integer | llmops_common::query::FieldKind::Number
        )
}

/// Whether a value of a span of time is none: a span is never negative, and HAProxy's
/// `-1` timers (a stage the request never reached) and Kong's `-1` latencies (never
/// proxied) say there is none.
pub fn no_span(spec: &super::def::FieldSpec, v: &[u8]) -> bool {
    let v = trim_ascii(v);
    is_span(spec) && v.first() == Some(&b'-') && v.get(1).is_some_and(u8::is_ascii_digit)
}

pub fn parse_number(b: &[u8]) -> Option<f64> {
    if b.is_empty() || b == b"-" {
        return None;
    }
    if b.last().is_some_and(u8::is_ascii_alphabetic) {
        // Only a value with a space can be a spaced duration: no copy for the rest.
        return super::go_duration::go_duration(b)
            .or_else(|| memchr::memchr(b' ', b).and_then(|_| spaced_duration(b)));
    }
    // Fast path for plain non-negative integers (status codes, byte counts).
    if b.len() <= 15 && b.iter().all(u8::is_ascii_digit) {
        return Some(b.iter().fold(0u64, |v, d| v * 10 + u64::from(d - b'0')) as f64);
    }
    std::str::from_utf8(b)
        .ok()?
        .trim()
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// A duration written with a space before a unit, as messages write them (`completed in
/// 289 ms`, `took 1.5 s`): each space between a number and its unit dropped, then read as
/// a Go duration, as the Perl and jq checks read it.
fn spaced_duration(b: &[u8]) -> Option<f64> {
    let t = std::str::from_utf8(b).ok()?.trim();
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        let unit_next = chars.peek().is_some_and(|n| n.is_alphabetic());
        if c == ' ' && (prev.is_ascii_digit() || prev == '.') && unit_next {
            continue;
        }
        out.push(c);
        prev = c;
    }
    super::go_duration::go_duration(out.as_bytes())
}

/// Parses a time value written in `fmt`.
pub fn parse_time(b: &[u8], fmt: TimeFormat) -> Option<Ts> {
    let epoch_scale = match fmt {
        TimeFormat::Syslog => {
            return ts::parse_at(b, 0)
                .filter(|(t, _)| t.dated == ts::Dated::NoYear)
                .map(|(t, _)| t)
        }
        TimeFormat::Klog => return ts::klog(b, 0).map(|(t, _)| t),
        TimeFormat::Clock => return ts::clock_only(b, 0).map(|(t, _)| t),
        TimeFormat::MonthDay => return ts::month_day_dashed(b, 0).map(|(t, _)| t),
        TimeFormat::SlashMonthFirst => return ts::slash_date(b, 0, false).map(|(t, _)| t),
        TimeFormat::SlashDayFirst => return ts::slash_date(b, 0, true).map(|(t, _)| t),
        TimeFormat::Auto => {
            if let Some((t, _)) = ts::parse_at(b, 0) {
                return Some(t);
            }
            match b.iter().take_while(|c| c.is_ascii_digit()).count() {
                10 | 13 | 16 | 19 => return ts::epoch(b, 0).map(|t| t.0),
                _ => return None,
            }
        }
        TimeFormat::Epoch => 1_000_000,
        TimeFormat::EpochMs => 1_000,
        TimeFormat::EpochUs => 1,
    };
    let v = parse_number(b)?;
    let key = (v * epoch_scale as f64).round() as i64
        + ts::days_from_civil(1970, 1, 1) * 86_400 * 1_000_000;
    Some(Ts {
        key,
        zone: ts::Zone::Utc,
        frac_digits: if epoch_scale == 1 { 6 } else { 3 },
        dated: ts::Dated::Full,
    })
}

/// The analyser rule's reading of a line: its time, its level with the level word's end,
/// and the end of the timestamp.
type AnalyserParse = (Option<Ts>, Option<(Level, usize)>, usize);

/// Per-event extraction state, reused from event to event.
pub struct Extractor<'f> {
    fmt: &'f Format,
    schema: &'f Schema,
    parsed: Option<bool>,
    spans: Vec<(u32, u32)>,
    tail_at: usize,
    locs: Option<RegexLocs<'f>>,
    dlocs: Vec<CaptureLocations>,
    /// Per derived rule: not run yet (None), matched at offset (Some(Some)), no match.
    dstate: Vec<Option<Option<usize>>>,
    json: Option<Map<String, Value>>,
    kv: Option<Vec<(u32, u32, u32, u32)>>,
    /// The event's own `KEY : value` and `Key(value)` pairs, once read.
    record: Option<Vec<(usize, usize, usize, usize)>>,
    analyser: Option<AnalyserParse>,
    time: Option<Option<Ts>>,
    /// The newest dated event a time written without a year is placed by (see
    /// [`Ts::in_year`]).
    newest_day: Option<(i64, u32, u32)>,
    /// `w3c`: the field of each column of the latest header.
    cols: Vec<Option<usize>>,
    /// An envelope's inner line.
    inner: Option<Box<Extractor<'f>>>,
    /// The message field the format cuts out, where a level found by the analyser's rule
    /// is looked for.
    message: Option<usize>,
}

/// The end of one or two leading tokens made only of digits and date/time separators
/// (`2024-05-01T10:00:1`, `05/01 10:00`), or 0.
fn stamp_like_prefix(line: &[u8]) -> usize {
    let stamp = |b: &u8| b.is_ascii_digit() || b"-:T./,+Z[]".contains(b);
    let mut end = 0;
    for _ in 0..2 {
        let start = end + line[end..].iter().take_while(|b| **b == b' ').count();
        let len = line[start..].iter().take_while(|b| stamp(b)).count();
        let digits = line[start..start + len]
            .iter()
            .filter(|b| b.is_ascii_digit())
            .count();
        let ends_token = line.get(start + len).is_none_or(|b| *b == b' ');
        if digits < 4 || !ends_token {
            break;
        }
        end = start + len;
    }
    end
}

pub(super) fn first_line(text: &[u8]) -> &[u8] {
    memchr::memchr(b'\n', text).map_or(text, |p| &text[..p])
}

impl Extractor<'_> {
    /// The event's first line: single-line formats hand over one line per event, so only
    /// multi-line events are searched for a newline.
    fn head<'t>(&self, text: &'t [u8]) -> &'t [u8] {
        if self.fmt.multiline.is_some() {
            first_line(text)
        } else {
            text
        }
    }
}

impl<'f> Extractor<'f> {
    pub fn new(fmt: &'f Format, schema: &'f Schema) -> Self {
        let locs = match &fmt.parser {
            Parser::Regex(re) => Some(RegexLocs::new(re, fmt.rest_group.as_ref())),
            _ => None,
        };
        let message = schema.fields.iter().position(|f| {
            f.roles.iter().any(|r| r == "message") && matches!(f.origin, Origin::Capture(_))
        });
        Extractor {
            message,
            fmt,
            schema,
            parsed: None,
            spans: Vec::with_capacity(16),
            tail_at: 0,
            locs,
            dlocs: fmt
                .derived
                .iter()
                .map(|d| d.regex.capture_locations())
                .collect(),
            dstate: vec![None; fmt.derived.len()],
            json: None,
            kv: None,
            record: None,
            analyser: None,
            time: None,
            newest_day: None,
            cols: schema.columns.clone(),
            inner: schema
                .inner
                .as_ref()
                .map(|i| Box::new(Extractor::new(&i.fmt, &i.schema))),
        }
    }

    /// Places the times written without a year by the newest dated event (year, month,
    /// day).
    pub fn set_newest_day(&mut self, newest_day: Option<(i64, u32, u32)>) {
        self.newest_day = newest_day;
    }

    /// Whether `text` is a directive line of a `w3c` format (not an event; a header names
    /// the columns of the lines after it), or a line outside the rows of an `only_rows`
    /// format. Call after [`Self::reset`]: the parse is kept for the event.
    pub fn directive(&mut self, text: &[u8]) -> bool {
        if self.fmt.only_rows {
            return !self.parses(text);
        }
        let Parser::Columns(c) = &self.fmt.parser else {
            return false;
        };
        if text.first() != Some(&b'#') {
            return false;
        }
        if let Some(names) = c.header_names(text) {
            let schema = self.schema;
            self.cols = names
                .iter()
                .map(|n| std::str::from_utf8(n).ok().and_then(|n| schema.index(n)))
                .collect();
        }
        true
    }

    /// Forgets the previous event.
    pub fn reset(&mut self) {
        self.parsed = None;
        self.json = None;
        self.kv = None;
        self.record = None;
        self.analyser = None;
        self.time = None;
        for d in &mut self.dstate {
            *d = None;
        }
        if let Some(i) = &mut self.inner {
            i.reset();
        }
    }

    /// Whether the format parses the event (its first line for patterns).
    pub fn parses(&mut self, text: &[u8]) -> bool {
        if let Some(p) = self.parsed {
            return p;
        }
        let ok = match &self.fmt.parser {
            Parser::Pattern(p) => match p.split(self.head(text), &mut self.spans) {
                Some(end) => {
                    self.tail_at = end;
                    true
                }
                None => false,
            },
            Parser::Regex(_) => match &self.fmt.split {
                Some(split) => split.split(text, &mut self.spans),
                None => {
                    let locs = self.locs.as_mut().expect("regex formats have locations");
                    // A line that is not UTF-8 is not parsed (its spans would not index it).
                    std::str::from_utf8(text).is_ok_and(|s| locs.read(s))
                }
            },
            Parser::Json => self.decode_json(text),
            Parser::Columns(c) => {
                let line = self.head(text);
                self.spans.clear();
                if line.first() == Some(&b'#') {
                    self.directive(line);
                    false
                } else if self.cols.is_empty() {
                    false
                } else {
                    let mut start = 0;
                    for p in memchr::memchr_iter(c.separator, line) {
                        self.spans.push((start as u32, p as u32));
                        start = p + 1;
                    }
                    self.spans.push((start as u32, line.len() as u32));
                    self.spans.len() == self.cols.len()
                }
            }
            Parser::Logfmt => {
                let line = self.head(text);
                // A format that names its keys reads past Rails' tagged-logging prefix
                // (`[request-id] method=GET ...`).
                let from = if self.fmt.require_keys.is_empty() {
                    0
                } else {
                    super::inline_pairs::leading_tags(line)
                };
                let kv = logfmt_pairs(line, from);
                let has = |k: &String, v: &[(u32, u32, u32, u32)]| {
                    v.iter()
                        .any(|&(a, b, _, _)| line.get(a as usize..b as usize) == Some(k.as_bytes()))
                };
                let ok = kv.as_ref().is_some_and(|v| {
                    v.len() >= 2 && self.fmt.require_keys.iter().all(|k| has(k, v))
                });
                self.kv = kv;
                ok
            }
            Parser::Analyser => {
                let line = self.head(text);
                match ts::find(line) {
                    Some((t, Some(end))) => {
                        let lv = level::detect(line, end);
                        self.analyser = Some((Some(t), lv, end));
                        true
                    }
                    // A time the reader does not know ("10:00:1"), then a level word: the
                    // event has its level and no time (as `grep -c ERROR` counts it).
                    _ => match stamp_like_prefix(line) {
                        0 => false,
                        end => match level::detect(line, end) {
                            Some(lv) => {
                                self.analyser = Some((None, Some(lv), end));
                                true
                            }
                            None => false,
                        },
                    },
                }
            }
        };
        self.parsed = Some(ok);
        ok
    }

    fn decode_json(&mut self, text: &[u8]) -> bool {
        let t = trim_ascii(text);
        if t.first() != Some(&b'{') {
            return false;
        }
        // An event that runs over several lines (a panic's trace under its JSON line) is
        // read from its first line when the whole is no object.
        let parsed = serde_json::from_slice::<Map<String, Value>>(t).or_else(|e| {
            match t.iter().position(|&b| b == b'\n') {
                Some(nl) => serde_json::from_slice::<Map<String, Value>>(trim_ascii(&t[..nl])),
                None => Err(e),
            }
        });
        match parsed {
            Ok(m) => {
                let ok = self.fmt.require_keys.iter().all(|k| m.contains_key(k));
                self.json = Some(m);
                ok
            }
            Err(_) => false,
        }
    }

    /// The span of a field inside `text`, for fields cut out of the text.
    fn span(&mut self, text: &[u8], fid: usize) -> Option<(usize, usize)> {
        let schema = self.schema;
        match schema.fields.get(fid)?.origin {
            Origin::Capture(i) => match &self.fmt.parser {
                Parser::Pattern(_) => self.spans.get(i).map(|&(a, b)| (a as usize, b as usize)),
                Parser::Regex(_) if self.fmt.split.is_some() => self
                    .spans
                    .get(i)
                    .filter(|s| **s != super::split::ABSENT)
                    .map(|&(a, b)| (a as usize, b as usize)),
                Parser::Regex(_) => self.locs.as_ref()?.get(i),
                _ => None,
            },
            Origin::Derived(ref alts) => {
                for &(rule, group) in alts {
                    if let Some(base) = self.run_derived(text, rule) {
                        if let Some((a, b)) = self.dlocs[rule].get(group) {
                            return Some((a + base, b + base));
                        }
                    }
                }
                None
            }
            _ => None,
        }
    }

    /// Where the free text of field `fid` (a message) lies in `text`.
    fn message_span(&mut self, text: &[u8], fid: usize) -> Option<(usize, usize)> {
        match self.schema.fields.get(fid)?.origin {
            Origin::Capture(_) | Origin::Derived(_) => self.span(text, fid),
            Origin::Analyser(AnalyserPart::Message) => {
                let (_, lv, end) = self.analyser?;
                let line = first_line(text);
                Some((lv.map_or(end, |l| l.1).min(line.len()), line.len()))
            }
            _ => None,
        }
    }

    /// Runs derived rule `rule` once per event; the offset of its source in `text`.
    fn run_derived(&mut self, text: &[u8], rule: usize) -> Option<usize> {
        if let Some(state) = self.dstate[rule] {
            return state;
        }
        let d = &self.fmt.derived[rule];
        let (a, b) = match d.from {
            DerivedFrom::Event => (0, text.len()),
            DerivedFrom::Field(f) => self.span(text, f)?,
        };
        let src = std::str::from_utf8(&text[a..b]).ok();
        let hit = src.and_then(|s| d.regex.captures_read(&mut self.dlocs[rule], s).map(|_| a));
        self.dstate[rule] = Some(hit);
        hit
    }

    /// The value of field `fid`, if the event has it.
    pub fn value<'a>(&'a mut self, text: &'a [u8], fid: usize) -> Option<Val<'a>> {
        if !self.parses(text) {
            return None;
        }
        // The schema outlives this borrow of the extractor: its fields are read while the
        // extractor's caches change.
        let schema: &'f Schema = self.schema;
        let spec = schema.fields.get(fid)?;
        if let Origin::Template(src) = spec.origin {
            return self.template_value(text, src);
        }
        let is_level = self.schema.level == Some(fid);
        let raw = match &spec.origin {
            Origin::Capture(_) | Origin::Derived(_) => {
                let (a, b) = self.span(text, fid)?;
                let fmt = self.fmt;
                csv_value(&fmt.quoted, &fmt.doubled_quotes, &spec.name, &text[a..b])
            }
            Origin::Key(k) => match &self.fmt.parser {
                Parser::Json => match json_value(self.json.as_ref()?, k) {
                    Some(v) => v,
                    None if is_level && k == CLEF_LEVEL => Val::Text(Cow::Borrowed("INFO")),
                    None => return None,
                },
                _ => self.kv_value(text, k)?,
            },
            Origin::InMessage { message, key } => {
                let (a, b) = self.message_span(text, *message)?;
                let (vs, ve) = super::inline_pairs::find(&text[a..b], key)?;
                Val::Bytes(&text[a + vs..a + ve])
            }
            Origin::InLine(key) => {
                let line = first_line(text);
                let (vs, ve) = super::inline_pairs::find(line, key)?;
                Val::Bytes(&text[vs..ve])
            }
            Origin::AnyKey(keys) => match &self.fmt.parser {
                Parser::Json => {
                    let j = self.json.as_ref()?;
                    keys.iter().find_map(|k| json_value(j, k))?
                }
                _ => keys.iter().find_map(|k| self.kv_value(text, k))?,
            },
            Origin::InRecord(key) => {
                // The record's pairs are read once per event, whatever fields ask.
                let pairs = self
                    .record
                    .get_or_insert_with(|| super::inline_pairs::record_pairs(text));
                let &(_, _, vs, ve) = pairs
                    .iter()
                    .find(|&&(ks, ke, _, _)| &text[ks..ke] == key.as_bytes())?;
                Val::Bytes(&text[vs..ve])
            }
            Origin::Column(_) => self.column_value(text, fid)?,
            Origin::ColumnTime(parts) => self.column_time(text, parts)?,
            Origin::Inner(inner_fid) => {
                // The inner extractor reads the level in its own format already.
                let key = self.fmt.envelope.as_deref()?;
                let Some(Value::String(line)) = self.json.as_ref()?.get(key) else {
                    return None;
                };
                let line = trim_line(line.as_bytes());
                return self.inner.as_deref_mut()?.value(line, *inner_fid);
            }
            Origin::Template(_) => return None,
            Origin::Analyser(part) => self.analyser_value(text, *part)?,
        };
        if is_level && !matches!(spec.origin, Origin::Analyser(_)) {
            return Some(self.canonical_level(raw));
        }
        if no_span(spec, raw.as_bytes()) {
            return None;
        }
        Some(raw)
    }

    /// A `w3c` time split over columns (a date and a time), joined as one ISO time.
    fn column_time<'a>(&mut self, text: &'a [u8], parts: &[usize]) -> Option<Val<'a>> {
        let mut out = String::new();
        for (i, &f) in parts.iter().enumerate() {
            if i > 0 {
                out.push('T');
            }
            out.push_str(&self.value(text, f)?.to_text());
        }
        out.push('Z');
        Some(Val::Text(Cow::Owned(out)))
    }

    /// The template of field `src` (the message with its variable parts masked); the
    /// analyser's also holds what stands before the level.
    fn template_value<'a>(&'a mut self, text: &'a [u8], src: usize) -> Option<Val<'a>> {
        let mut out = Vec::new();
        let analysed = matches!(
            self.schema.fields.get(src).map(|f| &f.origin),
            Some(Origin::Analyser(AnalyserPart::Message))
        );
        let before = if analysed {
            self.before_the_level(text)
        } else {
            None
        };
        match before {
            Some(before) => {
                let message = self.value(text, src)?.to_text();
                let joined = format!("{before} {message}");
                crate::mask::template(joined.as_bytes(), &mut out);
            }
            None => crate::mask::template(self.value(text, src)?.as_bytes(), &mut out),
        }
        Some(Val::Text(Cow::Owned(
            String::from_utf8_lossy(&out).into_owned(),
        )))
    }

    /// What the analyser's reading leaves out between the time and the level word (pairs, a
    /// thread: Sidekiq's `pid=7 class=Job jid=…` before `INFO: done`), for the event's
    /// template: the message alone would make every job's `done` one kind. `None` when
    /// nothing stands there.
    fn before_the_level(&mut self, text: &[u8]) -> Option<String> {
        if !matches!(self.fmt.parser, Parser::Analyser) {
            return None;
        }
        let (_, lv, end) = self.analyser?;
        let (_, lv_end) = lv?;
        let line = first_line(text);
        let word_end = line[..lv_end.min(line.len())]
            .iter()
            .rposition(u8::is_ascii_alphabetic)?
            + 1;
        let word_start = line[..word_end]
            .iter()
            .rposition(|b| !b.is_ascii_alphabetic())
            .map_or(0, |i| i + 1);
        let before = trim_ascii(line.get(end..word_start)?);
        let before = before.strip_suffix(b"[").map_or(before, trim_ascii);
        (!before.is_empty()).then(|| String::from_utf8_lossy(before).into_owned())
    }

    /// A field the analyser's rule reads: the time, the level word and the message after it.
    fn analyser_value<'a>(&mut self, text: &'a [u8], part: AnalyserPart) -> Option<Val<'a>> {
        if part == AnalyserPart::Level && !matches!(self.fmt.parser, Parser::Analyser) {
            // A format that names no level column (`level = "@analyser"`): the level
            // word the analyser finds in the event's first line, from its message on
            // when the format cuts one out (a host named `ERROR-01` is no level).
            let line = first_line(text);
            let from = self
                .message
                .and_then(|m| self.span(text, m))
                .map_or(0, |(a, _)| a.min(line.len()));
            let (lv, _) = level::detect(line, from)?;
            return Some(Val::Text(Cow::Borrowed(lv.name())));
        }
        let (_, lv, end) = self.analyser?;
        Some(match part {
            AnalyserPart::Time => {
                let (_, Some(e)) = ts::find(first_line(text))? else {
                    return None;
                };
                Val::Bytes(&text[..e])
            }
            AnalyserPart::Level => Val::Text(Cow::Borrowed(lv?.0.name())),
            AnalyserPart::Message => {
                let line = first_line(text);
                let from = lv.map_or(end, |l| l.1).min(line.len());
                Val::Bytes(trim_ascii(&line[from..]))
            }
        })
    }

    /// Column `fid` of a `w3c` data line: empty markers are no value, `+` a space where the
    /// format says so.
    fn column_value<'a>(&self, text: &'a [u8], fid: usize) -> Option<Val<'a>> {
        let Parser::Columns(c) = &self.fmt.parser else {
            return None;
        };
        let pos = self.cols.iter().position(|x| *x == Some(fid))?;
        let &(a, b) = self.spans.get(pos)?;
        let v = &text[a as usize..b as usize];
        if v.is_empty() || c.empty.iter().any(|e| e.as_bytes() == v) {
            return None;
        }
        let name = &self.schema.fields.get(fid)?.name;
        if v.contains(&b'+') && c.plus_space.contains(name) {
            return Some(Val::Text(Cow::Owned(
                String::from_utf8_lossy(v).replace('+', " "),
            )));
        }
        Some(Val::Bytes(v))
    }

    fn canonical_level<'a>(&self, raw: Val<'a>) -> Val<'a> {
        let b = raw.as_bytes();
        let s = String::from_utf8_lossy(b);
        if self.fmt.level_format == LevelFormat::SyslogPri {
            const SEVERITY: [Level; 8] = [
                Level::Fatal,
                Level::Fatal,
                Level::Critical,
                Level::Error,
                Level::Warn,
                Level::Notice,
                Level::Info,
                Level::Debug,
            ];
            return match s.trim().parse::<u32>() {
                Ok(n) => Val::Text(Cow::Borrowed(SEVERITY[(n % 8) as usize].name())),
                Err(_) => raw,
            };
        }
        if let Some(m) = self.fmt.level_map.get(s.as_ref()) {
            // A level's own name is borrowed, not copied: this runs for every event.
            return match level::word_level(m.as_bytes()) {
                Some((l, _)) if l.name() == m => Val::Text(Cow::Borrowed(l.name())),
                _ => Val::Text(Cow::Owned(m.clone())),
            };
        }
        // A number is pino's and bunyan's scale (30 info, 50 error): the one numeric level
        // scale JSON loggers share.
        match level::word_level(b)
            .map(|(l, _)| l)
            .or_else(|| level::pino(s.trim().as_bytes()))
        {
            Some(l) => Val::Text(Cow::Borrowed(l.name())),
            None => raw,
        }
    }

    fn kv_value<'a>(&mut self, text: &'a [u8], key: &str) -> Option<Val<'a>> {
        if self.kv.is_none() {
            let line = first_line(text);
            let from = if matches!(self.fmt.parser, Parser::Logfmt) {
                0
            } else {
                self.tail_at
            };
            self.kv = Some(logfmt_pairs(line, from).unwrap_or_default());
        }
        let kv = self.kv.as_ref()?;
        kv.iter()
            .find(|&&(ka, kb, _, _)| &text[ka as usize..kb as usize] == key.as_bytes())
            .map(|&(_, _, va, vb)| Val::Bytes(&text[va as usize..vb as usize]))
    }

    /// The keys of this event (JSON, logfmt, tail), with their values as text.
    pub fn keys(&mut self, text: &[u8]) -> Vec<(String, String)> {
        if !self.parses(text) {
            return Vec::new();
        }
        if let Some(m) = &self.json {
            let mut out = Vec::new();
            super::json_path::flatten("", m, &mut out);
            return out;
        }
        if matches!(self.fmt.parser, Parser::Logfmt) || self.fmt.tail == Tail::Extras {
            let _ = self.kv_value(text, "");
            let kv = self.kv.as_deref().unwrap_or_default();
            return kv
                .iter()
                .map(|&(ka, kb, va, vb)| {
                    let s = |a: u32, b: u32| {
                        String::from_utf8_lossy(&text[a as usize..b as usize]).into_owned()
                    };
                    (s(ka, kb), s(va, vb))
                })
                .collect();
        }
        Vec::new()
    }

    /// The event's time.
    pub fn time(&mut self, text: &[u8]) -> Option<Ts> {
        if let Some(t) = self.time {
            return t;
        }
        let t = if matches!(self.fmt.parser, Parser::Analyser) {
            // The analyser's own reading (it skips `[`, `<PRI>` and a logfmt `time=`).
            if self.parses(text) {
                self.analyser.and_then(|a| a.0)
            } else {
                None
            }
        } else if let Some(f) = self.schema.time {
            let fmt = self.fmt.time_format;
            self.value(text, f)
                .and_then(|v| parse_time(v.as_bytes(), fmt))
        } else {
            None
        };
        let t = match (t, self.newest_day) {
            (Some(t), Some(y)) => Some(t.in_year(y)),
            (t, _) => t,
        };
        self.time = Some(t);
        t
    }
}

/// A value of a CSV-quoted field: captured with its quotes (a field in `quoted`), without
/// them and with `""` as `"`; cut from inside them (a field in `doubled`), with `""` as `"`.
fn csv_value<'a>(quoted: &[String], doubled: &[String], name: &str, v: &'a [u8]) -> Val<'a> {
    let listed = |fields: &[String]| fields.iter().any(|f| f == name);
    let wrapped = v.len() >= 2 && v.starts_with(b"\"") && v.ends_with(b"\"");
    if wrapped && listed(quoted) {
        undoubled(&v[1..v.len() - 1])
    } else if listed(doubled) {
        undoubled(v)
    } else {
        Val::Bytes(v)
    }
}

/// `v` with each `""` read as `"` (borrowed when it has none).
fn undoubled(v: &[u8]) -> Val<'_> {
    if memchr::memmem::find(v, b"\"\"").is_none() {
        return Val::Bytes(v);
    }
    Val::Text(Cow::Owned(String::from_utf8_lossy(v).replace("\"\"", "\"")))
}

fn trim_ascii(b: &[u8]) -> &[u8] {
    let s = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    let e = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(s, |p| p + 1);
    &b[s..e.max(s)]
}

/// The scalar at a key or a dotted path of a JSON event, as text.
fn json_value<'a>(m: &'a Map<String, Value>, key: &str) -> Option<Val<'a>> {
    super::json_path::scalar(super::json_path::dig(m, key)?).map(Val::Text)
}

#[cfg(test)]
mod spaced_tests {
    use super::parse_number;

    /// A message's duration with a space before its unit reads as a number; a Go
    /// duration never has one, so the strict reader keeps refusing it.
    #[test]
    fn a_spaced_duration_is_a_number() {
        let n = |s: &str| parse_number(s.as_bytes());
        assert_eq!(n("289 ms"), Some(0.289));
        assert_eq!(n("1.5 s"), Some(1.5));
        assert_eq!(n("-5 ms"), Some(-0.005));
        assert_eq!(n("1 m30s"), Some(90.0));
        assert_eq!(n(" 289 ms"), Some(0.289));
        assert_eq!(n("12 items"), None);
        assert_eq!(n("5 5s"), None);
        assert_eq!(super::super::go_duration::go_duration(b"289 ms"), None);
    }
}
