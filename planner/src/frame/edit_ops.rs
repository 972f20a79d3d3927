//! Edits of the last query that its slots alone cannot say: more of the same list ("and the
//! next 3", "the 4th and 5th"), a text condition swapped for another ("and expanding?",
//! "chat.threads 呢"), the statistic changed over the same field ("平均呢" after a median),
//! the same question over another log ("chat-db-b 呢"), and the time the last answer
//! pointed at ("at that time", "那一分钟前后").

use std::sync::OnceLock;

use llmops_common::query::{Filter, FilterOp, Measure, Query, Scalar, TimePoint, Window};
use regex::Regex;

use super::parsed::Parsed;
use super::scan::Lit;
use super::AnswerTime;
use crate::lexicon::{Cue, Lexicon};
use crate::text::{ends_with_word, starts_with_word};

/// Whether the last answer is a list whose length a follow-up can extend.
pub(super) fn is_list(q: &Query) -> bool {
    !q.group_by.is_empty() || q.measure == llmops_common::query::Measure::Rows
}

/// "and the next 3", "后面 5 个", "3 more": the last list's length plus the number; "the 4th
/// and 5th", "第四到第六个": up to the highest position asked, when it lies past the list
/// shown. `None` when the message asks for no more of it.
pub(super) fn more_items(lex: &Lexicon, p: &Parsed, last: &Query, shown: usize) -> Option<u32> {
    // A figure or a condition of its own is another question ("第二个呢？多少条"); "show
    // me 5 more" only lists.
    let own = p.has(|c| match c {
        Cue::Measure(i) => lex.measures[i].weight > 1,
        Cue::Filter(_) | Cue::Source(_) | Cue::Bucket(_) | Cue::Unit(_) => true,
        _ => false,
    });
    if !is_list(last) || own {
        return None;
    }
    let words = &lex.grammar.follow;
    let next_words = words.next();
    // A plain number (no unit: "再看 5 分钟" is a window) right after a "next" word, or
    // right before "more".
    let asked = p.lits.iter().find_map(|l| {
        let Lit::Number { value, unit: None } = l.lit else {
            return None;
        };
        let before = p.lower.get(..l.start)?.trim_end();
        let after = p.lower.get(l.end..)?.trim_start();
        let next = next_words
            .all()
            .any(|w| ends_with_word(before, &w.to_lowercase()));
        let more = words.more_en.iter().any(|w| starts_with_word(after, w));
        (next || more).then_some(value as u32)
    });
    if let Some(n) = asked.filter(|n| (1..=100).contains(n)) {
        let base = last.limit.unwrap_or(Query::DEFAULT_LIMIT).max(shown as u32);
        return Some((base + n).min(Query::MAX_LIMIT));
    }
    // "top 5 then", "前 3 个呢": the same list at that length; "top 5 paths" is another
    // ranking.
    let names = p.has(|c| matches!(c, Cue::Field(_) | Cue::Column(_)));
    let top = p.lits.iter().filter(|_| !names).find_map(|l| {
        let Lit::Number { value, unit: None } = l.lit else {
            return None;
        };
        p.hits
            .iter()
            .any(|h| h.cue == Cue::Limit && h.end <= l.start && p.close(h.end, l.start))
            .then_some(value as u32)
    });
    if let Some(n) = top.filter(|n| (1..=Query::MAX_LIMIT).contains(n)) {
        return Some(n);
    }
    let positions = positions(&p.lower);
    let highest = positions.iter().copied().max()?;
    (positions.len() >= 2 || highest > shown).then_some(highest as u32)
}

/// The list positions written as ordinals ("4th", "fifth", "第四", "第 5 个").
fn positions(lower: &str) -> Vec<usize> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = R.get_or_init(|| {
        Regex::new(
            r"\b(second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|\d{1,2}(?:st|nd|rd|th))\b|第\s*([0-9]{1,2}|[一二三四五六七八九十两]{1,3})",
        )
        .expect("the ordinal pattern compiles")
    });
    const WORDS: [&str; 9] = [
        "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    ];
    r.captures_iter(lower)
        .filter_map(|c| {
            if let Some(w) = c.get(1).map(|m| m.as_str()) {
                return WORDS
                    .iter()
                    .position(|x| *x == w)
                    .map(|i| i + 2)
                    .or_else(|| {
                        w.trim_end_matches(|ch: char| ch.is_ascii_alphabetic())
                            .parse()
                            .ok()
                    });
            }
            c.get(2).and_then(|m| crate::follow::zh_number(m.as_str()))
        })
        .filter(|n| *n > 0)
        .collect()
}

/// Puts a follow-up's text condition in place of the last query's: the one written alike
/// (`chat.threads` for `chat.messages`: the same punctuation between the same kind of
/// words), else the one text condition the last query has. Several and none alike: the new
/// one narrows. Returns whether it replaced one.
pub(super) fn swap_text(filters: &mut [Filter], new: &Filter) -> bool {
    let Some(value) = text_of(new) else {
        return false;
    };
    if new.field.is_some() {
        return false;
    }
    let alike = filters
        .iter()
        .position(|f| text_of(f).is_some_and(|v| shape(v).is_some() && shape(v) == shape(value)));
    // Words the events say, not the name of whom they are about ("P7" stays when "losing
    // pressure" becomes "back online").
    let names_a_thing = |f: &Filter| {
        f.op == FilterOp::Contains
            && text_of(f).is_some_and(|v| !v.contains(' ') && super::scan::names_one_thing(v))
    };
    let unnamed: Vec<usize> = filters
        .iter()
        .enumerate()
        .filter(|(_, f)| f.field.is_none() && text_of(f).is_some() && !names_a_thing(f))
        .map(|(i, _)| i)
        .collect();
    let at = alike.or(match unnamed.as_slice() {
        [one] => Some(*one),
        _ => None,
    });
    let Some(at) = at else {
        return false;
    };
    let old = &mut filters[at];
    if old.field.is_some() && old.op == FilterOp::Eq {
        // A field's value swapped: the same field, the new value.
        old.value = Scalar::Text(value.to_string());
    } else {
        *old = new.clone();
    }
    true
}

/// The text a filter looks for, when it looks for text.
fn text_of(f: &Filter) -> Option<&str> {
    match (&f.op, &f.value) {
        (FilterOp::Contains | FilterOp::Regex | FilterOp::Eq, Scalar::Text(t)) => Some(t),
        _ => None,
    }
}

/// The punctuation a name is written with (`.` for `chat.messages`, `--` for `web-db-a`):
/// `None` for a plain word or phrase.
fn shape(v: &str) -> Option<String> {
    let s: String = v
        .chars()
        .filter(|c| !c.is_alphanumeric() && !c.is_whitespace())
        .collect();
    (!s.is_empty() && !v.contains(' ')).then_some(s)
}

/// "what about the app log at that time", "那一分钟前后发生了什么": the window of the time the
/// last answer pointed at. Around it when the question says "around" or asks a timeline;
/// else the peak bucket itself, or a minute either side of the event named.
pub(super) fn then_window(lex: &Lexicon, p: &Parsed, at: &AnswerTime, q: &Query) -> Window {
    let point = |s: &str| TimePoint(s.to_string());
    let around = lex.grammar.window.around_default_seconds;
    if p.has(|c| c == Cue::Around) || q.measure == Measure::Timeline {
        return Window::Around {
            at: point(&at.at),
            seconds: around,
        };
    }
    // A bucket's start is written to its own precision, so the end is the same text (a
    // minute, a day) or its last minute (5 and 10 minutes, an hour); both ends are
    // included whole.
    let whole = |to: String| Window::Between {
        from: Some(point(&at.at)),
        to: Some(point(&to)),
    };
    match at.width_seconds {
        0 => Window::Around {
            at: point(&at.at),
            seconds: 60,
        },
        60 | 86_400 => whole(at.at.clone()),
        w => match plus_minutes(&at.at, (w / 60).saturating_sub(1)) {
            Some(to) if w % 60 == 0 && w < 86_400 => whole(to),
            _ => Window::Around {
                at: point(&at.at),
                seconds: w / 2,
            },
        },
    }
}

/// `at` (ending in `HH:MM`) that many minutes later, on the same day only.
fn plus_minutes(at: &str, minutes: u64) -> Option<String> {
    let cut = at.len().checked_sub(5)?;
    let (head, hm) = (at.get(..cut)?, at.get(cut..)?);
    let end = crate::answer::query::clock_minutes(hm)? + minutes;
    (end < 1440).then(|| format!("{head}{:02}:{:02}", end / 60, end % 60))
}
