//! Submitting the input: slash commands, chat messages, uploads, and answering file
//! offers (accept, decline, choose a destination).

use std::path::PathBuf;

use protocol::{Message, OfferReject, SessionOp, UploadStatus};
use tui_textarea::TextArea;

use super::slash::{self, Slash};
use super::transcript::Level;
use super::turn::{can_send, cancel_turn, send_chat};
use super::{dest, App, Command, Confirm, Conn, Modal, Req, TransferState, NOT_SENT};
use crate::keymap::Pane;
use crate::sanitize::sanitize;

pub(super) fn submit(app: &mut App, out: &mut Vec<Command>) {
    let text = app.input_text();
    if text.trim().is_empty() {
        return;
    }
    let is_cmd = text.starts_with('/') && !text.starts_with("//") && !slash::is_path_message(&text);
    // Keep the text in the editor when it cannot be sent now.
    if !is_cmd && !can_send(app) {
        return;
    }
    if app.history.last() != Some(&text) {
        app.history.push(text.clone());
    }
    app.history_pos = None;
    app.clear_input();
    app.notice = None;
    if is_cmd {
        match slash::parse(&text) {
            Ok(cmd) => run_slash(app, cmd, out),
            Err(e) => match slash::suggest(&text) {
                // A close miss asks; Enter then sends the text as a message.
                Some(suggestion) => app.modal = Some(Modal::DidYouMean { text, suggestion }),
                None => app.note(Level::Error, e),
            },
        }
    } else {
        let text = text
            .strip_prefix('/')
            .filter(|_| text.starts_with("//"))
            .unwrap_or(&text);
        send_chat(app, text.to_string(), Vec::new(), out);
    }
}

/// "Did you mean" answered with Enter: the text goes out as a message.
pub(super) fn send_anyway(app: &mut App, text: String, out: &mut Vec<Command>) {
    if can_send(app) {
        send_chat(app, text, Vec::new(), out);
    } else {
        app.set_input(&text);
    }
}

/// "Did you mean" answered with `y`: the suggested command with the typed arguments.
pub(super) fn run_suggestion(app: &mut App, text: &str, suggestion: &str, out: &mut Vec<Command>) {
    let rest = text
        .trim_start()
        .split_once(char::is_whitespace)
        .map_or("", |(_, r)| r);
    let line = format!("{suggestion} {rest}");
    match slash::parse(line.trim_end()) {
        Ok(cmd) => run_slash(app, cmd, out),
        Err(e) => {
            app.set_input(line.trim_end());
            app.note(Level::Error, e);
        }
    }
}

pub(super) fn start_upload(app: &mut App, path: PathBuf, note: String, out: &mut Vec<Command>) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    app.files.uploading.push(UploadStatus {
        file_id: String::new(),
        filename: name.clone(),
        state: "hashing".into(),
        detail: None,
        done: 0,
        total: 0,
    });
    app.note(Level::Info, format!("uploading {name}…"));
    out.push(Command::Upload { path, note });
}

/// Placeholder state of an upload waiting for "upload it again?".
const ASKING: &str = "already uploaded?";

/// The file's sha256 is known: an upload this session already has is confirmed first
/// ("already uploaded as X at 10:02; upload again?"), anything else goes out at once.
pub(super) fn on_hashed(
    app: &mut App,
    path: PathBuf,
    note: String,
    result: Result<String, String>,
    out: &mut Vec<Command>,
) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let sha = match result {
        Ok(sha) => sha,
        Err(e) => {
            app.files.uploading.retain(|u| u.filename != name);
            app.transcript.system(
                Level::Error,
                &format!("upload of {} failed: {e}", path.display()),
            );
            return;
        }
    };
    let same = app.files.files.iter().find(|f| f.sha256 == sha).cloned();
    let Some(f) = same else {
        out.push(Command::UploadChecked { path, note });
        return;
    };
    if let Some(u) = app.files.uploading.iter_mut().find(|u| u.filename == name) {
        u.state = ASKING.into();
    }
    let at = f
        .uploaded_at
        .get(11..16)
        .unwrap_or(&f.uploaded_at)
        .to_string();
    app.modal = Some(Modal::Confirm(Confirm {
        prompt: format!(
            "本会话已上传过相同内容：{0}（{1}）；再次上传？/ already uploaded as {0} at {1}; upload again?",
            sanitize(&f.filename),
            at
        ),
        on_yes: vec![Command::UploadChecked { path, note }],
    }));
}

/// "Upload again?" answered no: the waiting placeholder goes.
pub(super) fn drop_asking(app: &mut App) {
    app.files.uploading.retain(|u| u.state != ASKING);
}

/// Brings a pane into view: on a narrow terminal that means switching its tab; on a wide
/// one it is already visible and the chat keeps the keyboard.
fn show_pane(app: &mut App, pane: Pane) {
    let (w, h) = app.size;
    if !crate::ui::is_wide(ratatui::layout::Rect::new(0, 0, w, h)) {
        app.focus = pane;
    }
}

fn run_slash(app: &mut App, cmd: Slash, out: &mut Vec<Command>) {
    let req = |out: &mut Vec<Command>, r: Req| out.push(Command::Request(r));
    match cmd {
        Slash::Help => app.modal = Some(Modal::Help { scroll: 0 }),
        Slash::Upload { path, note } => start_upload(app, path, note, out),
        Slash::Files => {
            show_pane(app, Pane::Files);
            req(out, Req::FileList);
        }
        Slash::Search(q) => {
            app.search.query = q.clone();
            app.search.pending = true;
            app.search.from_agent = false;
            show_pane(app, Pane::Search);
            req(
                out,
                Req::Search {
                    query: q,
                    scope: "all".into(),
                },
            );
        }
        Slash::Sessions => super::picker::open(app, out),
        Slash::Grants => super::approval::open_grants(out),
        Slash::New => super::session::change(app, SessionOp::New { name: None }, out),
        Slash::Switch(id) => super::session::change(app, SessionOp::Switch { id }, out),
        Slash::Delete(id) => {
            app.modal = Some(Modal::Confirm(Confirm {
                prompt: format!(
                    "Delete the session matching '{}' and its history?",
                    sanitize(&id)
                ),
                on_yes: vec![Command::Request(Req::Session(SessionOp::Delete { id }))],
            }))
        }
        Slash::Rename(name) => req(out, Req::Session(SessionOp::Rename { id: None, name })),
        Slash::History => req(out, Req::History),
        Slash::Clear => req(out, Req::ClearHistory),
        Slash::Model(None) => req(out, Req::ModelList),
        Slash::Model(Some(m)) => req(out, Req::ModelSet(m)),
        Slash::Cancel => {
            if app.turn.is_some() {
                cancel_turn(app, out);
            } else {
                app.note(Level::Info, "no turn is running");
            }
        }
        Slash::Download(id) => {
            app.note(Level::Info, format!("asking for a download offer of {id}"));
            req(out, Req::Download(id));
        }
        Slash::Watch { interval, text } => {
            if app.conn == Conn::Connected {
                super::watch::start(app, interval, text, out);
            } else {
                app.note(Level::Warn, NOT_SENT);
            }
        }
        Slash::Quit => {
            app.quit = true;
            out.push(Command::Quit);
        }
    }
}

/// Opens the save-as prompt for an offer, prefilled with `path` or the default location.
pub(super) fn ask_destination(app: &mut App, offer_id: String, path: Option<String>) {
    let Some(t) = app.offer(&offer_id) else {
        return;
    };
    let path = path.unwrap_or_else(|| {
        let name =
            crate::download::safe_filename(&t.offer.filename).unwrap_or_else(|_| "download".into());
        app.download_dir.join(name).display().to_string()
    });
    let mut input = TextArea::default();
    input.set_cursor_line_style(ratatui::style::Style::default());
    input.insert_str(path);
    app.modal = Some(Modal::SaveAs {
        offer_id,
        input: Box::new(input),
        error: None,
    });
}

/// The user confirmed a path: resolve and check it, then ask about overwriting or start.
/// A refused path keeps the prompt open with the reason.
pub(super) fn confirm_destination(
    app: &mut App,
    offer_id: String,
    typed: &str,
    input: TextArea<'static>,
    out: &mut Vec<Command>,
) {
    let Some(t) = app.offer(&offer_id) else {
        return;
    };
    let checked = dest::resolve(typed, &app.download_dir, &t.offer.filename)
        .and_then(|p| dest::check(&p, t.offer.size));
    match checked {
        Ok(c) if c.exists => {
            app.modal = Some(Modal::Overwrite {
                offer_id,
                existing: std::fs::metadata(&c.path).ok().map(|m| m.len()),
                path: c.path,
            })
        }
        Ok(c) => answer_offer(app, &offer_id, true, Some((c.path, false)), out),
        Err(e) => {
            app.modal = Some(Modal::SaveAs {
                offer_id,
                input: Box::new(input),
                error: Some(e),
            })
        }
    }
}

/// Accepts (into `dest`, with the overwrite flag) or rejects an offer.
pub(super) fn answer_offer(
    app: &mut App,
    offer_id: &str,
    accept: bool,
    dest: Option<(PathBuf, bool)>,
    out: &mut Vec<Command>,
) {
    match (accept, dest) {
        (true, Some((path, overwrite))) => {
            // The receiver sends OFFER_ACCEPT itself, then verifies and saves the data.
            let Some(t) = app.transfer_mut(offer_id) else {
                return;
            };
            t.state = TransferState::Accepted;
            t.dest = Some(path.clone());
            out.push(Command::Download {
                offer: t.offer.clone(),
                dest: path,
                overwrite,
            });
            let name = t.offer.filename.clone();
            app.modal = Some(Modal::Transfer {
                offer_id: offer_id.to_string(),
            });
            app.note(Level::Info, format!("accepted {name}"));
        }
        (true, None) => {}
        (false, _) => {
            out.push(Command::Send(Message::OfferReject(OfferReject {
                offer_id: offer_id.to_string(),
                reason: Some("rejected by the user".into()),
            })));
            if let Some(t) = app.transfer_mut(offer_id) {
                t.state = TransferState::Rejected;
                let name = t.offer.filename.clone();
                app.note(Level::Info, format!("rejected {name}"));
            }
        }
    }
}
