//! The two planners of a turn behind one trait, and the one loop that runs either: the
//! offline planner (`llmops_planner::TurnPlan`, which understands the message once and then
//! decides each step from what came back) and the session's LLM (native tool calls or the
//! text protocol). The loop runs the tools, emits the events and records the calls the same
//! way for both.

use std::collections::VecDeque;

use serde_json::Value;

use super::{call_name, step_limit_answer, DoneStep, Turn, LLM_STEP_LIMIT_NOTE};
use crate::llm::{prompt, ChatMessage, ChatRequest, LlmError, ToolCall};
use llmops_planner::text::Lang;
use llmops_planner::{self as planner, PlannerAction, StepRecord, TurnPlan};
use llmops_tooldata::ToolArgs;
use llmops_tools::ToolName;

/// A call as a model wrote it that is no call of a tool: a name no tool has, or arguments
/// the tool's type rejects. It is still a step, failed with the error the tool gives.
#[derive(Debug, Clone)]
pub(super) struct BadCall {
    pub tool: String,
    pub args: Value,
    pub error: String,
}

/// A tool call as a planner decided it.
pub(super) type CallOf = Result<ToolArgs, BadCall>;

/// What a planner wants next.
// One is made per agent step and moved once: boxing the call saves nothing.
#[allow(clippy::large_enum_variant)]
pub(super) enum Decision {
    /// Run this tool.
    Call { call: CallOf, status: String },
    /// The answer, for the loop to stream.
    Answer(String),
    /// The answer was streamed while deciding (the LLM streams as it writes).
    Streamed,
}

/// A planner of one turn.
pub(super) trait Planner {
    /// The next step, given everything observed so far.
    async fn next(&mut self, turn: &mut Turn<'_>) -> Result<Decision, LlmError>;
    /// The result of the call the last [`Planner::next`] asked for: the step record (none
    /// for a [`BadCall`]) and the observation text a model reads.
    fn observe(&mut self, step: Option<StepRecord>, observation: String);
}

/// The offline planner: rules and the lexicon, no model.
pub(super) struct OfflinePlanner {
    plan: TurnPlan,
    steps: Vec<StepRecord>,
}

impl OfflinePlanner {
    pub fn new(plan: TurnPlan) -> Self {
        OfflinePlanner {
            plan,
            steps: Vec::new(),
        }
    }
}

impl Planner for OfflinePlanner {
    async fn next(&mut self, _turn: &mut Turn<'_>) -> Result<Decision, LlmError> {
        Ok(match self.plan.next(&self.steps) {
            PlannerAction::Final { text } => Decision::Answer(text),
            // More than the step budget: answer with what was found.
            PlannerAction::Call { .. } if self.steps.len() >= planner::MAX_STEPS => {
                let done: Vec<DoneStep> = self.steps.iter().map(DoneStep::of).collect();
                Decision::Answer(step_limit_answer(&done))
            }
            PlannerAction::Call { args, status, .. } => Decision::Call {
                call: Ok(args),
                status,
            },
        })
    }

    fn observe(&mut self, step: Option<StepRecord>, _observation: String) {
        self.steps.extend(step);
    }
}

/// The session's LLM: one request per round; a round's tool calls run one by one, then
/// their results go back in the next round. At most `MAX_STEPS` calls, then one round
/// without tools for the answer.
pub(super) struct LlmPlanner<'a> {
    backend: &'a crate::llm::LlmBackend,
    model: String,
    lang: Lang,
    tools: Vec<Value>,
    messages: Vec<ChatMessage>,
    pending: VecDeque<ToolCall>,
    /// The call being run: its id and name, for the result message.
    running: Option<(String, String)>,
    tool_steps: usize,
}

impl<'a> LlmPlanner<'a> {
    pub fn new(
        backend: &'a crate::llm::LlmBackend,
        model: &str,
        tools: Vec<Value>,
        messages: Vec<ChatMessage>,
        lang: Lang,
    ) -> Self {
        LlmPlanner {
            backend,
            model: model.to_string(),
            lang,
            tools,
            messages,
            pending: VecDeque::new(),
            running: None,
            tool_steps: 0,
        }
    }

    /// One round: the model's text streams to the user; tool calls are queued.
    async fn round(&mut self, turn: &mut Turn<'_>) -> Result<Option<Decision>, LlmError> {
        let last = self.tool_steps >= planner::MAX_STEPS;
        let mut req = ChatRequest {
            model: self.model.clone(),
            messages: self.messages.clone(),
            tools: if last { vec![] } else { self.tools.clone() },
        };
        if last {
            req.messages
                .push(ChatMessage::User(LLM_STEP_LIMIT_NOTE.to_string()));
        }
        turn.answer.round_open = false;
        turn.answer.held.clear();
        let reply = turn.ask(self.backend.client.as_ref(), &req).await?;
        if reply.is_final() || last {
            // Whatever is still held is the (short) answer.
            if !turn.answer.held.is_empty() {
                turn.release_held().await;
            }
            if !reply.is_final() {
                let text = step_limit_answer(&turn.steps);
                turn.answer_text(&text).await;
            }
            if turn.answer.sent.trim().is_empty() {
                return Err(LlmError::Protocol("empty answer / 空回复".into()));
            }
            return Ok(Some(Decision::Streamed));
        }
        // A held preamble stays with the model's message, not in the answer.
        turn.answer.held.clear();
        self.messages.push(ChatMessage::Assistant {
            content: reply.text.clone(),
            tool_calls: reply.tool_calls.clone(),
        });
        self.pending.extend(reply.tool_calls);
        Ok(None)
    }
}

impl Planner for LlmPlanner<'_> {
    async fn next(&mut self, turn: &mut Turn<'_>) -> Result<Decision, LlmError> {
        loop {
            if turn.cancel.is_cancelled() {
                return Err(LlmError::Cancelled);
            }
            if let Some(call) = self.pending.pop_front() {
                if self.tool_steps >= planner::MAX_STEPS {
                    // Every call needs a result message; this one is not run.
                    self.messages.push(ChatMessage::Tool {
                        tool_call_id: call.id,
                        name: call.name,
                        content: "未执行：已达到每轮工具调用上限 / not run: step limit reached"
                            .to_string(),
                    });
                    continue;
                }
                self.tool_steps += 1;
                let parsed = parse_call(&call, &turn.ctx.tools.names());
                let status = super::tool_status(&parsed, self.lang);
                self.running = Some((call.id, call.name));
                return Ok(Decision::Call {
                    call: parsed,
                    status,
                });
            }
            if let Some(done) = self.round(turn).await? {
                return Ok(done);
            }
        }
    }

    fn observe(&mut self, _step: Option<StepRecord>, observation: String) {
        if let Some((id, name)) = self.running.take() {
            self.messages.push(ChatMessage::Tool {
                tool_call_id: id,
                name,
                content: observation,
            });
        }
    }
}

/// The model's call as typed arguments, read once at receipt; a name no tool has and
/// arguments the tool cannot take are the errors the registry and the tool give.
pub(super) fn parse_call(call: &ToolCall, registry: &[&str]) -> CallOf {
    let parsed = match ToolName::parse(&call.name) {
        Some(tool) => ToolArgs::from_json(tool, call.args.clone()),
        None => Err(format!(
            "未知工具: {}（可用: {}）",
            call.name,
            registry.join(", ")
        )),
    };
    parsed.map_err(|error| BadCall {
        tool: call.name.clone(),
        args: call.args.clone(),
        error,
    })
}

/// The messages an LLM turn starts from: the system prompt, the history that fits, the
/// user's message with the files it refers to.
pub(super) fn first_messages(
    text: &str,
    history: &[crate::store::MessageRow],
    uploads: &[planner::UploadRef],
    referenced: &[planner::UploadRef],
) -> Vec<ChatMessage> {
    let mut messages = vec![ChatMessage::System(prompt::system_message(uploads))];
    messages.extend(prompt::history_messages(
        history,
        prompt::HISTORY_TOKEN_BUDGET,
    ));
    messages.push(ChatMessage::User(prompt::user_message(text, referenced)));
    messages
}

impl Turn<'_> {
    /// The one agent loop: asks the planner for the next step, runs it, tells the planner
    /// what came back, until the planner answers. `Ok(Some(text))`: an answer to stream;
    /// `Ok(None)`: streamed already, or cancelled.
    pub(super) async fn run_planner<P: Planner>(
        &mut self,
        p: &mut P,
    ) -> Result<Option<String>, LlmError> {
        loop {
            if self.cancel.is_cancelled() {
                return Ok(None);
            }
            match p.next(self).await? {
                Decision::Answer(text) => return Ok(Some(text)),
                Decision::Streamed => return Ok(None),
                Decision::Call { call, status } => {
                    let result = self.tool_step(&call, status).await;
                    let stored = self.calls.last().and_then(|c| c.output.clone());
                    let obs = prompt::observation(&result, stored.as_ref());
                    self.steps.push(DoneStep {
                        tool: call_name(&call),
                        ok: result.ok,
                        output: result.output.clone(),
                    });
                    let step = call.ok().map(|args| StepRecord {
                        tool: args.tool(),
                        args,
                        ok: result.ok,
                        output: result.output,
                        data: result.data,
                        error: result.error,
                    });
                    p.observe(step, obs);
                }
            }
        }
    }
}
