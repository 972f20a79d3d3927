//! Ranking helpers: file-name scores (exact, stem, substring, fuzzy), lexical coverage of a
//! chunk, snippet choice, dense weighting by query coverage, and reciprocal rank fusion.
//! Pure functions, no I/O.

use crate::analyzers::glossary::Translation;
use crate::chunker::is_cjk;

/// Reciprocal rank constant of the agreement term fusion adds to each retriever's placed
/// score: small next to the scores (at most 1/21), it breaks their ties in favour of a file
/// both retrievers found.
pub const RRF_K: f32 = 20.0;

/// Reciprocal rank term for a 0-based rank.
pub fn rrf(weight: f32, rank: usize) -> f32 {
    weight / (RRF_K + rank as f32 + 1.0)
}

/// Weight of query coverage in the final order of the results whose text is read (the
/// head of the fused list): BM25 has no coordination factor, so a chunk matching one rare
/// word of a question can outscore one matching all of its common words (`数据库端口是多少`:
/// a Chinese note mentioning 数据库 over the YAML file with `database:` and `port:`).
pub const COVERAGE_WEIGHT: f32 = 0.5;

/// Weight of proximity in the head's final order (`window_coverage`: the best share of an
/// English question's words within `PROXIMITY_LINES` adjacent lines of the chunk). A config
/// answers in a line or two (`upstream orders_api {` over its `server` lines), a runbook
/// or a man page that mentions everything spreads the words over a chunk; coverage alone
/// cannot tell them apart. Not for questions with Chinese in them: proximity of their
/// translated senses cost the Chinese -> English sets recall@3 (tuning part 0.835 ->
/// 0.797), since a translation's senses are alternatives, not words written together.
/// xling bench, session 20 (benchmarks.md): MRR up on the English rows of the five ops
/// sets it was measured on and English NAME (0.874 -> 0.885), recall@3 level or up;
/// English questions about a Chinese runbook lose a little (MRR -0.01), and the sixth,
/// blind set written afterwards: recall@3 level, MRR alone 0.869 -> 0.859.
pub const PROXIMITY_WEIGHT: f32 = 0.5;

/// Lines in a proximity window (2 and 4 measured: 3 best).
pub const PROXIMITY_LINES: usize = 3;

/// Weight of a file-name match in fusion, on the scale of the retrievers' placed scores
/// (each at most 1): an exact name (score 1) counts as much as being both retrievers'
/// best, so `config.yaml` finds that file first.
pub const NAME_WEIGHT: f32 = 2.0;

/// A file-name match's part of a file's fused score: `NAME_WEIGHT` times the squared name
/// score. Squared because a name holding one of a question's words (`read timeout` and
/// `timeout.1`, score 0.3) is weak evidence, an exact or stem match (0.95 to 1) strong:
/// linear, the weak match alone outweighed a retriever's best file. xling bench, fusion
/// rules on the same candidates, session 11: English NAME -> page recall@3 0.923 -> 0.930,
/// ops files MRR 0.608 -> 0.618, the Chinese sets unchanged.
pub fn name_part(score: f32) -> f32 {
    NAME_WEIGHT * score * score
}

/// Where a retriever's scores sit between a low and a high mark, in [0, 1]: fusion adds
/// them up (CombSUM, plus a small reciprocal-rank term). Against reciprocal rank fusion
/// alone (constants 20 and 60) on the same candidates, man-page known-item search
/// recall@3 rose 0.910 -> 0.930 (English, 300 pages) and 0.910 -> 0.960 (Chinese, 100
/// pages), ops files 0.636 -> 0.818: rank fusion throws away how far ahead a retriever's
/// first file is.
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
pub fn placed(scale: Scale, x: f32, rank: usize) -> f32 {
    scale.place(x) + rrf(1.0, rank)
}

/// How much dense evidence counts for a query the embedder represents `coverage` of.
/// MiniLM turns most Chinese characters into [UNK]: below half coverage dense says nothing
/// useful, and partial coverage weighs in steeply less.
pub fn dense_weight(coverage: f32) -> f32 {
    if coverage < 0.5 {
        0.0
    } else {
        ((coverage - 0.5) / 0.5).clamp(0.0, 1.0).powi(2)
    }
}

/// Default weight of dense evidence for an English chunk on a Chinese question
/// (`EngineConfig::cross_dense`): e5 finds English pages from Chinese questions less well
/// than BM25 over the translated query does (xling bench, tuning part, session 11: dense
/// recall@3 0.57, lexical 0.62; 0.5 when dense scored 0.48), so its votes across languages
/// count less.
pub const CROSS_DENSE_WEIGHT: f32 = 0.7;

/// Weight of a Chinese question's translation in the vector that scans English chunks
/// (`mix_translation`; the question's own vector weighs 1): e5 reads a Chinese question
/// against English text poorly and the dictionary renders nearly every word of it. xling
/// bench, tuning part, dense recall@3 by weight: 1 -> 0.48, 2 -> 0.53, 3 -> 0.54,
/// 6 -> 0.58, with hybrid MRR best at 2 to 3. An English question's translation (the
/// glossary's few terms) keeps weight 1: it renders a fragment of the question.
pub const TRANSLATION_WEIGHT: f32 = 3.0;

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

/// Maps a cosine similarity of unit vectors to [0, 1] evidence. Sentence embeddings put
/// unrelated texts around 0-0.2 and close paraphrases at 0.7+.
pub fn dense_evidence(cos: f32) -> f32 {
    dense_evidence_in(cos, (0.1, 0.7))
}

/// `dense_evidence` on an embedder's own scale (`Embedder::cos_scale`: unrelated, close).
pub fn dense_evidence_in(cos: f32, (lo, hi): (f32, f32)) -> f32 {
    ((cos - lo) / (hi - lo).max(1e-3)).clamp(0.0, 1.0)
}

/// Words of a question the result threshold expects a relevant chunk to cover a share
/// of; a longer question's content counts up to 1.5x against the threshold.
pub const FULL_QUESTION_WORDS: f32 = 6.0;

/// Simple query words (lower-cased, 2+ chars or digits) and CJK bigrams, for file names
/// and snippets.
pub fn simple_tokens(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut push = |t: String| {
        if !out.contains(&t) && out.len() < 48 {
            out.push(t);
        }
    };
    let lower = query.to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if is_cjk(c) {
            let s = i;
            while i < chars.len() && is_cjk(chars[i]) {
                i += 1;
            }
            if i - s == 1 {
                push(chars[s].to_string());
            } else {
                for w in chars[s..i].windows(2) {
                    push(w.iter().collect());
                }
            }
        } else if c.is_alphanumeric() || c == '_' {
            let s = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_')
                && !is_cjk(chars[i])
            {
                i += 1;
            }
            let w: String = chars[s..i].iter().collect();
            if (w.chars().count() >= 2 || w.chars().all(|c| c.is_ascii_digit()))
                && !crate::analyzers::STOPWORDS.contains(&w.as_str())
            {
                push(w);
            }
        } else {
            i += 1;
        }
    }
    // The words of identifiers too (`readTimeout` -> `read`, `timeout`): a chunk with the
    // prose form covers them.
    for c in crate::analyzers::ident::compounds(query) {
        for w in c.words {
            let w = w.to_lowercase();
            if (w.chars().count() >= 2 || w.chars().all(|c| c.is_ascii_digit()))
                && !crate::analyzers::STOPWORDS.contains(&w.as_str())
            {
                push(w);
            }
        }
    }
    out
}

fn levenshtein(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            cur[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Score of a file name against the query, in [0, 1]: exact 1.0, stem 0.95, substring 0.9,
/// a near miss of the whole name up to 0.85, shared words up to 0.6 (`tokens`: the
/// query's `simple_tokens`, each word one unit).
pub fn filename_score(filename: &str, query: &str, tokens: &[String]) -> f32 {
    filename_score_units(filename, query, &SenseUnits::from_tokens(tokens))
}

/// `filename_score` with the query's words as units: a Chinese question's are the words
/// of its translation (file names are mostly English: `nginx 超时设置` counted as `nginx`
/// and three CJK bigrams no name shares had a quarter in common with `nginx.conf`, as its
/// translation `nginx timeout settings` it has a third, as the English question has).
pub fn filename_score_units(filename: &str, query: &str, words: &SenseUnits) -> f32 {
    let name = filename.to_lowercase();
    let q = query.trim().to_lowercase();
    if q.is_empty() {
        return 0.0;
    }
    if name == q {
        return 1.0;
    }
    let stem = name.rsplit_once('.').map(|(s, _)| s).unwrap_or(&name);
    if stem == q {
        return 0.95;
    }
    if q.chars().count() >= 4 && !q.contains(' ') && name.contains(&q) {
        return 0.9;
    }
    let (nc, qc): (Vec<char>, Vec<char>) = (name.chars().collect(), q.chars().collect());
    let mut best: f32 = 0.0;
    if nc.len() <= 128 && qc.len() <= 128 && !q.contains(' ') {
        let dist = levenshtein(&nc, &qc) as f32;
        let ratio = 1.0 - dist / nc.len().max(qc.len()) as f32;
        if ratio >= 0.75 {
            best = 0.85 * ratio;
        }
    }
    best.max(0.6 * words.name_share(&name))
}

/// A chunk's words for coverage: its text, its key paths (`with_context`) and the name of
/// its file, which says what the text is about when the text does not (`maxmemory 6gb` in
/// `redis.conf` answers `redis 最大内存`; nginx.conf's `proxy_read_timeout` never says
/// `nginx`). A word counts in the name
/// only with 3+ characters (`in_name`, as for the name share).
pub struct ChunkWords<'a> {
    text_lower: &'a str,
    name_lower: &'a str,
    /// The chunk's lower-cased key paths (`ChunkDoc::context`): the blocks its keys sit
    /// in count as its words (`memory: 2Gi` under `containers:` is a container's memory).
    context_lower: &'a str,
}

impl<'a> ChunkWords<'a> {
    pub fn new(text_lower: &'a str, name_lower: &'a str) -> ChunkWords<'a> {
        ChunkWords {
            text_lower,
            name_lower,
            context_lower: "",
        }
    }

    /// The same words with the chunk's lower-cased key paths.
    pub fn with_context(self, context_lower: &'a str) -> ChunkWords<'a> {
        ChunkWords {
            context_lower,
            ..self
        }
    }

    fn has(&self, t: &str) -> bool {
        self.text_lower.contains(t) || self.context_lower.contains(t) || in_name(self.name_lower, t)
    }
}

/// The question's typed words for coverage, each with the stem an inflected one also
/// counts by (`servers` covers a text that says `server`: a substring test already lets
/// `server` cover `servers`, not the other way round). Built once per question: the
/// stems are looked up for every chunk and window of the head.
#[derive(Debug, Clone, Default)]
pub struct TypedWords {
    words: Vec<(String, Option<String>)>,
}

impl TypedWords {
    /// `tokens`: the question's `simple_tokens`.
    pub fn new(tokens: &[String]) -> TypedWords {
        TypedWords {
            words: tokens
                .iter()
                .map(|t| (t.clone(), inflection_stem(t)))
                .collect(),
        }
    }

    /// Share of the words among a chunk's words (lower-cased substring tests, an inflected
    /// word also by its stem), in [0, 1].
    pub fn coverage_in(&self, words: &ChunkWords) -> f32 {
        if self.words.is_empty() {
            return 0.0;
        }
        let hit = self
            .words
            .iter()
            .filter(|(t, stem)| words.has(t) || stem.as_deref().is_some_and(|s| words.has(s)))
            .count();
        hit as f32 / self.words.len() as f32
    }
}

/// The best coverage (`covered`) of any `PROXIMITY_LINES` adjacent lines of a chunk's
/// lower-cased text (its file's name and title, `analyzers::title`, count in each window,
/// as in the whole chunk's).
/// `whole`: the whole chunk's coverage, which no window exceeds, so the scan stops there.
pub fn window_coverage(
    text_lower: &str,
    name_lower: &str,
    title_lower: &str,
    covered: &dyn Fn(&ChunkWords) -> f32,
    whole: f32,
) -> f32 {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(text_lower.match_indices('\n').map(|(i, _)| i + 1))
        .filter(|&i| i < text_lower.len())
        .collect();
    let mut best = 0.0f32;
    for (k, &a) in starts.iter().enumerate() {
        if best >= whole {
            break;
        }
        let b = starts
            .get(k + PROXIMITY_LINES)
            .map_or(text_lower.len(), |&e| e);
        let words = ChunkWords::new(&text_lower[a..b], name_lower).with_context(title_lower);
        best = best.max(covered(&words));
        if b == text_lower.len() {
            break;
        }
    }
    best
}

/// The Porter stem of an inflected English word of 4+ letters when it is shorter (and 3+
/// letters): `servers` -> `server`, `timeouts` -> `timeout`, `logs` -> `log`.
fn inflection_stem(t: &str) -> Option<String> {
    if t.len() < 4 || !t.bytes().all(|b| b.is_ascii_lowercase()) {
        return None;
    }
    let s = crate::analyzers::english_stem(t);
    (s.len() >= 3 && s.len() < t.len()).then_some(s)
}

/// Whether a lower-cased file name holds a query word: only words of 3+ characters count
/// (`db` or `io` inside a name is chance).
fn in_name(name_lower: &str, t: &str) -> bool {
    t.chars().count() >= 3 && name_lower.contains(t)
}

/// The translated question's words for coverage, one unit per translated word: any of the
/// word's senses covers it, a weaker one by its weight's share of the strongest's (`最后`
/// translated `final`, its second sense `last` at 0.56 against 0.8: a page that says
/// `last` covers that word at 0.7 instead of missing it), and one unit per other word of
/// the translated text (an English word kept as typed). A sense of several words counts
/// when all are present.
#[derive(Debug, Clone, Default)]
pub struct SenseUnits {
    /// Per unit: its alternatives (simple tokens, share of the unit's strongest weight).
    units: Vec<Vec<(Vec<String>, f32)>>,
}

impl SenseUnits {
    /// `text`: the simple tokens of `tr.text` (`simple_tokens`), which the caller has.
    pub fn new(tr: &Translation, text: &[String]) -> SenseUnits {
        let mut claimed: Vec<String> = Vec::new();
        let mut units = Vec::new();
        for g in &tr.groups {
            let top = g.iter().map(|&i| tr.weight(i)).fold(0.0f32, f32::max);
            if top <= 0.0 {
                continue;
            }
            let alts: Vec<(Vec<String>, f32)> = g
                .iter()
                .filter_map(|&i| {
                    let toks = simple_tokens(tr.terms.get(i)?);
                    (!toks.is_empty()).then(|| (toks, tr.weight(i) / top))
                })
                .collect();
            // Only words the translated text says (a compound of two pieces is an extra
            // alternative of the query, not a word it asks for), each once (`文件` twice
            // in a question is one word to cover, as in `coverage_in`).
            let Some((first, _)) = alts.first() else {
                continue;
            };
            if !first.iter().all(|t| text.contains(t)) || first.iter().all(|t| claimed.contains(t))
            {
                continue;
            }
            claimed.extend(first.iter().cloned());
            units.push(alts);
        }
        for t in text {
            if !claimed.contains(t) {
                units.push(vec![(vec![t.clone()], 1.0)]);
            }
        }
        SenseUnits { units }
    }

    /// Each token one unit (an English question's words for a file name).
    pub fn from_tokens(tokens: &[String]) -> SenseUnits {
        SenseUnits {
            units: tokens
                .iter()
                .map(|t| vec![(vec![t.clone()], 1.0)])
                .collect(),
        }
    }

    /// Share of the units a chunk's words cover (lower-cased substring tests), in [0, 1].
    pub fn coverage_in(&self, words: &ChunkWords) -> f32 {
        self.share(|t| words.has(t))
    }

    /// Share of the units a lower-cased file name covers (`in_name`).
    pub fn name_share(&self, name_lower: &str) -> f32 {
        self.share(|t| in_name(name_lower, t))
    }

    fn share(&self, has: impl Fn(&str) -> bool) -> f32 {
        if self.units.is_empty() {
            return 0.0;
        }
        let covered: f32 = self
            .units
            .iter()
            .map(|alts| {
                alts.iter()
                    .filter(|(toks, _)| toks.iter().all(|t| has(t)))
                    .map(|a| a.1)
                    .fold(0.0f32, f32::max)
            })
            .sum();
        covered / self.units.len() as f32
    }
}

/// A chunk's text from the start of the line holding its first non-blank character: the
/// line a chunk's `first_line` numbers.
pub(crate) fn from_first_line(text: &str) -> &str {
    let lead = text.len() - text.trim_start().len();
    &text[text[..lead].rfind('\n').map_or(0, |i| i + 1)..]
}

/// The most relevant part of a chunk, at most `max_chars`, and its 1-based line range
/// (the chunk's first non-blank line is `first_line`): the lines that fit in `max_chars`
/// from a start line, the start whose lines `covered` scores best (the question's words
/// in them, the file's name and title counting in each; none: every start alike), then
/// whose first line holds the most of the distinct `tokens` (a token the lower-cased file
/// name `name_lower` or title `title_lower` holds counting half: `nginx` on any line of
/// nginx.conf says less than `timeout`), then the first.
pub fn snippet(
    text: &str,
    first_line: u32,
    tokens: &[String],
    name_lower: &str,
    title_lower: &str,
    max_chars: usize,
    covered: Option<&dyn Fn(&ChunkWords) -> f32>,
) -> (String, u32, u32) {
    // Each distinct token once (a question's word and the same word in its translation
    // counted twice made `nginx` outweigh `timeout`), with its weight.
    let mut weighted: Vec<(&str, f32)> = Vec::new();
    for t in tokens {
        if !weighted.iter().any(|(w, _)| *w == t.as_str()) {
            let about =
                in_name(name_lower, t) || (!t.is_empty() && title_lower.contains(t.as_str()));
            let w = if about { 0.5 } else { 1.0 };
            weighted.push((t.as_str(), w));
        }
    }
    let body = from_first_line(text);
    let lines: Vec<&str> = body.lines().collect();
    if lines.is_empty() {
        return (String::new(), first_line, first_line);
    }
    let low: Vec<String> = lines.iter().map(|l| l.trim().to_lowercase()).collect();
    // The lines shown from start `i`: non-blank ones while they fit (the first always).
    let window = |i: usize| -> String {
        let (mut w, mut chars) = (String::new(), 0usize);
        for l in low[i..].iter().filter(|l| !l.is_empty()) {
            let n = l.chars().count();
            if !w.is_empty() {
                if chars + 1 + n > max_chars {
                    break;
                }
                w.push('\n');
                chars += 1;
            }
            w.push_str(l);
            chars += n;
        }
        w
    };
    let mut best = (0usize, (f32::MIN, f32::MIN));
    for (i, l) in low.iter().enumerate() {
        if l.is_empty() {
            continue;
        }
        let first: f32 = weighted
            .iter()
            .filter(|(t, _)| l.contains(t))
            .map(|(_, w)| w)
            .sum();
        let cov = covered.map_or(0.0, |c| {
            c(&ChunkWords::new(&window(i), name_lower).with_context(title_lower))
        });
        let key = (cov, first);
        if key.0 > best.1 .0 || (key.0 == best.1 .0 && key.1 > best.1 .1) {
            best = (i, key);
        }
    }
    let mut out = String::new();
    let mut count = 0usize;
    let mut last = best.0;
    for (i, l) in lines.iter().enumerate().skip(best.0) {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        let room = max_chars.saturating_sub(count + usize::from(!out.is_empty()));
        if room == 0 {
            break;
        }
        if !out.is_empty() {
            out.push('\n');
            count += 1;
        }
        let part: String = l.chars().take(room).collect();
        count += part.chars().count();
        out.push_str(&part);
        last = i;
    }
    (out, first_line + best.0 as u32, first_line + last as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `TypedWords::coverage_in` of a text without a file name.
    fn coverage(text: &str, tokens: &[String]) -> f32 {
        TypedWords::new(tokens).coverage_in(&ChunkWords::new(text, ""))
    }

    /// `SenseUnits::coverage_in` of a text without a file name.
    fn units_coverage(u: &SenseUnits, text: &str) -> f32 {
        u.coverage_in(&ChunkWords::new(text, ""))
    }

    #[test]
    fn index_rank_sense_units_count_any_sense() {
        // `reverse`, `output` (or `print`, its second sense at 0.56 / 0.8 = 0.7), `file`, a
        // compound the text does not say, and `gzip` kept as typed.
        let tr = Translation {
            terms: ["reverse", "output", "print", "file", "outputfile"]
                .map(String::from)
                .to_vec(),
            text: "reverse output file gzip".into(),
            weights: vec![1.0, 0.8, 0.56, 1.0, 0.8],
            groups: vec![vec![0], vec![1, 2], vec![3], vec![4]],
            runs: vec![],
        };
        let u = SenseUnits::new(&tr, &simple_tokens(&tr.text));
        let text = "print the file in reverse";
        // 4 units: reverse 1 + print 0.7 + file 1 + gzip 0.
        assert!(
            (units_coverage(&u, text) - 2.7 / 4.0).abs() < 1e-6,
            "{}",
            units_coverage(&u, text)
        );
        // The text's tokens alone would give 2 of 4.
        assert_eq!(coverage(text, &simple_tokens(&tr.text)), 0.5);
        assert_eq!(units_coverage(&u, "reverse output file gzip"), 1.0);
        assert_eq!(units_coverage(&u, "nothing here"), 0.0);
        // A sense of several words counts only whole.
        let tr = Translation {
            terms: vec!["routing table".into(), "route".into()],
            text: "routing table".into(),
            weights: vec![1.0, 1.0],
            groups: vec![vec![0, 1]],
            runs: vec![],
        };
        let u = SenseUnits::new(&tr, &simple_tokens(&tr.text));
        assert_eq!(units_coverage(&u, "the routing of packets"), 0.0);
        assert_eq!(units_coverage(&u, "a route"), 1.0);
        // Without groups (the glossary alone): the text's words.
        let tr = Translation {
            terms: vec!["磁盘".into()],
            text: "磁盘 使用".into(),
            ..Translation::default()
        };
        assert_eq!(
            units_coverage(&SenseUnits::new(&tr, &simple_tokens(&tr.text)), "磁盘空间"),
            0.5
        );
        // A word the question says twice (`压缩文件并保留原始文件`) is one unit: `file`,
        // `keep`, `original`; a text with `file` alone covers a third.
        let tr = Translation {
            terms: ["file", "keep", "original"].map(String::from).to_vec(),
            text: "file keep original file".into(),
            weights: vec![1.0; 3],
            groups: vec![vec![0], vec![1], vec![2], vec![0]],
            runs: vec![],
        };
        let u = SenseUnits::new(&tr, &simple_tokens(&tr.text));
        assert!(
            (units_coverage(&u, "a file") - 1.0 / 3.0).abs() < 1e-6,
            "{}",
            units_coverage(&u, "a file")
        );
        assert_eq!(units_coverage(&SenseUnits::default(), "x"), 0.0);
    }

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
    fn index_rank_filename_scores() {
        let t = simple_tokens("config.yaml");
        assert_eq!(filename_score("config.yaml", "config.yaml", &t), 1.0);
        assert_eq!(
            filename_score("CONFIG.yaml", "config", &simple_tokens("config")),
            0.95
        );
        assert!(filename_score("conifg.yaml", "config.yaml", &t) > 0.6);
        assert_eq!(filename_score("readme.md", "config.yaml", &t), 0.0);
        assert!(
            filename_score(
                "nginx.conf",
                "how to tune nginx",
                &simple_tokens("how to tune nginx")
            ) > 0.0
        );
        // In fusion: a name sharing words with the question (at most 0.6) is worth less
        // than one retriever's best file (placed score 1); an exact name as much as both
        // retrievers' best, a stem nearly so.
        let q = "read timeout";
        let shared = filename_score("timeout.1", q, &simple_tokens(q));
        assert!(shared > 0.0 && shared <= 0.6, "{shared}");
        assert!(name_part(0.6) < 1.0);
        assert_eq!(
            name_part(filename_score("config.yaml", "config.yaml", &t)),
            2.0
        );
        assert!(name_part(0.95) > 1.8);
    }

    #[test]
    fn index_rank_chinese_question_shares_name_words_through_its_translation() {
        let q = "nginx 访问日志";
        let tr = crate::analyzers::translate::translate(q);
        let units = SenseUnits::new(&tr, &simple_tokens(&tr.text));
        let name = "nginx-access.log";
        // As typed, three of its four tokens are CJK bigrams no file name holds: a quarter
        // shared, under the 0.3 floor of `filename_matches`.
        assert!(filename_score(name, q, &simple_tokens(q)) < 0.3);
        // Through the translation (nginx, access log) the name holds every word.
        let s = filename_score_units(name, q, &units);
        assert!((s - 0.6).abs() < 1e-6, "{s} {tr:?}");
        assert_eq!(filename_score_units("redis.conf", q, &units), 0.0);
    }

    #[test]
    fn index_rank_snippet_and_weights() {
        let text = "\n\nalpha\nbeta gamma\nport: 5432 database\nlast";
        let (s, a, b) = snippet(text, 3, &simple_tokens("database port"), "", "", 200, None);
        assert_eq!(s, "port: 5432 database\nlast");
        assert_eq!((a, b), (5, 6));
        let (s, _, _) = snippet(&"x".repeat(500), 1, &[], "", "", 200, None);
        assert_eq!(s.chars().count(), 200);
        // A word said twice (the question's and its translation's) counts once, and the
        // file's own name counts half: the timeout line, not the line naming nginx.
        let conf = "location / {\n    proxy_read_timeout 20s;\n}\nroot /usr/share/nginx/html;";
        let toks: Vec<String> = ["nginx", "timeout", "nginx"].map(String::from).to_vec();
        let (s, a, _) = snippet(conf, 10, &toks, "nginx.conf", "", 200, None);
        assert!(s.starts_with("proxy_read_timeout"), "{s}");
        assert_eq!(a, 11);
        // With the question's coverage: the start whose 200 characters hold most of it.
        // Line 1 holds `timeout` and fills a window of its own (204 characters); lines 3-5
        // hold both words.
        let text = format!(
            "timeout notes {}\nfiller\nread timeout: 30s\nretries: 3\nmax retries apply",
            "x".repeat(190)
        );
        let typed = TypedWords::new(&simple_tokens("timeout retries"));
        let covered = |w: &ChunkWords| typed.coverage_in(w);
        let toks = simple_tokens("timeout retries");
        let (s, a, _) = snippet(&text, 1, &toks, "", "", 200, None);
        assert_eq!(a, 1, "{s}");
        let (s, a, _) = snippet(&text, 1, &toks, "", "", 200, Some(&covered));
        assert_eq!(a, 3, "{s}");
        assert!(s.starts_with("read timeout: 30s\nretries: 3"), "{s}");
        assert_eq!(dense_weight(0.3), 0.0);
        assert_eq!(dense_weight(1.0), 1.0);
        assert!(dense_weight(0.8) < 0.5);
        assert!(rrf(1.0, 0) > rrf(1.0, 1));
        assert_eq!(simple_tokens("数据库 the nginx"), ["数据", "据库", "nginx"]);
        assert!(query_is_cjk("nginx 超时设置"));
        assert!(query_is_cjk("数据库端口"));
        assert!(!query_is_cjk("restart nginx and check the 日志"));
        assert!(!query_is_cjk("disk usage"));
    }

    #[test]
    fn index_rank_identifier_tokens_cover_both_forms() {
        let t = simple_tokens("readTimeout");
        assert_eq!(t, ["readtimeout", "read", "timeout"]);
        // The prose form covers the identifier's words, the identifier covers all.
        assert!((coverage("the read timeout is 30s", &t) - 2.0 / 3.0).abs() < 1e-6);
        assert_eq!(coverage("readtimeout = 30", &t), 1.0);
        let t = simple_tokens("proxy_read_timeout");
        assert_eq!(t, ["proxy_read_timeout", "proxy", "read", "timeout"]);
        assert_eq!(coverage("proxy_read_timeout 60s;", &t), 1.0);
        let t = simple_tokens("proxy read timeout");
        assert_eq!(coverage("proxy_read_timeout 60s;", &t), 1.0);
    }

    #[test]
    fn index_rank_window_coverage_takes_the_best_adjacent_lines() {
        let t = TypedWords::new(&simple_tokens("redis max memory"));
        let covered = |w: &ChunkWords| t.coverage_in(w);
        let windows = |text: &str, name: &str| {
            window_coverage(
                text,
                name,
                "",
                &covered,
                covered(&ChunkWords::new(text, name)),
            )
        };
        assert_eq!(windows("", ""), 0.0);
        // Fewer lines than a window: the whole text, without a trailing newline too.
        assert_eq!(windows("maxmemory 6gb", "redis.conf"), 1.0);
        let far = "redis 7 config\nbind 10.0.0.5\nport 6379\ntimeout 0\nmaxmemory 6gb\n";
        assert!((windows(far, "") - 2.0 / 3.0).abs() < 1e-6);
        // The file's name counts in every window, as in the chunk's coverage.
        assert_eq!(windows(far, "redis.conf"), 1.0);
        // No window exceeds the ceiling it is given: the scan stops once one reaches it.
        assert_eq!(window_coverage(far, "", "", &covered, 1.0 / 3.0), 1.0 / 3.0);
    }

    #[test]
    fn index_rank_inflected_question_words_cover_their_stem() {
        // The plural in the question, the singular in the config, and the other way round.
        let t = simple_tokens("backend servers timeouts");
        let text = "upstream orders_api { server 10.0.0.1:8081 max_fails=3 fail_timeout=10s; }";
        assert!((coverage(text, &t) - 2.0 / 3.0).abs() < 1e-6);
        assert_eq!(
            coverage("the servers' timeouts", &simple_tokens("server timeout")),
            1.0
        );
        // The file name counts as before (`nginx logs` and `access.log`).
        let words = ChunkWords::new("combined format", "access.log");
        let nginx_logs = TypedWords::new(&simple_tokens("nginx logs"));
        assert_eq!(nginx_logs.coverage_in(&words), 0.5);
        // Short words, identifiers and words the stemmer keeps are looked up as typed.
        assert_eq!(inflection_stem("ssl"), None);
        assert_eq!(inflection_stem("max_fails"), None);
        assert_eq!(inflection_stem("nginx"), None);
        assert_eq!(inflection_stem("servers").as_deref(), Some("server"));
    }
}
