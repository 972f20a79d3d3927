//! Network I/O, one room per listener: `accept` (the NPLT listeners, TCP and the Unix
//! socket), `admission` (connection limits and who is evicted to make room), `unix` (the
//! socket file), `nplt` (one task per NPLT connection: legacy and extension clients), `http`
//! (health and one-time download URLs) and `rdt` (the UDP demux and its transfers).

pub mod accept;
mod activity;
pub mod admission;
pub mod http;
pub mod nplt;
pub mod rdt;
pub mod unix;

pub use accept::{accept_loop, accept_next};
