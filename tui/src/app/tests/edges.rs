//! `update` tests of the rough edges an evening of use found: notices that expire, Ctrl+C
//! on a half-typed line, the approval's argv shown the same everywhere, the waiting notice
//! after approving, upload names for internal paths, a second upload of the same content,
//! and Enter on an answer whose tool line scrolled away.

use std::time::Duration;

use protocol::{ApprovalState, ApprovalStateKind, OutputRef};

use super::approvals::request;
use super::*;
use crate::app::quit::{CLEARED_HINT, QUIT_HINT, QUIT_WINDOW};

#[test]
fn notices_expire_and_the_runtime_is_woken_for_it() {
    let mut a = connected();
    let t0 = a.now;
    update(&mut a, ctrl('c'));
    assert_eq!(a.notice.as_ref().map(|n| n.1.as_str()), Some(QUIT_HINT));
    assert_eq!(a.next_deadline(), Some(t0 + QUIT_WINDOW));
    // The hint goes with the window: the next event after it finds no notice.
    a.now = t0 + QUIT_WINDOW + Duration::from_millis(1);
    update(&mut a, AppEvent::Tick);
    assert!(a.notice.is_none(), "{:?}", a.notice);
    assert_eq!(a.next_deadline(), None, "nothing to wake for");
    // An informational notice stays NOTICE_SECS.
    submit(&mut a, "/cancel");
    assert!(a.notice.is_some());
    a.now += Duration::from_secs(NOTICE_SECS - 1);
    update(&mut a, AppEvent::Tick);
    assert!(a.notice.is_some());
    a.now += Duration::from_secs(2);
    update(&mut a, AppEvent::Tick);
    assert!(a.notice.is_none());
}

#[test]
fn ctrl_c_clears_a_half_typed_line_and_ctrl_y_brings_it_back() {
    let mut a = connected();
    type_str(&mut a, "ps aux | grep ngi");
    assert!(update(&mut a, ctrl('c')).is_empty());
    assert_eq!(a.input_text(), "");
    assert!(!a.quit);
    assert_eq!(a.notice.as_ref().map(|n| n.1.as_str()), Some(CLEARED_HINT));
    assert!(a.quit_armed.is_none(), "clearing does not arm the quit");
    update(&mut a, ctrl('y'));
    assert_eq!(a.input_text(), "ps aux | grep ngi");
    // With a turn running, Ctrl+C cancels the turn and keeps the text.
    a.clear_input();
    start_turn(&mut a, "long one", 5);
    type_str(&mut a, "next question");
    let cmds = update(&mut a, ctrl('c'));
    assert!(cmds
        .iter()
        .any(|c| matches!(c, Command::Send(Message::Cancel(_)))));
    assert_eq!(a.input_text(), "next question");
}

#[test]
fn the_tool_line_shows_the_argv_the_modal_shows_and_the_waiting_notice_goes() {
    let mut a = connected();
    start_turn(&mut a, "stop the runaway worker", 7);
    turn(
        &mut a,
        Message::AgentEvent(protocol::AgentEvent {
            request_id: 7,
            event: protocol::AgentEventKind::ToolCall {
                step: 1,
                tool: "run_action".into(),
                args: serde_json::json!({"argv": ["kill", "-term", "4242"]}),
            },
        }),
    );
    turn(&mut a, request("a1", 7, &["kill", "-TERM", "4242"]));
    let tool_args = a
        .transcript
        .entries
        .iter()
        .find_map(|e| match e {
            Entry::Tool { args, .. } => Some(args.clone()),
            _ => None,
        })
        .expect("a tool line");
    assert_eq!(tool_args, "kill -TERM 4242");
    assert_eq!(tool_args, approval::argv_text(&a.approvals.pending[0].argv));
    // Esc says the action waits; approving takes that notice away and the status follows.
    update(&mut a, key(KeyCode::Esc));
    assert_eq!(
        a.notice.as_ref().map(|n| n.1.as_str()),
        Some(approval::WAITING)
    );
    update(&mut a, key(KeyCode::Char('o')));
    assert!(a.notice.is_none());
    assert!(a
        .turn
        .as_ref()
        .is_some_and(|t| t.status.contains("approved")));
    turn(
        &mut a,
        Message::ApprovalState(ApprovalState {
            approval_id: "a1".into(),
            request_id: Some(7),
            argv: ["kill", "-TERM", "4242"].map(String::from).to_vec(),
            state: ApprovalStateKind::Approved,
            grant_id: None,
            detail: None,
        }),
    );
    let last = a.transcript.entries.last().expect("a line");
    assert!(
        matches!(last, Entry::System { text, .. } if text.contains("kill -TERM 4242")),
        "{last:?}"
    );
}

#[test]
fn answers_name_uploads_instead_of_their_internal_paths() {
    let mut a = connected();
    start_turn(&mut a, "errors?", 3);
    let path = "/var/lib/llmops/uploads/4be1c0aa0000000000000000000000ff/access.log";
    // The path arrives cut between two deltas.
    let (x, y) = path.split_at(30);
    turn(&mut a, delta(3, &format!("`{x}")));
    turn(&mut a, delta(3, &format!("{y}` 里有 12 行 ERROR\n")));
    turn(&mut a, end(3));
    let text = crate::ui::chat::lines(&a, 100)
        .iter()
        .map(crate::text::line_text)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(text.contains("access.log 里有 12 行 ERROR"), "{text}");
    assert!(!text.contains("/uploads/"), "{text}");
}

fn delta(id: u64, t: &str) -> Message {
    Message::StreamDelta(protocol::StreamDelta {
        request_id: id,
        text: t.into(),
    })
}

fn end(id: u64) -> Message {
    Message::StreamEnd(protocol::StreamEnd {
        request_id: id,
        status: EndStatus::Ok,
        message: None,
    })
}

#[test]
fn a_second_upload_of_the_same_content_asks_first() {
    let mut a = connected();
    let mut f = file("f1", "access.log");
    f.sha256 = "ab".repeat(32);
    f.uploaded_at = "2025-03-04T10:02:07+08:00".into();
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::FileList,
            result: Ok(Message::FileListReply(protocol::FileListReply {
                request_id: 1,
                files: vec![f],
            })),
        },
    );
    let cmds = submit(&mut a, "/upload /tmp/copy-of-access.log");
    assert!(matches!(&cmds[..], [Command::Upload { .. }]));
    // The executor hashed it: the session already has this content.
    let cmds = update(
        &mut a,
        AppEvent::UploadHashed {
            path: "/tmp/copy-of-access.log".into(),
            note: String::new(),
            result: Ok("ab".repeat(32)),
        },
    );
    assert!(cmds.is_empty());
    let Some(Modal::Confirm(c)) = &a.modal else {
        panic!("no question: {:?}", a.modal.is_some());
    };
    assert!(
        c.prompt
            .contains("already uploaded as access.log at 10:02; upload again?"),
        "{}",
        c.prompt
    );
    // n: nothing is sent and the placeholder goes.
    update(&mut a, key(KeyCode::Char('n')));
    assert!(a.files.uploading.is_empty());
    // y: it is uploaded anyway.
    submit(&mut a, "/upload /tmp/copy-of-access.log");
    update(
        &mut a,
        AppEvent::UploadHashed {
            path: "/tmp/copy-of-access.log".into(),
            note: String::new(),
            result: Ok("ab".repeat(32)),
        },
    );
    let cmds = update(&mut a, key(KeyCode::Char('y')));
    assert_eq!(
        cmds,
        vec![Command::UploadChecked {
            path: "/tmp/copy-of-access.log".into(),
            note: String::new()
        }]
    );
    // New content goes out at once.
    submit(&mut a, "/upload /tmp/other.log");
    let cmds = update(
        &mut a,
        AppEvent::UploadHashed {
            path: "/tmp/other.log".into(),
            note: String::new(),
            result: Ok("cd".repeat(32)),
        },
    );
    assert!(matches!(&cmds[..], [Command::UploadChecked { .. }]));
}

#[test]
fn enter_opens_the_output_of_the_answer_in_view_when_its_tool_line_scrolled_away() {
    let mut a = connected();
    a.size = (100, 20);
    start_turn(&mut a, "ps -ef", 4);
    let call = |e| {
        Message::AgentEvent(protocol::AgentEvent {
            request_id: 4,
            event: e,
        })
    };
    turn(
        &mut a,
        call(protocol::AgentEventKind::ToolCall {
            step: 1,
            tool: "command_executor".into(),
            args: serde_json::json!({"command": "ps -ef"}),
        }),
    );
    turn(
        &mut a,
        call(protocol::AgentEventKind::ToolResult {
            step: 1,
            tool: "command_executor".into(),
            ok: true,
            duration_ms: 3,
            summary: "ps -ef: 60 lines".into(),
            output: Some(OutputRef {
                output_id: "o1".into(),
                lines: 60,
                bytes: 4000,
                truncated: false,
            }),
        }),
    );
    // A long answer pushes the tool line out of view; it ends with "(48 more lines)".
    let body: String = (0..40).map(|i| format!("line {i}\n\n")).collect();
    turn(&mut a, delta(4, &format!("{body}… (48 more lines)\n")));
    turn(&mut a, end(4));
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::OutputPage {
            output_id: "o1".into(),
            offset: 0
        })]
    );
    assert!(a.notice.is_none(), "{:?}", a.notice);
}
