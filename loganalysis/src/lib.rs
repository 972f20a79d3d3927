//! Whole-file log analysis with exact numbers: line count (`grep -c ''`), per-level counts,
//! message templates, first/last times, time span and a histogram, streamed at disk speed.
//!
//! - [`LogAnalyzer`]: streaming; `feed` chunks of any size (lines may span chunks), `finish`
//!   for the [`LogReport`].
//! - [`analyze_file`]: the whole file (up to [`AnalyzeOptions::max_bytes`]), split at line
//!   boundaries over worker threads and merged exactly; cancellable, with progress.
//! - [`synth`]: synthetic logs with planted ground truth.
//! - [`table`]: logs (and system tables) as tables: formats in data, detection by content,
//!   and the query engine ([`run_query`], [`run_table`]).
//!
//! The rules (levels, timestamps, templates) are documented in `docs/tools.md`.

mod analyzer;
mod file;
mod level;
mod mask;
mod report;
pub mod synth;
pub mod table;
mod ts;

pub use ts::days_from_civil;

pub use analyzer::{AnalyzeOptions, LogAnalyzer, MAX_BUCKETS, MAX_EXAMPLE, MAX_LINE};
pub use file::{analyze_file, AnalyzeError};
pub use level::Level;
pub use mask::MAX_TEMPLATE;
pub use report::{
    AnalyzeMode, Bucket, BucketSize, FileAnalysis, Histogram, LevelCount, LogReport, TemplateCount,
};
pub use table::{
    builtin_registry, columns, describe, describe_sample, run_query, run_table, Cell, Described,
    MemTable, QueryError, QueryFile, QueryOptions, Registry, Sample,
};

/// Convenience: the report of an in-memory log.
pub fn analyze_bytes(data: &[u8], opts: AnalyzeOptions) -> LogReport {
    let mut a = LogAnalyzer::new(opts);
    a.feed(data);
    a.finish()
}
