//! Second readings of a query whose first reading found no figure or an empty one: a
//! condition's field that another object of the line also has, and a statistic grouped by
//! a key every event has its own value of.

use llmops_common::query::{
    Field, FieldInfo, FieldKind, Filter, Measure, Query, QueryResult, QueryValue,
};

/// How many namesakes of a field are tried at most: a question names one object.
const NAMESAKES_TRIED: usize = 4;

/// A grouping with fewer groups than this is listed as asked, one event each or not.
const PER_EVENT_GROUPS: u64 = 20;

/// The query did not find what it measures: no row passed its conditions, or none of those
/// that did has the measured field.
pub(super) fn found_nothing(r: &QueryResult) -> bool {
    r.matched == 0
        || match &r.value {
            QueryValue::Stat { n, .. } => *n == 0,
            QueryValue::Stats { stats, .. } => stats.is_none(),
            QueryValue::Groups { groups, .. } => *groups == 0,
            _ => false,
        }
}

/// The other fields of the queried files that `alike` accepts, at most
/// [`NAMESAKES_TRIED`], each once.
fn other_fields(r: &QueryResult, own: &str, alike: impl Fn(&FieldInfo) -> bool) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for f in r.sources.iter().flat_map(|s| &s.fields) {
        if f.name != own && alike(f) && !out.contains(&f.name) {
            out.push(f.name.clone());
        }
    }
    out.truncate(NAMESAKES_TRIED);
    out
}

/// Other columns whose last dotted segment is `field`'s (`tank.cellar` beside
/// `cellar`): the same thing said of another object.
fn namesakes(r: &QueryResult, field: &str) -> Vec<String> {
    let last = |n: &str| n.rsplit('.').next().unwrap_or(n).to_ascii_lowercase();
    other_fields(r, field, |f| last(&f.name) == last(field))
}

/// The other fields of numbers that share a role with the field a statistic measured (a
/// batch's `duration=` beside a booking's `took=`, both times taken): what "how long did the
/// refund batches take" may mean when the first of them leaves nothing to measure.
fn same_role_fields(r: &QueryResult) -> Vec<String> {
    let q = &r.query;
    let stat = q.measure.is_stat() || q.measure == Measure::Stats;
    let Some(asked) = q.field.as_ref().filter(|_| stat) else {
        return Vec::new();
    };
    let used = r
        .resolved
        .iter()
        .find(|x| &x.asked == asked)
        .map_or(asked.as_str(), |x| x.used.as_str());
    let mut fields = r.sources.iter().flat_map(|s| &s.fields);
    let Some(roles) = fields.find(|f| f.name == used).map(|f| f.roles.clone()) else {
        return Vec::new();
    };
    other_fields(r, used, |f| {
        matches!(f.kind, FieldKind::Integer | FieldKind::Number)
            && f.roles.iter().any(|x| roles.contains(x))
    })
}

/// The first of `tries` (a query and what it changed, in words) that finds something, with
/// a note saying what was used instead of what.
fn first_found<E>(
    tries: impl IntoIterator<Item = (Query, String, String)>,
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<Option<QueryResult>, E> {
    for (again, first, other) in tries {
        let mut found = run(&again)?;
        if found_nothing(&found) {
            continue;
        }
        found.query = again;
        found.notes.push(format!(
            "按 {first} 没有可计算的值，改用 {other} / {first} left nothing to measure; \
             {other} was used instead"
        ));
        return Ok(Some(found));
    }
    Ok(None)
}

/// "how long did the refund batches take": the query `q` (its soft conditions in) measuring each of
/// [`same_role_fields`] of its result `r` in turn, the first that finds something.
pub(super) fn with_same_role<E>(
    q: &Query,
    r: &QueryResult,
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<Option<QueryResult>, E> {
    let first = q.field.as_ref().map_or(String::new(), |f| f.to_string());
    let tries = same_role_fields(r).into_iter().map(|other| {
        let again = Query {
            field: Some(Field::new(&other)),
            ..q.clone()
        };
        (again, first.clone(), other)
    });
    first_found(tries, run)
}

/// "avg volume in cellar C2" of a log where the cleaning lines carry `cellar` and
/// the fill lines `tank.cellar`: when the conditions find events with nothing to
/// measure, each condition's field is tried as its namesakes, and the first reading that
/// finds something is the answer. A count of none is an honest zero and stays.
pub(super) fn with_namesake<E>(
    first: QueryResult,
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    if first.matched == 0 || !found_nothing(&first) {
        return Ok(first);
    }
    let q = &first.query;
    let mut tries = Vec::new();
    for (i, f) in q.filters.iter().enumerate() {
        let Some(field) = &f.field else { continue };
        for other in namesakes(&first, field.as_str()) {
            let mut again = q.clone();
            again.filters[i].field = Some(Field::new(&other));
            tries.push((again, field.to_string(), other));
        }
    }
    Ok(match first_found(tries, run)? {
        Some(found) => with_notes_of(&first, found),
        None => first,
    })
}

/// "which shard lost the most writes" of a log that writes no value after "shard": a
/// grouping by a field the question defined from the events' text (`Query::extract`) that
/// no counted event holds is the figure without that grouping, with a note saying so.
pub(super) fn without_empty_definition<E>(
    first: QueryResult,
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    let q = &first.query;
    let QueryValue::Groups { groups: 0, .. } = first.value else {
        return Ok(first);
    };
    let grouped = |name: &str| q.group_by.iter().any(|g| g.as_str() == name);
    let defined: Vec<String> = q
        .extract
        .iter()
        .map(|e| e.name.clone())
        .filter(|n| grouped(n))
        .collect();
    if defined.is_empty() {
        return Ok(first);
    }
    let kept = |name: &str| !defined.iter().any(|d| d == name);
    let again = Query {
        group_by: q
            .group_by
            .iter()
            .filter(|g| kept(g.as_str()))
            .cloned()
            .collect(),
        extract: q
            .extract
            .iter()
            .filter(|e| kept(&e.name))
            .cloned()
            .collect(),
        ..q.clone()
    };
    let mut r = with_notes_of(&first, run(&again)?);
    let names = defined.join(", ");
    r.notes.push(format!(
        "没有事件在 {names} 后面写出值，未按它分组 / no event writes a value after \"{names}\": not grouped by it"
    ));
    Ok(r)
}

/// A second reading keeps what the first one's notes said (a condition left out, a field
/// read instead), before its own.
fn with_notes_of(first: &QueryResult, mut again: QueryResult) -> QueryResult {
    let own = std::mem::take(&mut again.notes);
    again.notes = first.notes.clone();
    for n in own {
        if !again.notes.contains(&n) {
            again.notes.push(n);
        }
    }
    again
}

/// "avg volume per fill" of a log whose `fill` is a number every fill's one
/// line has: a mean or percentile grouped by a key with one event per group, and more
/// groups than a list shows, is the figure over all those events (the mean per fill of
/// one-event fills is the mean of the events), with a note saying so.
pub(super) fn per_event<E>(
    asked: &Query,
    first: QueryResult,
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    let q = &first.query;
    let averaged = q.measure == Measure::Mean || q.measure.rank().is_some();
    let QueryValue::Groups {
        rows, groups, rest, ..
    } = &first.value
    else {
        return Ok(first);
    };
    let one_each = rows.iter().all(|g| g.count == 1) && *rest + rows.len() as u64 == *groups;
    // A ranking asked ("which cycle had the highest", "top 5") stays a ranking.
    let ranked = asked.limit.is_some() || asked.rank.is_some();
    if !averaged || ranked || q.group_by.len() != 1 || *groups < PER_EVENT_GROUPS || !one_each {
        return Ok(first);
    }
    let key = q.group_by[0].to_string();
    // The same events the groups held: those with the key.
    let mut filters = q.filters.clone();
    filters.push(Filter::present(q.group_by[0].clone()));
    let whole = Query {
        group_by: Vec::new(),
        limit: None,
        filters,
        ..q.clone()
    };
    let mut r = with_notes_of(&first, run(&whole)?);
    r.notes.push(format!(
        "每个 {key} 只有一条事件，结果按全部事件计算 / every {key} has one event: the \
         figure is over all the events"
    ));
    Ok(r)
}

#[cfg(test)]
mod tests_definition {
    use llmops_common::query::{Extract, Field, Query, QueryArgs, QueryValue};

    use super::super::tests::run_named;

    /// A grouping by a defined field that no event holds is the count without it; one that
    /// some events hold stays a grouping.
    #[test]
    fn a_grouping_no_event_holds_is_dropped_with_a_note() {
        let mut log = String::new();
        for i in 0..12 {
            log.push_str(&format!(
                "2031-01-01 01:00:{i:02} WARN store: write lost on node=n-{} replica {}\n",
                i % 3,
                10 + i % 2
            ));
        }
        let by = |name: &str| QueryArgs {
            query: Query {
                group_by: vec![Field::new(name)],
                extract: vec![Extract {
                    name: name.into(),
                    regex: format!(r"(?i)\b{name}s?[\s:=#]+(\S+)"),
                    numeric: false,
                }],
                ..Query::default()
            },
            ..QueryArgs::default()
        };
        let r = run_named("store.log", &log, &by("shard"));
        assert!(
            matches!(r.value, QueryValue::Count { count: 12 }),
            "{:?}",
            r.value
        );
        assert!(r.notes.iter().any(|n| n.contains("shard")), "{:?}", r.notes);
        let r = run_named("store.log", &log, &by("replica"));
        let QueryValue::Groups { groups, .. } = r.value else {
            panic!("not groups: {:?}", r.value)
        };
        assert_eq!(groups, 2);
    }
}

#[cfg(test)]
mod tests {
    use llmops_common::query::Scalar;
    use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, QueryArgs, QueryValue};

    use super::super::tests::run_named;

    /// A cellar's JSON log: cleaning lines name a `cellar`; fill lines name the tank's
    /// (`tank.cellar`), a fill number of their own and the volume filled. Returns the log and
    /// the planted fills as (cellar, volume in ml).
    fn cellar_log() -> (String, Vec<(&'static str, u64)>) {
        let (mut log, mut fills) = (String::new(), Vec::new());
        for i in 0..90u64 {
            let t = format!("2031-02-03T04:{:02}:{:02}Z", i / 60, i % 60);
            let cellar = ["C1", "C2", "C3"][(i % 3) as usize];
            if i % 4 == 0 {
                log.push_str(&format!(
                    "{{\"ts\":\"{t}\",\"msg\":\"tank cleaned\",\"cellar\":\"{cellar}\"}}\n"
                ));
                continue;
            }
            let volume = 1000 + i * 37 % 500;
            fills.push((cellar, volume));
            log.push_str(&format!(
                "{{\"ts\":\"{t}\",\"msg\":\"fill done\",\"tank\":{{\"id\":\"{cellar}-T{i}\",\"cellar\":\"{cellar}\"}},\"fill\":{},\"volume_ml\":{volume}}}\n",
                500 + i
            ));
        }
        (log, fills)
    }

    fn mean_volume(group_by: Vec<Field>) -> QueryArgs {
        QueryArgs {
            query: Query {
                filters: vec![Filter::new(
                    Some(Field::new("cellar")),
                    FilterOp::Contains,
                    Scalar::Text("C2".into()),
                )],
                measure: Measure::Mean,
                field: Some(Field::new("volume_ml")),
                group_by,
                ..Query::default()
            },
            ..QueryArgs::default()
        }
    }

    #[test]
    fn a_conditions_namesake_and_a_key_of_one_event_each() {
        let (log, fills) = cellar_log();
        let c2: Vec<u64> = fills
            .iter()
            .filter(|(c, _)| *c == "C2")
            .map(|f| f.1)
            .collect();
        let planted = c2.iter().sum::<u64>() as f64 / c2.len() as f64;
        let stat = |r: &llmops_common::query::QueryResult| match &r.value {
            QueryValue::Stat { value, n, unit, .. } => (value.expect("a mean"), *n, *unit),
            v => panic!("not one figure: {v:?}"),
        };
        // `cellar` is the cleaning lines' own; the fills say `tank.cellar`.
        let r = run_named("cellar.json", &log, &mean_volume(Vec::new()));
        let (mean, n, unit) = stat(&r);
        assert!((mean - planted).abs() < 1e-9, "{mean} vs {planted}");
        assert_eq!(n, c2.len() as u64);
        assert_eq!(
            unit,
            llmops_common::query::Unit::Ml,
            "the key's unit suffix"
        );
        assert!(
            r.notes.iter().any(|n| n.contains("tank.cellar")),
            "{:?}",
            r.notes
        );
        // A soft condition the first reading left out is still said after the second.
        let mut softened = mean_volume(Vec::new());
        softened.soft = vec![Filter::new(
            None,
            FilterOp::Contains,
            Scalar::Text("no-such-word".into()),
        )];
        let r = run_named("cellar.json", &log, &softened);
        assert!((stat(&r).0 - planted).abs() < 1e-9);
        let said = |w: &str| r.notes.iter().any(|n| n.contains(w));
        assert!(said("tank.cellar") && said("no-such-word"), "{:?}", r.notes);
        // "per fill", every fill one line: the mean of the fills.
        let r = run_named("cellar.json", &log, &mean_volume(vec![Field::new("fill")]));
        let (mean, n, _) = stat(&r);
        assert!((mean - planted).abs() < 1e-9, "{mean} vs {planted}");
        assert_eq!(n, c2.len() as u64);
        assert!(
            r.notes
                .iter()
                .any(|n| n.contains("every fill has one event")),
            "{:?}",
            r.notes
        );
        // A key with several events each stays a grouping.
        let r = run_named(
            "cellar.json",
            &log,
            &mean_volume(vec![Field::new("tank.cellar")]),
        );
        assert!(
            matches!(r.value, QueryValue::Groups { .. }),
            "{:?}",
            r.value
        );
    }

    /// Bookings write `took_ms`, refund batches `duration_ms`: both times taken.
    fn bookings_and_batches() -> (String, u64, u64) {
        let (mut log, mut slowest_booking, mut slowest_batch) = (String::new(), 0, 0);
        for i in 0..120u64 {
            let t = format!("2031-03-04T05:{:02}:{:02}Z", i / 60, i % 60);
            if i % 3 == 0 {
                let d = 4000 + i * 71 % 900;
                slowest_batch = slowest_batch.max(d);
                log.push_str(&format!(
                    "{{\"ts\":\"{t}\",\"msg\":\"refund batch {i} closed\",\"duration_ms\":{d}}}\n"
                ));
            } else {
                let d = 100 + i * 37 % 300;
                slowest_booking = slowest_booking.max(d);
                log.push_str(&format!(
                    "{{\"ts\":\"{t}\",\"msg\":\"seat booked\",\"took_ms\":{d}}}\n"
                ));
            }
        }
        (log, slowest_booking, slowest_batch)
    }

    #[test]
    fn a_time_taken_of_the_events_named_is_theirs() {
        let (log, booking, batch) = bookings_and_batches();
        let slowest = |word: &str| {
            let a = QueryArgs {
                query: Query {
                    measure: Measure::Max,
                    field: Some(Field::new("took_ms")),
                    ..Query::default()
                },
                soft: vec![Filter::new(
                    None,
                    FilterOp::Contains,
                    Scalar::Text(word.into()),
                )],
                ..QueryArgs::default()
            };
            let r = run_named("batch.json", &log, &a);
            match &r.value {
                QueryValue::Stat { value, .. } => (value.expect("a max"), r.notes.clone()),
                v => panic!("not one figure: {v:?}"),
            }
        };
        let (max, notes) = slowest("booked");
        assert_eq!(max, booking as f64);
        assert!(notes.is_empty(), "{notes:?}");
        let (max, notes) = slowest("batch");
        assert_eq!(max, batch as f64);
        assert!(notes.iter().any(|n| n.contains("duration_ms")), "{notes:?}");
    }
}
