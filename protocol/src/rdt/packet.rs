//! RDT wire format: packet types, encoding into caller buffers and zero-copy decoding.
//! Pure byte work: no state, no time, and decoding never panics on any input.

mod decode;
mod encode;

use std::fmt;

use thiserror::Error;

pub use decode::{decode, peek_conn_id, peek_type};
pub use encode::{encode_abort, encode_data, seal_data};

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

#[cfg(test)]
mod tests;
