//! Handling what the server sends: client connection events, pushed messages, turn
//! messages, replies to requests, and finished uploads.

use std::path::PathBuf;

use protocol::{
    AgentEventKind, EndStatus, FileInfo, HistoryMessage, HistoryPoint, Message, ModelInfo,
    MonitorSnapshot, Offer, SearchHit, SessionInfo, SessionOp, SessionReply, StreamEnd,
    TransferComplete, UploadStatus,
};

use super::transcript::{Level, ToolResult};
use super::turn::send_chat;
use super::{
    human_size, short, App, Command, Conn, FilesPane, Modal, Req, Transfer, TransferState,
    HISTORY_POINTS, NOT_SENT,
};
use crate::client::ClientEvent;
use crate::sanitize::sanitize;

pub(super) fn on_client(app: &mut App, e: ClientEvent, out: &mut Vec<Command>) {
    match e {
        ClientEvent::Connected(w) => {
            let first = !app.connected_once;
            app.connected_once = true;
            app.conn = Conn::Connected;
            if app.notice.as_ref().is_some_and(|n| n.1 == NOT_SENT) {
                app.notice = None;
            }
            app.session_id = w.session_id.clone();
            app.session_name = sanitize(&w.session_name);
            app.model = sanitize(&w.model);
            app.planner = sanitize(&w.planner);
            app.egress = sanitize(&w.egress);
            if first {
                if !w.motd.is_empty() {
                    app.transcript.system(Level::Info, &w.motd);
                }
                if w.resumed {
                    out.push(Command::Request(Req::History));
                }
            } else {
                app.transcript.system(
                    Level::Ok,
                    if w.resumed {
                        "reconnected; session resumed"
                    } else {
                        "reconnected in a new session (the old one was not found)"
                    },
                );
            }
            app.welcome = Some(w);
            out.push(Command::RememberSession(app.session_id.clone()));
            // The recent history comes with the first snapshot when there is none yet.
            out.push(super::procs::subscription(
                app,
                app.gauges.history.is_empty(),
            ));
            out.push(Command::Request(Req::FileList));
        }
        ClientEvent::Reconnecting {
            attempt,
            retry_in,
            reason,
        } => {
            app.conn = Conn::Reconnecting {
                attempt,
                until: app.now + retry_in,
                reason: sanitize(&reason),
            };
        }
        ClientEvent::Message(m) => on_message(app, m, out),
    }
}

fn on_message(app: &mut App, m: Message, out: &mut Vec<Command>) {
    match m {
        Message::ApprovalRequest(r) => super::approval::on_request(app, *r),
        Message::ApprovalState(s) => super::approval::on_state(app, s),
        Message::UploadStatus(s) => upload_status(app, s, out),
        Message::SearchResults(r) => {
            app.search.from_agent = r
                .request_id
                .is_some_and(|id| app.turn.as_ref().and_then(|t| t.request_id) == Some(id))
                || r.request_id.is_none();
            set_search(app, r.query, r.scope, r.results);
        }
        Message::MonitorSnapshot(s) => on_snapshot(app, s),
        Message::Offer(o) => on_offer(app, o),
        Message::TransferStart(s) => {
            if let Some(t) = app.transfer_mut(&s.offer_id).filter(|t| !t.finished()) {
                t.state = TransferState::Started { mode: s.mode };
            }
        }
        Message::TransferProgress(p) => {
            let id = p.offer_id.clone();
            // The sender's last report can arrive after our verification: a result stays.
            if let Some(t) = app.transfer_mut(&id).filter(|t| !t.finished()) {
                t.state = TransferState::Progress(p);
            }
        }
        Message::TransferComplete(c) => on_transfer_complete(app, c),
        Message::Error(e) => {
            app.notice = None;
            app.transcript.system(
                Level::Error,
                &format!("server error ({}): {}", e.code, e.message),
            );
        }
        Message::SessionReply(r) => set_session(app, &r.current),
        Message::ModelInfo(i) => {
            app.model = sanitize(&i.current);
            app.planner = sanitize(&i.planner);
        }
        Message::FileListReply(r) => {
            app.files.files = r.files;
            clamp_files(app);
        }
        Message::ChatText(t) if !t.is_empty() => app.transcript.system(Level::Info, &t),
        // Unsolicited acknowledgements (e.g. a declined offer) are the server speaking.
        Message::Ack(a) => app.transcript.system(Level::Info, &sanitize(&a.message)),
        _ => {}
    }
}

/// A download offer: listed in the Transfers pane, and shown at once unless another
/// dialog is open.
fn on_offer(app: &mut App, o: Offer) {
    let id = o.offer_id.clone();
    if app.offer(&id).is_none() {
        app.transfers.push(Transfer {
            offer: o,
            state: TransferState::Offered,
            dest: None,
        });
    }
    // A finished transfer's view gives way; anything else is not interrupted.
    let finished = match &app.modal {
        Some(Modal::Transfer { offer_id }) => app.offer(offer_id).is_some_and(Transfer::finished),
        _ => false,
    };
    if app.modal.is_none() || finished {
        app.modal = Some(Modal::Offer { offer_id: id });
    } else {
        app.note(
            Level::Info,
            "a download offer is waiting in the Transfers pane (Alt+5)",
        );
    }
}

/// The sender's last word on a transfer.
fn on_transfer_complete(app: &mut App, c: TransferComplete) {
    if let Some(t) = app.transfer_mut(&c.offer_id) {
        // The server's "sent it all" is not our verification: only failures count.
        let ours = matches!(t.state, TransferState::Saved { .. });
        if !ours && (!c.ok || c.side == "client") {
            t.state = TransferState::Done {
                ok: c.ok,
                error: c.error.map(|e| sanitize(&e)),
            };
        }
    }
}

/// A monitor snapshot: the gauges, and its figures appended to the history (a snapshot
/// that carries the server's history replaces it; that history ends with this sample).
fn on_snapshot(app: &mut App, mut s: MonitorSnapshot) {
    let h = &mut app.gauges.history;
    if s.history.is_empty() {
        h.push_back(HistoryPoint {
            ts_ms: s.ts_ms,
            cpu_percent: s.cpu.usage_percent,
            mem_percent: s.memory.usage_percent,
            net_rx_bytes_per_sec: s.net.as_ref().map_or(0, |n| n.rx_bytes_per_sec),
            net_tx_bytes_per_sec: s.net.as_ref().map_or(0, |n| n.tx_bytes_per_sec),
            disk_read_bytes_per_sec: s.disk_io.as_ref().map_or(0, |d| d.read_bytes_per_sec),
            disk_write_bytes_per_sec: s.disk_io.as_ref().map_or(0, |d| d.write_bytes_per_sec),
        });
    } else {
        *h = std::mem::take(&mut s.history).into();
    }
    while h.len() > HISTORY_POINTS {
        h.pop_front();
    }
    app.gauges.snap = Some(s);
}

fn set_search(app: &mut App, query: String, scope: String, hits: Vec<SearchHit>) {
    app.search.query = sanitize(&query);
    app.search.scope = sanitize(&scope);
    app.search.hits = hits
        .into_iter()
        .map(|h| SearchHit {
            filename: sanitize(&h.filename),
            filepath: sanitize(&h.filepath),
            chunk: sanitize(&h.chunk),
            position: sanitize(&h.position),
            match_type: sanitize(&h.match_type),
            ..h
        })
        .collect();
    app.search.selected = 0;
    app.search.pending = false;
}

fn clamp_files(app: &mut App) {
    let n = app.files.files.len();
    app.files.selected = app.files.selected.min(n.saturating_sub(1));
    let ids: Vec<String> = app.files.files.iter().map(|f| f.file_id.clone()).collect();
    app.files.referenced.retain(|r| ids.contains(r));
}

/// Uploads of this session not yet searchable: saved (or still arriving) but not indexed.
fn not_yet_searchable(app: &App) -> usize {
    let indexing = |state: &str| matches!(state, "" | "uploading" | "saved");
    app.files
        .files
        .iter()
        .filter(|f| indexing(&f.state))
        .count()
        + app
            .files
            .uploading
            .iter()
            .filter(|u| {
                indexing(&u.state) && !app.files.files.iter().any(|f| f.file_id == u.file_id)
            })
            .count()
}

fn upload_status(app: &mut App, s: UploadStatus, out: &mut Vec<Command>) {
    let searchable = matches!(s.state.as_str(), "indexed" | "ready");
    if searchable && app.search.awaiting_index > 0 && !app.search.from_agent {
        // The last /search could not see this file yet: run it again.
        app.search.awaiting_index = 0;
        app.search.pending = true;
        out.push(Command::Request(Req::Search {
            query: app.search.query.clone(),
            scope: app.search.scope.clone(),
        }));
    }
    if !s.file_id.is_empty() {
        if let Some(f) = app.files.files.iter_mut().find(|f| f.file_id == s.file_id) {
            f.state = s.state.clone();
            f.detail = s.detail.clone();
        }
    }
    let done = matches!(s.state.as_str(), "ready" | "failed");
    if let Some(i) =
        app.files.uploading.iter().position(|u| {
            u.filename == s.filename || (!s.file_id.is_empty() && u.file_id == s.file_id)
        })
    {
        if done && !s.file_id.is_empty() {
            app.files.uploading.remove(i);
        } else {
            app.files.uploading[i] = s;
        }
    }
}

fn set_session(app: &mut App, s: &SessionInfo) {
    app.session_id = s.id.clone();
    app.session_name = sanitize(&s.name);
}

pub(super) fn on_turn_msg(app: &mut App, m: Message, out: &mut Vec<Command>) {
    let Some(turn) = &mut app.turn else { return };
    let id = turn.request_id;
    match m {
        Message::AgentEvent(e) if Some(e.request_id) == id => match e.event {
            AgentEventKind::Status { text } => {
                if !turn.cancelling {
                    turn.status = sanitize(&text);
                }
            }
            AgentEventKind::ToolCall { step, tool, args } => {
                if !turn.cancelling {
                    turn.status = format!("running {}…", sanitize(&tool));
                }
                app.transcript.tool_call(id, step, &tool, &args);
            }
            AgentEventKind::ToolResult {
                step,
                tool,
                ok,
                duration_ms,
                summary,
                output,
            } => app.transcript.tool_result(
                id,
                step,
                &tool,
                ToolResult {
                    ok,
                    duration_ms,
                    summary,
                    output,
                },
            ),
        },
        Message::ToolOutput(o) if Some(o.request_id) == id => {
            if !turn.cancelling {
                turn.status = format!(
                    "following {}: {} lines (Ctrl+C stops)",
                    sanitize(&o.tool),
                    o.total
                );
            }
            app.transcript
                .tool_output(id, o.step, &o.tool, &o.lines, o.dropped, o.total);
        }
        Message::StreamStart(s) if Some(s.request_id) == id => {
            if !turn.cancelling {
                turn.status = "answering…".into();
            }
            app.transcript.start_answer(s.request_id);
        }
        Message::StreamDelta(d) if Some(d.request_id) == id => {
            app.transcript.delta(d.request_id, &d.text)
        }
        Message::StreamEnd(e) if Some(e.request_id) == id => end_turn(app, e, out),
        Message::Error(e) if e.request_id == id => {
            app.transcript.system(
                Level::Error,
                &format!("the server refused the message ({}): {}", e.code, e.message),
            );
            app.turn = None;
        }
        Message::ApprovalRequest(r) => super::approval::on_request(app, *r),
        Message::ApprovalState(s) => super::approval::on_state(app, s),
        // Search hits and offers also arrive as client events; handled there.
        _ => {}
    }
}

/// The answer's end: the turn is over, however it ended.
fn end_turn(app: &mut App, e: StreamEnd, out: &mut Vec<Command>) {
    app.transcript.finish_answer(e.request_id);
    match e.status {
        EndStatus::Ok => {}
        EndStatus::Cancelled => app.transcript.system(Level::Warn, "turn cancelled"),
        EndStatus::Error => app.transcript.system(
            Level::Error,
            &format!(
                "turn failed: {}",
                e.message.as_deref().unwrap_or("unknown error")
            ),
        ),
    }
    app.turn = None;
    super::session::after_turn(app, out);
}

pub(super) fn on_reply(
    app: &mut App,
    req: Req,
    result: Result<Message, String>,
    out: &mut Vec<Command>,
) {
    let m = match result {
        Ok(m) => m,
        Err(e) => return reply_failed(app, req, e, out),
    };
    // The title refresh is quiet, and applies only if nothing changed the session meanwhile.
    if req == Req::SessionTitle {
        if let Message::SessionReply(r) = &m {
            if r.current.id == app.session_id {
                set_session(app, &r.current);
            }
        }
        return;
    }
    match m {
        Message::FileListReply(r) => {
            app.files.files = r.files;
            clamp_files(app);
        }
        Message::Grants(g) => super::approval::on_grants(app, g.grants),
        Message::Ack(a) if matches!(req, Req::GrantRevoke(_)) => {
            super::approval::on_revoked(app, &a.message, out)
        }
        Message::Ack(a) => on_ack(app, &req, &a.message),
        Message::SessionReply(r) => on_session_reply(app, &r, out),
        Message::History(h) => on_history(app, &h.messages, out),
        Message::ModelInfo(i) => on_model_info(app, &i),
        Message::SearchResults(r) => {
            app.search.from_agent = false;
            set_search(app, r.query, r.scope, r.results);
            app.search.awaiting_index = not_yet_searchable(app);
        }
        Message::FileRegionReply(r) => {
            if let Req::FileRegion { target, .. } = &req {
                super::hits::on_region(app, target, &r);
            }
        }
        Message::ProcessInfo(r) => {
            if let Req::Process(pid) = req {
                super::process::on_details(app, pid, Ok(r.process));
            }
        }
        Message::WatchOutput(o) => {
            if let Req::Watch(text) = &req {
                super::watch::on_output(app, text, Ok(o));
            }
        }
        Message::OutputPage(p) => {
            app.transcript.output_page(&p);
            if let Some(next) = super::pager::output_page(app, &p) {
                out.push(Command::Request(next));
            }
        }
        _ => {}
    }
}

/// A request that failed: whatever waited for it stops waiting, and the failure is said
/// (quietly for the title refresh; in its own view for a region, process or `/watch`).
fn reply_failed(app: &mut App, req: Req, e: String, out: &mut Vec<Command>) {
    if matches!(req, Req::Search { .. }) {
        app.search.pending = false;
    }
    if let Req::OutputPage { output_id, .. } = &req {
        app.transcript.output_failed(output_id);
        if let Some(Modal::Pager(p)) = &mut app.modal {
            if let super::pager::Source::Output {
                output_id: o,
                loading,
                ..
            } = &mut p.source
            {
                if o == output_id {
                    *loading = false;
                }
            }
        }
    }
    if let (Req::Session(_), Some(Modal::Sessions(p))) = (&req, &mut app.modal) {
        p.loading = false;
    }
    match &req {
        Req::FileRegion { target, .. } => {
            super::hits::region_failed(app, target, &e);
            return;
        }
        Req::Process(pid) => {
            super::process::on_details(app, *pid, Err(e));
            return;
        }
        Req::Watch(text) => {
            super::watch::on_output(app, text, Err(e));
            return;
        }
        Req::Session(SessionOp::New { .. } | SessionOp::Switch { .. }) => {
            super::session::failed(app)
        }
        // The history of a switch failed: the session did change.
        Req::History => super::turn::on_session_ready(app, out),
        // Quiet: the title shows at the next refresh.
        Req::SessionTitle => {
            tracing::debug!("session title refresh failed: {e}");
            return;
        }
        _ => {}
    }
    app.transcript
        .system(Level::Error, &format!("{} failed: {e}", req.label()));
}

/// A request done: its effect here (a cleared transcript, a deleted file), then the
/// server's word.
fn on_ack(app: &mut App, req: &Req, message: &str) {
    match req {
        Req::ClearHistory => {
            app.transcript.clear();
            app.selected = None;
        }
        Req::FileDelete(id) => {
            app.files.files.retain(|f| f.file_id != *id);
            clamp_files(app);
        }
        _ => {}
    }
    app.transcript.system(Level::Ok, message);
}

/// The session's stored messages: they replace the transcript.
fn on_history(app: &mut App, messages: &[HistoryMessage], out: &mut Vec<Command>) {
    app.transcript.load_history(messages);
    app.selected = None;
    app.scroll = None;
    if messages.is_empty() {
        app.transcript
            .system(Level::Info, "no history in this session yet");
    }
    super::turn::on_session_ready(app, out);
}

/// A session operation's reply (list, new, switch, delete, rename).
fn on_session_reply(app: &mut App, r: &SessionReply, out: &mut Vec<Command>) {
    if r.current.id != app.session_id && !r.current.id.is_empty() {
        out.push(Command::RememberSession(r.current.id.clone()));
    }
    set_session(app, &r.current);
    // Every reply carries the list: an open picker shows the new state.
    if matches!(r.op.as_str(), "delete" | "rename") {
        super::picker::on_list(app, &r.current.id, &r.sessions);
    }
    match r.op.as_str() {
        "list" if super::picker::on_list(app, &r.current.id, &r.sessions) => {}
        "list" => {
            let mut s = String::from("sessions:");
            for x in &r.sessions {
                let mark = if x.id == r.current.id { '*' } else { ' ' };
                s.push_str(&format!(
                    "\n{mark} {}  {}  ({} messages, {})",
                    short(&x.id),
                    x.name,
                    x.messages,
                    x.updated_at
                ));
            }
            app.transcript.system(Level::Info, &s);
        }
        "new" | "switch" => {
            app.transcript.clear();
            app.selected = None;
            app.files = FilesPane::default();
            app.scroll = None;
            app.transcript.system(
                Level::Ok,
                &format!("session {} ({})", r.current.name, short(&r.current.id)),
            );
            out.push(Command::Request(Req::FileList));
            if r.op == "switch" {
                out.push(Command::Request(Req::History));
                super::session::switched(app);
            } else {
                super::turn::on_session_ready(app, out);
            }
        }
        "delete" => app.transcript.system(Level::Ok, "session deleted"),
        "rename" => app
            .transcript
            .system(Level::Ok, &format!("session renamed to {}", r.current.name)),
        _ => {}
    }
}

/// `/model`'s reply: the models, the current one marked.
fn on_model_info(app: &mut App, i: &ModelInfo) {
    app.model = sanitize(&i.current);
    app.planner = sanitize(&i.planner);
    let list = i
        .models
        .iter()
        .map(|m| {
            if *m == i.current {
                format!("* {m}")
            } else {
                format!("  {m}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    app.transcript.system(
        Level::Info,
        &format!("model {} (planner {}):\n{list}", i.current, i.planner),
    );
}

pub(super) fn on_uploaded(
    app: &mut App,
    path: PathBuf,
    note: String,
    result: Result<FileInfo, String>,
    out: &mut Vec<Command>,
) {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match result {
        Ok(f) => {
            // Received and stored: later index states show on the file's own row.
            app.files
                .uploading
                .retain(|u| u.filename != f.filename && u.filename != name);
            app.notice = None;
            app.transcript.system(
                Level::Ok,
                &format!(
                    "uploaded {} ({}, sha256 {}) id {}",
                    f.filename,
                    human_size(f.size),
                    &f.sha256[..f.sha256.len().min(12)],
                    f.file_id
                ),
            );
            let id = f.file_id.clone();
            match app.files.files.iter_mut().find(|x| x.file_id == id) {
                Some(x) => *x = f,
                None => app.files.files.push(f),
            }
            out.push(Command::Request(Req::FileList));
            if !note.is_empty() {
                if app.turn.is_none() && app.conn == Conn::Connected {
                    send_chat(app, note, vec![id], out);
                } else {
                    // Not lost: the note waits in the editor with the file referenced.
                    app.files.referenced.push(id);
                    app.set_input(&note);
                    app.note(
                        Level::Warn,
                        "a turn is running: your note is in the editor, send it when ready",
                    );
                }
            }
        }
        Err(e) => {
            app.files.uploading.retain(|u| u.filename != name);
            app.transcript.system(
                Level::Error,
                &format!("upload of {} failed: {e}", path.display()),
            );
        }
    }
}
