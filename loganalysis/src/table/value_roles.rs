//! Roles read from a column's values when nothing names it: a headerless `|`-separated
//! line (`time|client|method|host|path|status|bytes|seconds`) whose columns are an address,
//! a method, a path, a status, a size and a duration by what they hold.

use llmops_common::query::{FieldKind, Unit};

/// Share (percent) of a column's values that must have the shape.
const SHARE: usize = 90;

const METHODS: [&str; 9] = [
    "GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS", "CONNECT", "TRACE",
];

/// A column's field as its values show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct ValueRole {
    pub name: &'static str,
    pub role: &'static str,
    pub kind: FieldKind,
    pub unit: Unit,
}

const fn role(name: &'static str, role: &'static str, kind: FieldKind, unit: Unit) -> ValueRole {
    ValueRole {
        name,
        role,
        kind,
        unit,
    }
}

fn is_int(v: &str) -> bool {
    !v.is_empty() && v.len() <= 15 && v.bytes().all(|b| b.is_ascii_digit())
}

fn is_status(v: &str) -> bool {
    v.len() == 3 && is_int(v) && (b'1'..=b'5').contains(&v.as_bytes()[0])
}

/// `0.280`, `12.5`: a duration in seconds as access logs write it.
fn is_decimal(v: &str) -> bool {
    v.split_once('.')
        .is_some_and(|(a, b)| is_int(a) && is_int(b) && b.len() <= 6)
}

/// `riders.example.com`, `db-2.internal:5432`: lower case, as host names are written (a
/// dotted `Ferry.Payments.Worker` is a logger).
fn is_host(v: &str) -> bool {
    v.contains('.')
        && v.chars().any(|c| c.is_ascii_lowercase())
        && v.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '.' | '-' | ':'))
}

/// The role of a column holding `values` (`-` and empty are no value), given the roles
/// the columns before it took: `None` when no shape holds for nine values in ten. A whole
/// number is a size only after a status (the access-log order), and one role goes to the
/// first column that shows it.
pub(super) fn by_values(values: &[&str], taken: &[&'static str]) -> Option<ValueRole> {
    let vals: Vec<&str> = values
        .iter()
        .map(|v| v.trim())
        .filter(|v| !v.is_empty() && *v != "-")
        .collect();
    if vals.is_empty() {
        return None;
    }
    let all =
        |f: &dyn Fn(&str) -> bool| vals.iter().filter(|v| f(v)).count() * 100 >= vals.len() * SHARE;
    let free = |r: &str| !taken.contains(&r);
    let found = if all(&|v| v.parse::<std::net::IpAddr>().is_ok()) {
        role("client", "client", FieldKind::Ip, Unit::None)
    } else if all(&|v| METHODS.contains(&v)) {
        role("method", "method", FieldKind::Text, Unit::None)
    } else if all(&|v| v.starts_with('/')) {
        role("path", "path", FieldKind::Text, Unit::None)
    } else if all(&is_status) && free("status") {
        role("status", "status", FieldKind::Integer, Unit::None)
    } else if all(&is_int) && !free("status") && free("bytes") {
        role("bytes", "bytes", FieldKind::Integer, Unit::B)
    } else if all(&is_decimal) {
        role("duration", "duration", FieldKind::Number, Unit::S)
    } else if all(&is_host) {
        role("host", "host", FieldKind::Text, Unit::None)
    } else {
        return None;
    };
    free(found.role).then_some(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_access_line_reads_by_its_values() {
        let cols: [&[&str]; 8] = [
            &["100.65.237.131", "100.110.109.50"],
            &["GET", "POST"],
            &["riders.example", "api.example"],
            &["/v2/riders/me", "/v2/jobs/next"],
            &["200", "503"],
            &["3282", "0"],
            &["0.280", "1.981"],
            &["0.280", "-"],
        ];
        let mut taken = Vec::new();
        let mut names = Vec::new();
        for c in cols {
            match by_values(c, &taken) {
                Some(r) => {
                    taken.push(r.role);
                    names.push(r.name);
                }
                None => names.push("-"),
            }
        }
        assert_eq!(
            names,
            ["client", "method", "host", "path", "status", "bytes", "duration", "-"]
        );
    }

    #[test]
    fn a_number_before_any_status_is_no_size() {
        assert_eq!(by_values(&["4121", "4127"], &[]), None);
        assert_eq!(by_values(&["INFO", "WARN"], &[]), None);
        assert_eq!(by_values(&["Ferry.Payments.Worker"], &[]), None);
    }
}
