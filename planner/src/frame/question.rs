//! Whether a question is a query over a table at all, the whole-file summary, or neither:
//! a follow-up edit of the last query first, then a fresh frame that must ask something.

use llmops_common::query::{Measure, Query, Source};

use super::build::{frame_of, measure_cue};
use super::parsed::Parsed;
use super::source::source_of;
use super::{Frame, FrameCtx, Understood};
use crate::lexicon::{lexicon, Cue, Lexicon};

/// Builds the frame of a question, or `None` when it is not a query over a table.
pub fn understand(text: &str, ctx: &FrameCtx) -> Option<Understood> {
    understand_as(text, ctx, true)
}

/// The frame of a question; with `look_for_phrases`, the phrases its log writes word for
/// word are quoted first and the question read again, once (the log is read once for them:
/// every run of its words was a candidate the first time).
fn understand_as(text: &str, ctx: &FrameCtx, look_for_phrases: bool) -> Option<Understood> {
    let lex = lexicon();
    let mut p = Parsed::new(text, ctx);
    if let Some(mut frame) = super::edit::follow_up(lex, &p, ctx) {
        super::build::to_position(p.rank, &mut frame.query);
        super::percentile::apply(p.percentile, &mut frame.query);
        at_the_answer_time(lex, &p, ctx, &mut frame);
        return Some(Understood::Query(Box::new(frame)));
    }
    let (source, files) = source_of(lex, &p, ctx)?;
    let mut frame = frame_of(lex, &p, source, files);
    // Read again over the log that has the fields asked, with its fields from then on: its
    // columns make the conditions ("/items/" is its path, not anywhere in the line).
    let only: Vec<crate::UploadRef> = super::log_choice::other_log(ctx, &p, &frame, text)
        .into_iter()
        .collect();
    let only_ctx = FrameCtx::of_uploads(&only);
    if let Some(other) = only.first() {
        p = Parsed::new(text, &only_ctx);
        let path = other.path.to_string_lossy().into_owned();
        frame = frame_of(lex, &p, source, vec![path]);
    }
    let read_with = if only.is_empty() { ctx } else { &only_ctx };
    // A phrase the log writes word for word is read as that text.
    let quoted = look_for_phrases
        .then(|| super::written::quote_written(lex, &p, &frame, read_with))
        .flatten();
    if let Some(quoted) = quoted {
        let mut again = understand_as(&quoted, ctx, false);
        // The text read again is the one a column in parentheses rewrote: an address
        // asked in the words it took the place of is this reading's.
        if let Some(Understood::Query(f)) = again.as_mut() {
            super::ports::ports_left_out(lex, &p, &mut f.query);
        }
        return again;
    }
    super::log_choice::object_the_log_writes(read_with, &mut frame);
    super::share::population(lex, (text, &p), read_with, &mut frame);
    at_the_answer_time(lex, &p, ctx, &mut frame);
    let q = &frame.query;
    let narrowed = q.filters.iter().any(|f| Some(f) != frame.object.as_ref())
        || !q.group_by.is_empty()
        || q.window.is_some()
        || p.has(|c| matches!(c, Cue::Bucket(_)));
    let summary_named = !p.files.is_empty() || log_words(lex, &p);
    if source == Source::Log && summary_named && wants_summary(lex, &p, &frame) {
        return q
            .files
            .first()
            .map(|f| Understood::Summary { path: f.clone() });
    }
    let asked = match source {
        // A log the question does not name must be what it is about: a condition, a
        // grouping, a window or a word for a log's contents, not a bare "how many"; or
        // the log is sent with it, and what it counts is named ("how many deadlocks").
        Source::Log if p.files.is_empty() => {
            let sent_with_it = ctx.referenced.iter().any(|u| super::is_log_upload(u));
            // "最后 200 条请求": the latest events, asked with "last".
            let latest = p.asks_the_latest(q);
            // "total bytes sent": a total is a figure.
            let figure = measure_cue(lex, &p).is_some() || latest || p.has(|c| c == Cue::Total);
            // Or the session's log says what is counted ("how many deadlocks" over a log
            // that writes them).
            let said = || super::log_choice::log_says_the_object(read_with, &frame);
            narrowed
                || (log_words(lex, &p) && figure)
                || (figure && frame.object.is_some() && (sent_with_it || said()))
        }
        Source::Log => narrowed || q.measure != Measure::Count || measure_cue(lex, &p).is_some(),
        _ => system_table_asked(lex, &p, source, q),
    };
    asked.then(|| Understood::Query(Box::new(frame)))
}

/// Whether a question of a system table asks something of it: a table with no condition of
/// its own (only what its name implies, like "listening"), no grouping and no figure asked
/// is the monitor's overview; "how many established connections" counts what the name
/// implies.
fn system_table_asked(lex: &Lexicon, p: &Parsed, source: Source, q: &Query) -> bool {
    let implied = super::build_filters::source_filters(lex, p, source, false);
    let names = p.has(|c| matches!(c, Cue::Source(i) if lex.sources[i].names));
    // "有没有僵尸进程", "are there any zombies": asked yes or no is a figure too.
    let figure = measure_cue(lex, p).is_some() || p.asks_if_any(lex);
    // "which mount has the highest usage": the row with the extreme value, asked
    // of the table by its name.
    let which = p.hits.iter().any(|h| p.hit_is(h, &lex.grammar.asks))
        && p.has(|c| matches!(c, Cue::Source(i) if lex.sources[i].source == source));
    // "which process has the most threads", "top 3 processes by thread count": the rows
    // ranked by that figure; by CPU or memory the monitor ranks them, sampled as `top` does.
    let ranked_rows = q.measure == Measure::Rows
        && q.field
            .as_ref()
            .is_some_and(|f| lex.ranked_by_the_table(source, f.as_str()));
    let extreme = matches!(q.measure, Measure::Max | Measure::Min) && q.field.is_some();
    // "how many processes": a count of the table its word names (a filesystem's
    // "多少" asks its usage).
    let counted = q.measure == Measure::Count
        && source != Source::Mounts
        && measure_cue(lex, p).is_some()
        && p.has(|c| matches!(c, Cue::Source(i) if lex.sources[i].source == source));
    names
        || counted
        || q.filters.iter().any(|f| !implied.contains(f))
        || (!q.group_by.is_empty() && figure)
        || (!implied.is_empty() && figure)
        || (which && extreme)
        || ranked_rows
}

/// Words only a question about a log's contents has: a log source word, a log field, a
/// measure that reads a log field ("the slowest request": the duration of requests), a
/// peak in time, or a word for the events themselves ("requests", "日志").
fn log_words(lex: &Lexicon, p: &Parsed) -> bool {
    p.hits.iter().any(|h| match h.cue {
        Cue::Source(i) => lex.sources[i].source == Source::Log,
        Cue::Field(i) => lex.fields[i].source == Some(Source::Log),
        // A peak in time ("when was it busiest") is read off events; no table has one.
        Cue::Measure(i) => {
            lex.measure_log_field(i).is_some() || lex.measures[i].measure == Measure::Buckets
        }
        Cue::Column(_) => true,
        _ => false,
    }) || lex.grammar.events.occur_in(&p.lower)
}

/// "分析一下 app.log (里的错误)": the whole-file summary (which lists the levels and the
/// most frequent messages), when nothing narrower than a level is asked.
fn wants_summary(lex: &Lexicon, p: &Parsed, frame: &Frame) -> bool {
    let only_levels = frame
        .query
        .filters
        .iter()
        .all(|f| f.field.as_ref().is_some_and(|x| x.as_str() == "level"));
    p.has(|c| c == Cue::Summary)
        && measure_cue(lex, p).is_none()
        && frame.query.group_by.is_empty()
        && only_levels
        && frame.query.window.is_none()
}

/// "at that time", "那一分钟": the window of the time the last answer pointed at, for a log
/// question that gives no time of its own.
fn at_the_answer_time(lex: &Lexicon, p: &Parsed, ctx: &FrameCtx, frame: &mut Frame) {
    let Some(at) = ctx.last_query.and_then(|l| l.at.as_ref()) else {
        return;
    };
    // A time the question writes is its own; one a follow-up inherits gives way.
    let own_time = p.lits.iter().any(|l| {
        matches!(
            l.lit,
            super::scan::Lit::Clock(_) | super::scan::Lit::Hour(_) | super::scan::Lit::Date(_)
        )
    });
    if frame.query.source == Source::Log && !own_time && p.has(|c| c == Cue::Then) {
        frame.query.window = Some(super::edit_ops::then_window(lex, p, at, &frame.query));
        // It reads the conversation, as a follow-up does.
        frame.follow_up = true;
    }
}
