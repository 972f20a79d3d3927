//! A query resolved against one table's schema: fields found (by name or role), filters
//! compiled (units converted, regexes built, tags expanded) and the window in seconds.

use llmops_common::query::{
    Dimension, Field, FieldKind, Filter, FilterOp, Measure, Query, Resolved, Scalar, Unit,
};
use memchr::memmem;
use regex::bytes::Regex;

use super::def::FieldSpec;
use super::error::QueryError;
use super::event::{parse_number, Val};
use crate::ts::Ts;

mod table;
pub(crate) use table::bare_name;
pub use table::Table;

/// A resolved field.
#[derive(Debug, Clone, PartialEq)]
pub struct FieldRef {
    pub id: usize,
    pub name: String,
    pub kind: FieldKind,
    pub unit: Unit,
    /// A request path (`req.url`, `path=`, a format's `path` column), which may carry a query
    /// string: as a group key it is the path without it (`/api/quote`, not one group per
    /// `?id=`).
    pub path_key: bool,
}

impl FieldRef {
    /// The reference to field `id` of `fields`.
    pub fn of(fields: &[FieldSpec], id: usize) -> FieldRef {
        let f = &fields[id];
        let path = f.roles.iter().any(|r| r == "path" || r == "endpoint");
        FieldRef {
            id,
            name: f.name.clone(),
            kind: f.kind,
            unit: f.unit,
            path_key: path && f.kind == FieldKind::Text,
        }
    }

    pub fn is_numeric(&self) -> bool {
        matches!(self.kind, FieldKind::Integer | FieldKind::Number)
    }
}

/// One row as the engine reads it: a log event or a system table row.
pub trait RowAccess {
    fn val(&mut self, f: usize) -> Option<Val<'_>>;
    /// The whole event (a system row rendered as one line).
    fn whole(&self) -> &[u8];
    fn time(&mut self) -> Option<Ts>;
}

/// A compiled filter.
#[derive(Debug)]
pub enum Cond {
    Num {
        f: FieldRef,
        op: FilterOp,
        value: f64,
    },
    Range {
        f: FieldRef,
        lo: f64,
        hi: f64,
    },
    Text {
        f: FieldRef,
        value: Vec<u8>,
        cs: bool,
        neg: bool,
    },
    Contains {
        f: Option<FieldRef>,
        finder: Box<memmem::Finder<'static>>,
        text: String,
        neg: bool,
    },
    ContainsCi {
        f: Option<FieldRef>,
        re: Regex,
        text: String,
        neg: bool,
    },
    Regex {
        f: Option<FieldRef>,
        re: Regex,
    },
    All(Vec<Cond>),
    /// Any one of them holds (a tag's alternatives that each tag an event).
    Any(Vec<Cond>),
    /// The row has the field (when one) and the condition does not hold: "not 5xx" keeps
    /// the requests with another status, not the lines that have none.
    Not {
        f: Option<FieldRef>,
        inner: Box<Cond>,
    },
}

impl Cond {
    /// The field it compares, when one (`All` compares several: see its parts).
    pub fn field(&self) -> Option<&FieldRef> {
        match self {
            Cond::Num { f, .. } | Cond::Range { f, .. } | Cond::Text { f, .. } => Some(f),
            Cond::Contains { f, .. } | Cond::ContainsCi { f, .. } | Cond::Regex { f, .. } => {
                f.as_ref()
            }
            Cond::Not { f, .. } => f.as_ref(),
            Cond::All(_) | Cond::Any(_) => None,
        }
    }

    pub fn holds(&self, row: &mut dyn RowAccess) -> bool {
        match self {
            Cond::Num { f, op, value } => {
                let Some(v) = row.val(f.id).and_then(|v| v.number()) else {
                    return false;
                };
                match op {
                    FilterOp::Eq => v == *value,
                    FilterOp::Ne => v != *value,
                    FilterOp::Lt => v < *value,
                    FilterOp::Le => v <= *value,
                    FilterOp::Gt => v > *value,
                    FilterOp::Ge => v >= *value,
                    _ => false,
                }
            }
            Cond::Range { f, lo, hi } => row
                .val(f.id)
                .and_then(|v| v.number())
                .is_some_and(|v| v >= *lo && v <= *hi),
            // `!=` holds of rows that have the field, as SQL's does: a line without a
            // status or flags (another writer's) is not "not 200" or "not `-`".
            Cond::Text { f, value, cs, neg } => row.val(f.id).is_some_and(|v| {
                let b = v.as_bytes();
                let eq = if *cs {
                    b == value.as_slice()
                } else {
                    text_eq_ci(b, value)
                };
                eq != *neg
            }),
            Cond::Contains { f, finder, neg, .. } => {
                let hit = match f {
                    Some(f) => row
                        .val(f.id)
                        .is_some_and(|v| finder.find(v.as_bytes()).is_some()),
                    None => finder.find(row.whole()).is_some(),
                };
                hit != *neg
            }
            Cond::ContainsCi { f, re, neg, .. } => {
                let hit = match f {
                    Some(f) => row.val(f.id).is_some_and(|v| re.is_match(v.as_bytes())),
                    None => re.is_match(row.whole()),
                };
                hit != *neg
            }
            Cond::Regex { f, re } => match f {
                Some(f) => row.val(f.id).is_some_and(|v| re.is_match(v.as_bytes())),
                None => re.is_match(row.whole()),
            },
            Cond::All(cs) => cs.iter().all(|c| c.holds(row)),
            Cond::Any(cs) => cs.iter().any(|c| c.holds(row)),
            Cond::Not { f, inner } => {
                f.as_ref().is_none_or(|f| row.val(f.id).is_some()) && !inner.holds(row)
            }
        }
    }
}

fn text_eq_ci(a: &[u8], b: &[u8]) -> bool {
    if a.is_ascii() && b.is_ascii() {
        return a.eq_ignore_ascii_case(b);
    }
    String::from_utf8_lossy(a).to_lowercase() == String::from_utf8_lossy(b).to_lowercase()
}

/// The factor that turns a filter's number into the field's unit.
fn convert(value: f64, unit: Unit, f: &FieldRef) -> Result<f64, QueryError> {
    if unit == Unit::None {
        return Ok(value);
    }
    let field_unit = match f.unit {
        // A field without a unit is read in the base unit of the filter's dimension.
        Unit::None => match unit.dimension() {
            Dimension::Time => Unit::S,
            Dimension::Size => Unit::B,
            // A volume or a mass under a name without a unit is read as written in the
            // unit asked ("over 2 l" of a `volume` field).
            Dimension::Volume | Dimension::Mass => unit,
            _ => Unit::None,
        },
        u => u,
    };
    if field_unit.dimension() != unit.dimension() {
        return Err(QueryError::UnitMismatch {
            field: f.name.clone(),
            field_unit: field_unit.as_str().to_string(),
            unit: unit.as_str().to_string(),
        });
    }
    Ok(value * unit.factor() / field_unit.factor())
}

fn scalar_number(v: &Scalar) -> Option<f64> {
    match v {
        Scalar::Number(n) => Some(*n),
        Scalar::Text(t) => parse_number(t.trim().as_bytes()),
    }
}

fn build_regex(pattern: &str, cs: bool) -> Result<Regex, QueryError> {
    let src = if cs {
        pattern.to_string()
    } else {
        format!("(?i){pattern}")
    };
    Regex::new(&src).map_err(|e| QueryError::BadRegex {
        pattern: pattern.to_string(),
        message: e.to_string(),
    })
}

/// A tag: the format's own, else the first alternative of the generic tag of that name
/// whose fields the table has, or'd with each of its `also` alternatives the table has the
/// fields for.
fn compile_tag(
    t: &Table<'_>,
    name: &str,
    resolved: &mut Vec<Resolved>,
) -> Result<Cond, QueryError> {
    if let Some(tag) = t.tags.iter().find(|x| x.name == name) {
        let conds = tag
            .filters
            .iter()
            .map(|f| compile_filter(t, f, resolved))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(Cond::All(conds));
    }
    let generic = super::tags::generic_tags();
    // A number compared with a field of words is no alternative of this table: a JSON
    // log's `status` of "ok"/"aborted" holds no HTTP 429.
    let fits = |f: &Filter| match (&f.field, &f.value) {
        (Some(field), Scalar::Number(_)) => t.resolve(field).is_ok_and(|r| r.is_numeric()),
        _ => true,
    };
    for when in generic
        .iter()
        .filter(|g| g.name == name)
        .flat_map(|g| &g.when)
        .filter(|w| w.iter().all(fits))
    {
        let mut used = Vec::new();
        let conds: Result<Vec<_>, _> = when
            .iter()
            .map(|f| compile_filter(t, f, &mut used))
            .collect();
        if let Ok(conds) = conds {
            resolved.extend(used);
            let also: Vec<Cond> = generic
                .iter()
                .filter(|g| g.name == name)
                .flat_map(|g| &g.also)
                .filter_map(|fs| {
                    fs.iter()
                        .map(|f| compile_filter(t, f, &mut Vec::new()))
                        .collect::<Result<Vec<_>, _>>()
                        .ok()
                        .map(Cond::All)
                })
                .collect();
            if also.is_empty() {
                return Ok(Cond::All(conds));
            }
            let mut any = vec![Cond::All(conds)];
            any.extend(also);
            return Ok(Cond::Any(any));
        }
    }
    let mut available: Vec<String> = t.tags.iter().map(|x| x.name.clone()).collect();
    available.extend(generic.iter().map(|g| format!("{} ({})", g.name, g.title)));
    Err(QueryError::UnknownTag {
        tag: name.to_string(),
        format: t.format.to_string(),
        available: available.join(", "),
    })
}

/// Compiles one filter; `resolved` collects the fields it used.
pub fn compile_filter(
    t: &Table<'_>,
    flt: &Filter,
    resolved: &mut Vec<Resolved>,
) -> Result<Cond, QueryError> {
    let cond = compile_held(t, flt, resolved)?;
    if !flt.negate {
        return Ok(cond);
    }
    // An event that is not tagged is any other event, whatever fields it has.
    let f = (flt.op != FilterOp::Tag)
        .then(|| cond.field().cloned())
        .flatten();
    Ok(Cond::Not {
        f,
        inner: Box::new(cond),
    })
}

/// Compiles one filter as if it were not negated.
fn compile_held(
    t: &Table<'_>,
    flt: &Filter,
    resolved: &mut Vec<Resolved>,
) -> Result<Cond, QueryError> {
    let note = |r: &FieldRef, asked: &Field, resolved: &mut Vec<Resolved>| {
        if !resolved.iter().any(|x| x.asked == *asked) {
            resolved.push(Resolved {
                asked: asked.clone(),
                used: r.name.clone(),
                unit: r.unit,
            });
        }
    };
    match flt.op {
        FilterOp::Tag => compile_tag(t, &flt.value.to_string(), resolved),
        FilterOp::Contains | FilterOp::NotContains | FilterOp::Regex => {
            let f = t.resolve_text(flt.field.as_ref())?;
            if let (Some(r), Some(a)) = (&f, &flt.field) {
                note(r, a, resolved);
            }
            let text = flt.value.to_string();
            let neg = flt.op == FilterOp::NotContains;
            Ok(match flt.op {
                FilterOp::Regex => Cond::Regex {
                    f,
                    re: build_regex(&text, flt.case_sensitive)?,
                },
                _ if flt.case_sensitive => Cond::Contains {
                    f,
                    finder: Box::new(memmem::Finder::new(text.as_bytes()).into_owned()),
                    text,
                    neg,
                },
                _ => Cond::ContainsCi {
                    f,
                    re: build_regex(&regex::escape(&text), false)?,
                    text,
                    neg,
                },
            })
        }
        op => {
            let asked = flt
                .field
                .as_ref()
                .ok_or_else(|| QueryError::BadFilter(format!("`{}` needs a field", op_name(op))))?;
            let r = t.resolve(asked)?;
            note(&r, asked, resolved);
            // A level is compared by its canonical name, as the events' levels are read
            // (`level=warning` is WARN, pino's and bunyan's `50` is ERROR).
            if Some(r.id) == t.level && matches!(op, FilterOp::Eq | FilterOp::Ne) {
                let word = match &flt.value {
                    Scalar::Text(v) => {
                        let own = t.level_map.and_then(|m| {
                            m.get(v.as_str())
                                .or_else(|| m.get(v.to_ascii_uppercase().as_str()))
                        });
                        let v = own.unwrap_or(v).to_ascii_uppercase();
                        crate::level::word_level(v.as_bytes()).map(|l| l.0)
                    }
                    Scalar::Number(n) if n.fract() == 0.0 => {
                        crate::level::pino(format!("{n}").as_bytes())
                    }
                    Scalar::Number(_) => None,
                };
                if let Some(l) = word {
                    let canonical = Filter {
                        value: Scalar::Text(l.name().to_string()),
                        ..flt.clone()
                    };
                    return compile_compare(&r, &canonical);
                }
            }
            compile_compare(&r, flt)
        }
    }
}

fn compile_compare(r: &FieldRef, flt: &Filter) -> Result<Cond, QueryError> {
    if flt.op == FilterOp::Class {
        let d = scalar_number(&flt.value)
            .filter(|d| d.fract() == 0.0 && *d >= 1.0 && *d <= 9.0)
            .ok_or_else(|| {
                QueryError::BadFilter(format!(
                    "class needs a digit 1-9 (5 = 500..599), got `{}`",
                    flt.value
                ))
            })?;
        return Ok(Cond::Range {
            f: r.clone(),
            lo: d * 100.0,
            hi: d * 100.0 + 99.0,
        });
    }
    let ordered = matches!(
        flt.op,
        FilterOp::Lt | FilterOp::Le | FilterOp::Gt | FilterOp::Ge
    );
    let number = scalar_number(&flt.value);
    let numeric_field = r.is_numeric() || (ordered && flt.unit != Unit::None);
    match (number, numeric_field || ordered) {
        (Some(n), true) => Ok(Cond::Num {
            f: r.clone(),
            op: flt.op,
            value: convert(n, flt.unit, r)?,
        }),
        (None, _) if ordered => Err(QueryError::BadFilter(format!(
            "`{}` compares numbers; `{}` is not a number",
            op_name(flt.op),
            flt.value
        ))),
        _ => Ok(Cond::Text {
            f: r.clone(),
            value: flt.value.to_string().into_bytes(),
            cs: flt.case_sensitive,
            neg: flt.op == FilterOp::Ne,
        }),
    }
}

pub fn op_name(op: FilterOp) -> &'static str {
    match op {
        FilterOp::Eq => "eq",
        FilterOp::Ne => "ne",
        FilterOp::Lt => "lt",
        FilterOp::Le => "le",
        FilterOp::Gt => "gt",
        FilterOp::Ge => "ge",
        FilterOp::Contains => "contains",
        FilterOp::NotContains => "not_contains",
        FilterOp::Regex => "regex",
        FilterOp::Class => "class",
        FilterOp::Tag => "tag",
    }
}

/// Everything the scan needs for one table.
#[derive(Debug)]
pub struct Plan {
    pub conds: Vec<Cond>,
    /// Inclusive, in whole seconds of the log's clock.
    pub window: Option<(i64, i64)>,
    pub field: Option<FieldRef>,
    pub group: Vec<FieldRef>,
    /// Fields shown with each row.
    pub show: Vec<FieldRef>,
    /// The table's key fields a row of a superlative or a listing carries besides (no
    /// pipeline or template check reads them).
    pub carry: Vec<FieldRef>,
    pub resolved: Vec<Resolved>,
    pub time: Option<usize>,
    /// What makes an event notable in a timeline (any one holds): an incident tag or a
    /// warning level and worse. Empty for other measures.
    pub notable: Vec<Cond>,
    /// What makes a quiet event a service's change of state (the `state_change` tag): of a
    /// timeline's one-off events, these are kept first.
    pub milestone: Option<Cond>,
    /// What makes an event slow (the `slow_query` tag): notable in a timeline only in a
    /// kind that is a one-off in its file (a backup that took 40 minutes, not a mail log's
    /// every delivery of a second or more).
    pub slow: Option<Cond>,
    /// A timeline's count of each message template in the file, to rank routine events
    /// rarest first.
    pub rarity: Option<Rarity>,
    /// A timeline's kind of request in a log of requests (status, method, path, upstream,
    /// each with the part it is): its kinds are by these, not by the line's shape.
    pub request_kind: Vec<(FieldRef, RequestPart)>,
    /// A timeline's field that tells kinds of one template apart by what went wrong (the
    /// `exception` role): "call failed" with a pool timeout and with a null pointer are two
    /// kinds.
    pub kind_detail: Option<FieldRef>,
}

/// Which part of a request's kind a field gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RequestPart {
    Status,
    Method,
    Path,
    Upstream,
}

impl RequestPart {
    /// A path and an upstream are compared with their numbers and ids masked
    /// (`/v2/rides/<n>`); a status and a method as written.
    pub fn masked(self) -> bool {
        matches!(self, RequestPart::Path | RequestPart::Upstream)
    }
}

/// Each message template's count of events in one file (built by a scan of its own): by
/// the template field, or, in a log of requests, by the request's kind (`field` none).
#[derive(Debug)]
pub struct Rarity {
    pub field: Option<FieldRef>,
    pub counts: std::sync::Arc<Counts>,
}

/// A file's events by message template, and their total.
#[derive(Debug)]
pub struct Counts {
    pub by_template: rustc_hash::FxHashMap<Vec<u8>, u64>,
    pub total: u64,
}

/// Resolves `q` against a table.
pub fn plan(t: &Table<'_>, q: &Query, window: Option<(i64, i64)>) -> Result<Plan, QueryError> {
    let mut resolved = Vec::new();
    let conds = q
        .filters
        .iter()
        .map(|f| compile_filter(t, f, &mut resolved))
        .collect::<Result<Vec<_>, _>>()?;
    let mut note = |asked: &Field, r: &FieldRef| {
        if !resolved.iter().any(|x| x.asked == *asked) {
            resolved.push(Resolved {
                asked: asked.clone(),
                used: r.name.clone(),
                unit: r.unit,
            });
        }
    };
    let field = match &q.field {
        Some(f) => {
            let r = t.resolve(f)?;
            note(f, &r);
            Some(r)
        }
        None => None,
    };
    if q.group_by.len() > 2 {
        return Err(QueryError::BadFilter(
            "最多按两个字段分组 / group by at most two fields".into(),
        ));
    }
    let mut group = Vec::new();
    for g in &q.group_by {
        let r = t.resolve(g)?;
        note(g, &r);
        group.push(r);
    }
    let mut asked = Vec::new();
    for f in &q.show {
        let r = t.resolve(f)?;
        note(f, &r);
        asked.push(r);
    }
    let mut show: Vec<FieldRef> = Vec::new();
    for r in asked.iter().chain(field.iter()).chain(group.iter()) {
        if !show.iter().any(|s| s.id == r.id) {
            show.push(r.clone());
        }
    }
    for c in &conds {
        collect_fields(c, &mut show);
    }
    let mut carry = Vec::new();
    if matches!(q.measure, Measure::Max | Measure::Min | Measure::Rows) {
        key_fields(t, &show, &mut carry);
    }
    let tl = if q.measure == Measure::Timeline {
        timeline_parts(t)
    } else {
        TimelineParts::default()
    };
    Ok(Plan {
        conds,
        window,
        field,
        group,
        show,
        carry,
        resolved,
        time: t.time,
        notable: tl.notable,
        milestone: tl.milestone,
        slow: tl.slow,
        rarity: None,
        request_kind: tl.request_kind,
        kind_detail: tl.kind_detail,
    })
}

/// What a timeline's plan reads besides the query's own conditions.
#[derive(Default)]
struct TimelineParts {
    notable: Vec<Cond>,
    milestone: Option<Cond>,
    slow: Option<Cond>,
    request_kind: Vec<(FieldRef, RequestPart)>,
    kind_detail: Option<FieldRef>,
}

fn timeline_parts(t: &Table<'_>) -> TimelineParts {
    let mut unused = Vec::new();
    TimelineParts {
        notable: notable_conds(t),
        milestone: compile_tag(t, "state_change", &mut unused).ok(),
        slow: compile_tag(t, "slow_query", &mut unused).ok(),
        request_kind: request_kind(t),
        kind_detail: t.resolve(&Field::new("exception")).ok(),
    }
}

/// The fields that say which kind of request an event of a request log is: its status
/// first, then its method, path and upstream where the table has them. None for a table
/// without a status and a method or path.
pub fn request_kind(t: &Table<'_>) -> Vec<(FieldRef, RequestPart)> {
    let Ok(status) = t.resolve(&Field::new("status")) else {
        return Vec::new();
    };
    let mut out = vec![(status, RequestPart::Status)];
    for (role, part) in [
        ("method", RequestPart::Method),
        ("path", RequestPart::Path),
        ("upstream", RequestPart::Upstream),
    ] {
        match t.resolve(&Field::new(role)) {
            Ok(r) if !out.iter().any(|(o, _)| o.id == r.id) => out.push((r, part)),
            _ => {}
        }
    }
    // A status alone (an app's JSON log with a `status` of its own) makes no request.
    if out.len() < 2 {
        return Vec::new();
    }
    out
}

/// The conditions that make an event worth showing first in a timeline: every incident
/// tag the table can evaluate (its format's own and the generic ones, a successful login
/// aside) and a level of WARN or worse.
fn notable_conds(t: &Table<'_>) -> Vec<Cond> {
    let generic = super::tags::generic_tags();
    let quiet = |n: &str| generic.iter().any(|g| g.name == n && !g.notable);
    let mut names: Vec<&str> = t.tags.iter().map(|x| x.name.as_str()).collect();
    for g in generic {
        if !names.contains(&g.name.as_str()) {
            names.push(&g.name);
        }
    }
    let mut unused = Vec::new();
    let warn = Filter::new(
        Some(Field::new("level")),
        FilterOp::Regex,
        Scalar::Text("^(WARN|WARNING|ERROR|CRITICAL|FATAL|ALERT|EMERG|PANIC)$".into()),
    );
    let mut out: Vec<Cond> = names
        .into_iter()
        .filter(|n| !quiet(n))
        .filter_map(|n| compile_tag(t, n, &mut unused).ok())
        .collect();
    out.extend(compile_filter(t, &warn, &mut unused).ok());
    out
}

/// The roles that say whose event a row is: a row of a superlative or a listing carries
/// them, so "这个 client 一共发了多少请求" after the slowest request can name its client.
const KEY_ROLES: [&str; 12] = [
    "client",
    "user",
    "host",
    "path",
    "method",
    "status",
    "upstream",
    "server",
    "pid",
    "thread",
    "logger",
    "exception",
];

fn key_fields(t: &Table<'_>, show: &[FieldRef], carry: &mut Vec<FieldRef>) {
    for role in KEY_ROLES {
        let Some(i) = t
            .fields
            .iter()
            .position(|f| f.roles.iter().any(|r| r == role))
        else {
            continue;
        };
        if !show.iter().chain(carry.iter()).any(|s| s.id == i) {
            carry.push(FieldRef::of(t.fields, i));
        }
    }
}

fn collect_fields(c: &Cond, out: &mut Vec<FieldRef>) {
    let f = match c {
        Cond::Num { f, .. } | Cond::Range { f, .. } | Cond::Text { f, .. } => Some(f),
        Cond::Contains { f, .. } | Cond::ContainsCi { f, .. } | Cond::Regex { f, .. } => f.as_ref(),
        Cond::All(cs) | Cond::Any(cs) => {
            for c in cs {
                collect_fields(c, out);
            }
            None
        }
        Cond::Not { inner, .. } => {
            collect_fields(inner, out);
            None
        }
    };
    if let Some(f) = f {
        if !out.iter().any(|s| s.id == f.id) {
            out.push(f.clone());
        }
    }
}

impl Plan {
    /// Whether a row passes the window and every filter.
    pub fn passes(&self, row: &mut dyn RowAccess) -> bool {
        if let Some((from, to)) = self.window {
            let Some(t) = row.time() else { return false };
            let s = t.key.div_euclid(1_000_000);
            if s < from || s > to {
                return false;
            }
        }
        self.conds.iter().all(|c| c.holds(row))
    }

    /// The time of a row past a closed window's end that meets the query's conditions (a
    /// timeline follows its notable kinds there).
    pub fn past_window(&self, row: &mut dyn RowAccess) -> Option<Ts> {
        let (_, to) = self.window?;
        if to == i64::MAX {
            return None;
        }
        let t = row.time()?;
        (t.key.div_euclid(1_000_000) > to && self.conds.iter().all(|c| c.holds(row))).then_some(t)
    }
}
