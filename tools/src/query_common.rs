//! What the two query tools share: the JSON schema of their arguments, soft filters
//! dropped when they would leave nothing, and the short text form of a result.

use llmops_common::query::{Filter, QueryArgs, QueryResult};
use serde_json::Value;

mod retry;
mod share;

/// The JSON schema of the query tools' arguments, generated from [`QueryArgs`].
pub fn args_schema() -> Value {
    let schema = schemars::schema_for!(QueryArgs);
    // A schema of plain structs and enums always serialises.
    serde_json::to_value(&schema).expect("the query schema serialises")
}

/// Runs the query with its soft filters, dropping those that would leave nothing (the
/// last added first) and noting each one dropped; when its own filters match nothing, its
/// `or_else` filters in their place, and the result says so. A share asked runs without
/// soft filters: a word that matches only the part counted (a trace's "invoke" in the
/// failures) would narrow the part and its population unevenly.
pub fn run_soft<E>(
    args: &QueryArgs,
    mut run: impl FnMut(&llmops_common::query::Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    if let Some(base) = &args.share_of {
        let hard = QueryArgs {
            soft: Vec::new(),
            ..args.clone()
        };
        return share::run(&hard, base, &mut run);
    }
    let first = with_soft(args, &mut run)?;
    let r = or_else(args, first, &mut run)?;
    let r = retry::with_namesake(r, &mut run)?;
    let r = retry::without_empty_definition(r, &mut run)?;
    retry::per_event(&args.query, r, &mut run)
}

/// The query's `or_else` filters in place of its own when those matched nothing, with a
/// note; the first result when they match nothing either.
fn or_else<E>(
    args: &QueryArgs,
    first: QueryResult,
    run: &mut impl FnMut(&llmops_common::query::Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    if first.matched > 0 || args.or_else.is_empty() {
        return Ok(first);
    }
    let instead = QueryArgs {
        query: llmops_common::query::Query {
            filters: args.or_else.clone(),
            ..args.query.clone()
        },
        soft: args.soft.clone(),
        or_else: Vec::new(),
        share_of: None,
    };
    let mut second = with_soft(&instead, run)?;
    if second.matched == 0 {
        return Ok(first);
    }
    let described = |fs: &[Filter]| fs.iter().map(in_words).collect::<Vec<_>>().join(", ");
    let (zh, en) = args.query.source.row_words();
    second.notes.push(format!(
        "没有同时满足 {0} 的{zh}，改用 {1} / no {en} met {0}; {1} was used instead",
        described(&args.query.filters),
        described(&args.or_else),
    ));
    Ok(second)
}

fn with_soft<E>(
    args: &QueryArgs,
    run: &mut impl FnMut(&llmops_common::query::Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    let mut soft = args.soft.clone();
    let mut dropped: Vec<String> = Vec::new();
    loop {
        let mut q = args.query.clone();
        q.filters.extend(soft.iter().cloned());
        let mut r = run(&q)?;
        // A soft condition that leaves nothing to measure is dropped like one that leaves
        // no row.
        if !retry::found_nothing(&r) || soft.is_empty() {
            r.query = args.query.clone();
            r.query.filters.extend(soft.iter().cloned());
            r.notes.extend(dropped.iter().map(|f| left_out(f)));
            return Ok(r);
        }
        // "how long did the refund batches take": the batches' own time taken, when the one the
        // question's role first read leaves them nothing to measure.
        if !soft.is_empty() {
            if let Some(mut r) = retry::with_same_role(&q, &r, run)? {
                r.notes.extend(dropped.iter().map(|f| left_out(f)));
                return Ok(r);
            }
        }
        if let Some(f) = soft.pop() {
            dropped.push(in_words(&f));
        }
    }
}

/// The note on a soft condition dropped.
fn left_out(f: &str) -> String {
    format!("条件 {f} 没有匹配任何行，已忽略 / the condition {f} matched nothing and was left out")
}

/// A filter as a note names it: `program contains "eating"` as `program contains eating`.
fn in_words(f: &Filter) -> String {
    let field = f
        .field
        .as_ref()
        .map(|x| format!("{x} "))
        .unwrap_or_default();
    format!("{field}{:?} {}", f.op, f.value).to_lowercase()
}

/// The text output: the query in words and its figure (the planner writes the answer).
pub fn summary_text(r: &QueryResult) -> String {
    let mut s = format!("{} ({} matched)", r.described_en, r.matched);
    if let Some(p) = &r.pipeline {
        s.push_str(&format!("\ncheck: {p}"));
    }
    for n in &r.notes {
        s.push_str(&format!("\nnote: {n}"));
    }
    s
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use llmops_common::query::{Field, Filter, FilterOp, Query, QueryArgs, QueryValue, Scalar};
    use llmops_loganalysis::{run_query, QueryFile, QueryOptions};

    use super::run_soft;

    /// A TLS proxy that writes its "handshake error" at WARNING: 7 of them planted, beside
    /// one ERROR line of another kind and routine lines.
    fn proxy_log() -> String {
        let mut log = String::new();
        for i in 0..30 {
            let line = match i % 4 {
                0 if i < 28 => {
                    "WARNING conn 0x1 from 10.0.0.5:4000: handshake error: bad certificate"
                }
                _ => "INFO conn 0x1 from 10.0.0.5:4000: session resumed",
            };
            log.push_str(&format!("2031-01-01 01:00:{i:02}.000 UTC [77] {line}\n"));
        }
        log.push_str("2031-01-01 01:01:00.000 UTC [77] ERROR config file is unreadable\n");
        log
    }

    fn run(text: &str, args: &QueryArgs) -> llmops_common::query::QueryResult {
        run_named("tls-proxy.log", text, args)
    }

    pub(super) fn run_named(
        name: &str,
        text: &str,
        args: &QueryArgs,
    ) -> llmops_common::query::QueryResult {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        let files = [QueryFile::new(name, path)];
        let none = AtomicBool::new(false);
        run_soft(args, |q| {
            run_query(&files, q, &QueryOptions::default(), &none)
        })
        .expect("runs")
    }

    fn args(or_else: Vec<Filter>) -> QueryArgs {
        QueryArgs {
            query: Query {
                filters: vec![
                    Filter::new(
                        Some(Field::new("level")),
                        FilterOp::Eq,
                        Scalar::Text("ERROR".into()),
                    ),
                    Filter::new(None, FilterOp::Contains, Scalar::Text("handshake".into())),
                ],
                ..Query::default()
            },
            soft: Vec::new(),
            or_else,
            share_of: None,
        }
    }

    pub(super) fn count(r: &llmops_common::query::QueryResult) -> u64 {
        match r.value {
            QueryValue::Count { count } => count,
            ref v => panic!("not a count: {v:?}"),
        }
    }

    #[test]
    fn the_phrase_runs_only_when_the_level_and_the_word_match_nothing() {
        let phrase = vec![Filter::new(
            None,
            FilterOp::Regex,
            Scalar::Text(r"\bhandshake\W+errors?\b".into()),
        )];
        let r = run(&proxy_log(), &args(phrase.clone()));
        assert_eq!(count(&r), 7, "as grep -c 'handshake error' counts");
        assert!(
            r.notes.iter().any(|n| n.contains("instead")),
            "{:?}",
            r.notes
        );
        assert_eq!(r.query.filters, phrase, "the result describes what ran");
        // Without the phrase the answer stays the honest zero.
        assert_eq!(count(&run(&proxy_log(), &args(Vec::new()))), 0);
        // With an ERROR handshake line, the level and the word are what is counted.
        let mut log = proxy_log();
        log.push_str("2031-01-01 01:02:00.000 UTC [77] ERROR handshake error: no shared cipher\n");
        let r = run(&log, &args(phrase));
        assert_eq!(count(&r), 1);
        assert!(
            r.notes.iter().all(|n| !n.contains("instead")),
            "{:?}",
            r.notes
        );
    }
}
