//! A log's own English copied into a Chinese question without quotes: which runs of
//! Latin text between Chinese characters are a log's words, as if quoted.

use crate::lexicon::{Cue, Hit};

/// A log's own English words copied into a Chinese question without quotes ("kubelet 报
/// Error syncing pod 多少次", "connect() failed (111: Connection refused) 有多少条"): a run
/// of English between Chinese characters that reads like a log line, not like a query
/// (a capitalised run of three words or more, or one with a parenthesis), is that text, as
/// if quoted. A run holding a query word (a measure, a grouping, a window) or a time of
/// day is the question's own English.
pub(super) fn unquoted_log_text(
    text: &str,
    hits: &[Hit],
    taken: &mut Vec<(usize, usize)>,
    out: &mut Vec<(usize, usize, String)>,
) {
    let cjk =
        |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c) || "，。？！、：；（）“”《》".contains(c);
    if text.chars().filter(|&c| cjk(c)).count() < 3 {
        return;
    }
    let mut runs = Vec::new();
    let mut start = None;
    for (i, c) in text
        .char_indices()
        .chain(std::iter::once((text.len(), '。')))
    {
        match (cjk(c), start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                runs.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    for (s, e) in runs.into_iter().flat_map(|r| at_tight_commas(text, r)) {
        let mut run = text[s..e].trim_matches(|c: char| c.is_whitespace() || ",.?!;".contains(c));
        run = without_a_stated_gloss(text, hits, run);
        // A bracket whose partner stands beyond the run ("（raised unexpected 那种）") is
        // the sentence's, not the quoted text's.
        if run.starts_with('(') && !run.contains(')') {
            run = run[1..].trim_start();
        }
        if run.ends_with(')') && !run.contains('(') {
            run = run[..run.len() - 1].trim_end();
        }
        let s = s + text[s..e].find(run).unwrap_or(0);
        let e = s + run.len();
        let words: Vec<&str> = run.split_whitespace().collect();
        let lettered = words
            .iter()
            .filter(|w| w.chars().any(|c| c.is_ascii_alphabetic()));
        let n = lettered.count();
        let capital = run.starts_with(|c: char| c.is_ascii_uppercase());
        // A run wholly in parentheses glosses the Chinese before it: no quote.
        let gloss = run.starts_with('(') && run.ends_with(')');
        let looks_logged = !gloss && ((n >= 3 && capital) || (n >= 2 && run.contains('(')));
        let query_word = hits.iter().any(|h| {
            h.start < e
                && s < h.end
                && matches!(
                    h.cue,
                    Cue::Measure(_)
                        | Cue::Group
                        | Cue::Compare(_)
                        | Cue::Bucket(_)
                        | Cue::Limit
                        | Cue::Last
                        | Cue::Around
                        | Cue::Summary
                )
        });
        let clock = words.iter().any(|w| {
            let (h, m) = w.split_once(':').unwrap_or(("", ""));
            (1..=2).contains(&h.len())
                && h.bytes().all(|b| b.is_ascii_digit())
                && m.bytes().take(2).filter(u8::is_ascii_digit).count() == 2
        });
        if !looks_logged || query_word || clock || taken.iter().any(|&(a, b)| a < e && s < b) {
            continue;
        }
        taken.push((s, e));
        out.push((s, e, run.to_string()));
    }
}

/// A run split where a comma has no space after it: a Chinese comma between two clauses
/// ("REST.COPY.OBJECT，Bytes Sent"), which a log's English never writes so. Digits on both
/// sides are one number ("1,234").
fn at_tight_commas(text: &str, (s, e): (usize, usize)) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut from = s;
    for i in s..e {
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        let prev = if i > s { bytes[i - 1] } else { b' ' };
        let tight = bytes[i] == b','
            && !next.is_ascii_whitespace()
            && !(prev.is_ascii_digit() && next.is_ascii_digit());
        if tight {
            out.push((from, i));
            from = i + 1;
        }
    }
    out.push((from, e));
    out
}

/// A run whose closing parenthesis holds a field said with its value ("REST.COPY.OBJECT
/// (HTTP status 206)", "(status=503)") without that gloss: the parenthesis states a
/// condition of the question, the words before it are the log's.
fn without_a_stated_gloss<'a>(text: &str, hits: &[Hit], run: &'a str) -> &'a str {
    let Some(open) = run.rfind('(').filter(|_| run.ends_with(')')) else {
        return run;
    };
    let base = run.as_ptr() as usize - text.as_ptr() as usize;
    if open > 0 && states_a_value(text, hits, (base + open, base + run.len())) {
        run[..open].trim_end()
    } else {
        run
    }
}

/// Whether the span (a parenthesis) says a field with a number ("HTTP status 200",
/// "status=503"): a condition of the question, no gloss of the word before it.
pub(super) fn states_a_value(text: &str, hits: &[Hit], (gs, ge): (usize, usize)) -> bool {
    hits.iter().any(|h| {
        matches!(h.cue, Cue::Field(_) | Cue::Column(_))
            && gs < h.start
            && h.end < ge
            && text
                .get(h.end..ge)
                .unwrap_or("")
                .trim_start_matches([' ', '=', ':'])
                .starts_with(|c: char| c.is_ascii_digit())
    })
}
