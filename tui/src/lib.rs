//! llmops client library: the connection actor and the subcommands, shared with the TUI.

pub mod cli;
pub mod client;
pub mod download;
