//! `update` tests for approvals: the modal's keys (nothing by default, Enter and Esc do not
//! answer), the queue, final states, and `/grants` with revoking.

use protocol::{ApprovalDecision, ApprovalReply, ApprovalState, ApprovalStateKind, GrantLifetime};

use super::*;

pub fn request(id: &str, rid: u64, argv: &[&str]) -> Message {
    let argv: Vec<String> = argv.iter().map(|s| s.to_string()).collect();
    Message::ApprovalRequest(Box::new(protocol::ApprovalRequest {
        approval_id: id.into(),
        request_id: Some(rid),
        argv: argv.clone(),
        action: "kill".into(),
        tool: "command_executor".into(),
        args: serde_json::json!({"pid": 4242}),
        user_request: "停止占满 CPU 的 worker / stop the runaway worker".into(),
        reason: "pid 4242 uses 98% CPU for 10 minutes".into(),
        risk: "the worker's unsaved work is lost".into(),
        always: protocol::GrantScope {
            rule: ["kill", "-TERM", "{pid}"].map(String::from).to_vec(),
            text: "kill -TERM <pid>".into(),
        },
        expires_at: 1_000_113,
    }))
}

fn reply(id: &str, decision: ApprovalDecision) -> Vec<Command> {
    vec![Command::Send(Message::ApprovalReply(ApprovalReply {
        approval_id: id.into(),
        decision,
    }))]
}

fn ch(c: char) -> AppEvent {
    key(KeyCode::Char(c))
}

#[test]
fn nothing_is_chosen_by_default_and_once_always_reject_send_replies() {
    let mut a = connected();
    start_turn(&mut a, "stop the runaway worker", 7);
    turn(&mut a, request("a1", 7, &["kill", "-TERM", "4242"]));
    assert!(matches!(a.modal, Some(Modal::Approval)));
    // Enter and Esc answer nothing; the modal stays.
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(update(&mut a, key(KeyCode::Esc)).is_empty());
    assert!(matches!(a.modal, Some(Modal::Approval)));
    // s/u alone do nothing either: "always" comes first.
    assert!(update(&mut a, ch('u')).is_empty());
    assert_eq!(a.approvals.pending.len(), 1);
    // A second request queues behind the first.
    turn(&mut a, request("a2", 7, &["kill", "-TERM", "4243"]));
    turn(&mut a, request("a3", 7, &["kill", "-TERM", "4244"]));
    assert_eq!(a.approvals.pending.len(), 3);
    assert_eq!(
        update(&mut a, ch('o')),
        reply("a1", ApprovalDecision::ApproveOnce)
    );
    assert!(matches!(a.modal, Some(Modal::Approval)));
    assert_eq!(a.approvals.pending[0].approval_id, "a2");
    // Always: a, then Esc goes back, then a and u.
    assert!(update(&mut a, ch('a')).is_empty());
    assert!(a.approvals.choosing_lifetime);
    assert!(update(&mut a, key(KeyCode::Esc)).is_empty());
    assert!(!a.approvals.choosing_lifetime);
    assert!(update(&mut a, ch('a')).is_empty());
    assert_eq!(
        update(&mut a, ch('u')),
        reply(
            "a2",
            ApprovalDecision::ApproveAlways {
                lifetime: GrantLifetime::UntilRevoked
            }
        )
    );
    assert!(update(&mut a, ch('a')).is_empty());
    assert_eq!(
        update(&mut a, ch('s')),
        reply(
            "a3",
            ApprovalDecision::ApproveAlways {
                lifetime: GrantLifetime::Session
            }
        )
    );
    assert!(a.modal.is_none());
    turn(&mut a, request("a4", 7, &["kill", "-TERM", "4245"]));
    assert_eq!(
        update(&mut a, ch('r')),
        reply("a4", ApprovalDecision::Reject)
    );
    assert!(a.modal.is_none());
}

#[test]
fn a_final_state_closes_the_request_and_shows_in_the_transcript() {
    let mut a = connected();
    start_turn(&mut a, "stop it", 7);
    turn(&mut a, request("a1", 7, &["kill", "-TERM", "4242"]));
    turn(
        &mut a,
        Message::ApprovalState(ApprovalState {
            approval_id: "a1".into(),
            request_id: Some(7),
            argv: ["kill", "-TERM", "4242"].map(String::from).to_vec(),
            state: ApprovalStateKind::Expired,
            grant_id: None,
            detail: Some("nobody answered within 120 s: not run".into()),
        }),
    );
    assert!(a.approvals.pending.is_empty());
    assert!(a.modal.is_none());
    assert!(matches!(
        a.transcript.entries.last(),
        Some(Entry::System { level: Level::Warn, text })
            if text.contains("expired: kill -TERM 4242") && text.contains("120 s")
    ));
    // A grant-approved action shows its grant.
    turn(
        &mut a,
        Message::ApprovalState(ApprovalState {
            approval_id: "a2".into(),
            request_id: Some(7),
            argv: ["kill", "-TERM", "77"].map(String::from).to_vec(),
            state: ApprovalStateKind::Approved,
            grant_id: Some("g1234567890".into()),
            detail: None,
        }),
    );
    assert!(matches!(
        a.transcript.entries.last(),
        Some(Entry::System { level: Level::Ok, text }) if text.contains("approved: kill -TERM 77 (grant g1234567)")
    ));
}

pub fn grant(id: &str, text: &str, lifetime: GrantLifetime, uses: u64) -> protocol::GrantInfo {
    protocol::GrantInfo {
        grant_id: id.into(),
        scope: protocol::GrantScope {
            rule: text.split(' ').map(String::from).collect(),
            text: text.into(),
        },
        lifetime,
        session_id: "5e55104a9b7c4d2e".into(),
        created_at: "2026-11-24T03:12:00+00:00".into(),
        uses,
    }
}

#[test]
fn grants_lists_and_revokes_after_a_confirm() {
    let mut a = connected();
    assert_eq!(
        submit(&mut a, "/grants"),
        vec![Command::Request(Req::Grants)]
    );
    let list = vec![
        grant("g1", "kill -TERM {pid}", GrantLifetime::Session, 2),
        grant(
            "g2",
            "systemctl restart nginx.service",
            GrantLifetime::UntilRevoked,
            0,
        ),
    ];
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Grants,
            result: Ok(Message::Grants(protocol::Grants {
                request_id: 3,
                grants: list.clone(),
            })),
        },
    );
    assert!(matches!(&a.modal, Some(Modal::Grants(v)) if v.grants.len() == 2 && v.selected == 0));
    update(&mut a, key(KeyCode::Down));
    // d asks first; n keeps it.
    assert!(update(&mut a, ch('d')).is_empty());
    assert!(
        matches!(&a.modal, Some(Modal::Confirm(c)) if c.prompt.contains("systemctl restart nginx.service"))
    );
    assert!(update(&mut a, ch('n')).is_empty());
    assert!(!matches!(a.modal, Some(Modal::Confirm(_))));
    // From the list again: Delete then y revokes.
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Grants,
            result: Ok(Message::Grants(protocol::Grants {
                request_id: 4,
                grants: list,
            })),
        },
    );
    update(&mut a, key(KeyCode::Down));
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Delete, KeyModifiers::NONE)),
    );
    assert_eq!(
        update(&mut a, ch('y')),
        vec![Command::Request(Req::GrantRevoke("g2".into()))]
    );
    // The acknowledgement refreshes the list.
    let cmds = update(
        &mut a,
        AppEvent::Reply {
            req: Req::GrantRevoke("g2".into()),
            result: Ok(Message::Ack(protocol::Ack {
                request_id: 5,
                message: "grant revoked: systemctl restart nginx.service".into(),
            })),
        },
    );
    assert_eq!(cmds, vec![Command::Request(Req::Grants)]);
    assert!(Req::Grants.label().contains("grants"));
    let help: Vec<&str> = slash::COMMANDS.iter().map(|c| c.0).collect();
    assert!(help.contains(&"/grants"));
}
