//! llmops document index: chunker, lexical index (tantivy + jieba + CJK bigrams), dense
//! embedders, vector stores (in-process or Chroma) and hybrid ranking, behind one `Engine`.
//! Everything here is blocking: the server calls it from blocking threads, and dense
//! embedding runs on the engine's own dedicated thread.

pub mod analyzers;
pub mod chunker;
pub mod embed;
pub mod engine;
pub mod kernels;
pub mod lexical;
pub mod rank;
pub mod vectors;

pub use engine::{
    AnswerLine, DenseParts, Engine, EngineConfig, Hit, Mode, Progress, Scope, State, Stats, SysFile,
};

#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    #[error("index I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("lexical index: {0}")]
    Lexical(String),
    #[error("embedding model missing: {0}")]
    ModelMissing(String),
    #[error("embedding: {0}")]
    Embed(String),
    #[error("vector store: {0}")]
    Vector(String),
    #[error("index catalog: {0}")]
    Catalog(String),
    #[error("a lock was poisoned by a panic")]
    Poisoned,
}

impl From<tantivy::TantivyError> for IndexError {
    fn from(e: tantivy::TantivyError) -> Self {
        IndexError::Lexical(e.to_string())
    }
}

impl From<tantivy::directory::error::OpenDirectoryError> for IndexError {
    fn from(e: tantivy::directory::error::OpenDirectoryError) -> Self {
        IndexError::Lexical(e.to_string())
    }
}

/// Stable id of chunk `ord` of file `key` (the first 8 bytes of a sha256): the same in the
/// lexical index and every vector store, with no counter to persist.
pub fn chunk_id(key: &str, ord: u32) -> u64 {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(key.as_bytes());
    h.update(b"#");
    h.update(ord.to_le_bytes());
    let d = h.finalize();
    // Chroma ids are strings and tantivy u64 terms are fine with any value; keep 63 bits so
    // the id also fits an i64 anywhere it lands.
    u64::from_le_bytes([d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7]]) >> 1
}
