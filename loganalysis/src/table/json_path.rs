//! Keys of a JSON event: a dotted path read whole or through nested objects (and arrays
//! of objects), a scalar as text, and every leaf by its dotted path.

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
            Some(Value::Array(items)) => items.iter().find_map(|item| match item {
                Value::Object(inner) => dig(inner, &key[i + 1..]),
                _ => None,
            }),
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

/// Leaf keys by dotted path. An array of objects (tracing's `spans`, the spans an event
/// is in, outermost first) reads as one object of their keys, the first holding a key
/// giving its value (`spans.worker`), where no other key of the event ends in the same
/// name: tracing's `span.job_id` already says what `spans.job_id` would.
pub(super) fn flatten(prefix: &str, m: &Map<String, Value>, out: &mut Vec<(String, String)>) {
    let mut from_arrays = Vec::new();
    leaves(prefix, m, out, &mut from_arrays);
    let leaf = |k: &str| k.rsplit('.').next().unwrap_or(k).to_string();
    let named: Vec<String> = out.iter().map(|(k, _)| leaf(k)).collect();
    out.extend(
        from_arrays
            .into_iter()
            .filter(|(k, _)| !named.contains(&leaf(k))),
    );
}

/// Leaves of objects into `out`, those of arrays of objects into `arrays`.
fn leaves(
    prefix: &str,
    m: &Map<String, Value>,
    out: &mut Vec<(String, String)>,
    arrays: &mut Vec<(String, String)>,
) {
    for (k, v) in m {
        let key = if prefix.is_empty() {
            k.clone()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            Value::Object(inner) if !inner.is_empty() => leaves(&key, inner, out, arrays),
            Value::Array(items) if objects_only(items) => {
                for item in items.iter().filter_map(Value::as_object) {
                    let mut one = Vec::new();
                    leaves(&key, item, &mut one, arrays);
                    for (k, v) in one {
                        if !arrays.iter().any(|(m, _)| *m == k) {
                            arrays.push((k, v));
                        }
                    }
                }
            }
            _ => out.push((key, scalar(v).map(Cow::into_owned).unwrap_or_default())),
        }
    }
}

/// Whether an array holds objects and nothing else.
fn objects_only(items: &[Value]) -> bool {
    !items.is_empty() && items.iter().all(Value::is_object)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_of_objects_reads_as_their_keys_the_first_holding_one_winning() {
        let v: Value = serde_json::from_str(
            r#"{"span":{"job_id":"bk-1"},"spans":[{"worker":"w-umber","name":"worker"},{"job_id":"bk-1","name":"render_job"}],"tags":["a","b"]}"#,
        )
        .expect("json");
        let m = v.as_object().expect("object");
        let mut out = Vec::new();
        flatten("", m, &mut out);
        let get = |k: &str| out.iter().find(|(x, _)| x == k).map(|(_, v)| v.as_str());
        assert_eq!(get("spans.worker"), Some("w-umber"));
        // `span.job_id` says it: no second field of that name.
        assert_eq!(get("spans.job_id"), None);
        assert_eq!(get("spans.name"), Some("worker"));
        assert_eq!(get("tags"), Some(r#"["a","b"]"#));
        assert_eq!(dig(m, "spans.job_id").and_then(Value::as_str), Some("bk-1"));
        assert_eq!(dig(m, "spans.name").and_then(Value::as_str), Some("worker"));
    }
}
