//! Fields and logs a question names by what they are rather than as written: a log by its
//! program's role, a field by a table's word or a part of its value, a status said of
//! responses, a time-named field under a superlative, exceptions as the events that carry
//! one.

use llmops_common::query::{Column, Measure};
use serde_json::{json, Value};

use super::{Frame, FrameCtx, Understood};
use crate::tests::uploads;

/// A column with its roles and the values the sample showed.
fn column(name: &str, numeric: bool, roles: &[&str], values: &[&str]) -> Column {
    Column {
        name: name.into(),
        numeric,
        roles: roles.iter().map(|r| (*r).into()).collect(),
        values: values.iter().map(|v| (*v).into()).collect(),
    }
}

/// One log of `format` with `columns`.
fn log(name: &str, format: Option<&str>, columns: Vec<Column>) -> Vec<crate::UploadRef> {
    let mut ups = uploads(&[name]);
    ups[0].format = format.map(String::from);
    ups[0].columns = columns;
    ups
}

/// The frame of a question over `ups`, none sent with it.
fn frame(ups: &[crate::UploadRef], text: &str) -> Frame {
    match super::question::understand(text, &FrameCtx::of_uploads(ups)) {
        Some(Understood::Query(f)) => *f,
        other => panic!("no query for {text:?}: {other:?}"),
    }
}

fn query(ups: &[crate::UploadRef], text: &str) -> Value {
    serde_json::to_value(&frame(ups, text).query).expect("serialises")
}

/// "the proxy", "the cache", "数据库": a log named by the role of the program that wrote
/// it, whatever its file is called.
#[test]
fn a_log_is_named_by_its_programs_role() {
    let mut ups = uploads(&["lb-02.log", "cache-a.log", "main.log"]);
    for (u, f) in ups.iter_mut().zip(["haproxy_http", "redis", "postgresql"]) {
        u.format = Some(f.into());
    }
    let files = |text: &str| -> Vec<String> {
        frame(&ups, text)
            .query
            .files
            .iter()
            .map(|p| p.rsplit('/').next().unwrap_or("").to_string())
            .collect()
    };
    assert_eq!(
        files("what did the proxy and the cache log around 02:14?"),
        ["lb-02.log", "cache-a.log"]
    );
    assert_eq!(files("数据库里有几次 deadlock"), ["main.log"]);
    assert_eq!(
        files("how many 503s did the load balancer return"),
        ["lb-02.log"]
    );
}

/// "mean Ta of 200 responses": a status code said with what it is a code of is the
/// status, not the value of the field named before it.
#[test]
fn a_code_said_of_responses_is_the_status() {
    let ups = log(
        "haproxy.log",
        Some("haproxy_http"),
        vec![
            column("status", false, &["status"], &[]),
            column("ta", true, &[], &[]),
            column("backend", false, &[], &[]),
        ],
    );
    for (text, code) in [
        ("mean Ta of 200 responses", 200),
        ("how many 500 errors", 500),
    ] {
        let f = query(&ups, text);
        let status = json!({"field": "status", "op": "eq", "value": f64::from(code)});
        assert!(
            f["filters"].as_array().is_some_and(|a| a.contains(&status)),
            "{text}: {f}"
        );
    }
}

/// A log's own field named like a system table's word ("partition" in a Kafka log) is that
/// field when the question is about the log.
#[test]
fn a_logs_field_named_like_a_tables_word_is_the_field() {
    let ups = log(
        "server.log",
        Some("kafka"),
        ["time", "partition", "logger"]
            .iter()
            .map(|n| column(n, false, &[], &[]))
            .collect(),
    );
    let f = frame(&ups, "how many distinct partitions had an ISR shrink");
    assert_eq!(f.query.measure, Measure::CountDistinct);
    assert_eq!(
        f.query.field.as_ref().map(|x| x.as_str()),
        Some("partition")
    );
    // What is counted takes no value: "ISR" is looked for in the events.
    assert!(
        f.query.filters.iter().all(|x| x.field.is_none()),
        "{:?}",
        f.query.filters
    );
}

/// "the longest lock wait": a field whose name says it is a time taken is what the
/// superlative measures, not the log's duration.
#[test]
fn a_superlative_of_a_time_named_field_measures_it() {
    let ups = log(
        "postgresql.log",
        Some("postgresql"),
        vec![
            column("time", false, &["time"], &[]),
            column("duration_ms", true, &["duration"], &[]),
            column("lock_wait", true, &[], &[]),
        ],
    );
    let field = |text: &str| {
        frame(&ups, text)
            .query
            .field
            .map(|x| x.as_str().to_string())
    };
    assert_eq!(
        field("longest lock wait in postgresql.log").as_deref(),
        Some("lock_wait")
    );
    assert_eq!(
        field("slowest statement in postgresql.log").as_deref(),
        Some("duration")
    );
}

/// "how many exceptions": the events that carry one, in a log that reads exceptions; a log
/// without the field gets no condition on it. "最常见的异常" groups by it.
#[test]
fn exceptions_are_the_events_that_carry_one() {
    let names = |cols: &[&str]| cols.iter().map(|n| column(n, false, &[], &[])).collect();
    let java = log("app.log", None, names(&["time", "level", "exception"]));
    let f = query(&java, "how many exceptions did app.log throw");
    assert_eq!(
        f["filters"],
        json!([{"field": "exception", "op": "regex", "value": "."}]),
        "{f}"
    );
    let f = query(&java, "app.log 里最常见的异常是什么");
    assert_eq!(f["group_by"], json!(["exception"]), "{f}");
    let plain = log("app.log", None, names(&["time", "level"]));
    let f = query(&plain, "how many exceptions in app.log");
    assert!(
        !f["filters"].to_string().contains(r#""field":"exception""#),
        "{f}"
    );
}

/// "the api backend": a word right before a field's name that is one part of exactly one
/// of its values is that value (`be_api`), not the lexicon's "api" for an endpoint.
#[test]
fn a_word_before_a_fields_name_that_is_part_of_one_value_is_it() {
    let ups = log(
        "lb.log",
        None,
        vec![
            column(
                "backend",
                false,
                &["upstream"],
                &["be_api", "be_web", "be_static"],
            ),
            column("ta", true, &["duration"], &[]),
        ],
    );
    let f = query(&ups, "median request time on the api backend in lb.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "backend", "op": "eq", "value": "be_api"}]),
        "{f}"
    );
    assert_eq!(f["measure"], "p50", "{f}");
}

/// "for backend api": a cue word right after a column's own name that is one of its values
/// is that value (the lexicon's "api" names an endpoint elsewhere); a grammar word there
/// keeps its reading ("server count").
#[test]
fn a_cue_word_after_a_columns_name_that_is_its_value_is_it() {
    let ups = log(
        "lb.log",
        None,
        vec![
            column("backend", false, &["upstream"], &["api", "static", "auth"]),
            column("server", false, &["server"], &["api-1", "st-1"]),
            column("tr", true, &["upstream_time"], &[]),
        ],
    );
    let f = query(&ups, "average tr for backend api in lb.log");
    assert_eq!(
        f["filters"],
        json!([{"field": "backend", "op": "eq", "value": "api"}]),
        "{f}"
    );
    assert_eq!((&f["measure"], &f["field"]), (&json!("mean"), &json!("tr")));
    let f = query(&ups, "lb.log 里 backend static 的平均 tr");
    assert_eq!(f["filters"][0]["value"], "static", "{f}");
    let f = query(&ups, "which backend has the most requests in lb.log");
    assert_eq!(f["group_by"], json!(["backend"]), "{f}");
    assert!(f["filters"].as_array().is_none_or(Vec::is_empty), "{f}");
}

/// "the median duration_ms for payments": a statistic's word that is one column's value in
/// the sample (a service's name too) is that column's events, not every line that says it.
#[test]
fn a_statistics_named_word_that_is_a_value_is_its_columns() {
    let ups = log(
        "shop.log",
        Some("logfmt"),
        vec![
            column("component", false, &["service"], &["payments", "catalog"]),
            column("msg", false, &["message"], &["payment authorized"]),
            column("duration_ms", true, &["duration"], &[]),
        ],
    );
    let f = query(
        &ups,
        "what's the median duration_ms for payments in shop.log",
    );
    assert_eq!(
        f["filters"],
        json!([{"field": "component", "op": "eq", "value": "payments"}]),
        "{f}"
    );
}

/// A number before a field's name is a length, never a part of a value ("top 10 clients"
/// with `10.0.0.1` among the clients); a role word names no log when a file is named ("dns
/// errors in app.log" looks for "dns"); "percentage" beside a field of numbers is that field.
#[test]
fn value_parts_and_role_words_give_way() {
    let ups = log(
        "access.log",
        None,
        vec![column(
            "client",
            false,
            &["client"],
            &["10.0.0.1", "10.0.0.2"],
        )],
    );
    let f = query(&ups, "top 10 clients in access.log");
    assert_eq!(f["group_by"], json!(["client"]), "{f}");
    assert_eq!(f["limit"], 10, "{f}");
    let mut ups = uploads(&["app.log", "coredns.log"]);
    ups[1].format = Some("coredns".into());
    let f = frame(&ups, "how many dns errors in app.log");
    assert_eq!(f.query.files.len(), 1, "{:?}", f.query.files);
    assert!(f.query.files[0].ends_with("app.log"), "{:?}", f.query.files);
    let f = query(&[], "which process uses the highest cpu percentage");
    assert_eq!(f["source"], "processes", "{f}");
    assert_eq!(f["field"], "cpu_percent", "{f}");
}

/// "最慢的一条语句", "the slowest statement": one event, not the statements ranked by their
/// slowest run; "最慢的一条 client 记录" counts out one event too.
#[test]
fn a_superlative_of_one_event_ranks_no_groups() {
    let ups = log(
        "postgresql.log",
        Some("postgresql"),
        vec![
            column("time", false, &["time"], &[]),
            column("duration_ms", true, &["duration"], &[]),
            column("query", false, &[], &[]),
            column("client", false, &["client"], &[]),
        ],
    );
    for text in [
        "postgresql.log 里最慢的一条语句是什么",
        "the slowest statement in postgresql.log",
        "postgresql.log 里最慢的一条 client 记录",
        "postgresql.log 里最慢的语句花了多少 ms？是什么语句",
    ] {
        let f = query(&ups, text);
        assert!(f.get("group_by").is_none(), "{text}: {f}");
    }
    let f = query(&ups, "postgresql.log 里耗时最长的 client");
    assert_eq!(f["group_by"], json!(["client"]), "{f}");
}

/// A count asked of a quantity is its sum ("how many bytes"), unless the quantity is a
/// condition on what is counted.
#[test]
fn a_count_of_a_quantity_is_its_sum() {
    for (text, want) in [
        ("how many bytes did access.log send in all", "sum"),
        ("access.log 里一共发了多少字节", "sum"),
        ("access.log 按 client 统计总共传了多少字节", "sum"),
        ("how many requests over 1000 bytes in access.log", "count"),
    ] {
        let f = super::tests::frame_with(text, None).expect("a query");
        assert_eq!(f["measure"], want, "{text}: {f}");
    }
}

/// One statistic's value, in the field's own unit.
pub(super) fn stat(r: &llmops_common::query::QueryResult) -> f64 {
    match r.value {
        llmops_common::query::QueryValue::Stat { value: Some(v), .. } => v,
        ref other => panic!("not a stat: {other:?}"),
    }
}

/// A runtime's camelCase and snake_case keys said in words ("buffer used" is
/// `bufferUsedMb`, "repl lag" `replLagMs`), and the peak of a numeric field: its largest
/// value.
#[test]
fn a_key_said_in_its_words_and_the_peak_of_a_field() {
    let mut text = String::new();
    let (mut buffer, mut lag, mut queue) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..120u32 {
        let (h, l, q) = (100 + (i * 37) % 411, (i * 53) % 907, (i * 11) % 29);
        text.push_str(&format!(
            "{{\"time\":\"2031-05-09T01:{:02}:{:02}Z\",\"level\":\"info\",\"bufferUsedMb\":{h},\"replLagMs\":{l},\"queue_depth\":{q},\"msg\":\"stats\"}}\n",
            i / 60,
            i % 60
        ));
        buffer.push(f64::from(h));
        lag.push(f64::from(l));
        queue.push(f64::from(q));
    }
    let log = super::tests_answers::Planted::new("runtime.jsonl", &text);
    let max = |v: &[f64]| v.iter().copied().fold(f64::MIN, f64::max);
    let avg = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    for (q, want) in [
        (
            "what was the max buffer used in runtime.jsonl",
            max(&buffer),
        ),
        ("peak buffer used in runtime.jsonl", max(&buffer)),
        ("runtime.jsonl 的 buffer used 峰值是多少", max(&buffer)),
        ("average repl lag in runtime.jsonl", avg(&lag)),
        ("what was the peak repl lag in runtime.jsonl", max(&lag)),
        ("highest queue depth in runtime.jsonl", max(&queue)),
    ] {
        let got = stat(&log.answer(q));
        assert!((got - want).abs() < 1e-9, "{q}: {got} vs {want}");
    }
}

/// A Java log: a null dereference by its acronym or its Chinese name, and the last error
/// however it is asked for.
#[test]
fn an_acronym_and_the_last_error_of_a_java_log() {
    let mut text = String::new();
    let (mut npe, mut last_error) = (0, String::new());
    for i in 0..80u32 {
        let t = format!("2031-05-09 01:{:02}:{:02}.120", i / 60, i % 60);
        if i % 9 == 4 {
            npe += 1;
            last_error = t.clone();
            text.push_str(&format!(
                "{t} ERROR [exec-{i}] c.e.OpenPendingJob - job failed\njava.lang.NullPointerException: Cannot invoke \"String.length()\"\n\tat c.e.OpenPendingJob.run(OpenPendingJob.java:{i})\n"
            ));
        } else {
            text.push_str(&format!(
                "{t} INFO [exec-{i}] c.e.OpenPendingJob - job ok\n"
            ));
        }
    }
    let log = super::tests_answers::Planted::new("jobs.log", &text);
    // Exceptions counted are the events that throw one; their kinds are the classes.
    assert_eq!(
        super::tests_counts::number(&log.answer("how many exceptions were thrown in jobs.log")),
        npe
    );
    assert_eq!(
        super::tests_counts::number(&log.answer("how many kinds of exceptions are in jobs.log")),
        1
    );
    for q in [
        "how many NPEs in jobs.log",
        "how many NPE are in jobs.log",
        "jobs.log 里空指针出现了几次",
    ] {
        assert_eq!(super::tests_counts::number(&log.answer(q)), npe, "{q}");
    }
    for q in [
        "show me the last error in jobs.log",
        "what was the last error in jobs.log",
        "jobs.log 最近的一条报错",
    ] {
        let r = log.answer(q);
        let llmops_common::query::QueryValue::Rows { rows, .. } = &r.value else {
            panic!("{q}: not rows: {:?}", r.value);
        };
        let first = rows.first().expect("a row");
        assert!(first.text.starts_with(&last_error), "{q}: {first:?}");
    }
}

/// A worker's own column of numbers: counted, it is summed ("how many rows were
/// processed"); compared by the word after the number ("more than 400 rows").
#[test]
fn a_counted_column_of_numbers_is_summed_and_compared_by_its_name() {
    let mut text = String::new();
    let mut rows = Vec::new();
    for i in 0..90u32 {
        let n = (i * 67) % 700;
        text.push_str(&format!(
            "2031-05-09 01:{:02}:{:02},114 INFO [claims.worker] job {} done in {}.{:02}s rows={n}\n",
            i / 60,
            i % 60,
            1000 + i,
            i % 13,
            i % 100
        ));
        rows.push(u64::from(n));
    }
    let log = super::tests_answers::Planted::new("worker.log", &text);
    let total: u64 = rows.iter().sum();
    for q in [
        "how many rows were processed in total in worker.log",
        "worker.log 一共处理了多少 rows",
    ] {
        let got = stat(&log.answer(q));
        assert!((got - total as f64).abs() < 1e-9, "{q}: {got} vs {total}");
    }
    let big = rows.iter().filter(|&&n| n > 400).count() as u64;
    assert!(big > 0 && big < rows.len() as u64);
    let r = log.answer("how many jobs in worker.log processed more than 400 rows");
    assert_eq!(super::tests_counts::number(&r), big);
}

/// A log whose fields are words of the question's own grammar (`list`, `count`).
#[test]
fn a_field_named_like_a_grammar_word_after_a_grouping_word() {
    let mut ups = uploads(&["queues.log"]);
    ups[0].columns = vec![
        column("list", false, &[], &[]),
        column("wait_ms", true, &[], &[]),
    ];
    for q in [
        "mean wait_ms by list in queues.log",
        "queues.log 里按 list 分组的 wait_ms 平均值",
        "max wait_ms per list in queues.log",
    ] {
        let f = super::tests::query_over(&ups, q);
        assert_eq!(f["group_by"], json!(["list"]), "{q}: {f}");
        assert_eq!(f["field"], json!("wait_ms"), "{q}: {f}");
    }
    // Elsewhere the word keeps its reading: no grouping.
    let f = super::tests::query_over(&ups, "list the max wait_ms in queues.log");
    assert!(f.get("group_by").is_none(), "{f}");
}

#[test]
fn fields_said_as_documented_and_a_stated_value_in_parentheses() {
    let mut ups = uploads(&["bucket.log"]);
    ups[0].columns = vec![
        column("operation", false, &["action"], &[]),
        column("http_status", false, &["status"], &[]),
        column("total_time", true, &["duration"], &[]),
        column("time_to_first_byte", true, &[], &[]),
    ];
    let f = super::tests::query_over(
        &ups,
        "p90 of Time-To-First-Byte for REST.HEAD.OBJECT in bucket.log",
    );
    assert_eq!(f["field"], json!("time_to_first_byte"), "{f}");
    let f = super::tests::query_over(
        &ups,
        "bucket.log 里 REST.COPY.OBJECT（HTTP status 206），它们的 Total Time 最大是多少",
    );
    assert_eq!(f["field"], json!("total_time"), "{f}");
    let filters = f["filters"].to_string();
    assert!(
        filters.contains("206"),
        "the stated status is a condition: {f}"
    );
    assert!(
        filters.contains("\"REST.COPY.OBJECT\""),
        "the marker alone is the text looked for: {f}"
    );
}

/// A sensor's JSON events of several kinds: the kind named before a word for events, a
/// nested key by its dotted tail or its last word, and a value asked of the latest event.
#[test]
fn kinds_of_events_nested_keys_and_a_value_of_the_latest_event() {
    let mut ups = uploads(&["sensor.json"]);
    ups[0].columns = vec![
        column("timestamp", false, &["time"], &[]),
        column("event_type", false, &[], &["flow", "tls", "alert"]),
        column("app_proto", false, &[], &["tls", "smtp"]),
        column("src_ip", false, &["client"], &[]),
        column("flow.pkts_toserver", true, &[], &[]),
        column("alert.severity", true, &[], &[]),
        column("alert.meta.rule_severity", false, &["level"], &["Major"]),
    ];
    let q = |text: &str| super::tests::query_over(&ups, text);
    for text in [
        "distinct src_ip over the tls events in sensor.json",
        "sensor.json 里 tls 事件有多少个不同的 src_ip",
    ] {
        let f = q(text);
        let filters = f["filters"].to_string();
        assert!(
            filters.contains("event_type") && filters.contains("tls"),
            "{text}: {f}"
        );
    }
    let f = q("sensor.json 里 alert 事件中 severity 为 3 的有几条");
    assert!(f["filters"].to_string().contains("alert.severity"), "{f}");
    // A Chinese word for alerts is the kind the log writes, not a warning's level; a log
    // with no kind of that name keeps the level.
    let f = q("sensor.json 里报警最多的 src_ip 是哪个");
    assert_eq!(
        f["filters"],
        json!([{"field": "event_type", "op": "eq", "value": "alert"}]),
        "{f}"
    );
    let f = frame(
        &log(
            "app.log",
            None,
            vec![column("level", false, &["level"], &["WARN"])],
        ),
        "有多少条告警",
    );
    let warned = serde_json::to_value(&f.query).expect("serialises");
    assert!(warned["filters"].to_string().contains("WARN"), "{warned}");
    for text in [
        "pkts_toserver of the latest flow event in sensor.json",
        "the last flow event's flow.pkts_toserver in sensor.json",
        "sensor.json 最后一条 flow 事件的 pkts_toserver 是多少",
    ] {
        let f = q(text);
        assert_eq!(f["measure"], json!("rows"), "{text}: {f}");
        assert_eq!(f["limit"], json!(1), "one event, no window: {text}: {f}");
        assert_eq!(f["show"], json!(["flow.pkts_toserver"]), "{text}: {f}");
    }
}

/// A gateway's nested JSON: a part of a plural object is said before it ("upstream
/// latency" of `latencies.upstream`), a key with its object ("request size"), and an
/// object named by its key is its name before its id ("which tenant", "per server").
#[test]
fn nested_keys_are_said_with_their_objects_and_objects_by_their_names() {
    let ups = log(
        "gw.json",
        Some("json_lines"),
        vec![
            column("started_at", false, &["time"], &[]),
            column("latencies.total", true, &["duration"], &[]),
            column("latencies.upstream", true, &[], &[]),
            column("request.size", true, &["bytes"], &[]),
            column("response.status", false, &["status"], &["200", "503"]),
            column("tenant.id", false, &[], &["t-1", "t-2"]),
            column("tenant.username", false, &["user"], &["acme", "globex"]),
            column("upstream_addr", false, &["server"], &["10.0.0.7:80"]),
            column("server.id", false, &[], &["s-1"]),
            column("server.name", false, &[], &["orders-a"]),
            column("request.uri", false, &["path"], &["/orders/1"]),
        ],
    );
    let q = query(&ups, "p99 upstream latency");
    assert_eq!(q["field"], "latencies.upstream", "{q}");
    let q = query(&ups, "average request size");
    assert_eq!(q["field"], "request.size", "{q}");
    let q = query(&ups, "which tenant sent the most requests");
    assert_eq!(q["group_by"], json!(["tenant.username"]), "{q}");
    let q = query(&ups, "503s per server");
    assert_eq!(q["group_by"], json!(["server.name"]), "{q}");
}

/// A name the log writes as one part of a value (`Redix.Connection`) is what the events
/// are about, typed in lower case as the subject of a verb, and it keeps a word of a
/// system table ("连接") on the log.
#[test]
fn a_part_of_a_logged_name_is_looked_for_in_the_events() {
    let ups = log(
        "app.log",
        Some("elixir_logger"),
        vec![
            column("time", false, &["time"], &[]),
            column("level", false, &["level"], &["INFO", "ERROR"]),
            column("module", false, &["logger"], &["Redix.Connection"]),
        ],
    );
    let has_redix = |q: &Value| {
        q["filters"].as_array().is_some_and(|fs| {
            fs.iter()
                .any(|f| f["op"] == "contains" && f["value"] == "redix")
        })
    };
    let q = query(&ups, "how many times did redix drop the connection");
    assert!(has_redix(&q), "{q}");
    let f = frame(&ups, "redix 连接断了几次");
    assert_eq!(f.query.source, llmops_common::query::Source::Log);
    let q = serde_json::to_value(&f.query).expect("serialises");
    assert!(has_redix(&q), "{q}");
}
