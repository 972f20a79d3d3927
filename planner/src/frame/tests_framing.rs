//! A question's framing ("what was", "show me", "hey,", "请问", "帮我看看", a question mark)
//! changes nothing of the query it asks, and a bare noun phrase ("the slowest request") is
//! the same query as the sentence around it.

use llmops_common::query::Column;

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
fn session() -> Vec<crate::UploadRef> {
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
fn planned(ups: &[crate::UploadRef], text: &str) -> String {
    match first_sent(text, ups, &[]) {
        PlannerAction::Call { args, .. } => match args {
            llmops_tooldata::ToolArgs::LogQuery(q) => {
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
