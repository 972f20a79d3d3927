//! A question's framing ("what was", "show me", "hey,", "请问", "帮我看看", a question mark)
//! changes nothing of the query it asks, and a bare noun phrase ("the slowest request") is
//! the same query as the sentence around it; how many rows, which position and how long a
//! window a phrase asks for.

use llmops_common::query::Column;

use serde_json::json;

use super::tests::frame;
use crate::tests::{first_sent, uploads};
use crate::PlannerAction;

fn column(name: &str, numeric: bool, roles: &[&str]) -> Column {
    Column {
        name: name.into(),
        numeric,
        roles: roles.iter().map(|r| (*r).into()).collect(),
        values: Vec::new(),
    }
}

/// An access log and a logfmt app log, as the server describes them.
pub(super) fn session() -> Vec<crate::UploadRef> {
    let mut ups = uploads(&["edge-access.log", "quoter.log"]);
    ups[0].format = Some("nginx_combined".into());
    ups[0].columns = vec![
        column("remote_addr", false, &["client"]),
        column("time_local", false, &["time"]),
        column("status", false, &["status"]),
        column("body_bytes_sent", true, &["bytes"]),
        column("path", false, &["path", "url"]),
        column("method", false, &["method"]),
        column("rt", true, &["duration"]),
    ];
    ups[1].format = Some("logfmt".into());
    ups[1].columns = vec![
        column("time", false, &["time"]),
        column("level", false, &["level"]),
        column("msg", false, &["message"]),
        column("tenant", false, &[]),
        column("duration", true, &["duration"]),
    ];
    ups
}

/// The query a question plans first, as JSON, or what it did instead.
pub(super) fn planned(ups: &[crate::UploadRef], text: &str) -> String {
    match first_sent(text, ups, &[]) {
        PlannerAction::Call { args, .. } => match args {
            llmops_tooldata::ToolArgs::LogQuery(q) | llmops_tooldata::ToolArgs::SystemQuery(q) => {
                serde_json::to_string(&q.query).expect("serialises")
            }
            other => format!("not a log query: {other}"),
        },
        other => format!("no call: {other:?}"),
    }
}

#[test]
fn framing_words_change_nothing_of_the_query() {
    let ups = session();
    let en = [
        "what was {}",
        "show me {}",
        "{}?",
        "hey, {}",
        "can you tell me {}",
    ];
    let zh = ["请问{}", "帮我看看{}", "{}？", "我想知道{}"];
    for base in [
        "the slowest request",
        "the largest response",
        "which client sent the most requests",
        "how many 504s",
        "which tenant had the slowest quote",
        "最慢的请求",
        "哪个客户端请求最多",
        "请求最多的客户端",
        "504 最多的是哪一分钟",
    ] {
        let want = planned(&ups, base);
        assert!(want.starts_with('{'), "{base}: {want}");
        let framings = if base.is_ascii() { &en[..] } else { &zh[..] };
        for f in framings {
            let text = f.replace("{}", base);
            assert_eq!(planned(&ups, &text), want, "{text}");
        }
    }
}

#[test]
fn a_field_only_one_log_has_picks_that_log() {
    let ups = session();
    for text in [
        "which tenant had the slowest quote",
        "average duration per tenant",
    ] {
        let q = planned(&ups, text);
        assert!(
            q.contains("quoter.log") && q.contains("\"tenant\""),
            "{text}: {q}"
        );
    }
    // A field both logs have leaves the log at hand (the newest).
    let q = planned(&ups, "average duration");
    assert!(q.contains("quoter.log"), "{q}");
    let q = planned(&ups, "which client sent the most requests");
    assert!(q.contains("edge-access.log"), "{q}");
}

#[test]
fn a_measure_of_a_log_field_asks_about_the_log() {
    let ups = session();
    let q = planned(&ups, "the slowest request");
    assert!(
        q.contains("\"measure\":\"max\"") && q.contains("\"duration\""),
        "{q}"
    );
    let q = planned(&ups, "the largest response");
    assert!(
        q.contains("\"measure\":\"max\"") && q.contains("\"bytes\""),
        "{q}"
    );
}

#[test]
fn an_ordinal_beside_a_figure_is_no_pick_from_a_list() {
    let ups = session();
    let q = planned(&ups, "第一个 504 是什么时候");
    assert!(q.contains("504"), "{q}");
    // A bare pick with no list before it says so.
    let a = planned(&ups, "第二个");
    assert!(a.contains("没有列出"), "{a}");
}

#[test]
fn several_of_the_largest_values_are_those_events() {
    for (q, n) in [
        ("top 3 slowest requests in access.log", 3),
        ("the 5 slowest requests in access.log", 5),
        ("access.log 里最慢的 3 个请求", 3),
    ] {
        let f = frame(q);
        assert_eq!(
            (&f["measure"], &f["field"], &f["limit"]),
            (&json!("rows"), &json!("duration"), &json!(n)),
            "{q}: {f}"
        );
        assert!(f.get("order").is_none_or(|o| o == "desc"), "{q}: {f}");
    }
    // "the second slowest": the rows down to the position asked, which the answer leads with.
    for (q, n) in [
        ("the second slowest request in access.log", 2),
        ("what was the 3rd slowest request in access.log", 3),
    ] {
        let f = frame(q);
        assert_eq!(
            (&f["measure"], &f["field"], &f["rank"]),
            (&json!("rows"), &json!("duration"), &json!(n)),
            "{q}: {f}"
        );
    }
    let f = frame("the 3 fastest requests in access.log");
    assert_eq!(
        (&f["measure"], &f["order"]),
        (&json!("rows"), &json!("asc")),
        "{f}"
    );
    // One is the value itself.
    let f = frame("the slowest request in access.log");
    assert_eq!(f["measure"], "max", "{f}");
    let f = frame("slowest request over 3 s in access.log");
    assert_eq!(
        f["measure"], "max",
        "a number with a unit is a condition: {f}"
    );
}

#[test]
fn a_length_beside_after_or_before_a_time_is_the_window() {
    for (q, from, to) in [
        (
            "how many 504s in the 10 minutes after 2:10 in access.log",
            "02:10",
            "02:20",
        ),
        (
            "how many 504s in the 5 minutes before 2:20 in access.log",
            "02:15",
            "02:20",
        ),
        ("access.log 里 2:20 之前 5 分钟有多少 504", "02:15", "02:20"),
    ] {
        let f = frame(q);
        assert_eq!(
            f["window"],
            json!({"between": {"from": from, "to": to}}),
            "{q}: {f}"
        );
    }
    // A length a comparison reads is the condition's, not the window's.
    let f = frame("how many requests took over 2 seconds after 2:10 in access.log");
    assert_eq!(f["window"], json!({"between": {"from": "02:10"}}), "{f}");
}

/// "用了多少" beside another table's field with no path ("redis-server 用了多少内存") is
/// that table's figure, not a filesystem's.
#[test]
fn a_filesystem_word_gives_way_to_another_tables_field() {
    let ups = session();
    let q = planned(&ups, "redis-server 用了多少内存");
    assert!(
        q.contains("\"processes\"") && q.contains("rss_bytes"),
        "{q}"
    );
    let q = planned(&ups, "/var 分区用了多少");
    assert!(q.contains("\"mounts\"") && q.contains("\"/var\""), "{q}");
}
