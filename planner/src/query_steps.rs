//! The calls of a query task: the query, then the events themselves when a distribution
//! in time, or a count with a condition, counted only a few.

use super::{frame, Call, StepRecord, ToolArgs};

/// Most events a time distribution may count for its events to be listed beside it.
pub(crate) const FEW_EVENTS: u64 = 10;

/// Most events a count with a condition may find for them to be shown beside it.
pub(crate) const FEW_COUNTED: u64 = 3;

/// "When did the disk fill up": when the events counted per minute are few, the events
/// themselves, in time order, say when each happened to the second. So do the one to three
/// events a condition counts in a log ("was there anything CRITICAL"): when and what.
pub(crate) fn few_events(frame: &frame::Frame, step: &StepRecord) -> Option<frame::Frame> {
    use llmops_common::query::{Field, Measure, Order, QueryValue, Source};
    let q = &frame.query;
    let counted = q.measure == Measure::Count
        && q.source == Source::Log
        && q.group_by.is_empty()
        && q.field.is_none()
        && !q.filters.is_empty();
    if !step.ok || !(q.measure == Measure::Buckets || counted) {
        return None;
    }
    let r = step.data.as_query()?;
    let few = match r.value {
        QueryValue::Buckets { .. } => FEW_EVENTS,
        QueryValue::Count { .. } if counted => FEW_COUNTED,
        _ => return None,
    };
    if r.matched == 0 || r.matched > few {
        return None;
    }
    let mut f = frame.clone();
    f.query.measure = Measure::Rows;
    f.query.field = Some(Field::new("time"));
    f.query.order = Order::Asc;
    f.query.limit = Some(few as u32);
    f.query.bucket = Default::default();
    Some(f)
}

/// "how many jobs were done" over a log that writes no number before "jobs" in
/// most of the events read: its events counted, as the question would be without the
/// noun's numbers.
pub(crate) fn count_instead(frame: &frame::Frame, step: &StepRecord) -> Option<frame::Frame> {
    if !frame.sums_written() {
        return None;
    }
    let too_few = !step.ok || step.data.as_query().is_some_and(too_few_summed);
    too_few.then(|| counted(frame))
}

/// Whether a sum of written numbers found them in fewer than half the events it read: the
/// noun names the events themselves ("job 17 done"), not a quantity each writes.
pub(crate) fn too_few_summed(r: &llmops_common::query::QueryResult) -> bool {
    match r.value {
        llmops_common::query::QueryValue::Stat { n, .. } => n * 2 < r.matched.max(1),
        _ => false,
    }
}

/// "the slowest transfer, how many secs" over a log whose head showed no time taken: when
/// no event has a value for the field, the number the events write before the unit asked.
pub(crate) fn written_instead(frame: &frame::Frame, step: &StepRecord) -> Option<frame::Frame> {
    frame.written_instead.as_ref()?;
    let no_value = !step.ok || step.data.as_query().is_some_and(no_value);
    no_value.then(|| with_written(frame))
}

/// Whether a statistic found no value to compute.
pub(crate) fn no_value(r: &llmops_common::query::QueryResult) -> bool {
    matches!(r.value, llmops_common::query::QueryValue::Stat { n: 0, .. })
}

/// A frame measuring its written number instead of its field.
pub(crate) fn with_written(frame: &frame::Frame) -> frame::Frame {
    let mut f = frame.clone();
    if let Some(x) = f.written_instead.take() {
        f.query.field = Some(llmops_common::query::Field::new(&x.name));
        f.query.extract.push(*x);
    }
    f
}

/// A summing frame as the count of its events.
pub(crate) fn counted(frame: &frame::Frame) -> frame::Frame {
    let mut f = frame.clone();
    if let Some(field) = f.query.field.take() {
        f.query.extract.retain(|e| e.name != field.as_str());
    }
    f.query.measure = llmops_common::query::Measure::Count;
    f
}

/// The query tool call of a frame.
pub(crate) fn query_call(frame: &frame::Frame) -> Call {
    let args = llmops_common::query::QueryArgs {
        query: frame.query.clone(),
        soft: frame.soft.clone(),
        or_else: frame.or_else.clone(),
        share_of: frame.share_of.clone(),
    };
    if frame.query.source == llmops_common::query::Source::Log {
        ToolArgs::LogQuery(args).into()
    } else {
        ToolArgs::SystemQuery(args).into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use llmops_common::query::{BucketRow, Measure, Order, Query, QueryResult, QueryValue};

    fn buckets_step(counts: &[u64]) -> StepRecord {
        let r = QueryResult {
            query: Query::default(),
            described_zh: String::new(),
            described_en: String::new(),
            sources: Vec::new(),
            resolved: Vec::new(),
            matched: counts.iter().sum(),
            matched_per_file: Vec::new(),
            value: QueryValue::Buckets {
                width_seconds: 60,
                buckets: counts
                    .iter()
                    .enumerate()
                    .map(|(i, c)| BucketRow {
                        start: format!("2028-01-15T07:{i:02}"),
                        count: *c,
                        per_file: Vec::new(),
                    })
                    .collect(),
                peak: None,
            },
            pipeline: None,
            notes: Vec::new(),
            share_base: None,
        };
        StepRecord {
            tool: crate::ToolName::LogQuery,
            args: ToolArgs::LogQuery(Default::default()),
            ok: true,
            output: String::new(),
            data: crate::ToolData::Query(Box::new(r)),
            error: None,
        }
    }

    fn buckets_frame() -> frame::Frame {
        frame::Frame {
            query: Query {
                measure: Measure::Buckets,
                ..Query::default()
            },
            soft: Vec::new(),
            or_else: Vec::new(),
            share_of: None,
            object: None,
            unused_object: None,
            follow_up: false,
            written_instead: None,
        }
    }

    #[test]
    fn a_count_with_a_condition_of_a_few_events_lists_them() {
        use llmops_common::query::{Filter, FilterOp, Scalar};
        let count_step = |n: u64| {
            let mut s = buckets_step(&[n]);
            if let crate::ToolData::Query(r) = &mut s.data {
                r.value = QueryValue::Count { count: n };
            }
            s
        };
        let mut f = buckets_frame();
        f.query.measure = Measure::Count;
        assert!(few_events(&f, &count_step(2)).is_none(), "no condition");
        f.query.filters = vec![Filter::new(
            Some(llmops_common::query::Field::new("level")),
            FilterOp::Eq,
            Scalar::Text("CRITICAL".into()),
        )];
        let rows = few_events(&f, &count_step(2)).expect("2 events listed");
        assert_eq!(
            (rows.query.measure, rows.query.order, rows.query.limit),
            (Measure::Rows, Order::Asc, Some(FEW_COUNTED as u32))
        );
        assert_eq!(rows.query.filters, f.query.filters);
        assert!(few_events(&f, &count_step(4)).is_none(), "4 events");
        assert!(few_events(&f, &count_step(0)).is_none(), "none");
    }

    fn stat_step(n: u64) -> StepRecord {
        let mut s = buckets_step(&[n]);
        if let crate::ToolData::Query(r) = &mut s.data {
            r.value = QueryValue::Stat {
                measure: Measure::Sum,
                value: (n > 0).then_some(1234.0),
                unit: llmops_common::query::Unit::None,
                n,
                row: None,
            };
        }
        s
    }

    #[test]
    fn a_field_no_event_has_gives_way_to_the_number_written_before_the_unit() {
        use llmops_common::query::{Extract, Field};
        let mut f = buckets_frame();
        f.query.measure = Measure::Max;
        f.query.field = Some(Field::new("duration"));
        assert!(
            written_instead(&f, &stat_step(0)).is_none(),
            "nothing to take instead"
        );
        f.written_instead = Some(Box::new(Extract {
            name: "seconds".into(),
            regex: r"(\d+) secs".into(),
            numeric: true,
        }));
        // The field has values further in the file than the head showed: it stands.
        assert!(
            written_instead(&f, &stat_step(5)).is_none(),
            "the field stands"
        );
        let mut failed = stat_step(0);
        failed.ok = false;
        for step in [stat_step(0), failed] {
            let w = written_instead(&f, &step).expect("the written number instead");
            assert_eq!(w.query.field, Some(Field::new("seconds")));
            assert_eq!(w.query.extract.len(), 1);
            assert!(w.written_instead.is_none());
        }
    }

    #[test]
    fn a_sum_of_written_numbers_that_found_none_counts_the_events_instead() {
        use llmops_common::query::{Extract, Field};
        let mut f = buckets_frame();
        f.query.measure = Measure::Sum;
        f.query.field = Some(Field::new("row_written"));
        f.query.extract = vec![Extract {
            name: "row_written".into(),
            regex: r"(\d+)\s+rows?".into(),
            numeric: false,
        }];
        assert!(count_instead(&f, &stat_step(0)).is_none(), "no noun summed");
        f.query.extract[0].numeric = true;
        // No value in the events read: they are counted.
        let count = count_instead(&f, &stat_step(0)).expect("counted instead");
        assert_eq!(count.query.measure, Measure::Count);
        assert_eq!(count.query.field, None);
        assert!(count.query.extract.is_empty());
        assert!(!count.sums_written());
        // Values in 3 of 3 events read: the sum stands; in 1 of 3, the events are counted.
        assert!(count_instead(&f, &stat_step(3)).is_none(), "summed");
        let mut few = stat_step(1);
        if let crate::ToolData::Query(r) = &mut few.data {
            r.matched = 3;
        }
        assert!(
            count_instead(&f, &few).is_some(),
            "a value in 1 of 3 events"
        );
    }

    #[test]
    fn a_distribution_of_few_events_lists_them_in_time_order() {
        let f = few_events(&buckets_frame(), &buckets_step(&[2, 0, 2])).expect("4 events listed");
        assert_eq!(f.query.measure, Measure::Rows);
        assert_eq!(f.query.order, Order::Asc);
        assert_eq!(f.query.limit, Some(FEW_EVENTS as u32));
        assert!(
            few_events(&buckets_frame(), &buckets_step(&[9, 9])).is_none(),
            "18 events"
        );
        assert!(
            few_events(&buckets_frame(), &buckets_step(&[0])).is_none(),
            "none matched"
        );
    }
}
