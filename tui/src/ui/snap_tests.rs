//! Snapshot tests (insta) of whole screens on ratatui's TestBackend: each state a user can
//! see, stored as plain text under `ui/snapshots/` and reviewed by eye. Everything that
//! could vary between runs (time, paths, spinner) is fixed by the test.

use std::path::PathBuf;

use protocol::{Message, Offer, StreamDelta, StreamStart, TransferProgress};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::tests::{connected, cpu_tool_step, key, monitor, start_turn, turn, type_str};
use crate::app::{update, App, AppEvent, Modal, TransferState};
use crate::client::ClientEvent;

/// The screen as text rows (wide characters counted once), with a frame so trailing
/// spaces stay visible in the snapshot.
fn draw(app: &App, w: u16, h: u16) -> String {
    super::tests::draw(app, w, h)
        .into_iter()
        .map(|s| format!("|{s}|\n"))
        .collect()
}

fn gauges(a: &mut App) {
    for pct in [10.0, 35.0, 20.0, 60.0, 42.0] {
        monitor(a, pct);
    }
}

fn offer(id: &str, name: &str, size: u64) -> Offer {
    Offer {
        offer_id: id.into(),
        file_id: None,
        filename: name.into(),
        size,
        sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".into(),
        expires_at: 1_000_125,
        request_id: Some(7),
        tool_call: Some("file_download".into()),
        mode: "auto".into(),
    }
}

/// A connected app with gauges, a fixed clock and a fixed download folder.
fn base() -> App {
    let mut a = connected();
    a.unix_now = 1_000_000;
    a.download_dir = PathBuf::from("/home/op/Downloads");
    gauges(&mut a);
    a
}

fn offered(a: &mut App, o: Offer) {
    update(a, AppEvent::Client(ClientEvent::Message(Message::Offer(o))));
}

#[test]
fn idle() {
    let a = base();
    insta::assert_snapshot!(draw(&a, 120, 32));
}

#[test]
fn streaming_answer() {
    let mut a = base();
    start_turn(&mut a, "CPU使用率是多少？", 5);
    cpu_tool_step(&mut a, 5, "CPU 42%");
    turn(&mut a, Message::StreamStart(StreamStart { request_id: 5 }));
    turn(
        &mut a,
        Message::StreamDelta(StreamDelta {
            request_id: 5,
            text: "## CPU\n\nCPU 使用率为 **42%**（2 核）。\n\n- load 0.50\n- 频率 2400 MHz\n\n```sh\nuptime\n"
                .into(),
        }),
    );
    insta::assert_snapshot!(draw(&a, 120, 32));
}

#[test]
fn offer_dialog() {
    let mut a = base();
    offered(&mut a, offer("o1", "nginx.conf", 2048));
    insta::assert_snapshot!(draw(&a, 120, 32));
}

#[test]
fn save_as_prompt_and_overwrite_question() {
    let mut a = base();
    offered(&mut a, offer("o1", "nginx.conf", 2048));
    update(&mut a, key(KeyCode::Char('a')));
    insta::assert_snapshot!("save_as_prompt", draw(&a, 120, 32));
    // A refused path keeps the prompt open with the reason (set directly: the real check
    // would name this machine's temp folder).
    if let Some(Modal::SaveAs { error, .. }) = &mut a.modal {
        *error = Some(
            "磁盘空间不足 / not enough space on /home/op/Downloads: the file needs 3.2 GiB, \
             only 1.1 GiB free"
                .into(),
        );
    }
    insta::assert_snapshot!("save_as_no_room", draw(&a, 120, 32));
    // The overwrite question for a path that exists (set directly: no real file here).
    a.modal = Some(Modal::Overwrite {
        offer_id: "o1".into(),
        path: PathBuf::from("/home/op/Downloads/nginx.conf"),
        existing: Some(1900),
    });
    insta::assert_snapshot!("overwrite_question", draw(&a, 120, 32));
}

fn in_progress(a: &mut App) {
    offered(a, offer("o1", "big.log", 2_000_000));
    a.transfers[0].state = TransferState::Accepted;
    a.transfers[0].dest = Some(PathBuf::from("/home/op/Downloads/big.log"));
    a.modal = Some(Modal::Transfer {
        offer_id: "o1".into(),
    });
    update(
        a,
        AppEvent::Client(ClientEvent::Message(Message::TransferProgress(
            TransferProgress {
                offer_id: "o1".into(),
                bytes: 820_000,
                total: 2_000_000,
                bytes_per_sec: 410_000,
                rtt_ms: 21,
                retransmits: 37,
                in_flight: 48,
                window: 64,
                lost: 6,
            },
        ))),
    );
}

#[test]
fn transfer_in_progress_with_window_strip() {
    let mut a = base();
    in_progress(&mut a);
    insta::assert_snapshot!("transfer_view", draw(&a, 120, 32));
    // Closed: the Transfers pane keeps the progress row and its strip.
    update(&mut a, key(KeyCode::Esc));
    a.notice = None;
    insta::assert_snapshot!("transfers_pane", draw(&a, 120, 32));
}

#[test]
fn transfer_results_verified_and_failed() {
    let mut a = base();
    in_progress(&mut a);
    update(
        &mut a,
        AppEvent::Downloaded {
            offer_id: "o1".into(),
            result: Ok(PathBuf::from("/home/op/Downloads/big.log")),
        },
    );
    insta::assert_snapshot!("transfer_verified", draw(&a, 120, 32));
    let mut b = base();
    in_progress(&mut b);
    update(
        &mut b,
        AppEvent::Downloaded {
            offer_id: "o1".into(),
            result: Err("sha256 不匹配 / sha256 mismatch: got 1a2b3c, offer says 9f86d0".into()),
        },
    );
    insta::assert_snapshot!("transfer_failed", draw(&b, 120, 32));
}

#[test]
fn narrow_terminal() {
    let mut a = base();
    start_turn(&mut a, "hi", 1);
    insta::assert_snapshot!("narrow_chat", draw(&a, 60, 20));
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    insta::assert_snapshot!("narrow_gauges_tab", draw(&a, 60, 20));
}

#[test]
fn chinese_text() {
    let mut a = base();
    start_turn(
        &mut a,
        "这是一个很长的中文句子，用来测试按显示宽度换行是否正确，不应该出现乱码或者残留字符。",
        2,
    );
    turn(&mut a, Message::StreamStart(StreamStart { request_id: 2 }));
    turn(
        &mut a,
        Message::StreamDelta(StreamDelta {
            request_id: 2,
            text: "换行按显示宽度计算：每个汉字占两列，😀 也是两列。\n\n1. 第一项\n2. 第二项\n"
                .into(),
        }),
    );
    type_str(&mut a, "你好世界");
    insta::assert_snapshot!(draw(&a, 80, 24));
}

#[test]
fn help_overlay() {
    let mut a = base();
    update(&mut a, key(KeyCode::F(1)));
    insta::assert_snapshot!(draw(&a, 100, 40));
}

#[test]
fn one_by_one_and_too_small() {
    let mut a = base();
    in_progress(&mut a);
    // Every modal at 1x1 and at sizes around the minimum: no panic.
    for (w, h) in [(1, 1), (2, 2), (39, 9), (40, 10)] {
        draw(&a, w, h);
    }
    a.modal = None;
    insta::assert_snapshot!("one_by_one", draw(&a, 1, 1));
    insta::assert_snapshot!("too_small", draw(&a, 30, 8));
}

#[test]
fn quit_confirmation() {
    let mut a = base();
    update(&mut a, crate::app::tests::ctrl('c'));
    insta::assert_snapshot!(draw(&a, 80, 24));
}

#[test]
fn reconnecting_shows_the_reason() {
    let mut a = base();
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Reconnecting {
            attempt: 3,
            retry_in: std::time::Duration::from_secs(2),
            reason: "无法连接服务器 / cannot reach the server at 127.0.0.1:9: Connection refused (os error 111)".into(),
        }),
    );
    insta::assert_snapshot!(draw(&a, 100, 24));
}

#[test]
fn load_above_cores_is_flagged() {
    let mut a = base();
    if let Some(s) = &mut a.gauges.snap {
        s.cpu.load_avg = [6.0, 4.5, 1.0];
    }
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    let screen = draw(&a, 80, 24);
    assert!(screen.contains("3.00/core > cores"), "{screen}");
    insta::assert_snapshot!(screen);
}

fn with_processes() -> App {
    let mut a = base();
    crate::app::tests::monitor_with(&mut a, crate::app::procs::tests::planted());
    a
}

#[test]
fn processes_narrow_tab_sorted_by_cpu() {
    let mut a = with_processes();
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    let s = draw(&a, 80, 24);
    // The planted CPU burner is first, with top's numbers.
    assert!(s.contains("  4242 root     burn-cpu"), "{s}");
    assert!(s.contains("99.0   3.0M"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn processes_by_memory_filtered_wide() {
    let mut a = with_processes();
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    update(&mut a, key(KeyCode::F(2)));
    update(&mut a, key(KeyCode::Char('/')));
    type_str(&mut a, "a");
    insta::assert_snapshot!(draw(&a, 160, 45));
}

#[test]
fn processes_never_panic_at_any_size() {
    let mut a = with_processes();
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    for w in [1u16, 10, 20, 30, 45, 80, 120] {
        for h in [1u16, 5, 10, 24, 45] {
            draw(&a, w, h);
        }
    }
}
