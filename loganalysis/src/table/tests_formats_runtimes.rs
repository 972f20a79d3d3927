//! The default loggers of language runtimes (.NET's console and Serilog's CLEF,
//! java.util.logging, the JVM's GC log, a service's JSON stdout, layouts that write the time
//! of day alone), planted event by event: levels, exceptions, times and the figures in
//! messages match the planted ones, each event read with its following lines.

use std::collections::BTreeMap;

use llmops_common::query::{
    Field, Filter, FilterOp, Measure, Order, Query, QueryValue, Scalar, TimePoint, Window,
};

use super::tests_formats::{
    count, eq, format_of, groups, nearest_rank, run, shell_output, stat, Lcg,
};

#[test]
fn dotnet_console_events_span_their_indented_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "intake.log";
    let levels = ["info", "info", "info", "dbug", "warn", "fail", "crit"];
    let exceptions = ["System.TimeoutException", "Npgsql.NpgsqlException"];
    let mut rng = Lcg(19);
    let mut text = String::new();
    let (mut failed, mut by_exception, mut took) = (0u64, BTreeMap::new(), Vec::new());
    for i in 0..500u32 {
        let level = levels[rng.next(7) as usize];
        let ms = 3 + rng.next(2000);
        let clock = format!("2031-08-03 04:{:02}:{:02}", i / 60 % 60, i % 60);
        if level == "fail" || level == "crit" {
            failed += 1;
            let ex = exceptions[rng.next(2) as usize];
            *by_exception.entry(ex.to_string()).or_insert(0u64) += 1;
            text.push_str(&format!(
                "{clock} {level}: Intake.Api.Store[1002]\n      Storing batch B-{i} failed\n      {ex}: Timed out after {ms} ms\n         at Intake.Api.Store.Save(Batch b) in /src/Store.cs:line 41\n         at Intake.Api.Worker.Run() in /src/Worker.cs:line 12\n"
            ));
        } else {
            took.push(ms as f64);
            text.push_str(&format!(
                "{clock} {level}: Intake.Api.Worker[1001]\n      Stored batch B-{i} took={ms} ms\n"
            ));
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "dotnet_console");
    let errors =
        count(d, name, vec![eq("level", "ERROR")]) + count(d, name, vec![eq("level", "CRITICAL")]);
    assert_eq!(errors, failed);
    assert_eq!(groups(d, name, Vec::new(), "exception"), by_exception);
    let mean = took.iter().sum::<f64>() / took.len() as f64;
    // In the unit the log writes after the number.
    let got = stat(d, name, Measure::Mean, "took");
    assert!((got - mean).abs() < 1e-9, "{got} vs {mean} ms");
}

#[test]
fn java_util_logging_records_are_two_lines_and_a_trace() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "router.log";
    let levels = ["INFO", "INFO", "WARNING", "SEVERE", "FINE"];
    let mut rng = Lcg(23);
    let mut text = String::new();
    let (mut severe, mut by_exception, mut took, mut line) = (0u64, BTreeMap::new(), Vec::new(), 1);
    let mut last_line = 0;
    // 11:00 AM to 1:xx PM: the clock passes noon, where 12 PM is 12:00 and 1 PM is 13:00.
    for i in 0..400u32 {
        let minute = 660 + i / 2;
        let (h24, m) = (minute / 60, minute % 60);
        let (h12, ampm) = match h24 {
            0 => (12, "AM"),
            12 => (12, "PM"),
            h if h > 12 => (h - 12, "PM"),
            h => (h, "AM"),
        };
        let level = levels[rng.next(5) as usize];
        let ms = 5 + rng.next(3000);
        last_line = line;
        text.push_str(&format!(
            "Mar 04, 2031 {h12}:{m:02}:{:02} {ampm} com.acme.router.Dispatcher dispatch\n{level}: Dispatched job J-{i} in {ms} ms\n",
            i % 2 * 30
        ));
        took.push(ms as f64);
        line += 2;
        if level == "SEVERE" {
            severe += 1;
            let ex = [
                "java.net.SocketTimeoutException",
                "java.sql.SQLTransientConnectionException",
            ][rng.next(2) as usize];
            *by_exception.entry(ex.to_string()).or_insert(0u64) += 1;
            text.push_str(&format!(
                "{ex}: timed out\n\tat com.acme.router.Dispatcher.dispatch(Dispatcher.java:88)\n"
            ));
            line += 2;
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "java_util_logging");
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), severe);
    assert_eq!(groups(d, name, Vec::new(), "exception"), by_exception);
    let mean = took.iter().sum::<f64>() / took.len() as f64;
    // "in N ms" in a message is a time taken, read in seconds.
    let got = stat(d, name, Measure::Mean, "took");
    assert!((got - mean / 1000.0).abs() < 1e-9, "{got} s vs {mean} ms");
    // The latest record is the last one planted: 1:19:30 PM is after 12:59 PM and 11 AM.
    let latest = run(
        d,
        name,
        &Query {
            measure: Measure::Rows,
            field: Some(Field::new("time")),
            order: Order::Desc,
            limit: Some(1),
            ..Query::default()
        },
    );
    let QueryValue::Rows { rows, .. } = latest.value else {
        panic!("rows: {:?}", latest.value);
    };
    assert_eq!(rows.first().map(|r| r.line), Some(last_line));
}

#[test]
fn clef_events_without_a_level_are_information() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "payments.clef";
    let mut rng = Lcg(31);
    let (mut text, mut info, mut errors) = (String::new(), 0u64, 0u64);
    for i in 0..300u32 {
        let level = match rng.next(5) {
            0 => {
                errors += 1;
                r#","@l":"Error""#
            }
            1 => r#","@l":"Warning""#,
            _ => {
                info += 1;
                ""
            }
        };
        text.push_str(&format!(
            "{{\"@t\":\"2031-05-01T02:{:02}:{:02}Z\",\"@mt\":\"Charged {{CardId}}\",\"CardId\":\"C{i}\"{level}}}\n",
            i / 60,
            i % 60
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    let r = run(
        d,
        name,
        &Query {
            filters: vec![eq("level", "INFO")],
            ..Query::default()
        },
    );
    assert!(
        matches!(r.value, QueryValue::Count { count } if count == info),
        "{:?}",
        r.value
    );
    // The shell equivalent shown beside the answer counts the same.
    let shown = r.pipeline.as_deref().expect("a jq equivalent");
    assert_eq!(
        super::tests_formats::shell_output(d, shown),
        info.to_string()
    );
    assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors);
}

/// pino-http's request lines and a logfmt twin: `req.url` / `path=` carry query strings;
/// grouped, a path is one group whatever its query, in the engine and its shell
/// equivalent.
#[test]
fn a_request_path_key_groups_without_its_query_string() {
    let dir = tempfile::tempdir().expect("tempdir");
    let paths = ["/api/v1/quote", "/api/v1/orders", "/healthz"];
    let mut rng = Lcg(53);
    let (mut json, mut logfmt, mut fives) = (String::new(), String::new(), BTreeMap::new());
    for i in 0..400u32 {
        let path = paths[rng.next(3) as usize];
        let status = [200, 200, 404, 500, 503][rng.next(5) as usize];
        if status >= 500 {
            *fives.entry(path.to_string()).or_insert(0u64) += 1;
        }
        let url = if path == "/healthz" {
            path.to_string()
        } else {
            format!("{path}?id={i}&v=2")
        };
        json.push_str(&format!(
            "{{\"level\":30,\"time\":{},\"req\":{{\"method\":\"GET\",\"url\":\"{url}\"}},\"res\":{{\"statusCode\":{status}}},\"responseTime\":{},\"msg\":\"request completed\"}}\n",
            1_900_000_000_000u64 + u64::from(i) * 1000,
            1 + i % 90
        ));
        logfmt.push_str(&format!(
            "time=2031-05-01T02:{:02}:{:02}Z level=info msg=\"request completed\" method=GET path=\"{url}\" status={status} duration_ms={}\n",
            i / 60,
            i % 60,
            1 + i % 90
        ));
    }
    for (name, text) in [("api.log", &json), ("api-logfmt.log", &logfmt)] {
        std::fs::write(dir.path().join(name), text).expect("write");
        let d = dir.path();
        let five = vec![super::tests_formats::class("status", 5.0)];
        assert_eq!(groups(d, name, five.clone(), "endpoint"), fives, "{name}");
        let r = run(
            d,
            name,
            &Query {
                filters: five,
                group_by: vec![Field::new("endpoint")],
                ..Query::default()
            },
        );
        assert!(
            r.notes.iter().any(|n| n.contains("query string")),
            "{name}: {:?}",
            r.notes
        );
        // The shell equivalent shown beside the answer groups the same way.
        let shown = r.pipeline.as_deref().expect("a shell equivalent");
        let out = super::tests_formats::shell_output(d, shown);
        for (path, n) in &fives {
            assert!(
                out.lines().any(|l| l.trim() == format!("{n} {path}")),
                "{name}: {path} {n} in\n{out}"
            );
        }
    }
}

/// Keys that hold dots themselves: ECS's top-level `"log.level"` beside nested objects, and
/// Cloud Logging's `"logging.googleapis.com/labels"` object; each is read whole, in the
/// engine and its jq equivalent.
#[test]
fn keys_with_dots_in_them_are_read_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "planner.json";
    let mut rng = Lcg(59);
    let (mut text, mut errors_by_depot) = (String::new(), BTreeMap::new());
    for i in 0..300u32 {
        let depot = ["D1", "D4", "D9"][rng.next(3) as usize];
        let error = rng.next(4) == 0;
        if error {
            *errors_by_depot.entry(depot.to_string()).or_insert(0u64) += 1;
        }
        text.push_str(&format!(
            "{{\"time\":\"2031-05-01T02:{:02}:{:02}Z\",\"log.level\":\"{}\",\"log\":{{\"logger\":\"planner.api\"}},\"message\":\"route {i}\",\"logging.googleapis.com/labels\":{{\"depot\":\"{depot}\"}}}}\n",
            i / 60,
            i % 60,
            if error { "error" } else { "info" },
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    let errors = vec![eq("log.level", "error")];
    let key = "logging.googleapis.com/labels.depot";
    assert_eq!(groups(d, name, errors.clone(), key), errors_by_depot);
    let r = run(
        d,
        name,
        &Query {
            filters: errors,
            group_by: vec![Field::new(key)],
            ..Query::default()
        },
    );
    let shown = r.pipeline.as_deref().expect("a jq equivalent");
    let out = super::tests_formats::shell_output(d, shown);
    for (depot, n) in &errors_by_depot {
        assert!(
            out.lines().any(|l| l.trim() == format!("{n} {depot}")),
            "{depot} {n} in\n{out}"
        );
    }
}

/// A pause's summary line gives its length; the phases listed under it, in the same units,
/// are no pauses of their own.
#[test]
fn jvm_gc_pauses_are_read_from_their_summary_lines() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "gc.log";
    let mut rng = Lcg(67);
    let mut text = String::from(
        "[2031-06-03T02:00:00.004+0000][info][gc,init] Version: 17.0.11+9 (release)\n",
    );
    let (mut pauses, mut warnings) = (Vec::new(), 0u64);
    for id in 0..200u32 {
        let t = format!(
            "2031-06-03T02:{:02}:{:02}.{:03}+0000",
            id / 60 % 60,
            id % 60,
            rng.next(1000)
        );
        let ms = (100 + rng.next(480_000)) as f64 / 1000.0;
        pauses.push(ms);
        let kind = if id % 97 == 3 {
            "Full (G1 Compaction Pause)"
        } else if id % 50 == 7 {
            "Remark"
        } else {
            "Young (Normal) (G1 Evacuation Pause)"
        };
        text += &format!("[{t}][info][gc,start    ] GC({id}) Pause {kind}\n");
        text += &format!(
            "[{t}][info][gc,phases   ] GC({id})   Evacuate Collection Set: {:.1}ms\n",
            ms / 2.0
        );
        text += &format!(
            "[{t}][info][gc          ] GC({id}) Pause {kind} 200M->80M(1024M) {ms:.3}ms\n"
        );
        if id % 40 == 9 {
            warnings += 1;
            text += &format!("[{t}][warning][gc,alloc    ] GC({id}) To-space exhausted\n");
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "jvm_gc");
    let max = pauses.iter().cloned().fold(0.0, f64::max);
    assert_eq!(
        stat(d, name, Measure::Max, "pause"),
        (max * 1000.0).round() / 1000.0
    );
    assert_eq!(count(d, name, vec![eq("level", "WARN")]), warnings);
    assert_eq!(
        super::tests_formats::distinct(d, name, "gc_id"),
        200,
        "one id per collection"
    );
}

/// Serilog's request logging in CLEF states its unit in the template (`in {Elapsed:0.0000}
/// ms`, `({elapsed}ms)`): those numbers are milliseconds, not the seconds a bare `elapsed`
/// would be.
#[test]
fn a_clef_property_has_the_unit_its_template_states() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "api.clef";
    let mut rng = Lcg(73);
    let mut text = String::new();
    let (mut elapsed, mut db) = (Vec::new(), Vec::new());
    for i in 0..300u32 {
        let t = format!("2031-09-16T01:{:02}:{:02}.1234567Z", i / 60, i % 60);
        if i % 4 == 0 {
            let ms = rng.next(40) + 1;
            db.push(ms as f64);
            text += &format!("{{\"@t\":\"{t}\",\"@mt\":\"Executed DbCommand ({{elapsed}}ms)\",\"elapsed\":{ms}}}\n");
            continue;
        }
        let ms = (rng.next(3_000_000) as f64) / 10_000.0;
        elapsed.push(ms);
        text += &format!("{{\"@t\":\"{t}\",\"@mt\":\"HTTP {{RequestMethod}} {{RequestPath}} responded {{StatusCode}} in {{Elapsed:0.0000}} ms\",\"RequestMethod\":\"GET\",\"RequestPath\":\"/orders/{i}\",\"StatusCode\":200,\"Elapsed\":{ms:.4}}}\n");
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    let q = Query {
        measure: Measure::Max,
        field: Some(Field::new("Elapsed")),
        ..Query::default()
    };
    match run(d, name, &q).value {
        QueryValue::Stat { value, unit, .. } => {
            let max = elapsed.iter().cloned().fold(0.0, f64::max);
            assert!((value.expect("a max") - max).abs() < 1e-9);
            assert_eq!(unit, llmops_common::query::Unit::Ms);
        }
        v => panic!("{v:?}"),
    }
    // The command's `elapsed` is its own field, with its own figures.
    assert_eq!(
        stat(d, name, Measure::Max, "elapsed"),
        db.iter().cloned().fold(0.0, f64::max)
    );
}

/// What else a service's stdout holds after its `i`th JSON line: a Go panic, a Node
/// warning, a start script's timed line (each an event of its own, with its lines).
fn another_write(i: u32) -> Option<String> {
    let clock = format!("05:{:02}:{:02}", i / 60 % 60, i % 60);
    Some(match i % 50 {
        7 => "panic: runtime error: invalid memory address\n\ngoroutine 9 [running]:\nmain.serve(0x0)\n\t/app/main.go:41 +0x1d\n".to_string(),
        19 => "(node:311) Warning: Possible EventEmitter memory leak detected.\n(Use `node --trace-warnings ...` to show where the warning was created)\n".to_string(),
        33 => format!("2031-08-03 {clock} restarting worker\n"),
        _ => return None,
    })
}

/// JSON lines as a service's stdout holds them: a banner before the first event, Go panics
/// and Node warnings written raw between events (each an event with its lines), a start
/// script's timed lines.
#[test]
fn json_lines_read_raw_panics_and_warnings_as_events_and_leave_out_the_banner() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "svc.log";
    let mut rng = Lcg(41);
    let mut text = String::from("  .   ____          _\n :: Spring Boot ::   (v3.2.0)\n\n");
    let (mut events, mut errors, mut panics, mut durs) = (0u64, 0u64, 0u64, Vec::new());
    let mut users = std::collections::BTreeSet::new();
    for i in 0..400u32 {
        let level = ["info", "info", "warn", "error"][rng.next(4) as usize];
        let ms = 1 + rng.next(900);
        let user = format!("u{}", rng.next(37));
        text.push_str(&format!(
            "{{\"time\":\"2031-08-03T05:{:02}:{:02}Z\",\"level\":\"{level}\",\"msg\":\"served\",\"user\":\"{user}\",\"duration_ms\":{ms}}}\n",
            i / 60 % 60,
            i % 60
        ));
        events += 1;
        errors += u64::from(level == "error");
        durs.push(ms as f64);
        users.insert(user);
        if let Some(other) = another_write(i) {
            events += 1;
            panics += u64::from(other.starts_with("panic:"));
            text.push_str(&other);
        }
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "json_lines");
    let checked = |q: Query, want: f64| {
        let r = run(d, name, &q);
        let got = match r.value {
            QueryValue::Count { count } | QueryValue::Distinct { count } => count as f64,
            QueryValue::Stat { value, .. } => value.expect("a value"),
            ref v => panic!("{v:?}"),
        };
        assert_eq!(got, want, "{q:?}");
        let p = r.pipeline.expect("a jq pipeline");
        assert_eq!(shell_output(d, &p).parse::<f64>().ok(), Some(want), "{p}");
    };
    checked(Query::default(), events as f64);
    checked(
        Query {
            filters: vec![eq("level", "ERROR")],
            ..Query::default()
        },
        errors as f64,
    );
    // A panic's lines are its event's: it is found by its goroutine line.
    let panic = Filter::new(None, FilterOp::Contains, Scalar::Text("goroutine".into()));
    checked(
        Query {
            filters: vec![panic],
            ..Query::default()
        },
        panics as f64,
    );
    checked(
        Query {
            measure: Measure::CountDistinct,
            field: Some(Field::new("user")),
            ..Query::default()
        },
        users.len() as f64,
    );
    checked(
        Query {
            measure: Measure::P95,
            field: Some(Field::new("duration_ms")),
            ..Query::default()
        },
        nearest_rank(&durs, 95.0),
    );
}

/// The two logs of [`a_time_of_day_alone_is_read_as_one_days_clock`] and what they hold:
/// errors, events from 10:05 to 10:10, errors per minute and the first error's time.
struct ClockLogs {
    logback: String,
    elixir: String,
    errors: u64,
    window: u64,
    per_minute: BTreeMap<String, u64>,
    first_error: Option<String>,
}

fn clock_logs() -> ClockLogs {
    let mut rng = Lcg(53);
    let (mut logback, mut elixir) = (String::new(), String::new());
    let (mut errors, mut window, mut per_minute) = (0u64, 0u64, BTreeMap::new());
    let mut first_error = None;
    let mut sec = 9 * 3600 + 58 * 60;
    for i in 0..600u32 {
        sec += rng.next(4);
        let clock = format!("{:02}:{:02}:{:02}", sec / 3600, sec / 60 % 60, sec % 60);
        let stamp = format!("{clock}.{:03}", rng.next(1000));
        let error = rng.next(9) == 0;
        let level = if error { "ERROR" } else { "INFO " };
        logback.push_str(&format!(
            "{stamp} [exec-{}] {level} c.e.Orders - order {i} handled\n",
            rng.next(4)
        ));
        if error {
            errors += 1;
            first_error.get_or_insert_with(|| stamp.clone());
            *per_minute.entry(clock[..5].to_string()).or_insert(0u64) += 1;
            logback.push_str(
                "java.lang.IllegalStateException: stock\n\tat c.e.Orders.take(Orders.java:7)\n",
            );
        }
        window += u64::from(("10:05:00".."10:11:00").contains(&clock.as_str()));
        let lvl = if error { "error" } else { "info" };
        elixir.push_str(&format!(
            "\n{stamp} request_id=F{i} [{lvl}] Sent 200 in {}ms\n",
            1 + rng.next(90)
        ));
    }
    ClockLogs {
        logback,
        elixir,
        errors,
        window,
        per_minute,
        first_error,
    }
}

/// Logs that write the time of day alone: logback's default console layout (`HH:mm:ss.SSS
/// [thread] LEVEL logger - msg`, traces under their line) and Elixir Logger's default
/// (`$time $metadata[$level] $message`, a blank line before each event).
#[test]
fn a_time_of_day_alone_is_read_as_one_days_clock() {
    let dir = tempfile::tempdir().expect("tempdir");
    let ClockLogs {
        logback,
        elixir,
        errors,
        window,
        per_minute,
        first_error,
    } = clock_logs();
    let d = dir.path();
    std::fs::write(d.join("orders.log"), &logback).expect("write");
    std::fs::write(d.join("phx.log"), &elixir).expect("write");
    let between = |from: &str, to: &str| Query {
        window: Some(Window::Between {
            from: Some(TimePoint(from.into())),
            to: Some(TimePoint(to.into())),
        }),
        ..Query::default()
    };
    for name in ["orders.log", "phx.log"] {
        let r = run(d, name, &between("10:05", "10:10"));
        assert_eq!(r.value, QueryValue::Count { count: window }, "{name}");
        assert!(
            r.notes.iter().any(|n| n.contains("time of day only")),
            "{name}: {:?}",
            r.notes
        );
        let p = r.pipeline.expect("a Perl check");
        assert_eq!(shell_output(d, &p), window.to_string(), "{name}: {p}");
        assert_eq!(count(d, name, vec![eq("level", "ERROR")]), errors, "{name}");
    }
    // The first error's time, as the log writes it, and the peak minute of errors.
    let rows = Query {
        measure: Measure::Rows,
        filters: vec![eq("level", "ERROR")],
        limit: Some(1),
        ..Query::default()
    };
    match run(d, "orders.log", &rows).value {
        QueryValue::Rows { rows, .. } => {
            assert_eq!(rows[0].time.as_deref(), first_error.as_deref());
            assert_eq!(rows[0].lines, 3, "the trace is the event's");
        }
        v => panic!("rows: {v:?}"),
    }
    let buckets = Query {
        measure: Measure::Buckets,
        filters: vec![eq("level", "ERROR")],
        ..Query::default()
    };
    let (peak_minute, peak) = per_minute
        .iter()
        .max_by_key(|(m, n)| (**n, std::cmp::Reverse(m.to_string())))
        .map(|(m, n)| (m.clone(), *n))
        .expect("errors");
    match run(d, "orders.log", &buckets).value {
        QueryValue::Buckets { peak: Some(p), .. } => {
            assert_eq!((p.start, p.count), (peak_minute, peak));
        }
        v => panic!("buckets: {v:?}"),
    }
}

/// A JSON line with a byte that is no UTF-8 (a Latin-1 name written raw) is still an event
/// of its own, not a line of the event above it.
#[test]
fn a_json_line_with_a_stray_byte_is_an_event_of_its_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut text: Vec<u8> = Vec::new();
    for i in 0..50u32 {
        text.extend_from_slice(
            format!("{{\"time\":\"2031-08-03T05:00:{i:02}Z\",\"level\":\"info\",\"user\":\"")
                .as_bytes(),
        );
        if i % 10 == 3 {
            text.extend_from_slice(b"Jos\xe9");
        } else {
            text.extend_from_slice(b"ana");
        }
        text.extend_from_slice(b"\"}\n");
    }
    std::fs::write(dir.path().join("u.json"), &text).expect("write");
    assert_eq!(count(dir.path(), "u.json", Vec::new()), 50);
}
