//! `upload` and `download`: a file to the session (resumed across a lost connection, and
//! waited for until it is indexed) and a file from the server (verified on disk).

use std::time::Duration;

use llmops_client::upload::{upload_retrying, wait_indexed_retrying, RetryPolicy};
use protocol::{EndStatus, FileInfo};
use serde_json::json;

use super::args::Common;
use super::session::session_id;
use super::turn::collect_turn;
use crate::client::{Client, ClientError, ClientOptions, UploadMode};

/// `--mode` of `upload`: `auto` picks RDT above `threshold` bytes.
pub(super) fn upload_mode(mode: &str, threshold: u64) -> UploadMode {
    match mode {
        "rdt" => UploadMode::Rdt,
        "nplt" => UploadMode::Nplt,
        _ => UploadMode::Auto { threshold },
    }
}

/// Uploads `file`; when the connection is lost it reconnects to the same session, asks
/// whether the file landed (UPLOAD_LOOKUP) and sends it again only if not. Returns once the
/// file is indexed (a script searches right after), with the client to go on with; a file
/// that landed is reported as landed even when the server goes away before it is indexed.
pub(super) async fn upload_file(
    client: Client,
    common: &Common,
    file: &std::path::Path,
    mode: UploadMode,
) -> (Client, Result<FileInfo, ClientError>) {
    let reconnect = |session: String| {
        let mut o = ClientOptions::new(common.server.clone());
        o.resume_session = Some(session);
        o.auth_token = common.token.clone();
        async move { Client::connect(o).await.map(|(c, _events)| c) }
    };
    let (client, res) =
        upload_retrying(client, file, mode, RetryPolicy::default(), reconnect).await;
    let up = match res {
        Ok(up) => up,
        Err(e) => return (client, Err(e)),
    };
    if up.found_after_loss && !common.json {
        errln!(
            "连接中断，服务器已保存该文件，未重复上传 / the connection was lost after the server saved {}; not sent again",
            up.file.filename
        );
    }
    let (client, res) = wait_indexed_retrying(
        client,
        up.file,
        Duration::from_secs(600),
        RetryPolicy::default(),
        reconnect,
    )
    .await;
    let res = res.map(|w| {
        if let Some(why) = &w.unconfirmed {
            errln!(
                "已保存 {}，但服务器在建立索引前断开，重启后会自动索引 / {} is saved, but the server went away before it was indexed; it is indexed when the server starts again ({why})",
                w.file.filename,
                w.file.filename
            );
        }
        w.file
    });
    (client, res)
}

/// `upload`: the file, then (with a note) the note asked about it; exit 1 when that turn
/// did not end ok.
pub(super) async fn upload(
    client: Client,
    common: &Common,
    file: &std::path::Path,
    mode: UploadMode,
    note: &str,
) -> Result<u8, ClientError> {
    let (client, res) = upload_file(client, common, file, mode).await;
    let f = res?;
    if !common.json {
        outln!(
            "已上传 / uploaded {} ({} bytes) id={} sha256={} state={}",
            f.filename,
            f.size,
            f.file_id,
            f.sha256,
            f.state
        );
    }
    // The note is a question about the file: its answer belongs to the result.
    let turn = if note.trim().is_empty() {
        None
    } else {
        Some(collect_turn(&client, note, vec![f.file_id.clone()], |_| {}).await?)
    };
    if common.json {
        let mut v = json!({"session_id": session_id(&client).await, "file_id": f.file_id,
            "filename": f.filename, "size": f.size, "sha256": f.sha256, "state": f.state});
        if let Some(r) = &turn {
            v["answer"] = json!(r.answer);
            v["steps"] = json!(r.steps);
        }
        outln!("{v}");
    } else if let Some(r) = &turn {
        outln!("{}", r.answer);
    }
    Ok(match turn.map(|r| r.status) {
        None | Some(Some(EndStatus::Ok)) => 0,
        Some(_) => 1,
    })
}

/// `download`: an offer of `target`, received into `out` and verified on disk.
pub(super) async fn download(
    client: &Client,
    events: &mut tokio::sync::mpsc::UnboundedReceiver<crate::client::ClientEvent>,
    common: &Common,
    target: &str,
    mode: &str,
    out: &std::path::Path,
    force: bool,
) -> Result<u8, ClientError> {
    // Checked before an offer is made: a missing folder is the user's to fix.
    llmops_client::download::check_destination(out)?;
    let offer = crate::download::request_offer(client, target, mode).await?;
    if !common.json {
        errln!(
            "下载 / downloading {} ({} bytes, sha256 {}…)",
            offer.filename,
            offer.size,
            &offer.sha256[..offer.sha256.len().min(12)]
        );
    }
    let d = crate::download::receive(client, events, &offer, mode, out, force, |_, _| {}).await?;
    if common.json {
        outln!("{}", serde_json::to_string(&d).unwrap_or_default());
    } else {
        outln!("{}", d.path.display());
    }
    Ok(0)
}
