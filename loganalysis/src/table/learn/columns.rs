//! The header columns of a learned layout: the tokens between the time and the message
//! (a level, a bracketed thread, a pid, a logger ending in `:`, `|`-separated fields), what
//! each column holds by its values, its field's name and roles, and its regex.

use crate::level::{word_level, Level};

/// Share (percent) of event starts a time shape or a column's shape must hold in.
pub(super) const SHARE: usize = 90;

/// Header columns read before the message.
pub(super) const MAX_COLUMNS: usize = 6;

/// `|`-separated columns read before the message (the separator delimits them).
const MAX_PIPE_COLUMNS: usize = 16;

/// One-letter levels (logcat, glog): read as levels only in a column that holds nothing
/// else.
pub(super) const LETTERS: [(&str, &str); 9] = [
    ("V", "TRACE"),
    ("D", "DEBUG"),
    ("I", "INFO"),
    ("N", "NOTICE"),
    ("W", "WARN"),
    ("E", "ERROR"),
    ("C", "CRITICAL"),
    ("F", "FATAL"),
    ("A", "FATAL"),
];

/// One token of a line's header.
#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    /// The opening bracket (`[`, `<`, `(`, `{`), if bracketed.
    pub(super) open: Option<u8>,
    text: &'a str,
    /// A `:` right after it.
    pub(super) colon: bool,
}

/// The header tokens after the time, skipping tracing-style spans (`request{id=5}:`).
fn tokens(rest: &str) -> (Vec<Tok<'_>>, bool) {
    let b = rest.as_bytes();
    let (mut out, mut spans, mut i) = (Vec::new(), false, 0);
    while out.len() < MAX_COLUMNS + 1 {
        while matches!(b.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        let Some(&c) = b.get(i) else { break };
        let close = match c {
            b'[' => Some(b']'),
            b'<' => Some(b'>'),
            b'(' => Some(b')'),
            b'{' => Some(b'}'),
            _ => None,
        };
        if let Some(j) = close.and_then(|cl| memchr::memchr(cl, &b[i + 1..]).map(|p| i + 1 + p)) {
            let colon = b.get(j + 1) == Some(&b':');
            out.push(Tok {
                open: Some(c),
                text: rest[i + 1..j].trim(),
                colon,
            });
            i = j + 1 + usize::from(colon);
            continue;
        }
        let (mut j, mut depth) = (i, 0i32);
        while j < b.len() && (depth > 0 || !matches!(b[j], b' ' | b'\t')) {
            depth += i32::from(b[j] == b'{') - i32::from(b[j] == b'}');
            j += 1;
        }
        let text = &rest[i..j];
        i = j;
        if text.contains('{') && text.ends_with("}:") {
            spans = true;
            continue;
        }
        let mut colon = text.len() > 1 && text.ends_with(':');
        // A name padded to a width before its colon (logcat's `CrewApp :`).
        let mut k = i;
        while matches!(b.get(k), Some(b' ')) {
            k += 1;
        }
        if !colon && k > i && b.get(k) == Some(&b':') && matches!(b.get(k + 1), None | Some(b' ')) {
            colon = true;
            i = k + 1;
        }
        out.push(Tok {
            open: None,
            // A lone `:` is a separator, not an empty name.
            text: text
                .strip_suffix(':')
                .filter(|t| !t.is_empty())
                .unwrap_or(text),
            colon,
        });
    }
    (out, spans)
}

/// What a header column holds, judged by its values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    Level,
    Letter,
    Int,
    /// `0x1a2b`, `7ffefe243480`: a thread's or an activity's address.
    Hex,
    HashPid,
    ErlangPid,
    Ip,
    Logger,
    /// A bracketed name that is none of the above (a thread, a component, a code).
    Name,
    Literal,
}

pub(super) fn is_identifier(t: &str) -> bool {
    !t.is_empty()
        && t.chars().any(|c| c.is_ascii_alphabetic())
        && t.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ':' | '_' | '$' | '/' | '-'))
}

/// `0x` and hex digits, or six or more lower-case hex digits with a letter and a digit
/// (`7ffefe243480`; not a word like `facade`).
fn is_hex(s: &str) -> bool {
    if let Some(h) = s.strip_prefix("0x") {
        return !h.is_empty() && h.bytes().all(|b| b.is_ascii_hexdigit());
    }
    s.len() >= 6
        && s.bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && s.bytes().any(|b| b.is_ascii_digit())
        && s.bytes().any(|b| b.is_ascii_alphabetic())
}

/// A bare word (`Default`, `http`): what a level column may hold beside level words.
fn is_word(t: &Tok<'_>) -> bool {
    t.open.is_none()
        && !t.text.is_empty()
        && t.text.len() <= 12
        && t.text.bytes().all(|b| b.is_ascii_alphabetic())
}

fn kind_of(t: &Tok<'_>) -> Option<Kind> {
    let s = t.text;
    let digits = !s.is_empty() && s.len() <= 10 && s.bytes().all(|c| c.is_ascii_digit());
    Some(match t.open {
        _ if word_level(s.as_bytes()).is_some() => Kind::Level,
        None | Some(b'[') if LETTERS.iter().any(|(l, _)| *l == s) => Kind::Letter,
        _ if digits => Kind::Int,
        None if is_hex(s) => Kind::Hex,
        None if s
            .strip_prefix('#')
            .is_some_and(|d| !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit())) =>
        {
            Kind::HashPid
        }
        Some(b'<')
            if s.split('.').count() == 3 && s.split('.').all(|p| p.parse::<u32>().is_ok()) =>
        {
            Kind::ErlangPid
        }
        _ if s.parse::<std::net::IpAddr>().is_ok() => Kind::Ip,
        None if matches!(s, "-" | "--" | "|" | ":" | "::" | "-->" | "=>") => Kind::Literal,
        Some(b'[' | b'{') if !s.is_empty() => Kind::Name,
        None if is_identifier(s) && (t.colon || s.contains(['.', ':', '/', '$'])) => Kind::Logger,
        _ => return None,
    })
}

/// One learned header column.
#[derive(Debug, Clone)]
pub(super) struct Column {
    pub(super) kind: Kind,
    pub(super) open: Option<u8>,
    pub(super) colon: bool,
    /// Every event start has it (else the regex lets it be absent).
    pub(super) always: bool,
    /// The literal text of a `Literal` column.
    pub(super) literal: String,
    /// Its values in the sample's event starts.
    pub(super) values: Vec<String>,
}

/// The columns every event start shares, in order, until the message begins.
pub(super) fn columns(starts: &[&str]) -> (Vec<Column>, bool) {
    let tokenized: Vec<(Vec<Tok<'_>>, bool)> = starts.iter().map(|r| tokens(r)).collect();
    let spans = tokenized.iter().any(|t| t.1);
    let mut cols = Vec::new();
    for k in 0..MAX_COLUMNS {
        let toks: Vec<Option<&Tok<'_>>> = tokenized.iter().map(|(t, _)| t.get(k)).collect();
        let Some(first) = toks.iter().flatten().next() else {
            break;
        };
        let Some((kind, open)) = majority(&toks) else {
            break;
        };
        let agree = toks
            .iter()
            .flatten()
            .filter(|t| {
                t.open == open
                    && (kind_of(t).is_some_and(|k| same_column(k, kind))
                        || (kind == Kind::Level && is_word(t)))
            })
            .count();
        if agree * 100 < starts.len() * SHARE {
            break;
        }
        let colon_share = toks.iter().flatten().filter(|t| t.colon).count();
        let colon = colon_share * 100 >= starts.len() * SHARE;
        cols.push(Column {
            kind,
            open,
            colon,
            always: agree == starts.len(),
            literal: first.text.to_string(),
            values: toks.iter().flatten().map(|t| t.text.to_string()).collect(),
        });
        // A name or level ending in `:` is the last thing before the message, unless a
        // level with its own colon follows the name (BIND's `security: info: ...`).
        let level_next = tokenized
            .iter()
            .filter(|(t, _)| {
                t.get(k + 1)
                    .is_some_and(|t| t.colon && kind_of(t) == Some(Kind::Level))
            })
            .count()
            * 100
            >= starts.len() * SHARE;
        if colon && (kind == Kind::Level || (kind == Kind::Logger && !level_next)) {
            break;
        }
    }
    (cols, spans)
}

/// The kind and bracket most tokens of a column share. A bracketed level column
/// ([`level_column`]) is the level even where its other values are words the engine has no
/// level for (`[System]`, `[Note]` beside `[Warning]`).
fn majority(toks: &[Option<&Tok<'_>>]) -> Option<(Kind, Option<u8>)> {
    let mut counts: Vec<((Kind, Option<u8>), usize)> = Vec::new();
    for t in toks.iter().flatten() {
        let Some(k) = kind_of(t) else { continue };
        match counts.iter_mut().find(|(key, _)| *key == (k, t.open)) {
            Some((_, n)) => *n += 1,
            None => counts.push(((k, t.open), 1)),
        }
    }
    let (top, _) = *counts.iter().max_by_key(|(_, n)| *n)?;
    let bracketed = toks.iter().flatten().filter(|t| t.open == top.1);
    let values: Vec<&str> = bracketed.map(|t| t.text).collect();
    Some(
        if (top.1.is_some() && level_column(&values, toks.len())) || word_levels(toks) {
            (Kind::Level, top.1)
        } else {
            top
        },
    )
}

/// Whether an unbracketed column is the level with other words beside the level words
/// (winston's `http:`, `log show`'s `Default`): nine tokens in ten are bare words, half
/// of them level words of two kinds or more.
fn word_levels(toks: &[Option<&Tok<'_>>]) -> bool {
    let words: Vec<&str> = toks
        .iter()
        .flatten()
        .filter(|t| is_word(t))
        .map(|t| t.text)
        .collect();
    let mut levels: Vec<Level> = words
        .iter()
        .filter_map(|w| word_level(w.as_bytes()).map(|l| l.0))
        .collect();
    let n = levels.len();
    levels.sort_unstable();
    levels.dedup();
    words.len() * 100 >= toks.len() * SHARE && n * 2 >= toks.len() && levels.len() >= 2
}

/// Whether a column of `n` values holding `values` is the level: half of them, or two
/// different ones, are level words.
pub(super) fn level_column(values: &[&str], n: usize) -> bool {
    let mut words: Vec<&str> = values
        .iter()
        .copied()
        .filter(|v| word_level(v.as_bytes()).is_some())
        .collect();
    let levels = words.len();
    words.sort_unstable();
    words.dedup();
    levels * 2 >= n || words.len() >= 2
}

/// Whether a token of kind `k` belongs in a column seen as `col` (a level column's odd
/// value is still its level, a bracketed name column takes any name).
fn same_column(k: Kind, col: Kind) -> bool {
    k == col
        || matches!(
            (col, k),
            (Kind::Name, Kind::Level | Kind::Int | Kind::Logger)
        )
        || matches!(
            (col, k),
            (Kind::Level, Kind::Name) | (Kind::Logger, Kind::Level)
        )
}

/// A field's name and roles for a column, given the columns named before it.
pub(super) fn naming(
    c: &Column,
    taken: &[String],
    ints_after: bool,
) -> (String, Vec<&'static str>) {
    let digit_share = c
        .values
        .iter()
        .filter(|v| v.bytes().any(|b| b.is_ascii_digit()))
        .count();
    let dotted = c
        .values
        .iter()
        .filter(|v| v.starts_with(|c: char| c.is_ascii_alphabetic()) && v.contains(['.', ':']))
        .count();
    let elapsed = c.values.iter().filter(|v| is_elapsed(v)).count();
    let (name, roles): (&str, Vec<&'static str>) = match c.kind {
        Kind::Level | Kind::Letter => ("level", vec![]),
        Kind::HashPid | Kind::ErlangPid => ("pid", vec!["pid"]),
        // Small bare numbers are a verbosity or a count (Ceph's debug level), not an id.
        Kind::Int if c.open.is_none() && c.values.iter().all(|v| v.len() <= 2) => ("num", vec![]),
        Kind::Int
            if taken.iter().any(|t| t.starts_with("thread"))
                && taken.iter().any(|t| t == "pid") =>
        {
            ("num", vec![])
        }
        Kind::Int if taken.iter().any(|t| t == "pid") => ("tid", vec!["thread"]),
        Kind::Int if ints_after => ("pid", vec!["pid"]),
        Kind::Int => ("id", vec!["pid", "thread"]),
        Kind::Hex if taken.iter().any(|t| t.starts_with("thread")) => ("activity", vec![]),
        Kind::Hex => ("thread", vec!["thread"]),
        Kind::Ip => ("client", vec!["client"]),
        Kind::Logger => ("logger", vec!["logger"]),
        Kind::Name if elapsed * 100 >= c.values.len() * SHARE => ("uptime", vec![]),
        Kind::Name if dotted * 2 > c.values.len() => ("logger", vec!["logger"]),
        Kind::Name if c.values.iter().all(|v| is_code(v)) => ("code", vec![]),
        Kind::Name if digit_share * 2 > c.values.len() || c.values.iter().any(|v| v == "main") => {
            ("thread", vec!["thread"])
        }
        Kind::Name
            if taken
                .iter()
                .any(|t| t.starts_with("logger") || t.starts_with("component")) =>
        {
            ("component", vec![])
        }
        Kind::Name => ("component", vec!["logger"]),
        Kind::Literal => ("", vec![]),
    };
    (unique(name, taken), roles)
}

/// `name`, or `name2`, `name3`... when the columns before took it.
pub(super) fn unique(name: &str, taken: &[String]) -> String {
    let mut unique = name.to_string();
    let mut n = 2;
    while taken.contains(&unique) {
        unique = format!("{name}{n}");
        n += 1;
    }
    unique
}

/// `2.113s`, `15ms`: a time since start written on every line, not a name.
fn is_elapsed(v: &str) -> bool {
    let unit = v.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    unit.len() < v.len() && matches!(unit, "s" | "ms" | "us" | "ns")
}

/// Whether nine values in ten end in a source line number (`dagrun.py:1608`,
/// `ZooKeeperServer@628`): the name is the part before it.
fn line_numbered(values: &[String]) -> bool {
    let numbered = values
        .iter()
        .filter(|v| {
            v.rsplit_once([':', '@']).is_some_and(|(name, n)| {
                !name.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
            })
        })
        .count();
    !values.is_empty() && numbered * 100 >= values.len() * SHARE
}

/// `MY-010055`, `E1234`: a message code, not a thread.
fn is_code(v: &str) -> bool {
    let letters = v.bytes().take_while(u8::is_ascii_uppercase).count();
    let rest = v[letters..].trim_start_matches('-');
    letters > 0 && !rest.is_empty() && rest.bytes().all(|b| b.is_ascii_digit())
}

/// The regex of one column, its value in the group `name`.
pub(super) fn column_regex(c: &Column, name: &str) -> String {
    // A logger's source line number is left out of its value.
    let numbered = matches!(c.kind, Kind::Logger | Kind::Name) && line_numbered(&c.values);
    let line = if numbered { r"(?:[:@]\d+)?" } else { "" };
    let group = |inner: &str| format!("(?P<{name}>{inner}){line}");
    let body = match (c.kind, c.open) {
        (Kind::Literal, _) => regex::escape(&c.literal),
        (Kind::HashPid, _) => format!("#{}", group(r"\d+")),
        (_, Some(b'[')) => format!(r"\[[ \t]*{}[ \t]*\]", group(r"[^\]]*?")),
        (Kind::ErlangPid, _) => group("<[^>]*>"),
        (_, Some(b'<')) => format!("<{}>", group("[^>]*?")),
        (_, Some(b'(')) => format!(r"\({}\)", group("[^)]*?")),
        (_, Some(b'{')) => format!(r"\{{{}\}}", group("[^}]*?")),
        (_, _) if c.colon => format!(r"{} *", group(r"[^ \t]+?")),
        _ if numbered => group(r"[^ \t]+?"),
        _ => group(r"[^ \t]+"),
    };
    // The colon that ends a name is one a blank follows: `booking::db:` is `booking::db`.
    if c.colon {
        format!(r"{body}:(?:[ \t]|$)")
    } else {
        body
    }
}

/// The columns of `rests` (each event start after its time), `|`-separated or by blanks
/// and brackets.
pub(super) fn layout(rests: &[&str]) -> (Vec<Column>, bool, bool) {
    let piped = rests
        .iter()
        .filter(|r| r.trim_start().starts_with('|'))
        .count();
    if piped * 100 >= rests.len() * SHARE {
        return (pipe_columns(rests), false, true);
    }
    let (cols, spans) = columns(rests);
    (cols, spans, false)
}

/// `|`-separated columns: as many as nine in ten starts have, each a column whatever its
/// values (the separator, not the shape, delimits it).
fn pipe_columns(rests: &[&str]) -> Vec<Column> {
    let mut counts: Vec<usize> = rests.iter().map(|r| r.matches('|').count()).collect();
    counts.sort_unstable();
    let n = counts[counts.len() * (100 - SHARE) / 100].min(MAX_PIPE_COLUMNS + 1);
    (1..n)
        .map(|k| {
            let values: Vec<String> = rests
                .iter()
                .filter_map(|r| r.split('|').nth(k).map(|v| v.trim().to_string()))
                .collect();
            let texts: Vec<&str> = values.iter().map(String::as_str).collect();
            let kind = if level_column(&texts, texts.len()) {
                Kind::Level
            } else if values.iter().filter(|v| is_identifier(v)).count() * 100
                >= values.len() * SHARE
            {
                Kind::Logger
            } else {
                Kind::Name
            };
            Column {
                kind,
                open: Some(b'|'),
                colon: false,
                always: true,
                literal: String::new(),
                values,
            }
        })
        .collect()
}
