//! The values a question asks of the events it lists: "the dropped count of the last
//! health event", "最后一条 flow 事件的 pkts_toserver 是多少". A field named beside the
//! first or last events, which no condition, grouping or sort reads, is what each listed
//! row shows first.

use llmops_common::query::{Field, Measure, Query, Source};

use super::parsed::{field_hits, Parsed};
use crate::lexicon::{Hit, Lexicon};

/// Fields a row shows whatever is asked: its time, its text.
const ALWAYS_SHOWN: [&str; 4] = ["time", "message", "template", "line"];

/// Fills `q.show` when `q` lists events by time; `before` is the field the question's
/// measure read before the listing replaced it ("the last health event's dropped count" read
/// as a count of drops).
pub(super) fn asked_of_rows(lex: &Lexicon, p: &Parsed, before: Option<Field>, q: &mut Query) {
    let by_time = q.field.as_ref().is_some_and(|f| f.as_str() == "time");
    if q.source != Source::Log || q.measure != Measure::Rows || !by_time {
        return;
    }
    // A name that says whose log it is ("the gateway's first 502", "the cdn's access log")
    // asks nothing of the events.
    let names_the_log = |h: &Hit| {
        let word = p.text.get(h.start..h.end).unwrap_or("");
        let after = p.lower.get(h.end..).unwrap_or("");
        let before_log = after
            .split_whitespace()
            .take(3)
            .any(|w| w.starts_with("log") || w.starts_with("日志"));
        p.names_an_upload(word) || before_log
    };
    let named = field_hits(lex, p, Source::Log)
        .filter(|(h, _)| !names_the_log(h))
        .map(|(_, f)| f.to_string());
    for name in before
        .map(|f| f.as_str().to_string())
        .into_iter()
        .chain(named)
    {
        show(q, &name);
    }
}

/// "and its req_id?", "它的 client 是谁" after one event: the fields named are what the
/// event's row shows first (its line may be cut before them).
pub(super) fn asked_of_the_event(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    if q.source != Source::Log {
        return;
    }
    for (_, name) in field_hits(lex, p, Source::Log) {
        show(q, name);
    }
}

/// Adds `name` to the fields each row shows (three at most), unless a row shows it anyway
/// or a condition or grouping reads it already.
fn show(q: &mut Query, name: &str) {
    let read = q.group_by.iter().any(|g| g.as_str() == name)
        || q.filters
            .iter()
            .any(|f| f.field.as_ref().is_some_and(|x| x.as_str() == name));
    let shown = q.show.iter().any(|s| s.as_str() == name);
    if !ALWAYS_SHOWN.contains(&name) && !read && !shown && q.show.len() < 3 {
        q.show.push(Field::new(name));
    }
}
