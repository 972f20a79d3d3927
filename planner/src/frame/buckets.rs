//! A bucket of a written size ("按10分钟一桶", "in 5 minute buckets"): a number and a time
//! unit beside a bucket word (`grammar.toml` `[bucket_sized]`) is the bucket width, not a
//! condition on a duration.

use llmops_common::query::{BucketWidth, Unit};

use super::scan::{Lit, Spanned};
use crate::lexicon::{Cue, Hit, Lexicon};
use crate::text::{ends_with_word, starts_with_word};

/// Turns each number with a time unit that a bucket word stands beside into a bucket hit,
/// and drops it from the literals.
pub(super) fn sized_buckets(
    lex: &Lexicon,
    lower: &str,
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
) {
    let words = &lex.grammar.bucket_sized;
    let after = words.after();
    let mut found = Vec::new();
    for l in lits.iter() {
        let Lit::Number {
            value,
            unit: Some(unit),
        } = l.lit
        else {
            continue;
        };
        let Some(width) = width_of(value, unit) else {
            continue;
        };
        let before = lower.get(..l.start).unwrap_or("").trim_end();
        let after_unit = lower.get(l.end..).unwrap_or("");
        let rest = after_unit.trim_start_matches([' ', '-']);
        let rest_at = l.end + (after_unit.len() - rest.len());
        // The bucket word after the size is part of the hit: "buckets" is no text to find.
        if let Some(w) = after.all().find(|w| starts_with_word(rest, w)) {
            found.push((l.start, rest_at + w.len(), width));
        } else if words.before.all().any(|w| ends_with_word(before, w)) {
            found.push((l.start, l.end, width));
        }
    }
    for (start, end, width) in found {
        lits.retain(|l| l.end <= start || l.start >= end);
        hits.retain(|h| h.end <= start || h.start >= end);
        hits.push(Hit {
            start,
            end,
            cue: Cue::Bucket(width),
        });
    }
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
}

/// The engine's bucket width of exactly that size.
fn width_of(value: f64, unit: Unit) -> Option<BucketWidth> {
    let secs = value * unit.factor();
    [
        BucketWidth::Second,
        BucketWidth::Minute,
        BucketWidth::FiveMinutes,
        BucketWidth::TenMinutes,
        BucketWidth::Hour,
        BucketWidth::Day,
    ]
    .into_iter()
    .find(|w| w.seconds().is_some_and(|s| (s as f64 - secs).abs() < 0.5))
}

#[cfg(test)]
mod tests {
    use crate::frame::tests::frame_with;

    #[test]
    fn a_number_and_a_unit_beside_a_bucket_word_is_the_bucket_width() {
        for (text, want) in [
            ("access.log 里 504 按5分钟一桶有多少", "5min"),
            ("access.log 504s in 10 minute buckets", "10min"),
            ("504s in access.log, by 1 hour bins", "hour"),
        ] {
            let f = frame_with(text, None).expect("frame");
            assert_eq!(f["bucket"], want, "{text}: {f}");
            assert_eq!(f["measure"], "buckets", "{text}: {f}");
            assert!(
                !f["filters"].to_string().contains("duration"),
                "{text}: {f}"
            );
        }
        // A duration with no bucket word stays a condition.
        let f = frame_with("requests slower than 5 minutes in access.log", None).expect("frame");
        assert!(f.get("bucket").is_none(), "{f}");
    }

    /// "reqs/min on average": a rate written with a slash, and a mean of nothing named per bucket,
    /// is the events per bucket (whose answer gives the mean per bucket).
    #[test]
    fn a_rate_is_the_events_per_bucket() {
        for (text, want) in [
            (
                "mean requests/min in access.log from 04:00 to 04:20",
                "minute",
            ),
            ("access.log average requests/hour", "hour"),
        ] {
            let f = frame_with(text, None).expect("frame");
            assert_eq!(f["bucket"], want, "{text}: {f}");
            assert_eq!(f["measure"], "buckets", "{text}: {f}");
            assert!(f.get("field").is_none(), "{text}: {f}");
        }
        // "a second" and "an hour" say how long, not per what.
        for text in [
            "how many requests in access.log took more than a second",
            "errors in access.log in the last half an hour",
        ] {
            let f = frame_with(text, None).expect("frame");
            assert_ne!(f["measure"], "buckets", "{text}: {f}");
        }
    }
}
