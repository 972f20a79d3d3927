//! System-table questions: a process, socket, unit or mount named in words, by its port
//! or its user, and the row with a table's extreme value.

use serde_json::json;

use super::tests::frame;

#[test]
fn system_tables_by_name_port_and_user() {
    let f = frame("how many nginx workers are running");
    assert_eq!(f["source"], "processes");
    assert_eq!(
        f["filters"],
        json!([{"field": "program", "op": "contains", "value": "nginx"}])
    );
    assert_eq!(
        f["soft"],
        json!([{"field": "command", "op": "contains", "value": "worker"}])
    );
    let f = frame("what is the pid of redis-server");
    assert_eq!(
        (&f["source"], &f["measure"]),
        (&json!("processes"), &json!("rows"))
    );
    let f = frame("which process listens on port 8080");
    assert_eq!(f["source"], "sockets");
    let filters = f["filters"].as_array().expect("filters");
    assert!(filters.contains(&json!({"field": "local_port", "op": "eq", "value": 8080.0})));
    assert!(filters.contains(&json!({"field": "state", "op": "eq", "value": "LISTEN"})));
    let f = frame("postgres 进程有几个");
    assert_eq!(
        (&f["source"], &f["measure"]),
        (&json!("processes"), &json!("count"))
    );
    // A name apart from the table's word, in either language.
    let sshd = json!([{"field": "program", "op": "contains", "value": "sshd"}]);
    for text in [
        "sshd 有几个进程",
        "how long has sshd been running",
        "sshd 运行了多久",
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(f["filters"], sshd, "{text}: {f}");
    }
    // A user's name before its Chinese word, and its processes counted.
    let f = frame("root 用户有多少个进程");
    assert_eq!(
        f["filters"],
        json!([{"field": "user", "op": "eq", "value": "root"}])
    );
    assert_eq!(f["measure"], "count");
    // A name after a helping verb ("does redis have") is still the name.
    let f = frame("how many connections does redis have");
    assert_eq!(f["source"], "sockets", "{f}");
    assert_eq!(
        f["filters"],
        json!([{"field": "process", "op": "contains", "value": "redis"}])
    );
    // Failed units, as `systemctl --failed` lists them.
    for text in [
        "which services failed",
        "哪些服务启动失败",
        "what units are in a failed state",
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "units", "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "active", "op": "eq", "value": "failed"}]),
            "{text}: {f}"
        );
    }
    // The row with the extreme value of a table asked by name.
    for text in ["which mount has the highest usage", "哪个分区使用率最高"] {
        let f = frame(text);
        assert_eq!(
            (&f["source"], &f["measure"], &f["field"]),
            (&json!("mounts"), &json!("max"), &json!("use_percent")),
            "{text}: {f}"
        );
    }
}

#[test]
fn a_plain_name_where_a_name_stands_is_the_process() {
    let sshd = json!([{"field": "program", "op": "contains", "value": "sshd"}]);
    for (text, measure, field) in [
        ("what is the command line of sshd", "rows", None),
        ("what is the parent of sshd", "rows", None),
        ("what user does sshd run as", "rows", None),
        ("sshd 的命令行是什么", "rows", None),
        ("sshd 的父进程是谁", "rows", None),
        ("sshd 以什么用户运行", "rows", None),
        ("sshd 什么时候启动的", "rows", None),
        ("how much memory does sshd use", "sum", Some("rss_bytes")),
        ("how many threads does sshd have", "sum", Some("threads")),
        ("sshd 的线程数", "sum", Some("threads")),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(f["filters"], sshd, "{text}: {f}");
        assert_eq!(f["measure"], measure, "{text}: {f}");
        assert_eq!(f["field"].as_str(), field, "{text}: {f}");
    }
    // Asked whether it is up, in words.
    for text in ["sshd 起来了吗", "sshd 还活着吗"] {
        let f = frame(text);
        assert_eq!(
            (&f["source"], &f["filters"]),
            (&json!("processes"), &sshd),
            "{text}: {f}"
        );
    }
    // Not a capability question, though it says "command".
    let f = frame("what is the command line of ledger-daemon");
    assert_eq!(f["source"], "processes", "{f}");
    // A clause after the table's word names it, negated or not.
    let java = json!({"field": "program", "op": "contains", "value": "java"});
    let not_java = json!({"field": "program", "op": "contains", "value": "java", "negate": true});
    for (text, want) in [
        ("how many processes are java", &java),
        ("how many processes other than java", &not_java),
        ("processes that are not java", &not_java),
    ] {
        let f = frame(text);
        assert_eq!(f["filters"], json!([want]), "{text}: {f}");
    }
    let f = frame("how many sockets are not listening");
    assert_eq!(
        f["filters"],
        json!([{"field": "state", "op": "eq", "value": "LISTEN", "negate": true}]),
        "{f}"
    );
}

#[test]
fn a_list_of_names_is_any_of_them_and_which_ranks_them() {
    for (text, pattern, measure) in [
        (
            "which of sleep, cat and tail uses the most memory",
            "(?:(?:sleep|cat)|tail)",
            "rows",
        ),
        ("sshd 和 cron 哪个内存占用大", "(?:sshd|cron)", "rows"),
        (
            "of sshd and cron which one uses more memory",
            "(?:sshd|cron)",
            "rows",
        ),
        (
            "sshd、cron、dbus 哪个占内存最多，pid 是多少",
            "(?:(?:sshd|cron)|dbus)",
            "rows",
        ),
        (
            "how much memory do sshd and cron use",
            "(?:sshd|cron)",
            "sum",
        ),
        (
            "how many nginx and redis processes",
            "(?:nginx|redis)",
            "count",
        ),
    ] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}: {f}");
        assert_eq!(
            f["filters"],
            json!([{"field": "program", "op": "regex", "value": pattern}]),
            "{text}: {f}"
        );
        assert_eq!(f["measure"], measure, "{text}: {f}");
        // Which of them: their rows ranked by the figure, the pid beside it.
        if measure == "rows" {
            assert_eq!(f["field"], "rss_bytes", "{text}: {f}");
        }
    }
    let f = frame("how many processes other than java and python");
    assert_eq!(
        f["filters"],
        json!([{"field": "program", "op": "regex", "value": "(?:java|python)", "negate": true}]),
        "{f}"
    );
}

#[test]
fn a_process_by_its_number_or_its_owner() {
    let pid1 = json!([{"field": "pid", "op": "eq", "value": 1.0}]);
    // With no log at hand: a log with a pid column would read it as its own.
    for text in [
        "what is pid 1",
        "pid 1 是什么进程",
        "1 号进程是什么",
        "show pid 1",
    ] {
        let f = super::tests::query_over(&[], text);
        assert_eq!(
            (&f["source"], &f["filters"]),
            (&json!("processes"), &pid1),
            "{text}"
        );
    }
    // An owner before its verb is the user, not a program named "root".
    for text in ["how many processes does root own", "processes root owns"] {
        let f = frame(text);
        assert_eq!(f["source"], "processes", "{text}");
        assert_eq!(
            f["filters"],
            json!([{"field": "user", "op": "eq", "value": "root"}]),
            "{text}"
        );
    }
}

#[test]
fn a_table_counted_whole_or_by_state() {
    for (text, filters) in [
        ("how many processes", json!([])),
        ("有多少个进程", json!([])),
        ("how many procs rn", json!([])),
        (
            "how many sleeping processes",
            json!([{"field": "state", "op": "eq", "value": "S"}]),
        ),
        (
            "how many services are running",
            json!([{"field": "sub", "op": "eq", "value": "running"}]),
        ),
    ] {
        let f = frame(text);
        let got = f.get("filters").cloned().unwrap_or(json!([]));
        assert_eq!((&f["measure"], &got), (&json!("count"), &filters), "{text}");
    }
    let f = frame("which services are running");
    assert_eq!(
        (&f["source"], &f["measure"]),
        (&json!("units"), &json!("rows"))
    );
    // Yes or no, opened by "any" or 有…吗.
    let zombies = json!([{"field": "state", "op": "eq", "value": "Z"}]);
    for text in [
        "any zombies?",
        "有僵尸进程吗",
        "got any zombie procs",
        "有僵尸吗？",
    ] {
        assert_eq!(frame(text)["filters"], zombies, "{text}");
    }
    let java = json!([{"field": "program", "op": "contains", "value": "java"}]);
    assert_eq!(frame("有java进程吗")["filters"], java);
    // 什么 ends no yes-or-no question.
    let ps = super::parsed::Parsed::new("有报错的接口是什么", &super::FrameCtx::of_uploads(&[]));
    assert!(!ps.asks_if_any(crate::lexicon::lexicon()));
    // A filesystem's "多少" asks its usage, not how many there are.
    assert!(super::tests::frame_with("根目录磁盘占用多少", None)
        .is_none_or(|f| f["measure"] != "count"));
}

#[test]
fn a_plain_name_of_processes_is_the_program_s_else_the_user_s() {
    let f = frame("root 运行的进程有几个");
    assert_eq!(
        f["filters"],
        json!([{"field": "program", "op": "contains", "value": "root"}])
    );
    assert_eq!(
        f["or_else"],
        json!([{"field": "user", "op": "eq", "value": "root"}])
    );
    // A name that is no account's (a path, a dotted name) has no owner to try.
    assert!(frame("how many redis-server.conf processes")
        .get("or_else")
        .is_none());
}

/// Who a process runs as, asked with the account before the name ("what account runs
/// sshd", "nginx 是哪个账号启动的"): the process's row, its user the answer.
#[test]
fn who_runs_a_process_asked_by_account() {
    let sshd = json!([{"field": "program", "op": "contains", "value": "sshd"}]);
    for text in [
        "what user runs sshd",
        "what account runs sshd",
        "sshd 是哪个账号启动的",
        "sshd 用哪个账号运行",
    ] {
        let f = frame(text);
        assert_eq!(
            (&f["source"], &f["filters"]),
            (&json!("processes"), &sshd),
            "{text}"
        );
    }
}

/// After a process's memory, a ranking of the table is a question of its own; a field
/// asked of it ("and its cpu?") is still about that process.
#[test]
fn a_ranking_after_one_process_is_of_the_whole_table() {
    let python = super::LastQuery {
        query: serde_json::from_value(json!({"source": "processes", "field": "rss_bytes",
            "measure": "sum",
            "filters": [{"field": "program", "op": "contains", "value": "python3"}]}))
        .expect("query"),
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    };
    let filter = &json!([{"field": "program", "op": "contains", "value": "python3"}]);
    for text in [
        "which process uses the most memory",
        "top 5 processes by memory",
        "哪个进程最占内存",
    ] {
        let f = super::tests::frame_with(text, Some(&python)).unwrap_or_default();
        assert_ne!(&f["filters"], filter, "{text}: {f}");
    }
    let f = super::tests::frame_with("and its cpu?", Some(&python)).expect("an edit");
    assert_eq!(
        (&f["filters"], &f["field"]),
        (filter, &json!("cpu_percent"))
    );
}
