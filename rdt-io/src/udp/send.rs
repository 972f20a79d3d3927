//! The sending driver: [`send_file`] runs a [`Sender`] over a [`Link`], reading the file
//! through a read-ahead window and leaving its data datagrams in GSO batches.

use std::os::unix::fs::FileExt;
use std::time::{Duration, Instant};

use tokio_util::sync::CancellationToken;

use protocol::rdt::{
    seal_data, AbortCode, Sender, SenderEvent, SenderState, SenderStats, Transmit, DATA_HEADER_LEN,
    MAX_DATAGRAM,
};

use super::{aborted, first_cancel, wake_deadline, DriveError, Flow, Link, READ_AHEAD};
use crate::sys::{RecvBatch, MAX_SEGMENTS};

type Progress<'p> = &'p mut (dyn FnMut(&SenderStats) + Send);

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

/// A GSO batch being filled: `count` datagrams of `seg` bytes in `out`, the last of which
/// may be shorter (it then ends the batch).
struct Gso {
    out: Vec<u8>,
    seg: usize,
    count: usize,
}

impl Gso {
    /// Sends the batch and starts an empty one.
    async fn flush(&mut self, link: &Link) {
        link.send(&self.out, self.seg).await;
        self.out.clear();
        (self.seg, self.count) = (0, 0);
    }

    /// Takes in the datagram of `n` bytes just sealed at `off`, sending the batch before it
    /// when it is larger than the batch's segments, and with it when it ends the batch.
    async fn push(&mut self, link: &Link, off: usize, n: usize) {
        if self.count > 0 && n > self.seg {
            link.send(&self.out[..off], self.seg).await;
            self.out.drain(..off);
            self.count = 0;
        }
        if self.count == 0 {
            self.seg = n;
        }
        self.count += 1;
        if n < self.seg || self.count >= MAX_SEGMENTS {
            self.flush(link).await;
        }
    }
}

/// What [`send_file`] carries from one round of its loop to the next.
struct SendLoop<'f> {
    conn: u64,
    window: FileWindow<'f>,
    gso: Gso,
    ctrl: [u8; MAX_DATAGRAM],
    handshake_deadline: Option<Instant>,
    progress_every: Duration,
    next_progress: Instant,
    cancelled: bool,
    /// The read failure that made the sender abort: it, not the abort, ends the drive.
    io_error: Option<std::io::Error>,
}

impl<'f> SendLoop<'f> {
    fn new(
        tx: &Sender,
        conn: u64,
        file: &'f std::fs::File,
        handshake_timeout: Option<Duration>,
        progress_every: Duration,
    ) -> Self {
        let started = Instant::now();
        SendLoop {
            conn,
            window: FileWindow {
                file,
                size: tx.stats().file_size,
                buf: Vec::new(),
                start: 0,
            },
            gso: Gso {
                out: Vec::with_capacity(MAX_SEGMENTS * MAX_DATAGRAM),
                seg: 0,
                count: 0,
            },
            ctrl: [0u8; MAX_DATAGRAM],
            handshake_deadline: handshake_timeout.map(|d| started + d),
            progress_every,
            next_progress: started + progress_every,
            cancelled: false,
            io_error: None,
        }
    }

    /// Sends everything `tx` has to send at `now`: control packets alone, each after the
    /// data batch before it, data datagrams in GSO batches.
    async fn transmit(&mut self, link: &Link, tx: &mut Sender, now: Instant) {
        self.gso.out.clear();
        (self.gso.seg, self.gso.count) = (0, 0);
        loop {
            let off = self.gso.out.len();
            self.gso.out.resize(off + MAX_DATAGRAM, 0);
            let Some(t) = tx.poll_transmit(now, &mut self.gso.out[off..]) else {
                self.gso.out.truncate(off);
                break;
            };
            match t {
                Transmit::Control { len } => {
                    self.ctrl[..len].copy_from_slice(&self.gso.out[off..off + len]);
                    self.gso.out.truncate(off);
                    self.gso.flush(link).await;
                    link.send(&self.ctrl[..len], len).await;
                }
                Transmit::Data { seq, offset, len } => {
                    if let Some(n) = self.seal(tx, off, seq, offset, len) {
                        self.gso.push(link, off, n).await;
                    }
                }
            }
        }
        self.gso.flush(link).await;
    }

    /// Reads the chunk at `offset` into the datagram reserved at `off` and seals it: its
    /// length, or `None` with the datagram dropped (a read failure aborts the sender).
    fn seal(
        &mut self,
        tx: &mut Sender,
        off: usize,
        seq: u32,
        offset: u64,
        len: usize,
    ) -> Option<usize> {
        let out = &mut self.gso.out;
        let body = &mut out[off + DATA_HEADER_LEN..off + DATA_HEADER_LEN + len];
        if let Err(e) = self.window.read(offset, body) {
            out.truncate(off);
            self.io_error.get_or_insert(e);
            tx.abort(AbortCode::Io);
            return None;
        }
        let Ok(n) = seal_data(self.conn, seq, len, &mut out[off..]) else {
            out.truncate(off);
            return None;
        };
        out.truncate(off + n);
        Some(n)
    }

    /// Ends the drive when the sender aborted or every chunk is acknowledged.
    fn settle(&mut self, tx: &mut Sender, progress: Progress<'_>) -> Flow {
        while let Some(ev) = tx.poll_event() {
            if let SenderEvent::Aborted { reason } = ev {
                return Flow::Done(Err(match self.io_error.take() {
                    Some(e) => DriveError::Io(e),
                    None => aborted(self.cancelled, reason),
                }));
            }
        }
        if tx.is_finished() {
            progress(&tx.stats());
            return Flow::Done(Ok(()));
        }
        Flow::Continue
    }

    /// Reports progress when due and picks the deadline of the next wait; a handshake
    /// unanswered past its deadline ends the drive (after telling the peer).
    async fn deadline(
        &mut self,
        link: &Link,
        tx: &mut Sender,
        progress: Progress<'_>,
    ) -> Result<Instant, DriveError> {
        let now = Instant::now();
        if now >= self.next_progress {
            self.next_progress = now + self.progress_every;
            progress(&tx.stats());
        }
        let mut deadline = wake_deadline(tx.poll_timeout(), now, self.next_progress);
        if tx.state() == SenderState::Handshake {
            if let Some(d) = self.handshake_deadline {
                if now >= d {
                    tx.abort(AbortCode::Cancelled);
                    flush_control(link, tx, now).await;
                    return Err(DriveError::NoAnswer);
                }
                deadline = deadline.min(d);
            }
        }
        Ok(deadline)
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
    let mut st = SendLoop::new(tx, conn, file, handshake_timeout, progress_every);
    let mut batch = RecvBatch::default();
    loop {
        let now = Instant::now();
        if tx.poll_timeout().is_some_and(|t| t <= now) {
            tx.handle_timeout(now);
        }
        st.transmit(link, tx, now).await;
        if let Flow::Done(r) = st.settle(tx, progress) {
            return r;
        }
        let deadline = st.deadline(link, tx, progress).await?;
        let wake = link
            .wait(deadline, cancel, &mut batch, &mut |d| {
                tx.handle(d, Instant::now())
            })
            .await;
        if first_cancel(&wake, &mut st.cancelled) {
            tx.abort(AbortCode::Cancelled);
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
