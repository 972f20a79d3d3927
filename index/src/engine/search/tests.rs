//! Tests of hybrid search: identifiers, dictionary translation, chunks with a per-file cap.

use super::*;
use crate::EngineConfig;
use std::sync::Arc;

fn engine(dir: &std::path::Path, files: &[(&str, &str)]) -> Arc<Engine> {
    let e = Engine::open(EngineConfig::new(dir.join("index")), None, None).expect("open");
    super::super::tests::upload_all(&e, files);
    e
}

fn names(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|h| h.filename.as_str()).collect()
}

/// An engine over `files` and 12 notes (`note(i)` their text), so that a word is rare when
/// few files hold it.
fn engine_with_notes(
    dir: &std::path::Path,
    note: impl Fn(usize) -> String,
    files: &[(&str, &str)],
) -> Arc<Engine> {
    let notes: Vec<(String, String)> = (0..12).map(|i| (format!("note{i}.md"), note(i))).collect();
    let mut all: Vec<(&str, &str)> = notes
        .iter()
        .map(|(n, t)| (n.as_str(), t.as_str()))
        .collect();
    all.extend_from_slice(files);
    engine(dir, &all)
}

/// Asserts that `q`'s lexical first hit is `file`, showing the top 4 otherwise.
fn assert_lexical_first(e: &Engine, q: &str, file: &str) {
    let top = lexical_top(e, q);
    assert_eq!(top.first().map(String::as_str), Some(file), "{q}: {top:?}");
}

/// The file names of the lexical top 4 for `q`.
fn lexical_top(e: &Engine, q: &str) -> Vec<String> {
    names(
        &e.search("s1", q, Scope::Uploads, 4, Mode::Lexical)
            .expect("search"),
    )
    .into_iter()
    .map(str::to_string)
    .collect()
}

#[test]
fn index_search_identifiers_found_from_either_form() {
    let d = tempfile::tempdir().expect("tmp");
    let e = engine(
        d.path(),
        &[
            (
                "nginx.conf",
                "http {\n    proxy_read_timeout 60s;\n    gzip on;\n}\n",
            ),
            (
                "notes.md",
                "We raised the proxy read timeout after the outage.\n",
            ),
            (
                "app.yaml",
                "spring.datasource.url: jdbc:postgresql://db:5432/app\n",
            ),
            (
                "Client.java",
                "class Client {\n    int readTimeout = 30;\n}\n",
            ),
            (
                "howto.txt",
                "How to change the read timeout of the client.\n",
            ),
            (
                "hosts.txt",
                "backend at 10.0.0.5:8080 and cache at 10.0.0.7:6379\n",
            ),
            ("disks.txt", "df shows the disks and their usage.\n"),
        ],
    );
    let search = |q: &str| {
        e.search("s1", q, Scope::Uploads, 10, Mode::Lexical)
            .expect("search")
    };

    // Split words find the identifier, and the prose as well.
    let hits = search("proxy read timeout");
    let n = names(&hits);
    assert!(
        n.contains(&"nginx.conf") && n.contains(&"notes.md"),
        "{n:?}"
    );
    // The identifier finds the prose too, but ranks the exact identifier first.
    let hits = search("proxy_read_timeout");
    assert_eq!(hits[0].filename, "nginx.conf", "{hits:?}");
    assert!(hits[0].position.starts_with("lines 2-"), "{hits:?}");
    assert!(names(&hits).contains(&"notes.md"), "{hits:?}");
    // Dotted keys.
    let hits = search("datasource url");
    assert_eq!(hits[0].filename, "app.yaml", "{hits:?}");
    // camelCase <-> words, both ways, the exact form first.
    let hits = search("readTimeout");
    assert_eq!(hits[0].filename, "Client.java", "{hits:?}");
    assert!(names(&hits).contains(&"howto.txt"), "{hits:?}");
    let hits = search("read timeout");
    assert!(names(&hits).contains(&"Client.java"), "{hits:?}");
    assert!(names(&hits).contains(&"howto.txt"), "{hits:?}");
    // IP and port: the whole address, the host alone.
    let hits = search("10.0.0.5:8080");
    assert_eq!(hits[0].filename, "hosts.txt", "{hits:?}");
    let hits = search("10.0.0.5");
    assert_eq!(hits[0].filename, "hosts.txt", "{hits:?}");
    assert!(!names(&search("proxy read timeout")).contains(&"disks.txt"));
}

/// Words typed side by side find the identifier that joins them, in any spelling, above
/// prose that uses both words apart and above a file whose identifiers join other words
/// (`writeTimeout`, `readBuffer`): without the joined forms the prose ranks first.
#[test]
fn index_search_adjacent_words_find_the_identifier_joining_them() {
    let d = tempfile::tempdir().expect("tmp");
    // A page using both words apart, as a man page about a command does.
    let prose = "Run a command and kill it when its time limit passes; a timeout of 0 \
                 disables it. The command may read its standard input meanwhile.\n";
    let files = [
        ("runner.txt", prose),
        (
            "client.ts",
            "export const client = createClient({ baseUrl, readTimeout: 3000 });\n",
        ),
        (
            "writer.ts",
            "export const w = { writeTimeout: 3000, readBuffer: 10 };\n",
        ),
        (
            "nginx.conf",
            "location / {\n    proxy_connect_timeout 5s;\n    proxy_read_timeout 90s;\n}\n",
        ),
    ];
    let note = |i| format!("Meeting {i}: the disks were cleaned and the backup job moved.\n");
    let e = engine_with_notes(d.path(), note, &files);
    let lexical = |q: &str| lexical_top(&e, q);
    for q in ["read timeout", "read_timeout", "Read-Timeout"] {
        let n = lexical(q);
        assert!(
            n[..2].contains(&"client.ts".to_string()) && n[..2].contains(&"nginx.conf".to_string()),
            "{q}: {n:?}"
        );
    }
    // Three words: the identifier with all three first.
    assert_eq!(lexical("proxy read timeout")[0], "nginx.conf");
    assert_eq!(lexical("connect timeout")[0], "nginx.conf");
}

/// Keys written as one lower-case word (supervisord's `stopwaitsecs`, redis's
/// `maxmemory`) are found by their words typed apart, above prose that has the words
/// apart (common words, as in man pages and notes), and `time stamp` finds the prose
/// `timestamp`. Without the joined form in the English field the keys are not found at
/// all: each is one token nobody types.
#[test]
fn index_search_spaced_words_find_a_key_written_as_one_word() {
    let d = tempfile::tempdir().expect("tmp");
    let files = [
        (
            "stop.txt",
            "To stop the service, wait a few secs for the workers; the memory they used \
             and the max they reached are printed.\n",
        ),
        (
            "supervisord.conf",
            "[program:worker]\ncommand=/usr/bin/worker\nstopwaitsecs=600\nautorestart=true\n",
        ),
        (
            "redis.conf",
            "bind 127.0.0.1\nmaxmemory 2gb\nmaxmemory-policy allkeys-lru\n",
        ),
        ("log.txt", "Each line starts with a timestamp in UTC.\n"),
    ];
    // Common words in the notes, as in man pages: stop, wait, memory, max.
    let note = |i| {
        format!("Meeting {i}: we had to stop the job and wait for the disks; memory stayed below the max.\n")
    };
    let e = engine_with_notes(d.path(), note, &files);
    for (q, want) in [
        ("stop wait secs", "supervisord.conf"),
        ("max memory", "redis.conf"),
        ("time stamp", "log.txt"),
    ] {
        assert_lexical_first(&e, q, want);
    }
}

/// A Chinese question's adjacent words, translated, are joined as typed English words
/// are: `停止等待时间` (stop, wait, time) finds the key `stop_wait_time` before prose
/// that says the three words apart, and a file name shares words with the translation,
/// not with Chinese bigrams no name holds.
#[test]
fn index_search_translated_adjacent_words_find_a_key() {
    let d = tempfile::tempdir().expect("tmp");
    let files = [
        (
            "worker.yaml",
            "worker:\n  replicas: 3\n  stop_wait_time: 30s\n  image: registry.local/worker:2.4\n",
        ),
        (
            "runbook.md",
            "Stop the worker first. Wait until the queue drains, then write down the time \
             it took and the time the queue was empty.\n",
        ),
    ];
    let note = |i| format!("Meeting {i}: the deploy waited on the stop of the old pods.\n");
    let e = engine_with_notes(d.path(), note, &files);
    assert_lexical_first(&e, "停止等待时间", "worker.yaml");
    // The typed English words find it the same way.
    assert_lexical_first(&e, "stop wait time", "worker.yaml");
}

/// A modal and the quantity asked between a limit and its resource keep them one run
/// (`最多` .. `内存` -> `maxmemory`), where the dictionary's `most` found notes.
#[test]
fn index_search_a_limit_asked_around_a_modal_finds_its_key() {
    let d = tempfile::tempdir().expect("tmp");
    let redis = "# network\nbind 10.0.0.7\nport 6391\npidfile /run/redis/cache.pid\n\n# memory\nmaxmemory 5632mb\nmaxmemory-policy allkeys-lfu\n";
    let unit = "[Unit]\nDescription=ingest agent\n\n[Service]\nUser=ingest\nMemoryHigh=2G\nMemoryMax=3G\nLimitNOFILE=262144\nRestart=on-failure\n";
    // Notes that say the dictionary's words (`most`, `file handle`) in prose.
    let notes_md = "Redis memory graphs: most of the memory goes to the session cache.\n";
    let files = [
        ("redis.conf", redis),
        ("ingest.service", unit),
        ("capacity-notes.md", notes_md),
    ];
    let note = |i| format!("Meeting {i}: the team talked about memory on the old hosts.\n");
    let e = engine_with_notes(d.path(), note, &files);
    let answer = |q: &str| {
        let hits = e
            .search("s1", q, Scope::Uploads, 3, Mode::Lexical)
            .expect("search");
        hits.first()
            .and_then(|h| h.answer.clone())
            .map(|a| (hits[0].filename.clone(), a.text))
    };
    assert_eq!(
        answer("redis 最多能用多少内存"),
        Some(("redis.conf".into(), "maxmemory 5632mb".into()))
    );
    assert_eq!(
        answer("redis 满了之后按什么策略淘汰 key"),
        Some(("redis.conf".into(), "maxmemory-policy allkeys-lfu".into()))
    );
}

/// An English question's word reaches its glossary siblings (`backend` -> 后端 ->
/// `upstream`, `ram` -> 内存 -> `memory`): the config that says the other word comes
/// before prose that repeats the question's other words.
#[test]
fn index_search_english_words_reach_their_glossary_siblings() {
    let d = tempfile::tempdir().expect("tmp");
    let files = [
        (
            "lb.conf",
            "upstream orders_pool {\n    server 10.0.0.5:8080;\n    server 10.0.0.6:8080;\n}\n",
        ),
        (
            "cache.conf",
            "# memory the cache may hold\nmaxmemory 512mb\nmaxmemory-policy allkeys-lru\n",
        ),
        (
            "deploy.md",
            "The orders servers are rebuilt by the pipeline; the cache servers keep their \
             data.\n",
        ),
    ];
    let note = |i| format!("Meeting {i}: the orders team moved two servers and a cache.\n");
    let e = engine_with_notes(d.path(), note, &files);
    assert_lexical_first(&e, "backend servers for orders", "lb.conf");
    assert_lexical_first(&e, "ram for the cache", "cache.conf");
}

/// Chinese words the ops glossary does not list (天气, 湿度, 预报) reach an English
/// file through the dictionary; the glossary alone finds nothing, and function words
/// alone translate to nothing either way.
#[test]
fn index_search_dictionary_translates_words_outside_the_glossary() {
    let files: &[(&str, &str)] = &[
        (
            "station.txt",
            "The station logs the weather forecast: humidity and wind every hour.\n",
        ),
        ("backup.txt", "Nightly backups of the orders database.\n"),
        (
            "readme.md",
            "Build with make; run the tests with make test.\n",
        ),
    ];
    let d = tempfile::tempdir().expect("tmp");
    let e = engine(d.path(), files);
    let hits = e
        .search("s1", "天气预报和湿度", Scope::Uploads, 3, Mode::Lexical)
        .expect("search");
    assert_eq!(names(&hits), ["station.txt"], "{hits:?}");
    assert!(hits[0].chunk.contains("humidity"), "{hits:?}");
    assert!(e
        .search("s1", "而且已经", Scope::Uploads, 3, Mode::Lexical)
        .expect("search")
        .is_empty());
    let d2 = tempfile::tempdir().expect("tmp");
    let mut cfg = EngineConfig::new(d2.path().join("index"));
    cfg.translator = crate::analyzers::translate::Translator::Glossary;
    let old = Engine::open(cfg, None, None).expect("open");
    super::super::tests::upload_all(&old, files);
    assert!(old
        .search("s1", "天气预报和湿度", Scope::Uploads, 3, Mode::Lexical)
        .expect("search")
        .is_empty());
}

/// A log with 7 separate "Connection refused" blocks, each far enough from the next
/// to be its own chunk.
fn refused_log() -> String {
    let mut s = String::new();
    for b in 0..7 {
        for i in 0..12 {
            s.push_str(&format!(
                "2024-05-01T10:{b:02}:{i:02} INFO worker {i} served request batch {b} in {} ms with status ok\n",
                10 + i
            ));
        }
        s.push_str(&format!(
            "2024-05-01T10:{b:02}:59 ERROR upstream db{b}: Connection refused (retry {b})\n"
        ));
    }
    s
}

#[test]
fn index_search_returns_chunks_with_a_per_file_cap() {
    let d = tempfile::tempdir().expect("tmp");
    let log = refused_log();
    let e = engine(
        d.path(),
        &[
            ("app.log", &log),
            ("a.txt", "the client saw Connection refused once\n"),
            ("b.txt", "Connection refused by the firewall\n"),
            (
                "c.md",
                "# Troubleshooting\n\nConnection refused means nothing listens.\n",
            ),
            ("d.log", "ERROR Connection refused on port 5432\n"),
            ("e.txt", "disk usage is fine\n"),
        ],
    );
    let chunks = e
        .lexical
        .chunks_of(&Engine::upload_key("s1", "sha0"))
        .expect("chunks");
    let blocks = chunks
        .iter()
        .filter(|c| c.text.contains("Connection refused"))
        .count();
    assert!(
        blocks >= 7,
        "the fixture puts the blocks in separate chunks: {blocks}"
    );

    let hits = e
        .search(
            "s1",
            "Connection refused",
            Scope::Uploads,
            10,
            Mode::Lexical,
        )
        .expect("search");
    let n = names(&hits);
    // Several chunks of the log, up to the default cap of 3, and every other file.
    assert_eq!(n.iter().filter(|x| **x == "app.log").count(), 3, "{hits:?}");
    for f in ["a.txt", "b.txt", "c.md", "d.log"] {
        assert!(n.contains(&f), "{f} in {n:?}");
    }
    assert!(!n.contains(&"e.txt"));
    // Distinct blocks: each log hit shows another "Connection refused" line.
    let mut pos: Vec<&str> = hits
        .iter()
        .filter(|h| h.filename == "app.log")
        .map(|h| h.position.as_str())
        .collect();
    assert!(hits
        .iter()
        .filter(|h| h.filename == "app.log")
        .all(|h| h.chunk.contains("Connection refused")));
    pos.sort();
    pos.dedup();
    assert_eq!(pos.len(), 3, "{hits:?}");
    // Similarities never increase down the list.
    assert!(hits.windows(2).all(|w| w[0].similarity >= w[1].similarity));

    // A larger cap lets more blocks through, top_k still bounds the list.
    let hits = e
        .search_per_file(
            "s1",
            "Connection refused",
            Scope::Uploads,
            10,
            7,
            Mode::Lexical,
        )
        .expect("search");
    let logs = names(&hits).iter().filter(|x| **x == "app.log").count();
    assert_eq!(hits.len(), 10, "{hits:?}");
    assert_eq!(logs, 6, "{hits:?}");
    // Cap 1: one hit per file, as before.
    let hits = e
        .search_per_file(
            "s1",
            "Connection refused",
            Scope::Uploads,
            10,
            1,
            Mode::Lexical,
        )
        .expect("search");
    assert_eq!(names(&hits).iter().filter(|x| **x == "app.log").count(), 1);
    assert_eq!(hits.len(), 5, "{hits:?}");
}

#[test]
fn index_search_a_word_in_a_file_name_does_not_outweigh_content() {
    // `timeout.txt` holds one of the question's words in its name and nothing the
    // question asks about; the client's config holds both words (an identifier). An
    // exact name still finds its file first. (On files this small coverage decides; the
    // weight rule itself is checked in `rank::tests::index_rank_filename_scores`.)
    let d = tempfile::tempdir().expect("tmp");
    let e = engine(
        d.path(),
        &[
            (
                "timeout.txt",
                "Run a command with a time limit and kill it when the limit passes.\n",
            ),
            (
                "client.ts",
                "export const client = createClient({ baseUrl, readTimeout: 3000 });\n",
            ),
            ("notes.md", "The disks were cleaned up on Monday.\n"),
        ],
    );
    let first = |q: &str| {
        e.search("s1", q, Scope::Uploads, 3, Mode::Hybrid)
            .expect("search")
            .first()
            .map(|h| h.filename.clone())
            .unwrap_or_default()
    };
    assert_eq!(first("read timeout"), "client.ts");
    assert_eq!(first("timeout.txt"), "timeout.txt");
    assert_eq!(first("notes.md"), "notes.md");
}

/// The dense scale is set by the first `min_pool` chunks: a larger pool (a larger `top_k`)
/// adds worse chunks below, which must not lower the mark every cosine is placed against.
#[test]
fn index_search_dense_scale_ignores_a_larger_pool() {
    let ranked = |n: usize| -> Ranked {
        (0..n)
            .map(|i| (format!("f{}", i / 2), i as u64, 0.9 - i as f32 * 0.001))
            .collect()
    };
    let pool = crate::rank::RankParams::default().min_pool;
    let (small, large) = (
        fuse::dense_scale(pool, &ranked(pool)),
        fuse::dense_scale(pool, &ranked(3 * pool)),
    );
    assert_eq!(small.place(0.85), large.place(0.85));
    assert!((small.place(0.9) - 1.0).abs() < 1e-6);
    // Fewer chunks than the pool: the last file of them.
    let few = fuse::dense_scale(pool, &ranked(10));
    assert!(few.place(0.891) < 0.01, "{}", few.place(0.891));
}

/// A chunk's file name is its context: redis.conf's `maxmemory` lines never say `redis`,
/// yet they answer `redis max memory` whole. Coverage (the head's order and the shown
/// similarity, 0.9 x coverage x (0.7 + 0.3 x BM25 / best)) counts the name's words: all
/// three words here, 0.9; without the name two of three, 0.6.
#[test]
fn index_search_file_name_counts_in_a_chunks_coverage() {
    let d = tempfile::tempdir().expect("tmp");
    // A header that names the program, then settings far enough below to be another chunk.
    let mut conf = String::from("# Redis 7.0 configuration for the cache tier\nbind 10.0.0.5\n");
    for i in 0..40 {
        conf.push_str(&format!(
            "# tuning note {i}: keep the defaults unless the runbook says so\n"
        ));
    }
    conf.push_str(
        "######## MEMORY MANAGEMENT ########\nmaxmemory 6gb\nmaxmemory-policy allkeys-lru\n",
    );
    let manifest = "containers:\n  - name: api\n    env:\n      - name: CACHE_URL\n        value: \"redis://cache:6379/2\"\n    resources:\n      limits:\n        memory: 768Mi\n";
    let files = [("redis.conf", conf.as_str()), ("api-deploy.yaml", manifest)];
    let note = |i| format!("Sprint {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), note, &files);
    let hits = e
        .search_per_file("s1", "redis max memory", Scope::Uploads, 5, 3, Mode::Hybrid)
        .expect("search");
    let first = hits.first().expect("a hit");
    assert_eq!(first.filename, "redis.conf", "{:?}", names(&hits));
    assert!(first.chunk.contains("maxmemory 6gb"), "{}", first.chunk);
    // The best BM25 chunk, covering all three words: 0.9 x 1 x (0.7 + 0.3 x 1).
    assert!(
        (first.similarity - 0.9).abs() < 1e-3,
        "{}",
        first.similarity
    );
    // A name's short word is chance, not context: `db` in `db.conf` covers nothing.
    let words = rank::ChunkWords::new("port 5432", "db.conf");
    assert_eq!(
        rank::TypedWords::new(&["db".to_string(), "port".to_string()]).coverage_in(&words),
        0.5
    );
}

/// A question's word meets an identifier's word in the other number: `buffer` and
/// `shared_buffers`, `max connection` and `max_connections` (the identifier fields keep
/// words as written; the English field's stemming does not reach inside a glued key).
#[test]
fn index_search_identifier_words_match_in_either_number() {
    let d = tempfile::tempdir().expect("tmp");
    let files = [
        (
            "postgresql.conf",
            "shared_buffers = 4GB\nwork_mem = 64MB\nmax_connections = 300\n",
        ),
        (
            "notes.md",
            "The disk controller was replaced; its write cache is back on.\n",
        ),
    ];
    let note = |i| format!("Standup {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), note, &files);
    for q in ["buffer size", "max connection", "共享缓冲区"] {
        assert_lexical_first(&e, q, "postgresql.conf");
    }
}

/// An English question's words together in a few lines (a config's block) outrank the
/// same words spread over a note that repeats them (`RankParams::proximity`: without it
/// the note ranks first).
#[test]
fn index_search_words_written_together_outrank_words_spread_apart() {
    let d = tempfile::tempdir().expect("tmp");
    let conf = "logging:\n  level: info\nbilling:\n  backend:\n    server: 10.1.0.21:8080\n    timeout: 30s\ncache:\n  ttl: 600\n";
    let note = "Server room migration notes.\nThe racks were moved on Monday.\nPower and cooling were checked twice.\nThe network team tested the uplinks.\nBilling backend errors rose after the backend deploy.\nThe billing team rolled back the billing release.\n";
    let files = [("services.yml", conf), ("billing-review.md", note)];
    let filler = |i| format!("Standup {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), filler, &files);
    let hits = e
        .search(
            "s1",
            "billing backend server",
            Scope::Uploads,
            3,
            Mode::Hybrid,
        )
        .expect("search");
    assert_eq!(
        names(&hits).first().copied(),
        Some("services.yml"),
        "{:?}",
        names(&hits)
    );
    // The window: the best three adjacent lines' share of the words.
    let typed = rank::TypedWords::new(&rank::simple_tokens("billing backend server"));
    let covered = |w: &rank::ChunkWords| typed.coverage_in(w);
    let windows = |text: &str| {
        let low = text.to_lowercase();
        let whole = covered(&rank::ChunkWords::new(&low, ""));
        assert_eq!(whole, 1.0, "{text}");
        rank::window_coverage(3, &low, "", "", &covered, whole)
    };
    assert_eq!(windows(conf), 1.0);
    let spread = windows(note);
    assert!((spread - 2.0 / 3.0).abs() < 1e-6, "{spread}");
}

/// A file shows the chunk that holds the question's words, not the one BM25 ranks first
/// for repeating one of them (`represent`): nginx.conf's status block says `nginx` four
/// times, its timeouts block holds `timeout` inside keys; `nginx timeout` and `nginx 超时`
/// show the timeouts, the snippet on a timeout line (not on a line that only names the
/// file's own program).
#[test]
fn index_search_a_file_shows_its_chunk_that_holds_the_question() {
    let d = tempfile::tempdir().expect("tmp");
    let mut conf = String::from(
        "# status page for nginx-prometheus-exporter\nserver {\n    listen 127.0.0.1:8080;\n    location /nginx_status { stub_status; }\n    root /usr/share/nginx/html;\n}\n",
    );
    for i in 0..40 {
        conf.push_str(&format!("# site {i}: served from the edge pool\n"));
    }
    conf.push_str("http {\n    keepalive_timeout 65;\n    client_body_timeout 30s;\n    send_timeout 30s;\n    gzip on;\n}\n");
    let files = [("nginx.conf", conf.as_str())];
    let note = |i| format!("Sprint {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), note, &files);
    for q in ["nginx timeout", "nginx 超时"] {
        for mode in [Mode::Lexical, Mode::Hybrid] {
            let hits = e
                .search_per_file("s1", q, Scope::Uploads, 3, 1, mode)
                .expect("search");
            let first = hits.first().expect("a hit");
            assert_eq!(first.filename, "nginx.conf", "{q}: {:?}", names(&hits));
            assert!(
                first.chunk.starts_with("keepalive_timeout 65;"),
                "{q}: {}",
                first.chunk
            );
            // The planted block: 6 header lines, 40 site lines, `http {` on line 47.
            assert_eq!(first.lines.0, 48, "{q}: {}", first.position);
            // The similarity is the shown chunk's: it covers both words (`nginx` by the
            // file's name), so its lexical part is 0.9 x 1 x (0.7 + 0.3 x its BM25 share),
            // at least 0.63; the status block's coverage of one half would give at most
            // 0.45.
            if mode == Mode::Lexical {
                assert!(
                    (0.63 - 1e-3..=0.9 + 1e-3).contains(&first.similarity),
                    "{q}: {}",
                    first.similarity
                );
            }
        }
    }
}

#[test]
fn index_search_a_nested_key_finds_the_line_that_sets_it() {
    // `spring:` on line 1, its `redis:` block 60 lines down, in another chunk.
    let d = tempfile::tempdir().expect("tmp");
    let mut yml = String::from("spring:\n  datasource:\n");
    for i in 0..58 {
        yml.push_str(&format!("    option-{i}: value {i}\n"));
    }
    yml.push_str("  redis:\n    host: redis-01\n    timeout: 2s\n");
    let timeout_line = yml.lines().count();
    // A decoy with every word of the question, not nested that way.
    let decoy = "# cache client for the spring app\nredis:\n  timeout: 9s\n";
    let unit =
        "[Unit]\nDescription=orders\n\n[Service]\nExecStart=/opt/orders/run\nRestart=on-failure\n";
    let files = [
        ("cache.yml", decoy),
        ("application.yml", yml.as_str()),
        ("orders.service", unit),
    ];
    let note = |i| format!("Sprint {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), note, &files);
    for mode in [Mode::Lexical, Mode::Hybrid] {
        let hits = e
            .search_per_file("s1", "spring.redis.timeout", Scope::Uploads, 3, 1, mode)
            .expect("search");
        let first = hits.first().expect("a hit");
        assert_eq!(first.filename, "application.yml", "{:?}", names(&hits));
        // The shown lines hold the line that sets the key.
        let (a, b) = first.lines;
        assert_eq!(first.position, format!("lines {a}-{b}"));
        assert!(
            (a as usize..=b as usize).contains(&timeout_line),
            "{} vs line {timeout_line}",
            first.position
        );
        // The answer line is that line of the file, with its whole key.
        let answer = first.answer.clone().expect("an answer line");
        assert_eq!(answer.line as usize, timeout_line);
        assert_eq!(answer.text, "timeout: 2s");
        assert_eq!(answer.key.as_deref(), Some("spring.redis.timeout"));
        // A unit file's section names its keys.
        let hits = e
            .search_per_file("s1", "Service.Restart", Scope::Uploads, 3, 1, mode)
            .expect("search");
        assert_eq!(names(&hits).first().copied(), Some("orders.service"));
        let answer = hits[0].answer.clone().expect("an answer line");
        assert_eq!(
            (answer.line, answer.text.as_str()),
            (6, "Restart=on-failure")
        );
        assert_eq!(answer.key.as_deref(), Some("Service.Restart"));
    }
}

#[test]
fn index_search_answers_a_limit_with_the_line_under_limits() {
    // A deployment whose requests and limits both set `memory`, below blank lines (the
    // chunk's first line is its first non-blank one).
    let d = tempfile::tempdir().expect("tmp");
    let mut yml = String::from("\n\napiVersion: apps/v1\nkind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n        - name: api\n          image: api:1.4\n          resources:\n            requests:\n              cpu: 250m\n              memory: 896Mi\n            limits:\n              cpu: 1800m\n              memory: 1536Mi\n");
    yml.push_str("          ports:\n            - containerPort: 8080\n");
    // A sidecar with the same keys: its name in the key paths tells the two apart.
    yml.push_str("        - name: log-shipper\n          image: vector:0.34\n          resources:\n            limits:\n              cpu: 150m\n              memory: 192Mi\n");
    let want = 1 + yml
        .lines()
        .position(|l| l.trim() == "memory: 1536Mi")
        .expect("planted");
    let note = |i| format!("Sprint {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), note, &[("api-deploy.yaml", yml.as_str())]);
    let hits = e
        .search_per_file(
            "s1",
            "api container memory limit",
            Scope::Uploads,
            3,
            1,
            Mode::Lexical,
        )
        .expect("search");
    let a = hits
        .first()
        .and_then(|h| h.answer.clone())
        .expect("an answer line");
    assert_eq!((a.line as usize, a.text.as_str()), (want, "memory: 1536Mi"));
    // The container's name is a segment of the path (the nearest six blocks are kept).
    assert_eq!(
        a.key.as_deref(),
        Some("template.spec.containers.api.resources.limits.memory")
    );
    let sidecar = hits_line(&e, "log-shipper memory limit");
    assert_eq!(sidecar.0, want + 8, "{sidecar:?}");
    assert_eq!(sidecar.1, "memory: 192Mi");
}

/// The first hit's answer line (number, text) for a question over the uploads.
fn hits_line(e: &crate::engine::Engine, q: &str) -> (usize, String) {
    let hits = e
        .search_per_file("s1", q, Scope::Uploads, 3, 1, Mode::Lexical)
        .expect("search");
    let a = hits
        .first()
        .and_then(|h| h.answer.clone())
        .expect("an answer line");
    (a.line as usize, a.text)
}

#[test]
fn index_search_a_question_asked_as_a_sentence_still_finds_its_block() {
    // Nine content words, four of them in the block: under the threshold when measured
    // against all nine.
    let d = tempfile::tempdir().expect("tmp");
    let conf = "upstream playback_api {\n    server 10.0.0.5:8080;\n}\nserver {\n    listen 443 ssl;\n    location /manifest/ {\n        proxy_pass http://playback_api;\n        proxy_read_timeout 33s;\n    }\n}\n";
    let note = |i| format!("Sprint {i}: the team reviewed dashboards and closed tickets.\n");
    let e = engine_with_notes(d.path(), note, &[("origin.conf", conf)]);
    let q = "how long does nginx wait for the playback backend to answer a manifest request before it gives up";
    let hits = e
        .search("s1", q, Scope::Uploads, 3, Mode::Lexical)
        .expect("search");
    assert_eq!(
        names(&hits).first().copied(),
        Some("origin.conf"),
        "{hits:?}"
    );
    // A question of a few words keeps the threshold as it was: nothing for words no file
    // holds.
    let hits = e
        .search(
            "s1",
            "kafka consumer lag alert",
            Scope::Uploads,
            3,
            Mode::Lexical,
        )
        .expect("search");
    assert!(hits.is_empty(), "{hits:?}");
}

/// A config's title names its subject for every line (`analyzers::title`): the port of
/// the session-store redis is the `port` line, not the socket line that repeats the
/// subject, nor another file's line that names it.
#[test]
fn index_search_a_files_title_names_the_subject_of_every_line() {
    let d = tempfile::tempdir().expect("tmp");
    let redis = "# Redis 7 — session-store (login sessions of the web tier)\n# owner: team-web\n\nbind 10.0.0.9\nport 6412\nunixsocket /run/redis/session-store.sock\ntimeout 120\n";
    let props = "# web tier\nspring.redis.host=session-store.internal\nspring.redis.database=3\nserver.port=8080\n";
    let note = |i| format!("Week {i}: the web tier team rotated the on-call pager.\n");
    let e = engine_with_notes(
        d.path(),
        note,
        &[("redis.conf", redis), ("web.properties", props)],
    );
    let hits = e
        .search_per_file(
            "s1",
            "which port does the session-store redis listen on",
            Scope::Uploads,
            3,
            1,
            Mode::Lexical,
        )
        .expect("search");
    let first = hits.first().expect("a hit");
    assert_eq!(first.filename, "redis.conf", "{hits:?}");
    let a = first.answer.clone().expect("an answer line");
    assert_eq!((a.line, a.text.as_str()), (5, "port 6412"));
    assert!(first.lines.0 <= 5 && 5 <= first.lines.1, "{first:?}");
}
