//! Service logs with layouts of their own (Airflow tasks, PHP-FPM's master, the Jenkins
//! controller, HAProxy's TCP sessions, ClickHouse's server log) planted event by event:
//! the format is detected and levels, fields and figures match the planted ones; and
//! sudo's lines in an auth.log; a Celery banner and a klog panic dump, which are no events;
//! OpenVPN's and Mosquitto's clients.

use std::collections::BTreeMap;

use llmops_common::query::{Field, Filter, FilterOp, Measure, Scalar};

use super::tests_formats::{count, eq, format_of, groups, stat, tag, Lcg};

#[test]
fn airflow_task_lines_and_their_tracebacks() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "attempt=1.log";
    let mut rng = Lcg(41);
    let (mut text, mut by_level, mut by_source) = (String::new(), BTreeMap::new(), BTreeMap::new());
    for i in 0..300u32 {
        let (level, shown) = [
            ("INFO", "INFO"),
            ("INFO", "INFO"),
            ("WARN", "WARNING"),
            ("ERROR", "ERROR"),
        ][rng.next(4) as usize];
        let source = ["taskinstance.py", "orders.py", "http.py"][rng.next(3) as usize];
        *by_level.entry(level).or_insert(0u64) += 1;
        *by_source.entry(source.to_string()).or_insert(0u64) += 1;
        text.push_str(&format!(
            "[2031-05-01, 02:{:02}:{:02} UTC] {{{source}:{}}} {shown} - page {i} fetched\n",
            i / 60,
            i % 60,
            100 + i
        ));
        if shown == "ERROR" {
            text.push_str("Traceback (most recent call last):\n  File \"/opt/airflow/dags/orders.py\", line 41, in load\nrequests.exceptions.ReadTimeout: read timed out\n");
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "airflow");
    // The date written with a comma before its time is read as that time.
    let last = super::tests_formats::run(
        d,
        name,
        &llmops_common::query::Query {
            measure: Measure::Rows,
            field: Some(llmops_common::query::Field::new("time")),
            order: llmops_common::query::Order::Desc,
            limit: Some(1),
            ..Default::default()
        },
    );
    let llmops_common::query::QueryValue::Rows { rows, .. } = last.value else {
        panic!("rows: {:?}", last.value);
    };
    let at = rows
        .first()
        .and_then(|r| r.time.clone())
        .unwrap_or_default();
    assert!(
        at.starts_with("2031-05-01") && at.contains("02:04:59"),
        "{at}"
    );
    for (level, n) in &by_level {
        assert_eq!(count(d, name, vec![eq("level", level)]), *n, "{level}");
    }
    assert_eq!(groups(d, name, Vec::new(), "logger"), by_source);
    assert_eq!(
        count(
            d,
            name,
            vec![eq("exception", "requests.exceptions.ReadTimeout")]
        ),
        by_level["ERROR"]
    );
}

#[test]
fn php_fpm_slow_requests_and_pools() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "php8.2-fpm.log";
    let mut rng = Lcg(43);
    let (mut text, mut slow, mut notices) = (String::new(), Vec::new(), 0u64);
    for i in 0..300u32 {
        let clock = format!("01-May-2031 02:{:02}:{:02}", i / 60, i % 60);
        if rng.next(3) == 0 {
            let secs = 5.0 + rng.next(9000) as f64 / 1000.0;
            slow.push(secs);
            text.push_str(&format!(
                "[{clock}] WARNING: [pool www] child {}, script '/var/www/html/index.php' (request: \"POST /index.php\") executing too slow ({secs:.3} seconds), logging\n",
                3000 + i
            ));
        } else {
            notices += 1;
            text.push_str(&format!(
                "[{clock}] NOTICE: [pool api] child {} started\n",
                3000 + i
            ));
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "php_fpm");
    assert_eq!(count(d, name, vec![tag("slow_request")]), slow.len() as u64);
    assert_eq!(count(d, name, vec![eq("pool", "api")]), notices);
    let max = slow.iter().copied().fold(0.0, f64::max);
    assert!((stat(d, name, Measure::Max, "duration") - max).abs() < 1e-9);
}

#[test]
fn jenkins_records_with_their_traces() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "jenkins.log";
    let mut rng = Lcg(47);
    let mut text = String::from(
        "Running from: /usr/share/java/jenkins.war\nwebroot: /var/cache/jenkins/war\n",
    );
    let (mut warnings, mut failed) = (0u64, 0u64);
    for i in 0..300u32 {
        let clock = format!("2031-05-01 02:{:02}:{:02}.{:03}+0000", i / 60, i % 60, i);
        if rng.next(4) == 0 {
            warnings += 1;
            text.push_str(&format!(
                "{clock} [id={}]\tWARNING\thudson.slaves.ChannelPinger$1#onDead: Ping failed. Terminating the channel agent-{}.\njava.util.concurrent.TimeoutException: Ping started at 1935368837300 hung for 240,000 ms\n\tat hudson.remoting.PingThread.ping(PingThread.java:135)\n",
                80 + i,
                i % 5
            ));
        } else {
            let result = if rng.next(5) == 0 {
                "FAILURE"
            } else {
                "SUCCESS"
            };
            failed += u64::from(result == "FAILURE");
            text.push_str(&format!(
                "{clock} [id={}]\tINFO\thudson.model.Run#execute: orders #{i} completed: {result}\n",
                20 + i % 7
            ));
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "jenkins");
    assert_eq!(count(d, name, vec![eq("level", "WARN")]), warnings);
    assert_eq!(
        count(
            d,
            name,
            vec![eq("exception", "java.util.concurrent.TimeoutException")]
        ),
        warnings
    );
    assert_eq!(count(d, name, vec![tag("stack_trace")]), warnings);
    let failures = super::tests_formats::count(
        d,
        name,
        vec![llmops_common::query::Filter::new(
            None,
            llmops_common::query::FilterOp::Contains,
            llmops_common::query::Scalar::Text("completed: FAILURE".into()),
        )],
    );
    assert_eq!(failures, failed);
    assert_eq!(
        count(d, name, Vec::new()),
        300,
        "the war's notes are no events"
    );
}

#[test]
fn haproxy_tcp_sessions_and_their_termination_states() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "haproxy.log";
    let mut rng = Lcg(61);
    let mut text = String::from("Jun  3 02:00:00 lb02 haproxy[4172]: Proxy fe_pg started.\n");
    let (mut sessions, mut abnormal, mut longest, mut by_server) =
        (0u64, 0u64, 0u64, BTreeMap::new());
    for i in 0..400u64 {
        let server = if i % 41 == 0 {
            "<NOSRV>"
        } else {
            ["pg1", "pg2"][rng.next(2) as usize]
        };
        let state = if server == "<NOSRV>" {
            "SC"
        } else {
            ["--", "--", "--", "cD", "sD"][rng.next(5) as usize]
        };
        let tt = 5 + rng.next(3_600_000);
        sessions += 1;
        abnormal += u64::from(state != "--");
        longest = longest.max(tt);
        *by_server.entry(server.to_string()).or_insert(0u64) += 1;
        text += &format!(
            "Jun  3 02:{:02}:{:02} lb02 haproxy[4172]: 10.0.5.{}:{} [03/Jun/2031:01:{:02}:{:02}.{:03}] fe_pg be_pg/{server} 0/{}/{tt} {} {state} 44/40/33/11/0 0/0\n",
            i / 60 % 60, i % 60, rng.next(250), 1024 + rng.next(60000), i / 60 % 60, i % 60, rng.next(1000), rng.next(5), rng.next(2_000_000)
        );
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "haproxy_tcp");
    assert_eq!(count(d, name, vec![tag("failure")]), abnormal);
    assert_eq!(stat(d, name, Measure::Max, "tt"), longest as f64);
    assert_eq!(groups(d, name, Vec::new(), "server"), by_server);
    // Every session line is read with its timer; the daemon's notice has none.
    let timed = Filter::new(Some(Field::new("tt")), FilterOp::Ge, Scalar::Number(0.0));
    assert_eq!(count(d, name, vec![timed]), sessions);
}

#[test]
fn clickhouse_queries_their_times_and_stack_traces() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "clickhouse-server.log";
    let mut rng = Lcg(73);
    let mut text = String::from("PID: 1\nStarted at: 2031-06-02 23:10:04\n\n");
    let (mut errors, mut ids, mut slowest) = (0u64, 0u64, 0f64);
    for i in 0..300u32 {
        let t = format!(
            "2031.06.03 02:{:02}:{:02}.{:06}",
            i / 60 % 60,
            i % 60,
            rng.next(999_999)
        );
        let thread = 800 + rng.next(40);
        if i % 5 == 0 {
            text += &format!("{t} [ {thread} ] {{}} <Information> Application: tick {i}\n");
            continue;
        }
        ids += 1;
        let q = format!("q-{i:04}");
        if i % 17 == 3 {
            errors += 1;
            text += &format!("{t} [ {thread} ] {{{q}}} <Error> executeQuery: Code: 60. DB::Exception: Unknown table. (UNKNOWN_TABLE)\n0. DB::Exception::Exception() @ 0x000000000c800f1b\n1. DB::InterpreterSelectQuery::InterpreterSelectQuery() @ 0x0000000011d2e0f1\n\n");
        } else {
            let secs = (1 + rng.next(3_000_000)) as f64 / 1_000_000.0;
            slowest = slowest.max(secs);
            text += &format!(
                "{t} [ {thread} ] {{{q}}} <Debug> TCPHandler: Processed in {secs:.6} sec.\n"
            );
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "clickhouse");
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors);
    assert_eq!(
        super::tests_formats::distinct(d, name, "query_id"),
        ids,
        "no id is none"
    );
    assert_eq!(stat(d, name, Measure::Max, "elapsed"), slowest);
}

/// An auth.log's sudo lines: who ran what as whom, the whole command line with its
/// arguments, and PAM's failures of the same users.
#[test]
fn sudo_lines_give_the_invoking_user_the_target_and_the_whole_command() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "auth.log";
    let mut rng = Lcg(59);
    let users = ["deploy", "alice", "bob"];
    let commands = [
        "/usr/bin/systemctl restart nginx",
        "/usr/bin/journalctl -u postgresql --since today",
        "/usr/bin/apt upgrade -y",
    ];
    let mut text = String::new();
    let (mut by_user, mut restarts, mut as_postgres) = (BTreeMap::new(), 0u64, 0u64);
    for i in 0..200u32 {
        let clock = format!("2031-06-03T02:{:02}:{:02}.478163+00:00", i / 60, i % 60);
        let user = users[rng.next(3) as usize];
        *by_user.entry(user.to_string()).or_insert(0u64) += 1;
        if rng.next(5) == 0 {
            text += &format!("{clock} db-02 sudo: pam_unix(sudo:auth): authentication failure; logname={user} uid=1002 euid=0 tty=/dev/pts/3 ruser={user} rhost=  user={user}\n");
            continue;
        }
        let command = commands[rng.next(3) as usize];
        restarts += u64::from(command.ends_with("restart nginx"));
        let target = if rng.next(4) == 0 { "postgres" } else { "root" };
        as_postgres += u64::from(target == "postgres");
        text += &format!("{clock} db-02 sudo:   {user} : TTY=pts/{} ; PWD=/home/{user} ; USER={target} ; COMMAND={command}\n", rng.next(4));
        if i % 10 == 0 {
            text += &format!("{clock} db-02 CRON[{}]: pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)\n", 4000 + i);
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "syslog_iso");
    let sudo = vec![eq("program", "sudo")];
    assert_eq!(groups(d, name, sudo, "user"), by_user);
    let restart = Filter::new(
        Some(Field::new("COMMAND")),
        FilterOp::Contains,
        Scalar::Text("restart nginx".into()),
    );
    assert_eq!(count(d, name, vec![restart]), restarts);
    assert_eq!(count(d, name, vec![eq("USER", "postgres")]), as_postgres);
}

/// A Celery worker's banner before its first event is the file's preamble, and a
/// Kubernetes controller's panic dump belongs to the klog line above it: events are the
/// planted ones.
#[test]
fn a_workers_banner_and_a_controllers_panic_dump_are_no_events() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut celery = String::from(" \n -------------- celery@worker-1 v5.4.0 (opalescent)\n--- ***** ----- \n- ** ---------- [config]\n- ** ---------- .> transport:   redis://redis:6379/0\n\n[tasks]\n  . shop.tasks.charge\n\n");
    let mut klog = String::new();
    let mut rng = Lcg(79);
    let (mut events, mut panics) = (0u64, 0u64);
    for i in 0..200u32 {
        events += 1;
        celery += &format!(
            "[2031-09-16 01:{:02}:{:02},{:03}: INFO/ForkPoolWorker-1] Task shop.tasks.charge[{i}] succeeded in {}.5s: None\n",
            i / 60,
            i % 60,
            i,
            rng.next(9)
        );
        if i % 40 == 3 {
            panics += 1;
            klog += &format!("E0916 01:{:02}:{:02}.{:06}       1 runtime.go:79] Observed a panic: runtime error: index out of range\ngoroutine 24{i} [running]:\nk8s.io/apimachinery/pkg/util/runtime.logPanic(...)\n\tk8s.io/apimachinery/pkg/util/runtime/runtime.go:75 +0x85\ncreated by k8s.io/kubernetes/pkg/controller.(*Controller).Run in goroutine 1301\n", i / 60, i % 60, i);
        } else {
            klog += &format!("I0916 01:{:02}:{:02}.{:06}       1 controller.go:{}] \"Synced\" controller=\"endpointslice\"\n", i / 60, i % 60, i, rng.next(400));
        }
    }
    std::fs::write(dir.path().join("celery.log"), &celery).expect("write");
    std::fs::write(dir.path().join("kcm.log"), &klog).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, "celery.log"), "celery");
    assert_eq!(count(d, "celery.log", Vec::new()), events);
    assert_eq!(format_of(d, "kcm.log"), "klog");
    assert_eq!(count(d, "kcm.log", Vec::new()), events);
    assert_eq!(count(d, "kcm.log", vec![eq("level", "ERROR")]), panics);
}

/// An OpenVPN server's log: a client by its real address before its certificate is
/// verified and by common name and address after; the pool's address it learned.
#[test]
fn openvpn_clients_by_common_name_and_real_address() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "openvpn.log";
    let mut rng = Lcg(83);
    let mut text = String::from("2031-09-16 01:00:00 OpenVPN 2.6.12 x86_64-pc-linux-gnu [SSL (OpenSSL)] [LZO]\n2031-09-16 01:00:00 Initialization Sequence Completed\n");
    let users = ["alice", "bob", "carol", "dave"];
    let (mut by_user, mut addresses, mut failed) =
        (BTreeMap::new(), std::collections::BTreeSet::new(), 0u64);
    for i in 0..150u32 {
        let clock = format!("2031-09-16 01:{:02}:{:02}", i / 60, i % 60);
        let ip = format!("198.51.100.{}", 1 + rng.next(30));
        addresses.insert(ip.clone());
        let port = 40000 + rng.next(20000);
        text += &format!("{clock} {ip}:{port} TLS: Initial packet from [AF_INET]{ip}:{port}, sid=1c8a7f21 00fb3f3e\n");
        if rng.next(6) == 0 {
            failed += 1;
            text += &format!("{clock} {ip}:{port} TLS Error: TLS handshake failed\n");
            continue;
        }
        let user = users[rng.next(4) as usize];
        *by_user.entry(user.to_string()).or_insert(0u64) += 1;
        text += &format!(
            "{clock} {user}/{ip}:{port} MULTI: Learn: 10.8.0.{} -> {user}/{ip}:{port}\n",
            2 + i % 200
        );
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "openvpn");
    assert_eq!(groups(d, name, Vec::new(), "user"), by_user);
    assert_eq!(
        super::tests_formats::distinct(d, name, "client"),
        addresses.len() as u64
    );
    let handshake = Filter::new(
        Some(Field::new("message")),
        FilterOp::Contains,
        Scalar::Text("TLS handshake failed".into()),
    );
    assert_eq!(count(d, name, vec![handshake]), failed);
}

/// Mosquitto's broker log with epoch-second times: clients by their MQTT client id and
/// address, and the account they log in with.
#[test]
fn mosquitto_clients_by_id_address_and_account() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "mosquitto.log";
    let mut rng = Lcg(89);
    let mut text = String::from("1947286800: mosquitto version 2.0.18 starting\n1947286800: Opening ipv4 listen socket on port 1883.\n");
    let (mut by_account, mut timeouts) = (BTreeMap::new(), 0u64);
    for i in 0..200u64 {
        let t = 1_947_286_801 + i * 7;
        let (ip, port, id) = (
            format!("10.0.4.{}", rng.next(60)),
            40000 + rng.next(20000),
            format!("sensor-{:04}", rng.next(90)),
        );
        let account = ["device", "telegraf", "bridge"][rng.next(3) as usize];
        *by_account.entry(account.to_string()).or_insert(0u64) += 1;
        text += &format!("{t}: New connection from {ip}:{port} on port 1883.\n{t}: New client connected from {ip}:{port} as {id} (p2, c1, k60, u'{account}').\n");
        if rng.next(5) == 0 {
            timeouts += 1;
            text += &format!(
                "{}: Client {id} has exceeded timeout, disconnecting.\n",
                t + 3
            );
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "mosquitto");
    assert_eq!(groups(d, name, Vec::new(), "username"), by_account);
    let timeout = Filter::new(
        Some(Field::new("message")),
        FilterOp::Contains,
        Scalar::Text("has exceeded timeout".into()),
    );
    assert_eq!(count(d, name, vec![timeout]), timeouts);
}

/// Fields and values as an operator says them: a column asked with a blank for its
/// underscore (`Event ID` for `Event_ID`), and klog's level letters (`E`, `W`) as the levels
/// they stand for.
#[test]
fn fields_and_levels_are_found_as_an_operator_says_them() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let mut rng = Lcg(61);
    let (mut json, mut klog) = (String::new(), String::new());
    let (mut failed_logons, mut errors, mut warnings) = (0u64, 0u64, 0u64);
    for i in 0..300u32 {
        let id = [4624, 4625, 4688][rng.next(3) as usize];
        failed_logons += u64::from(id == 4625);
        json.push_str(&format!(
            "{{\"TimeCreated\":\"2031-09-16T01:{:02}:{:02}Z\",\"Event_ID\":{id},\"Task_Category\":\"Logon\"}}\n",
            i / 60,
            i % 60
        ));
        let letter = ['I', 'I', 'W', 'E'][rng.next(4) as usize];
        errors += u64::from(letter == 'E');
        warnings += u64::from(letter == 'W');
        klog.push_str(&format!(
            "{letter}0916 01:{:02}:{:02}.{i:06}       1 controller.go:{}] \"Sync done\" n={i}\n",
            i / 60,
            i % 60,
            100 + rng.next(50)
        ));
    }
    std::fs::write(d.join("security.json"), &json).expect("write");
    std::fs::write(d.join("kcm.log"), &klog).expect("write");
    let eq_num =
        |field: &str, v: f64| Filter::new(Some(Field::new(field)), FilterOp::Eq, Scalar::Number(v));
    assert_eq!(
        count(d, "security.json", vec![eq_num("Event ID", 4625.0)]),
        failed_logons
    );
    assert_eq!(
        count(d, "security.json", vec![eq_num("event-id", 4625.0)]),
        failed_logons
    );
    assert_eq!(count(d, "kcm.log", vec![eq("severity", "E")]), errors);
    assert_eq!(count(d, "kcm.log", vec![eq("level", "w")]), warnings);
    assert_eq!(
        count(d, "kcm.log", vec![eq("source", "controller.go")]),
        300,
        "the file, its line apart"
    );
}
