//! Line directives (`name args...`, `#` comments): Apache's `<Tag args>` ... `</Tag>`
//! sections nest them; without tags, lines indented under a column-0 line are its children
//! (HAProxy's `backend be_api` and its `server` lines); otherwise the file is flat
//! (redis.conf, mosquitto.conf, sshd_config).

use super::build::Arena;
use super::Node;

/// The words of a directive line: whitespace-separated, quotes grouping (and removed), a
/// `#` at the start of a word ending the line.
pub(super) fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut quoted = false;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') if cur.is_empty() => {
                quote = Some(c);
                quoted = true;
            }
            (None, '#') if cur.is_empty() => break,
            (None, c) if c.is_whitespace() => {
                if !cur.is_empty() || quoted {
                    out.push(std::mem::take(&mut cur));
                }
                quoted = false;
            }
            (None, c) => cur.push(c),
        }
    }
    if !cur.is_empty() || quoted {
        out.push(cur);
    }
    out
}

fn directive(ws: &[String], line: usize, text: &str) -> Node {
    let mut n = Node::new(&ws[0], line, text);
    n.args = ws[1..].to_vec();
    n.value = Some(n.args.join(" "));
    n
}

/// Parses the text; `None` when no line is a directive or it nests deeper than the cap.
pub(super) fn parse(text: &str) -> Option<Vec<Node>> {
    let tagged = text.lines().any(|l| l.trim_start().starts_with("</"));
    let mut arena = Arena::default();
    let mut open: Vec<usize> = Vec::new();
    // The column-0 line indented lines belong to (untagged files only).
    let mut section: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with(';') {
            continue;
        }
        if tagged {
            if let Some(name) = t.strip_prefix("</") {
                let name = name.trim_end_matches('>').trim();
                // Close up to the matching tag; a stray closing tag closes nothing.
                if let Some(pos) = open
                    .iter()
                    .rposition(|&b| arena.node(b).key.eq_ignore_ascii_case(name))
                {
                    for b in open.drain(pos..) {
                        arena.node(b).last_line = line;
                    }
                }
                continue;
            }
            if let Some(inner) = t.strip_prefix('<').and_then(|r| r.strip_suffix('>')) {
                let ws = words(inner);
                if ws.is_empty() {
                    continue;
                }
                let mut n = directive(&ws, line, raw);
                n.value = None;
                open.push(arena.push(open.last().copied(), n).ok()?);
                continue;
            }
        }
        let ws = words(t);
        if ws.is_empty() {
            continue;
        }
        let n = directive(&ws, line, raw);
        let parent = if tagged {
            open.last().copied()
        } else if raw.starts_with(char::is_whitespace) {
            section
        } else {
            None
        };
        let id = arena.push(parent, n).ok()?;
        if !tagged && !raw.starts_with(char::is_whitespace) {
            section = Some(id);
        }
    }
    (arena.len() > 0).then(|| arena.into_roots())
}
