//! A `run_action` step: the model or planner proposes a mutating action; the turn checks it
//! (grammar, configured actions, deny rules), reports a denial (`TurnEvent::ApprovalDenied`)
//! or asks the operator for each stage in turn (`TurnEvent::Approval`, waiting on the reply
//! slot; a cancelled turn stops waiting and nothing runs), and runs a stage only with an
//! `ApprovalOutcome::Approved` in hand: that is the one place an `Approved` is made. Stages
//! after one that did not run or failed are not asked (as `&&` would).

use super::{emit, Turn};
use crate::turn::{ApprovalAsk, ApprovalOutcome, ApprovalReplySlot, TurnEvent};
use llmops_policy::{ActionRequest, ProposedAction};
use llmops_tooldata::{RunActionArgs, ToolArgs};
use llmops_tools::run_action::{
    proc_info, run_approved, ActionData, ActionState, ActionsData, ActionsResult, Approved,
};
use llmops_tools::{ToolName, ToolResult};

/// The result of any `run_action` call in a watch run, whatever its arguments.
pub(super) const WATCH_READS_ONLY: &str =
    "监视运行只读取，不提交操作 / a watch run only reads; it never proposes actions";

/// The request as the operator would read it (for a denial).
fn shown(req: &ActionRequest) -> (String, Vec<String>) {
    match req {
        ActionRequest::Argv(argv) => (
            argv.first().cloned().unwrap_or_default(),
            argv.iter()
                .flat_map(|a| a.split_whitespace().map(String::from).collect::<Vec<_>>())
                .collect(),
        ),
        ActionRequest::Configured { name, params } => (
            name.clone(),
            std::iter::once(name.clone())
                .chain(params.iter().map(|(k, v)| format!("{k}={v}")))
                .collect(),
        ),
    }
}

impl Turn<'_> {
    /// One `run_action` step (its `ToolCall` event is already out).
    pub(super) async fn action_step(&mut self, args: &RunActionArgs) -> ToolResult {
        let tool = ToolName::RunAction.as_str();
        let req = args.request();
        let reason = args
            .reason()
            .map(String::from)
            .unwrap_or_else(|| self.req.text.clone());
        let policy = self.ctx.actions.clone();
        let proposals = match policy.check(&req, &proc_info) {
            Ok(p) => p,
            Err(e) => {
                let (name, argv) = shown(&req);
                let detail = e.to_string();
                let state = if e.is_denied() {
                    // The connection reports and audits the denial.
                    emit(
                        self.tx,
                        TurnEvent::ApprovalDenied {
                            argv: argv.clone(),
                            detail: detail.clone(),
                        },
                    )
                    .await;
                    ActionState::Denied
                } else {
                    self.tool_ctx.audit.deny(
                        &[
                            ("session", &self.req.session_id),
                            ("tool", tool),
                            ("target", &argv.join(" ")),
                            ("code", e.code()),
                        ],
                        &detail,
                    );
                    ActionState::Failed
                };
                let data = ActionData::not_run(name, argv, state, None, detail);
                return ActionsData {
                    actions: vec![data],
                }
                .into_result();
            }
        };
        let mut done: Vec<ActionData> = Vec::new();
        let mut go_on = true;
        for p in proposals {
            if !go_on {
                done.push(ActionData::not_run(
                    p.action.name(),
                    p.argv,
                    ActionState::Cancelled,
                    None,
                    "前一步没有成功执行，这一步未提交审批 / an earlier stage did not run successfully; \
                     this one was not asked"
                        .into(),
                ));
                continue;
            }
            let data = self.approve_and_run(p, args, &reason).await;
            go_on = data.succeeded() && !self.cancel.is_cancelled();
            done.push(data);
        }
        ActionsData { actions: done }.into_result()
    }

    /// The operator's own proposal (a signal from the process pane): one `run_action` step
    /// with exactly `argv`, through the same checks and approval as the agent's, and what
    /// became of it as the answer.
    pub(super) async fn proposed_action(&mut self, argv: &[String]) {
        let lang = llmops_planner::text::Lang::detect(&self.req.text);
        let status = lang
            .pick("正在提交操作审批…", "Asking for approval of an action…")
            .to_string();
        let args = RunActionArgs::argv(argv.to_vec(), "由操作员提出 / proposed by the operator");
        let result = self.tool_step(&Ok(ToolArgs::RunAction(args)), status).await;
        let text = if result.output.trim().is_empty() {
            result.summary()
        } else {
            result.output.clone()
        };
        self.answer_text(&text).await;
    }

    /// Asks for one stage and runs it when approved.
    async fn approve_and_run(
        &mut self,
        p: ProposedAction,
        args: &RunActionArgs,
        reason: &str,
    ) -> ActionData {
        let (slot, rx) = ApprovalReplySlot::new();
        let ask = ApprovalAsk {
            argv: p.argv.clone(),
            action: p.action.name(),
            tool: ToolName::RunAction.as_str().to_string(),
            args: ToolArgs::RunAction(args.clone()).to_json(),
            user_request: self.req.text.clone(),
            reason: reason.to_string(),
            risk: p.risk.clone(),
            always: protocol::GrantScope {
                rule: p.always.to_tokens(),
                text: p.always_text.clone(),
            },
            reply: slot,
        };
        emit(self.tx, TurnEvent::Approval(Box::new(ask))).await;
        let outcome = tokio::select! {
            r = rx => r.ok(),
            () = self.cancel.cancelled() => {
                return ActionData::not_run(
                    p.action.name(),
                    p.argv,
                    ActionState::Cancelled,
                    None,
                    "本轮已取消，操作未执行 / the turn was cancelled; not run".into(),
                );
            }
        };
        let not_run = |state, id: String, why: &str| {
            ActionData::not_run(
                p.action.name(),
                p.argv.clone(),
                state,
                Some(id),
                why.to_string(),
            )
        };
        match outcome {
            Some(ApprovalOutcome::Approved {
                approval_id,
                grant_id,
            }) => {
                let approved = Approved::new(p, approval_id, grant_id);
                run_approved(approved, &self.ctx.actions, &self.tool_ctx).await
            }
            Some(ApprovalOutcome::Rejected { approval_id }) => not_run(
                ActionState::Rejected,
                approval_id,
                "操作员拒绝了 / the operator rejected it",
            ),
            Some(ApprovalOutcome::Expired { approval_id }) => not_run(
                ActionState::Expired,
                approval_id,
                "审批请求已过期，无人应答 / the approval request expired unanswered",
            ),
            Some(ApprovalOutcome::Unsupported { approval_id }) => not_run(
                ActionState::Unsupported,
                approval_id,
                "此客户端不支持审批，操作不会执行 / this client cannot approve actions; nothing runs",
            ),
            None => ActionData::not_run(
                p.action.name(),
                p.argv,
                ActionState::Rejected,
                None,
                "连接已断开，视为拒绝 / the connection is gone: treated as rejected".into(),
            ),
        }
    }
}
