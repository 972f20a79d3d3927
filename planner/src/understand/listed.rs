//! Moments asked as a list: "give me the times: the first X, Y's Z, and the last W" is one
//! question per item, each over the log and window the question names.

use std::sync::OnceLock;

use regex::Regex;

use super::MessageCtx;
use crate::lexicon::lexicon;

/// Each clause whose words before a colon ask for times or a timeline ("in order, with
/// timestamps:", "各自几点：", "what happened between 2:00 and 2:10:") and whose list after it
/// has two items or more, as one clause per item asking when it happened. An item that names no log reads the one the
/// message named before it; one that says no time reads the window said before it.
pub(super) fn listed_moments(parts: Vec<String>, ctx: &MessageCtx) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(parts.len());
    for part in parts {
        let Some((head, items)) = moments_listed(&part).or_else(|| whens_in_a_row(&part)) else {
            out.push(part);
            continue;
        };
        let before = format!("{} {head}", out.join(" "));
        let log = only_log_named(&before, ctx);
        let window = crate::frame::build::window_words(&before);
        // "what happened between 02:00 and 02:10: …": the words before the list ask
        // something of their own (here a timeline), asked first.
        if asks_of_its_own(&head) {
            out.push(head.clone());
        }
        for item in items {
            out.push(as_a_moment(&item, log.as_deref(), window.as_deref(), ctx));
        }
    }
    out
}

/// "from 01:00 to 01:30 — when did X start, when did Y stop": two "when" questions or
/// more in a row, each after a comma, and the words before the first.
fn whens_in_a_row(part: &str) -> Option<(String, Vec<String>)> {
    static WHEN: OnceLock<Regex> = OnceLock::new();
    let when = WHEN.get_or_init(|| {
        Regex::new(
            r"(?i)(?:^|[,，;；:：\-–—]\s*)(?:and\s+)?(when\s+(?:did|was|were|does|do|is|had|has)\b)",
        )
        .expect("a fixed pattern")
    });
    let starts: Vec<usize> = when
        .captures_iter(part)
        .filter_map(|c| c.get(1).map(|m| m.start()))
        .collect();
    if starts.len() < 2 {
        return None;
    }
    let head = part[..starts[0]]
        .trim_end_matches(|c: char| c.is_whitespace() || ",，;；:：-–—".contains(c));
    let ends = starts
        .iter()
        .skip(1)
        .copied()
        .chain(std::iter::once(part.len()));
    let items = starts
        .iter()
        .zip(ends)
        .map(|(&s, e)| {
            let item = part[s..e].trim_end();
            let item = item.strip_suffix("and").unwrap_or(item);
            item.trim_end_matches(|c: char| c.is_whitespace() || ",，;；?？.。".contains(c))
                .to_string()
        })
        .collect();
    Some((head.trim().to_string(), items))
}

/// The words before a list's colon and the list's items, when those words ask for times
/// and the list has two items or more.
fn moments_listed(part: &str) -> Option<(String, Vec<String>)> {
    let colon = list_colon(part)?;
    let (head, rest) = part.split_at(colon);
    let rest = rest.trim_start_matches([':', '：']);
    let lower = head.to_lowercase();
    let asks_times = lexicon().grammar.times_asked.occur_in(&lower)
        || crate::frame::build::asks_a_timeline(head);
    if !asks_times {
        return None;
    }
    let items = list_items(rest);
    (items.len() >= 2).then(|| (head.trim().to_string(), items))
}

/// Whether the words before a list ask something themselves: a timeline or a figure.
fn asks_of_its_own(head: &str) -> bool {
    crate::frame::build::asks_a_timeline(head) || crate::frame::build::asks_a_measure(head)
}

/// Where a colon opens a list: outside brackets and quotes, followed by a space (or a
/// full-width colon), so never inside a time or a URL.
fn list_colon(part: &str) -> Option<usize> {
    top_level(part).into_iter().find_map(|(i, c)| {
        let spaced = part[i + c.len_utf8()..].starts_with(char::is_whitespace);
        (c == '：' || (c == ':' && spaced)).then_some(i)
    })
}

/// The characters of `s` outside brackets and quotes, with their byte offsets.
fn top_level(s: &str) -> Vec<(usize, char)> {
    let mut depth = 0i32;
    let mut quoted = false;
    let mut out = Vec::new();
    for (i, c) in s.char_indices() {
        match c {
            '(' | '（' | '[' => depth += 1,
            ')' | '）' | ']' => depth -= 1,
            '"' | '\'' | '`' if toggles_a_quote(s, i, quoted) => quoted = !quoted,
            _ if depth <= 0 && !quoted => out.push((i, c)),
            _ => {}
        }
    }
    out
}

/// Whether the quote mark at `i` opens or closes a quotation: a double quote or backtick
/// always; a single quote opens after no letter and closes before none ("the proxy's" is
/// no quote).
fn toggles_a_quote(s: &str, i: usize, quoted: bool) -> bool {
    if !s[i..].starts_with('\'') {
        return true;
    }
    let word = |c: Option<char>| c.is_some_and(char::is_alphanumeric);
    if quoted {
        !word(s[i + 1..].chars().next())
    } else {
        !word(s[..i].chars().next_back())
    }
}

/// The items of a list: split at commas, semicolons and `、` outside brackets and quotes,
/// and at an "and" that opens the last item ("…, Y and the last Z").
fn list_items(rest: &str) -> Vec<String> {
    let mut items = Vec::new();
    let mut start = 0;
    for (i, c) in top_level(rest) {
        if matches!(c, ',' | '，' | '、' | ';' | '；') {
            items.push(rest[start..i].to_string());
            start = i + c.len_utf8();
        }
    }
    items.push(rest[start..].to_string());
    // "…, and the last Z": the opening "and" goes; "…Y and the last Z": a new item.
    static OPENING: OnceLock<Regex> = OnceLock::new();
    let opening = OPENING
        .get_or_init(|| Regex::new(r"(?i)^\s*(?:and\s+|以及|还有)").expect("a fixed pattern"));
    static INNER: OnceLock<Regex> = OnceLock::new();
    let inner = INNER.get_or_init(|| {
        Regex::new(r"(?i)\s+and\s+((?:the|a|an|when|its|their)\b)").expect("a fixed pattern")
    });
    let mut out = Vec::new();
    for item in items {
        let item = opening.replace(&item, "");
        let item = inner.replace_all(&item, "\u{1}$1");
        for piece in item.split('\u{1}') {
            let piece = piece.trim().trim_end_matches(['?', '？', '.', '。']).trim();
            if piece.chars().any(char::is_alphanumeric) {
                out.push(piece.to_string());
            }
        }
    }
    out
}

/// An item as a question of when it happened, over the log and window said before it.
fn as_a_moment(item: &str, log: Option<&str>, window: Option<&str>, ctx: &MessageCtx) -> String {
    let lower = item.to_lowercase();
    let asks = lexicon().grammar.interrogative.asks(&lower);
    let cjk = item.chars().any(crate::text::is_cjk);
    let mut q = match (asks, cjk) {
        (true, _) => item.to_string(),
        (false, true) => format!("{item} 是什么时候"),
        (false, false) => format!("when was {item}"),
    };
    if let Some(log) =
        log.filter(|_| crate::frame::log_names::session_logs_named(item, ctx.uploads).is_empty())
    {
        q.push_str(if cjk { " 在 " } else { " in " });
        q.push_str(log);
    }
    if let Some(w) = window.filter(|_| !crate::frame::build::says_a_time(item)) {
        q.push(' ');
        q.push_str(w);
    }
    q
}

/// The file name of the one session log a text names, if it names exactly one.
fn only_log_named(text: &str, ctx: &MessageCtx) -> Option<String> {
    match crate::frame::log_names::session_logs_named(text, ctx.uploads).as_slice() {
        [one] => ctx
            .uploads
            .iter()
            .find(|u| u.path.to_string_lossy() == one.as_str())
            .map(|u| u.filename.clone()),
        _ => None,
    }
}
