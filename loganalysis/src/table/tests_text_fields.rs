//! Fields read from an event's text, checked against planted values: Apache's `%D` after
//! the user agent, a user named in quotes, and the key fields a superlative's row carries.

use std::collections::BTreeMap;

use llmops_common::query::{Field, Measure, Query, QueryValue};

use super::tests_formats::{format_of, groups, run, stat, Lcg};

/// Apache's combined format with `%D` appended: the whole number is microseconds.
#[test]
fn a_whole_number_that_ends_an_access_line_is_microseconds() {
    let mut rng = Lcg(71);
    let (mut text, mut slowest, mut total) = (String::new(), 0u64, 0u64);
    for i in 0..300u64 {
        let us = 200 + rng.next(9_000_000);
        (slowest, total) = (slowest.max(us), total + us);
        text += &format!(
            "203.0.113.{} - - [02/Mar/2031:04:{:02}:{:02} +0000] \"GET /item/{i} HTTP/1.1\" 200 {} \"-\" \"Mozilla/5.0\" {us}\n",
            rng.next(200),
            i / 60 % 60,
            i % 60,
            rng.next(9000),
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("access.log"), &text).expect("write");
    assert_eq!(format_of(dir.path(), "access.log"), "nginx_combined");
    let max = stat(dir.path(), "access.log", Measure::Max, "duration");
    assert!((max - slowest as f64).abs() < 1e-6, "{max} vs {slowest} us");
    let sum = stat(dir.path(), "access.log", Measure::Sum, "duration");
    assert!((sum - total as f64).abs() < 1e-3, "{sum} vs {total} us");
}

/// `user 'app' authenticated`: the quoted name is the event's user.
#[test]
fn a_user_named_in_quotes_is_the_event_s_user() {
    let users = ["app", "billing", "mailer"];
    let mut rng = Lcg(73);
    let mut planted: BTreeMap<String, u64> = BTreeMap::new();
    let mut text = String::new();
    for i in 0..240u64 {
        let (m, s) = (i / 60 % 60, i % 60);
        let conn = format!("<0.{}.0>", 9000 + i);
        text += &format!("2031-03-02 04:{m:02}:{s:02}.000001+00:00 [info] {conn} accepting AMQP connection {conn} (10.52.2.1:4{i:04} -> 10.52.3.5:5672)\n");
        if rng.next(4) > 0 {
            let u = users[rng.next(3) as usize];
            *planted.entry(u.to_string()).or_default() += 1;
            text += &format!("2031-03-02 04:{m:02}:{s:02}.000002+00:00 [info] {conn} connection {conn} (10.52.2.1:4{i:04} -> 10.52.3.5:5672): user '{u}' authenticated and granted access to vhost 'jobs'\n");
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("rabbit.log"), &text).expect("write");
    assert_eq!(groups(dir.path(), "rabbit.log", vec![], "user"), planted);
}

/// A maximum's row carries the table's key fields beside the measured one, so a follow-up
/// can ask about that event's client.
#[test]
fn a_maximum_s_row_carries_the_key_fields() {
    let mut text = String::new();
    for (i, (ip, t)) in [
        ("10.0.0.1", "0.100"),
        ("10.0.0.2", "9.900"),
        ("10.0.0.3", "0.200"),
    ]
    .iter()
    .enumerate()
    {
        text += &format!("{ip} - - [02/Mar/2031:04:00:0{i} +0000] \"GET /a HTTP/1.1\" 504 10 \"-\" \"curl\" {t}\n");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("a.log"), &text).expect("write");
    let q = Query {
        measure: Measure::Max,
        field: Some(Field::new("duration")),
        ..Query::default()
    };
    let QueryValue::Stat { row: Some(row), .. } = run(dir.path(), "a.log", &q).value else {
        panic!("a stat with its row");
    };
    let field = |n: &str| {
        row.fields
            .iter()
            .find(|f| f.name == n)
            .map(|f| f.value.clone())
    };
    assert_eq!(field("remote_addr").as_deref(), Some("10.0.0.2"));
    assert_eq!(field("status").as_deref(), Some("504"));
}

/// A logfmt key that only an incident's lines hold, far past the head: the upload's
/// columns list it and a query groups by it, every event read.
#[test]
fn a_key_only_later_lines_hold_is_a_column_and_a_field() {
    let mut text = String::new();
    let mut planted = 0u64;
    for i in 0..9000u64 {
        let t = format!(
            "2031-05-09T{:02}:{:02}:{:02}Z",
            1 + i / 3600,
            i / 60 % 60,
            i % 60
        );
        if (6000..6300).contains(&i) && i % 3 == 0 {
            planted += 1;
            text += &format!("time={t} level=error msg=\"call failed\" backend=rates-db err=\"context deadline exceeded\"\n");
        } else {
            text += &format!(
                "time={t} level=info msg=\"quote priced\" tenant=t{} duration={}ms\n",
                i % 7,
                i % 900
            );
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("quoter.log");
    std::fs::write(&path, &text).expect("write");
    let sample = super::Sample::read(&path).expect("sample");
    let d = super::describe_sample(super::builtin_registry(), &sample);
    assert!(
        d.columns.iter().any(|c| c.name == "backend"),
        "{:?}",
        d.columns
    );
    let by = groups(dir.path(), "quoter.log", vec![], "backend");
    assert_eq!(by.get("rates-db"), Some(&planted), "{by:?}");
}

/// A Java batch whose messages carry `key=value` pairs only past the first windows the
/// columns and the engine sample: the columns name them (with the unit written after the
/// number), and a query reads them in every event.
#[test]
fn pairs_in_messages_past_the_sample_are_columns_and_are_read() {
    let mut rng = Lcg(19);
    let mut text = String::new();
    for i in 0..4000u64 {
        text += &format!(
            "2031-05-06T01:{:02}:{:02},{:03} DEBUG [pool housekeeper] c.e.p.Pool - Pool stats (total=20, active={}, idle=9)\n",
            i / 60 % 60,
            i % 60,
            i % 1000,
            rng.next(10),
        );
    }
    let mut planted = Vec::new();
    for i in 0..500u64 {
        let ms = 900 + rng.next(20_000);
        planted.push(ms);
        text += &format!(
            "2031-05-06T02:{:02}:{:02},{:03} INFO  [batch-{}] c.e.b.Loader - Part {i} loaded: rows={} wait={ms} ms\n",
            i / 60 % 60,
            i % 60,
            i % 1000,
            i % 4,
            rng.next(900),
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("loader.log");
    std::fs::write(&path, &text).expect("write");
    assert!(text.len() > 300 * 1024, "past the engine's head");
    let sample = super::Sample::read(&path).expect("sample");
    let d = super::describe_sample(super::builtin_registry(), &sample);
    let wait = d
        .columns
        .iter()
        .find(|c| c.name == "wait")
        .expect("a wait column");
    assert!(wait.numeric, "{wait:?}");
    let max = stat(dir.path(), "loader.log", Measure::Max, "wait");
    assert_eq!(max, *planted.iter().max().expect("planted") as f64);
    let q = Query {
        measure: Measure::Mean,
        field: Some(Field::new("wait")),
        ..Query::default()
    };
    let r = run(dir.path(), "loader.log", &q);
    match r.value {
        QueryValue::Stat { n, .. } => assert_eq!(n, planted.len() as u64),
        v => panic!("a mean: {v:?}"),
    }
}

/// `took=109 ms` in a message: the unit written after the number is the field's, so a
/// figure is in milliseconds (and a filter in seconds converts).
#[test]
fn a_unit_written_after_a_pairs_number_is_the_fields() {
    let mut text = String::new();
    let mut planted = Vec::new();
    for i in 0..40u64 {
        let ms = 100 + i * 7;
        planted.push(ms);
        text += &format!(
            "2031-05-06T01:00:{:02},000 INFO  [http-{}] c.e.Pay - Payment accepted: lag={ms} ms\n",
            i % 60,
            i % 4,
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("pay.log"), &text).expect("write");
    let q = Query {
        measure: Measure::Max,
        field: Some(Field::new("lag")),
        ..Query::default()
    };
    match run(dir.path(), "pay.log", &q).value {
        QueryValue::Stat { value, unit, .. } => {
            assert_eq!(value, planted.iter().max().map(|&m| m as f64));
            assert_eq!(unit, llmops_common::query::Unit::Ms);
        }
        v => panic!("a max: {v:?}"),
    }
}

/// The latest event of a kind shows the nested value asked of it (`show`), as written in
/// that event, whatever other events of other kinds hold.
#[test]
fn the_latest_event_of_a_kind_shows_the_value_asked_of_it() {
    use llmops_common::query::{Filter, FilterOp, Order, Scalar};
    let mut rng = Lcg(29);
    let (mut text, mut dropped) = (String::new(), 0u64);
    for i in 0..600u64 {
        let t = format!("2031-07-01T03:{:02}:{:02}.000000+0000", i / 60, i % 60);
        if i % 50 == 7 {
            dropped += rng.next(400);
            text += &format!(
                "{{\"timestamp\":\"{t}\",\"event_type\":\"health\",\"health\":{{\"queue\":{{\"depth\":{},\"dropped\":{dropped}}}}}}}\n",
                i * 1000
            );
        } else {
            text += &format!(
                "{{\"timestamp\":\"{t}\",\"event_type\":\"dns\",\"src_ip\":\"10.1.0.{}\",\"dns\":{{\"rrname\":\"a{i}.example\"}}}}\n",
                rng.next(250)
            );
        }
    }
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("eve.json"), &text).expect("write");
    let q = Query {
        measure: Measure::Rows,
        field: Some(Field::new("time")),
        order: Order::Desc,
        limit: Some(1),
        filters: vec![Filter::new(
            Some(Field::new("event_type")),
            FilterOp::Eq,
            Scalar::Text("health".into()),
        )],
        show: vec![Field::new("health.queue.dropped")],
        ..Query::default()
    };
    let QueryValue::Rows { rows, total } = run(dir.path(), "eve.json", &q).value else {
        panic!("rows");
    };
    assert_eq!(total, 12, "one health event in 50 of 600");
    let drops = rows[0]
        .fields
        .iter()
        .find(|f| f.name == "health.queue.dropped")
        .map(|f| f.value.clone());
    assert_eq!(drops, Some(dropped.to_string()));
}
