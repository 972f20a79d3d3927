//! Non-interactive subcommands for scripts (`ask`, `upload`, `files`, `sessions`, `status`,
//! ...) and the line-mode chat used when not on a terminal: connecting in the session the
//! script should use, then running the subcommand. Exit codes: 0 success, 69 the server is
//! unreachable, 1 any other error.

/// `eprintln!` through `stdout::err_line`: a closed pipe ends the process with 0.
macro_rules! errln {
    ($($t:tt)*) => {
        $crate::cli::stdout::err_line(&format!($($t)*))
    };
}

/// `println!` through `stdout::line`: a closed pipe ends the process with 0.
macro_rules! outln {
    () => {
        $crate::cli::stdout::line("")
    };
    ($($t:tt)*) => {
        $crate::cli::stdout::line(&format!($($t)*))
    };
}

pub mod approve;
mod args;
mod ask;
mod exit;
mod line;
mod query;
pub mod session;
pub mod stdout;
mod transfer;
mod turn;

pub use args::{Cli, Cmd, Common};
pub use exit::EXIT_UNREACHABLE;
pub use line::line_chat;
pub use turn::{collect_turn, collect_turn_with, Step, TurnResult};

use crate::client::{Client, ClientError, ClientEvent, ClientOptions};
use exit::fail;
use session::{remember, SessionChoice};
use tokio::sync::mpsc::UnboundedReceiver;

/// Runs a subcommand and returns the process exit code.
pub async fn run(common: Common, cmd: Cmd) -> u8 {
    let state = crate::last_session::default_path();
    let remembered = state
        .as_deref()
        .and_then(|p| crate::last_session::load(p, &common.server));
    let choice = SessionChoice::of(&common, remembered);
    let opts = client_options(&common, &cmd, &choice);
    let (client, mut events) = match Client::connect(opts).await {
        Ok(c) => c,
        Err(e) => return fail(&common, &e),
    };
    if let Err(e) = check_resumed(&common, &client) {
        return fail(&common, &e);
    }
    match dispatch(&client, &mut events, &common, cmd).await {
        Ok(code) => {
            if choice.remembers() {
                remember(&client, &common.server, state.as_deref()).await;
            }
            code
        }
        Err(e) => fail(&common, &e),
    }
}

/// The connection a subcommand needs: the chosen session to resume, and whether the HELLO
/// may make a new one.
fn client_options(common: &Common, cmd: &Cmd, choice: &SessionChoice) -> ClientOptions {
    let mut opts = ClientOptions::new(common.server.clone());
    opts.resume_session = choice.resume();
    opts.auth_token = common.token.clone();
    // Sessions are made on first use (a chat, an upload), never for reading alone; with
    // --new-session the HELLO makes one as it always did.
    opts.no_new_session = cmd.read_only()
        || (*choice != SessionChoice::New
            && !(*choice == SessionChoice::OnFirstUse && cmd.uploads()));
    opts
}

/// `--session` must name a session the server has: one it did not resume is an error.
fn check_resumed(common: &Common, client: &Client) -> Result<(), ClientError> {
    if let Some(want) = &common.session {
        if !client.welcome().resumed {
            return Err(ClientError::Server {
                code: "not_found".into(),
                message: format!("会话不存在 / no session matches '{want}'"),
            });
        }
    }
    Ok(())
}

/// Runs `cmd` on the connection; the exit code, or the error to report.
async fn dispatch(
    client: &Client,
    events: &mut UnboundedReceiver<ClientEvent>,
    common: &Common,
    cmd: Cmd,
) -> Result<u8, ClientError> {
    match cmd {
        Cmd::Ask {
            uploads,
            yes_to,
            text,
        } => ask::ask_yes_to(client, common, &uploads, &yes_to, &text).await,
        Cmd::Upload {
            mode,
            rdt_threshold,
            file,
            text,
        } => {
            let mode = transfer::upload_mode(&mode, rdt_threshold);
            transfer::upload(client.clone(), common, &file, mode, &text.join(" ")).await
        }
        Cmd::Files => query::files(client, common).await,
        Cmd::Sessions => query::sessions(client, common).await,
        Cmd::Status => query::status(client, common).await,
        Cmd::Search {
            scope,
            top_k,
            query,
        } => query::search(client, common, &scope, top_k, &query.join(" ")).await,
        Cmd::Reindex { file_id } => query::reindex(client, common, &file_id).await,
        Cmd::Download {
            out,
            mode,
            force,
            target,
        } => transfer::download(client, events, common, &target, &mode, &out, force).await,
    }
}
