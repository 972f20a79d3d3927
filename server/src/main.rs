//! `llmops-server` binary entry point.
fn main() {}
