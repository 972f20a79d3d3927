//! Typed NPLT messages: the legacy type table (exact codes and payloads) and our extensions
//! on unused codes. One macro invocation is the single source of truth for codes, names,
//! directions and payload kinds; `docs/protocol.md` is tested against `type_table_markdown`.

use bytes::Bytes;
use serde::{de::DeserializeOwned, Deserialize, Serialize};

#[cfg(test)]
use proptest_derive::Arbitrary;

/// Protocol version spoken by clients that open with `HELLO`.
pub const PROTOCOL_VERSION: u32 = 1;

/// Largest reassembled JSON or text message (after fragment reassembly). Larger messages are
/// refused with `DecodeError::TooLarge` / `EncodeError::TooLarge`; bulk data goes through
/// upload/transfer data frames instead, which have no cap.
pub const MAX_MESSAGE_BYTES: usize = 8 * 1024 * 1024;

/// Frame type used to carry a piece of a message larger than one frame (extensions only).
pub const FRAGMENT_TYPE: u8 = 0x7F;

/// The literal legacy heartbeat text.
pub const LEGACY_HEARTBEAT: &str = "HEARTBEAT";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    ClientToServer,
    ServerToClient,
    Both,
}

impl Direction {
    pub fn arrow(self) -> &'static str {
        match self {
            Direction::ClientToServer => "C->S",
            Direction::ServerToClient => "S->C",
            Direction::Both => "both",
        }
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DecodeError {
    #[error("unknown message type 0x{0:02x}")]
    UnknownType(u8),
    #[error("invalid JSON payload for {name}: {reason}")]
    BadJson { name: &'static str, reason: String },
    #[error("payload of {name} is not valid UTF-8")]
    BadUtf8 { name: &'static str },
    #[error("message of {len} bytes exceeds the {max}-byte cap")]
    TooLarge { len: usize, max: usize },
    #[error("fragment sequence broken: {0}")]
    BadFragment(String),
}

impl DecodeError {
    /// Stable error code for error frames.
    pub fn code(&self) -> &'static str {
        match self {
            DecodeError::UnknownType(_) => "unknown_type",
            DecodeError::BadJson { .. } | DecodeError::BadUtf8 { .. } => "bad_payload",
            DecodeError::TooLarge { .. } => "too_large",
            DecodeError::BadFragment(_) => "bad_fragment",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EncodeError {
    #[error("message of {len} bytes exceeds the {max}-byte cap")]
    TooLarge { len: usize, max: usize },
    #[error("legacy message {name} of {len} bytes does not fit one frame")]
    LegacyTooLarge { name: &'static str, len: usize },
    #[error("json: {0}")]
    Json(String),
    #[error("io: {0}")]
    Io(#[from] std::io::Error),
}

/// How a payload is laid out on the wire.
pub trait WirePayload: Sized {
    const KIND: &'static str;
    fn encode_payload(&self) -> Result<Bytes, EncodeError>;
    fn decode_payload(name: &'static str, b: &[u8]) -> Result<Self, DecodeError>;
}

/// A payload that is ignored (legacy requests with no body).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Empty;

impl WirePayload for Empty {
    const KIND: &'static str = "empty";
    fn encode_payload(&self) -> Result<Bytes, EncodeError> {
        Ok(Bytes::new())
    }
    // Legacy clients may send anything in an "empty" request: accept and ignore it.
    fn decode_payload(_: &'static str, _: &[u8]) -> Result<Self, DecodeError> {
        Ok(Empty)
    }
}

impl WirePayload for String {
    const KIND: &'static str = "UTF-8 text";
    fn encode_payload(&self) -> Result<Bytes, EncodeError> {
        Ok(Bytes::copy_from_slice(self.as_bytes()))
    }
    fn decode_payload(name: &'static str, b: &[u8]) -> Result<Self, DecodeError> {
        String::from_utf8(b.to_vec()).map_err(|_| DecodeError::BadUtf8 { name })
    }
}

/// Raw bytes (file data). Not JSON, never fragmented: long data is just more frames.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Raw(pub Bytes);

#[cfg(test)]
impl proptest::arbitrary::Arbitrary for Raw {
    type Parameters = ();
    type Strategy = proptest::strategy::BoxedStrategy<Raw>;
    fn arbitrary_with(_: ()) -> Self::Strategy {
        use proptest::prelude::*;
        proptest::collection::vec(any::<u8>(), 0..300)
            .prop_map(|v| Raw(Bytes::from(v)))
            .boxed()
    }
}

impl WirePayload for Raw {
    const KIND: &'static str = "raw bytes";
    fn encode_payload(&self) -> Result<Bytes, EncodeError> {
        Ok(self.0.clone())
    }
    fn decode_payload(_: &'static str, b: &[u8]) -> Result<Self, DecodeError> {
        Ok(Raw(Bytes::copy_from_slice(b)))
    }
}

fn json_encode<T: Serialize>(v: &T) -> Result<Bytes, EncodeError> {
    serde_json::to_vec(v)
        .map(Bytes::from)
        .map_err(|e| EncodeError::Json(e.to_string()))
}

fn json_decode<T: DeserializeOwned>(name: &'static str, b: &[u8]) -> Result<T, DecodeError> {
    serde_json::from_slice(b).map_err(|e| DecodeError::BadJson {
        name,
        reason: e.to_string(),
    })
}

macro_rules! json_payloads {
    ($($t:ty),* $(,)?) => {$(
        impl WirePayload for $t {
            const KIND: &'static str = "JSON";
            fn encode_payload(&self) -> Result<Bytes, EncodeError> { json_encode(self) }
            fn decode_payload(name: &'static str, b: &[u8]) -> Result<Self, DecodeError> {
                json_decode(name, b)
            }
        }
    )*};
}

// ---------------------------------------------------------------------------------------
// Legacy payloads
// ---------------------------------------------------------------------------------------

/// `AGENT_THOUGHT`: `{"type": T, "content": str}`; `stream_start` carries no content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct AgentThought {
    #[serde(rename = "type")]
    pub kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
}

/// Legacy `DOWNLOAD_OFFER` (checksum is MD5 hex).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct LegacyDownloadOffer {
    pub filename: String,
    pub size: u64,
    pub checksum: String,
    pub download_token: String,
    pub server_host: String,
    pub server_port: u16,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct FileMetadata {
    pub filename: String,
    pub size: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ModelSwitch {
    pub model: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SessionRef {
    pub session_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UdpPort {
    pub udp_port: u16,
}

// ---------------------------------------------------------------------------------------
// Extension payloads
// ---------------------------------------------------------------------------------------

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

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadStart {
    pub request_id: RequestId,
    pub filename: String,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
}

/// Answer to an UPLOAD_RDT_START whose name and size passed: push the file to
/// `rdt_addr` presenting `token`; UPLOAD_RESULT (or ERROR) follows with the same request id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadGrant {
    pub request_id: RequestId,
    /// Hex token, presented in the push REQUEST on the RDT port.
    pub token: String,
    pub rdt_addr: String,
    pub size: u64,
}

/// Index state of an uploaded file: `receiving`, `saved`, `indexed`, `embedding`, `ready`,
/// `failed`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct FileInfo {
    pub file_id: String,
    pub filename: String,
    pub size: u64,
    pub sha256: String,
    pub content_type: String,
    pub uploaded_at: String,
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadResult {
    pub request_id: RequestId,
    pub file: FileInfo,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadStatus {
    /// Empty while the file is still being received (no id yet).
    pub file_id: String,
    pub filename: String,
    pub state: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Progress within the state (bytes received, chunks embedded).
    #[serde(default)]
    pub done: u64,
    #[serde(default)]
    pub total: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct FileListReply {
    pub request_id: RequestId,
    pub files: Vec<FileInfo>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct FileDelete {
    pub request_id: RequestId,
    pub file_id: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SearchReq {
    pub request_id: RequestId,
    pub query: String,
    /// `all`, `system` or `uploads`.
    pub scope: String,
    pub top_k: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SearchHit {
    pub filename: String,
    pub filepath: String,
    /// In [0, 1], higher is better.
    #[cfg_attr(test, proptest(strategy = "0.0f32..=1.0"))]
    pub similarity: f32,
    pub chunk: String,
    pub position: String,
    /// `filename`, `lexical`, `semantic` or `hybrid`.
    pub match_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SearchResults {
    /// `None` when the hits come from the agent's `semantic_search` rather than a request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    pub query: String,
    pub scope: String,
    pub results: Vec<SearchHit>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct MonitorSubscribe {
    /// Snapshot interval; the server clamps it to [250 ms, 60 s].
    pub interval_ms: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct CpuStats {
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub usage_percent: f32,
    pub cores: u32,
    pub frequency_mhz: u64,
    #[cfg_attr(
        test,
        proptest(strategy = "[0.0f64..64.0, 0.0f64..64.0, 0.0f64..64.0]")
    )]
    pub load_avg: [f64; 3],
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct MemoryStats {
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub usage_percent: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DiskStats {
    pub mount: String,
    pub fs: String,
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub usage_percent: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct MonitorSnapshot {
    /// Unix milliseconds when sampled.
    pub ts_ms: u64,
    pub cpu: CpuStats,
    pub memory: MemoryStats,
    pub disks: Vec<DiskStats>,
    /// The top processes by CPU and the top by memory (their union, from the same sample);
    /// absent from older servers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_processes: Vec<ProcessStats>,
    /// How many processes exist (all of them, not only `top_processes`); absent from
    /// older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_count: Option<u32>,
}

/// One process of a monitor snapshot, with the numbers `ps`/`top` show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessStats {
    pub pid: u32,
    /// Effective user name (or the numeric uid).
    pub user: String,
    /// Kernel command name (`comm`, what `top` shows).
    pub name: String,
    /// CPU over the last sampling interval, 100 = one full core (like top).
    #[cfg_attr(test, proptest(strategy = "0.0f64..=400.0"))]
    pub cpu_percent: f64,
    /// Resident set size in bytes.
    pub rss_bytes: u64,
    /// RSS / MemTotal in percent (like `ps -o %mem`).
    #[cfg_attr(test, proptest(strategy = "0.0f64..=100.0"))]
    pub mem_percent: f64,
    /// Command line (cut by the server), `[name]` for kernel threads.
    #[serde(default)]
    pub command: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DownloadRequest {
    pub request_id: RequestId,
    /// A file id (or unique prefix) of this session's uploads, or a server path.
    pub target: String,
    /// `auto`, `rdt`, `nplt` or `http`.
    pub mode: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct Offer {
    pub offer_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file_id: Option<String>,
    pub filename: String,
    pub size: u64,
    pub sha256: String,
    /// Unix seconds.
    pub expires_at: u64,
    /// The request that produced it (a download request or an agent turn).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_id: Option<RequestId>,
    /// The tool call that made it, e.g. `file_download {"file_path": ...}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_call: Option<String>,
    /// Transfer mode the offer was made for.
    pub mode: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OfferAccept {
    pub offer_id: String,
    pub mode: String,
    /// Bytes already held from an interrupted earlier attempt (resume).
    #[serde(default)]
    pub resume_from: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OfferReject {
    pub offer_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct TransferStart {
    pub offer_id: String,
    /// The mode actually used: `rdt`, `nplt` or `http`.
    pub mode: String,
    /// Hex token: presented by the receiver on the RDT port, or part of the HTTP URL.
    pub token: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rdt_addr: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub size: u64,
    pub sha256: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct TransferProgress {
    pub offer_id: String,
    pub bytes: u64,
    pub total: u64,
    /// Transfer rate in bytes per second.
    pub bytes_per_sec: u64,
    pub rtt_ms: u32,
    pub retransmits: u64,
    /// Window occupancy: packets in flight and the window size.
    pub in_flight: u32,
    pub window: u32,
    /// Packets declared lost and waiting for retransmission (absent from older peers).
    #[serde(default)]
    pub lost: u32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct TransferComplete {
    pub offer_id: String,
    pub ok: bool,
    pub bytes: u64,
    pub sha256: String,
    /// `client` or `server`: who reports.
    pub side: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct IndexProgress {
    pub files: u64,
    pub chunks: u64,
    pub embedding_backlog: u64,
    /// `lexical-only`, `hybrid` or a reason the dense side is off.
    pub mode: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ServerStatus {
    pub request_id: RequestId,
    pub server_version: String,
    pub uptime_secs: u64,
    pub connections: u32,
    pub index: IndexProgress,
}

json_payloads!(
    AgentThought,
    LegacyDownloadOffer,
    FileMetadata,
    ModelSwitch,
    SessionRef,
    UdpPort,
    Hello,
    Welcome,
    ErrorMsg,
    ChatSend,
    StreamStart,
    StreamDelta,
    StreamEnd,
    AgentEvent,
    ToolOutput,
    OutputGet,
    OutputPage,
    Cancel,
    SessionCmd,
    SessionReply,
    HistoryGet,
    History,
    Req,
    Ack,
    ModelSet,
    ModelInfo,
    UploadStart,
    UploadGrant,
    UploadResult,
    UploadStatus,
    FileListReply,
    FileDelete,
    SearchReq,
    SearchResults,
    MonitorSubscribe,
    MonitorSnapshot,
    DownloadRequest,
    Offer,
    OfferAccept,
    OfferReject,
    TransferStart,
    TransferProgress,
    TransferComplete,
    ServerStatus,
);

#[cfg(test)]
fn arb_json() -> impl proptest::strategy::Strategy<Value = serde_json::Value> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        ".{0,12}".prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::Array),
            proptest::collection::btree_map("[a-z_]{1,8}", inner, 0..4)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

macro_rules! messages {
    ($( $code:literal $variant:ident($payload:ty) $wire:literal $dir:ident $legacy:literal $doc:literal; )*) => {
        /// Every NPLT message, legacy and extension.
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(test, derive(Arbitrary))]
        pub enum Message { $( $variant($payload), )* }

        /// Type codes (the `type` byte of a frame).
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[repr(u8)]
        pub enum MsgType { $( $variant = $code, )* }

        impl MsgType {
            pub const ALL: &'static [MsgType] = &[ $( MsgType::$variant, )* ];

            pub fn from_code(code: u8) -> Option<MsgType> {
                match code { $( $code => Some(MsgType::$variant), )* _ => None }
            }
            pub fn code(self) -> u8 { self as u8 }
            /// The name used in documentation (legacy names as in the compat doc).
            pub fn wire_name(self) -> &'static str {
                match self { $( MsgType::$variant => $wire, )* }
            }
            pub fn direction(self) -> Direction {
                match self { $( MsgType::$variant => Direction::$dir, )* }
            }
            /// Whether a legacy client may receive or send this type.
            pub fn is_legacy(self) -> bool {
                match self { $( MsgType::$variant => $legacy, )* }
            }
            pub fn payload_kind(self) -> &'static str {
                match self { $( MsgType::$variant => <$payload as WirePayload>::KIND, )* }
            }
            pub fn description(self) -> &'static str {
                match self { $( MsgType::$variant => $doc, )* }
            }
        }

        impl Message {
            pub fn msg_type(&self) -> MsgType {
                match self { $( Message::$variant(_) => MsgType::$variant, )* }
            }
            /// The payload bytes before any framing or fragmentation.
            pub fn encode_payload(&self) -> Result<Bytes, EncodeError> {
                match self { $( Message::$variant(p) => p.encode_payload(), )* }
            }
            /// Decodes a whole (reassembled) payload of type `code`.
            pub fn decode(code: u8, payload: &[u8]) -> Result<Message, DecodeError> {
                match MsgType::from_code(code) {
                    $( Some(MsgType::$variant) =>
                        Ok(Message::$variant(<$payload as WirePayload>::decode_payload($wire, payload)?)), )*
                    None => Err(DecodeError::UnknownType(code)),
                }
            }
        }
    };
}

messages! {
    0x01 ChatText(String) "CHAT_TEXT" Both true
        "Legacy text. C->S: a user message (empty ignored). S->C: welcome, stream chunks, command replies. The literal `HEARTBEAT` is a legacy heartbeat.";
    0x0A AgentThought(AgentThought) "AGENT_THOUGHT" ServerToClient true
        "Legacy `{\"type\", \"content\"}` with type `stream_start`, `thinking`, `tool_call` or `generating`.";
    0x0C LegacyDownloadOffer(LegacyDownloadOffer) "DOWNLOAD_OFFER" ServerToClient true
        "Legacy `{\"filename\", \"size\", \"checksum\" (MD5), \"download_token\", \"server_host\", \"server_port\"}`.";
    0x0D FileData(Raw) "FILE_DATA" ClientToServer true
        "Legacy upload bytes following `FILE_METADATA`.";
    0x0E FileMetadata(FileMetadata) "FILE_METADATA" ClientToServer true
        "Legacy `{\"filename\", \"size\"}`: starts an upload.";
    0x0F ModelSwitch(ModelSwitch) "MODEL_SWITCH" ClientToServer true
        "Legacy `{\"model\"}`.";
    0x10 HistoryRequest(Empty) "HISTORY_REQUEST" ClientToServer true
        "Legacy: history as text.";
    0x11 ClearRequest(Empty) "CLEAR_REQUEST" ClientToServer true
        "Legacy: clear the session's history.";
    0x14 SessionList(Empty) "SESSION_LIST" ClientToServer true
        "Legacy: sessions as text.";
    0x15 SessionSwitch(SessionRef) "SESSION_SWITCH" ClientToServer true
        "Legacy `{\"session_id\"}` (unique prefix accepted).";
    0x16 SessionNew(Empty) "SESSION_NEW" ClientToServer true
        "Legacy: start a new session.";
    0x17 SessionDelete(SessionRef) "SESSION_DELETE" ClientToServer true
        "Legacy `{\"session_id\"}`.";
    0x18 ClientUdpPort(UdpPort) "CLIENT_UDP_PORT" ClientToServer true
        "Legacy `{\"udp_port\"}`.";
    0x20 Hello(Hello) "HELLO" ClientToServer false
        "First frame of an extension client: `{proto, client, client_version, resume_session?, auth_token?, udp_port?, no_new_session?}`.";
    0x21 Welcome(Welcome) "WELCOME" ServerToClient false
        "Answer to HELLO: `{proto, session_id, session_name, resumed, server_version, heartbeat_secs, model, models, features, planner, egress, motd}`.";
    0x22 Heartbeat(Empty) "HEARTBEAT" Both false
        "Keep-alive; answered with a HEARTBEAT. Empty payload.";
    0x23 Error(ErrorMsg) "ERROR" ServerToClient false
        "`{code, message, request_id?}`: a request failed or a frame was refused.";
    0x24 Chat(ChatSend) "CHAT" ClientToServer false
        "`{request_id, text, file_ids?}`: a user message starting an agent turn.";
    0x25 StreamStart(StreamStart) "STREAM_START" ServerToClient false
        "`{request_id}`: the turn's answer begins.";
    0x26 StreamDelta(StreamDelta) "STREAM_DELTA" ServerToClient false
        "`{request_id, text}`: the next piece of the answer.";
    0x27 StreamEnd(StreamEnd) "STREAM_END" ServerToClient false
        "`{request_id, status: ok|cancelled|error, message?}`: the turn is over.";
    0x28 AgentEvent(AgentEvent) "AGENT_EVENT" ServerToClient false
        "`{request_id, event}` with event `{kind: status, text}`, `{kind: tool_call, step, tool, args}` or `{kind: tool_result, step, tool, ok, duration_ms, summary, output?: {output_id, lines, bytes, truncated}}`.";
    0x29 Cancel(Cancel) "CANCEL" ClientToServer false
        "`{request_id?}`: cancel the running turn (LLM request and commands stop; a follow returns what it collected).";
    0x2A ToolOutput(ToolOutput) "TOOL_OUTPUT" ServerToClient false
        "`{request_id, step, tool, lines, dropped, total}`: live lines of a running tool call (follow mode), batched and rate limited.";
    0x2B OutputGet(OutputGet) "OUTPUT_GET" ClientToServer false
        "`{request_id, output_id, offset, count}`: lines of a stored tool output of this session; answered with OUTPUT_PAGE or ERROR.";
    0x2C OutputPage(OutputPage) "OUTPUT_PAGE" ServerToClient false
        "`{request_id, output_id, offset, lines, total_lines, total_bytes, truncated}`: a page of a stored tool output.";
    0x30 SessionCmd(SessionCmd) "SESSION_CMD" ClientToServer false
        "`{request_id, op: list|new|switch|delete|rename, id?, name?}`; ids by unique prefix.";
    0x31 SessionReply(SessionReply) "SESSION_REPLY" ServerToClient false
        "`{request_id, op, current, sessions}` with session `{id, name, created_at, updated_at, messages}`.";
    0x32 HistoryGet(HistoryGet) "HISTORY_GET" ClientToServer false
        "`{request_id, limit?}`: this session's history.";
    0x33 History(History) "HISTORY" ServerToClient false
        "`{request_id, session_id, messages: [{role, text, time, tool_calls: [{tool, args, ok, duration_ms, summary}]}]}`.";
    0x34 ClearHistory(Req) "CLEAR_HISTORY" ClientToServer false
        "`{request_id}`: clear this session's history; answered with ACK.";
    0x35 Ack(Ack) "ACK" ServerToClient false
        "`{request_id, message}`: generic success.";
    0x36 ModelList(Req) "MODEL_LIST" ClientToServer false
        "`{request_id}`: answered with MODEL_INFO.";
    0x37 ModelInfo(ModelInfo) "MODEL_INFO" ServerToClient false
        "`{request_id, current, models, planner}`; sent after a switch took effect.";
    0x38 ModelSet(ModelSet) "MODEL_SET" ClientToServer false
        "`{request_id, model}`: switch this session's model (persisted).";
    0x40 UploadStart(UploadStart) "UPLOAD_START" ClientToServer false
        "`{request_id, filename, size, sha256?}`; UPLOAD_DATA frames follow until `size` bytes.";
    0x41 UploadData(Raw) "UPLOAD_DATA" ClientToServer false
        "Raw bytes of the upload in progress (one upload at a time per connection).";
    0x42 UploadResult(UploadResult) "UPLOAD_RESULT" ServerToClient false
        "`{request_id, file: {file_id, filename, size, sha256, content_type, uploaded_at, state, detail?}}`.";
    0x43 UploadStatus(UploadStatus) "UPLOAD_STATUS" ServerToClient false
        "`{file_id, filename, state, detail?, done, total}`: receiving, saved, indexed, embedding, ready, failed.";
    0x44 FileList(Req) "FILE_LIST" ClientToServer false
        "`{request_id}`: this session's uploads.";
    0x45 FileListReply(FileListReply) "FILE_LIST_REPLY" ServerToClient false
        "`{request_id, files: [file]}`.";
    0x46 FileDelete(FileDelete) "FILE_DELETE" ClientToServer false
        "`{request_id, file_id}`: delete an upload with its index entries; answered with ACK.";
    0x47 IndexRetry(FileDelete) "INDEX_RETRY" ClientToServer false
        "`{request_id, file_id}`: index (or embed) a `failed` upload again; answered with ACK, states follow as UPLOAD_STATUS.";
    0x48 Search(SearchReq) "SEARCH" ClientToServer false
        "`{request_id, query, scope: all|system|uploads, top_k}`.";
    0x49 SearchResults(SearchResults) "SEARCH_RESULTS" ServerToClient false
        "`{request_id?, query, scope, results: [{filename, filepath, similarity, chunk, position, match_type, file_id?}]}`.";
    0x4A UploadRdtStart(UploadStart) "UPLOAD_RDT_START" ClientToServer false
        "Same fields as UPLOAD_START; the bytes go over RDT instead of UPLOAD_DATA frames: answered with UPLOAD_GRANT or ERROR.";
    0x4B UploadGrant(UploadGrant) "UPLOAD_GRANT" ServerToClient false
        "`{request_id, token, rdt_addr, size}`: push the file over RDT (docs/rdt.md), then UPLOAD_RESULT or ERROR.";
    0x50 MonitorSubscribe(MonitorSubscribe) "MONITOR_SUBSCRIBE" ClientToServer false
        "`{interval_ms}`: start (or re-rate) monitor snapshots.";
    0x51 MonitorUnsubscribe(Empty) "MONITOR_UNSUBSCRIBE" ClientToServer false
        "Stop monitor snapshots.";
    0x52 MonitorSnapshot(MonitorSnapshot) "MONITOR_SNAPSHOT" ServerToClient false
        "`{ts_ms, cpu: {usage_percent, cores, frequency_mhz, load_avg}, memory: {...}, disks: [...], top_processes?: [{pid, user, name, cpu_percent, rss_bytes, mem_percent, command}], process_count?}`.";
    0x58 DownloadRequest(DownloadRequest) "DOWNLOAD_REQUEST" ClientToServer false
        "`{request_id, target, mode}`: ask for an offer of a file id or path.";
    0x59 Offer(Offer) "OFFER" ServerToClient false
        "`{offer_id, file_id?, filename, size, sha256, expires_at, request_id?, tool_call?, mode}`.";
    0x5A OfferAccept(OfferAccept) "OFFER_ACCEPT" ClientToServer false
        "`{offer_id, mode, resume_from}`: accept; answered with TRANSFER_START.";
    0x5B OfferReject(OfferReject) "OFFER_REJECT" ClientToServer false
        "`{offer_id, reason?}`: decline; recorded.";
    0x5C TransferStart(TransferStart) "TRANSFER_START" ServerToClient false
        "`{offer_id, mode, token, rdt_addr?, url?, size, sha256}`.";
    0x5D TransferData(Raw) "TRANSFER_DATA" ServerToClient false
        "Raw file bytes of the `nplt`-mode transfer in progress.";
    0x5E TransferProgress(TransferProgress) "TRANSFER_PROGRESS" Both false
        "`{offer_id, bytes, total, bytes_per_sec, rtt_ms, retransmits, in_flight, window, lost}`.";
    0x5F TransferComplete(TransferComplete) "TRANSFER_COMPLETE" Both false
        "`{offer_id, ok, bytes, sha256, side, error?}`: completion report from each side.";
    0x60 StatusRequest(Req) "STATUS_REQUEST" ClientToServer false
        "`{request_id}`: server and index status.";
    0x61 ServerStatus(ServerStatus) "SERVER_STATUS" ServerToClient false
        "`{request_id, server_version, uptime_secs, connections, index: {files, chunks, embedding_backlog, mode}}`.";
}

impl Message {
    /// Convenience constructor for an error frame.
    pub fn error(
        code: impl Into<String>,
        message: impl Into<String>,
        request_id: Option<RequestId>,
    ) -> Message {
        Message::Error(ErrorMsg {
            code: code.into(),
            message: message.into(),
            request_id,
        })
    }
}

/// The markdown type table for `docs/protocol.md` (a test keeps the doc in sync).
pub fn type_table_markdown() -> String {
    let mut s = String::from(
        "| code | name | direction | legacy | payload | meaning |\n|---|---|---|---|---|---|\n",
    );
    for t in MsgType::ALL {
        s.push_str(&format!(
            "| 0x{:02X} | {} | {} | {} | {} | {} |\n",
            t.code(),
            t.wire_name(),
            t.direction().arrow(),
            if t.is_legacy() { "yes" } else { "no" },
            t.payload_kind(),
            t.description()
        ));
    }
    s.push_str(&format!(
        "| 0x{FRAGMENT_TYPE:02X} | FRAGMENT | both | no | inner type u8 + bytes | A piece of an extension message larger than one frame; see Fragmentation. |\n"
    ));
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_monitor_snapshot_without_processes_still_decodes() {
        let old = r#"{"ts_ms":5,"cpu":{"usage_percent":1.0,"cores":2,"frequency_mhz":0,"load_avg":[0.0,0.0,0.0]},"memory":{"total_bytes":1,"used_bytes":0,"available_bytes":1,"usage_percent":0.0},"disks":[]}"#;
        let s: MonitorSnapshot = serde_json::from_str(old).expect("old payload");
        assert!(s.top_processes.is_empty());
        assert_eq!(s.process_count, None);
        // And a new one carries them.
        let mut n = s.clone();
        n.process_count = Some(212);
        n.top_processes.push(ProcessStats {
            pid: 42,
            user: "www".into(),
            name: "nginx".into(),
            cpu_percent: 87.5,
            rss_bytes: 1 << 20,
            mem_percent: 0.1,
            command: "nginx: worker process".into(),
        });
        let back: MonitorSnapshot =
            serde_json::from_str(&serde_json::to_string(&n).expect("ser")).expect("de");
        assert_eq!(back, n);
    }

    #[test]
    fn codes_are_unique_and_legacy_codes_exact() {
        let mut seen = std::collections::HashSet::new();
        for t in MsgType::ALL {
            assert!(seen.insert(t.code()), "duplicate code {:#x}", t.code());
            assert_ne!(t.code(), FRAGMENT_TYPE);
        }
        let legacy: Vec<(u8, &str)> = MsgType::ALL
            .iter()
            .filter(|t| t.is_legacy())
            .map(|t| (t.code(), t.wire_name()))
            .collect();
        assert_eq!(
            legacy,
            vec![
                (0x01, "CHAT_TEXT"),
                (0x0A, "AGENT_THOUGHT"),
                (0x0C, "DOWNLOAD_OFFER"),
                (0x0D, "FILE_DATA"),
                (0x0E, "FILE_METADATA"),
                (0x0F, "MODEL_SWITCH"),
                (0x10, "HISTORY_REQUEST"),
                (0x11, "CLEAR_REQUEST"),
                (0x14, "SESSION_LIST"),
                (0x15, "SESSION_SWITCH"),
                (0x16, "SESSION_NEW"),
                (0x17, "SESSION_DELETE"),
                (0x18, "CLIENT_UDP_PORT"),
            ]
        );
    }

    #[test]
    fn legacy_payload_shapes() {
        let m = Message::AgentThought(AgentThought {
            kind: "stream_start".into(),
            content: None,
        });
        assert_eq!(
            m.encode_payload().expect("encodes").as_ref(),
            br#"{"type":"stream_start"}"#
        );
        let m = Message::decode(0x0E, br#"{"filename":"a.txt","size":3}"#).expect("decodes");
        assert_eq!(
            m,
            Message::FileMetadata(FileMetadata {
                filename: "a.txt".into(),
                size: 3
            })
        );
        // Legacy empty requests tolerate junk bodies.
        assert_eq!(
            Message::decode(0x10, b"whatever").expect("decodes"),
            Message::HistoryRequest(Empty)
        );
    }

    #[test]
    fn docs_protocol_md_has_the_generated_table() {
        let doc = include_str!("../../docs/protocol.md");
        let table = type_table_markdown();
        assert!(
            doc.contains(&table),
            "docs/protocol.md is out of date; regenerate the type table with \
             `cargo run -p llmops-protocol --example type_table`"
        );
    }

    #[test]
    fn bad_json_is_a_specific_error() {
        let e = Message::decode(0x24, b"{not json").expect_err("bad json");
        assert_eq!(e.code(), "bad_payload");
        assert!(e.to_string().contains("CHAT"));
        assert_eq!(
            Message::decode(0x99, b"").expect_err("unknown"),
            DecodeError::UnknownType(0x99)
        );
    }

    #[test]
    fn tool_output_and_output_pages_have_stable_shapes() {
        let m = Message::ToolOutput(ToolOutput {
            request_id: 7,
            step: 2,
            tool: "command_executor".into(),
            lines: vec!["a".into(), "b".into()],
            dropped: 3,
            total: 5,
        });
        assert_eq!(m.msg_type().code(), 0x2A);
        assert_eq!(
            m.encode_payload().expect("encodes").as_ref(),
            br#"{"request_id":7,"step":2,"tool":"command_executor","lines":["a","b"],"dropped":3,"total":5}"#
        );
        let get = Message::decode(
            0x2B,
            br#"{"request_id":8,"output_id":"ab12","offset":100,"count":50}"#,
        )
        .expect("decodes");
        assert_eq!(
            get,
            Message::OutputGet(OutputGet {
                request_id: 8,
                output_id: "ab12".into(),
                offset: 100,
                count: 50
            })
        );
        let page = Message::OutputPage(OutputPage {
            request_id: 8,
            output_id: "ab12".into(),
            offset: 100,
            lines: vec!["x".into()],
            total_lines: 101,
            total_bytes: 4000,
            truncated: false,
        });
        let back = Message::decode(0x2C, &page.encode_payload().expect("encodes")).expect("ok");
        assert_eq!(back, page);
        // A tool result without an output ref is the old shape (older clients decode it),
        // and an older server's result decodes with `output: None`.
        let old = br#"{"request_id":1,"event":{"kind":"tool_result","step":1,"tool":"t","ok":true,"duration_ms":3,"summary":"s"}}"#;
        let ev = Message::decode(0x28, old).expect("decodes");
        assert_eq!(ev.encode_payload().expect("encodes").as_ref(), old);
        let with = Message::AgentEvent(AgentEvent {
            request_id: 1,
            event: AgentEventKind::ToolResult {
                step: 1,
                tool: "t".into(),
                ok: true,
                duration_ms: 3,
                summary: "s".into(),
                output: Some(OutputRef {
                    output_id: "o1".into(),
                    lines: 80,
                    bytes: 1234,
                    truncated: false,
                }),
            },
        });
        let text =
            String::from_utf8(with.encode_payload().expect("encodes").to_vec()).expect("utf8");
        assert!(
            text.ends_with(
                r#""output":{"output_id":"o1","lines":80,"bytes":1234,"truncated":false}}}"#
            ),
            "{text}"
        );
    }

    proptest! {
        #[test]
        fn every_message_round_trips_through_its_payload(m in any::<Message>()) {
            let payload = m.encode_payload().expect("encodes");
            let back = Message::decode(m.msg_type().code(), &payload).expect("decodes");
            // Empty payloads carry no data; everything else must be identical.
            prop_assert_eq!(back, m);
        }
    }
}
