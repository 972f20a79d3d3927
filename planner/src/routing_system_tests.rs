//! Routing of questions about the host's processes and of typed command lines: a table's
//! field asked is no capability question, yes/no over the processes is their query, and a
//! dot standing alone is a path.

use serde_json::json;

use super::routing_tests::{first_call, line};
#[test]
fn a_process_field_asked_is_no_capability_question() {
    for text in [
        "what is the command line of sshd",
        "sshd 的命令行是什么",
        "ledger-daemon 的启动命令是什么",
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "system_query", "{text}: {args}");
        assert_eq!(args["source"], "processes", "{text}: {args}");
    }
    for text in [
        "what commands can you run",
        "你能用哪些命令",
        "支持哪些命令",
    ] {
        assert_eq!(first_call(text, &[]).0, "<final>", "{text}");
    }
}

#[test]
fn a_dot_standing_alone_is_a_path_and_find_needs_one() {
    for (text, want) in [
        ("find . -name x", "find . -name x"),
        ("du -sh .", "du -sh ."),
        ("ls -la .", "ls -la ."),
        ("find /var/log -name '*.gz'", "find /var/log -name *.gz"),
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "command_executor", "{text}: {args}");
        assert_eq!(line(&args), want, "{text}");
    }
    // "find" in a sentence about a process is no `find`.
    for text in ["find foo process", "find the process named foo"] {
        let (tool, args) = first_call(text, &[]);
        let processes = (tool == "system_query" && args["source"] == "processes")
            || (tool == "command_executor" && args["command"] == "ps");
        assert!(processes, "{text}: {tool} {args}");
    }
}

#[test]
fn asked_yes_or_no_of_the_processes_is_their_query() {
    for (text, filter) in [
        (
            "有没有 java 进程",
            json!({"field": "program", "op": "contains", "value": "java"}),
        ),
        (
            "有没有僵尸进程",
            json!({"field": "state", "op": "eq", "value": "Z"}),
        ),
        (
            "are there any zombie processes",
            json!({"field": "state", "op": "eq", "value": "Z"}),
        ),
        (
            "哪些进程是 root 启动的",
            json!({"field": "user", "op": "eq", "value": "root"}),
        ),
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "system_query", "{text}: {args}");
        assert_eq!(args["filters"], json!([filter]), "{text}: {args}");
    }
    // A document asked for stays a search.
    assert_eq!(
        first_call("有没有 nginx 的部署文档", &[]).0,
        "semantic_search"
    );
}

#[test]
fn processes_ranked_by_another_column_are_their_query_and_by_cpu_or_memory_the_monitors() {
    for (text, order, limit) in [
        ("which process has the most threads", "desc", 5),
        ("哪个进程线程数最多", "desc", 5),
        ("top 3 processes by thread count", "desc", 3),
        ("按线程数排前5的进程", "desc", 5),
        ("which procs have the fewest threads", "asc", 5),
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "system_query", "{text}: {args}");
        assert_eq!(
            (&args["source"], &args["measure"], &args["field"]),
            (&json!("processes"), &json!("rows"), &json!("threads")),
            "{text}: {args}"
        );
        // Descending is the query's default order, left out of its JSON.
        let shown = args["order"].as_str().unwrap_or("desc");
        assert_eq!((shown, &args["limit"]), (order, &json!(limit)), "{text}");
    }
    // Sampled as `top` samples them.
    for (text, sort) in [
        ("which process uses the most cpu", "cpu"),
        ("top 3 processes by memory", "memory"),
        ("哪个进程占用内存最多", "memory"),
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(
            (tool.as_str(), &args["sort"]),
            ("sys_monitor", &json!(sort)),
            "{text}: {args}"
        );
    }
    // A port's owner is still the sockets' question.
    let (tool, args) = first_call("8080 端口是哪个进程在用", &[]);
    assert_eq!(
        (tool.as_str(), &args["source"]),
        ("system_query", &json!("sockets")),
        "{args}"
    );
}
