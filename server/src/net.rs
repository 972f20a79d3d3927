//! Network I/O, one room per listener: `accept` (the NPLT listener and its connection
//! limits), `nplt` (one task per NPLT connection: legacy and extension clients), `http`
//! (health and one-time download URLs) and `rdt` (the UDP demux and its transfers).

pub mod accept;
mod activity;
pub mod http;
pub mod limits;
pub mod nplt;
pub mod rdt;

pub use accept::{accept_loop, accept_next};
