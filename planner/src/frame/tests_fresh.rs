//! Questions after a query that are questions of their own, not edits of it: "and" that
//! joins a range or two things, asked after another query's answer; each figure checked
//! against a planted access log.

use llmops_common::query::{Field, FilterOp, Scalar};

use super::tests_answers::Planted;

/// An access log of 240 requests over four minutes: paths and statuses in a fixed cycle.
fn shop() -> (Planted, Vec<(u32, &'static str, u16)>) {
    let paths = ["/api/search", "/api/cart", "/login"];
    let statuses = [200, 502, 200, 404, 200, 503, 200];
    let mut text = String::new();
    let mut planted = Vec::new();
    for i in 0..240u32 {
        let (path, status) = (paths[(i % 3) as usize], statuses[(i % 7) as usize]);
        let (m, s) = (10 + i / 60, i % 60);
        text.push_str(&format!(
            "10.0.0.{} - - [07/Mar/2031:11:{m:02}:{s:02} +0000] \"GET {path} HTTP/1.1\" {status} 512 \"-\" \"curl/8\" 0.{:03}\n",
            i % 9,
            i % 1000
        ));
        planted.push((m, path, status));
    }
    (Planted::new("shop.log", &text), planted)
}

#[test]
fn a_range_or_a_list_joined_by_and_after_a_query_is_a_new_question() {
    let (p, planted) = shop();
    let last = p.answer("p99 response time for /api/search");
    let in_window = |st: u16| {
        planted
            .iter()
            .filter(|(m, _, s)| (11..=12).contains(m) && *s == st)
            .count() as u64
    };
    let r = p.answer_after("how many 502s between 11:11 and 11:12", Some(&last));
    assert!(
        !r.query
            .filters
            .iter()
            .any(|f| f.field == Some(Field::new("path"))),
        "{:?}",
        r.query.filters
    );
    assert_eq!(r.matched, in_window(502));
    // "and" joining two values is one condition of the new question.
    let r = p.answer_after("how many 502 and 503 responses", Some(&last));
    let both = planted.iter().filter(|(_, _, s)| *s >= 502).count() as u64;
    assert_eq!(r.matched, both, "{:?}", r.query.filters);
    // Opening the message, "and" still edits the last query.
    let r = p.answer_after("and for /login?", Some(&last));
    assert!(
        r.query
            .filters
            .iter()
            .any(|f| f.op == FilterOp::Contains && f.value == Scalar::Text("/login".into())),
        "{:?}",
        r.query.filters
    );
    assert_eq!(r.query.measure, last.query.measure);
}

/// "per request" is each event, no grouping by the request line; a listing word before the
/// distinct word lists the values, each with its count.
#[test]
fn per_request_is_each_event_and_a_list_of_distinct_values_shows_them() {
    let (p, planted) = shop();
    let r = p.answer("avg response time per request for /login");
    assert!(r.query.group_by.is_empty(), "{:?}", r.query.group_by);
    assert_eq!(
        r.matched,
        planted
            .iter()
            .filter(|(_, path, _)| *path == "/login")
            .count() as u64
    );
    let r = p.answer("list the distinct status codes");
    assert_eq!(r.query.group_by, vec![Field::new("status")]);
    let llmops_common::query::QueryValue::Groups { rows, groups, .. } = r.value else {
        panic!("groups: {:?}", r.value)
    };
    assert_eq!(groups, 4);
    let count_of = |st: &str| rows.iter().find(|g| g.key == [st]).map(|g| g.count);
    let planted_of = |st: u16| planted.iter().filter(|(_, _, s)| *s == st).count() as u64;
    assert_eq!(count_of("404"), Some(planted_of(404)));
    assert_eq!(count_of("200"), Some(planted_of(200)));
    // How many there are is still a distinct count.
    let r = p.answer("how many distinct status codes");
    assert_eq!(
        r.value,
        llmops_common::query::QueryValue::Distinct { count: 4 }
    );
}

/// "how many timeouts were logged in gateway.json": "in" opens the log's name, so "logged
/// in" is no login; "how many users logged in" still counts logins.
#[test]
fn logged_in_a_file_is_no_login() {
    let mut text = String::new();
    let mut timeouts = 0u64;
    for i in 0..60u32 {
        let msg = match i % 4 {
            0 => "db timeout after 3s",
            1 => "login accepted for user u7",
            _ => "request ok",
        };
        timeouts += u64::from(i % 4 == 0);
        text.push_str(&format!(
            "{{\"ts\":\"2031-06-01T09:00:{i:02}Z\",\"level\":\"info\",\"msg\":\"{msg}\"}}\n"
        ));
    }
    let p = Planted::new("gateway.json", &text);
    let r = p.answer("how many db timeouts were logged in gateway.json");
    assert_eq!(r.matched, timeouts, "{:?}", r.query.filters);
}

/// "/login requests failed": "login" is the path's, so no failed-login tag; "failed" is
/// read alone, the failures among the path's requests.
#[test]
fn a_cue_word_inside_a_path_is_the_paths() {
    let (p, planted) = shop();
    let r = p.answer("how many /login requests failed");
    let failed = planted
        .iter()
        .filter(|(_, path, s)| *path == "/login" && *s >= 500)
        .count() as u64;
    assert_eq!(r.matched, failed, "{:?}", r.query.filters);
    assert!(r.query.group_by.is_empty());
}
