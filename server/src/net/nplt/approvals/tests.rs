//! Broker tests: grants answer without asking, requests wait for a reply, expire on virtual
//! time, end on cancel; replies to unknown ids; approve_always stores exactly the offer.

use std::time::Duration;

use protocol::{ApprovalDecision, ApprovalReply, ApprovalStateKind, GrantLifetime, Message};
use tokio::sync::oneshot;

use super::{Abandon, ApprovalBroker};
use crate::approvals::{Approvals, Who};
use crate::peer::Peer;
use crate::store::{Owner, Store};
use crate::turn::{ApprovalAsk, ApprovalOutcome, ApprovalReplySlot};

struct Fixture {
    _dir: tempfile::TempDir,
    store: Store,
    svc: Approvals,
    session: String,
    peer: Peer,
    owner: Owner,
    log: std::path::PathBuf,
}

impl Fixture {
    fn new() -> Fixture {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&dir.path().join("db.sqlite")).expect("store");
        let audit = llmops_tools::audit::Audit::open(dir.path()).expect("audit");
        let log = audit.path().expect("audit path").to_path_buf();
        let session = store.create_session(None).expect("session").id;
        let svc = Approvals::new(store.clone(), audit, Duration::from_secs(120));
        Fixture {
            _dir: dir,
            store,
            svc,
            session,
            peer: Peer::Tcp("127.0.0.1:40000".parse().expect("addr")),
            owner: Owner::unnamed(),
            log,
        }
    }

    fn who(&self) -> Who<'_> {
        Who {
            session_id: &self.session,
            peer: &self.peer,
            owner: &self.owner,
        }
    }

    fn audit_lines(&self) -> Vec<String> {
        std::fs::read_to_string(&self.log)
            .expect("audit log")
            .lines()
            .map(String::from)
            .collect()
    }
}

fn argv(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}

fn ask(cmd: &str, rule: &str) -> (Box<ApprovalAsk>, oneshot::Receiver<ApprovalOutcome>) {
    let (reply, rx) = ApprovalReplySlot::new();
    let a = ApprovalAsk {
        argv: argv(cmd),
        action: "kill".into(),
        tool: "command_executor".into(),
        args: serde_json::json!({"command": cmd}),
        user_request: "stop the runaway worker".into(),
        reason: "pid 4242 uses 98% CPU".into(),
        risk: "the worker's unsaved work is lost".into(),
        always: protocol::GrantScope {
            rule: argv(rule),
            text: rule.into(),
        },
        reply,
    };
    (Box::new(a), rx)
}

fn request_of(out: &[Message]) -> protocol::ApprovalRequest {
    match out {
        [Message::ApprovalRequest(r)] => (**r).clone(),
        other => panic!("expected one APPROVAL_REQUEST, got {other:?}"),
    }
}

fn state_of(out: &[Message]) -> protocol::ApprovalState {
    match out.last() {
        Some(Message::ApprovalState(s)) => s.clone(),
        other => panic!("expected APPROVAL_STATE, got {other:?}"),
    }
}

fn reply(id: &str, decision: ApprovalDecision) -> ApprovalReply {
    ApprovalReply {
        approval_id: id.into(),
        decision,
    }
}

#[tokio::test]
async fn a_matching_grant_approves_without_asking_and_counts_the_use() {
    let f = Fixture::new();
    let rule = llmops_policy::grant::GrantRule::parse(&argv("kill -TERM {pid}")).expect("rule");
    let g = f
        .svc
        .add_grant(
            f.who(),
            &rule,
            "kill -TERM <pid>",
            GrantLifetime::Session,
            "a0",
        )
        .await
        .expect("grant");
    let mut b = ApprovalBroker::default();
    let (a, rx) = ask("kill -TERM 4242", "kill -TERM {pid}");
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 9, a, &mut out).await;
    assert_eq!(out.len(), 1, "no APPROVAL_REQUEST: {out:?}");
    let s = state_of(&out);
    assert_eq!(s.state, ApprovalStateKind::Approved);
    assert_eq!(s.grant_id.as_deref(), Some(g.grant_id.as_str()));
    assert_eq!(s.request_id, Some(9));
    assert_eq!(s.argv, argv("kill -TERM 4242"));
    assert_eq!(
        rx.await.expect("answered"),
        ApprovalOutcome::Approved {
            approval_id: s.approval_id.clone(),
            grant_id: Some(g.grant_id.clone()),
        }
    );
    assert!(b.pending_ids().is_empty());
    let rows = f.store.visible_grants(&f.owner, &f.session).expect("list");
    assert_eq!(rows[0].uses, 1);
    let lines = f.audit_lines();
    let approved = lines
        .iter()
        .find(|l| l.contains("[APPROVED]"))
        .expect("APPROVED record");
    assert!(
        approved.contains(&format!("grant={}", g.grant_id)),
        "{approved}"
    );
    assert!(approved.contains("peer=127.0.0.1:40000"), "{approved}");
    assert!(
        approved.contains(&format!("session={}", f.session)),
        "{approved}"
    );
    // A different signal is not covered: it asks.
    let (a, _rx) = ask("kill -KILL 4242", "kill -KILL {pid}");
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 10, a, &mut out).await;
    assert_eq!(request_of(&out).argv, argv("kill -KILL 4242"));
}

#[tokio::test]
async fn a_request_waits_for_the_reply_and_a_second_reply_is_not_found() {
    let f = Fixture::new();
    let mut b = ApprovalBroker::default();
    let (a, rx) = ask("kill -TERM 4242", "kill -TERM {pid}");
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 3, a, &mut out).await;
    let req = request_of(&out);
    assert_eq!(req.request_id, Some(3));
    assert_eq!(req.argv, argv("kill -TERM 4242"));
    assert_eq!(req.always.rule, argv("kill -TERM {pid}"));
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    assert!(
        (now + 118..=now + 122).contains(&req.expires_at),
        "{}",
        req.expires_at
    );
    assert_eq!(b.pending_ids(), vec![req.approval_id.clone()]);

    let mut out = Vec::new();
    b.reply(
        &f.svc,
        f.who(),
        reply("nope", ApprovalDecision::ApproveOnce),
        &mut out,
    )
    .await;
    assert!(
        matches!(&out[..], [Message::Error(e)] if e.code == "not_found" && e.message.contains("nope")),
        "{out:?}"
    );
    assert_eq!(b.pending_ids().len(), 1, "an unknown id changes nothing");

    let mut out = Vec::new();
    b.reply(
        &f.svc,
        f.who(),
        reply(&req.approval_id, ApprovalDecision::ApproveOnce),
        &mut out,
    )
    .await;
    let s = state_of(&out);
    assert_eq!(
        (s.state, s.grant_id.clone()),
        (ApprovalStateKind::Approved, None)
    );
    assert_eq!(s.request_id, Some(3));
    assert_eq!(
        rx.await.expect("answered"),
        ApprovalOutcome::Approved {
            approval_id: req.approval_id.clone(),
            grant_id: None
        }
    );
    assert!(f
        .store
        .visible_grants(&f.owner, &f.session)
        .expect("list")
        .is_empty());

    let mut out = Vec::new();
    b.reply(
        &f.svc,
        f.who(),
        reply(&req.approval_id, ApprovalDecision::Reject),
        &mut out,
    )
    .await;
    assert!(
        matches!(&out[..], [Message::Error(e)] if e.code == "not_found" && e.message.contains("already ended: approved")),
        "{out:?}"
    );
    let lines = f.audit_lines();
    assert!(lines.iter().any(|l| l.contains("[APPROVAL_REQUEST]")
        && l.contains(r#"argv="[\"kill\",\"-TERM\",\"4242\"]""#)));
    assert!(lines
        .iter()
        .any(|l| l.contains("[APPROVED]") && l.contains("decision=once")));
}

#[tokio::test]
async fn approve_always_stores_exactly_the_offered_rule_and_the_next_match_is_not_asked() {
    let f = Fixture::new();
    let mut b = ApprovalBroker::default();
    let (a, rx) = ask(
        "systemctl restart nginx.service",
        "systemctl restart nginx.service",
    );
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 1, a, &mut out).await;
    let req = request_of(&out);
    let mut out = Vec::new();
    let always = ApprovalDecision::ApproveAlways {
        lifetime: GrantLifetime::UntilRevoked,
    };
    b.reply(&f.svc, f.who(), reply(&req.approval_id, always), &mut out)
        .await;
    let s = state_of(&out);
    let gid = s.grant_id.clone().expect("grant id");
    assert_eq!(s.state, ApprovalStateKind::Approved);
    assert!(
        matches!(rx.await, Ok(ApprovalOutcome::Approved { grant_id: Some(g), .. }) if g == gid)
    );
    let rows = f.store.visible_grants(&f.owner, &f.session).expect("list");
    assert_eq!(rows.len(), 1);
    assert_eq!(
        rows[0].rule.to_tokens(),
        argv("systemctl restart nginx.service")
    );
    assert_eq!(rows[0].lifetime, GrantLifetime::UntilRevoked);
    assert_eq!(rows[0].text, "systemctl restart nginx.service");
    // The same argv now runs without asking; another unit asks.
    let (a, _rx) = ask(
        "systemctl restart nginx.service",
        "systemctl restart nginx.service",
    );
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 2, a, &mut out).await;
    assert_eq!(state_of(&out).grant_id.as_deref(), Some(gid.as_str()));
    let (a, _rx) = ask(
        "systemctl restart php-fpm.service",
        "systemctl restart php-fpm.service",
    );
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 2, a, &mut out).await;
    request_of(&out);
    let lines = f.audit_lines();
    assert!(lines.iter().any(|l| l.contains("[GRANT_ADDED]")
        && l.contains(&format!("grant={gid}"))
        && l.contains("lifetime=until_revoked")));
    // Revoked: it asks again, and a second revoke is not found.
    assert!(f.svc.revoke(f.who(), &gid).await.expect("revoke").is_some());
    assert!(f.svc.revoke(f.who(), &gid).await.expect("revoke").is_none());
    let (a, _rx) = ask(
        "systemctl restart nginx.service",
        "systemctl restart nginx.service",
    );
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 4, a, &mut out).await;
    request_of(&out);
    assert!(f
        .audit_lines()
        .iter()
        .any(|l| l.contains("[GRANT_REVOKED]") && l.contains(&format!("grant={gid}"))));
}

#[tokio::test]
async fn an_offered_scope_wider_than_the_argv_allows_or_invalid_is_never_granted() {
    let f = Fixture::new();
    let mut b = ApprovalBroker::default();
    // The offered rule does not match the argv (another verb): approve_always is refused.
    for bad in [
        "systemctl stop {unit}",
        "{unit}",
        "systemctl restart {weird}",
    ] {
        let (a, rx) = ask("systemctl restart nginx.service", bad);
        let mut out = Vec::new();
        b.ask(&f.svc, f.who(), 1, a, &mut out).await;
        let req = request_of(&out);
        let mut out = Vec::new();
        let always = ApprovalDecision::ApproveAlways {
            lifetime: GrantLifetime::Session,
        };
        b.reply(&f.svc, f.who(), reply(&req.approval_id, always), &mut out)
            .await;
        assert!(
            matches!(&out[..], [Message::Error(e)] if e.code == "bad_scope"),
            "{bad}: {out:?}"
        );
        assert_eq!(
            b.pending_ids(),
            vec![req.approval_id.clone()],
            "{bad}: still pending"
        );
        let mut out = Vec::new();
        b.reply(
            &f.svc,
            f.who(),
            reply(&req.approval_id, ApprovalDecision::Reject),
            &mut out,
        )
        .await;
        assert_eq!(state_of(&out).state, ApprovalStateKind::Rejected);
        assert_eq!(
            rx.await.expect("answered"),
            ApprovalOutcome::Rejected {
                approval_id: req.approval_id.clone()
            }
        );
    }
    assert!(f
        .store
        .visible_grants(&f.owner, &f.session)
        .expect("list")
        .is_empty());
    assert!(f
        .audit_lines()
        .iter()
        .any(|l| l.contains("[REJECTED]") && l.contains("decision=reject")));
}

#[tokio::test(start_paused = true)]
async fn an_unanswered_request_expires_on_its_timer() {
    let f = Fixture::new();
    let mut b = ApprovalBroker::default();
    let (a, rx) = ask("kill -TERM 4242", "kill -TERM {pid}");
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 5, a, &mut out).await;
    let req = request_of(&out);
    let deadline = b.next_deadline().expect("a deadline");
    // Nothing expires before the deadline.
    let mut out = Vec::new();
    b.expire_due(&f.svc, f.who(), tokio::time::Instant::now(), &mut out);
    assert!(out.is_empty());
    // The timer the connection loop sleeps on fires at 120 s of virtual time.
    let start = tokio::time::Instant::now();
    tokio::time::sleep_until(deadline).await;
    assert_eq!(start.elapsed(), Duration::from_secs(120));
    b.expire_due(&f.svc, f.who(), tokio::time::Instant::now(), &mut out);
    let s = state_of(&out);
    assert_eq!(
        (s.state, s.request_id),
        (ApprovalStateKind::Expired, Some(5))
    );
    assert!(s.detail.as_deref().is_some_and(|d| d.contains("120 s")));
    assert_eq!(
        rx.await.expect("answered"),
        ApprovalOutcome::Expired {
            approval_id: req.approval_id.clone()
        }
    );
    assert!(b.next_deadline().is_none());
    let mut out = Vec::new();
    b.reply(
        &f.svc,
        f.who(),
        reply(&req.approval_id, ApprovalDecision::ApproveOnce),
        &mut out,
    )
    .await;
    assert!(
        matches!(&out[..], [Message::Error(e)] if e.code == "not_found" && e.message.contains("expired")),
        "{out:?}"
    );
    assert!(f
        .audit_lines()
        .iter()
        .any(|l| l.contains("[EXPIRED]") && l.contains(&req.approval_id)));
}

#[tokio::test]
async fn cancel_rejects_only_that_turns_requests_and_a_disconnect_rejects_all() {
    let f = Fixture::new();
    let mut b = ApprovalBroker::default();
    let (a1, rx1) = ask("kill -TERM 11", "kill -TERM {pid}");
    let (a2, rx2) = ask("kill -TERM 12", "kill -TERM {pid}");
    let mut out = Vec::new();
    b.ask(&f.svc, f.who(), 1, a1, &mut out).await;
    b.ask(&f.svc, f.who(), 2, a2, &mut out).await;
    let mut out = Vec::new();
    b.abandon(&f.svc, f.who(), Some(1), Abandon::Cancelled, &mut out);
    let s = state_of(&out);
    assert_eq!(
        (s.state, s.request_id),
        (ApprovalStateKind::Rejected, Some(1))
    );
    assert!(matches!(rx1.await, Ok(ApprovalOutcome::Rejected { .. })));
    assert_eq!(b.pending_ids().len(), 1);
    b.abandon(
        &f.svc,
        f.who(),
        None,
        Abandon::Disconnected,
        &mut Vec::new(),
    );
    assert!(matches!(rx2.await, Ok(ApprovalOutcome::Rejected { .. })));
    let lines = f.audit_lines();
    assert!(lines
        .iter()
        .any(|l| l.contains("[REJECTED]") && l.contains("reason=cancelled")));
    assert!(lines
        .iter()
        .any(|l| l.contains("[REJECTED]") && l.contains("reason=disconnected")));
}

#[tokio::test]
async fn a_denied_action_is_reported_and_audited_never_pending() {
    let f = Fixture::new();
    let mut out = Vec::new();
    ApprovalBroker::denied(
        &f.svc,
        f.who(),
        7,
        argv("kill -KILL 1"),
        "禁止: pid 1 / denied: pid 1".into(),
        &mut out,
    );
    let s = state_of(&out);
    assert_eq!(
        (s.state, s.request_id),
        (ApprovalStateKind::Denied, Some(7))
    );
    assert!(f
        .audit_lines()
        .iter()
        .any(|l| l.contains("[ACTION_DENIED]") && l.contains("pid 1")));
}
