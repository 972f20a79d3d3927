//! Tests of the lexical index: schema rebuild, stored fields, chunk languages, search and tag filters.

use super::*;
use tantivy::doc;

fn doc(key: &str, tag: &str, ord: u32, text: &str) -> ChunkDoc {
    ChunkDoc {
        chunk_id: crate::chunk_id(key, ord),
        doc_key: key.into(),
        tag: tag.into(),
        ord,
        first_line: 1,
        last_line: 1,
        text: text.into(),
        context: String::new(),
    }
}

/// A lexical hit with its BM25 score.
#[derive(Debug)]
pub(super) struct LexHit {
    pub score: f32,
    pub chunk: ChunkDoc,
}

/// `search_ids` with each hit's stored chunk, in rank order.
pub(super) fn search(
    l: &Lexical,
    qt: &QueryTokens,
    tags: &[String],
    limit: usize,
) -> Result<Vec<LexHit>, IndexError> {
    let hits = l.search_ids(qt, tags, limit)?;
    let ids: Vec<u64> = hits.iter().map(|h| h.1).collect();
    let docs = l.chunks_by_id(&ids)?;
    Ok(hits
        .into_iter()
        .filter_map(|(score, id)| {
            let chunk = docs.iter().find(|d| d.chunk_id == id)?.clone();
            Some(LexHit { score, chunk })
        })
        .collect())
}

#[test]
fn index_lexical_old_schema_is_rebuilt_with_identifiers() {
    let d = tempfile::tempdir().expect("tmp");
    let dir = d.path().join("lexical");
    std::fs::create_dir_all(&dir).expect("mkdir");
    {
        // The schema before the identifier field, with two chunks in it.
        let mut b = Schema::builder();
        let chunk_id = b.add_u64_field("chunk_id", INDEXED | STORED | FAST);
        let doc_key = b.add_text_field("doc_key", STRING | STORED);
        let tag = b.add_text_field("tag", STRING | STORED);
        let ord = b.add_u64_field("ord", STORED);
        let first = b.add_u64_field("first_line", STORED);
        let last = b.add_u64_field("last_line", STORED);
        let body = b.add_text_field("body", STORED);
        b.add_text_field("zh", text(ZH));
        b.add_text_field("bigram", text(BIGRAM));
        b.add_text_field("en", text(EN));
        let index = Index::create_in_dir(&dir, b.build()).expect("create");
        index.tokenizers().register(ZH, analyzers::zh_analyzer());
        index
            .tokenizers()
            .register(BIGRAM, analyzers::bigram_analyzer());
        index.tokenizers().register(EN, analyzers::en_analyzer());
        let mut w: IndexWriter = index.writer(15_000_000).expect("writer");
        for (i, t) in ["proxy_read_timeout 60s;", "gzip on;"].iter().enumerate() {
            w.add_document(doc!(
                chunk_id => crate::chunk_id("k", i as u32),
                doc_key => "k",
                tag => "sys",
                ord => i as u64,
                first => 1u64 + i as u64,
                last => 1u64 + i as u64,
                body => *t,
            ))
            .expect("add");
        }
        w.commit().expect("commit");
    }
    let l = Lexical::open(&dir).expect("open migrates");
    assert_eq!(l.num_chunks(), 2);
    assert_eq!(l.doc_keys().expect("keys"), ["k"]);
    let hits = search(
        &l,
        &l.query_tokens("proxy read timeout"),
        &["sys".into()],
        10,
    )
    .expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].chunk.text, "proxy_read_timeout 60s;");
    assert_eq!(hits[0].chunk.first_line, 1);
    assert!(!dir.with_extension("old").exists());
    assert!(!dir.with_extension("migrating").exists());
    // Opening again does not migrate again (same schema): same content.
    drop(l);
    let l = Lexical::open(&dir).expect("reopen");
    assert_eq!(l.num_chunks(), 2);
}

#[test]
fn index_lexical_stores_every_field_of_a_chunk_from_its_one_text() {
    let l = Lexical::in_memory().expect("index");
    let c = ChunkDoc {
        chunk_id: 0xDEAD_BEEF_0000_0007,
        doc_key: "u:s9:abc".into(),
        tag: "u:s9".into(),
        ord: 7,
        first_line: 120,
        last_line: 131,
        text: "proxy_read_timeout 60s; 上游超时".into(),
        // The block the key sits in (`analyzers::keypath::chunk_context`).
        context: "http.server.proxy_read_timeout\nhttp_server".into(),
    };
    l.replace("u:s9:abc", vec![c.clone()]).expect("replace");
    assert_eq!(l.chunks_of("u:s9:abc").expect("chunks"), vec![c.clone()]);
    // Each analyzed view was indexed from that text: whole identifier, word, bigram.
    // The context is stored and indexed: whole, joined and by its words.
    for q in [
        "proxy_read_timeout",
        "timeout",
        "超时",
        "http.server.proxy_read_timeout",
        "server",
        "http server",
    ] {
        let hits = search(&l, &l.query_tokens(q), &["u:s9".to_string()], 5).expect("search");
        assert_eq!(hits.len(), 1, "{q}");
        assert_eq!(hits[0].chunk, c, "{q}");
    }
    l.remove("u:s9:abc").expect("remove");
    assert_eq!(l.num_chunks(), 0);
}

#[test]
fn index_lexical_tells_cjk_chunks_from_english_ones() {
    let l = Lexical::in_memory().expect("index");
    l.replace(
        "k1",
        vec![
            doc(
                "k1",
                "sys",
                0,
                "磁盘空间不足时先清理日志目录，再检查数据库备份。",
            ),
            doc(
                "k1",
                "sys",
                1,
                "The disk is full: clean the log directory first.",
            ),
            // Mixed: English words outnumber the CJK bigrams.
            doc(
                "k1",
                "sys",
                2,
                "Run df -h to see disk usage per filesystem (磁盘).",
            ),
        ],
    )
    .expect("write");
    let ids: Vec<u64> = (0..3).map(|o| crate::chunk_id("k1", o)).collect();
    let cjk = l.cjk_chunks(&ids).expect("langs");
    assert!(cjk.contains(&ids[0]));
    assert!(!cjk.contains(&ids[1]) && !cjk.contains(&ids[2]), "{cjk:?}");
    // Unknown ids are not CJK.
    assert!(l.cjk_chunks(&[12345]).expect("langs").is_empty());
    // The answer is read once per searcher generation: a file written again (same
    // chunk ids, other languages) is seen as it is now, a removed one not at all.
    l.replace(
        "k1",
        vec![
            doc("k1", "sys", 0, "The disk is full again."),
            doc("k1", "sys", 1, "磁盘又满了，先清理日志目录。"),
        ],
    )
    .expect("rewrite");
    let cjk = l.cjk_chunks(&ids).expect("langs");
    assert_eq!(cjk.into_iter().collect::<Vec<_>>(), vec![ids[1]]);
    assert_eq!(l.languages().expect("langs"), (true, true));
    // One language left: the search scans with one query vector (engine).
    l.replace("k1", vec![doc("k1", "sys", 0, "The disk is full again.")])
        .expect("rewrite");
    assert_eq!(l.languages().expect("langs"), (false, true));
    // Another file in a segment of its own: each segment is read for itself (the older
    // one from the cache).
    l.replace("k2", vec![doc("k2", "sys", 0, "日志目录已清理。")])
        .expect("write");
    let k2 = crate::chunk_id("k2", 0);
    let both: Vec<u64> = [ids[0], k2].into();
    assert_eq!(l.cjk_chunks(&both).expect("langs"), [k2].into());
    assert_eq!(l.languages().expect("langs"), (true, true));
    l.remove("k1").expect("remove");
    l.remove("k2").expect("remove");
    assert!(l.cjk_chunks(&both).expect("langs").is_empty());
    assert_eq!(l.languages().expect("langs"), (false, false));
}

#[test]
fn index_lexical_finds_chinese_english_and_filters_by_tag() {
    let l = Lexical::in_memory().expect("open");
    l.replace(
        "a",
        vec![
            doc(
                "a",
                "sys",
                0,
                "数据库配置说明：编辑 config.yaml 的 database 段。",
            ),
            doc("a", "sys", 1, "日志轮转 log rotation settings"),
        ],
    )
    .expect("add");
    l.replace(
        "b",
        vec![doc("b", "u:s1", 0, "Configuring the databases of nginx")],
    )
    .expect("add");
    assert_eq!(l.num_chunks(), 3);
    let all = ["sys".to_string(), "u:s1".to_string()];
    let hits = search(&l, &l.query_tokens("数据库"), &all, 10).expect("search");
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].chunk.ord, 0);
    let hits = search(&l, &l.query_tokens("database configuration"), &all, 10).expect("search");
    assert_eq!(
        hits.len(),
        2,
        "stemming: databases/database, configuring/configuration"
    );
    let hits = search(&l, &l.query_tokens("database"), &["u:s2".to_string()], 10).expect("search");
    assert!(hits.is_empty(), "other session");
    // Query syntax is just text.
    let hits = search(&l, &l.query_tokens("\"log\" AND (rotation:"), &all, 10).expect("search");
    assert_eq!(hits[0].chunk.ord, 1);
    assert_eq!(l.chunks_of("a").expect("chunks").len(), 2);
    let ids = [crate::chunk_id("b", 0)];
    assert_eq!(l.chunks_by_id(&ids).expect("ids")[0].doc_key, "b");
    assert_eq!(l.doc_keys().expect("keys"), ["a", "b"]);
    l.remove("a").expect("remove");
    assert_eq!(l.num_chunks(), 1);
    assert_eq!(l.doc_keys().expect("keys"), ["b"]);
}

/// A word inside identifiers scores by its presence (IDF x boost), as a joined form does:
/// a config chunk full of keys has a long identifier field, and BM25's length norm sank it
/// below a chunk with one key (`timeout` found nginx.conf's timeouts block last). Each
/// chunk below holds `timeout` in one key; the long one also has twenty other keys.
#[test]
fn index_lexical_identifier_words_score_by_presence() {
    let l = Lexical::in_memory().expect("open");
    let mut long = String::from("send_timeout 30s;\n");
    for i in 0..20 {
        long.push_str(&format!("worker_opt_{i} on;\n"));
    }
    l.replace("long", vec![doc("long", "sys", 0, &long)])
        .expect("add");
    l.replace("short", vec![doc("short", "sys", 0, "read_timeout 30s;\n")])
        .expect("add");
    for i in 0..6 {
        let key = format!("n{i}");
        let text = format!("note {i}: the dashboards were reviewed");
        l.replace(&key, vec![doc(&key, "sys", 0, &text)])
            .expect("add");
    }
    let hits = search(&l, &l.query_tokens("timeout"), &["sys".to_string()], 10).expect("search");
    let score = |k: &str| {
        hits.iter()
            .find(|h| h.chunk.doc_key == k)
            .map(|h| h.score)
            .unwrap_or_else(|| panic!("{k} not found"))
    };
    assert!(
        (score("long") - score("short")).abs() < 1e-4,
        "{} {}",
        score("long"),
        score("short")
    );
}
