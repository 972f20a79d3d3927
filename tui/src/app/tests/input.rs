//! `update` tests for the editor and the panes: scrolling, editing keys, history, paste,
//! referenced files, uploads, the browser, reconnecting and help.

use super::*;

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
        a.gauges
            .history
            .iter()
            .map(|p| p.cpu_percent)
            .collect::<Vec<_>>(),
        vec![10.0, 20.0, 30.0]
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

/// An upload's result comes once it is saved; a `/search` right after cannot see it yet.
/// The search runs again when the file is indexed, and says so meanwhile.
#[test]
fn a_search_before_an_upload_is_indexed_runs_again_once_it_is() {
    let mut a = connected();
    let mut saved = file("new1", "app.log");
    saved.state = "saved".into();
    a.files.files.push(saved);
    assert_eq!(
        submit(&mut a, "/search inventory timeout"),
        vec![Command::Request(Req::Search {
            query: "inventory timeout".into(),
            scope: "all".into()
        })]
    );
    let empty = |request_id| {
        Ok(Message::SearchResults(protocol::SearchResults {
            request_id: Some(request_id),
            query: "inventory timeout".into(),
            scope: "all".into(),
            results: vec![],
        }))
    };
    let search = Req::Search {
        query: "inventory timeout".into(),
        scope: "all".into(),
    };
    update(
        &mut a,
        AppEvent::Reply {
            req: search.clone(),
            result: empty(1),
        },
    );
    assert_eq!(a.search.awaiting_index, 1);
    let status = |state: &str| {
        AppEvent::Client(ClientEvent::Message(Message::UploadStatus(
            protocol::UploadStatus {
                file_id: "new1".into(),
                filename: "app.log".into(),
                state: state.into(),
                detail: None,
                done: 0,
                total: 0,
            },
        )))
    };
    assert_eq!(
        update(&mut a, status("indexed")),
        vec![Command::Request(search.clone())]
    );
    assert!(a.search.pending);
    // Once every upload is searchable, an empty answer is final: no search loop.
    update(
        &mut a,
        AppEvent::Reply {
            req: search,
            result: empty(2),
        },
    );
    assert_eq!(a.search.awaiting_index, 0);
    assert!(update(&mut a, status("ready")).is_empty());
}
