//! Typed tool results: what each tool puts in `ToolResult::data`, one variant per result
//! kind. The session turns them into frames by matching on the variant; the model, the
//! planner and the history see their JSON ([`ToolData::to_value`]), which keeps the shapes
//! documented in docs/tools.md (each kind serializes exactly as the tool's JSON always did).

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::sys_monitor::{CpuStats, DiskStats, MemoryStats, ProcSort, ProcessInfo};
use crate::UploadRef;
use llmops_common::TransferMode;
use llmops_loganalysis::FileAnalysis;
use llmops_policy::ResolvedArg;

/// The structured part of a tool result.
#[derive(Debug, Clone, PartialEq, Default)]
pub enum ToolData {
    /// No structured data (`null`): plain failures, cancellations, timeouts.
    #[default]
    None,
    /// A policy refusal: `{"blocked": true, "code", "target"}`.
    Denied(Denial),
    /// `sys_monitor` cpu / memory / disk / all.
    Monitor(MonitorData),
    /// `sys_monitor` metric `processes`.
    Processes(ProcessesData),
    /// `command_executor` (a run to its end, a timeout or the output cap).
    Command(CommandData),
    /// `command_executor` in follow mode (`tail -f`, `journalctl -f`).
    Follow(FollowData),
    /// `file_read` mode `read`: one page of a file.
    Page(PageData),
    /// `file_read {output_id}`: one page of a stored step output.
    StoredPage(StoredPageData),
    /// `file_read` mode `analyze`.
    Analysis(Box<FileAnalysis>),
    /// `file_upload`: this session's matching uploads, `{"files": [...]}`.
    Uploads(Vec<UploadRef>),
    /// `semantic_search`.
    Search(SearchData),
    /// `file_download`: `{"offer": {...}}`.
    Offer(DownloadOffer),
    /// `run_action`: `{"actions": [...]}`, each stage and where it ended (ran, denied, ...).
    Actions(crate::run_action::ActionsData),
    /// `log_query` and `system_query`: the query as run and its typed result.
    Query(Box<llmops_common::query::QueryResult>),
}

impl ToolData {
    /// The JSON the model, the planner and the history see.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or_else(|e| {
            // Only maps with non-string keys fail to serialize; no kind has one.
            tracing::error!("tool data not serializable: {e}");
            Value::Null
        })
    }

    pub fn is_none(&self) -> bool {
        matches!(self, ToolData::None)
    }

    /// Search hits, for the search pane.
    pub fn as_search(&self) -> Option<&SearchData> {
        match self {
            ToolData::Search(s) => Some(s),
            _ => None,
        }
    }

    /// A download offer, for the offer dialog.
    pub fn as_offer(&self) -> Option<&DownloadOffer> {
        match self {
            ToolData::Offer(o) => Some(o),
            _ => None,
        }
    }
}

impl Serialize for ToolData {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolData::None => s.serialize_unit(),
            ToolData::Denied(d) => d.serialize(s),
            ToolData::Monitor(d) => d.serialize(s),
            ToolData::Processes(d) => d.serialize(s),
            ToolData::Command(d) => d.serialize(s),
            ToolData::Follow(d) => d.serialize(s),
            ToolData::Page(d) => d.serialize(s),
            ToolData::StoredPage(d) => d.serialize(s),
            ToolData::Analysis(d) => d.serialize(s),
            ToolData::Uploads(files) => one_entry(s, "files", files),
            ToolData::Search(d) => d.serialize(s),
            ToolData::Offer(o) => one_entry(s, "offer", o),
            ToolData::Actions(a) => a.serialize(s),
            ToolData::Query(r) => r.serialize(s),
        }
    }
}

/// `{key: value}`: the shape of the kinds that wrap their value in one field.
fn one_entry<S: Serializer, T: Serialize + ?Sized>(
    s: S,
    key: &str,
    value: &T,
) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(1))?;
    m.serialize_entry(key, value)?;
    m.end()
}

/// A refusal by the path or command policy (also written to the audit log).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Denial {
    /// Machine-readable reason (`not_allowed`, `foreign_upload`, ...).
    pub code: &'static str,
    /// What was asked for, as the caller wrote it.
    pub target: String,
}

impl Serialize for Denial {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(3))?;
        m.serialize_entry("blocked", &true)?;
        m.serialize_entry("code", self.code)?;
        m.serialize_entry("target", &self.target)?;
        m.end()
    }
}

/// The figures a `sys_monitor` summary asked for (absent parts are left out).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MonitorData {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disks: Option<Vec<DiskStats>>,
}

/// The value of `metric` in a process answer (always `"processes"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum ProcessesMetric {
    #[default]
    #[serde(rename = "processes")]
    Processes,
}

/// The top processes by CPU or memory (docs/tools.md, `sys_monitor` metric `processes`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProcessesData {
    pub metric: ProcessesMetric,
    pub sort: ProcSort,
    /// The name filter asked for.
    pub name: Option<String>,
    pub total_processes: usize,
    /// How many processes matched the name (all of them without one).
    pub matched: usize,
    pub memory_total_bytes: u64,
    pub cores: usize,
    pub interval_ms: u64,
    /// At most `limit` of the matching processes, sorted.
    pub processes: Vec<ProcessInfo>,
}

/// One `command_executor` run (docs/tools.md).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CommandData {
    /// The first stage's program.
    pub command: String,
    /// The first stage's arguments as shown.
    pub args: Vec<String>,
    /// The last stage's exit code; `None` when killed or ended by a signal.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    pub stopped_at_cap: bool,
    pub cwd: String,
    pub timed_out: bool,
    pub pid: Option<u32>,
    /// argv of every stage.
    pub stages: Vec<Vec<String>>,
    pub stage_exit_codes: Vec<Option<i32>>,
    /// Relative file names resolved to uploads or the working dir.
    pub resolved: Vec<ResolvedArg>,
    /// Always false here (a follow run is [`FollowData`]).
    pub follow: bool,
}

/// A follow run of `command_executor`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowData {
    pub command: String,
    pub args: Vec<String>,
    /// The exit code when the command exited by itself.
    pub exit_code: Option<i32>,
    /// The last lines kept, each ending in a newline.
    pub stdout: String,
    pub stderr: String,
    /// Fewer lines kept than read.
    pub truncated: bool,
    pub cwd: String,
    /// Always false: the follow cap is the expected end, not a timeout.
    pub timed_out: bool,
    pub pid: Option<u32>,
    pub follow: FollowStats,
}

/// How a follow run went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowStats {
    pub ended: FollowEnd,
    pub elapsed_ms: u64,
    /// Lines read.
    pub lines: u64,
    pub bytes: u64,
    /// Lines kept in `stdout`.
    pub shown_lines: u64,
    /// Lines not shown live (rate limit).
    pub not_live: u64,
    pub cap_secs: u64,
}

/// One page of a file (`file_read` mode `read`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageData {
    /// Absolute resolved path.
    pub path: String,
    pub offset: u64,
    pub limit: u64,
    pub total_lines: u64,
    pub lines: Vec<String>,
    /// Lines after this page.
    pub more_lines: u64,
    pub encoding: Encoding,
    /// Some bytes were invalid in the encoding (shown as U+FFFD).
    pub lossy: bool,
    /// Lines cut at the per-line cap.
    pub cut_lines: usize,
}

/// One page of a stored step output (`file_read {output_id}`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct StoredPageData {
    pub output_id: String,
    pub offset: u64,
    pub lines: Vec<String>,
    pub total_lines: u64,
    pub total_bytes: u64,
    pub more_lines: u64,
    /// The stored copy was cut at its cap.
    pub truncated: bool,
}

/// Search hits (`semantic_search`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchData {
    pub query: String,
    pub scope: SearchScope,
    pub results: Vec<SearchHit>,
}

impl SearchData {
    /// The hits as the protocol's search frame carries them.
    pub fn wire_hits(&self) -> Vec<protocol::SearchHit> {
        self.results.iter().map(protocol::SearchHit::from).collect()
    }

    /// The search frame for the client (`request_id` when it answers a request).
    pub fn to_wire(&self, request_id: Option<u64>) -> protocol::SearchResults {
        protocol::SearchResults {
            request_id,
            query: self.query.clone(),
            scope: self.scope.as_str().to_string(),
            results: self.wire_hits(),
        }
    }
}

/// A download the user may accept (`file_download`): checked, hashed, not yet sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DownloadOffer {
    /// Absolute resolved path.
    pub file_path: String,
    pub filename: String,
    pub size: u64,
    pub sha256: String,
    pub transport_mode: TransferMode,
}

// Value types of the tools' results, kept here (below the tools) so the tools build them
// and this module describes them without importing the tools.

/// The text encoding a file was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

/// Why a follow ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowEnd {
    /// The operator cancelled (Ctrl+C).
    Cancelled,
    /// The cap was reached.
    Cap,
    /// The command exited by itself (a file that cannot be read, a unit with no journal).
    Exited(Option<i32>),
}

/// One search result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SearchHit {
    pub filename: String,
    pub filepath: String,
    /// In [0, 1].
    pub similarity: f32,
    /// At most 200 characters.
    pub chunk: String,
    /// e.g. "lines 3-7".
    pub position: String,
    /// filename | lexical | semantic | hybrid.
    pub match_type: String,
    pub file_id: Option<String>,
    /// The line that answers the question (and the key it sets), when the index found one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<llmops_common::AnswerLine>,
}

/// Where to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchScope {
    All,
    /// The doc folders (system documentation).
    System,
    /// This session's uploads.
    Uploads,
}

#[cfg(test)]
mod tests;
