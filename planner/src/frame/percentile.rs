//! A percentile asked by its rank ("p80", "the 99.9th percentile", "75 分位", "九十九分位"):
//! found before the cues are read and written as the lexicon's percentile word, so the
//! rest of the question reads as any percentile question; the query then measures the rank
//! asked.

use std::sync::OnceLock;

use llmops_common::query::{Measure, Query, Rank};
use regex::{Captures, Regex};

/// The lexicon's word for a percentile the text stands in for: any percentile cue reads the
/// same, and [`apply`] puts the rank asked back.
const STAND_IN: &str = "p95";

/// The text with its first percentile expression written as a percentile cue, and that
/// percentile's rank; the text as it was and `None` when it asks none.
pub fn asked(text: &str) -> (String, Option<Rank>) {
    let mut rank = None;
    let mut out = text.to_string();
    for re in patterns() {
        let Some(c) = re.captures(&out) else { continue };
        let Some(r) = rank_of(&c) else { continue };
        let whole = c.get(0).map_or(0..0, |m| m.range());
        rank = Some(r);
        out.replace_range(whole, &format!(" {STAND_IN} "));
        break;
    }
    (out, rank)
}

/// The query measures the rank asked when it measures a percentile (or every statistic:
/// "p80 of the latency" under a "percentiles" cue).
pub fn apply(rank: Option<Rank>, q: &mut Query) {
    let Some(rank) = rank else { return };
    if q.measure.rank().is_some() || q.measure == Measure::Stats {
        q.measure = Measure::percentile(rank);
    }
}

fn rank_of(c: &Captures) -> Option<Rank> {
    if let Some(m) = c.name("nines") {
        // p999 is p99.9, p9999 is p99.99.
        let pct = 100.0 - 10f64.powi(2 - m.as_str().len() as i32);
        return Rank::of_percent(pct);
    }
    if let Some(m) = c.name("zh") {
        return crate::follow::zh_number(m.as_str()).and_then(|n| Rank::of_percent(n as f64));
    }
    let pct: f64 = c.name("n")?.as_str().parse().ok()?;
    // A bare `p1`..`p9` names a priority or a partition more often than a percentile.
    let bare = c.name("bare").is_some();
    (!bare || pct >= 10.0)
        .then(|| Rank::of_percent(pct))
        .flatten()
}

fn patterns() -> &'static [Regex; 5] {
    static P: OnceLock<[Regex; 5]> = OnceLock::new();
    P.get_or_init(|| {
        let num = r"(?P<n>\d{1,2}(?:\.\d{1,2})?)";
        // ASCII word edges: "的p80" starts a word after a Chinese character.
        let re = |s: String| {
            Regex::new(&s.replace(r"\b", r"(?-u:\b)")).expect("the percentile patterns are valid")
        };
        [
            re(r"(?i)\bp(?P<nines>9{3,4})\b".to_string()),
            re(format!(
                r"(?i)\b{num}(?:st|nd|rd|th)?(?:\s*|-)(?:percentile|pctl|%ile|%-ile)\b"
            )),
            re(format!(r"(?i)\bpercentile\s+{num}\b")),
            re(format!(r"(?i)\b(?P<bare>p){num}(?:\b|[^\x00-\x7F])")),
            re(format!(
                r"(?:{num}|(?P<zh>[一二三四五六七八九]十[一二三四五六七八九]?))\s*(?:%|％)?\s*(?:百分位|分位)"
            )),
        ]
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rank(text: &str) -> Option<String> {
        asked(text).1.map(|r| r.to_string())
    }

    #[test]
    fn a_percentile_is_read_in_each_written_form() {
        for (text, want) in [
            ("p80 of the upload time", "80"),
            ("whats the P75 latency", "75"),
            ("the 99.9th percentile of response time", "99.9"),
            ("99.9 percentile of duration", "99.9"),
            ("p999 of the checkout latency", "99.9"),
            ("p9999 of it", "99.99"),
            ("75th-percentile query time", "75"),
            ("percentile 85 of latency", "85"),
            ("耗时的 80 分位是多少", "80"),
            ("耗时的p80是多少", "80"),
            ("响应时间九十九分位", "99"),
            ("七十五百分位的延迟", "75"),
            ("p95 of latency", "95"),
        ] {
            assert_eq!(rank(text).as_deref(), Some(want), "{text}");
        }
    }

    #[test]
    fn names_and_counts_are_no_percentiles() {
        for text in [
            "how many p1 incidents",
            "errors on p2-worker",
            "the p95_ms column's max",
            "top 80 clients",
            "80% of the requests",
            "what happened at 10:80",
        ] {
            assert_eq!(rank(text), None, "{text}");
        }
    }

    #[test]
    fn the_rank_asked_replaces_a_percentile_measure_only() {
        let (text, r) = asked("p80 of the upload time");
        assert!(text.contains(STAND_IN), "{text}");
        let mut q = Query {
            measure: Measure::P95,
            ..Query::default()
        };
        apply(r, &mut q);
        assert_eq!(q.measure.to_string(), "p80");
        let mut count = Query::default();
        apply(r, &mut count);
        assert_eq!(count.measure, Measure::Count);
        // A named rank reads as its named measure.
        let mut named = Query {
            measure: Measure::Stats,
            ..Query::default()
        };
        apply(asked("the 90th percentile").1, &mut named);
        assert_eq!(named.measure, Measure::P90);
    }

    /// Percentiles asked by number over a planted log: each figure is the planted values'
    /// nearest rank.
    #[test]
    fn a_percentile_by_number_is_the_nearest_rank_of_the_planted_values() {
        use llmops_common::query::QueryValue;
        let mut text = String::new();
        let mut values = Vec::new();
        for i in 0..997u64 {
            let ms = 5 + (i * 7919) % 1200;
            values.push(ms as f64);
            text.push_str(&format!(
                "2031-05-06T01:{:02}:{:02}Z level=info msg=\"upload stored\" bucket=b{} took_ms={ms}\n",
                i / 60 % 60,
                i % 60,
                i % 5,
            ));
        }
        values.sort_by(f64::total_cmp);
        let nearest = |hundredths: u64| {
            let at = (hundredths * values.len() as u64).div_ceil(10_000) as usize;
            values[at - 1]
        };
        let log = super::super::tests_answers::Planted::new("uploads.log", &text);
        for (q, hundredths) in [
            ("p80 of took_ms", 8000),
            ("took_ms 的 99.9 分位是多少", 9990),
            ("whats the 75th percentile took_ms", 7500),
            ("took_ms 九十分位", 9000),
        ] {
            let r = log.answer(q);
            let QueryValue::Stat { value, n, .. } = r.value else {
                panic!("{q}: not a statistic: {:?}", r.value);
            };
            assert_eq!(n, values.len() as u64, "{q}");
            assert_eq!(value, Some(nearest(hundredths)), "{q}");
        }
    }
}
