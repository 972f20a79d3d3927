//! Tokio UDP drivers for the RDT state machines, shared by the server and the client in
//! both directions: [`send_file`] pushes a file with a [`Sender`], [`receive_file`] stores
//! one with a [`Receiver`]. Datagrams leave in GSO batches and arrive through `recvmmsg`
//! (see `sys`); file reads go through a read-ahead window and writes are coalesced, so the
//! syscall count is per batch, not per 1420-byte datagram; the contiguous prefix of a
//! received file is handed to a hook as it grows (sha256 while receiving, no second pass).

use std::net::SocketAddr;
use std::os::fd::AsRawFd;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::io::Interest;
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use protocol::rdt::AbortReason;

use crate::sys::{self, RecvBatch};
use crate::SOCKET_BUFFER;

mod recv;
mod send;

pub use recv::{receive_file, RecvOptions};
pub use send::send_file;

/// File bytes per read: a read-ahead refill when sending, a read-back of the prefix when
/// receiving.
const READ_AHEAD: usize = 512 * 1024;
/// Datagrams taken from the inbox per wake-up before transmitting again.
const INBOX_BURST: usize = 256;

/// How a driver reaches its peer.
pub struct Link {
    pub socket: Arc<UdpSocket>,
    /// Destination of sends; `None` when the socket is connected to the peer.
    pub peer: Option<SocketAddr>,
    pub inbox: Inbox,
}

/// Where a driver's incoming datagrams come from.
pub enum Inbox {
    /// Read the (connected) socket directly: a client.
    Socket,
    /// Datagrams routed by a demultiplexer that owns the shared socket: the server.
    Channel(mpsc::Receiver<Bytes>),
}

/// Why a driven transfer did not complete.
#[derive(Debug)]
pub enum DriveError {
    /// The handshake got no answer within the allowed time (UDP blocked?).
    NoAnswer,
    /// The state machine gave up (or the peer aborted).
    Aborted(AbortReason),
    /// The caller's cancel token fired (or the demultiplexer went away).
    Cancelled,
    /// Reading or writing the file failed.
    Io(std::io::Error),
    /// The prefix hook refused the data (for example an upload that is not text).
    Refused(String),
}

enum Wake {
    Input,
    Timer,
    Cancelled,
}

/// Whether a driver's loop goes on after a step, or ends with this result.
enum Flow {
    Continue,
    Done(Result<(), DriveError>),
}

/// When a driver wakes without input: the state machine's next timer (a second from now
/// when it has none) or the next `tick`, whichever comes first.
fn wake_deadline(timer: Option<Instant>, now: Instant, tick: Instant) -> Instant {
    timer.unwrap_or(now + Duration::from_secs(1)).min(tick)
}

/// How a state machine's abort ends the drive: as the cancellation that caused it, else
/// as the abort.
fn aborted(cancelled: bool, reason: AbortReason) -> DriveError {
    if cancelled {
        DriveError::Cancelled
    } else {
        DriveError::Aborted(reason)
    }
}

/// Latches a cancellation seen by [`Link::wait`]: true only the first time, when the state
/// machine is to be aborted (its abort then ends the drive as [`DriveError::Cancelled`]).
fn first_cancel(wake: &Wake, cancelled: &mut bool) -> bool {
    if matches!(wake, Wake::Cancelled) && !*cancelled {
        *cancelled = true;
        return true;
    }
    false
}

impl Link {
    /// A connected client socket with large buffers, bound to an ephemeral port.
    pub async fn connect(addr: SocketAddr) -> std::io::Result<Link> {
        let bind: SocketAddr = if addr.is_ipv4() {
            SocketAddr::from(([0, 0, 0, 0], 0))
        } else {
            SocketAddr::from(([0u16; 8], 0))
        };
        let sock = UdpSocket::bind(bind).await?;
        grow_buffers(&sock);
        sock.connect(addr).await?;
        Ok(Link {
            socket: Arc::new(sock),
            peer: None,
            inbox: Inbox::Socket,
        })
    }

    /// Sends `buf` as datagrams of `seg` bytes (the last may be shorter). A send error is
    /// a lost datagram: the state machine recovers from it.
    async fn send(&self, buf: &[u8], seg: usize) {
        let fd = self.socket.as_raw_fd();
        let mut off = 0;
        while off < buf.len() {
            let r = self.socket.try_io(Interest::WRITABLE, || {
                sys::send_segments(fd, &buf[off..], seg, self.peer.as_ref())
            });
            match r {
                Ok(0) => return,
                Ok(n) => off += n,
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if self.socket.writable().await.is_err() {
                        return;
                    }
                }
                Err(_) => return,
            }
        }
    }

    /// Waits for input, the deadline or cancellation; feeds every datagram already queued
    /// to `feed`.
    async fn wait(
        &mut self,
        deadline: Instant,
        cancel: &CancellationToken,
        batch: &mut RecvBatch,
        feed: &mut (dyn FnMut(&[u8]) + Send),
    ) -> Wake {
        let sleep = tokio::time::sleep_until(tokio::time::Instant::from_std(deadline));
        match &mut self.inbox {
            Inbox::Socket => {
                let sock = &self.socket;
                tokio::select! {
                    biased;
                    _ = cancel.cancelled() => Wake::Cancelled,
                    r = sock.readable() => {
                        if r.is_err() {
                            return Wake::Input;
                        }
                        let mut taken = 0;
                        while taken < INBOX_BURST {
                            match batch.try_recv(sock) {
                                Ok(n) => {
                                    for i in 0..n {
                                        feed(batch.get(i));
                                    }
                                    taken += n;
                                    if n < sys::RECV_BATCH {
                                        break;
                                    }
                                }
                                // WouldBlock, or an ICMP error about the peer: the state
                                // machine's timers decide what it means.
                                Err(_) => break,
                            }
                        }
                        Wake::Input
                    }
                    _ = sleep => Wake::Timer,
                }
            }
            Inbox::Channel(rx) => {
                tokio::select! {
                    biased;
                    _ = cancel.cancelled() => Wake::Cancelled,
                    d = rx.recv() => match d {
                        Some(d) => {
                            feed(&d);
                            for _ in 1..INBOX_BURST {
                                match rx.try_recv() {
                                    Ok(d) => feed(&d),
                                    Err(_) => break,
                                }
                            }
                            Wake::Input
                        }
                        None => Wake::Cancelled,
                    },
                    _ = sleep => Wake::Timer,
                }
            }
        }
    }
}

impl RecvBatch {
    /// One `recvmmsg` on `socket` without blocking, through tokio's readiness tracking:
    /// up to [`sys::RECV_BATCH`] datagrams, then [`RecvBatch::get`] / [`RecvBatch::addr`]
    /// read them. `WouldBlock` when nothing is queued (and the readiness is cleared).
    pub fn try_recv(&mut self, socket: &UdpSocket) -> std::io::Result<usize> {
        let fd = socket.as_raw_fd();
        socket.try_io(Interest::READABLE, || sys::recv_batch(fd, self))
    }
}

/// Asks for large socket buffers (best effort: the kernel caps them at [rw]mem_max).
pub fn grow_buffers(sock: &UdpSocket) {
    let fd = sock.as_raw_fd();
    let _ = sys::set_int_opt(fd, libc::SO_RCVBUF, SOCKET_BUFFER as libc::c_int);
    let _ = sys::set_int_opt(fd, libc::SO_SNDBUF, SOCKET_BUFFER as libc::c_int);
}
