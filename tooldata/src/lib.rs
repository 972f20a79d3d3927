//! Typed tool results: what each tool puts in `ToolResult::data`, one variant per result
//! kind, below both the tools (which build them) and the planner (which reads them). The
//! session turns them into frames by matching on the variant; the model and the history
//! see their JSON ([`ToolData::to_value`]), which keeps the shapes documented in
//! docs/tools.md (each kind serializes exactly as the tool's JSON always did). The typed
//! arguments of each tool ([`ToolArgs`]) live here too, for the same three readers.

mod action;
pub mod args;
mod command;
mod file;
mod monitor;
mod search;

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;
use serde_json::Value;

use llmops_common::UploadRef;
use llmops_loganalysis::FileAnalysis;

pub use action::{ActionData, ActionState, ActionsData, Verdict, Verification, ACTION_TIMEOUT};
pub use args::{
    parse_args, ActionCall, CommandArgs, DownloadArgs, FileReadArgs, Metric, ReadMode,
    RunActionArgs, SearchArgs, SysMonitorArgs, ToolArgs, UploadArgs, MONITOR_DEFAULT_LIMIT,
    MONITOR_MAX_LIMIT,
};
pub use command::{CommandData, FollowData, FollowEnd, FollowStats};
pub use file::{DownloadOffer, Encoding, PageData, StoredPageData};
pub use llmops_common::query::QueryArgs;
pub use monitor::{
    CpuStats, DiskStats, MemoryStats, MonitorData, ProcSort, ProcessInfo, ProcessesData,
    ProcessesMetric,
};
pub use search::{SearchData, SearchHit, SearchScope};

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
    Actions(ActionsData),
    /// `log_query` and `system_query`: the query as run and its typed result.
    Query(Box<llmops_common::query::QueryResult>),
}

impl ToolData {
    /// The JSON the model and the history see.
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

    /// A `sys_monitor` summary.
    pub fn as_monitor(&self) -> Option<&MonitorData> {
        match self {
            ToolData::Monitor(m) => Some(m),
            _ => None,
        }
    }

    /// A process listing.
    pub fn as_processes(&self) -> Option<&ProcessesData> {
        match self {
            ToolData::Processes(p) => Some(p),
            _ => None,
        }
    }

    /// A whole-file log analysis.
    pub fn as_analysis(&self) -> Option<&FileAnalysis> {
        match self {
            ToolData::Analysis(a) => Some(a),
            _ => None,
        }
    }

    /// The uploads a `file_upload` listing matched.
    pub fn as_uploads(&self) -> Option<&[UploadRef]> {
        match self {
            ToolData::Uploads(files) => Some(files),
            _ => None,
        }
    }

    /// The stages of a `run_action` call.
    pub fn as_actions(&self) -> Option<&ActionsData> {
        match self {
            ToolData::Actions(a) => Some(a),
            _ => None,
        }
    }

    /// A query's typed result (`log_query`, `system_query`).
    pub fn as_query(&self) -> Option<&llmops_common::query::QueryResult> {
        match self {
            ToolData::Query(r) => Some(r),
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
