//! A statistic of the events a question names in words the lexicon does not know, over a
//! Java log whose seat bookings write `took=` and whose refund batches, past the sampled
//! head, write `duration=` and a `price=` of their own: the frame narrows softly by the
//! words, measures the field the question means, and the figures match the planted lines;
//! of two logs, the one whose events say the words is the one asked about.

use std::sync::atomic::AtomicBool;

use llmops_common::query::{Query, QueryValue};
use llmops_loganalysis::table::{self, QueryFile, QueryOptions};

use super::tests_answers::Planted;
use super::{FrameCtx, Understood};

struct Truth {
    bookings_took: Vec<f64>,
    batch_prices: Vec<f64>,
}

fn ledger() -> (Planted, Truth) {
    let mut text = String::new();
    let mut t = Truth {
        bookings_took: Vec::new(),
        batch_prices: Vec::new(),
    };
    for i in 0..700u64 {
        let took = 80 + i * 13 % 400;
        t.bookings_took.push(took as f64);
        text.push_str(&format!(
            "2031-05-06T01:{:02}:{:02},{:03} INFO  [http-{}] c.e.t.SeatController - Seat booked: seat=S-{i} price={}.25 EUR took={took} ms\n",
            i / 60 % 60,
            i % 60,
            i % 1000,
            i % 8,
            1 + i % 9,
        ));
    }
    for i in 0..90u64 {
        let price = 400.0 + (i * 37 % 200) as f64 + 0.5;
        t.batch_prices.push(price);
        text.push_str(&format!(
            "2031-05-06T02:{:02}:{:02},{:03} INFO  [worker-{}] c.e.r.RefundRunner - Refund batch {i} closed: seats={} price={price} EUR duration={} ms\n",
            i / 60 % 60,
            i % 60,
            i % 1000,
            i % 4,
            100 + i % 50,
            5000 + i * 17 % 3000,
        ));
    }
    (Planted::new("ledger.log", &text), t)
}

/// The frame of `text` run over the planted log with its soft words, as the query tool
/// runs it: the last of them dropped while they leave nothing to measure.
pub(super) fn figure(p: &Planted, text: &str) -> (Query, f64) {
    let ctx = FrameCtx::of_uploads(p.uploads());
    let Some(Understood::Query(f)) = super::question::understand(text, &ctx) else {
        panic!("no query for {text:?}");
    };
    let u = &p.uploads()[0];
    let files = [QueryFile::new(u.filename.clone(), u.path.clone())];
    let mut soft = f.soft.clone();
    loop {
        let mut q = f.query.clone();
        q.filters.extend(soft.iter().cloned());
        let r = table::run_query(
            &files,
            &q,
            &QueryOptions::default(),
            &AtomicBool::new(false),
        )
        .unwrap_or_else(|e| panic!("{text:?}: {q:?}: {e}"));
        match r.value {
            QueryValue::Stat { value: Some(v), .. } => return (f.query, v),
            _ if soft.pop().is_some() => {}
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn a_statistic_of_events_named_in_words() {
    let (p, t) = ledger();
    let (q, mean) = figure(&p, "how long did bookings take on average");
    assert_eq!(q.field.as_ref().map(|f| f.as_str()), Some("took"), "{q:?}");
    let planted = t.bookings_took.iter().sum::<f64>() / t.bookings_took.len() as f64;
    assert!((mean - planted).abs() < 1e-9, "{mean} vs {planted}");
    let (_, sum) = figure(&p, "total price of the closed refund batches");
    let planted: f64 = t.batch_prices.iter().sum();
    assert!((sum - planted).abs() < 1e-6, "{sum} vs {planted}");
    // A Latin word before a Chinese figure's word, or after "per", says whose it is.
    for q in ["booking 平均耗时是多少", "avg time per booking"] {
        let (q_, mean) = figure(&p, q);
        let planted = t.bookings_took.iter().sum::<f64>() / t.bookings_took.len() as f64;
        assert!(
            (mean - planted).abs() < 1e-9,
            "{q}: {q_:?}: {mean} vs {planted}"
        );
    }
    for q in ["refund 平均 price 是多少", "平均每个 refund 的 price"] {
        let (q_, mean) = figure(&p, q);
        let planted = t.batch_prices.iter().sum::<f64>() / t.batch_prices.len() as f64;
        assert!(
            (mean - planted).abs() < 1e-6,
            "{q}: {q_:?}: {mean} vs {planted}"
        );
    }
    // The key written as the question says it, not the role's field.
    let (q, _) = figure(&p, "median duration of closed refund batches");
    assert_eq!(
        q.field.as_ref().map(|f| f.as_str()),
        Some("duration"),
        "{q:?}"
    );
}

/// A pump controller's log: a pump loses pressure, then is back online; another pump's
/// lines between. "and when was it back online?" keeps the pump and the first event, and
/// swaps the words.
#[test]
fn when_it_was_back_keeps_whom_and_swaps_what() {
    let mut text = String::new();
    for i in 0..40u64 {
        let (pump, msg) = match i {
            5..=20 => ("P7", "pump pressure lost"),
            27 => ("P7", "pump back online after restart"),
            _ => ("P3", "pump flow ok"),
        };
        text.push_str(&format!(
            "time=\"2031-06-01T03:{:02}:{:02}Z\" level=info msg=\"{msg}\" pump.id={pump}\n",
            i / 6,
            i % 6 * 10
        ));
    }
    let p = Planted::new("pumps.log", &text);
    let first = p.answer("when did P7 start losing pressure?");
    let time = |r: &llmops_common::query::QueryResult| match &r.value {
        QueryValue::Rows { rows, .. } => rows.first().and_then(|r| r.time.clone()),
        other => panic!("{other:?}"),
    };
    assert_eq!(time(&first).as_deref(), Some("2031-06-01T03:00:50Z"));
    let back = p.answer_after("and when was it back online?", Some(&first));
    assert_eq!(time(&back).as_deref(), Some("2031-06-01T03:04:30Z"));
}

/// Two logs of one session, the access log the one at hand: a question naming events only
/// the loader's lines say ("chunk") is of the loader's log, and its figures are the planted
/// chunks'; a question naming nothing stays on the log at hand.
#[test]
fn events_named_by_words_only_another_log_says_are_of_that_log() {
    let mut access = String::new();
    for i in 0..200u64 {
        access.push_str(&format!(
            "10.0.0.{} - - [01/Mar/2031:02:{:02}:{:02} +0000] \"GET /api/{} HTTP/1.1\" 200 512 \"-\" \"curl/8\" {}.{:03} 0.010\n",
            i % 9,
            i / 60,
            i % 60,
            i % 4,
            i % 3,
            i * 7 % 1000
        ));
    }
    let (mut loader, mut chunks) = (String::new(), Vec::new());
    for i in 0..150u64 {
        let ms = 100 + i * 61 % 9000;
        chunks.push(ms as f64);
        loader.push_str(&format!(
            "2031-03-01 02:{:02}:{:02},123 INFO  [batch-{}] c.a.Loader - Chunk {i} committed duration={ms} ms\n",
            i / 60,
            i % 60,
            i % 3
        ));
    }
    // The access log is the one at hand: the last upload.
    let p = Planted::many(&[("loader.log", &loader), ("edge.access.log", &access)]);
    let at_hand = |r: &llmops_common::query::QueryResult| r.sources[0].name.clone();
    let slowest = p.answer("how long did the slowest chunk take");
    assert_eq!(at_hand(&slowest), "loader.log");
    let max = chunks.iter().copied().fold(0.0, f64::max);
    assert!(
        matches!(slowest.value, QueryValue::Stat { value: Some(v), .. } if v == max),
        "{:?}",
        slowest.value
    );
    let committed = p.answer("how many chunks were committed in the logs");
    assert_eq!(at_hand(&committed), "loader.log");
    assert!(
        matches!(committed.value, QueryValue::Count { count } if count == chunks.len() as u64),
        "{:?}",
        committed.value
    );
    assert_eq!(at_hand(&p.answer("slowest request")), "edge.access.log");
}

/// A phrase of several words the log never writes together ("the kafka circuit breaker"
/// of a log that writes "circuit breaker opened" with the breaker's name in its own key):
/// tried again word by word, each anywhere in the event; the first such event is the one
/// planted.
#[test]
fn a_phrase_the_log_never_writes_whole_is_tried_word_by_word() {
    let mut text = String::new();
    for i in 0..120u64 {
        let (msg, breaker) = match i {
            40 => ("circuit breaker opened", "kafka-producer"),
            30 | 70 => ("circuit breaker opened", "pg-pool"),
            _ => ("request handled", "none"),
        };
        text.push_str(&format!(
            "{{\"@timestamp\":\"2031-06-01T04:{:02}:{:02}Z\",\"log.level\":\"info\",\"message\":\"{msg}\",\"labels\":{{\"breaker\":\"{breaker}\"}}}}\n",
            i / 60,
            i % 60
        ));
    }
    let p = Planted::new("slots.json", &text);
    let ctx = FrameCtx::of_uploads(p.uploads());
    let q = "when did the kafka circuit breaker first open";
    let Some(Understood::Query(f)) = super::question::understand(q, &ctx) else {
        panic!("no query for {q:?}");
    };
    assert!(!f.or_else.is_empty(), "{:?}", f.query);
    let u = &p.uploads()[0];
    let files = [QueryFile::new(u.filename.clone(), u.path.clone())];
    let again = Query {
        filters: f.or_else.clone(),
        ..f.query.clone()
    };
    let r = table::run_query(
        &files,
        &again,
        &QueryOptions::default(),
        &AtomicBool::new(false),
    )
    .expect("runs");
    let QueryValue::Rows { rows, .. } = r.value else {
        panic!("not rows: {:?}", r.value);
    };
    assert_eq!(rows.first().map(|r| r.line), Some(41));
}
