//! `[section]` and `key = value` files: INI, systemd units (repeated keys kept), `.env`
//! (`export` dropped), `.properties` (`key: value`, `key value`, `\` continuations),
//! postgresql.conf-style flat files, and TOML (dotted `[a.b]` tables, `[[array]]` tables,
//! inline tables and arrays as children, multi-line arrays and strings).

use super::build::{Arena, TooDeep};
use super::{Node, MAX_DEPTH};

/// Parses the text (`toml`: dotted table names nest); `None` when no line is a setting
/// or it nests deeper than the cap.
pub(super) fn parse(text: &str, toml: bool) -> Option<Vec<Node>> {
    let lines: Vec<&str> = text.lines().collect();
    let mut arena = Arena::default();
    let mut section: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let line = i + 1;
        let (logical, used) = logical_line(&lines, i, toml);
        i += used;
        let t = logical.trim();
        if t.is_empty() || t.starts_with(['#', ';', '!']) {
            continue;
        }
        if let Some(name) = t.strip_prefix("[[").and_then(|r| r.split_once("]]")) {
            section = Some(array_table(&mut arena, name.0, line, raw).ok()?);
            continue;
        }
        if let Some((name, _)) = t.strip_prefix('[').and_then(|r| r.split_once(']')) {
            section = Some(table(&mut arena, name, toml, line, raw).ok()?);
            continue;
        }
        if let Some(n) = setting(t, line, raw, 0) {
            add_setting(&mut arena, section, n).ok()?;
        }
    }
    (arena.len() > 0).then(|| arena.into_roots())
}

/// One logical line from `lines[i]`: a TOML value continued until its brackets close or
/// its `"""` string ends, or a line ending in `\` joined with the next. Also returns how
/// many lines it took.
fn logical_line(lines: &[&str], i: usize, toml: bool) -> (String, usize) {
    let mut s = lines[i].to_string();
    let mut used = 1;
    loop {
        let open = if toml { unclosed(&s) } else { false };
        let cont = !toml && s.ends_with('\\') && !s.trim_start().starts_with('#');
        if !(open || cont) || i + used >= lines.len() || used > 400 {
            return (s, used);
        }
        if cont {
            s.pop();
            s.push_str(lines[i + used].trim_start());
        } else {
            s.push('\n');
            s.push_str(lines[i + used]);
        }
        used += 1;
    }
}

/// Whether a TOML line leaves a bracket or a `"""` / `'''` string open.
fn unclosed(s: &str) -> bool {
    let Some((_, value)) = s.split_once('=') else {
        return false;
    };
    if value.matches("\"\"\"").count() % 2 == 1 || value.matches("'''").count() % 2 == 1 {
        return true;
    }
    depth_after(value) > 0
}

/// Bracket depth at the end of `s`, outside quotes and comments.
pub(super) fn depth_after(s: &str) -> i32 {
    let mut depth = 0;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '#') => break,
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            _ => {}
        }
    }
    depth
}

fn section_node(name: &str, line: usize, raw: &str) -> Node {
    // git-style `[remote "origin"]`: the quoted part names the section.
    let (key, arg) = match name.split_once(char::is_whitespace) {
        Some((k, a)) => (k.trim(), Some(unquote(a.trim()).to_string())),
        None => (name.trim(), None),
    };
    let mut n = Node::new(key, line, raw);
    n.args = arg.into_iter().collect();
    n
}

/// `[name]`: a new section (INI), or the table at a dotted path (TOML).
fn table(a: &mut Arena, name: &str, toml: bool, line: usize, raw: &str) -> Result<usize, TooDeep> {
    if !toml {
        return a.push(None, section_node(name, line, raw));
    }
    let parts = dotted(name);
    let mut parent = None;
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        parent = Some(match a.find_child(parent, part) {
            // A `[[x]]` array seen before: `[x.y]` continues its last item.
            Some(c) if !last => last_item(a, c).unwrap_or(c),
            Some(c) => c,
            None => a.push(parent, Node::new(part, line, raw))?,
        });
    }
    Ok(parent.unwrap_or(0))
}

/// The last list item under `c`, if its children are items.
fn last_item(a: &mut Arena, c: usize) -> Option<usize> {
    (0..a.len())
        .rev()
        .find(|&i| a.parent(i) == Some(c))
        .filter(|&i| a.node(i).item.is_some())
}

/// `[[name]]`: a new item of the array of tables at that path.
fn array_table(a: &mut Arena, name: &str, line: usize, raw: &str) -> Result<usize, TooDeep> {
    let parts = dotted(name);
    let mut parent = None;
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        parent = Some(match a.find_child(parent, part) {
            Some(c) if !last => last_item(a, c).unwrap_or(c),
            Some(c) => c,
            None => a.push(parent, Node::new(part, line, raw))?,
        });
    }
    let list = parent.unwrap_or(0);
    let count = a.child_count(list);
    let mut item = Node::new("", line, raw);
    item.item = Some(count);
    a.push(Some(list), item)
}

/// A dotted TOML name's parts, quotes honoured (`a."b.c".d`).
fn dotted(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in name.trim().chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, '.') => out.push(std::mem::take(&mut cur).trim().to_string()),
            (None, c) => cur.push(c),
        }
    }
    out.push(cur.trim().to_string());
    out.retain(|p| !p.is_empty());
    out
}

/// A `key = value` (or `key: value`, `key value`, bare `key`) line as a node.
fn setting(t: &str, line: usize, raw: &str, depth: usize) -> Option<Node> {
    let t = t.strip_prefix("export ").unwrap_or(t).trim();
    let sep = separator(t);
    let (key, value) = match sep {
        Some(i) => (t[..i].trim(), Some(t[i + 1..].trim())),
        None => match t.split_once(char::is_whitespace) {
            Some((k, v)) => (k, Some(v.trim())),
            None => (t, None),
        },
    };
    let key = unquote(key);
    if key.is_empty() || key.starts_with(['[', '{', '<', '-']) {
        return None;
    }
    let mut n = Node::new(key, line, raw);
    if let Some(v) = value {
        let v = strip_comment(v).trim();
        n.value = Some(unquote(v).to_string());
        if depth >= MAX_DEPTH {
            // Nested past the cap: the value as written.
        } else if let Some(inner) = v.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            n.value = None;
            n.children = split_top(inner)
                .iter()
                .filter_map(|p| setting(p, line, raw, depth + 1))
                .collect();
        } else if let Some(inner) = v.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            n.children = items(inner, line, raw, depth + 1);
        }
    }
    Some(n)
}

/// An array's elements as list items (inline tables with their keys).
fn items(inner: &str, line: usize, raw: &str, depth: usize) -> Vec<Node> {
    split_top(inner)
        .iter()
        .enumerate()
        .map(|(k, e)| {
            let mut it = Node::new("", line, raw);
            it.item = Some(k);
            match e.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
                Some(t) => {
                    it.children = split_top(t)
                        .iter()
                        .filter_map(|p| setting(p, line, raw, depth + 1))
                        .collect()
                }
                None => it.value = Some(unquote(e).to_string()),
            }
            it
        })
        .collect()
}

/// Adds a parsed setting (with the children an inline table or array gave it) under the
/// section; the arena holds every node so the depth cap applies.
fn add_setting(a: &mut Arena, section: Option<usize>, mut n: Node) -> Result<(), TooDeep> {
    let kids = std::mem::take(&mut n.children);
    let id = a.push(section, n)?;
    for k in kids {
        add_setting(a, Some(id), k)?;
    }
    Ok(())
}

/// The first `=` or `:` outside quotes (whichever comes first).
fn separator(t: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in t.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if i == 0 => quote = Some(c),
            (None, '=' | ':') => return Some(i),
            (None, c) if c.is_whitespace() => {
                // `key value` with a separator later in the value is no `key=` line.
                return t[i..]
                    .trim_start()
                    .starts_with(['=', ':'])
                    .then(|| i + t[i..].find(['=', ':']).unwrap_or(0));
            }
            _ => {}
        }
    }
    None
}

/// The value without a trailing ` # comment` (outside quotes).
pub(super) fn strip_comment(v: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev_space = false;
    for (i, c) in v.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if i == 0 || prev_space => quote = Some(c),
            (None, '#' | ';') if prev_space => return &v[..i],
            _ => {}
        }
        prev_space = c.is_whitespace();
    }
    v
}

/// Splits at commas outside quotes and brackets.
pub(super) fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut depth = 0i32;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => {
                quote = None;
                cur.push(c);
            }
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                cur.push(c);
            }
            (None, '[' | '{') => {
                depth += 1;
                cur.push(c);
            }
            (None, ']' | '}') => {
                depth -= 1;
                cur.push(c);
            }
            (None, ',') if depth == 0 => out.push(std::mem::take(&mut cur)),
            (None, '\n') => cur.push(' '),
            (None, c) => cur.push(c),
        }
    }
    out.push(cur);
    out.into_iter()
        .map(|p| p.trim().to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// The text without one pair of surrounding quotes.
pub(super) fn unquote(s: &str) -> &str {
    for q in ["\"\"\"", "'''", "\"", "'"] {
        if s.len() >= 2 * q.len() && s.starts_with(q) && s.ends_with(q) {
            return &s[q.len()..s.len() - q.len()];
        }
    }
    s
}
