//! `update` tests for tool output in the transcript: live lines of a follow (TOOL_OUTPUT)
//! and opening a folded stored output page by page (OUTPUT_GET / OUTPUT_PAGE).

use protocol::{AgentEvent, AgentEventKind, Message, OutputPage, OutputRef, ToolOutput};
use ratatui::crossterm::event::KeyCode;

use super::tests::{connected, key, start_turn, turn};
use super::transcript::{Entry, LIVE_KEEP, LIVE_VISIBLE};
use super::*;

fn call(a: &mut App, id: u64) {
    turn(
        a,
        Message::AgentEvent(AgentEvent {
            request_id: id,
            event: AgentEventKind::ToolCall {
                step: 1,
                tool: "command_executor".into(),
                args: serde_json::json!({"command": "tail", "args": ["-f", "app.log"]}),
            },
        }),
    );
}

fn live(a: &mut App, id: u64, lines: &[String], dropped: u64, total: u64) {
    turn(
        a,
        Message::ToolOutput(ToolOutput {
            request_id: id,
            step: 1,
            tool: "command_executor".into(),
            lines: lines.to_vec(),
            dropped,
            total,
        }),
    );
}

fn result(a: &mut App, id: u64, output: Option<OutputRef>) {
    turn(
        a,
        Message::AgentEvent(AgentEvent {
            request_id: id,
            event: AgentEventKind::ToolResult {
                step: 1,
                tool: "command_executor".into(),
                ok: true,
                duration_ms: 5,
                summary: "跟踪了 3 秒，收到 1,200 行".into(),
                output,
            },
        }),
    );
}

fn tool_out(a: &App) -> &transcript::ToolOut {
    a.transcript
        .entries
        .iter()
        .rev()
        .find_map(|e| match e {
            Entry::Tool { out, .. } => Some(out),
            _ => None,
        })
        .expect("a tool entry")
}

fn rows(a: &App) -> Vec<String> {
    crate::ui::chat::lines(a, 100)
        .iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

fn numbered(from: usize, to: usize) -> Vec<String> {
    (from..=to).map(|i| format!("line {i}")).collect()
}

#[test]
fn live_lines_appear_under_the_running_call_and_stay_bounded() {
    let mut a = connected();
    start_turn(&mut a, "tail -f app.log", 9);
    call(&mut a, 9);
    live(&mut a, 9, &numbered(1, 3), 0, 3);
    assert_eq!(tool_out(&a).live, numbered(1, 3));
    let r = rows(&a);
    assert!(r.iter().any(|l| l.ends_with("line 3")), "{r:?}");
    assert!(a
        .turn
        .as_ref()
        .is_some_and(|t| t.status.contains("3 lines")));
    // Another turn's lines are not ours.
    live(&mut a, 8, &numbered(100, 101), 0, 2);
    assert_eq!(tool_out(&a).live.len(), 3);
    // Many more lines: the entry keeps the last LIVE_KEEP, shows the last LIVE_VISIBLE.
    live(&mut a, 9, &numbered(4, 300), 50, 350);
    let o = tool_out(&a);
    assert_eq!(o.live.len(), LIVE_KEEP);
    assert_eq!(o.live.front().map(String::as_str), Some("line 101"));
    assert_eq!(o.live.back().map(String::as_str), Some("line 300"));
    assert_eq!((o.live_total, o.live_dropped), (350, 50));
    let r = rows(&a);
    let shown: Vec<&String> = r.iter().filter(|l| l.contains("line ")).collect();
    assert_eq!(shown.len(), LIVE_VISIBLE, "{r:?}");
    assert!(shown[0].ends_with(&format!("line {}", 300 - LIVE_VISIBLE + 1)));
    assert!(
        r.iter()
            .any(|l| l.contains("… 350 lines so far, 50 not shown live (rate limit)")),
        "{r:?}"
    );
}

#[test]
fn enter_opens_a_folded_output_page_by_page_and_closes_it() {
    let mut a = connected();
    start_turn(&mut a, "tail -f app.log", 9);
    call(&mut a, 9);
    live(&mut a, 9, &numbered(1191, 1200), 0, 1200);
    result(
        &mut a,
        9,
        Some(OutputRef {
            output_id: "o1".into(),
            lines: 1200,
            bytes: 12_000,
            truncated: false,
        }),
    );
    let r = rows(&a);
    assert!(
        r.iter()
            .any(|l| l.contains("… 1190 more lines · Enter opens")),
        "{r:?}"
    );
    // Enter on an empty input asks for the first page.
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::OutputPage {
            output_id: "o1".into(),
            offset: 0
        })]
    );
    assert!(
        update(&mut a, key(KeyCode::Enter)).is_empty(),
        "no second request while one is in flight"
    );
    let page = |offset: u64, from: usize, to: usize| AppEvent::Reply {
        req: Req::OutputPage {
            output_id: "o1".into(),
            offset,
        },
        result: Ok(Message::OutputPage(OutputPage {
            request_id: 1,
            output_id: "o1".into(),
            offset,
            lines: numbered(from, to),
            total_lines: 1200,
            total_bytes: 12_000,
            truncated: false,
        })),
    };
    update(&mut a, page(0, 1, 500));
    let o = tool_out(&a).opened.clone().expect("opened");
    assert_eq!(o.lines, numbered(1, 500));
    assert!(!o.loading);
    let r = rows(&a);
    assert!(r.iter().any(|l| l.ends_with("line 1")), "{r:?}");
    assert!(r
        .iter()
        .any(|l| l.contains("… 700 more lines · Enter loads more")));
    // The transcript scrolled to its tail still has the entry in view; Enter loads more.
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::OutputPage {
            output_id: "o1".into(),
            offset: 500
        })]
    );
    // A page for the wrong offset is ignored.
    update(&mut a, page(700, 701, 900));
    assert_eq!(
        tool_out(&a).opened.as_ref().map(|o| o.lines.len()),
        Some(500)
    );
    update(&mut a, key(KeyCode::Enter));
    update(&mut a, page(500, 501, 1000));
    update(&mut a, key(KeyCode::Enter));
    update(&mut a, page(1000, 1001, 1200));
    let o = tool_out(&a).opened.clone().expect("opened");
    assert_eq!(o.lines, numbered(1, 1200));
    let r = rows(&a);
    assert!(r
        .iter()
        .any(|l| l.contains("end of output, 1200 lines · Enter closes")));
    // Enter on a fully loaded output closes it.
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(tool_out(&a).opened.is_none());
}

#[test]
fn a_failed_page_can_be_asked_again_and_text_input_still_sends() {
    let mut a = connected();
    start_turn(&mut a, "ps aux", 4);
    call(&mut a, 4);
    result(
        &mut a,
        4,
        Some(OutputRef {
            output_id: "o2".into(),
            lines: 80,
            bytes: 8000,
            truncated: false,
        }),
    );
    let ask = Command::Request(Req::OutputPage {
        output_id: "o2".into(),
        offset: 0,
    });
    assert_eq!(update(&mut a, key(KeyCode::Enter)), vec![ask.clone()]);
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::OutputPage {
                output_id: "o2".into(),
                offset: 0,
            },
            result: Err("not_found".into()),
        },
    );
    assert!(tool_out(&a).opened.is_none());
    assert_eq!(update(&mut a, key(KeyCode::Enter)), vec![ask]);
    // With text in the editor, Enter sends the message as before.
    a.turn = None;
    let cmds = super::tests::submit(&mut a, "hello");
    assert!(
        cmds.iter()
            .any(|c| matches!(c, Command::Chat { text, .. } if text == "hello")),
        "{cmds:?}"
    );
}
