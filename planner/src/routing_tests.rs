//! Routing through `plan` for the incident capabilities and the misroutes operators hit:
//! typed commands run as themselves, plain words reach the right tool with the right
//! arguments, and log questions analyse the whole file.

use serde_json::{json, Value};

use super::conversation::Conversation;
use super::tests::uploads;
use super::{plan, PlannerAction, PlannerInput, ToolArgs};
use llmops_common::query::Measure;

/// The first step of a turn over `ups`, after `conversation`.
fn plan_over(text: &str, ups: &[crate::UploadRef], conversation: &Conversation) -> PlannerAction {
    plan(&PlannerInput {
        text,
        referenced_files: &[],
        uploads: ups,
        history: &[],
        conversation,
        steps: &[],
    })
}

pub(crate) fn first_call(text: &str, names: &[&str]) -> (String, Value) {
    let ups = uploads(names);
    match plan_over(text, &ups, &Conversation::default()) {
        PlannerAction::Call { tool, args, .. } => (tool.to_string(), args.to_json()),
        PlannerAction::Final { text: t } => ("<final>".into(), json!(t)),
    }
}

pub(crate) fn line(args: &Value) -> String {
    std::iter::once(args["command"].as_str().unwrap_or(""))
        .chain(
            args["args"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str),
        )
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn typed_commands_run_verbatim() {
    for text in [
        "uname -r",
        "ip addr show",
        "ip route",
        "hostname",
        "w",
        "ss -s",
        "journalctl -u cron -n 50 --no-pager",
        "systemctl is-active cron",
        "du -sh /var/cache",
        "find /var/log -maxdepth 1 -name '*.log'",
        "stat /etc/hosts",
        "lsof -i :22",
        "dmesg -T",
        "getent hosts localhost",
        "ping -c 2 gateway.lan",
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "command_executor", "{text}: {args}");
        assert_eq!(
            line(&args).replace('\'', ""),
            text.replace('\'', ""),
            "{text}"
        );
    }
}

#[test]
fn pipelines_keep_their_stages_and_resolve_uploads() {
    let (tool, args) = first_call("cat app.log | grep -i timeout | wc -l", &["app.log"]);
    assert_eq!(tool, "command_executor");
    assert_eq!(
        line(&args),
        "cat /data/uploads/id0/app.log | grep -i timeout | wc -l"
    );
    let (tool, args) = first_call("ps aux|sort -rk 4|head -n 5", &[]);
    assert_eq!(tool, "command_executor");
    assert_eq!(line(&args), "ps aux | sort -rk 4 | head -n 5");
    // Other operators and unknown stages never run.
    for text in ["ps aux && reboot", "ps aux | sh", "cat app.log > /tmp/x"] {
        let (tool, _) = first_call(text, &["app.log"]);
        assert_eq!(tool, "<final>", "{text}");
    }
}

#[test]
fn plain_words_reach_the_incident_tools() {
    let (tool, args) = first_call("内存都被谁占了，列一下最占内存的进程", &[]);
    assert_eq!(
        (tool.as_str(), &args["sort"]),
        ("sys_monitor", &json!("memory"))
    );
    assert_eq!(args["metric"], "processes");
    // A sentence that starts with "top" asks for a ranking, not the command.
    let (tool, args) = first_call("top 3 paths by count in access.log?", &["access.log"]);
    assert_eq!(
        (tool.as_str(), &args["measure"]),
        ("log_query", &json!("count")),
        "{args}"
    );
    let (tool, args) = first_call("top", &[]);
    assert_eq!(
        (tool.as_str(), &args["metric"]),
        ("sys_monitor", &json!("processes"))
    );
    let (tool, args) = first_call("is nginx up?", &["app.log"]);
    assert_eq!(
        (tool.as_str(), &args["name"]),
        ("sys_monitor", &json!("nginx"))
    );
    let (tool, args) = first_call("what's listening on this host", &[]);
    assert_eq!(
        (tool.as_str(), line(&args)),
        ("command_executor", "ss -tlnp".into())
    );
    let (tool, args) = first_call("how big is /var/lib/docker", &[]);
    assert_eq!(
        (tool.as_str(), line(&args)),
        ("command_executor", "du -sh /var/lib/docker".into())
    );
    let (_, args) = first_call("服务器已经运行多长时间了", &[]);
    assert_eq!(line(&args), "uptime");
}

#[test]
fn log_questions_analyse_the_whole_file() {
    let (tool, args) = first_call("worker.log 有多少条 WARN", &["worker.log", "a.yaml"]);
    assert_eq!(tool, "log_query");
    assert_eq!(args["files"], json!(["/data/uploads/id0/worker.log"]));
    assert_eq!(
        args["filters"],
        json!([{"field": "level", "op": "eq", "value": "WARN"}])
    );
    // No file named: the session's newest log; the kind of error is its masked message.
    let (tool, args) = first_call("最多的错误是哪一种？", &["old.log", "a.yaml", "new.log"]);
    assert_eq!(
        (tool.as_str(), &args["files"]),
        ("log_query", &json!(["/data/uploads/id2/new.log"]))
    );
    assert_eq!(args["group_by"], json!(["template"]));
    // A log under /var/log by path.
    let (tool, args) = first_call("analyse /var/log/nginx/error.log", &[]);
    assert_eq!(
        (tool.as_str(), &args["mode"]),
        ("file_read", &json!("analyze"))
    );
}

#[test]
fn words_are_matched_on_token_boundaries() {
    let (tool, _) = first_call("what tools do you have", &[]);
    assert_ne!(tool, "command_executor");
    let (tool, _) = first_call("all the tools you have?", &[]);
    assert_ne!(tool, "command_executor");
}

#[test]
fn a_level_follow_up_reuses_the_analysed_log() {
    use super::HistoryTurn;
    let ups = uploads(&["api.log", "b.log"]);
    let history = vec![
        HistoryTurn {
            role: "user".into(),
            text: "api.log 有多少个 ERROR".into(),
        },
        HistoryTurn {
            role: "assistant".into(),
            text: "api.log 全文共 900 行。\nERROR 级别的日志共 **12** 行。\n各级别行数：ERROR 12，INFO 888。".into(),
        },
    ];
    let a = plan(&PlannerInput {
        text: "那 WARN 呢？",
        referenced_files: &[],
        uploads: &ups,
        history: &history,
        conversation: &super::conversation::Conversation::default(),
        steps: &[],
    });
    let PlannerAction::Call { tool, args, .. } = a else {
        panic!("{a:?}")
    };
    assert_eq!(tool, "log_query");
    assert_eq!(
        args.to_json()["files"],
        json!(["/data/uploads/id0/api.log"])
    );
    assert_eq!(
        args.to_json()["filters"],
        json!([{"field": "level", "op": "eq", "value": "WARN"}])
    );
}

#[test]
fn attachments_are_context_not_the_intent() {
    let ups = uploads(&["a.log", "b.conf"]);
    let ask = |text: &str| match plan(&PlannerInput {
        text,
        referenced_files: &ups,
        uploads: &ups,
        history: &[],
        conversation: &super::conversation::Conversation::default(),
        steps: &[],
    }) {
        PlannerAction::Call { tool, args, .. } => (tool, args),
        other => panic!("{text}: {other:?}"),
    };
    let (tool, args) = ask("show running processes");
    assert_eq!(
        (tool.as_str(), line(&args.to_json())),
        ("command_executor", "ps aux".into())
    );
    let (tool, args) = ask("哪个进程占用内存最多");
    assert_eq!(
        (tool.as_str(), &args.to_json()["metric"]),
        ("sys_monitor", &json!("processes"))
    );
    // Words about the files still read them.
    let (tool, _) = ask("这些文件有什么问题");
    assert!(tool == "file_read" || tool == "file_upload", "{tool}");
}

#[test]
fn refused_command_lines_reach_the_policy() {
    // Typed commands the policy refuses are still command lines: the policy's reason is the
    // answer, never a search or a download.
    for text in [
        "ps e",
        "ps -eo pid,environ",
        "ip link set lo down",
        "ip route add default via 10.0.0.1",
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "command_executor", "{text}: {args}");
    }
}

#[test]
fn filler_is_not_a_request() {
    // A key held down is no question about CPU or anything else: it is searched for (and
    // the answer says nothing matched), never routed to a tool by n-gram similarity.
    for text in [
        "大".repeat(500),
        "a".repeat(40),
        "哈哈哈哈哈哈哈哈哈哈哈哈哈".to_string(),
    ] {
        let (tool, _) = first_call(&text, &[]);
        assert!(
            tool == "semantic_search" || tool == "<final>",
            "{text}: {tool}"
        );
    }
}

/// A configured value asked about while configs are uploaded is searched in the uploads:
/// not this host's live memory, a command, or a refusal for "restart" in "restart policy".
#[test]
fn settings_questions_search_the_uploads() {
    let files = [
        "orders-deploy.yaml",
        "worker.service",
        "cache.conf",
        "ingest-agent.service",
    ];
    for text in [
        "orders 容器的 CPU 限制给了多少",
        "worker 最多能用多少内存",
        "how much memory is the orders container allowed",
        "worker restart policy",
        "worker 的重启策略是什么",
        "RestartSec of worker",
        "worker.service 是用哪个用户跑的",
        "ingest-agent 是用哪个用户跑的",
        "上传接口的请求体大小上限在哪个文件里配的",
    ] {
        let (tool, args) = first_call(text, &files);
        assert_eq!(tool, "semantic_search", "{text}: {args}");
        assert_eq!(args["scope"], "uploads", "{text}");
    }
    // Without uploads, and for the live state, the host answers.
    assert_eq!(first_call("内存使用率是多少", &files).0, "sys_monitor");
    assert_eq!(
        first_call("orders 容器的内存限制是多少", &[]).0,
        "sys_monitor"
    );
    assert_eq!(first_call("who am i", &files).0, "command_executor");
}

#[test]
fn questions_about_an_uploaded_config_search_the_uploads() {
    let files = [
        "payments-deploy.yaml",
        "redis.conf",
        "nginx.conf",
        "docker-compose.yml",
        "worker.service",
        "postgresql.conf",
        "mosquitto.conf",
    ];
    // Each names a config (its stem, or a distinctive part of it) or points at "the
    // config I sent", and asks for a value: not an upload how-to, a listing, `ps`, a
    // refusal, the capabilities text, `pwd` or the monitor.
    for text in [
        "in the uploaded compose file, which port does grafana publish",
        "according to the config I sent, how many worker processes does nginx run",
        "worker 服务失败后多久重启",
        "worker 的启动命令是什么",
        "what command does the worker service start",
        "payments 的 readiness 探针检查哪个路径",
        "payments 部署了几个副本",
        "compose 里 web 服务依赖哪些服务",
        "mosquitto 监听哪个端口",
        "wal 文件最多保留多大",
        "where does redis write its dump file",
    ] {
        let (tool, args) = first_call(text, &files);
        assert_eq!(tool, "semantic_search", "{text}: {args}");
        assert_eq!(args["scope"], "uploads", "{text}");
    }
    // A sentence's function words stay out of the query.
    let (_, args) = first_call(
        "how long does nginx wait for the backend before it gives up",
        &files,
    );
    assert_eq!(args["query"], "long nginx wait backend gives", "{args}");
    // A key in a config named by its file is still read from it; the live state, a
    // download and a howto stay what they were.
    assert_eq!(
        first_call("what's the keepalive timeout in nginx.conf", &files).0,
        "semantic_search"
    );
    assert_eq!(first_call("redis 用了多少内存", &files).0, "sys_monitor");
    assert_eq!(
        first_call("download the redis config", &files).0,
        "file_download"
    );
    assert_eq!(first_call("上传一个文件", &files).0, "<final>");
    // `keepalive` is no "live" (follow a log with `tail -f`).
    let (tool, args) = first_call("show the keepalive settings of nginx.conf", &[]);
    assert!(line(&args).find("-f").is_none(), "{tool}: {args}");
}

#[test]
fn terse_settings_and_hypothetical_failures_search_the_uploads() {
    let files = [
        "billing-api-deploy.yaml",
        "rabbitmq.conf",
        "docker-compose.yml",
        "exporter.service",
        "application.yml",
    ];
    for text in [
        "exporter 挂了多久会被拉起",
        "compose 里 worker 挂了会重启吗",
        "kafka bootstrap servers",
        "nofile for exporter",
        "rabbitmq 内存水位线",
        "rabbitmq vm memory high watermark",
        "the queue's max message size",
    ] {
        let (tool, args) = first_call(text, &files);
        assert_eq!(tool, "semantic_search", "{text}: {args}");
    }
    // The live state and the file itself stay with the host and the download.
    for (text, want) in [
        ("rabbitmq 用了多少内存", "sys_monitor"),
        ("exporter 挂了吗", "sys_monitor"),
        ("show me the memory and cpu of the machine", "sys_monitor"),
        ("send me the exporter file", "file_download"),
        ("再发一次 exporter.service", "file_download"),
        ("give me the exporter config", "file_download"),
    ] {
        assert_eq!(first_call(text, &files).0, want, "{text}");
    }
}

#[test]
fn host_commands_named_after_an_upload_read_the_upload() {
    let files = [
        "indexer.service",
        "pgbouncer.ini",
        "edge.conf",
        "values.yaml",
    ];
    for text in [
        "indexer 的工作目录",
        "the indexer's working directory",
        "the unit file's restart delay",
        "which user does the indexer run as",
        "max client conn on the bouncer",
        "replicaCount?",
        "is tls 1.0 disabled on the edge?",
    ] {
        let (tool, args) = first_call(text, &files);
        assert_eq!(tool, "semantic_search", "{text}: {args}");
    }
    // Without an upload named, the host's own.
    assert_eq!(line(&first_call("当前工作目录是什么", &files).1), "pwd");
}

#[test]
fn the_live_state_of_a_service_named_like_an_upload_stays_live() {
    let files = ["nginx.conf", "redis.conf", "worker.service"];
    for (text, want) in [
        ("how much memory does nginx use", "sys_monitor"),
        ("how much cpu is redis taking", "sys_monitor"),
        ("is nginx up", "sys_monitor"),
        ("how many nginx processes are there", "system_query"),
        ("which port is nginx listening on right now", "system_query"),
    ] {
        assert_eq!(first_call(text, &files).0, want, "{text}");
    }
    // When a service started is a question about the past, not a request to start it.
    for ups in [&files[..], &[]] {
        for text in ["worker 服务什么时候启动的", "when did worker start"] {
            let (tool, args) = first_call(text, ups);
            assert_eq!(
                (tool.as_str(), line(&args)),
                (
                    "command_executor",
                    "systemctl status worker --no-pager".into()
                ),
                "{text}"
            );
        }
    }
    // How long before a restart is a question, not a request to restart: not refused,
    // with or without the unit uploaded.
    for ups in [&files[..], &[]] {
        let (tool, args) = first_call("worker 服务失败后多久重启", ups);
        assert_ne!(tool, "<final>", "{args}");
    }
    // A cause is no value: not the uploads' lines alone.
    let (_, args) = first_call("为什么 worker 起不来", &files);
    assert_ne!(args["scope"], "uploads", "{args}");
}

#[test]
fn configured_counts_and_status_pages_are_settings() {
    let files = ["haproxy.cfg", "nginx.conf", "app.properties"];
    for text in [
        "haproxy status page port",
        "app 的进程数配置",
        "how many worker processes does nginx.conf set",
        "nginx 配了几个 worker 进程",
    ] {
        let (tool, args) = first_call(text, &files);
        assert_eq!(tool, "semantic_search", "{text}: {args}");
    }
    // Asking for the file itself still reads it.
    assert_eq!(first_call("查看 nginx 配置", &files).0, "file_read");
}

#[test]
fn commands_run_as_typed_whatever_the_words_around_them() {
    for (text, want) in [
        ("帮我执行一下 df -h", "df -h"),
        ("run free -m for me", "free -m"),
        ("could you please run uptime", "uptime"),
        ("执行 ss -tlnp，谢谢", "ss -tlnp"),
        ("麻烦跑一下 ps aux", "ps aux"),
    ] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(
            (tool.as_str(), line(&args)),
            ("command_executor", want.into()),
            "{text}"
        );
    }
}

#[test]
fn upload_names_resolve_only_where_a_file_is_expected() {
    let files = ["nginx.conf", "app.log"];
    for (text, want) in [
        ("journalctl -u nginx", "journalctl -u nginx"),
        ("systemctl status nginx", "systemctl status nginx"),
        ("cat nginx.conf", "cat /data/uploads/id0/nginx.conf"),
        ("tail -n 5 app.log", "tail -n 5 /data/uploads/id1/app.log"),
    ] {
        let (tool, args) = first_call(text, &files);
        assert_eq!(
            (tool.as_str(), line(&args)),
            ("command_executor", want.into()),
            "{text}"
        );
    }
}

#[test]
fn read_only_questions_with_action_words_are_not_refused() {
    for (text, files) in [
        (
            "which client IP sent the most requests",
            &["access.log"][..],
        ),
        ("删除的文件有哪些", &["app.log"]),
        ("nginx 重启次数是多少", &["app.log"]),
        ("有多少请求失败了", &["access.log"]),
        ("上次重启的原因是什么", &[]),
    ] {
        let (tool, args) = first_call(text, files);
        assert_ne!(tool, "<final>", "{text}: {args}");
    }
    // Asked in words, an action becomes a proposal: the process is looked up by name.
    let (tool, args) = first_call("kill the report-cruncher process", &[]);
    assert_eq!(tool, "system_query", "{args}");
    assert_eq!(args["filters"][0]["value"], "report-cruncher");
    let (tool, args) = first_call("把 nginx 重启一下", &[]);
    assert_eq!(
        (tool.as_str(), &args["argv"]),
        ("run_action", &json!(["systemctl", "restart", "nginx"]))
    );
}

#[test]
fn a_clause_that_only_names_the_log_says_where_the_question_looks() {
    for text in [
        "redis 重启了几次？看 messages",
        "how many times did redis restart? check messages",
    ] {
        let (tool, args) = first_call(text, &["messages"]);
        assert_eq!(tool, "log_query", "{text}: {args}");
        assert_eq!(
            args["files"],
            json!(["/data/uploads/id0/messages"]),
            "{text}"
        );
        let filters = args["filters"].to_string();
        assert!(
            filters.contains("restart") && filters.contains("redis"),
            "{text}: {args}"
        );
    }
}

#[test]
fn a_note_that_the_file_is_attached_asks_for_nothing() {
    for text in [
        "what happened around 09:52? journal's attached",
        "09:52 前后发生了什么？日志在附件里",
    ] {
        let ups = uploads(&["node-journal.txt"]);
        let plan = super::TurnPlan::new(&PlannerInput {
            text,
            referenced_files: &[],
            uploads: &ups,
            history: &[],
            conversation: &super::conversation::Conversation::default(),
            steps: &[],
        });
        assert_eq!(plan.tasks.len(), 1, "{text}: {:?}", plan.tasks);
    }
}

#[test]
fn a_note_naming_the_attached_logs_says_which_logs_the_question_reads() {
    let mut ups = uploads(&["broker.log", "supervisord.log", "error_log"]);
    let time = llmops_common::query::Column {
        name: "time".into(),
        roles: vec!["time".into()],
        ..Default::default()
    };
    // All three formats write a level.
    let level = llmops_common::query::Column {
        name: "level".into(),
        roles: vec!["level".into()],
        ..Default::default()
    };
    for (u, f) in ups.iter_mut().zip(["kafka", "supervisord", "apache_error"]) {
        u.format = Some(f.into());
        u.columns = vec![time.clone(), level.clone()];
    }
    for (text, want) in [
        (
            "03:00 到 03:20 之间发生了什么？kafka 和 supervisord 的日志都在这",
            ["broker.log", "supervisord.log"],
        ),
        (
            "site was down near 04:40 - what happened? apache + supervisor logs attached",
            ["error_log", "supervisord.log"],
        ),
        (
            "anything odd near 04:40? broker + supervisord error logs",
            ["broker.log", "supervisord.log"],
        ),
    ] {
        let action = plan_over(text, &ups, &Conversation::default());
        let PlannerAction::Call { args, .. } = action else {
            panic!("{text}: {action:?}")
        };
        let ToolArgs::LogQuery(q) = &args else {
            panic!("{text}: {args}")
        };
        assert_eq!(q.query.measure, Measure::Timeline, "{text}: {args}");
        let mut files: Vec<&str> = q
            .query
            .files
            .iter()
            .filter_map(|f| f.rsplit('/').next())
            .collect();
        files.sort_unstable();
        assert_eq!(files, want, "{text}: {args}");
        assert!(q.soft.is_empty(), "{text}: {args}");
    }
}

#[test]
fn after_a_query_an_ordinal_edits_the_query_not_an_older_list() {
    use super::conversation::{ListItem, ListKind, ListShown, Topic};
    use super::frame::LastQuery;
    let ups = uploads(&["a.log", "b.log", "access.log"]);
    let path = ups[2].path.to_string_lossy().into_owned();
    let query: llmops_common::query::Query = serde_json::from_value(json!({
        "source": "log", "files": [path], "measure": "count", "group_by": ["path"], "limit": 3
    }))
    .expect("query");
    let item = |p: &str| vec![("path".to_string(), p.to_string())];
    let conversation = Conversation {
        last_list: Some(ListShown {
            kind: ListKind::Uploads,
            items: ["a.log", "b.log", "access.log"]
                .iter()
                .map(|n| ListItem {
                    name: n.to_string(),
                    path: None,
                    pid: None,
                })
                .collect(),
        }),
        last_topic: Some(Topic::Query),
        last_query: Some(LastQuery {
            query,
            items: vec![item("/a"), item("/b"), item("/c")],
            event: Vec::new(),
            at: None,
        }),
        ..Conversation::default()
    };
    let action = plan_over("and the 4th and 5th?", &ups, &conversation);
    let PlannerAction::Call { args, .. } = action else {
        panic!("{action:?}")
    };
    let ToolArgs::LogQuery(q) = &args else {
        panic!("{args}")
    };
    assert_eq!(q.query.limit, Some(5), "{args}");
}

/// After a query over one log, a question naming another log: its own question runs over
/// that log ("same for the uwsgi log - slowest request?"), a bare switch repeats the last
/// query there, and a clause that only turns to the other log says where the next one asks.
#[test]
fn a_question_about_another_log_after_a_query_runs_over_that_log() {
    use super::conversation::{FileRef, Topic};
    use super::frame::LastQuery;
    let mut ups = uploads(&["edge-alb.log", "booking-api-uwsgi.log"]);
    let col = |n: &str, numeric: bool, role: &str| llmops_common::query::Column {
        name: n.into(),
        numeric,
        roles: vec![role.to_string()],
        values: vec![],
    };
    ups[0].format = Some("aws_alb".into());
    ups[0].columns = vec![
        col("target_processing_time", true, "duration"),
        col("elb_status_code", false, "status"),
        col("time", false, "time"),
    ];
    ups[1].format = Some("uwsgi".into());
    ups[1].columns = vec![
        col("msecs", true, "duration"),
        col("status", false, "status"),
        col("time", false, "time"),
    ];
    let alb = ups[0].path.to_string_lossy().into_owned();
    let uwsgi = ups[1].path.to_string_lossy().into_owned();
    let query: llmops_common::query::Query = serde_json::from_value(json!({
        "source": "log", "files": [alb], "measure": "max", "field": "target_processing_time",
        "filters": [{"op": "contains", "value": "api.example"}]
    }))
    .expect("query");
    let conversation = Conversation {
        last_topic: Some(Topic::Query),
        last_query: Some(LastQuery {
            query,
            items: vec![],
            event: Vec::new(),
            at: None,
        }),
        last_file: Some(FileRef {
            path: alb.clone(),
            analysed: true,
            total_lines: None,
        }),
        last_user: Some("slowest target_processing_time in the ALB log for api.example?".into()),
        turns: 1,
        ..Conversation::default()
    };
    let query_of = |text: &str| match plan_over(text, &ups, &conversation) {
        PlannerAction::Call {
            args: ToolArgs::LogQuery(q),
            ..
        } => q.query,
        other => panic!("{text}: {other:?}"),
    };
    let q = query_of("same for the uwsgi log - slowest request, in msecs?");
    assert_eq!(
        (q.files.clone(), q.measure),
        (vec![uwsgi.clone()], Measure::Max),
        "{q:?}"
    );
    assert!(q.filters.is_empty(), "its own question: {q:?}");
    let q = query_of("same for the uwsgi log");
    assert_eq!(q.files, vec![uwsgi.clone()], "{q:?}");
    assert_eq!(
        q.field.as_ref().map(|f| f.as_str()),
        Some("target_processing_time")
    );
    let q = query_of("uwsgi 那个日志里呢？有多少个请求因为这个 500 了");
    assert_eq!(
        (q.files.clone(), q.measure),
        (vec![uwsgi.clone()], Measure::Count),
        "{q:?}"
    );
    assert_eq!(q.filters.len(), 1, "status 500 only: {q:?}");
    // A question of its own at the time the last answer pointed at.
    let mut at_peak = conversation.clone();
    if let Some(l) = at_peak.last_query.as_mut() {
        l.at = Some(super::frame::AnswerTime {
            at: "2031-05-09T02:17".into(),
            width_seconds: 60,
        });
    }
    let q = match plan_over(
        "how many errors in the uwsgi log at that time?",
        &ups,
        &at_peak,
    ) {
        PlannerAction::Call {
            args: ToolArgs::LogQuery(q),
            ..
        } => q.query,
        other => panic!("{other:?}"),
    };
    assert_eq!(q.files, vec![uwsgi], "{q:?}");
    assert_eq!(
        q.window,
        Some(llmops_common::query::Window::Between {
            from: Some(llmops_common::query::TimePoint("2031-05-09T02:17".into())),
            to: Some(llmops_common::query::TimePoint("2031-05-09T02:17".into())),
        }),
        "{q:?}"
    );
}

#[test]
fn a_program_named_in_plain_letters_is_still_a_name() {
    // In a Chinese question an English word is the program asked about.
    let (tool, args) = first_call("billingd 的 pid 多少", &[]);
    assert_eq!(tool, "system_query", "{args}");
    assert_eq!(args["filters"][0]["value"], "billingd", "{args}");
    // "nuke it" after a name is a kill request: the process is looked up first.
    let (tool, args) = first_call("ledger-sync is wedged again, just nuke it", &[]);
    assert_eq!(tool, "system_query", "{args}");
    assert_eq!(args["filters"][0]["value"], "ledger-sync", "{args}");
}

#[test]
fn a_command_after_a_verb_and_a_colon_is_checked_like_any_other() {
    for text in ["please execute: ls $(whoami)", "run: cat `id`"] {
        let (tool, args) = first_call(text, &[]);
        assert_eq!(tool, "<final>", "{text}: refused, not run: {args}");
    }
    let (tool, args) = first_call("please execute: uptime", &[]);
    assert_eq!(
        (tool.as_str(), line(&args)),
        ("command_executor", "uptime".into())
    );
}

#[test]
fn a_clause_that_only_says_no_condition_is_asked_is_dropped() {
    for text in [
        "how many POST requests in access.log? any status",
        "how many distinct ticket ids got a PATCH in access.log? any status",
        "access.log 里 POST 请求有多少？不管状态码",
    ] {
        let (tool, args) = first_call(text, &["access.log"]);
        assert_ne!(tool, "sys_monitor", "{text}: {args}");
        assert!(
            tool != "log_query" || !args.to_string().contains("status"),
            "{text}: {args}"
        );
    }
}

/// "what caused the LedgerSyncException" over a Java log that writes causes is that log's query
/// of the causes; with no log that writes them, the incident summary.
#[test]
fn the_cause_of_a_named_exception_is_a_query_where_the_log_writes_causes() {
    let col = |name: &str, role: &str| llmops_common::query::Column {
        name: name.into(),
        roles: vec![role.into()],
        ..Default::default()
    };
    let mut ups = uploads(&["svc.log"]);
    ups[0].format = Some("java_log4j".into());
    ups[0].columns = vec![
        col("time", "time"),
        col("exception", "exception"),
        col("cause", "cause"),
    ];
    for text in [
        "what caused the LedgerSyncException",
        "LedgerSyncException 是什么引起的",
    ] {
        let PlannerAction::Call { args, .. } = plan_over(text, &ups, &Conversation::default())
        else {
            panic!("{text}: no call")
        };
        let ToolArgs::LogQuery(q) = &args else {
            panic!("{text}: {args}")
        };
        assert_eq!(
            q.query.group_by,
            vec![llmops_common::query::Field::new("cause")],
            "{text}: {args}"
        );
    }
    ups[0].columns.pop();
    let PlannerAction::Call { args, .. } = plan_over(
        "what caused the LedgerSyncException",
        &ups,
        &Conversation::default(),
    ) else {
        panic!("no call")
    };
    let ToolArgs::LogQuery(q) = &args else {
        panic!("{args}")
    };
    assert_eq!(q.query.measure, Measure::Timeline, "{args}");
}
