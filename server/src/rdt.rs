//! RDT over UDP, server side: one socket, one demultiplexing task, one task per transfer.
//! The demux task routes datagrams by connection id to transfer tasks (each owns its
//! `Sender` state machine and file) and answers REQUESTs: a valid token starts a transfer
//! bound to the address that presented it; anything else gets a rate-limited ABORT
//! NotFound and nothing more. Garbage is counted and dropped, never fatal.

pub mod grant;
mod transfer;

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use protocol::rdt::{decode, encode_abort, peek_conn_id, AbortCode, Packet, MAX_DATAGRAM};
use tokio::net::UdpSocket;
use tokio::sync::mpsc;

pub use grant::{Grant, GrantKind, Transfers};

use crate::app::Ctx;

/// Socket buffers we ask for: a full window of 1420-byte datagrams (2048 packets, about
/// 3 MB) must fit, or loopback bursts overflow the default 208 KB and look like loss.
pub const SOCKET_BUFFER: usize = 4 * 1024 * 1024;
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
    let _ = s.set_recv_buffer_size(SOCKET_BUFFER);
    let _ = s.set_send_buffer_size(SOCKET_BUFFER);
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
}

/// Runs the RDT service until shutdown: receives, routes, starts transfers.
pub async fn serve(ctx: Arc<Ctx>, socket: UdpSocket) {
    let socket = Arc::new(socket);
    let mut routes: HashMap<u64, Route> = HashMap::new();
    let (done_tx, mut done_rx) = mpsc::unbounded_channel::<u64>();
    let mut buf = vec![0u8; MAX_DATAGRAM + 1];
    let mut limiter = RateLimit::new(NOT_FOUND_PER_SEC);
    loop {
        let (n, from) = tokio::select! {
            _ = ctx.shutdown.cancelled() => break,
            Some(id) = done_rx.recv() => {
                routes.remove(&id);
                continue;
            }
            r = socket.recv_from(&mut buf) => match r {
                Ok(v) => v,
                Err(e) => {
                    // ICMP port-unreachable from a vanished client surfaces here on some
                    // systems; it is about one peer, never fatal for the service.
                    tracing::debug!("rdt recv: {e}");
                    continue;
                }
            },
        };
        let dgram = &buf[..n];
        let Some(id) = peek_conn_id(dgram) else {
            ctx.transfers
                .metrics
                .stray_datagrams
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            continue;
        };
        if let Some(r) = routes.get(&id) {
            if r.peer == from {
                // A full queue is loss, which the protocol recovers from.
                let _ = r.tx.try_send(Bytes::copy_from_slice(dgram));
                continue;
            }
        }
        let Ok((_, Packet::Request(req))) = decode(dgram) else {
            // Late ACKs or FIN-ACKs of a finished transfer, datagrams of a running transfer
            // from another address, or garbage: nothing to say.
            count_stray(&ctx);
            continue;
        };
        // A REQUEST for a running transfer from another address presents a used token.
        let redeemed = if routes.contains_key(&id) {
            Err(grant::RedeemError::Unknown)
        } else {
            ctx.transfers
                .redeem(GrantKind::Rdt, req.token, Instant::now())
        };
        match redeemed {
            Ok(g) => {
                let (tx, rx) = mpsc::channel(ROUTE_QUEUE);
                let _ = tx.try_send(Bytes::copy_from_slice(dgram));
                routes.insert(id, Route { peer: from, tx });
                let c = ctx.clone();
                let s = socket.clone();
                let done = done_tx.clone();
                ctx.tracker.spawn(async move {
                    transfer::run(c, s, g, id, from, rx).await;
                    let _ = done.send(id);
                });
            }
            Err(why) => {
                ctx.transfers
                    .metrics
                    .bad_tokens
                    .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                tracing::debug!(%from, ?why, "rdt request with a bad token");
                if limiter.allow(Instant::now()) {
                    let mut out = [0u8; 64];
                    if let Ok(len) = encode_abort(id, AbortCode::NotFound, &mut out) {
                        let _ = socket.send_to(&out[..len], from).await;
                    }
                }
            }
        }
    }
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
