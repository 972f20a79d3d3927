//! An embedder wrapper for indexing speed: passages are embedded as their dense text
//! (`log_text::dense_text`: log chunks without volatile fields and repeated lines), and
//! chunks whose dense text is identical share one vector: within a batch, and across
//! batches and files through a bounded content -> vector cache. Queries pass through
//! (as their dense text too, so a pasted log line meets log chunks on equal terms). The
//! vector space is the inner model's: same fingerprint, same dimension.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use super::log_text::{dense_text, looks_like_log};
use super::{Embedder, InputKind};
use crate::IndexError;

/// Dense texts kept per generation (two generations: a hit in the old one moves it to the
/// new one, so recently used texts survive a turnover). About 2 KB each with e5.
const GENERATION: usize = 4096;

#[derive(Default)]
struct Generations {
    new: HashMap<String, Arc<[f32]>>,
    old: HashMap<String, Arc<[f32]>>,
}

impl Generations {
    fn get(&mut self, key: &str) -> Option<Arc<[f32]>> {
        if let Some(v) = self.new.get(key) {
            return Some(v.clone());
        }
        let v = self.old.remove(key)?;
        self.put(key.to_string(), v.clone());
        Some(v)
    }
    fn put(&mut self, key: String, v: Arc<[f32]>) {
        if self.new.len() >= GENERATION {
            self.old = std::mem::take(&mut self.new);
        }
        self.new.insert(key, v);
    }
}

/// Chunks per model call from the embedding worker (the model splits a call into parallel
/// jobs itself).
const BATCH: usize = 64;

pub struct CachedPassages {
    inner: Arc<dyn Embedder>,
    cache: Mutex<Generations>,
}

impl CachedPassages {
    pub fn new(inner: Arc<dyn Embedder>) -> CachedPassages {
        CachedPassages {
            inner,
            cache: Mutex::new(Generations::default()),
        }
    }

    fn passages(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, IndexError> {
        let dense = dense_texts(texts);
        // Each text's vector: known already, or the index of the model input it takes.
        enum Slot {
            Known(Arc<[f32]>),
            Input(usize),
        }
        let mut slots = Vec::with_capacity(texts.len());
        let mut inputs: Vec<&str> = vec![];
        let mut first: HashMap<&str, usize> = HashMap::new();
        {
            let mut c = self.cache.lock().map_err(|_| IndexError::Poisoned)?;
            for d in &dense {
                let d: &str = d;
                if let Some(v) = c.get(d) {
                    slots.push(Slot::Known(v));
                } else if let Some(&k) = first.get(d) {
                    slots.push(Slot::Input(k));
                } else {
                    first.insert(d, inputs.len());
                    slots.push(Slot::Input(inputs.len()));
                    inputs.push(d);
                }
            }
        }
        let vecs: Vec<Arc<[f32]>> = if inputs.is_empty() {
            vec![]
        } else {
            // The worker's batch may be larger than the inner model takes per call.
            let mut out = Vec::with_capacity(inputs.len());
            for group in inputs.chunks(self.inner.batch_size().max(1)) {
                out.extend(self.inner.embed(group, InputKind::Passage)?);
            }
            if out.len() != inputs.len() {
                return Err(IndexError::Embed(format!(
                    "asked for {} vectors, got {}",
                    inputs.len(),
                    out.len()
                )));
            }
            out.into_iter().map(Arc::from).collect()
        };
        {
            let mut c = self.cache.lock().map_err(|_| IndexError::Poisoned)?;
            for (d, v) in inputs.iter().zip(&vecs) {
                c.put((*d).to_string(), v.clone());
            }
        }
        Ok(slots
            .into_iter()
            .map(|s| match s {
                Slot::Known(v) => v.to_vec(),
                Slot::Input(k) => vecs[k].to_vec(),
            })
            .collect())
    }
}

/// How much of log chunk `next` repeats the end of log chunk `prev` (the chunker's overlap
/// between neighbours of one file): the longest start of `next` ending at a line end that
/// `prev` ends with, at most half of `next`; 0 unless both look like logs. Each line of a
/// log stands alone, so the dense side reads those lines once, in `prev`; BM25 still has
/// them in both chunks.
pub fn log_overlap(prev: &str, next: &str) -> usize {
    if !looks_like_log(prev) || !looks_like_log(next) {
        return 0;
    }
    let mut best = 0;
    for (e, _) in next.match_indices('\n') {
        if e > next.len() / 2 {
            break;
        }
        for k in [e, e + 1] {
            if k > best && prev.ends_with(&next[..k]) {
                best = k;
            }
        }
    }
    best
}

/// What the model reads of a batch of passages (consecutive chunks of a file, usually):
/// each one's dense text, a log chunk without the lines it shares with the one before.
pub fn dense_texts<'a>(texts: &[&'a str]) -> Vec<Cow<'a, str>> {
    texts
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            let k = i.checked_sub(1).map_or(0, |p| log_overlap(texts[p], t));
            dense_text(&t[k..])
        })
        .collect()
}

impl Embedder for CachedPassages {
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        match kind {
            InputKind::Passage => self.passages(texts),
            InputKind::Query => {
                let dense: Vec<_> = texts.iter().map(|t| dense_text(t)).collect();
                let refs: Vec<&str> = dense.iter().map(|d| d.as_ref()).collect();
                self.inner.embed(&refs, kind)
            }
        }
    }
    fn batch_size(&self) -> usize {
        BATCH
    }
    fn cos_scale(&self) -> (f32, f32) {
        self.inner.cos_scale()
    }
    fn orders_senses(&self) -> bool {
        self.inner.orders_senses()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::HashEmbedder;

    /// The hash embedder, counting the texts it is asked to embed.
    struct Counting {
        inner: HashEmbedder,
        seen: Mutex<Vec<String>>,
    }

    impl Embedder for Counting {
        fn fingerprint(&self) -> String {
            self.inner.fingerprint()
        }
        fn dim(&self) -> usize {
            self.inner.dim
        }
        fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
            self.seen
                .lock()
                .expect("lock")
                .extend(texts.iter().map(|t| t.to_string()));
            self.inner.embed(texts, kind)
        }
    }

    #[test]
    fn index_passage_cache_embeds_each_dense_text_once() {
        let counting = Arc::new(Counting {
            inner: HashEmbedder { dim: 32 },
            seen: Mutex::new(vec![]),
        });
        let c = CachedPassages::new(counting.clone());
        assert_eq!(c.fingerprint(), counting.fingerprint());
        let a = "2025-01-01 10:00:01 sshd[9]: Connection refused from 10.0.0.7";
        let b = "2025-01-01 10:07:44 sshd[9]: Connection refused from 10.0.0.8";
        let man = "df displays the amount of disk space available";
        let first = c.embed(&[a, man, b], InputKind::Passage).expect("embed");
        // a and b differ only in volatile fields: one model input for both.
        assert_eq!(
            *counting.seen.lock().expect("lock"),
            vec![
                "sshd[9]: Connection refused from IP".to_string(),
                man.to_string()
            ]
        );
        assert_eq!(first[0], first[2]);
        // A later batch (another file) reuses the cached vectors.
        let again = c.embed(&[man, b], InputKind::Passage).expect("embed");
        assert_eq!(counting.seen.lock().expect("lock").len(), 2);
        assert_eq!(again[0], first[1]);
        assert_eq!(again[1], first[0]);
        // The vectors are the inner model's for the dense text, non-log text as it is.
        let direct = counting
            .inner
            .embed(
                &["sshd[9]: Connection refused from IP", man],
                InputKind::Passage,
            )
            .expect("direct");
        assert_eq!(first[0], direct[0]);
        assert_eq!(first[1], direct[1]);
        // Queries are not cached (the engine has its own query cache).
        c.embed(&[man], InputKind::Query).expect("query");
        assert_eq!(counting.seen.lock().expect("lock").len(), 3);
    }

    #[test]
    fn index_passage_cache_reads_log_overlap_once() {
        use crate::chunker::{chunk, ChunkerConfig};
        let log: String = (0..40)
            .map(|i| {
                format!(
                    "2025-01-01 10:00:{:02} worker[{i}]: job step {i} finished ok\n",
                    i % 60
                )
            })
            .collect();
        let chunks = chunk(&log, &ChunkerConfig::default());
        assert!(chunks.len() >= 3);
        let texts: Vec<&str> = chunks.iter().map(|c| c.text.as_str()).collect();
        let counting = Arc::new(Counting {
            inner: HashEmbedder { dim: 16 },
            seen: Mutex::new(vec![]),
        });
        let c = CachedPassages::new(counting.clone());
        c.embed(&texts, InputKind::Passage).expect("embed");
        let seen = counting.seen.lock().expect("lock").clone();
        // Every log line is read exactly once over all chunks, none cut in half.
        let lines: Vec<&str> = seen.iter().flat_map(|t| t.lines()).collect();
        let want: Vec<String> = (0..40)
            .map(|i| format!("worker[{i}]: job step {i} finished ok"))
            .collect();
        assert_eq!(lines, want);
        // Text that is not a log keeps its overlap.
        assert_eq!(log_overlap("a b c\nd e f\n", "d e f\ng h i\n"), 0);
        assert_eq!(
            log_overlap(
                "10:00:00 a\n10:00:01 b\n",
                "10:00:01 b\n10:00:02 c\n10:00:03 d\n"
            ),
            11
        );
    }

    #[test]
    fn index_passage_cache_survives_a_generation_turnover() {
        let counting = Arc::new(Counting {
            inner: HashEmbedder { dim: 8 },
            seen: Mutex::new(vec![]),
        });
        let c = CachedPassages::new(counting.clone());
        let texts: Vec<String> = (0..GENERATION * 2 + 10)
            .map(|i| format!("text {i}"))
            .collect();
        for t in &texts {
            c.embed(&[t.as_str()], InputKind::Passage).expect("embed");
            // The first text is used all along: it stays cached.
            c.embed(&[texts[0].as_str()], InputKind::Passage)
                .expect("embed");
        }
        // Each text reached the model once.
        assert_eq!(counting.seen.lock().expect("lock").len(), texts.len());
    }

    /// With e5: text that is not a log embeds exactly as before; a normalised log chunk
    /// stays nearest to its raw self; the placeholders are short in e5's vocabulary.
    #[test]
    fn index_passage_cache_e5_keeps_other_text_and_log_meaning() {
        use crate::embed::e5::tests::e5_dir;
        use crate::embed::tests::cos;
        use crate::embed::E5;
        let Some(dir) = e5_dir() else { return };
        let e5 = Arc::new(E5::load(&dir).expect("load"));
        let c = CachedPassages::new(e5.clone());
        let other = [
            "bzip2 compresses files using the Burrows-Wheeler block sorting algorithm",
            "数据库连接超时，请检查 proxy_read_timeout 设置",
            "server {\n  listen 10.0.0.1:8080;\n  proxy_read_timeout 300000;\n}",
            "Released 2019-07-13 with 0xdeadbeef12 fixes",
        ];
        for kind in [InputKind::Passage, InputKind::Query] {
            let a = c.embed(&other, kind).expect("cached");
            let b = e5.embed(&other, kind).expect("e5");
            for (i, (x, y)) in a.iter().zip(&b).enumerate() {
                assert!(cos(x, y) > 0.9999, "text {i} {kind:?}: {}", cos(x, y));
            }
        }
        let logs = [
            "2025-06-24 14:36:25 startup archives unpack\n2025-06-24 14:36:25 upgrade libsystemd0:amd64 252.36-1~deb12u1 252.38-1~deb12u1\n2025-06-24 14:36:26 status half-configured libsystemd0:amd64 252.38-1~deb12u1",
            "[    0.254696] Memory: 3218172K/25165432K available (18478K kernel code)\n[    0.265514] NET: Registered PF_NETLINK/PF_ROUTE protocol family",
            "Nov 24 13:13:51 web1 sshd[811]: Failed password for root from 203.0.113.9 port 52814 ssh2\nNov 24 13:13:53 web1 sshd[811]: Connection closed by 203.0.113.9 port 52814",
            "2026-11-20 10:00:00 ERROR [orders] payment 4f1c2a9e-0b7d-4c55-9a1e-2f6b3c8d9e10 declined\n2026-11-20 10:00:01 WARN [orders] retry queue length 123456",
        ];
        let raw = e5.embed(&logs, InputKind::Passage).expect("raw");
        let dense = c.embed(&logs, InputKind::Passage).expect("dense");
        assert!(dense_texts(&logs).iter().zip(logs).all(|(d, t)| d != t));
        for (i, d) in dense.iter().enumerate() {
            let best = (0..raw.len())
                .max_by(|&a, &b| cos(d, &raw[a]).total_cmp(&cos(d, &raw[b])))
                .expect("four");
            assert_eq!(best, i, "log {i}: nearest raw chunk is {best}");
            eprintln!("log {i}: cosine raw vs dense text {:.3}", cos(d, &raw[i]));
        }
        for p in ["N", "IP", "hex", "uuid", "V"] {
            let n = e5.tokenize(p).len();
            assert!(n <= 2, "placeholder {p}: {n} tokens");
        }
    }
}
