//! Index benchmarks (`make bench`, release build), each section of docs/benchmarks.md
//! written by this bench between its markers (`llmops_common::bench_doc`):
//! `index-upload` (5 MB files through the real server, and what each analyzer costs),
//! `index-search` (search latency at 1k and 100k chunks, without the model and with e5's
//! query embedding, English and Chinese, cold and warm), `index-xling` (known-item search
//! over man pages in both languages, the dev sets and the held-out set), `index-ops` (the
//! ops document sets) and `index-embed` (e5 throughput per kernel level, the log
//! normalisation, end to end). `LLMOPS_BENCH_ONLY=index-search,index-embed` runs some;
//! `LLMOPS_BENCH_QUICK=1` prints without writing (smaller sizes).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use llmops_common::bench_doc::{self, Section};
use llmops_index::embed::{Embedder, HashEmbedder, InputKind, E5};
use llmops_index::vectors::{ChromaStore, InProcessStore, VectorStore};
use llmops_index::{Engine, EngineConfig, Mode, Scope};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn e5_dir() -> PathBuf {
    root().join("storage/models/multilingual-e5-small-q4")
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// The 53 bench words (43 English, then 10 Chinese).
static WORDS: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    include_str!("../fixtures/bench_words.txt")
        .lines()
        .collect()
});

/// Which synthetic text the search benchmark indexes.
#[derive(Clone, Copy, PartialEq)]
enum Corpus {
    /// Every word drawn uniformly from the 53 `WORDS`: each query term is in ~90% of the
    /// chunks, the worst case for BM25 (every chunk scores).
    Uniform,
    /// Words drawn by Zipf's law (s = 1) over a 20k-word vocabulary, as in real prose and
    /// logs: pseudo stop words take the top ranks, the `WORDS` sit at ranks 100-620 (mid
    /// frequency, like real technical terms).
    Zipf,
}

impl Corpus {
    fn label(self) -> &'static str {
        match self {
            Corpus::Uniform => "uniform 53-word corpus (worst case)",
            Corpus::Zipf => "Zipf corpus (20k words)",
        }
    }
}

fn lcg(seed: &mut u64) -> u64 {
    *seed = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    *seed >> 33
}

/// Zipf vocabulary and its cumulative distribution (deterministic).
struct ZipfVocab {
    words: Vec<String>,
    cdf: Vec<f64>,
}

impl ZipfVocab {
    fn new() -> Self {
        const SYL: [&str; 16] = [
            "ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "qu", "do", "fe", "gi",
            "ho", "ju",
        ];
        let size = 20_000usize;
        let mut words = Vec::with_capacity(size);
        let mut pseudo = 0usize;
        let mut real = WORDS.iter();
        for rank in 0..size {
            if rank >= 100 && rank % 10 == 0 {
                if let Some(w) = real.next() {
                    words.push((*w).to_string());
                    continue;
                }
            }
            // Distinct 3-4 syllable pseudo-words (16^4 > 20k).
            let mut w = String::new();
            let mut x = pseudo + 16 * 16;
            while x > 0 {
                w.push_str(SYL[x % 16]);
                x /= 16;
            }
            pseudo += 1;
            words.push(w);
        }
        let mut cdf = Vec::with_capacity(size);
        let mut acc = 0.0;
        for r in 0..size {
            acc += 1.0 / (r as f64 + 1.0);
            cdf.push(acc);
        }
        for c in &mut cdf {
            *c /= acc;
        }
        ZipfVocab { words, cdf }
    }

    fn word(&self, seed: &mut u64) -> &str {
        let u = lcg(seed) as f64 / (1u64 << 31) as f64;
        let i = self
            .cdf
            .partition_point(|&c| c < u)
            .min(self.words.len() - 1);
        &self.words[i]
    }
}

fn synth_text(seed: &mut u64, words: usize, corpus: Corpus, zipf: &ZipfVocab) -> String {
    let mut s = String::new();
    for i in 0..words {
        match corpus {
            Corpus::Uniform => s.push_str(WORDS[lcg(seed) as usize % WORDS.len()]),
            Corpus::Zipf => s.push_str(zipf.word(seed)),
        }
        s.push(if i % 12 == 11 { '\n' } else { ' ' });
    }
    s
}

/// Passages through the hash embedder (100k vectors in seconds), queries through e5: the
/// search then pays the real model's query embedding (and, for a Chinese question, the
/// embedding of its translated words' senses) against 100k stored vectors. The fingerprint
/// is the hash embedder's, so attaching it keeps the stored vectors.
struct ModelQueries {
    hash: HashEmbedder,
    model: Arc<E5>,
}

impl Embedder for ModelQueries {
    fn fingerprint(&self) -> String {
        self.hash.fingerprint()
    }
    fn dim(&self) -> usize {
        self.hash.dim
    }
    fn embed(
        &self,
        texts: &[&str],
        kind: InputKind,
    ) -> Result<Vec<Vec<f32>>, llmops_index::IndexError> {
        match kind {
            InputKind::Query => self.model.embed(texts, kind),
            InputKind::Passage => self.hash.embed(texts, kind),
        }
    }
    fn cos_scale(&self) -> (f32, f32) {
        self.model.cos_scale()
    }
    fn orders_senses(&self) -> bool {
        self.model.orders_senses()
    }
}

/// 50 threads x 10 searches each, all at once; latencies in ms and searches/s.
/// (LLMOPS_BENCH_ROUNDS=N makes it N searches each: long enough to profile.)
fn concurrent(e: &Arc<Engine>, queries: &[String], mode: Mode) -> (Vec<f64>, f64) {
    let rounds: usize = std::env::var("LLMOPS_BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(10);
    let conc = Arc::new(Mutex::new(Vec::new()));
    let t = Instant::now();
    std::thread::scope(|s| {
        for w in 0..50 {
            let e = e.clone();
            let conc = conc.clone();
            s.spawn(move || {
                for i in 0..rounds {
                    let q = &queries[(w * rounds + i) % queries.len()];
                    let t = Instant::now();
                    let _ = e.search("bench", q, Scope::All, 5, mode);
                    if let Ok(mut g) = conc.lock() {
                        g.push(t.elapsed().as_secs_f64() * 1000.0);
                    }
                }
            });
        }
    });
    let wall = t.elapsed().as_secs_f64();
    let c = conc.lock().map(|g| g.clone()).unwrap_or_default();
    let qps = c.len() as f64 / wall;
    (c, qps)
}

/// p50 and p99 (ms) of 200 searches one after another, cycling through `queries`.
fn sequential(e: &Engine, queries: &[&str], mode: Mode) -> (f64, f64) {
    let mut lat: Vec<f64> = (0..200)
        .map(|i| {
            let t = Instant::now();
            let _ = e
                .search("bench", queries[i % queries.len()], Scope::All, 5, mode)
                .expect("search");
            t.elapsed().as_secs_f64() * 1000.0
        })
        .collect();
    (pct(&mut lat, 0.5), pct(&mut lat, 0.99))
}

/// An engine over about `n` synthetic chunks (110-word paragraphs, half of them in another
/// session), vectors from the hash embedder; the build time.
fn synthetic_engine(
    n: usize,
    corpus: Corpus,
    zipf: &ZipfVocab,
) -> (
    tempfile::TempDir,
    Arc<Engine>,
    Arc<dyn VectorStore>,
    Duration,
) {
    let d = tempfile::tempdir().expect("tmp");
    let dim = 384;
    let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(dim));
    let emb: Arc<dyn Embedder> = Arc::new(HashEmbedder { dim });
    let e = Engine::open(
        EngineConfig::new(d.path().join("index")),
        Some((emb, store.clone())),
        None,
    )
    .expect("engine");
    let mut seed = 42u64;
    let per_file = 1000usize.min(n);
    let (mut made, mut f) = (0, 0);
    let t = Instant::now();
    while made < n {
        let mut text = String::new();
        for _ in 0..per_file {
            text.push_str(&synth_text(&mut seed, 110, corpus, zipf));
            text.push_str("\n\n");
        }
        let sess = if f % 2 == 0 { "bench" } else { "other" };
        e.index_upload(
            sess,
            &format!("f{f}"),
            &format!("file{f}.log"),
            "/x",
            &format!("sha{f}"),
            &text,
        )
        .expect("index");
        made = e.stats().chunks as usize;
        f += 1;
    }
    e.wait_idle(Duration::from_secs(3600));
    (d, e, store, t.elapsed())
}

/// Search latency at `n` chunks without the model: query vectors from the hash embedder,
/// so a search is everything but the model.
fn bench_search_machinery(out: &mut String, n: usize, corpus: Corpus, zipf: &ZipfVocab) {
    let (_d, e, _, build) = synthetic_engine(n, corpus, zipf);
    let queries = [
        "database connection timeout",
        "nginx restart config",
        "磁盘 错误",
        "certificate key permission",
        "swap memory load",
    ];
    let (p50, p99) = sequential(&e, &queries, Mode::Hybrid);
    let (l50, l99) = sequential(&e, &queries, Mode::Lexical);
    let qs: Vec<String> = queries.iter().map(|q| q.to_string()).collect();
    let (mut c, qps) = concurrent(&e, &qs, Mode::Hybrid);
    out.push_str(&format!(
        "| {} chunks, {} (built in {:.1} s, {} segments), no model | hybrid p50 {:.1} ms, p99 {:.1} ms; lexical only p50 {:.1} ms, p99 {:.1} ms; 50 concurrent hybrid: p50 {:.1} ms, p99 {:.1} ms, {:.0} searches/s |\n",
        e.stats().chunks, corpus.label(), build.as_secs_f64(), e.lexical_segments(), p50, p99, l50, l99,
        pct(&mut c, 0.5), pct(&mut c, 0.99), qps
    ));
}

/// `count` distinct questions of 2-4 words drawn from `words` (seeded).
fn distinct_questions(words: &[&str], count: usize, seed: u64, joiner: &str) -> Vec<String> {
    let mut seed = seed;
    (0..count)
        .map(|i| {
            let q: Vec<&str> = (0..(2 + i % 3))
                .map(|_| words[lcg(&mut seed) as usize % words.len()])
                .collect();
            format!("{} {i}", q.join(joiner))
        })
        .collect()
}

/// Search latency at `n` chunks with e5 embedding each query (and a Chinese question's
/// translated words and their senses): one search at a time, cold (every question new)
/// then warm (the same questions again: their vectors cached), English and Chinese.
fn bench_search_e5(out: &mut String, n: usize, zipf: &ZipfVocab, m: &Arc<E5>) {
    let (_d, e, store, _) = synthetic_engine(n, Corpus::Zipf, zipf);
    let split: Arc<dyn Embedder> = Arc::new(ModelQueries {
        hash: HashEmbedder { dim: 384 },
        model: m.clone(),
    });
    if Engine::attach_dense(&e, split, store).is_err() {
        return;
    }
    let english = &WORDS[..43];
    let chinese = &WORDS[43..];
    for (lang, qs) in [
        ("English", distinct_questions(english, 100, 7, " ")),
        ("Chinese", distinct_questions(chinese, 100, 11, "")),
    ] {
        let mut cells = Vec::new();
        for pass in ["cold", "warm"] {
            let mut lat: Vec<f64> = qs
                .iter()
                .map(|q| {
                    let t = Instant::now();
                    let _ = e.search("bench", q, Scope::All, 5, Mode::Hybrid);
                    t.elapsed().as_secs_f64() * 1000.0
                })
                .collect();
            cells.push(format!(
                "{pass} p50 {:.1} ms, p99 {:.1} ms",
                pct(&mut lat.clone(), 0.5),
                pct(&mut lat, 0.99)
            ));
        }
        out.push_str(&format!(
            "| {} chunks, Zipf corpus, e5 query embedding, {lang} questions ({} distinct) | {} |\n",
            e.stats().chunks,
            qs.len(),
            cells.join("; ")
        ));
        eprint!(".");
    }
}

const SEARCH_NOTE: &str = "A search is `Engine::search(session, query, all, top 5, hybrid)` (or the mode named) on synthetic corpora of 110-word chunks, half of them in another session: the *Zipf corpus* draws words by Zipf's law (s = 1) from a 20k-word vocabulary with the query terms at mid-frequency ranks, as in real prose and logs; the *uniform 53-word corpus* is the worst case, every query term in about 90% of the chunks. It includes query analysis and translation, BM25 with the scope filter, the int8 vector scan with exact re-scoring, fusion, and reading the shown chunks. *No model*: query vectors from a hash embedder (microseconds). *e5 query embedding*: every question embedded by the default embedder against the same stored vectors; a Chinese question also has its translated words' dictionary senses embedded to choose among them (the translation's cost); *cold*: every question new, *warm*: the same questions again, their vectors cached. *50 concurrent* = 50 threads x 10 searches started together.";

fn bench_search(quick: bool) -> String {
    let zipf = ZipfVocab::new();
    let sizes: &[usize] = if quick { &[1_000] } else { &[1_000, 100_000] };
    let mut out = String::from("| what | result |\n|---|---|\n");
    for corpus in [Corpus::Zipf, Corpus::Uniform] {
        for &n in sizes {
            bench_search_machinery(&mut out, n, corpus, &zipf);
            eprint!(".");
        }
    }
    match E5::load(&e5_dir()) {
        Ok(m) => {
            let m = Arc::new(m);
            for &n in sizes {
                bench_search_e5(&mut out, n, &zipf, &m);
            }
        }
        Err(e) => out.push_str(&format!("| e5 rows | skipped: {e} |\n")),
    }
    out.push('\n');
    out.push_str(SEARCH_NOTE);
    out
}

/// recall@1, recall@3 and MRR from each query's 0-based rank of the right file (None:
/// not in the list).
fn ranks_to_recall(ranks: impl ExactSizeIterator<Item = Option<usize>>) -> (f64, f64, f64) {
    let n = ranks.len().max(1) as f64;
    let (mut r1, mut r3, mut mrr) = (0.0, 0.0, 0.0);
    for i in ranks.flatten() {
        r1 += f64::from(u8::from(i == 0));
        r3 += f64::from(u8::from(i < 3));
        mrr += 1.0 / (i as f64 + 1.0);
    }
    (r1 / n, r3 / n, mrr / n)
}

/// Dense-only ranking for the log recall rows: every chunk embedded as a passage (in the
/// embedder's batch size), then a query's chunk indexes by dot product, best first.
struct DenseRank {
    vecs: Vec<Vec<f32>>,
}

impl DenseRank {
    fn new(emb: &dyn Embedder, chunks: &[&str]) -> DenseRank {
        let mut vecs = vec![];
        for b in chunks.chunks(emb.batch_size().max(1)) {
            vecs.extend(emb.embed(b, InputKind::Passage).expect("embed"));
        }
        DenseRank { vecs }
    }

    fn order(&self, emb: &dyn Embedder, query: &str) -> Vec<usize> {
        let qv = emb.embed(&[query], InputKind::Query).expect("query");
        let mut order: Vec<(f32, usize)> = self
            .vecs
            .iter()
            .enumerate()
            .map(|(i, v)| (v.iter().zip(&qv[0]).map(|(a, b)| a * b).sum(), i))
            .collect();
        order.sort_by(|a, b| b.0.total_cmp(&a.0));
        order.into_iter().map(|(_, i)| i).collect()
    }
}

/// Dense-only known-item search on the English NAME sample through Chroma (the external
/// vector store) with the same e5 vectors, against the in-process store.
fn chroma_row(memo: &Arc<memo::Memo>) -> String {
    let (pages, _) = man::listed_pages("pages.txt", Path::new("/usr/share/man"), 2);
    let pairs: Vec<(String, String)> = pages
        .iter()
        .map(|(n, _, d)| (n.clone(), d.clone()))
        .collect();
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(18777);
    let cdir = tempfile::tempdir().expect("chroma dir");
    let o = std::process::Command::new(root().join("scripts/chroma.sh"))
        .args(["start", &port.to_string()])
        .arg(cdir.path())
        .output();
    let Some(o) = o.ok().filter(|o| o.status.success()) else {
        return "\nChroma row skipped: chroma did not start (`scripts/chroma.sh install`).\n"
            .into();
    };
    let pid = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let res = (|| -> Result<(f64, f64, f64, f64), llmops_index::IndexError> {
        let store: Arc<dyn VectorStore> = Arc::new(ChromaStore::connect(
            &format!("http://127.0.0.1:{port}"),
            &memo.fingerprint(),
        )?);
        let d = tempfile::tempdir()?;
        let mut cfg = EngineConfig::new(d.path().join("index"));
        cfg.threshold = 0.0;
        let e = Engine::open(cfg, Some((memo.clone() as Arc<dyn Embedder>, store)), None)?;
        for (i, (name, body, _)) in pages.iter().enumerate() {
            e.index_upload(
                "bench",
                &format!("m{i}"),
                name,
                name,
                &format!("sha{i}"),
                body,
            )?;
        }
        e.wait_idle(Duration::from_secs(3600));
        let t = Instant::now();
        let (a, b, c) = xling::known_item(&e, &pairs, Mode::Dense);
        Ok((
            a,
            b,
            c,
            t.elapsed().as_secs_f64() * 1000.0 / pairs.len().max(1) as f64,
        ))
    })();
    let _ = std::process::Command::new(root().join("scripts/chroma.sh"))
        .args(["stop", &pid])
        .status();
    match res {
        Ok((a, b, c, ms)) => format!(
            "\nThe same vectors in Chroma (HNSW), dense only, English NAME -> English page over the {} sample pages alone: recall@1 {a:.3}, recall@3 {b:.3}, MRR {c:.3}; {ms:.1} ms per query including the query embedding.\n",
            pages.len()
        ),
        Err(e) => format!("\nChroma row failed: {e}\n"),
    }
}

#[path = "index/e5speed.rs"]
mod e5speed;
#[path = "index/man.rs"]
mod man;
#[path = "index/memo.rs"]
mod memo;
#[path = "index/ops.rs"]
mod ops;
#[path = "index/planted_log.rs"]
mod planted_log;
#[path = "index/upload.rs"]
mod upload;
#[path = "index/xling.rs"]
mod xling;

/// The command each section names.
const COMMAND: &str = "cargo bench -p llmops-tests --bench index";

fn main() {
    let quick = std::env::var("LLMOPS_BENCH_QUICK").is_ok();
    let only: Vec<String> = std::env::var("LLMOPS_BENCH_ONLY")
        .unwrap_or_default()
        .split(',')
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect();
    let wanted = |name: &str| only.is_empty() || only.iter().any(|o| o == name);
    let doc = root().join("docs/benchmarks.md");
    let write = |name: &str, title: &str, body: &str| {
        println!("\n## {title}\n\n{body}");
        if quick {
            return;
        }
        let s = Section {
            name,
            title,
            command: COMMAND,
            body,
        };
        if let Err(e) = bench_doc::write(&doc, &s) {
            eprintln!("docs/benchmarks.md not written ({name}): {e}");
        }
    };
    if wanted("index-upload") {
        write(
            "index-upload",
            "Index: uploads and indexing cost",
            &upload::bench_upload(),
        );
    }
    if wanted("index-search") {
        write(
            "index-search",
            "Index: search latency",
            &bench_search(quick),
        );
    }
    let man_text = if wanted("index-embed") && man::ensure_man() {
        let (pages, _) = man::listed_pages("pages.txt", Path::new("/usr/share/man"), 2);
        pages
            .iter()
            .take(60)
            .map(|p| p.1.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    } else {
        String::new()
    };
    if wanted("index-xling") || wanted("index-ops") {
        let Ok(m) = E5::load(&e5_dir()) else {
            eprintln!("no e5 model (run `make setup`): the retrieval sections are skipped");
            return;
        };
        let dense: Arc<dyn Embedder> =
            Arc::new(llmops_index::embed::CachedPassages::new(Arc::new(m)));
        let memo = Arc::new(memo::Memo::new(dense));
        let (mut xl, ops) = xling::bench(&memo);
        if !quick {
            xl.push_str(&chroma_row(&memo));
        }
        memo.save();
        if wanted("index-xling") {
            write(
                "index-xling",
                "Index: known-item search over man pages, both languages",
                &xl,
            );
        }
        if wanted("index-ops") {
            write("index-ops", "Index: operators' documents", &ops);
        }
    }
    if wanted("index-embed") {
        write(
            "index-embed",
            "Index: embedding throughput",
            &e5speed::bench(&e5_dir(), &man_text),
        );
    }
}
