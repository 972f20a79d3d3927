//! The receiving driver: [`receive_file`] runs a [`Receiver`] over a [`Link`], coalescing
//! its chunk writes, handing the file's contiguous prefix to a hook as it grows, and
//! lingering for the FIN exchange once every chunk is held.

use std::os::fd::AsRawFd;
use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use protocol::rdt::{
    decode, peek_type, AbortCode, Packet, PacketType, Receiver, ReceiverEvent, ReceiverState,
    MAX_DATAGRAM,
};

use super::{aborted, first_cancel, wake_deadline, DriveError, Flow, Link, READ_AHEAD};
use crate::sys::{self, RecvBatch};

/// Extra copies of the FIN-ACK sent when the receiving loop ends.
const FIN_ACK_REPEATS: usize = 2;
/// Largest coalesced write.
const WRITE_COALESCE: usize = 512 * 1024;
/// Written bytes after which their writeback to disk is started (see
/// [`sys::start_writeback`]): the fsync that ends a download then finds most of the file
/// already on its way to disk instead of all of it (about 5 ms per 10 MiB here). The rest
/// is started as soon as the last chunk is held, while the FIN exchange runs.
const WRITEBACK_EVERY: u64 = 1024 * 1024;

type Prefix<'p> = &'p mut (dyn FnMut(&[u8]) -> Result<(), String> + Send);

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

/// What [`receive_file`] carries from one round of its loop to the next.
struct RecvLoop<'f> {
    conn: u64,
    file: &'f std::fs::File,
    writer: Coalesce<'f>,
    ctrl: [u8; MAX_DATAGRAM],
    ack_buf: [u8; MAX_DATAGRAM],
    /// ACKs taken while a batch of datagrams is fed (sent back to back after it).
    acks: Vec<u8>,
    ack_lens: Vec<usize>,
    handshake_deadline: Option<Instant>,
    next_tick: Instant,
    /// Length of the prefix handed to the hook.
    hashed: u64,
    readback: Vec<u8>,
    done_at: Option<Instant>,
    fin_seen: bool,
    cancelled: bool,
    /// A failure met while feeding datagrams: it ends the drive once the abort is sent.
    failure: Option<DriveError>,
    /// The FIN-ACK, kept to be repeated on the way out (see [`RecvLoop::leave`]).
    fin_ack: Option<Vec<u8>>,
}

impl<'f> RecvLoop<'f> {
    fn new(conn: u64, file: &'f std::fs::File, opts: &RecvOptions) -> Self {
        let started = Instant::now();
        RecvLoop {
            conn,
            file,
            writer: Coalesce::new(file),
            ctrl: [0u8; MAX_DATAGRAM],
            ack_buf: [0u8; MAX_DATAGRAM],
            acks: Vec::new(),
            ack_lens: Vec::new(),
            handshake_deadline: opts.handshake_timeout.map(|d| started + d),
            next_tick: started,
            hashed: 0,
            readback: Vec::new(),
            done_at: None,
            fin_seen: false,
            cancelled: false,
            failure: None,
            fin_ack: None,
        }
    }

    /// Sends the control packets `rx` has for `now`, keeping the FIN-ACK.
    async fn send_control(&mut self, link: &Link, rx: &mut Receiver, now: Instant) {
        while let Some(n) = rx.poll_transmit(now, &mut self.ctrl) {
            link.send(&self.ctrl[..n], n).await;
            if peek_type(&self.ctrl[..n]) == Some(PacketType::FinAck) {
                self.fin_ack = Some(self.ctrl[..n].to_vec());
            }
        }
    }

    /// Ends the drive on a failure, an abort, a completed FIN exchange (or its linger
    /// running out) or a handshake unanswered past its deadline.
    async fn settle(
        &mut self,
        link: &Link,
        rx: &mut Receiver,
        now: Instant,
        opts: &RecvOptions,
    ) -> Flow {
        if let Some(e) = self.failure.take() {
            return Flow::Done(Err(e));
        }
        while let Some(ev) = rx.poll_event() {
            match ev {
                ReceiverEvent::Done => {
                    self.done_at.get_or_insert(now);
                    // Every chunk is held: the disk can start on the tail while the FIN
                    // exchange runs (a round trip) before the caller's fsync.
                    if let Err(e) = self.writer.finish() {
                        return Flow::Done(Err(DriveError::Io(e)));
                    }
                }
                ReceiverEvent::Aborted { reason } => {
                    return Flow::Done(Err(aborted(self.cancelled, reason)));
                }
            }
        }
        if let Some(d) = self.done_at {
            if self.fin_seen || now >= d + opts.fin_linger || rx.is_finished() {
                return Flow::Done(self.leave(link).await);
            }
        }
        if rx.state() == ReceiverState::Handshake
            && self.handshake_deadline.is_some_and(|d| now >= d)
        {
            return Flow::Done(Err(DriveError::NoAnswer));
        }
        Flow::Continue
    }

    /// The way out of a completed transfer: the FIN-ACK repeated, the last writes made.
    async fn leave(&mut self, link: &Link) -> Result<(), DriveError> {
        // Nobody answers the sender's FIN once we are gone: a lost FIN-ACK kept the peer's
        // transfer open through all its FIN retries (10-16 s at 5-20% loss). Two more
        // copies make that a 1-in-125 event at 20% loss.
        if let Some(f) = &self.fin_ack {
            for _ in 0..FIN_ACK_REPEATS {
                link.send(f, f.len()).await;
            }
        }
        self.writer.flush().map_err(DriveError::Io)
    }

    /// The deadline of the next wait: the receiver's timer, the next tick, the handshake's
    /// deadline and the end of the FIN linger, whichever comes first.
    fn deadline(&self, rx: &Receiver, now: Instant, opts: &RecvOptions) -> Instant {
        let mut wake = wake_deadline(rx.poll_timeout(), now, self.next_tick);
        if let Some(d) = self
            .handshake_deadline
            .filter(|_| rx.state() == ReceiverState::Handshake)
        {
            wake = wake.min(d);
        }
        if let Some(d) = self.done_at {
            wake = wake.min(d + opts.fin_linger);
        }
        wake
    }

    /// Takes one datagram: queues the ACK the previous one called for, notes a FIN, writes
    /// the chunk it carries and hands it to the hook when it extends the prefix.
    fn feed(&mut self, rx: &mut Receiver, prefix: Prefix<'_>, d: &[u8]) {
        // The ACK the previous datagram called for, taken now: one ACK per batch would list
        // only the newest SACK runs, and runs that arrived in the middle of a large batch
        // would never reach the sender (which then re-sends what we hold).
        // Only while holes exist: in order, one cumulative ACK per batch says it all.
        if rx.stats().bytes_held > rx.contiguous_bytes() {
            let t = Instant::now();
            while let Some(n) = rx.poll_transmit(t, &mut self.ack_buf) {
                self.acks.extend_from_slice(&self.ack_buf[..n]);
                self.ack_lens.push(n);
            }
        }
        if self.failure.is_some() {
            return;
        }
        // Only a FIN is decoded here (the receiver checks every datagram itself).
        self.fin_seen |= peek_type(d) == Some(PacketType::Fin)
            && matches!(decode(d), Ok((c, Packet::Fin(_))) if c == self.conn);
        let Some(w) = rx.handle(d, Instant::now()) else {
            return;
        };
        if let Err(e) = self.writer.write(w.offset, w.data) {
            rx.abort(AbortCode::Io);
            self.failure = Some(DriveError::Io(e));
            return;
        }
        if w.offset == self.hashed {
            // The common in-order case: hash straight from the datagram.
            if let Err(why) = prefix(w.data) {
                self.refuse(rx, why);
                return;
            }
            self.hashed += w.data.len() as u64;
        }
    }

    /// The hook refused the data: the transfer is aborted and ends with its reason.
    fn refuse(&mut self, rx: &mut Receiver, why: String) {
        rx.abort(AbortCode::Refused);
        self.failure = Some(DriveError::Refused(why));
    }

    /// Sends the ACKs queued while a batch was fed.
    async fn send_acks(&mut self, link: &Link) {
        let mut off = 0;
        for n in self.ack_lens.drain(..) {
            link.send(&self.acks[off..off + n], n).await;
            off += n;
        }
        self.acks.clear();
    }

    /// A filled hole made more of the prefix contiguous: hands it to the hook, read back
    /// from the file (page cache).
    fn catch_up(&mut self, rx: &mut Receiver, prefix: Prefix<'_>) -> Result<(), DriveError> {
        let contiguous = rx.contiguous_bytes();
        if self.failure.is_some() || contiguous <= self.hashed {
            return Ok(());
        }
        self.writer.flush().map_err(DriveError::Io)?;
        while self.hashed < contiguous {
            let n = (contiguous - self.hashed).min(READ_AHEAD as u64) as usize;
            self.readback.resize(n, 0);
            self.file
                .read_exact_at(&mut self.readback, self.hashed)
                .map_err(DriveError::Io)?;
            if let Err(why) = prefix(&self.readback) {
                self.refuse(rx, why);
                break;
            }
            self.hashed += n as u64;
        }
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
    let mut st = RecvLoop::new(conn, file, opts);
    let mut batch = RecvBatch::default();
    loop {
        let now = Instant::now();
        if rx.poll_timeout().is_some_and(|d| d <= now) {
            rx.handle_timeout(now);
        }
        st.send_control(link, rx, now).await;
        if let Flow::Done(r) = st.settle(link, rx, now, opts).await {
            return r;
        }
        if now >= st.next_tick {
            st.next_tick = now + opts.tick;
            st.writer.flush().map_err(DriveError::Io)?;
            tick(rx);
        }
        let deadline = st.deadline(rx, now, opts);
        let wake = link
            .wait(deadline, cancel, &mut batch, &mut |d| {
                st.feed(rx, prefix, d)
            })
            .await;
        st.send_acks(link).await;
        if first_cancel(&wake, &mut st.cancelled) {
            rx.abort(AbortCode::Cancelled);
        }
        st.catch_up(rx, prefix)?;
    }
}
