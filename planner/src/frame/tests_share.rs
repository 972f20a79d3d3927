//! A share asked of a population: which conditions pick it, apart from the part counted.

use llmops_common::query::{Filter, FilterOp, Scalar};

use super::tests_answers::Planted;
use super::{FrameCtx, Understood};

fn log() -> Planted {
    let mut text = String::new();
    for i in 0..40 {
        let zone = if i % 2 == 0 { "north" } else { "south" };
        let status = if i % 5 == 0 { "aborted" } else { "ok" };
        text.push_str(&format!(
            "{{\"ts\":\"2031-01-01T01:00:{i:02}Z\",\"level\":\"info\",\"msg\":\"cycle finished\",\"zone\":\"{zone}\",\"status\":\"{status}\",\"water_ml\":{}}}\n",
            100 + i
        ));
        if i % 4 == 0 {
            text.push_str(&format!(
                "{{\"ts\":\"2031-01-01T01:00:{i:02}Z\",\"level\":\"error\",\"msg\":\"valve stuck\",\"zone\":\"{zone}\"}}\n"
            ));
        }
    }
    Planted::new("irrigator.json", &text)
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
    let base = share_of(&p, "what share of the north zone's cycles were aborted?");
    assert_eq!(base, Some(vec![eq("zone", "north")]));
    // In Chinese, before 里.
    let base = share_of(&p, "zone=north 里 status=aborted 的占比是多少");
    assert_eq!(base, Some(vec![eq("zone", "north")]));
    // No population named: the rows that have the compared field (the tool counts them).
    assert_eq!(share_of(&p, "status=aborted 的占比"), Some(Vec::new()));
    // A count without a share asks none.
    assert_eq!(share_of(&p, "how many cycles were aborted"), None);
}

#[test]
fn a_rate_is_of_what_the_rest_of_the_question_names() {
    let p = log();
    let base = share_of(&p, "zone=south 的错误率").expect("a share");
    assert_eq!(base, vec![eq("zone", "south")]);
}

#[test]
fn a_population_before_the_share_or_in_a_relative_clause() {
    let p = log();
    let north = Some(vec![eq("zone", "north")]);
    assert_eq!(
        share_of(&p, "among zone=north cycles, what percentage were aborted?"),
        north
    );
    assert_eq!(
        share_of(
            &p,
            "what percentage of cycles that ran in zone=north were status=aborted?"
        ),
        north
    );
    // Capitals kept: "among POST requests" (the method in a log that has one), and 在…中.
    assert_eq!(share_of(&p, "5xx 在 zone=north 里的占比"), north);
    // Two conditions and no population said: no guess, the share of every row.
    assert_eq!(share_of(&p, "zone=north status=aborted percentage"), None);
}
