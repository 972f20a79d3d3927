//! The command line of `llmops-tui`: the options every subcommand takes (server, session,
//! JSON output, token) and the script subcommands with their arguments.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

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
