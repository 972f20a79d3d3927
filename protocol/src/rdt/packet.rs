//! RDT wire format: packet types, encoding into caller buffers and zero-copy decoding.
//! Pure byte work: no state, no time, and decoding never panics on any input.

use std::fmt;

use thiserror::Error;

/// Wire version carried in every header; bumped on any incompatible layout change.
pub const VERSION: u8 = 1;
/// Common header: type, version, body length, connection id, CRC32C.
pub const HEADER_LEN: usize = 16;
/// Largest datagram we ever build: 1500-byte Ethernet MTU minus IPv4 (20) and UDP (8) headers.
pub const MAX_DATAGRAM: usize = 1472;
/// Header plus the DATA sequence number; the chunk payload starts here.
pub const DATA_HEADER_LEN: usize = HEADER_LEN + 4;
/// Largest chunk that still fits a DATA packet in [`MAX_DATAGRAM`].
pub const MAX_CHUNK_SIZE: u16 = (MAX_DATAGRAM - DATA_HEADER_LEN) as u16;
/// Default chunk size: leaves head room for IPv6 or tunnel overhead below 1472.
pub const DEFAULT_CHUNK_SIZE: u16 = 1400;
/// Longest download token a REQUEST may carry.
pub const MAX_TOKEN_LEN: usize = 512;
/// Size of one encoded chunk range (start u32, end u32).
pub const RANGE_LEN: usize = 8;

const REQUEST_FIXED: usize = 1 + 1 + 2 + 8 + 2 + 4 + 2;
const ACCEPT_FIXED: usize = 8 + 2 + 4 + 4 + 2;
const ACK_FIXED: usize = 4 + 4 + 2;

/// Packet type byte (offset 0 of every datagram).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum PacketType {
    Request = 0x01,
    Accept = 0x02,
    Data = 0x03,
    Ack = 0x04,
    Fin = 0x05,
    FinAck = 0x06,
    Abort = 0x07,
}

impl PacketType {
    fn from_u8(b: u8) -> Option<Self> {
        Some(match b {
            0x01 => Self::Request,
            0x02 => Self::Accept,
            0x03 => Self::Data,
            0x04 => Self::Ack,
            0x05 => Self::Fin,
            0x06 => Self::FinAck,
            0x07 => Self::Abort,
            _ => return None,
        })
    }
}

/// Half-open range of chunk sequence numbers `[start, end)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ChunkRange {
    pub start: u32,
    pub end: u32,
}

impl ChunkRange {
    pub fn new(start: u32, end: u32) -> Self {
        Self { start, end }
    }
}

/// A list of chunk ranges: either borrowed from the caller (encoding) or still on the wire
/// (decoding, so decoding allocates nothing). Compare by content.
#[derive(Clone, Copy)]
pub enum Ranges<'a> {
    List(&'a [ChunkRange]),
    /// Raw wire bytes; length is always a multiple of [`RANGE_LEN`].
    Wire(&'a [u8]),
}

impl<'a> Ranges<'a> {
    pub const EMPTY: Ranges<'static> = Ranges::List(&[]);

    pub fn len(&self) -> usize {
        match self {
            Ranges::List(l) => l.len(),
            Ranges::Wire(w) => w.len() / RANGE_LEN,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn iter(&self) -> RangesIter<'a> {
        RangesIter {
            ranges: *self,
            pos: 0,
        }
    }
}

impl PartialEq for Ranges<'_> {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl Eq for Ranges<'_> {}

impl fmt::Debug for Ranges<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|r| r.start..r.end))
            .finish()
    }
}

/// Iterator over [`Ranges`].
pub struct RangesIter<'a> {
    ranges: Ranges<'a>,
    pos: usize,
}

impl Iterator for RangesIter<'_> {
    type Item = ChunkRange;

    fn next(&mut self) -> Option<ChunkRange> {
        let item = match self.ranges {
            Ranges::List(l) => *l.get(self.pos)?,
            Ranges::Wire(w) => {
                let b = w.get(self.pos * RANGE_LEN..(self.pos + 1) * RANGE_LEN)?;
                ChunkRange {
                    start: u32::from_be_bytes([b[0], b[1], b[2], b[3]]),
                    end: u32::from_be_bytes([b[4], b[5], b[6], b[7]]),
                }
            }
        };
        self.pos += 1;
        Some(item)
    }
}

/// Direction requested by the initiator of a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Mode {
    /// The initiator receives (a download when the client initiates).
    Pull = 0,
    /// The initiator sends (an upload when the client initiates).
    Push = 1,
}

/// What a receiver already holds: every chunk below `prefix`, plus `ranges` above it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Have<'a> {
    pub prefix: u32,
    pub ranges: Ranges<'a>,
}

impl Have<'_> {
    pub const NONE: Have<'static> = Have {
        prefix: 0,
        ranges: Ranges::EMPTY,
    };
}

/// Initiator -> responder: opens a transfer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Request<'a> {
    pub mode: Mode,
    /// Chunk size of the transfer; the initiator decides it, the responder adopts it.
    pub chunk_size: u16,
    /// Push: the exact size being sent. Pull: the size the receiver expects, or
    /// [`UNKNOWN_SIZE`] to accept whatever the sender has.
    pub file_size: u64,
    pub token: &'a [u8],
    /// Pull: what the (initiating) receiver already holds. Push: empty.
    pub have: Have<'a>,
}

/// `file_size` value in a pull REQUEST meaning "no expectation".
pub const UNKNOWN_SIZE: u64 = u64::MAX;

/// Responder -> initiator: the transfer is accepted; echoes the metadata.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Accept<'a> {
    pub file_size: u64,
    pub chunk_size: u16,
    pub total_chunks: u32,
    /// Push (responder is the receiver): what it already holds. Pull: empty.
    pub have: Have<'a>,
}

/// One chunk: payload goes at byte offset `seq * chunk_size`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Data<'a> {
    pub seq: u32,
    pub payload: &'a [u8],
}

/// Receiver -> sender acknowledgement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ack<'a> {
    /// Every chunk below `cum` is held.
    pub cum: u32,
    /// How many chunks at or above `cum` the receiver will accept (flow control).
    pub window: u32,
    /// Held ranges above `cum`; the first one contains the most recent arrival.
    pub sacks: Ranges<'a>,
}

/// Sender -> receiver: everything has been acknowledged; end of file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fin {
    pub total_chunks: u32,
    pub file_size: u64,
}

/// Receiver -> sender: FIN seen, the receiver holds the whole file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FinAck {
    pub total_chunks: u32,
}

/// Why a transfer was aborted, as carried in an ABORT packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AbortCode {
    /// The user or the driver cancelled.
    Cancelled,
    /// Nothing heard from the peer for too long.
    IdleTimeout,
    /// A packet (or the handshake) was retried too often without an answer.
    RetryLimit,
    /// The peer sent something that breaks the protocol.
    Protocol,
    /// Size or chunk size disagree between the two ends.
    Mismatch,
    /// The token is unknown or expired (sent by drivers, not by the state machines).
    NotFound,
    /// Local file I/O failed (sent by drivers).
    Io,
    /// The peer refuses (busy, policy).
    Refused,
    /// A code this version does not know.
    Other(u8),
}

impl AbortCode {
    pub fn to_u8(self) -> u8 {
        match self {
            Self::Cancelled => 1,
            Self::IdleTimeout => 2,
            Self::RetryLimit => 3,
            Self::Protocol => 4,
            Self::Mismatch => 5,
            Self::NotFound => 6,
            Self::Io => 7,
            Self::Refused => 8,
            Self::Other(c) => c,
        }
    }

    pub fn from_u8(c: u8) -> Self {
        match c {
            1 => Self::Cancelled,
            2 => Self::IdleTimeout,
            3 => Self::RetryLimit,
            4 => Self::Protocol,
            5 => Self::Mismatch,
            6 => Self::NotFound,
            7 => Self::Io,
            8 => Self::Refused,
            c => Self::Other(c),
        }
    }
}

/// A decoded (or to-be-encoded) RDT packet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Packet<'a> {
    Request(Request<'a>),
    Accept(Accept<'a>),
    Data(Data<'a>),
    Ack(Ack<'a>),
    Fin(Fin),
    FinAck(FinAck),
    Abort(AbortCode),
}

impl Packet<'_> {
    pub fn packet_type(&self) -> PacketType {
        match self {
            Packet::Request(_) => PacketType::Request,
            Packet::Accept(_) => PacketType::Accept,
            Packet::Data(_) => PacketType::Data,
            Packet::Ack(_) => PacketType::Ack,
            Packet::Fin(_) => PacketType::Fin,
            Packet::FinAck(_) => PacketType::FinAck,
            Packet::Abort(_) => PacketType::Abort,
        }
    }

    /// Encodes into `out` and returns the datagram length. Fails (without panicking) when
    /// the packet would exceed [`MAX_DATAGRAM`] or `out`.
    pub fn encode(&self, conn_id: u64, out: &mut [u8]) -> Result<usize, EncodeError> {
        let cap = out.len().min(MAX_DATAGRAM);
        let out = &mut out[..cap];
        let mut w = Writer {
            buf: out,
            pos: HEADER_LEN,
        };
        match self {
            Packet::Request(r) => {
                if r.token.len() > MAX_TOKEN_LEN {
                    return Err(EncodeError::TokenTooLong);
                }
                w.u8(r.mode as u8)?;
                w.u8(0)?;
                w.u16(r.chunk_size)?;
                w.u64(r.file_size)?;
                w.u16(r.token.len() as u16)?;
                w.bytes(r.token)?;
                w.have(&r.have)?;
            }
            Packet::Accept(a) => {
                w.u64(a.file_size)?;
                w.u16(a.chunk_size)?;
                w.u32(a.total_chunks)?;
                w.have(&a.have)?;
            }
            Packet::Data(d) => {
                w.u32(d.seq)?;
                w.bytes(d.payload)?;
            }
            Packet::Ack(a) => {
                w.u32(a.cum)?;
                w.u32(a.window)?;
                w.ranges(&a.sacks)?;
            }
            Packet::Fin(f) => {
                w.u32(f.total_chunks)?;
                w.u64(f.file_size)?;
            }
            Packet::FinAck(f) => w.u32(f.total_chunks)?,
            Packet::Abort(c) => w.u8(c.to_u8())?,
        }
        let len = w.pos;
        seal(out, self.packet_type(), conn_id, len)
    }
}

/// Encodes a DATA packet by copying `payload` into `out`; returns the datagram length.
pub fn encode_data(
    conn_id: u64,
    seq: u32,
    payload: &[u8],
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    Packet::Data(Data { seq, payload }).encode(conn_id, out)
}

/// Finishes a DATA packet whose `payload_len` bytes the driver already read (for example
/// straight from the file) into `buf[DATA_HEADER_LEN..]`: saves one copy per packet.
pub fn seal_data(
    conn_id: u64,
    seq: u32,
    payload_len: usize,
    buf: &mut [u8],
) -> Result<usize, EncodeError> {
    let len = DATA_HEADER_LEN + payload_len;
    if len > MAX_DATAGRAM || len > buf.len() {
        return Err(EncodeError::TooLarge);
    }
    buf[HEADER_LEN..DATA_HEADER_LEN].copy_from_slice(&seq.to_be_bytes());
    seal(buf, PacketType::Data, conn_id, len)
}

/// Encodes an ABORT; drivers use it to refuse a REQUEST for which no state machine exists.
pub fn encode_abort(conn_id: u64, code: AbortCode, out: &mut [u8]) -> Result<usize, EncodeError> {
    Packet::Abort(code).encode(conn_id, out)
}

/// Writes the common header over `buf[..HEADER_LEN]` for a datagram of `len` bytes.
fn seal(buf: &mut [u8], ty: PacketType, conn_id: u64, len: usize) -> Result<usize, EncodeError> {
    let body = len - HEADER_LEN;
    if len > MAX_DATAGRAM || len > buf.len() || body > usize::from(u16::MAX) {
        return Err(EncodeError::TooLarge);
    }
    buf[0] = ty as u8;
    buf[1] = VERSION;
    buf[2..4].copy_from_slice(&(body as u16).to_be_bytes());
    buf[4..12].copy_from_slice(&conn_id.to_be_bytes());
    let crc = checksum(&buf[..len]);
    buf[12..16].copy_from_slice(&crc.to_be_bytes());
    Ok(len)
}

/// CRC32C over the whole datagram except the checksum field itself (bytes 12..16).
fn checksum(dgram: &[u8]) -> u32 {
    let crc = crc32c::crc32c(&dgram[..12]);
    crc32c::crc32c_append(crc, &dgram[HEADER_LEN..])
}

/// Why encoding failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum EncodeError {
    #[error("packet does not fit the datagram limit or the output buffer")]
    TooLarge,
    #[error("token longer than {MAX_TOKEN_LEN} bytes")]
    TokenTooLong,
}

/// Why a datagram was rejected. Every variant means "drop it silently".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum DecodeError {
    #[error("datagram shorter than the header")]
    TooShort,
    #[error("unsupported version {0}")]
    BadVersion(u8),
    #[error("unknown packet type {0:#04x}")]
    UnknownType(u8),
    #[error("body length field disagrees with the datagram length")]
    BadLength,
    #[error("checksum mismatch")]
    BadChecksum,
    #[error("malformed {0} body")]
    Malformed(&'static str),
}

/// Reads the connection id of a datagram without checking anything else, so one UDP socket
/// can route datagrams to transfers cheaply (the state machine checks the CRC afterwards).
pub fn peek_conn_id(dgram: &[u8]) -> Option<u64> {
    let h = dgram.get(..HEADER_LEN)?;
    if h[1] != VERSION || PacketType::from_u8(h[0]).is_none() {
        return None;
    }
    Some(u64::from_be_bytes([
        h[4], h[5], h[6], h[7], h[8], h[9], h[10], h[11],
    ]))
}

/// Decodes a datagram; returns the connection id and the packet, borrowing from `dgram`.
pub fn decode(dgram: &[u8]) -> Result<(u64, Packet<'_>), DecodeError> {
    if dgram.len() < HEADER_LEN {
        return Err(DecodeError::TooShort);
    }
    if dgram[1] != VERSION {
        return Err(DecodeError::BadVersion(dgram[1]));
    }
    let ty = PacketType::from_u8(dgram[0]).ok_or(DecodeError::UnknownType(dgram[0]))?;
    let body_len = usize::from(u16::from_be_bytes([dgram[2], dgram[3]]));
    if HEADER_LEN + body_len != dgram.len() {
        return Err(DecodeError::BadLength);
    }
    let crc = u32::from_be_bytes([dgram[12], dgram[13], dgram[14], dgram[15]]);
    if checksum(dgram) != crc {
        return Err(DecodeError::BadChecksum);
    }
    let mut id = [0u8; 8];
    id.copy_from_slice(&dgram[4..12]);
    let conn_id = u64::from_be_bytes(id);
    let mut r = Reader {
        buf: &dgram[HEADER_LEN..],
        what: "",
    };
    let pkt = match ty {
        PacketType::Request => {
            r.what = "REQUEST";
            let mode = match r.u8()? {
                0 => Mode::Pull,
                1 => Mode::Push,
                _ => return Err(DecodeError::Malformed("REQUEST")),
            };
            let _reserved = r.u8()?;
            let chunk_size = r.u16()?;
            let file_size = r.u64()?;
            let token_len = usize::from(r.u16()?);
            if token_len > MAX_TOKEN_LEN {
                return Err(DecodeError::Malformed("REQUEST"));
            }
            let token = r.take(token_len)?;
            let have = r.have()?;
            Packet::Request(Request {
                mode,
                chunk_size,
                file_size,
                token,
                have,
            })
        }
        PacketType::Accept => {
            r.what = "ACCEPT";
            let file_size = r.u64()?;
            let chunk_size = r.u16()?;
            let total_chunks = r.u32()?;
            let have = r.have()?;
            Packet::Accept(Accept {
                file_size,
                chunk_size,
                total_chunks,
                have,
            })
        }
        PacketType::Data => {
            r.what = "DATA";
            let seq = r.u32()?;
            let payload = r.take(r.buf.len())?;
            Packet::Data(Data { seq, payload })
        }
        PacketType::Ack => {
            r.what = "ACK";
            let cum = r.u32()?;
            let window = r.u32()?;
            let sacks = r.ranges()?;
            Packet::Ack(Ack { cum, window, sacks })
        }
        PacketType::Fin => {
            r.what = "FIN";
            let total_chunks = r.u32()?;
            let file_size = r.u64()?;
            Packet::Fin(Fin {
                total_chunks,
                file_size,
            })
        }
        PacketType::FinAck => {
            r.what = "FIN-ACK";
            Packet::FinAck(FinAck {
                total_chunks: r.u32()?,
            })
        }
        PacketType::Abort => {
            r.what = "ABORT";
            Packet::Abort(AbortCode::from_u8(r.u8()?))
        }
    };
    if !r.buf.is_empty() {
        return Err(DecodeError::Malformed(r.what));
    }
    Ok((conn_id, pkt))
}

/// How many ranges fit in an ACK.
pub const fn max_ack_ranges() -> usize {
    (MAX_DATAGRAM - HEADER_LEN - ACK_FIXED) / RANGE_LEN
}

/// How many have-ranges fit in a REQUEST carrying a token of `token_len` bytes.
pub const fn max_request_ranges(token_len: usize) -> usize {
    (MAX_DATAGRAM - HEADER_LEN - REQUEST_FIXED).saturating_sub(token_len) / RANGE_LEN
}

/// How many have-ranges fit in an ACCEPT.
pub const fn max_accept_ranges() -> usize {
    (MAX_DATAGRAM - HEADER_LEN - ACCEPT_FIXED) / RANGE_LEN
}

struct Writer<'b> {
    buf: &'b mut [u8],
    pos: usize,
}

impl Writer<'_> {
    fn bytes(&mut self, b: &[u8]) -> Result<(), EncodeError> {
        let dst = self
            .buf
            .get_mut(self.pos..self.pos + b.len())
            .ok_or(EncodeError::TooLarge)?;
        dst.copy_from_slice(b);
        self.pos += b.len();
        Ok(())
    }
    fn u8(&mut self, v: u8) -> Result<(), EncodeError> {
        self.bytes(&[v])
    }
    fn u16(&mut self, v: u16) -> Result<(), EncodeError> {
        self.bytes(&v.to_be_bytes())
    }
    fn u32(&mut self, v: u32) -> Result<(), EncodeError> {
        self.bytes(&v.to_be_bytes())
    }
    fn u64(&mut self, v: u64) -> Result<(), EncodeError> {
        self.bytes(&v.to_be_bytes())
    }
    fn ranges(&mut self, r: &Ranges<'_>) -> Result<(), EncodeError> {
        let n = u16::try_from(r.len()).map_err(|_| EncodeError::TooLarge)?;
        self.u16(n)?;
        for c in r.iter() {
            self.u32(c.start)?;
            self.u32(c.end)?;
        }
        Ok(())
    }
    fn have(&mut self, h: &Have<'_>) -> Result<(), EncodeError> {
        self.u32(h.prefix)?;
        self.ranges(&h.ranges)
    }
}

struct Reader<'a> {
    buf: &'a [u8],
    what: &'static str,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], DecodeError> {
        if self.buf.len() < n {
            return Err(DecodeError::Malformed(self.what));
        }
        let (head, tail) = self.buf.split_at(n);
        self.buf = tail;
        Ok(head)
    }
    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        let mut a = [0u8; N];
        a.copy_from_slice(self.take(N)?);
        Ok(a)
    }
    fn u8(&mut self) -> Result<u8, DecodeError> {
        Ok(self.array::<1>()?[0])
    }
    fn u16(&mut self) -> Result<u16, DecodeError> {
        Ok(u16::from_be_bytes(self.array()?))
    }
    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_be_bytes(self.array()?))
    }
    fn u64(&mut self) -> Result<u64, DecodeError> {
        Ok(u64::from_be_bytes(self.array()?))
    }
    fn ranges(&mut self) -> Result<Ranges<'a>, DecodeError> {
        let n = usize::from(self.u16()?);
        Ok(Ranges::Wire(self.take(n * RANGE_LEN)?))
    }
    fn have(&mut self) -> Result<Have<'a>, DecodeError> {
        let prefix = self.u32()?;
        let ranges = self.ranges()?;
        Ok(Have { prefix, ranges })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn arb_ranges(max: usize) -> impl Strategy<Value = Vec<ChunkRange>> {
        prop::collection::vec(
            (any::<u32>(), any::<u32>()).prop_map(|(s, e)| ChunkRange::new(s, e)),
            0..max,
        )
    }

    fn roundtrip(conn_id: u64, p: Packet<'_>) {
        let mut buf = [0u8; MAX_DATAGRAM];
        let n = p.encode(conn_id, &mut buf).expect("fits");
        assert!(n <= MAX_DATAGRAM);
        assert_eq!(peek_conn_id(&buf[..n]), Some(conn_id));
        let (id, q) = decode(&buf[..n]).expect("decodes");
        assert_eq!(id, conn_id);
        assert_eq!(p, q);
    }

    proptest! {
        #[test]
        fn rdt_decode_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..1600)) {
            let _ = decode(&bytes);
            let _ = peek_conn_id(&bytes);
        }

        #[test]
        fn rdt_decode_never_panics_on_valid_header(
            ty in 0u8..10, body in prop::collection::vec(any::<u8>(), 0..300), id in any::<u64>()
        ) {
            // Random bodies behind a correct header and CRC reach the body parsers.
            let mut d = vec![0u8; HEADER_LEN + body.len()];
            d[HEADER_LEN..].copy_from_slice(&body);
            d[0] = ty;
            d[1] = VERSION;
            d[2..4].copy_from_slice(&(body.len() as u16).to_be_bytes());
            d[4..12].copy_from_slice(&id.to_be_bytes());
            let crc = checksum(&d);
            d[12..16].copy_from_slice(&crc.to_be_bytes());
            let _ = decode(&d);
        }

        #[test]
        fn rdt_request_roundtrip(
            id in any::<u64>(), push in any::<bool>(), cs in any::<u16>(), size in any::<u64>(),
            token in prop::collection::vec(any::<u8>(), 0..64), prefix in any::<u32>(),
            ranges in arb_ranges(40),
        ) {
            let mode = if push { Mode::Push } else { Mode::Pull };
            roundtrip(id, Packet::Request(Request {
                mode, chunk_size: cs, file_size: size, token: &token,
                have: Have { prefix, ranges: Ranges::List(&ranges) },
            }));
        }

        #[test]
        fn rdt_accept_roundtrip(
            id in any::<u64>(), cs in any::<u16>(), size in any::<u64>(), total in any::<u32>(),
            prefix in any::<u32>(), ranges in arb_ranges(100),
        ) {
            roundtrip(id, Packet::Accept(Accept {
                file_size: size, chunk_size: cs, total_chunks: total,
                have: Have { prefix, ranges: Ranges::List(&ranges) },
            }));
        }

        #[test]
        fn rdt_data_roundtrip(
            id in any::<u64>(), seq in any::<u32>(),
            payload in prop::collection::vec(any::<u8>(), 0..=MAX_CHUNK_SIZE as usize),
        ) {
            roundtrip(id, Packet::Data(Data { seq, payload: &payload }));
            // The zero-copy path produces the same bytes.
            let mut a = [0u8; MAX_DATAGRAM];
            let mut b = [0u8; MAX_DATAGRAM];
            let n = encode_data(id, seq, &payload, &mut a).expect("fits");
            b[DATA_HEADER_LEN..DATA_HEADER_LEN + payload.len()].copy_from_slice(&payload);
            let m = seal_data(id, seq, payload.len(), &mut b).expect("fits");
            prop_assert_eq!(&a[..n], &b[..m]);
        }

        #[test]
        fn rdt_ack_roundtrip(
            id in any::<u64>(), cum in any::<u32>(), window in any::<u32>(),
            ranges in arb_ranges(max_ack_ranges()),
        ) {
            roundtrip(id, Packet::Ack(Ack { cum, window, sacks: Ranges::List(&ranges) }));
        }

        #[test]
        fn rdt_small_packets_roundtrip(
            id in any::<u64>(), total in any::<u32>(), size in any::<u64>(), code in any::<u8>(),
        ) {
            roundtrip(id, Packet::Fin(Fin { total_chunks: total, file_size: size }));
            roundtrip(id, Packet::FinAck(FinAck { total_chunks: total }));
            roundtrip(id, Packet::Abort(AbortCode::from_u8(code)));
        }

        #[test]
        fn rdt_any_bit_flip_is_rejected(
            seq in any::<u32>(), payload in prop::collection::vec(any::<u8>(), 1..200),
            bit in any::<prop::sample::Index>(),
        ) {
            let mut buf = [0u8; MAX_DATAGRAM];
            let n = encode_data(7, seq, &payload, &mut buf).expect("fits");
            let i = bit.index(n * 8);
            buf[i / 8] ^= 1 << (i % 8);
            prop_assert!(decode(&buf[..n]).is_err());
        }
    }

    #[test]
    fn rdt_limits_fit_datagram() {
        let ranges = vec![ChunkRange::new(1, 2); max_ack_ranges()];
        let mut buf = [0u8; 2048];
        let ack = Packet::Ack(Ack {
            cum: 0,
            window: 0,
            sacks: Ranges::List(&ranges),
        });
        assert_eq!(
            ack.encode(1, &mut buf).ok().map(|n| n <= MAX_DATAGRAM),
            Some(true)
        );
        let more = vec![ChunkRange::new(1, 2); max_ack_ranges() + 1];
        let ack = Packet::Ack(Ack {
            cum: 0,
            window: 0,
            sacks: Ranges::List(&more),
        });
        assert_eq!(ack.encode(1, &mut buf), Err(EncodeError::TooLarge));
        let token = [9u8; 100];
        let req_ranges = vec![ChunkRange::new(1, 2); max_request_ranges(token.len())];
        let req = Packet::Request(Request {
            mode: Mode::Pull,
            chunk_size: 1400,
            file_size: 5,
            token: &token,
            have: Have {
                prefix: 0,
                ranges: Ranges::List(&req_ranges),
            },
        });
        assert!(req.encode(1, &mut buf).is_ok());
        let acc_ranges = vec![ChunkRange::new(1, 2); max_accept_ranges()];
        let acc = Packet::Accept(Accept {
            file_size: 1,
            chunk_size: 1,
            total_chunks: 1,
            have: Have {
                prefix: 0,
                ranges: Ranges::List(&acc_ranges),
            },
        });
        assert!(acc.encode(1, &mut buf).is_ok());
        let payload = [0u8; MAX_CHUNK_SIZE as usize + 1];
        assert_eq!(
            encode_data(1, 0, &payload, &mut buf),
            Err(EncodeError::TooLarge)
        );
        assert!(encode_data(1, 0, &payload[1..], &mut buf).is_ok());
    }

    fn hex(p: Packet<'_>) -> String {
        let id = crate::rdt::conn_id_from_token(b"tok");
        let mut buf = [0u8; MAX_DATAGRAM];
        let n = p.encode(id, &mut buf).expect("fits");
        buf[..n].iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn rdt_worked_example_hex() {
        // The worked example of docs/rdt.md: token "tok", file "hello", chunk size 4.
        let none = Have::NONE;
        let got = [
            hex(Packet::Request(Request {
                mode: Mode::Pull,
                chunk_size: 4,
                file_size: 5,
                token: b"tok",
                have: none,
            })),
            hex(Packet::Accept(Accept {
                file_size: 5,
                chunk_size: 4,
                total_chunks: 2,
                have: none,
            })),
            hex(Packet::Data(Data {
                seq: 0,
                payload: b"hell",
            })),
            hex(Packet::Data(Data {
                seq: 1,
                payload: b"o",
            })),
            hex(Packet::Ack(Ack {
                cum: 0,
                window: 4096,
                sacks: Ranges::List(&[ChunkRange::new(1, 2)]),
            })),
            hex(Packet::Ack(Ack {
                cum: 2,
                window: 4096,
                sacks: Ranges::EMPTY,
            })),
            hex(Packet::Fin(Fin {
                total_chunks: 2,
                file_size: 5,
            })),
            hex(Packet::FinAck(FinAck { total_chunks: 2 })),
            hex(Packet::Abort(AbortCode::NotFound)),
        ];
        let want = [
            "01010017e47f904337931685988bb1210000000400000000000000050003746f6b000000000000",
            "02010014e47f9043379316851e83b3a10000000000000005000400000002000000000000",
            "03010008e47f904337931685e7a0da200000000068656c6c",
            "03010005e47f90433793168527ce2724000000016f",
            "04010012e47f904337931685436c21d2000000000000100000010000000100000002",
            "0401000ae47f90433793168587b6e17b00000002000010000000",
            "0501000ce47f904337931685971f8e19000000020000000000000005",
            "06010004e47f9043379316852b1bc95f00000002",
            "07010001e47f9043379316852beafcdf06",
        ];
        assert_eq!(got, want.map(String::from));
    }
}
