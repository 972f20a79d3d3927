//! Fields a question asks that the sample of a JSON or logfmt log does not show: a key
//! that only later events have (bunyan's `err.name` in error lines past the first 64 KiB)
//! is looked for under every key the roles table lists for the role, or under the name
//! asked when it is no role, in every event, and the answer says so.

use llmops_common::query::FieldKind;

use super::def::{FieldSpec, Format, Origin, ParseKind};
use super::schema::Schema;

/// Adds to `schema` a field for each role in `wanted` it has no field for, when `fmt` reads
/// keys (JSON, logfmt); the names of the fields added.
pub fn add_role_keys(fmt: &Format, schema: &mut Schema, wanted: &[&str]) -> Vec<String> {
    if !matches!(fmt.kind, ParseKind::Json | ParseKind::Logfmt) {
        return add_line_keys(schema, wanted);
    }
    let mut added = Vec::new();
    for w in wanted {
        let bare = super::plan::bare_name(w);
        let has = schema.fields.iter().any(|f| {
            f.name.eq_ignore_ascii_case(w)
                || f.roles.iter().any(|r| r == w)
                || (!bare.is_empty() && super::plan::bare_name(&f.name) == bare)
        });
        // A stand-in the engine resolves the role to, by name or role (`component` for
        // `logger`), is the answer already.
        let fallback = super::roles::fallbacks(w).iter().any(|r| {
            schema
                .fields
                .iter()
                .any(|f| f.name == *r || f.roles.contains(r))
        });
        if has || fallback || added.iter().any(|a| a == w) {
            continue;
        }
        let Some((kind, unit, keys)) = super::roles::role_keys(w) else {
            // A key the sample did not show (one the upload's later lines hold): looked
            // for by its name in every event.
            let key_like = !w.is_empty()
                && w.len() <= 64
                && w.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
            if key_like {
                schema.add_field_of(w, "", Origin::AnyKey(vec![w.to_string()]));
                added.push(w.to_string());
            }
            continue;
        };
        schema.fields.push(FieldSpec {
            name: w.to_string(),
            kind,
            unit,
            roles: vec![w.to_string()],
            words: 1,
            awk: None,
            origin: Origin::AnyKey(keys),
        });
        schema.examples.push(None);
        added.push(w.to_string());
    }
    added
}

/// A key asked of a free-text log that writes `key=value` pairs in its messages, which its
/// sample does not show (`duration=` in a batch's messages that start past the head): read
/// as a pair of each event's first line. A log without such pairs keeps the unknown
/// field's error, which lists the fields it has.
fn add_line_keys(schema: &mut Schema, wanted: &[&str]) -> Vec<String> {
    let writes_pairs = schema
        .fields
        .iter()
        .any(|f| matches!(f.origin, Origin::InMessage { .. } | Origin::InLine(_)));
    let mut added = Vec::new();
    if !writes_pairs {
        return added;
    }
    for w in wanted {
        let has = schema
            .fields
            .iter()
            .any(|f| f.name.eq_ignore_ascii_case(w) || f.roles.iter().any(|r| r == w));
        let key_like = !w.is_empty()
            && w.len() <= 64
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_.-".contains(&b));
        // A role another field answers for (`endpoint` by `path`), and the event's text.
        let fallback = super::roles::fallbacks(w).iter().any(|r| {
            schema
                .fields
                .iter()
                .any(|f| f.name == *r || f.roles.contains(r))
        });
        let text = matches!(*w, "message" | "msg" | "event" | "line" | "text");
        if has || fallback || text || !key_like || added.iter().any(|a| a == w) {
            continue;
        }
        schema.add_field_of(w, "", Origin::InLine(w.to_string()));
        // Unseen, it may hold numbers: a statistic reads those, a word compares as text.
        if let Some(f) = schema.fields.last_mut().filter(|f| f.name == *w) {
            if f.kind == FieldKind::Text {
                f.kind = FieldKind::Number;
            }
        }
        added.push(w.to_string());
    }
    added
}

/// The note an answer carries for the fields of [`add_role_keys`].
pub fn note(added: &[String], schema: &Schema) -> Option<String> {
    let parts: Vec<String> = added
        .iter()
        .filter_map(|n| {
            let f = schema.fields.iter().find(|f| f.name == *n)?;
            match &f.origin {
                Origin::AnyKey(keys) => Some(format!("`{n}` ({})", keys.join(", "))),
                Origin::InLine(key) => Some(format!("`{n}` ({key}=)")),
                _ => None,
            }
        })
        .collect();
    (!parts.is_empty()).then(|| {
        format!(
            "抽样的事件里没有这些字段，已在每个事件中按所列的键查找 / not in the sampled events, so every event was searched for the keys listed: {}",
            parts.join("; ")
        )
    })
}
