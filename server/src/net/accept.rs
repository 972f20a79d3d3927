//! The NPLT listener: accept loop with connection limits (total, per peer address, and
//! peers still before HELLO), one task per connection, and graceful shutdown (stop
//! accepting, cancel turns, let sessions close their files).

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use protocol::{Inbound, Message};
use rdt_io::MessageCodec;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio_util::codec::Framed;

use super::limits::{PeerLimits, PeerPermit, PreAuthBudget, Refusal};
use crate::app::Ctx;

/// Refusals in flight at once; beyond this an over-limit connection is simply closed.
const MAX_REFUSALS: usize = 64;

/// The next accepted connection, or `None` once the server shuts down. Accept errors
/// (EMFILE and friends) are logged and retried after a pause instead of spinning.
pub async fn accept_next(
    ctx: &Ctx,
    listener: &TcpListener,
    what: &str,
) -> Option<(TcpStream, SocketAddr)> {
    loop {
        let accepted = tokio::select! {
            _ = ctx.shutdown.cancelled() => return None,
            a = listener.accept() => a,
        };
        match accepted {
            Ok(v) => return Some(v),
            Err(e) => {
                tracing::warn!("{what} accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
    }
}

/// How long a newcomer waits for an evicted pre-HELLO peer to leave its place.
const PREAUTH_WAIT: Duration = Duration::from_secs(2);

/// The limits a new connection must pass, checked per address first so one address at
/// its limit never takes a shared slot.
struct Gate {
    slots: Arc<Semaphore>,
    peers: Arc<PeerLimits>,
}

impl Gate {
    fn admit(
        &self,
        ctx: &Ctx,
        peer: SocketAddr,
    ) -> Result<(OwnedSemaphorePermit, PeerPermit), Refusal> {
        let peer_permit = self
            .peers
            .try_admit(peer.ip())
            .ok_or(Refusal::PerAddress(self.peers.per_ip()))?;
        let slot = self
            .slots
            .clone()
            .try_acquire_owned()
            .map_err(|_| Refusal::Total(ctx.cfg.max_connections))?;
        Ok((slot, peer_permit))
    }
}

pub async fn accept_loop(ctx: Arc<Ctx>, listener: TcpListener) {
    let gate = Gate {
        slots: Arc::new(Semaphore::new(ctx.cfg.max_connections)),
        peers: PeerLimits::new(ctx.cfg.max_connections_per_ip),
    };
    let preauth = PreAuthBudget::new(ctx.cfg.max_preauth_connections);
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    while let Some((stream, peer)) = accept_next(&ctx, &listener, "nplt").await {
        match gate.admit(&ctx, peer) {
            Ok((slot, peer_permit)) => {
                let c = ctx.clone();
                let preauth = preauth.clone();
                // The eviction order is taken here, in accept order.
                let ticket = preauth.ticket();
                ctx.connections.fetch_add(1, Ordering::Relaxed);
                ctx.tracker.spawn(async move {
                    match preauth.enter(ticket, PREAUTH_WAIT).await {
                        Some(pass) => super::nplt::serve(c.clone(), stream, peer, pass).await,
                        None => {
                            let refusal = Refusal::PreAuth(preauth.limit());
                            tracing::warn!(%peer, ?refusal, "connection refused");
                            refuse_busy(stream, peer, refusal).await;
                        }
                    }
                    c.connections.fetch_sub(1, Ordering::Relaxed);
                    // Its buffers are freed now; give them back to the OS soon.
                    c.trimmer.request();
                    drop((slot, peer_permit));
                });
            }
            Err(refusal) => {
                tracing::warn!(%peer, ?refusal, "connection refused");
                if let Ok(p) = refusals.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        refuse_busy(stream, peer, refusal).await;
                        drop(p);
                    });
                }
            }
        }
    }
}

/// Tells an over-limit peer why it is refused, in the frame type it understands.
async fn refuse_busy(stream: TcpStream, peer: SocketAddr, refusal: Refusal) {
    let mut framed = Framed::new(stream, MessageCodec::new());
    let text = refusal.text();
    let first = tokio::time::timeout(Duration::from_millis(500), framed.next()).await;
    let msg = match first {
        Ok(Some(Ok(Inbound::Msg(Message::Hello(_))))) => Message::error("busy", text, None),
        _ => Message::ChatText(text),
    };
    // Best effort: the peer may already be gone, and nothing is lost if it is.
    let _ = tokio::time::timeout(Duration::from_secs(2), framed.send(msg)).await;
    tracing::debug!(%peer, "refused: busy");
}
