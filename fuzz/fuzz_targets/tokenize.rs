//! Fuzz target: the chunker and e5's tokenizer on any bytes (read as UTF-8, invalid
//! sequences replaced, as an upload's text is): the chunker covers the text with chunks
//! inside it that always make progress, and the tokenizer gives ids inside the vocabulary
//! for every chunk and for the whole text, never panicking. The tokenizer is read from the
//! model file `make setup` installs (`LLMOPS_E5_DIR` overrides the directory).
#![no_main]

use std::path::PathBuf;
use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::embed::e5::{Tokenizer, E5_DIR, E5_FILE};

fn tokenizer() -> &'static Tokenizer {
    static TOK: OnceLock<Tokenizer> = OnceLock::new();
    TOK.get_or_init(|| {
        let dir = std::env::var("LLMOPS_E5_DIR").map(PathBuf::from).unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../storage/models").join(E5_DIR)
        });
        Tokenizer::open(&dir.join(E5_FILE)).expect("the e5 model (run `make setup`)")
    })
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let small = ChunkerConfig {
        max_tokens: 24.0,
        overlap_tokens: 4.0,
    };
    let tok = tokenizer();
    for cfg in [ChunkerConfig::default(), small] {
        let chunks = chunk(&text, &cfg);
        let mut last_start = None;
        let mut covered = 0usize;
        for c in &chunks {
            assert!(c.start < c.end && c.end <= text.len(), "{c:?}");
            assert!(text.is_char_boundary(c.start) && text.is_char_boundary(c.end));
            assert!(last_start.map_or(true, |s| c.start > s), "no progress: {c:?}");
            last_start = Some(c.start);
            assert!(text[covered.min(c.start)..c.start].trim().is_empty(), "a gap with text");
            covered = covered.max(c.end);
            for id in tok.encode(&c.text) {
                assert!((id as usize) < tok.vocab_size());
            }
        }
        assert!(text[covered.min(text.len())..].trim().is_empty(), "the tail not covered");
    }
    for id in tok.encode(&text) {
        assert!((id as usize) < tok.vocab_size());
    }
});
