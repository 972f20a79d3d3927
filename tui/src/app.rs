//! Application state and the one synchronous `update(&mut App, AppEvent) -> Vec<Command>`.
//! Every input (keys, paste, network events, replies, ticks) arrives as an `AppEvent`; keys
//! go through the keymap to `Action`s first. `update` never does network I/O: it returns
//! `Command`s that the executor runs, whose results come back as events.

pub mod dest;
pub mod editing;
pub mod procs;
pub mod quit;
pub mod slash;
pub mod transcript;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::Instant;

use protocol::{
    AgentEventKind, Cancel, DownloadRequest, EndStatus, FileDelete, FileInfo, HistoryGet, Message,
    ModelSet, MonitorSnapshot, MonitorSubscribe, Offer, OfferReject, OutputGet, Req as ReqMsg,
    RequestId, SearchHit, SearchReq, SessionCmd, SessionInfo, SessionOp, TransferProgress,
    UploadStatus, Welcome,
};
use ratatui::crossterm::event::{KeyEvent, KeyEventKind, MouseEvent, MouseEventKind};
use tui_textarea::TextArea;

use crate::browser::Browser;
use crate::client::ClientEvent;
use crate::keymap::{Action, Ctx, InputState, Keymap, Pane};
use crate::sanitize::sanitize;
use crate::theme::Theme;
use slash::Slash;
use transcript::{Level, ToolResult, Transcript};

/// The notice when a message cannot be sent; a reconnect clears it.
pub const NOT_SENT: &str = "未连接，消息没有发送 / not connected: the message was not sent";

/// CPU samples kept for the sparkline.
pub const CPU_HISTORY: usize = 120;

#[derive(Debug)]
pub enum AppEvent {
    Key(KeyEvent),
    Paste(String),
    Mouse(MouseEvent),
    Resize(u16, u16),
    /// Animation tick (only sent while something animates).
    Tick,
    Client(ClientEvent),
    /// The chat command reached the server under this request id.
    TurnStarted(RequestId),
    /// A message of the running turn (from `Client::chat`'s receiver).
    TurnMsg(Message),
    /// The turn's stream ended without STREAM_END (connection lost, send failed).
    TurnLost(String),
    Reply {
        req: Req,
        result: Result<Message, String>,
    },
    Uploaded {
        path: PathBuf,
        note: String,
        result: Result<FileInfo, String>,
    },
    /// Bytes received so far by a download.
    DownloadProgress {
        offer_id: String,
        bytes: u64,
        total: u64,
    },
    Downloaded {
        offer_id: String,
        result: Result<PathBuf, String>,
    },
    /// SIGTERM or SIGHUP: leave cleanly.
    Terminate,
}

/// Requests that expect one reply, correlated by the client.
#[derive(Debug, Clone, PartialEq)]
pub enum Req {
    FileList,
    FileDelete(String),
    Search {
        query: String,
        scope: String,
    },
    Session(SessionOp),
    History,
    ClearHistory,
    ModelList,
    ModelSet(String),
    /// Answered by an OFFER (an event), so the executor only sends it.
    Download(String),
    /// A page of a stored tool output (OUTPUT_GET).
    OutputPage {
        output_id: String,
        offset: u64,
    },
}

impl Req {
    pub fn build(&self, request_id: RequestId) -> Message {
        match self {
            Req::FileList => Message::FileList(ReqMsg { request_id }),
            Req::FileDelete(id) => Message::FileDelete(FileDelete {
                request_id,
                file_id: id.clone(),
            }),
            Req::Search { query, scope } => Message::Search(SearchReq {
                request_id,
                query: query.clone(),
                scope: scope.clone(),
                top_k: 10,
            }),
            Req::Session(op) => Message::SessionCmd(SessionCmd {
                request_id,
                op: op.clone(),
            }),
            Req::History => Message::HistoryGet(HistoryGet {
                request_id,
                limit: Some(200),
            }),
            Req::ClearHistory => Message::ClearHistory(ReqMsg { request_id }),
            Req::ModelList => Message::ModelList(ReqMsg { request_id }),
            Req::ModelSet(m) => Message::ModelSet(ModelSet {
                request_id,
                model: m.clone(),
            }),
            Req::Download(t) => Message::DownloadRequest(DownloadRequest {
                request_id,
                target: t.clone(),
                mode: "auto".into(),
            }),
            Req::OutputPage { output_id, offset } => Message::OutputGet(OutputGet {
                request_id,
                output_id: output_id.clone(),
                offset: *offset,
                count: transcript::PAGE_LINES,
            }),
        }
    }

    fn label(&self) -> &'static str {
        match self {
            Req::FileList => "listing files",
            Req::FileDelete(_) => "deleting the file",
            Req::Search { .. } => "search",
            Req::Session(_) => "session command",
            Req::History => "loading history",
            Req::ClearHistory => "clearing history",
            Req::ModelList => "listing models",
            Req::ModelSet(_) => "switching model",
            Req::Download(_) => "download request",
            Req::OutputPage { .. } => "loading the tool output",
        }
    }
}

/// Work for the executor (network) or the runtime (terminal).
#[derive(Debug, Clone, PartialEq)]
pub enum Command {
    Chat {
        text: String,
        file_ids: Vec<String>,
    },
    Upload {
        path: PathBuf,
        note: String,
    },
    /// Accept an offer and receive the file into `dest` (verified, written atomically;
    /// an existing file there is replaced only with `overwrite`, which the user confirmed).
    Download {
        offer: Offer,
        dest: PathBuf,
        overwrite: bool,
    },
    Request(Req),
    /// Fire-and-forget message (cancel, offer answers, monitor subscription).
    Send(Message),
    /// Remember this session as the last one used on this server (reopened next launch).
    RememberSession(String),
    Quit,
    Suspend,
    Redraw,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Conn {
    Connecting,
    Connected,
    Reconnecting {
        attempt: u32,
        until: Instant,
        reason: String,
    },
}

#[derive(Debug, Clone)]
pub struct Turn {
    pub request_id: Option<RequestId>,
    pub status: String,
    pub cancelling: bool,
}

#[derive(Debug, Clone, Default)]
pub struct FilesPane {
    pub files: Vec<FileInfo>,
    pub selected: usize,
    /// File ids to attach to the next chat message.
    pub referenced: Vec<String>,
    /// Uploads in flight (by file name) with their latest status.
    pub uploading: Vec<UploadStatus>,
}

#[derive(Debug, Clone, Default)]
pub struct SearchPane {
    pub query: String,
    pub scope: String,
    pub hits: Vec<SearchHit>,
    pub selected: usize,
    pub pending: bool,
    /// Hits came from the agent's semantic_search rather than `/search`.
    pub from_agent: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Gauges {
    pub snap: Option<MonitorSnapshot>,
    pub cpu: VecDeque<u64>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum TransferState {
    Offered,
    Accepted,
    Rejected,
    Started {
        mode: String,
    },
    Progress(TransferProgress),
    Done {
        ok: bool,
        error: Option<String>,
    },
    /// Received, sha256 verified against the offer, and renamed into place.
    Saved {
        path: PathBuf,
    },
}

impl Transfer {
    /// Saved, failed or rejected: later progress reports must not change it.
    pub fn finished(&self) -> bool {
        matches!(
            self.state,
            TransferState::Saved { .. } | TransferState::Done { .. } | TransferState::Rejected
        )
    }
}

#[derive(Debug, Clone)]
pub struct Transfer {
    pub offer: Offer,
    pub state: TransferState,
    /// Where the user chose to save it (once accepted).
    pub dest: Option<PathBuf>,
}

/// What a yes/no dialog does on yes.
#[derive(Debug, Clone)]
pub struct Confirm {
    pub prompt: String,
    pub on_yes: Vec<Command>,
}

pub enum Modal {
    Help {
        scroll: u16,
    },
    Confirm(Confirm),
    Offer {
        offer_id: String,
    },
    /// Accepting an offer: the destination path, editable, prefilled with the download
    /// folder and the offered name; `error` says why the last attempt was refused.
    SaveAs {
        offer_id: String,
        input: Box<TextArea<'static>>,
        error: Option<String>,
    },
    /// The chosen destination exists: replace it?
    Overwrite {
        offer_id: String,
        path: PathBuf,
        /// Size of the file that would be replaced.
        existing: Option<u64>,
    },
    /// Progress, window strip and result of an accepted download.
    Transfer {
        offer_id: String,
    },
    Browser(Browser),
    Note {
        path: PathBuf,
        input: Box<TextArea<'static>>,
    },
}

pub struct App {
    pub server: String,
    pub conn: Conn,
    pub welcome: Option<Welcome>,
    pub session_id: String,
    pub session_name: String,
    pub model: String,
    pub planner: String,
    pub egress: String,
    pub transcript: Transcript,
    /// Top line of the transcript view; `None` follows the tail.
    pub scroll: Option<usize>,
    pub input: TextArea<'static>,
    pub history: Vec<String>,
    pub history_pos: Option<usize>,
    pub draft: String,
    pub turn: Option<Turn>,
    pub focus: Pane,
    pub files: FilesPane,
    pub search: SearchPane,
    pub gauges: Gauges,
    /// The processes list of the System pane.
    pub procs: procs::ProcsPane,
    pub transfers: Vec<Transfer>,
    pub transfer_selected: usize,
    pub modal: Option<Modal>,
    pub notice: Option<(Level, String)>,
    pub size: (u16, u16),
    pub keymap: Keymap,
    pub theme: Theme,
    pub spinner: usize,
    /// Monotonic time of the current event (set by the runtime; tests leave it).
    pub now: Instant,
    /// Wall-clock Unix seconds (offer expiry).
    pub unix_now: u64,
    pub gauge_interval_ms: u32,
    pub browse_dir: PathBuf,
    /// Default folder for downloads (the save-as prompt starts here).
    pub download_dir: PathBuf,
    pub quit: bool,
    /// When the first idle Ctrl+C was pressed (a second within 2 s quits).
    pub quit_armed: Option<Instant>,
    connected_once: bool,
}

/// The user's download folder, else home, else the current folder.
pub fn default_download_dir() -> PathBuf {
    dirs::download_dir()
        .or_else(dirs::home_dir)
        .unwrap_or_else(|| PathBuf::from("."))
}

pub fn new_input() -> TextArea<'static> {
    let mut t = TextArea::default();
    t.set_placeholder_text("Type a message, /help for commands…");
    t.set_cursor_line_style(ratatui::style::Style::default());
    t
}

impl App {
    pub fn new(server: &str, theme: Theme) -> App {
        App {
            server: server.to_string(),
            conn: Conn::Connecting,
            welcome: None,
            session_id: String::new(),
            session_name: String::new(),
            model: String::new(),
            planner: String::new(),
            egress: String::new(),
            transcript: Transcript::new(theme.md),
            scroll: None,
            input: new_input(),
            history: Vec::new(),
            history_pos: None,
            draft: String::new(),
            turn: None,
            focus: Pane::Chat,
            files: FilesPane::default(),
            search: SearchPane::default(),
            gauges: Gauges::default(),
            procs: procs::ProcsPane::default(),
            transfers: Vec::new(),
            transfer_selected: 0,
            modal: None,
            notice: None,
            size: (80, 24),
            keymap: Keymap::default(),
            theme,
            spinner: 0,
            now: Instant::now(),
            unix_now: 0,
            gauge_interval_ms: 1000,
            browse_dir: std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/")),
            download_dir: default_download_dir(),
            quit: false,
            quit_armed: None,
            connected_once: false,
        }
    }

    /// Whether a timer should tick (spinner, countdowns); an idle UI gets no ticks.
    pub fn animating(&self) -> bool {
        self.turn.is_some()
            || !self.files.uploading.is_empty()
            || !matches!(self.conn, Conn::Connected)
            || matches!(self.modal, Some(Modal::Offer { .. }))
    }

    pub fn input_text(&self) -> String {
        self.input.lines().join("\n")
    }

    pub fn ctx(&self) -> Ctx {
        match &self.modal {
            Some(Modal::Help { .. }) => Ctx::Help,
            Some(Modal::Confirm(_)) => Ctx::Confirm,
            Some(Modal::Offer { .. }) => Ctx::Offer,
            Some(Modal::SaveAs { .. }) => Ctx::SaveAs,
            Some(Modal::Overwrite { .. }) => Ctx::Confirm,
            Some(Modal::Transfer { .. }) => Ctx::Transfer,
            Some(Modal::Browser(_)) => Ctx::Browser,
            Some(Modal::Note { .. }) => Ctx::Note,
            None => match self.focus {
                Pane::Chat => Ctx::Chat,
                Pane::Files => Ctx::Files,
                Pane::Search => Ctx::Search,
                Pane::Gauges => Ctx::Gauges,
                Pane::Transfers => Ctx::Transfers,
            },
        }
    }

    fn input_state(&self) -> InputState {
        let lines = self.input.lines();
        InputState {
            empty: lines.iter().all(|l| l.is_empty()),
            single_line: lines.len() <= 1,
            slash: lines.first().is_some_and(|l| l.starts_with('/')),
        }
    }

    fn note(&mut self, level: Level, text: impl Into<String>) {
        self.notice = Some((level, sanitize(&text.into())));
    }

    fn set_input(&mut self, text: &str) {
        self.clear_input();
        self.input.insert_str(text);
    }

    /// A fresh editor that keeps what Ctrl+Y would paste.
    fn clear_input(&mut self) {
        let yank = self.input.yank_text();
        self.input = new_input();
        self.input.set_yank_text(yank);
    }

    pub fn offer(&self, id: &str) -> Option<&Transfer> {
        self.transfers.iter().find(|t| t.offer.offer_id == id)
    }

    fn transfer_mut(&mut self, id: &str) -> Option<&mut Transfer> {
        self.transfers.iter_mut().find(|t| t.offer.offer_id == id)
    }
}

/// Applies one event; returns the commands to run.
pub fn update(app: &mut App, ev: AppEvent) -> Vec<Command> {
    let mut out = Vec::new();
    match ev {
        AppEvent::Key(k) => {
            if k.kind != KeyEventKind::Release {
                on_key(app, k, &mut out);
            }
        }
        AppEvent::Paste(s) => on_paste(app, &s),
        AppEvent::Mouse(m) => on_mouse(app, m),
        AppEvent::Resize(w, h) => app.size = (w, h),
        AppEvent::Tick => app.spinner = app.spinner.wrapping_add(1),
        AppEvent::Client(e) => on_client(app, e, &mut out),
        AppEvent::TurnStarted(id) => {
            if let Some(t) = &mut app.turn {
                t.request_id = Some(id);
                if t.cancelling {
                    out.push(cancel_msg(Some(id)));
                }
            }
        }
        AppEvent::TurnMsg(m) => on_turn_msg(app, m),
        AppEvent::TurnLost(reason) => {
            if app.turn.take().is_some() {
                app.transcript
                    .system(Level::Error, &format!("turn interrupted: {reason}"));
            }
        }
        AppEvent::Reply { req, result } => on_reply(app, req, result, &mut out),
        AppEvent::Uploaded { path, note, result } => on_uploaded(app, path, note, result, &mut out),
        AppEvent::DownloadProgress {
            offer_id,
            bytes,
            total,
        } => {
            if let Some(t) = app.transfer_mut(&offer_id).filter(|t| !t.finished()) {
                // Our byte count, merged into the sender's report (window, RTT, loss).
                let mut p = match &t.state {
                    TransferState::Progress(p) => p.clone(),
                    _ => TransferProgress {
                        offer_id: offer_id.clone(),
                        ..Default::default()
                    },
                };
                p.bytes = p.bytes.max(bytes);
                p.total = total;
                t.state = TransferState::Progress(p);
            }
        }
        AppEvent::Downloaded { offer_id, result } => {
            let name = app
                .offer(&offer_id)
                .map(|t| t.offer.filename.clone())
                .unwrap_or_default();
            let state = match result {
                Ok(path) => {
                    app.transcript.system(
                        Level::Ok,
                        &format!("downloaded {name} to {} (sha256 verified)", path.display()),
                    );
                    TransferState::Saved { path }
                }
                Err(e) => {
                    app.transcript
                        .system(Level::Error, &format!("download of {name} failed: {e}"));
                    TransferState::Done {
                        ok: false,
                        error: Some(sanitize(&e)),
                    }
                }
            };
            if let Some(t) = app.transfer_mut(&offer_id) {
                t.state = state;
            }
        }
        AppEvent::Terminate => {
            app.quit = true;
            out.push(Command::Quit);
        }
    }
    out
}

/// Enter on an empty input: opens (or pages, or closes) the stored output of the lowest
/// tool entry in view that has one.
fn open_output(app: &mut App, out: &mut Vec<Command>) {
    let (w, h) = crate::ui::transcript_size(app);
    let total = crate::ui::chat::line_count(app, w);
    let top = app
        .scroll
        .map_or(total.saturating_sub(h), |t| t.min(total.saturating_sub(h)));
    let target = crate::ui::chat::visible_entries(app, w, top, h)
        .into_iter()
        .rev()
        .find(|&i| app.transcript.has_output(i));
    match target {
        Some(i) => {
            if let Some((output_id, offset)) = app.transcript.open_output(i) {
                out.push(Command::Request(Req::OutputPage { output_id, offset }));
            }
        }
        None => app.note(
            Level::Info,
            "no folded tool output in view: scroll to one (PageUp) and press Enter",
        ),
    }
}

fn cancel_msg(id: Option<RequestId>) -> Command {
    Command::Send(Message::Cancel(Cancel { request_id: id }))
}

fn on_paste(app: &mut App, s: &str) {
    // Pasted text keeps its newlines but loses control sequences and carriage returns.
    let clean = sanitize(&s.replace("\r\n", "\n").replace('\r', "\n"));
    match &mut app.modal {
        Some(Modal::Note { input, .. }) | Some(Modal::SaveAs { input, .. }) => {
            input.insert_str(clean.replace('\n', " "));
        }
        Some(Modal::Browser(b)) => {
            for c in clean.chars().filter(|c| !c.is_control()) {
                b.type_char(c);
            }
        }
        Some(_) => {}
        None => {
            app.focus = Pane::Chat;
            app.input.insert_str(clean);
        }
    }
}

fn on_mouse(app: &mut App, m: MouseEvent) {
    match m.kind {
        MouseEventKind::ScrollUp => scroll_by(app, -3),
        MouseEventKind::ScrollDown => scroll_by(app, 3),
        _ => {}
    }
}

/// Transcript metrics for scrolling: (total wrapped lines, view height).
fn chat_metrics(app: &App) -> (usize, usize) {
    let (w, h) = crate::ui::transcript_size(app);
    (crate::ui::chat::line_count(app, w), h)
}

fn scroll_by(app: &mut App, delta: isize) {
    let (total, h) = chat_metrics(app);
    let max_top = total.saturating_sub(h);
    let top = app.scroll.unwrap_or(max_top).min(max_top);
    let new = top.saturating_add_signed(delta).min(max_top);
    app.scroll = if new >= max_top { None } else { Some(new) };
}

fn page(app: &App) -> isize {
    let (_, h) = crate::ui::transcript_size(app);
    h.saturating_sub(2).max(1) as isize
}

fn on_key(app: &mut App, key: KeyEvent, out: &mut Vec<Command>) {
    let ctx = app.ctx();
    let st = app.input_state();
    let action = app.keymap.lookup(ctx, &key, &st);
    if action != Some(Action::Interrupt) {
        app.quit_armed = None;
    }
    match action {
        Some(a) => on_action(app, a, out),
        None => match &mut app.modal {
            Some(Modal::Note { input, .. }) => {
                input.input(key);
            }
            Some(Modal::SaveAs { input, error, .. }) => {
                // One line only: Enter is bound (confirm), so input never gets a newline.
                if input.input(key) {
                    *error = None;
                }
            }
            Some(Modal::Browser(b)) => {
                use ratatui::crossterm::event::{KeyCode, KeyModifiers};
                let plain = !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                match key.code {
                    KeyCode::Char(c) if plain => b.type_char(c),
                    KeyCode::Backspace => b.backspace(),
                    _ => {}
                }
            }
            Some(_) => {}
            None => {
                use ratatui::crossterm::event::{KeyCode, KeyModifiers};
                let printable = matches!(key.code, KeyCode::Char(_))
                    && !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                // Typing in the System pane filters its processes.
                if app.focus == Pane::Gauges {
                    match key.code {
                        KeyCode::Char(c) if printable => return procs::type_char(app, c),
                        KeyCode::Backspace => return procs::backspace(app),
                        _ => {}
                    }
                }
                // Typing in another side pane goes to the chat editor rather than nowhere.
                if app.focus != Pane::Chat && printable {
                    app.focus = Pane::Chat;
                }
                if app.focus == Pane::Chat {
                    app.history_pos = None;
                    app.input.input(key);
                }
            }
        },
    }
}

fn on_action(app: &mut App, a: Action, out: &mut Vec<Command>) {
    match a {
        Action::Interrupt => quit::interrupt(app, out),
        Action::Suspend => out.push(Command::Suspend),
        Action::Redraw => out.push(Command::Redraw),
        Action::Help => app.modal = Some(Modal::Help { scroll: 0 }),
        Action::FocusNext | Action::FocusPrev => {
            let i = Pane::ALL.iter().position(|p| *p == app.focus).unwrap_or(0);
            let n = Pane::ALL.len();
            let j = if a == Action::FocusNext {
                (i + 1) % n
            } else {
                (i + n - 1) % n
            };
            app.focus = Pane::ALL[j];
        }
        Action::Focus(p) => {
            app.focus = p;
            if p == Pane::Files && app.files.files.is_empty() {
                out.push(Command::Request(Req::FileList));
            }
        }
        Action::Send => match app.modal.take() {
            Some(Modal::Note { path, input }) => {
                let note = input.lines().join(" ").trim().to_string();
                start_upload(app, path, note, out);
            }
            Some(Modal::SaveAs {
                offer_id, input, ..
            }) => {
                let typed = input.lines().join("");
                confirm_destination(app, offer_id, &typed, *input, out);
            }
            other => {
                app.modal = other;
                submit(app, out);
            }
        },
        Action::Newline => {
            app.input.insert_newline();
        }
        Action::HistoryPrev => history_step(app, -1),
        Action::HistoryNext => history_step(app, 1),
        Action::Complete => editing::complete(app),
        Action::ToggleSort => procs::toggle_sort(app),
        Action::AskAbout => procs::ask(app, out),
        Action::ClearFilter => procs::escape(app),
        Action::Edit(e) => editing::edit(app, e),
        Action::PageUp | Action::PageDown | Action::ScrollUp | Action::ScrollDown => {
            if let Some(Modal::Help { scroll }) = &mut app.modal {
                *scroll = match a {
                    Action::PageUp => scroll.saturating_sub(10),
                    Action::PageDown => scroll.saturating_add(10),
                    Action::ScrollUp => scroll.saturating_sub(1),
                    _ => scroll.saturating_add(1),
                };
            } else {
                let p = page(app);
                let d = match a {
                    Action::PageUp => -p,
                    Action::PageDown => p,
                    Action::ScrollUp => -1,
                    _ => 1,
                };
                scroll_by(app, d);
            }
        }
        Action::Top => {
            let (total, h) = chat_metrics(app);
            app.scroll = (total > h).then_some(0);
        }
        Action::Bottom => app.scroll = None,
        Action::ToggleTools => {
            app.transcript.tools_expanded = !app.transcript.tools_expanded;
        }
        Action::OpenOutput => open_output(app, out),
        Action::Close => match app.modal.take() {
            Some(Modal::Note { path, .. }) => {
                app.note(
                    Level::Info,
                    format!("upload of {} cancelled", path.display()),
                );
            }
            Some(Modal::Offer { offer_id }) => {
                app.note(
                    Level::Info,
                    format!("offer {offer_id} is waiting in the Transfers pane (Alt+5)"),
                );
            }
            // Back from the path prompt to the offer: nothing was accepted yet.
            Some(Modal::SaveAs { offer_id, .. }) => app.modal = Some(Modal::Offer { offer_id }),
            Some(Modal::Transfer { .. }) => {
                app.note(
                    Level::Info,
                    "the download continues in the Transfers pane (Alt+5)",
                );
            }
            Some(_) => {}
            None => app.notice = None,
        },
        Action::Up | Action::Down => select_step(app, if a == Action::Up { -1 } else { 1 }),
        Action::Reference => {
            if let Some(f) = app.files.files.get(app.files.selected) {
                let id = f.file_id.clone();
                let name = f.filename.clone();
                if let Some(i) = app.files.referenced.iter().position(|r| *r == id) {
                    app.files.referenced.remove(i);
                    app.note(Level::Info, format!("{name} will not be referenced"));
                } else {
                    app.files.referenced.push(id);
                    app.note(
                        Level::Info,
                        format!("{name} will be referenced by your next message"),
                    );
                }
            }
        }
        Action::Delete => {
            if let Some(f) = app.files.files.get(app.files.selected) {
                app.modal = Some(Modal::Confirm(Confirm {
                    prompt: format!(
                        "Delete the upload {} ({}) and its index entries?",
                        sanitize(&f.filename),
                        short(&f.file_id)
                    ),
                    on_yes: vec![Command::Request(Req::FileDelete(f.file_id.clone()))],
                }));
            }
        }
        Action::Download => {
            if let Some(f) = app.files.files.get(app.files.selected) {
                out.push(Command::Request(Req::Download(f.file_id.clone())));
                app.note(
                    Level::Info,
                    format!("asking for a download offer of {}", sanitize(&f.filename)),
                );
            }
        }
        Action::OpenBrowser => {
            app.modal = Some(Modal::Browser(Browser::open(&app.browse_dir)));
        }
        Action::Refresh => out.push(Command::Request(Req::FileList)),
        Action::Accept | Action::Reject => {
            if let Some(Modal::Offer { offer_id }) = app.modal.take() {
                if a == Action::Accept {
                    ask_destination(app, offer_id, None);
                } else {
                    answer_offer(app, &offer_id, false, None, out);
                }
            }
        }
        Action::Yes => match app.modal.take() {
            Some(Modal::Confirm(c)) => out.extend(c.on_yes),
            Some(Modal::Overwrite { offer_id, path, .. }) => {
                answer_offer(app, &offer_id, true, Some((path, true)), out);
            }
            other => app.modal = other,
        },
        Action::No => match app.modal.take() {
            Some(Modal::Confirm(_)) => app.note(Level::Info, "cancelled"),
            Some(Modal::Overwrite { offer_id, path, .. }) => {
                // Back to the prompt with the same path, to pick another name.
                ask_destination(app, offer_id, Some(path.display().to_string()));
            }
            other => app.modal = other,
        },
        Action::Open => {
            if let Some(Modal::Browser(b)) = &mut app.modal {
                if let Some(path) = b.enter() {
                    app.browse_dir = b.dir.clone();
                    let mut input = TextArea::default();
                    input.set_placeholder_text("optional: what should the agent do with it?");
                    input.set_cursor_line_style(ratatui::style::Style::default());
                    app.modal = Some(Modal::Note {
                        path,
                        input: Box::new(input),
                    });
                }
            }
        }
        Action::Parent => {
            if let Some(Modal::Browser(b)) = &mut app.modal {
                b.parent();
            }
        }
        Action::ToggleHidden => {
            if let Some(Modal::Browser(b)) = &mut app.modal {
                b.toggle_hidden();
            }
        }
        Action::ShowOffer => {
            if let Some(t) = app.transfers.get(app.transfer_selected) {
                let offer_id = t.offer.offer_id.clone();
                app.modal = Some(match t.state {
                    TransferState::Offered => Modal::Offer { offer_id },
                    // Anything else has a progress or result to look at.
                    _ => Modal::Transfer { offer_id },
                });
            }
        }
    }
}

fn select_step(app: &mut App, d: isize) {
    let step = |i: usize, n: usize| -> usize {
        if n == 0 {
            0
        } else {
            i.saturating_add_signed(d).min(n - 1)
        }
    };
    if let Some(Modal::Browser(b)) = &mut app.modal {
        if d < 0 {
            b.up()
        } else {
            b.down()
        }
        return;
    }
    match app.focus {
        Pane::Files => app.files.selected = step(app.files.selected, app.files.files.len()),
        Pane::Search => app.search.selected = step(app.search.selected, app.search.hits.len()),
        Pane::Transfers => app.transfer_selected = step(app.transfer_selected, app.transfers.len()),
        Pane::Gauges => procs::step(app, d),
        Pane::Chat => {}
    }
}

fn history_step(app: &mut App, d: isize) {
    if app.history.is_empty() {
        return;
    }
    let n = app.history.len();
    let pos = match (app.history_pos, d < 0) {
        (None, true) => {
            app.draft = app.input_text();
            Some(n - 1)
        }
        (None, false) => None,
        (Some(p), true) => Some(p.saturating_sub(1)),
        (Some(p), false) if p + 1 < n => Some(p + 1),
        (Some(_), false) => None,
    };
    app.history_pos = pos;
    let text = match pos {
        Some(p) => app.history[p].clone(),
        None => std::mem::take(&mut app.draft),
    };
    app.set_input(&text);
}

fn cancel_turn(app: &mut App, out: &mut Vec<Command>) {
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

fn submit(app: &mut App, out: &mut Vec<Command>) {
    let text = app.input_text();
    if text.trim().is_empty() {
        return;
    }
    let is_cmd = text.starts_with('/') && !text.starts_with("//") && !slash::is_path_message(&text);
    if !is_cmd {
        // Keep the text in the editor when it cannot be sent now.
        if app.turn.is_some() {
            app.note(
                Level::Warn,
                "a turn is running: wait for it or press Ctrl+C to cancel",
            );
            return;
        }
        if app.conn != Conn::Connected {
            app.note(Level::Warn, NOT_SENT);
            return;
        }
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
            Err(e) => app.note(Level::Error, e),
        }
    } else {
        let text = text
            .strip_prefix('/')
            .filter(|_| text.starts_with("//"))
            .unwrap_or(&text);
        send_chat(app, text.to_string(), Vec::new(), out);
    }
}

fn send_chat(app: &mut App, text: String, extra: Vec<String>, out: &mut Vec<Command>) {
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

fn start_upload(app: &mut App, path: PathBuf, note: String, out: &mut Vec<Command>) {
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
        Slash::Sessions => req(out, Req::Session(SessionOp::List)),
        Slash::New => req(out, Req::Session(SessionOp::New { name: None })),
        Slash::Switch(id) => req(out, Req::Session(SessionOp::Switch { id })),
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
        Slash::Quit => {
            app.quit = true;
            out.push(Command::Quit);
        }
    }
}

/// Opens the save-as prompt for an offer, prefilled with `path` or the default location.
fn ask_destination(app: &mut App, offer_id: String, path: Option<String>) {
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
fn confirm_destination(
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
fn answer_offer(
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

fn on_client(app: &mut App, e: ClientEvent, out: &mut Vec<Command>) {
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
            out.push(Command::Send(Message::MonitorSubscribe(MonitorSubscribe {
                interval_ms: app.gauge_interval_ms,
            })));
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
        ClientEvent::Message(m) => on_message(app, m),
    }
}

fn on_message(app: &mut App, m: Message) {
    match m {
        Message::UploadStatus(s) => upload_status(app, s),
        Message::SearchResults(r) => {
            app.search.from_agent = r
                .request_id
                .is_some_and(|id| app.turn.as_ref().and_then(|t| t.request_id) == Some(id))
                || r.request_id.is_none();
            set_search(app, r.query, r.scope, r.results);
        }
        Message::MonitorSnapshot(s) => {
            app.gauges
                .cpu
                .push_back(s.cpu.usage_percent.clamp(0.0, 100.0).round() as u64);
            while app.gauges.cpu.len() > CPU_HISTORY {
                app.gauges.cpu.pop_front();
            }
            app.gauges.snap = Some(s);
        }
        Message::Offer(o) => {
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
                Some(Modal::Transfer { offer_id }) => {
                    app.offer(offer_id).is_some_and(Transfer::finished)
                }
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
        Message::TransferComplete(c) => {
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

fn upload_status(app: &mut App, s: UploadStatus) {
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

fn on_turn_msg(app: &mut App, m: Message) {
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
        Message::StreamEnd(e) if Some(e.request_id) == id => {
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
        }
        Message::Error(e) if e.request_id == id => {
            app.transcript.system(
                Level::Error,
                &format!("the server refused the message ({}): {}", e.code, e.message),
            );
            app.turn = None;
        }
        // Search hits and offers also arrive as client events; handled there.
        _ => {}
    }
}

fn on_reply(app: &mut App, req: Req, result: Result<Message, String>, out: &mut Vec<Command>) {
    let m = match result {
        Ok(m) => m,
        Err(e) => {
            if matches!(req, Req::Search { .. }) {
                app.search.pending = false;
            }
            if let Req::OutputPage { output_id, .. } = &req {
                app.transcript.output_failed(output_id);
            }
            app.transcript
                .system(Level::Error, &format!("{} failed: {e}", req.label()));
            return;
        }
    };
    match m {
        Message::FileListReply(r) => {
            app.files.files = r.files;
            clamp_files(app);
        }
        Message::Ack(a) => {
            match &req {
                Req::ClearHistory => app.transcript.clear(),
                Req::FileDelete(id) => {
                    app.files.files.retain(|f| f.file_id != *id);
                    clamp_files(app);
                }
                _ => {}
            }
            app.transcript.system(Level::Ok, &a.message);
        }
        Message::SessionReply(r) => {
            if r.current.id != app.session_id && !r.current.id.is_empty() {
                out.push(Command::RememberSession(r.current.id.clone()));
            }
            set_session(app, &r.current);
            match r.op.as_str() {
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
                    app.files = FilesPane::default();
                    app.scroll = None;
                    app.transcript.system(
                        Level::Ok,
                        &format!("session {} ({})", r.current.name, short(&r.current.id)),
                    );
                    if r.op == "switch" {
                        out.push(Command::Request(Req::History));
                    }
                    out.push(Command::Request(Req::FileList));
                }
                "delete" => app.transcript.system(Level::Ok, "session deleted"),
                "rename" => app
                    .transcript
                    .system(Level::Ok, &format!("session renamed to {}", r.current.name)),
                _ => {}
            }
        }
        Message::History(h) => {
            app.transcript.load_history(&h.messages);
            app.scroll = None;
            if h.messages.is_empty() {
                app.transcript
                    .system(Level::Info, "no history in this session yet");
            }
        }
        Message::ModelInfo(i) => {
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
        Message::SearchResults(r) => {
            app.search.from_agent = false;
            set_search(app, r.query, r.scope, r.results);
        }
        Message::OutputPage(p) => app.transcript.output_page(&p),
        _ => {}
    }
}

fn on_uploaded(
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

/// First 8 characters of an id.
pub fn short(id: &str) -> &str {
    match id.char_indices().nth(8) {
        Some((i, _)) => &id[..i],
        None => id,
    }
}

pub fn human_size(n: u64) -> String {
    const U: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = n as f64;
    let mut i = 0;
    while v >= 1024.0 && i < U.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 {
        format!("{n} B")
    } else {
        format!("{v:.1} {}", U[i])
    }
}

#[cfg(test)]
mod output_tests;
#[cfg(test)]
pub(crate) mod tests;
