//! Tests of the turn runner pieces: upload references, history budgeting, the conversation
//! state rebuilt from stored rows.

use super::*;

#[test]
fn file_refs_from_markers_and_ids() {
    assert_eq!(
        referenced_ids(
            "看看 [file_ref:abc123] 和 [file_ref: def ]",
            &["xyz".into()]
        ),
        vec!["xyz", "abc123", "def"]
    );
    assert!(referenced_ids("[file_ref:", &[]).is_empty());
    assert!(referenced_ids("no refs", &[" ".into()]).is_empty());
}

#[test]
fn conversation_state_comes_from_stored_tool_calls() {
    use llmops_planner::conversation::{facts_of, ListKind};
    use llmops_tools::PageData;
    let msg = |role: &str, text: &str, calls: Vec<ToolCallRow>| crate::store::MessageRow {
        role: role.into(),
        text: text.into(),
        time: String::new(),
        tool_calls: calls,
    };
    let call = |tool: &str, args: Value, data: ToolData| ToolCallRow {
        tool: tool.into(),
        facts: facts_of(
            &ToolArgs::from_json(tool.parse().expect("a tool"), args.clone()).expect("valid"),
            true,
            &data,
        ),
        args,
        ok: true,
        duration_ms: 1,
        summary: String::new(),
        output: None,
    };
    let list = call(
        "file_upload",
        serde_json::json!({"action": "list"}),
        ToolData::Uploads(
            [("a.log", "/u/1/a.log"), ("b.md", "/u/2/b.md")]
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
    let read = call(
        "file_read",
        serde_json::json!({"file_path": "/u/2/b.md", "offset": 0, "limit": 200}),
        ToolData::Page(PageData {
            path: "/u/2/b.md".into(),
            offset: 0,
            limit: 200,
            total_lines: 450,
            lines: vec!["x".into(); 200],
            more_lines: 250,
            ..PageData::default()
        }),
    );
    // Rows stored before facts existed carry none and are simply skipped.
    let mut old = call(
        "sys_monitor",
        serde_json::json!({"metric": "cpu"}),
        ToolData::None,
    );
    old.facts = None;
    let rows = vec![
        msg("user", "cpu?", vec![]),
        msg("assistant", "CPU 5%", vec![old]),
        msg("user", "my uploads", vec![]),
        msg("assistant", "1. a.log 2. b.md", vec![list]),
        msg("user", "open the second one", vec![]),
        msg("assistant", "b.md …", vec![read]),
    ];
    let c = conversation_from(&rows);
    assert_eq!(c.last_user.as_deref(), Some("open the second one"));
    assert_eq!(
        c.last_list.as_ref().map(|l| &l.kind),
        Some(&ListKind::Uploads)
    );
    let r = c.last_read.expect("a partial read");
    assert_eq!((r.next_offset(), r.remaining()), (200, 250));
    assert!(c.last_metric.is_none());
    // The facts survive the store's JSON round trip.
    let json = serde_json::to_string(&rows[3].tool_calls).expect("serialises");
    let back: Vec<ToolCallRow> = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, rows[3].tool_calls);
}

#[test]
fn history_budget_keeps_newest() {
    let row = |t: &str| crate::store::MessageRow {
        role: "user".into(),
        text: t.into(),
        time: String::new(),
        tool_calls: vec![],
    };
    let rows = vec![row("aaaa"), row("bbbb"), row("cccc")];
    let h = budget_history(&rows, 8);
    assert_eq!(
        h.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
        ["bbbb", "cccc"]
    );
    // A single message longer than the budget is still kept (the latest context).
    assert_eq!(budget_history(&rows, 1).len(), 1);
}

#[test]
fn model_calls_are_typed_at_receipt_with_the_tools_errors() {
    use llmops_tooldata::ReadMode;
    let call = |name: &str, args: Value| crate::llm::ToolCall {
        id: "c1".into(),
        name: name.into(),
        args,
    };
    let registry = ["sys_monitor", "file_read"];
    let read = planners::parse_call(
        &call(
            "file_read",
            serde_json::json!({"path": "app.log", "mode": "analyze"}),
        ),
        &registry,
    );
    match read {
        Ok(ToolArgs::FileRead(a)) => {
            assert_eq!(
                (a.file_path.as_str(), a.mode),
                ("app.log", ReadMode::Analyze)
            )
        }
        other => panic!("{other:?}"),
    }
    let unknown = planners::parse_call(&call("rm", serde_json::json!({})), &registry)
        .expect_err("no such tool");
    assert_eq!(
        unknown.error,
        "未知工具: rm（可用: sys_monitor, file_read）"
    );
    assert_eq!(unknown.tool, "rm");
    let bad = planners::parse_call(
        &call("command_executor", serde_json::json!({"args": ["-l"]})),
        &registry,
    )
    .expect_err("no command");
    assert!(
        bad.error
            .starts_with("参数错误 (invalid arguments): missing field `command`"),
        "{}",
        bad.error
    );
    assert_eq!(bad.args, serde_json::json!({"args": ["-l"]}));
    let status = tool_status(&Err(bad), Lang::En);
    assert_eq!(status, "Calling command_executor…");
}

/// An upload made after the last message is what the conversation is about now; one made
/// before it, or a session with no message yet, changes nothing.
#[test]
fn a_file_uploaded_since_the_last_turn_is_the_conversations() {
    let msg = |time: &str| crate::store::MessageRow {
        role: "assistant".into(),
        text: "…".into(),
        time: time.into(),
        tool_calls: Vec::new(),
    };
    let up = |name: &str, at: &str| UploadRef {
        file_id: name.into(),
        filename: name.into(),
        path: std::path::PathBuf::from(format!("/data/uploads/{name}/{name}")),
        size: 10,
        sha256: String::new(),
        uploaded_at: at.into(),
        content_type: "text/plain".into(),
        columns: Vec::new(),
        format: None,
    };
    let uploads = [
        up("old.log", "2031-01-01T10:00:00+08:00"),
        up("new.log", "2031-01-01T10:05:00+08:00"),
        up("newest.log", "2031-01-01T02:06:00+00:00"),
    ];
    let rows = [msg("2031-01-01T10:01:00+08:00")];
    let got = uploaded_since_last_turn(&uploads, &rows).map(|u| u.filename.as_str());
    assert_eq!(got, Some("newest.log"), "compared as instants, zones apart");
    let rows = [msg("2031-01-01T10:07:00+08:00")];
    assert!(uploaded_since_last_turn(&uploads, &rows).is_none());
    assert!(uploaded_since_last_turn(&uploads, &[]).is_none());
    let mut c = conversation_from(&rows);
    c.uploaded_since(&uploads[1]);
    let file = c.last_file.expect("the upload");
    assert_eq!(file.path, "/data/uploads/new.log/new.log");
    assert!(file.analysed, "a log by its name");
}
