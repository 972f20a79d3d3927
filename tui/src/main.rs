//! `llmops-tui` binary entry point.
fn main() {}
