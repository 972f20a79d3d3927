//! `file_read {output_id, offset, limit}`: a page of a stored tool output of this session
//! (what the model saw only the head and tail of), so the agent can read the rest.

use super::super::{run_blocking, BlockingError, ToolCtx, ToolResult};
use crate::data::{StoredPageData, ToolData};
use crate::outputs::{OutputStore, PAGE_MAX_LINES};

/// Reads lines `[offset, offset + limit)` of output `id` of this session.
pub(super) async fn run(id: &str, offset: u64, limit: u64, ctx: &ToolCtx) -> ToolResult {
    let store = OutputStore::new(&ctx.data_dir);
    let (session, id2) = (ctx.session_id.clone(), id.to_string());
    let count = limit.min(u64::from(PAGE_MAX_LINES)) as u32;
    let res = run_blocking(&ctx.cancel, move |_flag| {
        store.page(&session, &id2, offset, count)
    })
    .await;
    let page = match res {
        Ok(Ok(p)) => p,
        Ok(Err(e)) => return ToolResult::failure(e.to_string()),
        Err(BlockingError::Cancelled) => return ToolResult::cancelled(),
        Err(BlockingError::Panicked) => return ToolResult::failure("读取输出失败: 内部错误"),
    };
    let shown = page.lines.len() as u64;
    let end = page.offset + shown;
    let more = page.total_lines.saturating_sub(end);
    let mut text = format!(
        "输出 {id} 第 {}-{} 行，共 {} 行 / lines {}-{} of {}\n",
        page.offset + 1,
        end,
        page.total_lines,
        page.offset + 1,
        end,
        page.total_lines
    );
    for l in &page.lines {
        text.push_str(l);
        text.push('\n');
    }
    if more > 0 {
        text.push_str(&format!(
            "[还有 {more} 行，offset={end} 继续 / {more} more lines: continue at offset={end}]\n"
        ));
    }
    if page.truncated {
        text.push_str("[保存的输出已被截断 / the stored copy was cut at its cap]\n");
    }
    ToolResult::success(
        text,
        ToolData::StoredPage(StoredPageData {
            output_id: id.to_string(),
            offset: page.offset,
            lines: page.lines,
            total_lines: page.total_lines,
            total_bytes: page.total_bytes,
            more_lines: more,
            truncated: page.truncated,
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;
    use crate::{FileReadTool, Tool};
    use serde_json::json;

    #[tokio::test]
    async fn the_agent_pages_through_a_stored_output() {
        let env = Env::new();
        let text: String = (1..=1200).map(|i| format!("row {i}\n")).collect();
        let store = OutputStore::new(&env.ctx.data_dir);
        let r = store
            .save(&env.ctx.session_id, &text, text.len() as u64)
            .expect("save");
        let page = FileReadTool::default()
            .call(
                json!({"output_id": r.output_id, "offset": 1000, "limit": 150}),
                &env.ctx,
            )
            .await;
        assert!(page.ok, "{page:?}");
        assert_eq!(page.data.to_value()["total_lines"], 1200);
        assert_eq!(page.data.to_value()["lines"][0], "row 1001");
        assert_eq!(page.data.to_value()["lines"][149], "row 1150");
        assert_eq!(page.data.to_value()["more_lines"], 50);
        assert!(page.output.contains("offset=1150"), "{}", page.output);
        // Another session's output is not reachable by its id.
        let mut other = env.ctx.clone();
        other.session_id = "s2".into();
        let r2 = FileReadTool::default()
            .call(json!({"output_id": r.output_id, "offset": 0}), &other)
            .await;
        assert!(!r2.ok, "{r2:?}");
        let bad = FileReadTool::default()
            .call(json!({"output_id": "../../etc/passwd"}), &env.ctx)
            .await;
        assert!(
            !bad.ok
                && bad
                    .error
                    .as_deref()
                    .is_some_and(|e| e.contains("invalid output id"))
        );
    }
}
