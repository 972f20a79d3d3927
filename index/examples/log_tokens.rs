//! Where e5's tokens go in log chunks (issue 19): for each file given, the engine's chunks
//! at the default size, e5 tokens per chunk raw and as the dense side reads them
//! (`log_text::dense_text`), the tokens each kind of volatile field costs, how many chunks
//! share a dense text (the embed cache's hit rate), and optionally (`--time N`) e5's
//! chunks/s on the first N chunks raw and normalised, side by side.
//!
//! `cargo run --release -p llmops-index --example log_tokens -- [--time 64] FILE...`
//! (`-` reads stdin, e.g. `dmesg | ... -- -`).

use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::PathBuf;
use std::time::Instant;

use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::cpu::process_cpu_secs;
use llmops_index::embed::log_text::{fields, looks_like_log, Field};
use llmops_index::embed::passage_cache::dense_texts;
use llmops_index::embed::{Embedder, InputKind, E5};

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut time_n = 0usize;
    if let Some(i) = args.iter().position(|a| a == "--time") {
        time_n = args.get(i + 1).and_then(|v| v.parse().ok()).unwrap_or(64);
        args.drain(i..(i + 2).min(args.len()));
    }
    let dir = std::env::var("LLMOPS_E5_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../storage/models/multilingual-e5-small-q4")
        });
    let m = match E5::load(&dir) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("no e5 model: {e}");
            std::process::exit(2);
        }
    };
    let mut all_dense: HashSet<String> = HashSet::new();
    let mut all_chunks = 0usize;
    for path in &args {
        let text = if path == "-" {
            let mut s = String::new();
            if let Err(e) = std::io::stdin().read_to_string(&mut s) {
                eprintln!("stdin: {e}");
                continue;
            }
            s
        } else {
            match std::fs::read(path) {
                Ok(b) => String::from_utf8_lossy(&b).into_owned(),
                Err(e) => {
                    eprintln!("{path}: {e}");
                    continue;
                }
            }
        };
        let chunks = chunk(&text, &ChunkerConfig::default());
        let n = chunks.len();
        let (mut raw, mut dense, mut logs) = (0usize, 0usize, 0usize);
        let mut by_field: HashMap<Field, (usize, usize)> = HashMap::new();
        let mut distinct: HashSet<String> = HashSet::new();
        let refs: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        // Batches of 16 consecutive chunks, as the embedding worker sends them.
        let file_dense: Vec<String> = refs
            .chunks(16)
            .flat_map(dense_texts)
            .map(|d| d.into_owned())
            .collect();
        for (c, d) in chunks.iter().zip(&file_dense) {
            raw += m.token_count(&c.text, InputKind::Passage);
            dense += m.token_count(d, InputKind::Passage);
            if looks_like_log(&c.text) {
                logs += 1;
                for line in c.text.lines() {
                    for (r, f) in fields(line) {
                        let e = by_field.entry(f).or_default();
                        e.0 += 1;
                        e.1 += m.tokenize(&line[r]).len();
                    }
                }
            }
            distinct.insert(d.clone());
        }
        all_chunks += n;
        let hits = n - distinct.len();
        all_dense.extend(distinct);
        println!(
            "{path}: {} KB, {n} chunks ({logs} log-like), e5 tokens/chunk raw {:.1}, dense {:.1} ({:.0}% fewer); cache hits within the file {hits} ({:.1}%)",
            text.len() / 1024,
            raw as f64 / n.max(1) as f64,
            dense as f64 / n.max(1) as f64,
            100.0 * (1.0 - dense as f64 / raw.max(1) as f64),
            100.0 * hits as f64 / n.max(1) as f64
        );
        let mut kinds: Vec<_> = by_field.into_iter().collect();
        kinds.sort_by_key(|(_, (_, t))| std::cmp::Reverse(*t));
        for (f, (count, toks)) in kinds {
            println!(
                "    {f:?}: {count} fields, {toks} tokens ({:.1} per log chunk, {:.1}% of raw tokens)",
                toks as f64 / logs.max(1) as f64,
                100.0 * toks as f64 / raw.max(1) as f64
            );
        }
        if time_n > 0 {
            let texts: Vec<&str> = chunks
                .iter()
                .take(time_n)
                .map(|c| c.text.as_str())
                .collect();
            let dense: Vec<&str> = file_dense.iter().take(time_n).map(String::as_str).collect();
            let cpu_rates = std::cell::RefCell::new(vec![]);
            let rate = |t: &[&str]| {
                let s = Instant::now();
                let c = process_cpu_secs();
                for b in t.chunks(m.batch_size()) {
                    m.embed(b, InputKind::Passage).expect("embed");
                }
                cpu_rates
                    .borrow_mut()
                    .push(t.len() as f64 / (process_cpu_secs() - c).max(1e-2));
                t.len() as f64 / s.elapsed().as_secs_f64()
            };
            // Alternate raw / dense three times: a shared machine's load hits both.
            let mut r = vec![];
            let mut d = vec![];
            for _ in 0..3 {
                r.push(rate(&texts));
                d.push(rate(&dense));
            }
            r.sort_by(f64::total_cmp);
            d.sort_by(f64::total_cmp);
            // Alternating: even entries raw, odd ones dense.
            let cr = cpu_rates.into_inner();
            let mut rc: Vec<f64> = cr.iter().step_by(2).copied().collect();
            let mut dc: Vec<f64> = cr.iter().skip(1).step_by(2).copied().collect();
            rc.sort_by(f64::total_cmp);
            dc.sort_by(f64::total_cmp);
            println!(
                "    per CPU-second (user + system), median of 3: raw {:.1} chunks, dense {:.1} chunks",
                rc[1], dc[1]
            );
            let rv = m
                .embed(&texts[..texts.len().min(16)], InputKind::Passage)
                .expect("e");
            let dv = m
                .embed(&dense[..dense.len().min(16)], InputKind::Passage)
                .expect("e");
            let cos: Vec<f32> = rv
                .iter()
                .zip(&dv)
                .map(|(a, b)| a.iter().zip(b).map(|(x, y)| x * y).sum())
                .collect();
            println!(
                "    e5 on the first {} chunks, median of 3: raw {:.1} chunks/s, dense {:.1} chunks/s ({:.2}x); cosine raw vs dense min {:.3} mean {:.3}",
                texts.len(),
                r[1],
                d[1],
                d[1] / r[1],
                cos.iter().cloned().fold(1.0, f32::min),
                cos.iter().sum::<f32>() / cos.len().max(1) as f32
            );
        }
    }
    if args.len() > 1 {
        println!(
            "all files: {all_chunks} chunks, {} distinct dense texts: cache hit rate {:.1}%",
            all_dense.len(),
            100.0 * (all_chunks - all_dense.len()) as f64 / all_chunks.max(1) as f64
        );
    }
}
