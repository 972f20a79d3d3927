//! YAML key paths: indentation, list items (named by their `name:`), block scalars.

use super::{dotted, KeyPath};

/// A YAML mapping key at the start of `s` (`key:` followed by a space or the end; quoted
/// keys unquoted) and the rest after the colon.
fn yaml_key(s: &str) -> Option<(&str, &str)> {
    let (key, rest) = if let Some(q) = s.strip_prefix('"').or_else(|| s.strip_prefix('\'')) {
        let close = q.find(['"', '\''])?;
        (&q[..close], q[close + 1..].strip_prefix(':')?)
    } else {
        let colon = s.find(':')?;
        (&s[..colon], &s[colon + 1..])
    };
    let ok = !key.is_empty()
        && key.len() <= 100
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || "_-./@$".contains(c));
    (ok && (rest.is_empty() || rest.starts_with([' ', '\t']))).then_some((key, rest.trim()))
}

pub(super) fn yaml_paths(text: &str) -> Vec<Option<KeyPath>> {
    // Open mappings: (indent of their keys' column, key).
    let mut stack: Vec<(usize, String)> = Vec::new();
    // Inside a block scalar (`|`, `>`): lines indented deeper than this are its text.
    let mut scalar_at: Option<usize> = None;
    let mut out = Vec::new();
    for line in text.lines() {
        let body = line.trim_start_matches(' ');
        let mut indent = line.len() - body.len();
        let content = body.trim_end();
        if content.is_empty() || content.starts_with('#') {
            out.push(None);
            continue;
        }
        if let Some(at) = scalar_at {
            if indent > at {
                out.push(None);
                continue;
            }
            scalar_at = None;
        }
        if content == "---" || content == "..." {
            stack.clear();
            out.push(None);
            continue;
        }
        // A list item's mapping starts after its dash: `- name: x` opens `name` at the
        // column after `- `, where its siblings (`image:`) stand. A new item closes
        // everything the previous one opened, its name included.
        let dash = content.starts_with("- ").then_some(indent);
        let mut item = content;
        while let Some(rest) = item.strip_prefix("- ") {
            indent += 2;
            item = rest.trim_start_matches(' ');
            indent += rest.len() - item.len();
        }
        let close = dash.map_or(indent, |d| d + 1);
        while stack.last().is_some_and(|(i, _)| *i >= close) {
            stack.pop();
        }
        let Some((key, value)) = yaml_key(item) else {
            out.push(None);
            continue;
        };
        out.push(Some(dotted(stack.iter().map(|(_, k)| k.as_str()), key)));
        if value.starts_with('|') || value.starts_with('>') {
            scalar_at = Some(indent);
        }
        // An item named by its first key (`- name: playback-api`) is a segment of its
        // keys' paths, one column left of them so that its siblings keep it:
        // `containers.playback-api.resources.limits.memory` tells the main container's
        // limit from its sidecar's, which share every key.
        if let Some(name) = dash.and_then(|_| item_name(key, value)) {
            stack.push((indent - 1, name.to_string()));
        }
        stack.push((indent, key.to_string()));
    }
    out
}

/// Keys whose value names a list item (k8s containers, env vars, ports and volumes;
/// compose-style and CI lists; Prometheus scrape jobs and alerting rules:
/// `scrape_configs.redis.static_configs.targets` says which job the targets are for).
/// Not `record`: a recording rule's name has colons (`job:errors:rate5m`), no identifier.
const ITEM_NAME_KEYS: &[&str] = &["name", "id", "key", "job_name", "alert"];

/// The name a list item's first key gives it: a short identifier, not a sentence (an
/// Ansible task's `- name: restart nginx` is a description).
fn item_name<'a>(key: &str, value: &'a str) -> Option<&'a str> {
    let v = value
        .split(" #")
        .next()
        .unwrap_or("")
        .trim()
        .trim_matches(['"', '\'']);
    let ok = ITEM_NAME_KEYS.contains(&key)
        && !v.is_empty()
        && v.len() <= 64
        && v.chars().all(|c| c.is_alphanumeric() || "_-./".contains(c));
    ok.then_some(v)
}
