//! The awk form of a query: the columns of a column format (only when every line of the
//! file parsed, since columns cannot tell a line that does not fit).

use llmops_common::query::Measure;

use super::{all_conds, cmp_op, num_lit, shq, top_tail, PipeCtx};
use crate::table::def::{FieldSpec, Format, Origin, Parser};
use crate::table::plan::{Cond, FieldRef};

/// awk column of each field, for single-line pattern formats: `$n` for a field that is a
/// whole whitespace-separated word, or the definition's `awk` expression.
fn awk_expr(fmt: &Format, spec: &FieldSpec) -> Option<String> {
    if let Some(a) = &spec.awk {
        return Some(a.clone());
    }
    let Parser::Pattern(p) = &fmt.parser else {
        return None;
    };
    let Origin::Capture(target) = spec.origin else {
        return None;
    };
    let src = p.source();
    let mut col = 1usize;
    let mut at_start = true;
    let mut i = 0;
    let b = src.as_bytes();
    let mut field = 0usize;
    while i < b.len() {
        if b[i] == b'$' {
            let mut j = i + 1;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                j += 1;
            }
            let words = fmt
                .fields
                .iter()
                .find(|f| f.name == src[i + 1..j])
                .map_or(1, |f| f.words);
            let ends_word = j == b.len() || b[j].is_ascii_whitespace();
            if field == target {
                return (at_start && ends_word && words == 1).then(|| format!("${col}"));
            }
            if words == 0 {
                return None;
            }
            col += usize::from(words) - 1;
            at_start = false;
            field += 1;
            i = j;
        } else {
            if b[i].is_ascii_whitespace() {
                if !at_start {
                    col += 1;
                }
                at_start = true;
            } else {
                at_start = false;
            }
            i += 1;
        }
    }
    None
}

fn awk_str(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', r"\\").replace('"', "\\\""))
}

/// The awk expression of a resolved field, when it has one.
fn col(c: &PipeCtx<'_>, f: &FieldRef) -> Option<String> {
    let spec = c.schema.fields.get(f.id)?;
    // A negative span of time is none to the engine: Perl says so, not awk's `+0`.
    if c.schema.level == Some(f.id) || super::super::event::is_span(spec) {
        return None;
    }
    awk_expr(c.fmt, spec)
}

/// One filter as an awk condition.
fn awk_cond(c: &PipeCtx<'_>, cond: &Cond) -> Option<String> {
    Some(match cond {
        Cond::Num { f, op, value } => {
            let x = col(c, f)?;
            let o = cmp_op(*op)?;
            format!("{x} != \"-\" && {x}+0 {o} {}", num_lit(*value))
        }
        Cond::Range { f, lo, hi } => {
            let x = col(c, f)?;
            format!(
                "{x} != \"-\" && {x}+0 >= {} && {x}+0 <= {}",
                num_lit(*lo),
                num_lit(*hi)
            )
        }
        // Which values are none to the engine is the format's: `!=` is Perl's to check.
        Cond::Text { neg: true, .. } => return None,
        Cond::Text { f, value, cs, neg } => {
            let x = col(c, f)?;
            let v = String::from_utf8_lossy(value).into_owned();
            let (l, r) = if *cs {
                (x, awk_str(&v))
            } else {
                (format!("tolower({x})"), awk_str(&v.to_lowercase()))
            };
            format!("{l} {} {r}", if *neg { "!=" } else { "==" })
        }
        Cond::Contains { f, text, neg, .. } | Cond::ContainsCi { f, text, neg, .. } => {
            let x = match f {
                Some(f) => col(c, f)?,
                None => "$0".into(),
            };
            let (h, n) = if matches!(cond, Cond::ContainsCi { .. }) {
                (format!("tolower({x})"), awk_str(&text.to_lowercase()))
            } else {
                (x, awk_str(text))
            };
            format!("index({h}, {n}) {} 0", if *neg { "==" } else { ">" })
        }
        Cond::Not { f, inner } => {
            let e = format!("!({})", awk_cond(c, inner)?);
            match f {
                Some(f) => format!("{} != \"-\" && {e}", col(c, f)?),
                None => e,
            }
        }
        _ => return None,
    })
}

/// A field as awk prints it (numbers by value).
fn value_of(c: &PipeCtx<'_>, f: &FieldRef) -> Option<String> {
    let x = col(c, f)?;
    Some(if f.is_numeric() { format!("{x}+0") } else { x })
}

/// `cond && extra`, either may be empty.
fn and(cond: &str, extra: &str) -> String {
    match (cond.is_empty(), extra.is_empty()) {
        (true, _) => extra.to_string(),
        (false, true) => cond.to_string(),
        (false, false) => format!("{cond} && {extra}"),
    }
}

/// A statistic of a column: max, min, sum or mean.
fn awk_stat(c: &PipeCtx<'_>, cond: &str, m: Measure) -> Option<String> {
    let f = c.plan.field.as_ref()?;
    let x = col(c, f)?;
    let guard = and(cond, &format!("{x} != \"-\""));
    let body = match m {
        Measure::Max => "v = X + 0; if (n == 0 || v > m) m = v; n++",
        Measure::Min => "v = X + 0; if (n == 0 || v < m) m = v; n++",
        _ => "s += X; n++",
    }
    .replace('X', &x);
    let end = match m {
        Measure::Max | Measure::Min => "if (n) printf \"%.6f\\n\", m",
        Measure::Sum => "printf \"%.6f\\n\", s",
        _ => "if (n) printf \"%.6f\\n\", s / n",
    };
    Some(format!(
        "awk {} {}",
        shq(&format!("{guard} {{{body}}} END {{{end}}}")),
        shq(c.file)
    ))
}

pub(super) fn awk(c: &PipeCtx<'_>) -> Option<String> {
    // Columns say nothing about whether a line fits the format: only when every line did.
    if c.window.is_some()
        || c.unparsed > 0
        || c.fmt.is_multiline()
        || !matches!(c.fmt.parser, Parser::Pattern(_))
    {
        return None;
    }
    let conds = all_conds(c)
        .into_iter()
        .map(|x| awk_cond(c, x))
        .collect::<Option<Vec<_>>>()?;
    let cond = conds.join(" && ");
    let file = shq(c.file);
    let m = c.q.measure;
    if !c.plan.group.is_empty() {
        if m != Measure::Count {
            return None;
        }
        let keys = c
            .plan
            .group
            .iter()
            .map(|f| value_of(c, f))
            .collect::<Option<Vec<_>>>()?
            .join(", ");
        let prog = format!("{} {{print {keys}}}", cond);
        return Some(format!(
            "awk {} {file} | {}",
            shq(prog.trim()),
            top_tail(c.q.limit())
        ));
    }
    match m {
        Measure::Count if cond.is_empty() => Some(format!("awk 'END {{print NR}}' {file}")),
        Measure::Count => Some(format!("awk {} {file} | wc -l", shq(&cond))),
        Measure::CountDistinct => {
            let f = c.plan.field.as_ref()?;
            let prog = format!("{cond} {{print {}}}", value_of(c, f)?);
            Some(format!(
                "awk {} {file} | LC_ALL=C sort -u | wc -l",
                shq(prog.trim())
            ))
        }
        Measure::Min | Measure::Max | Measure::Sum | Measure::Mean => awk_stat(c, &cond, m),
        _ => None,
    }
}
