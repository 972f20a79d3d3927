//! Unit tests of the connection helpers.

use super::legacy::legacy_chunk_ok;

#[test]
fn legacy_chunks_are_never_blank_or_heartbeat() {
    assert!(!legacy_chunk_ok(""));
    assert!(!legacy_chunk_ok("  \n"));
    assert!(!legacy_chunk_ok("HEARTBEAT"));
    assert!(legacy_chunk_ok("HEARTBEAT is"));
    assert!(legacy_chunk_ok(" a"));
}
