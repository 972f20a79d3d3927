//! Putting files in and taking them out: chunking and indexing a file's text (uploads and
//! system docs), the incremental system-doc sync, re-pointing a duplicate upload, and
//! removing a file, an upload or a whole session (chunks, vectors and catalog entries).

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::Ordering;

use super::catalog::Entry;
use super::{Dense, Engine, State, SyncReport, SysFile};
use crate::analyzers::context::FileContext;
use crate::chunker;
use crate::lexical::ChunkDoc;
use crate::{chunk_id, IndexError};

impl Engine {
    /// Chunks and indexes `text` under `entry.key`, replacing what was there; the text is
    /// searchable when this returns. Queues dense embedding.
    pub(super) fn index_entry(
        &self,
        mut entry: Entry,
        text: String,
        durable: bool,
    ) -> Result<u32, IndexError> {
        let chunks = chunker::chunk(&text, &self.cfg.chunker);
        // Per line, the key path it sets (structured configs only), and the file's title.
        let context = FileContext::of(&entry.filename, &text);
        // The chunks hold the text now: a large file's is not kept twice while it is indexed.
        drop(text);
        // The chunks' text moves into the docs: one copy of the file's text, not two.
        let docs: Vec<ChunkDoc> = chunks
            .into_iter()
            .enumerate()
            .map(|(i, c)| ChunkDoc {
                chunk_id: chunk_id(&entry.key, i as u32),
                doc_key: entry.key.clone(),
                tag: entry.tag.clone(),
                ord: i as u32,
                first_line: c.first_line as u32,
                last_line: c.last_line as u32,
                context: context.chunk(c.first_line, c.last_line),
                text: c.text,
            })
            .collect();
        // Vectors of the previous version go first (ids are reused by position).
        let new_gen = self.next_gen.fetch_add(1, Ordering::Relaxed);
        let mut old_n = 0u32;
        {
            // Supersede a running embedding of the old version before its vectors go, so
            // it cannot write any back.
            let _g = self.vec_lock.lock().map_err(|_| IndexError::Poisoned)?;
            let old_chunks = {
                let mut c = self.write_catalog()?;
                c.get_mut(&entry.key).map(|e| {
                    e.generation = new_gen;
                    e.chunks
                })
            };
            if let Some(n) = old_chunks {
                old_n = n;
                self.delete_vectors_locked(&entry.key, n)?;
            }
        }
        let n = docs.len() as u32;
        self.lexical.replace(&entry.key, docs)?;
        self.map_ids(&entry.key, old_n, n)?;
        entry.chunks = n;
        entry.embedded = None;
        entry.failed = None;
        entry.analysis = super::backfill::ANALYSIS;
        entry.generation = new_gen;
        let key = entry.key.clone();
        let progress = Self::progress_of(&entry, State::Indexed, u64::from(n), u64::from(n), None);
        self.write_catalog()?.insert(key.clone(), entry);
        if durable {
            self.save()?;
        } else {
            self.save_debounced();
        }
        self.emit(progress);
        if self.has_dense() && n > 0 {
            self.enqueue(&key);
        }
        Ok(n)
    }

    /// Indexes an upload. Returns `Some(file_id)` of an earlier upload with the same
    /// content in this session instead of indexing it twice.
    pub fn index_upload(
        &self,
        session: &str,
        file_id: &str,
        filename: &str,
        path: &str,
        sha256: &str,
        text: impl Into<String>,
    ) -> Result<Option<String>, IndexError> {
        let key = Self::upload_key(session, sha256);
        if let Some(e) = self.read_catalog()?.get(&key) {
            if e.file_id.as_deref() != Some(file_id) {
                return Ok(e.file_id.clone());
            }
        }
        let text: String = text.into();
        let entry = Entry {
            key,
            tag: format!("u:{session}"),
            session: Some(session.into()),
            file_id: Some(file_id.into()),
            filename: filename.into(),
            path: path.into(),
            sha256: sha256.into(),
            mtime: 0,
            size: text.len() as u64,
            chunks: 0,
            embedded: None,
            failed: None,
            analysis: 0,
            generation: 0,
        };
        self.index_entry(entry, text, true)?;
        Ok(None)
    }

    /// Points an upload's entry at another file with the same content (the indexed one was
    /// deleted but a duplicate remains): no re-indexing needed.
    pub fn repoint_upload(
        &self,
        session: &str,
        sha256: &str,
        file_id: &str,
        filename: &str,
        path: &str,
    ) -> Result<bool, IndexError> {
        let key = Self::upload_key(session, sha256);
        let changed = {
            let mut c = self.write_catalog()?;
            match c.get_mut(&key) {
                Some(e) => {
                    e.file_id = Some(file_id.into());
                    e.filename = filename.into();
                    e.path = path.into();
                    true
                }
                None => false,
            }
        };
        if changed {
            self.save()?;
        }
        Ok(changed)
    }

    /// Removes a file's chunks and vectors.
    pub fn remove(&self, key: &str) -> Result<bool, IndexError> {
        let Some(e) = self.write_catalog()?.remove(key) else {
            return Ok(false);
        };
        self.drop_vectors(key, e.chunks)?;
        self.lexical.remove(key)?;
        self.map_ids(key, e.chunks, 0)?;
        self.save()?;
        Ok(true)
    }

    pub fn remove_upload(&self, session: &str, sha256: &str) -> Result<bool, IndexError> {
        self.remove(&Self::upload_key(session, sha256))
    }

    /// Removes every upload of a session (session deleted).
    pub fn remove_session(&self, session: &str) -> Result<usize, IndexError> {
        let keys: Vec<String> = self
            .read_catalog()?
            .values()
            .filter(|e| e.session.as_deref() == Some(session))
            .map(|e| e.key.clone())
            .collect();
        for k in &keys {
            self.remove(k)?;
        }
        Ok(keys.len())
    }

    pub(super) fn drop_vectors(&self, key: &str, chunks: u32) -> Result<(), IndexError> {
        let _g = self.vec_lock.lock().map_err(|_| IndexError::Poisoned)?;
        self.delete_vectors_locked(key, chunks)
    }

    /// Deletes a file's vectors; the caller holds `vec_lock`.
    pub(super) fn delete_vectors_locked(&self, key: &str, chunks: u32) -> Result<(), IndexError> {
        if let Some(Dense { vectors: v, .. }) = self.dense() {
            let ids: Vec<u64> = (0..chunks).map(|i| chunk_id(key, i)).collect();
            for part in ids.chunks(1000) {
                v.delete(part)?;
            }
        }
        Ok(())
    }

    /// Brings system docs in line with `files`: new or changed (mtime/size, then sha256)
    /// files are indexed, unchanged ones skipped, vanished ones removed.
    /// A file on disk reached twice (two roots, a symlinked or nested root, a hard link:
    /// same canonical path or same device and inode) is indexed and listed once, under its
    /// canonical path.
    pub fn sync_system(&self, files: &[SysFile]) -> Result<SyncReport, IndexError> {
        use std::os::unix::fs::MetadataExt;
        let mut report = SyncReport::default();
        let mut seen = HashSet::new();
        let mut inodes = HashSet::new();
        for f in files {
            // Built-in documents carry their text and have no file behind their path.
            let path = match &f.content {
                Some(_) => f.path.clone(),
                None => std::fs::canonicalize(&f.path).unwrap_or_else(|_| f.path.clone()),
            };
            if f.content.is_none() {
                if let Ok(m) = std::fs::metadata(&path) {
                    if !inodes.insert((m.dev(), m.ino())) {
                        report.duplicates += 1;
                        continue;
                    }
                }
            }
            let key = format!("s:{}", path.display());
            if !seen.insert(key.clone()) {
                report.duplicates += 1;
                continue;
            }
            match self.sync_doc(f, &path, key)? {
                DocSync::Unchanged => report.unchanged += 1,
                DocSync::Indexed => report.indexed += 1,
                DocSync::Failed => report.failed += 1,
            }
        }
        report.removed += self.remove_vanished(&seen)?;
        self.save()?;
        Ok(report)
    }

    /// Indexes one system doc under `key` unless the catalog already has this version
    /// (same stamp, or same content under a new stamp, which is then remembered).
    fn sync_doc(&self, f: &SysFile, path: &Path, key: String) -> Result<DocSync, IndexError> {
        use sha2::Digest;
        let existing = self.read_catalog()?.get(&key).cloned();
        if let Some(e) = &existing {
            if e.mtime == f.mtime && e.size == f.size && f.content.is_none() {
                return Ok(DocSync::Unchanged);
            }
        }
        let text = match doc_text(f, path) {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!("cannot read doc {}: {e}", f.path.display());
                return Ok(DocSync::Failed);
            }
        };
        let sha = hex::encode(sha2::Sha256::digest(text.as_bytes()));
        if let Some(e) = existing {
            if e.sha256 == sha {
                // Touched but not changed: remember the new stamp only.
                if let Some(x) = self.write_catalog()?.get_mut(&key) {
                    x.mtime = f.mtime;
                    x.size = f.size;
                }
                return Ok(DocSync::Unchanged);
            }
        }
        let entry = Entry {
            key,
            tag: "sys".into(),
            session: None,
            file_id: None,
            filename: f.filename.clone(),
            path: path.display().to_string(),
            sha256: sha,
            mtime: f.mtime,
            size: f.size,
            ..Entry::default()
        };
        match self.index_entry(entry, text, false) {
            Ok(_) => Ok(DocSync::Indexed),
            Err(e) => {
                tracing::warn!("cannot index doc {}: {e}", f.path.display());
                Ok(DocSync::Failed)
            }
        }
    }

    /// Removes the system docs not among `seen` (gone from disk or from the list); returns
    /// how many.
    fn remove_vanished(&self, seen: &HashSet<String>) -> Result<usize, IndexError> {
        let gone: Vec<String> = self
            .read_catalog()?
            .keys()
            .filter(|k| k.starts_with("s:") && !seen.contains(*k))
            .cloned()
            .collect();
        for k in &gone {
            self.remove(k)?;
        }
        Ok(gone.len())
    }
}

/// What syncing one system doc did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DocSync {
    Unchanged,
    Indexed,
    Failed,
}

/// A system doc's text: a built-in one's own, else the file's (a UTF-8 BOM dropped, invalid
/// UTF-8 replaced).
fn doc_text(f: &SysFile, path: &Path) -> std::io::Result<String> {
    if let Some(t) = &f.content {
        return Ok(t.clone());
    }
    let b = std::fs::read(path)?;
    Ok(String::from_utf8_lossy(b.strip_prefix(&[0xEF, 0xBB, 0xBF][..]).unwrap_or(&b)).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineConfig, Mode, Scope};

    fn sys(path: std::path::PathBuf) -> SysFile {
        let m = std::fs::metadata(&path).expect("meta");
        SysFile {
            filename: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            mtime: super::super::mtime_secs(&path),
            size: m.len(),
            path,
            content: None,
        }
    }

    #[test]
    fn index_sync_same_file_under_two_roots_is_one_file() {
        let d = tempfile::tempdir().expect("tmp");
        let docs = d.path().join("docs");
        std::fs::create_dir_all(docs.join("sub")).expect("mkdir");
        std::fs::write(docs.join("a.md"), "alpha quokka notes\n").expect("write");
        std::fs::write(docs.join("sub/b.md"), "beta wombat notes\n").expect("write");
        std::fs::write(docs.join("c.md"), "gamma numbat notes\n").expect("write");
        std::fs::hard_link(docs.join("c.md"), docs.join("c-link.md")).expect("hard link");
        let link = d.path().join("docs-link");
        std::os::unix::fs::symlink(&docs, &link).expect("symlink");
        // Roots: docs, docs/sub (nested) and docs-link (a symlink to docs).
        let files = vec![
            sys(docs.join("a.md")),
            sys(docs.join("sub/b.md")),
            sys(docs.join("c.md")),
            sys(docs.join("c-link.md")),
            sys(docs.join("sub/b.md")),
            sys(link.join("a.md")),
            sys(link.join("sub/b.md")),
        ];
        let e = Engine::open(EngineConfig::new(d.path().join("index")), None, None).expect("open");
        let r = e.sync_system(&files).expect("sync");
        assert_eq!((r.indexed, r.duplicates, r.failed), (3, 4, 0), "{r:?}");
        assert_eq!(e.keys().len(), 3, "{:?}", e.keys());
        let canon = std::fs::canonicalize(docs.join("a.md")).expect("canon");
        assert!(e.keys().contains(&format!("s:{}", canon.display())));
        for q in ["quokka", "wombat", "numbat"] {
            let hits = e
                .search("x", q, Scope::System, 10, Mode::Lexical)
                .expect("search");
            assert_eq!(hits.len(), 1, "{q}: {hits:?}");
        }
        let hits = e
            .search("x", "quokka", Scope::System, 10, Mode::Lexical)
            .expect("search");
        assert_eq!(hits[0].filepath, canon.display().to_string());
        // The same list again: nothing re-indexed, nothing removed.
        let r = e.sync_system(&files).expect("sync");
        assert_eq!(
            (r.indexed, r.unchanged, r.removed, r.duplicates),
            (0, 3, 0, 4)
        );
    }
}
