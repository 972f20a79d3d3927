//! Extension payloads for files: uploads, the file list, search, download offers,
//! transfers and server status.

use super::*;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadStart {
    pub request_id: RequestId,
    pub filename: String,
    pub size: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Send UPLOAD_RESULT (state `saved`) as soon as the file is durably saved, before it
    /// is indexed; the index states follow as UPLOAD_STATUS. Without it (older clients) the
    /// result waits for the lexical index, as before.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub result_on_save: bool,
}

/// UPLOAD_LOOKUP: did an upload with this sha256 land in this session? A client that lost
/// its connection during an upload asks before sending the file again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadLookup {
    pub request_id: RequestId,
    pub sha256: String,
}

/// The answer to UPLOAD_LOOKUP: this session's uploads with that sha256, oldest first
/// (empty: none landed).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct UploadLookupReply {
    pub request_id: RequestId,
    pub sha256: String,
    pub files: Vec<FileInfo>,
    /// Uploads of this content the server is still receiving or saving for the session
    /// (another connection's), after waiting a while for them: the file may still land,
    /// so a client should not send it again yet. Absent (0) from older servers.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub in_flight: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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
