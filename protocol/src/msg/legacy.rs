//! Legacy payloads: the JSON bodies of the old client's message types, byte-compatible
//! with `nplt-compat.md`.

use super::*;

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
