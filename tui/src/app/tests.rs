//! `update` tests: an event script goes in, state and commands come out. No terminal, no
//! network.

use std::time::Duration;

use protocol::{
    AgentEvent, AgentEventKind, Cancel, CpuStats, DiskStats, EndStatus, ErrorMsg, FileInfo,
    MemoryStats, Message, MonitorSnapshot, Offer, OfferReject, SessionOp, StreamDelta, StreamEnd,
    StreamStart, Welcome,
};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::transcript::Entry;
use super::*;
use crate::client::ClientEvent;
use crate::theme::Theme;

pub fn welcome() -> Welcome {
    Welcome {
        proto: 1,
        session_id: "3f2a9c0e-1111-2222-3333-444455556666".into(),
        session_name: "ops".into(),
        resumed: false,
        server_version: "0.1.0".into(),
        heartbeat_secs: 90,
        model: "offline".into(),
        models: vec!["offline".into()],
        features: vec![],
        planner: "offline".into(),
        egress: "none".into(),
        motd: "欢迎使用 llmops".into(),
    }
}

/// A connected app with a 100x30 terminal.
pub fn connected() -> App {
    let mut a = App::new("127.0.0.1:9999", Theme::dark());
    a.size = (100, 30);
    let cmds = update(&mut a, AppEvent::Client(ClientEvent::Connected(welcome())));
    assert!(cmds.contains(&Command::Send(Message::MonitorSubscribe(
        protocol::MonitorSubscribe { interval_ms: 1000 }
    ))));
    assert!(cmds.contains(&Command::Request(Req::FileList)));
    a
}

pub fn key(code: KeyCode) -> AppEvent {
    AppEvent::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

pub fn ctrl(c: char) -> AppEvent {
    AppEvent::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL))
}

pub fn type_str(a: &mut App, s: &str) -> Vec<Command> {
    let mut out = Vec::new();
    for c in s.chars() {
        out.extend(update(a, key(KeyCode::Char(c))));
    }
    out
}

/// Types `s`, presses Enter, returns the commands.
pub fn submit(a: &mut App, s: &str) -> Vec<Command> {
    type_str(a, s);
    update(a, key(KeyCode::Enter))
}

/// Delivers a monitor snapshot at `cpu_pct` CPU, 25% memory and one 60%-full ext4 disk.
pub fn monitor(a: &mut App, cpu_pct: f32) {
    monitor_snap(a, cpu_pct, Vec::new());
}

/// A monitor snapshot at 42% CPU carrying these processes.
pub fn monitor_with(a: &mut App, procs: Vec<protocol::ProcessStats>) {
    monitor_snap(a, 42.0, procs);
}

fn monitor_snap(a: &mut App, cpu_pct: f32, procs: Vec<protocol::ProcessStats>) {
    let snap = MonitorSnapshot {
        ts_ms: 1,
        cpu: CpuStats {
            usage_percent: cpu_pct,
            cores: 2,
            frequency_mhz: 2400,
            load_avg: [0.5, 0.25, 0.1],
        },
        memory: MemoryStats {
            total_bytes: 8 << 30,
            used_bytes: 2 << 30,
            available_bytes: 6 << 30,
            usage_percent: 25.0,
        },
        disks: vec![DiskStats {
            mount: "/".into(),
            fs: "ext4".into(),
            total_bytes: 100 << 30,
            used_bytes: 60 << 30,
            available_bytes: 40 << 30,
            usage_percent: 60.0,
        }],
        process_count: (!procs.is_empty()).then_some(212),
        top_processes: procs,
    };
    update(
        a,
        AppEvent::Client(ClientEvent::Message(Message::MonitorSnapshot(snap))),
    );
}

fn file(id: &str, name: &str) -> FileInfo {
    FileInfo {
        file_id: id.into(),
        filename: name.into(),
        size: 276,
        sha256: "ab".repeat(32),
        content_type: "text/plain".into(),
        uploaded_at: "2026-01-01T00:00:00Z".into(),
        state: "indexed".into(),
        detail: None,
    }
}

/// Sends a message and starts its turn as request `id`.
pub fn start_turn(a: &mut App, text: &str, id: u64) {
    let cmds = submit(a, text);
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: text.into(),
            file_ids: vec![]
        }]
    );
    assert!(update(a, AppEvent::TurnStarted(id)).is_empty());
}

pub fn turn(a: &mut App, m: Message) {
    assert!(update(a, AppEvent::TurnMsg(m)).is_empty());
}

/// One `sys_monitor` step of turn `id`: the call, then its result with `summary`.
pub fn cpu_tool_step(a: &mut App, id: u64, summary: &str) {
    let ev = |event| {
        Message::AgentEvent(AgentEvent {
            request_id: id,
            event,
        })
    };
    turn(
        a,
        ev(AgentEventKind::ToolCall {
            step: 1,
            tool: "sys_monitor".into(),
            args: serde_json::json!({"metric": "cpu"}),
        }),
    );
    turn(
        a,
        ev(AgentEventKind::ToolResult {
            step: 1,
            tool: "sys_monitor".into(),
            ok: true,
            duration_ms: 3,
            summary: summary.into(),
            output: None,
        }),
    );
}

fn answer_text(a: &App) -> String {
    a.transcript
        .entries
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Assistant { doc, .. } => Some(doc.source().to_string()),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn send_message_adds_user_entry_and_chat_command() {
    let mut a = connected();
    let cmds = submit(&mut a, "CPU使用率是多少？");
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "CPU使用率是多少？".into(),
            file_ids: vec![]
        }]
    );
    assert!(
        matches!(a.transcript.entries.last(), Some(Entry::User { text, .. }) if text == "CPU使用率是多少？")
    );
    assert!(a.input_text().is_empty());
    assert!(a.turn.is_some());
    assert_eq!(a.history, vec!["CPU使用率是多少？".to_string()]);
    // A second message while the turn runs is kept in the editor, not sent.
    let cmds = submit(&mut a, "again");
    assert!(cmds.is_empty());
    assert_eq!(a.input_text(), "again");
}

#[test]
fn not_connected_keeps_the_message() {
    let mut a = App::new("x:1", Theme::dark());
    assert!(submit(&mut a, "hello").is_empty());
    assert_eq!(a.input_text(), "hello");
    assert!(a
        .notice
        .as_ref()
        .is_some_and(|n| n.1.contains("not connected")));
    // Reconnected: the stale notice goes, the message is still in the editor.
    update(&mut a, AppEvent::Client(ClientEvent::Connected(welcome())));
    assert!(a.notice.is_none());
    assert_eq!(a.input_text(), "hello");
}

#[test]
fn stream_deltas_build_the_answer_and_end_the_turn() {
    let mut a = connected();
    start_turn(&mut a, "hi", 5);
    turn(&mut a, Message::StreamStart(StreamStart { request_id: 5 }));
    for piece in ["当前 CPU ", "使用率 **12%**", "\u{1b}[31m。"] {
        turn(
            &mut a,
            Message::StreamDelta(StreamDelta {
                request_id: 5,
                text: piece.into(),
            }),
        );
    }
    // Deltas of another request are ignored.
    turn(
        &mut a,
        Message::StreamDelta(StreamDelta {
            request_id: 99,
            text: "junk".into(),
        }),
    );
    assert_eq!(answer_text(&a), "当前 CPU 使用率 **12%**。");
    assert_eq!(
        a.turn.as_ref().map(|t| t.status.as_str()),
        Some("answering…")
    );
    turn(
        &mut a,
        Message::StreamEnd(StreamEnd {
            request_id: 5,
            status: EndStatus::Ok,
            message: None,
        }),
    );
    assert!(a.turn.is_none());
    assert!(matches!(
        a.transcript.entries.last(),
        Some(Entry::Assistant { done: true, .. })
    ));
    assert!(!a.animating(), "idle app needs no ticks");
}

#[test]
fn tool_calls_become_lines_with_results() {
    let mut a = connected();
    start_turn(&mut a, "cpu?", 7);
    let ev = |event| {
        Message::AgentEvent(AgentEvent {
            request_id: 7,
            event,
        })
    };
    turn(
        &mut a,
        ev(AgentEventKind::Status {
            text: "正在查询系统资源…".into(),
        }),
    );
    assert_eq!(
        a.turn.as_ref().map(|t| t.status.as_str()),
        Some("正在查询系统资源…")
    );
    cpu_tool_step(&mut a, 7, "CPU 12%");
    let tools: Vec<&Entry> = a
        .transcript
        .entries
        .iter()
        .filter(|e| matches!(e, Entry::Tool { .. }))
        .collect();
    assert_eq!(tools.len(), 1);
    match tools[0] {
        Entry::Tool {
            tool, args, result, ..
        } => {
            assert_eq!(tool, "sys_monitor");
            assert_eq!(args, r#"{"metric":"cpu"}"#);
            let r = result.as_ref().expect("result attached to its call");
            assert!(r.ok);
            assert_eq!(r.duration_ms, 3);
            assert_eq!(r.summary, "CPU 12%");
        }
        _ => unreachable!(),
    }
    assert!(!a.transcript.tools_expanded);
    update(&mut a, ctrl('o'));
    assert!(a.transcript.tools_expanded);
}

#[test]
fn turn_errors_and_cancelled_ends_are_reported() {
    let mut a = connected();
    start_turn(&mut a, "x", 3);
    turn(
        &mut a,
        Message::Error(ErrorMsg {
            code: "busy".into(),
            message: "a turn is already running".into(),
            request_id: Some(3),
        }),
    );
    assert!(a.turn.is_none());
    assert!(
        matches!(a.transcript.entries.last(), Some(Entry::System { level: Level::Error, text }) if text.contains("busy"))
    );
    start_turn(&mut a, "y", 4);
    update(&mut a, AppEvent::TurnLost("connection lost".into()));
    assert!(a.turn.is_none());
}

#[test]
fn ctrl_c_cancels_a_running_turn_and_quits_when_idle() {
    let mut a = connected();
    start_turn(&mut a, "long task", 9);
    let cmds = update(&mut a, ctrl('c'));
    assert_eq!(
        cmds,
        vec![Command::Send(Message::Cancel(Cancel {
            request_id: Some(9)
        }))]
    );
    assert!(!a.quit);
    assert!(a.turn.as_ref().is_some_and(|t| t.cancelling));
    // A second Ctrl+C while cancelling does not send again nor quit.
    assert!(update(&mut a, ctrl('c')).is_empty());
    turn(
        &mut a,
        Message::StreamEnd(StreamEnd {
            request_id: 9,
            status: EndStatus::Cancelled,
            message: None,
        }),
    );
    assert!(
        matches!(a.transcript.entries.last(), Some(Entry::System { text, .. }) if text == "turn cancelled")
    );
    // Idle now: the first Ctrl+C asks, the second quits.
    assert!(update(&mut a, ctrl('c')).is_empty());
    assert!(!a.quit);
    let cmds = update(&mut a, ctrl('c'));
    assert_eq!(cmds, vec![Command::Quit]);
    assert!(a.quit);
}

#[test]
fn ctrl_c_before_the_request_id_is_known_cancels_on_start() {
    let mut a = connected();
    submit(&mut a, "quick");
    assert!(update(&mut a, ctrl('c')).is_empty());
    let cmds = update(&mut a, AppEvent::TurnStarted(12));
    assert_eq!(
        cmds,
        vec![Command::Send(Message::Cancel(Cancel {
            request_id: Some(12)
        }))]
    );
}

#[test]
fn slash_commands_map_to_requests() {
    let mut a = connected();
    let cmds = submit(&mut a, r#"/upload "/tmp/my logs/app.log" why did it fail?"#);
    assert_eq!(
        cmds,
        vec![Command::Upload {
            path: "/tmp/my logs/app.log".into(),
            note: "why did it fail?".into()
        }]
    );
    assert_eq!(a.files.uploading.len(), 1);
    assert_eq!(
        submit(&mut a, "/files"),
        vec![Command::Request(Req::FileList)]
    );
    assert_eq!(
        a.focus,
        Pane::Chat,
        "wide: the files pane is already visible"
    );
    a.size = (60, 20);
    submit(&mut a, "/files");
    assert_eq!(a.focus, Pane::Files, "narrow: switch to the Files tab");
    a.size = (100, 30);
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('1'), KeyModifiers::ALT)),
    );
    assert_eq!(a.focus, Pane::Chat);
    assert_eq!(
        submit(&mut a, "/search disk full"),
        vec![Command::Request(Req::Search {
            query: "disk full".into(),
            scope: "all".into()
        })]
    );
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('1'), KeyModifiers::ALT)),
    );
    assert_eq!(
        submit(&mut a, "/switch 3f2a"),
        vec![Command::Request(Req::Session(SessionOp::Switch {
            id: "3f2a".into()
        }))]
    );
    assert_eq!(
        submit(&mut a, "/rename 生产环境"),
        vec![Command::Request(Req::Session(SessionOp::Rename {
            id: None,
            name: "生产环境".into()
        }))]
    );
    assert_eq!(
        submit(&mut a, "/model"),
        vec![Command::Request(Req::ModelList)]
    );
    assert_eq!(
        submit(&mut a, "/model glm-4"),
        vec![Command::Request(Req::ModelSet("glm-4".into()))]
    );
    assert_eq!(
        submit(&mut a, "/download abc123"),
        vec![Command::Request(Req::Download("abc123".into()))]
    );
    assert_eq!(
        submit(&mut a, "/history"),
        vec![Command::Request(Req::History)]
    );
    assert_eq!(
        submit(&mut a, "/clear"),
        vec![Command::Request(Req::ClearHistory)]
    );
    assert_eq!(submit(&mut a, "/quit"), vec![Command::Quit]);
}

#[test]
fn unknown_and_malformed_slash_commands_get_specific_messages() {
    let mut a = connected();
    assert!(submit(&mut a, "/frobnicate now").is_empty());
    let n = a.notice.clone().expect("notice");
    assert_eq!(n.0, Level::Error);
    assert!(n.1.contains("unknown command /frobnicate"), "{}", n.1);
    assert!(submit(&mut a, r#"/upload "/tmp/x"#).is_empty());
    assert!(a
        .notice
        .as_ref()
        .is_some_and(|n| n.1.contains("unterminated")));
    // A message that starts with a path is a message, not an unknown command.
    let cmds = submit(&mut connected(), "/var/log 目录占了多少空间");
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "/var/log 目录占了多少空间".into(),
            file_ids: vec![]
        }]
    );
    // `//` escapes a message that starts with a slash.
    let cmds = submit(&mut a, "//etc/hosts is missing");
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "/etc/hosts is missing".into(),
            file_ids: vec![]
        }]
    );
}

#[test]
fn delete_session_asks_for_confirmation() {
    let mut a = connected();
    assert!(submit(&mut a, "/delete 3f2a").is_empty());
    assert!(matches!(a.modal, Some(Modal::Confirm(_))));
    assert!(update(&mut a, key(KeyCode::Char('n'))).is_empty());
    assert!(a.modal.is_none());
    submit(&mut a, "/delete 3f2a");
    assert_eq!(
        update(&mut a, key(KeyCode::Char('y'))),
        vec![Command::Request(Req::Session(SessionOp::Delete {
            id: "3f2a".into()
        }))]
    );
}

#[test]
fn tab_completes_slash_commands() {
    let mut a = connected();
    type_str(&mut a, "/fi");
    update(&mut a, key(KeyCode::Tab));
    assert_eq!(a.input_text(), "/files ");
    assert_eq!(a.focus, Pane::Chat, "Tab completed instead of moving focus");
    let mut b = connected();
    type_str(&mut b, "/s");
    update(&mut b, key(KeyCode::Tab));
    assert_eq!(b.input_text(), "/s");
    assert!(b
        .notice
        .as_ref()
        .is_some_and(|n| n.1.contains("/search") && n.1.contains("/switch")));
    // Without a slash, Tab moves focus.
    let mut c = connected();
    update(&mut c, key(KeyCode::Tab));
    assert_eq!(c.focus, Pane::Files);
}

#[test]
fn offer_dialog_accept_and_reject_send_commands() {
    let offer = |id: &str| Offer {
        offer_id: id.into(),
        file_id: None,
        filename: "syslog".into(),
        size: 2048,
        sha256: "cd".repeat(32),
        expires_at: 1_000_300,
        request_id: Some(5),
        tool_call: Some("file_download {\"file_path\":\"/var/log/syslog\"}".into()),
        mode: "auto".into(),
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut a = connected();
    a.download_dir = dir.path().to_path_buf();
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::Offer(offer("o1")))),
    );
    assert!(matches!(&a.modal, Some(Modal::Offer { offer_id }) if offer_id == "o1"));
    // Accept asks where to save; Enter takes the prefilled default.
    assert!(update(&mut a, key(KeyCode::Char('a'))).is_empty());
    assert!(matches!(&a.modal, Some(Modal::SaveAs { offer_id, .. }) if offer_id == "o1"));
    assert_eq!(
        update(&mut a, key(KeyCode::Enter)),
        vec![Command::Download {
            offer: offer("o1"),
            dest: dir.path().join("syslog"),
            overwrite: false,
        }]
    );
    assert!(matches!(&a.modal, Some(Modal::Transfer { offer_id }) if offer_id == "o1"));
    assert_eq!(a.transfers[0].state, TransferState::Accepted);
    assert_eq!(a.transfers[0].dest, Some(dir.path().join("syslog")));

    update(
        &mut a,
        AppEvent::Downloaded {
            offer_id: "o1".into(),
            result: Ok("/home/u/Downloads/syslog".into()),
        },
    );
    assert!(matches!(a.transfers[0].state, TransferState::Saved { .. }));
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::Offer(offer("o2")))),
    );
    let cmds = update(&mut a, key(KeyCode::Char('r')));
    assert!(
        matches!(&cmds[..], [Command::Send(Message::OfferReject(OfferReject { offer_id, .. }))] if offer_id == "o2")
    );
    assert_eq!(a.transfers[1].state, TransferState::Rejected);
    // The server's acknowledgement of the rejection shows in the transcript.
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::Ack(protocol::Ack {
            request_id: 5,
            message: "已拒绝下载 syslog / download declined".into(),
        }))),
    );
    assert!(matches!(
        a.transcript.entries.last(),
        Some(Entry::System { level: Level::Info, text }) if text.contains("download declined")
    ));

    // Esc defers; the Transfers pane reopens it with Enter.
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::Offer(offer("o3")))),
    );
    assert!(update(&mut a, key(KeyCode::Esc)).is_empty());
    assert!(a.modal.is_none());
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('5'), KeyModifiers::ALT)),
    );
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Enter));
    assert!(matches!(&a.modal, Some(Modal::Offer { offer_id }) if offer_id == "o3"));
}

#[test]
fn scroll_anchors_when_scrolled_up_and_end_follows() {
    let mut a = connected();
    for i in 0..60 {
        a.transcript.system(Level::Info, &format!("line {i}"));
    }
    assert_eq!(a.scroll, None);
    update(&mut a, key(KeyCode::PageUp));
    let top = a.scroll.expect("anchored after PageUp");
    // New output does not move an anchored view.
    a.transcript.system(Level::Info, "new line");
    assert_eq!(a.scroll, Some(top));
    update(&mut a, key(KeyCode::Home));
    assert_eq!(a.scroll, Some(0));
    update(&mut a, key(KeyCode::PageDown));
    assert!(a.scroll.is_some_and(|t| t > 0));
    update(&mut a, key(KeyCode::End));
    assert_eq!(a.scroll, None);
    // PageDown past the end goes back to following.
    update(&mut a, key(KeyCode::PageUp));
    update(&mut a, key(KeyCode::PageDown));
    update(&mut a, key(KeyCode::PageDown));
    assert_eq!(a.scroll, None);
    // Sending a message follows the tail again.
    update(&mut a, key(KeyCode::PageUp));
    submit(&mut a, "hi");
    assert_eq!(a.scroll, None);
}

#[test]
fn home_edits_when_the_input_has_text() {
    let mut a = connected();
    for i in 0..60 {
        a.transcript.system(Level::Info, &format!("line {i}"));
    }
    type_str(&mut a, "abc");
    update(&mut a, key(KeyCode::Home));
    assert_eq!(a.scroll, None);
    type_str(&mut a, "x");
    assert_eq!(a.input_text(), "xabc");
}

#[test]
fn cjk_and_emoji_delete_leaves_no_residue() {
    let mut a = connected();
    type_str(&mut a, "你好🙂世界");
    assert_eq!(a.input_text(), "你好🙂世界");
    for _ in 0..3 {
        update(&mut a, key(KeyCode::Backspace));
    }
    assert_eq!(a.input_text(), "你好");
    update(&mut a, key(KeyCode::Left));
    update(&mut a, key(KeyCode::Backspace));
    assert_eq!(a.input_text(), "好");
    update(&mut a, key(KeyCode::Delete));
    assert_eq!(a.input_text(), "");
    assert_eq!(a.input.lines(), [String::new()]);
}

#[test]
fn newline_keys_and_history_recall() {
    let mut a = connected();
    type_str(&mut a, "line one");
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::ALT)),
    );
    type_str(&mut a, "two");
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::SHIFT)),
    );
    type_str(&mut a, "three");
    assert_eq!(a.input_text(), "line one\ntwo\nthree");
    // Multi-line: Up moves the cursor instead of recalling history.
    a.history.push("old".into());
    update(&mut a, key(KeyCode::Up));
    assert_eq!(a.input_text(), "line one\ntwo\nthree");
    a.input = new_input();
    a.history = vec!["first".into(), "second".into()];
    type_str(&mut a, "draft");
    update(&mut a, key(KeyCode::Up));
    assert_eq!(a.input_text(), "second");
    update(&mut a, key(KeyCode::Up));
    assert_eq!(a.input_text(), "first");
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Down));
    assert_eq!(a.input_text(), "draft");
}

#[test]
fn paste_keeps_newlines_and_strips_escapes() {
    let mut a = connected();
    update(&mut a, AppEvent::Paste("a\r\nb\u{1b}[2Jc\n中".into()));
    assert_eq!(a.input_text(), "a\nbc\n中");
}

#[test]
fn referenced_files_go_with_the_next_message() {
    let mut a = connected();
    let reply = Message::FileListReply(protocol::FileListReply {
        request_id: 1,
        files: vec![file("f1", "a.log"), file("f2", "b.log")],
    });
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::FileList,
            result: Ok(reply),
        },
    );
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::ALT)),
    );
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(a.files.referenced, vec!["f2".to_string()]);
    // Delete asks first.
    assert!(update(&mut a, key(KeyCode::Char('d'))).is_empty());
    assert_eq!(
        update(&mut a, key(KeyCode::Char('y'))),
        vec![Command::Request(Req::FileDelete("f2".into()))]
    );
    assert_eq!(
        update(&mut a, key(KeyCode::Char('w'))),
        vec![Command::Request(Req::Download("f2".into()))]
    );
    update(&mut a, key(KeyCode::Esc));
    assert_eq!(a.focus, Pane::Chat);
    let cmds = submit(&mut a, "summarise it");
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "summarise it".into(),
            file_ids: vec!["f2".into()]
        }]
    );
    assert!(a.files.referenced.is_empty());
}

#[test]
fn upload_with_note_then_chats_about_the_new_file() {
    let mut a = connected();
    submit(&mut a, "/upload /tmp/app.log what failed?");
    let cmds = update(
        &mut a,
        AppEvent::Uploaded {
            path: "/tmp/app.log".into(),
            note: "what failed?".into(),
            result: Ok(file("new1", "app.log")),
        },
    );
    assert_eq!(
        cmds,
        vec![
            Command::Request(Req::FileList),
            Command::Chat {
                text: "what failed?".into(),
                file_ids: vec!["new1".into()]
            }
        ]
    );
    assert!(a.files.files.iter().any(|f| f.file_id == "new1"));
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::UploadStatus(
            protocol::UploadStatus {
                file_id: "new1".into(),
                filename: "app.log".into(),
                state: "ready".into(),
                detail: None,
                done: 1,
                total: 1,
            },
        ))),
    );
    assert_eq!(a.files.files[0].state, "ready");
    assert!(a.files.uploading.is_empty());
}

#[test]
fn browser_picks_a_file_then_note_then_upload() {
    let t = tempfile::tempdir().expect("tempdir");
    std::fs::write(t.path().join("notes.txt"), "hello").expect("write");
    let mut a = connected();
    a.browse_dir = t.path().to_path_buf();
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('2'), KeyModifiers::ALT)),
    );
    update(&mut a, key(KeyCode::Char('u')));
    assert!(matches!(a.modal, Some(Modal::Browser(_))));
    type_str(&mut a, "note");
    update(&mut a, key(KeyCode::Enter));
    assert!(matches!(a.modal, Some(Modal::Note { .. })));
    type_str(&mut a, "check it");
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Upload {
            path: t.path().join("notes.txt"),
            note: "check it".into()
        }]
    );
    assert!(a.modal.is_none());
}

#[test]
fn reconnecting_state_and_monitor_snapshots() {
    let mut a = connected();
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Reconnecting {
            attempt: 2,
            retry_in: Duration::from_secs(3),
            reason: "server closed the connection".into(),
        }),
    );
    assert!(matches!(a.conn, Conn::Reconnecting { attempt: 2, .. }));
    assert!(a.animating());
    let cmds = update(&mut a, AppEvent::Client(ClientEvent::Connected(welcome())));
    assert_eq!(a.conn, Conn::Connected);
    assert!(cmds
        .iter()
        .any(|c| matches!(c, Command::Send(Message::MonitorSubscribe(_)))));
    for pct in [10.0, 20.0, 30.0] {
        monitor(&mut a, pct);
    }
    assert_eq!(
        a.gauges.cpu.iter().copied().collect::<Vec<_>>(),
        vec![10, 20, 30]
    );
}

#[test]
fn help_overlay_opens_and_closes() {
    let mut a = connected();
    update(&mut a, key(KeyCode::Char('?')));
    assert!(matches!(a.modal, Some(Modal::Help { .. })));
    update(&mut a, key(KeyCode::Esc));
    assert!(a.modal.is_none());
    // With text in the editor, '?' is typed.
    type_str(&mut a, "why?");
    assert_eq!(a.input_text(), "why?");
    assert!(submit(&mut a, "").len() == 1);
}

#[test]
fn typing_in_a_side_pane_goes_to_the_chat_editor() {
    let mut a = connected();
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('3'), KeyModifiers::ALT)),
    );
    assert_eq!(a.focus, Pane::Search);
    type_str(&mut a, "hi");
    assert_eq!(a.focus, Pane::Chat);
    assert_eq!(a.input_text(), "hi");
}

fn offer_of(id: &str, name: &str, size: u64) -> Offer {
    Offer {
        offer_id: id.into(),
        file_id: None,
        filename: name.into(),
        size,
        sha256: "cd".repeat(32),
        expires_at: 1_000_300,
        request_id: Some(5),
        tool_call: None,
        mode: "auto".into(),
    }
}

fn offered(a: &mut App, o: &Offer) {
    update(
        a,
        AppEvent::Client(ClientEvent::Message(Message::Offer(o.clone()))),
    );
}

fn save_as_text(a: &App) -> (String, Option<String>) {
    match &a.modal {
        Some(Modal::SaveAs { input, error, .. }) => (input.lines().join(""), error.clone()),
        _ => panic!("not in the save-as prompt"),
    }
}

#[test]
fn save_as_prompt_edits_the_path_and_confirms_overwrites() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut a = connected();
    a.download_dir = dir.path().to_path_buf();
    let o = offer_of("o1", "app.log", 10);
    offered(&mut a, &o);
    update(&mut a, key(KeyCode::Char('a')));
    let (path, err) = save_as_text(&a);
    assert_eq!(path, dir.path().join("app.log").display().to_string());
    assert!(err.is_none());
    // Esc goes back to the offer without answering it.
    assert!(update(&mut a, key(KeyCode::Esc)).is_empty());
    assert!(matches!(&a.modal, Some(Modal::Offer { .. })));
    assert_eq!(a.transfers[0].state, TransferState::Offered);

    // A different name, typed after clearing the line; a pasted path works too.
    update(&mut a, key(KeyCode::Char('a')));
    update(&mut a, ctrl('u'));
    assert_eq!(save_as_text(&a).0, "");
    update(&mut a, AppEvent::Paste("sub/".into()));
    type_str(&mut a, "renamed.log");
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Download {
            offer: o.clone(),
            dest: dir.path().join("sub/renamed.log"),
            overwrite: false,
        }]
    );

    // An existing file needs a second answer; "n" returns to the prompt, "y" overwrites.
    std::fs::write(dir.path().join("app.log"), b"old").expect("write");
    let o2 = offer_of("o2", "app.log", 10);
    update(&mut a, key(KeyCode::Esc));
    offered(&mut a, &o2);
    update(&mut a, key(KeyCode::Char('a')));
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(
        matches!(&a.modal, Some(Modal::Overwrite { path, existing: Some(3), .. }) if *path == dir.path().join("app.log"))
    );
    assert_eq!(a.ctx(), Ctx::Confirm);
    assert!(update(&mut a, key(KeyCode::Char('n'))).is_empty());
    assert_eq!(
        save_as_text(&a).0,
        dir.path().join("app.log").display().to_string()
    );
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        update(&mut a, key(KeyCode::Char('y'))),
        vec![Command::Download {
            offer: o2,
            dest: dir.path().join("app.log"),
            overwrite: true,
        }]
    );
}

#[test]
fn save_as_refuses_paths_without_room_or_that_are_folders() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut a = connected();
    a.download_dir = dir.path().to_path_buf();
    // Bigger than any disk: the free-space check refuses it before anything starts.
    offered(&mut a, &offer_of("big", "huge.bin", u64::MAX / 4));
    update(&mut a, key(KeyCode::Char('a')));
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    let (_, err) = save_as_text(&a);
    let err = err.expect("an error");
    assert!(
        err.contains("磁盘空间不足") && err.contains("not enough space"),
        "{err}"
    );
    assert_eq!(a.transfers[0].state, TransferState::Offered);
    // Typing clears the error; an empty path is refused with its own message.
    update(&mut a, ctrl('u'));
    assert!(save_as_text(&a).1.is_none());
    update(&mut a, key(KeyCode::Enter));
    assert!(save_as_text(&a)
        .1
        .is_some_and(|e| e.contains("enter a path")));
}

#[test]
fn transfer_view_merges_progress_and_gives_way_to_the_next_offer() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut a = connected();
    a.download_dir = dir.path().to_path_buf();
    offered(&mut a, &offer_of("o1", "a.bin", 1_000_000));
    update(&mut a, key(KeyCode::Char('a')));
    update(&mut a, key(KeyCode::Enter));
    // The sender's report carries the window; our byte count must not wipe it.
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::TransferProgress(
            TransferProgress {
                offer_id: "o1".into(),
                bytes: 100_000,
                total: 1_000_000,
                bytes_per_sec: 50_000,
                rtt_ms: 9,
                retransmits: 2,
                in_flight: 12,
                window: 16,
                lost: 1,
            },
        ))),
    );
    update(
        &mut a,
        AppEvent::DownloadProgress {
            offer_id: "o1".into(),
            bytes: 150_000,
            total: 1_000_000,
        },
    );
    match &a.transfers[0].state {
        TransferState::Progress(p) => {
            assert_eq!(
                (p.bytes, p.window, p.in_flight, p.lost),
                (150_000, 16, 12, 1)
            )
        }
        s => panic!("{s:?}"),
    }
    // While it runs, a new offer waits; once it is saved, the view gives way.
    offered(&mut a, &offer_of("o2", "b.bin", 5));
    assert!(matches!(&a.modal, Some(Modal::Transfer { .. })));
    update(
        &mut a,
        AppEvent::Downloaded {
            offer_id: "o1".into(),
            result: Ok(dir.path().join("a.bin")),
        },
    );
    // The sender's last report, arriving after our verification, leaves the result alone.
    for m in [
        Message::TransferProgress(TransferProgress {
            offer_id: "o1".into(),
            bytes: 1_000_000,
            total: 1_000_000,
            ..Default::default()
        }),
        Message::TransferStart(protocol::TransferStart {
            offer_id: "o1".into(),
            mode: "rdt".into(),
            token: "ab".into(),
            rdt_addr: None,
            url: None,
            size: 1_000_000,
            sha256: "cd".repeat(32),
        }),
    ] {
        update(&mut a, AppEvent::Client(ClientEvent::Message(m)));
    }
    update(
        &mut a,
        AppEvent::DownloadProgress {
            offer_id: "o1".into(),
            bytes: 1_000_000,
            total: 1_000_000,
        },
    );
    assert!(matches!(a.transfers[0].state, TransferState::Saved { .. }));
    offered(&mut a, &offer_of("o3", "c.bin", 5));
    assert!(matches!(&a.modal, Some(Modal::Offer { offer_id }) if offer_id == "o3"));
    // The Transfers pane reopens a finished transfer's view with Enter.
    update(&mut a, key(KeyCode::Esc));
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('5'), KeyModifiers::ALT)),
    );
    update(&mut a, key(KeyCode::Enter));
    assert!(matches!(&a.modal, Some(Modal::Transfer { offer_id }) if offer_id == "o1"));
}

#[test]
fn the_session_in_use_is_remembered_on_connect_and_switch() {
    let mut a = App::new("127.0.0.1:9999", Theme::dark());
    let cmds = update(&mut a, AppEvent::Client(ClientEvent::Connected(welcome())));
    assert!(cmds.contains(&Command::RememberSession(welcome().session_id)));
    let mut other = protocol::SessionInfo {
        id: "99999999-aaaa".into(),
        name: "db".into(),
        created_at: String::new(),
        updated_at: String::new(),
        messages: 0,
    };
    let reply = |cur: &protocol::SessionInfo| {
        Ok(Message::SessionReply(protocol::SessionReply {
            request_id: 1,
            op: "switch".into(),
            current: cur.clone(),
            sessions: vec![],
        }))
    };
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::Session(SessionOp::Switch { id: "9999".into() }),
            result: reply(&other),
        },
    );
    assert!(cmds.contains(&Command::RememberSession("99999999-aaaa".into())));
    // The same session again: nothing new to remember.
    other.name = "db2".into();
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::Session(SessionOp::Rename {
                id: None,
                name: "db2".into(),
            }),
            result: reply(&other),
        },
    );
    assert!(!cmds
        .iter()
        .any(|c| matches!(c, Command::RememberSession(_))));
}
