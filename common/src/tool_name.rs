//! The agent's tool names: one enum and the one string table the registry, the planner and
//! the agent loop share (the name a model calls a tool by).

use std::fmt;
use std::str::FromStr;

/// One of the agent's tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ToolName {
    SysMonitor,
    CommandExecutor,
    SemanticSearch,
    FileRead,
    FileDownload,
    FileUpload,
    /// A query over a log as a table of events (fields, filters, groups, statistics,
    /// time buckets, timelines).
    LogQuery,
    /// The same query over the system as tables: processes, sockets, mounts, units.
    SystemQuery,
    /// Proposes a mutating action for the operator's approval. Not in `ALL`: it is never a
    /// registry tool; the agent runs it only after an approval.
    RunAction,
}

impl ToolName {
    /// Every tool, in the registry's order.
    pub const ALL: [ToolName; 8] = [
        ToolName::SysMonitor,
        ToolName::CommandExecutor,
        ToolName::SemanticSearch,
        ToolName::FileRead,
        ToolName::FileDownload,
        ToolName::FileUpload,
        ToolName::LogQuery,
        ToolName::SystemQuery,
    ];

    /// The name a model calls the tool by (the one string table).
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolName::SysMonitor => "sys_monitor",
            ToolName::CommandExecutor => "command_executor",
            ToolName::SemanticSearch => "semantic_search",
            ToolName::FileRead => "file_read",
            ToolName::FileDownload => "file_download",
            ToolName::FileUpload => "file_upload",
            ToolName::LogQuery => "log_query",
            ToolName::SystemQuery => "system_query",
            ToolName::RunAction => "run_action",
        }
    }

    /// The tool of a name, `None` for a name no tool has (a model may invent one).
    pub fn parse(name: &str) -> Option<ToolName> {
        ToolName::ALL
            .into_iter()
            .chain([ToolName::RunAction])
            .find(|t| t.as_str() == name)
    }
}

/// A name that is not one of the agent's tools.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownTool(pub String);

impl fmt::Display for UnknownTool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "未知工具: {} (unknown tool)", self.0)
    }
}

impl std::error::Error for UnknownTool {}

impl FromStr for ToolName {
    type Err = UnknownTool;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        ToolName::parse(s).ok_or_else(|| UnknownTool(s.to_string()))
    }
}

impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl AsRef<str> for ToolName {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq<str> for ToolName {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for ToolName {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<ToolName> for str {
    fn eq(&self, other: &ToolName) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<ToolName> for String {
    fn eq(&self, other: &ToolName) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<ToolName> for &str {
    fn eq(&self, other: &ToolName) -> bool {
        *self == other.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_name_table_round_trips() {
        for t in ToolName::ALL {
            assert_eq!(t.as_str().parse::<ToolName>(), Ok(t));
            assert_eq!(t.to_string(), t.as_str());
        }
        let names: Vec<&str> = ToolName::ALL.iter().map(|t| t.as_str()).collect();
        assert_eq!(
            names,
            [
                "sys_monitor",
                "command_executor",
                "semantic_search",
                "file_read",
                "file_download",
                "file_upload",
                "log_query",
                "system_query"
            ]
        );
        assert_eq!("rm".parse::<ToolName>(), Err(UnknownTool("rm".to_string())));
        assert_eq!(ToolName::parse("File_Read"), None, "names are exact");
        assert!(ToolName::FileRead == "file_read");
        assert!("file_read" == ToolName::FileRead);
    }
}
