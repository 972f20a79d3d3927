//! `update` tests for download offers: the dialog, the save-as prompt, transfers.

use super::*;

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
