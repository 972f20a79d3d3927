//! The ReAct loop of one turn: at most `MAX_STEPS` planner/tool steps, each tool under a
//! timeout that pre-empts it, events for every step, one final answer streamed in pieces
//! and stored verbatim in history together with the tool calls that produced it.

use std::sync::Arc;
use std::time::Duration;

use protocol::{EndStatus, SearchHit as WireHit, SearchResults};
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::agent::planner::{self, HistoryTurn, PlannerAction, PlannerInput, StepRecord};
use crate::app::Ctx;
use crate::store::{now_rfc3339, OfferRow, ToolCallRow, UploadRow};
use crate::tools::{ToolCtx, ToolResult, UploadRef};
use crate::turn::{stream_pieces, TurnEvent, TurnOutcome, TurnRequest};

/// Upper bound for any one tool call; tools have their own tighter limits (commands: 5 s).
pub const TOOL_TIMEOUT: Duration = Duration::from_secs(30);
/// History given to the planner, newest kept first, by characters (not a fixed turn count).
pub const HISTORY_CHAR_BUDGET: usize = 8000;
/// Offers expire after this long.
pub const OFFER_TTL_SECS: u64 = 600;

pub fn upload_ref(u: &UploadRow) -> UploadRef {
    UploadRef {
        file_id: u.file_id.clone(),
        filename: u.filename.clone(),
        path: u.path.clone().into(),
        size: u.size,
        sha256: u.sha256.clone(),
        uploaded_at: u.uploaded_at.clone(),
        content_type: u.content_type.clone(),
    }
}

fn planner_ref(u: &UploadRow) -> planner::UploadRef {
    planner::UploadRef {
        file_id: u.file_id.clone(),
        filename: u.filename.clone(),
        path: u.path.clone().into(),
        size: u.size,
        sha256: u.sha256.clone(),
        uploaded_at: u.uploaded_at.clone(),
        content_type: u.content_type.clone(),
    }
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

pub async fn run_turn(
    ctx: Arc<Ctx>,
    req: TurnRequest,
    tx: &mpsc::Sender<TurnEvent>,
    cancel: CancellationToken,
) -> TurnOutcome {
    let sid = req.session_id.clone();
    let (history_rows, uploads) = {
        let s = sid.clone();
        ctx.store
            .run(move |st| Ok((st.history(&s, 60)?, st.list_uploads(&s)?)))
            .await
            .unwrap_or_default()
    };
    let user_text = req.text.clone();
    {
        let s = sid.clone();
        let t = user_text.clone();
        let _ = ctx
            .store
            .run(move |st| st.append_message(&s, "user", &t, &[]))
            .await;
    }
    let history = budget_history(&history_rows, HISTORY_CHAR_BUDGET);
    let wanted = referenced_ids(&req.text, &req.file_ids);
    let referenced: Vec<planner::UploadRef> = uploads
        .iter()
        .filter(|u| wanted.iter().any(|w| u.file_id.starts_with(w.as_str())))
        .map(planner_ref)
        .collect();
    let all_uploads: Vec<planner::UploadRef> = uploads.iter().map(planner_ref).collect();

    let tool_ctx = ToolCtx {
        session_id: sid.clone(),
        paths: ctx.paths.clone(),
        commands: ctx.commands.clone(),
        audit: ctx.audit.clone(),
        data_dir: ctx.cfg.data_dir.clone(),
        cancel: cancel.clone(),
        uploads: ctx.catalog.clone(),
    };

    let mut steps: Vec<StepRecord> = Vec::new();
    let mut calls: Vec<ToolCallRow> = Vec::new();
    let mut answer = None;
    for step in 1..=(planner::MAX_STEPS as u32 + 1) {
        if cancel.is_cancelled() {
            break;
        }
        let input = PlannerInput {
            text: &req.text,
            referenced_files: &referenced,
            uploads: &all_uploads,
            history: &history,
            steps: &steps,
        };
        let action = planner::plan(&input);
        match action {
            PlannerAction::Final { text } => {
                answer = Some(text);
                break;
            }
            PlannerAction::Call { .. } if step > planner::MAX_STEPS as u32 => {
                // The planner wants more than the step budget: answer with what we have.
                answer = Some(step_limit_answer(&steps));
                break;
            }
            PlannerAction::Call { tool, args, status } => {
                emit(tx, TurnEvent::Status(status)).await;
                emit(
                    tx,
                    TurnEvent::ToolCall {
                        step,
                        tool: tool.clone(),
                        args: args.clone(),
                    },
                )
                .await;
                let result = call_tool(&ctx, &tool, args.clone(), &tool_ctx).await;
                emit(
                    tx,
                    TurnEvent::ToolResult {
                        step,
                        tool: tool.clone(),
                        ok: result.ok,
                        duration_ms: result.duration_ms,
                        summary: result.summary(),
                    },
                )
                .await;
                if result.ok {
                    side_effects(&ctx, &req, &tool, &args, &result, tx).await;
                }
                calls.push(ToolCallRow {
                    tool: tool.clone(),
                    args: args.clone(),
                    ok: result.ok,
                    duration_ms: result.duration_ms,
                    summary: result.summary(),
                });
                steps.push(StepRecord {
                    tool,
                    args,
                    ok: result.ok,
                    output: result.output,
                    data: result.data,
                    error: result.error,
                });
            }
        }
    }

    let (status, text) = match answer {
        Some(t) if !cancel.is_cancelled() => (EndStatus::Ok, t),
        _ => (EndStatus::Cancelled, String::new()),
    };
    let mut sent = String::new();
    let mut final_status = status;
    if status == EndStatus::Ok {
        emit(tx, TurnEvent::AnswerStart).await;
        for piece in stream_pieces(&text) {
            if cancel.is_cancelled() {
                final_status = EndStatus::Cancelled;
                break;
            }
            sent.push_str(&piece);
            emit(tx, TurnEvent::Delta(piece)).await;
        }
    }
    let stored = if final_status == EndStatus::Cancelled {
        format!("{sent}（已取消 / cancelled）")
    } else {
        sent.clone()
    };
    {
        let c = calls.clone();
        let _ = ctx
            .store
            .run(move |st| st.append_message(&sid, "assistant", &stored, &c))
            .await;
    }
    TurnOutcome {
        status: final_status,
        message: (final_status == EndStatus::Cancelled)
            .then(|| "已取消 / cancelled".to_string()),
        answer: sent,
        tool_calls: calls,
    }
}

/// Runs one tool under the global timeout; on timeout its token is cancelled and its
/// future dropped, which kills any child process (`kill_on_drop`).
async fn call_tool(ctx: &Ctx, tool: &str, args: Value, tool_ctx: &ToolCtx) -> ToolResult {
    let mut c = tool_ctx.clone();
    c.cancel = tool_ctx.cancel.child_token();
    let started = std::time::Instant::now();
    match tokio::time::timeout(TOOL_TIMEOUT, ctx.tools.call(tool, args, &c)).await {
        Ok(r) => r,
        Err(_) => {
            c.cancel.cancel();
            let mut r = ToolResult::failure(format!(
                "工具 {tool} 超时 ({} 秒) / timed out",
                TOOL_TIMEOUT.as_secs()
            ));
            r.duration_ms = started.elapsed().as_millis() as u64;
            r
        }
    }
}

/// What a successful tool call means for the client: search hits for the search pane, an
/// offer for the download dialog.
async fn side_effects(
    ctx: &Arc<Ctx>,
    req: &TurnRequest,
    tool: &str,
    args: &Value,
    result: &ToolResult,
    tx: &mpsc::Sender<TurnEvent>,
) {
    match tool {
        "semantic_search" => {
            let hits: Vec<WireHit> = result.data["results"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|h| serde_json::from_value(h.clone()).ok())
                        .collect()
                })
                .unwrap_or_default();
            emit(
                tx,
                TurnEvent::Search(SearchResults {
                    request_id: Some(req.request_id),
                    query: result.data["query"].as_str().unwrap_or_default().into(),
                    scope: result.data["scope"].as_str().unwrap_or("all").into(),
                    results: hits,
                }),
            )
            .await;
        }
        "file_download" => {
            let o = &result.data["offer"];
            let Some(path) = o["file_path"].as_str() else {
                return;
            };
            let row = new_offer(
                ctx,
                &req.session_id,
                path,
                o["filename"].as_str().unwrap_or_default(),
                o["size"].as_u64().unwrap_or(0),
                o["sha256"].as_str().unwrap_or_default(),
                o["transport_mode"].as_str().unwrap_or("auto"),
                Some(req.request_id),
                Some(format!("file_download {args}")),
            );
            let r = row.clone();
            if ctx.store.run(move |s| s.insert_offer(&r)).await.is_ok() {
                emit(tx, TurnEvent::Offer(Box::new(row))).await;
            }
        }
        _ => {}
    }
}

/// Builds a pending offer; the file id is set when the path is an upload.
#[allow(clippy::too_many_arguments)]
pub fn new_offer(
    ctx: &Ctx,
    session_id: &str,
    path: &str,
    filename: &str,
    size: u64,
    sha256: &str,
    mode: &str,
    request_id: Option<u64>,
    tool_call: Option<String>,
) -> OfferRow {
    let uploads = ctx.cfg.uploads_dir();
    let file_id = std::path::Path::new(path)
        .strip_prefix(&uploads)
        .ok()
        .and_then(|rest| rest.components().next())
        .map(|c| c.as_os_str().to_string_lossy().into_owned());
    let now = chrono::Utc::now().timestamp().max(0) as u64;
    OfferRow {
        offer_id: uuid::Uuid::new_v4().simple().to_string(),
        session_id: session_id.to_string(),
        file_id,
        file_path: path.to_string(),
        filename: filename.to_string(),
        size,
        sha256: sha256.to_string(),
        mode: mode.to_string(),
        state: "pending".into(),
        created_at: now_rfc3339(),
        expires_at: now + OFFER_TTL_SECS,
        request_id,
        tool_call,
        reason: None,
    }
}

fn step_limit_answer(steps: &[StepRecord]) -> String {
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
mod tests {
    use super::*;

    #[test]
    fn file_refs_from_markers_and_ids() {
        assert_eq!(
            referenced_ids("看看 [file_ref:abc123] 和 [file_ref: def ]", &["xyz".into()]),
            vec!["xyz", "abc123", "def"]
        );
        assert!(referenced_ids("[file_ref:", &[]).is_empty());
        assert!(referenced_ids("no refs", &[" ".into()]).is_empty());
    }

    #[test]
    fn history_budget_keeps_newest() {
        let row = |t: &str| crate::store::MessageRow {
            role: "user".into(),
            text: t.into(),
            time: String::new(),
            tool_calls: vec![],
        };
        let rows = vec![row("aaaa"), row("bbbb"), row("cccc")];
        let h = budget_history(&rows, 8);
        assert_eq!(
            h.iter().map(|t| t.text.as_str()).collect::<Vec<_>>(),
            ["bbbb", "cccc"]
        );
        // A single message longer than the budget is still kept (the latest context).
        assert_eq!(budget_history(&rows, 1).len(), 1);
    }
}
