//! Finds the lexicon's cue words in a message: Chinese phrases as text, English phrases as
//! whole words (a cue never matches inside a longer word), each hit with its byte span.
//! Where content cues (measures, fields, filters, sources) overlap, the longest wins, so
//! "failed login" is one filter and not "failed" plus a field.

use llmops_common::query::{BucketWidth, FilterOp, Unit};

use super::{Lexicon, Words};

/// What a hit is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    Measure(usize),
    Field(usize),
    /// A field of the log named by its own name: an index into the parsed question's
    /// columns.
    Column(usize),
    Filter(usize),
    Source(usize),
    Group,
    Compare(FilterOp),
    Unit(Unit),
    Bucket(BucketWidth),
    Negate,
    NegateAfter,
    NegateClause,
    Included,
    IncludedAfter,
    Contains,
    Case,
    Limit,
    Follow,
    Refer,
    /// The time the last answer pointed at ("at that time").
    Then,
    /// All the last query's events together ("in total").
    Total,
    Summary,
    Last,
    Around,
    Between,
    From,
    To,
}

impl Cue {
    /// Measures, fields, filters and sources: the words that carry a query's content.
    pub fn is_content(self) -> bool {
        matches!(
            self,
            Cue::Measure(_) | Cue::Field(_) | Cue::Column(_) | Cue::Filter(_) | Cue::Source(_)
        )
    }
}

/// One cue found in the message: `text[start..end]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub start: usize,
    pub end: usize,
    pub cue: Cue,
}

impl Hit {
    /// Whether the hit lies inside `span` and is shorter than it: a word of a longer phrase.
    pub fn strictly_within(&self, (start, end): (usize, usize)) -> bool {
        start <= self.start && self.end <= end && end - start > self.end - self.start
    }
}

/// `text` with every whole-word occurrence of `phrase` (matched as `occurrences` does, on
/// the ASCII lower case, whose offsets are the text's) blanked; whether there was one.
pub fn blank(text: &mut String, phrase: &str) -> bool {
    let found = occurrences(&text.to_ascii_lowercase(), phrase);
    for &(a, b) in found.iter().rev() {
        text.replace_range(a..b, " ");
    }
    !found.is_empty()
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every occurrence of `phrase` in `text` (both lower-cased). A phrase of ASCII letters or
/// digits at an edge must not continue a word there.
pub fn occurrences(text: &str, phrase: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if phrase.is_empty() {
        return out;
    }
    if let Some((head, tail)) = phrase.split_once(GAP) {
        return gapped(text, head, tail);
    }
    let bytes = text.as_bytes();
    let p = phrase.as_bytes();
    let head_word = is_word_byte(p[0]);
    let tail_word = is_word_byte(p[p.len() - 1]);
    // A cue of symbols alone ("%") is no part of a token a letter goes on ("%O", Apache's
    // bytes directive).
    let symbols = !p.iter().any(|&b| is_word_byte(b));
    let mut from = 0;
    while let Some(i) = text[from..].find(phrase) {
        let start = from + i;
        let end = start + phrase.len();
        let left_ok = !head_word || start == 0 || !is_word_byte(bytes[start - 1]);
        let word_goes_on = tail_word && end < bytes.len() && is_word_byte(bytes[end]);
        let letter_after = symbols && bytes.get(end).is_some_and(u8::is_ascii_alphabetic);
        let right_ok = !word_goes_on && !letter_after;
        if left_ok && right_ok {
            out.push((start, end));
        }
        from = start + phrase.chars().next().map_or(1, char::len_utf8);
    }
    out
}

/// Written between a phrase's parts in the lexicon, a gap of a few words: "took … down"
/// matches "took the payments api down".
const GAP: &str = " … ";
/// Words a gap holds at most.
const GAP_WORDS: usize = 3;

/// Where `head` is followed, within [`GAP_WORDS`] words, by `tail`: the span of both.
fn gapped(text: &str, head: &str, tail: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (start, end) in occurrences(text, head) {
        let rest = &text[end..];
        let near = occurrences(rest, tail)
            .into_iter()
            .find(|&(s, _)| rest[..s].split_whitespace().count() <= GAP_WORDS);
        if let Some((_, e)) = near {
            out.push((start, end + e));
        }
    }
    out
}

fn push_words(out: &mut Vec<Hit>, text: &str, words: &Words, cue: Cue) {
    for w in words.all() {
        for (start, end) in occurrences(text, w) {
            out.push(Hit { start, end, cue });
        }
    }
}

/// Every cue in `text` (lower-cased, normalised), content cues without overlaps, sorted by
/// position.
pub fn find(lex: &Lexicon, text: &str) -> Vec<Hit> {
    let mut content = Vec::new();
    for (i, m) in lex.measures.iter().enumerate() {
        push_words(&mut content, text, &m.words, Cue::Measure(i));
    }
    for (i, f) in lex.fields.iter().enumerate() {
        push_words(&mut content, text, &f.words, Cue::Field(i));
    }
    for (i, f) in lex.filters.iter().enumerate() {
        push_words(&mut content, text, &f.words, Cue::Filter(i));
        push_together(&mut content, text, &f.together, Cue::Filter(i));
    }
    for (i, s) in lex.sources.iter().enumerate() {
        push_words(&mut content, text, &s.words, Cue::Source(i));
    }
    let mut hits = longest_first(content);
    let g = &lex.grammar;
    push_words(&mut hits, text, &g.group, Cue::Group);
    for c in &g.compare {
        push_words(&mut hits, text, &c.words, Cue::Compare(c.op));
    }
    for u in &g.unit {
        push_words(&mut hits, text, &u.words, Cue::Unit(u.unit));
    }
    for b in &g.bucket {
        push_words(&mut hits, text, &b.words, Cue::Bucket(b.bucket));
    }
    push_words(&mut hits, text, &g.negate, Cue::Negate);
    push_words(&mut hits, text, &g.negate_after, Cue::NegateAfter);
    push_words(&mut hits, text, &g.negate_clause, Cue::NegateClause);
    push_words(&mut hits, text, &g.included.before, Cue::Included);
    push_words(&mut hits, text, &g.included.after(), Cue::IncludedAfter);
    push_words(&mut hits, text, &g.contains, Cue::Contains);
    push_words(&mut hits, text, &g.case, Cue::Case);
    push_words(&mut hits, text, &g.limit.before, Cue::Limit);
    push_words(&mut hits, text, &g.follow.markers, Cue::Follow);
    push_words(&mut hits, text, &g.follow.refer(), Cue::Refer);
    push_words(&mut hits, text, &g.follow.then(), Cue::Then);
    push_words(&mut hits, text, &g.follow.total(), Cue::Total);
    push_words(&mut hits, text, &g.summary, Cue::Summary);
    push_words(&mut hits, text, &g.window.last(), Cue::Last);
    push_words(&mut hits, text, &g.window.around(), Cue::Around);
    push_words(&mut hits, text, &g.window.between(), Cue::Between);
    push_words(&mut hits, text, &g.window.from(), Cue::From);
    push_words(&mut hits, text, &g.window.to(), Cue::To);
    inside_phrases(&mut hits);
    conjunctions_inside(&g.follow.opening_only, text, &mut hits);
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
    hits
}

/// A word inside a longer follow-up phrase is part of it: "about" in "what about" is no
/// "around", "that" in "at that time" refers to no item.
/// So is "every" in "across every cycle": a total, no grouping.
fn inside_phrases(hits: &mut Vec<Hit>) {
    let spans = |of: fn(&Cue) -> bool| -> Vec<(usize, usize)> {
        hits.iter()
            .filter(|h| of(&h.cue))
            .map(|h| (h.start, h.end))
            .collect()
    };
    let phrases = spans(|c| matches!(c, Cue::Follow | Cue::Then));
    let totals = spans(|c| matches!(c, Cue::Total));
    let within = |spans: &[(usize, usize)], h: &Hit| spans.iter().any(|&s| h.strictly_within(s));
    hits.retain(|h| match h.cue {
        Cue::Around | Cue::Refer => !within(&phrases, h),
        Cue::Group => !within(&totals, h),
        _ => true,
    });
}

/// A marker of `opening` ("and") marks a follow-up only where the message starts with it
/// ("and the 4xx?"); inside a question it joins ("502s between 11:10 and 11:20").
fn conjunctions_inside(opening: &[String], text: &str, hits: &mut Vec<Hit>) {
    hits.retain(|h| {
        h.cue != Cue::Follow
            || !opening.iter().any(|w| text[h.start..h.end] == *w)
            || text[..h.start]
                .trim_matches(|c: char| !c.is_alphanumeric())
                .is_empty()
    });
}

/// Keeps the longest of overlapping hits (earlier first on equal length). Hits of the same
/// span but different cues (a word that is both a field and a source) all stay.
/// At most this many words (or CJK characters over three) between the words of a
/// `together` cue.
const TOGETHER_GAP: usize = 3;

/// A cue made of one word of each group standing near each other, in any order: one hit
/// from the first to the last of them.
fn push_together(out: &mut Vec<Hit>, text: &str, groups: &[Vec<String>], cue: Cue) {
    if groups.is_empty() {
        return;
    }
    let found: Vec<Vec<(usize, usize)>> = groups
        .iter()
        .map(|g| g.iter().flat_map(|w| occurrences(text, w)).collect())
        .collect();
    let Some(first) = found.first() else { return };
    for &(s0, e0) in first {
        let (mut start, mut end) = (s0, e0);
        let all_near = found[1..].iter().all(|occ| {
            let near = occ.iter().filter(|&&(s, e)| {
                let (lo, hi) = if s >= end {
                    (end, s)
                } else if e <= start {
                    (e, start)
                } else {
                    (s, s)
                };
                let gap = text.get(lo..hi).unwrap_or("");
                gap.split_whitespace().count() <= TOGETHER_GAP
                    && gap.chars().filter(|c| crate::text::is_cjk(*c)).count() <= 3
            });
            match near.min_by_key(|&&(s, _)| s.abs_diff(s0)) {
                Some(&(s, e)) => {
                    start = start.min(s);
                    end = end.max(e);
                    true
                }
                None => false,
            }
        });
        if all_near {
            out.push(Hit { start, end, cue });
        }
    }
}

/// Two wordings of one cue that overlap are one hit over both ("killed by the oom" and
/// "oom killer" in "killed by the oom killer"), unless the union would take in another
/// cue's words.
fn longest_first(mut hits: Vec<Hit>) -> Vec<Hit> {
    hits.sort_by_key(|h| (std::cmp::Reverse(h.end - h.start), h.start));
    let mut kept: Vec<Hit> = Vec::new();
    for h in hits {
        let clashes =
            |k: &Hit| k.start < h.end && h.start < k.end && !(k.start == h.start && k.end == h.end);
        if !kept.iter().any(clashes) {
            kept.push(h);
        } else if kept.iter().filter(|k| clashes(k)).all(|k| k.cue == h.cue) {
            for k in kept.iter_mut().filter(|k| clashes(k)) {
                k.start = k.start.min(h.start);
                k.end = k.end.max(h.end);
            }
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::lexicon;

    #[test]
    fn english_cues_match_whole_words_only() {
        assert_eq!(occurrences("how many errors", "error"), vec![]);
        assert_eq!(occurrences("an error here", "error"), vec![(3, 8)]);
        assert_eq!(occurrences("per-minute p95", "p95"), vec![(11, 14)]);
        assert_eq!(occurrences("5xx错误", "错误"), vec![(3, 9)]);
        // A symbol cue stands alone or after a number, not before a letter of a directive.
        assert_eq!(occurrences("what % of bytes", "%"), vec![(5, 6)]);
        assert_eq!(occurrences("over 50% of", "%"), vec![(7, 8)]);
        assert!(occurrences("bytes sent (%o)", "%").is_empty());
    }

    #[test]
    fn a_gap_in_a_phrase_holds_a_few_words() {
        let t = "what took the payments api down at 04:10";
        assert_eq!(occurrences(t, "took … down"), vec![(5, 31)]);
        assert!(occurrences("what took so long, then went down", "took … down").is_empty());
        assert!(occurrences("what took the longest", "took … down").is_empty());
    }

    #[test]
    fn the_longest_content_cue_wins_an_overlap() {
        let lex = lexicon();
        let hits = find(lex, "how many failed logins per ip");
        let content: Vec<&str> = hits
            .iter()
            .filter(|h| h.cue.is_content())
            .map(|h| &"how many failed logins per ip"[h.start..h.end])
            .collect();
        assert!(content.contains(&"failed logins"), "{content:?}");
        assert!(!content.contains(&"failed"), "{content:?}");
        assert!(content.contains(&"ip"), "{content:?}");
    }

    #[test]
    fn a_word_inside_a_follow_up_phrase_is_part_of_it() {
        let lex = lexicon();
        let cues = |t: &str| -> Vec<Cue> { find(lex, t).into_iter().map(|h| h.cue).collect() };
        assert!(!cues("what about app.log").contains(&Cue::Around));
        assert!(cues("errors around 02:47").contains(&Cue::Around));
        let at_that_time = cues("how many errors at that time");
        assert!(at_that_time.contains(&Cue::Then));
        assert!(!at_that_time.contains(&Cue::Refer));
        assert!(cues("and that one?").contains(&Cue::Refer));
        // The same span as a follow-up word stays both ("那个").
        let that = cues("那个呢");
        assert!(that.contains(&Cue::Refer) && that.contains(&Cue::Follow));
    }
}
