//! Unit tests of the connection helpers.

use super::legacy::legacy_chunk_ok;
use super::*;

#[test]
fn legacy_chunks_are_never_blank_or_heartbeat() {
    assert!(!legacy_chunk_ok(""));
    assert!(!legacy_chunk_ok("  \n"));
    assert!(!legacy_chunk_ok("HEARTBEAT"));
    assert!(legacy_chunk_ok("HEARTBEAT is"));
    assert!(legacy_chunk_ok(" a"));
}

#[test]
fn token_comparison() {
    assert!(constant_time_eq(b"abc", b"abc"));
    assert!(!constant_time_eq(b"abc", b"abd"));
    assert!(!constant_time_eq(b"abc", b"ab"));
}
