//! The action requests' tests: which messages propose which action, and what is never one.

use super::*;

fn argv(t: &str) -> Option<String> {
    match intent(t)? {
        ActIntent::Argv(a) => Some(a.join(" ")),
        ActIntent::KillTop { .. } => Some("top".into()),
        ActIntent::KillNamed { name, signal } => Some(format!("kill {signal} <{name}>")),
        ActIntent::StopNamed { name } => Some(format!("stop <{name}>")),
    }
}

#[test]
fn a_process_named_in_words_is_looked_up_then_proposed() {
    for (t, want) in [
        (
            "kill the report-cruncher process",
            "kill -TERM <report-cruncher>",
        ),
        ("please terminate all celery workers", "kill -TERM <celery>"),
        (
            "kill -9 the report-cruncher process",
            "kill -KILL <report-cruncher>",
        ),
        (
            "把 report-cruncher 这个进程杀掉",
            "kill -TERM <report-cruncher>",
        ),
        ("杀掉 celery 进程", "kill -TERM <celery>"),
        ("强制把 java 进程杀掉", "kill -KILL <java>"),
        ("thumbnailer 的所有进程都结束掉", "kill -TERM <thumbnailer>"),
        ("thumbnailer 这些 kill 掉吧", "kill -TERM <thumbnailer>"),
        (
            "stop all the invoice-mailer jobs please",
            "kill -TERM <invoice-mailer>",
        ),
        ("帮我把pdf-export干掉", "kill -TERM <pdf-export>"),
        (
            "把 bill-sweeper 这个进程干掉，它一直在重复扣款",
            "kill -TERM <bill-sweeper>",
        ),
        (
            "thumb-render has hung again; please kill it",
            "kill -TERM <thumb-render>",
        ),
        ("etl_worker 又卡住了，把它杀掉", "kill -TERM <etl_worker>"),
        (
            "report-gen keeps hogging the CPU; get rid of it",
            "kill -TERM <report-gen>",
        ),
        (
            "pdf-render keeps eating all the RAM, terminate those",
            "kill -TERM <pdf-render>",
        ),
        (
            "img_resize 的进程全卡死了，把它们都杀了",
            "kill -TERM <img_resize>",
        ),
        // The name before a stop clause: a plain word among Chinese, an English subject in a
        // state, and a Chinese stop clause that drops its object.
        ("thumbnailer 卡住了，干掉它", "kill -TERM <thumbnailer>"),
        (
            "ledger-rollup 占了太多内存，帮我 kill 掉",
            "kill -TERM <ledger-rollup>",
        ),
        ("java 又把 CPU 吃满了，杀掉", "kill -TERM <java>"),
        (
            "thumbnailer is stuck again, kill it",
            "kill -TERM <thumbnailer>",
        ),
        ("thumbnailer's hung, nuke it", "kill -TERM <thumbnailer>"),
        (
            "that thumbnailer is stuck again, kill it",
            "kill -TERM <thumbnailer>",
        ),
        // pkill typed: looked up by name, so the approval shows the pids.
        ("pkill thumbnailer", "kill -TERM <thumbnailer>"),
        ("pkill -9 etl_worker", "kill -KILL <etl_worker>"),
        ("pkill -f report.py", "kill -TERM <report.py>"),
        ("pkill shard-9", "kill -TERM <shard-9>"),
        // A stop verb first and one name in its clause: the rest says why.
        (
            "could you kill off the runaway thumb-render",
            "kill -TERM <thumb-render>",
        ),
        (
            "stop ledger-sync, it keeps eating memory",
            "kill -TERM <ledger-sync>",
        ),
        (
            "please send SIGKILL to ledger-sync",
            "kill -KILL <ledger-sync>",
        ),
    ] {
        assert_eq!(argv(t).as_deref(), Some(want), "{t}");
    }
    for t in [
        "how do I kill the report-cruncher process",
        "why was the report-cruncher process killed",
        "kill the process",
        "kill it",
        "kill the nginx and redis processes",
        "stop worrying about the disk",
        "the disk is full, kill it",
        "foo-a and bar-b are stuck, kill it",
        "stop comparing foo-a with bar-b",
        "stop worrying about build.log",
        "end time of job-42",
        "stop the alerts for db-1",
    ] {
        assert!(
            !matches!(intent(t), Some(ActIntent::KillNamed { .. })),
            "{t}: {:?}",
            intent(t)
        );
    }
}

#[test]
fn imperative_requests_become_proposals() {
    for (t, want) in [
        ("restart nginx", "systemctl restart nginx"),
        ("Please restart nginx.", "systemctl restart nginx"),
        ("重启 nginx 服务", "systemctl restart nginx"),
        ("帮我重启一下nginx", "systemctl restart nginx"),
        ("nginx 挂了，重启一下", "systemctl restart nginx"),
        ("nginx is down, restart it", "systemctl restart nginx"),
        ("reload php-fpm", "systemctl reload php-fpm"),
        (
            "restart nginx and php-fpm",
            "systemctl restart nginx php-fpm",
        ),
        ("停止 redis-server", "stop <redis-server>"),
        ("kill process 4242", "kill -TERM 4242"),
        ("kill 4242", "kill 4242"),
        ("kill -9 4242", "kill -9 4242"),
        ("结束进程 4242", "kill -TERM 4242"),
        ("强制结束进程 4242", "kill -KILL 4242"),
        ("terminate pids 4242 and 4243", "kill -TERM 4242 4243"),
        (
            "clean journal logs down to 500M",
            "journalctl --vacuum-size=500M",
        ),
        ("把 journal 日志清理到 1g", "journalctl --vacuum-size=1G"),
        ("清理 7 天前的系统日志", "journalctl --vacuum-time=7d"),
        ("systemctl restart nginx", "systemctl restart nginx"),
        ("stop the process eating memory", "top"),
        ("结束占用内存最多的进程", "top"),
    ] {
        assert_eq!(argv(t).as_deref(), Some(want), "{t}");
    }
    assert_eq!(
        intent("stop the process using the most cpu"),
        Some(ActIntent::KillTop {
            sort: ProcSort::Cpu,
            signal: "-TERM",
            name: None,
        })
    );
    // A word of the request is no name; a name is said beside the word for a process.
    for t in [
        "kill the process with the highest memory usage",
        "kill the process using the most memory on the web server",
    ] {
        assert_eq!(
            intent(t),
            Some(ActIntent::KillTop {
                sort: ProcSort::Memory,
                signal: "-TERM",
                name: None,
            }),
            "{t}"
        );
    }
    // The top among one program's processes only.
    for t in [
        "kill the sleep process using the most memory",
        "把内存最大的 sleep 进程杀掉",
    ] {
        assert_eq!(
            intent(t),
            Some(ActIntent::KillTop {
                sort: ProcSort::Memory,
                signal: "-TERM",
                name: Some("sleep".into()),
            }),
            "{t}"
        );
    }
}

#[test]
fn questions_and_non_unit_targets_are_not_actions() {
    for t in [
        "is nginx running",
        "systemctl status nginx",
        "nginx 状态怎么样",
        "why did nginx restart",
        "nginx 为什么重启了",
        "nginx 重启了几次",
        "重启服务器",
        "restart the server",
        "reboot",
        "how do i restart nginx",
        "哪个进程占用内存最多",
        "show the journal",
        "journalctl -u nginx",
        "kill all",
        "start",
        "ps aux | grep nginx",
        "what does systemctl restart do",
        "它上一次 restart 是几点",
        "which pods did the operator kill",
        "谁重启了 nginx",
        // A resource is no process; two names, or none, are no request; pkill flags that
        // take a value are not guessed.
        "cpu 满了，杀掉",
        "磁盘满了，停掉吧",
        "nginx 和 redis 都卡了，杀掉",
        "the alerts are noisy, stop them",
        "pkill -u bob",
        "pkill a b",
        "pkill -x sh",
        "killall sh",
        // Statements that something ended, and clauses that name nothing.
        "etl_worker 跑完了，结束了",
        "ledger-sync 报了 OOM，终止了",
        "that's enough, stop it",
        "there's a leak, kill it",
    ] {
        assert_eq!(intent(t), None, "{t}");
    }
}

/// "stop X" is looked up first: a service's processes are stopped through their unit, a
/// process no unit runs is ended, and a name no process runs is stopped as a unit.
#[test]
fn stop_a_name_stops_its_unit_or_ends_its_processes() {
    assert_eq!(
        argv("stop fare-reconciler").as_deref(),
        Some("stop <fare-reconciler>")
    );
    assert_eq!(
        argv("stop nginx.service").as_deref(),
        Some("systemctl stop nginx.service")
    );
    let unit = |u: &str| Some(u.to_string());
    assert_eq!(
        stop_argv(
            "redis-server",
            &[(
                812,
                "redis-server *:6379".into(),
                unit("redis-server.service")
            )]
        ),
        ["systemctl", "stop", "redis-server.service"]
    );
    assert_eq!(
        stop_argv(
            "fare-reconciler",
            &[(4242, "python3 /opt/jobs/fare-reconciler".into(), None)]
        ),
        ["kill", "-TERM", "4242"]
    );
    assert_eq!(stop_argv("ghost", &[]), ["systemctl", "stop", "ghost"]);
}

#[test]
fn a_stop_request_naming_nothing_is_of_the_processes_last_asked_about() {
    use llmops_common::query::{Field, Filter, FilterOp, Query, Scalar, Source};
    for t in ["都杀掉吧", "kill all of them", "kill it", "把它们都杀了"] {
        assert_eq!(kill_of_the_last(t, None), None, "{t}: nothing asked before");
    }
    let last = crate::frame::LastQuery {
        query: Query {
            source: Source::Processes,
            filters: vec![Filter::new(
                Some(Field::new("program")),
                FilterOp::Contains,
                Scalar::Text("tape-rewinder".into()),
            )],
            ..Query::default()
        },
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    };
    for t in [
        "都杀掉吧",
        "kill all of them",
        "kill it",
        "把它们都杀了",
        "kill -9 them",
        "全都停掉吧",
    ] {
        assert!(
            matches!(kill_of_the_last(t, Some(&last)), Some(ActIntent::KillNamed { ref name, .. }) if name == "tape-rewinder"),
            "{t}"
        );
    }
    for t in [
        "how many are there",
        "它们占了多少内存",
        "kill the backup job",
        "stop",
        "just stop",
        "它们都结束了",
    ] {
        assert_eq!(kill_of_the_last(t, Some(&last)), None, "{t}");
    }
}
