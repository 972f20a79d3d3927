//! Planted-truth checks of learned layouts: logs in layouts no shipped format defines,
//! generated with known events, levels, threads, loggers and exceptions, queried through the
//! engine and compared with the generator's own counts.

use llmops_common::query::Measure;

use super::tests_formats::{count, eq, format_of, stat, Lcg};

/// What a generator planted: events, and per (field, value) how many events have it.
#[derive(Default)]
pub(super) struct Planted {
    pub(super) events: u64,
    counts: Vec<((&'static str, String), u64)>,
}

impl Planted {
    pub(super) fn add(&mut self, field: &'static str, value: &str) {
        match self
            .counts
            .iter_mut()
            .find(|((f, v), _)| *f == field && v == value)
        {
            Some((_, n)) => *n += 1,
            None => self.counts.push(((field, value.to_string()), 1)),
        }
    }
}

pub(super) fn check(text: &str, planted: &Planted, format: &str) {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "app.log";
    std::fs::write(dir.path().join(name), text).expect("write");
    assert_eq!(format_of(dir.path(), name), format, "format");
    assert_eq!(
        count(dir.path(), name, Vec::new()),
        planted.events,
        "events"
    );
    for ((field, value), n) in &planted.counts {
        let got = count(dir.path(), name, vec![eq(field, value)]);
        assert_eq!(got, *n, "{field}={value}");
    }
}

pub(super) const LEVELS: [&str; 4] = ["INFO", "WARN", "ERROR", "DEBUG"];

#[test]
fn a_bracketed_java_layout_with_stack_traces_is_learned() {
    let mut rng = Lcg(7);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..400u64 {
        let level = LEVELS[rng.next(4) as usize];
        let thread = format!("worker-{}", rng.next(5));
        let logger = [
            "c.q.billing.Charge",
            "c.q.billing.Ledger",
            "c.q.psp.Gateway",
        ][rng.next(3) as usize];
        text += &format!(
            "[2026-11-30 10:{:02}:{:02}.{:03}] [{thread}] [{level}] {logger} - step {i} done ms={}\n",
            i / 60 % 60,
            i % 60,
            rng.next(1000),
            rng.next(900)
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("thread", &thread);
        planted.add("logger", logger);
        if level == "ERROR" {
            text +=
                "java.io.IOException: reset by peer\n\tat c.q.psp.Gateway.post(Gateway.java:41)\n";
            text += "Caused by: java.net.SocketException: reset\n\t... 3 more\n";
            planted.add("exception", "java.io.IOException");
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn an_exception_named_in_the_first_line_is_the_events_exception() {
    let mut rng = Lcg(23);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let inline = ["java.net.SocketException", "org.h2.jdbc.JdbcSQLException"];
    for i in 0..300u64 {
        let stamp = format!(
            "2026-11-30 11:{:02}:{:02}.{:03}",
            i / 60 % 60,
            i % 60,
            rng.next(1000)
        );
        let level = LEVELS[rng.next(4) as usize];
        planted.events += 1;
        planted.add("level", level);
        match rng.next(4) {
            // Named inline, as `log.warn("dropped: " + e)` writes it.
            0 => {
                let e = inline[rng.next(2) as usize];
                text += &format!("{stamp} [{level}] relay - peer dropped: {e}: reset by peer\n");
                planted.add("exception", e);
            }
            // A trace under the line names it: that one counts.
            1 => {
                text += &format!("{stamp} [{level}] relay - write failed: see trace\n");
                text += "java.io.EOFException: closed\n\tat x.y.Relay.write(Relay.java:9)\n";
                planted.add("exception", "java.io.EOFException");
            }
            // A dotted name that is no exception, and an unqualified word, name none.
            _ => {
                text += &format!(
                    "{stamp} [{level}] relay - config: x.y.RetryPolicy, note: TimeoutError {i}\n"
                )
            }
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn a_logcat_like_layout_reads_letters_pids_and_padded_tags() {
    let mut rng = Lcg(11);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let letters = [
        ("I", "INFO"),
        ("W", "WARN"),
        ("E", "ERROR"),
        ("D", "DEBUG"),
        ("V", "TRACE"),
    ];
    for i in 0..300u64 {
        let (letter, level) = letters[rng.next(5) as usize];
        let tag = ["Sync", "ActivityManager", "OkHttp"][rng.next(3) as usize];
        let pid = ["4127", "1432"][rng.next(2) as usize];
        text += &format!(
            "11-30 09:{:02}:{:02}.{:03}  {pid}  {:>4} {letter} {tag:<8}: event {i}\n",
            i / 60 % 60,
            i % 60,
            rng.next(1000),
            1000 + rng.next(50)
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", tag);
        planted.add("pid", pid);
    }
    check(&text, &planted, "learned");
}

#[test]
fn a_pipe_separated_layout_reads_each_column() {
    let mut rng = Lcg(5);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..300u64 {
        let level = LEVELS[rng.next(4) as usize];
        let logger = ["Ferry.Payments.Worker", "Ferry.Payments.Outbox"][rng.next(2) as usize];
        text += &format!(
            "2026-11-30 06:{:02}:{:02}.{:04}|{level}|{logger}|polled {i} items\r\n",
            i / 60 % 60,
            i % 60,
            rng.next(10000)
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", logger);
        if level == "ERROR" {
            text += "System.IO.IOException: pipe broken\r\n   at Ferry.Payments.Outbox.Poll()\r\n";
            planted.add("exception", "System.IO.IOException");
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn tracing_spans_before_the_target_are_skipped() {
    let mut rng = Lcg(3);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..300u64 {
        let level = ["INFO", "WARN", "ERROR"][rng.next(3) as usize];
        let target = ["booking::api", "booking::db", "hyper::proto"][rng.next(3) as usize];
        let span = if rng.next(2) == 0 {
            format!("request{{id={i} method=GET}}: ")
        } else {
            String::new()
        };
        text += &format!(
            "2026-11-30T07:{:02}:{:02}.{:06}Z {level:>5} {span}{target}: handled status={}\n",
            i / 60 % 60,
            i % 60,
            rng.next(1_000_000),
            [200, 503][rng.next(2) as usize]
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", target);
    }
    check(&text, &planted, "learned");
}

#[test]
fn lines_without_a_leading_time_are_not_a_layout() {
    let text: String = (0..50).map(|i| format!("step {i} ok\n")).collect();
    let lines: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    assert!(super::learn::learn(&lines).is_none());
}

#[test]
fn a_two_line_layout_reads_its_level_from_the_second_line() {
    let mut rng = Lcg(13);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..200u64 {
        let (level, word) =
            [("INFO", "INFO"), ("WARN", "WARNING"), ("ERROR", "SEVERE")][rng.next(3) as usize];
        let logger = ["hudson.model.Run", "jenkins.Main"][rng.next(2) as usize];
        let (h, m) = (1 + i / 60 % 12, i % 60);
        // Not java.util.logging's own layout (a format of its own): the time written
        // day-first.
        text += &format!("29.11.2026 {h:02}:{m:02}:07 {logger} execute\n{word}: build {i}\n");
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", logger);
        if level == "ERROR" {
            text += "java.nio.channels.ClosedChannelException\n\tat hudson.remoting.Channel.call(Channel.java:1)\n";
            planted.add("exception", "java.nio.channels.ClosedChannelException");
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn an_address_in_the_text_answers_for_the_client() {
    let mut rng = Lcg(17);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let clients = ["10.0.0.5", "192.168.7.20", "172.16.3.9"];
    for i in 0..300u64 {
        let ip = clients[rng.next(3) as usize];
        text += &format!(
            "2026-11-30 08:{:02}:{:02} INFO New connection from {ip}:{} on port 1883.\n",
            i / 60 % 60,
            i % 60,
            40000 + rng.next(2000)
        );
        planted.events += 1;
        planted.add("client", ip);
        if i % 10 == 0 {
            text += &format!(
                "2026-11-30 08:{:02}:{:02} INFO Saving in-memory database.\n",
                i / 60 % 60,
                i % 60
            );
            planted.events += 1;
        }
    }
    check(&text, &planted, "generic");
}

#[test]
fn a_quoted_request_line_answers_for_method_path_and_status() {
    let mut rng = Lcg(29);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..240u64 {
        let method = ["GET", "POST", "DELETE"][rng.next(3) as usize];
        let path = ["/v2.1/servers", "/v2.1/flavors", "/v2.1/os-keypairs"][rng.next(3) as usize];
        let status = ["200", "404", "503"][rng.next(3) as usize];
        text += &format!(
            "2026-03-16 00:{:02}:{:02}.{:03} 4242 INFO api.wsgi [req-{i}] 10.0.0.{} \"{method} {path}?limit={} HTTP/1.1\" status: {status} len: {}\n",
            i / 60 % 60,
            i % 60,
            rng.next(1000),
            rng.next(200),
            rng.next(50),
            rng.next(9000)
        );
        planted.events += 1;
        planted.add("method", method);
        planted.add("path", path);
        planted.add("status", status);
        if i % 8 == 0 {
            text += &format!(
                "2026-03-16 00:{:02}:{:02}.500 4242 WARNING api.compute [-] host down\n",
                i / 60 % 60,
                i % 60
            );
            planted.events += 1;
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn a_bracketed_access_time_with_bytes_after_the_status() {
    let mut rng = Lcg(43);
    let mut text = String::from("Watching for file changes with StatReloader\nPerforming system checks...\n\nStarting development server at http://0.0.0.0:8000/\n");
    let (mut planted, mut bytes, mut max) = (Planted::default(), 0u64, 0u64);
    for i in 0..300u64 {
        let status = ["200", "404", "500", "304"][rng.next(4) as usize];
        if status == "500" {
            // Django writes the error and its traceback before the request line.
            text += "Internal Server Error: /api/x/\nTraceback (most recent call last):\n  File \"/srv/app/views.py\", line 88, in view\n    eta = km / speed\nZeroDivisionError: division by zero\n";
        }
        let n = if status == "304" { 0 } else { rng.next(40_000) };
        text += &format!(
            "[14/Mar/2026 09:{:02}:{:02}] \"GET /api/x/?page={} HTTP/1.1\" {status} {n}\n",
            i / 60 % 60,
            i % 60,
            rng.next(9)
        );
        planted.events += 1;
        planted.add("status", status);
        (bytes, max) = (bytes + n, max.max(n));
    }
    check(&text, &planted, "learned");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Sum, "bytes"),
        bytes as f64
    );
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Max, "bytes"),
        max as f64
    );
    // The banner is no event, in the engine and in the Perl equivalent it shows.
    let q: llmops_common::query::Query =
        serde_json::from_value(serde_json::json!({"filters": [{"op": "contains", "value": "a"}]}))
            .expect("query");
    let r = super::tests_formats::run(dir.path(), "app.log", &q);
    assert_eq!(r.matched, planted.events);
    let p = r.pipeline.as_deref().expect("a pipeline");
    assert_eq!(
        super::tests_formats::shell_output(dir.path(), p),
        planted.events.to_string(),
        "{p}"
    );
}

#[test]
fn a_source_line_number_is_left_out_of_the_logger() {
    let mut rng = Lcg(19);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..200u64 {
        let level = LEVELS[rng.next(4) as usize];
        let file =
            ["dagrun.py", "scheduler_job_runner.py", "taskinstance.py"][rng.next(3) as usize];
        text += &format!(
            "[2026-03-16T00:{:02}:{:02}.{:03}+0000] {{{file}:{}}} {level} - task {i} queued\n",
            i / 60 % 60,
            i % 60,
            rng.next(1000),
            100 + rng.next(1500)
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", file);
    }
    check(&text, &planted, "learned");
}

#[test]
fn a_duration_written_in_the_text_answers_for_duration() {
    let mut rng = Lcg(23);
    let mut text = String::new();
    let mut longest = 0u64;
    for i in 0..300u64 {
        let micros = 200 + rng.next(90_000);
        longest = longest.max(micros);
        text += &format!(
            "2026-11-30 08:{:02}:{:02} INFO GC(7) Pause Young (Normal) 24M->5M(256M) {}.{:03}ms\n",
            i / 60 % 60,
            i % 60,
            micros / 1000,
            micros % 1000
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("gc.log"), text).expect("write");
    // `took` is read in seconds.
    let seconds = stat(dir.path(), "gc.log", Measure::Max, "duration");
    assert!(
        (seconds - longest as f64 / 1e6).abs() < 1e-9,
        "{seconds} vs {longest}us"
    );
}

#[test]
fn the_jboss_layout_reads_the_bracket_as_the_logger() {
    // Quarkus's and WildFly's `%d %-5p [%c] (%t) %s%e%n`, behind the launcher's line, which
    // is no event.
    let mut rng = Lcg(17);
    let mut text = String::from("Updating the server's configuration, if any. Please wait.\n");
    let mut planted = Planted::default();
    for i in 0..300u64 {
        let level = LEVELS[rng.next(3) as usize];
        let logger = [
            "org.keycloak.events",
            "org.keycloak.services",
            "io.quarkus.http",
        ][rng.next(3) as usize];
        text += &format!(
            "2026-03-17 07:{:02}:{:02},{:03} {level:<5} [{logger}] (executor-thread-{}) step {i}\n",
            i / 60,
            i % 60,
            rng.next(1000),
            rng.next(40)
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("logger", logger);
    }
    check(&text, &planted, "jboss");
}

#[test]
fn a_level_column_with_words_beside_the_levels_and_a_hex_thread() {
    let mut rng = Lcg(31);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let threads = ["0xa23f2", "0x1737bc", "0x2ab626"];
    // `log show`'s layout: its `Default` and `Fault` types are words the engine has no level
    // for, beside `Info`, `Debug` and `Error`.
    let types = [
        ("Info", Some("INFO")),
        ("Debug", Some("DEBUG")),
        ("Error", Some("ERROR")),
        ("Default", None),
        ("Info", Some("INFO")),
    ];
    for i in 0..300u64 {
        let thread = threads[rng.next(3) as usize];
        let (written, level) = types[rng.next(5) as usize];
        text += &format!(
            "2026-03-14 08:{:02}:{:02}.{:06}-0700 {thread:<10} {written:<11} 0x{:x}  {:<6} 0    configd: step {i}\n",
            i / 60 % 60,
            i % 60,
            rng.next(1_000_000),
            rng.next(1 << 20),
            [121, 812][rng.next(2) as usize],
        );
        planted.events += 1;
        planted.add("thread", thread);
        if let Some(l) = level {
            planted.add("level", l);
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn a_lower_case_level_with_a_colon_after_a_component() {
    let mut rng = Lcg(37);
    let (mut text, mut planted) = (String::new(), Planted::default());
    // winston's printf layout with its npm levels: `http` and `silly` are none of the
    // engine's words.
    let levels = [
        ("info", Some("INFO")),
        ("http", None),
        ("warn", Some("WARN")),
        ("error", Some("ERROR")),
        ("info", Some("INFO")),
        ("debug", Some("DEBUG")),
    ];
    for i in 0..300u64 {
        let (written, level) = levels[rng.next(6) as usize];
        let component = ["payments", "ledger", "webhooks"][rng.next(3) as usize];
        text += &format!(
            "2026-03-12 21:{:02}:{:02}.{:03} [{component}] {written}: job {i} done\n",
            i / 60 % 60,
            i % 60,
            rng.next(1000)
        );
        planted.events += 1;
        planted.add("component", component);
        if let Some(l) = level {
            planted.add("level", l);
        }
    }
    check(&text, &planted, "learned");
}

#[test]
fn records_of_many_lines_begun_by_a_time_are_events() {
    let mut rng = Lcg(47);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let levels = [("Warning", "WARN"), ("Error", "ERROR"), ("Info", "INFO")];
    for i in 0..120u64 {
        let (written, canonical) = levels[rng.next(3) as usize];
        text += &format!(
            "2026-03-13-{:02}.{:02}.11.402118-300 I{i}E{}              LEVEL: {written}\n",
            10 + i / 60,
            i % 60,
            rng.next(900)
        );
        text += &format!(
            "PID     : {}                TID : 1402074 PROC : db2sysc 0\n",
            28000 + rng.next(3)
        );
        text += "INSTANCE: db2inst1             NODE : 000\n";
        for k in 0..(3 + rng.next(6)) {
            text +=
                &format!("DATA #{k} : String, 62 bytes\nLock timeout on SALES.ORDERS, try {k}\n");
        }
        text += "\n";
        planted.events += 1;
        planted.add("level", canonical);
    }
    check(&text, &planted, "learned");
}

#[test]
fn a_headerless_pipe_access_line_reads_its_columns_by_their_values() {
    let mut rng = Lcg(53);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let (mut bytes, mut slowest) = (0u64, 0u64);
    for i in 0..300u64 {
        let status = ["200", "204", "502", "504", "200"][rng.next(5) as usize];
        let method = ["GET", "POST"][rng.next(2) as usize];
        let n = rng.next(9000);
        let ms = 1 + rng.next(4000);
        text += &format!(
            "2028-01-17T12:{:02}:{:02}+00:00|100.65.{}.{}|{method}|riders.example|/v2/jobs/{}|{status}|{n}|{}.{:03}|-|R-{}\n",
            i / 60 % 60,
            i % 60,
            rng.next(250),
            rng.next(250),
            rng.next(99),
            ms / 1000,
            ms % 1000,
            rng.next(99999)
        );
        planted.events += 1;
        planted.add("status", status);
        planted.add("method", method);
        (bytes, slowest) = (bytes + n, slowest.max(ms));
    }
    check(&text, &planted, "learned");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Sum, "bytes"),
        bytes as f64
    );
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Max, "duration"),
        slowest as f64 / 1000.0
    );
}

#[test]
fn a_duration_in_a_few_lines_is_read_when_asked_for() {
    let mut rng = Lcg(59);
    let (mut text, mut longest, mut total) = (String::new(), 0u64, 0u64);
    for i in 0..2000u64 {
        let t = format!(
            "2029-03-14 {:02}:{:02}:{:02},{:03}",
            8 + i / 3600,
            i / 60 % 60,
            i % 60,
            rng.next(1000)
        );
        if i % 150 == 0 {
            let ms = 20_000 + rng.next(30_000);
            (longest, total) = (longest.max(ms), total + ms);
            text += &format!(
                "{t} - billing.scheduler - INFO - invoice batch finished in {}.{:03}s: ok={} failed=0\n",
                ms / 1000,
                ms % 1000,
                rng.next(90)
            );
        } else {
            text += &format!(
                "{t} - billing.api - INFO - GET /invoices/{} 200\n",
                rng.next(9999)
            );
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    // One line in 150 holds a duration: too few for the sample to show the field, but a
    // question asking for it reads it.
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Max, "duration"),
        longest as f64 / 1000.0
    );
    let sum = stat(dir.path(), "app.log", Measure::Sum, "duration");
    assert!(
        (sum - total as f64 / 1000.0).abs() < 1e-9,
        "{sum} vs {total} ms"
    );
}

#[test]
fn a_request_time_that_ends_an_access_line_is_its_duration() {
    let mut rng = Lcg(61);
    let (mut text, mut slowest, mut total) = (String::new(), 0u64, 0u64);
    for i in 0..400u64 {
        let us = 500 + rng.next(4_000_000);
        (slowest, total) = (slowest.max(us), total + us);
        text += &format!(
            "10.42.1.{} - - [17/Feb/2032:00:{:02}:{:02} +0000] \"POST /v1/refill HTTP/1.1\" 200 {} \"-\" \"bff/4.12\" {}.{:06}\n",
            rng.next(200),
            i / 60 % 60,
            i % 60,
            rng.next(9000),
            us / 1_000_000,
            us % 1_000_000
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("access.log"), &text).expect("write");
    assert_eq!(format_of(dir.path(), "access.log"), "nginx_combined");
    let max = stat(dir.path(), "access.log", Measure::Max, "duration");
    assert!((max - slowest as f64 / 1e6).abs() < 1e-9, "{max}");
    let sum = stat(dir.path(), "access.log", Measure::Sum, "duration");
    assert!((sum - total as f64 / 1e6).abs() < 1e-6, "{sum}");
}

#[test]
fn two_text_patterns_for_one_role_give_one_field() {
    let mut rng = Lcg(67);
    let mut text = String::new();
    for i in 0..200u64 {
        text += &format!(
            "2026-03-12 21:{:02}:{:02} worker done in {}ms \"GET /jobs HTTP/1.1\" 200 \"ua\" 0.{:03}\n",
            i / 60 % 60,
            i % 60,
            rng.next(900),
            rng.next(1000)
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    let q = llmops_common::query::Query::default();
    let r = super::tests_formats::run(dir.path(), "app.log", &q);
    let durations: Vec<&str> = r.sources[0]
        .fields
        .iter()
        .filter(|f| f.roles.iter().any(|x| x == "duration"))
        .map(|f| f.name.as_str())
        .collect();
    assert_eq!(durations.len(), 1, "{durations:?}");
}

#[test]
fn a_row_of_a_long_traceback_keeps_its_exception_and_its_line_count() {
    let mut text = String::new();
    for i in 0..60u64 {
        text += &format!(
            "2026-03-12 21:{:02}:{:02},000 INFO app: tick {i}\n",
            i / 60,
            i % 60
        );
    }
    text +=
        "2026-03-12 21:01:00,000 ERROR app: request failed\nTraceback (most recent call last):\n";
    for k in 0..15 {
        text += &format!("  File \"/srv/m{k}.py\", line {k}, in f\n    g()\n");
    }
    text += "ValueError: planted cause\n";
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    let q: llmops_common::query::Query = serde_json::from_value(serde_json::json!({
        "filters": [{"field": "level", "op": "eq", "value": "ERROR"}], "measure": "rows"
    }))
    .expect("query");
    let r = super::tests_formats::run(dir.path(), "app.log", &q);
    let llmops_common::query::QueryValue::Rows { rows, .. } = &r.value else {
        panic!("rows: {:?}", r.value)
    };
    // The first line, the traceback's 30 frame lines and the exception: 33 in all.
    assert_eq!(rows[0].lines, 33);
    assert!(
        rows[0].text.ends_with("ValueError: planted cause"),
        "{}",
        rows[0].text
    );
}

#[test]
fn bracketed_letters_and_three_letter_levels_with_day_first_dotted_dates() {
    let mut rng = Lcg(71);
    for (written, name) in [
        (["[I]", "[W]", "[E]"], "letters"),
        (["[INF]", "[WRN]", "[ERR]"], "three letters"),
    ] {
        let (mut text, mut planted) = (String::new(), Planted::default());
        let mut late = 0u64;
        for i in 0..300u64 {
            let k = rng.next(3) as usize;
            // Day first: the 17th of February, then the 18th.
            let day = 17 + i / 200;
            late += u64::from(day == 18);
            text += &format!(
                "{day:02}.02.2032 {:02}:{:02}:{:02}.{:03} {} arm{} : pick {i} done\n",
                i / 3600,
                i / 60 % 60,
                i % 60,
                rng.next(1000),
                written[k],
                rng.next(3)
            );
            planted.events += 1;
            planted.add("level", ["INFO", "WARN", "ERROR"][k]);
        }
        check(&text, &planted, "learned");
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("app.log"), &text).expect("write");
        // From midnight on: the 18th's events, read day first.
        let q = llmops_common::query::Query {
            window: Some(llmops_common::query::Window::Between {
                from: Some(llmops_common::query::TimePoint(
                    "2032-02-18T00:00:00".into(),
                )),
                to: None,
            }),
            ..Default::default()
        };
        let r = super::tests_formats::run(dir.path(), "app.log", &q);
        assert_eq!(r.matched, late, "{name}");
    }
}

/// A bare name before every line's time (the program or host that wrote it, as
/// update-alternatives does) is a column, and the time after it is each event's time.
#[test]
fn a_writers_name_before_the_time_is_a_column() {
    let mut rng = Lcg(11);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let writers = ["update-alternatives", "dpkg-trigger", "ucf"];
    let mut late = 0;
    for i in 0..300u64 {
        let writer = writers[rng.next(3) as usize];
        let minute = i / 10;
        if minute >= 20 {
            late += 1;
        }
        text += &format!(
            "{writer} 2025-06-24 14:{minute:02}:{:02}: run with --install /usr/bin/x{i} x{i} 50\n",
            i % 60
        );
        planted.events += 1;
        planted.add("source", writer);
    }
    check(&text, &planted, "learned");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    let q = llmops_common::query::Query {
        window: Some(llmops_common::query::Window::Between {
            from: Some(llmops_common::query::TimePoint("14:20".into())),
            to: None,
        }),
        ..llmops_common::query::Query::default()
    };
    let r = super::tests_formats::run(dir.path(), "app.log", &q);
    assert_eq!(r.matched, late);
}

/// Pairs written between the time and the level (Sidekiq's `pid=7 tid=x class=Job
/// jid=y elapsed=1.2 INFO: done`) are fields of the event, not lost before the message.
#[test]
fn pairs_before_the_level_are_fields() {
    let mut rng = Lcg(5);
    let (mut text, mut planted) = (String::new(), Planted::default());
    let classes = ["ReportMailJob", "FeedSyncJob", "BatchImportJob"];
    let (mut sum, mut done) = (0u64, 0u64);
    for i in 0..300u64 {
        let class = classes[rng.next(3) as usize];
        let ms = 100 + rng.next(900);
        let (level, tail) = if i % 3 == 0 {
            ("WARN", "retrying")
        } else {
            ("INFO", "done")
        };
        let elapsed = if tail == "done" {
            sum += ms;
            done += 1;
            format!(" elapsed={}.{:03}", ms / 1000, ms % 1000)
        } else {
            String::new()
        };
        text += &format!(
            "2032-04-22T00:{:02}:{:02}.000Z pid=7 tid=t{} class={class} jid=j{i:04}{elapsed} {level}: {tail}\n",
            i / 60,
            i % 60,
            rng.next(4)
        );
        planted.events += 1;
        planted.add("class", class);
        planted.add("level", level);
    }
    check(&text, &planted, "generic");
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), &text).expect("write");
    let mean = stat(dir.path(), "app.log", Measure::Mean, "elapsed");
    assert!(
        (mean - sum as f64 / done as f64 / 1000.0).abs() < 1e-9,
        "{mean}"
    );
    // Each job's events are their own kinds: the pairs before the level are in the
    // template, the thread id masked ("done" alone would be one kind for every job).
    let kinds = super::tests_formats::groups(dir.path(), "app.log", Vec::new(), "template");
    assert_eq!(kinds.len(), 6, "{kinds:?}");
    assert!(
        kinds
            .keys()
            .any(|k| k.contains("class=BatchImportJob jid=<id> elapsed=<num>")),
        "{kinds:?}"
    );
}

/// A zone written as a word after the time (PgBouncer's and PostgreSQL's `… 00:30:07.400
/// UTC [1021] LOG …`) belongs to the time: the columns after it are learned.
#[test]
fn a_zone_word_after_the_time_is_the_times() {
    let mut rng = Lcg(9);
    let (mut text, mut planted) = (String::new(), Planted::default());
    for i in 0..300u64 {
        let (level, canonical) =
            [("LOG", "INFO"), ("WARNING", "WARN"), ("ERROR", "ERROR")][rng.next(3) as usize];
        let user = ["booker", "webapp", "analytics"][rng.next(3) as usize];
        text += &format!(
            "2032-04-22 00:{:02}:{:02}.400 UTC [1021] {level} C-0x55d3a9e2{i:04x}: clinicdb/{user}@10.30.4.13:5{i:04} closing because: client close request (age={}s)\n",
            i / 60,
            i % 60,
            rng.next(600)
        );
        planted.events += 1;
        planted.add("level", canonical);
    }
    check(&text, &planted, "learned");
}
