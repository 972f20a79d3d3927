//! The analysis result: serde types with the JSON contract of `file_read` mode "analyze"
//! (docs/tools.md; field names are binding).

use serde::{Deserialize, Serialize};

use crate::Level;

/// Per-level figures. `first_line` is the 1-based number of the level's first line;
/// `first_ts`/`last_ts` are the times of its first and last line that carries a timestamp
/// (by position in the file).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LevelCount {
    pub level: Level,
    pub count: u64,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    pub first_line: u64,
}

/// One message template (see the masking rule in docs/tools.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TemplateCount {
    pub template: String,
    pub level: Level,
    pub count: u64,
    /// The first line with this template, raw (cut at 500 bytes, invalid UTF-8 as U+FFFD).
    pub example: String,
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    pub first_line: u64,
}

/// Histogram bucket width.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BucketSize {
    Minute,
    Hour,
    Day,
}

impl BucketSize {
    pub fn name(self) -> &'static str {
        match self {
            BucketSize::Minute => "minute",
            BucketSize::Hour => "hour",
            BucketSize::Day => "day",
        }
    }
}

/// Lines with a timestamp in one bucket; `errors` = FATAL+CRITICAL+ERROR, `warns` = WARN.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bucket {
    /// `2024-05-01T10:00` (minute, hour) or `2024-05-01` (day); syslog times without a year:
    /// `May  1 10:00` / `May  1`.
    pub start: String,
    pub total: u64,
    pub errors: u64,
    pub warns: u64,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Histogram {
    pub bucket: BucketSize,
    pub buckets: Vec<Bucket>,
}

impl Histogram {
    /// The bucket with the most lines (the earliest of equals).
    pub fn peak(&self) -> Option<&Bucket> {
        self.buckets
            .iter()
            .fold(None, |best: Option<&Bucket>, b| match best {
                Some(x) if x.total >= b.total => Some(x),
                _ => Some(b),
            })
    }

    /// The bucket with the most error lines (the earliest of equals), if any has errors.
    pub fn peak_errors(&self) -> Option<&Bucket> {
        self.buckets
            .iter()
            .filter(|b| b.errors > 0)
            .fold(None, |best: Option<&Bucket>, b| match best {
                Some(x) if x.errors >= b.errors => Some(x),
                _ => Some(b),
            })
    }
}

/// Whole-file (or, with `complete == false`, first `bytes_read` bytes) analysis.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogReport {
    /// File size.
    pub bytes: u64,
    /// Bytes analysed (== `bytes` when complete; otherwise ends at a line end).
    pub bytes_read: u64,
    /// False only when the size cap stopped the read.
    pub complete: bool,
    /// Lines, as `grep -c ''` counts them.
    pub lines: u64,
    /// Every level seen, most severe first, `NONE` last.
    pub levels: Vec<LevelCount>,
    /// Top templates by count (ties: first line), see docs/tools.md.
    pub templates: Vec<TemplateCount>,
    pub distinct_templates: u64,
    pub templates_capped: bool,
    /// Lines not counted in any template because the template cap was reached.
    #[serde(default)]
    pub untemplated_lines: u64,
    /// First / last timestamp by position.
    pub first_ts: Option<String>,
    pub last_ts: Option<String>,
    /// Lines carrying a timestamp.
    pub ts_lines: u64,
    /// Latest minus earliest timestamp (by value), whole seconds.
    #[serde(default)]
    pub span_seconds: Option<u64>,
    /// `None` when no line has a timestamp.
    pub histogram: Option<Histogram>,
}

impl LogReport {
    /// Lines of `level` (0 when absent).
    pub fn count(&self, level: Level) -> u64 {
        self.level(level).map_or(0, |l| l.count)
    }

    pub fn level(&self, level: Level) -> Option<&LevelCount> {
        self.levels.iter().find(|l| l.level == level)
    }
}

/// `"analyze"`: the `mode` field of the tool's data.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AnalyzeMode {
    #[default]
    Analyze,
}

/// The `data` of `file_read` mode "analyze": the report plus which file it is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileAnalysis {
    pub mode: AnalyzeMode,
    /// Absolute resolved path.
    pub path: String,
    /// The file's name.
    pub file: String,
    #[serde(flatten)]
    pub report: LogReport,
}
