//! A header table's rows split by their separator (memchr, a quote-aware scan) instead of
//! its row regex: the same values in the same capture slots, several times faster than
//! captures from the regex engine. The regex stays the format's definition (and the Perl
//! check's); a differential test holds the two to the same reading.

use regex::bytes::Regex;
use serde::Deserialize;

/// `[split]` of a format definition: how a row regex of separated columns reads, column
/// by column.
#[derive(Debug, Clone, Deserialize)]
pub struct SplitToml {
    /// One byte.
    pub separator: String,
    /// Each column's capture group by name: `@time` for the time's columns (consecutive,
    /// joined by the separator), `""` for a column that is no field.
    pub columns: Vec<String>,
    /// Columns whose values may be double-quoted (`""` inside is a quote).
    #[serde(default)]
    pub quoted: Vec<String>,
    /// The time's written shape (a regex of the whole time text).
    pub time_shape: String,
}

/// One column of a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Col {
    /// The first of the time's columns; how many they are.
    Time(usize),
    /// A value in capture slot `group` (none: no field); whether it may be quoted.
    Value { group: Option<usize>, quoted: bool },
}

/// The compiled splitter.
#[derive(Debug, Clone)]
pub struct Split {
    sep: u8,
    cols: Vec<Col>,
    time_group: usize,
    time_shape: Regex,
    slots: usize,
}

/// A slot no value filled.
pub const ABSENT: (u32, u32) = (u32::MAX, u32::MAX);

impl Split {
    /// Compiles `t` against the capture group names of the row regex (`names`, by index).
    pub fn compile(t: &SplitToml, names: &[Option<&str>]) -> Result<Split, String> {
        let [sep] = t.separator.as_bytes() else {
            return Err(format!("separator `{}` is not one byte", t.separator));
        };
        let group = |n: &str| names.iter().position(|x| *x == Some(n));
        let time_group = group("time").ok_or("the row regex has no `time` group")?;
        let mut cols = Vec::new();
        let mut i = 0;
        while i < t.columns.len() {
            let c = &t.columns[i];
            if c == "@time" {
                let span = t.columns[i..].iter().take_while(|x| *x == "@time").count();
                cols.push(Col::Time(span));
                i += span;
                continue;
            }
            let g = if c.is_empty() {
                None
            } else {
                Some(group(c).ok_or_else(|| format!("the row regex has no group `{c}`"))?)
            };
            cols.push(Col::Value {
                group: g,
                quoted: t.quoted.contains(c),
            });
            i += 1;
        }
        let time_shape =
            Regex::new(&format!("^(?:{})$", t.time_shape)).map_err(|e| e.to_string())?;
        Ok(Split {
            sep: *sep,
            cols,
            time_group,
            time_shape,
            slots: names.len(),
        })
    }

    /// Whether a byte ends an unquoted value: the separator, a line end, and (but for a
    /// blank separator) a quote, as the row regex's `[^sep"\n]` has it.
    fn stops(&self, b: u8) -> bool {
        b == self.sep || b == b'\n' || (b == b'"' && !matches!(self.sep, b' ' | b'\t'))
    }

    /// The end of the unquoted value starting at `at`.
    fn bare_end(&self, text: &[u8], at: usize) -> usize {
        text[at..]
            .iter()
            .position(|&b| self.stops(b))
            .map_or(text.len(), |p| at + p)
    }

    /// Splits `text` (one row, a quoted value may hold line ends) into `spans` by capture
    /// slot, [`ABSENT`] where no value is; false when the row regex would not match.
    pub fn split(&self, text: &[u8], spans: &mut Vec<(u32, u32)>) -> bool {
        spans.clear();
        spans.resize(self.slots, ABSENT);
        if std::str::from_utf8(text).is_err() || !self.from(text, 0, 0, spans) {
            return false;
        }
        // Slot 0 is the whole match, as a regex's.
        spans[0] = (0, text.len() as u32);
        true
    }

    /// Reads columns `k..` from `pos`. A quoted column is read quoted first, then bare,
    /// as the regex's alternation tries them (with a blank separator a bare value may hold
    /// a quote, and a quoted one the separator).
    fn from(&self, text: &[u8], k: usize, mut pos: usize, spans: &mut [(u32, u32)]) -> bool {
        let Some(col) = self.cols.get(k) else {
            return pos == text.len();
        };
        if k > 0 {
            if text.get(pos) != Some(&self.sep) {
                return false;
            }
            pos += 1;
        }
        match *col {
            Col::Time(span) => {
                let start = pos;
                for j in 0..span {
                    if j > 0 {
                        if text.get(pos) != Some(&self.sep) {
                            return false;
                        }
                        pos += 1;
                    }
                    pos = text[pos..]
                        .iter()
                        .position(|&b| b == self.sep || b == b'\n')
                        .map_or(text.len(), |p| pos + p);
                }
                if !self.time_shape.is_match(&text[start..pos]) {
                    return false;
                }
                spans[self.time_group] = (start as u32, pos as u32);
                self.from(text, k + 1, pos, spans)
            }
            Col::Value { group, quoted } => {
                if quoted && text.get(pos) == Some(&b'"') {
                    if let Some(close) = closing_quote(text, pos + 1) {
                        // With its quotes, as the row regex captures it.
                        if let Some(g) = group {
                            spans[g] = (pos as u32, (close + 1) as u32);
                        }
                        if self.from(text, k + 1, close + 1, spans) {
                            return true;
                        }
                        if let Some(g) = group {
                            spans[g] = ABSENT;
                        }
                    }
                }
                let end = self.bare_end(text, pos);
                // `-` and nothing are no value.
                let v = &text[pos..end];
                if let (Some(g), false) = (group, v.is_empty() || v == b"-") {
                    spans[g] = (pos as u32, end as u32);
                }
                if self.from(text, k + 1, end, spans) {
                    return true;
                }
                if let Some(g) = group {
                    spans[g] = ABSENT;
                }
                false
            }
        }
    }
}

/// The quote that closes a value whose text starts at `from` (`""` is a quote inside it).
fn closing_quote(text: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    loop {
        let q = i + memchr::memchr(b'"', &text[i..])?;
        if text.get(q + 1) == Some(&b'"') {
            i = q + 2;
            continue;
        }
        return Some(q);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::def::{Format, Parser};
    use crate::table::tests_formats::Lcg;

    /// A learned table from a header and sample rows.
    fn learned(text: &str) -> Option<Format> {
        let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        crate::table::learn_table::learn_table(&lines)
    }

    /// The row regex's captures of `row` by slot, as the splitter writes them.
    fn by_regex(fmt: &Format, row: &str) -> Option<Vec<(u32, u32)>> {
        let Parser::Regex(re) = &fmt.parser else {
            panic!("a regex format")
        };
        let mut locs = re.capture_locations();
        re.captures_read(&mut locs, row)?;
        Some(
            (0..locs.len())
                .map(|i| locs.get(i).map_or(ABSENT, |(a, b)| (a as u32, b as u32)))
                .collect(),
        )
    }

    fn by_split(fmt: &Format, row: &str) -> Option<Vec<(u32, u32)>> {
        let mut spans = Vec::new();
        let split = fmt.split.as_ref().expect("a learned table splits");
        split.split(row.as_bytes(), &mut spans).then_some(spans)
    }

    /// A random value for a column: plain, empty, `-`, quoted with `""` and separators
    /// inside, a stray quote, or a line end inside quotes.
    fn value(rng: &mut Lcg, sep: char) -> String {
        match rng.next(16) {
            0 => String::new(),
            1 => "-".into(),
            2 => "-5".into(),
            3 => format!("\"a{sep}b \"\"c\"\" d\""),
            4 => "\"open".into(),
            5 => "x\"y".into(),
            6 => "\"two\nlines\"".into(),
            7 => "\"q\"tail".into(),
            _ => format!("v{}", rng.next(100)),
        }
    }

    #[test]
    fn the_splitter_reads_every_row_as_the_row_regex_does() {
        let mut tables = 0;
        for sep in [',', '\t', ';', ' ', '|'] {
            let s = sep.to_string();
            let mut sample = ["time", "level", "user", "note", "message"].join(&s) + "\n";
            for i in 0..20 {
                let row = [
                    format!("2026-03-14T08:00:{i:02}Z"),
                    "INFO".into(),
                    format!("u{i}"),
                    "\"a_note\"".into(),
                    "\"hello_world\"".into(),
                ];
                sample += &(row.join(&s) + "\n");
            }
            let Some(fmt) = learned(&sample) else {
                continue;
            };
            tables += 1;
            let mut rng = Lcg(7 + sep as u64);
            let mut compared = 0;
            for i in 0..3000 {
                let n = if rng.next(4) == 0 {
                    4 + rng.next(3) as usize
                } else {
                    5
                };
                let mut cols: Vec<String> = (0..n).map(|_| value(&mut rng, sep)).collect();
                if rng.next(8) != 0 {
                    cols[0] = format!("2026-03-14T08:{:02}:{:02}Z", i % 60, i % 59);
                }
                let row = cols.join(&s);
                let (r, p) = (by_regex(&fmt, &row), by_split(&fmt, &row));
                assert_eq!(r, p, "separator {sep:?}, row {row:?}");
                compared += usize::from(r.is_some());
            }
            assert!(
                compared > 300,
                "separator {sep:?}: only {compared} rows matched"
            );
        }
        assert_eq!(tables, 5, "every separator makes a table");
    }
}
