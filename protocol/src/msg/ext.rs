//! Extension payloads for the conversation: handshake, errors, chat and streaming, agent
//! events and stored outputs, sessions, history and models.

use super::*;

/// Client request correlation id, echoed by every reply to that request.
pub type RequestId = u64;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Hello {
    pub proto: u32,
    pub client: String,
    pub client_version: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resume_session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auth_token: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub udp_port: Option<u16>,
    /// Read-only clients (`status`, `search`, `files`, `sessions`): when no session is
    /// resumed, do not create one until the connection sends something that needs it.
    /// The WELCOME then has an empty `session_id`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_new_session: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Welcome {
    pub proto: u32,
    pub session_id: String,
    pub session_name: String,
    /// True when `resume_session` from the hello was found and resumed.
    pub resumed: bool,
    pub server_version: String,
    pub heartbeat_secs: u32,
    pub model: String,
    pub models: Vec<String>,
    pub features: Vec<String>,
    /// `offline` or the provider name.
    pub planner: String,
    /// Where data can leave this box: `none` or the LLM endpoint host.
    pub egress: String,
    /// Human welcome text (same as the legacy welcome).
    pub motd: String,
    /// Command names the server's `command_executor` allows (its whitelist), for a
    /// client's completion. Absent from older servers; an empty list is not sent.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub commands: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ErrorMsg {
    /// Stable machine code, e.g. `bad_payload`, `unauthorized`, `busy`, `not_found`.
    pub code: String,
    /// Specific human sentence (Chinese or English).
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ChatSend {
    pub request_id: RequestId,
    pub text: String,
    /// Uploaded files this message is about (from upload-with-note or references).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub file_ids: Vec<String>,
    /// An action the operator proposes (exactly this argv, e.g. `kill -TERM 4242`): the
    /// turn checks it and asks for approval like an agent's `run_action`, and plans
    /// nothing else. `text` says it in words for the history.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub action: Option<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct StreamStart {
    pub request_id: RequestId,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct StreamDelta {
    pub request_id: RequestId,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(test, derive(Arbitrary))]
pub enum EndStatus {
    Ok,
    Cancelled,
    Error,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct StreamEnd {
    pub request_id: RequestId,
    pub status: EndStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// One agent event during a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[cfg_attr(test, derive(Arbitrary))]
pub enum AgentEventKind {
    Status {
        text: String,
    },
    ToolCall {
        step: u32,
        tool: String,
        #[cfg_attr(test, proptest(strategy = "arb_json()"))]
        args: serde_json::Value,
    },
    ToolResult {
        step: u32,
        tool: String,
        ok: bool,
        duration_ms: u64,
        summary: String,
        /// The step's whole output, kept by the server: page it with OUTPUT_GET.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        output: Option<OutputRef>,
    },
}

/// A tool step's output as stored by the server (whole, up to a per-step cap), paged with
/// `OUTPUT_GET`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OutputRef {
    pub output_id: String,
    /// Lines stored (what OUTPUT_GET can return).
    pub lines: u64,
    /// Bytes the tool produced (more than stored when `truncated`).
    pub bytes: u64,
    /// The per-step cap cut the stored copy.
    #[serde(default)]
    pub truncated: bool,
}

/// `TOOL_OUTPUT`: lines a running tool call produced (follow mode), rate limited by the
/// server. `dropped` lines were not sent live (they are in the stored output); `total` is
/// every line seen so far.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ToolOutput {
    pub request_id: RequestId,
    pub step: u32,
    pub tool: String,
    pub lines: Vec<String>,
    #[serde(default)]
    pub dropped: u64,
    pub total: u64,
}

/// `OUTPUT_GET`: lines `[offset, offset + count)` of a stored output of this session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OutputGet {
    pub request_id: RequestId,
    pub output_id: String,
    pub offset: u64,
    pub count: u32,
}

/// `OUTPUT_PAGE`: the answer to `OUTPUT_GET`. `lines` may be fewer than asked (end of the
/// output, or the server's per-reply byte cap); the next page starts at
/// `offset + lines.len()`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OutputPage {
    pub request_id: RequestId,
    pub output_id: String,
    pub offset: u64,
    pub lines: Vec<String>,
    pub total_lines: u64,
    /// Bytes the tool produced.
    pub total_bytes: u64,
    #[serde(default)]
    pub truncated: bool,
}

/// Most lines one `FILE_REGION_REPLY` carries; a longer span is cut to this many.
pub const MAX_REGION_LINES: u64 = 400;

/// `FILE_REGION`: lines `first_line..=last_line` (1-based, inclusive) of a text file, read
/// through the same path policy and upload resolution as the `file_read` tool. `target` is
/// an upload's file id (of this session) or a path (a bare name matches this session's
/// uploads first).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct FileRegion {
    pub request_id: RequestId,
    pub target: String,
    pub first_line: u64,
    pub last_line: u64,
}

/// `FILE_REGION_REPLY`: the answer to `FILE_REGION`. `lines[i]` is line `first_line + i`;
/// fewer lines than asked at the end of the file or past [`MAX_REGION_LINES`]; none when
/// `first_line` is past the end.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct FileRegionReply {
    pub request_id: RequestId,
    /// The file read, as the path policy resolved it.
    pub path: String,
    pub first_line: u64,
    pub lines: Vec<String>,
    /// Lines in the whole file.
    pub total_lines: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct AgentEvent {
    pub request_id: RequestId,
    pub event: AgentEventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Cancel {
    /// The turn to cancel; `None` cancels whatever turn is running.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
#[cfg_attr(test, derive(Arbitrary))]
pub enum SessionOp {
    List,
    New {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// `id` may be a unique prefix.
    Switch {
        id: String,
    },
    Delete {
        id: String,
    },
    /// Renames `id` (a unique prefix) or, when absent, the current session.
    Rename {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SessionCmd {
    pub request_id: RequestId,
    #[serde(flatten)]
    pub op: SessionOp,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SessionInfo {
    pub id: String,
    pub name: String,
    /// RFC 3339 timestamps.
    pub created_at: String,
    pub updated_at: String,
    pub messages: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SessionReply {
    pub request_id: RequestId,
    /// The op this answers: list, new, switch, delete, rename.
    pub op: String,
    pub current: SessionInfo,
    pub sessions: Vec<SessionInfo>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct HistoryGet {
    pub request_id: RequestId,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ToolCallRecord {
    pub tool: String,
    #[cfg_attr(test, proptest(strategy = "arb_json()"))]
    pub args: serde_json::Value,
    pub ok: bool,
    pub duration_ms: u64,
    pub summary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<OutputRef>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct HistoryMessage {
    /// `user` or `assistant`.
    pub role: String,
    pub text: String,
    /// RFC 3339.
    pub time: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tool_calls: Vec<ToolCallRecord>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct History {
    pub request_id: RequestId,
    pub session_id: String,
    pub messages: Vec<HistoryMessage>,
}

/// A request that carries only its id (clear history, list models, list files, status).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Req {
    pub request_id: RequestId,
}

/// Generic success reply with a human message.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Ack {
    pub request_id: RequestId,
    pub message: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ModelSet {
    pub request_id: RequestId,
    pub model: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ModelInfo {
    pub request_id: RequestId,
    pub current: String,
    pub models: Vec<String>,
    pub planner: String,
}
