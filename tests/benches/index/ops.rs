//! Operators' documents: `tests/fixtures/ops/{tuning,heldout,fresh,fresh2,fresh3,fresh4}`,
//! each a small stack's configs, logs, scripts and runbooks (English and Chinese) with the
//! questions an on-call operator would type (Chinese about English configs, English,
//! identifiers in another spelling, either language about the runbooks), written by
//! someone who did not see the ranking code. All six are dev sets: the ranking was tuned
//! with them in view. Each set is searched alone (a server holding one team's uploads)
//! and among the man pages (a large index); recall per kind of question shows where it
//! stands, and where the set has them, whether the answer's lines are in a shown snippet.

use super::memo::Memo;
use super::xling::{engine_over, known_item, print_misses, rows};
use super::*;

/// One set: its documents (name, text) and (expected file, query, kind) triples.
struct OpsSet {
    dir: &'static str,
    docs: Vec<(String, String)>,
    queries: Vec<(String, String, String)>,
    /// Per query, the expected file's lines that answer it (`answers.tsv`, written by an
    /// annotator who did not see the ranking code); empty when the set has none.
    answers: HashMap<String, Vec<(u32, u32)>>,
}

/// `12,15-17` as inclusive line ranges.
fn parse_ranges(s: &str) -> Option<Vec<(u32, u32)>> {
    s.split(',')
        .map(|r| match r.split_once('-') {
            Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
            None => r.trim().parse().ok().map(|a| (a, a)),
        })
        .collect()
}

/// `queries.tsv`'s sibling `answers.tsv`: query -> answer lines (comments skipped).
fn load_answers(base: &Path) -> HashMap<String, Vec<(u32, u32)>> {
    let Ok(text) = std::fs::read_to_string(base.join("answers.tsv")) else {
        return HashMap::new();
    };
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let (q, r) = l.split_once('\t')?;
            Some((q.trim().to_string(), parse_ranges(r)?))
        })
        .collect()
}

/// Whether an operator sees the answer: the rank (in the first 3 hits, the engine's own
/// per-file cap) of the first hit of the expected file whose snippet's lines hold an
/// answer line. Recall@1 / @3 / MRR over the questions with answer lines.
fn answer_shown(
    e: &Engine,
    queries: &[(String, String, String)],
    answers: &HashMap<String, Vec<(u32, u32)>>,
    show_misses: bool,
) -> (usize, (f64, f64, f64)) {
    let with: Vec<&(String, String, String)> = queries
        .iter()
        .filter(|q| answers.contains_key(&q.1))
        .collect();
    let ranks = with.iter().map(|(file, q, _)| {
        let lines = &answers[q];
        let hits = e
            .search("bench", q, Scope::All, 3, Mode::Hybrid)
            .unwrap_or_default();
        let rank = hits.iter().position(|h| {
            let (a, b) = h.lines;
            &h.filename == file && lines.iter().any(|&(x, y)| x <= b && a <= y)
        });
        if show_misses && rank.is_none() {
            let shown: Vec<String> = hits
                .iter()
                .map(|h| format!("{} {}", h.filename, h.position))
                .collect();
            eprintln!("ANSWER MISS {q} | {file} {lines:?} | {shown:?}");
        }
        rank
    });
    (with.len(), super::ranks_to_recall(ranks))
}

fn load(dir: &'static str) -> Option<OpsSet> {
    let base = root().join("tests/fixtures/ops").join(dir);
    let mut docs: Vec<(String, String)> = std::fs::read_dir(base.join("docs"))
        .ok()?
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            std::fs::read_to_string(e.path()).ok().map(|t| (name, t))
        })
        .collect();
    docs.sort();
    let mut queries = Vec::new();
    let mut kind = String::new();
    for line in std::fs::read_to_string(base.join("queries.tsv"))
        .ok()?
        .lines()
    {
        if let Some(k) = line.strip_prefix("## kind:") {
            kind = k.trim().to_string();
        }
        if line.starts_with('#') {
            continue;
        }
        if let Some((file, q)) = line.split_once('\t') {
            queries.push((file.trim().to_string(), q.trim().to_string(), kind.clone()));
        }
    }
    Some(OpsSet {
        dir,
        docs,
        queries,
        answers: load_answers(&base),
    })
}

/// The rows of every set, alone and among `pages` (the man-page corpus of the xling rows):
/// overall (lexical, dense, hybrid, plain RRF), hybrid recall per kind of question, and
/// the answer lines shown.
pub fn bench_ops(memo: &Arc<Memo>, pages: &[(String, String)]) -> String {
    let mut out = format!(
        "Top 10, one hit per file, for the file rows; the answer-line rows take the engine's own top 3 (3 hits a file at most).\n\n{}",
        "| set | label | mode | recall@1 | recall@3 | MRR |\n|---|---|---|---|---|---|\n"
    );
    for dir in ["tuning", "heldout", "fresh", "fresh2", "fresh3", "fresh4"] {
        let Some(set) = load(dir) else {
            out.push_str(&format!("| ops documents, `{dir}` | missing | | | | |\n"));
            continue;
        };
        let pairs: Vec<(String, String)> = set
            .queries
            .iter()
            .map(|(f, q, _)| (f.clone(), q.clone()))
            .collect();
        for (place, corpus) in [
            ("alone", set.docs.clone()),
            (
                "among the man pages",
                set.docs.iter().chain(pages).cloned().collect::<Vec<_>>(),
            ),
        ] {
            let (_d, e, _) = engine_over(Some(memo), &corpus);
            let title = format!(
                "ops documents `{}` ({} files, {} questions), {place}",
                set.dir,
                set.docs.len(),
                pairs.len()
            );
            rows(&mut out, &title, "dev", &pairs, &e);
            set_details(&mut out, &set, &title, &e);
            print_misses(&e, &pairs);
        }
    }
    out
}

/// Hybrid recall per kind of question (each kind once, in the file's order) and the
/// answer lines shown in a snippet of the top 3.
fn set_details(out: &mut String, set: &OpsSet, title: &str, e: &Engine) {
    let mut kinds: Vec<&str> = Vec::new();
    for q in &set.queries {
        if !kinds.contains(&q.2.as_str()) {
            kinds.push(&q.2);
        }
    }
    for kind in kinds {
        let sub: Vec<(String, String)> = set
            .queries
            .iter()
            .filter(|q| q.2 == kind)
            .map(|(f, q, _)| (f.clone(), q.clone()))
            .collect();
        let (a, b, c) = known_item(e, &sub, Mode::Hybrid);
        out.push_str(&format!(
            "| {title}: {kind} ({}) | dev | hybrid | {a:.3} | {b:.3} | {c:.3} |\n",
            sub.len()
        ));
    }
    if !set.answers.is_empty() {
        let show = std::env::var("LLMOPS_BENCH_XLING_MISSES").as_deref() == Ok("1");
        let (n, (a, b, c)) = answer_shown(e, &set.queries, &set.answers, show);
        out.push_str(&format!(
            "| {title}: answer lines in a snippet of the top 3 ({n}) | dev | hybrid | {a:.3} | {b:.3} | {c:.3} |\n"
        ));
    }
}
