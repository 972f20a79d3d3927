//! Frames that depend on what the server read of a log: its format's own words, the values
//! its columns take, and events picked from a listed set.

use serde_json::{json, Value};

use super::tests::{frame_with, query_over, APP};
use super::LastQuery;
use crate::tests::uploads;
use llmops_common::query::Measure;

#[test]
fn an_event_picked_by_position_is_shown_whole() {
    let last_q = serde_json::from_value(json!({"source": "log", "files": [APP],
        "measure": "rows", "field": "duration", "limit": 5}))
    .expect("query");
    let last = LastQuery {
        query: last_q,
        items: vec![
            vec![("duration".into(), "41.2".into())],
            vec![("duration".into(), "38.7".into())],
        ],
        event: Vec::new(),
        at: None,
    };
    for text in [
        "and the second one, which host was that on?",
        "第二个是哪个用户跑的？",
    ] {
        let f = frame_with(text, Some(&last)).unwrap_or_else(|| panic!("no frame: {text}"));
        assert_eq!(
            (&f["measure"], &f["limit"], &f["group_by"]),
            (&json!("rows"), &json!(1), &Value::Null),
            "{text}: {f}"
        );
        assert!(
            f["filters"]
                .as_array()
                .expect("filters")
                .contains(&json!({"field": "duration", "op": "eq", "value": 38.7})),
            "{text}: {f}"
        );
    }
}

#[test]
fn a_formats_own_words_are_cues_only_over_that_format() {
    let mut ups = uploads(&["jail.log", "app.log"]);
    let time = llmops_common::query::Column {
        name: "time".into(),
        numeric: false,
        roles: vec!["time".into()],
        ..Default::default()
    };
    for (u, format) in ups.iter_mut().zip(["fail2ban", "generic"]) {
        u.format = Some(format.to_string());
        u.columns = vec![time.clone()];
    }
    let f = query_over(&ups, "how many bans in jail.log");
    assert_eq!(f["filters"], json!([{"op": "tag", "value": "ban"}]), "{f}");
    let f = query_over(&ups, "how many bans in app.log");
    assert!(!f["filters"].to_string().contains("tag"), "{f}");
}

#[test]
fn a_word_that_is_one_columns_value_is_that_fields_condition() {
    let mut ups = uploads(&["envoy-access.log"]);
    let col = |n: &str, r: &[&str], v: &[&str]| llmops_common::query::Column {
        name: n.into(),
        roles: r.iter().map(|s| s.to_string()).collect(),
        values: v.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    ups[0].format = Some("envoy".into());
    ups[0].columns = vec![
        col("start_time", &["time"], &[]),
        col("response_flags", &["flags"], &["-", "UF", "UO"]),
        col(
            "upstream_host",
            &["upstream"],
            &["10.0.0.1:80", "10.0.0.2:80"],
        ),
    ];
    let f = query_over(&ups, "which upstream_host got the most uo");
    assert_eq!(
        (&f["filters"], &f["group_by"]),
        (
            &json!([{"field": "response_flags", "op": "eq", "value": "UO"}]),
            &json!(["upstream_host"])
        ),
        "{f}"
    );
    let f = query_over(&ups, "response flags 为 UF 的一共几个");
    assert_eq!(
        f["filters"],
        json!([{"field": "response_flags", "op": "eq", "value": "UF"}]),
        "{f}"
    );
    // A parenthesis after the code explains it: no failure tag, no text to look for.
    for q in [
        "count the UO (pending overflow) lines",
        "UO（挂起请求超限）有几条",
    ] {
        let f = query_over(&ups, q);
        assert_eq!(
            f["filters"],
            json!([{"field": "response_flags", "op": "eq", "value": "UO"}]),
            "{q}: {f}"
        );
    }
}

#[test]
fn a_host_before_the_file_name_and_a_capitalised_phrase() {
    for text in [
        "web-7 的 app.log 里 Lease Expired 一共出现了几次",
        "how many Lease Expired lines are in web-7's app.log",
    ] {
        let f = frame_with(text, None).unwrap_or_else(|| panic!("no frame: {text}"));
        assert_eq!(f["files"], json!([APP]), "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"op": "contains", "value": "Lease Expired"}]),
            "{text}: {f}"
        );
    }
}

#[test]
fn distinct_values_of_the_field_the_question_names() {
    let f = frame_with("how many distinct users show up in app.log", None).expect("frame");
    assert_eq!(
        (&f["measure"], &f["field"]),
        (&json!("count_distinct"), &json!("user")),
        "{f}"
    );
    let f = frame_with("app.log 里有多少个不同的路径", None).expect("frame");
    assert_eq!(
        (&f["measure"], &f["field"]),
        (&json!("count_distinct"), &json!("path")),
        "{f}"
    );
}

#[test]
fn a_name_and_a_kind_of_log_pick_the_named_one() {
    let mut ups = uploads(&["redis-cache-a.log", "redis-cache-b.log"]);
    for u in &mut ups {
        u.format = Some("redis".into());
    }
    let q = query_over(
        &ups,
        "the cache-a redis log: how many Background saving lines?",
    );
    let files = q["files"].as_array().expect("files");
    assert_eq!(files.len(), 1, "{q}");
    assert!(files[0].to_string().contains("cache-a"), "{q}");
}

#[test]
fn a_nested_camel_case_key_by_its_last_segment_as_written() {
    use llmops_common::query::Column;
    let mut ups = uploads(&["shipd.log"]);
    ups[0].columns = vec![
        Column {
            name: "attr.waitMillis".into(),
            numeric: true,
            ..Default::default()
        },
        Column {
            name: "ts".into(),
            roles: vec!["time".into()],
            ..Default::default()
        },
    ];
    let q = query_over(&ups, "average waitMillis in shipd.log");
    assert_eq!(
        (&q["measure"], &q["field"]),
        (&json!("mean"), &json!("attr.waitMillis")),
        "{q}"
    );
    assert!(q.get("filters").is_none(), "{q}");
}

#[test]
fn a_timeline_takes_its_unknown_words_as_the_way_it_is_asked() {
    for text in [
        "app.log: anything odd happening around 14:05, it seemed sluggish",
        "what's going on in app.log near 14:05? users complained",
        "app.log 14:05 前后有什么事件",
    ] {
        let f = frame_with(text, None).unwrap_or_else(|| panic!("no frame: {text}"));
        assert_eq!(f["measure"], json!("timeline"), "{text}: {f}");
        assert!(
            f["filters"].as_array().is_none_or(Vec::is_empty),
            "{text}: {f}"
        );
    }
    // A filter word still binds its text.
    let f = frame_with(
        "app.log timeline of events containing cache miss around 14:05",
        None,
    )
    .expect("frame");

    assert!(
        f["filters"].as_array().is_some_and(|a| !a.is_empty()),
        "{f}"
    );
}

#[test]
fn a_timeline_reads_every_log_named_and_a_host_name_only_narrows_softly() {
    let time = llmops_common::query::Column {
        name: "time".into(),
        roles: vec!["time".into()],
        ..Default::default()
    };
    let mut ups = uploads(&["error_log", "supervisord.log", "broker.log"]);
    for (u, f) in ups.iter_mut().zip(["apache_error", "supervisord", "kafka"]) {
        u.format = Some(f.into());
        u.columns = vec![time.clone()];
    }
    let ctx = super::FrameCtx {
        uploads: &ups,
        referenced: &[],
        last_file: None,
        last_query: None,
    };
    let frame = |text: &str| match super::question::understand(text, &ctx) {
        Some(super::Understood::Query(f)) => f,
        other => panic!("no query for {text:?}: {other:?}"),
    };
    let f = frame("site went down near 04:10, what happened? apache + supervisor logs attached");
    assert_eq!(f.query.files.len(), 2, "{:?}", f.query.files);
    assert!(f.query.files.iter().all(|p| !p.ends_with("broker.log")));
    let f = frame("what happened on broker-7 around 04:10?");
    assert_eq!(f.query.measure, Measure::Timeline);
    assert!(f.query.filters.is_empty(), "{:?}", f.query.filters);
    assert!(
        f.soft.iter().any(|s| format!("{s:?}").contains("broker-7")),
        "{:?}",
        f.soft
    );
}

#[test]
fn in_a_timeline_a_word_that_names_the_logs_is_no_condition() {
    let mut ups = uploads(&["mongod-chat-db-a.log", "mongod-chat-db-b.log"]);
    let col = |n: &str, v: &[&str]| llmops_common::query::Column {
        name: n.into(),
        values: v.iter().map(|s| s.to_string()).collect(),
        roles: if n == "time" {
            vec!["time".into()]
        } else {
            Vec::new()
        },
        ..Default::default()
    };
    for u in &mut ups {
        u.format = Some("mongodb".into());
        u.columns = vec![
            col("time", &[]),
            col("attr.command.$db", &["chat", "admin"]),
        ];
    }
    let f = query_over(&ups, "04:12 左右 chat 的 mongo 出了啥事");
    assert_eq!(f["measure"], "timeline", "{f}");
    assert!(f.get("filters").is_none(), "{f}");
    // Outside a timeline the value still counts ("how many chat commands").
    let f = query_over(&ups, "how many chat commands in mongod-chat-db-a.log");
    assert!(f["filters"].to_string().contains("chat"), "{f}");
}

#[test]
fn a_word_right_after_a_name_is_what_that_name_did() {
    let mut ups = uploads(&["supervisord.log"]);
    ups[0].format = Some("supervisord".into());
    ups[0].columns = vec![llmops_common::query::Column {
        name: "time".into(),
        roles: vec!["time".into()],
        ..Default::default()
    }];
    let f = query_over(
        &ups,
        "supervisord.log: how many times did thumb-worker exit",
    );
    let filters = f["filters"].to_string();
    assert!(filters.contains("thumb"), "{f}");
    assert!(filters.contains("exit"), "{f}");
}

#[test]
fn passing_through_is_no_timeline() {
    let f = query_over(
        &uploads(&["access.log"]),
        "access.log 里经过 /api/pay 的请求有多少",
    );
    assert_eq!(f["measure"], "count", "{f}");
}

#[test]
fn a_request_a_log_has_no_field_for_is_looked_for_in_its_text() {
    let mut ups = uploads(&["cart-svc.log"]);
    let col = |name: &str, numeric: bool, role: &str| llmops_common::query::Column {
        name: name.into(),
        numeric,
        roles: vec![role.to_string()],
        ..Default::default()
    };
    ups[0].format = Some("docker_json".into());
    ups[0].columns = vec![
        col("time", false, "time"),
        col("dur_ms", true, "duration"),
        col("message", false, "message"),
    ];
    let f = query_over(&ups, "avg dur_ms of POST /v2/carts/close in cart-svc.log");
    assert_eq!(f["measure"], "mean", "{f}");
    assert_eq!(
        f["filters"],
        json!([
            {"op": "contains", "value": "POST", "case_sensitive": true},
            {"op": "contains", "value": "/v2/carts/close"}
        ]),
        "{f}"
    );
}

#[test]
fn a_status_in_the_plural_is_no_value_of_a_field_before_it() {
    let mut ups = uploads(&["haproxy.log"]);
    let col =
        |name: &str, numeric: bool, role: &str, values: &[&str]| llmops_common::query::Column {
            name: name.into(),
            numeric,
            roles: vec![role.to_string()],
            values: values.iter().map(|v| v.to_string()).collect(),
        };
    ups[0].format = Some("haproxy_http".into());
    ups[0].columns = vec![
        col("time", false, "time", &[]),
        col("Tr", true, "duration", &[]),
        col("status", false, "status", &["200", "503"]),
        col("backend", false, "backend", &["be_api", "be_static"]),
    ];
    let f = query_over(&ups, "p95 Tr for be_api 200s in haproxy.log, in seconds");
    assert_eq!(
        (&f["measure"], &f["field"]),
        (&json!("p95"), &json!("Tr")),
        "{f}"
    );
    let filters = f["filters"].to_string();
    assert!(
        filters.contains(r#""field":"status","op":"eq","value":200.0"#),
        "{f}"
    );
    assert!(!filters.contains(r#""field":"Tr""#), "{f}");
    // With a comparison it is a duration.
    let f = query_over(&ups, "how many requests with Tr over 200s in haproxy.log");
    assert!(
        f["filters"]
            .to_string()
            .contains(r#""field":"Tr","op":"gt""#),
        "{f}"
    );
}

#[test]
fn a_code_after_a_field_of_words_is_the_status() {
    let mut ups = uploads(&["haproxy.log"]);
    let col = |name: &str, role: &str| llmops_common::query::Column {
        name: name.into(),
        roles: vec![role.to_string()],
        ..Default::default()
    };
    ups[0].format = Some("haproxy_http".into());
    ups[0].columns = vec![
        col("time", "time"),
        col("path", "path"),
        col("status", "status"),
    ];
    let f = query_over(&ups, "top 3 paths returning 404 in haproxy.log");
    assert_eq!(f["group_by"], json!(["path"]), "{f}");
    assert_eq!(
        f["filters"],
        json!([{"field": "status", "op": "eq", "value": 404.0}]),
        "{f}"
    );
}

#[test]
fn another_columns_value_after_a_field_is_that_columns_condition() {
    let mut ups = uploads(&["sso.log"]);
    let col = |n: &str, roles: &[&str], v: &[&str]| llmops_common::query::Column {
        name: n.into(),
        roles: roles.iter().map(|r| r.to_string()).collect(),
        values: v.iter().map(|s| s.to_string()).collect(),
        ..Default::default()
    };
    ups[0].format = Some("jboss".into());
    ups[0].columns = vec![
        col("time", &["time"], &[]),
        col("event", &[], &["AUTH_DENIED", "AUTH_OK", "TOKEN_REFRESH"]),
        col("account", &["user"], &[]),
    ];
    let f = query_over(&ups, "top 4 accounts by AUTH_DENIED count in sso.log");
    assert_eq!(
        f["filters"],
        serde_json::json!([{"field": "event", "op": "eq", "value": "AUTH_DENIED"}]),
        "{f}"
    );
    let by = f["group_by"].to_string();
    assert!(by.contains("user") && !by.contains("event"), "{f}");
    assert_eq!(f["limit"], 4, "{f}");
}

/// A log whose `step` column takes the sampled values `deploy`, `rollback` and `status`.
fn steps_log() -> Vec<crate::UploadRef> {
    let mut ups = uploads(&["rollout.log"]);
    let col = |name: &str, values: &[&str]| llmops_common::query::Column {
        name: name.into(),
        numeric: false,
        values: values.iter().map(|v| v.to_string()).collect(),
        ..Default::default()
    };
    ups[0].format = Some("learned".into());
    ups[0].columns = vec![
        col("time", &[]),
        col("step", &["deploy", "rollback", "status"]),
        col("service", &[]),
    ];
    ups
}

#[test]
fn another_form_of_a_columns_value_filters_that_column() {
    let ups = steps_log();
    for text in [
        "how many services were deployed?",
        "how many deploys in rollout.log",
    ] {
        let f = query_over(&ups, text);
        assert_eq!(
            f["filters"],
            json!([{"field": "step", "op": "eq", "value": "deploy"}]),
            "{text}: {f}"
        );
    }
    // The last one: newest first (the default order).
    let f = query_over(&ups, "which service was rolled back most recently?");
    assert_eq!(
        (&f["measure"], &f["field"], &f["order"], &f["limit"]),
        (&json!("rows"), &json!("time"), &Value::Null, &json!(1)),
        "{f}"
    );
}

#[test]
fn a_month_named_is_the_window_of_that_month() {
    let ups = steps_log();
    let f = query_over(&ups, "how many deploys in November?");
    assert_eq!(
        f["window"],
        json!({"between": {"from": "--11", "to": "--11"}}),
        "{f}"
    );
    let f = query_over(&ups, "2029年2月有几次 rollback");
    assert_eq!(
        f["window"],
        json!({"between": {"from": "2029-02", "to": "2029-02"}}),
        "{f}"
    );
}

#[test]
fn the_last_of_something_is_the_latest_events_and_the_last_days_a_window() {
    let ups = steps_log();
    for (text, limit) in [
        ("which service had the last rollback", 1),
        ("show the last 4 deploys", 4),
        ("最后 rollback 的是哪个服务", 1),
    ] {
        let f = query_over(&ups, text);
        assert_eq!(
            (&f["measure"], &f["field"], &f["limit"]),
            (&json!("rows"), &json!("time"), &json!(limit)),
            "{text}: {f}"
        );
        assert_eq!(f["window"], Value::Null, "{text}: {f}");
    }
    for (text, seconds) in [
        ("how many deploys in the last 3 days", 3 * 86_400),
        ("最近 2 天有几次 rollback", 2 * 86_400),
        ("deploys over the last 20 minutes", 1_200),
    ] {
        let f = query_over(&ups, text);
        assert_eq!(
            f["window"],
            json!({"last": {"seconds": seconds}}),
            "{text}: {f}"
        );
        assert_ne!(f["measure"], json!("rows"), "{text}: {f}");
    }
}

/// "for tenant hooli": a plain word right after a log's field that the field holds in the
/// sample is that field's value.
#[test]
fn a_word_after_its_fields_name_is_that_fields_value() {
    let mut ups = uploads(&["api.json"]);
    ups[0].format = Some("json_lines".into());
    ups[0].columns = vec![
        llmops_common::query::Column {
            name: "time".into(),
            roles: vec!["time".into()],
            ..Default::default()
        },
        llmops_common::query::Column {
            name: "tenant".into(),
            values: vec!["acme".into(), "hooli".into()],
            ..Default::default()
        },
        llmops_common::query::Column {
            name: "dur_ms".into(),
            numeric: true,
            roles: vec!["duration".into()],
            ..Default::default()
        },
    ];
    for text in [
        "slowest request in api.json for tenant hooli?",
        "api.json 里 tenant hooli 的请求有多少",
    ] {
        let f = query_over(&ups, text);
        assert!(
            f["filters"]
                .as_array()
                .expect("filters")
                .contains(&json!({"field": "tenant", "op": "eq", "value": "hooli"})),
            "{text}: {f}"
        );
    }
}
