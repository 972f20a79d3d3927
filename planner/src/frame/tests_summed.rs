//! "how many rows were flushed in total": the numbers a planted log writes before the noun,
//! added up over the events the question's words pick, checked against the planted sums.

use std::sync::atomic::AtomicBool;

use llmops_common::query::{Measure, QueryValue};
use llmops_loganalysis::table::{self, QueryFile, QueryOptions};

use super::tests_answers::Planted;
use super::{FrameCtx, Understood};

/// Flushes whose line writes no number of rows (a retry).
const UNNUMBERED: u64 = 600 / 70 + 1;

/// A sink's log: batches flushed (a few without their number of rows), rows discarded when
/// its queue is full, heartbeats; and the planted sums of flushed and discarded rows.
fn sink_log() -> (String, u64, u64) {
    let (mut text, mut flushed, mut discarded) = (String::new(), 0u64, 0u64);
    for i in 0..600u64 {
        let at = format!("2031-03-04T01:{:02}:{:02}Z", i / 10 % 60, i % 10 * 6);
        match i % 7 {
            0 if i % 10 == 0 => text.push_str(&format!(
                "{at} I! [sink.store] Flushed rows to store again after a retry\n"
            )),
            0 | 2 | 4 => {
                let n = 100 + i * 37 % 900;
                flushed += n;
                text.push_str(&format!(
                    "{at} I! [sink.store] Flushed {n} rows to store in {}ms\n",
                    i % 90
                ));
            }
            5 => {
                let n = 10 + i % 89;
                discarded += n;
                text.push_str(&format!(
                    "{at} W! [sink.store] Queue full; {n} rows have been discarded\n"
                ));
            }
            _ => text.push_str(&format!("{at} D! [agent] heartbeat ok\n")),
        }
    }
    (text, flushed, discarded)
}

/// The sum the frame of `question` asks over the planted log, its soft conditions applied
/// as the tool applies them (they match here), and the result's notes.
fn summed(p: &Planted, question: &str) -> (Option<f64>, Vec<String>) {
    let ctx = FrameCtx::of_uploads(p.uploads());
    let Some(Understood::Query(f)) = super::question::understand(question, &ctx) else {
        panic!("no query for {question:?}");
    };
    assert_eq!(f.query.measure, Measure::Sum, "{question}: {:?}", f.query);
    assert!(f.sums_written(), "{question}");
    let mut q = f.query.clone();
    q.filters.extend(f.soft.iter().cloned());
    let files: Vec<QueryFile> = p
        .uploads()
        .iter()
        .map(|u| QueryFile::new(u.filename.clone(), u.path.clone()))
        .collect();
    let r = table::run_query(
        &files,
        &q,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .unwrap_or_else(|e| panic!("{question:?}: {q:?}: {e}"));
    match r.value {
        QueryValue::Stat { value, .. } => (value, r.notes),
        other => panic!("{question}: not a statistic: {other:?}"),
    }
}

#[test]
fn a_count_of_a_noun_the_log_writes_after_a_number_adds_the_numbers_up() {
    let (text, flushed, discarded) = sink_log();
    let p = Planted::new("sink.log", &text);
    for q in [
        "how many rows were flushed in total?",
        "total rows flushed to the store",
        "一共 flush 了多少 rows",
    ] {
        let (sum, notes) = summed(&p, q);
        assert_eq!(sum, Some(flushed as f64), "{q}");
        // The flushes that write no number are said to be left out of the sum.
        let left_out = format!("{UNNUMBERED} matched events had no value");
        assert!(
            notes.iter().any(|n| n.contains(&left_out)),
            "{q}: {notes:?}"
        );
    }
    for q in ["how many rows got discarded?", "一共 discard 了多少 rows？"] {
        assert_eq!(summed(&p, q).0, Some(discarded as f64), "{q}");
    }
}

#[test]
fn a_count_of_events_stays_a_count() {
    let (text, _, _) = sink_log();
    let p = Planted::new("sink.log", &text);
    let ctx = FrameCtx::of_uploads(p.uploads());
    for q in [
        "how many errors?",
        "how many requests failed",
        "how many heartbeats",
        "how many times was the queue full",
        "how many warnings",
    ] {
        let Some(Understood::Query(f)) = super::question::understand(q, &ctx) else {
            panic!("no query for {q:?}");
        };
        assert_ne!(f.query.measure, Measure::Sum, "{q}: {:?}", f.query);
        assert!(!f.sums_written(), "{q}");
    }
}
