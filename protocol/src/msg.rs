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

mod approval;
mod ext;
mod files;
mod legacy;
mod system;

pub use approval::*;
pub use ext::*;
pub use files::*;
pub use legacy::*;
pub use system::*;

json_payloads!(
    Box<ApprovalRequest>,
    ApprovalReply,
    ApprovalState,
    Grants,
    GrantRevoke,
    AgentThought,
    LegacyDownloadOffer,
    FileMetadata,
    ModelSwitch,
    SessionRef,
    UdpPort,
    Hello,
    // Boxed in `Message`: the largest payload, it would set the size of every message.
    Box<Welcome>,
    ErrorMsg,
    ChatSend,
    StreamStart,
    StreamDelta,
    StreamEnd,
    AgentEvent,
    ToolOutput,
    OutputGet,
    OutputPage,
    FileRegion,
    FileRegionReply,
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
    UploadLookup,
    UploadLookupReply,
    FileListReply,
    FileDelete,
    SearchReq,
    SearchResults,
    MonitorSubscribe,
    MonitorSnapshot,
    ProcessGet,
    ProcessInfoReply,
    WatchRun,
    WatchOutput,
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
    0x21 Welcome(Box<Welcome>) "WELCOME" ServerToClient false
        "Answer to HELLO: `{proto, session_id, session_name, resumed, server_version, heartbeat_secs, model, models, features, planner, egress, motd, commands?}`; `commands` is the command whitelist, for completion.";
    0x22 Heartbeat(Empty) "HEARTBEAT" Both false
        "Keep-alive; answered with a HEARTBEAT. Empty payload.";
    0x23 Error(ErrorMsg) "ERROR" ServerToClient false
        "`{code, message, request_id?}`: a request failed or a frame was refused.";
    0x24 Chat(ChatSend) "CHAT" ClientToServer false
        "`{request_id, text, file_ids?, action?}`: a user message starting an agent turn; with `action` (an argv) the turn's one step proposes exactly that action for approval, as the agent's `run_action` would.";
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
    0x2D FileRegion(FileRegion) "FILE_REGION" ClientToServer false
        "`{request_id, target, first_line, last_line}`: lines of a text file (1-based, inclusive; at most 400), target an upload id of this session or a path, under the path policy; answered with FILE_REGION_REPLY or ERROR.";
    0x2E FileRegionReply(FileRegionReply) "FILE_REGION_REPLY" ServerToClient false
        "`{request_id, path, first_line, lines, total_lines}`: the lines read, `lines[i]` being line `first_line + i`.";
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
        "`{request_id, filename, size, sha256?, result_on_save?}`; UPLOAD_DATA frames follow until `size` bytes. With `result_on_save` the UPLOAD_RESULT (state `saved`) comes once the file is durably saved and the index states follow as UPLOAD_STATUS; without it the result waits for the lexical index.";
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
    0x4C UploadLookup(UploadLookup) "UPLOAD_LOOKUP" ClientToServer false
        "`{request_id, sha256}`: did an upload with this sha256 land in this session (asked after a lost connection, before a retry); answered with UPLOAD_LOOKUP_REPLY.";
    0x4D UploadLookupReply(UploadLookupReply) "UPLOAD_LOOKUP_REPLY" ServerToClient false
        "`{request_id, sha256, files: [file], in_flight?}`: this session's uploads with that sha256, oldest first; empty when none landed. The server first waits (up to 20 s) for uploads of that content it is still receiving or saving on another connection; `in_flight` counts those still going after the wait.";
    0x50 MonitorSubscribe(MonitorSubscribe) "MONITOR_SUBSCRIBE" ClientToServer false
        "`{interval_ms, processes?: {filter, sort: cpu|memory, limit, tree?}, history?}`: start (or re-rate) monitor snapshots; `processes` chooses the process list from all processes, `history` asks for the recent samples with the first snapshot.";
    0x51 MonitorUnsubscribe(Empty) "MONITOR_UNSUBSCRIBE" ClientToServer false
        "Stop monitor snapshots.";
    0x52 MonitorSnapshot(MonitorSnapshot) "MONITOR_SNAPSHOT" ServerToClient false
        "`{ts_ms, cpu: {usage_percent, cores, frequency_mhz, load_avg, per_core?}, memory: {...}, disks: [...], top_processes?: [{pid, ppid, user, name, cpu_percent, rss_bytes, mem_percent, command}], process_count?, net?: {rx_bytes_per_sec, tx_bytes_per_sec, interfaces}, disk_io?: {read_bytes_per_sec, write_bytes_per_sec, devices}, interval_ms?, history?: [point]}`.";
    0x53 ProcessGet(ProcessGet) "PROCESS_GET" ClientToServer false
        "`{request_id, pid}`: the details of one process; answered with PROCESS_INFO or ERROR `not_found`.";
    0x54 ProcessInfo(ProcessInfoReply) "PROCESS_INFO" ServerToClient false
        "`{request_id, process: {pid, name, argv, user, parent?, children, state, threads, started_at, cpu_percent?, rss_bytes, cwd?, exe?, files, sockets, fds_total, hidden?, fds_error?}}`.";
    0x55 WatchRun(WatchRun) "WATCH_RUN" ClientToServer false
        "`{request_id, text}`: run a read-only command line (or ask a question) once for a watch pane, writing no history; one at a time per connection, at most one a second; answered with WATCH_OUTPUT or ERROR.";
    0x56 WatchOutput(WatchOutput) "WATCH_OUTPUT" ServerToClient false
        "`{request_id, kind: command|answer, ok, lines, error?, duration_ms}`: the result of one watch run.";
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
    0x68 ApprovalRequest(Box<ApprovalRequest>) "APPROVAL_REQUEST" ServerToClient false
        "`{approval_id, request_id?, argv, action, tool, args, user_request, reason, risk, always: {rule, text}, expires_at}`: a mutating action waits for the operator; nothing runs without an APPROVAL_REPLY.";
    0x69 ApprovalReply(ApprovalReply) "APPROVAL_REPLY" ClientToServer false
        "`{approval_id, decision: approve_once|approve_always|reject, lifetime?: session|until_revoked}`; `lifetime` only with approve_always.";
    0x6A ApprovalState(ApprovalState) "APPROVAL_STATE" ServerToClient false
        "`{approval_id, request_id?, argv, state: approved|rejected|expired|denied, grant_id?, detail?}`: how each proposed action of a turn ended, also those a grant approved or a deny rule refused.";
    0x6B GrantsList(Req) "GRANTS_LIST" ClientToServer false
        "`{request_id}`: the standing grants this session can see; answered with GRANTS.";
    0x6C Grants(Grants) "GRANTS" ServerToClient false
        "`{request_id, grants: [{grant_id, scope: {rule, text}, lifetime, session_id, created_at, uses}]}`.";
    0x6D GrantRevoke(GrantRevoke) "GRANT_REVOKE" ClientToServer false
        "`{request_id, grant_id}`: revoke a standing grant; answered with ACK or ERROR `not_found`.";
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
mod tests;
