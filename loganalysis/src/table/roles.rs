//! Roles inferred from key names (`latency_ms` -> `duration` in ms), from the table in
//! `formats/roles.toml`.

use std::sync::OnceLock;

use llmops_common::query::{FieldKind, Unit};
use serde::Deserialize;

const TABLE: &str = include_str!("../../formats/roles.toml");

#[derive(Debug, Deserialize)]
struct SuffixToml {
    suffix: String,
    unit: Unit,
}

#[derive(Debug, Deserialize)]
struct RoleToml {
    role: String,
    #[serde(default = "text")]
    kind: FieldKind,
    #[serde(default)]
    unit: Unit,
    keys: Vec<String>,
}

fn text() -> FieldKind {
    FieldKind::Text
}

/// A role answered by another when a table has no field of its own for it.
#[derive(Debug, Deserialize)]
struct FallbackToml {
    role: String,
    to: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct TableToml {
    suffix: Vec<SuffixToml>,
    role: Vec<RoleToml>,
    #[serde(default)]
    fallback: Vec<FallbackToml>,
}

/// What a key name says about its field.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub role: String,
    pub kind: FieldKind,
    pub unit: Unit,
}

fn table() -> &'static TableToml {
    static T: OnceLock<TableToml> = OnceLock::new();
    // The table is compiled in and checked by a test: a parse failure is a build defect.
    T.get_or_init(|| toml::from_str(TABLE).expect("formats/roles.toml parses"))
}

/// Every role that has stand-ins.
pub fn fallback_roles() -> impl Iterator<Item = &'static String> {
    table().fallback.iter().map(|f| &f.role)
}

/// The roles that stand in for `role` when a table has no field for it, in order
/// (`endpoint` -> `path`: a path with its query string is still the endpoint asked for).
pub fn fallbacks(role: &str) -> &'static [String] {
    table()
        .fallback
        .iter()
        .find(|f| f.role == role)
        .map_or(&[], |f| f.to.as_slice())
}

/// The role a key name implies, with its kind and unit.
pub fn infer(key: &str) -> Option<Inferred> {
    let t = table();
    let lower = key.to_ascii_lowercase();
    let last = lower.rsplit('.').next().unwrap_or(&lower).to_string();
    let mut candidates = vec![(lower.clone(), None), (last.clone(), None)];
    for s in &t.suffix {
        if let Some(stem) = last.strip_suffix(s.suffix.as_str()) {
            if !stem.is_empty() {
                candidates.push((stem.to_string(), Some(s.unit)));
            }
        }
    }
    for r in &t.role {
        for k in &r.keys {
            let (name, unit) = match k.split_once(':') {
                Some((n, u)) => (n, unit_named(u)),
                None => (k.as_str(), None),
            };
            if let Some((_, suffix_unit)) = candidates.iter().find(|(c, _)| c == name) {
                let kind = if suffix_unit.is_some() && r.kind == FieldKind::Text {
                    FieldKind::Number
                } else {
                    r.kind
                };
                return Some(Inferred {
                    role: r.role.clone(),
                    kind,
                    unit: suffix_unit.or(unit).unwrap_or(r.unit),
                });
            }
        }
    }
    None
}

fn unit_named(s: &str) -> Option<Unit> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_keys_get_roles_and_units() {
        let i = infer("latency_ms").expect("latency_ms");
        assert_eq!((i.role.as_str(), i.unit), ("duration", Unit::Ms));
        assert_eq!(infer("request_time").expect("rt").unit, Unit::S);
        assert_eq!(infer("took").expect("took").unit, Unit::Ms);
        assert_eq!(infer("http.status_code").expect("status").role, "status");
        assert_eq!(infer("client_ip").expect("ip").role, "client");
        assert_eq!(infer("duration_us").expect("us").unit, Unit::Us);
        assert!(infer("payload").is_none());
    }
}
