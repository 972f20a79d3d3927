//! Freeing a deleted file's index space at once: a segment that a delete leaves mostly
//! empty has its few remaining chunks re-added in the same commit, so tantivy drops the
//! whole segment (and its files) at that commit. Left alone, such a segment stayed on disk
//! until a merge read it whole through mapped files: deleting 30 uploads left 232 MB on disk
//! for 5 live chunks, and the merge that finally purged a segment like it mapped the lot
//! (the server's RSS at 197 MB, 3x idle, after the data was gone).

use tantivy::schema::IndexRecordOption;
use tantivy::{DocSet, Searcher, TantivyDocument, Term, TERMINATED};

use super::{to_chunk, ChunkDoc, Fields};
use crate::IndexError;

/// Most chunks re-added in one commit (over all the segments it empties): a second or so of
/// indexing, against a merge that reads the whole segments.
const MAX_SURVIVORS: u32 = 4096;
/// Smallest segment worth it: small segments merge cheaply anyway.
const MIN_SEGMENT_DOCS: u32 = 1024;

/// The live chunks of other files in the segments that deleting `doc_key` leaves at least
/// half deleted, at most `MAX_SURVIVORS` chunks in all. The caller deletes them by chunk id and
/// adds them again in the commit that deletes `doc_key`.
pub(super) fn survivors(
    searcher: &Searcher,
    f: &Fields,
    doc_key: &str,
) -> Result<Vec<ChunkDoc>, IndexError> {
    let term = Term::from_field_text(f.doc_key, doc_key);
    let mut out = Vec::new();
    for seg in searcher.segment_readers() {
        let max_doc = seg.max_doc();
        if max_doc < MIN_SEGMENT_DOCS {
            continue;
        }
        let alive = |d: u32| seg.alive_bitset().is_none_or(|a| a.is_alive(d));
        // This file's live chunks in the segment (doc ids ascending).
        let mut mine = Vec::new();
        if let Some(mut p) = seg
            .inverted_index(f.doc_key)?
            .read_postings(&term, IndexRecordOption::Basic)?
        {
            let mut d = p.doc();
            while d != TERMINATED {
                if alive(d) {
                    mine.push(d);
                }
                d = p.advance();
            }
        }
        if mine.is_empty() {
            continue;
        }
        let left = seg.num_docs() - mine.len() as u32;
        if left == 0 || left * 2 > max_doc {
            // Emptied (tantivy drops it at the commit), or worth keeping as it is.
            continue;
        }
        if out.len() + left as usize > MAX_SURVIVORS as usize {
            // Over the budget of one commit (all segments together): left to tantivy's
            // merges, which purge a segment more than half deleted.
            continue;
        }
        let store = seg.get_store_reader(4)?;
        let mut mine = mine.into_iter().peekable();
        for d in 0..max_doc {
            if mine.peek() == Some(&d) {
                mine.next();
                continue;
            }
            if alive(d) {
                let doc: TantivyDocument = store.get(d)?;
                out.push(to_chunk(f, &doc));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::super::Lexical;
    use super::*;

    fn chunk(key: &str, ord: u32, text: String) -> ChunkDoc {
        ChunkDoc {
            chunk_id: crate::chunk_id(key, ord),
            doc_key: key.into(),
            tag: "u:s1".into(),
            ord,
            first_line: ord * 3 + 1,
            last_line: ord * 3 + 3,
            text,
            context: String::new(),
        }
    }

    /// Adds `docs` in one commit and merges the index into one segment (the writer's two
    /// threads split a commit unevenly, which the tests must not depend on).
    fn one_segment(l: &Lexical, docs: Vec<ChunkDoc>) {
        let mut w = l.writer.lock().expect("writer");
        for c in docs {
            w.add_document(super::super::IndexedChunk { f: l.f, c })
                .expect("add");
        }
        w.commit().expect("commit");
        let ids = w.index().searchable_segment_ids().expect("segments");
        if ids.len() > 1 {
            w.merge(&ids).wait().expect("merge");
        }
        drop(w);
        l.reader.reload().expect("reload");
        assert_eq!(l.segments(), 1);
    }

    fn dir_bytes(dir: &std::path::Path) -> u64 {
        std::fs::read_dir(dir)
            .expect("list")
            .filter_map(|e| e.ok()?.metadata().ok())
            .map(|m| m.len())
            .sum()
    }

    /// Deleting a large file frees its segments on disk at once, and the other file's
    /// chunks that shared them are still there, field for field, and still found.
    #[test]
    fn index_lexical_deleting_a_file_frees_the_segments_it_leaves_nearly_empty() {
        let d = tempfile::tempdir().expect("tmp");
        let dir = d.path().join("lexical");
        let l = Lexical::open(&dir).expect("open");
        let small: Vec<ChunkDoc> = (0..3)
            .map(|i| chunk("small", i, format!("nginx upstream timed out {i}")))
            .collect();
        let big: Vec<ChunkDoc> = (0..6000)
            .map(|i| {
                chunk(
                    "big",
                    i,
                    format!("GET /api/orders/{i} 200 worker-{} ok", i % 7),
                )
            })
            .collect();
        // The small file's chunks in the big file's segment.
        one_segment(&l, small.iter().chain(&big).cloned().collect());
        assert_eq!(l.num_chunks(), 6003);
        let full = dir_bytes(&dir);
        l.remove("big").expect("remove");
        assert_eq!(l.num_chunks(), 3);
        // Only the re-added chunks' segments are left: the big file's segments are gone.
        for seg in l.reader.searcher().segment_readers() {
            assert!(
                seg.max_doc() <= 3,
                "a segment of {} docs left",
                seg.max_doc()
            );
        }
        let after = dir_bytes(&dir);
        assert!(after * 10 < full, "{after} bytes left of {full}");
        let mut kept = l.chunks_of("small").expect("chunks");
        kept.sort_by_key(|c| c.ord);
        assert_eq!(kept, small);
        let hits = l
            .search_ids(&l.query_tokens("upstream timed out"), &["u:s1".into()], 10)
            .expect("search");
        assert_eq!(hits.len(), 3);
    }

    /// A segment that keeps most of its chunks is left for tantivy's merges.
    #[test]
    fn index_lexical_a_mostly_live_segment_is_not_rewritten() {
        let l = Lexical::in_memory().expect("index");
        let mut all = Vec::new();
        for i in 0..4000 {
            all.push(chunk("keep", i, format!("disk {i} full on /var")));
            if i % 4 == 0 {
                all.push(chunk("drop", i, format!("cache miss {i}")));
            }
        }
        one_segment(&l, all);
        let searcher = l.reader.searcher();
        // Big enough to be considered: the rule, not the size floor, keeps it.
        for seg in searcher.segment_readers() {
            assert!(seg.max_doc() >= MIN_SEGMENT_DOCS, "{}", seg.max_doc());
        }
        assert!(survivors(&searcher, &l.f, "drop").expect("plan").is_empty());
        assert!(survivors(&searcher, &l.f, "absent")
            .expect("plan")
            .is_empty());
        l.remove("drop").expect("remove");
        assert_eq!(l.num_chunks(), 4000);
    }

    /// Housekeeping reports a change once: new segments, then nothing, then a delete.
    #[test]
    fn index_lexical_housekeeping_reports_each_change_once() {
        let l = Lexical::in_memory().expect("index");
        l.replace("a", vec![chunk("a", 0, "disk full".into())])
            .expect("replace");
        assert!(l.housekeep().expect("housekeep"));
        assert!(!l.housekeep().expect("housekeep"));
        l.remove("a").expect("remove");
        assert!(l.housekeep().expect("housekeep"));
        assert!(!l.housekeep().expect("housekeep"));
        assert_eq!(l.num_chunks(), 0);
    }
}
