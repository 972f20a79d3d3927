//! Hybrid search: the fusion of lexical, dense and file-name evidence (`search/evidence.rs`
//! gathers it) into ranked hits with similarities, snippets and positions, at most a few
//! chunks per file.

use std::collections::{HashMap, HashSet};

use super::{Engine, Hit, Mode, Scope};
use crate::analyzers::title;
use crate::lexical::ChunkDoc;
use crate::rank;
use crate::{chunk_id, IndexError};

mod answer;
mod evidence;
mod language;
mod represent;

pub use answer::AnswerLine;
use evidence::Evidence;

/// (doc key, chunk id, score) in rank order.
type Ranked = Vec<(String, u64, f32)>;

/// Each retriever's files for a query before fusion (`Engine::retriever_files`), best
/// chunk per file, in rank order.
#[derive(Debug, Clone, Default)]
pub struct RetrieverFiles {
    /// (file name, BM25 score of its best chunk).
    pub lexical: Vec<(String, f32)>,
    /// (file name, cosine of its best chunk, the weight of its dense vote).
    pub dense: Vec<(String, f32, f32)>,
    /// (file name, file-name score).
    pub names: Vec<(String, f32)>,
}

/// Chunks each retriever returns at least: a file's best chunk is often outside the top
/// 50 chunks of the retriever that ranks it lower, and a hit found by only one retriever
/// loses its agreement vote (xling bench, tuning part: 200 gained recall@3 0.77 -> 0.80;
/// 400 no more). The dense scores are placed between the pool's best and worst files.
const MIN_POOL: usize = 200;

/// Each extra chunk of a file ranks at this fraction of the one before it (on top of its
/// own evidence relative to the file's best chunk): extras follow the files that match
/// about as well, so one file with many matching chunks does not push the others out.
const EXTRA_DECAY: f32 = 0.9;

/// One chunk's own evidence: its file, its fused score from its own retriever scores, and
/// the retrievers' raw scores.
struct ChunkEv<'a> {
    key: &'a str,
    fused: f32,
    bm25: Option<f32>,
    cos: Option<f32>,
}

/// Every ranked chunk's evidence, by chunk id (`wd(id)`: the weight of its dense vote;
/// `scales`: where the lexical and the dense scores are placed in [0, 1]).
fn chunk_evidence<'a>(
    lex: &'a Ranked,
    dense: &'a Ranked,
    wd: &dyn Fn(u64) -> f32,
    (lex_scale, dense_scale): (rank::Scale, rank::Scale),
) -> HashMap<u64, ChunkEv<'a>> {
    let mut by_id: HashMap<u64, ChunkEv> = HashMap::new();
    let blank = |k: &'a str| ChunkEv {
        key: k,
        fused: 0.0,
        bm25: None,
        cos: None,
    };
    for (r, (k, id, score)) in lex.iter().enumerate() {
        let e = by_id.entry(*id).or_insert_with(|| blank(k));
        e.fused += rank::placed(lex_scale, *score, r);
        e.bm25 = Some(*score);
    }
    for (r, (k, id, cos)) in dense.iter().enumerate() {
        let e = by_id.entry(*id).or_insert_with(|| blank(k));
        e.fused += wd(*id) * rank::placed(dense_scale, *cos, r);
        e.cos = Some(*cos);
    }
    by_id
}

/// Where dense cosines are placed (`rank::Scale`): between the best file's and the worst
/// file's of the first `MIN_POOL` chunks. Not of the whole pool: a larger `top_k` draws a
/// larger pool, whose worse last file would lift every placed cosine and so weigh dense
/// evidence more than lexical (xling bench, tuning part: recall@3 0.835 at top 10, 0.785
/// at top 30 before this).
fn dense_scale(dense_all: &[(String, u64, f32)]) -> rank::Scale {
    let head = &dense_all[..dense_all.len().min(MIN_POOL)];
    // The worst file's best chunk: the last chunk of the head whose file is new.
    let mut seen = HashSet::new();
    let lo = head
        .iter()
        .filter(|(k, _, _)| seen.insert(k.as_str()))
        .last()
        .map_or(0.0, |d| d.2);
    rank::Scale::new(lo, head.first().map_or(1.0, |d| d.2))
}

/// The first (best) chunk of each file, in rank order.
fn best_per_file(all: &[(String, u64, f32)]) -> Ranked {
    let mut seen = std::collections::HashSet::new();
    all.iter()
        .filter(|(k, _, _)| seen.insert(k.as_str()))
        .cloned()
        .collect()
}

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

    /// `search` with an explicit per-file cap: each file's best chunk ranks as the file
    /// (file-level fusion of lexical, dense and file-name evidence); up to `per_file - 1`
    /// further distinct chunks of it follow, each ranked by its own evidence relative to
    /// the file's best chunk and decayed (`EXTRA_DECAY` per extra), so they come after the
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
        let tags = Self::tags(scope, session);
        let pool = (top_k * 10).max(MIN_POOL);
        let (ev, simple, tr_simple) = self.evidence(query, &tags, pool, mode)?;
        self.fuse(
            query,
            (&simple, &tr_simple),
            ev,
            &tags,
            top_k,
            per_file.max(1),
            mode,
        )
    }

    /// Each retriever's files for `query` before fusion, best chunk per file, in rank order
    /// (at most `MIN_POOL` chunks each): for diagnostics and the index bench, which compares
    /// fusion rules on the same candidates.
    pub fn retriever_files(
        &self,
        session: &str,
        query: &str,
        scope: Scope,
    ) -> Result<RetrieverFiles, IndexError> {
        let query = query.trim();
        let tags = Self::tags(scope, session);
        let (ev, _, _) = self.evidence(query, &tags, MIN_POOL, Mode::Hybrid)?;
        let catalog = self.read_catalog()?;
        let name = |k: &str| catalog.get(k).map(|e| e.filename.clone());
        Ok(RetrieverFiles {
            lexical: best_per_file(&ev.lex)
                .into_iter()
                .filter_map(|(k, _, s)| Some((name(&k)?, s)))
                .collect(),
            dense: best_per_file(&ev.dense)
                .into_iter()
                .filter_map(|(k, id, c)| Some((name(&k)?, c, ev.dense_weight(id))))
                .collect(),
            names: self
                .filename_matches(&catalog, &tags, query, &ev.name_words)
                .into_iter()
                .filter_map(|(k, s)| Some((name(&k)?, s)))
                .collect(),
        })
    }

    /// Files whose names match the query (score >= 0.3), best first, at most 50.
    fn filename_matches(
        &self,
        catalog: &std::collections::BTreeMap<String, super::Entry>,
        tags: &[String],
        query: &str,
        words: &rank::SenseUnits,
    ) -> Vec<(String, f32)> {
        let mut fnames: Vec<(String, f32)> = catalog
            .values()
            .filter(|e| tags.contains(&e.tag))
            .map(|e| {
                (
                    e.key.clone(),
                    rank::filename_score_units(&e.filename, query, words),
                )
            })
            .filter(|(_, s)| *s >= 0.3)
            .collect();
        fnames.sort_by(|a, b| b.1.total_cmp(&a.1));
        fnames.truncate(50);
        fnames
    }

    #[allow(clippy::too_many_arguments)]
    fn fuse(
        &self,
        query: &str,
        (simple, tr_simple): (&[String], &[String]),
        ev: Evidence,
        tags: &[String],
        top_k: usize,
        per_file: usize,
        mode: Mode,
    ) -> Result<Vec<Hit>, IndexError> {
        let scale = self
            .dense()
            .map(|d| d.embedder.cos_scale())
            .unwrap_or((0.1, 0.7));
        // Snippets look for the query's words in either language.
        let snip: Vec<String> = simple.iter().chain(tr_simple).cloned().collect();
        let wd = ev.wd;
        let dense_w = |id: u64| ev.dense_weight(id);
        let (lex_all, bm25_max, dense_all) = (&ev.lex, ev.bm25_max, &ev.dense);
        let lex = best_per_file(lex_all);
        let dense = best_per_file(dense_all);
        // Each retriever's scores placed in [0, 1]: BM25 relative to the best, cosines
        // by `dense_scale`.
        let scales = (rank::Scale::new(0.0, bm25_max), dense_scale(dense_all));
        struct Cand {
            key: String,
            /// The fused score: the retrievers' placed scores and agreement terms, and the
            /// file name's.
            fused: f32,
            /// The part of `fused` that comes from the file name (extras do not inherit it).
            fname_part: f32,
            fname: f32,
            bm25: Option<f32>,
            lexical: Option<f32>,
            dense: Option<f32>,
            chunk: u64,
            abs: f32,
            /// Share of the query's words (or its translation's) in the chunk, once read.
            cov: f32,
            /// The best share of the question's words within a few adjacent lines.
            prox: f32,
            /// The snippet shown (text, first and last line), once the chunk is read.
            snippet: Option<(String, u32, u32)>,
        }
        let mut cands: HashMap<String, Cand> = HashMap::new();
        let blank = |k: &str| Cand {
            key: k.to_string(),
            fused: 0.0,
            fname_part: 0.0,
            fname: 0.0,
            bm25: None,
            lexical: None,
            dense: None,
            chunk: chunk_id(k, 0),
            abs: 0.0,
            cov: 0.0,
            prox: 0.0,
            snippet: None,
        };
        let catalog = self.read_catalog()?;
        for (r, (k, id, score)) in lex.into_iter().enumerate() {
            let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
            e.fused += rank::placed(scales.0, score, r);
            e.bm25 = Some(score);
            e.chunk = id;
        }
        for (r, (k, id, cos)) in dense.into_iter().enumerate() {
            let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
            e.fused += dense_w(id) * rank::placed(scales.1, cos, r);
            e.dense = Some(rank::dense_evidence_in(cos, scale) * wd.min(1.0));
            if e.bm25.is_none() {
                e.chunk = id;
            }
        }
        if mode != Mode::Dense {
            let fnames = self.filename_matches(&catalog, tags, query, &ev.name_words);
            for (k, s) in fnames {
                let e = cands.entry(k.clone()).or_insert_with(|| blank(&k));
                // A file-name match outranks content: `config.yaml` finds that file first.
                let part = rank::name_part(s);
                e.fused += part;
                e.fname_part = part;
                e.fname = s;
            }
        }
        // Each file's chunks with their own evidence, best first: for the chunk choice (not
        // in dense mode) and the extra chunks of a file.
        let by_id = if mode != Mode::Dense || per_file > 1 {
            chunk_evidence(lex_all, dense_all, &dense_w, scales)
        } else {
            HashMap::new()
        };
        let mut per_key: HashMap<&str, Vec<(u64, &ChunkEv)>> = HashMap::new();
        for (id, ev) in &by_id {
            per_key.entry(ev.key).or_default().push((*id, ev));
        }
        for chunks in per_key.values_mut() {
            chunks.sort_by(|a, b| b.1.fused.total_cmp(&a.1.fused).then_with(|| a.0.cmp(&b.0)));
        }
        // Proximity in the head's order: English questions only (`rank::PROXIMITY_WEIGHT`).
        let pw = if mode == Mode::Dense || ev.cjk_query {
            0.0
        } else {
            rank::PROXIMITY_WEIGHT
        };
        let cw = if mode == Mode::Dense {
            0.0
        } else {
            self.cfg.coverage_weight
        };
        // A question asked as a sentence ("how long does nginx wait for the playback
        // backend before it gives up") holds words no line says; its coverage, measured
        // against all of them, kept every hit under the threshold. The threshold weighs
        // its content as if it had `rank::FULL_QUESTION_WORDS` (the ranking is unchanged).
        let long_q = (simple.len() as f32 / rank::FULL_QUESTION_WORDS).clamp(1.0, 1.5);
        // The question's words (or its translation's) in a chunk or a few of its lines.
        let typed = rank::TypedWords::new(simple);
        let covered = |w: &rank::ChunkWords| typed.coverage_in(w).max(ev.senses.coverage_in(w));
        let weigh = represent::Weigh {
            covered: &covered,
            cw,
            pw,
            typed: simple,
        };
        let lower_name = |k: &str| {
            catalog
                .get(k)
                .map(|e| e.filename.to_lowercase())
                .unwrap_or_default()
        };
        let mut texts: HashMap<u64, ChunkDoc> = HashMap::new();
        let mut scores = represent::Scores::new();
        let batch = (top_k * 2).max(8);
        // Snippets show the lines that hold most of the question (not in dense mode).
        let win: Option<&dyn Fn(&rank::ChunkWords) -> f32> =
            (mode != Mode::Dense).then_some(&covered);
        // The chunk each file of the head shows: of its pooled chunks, the one that holds
        // most of the question, then the best evidence (`represent`).
        if mode != Mode::Dense {
            let mut files: Vec<&Cand> = cands.values().collect();
            files.sort_by(|a, b| b.fused.total_cmp(&a.fused).then_with(|| a.key.cmp(&b.key)));
            let head: Vec<(&str, u64, String)> = files
                .iter()
                .take(batch)
                .map(|c| (c.key.as_str(), c.chunk, lower_name(&c.key)))
                .collect();
            let pooled: HashMap<&str, Vec<(u64, f32)>> = per_key
                .iter()
                .filter(|(k, _)| head.iter().any(|h| h.0 == **k))
                .map(|(k, c)| (*k, c.iter().map(|(id, e)| (*id, e.fused)).collect()))
                .collect();
            let read = |ids: &[u64]| self.lexical.chunks_by_id(ids);
            let chosen = represent::choose(&head, &pooled, &mut texts, &read, &weigh, &mut scores)?;
            for (k, id) in chosen {
                if let (Some(c), Some(e)) = (cands.get_mut(&k), by_id.get(&id)) {
                    c.chunk = id;
                    c.bm25 = e.bm25;
                    c.dense = e
                        .cos
                        .map(|cos| rank::dense_evidence_in(cos, scale) * wd.min(1.0));
                }
            }
        }
        // Further chunks of each candidate file, each ranked by its own evidence (its
        // chunk-level fused score relative to the file's best chunk's), decayed per extra.
        let mut extras: Vec<Cand> = Vec::new();
        if per_file > 1 {
            for (k, mut chunks) in per_key {
                let Some(file) = cands.get(k) else { continue };
                let best = by_id.get(&file.chunk).map(|e| e.fused).unwrap_or(0.0);
                if best <= 0.0 {
                    continue;
                }
                chunks.retain(|c| c.0 != file.chunk);
                // Content evidence only: a file-name match ranks the file, not its chunks.
                let mut f = file.fused - file.fname_part;
                // A few spare ones: an extra whose snippet repeats a kept one is skipped.
                for (id, ev) in chunks.into_iter().take(per_file + 1) {
                    f *= EXTRA_DECAY;
                    extras.push(Cand {
                        key: k.to_string(),
                        fused: f * (ev.fused / best).min(1.0),
                        fname_part: 0.0,
                        fname: 0.0,
                        bm25: ev.bm25,
                        lexical: None,
                        dense: ev
                            .cos
                            .map(|c| rank::dense_evidence_in(c, scale) * wd.min(1.0)),
                        chunk: id,
                        abs: 0.0,
                        cov: 0.0,
                        prox: 0.0,
                        snippet: None,
                    });
                }
            }
        }
        let mut order: Vec<Cand> = cands
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
        // The similarity (and the threshold) needs each candidate's chunk text: read it for
        // candidates in rank order, a batch at a time, until `top_k` pass and no candidate
        // with the same fused score as the last one is left unread (ties order by
        // similarity). Usually one batch: a handful of stored documents, not hundreds.
        let mut kept: Vec<Cand> = Vec::new();
        // Snippet line ranges kept per file: at most `per_file`, none overlapping (chunks
        // overlap a little, so two of them may show the same lines).
        let mut shown: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
        let mut rest = order.into_iter().peekable();
        loop {
            let mut next: Vec<Cand> = Vec::new();
            while let Some(c) = rest
                .next_if(|c| next.len() < batch || next.last().is_some_and(|l| l.fused == c.fused))
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
                // The file's name is the chunk's context (`rank::ChunkWords`).
                let name = lower_name(&c.key);
                (c.cov, c.prox) = texts
                    .get(&c.chunk)
                    .map(|ch| weigh.cov_prox(&mut scores, ch, &name))
                    .unwrap_or((0.0, 0.0));
                if let Some(score) = c.bm25 {
                    c.lexical = Some(0.9 * c.cov * (0.7 + 0.3 * (score / bm25_max).min(1.0)));
                }
                let l = c.lexical.unwrap_or(0.0);
                let d = c.dense.unwrap_or(0.0);
                let content = l.max(d) + 0.15 * l.min(d);
                c.abs = c.fname.max(content).min(1.0);
                if c.fname.max(content * long_q) < self.cfg.threshold {
                    continue;
                }
                let shot = texts
                    .get(&c.chunk)
                    .map(|ch| {
                        let title = title::of(&ch.context);
                        rank::snippet(&ch.text, ch.first_line, &snip, &name, title, 200, win)
                    })
                    .unwrap_or((String::new(), 1, 1));
                let lines = (shot.1, shot.2);
                c.snippet = Some(shot);
                let ranges = shown.entry(c.key.clone()).or_default();
                if ranges.len() >= per_file
                    || ranges.iter().any(|r| r.0 <= lines.1 && lines.0 <= r.1)
                {
                    continue;
                }
                ranges.push(lines);
                kept.push(c);
            }
            let last = kept.last().map(|c| c.fused);
            if kept.len() >= top_k && rest.peek().map(|c| Some(c.fused) != last).unwrap_or(true) {
                break;
            }
        }
        // The head in its final order: fused score plus query coverage (`rank::COVERAGE_WEIGHT`)
        // and proximity.
        let key = |c: &Cand| c.fused + cw * c.cov + pw * c.prox;
        kept.sort_by(|a, b| {
            key(b)
                .total_cmp(&key(a))
                .then_with(|| b.abs.total_cmp(&a.abs))
                .then_with(|| a.key.cmp(&b.key))
                .then_with(|| a.chunk.cmp(&b.chunk))
        });
        kept.truncate(top_k);
        let mut out = Vec::with_capacity(kept.len());
        let mut cap = 1.0f32;
        for c in kept {
            let Some(entry) = catalog.get(&c.key) else {
                continue;
            };
            let (text, a, b) = c.snippet.unwrap_or((String::new(), 1, 1));
            // The line that answers: only where the question's words were weighed.
            let answer = texts
                .get(&c.chunk)
                .filter(|_| mode != Mode::Dense)
                .and_then(|ch| answer::answer_line(ch, &entry.filename, &snip, &covered));
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
                lines: (a, b),
                answer,
                match_type: match_type.into(),
                file_id: entry.file_id.clone(),
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests;
