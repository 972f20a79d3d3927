//! Keys of a JSON event: a dotted path read whole or through nested objects, a scalar as
//! text, and every leaf by its dotted path.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// The value at a dotted path, whose keys may hold dots themselves (ECS's `"log.level"`,
/// Cloud Logging's `"logging.googleapis.com/labels"` object): the whole path as one key,
/// else each split point from the left, its head a key whose object holds the rest.
pub(super) fn dig<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    if let Some(v) = m.get(key) {
        return Some(v);
    }
    key.match_indices('.')
        .find_map(|(i, _)| match m.get(&key[..i]) {
            Some(Value::Object(inner)) => dig(inner, &key[i + 1..]),
            _ => None,
        })
}

/// A value as text: none for `null`, a string as written, anything else as JSON.
pub(super) fn scalar(v: &Value) -> Option<Cow<'_, str>> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Bool(b) => Some(Cow::Borrowed(if *b { "true" } else { "false" })),
        Value::Number(n) => Some(Cow::Owned(n.to_string())),
        other => Some(Cow::Owned(other.to_string())),
    }
}

/// Leaf keys by dotted path.
pub(super) fn flatten(prefix: &str, m: &Map<String, Value>, out: &mut Vec<(String, String)>) {
    for (k, v) in m {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Value::Object(inner) if !inner.is_empty() => flatten(&key, inner, out),
            _ => out.push((key, scalar(v).map(Cow::into_owned).unwrap_or_default())),
        }
    }
}
