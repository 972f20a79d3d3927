//! Fusion rules compared on the same candidates (LLMOPS_BENCH_XLING_FUSION=0: off): each
//! query's per-retriever file lists (`Engine::retriever_files`) fused by several rules,
//! recall@3 / MRR per set. The engine's own rule is one of them (it must reproduce the
//! engine's hybrid row), so a rule that wins here can be moved into the engine knowing
//! what it changes on every set at once.

use super::*;
use llmops_index::RetrieverFiles;

/// One fusion rule: weighted reciprocal rank fusion (constant `k`, weight `rrf`) of the
/// lexical, dense and file-name lists, plus each retriever's normalised score
/// (BM25 / best BM25 times `lex`; the cosine placed between the pool's lowest and highest,
/// or on the embedder's scale, times `dense`).
#[derive(Debug, Clone, Copy)]
pub struct Rule {
    pub label: &'static str,
    pub k: f32,
    pub rrf: f32,
    /// File-name votes: weight times the name score over (k + rank) (0: none).
    pub names: f32,
    /// File-name votes: weight times the name score (squared with `names_sq`), flat (the
    /// engine's rule).
    pub names_flat: f32,
    pub names_sq: bool,
    pub lex: f32,
    pub dense: f32,
    /// Dense scores on e5's scale (0.78 unrelated, 0.92 close) instead of min-max.
    pub absolute: bool,
}

impl Rule {
    fn rank(&self, f: &RetrieverFiles) -> Vec<String> {
        let mut s: HashMap<&str, f32> = HashMap::new();
        let bm_max = f.lexical.first().map_or(1.0, |x| x.1).max(1e-6);
        for (r, (name, bm)) in f.lexical.iter().enumerate() {
            *s.entry(name).or_default() +=
                self.rrf / (self.k + r as f32 + 1.0) + self.lex * bm / bm_max;
        }
        let hi = f.dense.first().map_or(1.0, |x| x.1);
        let lo = f.dense.last().map_or(0.0, |x| x.1);
        for (r, (name, cos, w)) in f.dense.iter().enumerate() {
            let norm = if self.absolute {
                ((cos - 0.78) / 0.14).clamp(0.0, 1.0)
            } else if hi > lo {
                (cos - lo) / (hi - lo)
            } else {
                0.0
            };
            *s.entry(name).or_default() +=
                w * (self.rrf / (self.k + r as f32 + 1.0) + self.dense * norm);
        }
        for (r, (name, sc)) in f.names.iter().enumerate() {
            let flat = if self.names_sq { sc * sc } else { *sc };
            *s.entry(name).or_default() +=
                self.names * sc / (self.k + r as f32 + 1.0) + self.names_flat * flat;
        }
        let mut v: Vec<(&str, f32)> = s.into_iter().collect();
        v.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        v.into_iter().take(10).map(|x| x.0.to_string()).collect()
    }
}

/// Placed scores plus a rank term, file names x2 flat: the base the rules below vary.
const PLACED: Rule = Rule {
    label: "placed scores + rank term, names x2 (session 10's engine)",
    k: 20.0,
    rrf: 1.0,
    names: 0.0,
    names_flat: 2.0,
    names_sq: false,
    lex: 1.0,
    dense: 1.0,
    absolute: false,
};

pub const RULES: &[Rule] = &[
    Rule {
        label: "rank fusion, k 20, names 3/(k+rank) (session 9's engine)",
        names: 3.0,
        names_flat: 0.0,
        lex: 0.0,
        dense: 0.0,
        ..PLACED
    },
    Rule {
        label: "plain rank fusion, k 60",
        k: 60.0,
        names_flat: 0.0,
        lex: 0.0,
        dense: 0.0,
        ..PLACED
    },
    PLACED,
    Rule {
        label: "placed scores + rank term, names x2 squared score (the engine now)",
        names_sq: true,
        ..PLACED
    },
    Rule {
        label: "placed scores + rank term, names 3/(k+rank)",
        names: 3.0,
        names_flat: 0.0,
        ..PLACED
    },
    Rule {
        label: "placed scores, dense x0.7",
        dense: 0.7,
        ..PLACED
    },
    Rule {
        label: "placed scores, dense on e5's scale",
        absolute: true,
        ..PLACED
    },
];

/// Whether the fusion comparison runs (always, unless LLMOPS_BENCH_XLING_FUSION=0).
pub fn enabled() -> bool {
    !super::switched_off("LLMOPS_BENCH_XLING_FUSION")
}

/// Rows of every rule on one set: recall@3 and MRR.
pub fn rows(out: &mut String, set: &str, pairs: &[(String, String)], engines: &[(&str, &Engine)]) {
    for (tag, e) in engines {
        one(out, &format!("{set}, {tag}"), pairs, e);
    }
}

fn one(out: &mut String, set: &str, pairs: &[(String, String)], e: &Engine) {
    let lists: Vec<RetrieverFiles> = pairs
        .iter()
        .map(|(_, q)| {
            e.retriever_files("bench", q, Scope::All)
                .unwrap_or_default()
        })
        .collect();
    for rule in RULES {
        let (_, r3, mrr) = super::ranks_to_recall(
            pairs
                .iter()
                .zip(&lists)
                .map(|((name, _), f)| rule.rank(f).iter().position(|n| n == name)),
        );
        out.push_str(&format!(
            "| {set} | {} | {r3:.3} | {mrr:.3} |\n",
            rule.label
        ));
    }
}
