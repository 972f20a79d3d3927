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
