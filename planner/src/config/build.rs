//! Building a tree: the arena the parsers fill (parents before children, no recursion),
//! and the shaping every format shares once parsed: list items named by their `name`,
//! `name`/`value` pairs read as one setting, `k=v` arguments and URLs split into parts,
//! block end lines.

use super::{Format, Node, Tree, MAX_DEPTH};

/// Nodes in creation order with their parents; a parent is always created before its
/// children.
#[derive(Default)]
pub(super) struct Arena {
    nodes: Vec<Node>,
    parent: Vec<Option<usize>>,
    depth: Vec<usize>,
}

/// The input nests deeper than `MAX_DEPTH`.
#[derive(Debug)]
pub(super) struct TooDeep;

impl Arena {
    /// Adds a node under `parent` (a root for `None`); its index.
    pub fn push(&mut self, parent: Option<usize>, node: Node) -> Result<usize, TooDeep> {
        let depth = parent.map_or(0, |p| self.depth[p] + 1);
        if depth > MAX_DEPTH {
            return Err(TooDeep);
        }
        self.nodes.push(node);
        self.parent.push(parent);
        self.depth.push(depth);
        Ok(self.nodes.len() - 1)
    }

    pub fn node(&mut self, i: usize) -> &mut Node {
        &mut self.nodes[i]
    }

    pub fn parent(&self, i: usize) -> Option<usize> {
        self.parent[i]
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Number of children `i` has so far.
    pub fn child_count(&self, i: usize) -> usize {
        self.parent.iter().filter(|p| **p == Some(i)).count()
    }

    /// The child of `parent` (a root for `None`) with this key, created last.
    pub fn find_child(&self, parent: Option<usize>, key: &str) -> Option<usize> {
        (0..self.nodes.len())
            .rev()
            .find(|&i| self.parent[i] == parent && self.nodes[i].key == key)
    }

    /// The roots, each with its children attached (children keep their order).
    pub fn into_roots(self) -> Vec<Node> {
        let mut nodes = self.nodes;
        let mut kids: Vec<Vec<Node>> = vec![Vec::new(); nodes.len()];
        let mut roots = Vec::new();
        // Children come after their parent: walking backwards, every child is moved into
        // its parent's list before the parent itself is moved.
        for i in (0..nodes.len()).rev() {
            let mut n = std::mem::take(&mut nodes[i]);
            let mut own = std::mem::take(&mut kids[i]);
            own.reverse();
            n.children.extend(own);
            match self.parent[i] {
                Some(p) => kids[p].push(n),
                None => roots.push(n),
            }
        }
        roots.reverse();
        roots
    }
}

/// Keys whose value names a list item (`- name: orders`).
const ITEM_NAMES: &[&str] = &["name", "id", "key", "title", "service", "job_name"];

/// Shapes a parsed tree for reading (see the module's first line).
pub(super) fn finish(tree: &mut Tree) {
    let format = tree.format;
    let mut stack: Vec<&mut Node> = tree.roots.iter_mut().collect();
    while let Some(n) = stack.pop() {
        shape(n, format);
        stack.extend(n.children.iter_mut());
    }
    for r in &mut tree.roots {
        set_last_line(r);
    }
}

fn shape(n: &mut Node, format: Format) {
    if n.item.is_some() {
        name_item(n);
    }
    if !n.children.is_empty() && !format.keyed() {
        // A directive with lines under it is a block: its arguments name it.
        n.value = None;
    }
    if n.children.is_empty() {
        let parts = if format.keyed() {
            n.value.as_deref().map(value_pairs).unwrap_or_default()
        } else {
            arg_pairs(&n.args)
        };
        let line = n.line;
        let text = n.text.clone();
        n.children = parts
            .into_iter()
            .map(|(k, v)| leaf(&k, &v, line, &text))
            .collect();
        if n.children.is_empty() {
            if let Some(url) = n.value.as_deref().and_then(url_parts) {
                n.children = url
                    .into_iter()
                    .map(|(k, v)| leaf(k, &v, line, &text))
                    .collect();
            }
        }
    }
}

fn leaf(key: &str, value: &str, line: usize, text: &str) -> Node {
    let mut n = Node::new(key, line, "");
    n.text = text.to_string();
    n.value = Some(value.to_string());
    n
}

/// A list item that names itself (`- name: orders`) takes the name as its argument; an
/// item of only a `name` and a `value` (a container's `env`) is that one setting.
fn name_item(n: &mut Node) {
    let scalar = |c: &Node, k: &str| c.key == k && c.children.is_empty() && c.value.is_some();
    if !n.args.is_empty() {
        return;
    }
    let Some(pos) = ITEM_NAMES
        .iter()
        .find_map(|k| n.children.iter().position(|c| scalar(c, k)))
    else {
        return;
    };
    let name = n.children[pos].value.clone().unwrap_or_default();
    if n.children[pos].key == "name" && n.children.len() == 2 {
        if let Some(v) = n.children.iter().position(|c| scalar(c, "value")) {
            n.value = n.children[v].value.clone();
            n.children.clear();
        }
    }
    n.args = vec![name];
}

/// `k=v` arguments of a directive (`max_fails=3`, `rate=40r/s`).
fn arg_pairs(args: &[String]) -> Vec<(String, String)> {
    args.iter().filter_map(|a| pair(a)).collect()
}

/// A value made only of `k=v` words (systemd's `Environment=A=1 B=2`).
fn value_pairs(value: &str) -> Vec<(String, String)> {
    let words: Vec<&str> = value.split_whitespace().collect();
    let pairs: Vec<(String, String)> = words.iter().filter_map(|w| pair(w)).collect();
    if pairs.len() == words.len() {
        pairs
    } else {
        Vec::new()
    }
}

fn pair(word: &str) -> Option<(String, String)> {
    let (k, v) = word.split_once('=')?;
    let ident = k.starts_with(|c: char| c.is_ascii_alphabetic())
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    (ident && !v.is_empty()).then(|| (k.to_string(), v.trim_matches('"').to_string()))
}

/// The parts of a URL value (`jdbc:postgresql://db:5433/orders`): scheme, user, host,
/// port, database. A password in it is never split out.
fn url_parts(value: &str) -> Option<Vec<(&'static str, String)>> {
    static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let r = R.get_or_init(|| {
        regex::Regex::new(
            r"^(?:jdbc:)?([A-Za-z][A-Za-z0-9+.\-]*)://(?:([^:@/\s]*)(?::[^@/\s]*)?@)?(\[[^\]]+\]|[^:/?#\s,@]+)(?::(\d{1,5}))?(?:/([^?#\s]*))?",
        )
        .expect("url regex literal is valid")
    });
    let c = r.captures(value.trim())?;
    let mut out = Vec::new();
    for (k, i) in [
        ("scheme", 1),
        ("user", 2),
        ("host", 3),
        ("port", 4),
        ("database", 5),
    ] {
        if let Some(v) = c.get(i).map(|m| m.as_str()).filter(|v| !v.is_empty()) {
            out.push((k, v.to_string()));
        }
    }
    Some(out)
}

fn set_last_line(n: &mut Node) {
    // Parsers cap the depth (`MAX_DEPTH`), so the recursion stays shallow.
    for c in &mut n.children {
        set_last_line(c);
    }
    let end = n.children.iter().map(|c| c.last_line).max().unwrap_or(0);
    n.last_line = n.last_line.max(end);
}
