//! The ReAct loop of one turn: at most `MAX_STEPS` planner/tool steps, each tool under a
//! timeout that pre-empts it, events for every step, one final answer streamed in pieces
//! and stored verbatim in history together with the tool calls that produced it. The
//! planner is the session's LLM when one is configured (native tool calls or the text
//! protocol), with the offline planner as the fallback when the LLM fails.

use std::sync::Arc;
use std::time::Duration;

use protocol::EndStatus;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::env::{AgentEnv, HISTORY_LOAD};
use crate::llm::{prompt, Availability, ChatReply, ChatRequest, LlmClient, LlmError};
use crate::store::{ToolCallRow, UploadRow};
use crate::transfer::offers::{new_offer, OfferFile};
use crate::turn::{stream_pieces, Role, TurnEvent, TurnKind, TurnOutcome, TurnRequest};
use llmops_planner::text::Lang;
use llmops_planner::{self as planner, HistoryTurn, PlannerInput, StepRecord};
use llmops_tooldata::ToolArgs;
use llmops_tools::{
    LiveChunk, LiveSink, SearchWire, ToolCtx, ToolData, ToolName, ToolResult, UploadRef,
};
use planners::CallOf;

mod action;
mod planners;
mod tool_call;
use tool_call::{call_tool, store_output};

/// Upper bound for any one tool call; tools have their own tighter limits (commands: 5 s).
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(30);
/// History given to the planner, newest kept first, by characters (not a fixed turn count).
pub const HISTORY_CHAR_BUDGET: usize = 8000;

pub fn upload_ref(u: &UploadRow) -> UploadRef {
    UploadRef {
        file_id: u.file_id.clone(),
        filename: u.filename.clone(),
        path: u.path.clone().into(),
        size: u.size,
        sha256: u.sha256.clone(),
        uploaded_at: u.uploaded_at.clone(),
        content_type: u.content_type.clone(),
        columns: Vec::new(),
        format: None,
    }
}

/// The uploads with their logs' own field names, read on the blocking pool (a failure
/// there leaves the fields unknown: questions then name fields by the lexicon's words).
async fn with_columns(uploads: Vec<UploadRef>) -> Vec<UploadRef> {
    let fallback = uploads.clone();
    tokio::task::spawn_blocking(move || {
        let mut uploads = uploads;
        llmops_tools::log_query::describe_columns(&mut uploads);
        uploads
    })
    .await
    .unwrap_or_else(|e| {
        tracing::warn!(error = %e, "reading the uploads' log fields failed");
        fallback
    })
}

/// File ids a message refers to: explicit ids (or unique prefixes) plus legacy
/// `[file_ref:ID]` markers in the text.
pub fn referenced_ids(text: &str, explicit: &[String]) -> Vec<String> {
    let mut ids: Vec<String> = explicit.iter().map(|s| s.trim().to_string()).collect();
    let mut rest = text;
    while let Some(i) = rest.find("[file_ref:") {
        let after = &rest[i + "[file_ref:".len()..];
        match after.find(']') {
            Some(j) => {
                let id = after[..j].trim();
                if !id.is_empty() {
                    ids.push(id.to_string());
                }
                rest = &after[j + 1..];
            }
            None => break,
        }
    }
    ids.retain(|s| !s.is_empty());
    ids.dedup();
    ids
}

/// The conversation state from stored history: each user message with the facts of the
/// tool calls of the assistant message answering it, the last `STATE_TURNS` turns.
pub fn conversation_from(rows: &[crate::store::MessageRow]) -> planner::conversation::Conversation {
    let mut turns: Vec<(&str, Vec<planner::conversation::StepFacts>)> = Vec::new();
    for m in rows {
        match m.role.as_str() {
            "user" => turns.push((m.text.as_str(), Vec::new())),
            "assistant" => {
                if let Some(last) = turns.last_mut() {
                    last.1
                        .extend(m.tool_calls.iter().filter_map(|c| c.facts.clone()));
                }
            }
            _ => {}
        }
    }
    planner::conversation::Conversation::from_turns(turns)
}

/// The newest upload made after the last stored message, when there is one and a message
/// at all (both times as the store writes them, RFC 3339).
fn uploaded_since_last_turn<'a>(
    uploads: &'a [UploadRef],
    rows: &[crate::store::MessageRow],
) -> Option<&'a UploadRef> {
    let at = |t: &str| chrono::DateTime::parse_from_rfc3339(t).ok();
    let last = at(&rows.last()?.time)?;
    uploads
        .iter()
        .filter_map(|u| Some((at(&u.uploaded_at)?, u)))
        .filter(|(t, _)| *t > last)
        .max_by_key(|(t, _)| *t)
        .map(|(_, u)| u)
}

/// Keeps the newest messages that fit the character budget, oldest first.
pub fn budget_history(rows: &[crate::store::MessageRow], budget: usize) -> Vec<HistoryTurn> {
    let mut out = Vec::new();
    let mut used = 0;
    for m in rows.iter().rev() {
        let n = m.text.chars().count();
        if used + n > budget && !out.is_empty() {
            break;
        }
        used += n;
        out.push(HistoryTurn {
            role: m.role.clone(),
            text: m.text.clone(),
        });
    }
    out.reverse();
    out
}

async fn emit(tx: &mpsc::Sender<TurnEvent>, ev: TurnEvent) {
    // The session may be gone (client disconnected); the turn still finishes and is stored.
    let _ = tx.send(ev).await;
}

/// How a turn is planned.
enum Planner {
    Offline,
    /// The session's LLM is cooling down after repeated failures.
    CoolingDown,
    Llm(crate::llm::LlmBackend, String),
}

/// The planner for this session's model: `offline`, or the LLM unless it is cooling down.
fn choose_planner(ctx: &AgentEnv, session_id: &str, stored_model: Option<String>) -> Planner {
    let Some(backend) = ctx.llm.clone() else {
        return Planner::Offline;
    };
    let model = stored_model
        .filter(|m| ctx.models().contains(m))
        .unwrap_or_else(|| ctx.default_model());
    if model == "offline" {
        return Planner::Offline;
    }
    match ctx.llm_health.check(session_id) {
        Availability::Use => Planner::Llm(backend, model),
        Availability::CoolingDown { .. } => Planner::CoolingDown,
    }
}

/// Notes put in front of an offline answer when the LLM could not answer.
const NOTE_SWITCHED: &str =
    "LLM 不可用，已切换到离线规划器 / LLM unavailable, using the offline planner";
const NOTE_COOLING: &str =
    "（LLM 暂不可用，由离线规划器回答 / LLM unavailable, answered by the offline planner）";
const NOTE_TURN: &str =
    "LLM 请求失败，本轮由离线规划器回答 / LLM request failed, the offline planner answers this turn";

pub async fn run_turn(
    ctx: Arc<AgentEnv>,
    req: TurnRequest,
    tx: &mpsc::Sender<TurnEvent>,
    cancel: CancellationToken,
) -> TurnOutcome {
    let sid = req.session_id.clone();
    let loaded = ctx.store.load(&sid, HISTORY_LOAD).await;
    let (history_rows, uploads, stored_model) = (loaded.history, loaded.uploads, loaded.model);
    let keep = req.kind != TurnKind::Watch;
    // Why this turn's history could not be saved (the client is told at the end).
    let unsaved = if keep {
        ctx.store
            .append(&sid, Role::User, &req.text, &[])
            .await
            .err()
    } else {
        None
    };
    let sources = Sources::gather(&req, history_rows, &uploads).await;

    let tool_ctx = ToolCtx {
        session_id: sid.clone(),
        client: req.client.clone(),
        cancel: cancel.clone(),
        ..ctx.tool_base.clone()
    };
    let mut turn = Turn {
        ctx: ctx.clone(),
        req: &req,
        tx,
        tool_ctx,
        cancel: cancel.clone(),
        step: 0,
        calls: Vec::new(),
        steps: Vec::new(),
        answer: Answer::default(),
    };
    let (answered, note) = turn.plan(stored_model, &sources).await;
    if !answered && !cancel.is_cancelled() {
        turn.answer_offline(&sources, note).await;
    }
    turn.finish(keep, unsaved).await
}

/// What the planners see of the session: its history and uploads as loaded when the turn
/// started, and the uploads the question refers to.
struct Sources {
    history_rows: Vec<crate::store::MessageRow>,
    all_uploads: Vec<UploadRef>,
    referenced: Vec<planner::UploadRef>,
}

impl Sources {
    async fn gather(
        req: &TurnRequest,
        history_rows: Vec<crate::store::MessageRow>,
        uploads: &[UploadRow],
    ) -> Sources {
        let wanted = referenced_ids(&req.text, &req.file_ids);
        let all_uploads = with_columns(uploads.iter().map(upload_ref).collect()).await;
        let referenced: Vec<planner::UploadRef> = all_uploads
            .iter()
            .filter(|u| wanted.iter().any(|w| u.file_id.starts_with(w.as_str())))
            .cloned()
            .collect();
        Sources {
            history_rows,
            all_uploads,
            referenced,
        }
    }
}

/// The answer as streamed so far.
#[derive(Debug, Default)]
struct Answer {
    started: bool,
    /// Everything sent as deltas: exactly what is stored in history.
    sent: String,
    /// This LLM round's text not yet shown (it may be a preamble to tool calls).
    held: String,
    /// This LLM round's text is being shown as it arrives.
    round_open: bool,
}

/// Text an LLM round may hold back before it is shown: a short preamble followed by tool
/// calls ("let me check…") is not part of the answer. Longer text streams as it arrives.
const HOLDBACK_CHARS: usize = 32;
/// Told to the model when its tool budget is used up (the last call offers no tools).
const LLM_STEP_LIMIT_NOTE: &str =
    "工具调用次数已用完，请根据以上结果直接回答 / The tool budget is used up: answer now from the results above.";

/// One turn's mutable state: events out, tool calls made, the answer so far.
struct Turn<'a> {
    ctx: Arc<AgentEnv>,
    req: &'a TurnRequest,
    tx: &'a mpsc::Sender<TurnEvent>,
    tool_ctx: ToolCtx,
    cancel: CancellationToken,
    /// Tool steps taken this turn (event numbering).
    step: u32,
    calls: Vec<ToolCallRow>,
    steps: Vec<DoneStep>,
    answer: Answer,
}

impl Turn<'_> {
    async fn send_delta(&mut self, text: String) {
        if text.is_empty() {
            return;
        }
        if !self.answer.started {
            self.answer.started = true;
            emit(self.tx, TurnEvent::AnswerStart).await;
        }
        self.answer.sent.push_str(&text);
        emit(self.tx, TurnEvent::Delta(text)).await;
    }

    /// An LLM text delta: shown at once, or held while it may still be a preamble.
    async fn llm_delta(&mut self, d: String) {
        if self.answer.round_open {
            return self.send_delta(d).await;
        }
        self.answer.held.push_str(&d);
        if self.answer.held.chars().count() >= HOLDBACK_CHARS {
            self.release_held().await;
        }
    }

    async fn release_held(&mut self) {
        self.answer.round_open = true;
        let mut held = std::mem::take(&mut self.answer.held);
        // Text an earlier round already showed (a long preamble) is its own paragraph.
        if !self.answer.sent.is_empty() && !self.answer.sent.ends_with('\n') && !held.is_empty() {
            held.insert_str(0, "\n\n");
        }
        self.send_delta(held).await;
    }

    /// A whole answer text (offline planner, notes), streamed in small pieces.
    async fn answer_text(&mut self, text: &str) {
        if !self.answer.started {
            self.answer.started = true;
            emit(self.tx, TurnEvent::AnswerStart).await;
        }
        for piece in stream_pieces(text) {
            if self.cancel.is_cancelled() {
                break;
            }
            self.answer.sent.push_str(&piece);
            emit(self.tx, TurnEvent::Delta(piece)).await;
        }
    }

    /// Runs one tool call with the same events and records as every planner. A call the
    /// model got wrong is a failed step with its error, as the tool would have failed it.
    async fn tool_step(&mut self, call: &CallOf, status: String) -> ToolResult {
        self.step += 1;
        let step = self.step;
        let tool = call_name(call);
        let tool = tool.as_str();
        let args = match call {
            Ok(a) => a.to_json(),
            Err(bad) => bad.args.clone(),
        };
        emit(self.tx, TurnEvent::Status(status)).await;
        emit(
            self.tx,
            TurnEvent::ToolCall {
                step,
                tool: tool.to_string(),
                args: args.clone(),
            },
        )
        .await;
        let proposal = tool == ToolName::RunAction.as_str();
        let result = match call {
            _ if proposal && self.req.kind == TurnKind::Watch => {
                ToolResult::failure(action::WATCH_READS_ONLY)
            }
            Err(bad) => ToolResult::failure(bad.error.clone()),
            // Never through the registry: a proposal that runs only when approved.
            Ok(ToolArgs::RunAction(a)) => self.action_step(a).await,
            Ok(a) => self.call_streaming(step, a).await,
        };
        let output = if self.req.kind == TurnKind::Watch {
            None
        } else {
            store_output(&self.ctx, &self.req.session_id, &result).await
        };
        let summary = result.summary();
        emit(
            self.tx,
            TurnEvent::ToolResult {
                step,
                tool: tool.to_string(),
                ok: result.ok,
                duration_ms: result.duration_ms,
                summary: summary.clone(),
                output: output.clone(),
            },
        )
        .await;
        // A watch run only reads: no offer, no search pane update.
        if result.ok && self.req.kind != TurnKind::Watch {
            side_effects(&self.ctx, self.req, tool, &args, &result, self.tx).await;
        }
        let facts = call
            .as_ref()
            .ok()
            .and_then(|a| planner::conversation::facts_of(a, result.ok, &result.data));
        self.calls.push(ToolCallRow {
            tool: tool.to_string(),
            args,
            ok: result.ok,
            duration_ms: result.duration_ms,
            summary,
            output,
            facts,
        });
        result
    }

    /// Runs one tool call, forwarding its live lines (follow mode) as `ToolOutput` events
    /// while it runs.
    async fn call_streaming(&mut self, step: u32, args: &ToolArgs) -> ToolResult {
        let tool = args.tool().as_str();
        let (sink, mut live) = LiveSink::channel();
        let mut c = self.tool_ctx.clone();
        c.live = sink;
        let tx = self.tx;
        let forward = |chunk: LiveChunk| TurnEvent::ToolOutput {
            step,
            tool: tool.to_string(),
            lines: chunk.lines,
            dropped: chunk.dropped,
            total: chunk.total,
        };
        let result = {
            let fut = call_tool(&self.ctx, args, &c);
            tokio::pin!(fut);
            loop {
                tokio::select! {
                    biased;
                    Some(chunk) = live.recv() => emit(tx, forward(chunk)).await,
                    r = &mut fut => break r,
                }
            }
        };
        while let Ok(chunk) = live.try_recv() {
            emit(tx, forward(chunk)).await;
        }
        result
    }

    /// One LLM call; text deltas reach the user while the request streams.
    async fn ask(&mut self, llm: &dyn LlmClient, req: &ChatRequest) -> Result<ChatReply, LlmError> {
        let (dtx, mut drx) = mpsc::unbounded_channel::<String>();
        let mut sink = move |s: &str| {
            let _ = dtx.send(s.to_string());
        };
        let cancel = self.cancel.clone();
        let result = {
            let mut fut = llm.chat(req, &mut sink, &cancel);
            loop {
                tokio::select! {
                    biased;
                    Some(d) = drx.recv() => self.llm_delta(d).await,
                    r = &mut fut => break r,
                }
            }
        };
        while let Ok(d) = drx.try_recv() {
            self.llm_delta(d).await;
        }
        result
    }
}

/// The phases of a turn: planning, the offline fallback, the end.
impl Turn<'_> {
    /// Plans with the session's LLM unless the turn proposes an action, the session is
    /// offline or its LLM cools down. Returns whether the turn is answered (or was
    /// cancelled while the LLM planned), and the note an offline answer starts with.
    async fn plan(
        &mut self,
        stored_model: Option<String>,
        src: &Sources,
    ) -> (bool, Option<String>) {
        let req = self.req;
        let planner = match &req.kind {
            TurnKind::Propose(argv) => {
                self.proposed_action(argv).await;
                return (true, None);
            }
            TurnKind::Ask | TurnKind::Watch => {
                choose_planner(&self.ctx, &req.session_id, stored_model)
            }
        };
        match planner {
            Planner::Offline => (false, None),
            Planner::CoolingDown => (false, Some(NOTE_COOLING.to_string())),
            Planner::Llm(backend, model) => self.plan_with_llm(&backend, &model, src).await,
        }
    }

    /// The LLM plans the turn; when it fails, the client is told and the failure goes
    /// toward the session's cool-down.
    async fn plan_with_llm(
        &mut self,
        backend: &crate::llm::LlmBackend,
        model: &str,
        src: &Sources,
    ) -> (bool, Option<String>) {
        let req = self.req;
        let sid = &req.session_id;
        let lang = Lang::detect(&req.text);
        let mut tools = self.ctx.tools.schemas();
        tools.push(prompt::run_action_schema());
        let messages = planners::first_messages(
            &req.text,
            &src.history_rows,
            &src.all_uploads,
            &src.referenced,
        );
        let mut llm = planners::LlmPlanner::new(backend, model, tools, messages, lang);
        match self.run_planner(&mut llm).await {
            Ok(_) => {
                self.ctx.llm_health.success(sid);
                (true, None)
            }
            Err(_) if self.cancel.is_cancelled() => (true, None),
            Err(e) => {
                let switched = self.ctx.llm_health.failure(sid);
                tracing::warn!(session = %sid, provider = %backend.provider, %model, switched, "llm turn failed: {e}");
                let n = if switched { NOTE_SWITCHED } else { NOTE_TURN };
                let n = format!("{n}: {e}");
                emit(self.tx, TurnEvent::Status(n.clone())).await;
                (false, Some(n))
            }
        }
    }

    /// The offline planner answers, after `note` (why the LLM did not).
    async fn answer_offline(&mut self, src: &Sources, note: Option<String>) {
        let history = budget_history(&src.history_rows, HISTORY_CHAR_BUDGET);
        let mut conversation = conversation_from(&src.history_rows);
        if let Some(u) = uploaded_since_last_turn(&src.all_uploads, &src.history_rows) {
            conversation.uploaded_since(u);
        }
        // The offline planner starts from no steps even after an LLM took some this turn.
        let plan = planner::TurnPlan::new(&PlannerInput {
            text: &self.req.text,
            referenced_files: &src.referenced,
            uploads: &src.all_uploads,
            history: &history,
            conversation: &conversation,
            steps: &[],
        });
        let mut offline = planners::OfflinePlanner::new(plan);
        // The offline planner never fails: its only outcomes are an answer or cancellation.
        if let Ok(Some(text)) = self.run_planner(&mut offline).await {
            let text = match &note {
                Some(n) if self.answer.sent.is_empty() => format!("{n}\n\n{text}"),
                Some(n) => format!("\n\n{n}\n\n{text}"),
                None => text,
            };
            self.answer_text(&text).await;
        }
    }

    /// Stores the answer as sent (marked when cancelled) with the turn's tool calls, and
    /// says how the turn ended.
    async fn finish(&mut self, keep: bool, mut unsaved: Option<String>) -> TurnOutcome {
        let final_status = if self.cancel.is_cancelled() {
            EndStatus::Cancelled
        } else {
            EndStatus::Ok
        };
        let sent = std::mem::take(&mut self.answer.sent);
        let calls = std::mem::take(&mut self.calls);
        let stored = if final_status == EndStatus::Cancelled {
            format!("{sent}（已取消 / cancelled）")
        } else {
            sent.clone()
        };
        if keep {
            let saved =
                self.ctx
                    .store
                    .append(&self.req.session_id, Role::Assistant, &stored, &calls);
            if let Err(e) = saved.await {
                unsaved.get_or_insert(e);
            }
        }
        let cancelled = (final_status == EndStatus::Cancelled).then(|| "已取消 / cancelled".into());
        let (status, message) = crate::turn::end_of_turn(final_status, cancelled, unsaved);
        TurnOutcome {
            status,
            message,
            answer: sent,
            tool_calls: calls,
        }
    }
}

/// The tool a call names, as the model wrote it.
fn call_name(call: &CallOf) -> String {
    match call {
        Ok(a) => a.tool().to_string(),
        Err(bad) => bad.tool.clone(),
    }
}

/// The status line before an LLM-chosen tool call (the offline planner writes its own).
fn tool_status(call: &CallOf, lang: Lang) -> String {
    let base = |p: &str| p.rsplit('/').next().unwrap_or(p).to_string();
    let args = match call {
        Ok(a) => a,
        Err(bad) => return format!("{}{}…", lang.pick("正在调用 ", "Calling "), bad.tool),
    };
    match args {
        ToolArgs::SysMonitor(_) => lang
            .pick("正在查询系统资源…", "Checking system resources…")
            .into(),
        ToolArgs::Command(a) => format!("{}`{}`…", lang.pick("正在执行 ", "Running "), a.line()),
        ToolArgs::Search(a) => match lang {
            Lang::Zh => format!("正在搜索“{}”…", a.query),
            Lang::En => format!("Searching for \"{}\"…", a.query),
        },
        ToolArgs::FileRead(a) => format!(
            "{}{}…",
            lang.pick("正在读取 ", "Reading "),
            base(&a.file_path)
        ),
        ToolArgs::Download(a) => format!(
            "{}{}…",
            lang.pick("正在准备下载 ", "Preparing download of "),
            base(&a.file_path)
        ),
        ToolArgs::Upload(_) => lang
            .pick(
                "正在查看本会话的上传文件…",
                "Looking up this session's uploads…",
            )
            .into(),
        ToolArgs::RunAction(_) => lang
            .pick("正在提交操作审批…", "Asking for approval of an action…")
            .into(),
        ToolArgs::LogQuery(_) => lang.pick("正在查询日志…", "Querying the log…").into(),
        ToolArgs::SystemQuery(_) => lang
            .pick("正在查询系统表…", "Querying the system tables…")
            .into(),
    }
}

/// What a successful tool call means for the client: search hits for the search pane, an
/// offer for the download dialog.
async fn side_effects(
    ctx: &AgentEnv,
    req: &TurnRequest,
    tool: &str,
    args: &Value,
    result: &ToolResult,
    tx: &mpsc::Sender<TurnEvent>,
) {
    match &result.data {
        ToolData::Search(hits) => {
            emit(tx, TurnEvent::Search(hits.to_wire(Some(req.request_id)))).await;
        }
        ToolData::Offer(o) => {
            let file = OfferFile {
                path: &o.file_path,
                filename: &o.filename,
                size: o.size,
                sha256: &o.sha256,
                mode: o.transport_mode,
            };
            let row = new_offer(
                &ctx.uploads_dir,
                &req.session_id,
                file,
                Some(req.request_id),
                Some(format!("{tool} {args}")),
            );
            if ctx.store.insert_offer(&row).await.is_ok() {
                emit(tx, TurnEvent::Offer(Box::new(row))).await;
            }
        }
        _ => {}
    }
}

/// A step taken this turn, as the step-limit answer lists it.
struct DoneStep {
    tool: String,
    ok: bool,
    output: String,
}

impl DoneStep {
    fn of(s: &StepRecord) -> DoneStep {
        DoneStep {
            tool: s.tool.to_string(),
            ok: s.ok,
            output: s.output.clone(),
        }
    }
}

fn step_limit_answer(steps: &[DoneStep]) -> String {
    let mut s = format!(
        "已达到每轮最多 {} 步的限制 / reached the {}-step limit. 已完成的步骤:\n",
        planner::MAX_STEPS,
        planner::MAX_STEPS
    );
    for st in steps {
        s.push_str(&format!(
            "- {} {}: {}\n",
            st.tool,
            if st.ok { "✓" } else { "✗" },
            st.output.lines().next().unwrap_or_default()
        ));
    }
    s
}

#[cfg(test)]
mod env_tests;
#[cfg(test)]
mod tests;
