//! Chinese words for what an English log says: a run of Chinese in a log question that no
//! cue, literal or file name covers is read through the operations glossary and the general
//! dictionary, and its English words are looked for in the events, softly (a word that
//! matches nothing is dropped and the answer says so).

use llmops_common::query::{Filter, FilterOp, Scalar, Unit};

use super::parsed::{filter, Parsed};
use super::words::{regex_escape, stem};
use super::zh_runs::{field_named, splits_a_word, uncovered_runs};
use crate::lexicon::Lexicon;

/// Most English words one Chinese word is looked for as.
const SENSES: usize = 4;

/// The soft filters the uncovered Chinese words of the question make, one per word.
pub(super) fn translated(lex: &Lexicon, p: &Parsed) -> Vec<Filter> {
    let covered = p.hits.iter().map(|h| (h.start, h.end));
    let covered = covered.chain(p.lits.iter().map(|l| (l.start, l.end)));
    // A share's or a rate's words ask it ("错误率", "占比"); they name nothing in the events.
    let g = &lex.grammar;
    let asked = g.share.all().chain(g.rate.before.all());
    let asked = asked.flat_map(|w| crate::lexicon::occurrences(&p.lower, w));
    let covered = covered.chain(asked).chain(super::rate::rate_asked(lex, p));
    let stop = &lex.grammar.stop.zh;
    let mut out: Vec<Filter> = Vec::new();
    for (at, run) in uncovered_runs(&p.text, covered) {
        let mut words: Vec<(String, Vec<String>)> = crate::config::words::question(run)
            .terms
            .into_iter()
            .map(|t| (t.text, t.forms))
            .collect();
        // One character left beside a cue ("错误码": the code beside the error cue) is a word too,
        // unless it is part of the cue's word ("仓库" read as `库`).
        if words.is_empty() && run.chars().count() == 1 && !splits_a_word(&p.text, at, run) {
            words.push((run.to_string(), crate::config::words::dictionary_words(run)));
        }
        for (text, forms) in words {
            // A word that translates to one of the log's fields names that field.
            if forms.is_empty()
                || stop.contains(&text)
                || ordinal(&text)
                || forms.iter().any(|f| field_named(&p.columns, f).is_some())
            {
                continue;
            }
            let mut stems: Vec<String> = forms
                .iter()
                .filter(|f| f.bytes().all(|b| b.is_ascii_alphabetic()))
                .map(|f| stem(f))
                .filter(|s| s.len() >= 3)
                .collect();
            stems.sort();
            stems.dedup();
            if stems.is_empty() || stems.len() > SENSES {
                continue;
            }
            let alts: Vec<String> = stems.iter().map(|s| regex_escape(s)).collect();
            let f = filter(
                None,
                FilterOp::Regex,
                // A word of the text, not the start of a dotted name ("transfer" is no
                // part of `transfer.sh.example`).
                Scalar::Text(format!(
                    "\\b(?:{})\\w*(?:[^\\w.]|\\.(?:[^\\w]|$)|$)",
                    alts.join("|")
                )),
                Unit::None,
            );
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// "第二", "第 3": a position in a list the answer showed, never what events say.
fn ordinal(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next() == Some('第')
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_digit() || "一二三四五六七八九十两".contains(c))
}

#[cfg(test)]
mod tests {
    use super::super::tests::frame_with;

    #[test]
    fn chinese_words_outside_the_cues_look_for_their_english_in_the_events() {
        let f = frame_with("app.log 里回滚的事务一共有多少个", None).expect("a query");
        let soft = f["soft"].to_string();
        assert!(soft.contains("roll") && soft.contains("transaction"), "{f}");
        // Framing words ask, they name nothing in the events.
        let f = frame_with("帮我看看 app.log 里一共有多少条 error", None).expect("a query");
        assert!(f.get("soft").is_none(), "{f}");
        // A word glossed by a parenthesis is what the gloss says, not text to look for.
        let f = frame_with("app.log 里哪个仓库 (warehouse) 报错最多", None).expect("a query");
        assert!(f.get("soft").is_none(), "{f}");
    }
}
