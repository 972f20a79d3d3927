//! The embedder the multilingual bench rows share: vectors remembered by text, so a second
//! engine over the same corpus (another translator) costs no second embedding pass; and,
//! while iterating on ranking (`LLMOPS_BENCH_E5_CACHE=FILE`), kept on disk between runs so
//! a run embeds only the texts it has not seen (the file is a development aid: it is not
//! keyed by model or kernels, delete it when either changes; the bench's reported rows
//! come from a run without it).

use super::*;

pub struct Memo {
    pub inner: Arc<dyn Embedder>,
    seen: Mutex<HashMap<(String, bool), Vec<f32>>>,
}

impl Memo {
    pub fn new(inner: Arc<dyn Embedder>) -> Memo {
        let seen = cache_file().map(|p| load(&p)).unwrap_or_default();
        Memo {
            inner,
            seen: Mutex::new(seen),
        }
    }

    /// Writes the remembered vectors to `LLMOPS_BENCH_E5_CACHE` (when set).
    pub fn save(&self) {
        let Some(path) = cache_file() else { return };
        let seen = self.seen.lock().expect("memo lock");
        let mut buf: Vec<u8> = Vec::new();
        for ((text, q), v) in seen.iter() {
            buf.push(u8::from(*q));
            buf.extend_from_slice(&(text.len() as u32).to_le_bytes());
            buf.extend_from_slice(text.as_bytes());
            buf.extend_from_slice(&(v.len() as u32).to_le_bytes());
            for x in v {
                buf.extend_from_slice(&x.to_le_bytes());
            }
        }
        // Written beside and renamed: an interrupted run leaves the old cache whole.
        let tmp = path.with_extension("tmp");
        match std::fs::write(&tmp, &buf).and_then(|_| std::fs::rename(&tmp, &path)) {
            Ok(()) => eprintln!("e5 cache: {} vectors in {}", seen.len(), path.display()),
            Err(e) => eprintln!("e5 cache not written to {}: {e}", path.display()),
        }
    }
}

fn cache_file() -> Option<PathBuf> {
    std::env::var_os("LLMOPS_BENCH_E5_CACHE").map(PathBuf::from)
}

/// The cache's entries; an unreadable or cut file gives what was read before the cut.
fn load(path: &Path) -> HashMap<(String, bool), Vec<f32>> {
    let mut out = HashMap::new();
    let Ok(b) = std::fs::read(path) else {
        return out;
    };
    let u32_at = |i: usize| -> Option<usize> {
        Some(u32::from_le_bytes(b.get(i..i + 4)?.try_into().ok()?) as usize)
    };
    let mut i = 0;
    while i < b.len() {
        let q = b[i] == 1;
        let Some(tl) = u32_at(i + 1) else { break };
        let Some(text) = b.get(i + 5..i + 5 + tl) else {
            break;
        };
        let Some(n) = u32_at(i + 5 + tl) else { break };
        let start = i + 9 + tl;
        let Some(raw) = b.get(start..start + 4 * n) else {
            break;
        };
        let v: Vec<f32> = raw
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        out.insert((String::from_utf8_lossy(text).into_owned(), q), v);
        i = start + 4 * n;
    }
    eprintln!("e5 cache: {} vectors from {}", out.len(), path.display());
    out
}

impl Embedder for Memo {
    fn fingerprint(&self) -> String {
        self.inner.fingerprint()
    }
    fn dim(&self) -> usize {
        self.inner.dim()
    }
    fn embed(
        &self,
        texts: &[&str],
        kind: InputKind,
    ) -> Result<Vec<Vec<f32>>, llmops_index::IndexError> {
        let q = matches!(kind, InputKind::Query);
        let missing: Vec<&str> = {
            let seen = self.seen.lock().expect("memo lock");
            texts
                .iter()
                .copied()
                .filter(|t| !seen.contains_key(&(t.to_string(), q)))
                .collect()
        };
        if !missing.is_empty() {
            let v = self.inner.embed(&missing, kind)?;
            let mut seen = self.seen.lock().expect("memo lock");
            for (t, v) in missing.iter().zip(v) {
                seen.insert((t.to_string(), q), v);
            }
        }
        let seen = self.seen.lock().expect("memo lock");
        Ok(texts
            .iter()
            .map(|t| seen.get(&(t.to_string(), q)).cloned().unwrap_or_default())
            .collect())
    }
    fn batch_size(&self) -> usize {
        self.inner.batch_size()
    }
    fn cos_scale(&self) -> (f32, f32) {
        self.inner.cos_scale()
    }
    fn orders_senses(&self) -> bool {
        self.inner.orders_senses()
    }
}
