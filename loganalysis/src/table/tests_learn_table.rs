//! Planted-truth checks of tables learned from a header row: a CSV export under a preamble
//! of notes with its date and time in two columns, a TSV with a level column, and a
//! blank-separated table with epoch times, queried through the engine and compared with the
//! generator's own counts.

use llmops_common::query::{Measure, Query};

use super::tests_formats::{count, stat, Lcg};
use super::tests_learn::{check, Planted};

/// Events within `seconds` of `at`.
fn around(dir: &std::path::Path, name: &str, at: &str, seconds: u64) -> u64 {
    let q: Query = serde_json::from_value(serde_json::json!({
        "window": {"around": {"at": at, "seconds": seconds}}
    }))
    .expect("query");
    let files = vec![super::QueryFile::new(name, dir.join(name))];
    let stop = std::sync::atomic::AtomicBool::new(false);
    super::run_query(&files, &q, &super::QueryOptions::default(), &stop)
        .expect("query")
        .matched
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
    let (mut planted, mut bytes_rows) = (Planted::default(), 0u64);
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
        bytes_rows += u64::from(h == 13);
    }
    check(&text, &planted, "learned");
    let dir = write(&text);
    // 13:00:00 to 13:59:59 on the 29th: the rows of hour 13.
    assert_eq!(
        around(dir.path(), "app.log", "2026-03-29T13:30:00", 1800),
        bytes_rows
    );
    // An empty host is no value, not a host.
    let hosted: u64 = hosts
        .iter()
        .map(|h| {
            count(
                dir.path(),
                "app.log",
                vec![super::tests_formats::eq("Host_Name", h)],
            )
        })
        .sum();
    assert_eq!(
        count(dir.path(), "app.log", Vec::new()),
        planted.events,
        "the notes and the header are not events"
    );
    assert!(hosted < planted.events);
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
    // 1774274400 is 2026-03-23T14:00:00Z: the first ten rows lie within 45 s after it.
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
