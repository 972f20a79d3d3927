//! Ranking: the weights (`RankParams`), the fusion arithmetic (scores placed on a
//! retriever's scale, the agreement term, dense evidence), the question's words against a
//! chunk's (`words`), file-name matches (`filename`) and the lines a hit shows
//! (`snippet`). Pure functions, no I/O; the stages that use them are in
//! `engine/search.rs`.

mod filename;
mod params;
mod snippet;
mod words;

pub use filename::{filename_score, filename_score_units};
pub use params::RankParams;
pub(crate) use snippet::from_first_line;
pub use snippet::snippet;
pub use words::{simple_tokens, window_coverage, ChunkWords, SenseUnits, TypedWords};

use crate::chunker::is_cjk;

/// Where a retriever's scores sit between a low and a high mark, in [0, 1]: fusion adds
/// them up (CombSUM, plus a small reciprocal-rank term), so how far ahead a retriever's
/// first file is counts, which rank fusion alone throws away.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Scale {
    lo: f32,
    hi: f32,
}

impl Scale {
    pub fn new(lo: f32, hi: f32) -> Scale {
        Scale { lo, hi }
    }

    /// `x` placed between the marks; with no spread every score is the best (1).
    pub fn place(&self, x: f32) -> f32 {
        if !x.is_finite() {
            return 0.0;
        }
        let span = self.hi - self.lo;
        // No spread (or marks that are not numbers): every score is the best.
        if span.is_nan() || span <= 1e-6 {
            return 1.0;
        }
        ((x - self.lo) / span).clamp(0.0, 1.0)
    }
}

/// A retriever's part of a fused score for a hit at 0-based `rank` with score `x`: the
/// score placed on the retriever's `scale` plus the reciprocal-rank agreement term (the
/// caller weighs it by the retriever's weight).
pub fn placed(p: &RankParams, scale: Scale, x: f32, rank: usize) -> f32 {
    scale.place(x) + p.rrf(rank)
}

/// Whether a query is Chinese (or another CJK language): at least as many CJK characters
/// as other words (`nginx 超时设置` is a Chinese question naming an English program).
pub fn query_is_cjk(query: &str) -> bool {
    let cjk = query.chars().filter(|c| is_cjk(*c)).count();
    let other = query
        .split(|c: char| !c.is_alphanumeric() || is_cjk(c))
        .filter(|w| !w.is_empty())
        .count();
    cjk > 0 && cjk >= other
}

/// A cosine placed on an embedder's own scale (`Embedder::cos_scale`: the cosine of
/// unrelated texts and of a close match) as [0, 1] evidence.
pub fn dense_evidence_in(cos: f32, (lo, hi): (f32, f32)) -> f32 {
    ((cos - lo) / (hi - lo).max(1e-3)).clamp(0.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_rank_scale_places_scores() {
        let s = Scale::new(0.8, 0.9);
        assert!((s.place(0.85) - 0.5).abs() < 1e-5);
        assert_eq!(s.place(0.9), 1.0);
        assert_eq!(s.place(0.95), 1.0);
        assert_eq!(s.place(0.7), 0.0);
        assert_eq!(s.place(f32::NAN), 0.0);
        // One candidate (or all equal): each is the best.
        assert_eq!(Scale::new(0.8, 0.8).place(0.8), 1.0);
        // BM25 relative to the best.
        assert!((Scale::new(0.0, 12.0).place(3.0) - 0.25).abs() < 1e-6);
    }

    #[test]
    fn index_rank_agreement_terms_and_languages() {
        let p = RankParams::default();
        assert!(p.rrf(0) > p.rrf(1));
        assert!(placed(&p, Scale::new(0.0, 1.0), 1.0, 0) > 1.0);
        assert_eq!(dense_evidence_in(0.92, (0.78, 0.92)), 1.0);
        assert_eq!(dense_evidence_in(0.70, (0.78, 0.92)), 0.0);
        assert!(query_is_cjk("nginx 超时设置"));
        assert!(query_is_cjk("数据库端口"));
        assert!(!query_is_cjk("restart nginx and check the 日志"));
        assert!(!query_is_cjk("disk usage"));
    }
}
