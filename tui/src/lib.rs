//! llmops client library: the connection actor, the script subcommands and the full-screen
//! UI (state + `update` in `app`, pure drawing in `ui`, the event loop in `run`).

pub mod app;
pub mod browser;
pub mod cli;
pub mod client;
pub mod config;
pub mod download;
pub mod keymap;
pub mod last_session;
pub mod markdown;
pub mod rdt;
pub mod run;
pub mod sanitize;
pub mod text;
pub mod theme;
pub mod ui;
