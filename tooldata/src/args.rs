//! Typed tool arguments: one struct per tool and [`ToolArgs`], the call of any tool, shared
//! by the tools (which run from them), the planner (which builds and reads them) and the
//! agent loop. JSON is only the wire: [`ToolArgs::from_json`] takes what a model wrote,
//! with each tool's leniency (aliases, defaults, a number as a string), and
//! [`ToolArgs::to_json`] gives the shape the prompts, the events and the audit show.

mod action;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use llmops_common::query::QueryArgs;
use llmops_common::ToolName;

use crate::ProcSort;

pub use action::{ActionCall, RunActionArgs};

/// The arguments of one tool call.
#[derive(Debug, Clone, PartialEq)]
pub enum ToolArgs {
    SysMonitor(SysMonitorArgs),
    Command(CommandArgs),
    Search(SearchArgs),
    FileRead(FileReadArgs),
    Download(DownloadArgs),
    Upload(UploadArgs),
    LogQuery(QueryArgs),
    SystemQuery(QueryArgs),
    RunAction(RunActionArgs),
}

impl ToolArgs {
    /// The tool these arguments call.
    pub fn tool(&self) -> ToolName {
        match self {
            ToolArgs::SysMonitor(_) => ToolName::SysMonitor,
            ToolArgs::Command(_) => ToolName::CommandExecutor,
            ToolArgs::Search(_) => ToolName::SemanticSearch,
            ToolArgs::FileRead(_) => ToolName::FileRead,
            ToolArgs::Download(_) => ToolName::FileDownload,
            ToolArgs::Upload(_) => ToolName::FileUpload,
            ToolArgs::LogQuery(_) => ToolName::LogQuery,
            ToolArgs::SystemQuery(_) => ToolName::SystemQuery,
            ToolArgs::RunAction(_) => ToolName::RunAction,
        }
    }

    /// The arguments a model (or a client) wrote for `tool`, with the error the tool gives
    /// for arguments it cannot take.
    pub fn from_json(tool: ToolName, args: Value) -> Result<ToolArgs, String> {
        Ok(match tool {
            ToolName::SysMonitor => ToolArgs::SysMonitor(parse_args(args)?),
            ToolName::CommandExecutor => ToolArgs::Command(parse_args(args)?),
            ToolName::SemanticSearch => ToolArgs::Search(parse_args(args)?),
            ToolName::FileRead => ToolArgs::FileRead(parse_args(args)?),
            ToolName::FileDownload => ToolArgs::Download(parse_args(args)?),
            ToolName::FileUpload => ToolArgs::Upload(parse_args(args)?),
            ToolName::LogQuery => ToolArgs::LogQuery(parse_args(args)?),
            ToolName::SystemQuery => ToolArgs::SystemQuery(parse_args(args)?),
            ToolName::RunAction => ToolArgs::RunAction(RunActionArgs::from_json(args)?),
        })
    }

    /// The JSON of the call (the wire, the prompts, the events, the audit).
    pub fn to_json(&self) -> Value {
        let v = match self {
            ToolArgs::SysMonitor(a) => serde_json::to_value(a),
            ToolArgs::Command(a) => serde_json::to_value(a),
            ToolArgs::Search(a) => serde_json::to_value(a),
            ToolArgs::FileRead(a) => serde_json::to_value(a),
            ToolArgs::Download(a) => serde_json::to_value(a),
            ToolArgs::Upload(a) => serde_json::to_value(a),
            ToolArgs::LogQuery(a) | ToolArgs::SystemQuery(a) => serde_json::to_value(a),
            ToolArgs::RunAction(a) => serde_json::to_value(a),
        };
        v.unwrap_or_else(|e| {
            // Only maps with non-string keys fail to serialize; no argument type has one.
            tracing::error!("tool arguments not serializable: {e}");
            Value::Null
        })
    }

    /// The query of a `log_query` or `system_query` call.
    pub fn as_query(&self) -> Option<&QueryArgs> {
        match self {
            ToolArgs::LogQuery(q) | ToolArgs::SystemQuery(q) => Some(q),
            _ => None,
        }
    }
}

/// The JSON of the call, as logs and messages quote it.
impl std::fmt::Display for ToolArgs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.to_json())
    }
}

/// Arguments as a model sends them: an object, `null` (no arguments) or a string holding
/// the JSON object; the error says what did not fit.
pub fn parse_args<T: DeserializeOwned>(args: Value) -> Result<T, String> {
    let value = match args {
        Value::Null => json!({}),
        Value::String(s) => {
            serde_json::from_str(&s).map_err(|e| format!("参数不是合法的 JSON 对象: {e}"))?
        }
        other => other,
    };
    serde_json::from_value(value).map_err(|e| format!("参数错误 (invalid arguments): {e}"))
}

/// Which part of the machine a `sys_monitor` call wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Cpu,
    Memory,
    Disk,
    Processes,
    All,
}

impl Metric {
    /// The metric a name means (`mem`, `procs` and the empty name are accepted).
    pub fn parse(raw: &str) -> Option<Metric> {
        match raw.trim().to_lowercase().as_str() {
            "cpu" => Some(Metric::Cpu),
            "memory" | "mem" => Some(Metric::Memory),
            "disk" | "disks" => Some(Metric::Disk),
            "processes" | "process" | "procs" => Some(Metric::Processes),
            "all" | "" => Some(Metric::All),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Metric::Cpu => "cpu",
            Metric::Memory => "memory",
            Metric::Disk => "disk",
            Metric::Processes => "processes",
            Metric::All => "all",
        }
    }
}

/// Default and bounds of `sys_monitor`'s `limit`.
pub const MONITOR_DEFAULT_LIMIT: usize = 10;
pub const MONITOR_MAX_LIMIT: usize = 50;

/// `sys_monitor {metric, sort, limit, name}`. `metric` and `sort` stay as written (a bad
/// one is the tool's specific error, see [`SysMonitorArgs::metric`]).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SysMonitorArgs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sort: Option<String>,
    /// A number, or a string holding one (models send both).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl SysMonitorArgs {
    /// A summary of one part of the machine.
    pub fn of(metric: Metric) -> Self {
        SysMonitorArgs {
            metric: Some(metric.as_str().to_string()),
            ..SysMonitorArgs::default()
        }
    }

    /// The top `limit` processes by `sort`, only those matching `name` if given.
    pub fn processes(sort: ProcSort, limit: usize, name: Option<String>) -> Self {
        SysMonitorArgs {
            metric: Some(Metric::Processes.as_str().to_string()),
            sort: Some(sort.as_str().to_string()),
            limit: Some(Value::from(limit)),
            name,
        }
    }

    /// The metric asked for (`all` when none).
    pub fn metric(&self) -> Result<Metric, String> {
        let raw = self.metric.as_deref().unwrap_or("all");
        Metric::parse(raw)
            .ok_or_else(|| format!("metric 必须是 cpu、memory、disk、processes 或 all 之一: {raw}"))
    }

    /// Whether this asks for the process listing.
    pub fn is_processes(&self) -> bool {
        self.metric() == Ok(Metric::Processes)
    }

    /// The sort order asked for (CPU when none).
    pub fn sort(&self) -> Result<ProcSort, String> {
        match self.sort.as_deref().map(str::trim) {
            None | Some("") => Ok(ProcSort::Cpu),
            Some(raw) => ProcSort::parse(raw).ok_or_else(|| {
                format!("sort 必须是 cpu 或 memory: {raw} (sort must be cpu or memory)")
            }),
        }
    }

    /// How many processes, clamped to `1..=MONITOR_MAX_LIMIT`.
    pub fn limit(&self) -> Result<usize, String> {
        match &self.limit {
            None | Some(Value::Null) => Ok(MONITOR_DEFAULT_LIMIT),
            Some(v) => {
                let n = v
                    .as_i64()
                    .or_else(|| v.as_f64().map(|f| f.round() as i64))
                    .or_else(|| v.as_str().and_then(|s| s.trim().parse::<i64>().ok()))
                    .ok_or_else(|| format!("limit 必须是 1 到 {MONITOR_MAX_LIMIT} 的整数: {v}"))?;
                Ok(usize::try_from(n.clamp(1, MONITOR_MAX_LIMIT as i64))
                    .unwrap_or(MONITOR_DEFAULT_LIMIT))
            }
        }
    }

    /// The name filter, trimmed; `None` when empty.
    pub fn name(&self) -> Option<&str> {
        self.name
            .as_deref()
            .map(str::trim)
            .filter(|n| !n.is_empty())
    }
}

/// `command_executor {command, args, timeout}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct CommandArgs {
    pub command: String,
    #[serde(default)]
    pub args: Vec<String>,
    /// Optional shorter timeout in seconds (never longer than the policy's).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout: Option<f64>,
}

impl CommandArgs {
    pub fn new(command: impl Into<String>, args: Vec<String>) -> Self {
        CommandArgs {
            command: command.into(),
            args,
            timeout: None,
        }
    }

    /// The command line as the operator would type it.
    pub fn line(&self) -> String {
        std::iter::once(self.command.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// `semantic_search {query, scope: all|system|uploads, top_k 1..10 = 3}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct SearchArgs {
    #[serde(default)]
    pub query: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_k: Option<i64>,
}

/// What `file_read` returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReadMode {
    /// A page of lines (the default).
    #[default]
    Read,
    /// Whole-file log analysis (docs/tools.md).
    Analyze,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// `file_read {file_path | output_id, mode, offset, limit}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct FileReadArgs {
    /// `path` is accepted too (the analyze contract's name).
    #[serde(alias = "path", default)]
    pub file_path: String,
    /// A stored output of this session (from an earlier step) instead of a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_id: Option<String>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub mode: ReadMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offset: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u64>,
}

impl FileReadArgs {
    /// Lines `[offset, offset + limit)` of a file.
    pub fn page(file_path: impl Into<String>, offset: u64, limit: u64) -> Self {
        FileReadArgs {
            file_path: file_path.into(),
            offset: Some(offset),
            limit: Some(limit),
            ..FileReadArgs::default()
        }
    }

    /// The whole-file analysis of a log.
    pub fn analyze(file_path: impl Into<String>) -> Self {
        FileReadArgs {
            file_path: file_path.into(),
            mode: ReadMode::Analyze,
            ..FileReadArgs::default()
        }
    }
}

/// `file_download {file_path, transport_mode}`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct DownloadArgs {
    pub file_path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport_mode: Option<String>,
}

/// `file_upload {action, reference, file_type, count, time_range, file_id}`: which of this
/// session's uploads a reference means.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct UploadArgs {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_range: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_id: Option<String>,
}

#[cfg(test)]
mod tests;
