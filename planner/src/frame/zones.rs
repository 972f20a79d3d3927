//! Time zones named in a question ("北京时间早上 9:36", "10:47pm EDT", "UTC+8"): its clock
//! times are in that zone, so each time point carries it and the log engine moves it onto
//! the log's clock.

use std::sync::OnceLock;

use llmops_common::query::{TimePoint, Window};
use regex::Regex;

use crate::lexicon::Lexicon;

/// The offset (`+08:00`) of the zone the question names, if it names one.
pub(super) fn zone_asked(lex: &Lexicon, text: &str) -> Option<String> {
    static NUMERIC: OnceLock<Regex> = OnceLock::new();
    let numeric = NUMERIC.get_or_init(|| {
        Regex::new(r"(?i)\b(?:utc|gmt)\s*([+-])\s*(\d{1,2})(?::?(\d{2}))?\b")
            .expect("zone regex literal is valid")
    });
    if let Some(c) = numeric.captures(text) {
        let h: u32 = c.get(2)?.as_str().parse().ok()?;
        let m: u32 = c.get(3).map_or(Some(0), |m| m.as_str().parse().ok())?;
        return (h <= 14 && m < 60).then(|| format!("{}{h:02}:{m:02}", &c[1]));
    }
    let lower = text.to_lowercase();
    lex.grammar.zone.iter().find_map(|z| {
        let said = z
            .words
            .iter()
            .any(|w| !crate::lexicon::occurrences(&lower, &w.to_lowercase()).is_empty())
            || z.exact
                .iter()
                .any(|w| !crate::lexicon::occurrences(text, w).is_empty());
        said.then(|| z.offset.clone())
    })
}

/// Whether a word is a zone's name ("EDT" is when, not what the events say).
pub(super) fn is_zone_word(lex: &Lexicon, word: &str) -> bool {
    let lower = word.to_lowercase();
    lex.grammar.zone.iter().any(|z| {
        z.exact.iter().any(|w| w == word) || z.words.iter().any(|w| w.to_lowercase() == lower)
    })
}

/// The window with each time of day put in `zone` (a date alone stays the log's day).
pub(super) fn in_zone(w: Window, zone: &str) -> Window {
    w.map_points(|t| {
        if t.0.contains(':') {
            TimePoint(format!("{}{zone}", t.0))
        } else {
            t
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lexicon::lexicon;

    #[test]
    fn zones_are_read_by_name_abbreviation_and_offset() {
        let lex = lexicon();
        for (text, zone) in [
            ("北京时间早上 9:36 左右出了啥事", Some("+08:00")),
            ("what happened around 10:47pm EDT", Some("-04:00")),
            ("around 1:12 utc?", Some("+00:00")),
            ("02:10 UTC+8 前后", Some("+08:00")),
            ("between 1:00 and 2:00 GMT-4", Some("-04:00")),
            ("how many edits", None),
            ("what happened around 02:47", None),
        ] {
            assert_eq!(zone_asked(lex, text).as_deref(), zone, "{text}");
        }
        let w = in_zone(
            Window::Between {
                from: Some(TimePoint("2031-09-21 22:40".into())),
                to: Some(TimePoint("22:50".into())),
            },
            "-04:00",
        );
        assert_eq!(
            w,
            Window::Between {
                from: Some(TimePoint("2031-09-21 22:40-04:00".into())),
                to: Some(TimePoint("22:50-04:00".into())),
            }
        );
    }
}
