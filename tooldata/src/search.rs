//! What `semantic_search` returns: the query, where it searched and the ranked hits.

use serde::{Deserialize, Serialize};

/// Search hits (`semantic_search`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct SearchData {
    pub query: String,
    pub scope: SearchScope,
    pub results: Vec<SearchHit>,
}

/// One search result.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
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

/// Where to search (the tool's default is everywhere).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SearchScope {
    #[default]
    All,
    /// The doc folders (system documentation).
    System,
    /// This session's uploads.
    Uploads,
}

impl SearchScope {
    pub fn parse(s: &str) -> Option<SearchScope> {
        match s.trim().to_ascii_lowercase().as_str() {
            "all" => Some(SearchScope::All),
            "system" => Some(SearchScope::System),
            "uploads" => Some(SearchScope::Uploads),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            SearchScope::All => "all",
            SearchScope::System => "system",
            SearchScope::Uploads => "uploads",
        }
    }
}
