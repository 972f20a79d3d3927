//! Which log a question is about when the one at hand lacks what it names: "the p95 %D of
//! the shop site" is of `shop_access.log`, not `shop_error.log`; "which tenant had the
//! slowest quote" is of the one log with a `tenant` field; "the slowest chunk" is of the one
//! log whose events say "chunk".

use llmops_common::query::{Filter, FilterOp, Query, Scalar, Source};

use super::parsed::Parsed;
use super::value_words::column_for;
use super::{is_log_upload, FrameCtx};
use crate::lexicon::{lexicon, Cue};
use crate::UploadRef;

/// The log a question is about instead of the one at hand: a sibling with the fields it
/// reads, the one other log with a field it names, or the one other log that says the
/// words it names events by.
pub(super) fn other_log(
    ctx: &FrameCtx,
    p: &Parsed,
    frame: &super::Frame,
    text: &str,
) -> Option<UploadRef> {
    let q = &frame.query;
    sibling_with_the_fields(ctx, q, text)
        .or_else(|| log_naming_its_field(ctx, p, q, text))
        .or_else(|| log_with_the_words(ctx, p, q, &frame.soft))
}

/// The one other log of the session with what the question names where the log at hand
/// has nothing: its own field by name (a log's field names bind only over that log), or a
/// field the lexicon names (`client`, the `duration` "slowest" reads) that the log at hand
/// lacks. Only when the question names no log; `None` when no log, or more than one, has it.
fn log_naming_its_field(ctx: &FrameCtx, p: &Parsed, q: &Query, text: &str) -> Option<UploadRef> {
    let [file] = q.files.as_slice() else {
        return None;
    };
    if q.source != Source::Log || !p.files.is_empty() {
        return None;
    }
    let chosen = ctx
        .uploads
        .iter()
        .find(|u| u.path.to_string_lossy() == file.as_str())?;
    if chosen.columns.is_empty() {
        return None;
    }
    let lacking: Vec<&str> = named_log_fields(p)
        .into_iter()
        .filter(|f| !has_all(chosen, &[f]))
        .collect();
    let spans = |p: &Parsed| -> Vec<(usize, usize)> {
        p.hits
            .iter()
            .filter(|h| matches!(h.cue, Cue::Column(_)))
            .map(|h| (h.start, h.end))
            .collect()
    };
    let mut own = spans(p);
    // A word that is another log's column and also the lexicon's word for a field the log
    // at hand has ("IP" of an sshd log's `ip` and of an access log's client) stays here.
    let lex = lexicon();
    own.extend(
        p.hits
            .iter()
            .filter(|h| matches!(h.cue, Cue::Field(i) if has_all(chosen, &[lex.fields[i].field.as_str()])))
            .map(|h| (h.start, h.end)),
    );
    let names_a_field_of = |u: &UploadRef| {
        let only = [u.clone()];
        spans(&Parsed::new(text, &FrameCtx::of_uploads(&only)))
            .iter()
            .any(|&(s, e)| !own.iter().any(|&(os, oe)| os < e && s < oe))
    };
    let mut naming = ctx.uploads.iter().filter(|u| {
        u.path != chosen.path
            && is_log_upload(u)
            && !u.columns.is_empty()
            && (lacking.is_empty() || has_all(u, &lacking))
            && (!lacking.is_empty() || names_a_field_of(u))
    });
    match (naming.next(), naming.next()) {
        (Some(u), None) => Some(u.clone()),
        _ => None,
    }
}

/// The log fields the question's words name: a log field's word, or the field a measure
/// reads ("slowest": `duration`).
fn named_log_fields(p: &Parsed) -> Vec<&'static str> {
    let lex = lexicon();
    let mut out: Vec<&'static str> = p
        .hits
        .iter()
        .filter_map(|h| match h.cue {
            Cue::Field(i) if lex.fields[i].source.is_none_or(|s| s == Source::Log) => {
                Some(lex.fields[i].field.as_str())
            }
            Cue::Measure(i) => lex.measure_log_field(i),
            _ => None,
        })
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The one other log that shares the chosen log's name (`gunicorn-error.log`,
/// `gunicorn-access.log`) and has every field the query reads, when the chosen one lacks
/// some; `None` when the chosen log has them, or no single sibling does.
fn sibling_with_the_fields(ctx: &FrameCtx, q: &Query, text: &str) -> Option<UploadRef> {
    let [file] = q.files.as_slice() else {
        return None;
    };
    if q.source != Source::Log {
        return None;
    }
    let needed = fields_read(q);
    let chosen = ctx
        .uploads
        .iter()
        .find(|u| u.path.to_string_lossy() == file.as_str())?;
    // A log named by its file name is the one asked about; one whose columns are unknown
    // lacks nothing it can be shown to lack.
    if needed.is_empty()
        || chosen.columns.is_empty()
        || text.contains(chosen.filename.as_str())
        || has_all(chosen, &needed)
    {
        return None;
    }
    let stem = first_part(&chosen.filename);
    let mut siblings = ctx.uploads.iter().filter(|u| {
        u.path != chosen.path
            && is_log_upload(u)
            && first_part(&u.filename) == stem
            && has_all(u, &needed)
    });
    match (siblings.next(), siblings.next()) {
        (Some(u), None) => Some(u.clone()),
        _ => None,
    }
}

/// The fields a query reads (its statistic's and its groups'), but the time and the
/// fields it defines itself.
fn fields_read(q: &Query) -> Vec<&str> {
    q.field
        .iter()
        .chain(&q.group_by)
        .map(|f| f.as_str())
        .filter(|f| !matches!(*f, "time" | "timestamp"))
        .filter(|f| !q.extract.iter().any(|x| x.name == *f))
        .collect()
}

/// The file name's first word (`catalog` of `catalog_access.log`), lower case.
fn first_part(name: &str) -> String {
    name.split(['-', '_', '.', '@'])
        .next()
        .unwrap_or("")
        .to_lowercase()
}

/// Whether the log has a column for each field, by name, role or a role's fallback.
fn has_all(u: &UploadRef, fields: &[&str]) -> bool {
    !u.columns.is_empty()
        && fields.iter().all(|f| {
            column_for(&u.columns, f).is_some()
                || llmops_loganalysis::table::role_fallbacks(f)
                    .iter()
                    .any(|alt| column_for(&u.columns, alt).is_some())
        })
}

/// The one other log of the session whose events say the words the question names events
/// by, when the log at hand does not: every word of its conditions, or with none, every
/// soft word. Only when the question names no log; `None` when the log at
/// hand says them, or no single other log does.
fn log_with_the_words(ctx: &FrameCtx, p: &Parsed, q: &Query, soft: &[Filter]) -> Option<UploadRef> {
    let [file] = q.files.as_slice() else {
        return None;
    };
    if q.source != Source::Log || !p.files.is_empty() {
        return None;
    }
    let (hard, soft) = (text_patterns(&q.filters), text_patterns(soft));
    if hard.is_empty() && soft.is_empty() {
        return None;
    }
    // Every word of the conditions; with none, every soft word.
    let wanted = if hard.is_empty() { soft } else { hard };
    let says = |u: &UploadRef| says_all(u, &wanted);
    let chosen = ctx
        .uploads
        .iter()
        .find(|u| u.path.to_string_lossy() == file.as_str())?;
    // The other log must have what the query reads ("which endpoint": an `endpoint`).
    let needed = fields_read(q);
    let others: Vec<&UploadRef> = ctx
        .uploads
        .iter()
        .filter(|u| u.path != chosen.path && is_log_upload(u) && has_all(u, &needed))
        .collect();
    if others.is_empty() || says(chosen) != Some(false) {
        return None;
    }
    let mut saying = others.into_iter().filter(|u| says(u) == Some(true));
    match (saying.next(), saying.next()) {
        (Some(u), None) => Some(u.clone()),
        _ => None,
    }
}

/// Whether the query's log writes the words the question names its events by (the frame's
/// object: "how many deadlocks" over a log that says "deadlock"): a question naming no log,
/// sent with none, is about the session's log when that log says what it asks of.
pub(super) fn log_says_the_object(ctx: &FrameCtx, frame: &super::Frame) -> bool {
    frame
        .object
        .as_ref()
        .is_some_and(|o| the_log_says(ctx, &frame.query, o))
}

/// Whether the query's one log says what the condition on the events' text looks for.
fn the_log_says(ctx: &FrameCtx, q: &Query, f: &Filter) -> bool {
    let [file] = q.files.as_slice() else {
        return false;
    };
    let patterns = text_patterns(std::slice::from_ref(f));
    let log = ctx
        .uploads
        .iter()
        .find(|u| u.path.to_string_lossy() == file.as_str());
    !patterns.is_empty()
        && log.is_some_and(|u| is_log_upload(u) && says_all(u, &patterns) == Some(true))
}

/// "which upstream refused connections the most": words the frame left out beside a
/// grouping, with no condition of its own, are what is counted when the log writes them.
pub(super) fn object_the_log_writes(ctx: &FrameCtx, frame: &mut super::Frame) {
    let q = &frame.query;
    let Some(unused) = frame.unused_object.as_ref() else {
        return;
    };
    let beside_a_grouping = !q.group_by.is_empty() && q.filters.is_empty();
    if q.source == Source::Log && beside_a_grouping && the_log_says(ctx, q, unused) {
        frame.object = frame.unused_object.take().map(|o| *o);
        frame.query.filters.extend(frame.object.clone());
    }
}

/// The patterns of the conditions on an event's text (a word, the forms of one, or the
/// words a tag reads), compiled case-insensitively.
fn text_patterns(filters: &[Filter]) -> Vec<regex::bytes::Regex> {
    filters
        .iter()
        .filter_map(|f| match (&f.field, f.op, &f.value, f.negate) {
            (None, FilterOp::Contains, Scalar::Text(w), false) if w.len() >= 3 => {
                Some(regex::escape(w))
            }
            (None, FilterOp::Regex, Scalar::Text(re), false) if re.len() >= 3 => Some(re.clone()),
            // A tag by the words its events say ("failed logins": "Failed password").
            (None, FilterOp::Tag, Scalar::Text(tag), false) => {
                llmops_loganalysis::table::tag_text_pattern(tag)
            }
            _ => None,
        })
        .filter_map(|p| {
            regex::bytes::RegexBuilder::new(&p)
                .case_insensitive(true)
                .build()
                .ok()
        })
        .collect()
}

/// Whether the log's text matches every pattern (its first 64 MiB, no further than the
/// last pattern found); `None` when it cannot be read.
fn says_all(u: &UploadRef, patterns: &[regex::bytes::Regex]) -> Option<bool> {
    let mut missing: Vec<&regex::bytes::Regex> = patterns.iter().collect();
    super::log_read::blocks(&u.path, |text| {
        missing.retain(|re| !re.is_match(text));
        !missing.is_empty()
    })?;
    Some(missing.is_empty())
}
