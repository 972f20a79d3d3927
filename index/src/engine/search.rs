//! Hybrid search, in stages (docs/index.md, "Ranking"): gather each retriever's chunks
//! (`search/evidence.rs`), fuse them per file (`search/fuse.rs`), choose the chunk that
//! stands for each file of the head (`search/represent.rs`), keep what passes the
//! threshold at most `per_file` times a file, order the head and build the hits
//! (`search/head.rs`). Every weight is in `rank::RankParams`.

use std::collections::BTreeMap;

use super::{Engine, Entry, Hit, Mode, Scope};
use crate::rank;
use crate::IndexError;

mod answer;
mod evidence;
mod fuse;
mod head;
mod language;
mod represent;

pub use answer::AnswerLine;

/// (doc key, chunk id, score) in rank order.
type Ranked = Vec<(String, u64, f32)>;

impl Engine {
    pub(super) fn tags(scope: Scope, session: &str) -> Vec<String> {
        let up = format!("u:{session}");
        match scope {
            Scope::All => vec!["sys".into(), up],
            Scope::System => vec!["sys".into()],
            Scope::Uploads => vec![up],
        }
    }

    /// Hybrid search: at most `top_k` chunks, best first, similarity in [0, 1], none below
    /// the threshold, at most `EngineConfig::per_file` of them from one file.
    pub fn search(
        &self,
        session: &str,
        query: &str,
        scope: Scope,
        top_k: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        self.search_per_file(session, query, scope, top_k, self.cfg.per_file, mode)
    }

    /// `search` with an explicit per-file cap: each file's best chunk ranks as the file;
    /// up to `per_file - 1` further distinct chunks of it follow, each ranked by its own
    /// evidence relative to the file's best chunk and decayed, so they come after the
    /// other files that match about as well. `per_file` 1 gives one hit per file.
    pub fn search_per_file(
        &self,
        session: &str,
        query: &str,
        scope: Scope,
        top_k: usize,
        per_file: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        let query = query.trim();
        if query.is_empty() || top_k == 0 {
            return Ok(vec![]);
        }
        let p = &self.cfg.rank;
        let per_file = per_file.max(1);
        let tags = Self::tags(scope, session);
        let pool = (top_k * 10).max(p.min_pool);
        // Gather.
        let (ev, simple, tr_simple) = self.evidence(query, &tags, pool, mode)?;
        let catalog = self.read_catalog()?;
        let q = head::Question::new(p, &ev, simple, &tr_simple, mode);
        let cos_scale = self.dense().map_or((0.1, 0.7), |d| d.embedder.cos_scale());
        // Fuse.
        let names = if mode == Mode::Dense {
            Vec::new()
        } else {
            self.filename_matches(&catalog, &tags, query, &ev.name_words)
        };
        let fused = fuse::Fused::new(
            p,
            &ev,
            names,
            cos_scale,
            mode != Mode::Dense || per_file > 1,
        );
        let mut files = fused.files();
        // Choose the chunk of each file of the head; further chunks of each file.
        let mut reads = represent::Reads::default();
        let batch = (top_k * 2).max(8);
        if mode != Mode::Dense {
            let covered = |w: &rank::ChunkWords| q.covered(w);
            let weigh = q.weigh(&covered);
            let name = |k: &str| lower_name(&catalog, k);
            fused.choose(&mut files, batch, &name, &weigh, &mut reads, &|ids| {
                self.lexical.chunks_by_id(ids)
            })?;
        }
        let extras = fused.extras(&files, per_file);
        let order = fuse::in_order(files, extras, &catalog);
        // Threshold, order, hits.
        let read = |ids: &[u64]| self.lexical.chunks_by_id(ids);
        let limits = head::Limits {
            top_k,
            per_file,
            batch,
            threshold: self.cfg.threshold,
        };
        let mut kept = head::threshold(order, &q, &catalog, &mut reads, &read, &limits)?;
        head::order(&mut kept, &q);
        kept.truncate(top_k);
        Ok(head::hits(kept, &catalog, &reads, &q))
    }

    /// Files whose names match the query (at least `RankParams::name_floor`), best first,
    /// at most `names_max`.
    fn filename_matches(
        &self,
        catalog: &BTreeMap<String, Entry>,
        tags: &[String],
        query: &str,
        words: &rank::SenseUnits,
    ) -> Vec<(String, f32)> {
        let p = &self.cfg.rank;
        let mut fnames: Vec<(String, f32)> = catalog
            .values()
            .filter(|e| tags.contains(&e.tag))
            .map(|e| {
                (
                    e.key.clone(),
                    rank::filename_score_units(&e.filename, query, words),
                )
            })
            .filter(|(_, s)| *s >= p.name_floor)
            .collect();
        fnames.sort_by(|a, b| b.1.total_cmp(&a.1));
        fnames.truncate(p.names_max);
        fnames
    }
}

/// A file's lower-cased name (a chunk's context for coverage), empty when not in the
/// catalog.
fn lower_name(catalog: &BTreeMap<String, Entry>, key: &str) -> String {
    catalog
        .get(key)
        .map(|e| e.filename.to_lowercase())
        .unwrap_or_default()
}

#[cfg(test)]
mod golden;
#[cfg(test)]
mod tests;
