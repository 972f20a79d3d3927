//! llmops server library: everything the `llmops-server` binary runs, exposed for tests.

pub mod agent;
pub mod policy;
pub mod tools;
