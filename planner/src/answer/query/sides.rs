//! Several queries that differ only in the value of one condition ("4xx vs 5xx", "GET 和
//! POST 分别"): one line with each value's figure side by side, before their answers.

use llmops_common::query::{Filter, FilterOp, QueryResult, QueryValue, Scalar};

use crate::text::Lang;

/// "4xx **90** · 5xx **250** (of all 1500 events)": each result's figure under the value
/// its query differs in; `None` unless there are several results of one figure each,
/// over the same rows but for one condition.
pub fn side_by_side(results: &[&QueryResult], lang: Lang) -> Option<String> {
    let first = results.first()?;
    if results.len() < 2 {
        return None;
    }
    let mut parts = Vec::new();
    let mut field = None;
    for r in results {
        let q = &r.query;
        let same_shape = q.files == first.query.files
            && q.measure == first.query.measure
            && q.field == first.query.field
            && q.window == first.query.window
            && q.group_by.is_empty()
            && q.filters.len() == first.query.filters.len();
        let own: Vec<&Filter> = q
            .filters
            .iter()
            .filter(|f| results.iter().any(|o| !o.query.filters.contains(f)))
            .collect();
        // Values of one field ("4xx" and "5xx" of `status`), not two conditions of two
        // questions in one message ("failures" and "5xx").
        let [side] = own.as_slice() else {
            return None;
        };
        if !same_shape || side.field.is_none() || *field.get_or_insert(&side.field) != &side.field {
            return None;
        }
        let figure = match &r.value {
            QueryValue::Count { count } | QueryValue::Distinct { count } => count.to_string(),
            QueryValue::Stat {
                value: Some(v),
                unit,
                ..
            } => super::with_unit(*v, *unit),
            QueryValue::Stat { value: None, .. } => "—".to_string(),
            _ => return None,
        };
        parts.push(format!("{} **{figure}**", label(side)));
    }
    let counted = matches!(first.value, QueryValue::Count { .. });
    let events: u64 = first.sources.iter().map(|s| s.events).sum();
    let whole = first.sources.iter().all(|s| s.complete);
    let (nz, ne) = first.query.source.row_words();
    let of = match (counted && events > 0, lang, whole) {
        (false, ..) => String::new(),
        (true, Lang::Zh, true) => format!("（共 {events} 条{nz}）"),
        (true, Lang::Zh, false) => format!("（已读 {events} 条{nz}）"),
        (true, Lang::En, true) => format!(" (of all {events} {ne})"),
        (true, Lang::En, false) => format!(" (of the {events} {ne} read)"),
    };
    Some(format!("{}{of}", parts.join(" · ")))
}

/// A condition's value as a label: a class as `4xx`, a value as written.
pub fn label(f: &Filter) -> String {
    match (f.op, &f.value) {
        (FilterOp::Class, Scalar::Number(d)) => format!("{d}xx"),
        (FilterOp::Eq, v) => v.to_string(),
        (op, v) => format!("{op:?} {v}").to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use llmops_common::query::{Field, Filter, FilterOp, Query, QueryResult, QueryValue, Scalar};

    use super::side_by_side;
    use crate::text::Lang;

    fn counted(filter: Filter, count: u64) -> QueryResult {
        QueryResult {
            query: Query {
                filters: vec![filter],
                ..Query::default()
            },
            described_zh: String::new(),
            described_en: String::new(),
            sources: Vec::new(),
            resolved: Vec::new(),
            matched: count,
            matched_per_file: Vec::new(),
            value: QueryValue::Count { count },
            pipeline: None,
            notes: Vec::new(),
            share_base: None,
        }
    }

    fn class(d: f64) -> Filter {
        Filter::new(
            Some(Field::new("status")),
            FilterOp::Class,
            Scalar::Number(d),
        )
    }

    /// Values of one field are set side by side; two questions' conditions on different
    /// things are not.
    #[test]
    fn only_values_of_one_field_are_set_side_by_side() {
        let (a, b) = (counted(class(4.0), 90), counted(class(5.0), 250));
        let line = side_by_side(&[&a, &b], Lang::En);
        assert_eq!(line.as_deref(), Some("4xx **90** · 5xx **250**"));
        let failures = Filter::new(None, FilterOp::Tag, Scalar::Text("failure".into()));
        let c = counted(failures, 250);
        assert_eq!(side_by_side(&[&c, &b], Lang::En), None);
    }
}
