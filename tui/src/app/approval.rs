//! Approvals in the UI: the queue of pending approval requests (shown one at a time in the
//! approval modal, oldest first), the operator's answer keys, the final states in the
//! transcript, and the `/grants` list with revoking.

use protocol::{
    ApprovalDecision, ApprovalReply, ApprovalRequest, ApprovalState, ApprovalStateKind, GrantInfo,
    GrantLifetime, Message,
};

use super::transcript::Level;
use super::{short, App, Command, Confirm, Modal, Req};
use crate::keymap::Action;
use crate::sanitize::sanitize;

/// Pending approval requests and the state of the modal's two-step "always".
#[derive(Debug, Clone, Default)]
pub struct ApprovalQueue {
    /// Oldest first; the modal shows the first.
    pub pending: Vec<ApprovalRequest>,
    /// `a` was pressed: waiting for `s` (this session) or `u` (until revoked).
    pub choosing_lifetime: bool,
}

/// The `/grants` list.
#[derive(Debug, Clone, Default)]
pub struct GrantsView {
    pub grants: Vec<GrantInfo>,
    pub selected: usize,
}

/// The one way an argv is written everywhere (modal, tool line, transcript): each
/// argument shell-quoted, separated by spaces.
pub fn argv_text(argv: &[String]) -> String {
    argv.iter()
        .map(|a| {
            let a = sanitize(a);
            shlex::try_quote(&a)
                .map(|c| c.into_owned())
                .unwrap_or_else(|_| format!("{a:?}"))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The notice Esc shows while a request waits (it goes once the request is answered).
pub const WAITING: &str =
    "操作等待批准：o 单次 / a 始终 / r 拒绝 — the action waits: o once, a always, r reject";

/// An APPROVAL_REQUEST arrived (turn stream or client event).
pub fn on_request(app: &mut App, r: ApprovalRequest) {
    if app
        .approvals
        .pending
        .iter()
        .any(|p| p.approval_id == r.approval_id)
    {
        return;
    }
    // The tool line shows exactly what the modal shows.
    if let Some(id) = r.request_id {
        app.transcript.action_argv(id, &argv_text(&r.argv));
    }
    if let Some(t) = &mut app.turn {
        t.status = "等待批准 / waiting for your approval".into();
    }
    app.approvals.pending.push(r);
    open_next(app);
}

/// Clears the "the action waits" notice once nothing waits any more.
fn clear_waiting(app: &mut App) {
    if app.approvals.pending.is_empty() && app.notice.as_ref().is_some_and(|n| n.1 == WAITING) {
        app.notice = None;
        app.notice_until = None;
    }
}

/// Shows the next pending request when nothing else is on screen.
pub fn open_next(app: &mut App) {
    if app.modal.is_none() && !app.approvals.pending.is_empty() {
        app.modal = Some(Modal::Approval);
    }
}

/// An APPROVAL_STATE: the request (if queued) is over; the transcript says how it ended.
pub fn on_state(app: &mut App, s: ApprovalState) {
    if let Some(i) = app
        .approvals
        .pending
        .iter()
        .position(|p| p.approval_id == s.approval_id)
    {
        app.approvals.pending.remove(i);
        if i == 0 {
            app.approvals.choosing_lifetime = false;
        }
    }
    if app.approvals.pending.is_empty() && matches!(app.modal, Some(Modal::Approval)) {
        app.modal = None;
    }
    clear_waiting(app);
    if let Some(t) = app.turn.as_mut().filter(|t| !t.cancelling) {
        t.status = match s.state {
            ApprovalStateKind::Approved => "已批准，正在执行 / approved: running it…",
            _ => "继续 / going on…",
        }
        .into();
    }
    let argv = argv_text(&s.argv);
    let (level, word) = match s.state {
        ApprovalStateKind::Approved => (Level::Ok, "已批准 / approved"),
        ApprovalStateKind::Rejected => (Level::Warn, "已拒绝 / rejected"),
        ApprovalStateKind::Expired => (Level::Warn, "已过期 / expired"),
        ApprovalStateKind::Denied => (Level::Error, "禁止 / denied"),
    };
    let mut text = format!("{word}: {argv}");
    if let Some(g) = &s.grant_id {
        text.push_str(&format!(" (grant {})", short(g)));
    }
    if let Some(d) = &s.detail {
        text.push_str(&format!(" — {}", sanitize(d)));
    }
    app.transcript.system(level, &text);
}

fn answer(app: &mut App, decision: ApprovalDecision, out: &mut Vec<Command>) {
    if app.approvals.pending.is_empty() {
        return;
    }
    let r = app.approvals.pending.remove(0);
    app.approvals.choosing_lifetime = false;
    if let Some(t) = app.turn.as_mut().filter(|t| !t.cancelling) {
        t.status = match decision {
            ApprovalDecision::Reject => "已拒绝 / rejected",
            _ => "已批准，正在执行 / approved: running it…",
        }
        .into();
    }
    out.push(Command::Send(Message::ApprovalReply(ApprovalReply {
        approval_id: r.approval_id,
        decision,
    })));
    app.modal = None;
    clear_waiting(app);
    open_next(app);
}

/// A key's action while the approval modal is open; true when it was one of its own.
pub fn on_action(app: &mut App, a: Action, out: &mut Vec<Command>) -> bool {
    let choosing = app.approvals.choosing_lifetime;
    match a {
        Action::ApproveOnce => answer(app, ApprovalDecision::ApproveOnce, out),
        Action::ApproveAlways => app.approvals.choosing_lifetime = true,
        Action::GrantSession | Action::GrantUntilRevoked if choosing => {
            let lifetime = if a == Action::GrantSession {
                GrantLifetime::Session
            } else {
                GrantLifetime::UntilRevoked
            };
            answer(app, ApprovalDecision::ApproveAlways { lifetime }, out)
        }
        Action::GrantSession | Action::GrantUntilRevoked => app.note(
            Level::Info,
            "先按 a 选择“始终” / press a (always) first, then s or u",
        ),
        Action::Reject => answer(app, ApprovalDecision::Reject, out),
        // Esc: back from the lifetime choice; otherwise the request stays (not a rejection).
        Action::Close if choosing => app.approvals.choosing_lifetime = false,
        Action::Close => app.note(Level::Info, WAITING),
        _ => return false,
    }
    true
}

/// `/grants`: ask the server for the list (the reply opens it).
pub fn open_grants(out: &mut Vec<Command>) {
    out.push(Command::Request(Req::Grants));
}

/// The GRANTS reply: shows or refreshes the list.
pub fn on_grants(app: &mut App, grants: Vec<GrantInfo>) {
    let selected = match &app.modal {
        Some(Modal::Grants(v)) => v.selected.min(grants.len().saturating_sub(1)),
        _ => 0,
    };
    if app.modal.is_none() || matches!(app.modal, Some(Modal::Grants(_))) {
        app.modal = Some(Modal::Grants(GrantsView { grants, selected }));
    }
}

/// A key's action in the `/grants` list; true when handled.
pub fn on_grants_action(app: &mut App, a: Action, out: &mut Vec<Command>) -> bool {
    let Some(Modal::Grants(v)) = &mut app.modal else {
        return false;
    };
    match a {
        Action::Up => v.selected = v.selected.saturating_sub(1),
        Action::Down => {
            if v.selected + 1 < v.grants.len() {
                v.selected += 1;
            }
        }
        Action::Refresh => open_grants(out),
        Action::Delete => {
            if let Some(g) = v.grants.get(v.selected) {
                let prompt = format!(
                    "撤销长期授权 / Revoke the standing grant “{}” ({})?",
                    sanitize(&g.scope.text),
                    lifetime_text(g.lifetime)
                );
                app.modal = Some(Modal::Confirm(Confirm {
                    prompt,
                    on_yes: vec![Command::Request(Req::GrantRevoke(g.grant_id.clone()))],
                }));
            }
        }
        Action::Close => app.modal = None,
        _ => return false,
    }
    true
}

/// A revoke was acknowledged: say so and refresh the list.
pub fn on_revoked(app: &mut App, message: &str, out: &mut Vec<Command>) {
    app.note(Level::Ok, message.to_string());
    open_grants(out);
}

pub fn lifetime_text(l: GrantLifetime) -> &'static str {
    match l {
        GrantLifetime::Session => "本会话 / this session",
        GrantLifetime::UntilRevoked => "直到撤销 / until revoked",
    }
}
