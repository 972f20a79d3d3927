//! Command policy: one table of known commands (`table.rs`), a real argv grammar per command
//! (flags, value kinds, operand kinds; unknown flags refused with the supported list),
//! pipelines split without a shell (`pipeline.rs`), and file operands resolved to this
//! session's uploads first, then the working dir and allowed roots, every one passing the path
//! policy (`resolve.rs`). grep patterns compile with the linear-time `regex` crate. Decides
//! only; `tools::command_executor` runs the validated stages without a shell.

mod argv;
mod checks;
mod custom;
mod error;
mod grep_args;
mod pipeline;
mod resolve;
mod table;

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::path::PathPolicy;

pub use argv::{is_host, is_unit_name};
pub use checks::{DU_DEFAULT_DEPTH, SYSTEMCTL_VERBS};
pub use custom::{FIND_DEFAULT_MAXDEPTH, FIND_MAX_MAXDEPTH};
pub use error::CommandError;
pub use grep_args::GrepOptions;
pub use pipeline::{ALWAYS_FORBIDDEN, MAX_STAGES};
pub use resolve::{PathSource, ResolvedArg, UploadFile};
pub use table::{operands_are_paths, Cmd};

/// Every command the policy knows (the one command table); all of them are allowed by default.
pub const DEFAULT_ALLOWED_COMMANDS: &[&str] = &table::NAMES;

/// PATH for executed commands: system directories only, so a file dropped in the working dir
/// (or a poisoned server PATH) is never what runs. `ip` lives in sbin.
pub const SAFE_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// Every command the grammar knows.
pub fn command_names() -> &'static [&'static str] {
    &table::NAMES
}

/// Characters refused outside quotes (shell metacharacters: we never run a shell, but refusing
/// them keeps intent obvious and logs clean). `|` separates pipeline stages; inside quotes
/// only `ALWAYS_FORBIDDEN` applies.
pub const FORBIDDEN_ARG_CHARS: &[char] = &[';', '&', '|', '>', '<', '`', '$', '(', ')', '\n', '\r'];

const MAX_ARGS: usize = 64;
const MAX_ARG_LEN: usize = 4096;

/// Configuration of the command policy.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CommandPolicyConfig {
    /// Whitelisted bare command names (names without a grammar are ignored).
    pub allowed: Vec<String>,
    /// Working directory of executed commands; must be inside the path allow-list.
    pub working_dir: PathBuf,
    /// Per-command timeout in milliseconds.
    pub timeout_ms: u64,
    /// Cap on captured stdout and on stderr, each.
    pub max_output_bytes: usize,
}

impl CommandPolicyConfig {
    /// Defaults: every known command, `{data_dir}/uploads` as working dir, 5 s, 100 KB.
    pub fn with_defaults(data_dir: &Path) -> Self {
        CommandPolicyConfig {
            allowed: DEFAULT_ALLOWED_COMMANDS
                .iter()
                .map(|s| s.to_string())
                .collect(),
            working_dir: data_dir.join("uploads"),
            timeout_ms: 5_000,
            max_output_bytes: 100 * 1024,
        }
    }
}

/// One validated pipeline stage.
#[derive(Debug, Clone)]
pub struct ValidatedCommand {
    /// Which command (the table entry).
    pub cmd: Cmd,
    /// Bare program name (looked up in a fixed PATH by the executor).
    pub program: String,
    /// Arguments as given (for display and audit).
    pub display_args: Vec<String>,
    /// Arguments to execute: canonical flags, file operands replaced by resolved paths.
    pub argv: Vec<OsString>,
    /// Working directory (resolved, inside the allow-list).
    pub cwd: PathBuf,
    /// Every resolved path the stage touches (checked by the path policy).
    pub paths: Vec<PathBuf>,
    /// Relative file operands and which file they resolved to.
    pub resolved: Vec<ResolvedArg>,
    /// Set for `grep`, which the executor implements itself.
    pub grep: Option<GrepOptions>,
    /// `tail -f/-F/--follow`, `journalctl -f/--follow`, `dmesg -w`: runs until stopped.
    pub follow: bool,
    /// Walks directory trees (`find`, `ls -R`, `du -a`): must not start at a shared root.
    pub recursive: bool,
}

impl ValidatedCommand {
    /// `program arg…` as the user wrote it.
    pub fn display(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.display_args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// A validated pipeline: 1..=MAX_STAGES stages, stdout of each into stdin of the next.
#[derive(Debug, Clone)]
pub struct Pipeline {
    pub stages: Vec<ValidatedCommand>,
}

impl Pipeline {
    /// Any stage follows (runs until stopped).
    pub fn follow(&self) -> bool {
        self.stages.iter().any(|s| s.follow)
    }

    /// `a x | b y` as the user wrote it.
    pub fn display(&self) -> String {
        self.stages
            .iter()
            .map(ValidatedCommand::display)
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// Every relative operand resolution, in stage order.
    pub fn resolved(&self) -> Vec<ResolvedArg> {
        self.stages
            .iter()
            .flat_map(|s| s.resolved.iter().cloned())
            .collect()
    }
}

/// What a stage builder produces (the policy adds program, cwd and paths).
#[derive(Debug)]
pub(crate) struct Built {
    pub argv: Vec<OsString>,
    pub follow: bool,
    pub recursive: bool,
    pub grep: Option<GrepOptions>,
}

/// The command policy.
#[derive(Debug, Clone)]
pub struct CommandPolicy {
    config: CommandPolicyConfig,
}

impl CommandPolicy {
    pub fn new(config: CommandPolicyConfig) -> Self {
        for name in &config.allowed {
            if Cmd::from_name(name).is_none() {
                tracing::warn!(command = %name, "allowed command has no grammar; ignored");
            }
        }
        CommandPolicy { config }
    }

    pub fn config(&self) -> &CommandPolicyConfig {
        &self.config
    }

    pub fn working_dir(&self) -> &Path {
        &self.config.working_dir
    }

    pub fn timeout(&self) -> Duration {
        Duration::from_millis(self.config.timeout_ms)
    }

    pub fn max_output_bytes(&self) -> usize {
        self.config.max_output_bytes
    }

    /// Whether `name` is a known command and allowed by the configuration.
    pub fn is_allowed(&self, name: &str) -> bool {
        Cmd::from_name(name).is_some() && self.config.allowed.iter().any(|a| a == name)
    }

    /// Validates a single command (no pipeline, no upload lookup). A `command` containing
    /// blanks (`"ls -la"`) is split as a line, as models often send it that way.
    pub fn validate(
        &self,
        command: &str,
        args: &[String],
        paths: &PathPolicy,
    ) -> Result<ValidatedCommand, CommandError> {
        let mut p = self.validate_pipeline(command, args, paths, &[])?;
        if p.stages.len() != 1 {
            return Err(CommandError::NotSingle);
        }
        Ok(p.stages.remove(0))
    }

    /// Validates a command line: `command` is a bare name or a whole line (quotes and `|`
    /// pipes allowed), `args` are literal extra words (an element that is exactly `|` splits
    /// stages). Relative file operands resolve to `uploads` (this session's, oldest first)
    /// before the working dir and the allowed roots.
    pub fn validate_pipeline(
        &self,
        command: &str,
        args: &[String],
        paths: &PathPolicy,
        uploads: &[UploadFile],
    ) -> Result<Pipeline, CommandError> {
        if command.trim().is_empty() && args.is_empty() {
            return Err(CommandError::Empty);
        }
        let words = pipeline::split_stages(command, args)?;
        let cwd = paths
            .check(&self.config.working_dir)
            .map_err(CommandError::WorkingDir)?;
        let mut stages = Vec::with_capacity(words.len());
        for (i, stage) in words.into_iter().enumerate() {
            stages.push(self.validate_stage(stage, i > 0, &cwd, paths, uploads)?);
        }
        Ok(Pipeline { stages })
    }

    fn validate_stage(
        &self,
        mut words: Vec<String>,
        has_stdin: bool,
        cwd: &Path,
        paths: &PathPolicy,
        uploads: &[UploadFile],
    ) -> Result<ValidatedCommand, CommandError> {
        let program = words.remove(0);
        let args = words;
        if program.contains('/') || program.contains('\\') {
            return Err(CommandError::NotBare { command: program });
        }
        let cmd = match Cmd::from_name(&program) {
            Some(c) if self.is_allowed(&program) => c,
            _ => return Err(CommandError::NotWhitelisted { command: program }),
        };
        if args.len() > MAX_ARGS {
            return Err(CommandError::TooManyArgs {
                count: args.len(),
                max: MAX_ARGS,
            });
        }
        if let Some(a) = args.iter().find(|a| a.len() > MAX_ARG_LEN) {
            return Err(CommandError::ArgTooLong {
                len: a.len(),
                max: MAX_ARG_LEN,
            });
        }
        let mut res = resolve::Resolver::new(paths, cwd, uploads);
        let built = match cmd {
            Cmd::Grep => {
                let g = grep_args::parse_grep(&args, has_stdin, &mut res)?;
                Built {
                    argv: args.iter().map(OsString::from).collect(),
                    follow: false,
                    recursive: false,
                    grep: Some(g),
                }
            }
            Cmd::Ip => custom::ip(&args)?,
            Cmd::Find => custom::find(&args, &mut res)?,
            other => match table::grammar(other) {
                Some(g) => checks::build(other, g, &args, &mut res)?,
                None => return Err(CommandError::NotWhitelisted { command: program }),
            },
        };
        Ok(ValidatedCommand {
            cmd,
            program,
            display_args: args,
            argv: built.argv,
            cwd: cwd.to_path_buf(),
            paths: res.checked,
            resolved: res.resolved,
            grep: built.grep,
            follow: built.follow,
            recursive: built.recursive,
        })
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_grammar;
