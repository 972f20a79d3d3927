//! Vector stores: the in-process default (contiguous f32 rows with an int8 mirror: a
//! quantised scan picks candidates, exact f32 dot products of unit vectors re-score them;
//! persisted as an append-only log replayed at start) and Chroma over its v2
//! HTTP API (we send the embeddings; Chroma never embeds). Ids are chunk ids; every vector
//! carries a scope tag (`sys`, `u:{session}`) used to filter searches. Blocking.

use std::collections::HashMap;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, RwLock};

use crate::IndexError;

mod q8;

pub trait VectorStore: Send + Sync {
    fn kind(&self) -> &'static str;
    fn upsert(&self, items: &[(u64, String, Vec<f32>)]) -> Result<(), IndexError>;
    fn delete(&self, ids: &[u64]) -> Result<(), IndexError>;
    /// Best `k` ids by cosine similarity among vectors whose tag is in `tags`.
    fn search(&self, q: &[f32], tags: &[String], k: usize) -> Result<Vec<(u64, f32)>, IndexError>;
    /// Several searches at once (concurrent searches batched): a store that scans memory
    /// reads it once for all of them.
    fn search_batch(&self, reqs: &[Query<'_>]) -> Vec<Result<Vec<(u64, f32)>, IndexError>> {
        reqs.iter()
            .map(|r| self.search(r.vector, r.tags, r.k))
            .collect()
    }
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Drops everything (a new embedder fingerprint).
    fn clear(&self) -> Result<(), IndexError>;
}

/// One search of a batch.
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    pub vector: &'a [f32],
    pub tags: &'a [String],
    pub k: usize,
}

#[derive(Default)]
struct Rows {
    dim: usize,
    ids: Vec<u64>,
    tags: Vec<u32>,
    data: Vec<f32>,
    /// The rows quantised to int8: a quarter of the memory traffic of the f32 rows, so the
    /// scan is cheap; f32 re-scores the best.
    q8: q8::Mirror,
    pos: HashMap<u64, usize>,
    tag_names: Vec<String>,
    tag_ids: HashMap<String, u32>,
}

impl Rows {
    fn new(dim: usize) -> Rows {
        Rows {
            dim,
            q8: q8::Mirror::new(dim),
            ..Default::default()
        }
    }

    /// A query's scan state: the tags it may see and `max(2k, k + 32)` candidates, enough
    /// beyond `k` that quantisation error (about 1e-3 of a cosine) cannot push a true top-k
    /// row out before the exact f32 re-scoring.
    fn scan_for(&self, r: &Query<'_>) -> q8::Scan {
        let allowed = self
            .tag_names
            .iter()
            .map(|t| r.tags.iter().any(|x| x == t))
            .collect();
        q8::Scan::new(&self.q8, r.vector, allowed, (2 * r.k).max(r.k + 32))
    }

    fn tag_id(&mut self, tag: &str) -> u32 {
        if let Some(&t) = self.tag_ids.get(tag) {
            return t;
        }
        let t = self.tag_names.len() as u32;
        self.tag_names.push(tag.to_string());
        self.tag_ids.insert(tag.to_string(), t);
        t
    }

    fn put(&mut self, id: u64, tag: &str, v: &[f32]) {
        let t = self.tag_id(tag);
        if let Some(&i) = self.pos.get(&id) {
            self.tags[i] = t;
            self.data[i * self.dim..(i + 1) * self.dim].copy_from_slice(v);
            self.q8.set(i, t, v);
        } else {
            self.pos.insert(id, self.ids.len());
            self.ids.push(id);
            self.tags.push(t);
            self.data.extend_from_slice(v);
            self.q8.push(t, v);
        }
    }

    fn remove(&mut self, id: u64) {
        let Some(i) = self.pos.remove(&id) else {
            return;
        };
        let last = self.ids.len() - 1;
        if i != last {
            // Swap the last row into the hole: rows stay contiguous.
            self.ids[i] = self.ids[last];
            self.tags[i] = self.tags[last];
            let (head, tail) = self.data.split_at_mut(last * self.dim);
            head[i * self.dim..(i + 1) * self.dim].copy_from_slice(&tail[..self.dim]);
            self.pos.insert(self.ids[i], i);
        }
        self.ids.pop();
        self.tags.pop();
        self.data.truncate(last * self.dim);
        self.q8.swap_remove(i);
    }
}

const MAGIC: &[u8; 8] = b"LLMVEC01";
const OP_PUT: u8 = 1;
const OP_DEL: u8 = 2;

/// In-process exact search, persisted to `{dir}/vectors.log`.
pub struct InProcessStore {
    rows: RwLock<Rows>,
    log: Mutex<Option<BufWriter<std::fs::File>>>,
    path: Option<PathBuf>,
}

impl InProcessStore {
    pub fn in_memory(dim: usize) -> InProcessStore {
        InProcessStore {
            rows: RwLock::new(Rows::new(dim)),
            log: Mutex::new(None),
            path: None,
        }
    }

    /// Loads `{dir}/vectors.log` (if its dimension matches) and compacts it.
    pub fn open(dir: &Path, dim: usize) -> Result<InProcessStore, IndexError> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join("vectors.log");
        let mut rows = Rows::new(dim);
        if path.is_file() {
            if let Err(e) = replay(&path, &mut rows) {
                tracing::warn!(
                    "vector log {} unreadable ({e}); starting empty",
                    path.display()
                );
                rows = Rows::new(dim);
            }
        }
        let s = InProcessStore {
            rows: RwLock::new(rows),
            log: Mutex::new(None),
            path: Some(path),
        };
        s.rewrite()?;
        Ok(s)
    }

    /// Writes the live rows to a fresh log and switches to it (atomic rename).
    fn rewrite(&self) -> Result<(), IndexError> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let rows = self.rows.read().map_err(|_| IndexError::Poisoned)?;
        let tmp = path.with_extension("log.tmp");
        let mut w = BufWriter::new(std::fs::File::create(&tmp)?);
        w.write_all(MAGIC)?;
        w.write_all(&(rows.dim as u32).to_le_bytes())?;
        for (i, &id) in rows.ids.iter().enumerate() {
            let tag = &rows.tag_names[rows.tags[i] as usize];
            write_put(
                &mut w,
                id,
                tag,
                &rows.data[i * rows.dim..(i + 1) * rows.dim],
            )?;
        }
        w.flush()?;
        w.get_ref().sync_all()?;
        drop(w);
        std::fs::rename(&tmp, path)?;
        let f = std::fs::OpenOptions::new().append(true).open(path)?;
        *self.log.lock().map_err(|_| IndexError::Poisoned)? = Some(BufWriter::new(f));
        Ok(())
    }

    fn append(
        &self,
        f: impl FnOnce(&mut BufWriter<std::fs::File>) -> std::io::Result<()>,
    ) -> Result<(), IndexError> {
        let mut g = self.log.lock().map_err(|_| IndexError::Poisoned)?;
        if let Some(w) = g.as_mut() {
            f(w)?;
            w.flush()?;
        }
        Ok(())
    }
}

fn write_put(w: &mut impl Write, id: u64, tag: &str, v: &[f32]) -> std::io::Result<()> {
    w.write_all(&[OP_PUT])?;
    w.write_all(&id.to_le_bytes())?;
    let t = tag.as_bytes();
    w.write_all(&(t.len() as u16).to_le_bytes())?;
    w.write_all(t)?;
    for x in v {
        w.write_all(&x.to_le_bytes())?;
    }
    Ok(())
}

fn replay(path: &Path, rows: &mut Rows) -> Result<(), IndexError> {
    let mut r = BufReader::new(std::fs::File::open(path)?);
    let mut magic = [0u8; 8];
    r.read_exact(&mut magic)?;
    let mut d = [0u8; 4];
    r.read_exact(&mut d)?;
    if &magic != MAGIC || u32::from_le_bytes(d) as usize != rows.dim {
        return Err(IndexError::Vector(
            "vector log of another format or dimension".into(),
        ));
    }
    let mut vec = vec![0f32; rows.dim];
    let mut buf = vec![0u8; rows.dim * 4];
    loop {
        let mut op = [0u8; 1];
        match r.read_exact(&mut op) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e.into()),
        }
        let mut idb = [0u8; 8];
        // A record cut short by a crash ends the log: everything before it is kept.
        if r.read_exact(&mut idb).is_err() {
            return Ok(());
        }
        let id = u64::from_le_bytes(idb);
        match op[0] {
            OP_PUT => {
                let mut l = [0u8; 2];
                if r.read_exact(&mut l).is_err() {
                    return Ok(());
                }
                let mut tag = vec![0u8; u16::from_le_bytes(l) as usize];
                if r.read_exact(&mut tag).is_err() || r.read_exact(&mut buf).is_err() {
                    return Ok(());
                }
                for (i, c) in buf.chunks_exact(4).enumerate() {
                    vec[i] = f32::from_le_bytes([c[0], c[1], c[2], c[3]]);
                }
                rows.put(id, &String::from_utf8_lossy(&tag), &vec);
            }
            OP_DEL => rows.remove(id),
            _ => return Err(IndexError::Vector("corrupt vector log".into())),
        }
    }
}

impl VectorStore for InProcessStore {
    fn kind(&self) -> &'static str {
        "in-process"
    }

    fn upsert(&self, items: &[(u64, String, Vec<f32>)]) -> Result<(), IndexError> {
        {
            let mut rows = self.rows.write().map_err(|_| IndexError::Poisoned)?;
            for (id, tag, v) in items {
                if v.len() != rows.dim {
                    return Err(IndexError::Vector(format!(
                        "vector of dimension {} in a store of {}",
                        v.len(),
                        rows.dim
                    )));
                }
                rows.put(*id, tag, v);
            }
        }
        self.append(|w| {
            for (id, tag, v) in items {
                write_put(w, *id, tag, v)?;
            }
            Ok(())
        })
    }

    fn delete(&self, ids: &[u64]) -> Result<(), IndexError> {
        {
            let mut rows = self.rows.write().map_err(|_| IndexError::Poisoned)?;
            for id in ids {
                rows.remove(*id);
            }
        }
        self.append(|w| {
            for id in ids {
                w.write_all(&[OP_DEL])?;
                w.write_all(&id.to_le_bytes())?;
            }
            Ok(())
        })
    }

    fn search(&self, q: &[f32], tags: &[String], k: usize) -> Result<Vec<(u64, f32)>, IndexError> {
        self.search_batch(&[Query { vector: q, tags, k }])
            .pop()
            .unwrap_or_else(|| Ok(vec![]))
    }

    fn search_batch(&self, reqs: &[Query<'_>]) -> Vec<Result<Vec<(u64, f32)>, IndexError>> {
        let Ok(rows) = self.rows.read() else {
            return reqs.iter().map(|_| Err(IndexError::Poisoned)).collect();
        };
        // Candidates by the int8 scan: enough beyond `k` that quantisation error (about
        // 1e-3 of a cosine) cannot push a true top-k row out; then exact f32 re-scoring.
        let mut scans: Vec<q8::Scan> = reqs
            .iter()
            .filter(|r| r.vector.len() == rows.dim && r.k > 0)
            .map(|r| rows.scan_for(r))
            .collect();
        rows.q8.scan(&mut scans);
        let mut scans = scans.into_iter();
        let mut out = Vec::with_capacity(reqs.len());
        for r in reqs {
            if r.vector.len() != rows.dim || r.k == 0 {
                out.push(Ok(vec![]));
                continue;
            }
            let Some(sc) = scans.next() else {
                out.push(Ok(vec![]));
                continue;
            };
            let mut hits: Vec<(u64, f32)> = sc
                .into_best()
                .into_iter()
                .map(|i| {
                    let row = &rows.data[i * rows.dim..(i + 1) * rows.dim];
                    (rows.ids[i], dot(row, r.vector))
                })
                .collect();
            hits.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            hits.truncate(r.k);
            out.push(Ok(hits));
        }
        out
    }

    fn len(&self) -> usize {
        self.rows.read().map(|r| r.ids.len()).unwrap_or(0)
    }

    fn clear(&self) -> Result<(), IndexError> {
        {
            let mut rows = self.rows.write().map_err(|_| IndexError::Poisoned)?;
            let dim = rows.dim;
            *rows = Rows::new(dim);
        }
        self.rewrite()
    }
}

/// Dot product with eight independent accumulators, so the compiler can vectorise it (a
/// single running float sum cannot be reordered).
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let mut acc = [0f32; 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (x, y) in ca.zip(cb) {
        for i in 0..8 {
            acc[i] += x[i] * y[i];
        }
    }
    let tail: f32 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    acc.iter().sum::<f32>() + tail
}

/// Chroma over its v2 HTTP API, one collection per embedder fingerprint.
pub struct ChromaStore {
    client: reqwest::blocking::Client,
    base: String,
    name: String,
    id: RwLock<String>,
}

impl ChromaStore {
    /// Connects to `url` (e.g. `http://127.0.0.1:8000`) and gets or creates the collection
    /// for `fingerprint`.
    pub fn connect(url: &str, fingerprint: &str) -> Result<ChromaStore, IndexError> {
        use sha2::Digest;
        let client = reqwest::blocking::Client::builder()
            .timeout(std::time::Duration::from_secs(30))
            .build()
            .map_err(|e| IndexError::Vector(e.to_string()))?;
        let h = hex::encode(&sha2::Sha256::digest(fingerprint.as_bytes())[..6]);
        let s = ChromaStore {
            client,
            base: format!(
                "{}/api/v2/tenants/default_tenant/databases/default_database/collections",
                url.trim_end_matches('/')
            ),
            name: format!("llmops_{h}"),
            id: RwLock::new(String::new()),
        };
        s.create()?;
        Ok(s)
    }

    fn create(&self) -> Result<(), IndexError> {
        let v = self.call(
            reqwest::Method::POST,
            &self.base,
            Some(serde_json::json!({
                "name": self.name,
                "get_or_create": true,
                "metadata": {"hnsw:space": "cosine"},
            })),
        )?;
        let id = v["id"]
            .as_str()
            .ok_or_else(|| IndexError::Vector(format!("chroma: no collection id in {v}")))?;
        *self.id.write().map_err(|_| IndexError::Poisoned)? = id.to_string();
        Ok(())
    }

    fn coll(&self, op: &str) -> Result<String, IndexError> {
        let id = self.id.read().map_err(|_| IndexError::Poisoned)?;
        Ok(format!("{}/{}/{}", self.base, id, op))
    }

    fn call(
        &self,
        method: reqwest::Method,
        url: &str,
        body: Option<serde_json::Value>,
    ) -> Result<serde_json::Value, IndexError> {
        let mut req = self.client.request(method, url);
        if let Some(b) = body {
            req = req.json(&b);
        }
        let resp = req
            .send()
            .map_err(|e| IndexError::Vector(format!("chroma: {e}")))?;
        let status = resp.status();
        let text = resp.text().unwrap_or_default();
        if !status.is_success() {
            let t: String = text.chars().take(300).collect();
            return Err(IndexError::Vector(format!("chroma: HTTP {status}: {t}")));
        }
        if text.trim().is_empty() {
            return Ok(serde_json::Value::Null);
        }
        serde_json::from_str(&text).map_err(|e| IndexError::Vector(format!("chroma: {e}")))
    }
}

impl VectorStore for ChromaStore {
    fn kind(&self) -> &'static str {
        "chroma"
    }

    fn upsert(&self, items: &[(u64, String, Vec<f32>)]) -> Result<(), IndexError> {
        if items.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = items.iter().map(|i| i.0.to_string()).collect();
        let embs: Vec<&Vec<f32>> = items.iter().map(|i| &i.2).collect();
        let metas: Vec<serde_json::Value> = items
            .iter()
            .map(|i| serde_json::json!({"tag": i.1}))
            .collect();
        self.call(
            reqwest::Method::POST,
            &self.coll("upsert")?,
            Some(serde_json::json!({"ids": ids, "embeddings": embs, "metadatas": metas})),
        )?;
        Ok(())
    }

    fn delete(&self, ids: &[u64]) -> Result<(), IndexError> {
        if ids.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = ids.iter().map(|i| i.to_string()).collect();
        self.call(
            reqwest::Method::POST,
            &self.coll("delete")?,
            Some(serde_json::json!({"ids": ids})),
        )?;
        Ok(())
    }

    fn search(&self, q: &[f32], tags: &[String], k: usize) -> Result<Vec<(u64, f32)>, IndexError> {
        if tags.is_empty() || k == 0 {
            return Ok(vec![]);
        }
        let filter = if tags.len() == 1 {
            serde_json::json!({"tag": tags[0]})
        } else {
            serde_json::json!({"tag": {"$in": tags}})
        };
        let v = self.call(
            reqwest::Method::POST,
            &self.coll("query")?,
            Some(serde_json::json!({
                "query_embeddings": [q],
                "n_results": k,
                "where": filter,
                "include": ["distances"],
            })),
        )?;
        let ids = v["ids"][0].as_array().cloned().unwrap_or_default();
        let dists = v["distances"][0].as_array().cloned().unwrap_or_default();
        Ok(ids
            .iter()
            .zip(dists.iter())
            .filter_map(|(i, d)| {
                let id = i.as_str()?.parse::<u64>().ok()?;
                // Cosine distance is 1 - cosine similarity.
                Some((id, 1.0 - d.as_f64()? as f32))
            })
            .collect())
    }

    fn len(&self) -> usize {
        self.coll("count")
            .and_then(|u| self.call(reqwest::Method::GET, &u, None))
            .ok()
            .and_then(|v| v.as_u64())
            .unwrap_or(0) as usize
    }

    fn clear(&self) -> Result<(), IndexError> {
        let url = format!("{}/{}", self.base, self.name);
        let _ = self.call(reqwest::Method::DELETE, &url, None);
        self.create()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(v: &[f32]) -> Vec<f32> {
        crate::embed::normalize(v.to_vec())
    }

    #[test]
    fn index_vectors_search_delete_persist() {
        let d = tempfile::tempdir().expect("tmp");
        let tags = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        {
            let s = InProcessStore::open(d.path(), 3).expect("open");
            s.upsert(&[
                (1, "sys".into(), unit(&[1.0, 0.0, 0.0])),
                (2, "u:a".into(), unit(&[0.9, 0.1, 0.0])),
                (3, "u:b".into(), unit(&[0.0, 1.0, 0.0])),
                (4, "sys".into(), unit(&[0.0, 0.0, 1.0])),
            ])
            .expect("put");
            let r = s
                .search(&unit(&[1.0, 0.0, 0.0]), &tags(&["sys", "u:a"]), 2)
                .expect("q");
            assert_eq!(r.iter().map(|x| x.0).collect::<Vec<_>>(), [1, 2]);
            assert!((r[0].1 - 1.0).abs() < 1e-5);
            let r = s
                .search(&unit(&[1.0, 0.0, 0.0]), &tags(&["u:b"]), 5)
                .expect("q");
            assert_eq!(r.len(), 1);
            s.delete(&[1]).expect("del");
            assert_eq!(s.len(), 3);
        }
        let s = InProcessStore::open(d.path(), 3).expect("reopen");
        assert_eq!(s.len(), 3, "persisted across restart");
        let r = s
            .search(&unit(&[1.0, 0.0, 0.0]), &tags(&["sys", "u:a"]), 1)
            .expect("q");
        assert_eq!(r[0].0, 2);
        // Another dimension: the old log is not reused.
        let s = InProcessStore::open(d.path(), 4).expect("reopen 4");
        assert_eq!(s.len(), 0);
    }

    /// The int8 scan + f32 re-score returns exactly the exact top-k (seeded random unit
    /// vectors, rows updated and deleted so the mirror must follow).
    #[test]
    fn index_vectors_quantised_scan_equals_exact() {
        let dim = 384;
        let mut seed = 7u64;
        let mut rnd = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as f32 / (1u64 << 31) as f32) - 0.5
        };
        let s = InProcessStore::in_memory(dim);
        let mut all: HashMap<u64, Vec<f32>> = HashMap::new();
        let items: Vec<(u64, String, Vec<f32>)> = (0..3000u64)
            .map(|id| {
                let v = unit(&(0..dim).map(|_| rnd()).collect::<Vec<_>>());
                (id, if id % 3 == 0 { "sys" } else { "u:a" }.to_string(), v)
            })
            .collect();
        s.upsert(&items).expect("put");
        for (id, _, v) in &items {
            all.insert(*id, v.clone());
        }
        let del: Vec<u64> = (0..3000).step_by(7).collect();
        s.delete(&del).expect("del");
        for id in &del {
            all.remove(id);
        }
        let tags = vec!["u:a".to_string()];
        let qs: Vec<Vec<f32>> = (0..20)
            .map(|_| unit(&(0..dim).map(|_| rnd()).collect::<Vec<_>>()))
            .collect();
        for q in &qs {
            let got = s.search(q, &tags, 50).expect("search");
            let mut exact: Vec<(u64, f32)> = all
                .iter()
                .filter(|(id, _)| *id % 3 != 0)
                .map(|(id, v)| (*id, dot(v, q)))
                .collect();
            exact.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            exact.truncate(50);
            assert_eq!(
                got.iter().map(|x| x.0).collect::<Vec<_>>(),
                exact.iter().map(|x| x.0).collect::<Vec<_>>()
            );
        }
        // Every kernel this CPU has picks the same candidates as the portable loop, for a
        // batch of 15 different queries (grouped 8, 4, 2, 1 at a time).
        let rows = s.rows.read().expect("rows");
        let reqs: Vec<Query> = qs[..15]
            .iter()
            .map(|q| Query {
                vector: q,
                tags: &tags,
                k: 50,
            })
            .collect();
        let run = |k: q8::Kernel| -> Vec<Vec<usize>> {
            let mut batch: Vec<q8::Scan> = reqs.iter().map(|r| rows.scan_for(r)).collect();
            rows.q8.scan_with(k, &mut batch);
            batch
                .into_iter()
                .map(|sc| {
                    let mut v = sc.into_best();
                    v.sort_unstable();
                    v
                })
                .collect()
        };
        let want = run(q8::Kernel::Generic);
        for k in q8::Kernel::available() {
            assert_eq!(run(k), want, "{k:?}");
        }
    }

    #[test]
    fn index_vectors_dot_matches_naive() {
        let a: Vec<f32> = (0..389).map(|i| (i as f32 * 0.37).sin()).collect();
        let b: Vec<f32> = (0..389).map(|i| (i as f32 * 0.11).cos()).collect();
        let naive: f32 = a.iter().zip(&b).map(|(x, y)| x * y).sum();
        assert!((dot(&a, &b) - naive).abs() < 1e-3);
    }

    #[test]
    fn index_vectors_truncated_log_keeps_prefix() {
        let d = tempfile::tempdir().expect("tmp");
        {
            let s = InProcessStore::open(d.path(), 2).expect("open");
            s.upsert(&[
                (1, "sys".into(), vec![1.0, 0.0]),
                (2, "sys".into(), vec![0.0, 1.0]),
            ])
            .expect("put");
        }
        let p = d.path().join("vectors.log");
        let len = std::fs::metadata(&p).expect("meta").len();
        let f = std::fs::OpenOptions::new()
            .write(true)
            .open(&p)
            .expect("open");
        f.set_len(len - 3).expect("truncate");
        let s = InProcessStore::open(d.path(), 2).expect("reopen");
        assert_eq!(s.len(), 1);
    }
}
