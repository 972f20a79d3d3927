//! A row kept for a result: the event's text (cut to a size a reader can take), its time
//! and the fields the query used.

use llmops_common::query::{FieldValue, Row};

use super::plan::{Plan, RowAccess};
use crate::ts::{self, Precision, Ts};

/// An event's text is cut here in rows.
pub const MAX_ROW_TEXT: usize = 800;

/// A multi-line event keeps this many lines in a row (a stack trace's head, a slow-query
/// entry's header and its statement; a longer one its head, `…` and its last line).
pub const MAX_ROW_LINES: usize = 12;

/// A row kept for the result; `line` is part-relative until the part is merged.
#[derive(Debug, Clone)]
pub struct Hit {
    pub file: usize,
    pub line: u64,
    pub time: Option<Ts>,
    pub text: String,
    /// The event's lines in all.
    pub lines: u64,
    pub fields: Vec<FieldValue>,
}

impl Hit {
    pub fn into_row(self, files: &[String]) -> Row {
        Row {
            file: files.get(self.file).cloned(),
            line: self.line,
            time: self.time.map(|t| ts::format(&t, Precision::Full)),
            text: self.text,
            lines: self.lines,
            fields: self.fields,
            repeats: None,
        }
    }
}

/// Builds a hit from the current row.
pub fn make_hit(row: &mut dyn RowAccess, plan: &Plan, file: usize, line: u64) -> Hit {
    let whole = row.whole();
    let text = row_text(whole);
    let lines = memchr::memchr_iter(b'\n', trim_end(whole)).count() as u64 + 1;
    let time = row.time();
    let fields = plan
        .show
        .iter()
        .chain(&plan.carry)
        .filter_map(|f| {
            row.val(f.id).map(|v| FieldValue {
                name: f.name.clone(),
                value: v.to_text(),
            })
        })
        .collect();
    Hit {
        file,
        line,
        time,
        text,
        lines,
        fields,
    }
}

/// An event's text as a row keeps it: its first lines and, when it is longer, an elision
/// and its last line (a Python traceback names its exception there), within
/// [`MAX_ROW_TEXT`] bytes.
pub(super) fn row_text(whole: &[u8]) -> String {
    let whole = trim_end(whole);
    let lines = memchr::memchr_iter(b'\n', whole).count() + 1;
    if lines <= MAX_ROW_LINES {
        return cut(whole, MAX_ROW_TEXT).trim_end().to_string();
    }
    let last_start = memchr::memrchr(b'\n', whole).map_or(0, |p| p + 1);
    let head_end_at = |n: usize| {
        memchr::memchr_iter(b'\n', whole)
            .nth(n)
            .unwrap_or(whole.len())
    };
    // psycopg2 writes the statement and a caret after a traceback's exception line: the
    // exception is kept beside the last line, in place of one line of the head.
    let middle = whole
        .get(head_end_at(MAX_ROW_LINES - 4)..last_start)
        .unwrap_or_default();
    let exception = exception_line(middle);
    let head_end = head_end_at(MAX_ROW_LINES - 3 - usize::from(exception.is_some()));
    let exception = exception
        .map(|l| format!("{}\n", cut(l, MAX_ROW_TEXT / 3).trim_end()))
        .unwrap_or_default();
    let last = format!("{exception}{}", cut(&whole[last_start..], MAX_ROW_TEXT / 3));
    let room = MAX_ROW_TEXT.saturating_sub(last.len() + "\n…\n".len());
    let head = cut(&whole[..head_end], room);
    format!("{}\n…\n{}", head.trim_end(), last.trim_end())
}

/// The last line of `text` that names an exception at the start of the line, as a Python
/// traceback ends (`psycopg2.errors.UndefinedColumn: column …`, `ValueError: …`), or a JVM
/// trace's root cause (its last `Caused by: javax.net.ssl.SSLHandshakeException: …`).
fn exception_line(text: &[u8]) -> Option<&[u8]> {
    text.split(|&b| b == b'\n').rev().find(|l| {
        let l = l.trim_ascii_start();
        let l = l.strip_prefix(b"Caused by: ").unwrap_or(l);
        let name_end = l.iter().position(|&b| b == b':').unwrap_or(0);
        let name = &l[..name_end];
        name.first().is_some_and(u8::is_ascii_alphabetic)
            && name
                .iter()
                .all(|&b| b.is_ascii_alphanumeric() || b == b'.' || b == b'_')
            && (name.contains(&b'.') || name.ends_with(b"Error") || name.ends_with(b"Exception"))
    })
}

fn trim_end(b: &[u8]) -> &[u8] {
    let end = b
        .iter()
        .rposition(|c| !c.is_ascii_whitespace())
        .map_or(0, |p| p + 1);
    &b[..end]
}

pub(super) fn cut(b: &[u8], max: usize) -> String {
    let mut end = b.len().min(max);
    while end < b.len() && end > 0 && (b[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    String::from_utf8_lossy(&b[..end]).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_trace_keeps_its_head_and_its_last_line() {
        let mut t = String::from("[2032-02-17 01:24:11 +0000] [17] [ERROR] Exception on /v1/x [POST]\nTraceback (most recent call last):\n");
        for i in 0..20 {
            t += &format!("  File \"/srv/app/m{i}.py\", line {i}, in f\n    g()\n");
        }
        t += "psycopg2.OperationalError: FATAL:  password authentication failed for user \"rx\"\n";
        let row = row_text(t.as_bytes());
        assert!(row.starts_with("[2032-02-17 01:24:11 +0000]"), "{row}");
        assert!(
            row.ends_with("password authentication failed for user \"rx\""),
            "{row}"
        );
        assert_eq!(row.lines().count(), MAX_ROW_LINES, "{row}");
        assert!(row.len() <= MAX_ROW_TEXT, "{}", row.len());
        // A short event stays as it is.
        assert_eq!(row_text(b"one\ntwo\n"), "one\ntwo");
    }

    #[test]
    fn an_exception_line_before_the_last_is_kept() {
        let mut t = String::from("[2031-03-02 04:10:09 +0000] [77] [ERROR] Exception on /api/orders [POST]\nTraceback (most recent call last):\n");
        for i in 0..20 {
            t += &format!("  File \"/srv/app/m{i}.py\", line {i}, in f\n    g()\n");
        }
        t += "psycopg2.errors.UndefinedColumn: column \"region_code\" of relation \"orders\" does not exist\nLINE 1: INSERT INTO orders (customer, region_code) VALUES\n                                  ^\n";
        let row = row_text(t.as_bytes());
        assert!(
            row.contains("\npsycopg2.errors.UndefinedColumn: column"),
            "{row}"
        );
        assert!(row.ends_with('^'), "{row}");
        assert_eq!(row.lines().count(), MAX_ROW_LINES, "{row}");
        assert!(!row.contains("LINE 1"), "{row}");
    }

    #[test]
    fn a_jvm_traces_root_cause_is_kept() {
        let mut t = String::from("Feb 08, 2035 1:18:40 AM com.example.LabClient submit\nSEVERE: submission failed\ncom.example.LabSubmissionException: TLS handshake failed\n");
        for i in 0..10 {
            t += &format!("\tat com.example.C{i}.m(C{i}.java:{i})\n");
        }
        t += "Caused by: javax.net.ssl.SSLHandshakeException: PKIX path building failed\n";
        for i in 0..10 {
            t += &format!("\tat sun.security.D{i}.m(D{i}.java:{i})\n");
        }
        t += "\t... 12 more\n";
        let row = row_text(t.as_bytes());
        assert!(
            row.contains("\nCaused by: javax.net.ssl.SSLHandshakeException: PKIX"),
            "{row}"
        );
        assert!(row.ends_with("... 12 more"), "{row}");
    }
}
