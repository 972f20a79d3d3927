//! Clauses that belong together: a note that names the attached logs, a clause that only
//! names a log or turns to another one, and a request for a timeline after what it is about.

use crate::UploadRef;

use super::MessageCtx;

/// Words around a file's name that say where to look ("看 messages", "look at app.log").
const ASIDE: [&str; 18] = [
    "看看",
    "看下",
    "看一下",
    "查看",
    "看",
    "查",
    "在",
    "用",
    "里",
    "中",
    "的",
    "look at",
    "check",
    "see",
    "in",
    "use",
    "using",
    "from",
];

/// Words of a short note that the files came with the message.
const ATTACHED: [&str; 12] = [
    "attached",
    "uploaded",
    "are here",
    "附件",
    "附上",
    "上传了",
    "已上传",
    "发你了",
    "传上来",
    "都在这",
    "在这里",
    "都传了",
];

/// A clause that names an upload and nothing else but [`ASIDE`] words.
fn only_a_file(c: &str, uploads: &[UploadRef]) -> bool {
    let mut rest = c.to_lowercase();
    let mut named = false;
    for u in uploads {
        let name = u.filename.to_lowercase();
        if !crate::lexicon::occurrences(&rest, &name).is_empty() {
            rest = rest.replace(&name, " ");
            named = true;
        }
    }
    for w in ASIDE {
        rest = rest.replace(w, " ");
    }
    named && rest.chars().all(|ch| !ch.is_alphanumeric())
}

/// "redis replica blip around 1:12? timeline pls": a clause that asks for a timeline and
/// one before it that asks no figure are one question (what it is about, and the form).
/// So are two timeline clauses when the second says no time of its own ("what happened on
/// the cache host near 04:05? line up its journal with the proxy log, in time order"): the
/// second names the logs of the first one's minute.
pub(super) fn timeline_requests(parts: Vec<String>) -> Vec<String> {
    use crate::frame::build::{asks_a_measure, asks_a_timeline, says_a_time};
    let mut out: Vec<String> = Vec::new();
    for part in parts {
        let joins = asks_a_timeline(&part)
            && out.last().is_some_and(|prev| {
                !asks_a_measure(prev)
                    || (asks_a_timeline(prev) && says_a_time(prev) && !says_a_time(&part))
            });
        match out.last_mut() {
            Some(prev) if joins => {
                prev.push(' ');
                prev.push_str(&part);
            }
            _ => out.push(part),
        }
    }
    out
}

/// An attachment note without its words for "attached" ("dispatcher log attached too" ->
/// "dispatcher log").
fn without_attached_words(part: &str) -> String {
    let mut lower = part.to_lowercase();
    for w in ATTACHED.iter().chain(["too", "also", "as well"].iter()) {
        crate::lexicon::blank(&mut lower, w);
    }
    lower.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// "uwsgi 那个日志里呢", "and the redis log?": a follow-up whose only target is one of the
/// session's logs.
fn switches_log(c: &str, uploads: &[UploadRef]) -> bool {
    crate::follow::repeat_target(c)
        .is_some_and(|t| crate::frame::log_names::names_a_session_log(&t, uploads))
        && !crate::frame::build::asks_a_measure(c)
}

/// "journal's attached", "日志在附件里": a short note that the file came with the message;
/// it asks for nothing itself.
fn attachment_note(c: &str, uploads: &[UploadRef]) -> bool {
    let lower = c.to_lowercase();
    !uploads.is_empty()
        && ATTACHED.iter().any(|w| lower.contains(w))
        && lower.split_whitespace().count() <= 6
        && !lower.contains(['?', '？'])
        && lower.chars().filter(|ch| !ch.is_ascii()).count() <= 12
}

/// Whether a clause only says which logs the question reads. "carouseld + rx-api gunicorn
/// error log": with two logs named and no question of its own, a word or two more say what
/// the logs are (the software, "error", "access").
fn names_logs_only(c: &str, uploads: &[UploadRef]) -> bool {
    match crate::frame::log_names::logs_named(c, uploads) {
        Some((_, 0)) => true,
        Some((files, unknown)) => {
            files >= 2
                && unknown <= 2
                && !c.contains(['?', '？'])
                && !crate::frame::build::asks_a_measure(c)
        }
        None => false,
    }
}

/// "… how many PATCHes? any method", "…？不管状态码": a clause that only says a condition
/// on a field is not asked: a `[scope]` word and a field's name.
fn scope_note(c: &str) -> bool {
    let lower = c
        .trim()
        .trim_end_matches(['?', '？', '.', '。'])
        .to_lowercase();
    let lex = crate::lexicon::lexicon();
    let scope = &lex.grammar.scope;
    let rest = scope
        .en
        .iter()
        .find_map(|w| {
            lower
                .strip_prefix(w.as_str())
                .filter(|r| r.starts_with(' '))
        })
        .or_else(|| scope.zh.iter().find_map(|w| lower.strip_prefix(w.as_str())));
    let Some(rest) = rest.map(str::trim) else {
        return false;
    };
    lex.fields
        .iter()
        .any(|f| f.words.en.iter().chain(&f.words.zh).any(|w| w == rest))
}

/// "nginx 重启了几次？看 messages": a clause that only names a file says where the
/// clause before it (or, first, after it) looks; it is no task of its own. A note that
/// the files came with the message is dropped, or joined the same way when it names the
/// session's logs ("apache + supervisor logs attached", "kafka 和 supervisord 的日志都在这").
pub(super) fn with_file_clauses(parts: Vec<String>, ctx: &MessageCtx) -> Vec<String> {
    let several = parts.len() > 1;
    let last = parts.len().saturating_sub(1);
    let mut out: Vec<String> = Vec::new();
    let mut carry: Option<String> = None;
    for (i, part) in parts.into_iter().enumerate() {
        if several && i > 0 && scope_note(&part) {
            continue;
        }
        // "which tenant failed most? the part after tenant=": what the question means.
        if several && crate::frame::defined::only_defines(crate::lexicon::lexicon(), &part) {
            if let Some(prev) = out.last_mut() {
                prev.push(' ');
                prev.push_str(&part);
                continue;
            }
        }
        // "…? in ms", "…？给百分比": in what unit or form the answer is wanted.
        match only_says_the_form(&part) {
            Form::Said if several && !out.is_empty() => {
                if let Some(prev) = out.last_mut() {
                    prev.push(' ');
                    prev.push_str(&part);
                }
                continue;
            }
            // "…? in litres": a unit no figure is converted to asks nothing of its own.
            Form::Unconverted if several && !out.is_empty() => continue,
            _ => {}
        }
        let note = several && attachment_note(&part, ctx.uploads);
        if note && !crate::frame::log_names::names_a_session_log(&part, ctx.uploads) {
            continue;
        }
        // "uwsgi 那个日志里呢？有多少个 500": a clause that only turns to another log says
        // which log the next clause asks about.
        if i < last && switches_log(&part, ctx.uploads) {
            carry = Some(match carry.take() {
                Some(c) => format!("{c} {part}"),
                None => part,
            });
            continue;
        }
        let only_logs = several && names_logs_only(&part, ctx.uploads);
        if note || only_logs || only_a_file(&part, ctx.uploads) {
            // What it says of the files ("attached") is no condition of the question.
            let part = if note {
                without_attached_words(&part)
            } else {
                part
            };
            match out.last_mut() {
                Some(prev) => {
                    prev.push(' ');
                    prev.push_str(&part);
                }
                None => carry = Some(part),
            }
            continue;
        }
        out.push(match carry.take() {
            Some(c) => format!("{part} {c}"),
            None => part,
        });
    }
    out.extend(carry);
    out
}

/// What a clause that only says in what form the answer is wanted says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Form {
    /// More than that.
    Not,
    /// A unit figures are given in, or a share ("in ms", "给百分比").
    Said,
    /// Only a unit no figure is converted to ("in litres").
    Unconverted,
}

/// A clause that only says in what unit or form the answer is wanted ("in ms", "as a
/// percent pls", "给百分比", "用秒", "in litres", "to the second pls"): a unit, a share's
/// word (`[share]`) or an exactness (`[answer_exact]`), and besides it only the words
/// `[answer_form]` lists.
fn only_says_the_form(part: &str) -> Form {
    let g = &crate::lexicon::lexicon().grammar;
    let mut rest = part.to_lowercase();
    let (mut said, mut unconverted) = (false, false);
    let said_words = g
        .unit
        .iter()
        .flat_map(|u| u.words.all())
        .chain(g.share.all())
        .chain(g.answer_exact.all());
    // Longest first, so "百分比" goes before "百分", "seconds" before "s".
    let mut words: Vec<(&str, Kind)> = said_words
        .map(|w| (w, Kind::Said))
        .chain(
            g.answer_form_unconverted
                .all()
                .map(|w| (w, Kind::Unconverted)),
        )
        .chain(g.answer_form.all().map(|w| (w, Kind::Word)))
        .collect();
    words.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
    for (w, kind) in words {
        if crate::lexicon::blank(&mut rest, w) {
            said |= kind == Kind::Said;
            unconverted |= kind == Kind::Unconverted;
        }
    }
    let only = rest
        .chars()
        .all(|c| c.is_whitespace() || c.is_ascii_punctuation() || "？，。！：".contains(c));
    match (only, said, unconverted) {
        (true, true, _) => Form::Said,
        (true, false, true) => Form::Unconverted,
        _ => Form::Not,
    }
}

/// What a word of such a clause says.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// A unit figures are given in, or a share's word.
    Said,
    Unconverted,
    Word,
}

#[cfg(test)]
mod tests {
    use super::{only_says_the_form, Form};

    #[test]
    fn a_clause_of_the_answer_s_form_only() {
        for said in [
            "in ms",
            "as a percent pls",
            "给百分比",
            "用秒",
            "in seconds",
            "in litres",
            "用毫升",
            "down to the second please",
            "精确到秒",
        ] {
            assert_eq!(only_says_the_form(said), Form::Said, "{said}");
        }
        for unconverted in ["in euros", "in usd pls", "用美元"] {
            assert_eq!(
                only_says_the_form(unconverted),
                Form::Unconverted,
                "{unconverted}"
            );
        }
        for question in ["how many in ms", "errors in app.log", "p99 in ms for /api"] {
            assert_eq!(only_says_the_form(question), Form::Not, "{question}");
        }
    }
}
