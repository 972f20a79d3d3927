//! A table learned from a header row: a CSV, TSV or blank-separated export whose first row
//! names its columns (`ID,Date,Time,Description,IP Address,...`), possibly under a preamble
//! of notes. The columns become fields by their names (roles from the names, as for a JSON
//! key), the time is the column of times or a date column with the time column after it,
//! and only the rows are events: the notes and the header are not.

use std::fmt::Write as _;

use llmops_common::query::FieldKind;

use super::def::{compile, Format};
use crate::ts;

/// Separators tried, in order.
const SEPARATORS: [u8; 5] = [b',', b'\t', b';', b'|', b' '];
/// Fewest columns a header must name (more for blanks, which any sentence has).
const MIN_COLUMNS: usize = 3;
const MIN_COLUMNS_BLANK: usize = 5;
/// Lines searched for the header.
const HEADER_WITHIN: usize = 60;
/// Fewest rows under the header to learn from.
const MIN_ROWS: usize = 5;
/// Share (percent) of the records under the header that must be rows of its width.
const SHARE: usize = 90;
/// Longest column name.
const MAX_NAME: usize = 40;

/// The values of `line` split at `sep`; for `,`, a double-quoted value may hold it.
fn split(line: &str, sep: u8) -> Vec<&str> {
    let b = line.as_bytes();
    let (mut out, mut start, mut quoted) = (Vec::new(), 0, false);
    for (i, &c) in b.iter().enumerate() {
        if c == b'"' && sep != b' ' {
            quoted = !quoted;
        } else if c == sep && !quoted {
            out.push(&line[start..i]);
            start = i + 1;
        }
    }
    out.push(&line[start..]);
    out
}

/// A column name: letters first, at most [`MAX_NAME`] long, no more than four words.
fn is_name(n: &str) -> bool {
    let n = n.trim().trim_end_matches('.');
    n.len() <= MAX_NAME
        && n.starts_with(|c: char| c.is_ascii_alphabetic())
        && n.split_whitespace().count() <= 4
        && n.chars()
            .all(|c| c.is_ascii_alphanumeric() || " _-()./#".contains(c))
}

/// `IP Address` -> `IP_Address`, `log-status` -> `log_status`: a name a regex group and a
/// question can use.
fn field_name(raw: &str, taken: &[String]) -> String {
    let mut out = String::new();
    for c in raw.trim().trim_end_matches('.').chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else if !out.is_empty() && !out.ends_with('_') {
            out.push('_');
        }
    }
    let base = out.trim_end_matches('_').to_string();
    let (mut name, mut n) = (base.clone(), 2);
    while taken.contains(&name) || name == "time" {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// The records of `lines` at `sep`: for a quoting separator, a line whose double quote
/// is still open goes on into the next (a CSV value over several lines).
fn records(lines: &[&str], sep: u8) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in lines {
        match out.last_mut() {
            Some(last) if open => {
                last.push('\n');
                last.push_str(line);
            }
            _ => out.push((*line).to_string()),
        }
        if sep != b' ' {
            open ^= line.bytes().filter(|&b| b == b'"').count() % 2 == 1;
        }
    }
    // A record whose quote the sample's end cuts (Event Viewer's descriptions run over
    // dozens of lines) is no evidence against the table.
    if open {
        out.pop();
    }
    out
}

/// A table found by its header: the header's line, the separator, the names, the records
/// under it and whether they carry one unnamed value more (Event Viewer's message).
struct Found<'a> {
    sep: u8,
    names: Vec<&'a str>,
    rows: Vec<String>,
    extra: bool,
}

/// The header row and separator: the first line within [`HEADER_WITHIN`] whose values are
/// all names and under which nine records in ten have as many values (or all one more).
fn find_header<'a>(texts: &[&'a str]) -> Option<Found<'a>> {
    for (h, line) in texts.iter().enumerate().take(HEADER_WITHIN) {
        for sep in SEPARATORS {
            let names = split(line, sep);
            let least = if sep == b' ' {
                MIN_COLUMNS_BLANK
            } else {
                MIN_COLUMNS
            };
            if names.len() < least || !names.iter().all(|n| is_name(n)) {
                continue;
            }
            let below = records(&texts[h + 1..], sep);
            let width = |extra: usize| {
                below
                    .iter()
                    .filter(|r| {
                        split(r, sep).len() == names.len() + extra
                            && r.contains(|c: char| c.is_ascii_digit())
                    })
                    .count()
            };
            let (exact, more) = (width(0), width(1));
            let rows = exact.max(more);
            if rows >= MIN_ROWS && rows * 100 >= below.len() * SHARE {
                return Some(Found {
                    sep,
                    names,
                    rows: below,
                    extra: more > exact,
                });
            }
        }
    }
    None
}

/// Where the time is, best first: a column named for the time (`timestamp`, `start`)
/// whose values are times; a column of written timestamps; a date column and the clock
/// column right after it; a column of epoch numbers (an id of ten digits reads as one, so
/// it comes last). (first column, columns spanned, slashed date).
fn time_columns(rows: &[Vec<&str>], names: &[&str]) -> Option<(usize, usize, bool)> {
    let n = names.len();
    let all = |k: usize, f: &dyn Fn(&[u8]) -> bool| {
        rows.iter().filter(|r| f(r[k].trim().as_bytes())).count() * 100 >= rows.len() * SHARE
    };
    let whole = |v: &[u8], (_, e): (ts::Ts, usize)| e == v.len();
    let written = |v: &[u8]| ts::parse_at(v, 0).is_some_and(|t| whole(v, t));
    let slashed = |v: &[u8]| {
        [false, true]
            .iter()
            .any(|&day_first| ts::slash_date(v, 0, day_first).is_some_and(|t| whole(v, t)))
    };
    let epoch = |v: &[u8]| ts::epoch(v, 0).is_some_and(|t| whole(v, t));
    let any = |v: &[u8]| written(v) || slashed(v) || epoch(v);
    let named = |k: usize| super::roles::infer(names[k]).is_some_and(|i| i.role == "time");
    let one = |k: usize| Some((k, 1, all(k, &slashed) && !all(k, &written)));
    if let Some(k) = (0..n).find(|&k| named(k) && all(k, &any)) {
        return one(k);
    }
    if let Some(k) = (0..n).find(|&k| all(k, &written) || all(k, &slashed)) {
        return one(k);
    }
    let clock = |v: &[u8]| {
        let parts: Vec<&[u8]> = v.split(|&b| b == b':').collect();
        parts.len() == 3
            && parts.iter().all(|x| {
                let whole = x.iter().take_while(|b| b.is_ascii_digit()).count();
                (1..=2).contains(&whole)
                    && x[whole..].iter().all(|b| *b == b'.' || b.is_ascii_digit())
            })
    };
    let date = |v: &[u8]| {
        let parts: Vec<&[u8]> = v.split(|&b| b == b'-' || b == b'/').collect();
        parts.len() == 3
            && parts
                .iter()
                .all(|x| !x.is_empty() && x.iter().all(u8::is_ascii_digit))
    };
    if let Some(k) = (0..n.saturating_sub(1)).find(|&k| all(k, &date) && all(k + 1, &clock)) {
        let slash = rows.first().is_some_and(|r| r[k].contains('/'));
        return Some((k, 2, slash));
    }
    (0..n).find(|&k| all(k, &epoch)).and_then(one)
}

/// A character class of anything but `sep`, a quote and a line end.
fn not_sep(sep: u8) -> String {
    match sep {
        b' ' => r"[^ \n]".to_string(),
        b'\t' => r"[^\t\n]".to_string(),
        s => format!(r#"[^{}"\n]"#, regex::escape(&char::from(s).to_string())),
    }
}

/// The regex of one column's value, in group `name` (none for a column that is not a
/// field); `-` and an empty value are no value. A column some rows quote takes a value
/// quoted or bare (a CSV writer quotes only where a value needs it), captured with its
/// quotes, which the format's `quoted` list drops.
fn value_regex(sep: u8, quoted: bool, name: Option<&str>) -> String {
    let not = not_sep(sep);
    let inner = if quoted {
        format!(r#""(?:[^"]|"")*"|{not}+"#)
    } else {
        format!("{not}+")
    };
    match name {
        Some(n) => format!("(?:-|(?P<{n}>{inner}))?"),
        None => format!("(?:-|{inner})?"),
    }
}

/// The table of `lines` (a sample's non-empty lines) as a format, when a header row names
/// columns that the lines under it fill and one of them (or a date and a time) is the time.
pub fn learn_table(lines: &[&[u8]]) -> Option<Format> {
    let texts: Vec<&str> = lines
        .iter()
        .filter_map(|l| std::str::from_utf8(l).ok())
        .collect();
    let found = find_header(&texts)?;
    let (sep, names) = (found.sep, &found.names);
    let width = names.len() + usize::from(found.extra);
    let rows: Vec<Vec<&str>> = found
        .rows
        .iter()
        .map(|r| split(r, sep))
        .filter(|r| r.len() == width)
        .collect();
    let (tk, span, slash) = time_columns(&rows, names)?;
    let sep_s = char::from(sep).to_string();
    let day_first = slash && ts::day_first(rows.iter().map(|r| r[tk].trim().as_bytes()));
    // A date and a clock joined by the separator must still read as one time (`2026-03-29`
    // and `00:03:06` joined by a comma do not).
    let first = rows.first()?;
    let time_text = first[tk..tk + span].join(&sep_s);
    let declared = match (slash, day_first) {
        (false, _) => super::def::TimeFormat::Auto,
        (true, false) => super::def::TimeFormat::SlashMonthFirst,
        (true, true) => super::def::TimeFormat::SlashDayFirst,
    };
    super::event::parse_time(time_text.trim().as_bytes(), declared)?;
    // The time's written shape, so the header row (`Date,Time`) is not read as a row.
    let time_re = super::learn::shape(&time_text);
    let (re, start, fields, level) = row_regex(&rows, names, (sep, width), (tk, span), &time_re);
    let (split, quoted) = split_section(&rows, names, (sep, width), (tk, span), &time_re);
    let mut def = String::from("name = \"learned\"\ntitle = \"a table learned from its header row\"\npriority = -5\n\n[parse]\nkind = \"regex\"\nonly_rows = true\n");
    let _ = writeln!(
        def,
        "regex = '''{re}'''\ntime = \"time\"\nquoted = [{quoted}]"
    );
    if slash {
        let _ = writeln!(
            def,
            "time_format = \"{}\"",
            super::learn::slash_format(day_first)
        );
    }
    match &level {
        Some(l) => {
            let _ = writeln!(def, "level = \"{l}\"");
        }
        None => def.push_str("level = \"@analyser\"\n"),
    }
    // A quoted value over several lines: a record begins where a row's time is.
    if found.rows.iter().any(|r| r.contains('\n')) {
        let _ = writeln!(def, "\n[multiline]\nstart = '''{start}'''");
    }
    def.push_str(&fields);
    def.push_str(&split);
    compile("learned", &def).ok()
}

/// The `[split]` section that reads the rows of [`row_regex`] by their separator (the
/// same groups, by column), and the list of the columns some rows quote.
fn split_section(
    rows: &[Vec<&str>],
    names: &[&str],
    (sep, width): (u8, usize),
    (tk, span): (usize, usize),
    time_re: &str,
) -> (String, String) {
    let (mut cols, mut quoted, mut taken) = (Vec::new(), Vec::new(), Vec::new());
    for k in 0..width {
        if (tk..tk + span).contains(&k) {
            cols.push("\"@time\"".to_string());
            continue;
        }
        let name = field_name(names.get(k).copied().unwrap_or("message"), &taken);
        if rows.iter().any(|r| r[k].starts_with('"')) {
            quoted.push(format!("\"{name}\""));
        }
        cols.push(format!("\"{name}\""));
        taken.push(name);
    }
    let sep = match sep {
        b'\t' => "\\t".to_string(),
        b'"' | b'\\' => format!("\\{}", char::from(sep)),
        s => char::from(s).to_string(),
    };
    let quoted = quoted.join(", ");
    let section = format!(
        "\n[split]\nseparator = \"{sep}\"\ncolumns = [{}]\nquoted = [{quoted}]\ntime_shape = '''{time_re}'''\n",
        cols.join(", ")
    );
    (section, quoted)
}

/// The regex of a row of `width` values (the time at `tk`, over `span` columns; a value
/// past the names is the message), the regex of a record's start (up to its time), the
/// `[[fields]]` entries and the level column.
fn row_regex(
    rows: &[Vec<&str>],
    names: &[&str],
    (sep, width): (u8, usize),
    (tk, span): (usize, usize),
    time_re: &str,
) -> (String, String, String, Option<String>) {
    let sep_re = regex::escape(&char::from(sep).to_string());
    let (mut re, mut fields, mut taken) = (String::from("^"), String::new(), Vec::new());
    let mut start = String::from("^");
    let mut level = None;
    let mut k = 0;
    while k < width {
        if k > 0 {
            re.push_str(&sep_re);
            if k <= tk {
                start.push_str(&sep_re);
            }
        }
        let quoted = rows.iter().any(|r| r[k].starts_with('"'));
        if k == tk {
            let _ = write!(re, "(?P<time>{time_re})");
            start.push_str(time_re);
            k += span;
            continue;
        }
        if k < tk {
            start.push_str(&value_regex(sep, quoted, None));
        }
        let name = field_name(names.get(k).copied().unwrap_or("message"), &taken);
        re.push_str(&value_regex(sep, quoted, Some(&name)));
        fields.push_str(&field_entry(&name, rows.iter().map(|r| r[k]), &mut level));
        taken.push(name);
        k += 1;
    }
    re.push('$');
    (re, start, fields, level)
}

/// The `[[fields]]` entry of column `name` holding `values`: its role, kind and unit from
/// its name, as a JSON key's; the first level column is noted in `level`.
fn field_entry<'a>(
    name: &str,
    values: impl Iterator<Item = &'a str>,
    level: &mut Option<String>,
) -> String {
    let Some(inf) = super::roles::infer(name) else {
        return String::new();
    };
    if inf.role == "time" {
        return String::new();
    }
    if inf.role == "level" && level.is_none() {
        *level = Some(name.to_string());
    }
    let numeric = values
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "-")
        .all(|v| super::event::parse_number(v.as_bytes()).is_some());
    if !inf.fits(numeric) {
        return String::new();
    }
    let kind = match inf.kind {
        FieldKind::Integer | FieldKind::Number if !numeric => FieldKind::Text,
        FieldKind::Time => FieldKind::Text,
        k => k,
    };
    let quoted = |v: serde_json::Value| v.as_str().map(|s| format!("\"{s}\"")).unwrap_or_default();
    let kind = quoted(serde_json::to_value(kind).unwrap_or_default());
    let unit = quoted(serde_json::to_value(inf.unit).unwrap_or_default());
    format!(
        "\n[[fields]]\nname = \"{name}\"\nkind = {kind}\nunit = {unit}\nroles = [\"{}\"]\n",
        inf.role
    )
}
