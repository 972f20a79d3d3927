//! `run_action`: runs one approved mutating action and checks what it did. It is not a
//! registry tool: a model or planner tool call named `run_action` only proposes; the agent
//! checks the proposal (`llmops_policy::ActionPolicy`), asks the operator, and calls
//! [`run_approved`] with an [`Approved`] only when the answer was an approval. Right before
//! running, the grammar and deny rules are checked again (the process behind a pid may have
//! changed). The argv runs without a shell (cleared environment, `SAFE_PATH`, timeout,
//! output bounded), an `ACTION_EXEC` audit record is written, then the effect is verified
//! (`verify`): `systemctl is-active`, the pid gone, the journal's disk usage before/after.

mod exec;
mod procfs;
mod verify;

use std::time::Duration;

use serde::Serialize;

use crate::audit::AuditOp;
use crate::{ToolCtx, ToolData, ToolResult};

use llmops_policy::{ActionKind, ActionPolicy, ProposedAction};

pub use exec::{run_argv, ExecResult};
pub use procfs::{proc_info, proc_state, ProcState};
pub use verify::{Verdict, Verification};

/// How long an action may run (a `systemctl restart` waits for the unit to start).
pub const ACTION_TIMEOUT: Duration = Duration::from_secs(90);
/// How long verification waits for a signalled process to exit or a unit to settle.
pub const VERIFY_WAIT: Duration = Duration::from_secs(3);
/// Output kept from an action, per stream.
pub const MAX_ACTION_OUTPUT: usize = 16 * 1024;

/// An action the operator (or a standing grant) approved. Construct it only from an
/// `ApprovalOutcome::Approved` in hand: the agent's approval path is the one caller.
#[derive(Debug, Clone, PartialEq)]
pub struct Approved {
    proposal: ProposedAction,
    approval_id: String,
    grant_id: Option<String>,
}

impl Approved {
    /// The approval of `proposal` by `approval_id` (and the standing grant that gave it).
    pub fn new(proposal: ProposedAction, approval_id: String, grant_id: Option<String>) -> Self {
        Approved {
            proposal,
            approval_id,
            grant_id,
        }
    }

    pub fn proposal(&self) -> &ProposedAction {
        &self.proposal
    }
}

/// Where a proposed action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionState {
    /// It ran (see the exit code and the verification).
    Ran,
    /// A deny rule or the grammar refused it: never offered for approval.
    Denied,
    Rejected,
    Expired,
    /// The client cannot approve (legacy).
    Unsupported,
    /// The turn was cancelled while waiting.
    Cancelled,
    /// Approved, but it could not start (not installed, refused by the re-check).
    Failed,
}

impl ActionState {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionState::Ran => "ran",
            ActionState::Denied => "denied",
            ActionState::Rejected => "rejected",
            ActionState::Expired => "expired",
            ActionState::Unsupported => "unsupported",
            ActionState::Cancelled => "cancelled",
            ActionState::Failed => "failed",
        }
    }
}

/// `ToolData::Action`: one proposed action and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionData {
    /// `systemctl restart`, `kill`, `journalctl vacuum` or a configured action's name.
    pub action: String,
    /// Exactly what ran (or would have run).
    pub argv: Vec<String>,
    pub state: ActionState,
    pub approval_id: Option<String>,
    pub grant_id: Option<String>,
    /// None when it did not run, timed out or was ended by a signal.
    pub exit_code: Option<i32>,
    pub duration_ms: u64,
    pub timed_out: bool,
    /// stdout then stderr, each bounded.
    pub output: String,
    pub verification: Option<Verification>,
    /// Why it did not run, in one sentence.
    pub detail: Option<String>,
}

impl ActionData {
    /// A proposal that did not run, and why.
    pub fn not_run(
        action: String,
        argv: Vec<String>,
        state: ActionState,
        approval_id: Option<String>,
        detail: String,
    ) -> ActionData {
        ActionData {
            action,
            argv,
            state,
            approval_id,
            grant_id: None,
            exit_code: None,
            duration_ms: 0,
            timed_out: false,
            output: String::new(),
            verification: None,
            detail: Some(detail),
        }
    }

    /// One paragraph for the answer: what ran, its exit code and what verification saw, or
    /// that it did not run and why.
    pub fn summary(&self) -> String {
        let cmd = self.argv.join(" ");
        match self.state {
            ActionState::Ran => {
                let code = match (self.exit_code, self.timed_out) {
                    (_, true) => format!(
                        "超时 ({} 秒) 被终止 / timed out after {} s and was stopped",
                        ACTION_TIMEOUT.as_secs(),
                        ACTION_TIMEOUT.as_secs()
                    ),
                    (Some(c), _) => format!("退出码 {c} / exit code {c}"),
                    (None, _) => "被信号终止，无退出码 / ended by a signal, no exit code".into(),
                };
                let mut s = format!("已执行 `{cmd}`，{code}。/ Ran `{cmd}`.");
                if let Some(v) = &self.verification {
                    s.push_str(&format!("\n验证 / verification: {}", v.detail));
                }
                s
            }
            state => format!(
                "未执行 `{cmd}` ({}): {} / not run",
                state.as_str(),
                self.detail.as_deref().unwrap_or("")
            ),
        }
    }

    /// Whether it ran and exited 0.
    pub fn succeeded(&self) -> bool {
        self.state == ActionState::Ran && self.exit_code == Some(0) && !self.timed_out
    }
}

/// `ToolData::Actions`: every stage of one `run_action` call, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionsData {
    pub actions: Vec<ActionData>,
}

impl ActionsData {
    /// The step's result: ok when every stage ran and exited 0; the output says, per
    /// stage, what ran with its exit code and verification, or why it did not run.
    pub fn into_result(self) -> ToolResult {
        let text = self
            .actions
            .iter()
            .map(ActionData::summary)
            .collect::<Vec<_>>()
            .join("\n");
        let ok = !self.actions.is_empty() && self.actions.iter().all(ActionData::succeeded);
        let duration: u64 = self.actions.iter().map(|a| a.duration_ms).sum();
        let mut r = if ok {
            ToolResult::success(text, ToolData::Actions(self))
        } else {
            let mut r = ToolResult::failure_with_data(text.clone(), ToolData::Actions(self));
            r.output = text;
            r
        };
        r.duration_ms = duration;
        r
    }
}

/// Runs an approved action: re-check, run, audit `ACTION_EXEC`, verify.
pub async fn run_approved(approved: Approved, policy: &ActionPolicy, ctx: &ToolCtx) -> ActionData {
    let Approved {
        proposal,
        approval_id,
        grant_id,
    } = approved;
    let name = proposal.action.name();
    let argv_text = proposal.argv.join(" ");
    if let Err(e) = policy.recheck(&proposal, &proc_info) {
        ctx.audit.record(
            AuditOp::ActionDenied,
            &[
                ("session", &ctx.session_id),
                ("approval", &approval_id),
                ("argv", &argv_text),
                ("code", e.code()),
                ("reason", &format!("recheck before exec: {e}")),
            ],
        );
        let state = if e.is_denied() {
            ActionState::Denied
        } else {
            ActionState::Failed
        };
        let detail = format!("执行前复查未通过 / refused by the check right before running: {e}");
        return ActionData::not_run(name, proposal.argv, state, Some(approval_id), detail);
    }
    let before = verify::before(&proposal.action, &ctx.cancel).await;
    let res = run_argv(
        &proposal.argv,
        ACTION_TIMEOUT,
        MAX_ACTION_OUTPUT,
        &ctx.cancel,
    )
    .await;
    let exit = res
        .exit_code
        .map_or_else(|| "none".to_string(), |c| c.to_string());
    let duration = res.duration_ms.to_string();
    let mut fields: Vec<(&str, &str)> = vec![
        ("session", &ctx.session_id),
        ("action", &name),
        ("argv", &argv_text),
        ("approval", &approval_id),
        ("exit_code", &exit),
        ("duration_ms", &duration),
    ];
    if let Some(g) = &grant_id {
        fields.push(("grant", g));
    }
    if let Some(c) = &ctx.client {
        fields.push(("client", c));
    }
    if res.timed_out {
        fields.push(("timed_out", "true"));
    }
    if let Some(e) = &res.spawn_error {
        fields.push(("error", e));
    }
    ctx.audit.record(AuditOp::ActionExec, &fields);
    if let Some(e) = res.spawn_error {
        let mut d = ActionData::not_run(
            name,
            proposal.argv,
            ActionState::Failed,
            Some(approval_id),
            e,
        );
        d.grant_id = grant_id;
        return d;
    }
    let verification = if res.timed_out || ctx.cancel.is_cancelled() {
        None
    } else {
        Some(verify::after(&proposal.action, before, &ctx.cancel).await)
    };
    let mut output = res.stdout;
    if !res.stderr.is_empty() {
        if !output.is_empty() && !output.ends_with('\n') {
            output.push('\n');
        }
        output.push_str(&res.stderr);
    }
    ActionData {
        action: name,
        argv: proposal.argv,
        state: ActionState::Ran,
        approval_id: Some(approval_id),
        grant_id,
        exit_code: res.exit_code,
        duration_ms: res.duration_ms,
        timed_out: res.timed_out,
        output,
        verification,
        detail: None,
    }
}

/// Whether a proposal's kind is one this module verifies (configured actions are not).
pub fn verifiable(kind: &ActionKind) -> bool {
    !matches!(kind, ActionKind::Configured { .. })
}

#[cfg(test)]
mod tests;
