//! llmops server library: everything the `llmops-server` binary runs, exposed for tests.

pub mod agent;
pub mod app;
pub mod audit;
pub mod config;
pub mod logging;
pub mod net;
pub mod policy;
pub mod store;
pub mod tools;
pub mod turn;
pub mod uploads;

use std::net::SocketAddr;
use std::sync::Arc;

use anyhow::Context as _;

pub use app::Ctx;
pub use config::{Cli, Config};

/// A started server: its bound address and the handle to stop it.
pub struct Running {
    pub addr: SocketAddr,
    pub ctx: Arc<Ctx>,
    accept: tokio::task::JoinHandle<()>,
}

/// Opens the data dir, binds the listener and starts accepting.
pub async fn start(cfg: Config) -> anyhow::Result<Running> {
    std::fs::create_dir_all(&cfg.data_dir)
        .with_context(|| format!("cannot create data dir {}", cfg.data_dir.display()))?;
    std::fs::create_dir_all(cfg.uploads_dir())?;
    let store = store::Store::open(&cfg.db_path())
        .with_context(|| format!("cannot open database {}", cfg.db_path().display()))?;
    let swept = uploads::sweep(&cfg.uploads_dir(), &store)?;
    if swept > 0 {
        tracing::info!("removed {swept} partial or orphaned uploads");
    }
    let audit = audit::Audit::open(&cfg.data_dir).context("cannot open the audit log")?;
    let listener = tokio::net::TcpListener::bind(cfg.listen)
        .await
        .with_context(|| format!("cannot listen on {}", cfg.listen))?;
    let addr = listener.local_addr()?;
    let ctx = Arc::new(Ctx::new(cfg, store, audit));
    let accept = tokio::spawn(net::accept_loop(ctx.clone(), listener));
    tracing::info!(%addr, "listening");
    Ok(Running { addr, ctx, accept })
}

impl Running {
    /// Graceful shutdown: stop accepting, cancel running turns, wait for sessions to close
    /// (bounded), then return.
    pub async fn shutdown(self, grace: std::time::Duration) {
        self.ctx.shutdown.cancel();
        let _ = self.accept.await;
        self.ctx.tracker.close();
        if tokio::time::timeout(grace, self.ctx.tracker.wait())
            .await
            .is_err()
        {
            tracing::warn!("some sessions did not close within {grace:?}");
        }
    }
}
