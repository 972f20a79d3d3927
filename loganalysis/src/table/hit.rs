//! A row kept for a result: the event's text (cut to a size a reader can take), its time
//! and the fields the query used.

use llmops_common::query::{FieldValue, Row};

use super::plan::{Plan, RowAccess};
use crate::ts::{self, Precision, Ts};

/// An event's text is cut here in rows.
pub const MAX_ROW_TEXT: usize = 800;

/// A multi-line event keeps this many lines in a row (a stack trace's head, a slow-query
/// entry's header and its statement).
pub const MAX_ROW_LINES: usize = 12;

/// A row kept for the result; `line` is part-relative until the part is merged.
#[derive(Debug, Clone)]
pub struct Hit {
    pub file: usize,
    pub line: u64,
    pub time: Option<Ts>,
    pub text: String,
    pub fields: Vec<FieldValue>,
}

impl Hit {
    pub fn into_row(self, files: &[String]) -> Row {
        Row {
            file: files.get(self.file).cloned(),
            line: self.line,
            time: self.time.map(|t| ts::format(&t, Precision::Full)),
            text: self.text,
            fields: self.fields,
            repeats: None,
        }
    }
}

/// Builds a hit from the current row.
pub fn make_hit(row: &mut dyn RowAccess, plan: &Plan, file: usize, line: u64) -> Hit {
    let whole = row.whole();
    let end = memchr::memchr_iter(b'\n', whole)
        .nth(MAX_ROW_LINES - 1)
        .unwrap_or(whole.len());
    let text = cut(&whole[..end], MAX_ROW_TEXT).trim_end().to_string();
    let time = row.time();
    let fields = plan
        .show
        .iter()
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
        fields,
    }
}

pub(super) fn cut(b: &[u8], max: usize) -> String {
    let mut end = b.len().min(max);
    while end < b.len() && end > 0 && (b[end] & 0xC0) == 0x80 {
        end -= 1;
    }
    String::from_utf8_lossy(&b[..end]).into_owned()
}
