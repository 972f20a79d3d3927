//! Line-mode chat (`chat --plain`, or the client off a terminal): one question per line,
//! the answer streamed with its tool steps and live output, `/upload <file> [note]` and
//! `/quit`.

use std::path::PathBuf;

use protocol::{AgentEventKind, Message};

use super::args::Common;
use super::exit::fail;
use super::stdout;
use super::turn::collect_turn;
use crate::client::{Client, ClientOptions};

/// Line-mode chat: one question per line, answers streamed. Used for `chat --plain` and
/// when stdin or stdout is not a terminal.
pub async fn line_chat(common: Common) -> u8 {
    let mut opts = ClientOptions::new(common.server.clone());
    opts.resume_session = common.session.clone();
    opts.auth_token = common.token.clone();
    opts.reconnect = true;
    let (client, _events) = match Client::connect(opts).await {
        Ok(c) => c,
        Err(e) => return fail(&common, &e),
    };
    let w = client.welcome();
    outln!("{}", w.motd);
    outln!("(输入问题后回车；/upload <文件> [说明] 上传；/quit 退出 / type a question; /quit to leave)");
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let mut lines = tokio::io::AsyncBufReadExt::lines(stdin);
    loop {
        stdout::text("> ");
        let Ok(Some(line)) = lines.next_line().await else {
            return 0;
        };
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        if line == "/quit" || line == "/exit" {
            return 0;
        }
        let Some((text, files)) = turn_input(&client, line).await else {
            continue;
        };
        let r = collect_turn(&client, &text, files, print_live).await;
        match r {
            Ok(_) => outln!(),
            Err(e) => outln!("\n错误 / error: {e}"),
        }
    }
}

/// What a line asks: the line itself, or after `/upload <file> [note]` the note about the
/// uploaded file. `None` when there is nothing to ask (an upload without a note, or one
/// that failed; either is said on stdout).
async fn turn_input(client: &Client, line: String) -> Option<(String, Vec<String>)> {
    let Some(rest) = line.strip_prefix("/upload ") else {
        return Some((line, Vec::new()));
    };
    let mut parts = rest.trim().splitn(2, ' ');
    let path = PathBuf::from(parts.next().unwrap_or_default());
    let note = parts.next().unwrap_or("").to_string();
    match client.upload(&path).await {
        Ok(f) => {
            outln!("已上传 / uploaded {} ({})", f.filename, f.file_id);
            if note.trim().is_empty() {
                return None;
            }
            Some((note, vec![f.file_id]))
        }
        Err(e) => {
            outln!("上传失败 / upload failed: {e}");
            None
        }
    }
}

/// Prints a turn's message as it arrives: answer text, tool calls and results, status and
/// the live lines of a follow (`tail -f`).
fn print_live(m: &Message) {
    match m {
        Message::StreamDelta(d) => {
            stdout::text(&d.text);
        }
        Message::AgentEvent(e) => match &e.event {
            AgentEventKind::ToolCall { tool, args, .. } => outln!("  → {tool} {args}"),
            AgentEventKind::ToolResult {
                tool,
                ok,
                duration_ms,
                summary,
                ..
            } => {
                outln!(
                    "  {} {tool} ({duration_ms} ms) {summary}",
                    if *ok { "✓" } else { "✗" }
                )
            }
            AgentEventKind::Status { text } => outln!("  … {text}"),
        },
        // Live lines of a follow (`tail -f`): printed as they arrive.
        Message::ToolOutput(o) => {
            for l in &o.lines {
                outln!("  │ {}", crate::sanitize::sanitize(l));
            }
            if o.dropped > 0 {
                outln!("  │ … {} lines not shown live (rate limit)", o.dropped);
            }
        }
        _ => {}
    }
}
