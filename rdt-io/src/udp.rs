//! Tokio UDP drivers for the RDT state machines, shared by the server and the client in
//! both directions: [`send_file`] pushes a file with a [`Sender`], [`receive_file`] stores
//! one with a [`Receiver`]. Datagrams leave in GSO batches and arrive through `recvmmsg`
//! (see `sys`); file reads go through a read-ahead window and writes are coalesced, so the
//! syscall count is per batch, not per 1420-byte datagram; the contiguous prefix of a
//! received file is handed to a hook as it grows (sha256 while receiving, no second pass).

use std::net::SocketAddr;
use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::time::{Duration, Instant};

use bytes::Bytes;
use tokio::io::Interest;
use tokio::net::UdpSocket;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use protocol::rdt::{
    decode, peek_type, seal_data, AbortCode, AbortReason, Packet, PacketType, Receiver,
    ReceiverEvent, ReceiverState, Sender, SenderEvent, SenderState, SenderStats, Transmit,
    DATA_HEADER_LEN, MAX_DATAGRAM,
};

use crate::sys::{self, RecvBatch, MAX_SEGMENTS};
use crate::SOCKET_BUFFER;
/// File bytes read per read-ahead refill.
const READ_AHEAD: usize = 512 * 1024;
/// Extra copies of the FIN-ACK sent when the receiving loop ends.
const FIN_ACK_REPEATS: usize = 2;
/// Largest coalesced write.
const WRITE_COALESCE: usize = 512 * 1024;
/// Written bytes after which their writeback to disk is started (see
/// [`sys::start_writeback`]): the fsync that ends a download then finds most of the file
/// already on its way to disk instead of all of it (about 5 ms per 10 MiB here). The rest
/// is started as soon as the last chunk is held, while the FIN exchange runs.
const WRITEBACK_EVERY: u64 = 1024 * 1024;
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

/// Read-ahead window over the file being sent: one `pread` per [`READ_AHEAD`] bytes in the
/// common forward pass; retransmissions behind the window read their chunk directly.
struct FileWindow<'a> {
    file: &'a std::fs::File,
    size: u64,
    buf: Vec<u8>,
    start: u64,
}

impl FileWindow<'_> {
    fn read(&mut self, offset: u64, out: &mut [u8]) -> std::io::Result<()> {
        let end = offset + out.len() as u64;
        let have_end = self.start + self.buf.len() as u64;
        if offset >= self.start && end <= have_end {
            let i = (offset - self.start) as usize;
            out.copy_from_slice(&self.buf[i..i + out.len()]);
            return Ok(());
        }
        if offset < self.start || offset > have_end + READ_AHEAD as u64 {
            // A retransmission far from the forward pass: read just this chunk.
            return self.file.read_exact_at(out, offset);
        }
        let len = (READ_AHEAD as u64).min(self.size.saturating_sub(offset)) as usize;
        self.buf.resize(len.max(out.len()), 0);
        self.file
            .read_exact_at(&mut self.buf[..len.max(out.len())], offset)?;
        self.start = offset;
        out.copy_from_slice(&self.buf[..out.len()]);
        Ok(())
    }
}

/// Drives `tx` until the transfer is done (every chunk acknowledged), sending `file`'s
/// bytes. `progress` is called about every `progress_every`. With `handshake_timeout`
/// (push mode), a handshake unanswered that long ends in [`DriveError::NoAnswer`]. The
/// state machine is left in place for its final stats.
#[allow(clippy::too_many_arguments)]
pub async fn send_file(
    link: &mut Link,
    tx: &mut Sender,
    conn: u64,
    file: &std::fs::File,
    cancel: &CancellationToken,
    handshake_timeout: Option<Duration>,
    progress_every: Duration,
    progress: &mut (dyn FnMut(&SenderStats) + Send),
) -> Result<(), DriveError> {
    let size = tx.stats().file_size;
    let mut window = FileWindow {
        file,
        size,
        buf: Vec::new(),
        start: 0,
    };
    let mut out: Vec<u8> = Vec::with_capacity(MAX_SEGMENTS * MAX_DATAGRAM);
    let mut ctrl = [0u8; MAX_DATAGRAM];
    let mut batch = RecvBatch::default();
    let started = Instant::now();
    let handshake_deadline = handshake_timeout.map(|d| started + d);
    let mut next_progress = started + progress_every;
    let mut cancelled = false;
    let mut io_error: Option<std::io::Error> = None;
    loop {
        let now = Instant::now();
        if tx.poll_timeout().is_some_and(|t| t <= now) {
            tx.handle_timeout(now);
        }
        // Fill GSO batches: equal-sized datagrams, the last may be shorter.
        let mut seg = 0usize;
        let mut count = 0usize;
        out.clear();
        loop {
            let off = out.len();
            out.resize(off + MAX_DATAGRAM, 0);
            let Some(t) = tx.poll_transmit(now, &mut out[off..]) else {
                out.truncate(off);
                break;
            };
            match t {
                Transmit::Control { len } => {
                    ctrl[..len].copy_from_slice(&out[off..off + len]);
                    out.truncate(off);
                    link.send(&out, seg).await;
                    out.clear();
                    (seg, count) = (0, 0);
                    link.send(&ctrl[..len], len).await;
                }
                Transmit::Data { seq, offset, len } => {
                    let body = &mut out[off + DATA_HEADER_LEN..off + DATA_HEADER_LEN + len];
                    if let Err(e) = window.read(offset, body) {
                        out.truncate(off);
                        io_error.get_or_insert(e);
                        tx.abort(AbortCode::Io);
                        continue;
                    }
                    let Ok(n) = seal_data(conn, seq, len, &mut out[off..]) else {
                        out.truncate(off);
                        continue;
                    };
                    out.truncate(off + n);
                    if count > 0 && n > seg {
                        // Larger than the batch's segments: the batch ends before it.
                        link.send(&out[..off], seg).await;
                        out.drain(..off);
                        count = 0;
                    }
                    if count == 0 {
                        seg = n;
                    }
                    count += 1;
                    if n < seg || count >= MAX_SEGMENTS {
                        link.send(&out, seg).await;
                        out.clear();
                        (seg, count) = (0, 0);
                    }
                }
            }
        }
        link.send(&out, seg).await;
        while let Some(ev) = tx.poll_event() {
            if let SenderEvent::Aborted { reason } = ev {
                return Err(match (io_error.take(), cancelled) {
                    (Some(e), _) => DriveError::Io(e),
                    (None, true) => DriveError::Cancelled,
                    (None, false) => DriveError::Aborted(reason),
                });
            }
        }
        if tx.is_finished() {
            progress(&tx.stats());
            return Ok(());
        }
        let now = Instant::now();
        if now >= next_progress {
            next_progress = now + progress_every;
            progress(&tx.stats());
        }
        let mut deadline = tx
            .poll_timeout()
            .unwrap_or(now + Duration::from_secs(1))
            .min(next_progress);
        if tx.state() == SenderState::Handshake {
            if let Some(d) = handshake_deadline {
                if now >= d {
                    tx.abort(AbortCode::Cancelled);
                    flush_control(link, tx, now).await;
                    return Err(DriveError::NoAnswer);
                }
                deadline = deadline.min(d);
            }
        }
        let wake = link
            .wait(deadline, cancel, &mut batch, &mut |d| {
                tx.handle(d, Instant::now())
            })
            .await;
        if let Wake::Cancelled = wake {
            if !cancelled {
                cancelled = true;
                tx.abort(AbortCode::Cancelled);
            }
        }
    }
}

/// Sends what a sender still has to say (an ABORT) before it is dropped.
async fn flush_control(link: &Link, tx: &mut Sender, now: Instant) {
    let mut buf = [0u8; MAX_DATAGRAM];
    while let Some(Transmit::Control { len }) = tx.poll_transmit(now, &mut buf) {
        link.send(&buf[..len], len).await;
    }
}

/// Options of [`receive_file`].
pub struct RecvOptions {
    /// With the initiating (pull) side: give up with `NoAnswer` after this long without
    /// any answer.
    pub handshake_timeout: Option<Duration>,
    /// After the last chunk, keep answering this long unless the peer's FIN got its
    /// FIN-ACK earlier, so the peer learns of the completion at once.
    pub fin_linger: Duration,
    /// How often `tick` runs (progress, resume bitmap); written data is on disk (not
    /// necessarily synced) when it does.
    pub tick: Duration,
}

/// Coalesces adjacent chunk writes into one `pwrite`, and starts the writeback of what
/// it wrote every [`WRITEBACK_EVERY`] bytes.
struct Coalesce<'a> {
    file: &'a std::fs::File,
    buf: Vec<u8>,
    start: u64,
    /// Byte span written since the last writeback started (retransmissions fill holes
    /// behind the forward pass, so it is the span, not the sum).
    dirty: Option<(u64, u64)>,
    dirty_bytes: u64,
    /// Cleared when the file system refuses `sync_file_range` (the fsync does it all).
    writeback: bool,
}

impl<'a> Coalesce<'a> {
    fn new(file: &'a std::fs::File) -> Self {
        Coalesce {
            file,
            buf: Vec::with_capacity(WRITE_COALESCE),
            start: 0,
            dirty: None,
            dirty_bytes: 0,
            writeback: true,
        }
    }

    fn write(&mut self, offset: u64, data: &[u8]) -> std::io::Result<()> {
        let end = self.start + self.buf.len() as u64;
        if !self.buf.is_empty() && (offset != end || self.buf.len() + data.len() > WRITE_COALESCE) {
            self.flush()?;
        }
        if self.buf.is_empty() {
            self.start = offset;
        }
        self.buf.extend_from_slice(data);
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        self.file.write_all_at(&self.buf, self.start)?;
        let (a, b) = (self.start, self.start + self.buf.len() as u64);
        self.dirty = Some(self.dirty.map_or((a, b), |(x, y)| (x.min(a), y.max(b))));
        self.dirty_bytes += self.buf.len() as u64;
        self.buf.clear();
        if self.dirty_bytes >= WRITEBACK_EVERY {
            self.start_writeback();
        }
        Ok(())
    }

    /// Starts the writeback of everything written and not yet on its way to disk.
    fn start_writeback(&mut self) {
        if self.writeback {
            if let Some((x, y)) = self.dirty.take() {
                if let Err(e) = sys::start_writeback(self.file.as_raw_fd(), x, y - x) {
                    // Only an early start of the final fsync's work is lost.
                    tracing::debug!(
                        "rdt: sync_file_range refused ({e}); the final fsync writes all"
                    );
                    self.writeback = false;
                }
            }
        }
        self.dirty_bytes = 0;
    }

    /// Writes what is buffered and starts its writeback (the file is complete: the
    /// caller's fsync follows).
    fn finish(&mut self) -> std::io::Result<()> {
        self.flush()?;
        self.start_writeback();
        Ok(())
    }
}

/// Drives `rx` until every chunk is held and written to `file` (then lingers for the FIN
/// exchange). `prefix` gets the file's bytes in order, exactly once each, as the held
/// prefix grows; `tick` runs about every `opts.tick`.
#[allow(clippy::too_many_arguments)]
pub async fn receive_file(
    link: &mut Link,
    rx: &mut Receiver,
    conn: u64,
    file: &std::fs::File,
    cancel: &CancellationToken,
    opts: &RecvOptions,
    prefix: &mut (dyn FnMut(&[u8]) -> Result<(), String> + Send),
    tick: &mut (dyn FnMut(&Receiver) + Send),
) -> Result<(), DriveError> {
    let mut writer = Coalesce::new(file);
    let mut ctrl = [0u8; MAX_DATAGRAM];
    let mut ack_buf = [0u8; MAX_DATAGRAM];
    // ACKs taken while a batch of datagrams is fed (sent back to back after it).
    let mut acks: Vec<u8> = Vec::new();
    let mut ack_lens: Vec<usize> = Vec::new();
    let mut batch = RecvBatch::default();
    let started = Instant::now();
    let handshake_deadline = opts.handshake_timeout.map(|d| started + d);
    let mut next_tick = started;
    let mut hashed: u64 = 0;
    let mut readback: Vec<u8> = Vec::new();
    let mut done_at: Option<Instant> = None;
    let mut fin_seen = false;
    let mut cancelled = false;
    let mut failure: Option<DriveError> = None;
    // The FIN-ACK, kept to be repeated on the way out (see below).
    let mut fin_ack: Option<Vec<u8>> = None;
    loop {
        let now = Instant::now();
        if rx.poll_timeout().is_some_and(|d| d <= now) {
            rx.handle_timeout(now);
        }
        while let Some(n) = rx.poll_transmit(now, &mut ctrl) {
            link.send(&ctrl[..n], n).await;
            if peek_type(&ctrl[..n]) == Some(PacketType::FinAck) {
                fin_ack = Some(ctrl[..n].to_vec());
            }
        }
        if let Some(e) = failure.take() {
            return Err(e);
        }
        while let Some(ev) = rx.poll_event() {
            match ev {
                ReceiverEvent::Done => {
                    done_at.get_or_insert(now);
                    // Every chunk is held: the disk can start on the tail while the FIN
                    // exchange runs (a round trip) before the caller's fsync.
                    writer.finish().map_err(DriveError::Io)?;
                }
                ReceiverEvent::Aborted { reason } => {
                    return Err(if cancelled {
                        DriveError::Cancelled
                    } else {
                        DriveError::Aborted(reason)
                    });
                }
            }
        }
        if let Some(d) = done_at {
            if fin_seen || now >= d + opts.fin_linger || rx.is_finished() {
                // Nobody answers the sender's FIN once we are gone: a lost FIN-ACK kept
                // the peer's transfer open through all its FIN retries (10-16 s at 5-20%
                // loss). Two more copies make that a 1-in-125 event at 20% loss.
                if let Some(f) = &fin_ack {
                    for _ in 0..FIN_ACK_REPEATS {
                        link.send(f, f.len()).await;
                    }
                }
                writer.flush().map_err(DriveError::Io)?;
                return Ok(());
            }
        }
        if rx.state() == ReceiverState::Handshake && handshake_deadline.is_some_and(|d| now >= d) {
            return Err(DriveError::NoAnswer);
        }
        if now >= next_tick {
            next_tick = now + opts.tick;
            writer.flush().map_err(DriveError::Io)?;
            tick(rx);
        }
        let mut wake = rx
            .poll_timeout()
            .unwrap_or(now + Duration::from_secs(1))
            .min(next_tick);
        if let Some(d) = handshake_deadline.filter(|_| rx.state() == ReceiverState::Handshake) {
            wake = wake.min(d);
        }
        if let Some(d) = done_at {
            wake = wake.min(d + opts.fin_linger);
        }
        let w = link
            .wait(wake, cancel, &mut batch, &mut |d| {
                // The ACK the previous datagram called for, taken now: one ACK per batch
                // would list only the newest SACK runs, and runs that arrived in the
                // middle of a large batch would never reach the sender (which then re-sends
                // what we hold).
                // Only while holes exist: in order, one cumulative ACK per batch says it all.
                if rx.stats().bytes_held > rx.contiguous_bytes() {
                    let t = Instant::now();
                    while let Some(n) = rx.poll_transmit(t, &mut ack_buf) {
                        acks.extend_from_slice(&ack_buf[..n]);
                        ack_lens.push(n);
                    }
                }
                if failure.is_some() {
                    return;
                }
                // Only a FIN is decoded here (the receiver checks every datagram itself).
                fin_seen |= peek_type(d) == Some(PacketType::Fin)
                    && matches!(decode(d), Ok((c, Packet::Fin(_))) if c == conn);
                let Some(w) = rx.handle(d, Instant::now()) else {
                    return;
                };
                if let Err(e) = writer.write(w.offset, w.data) {
                    rx.abort(AbortCode::Io);
                    failure = Some(DriveError::Io(e));
                    return;
                }
                if w.offset == hashed {
                    // The common in-order case: hash straight from the datagram.
                    if let Err(why) = prefix(w.data) {
                        rx.abort(AbortCode::Refused);
                        failure = Some(DriveError::Refused(why));
                        return;
                    }
                    hashed += w.data.len() as u64;
                }
            })
            .await;
        let mut off = 0;
        for n in ack_lens.drain(..) {
            link.send(&acks[off..off + n], n).await;
            off += n;
        }
        acks.clear();
        if let Wake::Cancelled = w {
            if !cancelled {
                cancelled = true;
                rx.abort(AbortCode::Cancelled);
            }
        }
        // A filled hole made more of the prefix contiguous: read it back (page cache).
        let contiguous = rx.contiguous_bytes();
        if failure.is_none() && contiguous > hashed {
            writer.flush().map_err(DriveError::Io)?;
            while hashed < contiguous {
                let n = (contiguous - hashed).min(READ_AHEAD as u64) as usize;
                readback.resize(n, 0);
                file.read_exact_at(&mut readback, hashed)
                    .map_err(DriveError::Io)?;
                if let Err(why) = prefix(&readback) {
                    rx.abort(AbortCode::Refused);
                    failure = Some(DriveError::Refused(why));
                    break;
                }
                hashed += n as u64;
            }
        }
    }
}
