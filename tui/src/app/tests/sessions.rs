//! `update` tests for slash commands, completion and sessions (switch, remember, change).

use super::*;

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

fn session_reply(op: &str, id: &str, name: &str, messages: u64) -> Result<Message, String> {
    let info = protocol::SessionInfo {
        id: id.into(),
        name: name.into(),
        created_at: String::new(),
        updated_at: String::new(),
        messages,
    };
    Ok(Message::SessionReply(protocol::SessionReply {
        request_id: 1,
        op: op.into(),
        current: info.clone(),
        sessions: vec![info],
    }))
}

#[test]
fn a_question_typed_during_new_waits_for_the_new_session() {
    let mut a = connected();
    let cmds = submit(&mut a, "/new");
    assert_eq!(
        cmds,
        vec![Command::Request(Req::Session(SessionOp::New {
            name: None
        }))]
    );
    // Typed before the reply: held, not sent, not echoed into the old transcript.
    let cmds = submit(&mut a, "CPU使用率是多少？");
    assert!(cmds.is_empty(), "{cmds:?}");
    assert!(a.turn.is_none());
    assert_eq!(a.input_text(), "");
    // A second one is refused while the first waits, and stays in the editor.
    let cmds = submit(&mut a, "内存呢");
    assert!(cmds.is_empty());
    assert_eq!(a.input_text(), "内存呢");
    a.clear_input();
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::Session(SessionOp::New { name: None }),
            result: session_reply("new", "bbbb", "会话 11-24 04:30", 0),
        },
    );
    // The reply cleared the old transcript, then the held question went out in the new one.
    assert!(cmds.contains(&Command::Chat {
        text: "CPU使用率是多少？".into(),
        file_ids: vec![],
    }));
    assert!(a
        .transcript
        .entries
        .iter()
        .any(|e| matches!(e, Entry::User { text, .. } if text == "CPU使用率是多少？")));
    assert!(a.session_change.is_none());
    assert_eq!(a.session_id, "bbbb");
}

#[test]
fn a_question_typed_during_a_switch_waits_for_the_history() {
    let mut a = connected();
    submit(&mut a, "/switch aaaa");
    submit(&mut a, "还在吗");
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::Session(SessionOp::Switch { id: "aaaa".into() }),
            result: session_reply("switch", "aaaa1111", "db", 2),
        },
    );
    assert!(cmds.contains(&Command::Request(Req::History)));
    assert!(!cmds.iter().any(|c| matches!(c, Command::Chat { .. })));
    let history = Message::History(protocol::History {
        request_id: 2,
        session_id: "aaaa1111".into(),
        messages: vec![protocol::HistoryMessage {
            role: "user".into(),
            text: "磁盘满了".into(),
            time: String::new(),
            tool_calls: vec![],
        }],
    });
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::History,
            result: Ok(history),
        },
    );
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "还在吗".into(),
            file_ids: vec![],
        }]
    );
    let users: Vec<&str> = a
        .transcript
        .entries
        .iter()
        .filter_map(|e| match e {
            Entry::User { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(users, vec!["磁盘满了", "还在吗"]);
}

#[test]
fn a_failed_session_change_puts_the_question_back() {
    let mut a = connected();
    submit(&mut a, "/switch zzzz");
    submit(&mut a, "还在吗");
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::Session(SessionOp::Switch { id: "zzzz".into() }),
            result: Err("not found".into()),
        },
    );
    assert!(cmds.is_empty());
    assert_eq!(a.input_text(), "还在吗");
    assert!(a.session_change.is_none());
}

#[test]
fn sessions_do_not_change_while_a_turn_runs() {
    let mut a = connected();
    start_turn(&mut a, "ps -ef", 7);
    let cmds = submit(&mut a, "/new");
    assert!(cmds.is_empty());
    assert!(a.session_change.is_none());
    assert!(a.notice.as_ref().is_some_and(|n| n.1.contains("Ctrl+C")));
}

#[test]
fn the_first_answer_refreshes_the_default_title() {
    let mut a = connected();
    a.session_name = "会话 11-24 04:30".into();
    start_turn(&mut a, "内存够用吗", 5);
    let end = |id| {
        Message::StreamEnd(StreamEnd {
            request_id: id,
            status: EndStatus::Ok,
            message: None,
        })
    };
    let cmds = update(&mut a, AppEvent::TurnMsg(end(5)));
    assert_eq!(cmds, vec![Command::Request(Req::SessionTitle)]);
    let sid = a.session_id.clone();
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::SessionTitle,
            result: session_reply("list", &sid, "内存够用吗", 2),
        },
    );
    assert!(cmds.is_empty());
    assert_eq!(a.session_name, "内存够用吗");
    // Quiet: no session list in the transcript.
    assert!(!a
        .transcript
        .entries
        .iter()
        .any(|e| matches!(e, Entry::System { text, .. } if text.contains("sessions:"))));
    // A titled session asks nothing more after its turns.
    start_turn(&mut a, "CPU呢", 6);
    assert!(update(&mut a, AppEvent::TurnMsg(end(6))).is_empty());
}
