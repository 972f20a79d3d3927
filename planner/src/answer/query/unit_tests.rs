//! Unit checks of how query answers are written: exceptions beside a trace's first line,
//! figures in their units, shares of all events.

use super::*;

#[test]
fn a_traces_exception_and_root_cause_are_shown_beside_its_first_line() {
    let rest = "org.apache.kafka.common.errors.NotEnoughReplicasException: 1 in sync\n\
                \tat kafka.cluster.Partition.append(Partition.scala:1)\n\
                Caused by: java.io.IOException: broken pipe\n\
                \tat x.y(Z.java:2)\n\
                Caused by: java.net.SocketTimeoutException: read timed out";
    assert_eq!(
        exception_lines(rest),
        [
            "org.apache.kafka.common.errors.NotEnoughReplicasException: 1 in sync",
            "Caused by: java.net.SocketTimeoutException: read timed out"
        ]
    );
    let py = "Traceback (most recent call last):\n  File \"x.py\", line 3, in f\n\
              psycopg2.errors.LockNotAvailable: canceling statement due to lock timeout";
    assert_eq!(
        exception_lines(py),
        ["psycopg2.errors.LockNotAvailable: canceling statement due to lock timeout"]
    );
    assert!(exception_lines("  at a.b(C.java:1)\nsome other line").is_empty());
    // A Go runtime's crash under the last line it logged.
    assert_eq!(
        exception_lines("fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 7 [running]:\nmain.add()"),
        ["fatal error: all goroutines are asleep - deadlock!"]
    );
}

#[test]
fn figures_keep_their_significant_digits() {
    assert_eq!(with_unit(0.3862, Unit::S), "0.3862 s (386.2 ms)");
    assert_eq!(with_unit(7.412803, Unit::S), "7.4128 s (7412.8 ms)");
    // A minute or more also in minutes, an hour or more also as `ps -o etime` writes it.
    assert_eq!(with_unit(74.5, Unit::S), "74.5 s (1.242 min)");
    assert_eq!(with_unit(3725.0, Unit::S), "3725 s (62.083 min, 01:02:05)");
    assert_eq!(
        with_unit(90061.0, Unit::S),
        "90061 s (1501.0 min, 1-01:01:01)"
    );
    // Milliseconds also in seconds (the unit "how many seconds" asks in).
    assert_eq!(with_unit(23.456789, Unit::Ms), "23.457 ms (0.023457 s)");
    assert_eq!(with_unit(0.012345, Unit::None), "0.012345");
    assert_eq!(with_unit(2406.0, Unit::Ms), "2406 ms (2.406 s)");
    assert_eq!(
        with_unit(8_412_906.0, Unit::Us),
        "8412906 us (8412.9 ms, 8.413 s)"
    );
    // Volumes and masses also in the other unit of their kind.
    assert_eq!(with_unit(16870.0, Unit::Ml), "16870 ml (16.87 l)");
    assert_eq!(with_unit(2.5, Unit::L), "2.5 l (2500.0 ml)");
    assert_eq!(with_unit(412.0, Unit::G), "412 g (0.412 kg)");
}

/// A conditioned count says its share of all events, as `grep -c` / `wc -l` give it:
/// 210 of 5000 lines is 4.20%.
#[test]
fn a_count_with_a_condition_says_its_share() {
    use llmops_common::query::{Filter, FilterOp, Query, QueryValue, Scalar, SourceInfo};
    let r = QueryResult {
        query: Query {
            filters: vec![Filter::new(
                None,
                FilterOp::Contains,
                Scalar::Text("x".into()),
            )],
            ..Query::default()
        },
        described_zh: String::new(),
        described_en: String::new(),
        sources: vec![SourceInfo {
            name: "a.log".into(),
            path: None,
            format: "plain".into(),
            fields: vec![],
            lines: 5000,
            events: 5000,
            bytes: 1,
            complete: true,
            unparsed: 0,
        }],
        resolved: vec![],
        matched: 210,
        matched_per_file: vec![],
        value: QueryValue::Count { count: 210 },
        pipeline: None,
        notes: vec![],
        share_base: None,
    };
    assert_eq!(share_of(&r, 210, Lang::En), " (4.20% of all 5000 events)");
    assert!(
        lead(&r, Lang::Zh).contains("占全部 5000 条事件的 4.20%"),
        "{}",
        lead(&r, Lang::Zh)
    );
    let unconditioned = QueryResult {
        query: Query::default(),
        ..r
    };
    assert_eq!(share_of(&unconditioned, 210, Lang::En), "");
    // Part of the file read: the share is of the events read, not of the file.
    let mut part = unconditioned;
    part.query = r.query.clone();
    part.sources[0].complete = false;
    assert_eq!(
        share_of(&part, 210, Lang::En),
        " (4.20% of the 5000 events read)"
    );
    // A share asked of a population: of its rows, named (143 of 3560 is 4.0169%).
    let mut of_pool = part.clone();
    of_pool.sources[0].complete = true;
    of_pool.share_base = Some(llmops_common::query::ShareBase {
        rows: 3560,
        described_zh: "pool eq blue 且有 status 值".into(),
        described_en: "where pool eq blue, with status".into(),
        total: None,
    });
    assert_eq!(
        share_of(&of_pool, 143, Lang::En),
        " (**4.02%** of the 3560 events where pool eq blue, with status)"
    );
    assert_eq!(
        share_of(&of_pool, 143, Lang::Zh),
        "（占pool eq blue 且有 status 值 的 3560 条事件的 **4.02%**）"
    );
    // A sum's share: of the field's total over the population (250 of 1000 bytes).
    let mut of_bytes = of_pool.clone();
    of_bytes.share_base = Some(llmops_common::query::ShareBase {
        rows: 40,
        described_zh: String::new(),
        described_en: String::new(),
        total: Some(1000.0),
    });
    assert_eq!(
        super::share::share_of_sum(&of_bytes, 250.0, Unit::None, Lang::En),
        " (**25.0%** of 1000, the total over all 40 events)"
    );
    assert_eq!(
        super::share::share_of_sum(&of_bytes, 250.0, Unit::None, Lang::Zh),
        "（占全部 40 条事件合计 1000 的 **25.0%**）"
    );
    // No total: no share of a sum.
    assert_eq!(
        super::share::share_of_sum(&of_pool, 250.0, Unit::None, Lang::En),
        ""
    );
}

/// "the slowest one": one event listed by a field leads with its time and shows its
/// line, not only the count.
#[test]
fn one_event_by_a_field_shows_its_time_and_line() {
    use llmops_common::query::{Field, Query, QueryValue, Row, SourceInfo};
    let row = Row {
        file: Some("app.log".into()),
        line: 812,
        time: Some("2031-06-05T03:27:44".into()),
        text: "GET /api/reports => generated 307 bytes in 47312 msecs".into(),
        lines: 1,
        fields: vec![],
        repeats: None,
    };
    let r = QueryResult {
        query: Query {
            field: Some(Field::new("duration")),
            limit: Some(1),
            measure: llmops_common::query::Measure::Rows,
            ..Query::default()
        },
        described_zh: String::new(),
        described_en: "the slowest event".into(),
        sources: vec![SourceInfo {
            name: "app.log".into(),
            path: None,
            format: "uwsgi".into(),
            fields: vec![],
            lines: 900,
            events: 900,
            bytes: 1,
            complete: true,
            unparsed: 0,
        }],
        resolved: vec![],
        matched: 900,
        matched_per_file: vec![],
        value: QueryValue::Rows {
            rows: vec![row],
            total: 900,
        },
        pipeline: None,
        notes: vec![],
        share_base: None,
    };
    let text = lead(&r, Lang::En);
    assert!(text.contains("**2031-06-05T03:27:44**"), "{text}");
    assert!(
        text.contains("47312 msecs") && text.contains("line 812"),
        "{text}"
    );
}

/// "the dropped count of the last health event": the one event leads with the value asked
/// of it, by the field the engine used for the name asked.
#[test]
fn one_event_leads_with_the_value_asked_of_it() {
    use llmops_common::query::{Field, FieldValue, Query, QueryValue, Resolved, Row};
    let row = Row {
        file: Some("sensor.json".into()),
        line: 5488,
        time: Some("2031-07-01T04:10:00".into()),
        text: "{\"event_type\":\"health\",...}".into(),
        lines: 1,
        fields: vec![FieldValue {
            name: "health.queue.dropped".into(),
            value: "8120".into(),
        }],
        repeats: None,
    };
    let r = QueryResult {
        query: Query {
            field: Some(Field::new("time")),
            limit: Some(1),
            measure: llmops_common::query::Measure::Rows,
            show: vec![Field::new("queue.dropped")],
            ..Query::default()
        },
        described_zh: "最新的 health 事件".into(),
        described_en: "the latest health event".into(),
        sources: vec![],
        resolved: vec![Resolved {
            asked: Field::new("queue.dropped"),
            used: "health.queue.dropped".into(),
            unit: Unit::None,
        }],
        matched: 12,
        matched_per_file: vec![],
        value: QueryValue::Rows {
            rows: vec![row],
            total: 12,
        },
        pipeline: None,
        notes: vec![],
        share_base: None,
    };
    let en = lead(&r, Lang::En);
    assert!(
        en.starts_with("the latest health event: health.queue.dropped = **8120**"),
        "{en}"
    );
    assert!(
        en.contains("2031-07-01T04:10:00") && en.contains("12 matching"),
        "{en}"
    );
    let zh = lead(&r, Lang::Zh);
    assert!(zh.contains("health.queue.dropped = **8120**"), "{zh}");
}

/// "the top 3 slowest requests": the first row's ranked value leads, then its time and how
/// many events matched; the rows follow.
#[test]
fn ranked_rows_lead_with_the_first_ones_value() {
    use llmops_common::query::{Field, FieldValue, Query, QueryValue, Resolved, Row};
    let row = |ms: &str, at: &str| Row {
        file: Some("orders.json".into()),
        line: 82,
        time: Some(at.into()),
        text: "{...}".into(),
        lines: 1,
        fields: vec![FieldValue {
            name: "latency_ms".into(),
            value: ms.into(),
        }],
        repeats: None,
    };
    let r = QueryResult {
        query: Query {
            field: Some(Field::new("duration")),
            limit: Some(3),
            measure: llmops_common::query::Measure::Rows,
            ..Query::default()
        },
        described_zh: "最慢的 3 条".into(),
        described_en: "the top 3 events by duration".into(),
        sources: vec![],
        resolved: vec![Resolved {
            asked: Field::new("duration"),
            used: "latency_ms".into(),
            unit: Unit::Ms,
        }],
        matched: 1200,
        matched_per_file: vec![],
        value: QueryValue::Rows {
            rows: vec![
                row("2500", "2031-06-01T09:01:21"),
                row("2498", "2031-06-01T09:19:32"),
                row("2497", "2031-06-01T09:01:12"),
            ],
            total: 1200,
        },
        pipeline: None,
        notes: vec![],
        share_base: None,
    };
    let en = lead(&r, Lang::En);
    assert!(
        en.starts_with(
            "the top 3 events by duration: the first is latency_ms = **2500**, at 2031-06-01T09:01:21 (1200 matching in all)"
        ),
        "{en}"
    );
    let zh = lead(&r, Lang::Zh);
    assert!(
        zh.contains("第一条 latency_ms = **2500**，时间 2031-06-01T09:01:21（共 1200 条匹配）"),
        "{zh}"
    );
}

/// Sizes are also shown as `df -h` prints them: 45216645120 B is 42.1 GiB, and `df -h`
/// rounds it up to 43G.
#[test]
fn bytes_read_as_df_prints_them() {
    let s = with_unit(45_216_645_120.0, Unit::B);
    assert!(
        s.contains("45216645120 B") && s.contains("42.1 GiB") && s.contains("43G"),
        "{s}"
    );
    assert_eq!(with_unit(512.0, Unit::B), "512 B");
    assert_eq!(
        with_unit(8_412_906.0, Unit::Us),
        "8412906 us (8412.9 ms, 8.413 s)"
    );
    assert_eq!(with_unit(9871.0, Unit::Ms), "9871 ms (9.871 s)");
    assert_eq!(with_unit(532.0, Unit::Ms), "532 ms (0.532 s)");
}

/// A long event's row shows its head and last line; the answer says how many lines it has
/// in all, not how many the row shows.
#[test]
fn a_long_event_says_its_own_line_count_and_its_exception() {
    use llmops_common::query::Row;
    let row = Row {
        file: Some("app.log".into()),
        line: 56,
        time: None,
        text: "[ERROR] Exception on /v1/x [POST]\nTraceback (most recent call last):\n  File \"a.py\", line 3, in f\n…\npsycopg2.OperationalError: FATAL:  password authentication failed".into(),
        lines: 40,
        fields: vec![],
        repeats: None,
    };
    let s = row_line(&row, Lang::En, false);
    assert!(s.contains("(+39 lines)"), "{s}");
    assert!(s.contains("password authentication failed"), "{s}");
}

/// A group's key that is a bare number names its field (`lane=4`); a word stays as is.
#[test]
fn a_numeric_group_key_names_its_field() {
    use llmops_common::query::{GroupRow, Query, QueryValue};
    let row = |k: &str| GroupRow {
        key: vec![k.to_string(), "north".to_string()],
        count: 3,
        value: None,
        example: None,
        of: None,
    };
    let r = QueryResult {
        query: Query::default(),
        described_zh: String::new(),
        described_en: String::new(),
        sources: vec![],
        resolved: vec![],
        matched: 3,
        matched_per_file: vec![],
        value: QueryValue::Groups {
            by: vec!["lane".into(), "side".into()],
            rows: vec![row("4")],
            groups: 1,
            rest: 0,
            unit: Unit::None,
        },
        pipeline: None,
        notes: vec![],
        share_base: None,
    };
    assert_eq!(group_key(&r, &row("4")), "lane=4 / north");
    assert_eq!(group_key(&r, &row("ssd")), "ssd / north");
}

/// A top shared by several groups is said to be a tie, naming the others, in both
/// languages; a top of its own says nothing more.
#[test]
fn a_tie_at_the_top_is_said() {
    use llmops_common::query::{GroupRow, Query, QueryValue};
    let row = |k: &str, count: u64| GroupRow {
        key: vec![k.to_string()],
        count,
        value: None,
        example: None,
        of: None,
    };
    let result = |rows: Vec<GroupRow>| QueryResult {
        query: Query::default(),
        described_zh: String::new(),
        described_en: String::new(),
        sources: vec![],
        resolved: vec![],
        matched: rows.iter().map(|r| r.count).sum(),
        matched_per_file: vec![],
        value: QueryValue::Groups {
            by: vec!["client".into()],
            rows: rows.clone(),
            groups: rows.len() as u64,
            rest: 0,
            unit: Unit::None,
        },
        pipeline: None,
        notes: vec![],
        share_base: None,
    };
    let tied = vec![
        row("10.0.0.5", 25),
        row("10.0.0.3", 25),
        row("10.0.0.9", 25),
        row("10.0.0.1", 20),
    ];
    let r = result(tied.clone());
    let en = groups_lead(&r, "clients", &tied, 4, "", Lang::En);
    assert!(
        en.contains("**10.0.0.5** (25) (tied at the top with **10.0.0.3**, **10.0.0.9**)"),
        "{en}"
    );
    let zh = groups_lead(&r, "客户端", &tied, 4, "", Lang::Zh);
    assert!(
        zh.contains("（与 **10.0.0.3**、**10.0.0.9** 并列第一）"),
        "{zh}"
    );
    let alone = vec![row("10.0.0.5", 26), row("10.0.0.3", 25)];
    let r = result(alone.clone());
    assert!(!groups_lead(&r, "clients", &alone, 2, "", Lang::En).contains("tied"));
}

/// A system table's rows ranked by `field`, as the engine returns them.
fn system_rows(source: Source, field: &str, rows: &[&[(&str, &str)]], total: u64) -> QueryResult {
    use llmops_common::query::{Field, FieldValue, Measure, Order, Query, QueryValue, Row};
    let row = |fields: &[(&str, &str)]| Row {
        file: None,
        line: 0,
        time: Some("2026-12-06T14:59:47".into()),
        text: String::new(),
        lines: 0,
        fields: fields
            .iter()
            .map(|(n, v)| FieldValue {
                name: n.to_string(),
                value: v.to_string(),
            })
            .collect(),
        repeats: None,
    };
    QueryResult {
        query: Query {
            source,
            measure: Measure::Rows,
            field: Some(Field::new(field)),
            order: Order::Desc,
            limit: Some(5),
            ..Query::default()
        },
        described_zh: "表".into(),
        described_en: "table".into(),
        sources: vec![],
        resolved: vec![],
        matched: total,
        matched_per_file: vec![],
        value: QueryValue::Rows {
            rows: rows.iter().map(|r| row(r)).collect(),
            total,
        },
        pipeline: None,
        notes: vec![],
        share_base: None,
    }
}

/// Processes ranked by a column lead with the first one's name, pid and figure, not a time.
#[test]
fn a_system_tables_ranked_rows_lead_with_the_first_rows_name() {
    let r = system_rows(
        Source::Processes,
        "threads",
        &[
            &[("pid", "4242"), ("name", "ledger-d"), ("threads", "48")],
            &[("pid", "17"), ("name", "cron"), ("threads", "3")],
        ],
        75,
    );
    let en = lead(&r, Lang::En);
    assert!(
        en.contains("the first is **ledger-d** (pid 4242), threads = **48** (75 rows in all)"),
        "{en}"
    );
    assert!(!en.contains("2026-12-06"), "{en}");
    let zh = lead(&r, Lang::Zh);
    assert!(
        zh.contains("第一个是 **ledger-d** (pid 4242), threads = **48**（共 75 行）"),
        "{zh}"
    );
}

/// One filesystem ranked by free space leads with its mount point and the figure, no time.
#[test]
fn one_system_row_ranked_leads_with_its_name() {
    let r = system_rows(
        Source::Mounts,
        "avail_bytes",
        &[&[("mount", "/"), ("avail_bytes", "72134348800")]],
        1,
    );
    let en = lead(&r, Lang::En);
    assert!(en.contains("**/**, avail_bytes = **72134348800**"), "{en}");
    assert!(!en.contains("**?**"), "{en}");
}

#[test]
fn a_kind_that_came_back_says_after_how_long_a_silence() {
    let r = llmops_common::query::Repeats {
        count: 21,
        last_time: Some("2031-07-09T05:19:57".into()),
        resumed_after_secs: Some(573),
        continued: None,
    };
    assert_eq!(
        repeats(&r, Lang::En),
        "(the first after 9 min 33 s without one; ×21, last at 2031-07-09T05:19:57) "
    );
    assert_eq!(
        repeats(&r, Lang::Zh),
        "（停了 9 min 33 s 之后的第一条；同类 21 条，最后一条 2031-07-09T05:19:57）"
    );
    let once = llmops_common::query::Repeats {
        count: 1,
        resumed_after_secs: Some(60),
        ..r
    };
    assert_eq!(
        repeats(&once, Lang::En),
        "(the first after 1 min without one) "
    );
}

#[test]
fn a_kind_that_goes_on_past_the_window_says_until_when() {
    let r = llmops_common::query::Repeats {
        count: 1,
        last_time: Some("2031-07-09T05:19:57".into()),
        resumed_after_secs: None,
        continued: Some(llmops_common::query::Continued {
            count: 239,
            last_time: "2031-07-09T05:31:24".into(),
        }),
    };
    assert_eq!(
        repeats(&r, Lang::En),
        "(×1, last at 2031-07-09T05:19:57; it went on after the window: 239 more until 2031-07-09T05:31:24) "
    );
}
