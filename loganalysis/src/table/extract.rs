//! Fields a query defines from the events' text (`Query::extract`): each becomes a derived
//! field of the format, read by the engine and by the Perl pipeline like a format's own.

use llmops_common::query::{Extract, FieldKind, Unit};
use regex::Regex;

use super::def::{Derived, DerivedFrom, FieldSpec, Format, Origin};
use super::error::QueryError;
use super::schema::Schema;

/// `fmt` with the fields `extracts` define: a name must be a plain identifier (the Perl
/// pipeline names it) and the regex must compile.
pub fn with_extracts(fmt: Format, extracts: &[Extract]) -> Result<Format, QueryError> {
    let mut out = fmt;
    for x in extracts {
        let plain = x
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic())
            && x.name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !plain {
            return Err(QueryError::BadFilter(format!(
                "提取字段名 `{}` 只能由字母、数字和 _ 组成，且以字母开头 / extract name `{}` must be letters, digits and _, starting with a letter",
                x.name, x.name
            )));
        }
        let re = Regex::new(&x.regex).map_err(|e| QueryError::BadRegex {
            pattern: x.regex.clone(),
            message: e.to_string(),
        })?;
        let group = usize::from(re.captures_len() > 1);
        out.derived.push(Derived {
            from: DerivedFrom::Event,
            regex: re,
            groups: vec![(group, out.fields.len())],
        });
        out.fields.push(FieldSpec {
            name: x.name.clone(),
            kind: if x.numeric {
                FieldKind::Number
            } else {
                FieldKind::Text
            },
            unit: Unit::None,
            roles: Vec::new(),
            words: 1,
            awk: None,
            origin: Origin::Derived(vec![(out.derived.len() - 1, group)]),
        });
    }
    Ok(out)
}

/// Refuses an extract whose name the file's `schema` (read with the extracts) holds twice:
/// a field the log already has.
pub fn check_names(schema: &Schema, extracts: &[Extract]) -> Result<(), QueryError> {
    for x in extracts {
        let n = schema
            .fields
            .iter()
            .filter(|f| f.name.eq_ignore_ascii_case(&x.name))
            .count();
        if n > 1 {
            return Err(QueryError::BadFilter(format!(
                "提取字段名 `{}` 与日志已有的字段重名 / extract name `{}` is already a field of the log",
                x.name, x.name
            )));
        }
    }
    Ok(())
}
