//! The `index-upload` section: upload + lexical index of 5 MB files through the real
//! server (loopback), a service log and a YAML of nested keys (key paths); and what each
//! step of indexing that log costs: the chunker, each analyzer over every chunk, and the
//! whole lexical index (analysis, tantivy, commit) in memory.

use std::time::{Duration, Instant};

use llmops_index::analyzers::{
    self,
    ident::{ident_analyzer, join_analyzer},
};
use llmops_index::chunker::{chunk, ChunkerConfig};
use llmops_index::lexical::{ChunkDoc, Lexical};
use llmops_tests::{ExtConn, ServerProc};

use super::pct;

/// A 5 MB service log.
fn log_body() -> String {
    let mut body = String::new();
    let mut i = 0u64;
    while body.len() < 5 * 1024 * 1024 {
        body.push_str(&format!(
            "2025-01-01T00:00:{:02} host{} service[{}]: request {} took {} ms status {}\n",
            i % 60,
            i % 17,
            i % 1000,
            i,
            i % 250,
            if i.is_multiple_of(97) { 500 } else { 200 }
        ));
        i += 1;
    }
    body
}

/// A 5 MB YAML of nested service specs: every line sets a key 1-6 levels deep, so each
/// chunk gets its key paths (`analyzers/keypath.rs`) on top of the log's work.
fn yaml_body() -> String {
    let mut body = String::new();
    let mut i = 0u64;
    while body.len() < 5 * 1024 * 1024 {
        body.push_str(&format!(
            "service-{i}:\n  spec:\n    replicas: {}\n    containers:\n      - name: app-{i}\n        image: registry.local/app:{}.{}\n        resources:\n          limits:\n            memory: {}Gi\n            cpu: \"{}\"\n        env:\n          - name: TIMEOUT_{i}\n            value: \"{}s\"\n",
            i % 5 + 1,
            i % 9,
            i % 31,
            i % 8 + 1,
            i % 4 + 1,
            i % 30 + 1
        ));
        i += 1;
    }
    body
}

/// Upload + lexical indexing of 5 MB text files through the real server (loopback): a
/// log and a YAML whose key paths are computed too; then the log's indexing cost by step.
pub fn bench_upload() -> String {
    let mut out = String::from("| what | result |\n|---|---|\n");
    let rows = [
        ("log", "log", log_body(), " (target < 500 ms)"),
        ("YAML (key paths)", "yaml", yaml_body(), ""),
    ];
    for (label, ext, body, target) in rows {
        let server = ServerProc::start_with(&["--embedder", "none"]).expect("server");
        let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
        let mut times = vec![];
        for n in 0..5 {
            // Different content each round: the same content is indexed once per session.
            let text = format!("# round {n}\n{body}");
            let t = Instant::now();
            let file = c
                .upload_bytes(&format!("big{n}.{ext}"), text.as_bytes())
                .expect("send")
                .expect("upload");
            assert_eq!(file.state, "indexed", "{file:?}");
            times.push(t.elapsed().as_secs_f64() * 1000.0);
        }
        let best = times.iter().cloned().fold(f64::MAX, f64::min);
        let med = pct(&mut times.clone(), 0.5);
        out.push_str(&format!(
            "| upload + lexical index, 5 MB {label} (searchable on return), 5 uploads | {med:.0} ms median, {best:.0} ms best{target} |\n"
        ));
    }
    out.push_str(&cost_rows());
    out
}

/// Median of 3 timings of `f`.
fn median_time(mut f: impl FnMut()) -> Duration {
    let mut t: Vec<f64> = (0..3)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    Duration::from_secs_f64(pct(&mut t, 0.5))
}

/// The 5 MB log's indexing by step (in process, medians of 3): chunking, each analyzer
/// over every chunk (the analysis tantivy runs per field), and the whole lexical index.
fn cost_rows() -> String {
    let body = log_body();
    let cfg = ChunkerConfig::default();
    let chunk_time = median_time(|| {
        std::hint::black_box(chunk(&body, &cfg));
    });
    let chunks = chunk(&body, &cfg);
    let mut rows = format!(
        "\nThe 5 MB log's lexical indexing by step, in process (medians of 3): chunking into {} chunks {:.0} ms",
        chunks.len(),
        chunk_time.as_secs_f64() * 1000.0
    );
    for (name, mut a) in [
        ("jieba words", analyzers::zh_analyzer()),
        ("CJK bigrams", analyzers::bigram_analyzer()),
        ("English words", analyzers::en_analyzer()),
        ("identifiers", ident_analyzer()),
        ("joined identifier words", join_analyzer()),
    ] {
        let mut n = 0;
        let t = median_time(|| {
            n = chunks
                .iter()
                .map(|c| analyzers::count_tokens(&mut a, &c.text))
                .sum::<usize>();
        });
        rows.push_str(&format!(
            "; {name} {:.0} ms ({n} tokens)",
            t.as_secs_f64() * 1000.0
        ));
    }
    let docs = |chunks: &[llmops_index::chunker::Chunk]| -> Vec<ChunkDoc> {
        chunks
            .iter()
            .enumerate()
            .map(|(i, c)| ChunkDoc {
                chunk_id: llmops_index::chunk_id("k", i as u32),
                doc_key: "k".into(),
                tag: "sys".into(),
                ord: i as u32,
                first_line: c.first_line as u32,
                last_line: c.last_line as u32,
                text: c.text.clone(),
                context: String::new(),
            })
            .collect()
    };
    let index = median_time(|| {
        let lex = Lexical::in_memory().expect("index");
        lex.replace("k", docs(&chunks)).expect("index the log");
    });
    rows.push_str(&format!(
        "; the whole lexical index (every analyzer, tantivy's postings, commit) {:.0} ms.\n",
        index.as_secs_f64() * 1000.0
    ));
    rows
}
