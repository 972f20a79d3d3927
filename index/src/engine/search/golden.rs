//! The golden ranking: every question of the ops dev set (`tests/fixtures/ops/tuning`)
//! searched over its documents, lexical and dense, with the dense side replayed from
//! stored e5 vectors (`index/testdata/golden/vectors.bin`), so no model is needed; the
//! hits (file, lines, similarity, how they matched) must equal `expected.txt` exactly.
//! A change to any stage of the ranking that moves a result fails here and shows what
//! moved. After an intended change: `LLMOPS_GOLDEN=update cargo test -p llmops-index
//! golden` rewrites `expected.txt` (review its diff); after a change to what is embedded
//! (chunking, translation, the queries), `LLMOPS_GOLDEN=record` (needs the e5 model)
//! embeds the texts again first.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::embed::{Embedder, InputKind};
use crate::vectors::{InProcessStore, VectorStore};
use crate::{Engine, EngineConfig, IndexError, Mode, Scope};

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/golden")
}

fn set_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/ops/tuning")
}

/// Vectors by (kind, text): e5's, stored int8 per vector with one scale.
type Stored = HashMap<(bool, String), Vec<f32>>;

/// The replayed embedder: e5's fingerprint, scale and sense ordering, its stored vectors;
/// a text without one is recorded as missing (and gets a zero vector).
struct Replay {
    stored: Stored,
    missing: Mutex<Vec<String>>,
}

impl Embedder for Replay {
    fn fingerprint(&self) -> String {
        "multilingual-e5-small-q4/384".into()
    }
    fn dim(&self) -> usize {
        384
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        let q = kind == InputKind::Query;
        Ok(texts
            .iter()
            .map(|t| {
                self.stored
                    .get(&(q, t.to_string()))
                    .cloned()
                    .unwrap_or_else(|| {
                        if let Ok(mut m) = self.missing.lock() {
                            m.push(format!("{kind:?}: {t}"));
                        }
                        vec![0.0; 384]
                    })
            })
            .collect())
    }
    fn cos_scale(&self) -> (f32, f32) {
        (0.78, 0.92)
    }
    fn orders_senses(&self) -> bool {
        true
    }
}

/// Every text another embedder is asked for, with its vector.
struct Recording {
    inner: Arc<dyn Embedder>,
    seen: Mutex<Stored>,
}

impl Embedder for Recording {
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        let v = self.inner.embed(texts, kind)?;
        if let Ok(mut seen) = self.seen.lock() {
            for (t, x) in texts.iter().zip(&v) {
                seen.insert((kind == InputKind::Query, t.to_string()), x.clone());
            }
        }
        Ok(v)
    }
    fn cos_scale(&self) -> (f32, f32) {
        self.inner.cos_scale()
    }
    fn orders_senses(&self) -> bool {
        self.inner.orders_senses()
    }
}

/// `vectors.bin`: per vector, kind (u8), text length (u32) and bytes, scale (f32), 384
/// signed bytes.
fn save(stored: &Stored, path: &Path) {
    let mut keys: Vec<&(bool, String)> = stored.keys().collect();
    keys.sort();
    let mut buf = Vec::new();
    for k in keys {
        let v = &stored[k];
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs())).max(1e-12);
        let scale = max / 127.0;
        buf.push(u8::from(k.0));
        buf.extend_from_slice(&(k.1.len() as u32).to_le_bytes());
        buf.extend_from_slice(k.1.as_bytes());
        buf.extend_from_slice(&scale.to_le_bytes());
        buf.extend(
            v.iter()
                .map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8 as u8),
        );
    }
    std::fs::write(path, buf).expect("write vectors.bin");
}

fn load(path: &Path) -> Stored {
    let b = std::fs::read(path).unwrap_or_default();
    let mut out = HashMap::new();
    let mut i = 0;
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]) as usize;
    while i < b.len() {
        let q = b[i] == 1;
        let n = u32_at(i + 1);
        let text = String::from_utf8_lossy(&b[i + 5..i + 5 + n]).into_owned();
        i += 5 + n;
        let scale = f32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        i += 4;
        let v: Vec<f32> = b[i..i + 384]
            .iter()
            .map(|&x| f32::from(x as i8) * scale)
            .collect();
        i += 384;
        out.insert((q, text), crate::embed::normalize(v));
    }
    out
}

/// The set's documents and its questions.
fn corpus() -> (Vec<(String, String)>, Vec<String>) {
    let mut docs: Vec<(String, String)> = std::fs::read_dir(set_dir().join("docs"))
        .expect("ops tuning docs")
        .flatten()
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(e.path()).expect("doc"))
        })
        .collect();
    docs.sort();
    let queries = std::fs::read_to_string(set_dir().join("queries.tsv"))
        .expect("queries")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t').map(|(_, q)| q.trim().to_string()))
        .collect();
    (docs, queries)
}

/// The results of every question (hybrid, the server's top 5 and per-file cap; and
/// lexical alone, top 3) on an engine over the set with `embedder`.
fn run(embedder: Arc<dyn Embedder>) -> String {
    let (docs, queries) = corpus();
    let d = tempfile::tempdir().expect("tmp");
    let store: Arc<dyn VectorStore> = Arc::new(InProcessStore::in_memory(384));
    let e = Engine::open(
        EngineConfig::new(d.path().join("index")),
        Some((embedder, store.clone())),
        None,
    )
    .expect("open");
    for (i, (name, text)) in docs.iter().enumerate() {
        e.index_upload("s", &format!("f{i}"), name, name, &format!("sha{i}"), text)
            .expect("index");
    }
    assert!(
        e.wait_idle(std::time::Duration::from_secs(120)),
        "embedding did not finish"
    );
    // A ranking that moved because some file's vectors are missing is an indexing fault,
    // not a ranking change: say which.
    let not_ready: Vec<String> = e
        .keys()
        .into_iter()
        .filter(|k| !matches!(e.state_of(k), Some((crate::engine::State::Ready, _))))
        .map(|k| format!("{k}: {:?}", e.state_of(&k)))
        .collect();
    assert!(not_ready.is_empty(), "files not embedded: {not_ready:?}");
    let chunks = e.stats().chunks;
    assert_eq!(store.len() as u64, chunks, "one stored vector per chunk");
    let mut out = String::new();
    for q in &queries {
        for (mode, k) in [(Mode::Hybrid, 5), (Mode::Lexical, 3)] {
            out.push_str(&format!("## {q} ({mode:?})\n"));
            for h in e.search("s", q, Scope::Uploads, k, mode).expect("search") {
                out.push_str(&format!(
                    "{} {} {:.3} {}\n",
                    h.filename, h.position, h.similarity, h.match_type
                ));
            }
        }
    }
    out
}

#[test]
fn index_golden_ranking_of_the_ops_dev_set() {
    let mode = std::env::var("LLMOPS_GOLDEN").unwrap_or_default();
    let vectors = data_dir().join("vectors.bin");
    let expected_path = data_dir().join("expected.txt");
    if mode == "record" {
        let dir =
            crate::embed::e5::tests::e5_dir().expect("LLMOPS_GOLDEN=record needs the e5 model");
        let e5: Arc<dyn Embedder> = Arc::new(crate::embed::E5::load(&dir).expect("load e5"));
        let rec = Arc::new(Recording {
            inner: e5,
            seen: Mutex::new(HashMap::new()),
        });
        run(rec.clone());
        save(&rec.seen.lock().expect("recorded"), &vectors);
    }
    let replay = Arc::new(Replay {
        stored: load(&vectors),
        missing: Mutex::new(Vec::new()),
    });
    let got = run(replay.clone());
    let missing = replay.missing.lock().expect("missing").clone();
    assert!(
        missing.is_empty(),
        "{} texts have no stored vector (re-record with LLMOPS_GOLDEN=record): {:?}",
        missing.len(),
        &missing[..missing.len().min(5)]
    );
    if mode == "update" || mode == "record" {
        std::fs::write(&expected_path, &got).expect("write expected.txt");
        return;
    }
    let want = std::fs::read_to_string(&expected_path).unwrap_or_default();
    if got != want {
        let moved: Vec<String> = got
            .split("## ")
            .zip(want.split("## "))
            .filter(|(g, w)| g != w)
            .take(5)
            .map(|(g, w)| format!("now:\n## {g}was:\n## {w}"))
            .collect();
        panic!(
            "the ranking moved ({} of {} results differ; LLMOPS_GOLDEN=update rewrites \
             expected.txt after an intended change):\n{}",
            got.split("## ")
                .zip(want.split("## "))
                .filter(|(g, w)| g != w)
                .count(),
            got.matches("## ").count(),
            moved.join("\n")
        );
    }
}
