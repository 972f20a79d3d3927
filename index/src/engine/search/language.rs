//! The dense side of a question in two languages: its vector mixed with its
//! translation's for chunks in the other language, its own vector for chunks in its
//! language (`Engine::search_per_file` scans with both); and the embedder ordering a
//! translated word's dictionary senses.

use std::sync::Arc;

use super::super::Engine;
use crate::analyzers::translate::SenseScorer;
use crate::embed::Embedder;
use crate::IndexError;

/// Orders a dictionary word's senses by the engine's multilingual embedder: the cosine of
/// each sense's query vector with the word's, plus `RankParams::sense_context` x its cosine
/// with the whole question's (`块` is `chunk` in a question about splitting logs, `lump`
/// alone). All are cached like queries: a word or question seen before costs nothing, and
/// the question's vector is the one its dense scan uses.
pub(super) struct EmbeddedSenses<'a> {
    pub engine: &'a Engine,
    pub embedder: &'a Arc<dyn Embedder>,
    /// The question the word is part of.
    pub context: &'a str,
}

impl SenseScorer for EmbeddedSenses<'_> {
    fn score(&self, word: &str, senses: &[String]) -> Option<Vec<f32>> {
        let texts: Vec<&str> = [word, self.context]
            .into_iter()
            .chain(senses.iter().map(String::as_str))
            .collect();
        let vectors = match self.engine.query_vectors(self.embedder, &texts) {
            Ok(v) => v,
            Err(err) => {
                tracing::warn!("dictionary senses kept in their order: {err}");
                return None;
            }
        };
        let (w, rest) = vectors.split_first()?;
        let (c, rest) = rest.split_first()?;
        let dot = crate::vectors::dot;
        let context_weight = self.engine.cfg.rank.sense_context;
        Some(
            rest.iter()
                .map(|s| dot(w, s) + context_weight * dot(c, s))
                .collect(),
        )
    }
}

impl Engine {
    /// A question's vector summed with its translation's, for the chunks in the other
    /// language (`by_chunk_language`): e5 matches Chinese against English text far worse
    /// than English against English (man pages: recall@3 0.21 for Chinese questions, 0.92
    /// for English ones), and the translation moves the query towards the documents'
    /// language; a Chinese question's (`cjk_query`) translation weighs
    /// `RankParams::translation_mix`. `None` when the translation's vector cannot be had (the
    /// question keeps its own vector).
    pub(super) fn mix_translation(
        &self,
        e: &Arc<dyn Embedder>,
        q: &[f32],
        tr_text: &str,
        cjk_query: bool,
    ) -> Option<Vec<f32>> {
        match self.query_vector(e, tr_text) {
            Ok(t) if t.len() == q.len() => {
                let tw = if cjk_query {
                    self.cfg.rank.translation_mix
                } else {
                    1.0
                };
                Some(crate::embed::normalize(
                    q.iter().zip(&t).map(|(a, b)| a + tw * b).collect(),
                ))
            }
            Ok(_) => None,
            Err(err) => {
                tracing::warn!("translated query vector skipped: {err}");
                None
            }
        }
    }

    /// The dense hits of a question with a translation mixed into its vector: chunks in
    /// the question's language (`cjk_query`: Chinese) from the scan with its own vector
    /// (the translation only blurs a Chinese question about Chinese text), the others from
    /// the scan with the mixed vector; best first, at most `pool`. Without a mixed scan:
    /// `own`.
    pub(super) fn by_chunk_language(
        &self,
        own: Vec<(u64, f32)>,
        mixed: Option<Vec<(u64, f32)>>,
        cjk_query: bool,
        pool: usize,
    ) -> Result<Vec<(u64, f32)>, IndexError> {
        let Some(mixed) = mixed else {
            return Ok(own);
        };
        let ids: Vec<u64> = own.iter().chain(&mixed).map(|h| h.0).collect();
        let cjk = self.lexical.cjk_chunks(&ids)?;
        Ok(merge_by_language(
            own,
            mixed,
            &|id| cjk.contains(&id) == cjk_query,
            pool,
        ))
    }
}

/// `own` hits of the chunks in the question's language (`same(id)`), `mixed` hits of the
/// others; best first, at most `pool`.
fn merge_by_language(
    own: Vec<(u64, f32)>,
    mixed: Vec<(u64, f32)>,
    same: &dyn Fn(u64) -> bool,
    pool: usize,
) -> Vec<(u64, f32)> {
    let mut out: Vec<(u64, f32)> = own
        .into_iter()
        .filter(|h| same(h.0))
        .chain(mixed.into_iter().filter(|h| !same(h.0)))
        .collect();
    out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    out.truncate(pool);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyzers::translate::Translator;
    use crate::vectors::{InProcessStore, VectorStore};
    use crate::{EngineConfig, Mode, Scope};
    use std::collections::HashSet;

    #[test]
    fn index_search_embedder_orders_dictionary_senses() {
        let Some(dir) = crate::embed::e5::tests::e5_dir() else {
            return;
        };
        let e5: Arc<dyn Embedder> = Arc::new(crate::embed::E5::load(&dir).expect("load"));
        // The dictionary lists `arithmetic` before `algorithm` for 算法.
        let senses = crate::analyzers::dict::dict().candidates("算法", 8);
        let pos = |w: &str| senses.iter().position(|s| s.0 == w);
        assert!(pos("arithmetic") < pos("algorithm"), "{senses:?}");
        let files: &[(&str, &str)] = &[
            (
                "scheduler.txt",
                "Notes on the algorithm the scheduler uses to pick the next job.\n",
            ),
            (
                "shell.txt",
                "Notes on the arithmetic the shell evaluates inside $(( )).\n",
            ),
        ];
        let first = |translator: Translator| {
            let d = tempfile::tempdir().expect("tmp");
            let mut cfg = EngineConfig::new(d.path().join("index"));
            cfg.translator = translator;
            let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(e5.dim()));
            let e = Engine::open(cfg, Some((e5.clone(), store)), None).expect("open");
            super::super::super::tests::upload_all(&e, files);
            let hits = e
                .search("s1", "算法", Scope::Uploads, 2, Mode::Lexical)
                .expect("search");
            hits.first().map(|h| h.filename.clone()).unwrap_or_default()
        };
        // In the dictionary's order the shell's arithmetic wins; e5 puts `algorithm` first.
        assert_eq!(first(Translator::Dictionary), "shell.txt");
        assert_eq!(first(Translator::DictionaryScored), "scheduler.txt");
    }

    #[test]
    fn index_search_question_context_picks_the_sense() {
        let Some(dir) = crate::embed::e5::tests::e5_dir() else {
            return;
        };
        let e5: Arc<dyn Embedder> = Arc::new(crate::embed::E5::load(&dir).expect("load"));
        let d = tempfile::tempdir().expect("tmp");
        let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(e5.dim()));
        let e = Engine::open(
            EngineConfig::new(d.path().join("index")),
            Some((e5.clone(), store)),
            None,
        )
        .expect("open");
        // `起` alone reads as `up` or `rise`; in a question about bringing a service up,
        // `start` (its score gains ~0.05 on `up` from the question, far above the kernels'
        // differences; alone the two are within ~0.005, so that is not asserted).
        let q = "把服务起起来";
        let (word, senses) = ("起", ["up".to_string(), "start".to_string()]);
        let scorer = |context: &'static str| EmbeddedSenses {
            engine: &e,
            embedder: &e5,
            context,
        };
        let lead = |context: &'static str| {
            let s = scorer(context).score(word, &senses).expect("scores");
            s[1] - s[0]
        };
        assert!(lead(q) > lead(word) + 0.02, "{} {}", lead(q), lead(word));
        // The translated text holds each word's first sense: `start` in the question.
        let t = crate::analyzers::translate::translate_with(q, Some(&scorer(q)));
        assert!(t.text.split(' ').any(|w| w == "start"), "{t:?}");
        assert!(!t.text.split(' ').any(|w| w == "up"), "{t:?}");
    }

    #[test]
    fn index_search_dense_hits_by_chunk_language() {
        // Chunks 1, 2 are Chinese, 3, 4 English: Chinese chunks keep the question's own
        // cosine, English ones take the translated question's; best first, cut at pool.
        let own = vec![(1, 0.9), (3, 0.8), (2, 0.3)];
        let mixed = vec![(3, 0.6), (4, 0.5), (1, 0.2)];
        let cjk: HashSet<u64> = [1, 2].into_iter().collect();
        let zh_question = |id: u64| cjk.contains(&id);
        assert_eq!(
            merge_by_language(own.clone(), mixed.clone(), &zh_question, 10),
            [(1, 0.9), (3, 0.6), (4, 0.5), (2, 0.3)]
        );
        assert_eq!(
            merge_by_language(own.clone(), mixed.clone(), &zh_question, 2),
            [(1, 0.9), (3, 0.6)]
        );
        // An English question: English chunks keep its own cosine.
        let en_question = |id: u64| !cjk.contains(&id);
        assert_eq!(
            merge_by_language(own, mixed, &en_question, 10),
            [(3, 0.8), (1, 0.2)]
        );
    }
}
