//! Key paths of structured config files: the key each line sets and the keys it sits
//! in, from the nesting the file writes around it (YAML indentation, `[section]` headers
//! of INI, TOML and systemd units, nginx-style brace blocks). A chunk's lines say
//! `timeout: 2s` under a `spring:` and `redis:` 35 lines up, often in another chunk; the
//! chunk is indexed with the blocks its keys sit in (`spring.redis`), so
//! `spring.redis.timeout` (and `redis 超时`) find the line that sets it. Index side only,
//! linear in the text; anything that does not parse as a key is left alone.

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
/// they moved config chunks' BM25, xling bench session 22). Only the outermost-reaching
/// blocks: `spring` inside `spring.redis` adds nothing. Each line's path also with `_`
/// made a 5 MB YAML's indexing 7x slower than without paths (370 ms -> 2.7 s); the
/// parents alone cost recall (docs/benchmarks.md, session 22).
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

fn yaml_paths(text: &str) -> Vec<Option<KeyPath>> {
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
/// compose-style and CI lists).
const ITEM_NAME_KEYS: &[&str] = &["name", "id", "key"];

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

/// `name args {` (trimmed): the block's path segment, its name and the words of its
/// arguments joined by `_` (`location /api/orders/ {` -> `location_api_orders`,
/// `upstream orders_api {` -> `upstream_orders_api`).
fn block_opener(t: &str) -> Option<String> {
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
fn directive_key(t: &str) -> Option<&str> {
    let body = t.strip_suffix(';')?;
    let name = body.split_whitespace().next()?;
    (is_name(name) && !body.contains(['{', '}'])).then_some(name)
}

/// Brace blocks; `assign`: HCL, whose keys are `key = value` lines (and `//` comments).
fn brace_paths(text: &str, assign: bool) -> Vec<Option<KeyPath>> {
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
fn stanzas(text: &str) -> bool {
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

fn stanza_paths(text: &str) -> Vec<Option<KeyPath>> {
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

/// The segment of an XML element: its name (`:` as `_`) and the words of its `name` or
/// `id` attribute (`<appender name="FILE">` -> `appender_FILE`, `<logger
/// name="com.shop.pay">` -> `logger_com_shop_pay`).
fn xml_segment(name: &str, attrs: &str) -> String {
    let mut seg = name.replace(':', "_");
    let value = [" name=\"", " id=\""]
        .iter()
        .find_map(|k| attrs.find(k).map(|i| &attrs[i + k.len()..]))
        .and_then(|v| v.split('"').next());
    for w in value
        .into_iter()
        .flat_map(|v| v.split(|c: char| !(c.is_alphanumeric() || c == '_')))
    {
        if !w.is_empty() && seg.len() < 100 {
            seg.push('_');
            seg.push_str(w);
        }
    }
    seg
}

/// Per line, the element the line opens (or opens and closes) first, under the elements
/// open around it. A byte scan over the whole text: start tags may span lines, comments
/// and declarations are skipped, an unmatched end tag closes nothing.
fn xml_paths(text: &str) -> Vec<Option<KeyPath>> {
    let mut out: Vec<Option<KeyPath>> = vec![None; text.lines().count()];
    let b = text.as_bytes();
    // Open elements: (name, segment).
    let mut stack: Vec<(String, String)> = Vec::new();
    let (mut i, mut line) = (0usize, 0usize);
    // Moves `i` past the first `end` at or after it, counting the lines it crosses.
    let skip_past = |i: &mut usize, line: &mut usize, end: &str| {
        let stop = text[*i..].find(end).map_or(b.len(), |k| *i + k + end.len());
        *line += b[*i..stop].iter().filter(|&&c| c == b'\n').count();
        *i = stop;
    };
    while i < b.len() {
        match b[i] {
            b'\n' => {
                line += 1;
                i += 1;
            }
            b'<' if b[i..].starts_with(b"<!--") => skip_past(&mut i, &mut line, "-->"),
            b'<' if b[i..].starts_with(b"<?") || b[i..].starts_with(b"<!") => {
                skip_past(&mut i, &mut line, ">")
            }
            b'<' => {
                let close = b.get(i + 1) == Some(&b'/');
                let start = i + 1 + usize::from(close);
                let len = b[start..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || b"_-.:".contains(c))
                    .count();
                let name = &text[start..start + len];
                if name.is_empty() || !name.as_bytes()[0].is_ascii_alphabetic() {
                    i += 1;
                    continue;
                }
                let tag_line = line;
                let from = i;
                skip_past(&mut i, &mut line, ">");
                if close {
                    if let Some(k) = stack.iter().rposition(|(n, _)| n == name) {
                        stack.truncate(k);
                    }
                    continue;
                }
                let tag = &text[from..i];
                let seg = xml_segment(name, tag);
                if let Some(slot) = out.get_mut(tag_line).filter(|s| s.is_none()) {
                    *slot = Some(dotted(stack.iter().map(|(_, s)| s.as_str()), &seg));
                }
                if !tag.ends_with("/>") {
                    stack.push((name.to_string(), seg));
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(text: &str, n: Nesting) -> Vec<String> {
        line_paths(text, n)
            .into_iter()
            .flatten()
            .map(|p| p.full())
            .collect()
    }

    #[test]
    fn index_keypath_yaml_nesting_lists_and_block_scalars() {
        let yaml = "\
# app config
spring:
  datasource:
    url: jdbc:postgresql://db:5432/orders   # a comment
    hikari:
      maximum-pool-size: 20
  redis:
    host: redis-01
    timeout: 2s
containers:
  - name: gw
    image: gw:1.2
    resources:
      limits:
        memory: 2Gi
  - name: sidecar  # the log shipper
    image: vector:0.34
  - task: restart the service
  - volumes:
    - mountPath: /etc
annotations:
  description: |
    summary: not a key
    port: 9
  after: 1
'quoted.key': 3
";
        assert_eq!(
            paths(yaml, Nesting::Yaml),
            [
                "spring",
                "spring.datasource",
                "spring.datasource.url",
                "spring.datasource.hikari",
                "spring.datasource.hikari.maximum-pool-size",
                "spring.redis",
                "spring.redis.host",
                "spring.redis.timeout",
                "containers",
                "containers.name",
                "containers.gw.image",
                "containers.gw.resources",
                "containers.gw.resources.limits",
                "containers.gw.resources.limits.memory",
                "containers.name",
                "containers.sidecar.image",
                "containers.task",
                "containers.volumes",
                "containers.volumes.mountPath",
                "annotations",
                "annotations.description",
                "annotations.after",
                "quoted.key",
            ]
        );
        // Line numbers line up with the text's lines.
        let per_line = line_paths(yaml, Nesting::Yaml);
        assert_eq!(per_line.len(), yaml.lines().count());
        assert_eq!(
            per_line[8].as_ref().map(KeyPath::full).as_deref(),
            Some("spring.redis.timeout")
        );
        // Lines 7-12 (1-based): the full paths of the keys under a block (line 10,
        // `containers:`, has none), then the blocks they sit in with `_`, `spring` being
        // inside `spring.redis`.
        assert_eq!(
            chunk_context(&per_line, 7, 12),
            "spring.redis\nspring.redis.host\nspring.redis.timeout\ncontainers.name\ncontainers.gw.image\nspring_redis\ncontainers_gw"
        );
    }

    #[test]
    fn index_keypath_sections_of_ini_toml_and_units() {
        let unit = "[Unit]\nDescription=Orders API\n\n[Service]\nExecStart=/usr/bin/java -jar x.jar\nRestart=on-failure\n# Restart=always\n";
        assert_eq!(
            nesting_of("orders-api.service", unit),
            Some(Nesting::Sections)
        );
        assert_eq!(
            paths(unit, Nesting::Sections),
            ["Unit.Description", "Service.ExecStart", "Service.Restart"]
        );
        let toml = "title = \"x\"\n[server.http]\nport = 8080\n[[inputs.cpu]]\npercpu: true\n";
        assert_eq!(
            paths(toml, Nesting::Sections),
            ["server.http.port", "inputs.cpu.percpu"]
        );
        assert_eq!(nesting_of("values.YAML", ""), Some(Nesting::Yaml));
    }

    #[test]
    fn index_keypath_brace_blocks_of_nginx_configs() {
        let conf = "\
user nginx;
http {
    # upstream of the orders API
    upstream orders_api {
        server 10.0.0.1:8080 weight=5;
    }
    server {
        listen 443 ssl;
        location /api/orders/ {
            proxy_read_timeout 20s;   # slow reports
        }
        location /nginx_status { stub_status; }
    }
}
";
        assert_eq!(nesting_of("nginx.conf", conf), Some(Nesting::Braces));
        assert_eq!(nesting_of("default", conf), Some(Nesting::Braces));
        // Source code nests braces too: only config-named files are read this way.
        assert_eq!(nesting_of("main.c", conf), None);
        // What the backfill reads again: config names, not source or logs.
        assert!(may_nest("nginx.conf") && may_nest("default") && may_nest("x.service"));
        assert!(!may_nest("main.c") && !may_nest("app.log") && !may_nest("notes.md"));
        let log = "Nov 29 02:30:01 host cron[1]: job started {\nNov 29 02:30:02 host x: done;\n";
        assert_eq!(nesting_of("syslog", log), None);
        assert_eq!(
            paths(conf, Nesting::Braces),
            [
                "user",
                "http",
                "http.upstream_orders_api",
                "http.upstream_orders_api.server",
                "http.server",
                "http.server.listen",
                "http.server.location_api_orders",
                "http.server.location_api_orders.proxy_read_timeout",
                "http.server.location_nginx_status",
            ]
        );
        // Unbalanced braces never panic; a stray `}` pops nothing.
        let odd = "}\n}\nserver {\nlisten 80;\n";
        assert_eq!(paths(odd, Nesting::Braces), ["server", "server.listen"]);
    }

    #[test]
    fn index_keypath_hcl_blocks() {
        let hcl = r#"// payments job
job "payments" {
  datacenters = ["dc1"]
  group "api" {
    count = 3
    task "server" {
      resources {
        memory = 2048   # MB
      }
      env = {
        TIMEOUT = "20s"
      }
    }
  }
}
"#;
        assert_eq!(nesting_of("payments.nomad", hcl), Some(Nesting::Hcl));
        assert_eq!(nesting_of("main.tf", ""), Some(Nesting::Hcl));
        assert_eq!(
            paths(hcl, Nesting::Hcl),
            [
                "job_payments",
                "job_payments.datacenters",
                "job_payments.group_api",
                "job_payments.group_api.count",
                "job_payments.group_api.task_server",
                "job_payments.group_api.task_server.resources",
                "job_payments.group_api.task_server.resources.memory",
                "job_payments.group_api.task_server.env",
                "job_payments.group_api.task_server.env.TIMEOUT",
            ]
        );
    }

    #[test]
    fn index_keypath_haproxy_sections() {
        let cfg = "\
# haproxy.cfg
global
    maxconn 48000
    stats socket /run/haproxy/admin.sock mode 660

defaults
    timeout client 50s
listen stats
    bind :8404
    stats uri /haproxy-stats
backend be-catalog
    server catalog-01 10.40.10.31:8271 check
";
        assert_eq!(nesting_of("haproxy.cfg", cfg), Some(Nesting::Stanzas));
        assert_eq!(
            paths(cfg, Nesting::Stanzas),
            [
                "global",
                "global.maxconn",
                "global.stats_socket",
                "defaults",
                "defaults.timeout_client",
                "listen_stats",
                "listen_stats.bind",
                "listen_stats.stats_uri",
                "backend_be_catalog",
                "backend_be_catalog.server",
            ]
        );
        // `global` over indented text of another kind is not a section file.
        let prose = "global\n    settings apply everywhere\nlocal\n    settings apply here\n";
        assert_eq!(nesting_of("notes.txt", prose), None);
    }

    #[test]
    fn index_keypath_xml_elements() {
        let xml = r#"<?xml version="1.0"?>
<configuration>
  <!-- rolled daily
       <notAnElement> -->
  <appender name="FILE"
            class="ch.qos.logback.core.rolling.RollingFileAppender">
    <rollingPolicy class="x.SizeAndTimeBasedRollingPolicy">
      <maxFileSize>200MB</maxFileSize>
      <maxHistory>14</maxHistory>
    </rollingPolicy>
  </appender>
  <logger name="com.shop.payments" level="DEBUG"/>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
"#;
        assert_eq!(nesting_of("logback.xml", xml), Some(Nesting::Xml));
        assert_eq!(
            nesting_of("web.config", "<configuration/>"),
            Some(Nesting::Xml)
        );
        assert_eq!(
            paths(xml, Nesting::Xml),
            [
                "configuration",
                "configuration.appender_FILE",
                "configuration.appender_FILE.rollingPolicy",
                "configuration.appender_FILE.rollingPolicy.maxFileSize",
                "configuration.appender_FILE.rollingPolicy.maxHistory",
                "configuration.logger_com_shop_payments",
                "configuration.root",
            ]
        );
        let per_line = line_paths(xml, Nesting::Xml);
        assert_eq!(per_line.len(), xml.lines().count());
        assert_eq!(
            per_line[7].as_ref().map(KeyPath::full).as_deref(),
            Some("configuration.appender_FILE.rollingPolicy.maxFileSize")
        );
        // Broken XML: unmatched end tags, an unterminated tag, `<` in text.
        let odd = "</a>\n<b>\n  <c x=\"1 < 2\">v</c>\n</z>\n<d";
        assert_eq!(paths(odd, Nesting::Xml), ["b", "b.c", "b.d"]);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
        /// Any text in any nesting: no panic, one entry per line, every chunk's context
        /// built.
        #[test]
        fn index_keypath_any_text(s in "[ a-z0-9_:.\\-{};#\\[\\]=<>/!?\"'|\n\t数据]{0,600}") {
            for n in [Nesting::Yaml, Nesting::Sections, Nesting::Braces, Nesting::Xml, Nesting::Hcl] {
                let p = line_paths(&s, n);
                proptest::prop_assert_eq!(p.len(), s.lines().count());
                let _ = chunk_context(&p, 1, p.len());
            }
            let _ = nesting_of("x.conf", &s);
        }
    }

    #[test]
    fn index_keypath_leaves_other_text_alone() {
        // Markdown links, logs with bracketed levels, prose and code have no key paths.
        assert_eq!(nesting_of("notes.md", "[Service]\nRestart=always\n"), None);
        let log = "[INFO]\n2026-11-20 02:30:01 backup started\n[x for x in y]\n";
        assert_eq!(nesting_of("backup.log", log), None);
        assert_eq!(nesting_of("redis.conf", "maxmemory 6gb\nport 6379\n"), None);
        // Hostile YAML: deep dashes, tabs, a colon in a value, keys too long.
        let odd = format!(
            "- - - a: 1\n\tb: 2\nurl: http://x:80\n{}: 1\n",
            "k".repeat(200)
        );
        let p = paths(&odd, Nesting::Yaml);
        assert_eq!(p, ["a", "url"]);
        // Nesting 2,000 deep: each path names its nearest 6 ancestors.
        let deep: String = (0..2000)
            .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
            .collect();
        let p = paths(&deep, Nesting::Yaml);
        assert_eq!(p.len(), 2000);
        assert_eq!(p[1999], "k1993.k1994.k1995.k1996.k1997.k1998.k1999");
        assert!(chunk_context(&line_paths(&odd, Nesting::Yaml), 1, 99).is_empty());
    }
}
