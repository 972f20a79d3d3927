//! Extension payloads for actions that need the operator's approval: the request, the
//! answer, the state an approval ended in, and the listing and revoking of standing grants.

use super::*;

/// `APPROVAL_REQUEST`: the agent proposes a mutating action; nothing runs until the client
/// answers with `APPROVAL_REPLY` (or the request expires, which counts as a rejection).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ApprovalRequest {
    /// Server-chosen id, echoed by the reply and by `APPROVAL_STATE`.
    pub approval_id: String,
    /// The turn that proposed the action.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// Exactly what will run, one element per argument (no shell).
    pub argv: Vec<String>,
    /// The action's name: `systemctl restart`, `kill`, `journalctl vacuum`, or a configured
    /// action's name.
    pub action: String,
    /// The tool call that led to it.
    pub tool: String,
    #[cfg_attr(test, proptest(strategy = "arb_json()"))]
    pub args: serde_json::Value,
    /// The user's message that started the turn.
    pub user_request: String,
    /// Why the agent proposes it, in one sentence.
    pub reason: String,
    /// What can go wrong (e.g. "restarting drops open connections").
    pub risk: String,
    /// What "approve always" would grant: the rule and its lifetime choices.
    pub always: GrantScope,
    /// Unix seconds after which the request counts as rejected (state `expired`).
    pub expires_at: u64,
}

/// A rule a standing grant would match, shown before it is granted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct GrantScope {
    /// The argv pattern, one token per argument: a literal, or a typed placeholder in braces
    /// (`{pid}`, `{unit}`) that matches one argument of that type (never an option, never
    /// a denied target).
    pub rule: Vec<String>,
    /// The rule as one human line, e.g. `systemctl restart nginx.service`.
    pub text: String,
}

/// How long a standing grant lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(Arbitrary))]
pub enum GrantLifetime {
    /// Until this session ends (or the grant is revoked).
    Session,
    /// Until revoked with `GRANT_REVOKE` (kept across restarts).
    UntilRevoked,
}

/// The operator's answer to an approval request.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
#[cfg_attr(test, derive(Arbitrary))]
pub enum ApprovalDecision {
    /// Run this argv once.
    ApproveOnce,
    /// Run it and grant the request's `always` scope for `lifetime`.
    ApproveAlways {
        lifetime: GrantLifetime,
    },
    Reject,
}

/// `APPROVAL_REPLY`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ApprovalReply {
    pub approval_id: String,
    #[serde(flatten)]
    pub decision: ApprovalDecision,
}

/// Where an approval ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(Arbitrary))]
pub enum ApprovalStateKind {
    /// Approved by the operator, or by a standing grant (`grant_id` set).
    Approved,
    Rejected,
    /// Nobody answered before `expires_at`.
    Expired,
    /// A deny rule forbids it: it was never offered for approval.
    Denied,
}

/// `APPROVAL_STATE`: the final state of one proposed action. Sent for every proposal of a
/// turn, including those a grant approved without asking and those a deny rule refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ApprovalState {
    pub approval_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    pub argv: Vec<String>,
    pub state: ApprovalStateKind,
    /// The standing grant that approved it without asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub grant_id: Option<String>,
    /// Why (the deny rule, the expiry), in one sentence.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// One standing grant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct GrantInfo {
    pub grant_id: String,
    pub scope: GrantScope,
    pub lifetime: GrantLifetime,
    /// The session that granted it.
    pub session_id: String,
    /// RFC 3339.
    pub created_at: String,
    /// How many actions it approved without asking.
    pub uses: u64,
}

/// `GRANTS`: the answer to `GRANTS_LIST`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Grants {
    pub request_id: RequestId,
    pub grants: Vec<GrantInfo>,
}

/// `GRANT_REVOKE`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct GrantRevoke {
    pub request_id: RequestId,
    pub grant_id: String,
}
