//! Acting on one process: the details view (PROCESS_GET: the whole command line, user,
//! parent and children, state, threads, start time, %CPU, RSS, open files and sockets),
//! the signal menu (`k`: TERM, HUP, INT, KILL), and the proposal it sends. A signal is
//! never sent from here: the menu proposes `kill -SIG PID` as a turn whose one step is the
//! same `run_action` proposal the agent makes, so the server checks it, the approval modal
//! asks the operator, and only an approval runs it.

use protocol::{ProcessDetails, ProcessStats};

use super::transcript::Level;
use super::turn::can_send;
use super::{App, Command, Modal, Req, Turn};
use crate::keymap::Action;

/// The signals the menu offers, with what each asks of the process.
pub const SIGNALS: [(&str, &str); 4] = [
    ("TERM", "请求退出（可清理）/ ask it to exit cleanly"),
    ("HUP", "重新加载配置 / reload (many daemons)"),
    ("INT", "中断，如 Ctrl+C / interrupt, like Ctrl+C"),
    ("KILL", "立即终止，无法清理 / kill at once, no cleanup"),
];

/// The details view of one process.
#[derive(Debug, Clone)]
pub struct ProcessView {
    pub pid: u32,
    /// Name and command line from the list, shown until the details arrive.
    pub name: String,
    pub command: String,
    pub details: Option<ProcessDetails>,
    pub error: Option<String>,
    pub scroll: u16,
}

/// The signal menu for one process.
#[derive(Debug, Clone)]
pub struct SignalMenu {
    pub pid: u32,
    pub name: String,
    pub command: String,
    /// Index into `SIGNALS`.
    pub selected: usize,
}

/// Said when the server predates a request this view needs.
pub const OLD_SERVER: &str =
    "此服务器版本较旧，不支持该操作 / this server is older and does not support this";

/// Enter on a process: opens its details and asks the server for them.
pub(super) fn open(app: &mut App, p: &ProcessStats, out: &mut Vec<Command>) {
    let supported = app.server_has("process_details");
    app.modal = Some(Modal::Process(Box::new(ProcessView {
        pid: p.pid,
        name: p.name.clone(),
        command: p.command.clone(),
        details: None,
        error: (!supported).then(|| OLD_SERVER.to_string()),
        scroll: 0,
    })));
    if supported {
        out.push(Command::Request(Req::Process(p.pid)));
    }
}

/// The PROCESS_INFO reply (or its failure) for `pid`: shown if its view is still open.
pub(super) fn on_details(app: &mut App, pid: u32, result: Result<ProcessDetails, String>) {
    if let Some(Modal::Process(v)) = &mut app.modal {
        if v.pid == pid {
            match result {
                Ok(d) => {
                    v.details = Some(d);
                    v.error = None;
                }
                Err(e) => v.error = Some(crate::sanitize::sanitize(&e)),
            }
        }
    }
}

/// `k`: the signal menu for a process (TERM preselected).
pub(super) fn signal_menu(app: &mut App, pid: u32, name: String, command: String) {
    app.modal = Some(Modal::Signal(SignalMenu {
        pid,
        name,
        command,
        selected: 0,
    }));
}

/// What the proposal says in the transcript and history, in the user's language.
pub fn proposal_text(sig: &str, pid: u32, command: &str, chinese: bool) -> String {
    let what = crate::text::truncate(command, 80);
    if chinese {
        format!("向进程 {pid}（{what}）发送 SIG{sig}")
    } else {
        format!("Send SIG{sig} to process {pid} ({what})")
    }
}

/// The chosen signal: proposes `kill -SIG PID` through the approval path.
fn propose(app: &mut App, m: SignalMenu, out: &mut Vec<Command>) {
    let Some((sig, _)) = SIGNALS.get(m.selected) else {
        return;
    };
    if !app.server_has("propose") {
        app.note(Level::Error, OLD_SERVER);
        return;
    }
    if !can_send(app) {
        app.modal = Some(Modal::Signal(m));
        return;
    }
    let chinese = super::procs::user_writes_chinese(app);
    let text = proposal_text(sig, m.pid, &m.command, chinese);
    let argv = vec!["kill".to_string(), format!("-{sig}"), m.pid.to_string()];
    app.modal = None;
    app.transcript.user(&text, Vec::new());
    app.turn = Some(Turn {
        request_id: None,
        status: "sending…".into(),
        cancelling: false,
    });
    app.scroll = None;
    out.push(Command::Propose { text, argv });
}

/// A key's action in the details view or the signal menu; true when handled.
pub(super) fn on_action(app: &mut App, a: Action, out: &mut Vec<Command>) -> bool {
    match app.modal.take() {
        Some(Modal::Process(mut v)) => {
            match a {
                Action::Signal => {
                    let (pid, name, command) = (v.pid, v.name.clone(), full_command(&v));
                    signal_menu(app, pid, name, command);
                    return true;
                }
                Action::AskAbout => {
                    let before = out.len();
                    super::procs::ask_about(app, v.pid, &v.name, out);
                    if out.len() > before {
                        // Asked: the chat shows the answer; the view closes.
                        return true;
                    }
                }
                Action::Refresh => out.push(Command::Request(Req::Process(v.pid))),
                Action::Up | Action::ScrollUp => v.scroll = v.scroll.saturating_sub(1),
                Action::Down | Action::ScrollDown => v.scroll = v.scroll.saturating_add(1),
                Action::PageUp => v.scroll = v.scroll.saturating_sub(10),
                Action::PageDown => v.scroll = v.scroll.saturating_add(10),
                Action::Close => return true,
                _ => {
                    app.modal = Some(Modal::Process(v));
                    return false;
                }
            }
            if app.modal.is_none() {
                app.modal = Some(Modal::Process(v));
            }
            true
        }
        Some(Modal::Signal(mut m)) => {
            match a {
                Action::Up => m.selected = m.selected.saturating_sub(1),
                Action::Down => m.selected = (m.selected + 1).min(SIGNALS.len() - 1),
                Action::Accept => {
                    propose(app, m, out);
                    return true;
                }
                Action::Close => {
                    app.note(Level::Info, "没有发送信号 / no signal proposed");
                    return true;
                }
                _ => {
                    app.modal = Some(Modal::Signal(m));
                    return false;
                }
            }
            app.modal = Some(Modal::Signal(m));
            true
        }
        other => {
            app.modal = other;
            false
        }
    }
}

/// The whole command line when the details are in, else the list's (cut) one.
fn full_command(v: &ProcessView) -> String {
    v.details
        .as_ref()
        .map_or_else(|| v.command.clone(), |d| d.argv.join(" "))
}

/// `k` on the list: the signal menu for the selected process.
pub(super) fn signal_selected(app: &mut App) {
    match super::procs::selected(app) {
        Some(p) => signal_menu(app, p.pid, p.name, p.command),
        None => app.note(Level::Info, "没有可选的进程 / no process selected"),
    }
}

/// Enter on the list: the details of the selected process.
pub(super) fn open_selected(app: &mut App, out: &mut Vec<Command>) {
    match super::procs::selected(app) {
        Some(p) => open(app, &p, out),
        None => app.note(Level::Info, "没有可选的进程 / no process selected"),
    }
}
