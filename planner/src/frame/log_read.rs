//! A log's text read for the words a question names: its first 64 MiB, a block at a time,
//! each block carrying the last (partial) line of the one before, so a match across a
//! block's end is found.

use std::io::Read;

/// How much of a log is read to tell whether its events say a word.
const WORDS_READ: u64 = 64 << 20;
/// How much is read at a time.
const BLOCK: usize = 1 << 20;

/// Hands `each` the log's text a block at a time (whole lines, bar the last block's
/// tail) until it returns false or the first 64 MiB are read; `None` when the file cannot
/// be read.
pub(super) fn blocks(path: &std::path::Path, mut each: impl FnMut(&[u8]) -> bool) -> Option<()> {
    let mut file = std::fs::File::open(path).ok()?.take(WORDS_READ);
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK * 2);
    let mut block = vec![0u8; BLOCK];
    loop {
        let n = file.read(&mut block).ok()?;
        if n == 0 {
            return Some(());
        }
        buf.extend_from_slice(&block[..n]);
        if !each(&buf) {
            return Some(());
        }
        // Keep the last (partial) line for the next block.
        let keep = buf.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        buf.drain(..keep);
    }
}

#[cfg(test)]
mod tests {
    use super::blocks;

    /// A line across two blocks' boundary is seen whole; `each` stops the reading.
    #[test]
    fn a_line_across_a_blocks_end_is_seen_whole_and_reading_stops_when_asked() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("big.log");
        let line = "x".repeat(99);
        let mut text = String::new();
        while text.len() < super::BLOCK - 10 {
            text.push_str(&line);
            text.push('\n');
        }
        text.push_str("the needle spans the boundary\n");
        text.push_str(&format!("{line}\n").repeat(20_000));
        std::fs::write(&path, &text).expect("write");
        let (mut seen, mut calls) = (false, 0);
        blocks(&path, |b| {
            calls += 1;
            seen |= b.windows(6).any(|w| w == b"needle")
                && String::from_utf8_lossy(b).contains("the needle spans the boundary");
            !seen
        })
        .expect("reads");
        assert!(seen);
        assert_eq!(calls, 2, "stops once found");
        assert_eq!(blocks(&dir.path().join("none.log"), |_| true), None);
    }
}
