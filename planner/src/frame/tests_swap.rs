//! Follow-ups that swap the condition the last answer was made of: a tag and a condition on
//! a field the tag is defined over are one subject, and a kind of event listed under the
//! old condition is no longer what "it" means.

use llmops_common::query::QueryValue;

use super::tests_answers::Planted;

fn count(r: &llmops_common::query::QueryResult) -> u64 {
    match r.value {
        QueryValue::Count { count } => count,
        ref v => panic!("not a count: {v:?}"),
    }
}

/// An access log with planted statuses: 12 5xx, 7 4xx, the rest 200; and its text.
fn access_text() -> String {
    let mut text = String::new();
    for i in 0..60 {
        let status = match i % 10 {
            0 | 3 => 503,
            5 if i < 50 => 404,
            7 if i < 20 => 400,
            _ => 200,
        };
        text.push_str(&format!(
            "10.0.0.{} - - [01/Feb/2031:04:00:{i:02} +0000] \"GET /p{} HTTP/1.1\" {status} 512 \"-\" \"curl/8\"\n",
            i % 5,
            i % 3
        ));
    }
    text
}

/// The planted lines that contain every one of `words`, as `grep | grep -c` counts them.
fn lines_with(text: &str, words: &[&str]) -> u64 {
    text.lines()
        .filter(|l| words.iter().all(|w| l.contains(w)))
        .count() as u64
}

#[test]
fn a_class_after_the_failures_of_an_access_log_replaces_them() {
    let text = access_text();
    let p = Planted::new("edge.log", &text);
    let errors = p.answer("how many errors in edge.log");
    let planted = lines_with(&text, &["\" 503 "]);
    assert_eq!(count(&errors), planted, "{:?}", errors.query.filters);
    for q in ["那 4xx 呢", "and 4xx?"] {
        let r = p.answer_after(q, Some(&errors));
        let planted = lines_with(&text, &["\" 4"]);
        assert_eq!(count(&r), planted, "{q}: {:?}", r.query.filters);
    }
}

/// A service log: an ERROR kind, WARN lines of another kind and INFO lines.
fn service_text() -> String {
    let mut text = String::new();
    for i in 0..40 {
        let line = match i % 8 {
            0 | 4 => "ERROR [main] c.x.Pay - charge failed for order 17".to_string(),
            1 | 6 if i < 30 => format!("WARN [main] c.x.Pool - pool at {i} of 40"),
            _ => "INFO [main] c.x.Api - served".to_string(),
        };
        text.push_str(&format!("2031-02-01 04:00:{i:02}.000 {line}\n"));
    }
    text
}

#[test]
fn a_level_asked_of_it_after_the_most_common_error_is_the_logs() {
    let text = service_text();
    let p = Planted::new("svc.log", &text);
    let top = p.answer("what is the most common error in svc.log");
    let warn = p.answer_after("how many WARN lines does it have", Some(&top));
    assert_eq!(
        count(&warn),
        lines_with(&text, &[" WARN "]),
        "{:?}",
        warn.query.filters
    );
    // Asked of the kind without another level, "it" is still that kind.
    let again = p.answer_after("how many times did it happen", Some(&top));
    let kind = lines_with(&text, &["charge failed"]);
    assert_eq!(count(&again), kind, "{:?}", again.query.filters);
}

#[test]
fn a_client_keeps_being_it_when_the_condition_is_swapped() {
    let text = access_text();
    let p = Planted::new("edge.log", &text);
    let top = p.answer("which client sent the most 5xx in edge.log");
    let r = p.answer_after("how many 4xx did it send", Some(&top));
    // The top client of the 5xx is 10.0.0.0 (every 5th line from the first).
    let of_it = |status: &str| lines_with(&text, &["10.0.0.0 ", &format!("\" {status}")]);
    assert!(of_it("503") > of_it("404"), "the planted top client");
    assert_eq!(count(&r), of_it("4"), "{:?}", r.query.filters);
}
