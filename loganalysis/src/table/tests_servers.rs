//! Planted-truth checks of the gunicorn, Jetty StdErrLog, Nagios, dpkg and APT history formats:
//! generated files with known levels, workers, loggers, hosts and packages, queried through
//! the engine.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use llmops_common::query::{Field, Filter, FilterOp, Measure, Order, Query, QueryValue, Scalar};

use super::tests_formats::{format_of, groups, run, Lcg};

fn top(dir: &std::path::Path, name: &str, by: &str) -> BTreeMap<String, u64> {
    groups(dir, name, Vec::new(), by)
}

fn count(dir: &std::path::Path, name: &str, f: Filter) -> u64 {
    let q = Query {
        filters: vec![f],
        ..Query::default()
    };
    run(dir, name, &q).matched
}

#[test]
fn gunicorn_worker_timeouts_levels_and_tracebacks_count_as_planted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rng = Lcg(21);
    let (mut text, mut timeouts, mut errors) = (String::new(), 0u64, 0u64);
    for i in 0..400u32 {
        let t = format!("2032-02-17 01:{:02}:{:02} +0000", (i / 60) % 60, i % 60);
        match rng.next(4) {
            0 => {
                timeouts += 1;
                let _ = writeln!(
                    text,
                    "[{t}] [1] [CRITICAL] WORKER TIMEOUT (pid:{})",
                    10 + rng.next(8)
                );
            }
            1 => {
                errors += 1;
                let _ = writeln!(
                    text,
                    "[{t}] [17] [ERROR] Exception on /v1/orders [POST]\nTraceback (most recent call last):\n  File \"app.py\", line 3, in f\n    x()\nKeyError: 'sku'"
                );
            }
            _ => {
                let _ = writeln!(text, "[{t}] [17] [INFO] Booting worker with pid: 17");
            }
        }
    }
    std::fs::write(dir.path().join("error.log"), text).expect("write");
    assert_eq!(format_of(dir.path(), "error.log"), "gunicorn");
    let tag = Filter::new(None, FilterOp::Tag, Scalar::Text("worker_timeout".into()));
    assert_eq!(count(dir.path(), "error.log", tag), timeouts);
    let fatal = Filter::new(
        Some(Field::new("level")),
        FilterOp::Eq,
        Scalar::Text("FATAL".into()),
    );
    assert_eq!(count(dir.path(), "error.log", fatal), timeouts);
    let key_error = Filter::new(
        Some(Field::new("exception")),
        FilterOp::Eq,
        Scalar::Text("KeyError".into()),
    );
    assert_eq!(count(dir.path(), "error.log", key_error), errors);
}

#[test]
fn jetty_loggers_and_nagios_hosts_group_as_planted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rng = Lcg(5);
    let loggers = ["oejs.Server", "oejs.HttpChannel", "oejshC.shop"];
    let (mut text, mut by_logger) = (String::new(), BTreeMap::<String, u64>::new());
    for i in 0..300u32 {
        let logger = loggers[rng.next(3) as usize];
        *by_logger.entry(logger.to_string()).or_default() += 1;
        let level = ["INFO", "WARN", "DBUG"][rng.next(3) as usize];
        let _ = writeln!(
            text,
            "2026-03-03 08:{:02}:{:02}.{:03}:{level}:{logger}:qtp551734240-{}: handled /billing/{i}",
            (i / 60) % 60,
            i % 60,
            i % 1000,
            rng.next(20)
        );
    }
    std::fs::write(dir.path().join("jetty.log"), text).expect("write");
    assert_eq!(format_of(dir.path(), "jetty.log"), "jetty_stderr");
    assert_eq!(top(dir.path(), "jetty.log", "logger"), by_logger);
    let hosts = ["web-01", "web-02", "db-01"];
    let (mut text, mut by_host) = (String::new(), BTreeMap::<String, u64>::new());
    for i in 0..200u64 {
        let host = hosts[rng.next(3) as usize];
        *by_host.entry(host.to_string()).or_default() += 1;
        let epoch = 1_773_446_400 + i * 60;
        let _ = match rng.next(3) {
            0 => writeln!(text, "[{epoch}] SERVICE ALERT: {host};HTTP;CRITICAL;SOFT;1;CRITICAL - timeout"),
            1 => writeln!(text, "[{epoch}] SERVICE NOTIFICATION: oncall;{host};SSH;WARNING;notify-service-by-email;WARNING - slow"),
            _ => writeln!(text, "[{epoch}] Warning: The check of service 'Load' on host '{host}' looks like it was orphaned."),
        };
    }
    std::fs::write(dir.path().join("nagios.log"), text).expect("write");
    assert_eq!(format_of(dir.path(), "nagios.log"), "nagios");
    assert_eq!(top(dir.path(), "nagios.log", "host"), by_host);
}

#[test]
fn couchbase_categories_and_long_calls_read_as_planted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rng = Lcg(13);
    let cats = ["ns_server", "menelaus", "user"];
    let (mut text, mut by_cat, mut longest) = (String::new(), BTreeMap::<String, u64>::new(), 0u64);
    for i in 0..240u32 {
        let cat = cats[rng.next(3) as usize];
        *by_cat.entry(cat.to_string()).or_default() += 1;
        let us = 1_000_000 + rng.next(20_000_000);
        longest = longest.max(us);
        let _ = writeln!(
            text,
            "[{cat}:warn,2026-03-14T06:{:02}:{:02}.121-07:00,ns_1@cb1.example.internal:ns_memcached-orders<0.{i}.0>:ns_memcached:verify_report_long_call:336]Call {{stats,<<>>}} took too long: {us} us\n",
            (i / 60) % 60,
            i % 60
        );
    }
    std::fs::write(dir.path().join("info.log"), text).expect("write");
    assert_eq!(format_of(dir.path(), "info.log"), "couchbase");
    assert_eq!(top(dir.path(), "info.log", "logger"), by_cat);
    let max = super::tests_formats::stat(
        dir.path(),
        "info.log",
        llmops_common::query::Measure::Max,
        "duration",
    );
    // In the field's own unit, microseconds.
    assert_eq!(max, longest as f64);
}

#[test]
fn dpkg_operations_count_packages_and_versions_as_planted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pkgs = ["libfoo1", "barctl", "baz-utils", "qux-common", "zap"];
    let mut rng = Lcg(31);
    let mut text = String::new();
    let (mut upgrades, mut upgraded, mut removals) = (0u64, BTreeMap::new(), 0u64);
    let mut installed_last = None;
    for i in 0..300u32 {
        let t = format!("2031-05-06 07:{:02}:{:02}", (i / 60) % 60, i % 60);
        let p = pkgs[rng.next(5) as usize];
        let (old, new) = (format!("1.{i}-1"), format!("1.{}-1", i + 1));
        let lines = match rng.next(3) {
            0 => {
                upgrades += 1;
                *upgraded.entry(p.to_string()).or_insert(0u64) += 1;
                format!("{t} upgrade {p}:amd64 {old} {new}\n{t} status half-configured {p}:amd64 {old}\n{t} configure {p}:amd64 {new} <none>\n{t} status installed {p}:amd64 {new}\n")
            }
            1 => {
                installed_last = Some(p);
                format!("{t} install {p}:all <none> {new}\n{t} status unpacked {p}:all {new}\n{t} status installed {p}:all {new}\n")
            }
            _ => {
                removals += 1;
                format!("{t} remove {p}:amd64 {old} <none>\n{t} status not-installed {p}:amd64 <none>\n")
            }
        };
        text.push_str(&lines);
        if i % 50 == 0 {
            let _ = writeln!(text, "{t} startup packages configure");
        }
    }
    std::fs::write(dir.path().join("dpkg.log"), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, "dpkg.log"), "dpkg");
    let action = |a: &str| {
        Filter::new(
            Some(Field::new("action")),
            FilterOp::Eq,
            Scalar::Text(a.into()),
        )
    };
    assert_eq!(count(d, "dpkg.log", action("upgrade")), upgrades);
    assert_eq!(count(d, "dpkg.log", action("remove")), removals);
    assert_eq!(
        groups(d, "dpkg.log", vec![action("upgrade")], "package"),
        upgraded
    );
    let none = Filter::new(
        Some(Field::new("new_version")),
        FilterOp::Eq,
        Scalar::Text("<none>".into()),
    );
    // A removal's new version and a configure step's second one.
    assert_eq!(count(d, "dpkg.log", none), removals + upgrades);
    // The package installed last: the newest install row.
    let q = Query {
        filters: vec![action("install")],
        measure: Measure::Rows,
        field: Some(Field::new("time")),
        order: Order::Desc,
        limit: Some(1),
        ..Query::default()
    };
    let QueryValue::Rows { rows, .. } = run(d, "dpkg.log", &q).value else {
        panic!("rows")
    };
    let last = installed_last.expect("the generator installs some package");
    assert!(
        rows[0].text.contains(&format!(" install {last}:all ")),
        "{}",
        rows[0].text
    );
}

#[test]
fn apt_history_records_count_runs_users_and_packages_as_planted() {
    let dir = tempfile::tempdir().expect("tempdir");
    let users = ["opsa", "opsb"];
    let mut rng = Lcg(37);
    let mut text = String::from("\n");
    let (mut by_user, mut upgrading, mut with_zlib) = (BTreeMap::new(), 0u64, 0u64);
    for i in 0..120u32 {
        let day = 1 + i / 24;
        let (h, m) = (i % 24, (i * 7) % 60);
        let _ = writeln!(text, "Start-Date: 2031-03-{day:02}  {h:02}:{m:02}:00");
        let user = users[rng.next(2) as usize];
        let scripted = rng.next(3) == 0;
        if scripted {
            let _ = writeln!(text, "Commandline: /usr/bin/unattended-upgrade");
        } else {
            let _ = writeln!(text, "Commandline: apt-get install -y pkg{i}");
            let _ = writeln!(text, "Requested-By: {user} (1000)");
            *by_user.entry(user.to_string()).or_insert(0u64) += 1;
            let _ = writeln!(text, "Install: pkg{i}:amd64 (1.0-{i})");
        }
        if scripted || rng.next(2) == 0 {
            upgrading += 1;
            let zlib = rng.next(2) == 0;
            with_zlib += u64::from(zlib);
            let extra = if zlib {
                ", zlib1g:amd64 (1:1.2.13-1, 1:1.2.13-2)"
            } else {
                ""
            };
            let _ = writeln!(text, "Upgrade: libfoo1:amd64 (2.{i}-1, 2.{i}-2){extra}");
        }
        let _ = writeln!(text, "End-Date: 2031-03-{day:02}  {h:02}:{m:02}:09\n");
    }
    std::fs::write(dir.path().join("history.log"), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, "history.log"), "apt_history");
    assert_eq!(run(d, "history.log", &Query::default()).matched, 120);
    assert_eq!(top(d, "history.log", "user"), by_user);
    let has = |field: &str, v: &str| {
        Filter::new(
            Some(Field::new(field)),
            FilterOp::Contains,
            Scalar::Text(v.into()),
        )
    };
    assert_eq!(
        count(d, "history.log", has("upgraded", "libfoo1")),
        upgrading
    );
    assert_eq!(
        count(d, "history.log", has("upgraded", "zlib1g")),
        with_zlib
    );
}
