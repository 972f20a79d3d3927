//! Downloads offered to a client and the transfers that carry them, whatever the transport:
//! `grants` (one-time RDT/HTTP/NPLT grants, attempts and metrics) and `offers` (an offer's
//! life: created by a tool, accepted or rejected, its transfer's outcome recorded).

pub mod grants;
pub mod offers;

pub use grants::{Grant, GrantKind, Transfers, UploadGrant};
