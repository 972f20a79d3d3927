//! The question's words against a chunk's: the question's simple tokens, the words a
//! chunk offers (its text, key paths, title and file name), and the shares of the
//! question they cover, whole or within a few adjacent lines (coverage and proximity).

use crate::analyzers::glossary::Translation;
use crate::chunker::is_cjk;

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

/// The best coverage (`covered`) of any `lines` adjacent lines of a chunk's
/// lower-cased text (its file's name and title, `analyzers::title`, count in each window,
/// as in the whole chunk's).
/// `whole`: the whole chunk's coverage, which no window exceeds, so the scan stops there.
pub fn window_coverage(
    lines: usize,
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
        let b = starts.get(k + lines).map_or(text_lower.len(), |&e| e);
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
pub(super) fn in_name(name_lower: &str, t: &str) -> bool {
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
                3,
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
        assert_eq!(
            window_coverage(3, far, "", "", &covered, 1.0 / 3.0),
            1.0 / 3.0
        );
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
