//! RDT: reliable transfer over UDP (packets, sender and receiver state machines). Sans-IO:
//! no sockets, no clock (every call takes `now`), no RNG. Design and wire format: docs/rdt.md.
//! The tokio drivers that run these over real sockets are in the `rdt-io` crate.

pub mod bitmap;
pub mod packet;
pub mod receiver;
mod rtt;
pub mod sender;

use std::time::Duration;

use thiserror::Error;

pub use bitmap::ChunkBitmap;
pub use packet::{
    decode, encode_abort, encode_data, peek_conn_id, peek_type, seal_data, AbortCode, ChunkRange,
    DecodeError, EncodeError, Mode, Packet, PacketType, DATA_HEADER_LEN, DEFAULT_CHUNK_SIZE,
    MAX_CHUNK_SIZE, MAX_DATAGRAM,
};
pub use receiver::{Receiver, ReceiverEvent, ReceiverState, ReceiverStats, Write};
pub use sender::{RetxCauses, Sender, SenderEvent, SenderState, SenderStats, Transmit};

/// Connection id for a transfer, derived from its download/upload token so both ends agree
/// without extra round trips: high half = CRC32C of the token's first half, low half =
/// CRC32C of the whole token (continued from the first half).
pub fn conn_id_from_token(token: &[u8]) -> u64 {
    let (a, b) = token.split_at(token.len() / 2);
    let hi = crc32c::crc32c(a);
    let lo = crc32c::crc32c_append(hi, b);
    (u64::from(hi) << 32) | u64::from(lo)
}

/// Number of chunks of a file, or `None` when it needs more than 2^32 chunks.
pub fn total_chunks(file_size: u64, chunk_size: u16) -> Option<u32> {
    if chunk_size == 0 {
        return None;
    }
    u32::try_from(file_size.div_ceil(u64::from(chunk_size))).ok()
}

/// Length of chunk `seq` (the last chunk may be short).
pub(crate) fn chunk_len(file_size: u64, chunk_size: u16, seq: u32) -> usize {
    let off = u64::from(seq) * u64::from(chunk_size);
    file_size.saturating_sub(off).min(u64::from(chunk_size)) as usize
}

/// Why a transfer ended without completing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AbortReason {
    /// Retransmissions went unanswered too many times in a row (link dead or peer gone).
    RetryLimit,
    /// Nothing valid heard from the peer for `Config::idle_timeout`.
    IdleTimeout,
    /// The two ends disagree on size or chunk size.
    Mismatch,
    /// The peer broke the protocol (for example a REQUEST of the wrong mode).
    Protocol,
    /// The peer sent ABORT with this code.
    Peer(AbortCode),
    /// The local driver called `abort`.
    Local(AbortCode),
}

impl AbortReason {
    /// Code we put in the ABORT packet we send for this reason.
    pub(crate) fn wire_code(self) -> AbortCode {
        match self {
            Self::RetryLimit => AbortCode::RetryLimit,
            Self::IdleTimeout => AbortCode::IdleTimeout,
            Self::Mismatch => AbortCode::Mismatch,
            Self::Protocol => AbortCode::Protocol,
            Self::Peer(c) | Self::Local(c) => c,
        }
    }
}

/// Errors from constructing a state machine with impossible parameters.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RdtError {
    #[error("chunk size must be 1..={MAX_CHUNK_SIZE}, got {0}")]
    BadChunkSize(u16),
    #[error("file needs more than 2^32 chunks at this chunk size")]
    TooManyChunks,
    #[error("resume bitmap has {got} chunks, the transfer has {want}")]
    BitmapMismatch { got: u32, want: u32 },
    #[error("token longer than {} bytes", packet::MAX_TOKEN_LEN)]
    TokenTooLong,
}

pub(crate) fn check_chunk_size(cs: u16) -> Result<(), RdtError> {
    if cs == 0 || cs > MAX_CHUNK_SIZE {
        return Err(RdtError::BadChunkSize(cs));
    }
    Ok(())
}

/// The window cap that holds whatever the path's bandwidth-delay product: 2048 packets
/// (about 3 MB, what the 4 MiB socket buffers take in one burst on loopback). A path whose
/// BDP is larger (the relay: 20 ms at about 100 MB/s) may grow to twice its BDP, up to
/// `Config::max_window`.
pub const BASE_WINDOW_CAP: u32 = 2048;

/// Tunables shared by both ends; each side reads the fields it needs. Defaults suit both
/// loopback and WAN paths.
#[derive(Debug, Clone)]
pub struct Config {
    /// Payload bytes per DATA packet (initiator's choice; the responder adopts it).
    pub chunk_size: u16,
    /// Hard cap on the congestion window, in packets in flight. Below it the window is
    /// held to twice the path's bandwidth-delay product (largest delivery rate of recent
    /// rounds x minimum RTT), but never below [`BASE_WINDOW_CAP`] (or this cap if smaller).
    pub max_window: u32,
    /// Floor of the congestion window: random loss never pushes it lower.
    pub min_window: u32,
    /// Window at start (slow start grows it from here).
    pub initial_window: u32,
    /// Optional send-rate cap in bytes per second (datagram bytes), paced by `now`.
    pub max_rate: Option<u64>,
    /// RTO before the first RTT sample (also the handshake retry interval).
    pub initial_rto: Duration,
    pub min_rto: Duration,
    /// Cap of the exponential backoff.
    pub max_rto: Duration,
    /// Consecutive timeouts without any progress before giving up (`RetryLimit`).
    pub max_timeouts: u32,
    /// Transmissions of one data packet before giving up (`RetryLimit`).
    pub max_packet_transmissions: u32,
    /// Abort when nothing valid arrived from the peer for this long.
    pub idle_timeout: Duration,
    /// Smoothed per-round loss rate above which the sender treats loss as congestion (a
    /// single round above twice this also counts). Below it, loss is assumed random
    /// (wireless, impairment) and the window keeps its size.
    pub loss_threshold: f64,
    /// Multiplicative decrease applied once per congested round.
    pub decrease_factor: f64,
    /// Receiver: chunks at or above the cumulative point it accepts (advertised window).
    pub recv_window: u32,
    /// Receiver: SACK ranges per ACK (clamped to what fits a datagram).
    pub max_sack_ranges: usize,
    /// Receiver: ACK at least every this many in-order packets...
    pub ack_every: u32,
    /// ... or this long after the first unacknowledged one.
    pub ack_delay: Duration,
    /// Receiver: after completion, keep answering (FIN, retransmitted DATA) this long after
    /// the last packet heard.
    pub linger: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            chunk_size: DEFAULT_CHUNK_SIZE,
            max_window: 4096,
            min_window: 16,
            initial_window: 32,
            max_rate: None,
            initial_rto: Duration::from_millis(500),
            min_rto: Duration::from_millis(100),
            max_rto: Duration::from_secs(2),
            max_timeouts: 8,
            max_packet_transmissions: 40,
            idle_timeout: Duration::from_secs(15),
            loss_threshold: 0.25,
            decrease_factor: 0.7,
            recv_window: 4096,
            max_sack_ranges: 32,
            ack_every: 4,
            ack_delay: Duration::from_millis(5),
            linger: Duration::from_secs(10),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rdt_conn_id_and_chunks() {
        assert_eq!(conn_id_from_token(b"abc"), conn_id_from_token(b"abc"));
        assert_ne!(conn_id_from_token(b"abc"), conn_id_from_token(b"abd"));
        assert_ne!(conn_id_from_token(b"ab"), conn_id_from_token(b"ba"));
        assert_eq!(total_chunks(0, 1400), Some(0));
        assert_eq!(total_chunks(1400, 1400), Some(1));
        assert_eq!(total_chunks(1401, 1400), Some(2));
        assert_eq!(total_chunks(u64::MAX, 1400), None);
        // 6 GB works: offsets past 4 GiB are plain u64 arithmetic.
        let six_gb = 6_000_000_000u64;
        let n = total_chunks(six_gb, 1400).expect("fits u32");
        assert_eq!(
            chunk_len(six_gb, 1400, n - 1),
            (six_gb - u64::from(n - 1) * 1400) as usize
        );
        assert_eq!(chunk_len(1401, 1400, 1), 1);
        assert_eq!(chunk_len(1401, 1400, 2), 0);
    }
}
