//! A socket wrapper that signals every read that brought bytes, so the connection loop
//! wakes on a frame's first byte (and arms the stall timer then) even though the codec
//! yields nothing until the frame is complete.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;

/// `S` with reads reported to a [`Notify`] (one stored permit at most, so a burst of reads
/// costs the loop one extra wake-up).
pub struct Watched<S> {
    inner: S,
    activity: Arc<Notify>,
}

impl<S> Watched<S> {
    pub fn new(inner: S) -> (Watched<S>, Arc<Notify>) {
        let activity = Arc::new(Notify::new());
        (
            Watched {
                inner,
                activity: activity.clone(),
            },
            activity,
        )
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.activity.notify_one();
        }
        r
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn a_read_with_bytes_wakes_the_waiter() {
        let (a, mut b) = tokio::io::duplex(64);
        let (mut w, activity) = Watched::new(a);
        b.write_all(b"\x01\x00").await.expect("write");
        let mut buf = [0u8; 8];
        let n = w.read(&mut buf).await.expect("read");
        assert_eq!(n, 2);
        // The permit stored by the read makes this return at once.
        tokio::time::timeout(std::time::Duration::from_secs(5), activity.notified())
            .await
            .expect("notified");
    }
}
