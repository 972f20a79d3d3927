//! Receiving a download: asks for an offer, accepts it in the chosen mode (RDT over UDP via
//! `crate::rdt`, with fallback to `nplt` frames on this connection, or a one-time HTTP URL),
//! writes to a temp file in the destination folder, verifies size and sha256 against the
//! offer and renames into place only then. Reports completion to the server either way.

use std::path::{Path, PathBuf};
use std::time::Duration;

use protocol::{DownloadRequest, Message, Offer, OfferAccept, TransferComplete, TransferStart};
use tokio::sync::mpsc;

use crate::connection::{Client, ClientError, ClientEvent};

mod http;
pub mod resume;
mod stream;

use stream::nplt_loop;

#[derive(Debug, Clone, serde::Serialize)]
pub struct Downloaded {
    pub offer_id: String,
    pub path: PathBuf,
    pub size: u64,
    pub sha256: String,
    pub mode: String,
    /// Bytes moved during this run (less than `size` after a resume).
    pub received: u64,
    /// Bytes already held from an interrupted earlier attempt.
    pub resumed: u64,
    /// RDT DATA datagrams that arrived for chunks already held (spurious
    /// retransmissions that reached us); 0 for the other modes.
    pub duplicates: u64,
}

/// Only a plain final component is acceptable as a local file name.
pub fn safe_filename(name: &str) -> Result<String, ClientError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.chars().any(char::is_control);
    if ok {
        Ok(name.to_string())
    } else {
        Err(ClientError::Protocol(format!(
            "服务器给出的文件名不安全 / unsafe file name from server: {name:?}"
        )))
    }
}

/// A download's destination folder must exist: said plainly before anything is asked of
/// the server, not later as a transport failure.
pub fn check_destination(dir: &Path) -> Result<(), ClientError> {
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    if dir.is_dir() {
        Ok(())
    } else {
        Err(ClientError::NoSuchFolder(dir.to_path_buf()))
    }
}

/// Asks the server for an offer of `target` (an upload id or a path).
pub async fn request_offer(
    client: &Client,
    target: &str,
    mode: &str,
) -> Result<Offer, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::DownloadRequest(DownloadRequest {
                    request_id: id,
                    target: target.to_string(),
                    mode: mode.to_string(),
                })
            },
            Duration::from_secs(60),
        )
        .await?;
    match reply {
        Message::Offer(o) => Ok(o),
        other => Err(ClientError::Protocol(format!(
            "unexpected reply {:?}",
            other.msg_type()
        ))),
    }
}

/// How long `auto` mode waits for any answer from the RDT port before falling back.
const RDT_HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(3);

/// Tells the user about a fallback: on stderr for the script commands, only in the log
/// while the full-screen UI owns the terminal (`ClientOptions::stderr_notices` off).
fn notice(client: &Client, msg: &str) {
    tracing::warn!("{msg}");
    if client.stderr_notices() {
        eprintln!("{msg}");
    }
}

/// Temp and resume file names of an offer in `out_dir`.
fn temp_paths(out_dir: &Path, name: &str, offer_id: &str) -> (PathBuf, PathBuf) {
    let part = out_dir.join(format!(".{name}.{offer_id}.part"));
    let bitmap = crate::rdt::bitmap_path(&part);
    (part, bitmap)
}

/// Temp and resume files (`.NAME.OFFER.part`, `.bitmap`, `.resume`) untouched for this
/// long are abandoned attempts; the next download into the folder removes them.
const STALE_PART_AGE: Duration = Duration::from_secs(24 * 3600);

/// Removes abandoned temp and resume files of earlier downloads from `out_dir` (hidden
/// files ending `.part`, `.bitmap` or `.resume`, older than [`STALE_PART_AGE`]); returns how many.
fn sweep_stale_parts(out_dir: &Path, now: std::time::SystemTime) -> usize {
    let Ok(dir) = std::fs::read_dir(out_dir) else {
        return 0;
    };
    let mut removed = 0;
    for e in dir.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let ours = [".part", ".bitmap", ".resume"]
            .iter()
            .any(|s| name.ends_with(s));
        if !name.starts_with('.') || !ours {
            continue;
        }
        let old = e
            .metadata()
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| now.duration_since(t).ok())
            .is_some_and(|age| age >= STALE_PART_AGE);
        if !old || !e.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        match std::fs::remove_file(e.path()) {
            Ok(()) => removed += 1,
            Err(err) => tracing::debug!("stale {} not removed: {err}", e.path().display()),
        }
    }
    removed
}

/// A re-run gets a new offer id; an interrupted earlier attempt at the same file (same
/// name, size and sha256) is adopted by renaming its temp and resume files.
fn adopt_partial(out_dir: &Path, name: &str, offer: &Offer, part: &Path, bitmap: &Path) {
    resume::adopt_earlier(out_dir, name, "bitmap", part, bitmap, |old_bitmap, _| {
        std::fs::read(old_bitmap)
            .map(|b| crate::rdt::resume_matches(&b, offer.size, &offer.sha256))
            .unwrap_or(false)
    });
}

/// Accepts `offer` and receives it into `out_dir`. `progress` sees each progress report.
/// Modes: `auto` (RDT, falling back to `nplt` when the server says so or UDP gets no
/// answer), `rdt`, `nplt`, `http`.
pub async fn receive(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    mode: &str,
    out_dir: &Path,
    overwrite: bool,
    progress: impl FnMut(u64, u64) + Send,
) -> Result<Downloaded, ClientError> {
    let name = safe_filename(&offer.filename)?;
    receive_to(
        client,
        events,
        offer,
        mode,
        &out_dir.join(name),
        overwrite,
        progress,
    )
    .await
}

/// Like [`receive`], into the explicit file `dest` (the TUI's save-as prompt may rename
/// it); the temp and resume files sit beside it and are named after it.
pub async fn receive_to(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    mode: &str,
    dest: &Path,
    overwrite: bool,
    mut progress: impl FnMut(u64, u64) + Send,
) -> Result<Downloaded, ClientError> {
    let (name, out_dir) = destination(dest, overwrite)?;
    let swept = sweep_stale_parts(out_dir, std::time::SystemTime::now());
    if swept > 0 {
        tracing::info!(
            "removed {swept} abandoned partial downloads from {}",
            out_dir.display()
        );
    }
    let (tmp, bitmap) = temp_paths(out_dir, &name, &offer.offer_id);
    let held = match earlier_attempt(out_dir, &name, offer, mode, &tmp, &bitmap).await {
        Earlier::Held(held) => held,
        Earlier::Whole => return finish_complete(client, offer, &tmp, dest).await,
    };
    let part = Part {
        tmp: &tmp,
        bitmap: &bitmap,
        held,
    };
    let res = receive_into(client, events, offer, mode, part, &mut progress).await;
    conclude(client, offer, res, part, dest).await
}

/// The file name of `dest` and its folder, which must exist; `dest` itself may exist only
/// with `overwrite`.
fn destination(dest: &Path, overwrite: bool) -> Result<(String, &Path), ClientError> {
    let name = dest
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| {
            ClientError::Protocol(format!(
                "不是文件路径 / {} is not a file path",
                dest.display()
            ))
        })?;
    let out_dir = dest.parent().unwrap_or(Path::new("."));
    check_destination(out_dir)?;
    if dest.exists() && !overwrite {
        return Err(ClientError::Protocol(format!(
            "目标文件已存在 / {} exists (use --force to overwrite)",
            dest.display()
        )));
    }
    Ok((name, out_dir))
}

/// What an interrupted earlier attempt at the offered file left in the temp file.
enum Earlier {
    /// A prefix of this many bytes (0 for RDT, whose bitmap says what it holds).
    Held(u64),
    /// The whole file, verified: nothing is left to download.
    Whole,
}

/// Adopts what an interrupted earlier attempt left: an RDT bitmap, or (nplt, http) a
/// prefix bound to this file by its resume file. The server is asked for the rest only.
async fn earlier_attempt(
    out_dir: &Path,
    name: &str,
    offer: &Offer,
    mode: &str,
    tmp: &Path,
    bitmap: &Path,
) -> Earlier {
    if matches!(mode, "auto" | "rdt") {
        adopt_partial(out_dir, name, offer, tmp, bitmap);
        return Earlier::Held(0);
    }
    // A sparse RDT `.part` is no prefix.
    if bitmap.exists() {
        for p in [tmp, bitmap] {
            let _ = std::fs::remove_file(p);
        }
    }
    resume::adopt(out_dir, name, offer, tmp);
    // A whole file left before its rename (interrupted after the last byte): verified
    // and put in place without asking the server for it again.
    if resume::complete(tmp, offer).await {
        return Earlier::Whole;
    }
    Earlier::Held(resume::held(tmp, offer))
}

/// Puts a received file in place (or removes the partial files not worth keeping) and
/// reports the outcome to the server.
async fn conclude(
    client: &Client,
    offer: &Offer,
    res: Result<Received, Failure>,
    part: Part<'_>,
    dest: &Path,
) -> Result<Downloaded, ClientError> {
    let resume_file = resume::resume_path(part.tmp);
    match res {
        Ok(r) => {
            tokio::fs::rename(part.tmp, dest).await?;
            let _ = tokio::fs::remove_file(part.bitmap).await;
            let _ = tokio::fs::remove_file(&resume_file).await;
            let _ = client
                .send(completion(offer, true, r.size, r.sha256.clone(), None))
                .await;
            Ok(r.into_downloaded(offer, dest))
        }
        Err((e, keep)) => {
            // An interrupted transfer keeps its temp file and bitmap or resume file.
            if !keep {
                let _ = tokio::fs::remove_file(part.tmp).await;
                let _ = tokio::fs::remove_file(part.bitmap).await;
                let _ = tokio::fs::remove_file(&resume_file).await;
            }
            let _ = client
                .send(completion(
                    offer,
                    false,
                    0,
                    String::new(),
                    Some(e.to_string()),
                ))
                .await;
            Err(e)
        }
    }
}

/// The client's TRANSFER_COMPLETE for `offer`.
fn completion(
    offer: &Offer,
    ok: bool,
    bytes: u64,
    sha256: String,
    error: Option<String>,
) -> Message {
    Message::TransferComplete(TransferComplete {
        offer_id: offer.offer_id.clone(),
        ok,
        bytes,
        sha256,
        side: "client".into(),
        error,
    })
}

/// Puts a verified whole `.part` in place and reports it to the server as received.
async fn finish_complete(
    client: &Client,
    offer: &Offer,
    tmp: &Path,
    dest: &Path,
) -> Result<Downloaded, ClientError> {
    tokio::fs::rename(tmp, dest).await?;
    if let Err(e) = tokio::fs::remove_file(resume::resume_path(tmp)).await {
        tracing::debug!("resume file not removed: {e}");
    }
    tracing::info!(file = %dest.display(), "the whole file was already held; not downloaded again");
    let report = completion(offer, true, offer.size, offer.sha256.clone(), None);
    if let Err(e) = client.send(report).await {
        tracing::debug!("completion not reported: {e}");
    }
    let held = Received {
        size: offer.size,
        sha256: offer.sha256.clone(),
        mode: "held".into(),
        received: 0,
        resumed: offer.size,
        duplicates: 0,
    };
    Ok(held.into_downloaded(offer, dest))
}

/// Why an RDT transfer stopped when its control connection closed.
const SERVER_LOST: &str =
    "服务器连接已断开 / server connection lost (the partial file is kept for a resume)";

/// A verified file in the temp path.
#[derive(Debug)]
struct Received {
    size: u64,
    sha256: String,
    mode: String,
    received: u64,
    resumed: u64,
    duplicates: u64,
}

impl Received {
    /// What the caller learns of the download, the file now being at `dest`.
    fn into_downloaded(self, offer: &Offer, dest: &Path) -> Downloaded {
        Downloaded {
            offer_id: offer.offer_id.clone(),
            path: dest.to_path_buf(),
            size: self.size,
            sha256: self.sha256,
            mode: self.mode,
            received: self.received,
            resumed: self.resumed,
            duplicates: self.duplicates,
        }
    }
}

/// The temp file of a download, its RDT bitmap, and the prefix of it already held.
#[derive(Clone, Copy)]
struct Part<'a> {
    tmp: &'a Path,
    bitmap: &'a Path,
    held: u64,
}

/// An error, and whether the partial files are worth keeping.
type Failure = (ClientError, bool);

fn drop_partial(e: ClientError) -> Failure {
    (e, false)
}

fn keep_partial(e: ClientError) -> Failure {
    (e, true)
}

/// OFFER_ACCEPT; `resume_from` is the prefix already held (the server starts an `nplt`
/// transfer there; `http` asks for it with a Range, RDT uses its bitmap).
async fn accept(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    mode: &str,
    resume_from: u64,
) -> Result<TransferStart, ClientError> {
    client
        .send(Message::OfferAccept(OfferAccept {
            offer_id: offer.offer_id.clone(),
            mode: mode.to_string(),
            resume_from,
        }))
        .await?;
    loop {
        match next_message(events).await? {
            Message::TransferStart(s) if s.offer_id == offer.offer_id => return Ok(s),
            Message::Error(e) if error_concerns_offer(&e, offer) => {
                return Err(ClientError::from(e))
            }
            _ => {}
        }
    }
}

async fn next_message(
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
) -> Result<Message, ClientError> {
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .map_err(|_| ClientError::Timeout)?
            .ok_or(ClientError::Disconnected)?;
        match ev {
            ClientEvent::Message(m) => return Ok(m),
            ClientEvent::Reconnecting { .. } => return Err(ClientError::Disconnected),
            _ => {}
        }
    }
}

async fn receive_into(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    mode: &str,
    part: Part<'_>,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Received, Failure> {
    // A failure before any byte moved keeps the prefix held.
    let start = accept(client, events, offer, mode, part.held)
        .await
        .map_err(|e| (e, part.held > 0))?;
    if start.size != offer.size || start.sha256 != offer.sha256 {
        return Err(drop_partial(ClientError::Protocol(
            "TRANSFER_START does not match the offer".into(),
        )));
    }
    match start.mode.as_str() {
        "nplt" => {
            if mode == "auto" {
                notice(
                    client,
                    "服务器未提供 RDT，改用 nplt / the server offers no RDT; using nplt (TCP)",
                );
            }
            // `auto` sent no offset (it may have become RDT): only `nplt` asked resumes.
            let from = if mode == "nplt" { part.held } else { 0 };
            nplt_loop(events, offer, part.tmp, from, progress).await
        }
        "http" => http::http_get(&start, offer, part.tmp, part.held, progress).await,
        "rdt" => rdt_mode(client, events, &start, offer, mode, part, progress).await,
        other => Err(drop_partial(ClientError::Protocol(format!(
            "transfer mode {other} is not supported by this client"
        )))),
    }
}

/// `rdt` mode, falling back to `nplt` when `auto` gets no answer from the RDT port.
async fn rdt_mode(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    start: &TransferStart,
    offer: &Offer,
    mode: &str,
    part: Part<'_>,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Received, Failure> {
    match rdt_watched(events, start, offer, mode, part, progress).await? {
        Err(crate::rdt::RdtError::NoAnswer(addr)) if mode == "auto" => {
            notice(client, &format!(
                "RDT 端口 {addr} 无应答，改用 nplt / no answer from the RDT port {addr} within {}s; falling back to nplt (TCP)",
                RDT_HANDSHAKE_TIMEOUT.as_secs()
            ));
            let _ = std::fs::remove_file(part.bitmap);
            nplt_fallback(client, events, offer, part.tmp, progress).await
        }
        Err(e) => {
            let keep = e.resumable();
            Err((ClientError::Protocol(e.to_string()), keep))
        }
        Ok(o) => Ok(Received {
            size: offer.size,
            sha256: offer.sha256.clone(),
            mode: "rdt".into(),
            received: o.received,
            resumed: o.resumed,
            duplicates: o.duplicates,
        }),
    }
}

/// The RDT transfer, with the control connection watched while the datagrams flow: when
/// it dies (the server is gone), the transfer stops at once instead of idling out, and
/// keeps what it has for a resume.
async fn rdt_watched(
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    start: &TransferStart,
    offer: &Offer,
    mode: &str,
    part: Part<'_>,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Result<crate::rdt::Outcome, crate::rdt::RdtError>, Failure> {
    let transfer = rdt_receive(start, offer, mode, part.tmp, part.bitmap, progress);
    tokio::pin!(transfer);
    loop {
        tokio::select! {
            r = &mut transfer => return Ok(r),
            ev = events.recv() => match ev {
                None | Some(ClientEvent::Reconnecting { .. }) => {
                    return Err(keep_partial(ClientError::Protocol(SERVER_LOST.into())));
                }
                // Nothing else is waited for during an RDT transfer.
                Some(_) => {}
            },
        }
    }
}

/// Asks again for the offer in `nplt` mode, from the start (`auto` after an unanswered
/// RDT handshake).
async fn nplt_fallback(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    tmp: &Path,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Received, Failure> {
    let s = accept(client, events, offer, "nplt", 0)
        .await
        .map_err(drop_partial)?;
    if s.mode != "nplt" {
        return Err(drop_partial(ClientError::Protocol(format!(
            "asked for nplt, server started {}",
            s.mode
        ))));
    }
    nplt_loop(events, offer, tmp, 0, progress).await
}

async fn rdt_receive(
    start: &TransferStart,
    offer: &Offer,
    mode: &str,
    tmp: &Path,
    bitmap: &Path,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<crate::rdt::Outcome, crate::rdt::RdtError> {
    let bad = |m: &str| crate::rdt::RdtError::Aborted(m.to_string());
    let token = hex::decode(&start.token).map_err(|_| bad("bad token in TRANSFER_START"))?;
    let addr: std::net::SocketAddr = start
        .rdt_addr
        .as_deref()
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| bad("bad rdt_addr in TRANSFER_START"))?;
    let target = crate::rdt::Target {
        addr,
        token: &token,
        size: offer.size,
        sha256: &offer.sha256,
        part: tmp,
        bitmap,
        handshake_timeout: (mode == "auto").then_some(RDT_HANDSHAKE_TIMEOUT),
    };
    crate::rdt::download(&target, progress).await
}

/// Whether an ERROR frame is about this download: refusals of an accept carry the offer's
/// request id or none; errors answering other requests (a search, a file list) are not.
pub fn error_concerns_offer(e: &protocol::ErrorMsg, offer: &Offer) -> bool {
    e.request_id.is_none() || e.request_id == offer.request_id
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn abandoned_partial_downloads_are_swept_after_a_day() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = |n: &str| dir.path().join(n);
        for n in [
            ".a.log.o1.part",
            ".a.log.o1.part.bitmap",
            ".b.bin.o2.part",
            "keep.part",
            ".notes",
        ] {
            std::fs::write(p(n), b"x").expect("write");
        }
        let now = std::time::SystemTime::now();
        // Fresh files stay (a download may be resumed).
        assert_eq!(sweep_stale_parts(dir.path(), now), 0);
        // A day later the hidden temp and resume files go; other files stay.
        let later = now + STALE_PART_AGE + Duration::from_secs(60);
        assert_eq!(sweep_stale_parts(dir.path(), later), 3);
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .expect("dir")
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, vec![".notes", "keep.part"]);
    }

    #[test]
    fn only_errors_about_this_offer_abort_a_download() {
        let offer = Offer {
            offer_id: "o".into(),
            file_id: None,
            filename: "a".into(),
            size: 1,
            sha256: String::new(),
            expires_at: 0,
            request_id: Some(7),
            tool_call: None,
            mode: "auto".into(),
        };
        let err = |rid| protocol::ErrorMsg {
            code: "x".into(),
            message: "x".into(),
            request_id: rid,
        };
        assert!(error_concerns_offer(&err(Some(7)), &offer));
        assert!(error_concerns_offer(&err(None), &offer));
        assert!(!error_concerns_offer(&err(Some(8)), &offer));
    }

    #[test]
    fn server_names_are_sanitised() {
        assert!(safe_filename("config.yaml").is_ok());
        assert!(safe_filename("性能报告.md").is_ok());
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "a\0", "a\nb"] {
            assert!(safe_filename(bad).is_err(), "{bad:?}");
        }
    }
}
