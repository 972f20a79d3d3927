//! `update` tests for the pager (tool output paging in, scrolling, search, copy, save),
//! message selection, transcript search, the session picker, the hit viewer and the
//! "did you mean" question.

use protocol::{
    AgentEvent, AgentEventKind, Message, OutputPage, OutputRef, SearchHit, SearchResults,
    SessionInfo, SessionOp, SessionReply, StreamDelta, StreamEnd, StreamStart,
};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::*;
use crate::app::tests::{connected, ctrl, key, start_turn, submit, turn, type_str};
use crate::app::{update, App, AppEvent, Command, Modal, Req};
use crate::client::ClientEvent;

fn alt(code: KeyCode) -> AppEvent {
    AppEvent::Key(KeyEvent::new(code, KeyModifiers::ALT))
}

fn pager(a: &App) -> &Pager {
    match &a.modal {
        Some(Modal::Pager(p)) => p,
        _ => panic!("no pager"),
    }
}

/// A turn with a command_executor call whose stored output has `lines` lines, then an
/// answer with a code block.
pub(crate) fn tool_turn(a: &mut App, lines: u64) {
    start_turn(a, "ps -ef", 3);
    let ev = |event| {
        Message::AgentEvent(AgentEvent {
            request_id: 3,
            event,
        })
    };
    turn(
        a,
        ev(AgentEventKind::ToolCall {
            step: 1,
            tool: "command_executor".into(),
            args: serde_json::json!({"command": "ps", "args": ["-ef"]}),
        }),
    );
    turn(
        a,
        ev(AgentEventKind::ToolResult {
            step: 1,
            tool: "command_executor".into(),
            ok: true,
            duration_ms: 12,
            summary: format!("{lines} lines"),
            output: Some(OutputRef {
                output_id: "out1".into(),
                lines,
                bytes: lines * 20,
                truncated: false,
            }),
        }),
    );
    turn(a, Message::StreamStart(StreamStart { request_id: 3 }));
    turn(
        a,
        Message::StreamDelta(StreamDelta {
            request_id: 3,
            text: "共 3 个 nginx 进程：\n\n```sh\nps -C nginx -o pid,rss\n```\n".into(),
        }),
    );
    turn(
        a,
        Message::StreamEnd(StreamEnd {
            request_id: 3,
            status: protocol::EndStatus::Ok,
            message: None,
        }),
    );
}

pub(crate) fn page(offset: u64, from: u64, to: u64, total: u64) -> AppEvent {
    AppEvent::Reply {
        req: Req::OutputPage {
            output_id: "out1".into(),
            offset,
        },
        result: Ok(Message::OutputPage(OutputPage {
            request_id: 1,
            output_id: "out1".into(),
            offset,
            lines: (from..to)
                .map(|i| {
                    if i % 50 == 7 {
                        format!("root {i} nginx: worker")
                    } else {
                        format!("op {i} bash")
                    }
                })
                .collect(),
            total_lines: total,
            total_bytes: total * 20,
            truncated: false,
        })),
    }
}

#[test]
fn selected_tool_line_opens_the_pager_and_pages_the_whole_output_in() {
    let mut a = connected();
    tool_turn(&mut a, 700);
    // Alt+Up selects the last entry (the answer), again the tool line.
    update(&mut a, alt(KeyCode::Up));
    assert_eq!(a.selected, Some(a.transcript.entries.len() - 1));
    update(&mut a, alt(KeyCode::Up));
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::OutputPage {
            output_id: "out1".into(),
            offset: 0
        })]
    );
    // Pages arrive; the pager asks for the next until it has all.
    let next = update(&mut a, page(0, 0, 500, 700));
    assert_eq!(
        next,
        vec![Command::Request(Req::OutputPage {
            output_id: "out1".into(),
            offset: 500
        })]
    );
    assert!(update(&mut a, page(500, 500, 700, 700)).is_empty());
    let p = pager(&a);
    assert_eq!(p.lines.len(), 700);
    assert!(matches!(p.source, Source::Output { loading: false, .. }));
    // Scrolling: j, PgDn, G, g.
    update(&mut a, key(KeyCode::Char('j')));
    assert_eq!(pager(&a).top, 1);
    update(&mut a, key(KeyCode::PageDown));
    assert_eq!(pager(&a).top, 1 + 27);
    update(&mut a, key(KeyCode::Char('G')));
    assert_eq!(pager(&a).top, 700 - 28);
    update(&mut a, key(KeyCode::Char('g')));
    assert_eq!(pager(&a).top, 0);
    // q closes; the selection stays.
    update(&mut a, key(KeyCode::Char('q')));
    assert!(a.modal.is_none());
    // Esc clears the selection: Enter goes back to opening the output inline.
    update(&mut a, key(KeyCode::Esc));
    assert_eq!(a.selected, None);
}

#[test]
fn search_counts_matches_and_n_and_shift_n_move_between_them() {
    let mut a = connected();
    tool_turn(&mut a, 700);
    update(&mut a, alt(KeyCode::Up));
    update(&mut a, alt(KeyCode::Up));
    update(&mut a, key(KeyCode::Enter));
    update(&mut a, page(0, 0, 500, 700));
    update(&mut a, page(500, 500, 700, 700));
    update(&mut a, key(KeyCode::Char('/')));
    assert!(pager(&a).prompt.is_some());
    assert_eq!(a.ctx(), crate::keymap::Ctx::PagerPrompt);
    type_str(&mut a, "NGINX");
    update(&mut a, key(KeyCode::Enter));
    let p = pager(&a);
    // Lines 7, 57, ..., 657: 14 of them, case-insensitive.
    assert_eq!(p.matches.len(), 14);
    assert_eq!(p.current, Some(0));
    assert_eq!(p.matches[0].line, 7);
    assert!(a
        .notice
        .as_ref()
        .is_some_and(|n| n.1.contains("14 matches")));
    update(&mut a, key(KeyCode::Char('n')));
    assert_eq!(pager(&a).current, Some(1));
    assert!(pager(&a).top <= 57 && 57 < pager(&a).top + 28);
    update(&mut a, key(KeyCode::Char('N')));
    update(&mut a, key(KeyCode::Char('N')));
    // Wraps to the last match and shows it.
    let p = pager(&a);
    assert_eq!(p.current, Some(13));
    assert!(p.top <= 657 && 657 < p.top + 28, "top {}", p.top);
    // Esc in the prompt closes only the prompt.
    update(&mut a, key(KeyCode::Char('/')));
    update(&mut a, key(KeyCode::Esc));
    assert!(matches!(a.modal, Some(Modal::Pager(_))));
}

#[test]
fn copy_writes_osc52_and_a_fallback_file_and_save_asks_before_replacing() {
    let d = tempfile::tempdir().expect("temp dir");
    let mut a = connected();
    a.clip_dir = d.path().join("state");
    a.download_dir = d.path().join("dl");
    tool_turn(&mut a, 3);
    update(&mut a, alt(KeyCode::Up));
    update(&mut a, key(KeyCode::Enter));
    let p = pager(&a);
    assert_eq!(p.title, "answer");
    assert_eq!(p.code_blocks, vec![3..4]);
    // y: the answer's Markdown source, exactly.
    let cmds = update(&mut a, key(KeyCode::Char('y')));
    let src = "共 3 个 nginx 进程：\n\n```sh\nps -C nginx -o pid,rss\n```\n";
    assert_eq!(cmds, vec![Command::Clipboard(src.into())]);
    let file = d.path().join("state/clipboard.txt");
    assert_eq!(std::fs::read_to_string(&file).expect("fallback"), src);
    let n = a.notice.clone().expect("notice").1;
    assert!(
        n.contains("OSC 52") && n.contains(&file.display().to_string()),
        "{n}"
    );
    // Y: only the code block.
    let cmds = update(&mut a, key(KeyCode::Char('Y')));
    assert_eq!(
        cmds,
        vec![Command::Clipboard("ps -C nginx -o pid,rss".into())]
    );
    assert_eq!(
        osc52("hi"),
        "\x1b]52;c;aGk=\x07",
        "base64 of 'hi' in the OSC 52 sequence"
    );
    // s: prompt with the default path; Enter saves.
    update(&mut a, key(KeyCode::Char('s')));
    let want = d.path().join("dl/llmops-answer.md");
    let typed = pager(&a)
        .prompt
        .as_ref()
        .map(|p| p.input.lines().join(""))
        .expect("prompt");
    assert_eq!(typed, want.display().to_string());
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(std::fs::read_to_string(&want).expect("saved"), src);
    assert!(pager(&a).prompt.is_none());
    // A second save to the same path asks first: the first Enter only warns.
    std::fs::write(&want, "old").expect("write");
    update(&mut a, key(KeyCode::Char('s')));
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(std::fs::read_to_string(&want).expect("kept"), "old");
    assert!(pager(&a)
        .prompt
        .as_ref()
        .and_then(|p| p.error.clone())
        .is_some_and(|e| e.contains("exists")));
    update(&mut a, key(KeyCode::Enter));
    assert_eq!(std::fs::read_to_string(&want).expect("replaced"), src);
}

#[test]
fn ctrl_f_searches_the_whole_transcript() {
    let mut a = connected();
    tool_turn(&mut a, 3);
    update(&mut a, ctrl('f'));
    assert!(pager(&a).prompt.is_some());
    type_str(&mut a, "nginx");
    update(&mut a, key(KeyCode::Enter));
    let p = pager(&a);
    assert_eq!(p.title, "transcript");
    // The answer's sentence and its code line.
    assert_eq!(p.matches.len(), 2, "{:?}", p.lines);
    assert!(p.lines.iter().any(|l| l.starts_with("▸ command_executor")));
}

fn hit(chunk: &str) -> SearchHit {
    SearchHit {
        filename: "nginx.md".into(),
        filepath: "/srv/docs/nginx.md".into(),
        similarity: 0.8,
        chunk: chunk.into(),
        position: "lines 40-43".into(),
        match_type: "hybrid".into(),
        file_id: None,
    }
}

#[test]
fn enter_on_a_hit_shows_its_region_with_terms_and_d_asks_for_a_download() {
    let mut a = connected();
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::SearchResults(
            SearchResults {
                request_id: None,
                query: "worker processes".into(),
                scope: "all".into(),
                results: vec![hit(
                    "# Tuning\nworker_processes auto;\nSet worker processes to the cores.\nend",
                )],
            },
        ))),
    );
    a.focus = crate::keymap::Pane::Search;
    update(&mut a, key(KeyCode::Enter));
    let p = pager(&a);
    assert_eq!(p.first_line, Some(40));
    assert_eq!(p.terms, vec!["processes", "worker"]);
    // worker, processes (line 1, "worker_processes"), worker, processes (line 2).
    assert_eq!(p.matches.len(), 4);
    update(&mut a, key(KeyCode::Char('n')));
    update(&mut a, key(KeyCode::Char('n')));
    assert_eq!(pager(&a).current, Some(1));
    update(&mut a, key(KeyCode::Char('p')));
    assert_eq!(pager(&a).current, Some(0));
    let cmds = update(&mut a, key(KeyCode::Char('d')));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Download("/srv/docs/nginx.md".into()))]
    );
}

/// Opens the hit of `hit(...)` for "worker processes"; returns the commands of Enter.
pub(crate) fn open_hit(a: &mut App) -> Vec<Command> {
    update(
        a,
        AppEvent::Client(ClientEvent::Message(Message::SearchResults(
            SearchResults {
                request_id: None,
                query: "worker processes".into(),
                scope: "all".into(),
                results: vec![hit(
                    "# Tuning\nworker_processes auto;\nSet worker processes to the cores.\nend",
                )],
            },
        ))),
    );
    a.focus = crate::keymap::Pane::Search;
    update(a, key(KeyCode::Enter))
}

/// The region the server would send for lines 10..=73 of a file whose lines 40-43 are
/// the chunk and whose line 20 and 60 mention a worker.
pub(crate) fn region_reply() -> AppEvent {
    let lines: Vec<String> = (10..=73)
        .map(|n| match n {
            20 => "worker_connections 1024;".to_string(),
            40 => "# Tuning".to_string(),
            41 => "worker_processes auto;".to_string(),
            42 => "Set worker processes to the cores.".to_string(),
            43 => "end".to_string(),
            60 => "# one worker per core".to_string(),
            n => format!("line {n}"),
        })
        .collect();
    AppEvent::Reply {
        req: Req::FileRegion {
            target: "/srv/docs/nginx.md".into(),
            first_line: 10,
            last_line: 73,
        },
        result: Ok(Message::FileRegionReply(protocol::FileRegionReply {
            request_id: 9,
            path: "/srv/docs/nginx.md".into(),
            first_line: 10,
            lines,
            total_lines: 120,
        })),
    }
}

#[test]
fn a_hit_asks_for_its_region_and_marks_the_chunk_in_it() {
    let mut a = connected();
    let cmds = open_hit(&mut a);
    // ±30 lines around lines 40-43.
    assert_eq!(
        cmds,
        vec![Command::Request(Req::FileRegion {
            target: "/srv/docs/nginx.md".into(),
            first_line: 10,
            last_line: 73,
        })]
    );
    assert!(matches!(
        pager(&a).source,
        Source::Hit { loading: true, .. }
    ));
    update(&mut a, region_reply());
    let p = pager(&a);
    assert_eq!(p.lines.len(), 64);
    assert_eq!(p.first_line, Some(10));
    assert_eq!(p.lines[30], "# Tuning");
    // The chunk's four lines (40-43) are marked.
    assert_eq!(p.marked, Some(30..34));
    assert!(matches!(p.source, Source::Hit { loading: false, .. }));
    // worker (20), worker + processes (41), worker + processes (42), worker (60).
    assert_eq!(p.matches.len(), 6, "{:?}", p.matches);
    // The first match inside the chunk is current, and the chunk is in view.
    let cur = p.current.expect("a current match");
    assert_eq!(p.matches[cur].line, 31);
    assert!(p.top <= 30);
    assert!(p.title.ends_with("· 120 lines in the file"), "{}", p.title);
    // n/p move between matches, across the whole region.
    update(&mut a, key(KeyCode::Char('p')));
    assert_eq!(pager(&a).matches[pager(&a).current.expect("cur")].line, 10);
    update(&mut a, key(KeyCode::Char('p')));
    assert_eq!(pager(&a).matches[pager(&a).current.expect("cur")].line, 50);
    let cmds = update(&mut a, key(KeyCode::Char('d')));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Download("/srv/docs/nginx.md".into()))]
    );
}

#[test]
fn a_refused_region_leaves_the_chunk_with_the_reason() {
    let mut a = connected();
    open_hit(&mut a);
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::FileRegion {
                target: "/srv/docs/nginx.md".into(),
                first_line: 10,
                last_line: 73,
            },
            result: Err("server error (denied): 路径不在白名单中: /srv/docs/nginx.md".into()),
        },
    );
    let p = pager(&a);
    assert_eq!(p.lines.len(), 4);
    assert_eq!(p.first_line, Some(40));
    assert_eq!(p.marked, None);
    assert!(matches!(p.source, Source::Hit { loading: false, .. }));
    let notice = a.notice.as_ref().map(|n| n.1.clone()).unwrap_or_default();
    assert!(notice.contains("路径不在白名单中"), "{notice}");
    assert!(notice.contains("chunk only"), "{notice}");
    // Not repeated in the transcript as a failed request.
    assert!(!a.transcript.entries.iter().any(|e| matches!(
        e,
        crate::app::transcript::Entry::System { text, .. } if text.contains("reading the file region")
    )));
    // A late region for a closed viewer changes nothing.
    update(&mut a, key(KeyCode::Char('q')));
    update(&mut a, region_reply());
    assert!(a.modal.is_none());
}

fn info(id: &str, name: &str, messages: u64, at: &str) -> SessionInfo {
    SessionInfo {
        id: id.into(),
        name: name.into(),
        created_at: at.into(),
        updated_at: at.into(),
        messages,
    }
}

fn list_reply(op: &str, current: &str, sessions: Vec<SessionInfo>) -> AppEvent {
    let cur = sessions
        .iter()
        .find(|s| s.id == current)
        .cloned()
        .expect("current in list");
    AppEvent::Reply {
        req: Req::Session(SessionOp::List),
        result: Ok(Message::SessionReply(SessionReply {
            request_id: 1,
            op: op.into(),
            current: cur,
            sessions,
        })),
    }
}

pub(crate) fn sessions() -> Vec<SessionInfo> {
    vec![
        info("3f2a9c0e11", "ops", 4, "2026-11-24T03:10:00+00:00"),
        info(
            "aa11bb22cc",
            "磁盘满了怎么办",
            12,
            "2026-11-23T22:41:09+00:00",
        ),
        info(
            "bb22cc33dd",
            "会话 11-23 20:00",
            0,
            "2026-11-23T20:00:00+00:00",
        ),
        info(
            "cc33dd44ee",
            "nginx 502 排查",
            6,
            "2026-11-22T09:05:00+00:00",
        ),
    ]
}

#[test]
fn sessions_picker_filters_switches_deletes_and_renames() {
    let mut a = connected();
    let cmds = submit(&mut a, "/sessions");
    assert_eq!(cmds, vec![Command::Request(Req::Session(SessionOp::List))]);
    update(&mut a, list_reply("list", "3f2a9c0e11", sessions()));
    let Some(Modal::Sessions(p)) = &a.modal else {
        panic!("no picker")
    };
    // The empty one is not listed; the current one is selected.
    assert_eq!(p.sessions.len(), 3);
    assert_eq!(p.hidden_empty, 1);
    assert_eq!(p.selected().map(|s| s.name.as_str()), Some("ops"));
    // Typing filters (d and r are letters here).
    type_str(&mut a, "nginx");
    let Some(Modal::Sessions(p)) = &a.modal else {
        panic!("no picker")
    };
    assert_eq!(p.visible().len(), 1);
    // Rename: Ctrl+R, kill the old title, type, Enter.
    update(&mut a, ctrl('r'));
    update(&mut a, ctrl('u'));
    type_str(&mut a, "502s");
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Session(SessionOp::Rename {
            id: Some("cc33dd44ee".into()),
            name: "502s".into()
        }))]
    );
    // Delete asks; n keeps it, Ctrl+D then y deletes.
    update(&mut a, ctrl('d'));
    assert_eq!(a.ctx(), crate::keymap::Ctx::Confirm);
    assert!(update(&mut a, key(KeyCode::Char('n'))).is_empty());
    update(&mut a, ctrl('d'));
    let cmds = update(&mut a, key(KeyCode::Char('y')));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Session(SessionOp::Delete {
            id: "cc33dd44ee".into()
        }))]
    );
    // Esc clears the filter; Enter on another session switches and closes.
    update(&mut a, key(KeyCode::Esc));
    update(&mut a, key(KeyCode::Down));
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Session(SessionOp::Switch {
            id: "aa11bb22cc".into()
        }))]
    );
    assert!(a.modal.is_none());
}

#[test]
fn a_mistyped_command_asks_and_enter_sends_it_as_a_message() {
    let mut a = connected();
    assert!(submit(&mut a, "/serch disk full").is_empty());
    assert!(matches!(
        a.modal,
        Some(Modal::DidYouMean {
            suggestion: "/search",
            ..
        })
    ));
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "/serch disk full".into(),
            file_ids: vec![]
        }]
    );
    // y runs the suggestion with the typed arguments.
    let mut b = connected();
    submit(&mut b, "/serch disk full");
    let cmds = update(&mut b, key(KeyCode::Char('y')));
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Search {
            query: "disk full".into(),
            scope: "all".into()
        })]
    );
    // Esc puts the text back in the editor.
    let mut c = connected();
    submit(&mut c, "/sesions");
    update(&mut c, key(KeyCode::Esc));
    assert_eq!(c.input_text(), "/sesions");
    assert!(c.modal.is_none());
}
