//! Conditions on a field the log at hand lacks, read the way that log can answer them: a
//! request's method or path in the text of the lines, an error level as the log's own
//! failures (an access log's 5xx) or as the word in its text, a 3-digit code as the
//! text it is where the log's status is no number; a network as its addresses.

use llmops_common::query::{Filter, FilterOp, Scalar, Unit};

use super::parsed::{filter, Parsed};

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
        let textual =
            matches!(f.value, Scalar::Text(_)) && matches!(f.op, FilterOp::Eq | FilterOp::Contains);
        if textual && IN_TEXT.contains(&field.as_str()) && !p.log_has(&field) {
            f.field = None;
            f.op = FilterOp::Contains;
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
        if !on_level || f.op != FilterOp::Eq || !FAILING.contains(&v.as_str()) {
            continue;
        }
        *f = if p.log_has("status") {
            Filter::new(None, FilterOp::Tag, Scalar::Text("failure".into()))
        } else {
            Filter::new(None, FilterOp::Contains, Scalar::Text(v.to_lowercase()))
        };
    }
}

/// A bare 3-digit code ("503", "421"): the requests' status where the log's status holds
/// numbers (or its fields are unknown); in a log whose status is a word (postfix's
/// `status=sent`) or that has none, the code as its lines write it (an SMTP reply).
pub fn code_filter(p: &Parsed, value: f64, eq: FilterOp) -> Filter {
    let status = super::value_words::column_for(&p.columns, "status");
    let codes = p.columns.is_empty()
        || status.is_some_and(|c| {
            c.numeric || c.values.is_empty() || c.values.iter().any(|v| v.parse::<f64>().is_ok())
        });
    if codes {
        return filter(Some("status"), eq, Scalar::Number(value), Unit::None);
    }
    // Unequal: the lines without the code's text (a longer number holding it is rare).
    if eq == FilterOp::Ne {
        let text = Scalar::Text(format!("{value}"));
        return filter(None, FilterOp::NotContains, text, Unit::None);
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

/// Whether a filter is a code looked for as text ([`code_filter`]'s).
pub fn is_code_text(f: &Filter) -> bool {
    let code = |v: &str| {
        v.strip_prefix(r"\b")
            .and_then(|v| v.strip_suffix(r"\b"))
            .is_some_and(|d| d.len() == 3 && d.bytes().all(|b| b.is_ascii_digit()))
    };
    f.field.is_none() && f.op == FilterOp::Regex && matches!(&f.value, Scalar::Text(v) if code(v))
}

/// The addresses of a network written with its prefix length ("10.20.0.0/16") as a regex
/// over dotted addresses: the whole octets the prefix fixes, and the range of the one it
/// cuts (`10.20.16.0/20`: third octet 16 to 31).
pub fn network_pattern(cidr: &str) -> Option<String> {
    let (addr, len) = cidr.split_once('/')?;
    let len: u32 = len.parse().ok().filter(|l| *l <= 32)?;
    let octets: Vec<u32> = addr
        .split('.')
        .map(|o| o.parse().ok())
        .collect::<Option<_>>()?;
    let whole = (len / 8) as usize;
    let mut pattern = String::from("^");
    for o in octets.iter().take(whole) {
        pattern.push_str(&format!(r"{o}\."));
    }
    let cut = len % 8;
    if whole < 4 && cut > 0 {
        let span = 1u32 << (8 - cut);
        let base = octets[whole] & !(span - 1) & 0xff;
        let alts: Vec<String> = (base..base + span).map(|v| v.to_string()).collect();
        pattern.push_str(&format!(r"(?:{})\b", alts.join("|")));
    }
    if whole == 4 {
        pattern.truncate(pattern.len() - 2);
        pattern.push('$');
    }
    Some(pattern)
}
