//! The embedding rows of the index benchmark (`index-embed`): the default embedder (e5, in
//! process) at every kernel level this CPU runs, short and long chunks on 1 and 2
//! threads, and the query latency; log chunks raw next to the dense text the server
//! embeds (tokens, rate, dense recall on this machine's logs and on a planted log); and a
//! log file through the engine's embedding worker end to end.

use super::*;
use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::embed::log_text::looks_like_log;
use llmops_index::embed::passage_cache::dense_texts;
use llmops_index::embed::{CachedPassages, E5};
use llmops_index::kernels::Kernel;
use llmops_tests::cpu::process_cpu_secs;

extern "C" {
    /// libgomp's (linked by llmops-index): the calling thread's OpenMP team size, which
    /// the engine's calls made from this thread use.
    fn omp_set_num_threads(n: std::ffi::c_int);
}

fn set_threads(n: usize) {
    // SAFETY: sets an OpenMP setting of the calling thread; any positive count is valid.
    unsafe { omp_set_num_threads(n.max(1) as std::ffi::c_int) };
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

/// (chunks per wall second, chunks per CPU second) of `m` over `texts` in calls of its
/// batch size.
fn rate(m: &E5, texts: &[&str]) -> (f64, f64) {
    let t = Instant::now();
    let c = process_cpu_secs();
    for b in texts.chunks(m.batch_size().max(1)) {
        m.embed(b, InputKind::Passage).expect("embed");
    }
    let n = texts.len() as f64;
    (
        n / t.elapsed().as_secs_f64().max(1e-6),
        n / (process_cpu_secs() - c).max(1e-2),
    )
}

/// The median of `runs` runs of a rate pair.
fn median_rate(runs: usize, mut f: impl FnMut() -> (f64, f64)) -> (f64, f64) {
    let (mut a, mut b): (Vec<f64>, Vec<f64>) = (0..runs).map(|_| f()).unzip();
    (pct(&mut a, 0.5), pct(&mut b, 0.5))
}

/// The first `n` chunks of `text` cut at `max_tokens`.
fn chunks_of(text: &str, max_tokens: f32, n: usize) -> Vec<String> {
    let cfg = ChunkerConfig {
        max_tokens,
        overlap_tokens: ChunkerConfig::default().overlap_tokens * max_tokens / 200.0,
    };
    chunk(text, &cfg)
        .into_iter()
        .take(n)
        .map(|c| c.text)
        .collect()
}

/// Throughput per kernel level, chunk length and thread count (levels alternated within
/// each trial, medians of three), and each level's query latency.
fn bench_levels(out: &mut String, dir: &Path, short_src: &str, long_src: &str) {
    let levels = Kernel::available();
    let models: Vec<E5> = levels
        .iter()
        .filter_map(|k| E5::load_with(dir, *k).ok())
        .collect();
    let short = chunks_of(short_src, 32.0, 256);
    let long = chunks_of(long_src, 200.0, 64);
    let toks = |v: &[String]| {
        v.iter()
            .map(|t| models[0].token_count(t, InputKind::Passage))
            .sum::<usize>() as f64
            / v.len().max(1) as f64
    };
    out.push_str(&format!(
        "Chunks per second of the default embedder (multilingual-e5-small 4-bit, in process) at each kernel level this CPU runs (`LLMOPS_KERNEL`), on the same chunks: {} short chunks of log text (about {:.0} e5 tokens each) and {} long chunks of man-page text (about {:.0} tokens), in calls of {}, on 1 thread and on 2; levels alternated, median of 3 trials; in brackets per CPU second (user + system, the figure to compare on a shared machine). Query latency: one short query (English or Chinese) per call, not cached.\n\n| kernel level | short, 1 thread | short, 2 threads | long, 1 thread | long, 2 threads | query p50 / p99 |\n|---|---|---|---|---|---|\n",
        short.len(),
        toks(&short),
        long.len(),
        toks(&long),
        models.first().map_or(0, |m| m.batch_size())
    ));
    let sets: [&[String]; 2] = [&short, &long];
    let mut cells: Vec<Vec<Vec<(f64, f64)>>> = vec![vec![vec![]; 4]; models.len()];
    for _ in 0..3 {
        for (mi, m) in models.iter().enumerate() {
            for (si, set) in sets.iter().enumerate() {
                let refs: Vec<&str> = set.iter().map(String::as_str).collect();
                for (ti, threads) in [1usize, 2].iter().enumerate() {
                    set_threads(*threads);
                    cells[mi][si * 2 + ti].push(rate(m, &refs));
                }
            }
            eprint!(".");
        }
    }
    set_threads(std::thread::available_parallelism().map_or(1, |n| n.get()));
    let queries = [
        "数据库连接超时",
        "how do I restart nginx",
        "查看磁盘空间",
        "list open files",
    ];
    for (mi, m) in models.iter().enumerate() {
        let mut row = format!("| {} |", m.kernel().name());
        for c in &cells[mi] {
            let mut it = c.iter().copied();
            let (w, cpu) = median_rate(c.len(), || it.next().unwrap_or_default());
            row.push_str(&format!(" {w:.1} ({cpu:.1}) |"));
        }
        let mut lat: Vec<f64> = (0..40)
            .map(|i| {
                let q = format!("{} {i}", queries[i % queries.len()]);
                let t = Instant::now();
                let _ = m.embed(&[q.as_str()], InputKind::Query);
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        row.push_str(&format!(
            " {:.1} / {:.1} ms |\n",
            pct(&mut lat.clone(), 0.5),
            pct(&mut lat, 0.99)
        ));
        out.push_str(&row);
    }
}

/// Log chunks raw next to their dense text: tokens per chunk, e5's rate on the first `n`
/// chunks (alternated three times, medians), and how many chunks share a dense text with
/// an earlier one (the embed cache's hits).
fn bench_dense_text(out: &mut String, m: &E5, texts: &[(String, &str)], n: usize) {
    out.push_str(&format!(
        "\nLog normalisation (`embed::passage_cache`): the dense side reads a log chunk with its timestamps removed, uuids, long hex, IPv4 addresses, numbers of 5+ digits and dotted versions replaced by one-word placeholders, repeated lines once, and without the lines it shares with the chunk before it; other text as it is; BM25 indexes the raw text. Default chunker; rates on the first {n} chunks, {} kernels, alternated three times (medians):\n\n| text | chunks (log-like) | e5 tokens/chunk raw -> dense | raw chunks/s (per CPU-s) | dense chunks/s (per CPU-s) | speed-up | chunks sharing a dense text |\n|---|---|---|---|---|---|---|\n",
        m.kernel().name()
    ));
    for (label, text) in texts {
        let chunks: Vec<String> = chunk(text, &ChunkerConfig::default())
            .into_iter()
            .map(|c| c.text)
            .collect();
        let refs: Vec<&str> = chunks.iter().map(String::as_str).collect();
        let dense: Vec<String> = refs
            .chunks(64)
            .flat_map(dense_texts)
            .map(|d| d.into_owned())
            .collect();
        let logs = chunks.iter().filter(|c| looks_like_log(c)).count();
        let toks = |v: &[String]| -> f64 {
            v.iter()
                .map(|t| m.token_count(t, InputKind::Passage))
                .sum::<usize>() as f64
                / v.len().max(1) as f64
        };
        let distinct: std::collections::HashSet<&String> = dense.iter().collect();
        let hits = dense.len() - distinct.len();
        let raw: Vec<&str> = chunks.iter().take(n).map(String::as_str).collect();
        let den: Vec<&str> = dense.iter().take(n).map(String::as_str).collect();
        let (mut rr, mut dd) = (vec![], vec![]);
        for _ in 0..3 {
            rr.push(rate(m, &raw));
            dd.push(rate(m, &den));
        }
        let mut it = rr.into_iter();
        let (r, rc) = median_rate(3, || it.next().unwrap_or_default());
        let mut it = dd.into_iter();
        let (d, dc) = median_rate(3, || it.next().unwrap_or_default());
        out.push_str(&format!(
            "| {label} | {} ({logs}) | {:.0} -> {:.0} | {r:.1} ({rc:.1}) | **{d:.1}** ({dc:.1}) | {:.2}x | {hits} ({:.1}%) |\n",
            chunks.len(),
            toks(&chunks),
            toks(&dense),
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
/// holding its answer), e5 on the raw chunks and on the dense text.
fn bench_log_recall(out: &mut String, m: &Arc<E5>, logs: &[(String, String)]) {
    let cached = CachedPassages::new(m.clone());
    let sides: [&dyn Embedder; 2] = [m.as_ref(), &cached];
    let mut hits = [0usize; 2];
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
        for (side, emb) in sides.iter().enumerate() {
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
        "\nDense-only recall@3 on {asked} questions about this machine's logs ({}; English and Chinese, a hit is a top-3 chunk holding the answering line): e5 on the raw chunks {:.3}, on the dense text {:.3}.\n",
        which.join(", "),
        hits[0] as f64 / asked as f64,
        hits[1] as f64 / asked as f64
    ));
}

/// A log file through upload, lexical indexing and the embedding worker (e5 behind the
/// log normalisation and embed cache, the server's default), three runs, medians.
fn bench_end_to_end(out: &mut String, m: &Arc<E5>, path: &str, text: &str) {
    let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
    let (mut dense_s, mut cpu_s, mut chunks) = (vec![], vec![], 0);
    for _ in 0..3 {
        let d = tempfile::tempdir().expect("tmp");
        let embedder: Arc<dyn Embedder> = Arc::new(CachedPassages::new(m.clone()));
        let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(embedder.dim()));
        let e = Engine::open(
            EngineConfig::new(d.path().join("index")),
            Some((embedder, store)),
            None,
        )
        .expect("engine");
        let t = Instant::now();
        e.index_upload("bench", "log", "app.log", "app.log", "sha-log", text)
            .expect("index");
        let lex = t.elapsed().as_secs_f64();
        let cpu0 = process_cpu_secs();
        e.wait_idle(Duration::from_secs(3600));
        cpu_s.push(process_cpu_secs() - cpu0);
        dense_s.push(t.elapsed().as_secs_f64() - lex);
        chunks = e.stats().chunks;
        eprint!(".");
    }
    let (dw, dc) = (pct(&mut dense_s, 0.5), pct(&mut cpu_s, 0.5));
    let five_mb = chunks as f64 * 5.0 * 1024.0 * 1024.0 / text.len().max(1) as f64;
    out.push_str(&format!(
        "\nEnd to end: `{path}` ({} KB, {chunks} chunks) indexed by the engine with e5 behind the log normalisation and embed cache (the server's default), median of 3 runs: dense-ready {dw:.1} s after the lexical indexing (**{:.1} chunks/s**, {:.1} per CPU second). A 5 MB log of this kind (about {five_mb:.0} chunks) would take about {:.0} s with this machine's {cores} cores free for it.\n",
        text.len() / 1024,
        chunks as f64 / dw.max(1e-3),
        chunks as f64 / dc.max(1e-3),
        five_mb * dc / chunks.max(1) as f64 / cores as f64
    ));
}

/// The `index-embed` section's body.
pub fn bench(dir: &Path, man_text: &str) -> String {
    let Ok(m) = E5::load(dir) else {
        return "Skipped: no e5 model (run `make setup`).".into();
    };
    let m = Arc::new(m);
    let log = log_text();
    let short_src = log.as_ref().map_or(man_text, |(_, t)| t.as_str());
    let mut out = String::new();
    bench_levels(&mut out, dir, short_src, man_text);
    let all_logs = logs();
    let mut dt: Vec<(String, &str)> = all_logs
        .iter()
        .map(|(l, t)| (format!("log {l}"), t.as_str()))
        .collect();
    dt.push(("man-page text".to_string(), man_text));
    bench_dense_text(&mut out, &m, &dt, 48);
    bench_log_recall(&mut out, &m, &all_logs);
    super::planted_log::bench_planted_log_recall(&mut out, &m);
    match log {
        Some((path, text)) => bench_end_to_end(&mut out, &m, &path, &text),
        None => out.push_str("\nNo log file of 20 KB or more on this machine: the end-to-end row is skipped (LLMOPS_BENCH_LOG=path).\n"),
    }
    out
}
