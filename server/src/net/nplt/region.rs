//! `FILE_REGION`: lines of a text file for a client's viewer (a search hit in context), read
//! through the `file_read` tool so the path policy, session isolation of uploads, encoding
//! detection and the audit log are the tool's own. At most `MAX_REGION_LINES` per reply.
//! Tested against the real binary in `tests/tests/extension.rs` (planted file, refusals).

use llmops_tooldata::FileReadArgs;
use llmops_tools::{ToolArgs, ToolData};
use protocol::{FileRegion, FileRegionReply, Message, MAX_REGION_LINES};

use super::Conn;
use crate::store::UploadRow;
use crate::wire::store_error;

impl Conn {
    pub(super) async fn file_region(&self, r: FileRegion) -> Message {
        let first = r.first_line.max(1);
        if r.last_line < first {
            return Message::error(
                "bad_request",
                format!(
                    "行范围无效 / bad line range: {}..{} (last_line must not be before first_line)",
                    r.first_line, r.last_line
                ),
                Some(r.request_id),
            );
        }
        let count = (r.last_line - first + 1).min(MAX_REGION_LINES);
        // A target is an upload id (or unique prefix) of this session, else a path or name.
        let target = r.target.trim().to_string();
        let path = match self.uploads().await {
            Ok(rows) => {
                let hits: Vec<&UploadRow> = rows
                    .iter()
                    .filter(|u| !target.is_empty() && u.file_id.starts_with(&target))
                    .collect();
                match hits.as_slice() {
                    [one] => one.path.clone(),
                    _ => target.clone(),
                }
            }
            Err(e) => return store_error(e, r.request_id),
        };
        let args = ToolArgs::FileRead(FileReadArgs::page(path, first - 1, count));
        let res = self
            .ctx
            .agent
            .tools
            .call_args(&args, &self.ctx.tool_ctx(&self.session_id))
            .await;
        match res.data {
            ToolData::Page(p) if res.ok => Message::FileRegionReply(FileRegionReply {
                request_id: r.request_id,
                path: p.path,
                first_line: first,
                lines: p.lines,
                total_lines: p.total_lines,
            }),
            data => {
                let code = match data {
                    ToolData::Denied(_) => "denied",
                    _ => "read_failed",
                };
                Message::error(
                    code,
                    res.error
                        .unwrap_or_else(|| "读取文件失败 / reading the file failed".into()),
                    Some(r.request_id),
                )
            }
        }
    }
}
