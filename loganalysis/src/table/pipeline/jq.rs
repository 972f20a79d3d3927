//! The jq form of a query over JSON lines (unparsable lines read as empty objects, so
//! field filters skip them and whole-line filters still see them).

use llmops_common::query::Measure;

use super::{all_conds, cmp_op, level_words, num_lit, shq, top_tail, PipeCtx};
use crate::table::def::{LevelFormat, Origin};
use crate::table::plan::{Cond, FieldRef};

fn jq_path(key: &str) -> String {
    if key.contains('.') {
        format!("dig({})", serde_json::to_string(key).unwrap_or_default())
    } else {
        format!(".[{}]", serde_json::to_string(key).unwrap_or_default())
    }
}

const JQ_DEFS: &str = "def num: if type == \"number\" then . elif type == \"string\" and test(\"^[-+]?([0-9]+(\\\\.[0-9]*)? ?(ns|us|µs|μs|ms|s|m|h))+$\") then ([scan(\"([0-9]+(?:\\\\.[0-9]*)?) ?(ns|us|µs|μs|ms|s|m|h)\") | (.[0] | tonumber) * ({\"ns\": 1e-9, \"us\": 1e-6, \"µs\": 1e-6, \"μs\": 1e-6, \"ms\": 0.001, \"s\": 1, \"m\": 60, \"h\": 3600}[.[1]])] | add) * (if startswith(\"-\") then -1 else 1 end) elif type == \"string\" then (tonumber? // null) else null end; def txt: if type == \"string\" then . elif . == null then null else tojson end; def dig($k): if type == \"array\" then (first(.[] | objects | dig($k) | select(. != null)) // null) elif type != \"object\" then null elif has($k) then .[$k] else first(($k | indices(\".\")[]) as $i | .[$k[0:$i]] | select(type == \"object\" or type == \"array\") | dig($k[$i+1:]) | select(. != null)) // null end;";

fn json_str(t: &str) -> String {
    serde_json::to_string(t).unwrap_or_default()
}

/// A field's value as text in jq (`$j` is the event's object); level fields read as the
/// engine's canonical level names.
fn field(c: &PipeCtx<'_>, f: &FieldRef) -> String {
    let spec = &c.schema.fields[f.id];
    // A role's keys, the first an event has.
    let path = match &spec.origin {
        Origin::AnyKey(keys) => {
            let alts: Vec<String> = keys.iter().map(|k| jq_path(k)).collect();
            format!("({})", alts.join(" // "))
        }
        _ => jq_path(&spec.name),
    };
    if super::super::event::is_span(spec) {
        // A negative span of time is none, as the engine reads it.
        return format!(
            "($j | {path} | txt | if . != null and test(\"^\\\\s*-[0-9]\") then null else . end)"
        );
    }
    if c.schema.level != Some(f.id) {
        return format!("($j | {path} | txt)");
    }
    // CLEF leaves its level out at Information.
    let base = if spec.origin == Origin::Key(crate::table::event::CLEF_LEVEL.into()) {
        format!("($j | {path} // \"INFO\" | txt)")
    } else {
        format!("($j | {path} | txt)")
    };
    let map: Vec<String> = level_words()
        .map(|(w, l)| format!("\"{w}\":\"{l}\""))
        .chain(
            c.fmt
                .level_map
                .iter()
                .map(|(k, v)| format!("{}:{}", json_str(k), json_str(v))),
        )
        .collect();
    format!(
        "({base} as $r | ({{{}}}[($r // \"\") | ascii_upcase] // $r))",
        map.join(",")
    )
}

/// A field, or the whole line (`$l`) for filters without one.
fn haystack(c: &PipeCtx<'_>, f: &Option<FieldRef>) -> String {
    match f {
        Some(f) => format!("({} // \"\")", field(c, f)),
        None => "$l".to_string(),
    }
}

fn negate(e: String, neg: bool) -> String {
    if neg {
        format!("({e} | not)")
    } else {
        e
    }
}

/// One filter as a jq condition.
fn jq_cond(c: &PipeCtx<'_>, cond: &Cond) -> Result<String, String> {
    Ok(match cond {
        Cond::Num { f, op, value } => {
            let o = cmp_op(*op).ok_or("unsupported comparison")?;
            format!(
                "({} | num | . != null and . {o} {})",
                field(c, f),
                num_lit(*value)
            )
        }
        Cond::Range { f, lo, hi } => format!(
            "({} | num | . != null and . >= {} and . <= {})",
            field(c, f),
            num_lit(*lo),
            num_lit(*hi)
        ),
        Cond::Text { f, value, cs, neg } => {
            let v = String::from_utf8_lossy(value).into_owned();
            let e = if *cs {
                format!("({} == {})", field(c, f), json_str(&v))
            } else {
                format!(
                    "(({} // \"\" | ascii_downcase) == {})",
                    field(c, f),
                    json_str(&v.to_ascii_lowercase())
                )
            };
            // `!=` holds of rows that have the field, as in the engine.
            if *neg {
                format!("({} != null and ({e} | not))", field(c, f))
            } else {
                e
            }
        }
        Cond::Contains { f, text, neg, .. } | Cond::ContainsCi { f, text, neg, .. } => {
            let flags = if matches!(cond, Cond::ContainsCi { .. }) {
                "i"
            } else {
                ""
            };
            let e = format!(
                "({} | test({}; \"{flags}\"))",
                haystack(c, f),
                json_str(&regex::escape(text))
            );
            negate(e, *neg)
        }
        Cond::Regex { f, re } => {
            let src = re.as_str();
            let (src, flags) = match src.strip_prefix("(?i)") {
                Some(r) => (r, "i"),
                None => (src, ""),
            };
            format!(
                "({} | test({}; \"{flags}\"))",
                haystack(c, f),
                json_str(src)
            )
        }
        Cond::All(cs) | Cond::Any(cs) => {
            let join = if matches!(cond, Cond::All(_)) {
                " and "
            } else {
                " or "
            };
            let parts = cs
                .iter()
                .map(|x| jq_cond(c, x))
                .collect::<Result<Vec<_>, _>>()?;
            format!("({})", parts.join(join))
        }
        Cond::Not { f, inner } => {
            let e = negate(jq_cond(c, inner)?, true);
            match f {
                Some(f) => format!("({} != null and {e})", field(c, f)),
                None => e,
            }
        }
    })
}

/// A field as a group or distinct key (numbers by value).
fn key(c: &PipeCtx<'_>, f: &FieldRef) -> String {
    if f.is_numeric() {
        format!(
            "({} | num | if . == null then null else tostring end)",
            field(c, f)
        )
    } else if f.path_key {
        format!(
            "({} | if type == \"string\" then split(\"?\")[0] else . end)",
            field(c, f)
        )
    } else {
        field(c, f)
    }
}

/// An event's object: the whole text, or its first line when the event runs over several
/// (as the engine reads it); no object reads as an empty one.
const JQ_OBJECT: &str =
    "(($l | fromjson? | objects) // ($l | split(\"\\n\")[0] | fromjson? | objects) // {})";

/// The stream of events' texts (read with `-n`): one per non-blank line, or the format's
/// multi-line rules, as `perl_reader` reads them.
fn jq_reader(c: &PipeCtx<'_>) -> Result<String, String> {
    let lines = "(inputs | rtrimstr(\"\\r\"))";
    let Some(ml) = &c.fmt.multiline else {
        return Ok(format!("{lines} | select(test(\"\\\\S\"))"));
    };
    if ml.header.is_some() {
        return Err("the format's multi-line header rule has no jq equivalent shown".into());
    }
    let test = |r: &Option<regex::Regex>, none: &str| {
        let src = r.as_ref().map_or(none, |r| r.as_str());
        format!("test({})", json_str(src))
    };
    let (start, cont, own) = (
        test(&ml.start, "(?!)"),
        test(&ml.cont, ""),
        test(&ml.own_record, "(?!)"),
    );
    // A `preamble` format's lines before the first start are no events.
    let single = if ml.preamble {
        "(if .st then $x else null end)"
    } else {
        "$x"
    };
    Ok(format!(
        "foreach ({lines}, null) as $x ({{e: null, st: false, out: []}}; \
         if $x == null then {{e: null, st: .st, out: [.e]}} \
         elif ($x | {start}) then {{e: $x, st: true, out: [.e]}} \
         elif .e != null and ($x | {cont}) and ($x | {own} | not) \
         then {{e: (.e + \"\\n\" + $x), st: .st, out: []}} \
         else {{e: null, st: .st, out: [.e, {single}]}} end; \
         .out[] | select(. != null and test(\"\\\\S\")))"
    ))
}

pub(super) fn jq(c: &PipeCtx<'_>) -> Result<String, String> {
    if c.window.is_some() || c.q.measure == Measure::Buckets {
        return Err("jq has no parser for the log's time forms: no pipeline for time windows or buckets over JSON lines".into());
    }
    if c.fmt.level_format != LevelFormat::Word {
        return Err("the level is a syslog priority number: no one-line jq equivalent".into());
    }
    let conds = all_conds(c)
        .into_iter()
        .map(|x| jq_cond(c, x))
        .collect::<Result<Vec<_>, _>>()?;
    let sel = if conds.is_empty() {
        String::new()
    } else {
        format!(" | select({})", conds.join(" and "))
    };
    let event = format!("({}) as $l | {JQ_OBJECT} as $j{sel}", jq_reader(c)?);
    let head = format!("{JQ_DEFS} {event}");
    let file = shq(c.file);
    let m = c.q.measure;
    if !c.plan.group.is_empty() {
        if m != Measure::Count {
            return Err("grouped statistics: no one-line jq equivalent shown".into());
        }
        let keys: Vec<String> = c.plan.group.iter().map(|f| key(c, f)).collect();
        let prog = format!(
            "{head} | [{}] | select(all(. != null)) | join(\" \")",
            keys.join(", ")
        );
        return Ok(format!(
            "jq -nrR {} {file} | {}",
            shq(&prog),
            top_tail(c.q.limit())
        ));
    }
    match m {
        Measure::Count => Ok(format!(
            "jq -nR {} {file} | wc -l",
            shq(&format!("{head} | 1"))
        )),
        Measure::CountDistinct => {
            let f = c.plan.field.as_ref().ok_or("no field")?;
            let prog = format!("{head} | {} | select(. != null)", key(c, f));
            Ok(format!(
                "jq -nrR {} {file} | LC_ALL=C sort -u | wc -l",
                shq(&prog)
            ))
        }
        m if m.is_stat() => {
            let f = c.plan.field.as_ref().ok_or("no field")?;
            let agg = match m {
                Measure::Min => "min".to_string(),
                Measure::Max => "max".to_string(),
                Measure::Sum => "add".to_string(),
                Measure::Mean => "add / length".to_string(),
                m => {
                    let r = m.rank().map_or(5000, |r| r.hundredths());
                    format!("sort | .[((length * {r} + 9999) / 10000 | floor) - 1]")
                }
            };
            let values = format!("[{event} | {} | num | select(. != null)]", field(c, f));
            Ok(format!(
                "jq -nR {} {file}",
                shq(&format!("{JQ_DEFS} {values} | {agg}"))
            ))
        }
        _ => Err(format!("no jq equivalent shown for `{m}`")),
    }
}
