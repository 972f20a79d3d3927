//! How common each message template is in a file: a timeline ranks the routine events of
//! its window by it, so a rare line ("Shrinking ISR", an election, a config reload) is
//! shown before the thousandth "request served".

use std::sync::atomic::AtomicBool;

use llmops_common::query::{Field, Measure, Query};
use rustc_hash::FxHashMap;

use super::agg::{push_part, Acc, AccKind};
use super::error::QueryError;
use super::plan::{plan, FieldRef, RowAccess, Table};
use super::registry::Registry;
use super::scan::{scan_file, Opened, QueryOptions, ScanJob};

/// Past this many distinct templates a file's lines are not templated well enough for
/// their counts to mean rarity (every line its own template), and the map would be large.
const MAX_TEMPLATES: usize = 100_000;

/// Each template's count of events in one file.
#[derive(Debug)]
pub struct Rarity {
    field: FieldRef,
    counts: FxHashMap<Vec<u8>, u64>,
}

impl Rarity {
    /// The file's count of events with this row's template; `None` without a template.
    pub fn count(&self, row: &mut dyn RowAccess) -> Option<u64> {
        let v = row.val(self.field.id)?;
        let mut key = Vec::new();
        push_part(&mut key, &v, &self.field);
        self.counts.get(&key).copied()
    }
}

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
    let counts = map.into_iter().map(|(k, g)| (k, g.count)).collect();
    Ok(Some(Rarity { field, counts }))
}
