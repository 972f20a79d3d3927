//! Key paths of structured config files: the key each line sets and the keys it sits
//! in, from the nesting the file writes around it (YAML indentation in `yaml`, `[section]`
//! headers of INI, TOML and systemd units here, nginx / HCL blocks and HAProxy sections in
//! `blocks`, XML elements in `xml`). A chunk's lines say
//! `timeout: 2s` under a `spring:` and `redis:` 35 lines up, often in another chunk; the
//! chunk is indexed with the blocks its keys sit in (`spring.redis`), so
//! `spring.redis.timeout` (and `redis 超时`) find the line that sets it. Index side only,
//! linear in the text; anything that does not parse as a key is left alone.

mod blocks;
#[cfg(test)]
mod tests;
mod xml;
mod yaml;

use blocks::{block_opener, brace_paths, directive_key, stanza_paths, stanzas};
use xml::xml_paths;
use yaml::yaml_paths;

/// How a file nests its keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Nesting {
    /// Indentation (`.yml`, `.yaml`).
    Yaml,
    /// `[section]` lines over `key = value` / `key: value` / `Key=value` lines.
    Sections,
    /// `name args {` ... `}` blocks of `directive args;` lines (nginx and its kind).
    Braces,
    /// XML elements (`.xml`, `.config`, or text that starts `<?xml`).
    Xml,
    /// HCL (`.hcl`, `.tf`, `.nomad`): `type "label" {` blocks of `key = value` lines.
    Hcl,
    /// HAProxy's sections: a `frontend fe_api` line at the margin over indented
    /// `directive args` lines.
    Stanzas,
}

const YAML_NAMES: &[&str] = &[".yml", ".yaml"];
const XML_NAMES: &[&str] = &[".xml", ".config"];
const HCL_NAMES: &[&str] = &[".hcl", ".tf", ".nomad"];
/// Config names whose braces are read as blocks (source code nests braces too).
const BRACE_NAMES: &[&str] = &[".conf", ".vhost", ".site", ".nginx"];
/// Names that usually hold `[section]`s. Sections are found by the text in any file (not
/// markdown); these names only tell `may_nest`.
const SECTION_NAMES: &[&str] = &[
    ".ini", ".toml", ".cfg", ".cnf", ".service", ".socket", ".timer", ".mount", ".path", ".target",
    ".network", ".netdev", ".repo", ".desktop",
];

fn named(lower: &str, endings: &[&str]) -> bool {
    endings.iter().any(|x| lower.ends_with(x))
}

/// Whether a file of this name may nest keys: worth reading again to find out (the
/// backfill of older entries; `nesting_of` decides on the text).
pub fn may_nest(filename: &str) -> bool {
    let lower = filename.to_ascii_lowercase();
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    [YAML_NAMES, XML_NAMES, HCL_NAMES, BRACE_NAMES, SECTION_NAMES]
        .iter()
        .any(|e| named(&lower, e))
        || !base.contains('.')
}

/// The nesting of a file by its name, and for sections by its text: a file with a
/// `[section]` line followed by a key line (not markdown, where `[text]` is a link).
pub fn nesting_of(filename: &str, text: &str) -> Option<Nesting> {
    let lower = filename.to_ascii_lowercase();
    if named(&lower, YAML_NAMES) {
        return Some(Nesting::Yaml);
    }
    if named(&lower, XML_NAMES) || text.starts_with("<?xml") {
        return Some(Nesting::Xml);
    }
    if named(&lower, HCL_NAMES) {
        return Some(Nesting::Hcl);
    }
    if lower.ends_with(".md") || lower.ends_with(".markdown") {
        return None;
    }
    let mut in_section = false;
    for line in text.lines() {
        if section_name(line).is_some() {
            in_section = true;
        } else if in_section && ini_key(line).is_some() {
            return Some(Nesting::Sections);
        }
    }
    if stanzas(text) {
        return Some(Nesting::Stanzas);
    }
    // Braces only in config-named files: source code nests braces around statements too.
    let base = lower.rsplit('/').next().unwrap_or(&lower);
    // A name without extension (`default` in sites-available, but also `syslog`) only
    // when its first line of content is a directive or a block.
    let starts_as_config = || {
        text.lines()
            .map(|l| strip_hash_comment(l).trim())
            .find(|t| !t.is_empty())
            .is_some_and(|t| {
                // Directives are lower-case (`user nginx;`); a log starts with a month.
                t.starts_with(|c: char| c.is_ascii_lowercase())
                    && (block_opener(t).is_some() || directive_key(t).is_some())
            })
    };
    let config_name = named(base, BRACE_NAMES) || (!base.contains('.') && starts_as_config());
    let (mut opens, mut directives) = (false, false);
    if config_name {
        for line in text.lines() {
            let t = strip_hash_comment(line).trim();
            opens |= block_opener(t).is_some();
            directives |= directive_key(t).is_some();
            if opens && directives {
                return Some(Nesting::Braces);
            }
        }
    }
    None
}

/// The key a line sets under its ancestors.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyPath {
    /// The enclosing keys, dotted (`spring.redis`); empty at the top level.
    pub parent: String,
    pub key: String,
}

impl KeyPath {
    /// `spring.redis.timeout`.
    pub fn full(&self) -> String {
        if self.parent.is_empty() {
            self.key.clone()
        } else {
            format!("{}.{}", self.parent, self.key)
        }
    }
}

/// Per line of `text` (0-based), the key path the line sets, if it sets one.
pub fn line_paths(text: &str, nesting: Nesting) -> Vec<Option<KeyPath>> {
    match nesting {
        Nesting::Yaml => yaml_paths(text),
        Nesting::Sections => section_paths(text),
        Nesting::Braces => brace_paths(text, false),
        Nesting::Hcl => brace_paths(text, true),
        Nesting::Xml => xml_paths(text),
        Nesting::Stanzas => stanza_paths(text),
    }
}

/// The key paths of lines `first..=last` (1-based), the text a chunk's keys are indexed
/// with (identifier fields only): each line's full path once, dotted (`spring.redis.timeout`:
/// the whole a query types, and its joined words), then the blocks they sit in with `_`
/// (`spring_redis`: the identifier analyzer indexes the words of such a name, while it
/// leaves a dotted name's to the English field, which key paths are kept out of: there
/// they lengthen config chunks and move their BM25). Only the outermost-reaching blocks:
/// `spring` inside `spring.redis` adds nothing; each line's path also with `_` would make
/// a large YAML's indexing several times slower, and the parents alone cost recall.
pub fn chunk_context(paths: &[Option<KeyPath>], first: usize, last: usize) -> String {
    let mut full: Vec<String> = Vec::new();
    let mut parents: Vec<&str> = Vec::new();
    for p in paths
        .iter()
        .take(last)
        .skip(first.saturating_sub(1))
        .flatten()
        .filter(|p| !p.parent.is_empty())
    {
        let f = p.full();
        if !full.contains(&f) {
            full.push(f);
        }
        if !parents.contains(&p.parent.as_str()) {
            parents.push(&p.parent);
        }
    }
    let inner = |a: &str| {
        parents
            .iter()
            .any(|b| b.len() > a.len() && b.starts_with(a) && b.as_bytes()[a.len()] == b'.')
    };
    let words = parents
        .iter()
        .filter(|a| !inner(a) && a.contains(['.', '-']))
        .map(|a| a.replace(['.', '-'], "_"));
    full.into_iter().chain(words).collect::<Vec<_>>().join("\n")
}

/// Most ancestors a path names: deeper nesting keeps its nearest ones, so a file nested
/// thousands deep costs no more per line than one nested a few levels.
const MAX_DEPTH: usize = 6;

/// `key` under its ancestors (outermost first), at most `MAX_DEPTH` of them.
fn dotted<'a>(ancestors: impl ExactSizeIterator<Item = &'a str>, key: &str) -> KeyPath {
    let skip = ancestors.len().saturating_sub(MAX_DEPTH);
    KeyPath {
        parent: ancestors.skip(skip).collect::<Vec<_>>().join("."),
        key: key.to_string(),
    }
}

/// `[name]` or `[[name]]` alone on a line: its name.
fn section_name(line: &str) -> Option<&str> {
    let t = line.trim();
    let inner = t.strip_prefix('[')?.strip_suffix(']')?;
    let inner = inner
        .strip_prefix('[')
        .and_then(|i| i.strip_suffix(']'))
        .unwrap_or(inner)
        .trim();
    let ok = !inner.is_empty()
        && inner
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.\"'".contains(c));
    ok.then(|| inner.trim_matches(['"', '\'']))
}

/// The key of an INI / TOML / unit-file line (`key = value`, `Key=value`, `key: value`).
pub(crate) fn ini_key(line: &str) -> Option<&str> {
    let t = line.trim_start();
    if t.starts_with(['#', ';']) {
        return None;
    }
    let end = t.find(['=', ':'])?;
    let key = t[..end].trim_end();
    let ok = !key.is_empty()
        && key.len() <= 100
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.".contains(c));
    ok.then_some(key)
}

fn section_paths(text: &str) -> Vec<Option<KeyPath>> {
    let mut section: Option<&str> = None;
    text.lines()
        .map(|line| {
            if let Some(s) = section_name(line) {
                section = Some(s);
                return None;
            }
            let key = ini_key(line)?;
            section.map(|s| KeyPath {
                parent: s.to_string(),
                key: key.to_string(),
            })
        })
        .collect()
}

/// A line without its `#` comment (a `#` at the start or after whitespace).
fn strip_hash_comment(line: &str) -> &str {
    let b = line.as_bytes();
    match (0..b.len()).find(|&i| b[i] == b'#' && (i == 0 || b[i - 1].is_ascii_whitespace())) {
        Some(i) => &line[..i],
        None => line,
    }
}

/// A word that names a key or a block (`proxy_read_timeout`, `location`).
fn is_name(w: &str) -> bool {
    w.len() <= 100
        && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c))
}
