//! `llmops-tui` binary entry point: a subcommand for scripts, or the interactive client.

use std::process::ExitCode;

use clap::Parser;
use llmops_tui::cli::{self, Cli};

fn main() -> ExitCode {
    let args = Cli::parse();
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("llmops-tui: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let code = rt.block_on(async move {
        match args.cmd {
            Some(cmd) => cli::run(args.common, cmd).await,
            None => cli::line_chat(args.common).await,
        }
    });
    ExitCode::from(code)
}
