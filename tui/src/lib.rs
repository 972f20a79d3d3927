//! llmops client library: the connection actor and the subcommands, shared with the TUI.
