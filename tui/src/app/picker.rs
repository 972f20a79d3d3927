//! The `/sessions` picker: the server's sessions (title, message count, last activity),
//! filtered as you type; Enter switches, Ctrl+D (or Del) deletes after a confirmation,
//! Ctrl+R (or F2) renames. Empty sessions other than the current one are not listed.

use protocol::{SessionInfo, SessionOp};
use tui_textarea::TextArea;

use super::transcript::Level;
use super::{App, Command, Modal, Req};
use crate::sanitize::sanitize;

#[derive(Default)]
pub struct Picker {
    /// Sessions shown (newest first), without the empty ones.
    pub sessions: Vec<SessionInfo>,
    pub current: String,
    pub filter: String,
    /// Index into `visible()`.
    pub selected: usize,
    /// Empty sessions left out of the list.
    pub hidden_empty: usize,
    /// Waiting for the list.
    pub loading: bool,
    /// Asking whether to delete this session (id).
    pub confirm_delete: Option<String>,
    /// Renaming the selected session: the new title being typed.
    pub rename: Option<Box<TextArea<'static>>>,
}

impl Picker {
    /// Sessions matching the filter (case-insensitive, on title or id).
    pub fn visible(&self) -> Vec<&SessionInfo> {
        let f = self.filter.to_lowercase();
        self.sessions
            .iter()
            .filter(|s| f.is_empty() || s.name.to_lowercase().contains(&f) || s.id.starts_with(&f))
            .collect()
    }

    pub fn selected(&self) -> Option<&SessionInfo> {
        self.visible().get(self.selected).copied()
    }

    fn clamp(&mut self) {
        let n = self.visible().len();
        self.selected = self.selected.min(n.saturating_sub(1));
    }

    pub fn set(&mut self, current: &str, all: &[SessionInfo]) {
        let keep_id = self.selected().map(|s| s.id.clone());
        self.current = current.to_string();
        self.sessions = all
            .iter()
            .filter(|s| s.messages > 0 || s.id == current)
            .map(|s| SessionInfo {
                name: sanitize(&s.name),
                ..s.clone()
            })
            .collect();
        self.hidden_empty = all.len() - self.sessions.len();
        self.loading = false;
        self.selected = keep_id
            .and_then(|id| self.visible().iter().position(|s| s.id == id))
            .or_else(|| self.visible().iter().position(|s| s.id == current))
            .unwrap_or(0);
        self.clamp();
    }
}

/// `/sessions`: open the picker and ask for the list.
pub fn open(app: &mut App, out: &mut Vec<Command>) {
    app.modal = Some(Modal::Sessions(Box::new(Picker {
        loading: true,
        ..Default::default()
    })));
    out.push(Command::Request(Req::Session(SessionOp::List)));
}

fn picker(app: &mut App) -> Option<&mut Picker> {
    match &mut app.modal {
        Some(Modal::Sessions(p)) => Some(p),
        _ => None,
    }
}

pub fn type_char(app: &mut App, c: char) {
    if let Some(p) = picker(app) {
        p.filter.push(c);
        p.selected = 0;
        p.clamp();
    }
}

pub fn backspace(app: &mut App) {
    if let Some(p) = picker(app) {
        p.filter.pop();
        p.clamp();
    }
}

pub fn step(app: &mut App, d: isize) {
    if let Some(p) = picker(app) {
        let n = p.visible().len();
        if n > 0 {
            p.selected = p.selected.saturating_add_signed(d).min(n - 1);
        }
    }
}

/// Enter: switch to the selected session (or save the new title while renaming).
pub fn enter(app: &mut App, out: &mut Vec<Command>) {
    let Some(p) = picker(app) else { return };
    if let Some(input) = p.rename.take() {
        let name = input.lines().join(" ").trim().to_string();
        let Some(id) = p.selected().map(|s| s.id.clone()) else {
            return;
        };
        if name.is_empty() {
            app.note(
                Level::Warn,
                "会话名称不能为空 / the title must not be empty",
            );
            return;
        }
        // The reply carries the updated list (every SESSION_REPLY does).
        p.loading = true;
        out.push(Command::Request(Req::Session(SessionOp::Rename {
            id: Some(id),
            name,
        })));
        return;
    }
    let Some(s) = p.selected() else { return };
    let id = s.id.clone();
    let current = s.id == p.current;
    app.modal = None;
    if current {
        app.note(Level::Info, "already in this session");
    } else {
        super::session::change(app, SessionOp::Switch { id }, out);
    }
}

/// Ctrl+D / Del: ask before deleting the selected session.
pub fn ask_delete(app: &mut App) {
    if let Some(p) = picker(app) {
        if let Some(id) = p.selected().map(|s| s.id.clone()) {
            p.confirm_delete = Some(id);
        }
    }
}

/// The answer to the delete question.
pub fn answer_delete(app: &mut App, yes: bool, out: &mut Vec<Command>) {
    let Some(p) = picker(app) else { return };
    let Some(id) = p.confirm_delete.take() else {
        return;
    };
    if yes {
        p.loading = true;
        out.push(Command::Request(Req::Session(SessionOp::Delete { id })));
    }
}

/// Ctrl+R / F2: type a new title for the selected session.
pub fn start_rename(app: &mut App) {
    if let Some(p) = picker(app) {
        if let Some(name) = p.selected().map(|s| s.name.clone()) {
            let mut t = TextArea::default();
            t.set_cursor_line_style(ratatui::style::Style::default());
            t.insert_str(name);
            p.rename = Some(Box::new(t));
        }
    }
}

/// Esc: leave the rename prompt, else clear the filter, else close.
pub fn escape(app: &mut App) {
    let Some(p) = picker(app) else { return };
    if p.rename.take().is_some() {
        return;
    }
    if !p.filter.is_empty() {
        p.filter.clear();
        p.clamp();
        return;
    }
    app.modal = None;
}

/// A session list arrived: fill the open picker. Returns whether one was open.
pub fn on_list(app: &mut App, current: &str, all: &[SessionInfo]) -> bool {
    match picker(app) {
        Some(p) => {
            p.set(current, all);
            true
        }
        None => false,
    }
}

/// "2026-11-24T03:38:26+00:00" as "2026-11-24 03:38".
pub fn when(rfc3339: &str) -> String {
    let s: String = rfc3339.chars().take(16).collect();
    s.replacen('T', " ", 1)
}
