//! Envelopes: JSON lines whose events carry a log line of another format in one key
//! (Docker's json-file driver: `{"log":"level=info msg=...\n","stream":"stdout","time":...}`).
//! The inner lines' format is detected from the sample's inner lines with the same registry,
//! and its fields become fields of the event.

use serde_json::Value;

use super::def::{Format, Origin};
use super::event::{trim_line, Inner, Schema};

/// The inner lines of a sample, one per line.
fn inner_head(key: &str, lines: &[&[u8]]) -> Vec<u8> {
    let mut head = Vec::new();
    for l in lines {
        let Ok(Value::Object(m)) = serde_json::from_slice::<Value>(l) else {
            continue;
        };
        if let Some(Value::String(s)) = m.get(key) {
            let line = trim_line(s.as_bytes());
            // One event per envelope: a multi-line text would read as several.
            if !line.is_empty() && !line.contains(&b'\n') {
                head.extend_from_slice(line);
                head.push(b'\n');
            }
        }
    }
    head
}

/// Adds the fields of an envelope's inner lines to `schema`: each inner field the envelope
/// does not have itself, the inner level as the event's level, and the inner message as the
/// message (the envelope's key keeps the whole line).
/// `detect` is the registry's detection of the inner lines (a format that parsed some of
/// them) and `parts` its schema of them: passed in, so this module needs no registry.
pub fn add_inner<'r>(
    detect: &dyn Fn(&[u8]) -> Option<&'r Format>,
    parts: fn(&Format, &[u8]) -> Schema,
    fmt: &Format,
    lines: &[&[u8]],
    schema: &mut Schema,
) {
    let Some(key) = fmt.envelope.as_deref() else {
        return;
    };
    let head = inner_head(key, lines);
    if head.is_empty() {
        return;
    }
    let Some(inner_fmt) = detect(&head) else {
        return;
    };
    // Plain text has nothing to add; an envelope inside an envelope is not followed.
    if inner_fmt.envelope.is_some() || inner_fmt.priority <= -100 {
        return;
    }
    let inner = parts(inner_fmt, &head);
    let inner_message = inner
        .fields
        .iter()
        .any(|f| f.roles.iter().any(|r| r == "message"));
    if inner_message {
        if let Some(outer) = schema.index(key) {
            schema.fields[outer].roles.retain(|r| r != "message");
        }
    }
    for (i, f) in inner.fields.iter().enumerate() {
        if schema.index(&f.name).is_some() {
            continue;
        }
        let mut spec = f.clone();
        spec.origin = Origin::Inner(i);
        schema.fields.push(spec);
        schema
            .examples
            .push(inner.examples.get(i).cloned().flatten());
        let at = schema.fields.len() - 1;
        if inner.level == Some(i) && schema.level.is_none() {
            schema.level = Some(at);
        }
    }
    schema.inner = Some(Box::new(Inner {
        fmt: inner_fmt.clone(),
        schema: inner,
    }));
}
