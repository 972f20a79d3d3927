//! End-to-end harness: starts the real binaries on ephemeral ports with temp data dirs.
