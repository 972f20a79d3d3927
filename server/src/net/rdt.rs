//! RDT over UDP, server side: one socket, one demultiplexing task, one task per transfer.
//! The demux task routes datagrams by connection id to transfer tasks (each owns its
//! `Sender` state machine and file) and answers REQUESTs: a valid token starts a transfer
//! bound to the address that presented it; anything else gets a rate-limited ABORT
//! NotFound and nothing more. Garbage is counted and dropped, never fatal.

mod download;
pub mod resume;
mod upload;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::{Bytes, BytesMut};
use protocol::rdt::{decode, encode_abort, peek_conn_id, AbortCode, Mode, Packet, MAX_DATAGRAM};
use rdt_io::{RecvBatch, RECV_BATCH, SOCKET_BUFFER};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;

pub use crate::transfer::grants::{Grant, GrantKind, Transfers, UploadGrant};

use crate::app::Ctx;

/// Datagrams queued per transfer between the demux task and the transfer task; beyond
/// this they are dropped like any other loss.
const ROUTE_QUEUE: usize = 4096;
/// ABORT NotFound replies per second, in total (a spoofed flood must not make us an
/// amplifier or busy).
const NOT_FOUND_PER_SEC: u32 = 50;

/// Binds the RDT socket (with large buffers). Returns the socket and its bound address.
pub fn bind(addr: SocketAddr) -> std::io::Result<(UdpSocket, SocketAddr)> {
    let domain = if addr.is_ipv4() {
        socket2::Domain::IPV4
    } else {
        socket2::Domain::IPV6
    };
    let s = socket2::Socket::new(domain, socket2::Type::DGRAM, Some(socket2::Protocol::UDP))?;
    // Best effort: the kernel caps these at net.core.[rw]mem_max.
    if let Err(e) = s
        .set_recv_buffer_size(SOCKET_BUFFER)
        .and_then(|()| s.set_send_buffer_size(SOCKET_BUFFER))
    {
        tracing::warn!("rdt socket buffers not enlarged ({e}); bursts may look like loss");
    }
    s.set_nonblocking(true)?;
    s.bind(&addr.into())?;
    let std_sock: std::net::UdpSocket = s.into();
    let sock = UdpSocket::from_std(std_sock)?;
    let local = sock.local_addr()?;
    Ok((sock, local))
}

/// A route from the demux task to a running transfer.
struct Route {
    peer: SocketAddr,
    tx: mpsc::Sender<Bytes>,
    /// Datagrams lost because the transfer's queue was full.
    full: u64,
}

/// Runs the RDT service until shutdown: receives, routes, starts transfers.
pub async fn serve(ctx: Arc<Ctx>, socket: UdpSocket) {
    let socket = Arc::new(socket);
    let mut d = Demux {
        ctx: ctx.clone(),
        socket: socket.clone(),
        routes: HashMap::new(),
        done: mpsc::unbounded_channel(),
        limiter: RateLimit::new(NOT_FOUND_PER_SEC),
    };
    let mut batch = RecvBatch::default();
    // Routed datagrams are copied into one shared buffer per batch: one allocation per
    // recvmmsg, not per datagram.
    let mut pool = BytesMut::new();
    loop {
        tokio::select! {
            _ = ctx.shutdown.cancelled() => break,
            Some(id) = d.done.1.recv() => {
                d.routes.remove(&id);
            }
            r = socket.readable() => {
                if r.is_err() {
                    continue;
                }
                for _ in 0..8 {
                    let n = match batch.try_recv(&socket) {
                        Ok(n) => n,
                        Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => break,
                        Err(e) => {
                            // ICMP port-unreachable from a vanished client surfaces here on
                            // some systems; it is about one peer, never fatal for the service.
                            tracing::debug!("rdt recv: {e}");
                            break;
                        }
                    };
                    pool.reserve(RECV_BATCH * (MAX_DATAGRAM + 1));
                    for i in 0..n {
                        let Some(from) = batch.addr(i) else { continue };
                        d.datagram(batch.get(i), from, &mut pool).await;
                    }
                    if n < RECV_BATCH {
                        break;
                    }
                }
            }
        }
    }
}

/// The demultiplexer's state: running transfers by connection id.
struct Demux {
    ctx: Arc<Ctx>,
    socket: Arc<UdpSocket>,
    routes: HashMap<u64, Route>,
    done: (mpsc::UnboundedSender<u64>, mpsc::UnboundedReceiver<u64>),
    limiter: RateLimit,
}

impl Demux {
    async fn datagram(&mut self, dgram: &[u8], from: SocketAddr, pool: &mut BytesMut) {
        let ctx = &self.ctx;
        let Some(id) = peek_conn_id(dgram) else {
            count_stray(ctx);
            return;
        };
        if let Some(r) = self.routes.get_mut(&id) {
            if r.peer == from {
                pool.extend_from_slice(dgram);
                // A full queue is loss, which the protocol recovers from (traced: lost
                // ACKs make the sender re-send what the receiver holds).
                if let Err(mpsc::error::TrySendError::Full(_)) =
                    r.tx.try_send(pool.split().freeze())
                {
                    r.full += 1;
                    if r.full.is_power_of_two() {
                        tracing::debug!(conn = id, lost = r.full, "rdt route queue full");
                    }
                }
                return;
            }
        }
        let Ok((_, Packet::Request(req))) = decode(dgram) else {
            // Late ACKs or FIN-ACKs of a finished transfer, datagrams of a running transfer
            // from another address, or garbage: nothing to say.
            count_stray(ctx);
            return;
        };
        // A REQUEST for a running transfer from another address presents a used token.
        let now = Instant::now();
        let redeemed = if self.routes.contains_key(&id) {
            Err(crate::transfer::grants::RedeemError::Unknown)
        } else if req.mode == Mode::Push {
            ctx.transfers
                .redeem_upload(req.token, now)
                .map(Redeemed::Upload)
        } else {
            ctx.transfers
                .redeem(GrantKind::Rdt, req.token, now)
                .map(|g| Redeemed::Download(Box::new(g)))
        };
        match redeemed {
            Ok(g) => {
                let (tx, rx) = mpsc::channel(ROUTE_QUEUE);
                let _ = tx.try_send(Bytes::copy_from_slice(dgram));
                self.routes.insert(
                    id,
                    Route {
                        peer: from,
                        tx,
                        full: 0,
                    },
                );
                let c = ctx.clone();
                let s = self.socket.clone();
                let done = self.done.0.clone();
                ctx.tracker.spawn(async move {
                    match g {
                        Redeemed::Download(g) => download::run(c, s, *g, id, from, rx).await,
                        Redeemed::Upload(g) => upload::run(c, s, g, id, from, rx).await,
                    }
                    let _ = done.send(id);
                });
            }
            Err(why) => {
                ctx.transfers
                    .metrics
                    .bad_tokens
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tracing::debug!(%from, ?why, "rdt request with a bad token");
                if self.limiter.allow(now) {
                    let mut out = [0u8; 64];
                    if let Ok(len) = encode_abort(id, AbortCode::NotFound, &mut out) {
                        let _ = self.socket.send_to(&out[..len], from).await;
                    }
                }
            }
        }
    }
}

/// A redeemed token: what the new transfer task does.
enum Redeemed {
    Download(Box<Grant>),
    Upload(UploadGrant),
}

fn count_stray(ctx: &Ctx) {
    ctx.transfers
        .metrics
        .stray_datagrams
        .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// A simple per-second budget.
struct RateLimit {
    per_sec: u32,
    used: u32,
    window: Instant,
}

impl RateLimit {
    fn new(per_sec: u32) -> Self {
        Self {
            per_sec,
            used: 0,
            window: Instant::now(),
        }
    }

    fn allow(&mut self, now: Instant) -> bool {
        if now.duration_since(self.window) >= Duration::from_secs(1) {
            self.window = now;
            self.used = 0;
        }
        self.used += 1;
        self.used <= self.per_sec
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn not_found_replies_are_rate_limited() {
        let mut l = RateLimit::new(3);
        let t = Instant::now();
        assert!(l.allow(t) && l.allow(t) && l.allow(t));
        assert!(!l.allow(t));
        assert!(l.allow(t + Duration::from_secs(1)));
    }
}
