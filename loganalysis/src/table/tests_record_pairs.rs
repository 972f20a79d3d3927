//! Planted-truth checks of pairs written in a record's own syntax: `KEY : value` columns
//! of multi-line records and `Key(value)` pairs, counted, grouped and checked by Perl.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;

use llmops_common::query::{
    Field, Filter, FilterOp, Measure, Query, QueryResult, QueryValue, Scalar,
};

use super::tests_formats::{shell_output, Lcg};
use super::*;

fn run_in(dir: &std::path::Path, name: &str, q: &Query) -> QueryResult {
    let files = vec![QueryFile::new(name, dir.join(name))];
    run_query(&files, q, &QueryOptions::default(), &AtomicBool::new(false))
        .unwrap_or_else(|e| panic!("{q:?}: {e}"))
}

/// Multi-line diagnostic records: a timed first line, then aligned `KEY : value` lines.
fn diag_log(seed: u64, n: usize) -> (String, BTreeMap<String, u64>, BTreeSet<u64>) {
    let users = ["BATCHUSR", "APPSRV", "REPORTS"];
    let mut rng = Lcg(seed);
    let (mut out, mut by_user, mut pids) = (String::new(), BTreeMap::new(), BTreeSet::new());
    for i in 0..n {
        let user = users[rng.next(3) as usize];
        let pid = 28_000 + rng.next(4);
        *by_user.entry(user.to_string()).or_insert(0u64) += 1;
        pids.insert(pid);
        let _ = write!(
            out,
            "2026-03-14-{:02}.{:02}.{:02}.{:06}-300 I{i}E{}              LEVEL: Warning\n\
             PID     : {pid}                TID : {} PROC : db2sysc 0\n\
             AUTHID  : {user}              HOSTNAME: dbhost1\n\
             MESSAGE : ADM5502W  The escalation of locks was successful.\n\n",
            (i / 3600) % 24,
            (i / 60) % 60,
            i % 60,
            rng.next(999_999),
            500 + rng.next(400),
            140_000_000 + rng.next(1000),
        );
    }
    (out, by_user, pids)
}

#[test]
fn aligned_keys_of_multi_line_records_are_fields_with_their_roles() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (text, by_user, pids) = diag_log(4, 300);
    std::fs::write(dir.path().join("diag.log"), text).expect("write");
    let q = Query {
        group_by: vec![Field::new("user")],
        limit: Some(10),
        ..Query::default()
    };
    let r = run_in(dir.path(), "diag.log", &q);
    let QueryValue::Groups { rows, .. } = &r.value else {
        panic!("groups: {:?}", r.value)
    };
    let got: BTreeMap<String, u64> = rows.iter().map(|g| (g.key[0].clone(), g.count)).collect();
    assert_eq!(got, by_user);
    let q = Query {
        measure: Measure::CountDistinct,
        field: Some(Field::new("pid")),
        ..Query::default()
    };
    let r = run_in(dir.path(), "diag.log", &q);
    assert_eq!(
        r.value,
        QueryValue::Distinct {
            count: pids.len() as u64
        }
    );
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("user")),
            FilterOp::Eq,
            Scalar::Text("APPSRV".into()),
        )],
        ..Query::default()
    };
    let r = run_in(dir.path(), "diag.log", &q);
    assert_eq!(r.matched, by_user["APPSRV"]);
    let perl = r.pipeline.as_deref().expect("a Perl check");
    assert_eq!(
        shell_output(dir.path(), perl),
        by_user["APPSRV"].to_string(),
        "{perl}"
    );
}

#[test]
fn parenthesised_pairs_are_fields_read_by_the_engine_and_perl() {
    let dir = tempfile::tempdir().expect("tempdir");
    let programs = ["amqrmppa", "runmqchl", "amqzlaa0"];
    let mut rng = Lcg(8);
    let (mut text, mut by_program) = (String::new(), BTreeMap::<String, u64>::new());
    for i in 0..200 {
        let program = programs[rng.next(3) as usize];
        *by_program.entry(program.to_string()).or_default() += 1;
        let _ = write!(
            text,
            "03/13/2026 10:{:02}:{:02} PM - Process({}.{}) User(mqm) Program({program})\n\
             \x20                   Host(mqhost1) Installation(Installation1)\n\
             AMQ9209E: Connection to host '10.95.1.{}' closed.\n\
             ----- amqccita.c : 4214 --------------------------------\n",
            (i / 60) % 60,
            i % 60,
            4000 + rng.next(50),
            rng.next(90),
            rng.next(200)
        );
    }
    std::fs::write(dir.path().join("AMQERR01.LOG"), text).expect("write");
    let q = Query {
        filters: vec![Filter::new(
            Some(Field::new("program")),
            FilterOp::Eq,
            Scalar::Text("runmqchl".into()),
        )],
        ..Query::default()
    };
    let r = run_in(dir.path(), "AMQERR01.LOG", &q);
    assert_eq!(r.matched, by_program["runmqchl"]);
    let perl = r.pipeline.as_deref().expect("a Perl check");
    assert_eq!(
        shell_output(dir.path(), perl),
        by_program["runmqchl"].to_string(),
        "{perl}"
    );
}
