//! One RDT upload on the server: drives a responder `Receiver` with the datagrams the demux
//! routes here (the same UDP driver as downloads, reversed), writes chunks into the upload's
//! temp file where they belong, feeds the in-order prefix to the upload's sha256 and text
//! sniffer while receiving, and ends through the one finishing path NPLT uploads use.
//! With the client's sha256 the chunks go to the upload's resume state (`resume.rs`), so a
//! later attempt of the same upload in the same session only receives what is missing.

use std::fs::File;
use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use protocol::rdt::{decode, encode_abort, AbortCode, ChunkBitmap, Config, Packet, Receiver};
use protocol::{Message, UploadResult, UploadStatus};
use rdt_io::{receive_file, DriveError, Inbox, Link, RecvOptions};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::download::drive_error_text;
use super::resume::{self, Claim, ResumeFiles, UploadKey};
use crate::app::Ctx;
use crate::transfer::UploadGrant;
use crate::uploads::{Incoming, UploadError};

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
    let chunk_size = request_chunk_size(first.as_deref(), size);
    let (key, claim) = claim_resume(ctx, &incoming, &session_id).await;
    let (file, resume_files, held) =
        match open_target(ctx, key.as_ref(), chunk_size, &incoming).await {
            Ok(t) => t,
            Err(e) => {
                abort_peer(socket, conn, peer, AbortCode::Io).await;
                incoming.abort().await;
                return Err(e);
            }
        };
    let Some(mut rxm) = start_receiver(conn, size, chunk_size, held, first) else {
        abort_peer(socket, conn, peer, AbortCode::Mismatch).await;
        incoming.abort().await;
        return Err(UploadError::Io(
            "上传请求与声明不符 / the RDT request does not match the announced upload".into(),
        ));
    };
    let mut link = Link {
        socket: socket.clone(),
        peer: Some(peer),
        inbox: Inbox::Channel(rx),
    };
    let cancel = claim
        .as_ref()
        .map_or_else(|| ctx.shutdown.child_token(), |c| c.cancel.clone());
    let filename = incoming.filename.clone();
    let progress = Progress {
        file: &file,
        resume_files: resume_files.as_ref(),
        push: &push,
        extension,
        filename: &filename,
        size,
    };
    let result = drive(&mut link, &mut rxm, conn, &cancel, progress, &mut incoming).await;
    if let Err((e, refused)) = result {
        drop(file);
        incoming.abort().await;
        let e = interrupted(resume_files, refused, e, &filename);
        ctx.uploads.audit_refused(&session_id, &filename, &e);
        return Err(e);
    }
    let incoming = commit(file, resume_files, incoming).await?;
    drop(claim);
    ctx.uploads.save(&session_id, *incoming).await
}

/// With the client's sha256 the upload can resume: its key, and this attempt's claim on
/// it. A newer attempt of the same upload cancels this one (and waits until it let go).
async fn claim_resume<'a>(
    ctx: &'a Ctx,
    incoming: &Incoming,
    session_id: &str,
) -> (Option<UploadKey>, Option<Claim<'a>>) {
    let key = incoming.expected_sha256.clone().map(|sha256| UploadKey {
        session_id: session_id.to_string(),
        sha256,
        size: incoming.announced,
    });
    let claim = match &key {
        Some(k) => Some(ctx.transfers.upload_resumes.claim(k, &ctx.shutdown).await),
        None => None,
    };
    (key, claim)
}

/// Where the chunks go: the upload's resume state when the client named a sha256 and
/// the request a chunk size (with the chunks an earlier attempt left), else the upload's
/// own temp file.
async fn open_target(
    ctx: &Ctx,
    key: Option<&UploadKey>,
    chunk_size: Option<u16>,
    incoming: &Incoming,
) -> Result<(File, Option<ResumeFiles>, Option<ChunkBitmap>), UploadError> {
    let opened = match (key, chunk_size) {
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
        None => (incoming.positioned_file().await?, None, None),
    };
    if let Some(h) = &held {
        tracing::info!(
            filename = %incoming.filename,
            held_chunks = h.count(),
            "rdt upload resumes"
        );
    }
    Ok((file, resume_files, held))
}

/// The chunk size of the client's REQUEST, when it is one for the announced size.
fn request_chunk_size(first: Option<&[u8]>, size: u64) -> Option<u16> {
    match first.map(decode) {
        Some(Ok((_, Packet::Request(r)))) if r.file_size == size => Some(r.chunk_size),
        _ => None,
    }
}

/// The responder for the client's REQUEST (`first`), when it matches the announced
/// upload, with the chunks already held.
fn start_receiver(
    conn: u64,
    size: u64,
    chunk_size: Option<u16>,
    held: Option<ChunkBitmap>,
    first: Option<Bytes>,
) -> Option<Receiver> {
    let rxm = chunk_size
        .and_then(|cs| Receiver::new(conn, size, cs, held, Config::default(), Instant::now()).ok());
    let (Some(mut rxm), Some(first)) = (rxm, first) else {
        return None;
    };
    rxm.handle(&first, Instant::now());
    Some(rxm)
}

/// Puts every chunk received in the upload's temp file: the resume state's file moves
/// there (its temp file is removed when that fails).
async fn commit(
    file: File,
    resume_files: Option<ResumeFiles>,
    incoming: Box<Incoming>,
) -> Result<Box<Incoming>, UploadError> {
    match resume_files {
        Some(rf) => {
            if let Err(e) = rf.complete_into(file, incoming.temp_path()) {
                incoming.abort().await;
                return Err(UploadError::Io(e.to_string()));
            }
        }
        None => drop(file),
    }
    Ok(incoming)
}

/// What the receive loop writes besides the data, and how it reports progress.
struct Progress<'a> {
    file: &'a File,
    /// Persisted every `PERSIST_EVERY` while receiving, when the upload can resume.
    resume_files: Option<&'a ResumeFiles>,
    push: &'a mpsc::Sender<Message>,
    /// Whether the client hears UPLOAD_STATUS while receiving.
    extension: bool,
    filename: &'a str,
    size: u64,
}

/// Receives the chunks into the file, feeding the in-order prefix to the upload (sha256,
/// sniffer). A failure comes with why the upload refused the content, when it did (that
/// ends the transfer).
async fn drive(
    link: &mut Link,
    rxm: &mut Receiver,
    conn: u64,
    cancel: &CancellationToken,
    progress: Progress<'_>,
    inc: &mut Incoming,
) -> Result<(), (DriveError, Option<UploadError>)> {
    let mut refused: Option<UploadError> = None;
    let Progress {
        file,
        resume_files,
        push,
        extension,
        filename,
        size,
    } = progress;
    let mut prefix = |d: &[u8]| {
        inc.absorb(d).map_err(|e| {
            let s = e.to_string();
            refused = Some(e);
            s
        })
    };
    let mut last_pct = 0;
    let mut persisted = Instant::now();
    let mut tick = |r: &Receiver| {
        // Every written chunk is in the file when `tick` runs.
        if let Some(rf) = resume_files {
            if persisted.elapsed() >= PERSIST_EVERY {
                persisted = Instant::now();
                if let Err(e) = rf.persist(file, r.bitmap()) {
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
                filename: filename.to_string(),
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
    let result = receive_file(link, rxm, conn, file, cancel, &opts, &mut prefix, &mut tick).await;
    result.map_err(|e| (e, refused))
}

/// After an interrupted transfer: the resume state is kept for a later attempt unless
/// the content was refused; returns the error the client hears.
fn interrupted(
    resume_files: Option<ResumeFiles>,
    refused: Option<UploadError>,
    e: DriveError,
    filename: &str,
) -> UploadError {
    if let Some(rf) = resume_files {
        if refused.is_some() {
            // Refused content is not worth resuming.
            rf.discard();
        } else {
            // Kept with the bitmap last persisted (it never claims unwritten bytes).
            tracing::info!(%filename, "rdt upload interrupted; resume state kept");
        }
    }
    match (refused, e) {
        (Some(u), _) => u,
        (None, DriveError::Io(io)) => UploadError::Io(io.to_string()),
        (None, other) => UploadError::Io(format!(
            "RDT 上传未完成 / RDT upload failed: {}",
            drive_error_text(&other)
        )),
    }
}

async fn abort_peer(socket: &UdpSocket, conn: u64, peer: SocketAddr, code: AbortCode) {
    let mut buf = [0u8; 64];
    if let Ok(n) = encode_abort(conn, code, &mut buf) {
        let _ = socket.send_to(&buf[..n], peer).await;
    }
}
