//! `nplt`-mode downloads: an accepted offer's file streamed over the session's own TCP
//! connection as TRANSFER_DATA frames.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use protocol::Message;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use crate::app::Ctx;
use crate::store::OfferRow;

/// Streams an accepted offer's file over this connection (`nplt` mode) from `resume`,
/// hashing what is sent, and reports completion. Reads from disk as it goes: memory stays
/// flat whatever the file size, and the bounded queue paces it to the peer.
pub async fn send_file_nplt(
    ctx: Arc<Ctx>,
    offer: OfferRow,
    resume: u64,
    tx: mpsc::Sender<Message>,
    cancel: CancellationToken,
) {
    let result = stream_file(&offer, resume, &tx, &cancel).await;
    let (ok, bytes, sha, error) = match result {
        Ok((b, sha)) if sha == offer.sha256 => (true, b, sha, None),
        Ok((b, sha)) => (
            false,
            b,
            sha,
            Some("文件在提供下载后被修改 / file changed since the offer".to_string()),
        ),
        Err(e) => (false, 0, String::new(), Some(e)),
    };
    let m = &ctx.transfers.metrics.nplt;
    m.bytes_sent
        .fetch_add(bytes.saturating_sub(resume), Ordering::Relaxed);
    if ok {
        m.completed.fetch_add(1, Ordering::Relaxed);
    } else {
        m.failed.fetch_add(1, Ordering::Relaxed);
    }
    let report = ctx
        .offers
        .record_outcome(&offer, &offer.session_id, ok, bytes, sha, error)
        .await;
    if tx.send(Message::TransferComplete(report)).await.is_err() {
        tracing::debug!(offer = %offer.offer_id, "transfer report not delivered: connection closed");
    }
    cancel.cancel();
}

/// Sends the file from `resume` as TRANSFER_DATA frames, with a TRANSFER_PROGRESS at most
/// every 250 ms; returns the bytes the receiver holds in all and the whole file's SHA-256.
async fn stream_file(
    offer: &OfferRow,
    resume: u64,
    tx: &mpsc::Sender<Message>,
    cancel: &CancellationToken,
) -> Result<(u64, String), String> {
    use sha2::Digest;
    use tokio::io::{AsyncReadExt, AsyncSeekExt};
    let started = Instant::now();
    let mut f = tokio::fs::File::open(&offer.file_path)
        .await
        .map_err(|e| format!("无法打开文件 / cannot open: {e}"))?;
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; protocol::MAX_PAYLOAD];
    let pos = hash_prefix(&mut f, resume, &mut hasher, &mut buf).await?;
    f.seek(std::io::SeekFrom::Start(pos))
        .await
        .map_err(|e| e.to_string())?;
    let mut sent = 0u64;
    let mut last_progress = Instant::now();
    loop {
        if cancel.is_cancelled() {
            return Err("已取消 / cancelled".into());
        }
        let n = f.read(&mut buf).await.map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        sent += n as u64;
        let data = protocol::Raw(bytes::Bytes::copy_from_slice(&buf[..n]));
        tx.send(Message::TransferData(data))
            .await
            .map_err(|_| "连接已断开 / connection closed".to_string())?;
        if last_progress.elapsed() >= std::time::Duration::from_millis(250) {
            last_progress = Instant::now();
            let secs = started.elapsed().as_secs_f64().max(1e-3);
            let _ = tx.try_send(Message::TransferProgress(protocol::TransferProgress {
                offer_id: offer.offer_id.clone(),
                bytes: pos + sent,
                total: offer.size,
                bytes_per_sec: (sent as f64 / secs) as u64,
                ..Default::default()
            }));
        }
    }
    Ok((pos + sent, hex::encode(hasher.finalize())))
}

/// Hashes the first `resume` bytes (the receiver already has them) so the report covers
/// the whole file, not just the resumed part; returns where the file ended if it is
/// shorter.
async fn hash_prefix(
    f: &mut tokio::fs::File,
    resume: u64,
    hasher: &mut sha2::Sha256,
    buf: &mut [u8],
) -> Result<u64, String> {
    use sha2::Digest;
    use tokio::io::AsyncReadExt;
    let mut pos = 0u64;
    while pos < resume {
        let want = ((resume - pos) as usize).min(buf.len());
        let n = f.read(&mut buf[..want]).await.map_err(|e| e.to_string())?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        pos += n as u64;
    }
    Ok(pos)
}
