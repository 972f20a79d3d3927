//! Typed tool results at their old paths (the types live in `llmops-tooldata`, below the
//! planner that reads them), and what only the tools' side adds to them: the search frame
//! the client receives.

pub use llmops_tooldata::{
    ActionData, ActionState, ActionsData, CommandData, CpuStats, Denial, DiskStats, DownloadOffer,
    Encoding, FollowData, FollowEnd, FollowStats, MemoryStats, MonitorData, PageData, ProcSort,
    ProcessInfo, ProcessesData, ProcessesMetric, SearchData, SearchHit, SearchScope,
    StoredPageData, ToolData, Verdict, Verification,
};

/// The protocol's search frame from search hits (the protocol knows nothing of the tools'
/// types, and the types nothing of the protocol).
pub trait SearchWire {
    /// The hits as the protocol's search frame carries them.
    fn wire_hits(&self) -> Vec<protocol::SearchHit>;
    /// The search frame for the client (`request_id` when it answers a request).
    fn to_wire(&self, request_id: Option<u64>) -> protocol::SearchResults;
}

impl SearchWire for SearchData {
    fn wire_hits(&self) -> Vec<protocol::SearchHit> {
        self.results.iter().map(wire_hit).collect()
    }

    fn to_wire(&self, request_id: Option<u64>) -> protocol::SearchResults {
        protocol::SearchResults {
            request_id,
            query: self.query.clone(),
            scope: self.scope.as_str().to_string(),
            results: self.wire_hits(),
        }
    }
}

/// One hit as the protocol carries it (without the answer line).
pub fn wire_hit(h: &SearchHit) -> protocol::SearchHit {
    protocol::SearchHit {
        filename: h.filename.clone(),
        filepath: h.filepath.clone(),
        similarity: h.similarity,
        chunk: h.chunk.clone(),
        position: h.position.clone(),
        match_type: h.match_type.clone(),
        file_id: h.file_id.clone(),
    }
}

#[cfg(test)]
mod tests;
