//! llmops server library: everything the `llmops-server` binary runs, exposed for tests.

pub mod agent;
pub mod app;
pub mod approvals;
pub mod audit_cmd;
pub mod config;
pub mod index;
pub mod llm;
pub mod logging;
pub mod memory;
pub mod net;
pub mod peer;
pub mod store;
pub mod transfer;
pub mod turn;
pub mod uploads;
pub mod wire;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context as _;

pub use app::Ctx;
pub use config::{Cli, Config};

/// A started server: its bound addresses and the handle to stop it.
pub struct Running {
    pub addr: SocketAddr,
    /// Bound RDT (UDP) address; `None` when it could not be bound (downloads then use the
    /// `nplt` fallback).
    pub rdt_addr: Option<SocketAddr>,
    /// Bound HTTP address; `None` when it could not be bound.
    pub http_addr: Option<SocketAddr>,
    /// The Unix socket local users connect to; `None` when not listening on one.
    pub socket: Option<std::path::PathBuf>,
    pub ctx: Arc<Ctx>,
    accept: tokio::task::JoinHandle<()>,
    services: Vec<tokio::task::JoinHandle<()>>,
    socket_file: Option<net::unix::SocketFile>,
}

/// Opens the data dir, binds the listener and starts accepting.
pub async fn start(cfg: Config) -> anyhow::Result<Running> {
    let (store, audit, local) = open_data(&cfg)?;
    let listener = tokio::net::TcpListener::bind(cfg.listen)
        .await
        .with_context(|| format!("cannot listen on {}", cfg.listen))?;
    let addr = listener.local_addr()?;
    let mut ctx = Ctx::new(cfg, store, audit);
    ctx.local = local;
    let ctx = Arc::new(ctx);
    start_background(&ctx);
    let accept = tokio::spawn(net::accept_loop(ctx.clone(), listener));
    tracing::info!(%addr, "listening");
    let mut services = Vec::new();
    let socket_file = listen_unix(&ctx, &mut services);
    let rdt_addr = listen_rdt(&ctx, &mut services);
    let http_addr = listen_http(&ctx, &mut services).await?;
    Ok(Running {
        addr,
        rdt_addr,
        http_addr,
        socket: socket_file.as_ref().map(|f| f.path.clone()),
        ctx,
        accept,
        services,
        socket_file,
    })
}

/// The data dir with the database (partial or orphaned uploads swept), the audit log and
/// who may use the server locally; the configuration's warnings are logged.
fn open_data(
    cfg: &Config,
) -> anyhow::Result<(store::Store, llmops_tools::audit::Audit, peer::LocalAccess)> {
    std::fs::create_dir_all(&cfg.data_dir)
        .with_context(|| format!("cannot create data dir {}", cfg.data_dir.display()))?;
    std::fs::create_dir_all(cfg.uploads_dir())?;
    let store = store::Store::open(&cfg.db_path())
        .with_context(|| format!("cannot open database {}", cfg.db_path().display()))?;
    let swept = uploads::sweep(&cfg.uploads_dir(), &store)?;
    if swept > 0 {
        tracing::info!("removed {swept} partial or orphaned uploads");
    }
    let audit =
        llmops_tools::audit::Audit::open(&cfg.data_dir).context("cannot open the audit log")?;
    let local = cfg.local_access()?;
    for w in cfg.warnings() {
        tracing::warn!("{w}");
    }
    Ok((store, audit, local))
}

/// Work that runs for the server's life without a request: docs indexing and re-scans,
/// index housekeeping, giving freed memory back.
fn start_background(ctx: &Arc<Ctx>) {
    // System docs indexing and the embedder load run in the background.
    if let Some(ix) = &ctx.index {
        ix.start_background(&ctx.cfg);
        // Doc folders are watched by a periodic re-scan, so an added, changed or removed doc
        // shows up without a restart and without any request having to trigger it.
        tokio::spawn(index::rescan_periodically(ix.clone(), ctx.shutdown.clone()));
        tokio::spawn(index::housekeep_periodically(
            ix.clone(),
            ctx.trimmer.clone(),
            ctx.shutdown.clone(),
        ));
    }
    // Closed connections may leave freed buffers in malloc's arenas: trim at most 1/s.
    tokio::spawn(
        ctx.trimmer
            .clone()
            .run(std::time::Duration::from_secs(1), ctx.shutdown.clone()),
    );
}

/// The Unix socket is optional too: a path in use or not writable is logged and local
/// users connect over TCP with a token instead.
fn listen_unix(
    ctx: &Arc<Ctx>,
    services: &mut Vec<tokio::task::JoinHandle<()>>,
) -> Option<net::unix::SocketFile> {
    let path = ctx.cfg.socket.as_ref()?;
    match net::unix::bind(path, &ctx.local) {
        Ok((l, file)) => {
            services.push(tokio::spawn(net::accept::unix_accept_loop(ctx.clone(), l)));
            tracing::info!(path = %path.display(), "unix socket listening");
            Some(file)
        }
        Err(e) => {
            tracing::warn!("cannot listen on the unix socket {}: {e}", path.display());
            None
        }
    }
}

/// The RDT (UDP) service. UDP and HTTP are optional services: a busy port is logged and
/// the server runs without them (offers in `auto` mode fall back to nplt).
fn listen_rdt(
    ctx: &Arc<Ctx>,
    services: &mut Vec<tokio::task::JoinHandle<()>>,
) -> Option<SocketAddr> {
    match net::rdt::bind(ctx.cfg.rdt_listen) {
        Ok((sock, bound)) => {
            let advertised = ctx.cfg.rdt_advertise.unwrap_or(bound);
            let _ = ctx.transfers.rdt_addr.set(advertised);
            services.push(tokio::spawn(net::rdt::serve(ctx.clone(), sock)));
            tracing::info!(%bound, %advertised, "rdt listening");
            Some(bound)
        }
        Err(e) => {
            tracing::warn!(
                "cannot bind rdt {}: {e}; rdt downloads disabled",
                ctx.cfg.rdt_listen
            );
            None
        }
    }
}

/// The HTTP download endpoint; optional, like RDT.
async fn listen_http(
    ctx: &Arc<Ctx>,
    services: &mut Vec<tokio::task::JoinHandle<()>>,
) -> anyhow::Result<Option<SocketAddr>> {
    match tokio::net::TcpListener::bind(ctx.cfg.http_listen).await {
        Ok(l) => {
            let bound = l.local_addr()?;
            let _ = ctx.transfers.http_addr.set(bound);
            services.push(tokio::spawn(net::http::serve(ctx.clone(), l)));
            tracing::info!(%bound, "http listening");
            Ok(Some(bound))
        }
        Err(e) => {
            tracing::warn!(
                "cannot bind http {}: {e}; http endpoint disabled",
                ctx.cfg.http_listen
            );
            Ok(None)
        }
    }
}

impl Running {
    /// Graceful shutdown: stop accepting, cancel running turns, wait for sessions to close
    /// (bounded), then return.
    pub async fn shutdown(self, grace: std::time::Duration) {
        self.ctx.shutdown.cancel();
        let _ = self.accept.await;
        for s in self.services {
            let _ = s.await;
        }
        if let Some(f) = &self.socket_file {
            f.remove();
        }
        self.ctx.tracker.close();
        if tokio::time::timeout(grace, self.ctx.tracker.wait())
            .await
            .is_err()
        {
            tracing::warn!("some sessions did not close within {grace:?}");
        }
    }
}
