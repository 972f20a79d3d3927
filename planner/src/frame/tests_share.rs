//! A share asked of a population: which conditions pick it, apart from the part counted.

use llmops_common::query::{Filter, FilterOp, Measure, QueryValue, Scalar};

use super::tests_answers::Planted;
use super::{FrameCtx, Understood};

/// A job runner's JSON log: jobs of two pools with a `status`, and error lines of another
/// kind that have none.
fn log() -> Planted {
    let mut text = String::new();
    for i in 0..40 {
        let pool = if i % 2 == 0 { "blue" } else { "green" };
        let status = if i % 5 == 0 { "failed" } else { "done" };
        text.push_str(&format!(
            "{{\"ts\":\"2031-01-01T01:00:{i:02}Z\",\"level\":\"info\",\"msg\":\"job ended\",\"pool\":\"{pool}\",\"status\":\"{status}\",\"rows\":{}}}\n",
            100 + i
        ));
        if i % 4 == 0 {
            text.push_str(&format!(
                "{{\"ts\":\"2031-01-01T01:00:{i:02}Z\",\"level\":\"error\",\"msg\":\"lease lost\",\"pool\":\"{pool}\"}}\n"
            ));
        }
    }
    Planted::new("runner.json", &text)
}

/// The frame's share population, or `None` when no share is asked.
fn share_of(p: &Planted, text: &str) -> Option<Vec<Filter>> {
    let ctx = FrameCtx::of_uploads(p.uploads());
    match super::question::understand(text, &ctx) {
        Some(Understood::Query(f)) => f.share_of,
        other => panic!("no query for {text:?}: {other:?}"),
    }
}

fn eq(field: &str, v: &str) -> Filter {
    Filter::new(
        Some(llmops_common::query::Field::new(field)),
        FilterOp::Eq,
        Scalar::Text(v.into()),
    )
}

#[test]
fn a_share_names_its_population_or_is_of_the_rows_with_the_field() {
    let p = log();
    // The population after "of", up to the verb of the part counted.
    let base = share_of(&p, "what percentage of the blue pool's jobs were failed?");
    assert_eq!(base, Some(vec![eq("pool", "blue")]));
    // In Chinese, before 里.
    let base = share_of(&p, "pool=blue 里 status=failed 占多少");
    assert_eq!(base, Some(vec![eq("pool", "blue")]));
    // No population named: the rows that have the compared field (the tool counts them).
    assert_eq!(share_of(&p, "status=failed 的比例"), Some(Vec::new()));
    assert_eq!(share_of(&p, "status=failed 占百分之多少"), Some(Vec::new()));
    // A count without a share asks none.
    assert_eq!(share_of(&p, "how many jobs failed"), None);
}

#[test]
fn a_rate_is_of_what_the_rest_of_the_question_names() {
    let p = log();
    let base = share_of(&p, "pool=green 的错误率").expect("a share");
    assert_eq!(base, vec![eq("pool", "green")]);
}

#[test]
fn a_population_before_the_share_or_in_a_relative_clause() {
    let p = log();
    let blue = Some(vec![eq("pool", "blue")]);
    assert_eq!(
        share_of(
            &p,
            "out of the pool=blue jobs, what fraction were status=failed?"
        ),
        blue
    );
    assert_eq!(
        share_of(
            &p,
            "what proportion of jobs that ran in pool=blue ended status=failed?"
        ),
        blue
    );
    // 在…中: the population between them.
    assert_eq!(share_of(&p, "status=failed 在 pool=blue 中的比例"), blue);
    // Two conditions and no population said: no guess, the share of every row.
    assert_eq!(share_of(&p, "pool=blue status=failed percentage"), None);
}

/// After a count, a share with a condition of its own is a new question, not an edit of
/// the last one; "of those" refers to the last one's events and edits it.
#[test]
fn a_share_with_its_own_condition_after_a_count_is_a_new_question() {
    let p = log();
    let green = p.answer("how many jobs ran in pool=green?");
    assert_eq!(green.matched, 20, "{:?}", green.query.filters);
    let fresh = p.answer_after("what % of jobs have status=failed?", Some(&green));
    assert!(
        !fresh.query.filters.contains(&eq("pool", "green")),
        "{:?}",
        fresh.query.filters
    );
    assert_eq!(fresh.matched, 8);
    let of_those = p.answer_after("and what % of those were status=failed?", Some(&green));
    assert_eq!(of_those.matched, 4, "{:?}", of_those.query.filters);
}

/// "what % of the bytes went to /a": a share of a field that adds up is its sum's share of
/// the field's total; "what % of requests" stays a count's.
#[test]
fn a_share_of_bytes_is_of_their_total() {
    let mut text = String::new();
    let mut of_a = 0u64;
    for i in 0..50u64 {
        let path = if i % 3 == 0 { "/a" } else { "/b" };
        let bytes = 100 + i * 37 % 900;
        of_a += if path == "/a" { bytes } else { 0 };
        text.push_str(&format!(
            "{{\"ts\":\"2031-01-01T01:00:{:02}Z\",\"path\":\"{path}\",\"status\":200,\"bytes\":{bytes}}}\n",
            i % 60
        ));
    }
    let p = Planted::new("edge.json", &text);
    let ctx = FrameCtx::of_uploads(p.uploads());
    for q in [
        "what % of the bytes went to path=/a",
        "what share of bandwidth was path=/a",
    ] {
        let Some(Understood::Query(f)) = super::question::understand(q, &ctx) else {
            panic!("no query for {q}")
        };
        assert_eq!(f.share_of, Some(Vec::new()), "{q}");
        let r = p.answer(q);
        assert_eq!(r.query.measure, Measure::Sum, "{q}");
        let QueryValue::Stat { value, .. } = r.value else {
            panic!("{q}: not a sum")
        };
        assert_eq!(value, Some(of_a as f64), "{q}");
    }
    let r = p.answer("what % of requests were path=/a");
    assert_eq!(r.query.measure, Measure::Count);
}

/// The frame of a question: its query and share population.
fn frame(p: &Planted, text: &str) -> super::Frame {
    let ctx = FrameCtx::of_uploads(p.uploads());
    match super::question::understand(text, &ctx) {
        Some(Understood::Query(f)) => *f,
        other => panic!("no query for {text:?}: {other:?}"),
    }
}

/// A rate asked per group is of each group's own rows; a share "of the X" per group, with
/// no group ranked, is each group's part of the X.
#[test]
fn a_share_per_group_is_of_its_own_rows_or_of_the_rows_counted() {
    use llmops_common::query::{Field, Order};
    let p = log();
    let failed = eq("status", "failed");
    for q in [
        "failure rate per pool",
        "status=failed rate by pool",
        "每个 pool 的失败率",
        "what percentage of each pool's jobs were status=failed",
    ] {
        let f = frame(&p, q);
        assert_eq!(f.query.group_by, vec![Field::new("pool")], "{q}");
        assert_eq!(f.share_of, Some(Vec::new()), "{q}: of each pool's own rows");
        assert!(f.soft.is_empty(), "{q}: {:?}", f.soft);
    }
    // The group that ranks lowest ranks the shares from the lowest.
    let f = frame(&p, "which pool has the lowest failure rate");
    assert_eq!((f.query.order, f.share_of), (Order::Asc, Some(Vec::new())));
    // Each pool's part of the failed jobs.
    let f = frame(
        &p,
        "what share of the status=failed jobs came from each pool",
    );
    assert_eq!(f.share_of, Some(vec![failed.clone()]));
    // Ranked by its share, a group's share is of its own rows.
    let f = frame(&p, "which pool has the highest share of status=failed");
    assert_eq!(f.share_of, Some(Vec::new()));
    // Without a share word, a grouping is counts.
    assert_eq!(frame(&p, "status=failed per pool").share_of, None);
}

/// A word after a condition that asks its rate ("rate", "率") asks a share of it, and is
/// never looked for in the events.
#[test]
fn a_word_after_a_condition_asks_its_rate() {
    let p = log();
    for q in ["what's the status=failed rate", "status=failed 率是多少"] {
        let f = frame(&p, q);
        assert_eq!(f.share_of, Some(Vec::new()), "{q}");
        assert!(f.soft.is_empty(), "{q}: {:?}", f.soft);
    }
    // A rate over time is a count per bucket, not a share.
    assert_eq!(frame(&p, "failure rate per minute").share_of, None);
}
