//! Questions about what one named actor did ("how many times did u011 login"): an
//! identifier is a condition whatever else the question asks, and a column's value beside
//! it is that column's; each figure checked against a planted auth log. ("log in" as a verb
//! is read as "login" before the frame: `understand/spelling.rs`.)

use llmops_common::query::QueryValue;

use super::tests_answers::Planted;

/// An auth service's JSON log: users u001..u006 log in, fail to, refresh and log out.
fn auth() -> (Planted, Vec<(String, &'static str)>) {
    let events = ["login", "token_refresh", "login_failed", "login", "logout"];
    let mut text = String::new();
    let mut planted = Vec::new();
    for i in 0..90usize {
        let user = format!("u{:03}", 1 + (i * 7 + i / 5) % 6);
        let event = events[(i + i / 6) % events.len()];
        text.push_str(&format!(
            "{{\"ts\":\"2031-03-01T08:{:02}:{:02}Z\",\"level\":\"info\",\"user\":\"{user}\",\"event\":\"{event}\"}}\n",
            i / 60,
            i % 60
        ));
        planted.push((user, event));
    }
    (Planted::new("auth.json", &text), planted)
}

fn count(p: &Planted, q: &str) -> u64 {
    match p.answer(q).value {
        QueryValue::Count { count } => count,
        v => panic!("{q}: not a count: {v:?}"),
    }
}

#[test]
fn what_one_user_did_is_counted_for_that_user() {
    let (p, planted) = auth();
    let of = |user: &str, event: &str| {
        planted
            .iter()
            .filter(|(u, e)| u == user && *e == event)
            .count() as u64
    };
    assert!(of("u003", "login") > 0, "planted");
    for q in [
        "how many times did u003 login in auth.json",
        "auth.json: did u003 login? how many times",
        "how many login events for u003 in auth.json",
    ] {
        assert_eq!(count(&p, q), of("u003", "login"), "{q}");
    }
    assert_eq!(
        count(&p, "how many times did u003 fail to login, per auth.json"),
        of("u003", "login_failed")
    );
}
