//! The general Chinese -> English dictionary of query translation: CC-CEDICT compiled by
//! `scripts/cedict.sh` into `data/cedict.tsv` (about 100k headwords, CC BY-SA 4.0, built into
//! the binary). The file is sorted by headword, so a lookup is a binary search over its
//! bytes: nothing is parsed or indexed at start-up. Also the segmentation of a Chinese
//! query into dictionary words, and the weighting of a word's senses.

use std::cmp::Ordering;

const CEDICT: &str = include_str!("../../data/cedict.tsv");

/// Longest headword segmentation tries, in characters.
pub const MAX_WORD: usize = 8;
/// At most this many English terms per Chinese word.
const MAX_TERMS: usize = 4;
/// A term below this share of the word's strongest term is dropped.
const MIN_SHARE: f32 = 0.3;
/// Weight of a gloss by its position: the first sense is the commonest.
const POSITION_WEIGHT: [f32; 8] = [1.0, 0.7, 0.5, 0.4, 0.3, 0.25, 0.2, 0.2];

/// The compiled dictionary: `headword<TAB>gloss|gloss...` lines sorted by headword, after a
/// `#` header.
pub struct Dict {
    body: &'static str,
}

/// The dictionary built into the binary.
pub fn dict() -> &'static Dict {
    static D: std::sync::OnceLock<Dict> = std::sync::OnceLock::new();
    D.get_or_init(|| Dict::new(CEDICT))
}

impl Dict {
    /// `text` must be sorted by headword (byte order), as `scripts/cedict.py` writes it.
    pub fn new(text: &'static str) -> Dict {
        // The header is the leading `#` lines.
        let mut start = 0;
        while text[start..].starts_with('#') {
            match text[start..].find('\n') {
                Some(i) => start += i + 1,
                None => {
                    start = text.len();
                    break;
                }
            }
        }
        Dict {
            body: &text[start..],
        }
    }

    /// Number of headwords (a full scan: for tests and diagnostics, not the query path).
    pub fn len(&self) -> usize {
        self.body.lines().filter(|l| l.contains('\t')).count()
    }

    pub fn is_empty(&self) -> bool {
        self.body.is_empty()
    }

    /// The `|`-separated glosses of `word`, commonest first.
    pub fn glosses(&self, word: &str) -> Option<&'static str> {
        let body: &'static str = self.body;
        let b = body.as_bytes();
        // Invariant: `lo` and `hi` are line starts (or the end); the word, if present, is
        // on a line in [lo, hi).
        let (mut lo, mut hi) = (0usize, b.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let s = b[lo..mid]
                .iter()
                .rposition(|&c| c == b'\n')
                .map_or(lo, |p| lo + p + 1);
            let e = b[s..hi]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(hi, |p| s + p);
            let line = &body[s..e];
            let (head, gloss) = line.split_once('\t').unwrap_or((line, ""));
            match head.cmp(word) {
                Ordering::Equal => return Some(gloss),
                Ordering::Less => lo = (e + 1).min(hi),
                Ordering::Greater => hi = s,
            }
        }
        None
    }

    pub fn contains(&self, word: &str) -> bool {
        self.glosses(word).is_some()
    }

    /// The English terms of `word` with weights in (0, 1], strongest first: each gloss
    /// weighs by its position (`POSITION_WEIGHT`), words of long glosses (3+ words, usually
    /// a description) less, and a word found in several glosses adds up (`compress` in
    /// `compress|compression`); then scaled so the strongest is 1, weak ones dropped.
    pub fn terms(&self, word: &str) -> Vec<(String, f32)> {
        let Some(glosses) = self.glosses(word) else {
            return vec![];
        };
        weigh(glosses)
    }

    /// Every English word of `word`'s glosses (at most `n`), weighted as `terms` weighs
    /// them but none dropped: the candidates a sense scorer re-orders
    /// (`translate::SenseScorer`).
    pub fn candidates(&self, word: &str, n: usize) -> Vec<(String, f32)> {
        let mut all = self.glosses(word).map(weigh_all).unwrap_or_default();
        all.truncate(n);
        all
    }
}

/// Weighted terms of a `|`-separated gloss list (see `Dict::terms`).
pub fn weigh(glosses: &str) -> Vec<(String, f32)> {
    let mut acc = weigh_all(glosses);
    acc.retain(|x| x.1 >= MIN_SHARE);
    acc.truncate(MAX_TERMS);
    acc
}

/// Each English word of a gloss list, weighted by the positions of the glosses it occurs
/// in relative to the strongest word, strongest first.
fn weigh_all(glosses: &str) -> Vec<(String, f32)> {
    let mut acc: Vec<(String, f32)> = Vec::new();
    for (i, g) in glosses.split('|').enumerate() {
        let gw = POSITION_WEIGHT[i.min(POSITION_WEIGHT.len() - 1)];
        let words: Vec<&str> = g.split_whitespace().collect();
        let ww = if words.len() >= 3 { 0.7 } else { 1.0 };
        for w in words {
            match acc.iter_mut().find(|(t, _)| t == w) {
                Some(e) => e.1 += gw * ww,
                None => acc.push((w.to_string(), gw * ww)),
            }
        }
    }
    let top = acc.iter().map(|x| x.1).fold(0.0f32, f32::max);
    if top <= 0.0 {
        return vec![];
    }
    for e in &mut acc {
        e.1 = (e.1 / top).min(1.0);
    }
    // Stable: equal weights keep the dictionary's order.
    acc.sort_by(|a, b| b.1.total_cmp(&a.1));
    acc
}

/// `senses` (weighted as `weigh` gives them) re-ordered by a scorer's `scores` (same
/// order, higher = a better rendering of the word): the best-scored sense takes the first
/// position's weight, the next the second's, and so on (`POSITION_WEIGHT`); equal scores
/// keep the dictionary's order. At most `MAX_TERMS` are kept.
pub fn reorder(senses: Vec<(String, f32)>, scores: &[f32]) -> Vec<(String, f32)> {
    if scores.len() != senses.len() || scores.iter().any(|s| !s.is_finite()) {
        let mut senses = senses;
        senses.truncate(MAX_TERMS);
        return senses;
    }
    let mut order: Vec<usize> = (0..senses.len()).collect();
    order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]).then(a.cmp(&b)));
    order
        .into_iter()
        .take(MAX_TERMS)
        .enumerate()
        .map(|(rank, i)| {
            let w = POSITION_WEIGHT[rank.min(POSITION_WEIGHT.len() - 1)];
            (senses[i].0.clone(), w)
        })
        .filter(|x| x.1 >= MIN_SHARE)
        .collect()
}

/// How a lexicon knows a piece of a query, for segmentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Known {
    /// Not a word of any lexicon.
    No,
    /// A word of the dictionary.
    Word,
    /// An ops glossary term (preferred on ties).
    Term,
    /// A function word (split off first: `在后台` is `在` + `后台`, not `在后` + `台`).
    Function,
}

impl Known {
    /// The cost of a piece: the fewest pieces win, ties go to function words split off,
    /// then to glossary terms; an unknown single character costs more than any word.
    fn cost(self, chars: usize) -> Option<f32> {
        match self {
            Known::Function => Some(0.9),
            Known::Term => Some(0.95),
            Known::Word => Some(1.0),
            Known::No if chars == 1 => Some(1.2),
            Known::No => None,
        }
    }
}

/// Segments a run of CJK characters into known words: the split with the fewest pieces
/// (`Known::cost`; so `压缩率比` is `压缩率` + `比`). `known(w)` says how the lexicon knows
/// a piece.
pub fn segment(run: &[char], known: &dyn Fn(&str) -> Known) -> Vec<String> {
    let n = run.len();
    if n == 0 {
        return vec![];
    }
    // best[i] = (cost, start of the last piece) of the best split of run[..i].
    let mut best: Vec<(f32, usize)> = vec![(f32::INFINITY, 0); n + 1];
    best[0] = (0.0, 0);
    for i in 0..n {
        if !best[i].0.is_finite() {
            continue;
        }
        for len in 1..=MAX_WORD.min(n - i) {
            let w: String = run[i..i + len].iter().collect();
            let Some(cost) = known(&w).cost(len) else {
                continue;
            };
            let c = best[i].0 + cost;
            if c < best[i + len].0 {
                best[i + len] = (c, i);
            }
        }
    }
    let mut out = Vec::new();
    let mut end = n;
    while end > 0 {
        let s = best[end].1;
        out.push(run[s..end].iter().collect());
        end = s;
    }
    out.reverse();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_dict_reorder_by_scores() {
        let senses = vec![
            ("arithmetic".to_string(), 1.0),
            ("algorithm".to_string(), 0.7),
            ("method".to_string(), 0.5),
            ("calculation".to_string(), 0.4),
            ("sum".to_string(), 0.3),
        ];
        // The best-scored sense takes the first position's weight; at most MAX_TERMS.
        let r = reorder(senses.clone(), &[0.84, 0.87, 0.842, 0.837, 0.80]);
        let names: Vec<&str> = r.iter().map(|x| x.0.as_str()).collect();
        assert_eq!(names, ["algorithm", "method", "arithmetic", "calculation"]);
        let weights: Vec<f32> = r.iter().map(|x| x.1).collect();
        assert_eq!(weights, POSITION_WEIGHT[..4]);
        // Equal scores keep the dictionary's order.
        let r = reorder(senses.clone(), &[0.5; 5]);
        assert_eq!(r[0].0, "arithmetic");
        // Scores that do not fit: the dictionary's order, cut to MAX_TERMS.
        assert_eq!(reorder(senses.clone(), &[0.1]), senses[..MAX_TERMS]);
        assert_eq!(
            reorder(senses.clone(), &[f32::NAN, 0.0, 0.0, 0.0, 0.0]),
            senses[..MAX_TERMS]
        );
        // Candidates keep every word of the glosses (terms() cuts them).
        let d = dict();
        assert!(d.candidates("算法", 8).len() >= d.terms("算法").len());
    }

    #[test]
    fn index_dict_lookup_is_a_binary_search_over_the_whole_file() {
        let d = dict();
        // Whole file: every headword of a planted sample is found, first and last included.
        let heads: Vec<&str> = d
            .body
            .lines()
            .filter_map(|l| l.split_once('\t').map(|x| x.0))
            .collect();
        assert!(heads.len() > 90_000, "{}", heads.len());
        assert!(heads.windows(2).all(|w| w[0] < w[1]), "sorted, unique");
        for h in heads
            .iter()
            .step_by(997)
            .chain([heads[0], heads[heads.len() - 1]].iter())
        {
            assert!(d.contains(h), "{h}");
        }
        assert_eq!(d.glosses("挂载"), Some("mount"));
        assert!(d.glosses("压缩").is_some_and(|g| g.starts_with("compress")));
        // Absent words, including prefixes and extensions of present ones.
        assert_eq!(d.glosses("压缩文件夹啊"), None);
        assert_eq!(d.glosses(""), None);
        assert_eq!(d.glosses("zzz"), None);
    }

    #[test]
    fn index_dict_small_sorted_file_planted_truth() {
        let d = Dict::new("# header\n# more\n乙\td one|e\n甲\ta|b\n甲乙\tc\n");
        assert_eq!(d.len(), 3);
        assert_eq!(d.glosses("甲"), Some("a|b"));
        assert_eq!(d.glosses("甲乙"), Some("c"));
        assert_eq!(d.glosses("乙"), Some("d one|e"));
        assert_eq!(d.glosses("丙"), None);
        assert_eq!(Dict::new("").glosses("甲"), None);
        assert_eq!(Dict::new("# only header").glosses("甲"), None);
    }

    #[test]
    fn index_dict_weighs_senses_by_position_and_repetition() {
        // First sense first; a word in two glosses adds up; long glosses count less.
        let t = weigh("compress|compression|squeeze tight|press very hard flat");
        assert_eq!(t[0].0, "compress");
        assert_eq!(t[0].1, 1.0);
        let w = |x: &str| t.iter().find(|(a, _)| a == x).map(|p| p.1);
        assert!(
            (w("compression").unwrap_or(0.0) - 0.7).abs() < 1e-6,
            "{t:?}"
        );
        assert!(w("squeeze").unwrap_or(0.0) < 0.7, "{t:?}");
        assert!(t.len() <= MAX_TERMS);
        // Repetition: `process` in two later glosses outweighs the first sense alone.
        let t = weigh("course|process|process flow");
        assert_eq!(t[0].0, "process", "{t:?}");
        // Weak senses are dropped.
        let t = weigh("a|b|c|d|e|f|g|h");
        assert!(t.iter().all(|x| x.1 >= MIN_SHARE), "{t:?}");
        assert!(weigh("").is_empty());
    }

    #[test]
    fn index_dict_segments_with_fewest_pieces() {
        let lex = [
            "压缩",
            "压缩率",
            "文件",
            "保留",
            "原始",
            "后台",
            "在后",
            "台",
        ];
        let known = |w: &str| {
            if w == "并" || w == "在" {
                Known::Function
            } else if lex.contains(&w) {
                Known::Word
            } else {
                Known::No
            }
        };
        let chars = |s: &str| s.chars().collect::<Vec<_>>();
        assert_eq!(
            segment(&chars("压缩文件并保留原始文件"), &known),
            ["压缩", "文件", "并", "保留", "原始", "文件"]
        );
        assert_eq!(segment(&chars("压缩率比"), &known), ["压缩率", "比"]);
        assert_eq!(segment(&chars("天"), &known), ["天"]);
        // Equal piece counts: the function word is split off.
        assert_eq!(segment(&chars("在后台"), &known), ["在", "后台"]);
        assert!(segment(&[], &known).is_empty());
        // The real dictionary: a common ops sentence.
        let d = dict();
        let real = |w: &str| {
            if d.contains(w) {
                Known::Word
            } else {
                Known::No
            }
        };
        assert_eq!(
            segment(&chars("查看内存使用情况"), &real),
            ["查看", "内存", "使用", "情况"]
        );
    }
}
