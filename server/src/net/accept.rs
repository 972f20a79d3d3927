//! The NPLT listeners: TCP, and the Unix socket for local users (identified by their
//! peer credentials). Each accepted peer passes admission (`net/admission.rs`: caps per
//! remote address and per local user, a total, and the budget before HELLO, making room
//! by evicting the least useful idle peer) and gets one task; shutdown stops accepting.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use protocol::{Inbound, Message};
use rdt_io::MessageCodec;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::{TcpListener, TcpStream, UnixListener};
use tokio::sync::Semaphore;
use tokio_util::codec::Framed;

use crate::app::Ctx;
use crate::peer::{LocalUser, Peer};

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

/// Accepts NPLT connections over TCP until shutdown.
pub async fn accept_loop(ctx: Arc<Ctx>, listener: TcpListener) {
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    while let Some((stream, addr)) = accept_next(&ctx, &listener, "nplt").await {
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(%addr, "TCP_NODELAY not set: {e}");
        }
        admit(&ctx, &refusals, stream, Peer::Tcp(addr));
    }
}

/// Accepts local users on the Unix socket until shutdown. The kernel names the peer
/// (`SO_PEERCRED`); the socket file's mode and the operators group decide who may stay.
pub async fn unix_accept_loop(ctx: Arc<Ctx>, listener: UnixListener) {
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    loop {
        let accepted = tokio::select! {
            _ = ctx.shutdown.cancelled() => return,
            a = listener.accept() => a,
        };
        let stream = match accepted {
            Ok((s, _)) => s,
            Err(e) => {
                tracing::warn!("unix socket accept failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let user = match stream.peer_cred() {
            Ok(c) => LocalUser::from_cred(c.uid(), c.gid(), c.pid()),
            Err(e) => {
                tracing::warn!("unix socket peer without credentials ({e}); closed");
                continue;
            }
        };
        if let Err(why) = ctx.local.may_connect(&user) {
            let peer = Peer::Unix(user);
            tracing::warn!(%peer, "unix socket connection refused: not an operator");
            ctx.audit_denial(&peer, "connect", &why);
            spawn_refusal(&refusals, stream, peer, why);
            continue;
        }
        admit(&ctx, &refusals, stream, Peer::Unix(user));
    }
}

/// Admits `peer` and serves it, or tells it which limit refused it.
fn admit<S>(ctx: &Arc<Ctx>, refusals: &Arc<Semaphore>, stream: S, peer: Peer)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    match ctx.admission.admit(peer.key()) {
        Ok(slot) => {
            let c = ctx.clone();
            ctx.connections.fetch_add(1, Ordering::Relaxed);
            ctx.tracker.spawn(async move {
                super::nplt::serve(c.clone(), stream, peer, slot).await;
                c.connections.fetch_sub(1, Ordering::Relaxed);
                // Its buffers are freed now; give them back to the OS soon.
                c.trimmer.request();
            });
        }
        Err(refusal) => {
            tracing::warn!(%peer, ?refusal, "connection refused");
            spawn_refusal(refusals, stream, peer, refusal.text());
        }
    }
}

fn spawn_refusal<S>(refusals: &Arc<Semaphore>, stream: S, peer: Peer, text: String)
where
    S: AsyncRead + AsyncWrite + Unpin + Send + 'static,
{
    if let Ok(p) = refusals.clone().try_acquire_owned() {
        tokio::spawn(async move {
            refuse(stream, &peer, text).await;
            drop(p);
        });
    }
}

/// Tells a refused peer why, in the frame type it understands: an `ERROR busy` to a
/// client that says HELLO, a chat line to one that says nothing (legacy clients wait).
pub async fn refuse<S>(stream: S, peer: &Peer, text: String)
where
    S: AsyncRead + AsyncWrite + Unpin,
{
    let mut framed = Framed::new(stream, MessageCodec::new());
    let first = tokio::time::timeout(Duration::from_millis(500), framed.next()).await;
    let msg = match first {
        Ok(Some(Ok(Inbound::Msg(Message::Hello(_))))) => Message::error("busy", text, None),
        _ => Message::ChatText(text),
    };
    // Best effort: the peer may already be gone, and nothing is lost if it is.
    let _ = tokio::time::timeout(Duration::from_secs(2), framed.send(msg)).await;
    tracing::debug!(%peer, "refused");
}
