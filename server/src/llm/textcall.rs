//! The strict text tool-call protocol for models without function calling: a reply holding a
//! `TOOL: name` line followed by an `ARGS: {json}` line is a tool call (the JSON is read by a
//! real scanner, so nested objects and braces inside strings work); anything else is final
//! text. Also renders the conversation for that protocol and gates streamed text so the
//! user never sees protocol lines.

use serde_json::Value;

use super::{ChatMessage, ToolCall};

const TOOL: &str = "TOOL:";
const ARGS: &str = "ARGS:";

/// The instructions appended to the system prompt in text mode.
pub fn instructions(tools: &[Value]) -> String {
    let mut s = String::from(
        "\n\n## 工具调用格式 / Tool call format\n\
         本模型不支持原生函数调用。要调用工具，只回复两行，不要写其他内容 / \
         To call a tool, reply with exactly these two lines and nothing else:\n\
         TOOL: <tool name>\nARGS: <JSON object with the arguments>\n\
         工具结果会以 OBSERVATION 消息返回 / The result comes back as an OBSERVATION message. \
         得到答案后直接用纯文本回答，不要再写 TOOL 行 / When you can answer, reply in plain \
         text with no TOOL line.\n\n可用工具 / Available tools:\n",
    );
    for t in tools {
        let f = &t["function"];
        s.push_str(&format!(
            "- {}: {}\n  parameters: {}\n",
            f["name"].as_str().unwrap_or_default(),
            f["description"].as_str().unwrap_or_default(),
            f["parameters"]
        ));
    }
    s
}

/// Renders messages for a model that only speaks text: tool calls become `TOOL`/`ARGS`
/// lines in the assistant message, tool results one `OBSERVATION` user message.
pub fn render(messages: &[ChatMessage], tools: &[Value]) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    for m in messages {
        match m {
            ChatMessage::System(s) => {
                let mut s = s.clone();
                if !tools.is_empty() {
                    s.push_str(&instructions(tools));
                }
                out.push(("system", s));
            }
            ChatMessage::User(s) => out.push(("user", s.clone())),
            ChatMessage::Assistant {
                content,
                tool_calls,
            } => {
                let mut s = content.trim().to_string();
                for c in tool_calls {
                    if !s.is_empty() {
                        s.push('\n');
                    }
                    let args = match &c.args {
                        Value::String(raw) => raw.clone(),
                        v => v.to_string(),
                    };
                    s.push_str(&format!("{TOOL} {}\n{ARGS} {args}", c.name));
                }
                out.push(("assistant", s));
            }
            ChatMessage::Tool { name, content, .. } => {
                let block = format!("OBSERVATION ({name}):\n{content}");
                // Several results of one step travel as one message: some providers reject
                // two user messages in a row.
                match out.last_mut() {
                    Some(("user", prev)) if prev.starts_with("OBSERVATION") => {
                        prev.push_str("\n\n");
                        prev.push_str(&block);
                    }
                    _ => out.push(("user", block)),
                }
            }
        }
    }
    out
}

fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
}

/// The tool name of a `TOOL:` line (`TOOL: name`, optionally in backticks).
fn tool_line(line: &str) -> Option<&str> {
    let rest = line.trim_start().strip_prefix(TOOL)?;
    let name = rest.trim().trim_matches('`').trim();
    is_name(name).then_some(name)
}

/// Parses a text-mode reply into (text, tool calls). Text is everything before the first
/// `TOOL:` line (code fences around the block dropped); calls get ids `text_call_N`.
pub fn parse(reply: &str) -> (String, Vec<ToolCall>) {
    let mut calls = Vec::new();
    let mut first_tool_at: Option<usize> = None;
    let mut pos = 0;
    while pos < reply.len() {
        let line_end = reply[pos..].find('\n').map_or(reply.len(), |i| pos + i);
        let line = &reply[pos..line_end];
        let Some(name) = tool_line(line) else {
            pos = line_end + 1;
            continue;
        };
        first_tool_at.get_or_insert(pos);
        let mut next = line_end + 1;
        // The ARGS line: the next non-empty line, whose JSON may span several lines.
        let mut args = Value::Object(Default::default());
        let mut p = next;
        while p < reply.len() {
            let le = reply[p..].find('\n').map_or(reply.len(), |i| p + i);
            let l = reply[p..le].trim();
            if l.is_empty() {
                p = le + 1;
                continue;
            }
            if let Some(after) = l.strip_prefix(ARGS) {
                let start = p + reply[p..le].find(ARGS).unwrap_or(0) + ARGS.len();
                let (v, end) = scan_json(&reply[start..]);
                args = v.unwrap_or_else(|| Value::String(after.trim().to_string()));
                next = start + end;
                // Continue after the line the JSON ended on.
                next = reply[next..]
                    .find('\n')
                    .map_or(reply.len(), |i| next + i + 1);
            }
            break;
        }
        calls.push(ToolCall {
            id: format!("text_call_{}", calls.len() + 1),
            name: name.to_string(),
            args,
        });
        pos = next;
    }
    let text = match first_tool_at {
        Some(i) => strip_fence_tail(&reply[..i]),
        None => reply.to_string(),
    };
    (text, calls)
}

fn strip_fence_tail(s: &str) -> String {
    let mut t = s.trim_end();
    while let Some(r) = t.strip_suffix("```") {
        t = r.trim_end();
    }
    // A fence opener with a language tag (```text).
    if let Some(i) = t.rfind('\n') {
        if t[i + 1..].trim_start().starts_with("```") {
            t = t[..i].trim_end();
        }
    } else if t.trim_start().starts_with("```") {
        t = "";
    }
    t.to_string()
}

/// Reads one JSON object starting at the first `{` in `s`; returns it (None when absent or
/// invalid) and the byte offset just past it (or past the scanned text when invalid).
fn scan_json(s: &str) -> (Option<Value>, usize) {
    let Some(open) = s.find('{') else {
        return (None, s.find('\n').unwrap_or(s.len()));
    };
    // Only a `{` on the ARGS line itself counts: `ARGS:` then prose is not a call.
    if s[..open].contains('\n') || !s[..open].trim().trim_matches('`').is_empty() {
        return (None, s.find('\n').unwrap_or(s.len()));
    }
    let mut it = serde_json::Deserializer::from_str(&s[open..]).into_iter::<Value>();
    match it.next() {
        Some(Ok(v @ Value::Object(_))) => (Some(v), open + it.byte_offset()),
        _ => (None, s.find('\n').unwrap_or(s.len())),
    }
}

/// Streams text-mode replies: releases text as it arrives, except a line that is or may
/// become a `TOOL:` line; from the first such line on nothing more is released. A fence
/// line is held until the next line shows whether it opens a tool block.
#[derive(Debug, Default)]
pub struct TextGate {
    /// Text of the current line not yet released (it may still turn into `TOOL:`).
    held: String,
    /// Complete lines held back (fences, blanks) pending the next line.
    held_lines: String,
    /// The current line was already (partly) released: it cannot be a `TOOL:` line.
    line_open: bool,
    tool_seen: bool,
}

impl TextGate {
    pub fn new() -> TextGate {
        TextGate::default()
    }

    pub fn tool_seen(&self) -> bool {
        self.tool_seen
    }

    /// Feeds a delta; returns the text that may be shown now.
    pub fn push(&mut self, delta: &str) -> String {
        let mut out = String::new();
        if self.tool_seen {
            return out;
        }
        for ch in delta.chars() {
            if self.tool_seen {
                break;
            }
            if self.line_open {
                out.push(ch);
                if ch == '\n' {
                    self.line_open = false;
                }
                continue;
            }
            self.held.push(ch);
            if ch == '\n' {
                let line = std::mem::take(&mut self.held);
                self.complete_line(line, &mut out);
            } else {
                self.check_partial(&mut out);
            }
        }
        out
    }

    fn complete_line(&mut self, line: String, out: &mut String) {
        let t = line.trim();
        if tool_line(&line).is_some() {
            self.tool_seen = true;
            self.held_lines.clear();
        } else if t.is_empty() || t.starts_with("```") {
            self.held_lines.push_str(&line);
        } else {
            out.push_str(&std::mem::take(&mut self.held_lines));
            out.push_str(&line);
        }
    }

    fn check_partial(&mut self, out: &mut String) {
        let t = self.held.trim_start();
        let maybe_tool = TOOL.starts_with(t) || t.starts_with(TOOL);
        let maybe_fence = "```".starts_with(t) || t.starts_with("```");
        if !maybe_tool && !maybe_fence {
            out.push_str(&std::mem::take(&mut self.held_lines));
            out.push_str(&std::mem::take(&mut self.held));
            self.line_open = true;
        }
    }

    /// The reply ended: whatever is held and is not protocol is released.
    pub fn finish(&mut self) -> String {
        if self.tool_seen {
            return String::new();
        }
        let line = std::mem::take(&mut self.held);
        if tool_line(&line).is_some() {
            self.tool_seen = true;
            return String::new();
        }
        let mut out = std::mem::take(&mut self.held_lines);
        out.push_str(&line);
        // Trailing blank lines and fences alone are not worth showing.
        if out.trim().is_empty() || out.trim() == "```" {
            return String::new();
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn plain_text_is_final() {
        let (t, c) = parse("CPU 使用率为 12%。\n一切正常。");
        assert!(c.is_empty());
        assert_eq!(t, "CPU 使用率为 12%。\n一切正常。");
    }

    #[test]
    fn tool_and_args() {
        let (t, c) = parse("TOOL: sys_monitor\nARGS: {\"metric\": \"cpu\"}");
        assert_eq!(t, "");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].name, "sys_monitor");
        assert_eq!(c[0].args, json!({"metric": "cpu"}));
        assert_eq!(c[0].id, "text_call_1");
    }

    #[test]
    fn nested_and_braces_in_strings() {
        let reply = "我来搜索一下。\n```\nTOOL: semantic_search\nARGS: {\"query\": \"a } b { c\", \"opts\": {\"k\": [1, {\"x\": \"}\"}]}}\n```\nthen more";
        let (t, c) = parse(reply);
        assert_eq!(t, "我来搜索一下。");
        assert_eq!(
            c[0].args,
            json!({"query": "a } b { c", "opts": {"k": [1, {"x": "}"}]}})
        );
    }

    #[test]
    fn multiline_args_and_two_calls() {
        let reply = "TOOL: `file_read`\nARGS: {\n  \"file_path\": \"/var/log/syslog\",\n  \"limit\": 20\n}\nTOOL: sys_monitor\n\nARGS: {}";
        let (_, c) = parse(reply);
        assert_eq!(c.len(), 2);
        assert_eq!(c[0].name, "file_read");
        assert_eq!(c[0].args["limit"], 20);
        assert_eq!(c[1].name, "sys_monitor");
        assert_eq!(c[1].id, "text_call_2");
    }

    #[test]
    fn bad_args_are_kept_raw_for_the_model() {
        let (_, c) = parse("TOOL: file_read\nARGS: {\"file_path\": ");
        assert_eq!(c[0].args, Value::String("{\"file_path\":".into()));
        let (_, c) = parse("TOOL: sys_monitor");
        assert_eq!(c[0].args, json!({}));
    }

    #[test]
    fn tool_word_in_prose_is_not_a_call() {
        for s in [
            "The TOOL: line format is described above",
            "use TOOL: to call",
            "TOOL: two words",
        ] {
            let (t, c) = parse(s);
            assert!(c.is_empty(), "{s}");
            assert_eq!(t, s);
        }
    }

    fn gate_all(chunks: &[&str]) -> (String, bool) {
        let mut g = TextGate::new();
        let mut out = String::new();
        for c in chunks {
            out.push_str(&g.push(c));
        }
        out.push_str(&g.finish());
        (out, g.tool_seen())
    }

    #[test]
    fn gate_streams_text_and_hides_protocol() {
        let text = "磁盘使用率 45%。\nAll good.";
        for i in 0..=text.len() {
            if !text.is_char_boundary(i) {
                continue;
            }
            assert_eq!(gate_all(&[&text[..i], &text[i..]]), (text.into(), false));
        }
        let call = "Let me check.\n```\nTOOL: sys_monitor\nARGS: {}\n```";
        for i in 0..=call.len() {
            let (out, seen) = gate_all(&[&call[..i], &call[i..]]);
            assert_eq!(out, "Let me check.\n", "split {i}");
            assert!(seen);
        }
    }

    #[test]
    fn gate_releases_early() {
        let mut g = TextGate::new();
        assert_eq!(g.push("T"), "");
        assert_eq!(g.push("he"), "The");
        assert_eq!(g.push(" CPU"), " CPU");
        assert_eq!(g.push("\nTO"), "\n");
        assert_eq!(g.push("day"), "TOday");
    }

    #[test]
    fn render_text_mode() {
        let msgs = vec![
            ChatMessage::System("sys".into()),
            ChatMessage::User("q".into()),
            ChatMessage::Assistant {
                content: String::new(),
                tool_calls: vec![ToolCall {
                    id: "1".into(),
                    name: "sys_monitor".into(),
                    args: json!({"metric": "cpu"}),
                }],
            },
            ChatMessage::Tool {
                tool_call_id: "1".into(),
                name: "sys_monitor".into(),
                content: "cpu 5%".into(),
            },
            ChatMessage::Tool {
                tool_call_id: "2".into(),
                name: "x".into(),
                content: "y".into(),
            },
        ];
        let tools = vec![
            json!({"type":"function","function":{"name":"sys_monitor","description":"d","parameters":{}}}),
        ];
        let r = render(&msgs, &tools);
        assert_eq!(r.len(), 4);
        assert!(r[0].1.contains("TOOL: <tool name>") && r[0].1.contains("- sys_monitor: d"));
        assert_eq!(r[2].1, "TOOL: sys_monitor\nARGS: {\"metric\":\"cpu\"}");
        assert_eq!(r[3].0, "user");
        assert!(r[3].1.contains("cpu 5%") && r[3].1.contains("OBSERVATION (x)"));
        let (_, c) = parse(&r[2].1);
        assert_eq!(c[0].args, json!({"metric": "cpu"}));
    }
}
