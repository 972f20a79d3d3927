//! Approvals state shared by every connection: the standing grants (in the store), the
//! approval timeout, and the audit records of the approval exchange. The exchange itself
//! (pending requests of one connection, replies, expiry) lives with the connection
//! (`net/nplt/approvals.rs`); this service is what it shares with the others.
//!
//! Who sees which grant: a session sees its own session-lifetime grants and the
//! until-revoked grants of its owner (a token's name, or a local Unix user).

use std::time::Duration;

use llmops_policy::grant::GrantRule;
use llmops_tools::audit::{Audit, AuditOp};
use protocol::GrantLifetime;

use crate::peer::Peer;
use crate::store::{GrantRow, Owner, Store, StoreError};

/// Default time an operator has to answer an approval request.
pub const DEFAULT_APPROVAL_TIMEOUT_SECS: u64 = 120;

/// Whose action an audit record is about: the session, the client (its address, or its
/// Unix user) and the owner whose grants it sees.
#[derive(Debug, Clone, Copy)]
pub struct Who<'a> {
    pub session_id: &'a str,
    pub peer: &'a Peer,
    pub owner: &'a Owner,
}

pub struct Approvals {
    store: Store,
    audit: Audit,
    timeout: Duration,
}

/// The `decision=` word of an audit record.
pub fn decision_word(d: &protocol::ApprovalDecision) -> &'static str {
    match d {
        protocol::ApprovalDecision::ApproveOnce => "once",
        protocol::ApprovalDecision::ApproveAlways { .. } => "always",
        protocol::ApprovalDecision::Reject => "reject",
    }
}

pub fn lifetime_word(l: GrantLifetime) -> &'static str {
    match l {
        GrantLifetime::Session => "session",
        GrantLifetime::UntilRevoked => "until_revoked",
    }
}

impl Approvals {
    pub fn new(store: Store, audit: Audit, timeout: Duration) -> Approvals {
        Approvals {
            store,
            audit,
            timeout,
        }
    }

    /// How long a request waits for the operator before it expires.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// The first grant visible to the session that matches `argv`, its use counted.
    pub async fn use_matching_grant(
        &self,
        who: Who<'_>,
        argv: &[String],
    ) -> Result<Option<GrantRow>, StoreError> {
        let (owner, sid, argv) = (who.owner.clone(), who.session_id.to_string(), argv.to_vec());
        self.store
            .run(move |s| s.use_matching_grant(&owner, &sid, &argv))
            .await
    }

    /// Grants `rule` (the scope the request offered) for `lifetime`. A visible grant that
    /// already covers it is returned instead of adding a second one. Audited `GRANT_ADDED`.
    pub async fn add_grant(
        &self,
        who: Who<'_>,
        rule: &GrantRule,
        text: &str,
        lifetime: GrantLifetime,
        approval_id: &str,
    ) -> Result<GrantRow, StoreError> {
        let (owner, sid) = (who.owner.clone(), who.session_id.to_string());
        let (r, t) = (rule.clone(), text.to_string());
        let row = self
            .store
            .run(move |s| {
                let existing = s.visible_grants(&owner, &sid)?.into_iter().find(|g| {
                    g.rule.covers(&r)
                        && (g.lifetime == lifetime || g.lifetime == GrantLifetime::UntilRevoked)
                });
                match existing {
                    Some(g) => Ok(g),
                    None => s.insert_grant(&owner, &sid, &r, &t, lifetime),
                }
            })
            .await?;
        let rule_json = tokens_json(&row.rule.to_tokens());
        self.record(
            AuditOp::GrantAdded,
            who,
            &[
                ("approval", approval_id),
                ("grant", &row.grant_id),
                ("rule", &rule_json),
                ("lifetime", lifetime_word(row.lifetime)),
            ],
        );
        Ok(row)
    }

    pub async fn list(&self, owner: &Owner, session_id: &str) -> Result<Vec<GrantRow>, StoreError> {
        let (owner, sid) = (owner.clone(), session_id.to_string());
        self.store
            .run(move |s| s.visible_grants(&owner, &sid))
            .await
    }

    /// Revokes a visible grant (audited `GRANT_REVOKED`); `None`: no such grant here.
    pub async fn revoke(
        &self,
        who: Who<'_>,
        grant_id: &str,
    ) -> Result<Option<GrantRow>, StoreError> {
        let (owner, sid) = (who.owner.clone(), who.session_id.to_string());
        let gid = grant_id.to_string();
        let row = self
            .store
            .run(move |s| s.revoke_grant(&owner, &sid, &gid))
            .await?;
        if let Some(g) = &row {
            let rule_json = tokens_json(&g.rule.to_tokens());
            self.record(
                AuditOp::GrantRevoked,
                who,
                &[
                    ("grant", &g.grant_id),
                    ("rule", &rule_json),
                    ("lifetime", lifetime_word(g.lifetime)),
                    ("uses", &g.uses.to_string()),
                ],
            );
        }
        Ok(row)
    }

    /// One audit record of the exchange: session, client (address, or `unix` with the
    /// uid and user name), then `fields`.
    pub fn record(&self, op: AuditOp, who: Who<'_>, fields: &[(&str, &str)]) {
        let peer = who.peer.audit_fields();
        let mut all: Vec<(&str, &str)> = vec![("session", who.session_id)];
        all.extend(peer.iter().map(|(k, v)| (*k, v.as_str())));
        all.extend_from_slice(fields);
        self.audit.record(op, &all);
    }

    /// An audit record about one proposed action: adds its exact argv (a JSON array, so
    /// arguments with spaces stay apart) and the approval id.
    pub fn record_action(
        &self,
        op: AuditOp,
        who: Who<'_>,
        argv: &[String],
        approval_id: &str,
        fields: &[(&str, &str)],
    ) {
        let argv = tokens_json(argv);
        let mut all: Vec<(&str, &str)> = vec![("argv", &argv), ("approval", approval_id)];
        all.extend_from_slice(fields);
        self.record(op, who, &all);
    }
}

/// Argv or rule tokens as a JSON array (the audit's exact, unambiguous form).
pub fn tokens_json(tokens: &[String]) -> String {
    serde_json::to_string(tokens).unwrap_or_else(|_| format!("{tokens:?}"))
}
