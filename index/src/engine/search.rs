//! Hybrid search: the query vector (cached or micro-batched), the batched vector scan, the
//! gate, lexical candidates, and the fusion of lexical, dense and file-name evidence into
//! ranked hits with similarities, snippets and positions.

use std::collections::HashMap;
use std::sync::Arc;

use super::{Dense, Engine, Hit, Mode, Scope};
use crate::embed::Embedder;
use crate::lexical::ChunkDoc;
use crate::rank;
use crate::vectors::VectorStore;
use crate::{chunk_id, IndexError};

impl Engine {
    pub(super) fn tags(scope: Scope, session: &str) -> Vec<String> {
        let up = format!("u:{session}");
        match scope {
            Scope::All => vec!["sys".into(), up],
            Scope::System => vec!["sys".into()],
            Scope::Uploads => vec![up],
        }
    }

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

    /// Hybrid search: one hit per file, best first, similarity in [0, 1], at most `top_k`,
    /// none below the threshold.
    pub fn search(
        &self,
        session: &str,
        query: &str,
        scope: Scope,
        top_k: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        let query = query.trim();
        if query.is_empty() || top_k == 0 {
            return Ok(vec![]);
        }
        let ticket = self.gate.ticket();
        let tags = Self::tags(scope, session);
        let pool = (top_k * 10).max(50);
        let simple = rank::simple_tokens(query);

        // The query embedding first, outside the gate below, so concurrent searches batch.
        let mut wd = 0.0f32;
        let mut qdense: Option<(Vec<f32>, Arc<dyn VectorStore>)> = None;
        if let (
            Some(Dense {
                embedder: e,
                vectors: v,
            }),
            true,
        ) = (self.dense(), mode != Mode::Lexical)
        {
            wd = if mode == Mode::Dense {
                1.0
            } else {
                rank::dense_weight(e.coverage(query))
            };
            if wd > 0.0 {
                // A failing embedder (endpoint down) degrades the search to lexical.
                match self.query_vector(&e, query) {
                    Ok(q) => qdense = Some((q, v)),
                    Err(err) => tracing::warn!("dense search skipped: {err}"),
                }
            }
        }
        // The vector scan too (batched with concurrent searches: one pass over the rows).
        let found = qdense.map(|(q, v)| self.scans.search(&v, q, &tags, pool, &self.gate, ticket));
        // At most one search per core computes at a time: 50 threads time-slicing two
        // cores made every search as slow as the slowest; queued, each runs to completion.
        let _permit = self.gate.acquire(ticket);

        // Lexical candidates, best chunk per file (ids only: no stored text is read yet).
        let mut lex: Vec<(String, u64, f32)> = Vec::new();
        if mode != Mode::Dense {
            let qt = self.lexical.query_tokens(query);
            let ids = self.ids.read().map_err(|_| IndexError::Poisoned)?;
            let hits = self.lexical.search_ids(&qt, &tags, pool)?;
            for (score, id) in hits {
                if let Some(k) = ids.get(&id) {
                    if !lex.iter().any(|(x, _, _)| x.as_str() == &**k) {
                        lex.push((k.to_string(), id, score));
                    }
                }
            }
        }
        let bm25_max = lex.first().map(|x| x.2).unwrap_or(1.0).max(1e-6);

        // Dense candidates, weighted by how much of the query the embedder can represent.
        let mut dense: Vec<(String, u64, f32)> = Vec::new();
        if let Some(found) = found {
            match found {
                Ok(found) => {
                    let ids = self.ids.read().map_err(|_| IndexError::Poisoned)?;
                    for (id, s) in found {
                        if let Some(k) = ids.get(&id) {
                            if !dense.iter().any(|(x, _, _)| x.as_str() == &**k) {
                                dense.push((k.to_string(), id, s));
                            }
                        }
                    }
                }
                // Chroma gone: lexical only.
                Err(err) => tracing::warn!("dense search skipped: {err}"),
            }
        }
        self.fuse(query, &simple, lex, bm25_max, dense, wd, &tags, top_k, mode)
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn fuse(
        &self,
        query: &str,
        simple: &[String],
        lex: Vec<(String, u64, f32)>,
        bm25_max: f32,
        dense: Vec<(String, u64, f32)>,
        wd: f32,
        tags: &[String],
        top_k: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        struct Cand {
            key: String,
            rrf: f32,
            fname: f32,
            bm25: Option<f32>,
            lexical: Option<f32>,
            dense: Option<f32>,
            chunk: u64,
            abs: f32,
        }
        let mut cands: HashMap<String, Cand> = HashMap::new();
        let blank = |k: &str| Cand {
            key: k.to_string(),
            rrf: 0.0,
            fname: 0.0,
            bm25: None,
            lexical: None,
            dense: None,
            chunk: chunk_id(k, 0),
            abs: 0.0,
        };
        let catalog = self.read_catalog()?;
        for (r, (k, id, score)) in lex.into_iter().enumerate() {
            let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
            e.rrf += rank::rrf(1.0, r);
            e.bm25 = Some(score);
            e.chunk = id;
        }
        for (r, (k, id, cos)) in dense.into_iter().enumerate() {
            let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
            e.rrf += rank::rrf(wd, r);
            e.dense = Some(rank::dense_evidence(cos) * wd.min(1.0));
            if e.bm25.is_none() {
                e.chunk = id;
            }
        }
        if mode != Mode::Dense {
            let mut fnames: Vec<(String, f32)> = catalog
                .values()
                .filter(|e| tags.contains(&e.tag))
                .map(|e| {
                    (
                        e.key.clone(),
                        rank::filename_score(&e.filename, query, simple),
                    )
                })
                .filter(|(_, s)| *s >= 0.3)
                .collect();
            fnames.sort_by(|a, b| b.1.total_cmp(&a.1));
            fnames.truncate(50);
            for (r, (k, s)) in fnames.into_iter().enumerate() {
                let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
                // A file-name match outranks content: `config.yaml` finds that file first.
                e.rrf += rank::rrf(3.0 * s, r);
                e.fname = s;
            }
        }
        let mut order: Vec<Cand> = cands
            .into_values()
            .filter(|c| catalog.contains_key(&c.key))
            .collect();
        order.sort_by(|a, b| b.rrf.total_cmp(&a.rrf).then_with(|| a.key.cmp(&b.key)));
        // The similarity (and the threshold) needs each candidate's chunk text: read it for
        // candidates in rank order, a batch at a time, until `top_k` pass and no candidate
        // with the same fused score as the last one is left unread (ties order by
        // similarity). Usually one batch: a handful of stored documents, not hundreds.
        let mut texts: HashMap<u64, ChunkDoc> = HashMap::new();
        let mut kept: Vec<Cand> = Vec::new();
        let mut rest = order.into_iter().peekable();
        let batch = (top_k * 2).max(8);
        loop {
            let mut next: Vec<Cand> = Vec::new();
            while let Some(c) =
                rest.next_if(|c| next.len() < batch || next.last().is_some_and(|l| l.rrf == c.rrf))
            {
                next.push(c);
            }
            if next.is_empty() {
                break;
            }
            let want: Vec<u64> = next
                .iter()
                .map(|c| c.chunk)
                .filter(|id| !texts.contains_key(id))
                .collect();
            for c in self.lexical.chunks_by_id(&want)? {
                texts.insert(c.chunk_id, c);
            }
            for mut c in next {
                if let Some(score) = c.bm25 {
                    let cov = texts
                        .get(&c.chunk)
                        .map(|ch| rank::coverage(&ch.text.to_lowercase(), simple))
                        .unwrap_or(0.0);
                    c.lexical = Some(0.9 * cov * (0.7 + 0.3 * (score / bm25_max).min(1.0)));
                }
                let l = c.lexical.unwrap_or(0.0);
                let d = c.dense.unwrap_or(0.0);
                let content = l.max(d) + 0.15 * l.min(d);
                c.abs = c.fname.max(content).min(1.0);
                if c.abs >= self.cfg.threshold {
                    kept.push(c);
                }
            }
            let last_rrf = kept.last().map(|c| c.rrf);
            if kept.len() >= top_k && rest.peek().map(|c| Some(c.rrf) != last_rrf).unwrap_or(true) {
                break;
            }
        }
        kept.sort_by(|a, b| {
            b.rrf
                .total_cmp(&a.rrf)
                .then_with(|| b.abs.total_cmp(&a.abs))
                .then_with(|| a.key.cmp(&b.key))
        });
        kept.truncate(top_k);
        let mut out = Vec::with_capacity(kept.len());
        let mut cap = 1.0f32;
        for c in kept {
            let Some(entry) = catalog.get(&c.key) else {
                continue;
            };
            let (text, a, b) = match texts.get(&c.chunk) {
                Some(ch) => rank::snippet(&ch.text, ch.first_line, simple, 200),
                None => (String::new(), 1, 1),
            };
            let content = c.lexical.unwrap_or(0.0).max(c.dense.unwrap_or(0.0));
            let match_type = if c.fname >= content && c.fname > 0.0 {
                "filename"
            } else if c.lexical.is_some() && c.dense.is_some() {
                "hybrid"
            } else if c.dense.is_some() {
                "semantic"
            } else {
                "lexical"
            };
            // Shown similarities never increase down the list.
            let sim = c.abs.min(cap);
            cap = sim;
            out.push(Hit {
                key: c.key.clone(),
                filename: entry.filename.clone(),
                filepath: entry.path.clone(),
                similarity: (sim * 1000.0).round() / 1000.0,
                chunk: text,
                position: format!("lines {a}-{b}"),
                match_type: match_type.into(),
                file_id: entry.file_id.clone(),
            });
        }
        Ok(out)
    }
}
