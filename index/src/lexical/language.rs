//! Which chunks are written mostly in CJK (more CJK bigrams than English words, from the
//! fields' token counts, no stored text read): per segment, the set of their ids, read
//! once and kept while the segment lives with the same deletions, so a commit costs a pass
//! over its new segment only.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use tantivy::index::SegmentId;
use tantivy::SegmentReader;

use super::Lexical;
use crate::IndexError;

/// A segment's live CJK chunk ids, with the number of deleted documents they were read at.
type SegmentCjk = (u32, Arc<HashSet<u64>>);

/// The CJK chunk ids of each segment of the last searcher.
#[derive(Default)]
pub(super) struct CjkCache(Mutex<HashMap<SegmentId, SegmentCjk>>);

impl Lexical {
    /// Of the given chunks, those written mostly in CJK. The engine weighs dense evidence
    /// across languages by it. A point lookup per chunk (a term and its postings in every
    /// segment) was a third of a hybrid search's time.
    pub fn cjk_chunks(&self, ids: &[u64]) -> Result<HashSet<u64>, IndexError> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let sets = self.cjk_sets()?;
        Ok(ids
            .iter()
            .copied()
            .filter(|id| sets.iter().any(|s| s.contains(id)))
            .collect())
    }

    /// Whether the index holds chunks written mostly in CJK, and chunks that are not.
    pub fn languages(&self) -> Result<(bool, bool), IndexError> {
        let sets = self.cjk_sets()?;
        let cjk: usize = sets.iter().map(|s| s.len()).sum();
        let live = self.reader.searcher().num_docs();
        Ok((cjk > 0, live > cjk as u64))
    }

    /// The live CJK chunk ids of each segment of the current searcher.
    fn cjk_sets(&self) -> Result<Vec<Arc<HashSet<u64>>>, IndexError> {
        let searcher = self.reader.searcher();
        let mut cache = self.cjk.0.lock().unwrap_or_else(|p| p.into_inner());
        let mut now = HashMap::new();
        for seg in searcher.segment_readers() {
            let deleted = seg.num_deleted_docs();
            let set = match cache.get(&seg.segment_id()) {
                Some((d, set)) if *d == deleted => set.clone(),
                _ => Arc::new(self.read_cjk(seg)?),
            };
            now.insert(seg.segment_id(), (deleted, set));
        }
        let sets = now.values().map(|(_, s)| s.clone()).collect();
        // Segments merged away or dropped leave the cache with this searcher.
        *cache = now;
        Ok(sets)
    }

    /// One segment's live CJK chunk ids.
    fn read_cjk(&self, seg: &SegmentReader) -> Result<HashSet<u64>, IndexError> {
        let bigram = seg.get_fieldnorms_reader(self.f.bigram)?;
        let en = seg.get_fieldnorms_reader(self.f.en)?;
        let ids = seg.fast_fields().u64("chunk_id")?;
        let mut set = HashSet::new();
        for doc in 0..seg.max_doc() {
            if seg.alive_bitset().is_some_and(|a| !a.is_alive(doc)) {
                continue;
            }
            if bigram.fieldnorm(doc) > en.fieldnorm(doc) {
                if let Some(id) = ids.first(doc) {
                    set.insert(id);
                }
            }
        }
        Ok(set)
    }
}
