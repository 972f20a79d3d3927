//! One RDT upload on the server: drives a responder `Receiver` with the datagrams the demux
//! routes here (the same UDP driver as downloads, reversed), writes chunks into the upload's
//! temp file where they belong, feeds the in-order prefix to the upload's sha256 and text
//! sniffer while receiving, and ends through the one finishing path NPLT uploads use.
//! With the client's sha256 the chunks go to the upload's resume state (`resume.rs`), so a
//! later attempt of the same upload in the same session only receives what is missing.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use protocol::rdt::{decode, encode_abort, AbortCode, Config, Packet, Receiver};
use protocol::{Message, UploadResult, UploadStatus};
use rdt_io::{receive_file, DriveError, Inbox, Link, RecvOptions};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;

use super::download::drive_error_text;
use super::resume::{self, UploadKey};
use crate::app::Ctx;
use crate::transfer::UploadGrant;
use crate::uploads::UploadError;

const TICK: Duration = Duration::from_millis(250);
/// After the last chunk, answer the client's FIN this long at most.
const FIN_LINGER: Duration = Duration::from_secs(1);
/// How often the resume bitmap is persisted (after an fdatasync of the data it describes).
const PERSIST_EVERY: Duration = Duration::from_millis(500);

/// Receives the upload, then verifies, records and indexes it; the client hears the
/// outcome on its NPLT connection (UPLOAD_RESULT or ERROR with the grant's request id).
pub(super) async fn run(
    ctx: Arc<Ctx>,
    socket: Arc<UdpSocket>,
    g: UploadGrant,
    conn: u64,
    peer: SocketAddr,
    rx: mpsc::Receiver<Bytes>,
) {
    let m = &ctx.transfers.metrics.rdt;
    m.active.fetch_add(1, Ordering::Relaxed);
    let started = Instant::now();
    let filename = g.incoming.filename.clone();
    tracing::info!(%peer, %filename, size = g.incoming.announced, "rdt upload start");
    let (request_id, push) = (g.request_id, g.push.clone());
    let (index_push, on_save) = (g.extension.then(|| g.push.clone()), g.result_on_save);
    let outcome = receive(&ctx, &socket, g, conn, peer, rx).await;
    m.active.fetch_sub(1, Ordering::Relaxed);
    if outcome.is_ok() {
        m.completed.fetch_add(1, Ordering::Relaxed);
    } else {
        m.failed.fetch_add(1, Ordering::Relaxed);
    }
    tracing::info!(
        %filename,
        ok = outcome.is_ok(),
        secs = started.elapsed().as_secs_f64(),
        "rdt upload end"
    );
    let result = |row: &crate::store::UploadRow| {
        Message::UploadResult(UploadResult {
            request_id,
            file: crate::wire::file_info(row),
        })
    };
    // The file is durable (state `saved`) here; indexing follows, and the result goes out
    // before it or after it as the client asked. The session may be gone; then nobody is
    // left to tell.
    let reply = match outcome {
        Ok(row) if on_save => {
            if push.send(result(&row)).await.is_err() {
                tracing::debug!(%filename, "upload saved; its session is gone, result not sent");
            }
            ctx.uploads.after_upload(row, index_push).await;
            return;
        }
        Ok(row) => result(&ctx.uploads.after_upload(row, index_push).await),
        Err(e) => Message::error(e.code(), e.to_string(), Some(request_id)),
    };
    if push.send(reply).await.is_err() {
        tracing::debug!(%filename, "upload ended; its session is gone, result not sent");
    }
}

async fn receive(
    ctx: &Arc<Ctx>,
    socket: &Arc<UdpSocket>,
    g: UploadGrant,
    conn: u64,
    peer: SocketAddr,
    mut rx: mpsc::Receiver<Bytes>,
) -> Result<crate::store::UploadRow, UploadError> {
    let UploadGrant {
        mut incoming,
        session_id,
        push,
        extension,
        ..
    } = g;
    let size = incoming.announced;
    // The demux queued the client's REQUEST first: it carries the chunk size.
    let first = rx.recv().await;
    let chunk_size = match first.as_deref().map(decode) {
        Some(Ok((_, Packet::Request(r)))) if r.file_size == size => Some(r.chunk_size),
        _ => None,
    };
    let key = incoming.expected_sha256.clone().map(|sha256| UploadKey {
        session_id: session_id.clone(),
        sha256,
        size,
    });
    // A newer attempt of the same upload cancels this one (and waits until it let go).
    let claim = match &key {
        Some(k) => Some(ctx.transfers.upload_resumes.claim(k, &ctx.shutdown).await),
        None => None,
    };
    let opened = match (&key, chunk_size) {
        (Some(k), Some(cs)) => {
            let dir = ctx.cfg.uploads_dir().join(".tmp").join("rdt-resume");
            match resume::open(&dir, k, cs) {
                Ok(o) => Some(o),
                Err(e) => {
                    tracing::warn!(filename = %incoming.filename, "RDT upload resume state unavailable, receiving from the start: {e}");
                    None
                }
            }
        }
        _ => None,
    };
    let (file, resume_files, held) = match opened {
        Some(o) => (o.file, Some(o.files), o.held),
        None => match incoming.positioned_file().await {
            Ok(f) => (f, None, None),
            Err(e) => {
                abort_peer(socket, conn, peer, AbortCode::Io).await;
                incoming.abort().await;
                return Err(e);
            }
        },
    };
    if let Some(h) = &held {
        tracing::info!(
            filename = %incoming.filename,
            held_chunks = h.count(),
            "rdt upload resumes"
        );
    }
    let rxm = chunk_size
        .and_then(|cs| Receiver::new(conn, size, cs, held, Config::default(), Instant::now()).ok());
    let (Some(mut rxm), Some(first)) = (rxm, first) else {
        abort_peer(socket, conn, peer, AbortCode::Mismatch).await;
        incoming.abort().await;
        return Err(UploadError::Io(
            "上传请求与声明不符 / the RDT request does not match the announced upload".into(),
        ));
    };
    rxm.handle(&first, Instant::now());
    let mut link = Link {
        socket: socket.clone(),
        peer: Some(peer),
        inbox: Inbox::Channel(rx),
    };
    let cancel = claim
        .as_ref()
        .map_or_else(|| ctx.shutdown.child_token(), |c| c.cancel.clone());
    let mut refused: Option<UploadError> = None;
    let filename = incoming.filename.clone();
    let result = {
        let inc = &mut incoming;
        let refused = &mut refused;
        let mut prefix = |d: &[u8]| {
            inc.absorb(d).map_err(|e| {
                let s = e.to_string();
                *refused = Some(e);
                s
            })
        };
        let mut last_pct = 0;
        let mut persisted = Instant::now();
        let (rf, f) = (&resume_files, &file);
        let mut tick = |r: &Receiver| {
            // Every written chunk is in the file when `tick` runs.
            if let Some(rf) = rf {
                if persisted.elapsed() >= PERSIST_EVERY {
                    persisted = Instant::now();
                    if let Err(e) = rf.persist(f, r.bitmap()) {
                        tracing::warn!("cannot persist the RDT upload resume bitmap: {e}");
                    }
                }
            }
            let held = r.stats().bytes_held;
            let pct = held * 20 / size.max(1);
            if extension && pct > last_pct && held < size {
                last_pct = pct;
                let _ = push.try_send(Message::UploadStatus(UploadStatus {
                    file_id: String::new(),
                    filename: filename.clone(),
                    state: crate::store::UploadState::Receiving.as_str().into(),
                    detail: None,
                    done: held,
                    total: size,
                }));
            }
        };
        let opts = RecvOptions {
            handshake_timeout: None,
            fin_linger: FIN_LINGER,
            tick: TICK,
        };
        receive_file(
            &mut link,
            &mut rxm,
            conn,
            &file,
            &cancel,
            &opts,
            &mut prefix,
            &mut tick,
        )
        .await
    };
    if let Err(e) = result {
        drop(file);
        incoming.abort().await;
        if let Some(rf) = resume_files {
            if refused.is_some() {
                // Refused content is not worth resuming.
                rf.discard();
            } else {
                // Kept with the bitmap last persisted (it never claims unwritten bytes).
                tracing::info!(%filename, "rdt upload interrupted; resume state kept");
            }
        }
        let e = match (refused, e) {
            (Some(u), _) => u,
            (None, DriveError::Io(io)) => UploadError::Io(io.to_string()),
            (None, other) => UploadError::Io(format!(
                "RDT 上传未完成 / RDT upload failed: {}",
                drive_error_text(&other)
            )),
        };
        ctx.uploads.audit_refused(&session_id, &filename, &e);
        return Err(e);
    }
    match resume_files {
        Some(rf) => {
            if let Err(e) = rf.complete_into(file, incoming.temp_path()) {
                incoming.abort().await;
                return Err(UploadError::Io(e.to_string()));
            }
        }
        None => drop(file),
    }
    drop(claim);
    ctx.uploads.save(&session_id, *incoming).await
}

async fn abort_peer(socket: &UdpSocket, conn: u64, peer: SocketAddr, code: AbortCode) {
    let mut buf = [0u8; 64];
    if let Ok(n) = encode_abort(conn, code, &mut buf) {
        let _ = socket.send_to(&buf[..n], peer).await;
    }
}
