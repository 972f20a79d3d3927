//! In-memory tables (the system tables the server fills from `/proc`): the same filters,
//! windows and measures as logs, over rows of typed cells.

use std::borrow::Cow;

use llmops_common::query::{
    FieldInfo, FieldKind, Query, QueryResult, QueryValue, SourceInfo, Unit,
};

use super::agg::Acc;
use super::def::{FieldSpec, Origin};
use super::describe::describe;
use super::error::QueryError;
use super::event::{parse_time, Val};
use super::finish::finish;
use super::plan::{plan, Plan, RowAccess, Table};
use super::run::check_measure;
use super::window::{check_window, resolve_window};
use crate::ts::{self, Ts};

/// One cell of a system row. Times are epoch seconds (`Int`) or ISO text.
#[derive(Debug, Clone, PartialEq)]
pub enum Cell {
    Text(String),
    Int(i64),
    Num(f64),
    Empty,
}

/// A table of rows, e.g. processes: `fields` names the columns of `rows`.
#[derive(Debug, Clone, PartialEq)]
pub struct MemTable {
    pub name: String,
    pub fields: Vec<FieldInfo>,
    pub rows: Vec<Vec<Cell>>,
}

struct MemRow<'a> {
    cells: &'a [Cell],
    line: String,
    time_col: Option<usize>,
}

impl RowAccess for MemRow<'_> {
    fn val(&mut self, f: usize) -> Option<Val<'_>> {
        match self.cells.get(f)? {
            Cell::Text(s) => Some(Val::Text(Cow::Borrowed(s))),
            Cell::Int(i) => Some(Val::Text(Cow::Owned(i.to_string()))),
            Cell::Num(n) => Some(Val::Text(Cow::Owned(super::agg::fmt_num(*n)))),
            Cell::Empty => None,
        }
    }

    fn whole(&self) -> &[u8] {
        self.line.as_bytes()
    }

    fn time(&mut self) -> Option<Ts> {
        let c = self.time_col?;
        match self.cells.get(c)? {
            Cell::Int(s) => parse_time(s.to_string().as_bytes(), super::def::TimeFormat::Epoch),
            Cell::Text(t) => parse_time(t.as_bytes(), super::def::TimeFormat::Auto),
            _ => None,
        }
    }
}

fn render(fields: &[FieldInfo], cells: &[Cell]) -> String {
    fields
        .iter()
        .zip(cells)
        .filter_map(|(f, c)| {
            let v = match c {
                Cell::Text(s) => s.clone(),
                // Sizes also as `df -h` prints them, to check against it at a glance.
                Cell::Int(i) if f.unit == Unit::B && *i >= 1024 => {
                    format!("{i} ({})", llmops_common::df_size(i.unsigned_abs()))
                }
                Cell::Int(i) => i.to_string(),
                Cell::Num(n) => super::agg::fmt_num(*n),
                Cell::Empty => return None,
            };
            Some(format!("{}={v}", f.name))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn now() -> Ts {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    Ts {
        key: (secs + ts::days_from_civil(1970, 1, 1) * 86_400) * 1_000_000,
        zone: ts::Zone::Utc,
        frac_digits: 0,
        dated: crate::ts::Dated::Full,
    }
}

/// The table's columns as captured fields, in column order.
fn field_specs(t: &MemTable) -> Vec<FieldSpec> {
    t.fields
        .iter()
        .enumerate()
        .map(|(i, f)| FieldSpec {
            name: f.name.clone(),
            kind: f.kind,
            unit: f.unit,
            roles: f.roles.clone(),
            words: 0,
            awk: None,
            origin: Origin::Capture(i),
        })
        .collect()
}

/// Plans `q` over `table`, with every column shown with each row.
fn plan_table(
    t: &MemTable,
    table: &Table<'_>,
    q: &Query,
    window: Option<(i64, i64)>,
) -> Result<Plan, QueryError> {
    let mut p = plan(table, q, window)?;
    check_measure(q, &p, table.time.is_some(), &t.name)?;
    // A system row is small and read as a whole: every column is shown with it.
    for f in &t.fields {
        let r = table.resolve(&llmops_common::query::Field::new(f.name.as_str()))?;
        if !p.show.iter().any(|s| s.id == r.id) {
            p.show.push(r);
        }
    }
    Ok(p)
}

/// Feeds the rows that pass `p` to the measure.
fn aggregate(t: &MemTable, q: &Query, p: &Plan, time_col: Option<usize>) -> Acc {
    let mut acc = Acc::new(q, p);
    for (i, cells) in t.rows.iter().enumerate() {
        let mut row = MemRow {
            cells,
            line: render(&t.fields, cells),
            time_col,
        };
        if p.passes(&mut row) {
            acc.add(&mut row, p, q, 0, i as u64 + 1);
        }
    }
    acc
}

/// Runs `q` over an in-memory table (windows count back from now).
pub fn run_table(t: &MemTable, q: &Query) -> Result<QueryResult, QueryError> {
    let specs = field_specs(t);
    let time_col = t.fields.iter().position(|f| f.kind == FieldKind::Time);
    let table = Table {
        name: &t.name,
        fields: &specs,
        time: time_col,
        level: None,
        tags: &[],
        format: &t.name,
        level_map: None,
    };
    let window = match &q.window {
        Some(w) => {
            check_window(w)?;
            Some(resolve_window(w, &now(), None)?)
        }
        None => None,
    };
    let p = plan_table(t, &table, q, window)?;
    let acc = aggregate(t, q, &p, time_col);
    let matched = acc.matched;
    let unit = p.field.as_ref().map(|f| f.unit).unwrap_or_default();
    let names = vec![t.name.clone()];
    let mut value = finish(acc, q, unit, 1, &[]);
    // Rows of a system table have no line in a file.
    if let QueryValue::Rows { rows, .. } = &mut value {
        rows.iter_mut().for_each(|r| r.line = 0);
    }
    let (described_zh, described_en) = describe(
        q,
        &p.resolved,
        &names,
        (None, &names),
        window,
        crate::ts::Dated::Full,
    );
    let mut query = q.clone();
    query.limit = Some(q.limit() as u32);
    let notes = Vec::new();
    Ok(QueryResult {
        query,
        described_zh,
        described_en,
        sources: vec![SourceInfo {
            name: t.name.clone(),
            path: None,
            format: t.name.clone(),
            fields: t.fields.clone(),
            lines: t.rows.len() as u64,
            events: t.rows.len() as u64,
            bytes: 0,
            complete: true,
            unparsed: 0,
        }],
        resolved: p.resolved,
        matched,
        matched_per_file: Vec::new(),
        value,
        pipeline: None,
        notes,
        share_base: None,
    })
}
