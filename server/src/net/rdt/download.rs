//! One RDT download on the server: drives a `Sender` state machine with the datagrams the
//! demux task routes here, reads each DATA payload from disk at its offset (no buffering of
//! the file: memory is flat whatever its size), honours the machine's timers, pushes
//! progress to the session about every 250 ms and reports the outcome once.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use protocol::rdt::{AbortCode, AbortReason, Config, Sender, SenderStats};
use protocol::{Message, TransferProgress};
use rdt_io::{send_file, DriveError, Inbox, Link};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;

use crate::app::Ctx;
use crate::transfer::Grant;

const PROGRESS_EVERY: Duration = Duration::from_millis(250);

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
        timeouts = stats.map(|s| s.timeouts).unwrap_or(0),
        spurious = stats.map(|s| s.spurious_losses).unwrap_or(0),
        cwnd = stats.map(|s| s.cwnd).unwrap_or(0),
        congestion_events = stats.map(|s| s.congestion_events).unwrap_or(0),
        loss_rounds = stats.map(|s| s.loss_rounds).unwrap_or(0),
        min_rtt_us = stats.and_then(|s| s.min_rtt).map(|d| d.as_micros() as u64).unwrap_or(0),
        retx_rack_time = stats.map(|s| s.retx_by.rack_time).unwrap_or(0),
        retx_rack_count = stats.map(|s| s.retx_by.rack_count).unwrap_or(0),
        retx_rto = stats.map(|s| s.retx_by.rto).unwrap_or(0),
        retx_probe = stats.map(|s| s.retx_by.probe).unwrap_or(0),
        "rdt transfer end"
    );
    let delivered = stats.map(|s| s.bytes_acked + s.bytes_skipped).unwrap_or(0);
    ctx.offers
        .finish(&ctx.transfers, &g, ok, delivered, error)
        .await;
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
    socket: &Arc<UdpSocket>,
    g: &Grant,
    conn: u64,
    peer: SocketAddr,
    rx: mpsc::Receiver<Bytes>,
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
    let mut link = Link {
        socket: socket.clone(),
        peer: Some(peer),
        inbox: Inbox::Channel(rx),
    };
    let started = Instant::now();
    let offer_id = g.offer.offer_id.clone();
    let push = g.push.clone();
    let mut on_progress = |s: &SenderStats| {
        trace_controller(&offer_id, s, started);
        let _ = push.try_send(progress(&offer_id, s, started));
    };
    let r = send_file(
        &mut link,
        &mut tx,
        conn,
        &file,
        &g.cancel,
        None,
        PROGRESS_EVERY,
        &mut on_progress,
    )
    .await;
    let stats = tx.stats();
    match r {
        Ok(()) => Ok(stats),
        Err(e) => Err((drive_error_text(&e), Some(stats))),
    }
}

/// Human reason for a failed driver run, as stored and shown to the user.
pub(super) fn drive_error_text(e: &DriveError) -> String {
    match e {
        DriveError::NoAnswer => "对端无响应 / no answer from the peer".into(),
        DriveError::Aborted(r) => reason_text(*r),
        DriveError::Cancelled => "已取消 / cancelled".into(),
        DriveError::Io(e) => format!("文件读写失败 / file I/O failed: {e}"),
        DriveError::Refused(why) => why.clone(),
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

/// The congestion controller's state at each progress tick, at debug level
/// (`--log-level llmops_server::net::rdt=debug`): window over time, the queueing delay it
/// sees, and how many loss rounds it read as congestion.
fn trace_controller(offer_id: &str, s: &SenderStats, started: Instant) {
    let us = |d: Option<std::time::Duration>| d.map(|d| d.as_micros() as u64).unwrap_or(0);
    tracing::debug!(
        offer = offer_id,
        t_ms = started.elapsed().as_millis() as u64,
        acked = s.bytes_acked,
        cwnd = s.cwnd,
        in_flight = s.in_flight,
        srtt_us = us(s.srtt),
        min_rtt_us = us(s.min_rtt),
        queue_us = us(s.queue_delay),
        loss_rate = s.loss_rate,
        loss_rounds = s.loss_rounds,
        congestion_events = s.congestion_events,
        retx = s.retransmissions,
        timeouts = s.timeouts,
        "rdt cc"
    );
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
