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

use crate::audit::AuditOp;
use crate::{ToolCtx, ToolData, ToolResult};

use llmops_policy::{ActionError, ActionKind, ActionPolicy, ProposedAction};

pub use exec::{run_argv, ExecResult};
pub use llmops_tooldata::{
    ActionData, ActionState, ActionsData, Verdict, Verification, ACTION_TIMEOUT,
};
pub use procfs::{proc_info, proc_state, ProcState};

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

/// The step result of a `run_action` call (the data type lives below the tools, the
/// result type with them).
pub trait ActionsResult {
    /// Ok when every stage ran and exited 0; the output says, per stage, what ran with its
    /// exit code and verification, or why it did not run.
    fn into_result(self) -> ToolResult;
}

impl ActionsResult for ActionsData {
    fn into_result(self) -> ToolResult {
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
        return refused_at_recheck(&e, name, proposal.argv, approval_id, ctx);
    }
    let before = verify::before(&proposal.action, &ctx.cancel).await;
    let res = run_argv(
        &proposal.argv,
        ACTION_TIMEOUT,
        MAX_ACTION_OUTPUT,
        &ctx.cancel,
    )
    .await;
    let run = RunRecord {
        name: &name,
        argv_text: &argv_text,
        approval_id: &approval_id,
        grant_id: grant_id.as_deref(),
    };
    audit_exec(ctx, &run, &res);
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

/// The policy refused the approved action on the check right before running it: audited,
/// and reported as denied (a deny rule) or failed, not run.
fn refused_at_recheck(
    e: &ActionError,
    name: String,
    argv: Vec<String>,
    approval_id: String,
    ctx: &ToolCtx,
) -> ActionData {
    let argv_text = argv.join(" ");
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
    ActionData::not_run(name, argv, state, Some(approval_id), detail)
}

/// Which approved action ran, for its audit record.
struct RunRecord<'a> {
    name: &'a str,
    argv_text: &'a str,
    approval_id: &'a str,
    grant_id: Option<&'a str>,
}

/// Records `ACTION_EXEC`: the action, its approval (and grant), exit code, duration and how
/// it ended.
fn audit_exec(ctx: &ToolCtx, run: &RunRecord<'_>, res: &ExecResult) {
    let exit = res
        .exit_code
        .map_or_else(|| "none".to_string(), |c| c.to_string());
    let duration = res.duration_ms.to_string();
    let mut fields: Vec<(&str, &str)> = vec![
        ("session", &ctx.session_id),
        ("action", run.name),
        ("argv", run.argv_text),
        ("approval", run.approval_id),
        ("exit_code", &exit),
        ("duration_ms", &duration),
    ];
    if let Some(g) = run.grant_id {
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
}

/// Whether a proposal's kind is one this module verifies (configured actions are not).
pub fn verifiable(kind: &ActionKind) -> bool {
    !matches!(kind, ActionKind::Configured { .. })
}

#[cfg(test)]
mod tests;
