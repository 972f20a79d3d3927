//! Small helpers shared by every llmops crate, each defined once: human-readable sizes, CJK
//! detection, char-safe truncation, a constant-time byte compare for secrets, the upload
//! record every layer shares, the line a search hit answers with ([`AnswerLine`]), the
//! tools' names ([`ToolName`]) and the transfer modes ([`TransferMode`]).

pub mod bench_doc;
pub mod query;
mod tool_name;
mod transfer_mode;

pub use tool_name::{ToolName, UnknownTool};
pub use transfer_mode::{TransferMode, UnknownMode};

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// One uploaded file of a session, as the store records it and the tools and the planner
/// see it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UploadRef {
    pub file_id: String,
    pub filename: String,
    pub path: PathBuf,
    pub size: u64,
    pub sha256: String,
    /// RFC 3339.
    pub uploaded_at: String,
    pub content_type: String,
    /// A log's own field names as its format is detected (empty for other files, or when
    /// not looked at): what lets a question name a field literally (`request_time`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<query::Column>,
    /// The log format detected from the same sample (`nginx_combined`, `cri`, ...): what
    /// lets a question name a log by its kind ("the nginx log", "数据库慢日志").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

/// The line of a search hit's chunk that answers the question: the index picks it, the
/// search tool returns it, the planner quotes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerLine {
    /// 1-based line number in the file.
    pub line: u32,
    /// The line, trimmed (the index cuts it at 240 characters).
    pub text: String,
    /// The key the line sets with the blocks it sits in
    /// (`spec.containers.resources.limits.memory`), when the file nests keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// The line is a comment (no line that sets a value held the question): context, not
    /// the value asked for.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub comment: bool,
}

/// Human-readable byte size in binary units (`1.5 MiB`), the way `ls -lh` and `df -h` count.
pub fn human_size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    if bytes < 1024 {
        return format!("{bytes} B");
    }
    let mut v = bytes as f64;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// A byte size as `df -h` and `ls -lh` print it (`252G`, `3.1G`, `512K`): powers of 1024,
/// rounded up, one decimal below 10, so a figure can be checked against `df -h` as printed.
pub fn df_size(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["K", "M", "G", "T", "P", "E"];
    if bytes < 1024 {
        return bytes.to_string();
    }
    let mut v = bytes as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit < UNITS.len() - 1 {
        v /= 1024.0;
        unit += 1;
    }
    // Rounding up can reach the next unit (1023.95K -> 1024K prints as 1.0M).
    let tenths = (v * 10.0).ceil() / 10.0;
    if tenths < 10.0 {
        return format!("{tenths:.1}{}", UNITS[unit]);
    }
    let whole = v.ceil();
    if whole >= 1024.0 && unit < UNITS.len() - 1 {
        return format!("1.0{}", UNITS[unit + 1]);
    }
    format!("{whole:.0}{}", UNITS[unit])
}

/// CJK script characters: the unified ideographs (with extension A/B and compatibility
/// ideographs), kana and hangul. Used for language detection and tokenisation alike, so a
/// message the planner calls Chinese is also the text the index splits per character.
pub fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}'
        | '\u{3040}'..='\u{30FF}' | '\u{AC00}'..='\u{D7AF}' | '\u{20000}'..='\u{2A6DF}')
}

/// Characters that take a column pair and a token each: CJK and everything from U+2E80 on
/// (radicals, CJK punctuation, kana, hangul, full-width forms, emoji). Used where text is
/// split or counted per character rather than per word.
pub fn is_wide(c: char) -> bool {
    (c as u32) >= 0x2E80
}

/// At most `max` characters of `s`; a cut string ends with `…` (counted in `max`).
pub fn truncate_chars(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// Compares secrets (tokens, grant keys) without an early exit, so the time taken does not
/// reveal how many leading bytes matched.
pub fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn df_sizes_print_as_df_h_does() {
        assert_eq!(df_size(0), "0");
        assert_eq!(df_size(1024), "1.0K");
        assert_eq!(df_size(1025), "1.1K");
        assert_eq!(df_size(252 * 1024u64.pow(3)), "252G");
        assert_eq!(df_size(252 * 1024u64.pow(3) + 1), "253G");
        assert_eq!(df_size(3_328_599_654), "3.1G");
        assert_eq!(df_size(1024u64.pow(3) - 1), "1.0G");
    }

    #[test]
    fn sizes_match_binary_units() {
        assert_eq!(human_size(0), "0 B");
        assert_eq!(human_size(1023), "1023 B");
        assert_eq!(human_size(1024), "1.0 KiB");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(10 * 1024 * 1024), "10.0 MiB");
        assert_eq!(human_size(3 * 1024u64.pow(4)), "3.0 TiB");
        assert_eq!(human_size(5 * 1024u64.pow(5)), "5120.0 TiB");
    }

    #[test]
    fn cjk_covers_han_kana_hangul_not_ascii() {
        for c in ['中', '㐀', '豈', 'あ', 'カ', '한', '\u{20000}'] {
            assert!(is_cjk(c), "{c}");
        }
        for c in ['a', '1', '，', ' ', 'é'] {
            assert!(!is_cjk(c), "{c}");
        }
    }

    #[test]
    fn wide_covers_every_cjk_char() {
        for c in ['中', 'あ', '한', '，', '😀'] {
            assert!(is_wide(c), "{c}");
        }
        assert!(!is_wide('a') && !is_wide('é'));
        // Every CJK script character is wide.
        assert!(('\u{3040}'..='\u{9FFF}').all(|c| !is_cjk(c) || is_wide(c)));
    }

    #[test]
    fn truncation_counts_chars_not_bytes() {
        assert_eq!(truncate_chars("日志文件", 4), "日志文件");
        assert_eq!(truncate_chars("日志文件很大", 4), "日志文…");
        assert_eq!(truncate_chars("", 0), "");
    }

    #[test]
    fn constant_time_eq_is_equality() {
        assert!(constant_time_eq(b"secret", b"secret"));
        assert!(!constant_time_eq(b"secret", b"secreT"));
        assert!(!constant_time_eq(b"secret", b"secret2"));
        assert!(constant_time_eq(b"", b""));
    }
}
