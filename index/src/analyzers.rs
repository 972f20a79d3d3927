//! Text analyzers shared by indexing and querying: jieba words (Chinese-aware, with ASCII
//! words kept), CJK character bigrams, and English words (lower-cased, stemmed, stop words
//! removed). Queries are built from these same token streams, never from a query parser.

use tantivy::tokenizer::{
    LowerCaser, RemoveLongFilter, TextAnalyzer, Token, TokenStream, Tokenizer,
};

use crate::chunker::is_cjk;

pub mod context;
pub mod dict;
mod en;
pub mod glossary;
pub mod ident;
pub mod keypath;
pub mod syntax;
pub mod title;
pub mod translate;
pub use ident::{ident_analyzer, join_analyzer};

pub const ZH: &str = "llmops_zh";
pub const BIGRAM: &str = "llmops_bigram";
pub const EN: &str = "llmops_en";
pub const IDENT: &str = "llmops_ident";
pub const IDENT_JOIN: &str = "llmops_ident_join";

pub const STOPWORDS: &[&str] = &[
    "a", "an", "the", "of", "to", "in", "on", "for", "and", "or", "is", "are", "be", "by", "it",
    "as", "at", "this", "that", "with", "from", "how", "what", "where", "which", "me", "my",
    "find", "show", "do", "does", "can", "i", "you", "if", "not", "no", "its", "into",
];

/// A token stream over precomputed tokens (our tokenizers are cheap to precompute and this
/// keeps them free of lifetimes).
pub struct VecStream {
    tokens: Vec<Token>,
    idx: usize,
}

impl VecStream {
    fn new(tokens: Vec<Token>) -> Self {
        VecStream { tokens, idx: 0 }
    }
}

impl TokenStream for VecStream {
    fn advance(&mut self) -> bool {
        if self.idx < self.tokens.len() {
            self.idx += 1;
            true
        } else {
            false
        }
    }
    fn token(&self) -> &Token {
        &self.tokens[self
            .idx
            .saturating_sub(1)
            .min(self.tokens.len().saturating_sub(1))]
    }
    fn token_mut(&mut self) -> &mut Token {
        let i = self
            .idx
            .saturating_sub(1)
            .min(self.tokens.len().saturating_sub(1));
        &mut self.tokens[i]
    }
}

pub(crate) fn token(text: String, from: usize, to: usize, position: usize) -> Token {
    Token {
        offset_from: from,
        offset_to: to,
        position,
        text,
        position_length: 1,
    }
}

/// Bigrams of consecutive CJK characters; a lone CJK character is a unigram.
#[derive(Clone, Default)]
pub struct BigramTokenizer;

impl Tokenizer for BigramTokenizer {
    type TokenStream<'a> = VecStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecStream {
        let mut out = Vec::new();
        let mut run: Vec<(usize, char)> = Vec::new();
        let flush = |run: &mut Vec<(usize, char)>, out: &mut Vec<Token>| {
            if run.len() == 1 {
                let (o, c) = run[0];
                let p = out.len();
                out.push(token(c.to_string(), o, o + c.len_utf8(), p));
            } else {
                for w in run.windows(2) {
                    let (o, a) = w[0];
                    let (o2, b) = w[1];
                    let p = out.len();
                    out.push(token(format!("{a}{b}"), o, o2 + b.len_utf8(), p));
                }
            }
            run.clear();
        };
        for (o, c) in text.char_indices() {
            if is_cjk(c) {
                run.push((o, c));
            } else if !run.is_empty() {
                flush(&mut run, &mut out);
            }
        }
        if !run.is_empty() {
            flush(&mut run, &mut out);
        }
        VecStream::new(out)
    }
}

/// jieba words, without the whitespace and punctuation tokens jieba also emits.
#[derive(Clone)]
pub struct ZhTokenizer(tantivy_jieba::JiebaTokenizer);

impl Default for ZhTokenizer {
    fn default() -> Self {
        ZhTokenizer(tantivy_jieba::JiebaTokenizer::new())
    }
}

impl Tokenizer for ZhTokenizer {
    type TokenStream<'a> = VecStream;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> VecStream {
        let mut out = Vec::new();
        // jieba is only worth its cost on text with CJK; elsewhere the English field has it.
        if text.chars().any(is_cjk) {
            let mut s = self.0.token_stream(text);
            while s.advance() {
                let t = s.token();
                if t.text.chars().any(|c| c.is_alphanumeric()) {
                    let p = out.len();
                    out.push(token(t.text.clone(), t.offset_from, t.offset_to, p));
                }
            }
        }
        VecStream::new(out)
    }
}

pub fn zh_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(ZhTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .build()
}

pub fn bigram_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(BigramTokenizer).build()
}

/// English words, lower-cased, stop words dropped, stemmed (`en::EnTokenizer`).
pub fn en_analyzer() -> TextAnalyzer {
    TextAnalyzer::builder(en::EnTokenizer::default()).build()
}

/// An English word's Porter stem, as the lexical index stems it (one stemmer for the
/// glossary's keys and for coverage).
pub fn english_stem(word: &str) -> String {
    static STEMMER: std::sync::OnceLock<rust_stemmers::Stemmer> = std::sync::OnceLock::new();
    STEMMER
        .get_or_init(|| rust_stemmers::Stemmer::create(rust_stemmers::Algorithm::English))
        .stem(word)
        .into_owned()
}

/// Distinct tokens of `text` under `analyzer`, in order, at most `limit`.
/// How many tokens `analyzer` makes of `text` (the index bench times each analyzer so).
pub fn count_tokens(analyzer: &mut TextAnalyzer, text: &str) -> usize {
    let mut s = analyzer.token_stream(text);
    let mut n = 0;
    while s.advance() {
        n += 1;
    }
    n
}

pub fn tokens(analyzer: &mut TextAnalyzer, text: &str, limit: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut s = analyzer.token_stream(text);
    while s.advance() {
        let t = &s.token().text;
        if !out.iter().any(|x| x == t) {
            out.push(t.clone());
            if out.len() >= limit {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_analyzers_tokens() {
        assert_eq!(
            tokens(&mut bigram_analyzer(), "数据库配置 x 库", 10),
            ["数据", "据库", "库配", "配置", "库"]
        );
        assert_eq!(
            tokens(
                &mut en_analyzer(),
                "How to configure the Databases, port_80",
                10
            ),
            ["configur", "databas", "port_80"]
        );
        let zh = tokens(&mut zh_analyzer(), "数据库配置文件 nginx！", 10);
        assert!(zh.contains(&"数据库".to_string()), "{zh:?}");
        assert!(zh.contains(&"nginx".to_string()), "{zh:?}");
        assert!(!zh.iter().any(|t| t.contains('！') || t.trim().is_empty()));
        assert!(tokens(&mut zh_analyzer(), "pure ascii", 10).is_empty());
    }
}
