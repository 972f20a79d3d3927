//! Every operation in every shipped format against planted ground truth, and the shell
//! pipeline each result shows run with `sh -c` on the same file.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use llmops_common::query::{
    BucketWidth, Field, Filter, FilterOp, Measure, Order, Query, QueryResult, QueryValue, Rank,
    Scalar, TimePoint, Unit, Window,
};

use super::truth::{generate, TruthEvent, TruthLog, FORMATS, TOKEN};
use super::*;

const EVENTS: usize = 800;

struct Case {
    dir: tempfile::TempDir,
    name: String,
    truth: TruthLog,
}

impl Case {
    fn new(fmt: &'static str, seed: u64) -> Case {
        let dir = tempfile::tempdir().expect("tempdir");
        let name = format!("{fmt}.log");
        let mut f = std::fs::File::create(dir.path().join(&name)).expect("create");
        let truth = generate(fmt, seed, EVENTS, &mut f).expect("generate");
        Case { dir, name, truth }
    }

    fn path(&self) -> PathBuf {
        self.dir.path().join(&self.name)
    }

    fn run(&self, q: &Query) -> QueryResult {
        run_query(
            &[QueryFile::new(self.name.clone(), self.path())],
            q,
            &QueryOptions::default(),
            &AtomicBool::new(false),
        )
        .unwrap_or_else(|e| panic!("{}: {q:?}: {e}", self.truth.format))
    }

    /// Runs the result's pipeline in the file's directory; `None` when it shows none.
    fn shell(&self, r: &QueryResult) -> Option<String> {
        let p = r.pipeline.as_ref()?;
        let out = std::process::Command::new("sh")
            .arg("-c")
            .arg(p)
            .current_dir(self.dir.path())
            .output()
            .expect("sh runs");
        // `grep -c` exits 1 when it counts 0.
        assert!(
            out.status.success() || (!out.stdout.is_empty() && out.stderr.is_empty()),
            "{}: pipeline failed: {p}\n{}",
            self.truth.format,
            String::from_utf8_lossy(&out.stderr)
        );
        Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
    }

    fn check_number(&self, r: &QueryResult, want: f64, what: &str) {
        let Some(out) = self.shell(r) else { return };
        let got: f64 = out
            .split_whitespace()
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                panic!(
                    "{} {what}: pipeline printed {out:?}: {:?}",
                    self.truth.format, r.pipeline
                )
            });
        assert!(
            (got - want).abs() <= 1e-6 * want.abs().max(1.0),
            "{} {what}: pipeline {:?} printed {got}, truth {want}",
            self.truth.format,
            r.pipeline
        );
    }

    fn timed(&self) -> impl Iterator<Item = &TruthEvent> {
        self.truth.events.iter().filter(|e| e.sec.is_some())
    }
}

fn count(r: &QueryResult) -> u64 {
    match r.value {
        QueryValue::Count { count } | QueryValue::Distinct { count } => count,
        ref v => panic!("not a count: {v:?}"),
    }
}

fn q(measure: Measure) -> Query {
    Query {
        measure,
        ..Query::default()
    }
}

fn filter(field: Option<&str>, op: FilterOp, value: Scalar) -> Filter {
    Filter::new(field.map(Field::new), op, value)
}

fn counts_and_contains(c: &Case) {
    let t = &c.truth;
    let r = c.run(&q(Measure::Count));
    assert_eq!(r.sources[0].format, t.format, "detected format");
    assert_eq!(count(&r), t.engine_events(), "{}: events", t.format);
    assert_eq!(r.sources[0].lines, t.lines, "{}: lines", t.format);
    assert_eq!(r.sources[0].unparsed, t.unparsed, "{}: unparsed", t.format);
    c.check_number(&r, t.engine_events() as f64, "count");

    let mut qq = q(Measure::Count);
    qq.filters = vec![filter(
        None,
        FilterOp::Contains,
        Scalar::Text(TOKEN.to_uppercase()),
    )];
    let r = c.run(&qq);
    let want = t.events.iter().filter(|e| e.token).count() as u64;
    assert_eq!(count(&r), want, "{}: contains", t.format);
    assert!(
        r.described_en.contains("case-insensitive"),
        "{}",
        r.described_en
    );
    c.check_number(&r, want as f64, "contains");
    // A regex negated: every event that does not match, unparsed lines included. The word
    // is bounded as the planner bounds a wording, which every pipeline must read alike.
    let bounded = format!("(?i)(?:^|[^A-Za-z0-9_]){TOKEN}(?:[^A-Za-z0-9_]|$)");
    qq.filters = vec![Filter {
        negate: true,
        ..filter(None, FilterOp::Regex, Scalar::Text(bounded))
    }];
    let r = c.run(&qq);
    let want = t.engine_events() - want;
    assert_eq!(count(&r), want, "{}: not matching", t.format);
    c.check_number(&r, want as f64, "not matching");
}

fn status(c: &Case) {
    let t = &c.truth;
    if t.events.iter().all(|e| e.status.is_none()) {
        return;
    }
    let mut qq = q(Measure::Count);
    qq.filters = vec![filter(Some("status"), FilterOp::Class, Scalar::Number(5.0))];
    let r = c.run(&qq);
    let want = t
        .events
        .iter()
        .filter(|e| e.status.is_some_and(|s| (500..600).contains(&s)))
        .count() as u64;
    assert_eq!(count(&r), want, "{}: 5xx", t.format);
    c.check_number(&r, want as f64, "5xx");
    // Not 5xx: the events with another status, not the lines without one.
    qq.filters[0].negate = true;
    let r = c.run(&qq);
    let want = t
        .events
        .iter()
        .filter(|e| e.status.is_some_and(|s| !(500..600).contains(&s)))
        .count() as u64;
    assert_eq!(count(&r), want, "{}: not 5xx", t.format);
    assert!(r.described_en.contains("not: "), "{}", r.described_en);
    c.check_number(&r, want as f64, "not 5xx");
    qq.filters = vec![filter(Some("status"), FilterOp::Eq, Scalar::Number(404.0))];
    let r = c.run(&qq);
    let want = t.events.iter().filter(|e| e.status == Some(404)).count() as u64;
    assert_eq!(count(&r), want, "{}: 404", t.format);
    c.check_number(&r, want as f64, "404");
}

fn groups(c: &Case) {
    let t = &c.truth;
    let mut by: BTreeMap<&str, u64> = BTreeMap::new();
    for e in &t.events {
        if let Some(k) = &e.key {
            *by.entry(k.as_str()).or_insert(0) += 1;
        }
    }
    let mut want: Vec<(&str, u64)> = by.iter().map(|(k, v)| (*k, *v)).collect();
    want.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut qq = q(Measure::Count);
    qq.group_by = vec![Field::new(t.group)];
    qq.limit = Some(3);
    let r = c.run(&qq);
    let QueryValue::Groups {
        rows, groups, rest, ..
    } = &r.value
    else {
        panic!("{}: not groups", t.format)
    };
    let got: Vec<(&str, u64)> = rows.iter().map(|g| (g.key[0].as_str(), g.count)).collect();
    let top: Vec<(&str, u64)> = want.iter().take(3).copied().collect();
    assert_eq!(got, top, "{}: top groups", t.format);
    assert_eq!(*groups, want.len() as u64, "{}: groups", t.format);
    assert_eq!(
        *rest,
        want.iter().skip(3).map(|x| x.1).sum::<u64>(),
        "{}: rest",
        t.format
    );
    if let Some(out) = c.shell(&r) {
        let shown: Vec<(String, u64)> = out
            .lines()
            .map(|l| {
                let l = l.trim();
                let (n, k) = l.split_once(' ').unwrap_or((l, ""));
                (k.to_string(), n.parse().unwrap_or(0))
            })
            .collect();
        let top: Vec<(String, u64)> = top.iter().map(|(k, n)| (k.to_string(), *n)).collect();
        assert_eq!(shown, top, "{}: pipeline {:?}", t.format, r.pipeline);
    }
    if let Some((field, _)) = t.duration {
        // The slowest group: groups ranked by the max of the duration field.
        let mut max_by: BTreeMap<&str, f64> = BTreeMap::new();
        for e in &t.events {
            if let (Some(k), Some(d)) = (&e.key, e.dur) {
                let m = max_by.entry(k.as_str()).or_insert(f64::MIN);
                *m = m.max(d);
            }
        }
        let mut want: Vec<(&str, f64)> = max_by.into_iter().collect();
        want.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        let mut qq = q(Measure::Max);
        qq.field = Some(Field::new(field));
        qq.group_by = vec![Field::new(t.group)];
        qq.limit = Some(2);
        let r = c.run(&qq);
        let QueryValue::Groups { rows, .. } = &r.value else {
            panic!("groups")
        };
        let got: Vec<(&str, Option<f64>)> =
            rows.iter().map(|g| (g.key[0].as_str(), g.value)).collect();
        let top: Vec<(&str, Option<f64>)> =
            want.iter().take(2).map(|(k, v)| (*k, Some(*v))).collect();
        assert_eq!(got, top, "{}: slowest groups", t.format);
    }
    let mut qq = q(Measure::CountDistinct);
    qq.field = Some(Field::new(t.group));
    let r = c.run(&qq);
    assert_eq!(count(&r), want.len() as u64, "{}: distinct", t.format);
    c.check_number(&r, want.len() as f64, "distinct");
}

/// The value at rank ceil(p/100 * n), `p` in percent, counted here in hundredths.
fn nearest_rank(sorted: &[f64], p: f64) -> f64 {
    let hundredths = (p * 100.0).round() as u64;
    let rank = (hundredths * sorted.len() as u64).div_ceil(10_000).max(1) as usize;
    sorted[rank - 1]
}

fn durations(c: &Case) {
    let t = &c.truth;
    let Some((field, factor)) = t.duration else {
        return;
    };
    let vals: Vec<(f64, u64)> = t
        .events
        .iter()
        .filter_map(|e| e.dur.map(|d| (d, e.line)))
        .collect();
    let max = vals.iter().map(|v| v.0).fold(f64::MIN, f64::max);
    let max_line = vals.iter().find(|v| v.0 == max).map(|v| v.1);
    let mut qq = q(Measure::Max);
    qq.field = Some(Field::new(field));
    let r = c.run(&qq);
    let QueryValue::Stat { value, row, n, .. } = &r.value else {
        panic!("stat")
    };
    assert_eq!(*value, Some(max), "{}: max", t.format);
    assert_eq!(*n, vals.len() as u64, "{}: n", t.format);
    assert_eq!(
        row.as_ref().map(|r| r.line),
        max_line,
        "{}: max row",
        t.format
    );
    c.check_number(&r, max, "max");
    let mut sorted: Vec<f64> = vals.iter().map(|v| v.0).collect();
    sorted.sort_by(f64::total_cmp);
    let any = |p: f64| Measure::percentile(Rank::of_percent(p).expect("a rank"));
    for (m, p) in [
        (Measure::P50, 50.0),
        (Measure::P95, 95.0),
        (Measure::P99, 99.0),
        (any(80.0), 80.0),
        (any(99.9), 99.9),
        (any(12.5), 12.5),
    ] {
        qq.measure = m;
        let r = c.run(&qq);
        let QueryValue::Stat { value, .. } = &r.value else {
            panic!("stat")
        };
        assert_eq!(*value, Some(nearest_rank(&sorted, p)), "{}: {m}", t.format);
        c.check_number(&r, nearest_rank(&sorted, p), "percentile");
    }
    qq.measure = Measure::Mean;
    let mean = sorted.iter().sum::<f64>() / sorted.len() as f64;
    let r = c.run(&qq);
    let QueryValue::Stat { value, .. } = &r.value else {
        panic!("stat")
    };
    assert!(
        (value.unwrap_or(0.0) - mean).abs() < 1e-9 * mean.max(1.0),
        "{}: mean",
        t.format
    );
    c.check_number(&r, mean, "mean");
    qq.measure = Measure::Stats;
    let r = c.run(&qq);
    let QueryValue::Stats {
        stats: Some(s),
        max_row,
        ..
    } = &r.value
    else {
        panic!("stats")
    };
    assert_eq!(
        (s.n, s.min, s.max, s.p90),
        (
            sorted.len() as u64,
            sorted[0],
            max,
            nearest_rank(&sorted, 90.0)
        )
    );
    assert_eq!(max_row.as_ref().map(|r| r.line), max_line);
    // Unit conversion: over one second, whatever unit the field is written in.
    let mut qq = q(Measure::Count);
    qq.filters = vec![Filter {
        unit: Unit::S,
        ..filter(Some("duration"), FilterOp::Gt, Scalar::Number(1.0))
    }];
    let r = c.run(&qq);
    let want = vals.iter().filter(|v| v.0 * factor > 1.0).count() as u64;
    assert_eq!(count(&r), want, "{}: duration > 1 s", t.format);
    c.check_number(&r, want as f64, "duration > 1 s");
}

fn buckets_and_rows(c: &Case) {
    let t = &c.truth;
    let timed: Vec<&TruthEvent> = c.timed().collect();
    if timed.is_empty() {
        let e = run_query(
            &[QueryFile::new(c.name.clone(), c.path())],
            &q(Measure::Buckets),
            &QueryOptions::default(),
            &AtomicBool::new(false),
        )
        .expect_err("no timestamps");
        assert!(matches!(e, QueryError::NoTimestamps { .. }), "{e}");
        return;
    }
    let mut per_min: BTreeMap<i64, u64> = BTreeMap::new();
    for e in &timed {
        *per_min
            .entry(e.sec.unwrap_or(0).div_euclid(60))
            .or_insert(0) += 1;
    }
    let mut qq = q(Measure::Buckets);
    qq.bucket = BucketWidth::Minute;
    let r = c.run(&qq);
    let QueryValue::Buckets {
        buckets,
        peak,
        width_seconds,
    } = &r.value
    else {
        panic!("buckets")
    };
    assert_eq!(*width_seconds, 60);
    let got: Vec<u64> = buckets.iter().map(|b| b.count).filter(|&n| n > 0).collect();
    let want: Vec<u64> = per_min.values().copied().collect();
    assert_eq!(got, want, "{}: per-minute counts", t.format);
    let top = want.iter().copied().max().unwrap_or(0);
    assert_eq!(
        peak.as_ref().map(|p| p.count),
        Some(top),
        "{}: peak",
        t.format
    );
    if let Some(out) = c.shell(&r) {
        let shown: Vec<u64> = out
            .lines()
            .filter_map(|l| l.split_whitespace().next()?.parse().ok())
            .collect();
        assert_eq!(shown, want, "{}: pipeline {:?}", t.format, r.pipeline);
    }
    let mut per5: BTreeMap<i64, u64> = BTreeMap::new();
    for e in &timed {
        *per5.entry(e.sec.unwrap_or(0).div_euclid(300)).or_insert(0) += 1;
    }
    qq.bucket = BucketWidth::FiveMinutes;
    let r = c.run(&qq);
    let QueryValue::Buckets { buckets, .. } = &r.value else {
        panic!("buckets")
    };
    let got: Vec<u64> = buckets.iter().map(|b| b.count).filter(|&n| n > 0).collect();
    assert_eq!(
        got,
        per5.values().copied().collect::<Vec<_>>(),
        "{}: per 5 minutes",
        t.format
    );
    let auto = c.run(&q(Measure::Buckets));
    assert!(
        matches!(
            auto.value,
            QueryValue::Buckets {
                width_seconds: 60,
                ..
            }
        ),
        "auto width"
    );

    rows(c, &timed);
}

/// First and last event: sort by time, limit 1.
fn rows(c: &Case, timed: &[&TruthEvent]) {
    let t = &c.truth;
    let mut qq = q(Measure::Rows);
    qq.field = Some(Field::new("time"));
    qq.order = Order::Asc;
    qq.limit = Some(1);
    let r = c.run(&qq);
    let QueryValue::Rows { rows, .. } = &r.value else {
        panic!("rows")
    };
    assert_eq!(rows[0].line, timed[0].line, "{}: first event", t.format);
    qq.order = Order::Desc;
    let r = c.run(&qq);
    let QueryValue::Rows { rows, .. } = &r.value else {
        panic!("rows")
    };
    let last_sec = timed.iter().filter_map(|e| e.sec).max();
    assert_eq!(
        timed.iter().find(|e| e.sec == last_sec).map(|e| e.sec),
        Some(last_sec)
    );
    let last = r.value.clone();
    let QueryValue::Rows {
        rows: last_rows, ..
    } = last
    else {
        panic!("rows")
    };
    let cand: Vec<u64> = timed
        .iter()
        .filter(|e| e.sec == last_sec)
        .map(|e| e.line)
        .collect();
    assert!(
        cand.contains(&last_rows[0].line),
        "{}: last event {} in {cand:?}",
        t.format,
        rows[0].line
    );
}

fn windows(c: &Case) {
    let t = &c.truth;
    let timed: Vec<&TruthEvent> = c.timed().collect();
    if timed.is_empty() {
        return;
    }
    let first = timed[0].sec.unwrap_or(0);
    let day = first - first.rem_euclid(86_400);
    let (a, b) = (day + 10 * 3600 + 5 * 60, day + 10 * 3600 + 9 * 60 + 59);
    let mut qq = q(Measure::Count);
    qq.window = Some(Window::Between {
        from: Some(TimePoint("10:05".into())),
        to: Some(TimePoint("10:09".into())),
    });
    let r = c.run(&qq);
    let want = timed
        .iter()
        .filter(|e| e.sec.is_some_and(|s| s >= a && s <= b))
        .count() as u64;
    assert_eq!(count(&r), want, "{}: window", t.format);
    c.check_number(&r, want as f64, "window");
    let end = timed.iter().filter_map(|e| e.sec).max().unwrap_or(0);
    qq.window = Some(Window::Last { seconds: 300 });
    let r = c.run(&qq);
    let want = timed
        .iter()
        .filter(|e| e.sec.is_some_and(|s| s >= end - 300))
        .count() as u64;
    assert_eq!(count(&r), want, "{}: last 5 minutes", t.format);
    if let Some(tag) = t.tag {
        let mut qq = q(Measure::Count);
        qq.filters = vec![filter(None, FilterOp::Tag, Scalar::Text(tag.into()))];
        let r = c.run(&qq);
        let want = t.events.iter().filter(|e| e.tagged).count() as u64;
        assert_eq!(count(&r), want, "{}: tag {tag}", t.format);
        c.check_number(&r, want as f64, "tag");
        qq.filters[0].negate = true;
        let r = c.run(&qq);
        let want = t.engine_events() - want;
        assert_eq!(count(&r), want, "{}: not tagged {tag}", t.format);
        c.check_number(&r, want as f64, "not tagged");
    }
}

fn check_format(fmt: &'static str, seed: u64) {
    let c = Case::new(fmt, seed);
    counts_and_contains(&c);
    status(&c);
    groups(&c);
    durations(&c);
    buckets_and_rows(&c);
    windows(&c);
}

macro_rules! format_tests {
    ($($name:ident => $fmt:expr,)*) => {
        $(#[test] fn $name() { check_format($fmt, 7 + $fmt.len() as u64); })*
        #[test]
        fn the_matrix_covers_every_generated_format() {
            let tested = [$($fmt),*];
            assert_eq!(tested.len(), FORMATS.len());
            for f in FORMATS { assert!(tested.contains(f), "{f}"); }
        }
    };
}

format_tests! {
    truth_nginx_combined => "nginx_combined",
    truth_nginx_timed => "nginx_timed",
    truth_nginx_common => "nginx_common",
    truth_traefik => "traefik",
    truth_json_lines => "json_lines",
    truth_journal_json => "journal_json",
    truth_logfmt => "logfmt",
    truth_syslog_rfc3164 => "syslog_rfc3164",
    truth_syslog_rfc5424 => "syslog_rfc5424",
    truth_sshd => "sshd",
    truth_kernel => "kernel",
    truth_dmesg => "dmesg",
    truth_java_logback => "java_logback",
    truth_java_log4j => "java_log4j",
    truth_haproxy_http => "haproxy_http",
    truth_postgresql => "postgresql",
    truth_mysql_slow => "mysql_slow",
    truth_generic => "generic",
    truth_w3c => "w3c",
    truth_docker_json => "docker_json",
}
