//! A question understood as a typed query ([`Frame`]): which table, which rows, what to
//! compute. Built from the lexicon's cues ([`crate::lexicon`]) and the question's literals
//! ([`scan`]) by a few generic slot rules ([`build`]); [`question`] decides whether a
//! question is a query at all; a follow-up edits the last query
//! ([`edit`]). Nothing here names a question: vocabulary lives in the lexicon's data.

pub mod alternatives;
mod bridge;
mod buckets;
pub mod build;
pub mod build_filters;
mod clock_window;
mod column_hits;
mod counted;
mod cue_filters;
pub mod dates;
pub mod defined;
pub mod edit;
mod edit_ops;
mod grouping;
mod hours;
pub mod how_many;
mod level_phrase;
mod log_choice;
pub(crate) mod log_names;
mod log_read;
mod log_text;
mod measured_field;
mod missing_field;
mod number_filter;
mod object_words;
mod owner;
mod parenthesized;
pub mod parsed;
mod path_template;
mod percentile;
mod ports;
pub mod question;
pub(crate) mod rank;
mod rate;
pub mod scan;
mod shapes;
mod share;
mod shown;
mod source;
mod system_rows;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_actors;
#[cfg(test)]
mod tests_answers;
#[cfg(test)]
mod tests_counts;
#[cfg(test)]
mod tests_defined;
#[cfg(test)]
mod tests_fields;
#[cfg(test)]
mod tests_follow;
#[cfg(test)]
mod tests_framing;
#[cfg(test)]
mod tests_fresh;
#[cfg(test)]
mod tests_keys;
#[cfg(test)]
mod tests_moments;
#[cfg(test)]
mod tests_named_events;
#[cfg(test)]
mod tests_names;
#[cfg(test)]
mod tests_negation;
#[cfg(test)]
mod tests_paraphrase;
#[cfg(test)]
mod tests_scan;
#[cfg(test)]
mod tests_share;
#[cfg(test)]
mod tests_summed;
#[cfg(test)]
mod tests_swap;
#[cfg(test)]
mod tests_system;
#[cfg(test)]
mod tests_text_quantities;
#[cfg(test)]
mod tests_timeline;
#[cfg(test)]
mod tests_trial_values;
#[cfg(test)]
mod tests_values;
#[cfg(test)]
mod tests_written;
mod value_words;
mod words;
mod written;
mod written_quantity;
mod zh_runs;
mod zones;

use serde::{Deserialize, Serialize};

use llmops_common::query::{Extract, Filter, FilterOp, Query, Source};

use super::UploadRef;

/// The query a question asks, ready to run.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub query: Query,
    /// Filters that narrow only when something matches them ("nginx workers": a master
    /// process has no "worker" in its command line, a service without workers has none);
    /// the tool drops one that would leave nothing and says so.
    pub soft: Vec<Filter>,
    /// Filters that replace the query's when those match nothing (see
    /// `QueryArgs::or_else`).
    pub or_else: Vec<Filter>,
    /// The population a share is asked of (see `QueryArgs::share_of`).
    pub share_of: Option<Vec<Filter>>,
    /// The filter (also in `query.filters`) made of words the lexicon does not know: it
    /// narrows a question about a log, it never makes a question one.
    pub object: Option<Filter>,
    /// Such words the frame left out as a verb or filler beside what else it counts
    /// ("which upstream refused connections the most"): the condition after all where the
    /// log writes them.
    pub unused_object: Option<Box<Filter>>,
    /// Whether the frame edits the conversation's last query.
    pub follow_up: bool,
    /// The number the events write before the unit or noun asked, measured instead when
    /// the query's field has no value in any event (the log's head showed no such field;
    /// the engine looks further): `query_steps::written_instead`.
    pub written_instead: Option<Box<Extract>>,
}

impl Frame {
    /// Whether the query adds up the numbers written before a plural noun ("how many rows
    /// were flushed": `Flushed 800 rows`, a numeric extract; see `frame/written_quantity.rs`),
    /// so that where the log writes too few its events are counted instead
    /// (`query_steps::count_instead`). Read off the query, so a follow-up's edited frame
    /// keeps it.
    pub fn sums_written(&self) -> bool {
        let q = &self.query;
        q.measure == llmops_common::query::Measure::Sum
            && q.field.as_ref().is_some_and(|f| {
                f.as_str().ends_with("_written")
                    && q.extract.iter().any(|e| e.numeric && e.name == f.as_str())
            })
    }
}

/// What a question turned out to be.
#[derive(Debug, Clone, PartialEq)]
pub enum Understood {
    /// A query over a log or a system table.
    Query(Box<Frame>),
    /// The whole-file summary of a log ("analyse app.log").
    Summary { path: String },
}

/// The last query of the conversation and the first item of its answer, for follow-ups.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastQuery {
    pub query: Query,
    /// The listed groups' keys in the order shown, field by field
    /// (`[[("client", "203.0.113.77")], ...]`), or the listed rows' identifying field; the
    /// first is the top item "它呢" refers to, "the second one" picks the second.
    #[serde(default)]
    pub items: Vec<Vec<(String, String)>>,
    /// The one event the answer named (the slowest request, the only row listed): its key
    /// fields as the log names them, so "这个 client 一共发了多少请求" asks of its client.
    #[serde(default)]
    pub event: Vec<(String, String)>,
    /// The time the answer pointed at, for "at that time" / "那一分钟".
    #[serde(default)]
    pub at: Option<AnswerTime>,
}

/// The time an answer pointed at: the start of its peak bucket (`width_seconds` its width)
/// or the time of the one event it named (`width_seconds` 0), as the log writes it in ISO
/// form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerTime {
    pub at: String,
    pub width_seconds: u64,
}

impl LastQuery {
    /// The item the answer named: the position its query asked ("the second slowest"),
    /// else the top one.
    pub fn top(&self) -> Option<&Vec<(String, String)>> {
        let at = self
            .query
            .rank
            .map_or(0, |n| (n as usize).saturating_sub(1));
        self.items.get(at).or(self.items.first())
    }

    /// The listed item `query` asks about: each of its keys an equality condition of
    /// `query` ("how many of those were 503?" after the top tenants: the tenant asked).
    pub fn item_asked(&self, query: &Query) -> Option<&Vec<(String, String)>> {
        self.items.iter().find(|item| {
            !item.is_empty()
                && item.iter().all(|(field, value)| {
                    query.filters.iter().any(|f| {
                        f.op == FilterOp::Eq
                            && f.field.as_ref().is_some_and(|x| x.as_str() == field)
                            && f.value.to_string() == *value
                    })
                })
        })
    }
}

/// What a question is understood against.
#[derive(Debug, Clone, Copy)]
pub struct FrameCtx<'a> {
    pub uploads: &'a [UploadRef],
    pub referenced: &'a [&'a UploadRef],
    /// The file the conversation is about.
    pub last_file: Option<&'a str>,
    pub last_query: Option<&'a LastQuery>,
}

impl<'a> FrameCtx<'a> {
    /// The session's uploads alone, no conversation: for reading names and times out of a
    /// text that is no query of its own.
    pub fn of_uploads(uploads: &'a [UploadRef]) -> FrameCtx<'a> {
        FrameCtx {
            uploads,
            referenced: &[],
            last_file: None,
            last_query: None,
        }
    }
}

/// Whether a field is the events' own text: the message, or its template (its kind).
pub(crate) fn is_event_text(field: &str) -> bool {
    matches!(field, "message" | "template")
}

/// Whether an upload holds events rather than settings or prose.
pub fn is_log_upload(u: &UploadRef) -> bool {
    // Read by content when the server looked: events are lines with times.
    if u.columns
        .iter()
        .any(|c| c.roles.iter().any(|r| r == "time"))
    {
        return true;
    }
    let lower = u.filename.to_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e).unwrap_or("");
    if super::incident::is_log_name(&lower) || matches!(ext, "jsonl" | "ndjson") {
        return true;
    }
    let doc = matches!(
        ext,
        "md" | "txt" | "pdf" | "html" | "htm" | "rst" | "adoc" | "doc" | "docx" | "csv"
    );
    !doc && !super::slots::config_upload(u)
}

/// The table a source cue names, for the answer's wording.
pub fn source_name(source: Source, lang: super::text::Lang) -> &'static str {
    use super::text::Lang::{En, Zh};
    match (source, lang) {
        (Source::Log, Zh) => "日志",
        (Source::Log, En) => "log",
        (Source::Processes, Zh) => "进程",
        (Source::Processes, En) => "processes",
        (Source::Sockets, Zh) => "套接字",
        (Source::Sockets, En) => "sockets",
        (Source::Mounts, Zh) => "文件系统",
        (Source::Mounts, En) => "filesystems",
        (Source::Units, Zh) => "systemd 单元",
        (Source::Units, En) => "systemd units",
    }
}
