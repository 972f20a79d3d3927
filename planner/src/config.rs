//! Config files as trees: one node type for every format an operator uploads (nginx-style
//! blocks, Apache sections, HAProxy and redis-style directives, YAML, JSON, TOML, INI,
//! `.properties`, `.env`, systemd units), detected by content with the file name as a
//! hint, and the questions asked of them (`find`: the node that holds the key asked for,
//! the nearest keys when none does, a block's children). Pure: text in, tree out; input
//! that is no config gives no tree, never a panic.

mod brace;
mod build;
mod detect;
mod directive;
pub mod find;
mod ini;
mod json;
pub mod show;
pub mod words;
mod yaml;

#[cfg(test)]
mod tests;

pub use detect::detect;

/// Deepest nesting a parser accepts: deeper input is no config this reader handles (and
/// every walk over a tree stays shallow).
pub const MAX_DEPTH: usize = 48;

/// The syntax a file was read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// `name args { ... }` blocks and `name args;` statements (nginx, keepalived).
    Brace,
    /// Line directives, nested by `<Tag args>` sections (Apache) or by indentation under a
    /// column-0 line (HAProxy); flat otherwise (redis.conf, mosquitto.conf).
    Directive,
    Yaml,
    Json,
    Toml,
    /// `[section]` and `key=value` / `key: value` lines (INI, `.properties`, `.env`,
    /// systemd units, postgresql.conf).
    Ini,
}

impl Format {
    /// Whether keys and values are written `key = value` (or `key: value`), so a path reads
    /// `a.b.c`; directive formats write `key args`, and their path reads `a › b`.
    pub fn keyed(self) -> bool {
        matches!(
            self,
            Format::Yaml | Format::Json | Format::Toml | Format::Ini
        )
    }

    pub fn name(self) -> &'static str {
        match self {
            Format::Brace => "nginx-style blocks",
            Format::Directive => "directives",
            Format::Yaml => "YAML",
            Format::Json => "JSON",
            Format::Toml => "TOML",
            Format::Ini => "INI",
        }
    }
}

/// One key, directive, section, block or list item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Node {
    /// The key or directive name as written (`read_timeout`, `upstream`, `Service`); empty
    /// for a list item.
    pub key: String,
    /// A directive's or block's arguments (`upstream payment_backend` -> `payment_backend`,
    /// `timeout connect 4s` -> `connect`, `4s`); a list item's name (`- name: orders`).
    pub args: Vec<String>,
    /// The value as written, quotes removed: a key's scalar, a directive's arguments
    /// joined; `None` for a block or a key that only holds children.
    pub value: Option<String>,
    pub children: Vec<Node>,
    /// 1-based line the node starts on.
    pub line: usize,
    /// Last line of a block (its closing brace or its last child); `line` for a leaf.
    pub last_line: usize,
    /// The source line, trimmed and cut to a readable length, for quoting as evidence.
    pub text: String,
    /// Position in its list, for a list item (YAML `-`, a JSON array, TOML `[[x]]`).
    pub item: Option<usize>,
}

impl Node {
    pub fn new(key: &str, line: usize, text: &str) -> Node {
        Node {
            key: key.to_string(),
            line,
            last_line: line,
            text: source_text(text),
            ..Node::default()
        }
    }

    /// Whether the node holds a value and no children.
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }
}

/// A whole config file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tree {
    pub format: Format,
    pub roots: Vec<Node>,
}

impl Tree {
    /// Every node, depth first in file order, with its depth.
    pub fn walk(&self) -> Vec<(usize, &Node)> {
        let mut out = Vec::new();
        let mut stack: Vec<(usize, &Node)> = self.roots.iter().rev().map(|n| (0, n)).collect();
        while let Some((d, n)) = stack.pop() {
            out.push((d, n));
            stack.extend(n.children.iter().rev().map(|c| (d + 1, c)));
        }
        out
    }
}

/// Most characters of a source line kept for quoting.
const TEXT_MAX: usize = 160;

fn source_text(line: &str) -> String {
    let t = line.trim();
    if t.chars().count() <= TEXT_MAX {
        return t.to_string();
    }
    let mut s: String = t.chars().take(TEXT_MAX).collect();
    s.push('…');
    s
}

/// Reads a config file's text as a tree, by its content (the file name's extension only
/// breaks ties). `None` when the text reads as none of the formats: the caller falls back
/// to searching its lines.
pub fn parse(text: &str, filename: &str) -> Option<Tree> {
    let format = detect(text, filename)?;
    parse_as(text, format)
}

/// Reads the text in one format; `None` when it does not hold a tree in it.
pub fn parse_as(text: &str, format: Format) -> Option<Tree> {
    let roots = match format {
        Format::Brace => brace::parse(text)?,
        Format::Directive => directive::parse(text)?,
        Format::Yaml => yaml::parse(text)?,
        Format::Json => json::parse(text)?,
        Format::Toml => ini::parse(text, true)?,
        Format::Ini => ini::parse(text, false)?,
    };
    if roots.is_empty() {
        return None;
    }
    let mut tree = Tree { format, roots };
    build::finish(&mut tree);
    Some(tree)
}
