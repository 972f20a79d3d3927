//! What the two query tools share: the JSON schema of their arguments, soft filters
//! dropped when they would leave nothing, and the short text form of a result.

use llmops_common::query::{QueryArgs, QueryResult};
use serde_json::Value;

/// The JSON schema of the query tools' arguments, generated from [`QueryArgs`].
pub fn args_schema() -> Value {
    let schema = schemars::schema_for!(QueryArgs);
    // A schema of plain structs and enums always serialises.
    serde_json::to_value(&schema).expect("the query schema serialises")
}

/// Runs the query with its soft filters, dropping those that would leave nothing (the
/// last added first) and noting each one dropped.
pub fn run_soft<E>(
    args: &QueryArgs,
    mut run: impl FnMut(&llmops_common::query::Query) -> Result<QueryResult, E>,
) -> Result<QueryResult, E> {
    let mut soft = args.soft.clone();
    let mut dropped = Vec::new();
    loop {
        let mut q = args.query.clone();
        q.filters.extend(soft.iter().cloned());
        let mut r = run(&q)?;
        if r.matched > 0 || soft.is_empty() {
            r.query = args.query.clone();
            r.query.filters.extend(soft.iter().cloned());
            for f in &dropped {
                r.notes.push(format!(
                    "条件 {f} 没有匹配任何行，已忽略 / the condition {f} matched nothing and was left out"
                ));
            }
            return Ok(r);
        }
        if let Some(f) = soft.pop() {
            let field = f.field.as_ref().map(|x| x.to_string()).unwrap_or_default();
            dropped.push(format!("{field} {:?} {}", f.op, f.value).to_lowercase());
        }
    }
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
