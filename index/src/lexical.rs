//! The lexical index: tantivy with three analyzed views of every chunk (jieba words, CJK
//! bigrams, stemmed English words), one document per chunk, keyed by the file's doc key so
//! a file's chunks are replaced or removed together. Queries are BM25 OR queries built from
//! the analyzers' tokens (a user's `"`, `:` or `AND` is just text). Blocking: call from
//! blocking threads.

use std::path::Path;
use std::sync::Mutex;

use tantivy::collector::{DocSetCollector, TopDocs};
use tantivy::directory::MmapDirectory;
use tantivy::query::{
    BooleanQuery, BoostQuery, ConstScoreQuery, DisjunctionMaxQuery, Occur, Query, TermQuery,
};
use tantivy::schema::{
    Field, IndexRecordOption, Schema, TextFieldIndexing, TextOptions, Value, FAST, INDEXED, STORED,
    STRING,
};
use tantivy::tokenizer::TextAnalyzer;
use tantivy::{Index, IndexReader, IndexWriter, ReloadPolicy, Searcher, TantivyDocument, Term};

use crate::analyzers::{self, BIGRAM, EN, IDENT, IDENT_JOIN, ZH};
use crate::rank::RankParams;
use crate::IndexError;

mod chunk_doc;
mod compact;
mod language;
mod query;
use chunk_doc::IndexedChunk;
use query::{bm25_idf, sense_boost};
pub use query::{JoinedForm, QueryTokens, TrField};

/// One chunk as stored in the lexical index.
#[derive(Debug, Clone, PartialEq)]
pub struct ChunkDoc {
    pub chunk_id: u64,
    pub doc_key: String,
    /// Scope tag: `sys` or `u:{session}`.
    pub tag: String,
    pub ord: u32,
    pub first_line: u32,
    pub last_line: u32,
    pub text: String,
    /// The full paths of the keys the chunk's lines set under a block and the blocks they
    /// sit in (`analyzers::keypath::chunk_context`; empty for unstructured text), and last
    /// its file's title on a line of its own (`analyzers::title`), indexed as identifiers
    /// with the text.
    pub context: String,
}

#[derive(Clone, Copy)]
struct Fields {
    chunk_id: Field,
    doc_key: Field,
    tag: Field,
    ord: Field,
    first_line: Field,
    last_line: Field,
    body: Field,
    zh: Field,
    bigram: Field,
    en: Field,
    ident: Field,
    /// Joined forms of identifiers' words (`analyzers::ident::joined`).
    ident_join: Field,
    /// `ChunkDoc::context`, stored (compaction and migration re-add chunks from storage).
    context: Field,
}

pub struct Lexical {
    writer: Mutex<IndexWriter<IndexedChunk>>,
    reader: IndexReader,
    f: Fields,
    /// Prototypes cloned per query: a shared analyzer behind a lock serialised every
    /// search (and stalled them all whenever its holder was descheduled).
    analyzers: (TextAnalyzer, TextAnalyzer, TextAnalyzer),
    /// The segments at the last `housekeep` (to tell when merges changed them).
    seen: Mutex<Vec<tantivy::index::SegmentId>>,
    /// The CJK chunks of the current searcher generation (`cjk_chunks`).
    cjk: language::CjkCache,
    /// The query's clause boosts (`RankParams`'s lexical part).
    p: RankParams,
}

const MAX_QUERY_TOKENS: usize = 48;

/// A word inside an identifier scored by its presence: IDF x `boost`, what BM25 gives
/// one occurrence in a chunk of average length. The identifier field of most chunks is
/// nearly empty, so BM25's length norm sank a config chunk full of keys: `timeout` in
/// nginx.conf's block of `*_timeout` keys scored a fifth of one key alone (test
/// `index_lexical_identifier_words_score_by_presence`).
fn presence_query(term: Term, boost: f32, idf: f32) -> Box<dyn Query> {
    let score = boost * idf;
    let q = TermQuery::new(term, IndexRecordOption::Basic);
    Box::new(ConstScoreQuery::new(Box::new(q), score))
}

/// A term scored by BM25, times `boost`.
fn bm25_query(term: Term, boost: f32) -> Box<dyn Query> {
    let q = TermQuery::new(term, IndexRecordOption::WithFreqs);
    Box::new(BoostQuery::new(Box::new(q), boost))
}

/// One clause that scores the best of `alts` (none when empty).
fn any_of(mut alts: Vec<Box<dyn Query>>) -> Option<Box<dyn Query>> {
    match alts.len() {
        0 => None,
        1 => alts.pop(),
        _ => Some(Box::new(DisjunctionMaxQuery::with_tie_breaker(alts, 0.0))),
    }
}

/// Segments above this many chunks are left out of merges (see `with_index`).
const MAX_MERGED_CHUNKS: usize = 50_000;

fn to_chunk(f: &Fields, d: &TantivyDocument) -> ChunkDoc {
    let s = |f: Field| {
        d.get_first(f)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let u = |f: Field| d.get_first(f).and_then(|v| v.as_u64()).unwrap_or(0);
    ChunkDoc {
        chunk_id: u(f.chunk_id),
        doc_key: s(f.doc_key),
        tag: s(f.tag),
        ord: u(f.ord) as u32,
        first_line: u(f.first_line) as u32,
        last_line: u(f.last_line) as u32,
        text: s(f.body),
        context: s(f.context),
    }
}

/// An analyzed, unstored text field on tokenizer `name` (term frequencies, no positions).
fn text(name: &str) -> TextOptions {
    TextOptions::default().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(name)
            .set_index_option(IndexRecordOption::WithFreqs),
    )
}

fn schema() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let f = Fields {
        chunk_id: b.add_u64_field("chunk_id", INDEXED | STORED | FAST),
        doc_key: b.add_text_field("doc_key", STRING | STORED),
        tag: b.add_text_field("tag", STRING | STORED),
        ord: b.add_u64_field("ord", STORED),
        first_line: b.add_u64_field("first_line", STORED),
        last_line: b.add_u64_field("last_line", STORED),
        body: b.add_text_field("body", STORED),
        zh: b.add_text_field("zh", text(ZH)),
        bigram: b.add_text_field("bigram", text(BIGRAM)),
        en: b.add_text_field("en", text(EN)),
        ident: b.add_text_field("ident", text(IDENT)),
        ident_join: b.add_text_field("ident_join", text(IDENT_JOIN)),
        context: b.add_text_field("context", STORED),
    };
    (b.build(), f)
}

impl Lexical {
    /// Opens (or creates) the index in `dir`. An index written with an older schema (before
    /// the identifier field) is rebuilt from its stored chunks first.
    pub fn open(dir: &Path) -> Result<Lexical, IndexError> {
        let old = dir.with_extension("old");
        if !dir.exists() && old.exists() {
            // A crash between the two renames of a migration: take the old one back.
            std::fs::rename(&old, dir)?;
        }
        std::fs::create_dir_all(dir)?;
        let (schema, f) = schema();
        let mmap = MmapDirectory::open(dir).map_err(|e| IndexError::Lexical(e.to_string()))?;
        if Index::exists(&mmap).map_err(|e| IndexError::Lexical(e.to_string()))? {
            let existing = Index::open(mmap.clone())?;
            if existing.schema() != schema {
                drop(existing);
                drop(mmap);
                Self::migrate(dir)?;
                return Self::open(dir);
            }
        }
        let index = Index::open_or_create(mmap, schema)?;
        Self::with_index(index, f)
    }

    /// Rewrites the index in `dir` with the current schema from the stored chunk texts:
    /// built beside it, then swapped in by two renames.
    fn migrate(dir: &Path) -> Result<(), IndexError> {
        let chunks = {
            let index = Index::open_in_dir(dir)?;
            let sch = index.schema();
            let field = |n: &str| {
                sch.get_field(n)
                    .map_err(|e| IndexError::Lexical(e.to_string()))
            };
            let f = Fields {
                chunk_id: field("chunk_id")?,
                doc_key: field("doc_key")?,
                tag: field("tag")?,
                ord: field("ord")?,
                first_line: field("first_line")?,
                last_line: field("last_line")?,
                body: field("body")?,
                zh: field("zh")?,
                bigram: field("bigram")?,
                en: field("en")?,
                // Not read: only the stored fields above are.
                ident: field("en")?,
                ident_join: field("en")?,
                // An index from before key paths has none: a numeric field reads as "".
                context: field("context").or_else(|_| field("chunk_id"))?,
            };
            let reader = index.reader()?;
            let searcher = reader.searcher();
            let addrs = searcher.search(&tantivy::query::AllQuery, &DocSetCollector)?;
            let mut out = Vec::with_capacity(addrs.len());
            for a in addrs {
                let d: TantivyDocument = searcher.doc(a)?;
                out.push(to_chunk(&f, &d));
            }
            out
        };
        tracing::info!(
            "lexical index {}: new schema, re-indexing {} stored chunks",
            dir.display(),
            chunks.len()
        );
        let fresh = dir.with_extension("migrating");
        if fresh.exists() {
            std::fs::remove_dir_all(&fresh)?;
        }
        std::fs::create_dir_all(&fresh)?;
        {
            let (schema, f) = schema();
            let index = Index::create_in_dir(&fresh, schema)?;
            let lex = Self::with_index(index, f)?;
            let mut by_key: std::collections::BTreeMap<&str, Vec<ChunkDoc>> = Default::default();
            for c in &chunks {
                by_key
                    .entry(c.doc_key.as_str())
                    .or_default()
                    .push(c.clone());
            }
            for (key, docs) in by_key {
                lex.replace(key, docs)?;
            }
        }
        let old = dir.with_extension("old");
        if old.exists() {
            std::fs::remove_dir_all(&old)?;
        }
        std::fs::rename(dir, &old)?;
        std::fs::rename(&fresh, dir)?;
        std::fs::remove_dir_all(&old)?;
        Ok(())
    }

    /// An in-memory index (tests, benchmarks).
    pub fn in_memory() -> Result<Lexical, IndexError> {
        let (schema, f) = schema();
        Self::with_index(Index::create_in_ram(schema), f)
    }

    fn with_index(index: Index, f: Fields) -> Result<Lexical, IndexError> {
        index.tokenizers().register(ZH, analyzers::zh_analyzer());
        index
            .tokenizers()
            .register(BIGRAM, analyzers::bigram_analyzer());
        index.tokenizers().register(EN, analyzers::en_analyzer());
        index
            .tokenizers()
            .register(IDENT, analyzers::ident_analyzer());
        index
            .tokenizers()
            .register(IDENT_JOIN, analyzers::join_analyzer());
        // Two indexing threads: this machine kind has two cores. 40 MB of arenas (20 per
        // thread; tantivy's floor is 15): the budget is heap held while a file is indexed.
        // One merge at a time (tantivy runs up to 4): a merge reads its segments through
        // mapped files, which count in the server's RSS while it runs, so concurrent merges
        // after a burst of uploads added up; two cores cannot run four anyway.
        let writer: IndexWriter<IndexedChunk> = index.writer_with_options(
            tantivy::indexer::IndexWriterOptions::builder()
                .num_worker_threads(2)
                .memory_budget_per_thread(20_000_000)
                .num_merge_threads(1)
                .build(),
        )?;
        // Merge as soon as 3 segments share a size level (tantivy waits for 8): a query
        // looks every term up once per segment, so at 100k chunks 14 segments made it
        // about a third slower. Merges run on tantivy's threads, not the upload's.
        let mut policy = tantivy::merge_policy::LogMergePolicy::default();
        policy.set_min_num_segments(3);
        // A segment more than half deleted is merged (purged) even alone: tantivy's default
        // never purges for deletes, so a deleted file's text stayed on disk. Segments left
        // with few chunks are emptied without a merge (`compact`).
        policy.set_del_docs_ratio_before_merge(0.5);
        // Segments above this many chunks are not merged further: a merge reads its inputs
        // through mapped files (counted in RSS while it runs), and without a cap the last
        // merges of a large upload burst read the whole index at once (180 MB mapped at the
        // end of 30 concurrent 9 MB uploads). 50k chunks is about 25 MB of
        // text; a merge reads at most three such segments.
        policy.set_max_docs_before_merge(MAX_MERGED_CHUNKS);
        writer.set_merge_policy(Box::new(policy));
        // Commits reload the reader at once (`replace`); a finished background merge is
        // picked up by the directory watch.
        let reader = index
            .reader_builder()
            .reload_policy(ReloadPolicy::OnCommitWithDelay)
            .try_into()?;
        Ok(Lexical {
            writer: Mutex::new(writer),
            reader,
            f,
            analyzers: (
                analyzers::zh_analyzer(),
                analyzers::bigram_analyzer(),
                analyzers::en_analyzer(),
            ),
            seen: Mutex::default(),
            cjk: Default::default(),
            p: RankParams::default(),
        })
    }

    /// The same index with the ranking's query boosts set (`EngineConfig::rank`).
    pub fn with_params(mut self, p: RankParams) -> Lexical {
        self.p = p;
        self
    }

    /// Replaces all chunks of `doc_key` with `chunks`, commits and reloads the reader, so
    /// the new text is searchable when this returns. The chunks move into the writer: each
    /// one's text is read by every field from that one copy.
    /// Segments the delete leaves nearly empty lose their other chunks too, re-added in the
    /// same commit, so their files go at once (`compact`).
    pub fn replace(&self, doc_key: &str, chunks: Vec<ChunkDoc>) -> Result<(), IndexError> {
        let mut w = self.writer.lock().map_err(|_| IndexError::Poisoned)?;
        // Read under the writer's lock: no other commit can change what is alive meanwhile.
        let moved = compact::survivors(&self.reader.searcher(), &self.f, doc_key)?;
        w.delete_term(Term::from_field_text(self.f.doc_key, doc_key));
        for c in &moved {
            w.delete_term(Term::from_field_u64(self.f.chunk_id, c.chunk_id));
        }
        if !moved.is_empty() {
            tracing::info!(
                "lexical index: {} chunks of other files re-added to free the segments {doc_key} leaves nearly empty",
                moved.len()
            );
        }
        // Added after the deletes: a delete only hits documents added before it.
        for c in chunks.into_iter().chain(moved) {
            w.add_document(IndexedChunk { f: self.f, c })?;
        }
        w.commit()?;
        drop(w);
        self.reader.reload()?;
        Ok(())
    }

    /// Rewrites the chunks of several files in one commit (a commit per file made a start
    /// that gives hundreds of older configs their key paths wait on hundreds of commits).
    /// No segment compaction: each file gets back the chunks it had, with more indexed.
    pub fn replace_many(&self, files: Vec<(String, Vec<ChunkDoc>)>) -> Result<(), IndexError> {
        if files.is_empty() {
            return Ok(());
        }
        let mut w = self.writer.lock().map_err(|_| IndexError::Poisoned)?;
        for (k, _) in &files {
            w.delete_term(Term::from_field_text(self.f.doc_key, k));
        }
        for c in files.into_iter().flat_map(|(_, c)| c) {
            w.add_document(IndexedChunk { f: self.f, c })?;
        }
        w.commit()?;
        drop(w);
        self.reader.reload()?;
        Ok(())
    }

    /// Removes every chunk of `doc_key`.
    pub fn remove(&self, doc_key: &str) -> Result<(), IndexError> {
        self.replace(doc_key, Vec::new())
    }

    /// Deletes the files of segments nothing uses any more and says whether the index
    /// changed since the last call (files deleted or segments merged: memory was freed).
    /// tantivy collects garbage after commits and successful merges only, so the segments of
    /// a merge whose inputs were deleted meanwhile stayed on disk until the next upload (468 MB
    /// after deleting 30 uploads). Does nothing while a write holds the writer: its commit
    /// collects.
    pub fn housekeep(&self) -> Result<bool, IndexError> {
        let gc = match self.writer.try_lock() {
            Ok(w) => w.garbage_collect_files(),
            Err(std::sync::TryLockError::WouldBlock) => return Ok(false),
            Err(std::sync::TryLockError::Poisoned(_)) => return Err(IndexError::Poisoned),
        };
        let deleted = gc.wait()?.deleted_files.len();
        // The reader's segments (it follows meta.json on its own): no file read per tick.
        let now: Vec<tantivy::index::SegmentId> = self
            .reader
            .searcher()
            .segment_readers()
            .iter()
            .map(|s| s.segment_id())
            .collect();
        let mut seen = self.seen.lock().map_err(|_| IndexError::Poisoned)?;
        let merged = *seen != now;
        *seen = now;
        Ok(deleted > 0 || merged)
    }

    pub fn segments(&self) -> usize {
        self.reader.searcher().segment_readers().len()
    }

    pub fn num_chunks(&self) -> u64 {
        self.reader.searcher().num_docs()
    }

    fn tag_filter(&self, tags: &[String]) -> Box<dyn Query> {
        Box::new(ConstScoreQuery::new(
            Box::new(
                self.any_term(
                    tags.iter()
                        .map(|t| Term::from_field_text(self.f.tag, t))
                        .collect(),
                ),
            ),
            0.0,
        ))
    }

    /// Documents having any of `terms`, as an OR of term queries: a handful of direct
    /// term-dictionary lookups. (`TermSetQuery` streams the whole dictionary through an
    /// automaton and fills a bitset per segment: at 100k chunk ids that was most of a
    /// search's time.)
    fn any_term(&self, terms: Vec<Term>) -> BooleanQuery {
        BooleanQuery::new(
            terms
                .into_iter()
                .map(|t| {
                    (
                        Occur::Should,
                        Box::new(TermQuery::new(t, IndexRecordOption::Basic)) as Box<dyn Query>,
                    )
                })
                .collect(),
        )
    }

    /// BM25 search restricted to chunks whose tag is in `tags`: (score, chunk id) read from
    /// the fast field, no stored document decompressed (the caller fetches text for the few
    /// results it shows).
    pub fn search_ids(
        &self,
        qt: &QueryTokens,
        tags: &[String],
        limit: usize,
    ) -> Result<Vec<(f32, u64)>, IndexError> {
        let Some(query) = self.build_query(qt, tags, limit) else {
            return Ok(vec![]);
        };
        self.top_ids(&query, limit)
    }

    /// The `limit` best (score, chunk id), ties broken by chunk id. Which segment a chunk
    /// lands in depends on which indexing thread took it, and tantivy breaks score ties by
    /// segment and doc: a few more are fetched so ties at the cut resolve the same way
    /// whatever the segments.
    fn top_ids(&self, query: &dyn Query, limit: usize) -> Result<Vec<(f32, u64)>, IndexError> {
        let searcher = self.reader.searcher();
        let fetch = limit + limit / 2 + 16;
        let top = searcher.search(query, &TopDocs::with_limit(fetch).order_by_score())?;
        let mut cols: Vec<Option<tantivy::columnar::Column<u64>>> =
            vec![None; searcher.segment_readers().len()];
        let mut out = Vec::with_capacity(top.len());
        for (score, addr) in top {
            let seg = addr.segment_ord as usize;
            if cols[seg].is_none() {
                cols[seg] = Some(
                    searcher
                        .segment_reader(addr.segment_ord)
                        .fast_fields()
                        .u64("chunk_id")?,
                );
            }
            if let Some(id) = cols[seg].as_ref().and_then(|c| c.first(addr.doc_id)) {
                out.push((score, id));
            }
        }
        out.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        out.truncate(limit);
        Ok(out)
    }

    /// The BM25 OR query over the analyzers' tokens (no scope filter).
    fn union_query(&self, qt: &QueryTokens) -> BooleanQuery {
        let searcher = self.reader.searcher();
        let docs = searcher.num_docs();
        let idf = |term: &Term| bm25_idf(searcher.doc_freq(term).unwrap_or(0), docs);
        let mut should = self.token_clauses(qt, &idf);
        should.extend(self.joined_clauses(qt, &searcher));
        should.extend(self.group_clauses(qt, &idf));
        BooleanQuery::new(should.into_iter().map(|q| (Occur::Should, q)).collect())
    }

    /// One clause per token of each field, the translation's tokens that no group holds
    /// included (at their weight).
    fn token_clauses(&self, qt: &QueryTokens, idf: &dyn Fn(&Term) -> f32) -> Vec<Box<dyn Query>> {
        // Translated tokens some group holds are added by `group_clauses`.
        let grouped: std::collections::HashSet<(TrField, &str)> = qt
            .tr_groups
            .iter()
            .flatten()
            .map(|(f, t, _)| (*f, t.as_str()))
            .collect();
        // Bigrams repeat what jieba words say in a coarser way: weigh them lower.
        // (field, tokens, boost, the translation's field, identifier words: either
        // grammatical number, scored by presence (`presence_query`))
        let p = &self.p;
        let mut out = Vec::new();
        for (field, toks, boost, translated, words) in [
            (self.f.zh, &qt.zh, 1.0f32, None, false),
            (self.f.bigram, &qt.bigram, p.bigram, None, false),
            (self.f.en, &qt.en, 1.0, None, false),
            (self.f.ident, &qt.ident, p.ident_whole, None, false),
            (self.f.ident, &qt.ident_words, p.ident_word, None, true),
            (self.f.en, &qt.tr_en, p.translated, Some(TrField::En), false),
            (
                self.f.ident,
                &qt.tr_ident_words,
                p.translated * p.ident_word,
                Some(TrField::IdentWord),
                true,
            ),
            (self.f.zh, &qt.tr_zh, p.translated, Some(TrField::Zh), false),
            (
                self.f.bigram,
                &qt.tr_bigram,
                p.translated * p.bigram,
                Some(TrField::Bigram),
                false,
            ),
        ] {
            for t in toks {
                if translated.is_some_and(|f| grouped.contains(&(f, t.as_str()))) {
                    continue;
                }
                let boost = if translated.is_some() {
                    boost * qt.tr_weights.get(t).copied().unwrap_or(1.0)
                } else {
                    boost
                };
                // An identifier's word in either number (`buffer` and `shared_buffers`),
                // counted once.
                let variants = if words {
                    analyzers::ident::number_variants(t)
                } else {
                    Vec::new()
                };
                let alts = std::iter::once(t.as_str())
                    .chain(variants.iter().map(String::as_str))
                    .map(|v| {
                        let term = Term::from_field_text(field, v);
                        if words {
                            let i = idf(&term);
                            presence_query(term, boost, i)
                        } else {
                            bm25_query(term, boost)
                        }
                    })
                    .collect();
                out.extend(any_of(alts));
            }
        }
        out
    }

    /// A joined form scores its presence (IDF x boost), not BM25's term frequency and
    /// length: most chunks hold no identifier at all, so the identifier field's average
    /// length is near zero and BM25 would sink any chunk with a few identifiers.
    /// The same joined form as one word of prose or of a key written without separators
    /// (`stop wait secs` and `stopwaitsecs`, `max memory` and `maxmemory`), scored the
    /// same way; one clause with the identifier match, so `readTimeout` (in both
    /// fields) counts once. By presence, not BM25: a prose word's BM25 score for a key
    /// written as one word lifted pages that merely repeat it.
    /// A translation's joined forms (`最大内存` -> `maxmemory`) at their weight.
    fn joined_clauses(&self, qt: &QueryTokens, searcher: &Searcher) -> Vec<Box<dyn Query>> {
        let docs = searcher.num_docs();
        let mut out = Vec::new();
        for form in &qt.ident_joined {
            // The joined form with its last word in the other number too (`max connection`
            // and `max_connections`).
            let alts = std::iter::once(&form.joined)
                .chain(&analyzers::ident::number_variants(&form.joined))
                .map(|j| Term::from_field_text(self.f.ident_join, j))
                .chain(
                    form.en_word
                        .as_ref()
                        .map(|w| Term::from_field_text(self.f.en, w)),
                )
                .filter_map(|term| {
                    let df = searcher.doc_freq(&term).unwrap_or(0);
                    let boost = self.p.ident_join * form.weight;
                    (df > 0).then(|| presence_query(term, boost, bm25_idf(df, docs)))
                })
                .collect();
            out.extend(any_of(alts));
        }
        out
    }

    /// One disjunction-max clause per translated word over its senses' tokens, a weaker
    /// sense's boost scaled by `sense_boost`.
    fn group_clauses(&self, qt: &QueryTokens, idf: &dyn Fn(&Term) -> f32) -> Vec<Box<dyn Query>> {
        let p = &self.p;
        let mut out: Vec<Box<dyn Query>> = Vec::new();
        for group in &qt.tr_groups {
            let alts: Vec<(TrField, Term, f32, f32)> = group
                .iter()
                .map(|(field, t, w)| {
                    let (f, boost) = match field {
                        TrField::En => (self.f.en, p.translated),
                        TrField::IdentWord => (self.f.ident, p.translated * p.ident_word),
                        TrField::Zh => (self.f.zh, p.translated),
                        TrField::Bigram => (self.f.bigram, p.translated * p.bigram),
                    };
                    let term = Term::from_field_text(f, t);
                    let i = idf(&term);
                    (*field, term, boost * w, i)
                })
                .collect();
            let alts: Vec<Box<dyn Query>> = alts
                .iter()
                .map(|(field, term, boost, i)| {
                    // The word's strongest sense in this field, and its IDF.
                    let top = alts
                        .iter()
                        .filter(|a| a.0 == *field)
                        .max_by(|a, b| a.2.total_cmp(&b.2));
                    let boost = top.map_or(*boost, |t| sense_boost(*boost, *i, t.2, t.3));
                    if *field == TrField::IdentWord {
                        presence_query(term.clone(), boost, *i)
                    } else {
                        bm25_query(term.clone(), boost)
                    }
                })
                .collect();
            out.push(Box::new(DisjunctionMaxQuery::with_tie_breaker(
                alts,
                p.translated_tie,
            )));
        }
        out
    }

    fn build_query(&self, qt: &QueryTokens, tags: &[String], limit: usize) -> Option<BooleanQuery> {
        if qt.is_empty() || tags.is_empty() || limit == 0 {
            return None;
        }
        let should = self.union_query(qt);
        let query = BooleanQuery::new(vec![
            (Occur::Must, Box::new(should) as Box<dyn Query>),
            (Occur::Must, self.tag_filter(tags)),
        ]);
        Some(query)
    }

    fn to_chunk(&self, d: &TantivyDocument) -> ChunkDoc {
        to_chunk(&self.f, d)
    }

    fn collect(&self, query: &dyn Query) -> Result<Vec<ChunkDoc>, IndexError> {
        let searcher = self.reader.searcher();
        let addrs = searcher.search(query, &DocSetCollector)?;
        let mut out = Vec::with_capacity(addrs.len());
        for a in addrs {
            let d: TantivyDocument = searcher.doc(a)?;
            out.push(self.to_chunk(&d));
        }
        Ok(out)
    }

    /// All chunks of one file, in order.
    pub fn chunks_of(&self, doc_key: &str) -> Result<Vec<ChunkDoc>, IndexError> {
        let q = TermQuery::new(
            Term::from_field_text(self.f.doc_key, doc_key),
            IndexRecordOption::Basic,
        );
        let mut v = self.collect(&q)?;
        v.sort_by_key(|c| c.ord);
        Ok(v)
    }

    /// Chunks by id (dense hits), in no particular order.
    pub fn chunks_by_id(&self, ids: &[u64]) -> Result<Vec<ChunkDoc>, IndexError> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let terms: Vec<Term> = ids
            .iter()
            .map(|&i| Term::from_field_u64(self.f.chunk_id, i))
            .collect();
        self.collect(&self.any_term(terms))
    }

    /// Every doc key present in the index (used to drop orphans at start).
    pub fn doc_keys(&self) -> Result<Vec<String>, IndexError> {
        let searcher = self.reader.searcher();
        let mut keys = std::collections::BTreeSet::new();
        for seg in searcher.segment_readers() {
            let inv = seg.inverted_index(self.f.doc_key)?;
            let mut s = inv.terms().stream()?;
            while s.advance() {
                // A deleted document's terms linger until a merge: check it still has docs.
                let k = String::from_utf8_lossy(s.key()).into_owned();
                keys.insert(k);
            }
        }
        let mut live = Vec::new();
        for k in keys {
            let q = TermQuery::new(
                Term::from_field_text(self.f.doc_key, &k),
                IndexRecordOption::Basic,
            );
            if searcher.search(&q, &tantivy::collector::Count)? > 0 {
                live.push(k);
            }
        }
        Ok(live)
    }
}

#[cfg(test)]
mod tests;
