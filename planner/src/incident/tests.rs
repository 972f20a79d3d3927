//! Routing tests for incident questions: each rule in Chinese and English, and the
//! sentences that must not trigger it.

use super::*;

fn task(text: &str) -> Option<Task> {
    incident_task(text, names_a_file(text))
}

fn exec_line(t: &Option<Task>) -> Option<String> {
    match t {
        Some(Task::Exec { command, args }) => Some(
            std::iter::once(command.as_str())
                .chain(args.iter().map(String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
        ),
        _ => None,
    }
}

#[test]
fn top_processes_by_memory_and_cpu() {
    for (text, want) in [
        ("内存被谁吃光了，哪个进程最占内存", ProcSort::Memory),
        ("占用 CPU 最高的是哪个程序", ProcSort::Cpu),
        ("list the top processes by RAM", ProcSort::Memory),
        ("top 3 processes by rss", ProcSort::Memory),
        ("which binary uses the most memory", ProcSort::Memory),
        ("what process is hogging the cpu right now", ProcSort::Cpu),
        ("what's eating memory on this box", ProcSort::Memory),
        ("进程 CPU 排行", ProcSort::Cpu),
        ("为什么 CPU 一直这么高", ProcSort::Cpu),
        ("why is memory usage so high?", ProcSort::Memory),
    ] {
        assert!(
            matches!(task(text), Some(Task::Processes { limit: None, .. })),
            "{text}"
        );
        match task(text) {
            Some(Task::Processes {
                sort, name: None, ..
            }) => assert_eq!(sort, want, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    for text in [
        "CPU 使用率多少",
        "查看进程",
        "show running processes",
        "日志里哪个进程报错最多",
        "how much memory is free",
    ] {
        assert!(
            !matches!(task(text), Some(Task::Processes { name: None, .. })),
            "{text}: {:?}",
            task(text)
        );
    }
}

#[test]
fn is_a_service_running() {
    for (text, name) in [
        ("postgres 还在跑吗", "postgres"),
        ("redis-server 挂了吗", "redis-server"),
        ("is haproxy still running?", "haproxy"),
        ("Is the memcached service up", "memcached"),
        ("check if php-fpm is running", "php-fpm"),
    ] {
        match task(text) {
            Some(Task::Processes { name: Some(n), .. }) => assert_eq!(n, name, "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    assert!(task("is it running").is_none());
    assert_eq!(
        exec_line(&task("status of the cron service")).as_deref(),
        Some("systemctl status cron --no-pager")
    );
    assert_eq!(
        exec_line(&task("docker 服务状态")).as_deref(),
        Some("systemctl status docker --no-pager")
    );
}

#[test]
fn how_much_a_named_process_uses() {
    for (text, name, want) in [
        ("redis 用了多少内存", "redis", ProcSort::Memory),
        ("java 进程占用了多少 CPU", "java", ProcSort::Cpu),
        ("how much memory is nginx using", "nginx", ProcSort::Memory),
        (
            "how much cpu does the postgres process take",
            "postgres",
            ProcSort::Cpu,
        ),
    ] {
        match task(text) {
            Some(Task::Processes {
                name: Some(n),
                sort,
                ..
            }) => assert_eq!((n.as_str(), sort), (name, want), "{text}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    // The whole machine is no process name.
    for text in [
        "how much memory is the server using",
        "用了多少内存",
        "check memory usage",
    ] {
        assert!(
            !matches!(task(text), Some(Task::Processes { name: Some(_), .. })),
            "{text}"
        );
    }
}

#[test]
fn listening_ports_but_not_config_ports() {
    for text in [
        "现在有哪些端口在监听",
        "which ports are open here",
        "who is listening on 443",
    ] {
        assert_eq!(
            exec_line(&task(text)).as_deref(),
            Some("ss -tlnp"),
            "{text}"
        );
    }
    assert!(task("这个配置监听哪个端口").is_none());
    assert!(task("what port does nginx.conf listen on").is_none());
}

#[test]
fn journal_with_unit_priority_and_since() {
    assert_eq!(
        exec_line(&task("看看系统日志里 9:30 以后的错误")).as_deref(),
        Some("journalctl -p err --since 09:30 -n 200 --no-pager")
    );
    assert_eq!(
        exec_line(&task("journal errors for sshd in the last 2 hours")).as_deref(),
        Some("journalctl -u sshd -p err --since -2h -n 200 --no-pager")
    );
    assert_eq!(
        exec_line(&task("show the journal since yesterday")).as_deref(),
        Some("journalctl --since yesterday -n 200 --no-pager")
    );
    assert_eq!(
        since_value("下午3点以来", "下午3点以来").as_deref(),
        Some("15:00")
    );
    assert_eq!(
        since_value("最近半小时", "最近半小时").as_deref(),
        Some("-30min")
    );
}

#[test]
fn uptime_sizes_and_host_facts() {
    for text in [
        "这台机器开机多久了",
        "how long has this host been up?",
        "uptime",
    ] {
        assert_eq!(exec_line(&task(text)).as_deref(), Some("uptime"), "{text}");
    }
    assert_eq!(
        exec_line(&task("/srv/data 占了多少空间")).as_deref(),
        Some("du -sh /srv/data")
    );
    assert_eq!(
        exec_line(&task("how big is /opt/app/cache?")).as_deref(),
        Some("du -sh /opt/app/cache")
    );
    assert_eq!(
        exec_line(&task("/var 下面哪个目录最大")).as_deref(),
        Some("du -h --max-depth=1 /var | sort -rh | head -n 15")
    );
    assert_eq!(
        exec_line(&task("/var 下面哪个目录占用空间最大")).as_deref(),
        Some("du -h --max-depth=1 /var | sort -rh | head -n 15")
    );
    assert_eq!(
        exec_line(&task("本机 IP 地址是什么")).as_deref(),
        Some("ip -br addr show")
    );
    assert_eq!(
        exec_line(&task("what kernel version is this")).as_deref(),
        Some("uname -a")
    );
    assert_eq!(
        exec_line(&task("有没有 OOM")).as_deref(),
        Some("dmesg -T | grep -i -E oom|killed process")
    );
}

#[test]
fn log_questions_and_log_names() {
    for text in [
        "有多少个 ERROR",
        "最常见的错误是什么",
        "errors 什么时候开始的",
        "when did the exceptions begin",
        "how many warnings are there",
        "分析一下日志",
    ] {
        assert!(log_question(text), "{text}");
    }
    for text in ["我需要日志文件", "error handling docs", "打开 README"] {
        assert!(!log_question(text), "{text}");
    }
    assert!(is_log_name("/var/log/nginx/error.log"));
    assert!(is_log_name("app.log.1"));
    assert!(is_log_name("/var/log/syslog"));
    assert!(!is_log_name("/var/log/syslog.2.gz"));
    assert!(!is_log_name("nginx.conf"));
}

#[test]
fn following_a_log_live() {
    assert_eq!(
        exec_line(&task("实时查看 /var/log/nginx/error.log")).as_deref(),
        Some("tail -n 20 -f /var/log/nginx/error.log")
    );
    assert_eq!(
        exec_line(&task("follow worker.log for me")).as_deref(),
        Some("tail -n 20 -f worker.log")
    );
    assert_eq!(
        exec_line(&task("watch the journal for sshd")).as_deref(),
        Some("journalctl -f -n 20 -u sshd")
    );
}
