//! Planted-truth checks of tables learned from a header row: a CSV export under a preamble
//! of notes with its date and time in two columns, a TSV with a level column, and a
//! blank-separated table with epoch times, queried through the engine and compared with the
//! generator's own counts.

use llmops_common::query::{Measure, Query};

use super::tests_formats::{distinct, stat, Lcg};
use super::tests_learn::{check, Planted};

/// Events within `seconds` of `at`.
fn around(dir: &std::path::Path, name: &str, at: &str, seconds: u64) -> u64 {
    let q: Query = serde_json::from_value(serde_json::json!({
        "window": {"around": {"at": at, "seconds": seconds}}
    }))
    .expect("query");
    super::tests_formats::run(dir, name, &q).matched
}

fn write(text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("app.log"), text).expect("write");
    dir
}

#[test]
fn a_csv_export_under_notes_with_date_and_time_columns() {
    let mut rng = Lcg(11);
    let mut text = String::from("\t\tMicrosoft DHCP-like Service Activity Log\n\nEvent ID  Meaning\n00\tThe log was started.\n11\tA lease was renewed.\n\n");
    text += "ID,Date,Time,Description,IP Address,Host Name,MAC Address,User Name, TransactionID\n";
    let (mut planted, mut hour13) = (Planted::default(), 0u64);
    let hosts = ["ws-01.corp.local", "ws-02.corp.local", "lab-07.corp.local"];
    for i in 0..300u64 {
        let (id, what) = [("10", "Assign"), ("11", "Renew"), ("15", "NACK")][rng.next(3) as usize];
        let host = if rng.next(4) == 0 {
            ""
        } else {
            hosts[rng.next(3) as usize]
        };
        // 12:xx, in the afternoon on the 29th, the twelve-hour mistake a reader could make.
        let (h, m, s) = (12 + i / 60, i % 60, rng.next(60));
        text += &format!(
            "{id},03/29/26,{h:02}:{m:02}:{s:02},{what},10.40.20.{},{host},F4A1B2{:06X},,{}\n",
            rng.next(50),
            rng.next(1 << 24),
            rng.next(1_000_000)
        );
        planted.events += 1;
        planted.add("Description", what);
        if !host.is_empty() {
            planted.add("Host_Name", host);
        }
        hour13 += u64::from(h == 13);
    }
    check(&text, &planted, "learned");
    let dir = write(&text);
    // 13:00:00 to 13:59:59 on the 29th: the rows of hour 13.
    assert_eq!(
        around(dir.path(), "app.log", "2026-03-29T13:30:00", 1800),
        hour13
    );
    // An empty host is no value, not a host.
    assert_eq!(
        distinct(dir.path(), "app.log", "Host_Name"),
        hosts.len() as u64
    );
}

#[test]
fn a_tsv_with_a_level_column_and_iso_times() {
    let mut rng = Lcg(5);
    let mut text = String::from("timestamp\tseverity\tservice\tlatency_ms\tmessage\n");
    let mut planted = Planted::default();
    let mut max_ms = 0u64;
    for i in 0..200u64 {
        let level = ["INFO", "WARN", "ERROR"][rng.next(3) as usize];
        let service = ["cart", "pay", "ship"][rng.next(3) as usize];
        let ms = rng.next(5000);
        max_ms = max_ms.max(ms);
        text += &format!(
            "2026-05-01T09:{:02}:{:02}Z\t{level}\t{service}\t{ms}\trequest {i} served\n",
            i / 60,
            i % 60
        );
        planted.events += 1;
        planted.add("level", level);
        planted.add("service", service);
    }
    check(&text, &planted, "learned");
    let dir = write(&text);
    // In the column's own unit, milliseconds (its name says so).
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Max, "duration"),
        max_ms as f64
    );
}

#[test]
fn a_blank_separated_table_with_epoch_times() {
    let mut rng = Lcg(3);
    let mut text =
        String::from("version account interface srcport dstport packets bytes start end action\n");
    let mut planted = Planted::default();
    let mut total = 0u64;
    for i in 0..150u64 {
        let action = ["ACCEPT", "REJECT"][rng.next(2) as usize];
        let b = rng.next(100_000);
        total += b;
        let start = 1_774_274_400 + i * 10;
        text += &format!(
            "2 1234 eni-{:04x} {} 443 {} {b} {start} {} {action}\n",
            rng.next(4),
            rng.next(60000),
            rng.next(90),
            start + 9
        );
        planted.events += 1;
        planted.add("action", action);
    }
    check(&text, &planted, "learned");
    let dir = write(&text);
    assert_eq!(
        stat(dir.path(), "app.log", Measure::Sum, "bytes"),
        total as f64
    );
    // 1774274400 is 2026-03-23T14:00:00Z; rows come every 10 s, so 95 s either side holds
    // the first ten.
    assert_eq!(
        around(dir.path(), "app.log", "2026-03-23T14:00:00Z", 95),
        10
    );
}

#[test]
fn prose_and_a_list_are_no_table() {
    let mut text = String::from("Name Age City Country Job\n");
    for i in 0..20 {
        text += &format!("We met person number {i} in town\n");
    }
    assert!(
        super::learn_table::learn_table(&text.lines().map(str::as_bytes).collect::<Vec<_>>())
            .is_none()
    );
}

#[test]
fn day_first_dates_and_an_id_of_ten_digits() {
    // The id column reads as epoch seconds; the date and clock columns are the time.
    let mut text = String::from("RecordId;Datum;Zeit;Benutzer;Aktion\n");
    let mut planted = Planted::default();
    for i in 0..120u64 {
        let user = ["anna", "ben", "carla"][(i % 3) as usize];
        text += &format!(
            "{};{:02}/11/2026;{:02}:{:02}:00;{user};login\n",
            1_774_274_400 + i * 7,
            1 + i / 5,
            i % 24,
            i % 60
        );
        planted.events += 1;
        planted.add("Benutzer", user);
    }
    check(&text, &planted, "learned");
    let dir = write(&text);
    // Day first (a first number above 12): the 24th of November holds rows 115 to 119.
    assert_eq!(
        around(dir.path(), "app.log", "2026-11-24T12:00:00", 43_200),
        5
    );
}

#[test]
fn key_number_pairs_in_messages_agree_with_their_shell_pipeline() {
    // `status: N len: N` in the message; a `duration: N ms` beside them is no pair.
    let mut rng = Lcg(23);
    let mut text = String::new();
    let (mut not_found, mut len_sum, mut bare_waits, mut max_ms) = (0u64, 0u64, 0u64, 0u64);
    for i in 0..200u64 {
        let status = [200, 404, 500][rng.next(3) as usize];
        let len = rng.next(5000);
        not_found += u64::from(status == 404);
        len_sum += len;
        // `wait: N` is a pair; one time in four it is `wait: N ms`, no pair in that event.
        let wait = rng.next(90);
        let unit = if i % 4 == 0 { " ms" } else { "" };
        bare_waits += if unit.is_empty() { wait } else { 0 };
        let ms = rng.next(900);
        max_ms = max_ms.max(ms);
        text += &format!(
            "2026-05-01 10:{:02}:{:02},000 INFO [main] app.Server - request {i} status: {status} len: {len} wait: {wait}{unit} duration: {ms} ms\n",
            i / 60,
            i % 60,
        );
    }
    let dir = write(&text);
    let files = vec![super::QueryFile::new("app.log", dir.path().join("app.log"))];
    let stop = std::sync::atomic::AtomicBool::new(false);
    let try_run = |q: serde_json::Value| {
        let q: Query = serde_json::from_value(q).expect("query");
        super::run_query(&files, &q, &super::QueryOptions::default(), &stop)
    };
    let run = |q: serde_json::Value| try_run(q).expect("query");
    let shell = |r: &llmops_common::query::QueryResult| {
        let p = r.pipeline.as_deref().expect("a pipeline");
        super::tests_formats::shell_output(dir.path(), p)
            .parse::<f64>()
            .expect(p)
    };
    let r = run(serde_json::json!({"filters": [{"field": "status", "op": "eq", "value": 404}]}));
    assert_eq!(r.matched, not_found);
    assert_eq!(shell(&r), not_found as f64);
    let r = run(serde_json::json!({"measure": "sum", "field": "len"}));
    match &r.value {
        llmops_common::query::QueryValue::Stat { value, .. } => {
            assert_eq!(*value, Some(len_sum as f64));
        }
        v => panic!("a sum: {v:?}"),
    }
    assert_eq!(shell(&r), len_sum as f64);
    let r = run(serde_json::json!({"measure": "sum", "field": "wait"}));
    match &r.value {
        llmops_common::query::QueryValue::Stat { value, .. } => {
            assert_eq!(*value, Some(bare_waits as f64));
        }
        v => panic!("a sum: {v:?}"),
    }
    assert_eq!(shell(&r), bare_waits as f64);
    // `duration: 12 ms` is no pair (its number alone would read as seconds): it is the
    // duration written with its unit, read in milliseconds.
    let r = run(serde_json::json!({"measure": "max", "field": "duration"}));
    match &r.value {
        llmops_common::query::QueryValue::Stat { value, .. } => {
            assert_eq!(*value, Some(max_ms as f64 / 1000.0));
        }
        v => panic!("a max: {v:?}"),
    }
    assert_eq!(shell(&r), max_ms as f64 / 1000.0);
}

#[test]
fn an_event_viewer_csv_with_an_unnamed_message_over_several_lines() {
    let mut rng = Lcg(23);
    let mut text = String::from("Level,Date and Time,Source,Event ID,Task Category\r\n");
    let mut planted = Planted::default();
    let sources = ["Service Control Manager", "Schannel", "NETLOGON", "disk"];
    let (mut spanning, mut with_comma) = (0u64, 0u64);
    for i in 0..240u64 {
        let (written, canonical) = [
            ("Information", "INFO"),
            ("Warning", "WARN"),
            ("Error", "ERROR"),
        ][rng.next(3) as usize];
        let source = sources[rng.next(4) as usize];
        // Newest first, as the viewer saves them; a twelve-hour clock.
        let (h, m) = (11 - i / 60 % 12, 59 - i % 60);
        let message = match rng.next(4) {
            0 => {
                spanning += 1;
                format!("\"The service entered a state.\r\n\r\nADDITIONAL INFO\r\nrecord {i}\"")
            }
            1 => {
                with_comma += 1;
                format!("\"A fatal alert was generated, code {}.\"", rng.next(100))
            }
            _ => format!("The operation completed in {} ms.", rng.next(900)),
        };
        text += &format!(
            "{written},3/11/2026 {h}:{m:02}:{:02} AM,{source},{},None,{message}\r\n",
            rng.next(60),
            7000 + rng.next(40)
        );
        planted.events += 1;
        planted.add("level", canonical);
        planted.add("Source", source);
    }
    assert!(
        spanning > 10 && with_comma > 10,
        "the generator plants both"
    );
    check(&text, &planted, "learned");
    let dir = write(&text);
    assert_eq!(
        distinct(dir.path(), "app.log", "Source"),
        sources.len() as u64
    );
    // The message is the unnamed last value, commas and line breaks inside quotes included.
    let q: Query = serde_json::from_value(serde_json::json!({
        "filters": [{"field": "message", "op": "contains", "value": "ADDITIONAL INFO"}]
    }))
    .expect("query");
    let got = super::tests_formats::run(dir.path(), "app.log", &q).matched;
    assert_eq!(got, spanning);
}

#[test]
fn a_column_quoted_only_where_a_value_needs_it_reads_every_value() {
    // A CSV writer's minimal quoting: a value with the separator or a quote is quoted, the
    // rest are bare.
    let mut rng = Lcg(17);
    let users = ["ana", "o'neil, j.", "bo \"bob\" li", "chen"];
    let mut text = String::from("timestamp,level,user,message\n");
    let mut by_user = std::collections::BTreeMap::<String, u64>::new();
    for i in 0..400u64 {
        let user = users[rng.next(4) as usize];
        *by_user.entry(user.to_string()).or_default() += 1;
        let cell = if user.contains([',', '"']) {
            format!("\"{}\"", user.replace('"', "\"\""))
        } else {
            user.to_string()
        };
        text += &format!(
            "2026-03-14T08:{:02}:{:02}Z,INFO,{cell},login ok\n",
            (i / 60) % 60,
            i % 60
        );
    }
    let dir = write(&text);
    let q = Query {
        group_by: vec![llmops_common::query::Field::new("user")],
        ..Query::default()
    };
    let r = super::tests_formats::run(dir.path(), "app.log", &q);
    let llmops_common::query::QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    let got: std::collections::BTreeMap<String, u64> =
        rows.iter().map(|g| (g.key[0].clone(), g.count)).collect();
    assert_eq!(got, by_user);
    // The Perl check reads the quoted ones alike.
    let q = Query {
        filters: vec![llmops_common::query::Filter::new(
            Some(llmops_common::query::Field::new("user")),
            llmops_common::query::FilterOp::Eq,
            llmops_common::query::Scalar::Text("bo \"bob\" li".into()),
        )],
        ..Query::default()
    };
    let r = super::tests_formats::run(dir.path(), "app.log", &q);
    assert_eq!(r.matched, by_user["bo \"bob\" li"]);
    let perl = r.pipeline.as_deref().expect("a Perl check");
    assert_eq!(
        super::tests_formats::shell_output(dir.path(), perl),
        by_user["bo \"bob\" li"].to_string(),
        "{perl}"
    );
}

/// A flow log's `log-status` (`OK`, `NODATA`) is a status by its name's last word only, and
/// holds words: no HTTP status a "5xx" question could read.
#[test]
fn a_status_of_words_read_from_a_names_last_word_is_no_http_status() {
    let mut text = String::from(
        "version account-id srcaddr dstaddr packets bytes start end action log-status\n",
    );
    for i in 0..60u64 {
        let status = if i % 5 == 0 { "NODATA" } else { "OK" };
        let start = 1_900_000_000 + i * 60;
        text += &format!(
            "2 123456789012 10.0.0.{i} 10.0.1.9 {} {} {start} {} ACCEPT {status}\n",
            3 + i,
            200 + i,
            start + 60
        );
    }
    let dir = write(&text);
    let r = super::tests_formats::run(dir.path(), "app.log", &Query::default());
    let field = r.sources[0]
        .fields
        .iter()
        .find(|f| f.name.replace('-', "_") == "log_status")
        .expect("the log status column");
    assert!(field.roles.is_empty(), "{:?}", field.roles);
}

/// Event Viewer's CSV export: CRLF lines, a description in quotes over dozens of lines, so
/// the sampled head holds a handful of records and cuts the last; still a table of records.
#[test]
fn an_event_viewer_csv_whose_descriptions_run_over_many_lines() {
    let mut rng = Lcg(67);
    let mut text = String::from("Keywords,Date and Time,Source,Event ID,Task Category\r\n");
    let (mut failed, mut events) = (0u64, 0u64);
    for i in 0..120u32 {
        let (keywords, id, task) = if rng.next(3) == 0 {
            failed += 1;
            ("Audit Failure", 4625, "Logon")
        } else {
            ("Audit Success", 4624, "Logon")
        };
        events += 1;
        text += &format!(
            "{keywords},9/16/2031 {}:{:02}:{:02} AM,Microsoft-Windows-Security-Auditing,{id},{task},\"An account logon was attempted.\r\n\r\nSubject:\r\n",
            1 + i / 60,
            i % 60,
            rng.next(60)
        );
        for k in 0..30 {
            text += &format!("\tDetail {k}:\t\tvalue-{}\r\n", rng.next(1000));
        }
        text += "\r\nThis event is generated when a logon is attempted.\"\r\n";
    }
    let dir = write(&text);
    let r = super::tests_formats::run(dir.path(), "app.log", &Query::default());
    assert_eq!(r.sources[0].format, "learned");
    assert_eq!(r.matched, events);
    let q: Query = serde_json::from_value(serde_json::json!({
        "filters": [{"field": "Event_ID", "op": "eq", "value": 4625}]
    }))
    .expect("query");
    assert_eq!(
        super::tests_formats::run(dir.path(), "app.log", &q).matched,
        failed
    );
}
