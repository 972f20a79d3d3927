//! The YAML that configs are written in: `key: value` by indentation, `-` list items
//! (also on the key's own column and several on one line), flow `[a, b]` and `{a: 1}`
//! collections, `|` / `>` block scalars, `#` comments, several `---` documents (each a
//! list item named by its `kind` and `metadata.name`, as Kubernetes manifests are read).
//! Anchors and tags stay in the value as written.

use super::build::{Arena, TooDeep};
use super::ini::{depth_after, split_top, unquote};
use super::Node;

/// An open node lines may still add children to.
struct Frame {
    /// Column of its key, or of its `-`.
    col: usize,
    node: usize,
    /// A `key:` with nothing after it: list items may sit on its own column.
    open_key: bool,
}

struct Parser<'a> {
    lines: Vec<&'a str>,
    arena: Arena,
    stack: Vec<Frame>,
    doc: usize,
    docs: usize,
    keys: usize,
}

/// Parses the text; `None` when no line is a `key: value` or it nests deeper than the cap.
pub(super) fn parse(text: &str) -> Option<Vec<Node>> {
    let mut p = Parser {
        lines: text.lines().collect(),
        arena: Arena::default(),
        stack: Vec::new(),
        doc: 0,
        docs: 0,
        keys: 0,
    };
    p.new_doc(1).ok()?;
    let mut i = 0;
    while i < p.lines.len() {
        i = p.line(i).ok()?;
    }
    if p.keys == 0 {
        return None;
    }
    let docs = p.arena.into_roots();
    let docs: Vec<Node> = docs
        .into_iter()
        .filter(|d| !d.children.is_empty())
        .collect();
    Some(match <[Node; 1]>::try_from(docs) {
        Ok([one]) => one.children,
        Err(mut many) => {
            for (k, d) in many.iter_mut().enumerate() {
                d.item = Some(k);
                label_doc(d);
            }
            many
        }
    })
}

/// A document's name: its `kind` and `metadata.name` when it has them.
fn label_doc(d: &mut Node) {
    let scalar = |n: &Node, k: &str| {
        n.children
            .iter()
            .find(|c| c.key == k && c.children.is_empty())
            .and_then(|c| c.value.clone())
    };
    let kind = scalar(d, "kind");
    let name = d
        .children
        .iter()
        .find(|c| c.key == "metadata")
        .and_then(|m| scalar(m, "name"));
    d.args = kind.into_iter().chain(name).collect();
}

/// The line without its comment (a `#` at the start or after whitespace, outside quotes).
fn uncomment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut prev: Option<char> = None;
    for (i, c) in line.char_indices() {
        let after_space = prev.is_none_or(char::is_whitespace);
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if after_space || prev.is_some_and(|p| "-:[{,".contains(p)) => {
                quote = Some(c)
            }
            (None, '#') if after_space => return &line[..i],
            _ => {}
        }
        prev = Some(c);
    }
    line
}

/// Where `key:` ends in `s` (the colon's byte index): a colon followed by a space or the
/// end, outside quotes and brackets, after a key that starts like one.
fn key_colon(s: &str) -> Option<usize> {
    if s.starts_with(['[', '{', '&', '*', '!', '|', '>', '%', '@', '`']) {
        return None;
    }
    let mut quote: Option<char> = None;
    let mut depth = 0;
    let bytes = s.as_bytes();
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') if i == 0 => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ':')
                if depth == 0
                    && i > 0
                    && bytes.get(i + 1).is_none_or(|b| *b == b' ' || *b == b'\t') =>
            {
                return Some(i);
            }
            _ => {}
        }
    }
    None
}

impl Parser<'_> {
    fn new_doc(&mut self, line: usize) -> Result<(), TooDeep> {
        let mut d = Node::new("", line, "");
        d.item = Some(self.docs);
        self.doc = self.arena.push(None, d)?;
        self.docs += 1;
        self.stack.clear();
        Ok(())
    }

    /// Reads the line at `i` (and any lines its value continues on); the next line's index.
    fn line(&mut self, i: usize) -> Result<usize, TooDeep> {
        let raw = self.lines[i];
        let line = i + 1;
        let body = uncomment(raw).trim_end();
        let t = body.trim_start();
        if t.is_empty() || t.starts_with('%') {
            return Ok(i + 1);
        }
        if t.starts_with("---") || t == "..." {
            if t.starts_with("---") {
                self.new_doc(line)?;
            }
            return Ok(i + 1);
        }
        let mut col = body.len() - t.len();
        let mut rest = t;
        // `- ` items, several on one line (`- - a`, `- name: x`).
        while rest == "-" || rest.starts_with("- ") {
            self.close(col, true);
            let parent = self.parent();
            let count = self.arena.child_count(parent);
            let mut it = Node::new("", line, raw);
            it.item = Some(count);
            let id = self.arena.push(Some(parent), it)?;
            self.stack.push(Frame {
                col,
                node: id,
                open_key: false,
            });
            let after = rest[1..].trim_start();
            col += rest.len() - after.len();
            rest = after;
            if rest.is_empty() {
                return Ok(i + 1);
            }
        }
        match key_colon(rest) {
            Some(c) => self.key(i, col, &rest[..c], rest[c + 1..].trim()),
            None => Ok(self.scalar(i, col, rest)),
        }
    }

    /// Pops the frames a line at `col` is not inside (`item`: the line is a `-` item).
    fn close(&mut self, col: usize, item: bool) {
        while let Some(f) = self.stack.last() {
            let keep = f.col < col || (item && f.col == col && f.open_key);
            if keep {
                break;
            }
            self.stack.pop();
        }
    }

    fn parent(&self) -> usize {
        self.stack.last().map_or(self.doc, |f| f.node)
    }

    /// A `key: value` line (the key at `col`).
    fn key(&mut self, i: usize, col: usize, key: &str, value: &str) -> Result<usize, TooDeep> {
        self.close(col, false);
        let parent = self.parent();
        let raw = self.lines[i];
        let mut n = Node::new(unquote(key.trim()), i + 1, raw);
        self.keys += 1;
        let (value, next) = self.value(i, col, value);
        let open_key = value.is_empty();
        if !value.is_empty() && !is_anchor(&value) {
            n.value = Some(unquote(&value).to_string());
        }
        let flow = flow_children(&value, i + 1, raw);
        let id = self.arena.push(Some(parent), n)?;
        for c in flow {
            self.push_tree(id, c)?;
        }
        self.stack.push(Frame {
            col,
            node: id,
            open_key,
        });
        Ok(next)
    }

    /// A line with no key: a list item's value, or more of the value above it.
    fn scalar(&mut self, i: usize, col: usize, text: &str) -> usize {
        let (value, next) = self.value(i, col, text);
        if let Some(f) = self.stack.last() {
            let n = self.arena.node(f.node);
            if f.col <= col {
                let v = unquote(&value).to_string();
                n.value = Some(match n.value.take() {
                    Some(before) if n.item.is_none() => format!("{before} {v}"),
                    _ => v,
                });
            }
        }
        next
    }

    /// The value starting on line `i` (a block scalar or a flow collection may continue on
    /// later lines); the index of the line after it.
    fn value(&self, i: usize, col: usize, first: &str) -> (String, usize) {
        let mut next = i + 1;
        if first.starts_with(['|', '>']) {
            let mut parts = Vec::new();
            while let Some(l) = self.lines.get(next) {
                let ind = l.len() - l.trim_start().len();
                if !l.trim().is_empty() && ind <= col {
                    break;
                }
                parts.push(l.trim());
                next += 1;
            }
            return (parts.join(" ").trim().to_string(), next);
        }
        let mut v = first.to_string();
        if v.starts_with(['[', '{']) {
            while depth_after(&v) > 0 && next < self.lines.len() && next - i < 400 {
                v.push(' ');
                v.push_str(uncomment(self.lines[next]).trim());
                next += 1;
            }
        }
        (v, next)
    }

    fn push_tree(&mut self, parent: usize, mut n: Node) -> Result<(), TooDeep> {
        let kids = std::mem::take(&mut n.children);
        let id = self.arena.push(Some(parent), n)?;
        for k in kids {
            self.push_tree(id, k)?;
        }
        Ok(())
    }
}

/// `&name` alone: an anchor on a mapping, not a value.
fn is_anchor(v: &str) -> bool {
    v.starts_with('&') && !v.contains(char::is_whitespace)
}

/// The children a flow value holds: `[a, b]` items, `{k: v}` keys (one level; deeper
/// collections stay as written).
fn flow_children(value: &str, line: usize, raw: &str) -> Vec<Node> {
    let item = |k: usize, e: &str| {
        let mut it = Node::new("", line, raw);
        it.item = Some(k);
        it.value = Some(unquote(e).to_string());
        it
    };
    if let Some(inner) = value.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
        return split_top(inner)
            .iter()
            .enumerate()
            .map(|(k, e)| item(k, e))
            .collect();
    }
    if let Some(inner) = value.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        return split_top(inner)
            .iter()
            .filter_map(|e| {
                let c = key_colon(e)?;
                let mut n = Node::new(unquote(e[..c].trim()), line, raw);
                n.value = Some(unquote(e[c + 1..].trim()).to_string());
                Some(n)
            })
            .collect();
    }
    Vec::new()
}
