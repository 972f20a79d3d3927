//! The command line: flags with `LLMOPS_*` env fallbacks, and the subcommands.

use std::net::SocketAddr;
use std::path::PathBuf;

use clap::Parser;

#[derive(Debug, Parser, Default)]
#[command(
    name = "llmops-server",
    version,
    about = "llmops server: NPLT agent daemon"
)]
pub struct Cli {
    /// TOML config file (default: $XDG_CONFIG_HOME/llmops/server.toml if it exists).
    #[arg(long, env = "LLMOPS_CONFIG")]
    pub config: Option<PathBuf>,
    /// NPLT listen address.
    #[arg(long, env = "LLMOPS_LISTEN")]
    pub listen: Option<SocketAddr>,
    /// Data directory (database, uploads, logs, model).
    #[arg(long, env = "LLMOPS_DATA_DIR")]
    pub data_dir: Option<PathBuf>,
    /// Log level or tracing filter (e.g. `info`, `llmops_server=debug`).
    #[arg(long, env = "LLMOPS_LOG_LEVEL")]
    pub log_level: Option<String>,
    /// Where the log goes: `auto` (default: the journal when stderr is connected to it, as
    /// in a systemd service; else daily files in DATA_DIR/logs), `files` or `journal`
    /// (stderr with syslog priority prefixes).
    #[arg(long, env = "LLMOPS_LOG_OUTPUT", value_enum)]
    pub log_output: Option<crate::logging::LogOutput>,
    /// Token clients must present in HELLO; required when listening beyond loopback.
    /// Repeatable as `NAME=TOKEN` (e.g. `--auth-token alice=T1 --auth-token bob=T2`):
    /// each named token sees only its own sessions.
    #[arg(long, env = "LLMOPS_AUTH_TOKEN", hide_env_values = true)]
    pub auth_token: Vec<String>,
    /// Every token sees every session (turns the per-token session boundary off).
    #[arg(long, env = "LLMOPS_SHARED_SESSIONS")]
    pub shared_sessions: bool,
    /// Maximum concurrent connections.
    #[arg(long, env = "LLMOPS_MAX_CONNECTIONS")]
    pub max_connections: Option<usize>,
    /// Maximum concurrent NPLT connections from one peer address (default 32).
    #[arg(long, env = "LLMOPS_MAX_CONNECTIONS_PER_IP")]
    pub max_connections_per_ip: Option<usize>,
    /// Maximum NPLT connections that have not completed HELLO yet (default 64).
    #[arg(long, env = "LLMOPS_MAX_PREAUTH_CONNECTIONS")]
    pub max_preauth_connections: Option<usize>,
    /// Maximum concurrent NPLT connections of one local user on the Unix socket (default 32).
    #[arg(long, env = "LLMOPS_MAX_CONNECTIONS_PER_USER")]
    pub max_connections_per_user: Option<usize>,
    /// Unix socket for local users, identified by their Unix user (no token). Default:
    /// $RUNTIME_DIRECTORY/llmops.sock under systemd, else $XDG_RUNTIME_DIR/llmops.sock;
    /// `none` for no socket.
    #[arg(long, env = "LLMOPS_SOCKET")]
    pub socket: Option<PathBuf>,
    /// Group whose members may connect over the Unix socket (root and the server's user
    /// always may). The socket file is made group-accessible for it (mode 0660).
    #[arg(long, env = "LLMOPS_OPERATORS_GROUP")]
    pub operators_group: Option<String>,
    /// Group whose members may approve actions over the Unix socket (root and the server's
    /// user always may).
    #[arg(long, env = "LLMOPS_APPROVERS_GROUP")]
    pub approvers_group: Option<String>,
    /// Seconds an upload may go without receiving data before it is dropped (default 60).
    #[arg(long, env = "LLMOPS_UPLOAD_STALL_SECS")]
    pub upload_stall_secs: Option<u64>,
    /// Temp space all uploads in progress may take, in MiB (default 1024).
    #[arg(long, env = "LLMOPS_UPLOAD_TEMP_BUDGET_MIB")]
    pub upload_temp_budget_mib: Option<u64>,
    /// Temp space the uploads in progress of one client (remote address, loopback, or local
    /// user) may take, in MiB (default 512).
    #[arg(long, env = "LLMOPS_UPLOAD_TEMP_PER_CLIENT_MIB")]
    pub upload_temp_per_client_mib: Option<u64>,
    /// Free space new uploads must leave on the data directory's filesystem, in MiB
    /// (default 256, or a tenth of the filesystem if that is less).
    #[arg(long, env = "LLMOPS_UPLOAD_FREE_FLOOR_MIB")]
    pub upload_free_floor_mib: Option<u64>,
    /// Upload size limit in bytes.
    #[arg(long, env = "LLMOPS_UPLOAD_LIMIT")]
    pub upload_limit: Option<u64>,
    /// Largest part of a local (non-upload) file `file_read` mode "analyze" reads, in bytes
    /// (default 1 GiB; uploads are always analysed whole).
    #[arg(long, env = "LLMOPS_ANALYZE_MAX_BYTES")]
    pub analyze_max_bytes: Option<u64>,
    /// Extra document folders to index and allow for reading.
    #[arg(long = "docs", env = "LLMOPS_DOCS", value_delimiter = ',')]
    pub docs: Vec<PathBuf>,
    /// RDT (UDP) listen address.
    #[arg(long, env = "LLMOPS_RDT_LISTEN")]
    pub rdt_listen: Option<SocketAddr>,
    /// RDT address put in offers (port forwarding, NAT, test relays).
    #[arg(long, env = "LLMOPS_RDT_ADVERTISE")]
    pub rdt_advertise: Option<SocketAddr>,
    /// HTTP endpoint listen address.
    #[arg(long, env = "LLMOPS_HTTP_LISTEN")]
    pub http_listen: Option<SocketAddr>,
    /// Seconds of inbound silence before the server sends a heartbeat.
    #[arg(long, env = "LLMOPS_HEARTBEAT_SECS")]
    pub heartbeat_secs: Option<u64>,
    /// Seconds of inbound silence before the server closes the connection.
    #[arg(long, env = "LLMOPS_IDLE_TIMEOUT_SECS")]
    pub idle_timeout_secs: Option<u64>,
    /// Dense embedder: `e5` (multilingual-e5-small in-process, default), `openai` (an
    /// OpenAI-compatible /v1/embeddings endpoint) or `none` (lexical-only search).
    #[arg(long, env = "LLMOPS_EMBEDDER")]
    pub embedder: Option<String>,
    /// Directory with the local model files (default: DATA_DIR/models/multilingual-e5-small-q4).
    #[arg(long, env = "LLMOPS_MODEL_DIR")]
    pub model_dir: Option<PathBuf>,
    /// Vector store: `in-process` (default) or `chroma`.
    #[arg(long, env = "LLMOPS_VECTOR_STORE")]
    pub vector_store: Option<String>,
    /// Chroma server URL for `--vector-store chroma`.
    #[arg(long, env = "LLMOPS_CHROMA_URL")]
    pub chroma_url: Option<String>,
    /// Minimum similarity of a search result, in [0, 1] (default 0.3).
    #[arg(long, env = "LLMOPS_SEARCH_THRESHOLD")]
    pub search_threshold: Option<f32>,
    /// Most search results one file may contribute (default 3).
    #[arg(long, env = "LLMOPS_SEARCH_PER_FILE")]
    pub search_per_file: Option<usize>,
    /// LLM provider: zhipu, openai, ollama, deepseek, offline, or a name for --llm-base-url
    /// (default: zhipu when ZHIPUAI_API_KEY/ZHIPU_API_KEY is set, else offline).
    #[arg(long, env = "LLMOPS_LLM_PROVIDER")]
    pub llm_provider: Option<String>,
    /// OpenAI-compatible base URL (requests go to BASE/chat/completions).
    #[arg(long, env = "LLMOPS_LLM_BASE_URL")]
    pub llm_base_url: Option<String>,
    /// Default model of the provider (e.g. glm-4-flash).
    #[arg(long, env = "LLMOPS_LLM_MODEL")]
    pub llm_model: Option<String>,
    /// File holding the API key (mode 0600); otherwise LLMOPS_LLM_API_KEY or the
    /// provider's own variable (ZHIPUAI_API_KEY, OPENAI_API_KEY, DEEPSEEK_API_KEY).
    #[arg(long, env = "LLMOPS_LLM_KEY_FILE")]
    pub llm_key_file: Option<PathBuf>,
    /// `false` for models without function calling (text TOOL:/ARGS: protocol).
    #[arg(long, env = "LLMOPS_LLM_TOOL_CALLING")]
    pub llm_tool_calling: Option<bool>,
    /// Cap of follow mode (`tail -f`, `journalctl -f`) in seconds (default 600).
    #[arg(long, env = "LLMOPS_FOLLOW_MAX_SECS")]
    pub follow_max_secs: Option<u64>,
    /// Lines a follow keeps for its result (the last N; default 200).
    #[arg(long, env = "LLMOPS_FOLLOW_KEEP_LINES")]
    pub follow_keep_lines: Option<usize>,
    /// Memory all connections together may hold for reassembling fragmented messages, in
    /// MiB (default 64; one connection's share is at most one 8 MiB message, and 64 KiB
    /// before it completed HELLO).
    #[arg(long, env = "LLMOPS_REASSEMBLY_BUDGET_MIB")]
    pub reassembly_budget_mib: Option<usize>,
    /// A maintenance command instead of running the server (`audit verify`).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// `llmops-server <command>`: without one, the server runs.
#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum Command {
    /// The audit log.
    Audit {
        #[command(subcommand)]
        cmd: AuditCommand,
    },
}

#[derive(Debug, Clone, PartialEq, Eq, clap::Subcommand)]
pub enum AuditCommand {
    /// Checks the hash chain of DATA_DIR/logs/file_operations.log: exit 0 when intact, 1 with
    /// the first bad record otherwise.
    Verify {
        /// Data directory (default: as the server resolves it).
        #[arg(long)]
        data_dir: Option<PathBuf>,
    },
}
