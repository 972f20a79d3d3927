//! A share asked of a population, counted beside the query: of all the rows the question
//! names ("what % of requests were 5xx"), or per group, each group's share of its own rows
//! ("the error rate of each endpoint") or of the rows counted ("what share of the errors
//! each service logged").

use std::collections::HashMap;

use llmops_common::query::{
    Filter, GroupRow, Measure, Order, Query, QueryArgs, QueryResult, QueryValue, ShareBase, Source,
};

use super::{in_words, with_soft};

/// Runs a query asked as a share of the population `base` picks (with every field the
/// query's other filters compare), and counts that population beside it.
pub(super) fn run<E>(
    args: &QueryArgs,
    base: &[Filter],
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    let q = &args.query;
    let summed = q.measure == Measure::Sum && q.field.is_some();
    if q.group_by.is_empty() && (q.measure == Measure::Count || summed) {
        let mut r = with_soft(args, run)?;
        r.share_base = Some(whole(q, base, run)?);
        return Ok(r);
    }
    if q.group_by.is_empty() || q.measure != Measure::Count {
        return with_soft(args, run);
    }
    // The population is the rows counted: each group's part of them.
    if !q.filters.is_empty() && q.filters.iter().all(|f| base.contains(f)) {
        let mut r = with_soft(args, run)?;
        let (described_zh, described_en) = described(base, &[]);
        r.share_base = Some(ShareBase {
            rows: r.matched,
            described_zh,
            described_en,
            total: None,
        });
        return Ok(r);
    }
    per_group(args, base, run)
}

/// The population of the share: the rows `base` picks that have every field the query's
/// other filters compare (a status share is of the rows with a status), and those fields.
fn population(q: &Query, base: &[Filter]) -> (Query, Vec<String>) {
    let mut filters = base.to_vec();
    let mut with: Vec<String> = Vec::new();
    for f in q.filters.iter().filter(|f| !base.contains(f)) {
        let Some(field) = &f.field else { continue };
        if with.contains(&field.to_string()) {
            continue;
        }
        with.push(field.to_string());
        filters.push(Filter::present(field.clone()));
    }
    // A sum's population is summed too; its rows are the ones summed.
    let (measure, field) = match q.measure == Measure::Sum && q.field.is_some() {
        true => (Measure::Sum, q.field.clone()),
        false => (Measure::Count, None),
    };
    let counted = Query {
        filters,
        measure,
        field,
        limit: None,
        rank: None,
        ..q.clone()
    };
    (counted, with)
}

/// The whole population counted (or summed), with what picks it in words.
fn whole<E>(
    q: &Query,
    base: &[Filter],
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<ShareBase, E> {
    let (counted, with) = population(q, base);
    let r = run(&counted)?;
    let total = match (counted.measure, &r.value) {
        (Measure::Sum, QueryValue::Stat { value, .. }) => *value,
        _ => None,
    };
    let (described_zh, described_en) = described(base, &with);
    Ok(ShareBase {
        rows: r.matched,
        described_zh,
        described_en,
        total,
    })
}

/// The population's conditions and the fields it must have, in words (Chinese, English).
fn described(base: &[Filter], with: &[String]) -> (String, String) {
    let picked: Vec<String> = base.iter().map(in_words).collect();
    let joined = |parts: [String; 2], sep: &str| {
        parts
            .into_iter()
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
            .join(sep)
    };
    let (with_zh, with_en) = if with.is_empty() {
        (String::new(), String::new())
    } else {
        (
            format!("有 {} 值", with.join("、")),
            format!("with {}", with.join(", ")),
        )
    };
    let where_en = if picked.is_empty() {
        String::new()
    } else {
        format!("where {}", picked.join(", "))
    };
    (
        joined([picked.join("，"), with_zh], "且"),
        joined([where_en, with_en], ", "),
    )
}

/// Each group's count as a share of the group's own population: every group of the
/// population, those with nothing counted at 0%, ranked by the share (highest first, or
/// lowest when the query asks ascending), the larger count first on a tie.
fn per_group<E>(
    args: &QueryArgs,
    base: &[Filter],
    run: &mut impl FnMut(&Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    let q = &args.query;
    let all = |q: &Query| Query {
        limit: Some(Query::MAX_LIMIT),
        rank: None,
        order: Order::Desc,
        ..q.clone()
    };
    let wide = QueryArgs {
        query: all(q),
        ..args.clone()
    };
    let mut r = with_soft(&wide, run)?;
    let (counted, with) = population(q, base);
    let pop = run(&all(&counted))?;
    let (
        QueryValue::Groups {
            rows, groups, rest, ..
        },
        QueryValue::Groups {
            rows: of,
            groups: of_groups,
            ..
        },
    ) = (&mut r.value, &pop.value)
    else {
        return Ok(r);
    };
    let mut parts: HashMap<Vec<String>, GroupRow> =
        rows.drain(..).map(|g| (g.key.clone(), g)).collect();
    let mut ranked: Vec<GroupRow> = of
        .iter()
        .map(|p| {
            let part = parts.remove(&p.key);
            GroupRow {
                key: p.key.clone(),
                count: part.as_ref().map_or(0, |g| g.count),
                value: None,
                example: part.and_then(|g| g.example),
                of: Some(p.count),
            }
        })
        .collect();
    if let Some(note) = rank_by_share(&mut ranked, q.order, q.source) {
        r.notes.push(note);
    }
    ranked.truncate(q.limit());
    let listed: u64 = ranked.iter().map(|g| g.count).sum();
    *rest = r.matched.saturating_sub(listed);
    *groups = *of_groups;
    *rows = ranked;
    if (of.len() as u64) < *of_groups {
        r.notes.push(format!(
            "比例只算了最大的 {0} 个分组（共 {1} 个）/ shares were taken over the {0} largest of {1} groups",
            of.len(),
            of_groups
        ));
    }
    r.query = q.clone();
    // The words were written for every group; the answer lists as many as asked.
    let (wide, asked) = (Query::MAX_LIMIT, q.limit());
    r.described_zh = r
        .described_zh
        .replace(&format!("取前 {wide} 组"), &format!("取前 {asked} 组"));
    r.described_en = r
        .described_en
        .replace(&format!(", top {wide}"), &format!(", top {asked}"));
    let (described_zh, described_en) = described(base, &with);
    r.share_base = Some(ShareBase {
        rows: pop.matched,
        described_zh,
        described_en,
        total: None,
    });
    Ok(r)
}

/// Ranks the groups by their share of their own rows, in `order`, the larger count first
/// on a tie; groups too small for their share to say much go last, and the note says so.
fn rank_by_share(ranked: &mut [GroupRow], order: Order, source: Source) -> Option<String> {
    let share = |g: &GroupRow| g.count as f64 / g.of.unwrap_or(1).max(1) as f64;
    let few = few_rows(ranked);
    let small = |g: &GroupRow| g.of.unwrap_or(0) < few;
    ranked.sort_by(|a, b| {
        let by_share = share(b).total_cmp(&share(a));
        let by_share = match order {
            Order::Asc => by_share.reverse(),
            Order::Desc => by_share,
        };
        small(a)
            .cmp(&small(b))
            .then(by_share)
            .then(b.count.cmp(&a.count))
            .then(b.of.cmp(&a.of))
            .then(a.key.cmp(&b.key))
    });
    let smalls = ranked.iter().filter(|g| small(g)).count();
    (smalls > 0).then(|| {
        format!(
            "{smalls} 个分组不足 {few} 条，比例说明不了什么，排在最后 / {smalls} groups with fewer than {few} {rows} are ranked last: a share of so few says little",
            rows = source.row_words().1
        )
    })
}

/// Fewer rows than this make a group's share say little: a tenth of a group's mean
/// population, at least 2 (one event is 0% or 100%); none when every group is that small.
fn few_rows(groups: &[GroupRow]) -> u64 {
    let total: u64 = groups.iter().filter_map(|g| g.of).sum();
    let few = (total / (10 * groups.len().max(1) as u64)).max(2);
    match groups.iter().all(|g| g.of.unwrap_or(0) < few) {
        true => 0,
        false => few,
    }
}

#[cfg(test)]
mod tests {
    use llmops_common::query::{Field, Filter, FilterOp, Query, QueryArgs, Scalar};

    use super::super::tests::{count, run_named};

    /// A JSON log where only the job events have a `status`: each pool's share of failed
    /// jobs, planted.
    fn jobs_log() -> (String, Vec<(&'static str, &'static str)>) {
        let mut planted = Vec::new();
        let mut log = String::new();
        for i in 0..65u32 {
            let t = format!("2031-01-01T01:{:02}:{:02}Z", i / 60, i % 60);
            if i % 13 == 12 || i >= 60 {
                log.push_str(&format!(
                    "{{\"ts\":\"{t}\",\"level\":\"info\",\"msg\":\"lease renewed\"}}\n"
                ));
                continue;
            }
            let pool = if i % 2 == 0 { "blue" } else { "green" };
            let status = if i % 7 == 0 || (pool == "blue" && i % 5 == 0) {
                "failed"
            } else {
                "done"
            };
            planted.push((pool, status));
            log.push_str(&format!(
                "{{\"ts\":\"{t}\",\"level\":\"info\",\"msg\":\"job ended\",\"pool\":\"{pool}\",\"status\":\"{status}\"}}\n"
            ));
        }
        (log, planted)
    }

    fn eq(field: &str, v: &str) -> Filter {
        Filter::new(
            Some(Field::new(field)),
            FilterOp::Eq,
            Scalar::Text(v.into()),
        )
    }

    #[test]
    fn a_share_is_of_the_population_asked_with_the_field_compared() {
        let (log, planted) = jobs_log();
        let share = |filters: Vec<Filter>, base: Vec<Filter>| {
            let a = QueryArgs {
                query: Query {
                    filters,
                    ..Query::default()
                },
                share_of: Some(base),
                ..QueryArgs::default()
            };
            let r = run_named("runner.json", &log, &a);
            let base = r.share_base.clone().expect("a share base");
            (count(&r), base.rows, base.described_en)
        };
        let failed = planted.iter().filter(|(_, s)| *s == "failed").count() as u64;
        // Of the jobs (the events with a status), not of every line.
        let (n, of, words) = share(vec![eq("status", "failed")], Vec::new());
        assert_eq!((n, of), (failed, planted.len() as u64));
        assert_eq!(words, "with status");
        // Of the blue pool's jobs.
        let in_blue = planted.iter().filter(|(p, _)| *p == "blue");
        let blue_failed = in_blue.clone().filter(|(_, s)| *s == "failed").count() as u64;
        let (n, of, words) = share(
            vec![eq("pool", "blue"), eq("status", "failed")],
            vec![eq("pool", "blue")],
        );
        assert_eq!((n, of), (blue_failed, in_blue.count() as u64));
        assert!(words.starts_with("where pool eq"), "{words}");
        // A soft word that only the part counted holds narrows neither side.
        let a = QueryArgs {
            query: Query {
                filters: vec![eq("status", "failed")],
                ..Query::default()
            },
            soft: vec![Filter::new(
                None,
                FilterOp::Contains,
                Scalar::Text("failed".into()),
            )],
            share_of: Some(Vec::new()),
            ..QueryArgs::default()
        };
        let r = run_named("runner.json", &log, &a);
        let base = r.share_base.clone().expect("a share base");
        assert_eq!((count(&r), base.rows), (failed, planted.len() as u64));
        // No share asked, no population counted.
        let r = run_named("runner.json", &log, &QueryArgs::default());
        assert!(r.share_base.is_none());
    }

    /// "what % of the bytes went to /a": the sum's share is of the field's total over the
    /// population, planted.
    #[test]
    fn a_sum_share_is_of_the_fields_total() {
        let mut log = String::new();
        let (mut total, mut of_a) = (0u64, 0u64);
        for i in 0..50u64 {
            let path = if i % 3 == 0 { "/a" } else { "/b" };
            let bytes = 100 + i * 37 % 900;
            total += bytes;
            of_a += if path == "/a" { bytes } else { 0 };
            log.push_str(&format!(
                "{{\"ts\":\"2031-01-01T01:00:{:02}Z\",\"path\":\"{path}\",\"bytes\":{bytes}}}\n",
                i % 60
            ));
        }
        let a = QueryArgs {
            query: Query {
                filters: vec![eq("path", "/a")],
                measure: llmops_common::query::Measure::Sum,
                field: Some(Field::new("bytes")),
                ..Query::default()
            },
            share_of: Some(Vec::new()),
            ..QueryArgs::default()
        };
        let r = run_named("cdn.json", &log, &a);
        let llmops_common::query::QueryValue::Stat { value, .. } = r.value else {
            panic!("a sum: {:?}", r.value)
        };
        let base = r.share_base.clone().expect("a share base");
        assert_eq!(value, Some(of_a as f64));
        assert_eq!((base.total, base.rows), (Some(total as f64), 50));
    }

    /// Requests per path with planted 5xx: /pay fails 6 of 8, /cart 3 of 30, /home none of
    /// 40, /ping 1 of 1; and lines with no status.
    fn paths_log() -> String {
        let plan: [(&str, u32, u32); 4] = [
            ("/pay", 8, 6),
            ("/cart", 30, 3),
            ("/home", 40, 0),
            ("/ping", 1, 1),
        ];
        let mut log = String::new();
        let mut i = 0;
        for (path, n, failed) in plan {
            for k in 0..n {
                let status = if k < failed { 503 } else { 200 };
                log.push_str(&format!(
                    "{{\"ts\":\"2031-01-01T01:{:02}:{:02}Z\",\"path\":\"{path}\",\"status\":{status}}}\n",
                    i / 60,
                    i % 60
                ));
                i += 1;
            }
        }
        log.push_str("{\"ts\":\"2031-01-01T02:00:00Z\",\"msg\":\"reloaded\"}\n");
        log
    }

    fn by_path(
        filters: Vec<Filter>,
        base: Vec<Filter>,
        order: llmops_common::query::Order,
    ) -> llmops_common::query::QueryResult {
        let a = QueryArgs {
            query: Query {
                filters,
                group_by: vec![Field::new("path")],
                order,
                ..Query::default()
            },
            share_of: Some(base),
            ..QueryArgs::default()
        };
        run_named("web.json", &paths_log(), &a)
    }

    fn rows(r: &llmops_common::query::QueryResult) -> Vec<(String, u64, Option<u64>)> {
        match &r.value {
            llmops_common::query::QueryValue::Groups { rows, .. } => rows
                .iter()
                .map(|g| (g.key.join("/"), g.count, g.of))
                .collect(),
            v => panic!("not groups: {v:?}"),
        }
    }

    fn class5() -> Filter {
        Filter::new(
            Some(Field::new("status")),
            FilterOp::Class,
            Scalar::Number(5.0),
        )
    }

    #[test]
    fn a_share_per_group_is_of_each_groups_own_rows() {
        use llmops_common::query::{Order, QueryValue};
        let r = by_path(vec![class5()], Vec::new(), Order::Desc);
        // 6/8, 3/30, 0/40: the path with nothing failed is listed at 0; the one request
        // to /ping says little and is ranked after them, with a note.
        let want = |v: &[(&str, u64, u64)]| {
            v.iter()
                .map(|&(k, n, of)| (k.to_string(), n, Some(of)))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            rows(&r),
            want(&[
                ("/pay", 6, 8),
                ("/cart", 3, 30),
                ("/home", 0, 40),
                ("/ping", 1, 1)
            ])
        );
        let last = r.notes.iter().any(|n| n.contains("ranked last"));
        assert!(last, "{:?}", r.notes);
        assert!(r.described_en.contains("top 10"), "{}", r.described_en);
        let QueryValue::Groups { groups, rest, .. } = r.value else {
            unreachable!()
        };
        assert_eq!((groups, rest, r.matched), (4, 0, 10));
        // Of the rows with a status: the reload line is in no population.
        assert_eq!(r.share_base.as_ref().map(|b| b.rows), Some(79));
        // The lowest first, asked ascending; a limit keeps the first ones.
        let r = by_path(vec![class5()], Vec::new(), Order::Asc);
        assert_eq!(rows(&r)[0], ("/home".to_string(), 0, Some(40)));
        let a = QueryArgs {
            query: Query {
                limit: Some(2),
                ..r.query.clone()
            },
            share_of: Some(Vec::new()),
            ..QueryArgs::default()
        };
        let r = run_named("web.json", &paths_log(), &a);
        assert_eq!(rows(&r).len(), 2);
        let QueryValue::Groups { rest, .. } = r.value else {
            unreachable!()
        };
        assert_eq!(rest, 10 - 3, "the 5xx of the paths not listed");
    }

    #[test]
    fn a_share_of_the_rows_counted_per_group_is_of_them_all() {
        let r = by_path(
            vec![class5()],
            vec![class5()],
            llmops_common::query::Order::Desc,
        );
        assert_eq!(
            rows(&r),
            vec![
                ("/pay".to_string(), 6, None),
                ("/cart".to_string(), 3, None),
                ("/ping".to_string(), 1, None)
            ]
        );
        assert_eq!(r.share_base.as_ref().map(|b| b.rows), Some(10));
    }
}
