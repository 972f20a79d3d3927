//! llmops wire protocols, sans-IO: NPLT framing and typed messages over TCP, and the RDT
//! reliable-transfer state machines over UDP. No sockets, no clock, no global RNG, no tokio
//! and no `unsafe` here: the drivers and syscalls live in the `rdt-io` crate.

#![forbid(unsafe_code)]

#[cfg(test)]
mod big_stack;
pub mod budget;
pub mod codec;
pub mod frame;
pub mod msg;
pub mod rdt;

pub use budget::{BudgetScope, ByteBudget};
pub use codec::{Inbound, MessageCodec, NpltCodec};
pub use frame::{Frame, FrameError, HEADER_LEN, MAX_PAYLOAD};
pub use msg::*;
