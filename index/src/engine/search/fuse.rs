//! Fusion: each retriever's best chunk per file placed on the retriever's scale (BM25
//! relative to the best, cosines between the pool's best and worst file) plus the
//! reciprocal-rank agreement term, dense votes by their weight, and a file-name match;
//! summed per file. Then the chunk that shows each file of the head (`represent.rs`) and
//! a file's further chunks, each by its own evidence.

use std::collections::{BTreeMap, HashMap, HashSet};

use super::evidence::Evidence;
use super::represent::{self, Reads, Weigh};
use super::Ranked;
use crate::engine::Entry;
use crate::rank::{self, RankParams, Scale};
use crate::{chunk_id, IndexError};

/// A file (or a further chunk of one) on its way to the results.
pub(super) struct Cand {
    pub key: String,
    /// The fused score: the retrievers' placed scores and agreement terms, and the file
    /// name's.
    pub fused: f32,
    /// The part of `fused` that comes from the file name (extras do not inherit it).
    pub fname_part: f32,
    pub fname: f32,
    pub bm25: Option<f32>,
    /// The similarities of each retriever's evidence (lexical once the chunk is read).
    pub lexical: Option<f32>,
    pub dense: Option<f32>,
    pub chunk: u64,
    /// The similarity shown.
    pub abs: f32,
    /// Share of the query's words (or its translation's) in the chunk, once read.
    pub cov: f32,
    /// The best share of the question's words within a few adjacent lines.
    pub prox: f32,
    /// The snippet shown (text, first and last line), once the chunk is read.
    pub snippet: Option<(String, u32, u32)>,
}

impl Cand {
    fn blank(key: &str, chunk: u64) -> Cand {
        Cand {
            key: key.to_string(),
            fused: 0.0,
            fname_part: 0.0,
            fname: 0.0,
            bm25: None,
            lexical: None,
            dense: None,
            chunk,
            abs: 0.0,
            cov: 0.0,
            prox: 0.0,
            snippet: None,
        }
    }
}

/// The first (best) chunk of each file, in rank order.
fn best_per_file(all: &[(String, u64, f32)]) -> Ranked {
    let mut seen = HashSet::new();
    all.iter()
        .filter(|(k, _, _)| seen.insert(k.as_str()))
        .cloned()
        .collect()
}

/// Where dense cosines are placed: between the best file's and the worst file's of the
/// first `min_pool` chunks. Not of the whole pool: a larger `top_k` draws a larger pool,
/// whose worse last file would lift every placed cosine and so weigh dense evidence more
/// than lexical.
pub(super) fn dense_scale(min_pool: usize, dense_all: &[(String, u64, f32)]) -> Scale {
    let head = &dense_all[..dense_all.len().min(min_pool)];
    // The worst file's best chunk: the last chunk of the head whose file is new.
    let mut seen = HashSet::new();
    let lo = head
        .iter()
        .filter(|(k, _, _)| seen.insert(k.as_str()))
        .last()
        .map_or(0.0, |d| d.2);
    Scale::new(lo, head.first().map_or(1.0, |d| d.2))
}

/// One chunk's own evidence: its file, its fused score from its own retriever scores, and
/// the retrievers' raw scores.
struct ChunkEv<'a> {
    key: &'a str,
    fused: f32,
    bm25: Option<f32>,
    cos: Option<f32>,
}

/// The retrievers' evidence placed and fused, per file and per chunk.
pub(super) struct Fused<'a> {
    p: &'a RankParams,
    ev: &'a Evidence,
    names: Vec<(String, f32)>,
    /// The embedder's (unrelated, close) cosines: dense similarity shown.
    cos_scale: (f32, f32),
    /// Where the lexical and the dense scores are placed in [0, 1].
    scales: (Scale, Scale),
    by_id: HashMap<u64, ChunkEv<'a>>,
    /// Each file's pooled chunk ids, best own evidence first.
    per_key: HashMap<&'a str, Vec<u64>>,
}

impl<'a> Fused<'a> {
    /// `per_chunk`: also each chunk's own evidence (to choose a file's chunk, or to rank
    /// its further chunks).
    pub fn new(
        p: &'a RankParams,
        ev: &'a Evidence,
        names: Vec<(String, f32)>,
        cos_scale: (f32, f32),
        per_chunk: bool,
    ) -> Fused<'a> {
        let scales = (
            Scale::new(0.0, ev.bm25_max),
            dense_scale(p.min_pool, &ev.dense),
        );
        let mut f = Fused {
            p,
            ev,
            names,
            cos_scale,
            scales,
            by_id: HashMap::new(),
            per_key: HashMap::new(),
        };
        if per_chunk {
            f.chunk_evidence();
        }
        f
    }

    fn chunk_evidence(&mut self) {
        let (p, ev) = (self.p, self.ev);
        let blank = |k: &'a str| ChunkEv {
            key: k,
            fused: 0.0,
            bm25: None,
            cos: None,
        };
        for (r, (k, id, score)) in ev.lex.iter().enumerate() {
            let e = self.by_id.entry(*id).or_insert_with(|| blank(k));
            e.fused += rank::placed(p, self.scales.0, *score, r);
            e.bm25 = Some(*score);
        }
        for (r, (k, id, cos)) in ev.dense.iter().enumerate() {
            let e = self.by_id.entry(*id).or_insert_with(|| blank(k));
            e.fused += ev.dense_weight(*id) * rank::placed(p, self.scales.1, *cos, r);
            e.cos = Some(*cos);
        }
        let mut per_key: HashMap<&'a str, Vec<(u64, f32)>> = HashMap::new();
        for (id, e) in &self.by_id {
            per_key.entry(e.key).or_default().push((*id, e.fused));
        }
        self.per_key = per_key
            .into_iter()
            .map(|(k, mut v)| {
                v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
                (k, v.into_iter().map(|c| c.0).collect())
            })
            .collect();
    }

    /// A cosine as the similarity it shows.
    fn dense_similarity(&self, cos: f32) -> f32 {
        rank::dense_evidence_in(cos, self.cos_scale)
    }

    /// Each file's fused score from its best chunk of each retriever and its name.
    pub fn files(&self) -> HashMap<String, Cand> {
        let (p, ev) = (self.p, self.ev);
        let mut cands: HashMap<String, Cand> = HashMap::new();
        for (r, (k, id, score)) in best_per_file(&ev.lex).into_iter().enumerate() {
            let e = cands
                .entry(k.clone())
                .or_insert_with(|| Cand::blank(&k, chunk_id(&k, 0)));
            e.fused += rank::placed(p, self.scales.0, score, r);
            e.bm25 = Some(score);
            e.chunk = id;
        }
        for (r, (k, id, cos)) in best_per_file(&ev.dense).into_iter().enumerate() {
            let e = cands
                .entry(k.clone())
                .or_insert_with(|| Cand::blank(&k, chunk_id(&k, 0)));
            e.fused += ev.dense_weight(id) * rank::placed(p, self.scales.1, cos, r);
            e.dense = Some(self.dense_similarity(cos));
            if e.bm25.is_none() {
                e.chunk = id;
            }
        }
        for (k, s) in &self.names {
            let e = cands
                .entry(k.clone())
                .or_insert_with(|| Cand::blank(k, chunk_id(k, 0)));
            // A file-name match outranks content: `config.yaml` finds that file first.
            let part = p.name_part(*s);
            e.fused += part;
            e.fname_part = part;
            e.fname = *s;
        }
        cands
    }

    /// The chunk each of the `batch` best files shows: of its pooled chunks, the one that
    /// holds most of the question, then the best evidence (`represent::choose`).
    pub fn choose(
        &self,
        files: &mut HashMap<String, Cand>,
        batch: usize,
        lower_name: &dyn Fn(&str) -> String,
        weigh: &Weigh,
        reads: &mut Reads,
        read: represent::ReadChunks,
    ) -> Result<(), IndexError> {
        let mut order: Vec<&Cand> = files.values().collect();
        order.sort_by(|a, b| b.fused.total_cmp(&a.fused).then_with(|| a.key.cmp(&b.key)));
        let head: Vec<(&str, u64, String)> = order
            .iter()
            .take(batch)
            .map(|c| (c.key.as_str(), c.chunk, lower_name(&c.key)))
            .collect();
        let pooled: HashMap<&str, Vec<(u64, f32)>> = head
            .iter()
            .filter_map(|h| {
                let ids = self.per_key.get(h.0)?;
                Some((
                    h.0,
                    ids.iter().map(|id| (*id, self.by_id[id].fused)).collect(),
                ))
            })
            .collect();
        let chosen = represent::choose(&head, &pooled, read, weigh, reads)?;
        for (k, id) in chosen {
            if let (Some(c), Some(e)) = (files.get_mut(&k), self.by_id.get(&id)) {
                c.chunk = id;
                c.bm25 = e.bm25;
                c.dense = e.cos.map(|cos| self.dense_similarity(cos));
            }
        }
        Ok(())
    }

    /// Further chunks of each file (at most `per_file + 1`, a few spare: an extra whose
    /// snippet repeats a kept one is skipped), each ranked by its own evidence relative
    /// to the file's chunk, decayed by `extra_decay` per extra, without the name's part (a
    /// name ranks the file, not its chunks).
    pub fn extras(&self, files: &HashMap<String, Cand>, per_file: usize) -> Vec<Cand> {
        let mut extras = Vec::new();
        if per_file <= 1 {
            return extras;
        }
        for (k, ids) in &self.per_key {
            let Some(file) = files.get(*k) else { continue };
            let best = self.by_id.get(&file.chunk).map_or(0.0, |e| e.fused);
            if best <= 0.0 {
                continue;
            }
            let mut f = file.fused - file.fname_part;
            for id in ids
                .iter()
                .filter(|id| **id != file.chunk)
                .take(per_file + 1)
            {
                let e = &self.by_id[id];
                f *= self.p.extra_decay;
                let mut c = Cand::blank(k, *id);
                c.fused = f * (e.fused / best).min(1.0);
                c.bm25 = e.bm25;
                c.dense = e.cos.map(|cos| self.dense_similarity(cos));
                extras.push(c);
            }
        }
        extras
    }
}

/// Files and extras in fused order (ties by key, then chunk), those still in the catalog.
pub(super) fn in_order(
    files: HashMap<String, Cand>,
    extras: Vec<Cand>,
    catalog: &BTreeMap<String, Entry>,
) -> Vec<Cand> {
    let mut order: Vec<Cand> = files
        .into_values()
        .chain(extras)
        .filter(|c| catalog.contains_key(&c.key))
        .collect();
    order.sort_by(|a, b| {
        b.fused
            .total_cmp(&a.fused)
            .then_with(|| a.key.cmp(&b.key))
            .then_with(|| a.chunk.cmp(&b.chunk))
    });
    order
}
