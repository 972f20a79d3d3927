//! The symptom an incident question names by an HTTP 4xx ("网关一堆 403", "what caused
//! the wave of 403s"): the summary counts those events in place of its own idea of
//! trouble (which holds no 4xx), and says whom they came from, since a flood of 4xx is
//! caused by its client, not by a fault.

use llmops_common::query::{
    Field, Filter, FilterOp, Query, QueryResult, QueryValue, Scalar, Window,
};

use crate::text::Lang;

/// Clients listed by whom the symptom's events came from.
const WHO: u32 = 5;

/// The symptom in words: `HTTP 429`, `HTTP 5xx`.
pub(super) fn words(f: &Filter) -> String {
    let code = match (&f.op, &f.value) {
        (FilterOp::Class, Scalar::Number(c)) => format!("{c}xx"),
        (_, Scalar::Number(n)) => format!("{n}"),
        (_, Scalar::Text(t)) => t
            .trim_start_matches("^(?:")
            .trim_end_matches(")$")
            .replace('|', "/"),
    };
    format!("HTTP {code}")
}

/// The symptom a first step counted, when it counted one (not the trouble tag).
pub(super) fn of(r: &QueryResult) -> Option<&Filter> {
    r.query
        .filters
        .iter()
        .find(|f| f.field.as_ref().is_some_and(|x| x.as_str() == "status"))
}

/// The symptom's events by client, in the window the headline counts.
pub(super) fn who_query(statused: &[String], symptom: &Filter, window: Option<&Window>) -> Query {
    Query {
        files: statused.to_vec(),
        filters: vec![symptom.clone()],
        window: window.cloned(),
        group_by: vec![Field::new("client")],
        limit: Some(WHO),
        ..Query::default()
    }
}

/// "HTTP 403 by client (gw.log, 320 in all): **203.0.113.9** ×300 (94%), …": whom the
/// symptom's events came from, each with its share of them.
pub(super) fn who(r: &QueryResult, lang: Lang) -> Option<String> {
    let QueryValue::Groups { rows, rest, .. } = &r.value else {
        return None;
    };
    let total = r.matched.max(1) as f64;
    let share = |n: u64| format!("{:.0}%", n as f64 * 100.0 / total);
    let mut parts: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(i, g)| {
            let key = g.key.join(" ");
            let key = if i == 0 { format!("**{key}**") } else { key };
            format!("{key} ×{} ({})", g.count, share(g.count))
        })
        .collect();
    if *rest > 0 {
        parts.push(format!(
            "{} ×{rest} ({})",
            lang.pick("其他", "other"),
            share(*rest)
        ));
    }
    let what = of(r).map(words).unwrap_or_default();
    let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
    (!parts.is_empty()).then(|| match lang {
        Lang::Zh => format!(
            "{what} 按客户端 ({}，共 {} 个)：{}",
            names.join(", "),
            r.matched,
            parts.join("，")
        ),
        Lang::En => format!(
            "{what} by client ({}, {} in all): {}",
            names.join(", "),
            r.matched,
            parts.join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::atomic::AtomicBool;

    use llmops_loganalysis::table::{self, QueryFile, QueryOptions};

    use crate::conversation::Conversation;
    use crate::{plan, PlannerAction, PlannerInput, StepRecord, ToolArgs, ToolData, MAX_STEPS};

    /// An access log with a flood of 403s from one client among a few from others, and
    /// the 403s per client as planted.
    fn flood() -> (String, BTreeMap<String, u64>) {
        let (mut text, mut by_client) = (String::new(), BTreeMap::new());
        for i in 0..900u32 {
            let (client, status) = match i {
                300..=539 => ("203.0.113.9".to_string(), 403),
                _ if i % 37 == 0 => (format!("10.1.0.{}", i % 7), 403),
                _ => (
                    format!("10.1.0.{}", i % 11),
                    if i % 13 == 0 { 404 } else { 200 },
                ),
            };
            if status == 403 {
                *by_client.entry(client.clone()).or_insert(0) += 1;
            }
            text.push_str(&format!(
                "{client} - - [09/May/2031:01:{:02}:{:02} +0000] \"GET /api/rates HTTP/1.1\" {status} 120 \"-\" \"okhttp/4.9\"\n",
                i / 60,
                i % 60
            ));
        }
        (text, by_client)
    }

    /// The planner's turn run to its answer, each query through the log engine.
    fn answer(ups: &[crate::UploadRef], text: &str) -> String {
        let mut steps: Vec<StepRecord> = Vec::new();
        for _ in 0..=MAX_STEPS {
            let input = PlannerInput {
                text,
                referenced_files: &[],
                uploads: ups,
                history: &[],
                conversation: &Conversation::default(),
                steps: &steps,
            };
            match plan(&input) {
                PlannerAction::Final { text } => return text,
                PlannerAction::Call { tool, args, .. } => {
                    let ToolArgs::LogQuery(q) = &args else {
                        panic!("{text}: not a log query: {args}");
                    };
                    let files: Vec<QueryFile> = q
                        .query
                        .files
                        .iter()
                        .map(|p| QueryFile::new(p.rsplit('/').next().unwrap_or(p), p.as_str()))
                        .collect();
                    let r = table::run_query(
                        &files,
                        &q.query,
                        &QueryOptions::default(),
                        &AtomicBool::new(false),
                    )
                    .expect("the query runs");
                    steps.push(StepRecord {
                        tool,
                        args,
                        ok: true,
                        output: String::new(),
                        data: ToolData::Query(Box::new(r)),
                        error: None,
                    });
                }
            }
        }
        panic!("{text}: no answer in {MAX_STEPS} steps");
    }

    /// "What caused the 403s": the summary counts the 403s (no failure to it otherwise) and
    /// says whom they came from, each figure the planted one.
    #[test]
    fn a_named_status_is_counted_and_its_clients_named() {
        let (text, by_client) = flood();
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("gw-access.log");
        std::fs::write(&path, &text).expect("write");
        // A log without a status beside it: the status is counted where there is one.
        let app = dir.path().join("app.log");
        std::fs::write(
            &app,
            "2031-05-09 01:05:00,000 ERROR [rates] upstream refused\n",
        )
        .expect("write");
        let mut ups = crate::tests::uploads(&["app.log", "gw-access.log"]);
        for (u, p) in ups.iter_mut().zip([app, path]) {
            let sample = table::Sample::read(&p).expect("sample");
            let d = table::describe_sample(table::builtin_registry(), &sample);
            u.path = p;
            u.columns = d.columns;
            u.format = d.format;
        }
        let total: u64 = by_client.values().sum();
        let (top, n) = by_client.iter().max_by_key(|(_, n)| **n).expect("a flood");
        let share = format!("{:.0}%", *n as f64 * 100.0 / total as f64);
        let en = answer(&ups, "what caused the wave of 403s on the gateway?");
        assert!(
            en.contains(&format!("**{total}** events are HTTP 403")),
            "{en}"
        );
        assert!(en.contains(&format!("**{top}** ×{n} ({share})")), "{en}");
        // A 5xx named is trouble already: the summary reads every log's errors as usual.
        let five = answer(&ups, "why so many 500s on the gateway?");
        assert!(!five.contains("HTTP 500"), "{five}");
        let zh = answer(&ups, "网关 403 暴增是怎么回事");
        assert!(
            zh.contains(&format!("共 **{total}** 个 HTTP 403 事件")),
            "{zh}"
        );
        assert!(zh.contains(&format!("**{top}** ×{n} ({share})")), "{zh}");
    }
}
