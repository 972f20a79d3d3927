//! What `command_executor` returns: a run to its end (or its timeout or output cap), and a
//! follow run (`tail -f`, `journalctl -f`) with how it ended.

use serde::{Serialize, Serializer};

use llmops_policy::ResolvedArg;

/// One `command_executor` run (docs/tools.md).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct CommandData {
    /// The first stage's program.
    pub command: String,
    /// The first stage's arguments as shown.
    pub args: Vec<String>,
    /// The last stage's exit code; `None` when killed or ended by a signal.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    pub stopped_at_cap: bool,
    pub cwd: String,
    pub timed_out: bool,
    pub pid: Option<u32>,
    /// argv of every stage.
    pub stages: Vec<Vec<String>>,
    pub stage_exit_codes: Vec<Option<i32>>,
    /// Relative file names resolved to uploads or the working dir.
    pub resolved: Vec<ResolvedArg>,
    /// Always false here (a follow run is [`FollowData`]).
    pub follow: bool,
}

/// A follow run of `command_executor`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowData {
    pub command: String,
    pub args: Vec<String>,
    /// The exit code when the command exited by itself.
    pub exit_code: Option<i32>,
    /// The last lines kept, each ending in a newline.
    pub stdout: String,
    pub stderr: String,
    /// Fewer lines kept than read.
    pub truncated: bool,
    pub cwd: String,
    /// Always false: the follow cap is the expected end, not a timeout.
    pub timed_out: bool,
    pub pid: Option<u32>,
    pub follow: FollowStats,
}

/// How a follow run went.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FollowStats {
    pub ended: FollowEnd,
    pub elapsed_ms: u64,
    /// Lines read.
    pub lines: u64,
    pub bytes: u64,
    /// Lines kept in `stdout`.
    pub shown_lines: u64,
    /// Lines not shown live (rate limit).
    pub not_live: u64,
    pub cap_secs: u64,
}

/// Why a follow ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FollowEnd {
    /// The operator cancelled (Ctrl+C).
    Cancelled,
    /// The cap was reached.
    Cap,
    /// The command exited by itself (a file that cannot be read, a unit with no journal).
    Exited(Option<i32>),
}

impl FollowEnd {
    pub fn as_str(self) -> &'static str {
        match self {
            FollowEnd::Cancelled => "cancelled",
            FollowEnd::Cap => "cap",
            FollowEnd::Exited(_) => "exited",
        }
    }
}

impl Serialize for FollowEnd {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
