//! The retrievers' evidence for a question, before fusion: its translation, the query
//! vectors (cached or micro-batched), the dense scans for each language's chunks, the BM25
//! candidates, and the weights of the dense votes.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use super::super::{Dense, Engine, Mode};
use super::{language, Ranked};
use crate::analyzers::glossary::Translation;
use crate::analyzers::translate::SenseScorer;
use crate::embed::Embedder;
use crate::rank;
use crate::vectors::VectorStore;
use crate::IndexError;

/// A query's own vector and the one mixed with its translation (each when some chunk would
/// take its hits), and the store they scan.
type QDense = (Option<Vec<f32>>, Option<Vec<f32>>, Arc<dyn VectorStore>);

/// Each retriever's ranked chunks.
pub(super) struct Evidence {
    pub(super) lex: Ranked,
    pub(super) bm25_max: f32,
    pub(super) dense: Ranked,
    /// English dense hits on a Chinese question that BM25 did not find: their votes weigh
    /// `RankParams::cross_dense`, other dense votes 1.
    pub(super) cross: HashSet<u64>,
    pub(super) cross_dense: f32,
    /// The translated question's words for coverage (each word by any of its senses).
    pub(super) senses: rank::SenseUnits,
    /// The question's words a file name can share: a question with Chinese in it by its
    /// translation (`senses`, which keeps the English words it had), else each word.
    pub(super) name_words: rank::SenseUnits,
    /// The question has Chinese in it (translated by the dictionary into English).
    pub(super) cjk_query: bool,
}

impl Evidence {
    /// The weight of a dense vote for chunk `id`.
    pub(super) fn dense_weight(&self, id: u64) -> f32 {
        if self.cross.contains(&id) {
            self.cross_dense
        } else {
            1.0
        }
    }
}

impl Engine {
    /// The query's vector: from the LRU cache, or embedded together with whatever other
    /// queries arrive meanwhile (one forward pass for a burst of concurrent searches).
    pub(super) fn query_vector(
        &self,
        embedder: &Arc<dyn Embedder>,
        query: &str,
    ) -> Result<Vec<f32>, IndexError> {
        if let Some(v) = self.qcache.get(query) {
            return Ok(v);
        }
        let v = self.qbatch.embed(embedder, query)?;
        self.qcache.put(query, &v);
        Ok(v)
    }

    /// Query vectors of several short texts: cached ones from the cache, the others in one
    /// call to the embedder (a translated word and its senses).
    pub(super) fn query_vectors(
        &self,
        embedder: &Arc<dyn Embedder>,
        texts: &[&str],
    ) -> Result<Vec<Vec<f32>>, IndexError> {
        let mut out: Vec<Option<Vec<f32>>> = texts.iter().map(|t| self.qcache.get(t)).collect();
        let missing: Vec<&str> = texts
            .iter()
            .zip(&out)
            .filter(|(_, v)| v.is_none())
            .map(|(t, _)| *t)
            .collect();
        if !missing.is_empty() {
            let got = embedder.embed(&missing, crate::embed::InputKind::Query)?;
            if got.len() != missing.len() {
                return Err(IndexError::Embed(format!(
                    "{} vectors for {} texts",
                    got.len(),
                    missing.len()
                )));
            }
            let mut got = got.into_iter();
            for (t, slot) in texts.iter().zip(out.iter_mut()) {
                if slot.is_none() {
                    let v = got.next().unwrap_or_default();
                    self.qcache.put(t, &v);
                    *slot = Some(v);
                }
            }
        }
        Ok(out.into_iter().map(Option::unwrap_or_default).collect())
    }

    /// The retrievers' evidence for a query (and its simple tokens, and its translation's).
    pub(super) fn evidence(
        &self,
        query: &str,
        tags: &[String],
        pool: usize,
        mode: Mode,
    ) -> Result<(Evidence, Vec<String>, Vec<String>), IndexError> {
        let ticket = self.gate.ticket();
        let tags = tags.to_vec();
        let simple = rank::simple_tokens(query);
        let tr = self.translation(query);
        let tr_simple = rank::simple_tokens(&tr.text);
        // A question with Chinese in it (translated by the dictionary into English): which
        // chunks take its own vector and how much its translation weighs.
        let cjk_query = query.chars().any(llmops_common::is_cjk);

        // The query embedding first, outside the gate below, so concurrent searches batch.
        let qdense = self.query_dense(query, &tr.text, cjk_query, mode)?;
        // The vector scan too (batched with concurrent searches: one pass over the rows);
        // a second one with the translation mixed in, for the chunks in the other language.
        let found = qdense.map(|(own, mixed, v)| {
            let own = own.map_or(Ok(Vec::new()), |q| {
                self.scans.search(&v, q, &tags, pool, &self.gate, ticket)
            });
            let mixed = mixed.map(|m| self.scans.search(&v, m, &tags, pool, &self.gate, ticket));
            (own, mixed)
        });
        // At most one search per core computes at a time: 50 threads time-slicing two
        // cores made every search as slow as the slowest; queued, each runs to completion.
        let _permit = self.gate.acquire(ticket);

        // Lexical candidates, every chunk in rank order (ids only: no stored text is read
        // yet); the best chunk per file is the file's.
        let lex: Ranked = if mode == Mode::Dense {
            Vec::new()
        } else {
            let qt = self.lexical.query_tokens_translated(query, &tr);
            let ids = self.ids.read().map_err(|_| IndexError::Poisoned)?;
            let hits = self.lexical.search_ids(&qt, &tags, pool)?;
            keyed(&ids, hits.into_iter().map(|(score, id)| (id, score)))
        };
        let bm25_max = lex.first().map(|x| x.2).unwrap_or(1.0).max(1e-6);

        // Dense candidates, each chunk from the scan of its language.
        let mut dense: Ranked = Vec::new();
        if let Some((own, mixed)) = found {
            match (own, mixed.transpose()) {
                (Ok(own), Ok(mixed)) => {
                    let found = self.by_chunk_language(own, mixed, cjk_query, pool)?;
                    let ids = self.ids.read().map_err(|_| IndexError::Poisoned)?;
                    dense = keyed(&ids, found);
                }
                // Chroma gone: lexical only.
                (Err(err), _) | (_, Err(err)) => tracing::warn!("dense search skipped: {err}"),
            }
        }
        let cross = self.cross_language(query, mode, &lex, &dense)?;
        let senses = rank::SenseUnits::new(&tr, &tr_simple);
        let name_words = if cjk_query {
            senses.clone()
        } else {
            rank::SenseUnits::from_tokens(&simple)
        };
        let ev = Evidence {
            name_words,
            lex,
            bm25_max,
            dense,
            cross,
            cross_dense: self.cfg.rank.cross_dense,
            senses,
            cjk_query,
        };
        Ok((ev, simple, tr_simple))
    }

    /// The query in the other language (glossary and dictionary): a Chinese question
    /// about an English text is covered by the English words it was translated to. A
    /// multilingual embedder orders each translated word's dictionary senses.
    fn translation(&self, query: &str) -> Translation {
        let dense = self.dense();
        let scorer = dense
            .as_ref()
            .filter(|d| d.embedder.orders_senses())
            .map(|d| language::EmbeddedSenses {
                engine: self,
                embedder: &d.embedder,
                context: query,
            });
        self.cfg
            .translator
            .translate(query, scorer.as_ref().map(|s| s as &dyn SenseScorer))
    }

    /// The query's vectors and the store they scan (none without dense search, in lexical
    /// mode, or when the embedder fails: the search degrades to lexical): its own vector and
    /// the one mixed with its translation when it differs, each only when some chunk would
    /// take its hits.
    fn query_dense(
        &self,
        query: &str,
        tr_text: &str,
        cjk_query: bool,
        mode: Mode,
    ) -> Result<Option<QDense>, IndexError> {
        let Some(Dense {
            embedder: e,
            vectors: v,
        }) = self.dense().filter(|_| mode != Mode::Lexical)
        else {
            return Ok(None);
        };
        let q = match self.query_vector(&e, query) {
            Ok(q) => q,
            Err(err) => {
                tracing::warn!("dense search skipped: {err}");
                return Ok(None);
            }
        };
        // Each scan serves the chunks of one language: the mixed vector (a second query
        // embedding) only for a translated question and when chunks in the other language
        // exist, the own one only when chunks in the question's language do or there is
        // nothing else (one scan in a one-language index).
        let translated = !tr_text.is_empty() && tr_text != query;
        let (same, other) = if !translated {
            (true, false)
        } else {
            let (has_cjk, has_other) = self.lexical.languages()?;
            if cjk_query {
                (has_cjk, has_other)
            } else {
                (has_other, has_cjk)
            }
        };
        let mixed = other
            .then(|| self.mix_translation(&e, &q, tr_text, cjk_query))
            .flatten();
        let own = (same || mixed.is_none()).then_some(q);
        Ok(Some((own, mixed, v)))
    }

    /// The dense hits whose votes weigh `RankParams::cross_dense`: English chunks on a
    /// Chinese question (hybrid only: dense mode is dense), where BM25 over the translated
    /// question beats e5. English questions about Chinese text keep full dense votes: their
    /// translation is the glossary's alone. A chunk BM25 also found (through the
    /// translation) keeps its full vote: the discount is for e5 alone across languages,
    /// not for two retrievers that agree (a Chinese question about a YAML key found by both
    /// must not lose to a Chinese note sharing one word with it).
    fn cross_language(
        &self,
        query: &str,
        mode: Mode,
        lex: &Ranked,
        dense: &Ranked,
    ) -> Result<HashSet<u64>, IndexError> {
        if mode != Mode::Hybrid
            || self.cfg.rank.cross_dense == 1.0
            || dense.is_empty()
            || !rank::query_is_cjk(query)
        {
            return Ok(HashSet::new());
        }
        let lexical: HashSet<u64> = lex.iter().map(|l| l.1).collect();
        let ids: Vec<u64> = dense
            .iter()
            .map(|d| d.1)
            .filter(|id| !lexical.contains(id))
            .collect();
        let cjk = self.lexical.cjk_chunks(&ids)?;
        Ok(ids.into_iter().filter(|id| !cjk.contains(id)).collect())
    }
}

/// Hits (chunk id, score) with their files' keys, in order; chunks no longer indexed are
/// left out.
fn keyed(ids: &HashMap<u64, Arc<str>>, hits: impl IntoIterator<Item = (u64, f32)>) -> Ranked {
    hits.into_iter()
        .filter_map(|(id, s)| Some((ids.get(&id)?.to_string(), id, s)))
        .collect()
}
