//! Frames that name logs and fields in their own ways: host paths of uploads, a log by its
//! kind or a part of its name, words in the other language, status classes and units.

use serde_json::json;

use super::tests::{frame, query_over};
use crate::tests::uploads;

#[test]
fn a_host_path_whose_name_was_uploaded_reads_the_upload() {
    let ups = uploads(&["messages"]);
    let f = query_over(&ups, "how many errors in /var/log/messages");
    assert_eq!(f["files"], json!([ups[0].path.to_string_lossy()]), "{f}");
    // Whole parts of a name only: "gateway" names `gateway-access.log`, "orders" does not
    // name `ordersync.log` (so it stays a word to look for).
    let ups = uploads(&["gateway-access.log", "ordersync.log"]);
    let f = query_over(&ups, "how many orders timed out in the gateway log");
    let filters = f["filters"].to_string();
    assert!(
        !filters.contains("gateway") && filters.contains("\"order\""),
        "{f}"
    );
}

#[test]
fn a_log_named_by_its_kind_or_by_a_part_of_its_name() {
    let mut ups = uploads(&[
        "edge-access.log",
        "www-vhosts_access.log",
        "ingress.json",
        "orders-svc.jsonl",
        "pod-7c9d_shop_tidefeed-3f1a.log",
    ]);
    let time = llmops_common::query::Column {
        name: "time".into(),
        numeric: false,
        roles: vec!["time".into()],
        ..Default::default()
    };
    for (u, format) in ups.iter_mut().zip([
        "nginx_timed",
        "apache_vhost",
        "json_lines",
        "json_lines",
        "cri",
    ]) {
        u.format = Some(format.to_string());
        u.columns = vec![time.clone()];
    }
    for name in ["RouterName", "DownstreamStatus"] {
        ups[2].columns.push(llmops_common::query::Column {
            name: name.into(),
            numeric: false,
            roles: vec![],
            ..Default::default()
        });
    }
    let path = |i: usize| ups[i].path.to_string_lossy().into_owned();
    for (text, want) in [
        ("nginx 日志里有多少个 504", 0),
        ("how many 502s in the apache access log", 1),
        ("how many 502s did traefik log", 2),
        ("how many errors did orders-svc log", 3),
        ("k8s container log: how many errors", 4),
        ("tidefeed 有多少条 error", 4),
    ] {
        let f = query_over(&ups, text);
        assert_eq!(f["files"], json!([path(want)]), "{text}: {f}");
        // The words that named the log are no condition on its events.
        let filters = f["filters"].to_string();
        for w in ["nginx", "apache", "traefik", "orders", "k8s", "tidefeed"] {
            assert!(!filters.contains(w), "{text}: {f}");
        }
    }
    // A kind no upload has is a word of the events ("nginx 的重启次数" over a syslog).
    let sys = uploads(&["messages"]);
    let f = query_over(&sys, "nginx 的重启次数");
    assert!(f["filters"].to_string().contains("nginx"), "{f}");
}

#[test]
fn an_action_word_inside_a_count_is_no_refusal_and_success_is_2xx() {
    let f = frame("access.log 中删除订单成功的请求共多少条");
    assert_eq!(f["measure"], "count", "{f}");
    assert_eq!(f["filters"][0]["op"], "class", "{f}");
    assert_eq!(f["filters"][0]["value"], 2.0, "{f}");
    let f = frame("how many delete requests in access.log");
    assert_eq!(f["filters"][0]["value"], "DELETE", "{f}");
}

#[test]
fn shell_in_a_question_and_phrases_in_the_other_language() {
    // A grep's pattern is what is looked for; an awk program and its pipes are no condition.
    let f = frame("how many lines would `grep -ci 'upstream timed out'` count in app.log");
    assert_eq!(
        f["filters"],
        json!([{"op": "contains", "value": "upstream timed out"}]),
        "{f}"
    );
    let f =
        frame("access.log 里不同的客户端 IP 有多少个，我平时用 awk '{print $1}' access.log | sort | uniq | wc -l 数");
    assert_eq!(f["measure"], "count_distinct", "{f}");
    assert!(f.get("filters").is_none(), "{f}");
    let f = frame("grep-like count of 502s in access.log");
    assert_eq!(f["filters"].as_array().map(Vec::len), Some(1), "{f}");
    // A Chinese phrase over an English log matches either wording.
    let f = frame("app.log 中“连接超时”有几条");
    assert_eq!(f["filters"][0]["op"], "regex", "{f}");
    assert!(
        f["filters"][0]["value"]
            .to_string()
            .contains("connection timed out"),
        "{f}"
    );
    // A program's own term matches what its log writes in words.
    let f = frame("how many times did bgsave run in app.log");
    assert!(
        f["filters"][0]["value"]
            .to_string()
            .contains("background saving"),
        "{f}"
    );
    // A route with a parameter is every path it stands for, and the route as a log that
    // writes routes spells it.
    let f = frame("mean duration of /v1/orders/{id}/refund in access.log");
    let re = regex::Regex::new(f["filters"][0]["value"].as_str().unwrap_or("")).expect("a regex");
    assert!(
        re.is_match("/v1/orders/{id}/refund") && re.is_match("/v1/orders/A-17/refund"),
        "{f}"
    );
    assert!(!re.is_match("/v1/orders/A-17/cancel"), "{f}");
}

#[test]
fn a_unit_is_the_journals_unit_and_the_hungriest_process_is_ranked() {
    let mut ups = uploads(&["journal.json"]);
    ups[0].columns = [
        "_SYSTEMD_UNIT:unit",
        "SYSLOG_IDENTIFIER:program",
        "__REALTIME_TIMESTAMP:time",
    ]
    .iter()
    .map(|s| {
        let (name, role) = s.split_once(':').expect("name:role");
        llmops_common::query::Column {
            name: name.into(),
            numeric: false,
            roles: vec![role.into()],
            ..Default::default()
        }
    })
    .collect();
    let f = query_over(&ups, "errors per unit in journal.json");
    assert_eq!(f["group_by"], json!(["unit"]), "{f}");
    let f = frame("reindex.py 的几个进程里谁最吃内存");
    assert_eq!(f["source"], "processes", "{f}");
    assert!(f.get("group_by").is_none(), "{f}");
    assert_eq!(
        (&f["measure"], &f["field"]),
        (&json!("rows"), &json!("rss_bytes")),
        "{f}"
    );
}

#[test]
fn a_status_class_binds_to_no_other_field_and_named_rows_answer_which() {
    let f = frame("top 5 client IPs by 4xx errors in access.log");
    assert_eq!(f["group_by"], json!(["client"]), "{f}");
    assert_eq!(f["limit"], 5, "{f}");
    // Which user runs a named process, and its pid: the process's rows, not a grouping.
    let f = frame("report-cruncher 由哪个用户在跑，pid 是多少");
    assert_eq!(
        (&f["source"], &f["measure"]),
        (&json!("processes"), &json!("rows")),
        "{f}"
    );
    // Ranked, it is a grouping again.
    let f = frame("哪个用户跑的 celery 进程最多");
    assert_eq!(f["group_by"], json!(["user"]), "{f}");
}

#[test]
fn chinese_words_for_what_english_events_say() {
    let f = frame("app.log 中容器被删除过几次");
    assert_eq!(f["filters"][0]["op"], "regex", "{f}");
    assert!(
        f["filters"][0]["value"]
            .to_string()
            .contains("container deleted"),
        "{f}"
    );
    let f = frame("worker-7 在 app.log 里被 kill 过多少回");
    let filters = f["filters"].to_string();
    assert!(
        filters.contains("worker-7") && filters.contains("killed"),
        "{f}"
    );
}

/// A path on the host with a filesystem's figure or word is the filesystem holding it (the
/// tool finds which); "how big is /var/log" is the directory's size.
#[test]
fn a_host_path_asked_for_free_space_or_use_is_its_filesystem() {
    for (text, path, field) in [
        ("free space on /tmp", "/tmp", "avail_bytes"),
        ("/var/log 所在分区还剩多少", "/var/log", "avail_bytes"),
        ("how full is /home", "/home", "use_percent"),
        ("disk usage of /var in percent", "/var", "use_percent"),
        (
            "how big is the partition /data/pg is on",
            "/data/pg",
            "size_bytes",
        ),
        (
            "how much space is left on the root partition",
            "/",
            "avail_bytes",
        ),
        ("根分区用了百分之多少", "/", "use_percent"),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "mounts", "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "mount", "op": "eq", "value": path}]),
            "{text}: {f}"
        );
        assert_eq!(f["field"], field, "{text}: {f}");
    }
    // A path under a directory no host has by default reads like a URL path; with no log
    // at hand and a filesystem's figure asked, it is a place on this host, and the words
    // inside it ("target") are no cues.
    let f = query_over(&[], "free space on /work/main/target/tmp/a/b?");
    assert_eq!(
        (&f["source"], &f["filters"]),
        (
            &json!("mounts"),
            &json!([{"field": "mount", "op": "eq", "value": "/work/main/target/tmp/a/b"}])
        ),
        "{f}"
    );
    for text in ["how big is /var/log", "/var/log 一共占了多少磁盘空间"] {
        assert!(
            super::tests::frame_with(text, None).is_none(),
            "{text}: {:?}",
            super::tests::frame_with(text, None)
        );
    }
}

/// A process named with a field only processes have, or one a log has too ("threads"), is
/// the processes table's; how long a program has run is its oldest process's time.
#[test]
fn a_named_process_and_a_field_a_log_also_has() {
    let program = json!([{"field": "program", "op": "contains", "value": "llmops-server"}]);
    for (text, measure, field) in [
        (
            "how many threads does llmops-server have",
            "sum",
            json!("threads"),
        ),
        (
            "how long has llmops-server been running",
            "max",
            json!("elapsed_seconds"),
        ),
        ("llmops-server 运行了多久", "max", json!("elapsed_seconds")),
        ("llmops-server 是哪个用户启动的", "rows", json!(null)),
        ("who started llmops-server", "rows", json!(null)),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(f["filters"], program, "{text}: {f}");
        assert_eq!(f["measure"], measure, "{text}: {f}");
        assert_eq!(
            f.get("field").cloned().unwrap_or(json!(null)),
            field,
            "{text}: {f}"
        );
    }
    // A cue word inside a dotted name is part of the name.
    let f = super::tests::frame_with("orders.threads 呢", None);
    assert!(
        f.as_ref().is_none_or(|f| f["source"] != "processes"),
        "{f:?}"
    );
}

/// The tables' state words, and a number given as a field of numbers named before or after
/// it.
#[test]
fn states_and_numbers_of_the_system_tables() {
    for (text, source, filters) in [
        (
            "how many established connections are there",
            "sockets",
            json!([{"field": "state", "op": "eq", "value": "ESTAB"}]),
        ),
        (
            "how many zombie processes",
            "processes",
            json!([{"field": "state", "op": "eq", "value": "Z"}]),
        ),
        (
            "哪个进程占用了 19999 端口",
            "sockets",
            json!([{"field": "local_port", "op": "eq", "value": 19999.0}]),
        ),
        (
            "what's the parent of pid 1",
            "processes",
            json!([{"field": "pid", "op": "eq", "value": 1.0}]),
        ),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], source, "{text}: {f}");
        assert_eq!(f["filters"], filters, "{text}: {f}");
    }
}

/// A field that measures, grouped beside a key, is summed per group; the log's time field
/// grouped is its buckets; the log's own field named exactly as a lexicon word for a field
/// it lacks is the log's.
#[test]
fn groupings_that_are_no_keys() {
    use super::tests::frame_over_columns;
    let f = frame_over_columns("top 3 shards by queue_depth in orders.jsonl");
    assert_eq!(
        (&f["measure"], &f["field"], &f["group_by"], &f["limit"]),
        (
            &json!("sum"),
            &json!("queue_depth"),
            &json!(["shard"]),
            &json!(3)
        ),
        "{f}"
    );
    let f = frame_over_columns("which minute had the most events in orders.jsonl (by ts)?");
    assert_eq!(f["measure"], "buckets", "{f}");
    assert!(f.get("group_by").is_none(), "{f}");
    let mut ups = uploads(&["api.log"]);
    ups[0].columns = ["caller", "level", "msg"]
        .iter()
        .map(|n| llmops_common::query::Column {
            name: n.to_string(),
            ..Default::default()
        })
        .collect();
    let f = query_over(&ups, "which caller wrote the most warnings?");
    assert_eq!(f["group_by"], json!(["caller"]), "{f}");
}
/// A statistic asked of a system table with no field of numbers named shows the rows (the
/// tool refuses a statistic without a field).
#[test]
fn a_statistic_without_a_field_over_a_system_table_shows_the_rows() {
    let f = frame("catalog-service 连数据库的连接池最大多少");
    assert_ne!(f["source"], "log", "{f}");
    assert!(
        f.get("field").is_some() || f["measure"] == "rows" || f["measure"] == "count",
        "{f}"
    );
}

/// A word right before a level word may name a kind of error a log writes at any level:
/// the query asks the level and the word, and the phrase when no event has both.
#[test]
fn a_word_before_a_level_word_makes_a_phrase_to_fall_back_on() {
    let ups = uploads(&["proxy.log"]);
    let ctx = super::FrameCtx::of_uploads(&ups);
    let frame = |q: &str| match super::question::understand(q, &ctx) {
        Some(super::Understood::Query(f)) => f,
        other => panic!("{q}: {other:?}"),
    };
    let f = frame("how many handshake errors in proxy.log");
    let or_else = json!(f.or_else);
    // The phrase as looked for (the word's stem), not at a routine level.
    assert_eq!(
        or_else[0],
        json!({"op": "regex", "value": r"\bhandshak\w*\W+errors?\b"}),
        "{f:?}"
    );
    assert!(
        or_else
            .to_string()
            .contains(r#""op":"not_contains","value":"INFO""#),
        "{f:?}"
    );
    assert!(
        f.query
            .filters
            .iter()
            .any(|x| x.field.as_ref().is_some_and(|n| n.as_str() == "level")),
        "the level is asked first: {f:?}"
    );
    let f = frame("how many errors in proxy.log");
    assert!(f.or_else.is_empty(), "{f:?}");
    // A zone's name after the times is no word looked for, and takes no word's place.
    let f = frame("proxy.log: handshake errors between 03:05 and 03:20 utc?");
    assert!(!f.or_else.is_empty(), "{f:?}");
}

/// A tag named by one written word ("OOM": the kernel's kills) falls back on the word
/// itself when the tag matches nothing (a cache that writes "OOM command not allowed").
#[test]
fn a_tags_written_word_is_the_fallback_of_the_tag() {
    let ups = uploads(&["worker.log"]);
    let ctx = super::FrameCtx::of_uploads(&ups);
    let Some(super::Understood::Query(f)) =
        super::question::understand("how many OOM warnings in worker.log", &ctx)
    else {
        panic!("no query")
    };
    assert!(
        f.query
            .filters
            .iter()
            .any(|x| x.op == llmops_common::query::FilterOp::Tag),
        "{f:?}"
    );
    let or_else = json!(f.or_else);
    assert_eq!(
        or_else[0],
        json!({"op": "regex", "value": r"\bOOM\b"}),
        "{f:?}"
    );
    assert!(or_else.to_string().contains(r#""field":"level""#), "{f:?}");
}

/// "the lighttpd error log" names a file: its "error" is no level condition.
#[test]
fn an_error_log_is_a_files_name_not_its_error_lines() {
    let ups = uploads(&["lighttpd-err.log"]);
    let f = query_over(&ups, "how many worker restarts in the lighttpd error log");
    assert!(!f["filters"].to_string().contains("\"level\""), "{f}");
    let f = query_over(&ups, "how many errors in the lighttpd log");
    assert!(f["filters"].to_string().contains("\"level\""), "{f}");
}

/// "how many deadlocks", sent with the log: a count of what it names in that log, not the
/// whole-file summary; the same words with no log sent are no question about a log.
#[test]
fn a_count_of_a_thing_named_is_asked_of_the_log_sent_with_it() {
    use crate::{PlannerAction, ToolArgs};
    let ups = uploads(&["pg-main.log"]);
    let ask =
        |sent: &[crate::UploadRef]| crate::tests::first_sent("how many deadlocks", &ups, sent);
    let PlannerAction::Call {
        args: ToolArgs::LogQuery(q),
        ..
    } = ask(&ups)
    else {
        panic!("no log query")
    };
    assert_eq!(q.query.measure, llmops_common::query::Measure::Count);
    assert!(
        json!(q.query.filters).to_string().contains("deadlock"),
        "{q:?}"
    );
    assert!(!matches!(
        ask(&[]),
        PlannerAction::Call {
            args: ToolArgs::LogQuery(_),
            ..
        }
    ));
}

/// "gunicorn 的 error 和 access 日志": a cue word beside another log's name, joined by
/// "和"/"and", names the log its name part picks; alone it stays a condition.
#[test]
fn a_cue_word_joined_to_a_log_name_names_its_log() {
    let ups = uploads(&["gunicorn-error.log", "gunicorn-access.log"]);
    let path = |i: usize| ups[i].path.to_string_lossy().into_owned();
    for text in [
        "gunicorn 的 error 和 access 日志一起看，04:12 左右怎么了",
        "what happened around 01:38 in the error and access logs",
    ] {
        let f = query_over(&ups, text);
        let files = f["files"].as_array().expect("files");
        assert!(
            files.contains(&json!(path(0))) && files.contains(&json!(path(1))),
            "{text}: {f}"
        );
    }
    let f = query_over(&ups, "how many error and warn lines in gunicorn-access.log");
    assert_eq!(f["files"], json!([path(1)]), "{f}");
}

/// A name joined by `@` is one value: its parts name no log ("orders" in `orders@docker`
/// is no `orders-service.log`), unless a file's name holds it whole.
#[test]
fn a_name_joined_by_at_is_one_value_and_names_no_log() {
    let ups = uploads(&["orders-service.log", "edge-access.log", "rabbit@mq-01.log"]);
    let f = query_over(
        &ups,
        "how many requests for the orders@docker router in edge-access.log",
    );
    let files = f["files"].to_string();
    assert!(
        files.contains("edge-access.log") && !files.contains("orders-service"),
        "{f}"
    );
    assert!(f["filters"].to_string().contains("orders@docker"), "{f}");
    let f = query_over(&ups, "rabbit@mq-01 里有多少 error");
    assert!(f["files"].to_string().contains("rabbit@mq-01.log"), "{f}");
}

/// Two letters name a log right before a word for a log ("ox 日志", "the ox log").
#[test]
fn two_letters_before_a_word_for_a_log_name_it() {
    let ups = uploads(&["ox-billing-20310603.log", "api.log"]);
    let f = query_over(&ups, "ox 日志里有几条 ERROR");
    assert_eq!(f["files"].as_array().map(Vec::len), Some(1), "{f}");
    assert!(
        f["files"][0]
            .as_str()
            .is_some_and(|p| p.ends_with("ox-billing-20310603.log")),
        "{f}"
    );
    let f = query_over(&ups, "how many errors in the ox log");
    assert!(
        f["files"][0]
            .as_str()
            .is_some_and(|p| p.ends_with("ox-billing-20310603.log")),
        "{f}"
    );
}

/// A domain's suffix written with its leading dot (`.corp.example`) is a value, and its
/// labels name no log: `corp` is no word for `corp-resolver.log`.
#[test]
fn a_domain_suffix_names_no_log() {
    let ups = uploads(&["corp-resolver.log", "edge.log"]);
    let ctx = super::FrameCtx::of_uploads(&ups);
    let q = "how many lookups of .corp.example names in edge.log";
    let Some(super::Understood::Query(f)) = super::question::understand(q, &ctx) else {
        panic!("no query for {q}")
    };
    assert_eq!(f.query.files.len(), 1, "{q}: {:?}", f.query.files);
    assert!(
        f.query.files[0].ends_with("edge.log"),
        "{q}: {:?}",
        f.query.files
    );
}
