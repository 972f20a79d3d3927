//! A position in a ranking asked by a question ("the second slowest request", "第二慢的接口",
//! "请求数排第三的客户端"): found and taken out of the text, so the rest reads as the
//! superlative it is a position of, and the answer leads with that position.

use std::sync::OnceLock;

use regex::{Captures, Regex};

use crate::lexicon::lexicon;

/// The highest position read: a ranking returns every row up to it.
const MAX_RANK: u32 = llmops_common::query::Query::MAX_LIMIT - 1;

/// The text with the ordinal taken out (the superlative left: "the slowest request",
/// "最慢的接口", "请求数最多的客户端") and the position, 2 or more; the text as it was and
/// `None` when it asks no position past the first.
pub fn ranked(text: &str) -> (String, Option<u32>) {
    let [en, en_ranked, zh, zh_ranked] = patterns();
    let mut rank = None;
    let mut take = |c: &Captures, out: String| -> String {
        let word = c.name("n").or_else(|| c.name("m"));
        match word.and_then(|m| position(m.as_str())) {
            Some(n) if rank.is_none() && (2..=MAX_RANK).contains(&n) => {
                rank = Some(n);
                out
            }
            _ => c[0].to_string(),
        }
    };
    // "over one second slowest first": a length of time, no position.
    let timed = |c: &Captures| {
        let before = text[..c.get(0).map_or(0, |m| m.start())].trim_end();
        let word = before.rsplit(|c: char| !c.is_ascii_alphanumeric()).next();
        word.is_some_and(|w| {
            matches!(w.to_ascii_lowercase().as_str(), "a" | "one" | "per")
                || (!w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    let t = en.replace(text, |c: &Captures| {
        if timed(c) {
            c[0].to_string()
        } else {
            take(c, c["sup"].to_string())
        }
    });
    let t = en_ranked.replace(&t, |c: &Captures| take(c, " most ".into()));
    let t = zh.replace(&t, |c: &Captures| {
        take(c, format!("{}最{}", &c["pre"], &c["sup"]))
    });
    let t = zh_ranked.replace(&t, |c: &Captures| take(c, "最多".into()));
    (t.into_owned(), rank)
}

fn patterns() -> &'static [Regex; 4] {
    static P: OnceLock<[Regex; 4]> = OnceLock::new();
    P.get_or_init(|| {
        let w = &lexicon().grammar.ordinal;
        let alt = |ws: &[String]| {
            ws.iter()
                .map(|w| regex::escape(w))
                .collect::<Vec<_>>()
                .join("|")
        };
        let ord = format!(r"(?P<n>{}|\d+(?:st|nd|rd|th))", alt(&w.en));
        let ord2 = ord.replace("?P<n>", "?P<m>");
        let zh_ord = r"第\s*(?P<n>[二三四五六七八九十]|\d+)\s*(?:名|位)?\s*";
        let build = |p: String| Regex::new(&p).expect("ordinal pattern from the lexicon is valid");
        [
            // The ordinal goes; the superlative after it stays.
            build(format!(
                r"(?i)\b{ord}[\s-]+(?P<sup>(?:{})\b)",
                alt(&w.superlative_en)
            )),
            build(format!(
                r"(?i)\b(?:(?:{})\s+(?:#|no\.?\s*|number\s+)?{ord}|(?:in\s+)?{ord2}\s+place)\b",
                alt(&w.ranked_en)
            )),
            build(format!(
                r"(?P<pre>^|[^数]|[^倒]数)(?:{})?{zh_ord}(?P<sup>{})",
                alt(&w.ranked_zh),
                alt(&w.superlative_zh)
            )),
            build(format!(r"(?:{}){zh_ord}", alt(&w.ranked_zh))),
        ]
    })
}

/// 2 for "second", "2nd", "二", "2".
fn position(word: &str) -> Option<u32> {
    let lower = word.to_ascii_lowercase();
    let digits: String = lower.chars().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        return digits.parse().ok();
    }
    if let Some(i) = lexicon()
        .grammar
        .ordinal
        .en
        .iter()
        .position(|w| *w == lower)
    {
        return Some(i as u32 + 2);
    }
    "一二三四五六七八九十"
        .chars()
        .position(|c| lower == c.to_string())
        .map(|i| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::ranked;

    #[test]
    fn an_ordinal_before_a_superlative_is_a_position() {
        for (text, want, rank) in [
            ("the second slowest request", "the slowest request", 2),
            (
                "which client sent the 3rd most requests",
                "which client sent the most requests",
                3,
            ),
            ("第二慢的接口是哪个", "最慢的接口是哪个", 2),
            ("请求数排第三的客户端", "请求数最多的客户端", 3),
            ("排名第 2 位的 IP", "最多的 IP", 2),
            ("请求数第二多的客户端", "请求数最多的客户端", 2),
            ("the 25th busiest client", "the busiest client", 25),
            ("which path is ranked second", "which path is  most ", 2),
        ] {
            assert_eq!(ranked(text), (want.to_string(), Some(rank)), "{text}");
        }
    }

    #[test]
    fn other_ordinals_and_seconds_are_left_alone() {
        for text in [
            "requests that took more than a second",
            "over one second slowest first",
            "the second request of the day",
            "the first slowest request",
            "倒数第二慢的接口",
            "第二个",
            "第 2 小时的请求数",
            "the 1st most common error",
        ] {
            assert_eq!(ranked(text).1, None, "{text}");
        }
    }
}
