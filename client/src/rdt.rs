//! Client-side RDT: downloads (a `Receiver` writing into a pre-sized temp file, a persisted
//! chunk bitmap for resume, sha256 of the prefix while receiving) and uploads (a pushing
//! `Sender`), both over one UDP socket connected to the server's RDT address and driven by
//! the shared `rdt_io` loops. File data is never held in memory as a whole and
//! the NPLT connection is never touched.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use protocol::rdt::{
    conn_id_from_token, total_chunks, ChunkBitmap, Config, Receiver, Sender, SenderStats,
    DEFAULT_CHUNK_SIZE,
};
use rdt_io::{receive_file, send_file, DriveError, Link, RecvOptions};
use sha2::{Digest, Sha256};
use tokio_util::sync::CancellationToken;
/// How often the bitmap is persisted while receiving (after an fdatasync of the data it
/// describes, so it never claims bytes that are not on disk).
const PERSIST_EVERY: Duration = Duration::from_millis(500);
const PROGRESS_EVERY: Duration = Duration::from_millis(100);
/// After the last chunk, keep answering for this long (or until the server's FIN got its
/// FIN-ACK), so the server learns of the completion at once instead of retrying FIN.
const FIN_LINGER: Duration = Duration::from_secs(1);
/// First line of a resume file; the bitmap bytes follow.
const RESUME_MAGIC: &str = "llmops-rdt-resume 1";

#[derive(Debug, thiserror::Error)]
pub enum RdtError {
    /// Nothing came back during the handshake (UDP blocked, wrong address): fall back.
    #[error("RDT 握手无应答 / no answer from the RDT port {0}")]
    NoAnswer(SocketAddr),
    #[error("RDT 传输中止 / RDT transfer aborted: {0}")]
    Aborted(String),
    #[error("校验失败 / sha256 mismatch: got {got}, offer said {want}")]
    Checksum { got: String, want: String },
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

impl RdtError {
    /// Whether the partial file and bitmap are worth keeping for a later resume.
    pub fn resumable(&self) -> bool {
        !matches!(self, RdtError::Checksum { .. })
    }
}

/// What to fetch and where to put it.
pub struct Target<'a> {
    pub addr: SocketAddr,
    /// Raw token bytes (the hex of TRANSFER_START, decoded).
    pub token: &'a [u8],
    pub size: u64,
    pub sha256: &'a str,
    /// The temp file the data goes to (kept on failure for resume).
    pub part: &'a Path,
    /// Resume state next to it.
    pub bitmap: &'a Path,
    /// Give up with `NoAnswer` if the handshake is unanswered this long (`auto` mode);
    /// `None` leaves it to the state machine's retry limit.
    pub handshake_timeout: Option<Duration>,
}

/// Result of a completed, verified download.
#[derive(Debug, Clone, Copy, Default)]
pub struct Outcome {
    /// Bytes received during this run.
    pub received: u64,
    /// Bytes already on disk from an earlier attempt.
    pub resumed: u64,
    pub duplicates: u64,
    pub elapsed: Duration,
}

/// Resume file path for a temp file `.NAME.OFFER.part` (`.NAME.OFFER.bitmap`).
pub fn bitmap_path(part: &Path) -> PathBuf {
    part.with_extension("bitmap")
}

fn resume_header(size: u64, chunk: u16, sha256: &str) -> String {
    format!("{RESUME_MAGIC} {size} {chunk} {sha256}\n")
}

/// Whether a resume file describes this exact file (size, chunk size, content hash).
pub fn resume_matches(bytes: &[u8], size: u64, sha256: &str) -> bool {
    bytes.starts_with(resume_header(size, DEFAULT_CHUNK_SIZE, sha256).as_bytes())
}

/// Loads the resume bitmap if it matches this file and the partial file is there.
fn load_resume(t: &Target<'_>, chunks: u32) -> Option<ChunkBitmap> {
    let bytes = std::fs::read(t.bitmap).ok()?;
    let head = resume_header(t.size, DEFAULT_CHUNK_SIZE, t.sha256);
    let body = bytes.strip_prefix(head.as_bytes())?;
    let bm = ChunkBitmap::from_bytes(body)?;
    let part_len = std::fs::metadata(t.part).ok()?.len();
    (bm.len() == chunks && part_len == t.size).then_some(bm)
}

/// Writes the bitmap atomically after flushing the data it describes.
fn persist(file: &std::fs::File, path: &Path, header: &str, bm: &[u8]) -> std::io::Result<()> {
    file.sync_data()?;
    write_bitmap(path, header, bm)
}

/// Writes the bitmap atomically (temp file, rename), without flushing any data: only for
/// a bitmap that claims nothing the disk does not already hold.
fn write_bitmap(path: &Path, header: &str, bm: &[u8]) -> std::io::Result<()> {
    let tmp = path.with_extension("bitmap.tmp");
    let mut out = Vec::with_capacity(header.len() + bm.len());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(bm);
    std::fs::write(&tmp, out)?;
    std::fs::rename(&tmp, path)
}

/// Streams the file through sha256 (blocking; run off the runtime).
pub fn sha256_of(path: &Path) -> std::io::Result<String> {
    use sha2::{Digest, Sha256};
    use std::io::Read;
    let mut f = std::fs::File::open(path)?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; 256 * 1024];
    loop {
        let n = f.read(&mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
    }
    Ok(hex::encode(h.finalize()))
}

/// Downloads `t` over RDT into `t.part`, verifying sha256 (hashed while receiving, as the
/// held prefix grows: no second pass over the file). `progress(held, total)` is called
/// about every 100 ms and at the end.
pub async fn download(
    t: &Target<'_>,
    progress: &mut (dyn FnMut(u64, u64) + Send),
) -> Result<Outcome, RdtError> {
    let started = Instant::now();
    let (file, resume) = open_part(t)?;
    let resumed = resume.as_ref().map(|b| held_bytes(b, t.size)).unwrap_or(0);
    let header = resume_header(t.size, DEFAULT_CHUNK_SIZE, t.sha256);
    let (mut link, mut rx) = start(t, resume, &header).await?;
    let conn = rx.conn_id();
    let mut hasher = Sha256::new();
    let mut persister = Persister::new(&file, t.bitmap, &header);
    let opts = RecvOptions {
        handshake_timeout: t.handshake_timeout,
        fin_linger: FIN_LINGER,
        tick: PROGRESS_EVERY,
    };
    let cancel = CancellationToken::new();
    let result = {
        let mut prefix = |d: &[u8]| {
            hasher.update(d);
            Ok(())
        };
        let mut tick = |r: &Receiver| {
            progress(r.stats().bytes_held, t.size);
            persister.tick(r);
        };
        receive_file(
            &mut link,
            &mut rx,
            conn,
            &file,
            &cancel,
            &opts,
            &mut prefix,
            &mut tick,
        )
        .await
    };
    persister.settle().await;
    let stats = rx.stats();
    if let Err(e) = result {
        return Err(failed(t, &rx, &file, header, e).await);
    }
    verify(t, file, hasher, progress)?;
    Ok(Outcome {
        received: stats.bytes_received,
        resumed,
        duplicates: stats.duplicates,
        elapsed: started.elapsed(),
    })
}

/// Opens `t.part` at its full size with the resume bitmap that matches it; without one,
/// the part starts over and a stale resume file goes.
fn open_part(t: &Target<'_>) -> Result<(std::fs::File, Option<ChunkBitmap>), RdtError> {
    let chunks = total_chunks(t.size, DEFAULT_CHUNK_SIZE)
        .ok_or_else(|| RdtError::Aborted("file too large for RDT".into()))?;
    let resume = load_resume(t, chunks);
    if resume.is_none() {
        let _ = std::fs::remove_file(t.bitmap);
    }
    let file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(resume.is_none())
        .open(t.part)?;
    file.set_len(t.size)?;
    Ok((file, resume))
}

/// Connects to the server and starts the handshake (announcing `resume`), making sure the
/// resume file exists.
async fn start(
    t: &Target<'_>,
    resume: Option<ChunkBitmap>,
    header: &str,
) -> Result<(Link, Receiver), RdtError> {
    // Connected: the kernel drops datagrams from anyone but the server address.
    let link = Link::connect(t.addr).await?;
    let rx = Receiver::initiate(
        conn_id_from_token(t.token),
        t.token,
        t.size,
        DEFAULT_CHUNK_SIZE,
        resume,
        Config::default(),
        Instant::now(),
    )
    .map_err(|e| RdtError::Aborted(e.to_string()))?;
    // The resume file exists from the start, so a transfer killed in its first second can
    // be resumed too. Without a resume it is empty: it claims nothing,
    // and no fdatasync has to come first (one on the critical path took up to 100 ms on a
    // busy disk). Refreshed, after flushing the data, every PERSIST_EVERY from then on.
    if !t.bitmap.exists() {
        write_bitmap(t.bitmap, header, &rx.bitmap().to_bytes())?;
    }
    Ok((link, rx))
}

/// Refreshes the resume file while receiving, every [`PERSIST_EVERY`]: after an fdatasync
/// of the data it describes, on the blocking pool, one refresh at a time.
struct Persister<'a> {
    file: &'a std::fs::File,
    path: &'a Path,
    header: &'a str,
    running: Option<tokio::task::JoinHandle<std::io::Result<()>>>,
    next: Instant,
}

impl<'a> Persister<'a> {
    fn new(file: &'a std::fs::File, path: &'a Path, header: &'a str) -> Self {
        Persister {
            file,
            path,
            header,
            running: None,
            next: Instant::now() + PERSIST_EVERY,
        }
    }

    /// Starts a refresh with `r`'s bitmap when one is due and none is running.
    fn tick(&mut self, r: &Receiver) {
        let now = Instant::now();
        if now >= self.next && self.running.as_ref().is_none_or(|h| h.is_finished()) {
            self.next = now + PERSIST_EVERY;
            if let Ok(f) = self.file.try_clone() {
                let path = self.path.to_path_buf();
                let h = self.header.to_string();
                let bm = r.bitmap().to_bytes();
                self.running = Some(tokio::task::spawn_blocking(move || {
                    persist(&f, &path, &h, &bm)
                }));
            }
        }
    }

    /// Waits for a refresh still running.
    async fn settle(&mut self) {
        if let Some(h) = self.running.take() {
            let _ = h.await;
        }
    }
}

/// The download's error for a failed drive; the bitmap is persisted first when the
/// partial file is worth resuming.
async fn failed(
    t: &Target<'_>,
    rx: &Receiver,
    file: &std::fs::File,
    header: String,
    e: DriveError,
) -> RdtError {
    let e = from_drive(e, t.addr);
    if e.resumable() {
        let path = t.bitmap.to_path_buf();
        let bm = rx.bitmap().to_bytes();
        let f = match file.try_clone() {
            Ok(f) => f,
            Err(io) => return RdtError::Io(io),
        };
        let _ = tokio::task::spawn_blocking(move || persist(&f, &path, &header, &bm)).await;
    }
    e
}

/// Makes the received file durable and checks its sha256 against the offer's; a mismatch
/// removes the part and its resume file, a match only the resume file.
fn verify(
    t: &Target<'_>,
    file: std::fs::File,
    hasher: Sha256,
    progress: &mut (dyn FnMut(u64, u64) + Send),
) -> Result<(), RdtError> {
    file.sync_all()?;
    drop(file);
    progress(t.size, t.size);
    let got = hex::encode(hasher.finalize());
    if got != t.sha256 {
        let _ = std::fs::remove_file(t.part);
        let _ = std::fs::remove_file(t.bitmap);
        return Err(RdtError::Checksum {
            got,
            want: t.sha256.to_string(),
        });
    }
    let _ = std::fs::remove_file(t.bitmap);
    Ok(())
}

/// The transfer's error for a failed drive to or from `addr`.
fn from_drive(e: DriveError, addr: SocketAddr) -> RdtError {
    match e {
        DriveError::NoAnswer => RdtError::NoAnswer(addr),
        DriveError::Io(e) => RdtError::Io(e),
        DriveError::Aborted(r) => RdtError::Aborted(format!("{r:?}")),
        DriveError::Cancelled => RdtError::Aborted("cancelled".into()),
        DriveError::Refused(why) => RdtError::Aborted(why),
    }
}

/// Pushes `path` (`size` bytes) over RDT to `addr` presenting `token` (an UPLOAD_GRANT).
/// With `handshake_timeout`, an unanswered handshake ends in `NoAnswer` (fall back to
/// NPLT). `progress(acked, total)` runs about every 100 ms. The server reports the result
/// on the NPLT connection.
pub async fn upload(
    addr: SocketAddr,
    token: &[u8],
    path: &Path,
    size: u64,
    handshake_timeout: Option<Duration>,
    progress: &mut (dyn FnMut(u64, u64) + Send),
) -> Result<(), RdtError> {
    let file = std::fs::File::open(path)?;
    if file.metadata()?.len() != size {
        return Err(RdtError::Aborted(
            "文件在上传时被修改 / the file changed during the upload".into(),
        ));
    }
    let mut link = Link::connect(addr).await?;
    let conn = conn_id_from_token(token);
    let mut tx = Sender::initiate(conn, token, size, Config::default(), Instant::now())
        .map_err(|e| RdtError::Aborted(e.to_string()))?;
    let cancel = CancellationToken::new();
    let mut on_progress = |s: &SenderStats| progress(s.bytes_acked + s.bytes_skipped, size);
    let r = send_file(
        &mut link,
        &mut tx,
        conn,
        &file,
        &cancel,
        handshake_timeout,
        PROGRESS_EVERY,
        &mut on_progress,
    )
    .await;
    r.map_err(|e| from_drive(e, addr))
}

fn held_bytes(b: &ChunkBitmap, size: u64) -> u64 {
    let cs = u64::from(DEFAULT_CHUNK_SIZE);
    let mut n = u64::from(b.count()) * cs;
    // The last chunk may be short.
    if !b.is_empty() && b.get(b.len() - 1) {
        n -= cs - (size - u64::from(b.len() - 1) * cs);
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_bytes_counts_the_short_last_chunk() {
        let size = 3000u64; // chunks 1400, 1400, 200
        let mut b = ChunkBitmap::new(3);
        assert_eq!(held_bytes(&b, size), 0);
        b.set(2);
        assert_eq!(held_bytes(&b, size), 200);
        b.set(0);
        assert_eq!(held_bytes(&b, size), 1600);
    }

    #[test]
    fn resume_header_binds_the_file() {
        let h = resume_header(10, DEFAULT_CHUNK_SIZE, "ab");
        assert!(resume_matches(h.as_bytes(), 10, "ab"));
        assert!(!resume_matches(h.as_bytes(), 11, "ab"));
        assert!(!resume_matches(h.as_bytes(), 10, "ac"));
        assert_eq!(
            bitmap_path(Path::new("/d/.x.o1.part")),
            PathBuf::from("/d/.x.o1.bitmap")
        );
    }
}
