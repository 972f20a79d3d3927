//! Resolving the configuration: the CLI (flags and env, already merged by clap) over the
//! TOML file over defaults, field by field, then validated.

use std::net::SocketAddr;

use super::{
    default_config_path, default_data_dir, load_file, socket_path, tokens, AuthToken, Cli, Config,
    ConfigError, FileConfig, IndexConfig, UploadGuard,
};

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
        let auth_tokens = tokens::collect(
            &cli.auth_token,
            file.auth_token.as_deref(),
            &file.auth_tokens,
        )?;
        let cfg = merge(cli, file, llm, auth_tokens);
        cfg.validate()?;
        Ok(cfg)
    }
}

/// The configuration of `cli` over `file` over defaults, with the parts that can fail to
/// resolve (the LLM settings, the tokens) already resolved.
fn merge(
    mut cli: Cli,
    mut file: FileConfig,
    llm: Option<crate::llm::LlmSettings>,
    auth_tokens: Vec<AuthToken>,
) -> Config {
    let index = index_config(&mut cli, &mut file);
    let upload_guard = upload_guard(&cli, &file);
    let at = Listeners::merge(&cli, &file);
    let limits = ConnectionLimits::merge(&cli, &file);
    let socket = socket_path(cli.socket.take().or(file.socket.take()), &|k| {
        std::env::var_os(k)
    });
    let docs = if cli.docs.is_empty() {
        file.docs
    } else {
        cli.docs
    };
    Config {
        listen: at.listen,
        data_dir: cli
            .data_dir
            .or(file.data_dir)
            .unwrap_or_else(default_data_dir),
        log_level: cli
            .log_level
            .or(file.log_level)
            .unwrap_or_else(|| "info".into()),
        log_output: cli.log_output.or(file.log_output).unwrap_or_default(),
        auth_tokens,
        shared_sessions: cli.shared_sessions || file.shared_sessions.unwrap_or(false),
        max_connections: limits.total,
        max_connections_per_ip: limits.per_ip,
        max_preauth_connections: limits.preauth,
        max_connections_per_user: limits.per_user,
        socket,
        operators_group: cli.operators_group.or(file.operators_group),
        approvers_group: cli.approvers_group.or(file.approvers_group),
        upload_guard,
        upload_limit: cli
            .upload_limit
            .or(file.upload_limit)
            .unwrap_or(10 * 1024 * 1024),
        analyze_max_bytes: cli
            .analyze_max_bytes
            .or(file.analyze_max_bytes)
            .unwrap_or(llmops_tools::file_read::DEFAULT_ANALYZE_MAX_BYTES),
        docs,
        rdt_listen: at.rdt_listen,
        rdt_advertise: at.rdt_advertise,
        http_listen: at.http_listen,
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
        index,
    }
}

/// The addresses the server listens on and advertises.
struct Listeners {
    listen: SocketAddr,
    rdt_listen: SocketAddr,
    rdt_advertise: Option<SocketAddr>,
    http_listen: SocketAddr,
}

impl Listeners {
    fn merge(cli: &Cli, file: &FileConfig) -> Listeners {
        Listeners {
            listen: cli
                .listen
                .or(file.listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 9999))),
            rdt_listen: cli
                .rdt_listen
                .or(file.rdt_listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 9998))),
            rdt_advertise: cli.rdt_advertise.or(file.rdt_advertise),
            http_listen: cli
                .http_listen
                .or(file.http_listen)
                .unwrap_or_else(|| SocketAddr::from(([127, 0, 0, 1], 9980))),
        }
    }
}

/// How many NPLT connections may be open: in all, per peer address, before HELLO, per
/// local user.
struct ConnectionLimits {
    total: usize,
    per_ip: usize,
    preauth: usize,
    per_user: usize,
}

impl ConnectionLimits {
    fn merge(cli: &Cli, file: &FileConfig) -> ConnectionLimits {
        ConnectionLimits {
            total: cli.max_connections.or(file.max_connections).unwrap_or(256),
            per_ip: cli
                .max_connections_per_ip
                .or(file.max_connections_per_ip)
                .unwrap_or(32),
            preauth: cli
                .max_preauth_connections
                .or(file.max_preauth_connections)
                .unwrap_or(64),
            per_user: cli
                .max_connections_per_user
                .or(file.max_connections_per_user)
                .unwrap_or(32),
        }
    }
}

/// The upload guard; sizes are given in MiB.
fn upload_guard(cli: &Cli, file: &FileConfig) -> UploadGuard {
    let d = UploadGuard::default();
    let mib = |v: Option<u64>, d: u64| v.map_or(d, |m| m.saturating_mul(1 << 20));
    UploadGuard {
        stall: cli
            .upload_stall_secs
            .or(file.upload_stall_secs)
            .map_or(d.stall, std::time::Duration::from_secs),
        temp_total: mib(
            cli.upload_temp_budget_mib.or(file.upload_temp_budget_mib),
            d.temp_total,
        ),
        temp_per_client: mib(
            cli.upload_temp_per_client_mib
                .or(file.upload_temp_per_client_mib),
            d.temp_per_client,
        ),
        free_floor: mib(
            cli.upload_free_floor_mib.or(file.upload_free_floor_mib),
            d.free_floor,
        ),
    }
}

/// The index settings; the embedding endpoint's are set in the file only.
fn index_config(cli: &mut Cli, file: &mut FileConfig) -> IndexConfig {
    let d = IndexConfig::default();
    IndexConfig {
        embedder: cli
            .embedder
            .take()
            .or(file.embedder.take())
            .unwrap_or(d.embedder),
        model_dir: cli.model_dir.take().or(file.model_dir.take()),
        vector_store: cli
            .vector_store
            .take()
            .or(file.vector_store.take())
            .unwrap_or(d.vector_store),
        chroma_url: cli
            .chroma_url
            .take()
            .or(file.chroma_url.take())
            .unwrap_or(d.chroma_url),
        threshold: cli
            .search_threshold
            .or(file.search_threshold)
            .unwrap_or(d.threshold),
        per_file: cli
            .search_per_file
            .or(file.search_per_file)
            .unwrap_or(d.per_file),
        embedding_url: file.embedding_url.take(),
        embedding_model: file.embedding_model.take(),
        embedding_key_env: file.embedding_key_env.take(),
        embedding_query_prefix: file.embedding_query_prefix.take().unwrap_or_default(),
        embedding_passage_prefix: file.embedding_passage_prefix.take().unwrap_or_default(),
        embedding_input_type: file.embedding_input_type.unwrap_or(false),
    }
}
