//! Key paths of block-structured configs: nginx-style brace blocks, HCL blocks, and
//! HAProxy-style sections (a header at the margin over indented directives).

use super::{dotted, is_name, strip_hash_comment, KeyPath};

/// `name args {` (trimmed): the block's path segment, its name and the words of its
/// arguments joined by `_` (`location /api/orders/ {` -> `location_api_orders`,
/// `upstream orders_api {` -> `upstream_orders_api`).
pub(super) fn block_opener(t: &str) -> Option<String> {
    let head = t.strip_suffix('{')?.trim();
    let mut parts = head.split_whitespace();
    let name = parts.next()?;
    if !is_name(name) {
        return None;
    }
    let mut seg = name.to_string();
    for w in parts.flat_map(|a| a.split(|c: char| !(c.is_alphanumeric() || c == '_'))) {
        if !w.is_empty() && seg.len() < 100 {
            seg.push('_');
            seg.push_str(w);
        }
    }
    Some(seg)
}

/// `directive args;` (trimmed): the directive's name.
pub(super) fn directive_key(t: &str) -> Option<&str> {
    let body = t.strip_suffix(';')?;
    let name = body.split_whitespace().next()?;
    (is_name(name) && !body.contains(['{', '}'])).then_some(name)
}

/// Brace blocks; `assign`: HCL, whose keys are `key = value` lines (and `//` comments).
pub(super) fn brace_paths(text: &str, assign: bool) -> Vec<Option<KeyPath>> {
    let mut stack: Vec<String> = Vec::new();
    let path = |stack: &[String], key: &str| dotted(stack.iter().map(String::as_str), key);
    text.lines()
        .map(|line| {
            let mut t = strip_hash_comment(line).trim();
            if assign && t.starts_with("//") {
                t = "";
            }
            if let Some(seg) = block_opener(t) {
                let p = path(&stack, &seg);
                stack.push(seg);
                return Some(p);
            }
            if t.starts_with('}') {
                stack.pop();
                return None;
            }
            let key = match assign {
                // `key = value` (not `==`), the key a name or a quoted one.
                true => t
                    .split_once('=')
                    .filter(|(_, v)| !v.starts_with('='))
                    .map(|(k, _)| k.trim().trim_matches('"'))
                    .filter(|k| is_name(k)),
                false => directive_key(t),
            };
            if let Some(key) = key {
                return Some(path(&stack, key));
            }
            // `location /x { stub_status; }` on one line: the block, not entered.
            let (head, _) = t.split_once('{')?;
            block_opener(&format!("{}{{", head.trim())).map(|seg| path(&stack, &seg))
        })
        .collect()
}

/// HAProxy's section keywords.
const STANZA_HEADS: &[&str] = &[
    "global",
    "defaults",
    "frontend",
    "backend",
    "listen",
    "userlist",
    "peers",
    "resolvers",
    "mailers",
    "cache",
    "program",
    "http-errors",
    "ring",
];

/// Directives named by their first two words (`timeout client`, `stats uri`).
const STANZA_PAIRS: &[&str] = &[
    "timeout",
    "stats",
    "option",
    "http-request",
    "http-response",
    "tcp-request",
    "tcp-response",
    "http-check",
    "tcp-check",
];

/// A section line: a keyword at the margin and at most one name after it
/// (`backend be_catalog`); its path segment (`backend_be_catalog`).
fn stanza_head(line: &str) -> Option<String> {
    if line.starts_with([' ', '\t']) {
        return None;
    }
    let mut words = strip_hash_comment(line).split_whitespace();
    let head = words.next().filter(|w| STANZA_HEADS.contains(w))?;
    let name = words.next();
    if words.next().is_some() || name.is_some_and(|n| !is_name(n)) {
        return None;
    }
    Some(match name {
        Some(n) => format!("{head}_{}", n.replace(['.', '-'], "_")),
        None => head.to_string(),
    })
}

/// Whether a text is written in sections (two section lines, each followed by an
/// indented line): `global` alone opens many other formats' text.
pub(super) fn stanzas(text: &str) -> bool {
    let mut heads = 0;
    let mut lines = text
        .lines()
        .filter(|l| !strip_hash_comment(l).trim().is_empty())
        .peekable();
    while let Some(l) = lines.next() {
        if stanza_head(l).is_some() && lines.peek().is_some_and(|n| n.starts_with([' ', '\t'])) {
            heads += 1;
            if heads == 2 {
                return true;
            }
        }
    }
    false
}

pub(super) fn stanza_paths(text: &str) -> Vec<Option<KeyPath>> {
    let mut section: Option<String> = None;
    text.lines()
        .map(|line| {
            if let Some(head) = stanza_head(line) {
                let p = dotted(std::iter::empty(), &head);
                section = Some(head);
                return Some(p);
            }
            let t = strip_hash_comment(line).trim();
            if !line.starts_with([' ', '\t']) || t.is_empty() {
                return None;
            }
            let mut words = t.split_whitespace();
            let first = words.next().filter(|w| is_name(w))?;
            let key = match words.next() {
                Some(second) if STANZA_PAIRS.contains(&first) && is_name(second) => {
                    format!("{first}_{second}")
                }
                _ => first.to_string(),
            };
            Some(dotted(section.iter().map(String::as_str), &key))
        })
        .collect()
}
