//! Conditions on a field the log at hand lacks, read the way that log can answer them: a
//! request's method or path in the text of the lines, an error level as the log's own
//! failures (an access log's 5xx) or as the word in its text, a 3-digit code as the
//! text it is where the log's status is no number.

use llmops_common::query::{Filter, FilterOp, Scalar, Unit};

use super::parsed::{filter, Parsed};
use super::scan::Lit;

/// Rewrites, in place, the conditions of `hard` on fields the log has no column for.
pub fn read_as_the_log_can(p: &Parsed, hard: &mut [Filter]) {
    in_the_text_without_the_field(p, hard);
    levels_without_the_field(p, hard);
}

/// "POST /v2/rides/end" over a log whose lines carry the request in their text (a
/// container log of an app's own lines): a request's method or path that the log has no
/// field for is looked for in the text, as written.
fn in_the_text_without_the_field(p: &Parsed, hard: &mut [Filter]) {
    const IN_TEXT: [&str; 4] = ["method", "path", "url", "endpoint"];
    for f in hard.iter_mut() {
        let Some(field) = f.field.as_ref().map(|x| x.as_str().to_string()) else {
            continue;
        };
        let textual = matches!(f.value, Scalar::Text(_))
            && matches!(
                f.op,
                FilterOp::Eq | FilterOp::Contains | FilterOp::Ne | FilterOp::NotContains
            );
        let held = !f.excludes();
        if textual && IN_TEXT.contains(&field.as_str()) && !p.log_has(&field) {
            f.field = None;
            f.negate = false;
            f.op = if held {
                FilterOp::Contains
            } else {
                FilterOp::NotContains
            };
            // A method is written in capitals ("POST"); lower case is some other word.
            f.case_sensitive = field == "method";
        }
    }
}

/// "how many requests returned an error" over a log without levels: an access log's
/// failures are its 5xx (the `failure` tag, which the engine resolves by the log's
/// fields and names in the answer); a log with neither levels nor a status has the level's
/// word looked for in its text, as `grep -ci error` would.
fn levels_without_the_field(p: &Parsed, hard: &mut [Filter]) {
    const FAILING: [&str; 3] = ["ERROR", "CRITICAL", "FATAL"];
    if p.log_has("level") {
        return;
    }
    for f in hard.iter_mut() {
        let on_level = f.field.as_ref().is_some_and(|x| x.as_str() == "level");
        let Scalar::Text(v) = &f.value else { continue };
        let equal = matches!(f.op, FilterOp::Eq | FilterOp::Ne);
        if !on_level || !equal || !FAILING.contains(&v.as_str()) {
            continue;
        }
        let unequal = f.excludes();
        let read = if p.log_has("status") {
            Filter::new(None, FilterOp::Tag, Scalar::Text("failure".into()))
        } else {
            Filter::new(None, FilterOp::Contains, Scalar::Text(v.to_lowercase()))
        };
        *f = if unequal { read.negated() } else { read };
    }
}

/// A bare 3-digit code ("503", "421"): the requests' status where the log's status holds
/// numbers (or its fields are unknown); in a log whose status is a word (postfix's
/// `status=sent`) or that has none, the code as its lines write it (an SMTP reply).
pub fn code_filter(p: &Parsed, value: f64) -> Filter {
    let status = super::value_words::column_for(&p.columns, "status");
    let codes = p.columns.is_empty()
        || status.is_some_and(|c| {
            c.numeric || c.values.is_empty() || c.values.iter().any(|v| v.parse::<f64>().is_ok())
        });
    if codes {
        return filter(
            Some("status"),
            FilterOp::Eq,
            Scalar::Number(value),
            Unit::None,
        );
    }
    filter(
        None,
        FilterOp::Regex,
        Scalar::Text(code_pattern(value)),
        Unit::None,
    )
}

fn code_pattern(value: f64) -> String {
    format!(r"\b{value}\b")
}
/// Whether a filter is one of the question's codes looked for as text ([`code_filter`]'s).
pub fn is_code_text(p: &Parsed, f: &Filter) -> bool {
    f.field.is_none()
        && f.op == FilterOp::Regex
        && p.lits.iter().any(|l| match l.lit {
            Lit::Number { value, .. } => f.value == Scalar::Text(code_pattern(value)),
            _ => false,
        })
}
