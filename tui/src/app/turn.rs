//! A chat turn from the client's side: whether a message can go now, sending it (held
//! while a session change is on its way, then sent in the new session), and cancelling the
//! running one.

use protocol::{Cancel, Message, RequestId};

use super::transcript::Level;
use super::{short, App, Command, Conn, Turn, NOT_SENT};

/// Whether a chat message can be sent now: no turn running and connected. If not, says why
/// in a notice.
pub(super) fn can_send(app: &mut App) -> bool {
    if app.turn.is_some() {
        app.note(
            Level::Warn,
            "a turn is running: wait for it or press Ctrl+C to cancel",
        );
        return false;
    }
    if app.conn != Conn::Connected {
        app.note(Level::Warn, NOT_SENT);
        return false;
    }
    if app
        .session_change
        .as_ref()
        .is_some_and(|c| c.queued.is_some())
    {
        app.note(
            Level::Warn,
            "上一条消息正等待会话切换 / a message is already waiting for the session change",
        );
        return false;
    }
    true
}

/// Sends `text` as a chat message with the referenced uploads and `extra` files, starting
/// a turn; while a session change is on its way it waits for it instead.
pub(super) fn send_chat(app: &mut App, text: String, extra: Vec<String>, out: &mut Vec<Command>) {
    if super::session::hold(app, &text, &extra) {
        return;
    }
    let mut file_ids: Vec<String> = std::mem::take(&mut app.files.referenced);
    for id in extra {
        if !file_ids.contains(&id) {
            file_ids.push(id);
        }
    }
    let names: Vec<String> = file_ids
        .iter()
        .map(|id| {
            app.files
                .files
                .iter()
                .find(|f| f.file_id == *id)
                .map_or_else(|| short(id).to_string(), |f| f.filename.clone())
        })
        .collect();
    app.transcript.user(&text, names);
    app.turn = Some(Turn {
        request_id: None,
        status: "sending…".into(),
        cancelling: false,
    });
    app.scroll = None;
    out.push(Command::Chat { text, file_ids });
}

/// The new session is ready (after a `new` reply, or the history of a switch): send
/// what was typed meanwhile.
pub(super) fn on_session_ready(app: &mut App, out: &mut Vec<Command>) {
    if let Some((text, files)) = super::session::ready(app) {
        send_chat(app, text, files, out);
    }
}

/// Cancels the running turn once (Ctrl+C, `/cancel`).
pub(super) fn cancel_turn(app: &mut App, out: &mut Vec<Command>) {
    if let Some(t) = &mut app.turn {
        if !t.cancelling {
            t.cancelling = true;
            t.status = "cancelling…".into();
            // Without an id yet, TurnStarted sends the cancel once the id is known.
            if t.request_id.is_some() {
                out.push(cancel_msg(t.request_id));
            }
        }
    }
}

/// The CANCEL for the turn with this request id.
pub(super) fn cancel_msg(id: Option<RequestId>) -> Command {
    Command::Send(Message::Cancel(Cancel { request_id: id }))
}
