//! llmops terminal client: the script subcommands and the full-screen UI (state + `update`
//! in `app`, pure drawing in `ui`, the event loop in `run`). The connection, uploads and
//! downloads come from the `llmops-client` crate.

pub mod app;
pub mod browser;
pub mod cli;
pub mod config;
pub mod keymap;
pub mod last_session;
pub mod markdown;
pub mod run;
pub mod sanitize;
pub mod text;
pub mod theme;
pub mod ui;
pub mod upload_names;

// The transport lives in the `llmops-client` crate; these keep the TUI's module paths
// (`crate::client::ClientEvent`, `crate::download::receive`, ...) working unchanged.
pub use llmops_client::connection as client;
pub use llmops_client::{download, rdt};
