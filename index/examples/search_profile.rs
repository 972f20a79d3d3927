//! Times the parts of one search at N synthetic chunks (a development aid next to the
//! `make bench` index benchmark): `cargo run --release -p llmops-index --example
//! search_profile -- 100000`.

use std::sync::Arc;
use std::time::Instant;

use llmops_index::embed::{Embedder, HashEmbedder, InputKind};
use llmops_index::vectors::{InProcessStore, Query, VectorStore};
use llmops_index::{Engine, EngineConfig, Mode, Scope};

fn main() {
    // The bench's word list (one source for both).
    let words: Vec<&str> = include_str!("../../tests/fixtures/bench_words.txt")
        .lines()
        .collect();
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(100_000);
    let d = std::env::temp_dir().join(format!("llmops-profile-{}", std::process::id()));
    let dim = 384;
    let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(dim));
    let emb: Arc<dyn Embedder> = Arc::new(HashEmbedder { dim });
    let Ok(e) = Engine::open(
        EngineConfig::new(d.join("index")),
        Some((emb.clone(), store.clone())),
        None,
    ) else {
        return;
    };
    let mut seed = 42u64;
    let mut f = 0;
    while (e.stats().chunks as usize) < n {
        let mut text = String::new();
        for _ in 0..1000 {
            for i in 0..110 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(words[(seed >> 33) as usize % words.len()]);
                text.push(if i % 12 == 11 { '\n' } else { ' ' });
            }
            text.push_str("\n\n");
        }
        let sess = if f % 2 == 0 { "bench" } else { "other" };
        let _ = e.index_upload(
            sess,
            &format!("f{f}"),
            &format!("file{f}.log"),
            "/x",
            &format!("sha{f}"),
            &text,
        );
        f += 1;
    }
    e.wait_idle(std::time::Duration::from_secs(3600));
    println!(
        "{} chunks, {} vectors, {} segments",
        e.stats().chunks,
        store.len(),
        e.lexical_segments()
    );
    let qs = [
        "database connection timeout",
        "nginx restart config",
        "certificate key permission",
        "swap memory load",
    ];
    let time = |label: &str, f: &mut dyn FnMut()| {
        for _ in 0..5 {
            f();
        }
        let reps: usize = std::env::var("REPS")
            .ok()
            .and_then(|r| r.parse().ok())
            .unwrap_or(60);
        let mut v: Vec<f64> = (0..reps)
            .map(|_| {
                let t = Instant::now();
                f();
                t.elapsed().as_secs_f64() * 1000.0
            })
            .collect();
        v.sort_by(|a, b| a.total_cmp(b));
        println!(
            "{label}: median {:.3} ms, min {:.3} ms",
            v[v.len() / 2],
            v[0]
        );
    };
    let tags = vec!["sys".to_string(), "u:bench".to_string()];
    let qv = emb
        .embed(&[qs[0]], InputKind::Query)
        .unwrap_or_default()
        .remove(0);
    time("vector scan, 1 query", &mut || {
        let _ = store.search(&qv, &tags, 50);
    });
    let many: Vec<Query> = (0..25)
        .map(|_| Query {
            vector: &qv,
            tags: &tags,
            k: 50,
        })
        .collect();
    time("vector scan, batch of 25 (per batch)", &mut || {
        let _ = store.search_batch(&many);
    });
    let mut i = 0;
    time("search lexical", &mut || {
        i += 1;
        let _ = e.search("bench", qs[i % qs.len()], Scope::All, 5, Mode::Lexical);
    });
    time("search dense", &mut || {
        i += 1;
        let _ = e.search("bench", qs[i % qs.len()], Scope::All, 5, Mode::Dense);
    });
    time("search hybrid", &mut || {
        i += 1;
        let _ = e.search("bench", qs[i % qs.len()], Scope::All, 5, Mode::Hybrid);
    });
    let _ = std::fs::remove_dir_all(&d);
}
