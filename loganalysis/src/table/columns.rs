//! Header-declared columns (`kind = "w3c"`: W3C extended logs, Zeek): the columns a file's
//! `#Fields:` lines name become its fields, typed and given roles by the definition's
//! catalog of column names; and Go `time.Duration` text (`416µs`, `1m2.5s`) read as seconds.

use llmops_common::query::FieldKind;

use super::def::{FieldSpec, Format, Origin};
use super::event::Schema;

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
