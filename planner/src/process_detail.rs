//! What one process is doing, asked by pid ("进程 4242 在做什么", "what is process 4242
//! doing?"): its row in the processes table (command line, user, state, parent, threads,
//! start, %CPU, RSS), the sockets it holds, and its systemd unit's recent log lines.

use llmops_common::query::{
    Field, Filter, FilterOp, Measure, Query, QueryArgs, QueryValue, Row, Scalar, Source, Unit,
};
use llmops_tooldata::{CommandArgs, ToolArgs};

use super::text::{human_size, Lang};
use super::StepRecord;

/// The pid a processes query pins with one `pid = N` condition, when it asks nothing more
/// specific than the rows.
pub fn one_pid(q: &Query) -> Option<u64> {
    if q.source != Source::Processes
        || !q.group_by.is_empty()
        || !matches!(q.measure, Measure::Rows | Measure::Count)
    {
        return None;
    }
    match q.filters.as_slice() {
        [f] if f.op == FilterOp::Eq && f.field.as_ref().is_some_and(|x| x.as_str() == "pid") => {
            match f.value {
                Scalar::Number(n) if n >= 1.0 && n.fract() == 0.0 => Some(n as u64),
                _ => None,
            }
        }
        _ => None,
    }
}

fn rows_of(step: &StepRecord) -> &[Row] {
    match step.data.as_query().map(|r| &r.value) {
        Some(QueryValue::Rows { rows, .. }) => rows,
        _ => &[],
    }
}

fn field<'a>(row: &'a Row, name: &str) -> Option<&'a str> {
    row.fields
        .iter()
        .find(|f| f.name == name)
        .map(|f| f.value.as_str())
        .filter(|v| !v.is_empty())
}

/// The next call: the process, then its sockets, then its unit's journal.
pub fn next_call(pid: u64, own: &[StepRecord]) -> Option<ToolArgs> {
    let by_pid = |source: Source, limit: u32| {
        let query = Query {
            source,
            measure: Measure::Rows,
            limit: Some(limit),
            filters: vec![Filter::new(
                Some(Field::new("pid")),
                FilterOp::Eq,
                Scalar::Number(pid as f64),
            )],
            ..Query::default()
        };
        ToolArgs::SystemQuery(QueryArgs {
            query,
            soft: Vec::new(),
            or_else: Vec::new(),
            share_of: None,
        })
    };
    match own {
        [] => Some(by_pid(Source::Processes, 1)),
        [p] if p.ok && !rows_of(p).is_empty() => Some(by_pid(Source::Sockets, 50)),
        [p, _] => {
            let unit = rows_of(p)
                .first()
                .and_then(|r| field(r, "unit").map(str::to_string))?;
            unit.ends_with(".service").then(|| {
                let args = ["-u", &unit, "-n", "20", "--no-pager"].map(String::from);
                ToolArgs::Command(CommandArgs::new("journalctl", args.to_vec()))
            })
        }
        _ => None,
    }
}

/// The process's figures in one paragraph.
fn figures(pid: u64, row: &Row, lang: Lang) -> String {
    let get = |n: &str| field(row, n).unwrap_or("?").to_string();
    let rss = field(row, "rss_bytes")
        .and_then(|v| v.parse::<f64>().ok())
        .map(|b| human_size(b as u64))
        .unwrap_or_else(|| "?".into());
    // As the answer of "how long has X been running" writes it: seconds, minutes and, from
    // an hour on, `ps -o etime`'s `[DD-]hh:mm:ss`.
    let running = field(row, "elapsed_seconds")
        .and_then(|v| v.parse::<f64>().ok())
        .map(|s| super::answer::query::with_unit(s, Unit::S));
    match lang {
        Lang::Zh => format!(
            "进程 **{pid}**（{}）：命令行 `{}`；用户 {}；状态 {}；父进程 {}；线程 {}；启动于 {}{}；CPU {}%；内存 RSS {}（{}%）。",
            get("name"), get("command"), get("user"), get("state"), get("ppid"),
            get("threads"), get("start_time"), running.map(|r| format!("（已运行 {r}）")).unwrap_or_default(),
            get("cpu_percent"), rss, get("mem_percent")
        ),
        Lang::En => format!(
            "Process **{pid}** ({}): command line `{}`; user {}; state {}; parent {}; {} threads; started {}{}; CPU {}%; RSS {} ({}%).",
            get("name"), get("command"), get("user"), get("state"), get("ppid"),
            get("threads"), get("start_time"), running.map(|r| format!(" (running for {r})")).unwrap_or_default(),
            get("cpu_percent"), rss, get("mem_percent")
        ),
    }
}

fn sockets(rows: &[Row], lang: Lang) -> String {
    if rows.is_empty() {
        return lang
            .pick("没有打开的网络套接字。", "It holds no network sockets.")
            .to_string();
    }
    let lines: Vec<String> = rows
        .iter()
        .take(20)
        .map(|r| {
            let g = |n: &str| field(r, n).unwrap_or("").to_string();
            format!(
                "- {} {} {}:{} → {}:{}",
                g("proto"),
                g("state"),
                g("local"),
                g("local_port"),
                g("peer"),
                g("peer_port")
            )
        })
        .collect();
    format!(
        "{} ({}):\n{}",
        lang.pick("它的套接字", "Its sockets"),
        rows.len(),
        lines.join("\n")
    )
}

/// The answer from the steps taken.
pub fn answer(pid: u64, own: &[StepRecord], lang: Lang) -> String {
    let Some(first) = own.first() else {
        return String::new();
    };
    if !first.ok {
        return super::answer::failure(first, lang);
    }
    let Some(row) = rows_of(first).first() else {
        return match lang {
            Lang::Zh => format!("没有 PID 为 {pid} 的进程（它可能已经退出）。"),
            Lang::En => format!("No process has pid {pid} (it may have exited)."),
        };
    };
    let mut parts = vec![figures(pid, row, lang)];
    if let Some(s) = own.get(1).filter(|s| s.ok) {
        parts.push(sockets(rows_of(s), lang));
    }
    if let (Some(unit), Some(j)) = (field(row, "unit"), own.get(2)) {
        parts.push(match lang {
            Lang::Zh => format!("它属于 systemd 单元 {unit}，最近的日志："),
            Lang::En => format!("It runs in the systemd unit {unit}; its latest log lines:"),
        });
        parts.push(super::answer::command(j, lang));
    }
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The detail's figures are the row's: how long it has run, also as `ps -o etime`
    /// writes it, and the RSS in MiB.
    #[test]
    fn the_figures_are_the_rows_with_the_time_it_has_run() {
        let row: Row = serde_json::from_value(serde_json::json!({
            "text": "", "fields": [
                {"name": "name", "value": "etl_worker"},
                {"name": "command", "value": "/usr/bin/etl_worker --queue q1"},
                {"name": "user", "value": "etl"},
                {"name": "state", "value": "S"},
                {"name": "ppid", "value": "1"},
                {"name": "threads", "value": "7"},
                {"name": "start_time", "value": "2031-05-09T01:00:00"},
                {"name": "elapsed_seconds", "value": "93784"},
                {"name": "cpu_percent", "value": "12.5"},
                {"name": "rss_bytes", "value": "104857600"},
                {"name": "mem_percent", "value": "0.4"}
            ]
        }))
        .expect("a row");
        let en = figures(4242, &row, Lang::En);
        // 93784 s is 1 day, 2 h, 3 min, 4 s: `ps -o etime` prints 1-02:03:04.
        assert!(
            en.contains("started 2031-05-09T01:00:00 (running for 93784 s ("),
            "{en}"
        );
        assert!(en.contains("1-02:03:04"), "{en}");
        assert!(en.contains("RSS 100.0 MiB"), "{en}");
        let zh = figures(4242, &row, Lang::Zh);
        assert!(zh.contains("（已运行 93784 s ("), "{zh}");
        // No age read: none shown, rather than a guess.
        let mut young = row.clone();
        young.fields.retain(|f| f.name != "elapsed_seconds");
        assert!(!figures(1, &young, Lang::En).contains("running for"));
    }
}
