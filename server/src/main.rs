//! `llmops-server` binary: parses configuration, starts logging and the server, and shuts
//! down gracefully on SIGINT/SIGTERM.

use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use llmops_server::config::{AuditCommand, Command};
use llmops_server::{Cli, Config};

/// Exit status when the data directory cannot be used as it is (written by a newer
/// release, or unreadable): restarting does not help, so the service unit does not.
const EXIT_DATA_DIR: u8 = 3;

fn main() -> ExitCode {
    let mut cli = Cli::parse();
    if let Some(cmd) = cli.command.take() {
        return run_command(cmd, cli);
    }
    // Before any thread: the serving process runs without glibc's per-thread caches.
    llmops_server::memory::reexec_without_tcache();
    let cfg = match Config::resolve(cli) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("llmops-server: {e}");
            return ExitCode::from(2);
        }
    };
    for w in cfg.warnings() {
        eprintln!("llmops-server: warning: {w}");
    }
    // A data dir written by a newer release is refused before logging or anything else
    // writes into it.
    if let Err(e) = llmops_server::store::schema::check(&cfg.db_path()) {
        eprintln!("llmops-server: {e}");
        return ExitCode::from(EXIT_DATA_DIR);
    }
    llmops_server::memory::tune_allocator();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("llmops-server: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match rt.block_on(run(cfg)) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("llmops-server: {e:#}");
            ExitCode::FAILURE
        }
    }
}

/// A maintenance command (no server starts).
fn run_command(cmd: Command, cli: Cli) -> ExitCode {
    match cmd {
        Command::Audit {
            cmd: AuditCommand::Verify { data_dir },
        } => {
            let dir = match data_dir.or_else(|| cli.data_dir.clone()) {
                Some(d) => d,
                None => match Config::resolve(cli) {
                    Ok(c) => c.data_dir,
                    Err(e) => {
                        eprintln!("llmops-server: {e}");
                        return ExitCode::from(2);
                    }
                },
            };
            let (code, line) = llmops_server::audit_cmd::verify(&dir);
            if code == 0 {
                println!("{line}");
            } else {
                eprintln!("{line}");
            }
            ExitCode::from(code)
        }
    }
}

async fn run(cfg: Config) -> anyhow::Result<()> {
    let _log_guard = llmops_server::logging::init(&cfg.logs_dir(), &cfg.log_level, cfg.log_output)?;
    let running = llmops_server::start(cfg).await?;
    // Readiness on stdout: scripts and tests wait for the first line instead of sleeping;
    // the optional services' bound addresses follow (same "last word is the address" form).
    println!("llmops-server listening on {}", running.addr);
    if let Some(a) = running.rdt_addr {
        println!("llmops-server rdt on {a}");
    }
    if let Some(a) = running.http_addr {
        println!("llmops-server http on {a}");
    }
    if let Some(p) = &running.socket {
        println!("llmops-server socket on {}", p.display());
    }
    println!("llmops-server ready");
    wait_for_signal().await;
    tracing::info!("shutting down");
    running.shutdown(Duration::from_secs(10)).await;
    Ok(())
}

async fn wait_for_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut term = match signal(SignalKind::terminate()) {
        Ok(s) => s,
        Err(_) => {
            let _ = tokio::signal::ctrl_c().await;
            return;
        }
    };
    tokio::select! {
        _ = tokio::signal::ctrl_c() => {}
        _ = term.recv() => {}
    }
}
