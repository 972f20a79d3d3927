//! An equivalent shell pipeline for a query, with the file name the user knows: `grep -c`
//! for plain text counts, `awk` on the columns of column formats, `jq` for JSON lines,
//! `perl` with the format's own regex otherwise. `Err(why)` where no honest one exists.

use llmops_common::query::{FilterOp, Measure, Query};

mod awk;
mod jq;
mod perl;

use super::def::{Format, ParseKind};
use super::event::Schema;
use super::plan::{Cond, Plan};

/// The inputs of a pipeline.
pub struct PipeCtx<'a> {
    pub q: &'a Query,
    pub fmt: &'a Format,
    pub schema: &'a Schema,
    pub plan: &'a Plan,
    pub file: &'a str,
    /// Window as `YYYY-MM-DDTHH:MM:SS` strings (year 0000 for syslog times).
    pub window: Option<(String, String)>,
    /// Bucket width in seconds, for `buckets`.
    pub bucket: Option<u64>,
    /// Lines of the file the format did not parse (awk columns are exact only without).
    pub unparsed: u64,
}

/// Single-quotes `s` for sh.
pub fn shq(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._/-+=:,@%".contains(&b))
    {
        return s.to_string();
    }
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The pipeline, or why there is none.
pub fn pipeline(c: &PipeCtx<'_>) -> Result<String, String> {
    let templated = c.plan.show.iter().any(|f| {
        matches!(
            c.schema.fields.get(f.id).map(|s| &s.origin),
            Some(super::def::Origin::Template(_))
        )
    });
    if templated {
        return Err("消息模板（数字、ID 已归一）没有等价的 shell 管道 / message templates (numbers and ids masked) have no shell equivalent".into());
    }
    if let Some(p) = grep(c) {
        return Ok(p);
    }
    if c.schema.inner.is_some() && reads_inner(c) {
        return Err("容器日志 `log` 内的字段没有一行的 jq 等价命令 / fields of the line inside the envelope's `log` have no one-line jq equivalent".into());
    }
    if c.fmt.kind == ParseKind::Json {
        return jq::jq(c);
    }
    if let Some(p) = awk::awk(c) {
        return Ok(p);
    }
    perl::perl(c)
}

/// Whether the query reads a field of an envelope's inner line (or the level, which is
/// the inner line's).
fn reads_inner(c: &PipeCtx<'_>) -> bool {
    let inner = |id: usize| {
        matches!(
            c.schema.fields.get(id).map(|f| &f.origin),
            Some(super::def::Origin::Inner(_) | super::def::Origin::Template(_))
        )
    };
    fn reads(x: &Cond, inner: &dyn Fn(usize) -> bool) -> bool {
        match x {
            Cond::Num { f, .. } | Cond::Range { f, .. } | Cond::Text { f, .. } => inner(f.id),
            Cond::Contains { f, .. } | Cond::ContainsCi { f, .. } | Cond::Regex { f, .. } => {
                f.as_ref().is_some_and(|f| inner(f.id))
            }
            Cond::Not { f, inner: c } => f.as_ref().is_some_and(|f| inner(f.id)) || reads(c, inner),
            Cond::All(_) | Cond::Any(_) => true,
        }
    }
    let conds = all_conds(c).into_iter().any(|x| reads(x, &inner));
    conds
        || c.plan.group.iter().any(|f| inner(f.id))
        || c.plan.show.iter().any(|f| inner(f.id))
        || c.plan.field.as_ref().is_some_and(|f| inner(f.id))
}

pub(super) fn all_conds<'a>(c: &'a PipeCtx<'a>) -> Vec<&'a Cond> {
    fn walk<'a>(c: &'a Cond, out: &mut Vec<&'a Cond>) {
        match c {
            Cond::All(cs) => cs.iter().for_each(|c| walk(c, out)),
            c => out.push(c),
        }
    }
    let mut out = Vec::new();
    for c in &c.plan.conds {
        walk(c, &mut out);
    }
    out
}

/// The shell tail that turns one key per line into the top groups as `uniq -c` shows them.
pub(super) fn top_tail(limit: usize) -> String {
    format!("LC_ALL=C sort | uniq -c | LC_ALL=C sort -k1,1nr -k2 | head -n {limit}")
}

fn grep(c: &PipeCtx<'_>) -> Option<String> {
    if c.q.measure != Measure::Count
        || c.window.is_some()
        || !c.q.group_by.is_empty()
        || c.fmt.is_multiline()
        || c.fmt.is_stateful()
    {
        return None;
    }
    let conds = all_conds(c);
    let mut stages = Vec::new();
    for cond in &conds {
        let (flags, pat, neg) = match cond {
            Cond::Contains {
                f: None, text, neg, ..
            } => ("-F", text.clone(), *neg),
            Cond::ContainsCi {
                f: None, text, neg, ..
            } => ("-F -i", text.clone(), *neg),
            Cond::Regex { f: None, re } => ("-P", re.as_str().to_string(), false),
            Cond::Not { f: None, inner } => match inner.as_ref() {
                Cond::Regex { f: None, re } => ("-P", re.as_str().to_string(), true),
                _ => return None,
            },
            _ => return None,
        };
        stages.push((flags, pat, neg));
    }
    let file = shq(c.file);
    // Blank lines are no events: they are left out first.
    if stages.iter().all(|s| s.2) {
        stages.insert(0, ("-E", "[^[:space:]]".to_string(), false));
    }
    let n = stages.len();
    let parts: Vec<String> = stages
        .into_iter()
        .enumerate()
        .map(|(i, (flags, pat, neg))| {
            let v = if neg { " -v" } else { "" };
            let count = if i + 1 == n { " -c" } else { "" };
            let src = if i == 0 {
                format!(" {file}")
            } else {
                String::new()
            };
            format!("grep{count}{v} {flags} -e {}{src}", shq(&pat))
        })
        .collect();
    Some(parts.join(" | "))
}

pub(super) fn num_lit(v: f64) -> String {
    super::agg::fmt_num(v)
}

/// The canonical level names the engine shows, for a level field in jq and Perl: the
/// level words, then pino's and bunyan's numeric scale.
pub(super) fn level_words() -> impl Iterator<Item = (&'static str, &'static str)> {
    const PINO: [(&str, &str); 6] = [
        ("10", "TRACE"),
        ("20", "DEBUG"),
        ("30", "INFO"),
        ("40", "WARN"),
        ("50", "ERROR"),
        ("60", "FATAL"),
    ];
    crate::level::words().chain(PINO)
}

/// The comparison operator of a numeric filter, as awk, jq and Perl write it.
pub(super) fn cmp_op(op: FilterOp) -> Option<&'static str> {
    Some(match op {
        FilterOp::Eq => "==",
        FilterOp::Ne => "!=",
        FilterOp::Lt => "<",
        FilterOp::Le => "<=",
        FilterOp::Gt => ">",
        FilterOp::Ge => ">=",
        _ => return None,
    })
}
