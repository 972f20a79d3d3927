//! A chunk's context, what it is indexed with besides its text: the key paths its lines
//! set (`keypath`, structured configs) and its file's title (`title`). Built once per file,
//! at indexing and by the backfill of older indexes alike.

use super::keypath::{self, KeyPath};
use super::title;

/// A file's key paths per line and its title.
pub struct FileContext {
    paths: Vec<Option<KeyPath>>,
    title: Option<String>,
}

impl FileContext {
    pub fn of(filename: &str, text: &str) -> FileContext {
        FileContext {
            paths: keypath::nesting_of(filename, text)
                .map(|n| keypath::line_paths(text, n))
                .unwrap_or_default(),
            title: title::file_title(filename, text),
        }
    }

    /// Neither key paths nor a title: every chunk's context is empty.
    pub fn is_empty(&self) -> bool {
        self.title.is_none() && self.paths.iter().all(Option::is_none)
    }

    /// The context of the chunk of lines `first..=last` (1-based).
    pub fn chunk(&self, first: usize, last: usize) -> String {
        title::with_title(
            keypath::chunk_context(&self.paths, first, last),
            self.title.as_deref(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_context_holds_key_paths_and_title() {
        let yml = "# orders api\nspring:\n  redis:\n    timeout: 2s\n";
        let c = FileContext::of("application.yml", yml);
        assert!(!c.is_empty());
        // The key path, its parents joined (as `keypath::chunk_context` writes them), the title.
        assert_eq!(
            c.chunk(4, 4),
            "spring.redis.timeout\nspring_redis\n# orders api"
        );
        assert_eq!(
            FileContext::of("flat.conf", "# gunicorn workers\nworkers = 6\n").chunk(2, 2),
            "# gunicorn workers"
        );
        assert!(FileContext::of("notes.md", "# title\ntext\n").is_empty());
        assert!(FileContext::of("a.conf", "port 1\n").is_empty());
    }
}
