//! The embedding-runtime comparison: the vendored C engine against candle on the same e5
//! model file (`embed/e5_candle.rs`). One runtime per process (so the thread count is set
//! before either runtime's pool starts: `OMP_NUM_THREADS` for the C engine,
//! `RAYON_NUM_THREADS` for candle); the driver alternates runtimes and takes medians.
//!
//! `cargo run --release -p llmops-index --features candle-e5 --example runtime_ab --
//! RUNTIME` with RUNTIME one of `c` (the best kernel level this CPU runs), `c-avx2`,
//! `c-baseline`, `candle-q4`, `candle-f32`. Prints one line: load time,
//! short and long chunks/s (wall and per CPU second), query latency p50 / p99, and the
//! lowest cosine against the C engine's baseline kernels on the same texts.

use std::path::PathBuf;
use std::time::Instant;

use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::cpu::process_cpu_secs;
use llmops_index::embed::e5_candle::{CandleE5, Precision};
use llmops_index::embed::{Embedder, InputKind, E5};
use llmops_index::kernels::Kernel;

fn texts(max_tokens: f32, n: usize) -> Vec<String> {
    let mut src = String::new();
    for p in ["/usr/share/common-licenses/GPL-3", "/var/log/dpkg.log"] {
        if let Ok(t) = std::fs::read_to_string(p) {
            src.push_str(&t.chars().take(120_000).collect::<String>());
            src.push_str("\n\n");
        }
    }
    let cfg = ChunkerConfig {
        max_tokens,
        overlap_tokens: max_tokens / 7.0,
    };
    let all: Vec<String> = chunk(&src, &cfg)
        .into_iter()
        .map(|c| c.text)
        .filter(|t| !t.trim().is_empty())
        .collect();
    // An even spread over both sources.
    let step = (all.len() / n).max(1);
    all.into_iter().step_by(step).take(n).collect()
}

/// Chunks/s on the wall clock and per CPU second, embedding `t` in calls of 64.
fn rate(m: &dyn Embedder, t: &[String]) -> (f64, f64) {
    let refs: Vec<&str> = t.iter().map(String::as_str).collect();
    let (w, c) = (Instant::now(), process_cpu_secs());
    for b in refs.chunks(m.batch_size()) {
        m.embed(b, InputKind::Passage).expect("embed");
    }
    let wall = w.elapsed().as_secs_f64();
    let cpu = (process_cpu_secs() - c).max(1e-3);
    (t.len() as f64 / wall, t.len() as f64 / cpu)
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "c".into());
    let dir = std::env::var("LLMOPS_E5_DIR").map(PathBuf::from).unwrap_or_else(|_| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../storage/models/multilingual-e5-small-q4")
    });
    let t0 = Instant::now();
    let m: Box<dyn Embedder> = match which.as_str() {
        "c" => Box::new(E5::load(&dir).expect("load")),
        "c-avx2" => Box::new(E5::load_with(&dir, Kernel::Avx2).expect("load")),
        "c-baseline" => Box::new(E5::load_with(&dir, Kernel::Baseline).expect("load")),
        "candle-q4" => Box::new(CandleE5::load(&dir, Precision::Q4).expect("load")),
        "candle-f32" => Box::new(CandleE5::load(&dir, Precision::F32).expect("load")),
        other => panic!("unknown runtime {other}"),
    };
    let load = t0.elapsed().as_secs_f64();
    let short = texts(32.0, 256);
    let long = texts(200.0, 128);
    // Warm-up (page cache, first allocations).
    m.embed(&[short[0].as_str()], InputKind::Passage).expect("warm");
    let (sw, sc) = rate(&*m, &short);
    let (lw, lc) = rate(&*m, &long);
    let queries = [
        "数据库连接超时",
        "how do I restart nginx",
        "查看磁盘空间",
        "list open files of a process",
        "防火墙端口",
    ];
    let mut lat: Vec<f64> = Vec::new();
    for i in 0..40 {
        let t = Instant::now();
        m.embed(&[queries[i % queries.len()]], InputKind::Query)
            .expect("query");
        lat.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    lat.sort_by(f64::total_cmp);
    let reference = E5::load_with(&dir, Kernel::Baseline).expect("reference");
    let check: Vec<&str> = short
        .iter()
        .take(16)
        .chain(long.iter().take(16))
        .map(String::as_str)
        .chain(queries)
        .collect();
    let a = m.embed(&check, InputKind::Passage).expect("a");
    let b = reference.embed(&check, InputKind::Passage).expect("b");
    let lowest = a
        .iter()
        .zip(&b)
        .map(|(x, y)| x.iter().zip(y).map(|(p, q)| p * q).sum::<f32>())
        .fold(1f32, f32::min);
    println!(
        "{which}\tload {load:.2} s\tshort {sw:.1}/s ({sc:.1}/CPU-s)\tlong {lw:.1}/s ({lc:.1}/CPU-s)\tquery p50 {:.1} ms p99 {:.1} ms\tlowest cosine vs baseline {lowest:.5}",
        lat[lat.len() / 2],
        lat[lat.len() * 99 / 100]
    );
}
