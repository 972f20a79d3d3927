//! The planner's units of work: what one part of a message asks for, before any tool runs.

/// What to do after a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Then {
    Nothing,
    Download,
    Read,
    /// Read the config files among the hits and answer the setting asked for from them
    /// (`lookup`).
    Lookup,
}

/// One unit of work; a message becomes one or more tasks, executed in order.
#[derive(Debug, Clone, PartialEq)]
pub enum Task {
    /// Answer without tools.
    Reply(String),
    /// A query over a log or a system table.
    Query(super::frame::Frame),
    /// What one process is doing: its row, its sockets, its unit's recent log lines.
    ProcessDetail {
        pid: u64,
    },
    /// What went wrong across the session's logs: failures per minute side by side, the
    /// events around the worst minute, the timeouts the configs set.
    Incident {
        logs: Vec<String>,
        /// The logs with an HTTP status field, whose failures are broken down by it.
        statused: Vec<String>,
        configs: Vec<String>,
        /// When the question says it happened ("2 点多"): the worst minute is looked for
        /// there.
        window: Option<llmops_common::query::Window>,
        /// The symptom the question names by its HTTP status ("一堆 403"), counted in place
        /// of the summary's own idea of trouble.
        symptom: Option<llmops_common::query::Filter>,
    },
    /// Change something: propose a `run_action` for the operator's approval.
    Act(super::act::ActIntent),
    /// A pasted error or stack trace: search its key terms, then explain it in one answer.
    ExplainError(super::trace::ErrorReport),
    Monitor {
        metric: &'static str,
    },
    /// Top processes by CPU or memory, optionally only those matching a name; `limit`
    /// rows when the question says how many ("top 3"), else ten.
    Processes {
        sort: ProcSort,
        name: Option<String>,
        limit: Option<u32>,
    },
    Exec {
        command: String,
        args: Vec<String>,
    },
    /// `hint` is the user's wording, used to pick among hits for the follow-up.
    Search {
        query: String,
        scope: &'static str,
        top_k: u32,
        then: Then,
        hint: String,
        question: String,
    },
    Download {
        path: String,
    },
    Read {
        path: String,
        question: String,
    },
    /// The next page of a file read earlier in the conversation.
    ReadPage {
        path: String,
        offset: u64,
    },
    /// A file analysed whole (log analysis) whatever its name; `note` goes before the report.
    Analyse {
        path: String,
        question: String,
        note: Option<String>,
    },
    /// Read a file named in an earlier `ls` listing (or an upload of that name).
    ReadListed {
        name: String,
        question: String,
    },
    Uploads {
        reference: &'static str,
        count: Option<u32>,
        file_type: Option<String>,
        time_range: Option<&'static str>,
        then_read: bool,
        question: String,
    },
}

pub use llmops_tooldata::ProcSort;
