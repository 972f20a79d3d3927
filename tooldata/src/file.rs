//! What the file tools return: one page of a file (`file_read`), one page of a stored step
//! output (`file_read {output_id}`) and a download offer (`file_download`).

use serde::{Serialize, Serializer};

use llmops_common::TransferMode;

/// One page of a file (`file_read` mode `read`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
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
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
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

/// A download the user may accept (`file_download`): checked, hashed, not yet sent.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
pub struct DownloadOffer {
    /// Absolute resolved path.
    pub file_path: String,
    pub filename: String,
    pub size: u64,
    pub sha256: String,
    pub transport_mode: TransferMode,
}

/// The text encoding a file was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Encoding {
    #[default]
    Utf8,
    Utf8Bom,
    Utf16Le,
    Utf16Be,
}

impl Encoding {
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Utf8 => "utf-8",
            Encoding::Utf8Bom => "utf-8-bom",
            Encoding::Utf16Le => "utf-16le",
            Encoding::Utf16Be => "utf-16be",
        }
    }
}

impl Serialize for Encoding {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
