//! The NPLT listener: accept loop with a connection limit, one task per connection, and
//! graceful shutdown (stop accepting, cancel turns, let sessions close their files).

mod activity;
pub mod session;

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures::{SinkExt, StreamExt};
use protocol::{Inbound, Message, MessageCodec};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio_util::codec::Framed;

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

pub async fn accept_loop(ctx: Arc<Ctx>, listener: TcpListener) {
    let slots = Arc::new(Semaphore::new(ctx.cfg.max_connections));
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    while let Some((stream, peer)) = accept_next(&ctx, &listener, "nplt").await {
        match slots.clone().try_acquire_owned() {
            Ok(permit) => {
                let c = ctx.clone();
                ctx.connections.fetch_add(1, Ordering::Relaxed);
                ctx.tracker.spawn(async move {
                    session::serve(c.clone(), stream, peer).await;
                    c.connections.fetch_sub(1, Ordering::Relaxed);
                    // Its buffers are freed now; give them back to the OS soon.
                    c.trimmer.request();
                    drop(permit);
                });
            }
            Err(_) => {
                tracing::warn!(%peer, "connection limit reached ({})", ctx.cfg.max_connections);
                if let Ok(p) = refusals.clone().try_acquire_owned() {
                    let max = ctx.cfg.max_connections;
                    tokio::spawn(async move {
                        refuse_busy(stream, peer, max).await;
                        drop(p);
                    });
                }
            }
        }
    }
}

/// Tells an over-limit peer why it is refused, in the frame type it understands.
async fn refuse_busy(stream: TcpStream, peer: SocketAddr, max: usize) {
    let mut framed = Framed::new(stream, MessageCodec::new());
    let text = format!(
        "服务器繁忙：连接数已达上限 ({max})，请稍后重试 / server busy: connection limit reached"
    );
    let first = tokio::time::timeout(Duration::from_millis(500), framed.next()).await;
    let msg = match first {
        Ok(Some(Ok(Inbound::Msg(Message::Hello(_))))) => Message::error("busy", text, None),
        _ => Message::ChatText(text),
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), framed.send(msg)).await;
    tracing::debug!(%peer, "refused: busy");
}
