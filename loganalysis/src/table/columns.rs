//! Header-declared columns (`kind = "w3c"`: W3C extended logs, Zeek): the columns a file's
//! `#Fields:` lines name become its fields, typed and given roles by the definition's
//! catalog of column names; and Go `time.Duration` text (`416µs`, `1m2.5s`) read as seconds.

use llmops_common::query::FieldKind;

use super::def::{FieldSpec, Format, Origin};
use super::event::Schema;

/// Seconds per unit of a Go duration, longest unit names first.
const GO_UNITS: &[(&str, f64)] = &[
    ("ns", 1e-9),
    ("us", 1e-6),
    ("\u{b5}s", 1e-6),
    ("\u{3bc}s", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
    ("m", 60.0),
    ("h", 3600.0),
];

/// A Go `time.Duration` string (`692µs`, `386.2ms`, `1m2.5s`, `-1.5h`) in seconds.
pub fn go_duration(b: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(b).ok()?.trim();
    let (sign, mut rest) = match s.strip_prefix('-') {
        Some(r) => (-1.0, r),
        None => (1.0, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest.is_empty() {
        return None;
    }
    let mut total = 0.0;
    while !rest.is_empty() {
        let n = rest
            .bytes()
            .take_while(|c| c.is_ascii_digit() || *c == b'.')
            .count();
        let v: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let (unit, scale) = GO_UNITS.iter().find(|(u, _)| rest.starts_with(u))?;
        total += v * scale;
        rest = &rest[unit.len()..];
    }
    Some(sign * total)
}

/// The column names of a sample's header lines, in the order first seen, and the columns of
/// the first data lines (the first header's, else the format's defaults).
fn sample_columns(fmt: &Format, lines: &[&[u8]]) -> (Vec<String>, Vec<String>) {
    let Some(c) = fmt.columns() else {
        return (Vec::new(), Vec::new());
    };
    let mut all: Vec<String> = Vec::new();
    let mut first: Option<Vec<String>> = None;
    let mut data_before_header = false;
    for l in lines {
        match c.header_names(l) {
            Some(names) => {
                let names: Vec<String> = names
                    .iter()
                    .map(|n| String::from_utf8_lossy(n).into_owned())
                    .collect();
                for n in &names {
                    if !all.contains(n) {
                        all.push(n.clone());
                    }
                }
                first.get_or_insert(names);
            }
            None if l.first() != Some(&b'#') && first.is_none() => data_before_header = true,
            None => {}
        }
    }
    let initial = match first {
        Some(f) if !data_before_header => f,
        _ => c.defaults.clone(),
    };
    for n in &initial {
        if !all.contains(n) {
            all.push(n.clone());
        }
    }
    (all, initial)
}

/// Adds the columns a sample declares to `schema` (with the time they make) and the
/// columns of its first data lines.
pub fn add_columns(fmt: &Format, lines: &[&[u8]], schema: &mut Schema) {
    let Some(c) = fmt.columns() else {
        return;
    };
    let (all, initial) = sample_columns(fmt, lines);
    for name in &all {
        if schema.index(name).is_some() {
            continue;
        }
        match c.known(name) {
            Some(spec) => {
                schema.fields.push(spec.clone());
                schema.examples.push(None);
            }
            // A column the catalog does not name: its role from its name, as for a key.
            None => schema.add_field_of(name, "", Origin::Column(name.clone())),
        }
    }
    let parts: Option<Vec<usize>> = c.time_columns.iter().map(|n| schema.index(n)).collect();
    match parts.as_deref() {
        Some([one]) => {
            schema.fields[*one].kind = FieldKind::Time;
            schema.time = Some(*one);
        }
        Some(parts) if parts.len() > 1 && schema.index("timestamp").is_none() => {
            schema.fields.push(FieldSpec {
                name: "timestamp".to_string(),
                kind: FieldKind::Time,
                unit: llmops_common::query::Unit::None,
                roles: vec!["time".to_string()],
                words: 0,
                awk: None,
                origin: Origin::ColumnTime(parts.to_vec()),
            });
            schema.examples.push(None);
            schema.time = Some(schema.fields.len() - 1);
        }
        _ => {}
    }
    schema.columns = initial.iter().map(|n| schema.index(n)).collect();
}

/// Directive lines of a sample that declares columns with the format's header: they are
/// the format's own lines (not events), and count as parsed in detection.
pub fn directive_lines(fmt: &Format, lines: &[&[u8]]) -> u64 {
    let Some(c) = fmt.columns() else {
        return 0;
    };
    if !lines.iter().any(|l| c.header_names(l).is_some()) {
        return 0;
    }
    lines.iter().filter(|l| l.first() == Some(&b'#')).count() as u64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_in_seconds() {
        let d = |s: &str| go_duration(s.as_bytes());
        assert_eq!(d("692µs"), Some(692e-6));
        assert_eq!(d("692us"), Some(692e-6));
        assert_eq!(d("386.2ms"), Some(0.3862));
        assert_eq!(d("7.412803s"), Some(7.412803));
        assert_eq!(d("1m2.5s"), Some(62.5));
        assert_eq!(d("1h0m0s"), Some(3600.0));
        assert_eq!(d("-3s"), Some(-3.0));
        assert_eq!(d("12"), None);
        assert_eq!(d("ms"), None);
        assert_eq!(d("5 s"), None);
        assert_eq!(d("INFO"), None);
    }
}
