//! Bringing files indexed by an older analysis up to the current one at start, where the
//! change only adds to what a chunk is indexed with (its context: key paths of structured
//! configs, named list items and HAProxy sections in them, Prometheus scrape jobs and
//! alerts as named items, a file's title). The chunks, their ids and their vectors stay;
//! only their lexical documents are rewritten.

use std::path::Path;

use super::catalog::Entry;
use super::Engine;
use crate::analyzers::context::FileContext;
use crate::analyzers::{keypath, title};
use crate::lexical::ChunkDoc;
use crate::IndexError;

/// The analysis new entries are indexed with: 1 = key paths stored with chunks; 2 = YAML
/// list items named in them (`containers.playback-api.resources`) and HAProxy sections;
/// 3 = Prometheus scrape jobs and alerts naming theirs (`scrape_configs.redis.static_configs`);
/// 4 = the file's title (`analyzers::title`) in every chunk's context.
pub(super) const ANALYSIS: u32 = 4;

/// Most chunks rewritten in one commit.
const BATCH_CHUNKS: usize = 4096;

impl Engine {
    /// Gives the structured and titled files of older entries their key paths and title;
    /// every older entry is then marked current. A file whose content changed since (its
    /// sha256 differs) is left to the doc sync or a new upload. Returns how many files were
    /// rewritten.
    pub(super) fn backfill(&self) -> Result<usize, IndexError> {
        let stale: Vec<Entry> = self
            .read_catalog()?
            .values()
            .filter(|e| e.analysis < ANALYSIS)
            .cloned()
            .collect();
        if stale.is_empty() {
            return Ok(0);
        }
        let (mut done, mut batch, mut chunks) = (0, Vec::new(), 0);
        for e in &stale {
            match self.with_context(e) {
                Ok(Some(docs)) => {
                    done += 1;
                    chunks += docs.len();
                    batch.push((e.key.clone(), docs));
                }
                Ok(None) => {}
                Err(err) => tracing::warn!("key paths and title of {}: {err}", e.path),
            }
            // One commit per batch, not per file; a batch's chunks held at most.
            if chunks >= BATCH_CHUNKS {
                self.lexical.replace_many(std::mem::take(&mut batch))?;
                chunks = 0;
            }
        }
        self.lexical.replace_many(batch)?;
        {
            let mut c = self.write_catalog()?;
            for e in &stale {
                if let Some(x) = c.get_mut(&e.key) {
                    x.analysis = ANALYSIS;
                }
            }
        }
        self.save()?;
        if done > 0 {
            tracing::info!("key paths and titles added to {done} files indexed before them");
        }
        Ok(done)
    }

    /// `e`'s stored chunks with their key paths and title, when its file is on disk
    /// unchanged and nests keys or has a title; `None` otherwise.
    fn with_context(&self, e: &Entry) -> Result<Option<Vec<ChunkDoc>>, IndexError> {
        use sha2::Digest;
        if e.chunks == 0 || !(keypath::may_nest(&e.filename) || title::may_have(&e.filename)) {
            return Ok(None);
        }
        let Ok(bytes) = std::fs::read(Path::new(&e.path)) else {
            return Ok(None);
        };
        // Uploads hash their bytes, docs their text (BOM stripped): either must match.
        let body = bytes
            .strip_prefix(&[0xEF, 0xBB, 0xBF][..])
            .unwrap_or(&bytes);
        let same = [&bytes[..], body]
            .iter()
            .any(|b| hex::encode(sha2::Sha256::digest(b)) == e.sha256);
        let Ok(text) = std::str::from_utf8(body) else {
            return Ok(None);
        };
        if !same {
            return Ok(None);
        }
        let context = FileContext::of(&e.filename, text);
        if context.is_empty() {
            return Ok(None);
        }
        let mut docs = self.lexical.chunks_of(&e.key)?;
        if docs.len() != e.chunks as usize {
            return Ok(None);
        }
        for d in &mut docs {
            d.context = context.chunk(d.first_line as usize, d.last_line as usize);
        }
        Ok(Some(docs))
    }
}
