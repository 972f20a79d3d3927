//! The conversation state's tests: which facts each tool step leaves, and what a follow-up
//! finds in them.

use super::*;
use crate::test_data::{page, ran};
use llmops_common::UploadRef;
use serde_json::{json, Value};

fn args(tool: &str, v: Value) -> ToolArgs {
    let tool = tool.parse().expect("a tool name");
    ToolArgs::from_json(tool, v).expect("valid arguments")
}

#[test]
fn facts_from_tool_data() {
    let f = facts_of(
        &args("file_upload", json!({"action": "list"})),
        true,
        &ToolData::Uploads(
            [("a.log", "/u/1/a.log"), ("b.yml", "/u/2/b.yml")]
                .iter()
                .map(|(name, path)| UploadRef {
                    file_id: String::new(),
                    filename: name.to_string(),
                    path: path.into(),
                    size: 0,
                    sha256: String::new(),
                    uploaded_at: String::new(),
                    content_type: String::new(),
                    columns: Vec::new(),
                    format: None,
                })
                .collect(),
        ),
    );
    let Some(StepFacts::List(l)) = f else {
        panic!("{f:?}")
    };
    assert_eq!(l.kind, ListKind::Uploads);
    assert_eq!(l.items[1].path.as_deref(), Some("/u/2/b.yml"));

    let f = facts_of(
        &args(
            "file_read",
            json!({"file_path": "/srv/x.md", "offset": 0, "limit": 200}),
        ),
        true,
        &page("/srv/x.md", &["l"; 200], 0, 200, 442),
    );
    let Some(StepFacts::Read(r)) = f else {
        panic!("{f:?}")
    };
    assert_eq!((r.next_offset(), r.remaining()), (200, 242));

    let ls = "total 8\n-rw-r--r-- 1 u u 10 Nov 1 10:00 app.log\ndrwxr-xr-x 2 u u 4096 Nov 1 10:00 sub\n-rw-r--r-- 1 u u 10 Nov 1 10:00 notes.md";
    let f = facts_of(
        &args(
            "command_executor",
            json!({"command": "ls", "args": ["-la", "/srv/app"]}),
        ),
        true,
        &ran("ls", &[], ls, "/"),
    );
    let Some(StepFacts::List(l)) = f else {
        panic!("{f:?}")
    };
    let paths: Vec<_> = l.items.iter().filter_map(|i| i.path.as_deref()).collect();
    assert_eq!(paths, ["/srv/app/app.log", "/srv/app/notes.md"]);
    assert!(facts_of(&args("file_read", json!({})), false, &ToolData::None).is_none());
    // A failed query is still the question a follow-up edits.
    let f = facts_of(
        &args(
            "log_query",
            json!({"source": "log", "files": ["/u/1/a.log"], "measure": "mean", "field": "latency"}),
        ),
        false,
        &ToolData::None,
    );
    let Some(StepFacts::Queried(q)) = f else {
        panic!("{f:?}")
    };
    assert_eq!(q.query.field.as_ref().map(|f| f.as_str()), Some("latency"));
    assert!(q.items.is_empty());
}

/// An analysed log is remembered with its real line count, so "continue" can say the
/// analysis already covered all of it.
#[test]
fn an_analysed_file_is_remembered_with_its_line_count() {
    use llmops_loganalysis::{analyze_file, AnalyzeMode, AnalyzeOptions, FileAnalysis};
    use std::sync::atomic::AtomicBool;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("app.log");
    let text: String = (0..37)
        .map(|i| format!("2026-01-01 10:00:{:02} ERROR request {i} failed\n", i % 60))
        .collect();
    std::fs::write(&path, &text).expect("planted log");
    let report = analyze_file(
        &path,
        &AnalyzeOptions::default(),
        &AtomicBool::new(false),
        &mut |_, _| {},
    )
    .expect("analysed");
    let shown = path.display().to_string();
    let data = ToolData::Analysis(Box::new(FileAnalysis {
        mode: AnalyzeMode::Analyze,
        path: shown.clone(),
        file: "app.log".into(),
        report,
    }));
    let call = ToolArgs::FileRead(FileReadArgs::analyze("app.log"));
    let f = facts_of(&call, true, &data);
    assert_eq!(
        f,
        Some(StepFacts::Analysed {
            path: shown,
            total_lines: Some(text.lines().count() as u64),
        })
    );
    let c = Conversation::from_turns([("analyse app.log", vec![f.expect("facts")])]);
    assert_eq!(c.last_file.and_then(|f| f.total_lines), Some(37));
}

#[test]
fn state_keeps_the_latest_and_forgets_old_turns() {
    let read = StepFacts::Read(ReadState {
        path: "/a.md".into(),
        offset: 0,
        limit: 200,
        shown: 200,
        total_lines: 300,
    });
    let analysed = StepFacts::Analysed {
        path: "/b.log".into(),
        total_lines: Some(1500),
    };
    let c = Conversation::from_turns([("read a", vec![read.clone()]), ("b", vec![analysed])]);
    assert_eq!(c.last_file.as_ref().map(|f| f.name()), Some("b.log"));
    assert_eq!(c.last_read.as_ref().map(|r| r.path.as_str()), Some("/a.md"));
    assert_eq!(c.last_user.as_deref(), Some("b"));
    let many: Vec<(&str, Vec<StepFacts>)> = std::iter::once(("old", vec![read]))
        .chain((0..STATE_TURNS).map(|_| ("x", vec![])))
        .collect();
    assert!(Conversation::from_turns(many).last_read.is_none());
}

#[test]
fn facts_round_trip_as_json() {
    let f = StepFacts::List(ListShown {
        kind: ListKind::Processes {
            sort: ProcSort::Memory,
            name: None,
        },
        items: vec![ListItem {
            name: "mysqld".into(),
            path: None,
            pid: Some(812),
        }],
    });
    let v = serde_json::to_value(&f).expect("serialises");
    assert_eq!(serde_json::from_value::<StepFacts>(v).expect("parses"), f);
}

/// "which tenant had the most 5xx", "how many of those were 503?", "and the second
/// one?": the figure of the top item keeps the list, so a position still picks from it.
#[test]
fn a_figure_of_a_listed_item_keeps_the_list() {
    let q = |v: Value| -> llmops_common::query::Query { serde_json::from_value(v).expect("query") };
    let listed = LastQuery {
        query: q(
            json!({"source": "log", "files": ["/u/1/api.json"], "measure": "count",
            "group_by": ["tenant"]}),
        ),
        items: vec![
            vec![("tenant".into(), "acme".into())],
            vec![("tenant".into(), "initech".into())],
        ],
        event: Vec::new(),
        at: None,
    };
    let of_top = LastQuery {
        query: q(
            json!({"source": "log", "files": ["/u/1/api.json"], "measure": "count",
            "filters": [{"field": "tenant", "op": "eq", "value": "acme"},
                        {"field": "status", "op": "eq", "value": 503}]}),
        ),
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    };
    let mut c = Conversation::default();
    c.apply(&[StepFacts::Queried(Box::new(listed.clone()))]);
    c.apply(&[StepFacts::Queried(Box::new(of_top.clone()))]);
    let kept = c.last_query.clone().expect("a query");
    assert_eq!(kept.query, of_top.query);
    assert_eq!(kept.items, listed.items);
    // A figure of something else starts afresh.
    let other = LastQuery {
        query: q(
            json!({"source": "log", "files": ["/u/1/api.json"], "measure": "count",
            "filters": [{"field": "status", "op": "eq", "value": 503}]}),
        ),
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    };
    c.apply(&[StepFacts::Queried(Box::new(other))]);
    assert!(c.last_query.expect("a query").items.is_empty());
}

/// The time an answer pointed at (its peak minute, the event it named) is what "at that
/// time" means until another answer points at another; a count between keeps it.
#[test]
fn the_time_an_answer_pointed_at_is_kept_for_that_time() {
    use llmops_common::query::{BucketRow, QueryValue, Row};
    let bucket = |start: &str, count| BucketRow {
        start: start.into(),
        count,
        per_file: Vec::new(),
    };
    let peak = QueryValue::Buckets {
        width_seconds: 60,
        buckets: vec![bucket("2031-05-09T02:16", 3), bucket("2031-05-09T02:17", 9)],
        peak: Some(bucket("2031-05-09T02:17", 9)),
    };
    let at = answer_time(&peak, None).expect("a peak");
    assert_eq!((at.at.as_str(), at.width_seconds), ("2031-05-09T02:17", 60));
    let row: Row = serde_json::from_value(
        json!({"line": 7, "time": "2031-05-09T02:14:01+00:00", "text": "slow"}),
    )
    .expect("row");
    let one = QueryValue::Rows {
        rows: vec![row.clone()],
        total: 1,
    };
    assert_eq!(answer_time(&one, None).map(|a| a.width_seconds), Some(0));
    let two = QueryValue::Rows {
        rows: vec![row.clone(), row],
        total: 2,
    };
    assert_eq!(answer_time(&two, None), None);
    let q = |v: Value| -> llmops_common::query::Query { serde_json::from_value(v).expect("query") };
    let pointed = LastQuery {
        query: q(json!({"source": "log", "files": ["/u/1/a.log"], "measure": "buckets"})),
        items: Vec::new(),
        event: Vec::new(),
        at: Some(at.clone()),
    };
    let count = LastQuery {
        query: q(json!({"source": "log", "files": ["/u/1/a.log"], "measure": "count"})),
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    };
    let mut c = Conversation::default();
    c.apply(&[StepFacts::Queried(Box::new(pointed))]);
    c.apply(&[StepFacts::Queried(Box::new(count))]);
    assert_eq!(c.last_query.expect("a query").at, Some(at));
}

/// The monitor's ranking of processes is the processes table ranked by the same figure,
/// its pids the items in the order shown, so "它的 pid" edits it as a query.
#[test]
fn a_process_ranking_is_the_processes_table_ranked() {
    let item = |name: &str, pid| ListItem {
        name: name.into(),
        path: None,
        pid: Some(pid),
    };
    let mut c = Conversation::default();
    c.apply(&[StepFacts::List(ListShown {
        kind: ListKind::Processes {
            sort: ProcSort::Memory,
            name: None,
        },
        items: vec![item("mysqld", 812), item("java", 4242)],
    })]);
    let q = c.last_query.expect("a query");
    assert_eq!(q.query.source, llmops_common::query::Source::Processes);
    assert_eq!(
        q.query.field.as_ref().map(|f| f.as_str()),
        Some("rss_bytes")
    );
    assert_eq!(q.query.limit, Some(2));
    assert_eq!(
        q.items,
        vec![
            vec![("pid".to_string(), "812".to_string())],
            vec![("pid".to_string(), "4242".to_string())]
        ]
    );
}
