//! Security policies: which paths the tools may touch (`path`) and which commands with which
//! arguments the command executor may run (`command`), and
//! the argv rules a standing approval grants (`grant`), and the mutating actions the agent may
//! propose for approval with their deny rules (`actions`). Pure decisions with typed errors; the
//! tools layer records every denial in the audit log. No I/O besides resolving paths.

pub mod actions;
pub mod command;
pub mod grant;
pub mod path;

pub use actions::{
    ActionConfigError, ActionError, ActionKind, ActionPolicy, ActionRequest, ActionsConfig,
    ProcInfo, ProposedAction, Signal, SystemctlVerb, Vacuum,
};
pub use command::{
    command_names, Cmd, CommandError, CommandPolicy, CommandPolicyConfig, GrepOptions, PathSource,
    Pipeline, ResolvedArg, UploadFile, ValidatedCommand, DEFAULT_ALLOWED_COMMANDS,
    FORBIDDEN_ARG_CHARS, MAX_STAGES, SAFE_PATH,
};
pub use grant::{is_pid, GrantRule, GrantRuleError, RuleToken};
pub use path::{
    PathError, PathPolicy, PathPolicyConfig, PathPolicyOverrides, DEFAULT_DENY_PATTERNS,
    DEFAULT_EXCEPTIONS, DEFAULT_SYSTEM_ROOTS, MAX_PATH_LEN,
};
