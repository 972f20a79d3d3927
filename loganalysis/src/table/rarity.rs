//! How common each message template is in a file: a timeline ranks the routine events of
//! its window by it, so a rare line ("Shrinking ISR", an election, a config reload) is
//! shown before the thousandth "request served".

use std::sync::atomic::AtomicBool;

use llmops_common::query::{Field, Measure, Query};

use super::agg::{split_key, Acc, AccKind};
use super::error::QueryError;
use super::plan::{plan, Rarity, Table};
use super::registry::Registry;
use super::scan::{scan_file, Opened, QueryOptions, ScanJob};

/// Past this many distinct templates a file's lines are not templated well enough for
/// their counts to mean rarity (every line its own template), and the map would be large.
const MAX_TEMPLATES: usize = 100_000;

/// Counts the templates of a whole file (one extra scan, without the window or filters),
/// or `None` when the table has no template or too many.
pub fn rarity(
    reg: &Registry,
    table: &Table<'_>,
    o: &Opened,
    opts: &QueryOptions,
    cancel: &AtomicBool,
) -> Result<Option<Rarity>, QueryError> {
    let template = Field::new("template");
    let Ok(field) = table.resolve(&template) else {
        return Ok(None);
    };
    let q = Query {
        measure: Measure::Count,
        group_by: vec![template],
        ..Query::default()
    };
    let p = plan(table, &q, None)?;
    let make = || Acc::new(&q, &p);
    let job = ScanJob {
        fmt: &reg.formats()[o.format],
        schema: &o.schema,
        plan: Some(&p),
        q: &q,
        file: 0,
        make_acc: &make,
    };
    let out = scan_file(
        &o.file.path,
        o.end,
        (opts.threads, opts.split_min_bytes),
        &job,
        cancel,
    )?;
    let AccKind::Groups(map) = out.acc.kind else {
        return Ok(None);
    };
    if map.len() > MAX_TEMPLATES {
        return Ok(None);
    }
    // One group field: the key's only part is the template as written.
    let counts: rustc_hash::FxHashMap<Vec<u8>, u64> = map
        .into_iter()
        .filter_map(|(k, g)| split_key(&k).pop().map(|t| (t, g.count)))
        .collect();
    let total = counts.values().sum();
    Ok(Some(Rarity {
        field,
        counts,
        total,
    }))
}
