//! Phrases of a question that its log writes word for word ("no live upstreams", "DB saved
//! on disk"): read as that text, quoted, instead of word by word through the lexicon, whose
//! cue words inside them would each say something else.

use std::io::Read;

use llmops_common::query::{Measure, Source};

use super::parsed::Parsed;
use super::scan::Lit;
use super::{is_log_upload, Frame, FrameCtx};
use crate::lexicon::{Cue, Hit, Lexicon};

/// How much of a log is read to find the phrases.
const READ: u64 = 64 << 20;
/// Most words a phrase has.
const LONGEST: usize = 6;

/// A word of the question: its span in the lower-cased text.
type Word = (usize, usize);

/// The question with each phrase its log writes word for word quoted, when it has such a
/// phrase: a run of two or more words holding a cue word, not opening or closing on a
/// small word or a cue of the question's grammar, and not a field a grouping word asks
/// ("which upstream timed out" keeps `upstream` the grouped field). `None` when none is
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
    let candidates = candidates(lex, p);
    if candidates.is_empty() {
        return None;
    }
    let written = written_of(&u.path, &p.lower, &candidates)?;
    // The longest first, then the earliest; none overlapping another taken.
    let mut found: Vec<Word> = candidates
        .into_iter()
        .zip(written)
        .filter_map(|(c, w)| w.then_some(c))
        .collect();
    found.sort_by_key(|&(s, e)| (std::cmp::Reverse(e - s), s));
    let mut taken: Vec<Word> = Vec::new();
    for (s, e) in found {
        if !taken.iter().any(|&(a, b)| s < b && a < e) {
            taken.push((s, e));
        }
    }
    if taken.is_empty() {
        return None;
    }
    taken.sort_unstable();
    let mut out = String::with_capacity(p.text.len() + 4 * taken.len());
    let mut at = 0;
    for (s, e) in taken {
        out.push_str(&p.text[at..s]);
        out.push('"');
        out.push_str(&p.text[s..e]);
        out.push('"');
        at = e;
    }
    out.push_str(&p.text[at..]);
    Some(out)
}

/// The runs of words the question could have copied from its log.
fn candidates(lex: &Lexicon, p: &Parsed) -> Vec<Word> {
    let mut out = Vec::new();
    for run in word_runs(p) {
        for n in (2..=LONGEST.min(run.len())).rev() {
            for w in run.windows(n) {
                let span = (w[0].0, w[n - 1].1);
                if phrase_like(lex, p, w) && !out.contains(&span) {
                    out.push(span);
                }
            }
        }
    }
    out
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
        let own_literal = p.lits.iter().any(|l| {
            l.start < end && start < l.end && !matches!(l.lit, Lit::Word(_) | Lit::Ident(_))
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

/// Whether words `w` may be a phrase the log wrote: a cue word among them (a run of
/// unknown words alone is the object's, matched by its forms), no small word or grammar cue
/// at either end, no field right after a grouping word, and no digits only.
fn phrase_like(lex: &Lexicon, p: &Parsed, w: &[Word]) -> bool {
    let (start, end) = (w[0].0, w[w.len() - 1].1);
    let text = |&(s, e): &Word| &p.lower[s..e];
    let small = |x: &Word| {
        let t = text(x);
        lex.grammar.stop.en.iter().any(|s| s == t) || t.bytes().all(|b| b.is_ascii_digit())
    };
    let hits_on = |&(s, e): &Word| p.hits.iter().filter(move |h| h.start < e && s < h.end);
    let grammar = |h: &Hit| !h.cue.is_content() && h.cue != Cue::Negate;
    let edge_bad = |x: &Word| small(x) || hits_on(x).any(grammar);
    let cue_inside = w.iter().any(|x| hits_on(x).any(|h| h.cue.is_content()));
    // A cue reaching past the phrase ("error rate" cut at "error") is read whole.
    let cut = p
        .hits
        .iter()
        .any(|h| (h.start < start && start < h.end) || (h.start < end && end < h.end));
    let grouped = hits_on(&w[0]).any(|h| matches!(h.cue, Cue::Field(_) | Cue::Column(_)))
        && p.hits.iter().any(|h| {
            h.cue == Cue::Group && h.end <= start && p.lower[h.end..start].trim().is_empty()
        });
    cue_inside && !cut && !grouped && !edge_bad(&w[0]) && !edge_bad(&w[w.len() - 1])
}

/// Which of the phrases (spans of `lower`) the log writes, case ignored and any run of
/// spaces between words alike; `None` when it cannot be read.
fn written_of(path: &std::path::Path, lower: &str, phrases: &[Word]) -> Option<Vec<bool>> {
    let patterns: Vec<String> = phrases
        .iter()
        .map(|&(s, e)| {
            let words: Vec<String> = lower[s..e].split_whitespace().map(regex::escape).collect();
            format!(r"(?i)\b{}\b", words.join(r"[ \t]+"))
        })
        .collect();
    let set = regex::bytes::RegexSet::new(&patterns).ok()?;
    let mut found = vec![false; phrases.len()];
    let mut file = std::fs::File::open(path).ok()?.take(READ);
    const BLOCK: usize = 1 << 20;
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK * 2);
    let mut block = vec![0u8; BLOCK];
    while found.iter().any(|f| !f) {
        let n = file.read(&mut block).ok()?;
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&block[..n]);
        for i in set.matches(&buf).iter() {
            found[i] = true;
        }
        // Keep the last (partial) line for the next block.
        let keep = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        buf.drain(..keep);
    }
    Some(found)
}
