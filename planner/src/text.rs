//! Text helpers for the planner: language detection, normalisation and tokenisation.
//! Pure string functions; no knowledge of tools or intents.

/// Reply language, picked from the user's message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

impl Lang {
    /// Chinese if the text has any CJK character, else English.
    pub fn detect(text: &str) -> Lang {
        if text.chars().any(is_cjk) {
            Lang::Zh
        } else {
            Lang::En
        }
    }

    /// Picks the string for this language.
    pub fn pick<'a>(self, zh: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Zh => zh,
            Lang::En => en,
        }
    }
}

pub use llmops_common::is_cjk;

/// Maps full-width ASCII and common CJK punctuation to ASCII so rules see one alphabet.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let mapped = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' => ' ',
            // Full-width `，；：？！（）` are covered by the range above.
            '、' => ',',
            '。' => '.',
            '“' | '”' | '「' | '」' => '"',
            '‘' | '’' => '\'',
            _ => c,
        };
        out.push(mapped);
    }
    out.trim().to_string()
}

/// Lower-cased ASCII words (letters, digits, `_`, `-`, `.`) of a text.
pub fn ascii_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            cur.push(c.to_ascii_lowercase());
        } else if !cur.is_empty() {
            words.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    words
}

/// True if `hay` contains any of `needles` (case-insensitive for ASCII).
pub fn contains_any(hay: &str, needles: &[&str]) -> bool {
    let lower = hay.to_lowercase();
    needles.iter().any(|n| lower.contains(&n.to_lowercase()))
}

/// Whether `text` ends with the word `w`: a Chinese word anywhere, an English one not the
/// tail of a longer word ("每" in "按每", "by" but not the end of "nearby").
pub fn ends_with_word(text: &str, w: &str) -> bool {
    text.ends_with(w)
        && (w.chars().any(is_cjk)
            || !text[..text.len() - w.len()].ends_with(|c: char| c.is_ascii_alphanumeric()))
}

/// Whether `text` starts with the word `w` (an English one not the head of a longer word).
pub fn starts_with_word(text: &str, w: &str) -> bool {
    text.starts_with(w)
        && (w.chars().any(is_cjk)
            || !text[w.len()..].starts_with(|c: char| c.is_ascii_alphanumeric()))
}

/// True if the ASCII word list contains `w` as a whole word.
pub fn has_word(words: &[String], w: &str) -> bool {
    words.iter().any(|x| x == w)
}

/// Character n-gram features used by the intent classifier: CJK unigrams and bigrams,
/// English words and `#word#` character trigrams.
pub fn features(text: &str) -> Vec<String> {
    let lower = normalize(text).to_lowercase();
    let mut feats = Vec::new();
    let chars: Vec<char> = lower.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_cjk(c) {
            feats.push(format!("u:{c}"));
            if let Some(&n) = chars.get(i + 1) {
                if is_cjk(n) {
                    feats.push(format!("b:{c}{n}"));
                }
            }
            i += 1;
        } else if c.is_ascii_alphanumeric() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let padded: Vec<char> = format!("#{word}#").chars().collect();
            for w in padded.windows(3) {
                feats.push(format!("t:{}", w.iter().collect::<String>()));
            }
            feats.push(format!("w:{word}"));
        } else {
            i += 1;
        }
    }
    feats
}

pub use llmops_common::human_size;

/// Keeps at most `max_lines` lines and `max_chars` characters, saying how much was cut.
pub fn trim_block(text: &str, max_lines: usize, max_chars: usize, lang: Lang) -> String {
    let lines: Vec<&str> = text.trim_end().lines().collect();
    let mut out = String::new();
    let mut shown = 0;
    for line in &lines {
        if shown >= max_lines || out.chars().count() + line.chars().count() > max_chars {
            break;
        }
        out.push_str(line);
        out.push('\n');
        shown += 1;
    }
    if shown < lines.len() {
        let rest = lines.len() - shown;
        out.push_str(&match lang {
            Lang::Zh => format!("…（另有 {rest} 行未显示）\n"),
            Lang::En => format!("… ({rest} more lines)\n"),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_language() {
        assert_eq!(Lang::detect("CPU使用率"), Lang::Zh);
        assert_eq!(Lang::detect("disk usage"), Lang::En);
    }

    #[test]
    fn normalizes_fullwidth() {
        assert_eq!(normalize("诊断：CPU、磁盘？"), "诊断:CPU,磁盘?");
        assert_eq!(normalize("ｌｓ －ｌａ"), "ls -la");
    }

    #[test]
    fn features_mix_cjk_and_english() {
        let f = features("查看 CPU");
        assert!(f.contains(&"u:查".to_string()));
        assert!(f.contains(&"b:查看".to_string()));
        assert!(f.contains(&"w:cpu".to_string()));
        assert!(f.contains(&"t:#cp".to_string()));
    }

    #[test]
    fn formats_bytes() {
        assert_eq!(human_size(155), "155 B");
        assert_eq!(human_size(2048), "2.0 KiB");
        assert_eq!(human_size(3 * 1024 * 1024 * 1024), "3.0 GiB");
    }

    #[test]
    fn trims_long_output() {
        let text = (0..10)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join("\n");
        let t = trim_block(&text, 3, 1000, Lang::En);
        assert!(t.starts_with("0\n1\n2\n"));
        assert!(t.contains("7 more lines"));
    }
}
