//! Index benchmarks (`make bench`, release build): upload + lexical index of 5 MB files
//! (a log and a YAML, `index/upload.rs`) through the real server, search latency p50/p99
//! at 1k/10k/100k chunks (alone and with 50 concurrent searches), and retrieval quality on
//! this machine's section 1 and 8 man pages (recall@1, recall@3, MRR) for lexical-only,
//! dense-only, hybrid and dense via Chroma. Prints a markdown section and appends it to
//! docs/benchmarks.md.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use llmops_index::embed::{Embedder, HashEmbedder, InputKind, MiniLm};
use llmops_index::vectors::{ChromaStore, InProcessStore, VectorStore};
use llmops_index::{Engine, EngineConfig, Mode, Scope};

/// A bench knob set to `0` (`LLMOPS_BENCH_XLING_SPEED=0`): that part is left out.
fn switched_off(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| v == "0")
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn pct(v: &mut [f64], p: f64) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() {
        return 0.0;
    }
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

/// The 53 bench words (43 English, then 10 Chinese), shared with the index crate's
/// `search_profile` example.
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

/// Passages through the hash embedder (100k vectors in seconds), queries through MiniLM:
/// the search then pays the real model's query embedding against 100k stored vectors. The
/// fingerprint is the hash embedder's, so attaching it keeps the stored vectors.
struct ModelQueries {
    hash: HashEmbedder,
    model: Arc<MiniLm>,
}

impl Embedder for ModelQueries {
    fn fingerprint(&self) -> String {
        self.hash.fingerprint()
    }
    fn dim(&self) -> usize {
        self.hash.dim
    }
    fn coverage(&self, t: &str) -> f32 {
        self.model.coverage(t)
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

/// Search latency at `n` chunks. First with the hash embedder for queries too (a search is
/// then everything but the model: query tokenising, BM25, the vector scan, fusion, reading
/// the shown chunks); then, with the model available, every query embedded by MiniLM
/// (distinct queries, so the query-vector cache never hits).
fn bench_search(out: &mut String, n: usize, corpus: Corpus, zipf: &ZipfVocab) {
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
    let mut made = 0;
    let mut f = 0;
    let t = Instant::now();
    while made < n {
        // ~150 words a chunk: one chunk per paragraph.
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
    let build = t.elapsed();
    let chunks = e.stats().chunks;
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
    let (mut cl, lqps) = concurrent(&e, &qs, Mode::Lexical);
    let (mut cd, dqps) = concurrent(&e, &qs, Mode::Dense);
    out.push_str(&format!(
        "| search without the model, {chunks} chunks, {} (built in {:.1} s, {} lexical segments) | hybrid alone p50 {:.1} ms, p99 {:.1} ms (lexical only: p50 {:.1} ms, p99 {:.1} ms); 50 concurrent: hybrid p50 {:.1} ms, p99 {:.1} ms, {:.0} searches/s; lexical only p50 {:.1} ms, p99 {:.1} ms, {:.0}/s; dense only (vector store) p50 {:.1} ms, p99 {:.1} ms, {:.0}/s |\n",
        corpus.label(), build.as_secs_f64(), e.lexical_segments(), p50, p99, l50, l99, pct(&mut c, 0.5), pct(&mut c, 0.99), qps,
        pct(&mut cl, 0.5), pct(&mut cl, 0.99), lqps, pct(&mut cd, 0.5), pct(&mut cd, 0.99), dqps
    ));
    let Some(model) = model() else { return };
    let split: Arc<dyn Embedder> = Arc::new(ModelQueries {
        hash: HashEmbedder { dim },
        model,
    });
    if Engine::attach_dense(&e, split, store).is_err() {
        return;
    }
    // Distinct English queries (MiniLM has no Chinese: those skip the model), 3-6 words.
    let mut seed = 7u64;
    let english = &WORDS[..43];
    let distinct: Vec<String> = (0..700)
        .map(|i| {
            let mut q = vec![];
            for _ in 0..(3 + i % 4) {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                q.push(english[(seed >> 33) as usize % english.len()]);
            }
            q.join(" ")
        })
        .collect();
    let mut single = vec![];
    for q in &distinct[500..600] {
        let t = Instant::now();
        let _ = e.search("bench", q, Scope::All, 5, Mode::Hybrid);
        single.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let (mut c, qps) = concurrent(&e, &distinct[..500], Mode::Hybrid);
    // The same 500 queries again: every query vector is now cached.
    let (mut w, wqps) = concurrent(&e, &distinct[..500], Mode::Hybrid);
    out.push_str(&format!(
        "| search with MiniLM query embedding, {chunks} chunks, {} | alone p50 {:.1} ms, p99 {:.1} ms; 50 concurrent, 500 distinct queries: p50 {:.1} ms, p99 {:.1} ms, {:.0} searches/s; the same 500 again (query vectors cached): p50 {:.1} ms, p99 {:.1} ms, {:.0} searches/s |\n",
        corpus.label(), pct(&mut single, 0.5), pct(&mut single, 0.99), pct(&mut c, 0.5), pct(&mut c, 0.99), qps,
        pct(&mut w, 0.5), pct(&mut w, 0.99), wqps
    ));
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

fn model() -> Option<Arc<MiniLm>> {
    let dir = root().join("storage/models/all-MiniLM-L6-v2");
    match MiniLm::load(&dir) {
        Ok(m) => Some(Arc::new(m)),
        Err(e) => {
            eprintln!("no model ({e}); dense benchmarks skipped");
            None
        }
    }
}

/// An embedder that remembers passage vectors, so a second store (Chroma) gets the same
/// vectors without embedding everything again.
struct Cached {
    inner: Arc<MiniLm>,
    cache: Mutex<HashMap<String, Vec<f32>>>,
}

impl Embedder for Cached {
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn coverage(&self, t: &str) -> f32 {
        self.inner.coverage(t)
    }
    fn embed(
        &self,
        texts: &[&str],
        kind: InputKind,
    ) -> Result<Vec<Vec<f32>>, llmops_index::IndexError> {
        let missing: Vec<&str> = {
            let c = self
                .cache
                .lock()
                .map_err(|_| llmops_index::IndexError::Poisoned)?;
            texts
                .iter()
                .filter(|t| !c.contains_key(**t))
                .copied()
                .collect()
        };
        let fresh = self.inner.embed(&missing, kind)?;
        let mut c = self
            .cache
            .lock()
            .map_err(|_| llmops_index::IndexError::Poisoned)?;
        for (t, v) in missing.iter().zip(fresh) {
            c.insert(t.to_string(), v);
        }
        Ok(texts
            .iter()
            .map(|t| c.get(*t).cloned().unwrap_or_default())
            .collect())
    }
}

fn ensure_man() -> bool {
    let ok = Path::new("/usr/bin/man").exists() && Path::new("/usr/bin/groff").exists();
    if !ok {
        let _ = std::process::Command::new("apt-get")
            .args(["install", "-y", "-qq", "man-db", "groff"])
            .status();
    }
    Path::new("/usr/bin/man").exists()
}

/// The page files of sections 1 and 8 under `root` (`/usr/share/man` or a language's
/// directory), sorted.
fn section_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![];
    for sec in ["man1", "man8"] {
        if let Ok(rd) = std::fs::read_dir(root.join(sec)) {
            // The Google Cloud SDK ships ~17k generated `gcloud_*` pages on this image: they
            // would be most of any sample, so they are left out.
            let mut v: Vec<PathBuf> = rd
                .flatten()
                .map(|e| e.path())
                .filter(|p| {
                    !p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("gcloud"))
                })
                .collect();
            v.sort();
            files.extend(v);
        }
    }
    files
}

/// Renders man pages of sections 1 and 8: (name, text without NAME, NAME description).
fn man_pages(limit: usize) -> Vec<(String, String, String)> {
    let files = section_files(Path::new("/usr/share/man"));
    // A deterministic spread over the whole list.
    let step = (files.len() / limit.max(1)).max(1);
    let mut out = vec![];
    let mut seen_desc = std::collections::HashSet::new();
    for p in files.iter().step_by(step) {
        if out.len() >= limit {
            break;
        }
        let Some((name, body, d)) = render_page(p) else {
            continue;
        };
        if !seen_desc.insert(d.clone()) {
            continue;
        }
        out.push((name, body, d));
    }
    out
}

/// One man page rendered as plain text: (file name, text after NAME, first 6000 chars;
/// NAME description), or None when it has no usable NAME line or too little text.
fn render_page(p: &Path) -> Option<(String, String, String)> {
    render_page_min_words(p, 2)
}

/// `render_page` with the NAME description at least `min_words` words long (a Chinese
/// description is one "word": no spaces).
fn render_page_min_words(p: &Path, min_words: usize) -> Option<(String, String, String)> {
    let text = rendered(p)?;
    split_page(p, &text, min_words)
}

/// `man`'s plain-text rendering of a page file, once per run (the Chinese pages serve two
/// sets, and a page that times out costs 30 s); with `LLMOPS_BENCH_MAN_CACHE=DIR` (while
/// iterating) kept in DIR between runs too, a page that timed out as an empty file.
fn rendered(p: &Path) -> Option<String> {
    static SEEN: Mutex<Option<HashMap<PathBuf, Option<String>>>> = Mutex::new(None);
    if let Some(text) = SEEN
        .lock()
        .expect("render memo")
        .as_ref()
        .and_then(|m| m.get(p).cloned())
    {
        return text;
    }
    let text = rendered_uncached(p);
    SEEN.lock()
        .expect("render memo")
        .get_or_insert_with(HashMap::new)
        .insert(p.to_path_buf(), text.clone());
    text
}

fn rendered_uncached(p: &Path) -> Option<String> {
    let cached = std::env::var_os("LLMOPS_BENCH_MAN_CACHE")
        .map(|d| PathBuf::from(d).join(p.to_string_lossy().replace('/', "_")));
    if let Some(text) = cached
        .as_ref()
        .and_then(|c| std::fs::read_to_string(c).ok())
    {
        return (!text.is_empty()).then_some(text);
    }
    let text = render(p);
    if let Some(c) = &cached {
        let written = std::fs::create_dir_all(c.parent().unwrap_or(Path::new(".")))
            .and_then(|_| std::fs::write(c, text.as_deref().unwrap_or("")));
        if let Err(e) = written {
            eprintln!("man cache not written ({}): {e}", c.display());
        }
    }
    text
}

fn render(p: &Path) -> Option<String> {
    // Under `timeout`: troff spun for minutes on one manpages-zh page (df.1); a page that
    // does not render in 30 s is left out of the set.
    let o = std::process::Command::new("timeout")
        .env("MANWIDTH", "100")
        .env("MAN_KEEP_FORMATTING", "0")
        .args(["-k", "5", "30", "man", "-E", "UTF-8", "-P", "cat", "-l"])
        .arg(p)
        .output()
        .ok()?;
    if matches!(o.status.code(), Some(124) | Some(137)) {
        eprintln!("{}: man timed out, page left out", p.display());
        return None;
    }
    let raw = String::from_utf8_lossy(&o.stdout).into_owned();
    // Strip backspace overstrikes (bold/underline).
    let mut text = String::new();
    for c in raw.chars() {
        if c == '\u{8}' {
            text.pop();
        } else {
            text.push(c);
        }
    }
    Some(text)
}

/// (file name, text after NAME cut at 6000 chars, NAME description) of a rendered page.
fn split_page(p: &Path, text: &str, min_words: usize) -> Option<(String, String, String)> {
    let lines: Vec<&str> = text.lines().collect();
    // manpages-zh titles the section 名称.
    let ni = lines
        .iter()
        .position(|l| matches!(l.trim(), "NAME" | "名称"))?;
    let mut desc = String::new();
    let mut j = ni + 1;
    while j < lines.len() && (lines[j].starts_with(' ') || lines[j].trim().is_empty()) {
        desc.push_str(lines[j].trim());
        desc.push(' ');
        j += 1;
        if !desc.trim().is_empty() && lines.get(j).is_some_and(|l| l.trim().is_empty()) {
            break;
        }
    }
    let (_, d) = desc.split_once(" - ").or_else(|| desc.split_once(" — "))?;
    let d = d.trim().to_string();
    if d.split_whitespace().count() < min_words {
        return None;
    }
    while j < lines.len()
        && !lines[j].starts_with(|c: char| c.is_ascii_uppercase() || c >= '\u{2E80}')
    {
        j += 1;
    }
    let body: String = lines[j.min(lines.len())..].join("\n");
    let body: String = body.chars().take(6000).collect();
    if body.len() < 200 {
        return None;
    }
    let name = p
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Some((name, body, d))
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

/// recall@1, recall@3, MRR of the pages by their NAME descriptions: the rank of the page
/// among the first 10 files (one hit per file, as the e5 rows count).
fn quality(e: &Engine, pages: &[(String, String, String)], mode: Mode) -> (f64, f64, f64) {
    ranks_to_recall(pages.iter().map(|(name, _, desc)| {
        e.search_per_file("bench", desc, Scope::All, 10, 1, mode)
            .unwrap_or_default()
            .iter()
            .position(|h| &h.filename == name)
    }))
}

fn bench_quality(out: &mut String, pages_wanted: usize) {
    if !ensure_man() {
        out.push_str("\nRetrieval quality skipped: man is not installed.\n");
        return;
    }
    let pages = man_pages(pages_wanted);
    let Some(m) = model() else {
        out.push_str("\nRetrieval quality skipped: no model (run `make setup`).\n");
        return;
    };
    let cached = Arc::new(Cached {
        inner: m.clone(),
        cache: Mutex::new(HashMap::new()),
    });
    let d = tempfile::tempdir().expect("tmp");
    let mut cfg = EngineConfig::new(d.path().join("index"));
    // Rank everything: quality is measured on the order, not the cut-off.
    cfg.threshold = 0.0;
    let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(m.dim()));
    let e = Engine::open(
        cfg,
        Some((cached.clone() as Arc<dyn Embedder>, store)),
        None,
    )
    .expect("engine");
    let t = Instant::now();
    for (i, (name, body, _)) in pages.iter().enumerate() {
        e.index_upload(
            "bench",
            &format!("m{i}"),
            name,
            name,
            &format!("sha{i}"),
            body,
        )
        .expect("index");
    }
    let lex_time = t.elapsed();
    e.wait_idle(Duration::from_secs(3600));
    let embed_time = t.elapsed();
    let chunks = e.stats().chunks;
    let t = Instant::now();
    let one = m
        .embed(&["list directory contents"], InputKind::Query)
        .map(|v| v.len())
        .unwrap_or(0);
    let q_ms = t.elapsed().as_secs_f64() * 1000.0 / one.max(1) as f64;
    out.push_str(&format!(
        "\nRetrieval quality: {} man pages (sections 1 and 8 spread evenly, `gcloud_*` excluded, NAME dropped, first 6000 chars), {} chunks; query = the page's NAME description; lexical indexing {:.1} s, MiniLM embedding {:.0} s ({:.0} chunks/s), one query embedding {:.0} ms.\n\n| mode | recall@1 | recall@3 | MRR |\n|---|---|---|---|\n",
        pages.len(), chunks, lex_time.as_secs_f64(), embed_time.as_secs_f64(),
        chunks as f64 / embed_time.as_secs_f64().max(1e-3), q_ms
    ));
    for (label, mode) in [
        (
            "lexical-only (BM25, jieba + bigrams + English)",
            Mode::Lexical,
        ),
        ("dense-only (MiniLM, in-process)", Mode::Dense),
        (
            "hybrid (placed scores + rank term, coverage-weighted)",
            Mode::Hybrid,
        ),
    ] {
        let (a, b, c) = quality(&e, &pages, mode);
        out.push_str(&format!("| {label} | {a:.3} | {b:.3} | {c:.3} |\n"));
    }
    // The same vectors in Chroma.
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
        out.push_str("| dense-only via Chroma | (chroma did not start) | | |\n");
        return;
    };
    let pid = String::from_utf8_lossy(&o.stdout).trim().to_string();
    let res = (|| -> Result<(f64, f64, f64, f64), llmops_index::IndexError> {
        let store: Arc<dyn VectorStore> = Arc::new(ChromaStore::connect(
            &format!("http://127.0.0.1:{port}"),
            &cached.fingerprint(),
        )?);
        let d2 = tempfile::tempdir()?;
        let mut cfg = EngineConfig::new(d2.path().join("index"));
        cfg.threshold = 0.0;
        let e2 = Engine::open(
            cfg,
            Some((cached.clone() as Arc<dyn Embedder>, store)),
            None,
        )?;
        for (i, (name, body, _)) in pages.iter().enumerate() {
            e2.index_upload(
                "bench",
                &format!("m{i}"),
                name,
                name,
                &format!("sha{i}"),
                body,
            )?;
        }
        e2.wait_idle(Duration::from_secs(3600));
        let t = Instant::now();
        let (a, b, c) = quality(&e2, &pages, Mode::Dense);
        let per_q = t.elapsed().as_secs_f64() * 1000.0 / pages.len().max(1) as f64;
        Ok((a, b, c, per_q))
    })();
    let _ = std::process::Command::new("kill").arg(&pid).status();
    match res {
        Ok((a, b, c, ms)) => out.push_str(&format!("| dense-only via Chroma 1.5.9 (HNSW) | {a:.3} | {b:.3} | {c:.3} |\n\nChroma dense search: {ms:.1} ms per query including the query embedding.\n")),
        Err(e) => out.push_str(&format!("| dense-only via Chroma | failed: {e} | | |\n")),
    }
}

/// What the search rows measure (printed under the table).
const SEARCH_NOTE: &str = "\nA search in the rows above is `Engine::search(session, query, all, top 5, hybrid)` (or the mode named) on one of two synthetic corpora of 110-word chunks (half the chunks belong to another session): the *Zipf corpus* draws words by Zipf's law (s = 1) from a 20k-word vocabulary with the query terms at mid-frequency ranks, as in real prose and logs; the *uniform 53-word corpus* is the worst case, where every query term occurs in about 90% of the chunks and BM25 scores nearly every chunk in scope. It includes query analysis, BM25 with the scope filter, the int8 vector scan with exact f32 re-scoring of the candidates, fusion, and reading the shown chunks. *Without the model*, query vectors come from the hash embedder (microseconds) or the query-vector cache; *with MiniLM query embedding* every distinct query is embedded by the model (micro-batched with concurrent ones) against the same 100k stored vectors. *50 concurrent* = 50 threads x 10 searches started together on this 2-core machine; with 50 searches in flight, latency = 50 / throughput (Little's law).\n";

#[path = "index/upload.rs"]
mod upload;

#[path = "index/xling.rs"]
mod xling;

#[path = "index/ops.rs"]
mod ops;

#[path = "index/memo.rs"]
mod memo;

#[path = "index/fusion.rs"]
mod fusion;

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

#[path = "index/e5speed.rs"]
mod e5speed;

#[path = "index/planted_log.rs"]
mod planted_log;

fn main() {
    let quick = std::env::var("LLMOPS_BENCH_QUICK").is_ok();
    let mut out = String::new();
    out.push_str(&format!(
        "\n## Index (`cargo bench -p llmops-tests --bench index`, {})\n\n| what | result |\n|---|---|\n",
        if quick { "quick" } else { "release" }
    ));
    // LLMOPS_BENCH_ONLY=quality runs just the retrieval-quality part (ranking work).
    let only = std::env::var("LLMOPS_BENCH_ONLY").unwrap_or_default();
    // LLMOPS_BENCH_ONLY=e5speed runs just the embedding-throughput rows of the e5 part.
    if only == "e5speed" {
        let pages = if ensure_man() { man_pages(60) } else { vec![] };
        e5speed::bench_throughput(
            &mut out,
            &root().join("storage/models/multilingual-e5-small-q4"),
            &pages,
        );
        println!("{out}");
        return;
    }
    let only_quality = only == "quality";
    // LLMOPS_BENCH_ONLY=upload runs just the upload rows.
    if only.is_empty() || only == "upload" {
        upload::bench_upload(&mut out);
    }
    if only == "upload" {
        println!("{out}");
        return;
    }
    // LLMOPS_BENCH_SIZES=100000 (comma-separated) picks the index sizes while iterating.
    let picked: Vec<usize> = std::env::var("LLMOPS_BENCH_SIZES")
        .unwrap_or_default()
        .split(',')
        .filter_map(|x| x.trim().parse().ok())
        .collect();
    let sizes: &[usize] = if !picked.is_empty() {
        &picked
    } else if only_quality || only == "xling" {
        &[]
    } else if quick {
        &[1_000, 10_000]
    } else {
        &[1_000, 10_000, 100_000]
    };
    let zipf = ZipfVocab::new();
    // LLMOPS_BENCH_CORPUS=zipf|uniform picks one corpus while iterating.
    let pick = std::env::var("LLMOPS_BENCH_CORPUS").unwrap_or_default();
    for corpus in [Corpus::Zipf, Corpus::Uniform] {
        if !pick.is_empty() && !corpus.label().to_lowercase().contains(&pick) {
            continue;
        }
        for &n in sizes {
            bench_search(&mut out, n, corpus, &zipf);
            eprint!(".");
        }
    }
    if only == "search" {
        out.push_str(SEARCH_NOTE);
        println!("{out}");
        return;
    }
    if let Some(m) = model().filter(|_| only != "xling") {
        let mut lat = vec![];
        for q in [
            "database connection timeout",
            "how do I restart nginx",
            "list directory contents",
        ] {
            for _ in 0..10 {
                let t = Instant::now();
                let _ = m.embed(&[q], InputKind::Query);
                lat.push(t.elapsed().as_secs_f64() * 1000.0);
            }
        }
        out.push_str(&format!(
            "| MiniLM query embedding (added to each hybrid search with the model) | p50 {:.1} ms, p99 {:.1} ms |\n",
            pct(&mut lat.clone(), 0.5), pct(&mut lat, 0.99)
        ));
    }
    if !sizes.is_empty() {
        out.push_str(SEARCH_NOTE);
    }
    if only != "xling" {
        bench_quality(&mut out, if quick { 60 } else { 300 });
    }
    // LLMOPS_BENCH_ONLY=xling runs just the e5 part: cross-lingual and same-language
    // known-item search, identifier queries, embedding throughput.
    if only.is_empty() || only == "xling" {
        xling::bench_e5(&mut out, if quick { 60 } else { 300 });
    }
    println!("{out}");
    if only_quality || only == "xling" {
        return;
    }
    // Replace this benchmark's previous section (if any), keep everything else.
    let path = root().join("docs/benchmarks.md");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let kept = match old.find("\n## Index (") {
        Some(i) => {
            let rest = &old[i + 1..];
            let tail = rest.find("\n## ").map(|j| &rest[j..]).unwrap_or("");
            format!("{}{}", &old[..i], tail)
        }
        None => old,
    };
    if let Ok(mut f) = std::fs::File::create(&path) {
        let _ = f.write_all(format!("{}{out}", kept.trim_end_matches('\n')).as_bytes());
        let _ = f.write_all(b"\n");
    }
}
