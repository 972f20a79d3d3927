//! Which chunks are written mostly in CJK (more CJK bigrams than English words, from the
//! fields' token counts, no stored text read): the set of their ids, read once per
//! searcher generation and kept until the next commit or merge changes the segments.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use super::Lexical;
use crate::IndexError;

/// The CJK chunk ids of one searcher generation.
#[derive(Default)]
pub(super) struct CjkCache(Mutex<Option<(u64, Arc<HashSet<u64>>)>>);

impl Lexical {
    /// Of the given chunks, those written mostly in CJK. The engine weighs dense evidence
    /// across languages by it. A point lookup per chunk (a term and its postings in every
    /// segment) was a third of a hybrid search's time; the whole set costs one pass over
    /// the documents per commit.
    pub fn cjk_chunks(&self, ids: &[u64]) -> Result<HashSet<u64>, IndexError> {
        if ids.is_empty() {
            return Ok(HashSet::new());
        }
        let all = self.cjk_set()?;
        Ok(ids.iter().copied().filter(|id| all.contains(id)).collect())
    }

    /// Whether the index holds chunks written mostly in CJK, and chunks that are not.
    pub fn languages(&self) -> Result<(bool, bool), IndexError> {
        let all = self.cjk_set()?;
        let live = self.reader.searcher().num_docs();
        Ok((!all.is_empty(), live > all.len() as u64))
    }

    /// Every live CJK chunk id of the current searcher.
    fn cjk_set(&self) -> Result<Arc<HashSet<u64>>, IndexError> {
        let searcher = self.reader.searcher();
        let generation = searcher.generation().generation_id();
        let mut cache = self.cjk.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((g, set)) = cache.as_ref() {
            if *g == generation {
                return Ok(set.clone());
            }
        }
        let mut set = HashSet::new();
        for seg in searcher.segment_readers() {
            let bigram = seg.get_fieldnorms_reader(self.f.bigram)?;
            let en = seg.get_fieldnorms_reader(self.f.en)?;
            let ids = seg.fast_fields().u64("chunk_id")?;
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
        }
        let set = Arc::new(set);
        *cache = Some((generation, set.clone()));
        Ok(set)
    }
}
