//! Which syntax a config file is written in, read from its lines (the extension only breaks
//! ties: `.conf` is nginx, redis, postgresql or rabbitmq alike; `.cfg` HAProxy or INI).

use super::Format;

/// How many lines of each shape a file has (comments and blank lines left out).
#[derive(Debug, Default)]
struct Shapes {
    lines: usize,
    /// Ends with `;`, `{` or `}` (nginx).
    brace: usize,
    opens: usize,
    /// `key = value` or `key=value`.
    eq: usize,
    /// `key: value` or `key:`.
    colon: usize,
    /// `- item`.
    dash: usize,
    /// `[section]`.
    section: usize,
    /// `<Tag ...>` or `</Tag>`.
    tag: usize,
    /// `name value...` (a word, whitespace, more).
    directive: usize,
    /// Indented lines.
    indented: usize,
    /// Lines that end like a sentence (`.`, `?`, `!`, `,`, `。`): prose, not settings.
    prose: usize,
}

/// Most lines looked at: the kind of a file shows in its first few hundred.
const SAMPLE: usize = 600;

fn shapes(text: &str) -> Shapes {
    let mut s = Shapes::default();
    for raw in text.lines() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with(['#', ';', '!']) || t.starts_with("//") {
            continue;
        }
        s.lines += 1;
        if s.lines > SAMPLE {
            break;
        }
        let t = t.strip_prefix("export ").unwrap_or(t);
        let word_end = t
            .find(|c: char| {
                !(c.is_alphanumeric()
                    || matches!(c, '_' | '-' | '.' | '"' | '\'' | '/' | '$' | '@'))
            })
            .unwrap_or(t.len());
        let after = t[word_end..].trim_start();
        if t.ends_with([';', '{', '}']) {
            s.brace += 1;
        }
        s.opens += t.matches('{').count();
        if word_end > 0 && after.starts_with('=') {
            s.eq += 1;
        }
        if word_end > 0 && t[word_end..].starts_with(':') {
            s.colon += 1;
        }
        if t == "-" || t.starts_with("- ") {
            s.dash += 1;
        }
        if t.starts_with('[') && t.ends_with(']') {
            s.section += 1;
        }
        if t.starts_with('<') && t.ends_with('>') {
            s.tag += 1;
        }
        if word_end > 0 && !after.is_empty() && t[word_end..].starts_with([' ', '\t']) {
            s.directive += 1;
        }
        if raw.starts_with([' ', '\t']) {
            s.indented += 1;
        }
        if t.ends_with(['.', '?', '!', ',', '。', '？', '！', '，']) {
            s.prose += 1;
        }
    }
    s
}

/// The format of a config file's text; `None` when most of its lines are none of them.
pub fn detect(text: &str, filename: &str) -> Option<Format> {
    let ext = crate::slots::extension(filename);
    let first = text.trim_start().chars().next()?;
    if matches!(first, '{' | '[') && super::json::parse(text).is_some() {
        return Some(Format::Json);
    }
    let s = shapes(text);
    let n = s.lines.max(1);
    // At least this share of the lines has the format's shape.
    let most = |k: usize| k * 2 >= n;
    if s.tag >= 2 && s.tag * 5 >= n {
        return Some(Format::Directive);
    }
    if s.opens >= 1 && most(s.brace) && s.brace >= 2 {
        return Some(Format::Brace);
    }
    let toml = ext == "toml";
    if s.section >= 1 && most(s.eq + s.section) || (toml && most(s.eq + s.section)) {
        return Some(if toml || text.contains("[[") {
            Format::Toml
        } else {
            Format::Ini
        });
    }
    let yaml_ext = matches!(ext.as_str(), "yaml" | "yml");
    if most(s.colon + s.dash) && (yaml_ext || s.colon > s.eq) {
        // A flat `.properties` written `key: value` reads the same either way.
        return Some(Format::Yaml);
    }
    if most(s.eq) {
        return Some(Format::Ini);
    }
    if most(s.directive) && s.eq * 4 < n && s.prose * 4 < n {
        return Some(Format::Directive);
    }
    if yaml_ext && s.colon > 0 {
        return Some(Format::Yaml);
    }
    None
}
