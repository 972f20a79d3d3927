//! Changing sessions without mixing them: `/new`, `/switch` and the picker's Enter are
//! refused while a turn runs (its answer belongs to the old session); a question typed
//! while the change is on its way waits for it (and, after a switch, for the history) and
//! then goes out in the new session, so neither the server nor the transcript puts it in
//! the old one. After a turn in a session still under its default name, the session is
//! asked for again so the status bar shows the title the first question gave it.

use protocol::SessionOp;

use super::transcript::Level;
use super::{App, Command, Req};

/// A `/new` or `/switch` sent and not yet answered.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionChange {
    /// A question typed meanwhile: its text and the files it refers to.
    pub queued: Option<(String, Vec<String>)>,
    /// The switch was answered; the history is loading.
    pub loading_history: bool,
}

/// Sends a session change (`New` or `Switch`) unless a turn is running.
pub fn change(app: &mut App, op: SessionOp, out: &mut Vec<Command>) {
    if app.turn.is_some() {
        app.note(
            Level::Warn,
            "回合进行中，请等待或按 Ctrl+C 取消后再切换会话 / a turn is running: wait for it or \
             press Ctrl+C before changing sessions",
        );
        return;
    }
    app.session_change = Some(SessionChange::default());
    out.push(Command::Request(Req::Session(op)));
}

/// Holds a question while a session change is on its way. Returns whether it was held.
pub fn hold(app: &mut App, text: &str, files: &[String]) -> bool {
    let Some(c) = &mut app.session_change else {
        return false;
    };
    c.queued = Some((text.to_string(), files.to_vec()));
    app.note(
        Level::Info,
        "正在切换会话，消息将在切换完成后发送 / changing sessions: the message goes out once the \
         session is ready",
    );
    true
}

/// The new session is ready (after a `new` reply, or the history of a switch): the change
/// is over; returns what was typed meanwhile, to send now.
pub fn ready(app: &mut App) -> Option<(String, Vec<String>)> {
    app.session_change.take().and_then(|c| c.queued)
}

/// A switch was answered: the change completes when its history arrives.
pub fn switched(app: &mut App) {
    if let Some(c) = &mut app.session_change {
        c.loading_history = true;
    }
}

/// The change failed: a held question goes back to the editor, not to the old session.
pub fn failed(app: &mut App) {
    if let Some((text, _)) = app.session_change.take().and_then(|c| c.queued) {
        app.set_input(&text);
        app.note(
            Level::Warn,
            "会话没有切换，消息未发送，仍在输入框中 / the session did not change: your message \
             was not sent and is back in the editor",
        );
    }
}

/// A turn ended: a session still under its default name has just been titled by its
/// first question, so ask for its row (the reply updates the status bar).
pub fn after_turn(app: &App, out: &mut Vec<Command>) {
    if untitled(&app.session_name) {
        out.push(Command::Request(Req::SessionTitle));
    }
}

/// Whether a name is the server's default `会话 MM-DD HH:MM`.
pub fn untitled(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("会话 ") else {
        return false;
    };
    let b = rest.as_bytes();
    b.len() == 11
        && b.iter().enumerate().all(|(i, c)| match i {
            2 => *c == b'-',
            5 => *c == b' ',
            8 => *c == b':',
            _ => c.is_ascii_digit(),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_names_are_untitled() {
        assert!(untitled("会话 11-24 04:29"));
        assert!(!untitled("会话 11-24 04:2"));
        assert!(!untitled("CPU使用率是多少？"));
        assert!(!untitled("incident-42"));
    }
}
