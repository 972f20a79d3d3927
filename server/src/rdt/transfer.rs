//! One RDT download on the server: drives a `Sender` state machine with the datagrams the
//! demux task routes here, reads each DATA payload from disk at its offset (no buffering of
//! the file: memory is flat whatever its size), honours the machine's timers, pushes
//! progress to the session about every 250 ms and reports the outcome once.

use std::net::SocketAddr;
use std::os::unix::fs::FileExt;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use protocol::rdt::{
    seal_data, AbortCode, AbortReason, Config, Sender, SenderEvent, SenderStats, Transmit,
    DATA_HEADER_LEN, MAX_DATAGRAM,
};
use protocol::{Message, TransferProgress};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;

use super::grant::Grant;
use crate::app::Ctx;

const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// Datagrams handled per wake-up before transmitting again (keeps ACK processing batched
/// without starving the send side).
const RX_BATCH: usize = 64;

/// Runs the transfer to its end and records the outcome.
pub(super) async fn run(
    ctx: Arc<Ctx>,
    socket: Arc<UdpSocket>,
    g: Grant,
    conn: u64,
    peer: SocketAddr,
    rx: mpsc::Receiver<Bytes>,
) {
    let m = &ctx.transfers.metrics.rdt;
    m.active.fetch_add(1, Ordering::Relaxed);
    let started = Instant::now();
    tracing::info!(offer = %g.offer.offer_id, %peer, size = g.offer.size, "rdt transfer start");
    let outcome = drive(&socket, &g, conn, peer, rx).await;
    m.active.fetch_sub(1, Ordering::Relaxed);
    let (ok, error, stats) = match outcome {
        Ok(s) => (true, None, Some(s)),
        Err((e, s)) => (false, Some(e), s),
    };
    if let Some(s) = &stats {
        m.bytes_sent.fetch_add(s.bytes_sent, Ordering::Relaxed);
        ctx.transfers
            .metrics
            .retransmissions
            .fetch_add(s.retransmissions, Ordering::Relaxed);
    }
    if ok {
        m.completed.fetch_add(1, Ordering::Relaxed);
    } else {
        m.failed.fetch_add(1, Ordering::Relaxed);
    }
    tracing::info!(
        offer = %g.offer.offer_id,
        ok,
        error = error.as_deref().unwrap_or(""),
        secs = started.elapsed().as_secs_f64(),
        sent = stats.map(|s| s.bytes_sent).unwrap_or(0),
        retransmissions = stats.map(|s| s.retransmissions).unwrap_or(0),
        "rdt transfer end"
    );
    let delivered = stats.map(|s| s.bytes_acked + s.bytes_skipped).unwrap_or(0);
    crate::app::finish_transfer(&ctx, &g, ok, delivered, error).await;
}

/// Human reason for an abort, as stored in the offer and shown to the user.
fn reason_text(r: AbortReason) -> String {
    match r {
        AbortReason::RetryLimit => "对端无响应 / retry limit (peer unreachable)".into(),
        AbortReason::IdleTimeout => "对端超时 / idle timeout".into(),
        AbortReason::Mismatch => "大小不一致 / size mismatch".into(),
        AbortReason::Protocol => "协议错误 / protocol error".into(),
        AbortReason::Peer(c) => format!("客户端中止 / aborted by the client ({c:?})"),
        AbortReason::Local(c) => format!("服务器中止 / aborted by the server ({c:?})"),
    }
}

type Failure = (String, Option<SenderStats>);

async fn drive(
    socket: &UdpSocket,
    g: &Grant,
    conn: u64,
    peer: SocketAddr,
    mut rx: mpsc::Receiver<Bytes>,
) -> Result<SenderStats, Failure> {
    let file = match open(&g.offer.file_path, g.offer.size).await {
        Ok(f) => f,
        Err(e) => {
            // Tell the client at once instead of letting it time out.
            let mut buf = [0u8; 64];
            let code = if e.contains("changed") {
                AbortCode::Mismatch
            } else {
                AbortCode::Io
            };
            if let Ok(n) = protocol::rdt::encode_abort(conn, code, &mut buf) {
                let _ = socket.send_to(&buf[..n], peer).await;
            }
            return Err((e, None));
        }
    };
    let mut tx = Sender::new(conn, g.offer.size, Config::default(), Instant::now())
        .map_err(|e| (e.to_string(), None))?;
    let mut buf = vec![0u8; MAX_DATAGRAM];
    let started = Instant::now();
    let mut next_progress = started + PROGRESS_EVERY;
    let mut cancelled = false;
    loop {
        let now = Instant::now();
        if tx.poll_timeout().is_some_and(|t| t <= now) {
            tx.handle_timeout(now);
        }
        while let Some(t) = tx.poll_transmit(now, &mut buf) {
            let len = match t {
                Transmit::Control { len } => len,
                Transmit::Data { seq, offset, len } => {
                    // Page-cache reads of one chunk: microseconds, so done inline.
                    if let Err(e) =
                        file.read_exact_at(&mut buf[DATA_HEADER_LEN..DATA_HEADER_LEN + len], offset)
                    {
                        tracing::warn!(offer = %g.offer.offer_id, "rdt read: {e}");
                        tx.abort(AbortCode::Io);
                        continue;
                    }
                    match seal_data(conn, seq, len, &mut buf) {
                        Ok(n) => n,
                        Err(_) => continue,
                    }
                }
            };
            if let Err(e) = socket.send_to(&buf[..len], peer).await {
                // A send error (buffer full, ICMP) is one lost datagram.
                tracing::trace!("rdt send: {e}");
            }
        }
        while let Some(ev) = tx.poll_event() {
            match ev {
                SenderEvent::Done => {}
                SenderEvent::Aborted { reason } => {
                    let why = if cancelled {
                        "已取消 / cancelled".to_string()
                    } else {
                        reason_text(reason)
                    };
                    return Err((why, Some(tx.stats())));
                }
            }
        }
        if tx.is_finished() {
            return Ok(tx.stats());
        }
        if now >= next_progress {
            next_progress = now + PROGRESS_EVERY;
            let _ = g
                .push
                .try_send(progress(&g.offer.offer_id, &tx.stats(), started));
        }
        let deadline = tx
            .poll_timeout()
            .map(tokio::time::Instant::from_std)
            .unwrap_or_else(|| tokio::time::Instant::now() + Duration::from_secs(1))
            .min(tokio::time::Instant::from_std(next_progress));
        tokio::select! {
            biased;
            _ = g.cancel.cancelled(), if !cancelled => {
                cancelled = true;
                tx.abort(AbortCode::Cancelled);
            }
            d = rx.recv() => match d {
                Some(d) => {
                    let now = Instant::now();
                    tx.handle(&d, now);
                    // Drain what else is queued before sending again.
                    for _ in 1..RX_BATCH {
                        match rx.try_recv() {
                            Ok(d) => tx.handle(&d, now),
                            Err(_) => break,
                        }
                    }
                }
                None => {
                    cancelled = true;
                    tx.abort(AbortCode::Cancelled);
                }
            },
            _ = tokio::time::sleep_until(deadline) => {}
        }
    }
}

fn progress(offer_id: &str, s: &SenderStats, started: Instant) -> Message {
    let secs = started.elapsed().as_secs_f64().max(1e-3);
    Message::TransferProgress(TransferProgress {
        offer_id: offer_id.to_string(),
        bytes: s.bytes_acked + s.bytes_skipped,
        total: s.file_size,
        bytes_per_sec: (s.bytes_acked as f64 / secs) as u64,
        rtt_ms: s.srtt.map(|d| d.as_millis() as u32).unwrap_or(0),
        retransmits: s.retransmissions,
        in_flight: s.in_flight,
        window: s.cwnd,
        lost: s.lost_pending,
    })
}

/// Opens the offered file and checks it still has the offered size.
async fn open(path: &str, size: u64) -> Result<std::fs::File, String> {
    let f = tokio::fs::File::open(path)
        .await
        .map_err(|e| format!("无法打开文件 / cannot open: {e}"))?;
    let len = f
        .metadata()
        .await
        .map_err(|e| format!("无法读取文件 / cannot stat: {e}"))?
        .len();
    if len != size {
        return Err("文件在提供下载后被修改 / file changed since the offer".into());
    }
    Ok(f.into_std().await)
}
