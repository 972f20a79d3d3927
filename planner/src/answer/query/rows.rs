//! Rows listed as the answer: one event (the first, the last, the slowest) leads with its
//! time or with the values the question asked of it; several are counted.

use llmops_common::query::{Field, QueryResult, Row, Source};

use super::row_line;
use crate::text::Lang;

pub(super) fn rows_lead(
    r: &QueryResult,
    what: &str,
    rows: &[Row],
    total: u64,
    part: &str,
    lang: Lang,
) -> String {
    // One event (the first, the last, the slowest) leads with its time; the line shows
    // the rest.
    let by_field = r.query.field.is_some();
    match (rows.first(), by_field && rows.len() == 1) {
        (None, _) => match lang {
            Lang::Zh => format!("{what} —— 没有匹配的{}{part}。", lang.pick("事件", "")),
            Lang::En => format!("{what}: nothing matched{part}."),
        },
        (Some(row), true) if r.query.source != Source::Log => {
            let head = system_row_head(r, row);
            match lang {
                Lang::Zh => format!(
                    "{what} —— {head}（共 {total} 行）{part}。\n{}",
                    row_line(row, lang, true)
                ),
                Lang::En => format!(
                    "{what}: {head} ({total} rows in all){part}.\n{}",
                    row_line(row, lang, true)
                ),
            }
        }
        (Some(row), true) => {
            let when = row.time.clone().unwrap_or_else(|| "?".into());
            // The values asked of the event lead, its time beside them; else its time does.
            let values = shown(r, row).join(", ");
            let (head, at) = match values.is_empty() {
                true => (format!("**{when}**"), String::new()),
                false => (
                    values,
                    lang.pick(
                        &format!("该事件时间 {when}，"),
                        &format!("the event at {when}; "),
                    )
                    .to_string(),
                ),
            };
            match lang {
                Lang::Zh => format!(
                    "{what} —— {head}（{at}共 {total} 条匹配）{part}。\n{}",
                    row_line(row, lang, true)
                ),
                Lang::En => format!(
                    "{what}: {head} ({at}{total} matching in all){part}.\n{}",
                    row_line(row, lang, true)
                ),
            }
        }
        // Several rows ranked by a field ("the top 3 slowest"): the first one's value leads;
        // how many matched is said beside it.
        (Some(row), false) if by_field && r.query.source != Source::Log => {
            let head = system_row_head(r, row);
            match lang {
                Lang::Zh => format!("{what} —— 第一个是 {head}（共 {total} 行）{part}："),
                Lang::En => format!("{what}: the first is {head} ({total} rows in all){part}:"),
            }
        }
        (Some(row), false) if by_field => {
            let when = row.time.clone().unwrap_or_else(|| "?".into());
            // Ranked by time, the time is the value; else the value, then its time.
            let (head_zh, head_en) = match first_value(r, row) {
                Some(v) => (format!("{v}，时间 {when}"), format!("{v}, at {when}")),
                None => (format!("**{when}**"), format!("**{when}**")),
            };
            match lang {
                Lang::Zh => format!("{what} —— 第一条 {head_zh}（共 {total} 条匹配）{part}："),
                Lang::En => {
                    format!("{what}: the first is {head_en} ({total} matching in all){part}:")
                }
            }
        }
        (Some(_), false) => match lang {
            Lang::Zh => format!("{what} —— 共 **{total}** 条{part}："),
            Lang::En => format!("{what}: **{total}**{part}:"),
        },
    }
}

/// A system table's row as an answer leads with it: its name, then the figure it is ranked by.
fn system_row_head(r: &QueryResult, row: &Row) -> String {
    [row_name(r.query.source, row), first_value(r, row)]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a system table's row is called: a process by its name and pid, a filesystem by its
/// mount point, a unit by its name, a socket by its process and local port.
fn row_name(source: Source, row: &Row) -> Option<String> {
    let get = |name: &str| {
        row.fields
            .iter()
            .find(|v| v.name == name && !v.value.is_empty())
            .map(|v| v.value.as_str())
    };
    match source {
        Source::Processes => Some(format!("**{}** (pid {})", get("name")?, get("pid")?)),
        Source::Sockets => Some(format!("**{}** (:{})", get("process")?, get("local_port")?)),
        Source::Mounts => Some(format!("**{}**", get("mount")?)),
        Source::Units => Some(format!("**{}**", get("unit")?)),
        Source::Log => None,
    }
}

/// The value of the field the rows are ranked by in `row`, as `name = **v**`.
fn first_value(r: &QueryResult, row: &Row) -> Option<String> {
    let f = r.query.field.as_ref().filter(|f| f.as_str() != "time")?;
    let (used, v) = value_of(r, row, f);
    v.map(|v| format!("{used} = **{v}**"))
}

/// A field asked of a row, by the name the engine read it as, and its value in the row.
fn value_of<'a>(r: &'a QueryResult, row: &'a Row, f: &'a Field) -> (&'a str, Option<&'a str>) {
    let used = r
        .resolved
        .iter()
        .find(|x| x.asked == *f)
        .map_or(f.as_str(), |x| x.used.as_str());
    let v = row.fields.iter().find(|v| v.name == used);
    (used, v.map(|v| v.value.as_str()))
}

/// The values of the fields the query asks each row to show (`show`), as `name = **v**`;
/// a field the event lacks says so.
pub(super) fn shown(r: &QueryResult, row: &Row) -> Vec<String> {
    r.query
        .show
        .iter()
        .map(|f| match value_of(r, row, f) {
            (used, Some(v)) => format!("{used} = **{v}**"),
            (used, None) => format!("{used} = –"),
        })
        .collect()
}
