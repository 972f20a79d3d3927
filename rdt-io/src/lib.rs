//! The I/O half of the sans-IO `protocol` crate, as quinn-udp is to quinn-proto: the tokio
//! drivers that run the RDT state machines over UDP sockets, the Linux batch syscalls they
//! use (GSO, `sendmmsg`, `recvmmsg`: all of the networking `unsafe` lives in `sys`), and the
//! tokio-util adapter that lets `Framed` speak NPLT through `protocol`'s codec. No protocol
//! logic here: packets, timers and windows belong to `protocol::rdt`.

pub mod nplt;
#[cfg(target_os = "linux")]
mod sys;
#[cfg(target_os = "linux")]
mod udp;

pub use nplt::MessageCodec;
#[cfg(target_os = "linux")]
pub use sys::{RecvBatch, MAX_SEGMENTS, RECV_BATCH};
#[cfg(target_os = "linux")]
pub use udp::{grow_buffers, receive_file, send_file, DriveError, Inbox, Link, RecvOptions};

/// Socket buffers RDT sockets ask for (both directions): a full window of 1420-byte
/// datagrams at the base cap (`protocol::rdt::BASE_WINDOW_CAP`, 2048 packets, about 3 MB;
/// only paths with a larger BDP go beyond it) must fit, or loopback bursts overflow the
/// default 208 KB and look like loss. The kernel caps it at net.core.[rw]mem_max.
pub const SOCKET_BUFFER: usize = 4 * 1024 * 1024;
