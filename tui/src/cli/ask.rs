//! `ask`: uploads the files the question refers to, then asks it in the same session,
//! answering approval requests as `--yes-to` says; the answer streams to stdout (or comes
//! as one JSON object).

use std::path::PathBuf;

use protocol::{AgentEventKind, Message};
use serde_json::json;

use super::approve::Approver;
use super::args::Common;
use super::session::session_id;
use super::stdout;
use super::transfer::upload_file;
use super::turn::{collect_turn_with, turn_status};
use crate::client::{Client, ClientError, UploadMode};

/// `ask` with its `--yes-to` answers; a value that does not split is a bad argument.
pub(super) async fn ask_yes_to(
    client: &Client,
    common: &Common,
    uploads: &[PathBuf],
    yes_to: &[String],
    text: &[String],
) -> Result<u8, ClientError> {
    match Approver::new(yes_to) {
        Ok(mut approver) => {
            ask(
                client.clone(),
                common,
                uploads,
                &mut approver,
                &text.join(" "),
            )
            .await
        }
        Err(e) => Err(ClientError::Server {
            code: "bad_argument".into(),
            message: e.to_string(),
        }),
    }
}

/// Uploads `uploads`, then asks `text` in the same session.
async fn ask(
    mut client: Client,
    common: &Common,
    uploads: &[PathBuf],
    approver: &mut Approver,
    text: &str,
) -> Result<u8, ClientError> {
    let mut file_ids = Vec::new();
    for p in uploads {
        let (c, res) = upload_file(client, common, p, UploadMode::default()).await;
        client = c;
        let f = res?;
        if !common.json {
            errln!("已上传 / uploaded {} ({})", f.filename, f.file_id);
        }
        file_ids.push(f.file_id);
    }
    let json_mode = common.json;
    let r = collect_turn_with(&client, text, file_ids, approver, |m| {
        if json_mode {
            return;
        }
        match m {
            Message::StreamDelta(d) => {
                stdout::text(&d.text);
            }
            Message::AgentEvent(e) => {
                if let AgentEventKind::ToolCall { tool, args, .. } = &e.event {
                    errln!("→ {tool} {args}");
                }
            }
            _ => {}
        }
    })
    .await?;
    let (status, failure) = turn_status(&r);
    if json_mode {
        let mut v = json!({"session_id": session_id(&client).await, "status": status,
            "answer": r.answer, "steps": r.steps, "approvals": r.approvals_json()});
        if let Some(m) = &failure {
            v["message"] = json!(m);
            v["error"] = json!(m);
        }
        outln!("{v}");
    } else {
        outln!();
    }
    // A failed turn says why on stderr in both modes (a script may only keep stderr).
    Ok(match failure {
        None => 0,
        Some(m) => {
            errln!("llmops-tui: turn ended ({status}): {m}");
            1
        }
    })
}
