//! A log's columns as a question can name them: the detected format's fields with their
//! roles, and the few values a text column takes, sampled from the head and from windows
//! spread over the whole file.

use std::path::Path;

use llmops_common::query::{Column, FieldKind};

use super::assemble::for_each_line;
use super::def::{FieldSpec, Format, Origin};
use super::event::{Extractor, Schema};
use super::registry::{each_event, reading, sample_lines, Registry};

/// Bytes in the head and in each later window of a [`Sample`].
pub const WINDOW: usize = 64 * 1024;

/// Windows read after the head of a large file, evenly spaced to its end.
const LATER_WINDOWS: u64 = 15;

/// What is read of a log to describe it: its head (format, fields, examples) and whole
/// lines from windows spread over the rest of the file (the values a column takes later).
#[derive(Debug, Clone, Default)]
pub struct Sample {
    /// The file's first [`WINDOW`] bytes.
    pub head: Vec<u8>,
    /// Whole lines from the windows after the head.
    pub rest: Vec<Vec<u8>>,
}

impl Sample {
    /// A sample of the head alone (a log read from memory, or short).
    pub fn head_only(head: Vec<u8>) -> Self {
        Sample {
            head,
            rest: Vec::new(),
        }
    }

    /// Reads the first [`WINDOW`] bytes of `path`, then the rest whole when it is at most
    /// [`LATER_WINDOWS`] windows long, else that many windows spread evenly to the end.
    pub fn read(path: &Path) -> std::io::Result<Self> {
        use std::io::{Read, Seek, SeekFrom};
        let mut file = std::fs::File::open(path)?;
        let len = file.metadata()?.len();
        let window = WINDOW as u64;
        let mut head = Vec::with_capacity(WINDOW);
        (&mut file).take(window).read_to_end(&mut head)?;
        let mut sample = Sample::head_only(head);
        let after = sample.head.len() as u64;
        if len <= after {
            return Ok(sample);
        }
        let spans: Vec<(u64, u64)> = if len - after <= LATER_WINDOWS * window {
            vec![(after, len - after)]
        } else {
            let last = len - window;
            (0..LATER_WINDOWS)
                .map(|i| (after + (last - after) * i / (LATER_WINDOWS - 1), window))
                .collect()
        };
        // Right after a head that ends a line, the first window starts one.
        let head_whole = sample.head.ends_with(b"\n");
        for (at, n) in spans {
            file.seek(SeekFrom::Start(at))?;
            let mut buf = Vec::with_capacity(n as usize);
            (&mut file).take(n).read_to_end(&mut buf)?;
            let starts_a_line = at == after && head_whole;
            sample
                .rest
                .push(whole_lines(buf, starts_a_line, at + n >= len));
        }
        Ok(sample)
    }
}

/// The whole lines of a window read from inside a file: without the line the window
/// starts in the middle of (unless it starts a line), and without the part line it stops
/// in (unless at the end).
fn whole_lines(mut buf: Vec<u8>, starts_a_line: bool, at_end: bool) -> Vec<u8> {
    if !at_end {
        let keep = memchr::memrchr(b'\n', &buf).map_or(0, |p| p + 1);
        buf.truncate(keep);
    }
    if !starts_a_line {
        let from = memchr::memchr(b'\n', &buf).map_or(buf.len(), |p| p + 1);
        buf.drain(..from);
    }
    buf
}

/// The fields of a log whose first bytes are `head`, as a question can name them: the
/// detected format's fields and the keys found in the sample. A field is numeric when its
/// values are numbers that measure something (not a status code, a pid, a port or an id).
pub fn columns(reg: &Registry, head: &[u8]) -> Vec<Column> {
    describe(reg, head).columns
}

/// A log as the planner sees it: its detected format's name and its [`columns`].
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Described {
    pub format: Option<String>,
    pub columns: Vec<Column>,
}

/// The detected format and the fields of a log whose first bytes are `head`.
pub fn describe(reg: &Registry, head: &[u8]) -> Described {
    describe_sample(reg, &Sample::head_only(head.to_vec()))
}

/// The detected format and the fields of a sampled log: the format and fields from its
/// head, each text column's few values from the head and the windows after it.
pub fn describe_sample(reg: &Registry, sample: &Sample) -> Described {
    let head = sample.head.as_slice();
    let det = reg.detect(head);
    if reg.formats().is_empty() {
        return Described::default();
    }
    let (fmt, schema) = reading(reg, det.chosen(reg).clone(), head, &[]);
    let fmt = &fmt;
    let schema = with_later_keys(fmt, schema, sample);
    // Only fields the sample has values for: a format's optional field that never
    // occurs, or a time field in a file without times, is not the log's. What a
    // multi-line format reads out of a stack trace (`exception`, `cause`) is its own even
    // when the first events hold no trace: traces come with the incident, later in the file.
    let mut cols: Vec<Column> = schema
        .fields
        .iter()
        .enumerate()
        .filter(|(i, f)| {
            schema.examples.get(*i).is_some_and(Option::is_some)
                || matches!(f.origin, Origin::Template(_))
                || (fmt.is_multiline() && matches!(f.origin, Origin::Derived(_)))
        })
        .map(|(i, f)| {
            let mut roles = f.roles.clone();
            for (special, at) in [("time", schema.time), ("level", schema.level)] {
                if at == Some(i) {
                    roles.push(special.to_string());
                }
            }
            Column {
                name: f.name.clone(),
                numeric: measures_something(f),
                roles,
                values: Vec::new(),
            }
        })
        .collect();
    // A role the log answers through another ("endpoint" by its path).
    let answered: Vec<String> = cols
        .iter()
        .flat_map(|c| c.roles.iter().chain(std::iter::once(&c.name)))
        .cloned()
        .collect();
    for role in super::roles::fallback_roles() {
        if answered.contains(role) {
            continue;
        }
        let by = super::roles::fallbacks(role);
        if let Some(c) = cols
            .iter_mut()
            .find(|c| by.iter().any(|b| c.name == *b || c.roles.contains(b)))
        {
            c.roles.push(role.clone());
        }
    }
    column_values(fmt, &schema, sample, &mut cols);
    Described {
        format: Some(fmt.name.clone()),
        columns: cols,
    }
}

/// Keys a JSON or logfmt log writes only later than its head (the `err=` and `backend=` of
/// an incident's lines): read from the sample's later windows, at most this many.
const LATER_KEYS: usize = 24;

/// `schema` with the keys the sample's later windows hold and its head does not, each with
/// an example value and no role; a query that names one reads it from every event.
fn with_later_keys(fmt: &Format, mut schema: Schema, sample: &Sample) -> Schema {
    let mut ex = Extractor::new(fmt, &schema);
    let mut found: Vec<(String, String)> = Vec::new();
    let mut later = Vec::new();
    for window in &sample.rest {
        let mut lines = Vec::new();
        for_each_line(window, |l| lines.push(l));
        later.extend(lines.iter().copied());
        each_event(fmt, &lines, &mut |ev| {
            ex.reset();
            for (k, v) in ex.keys(ev.text) {
                let known = schema.index(&k).is_some() || found.iter().any(|(f, _)| *f == k);
                if !known && found.len() < LATER_KEYS && !v.is_empty() {
                    found.push((k, v));
                }
            }
        });
    }
    // Named only as written: a rare key answering for a role (`addr` for a client) would
    // outrank the head's own field that a question names (`caller`).
    let before = schema.fields.len();
    for (k, v) in found {
        schema.add_key(&k, &llmops_common::truncate_chars(&v, 80));
    }
    // Pairs inside the messages of events the head does not show (a batch's `duration=`
    // lines that start past the first window).
    super::registry::add_message_keys(fmt, &later, &mut schema, super::registry::Keys::Measures);
    for f in &mut schema.fields[before..] {
        f.roles.clear();
    }
    schema
}

/// Most distinct values a column may take in the head and still list them.
const FEW_VALUES: usize = 16;

/// Most values a column listed from the head may reach with the rest of the sample; past
/// it the column is not a code after all, and keeps what the head showed.
const MORE_VALUES: usize = 2 * FEW_VALUES;

/// Fills each text column's `values` when the head shows it takes few (a flag, a code, a
/// jail's name): every distinct value, at most [`FEW_VALUES`], none over 64 bytes. The
/// windows after the head add the values that come later (the incident's error state, a
/// package removed at the end), up to [`MORE_VALUES`]: the head decides which columns are
/// codes, so a column the head shows as free text never lists values.
fn column_values(fmt: &Format, schema: &Schema, sample: &Sample, cols: &mut [Column]) {
    let wanted: Vec<Option<usize>> = cols
        .iter()
        .map(|c| {
            let id = schema.index(&c.name)?;
            let f = &schema.fields[id];
            let skip = c.numeric
                || matches!(f.kind, FieldKind::Time | FieldKind::Number)
                || matches!(f.origin, Origin::Template(_))
                || c.roles
                    .iter()
                    .any(|r| matches!(r.as_str(), "message" | "time"));
            (!skip).then_some(id)
        })
        .collect();
    let mut ex = Extractor::new(fmt, schema);
    let mut head: Vec<Option<Vec<String>>> = wanted.iter().map(|w| w.map(|_| Vec::new())).collect();
    add_values(
        fmt,
        &mut ex,
        &sample_lines(&sample.head),
        &wanted,
        &mut head,
        FEW_VALUES,
    );
    let mut all = head.clone();
    for window in &sample.rest {
        let mut lines = Vec::new();
        for_each_line(window, |l| lines.push(l));
        add_values(fmt, &mut ex, &lines, &wanted, &mut all, MORE_VALUES);
    }
    for ((c, all), head) in cols.iter_mut().zip(all).zip(head) {
        c.values = all.or(head).unwrap_or_default();
    }
}

/// Adds the distinct values `lines` hold to each listed column; a column that would pass
/// `cap` stops listing (`None`).
fn add_values(
    fmt: &Format,
    ex: &mut Extractor<'_>,
    lines: &[&[u8]],
    wanted: &[Option<usize>],
    seen: &mut [Option<Vec<String>>],
    cap: usize,
) {
    each_event(fmt, lines, &mut |ev| {
        ex.reset();
        for (slot, id) in seen.iter_mut().zip(wanted) {
            let (Some(vals), Some(id)) = (slot.as_mut(), id) else {
                continue;
            };
            let Some(v) = ex.value(ev.text, *id).map(|v| v.to_text()) else {
                continue;
            };
            if v.is_empty() || v == "-" || v.len() > 64 || vals.contains(&v) {
                continue;
            }
            if vals.len() == cap {
                *slot = None;
            } else {
                vals.push(v);
            }
        }
    });
}

fn measures_something(f: &FieldSpec) -> bool {
    const IDS: [&str; 6] = ["status", "pid", "port", "code", "id", "uid"];
    let lower = f.name.to_ascii_lowercase();
    let last = lower.rsplit(['.', '_', '-']).next().unwrap_or(&lower);
    // `userId`, `requestID`: camel case ids.
    let identifier = IDS.contains(&last)
        || f.name.ends_with("Id")
        || f.name.ends_with("ID")
        || f.roles.iter().any(|r| IDS.contains(&r.as_str()));
    matches!(f.kind, FieldKind::Integer | FieldKind::Number) && !identifier
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::builtin_registry;

    fn dpkg_line(i: usize, action: &str) -> String {
        format!(
            "2024-05-01 10:{:02}:{:02} {action} pkg{i}:amd64 1.{i} 1.{}\n",
            (i / 60) % 60,
            i % 60,
            i + 1
        )
    }

    fn values_of<'a>(d: &'a Described, name: &str) -> &'a [String] {
        &d.columns
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no column {name}: {:?}", d.columns))
            .values
    }

    /// A value that first occurs far past the head (the one `remove` at the end of a
    /// dpkg log of upgrades) is a value of its column; the head alone does not know it.
    #[test]
    fn a_value_seen_only_near_the_end_is_listed() {
        let mut text = String::new();
        let mut i = 0;
        while text.len() < 3 * 1024 * 1024 {
            text.push_str(&dpkg_line(
                i,
                if i % 2 == 0 { "upgrade" } else { "install" },
            ));
            i += 1;
        }
        text.push_str(&dpkg_line(i, "remove"));
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("dpkg.log");
        std::fs::write(&path, &text).expect("write");

        let sample = Sample::read(&path).expect("read");
        assert_eq!(sample.head.len(), WINDOW);
        assert_eq!(sample.rest.len(), LATER_WINDOWS as usize);
        assert!(sample.rest.iter().all(|w| w.ends_with(b"\n")));
        let whole = describe_sample(builtin_registry(), &sample);
        assert_eq!(whole.format.as_deref(), Some("dpkg"));
        let mut actions = values_of(&whole, "action").to_vec();
        actions.sort();
        assert_eq!(actions, ["install", "remove", "upgrade"]);

        let head = describe(builtin_registry(), &sample.head);
        assert!(!values_of(&head, "action").contains(&"remove".to_string()));
    }

    /// A column the head shows as a few codes but that takes many values later keeps the
    /// head's values (it is not a code column after all, and listing a growing sample of
    /// it would mislead); a small file is read whole after its head.
    #[test]
    fn a_column_with_many_later_values_keeps_the_heads() {
        let mut text = String::new();
        let mut i = 0;
        while text.len() < WINDOW + 1000 {
            text.push_str(&dpkg_line(i, ["upgrade", "install"][i % 2]));
            i += 1;
        }
        for k in 0..(MORE_VALUES + 5) {
            text.push_str(&dpkg_line(i, &format!("act{k}")));
            i += 1;
        }
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("dpkg.log");
        std::fs::write(&path, &text).expect("write");
        let sample = Sample::read(&path).expect("read");
        assert_eq!(sample.rest.len(), 1);
        let d = describe_sample(builtin_registry(), &sample);
        let mut actions = values_of(&d, "action").to_vec();
        actions.sort();
        assert_eq!(actions, ["install", "upgrade"]);
    }

    #[test]
    fn a_window_keeps_whole_lines_only() {
        assert_eq!(whole_lines(b"ab\ncd\nef".to_vec(), false, false), b"cd\n");
        assert_eq!(whole_lines(b"ab\ncd\nef".to_vec(), false, true), b"cd\nef");
        assert_eq!(
            whole_lines(b"ab\ncd\nef".to_vec(), true, false),
            b"ab\ncd\n"
        );
        assert_eq!(whole_lines(b"abcdef".to_vec(), false, false), b"");
    }
}
