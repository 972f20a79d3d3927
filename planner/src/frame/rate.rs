//! Where a question asks a rate: a rate's own word ("error rate", "失败率"), or a word after
//! a condition that asks its rate ("5xx rate", "超时率").

use super::parsed::Parsed;
use crate::lexicon::{Cue, Lexicon};

/// Where the question asks a rate: a rate's word ("error rate", "失败率"), or a condition
/// followed by a word that asks its rate ("5xx rate", "404 ratio", "超时率"); the span of
/// the rate asked, its condition included.
pub(super) fn rate_asked(lex: &Lexicon, p: &Parsed) -> Option<(usize, usize)> {
    let r = &lex.grammar.rate;
    if let Some(span) = r
        .before
        .all()
        .find_map(|w| crate::lexicon::occurrences(&p.lower, w).first().copied())
    {
        return Some(span);
    }
    let conditions = p
        .hits
        .iter()
        .filter(|h| matches!(h.cue, Cue::Filter(_)))
        .map(|h| (h.start, h.end))
        .chain(p.lits.iter().map(|l| (l.start, l.end)));
    for (a, e) in conditions {
        let after = &p.lower[e..];
        let gap = after.len() - after.trim_start().len();
        let after = &after[gap..];
        let word = |w: &&String| {
            after.starts_with(w.as_str())
                && !after[w.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_alphanumeric() && c.is_ascii())
        };
        let asked = r.after_en.iter().filter(|w| word(w));
        let asked = asked.chain(r.after_zh.iter().filter(|w| after.starts_with(w.as_str())));
        if let Some(w) = asked.map(String::len).max() {
            return Some((a, e + gap + w));
        }
    }
    None
}
