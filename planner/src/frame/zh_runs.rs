//! Runs of Chinese in a question that no cue or literal covers, and the log fields their
//! dictionary English names.

use llmops_common::query::Column;

use crate::lexicon::{Cue, Hit};
use crate::text::is_cjk;

/// Chinese words whose dictionary English is one of the log's field names, right after a
/// grouping word ("哪个门店" over a log with `store`, "每个租户" with `tenant`): hits of that
/// field. Elsewhere such a word is no field ("系统状态" is not a log's `status`): a
/// translation never makes a question one about a log.
pub(super) fn column_words(text: &str, hits: &[Hit], columns: &[Column]) -> Vec<Hit> {
    let after_group = |at: usize| {
        hits.iter()
            .any(|h| h.cue == Cue::Group && h.end <= at && text[h.end..at].trim().is_empty())
    };
    let mut out = Vec::new();
    for (at, run) in uncovered_runs(text, hits.iter().map(|h| (h.start, h.end))) {
        if !after_group(at) {
            continue;
        }
        // Only the run's first word is the grouped one.
        for term in crate::config::words::question(run)
            .terms
            .into_iter()
            .take(1)
        {
            let Some(i) = term.forms.iter().find_map(|f| field_named(columns, f)) else {
                continue;
            };
            if let Some(off) = run.find(term.text.as_str()) {
                out.push(Hit {
                    start: at + off,
                    end: at + off + term.text.len(),
                    cue: Cue::Column(i),
                });
            }
        }
    }
    out
}

/// The log field an English word names: the whole name or its first or last dotted part
/// (`tenant.id` is the tenant).
pub(super) fn field_named(columns: &[Column], word: &str) -> Option<usize> {
    columns.iter().position(|c| {
        let name = c.name.to_ascii_lowercase();
        let first = name.split('.').next().unwrap_or(&name);
        let last = name.rsplit('.').next().unwrap_or(&name);
        word.len() >= 3 && (word == name || word == first || word == last)
    })
}

/// Whether the one character `run` (at `at` in `text`) makes a dictionary word with the
/// character before or after it.
pub(super) fn splits_a_word(text: &str, at: usize, run: &str) -> bool {
    let before = text[..at].chars().next_back();
    let after = text[at + run.len()..].chars().next();
    let word = |a: char, b: char| {
        let w: String = [a, b].iter().collect();
        !crate::config::words::dictionary_words(&w).is_empty()
    };
    let c = run.chars().next();
    matches!((before, c), (Some(b), Some(c)) if is_cjk(b) && word(b, c))
        || matches!((c, after), (Some(c), Some(a)) if is_cjk(a) && word(c, a))
}

/// The runs of Chinese characters outside the `covered` spans (cues, literals), but for a
/// word glossed by a parenthesis after it (`商户 (merchant)`: the gloss says what it is).
pub(super) fn uncovered_runs(
    text: &str,
    covered: impl Iterator<Item = (usize, usize)>,
) -> Vec<(usize, &str)> {
    let mut mask = vec![false; text.len()];
    for (s, e) in covered {
        mask[s.min(text.len())..e.min(text.len())].fill(true);
    }
    let mut runs = Vec::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        let free = is_cjk(c) && !mask[i];
        match (free, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        runs.push((s, text.len()));
    }
    runs.into_iter()
        .filter(|&(_, e)| !text[e..].trim_start().starts_with(['(', '（']))
        .map(|(s, e)| (s, &text[s..e]))
        .collect()
}
