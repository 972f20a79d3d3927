//! `llmops-tui` binary entry point: a subcommand for scripts, the line-mode chat
//! (`chat --plain`, or when not on a terminal), or the full-screen client (the default).

use std::io::IsTerminal;
use std::process::ExitCode;

use clap::parser::ValueSource;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use llmops_tui::cli::{self, Cmd, Common};
use llmops_tui::config::Config;

#[derive(Debug, Parser)]
#[command(
    name = "llmops-tui",
    version,
    about = "llmops client: full-screen chat (default) and script subcommands"
)]
struct Args {
    #[command(flatten)]
    common: Common,
    #[command(subcommand)]
    cmd: Option<Top>,
}

#[derive(Debug, Subcommand)]
enum Top {
    /// Interactive chat: full-screen, or line mode with --plain.
    Chat {
        /// Line-mode chat instead of the full-screen UI.
        #[arg(long)]
        plain: bool,
    },
    #[command(flatten)]
    Script(Cmd),
}

fn main() -> ExitCode {
    let matches = Args::command().get_matches();
    let mut args = match Args::from_arg_matches(&matches) {
        Ok(a) => a,
        Err(e) => e.exit(),
    };
    let (config, warning) = Config::load();
    // Precedence: flag > env > config file > default.
    if matches.value_source("server") == Some(ValueSource::DefaultValue) {
        // Without a choice: the local server's Unix socket when there is one (no token;
        // the server knows the user), else TCP on loopback.
        args.common.server = match &config.server {
            Some(s) => s.clone(),
            None => llmops_client::endpoint::default_server(),
        };
    }
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
    let tty = std::io::stdout().is_terminal() && std::io::stdin().is_terminal();
    let code = rt.block_on(async move {
        match args.cmd {
            Some(Top::Script(cmd)) => cli::run(args.common, cmd).await,
            Some(Top::Chat { plain: true }) => cli::line_chat(args.common).await,
            Some(Top::Chat { plain: false }) | None if tty => {
                llmops_tui::run::run(args.common, config, warning).await
            }
            _ => cli::line_chat(args.common).await,
        }
    });
    // Workers blocked on terminal input must not keep the process alive.
    rt.shutdown_timeout(std::time::Duration::from_millis(100));
    ExitCode::from(code)
}
