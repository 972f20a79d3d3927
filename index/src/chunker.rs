//! Splits text into overlapping chunks sized for the embedder (approximate tokens), cutting
//! at paragraph, line, sentence and word boundaries in that order of preference. Linear in
//! the input and always makes forward progress, whatever the text (one 10 MB line, minified
//! JSON, Chinese without spaces, CRLF, emoji). Never allocates per character.

/// Chunk size limits, in approximate tokens.
#[derive(Debug, Clone, Copy)]
pub struct ChunkerConfig {
    /// Hard limit per chunk. e5 reads 512 tokens a window (longer texts are windowed); the
    /// estimate is kept well below that so the prefix, the special tokens and estimation
    /// error still fit in one window.
    pub max_tokens: f32,
    /// How much of the previous chunk's tail the next chunk repeats.
    pub overlap_tokens: f32,
}

impl Default for ChunkerConfig {
    fn default() -> Self {
        ChunkerConfig {
            max_tokens: 200.0,
            overlap_tokens: 30.0,
        }
    }
}

/// One chunk: a byte range of the input and its 1-based line range.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    pub start: usize,
    pub end: usize,
    pub first_line: usize,
    pub last_line: usize,
    pub text: String,
}

pub use llmops_common::is_cjk;

/// Approximate word-piece cost of one character: ASCII letters/digits come about four to a
/// token, CJK characters and punctuation one each, other non-ASCII (emoji, accents) up to
/// two. An over-estimate on purpose: a chunk never exceeds the model's window.
#[inline]
pub fn char_tokens(c: char) -> f32 {
    if c.is_ascii_alphanumeric() {
        0.3
    } else if c.is_ascii_whitespace() {
        0.0
    } else if c.is_ascii() || is_cjk(c) {
        1.0
    } else if c.is_whitespace() {
        0.0
    } else {
        2.0
    }
}

/// Approximate tokens of a string.
pub fn approx_tokens(s: &str) -> f32 {
    s.chars().map(char_tokens).sum()
}

fn is_sentence_end(c: char) -> bool {
    matches!(c, '。' | '！' | '？' | '；' | '.' | '!' | '?' | ';')
}

/// Splits `text` into chunks. Chunks that are only whitespace are dropped; every other
/// character is inside at least one chunk.
pub fn chunk(text: &str, cfg: &ChunkerConfig) -> Vec<Chunk> {
    let max = cfg.max_tokens.max(2.0);
    let overlap = cfg.overlap_tokens.clamp(0.0, max / 2.0);
    let newlines: Vec<usize> = text
        .bytes()
        .enumerate()
        .filter(|&(_, b)| b == b'\n')
        .map(|(i, _)| i)
        .collect();
    let line_of = |byte: usize| -> usize { newlines.partition_point(|&n| n < byte) + 1 };
    let mut out = Vec::new();
    let mut start = 0usize;
    while start < text.len() {
        let end = find_end(text, start, max);
        debug_assert!(end > start);
        let slice = &text[start..end];
        if !slice.trim().is_empty() {
            let trimmed_end = start + slice.trim_end().len();
            let lead = slice.len() - slice.trim_start().len();
            out.push(Chunk {
                start,
                end,
                first_line: line_of(start + lead),
                last_line: line_of(trimmed_end.saturating_sub(1).max(start + lead)),
                text: slice.to_string(),
            });
        }
        if end >= text.len() {
            break;
        }
        let next = overlap_start(text, start, end, overlap);
        // Progress: the next chunk always starts after this one did.
        start = if next > start { next } else { end };
    }
    out
}

/// The end of the chunk starting at `start`: the best boundary within the token budget.
fn find_end(text: &str, start: usize, max: f32) -> usize {
    let mut tokens = 0.0f32;
    let (mut para, mut line, mut sentence, mut word) = (0usize, 0usize, 0usize, 0usize);
    let mut line_has_content = false;
    let mut prev_sentence_end = false;
    let mut last_ok = start;
    for (off, c) in text[start..].char_indices() {
        let pos = start + off;
        // A boundary *before* `c` (at `pos`).
        if pos > start {
            if prev_sentence_end && (c.is_whitespace() || !c.is_ascii()) {
                sentence = pos;
            }
            if c.is_whitespace() {
                word = pos;
            }
        }
        let t = char_tokens(c);
        if tokens + t > max && pos > start {
            return pick(start, pos, para, line, sentence, word);
        }
        tokens += t;
        last_ok = pos + c.len_utf8();
        prev_sentence_end = is_sentence_end(c) && c.is_ascii();
        if is_sentence_end(c) && !c.is_ascii() {
            // CJK punctuation ends a sentence right here, no space needed.
            sentence = last_ok;
        }
        if c == '\n' {
            if !line_has_content {
                para = last_ok;
            }
            line = last_ok;
            line_has_content = false;
        } else if !c.is_whitespace() {
            line_has_content = true;
            if c == '#' && line == pos {
                // A markdown heading starts a new section.
                para = pos;
            }
        }
    }
    last_ok.max(start + 1).min(text.len())
}

/// Chooses a boundary between `start` and `limit`, preferring coarser ones unless they
/// would make the chunk shorter than half the window.
fn pick(
    start: usize,
    limit: usize,
    para: usize,
    line: usize,
    sentence: usize,
    word: usize,
) -> usize {
    let half = start + (limit - start) / 2;
    for b in [para, line, sentence, word] {
        if b > start && b >= half && b <= limit {
            return b;
        }
    }
    for b in [line, sentence, word] {
        if b > start && b <= limit {
            return b;
        }
    }
    limit
}

/// Where the next chunk starts: about `overlap` tokens before `end`, moved forward to a
/// line, sentence or word start if one is near, never at or before `start`.
fn overlap_start(text: &str, start: usize, end: usize, overlap: f32) -> usize {
    if overlap <= 0.0 {
        return end;
    }
    let mut tokens = 0.0f32;
    let mut pos = end;
    let mut best_boundary = None;
    for (off, c) in text[start..end].char_indices().rev() {
        let p = start + off;
        tokens += char_tokens(c);
        if tokens > overlap {
            break;
        }
        pos = p;
        if c == '\n' || c.is_whitespace() || is_sentence_end(c) {
            // The next chunk starts right after this boundary character.
            best_boundary = Some(p + c.len_utf8());
        }
    }
    let mid = start + (end - start) / 2;
    let cand = best_boundary.unwrap_or(pos);
    if cand > mid && cand < end {
        cand
    } else if pos > mid && pos < end {
        pos
    } else {
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(text: &str, cfg: &ChunkerConfig) {
        let chunks = chunk(text, cfg);
        let mut covered = 0usize;
        let mut prev_start = None;
        for c in &chunks {
            assert!(c.end > c.start);
            assert!(text.is_char_boundary(c.start) && text.is_char_boundary(c.end));
            assert_eq!(&text[c.start..c.end], c.text);
            if let Some(p) = prev_start {
                assert!(c.start > p, "progress");
            }
            prev_start = Some(c.start);
            assert!(
                approx_tokens(&c.text) <= cfg.max_tokens.max(2.0) + 1e-3,
                "chunk over the limit: {}",
                approx_tokens(&c.text)
            );
            // Everything between the covered prefix and this chunk must be whitespace.
            if c.start > covered {
                assert!(text[covered..c.start].trim().is_empty(), "gap with content");
            }
            covered = covered.max(c.end);
            assert!(c.first_line <= c.last_line);
        }
        assert!(
            text[covered.min(text.len())..].trim().is_empty(),
            "tail not covered"
        );
    }

    #[test]
    fn index_chunker_splits_paragraphs_and_lines() {
        let cfg = ChunkerConfig {
            max_tokens: 10.0,
            overlap_tokens: 0.0,
        };
        let text = "alpha beta gamma delta\n\nsecond paragraph here with words\nline two of it\n";
        let chunks = chunk(text, &cfg);
        assert!(chunks.len() >= 2);
        assert_eq!(chunks[0].first_line, 1);
        assert!(chunks[0].text.starts_with("alpha"));
        assert!(chunks
            .iter()
            .any(|c| c.text.starts_with("second") && c.first_line == 3));
        check(text, &cfg);
    }

    #[test]
    fn index_chunker_handles_hostile_inputs() {
        let cfg = ChunkerConfig::default();
        let one_line = "x".repeat(2_000_000);
        let chunks = chunk(&one_line, &cfg);
        assert!(chunks.len() > 1000);
        check(&one_line, &cfg);
        let json = "{\"k\":[1,2,3],\"v\":\"abc\"},".repeat(20_000);
        check(&json, &cfg);
        let zh = "数据库配置文件位于服务器的默认目录中".repeat(2000);
        let chunks = chunk(&zh, &cfg);
        assert!(chunks.iter().all(|c| approx_tokens(&c.text) <= 200.0));
        check(&zh, &cfg);
        let zh_sent = "第一句话。第二句话！第三句？".repeat(500);
        check(&zh_sent, &cfg);
        let crlf = "line one\r\nline two\r\n\r\npara two\r\n".repeat(500);
        check(&crlf, &cfg);
        let emoji = "🚀🔥 ok 👍🏽\n".repeat(3000);
        check(&emoji, &cfg);
        check("", &cfg);
        check("   \n\n  ", &cfg);
        check("a", &cfg);
    }

    #[test]
    fn index_chunker_ten_megabyte_line() {
        // Progress, coverage and the size limit on one 11 MB line without a newline; its
        // speed (linear, tens of ms) is a benchmark matter, not a test assertion.
        let big = "abcdefghij ".repeat(1_000_000);
        check(&big, &ChunkerConfig::default());
    }

    #[test]
    fn index_chunker_line_ranges() {
        let text = (1..=100)
            .map(|i| format!("line number {i} has some words in it"))
            .collect::<Vec<_>>()
            .join("\n");
        let chunks = chunk(&text, &ChunkerConfig::default());
        assert_eq!(chunks[0].first_line, 1);
        assert_eq!(chunks.last().map(|c| c.last_line), Some(100));
        for c in &chunks {
            let first = c.text.trim_start().lines().next().unwrap_or("");
            assert!(
                text.lines()
                    .nth(c.first_line - 1)
                    .unwrap_or("")
                    .contains(first.trim()),
                "{c:?}"
            );
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]
        #[test]
        fn index_chunker_progress_coverage_limit(s in "\\PC{0,3000}", max in 4u32..120, ov in 0u32..40) {
            let cfg = ChunkerConfig { max_tokens: max as f32, overlap_tokens: ov as f32 };
            check(&s, &cfg);
        }

        #[test]
        fn index_chunker_mixed_alphabet(s in "[a-z \\n。，数据库配置\\r.!?🚀]{0,4000}") {
            check(&s, &ChunkerConfig { max_tokens: 30.0, overlap_tokens: 8.0 });
        }
    }
}
