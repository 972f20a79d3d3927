//! Application state and the one synchronous `update(&mut App, AppEvent) -> Vec<Command>`.
//! Every input (keys, paste, network events, replies, ticks) arrives as an `AppEvent`; keys
//! go through the keymap to `Action`s first. `update` never does network I/O: it returns
//! `Command`s that the executor runs, whose results come back as events.

pub mod approval;
pub mod dest;
pub mod editing;
pub mod hits;
mod keys;
pub mod pager;
pub mod picker;
pub mod process;
pub mod procs;
pub mod quit;
mod server;
pub mod session;
pub mod slash;
mod submit;
pub mod transcript;
mod turn;
pub mod watch;

use std::collections::VecDeque;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use protocol::{
    DownloadRequest, FileDelete, FileInfo, HistoryGet, Message, ModelSet, MonitorSnapshot, Offer,
    OutputGet, Req as ReqMsg, RequestId, SearchHit, SearchReq, SessionCmd, SessionOp,
    TransferProgress, UploadStatus, Welcome,
};
use ratatui::crossterm::event::{KeyEvent, KeyEventKind, MouseEvent};
use tui_textarea::TextArea;

use crate::browser::Browser;
use crate::client::ClientEvent;
use crate::keymap::{Ctx, InputState, Keymap, Pane};
use crate::sanitize::sanitize;
use crate::theme::Theme;
use keys::{on_key, on_mouse, on_paste};
use server::{on_client, on_reply, on_turn_msg, on_uploaded};
use transcript::{Level, Transcript};
use turn::cancel_msg;

/// The notice when a message cannot be sent; a reconnect clears it.
pub const NOT_SENT: &str = "未连接，消息没有发送 / not connected: the message was not sent";

/// Samples kept for the sparklines (the server's five minutes at one a second).
pub const HISTORY_POINTS: usize = 300;

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
    /// The sha256 of a file about to be uploaded (the session may have it already).
    UploadHashed {
        path: PathBuf,
        note: String,
        result: Result<String, String>,
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
    /// The current session's row, quietly (the status bar's title after a first question).
    SessionTitle,
    /// Lines of a file around a search hit (FILE_REGION), 1-based and inclusive.
    FileRegion {
        target: String,
        first_line: u64,
        last_line: u64,
    },
    /// A page of a stored tool output (OUTPUT_GET).
    OutputPage {
        output_id: String,
        offset: u64,
    },
    /// The standing grants this session sees (GRANTS_LIST).
    Grants,
    /// Revoke a standing grant (GRANT_REVOKE).
    GrantRevoke(String),
    /// The details of a process (PROCESS_GET).
    Process(u32),
    /// One run of the watch on this text (WATCH_RUN).
    Watch(String),
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
            Req::SessionTitle => Message::SessionCmd(SessionCmd {
                request_id,
                op: SessionOp::List,
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
            Req::FileRegion {
                target,
                first_line,
                last_line,
            } => Message::FileRegion(protocol::FileRegion {
                request_id,
                target: target.clone(),
                first_line: *first_line,
                last_line: *last_line,
            }),
            Req::OutputPage { output_id, offset } => Message::OutputGet(OutputGet {
                request_id,
                output_id: output_id.clone(),
                offset: *offset,
                count: transcript::PAGE_LINES,
            }),
            Req::Grants => Message::GrantsList(ReqMsg { request_id }),
            Req::GrantRevoke(id) => Message::GrantRevoke(protocol::GrantRevoke {
                request_id,
                grant_id: id.clone(),
            }),
            Req::Process(pid) => Message::ProcessGet(protocol::ProcessGet {
                request_id,
                pid: *pid,
            }),
            Req::Watch(text) => Message::WatchRun(protocol::WatchRun {
                request_id,
                text: text.clone(),
            }),
        }
    }

    fn label(&self) -> &'static str {
        match self {
            Req::FileList => "listing files",
            Req::FileDelete(_) => "deleting the file",
            Req::Search { .. } => "search",
            Req::Session(_) => "session command",
            Req::SessionTitle => "refreshing the session title",
            Req::History => "loading history",
            Req::ClearHistory => "clearing history",
            Req::ModelList => "listing models",
            Req::ModelSet(_) => "switching model",
            Req::Download(_) => "download request",
            Req::FileRegion { .. } => "reading the file region",
            Req::OutputPage { .. } => "loading the tool output",
            Req::Grants => "listing standing grants",
            Req::GrantRevoke(_) => "revoking the grant",
            Req::Process(_) => "reading the process",
            Req::Watch(_) => "the watch run",
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
    /// A turn whose one step proposes exactly `argv` for approval (`text` says it in words).
    Propose {
        text: String,
        argv: Vec<String>,
    },
    /// Hash a local file before uploading it (`AppEvent::UploadHashed` follows).
    Upload {
        path: PathBuf,
        note: String,
    },
    /// Upload a local file (checked against this session's uploads first).
    UploadChecked {
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
    /// Put this text on the system clipboard (OSC 52 to the terminal).
    Clipboard(String),
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
    /// The last `/search` ran while uploads of this session were not yet searchable: it is
    /// run again when one becomes so (an upload's result comes once the file is saved;
    /// indexing follows).
    pub awaiting_index: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Gauges {
    pub snap: Option<MonitorSnapshot>,
    /// The recent samples, oldest first (the server's history, then one per snapshot).
    pub history: VecDeque<protocol::HistoryPoint>,
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
    /// Full-screen reading of a tool output, answer, the transcript or a search hit.
    Pager(Box<pager::Pager>),
    /// The `/sessions` picker.
    Sessions(Box<picker::Picker>),
    /// A mistyped command: run the close one, or send the text as a message?
    DidYouMean {
        text: String,
        suggestion: &'static str,
    },
    /// The first pending approval request (`App::approvals`).
    Approval,
    /// The `/grants` list.
    Grants(approval::GrantsView),
    /// The details of one process.
    Process(Box<process::ProcessView>),
    /// Which signal to propose for a process.
    Signal(process::SignalMenu),
    /// The running `/watch` (`App::watch`).
    Watch,
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
    /// When the notice goes away on its own.
    pub notice_until: Option<Instant>,
    /// The running `/watch`.
    pub watch: Option<watch::WatchState>,
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
    /// The transcript entry selected with Alt+Up/Down (Enter opens it in the pager).
    pub selected: Option<usize>,
    /// Where copied text is also written (`clipboard.txt`), for terminals without OSC 52.
    pub clip_dir: PathBuf,
    /// A `/new` or `/switch` on its way (a question typed meanwhile waits for it).
    pub session_change: Option<session::SessionChange>,
    /// Approval requests waiting for the operator.
    pub approvals: approval::ApprovalQueue,
    connected_once: bool,
}

/// The XDG state folder for llmops (else the cache folder, else the temp folder).
pub fn default_state_dir() -> PathBuf {
    dirs::state_dir()
        .or_else(dirs::cache_dir)
        .unwrap_or_else(std::env::temp_dir)
        .join("llmops")
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
            notice_until: None,
            watch: None,
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
            selected: None,
            clip_dir: default_state_dir(),
            session_change: None,
            approvals: approval::ApprovalQueue::default(),
            connected_once: false,
        }
    }

    /// The next moment the state changes by itself (a notice expires, a watch run is due),
    /// for the runtime to wake at; nothing ticks between.
    pub fn next_deadline(&self) -> Option<Instant> {
        let watch = self.watch.as_ref().and_then(|w| w.next_at);
        [self.notice_until, watch].into_iter().flatten().min()
    }

    /// Whether a timer should tick (spinner, countdowns); an idle UI gets no ticks.
    pub fn animating(&self) -> bool {
        self.turn.is_some()
            || !self.files.uploading.is_empty()
            || !matches!(self.conn, Conn::Connected)
            || matches!(
                self.modal,
                Some(Modal::Offer { .. }) | Some(Modal::Approval)
            )
    }

    /// Whether the server announced `feature` in WELCOME (older servers lack the newer ones).
    pub fn server_has(&self, feature: &str) -> bool {
        self.welcome
            .as_ref()
            .is_some_and(|w| w.features.iter().any(|f| f == feature))
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
            Some(Modal::Pager(p)) if p.prompt.is_some() => Ctx::PagerPrompt,
            Some(Modal::Pager(_)) => Ctx::Pager,
            Some(Modal::Sessions(p)) if p.confirm_delete.is_some() => Ctx::Confirm,
            Some(Modal::Sessions(p)) if p.rename.is_some() => Ctx::Rename,
            Some(Modal::Sessions(_)) => Ctx::Picker,
            Some(Modal::DidYouMean { .. }) => Ctx::DidYouMean,
            Some(Modal::Approval) => Ctx::Approval,
            Some(Modal::Grants(_)) => Ctx::Grants,
            Some(Modal::Process(_)) => Ctx::Process,
            Some(Modal::Signal(_)) => Ctx::Signal,
            Some(Modal::Watch) => Ctx::Watch,
            None if self.focus == Pane::Gauges && self.procs.filtering => Ctx::ProcFilter,
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

    /// Shows a notice that goes away on its own after a while (longer for problems).
    fn note(&mut self, level: Level, text: impl Into<String>) {
        let ttl = match level {
            Level::Info | Level::Ok => NOTICE_SECS,
            Level::Warn | Level::Error => NOTICE_SECS * 2,
        };
        self.note_for(level, text, Duration::from_secs(ttl));
    }

    /// A notice shown for `ttl`.
    fn note_for(&mut self, level: Level, text: impl Into<String>, ttl: Duration) {
        self.notice = Some((level, sanitize(&text.into())));
        self.notice_until = Some(self.now + ttl);
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

/// How long an informational notice stays (problems stay twice as long).
pub const NOTICE_SECS: u64 = 6;

/// Applies one event; returns the commands to run.
pub fn update(app: &mut App, ev: AppEvent) -> Vec<Command> {
    let mut out = Vec::new();
    if app.notice_until.is_some_and(|t| app.now >= t) {
        app.notice = None;
        app.notice_until = None;
    }
    match ev {
        AppEvent::Key(k) => {
            if k.kind != KeyEventKind::Release {
                on_key(app, k, &mut out);
            }
        }
        AppEvent::Paste(s) => on_paste(app, &s),
        AppEvent::Mouse(m) => on_mouse(app, m),
        AppEvent::Resize(w, h) => app.size = (w, h),
        AppEvent::Tick => {
            app.spinner = app.spinner.wrapping_add(1);
            watch::on_tick(app, &mut out);
        }
        AppEvent::Client(e) => on_client(app, e, &mut out),
        AppEvent::TurnStarted(id) => {
            if let Some(t) = &mut app.turn {
                t.request_id = Some(id);
                if t.cancelling {
                    out.push(cancel_msg(Some(id)));
                }
            }
        }
        AppEvent::TurnMsg(m) => on_turn_msg(app, m, &mut out),
        AppEvent::TurnLost(reason) => {
            if app.turn.take().is_some() {
                app.transcript
                    .system(Level::Error, &format!("turn interrupted: {reason}"));
            }
        }
        AppEvent::Reply { req, result } => on_reply(app, req, result, &mut out),
        AppEvent::UploadHashed { path, note, result } => {
            submit::on_hashed(app, path, note, result, &mut out)
        }
        AppEvent::Uploaded { path, note, result } => on_uploaded(app, path, note, result, &mut out),
        AppEvent::DownloadProgress {
            offer_id,
            bytes,
            total,
        } => on_download_progress(app, offer_id, bytes, total),
        AppEvent::Downloaded { offer_id, result } => on_downloaded(app, offer_id, result),
        AppEvent::Terminate => {
            app.quit = true;
            out.push(Command::Quit);
        }
    }
    // A pending approval comes back as soon as nothing else is on screen.
    approval::open_next(app);
    out
}

/// Bytes of our download so far.
fn on_download_progress(app: &mut App, offer_id: String, bytes: u64, total: u64) {
    if let Some(t) = app.transfer_mut(&offer_id).filter(|t| !t.finished()) {
        // Our byte count, merged into the sender's report (window, RTT, loss).
        let mut p = match &t.state {
            TransferState::Progress(p) => p.clone(),
            _ => TransferProgress {
                offer_id,
                ..Default::default()
            },
        };
        p.bytes = p.bytes.max(bytes);
        p.total = total;
        t.state = TransferState::Progress(p);
    }
}

/// Our download ended: saved (and verified) or failed.
fn on_downloaded(app: &mut App, offer_id: String, result: Result<PathBuf, String>) {
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

/// First 8 characters of an id.
pub fn short(id: &str) -> &str {
    match id.char_indices().nth(8) {
        Some((i, _)) => &id[..i],
        None => id,
    }
}

pub use llmops_common::human_size;

#[cfg(test)]
mod output_tests;
#[cfg(test)]
pub(crate) mod tests;
