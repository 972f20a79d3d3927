//! One connection's side of the approval exchange: a proposed action is approved by a
//! standing grant at once or sent as `APPROVAL_REQUEST` and kept pending until the client's
//! `APPROVAL_REPLY`, its expiry (a deadline the connection loop's timer includes), the turn's
//! cancel or the disconnect. Every end is answered to the agent exactly once, reported as
//! `APPROVAL_STATE` with the turn's request id, and audited.
//!
//! `ApprovalBroker` holds no socket: it takes the shared `Approvals` service and the
//! connection's identity and appends the frames to send, so tests drive it directly.

use std::collections::{BTreeMap, VecDeque};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use llmops_policy::grant::GrantRule;
use llmops_tools::audit::AuditOp;
use protocol::{ApprovalDecision, ApprovalReply, ApprovalStateKind, GrantLifetime, Message};
use tokio::time::Instant;

use crate::approvals::{decision_word, lifetime_word, Approvals, Who};
use crate::store::GrantRow;
use crate::turn::{ApprovalAsk, ApprovalOutcome};

/// Finished approval ids remembered for a specific answer to a late reply.
const FINISHED_KEPT: usize = 256;

struct Pending {
    ask: Box<ApprovalAsk>,
    request_id: u64,
    /// The offered `always` scope, if it is a valid rule that matches the argv; only this
    /// rule can ever be granted for this request.
    offered: Option<GrantRule>,
    deadline: Instant,
}

/// Why pending approvals end without an answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Abandon {
    /// The turn was cancelled.
    Cancelled,
    /// The turn ended while it waited (it stopped waiting).
    TurnEnded,
    /// The connection closed.
    Disconnected,
}

impl Abandon {
    fn word(self) -> &'static str {
        match self {
            Abandon::Cancelled => "cancelled",
            Abandon::TurnEnded => "turn_ended",
            Abandon::Disconnected => "disconnected",
        }
    }

    fn text(self) -> &'static str {
        match self {
            Abandon::Cancelled => "本轮对话已取消，操作未执行 / the turn was cancelled: not run",
            Abandon::TurnEnded => "本轮对话已结束，操作未执行 / the turn ended: not run",
            Abandon::Disconnected => "连接已断开，操作未执行 / the client disconnected: not run",
        }
    }
}

#[derive(Default)]
pub struct ApprovalBroker {
    pending: BTreeMap<String, Pending>,
    /// Recently finished ids and how they ended (oldest first).
    finished: VecDeque<(String, ApprovalStateKind)>,
    /// Set when this client may not approve (a local user outside the approvers group):
    /// every proposed action ends `denied` with this reason, never offered, never run.
    refusal: Option<String>,
}

fn unix_now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0)
}

fn new_id() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

fn state_msg(
    approval_id: &str,
    request_id: u64,
    argv: &[String],
    state: ApprovalStateKind,
    grant_id: Option<String>,
    detail: Option<String>,
) -> Message {
    Message::ApprovalState(protocol::ApprovalState {
        approval_id: approval_id.to_string(),
        request_id: Some(request_id),
        argv: argv.to_vec(),
        state,
        grant_id,
        detail,
    })
}

fn state_word(s: ApprovalStateKind) -> &'static str {
    match s {
        ApprovalStateKind::Approved => "approved",
        ApprovalStateKind::Rejected => "rejected",
        ApprovalStateKind::Expired => "expired",
        ApprovalStateKind::Denied => "denied",
    }
}

impl ApprovalBroker {
    /// A broker for a client that may not approve actions, saying `why`.
    pub fn refusing(why: String) -> ApprovalBroker {
        ApprovalBroker {
            refusal: Some(why),
            ..ApprovalBroker::default()
        }
    }

    /// Pending requests (tests look at the queue).
    #[cfg(test)]
    pub fn pending_ids(&self) -> Vec<String> {
        self.pending.keys().cloned().collect()
    }

    /// The earliest expiry among pending requests.
    pub fn next_deadline(&self) -> Option<Instant> {
        self.pending.values().map(|p| p.deadline).min()
    }

    fn remember(&mut self, id: &str, state: ApprovalStateKind) {
        if self.finished.len() >= FINISHED_KEPT {
            self.finished.pop_front();
        }
        self.finished.push_back((id.to_string(), state));
    }

    /// A proposed action: a matching standing grant approves it now; otherwise the client
    /// is asked. A store failure while looking for a grant asks instead (never approves).
    pub async fn ask(
        &mut self,
        svc: &Approvals,
        who: Who<'_>,
        request_id: u64,
        ask: Box<ApprovalAsk>,
        out: &mut Vec<Message>,
    ) {
        let asked = Asked {
            svc,
            who,
            request_id,
            rid: request_id.to_string(),
            approval_id: new_id(),
        };
        if let Some(why) = self.refusal.clone() {
            self.refuse_not_approver(&asked, &ask, why, out);
            return;
        }
        match svc.use_matching_grant(who, &ask.argv).await {
            Ok(Some(g)) => {
                self.approve_by_grant(&asked, &ask, g, out);
                return;
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(
                session = %who.session_id,
                "grant lookup failed ({e}); asking the operator instead"
            ),
        }
        self.ask_client(asked, ask, out);
    }

    /// Not even a grant answers: the client is not allowed to approve at all.
    fn refuse_not_approver(
        &mut self,
        asked: &Asked<'_>,
        ask: &ApprovalAsk,
        why: String,
        out: &mut Vec<Message>,
    ) {
        let approval_id = &asked.approval_id;
        asked.svc.record_action(
            AuditOp::Rejected,
            asked.who,
            &ask.argv,
            approval_id,
            &[("request", &asked.rid), ("reason", "not_approver")],
        );
        ask.reply.send(ApprovalOutcome::Rejected {
            approval_id: approval_id.clone(),
        });
        self.remember(approval_id, ApprovalStateKind::Denied);
        out.push(state_msg(
            approval_id,
            asked.request_id,
            &ask.argv,
            ApprovalStateKind::Denied,
            None,
            Some(why),
        ));
    }

    /// A standing grant matched (its use is already counted): approved without asking,
    /// unless the agent stopped waiting.
    fn approve_by_grant(
        &mut self,
        asked: &Asked<'_>,
        ask: &ApprovalAsk,
        g: GrantRow,
        out: &mut Vec<Message>,
    ) {
        let approval_id = &asked.approval_id;
        let uses = g.uses.to_string();
        asked.svc.record_action(
            AuditOp::Approved,
            asked.who,
            &ask.argv,
            approval_id,
            &[
                ("request", &asked.rid),
                ("decision", "grant"),
                ("grant", &g.grant_id),
                ("uses", &uses),
            ],
        );
        let delivered = ask.reply.send(ApprovalOutcome::Approved {
            approval_id: approval_id.clone(),
            grant_id: Some(g.grant_id.clone()),
        });
        let (state, detail) = if delivered {
            (
                ApprovalStateKind::Approved,
                Some(format!(
                    "由长期授权批准 / approved by standing grant: {}",
                    g.text
                )),
            )
        } else {
            (
                ApprovalStateKind::Rejected,
                Some(Abandon::TurnEnded.text().to_string()),
            )
        };
        self.remember(approval_id, state);
        out.push(state_msg(
            approval_id,
            asked.request_id,
            &ask.argv,
            state,
            Some(g.grant_id),
            detail,
        ));
    }

    /// Sends APPROVAL_REQUEST and keeps the action pending until an answer or its expiry.
    fn ask_client(&mut self, asked: Asked<'_>, ask: Box<ApprovalAsk>, out: &mut Vec<Message>) {
        let offered = offered_rule(&ask);
        let timeout = asked.svc.timeout();
        let expires_at = unix_now() + timeout.as_secs().max(1);
        let exp = expires_at.to_string();
        asked.svc.record_action(
            AuditOp::ApprovalRequest,
            asked.who,
            &ask.argv,
            &asked.approval_id,
            &[
                ("request", &asked.rid),
                ("action", &ask.action),
                ("tool", &ask.tool),
                ("expires_at", &exp),
            ],
        );
        out.push(Message::ApprovalRequest(Box::new(
            protocol::ApprovalRequest {
                approval_id: asked.approval_id.clone(),
                request_id: Some(asked.request_id),
                argv: ask.argv.clone(),
                action: ask.action.clone(),
                tool: ask.tool.clone(),
                args: ask.args.clone(),
                user_request: ask.user_request.clone(),
                reason: ask.reason.clone(),
                risk: ask.risk.clone(),
                always: ask.always.clone(),
                expires_at,
            },
        )));
        self.pending.insert(
            asked.approval_id,
            Pending {
                ask,
                request_id: asked.request_id,
                offered,
                deadline: Instant::now() + timeout.max(Duration::from_secs(1)),
            },
        );
    }

    /// The client's answer. An unknown or finished id gets ERROR `not_found`; an
    /// approve_always whose offered scope is not a valid rule for this argv gets ERROR
    /// `bad_scope` and stays pending (approve once or reject still work).
    pub async fn reply(
        &mut self,
        svc: &Approvals,
        who: Who<'_>,
        reply: ApprovalReply,
        out: &mut Vec<Message>,
    ) {
        let id = reply.approval_id.clone();
        if let Err(refusal) = self.check_reply(&id, &reply.decision) {
            out.push(refusal);
            return;
        }
        let Some(p) = self.pending.remove(&id) else {
            return;
        };
        let answered = Answered {
            svc,
            who,
            rid: p.request_id.to_string(),
            id,
            decision: reply.decision,
        };
        let decided = answered.decide(&p, out).await;
        self.settle(answered, p, decided, out);
    }

    /// ERROR `not_found` for an id that is not pending, ERROR `bad_scope` for an
    /// approve_always this request offers no valid rule for.
    // The refusal is the frame sent as it is, once per refused request.
    #[allow(clippy::result_large_err)]
    fn check_reply(&self, id: &str, decision: &ApprovalDecision) -> Result<(), Message> {
        let Some(p) = self.pending.get(id) else {
            let text = match self.finished.iter().rev().find(|(f, _)| *f == id) {
                Some((_, state)) => format!(
                    "批准请求 {id} 已结束 ({0}) / approval {id} already ended: {0}",
                    state_word(*state)
                ),
                None => format!(
                    "没有这个批准请求: {id} / no approval request with id {id} on this connection"
                ),
            };
            return Err(Message::error("not_found", text, None));
        };
        if let ApprovalDecision::ApproveAlways { .. } = decision {
            if p.offered.is_none() {
                return Err(Message::error(
                    "bad_scope",
                    format!(
                        "该请求提供的长期授权范围无效，只能单次批准或拒绝 / approval {id} offers \
                         no valid standing rule; approve once or reject"
                    ),
                    None,
                ));
            }
        }
        Ok(())
    }

    /// Audits the decision, answers the agent and reports the final state: an approval
    /// the agent no longer waits for ends rejected.
    fn settle(&mut self, a: Answered<'_>, p: Pending, d: Decided, out: &mut Vec<Message>) {
        let Decided {
            outcome,
            mut grant_id,
            mut detail,
        } = d;
        let approved = matches!(outcome, ApprovalOutcome::Approved { .. });
        let mut fields: Vec<(&str, &str)> = vec![
            ("request", &a.rid),
            ("decision", decision_word(&a.decision)),
        ];
        if let ApprovalDecision::ApproveAlways { lifetime } = a.decision {
            fields.push(("lifetime", lifetime_word(lifetime)));
        }
        let gid = grant_id.clone().unwrap_or_default();
        if grant_id.is_some() {
            fields.push(("grant", &gid));
        }
        let op = if approved {
            AuditOp::Approved
        } else {
            AuditOp::Rejected
        };
        a.svc.record_action(op, a.who, &p.ask.argv, &a.id, &fields);
        let mut state = if approved {
            ApprovalStateKind::Approved
        } else {
            ApprovalStateKind::Rejected
        };
        if !p.ask.reply.send(outcome) {
            // The agent stopped waiting (turn over): nothing runs.
            if approved {
                a.svc.record_action(
                    AuditOp::Rejected,
                    a.who,
                    &p.ask.argv,
                    &a.id,
                    &[("request", &a.rid), ("reason", Abandon::TurnEnded.word())],
                );
            }
            state = ApprovalStateKind::Rejected;
            grant_id = None;
            detail = Some(Abandon::TurnEnded.text().to_string());
        }
        self.remember(&a.id, state);
        out.push(state_msg(
            &a.id,
            p.request_id,
            &p.ask.argv,
            state,
            grant_id,
            detail,
        ));
    }

    /// Ends every request whose deadline is at or before `now` as expired.
    pub fn expire_due(
        &mut self,
        svc: &Approvals,
        who: Who<'_>,
        now: Instant,
        out: &mut Vec<Message>,
    ) {
        let due: Vec<String> = self
            .pending
            .iter()
            .filter(|(_, p)| p.deadline <= now)
            .map(|(id, _)| id.clone())
            .collect();
        for id in due {
            let Some(p) = self.pending.remove(&id) else {
                continue;
            };
            let secs = svc.timeout().as_secs().max(1);
            svc.record_action(
                AuditOp::Expired,
                who,
                &p.ask.argv,
                &id,
                &[
                    ("request", &p.request_id.to_string()),
                    ("after_secs", &secs.to_string()),
                ],
            );
            p.ask.reply.send(ApprovalOutcome::Expired {
                approval_id: id.clone(),
            });
            self.remember(&id, ApprovalStateKind::Expired);
            out.push(state_msg(
                &id,
                p.request_id,
                &p.ask.argv,
                ApprovalStateKind::Expired,
                None,
                Some(format!(
                    "{secs} 秒内无人应答，操作未执行 / nobody answered within {secs} s: not run"
                )),
            ));
        }
    }

    /// Ends the pending requests of turn `request_id` (all of them with `None`) as
    /// rejected: the turn was cancelled or ended, or the connection closed.
    pub fn abandon(
        &mut self,
        svc: &Approvals,
        who: Who<'_>,
        request_id: Option<u64>,
        why: Abandon,
        out: &mut Vec<Message>,
    ) {
        let ids: Vec<String> = self
            .pending
            .iter()
            .filter(|(_, p)| request_id.is_none_or(|r| r == p.request_id))
            .map(|(id, _)| id.clone())
            .collect();
        for id in ids {
            let Some(p) = self.pending.remove(&id) else {
                continue;
            };
            svc.record_action(
                AuditOp::Rejected,
                who,
                &p.ask.argv,
                &id,
                &[
                    ("request", &p.request_id.to_string()),
                    ("reason", why.word()),
                ],
            );
            p.ask.reply.send(ApprovalOutcome::Rejected {
                approval_id: id.clone(),
            });
            self.remember(&id, ApprovalStateKind::Rejected);
            out.push(state_msg(
                &id,
                p.request_id,
                &p.ask.argv,
                ApprovalStateKind::Rejected,
                None,
                Some(why.text().to_string()),
            ));
        }
    }

    /// A proposal a deny rule refused: reported and audited, never pending.
    pub fn denied(
        svc: &Approvals,
        who: Who<'_>,
        request_id: u64,
        argv: Vec<String>,
        detail: String,
        out: &mut Vec<Message>,
    ) {
        let id = new_id();
        svc.record_action(
            AuditOp::ActionDenied,
            who,
            &argv,
            &id,
            &[("request", &request_id.to_string()), ("reason", &detail)],
        );
        out.push(state_msg(
            &id,
            request_id,
            &argv,
            ApprovalStateKind::Denied,
            None,
            Some(detail),
        ));
    }
}

/// A proposed action being answered: by whom, for which turn, under which approval id.
struct Asked<'a> {
    svc: &'a Approvals,
    who: Who<'a>,
    request_id: u64,
    /// `request_id` as the audit records it.
    rid: String,
    approval_id: String,
}

/// The offered `always` scope, if it is a valid rule that matches the argv.
fn offered_rule(ask: &ApprovalAsk) -> Option<GrantRule> {
    match GrantRule::parse(&ask.always.rule) {
        Ok(r) if r.matches(&ask.argv) => Some(r),
        Ok(r) => {
            tracing::warn!(rule = %r, "offered grant scope does not match the argv; approve_always refused for it");
            None
        }
        Err(e) => {
            tracing::warn!("offered grant scope invalid ({e}); approve_always refused for it");
            None
        }
    }
}

/// The client's answer to a pending request, taken off the queue.
struct Answered<'a> {
    svc: &'a Approvals,
    who: Who<'a>,
    id: String,
    /// The turn's request id as the audit records it.
    rid: String,
    decision: ApprovalDecision,
}

/// What an answer means for the agent, and what the client is told about it.
struct Decided {
    outcome: ApprovalOutcome,
    grant_id: Option<String>,
    detail: Option<String>,
}

impl Answered<'_> {
    /// The outcome of the decision, and what the client is told about it.
    async fn decide(&self, p: &Pending, out: &mut Vec<Message>) -> Decided {
        let approval_id = self.id.clone();
        match self.decision {
            ApprovalDecision::Reject => Decided {
                outcome: ApprovalOutcome::Rejected { approval_id },
                grant_id: None,
                detail: Some("操作员拒绝 / rejected by the operator".to_string()),
            },
            ApprovalDecision::ApproveOnce => Decided {
                outcome: ApprovalOutcome::Approved {
                    approval_id,
                    grant_id: None,
                },
                grant_id: None,
                detail: None,
            },
            ApprovalDecision::ApproveAlways { lifetime } => {
                self.approve_always(p, lifetime, out).await
            }
        }
    }

    /// Stores the offered grant and approves; when the grant cannot be stored, approves
    /// once only and says so (ERROR `internal`).
    async fn approve_always(
        &self,
        p: &Pending,
        lifetime: GrantLifetime,
        out: &mut Vec<Message>,
    ) -> Decided {
        let id = &self.id;
        let rule = p
            .offered
            .as_ref()
            .expect("check_reply refuses approve_always without an offered rule");
        match self
            .svc
            .add_grant(self.who, rule, &p.ask.always.text, lifetime, id)
            .await
        {
            Ok(g) => Decided {
                outcome: ApprovalOutcome::Approved {
                    approval_id: id.clone(),
                    grant_id: Some(g.grant_id.clone()),
                },
                grant_id: Some(g.grant_id),
                detail: None,
            },
            Err(e) => {
                tracing::warn!(session = %self.who.session_id, "grant not saved: {e}");
                out.push(Message::error(
                    "internal",
                    format!(
                        "长期授权未保存，本次仅单次批准 / the standing grant was not \
                         saved ({e}); approved once only"
                    ),
                    None,
                ));
                Decided {
                    outcome: ApprovalOutcome::Approved {
                        approval_id: id.clone(),
                        grant_id: None,
                    },
                    grant_id: None,
                    detail: None,
                }
            }
        }
    }
}

impl super::Conn {
    /// GRANTS_LIST: the grants this session can see.
    pub(super) async fn grants_list(&self, request_id: u64) -> Message {
        match self.ctx.approvals.list(&self.owner, &self.session_id).await {
            Ok(rows) => Message::Grants(protocol::Grants {
                request_id,
                grants: rows.iter().map(|g| g.info()).collect(),
            }),
            Err(e) => crate::wire::store_error(e, request_id),
        }
    }

    /// GRANT_REVOKE: ACK, or ERROR `not_found` for a grant this session cannot see.
    pub(super) async fn grant_revoke(&self, r: protocol::GrantRevoke) -> Message {
        match self.ctx.approvals.revoke(who!(self), &r.grant_id).await {
            Ok(Some(g)) => Message::Ack(protocol::Ack {
                request_id: r.request_id,
                message: format!(
                    "已撤销长期授权 / grant revoked: {} (已使用 {} 次 / used {} times)",
                    g.text, g.uses, g.uses
                ),
            }),
            Ok(None) => Message::error(
                "not_found",
                format!(
                    "没有这个长期授权: {0} / no standing grant {0} visible to this session",
                    r.grant_id
                ),
                Some(r.request_id),
            ),
            Err(e) => crate::wire::store_error(e, r.request_id),
        }
    }
}

#[cfg(test)]
mod tests;
