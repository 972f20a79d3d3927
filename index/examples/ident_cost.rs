//! What the identifier analysis costs on the indexing path: the identifier field's and the
//! joined-identifier field's analyzers (and `compounds`, which both run) over a seeded,
//! identifier-dense synthetic log cut in 1 KB pieces, two rounds, wall time.
//! `cargo run --release -p llmops-index --example ident_cost [LINES]` (default 60000, 11 MB).

use llmops_index::analyzers::ident::compounds;
use llmops_index::analyzers::{ident_analyzer, join_analyzer, tokens};
use std::time::Instant;

fn main() {
    let lines: usize = std::env::args()
        .nth(1)
        .and_then(|v| v.parse().ok())
        .unwrap_or(60_000);
    let mut text = String::new();
    for i in 0..lines {
        text.push_str(&format!(
            "2026-11-20T10:{:02}:{:02}.123Z INFO orders-api req_id=a{i}x7 user_id={i} \
             proxy_read_timeout=90s spring.datasource.url=jdbc:postgresql://db-0{}.prod:5432/orders \
             took {}ms readTimeout=3000\n",
            i % 60,
            (i / 60) % 60,
            i % 3,
            i % 977
        ));
    }
    // 1 KB pieces cut at char boundaries (the text is ASCII).
    let pieces: Vec<&str> = text
        .as_bytes()
        .chunks(1000)
        .filter_map(|c| std::str::from_utf8(c).ok())
        .collect();
    println!("{:.1} MB, {} pieces", text.len() as f64 / 1e6, pieces.len());
    for round in 1..=2 {
        let t = Instant::now();
        let n: usize = pieces.iter().map(|p| compounds(p).len()).sum();
        println!(
            "round {round}: compounds {:?} ({n} identifiers)",
            t.elapsed()
        );
        for (name, mut a) in [
            ("identifier field", ident_analyzer()),
            ("joined field", join_analyzer()),
        ] {
            let t = Instant::now();
            let n: usize = pieces
                .iter()
                .map(|p| tokens(&mut a, p, usize::MAX).len())
                .sum();
            println!("round {round}: {name} {:?} ({n} tokens)", t.elapsed());
        }
    }
}
