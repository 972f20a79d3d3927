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
    q.extract.push(Extract {
        name: name.clone(),
        regex: number_before(&format!("{}(?:s|es)?", regex::escape(stem))),
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

/// A number of its own (not the end of `1,000` or `2.5`, not a rate's `N bytes/sec`) right
/// before one of `forms` (a regex alternation): its first group.
fn number_before(forms: &str) -> String {
    format!(r"(?i)(?:^|[^\w.,])(\d+(?:\.\d+)?)\s?(?:{forms})(?:$|[^\w/])")
}

/// How a figure of a quantity written in the text is asked.
pub(super) enum Written {
    /// The query measures it now; the field's word stays as these soft conditions.
    Now(Vec<Filter>),
    /// The query keeps its field, and this extract is measured instead when no event has
    /// a value for that field (`Frame::written_instead`).
    Instead(Extract),
}

/// A statistic or a sum of a quantity the log writes in its text rather than in a field:
/// "the longest copy, in secs" over lines that write "… 1.204 secs …", "sum the bytes over
/// the finished copies", "objects 合计多少". The number
/// written right before the unit or noun the question says is measured now when the
/// field was named only by a word of the question while that noun stands beside the
/// measure's words; when the log's head shows no such field, it is measured only if no
/// event has the field (the engine reads the whole file, the head is a sample).
pub(super) fn written_measure(
    lex: &Lexicon,
    p: &Parsed,
    cue: Option<usize>,
    q: &mut Query,
) -> Option<Written> {
    // With no column of the log known, nothing says the field is missing.
    if q.source != Source::Log
        || !q.measure.is_stat()
        || !q.group_by.is_empty()
        || p.columns.is_empty()
    {
        return None;
    }
    let field = q.field.clone()?;
    let f = field.as_str();
    if f.ends_with("_written") || q.extract.iter().any(|e| e.name == f) {
        return None;
    }
    let known = p
        .columns
        .iter()
        .any(|c| c.name == f || c.roles.iter().any(|r| r == f));
    let named = known && !p.columns.iter().any(|c| c.roles.iter().any(|r| r == f)) && {
        let at = crate::lexicon::occurrences(&p.lower, &f.to_ascii_lowercase());
        !at.is_empty()
    };
    let units = units_in(lex, p);
    let beside = noun_beside_cue(lex, p, cue?, &units);
    let (stem, forms) = match (known, beside) {
        (false, Some(noun)) => noun,
        // A time taken the log writes in no field: in seconds, the unit logs write in
        // words ("1.204 secs"); a log writing another unit gives no value, and says so.
        (false, None) => units.first().map(|(_, _, u)| u.clone()).or_else(|| {
            let seconds = lex.grammar.unit.iter().find(|u| u.unit == Unit::S);
            seconds.filter(|_| f == "duration").map(unit_forms)
        })?,
        // The field itself said in the plural ("rows" of `rows=`) is the field.
        (true, Some(noun)) if named && !f.to_ascii_lowercase().starts_with(&noun.0) => noun,
        _ => return None,
    };
    // Named as the question says it: a figure asked outright ("add up the bytes") is no
    // count in disguise, so it keeps no `_written` name (`Frame::sums_written`).
    let name = stem;
    if p.columns.iter().any(|c| c.name.eq_ignore_ascii_case(&name)) {
        return None;
    }
    let extract = Extract {
        name: name.clone(),
        regex: number_before(&forms),
        numeric: true,
    };
    if !known {
        return Some(Written::Instead(extract));
    }
    q.extract.push(extract);
    q.field = Some(Field::new(&name));
    let (op, text) = word_forms(f);
    Some(Written::Now(vec![filter(
        None,
        op,
        Scalar::Text(text),
        Unit::None,
    )]))
}

/// The unit or plural noun right beside the measure's words ("add up the bytes", "records
/// 加起来", "total rows"): its name's stem and the forms a log writes it in.
fn noun_beside_cue(
    lex: &Lexicon,
    p: &Parsed,
    cue: usize,
    units: &[(usize, usize, (String, String))],
) -> Option<(String, String)> {
    let spans: Vec<(usize, usize)> = p
        .hits
        .iter()
        .filter(|h| h.cue == Cue::Measure(cue))
        .map(|h| (h.start, h.end))
        .collect();
    let touching = |s: usize, e: usize| {
        spans.iter().any(|&(cs, ce)| {
            (s >= ce && next_to(lex, p, ce, s))
                || (e <= cs && p.lower.get(e..cs).is_some_and(|g| g.trim().is_empty()))
        })
    };
    if let Some((_, _, unit)) = units.iter().find(|(s, e, _)| touching(*s, *e)) {
        return Some(unit.clone());
    }
    // Any plural word the log may write after a number, a word for events too: "the
    // records" of a transfer's line are a quantity when a figure of them is asked.
    let plural = |w: &str| {
        w.len() >= 4
            && w.ends_with('s')
            && !w.ends_with("ss")
            && w.bytes().all(|b| b.is_ascii_lowercase())
            && !lex.grammar.stop.all().any(|s| s == w)
    };
    words_at(&p.lower)
        .find(|&(s, e)| plural(&p.lower[s..e]) && touching(s, e))
        .map(|(s, e)| {
            let noun = &p.lower[s..e];
            let stem = noun.strip_suffix('s').unwrap_or(noun);
            (
                noun.to_string(),
                format!("{}(?:s|es)?", regex::escape(stem)),
            )
        })
}

/// The spans of the ASCII words of `lower`.
fn words_at(lower: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let b = lower.as_bytes();
    (0..b.len())
        .filter(move |&i| {
            b[i].is_ascii_alphabetic() && (i == 0 || !b[i - 1].is_ascii_alphanumeric())
        })
        .map(move |s| {
            let e = (s..b.len())
                .find(|&j| !b[j].is_ascii_alphanumeric())
                .unwrap_or(b.len());
            (s, e)
        })
}

/// The units the question says outside the words for how exact the answer is ("how many
/// secs", "耗时秒数"), where, each with its name and the forms a log writes it
/// in (the lexicon's English words, longest first). Only plurals, abbreviations and
/// Chinese words count: "second" and "min" are an ordinal and a minimum as often.
fn units_in(lex: &Lexicon, p: &Parsed) -> Vec<(usize, usize, (String, String))> {
    let exact: Vec<(usize, usize)> = lex
        .grammar
        .answer_exact
        .all()
        .flat_map(|w| crate::lexicon::occurrences(&p.lower, w))
        .collect();
    let mut out = Vec::new();
    for u in &lex.grammar.unit {
        let said = |w: &&str| {
            let cjk = !w.is_ascii();
            cjk || (w.len() >= 2 && w.ends_with('s') && *w != "us")
                || ["ms", "kb", "mb", "gb"].contains(w)
        };
        for w in u.words.all().filter(said) {
            for (s, e) in crate::lexicon::occurrences(&p.lower, &w.to_lowercase()) {
                if !exact.iter().any(|&(a, b)| a <= s && e <= b) {
                    out.push((s, e, unit_forms(u)));
                }
            }
        }
    }
    out.sort_by_key(|(s, _, _)| *s);
    out
}

/// A unit's name (its longest English word: `seconds`) and the forms a log writes it in,
/// longest first, as a regex alternation.
fn unit_forms(u: &crate::lexicon::UnitCue) -> (String, String) {
    let mut forms: Vec<&str> = u.words.en.iter().map(String::as_str).collect();
    forms.sort_by_key(|w| std::cmp::Reverse(w.len()));
    let name = forms
        .first()
        .map_or_else(|| format!("{:?}", u.unit), |w| (*w).to_string());
    let alternation = forms.iter().map(|w| regex::escape(w)).collect::<Vec<_>>();
    (name.to_lowercase(), alternation.join("|"))
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
