//! Render tests on `TestBackend`: each screen and state drawn into a buffer and asserted
//! on as plain rows; tiny sizes must not panic.

use protocol::{
    AgentEvent, AgentEventKind, Message, Offer, SearchHit, SearchResults, StreamDelta, StreamStart,
};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use crate::app::tests::{
    connected, cpu_tool_step, key, monitor, start_turn, submit, turn, type_str,
};
use crate::app::{update, App, AppEvent};
use crate::client::ClientEvent;
use crate::text;

/// The screen as text rows, wide characters counted once.
pub(super) fn draw(app: &App, w: u16, h: u16) -> Vec<String> {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("test backend");
    t.draw(|f| super::render(app, f)).expect("draw");
    let buf = t.backend().buffer().clone();
    (0..h)
        .map(|y| {
            let mut s = String::new();
            let mut skip = 0;
            for x in 0..w {
                // Wide characters occupy two cells; the second holds an empty symbol.
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let sym = buf[(x, y)].symbol();
                skip = text::width(sym).saturating_sub(1);
                s.push_str(sym);
            }
            s
        })
        .collect()
}

fn screen(rows: &[String]) -> String {
    rows.join("\n")
}

#[test]
fn idle_wide_screen_shows_panes_status_and_hints() {
    let a = connected();
    let rows = draw(&a, 120, 32);
    let s = screen(&rows);
    assert!(s.contains(" Chat "), "{s}");
    assert!(s.contains("欢迎使用 llmops"), "{s}");
    assert!(s.contains(" System "), "{s}");
    assert!(s.contains("waiting for monitor data"), "{s}");
    assert!(s.contains("Files (0)"), "{s}");
    assert!(s.contains("no uploads in this session"), "{s}");
    assert!(s.contains("Type a message"), "{s}");
    let bar = rows.last().expect("status bar");
    assert!(bar.contains("connected 127.0.0.1:9999"), "{bar}");
    assert!(bar.contains("session: ops"), "{bar}");
    assert!(bar.contains("model: offline"), "{bar}");
    assert!(bar.contains("planner: offline"), "{bar}");
    assert!(bar.contains("egress: none"), "{bar}");
    assert!(bar.contains("Enter send"), "{bar}");
}

#[test]
fn streaming_turn_shows_spinner_status_tool_line_and_markdown() {
    let mut a = connected();
    start_turn(&mut a, "CPU?", 5);
    cpu_tool_step(&mut a, 5, "CPU 12%");
    turn(&mut a, Message::StreamStart(StreamStart { request_id: 5 }));
    turn(
        &mut a,
        Message::StreamDelta(StreamDelta {
            request_id: 5,
            text: "## Result\n\n- CPU is **12%**\n\n```sh\nuptime\n".into(),
        }),
    );
    let s = screen(&draw(&a, 120, 32));
    assert!(s.contains("❯ CPU?"), "{s}");
    assert!(
        s.contains(r#"▸ sys_monitor {"metric":"cpu"} ✓ 3 ms CPU 12%"#),
        "{s}"
    );
    assert!(s.contains("Result"), "{s}");
    assert!(s.contains("• CPU is 12%"), "{s}");
    assert!(s.contains("┌─ sh ─"), "{s}");
    assert!(s.contains("│ uptime"), "{s}");
    assert!(s.contains("answering…"), "{s}");
    assert!(s.contains("Ctrl+C cancels"), "{s}");
    // Expanded tool view shows arguments on their own rows.
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)),
    );
    let s = screen(&draw(&a, 120, 32));
    assert!(s.contains("▾ sys_monitor ✓ 3 ms"), "{s}");
    assert!(s.contains(r#""metric": "cpu""#), "{s}");
}

#[test]
fn offer_dialog_shows_the_offer() {
    let mut a = connected();
    a.unix_now = 1_000_000;
    let o = Offer {
        offer_id: "o1".into(),
        file_id: None,
        filename: "syslog".into(),
        size: 2048,
        sha256: "0123456789abcdef".repeat(4),
        expires_at: 1_000_125,
        request_id: Some(5),
        tool_call: Some("file_download".into()),
        mode: "auto".into(),
    };
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::Offer(o))),
    );
    let s = screen(&draw(&a, 100, 30));
    assert!(s.contains("Download offer"), "{s}");
    assert!(s.contains("syslog"), "{s}");
    assert!(s.contains("2.0 KiB (2048 bytes)"), "{s}");
    assert!(s.contains("0123456789abcdef"), "{s}");
    assert!(s.contains("file_download (request #5)"), "{s}");
    assert!(s.contains("expires in 2m 05s"), "{s}");
    assert!(s.contains("[a] accept"), "{s}");
    assert!(s.contains("[r] reject"), "{s}");
}

/// A long address (the local socket, then TCP) is cut before egress or the help key are:
/// on every pane, the System pane included, at every size the UI draws.
#[test]
fn a_long_server_address_gives_way_to_egress_and_the_help_key() {
    let mut a = connected();
    a.server = "unix:/run/user/1000/llmops.sock,127.0.0.1:9999".into();
    for focus in [KeyCode::Char('1'), KeyCode::Char('4')] {
        update(
            &mut a,
            AppEvent::Key(KeyEvent::new(focus, KeyModifiers::ALT)),
        );
        for (w, h) in [(60, 20), (80, 24), (100, 30), (160, 45)] {
            let rows = draw(&a, w, h);
            let bar = rows.last().expect("bar");
            assert!(
                bar.contains("egress: none") && bar.contains("? help"),
                "{w}x{h}: {bar}"
            );
            assert!(bar.contains("connected unix:/run/"), "{w}x{h}: {bar}");
        }
    }
}

#[test]
fn narrow_terminal_uses_tabs() {
    let mut a = connected();
    let rows = draw(&a, 60, 20);
    let bar = rows.last().expect("bar");
    assert!(
        bar.contains("connected") && bar.contains("egress: none"),
        "{bar}"
    );
    assert!(
        bar.contains("? help"),
        "the help key survives on narrow terminals: {bar}"
    );
    let s = screen(&rows);
    assert!(s.contains("1 Chat"), "{s}");
    assert!(s.contains("2 Files"), "{s}");
    assert!(
        !s.contains("waiting for monitor data"),
        "side panes are behind tabs: {s}"
    );
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    let s = screen(&draw(&a, 60, 20));
    assert!(s.contains("waiting for monitor data"), "{s}");
    assert!(!s.contains("Type a message"), "{s}");
}

#[test]
fn chinese_text_wraps_by_display_width_without_residue() {
    let mut a = connected();
    let long =
        "这是一个很长的中文句子，用来测试按显示宽度换行是否正确，不应该出现乱码或者残留字符。";
    start_turn(&mut a, long, 2);
    let rows = draw(&a, 60, 20);
    for r in &rows {
        assert!(text::width(r) <= 60, "row wider than the terminal: {r}");
    }
    let s = screen(&rows);
    assert!(s.contains("❯ 这是一个很长的中文句子"), "{s}");
    // Typing and deleting CJK in the editor leaves nothing behind on screen.
    let mut b = connected();
    type_str(&mut b, "你好世界");
    assert!(screen(&draw(&b, 60, 20)).contains("你好世界"));
    for _ in 0..4 {
        update(&mut b, key(KeyCode::Backspace));
    }
    let s = screen(&draw(&b, 60, 20));
    assert!(!s.contains('你') && !s.contains('界'), "{s}");
    assert!(s.contains("Type a message"), "{s}");
}

#[test]
fn gauges_search_and_files_render_data() {
    let mut a = connected();
    monitor(&mut a, 42.0);
    submit(&mut a, "/search disk");
    let results = SearchResults {
        request_id: Some(3),
        query: "disk".into(),
        scope: "all".into(),
        results: vec![SearchHit {
            filename: "df.txt".into(),
            filepath: "/docs/df.txt".into(),
            similarity: 0.82,
            chunk: "df reports file system disk space usage".into(),
            position: "lines 1-4".into(),
            match_type: "hybrid".into(),
            file_id: None,
        }],
    };
    update(
        &mut a,
        AppEvent::Reply {
            req: crate::app::Req::Search {
                query: "disk".into(),
                scope: "all".into(),
            },
            result: Ok(Message::SearchResults(results)),
        },
    );
    let s = screen(&draw(&a, 130, 40));
    assert!(s.contains("CPU"), "{s}");
    assert!(s.contains("42%"), "{s}");
    assert!(s.contains("2 cores"), "{s}");
    assert!(s.contains("Load  0.50 0.25 0.10"), "{s}");
    assert!(s.contains("2.0G/8.0G"), "{s}");
    assert!(s.contains("60%"), "{s}");
    assert!(s.contains("Search: disk (1)"), "{s}");
    assert!(s.contains("0.82 hybrid df.txt lines 1-4"), "{s}");
    assert!(s.contains("disk space usage"), "{s}");
}

#[test]
fn ascii_and_no_color_modes() {
    let mut a = connected();
    a.theme.ascii = true;
    a.theme.no_color = true;
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("backend");
    t.draw(|f| super::render(&a, f)).expect("draw");
    let buf = t.backend().buffer().clone();
    assert!(buf
        .content
        .iter()
        .all(|c| c.fg == ratatui::style::Color::Reset && c.bg == ratatui::style::Color::Reset));
    let s: String = buf.content.iter().map(|c| c.symbol()).collect();
    assert!(!s.contains('─') && !s.contains('│'), "ASCII borders only");
}

#[test]
fn help_overlay_lists_bindings() {
    let mut a = connected();
    update(&mut a, key(KeyCode::F(1)));
    let s = screen(&draw(&a, 100, 60));
    assert!(s.contains("/upload <path> [text]"), "{s}");
    assert!(s.contains("Ctrl+C"), "{s}");
    assert!(s.contains("cancel turn / idle: twice in 2 s quits"), "{s}");
    let all = crate::ui::dialogs::help_lines(&a)
        .iter()
        .map(text::line_text)
        .collect::<Vec<_>>()
        .join("\n");
    for b in &a.keymap.bindings {
        assert!(all.contains(b.desc), "help misses {}", b.desc);
    }
}

#[test]
fn tiny_and_degenerate_sizes_do_not_panic() {
    let mut a = connected();
    start_turn(&mut a, "你好", 1);
    for (w, h) in [
        (1, 1),
        (0, 0),
        (10, 0),
        (0, 10),
        (39, 9),
        (40, 10),
        (2, 30),
        (200, 3),
    ] {
        let rows = draw(&a, w, h);
        assert_eq!(rows.len(), usize::from(h));
    }
    let s = screen(&draw(&a, 30, 8));
    assert!(s.contains("too small"), "{s}");
}

#[test]
fn cached_rows_match_a_fresh_render_after_every_change() {
    let mut a = connected();
    let fresh = |a: &App, w: usize| {
        a.transcript.rows.borrow_mut().clear();
        super::chat::lines(a, w)
    };
    let check = |a: &App| {
        for w in [72usize, 40, 72] {
            let cached = super::chat::lines(a, w);
            assert_eq!(cached, fresh(a, w), "width {w}");
            // Warm again so the next step starts from a filled cache.
            super::chat::lines(a, w);
        }
    };
    check(&a);
    start_turn(&mut a, "磁盘还剩多少？", 9);
    check(&a);
    turn(
        &mut a,
        Message::AgentEvent(AgentEvent {
            request_id: 9,
            event: AgentEventKind::ToolCall {
                step: 1,
                tool: "sys_monitor".into(),
                args: serde_json::json!({"metric": "disk"}),
            },
        }),
    );
    check(&a);
    turn(
        &mut a,
        Message::AgentEvent(AgentEvent {
            request_id: 9,
            event: AgentEventKind::ToolResult {
                step: 1,
                tool: "sys_monitor".into(),
                ok: true,
                duration_ms: 4,
                summary: "/ 60%".into(),
                output: None,
            },
        }),
    );
    check(&a);
    turn(&mut a, Message::StreamStart(StreamStart { request_id: 9 }));
    for part in [
        "## Disk\n\n",
        "- `/` is **60%** full",
        " and grows\n\n```sh\ndf",
        " -h\n```\n",
    ] {
        turn(
            &mut a,
            Message::StreamDelta(StreamDelta {
                request_id: 9,
                text: part.into(),
            }),
        );
        check(&a);
    }
    // Expanding tool calls and the ASCII theme change every affected entry's rows.
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::CONTROL)),
    );
    check(&a);
    a.theme.ascii = true;
    check(&a);
    // The visible window is exactly that slice of the whole transcript.
    let all = super::chat::lines(&a, 50);
    assert_eq!(super::chat::visible(&a, 50, 3, 5), all[3..8].to_vec());
    assert_eq!(super::chat::line_count(&a, 50), all.len());
}

#[test]
fn short_reason_keeps_the_cause() {
    assert_eq!(
        crate::ui::short_reason(
            "无法连接服务器 / cannot reach the server at 127.0.0.1:9: Connection refused (os error 111)"
        ),
        "Connection refused"
    );
    assert_eq!(crate::ui::short_reason("timed out"), "timed out");
    assert_eq!(crate::ui::short_reason(""), "");
}
