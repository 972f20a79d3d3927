//! Intent classifier: k nearest neighbours over TF-IDF character n-gram vectors of the
//! labelled phrasings in `assets/planner/intents.jsonl`. Knows nothing about slots or tools.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use super::text::features;

/// The labelled examples, one `{"intent","text"}` object a line.
const EXAMPLES: &str = include_str!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../assets/planner/intents.jsonl"
));

/// Neighbours that vote.
const K: usize = 7;

/// What the user wants from one clause.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Intent {
    Greet,
    Thanks,
    Bye,
    Identity,
    UploadHowto,
    Explain,
    Monitor,
    Command,
    Search,
    Download,
    Read,
    Uploads,
    Danger,
}

impl Intent {
    fn from_label(s: &str) -> Option<Intent> {
        Some(match s {
            "greet" => Intent::Greet,
            "thanks" => Intent::Thanks,
            "bye" => Intent::Bye,
            "identity" => Intent::Identity,
            "upload_howto" => Intent::UploadHowto,
            "explain" => Intent::Explain,
            "monitor" => Intent::Monitor,
            "command" => Intent::Command,
            "search" => Intent::Search,
            "download" => Intent::Download,
            "read" => Intent::Read,
            "uploads" => Intent::Uploads,
            "danger" => Intent::Danger,
            _ => return None,
        })
    }
}

/// A classification with the vote share of the winner (0..=1) and the best cosine.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Prediction {
    pub intent: Intent,
    pub share: f64,
    pub best_sim: f64,
}

struct Model {
    labels: Vec<Intent>,
    idf: HashMap<String, f64>,
    /// feature -> (example index, normalised weight)
    postings: HashMap<String, Vec<(usize, f64)>>,
}

fn tf(text: &str) -> BTreeMap<String, f64> {
    let mut m = BTreeMap::new();
    for f in features(text) {
        *m.entry(f).or_insert(0.0) += 1.0;
    }
    m
}

/// One labelled example line: `{"intent": LABEL, "text": TEXT}` (other keys ignored).
#[derive(serde::Deserialize)]
struct Example {
    intent: String,
    text: String,
}

impl Model {
    fn build(src: &str) -> Model {
        let mut labels = Vec::new();
        let mut docs = Vec::new();
        for line in src.lines() {
            let Ok(ex) = serde_json::from_str::<Example>(line) else {
                continue;
            };
            if let Some(intent) = Intent::from_label(&ex.intent) {
                labels.push(intent);
                docs.push(tf(&ex.text));
            }
        }
        let n = docs.len() as f64;
        let mut df: HashMap<String, f64> = HashMap::new();
        for d in &docs {
            for f in d.keys() {
                *df.entry(f.clone()).or_insert(0.0) += 1.0;
            }
        }
        let idf: HashMap<String, f64> = df
            .into_iter()
            .map(|(f, c)| (f, ((n + 1.0) / (c + 1.0)).ln() + 1.0))
            .collect();
        let mut postings: HashMap<String, Vec<(usize, f64)>> = HashMap::new();
        for (i, d) in docs.iter().enumerate() {
            let weights: Vec<(&String, f64)> = d
                .iter()
                .map(|(f, c)| (f, (1.0 + c.ln()) * idf.get(f).copied().unwrap_or(1.0)))
                .collect();
            let norm = weights.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
            if norm == 0.0 {
                continue;
            }
            for (f, w) in weights {
                postings.entry(f.clone()).or_default().push((i, w / norm));
            }
        }
        Model {
            labels,
            idf,
            postings,
        }
    }

    fn predict(&self, text: &str) -> Option<Prediction> {
        let q = tf(text);
        // Features unseen in training carry no evidence; skip them so they do not dilute.
        let weights: Vec<(&String, f64)> = q
            .iter()
            .filter_map(|(f, c)| self.idf.get(f).map(|idf| (f, (1.0 + c.ln()) * idf)))
            .collect();
        let norm = weights.iter().map(|(_, w)| w * w).sum::<f64>().sqrt();
        if norm == 0.0 {
            return None;
        }
        let mut scores = vec![0.0f64; self.labels.len()];
        // BTreeMap order keeps the float summation order fixed, so results are reproducible.
        for (f, w) in weights {
            if let Some(list) = self.postings.get(f) {
                for &(i, dw) in list {
                    scores[i] += w / norm * dw;
                }
            }
        }
        let mut ranked: Vec<(usize, f64)> = scores.into_iter().enumerate().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let best_sim = ranked.first().map(|r| r.1).unwrap_or(0.0);
        let mut votes: BTreeMap<Intent, f64> = BTreeMap::new();
        let mut total = 0.0;
        for &(i, s) in ranked.iter().take(K) {
            // Squared similarity lets a close neighbour outvote several loose ones.
            *votes.entry(self.labels[i]).or_insert(0.0) += s * s;
            total += s * s;
        }
        let (intent, v) = votes
            .into_iter()
            .max_by(|a, b| a.1.total_cmp(&b.1).then(b.0.cmp(&a.0)))?;
        Some(Prediction {
            intent,
            share: if total > 0.0 { v / total } else { 0.0 },
            best_sim,
        })
    }
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| Model::build(EXAMPLES))
}

/// Classifies one clause; `None` when it shares no feature with any example.
pub fn classify(text: &str) -> Option<Prediction> {
    model().predict(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn top(text: &str) -> Intent {
        classify(text).map(|p| p.intent).unwrap_or(Intent::Identity)
    }

    #[test]
    fn examples_load() {
        let m = model();
        assert!(m.labels.len() > 1000, "only {} examples", m.labels.len());
        for intent in [
            Intent::Monitor,
            Intent::Search,
            Intent::Download,
            Intent::Uploads,
        ] {
            assert!(m.labels.iter().filter(|l| **l == intent).count() >= 50);
        }
    }

    #[test]
    fn classifies_unseen_phrasings() {
        assert_eq!(top("服务器内存吃紧吗"), Intent::Monitor);
        assert_eq!(top("how loaded is the processor"), Intent::Monitor);
        assert_eq!(top("帮我找找关于证书过期的资料"), Intent::Search);
        assert_eq!(top("please send the nginx config to me"), Intent::Download);
        assert_eq!(top("我之前上传过什么"), Intent::Uploads);
        assert_eq!(top("多谢啦"), Intent::Thanks);
    }

    /// The generator's normalisation (`gen_intents.py`): lower-cased, without whitespace and
    /// punctuation (ASCII and CJK).
    fn norm(t: &str) -> Vec<char> {
        const CJK_PUNCT: &str = "，。！？、；：“”‘’（）【】《》〈〉「」『』…—·～";
        t.to_lowercase()
            .chars()
            .filter(|c| !c.is_whitespace() && !c.is_ascii_punctuation() && !CJK_PUNCT.contains(*c))
            .collect()
    }

    /// Levenshtein distance of `a` and `b` is at most `k`.
    fn within(a: &[char], b: &[char], k: usize) -> bool {
        if a.len().abs_diff(b.len()) > k {
            return false;
        }
        let mut prev: Vec<usize> = (0..=b.len()).collect();
        for (i, ca) in a.iter().enumerate() {
            let mut cur = vec![i + 1; b.len() + 1];
            for (j, cb) in b.iter().enumerate() {
                cur[j + 1] = (prev[j + 1] + 1)
                    .min(cur[j] + 1)
                    .min(prev[j] + usize::from(ca != cb));
            }
            if cur.iter().min().is_some_and(|m| *m > k) {
                return false;
            }
            prev = cur;
        }
        prev[b.len()] <= k
    }

    /// The distance that counts as near (`max_edit` in the generator): 2, less for very
    /// short phrasings.
    fn max_edit(a: &[char], b: &[char]) -> usize {
        2.min(a.len().min(b.len()).saturating_sub(1) / 2)
    }

    #[test]
    fn overlap_normalisation_matches_the_generator() {
        assert_eq!(norm("Show  CPU, please!"), norm("showcpuplease"));
        assert_eq!(norm("看下CPU？"), norm("看下 cpu"));
        assert!(within(&norm("check the disk"), &norm("check teh disk!"), 2));
        assert!(!within(
            &norm("check the disk"),
            &norm("check the memory"),
            2
        ));
        assert_eq!(max_edit(&norm("你好"), &norm("再见")), 0);
        assert_eq!(
            max_edit(&norm("check the disk"), &norm("check teh disk")),
            2
        );
    }

    #[test]
    fn examples_stay_away_from_every_dev_and_test_phrasing() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/..");
        let mut sets = vec![format!("{root}/../shared/eval/agent-dev.jsonl")];
        for dir in ["incident", "dev2", "conversation"] {
            let d = format!("{root}/assets/eval/{dir}");
            let rd = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("{d}: {e}"));
            sets.extend(
                rd.flatten()
                    .map(|e| e.path())
                    .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
                    .map(|p| p.to_string_lossy().into_owned()),
            );
        }
        let mut phrasings: Vec<Vec<char>> = Vec::new();
        for path in &sets {
            let Ok(src) = std::fs::read_to_string(path) else {
                // A missing set is a broken checkout in CI, not a pass.
                assert!(
                    std::env::var_os("CI").is_none(),
                    "{path} absent under CI=true: the overlap check cannot run"
                );
                eprintln!("note: {path} absent, its overlap check skipped");
                continue;
            };
            for line in src.lines().filter(|l| !l.trim().is_empty()) {
                let v: serde_json::Value = serde_json::from_str(line).expect("set line is JSON");
                let turns = v["turns"].as_array().cloned().unwrap_or_default();
                for t in std::iter::once(&v["text"]).chain(turns.iter()) {
                    let n = norm(t.as_str().unwrap_or_default());
                    if !n.is_empty() {
                        phrasings.push(n);
                    }
                }
            }
        }
        assert!(phrasings.len() > 100, "only {} phrasings", phrasings.len());
        for line in EXAMPLES.lines().filter(|l| !l.trim().is_empty()) {
            let v: serde_json::Value = serde_json::from_str(line).expect("example is JSON");
            let ex = v["text"].as_str().unwrap_or_default();
            let n = norm(ex);
            if let Some(p) = phrasings.iter().find(|p| within(&n, p, max_edit(&n, p))) {
                panic!(
                    "intents.jsonl example {ex:?} is within a small edit distance of the set phrasing {:?}; regenerate with gen_intents.py",
                    p.iter().collect::<String>()
                );
            }
        }
    }
}
