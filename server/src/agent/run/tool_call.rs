//! One tool call of a turn: the per-call time limit (extended by a tool's own budget, as a
//! follow does) and keeping the step's whole output in the session's output store.

use llmops_tooldata::ToolArgs;
use protocol::OutputRef;

use super::TOOL_TIMEOUT;
use crate::agent::AgentEnv;
use llmops_tools::{TimeBudget, ToolCtx, ToolResult};

/// Runs one tool under the global timeout (or the longer time the tool asked for through
/// its budget: a follow runs up to its own cap); on timeout its token is cancelled and its
/// future dropped, which kills any child process (`kill_on_drop`).
pub(super) async fn call_tool(ctx: &AgentEnv, args: &ToolArgs, tool_ctx: &ToolCtx) -> ToolResult {
    let tool = args.tool();
    let mut c = tool_ctx.clone();
    c.cancel = tool_ctx.cancel.child_token();
    c.budget = TimeBudget::default();
    let started = tokio::time::Instant::now();
    let fut = ctx.tools.call_args(args, &c);
    tokio::pin!(fut);
    loop {
        let limit = TOOL_TIMEOUT.max(c.budget.requested());
        tokio::select! {
            r = &mut fut => return r,
            () = tokio::time::sleep_until(started + limit) => {
                if c.budget.requested() > limit {
                    continue;
                }
                c.cancel.cancel();
                let mut r = ToolResult::failure(format!(
                    "工具 {tool} 超时 ({} 秒) / timed out",
                    limit.as_secs()
                ));
                r.duration_ms = started.elapsed().as_millis() as u64;
                return r;
            }
        }
    }
}

/// Keeps the step's whole output in the session's output store (for paging); a failure to
/// store is logged and the step goes on without a reference.
pub(super) async fn store_output(
    ctx: &AgentEnv,
    session_id: &str,
    result: &ToolResult,
) -> Option<OutputRef> {
    let (text, produced) = match &result.full {
        Some(f) => (f.text.clone(), f.produced),
        None => (result.output.clone(), result.output.len() as u64),
    };
    if text.trim().is_empty() {
        return None;
    }
    let store = ctx.outputs.clone();
    let sid = session_id.to_string();
    match tokio::task::spawn_blocking(move || store.save(&sid, &text, produced)).await {
        Ok(Ok(r)) => Some(r),
        Ok(Err(e)) => {
            tracing::warn!(session = %session_id, "tool output not stored: {e}");
            None
        }
        Err(e) => {
            tracing::warn!(session = %session_id, "tool output store task failed: {e}");
            None
        }
    }
}
