//! The unknown words of a log question: what it counts or shows when it names it in words
//! the lexicon does not know, and the words that name the log itself instead.

use llmops_common::query::{Filter, Scalar, Source, Unit};

use super::log_names::log_word_in;
use super::parsed::{filter, Parsed};
use super::scan::Lit;
use super::words::{any_wording, word_forms};
use crate::lexicon::{Cue, Lexicon};

/// The unknown words a log question names, as a condition on the events' text.
pub(super) struct Object {
    pub filter: Filter,
    /// A condition stands beside them and they say whose it is ("nginx 的重启次数").
    pub qualifies: bool,
    /// They follow a name: what that name did ("did thumb-worker exit").
    pub after_a_name: bool,
    /// Where they stand in the question.
    pub span: (usize, usize),
}

/// What a log question counts or shows when it names it in words the lexicon does not know
/// ("how many deadlocks", "connection refused 出现了多少次", "when did the disk fill up"):
/// the first run of such words is matched in the events, case-insensitively. Words that
/// name the log itself (a part of an upload's name, a word right before "log") are not.
pub(super) fn object_words(lex: &Lexicon, p: &Parsed) -> Option<Object> {
    let words: Vec<&super::scan::Spanned> = p
        .lits
        .iter()
        .filter(|l| matches!(&l.lit, Lit::Word(w) if !super::zones::is_zone_word(lex, w)))
        .filter(|l| !names_the_log(lex, p, l))
        // A column's value is that field's condition ("login" of `event`), not text.
        .filter(|l| !matches!(&l.lit, Lit::Word(w) if p.column_with_value(w).is_some()))
        .collect();
    // Runs of such words standing next to each other, or a verb and its object with a
    // determiner between ("lose the lease"); the longest names the thing (a verb before
    // it is one word, "stale lock files" three), the later on a tie.
    let determiners = &lex.grammar.determiners;
    let joins = |gap: &str| {
        gap.chars().all(|c| c == ' ' || c == '-') || determiners.en.iter().any(|d| d == gap.trim())
    };
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for w in &words {
        match runs.last_mut() {
            Some((_, end, n)) if p.lower.get(*end..w.start).is_some_and(joins) => {
                *end = w.end;
                *n += 1;
            }
            _ => runs.push((w.start, w.end, 1)),
        }
    }
    let &(start, end, _) = runs.iter().max_by_key(|&&(s, _, n)| (n, s))?;
    let first = words.iter().find(|w| w.start == start)?;
    let phrase = p
        .lower
        .get(first.start..end)?
        .split(' ')
        .filter(|w| !w.is_empty() && !determiners.en.iter().any(|d| d == w))
        .collect::<Vec<_>>()
        .join(" ");
    let qualifies = qualifies(lex, p, (first.start, end), &phrase);
    let after_a_name = right_after_a_name(p, first.start);
    (phrase.len() >= 3).then(|| {
        // A program's one-word term for what its log writes in words ("bgsave" for Redis's
        // "Background saving") matches every English wording of its lexicon entry; words
        // written out are matched as written (and stemmed), as `grep` would.
        let term = !phrase.contains(' ');
        let english: Vec<&str> = term
            .then(|| lex.wordings(&phrase))
            .flatten()
            .unwrap_or_default()
            .into_iter()
            .filter(|w| !w.chars().any(crate::text::is_cjk))
            .collect();
        let filter = if english.len() > 1 {
            any_wording(None, english.into_iter())
        } else {
            let (op, text) = word_forms(&phrase);
            filter(None, op, Scalar::Text(text), Unit::None)
        };
        // "quotes that were not priced": the events without them.
        let filter = p.as_said((first.start, end), filter);
        Object {
            filter,
            qualifies,
            after_a_name,
            span: (first.start, end),
        }
    })
}

/// Whether the words at `span` (`phrase`) are what is counted whatever else the question
/// asks: a condition or a ranking word stands beside them, they are an identifier, or a
/// clause says which of a distinct count's values are counted.
fn qualifies(lex: &Lexicon, p: &Parsed, (start, end): (usize, usize), phrase: &str) -> bool {
    // A ranking word before them in English, after them in Chinese, says they are what
    // is counted ("the most cache evictions", "cache eviction 最多的 4 个 shard"), not a verb
    // ("which endpoint throws the most 5xx").
    let rank = &lex.grammar.rank;
    let ranks = |h: &crate::lexicon::Hit, before: bool| {
        p.lower.get(h.start..h.end).is_some_and(|w| {
            let words = if before { &rank.en } else { &rank.zh };
            words.iter().any(|r| r == w)
        })
    };
    let beside = p.hits.iter().any(|h| {
        let (gap, before) = if h.start >= end {
            (p.gap(end, h.start), false)
        } else if h.end <= start {
            (p.gap(h.end, start), true)
        } else {
            return false;
        };
        let linked = gap.is_empty() || lex.grammar.object_links.all().any(|w| w == gap);
        (matches!(h.cue, Cue::Filter(_)) || ranks(h, before)) && linked
    });
    // An identifier ("u011", "tx42") names one thing whatever else is asked: no filler.
    let id_like = |w: &str| {
        w.chars().any(|c| c.is_ascii_digit()) && w.chars().any(|c| c.is_ascii_alphabetic())
    };
    let identifier = !phrase.is_empty() && phrase.split([' ', '-']).all(id_like);
    beside || identifier || says_which_are_counted(lex, p, start)
}

/// "how many distinct tickets were escalated": words of a clause (`[relative]`: "got",
/// "that", "which") after the field a distinct count counts say which of its values are
/// counted; not a word right after it ("client_ip values") nor a phrase of how often
/// ("tickets showed up at least once").
fn says_which_are_counted(lex: &Lexicon, p: &Parsed, at: usize) -> bool {
    let distinct = p.hits.iter().find(|h| {
        matches!(h.cue, Cue::Measure(i)
            if lex.measures[i].measure == llmops_common::query::Measure::CountDistinct)
    });
    distinct.is_some_and(|d| {
        p.hits.iter().any(|h| {
            matches!(h.cue, Cue::Field(_) | Cue::Column(_))
                && d.end <= h.start
                && h.end < at
                && lex.grammar.relative.occur_in(&p.lower[h.end..at])
        })
    })
}

/// "did pdf-renderer exit", "how often did nginx reload": a word right after a name
/// (a process, a service) is what that name did, the event counted.
fn right_after_a_name(p: &Parsed, at: usize) -> bool {
    // At most one framing word between ("did P7 start losing pressure").
    let stop = &crate::lexicon::lexicon().grammar.stop.en;
    let near = |gap: &str| {
        let words: Vec<&str> = gap.split_whitespace().collect();
        words.is_empty() || (words.len() == 1 && stop.iter().any(|s| s == words[0]))
    };
    p.lits.iter().any(|l| {
        matches!(&l.lit, Lit::Ident(t) if !p.names_an_upload(t))
            && l.end <= at
            && p.lower.get(l.end..at).is_some_and(near)
    })
}

/// "gateway" in "the gateway log" or when an upload is named `gateway-access.log`.
fn names_the_log(lex: &Lexicon, p: &Parsed, l: &super::scan::Spanned) -> bool {
    let Lit::Word(w) = &l.lit else { return false };
    let before_a_table_word = p.hits.iter().any(|h| {
        matches!(h.cue, Cue::Source(i) if lex.sources[i].source == Source::Log)
            && h.start >= l.end
            && p.lower[l.end..h.start].trim().len() <= 3
    });
    before_a_table_word || stands_before_a_log_word(lex, p, l) || p.names_an_upload(w)
}

/// Whether the word names whose log it is: a word for the log follows it ("log", "日志",
/// or a kind of log such as "docker log", "容器日志"), with at most two short words between
/// that are no cue ("gateway log", "meter-ingest docker log", "骑手网关那个日志"; not
/// "deadlock errors in the log", not "cart-sync lines").
pub(super) fn stands_before_a_log_word(
    _lex: &Lexicon,
    p: &Parsed,
    l: &super::scan::Spanned,
) -> bool {
    // A file named right after, with at most a possessive between ("kafka-2 的 server.log",
    // "web-3's access.log"): the name says whose file it is.
    let before_a_file = p.file_spans.iter().any(|&(s, _)| {
        s >= l.end
            && p.text.get(l.end..s).is_some_and(|gap| {
                matches!(
                    gap.trim(),
                    "" | "的" | "'s" | "上的" | "里的" | "on" | "from"
                )
            })
    });
    if before_a_file {
        return true;
    }
    let after = p.text.get(l.end..).unwrap_or("").to_lowercase();
    let at = log_word_in(&after).filter(|&i| i <= 24);
    let Some(at) = at else { return false };
    let gap = after[..at].trim();
    let cue_between = p.hits.iter().any(|g| {
        g.start >= l.end && g.end <= l.end + at && !matches!(g.cue, Cue::Refer | Cue::Follow)
    });
    let word_start = after[at..].starts_with("日志")
        || !after[..at].ends_with(|c: char| c.is_ascii_alphanumeric() || c == '.');
    word_start && gap.split_whitespace().count() <= 2 && !cue_between
}
