//! Non-interactive subcommands for scripts (`ask`, `upload`, `files`, `sessions`, `status`)
//! and the line-mode chat used when no subcommand is given. Exit codes: 0 success, 69 the
//! server is unreachable, 1 any other error.

use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use protocol::{AgentEventKind, EndStatus, Message, Req, SessionCmd, SessionOp};
use serde_json::json;

use crate::client::{Client, ClientError, ClientOptions, UploadMode};
use llmops_client::upload::{upload_retrying, wait_indexed_retrying, RetryPolicy};
use protocol::FileInfo;
use session::{remember, session_id, SessionChoice};

pub mod approve;
pub mod session;
pub mod stdout;

/// `eprintln!` through `stdout::err_line`: a closed pipe ends the process with 0.
macro_rules! errln {
    ($($t:tt)*) => {
        stdout::err_line(&format!($($t)*))
    };
}

/// `println!` through `stdout::line`: a closed pipe ends the process with 0.
macro_rules! outln {
    () => {
        stdout::line("")
    };
    ($($t:tt)*) => {
        stdout::line(&format!($($t)*))
    };
}

pub const EXIT_UNREACHABLE: u8 = 69;

#[derive(Debug, Parser)]
#[command(
    name = "llmops-tui",
    version,
    about = "llmops client: full-screen chat and script subcommands"
)]
pub struct Cli {
    #[command(flatten)]
    pub common: Common,
    #[command(subcommand)]
    pub cmd: Option<Cmd>,
}

#[derive(Debug, Args, Clone)]
pub struct Common {
    /// Server address: host:port, unix:/path/to/socket, or several comma-separated (tried
    /// in order). Default: the local server's socket ($XDG_RUNTIME_DIR/llmops.sock or
    /// /run/llmops/llmops.sock) when it exists, then 127.0.0.1:9999.
    #[arg(
        long,
        global = true,
        env = "LLMOPS_SERVER",
        default_value = "127.0.0.1:9999"
    )]
    pub server: String,
    /// Resume this session (full id or unique prefix). Without it, the script subcommands
    /// use the session the full-screen client last used on this server.
    #[arg(long, global = true, conflicts_with = "new_session")]
    pub session: Option<String>,
    /// Start a new session instead of the last one used on this server.
    #[arg(long, global = true)]
    pub new_session: bool,
    /// Machine-readable JSON output.
    #[arg(long, global = true)]
    pub json: bool,
    /// Auth token for TCP: servers listening beyond loopback, and servers that know local
    /// operators by the Unix socket (an operators group; on loopback too).
    #[arg(long, global = true, env = "LLMOPS_AUTH_TOKEN", hide_env_values = true)]
    pub token: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Cmd {
    /// Ask the agent one question (uploads first, in the same session).
    Ask {
        /// Files to upload before asking; the question refers to them.
        #[arg(long = "upload", value_name = "FILE")]
        uploads: Vec<PathBuf>,
        /// Approve exactly this action once if the agent proposes it, e.g.
        /// `--yes-to 'kill -TERM 4242'` (split like a shell, no globbing; repeatable).
        /// Without it every approval request is rejected.
        #[arg(long = "yes-to", value_name = "ARGV")]
        yes_to: Vec<String>,
        /// The question.
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Upload a file, optionally with a note the agent answers about.
    Upload {
        /// Transfer mode: auto (RDT above --rdt-threshold, NPLT when UDP gets no answer),
        /// rdt or nplt.
        #[arg(long, default_value = "auto", value_parser = ["auto", "rdt", "nplt"])]
        mode: String,
        /// Size in bytes above which `auto` uses RDT.
        #[arg(long, default_value_t = crate::client::RDT_UPLOAD_THRESHOLD)]
        rdt_threshold: u64,
        file: PathBuf,
        text: Vec<String>,
    },
    /// List this session's uploads.
    Files,
    /// List sessions.
    Sessions,
    /// Server and index status.
    Status,
    /// Index a failed upload of this session again (embedding retried).
    Reindex {
        /// The file id (or a unique prefix), as `files` lists it.
        file_id: String,
    },
    /// Search the shipped docs, doc folders and this session's uploads.
    Search {
        /// all, system or uploads.
        #[arg(long, default_value = "all")]
        scope: String,
        /// Number of results (1-10).
        #[arg(long, default_value_t = 3)]
        top_k: u32,
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
    },
    /// Download a file (an upload id of this session or a server path); exits 0 only when
    /// the file is verified on disk.
    Download {
        /// Destination folder.
        #[arg(long, default_value = ".")]
        out: PathBuf,
        /// Transfer mode: auto, rdt, nplt or http.
        #[arg(long, default_value = "auto")]
        mode: String,
        /// Overwrite an existing file.
        #[arg(long)]
        force: bool,
        target: String,
    },
}

impl Cmd {
    /// Commands that only read: they never create a session on the server.
    pub fn read_only(&self) -> bool {
        matches!(
            self,
            Cmd::Files | Cmd::Sessions | Cmd::Status | Cmd::Search { .. }
        )
    }

    /// Commands that upload: the session is made at HELLO, so a reconnect after a lost
    /// connection can resume it by id and ask whether the file landed.
    pub fn uploads(&self) -> bool {
        match self {
            Cmd::Upload { .. } => true,
            Cmd::Ask { uploads, .. } => !uploads.is_empty(),
            _ => false,
        }
    }
}

#[derive(Debug, Default, serde::Serialize)]
pub struct Step {
    pub tool: String,
    pub args: serde_json::Value,
    pub ok: bool,
    pub output: String,
}

#[derive(Debug, Default)]
pub struct TurnResult {
    pub answer: String,
    pub steps: Vec<Step>,
    pub status: Option<EndStatus>,
    pub error: Option<String>,
    /// Every approval of the turn and how it ended.
    pub approvals: Vec<llmops_client::Approval>,
}

impl TurnResult {
    /// `ask --json`'s `approvals`: `[{approval_id, argv, state, grant_id?}]`.
    pub fn approvals_json(&self) -> serde_json::Value {
        self.approvals
            .iter()
            .map(|a| {
                let mut v =
                    json!({"approval_id": a.approval_id, "argv": a.argv, "state": a.state_word()});
                if let Some(g) = &a.grant_id {
                    v["grant_id"] = json!(g);
                }
                v
            })
            .collect()
    }
}

/// Runs a subcommand and returns the process exit code.
pub async fn run(common: Common, cmd: Cmd) -> u8 {
    let state = crate::last_session::default_path();
    let remembered = state
        .as_deref()
        .and_then(|p| crate::last_session::load(p, &common.server));
    let choice = SessionChoice::of(&common, remembered);
    let mut opts = ClientOptions::new(common.server.clone());
    opts.resume_session = choice.resume();
    opts.auth_token = common.token.clone();
    // Sessions are made on first use (a chat, an upload), never for reading alone; with
    // --new-session the HELLO makes one as it always did.
    opts.no_new_session = cmd.read_only()
        || (choice != SessionChoice::New
            && !(choice == SessionChoice::OnFirstUse && cmd.uploads()));
    let (client, mut _events) = match Client::connect(opts).await {
        Ok(c) => c,
        Err(e) => return fail(&common, &e),
    };
    if let Some(want) = &common.session {
        if !client.welcome().resumed {
            let e = ClientError::Server {
                code: "not_found".into(),
                message: format!("会话不存在 / no session matches '{want}'"),
            };
            return fail(&common, &e);
        }
    }
    let res = match cmd {
        Cmd::Ask {
            uploads,
            yes_to,
            text,
        } => match approve::Approver::new(&yes_to) {
            Ok(mut approver) => {
                ask(
                    client.clone(),
                    &common,
                    &uploads,
                    &mut approver,
                    &text.join(" "),
                )
                .await
            }
            Err(e) => Err(ClientError::Server {
                code: "bad_argument".into(),
                message: e.to_string(),
            }),
        },
        Cmd::Upload {
            mode,
            rdt_threshold,
            file,
            text,
        } => {
            let mode = match mode.as_str() {
                "rdt" => UploadMode::Rdt,
                "nplt" => UploadMode::Nplt,
                _ => UploadMode::Auto {
                    threshold: rdt_threshold,
                },
            };
            upload(client.clone(), &common, &file, mode, &text.join(" ")).await
        }
        Cmd::Files => files(&client, &common).await,
        Cmd::Sessions => sessions(&client, &common).await,
        Cmd::Status => status(&client, &common).await,
        Cmd::Search {
            scope,
            top_k,
            query,
        } => search(&client, &common, &scope, top_k, &query.join(" ")).await,
        Cmd::Reindex { file_id } => reindex(&client, &common, &file_id).await,
        Cmd::Download {
            out,
            mode,
            force,
            target,
        } => download(&client, &mut _events, &common, &target, &mode, &out, force).await,
    };
    match res {
        Ok(code) => {
            if choice.remembers() {
                remember(&client, &common.server, state.as_deref()).await;
            }
            code
        }
        Err(e) => fail(&common, &e),
    }
}

fn fail(common: &Common, e: &ClientError) -> u8 {
    let code = match e {
        ClientError::Unreachable { .. } | ClientError::NotNplt { .. } => EXIT_UNREACHABLE,
        _ => 1,
    };
    if common.json {
        let kind = match e {
            ClientError::Server { code, .. } => code.clone(),
            ClientError::NoSuchFolder(_) => "bad_destination".into(),
            ClientError::Unreachable { .. } => "unreachable".into(),
            ClientError::NotNplt { .. } => "not_nplt".into(),
            _ => "error".into(),
        };
        outln!("{}", json!({"error": e.to_string(), "code": kind}));
    } else {
        errln!("llmops-tui: {e}");
    }
    code
}

/// Collects one turn's events; `live` prints answer text as it streams. Approval requests
/// are all rejected (script mode never approves by itself; see `collect_turn_with`).
pub async fn collect_turn(
    client: &Client,
    text: &str,
    file_ids: Vec<String>,
    live: impl FnMut(&Message),
) -> Result<TurnResult, ClientError> {
    collect_turn_with(client, text, file_ids, &mut approve::Approver::none(), live).await
}

/// `collect_turn` answering approval requests with `approver` (each answer said on stderr).
pub async fn collect_turn_with(
    client: &Client,
    text: &str,
    file_ids: Vec<String>,
    approver: &mut approve::Approver,
    mut live: impl FnMut(&Message),
) -> Result<TurnResult, ClientError> {
    let (id, mut rx) = client.chat(text, file_ids).await?;
    let mut r = TurnResult::default();
    while let Some(m) = rx.recv().await {
        live(&m);
        llmops_client::fold_approval(&mut r.approvals, id, &m);
        match m {
            Message::ApprovalRequest(a) => {
                let d = approver.decide(&a.argv);
                errln!("{}", approve::decision_line(&a.argv, &d));
                client.reply_approval(&a.approval_id, d).await?;
            }
            Message::StreamDelta(d) => r.answer.push_str(&d.text),
            Message::AgentEvent(e) => match e.event {
                AgentEventKind::ToolCall { tool, args, .. } => r.steps.push(Step {
                    tool,
                    args,
                    ..Default::default()
                }),
                AgentEventKind::ToolResult {
                    tool, ok, summary, ..
                } => {
                    if let Some(s) = r.steps.iter_mut().rev().find(|s| s.tool == tool) {
                        s.ok = ok;
                        s.output = summary;
                    }
                }
                AgentEventKind::Status { .. } => {}
            },
            Message::StreamEnd(e) => {
                r.status = Some(e.status);
                r.error = e.message;
                return Ok(r);
            }
            Message::Error(e) => return Err(ClientError::from(e)),
            _ => {}
        }
    }
    Err(ClientError::Disconnected)
}

/// Uploads `file`; when the connection is lost it reconnects to the same session, asks
/// whether the file landed (UPLOAD_LOOKUP) and sends it again only if not. Returns once the
/// file is indexed (a script searches right after), with the client to go on with; a file
/// that landed is reported as landed even when the server goes away before it is indexed.
async fn upload_file(
    client: Client,
    common: &Common,
    file: &std::path::Path,
    mode: UploadMode,
) -> (Client, Result<FileInfo, ClientError>) {
    let reconnect = |session: String| {
        let mut o = ClientOptions::new(common.server.clone());
        o.resume_session = Some(session);
        o.auth_token = common.token.clone();
        async move { Client::connect(o).await.map(|(c, _events)| c) }
    };
    let (client, res) =
        upload_retrying(client, file, mode, RetryPolicy::default(), reconnect).await;
    let up = match res {
        Ok(up) => up,
        Err(e) => return (client, Err(e)),
    };
    if up.found_after_loss && !common.json {
        errln!(
            "连接中断，服务器已保存该文件，未重复上传 / the connection was lost after the server saved {}; not sent again",
            up.file.filename
        );
    }
    let (client, res) = wait_indexed_retrying(
        client,
        up.file,
        Duration::from_secs(600),
        RetryPolicy::default(),
        reconnect,
    )
    .await;
    let res = res.map(|w| {
        if !w.confirmed {
            errln!(
                "已保存 {}，但服务器在建立索引前断开，重启后会自动索引 / {} is saved, but the server went away before it was indexed; it is indexed when the server starts again",
                w.file.filename,
                w.file.filename
            );
        }
        w.file
    });
    (client, res)
}

async fn ask(
    mut client: Client,
    common: &Common,
    uploads: &[PathBuf],
    approver: &mut approve::Approver,
    text: &str,
) -> Result<u8, ClientError> {
    let mut file_ids = Vec::new();
    for p in uploads {
        let (c, res) = upload_file(client, common, p, UploadMode::default()).await;
        client = c;
        let f = res?;
        if !common.json {
            errln!("已上传 / uploaded {} ({})", f.filename, f.file_id);
        }
        file_ids.push(f.file_id);
    }
    let json_mode = common.json;
    let r = collect_turn_with(&client, text, file_ids, approver, |m| {
        if json_mode {
            return;
        }
        match m {
            Message::StreamDelta(d) => {
                stdout::text(&d.text);
            }
            Message::AgentEvent(e) => {
                if let AgentEventKind::ToolCall { tool, args, .. } = &e.event {
                    errln!("→ {tool} {args}");
                }
            }
            _ => {}
        }
    })
    .await?;
    let (status, failure) = turn_status(&r);
    if json_mode {
        let mut v = json!({"session_id": session_id(&client).await, "status": status,
            "answer": r.answer, "steps": r.steps, "approvals": r.approvals_json()});
        if let Some(m) = &failure {
            v["message"] = json!(m);
            v["error"] = json!(m);
        }
        outln!("{v}");
    } else {
        outln!();
    }
    // A failed turn says why on stderr in both modes (a script may only keep stderr).
    Ok(match failure {
        None => 0,
        Some(m) => {
            errln!("llmops-tui: turn ended ({status}): {m}");
            1
        }
    })
}

/// A turn's status word (`ok`, `cancelled`, `error`) and, unless it is `ok`, the reason.
fn turn_status(r: &TurnResult) -> (&'static str, Option<String>) {
    match r.status {
        Some(EndStatus::Ok) => ("ok", None),
        Some(EndStatus::Cancelled) => (
            "cancelled",
            Some(
                r.error
                    .clone()
                    .unwrap_or_else(|| "已取消 / cancelled".into()),
            ),
        ),
        Some(EndStatus::Error) | None => (
            "error",
            Some(
                r.error
                    .clone()
                    .unwrap_or_else(|| "本轮对话失败 / the turn failed".into()),
            ),
        ),
    }
}

async fn upload(
    client: Client,
    common: &Common,
    file: &std::path::Path,
    mode: UploadMode,
    note: &str,
) -> Result<u8, ClientError> {
    let (client, res) = upload_file(client, common, file, mode).await;
    let f = res?;
    if !common.json {
        outln!(
            "已上传 / uploaded {} ({} bytes) id={} sha256={} state={}",
            f.filename,
            f.size,
            f.file_id,
            f.sha256,
            f.state
        );
    }
    // The note is a question about the file: its answer belongs to the result.
    let turn = if note.trim().is_empty() {
        None
    } else {
        Some(collect_turn(&client, note, vec![f.file_id.clone()], |_| {}).await?)
    };
    if common.json {
        let mut v = json!({"session_id": session_id(&client).await, "file_id": f.file_id,
            "filename": f.filename, "size": f.size, "sha256": f.sha256, "state": f.state});
        if let Some(r) = &turn {
            v["answer"] = json!(r.answer);
            v["steps"] = json!(r.steps);
        }
        outln!("{v}");
    } else if let Some(r) = &turn {
        outln!("{}", r.answer);
    }
    Ok(match turn.map(|r| r.status) {
        None | Some(Some(EndStatus::Ok)) => 0,
        Some(_) => 1,
    })
}

async fn download(
    client: &Client,
    events: &mut tokio::sync::mpsc::UnboundedReceiver<crate::client::ClientEvent>,
    common: &Common,
    target: &str,
    mode: &str,
    out: &std::path::Path,
    force: bool,
) -> Result<u8, ClientError> {
    // Checked before an offer is made: a missing folder is the user's to fix.
    llmops_client::download::check_destination(out)?;
    let offer = crate::download::request_offer(client, target, mode).await?;
    if !common.json {
        errln!(
            "下载 / downloading {} ({} bytes, sha256 {}…)",
            offer.filename,
            offer.size,
            &offer.sha256[..offer.sha256.len().min(12)]
        );
    }
    let d = crate::download::receive(client, events, &offer, mode, out, force, |_, _| {}).await?;
    if common.json {
        outln!("{}", serde_json::to_string(&d).unwrap_or_default());
    } else {
        outln!("{}", d.path.display());
    }
    Ok(0)
}

async fn search(
    client: &Client,
    common: &Common,
    scope: &str,
    top_k: u32,
    query: &str,
) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::Search(protocol::SearchReq {
                    request_id: id,
                    query: query.to_string(),
                    scope: scope.to_string(),
                    top_k,
                })
            },
            Duration::from_secs(30),
        )
        .await?;
    if let Message::SearchResults(r) = reply {
        if common.json {
            outln!("{}", json!({ "results": r.results }));
        } else if r.results.is_empty() {
            outln!("没有找到相关结果 / no results for {query:?}");
        } else {
            for (i, h) in r.results.iter().enumerate() {
                outln!(
                    "{}. {:.2} [{}] {} ({})\n   {}",
                    i + 1,
                    h.similarity,
                    h.match_type,
                    h.filepath,
                    h.position,
                    h.chunk.replace('\n', " ")
                );
            }
        }
    }
    Ok(0)
}

/// INDEX_RETRY for one failed upload; states then follow in the files pane / `files`.
async fn reindex(client: &Client, common: &Common, file_id: &str) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::IndexRetry(protocol::FileDelete {
                    request_id: id,
                    file_id: file_id.to_string(),
                })
            },
            Duration::from_secs(30),
        )
        .await?;
    if let Message::Ack(a) = reply {
        if common.json {
            outln!("{}", json!({"file_id": file_id, "message": a.message}));
        } else {
            outln!("{}", a.message);
        }
    }
    Ok(0)
}

async fn files(client: &Client, common: &Common) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| Message::FileList(Req { request_id: id }),
            Duration::from_secs(10),
        )
        .await?;
    if let Message::FileListReply(r) = reply {
        if common.json {
            outln!(
                "{}",
                json!({"session_id": client.session_id(), "files": r.files})
            );
        } else if r.files.is_empty() {
            outln!("本会话还没有上传文件 / no files uploaded in this session");
        } else {
            for f in r.files {
                outln!(
                    "{}  {:>10}  {}  {}  {}",
                    &f.file_id,
                    f.size,
                    &f.sha256[..f.sha256.len().min(12)],
                    f.state,
                    f.filename
                );
            }
        }
    }
    Ok(0)
}

async fn sessions(client: &Client, common: &Common) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::SessionCmd(SessionCmd {
                    request_id: id,
                    op: SessionOp::List,
                })
            },
            Duration::from_secs(10),
        )
        .await?;
    if let Message::SessionReply(r) = reply {
        if common.json {
            outln!("{}", json!({"current": r.current, "sessions": r.sessions}));
        } else {
            for s in r.sessions {
                let mark = if s.id == r.current.id { "*" } else { " " };
                outln!(
                    "{mark} {}  {}  ({} messages, {})",
                    s.id,
                    s.name,
                    s.messages,
                    s.updated_at
                );
            }
        }
    }
    Ok(0)
}

async fn status(client: &Client, common: &Common) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| Message::StatusRequest(Req { request_id: id }),
            Duration::from_secs(10),
        )
        .await?;
    if let Message::ServerStatus(s) = reply {
        if common.json {
            outln!("{}", serde_json::to_string(&s).unwrap_or_default());
        } else {
            outln!(
                "server {} up {}s, {} connections; index: {} files, {} chunks, backlog {}, {}",
                s.server_version,
                s.uptime_secs,
                s.connections,
                s.index.files,
                s.index.chunks,
                s.index.embedding_backlog,
                s.index.mode
            );
        }
    }
    Ok(0)
}

/// Line-mode chat: one question per line, answers streamed. Used when no subcommand is
/// given, until the full-screen UI lands, and always available with `--json` unset.
pub async fn line_chat(common: Common) -> u8 {
    let mut opts = ClientOptions::new(common.server.clone());
    opts.resume_session = common.session.clone();
    opts.auth_token = common.token.clone();
    opts.reconnect = true;
    let (client, _events) = match Client::connect(opts).await {
        Ok(c) => c,
        Err(e) => return fail(&common, &e),
    };
    let w = client.welcome();
    outln!("{}", w.motd);
    outln!("(输入问题后回车；/upload <文件> [说明] 上传；/quit 退出 / type a question; /quit to leave)");
    let stdin = tokio::io::BufReader::new(tokio::io::stdin());
    let mut lines = tokio::io::AsyncBufReadExt::lines(stdin);
    loop {
        stdout::text("> ");
        let Ok(Some(line)) = lines.next_line().await else {
            return 0;
        };
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        if line == "/quit" || line == "/exit" {
            return 0;
        }
        let (text, files) = if let Some(rest) = line.strip_prefix("/upload ") {
            let mut parts = rest.trim().splitn(2, ' ');
            let path = PathBuf::from(parts.next().unwrap_or_default());
            let note = parts.next().unwrap_or("").to_string();
            match client.upload(&path).await {
                Ok(f) => {
                    outln!("已上传 / uploaded {} ({})", f.filename, f.file_id);
                    if note.trim().is_empty() {
                        continue;
                    }
                    (note, vec![f.file_id])
                }
                Err(e) => {
                    outln!("上传失败 / upload failed: {e}");
                    continue;
                }
            }
        } else {
            (line, Vec::new())
        };
        let r = collect_turn(&client, &text, files, |m| match m {
            Message::StreamDelta(d) => {
                stdout::text(&d.text);
            }
            Message::AgentEvent(e) => match &e.event {
                AgentEventKind::ToolCall { tool, args, .. } => outln!("  → {tool} {args}"),
                AgentEventKind::ToolResult {
                    tool,
                    ok,
                    duration_ms,
                    summary,
                    ..
                } => {
                    outln!(
                        "  {} {tool} ({duration_ms} ms) {summary}",
                        if *ok { "✓" } else { "✗" }
                    )
                }
                AgentEventKind::Status { text } => outln!("  … {text}"),
            },
            // Live lines of a follow (`tail -f`): printed as they arrive.
            Message::ToolOutput(o) => {
                for l in &o.lines {
                    outln!("  │ {}", crate::sanitize::sanitize(l));
                }
                if o.dropped > 0 {
                    outln!("  │ … {} lines not shown live (rate limit)", o.dropped);
                }
            }
            _ => {}
        })
        .await;
        match r {
            Ok(_) => outln!(),
            Err(e) => outln!("\n错误 / error: {e}"),
        }
    }
}
