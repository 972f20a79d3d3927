//! Exit codes of the script subcommands (0 success, 69 the server is unreachable, 1 any
//! other error) and how a failure is reported: a JSON object on stdout with `--json`, else
//! a line on stderr.

use serde_json::json;

use super::args::Common;
use crate::client::ClientError;

/// The server could not be reached (sysexits EX_UNAVAILABLE).
pub const EXIT_UNREACHABLE: u8 = 69;

/// Reports `e` and returns the exit code it means.
pub(super) fn fail(common: &Common, e: &ClientError) -> u8 {
    let code = match e {
        ClientError::Unreachable { .. } | ClientError::NotNplt { .. } => EXIT_UNREACHABLE,
        _ => 1,
    };
    if common.json {
        let kind = match e {
            ClientError::Server { code, .. } => code.clone(),
            ClientError::NoSuchFolder(_) => "bad_destination".into(),
            ClientError::Unreachable { .. } => "unreachable".into(),
            ClientError::NotNplt { .. } => "not_nplt".into(),
            _ => "error".into(),
        };
        outln!("{}", json!({"error": e.to_string(), "code": kind}));
    } else {
        errln!("llmops-tui: {e}");
    }
    code
}
