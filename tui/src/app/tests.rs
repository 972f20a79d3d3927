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

pub(crate) mod approvals;
mod edges;
mod input;
mod offers;
mod sessions;
mod watch;

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
        features: ["process_view", "process_details", "propose", "watch"]
            .map(String::from)
            .to_vec(),
        planner: "offline".into(),
        egress: "none".into(),
        motd: "欢迎使用 llmops".into(),
        commands: [
            "cat",
            "df",
            "du",
            "free",
            "journalctl",
            "ps",
            "ss",
            "systemctl",
        ]
        .map(String::from)
        .to_vec(),
    }
}

/// A connected app with a 100x30 terminal.
pub fn connected() -> App {
    let mut a = App::new("127.0.0.1:9999", Theme::dark());
    a.size = (100, 30);
    let cmds = update(&mut a, AppEvent::Client(ClientEvent::Connected(welcome())));
    // Snapshots every second, with the pane's process list and, the first time, the
    // server's recent history.
    assert!(cmds.contains(&Command::Send(Message::MonitorSubscribe(
        protocol::MonitorSubscribe {
            interval_ms: 1000,
            processes: Some(protocol::ProcessView {
                filter: String::new(),
                sort: protocol::ProcessSort::Cpu,
                limit: procs::VIEW_LIMIT,
                tree: false,
            }),
            history: true,
        }
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
            per_core: vec![cpu_pct, cpu_pct],
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
        ..MonitorSnapshot::default()
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
