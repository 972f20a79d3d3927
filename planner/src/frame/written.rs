//! Phrases of a question that its log writes word for word ("no live upstreams", "DB saved
//! on disk"): read as that text, quoted, instead of word by word through the lexicon, whose
//! cue words inside them would each say something else.

use llmops_common::query::{FilterOp, Measure, Source};

use super::parsed::Parsed;
use super::scan::Lit;
use super::{is_log_upload, Frame, FrameCtx};
use crate::lexicon::{Cue, Hit, Lexicon};

/// Most words a phrase has.
const LONGEST: usize = 6;

/// A word of the question: its span in the lower-cased text.
type Word = (usize, usize);

/// The question with each phrase its log writes word for word quoted, when it has such a
/// phrase: a run of two or more words, not opening or closing on a small word or a cue of
/// the question's grammar, and not a field a grouping word asks
/// ("which backend timed out" keeps `backend` the grouped field). `None` when none is
/// written, or the question reads several logs (a timeline's words say how it is put).
pub(super) fn quote_written(
    lex: &Lexicon,
    p: &Parsed,
    frame: &Frame,
    ctx: &FrameCtx,
) -> Option<String> {
    let q = &frame.query;
    let [file] = q.files.as_slice() else {
        return None;
    };
    // A ranking's position or a percentile's rank is read out of the text first.
    let text_as_asked = p.rank.is_none() && p.percentile.is_none();
    if q.source != Source::Log || q.measure == Measure::Timeline || !text_as_asked {
        return None;
    }
    let u = ctx
        .uploads
        .iter()
        .find(|u| u.path.to_string_lossy() == file.as_str())
        .filter(|u| is_log_upload(u))?;
    let (mut candidates, runs) = candidates(lex, p);
    // Nor one right after a field of text's name, which would read as that field's value
    // ("按 tenant 看 exported report": the events' words, not a tenant's name).
    let bound = |&(s, _): &Word| {
        super::parsed::field_before(lex, p, q.source, s).is_some_and(|f| !p.holds_numbers(lex, &f))
    };
    candidates.retain(|c| !reads_a_field(lex, p, q, *c) && !bound(c));
    if candidates.is_empty() {
        return None;
    }
    let taken = taken(lex, p, &u.path, &candidates, &runs)?;
    // Quoted as the log writes it: "PHP Fatal errors" is looked for as "Fatal error".
    let mut out = String::with_capacity(p.text.len() + 4 * taken.len());
    let mut at = 0;
    for ((s, e), as_written) in taken {
        out.push_str(&p.text[at..s]);
        out.push('"');
        out.push_str(&as_written);
        out.push('"');
        at = e;
    }
    out.push_str(&p.text[at..]);
    Some(out)
}

/// Whether a phrase holds the word of the field the query measures or groups by ("the
/// lowest payload size"): quoting it would take that field away.
fn reads_a_field(lex: &Lexicon, p: &Parsed, q: &llmops_common::query::Query, (s, e): Word) -> bool {
    let read: Vec<&str> = q
        .field
        .iter()
        .chain(&q.group_by)
        .map(|f| f.as_str())
        .collect();
    p.hits.iter().any(|h| {
        let field = match h.cue {
            Cue::Field(i) => lex.fields[i].field.as_str(),
            Cue::Column(i) => p.columns.get(i).map_or("", |c| c.name.as_str()),
            _ => return false,
        };
        h.start < e && s < h.end && read.contains(&field)
    })
}

/// The phrases to quote, in the question's order, each as the log writes it: the longest
/// first, then the earliest, none overlapping another. Not one that leaves out a word of
/// its run that the log writes too ("kafka" of "the kafka circuit breaker", in its own
/// key: the run is read word by word, as the events' words). `None` when none is written,
/// or a list joins two ("order shipped 和 order cancelled" asks either of them, which
/// quoted texts are not).
fn taken(
    lex: &Lexicon,
    p: &Parsed,
    path: &std::path::Path,
    candidates: &[Word],
    runs: &[Vec<Word>],
) -> Option<Vec<(Word, String)>> {
    let unknown: Vec<Vec<Word>> = runs.iter().map(|r| unknown_words(lex, p, r)).collect();
    let mut looked_for = candidates.to_vec();
    looked_for.extend(unknown.iter().flatten().copied());
    let written = written_of(path, &p.lower, &looked_for)?;
    let said = |w: &Word| {
        let i = looked_for.iter().position(|x| x == w);
        i.is_some_and(|i| written[i].is_some())
    };
    let leaves_a_written_word = |(s, e): Word| {
        unknown
            .iter()
            .filter(|ws| ws.iter().any(|&(a, b)| s <= a && b <= e))
            .flatten()
            .any(|&(a, b)| (b <= s || e <= a) && said(&(a, b)))
    };
    let mut found: Vec<(Word, String)> = candidates
        .iter()
        .zip(&written)
        .filter(|&(&c, _)| !leaves_a_written_word(c))
        .filter_map(|(&c, w)| Some((c, w.clone()?)))
        .collect();
    found.sort_by_key(|&((s, e), _)| (std::cmp::Reverse(e - s), s));
    let mut taken: Vec<(Word, String)> = Vec::new();
    for ((s, e), as_written) in found {
        if !taken.iter().any(|&((a, b), _)| s < b && a < e) {
            taken.push(((s, e), as_written));
        }
    }
    taken.sort_unstable();
    let joiners = &lex.grammar.joiners;
    let listed = taken.windows(2).any(|w| {
        let gap = p.lower[w[0].0 .1..w[1].0 .0].trim();
        joiners.all().any(|j| j == gap)
    });
    (!taken.is_empty() && !listed).then_some(taken)
}

/// The runs of words the question could have copied from its log, and the runs of words
/// they are taken from.
fn candidates(lex: &Lexicon, p: &Parsed) -> (Vec<Word>, Vec<Vec<Word>>) {
    let mut out = Vec::new();
    let runs = word_runs(p);
    for run in &runs {
        for n in (2..=LONGEST.min(run.len())).rev() {
            for w in run.windows(n) {
                let span = (w[0].0, w[n - 1].1);
                if phrase_like(lex, p, w) && !out.contains(&span) {
                    out.push(span);
                }
            }
        }
    }
    (out, runs)
}

/// The words of a run no cue covers, no small word and no number: a name or a word the
/// question's reader cannot place.
fn unknown_words(lex: &Lexicon, p: &Parsed, run: &[Word]) -> Vec<Word> {
    run.iter()
        .copied()
        .filter(|&(s, e)| {
            let t = &p.lower[s..e];
            !p.hits.iter().any(|h| h.start < e && s < h.end)
                && !lex.grammar.stop.en.iter().any(|w| w == t)
                && !t.bytes().all(|b| b.is_ascii_digit())
        })
        .collect()
}

/// Runs of ASCII words side by side (one space apart) that no literal of the question's
/// own (a quoted text, a path, a time, a number) breaks into.
fn word_runs(p: &Parsed) -> Vec<Vec<Word>> {
    let bytes = p.lower.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'-' || b == b'.';
    let mut runs: Vec<Vec<Word>> = Vec::new();
    let mut run: Vec<Word> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_word(bytes[i]) {
            let gap_ends = bytes[i] != b' ' || bytes.get(i + 1) == Some(&b' ');
            if gap_ends && !run.is_empty() {
                runs.push(std::mem::take(&mut run));
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && is_word(bytes[i]) {
            i += 1;
        }
        let end = start + p.lower[start..i].trim_end_matches(['.', '-']).len();
        // A plain number is a word of a phrase ("exited on signal 9"); a number with a
        // unit is a length or a size of the question's own.
        let own_literal = p.lits.iter().any(|l| {
            l.start < end
                && start < l.end
                && !matches!(
                    l.lit,
                    Lit::Word(_) | Lit::Ident(_) | Lit::Number { unit: None, .. }
                )
        });
        if own_literal || end == start {
            if !run.is_empty() {
                runs.push(std::mem::take(&mut run));
            }
            continue;
        }
        run.push((start, end));
    }
    if !run.is_empty() {
        runs.push(run);
    }
    runs.retain(|r| r.len() >= 2);
    runs
}

/// Whether words `w` may be a phrase the log wrote: no small word or grammar cue at either
/// end (a number may close it: "signal 9"), no cue cut in two, no field right after a
/// grouping word, and not all a tag's words.
fn phrase_like(lex: &Lexicon, p: &Parsed, w: &[Word]) -> bool {
    let (start, end) = (w[0].0, w[w.len() - 1].1);
    let text = |&(s, e): &Word| &p.lower[s..e];
    let stop = |x: &Word| lex.grammar.stop.en.iter().any(|s| s == text(x));
    let digits = |x: &Word| text(x).bytes().all(|b| b.is_ascii_digit());
    let hits_on = |&(s, e): &Word| p.hits.iter().filter(move |h| h.start < e && s < h.end);
    let grammar = |h: &Hit| !h.cue.is_content() && h.cue != Cue::Negate;
    let edge_bad = |x: &Word| stop(x) || hits_on(x).any(grammar);
    // A cue reaching past the phrase ("error rate" cut at "error") is read whole.
    let cut = p
        .hits
        .iter()
        .any(|h| (h.start < start && start < h.end) || (h.start < end && end < h.end));
    let grouped = hits_on(&w[0]).any(|h| matches!(h.cue, Cue::Field(_) | Cue::Column(_)))
        && p.hits.iter().any(|h| {
            h.cue == Cue::Group && h.end <= start && p.lower[h.end..start].trim().is_empty()
        });
    // A tag's words ("OOM killer", "failed password") keep the tag, which finds every way
    // its events are written.
    let tag = |h: &Hit| matches!(h.cue, Cue::Filter(i) if lex.filters[i].op == FilterOp::Tag);
    let all_a_tag = w.iter().all(|x| hits_on(x).any(tag));
    let last = &w[w.len() - 1];
    let words = w.iter().filter(|x| !digits(x)).count();
    words >= 2
        && !all_a_tag
        && !cut
        && !grouped
        && !edge_bad(&w[0])
        && !digits(&w[0])
        && (digits(last) || !edge_bad(last))
}

/// How the log writes each of the phrases (spans of `lower`), if it does: its first
/// occurrence, case, spaces and a plural's `s` as the log has them; `None` when the log
/// cannot be read.
fn written_of(
    path: &std::path::Path,
    lower: &str,
    phrases: &[Word],
) -> Option<Vec<Option<String>>> {
    let patterns: Vec<String> = phrases
        .iter()
        .map(|&(s, e)| {
            // A plural the question says may be written singular ("PHP Fatal errors":
            // "PHP Fatal error"), and the other way round.
            let words: Vec<String> = lower[s..e]
                .split_whitespace()
                .map(|w| match w.strip_suffix('s').filter(|x| x.len() >= 3) {
                    Some(one) => format!("{}s?", regex::escape(one)),
                    None => format!("{}s?", regex::escape(w)),
                })
                .collect();
            format!(r"(?i)\b{}\b", words.join(r"[ \t]+"))
        })
        .collect();
    let set = regex::bytes::RegexSet::new(&patterns).ok()?;
    let each: Vec<regex::bytes::Regex> = patterns
        .iter()
        .map(|p| regex::bytes::Regex::new(p))
        .collect::<Result<_, _>>()
        .ok()?;
    let mut found: Vec<Option<String>> = vec![None; phrases.len()];
    super::log_read::blocks(path, |text| {
        for i in set.matches(text).iter() {
            if found[i].is_none() {
                found[i] = each[i]
                    .find(text)
                    .map(|m| String::from_utf8_lossy(m.as_bytes()).into_owned());
            }
        }
        found.iter().any(Option::is_none)
    })?;
    Some(found)
}
