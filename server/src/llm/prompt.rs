//! Prompt assembly for LLM turns: the shipped system prompt plus this session's uploads, the
//! recent history within a token budget (earlier tool calls included, so follow-ups work),
//! and tool observations truncated to a budget. Pure functions.

use crate::store::MessageRow;
use llmops_planner::UploadRef;
use llmops_tools::{human_size, truncate_chars, ToolResult};

use super::{estimate_tokens, ChatMessage, ToolCall};

/// The bilingual system prompt shipped in `assets/prompts/system.md`.
pub const SYSTEM_PROMPT: &str = include_str!("../../../assets/prompts/system.md");
/// Estimated tokens of earlier conversation given to the model.
pub const HISTORY_TOKEN_BUDGET: usize = 3000;
/// Characters of one tool observation given to the model.
pub const OBSERVATION_CHAR_BUDGET: usize = 6000;
/// Uploads listed in the system prompt (newest kept).
const MAX_LISTED_UPLOADS: usize = 20;

/// The system message: the shipped prompt plus facts about this session.
pub fn system_message(uploads: &[UploadRef]) -> String {
    let mut s = SYSTEM_PROMPT.trim_end().to_string();
    s.push_str(&format!(
        "\n\n## 当前环境 / Environment\n时间 / time: {}\n",
        chrono::Local::now().format("%Y-%m-%d %H:%M %:z")
    ));
    if uploads.is_empty() {
        s.push_str("本会话还没有上传文件 / no files uploaded in this session yet.\n");
    } else {
        s.push_str("本会话上传的文件 / files uploaded in this session (oldest first):\n");
        let skip = uploads.len().saturating_sub(MAX_LISTED_UPLOADS);
        for u in &uploads[skip..] {
            s.push_str(&format!(
                "- {} ({}, id {}, {})\n",
                u.filename,
                human_size(u.size),
                u.file_id,
                u.uploaded_at
            ));
        }
    }
    s
}

/// The `run_action` tool as the model sees it (OpenAI function-calling form). It is not a
/// registry tool: the agent checks each call and asks the operator before anything runs.
pub fn run_action_schema() -> serde_json::Value {
    serde_json::json!({
        "type": "function",
        "function": {
            "name": "run_action",
            "description": "提议一个会改变系统的操作，操作员批准后才执行 / Propose a mutating action; it runs only after the operator approves. \
                Give `argv` (systemctl restart|reload|start|stop|reset-failed UNIT; kill [-TERM|-HUP|-INT|-KILL] PID...; \
                journalctl --vacuum-size=N[K|M|G] or --vacuum-time=N[s|min|h|d|weeks|months]) or `action` + `params` for a configured action, and a `reason`.",
            "parameters": {
                "type": "object",
                "properties": {
                    "argv": {"type": "array", "items": {"type": "string"}, "description": "the exact command, one element per argument (no shell)"},
                    "action": {"type": "string", "description": "a configured action's name"},
                    "params": {"type": "object", "additionalProperties": {"type": "string"}},
                    "reason": {"type": "string", "description": "why, in one sentence, for the operator"}
                },
                "required": ["reason"]
            }
        }
    })
}

/// This turn's user message, with the files it references spelled out.
pub fn user_message(text: &str, referenced: &[UploadRef]) -> String {
    if referenced.is_empty() {
        return text.to_string();
    }
    let mut s = text.to_string();
    s.push_str("\n\n(附带文件 / attached files: ");
    let names: Vec<String> = referenced
        .iter()
        .map(|u| format!("{} [id {}]", u.filename, u.file_id))
        .collect();
    s.push_str(&names.join(", "));
    s.push(')');
    s
}

/// Messages of one stored history row: an assistant row with tool calls becomes the calls,
/// their summaries as results, then its text.
fn row_messages(row: &MessageRow, n: usize) -> Vec<ChatMessage> {
    if row.role != "assistant" {
        return vec![ChatMessage::User(row.text.clone())];
    }
    let mut out = Vec::new();
    if !row.tool_calls.is_empty() {
        let calls: Vec<ToolCall> = row
            .tool_calls
            .iter()
            .enumerate()
            .map(|(j, c)| ToolCall {
                id: format!("hist_{n}_{j}"),
                name: c.tool.clone(),
                args: c.args.clone(),
            })
            .collect();
        out.push(ChatMessage::Assistant {
            content: String::new(),
            tool_calls: calls.clone(),
        });
        for (c, row_call) in calls.iter().zip(&row.tool_calls) {
            out.push(ChatMessage::Tool {
                tool_call_id: c.id.clone(),
                name: c.name.clone(),
                content: format!(
                    "{} {}",
                    if row_call.ok { "ok:" } else { "failed:" },
                    row_call.summary
                ),
            });
        }
    }
    out.push(ChatMessage::Assistant {
        content: row.text.clone(),
        tool_calls: vec![],
    });
    out
}

fn tokens(msgs: &[ChatMessage]) -> usize {
    msgs.iter()
        .map(|m| match m {
            ChatMessage::Assistant {
                content,
                tool_calls,
            } => {
                estimate_tokens(content)
                    + tool_calls
                        .iter()
                        .map(|c| estimate_tokens(&c.args.to_string()) + 4)
                        .sum::<usize>()
            }
            ChatMessage::System(s) | ChatMessage::User(s) => estimate_tokens(s),
            ChatMessage::Tool { content, .. } => estimate_tokens(content),
        } + 4)
        .sum()
}

/// The newest history that fits `budget` estimated tokens, oldest first, starting with a
/// user message. The newest row is always kept (cut to the budget) so a follow-up has its
/// context.
pub fn history_messages(rows: &[MessageRow], budget: usize) -> Vec<ChatMessage> {
    let mut groups: Vec<Vec<ChatMessage>> = Vec::new();
    let mut used = 0;
    for (n, row) in rows.iter().enumerate().rev() {
        let mut msgs = row_messages(row, n);
        let t = tokens(&msgs);
        if used + t > budget {
            if groups.is_empty() {
                // Keep a cut-down newest row rather than nothing.
                let keep = budget.max(64);
                for m in &mut msgs {
                    match m {
                        ChatMessage::User(s) | ChatMessage::Assistant { content: s, .. } => {
                            *s = truncate_chars(s, keep)
                        }
                        _ => {}
                    }
                }
                groups.push(msgs);
            }
            break;
        }
        used += t;
        groups.push(msgs);
    }
    groups.reverse();
    let mut out: Vec<ChatMessage> = groups.into_iter().flatten().collect();
    // Providers expect the conversation to open with a user message.
    let first_user = out
        .iter()
        .position(|m| matches!(m, ChatMessage::User(_)))
        .unwrap_or(out.len());
    out.drain(..first_user);
    out
}

/// What the model sees of a tool result: its text (or error), cut to the budget. When the
/// model does not see all of it and the whole output was stored, the last line says how to
/// page through it (`file_read {output_id, offset, limit}`).
pub fn observation(r: &ToolResult, stored: Option<&protocol::OutputRef>) -> String {
    let text = if r.ok {
        r.output.clone()
    } else {
        format!(
            "工具失败 / tool failed: {}",
            r.error.as_deref().unwrap_or(r.output.as_str())
        )
    };
    let mut obs = head_tail(&text, OBSERVATION_CHAR_BUDGET);
    let cut = obs.len() < text.len() || r.full.is_some();
    if let Some(o) = stored.filter(|_| cut) {
        obs.push_str(&format!(
            "\n[完整输出共 {} 行已保存，用 file_read {{\"output_id\": \"{}\", \"offset\": N, \"limit\": M}} 翻页 / the whole output ({} lines) is stored: page it with file_read {{\"output_id\": \"{}\", \"offset\": N, \"limit\": M}}]",
            o.lines, o.output_id, o.lines, o.output_id
        ));
    }
    obs
}

/// A text that fits `budget` characters: itself, or its first and last lines (about half
/// the budget each; a single huge line is cut by characters) with a line in between saying
/// how many lines and bytes were left out of how many.
pub fn head_tail(text: &str, budget: usize) -> String {
    if text.chars().count() <= budget {
        return text.to_string();
    }
    let half = budget / 2;
    let lines: Vec<&str> = text.lines().collect();
    let total_lines = lines.len();
    let mut head: Vec<String> = Vec::new();
    let mut used = 0;
    for l in &lines {
        let n = l.chars().count() + 1;
        if used + n > half {
            break;
        }
        used += n;
        head.push((*l).to_string());
    }
    let head_full = head.len();
    if head.is_empty() {
        head.push(
            lines
                .first()
                .map_or(String::new(), |l| l.chars().take(half).collect()),
        );
    }
    let mut tail: Vec<String> = Vec::new();
    let mut used = 0;
    for l in lines.iter().skip(head_full.max(1)).rev() {
        let n = l.chars().count() + 1;
        if used + n > half {
            break;
        }
        used += n;
        tail.push((*l).to_string());
    }
    let tail_full = tail.len();
    // A cut first line (head_full == 0) may also be the last: show its end too.
    if tail.is_empty() && (total_lines > head_full.max(1) || head_full == 0) {
        if let Some(l) = lines.last() {
            let n = l.chars().count();
            tail.push(l.chars().skip(n.saturating_sub(half)).collect());
        }
    }
    tail.reverse();
    let shown_bytes: usize = head.iter().chain(tail.iter()).map(|l| l.len() + 1).sum();
    let omitted_bytes = text.len().saturating_sub(shown_bytes) as u64;
    let omitted_lines = total_lines - head_full - tail_full;
    let (ol, tl) = (
        llmops_tools::follow::thousands(omitted_lines as u64),
        llmops_tools::follow::thousands(total_lines as u64),
    );
    let (ob, tb) = (
        llmops_tools::human_size(omitted_bytes),
        llmops_tools::human_size(text.len() as u64),
    );
    let mut out = head.join("\n");
    out.push_str(&format!(
        "\n…（中间省略 {ol} 行 / {ob}，全文共 {tl} 行 / {tb}）… / … {ol} lines / {ob} omitted of {tl} lines / {tb} …\n"
    ));
    out.push_str(&tail.join("\n"));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::ToolCallRow;
    use serde_json::json;

    fn row(role: &str, text: &str) -> MessageRow {
        MessageRow {
            role: role.into(),
            text: text.into(),
            time: String::new(),
            tool_calls: vec![],
        }
    }

    #[test]
    fn system_prompt_is_bilingual_and_names_the_tools() {
        let s = system_message(&[]);
        for t in [
            "sys_monitor",
            "command_executor",
            "semantic_search",
            "file_read",
            "file_download",
            "file_upload",
            "user's language",
            "Never put file contents in a download",
            "用用户的语言回答",
        ] {
            assert!(s.contains(t), "{t}");
        }
    }

    #[test]
    fn history_includes_tool_calls_and_starts_with_user() {
        let mut a = row("assistant", "找到 nginx.conf");
        a.tool_calls.push(ToolCallRow {
            tool: "semantic_search".into(),
            args: json!({"query": "nginx"}),
            ok: true,
            duration_ms: 3,
            summary: "找到 1 个结果".into(),
            output: None,
            facts: None,
        });
        let rows = vec![row("assistant", "orphan"), row("user", "找 nginx 配置"), a];
        let h = history_messages(&rows, 1000);
        assert!(matches!(&h[0], ChatMessage::User(t) if t == "找 nginx 配置"));
        assert!(
            matches!(&h[1], ChatMessage::Assistant { tool_calls, .. } if tool_calls[0].name == "semantic_search")
        );
        assert!(
            matches!(&h[2], ChatMessage::Tool { content, .. } if content.contains("找到 1 个结果"))
        );
        assert!(
            matches!(&h[3], ChatMessage::Assistant { content, .. } if content == "找到 nginx.conf")
        );
    }

    #[test]
    fn history_is_token_budgeted_cjk_aware() {
        let rows: Vec<MessageRow> = (0..50)
            .flat_map(|i| {
                [
                    row("user", &"问".repeat(100)),
                    row("assistant", &format!("答{i}{}", "好".repeat(100))),
                ]
            })
            .collect();
        let h = history_messages(&rows, 1000);
        // About 100 tokens per CJK message: some but not all 100 rows fit.
        assert!(h.len() >= 6 && h.len() <= 10, "{}", h.len());
        assert!(
            matches!(h.last(), Some(ChatMessage::Assistant { content, .. }) if content.starts_with("答49"))
        );
        let en: Vec<MessageRow> = (0..50).map(|_| row("user", &"word ".repeat(60))).collect();
        // 300 ASCII chars are about 100 tokens: English fits about as many messages.
        let n = history_messages(&en, 1000).len();
        assert!((6..=10).contains(&n), "{n}");
        // A huge newest message is kept, cut.
        let big = vec![row("user", &"x".repeat(100_000))];
        let h = history_messages(&big, 100);
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn observations_are_truncated() {
        let r = ToolResult::success("a".repeat(10_000), llmops_tools::ToolData::None);
        let o = observation(&r, None);
        assert!(o.chars().count() < 6200, "{}", o.chars().count());
        assert!(o.contains("omitted of 1 lines / 9.8 KiB"), "{o}");
        assert!(o.starts_with(&"a".repeat(3000)) && o.ends_with(&"a".repeat(3000)));
        let f = ToolResult::failure("路径不允许");
        assert!(observation(&f, None).contains("路径不允许"));
        // A cut observation of a stored output says how to page it; a whole one does not.
        let stored = protocol::OutputRef {
            output_id: "o7".into(),
            lines: 20_000,
            bytes: 300_000,
            truncated: false,
        };
        let long = ToolResult::success("x\n".repeat(20_000), llmops_tools::ToolData::None);
        assert!(observation(&long, Some(&stored)).contains(r#"file_read {"output_id": "o7""#));
        let short = ToolResult::success("ok", llmops_tools::ToolData::None);
        assert_eq!(observation(&short, Some(&stored)), "ok");
    }

    #[test]
    fn observations_keep_head_and_tail_with_exact_counts() {
        // 20,000 lines of "line N": the model sees the first and the last lines and how
        // much is in between.
        let text: String = (1..=20_000).map(|i| format!("line {i}\n")).collect();
        let o = head_tail(&text, 1000);
        assert!(o.starts_with("line 1\nline 2\n"), "{o}");
        assert!(o.ends_with("line 19999\nline 20000"), "{o}");
        let shown: Vec<&str> = o.lines().filter(|l| l.starts_with("line ")).collect();
        let omitted = 20_000 - shown.len();
        let shown_bytes: usize = shown.iter().map(|l| l.len() + 1).sum();
        let ob = llmops_tools::human_size((text.len() - shown_bytes) as u64);
        let marker = format!(
            "… {} lines / {ob} omitted of 20,000 lines / {} …",
            llmops_tools::follow::thousands(omitted as u64),
            llmops_tools::human_size(text.len() as u64)
        );
        assert!(o.contains(&marker), "{marker}\n{o}");
        assert!(o.contains(&format!(
            "中间省略 {} 行",
            llmops_tools::follow::thousands(omitted as u64)
        )));
        assert!(o.chars().count() <= 1000 + 120);
        // Short texts are untouched.
        assert_eq!(head_tail("a\nb\n", 100), "a\nb\n");
    }
}
