//! The interactive runtime: terminal setup and restore (also on panic, SIGTERM, SIGHUP and
//! around Ctrl+Z), the workers that only send `AppEvent`s (terminal input, signals, the
//! network actor's events), the executor that runs `Command`s against the `Client`, and the
//! loop that feeds `update` and redraws only when something changed, at most ~30 times a
//! second. An idle UI sleeps in `select!` with no timer armed.

use std::io::{stdout, Stdout, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use futures::StreamExt;
use protocol::{Message, Offer};
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture, Event,
    EventStream, KeyboardEnhancementFlags, PopKeyboardEnhancementFlags,
    PushKeyboardEnhancementFlags,
};
use ratatui::crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, supports_keyboard_enhancement, EnterAlternateScreen,
    LeaveAlternateScreen,
};
use ratatui::crossterm::{cursor, execute};
use ratatui::Terminal;
use tokio::sync::{mpsc, watch};

use crate::app::{update, App, AppEvent, Command, Req};
use crate::cli::Common;
use crate::client::{Client, ClientEvent, ClientOptions};
use crate::config::Config;
use crate::theme::Theme;

/// Hands transfer messages of accepted offers to their receiving tasks. Raw data frames go
/// only there (never through `update`); start, progress and completion also reach the UI.
#[derive(Clone, Default)]
struct Router(Arc<Mutex<Vec<Route>>>);

struct Route {
    offer_id: String,
    started: bool,
    tx: mpsc::UnboundedSender<ClientEvent>,
}

impl Router {
    fn add(&self, offer_id: &str) -> mpsc::UnboundedReceiver<ClientEvent> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.lock().push(Route {
            offer_id: offer_id.to_string(),
            started: false,
            tx,
        });
        rx
    }

    fn remove(&self, offer_id: &str) {
        self.lock().retain(|r| r.offer_id != offer_id);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Route>> {
        self.0.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Returns true when the event was consumed (data frames).
    fn route(&self, ev: &ClientEvent) -> bool {
        let mut routes = self.lock();
        if routes.is_empty() {
            return false;
        }
        let to = |r: &Route| {
            let _ = r.tx.send(ev.clone());
        };
        match ev {
            ClientEvent::Message(Message::TransferData(_)) => {
                // One transfer streams on the connection at a time: the first started one.
                if let Some(r) = routes.iter().find(|r| r.started) {
                    to(r);
                }
                true
            }
            ClientEvent::Message(Message::TransferStart(s)) => {
                if let Some(r) = routes.iter_mut().find(|r| r.offer_id == s.offer_id) {
                    r.started = true;
                    to(r);
                }
                false
            }
            ClientEvent::Message(Message::TransferProgress(p)) => {
                routes
                    .iter()
                    .filter(|r| r.offer_id == p.offer_id)
                    .for_each(to);
                false
            }
            ClientEvent::Message(Message::TransferComplete(c)) => {
                routes
                    .iter()
                    .filter(|r| r.offer_id == c.offer_id)
                    .for_each(to);
                false
            }
            ClientEvent::Message(Message::Error(_)) | ClientEvent::Reconnecting { .. } => {
                routes.iter().for_each(to);
                false
            }
            _ => false,
        }
    }
}

/// Minimum time between two frames (~30 fps).
const FRAME: Duration = Duration::from_millis(33);
/// Spinner and countdown rate, only while something animates.
const TICK: Duration = Duration::from_millis(100);

static MOUSE: AtomicBool = AtomicBool::new(false);
static KEYBOARD_FLAGS: AtomicBool = AtomicBool::new(false);

fn enter_terminal() -> std::io::Result<()> {
    enable_raw_mode()?;
    let mut out = stdout();
    execute!(out, EnterAlternateScreen, EnableBracketedPaste)?;
    if MOUSE.load(Ordering::Relaxed) {
        execute!(out, EnableMouseCapture)?;
    }
    // Lets terminals that support it report Shift+Enter distinctly.
    if supports_keyboard_enhancement().unwrap_or(false) {
        execute!(
            out,
            PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES)
        )?;
        KEYBOARD_FLAGS.store(true, Ordering::Relaxed);
    }
    Ok(())
}

/// Puts the terminal back; safe to call more than once and from the panic hook.
pub fn restore_terminal() {
    let mut out = stdout();
    if KEYBOARD_FLAGS.swap(false, Ordering::Relaxed) {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    if MOUSE.load(Ordering::Relaxed) {
        let _ = execute!(out, DisableMouseCapture);
    }
    let _ = execute!(
        out,
        DisableBracketedPaste,
        LeaveAlternateScreen,
        cursor::Show
    );
    let _ = disable_raw_mode();
    let _ = out.flush();
}

fn install_panic_hook() {
    let prev = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore_terminal();
        prev(info);
    }));
}

/// Logs go to a file (never the screen): `$XDG_STATE_HOME/llmops/tui.log`.
fn init_logging() {
    let Some(dir) = dirs::state_dir()
        .or_else(dirs::cache_dir)
        .map(|d| d.join("llmops"))
    else {
        return;
    };
    if std::fs::create_dir_all(&dir).is_err() {
        return;
    }
    let Ok(file) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(dir.join("tui.log"))
    else {
        return;
    };
    let filter = tracing_subscriber::EnvFilter::try_from_env("LLMOPS_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .with_env_filter(filter)
        .try_init();
}

/// Theme from config and environment (`NO_COLOR`, `LLMOPS_ASCII`).
pub fn theme_from(config: &Config) -> Theme {
    let mut t = if config.theme.as_deref() == Some("light") {
        Theme::light()
    } else {
        Theme::dark()
    };
    t.no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    t.ascii = config.ascii.unwrap_or(false)
        || std::env::var("LLMOPS_ASCII").is_ok_and(|v| v == "1" || v == "true");
    t
}

/// The full-screen terminal.
type Tui = Terminal<CrosstermBackend<Stdout>>;

/// Runs the full-screen client until the user quits; returns the exit code.
pub async fn run(common: Common, config: Config, warning: Option<String>) -> u8 {
    init_logging();
    let mut app = new_app(&common, &config, warning);
    MOUSE.store(config.mouse.unwrap_or(false), Ordering::Relaxed);
    install_panic_hook();
    let mut terminal = match open_terminal() {
        Ok(t) => t,
        Err(e) => {
            restore_terminal();
            eprintln!("llmops-tui: cannot set up the terminal: {e}");
            return 1;
        }
    };
    if let Ok(s) = terminal.size() {
        app.size = (s.width, s.height);
    }

    // Both senders live until `run` returns: the event loop never sees its channel close
    // under it, and the executor runs as long as the UI.
    let (ev_tx, mut ev_rx) = mpsc::unbounded_channel::<AppEvent>();
    let (cmd_tx, cmd_rx) = mpsc::unbounded_channel::<Command>();
    spawn_input(ev_tx.clone());
    spawn_signals(ev_tx.clone());
    let state_file = crate::last_session::default_path();
    let opts = client_options(&common, state_file.as_deref());
    let router = Router::default();
    let clients = spawn_network(opts, ev_tx.clone(), router.clone());
    tokio::spawn(executor(cmd_rx, clients, ev_tx.clone(), router));

    let local = Local {
        cmd_tx: &cmd_tx,
        state_file: state_file.as_deref(),
        server: &common.server,
    };
    event_loop(&mut app, &mut terminal, &mut ev_rx, &local).await;
    restore_terminal();
    0
}

/// The UI's state at start: theme, keymap and gauge rate from the config, and the config's
/// warning (if any) in the transcript.
fn new_app(common: &Common, config: &Config, warning: Option<String>) -> App {
    let theme = theme_from(config);
    let mut app = App::new(&common.server, theme);
    app.keymap = crate::keymap::Keymap::for_terminal(|k| std::env::var(k).ok());
    app.gauge_interval_ms = config.gauge_interval_ms();
    if let Some(w) = warning {
        app.transcript
            .system(crate::app::transcript::Level::Warn, &w);
    }
    app
}

/// Takes the terminal over (raw mode, alternate screen) and draws on it.
fn open_terminal() -> std::io::Result<Tui> {
    enter_terminal()?;
    Terminal::new(CrosstermBackend::new(stdout()))
}

/// The connection: `--session`, else (unless `--new-session`) the session last used on this
/// server; reconnecting on its own, and quiet on the terminal the full screen owns.
fn client_options(common: &Common, state_file: Option<&Path>) -> ClientOptions {
    let mut opts = ClientOptions::new(common.server.clone());
    opts.resume_session = if common.new_session {
        None
    } else {
        common
            .session
            .clone()
            .or_else(|| state_file.and_then(|p| crate::last_session::load(p, &common.server)))
    };
    opts.auth_token = common.token.clone();
    opts.reconnect = true;
    // The full screen owns the terminal: transport notices go to the log only.
    opts.stderr_notices = false;
    opts
}

/// What the loop needs to carry out the commands `update` returns.
struct Local<'a> {
    /// To the executor: everything that is not the terminal's own.
    cmd_tx: &'a mpsc::UnboundedSender<Command>,
    /// Where the last session used on each server is remembered.
    state_file: Option<&'a Path>,
    server: &'a str,
}

/// Feeds events to `update` and redraws when something changed, at most once a `FRAME`,
/// until the user quits, drawing fails or the events end.
async fn event_loop(
    app: &mut App,
    terminal: &mut Tui,
    ev_rx: &mut mpsc::UnboundedReceiver<AppEvent>,
    local: &Local<'_>,
) {
    let mut dirty = true;
    let mut last_draw = Instant::now() - FRAME;
    let mut last_tick = Instant::now();
    loop {
        if dirty && last_draw.elapsed() >= FRAME {
            if let Err(e) = terminal.draw(|f| crate::ui::render(app, f)) {
                tracing::error!("draw failed: {e}");
                break;
            }
            last_draw = Instant::now();
            dirty = false;
        }
        let draw_at = dirty.then(|| tokio::time::Instant::from_std(last_draw + FRAME));
        let tick_at = app
            .animating()
            .then(|| tokio::time::Instant::from_std(last_tick + TICK));
        // A notice that expires or a watch run that is due: one wake-up at that moment.
        let wake_at = app.next_deadline().map(tokio::time::Instant::from_std);
        let ev = tokio::select! {
            ev = ev_rx.recv() => match ev {
                Some(ev) => Some(ev),
                None => break,
            },
            _ = sleep_opt(draw_at) => None,
            _ = sleep_opt(tick_at) => {
                last_tick = Instant::now();
                Some(AppEvent::Tick)
            }
            _ = sleep_opt(wake_at) => Some(AppEvent::Tick),
        };
        let Some(ev) = ev else { continue };
        for ev in with_queued(ev, ev_rx) {
            app.now = Instant::now();
            app.unix_now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_secs());
            for cmd in update(app, ev) {
                apply(app, terminal, local, cmd);
            }
            dirty = true;
        }
        if app.quit {
            break;
        }
    }
}

/// `first` and whatever is already queued behind it (up to 256 in all), handled before the
/// next frame is drawn (bursts of stream deltas).
fn with_queued(first: AppEvent, ev_rx: &mut mpsc::UnboundedReceiver<AppEvent>) -> Vec<AppEvent> {
    let mut batch = vec![first];
    while let Ok(more) = ev_rx.try_recv() {
        batch.push(more);
        if batch.len() >= 256 {
            break;
        }
    }
    batch
}

/// Carries out one command: the terminal's own (quit, redraw, clipboard, suspend) and
/// remembering the session here, everything else by the executor.
fn apply(app: &mut App, terminal: &mut Tui, local: &Local<'_>, cmd: Command) {
    match cmd {
        Command::Quit => app.quit = true,
        Command::RememberSession(id) => {
            if let Some(p) = local.state_file {
                if let Err(e) = crate::last_session::save(p, local.server, &id) {
                    tracing::warn!("cannot remember the session in {}: {e}", p.display());
                }
            }
        }
        Command::Redraw => {
            let _ = terminal.clear();
        }
        Command::Clipboard(text) => {
            let mut o = std::io::stdout();
            let seq = crate::app::pager::osc52(&text);
            if let Err(e) = o.write_all(seq.as_bytes()).and_then(|()| o.flush()) {
                tracing::warn!("cannot write the OSC 52 copy to the terminal: {e}");
            }
        }
        Command::Suspend => {
            suspend();
            let _ = terminal.clear();
        }
        other => {
            let _ = local.cmd_tx.send(other);
        }
    }
}

async fn sleep_opt(at: Option<tokio::time::Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// Ctrl+Z: give the terminal back, stop ourselves, and take it again on `fg`.
fn suspend() {
    restore_terminal();
    // SAFETY: raise(3) only sends a signal to this process; SIGTSTP's default action stops
    // it and execution resumes here after SIGCONT.
    unsafe {
        libc::raise(libc::SIGTSTP);
    }
    if let Err(e) = enter_terminal() {
        tracing::error!("cannot re-enter the terminal after resume: {e}");
    }
}

fn spawn_input(tx: mpsc::UnboundedSender<AppEvent>) {
    tokio::spawn(async move {
        let mut events = EventStream::new();
        while let Some(ev) = events.next().await {
            let ev = match ev {
                Ok(Event::Key(k)) => AppEvent::Key(k),
                Ok(Event::Paste(s)) => AppEvent::Paste(s),
                Ok(Event::Resize(w, h)) => AppEvent::Resize(w, h),
                Ok(Event::Mouse(m)) => AppEvent::Mouse(m),
                Ok(_) => continue,
                Err(e) => {
                    tracing::error!("terminal input failed: {e}");
                    let _ = tx.send(AppEvent::Terminate);
                    break;
                }
            };
            if tx.send(ev).is_err() {
                break;
            }
        }
    });
}

fn spawn_signals(tx: mpsc::UnboundedSender<AppEvent>) {
    use tokio::signal::unix::{signal, SignalKind};
    tokio::spawn(async move {
        let (Ok(mut term), Ok(mut hup), Ok(mut int)) = (
            signal(SignalKind::terminate()),
            signal(SignalKind::hangup()),
            signal(SignalKind::interrupt()),
        ) else {
            tracing::warn!("cannot install signal handlers");
            return;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = hup.recv() => {}
            _ = int.recv() => {}
        }
        let _ = tx.send(AppEvent::Terminate);
    });
}

/// Connects (retrying with backoff until the server answers) and forwards the actor's
/// events. The actor itself reconnects after that.
fn spawn_network(
    opts: ClientOptions,
    tx: mpsc::UnboundedSender<AppEvent>,
    router: Router,
) -> watch::Receiver<Option<Client>> {
    let (client_tx, client_rx) = watch::channel(None);
    tokio::spawn(async move {
        let mut attempt = 0u32;
        loop {
            match Client::connect(opts.clone()).await {
                Ok((client, mut events)) => {
                    let _ = client_tx.send(Some(client));
                    while let Some(e) = events.recv().await {
                        if router.route(&e) {
                            continue;
                        }
                        if tx.send(AppEvent::Client(e)).is_err() {
                            return;
                        }
                    }
                    return;
                }
                Err(e) => {
                    attempt += 1;
                    let retry_in = Duration::from_millis((250u64 << attempt.min(6)).min(10_000));
                    let ev = AppEvent::Client(ClientEvent::Reconnecting {
                        attempt,
                        retry_in,
                        reason: e.to_string(),
                    });
                    if tx.send(ev).is_err() {
                        return;
                    }
                    tokio::time::sleep(retry_in).await;
                }
            }
        }
    });
    client_rx
}

/// Runs commands against the client. Whatever goes to the server (requests, chat turns,
/// plain sends) is queued on the connection here, in the order `update` made it, so a
/// question typed after `/new` is never sent before the `/new`; the waiting (replies, a
/// turn's stream, uploads, downloads) happens in a task per command, so a long upload never
/// blocks a chat or a cancel. Results come back as events.
async fn executor(
    mut rx: mpsc::UnboundedReceiver<Command>,
    clients: watch::Receiver<Option<Client>>,
    tx: mpsc::UnboundedSender<AppEvent>,
    router: Router,
) {
    while let Some(cmd) = rx.recv().await {
        let client = clients.borrow().clone();
        let tx = tx.clone();
        match client {
            Some(c) => run_command(c, cmd, tx, router.clone()).await,
            None => not_connected(cmd, &tx),
        }
    }
}

fn not_connected(cmd: Command, tx: &mpsc::UnboundedSender<AppEvent>) {
    let why = "not connected to the server".to_string();
    let ev = match cmd {
        Command::Chat { .. } | Command::Propose { .. } => AppEvent::TurnLost(why),
        Command::Download { offer, .. } => AppEvent::Downloaded {
            offer_id: offer.offer_id,
            result: Err(why),
        },
        Command::Upload { path, note } | Command::UploadChecked { path, note } => {
            AppEvent::Uploaded {
                path,
                note,
                result: Err(why),
            }
        }
        Command::Request(req) => AppEvent::Reply {
            req,
            result: Err(why),
        },
        _ => return,
    };
    let _ = tx.send(ev);
}

/// A started turn: its id to the UI, then its messages until STREAM_END (or the loss).
fn follow_turn(
    started: Result<(u64, mpsc::UnboundedReceiver<Message>), crate::client::ClientError>,
    tx: mpsc::UnboundedSender<AppEvent>,
) {
    match started {
        Ok((id, mut rx)) => {
            let _ = tx.send(AppEvent::TurnStarted(id));
            tokio::spawn(async move {
                while let Some(m) = rx.recv().await {
                    let end = matches!(m, Message::StreamEnd(_) | Message::Error(_));
                    let _ = tx.send(AppEvent::TurnMsg(m));
                    if end {
                        return;
                    }
                }
                let _ = tx.send(AppEvent::TurnLost("connection lost".into()));
            });
        }
        Err(e) => {
            let _ = tx.send(AppEvent::TurnLost(e.to_string()));
        }
    }
}

async fn run_command(
    client: Client,
    cmd: Command,
    tx: mpsc::UnboundedSender<AppEvent>,
    router: Router,
) {
    match cmd {
        Command::Download {
            offer,
            dest,
            overwrite,
        } => start_download(client, offer, dest, overwrite, tx, router),
        Command::Chat { text, file_ids } => {
            let started = client.chat(&text, file_ids).await;
            follow_turn(started, tx);
        }
        Command::Propose { text, argv } => {
            let started = client.propose(&text, argv).await;
            follow_turn(started, tx);
        }
        Command::Upload { path, note } => {
            tokio::spawn(async move {
                let result = llmops_client::connection::sha256_file(&path)
                    .await
                    .map_err(|e| format!("{}: {e}", path.display()));
                let _ = tx.send(AppEvent::UploadHashed { path, note, result });
            });
        }
        Command::UploadChecked { path, note } => {
            tokio::spawn(async move {
                let result = client.upload(&path).await.map_err(|e| e.to_string());
                let _ = tx.send(AppEvent::Uploaded { path, note, result });
            });
        }
        Command::Request(Req::Download(target)) => {
            // The answer is an OFFER event, not a reply.
            let req = Req::Download(target);
            let m = req.build(client.next_request_id());
            if let Err(e) = client.send(m).await {
                let _ = tx.send(AppEvent::Reply {
                    req,
                    result: Err(e.to_string()),
                });
            }
        }
        Command::Request(req) => send_request(&client, req, tx).await,
        Command::Send(m) => {
            if let Err(e) = client.send(m).await {
                tracing::warn!("send failed: {e}");
            }
        }
        Command::Quit
        | Command::Suspend
        | Command::Redraw
        | Command::Clipboard(_)
        | Command::RememberSession(_) => {}
    }
}

/// Accepts `offer` and receives it into `dest` in a task of its own, reporting progress
/// once a percent and then the result.
fn start_download(
    client: Client,
    offer: Offer,
    dest: PathBuf,
    overwrite: bool,
    tx: mpsc::UnboundedSender<AppEvent>,
    router: Router,
) {
    // The offer id is routed to this download before the accept goes out.
    let mut rx = router.add(&offer.offer_id);
    tokio::spawn(async move {
        let id = offer.offer_id.clone();
        let dir = dest
            .parent()
            .map_or_else(|| PathBuf::from("."), PathBuf::from);
        let mut last_pct = u64::MAX;
        let progress = |bytes: u64, total: u64| {
            // One event per percent, not per data frame.
            let pct = (bytes * 100).checked_div(total).unwrap_or(0);
            if pct != last_pct {
                last_pct = pct;
                let _ = tx.send(AppEvent::DownloadProgress {
                    offer_id: id.clone(),
                    bytes,
                    total,
                });
            }
        };
        let result = match tokio::fs::create_dir_all(&dir).await {
            Ok(()) => crate::download::receive_to(
                &client, &mut rx, &offer, "auto", &dest, overwrite, progress,
            )
            .await
            .map(|d| d.path)
            .map_err(|e| e.to_string()),
            Err(e) => Err(format!("{}: {e}", dir.display())),
        };
        router.remove(&id);
        let _ = tx.send(AppEvent::Downloaded {
            offer_id: id,
            result,
        });
    });
}

/// Sends `req` now (in command order) and waits for its reply in a task of its own.
async fn send_request(client: &Client, req: Req, tx: mpsc::UnboundedSender<AppEvent>) {
    let r2 = req.clone();
    match client.send_request(move |id| r2.build(id)).await {
        Ok(pending) => {
            tokio::spawn(async move {
                let result = pending
                    .wait(Duration::from_secs(20))
                    .await
                    .map_err(|e| e.to_string());
                let _ = tx.send(AppEvent::Reply { req, result });
            });
        }
        Err(e) => {
            let _ = tx.send(AppEvent::Reply {
                req,
                result: Err(e.to_string()),
            });
        }
    }
}
