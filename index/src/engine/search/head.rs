//! The head of the fused list: each candidate's chunk read, its similarity computed and
//! compared with the threshold (at most `per_file` non-overlapping snippets a file), the
//! kept ones ordered by fused score plus the question's coverage and proximity, and the
//! hits built with their snippets and answer lines.

use std::collections::{BTreeMap, HashMap};

use super::evidence::Evidence;
use super::fuse::Cand;
use super::represent::{ReadChunks, Reads, Weigh};
use super::{answer, lower_name};
use crate::analyzers::title;
use crate::engine::{Entry, Hit, Mode};
use crate::rank::{self, RankParams, SenseUnits, TypedWords};
use crate::IndexError;

/// The question as the head weighs it.
pub(super) struct Question {
    /// The question's simple tokens as typed.
    simple: Vec<String>,
    /// Snippets look for the question's words in either language.
    snip: Vec<String>,
    typed: TypedWords,
    /// The translated question's words, each by any of its senses.
    senses: SenseUnits,
    /// Weights of coverage and proximity in the final order (0 where they do not apply).
    cw: f32,
    pw: f32,
    proximity_lines: usize,
    choices: usize,
    /// How much more a long question's content counts against the threshold.
    long_q: f32,
    bm25_max: f32,
    p: RankParams,
    mode: Mode,
}

impl Question {
    pub fn new(
        p: &RankParams,
        ev: &Evidence,
        simple: Vec<String>,
        tr_simple: &[String],
        mode: Mode,
    ) -> Question {
        let dense = mode == Mode::Dense;
        Question {
            snip: simple.iter().chain(tr_simple).cloned().collect(),
            typed: TypedWords::new(&simple),
            senses: ev.senses.clone(),
            cw: if dense { 0.0 } else { p.coverage },
            // Proximity for English questions only.
            pw: if dense || ev.cjk_query {
                0.0
            } else {
                p.proximity
            },
            proximity_lines: p.proximity_lines,
            choices: p.choices,
            long_q: p.long_question(simple.len()),
            bm25_max: ev.bm25_max,
            p: p.clone(),
            simple,
            mode,
        }
    }

    /// The question's words (or its translation's) in a chunk or a few of its lines.
    pub fn covered(&self, w: &rank::ChunkWords) -> f32 {
        self.typed.coverage_in(w).max(self.senses.coverage_in(w))
    }

    pub fn weigh<'a>(&'a self, covered: &'a dyn Fn(&rank::ChunkWords) -> f32) -> Weigh<'a> {
        Weigh {
            covered,
            cw: self.cw,
            pw: self.pw,
            lines: self.proximity_lines,
            choices: self.choices,
            typed: &self.simple,
        }
    }
}

/// How many hits, how many a file, how many chunks read at a time, the threshold.
pub(super) struct Limits {
    pub top_k: usize,
    pub per_file: usize,
    pub batch: usize,
    pub threshold: f32,
}

/// The candidates in `order` that pass the threshold, with their similarities and
/// snippets, at most `per_file` non-overlapping snippets a file: chunks are read in rank
/// order, a batch at a time, until `top_k` pass and no candidate with the same fused score
/// as the last one kept is left unread (ties order by similarity).
pub(super) fn threshold(
    order: Vec<Cand>,
    q: &Question,
    catalog: &BTreeMap<String, Entry>,
    reads: &mut Reads,
    read: ReadChunks,
    lim: &Limits,
) -> Result<Vec<Cand>, IndexError> {
    let covered = |w: &rank::ChunkWords| q.covered(w);
    let weigh = q.weigh(&covered);
    // Snippets show the lines that hold most of the question (not in dense mode).
    let win: Option<&dyn Fn(&rank::ChunkWords) -> f32> =
        (q.mode != Mode::Dense).then_some(&covered);
    let mut kept: Vec<Cand> = Vec::new();
    // Snippet line ranges kept per file (chunks overlap a little, so two of them may show
    // the same lines).
    let mut shown: HashMap<String, Vec<(u32, u32)>> = HashMap::new();
    let mut rest = order.into_iter().peekable();
    loop {
        let mut next: Vec<Cand> = Vec::new();
        while let Some(c) = rest
            .next_if(|c| next.len() < lim.batch || next.last().is_some_and(|l| l.fused == c.fused))
        {
            next.push(c);
        }
        if next.is_empty() {
            break;
        }
        reads.fetch(next.iter().map(|c| c.chunk), read)?;
        for mut c in next {
            let name = lower_name(catalog, &c.key);
            if !similarity(&mut c, q, &weigh, reads, &name, lim.threshold) {
                continue;
            }
            let shot = reads
                .texts
                .get(&c.chunk)
                .map(|ch| {
                    let title = title::of(&ch.context);
                    rank::snippet(&ch.text, ch.first_line, &q.snip, &name, title, 200, win)
                })
                .unwrap_or((String::new(), 1, 1));
            let lines = (shot.1, shot.2);
            c.snippet = Some(shot);
            let ranges = shown.entry(c.key.clone()).or_default();
            if ranges.len() >= lim.per_file
                || ranges.iter().any(|r| r.0 <= lines.1 && lines.0 <= r.1)
            {
                continue;
            }
            ranges.push(lines);
            kept.push(c);
        }
        let last = kept.last().map(|c| c.fused);
        if kept.len() >= lim.top_k && rest.peek().is_none_or(|c| Some(c.fused) != last) {
            break;
        }
    }
    Ok(kept)
}

/// A read candidate's coverage, proximity and similarity (`abs`); whether it passes the
/// threshold.
fn similarity(
    c: &mut Cand,
    q: &Question,
    weigh: &Weigh,
    reads: &mut Reads,
    name: &str,
    threshold: f32,
) -> bool {
    // The file's name is the chunk's context (`rank::ChunkWords`).
    (c.cov, c.prox) = match reads.texts.get(&c.chunk) {
        Some(ch) => weigh.cov_prox(&mut reads.scores, ch, name),
        None => (0.0, 0.0),
    };
    if let Some(score) = c.bm25 {
        c.lexical = Some(q.p.lexical_similarity(c.cov, score / q.bm25_max));
    }
    let content =
        q.p.content_similarity(c.lexical.unwrap_or(0.0), c.dense.unwrap_or(0.0));
    c.abs = c.fname.max(content).min(1.0);
    // A similarity that is not a number passes (a NaN is not below the threshold).
    let sim = c.fname.max(content * q.long_q);
    sim.partial_cmp(&threshold) != Some(std::cmp::Ordering::Less)
}

/// The head in its final order: fused score plus the question's coverage and proximity;
/// ties by similarity, then key and chunk.
pub(super) fn order(kept: &mut [Cand], q: &Question) {
    let key = |c: &Cand| c.fused + q.cw * c.cov + q.pw * c.prox;
    kept.sort_by(|a, b| {
        key(b)
            .total_cmp(&key(a))
            .then_with(|| b.abs.total_cmp(&a.abs))
            .then_with(|| a.key.cmp(&b.key))
            .then_with(|| a.chunk.cmp(&b.chunk))
    });
}

/// The hits: file, snippet, similarity (never increasing down the list), how it matched
/// and the line that answers (where the question's words were weighed).
pub(super) fn hits(
    kept: Vec<Cand>,
    catalog: &BTreeMap<String, Entry>,
    reads: &Reads,
    q: &Question,
) -> Vec<Hit> {
    let covered = |w: &rank::ChunkWords| q.covered(w);
    let mut out = Vec::with_capacity(kept.len());
    let mut cap = 1.0f32;
    for c in kept {
        let Some(entry) = catalog.get(&c.key) else {
            continue;
        };
        let (text, a, b) = c.snippet.unwrap_or((String::new(), 1, 1));
        let answer = reads
            .texts
            .get(&c.chunk)
            .filter(|_| q.mode != Mode::Dense)
            .and_then(|ch| answer::answer_line(ch, &entry.filename, &q.snip, &covered));
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
    out
}
