//! Conversation state: what the session's recent turns showed (the last list, the last file
//! read or analysed and where a partial read stopped, the last metric, the last question),
//! distilled from their tool steps so follow-ups ("第二个", "continue", "内存呢") resolve.
//! Pure: the agent loop stores each step's [`StepFacts`] with the tool call and folds the
//! stored facts of the last few turns into a [`Conversation`].

use llmops_tooldata::{CommandArgs, FileReadArgs, ReadMode, SysMonitorArgs, ToolArgs, ToolData};
use serde::{Deserialize, Serialize};

use super::frame::LastQuery;
use super::task::ProcSort;
use super::tool_data::{PageView, RunView};

/// Turns of history folded into the state (older turns are forgotten).
pub const STATE_TURNS: usize = 6;
/// Items of a list kept (ordinals beyond this are not resolved).
const MAX_ITEMS: usize = 50;

/// What kind of list a turn showed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ListKind {
    /// This session's uploads.
    Uploads,
    /// Search hits for a query.
    SearchHits { query: String },
    /// A process table sorted by CPU or memory, filtered by `name` when asked about one.
    Processes {
        sort: ProcSort,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
    },
    /// Files of an `ls` listing.
    Files { dir: String },
}

/// One entry of a list shown to the user, in the order shown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListItem {
    pub name: String,
    /// The file's absolute path (files, uploads, hits); `None` for processes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pid: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListShown {
    #[serde(flatten)]
    pub kind: ListKind,
    pub items: Vec<ListItem>,
}

/// A page of a file that was read: where it started, how many lines were shown, how many
/// the file has.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadState {
    pub path: String,
    pub offset: u64,
    pub limit: u64,
    /// Lines shown by this page.
    pub shown: u64,
    pub total_lines: u64,
}

impl ReadState {
    /// Where the next page starts.
    pub fn next_offset(&self) -> u64 {
        self.offset + self.shown
    }

    /// Lines after this page.
    pub fn remaining(&self) -> u64 {
        self.total_lines.saturating_sub(self.next_offset())
    }
}

/// The file a turn was about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileRef {
    pub path: String,
    /// Analysed whole (log analysis) rather than read page by page.
    pub analysed: bool,
    /// Lines in the file, when the tool said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_lines: Option<u64>,
}

impl FileRef {
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or(&self.path)
    }
}

/// What one tool step showed, as far as follow-ups care. Stored with the tool call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum StepFacts {
    List(ListShown),
    /// A page read of a file.
    Read(ReadState),
    /// A file analysed whole.
    Analysed {
        path: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        total_lines: Option<u64>,
    },
    /// A file offered for download.
    Offered {
        path: String,
    },
    /// A system metric shown (`cpu`, `memory`, `disk`, `all`).
    Metric {
        metric: String,
    },
    /// A query over a log or a system table, with its answer's top item.
    Queried(Box<LastQuery>),
}

fn nonempty(v: &str) -> Option<String> {
    Some(v).filter(|x| !x.is_empty()).map(str::to_string)
}

/// Entries in the order shown (numbered lists in the answers), so ordinals match them:
/// `(name, path)` of each file, one without a path left out.
fn file_items<'a>(files: impl Iterator<Item = (&'a str, String)>) -> Vec<ListItem> {
    files
        .filter_map(|(name, path)| {
            let path = nonempty(&path)?;
            let name = nonempty(name)
                .unwrap_or_else(|| path.rsplit('/').next().unwrap_or(&path).to_string());
            Some(ListItem {
                name,
                path: Some(path),
                pid: None,
            })
        })
        .take(MAX_ITEMS)
        .collect()
}

/// Files of an `ls` output (plain or `-l`), joined to the listed directory.
fn ls_items(stdout: &str, dir: &str) -> Vec<ListItem> {
    let dir = dir.trim_end_matches('/');
    stdout
        .lines()
        .filter(|l| !l.starts_with("total "))
        .filter_map(|l| {
            let cols: Vec<&str> = l.split_whitespace().collect();
            let name = *cols.last()?;
            // `ls -l` rows: skip directories, keep regular files and links' names.
            if cols.len() >= 9 && cols[0].starts_with('d') {
                return None;
            }
            if name == "." || name == ".." || cols.len() > 1 && cols.len() < 9 {
                return None;
            }
            let path = if name.starts_with('/') {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            };
            Some(ListItem {
                name: name.to_string(),
                path: Some(path),
                pid: None,
            })
        })
        .take(MAX_ITEMS)
        .collect()
}

/// A query that failed (a field the log lacks) is still the question a follow-up edits
/// ("and the p95?"): its arguments, with no items shown.
fn failed_query(args: &ToolArgs) -> Option<StepFacts> {
    let a = args.as_query()?;
    Some(StepFacts::Queried(Box::new(LastQuery {
        query: a.query.clone(),
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    })))
}

/// Distils one tool step (its arguments and the tool's typed data) into facts; `None` when
/// nothing in it can be referred to later.
pub fn facts_of(args: &ToolArgs, ok: bool, data: &ToolData) -> Option<StepFacts> {
    if !ok {
        return failed_query(args);
    }
    match args {
        ToolArgs::Upload(_) => Some(StepFacts::List(ListShown {
            kind: ListKind::Uploads,
            items: file_items(
                data.as_uploads()
                    .unwrap_or_default()
                    .iter()
                    .map(|f| (f.filename.as_str(), f.path.to_string_lossy().into_owned())),
            ),
        })),
        ToolArgs::Search(a) => {
            let search = data.as_search();
            let hits = search.map_or(&[][..], |x| &x.results);
            Some(StepFacts::List(ListShown {
                kind: ListKind::SearchHits {
                    query: search
                        .and_then(|x| nonempty(&x.query))
                        .or_else(|| nonempty(&a.query))
                        .unwrap_or_default(),
                },
                items: file_items(
                    hits.iter()
                        .map(|h| (h.filename.as_str(), h.filepath.clone())),
                ),
            }))
        }
        ToolArgs::SysMonitor(a) if a.is_processes() => Some(processes_shown(a, data)),
        ToolArgs::SysMonitor(a) => Some(StepFacts::Metric {
            metric: a
                .metric
                .as_deref()
                .and_then(nonempty)
                .unwrap_or_else(|| "all".into()),
        }),
        ToolArgs::Command(a)
            if RunView::of(data).is_some_and(|r| r.command == "ls") || a.command == "ls" =>
        {
            listing_shown(a, data)
        }
        ToolArgs::FileRead(a) if a.mode == ReadMode::Analyze => {
            let analysis = data.as_analysis();
            Some(StepFacts::Analysed {
                path: analysis
                    .and_then(|x| nonempty(&x.path))
                    .or_else(|| nonempty(&a.file_path))?,
                // Only a complete analysis covered every line of the file.
                total_lines: analysis
                    .filter(|x| x.report.complete)
                    .map(|x| x.report.lines),
            })
        }
        ToolArgs::FileRead(a) => page_read(a, data),
        ToolArgs::LogQuery(_) | ToolArgs::SystemQuery(_) => {
            Some(StepFacts::Queried(Box::new(last_query(data.as_query()?))))
        }
        ToolArgs::Download(a) => Some(StepFacts::Offered {
            path: data
                .as_offer()
                .and_then(|o| nonempty(&o.file_path))
                .or_else(|| nonempty(&a.file_path))?,
        }),
        _ => None,
    }
}

/// The process list a `processes` step showed, in its order.
fn processes_shown(args: &SysMonitorArgs, data: &ToolData) -> StepFacts {
    let listing = data.as_processes();
    let sort = if args.sort.as_deref() == Some("memory")
        || listing.is_some_and(|l| l.sort == ProcSort::Memory)
    {
        ProcSort::Memory
    } else {
        ProcSort::Cpu
    };
    let items = listing
        .map_or(&[][..], |l| &l.processes)
        .iter()
        .filter_map(|p| {
            Some(ListItem {
                name: nonempty(&p.name)?,
                path: None,
                pid: Some(p.pid),
            })
        })
        .take(MAX_ITEMS)
        .collect();
    StepFacts::List(ListShown {
        kind: ListKind::Processes {
            sort,
            name: args.name.as_deref().and_then(nonempty),
        },
        items,
    })
}

/// The entries an `ls` step listed; `None` when it listed nothing.
fn listing_shown(args: &CommandArgs, data: &ToolData) -> Option<StepFacts> {
    let run = RunView::of(data);
    let dir = args
        .args
        .iter()
        .find(|x| !x.starts_with('-'))
        .cloned()
        .or_else(|| run.and_then(|r| nonempty(r.cwd)))
        .unwrap_or_else(|| ".".into());
    let items = ls_items(run.map_or("", |r| r.stdout), &dir);
    (!items.is_empty()).then_some(StepFacts::List(ListShown {
        kind: ListKind::Files { dir },
        items,
    }))
}

/// Where a page read stopped, for "continue" / "the next 50 lines".
fn page_read(args: &FileReadArgs, data: &ToolData) -> Option<StepFacts> {
    let page = PageView::of(data);
    let path = page
        .path
        .and_then(nonempty)
        .or_else(|| nonempty(&args.file_path))?;
    let shown = page.shown().unwrap_or(0);
    Some(StepFacts::Read(ReadState {
        path,
        offset: page.offset,
        limit: page.limit.unwrap_or(shown),
        shown,
        total_lines: page.total_lines.unwrap_or(shown),
    }))
}

/// The processes a name looked up, as the query over the processes table that lists them.
fn named_processes(name: &str) -> LastQuery {
    use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, Scalar, Source};
    LastQuery {
        query: Query {
            source: Source::Processes,
            // The monitor found them by their command lines: the same rows.
            filters: vec![Filter::new(
                Some(Field::new("command")),
                FilterOp::Contains,
                Scalar::Text(name.to_string()),
            )],
            measure: Measure::Rows,
            ..Query::default()
        },
        items: Vec::new(),
        event: Vec::new(),
        at: None,
    }
}

/// The processes a monitor listing ranked, as the query over the processes table that
/// ranks them, its items the pids in the order shown.
fn ranked_processes(sort: ProcSort, items: &[ListItem]) -> LastQuery {
    use llmops_common::query::{Field, Measure, Order, Query, Source};
    let field = sort.column();
    LastQuery {
        query: Query {
            source: Source::Processes,
            field: Some(Field::new(field)),
            measure: Measure::Rows,
            order: Order::Desc,
            limit: Some(items.len() as u32),
            ..Query::default()
        },
        items: items
            .iter()
            .filter_map(|i| i.pid)
            .map(|pid| vec![("pid".to_string(), pid.to_string())])
            .collect(),
        event: Vec::new(),
        at: None,
    }
}

/// The query as run (files as resolved paths) and its answer's top item.
pub(crate) fn last_query(r: &llmops_common::query::QueryResult) -> LastQuery {
    use llmops_common::query::QueryValue;
    let mut query = r.query.clone();
    let paths: Vec<String> = r.sources.iter().filter_map(|s| s.path.clone()).collect();
    if !paths.is_empty() {
        query.files = paths;
    }
    // A position in a ranking asked ("the second slowest") is what the answer named.
    let rank = r.query.rank.filter(|&n| n >= 2).map(|n| n as usize);
    let event = named_event(&r.value, rank);
    let at = answer_time(&r.value, rank.map(|n| (n, r.query.order)));
    let items: Vec<Vec<(String, String)>> = match &r.value {
        QueryValue::Groups { by, rows, .. } => {
            let asked: Vec<String> = r
                .query
                .group_by
                .iter()
                .map(|f| f.as_str().to_string())
                .collect();
            let names = if asked.len() == by.len() { &asked } else { by };
            rows.iter()
                .map(|g| names.iter().cloned().zip(g.key.iter().cloned()).collect())
                .collect()
        }
        QueryValue::Rows { rows, .. }
            if r.query.source == llmops_common::query::Source::Processes =>
        {
            rows.iter()
                .filter_map(|row| row.fields.iter().find(|f| f.name == "pid"))
                .map(|f| vec![("pid".to_string(), f.value.clone())])
                .collect()
        }
        // Events listed by a field ("the slowest queries"): each by its value of that
        // field, so "the second one" is the second event.
        QueryValue::Rows { rows, .. } => {
            // Events in time order have no value to pick one by (times are not compared
            // as text).
            let Some(asked) = r
                .query
                .field
                .as_ref()
                .filter(|f| !matches!(f.as_str(), "time" | "timestamp"))
            else {
                return LastQuery {
                    query,
                    items: Vec::new(),
                    event,
                    at,
                };
            };
            let used = r
                .resolved
                .iter()
                .find(|x| &x.asked == asked)
                .map_or(asked.as_str(), |x| x.used.as_str());
            rows.iter()
                .filter_map(|row| row.fields.iter().find(|f| f.name == used))
                .map(|f| vec![(asked.as_str().to_string(), f.value.clone())])
                .collect()
        }
        _ => Vec::new(),
    };
    LastQuery {
        query,
        items,
        event,
        at,
    }
}

/// The time an answer pointed at: its peak bucket, or the time of the one event it named.
fn answer_time(
    value: &llmops_common::query::QueryValue,
    rank: Option<(usize, llmops_common::query::Order)>,
) -> Option<crate::frame::AnswerTime> {
    use llmops_common::query::QueryValue;
    let event = |row: &llmops_common::query::Row| {
        row.time.clone().map(|at| crate::frame::AnswerTime {
            at,
            width_seconds: 0,
        })
    };
    match value {
        QueryValue::Buckets {
            width_seconds,
            buckets,
            peak,
        } => {
            let top = match rank {
                Some((n, order)) => crate::answer::query::nth_bucket(buckets, n, order),
                None => peak.as_ref().or(match buckets.as_slice() {
                    [one] => Some(one),
                    _ => None,
                }),
            }?;
            Some(crate::frame::AnswerTime {
                at: top.start.clone(),
                width_seconds: *width_seconds,
            })
        }
        QueryValue::Stat { row: Some(row), .. } => event(row),
        QueryValue::Rows { rows, .. } => match rank {
            Some((n, _)) => rows.get(n - 1).and_then(event),
            None if rows.len() == 1 => event(&rows[0]),
            None => None,
        },
        _ => None,
    }
}

/// The one event an answer named: a minimum's or maximum's row, or the only row listed;
/// its fields as the log names them.
fn named_event(
    value: &llmops_common::query::QueryValue,
    rank: Option<usize>,
) -> Vec<(String, String)> {
    use llmops_common::query::QueryValue;
    let row = match (value, rank) {
        (QueryValue::Stat { row: Some(row), .. }, _) => row,
        (QueryValue::Rows { rows, .. }, Some(n)) if rows.len() >= n => &rows[n - 1],
        (QueryValue::Rows { rows, .. }, None) if rows.len() == 1 => &rows[0],
        _ => return Vec::new(),
    };
    row.fields
        .iter()
        .map(|f| (f.name.clone(), f.value.clone()))
        .collect()
}

/// What kind of thing the most recent step showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Topic {
    List,
    Processes,
    File,
    Metric,
    Query,
}

/// Whether `new` asks a figure of one item of the list `prev` showed (the same logs, a
/// condition on a listed item), and lists nothing of its own.
fn narrows_to_an_item(prev: &LastQuery, new: &LastQuery) -> bool {
    new.items.is_empty()
        && new.query.files == prev.query.files
        && prev.item_asked(&new.query).is_some()
}

/// The state of the conversation before this turn.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Conversation {
    /// The most recent list shown (uploads, search hits, processes, files).
    pub last_list: Option<ListShown>,
    /// The most recent file read, analysed or offered.
    pub last_file: Option<FileRef>,
    /// The most recent page read (for "continue").
    pub last_read: Option<ReadState>,
    /// The most recent system metric shown.
    pub last_metric: Option<String>,
    /// The previous user message.
    pub last_user: Option<String>,
    /// What the most recent tool step showed.
    pub last_topic: Option<Topic>,
    /// The most recent query, for follow-ups that edit it.
    pub last_query: Option<LastQuery>,
    /// Turns folded in.
    pub turns: usize,
}

impl Conversation {
    /// Starts a turn: the user's message.
    pub fn push_user(&mut self, text: &str) {
        self.last_user = Some(text.to_string());
        self.turns += 1;
    }

    /// The most recent step showed a process table.
    pub fn last_topic_is_processes(&self) -> bool {
        self.last_topic == Some(Topic::Processes)
    }

    /// The facts of the turn's tool steps, in order.
    pub fn apply(&mut self, facts: &[StepFacts]) {
        for f in facts {
            self.last_topic = Some(match f {
                StepFacts::List(ListShown {
                    kind: ListKind::Processes { .. },
                    ..
                }) => Topic::Processes,
                StepFacts::List(_) => Topic::List,
                StepFacts::Metric { .. } => Topic::Metric,
                StepFacts::Queried(_) => Topic::Query,
                _ => Topic::File,
            });
            match f {
                StepFacts::List(l) => {
                    // A name lookup that found nothing ("redis 没在跑") is still the topic.
                    let lookup = matches!(l.kind, ListKind::Processes { name: Some(_), .. });
                    if !l.items.is_empty() || lookup {
                        self.last_list = Some(l.clone());
                    }
                    // "report-cruncher 还在跑吗" then "pid 是多少": the named processes are what a
                    // field asked next is read from.
                    match &l.kind {
                        ListKind::Processes { name: Some(n), .. } => {
                            self.last_query = Some(named_processes(n));
                        }
                        // "which process uses the most memory" then "它的 pid 是多少", "how
                        // long has it been running": the list's top process is "it".
                        ListKind::Processes { sort, name: None } if !l.items.is_empty() => {
                            self.last_query = Some(ranked_processes(*sort, &l.items));
                        }
                        _ => {}
                    }
                }
                StepFacts::Read(r) => {
                    self.last_file = Some(FileRef {
                        path: r.path.clone(),
                        analysed: false,
                        total_lines: Some(r.total_lines),
                    });
                    self.last_read = Some(r.clone());
                }
                StepFacts::Analysed { path, total_lines } => {
                    self.last_file = Some(FileRef {
                        path: path.clone(),
                        analysed: true,
                        total_lines: *total_lines,
                    });
                    if self.last_read.as_ref().is_some_and(|r| &r.path == path) {
                        self.last_read = None;
                    }
                }
                StepFacts::Offered { path } => {
                    let same = self.last_file.as_ref().is_some_and(|f| &f.path == path);
                    if !same {
                        self.last_file = Some(FileRef {
                            path: path.clone(),
                            analysed: false,
                            total_lines: None,
                        });
                    }
                }
                StepFacts::Metric { metric } => self.last_metric = Some(metric.clone()),
                StepFacts::Queried(q) => self.queried(q),
            }
        }
    }

    /// A query ran: its log is the file the conversation is about, and it is the last
    /// query, keeping the time an answer last pointed at and the list it narrowed.
    fn queried(&mut self, q: &LastQuery) {
        if let Some(path) = q.query.files.first() {
            let same = self.last_file.as_ref().is_some_and(|f| &f.path == path);
            if !same {
                self.last_file = Some(FileRef {
                    path: path.clone(),
                    analysed: true,
                    total_lines: None,
                });
            }
        }
        let mut q = q.clone();
        let prev = self.last_query.take();
        // "at that time" is the last time an answer pointed at, though a count asked since
        // pointed at none.
        if q.at.is_none() {
            q.at = prev.as_ref().and_then(|p| p.at.clone());
        }
        // "how many of those were 503?" after a top list, then "the second one": a figure
        // of one listed item keeps the list it came from.
        if let Some(prev) = prev.filter(|p| narrows_to_an_item(p, &q)) {
            q.items = prev.items;
        }
        self.last_query = Some(q);
    }

    /// A file uploaded after the conversation's last turn is the file it is about now: "how
    /// many times did u011 log in" right after uploading `auth.json` asks of it.
    pub fn uploaded_since(&mut self, upload: &crate::UploadRef) {
        let path = upload.path.to_string_lossy().into_owned();
        if self.last_file.as_ref().is_some_and(|f| f.path == path) {
            return;
        }
        self.last_file = Some(FileRef {
            path,
            // A log is read whole by the queries asked of it, never page by page.
            analysed: crate::frame::is_log_upload(upload),
            total_lines: None,
        });
    }

    /// Folds the last [`STATE_TURNS`] turns: `(user message, that turn's facts)`, oldest first.
    pub fn from_turns<'a>(turns: impl IntoIterator<Item = (&'a str, Vec<StepFacts>)>) -> Self {
        let all: Vec<(&str, Vec<StepFacts>)> = turns.into_iter().collect();
        let mut c = Conversation::default();
        for (user, facts) in all.iter().skip(all.len().saturating_sub(STATE_TURNS)) {
            c.push_user(user);
            c.apply(facts);
        }
        c
    }
}

#[cfg(test)]
#[path = "conversation_tests.rs"]
mod tests;
