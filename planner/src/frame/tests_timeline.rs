//! Timelines asked across several logs: which logs, which window (zones, 12-hour clocks,
//! "a few minutes before"), and the clauses that belong to one question.

use llmops_common::query::{Measure, TimePoint, Window};

use crate::tests::uploads;
use crate::{plan, PlannerAction, PlannerInput, ToolArgs};

/// Logs of five kinds, as the server describes them (format and a time column).
fn logs() -> Vec<crate::UploadRef> {
    let mut ups = uploads(&[
        "edge-nginx.log",
        "orders-db.log",
        "cache-redis.log",
        "checkout-api.log",
        "search-node-3.json",
    ]);
    let formats = [
        "nginx_combined",
        "postgresql",
        "redis",
        "docker_json",
        "json_lines",
    ];
    for (u, f) in ups.iter_mut().zip(formats) {
        u.format = Some(f.into());
        u.columns = vec![llmops_common::query::Column {
            name: "time".into(),
            roles: vec!["time".into()],
            ..Default::default()
        }];
    }
    ups[4].filename = "elasticsearch-node-3.json".into();
    ups[4].path = "/data/uploads/id4/elasticsearch-node-3.json".into();
    ups
}

fn query(text: &str) -> llmops_common::query::Query {
    query_in(text, &logs())
}

fn query_in(text: &str, ups: &[crate::UploadRef]) -> llmops_common::query::Query {
    let conversation = crate::conversation::Conversation::default();
    match plan(&PlannerInput {
        text,
        referenced_files: &[],
        uploads: ups,
        history: &[],
        conversation: &conversation,
        steps: &[],
    }) {
        PlannerAction::Call {
            args: ToolArgs::LogQuery(q),
            ..
        } => q.query,
        other => panic!("{text}: {other:?}"),
    }
}

fn names(q: &llmops_common::query::Query) -> Vec<&str> {
    let mut v: Vec<&str> = q
        .files
        .iter()
        .map(|f| f.rsplit('/').next().unwrap_or(f))
        .collect();
    v.sort_unstable();
    v
}

#[test]
fn what_happened_in_two_named_logs_is_one_timeline_of_both() {
    let q = query("around 4:05 - redis and checkout-api, what happened");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
    assert_eq!(names(&q), ["cache-redis.log", "checkout-api.log"]);
}

#[test]
fn a_programs_short_name_names_its_log() {
    let q = query("04:05 左右 ES 出了什么事");
    assert_eq!(names(&q), ["elasticsearch-node-3.json"], "{q:?}");
    let q = query("how many errors in pg");
    assert_eq!(names(&q), ["orders-db.log"], "{q:?}");
}

#[test]
fn a_time_in_a_named_zone_carries_the_zone() {
    let at = |q: &llmops_common::query::Query| match &q.window {
        Some(Window::Around { at, .. }) => at.clone(),
        other => panic!("{other:?}"),
    };
    let q = query("北京时间中午 12:05 前后 nginx 发生了什么");
    assert_eq!(at(&q), TimePoint("12:05+08:00".into()), "{q:?}");
    let q = query("what happened in the nginx log around 11:05pm PDT");
    assert_eq!(at(&q), TimePoint("23:05-07:00".into()), "{q:?}");
    assert!(q.filters.is_empty(), "the zone is no condition: {q:?}");
}

#[test]
fn a_clause_that_only_names_logs_belongs_to_the_question_before_it() {
    let q = query("what happened around 4:05? nginx + the checkout-api container log");
    assert_eq!(names(&q), ["checkout-api.log", "edge-nginx.log"], "{q:?}");
    let q = query("redis failover near 04:05? timeline please, redis + checkout-api");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
    assert_eq!(names(&q), ["cache-redis.log", "checkout-api.log"], "{q:?}");
    assert!(q.window.is_some(), "{q:?}");
}

#[test]
fn what_a_log_was_doing_before_a_time_is_the_lead_up() {
    let q = query("what was redis doing a few minutes before 4:10? checkout-api log attached too");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
    assert_eq!(
        q.window,
        Some(Window::Between {
            from: Some(TimePoint("04:00".into())),
            to: Some(TimePoint("04:10".into())),
        })
    );
    assert!(q.filters.is_empty(), "'attached' is no condition: {q:?}");
    assert_eq!(names(&q), ["cache-redis.log", "checkout-api.log"]);
    // "right before" is the same lead-up; "with timestamps" is how it is shown.
    let q = query("what happened in redis and checkout-api right before 4:10, with timestamps");
    assert_eq!(
        q.window,
        Some(Window::Between {
            from: Some(TimePoint("04:00".into())),
            to: Some(TimePoint("04:10".into())),
        }),
        "{q:?}"
    );
    assert!(q.filters.is_empty(), "{q:?}");
}

#[test]
fn an_incident_summary_reads_the_logs_the_question_names() {
    let q = query("checkout keeps failing, what went wrong? (redis + checkout-api)");
    assert_eq!(names(&q), ["cache-redis.log", "checkout-api.log"], "{q:?}");
    let q = query("what went wrong tonight");
    assert_eq!(q.files.len(), 5, "no log named: all of them: {q:?}");
    let q = query("checkout 挂了一阵，几个日志串起来看看根因");
    assert_eq!(q.files.len(), 5, "the service, not its log alone: {q:?}");
}

#[test]
fn an_hour_said_in_words_is_the_whole_hour_and_an_incident_looks_there() {
    let hour = Some(Window::Between {
        from: Some(TimePoint("02:00".into())),
        to: Some(TimePoint("02:59:59".into())),
    });
    let q = query("redis 凌晨两点多有几条 warning");
    assert_eq!(q.window, hour, "{q:?}");
    let q = query("凌晨两点多 checkout 一直失败，复盘一下原因");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
    assert_eq!(
        q.window, hour,
        "the worst minute is looked for in the hour: {q:?}"
    );
    let q = query("what happened in redis around 2am");
    assert_eq!(q.window, hour, "{q:?}");
    // An incident's time is approximate: a time of day is searched half an hour around.
    let q = query("checkout broke around 02:40, what went wrong? (redis + checkout-api)");
    assert_eq!(
        q.window,
        Some(Window::Around {
            at: TimePoint("02:40".into()),
            seconds: 1800
        }),
        "{q:?}"
    );
}

/// A second timeline clause without a time of its own names the logs of the first one's
/// minute: one timeline of them, not the first log's minute and then the whole night.
#[test]
fn a_second_timeline_clause_without_a_time_joins_the_first() {
    let q =
        query("what happened on orders-db near 4:05? line up the pg and redis logs in time order");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
    assert_eq!(names(&q), ["cache-redis.log", "orders-db.log"], "{q:?}");
    assert!(q.window.is_some(), "{q:?}");
    let q = query("what happened in redis around 4:05? and what happened in redis around 4:40?");
    let Some(Window::Around { at, .. }) = &q.window else {
        panic!("{q:?}")
    };
    assert_eq!(at.0, "04:05", "two times are two timelines: {q:?}");
}

/// "mysql" names the daemon's log (`mysqld.err`).
#[test]
fn a_program_names_its_daemons_log() {
    let mut ups = uploads(&["mysqld.err", "cassandra-system.log", "syslog"]);
    for u in &mut ups {
        u.format = Some("learned".into());
        u.columns = vec![llmops_common::query::Column {
            name: "time".into(),
            roles: vec!["time".into()],
            ..Default::default()
        }];
    }
    let q = query_in("what happened around 01:37 in mysql and cassandra?", &ups);
    assert_eq!(names(&q), ["cassandra-system.log", "mysqld.err"], "{q:?}");
}

/// A timeline asked with several logs sent and none named is of all of them; "across all
/// logs" with none sent is of every log of the session.
#[test]
fn a_timeline_of_the_logs_sent_with_it_or_of_all_logs() {
    let ups = logs();
    let PlannerAction::Call {
        args: ToolArgs::LogQuery(q),
        ..
    } = crate::tests::first_sent("what happened around 02:14?", &ups, &ups[..3])
    else {
        panic!("no query")
    };
    assert_eq!(q.query.measure, Measure::Timeline);
    assert_eq!(
        names(&q.query),
        ["cache-redis.log", "edge-nginx.log", "orders-db.log"]
    );
    let q = query("what was going on between 2:13 and 2:16 across all logs");
    assert_eq!(q.files.len(), 5, "{:?}", q.files);
}

#[test]
fn a_log_named_by_its_kind_and_the_word_log_joins_a_log_named_by_its_file() {
    let q = query("03:50 左右 redis 日志和 checkout-api.log 里都发生了什么");
    assert_eq!(names(&q), ["cache-redis.log", "checkout-api.log"], "{q:?}");
    let q = query("what happened in the nginx log and checkout-api.log near 4:05");
    assert_eq!(names(&q), ["checkout-api.log", "edge-nginx.log"], "{q:?}");
    // A word that is also a cue names a log only beside another log's name: with the word
    // for log between them too.
    let mut ups = logs();
    ups.extend(uploads(&["web-error.log"]));
    let q = query_in(
        "03:50 左右 error 日志和 checkout-api.log 里都发生了什么",
        &ups,
    );
    assert_eq!(names(&q), ["checkout-api.log", "web-error.log"], "{q:?}");
}

#[test]
fn a_range_of_two_times_bounds_the_window_beside_a_time_said_around_it() {
    let q =
        query("redis got slow near 4:05, so show cache-redis.log from 4:00 to 4:12 in time order");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
    assert_eq!(
        q.window,
        Some(Window::Between {
            from: Some(TimePoint("04:00".into())),
            to: Some(TimePoint("04:12".into())),
        })
    );
    let q = query("redis and checkout-api between 04:02 and 04:06, walk us thru the errors");
    assert_eq!(q.measure, Measure::Timeline, "{q:?}");
}
