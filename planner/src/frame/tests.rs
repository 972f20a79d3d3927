//! Frames of questions over planted uploads: each slot checked, in both languages.

use serde_json::{json, Value};

use super::question::understand;
use super::{FrameCtx, LastQuery, Understood};
use crate::tests::uploads;

const FILES: [&str; 4] = ["access.log", "app.log", "nginx.conf", "auth.log"];

pub(super) fn frame_with(text: &str, last: Option<&LastQuery>) -> Option<Value> {
    let ups = uploads(&FILES);
    let ctx = FrameCtx {
        uploads: &ups,
        referenced: &[],
        last_file: None,
        last_query: last,
    };
    match understand(text, &ctx) {
        Some(Understood::Query(f)) => {
            let mut v = serde_json::to_value(&f.query).expect("serialises");
            if !f.soft.is_empty() {
                v["soft"] = serde_json::to_value(&f.soft).expect("serialises");
            }
            if !f.or_else.is_empty() {
                v["or_else"] = serde_json::to_value(&f.or_else).expect("serialises");
            }
            Some(v)
        }
        Some(Understood::Summary { path }) => Some(json!({"summary": path})),
        None => None,
    }
}

/// The query of a question over `ups`, with no conversation before it.
pub(super) fn query_over(ups: &[crate::UploadRef], text: &str) -> Value {
    let ctx = FrameCtx {
        uploads: ups,
        referenced: &[],
        last_file: None,
        last_query: None,
    };
    match understand(text, &ctx) {
        Some(Understood::Query(f)) => serde_json::to_value(&f.query).expect("serialises"),
        other => panic!("no query for {text:?}: {other:?}"),
    }
}

pub(super) fn frame(text: &str) -> Value {
    frame_with(text, None).unwrap_or_else(|| panic!("no frame for {text:?}"))
}

const ACCESS: &str = "/data/uploads/id0/access.log";
pub(super) const APP: &str = "/data/uploads/id1/app.log";

#[test]
fn counts_with_conditions_on_fields() {
    for text in [
        "how many requests returned 503 in access.log",
        "access.log 里有多少个 503",
        "access.log: count of status 503",
    ] {
        let f = frame(text);
        assert_eq!(f["files"], json!([ACCESS]), "{text}");
        assert_eq!(f["measure"], "count", "{text}");
        assert_eq!(
            f["filters"],
            json!([{"field": "status", "op": "eq", "value": 503.0}]),
            "{text}"
        );
    }
    let f = frame("how many 5xx in access.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "status", "op": "class", "value": 5.0}])
    );
    let f = frame("access.log 里 502 和 504 一共多少");
    assert_eq!(
        f["filters"],
        json!([{"field": "status", "op": "regex", "value": "^(?:502|504)$"}])
    );
    let f = frame("how many requests took over 1.5s in access.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "duration", "op": "gt", "value": 1.5, "unit": "s"}])
    );
    let f = frame("access.log 中超过500毫秒的请求有多少");
    assert_eq!(
        f["filters"],
        json!([{"field": "duration", "op": "gt", "value": 500.0, "unit": "ms"}])
    );
    let f = frame("how many times does OutOfMemoryError appear in app.log");
    assert_eq!(f["files"], json!([APP]));
    assert_eq!(
        f["filters"],
        json!([{"op": "contains", "value": "OutOfMemoryError"}])
    );
}

#[test]
fn groupings_statistics_and_peaks() {
    let f = frame("access.log 中哪个 IP 请求最多");
    assert_eq!(
        (&f["measure"], &f["group_by"]),
        (&json!("count"), &json!(["client"]))
    );
    // A code right after a text field's word filters the status; the field is grouped.
    for q in [
        "access.log 里哪个接口 502 最多",
        "which url 404s the most in access.log",
    ] {
        let f = frame(q);
        assert!(
            f["group_by"] == json!(["endpoint"]) || f["group_by"] == json!(["path"]),
            "{q}: {f}"
        );
        assert_eq!(f["filters"][0]["field"], "status", "{q}: {f}");
    }
    let f = frame("which URL fails most in access.log");
    assert_eq!(f["group_by"], json!(["path"]));
    assert_eq!(f["filters"], json!([{"op": "tag", "value": "failure"}]));
    let f = frame("which endpoint is slowest in access.log");
    assert_eq!(
        (&f["measure"], &f["field"], &f["group_by"]),
        (&json!("max"), &json!("duration"), &json!(["endpoint"]))
    );
    let f = frame("p95 latency per endpoint in access.log");
    assert_eq!(
        (&f["measure"], &f["group_by"]),
        (&json!("p95"), &json!(["endpoint"]))
    );
    let f = frame("access.log 每个接口的平均耗时");
    assert_eq!(
        (&f["measure"], &f["field"], &f["group_by"]),
        (&json!("mean"), &json!("duration"), &json!(["endpoint"]))
    );
    let f = frame("when did the 502s spike in access.log");
    assert_eq!(f["measure"], "buckets");
    // A time bucket asked for: the field beside the ranking word says whose events count.
    for q in [
        "which minute had the most client errors in access.log",
        "access.log 里哪一分钟 client 报错最多",
    ] {
        let f = frame(q);
        assert_eq!(
            (&f["measure"], &f["bucket"], &f["group_by"]),
            (&json!("buckets"), &json!("minute"), &Value::Null),
            "{q}: {f}"
        );
    }
    let f = frame("access.log 按小时统计 5xx");
    assert_eq!(
        (&f["measure"], &f["bucket"]),
        (&json!("buckets"), &json!("hour"))
    );
    let f = frame("top 5 clients in access.log");
    assert_eq!(
        (&f["group_by"], &f["limit"]),
        (&json!(["client"]), &json!(5))
    );
    let f = frame("app.log 里最多的错误是哪一种");
    assert_eq!(f["group_by"], json!(["template"]));
}

#[test]
fn first_last_and_time_windows() {
    for text in [
        "anything strange in app.log between 04:10 and 04:25?",
        "app.log 在 04:10 到 04:25 之间有什么奇怪的吗",
    ] {
        assert_eq!(frame(text)["measure"], "timeline", "{text}");
    }
    let f = frame("app.log 的报错是从几点开始的");
    assert_eq!(
        (&f["measure"], &f["field"], &f["order"], &f["limit"]),
        (&json!("rows"), &json!("time"), &json!("asc"), &json!(1))
    );
    let f = frame("when was the last ERROR in app.log");
    assert_eq!((&f["measure"], &f["limit"]), (&json!("rows"), &json!(1)));
    assert!(f.get("order").is_none(), "desc is the default: {f}");
    let f = frame("access.log 最近 10 分钟有多少 5xx");
    assert_eq!(f["window"], json!({"last": {"seconds": 600}}));
    let f = frame("how many errors in app.log between 02:40 and 02:50");
    assert_eq!(
        f["window"],
        json!({"between": {"from": "02:40", "to": "02:50"}})
    );
    let f = frame("what happened around 02:47 in app.log");
    assert_eq!(
        f["window"],
        json!({"around": {"at": "02:47", "seconds": 300}})
    );
    assert_eq!(f["measure"], "timeline");
}

#[test]
fn questions_that_are_not_queries_stay_with_the_other_rules() {
    for text in [
        "CPU使用率是多少？",
        "磁盘使用情况怎么样？",
        "我需要日志文件",
        "查看内存使用情况",
        "what's listening on this host",
    ] {
        assert_eq!(frame_with(text, None), None, "{text}");
    }
    // The whole-file summary of a named log.
    assert_eq!(frame("帮我分析一下 app.log"), json!({"summary": APP}));
}

#[test]
fn follow_ups_edit_the_last_query() {
    let last_q = serde_json::from_value(json!({"source": "log", "files": [ACCESS],
        "filters": [{"field": "status", "op": "class", "value": 5.0}],
        "measure": "count", "group_by": ["endpoint"]}))
    .expect("query");
    let last = LastQuery {
        query: last_q,
        items: vec![
            vec![("endpoint".into(), "/api/orders".into())],
            vec![("endpoint".into(), "/api/cart".into())],
        ],
        event: Vec::new(),
        at: None,
    };
    let f = frame_with("那 4xx 呢", Some(&last)).expect("frame");
    assert_eq!(
        f["filters"],
        json!([{"field": "status", "op": "class", "value": 4.0}])
    );
    assert_eq!(f["group_by"], json!(["endpoint"]));
    let f = frame_with("按小时呢", Some(&last)).expect("frame");
    assert_eq!(
        (&f["measure"], &f["bucket"]),
        (&json!("buckets"), &json!("hour"))
    );
    let f = frame_with("and by client?", Some(&last)).expect("frame");
    assert_eq!(f["group_by"], json!(["client"]));
    let f = frame_with("它呢，第一次出现是什么时候", Some(&last)).expect("frame");
    let filters = f["filters"].as_array().expect("filters");
    assert!(filters.contains(&json!({"field": "endpoint", "op": "eq", "value": "/api/orders"})));
    assert_eq!(
        (&f["measure"], &f["order"]),
        (&json!("rows"), &json!("asc"))
    );
    // An item of the list by its position.
    for text in ["the second one", "第二个呢"] {
        let f = frame_with(text, Some(&last)).expect("frame");
        let filters = f["filters"].as_array().expect("filters");
        assert!(
            filters.contains(&json!({"field": "endpoint", "op": "eq", "value": "/api/cart"})),
            "{text}: {f}"
        );
        assert_eq!(f["group_by"], Value::Null, "{text}: {f}");
    }
    // A day alone is the whole day; with a clock, the clock on that day.
    for (text, from, to) in [
        ("12号那天呢", "---12", "---12"),
        ("and on Mar 8?", "--03-08", "--03-08"),
        ("8号 02:00 到 03:00 呢", "---08 02:00", "---08 03:00"),
    ] {
        let f = frame_with(text, Some(&last)).expect("frame");
        assert_eq!(
            f["window"],
            json!({"between": {"from": from, "to": to}}),
            "{text}: {f}"
        );
        assert_eq!(f["group_by"], json!(["endpoint"]), "{text}: {f}");
    }
    // A question of its own is a new query.
    let f = frame_with("how many failed logins in auth.log", Some(&last)).expect("frame");
    assert_eq!(f["files"], json!(["/data/uploads/id3/auth.log"]));
}

#[test]
fn which_errors_groups_the_failures_by_message_unless_a_level_is_named() {
    for text in ["app.log 里有什么错误？", "which errors does app.log have?"] {
        let f = frame(text);
        assert_eq!(f["group_by"], json!(["template"]), "{text}");
        assert_eq!(
            f["filters"],
            json!([{"op": "tag", "value": "failure"}]),
            "{text}"
        );
    }
    // A level named is the condition; "messages" alone carries none.
    let f = frame("which WARN messages are most common in app.log");
    assert_eq!(f["group_by"], json!(["template"]));
    assert!(f["filters"].to_string().contains("WARN"), "{f}");
    assert!(!f["filters"].to_string().contains("failure"), "{f}");
}

#[test]
fn a_condition_counted_in_is_no_condition_and_a_bracketed_letter_is_a_level() {
    for text in [
        "mean duration of requests in app.log, errors included",
        "app.log 里请求的平均耗时，报错的也算",
        "mean duration in app.log including errors",
    ] {
        let f = frame(text);
        assert!(!f["filters"].to_string().contains("ERROR"), "{text}: {f}");
    }
    let f = frame("统计 app.log 的 [W] 日志条数");
    assert!(f["filters"].to_string().contains("WARN"), "{f}");
}

#[test]
fn a_question_about_another_table_is_no_edit_of_the_last_log_query() {
    let last_q: llmops_common::query::Query =
        serde_json::from_value(json!({"files": [APP], "measure": "count",
            "filters": [{"field": "level", "op": "eq", "value": "ERROR"}]}))
        .expect("query");
    let last = LastQuery {
        query: last_q,
        items: vec![],
        event: Vec::new(),
        at: None,
    };
    for text in ["哪个进程占用内存最多", "which process uses the most memory"] {
        let f = frame_with(text, Some(&last));
        assert!(
            f.as_ref().is_none_or(|f| f["source"] == "processes"),
            "{text}: {f:?}"
        );
    }
}

#[test]
fn a_figure_that_needs_a_field_takes_the_grouped_one_or_the_time_taken() {
    let f = frame("how many unique client ips hit access.log");
    assert_eq!(f["measure"], "count_distinct", "{f}");
    assert_eq!(f["field"], "client", "{f}");
    assert!(f.get("group_by").is_none(), "{f}");
    let f = frame("access.log 的 p95 是多少");
    assert_eq!(f["measure"], "p95", "{f}");
    assert_eq!(f["field"], "duration", "{f}");
}

/// A JSON log and an HAProxy log whose fields the server found, named literally.
pub(super) fn frame_over_columns(text: &str) -> Value {
    use llmops_common::query::Column;
    let mut ups = uploads(&["orders.jsonl", "haproxy.log"]);
    let col = |name: &str, numeric: bool| Column {
        name: name.to_string(),
        numeric,
        ..Default::default()
    };
    let role = |name: &str, role: &str| Column {
        roles: vec![role.to_string()],
        ..col(name, false)
    };
    ups[0].columns = vec![
        role("ts", "time"),
        role("level", "level"),
        role("user.id", "user"),
        col("tenant.id", false),
        col("queue_depth", true),
        col("shard", false),
        col("session_key", false),
        col("attr.ns", false),
    ];
    let timed = |name: &str| Column {
        roles: vec!["duration".to_string()],
        ..col(name, true)
    };
    ups[1].columns = vec![
        timed("Tw"),
        timed("Tr"),
        timed("Ta"),
        col("retries", true),
        col("backend", false),
    ];
    query_over(&ups, text)
}

#[test]
fn a_field_in_the_plural_the_thing_ranked_and_how_many() {
    for text in [
        "which 4 shards saw the most cache evictions in orders.jsonl",
        "orders.jsonl 里 cache eviction 最多的 4 个 shard",
    ] {
        let f = frame_over_columns(text);
        assert_eq!(f["group_by"], json!(["shard"]), "{text}: {f}");
        assert_eq!(f["limit"], json!(4), "{text}: {f}");
        assert!(f["filters"].to_string().contains("evict"), "{text}: {f}");
    }
}

#[test]
fn fields_named_by_the_logs_own_names() {
    let f = frame_over_columns("what is the p95 of queue_depth in orders.jsonl");
    assert_eq!(
        (f["measure"].clone(), f["field"].clone()),
        (json!("p95"), json!("queue_depth"))
    );
    let f = frame_over_columns("which tenant.id sent the most requests in orders.jsonl");
    assert_eq!(f["group_by"], json!(["tenant.id"]), "{f}");
    assert_eq!(f["measure"], "count");
    let f = frame_over_columns("orders.jsonl 里每个 shard 的平均 queue_depth");
    assert_eq!(f["group_by"], json!(["shard"]));
    assert_eq!(
        (f["measure"].clone(), f["field"].clone()),
        (json!("mean"), json!("queue_depth"))
    );
    // A Chinese word whose English is a field's name is that field.
    let f = frame_over_columns("orders.jsonl 里哪个租户的请求最多");
    assert_eq!(f["group_by"], json!(["tenant.id"]), "{f}");
    let f = frame_over_columns("orders.jsonl 里租户 t-9 的请求有多少");
    assert!(f.get("group_by").is_none(), "no grouping word: {f}");
    let f = frame_over_columns("how many distinct session_keys are in orders.jsonl");
    assert_eq!(
        f["field"],
        json!("session_key"),
        "a field in the plural: {f}"
    );
    let f = frame_over_columns("how many distinct session_key values are in orders.jsonl");
    assert_eq!(
        (f["measure"].clone(), f["field"].clone()),
        (json!("count_distinct"), json!("session_key"))
    );
    // A numeric field after "which" is what is grouped, not measured.
    let f = frame_over_columns("which queue_depth value shows up most often in orders.jsonl");
    assert_eq!(f["group_by"], json!(["queue_depth"]));
    // Short names match only as written: "Tr" is the field, "tr" is not.
    // A lexicon word for a field this log lacks gives way to the field named beside it.
    let f = frame_over_columns("which host (shard) logged the most errors in orders.jsonl");
    assert_eq!(f["group_by"], json!(["shard"]), "{f}");
    let f = frame_over_columns("how many different users are in orders.jsonl");
    assert_eq!(
        f["field"],
        json!("user"),
        "the role resolves to user.id: {f}"
    );
    // A cue with a field of its own keeps it when the log has it: the numeric field named
    // is the thing measured ("slowest shard" is the shard that took longest).
    let f = frame_over_columns("slowest queue_depth spike in orders.jsonl");
    assert_eq!(f["field"], json!("queue_depth"), "no duration here: {f}");
    let f = frame_over_columns("slowest retries in haproxy.log");
    assert_eq!(f["field"], json!("duration"), "{f}");
    let f = frame_over_columns("slowest backend by Tr in haproxy.log");
    assert_eq!(f["field"], json!("Tr"), "{f}");
    // After a grouping word, a nested key's last segment as the log writes it.
    for q in [
        "orders.jsonl 里哪个 ns 的错误最多",
        "error count by ns in orders.jsonl",
        "top 3 ns by count in orders.jsonl",
    ] {
        let f = frame_over_columns(q);
        assert_eq!(f["group_by"], json!(["attr.ns"]), "{q}: {f}");
    }
    let f = frame_over_columns("how many ns errors in orders.jsonl");
    assert!(f.get("group_by").is_none(), "no grouping word: {f}");
}

#[test]
fn a_name_before_a_word_for_the_log_names_the_log() {
    for q in [
        "how many errors in the cart-sync docker log",
        "cart-sync 那个日志里有多少 error",
    ] {
        let f = frame(q);
        assert!(!f["filters"].to_string().contains("cart"), "{q}: {f}");
    }
    // A script a web server runs is a URL path, not a file on this host.
    let f = frame("mean duration of /shop/api/cart.aspx in access.log");
    assert_eq!(f["filters"][0]["value"], "/shop/api/cart.aspx", "{f}");
}

#[test]
fn a_name_joined_by_a_dash_is_found_joined_by_an_underscore_too() {
    let f = frame("how many cart-sync lines in app.log");
    assert_eq!(
        f["filters"],
        json!([{"op": "regex", "value": "cart[-_]sync"}]),
        "{f}"
    );
}

#[test]
fn a_negation_written_after_the_condition_negates_it() {
    let f = frame("how many requests in access.log, 404s excluded");
    assert_eq!(
        (&f["filters"][0]["op"], &f["filters"][0]["negate"]),
        (&json!("eq"), &json!(true)),
        "{f}"
    );
    let f = frame("app.log 有多少条日志？info 的除外");
    assert_eq!(f["filters"][0]["negate"], true, "{f}");
    assert_eq!(f["filters"][0]["value"], "INFO", "{f}");
}

#[test]
fn a_number_in_a_unit_compares_the_numeric_field_named_after_a_text_one() {
    use llmops_common::query::Column;
    let mut ups = uploads(&["jvm.log"]);
    ups[0].columns = vec![
        Column {
            name: "gc".into(),
            ..Default::default()
        },
        Column {
            name: "gc_pause".into(),
            numeric: true,
            roles: vec!["duration".into()],
            ..Default::default()
        },
    ];
    let f = query_over(&ups, "how many GC events over 2s are in jvm.log");
    assert_eq!(f["filters"][0]["field"], "gc_pause", "{f}");
    assert_eq!(f["filters"][0]["op"], "gt", "{f}");
}

#[test]
fn unknown_words_in_a_log_question_are_what_its_events_contain() {
    let contains = |v: &str| json!([{"op": "contains", "value": v}]);
    let regex = |v: &str| json!([{"op": "regex", "value": v}]);
    for (text, value) in [
        ("how many deadlocks in app.log", contains("deadlock")),
        (
            "how many times did the connection reset in app.log",
            contains("connection reset"),
        ),
        // Words with an ending are matched by their stems ("stale handles" too), a word or
        // two apart ("stale file handle") or in either order ("handle 12 went stale").
        (
            "app.log 里 stale handle 出现了多少次",
            regex(r"\bstal\w*(?:\W+\w+){0,2}?\W+\bhandl\w*|\bhandl\w*(?:\W+\w+){0,2}?\W+\bstal\w*"),
        ),
    ] {
        let f = frame(text);
        assert_eq!(f["filters"], value, "{text}: {f}");
        assert_eq!(f["measure"], "count", "{text}");
    }
    // Words naming the log are not its contents; unknown words alone never make a
    // question about a log.
    let f = frame("how many errors in the access log");
    assert!(!f["filters"].to_string().contains("access"), "{f}");
    assert_eq!(frame_with("see you later", None), None);
    assert_eq!(frame_with("print working directory", None), None);
}

#[test]
fn tag_words_standing_apart_still_name_the_tag() {
    let tag = |v: &str| json!([{"op": "tag", "value": v}]);
    for text in [
        "how many failed ssh logins in auth.log",
        "how many login attempts failed in auth.log",
        "count the unsuccessful sign-ins in auth.log",
    ] {
        assert_eq!(frame(text)["filters"], tag("failed_login"), "{text}");
    }
    assert_eq!(
        frame("how many processes were killed for lack of memory in app.log")["filters"][0],
        tag("oom_kill")[0]
    );
}

#[test]
fn a_process_named_is_its_program_and_a_quoted_text_is_in_its_command_line() {
    for (text, filters) in [
        (
            "is postgres running?",
            json!([{"field": "program", "op": "contains", "value": "postgres"}]),
        ),
        (
            "tile-cutter 这个脚本开了几个",
            json!([{"field": "program", "op": "contains", "value": "tile-cutter"}]),
        ),
        (
            "how many processes run as root",
            json!([{"field": "user", "op": "eq", "value": "root"}]),
        ),
        (
            "count processes owned by www-data",
            json!([{"field": "user", "op": "contains", "value": "www-data"}]),
        ),
        (
            "processes with 'app:app' in the command line",
            json!([{"field": "command", "op": "contains", "value": "app:app"}]),
        ),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(f["filters"], filters, "{text}: {f}");
    }
}

#[test]
fn a_field_asked_of_a_named_process_is_read_from_its_rows() {
    let named = |v: &str| json!([{"field": "program", "op": "contains", "value": v}]);
    for (text, name) in [
        ("what's the pid of pg-backup", "pg-backup"),
        ("pid for coil-monitor?", "coil-monitor"),
        ("billing-sync 的 pid 是多少", "billing-sync"),
        ("who owns the batch-mailer process", "batch-mailer"),
        ("which user is cron-sweeper running as", "cron-sweeper"),
        (
            "print the full command line of ledger-daemon",
            "ledger-daemon",
        ),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(f["measure"], "rows", "{text}: {f}");
        assert_eq!(f["filters"], named(name), "{text}: {f}");
    }
    // A numeric field: its total over the matching processes, or the rows ranked by it.
    let f = frame("how much memory does image-resizer use");
    assert_eq!(
        (f["measure"].clone(), f["field"].clone()),
        (json!("sum"), json!("rss_bytes")),
        "{f}"
    );
    let f = frame("which render.py worker has the most memory");
    assert_eq!(
        (f["measure"].clone(), f["field"].clone()),
        (json!("rows"), json!("rss_bytes")),
        "{f}"
    );
    assert_eq!(f["filters"], named("render.py"), "{f}");
    // A count stays a count.
    assert_eq!(
        frame("how many ledger-sync workers are running?")["measure"],
        "count"
    );
}
#[test]
fn status_codes_in_the_plural_and_errors_that_qualify_a_status() {
    let code = |v: f64| json!([{"field": "status", "op": "eq", "value": v}]);
    assert_eq!(
        frame("how many 502s did access.log see")["filters"],
        code(502.0)
    );
    assert_eq!(
        frame("access.log: the 429s, how many")["filters"],
        code(429.0)
    );
    // A comparison makes it seconds again.
    let f = frame("requests slower than 300s in access.log");
    assert_eq!(f["filters"][0]["field"], "duration", "{f}");
    // "5xx errors" is about the status: no level condition in an access log.
    let f = frame("which endpoint throws the most 5xx errors in access.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "status", "op": "class", "value": 5.0}]),
        "{f}"
    );
    // The process an event names is a log field too.
    let f = frame("which process segfaulted the most in app.log");
    assert_eq!(f["group_by"], json!(["process"]), "{f}");
}

#[test]
fn a_log_named_without_an_extension_and_a_table_word_that_is_a_log_field() {
    let ups = uploads(&["messages"]);
    let query = |text: &str| query_over(&ups, text);
    let path = ups[0].path.to_string_lossy().into_owned();
    let f = query("how many warnings does messages have");
    assert_eq!(f["files"], json!([path]), "{f}");
    assert_eq!(f["filters"][0]["value"], "WARN", "{f}");
    // A level only a log has: the units word groups the log's events.
    let f = query("哪个 systemd unit 的告警最多");
    assert_eq!(
        (f["source"].clone(), f["files"].clone()),
        (json!("log"), json!([path])),
        "{f}"
    );
}

#[test]
fn field_equals_value_as_written_in_a_log_line() {
    // Also as a query language writes it: `==`, or `!=` for the opposite.
    for (text, negate) in [
        ("count status=504 in access.log", false),
        ("count where status == 504 in access.log", false),
        ("count where status != 504 in access.log", true),
    ] {
        let f = frame(text);
        let mut want = json!({"field": "status", "op": "eq", "value": 504.0});
        if negate {
            want["negate"] = json!(true);
        }
        assert_eq!(f["filters"], json!([want]), "{text}: {f}");
    }
    let f = frame("how many lines with tenant_id=acme-eu in app.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "tenant_id", "op": "eq", "value": "acme-eu"}]),
        "{f}"
    );
}

#[test]
fn the_root_filesystem_by_name_and_a_field_of_its_row() {
    for text in [
        "which filesystem is the root fs formatted as",
        "根文件系统的总容量",
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "mounts", "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "mount", "op": "eq", "value": "/"}]),
            "{text}: {f}"
        );
    }
    // Whatever is asked of a listener, its row shows the process.
    let f = frame("what is listening on port 8443");
    assert_eq!(
        (f["source"].clone(), f["measure"].clone()),
        (json!("sockets"), json!("rows")),
        "{f}"
    );
}

#[test]
fn a_code_after_first_and_names_with_digits() {
    let f = frame("when did the first 502 appear in access.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "status", "op": "eq", "value": 502.0}]),
        "{f}"
    );
    assert_eq!(
        (f["limit"].clone(), f["order"].clone()),
        (json!(1), json!("asc")),
        "{f}"
    );
    // A count of rows stays a limit.
    let f = frame("show the first 100 lines of access.log with status 404");
    assert_eq!(f["limit"], json!(100), "{f}");
    // "web-03" is a host's name, not the number 3.
    let f = frame("how many segfaults on web-03 in app.log");
    let filters = f["filters"].to_string();
    assert!(
        filters.contains("web-03") && !filters.contains("3.0"),
        "{f}"
    );
}

#[test]
fn who_or_what_a_condition_happened_to() {
    let f = frame("what segfaulted in app.log");
    assert_eq!(f["group_by"], json!(["process"]), "{f}");
    let f = frame("auth.log 里谁登录失败了");
    assert_eq!(f["group_by"], json!(["user"]), "{f}");
    // With a field of its own the question keeps it.
    let f = frame("which client IPs failed to log in, per auth.log");
    assert_eq!(f["group_by"], json!(["client"]), "{f}");
    // A hyphenated run of cue words is those cues.
    let f = frame("how many warn-level lines in app.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "level", "op": "eq", "value": "WARN"}]),
        "{f}"
    );
}

#[test]
fn a_short_columns_plural_names_it() {
    use llmops_common::query::Column;
    let mut ups = uploads(&["worker.log"]);
    ups[0].columns = ["time", "tid", "klass", "bid"]
        .iter()
        .map(|n| Column {
            name: (*n).into(),
            ..Default::default()
        })
        .collect();
    let f = query_over(&ups, "how many distinct bids are in worker.log");
    assert_eq!(f["measure"], "count_distinct", "{f}");
    assert_eq!(f["field"], "bid", "{f}");
}

/// "处理完(ok)的那些": the log's own word in parentheses after Chinese is looked for, a
/// common English word too.
#[test]
fn the_logs_word_in_parentheses_after_chinese_is_looked_for() {
    let f = frame("app.log 里处理完(ok)的任务有多少条");
    assert!(
        f["filters"]
            .as_array()
            .expect("filters")
            .contains(&json!({"op": "contains", "value": "ok"})),
        "{f}"
    );
}
