//! How a node reads in an answer: its path (`payment-gateway.read-timeout-ms`,
//! `containers[orders].resources.limits.memory`, `upstream payment_backend › server`), its
//! value as set, the source line, secrets masked.

use super::find::{qualifiers, Index};
use super::Node;

/// Longest argument text shown in a block's label.
const LABEL_ARGS: usize = 48;
/// Most list items or children summarised in one value.
const SUMMARY_ITEMS: usize = 6;

/// A key (or a line) that sets a secret: its value is never shown.
pub fn secret_key(path: &str) -> bool {
    let p = path.to_lowercase();
    [
        "password",
        "passwd",
        "secret",
        "token",
        "api_key",
        "apikey",
        "private",
        "requirepass",
        "masterauth",
        "credential",
    ]
    .iter()
    .any(|k| p.contains(k))
}

/// The label of one node in a path.
fn label(n: &Node, keyed: bool, root: bool) -> String {
    if n.key.is_empty() {
        return match (n.args.is_empty(), root) {
            (false, true) => n.args.join(" "),
            (false, false) => format!("[{}]", n.args.join(" ")),
            (true, _) => format!("[{}]", n.item.unwrap_or(0)),
        };
    }
    if keyed && n.value.is_some() {
        return n.key.clone();
    }
    let args: &[String] = if n.value.is_none() {
        &n.args
    } else {
        qualifiers(&n.args)
    };
    let mut s = n.key.clone();
    for a in args {
        if s.len() + a.len() > n.key.len() + LABEL_ARGS {
            s.push_str(" …");
            break;
        }
        s.push(' ');
        s.push_str(a);
    }
    s
}

/// The path of an entry from the top of the file.
pub fn path(ix: &Index, e: usize) -> String {
    let keyed = ix.tree.format.keyed();
    let mut chain: Vec<usize> = ix.ancestors(e).collect();
    chain.reverse();
    chain.push(e);
    let mut out = String::new();
    for (i, &c) in chain.iter().enumerate() {
        let n = ix.entries[c].node;
        let root = i == 0;
        let l = label(n, keyed, root);
        if out.is_empty() {
            out = l;
            if root && n.key.is_empty() && !n.args.is_empty() && chain.len() > 1 {
                out.push_str(" ›");
            }
        } else if !keyed {
            out.push_str(" › ");
            out.push_str(&l);
        } else if n.key.is_empty() || out.ends_with('›') {
            if out.ends_with('›') {
                out.push(' ');
            }
            out.push_str(&l);
        } else {
            out.push('.');
            out.push_str(&l);
        }
    }
    out
}

/// The value an entry sets, as written: a directive's arguments after its qualifiers, a
/// list's items, a block's keys; `******` for a secret.
pub fn value(ix: &Index, e: usize) -> String {
    let n = ix.entries[e].node;
    if secret_key(&path(ix, e)) {
        return "******".to_string();
    }
    let keyed = ix.tree.format.keyed();
    match &n.value {
        Some(v) if keyed || n.key.is_empty() => v.clone(),
        Some(_) => n.args[qualifiers(&n.args).len()..].join(" "),
        None => {
            let parts: Vec<String> = n
                .children
                .iter()
                .take(SUMMARY_ITEMS)
                .map(|c| match (&c.value, c.key.is_empty()) {
                    (Some(v), true) => v.clone(),
                    _ => label(c, keyed, false),
                })
                .collect();
            let more = n.children.len().saturating_sub(SUMMARY_ITEMS);
            let mut s = parts.join(", ");
            if more > 0 {
                s.push_str(&format!(", … (+{more})"));
            }
            format!("{{{s}}}")
        }
    }
}

/// The source line of an entry, its value masked when it sets a secret.
pub fn source(ix: &Index, e: usize) -> String {
    let text = ix.entries[e].node.text.as_str();
    if !secret_key(&path(ix, e)) && !secret_key(text) {
        return text.to_string();
    }
    match text.find(['=', ':', ' ', '\t']) {
        Some(i) => format!("{} ******", text[..=i].trim_end()),
        None => "******".to_string(),
    }
}
