//! Follow-ups that edit the last query beyond its slots: more of the list, an item of it
//! with a new condition, a text condition or a field's value swapped, another statistic of
//! the same field, a bucket of a written size, the same question over another log.

use serde_json::{json, Value};

use super::tests::frame_with;
use super::LastQuery;

const ACCESS: &str = "/data/uploads/id0/access.log";
const APP: &str = "/data/uploads/id1/app.log";

fn last(q: Value, items: &[(&str, &str)]) -> LastQuery {
    LastQuery {
        query: serde_json::from_value(q).expect("query"),
        items: items
            .iter()
            .map(|(f, v)| vec![(f.to_string(), v.to_string())])
            .collect(),
        event: Vec::new(),
        at: None,
    }
}

fn edit(text: &str, last: &LastQuery) -> Value {
    frame_with(text, Some(last)).unwrap_or_else(|| panic!("no frame for {text:?}"))
}

#[test]
fn more_of_the_same_list() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["path"], "limit": 3,
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[("path", "/a"), ("path", "/b"), ("path", "/c")],
    );
    for (text, want) in [
        ("what about the next 4", 7),
        ("接下来 2 个呢", 5),
        ("往后 2 个", 5),
        ("show me 5 more", 8),
        ("and the 5th and 6th?", 6),
        ("第四到第七个呢", 7),
    ] {
        let f = edit(text, &top);
        assert_eq!(f["limit"], want, "{text}: {f}");
        assert_eq!(f["group_by"], json!(["path"]), "{text}: {f}");
        assert_eq!(f["filters"], top_filters(), "{text}: {f}");
    }
    // One position inside the list shown is that item.
    let f = edit("第二个呢？多少条", &top);
    assert!(f["filters"].to_string().contains("/b"), "{f}");
    assert_eq!(f["measure"], "count", "{f}");
}

fn top_filters() -> Value {
    json!([{"field": "status", "op": "class", "value": 5.0}])
}

#[test]
fn the_top_item_with_a_new_condition() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"],
            "filters": [{"field": "status", "op": "class", "value": 4.0}]}),
        &[("client", "198.51.100.23"), ("client", "203.0.113.5")],
    );
    let f = edit("this client: how many 403s did it get?", &top);
    let filters = f["filters"].to_string();
    assert!(filters.contains("198.51.100.23"), "{f}");
    assert!(filters.contains("403"), "{f}");
    assert!(!filters.contains("\"class\""), "{f}");
    assert_eq!(f["measure"], "count", "{f}");
    assert!(f.get("group_by").is_none(), "{f}");
    // Its last event: the top item's, not the list's last item.
    for text in ["so when was its last one?", "它最后一次是几点"] {
        let f = edit(text, &top);
        assert!(
            f["filters"].to_string().contains("198.51.100.23"),
            "{text}: {f}"
        );
        // Newest first is the default order, left out.
        assert_eq!(f["measure"], "rows", "{text}: {f}");
        assert_ne!(f["order"], "asc", "{text}: {f}");
    }
}

#[test]
fn a_text_condition_or_a_value_swapped() {
    let phrase = last(
        json!({"files": [APP], "measure": "count",
            "filters": [{"op": "contains", "value": "Lease Expired"}]}),
        &[],
    );
    let f = edit("and renewed?", &phrase);
    let filters = f["filters"].as_array().expect("filters");
    assert_eq!(filters.len(), 1, "{f}");
    assert!(filters[0].to_string().contains("renew"), "{f}");
    let named = last(
        json!({"files": [APP], "measure": "count",
            "filters": [{"op": "contains", "value": "db.orders"},
                        {"op": "contains", "value": "slow op"}]}),
        &[],
    );
    let f = edit("那 db.invoices 呢", &named);
    let text = f["filters"].to_string();
    assert!(
        text.contains("db.invoices") && text.contains("slow op"),
        "{f}"
    );
    assert!(!text.contains("db.orders"), "{f}");
}

#[test]
fn another_statistic_of_the_same_field() {
    let median = last(
        json!({"files": [ACCESS], "measure": "p50", "field": "upstream_time",
            "filters": [{"field": "path", "op": "contains", "value": "/api/pay"}]}),
        &[],
    );
    for (text, want) in [
        ("均值呢", "mean"),
        ("and the p99?", "p99"),
        ("and the p75?", "p75"),
        ("那 99.9 分位呢", "p99.9"),
        ("那最大值呢", "max"),
    ] {
        let f = edit(text, &median);
        assert_eq!(f["measure"], want, "{text}: {f}");
        assert_eq!(f["field"], "upstream_time", "{text}: {f}");
        assert!(f["filters"].to_string().contains("/api/pay"), "{text}: {f}");
    }
}

#[test]
fn a_bucket_of_a_written_size() {
    let hourly = last(
        json!({"files": [ACCESS], "measure": "buckets", "bucket": "hour",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    for (text, want) in [
        ("那按5分钟一桶呢", "5min"),
        ("and in 10 minute buckets?", "10min"),
    ] {
        let f = edit(text, &hourly);
        assert_eq!(
            (&f["measure"], &f["bucket"]),
            (&json!("buckets"), &json!(want)),
            "{text}: {f}"
        );
        assert_eq!(f["filters"], top_filters(), "{text}: {f}");
    }
}

#[test]
fn the_same_question_over_another_log() {
    let count = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"op": "contains", "value": "timeout"}]}),
        &[],
    );
    let f = edit("app.log 呢", &count);
    assert_eq!(f["files"], json!([APP]), "{f}");
    assert!(f["filters"].to_string().contains("timeout"), "{f}");
}

#[test]
fn the_row_named_by_the_superlative_that_ranked_the_list() {
    let slowest = last(
        json!({"files": [ACCESS], "measure": "rows", "field": "duration", "order": "desc",
            "limit": 5}),
        &[("duration", "12.5"), ("duration", "9.1")],
    );
    let f = edit("the slowest one: when did it begin?", &slowest);
    assert_eq!(
        (&f["measure"], &f["limit"]),
        (&json!("rows"), &json!(1)),
        "{f}"
    );
    assert!(f["filters"].to_string().contains("12.5"), "{f}");
}

#[test]
fn a_position_in_a_list_is_no_text_to_find() {
    let count = last(
        json!({"files": [APP], "measure": "count",
            "filters": [{"field": "level", "op": "eq", "value": "ERROR"}]}),
        &[],
    );
    let f = edit("第三个呢？几次", &count);
    assert!(f.get("soft").is_none(), "{f}");
}

#[test]
fn a_time_asked_of_nothing_after_a_largest_value_is_that_events_time() {
    let longest = last(
        json!({"files": [ACCESS], "measure": "max", "field": "duration", "group_by": ["client"]}),
        &[("client", "10.0.0.7")],
    );
    for text in ["几点跑的？", "第一次是几点"] {
        let f = edit(text, &longest);
        assert_eq!(
            (&f["measure"], &f["field"], &f["limit"]),
            (&json!("rows"), &json!("duration"), &json!(1)),
            "{text}: {f}"
        );
        assert!(f.get("order").is_none_or(|o| o == "desc"), "{text}: {f}");
    }
}

#[test]
fn a_count_asked_of_nothing_after_a_ranking_is_the_top_items() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"],
            "filters": [{"field": "status", "op": "eq", "value": 403.0}]}),
        &[("client", "10.0.0.9"), ("client", "10.0.0.4")],
    );
    for text in ["how many times?", "一共几次"] {
        let f = edit(text, &top);
        assert_eq!(f["measure"], "count", "{text}: {f}");
        assert!(f.get("group_by").is_none(), "{text}: {f}");
        let filters = f["filters"].to_string();
        assert!(
            filters.contains("10.0.0.9") && filters.contains("403"),
            "{text}: {f}"
        );
    }
}

/// After a process looked up by name, a field asked alone is read from its rows.
#[test]
fn a_field_asked_after_a_named_process_is_its() {
    use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, Scalar, Source};
    let last = super::LastQuery {
        query: Query {
            source: Source::Processes,
            filters: vec![Filter::new(
                Some(Field::new("command")),
                FilterOp::Contains,
                Scalar::Text("report-cruncher".into()),
            )],
            measure: Measure::Rows,
            ..Query::default()
        },
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    };
    for (text, measure) in [
        ("pid 是多少", "rows"),
        ("and its pid?", "rows"),
        ("what user does it run as", "rows"),
        ("how much memory does it use", "sum"),
    ] {
        let f = super::tests::frame_with(text, Some(&last)).unwrap_or_else(|| panic!("{text}"));
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(f["measure"], measure, "{text}: {f}");
        assert_eq!(
            f["filters"][0],
            serde_json::json!({"field": "command", "op": "contains", "value": "report-cruncher"}),
            "{text}: {f}"
        );
    }
}

/// "per minute?" after a statistic: the same events by time, not a new question.
#[test]
fn a_bucket_alone_is_the_last_querys_events_by_time() {
    let l = last(
        json!({"files": [APP], "measure": "p95", "field": "dur_ms",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    for t in ["per minute?", "by hour", "按分钟呢"] {
        let f = edit(t, &l);
        assert_eq!(f["measure"], "buckets", "{t}: {f}");
        assert_eq!(f["filters"], top_filters(), "{t}: {f}");
        assert_eq!(f["files"], json!([APP]), "{t}: {f}");
    }
}

/// "its" after a figure of the second item is the second item's.
#[test]
fn its_means_the_item_the_last_query_asked_about() {
    let l = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"field": "client", "op": "eq", "value": "203.0.113.5"}]}),
        &[("client", "198.51.100.23"), ("client", "203.0.113.5")],
    );
    let f = edit("when was its last one?", &l);
    let filters = f["filters"].to_string();
    assert!(filters.contains("203.0.113.5"), "{f}");
    assert!(!filters.contains("198.51.100.23"), "{f}");
}

/// "the second one?" after a statistic of the top item asks the same statistic of the
/// second.
#[test]
fn the_second_one_after_a_statistic_keeps_the_statistic() {
    let l = last(
        json!({"files": [ACCESS], "measure": "p95", "field": "request_time",
            "filters": [{"field": "path", "op": "eq", "value": "/a"}]}),
        &[("path", "/a"), ("path", "/b")],
    );
    let f = edit("第二个呢", &l);
    assert_eq!(f["measure"], "p95", "{f}");
    assert!(f["filters"].to_string().contains("/b"), "{f}");
}

/// "second one: when was it first seen?" after a top list is the second item's first
/// event; "when was the first one?" is the first event of the top one.
#[test]
fn the_second_one_with_a_time_asked_is_the_second_items_first_event() {
    let l = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"],
            "filters": [{"field": "status", "op": "eq", "value": 401}]}),
        &[("client", "203.0.113.5"), ("client", "198.51.100.23")],
    );
    let f = edit("second one: when was it first seen?", &l);
    assert_eq!(f["measure"], "rows", "{f}");
    assert_eq!(f["order"], "asc", "{f}");
    let filters = f["filters"].to_string();
    assert!(filters.contains("198.51.100.23"), "{f}");
    assert!(!filters.contains("203.0.113.5"), "{f}");
}

/// "which client had the most?" after a count of errors ranks those errors; a ranking that
/// names what it counts is its own question.
#[test]
fn a_ranking_with_nothing_after_it_ranks_the_last_counts_events() {
    let l = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    for t in [
        "which client had the most?",
        "哪个客户端最多",
        "what path had the most",
    ] {
        let f = edit(t, &l);
        assert_eq!(f["filters"], top_filters(), "{t}: {f}");
        assert_eq!(f["measure"], "count", "{t}: {f}");
        assert_eq!(f["group_by"].as_array().map(Vec::len), Some(1), "{t}: {f}");
    }
    let f = edit("which client had the most 4xx", &l);
    assert!(!f["filters"].to_string().contains("5.0"), "{f}");
    let stat = last(
        json!({"files": [ACCESS], "measure": "p99", "field": "request_time",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    let f = edit("which path had the most?", &stat);
    assert_eq!(f["filters"], top_filters(), "{f}");
    assert_eq!(f["measure"], "count", "{f}");
}

/// "its client?" after the slowest request is that request's line, not a ranking of
/// clients by their slowest.
#[test]
fn a_field_asked_of_the_extreme_event_is_that_events() {
    let l = last(
        json!({"files": [ACCESS], "measure": "max", "field": "request_time"}),
        &[],
    );
    for (t, shown) in [
        ("它的 client 是谁", "client"),
        ("and its client?", "client"),
        ("what was its path", "path"),
    ] {
        let f = edit(t, &l);
        assert_eq!(f["measure"], "rows", "{t}: {f}");
        assert_eq!(f["limit"], 1, "{t}: {f}");
        assert_ne!(f["order"], "asc", "{t}: {f}");
        assert_eq!(f["field"], "request_time", "{t}: {f}");
        assert!(f.get("group_by").is_none(), "{t}: {f}");
        // The row leads with the value asked, whatever its line shows.
        assert_eq!(f["show"], json!([shown]), "{t}: {f}");
    }
}

/// "what share of all requests is that?" after a count is that count, whose answer gives
/// its share of all events; not a search for the word "share".
#[test]
fn a_share_asked_of_the_last_count_is_that_count() {
    let l = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    for t in [
        "what share of all requests is that?",
        "那占比是多少",
        "what percentage is that",
    ] {
        let f = edit(t, &l);
        assert_eq!(f["measure"], "count", "{t}: {f}");
        assert_eq!(f["filters"], top_filters(), "{t}: {f}");
    }
}

/// "其中 5xx 有几个" after a count: among those events, the new condition added.
#[test]
fn among_them_adds_a_condition_to_the_last_query() {
    let l = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"field": "client", "op": "eq", "value": "203.0.113.5"}]}),
        &[],
    );
    let f = edit("其中 5xx 有几个", &l);
    let filters = f["filters"].to_string();
    assert!(filters.contains("203.0.113.5"), "{f}");
    assert!(filters.contains(r#""op":"class""#), "{f}");
    assert!(!filters.contains("among"), "{f}");
}

/// "and that client's requests overall, all statuses": the top item, with the last query's condition
/// on the field the scope word names dropped.
#[test]
fn a_scope_word_drops_the_last_condition_on_its_field() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"],
            "filters": [{"field": "status", "op": "eq", "value": 401.0}]}),
        &[("client", "198.51.100.14"), ("client", "203.0.113.5")],
    );
    for text in [
        "how many requests from that client overall, all statuses",
        "那个 client 一共多少请求？不管状态码",
    ] {
        let f = edit(text, &top);
        let filters = f["filters"].to_string();
        assert!(filters.contains("198.51.100.14"), "{text}: {f}");
        assert!(!filters.contains("401"), "{text}: {f}");
        assert!(!filters.contains("regex"), "{text}: {f}");
        assert_eq!(f["measure"], "count", "{text}: {f}");
    }
}

/// "in seconds pls", "换成毫秒": the last answer again (it shows seconds and milliseconds);
/// a number with a unit is a condition of its own.
#[test]
fn a_unit_alone_asks_the_last_answer_again() {
    let max = last(
        json!({"files": [ACCESS], "measure": "max", "field": "duration"}),
        &[],
    );
    for text in ["in seconds pls", "换成毫秒", "in ms please", "用秒表示"] {
        let f = edit(text, &max);
        assert_eq!(f["measure"], "max", "{text}: {f}");
        assert_eq!(f["field"], "duration", "{text}: {f}");
        assert!(f.get("filters").is_none(), "{text}: {f}");
    }
    let f = frame_with("and over 5 seconds?", Some(&max));
    assert!(
        f.as_ref()
            .is_none_or(|f| f["filters"].to_string().contains('5')),
        "{f:?}"
    );
}

/// "它总共登录过几回" after the user with the most connections in a log: the item's events,
/// not the machine's sockets.
#[test]
fn a_table_word_said_of_the_listed_item_stays_in_the_log() {
    let top = last(
        json!({"files": [APP], "measure": "count", "group_by": ["user"],
            "filters": [{"op": "contains", "value": "accepting AMQP connection"}]}),
        &[("user", "notifier"), ("user", "circ-api")],
    );
    let f = edit("它总共连过几回", &top);
    assert_eq!(f["source"], "log", "{f}");
    assert!(f["filters"].to_string().contains("notifier"), "{f}");
    assert_eq!(f["measure"], "count", "{f}");
}

/// "at that time", "那一分钟前后": the window of the time the last answer pointed at (its
/// peak minute, the event it named), on the same log or another one.
#[test]
fn the_time_the_last_answer_pointed_at() {
    let mut peak = last(
        json!({"files": [ACCESS], "measure": "buckets", "bucket": "minute",
            "filters": [{"field": "status", "op": "eq", "value": 504.0}]}),
        &[],
    );
    peak.at = Some(super::AnswerTime {
        at: "2031-05-09T02:17".into(),
        width_seconds: 60,
    });
    // The minute itself, over the other log named; "around" it, five minutes either side.
    let f = edit("what about app.log at that time", &peak);
    assert_eq!(f["files"], json!([APP]), "{f}");
    assert_eq!(
        f["window"],
        json!({"between": {"from": "2031-05-09T02:17", "to": "2031-05-09T02:17"}}),
        "{f}"
    );
    for text in ["show me the lines around that minute", "那一分钟前后的日志"] {
        let f = edit(text, &peak);
        assert_eq!(
            f["window"],
            json!({"around": {"at": "2031-05-09T02:17", "seconds": 300}}),
            "{text}: {f}"
        );
    }
    // An hour's bucket spans to its last minute; a time the question writes is its own.
    peak.at = Some(super::AnswerTime {
        at: "2031-05-09T02:00".into(),
        width_seconds: 3600,
    });
    let f = edit("how many errors in app.log during that hour", &peak);
    assert_eq!(f["window"]["between"]["to"], "2031-05-09T02:59", "{f}");
    let f = edit("and at 03:10?", &peak);
    assert!(!f["window"].to_string().contains("02:"), "{f}");
    // An event's time: a minute either side of it.
    let mut slowest = last(
        json!({"files": [ACCESS], "measure": "max", "field": "duration"}),
        &[],
    );
    slowest.at = Some(super::AnswerTime {
        at: "2031-05-09T02:14:01+00:00".into(),
        width_seconds: 0,
    });
    let f = edit("app.log 当时有多少 error", &slowest);
    assert_eq!(
        f["window"],
        json!({"around": {"at": "2031-05-09T02:14:01+00:00", "seconds": 60}}),
        "{f}"
    );
    // Without a time pointed at, the words add none.
    peak.at = None;
    let f = edit("what about app.log at that time", &peak);
    assert!(f.get("window").is_none(), "{f}");
}

/// "how many in total", "一共多少条": the last query's events counted, whatever it listed.
#[test]
fn all_the_last_querys_events_counted() {
    let rows = last(
        json!({"files": [ACCESS], "measure": "rows", "limit": 10,
            "filters": [{"field": "status", "op": "eq", "value": 504.0}]}),
        &[],
    );
    let grouped = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"], "limit": 5,
            "filters": [{"field": "status", "op": "eq", "value": 504.0}]}),
        &[("client", "10.0.0.1")],
    );
    for text in ["how many in total", "一共多少条", "总共有几个？"] {
        let f = edit(text, &rows);
        assert_eq!(f["measure"], "count", "{text}: {f}");
        assert!(f.get("group_by").is_none(), "{text}: {f}");
        assert!(f.get("limit").is_none(), "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "status", "op": "eq", "value": 504.0}])
        );
    }
    // After a ranking, whose counts the answer listed, the count asked is the top item's.
    for text in ["how many times?", "一共几次"] {
        let f = edit(text, &grouped);
        assert!(f["filters"].to_string().contains("10.0.0.1"), "{text}: {f}");
    }
}
/// A question of another table with a value of its own is no field of the rows named
/// before ("which process owns port 19999" after "how many sleep processes").
#[test]
fn another_tables_condition_is_a_question_of_that_table() {
    let named = last(
        json!({"source": "processes", "measure": "count",
            "filters": [{"field": "program", "op": "contains", "value": "sleep"}]}),
        &[],
    );
    let f = frame_with("which process owns port 19999", Some(&named)).expect("a query");
    assert_eq!(f["source"], "sockets", "{f}");
    assert!(f["filters"].to_string().contains("19999"), "{f}");
    // A field of the named rows is still theirs.
    let f = edit("who owns them", &named);
    assert_eq!(f["source"], "processes", "{f}");
    assert!(f["filters"].to_string().contains("sleep"), "{f}");
}
/// After the monitor's ranking of processes (the processes table ranked, its pids the
/// items): "它的 pid", "how long has it been running" are the top process's row; "top 5
/// then" the same ranking at that length.
#[test]
fn the_ranked_processes_top_one_and_length() {
    let ranked = last(
        json!({"source": "processes", "measure": "rows", "field": "rss_bytes", "limit": 10}),
        &[("pid", "24875"), ("pid", "311")],
    );
    for text in ["how long has it been running", "它的 pid 是多少"] {
        let f = edit(text, &ranked);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        // The pid alone: the process's detail (`process_detail::one_pid`).
        assert_eq!(
            f["filters"],
            json!([{"field": "pid", "op": "eq", "value": 24875.0}]),
            "{text}: {f}"
        );
    }
    for text in ["top 5 then", "前 3 个呢"] {
        let f = edit(text, &ranked);
        assert!(f.get("filters").is_none(), "{text}: {f}");
        assert_eq!(f["field"], "rss_bytes", "{text}: {f}");
        assert!(f["limit"] == 5 || f["limit"] == 3, "{text}: {f}");
    }
}

/// A pronoun in a question of its own over another log is the last answer's top item,
/// looked for as a whole word in that log's events.
#[test]
fn the_top_item_looked_for_in_another_log() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"],
            "filters": [{"field": "status", "op": "eq", "value": 403.0}]}),
        &[("client", "203.0.113.77"), ("client", "10.0.0.4")],
    );
    for text in [
        "app.log 里它出现了几次？",
        "how many requests from it are in app.log?",
    ] {
        let f = edit(text, &top);
        assert_eq!(f["files"], json!([APP]), "{text}: {f}");
        assert_eq!(f["measure"], "count", "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"op": "regex", "value": r"\b203\.0\.113\.77\b"}]),
            "{text}: {f}"
        );
    }
    // Without a pronoun it is a question of that log alone.
    let f = edit("how many requests are in app.log?", &top);
    assert!(f.get("filters").is_none(), "{f}");
}

/// What the follow-up words above must leave alone: "top 5 paths" after the top clients
/// is another ranking; "that" in "at that time" refers to no item; a peak of five minutes
/// is that whole bucket.
#[test]
fn follow_up_words_that_ask_something_else() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"], "limit": 10}),
        &[("client", "10.0.0.9"), ("client", "10.0.0.4")],
    );
    let f = frame_with("top 5 paths", Some(&top)).expect("a query");
    assert_eq!(f["group_by"], json!(["path"]), "{f}");
    let mut grouped = top.clone();
    grouped.at = Some(super::AnswerTime {
        at: "2031-05-09T02:15".into(),
        width_seconds: 300,
    });
    let f = edit("how many errors at that time?", &grouped);
    assert!(!f["filters"].to_string().contains("10.0.0.9"), "{f}");
    assert_eq!(
        f["window"],
        json!({"between": {"from": "2031-05-09T02:15", "to": "2031-05-09T02:19"}}),
        "{f}"
    );
}

/// "when was its last request", "它最后一次请求是什么时候": the latest event of the top item,
/// in either language, with or without a measure word.
#[test]
fn the_last_event_of_the_top_item() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"], "limit": 5}),
        &[("client", "10.0.0.1"), ("client", "10.0.0.2")],
    );
    for text in [
        "when was its last request",
        "它最后一次请求是什么时候",
        "when did it last send a request",
        "its last request?",
    ] {
        let f = edit(text, &top);
        assert_eq!(f["measure"], "rows", "{text}: {f}");
        assert_eq!(f["field"], "time", "{text}: {f}");
        assert_eq!(f["limit"], 1, "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "client", "op": "eq", "value": "10.0.0.1"}]),
            "{text}: {f}"
        );
    }
}

/// "the 2nd" after a list is its second item; "on the 2nd" would be a day.
#[test]
fn an_ordinal_day_after_a_list_is_its_item() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["path"], "limit": 3}),
        &[("path", "/a"), ("path", "/b"), ("path", "/c")],
    );
    for text in ["the 2nd", "and the 2nd?"] {
        let f = edit(text, &top);
        assert!(f.get("window").is_none(), "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "path", "op": "eq", "value": "/b"}]),
            "{text}: {f}"
        );
    }
}

/// "and in the last hour?" after a count is that count over the last hour, not the latest
/// event: "last" with a length of time is a window.
#[test]
fn the_last_hour_after_a_count_is_a_window() {
    let count = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    for text in ["and in the last hour?", "最近一小时呢"] {
        let f = edit(text, &count);
        assert_eq!(f["measure"], "count", "{text}: {f}");
        assert_eq!(
            f["window"],
            json!({"last": {"seconds": 3600}}),
            "{text}: {f}"
        );
        assert_eq!(f["filters"], top_filters(), "{text}: {f}");
    }
}

/// After a count, a range of a measure keeps both bounds, and a question asked yes or no
/// ("有没有 504", "are there any 504s") is one of its own, not an edit of the last.
#[test]
fn a_range_and_a_yes_no_question_after_a_count() {
    let count = last(
        json!({"files": [ACCESS], "measure": "count",
            "filters": [{"field": "status", "op": "class", "value": 5.0}]}),
        &[],
    );
    let f = edit("how many requests took between 1 and 2 seconds", &count);
    let filters = f["filters"].as_array().expect("filters");
    assert!(
        filters.contains(&json!({"field": "duration", "op": "ge", "value": 1.0, "unit": "s"})),
        "{f}"
    );
    assert!(
        filters.contains(&json!({"field": "duration", "op": "le", "value": 2.0, "unit": "s"})),
        "{f}"
    );
    for text in ["有没有 504", "are there any 504s"] {
        let f = edit(text, &count);
        assert_eq!(
            f["filters"],
            json!([{"field": "status", "op": "eq", "value": 504.0}]),
            "{text}: {f}"
        );
    }
}

/// "when, and what did they say?" after a count of some events: those events listed with
/// their times and lines, not one figure.
#[test]
fn when_and_what_after_a_count_lists_the_events() {
    let l = last(
        json!({"files": [APP], "measure": "count",
            "filters": [{"op": "contains", "value": "circuit open"}]}),
        &[],
    );
    for t in [
        "when, and what did they say?",
        "什么时候？都说了什么",
        "when was that and what exactly",
    ] {
        let f = edit(t, &l);
        assert_eq!(f["measure"], "rows", "{t}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"op": "contains", "value": "circuit open"}]),
            "{t}: {f}"
        );
    }
    // A figure of its own is another question.
    let f = frame_with("what exactly is the p95 of request_time?", Some(&l));
    assert!(f.as_ref().is_none_or(|f| f["measure"] != "rows"), "{f:?}");
}

/// "这个客户端一共发了多少请求" after the client with the most of some error: all of its
/// requests; "它总共连过几回" (its connections, the last condition's own events) keeps it.
#[test]
fn all_of_the_items_events_in_total() {
    let top = last(
        json!({"files": [ACCESS], "measure": "count", "group_by": ["client"],
            "filters": [{"field": "status", "op": "eq", "value": 503.0}]}),
        &[("client", "10.9.8.7")],
    );
    for t in [
        "这个客户端一共发了多少请求？",
        "how many requests did it send in total",
    ] {
        let f = edit(t, &top);
        assert_eq!(f["measure"], "count", "{t}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "client", "op": "eq", "value": "10.9.8.7"}]),
            "{t}: {f}"
        );
    }
}
