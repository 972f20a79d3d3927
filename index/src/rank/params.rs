//! Every weight of the ranking in one place. A search runs in stages (docs/index.md,
//! "Ranking"): gather each retriever's chunks, fuse them per file, choose the chunk that
//! stands for each file, drop what falls under the threshold, order the head, build the
//! hits. Each field says which stage reads it and what it trades; the golden-ranking test
//! (`engine/search/golden.rs`) fails when a change here moves a result.

/// The ranking's weights (`EngineConfig::rank`; `RankParams::default()` is the product's).
#[derive(Debug, Clone, PartialEq)]
pub struct RankParams {
    // --- gather: the lexical query (BM25 clause boosts; a typed word counts 1) ---
    /// A CJK character bigram of the question: bigrams find Chinese text jieba cut
    /// differently, but two characters are weaker evidence than a whole word.
    pub bigram: f32,
    /// The question's whole identifier (`proxy_read_timeout`) against indexed
    /// identifiers: the exact name outranks prose that has its words.
    pub ident_whole: f32,
    /// A question word against the words inside indexed identifiers (scored by presence,
    /// IDF x this): found, but below the same word written as prose.
    pub ident_word: f32,
    /// The question's adjacent words joined (`read timeout` -> `readtimeout`) against an
    /// identifier's joined words, by presence: the words side by side in a name stand for
    /// both words, which prose matches apart at full weight.
    pub ident_join: f32,
    /// A translated term (glossary or dictionary sense), times its own weight: it finds
    /// the other language's text, but the words typed weigh more.
    pub translated: f32,
    /// Share of a translated word's other matching senses added to its best one: a word
    /// with many senses counts once, by its best match.
    pub translated_tie: f32,
    /// Chunks each retriever returns at least: a file's best chunk is often outside the
    /// top 50 of the retriever that ranks it lower, and a file only one retriever found
    /// loses the agreement term. Larger costs reading more ids per search.
    pub min_pool: usize,

    // --- gather: the dense side ---
    /// A Chinese question's translation in the vector that scans English chunks (its own
    /// vector weighs 1): e5 reads Chinese against English text poorly; too high and the
    /// question's own meaning is lost to the word-by-word translation.
    pub translation_mix: f32,
    /// Dense votes for English chunks on a Chinese question that BM25 did not find too,
    /// relative to other dense votes: across languages BM25 over the translation is the
    /// better retriever. 1 trusts e5 across languages as within one.
    pub cross_dense: f32,
    /// How much the whole question counts, next to the word alone, when the embedder
    /// orders a dictionary word's senses (`起` is `start` in "把服务起起来", `up` alone).
    pub sense_context: f32,

    // --- fuse: per file, the retrievers' placed scores summed ---
    /// The reciprocal-rank constant of the agreement term added to each placed score
    /// (1 / (k + rank + 1), at most 1/21): small next to the scores, it breaks their ties
    /// in favour of a file both retrievers found.
    pub rrf_k: f32,
    /// A file-name match's weight (times its squared score): an exact name counts as much
    /// as being both retrievers' best, a name sharing one word (0.3) about a fifth of one.
    pub name_weight: f32,
    /// File-name scores below this are no match (a short word inside a name is chance).
    pub name_floor: f32,
    /// At most this many files by name.
    pub names_max: usize,

    // --- choose the chunk ---
    /// A file's pooled chunks read to choose the one that shows it (the one holding most
    /// of the question): more finds the answer further down the file, at a read each.
    pub choices: usize,
    /// Each further chunk of a file ranks at this fraction of the one before it: a file
    /// with many matching chunks does not push the other files out of the list.
    pub extra_decay: f32,

    // --- threshold: the similarity shown and compared with `EngineConfig::threshold` ---
    /// A lexical hit's similarity: `lex_scale x coverage x (lex_floor + (1 - lex_floor) x
    /// bm25 / best bm25)`: coverage says how much of the question the chunk holds, BM25
    /// how strongly.
    pub lex_scale: f32,
    pub lex_floor: f32,
    /// The weaker retriever's similarity added (times this) to the stronger's: agreement
    /// lifts a hit both found, without letting two weak votes pass a strong one.
    pub agreement: f32,
    /// Question words a relevant chunk is expected to cover a share of: a longer
    /// question's content counts up to 1.5x against the threshold (ranking unchanged).
    pub full_question_words: f32,

    // --- order: the head's final order, fused score plus these ---
    /// The share of the question's words (or its translation's) in the chunk: BM25 has no
    /// coordination factor, so one rare word could outscore all the common ones.
    pub coverage: f32,
    /// The best share of an English question's words within `proximity_lines` adjacent
    /// lines: a config answers in a line or two where a runbook spreads the words. Off for
    /// Chinese questions (a translation's senses are alternatives, not words written
    /// together).
    pub proximity: f32,
    pub proximity_lines: usize,
}

impl Default for RankParams {
    fn default() -> Self {
        RankParams {
            bigram: 0.6,
            ident_whole: 1.0,
            ident_word: 0.5,
            ident_join: 2.0,
            translated: 0.7,
            translated_tie: 0.1,
            min_pool: 200,
            translation_mix: 3.0,
            cross_dense: 0.7,
            sense_context: 1.0,
            rrf_k: 20.0,
            name_weight: 2.0,
            name_floor: 0.3,
            names_max: 50,
            choices: 6,
            extra_decay: 0.9,
            lex_scale: 0.9,
            lex_floor: 0.7,
            agreement: 0.15,
            full_question_words: 6.0,
            coverage: 0.5,
            proximity: 0.5,
            proximity_lines: 3,
        }
    }
}

impl RankParams {
    /// Reciprocal-rank term for a 0-based rank.
    pub fn rrf(&self, rank: usize) -> f32 {
        1.0 / (self.rrf_k + rank as f32 + 1.0)
    }

    /// A file-name match's part of a file's fused score: squared because a name holding
    /// one of a question's words is weak evidence, an exact or stem match strong.
    pub fn name_part(&self, score: f32) -> f32 {
        self.name_weight * score * score
    }

    /// A lexical hit's similarity from its coverage and its BM25 score relative to the
    /// best (`lex_scale`, `lex_floor`).
    pub fn lexical_similarity(&self, coverage: f32, bm25_share: f32) -> f32 {
        self.lex_scale * coverage * (self.lex_floor + (1.0 - self.lex_floor) * bm25_share.min(1.0))
    }

    /// The similarity of content found by both retrievers: the stronger one's plus
    /// `agreement` times the weaker one's.
    pub fn content_similarity(&self, lexical: f32, dense: f32) -> f32 {
        lexical.max(dense) + self.agreement * lexical.min(dense)
    }

    /// How much more a long question's content counts against the threshold.
    pub fn long_question(&self, words: usize) -> f32 {
        (words as f32 / self.full_question_words).clamp(1.0, 1.5)
    }
}
