//! The English field's analyzer in one pass: words of letters, digits and `_` outside CJK
//! runs, shorter than 40 bytes, lower-cased, stop words dropped, Porter-stemmed. It yields
//! exactly the tokens of the tantivy chain `WordTokenizer → RemoveLongFilter(40) →
//! LowerCaser → StopWordFilter → Stemmer` (a test compares them), without that chain's
//! `String` per word (a 5 MB log is 1.2 million words) and with a memo of stems, because
//! a log repeats its few hundred words.

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;
use tantivy::tokenizer::{Token, TokenStream, Tokenizer};

use super::STOPWORDS;
use crate::chunker::is_cjk;

/// Words this long (bytes, as written) are dropped: hashes and base64, not words.
const MAX_WORD: usize = 40;
/// Stems remembered per analyzer; words past this are stemmed each time.
const MEMO_CAP: usize = 20_000;

/// One-pass English words (see the module doc).
pub struct EnTokenizer {
    stemmer: Stemmer,
    /// Lower-cased word → its stem, until it holds `MEMO_CAP` words (ids seen once each
    /// fill it; the words a log repeats come first).
    memo: FxHashMap<String, String>,
    token: Token,
}

impl Default for EnTokenizer {
    fn default() -> Self {
        EnTokenizer {
            stemmer: Stemmer::create(Algorithm::English),
            memo: FxHashMap::default(),
            token: Token::default(),
        }
    }
}

/// A clone starts with an empty memo: tantivy clones the analyzer per indexing thread,
/// and copying a full memo would cost more than refilling it.
impl Clone for EnTokenizer {
    fn clone(&self) -> Self {
        EnTokenizer::default()
    }
}

impl Tokenizer for EnTokenizer {
    type TokenStream<'a> = EnStream<'a>;
    fn token_stream<'a>(&'a mut self, text: &'a str) -> EnStream<'a> {
        self.token.reset();
        EnStream {
            text,
            at: 0,
            words: 0,
            t: self,
        }
    }
}

pub struct EnStream<'a> {
    text: &'a str,
    /// Byte offset where the next word is looked for.
    at: usize,
    /// Words seen so far, dropped ones included (a token's position counts them all).
    words: usize,
    t: &'a mut EnTokenizer,
}

fn is_word_char(c: char) -> bool {
    (c.is_alphanumeric() || c == '_') && !is_cjk(c)
}

/// The next word of `text` at or after `from`: its byte range.
fn next_word(text: &str, from: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut i = from;
    let mut start = None;
    while i < bytes.len() {
        let b = bytes[i];
        let (word, len) = if b.is_ascii() {
            (b.is_ascii_alphanumeric() || b == b'_', 1)
        } else {
            let c = text[i..].chars().next().expect("i is a char boundary");
            (is_word_char(c), c.len_utf8())
        };
        match (word, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => return Some((s, i)),
            _ => {}
        }
        i += len;
    }
    start.map(|s| (s, bytes.len()))
}

impl EnStream<'_> {
    /// Lower-cases `word` into the token's text, as tantivy's `LowerCaser` does.
    fn lower_into_token(&mut self, word: &str) {
        let out = &mut self.t.token.text;
        out.clear();
        if word.is_ascii() {
            out.push_str(word);
            out.make_ascii_lowercase();
        } else {
            for c in word.chars() {
                out.extend(c.to_lowercase());
            }
        }
    }

    /// Replaces the token's text by its stem.
    fn stem_token(&mut self) {
        let t = &mut *self.t;
        let word = &t.token.text;
        // Snowball's English stemmer leaves a word of digits alone.
        if word.bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        if let Some(stem) = t.memo.get(word.as_str()) {
            t.token.text.clear();
            t.token.text.push_str(stem);
            return;
        }
        let stem = t.stemmer.stem(word).into_owned();
        if t.memo.len() < MEMO_CAP {
            t.memo.insert(word.clone(), stem.clone());
        }
        t.token.text = stem;
    }
}

impl TokenStream for EnStream<'_> {
    fn advance(&mut self) -> bool {
        while let Some((s, e)) = next_word(self.text, self.at) {
            self.at = e;
            let position = self.words;
            self.words += 1;
            if e - s >= MAX_WORD {
                continue;
            }
            let text = self.text;
            self.lower_into_token(&text[s..e]);
            if STOPWORDS.contains(&self.t.token.text.as_str()) {
                continue;
            }
            self.stem_token();
            let token = &mut self.t.token;
            token.offset_from = s;
            token.offset_to = e;
            token.position = position;
            token.position_length = 1;
            return true;
        }
        false
    }

    fn token(&self) -> &Token {
        &self.t.token
    }

    fn token_mut(&mut self) -> &mut Token {
        &mut self.t.token
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tantivy::tokenizer::{
        Language, LowerCaser, RemoveLongFilter, StopWordFilter, TextAnalyzer, Token, Tokenizer,
    };

    /// Words of letters/digits/underscore outside CJK runs (ASCII and other alphabets).
    #[derive(Clone, Default)]
    struct WordTokenizer;

    impl Tokenizer for WordTokenizer {
        type TokenStream<'a> = crate::analyzers::VecStream;
        fn token_stream<'a>(&'a mut self, text: &'a str) -> crate::analyzers::VecStream {
            let mut out = Vec::new();
            let mut start: Option<usize> = None;
            for (o, c) in text.char_indices() {
                let word = (c.is_alphanumeric() || c == '_') && !is_cjk(c);
                match (word, start) {
                    (true, None) => start = Some(o),
                    (false, Some(s)) => {
                        let p = out.len();
                        out.push(crate::analyzers::token(text[s..o].to_string(), s, o, p));
                        start = None;
                    }
                    _ => {}
                }
            }
            if let Some(s) = start {
                let p = out.len();
                out.push(crate::analyzers::token(
                    text[s..].to_string(),
                    s,
                    text.len(),
                    p,
                ));
            }
            crate::analyzers::VecStream::new(out)
        }
    }

    /// The chain this analyzer replaces.
    fn reference() -> TextAnalyzer {
        TextAnalyzer::builder(WordTokenizer)
            .filter(RemoveLongFilter::limit(40))
            .filter(LowerCaser)
            .filter(StopWordFilter::remove(
                STOPWORDS.iter().map(|s| s.to_string()),
            ))
            .filter(tantivy::tokenizer::Stemmer::new(Language::English))
            .build()
    }

    fn all(a: &mut TextAnalyzer, text: &str) -> Vec<Token> {
        let mut s = a.token_stream(text);
        let mut out = vec![];
        while s.advance() {
            out.push(s.token().clone());
        }
        out
    }

    #[test]
    fn index_en_matches_the_filter_chain_token_for_token() {
        let mut ours = TextAnalyzer::builder(EnTokenizer::default()).build();
        let mut chain = reference();
        let texts = [
            "2025-01-01T00:00:12 host3 service[12]: request 42 took 17 ms status 200",
            "The Connections were REFUSED by upstream_servers; retrying connections...",
            "Größe ÜBER 9000 — İstanbul ΣΊΣΥΦΟΣ naïve café résumés",
            "数据库连接超时 timeout after 30s, 重试 connection pool exhausted",
            "a the of is running runs ran runner flies happily relational conditional",
            "x_yz_ABC __init__ user_id=42 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "",
            "   ,,, ;;; ",
            "caresses ponies ties cats feed agreed plastered motoring sing conflated troubled",
        ];
        for t in texts {
            let (a, b) = (all(&mut ours, t), all(&mut chain, t));
            assert_eq!(a.len(), b.len(), "{t}: {a:?} vs {b:?}");
            for (x, y) in a.iter().zip(&b) {
                assert_eq!(
                    (&x.text, x.offset_from, x.offset_to, x.position),
                    (&y.text, y.offset_from, y.offset_to, y.position),
                    "{t}"
                );
            }
        }
        // Seeded random texts over letters in three scripts, digits, joiners and spaces.
        let alphabet: Vec<char> = "aAeEiIsSyYzZ09_-. :/éÉßİΣς数据库連接 \n".chars().collect();
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for _ in 0..2000 {
            let mut t = String::new();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            for _ in 0..(seed >> 58) as usize + 1 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let c = alphabet[(seed >> 33) as usize % alphabet.len()];
                let n = if seed >> 62 == 0 {
                    1 + (seed >> 40) as usize % 45
                } else {
                    1
                };
                t.extend(std::iter::repeat_n(c, n));
            }
            let texts = |a: &mut TextAnalyzer| {
                all(a, &t)
                    .into_iter()
                    .map(|x| (x.text, x.offset_from, x.offset_to, x.position))
                    .collect::<Vec<_>>()
            };
            assert_eq!(texts(&mut ours), texts(&mut chain), "{t:?}");
        }
        // The memo answers the second time a word is seen: same tokens again.
        let t = "Caching cached caches CACHING";
        assert_eq!(
            all(&mut ours, t)
                .iter()
                .map(|x| x.text.clone())
                .collect::<Vec<_>>(),
            all(&mut chain, t)
                .iter()
                .map(|x| x.text.clone())
                .collect::<Vec<_>>()
        );
    }
}
