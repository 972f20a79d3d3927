//! The streamed modes' common ground (`nplt` frames, and `http` in its own module): the
//! temp file opened at the held prefix with that prefix hashed, the `nplt` frame loop, and
//! the final check of the whole file against the offer.

use std::path::Path;

use protocol::{Message, Offer};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

use super::{
    drop_partial, error_concerns_offer, keep_partial, next_message, resume, Failure, Received,
};
use crate::connection::{ClientError, ClientEvent};

/// Opens the temp file for a streamed download holding `from` bytes already: records
/// which file it is a prefix of (the resume file), hashes the held prefix, and positions
/// at its end (`from` 0: a new, empty file).
pub(super) async fn open_part(
    tmp: &Path,
    offer: &Offer,
    from: u64,
) -> Result<(tokio::fs::File, Sha256), ClientError> {
    use tokio::io::{AsyncReadExt, AsyncSeekExt};
    resume::record(tmp, offer.size, &offer.sha256)?;
    let mut hasher = Sha256::new();
    if from == 0 {
        return Ok((tokio::fs::File::create(tmp).await?, hasher));
    }
    let mut f = tokio::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(tmp)
        .await?;
    f.set_len(from).await?;
    let mut buf = vec![0u8; 256 * 1024];
    let mut left = from;
    while left > 0 {
        let want = (left as usize).min(buf.len());
        let n = f.read(&mut buf[..want]).await?;
        if n == 0 {
            return Err(ClientError::Protocol(format!(
                "临时文件变短了 / the partial file shrank below {from} bytes"
            )));
        }
        hasher.update(&buf[..n]);
        left -= n as u64;
    }
    f.seek(std::io::SeekFrom::Start(from)).await?;
    Ok((f, hasher))
}

/// `nplt` mode: TRANSFER_DATA frames on this connection (from `from`, the prefix held),
/// written in order while hashing the whole file.
pub(super) async fn nplt_loop(
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    tmp: &Path,
    from: u64,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Received, Failure> {
    // Lost connections keep the prefix for a resume; bad data does not.
    let (mut f, mut hasher) = open_part(tmp, offer, from).await.map_err(keep_partial)?;
    let mut got = from;
    loop {
        match next_message(events).await.map_err(keep_partial)? {
            Message::TransferData(d) => {
                got += d.0.len() as u64;
                if got > offer.size {
                    return Err(drop_partial(ClientError::Protocol(format!(
                        "收到的数据超过文件大小 / more data than the offered {} bytes",
                        offer.size
                    ))));
                }
                hasher.update(&d.0);
                f.write_all(&d.0)
                    .await
                    .map_err(|e| keep_partial(e.into()))?;
            }
            Message::TransferProgress(p) if p.offer_id == offer.offer_id => {
                progress(p.bytes, p.total)
            }
            Message::TransferComplete(c) if c.offer_id == offer.offer_id => {
                if !c.ok {
                    return Err(keep_partial(ClientError::Server {
                        code: "transfer_failed".into(),
                        message: c.error.unwrap_or_else(|| "transfer failed".into()),
                    }));
                }
                f.flush().await.map_err(|e| keep_partial(e.into()))?;
                f.sync_all().await.map_err(|e| keep_partial(e.into()))?;
                return verified(hasher, got, from, offer, "nplt", progress);
            }
            Message::Error(e) if error_concerns_offer(&e, offer) => {
                return Err(keep_partial(ClientError::from(e)))
            }
            _ => {}
        }
    }
}

/// Checks a streamed file (`got` bytes, `from` of them held before this run) against the
/// offer's size and sha256, and reports it whole; a mismatch drops the partial file.
pub(super) fn verified(
    hasher: Sha256,
    got: u64,
    from: u64,
    offer: &Offer,
    mode: &str,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Received, Failure> {
    let sha = hex::encode(hasher.finalize());
    if got != offer.size || sha != offer.sha256 {
        return Err(drop_partial(ClientError::Protocol(format!(
            "校验失败 / verification failed: {got} bytes sha256 {sha}, offer said {} bytes sha256 {}",
            offer.size, offer.sha256
        ))));
    }
    progress(got, offer.size);
    Ok(Received {
        size: got,
        sha256: sha,
        mode: mode.into(),
        received: got - from,
        resumed: from,
        duplicates: 0,
    })
}
