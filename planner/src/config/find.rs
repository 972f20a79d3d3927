//! Which node of a config tree a question asks for. Every question word is looked for in
//! a node's own key (the key asked for), in the names of the blocks around it (the
//! entity: `payment-gateway:`, `upstream payment_backend`, `containers[orders]`), in the
//! file's name, and in the values beside it. A node answers exactly when its key holds a
//! question word and no question word that names keys in this file (or that qualifies a
//! key, like `read` beside `timeout`) is missing from it and its blocks; otherwise the
//! best such nodes are only near matches, offered as "did you mean". Count and list
//! questions take every exact node (or the one container's children).

use super::words::{key_words, Question, Shape, Term};
use super::{Format, Node, Tree};

/// Weights of where a question word was found for a node.
const LEAF: f32 = 4.0;
const PATH: f32 = 2.0;
const FILE: f32 = 2.0;
const CONTEXT: f32 = 1.0;
/// A question word that names keys here but is missing from the node.
const MISSING: f32 = 3.0;
/// A word of the node's key that no question word asked for.
const EXTRA: f32 = 0.5;
/// A key that holds a length of time, when one is asked for: more than an extra word
/// costs (`RestartSec` before `Restart` for "how long before a restart").
const DURATION: f32 = 1.0;
/// Most near matches offered.
const NEAR_MAX: usize = 3;

/// One node with the words it is read by.
#[derive(Debug)]
pub struct Entry<'a> {
    pub node: &'a Node,
    pub parent: Option<usize>,
    pub children: Vec<usize>,
    /// Words of its key (and of a directive's qualifying arguments: `timeout connect`).
    leaf: Vec<String>,
    /// Its name's other words: a block's arguments, a list item's name, a dotted key's
    /// prefix (`spring.datasource` of `spring.datasource.url`).
    named: Vec<String>,
    /// Words of its own value.
    value: Vec<String>,
}

/// A tree's nodes in file order, with their words.
#[derive(Debug)]
pub struct Index<'a> {
    pub tree: &'a Tree,
    pub file: String,
    pub entries: Vec<Entry<'a>>,
    file_words: Vec<String>,
}

impl<'a> Index<'a> {
    pub fn new(tree: &'a Tree, filename: &str) -> Index<'a> {
        let mut entries: Vec<Entry<'a>> = Vec::new();
        let mut stack: Vec<(Option<usize>, &'a Node)> =
            tree.roots.iter().rev().map(|n| (None, n)).collect();
        while let Some((parent, node)) = stack.pop() {
            let id = entries.len();
            entries.push(entry(node, parent, tree.format));
            if let Some(p) = parent {
                entries[p].children.push(id);
            }
            stack.extend(node.children.iter().rev().map(|c| (Some(id), c)));
        }
        let stem = filename.rsplit('/').next().unwrap_or(filename);
        Index {
            tree,
            file: stem.to_string(),
            entries,
            file_words: key_words(stem),
        }
    }

    /// The ancestors of an entry, nearest first.
    pub fn ancestors(&self, e: usize) -> impl Iterator<Item = usize> + '_ {
        std::iter::successors(self.entries[e].parent, |&p| self.entries[p].parent)
    }

    /// Whether `a` is an ancestor of `e`.
    fn is_ancestor(&self, a: usize, e: usize) -> bool {
        self.ancestors(e).any(|x| x == a)
    }
}

fn entry<'a>(node: &'a Node, parent: Option<usize>, format: Format) -> Entry<'a> {
    let mut leaf = Vec::new();
    let mut named = Vec::new();
    if node.key.is_empty() {
        leaf.extend(node.args.iter().flat_map(|a| key_words(a)));
    } else {
        let (prefix, last) = match node.key.rsplit_once('.') {
            Some((p, l)) if !l.is_empty() => (p, l),
            _ => ("", node.key.as_str()),
        };
        leaf.extend(key_words(last));
        named.extend(key_words(prefix));
        let block = node.value.is_none();
        if block || format.keyed() {
            named.extend(node.args.iter().flat_map(|a| key_words(a)));
        } else {
            leaf.extend(qualifiers(&node.args).iter().flat_map(|a| key_words(a)));
        }
    }
    let value = node
        .value
        .as_deref()
        .filter(|_| node.children.is_empty() || node.item.is_some())
        .map(key_words)
        .unwrap_or_default();
    Entry {
        node,
        parent,
        children: Vec::new(),
        leaf,
        named,
        value,
    }
}

/// The arguments of a directive that say which setting it is (`connect` of `timeout
/// connect 4s`, `Host` of `proxy_set_header Host $host`): leading words of letters, never
/// the last argument (the value).
pub fn qualifiers(args: &[String]) -> &[String] {
    let n = args
        .iter()
        .take(args.len().saturating_sub(1))
        .take_while(|a| {
            a.starts_with(|c: char| c.is_ascii_alphabetic())
                && a.chars()
                    .all(|c| c.is_ascii_alphabetic() || c == '-' || c == '_')
        })
        .count();
    &args[..n]
}

/// Where a question word was found for one node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Leaf,
    Path,
    File,
    Context,
}

/// A node scored against the question.
#[derive(Debug, Clone, PartialEq)]
pub struct Hit {
    pub entry: usize,
    pub score: f32,
    /// Question words (indices) that name keys here and that the node lacks.
    pub missing: Vec<usize>,
}

/// What a tree says about a question.
#[derive(Debug, Clone, PartialEq)]
pub enum Found {
    /// The nodes that answer (several: ties for a value, every one for a count or list).
    Exact(Vec<Hit>),
    /// No node answers; these come nearest.
    Near(Vec<Hit>),
    /// No key holds any of the question's words.
    Nothing,
}

/// Per entry and per term, what matched (precomputed once per question).
struct Cover {
    /// The key holds the word.
    leaf: Vec<Vec<bool>>,
    /// The node's other names hold it.
    named: Vec<Vec<bool>>,
    /// Values of the node's scalar children hold it.
    child_values: Vec<Vec<bool>>,
    file: Vec<bool>,
    /// The word names keys or blocks somewhere in the file (or the file itself).
    key_known: Vec<bool>,
    /// Words of the key no question word asked for.
    extra: Vec<usize>,
}

fn cover(ix: &Index, terms: &[Term]) -> Cover {
    let any = |words: &[String], t: &Term| words.iter().any(|w| t.names(w));
    let n = ix.entries.len();
    let mut leaf = vec![vec![false; terms.len()]; n];
    let mut named = vec![vec![false; terms.len()]; n];
    let mut child_values = vec![vec![false; terms.len()]; n];
    let mut extra = vec![0; n];
    for (e, en) in ix.entries.iter().enumerate() {
        let joined = joined(&en.leaf);
        let mut used = vec![false; en.leaf.len()];
        for (k, t) in terms.iter().enumerate() {
            for (w, u) in en.leaf.iter().zip(used.iter_mut()) {
                if t.names(w) {
                    leaf[e][k] = true;
                    *u = true;
                }
            }
            leaf[e][k] |= any(&joined, t);
            named[e][k] = any(&en.named, t);
        }
        // A key written as one word (`maxmemory`, `maxconn`) holds several question words.
        for (w, u) in en.leaf.iter().zip(used.iter_mut()) {
            if let Some(ks) = glued(w, terms).filter(|_| !*u) {
                ks.into_iter().for_each(|k| leaf[e][k] = true);
                *u = true;
            }
        }
        extra[e] = used.iter().filter(|u| !**u).count();
        for &c in &en.children {
            let ce = &ix.entries[c];
            if ce.node.children.is_empty() {
                for (k, t) in terms.iter().enumerate() {
                    child_values[e][k] |= any(&ce.value, t);
                }
            }
        }
    }
    let file: Vec<bool> = terms.iter().map(|t| any(&ix.file_words, t)).collect();
    let key_known = (0..terms.len())
        .map(|k| file[k] || (0..n).any(|e| leaf[e][k] || named[e][k]))
        .collect();
    Cover {
        leaf,
        named,
        child_values,
        file,
        key_known,
        extra,
    }
}

/// Adjacent words of a key joined (`read`, `timeout` -> `readtimeout`), for a question
/// that types them as one word.
fn joined(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for n in 2..=3.min(words.len()) {
        for w in words.windows(n) {
            out.push(w.concat());
        }
    }
    out
}

/// The question words a key word is glued from (`maxmemory` from `max` and `memory`),
/// when it splits wholly into forms of them (2 pieces or more, each 2+ letters).
fn glued(word: &str, terms: &[Term]) -> Option<Vec<usize>> {
    if word.len() < 5 || !word.is_ascii() {
        return None;
    }
    let n = word.len();
    // reach[i]: the pieces (term indices) that spell word[..i].
    let mut reach: Vec<Option<Vec<usize>>> = vec![None; n + 1];
    reach[0] = Some(Vec::new());
    for i in 0..n {
        let Some(before) = reach[i].clone() else {
            continue;
        };
        for j in (i + 2)..=n {
            if reach[j].is_some() {
                continue;
            }
            let piece = &word[i..j];
            if let Some(k) = terms
                .iter()
                .position(|t| t.forms.binary_search(&piece.to_string()).is_ok())
            {
                let mut v = before.clone();
                v.push(k);
                reach[j] = Some(v);
            }
        }
    }
    reach[n].take().filter(|v| v.len() >= 2)
}

impl Cover {
    /// Where term `k` was found for entry `e`.
    fn level(&self, ix: &Index, e: usize, k: usize) -> Option<Level> {
        if self.leaf[e][k] {
            return Some(Level::Leaf);
        }
        if self.named[e][k] || ix.ancestors(e).any(|a| self.leaf[a][k] || self.named[a][k]) {
            return Some(Level::Path);
        }
        if self.file[k] {
            return Some(Level::File);
        }
        let ctx = self.child_values[e][k] || ix.ancestors(e).any(|a| self.child_values[a][k]);
        ctx.then_some(Level::Context)
    }
}

/// Scores one entry: `None` when its key holds no question word.
fn score(ix: &Index, cv: &Cover, q: &Question, e: usize) -> Option<Hit> {
    let levels: Vec<Option<Level>> = (0..q.terms.len()).map(|k| cv.level(ix, e, k)).collect();
    if !levels.contains(&Some(Level::Leaf)) {
        return None;
    }
    let mut score = -(cv.extra[e] as f32) * EXTRA;
    if q.duration && holds_duration(&ix.entries[e]) {
        score += DURATION;
    }
    let mut missing = Vec::new();
    for (k, l) in levels.iter().enumerate() {
        score += match l {
            Some(Level::Leaf) => LEAF,
            Some(Level::Path) => PATH,
            Some(Level::File) => FILE,
            Some(Level::Context) => CONTEXT,
            None => {
                let beside_key = [k.wrapping_sub(1), k + 1]
                    .iter()
                    .any(|&j| levels.get(j) == Some(&Some(Level::Leaf)));
                if cv.key_known[k] || (q.terms[k].keyish && beside_key) {
                    missing.push(k);
                    -MISSING
                } else {
                    0.0
                }
            }
        };
    }
    Some(Hit {
        entry: e,
        score,
        missing,
    })
}

/// Whether a key's words say it holds a length of time, or its value carries a time unit.
fn holds_duration(en: &Entry) -> bool {
    static UNIT: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let unit = UNIT.get_or_init(|| {
        regex::Regex::new(
            r"(?i)^\d+(\.\d+)?\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)$",
        )
        .expect("duration regex literal is valid")
    });
    let v = super::words::vocab();
    en.leaf.iter().any(|w| v.duration_key(w))
        || en
            .node
            .value
            .as_deref()
            .is_some_and(|x| unit.is_match(x.trim()))
}

/// Whether a node only groups others (a block, a section, a mapping).
fn is_block(n: &Node) -> bool {
    n.value.is_none() && !n.children.is_empty()
}

/// What the tree says about the question.
pub fn find(ix: &Index, q: &Question) -> Found {
    if q.terms.is_empty() {
        return Found::Nothing;
    }
    let cv = cover(ix, &q.terms);
    let hits: Vec<Hit> = (0..ix.entries.len())
        .filter_map(|e| score(ix, &cv, q, e))
        .collect();
    if hits.is_empty() {
        return Found::Nothing;
    }
    let exact: Vec<&Hit> = hits.iter().filter(|h| h.missing.is_empty()).collect();
    // A block that answers only because the key inside it does gives way to that key.
    let exact: Vec<Hit> = exact
        .iter()
        .filter(|h| !exact.iter().any(|d| ix.is_ancestor(h.entry, d.entry)))
        .map(|h| (*h).clone())
        .collect();
    if !exact.is_empty() {
        if q.shape != Shape::Value {
            return Found::Exact(exact);
        }
        let best = exact.iter().map(|h| h.score).fold(f32::MIN, f32::max);
        return Found::Exact(
            exact
                .into_iter()
                .filter(|h| h.score >= best - 0.01)
                .collect(),
        );
    }
    let mut near: Vec<Hit> = hits
        .into_iter()
        .filter(|h| q.shape != Shape::Value || !is_block(ix.entries[h.entry].node))
        .collect();
    near.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(a.missing.len().cmp(&b.missing.len()))
            .then(a.entry.cmp(&b.entry))
    });
    near.truncate(NEAR_MAX);
    if near.is_empty() {
        Found::Nothing
    } else {
        Found::Near(near)
    }
}

/// The items a count or list question is about, from its exact hits: one container in a
/// keyed file (`upstreams:`, `servers: [...]`) gives its children; one scalar gives
/// `None` (the value answers: `workers: 8`); anything else, the hits themselves (every
/// `server` line of `upstream x`, every `location` block).
pub fn items(ix: &Index, exact: &[Hit]) -> Option<Vec<usize>> {
    if let [one] = exact {
        let en = &ix.entries[one.entry];
        let n = en.node;
        let container = !n.key.is_empty()
            && !n.children.is_empty()
            && (n.value.is_none() || n.children.iter().all(|c| c.item.is_some()));
        let keyed = ix.tree.format.keyed();
        if keyed && container {
            return Some(en.children.clone());
        }
        // `worker_processes 4` answers "how many worker processes"; one `server` line is
        // one backend.
        let number = n
            .value
            .as_deref()
            .is_some_and(|v| v.trim().parse::<f64>().is_ok());
        if !is_block(n) && (keyed || number) {
            return None;
        }
    }
    Some(exact.iter().map(|h| h.entry).collect())
}
