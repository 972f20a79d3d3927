//! The processes list in the System pane. The server chooses the processes from all of them
//! by the pane's view (filter, sort, tree) and sends them with every monitor snapshot, so
//! a filter finds an idle process no top list would show; the pane applies the same
//! filter at once while the next snapshot is on its way. `/` filters, F2 sorts, `t`
//! toggles a tree, Enter opens the details, `k` proposes a signal, `a` asks the agent.

use protocol::{Message, MonitorSubscribe, ProcessSort, ProcessStats, ProcessView};

use super::turn::{can_send, send_chat};
use super::{App, Command, Level};
use crate::keymap::Pane;

/// Processes asked for with each snapshot (the pane scrolls through them).
pub const VIEW_LIMIT: u32 = 100;

#[derive(Debug, Clone, Default)]
pub struct ProcsPane {
    pub sort: ProcessSort,
    /// Case-insensitive text matched against name, user, command and pid.
    pub filter: String,
    /// `/` was pressed: typing edits the filter until Enter or Esc.
    pub filtering: bool,
    /// Parents above their children.
    pub tree: bool,
    /// The selected process (kept by pid so a new snapshot does not move the selection).
    pub selected_pid: Option<u32>,
}

/// One row of the list.
#[derive(Debug, Clone)]
pub struct Row<'a> {
    pub p: &'a ProcessStats,
    /// Tree mode: the branch drawn before the command (`├─ `, `│  └─ `, ...).
    pub branch: String,
    /// Tree mode: an ancestor shown for context that does not match the filter.
    pub context: bool,
}

/// Whether `p` matches a lower-cased filter (the server's rule: name, user, command line,
/// pid prefix).
pub fn matches(p: &ProcessStats, f: &str) -> bool {
    f.is_empty()
        || p.name.to_lowercase().contains(f)
        || p.user.to_lowercase().contains(f)
        || p.command.to_lowercase().contains(f)
        || p.pid.to_string().starts_with(f)
}

fn order(sort: ProcessSort) -> impl Fn(&&ProcessStats, &&ProcessStats) -> std::cmp::Ordering {
    move |a, b| match sort {
        ProcessSort::Cpu => b
            .cpu_percent
            .total_cmp(&a.cpu_percent)
            .then(b.rss_bytes.cmp(&a.rss_bytes))
            .then(a.pid.cmp(&b.pid)),
        ProcessSort::Memory => b
            .rss_bytes
            .cmp(&a.rss_bytes)
            .then(b.cpu_percent.total_cmp(&a.cpu_percent))
            .then(a.pid.cmp(&b.pid)),
    }
}

/// The rows shown: filtered and sorted, or (tree mode) the matches with their ancestors,
/// children under their parent, siblings in sort order.
pub fn rows(app: &App) -> Vec<Row<'_>> {
    let Some(s) = &app.gauges.snap else {
        return Vec::new();
    };
    let f = app.procs.filter.trim().to_lowercase();
    let sort = order(app.procs.sort);
    if !app.procs.tree {
        let mut v: Vec<&ProcessStats> = s.top_processes.iter().filter(|p| matches(p, &f)).collect();
        v.sort_by(&sort);
        return v
            .into_iter()
            .map(|p| Row {
                p,
                branch: String::new(),
                context: false,
            })
            .collect();
    }
    // Matches and the ancestors the server sent with them.
    let all = &s.top_processes;
    let listed: std::collections::HashSet<u32> = all.iter().map(|p| p.pid).collect();
    let mut roots: Vec<&ProcessStats> = all
        .iter()
        .filter(|p| p.ppid == 0 || !listed.contains(&p.ppid) || p.ppid == p.pid)
        .collect();
    roots.sort_by(&sort);
    let mut out = Vec::with_capacity(all.len());
    let mut seen = std::collections::HashSet::new();
    for r in roots {
        walk(all, r, String::new(), None, &f, &sort, &mut seen, &mut out);
    }
    // Whatever a cycle kept out of the walk still shows, at the top level.
    for p in all {
        if !seen.contains(&p.pid) {
            walk(all, p, String::new(), None, &f, &sort, &mut seen, &mut out);
        }
    }
    // A branch that holds no match is only context: drop it.
    prune(out)
}

#[allow(clippy::too_many_arguments)]
fn walk<'a>(
    all: &'a [ProcessStats],
    p: &'a ProcessStats,
    indent: String,
    last: Option<bool>,
    f: &str,
    sort: &impl Fn(&&ProcessStats, &&ProcessStats) -> std::cmp::Ordering,
    seen: &mut std::collections::HashSet<u32>,
    out: &mut Vec<Row<'a>>,
) {
    if !seen.insert(p.pid) {
        return;
    }
    let branch = match last {
        None => String::new(),
        Some(true) => format!("{indent}└─ "),
        Some(false) => format!("{indent}├─ "),
    };
    out.push(Row {
        p,
        branch,
        context: !matches(p, f),
    });
    let mut kids: Vec<&ProcessStats> = all
        .iter()
        .filter(|c| c.ppid == p.pid && c.pid != p.pid)
        .collect();
    kids.sort_by(sort);
    let child_indent = match last {
        None => indent,
        Some(true) => format!("{indent}   "),
        Some(false) => format!("{indent}│  "),
    };
    let n = kids.len();
    for (i, c) in kids.into_iter().enumerate() {
        walk(
            all,
            c,
            child_indent.clone(),
            Some(i + 1 == n),
            f,
            sort,
            seen,
            out,
        );
    }
}

/// Keeps the rows that match and the context rows above a match in their own subtree.
fn prune(rows: Vec<Row<'_>>) -> Vec<Row<'_>> {
    let depth = |r: &Row| r.branch.chars().count();
    let mut keep = vec![false; rows.len()];
    for i in (0..rows.len()).rev() {
        if !rows[i].context {
            keep[i] = true;
            continue;
        }
        // A context row stays when a later row deeper than it (its subtree) is kept.
        let d = depth(&rows[i]);
        keep[i] = rows[i + 1..]
            .iter()
            .zip(&keep[i + 1..])
            .take_while(|(r, _)| depth(r) > d)
            .any(|(_, k)| *k);
    }
    rows.into_iter()
        .zip(keep)
        .filter_map(|(r, k)| k.then_some(r))
        .collect()
}

/// Index of the selected row in `rows` (the first when the selected pid is gone).
pub fn selected_index(app: &App, rows: &[Row]) -> usize {
    app.procs
        .selected_pid
        .and_then(|pid| rows.iter().position(|r| r.p.pid == pid))
        .unwrap_or(0)
}

/// The selected process, if the list has any.
pub fn selected(app: &App) -> Option<ProcessStats> {
    let r = rows(app);
    r.get(selected_index(app, &r)).map(|r| r.p.clone())
}

/// The monitor subscription for the pane's current view; `history` asks for the recent
/// samples with the first snapshot.
pub fn subscription(app: &App, history: bool) -> Command {
    Command::Send(Message::MonitorSubscribe(MonitorSubscribe {
        interval_ms: app.gauge_interval_ms,
        processes: Some(ProcessView {
            filter: app.procs.filter.trim().to_string(),
            sort: app.procs.sort,
            limit: VIEW_LIMIT,
            tree: app.procs.tree,
        }),
        history,
    }))
}

pub(super) fn step(app: &mut App, d: isize) {
    let r = rows(app);
    if r.is_empty() {
        return;
    }
    let i = selected_index(app, &r)
        .saturating_add_signed(d)
        .min(r.len() - 1);
    app.procs.selected_pid = Some(r[i].p.pid);
}

pub(super) fn toggle_sort(app: &mut App, out: &mut Vec<Command>) {
    app.procs.sort = match app.procs.sort {
        ProcessSort::Cpu => ProcessSort::Memory,
        ProcessSort::Memory => ProcessSort::Cpu,
    };
    app.procs.selected_pid = None;
    out.push(subscription(app, false));
}

pub(super) fn toggle_tree(app: &mut App, out: &mut Vec<Command>) {
    app.procs.tree = !app.procs.tree;
    out.push(subscription(app, false));
    let how = if app.procs.tree {
        "进程树 / tree view: parents above their children"
    } else {
        "进程列表 / flat list"
    };
    app.note(Level::Info, how);
}

/// `/`: typing edits the filter from now on.
pub(super) fn start_filter(app: &mut App) {
    app.procs.filtering = true;
}

pub(super) fn type_char(app: &mut App, c: char, out: &mut Vec<Command>) {
    app.procs.filter.push(c);
    app.procs.selected_pid = None;
    out.push(subscription(app, false));
}

pub(super) fn backspace(app: &mut App, out: &mut Vec<Command>) {
    if app.procs.filter.pop().is_some() {
        app.procs.selected_pid = None;
        out.push(subscription(app, false));
    }
}

/// Enter while filtering: keep the filter, keys are commands again.
pub(super) fn end_filter(app: &mut App) {
    app.procs.filtering = false;
}

/// Esc: clears the filter first; with no filter, back to chat.
pub(super) fn escape(app: &mut App, out: &mut Vec<Command>) {
    app.procs.filtering = false;
    if app.procs.filter.is_empty() {
        app.focus = Pane::Chat;
    } else {
        app.procs.filter.clear();
        app.procs.selected_pid = None;
        out.push(subscription(app, false));
    }
}

/// Whether the user writes Chinese: the last thing they typed that has letters decides;
/// Chinese when there is nothing yet.
pub fn user_writes_chinese(app: &App) -> bool {
    let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    app.history
        .iter()
        .rev()
        .find(|h| h.chars().any(|c| c.is_alphabetic()))
        .is_none_or(|h| h.chars().any(cjk))
}

/// The question "ask about it" sends, in the user's language.
pub fn question(pid: u32, name: &str, chinese: bool) -> String {
    if chinese {
        format!("进程 {pid}（{name}）在做什么？")
    } else {
        format!("What is process {pid} ({name}) doing?")
    }
}

/// Asks the agent about process `pid` in the chat.
pub(super) fn ask_about(app: &mut App, pid: u32, name: &str, out: &mut Vec<Command>) {
    let q = question(pid, name, user_writes_chinese(app));
    if !can_send(app) {
        return;
    }
    app.modal = None;
    app.focus = Pane::Chat;
    app.history.push(q.clone());
    send_chat(app, q, Vec::new(), out);
}

/// `a` on the list: asks about the selected process.
pub(super) fn ask(app: &mut App, out: &mut Vec<Command>) {
    match selected(app) {
        Some(p) => ask_about(app, p.pid, &p.name, out),
        None => app.note(Level::Info, "没有可选的进程 / no process selected"),
    }
}

#[cfg(test)]
#[path = "procs_tests.rs"]
pub(crate) mod tests;
