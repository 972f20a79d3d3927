//! llmops client library, shared by the TUI, its script subcommands and the end-to-end
//! tests: the connection actor ([`Client`]: HELLO/WELCOME, heartbeats, reconnect that resumes
//! the session, request/reply by id) over TCP or the server's Unix socket (`endpoint`),
//! uploads (RDT or NPLT frames), downloads (RDT, NPLT or a
//! one-time HTTP URL; verified, then renamed into place), and the sans-IO pieces of the
//! handshake and of a chat turn. No terminal code here: the TUI draws, this crate talks.

pub mod connection;
pub mod download;
pub mod endpoint;
pub mod handshake;
pub mod rdt;
pub mod turn;
pub mod upload;

pub use connection::{
    sha256_file, Client, ClientError, ClientEvent, ClientOptions, PendingReply, UploadMode,
    RDT_UPLOAD_THRESHOLD, UPLOAD_CHUNK,
};
pub use handshake::{hello, HandshakeReply, MAX_FRAMES_BEFORE_WELCOME};
pub use turn::{fold_approval, Approval, Turn};
pub use upload::{
    upload_retrying, wait_indexed_retrying, IndexWait, RetryPolicy, Unconfirmed, Uploaded,
    LOOKUP_FEATURE,
};
