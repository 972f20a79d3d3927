//! "how many rows were flushed in total", "一共丢了多少 objects": a count asked of a plural
//! noun that is no field adds up the numbers the log writes right before that noun
//! ("Flushed 800 rows to the warehouse"), as `grep -oE '[0-9]+ rows' | awk '{s+=$1}'`
//! would. A log that writes no number there has its events counted instead (the next
//! step, `query_steps::count_instead`).

use llmops_common::query::{Extract, Field, Filter, Measure, Query, Scalar, Source, Unit};

use super::parsed::{filter, Parsed};
use super::scan::Lit;
use super::words::word_forms;
use crate::lexicon::{Cue, Lexicon};

/// Makes a count of events the sum of the number written before the counted noun, when
/// the count words (the winning measure cue `cue`) are followed at once by a plural noun
/// the lexicon does not know. Returns the question's other unknown words
/// that are no condition yet as soft ones: "rows were flushed" adds up the flushed rows,
/// not the discarded ones beside them, where the log writes "flushed".
pub(super) fn summed(
    lex: &Lexicon,
    p: &Parsed,
    cue: Option<usize>,
    q: &mut Query,
) -> Option<Vec<Filter>> {
    if q.source != Source::Log
        || q.measure != Measure::Count
        || q.field.is_some()
        || !q.group_by.is_empty()
        || q.limit.is_some()
    {
        return None;
    }
    let i = cue?;
    let noun = p
        .hits
        .iter()
        .filter(|h| h.cue == Cue::Measure(i))
        .find_map(|c| {
            p.lits.iter().find_map(|l| match &l.lit {
                Lit::Word(w) if l.start >= c.end && next_to(lex, p, c.end, l.start) => {
                    quantity_noun(lex, w).then(|| w.clone())
                }
                _ => None,
            })
        })?;
    // The question's other unknown words: what was done to the noun.
    let others: Vec<&str> = p
        .lits
        .iter()
        .filter_map(|l| match &l.lit {
            Lit::Word(w) if *w != noun && w.len() >= 3 && !p.names_an_upload(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    // Something done to the noun ("rows were flushed", "丢弃了多少 objects") or "in total"
    // says a quantity is asked; "how many deadlocks" alone counts events, in one scan.
    if others.is_empty() && !p.has(|c| c == Cue::Total) {
        return None;
    }
    let stem = noun.strip_suffix('s').unwrap_or(&noun);
    let name = format!(
        "{}_written",
        stem.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
    );
    if p.columns.iter().any(|c| c.name == name) {
        return None;
    }
    // A number of its own (not the end of `1,000` or `2.5`) right before the noun.
    let regex = format!(
        r"(?i)(?:^|[^\w.,])(\d+)\s+{}(?:s|es)?\b",
        regex::escape(stem)
    );
    q.extract.push(Extract {
        name: name.clone(),
        regex,
        numeric: true,
    });
    q.measure = Measure::Sum;
    q.field = Some(Field::new(&name));
    let said = |w: &str| {
        q.filters
            .iter()
            .any(|f| matches!(&f.value, Scalar::Text(t) if t.contains(&word_forms(w).1)))
    };
    let words = others
        .into_iter()
        .filter(|w| !said(w))
        .map(|w| {
            let (op, text) = word_forms(w);
            filter(None, op, Scalar::Text(text), Unit::None)
        })
        .collect();
    Some(words)
}

/// Whether only an article or a classifier stands between the count words and the noun
/// ("how many rows", "多少条 objects", "total of the rows").
fn next_to(lex: &Lexicon, p: &Parsed, from: usize, to: usize) -> bool {
    let gap = p.lower.get(from..to).map(str::trim).unwrap_or("x");
    gap.is_empty()
        || ["条", "个", "次", "of", "of the"].contains(&gap)
        || lex.grammar.articles.all().any(|a| a == gap)
}

/// A plural English noun a log may write after a number: no filler and no word for the
/// events themselves ("requests", "lines": those are counted as events).
fn quantity_noun(lex: &Lexicon, w: &str) -> bool {
    w.len() >= 4
        && w.ends_with('s')
        && !w.ends_with("ss")
        && w.chars().all(|c| c.is_ascii_lowercase())
        && !lex.grammar.stop.all().any(|s| s == w)
        && !lex.grammar.events.all().any(|s| s == w)
}
