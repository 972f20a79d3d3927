//! The processes list in the System pane: the top processes of the latest monitor
//! snapshot, sorted by CPU or memory, filtered as you type, and Enter asks the agent about
//! the selected one.

use protocol::ProcessStats;

use super::submit::{can_send, send_chat};
use super::{App, Command, Level};
use crate::keymap::Pane;

/// What the list is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ProcSort {
    #[default]
    Cpu,
    Memory,
}

impl ProcSort {
    pub fn label(self) -> &'static str {
        match self {
            ProcSort::Cpu => "CPU",
            ProcSort::Memory => "memory",
        }
    }
}

#[derive(Debug, Clone, Default)]
pub struct ProcsPane {
    pub sort: ProcSort,
    /// Case-insensitive text matched against name, user, command and pid.
    pub filter: String,
    /// The selected process (kept by pid so a new snapshot does not move the selection).
    pub selected_pid: Option<u32>,
}

/// The rows shown: filtered, sorted (CPU or RSS descending, then pid).
pub fn rows(app: &App) -> Vec<&ProcessStats> {
    let Some(s) = &app.gauges.snap else {
        return Vec::new();
    };
    let f = app.procs.filter.to_lowercase();
    let mut v: Vec<&ProcessStats> = s
        .top_processes
        .iter()
        .filter(|p| {
            f.is_empty()
                || p.name.to_lowercase().contains(&f)
                || p.user.to_lowercase().contains(&f)
                || p.command.to_lowercase().contains(&f)
                || p.pid.to_string().starts_with(&f)
        })
        .collect();
    match app.procs.sort {
        ProcSort::Cpu => v.sort_by(|a, b| {
            b.cpu_percent
                .total_cmp(&a.cpu_percent)
                .then(b.rss_bytes.cmp(&a.rss_bytes))
                .then(a.pid.cmp(&b.pid))
        }),
        ProcSort::Memory => v.sort_by(|a, b| {
            b.rss_bytes
                .cmp(&a.rss_bytes)
                .then(b.cpu_percent.total_cmp(&a.cpu_percent))
                .then(a.pid.cmp(&b.pid))
        }),
    }
    v
}

/// Index of the selected row in `rows` (the first when the selected pid is gone).
pub fn selected_index(app: &App, rows: &[&ProcessStats]) -> usize {
    app.procs
        .selected_pid
        .and_then(|pid| rows.iter().position(|p| p.pid == pid))
        .unwrap_or(0)
}

pub(super) fn step(app: &mut App, d: isize) {
    let r = rows(app);
    if r.is_empty() {
        return;
    }
    let i = selected_index(app, &r)
        .saturating_add_signed(d)
        .min(r.len() - 1);
    app.procs.selected_pid = Some(r[i].pid);
}

pub(super) fn toggle_sort(app: &mut App) {
    app.procs.sort = match app.procs.sort {
        ProcSort::Cpu => ProcSort::Memory,
        ProcSort::Memory => ProcSort::Cpu,
    };
    app.procs.selected_pid = None;
}

pub(super) fn type_char(app: &mut App, c: char) {
    app.procs.filter.push(c);
    app.procs.selected_pid = None;
}

pub(super) fn backspace(app: &mut App) {
    app.procs.filter.pop();
    app.procs.selected_pid = None;
}

/// Esc: clears the filter first; with no filter, back to chat.
pub(super) fn escape(app: &mut App) {
    if app.procs.filter.is_empty() {
        app.focus = Pane::Chat;
    } else {
        app.procs.filter.clear();
        app.procs.selected_pid = None;
    }
}

/// Whether the user writes Chinese: the last thing they typed that has letters decides;
/// Chinese when there is nothing yet.
fn user_writes_chinese(app: &App) -> bool {
    let cjk = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
    app.history
        .iter()
        .rev()
        .find(|h| h.chars().any(|c| c.is_alphabetic()))
        .is_none_or(|h| h.chars().any(cjk))
}

/// The question Enter sends about a process, in the user's language.
pub fn question(p: &ProcessStats, chinese: bool) -> String {
    if chinese {
        format!("进程 {} (pid {}) 在做什么？占用情况如何？", p.name, p.pid)
    } else {
        format!(
            "What is process {} (pid {}) doing, and how much CPU and memory does it use?",
            p.name, p.pid
        )
    }
}

/// Enter on a process: asks the agent about it in the chat.
pub(super) fn ask(app: &mut App, out: &mut Vec<Command>) {
    let r = rows(app);
    let Some(p) = r.get(selected_index(app, &r)) else {
        app.note(Level::Info, "没有可选的进程 / no process selected");
        return;
    };
    let q = question(p, user_writes_chinese(app));
    if !can_send(app) {
        return;
    }
    app.focus = Pane::Chat;
    app.history.push(q.clone());
    send_chat(app, q, Vec::new(), out);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::app::tests::{connected, key, monitor_with, submit};
    use crate::app::{update, AppEvent};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    pub fn planted() -> Vec<ProcessStats> {
        let p = |pid, user: &str, name: &str, cpu, rss_mib: u64| ProcessStats {
            pid,
            user: user.into(),
            name: name.into(),
            cpu_percent: cpu,
            rss_bytes: rss_mib << 20,
            mem_percent: (rss_mib as f64 / 8192.0 * 1000.0).round() / 10.0,
            command: format!("/usr/bin/{name} --serve"),
        };
        vec![
            p(812, "postgres", "postgres", 12.5, 1900),
            p(4242, "root", "burn-cpu", 99.0, 3),
            p(1337, "www-data", "nginx", 3.0, 64),
            p(77, "app", "java", 41.0, 2600),
        ]
    }

    fn focus_system(a: &mut App) {
        update(
            a,
            AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
        );
        assert_eq!(a.focus, Pane::Gauges);
    }

    #[test]
    fn sorted_by_cpu_then_memory_and_filtered_as_you_type() {
        let mut a = connected();
        monitor_with(&mut a, planted());
        let pids = |a: &App| rows(a).iter().map(|p| p.pid).collect::<Vec<_>>();
        assert_eq!(pids(&a), vec![4242, 77, 812, 1337]);
        focus_system(&mut a);
        update(&mut a, key(KeyCode::F(2)));
        assert_eq!(a.procs.sort, ProcSort::Memory);
        assert_eq!(pids(&a), vec![77, 812, 1337, 4242]);
        // Typing filters (the chat input stays empty).
        for c in "NGI".chars() {
            update(&mut a, key(KeyCode::Char(c)));
        }
        assert_eq!(a.focus, Pane::Gauges);
        assert_eq!(a.input_text(), "");
        assert_eq!(pids(&a), vec![1337]);
        update(&mut a, key(KeyCode::Backspace));
        update(&mut a, key(KeyCode::Backspace));
        update(&mut a, key(KeyCode::Backspace));
        assert_eq!(pids(&a).len(), 4);
        // By user and by pid prefix too.
        for c in "post".chars() {
            update(&mut a, key(KeyCode::Char(c)));
        }
        assert_eq!(pids(&a), vec![812]);
        // Esc clears the filter, a second Esc goes back to chat.
        update(&mut a, key(KeyCode::Esc));
        assert!(a.procs.filter.is_empty());
        assert_eq!(a.focus, Pane::Gauges);
        update(&mut a, key(KeyCode::Esc));
        assert_eq!(a.focus, Pane::Chat);
    }

    #[test]
    fn selection_follows_the_pid_across_snapshots() {
        let mut a = connected();
        monitor_with(&mut a, planted());
        focus_system(&mut a);
        update(&mut a, key(KeyCode::Down));
        assert_eq!(a.procs.selected_pid, Some(77));
        // The next sample: java now tops the list; the selection stays on java.
        let mut next = planted();
        next[3].cpu_percent = 150.0;
        monitor_with(&mut a, next);
        let r = rows(&a);
        assert_eq!(r[selected_index(&a, &r)].pid, 77);
        update(&mut a, key(KeyCode::Up));
        update(&mut a, key(KeyCode::Up));
        assert_eq!(a.procs.selected_pid, Some(77));
    }

    #[test]
    fn enter_asks_the_agent_about_the_process_in_the_users_language() {
        let mut a = connected();
        monitor_with(&mut a, planted());
        focus_system(&mut a);
        let cmds = update(&mut a, key(KeyCode::Enter));
        assert_eq!(
            cmds,
            vec![Command::Chat {
                text: "进程 burn-cpu (pid 4242) 在做什么？占用情况如何？".into(),
                file_ids: vec![]
            }]
        );
        assert_eq!(a.focus, Pane::Chat);
        // Someone who asks in English gets the question in English.
        let mut b = connected();
        submit(&mut b, "why is the box slow");
        b.turn = None;
        monitor_with(&mut b, planted());
        focus_system(&mut b);
        update(&mut b, key(KeyCode::Down));
        let cmds = update(&mut b, key(KeyCode::Enter));
        assert!(matches!(&cmds[..], [Command::Chat { text, .. }]
            if text == "What is process java (pid 77) doing, and how much CPU and memory does it use?"));
    }

    #[test]
    fn enter_with_a_running_turn_sends_nothing() {
        let mut a = connected();
        submit(&mut a, "first");
        monitor_with(&mut a, planted());
        focus_system(&mut a);
        assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    }
}
