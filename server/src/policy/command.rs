//! Command policy: whitelist of bare command names, forbidden characters, per-command argument
//! parsing so that every file operand (also after `--`, also inside options) passes the path
//! policy, and grep patterns compiled with the linear-time `regex` crate. Decides only; the
//! executor in `tools::command_executor` runs the validated argv without a shell.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::time::Duration;

use regex::{Regex, RegexBuilder};

use super::path::{PathError, PathPolicy};

/// Commands allowed by default (as in the seed contract).
pub const DEFAULT_ALLOWED_COMMANDS: &[&str] = &[
    "ls", "cat", "grep", "head", "tail", "ps", "pwd", "whoami", "df", "free",
];

/// Characters refused anywhere in the command or its arguments (shell metacharacters: we
/// never run a shell, but refusing them keeps intent obvious and logs clean).
pub const FORBIDDEN_ARG_CHARS: &[char] = &[';', '&', '|', '>', '<', '`', '$', '(', ')', '\n', '\r'];

const MAX_ARGS: usize = 64;
const MAX_ARG_LEN: usize = 4096;
/// Compiled-regex size cap for grep patterns (bounds memory, not only time).
const GREP_REGEX_SIZE_LIMIT: usize = 1 << 20;

/// Configuration of the command policy.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CommandPolicyConfig {
    /// Whitelisted bare command names.
    pub allowed: Vec<String>,
    /// Working directory of executed commands; must be inside the path allow-list.
    pub working_dir: PathBuf,
    /// Per-command timeout in milliseconds.
    pub timeout_ms: u64,
    /// Cap on captured stdout and on stderr, each.
    pub max_output_bytes: usize,
}

impl CommandPolicyConfig {
    /// Defaults: the seed whitelist, `{data_dir}/uploads` as working dir, 5 s, 100 KB.
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

/// Why a command was refused. Display texts are the user-facing (Chinese) messages.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    #[error("命令不能为空 (empty command)")]
    Empty,
    #[error("参数包含非法字符: {}", show_char(*.ch))]
    IllegalChar { ch: char, arg: String },
    #[error("命令必须是不带路径的命令名: {command}（例如 ls 而不是 /bin/ls）")]
    NotBare { command: String },
    #[error("命令不在白名单中: {command}")]
    NotWhitelisted { command: String },
    #[error("参数过多: {count} 个，上限 {max}")]
    TooManyArgs { count: usize, max: usize },
    #[error("参数过长: {len} 字节，上限 {max}")]
    ArgTooLong { len: usize, max: usize },
    #[error("{command} 不支持的选项: {option}{hint}")]
    UnsupportedOption {
        command: String,
        option: String,
        hint: String,
    },
    #[error("不允许通过选项读取文件: {option}（{command} 的该选项已禁用）")]
    FileOption { command: String, option: String },
    #[error("选项缺少参数: {option}")]
    MissingOptionValue { option: String },
    #[error("{command} 不接受参数: {arg}")]
    UnexpectedOperand { command: String, arg: String },
    #[error("ps 不允许显示进程环境变量: {arg}（可能泄露密钥 / may leak secrets）")]
    PsEnvironment { arg: String },
    #[error("grep 需要一个匹配模式 (missing pattern)")]
    GrepMissingPattern,
    #[error("grep 需要至少一个文件参数（不读取标准输入）/ grep needs at least one file")]
    GrepMissingFile,
    #[error("grep 模式无效: {pattern}（{reason}）")]
    GrepInvalidPattern { pattern: String, reason: String },
    #[error("工作目录不可用: {0}")]
    WorkingDir(PathError),
    #[error(transparent)]
    Path(#[from] PathError),
}

fn show_char(c: char) -> String {
    match c {
        '\n' => "\\n (换行)".to_string(),
        '\r' => "\\r".to_string(),
        '\0' => "\\0 (NUL)".to_string(),
        c => c.to_string(),
    }
}

impl CommandError {
    /// Short machine-readable reason for audit lines.
    pub fn code(&self) -> &'static str {
        match self {
            CommandError::Empty => "empty",
            CommandError::IllegalChar { .. } => "illegal_char",
            CommandError::NotBare { .. } => "not_bare",
            CommandError::NotWhitelisted { .. } => "not_whitelisted",
            CommandError::TooManyArgs { .. } => "too_many_args",
            CommandError::ArgTooLong { .. } => "arg_too_long",
            CommandError::UnsupportedOption { .. } => "unsupported_option",
            CommandError::FileOption { .. } => "file_option",
            CommandError::MissingOptionValue { .. } => "missing_option_value",
            CommandError::UnexpectedOperand { .. } => "unexpected_operand",
            CommandError::PsEnvironment { .. } => "ps_environment",
            CommandError::GrepMissingPattern => "grep_missing_pattern",
            CommandError::GrepMissingFile => "grep_missing_file",
            CommandError::GrepInvalidPattern { .. } => "grep_invalid_pattern",
            CommandError::WorkingDir(_) => "working_dir",
            CommandError::Path(p) => p.code(),
        }
    }
}

/// A validated grep invocation, run in-process (no backtracking engine ever sees the pattern).
#[derive(Debug, Clone)]
pub struct GrepOptions {
    /// The pattern(s) as given.
    pub patterns: Vec<String>,
    /// Compiled matcher (flags -i -F -w -x already applied).
    pub regex: Regex,
    pub invert: bool,
    pub count: bool,
    pub line_number: bool,
    pub files_with_matches: bool,
    pub only_matching: bool,
    pub quiet: bool,
    pub no_messages: bool,
    /// `Some(true)` for -H, `Some(false)` for -h, `None` = prefix when several files.
    pub with_filename: Option<bool>,
    pub max_count: Option<u64>,
    /// Resolved files, and how the user wrote them (grep prints names as given).
    pub files: Vec<(PathBuf, String)>,
}

/// A command that passed the policy.
#[derive(Debug, Clone)]
pub struct ValidatedCommand {
    /// Bare program name (looked up in a fixed PATH by the executor).
    pub program: String,
    /// Arguments as given (for display and audit).
    pub display_args: Vec<String>,
    /// Arguments to execute: file operands replaced by their resolved absolute paths.
    pub argv: Vec<OsString>,
    /// Working directory (resolved, inside the allow-list).
    pub cwd: PathBuf,
    /// Resolved file operands that were checked.
    pub paths: Vec<PathBuf>,
    /// Set for `grep`, which the executor implements itself.
    pub grep: Option<GrepOptions>,
    /// `tail -f/-F/--follow`, `journalctl -f/--follow`: runs in follow mode (streams until
    /// cancelled or its cap) instead of under the command timeout.
    pub follow: bool,
}

/// Whether `args` ask `program` to follow its input (see `ValidatedCommand::follow`).
/// Short options may be clustered (`-fn5`); a value option ends the cluster.
pub fn wants_follow(program: &str, args: &[String]) -> bool {
    let value_short = match program {
        "tail" => "ncs",
        "journalctl" => "unpbotSUgDMIck",
        _ => return false,
    };
    for a in args {
        if a == "--" {
            break;
        }
        if a == "--follow" || a.starts_with("--follow=") {
            return true;
        }
        if let Some(cluster) = a.strip_prefix('-').filter(|c| !c.starts_with('-')) {
            for ch in cluster.chars() {
                if ch == 'f' || (ch == 'F' && program == "tail") {
                    return true;
                }
                if value_short.contains(ch) {
                    break;
                }
            }
        }
    }
    false
}

/// Per-command knowledge of options and operands.
struct Spec {
    /// Non-option operands are files that must pass the path policy.
    files: bool,
    /// Non-option operands are accepted at all.
    operands: bool,
    /// Short options that take a value (`-n 5`, `-n5`).
    value_short: &'static str,
    /// Long options that take a value (`--lines 5`, `--lines=5`).
    value_long: &'static [&'static str],
}

fn spec_for(command: &str) -> Spec {
    match command {
        "ls" => Spec {
            files: true,
            operands: true,
            value_short: "IwT",
            value_long: &[
                "hide",
                "ignore",
                "format",
                "sort",
                "time",
                "block-size",
                "tabsize",
                "width",
                "quoting-style",
                "indicator-style",
                "time-style",
            ],
        },
        "cat" => Spec {
            files: true,
            operands: true,
            value_short: "",
            value_long: &[],
        },
        "head" => Spec {
            files: true,
            operands: true,
            value_short: "nc",
            value_long: &["lines", "bytes"],
        },
        "tail" => Spec {
            files: true,
            operands: true,
            value_short: "ncs",
            value_long: &[
                "lines",
                "bytes",
                "sleep-interval",
                "pid",
                "max-unchanged-stats",
            ],
        },
        // df only stats file systems (never opens file contents), so its operands are not
        // path-checked: `df -h /` is the common question.
        "df" => Spec {
            files: false,
            operands: true,
            value_short: "Btx",
            value_long: &["block-size", "type", "exclude-type", "output"],
        },
        "ps" => Spec {
            files: false,
            operands: true,
            value_short: "oOpqutUgGC",
            value_long: &[
                "format", "sort", "pid", "ppid", "user", "group", "tty", "cols", "columns", "rows",
                "lines", "width",
            ],
        },
        "free" => Spec {
            files: false,
            operands: false,
            value_short: "sc",
            value_long: &["seconds", "count"],
        },
        "pwd" | "whoami" => Spec {
            files: false,
            operands: false,
            value_short: "",
            value_long: &[],
        },
        // Commands added to the whitelist by configuration: every operand is a path.
        _ => Spec {
            files: true,
            operands: true,
            value_short: "",
            value_long: &[],
        },
    }
}

/// Long options that read a file named in their value, refused for every command.
const FILE_LONG_OPTIONS: &[&str] = &["files0-from", "file", "exclude-from", "from-file"];

/// The command policy.
#[derive(Debug, Clone)]
pub struct CommandPolicy {
    config: CommandPolicyConfig,
}

impl CommandPolicy {
    pub fn new(config: CommandPolicyConfig) -> Self {
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

    /// Validates `command` with `args`. A `command` containing spaces (`"ls -la"`) is split on
    /// whitespace, as models often send it that way.
    pub fn validate(
        &self,
        command: &str,
        args: &[String],
        paths: &PathPolicy,
    ) -> Result<ValidatedCommand, CommandError> {
        if command.trim().is_empty() {
            return Err(CommandError::Empty);
        }
        for s in std::iter::once(command).chain(args.iter().map(String::as_str)) {
            if let Some(ch) = s
                .chars()
                .find(|c| FORBIDDEN_ARG_CHARS.contains(c) || *c == '\0')
            {
                return Err(CommandError::IllegalChar {
                    ch,
                    arg: s.to_string(),
                });
            }
        }
        let mut words = command.split_whitespace();
        let program = words.next().unwrap_or_default().to_string();
        let mut all_args: Vec<String> = words.map(str::to_string).collect();
        all_args.extend(args.iter().cloned());

        if program.contains('/') || program.contains('\\') {
            return Err(CommandError::NotBare { command: program });
        }
        if !self.config.allowed.contains(&program) {
            return Err(CommandError::NotWhitelisted { command: program });
        }
        if all_args.len() > MAX_ARGS {
            return Err(CommandError::TooManyArgs {
                count: all_args.len(),
                max: MAX_ARGS,
            });
        }
        if let Some(a) = all_args.iter().find(|a| a.len() > MAX_ARG_LEN) {
            return Err(CommandError::ArgTooLong {
                len: a.len(),
                max: MAX_ARG_LEN,
            });
        }
        let cwd = paths
            .check(&self.config.working_dir)
            .map_err(CommandError::WorkingDir)?;

        if program == "grep" {
            let grep = parse_grep(&all_args, &cwd, paths)?;
            let checked = grep.files.iter().map(|(p, _)| p.clone()).collect();
            return Ok(ValidatedCommand {
                program,
                argv: all_args.iter().map(OsString::from).collect(),
                display_args: all_args,
                cwd,
                paths: checked,
                grep: Some(grep),
                follow: false,
            });
        }

        let spec = spec_for(&program);
        let mut argv: Vec<OsString> = Vec::with_capacity(all_args.len());
        let mut checked = Vec::new();
        let mut operands = 0usize;
        let mut only_operands = false;
        let mut i = 0;
        while i < all_args.len() {
            let arg = &all_args[i];
            i += 1;
            let is_option = !only_operands && arg.starts_with('-') && arg != "-";
            if !only_operands && arg == "--" {
                only_operands = true;
                argv.push(arg.into());
                continue;
            }
            if is_option {
                if let Some(long) = arg.strip_prefix("--") {
                    let (name, inline) = match long.split_once('=') {
                        Some((n, v)) => (n, Some(v)),
                        None => (long, None),
                    };
                    if FILE_LONG_OPTIONS.contains(&name) {
                        return Err(CommandError::FileOption {
                            command: program,
                            option: format!("--{name}"),
                        });
                    }
                    argv.push(arg.into());
                    if spec.value_long.contains(&name) && inline.is_none() {
                        let v =
                            all_args
                                .get(i)
                                .ok_or_else(|| CommandError::MissingOptionValue {
                                    option: arg.clone(),
                                })?;
                        argv.push(v.into());
                        i += 1;
                    }
                } else {
                    // Short cluster: `-la`, `-n5`, `-n 5`.
                    argv.push(arg.into());
                    let body: Vec<char> = arg[1..].chars().collect();
                    for (k, c) in body.iter().enumerate() {
                        if spec.value_short.contains(*c) {
                            if k + 1 == body.len() {
                                let v = all_args.get(i).ok_or_else(|| {
                                    CommandError::MissingOptionValue {
                                        option: arg.clone(),
                                    }
                                })?;
                                argv.push(v.into());
                                i += 1;
                            }
                            break;
                        }
                    }
                }
                continue;
            }
            // An operand.
            operands += 1;
            if !spec.operands {
                return Err(CommandError::UnexpectedOperand {
                    command: program,
                    arg: arg.clone(),
                });
            }
            if program == "ps" && !arg.starts_with('-') && arg.contains('e') {
                // BSD-style `ps e` / `ps aeux` prints every process's environment.
                return Err(CommandError::PsEnvironment { arg: arg.clone() });
            }
            if spec.files && arg != "-" {
                let resolved = paths.check_str(arg, &cwd)?;
                argv.push(resolved.clone().into_os_string());
                checked.push(resolved);
            } else {
                argv.push(arg.into());
            }
        }
        // A bare `ls` lists the working dir, which was checked above; record it as the path.
        if program == "ls" && operands == 0 {
            checked.push(cwd.clone());
        }
        let follow = wants_follow(&program, &all_args);
        Ok(ValidatedCommand {
            program,
            display_args: all_args,
            argv,
            cwd,
            paths: checked,
            grep: None,
            follow,
        })
    }
}

fn grep_unsupported(option: &str) -> CommandError {
    let hint = match option {
        "-P" | "--perl-regexp" => "（不支持回溯正则 / backtracking regex is disabled）",
        "-r" | "-R" | "--recursive" | "--dereference-recursive" => {
            "（不支持递归搜索，请列出具体文件 / list files explicitly）"
        }
        _ => "（支持 -i -n -c -v -E -F -G -w -x -H -h -l -o -q -s -m N -e PATTERN）",
    };
    CommandError::UnsupportedOption {
        command: "grep".to_string(),
        option: option.to_string(),
        hint: hint.to_string(),
    }
}

fn parse_grep(
    args: &[String],
    cwd: &Path,
    paths: &PathPolicy,
) -> Result<GrepOptions, CommandError> {
    let mut patterns: Vec<String> = Vec::new();
    let mut operands: Vec<String> = Vec::new();
    let (mut ignore_case, mut fixed, mut word, mut line) = (false, false, false, false);
    let mut opts = GrepFlags::default();
    let mut only_operands = false;
    let mut i = 0;
    let take_value = |i: &mut usize, option: &str| -> Result<String, CommandError> {
        let v = args
            .get(*i)
            .ok_or_else(|| CommandError::MissingOptionValue {
                option: option.to_string(),
            })?;
        *i += 1;
        Ok(v.clone())
    };
    while i < args.len() {
        let arg = args[i].clone();
        i += 1;
        if only_operands || arg == "-" || !arg.starts_with('-') {
            operands.push(arg);
            continue;
        }
        if arg == "--" {
            only_operands = true;
            continue;
        }
        if let Some(long) = arg.strip_prefix("--") {
            let (name, inline) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (long, None),
            };
            match name {
                "ignore-case" => ignore_case = true,
                "no-ignore-case" => ignore_case = false,
                "line-number" => opts.line_number = true,
                "count" => opts.count = true,
                "invert-match" => opts.invert = true,
                "extended-regexp" | "basic-regexp" => fixed = false,
                "fixed-strings" => fixed = true,
                "word-regexp" => word = true,
                "line-regexp" => line = true,
                "with-filename" => opts.with_filename = Some(true),
                "no-filename" => opts.with_filename = Some(false),
                "files-with-matches" => opts.files_with_matches = true,
                "only-matching" => opts.only_matching = true,
                "quiet" | "silent" => opts.quiet = true,
                "no-messages" => opts.no_messages = true,
                "color" | "colour" => {}
                "regexp" => {
                    let v = match inline {
                        Some(v) => v,
                        None => take_value(&mut i, &arg)?,
                    };
                    patterns.push(v);
                }
                "max-count" => {
                    let v = match inline {
                        Some(v) => v,
                        None => take_value(&mut i, &arg)?,
                    };
                    opts.max_count = Some(parse_count(&arg, &v)?);
                }
                "file" | "exclude-from" | "files0-from" => {
                    return Err(CommandError::FileOption {
                        command: "grep".into(),
                        option: format!("--{name}"),
                    })
                }
                _ => return Err(grep_unsupported(&format!("--{name}"))),
            }
            continue;
        }
        let body: Vec<char> = arg[1..].chars().collect();
        let mut k = 0;
        while k < body.len() {
            let c = body[k];
            k += 1;
            match c {
                'i' | 'y' => ignore_case = true,
                'n' => opts.line_number = true,
                'c' => opts.count = true,
                'v' => opts.invert = true,
                'E' | 'G' => fixed = false,
                'F' => fixed = true,
                'w' => word = true,
                'x' => line = true,
                'H' => opts.with_filename = Some(true),
                'h' => opts.with_filename = Some(false),
                'l' => opts.files_with_matches = true,
                'o' => opts.only_matching = true,
                'q' => opts.quiet = true,
                's' => opts.no_messages = true,
                'e' | 'm' => {
                    let rest: String = body[k..].iter().collect();
                    let v = if rest.is_empty() {
                        take_value(&mut i, &arg)?
                    } else {
                        rest
                    };
                    if c == 'e' {
                        patterns.push(v);
                    } else {
                        opts.max_count = Some(parse_count(&arg, &v)?);
                    }
                    k = body.len();
                }
                'f' => {
                    return Err(CommandError::FileOption {
                        command: "grep".into(),
                        option: "-f".into(),
                    })
                }
                other => return Err(grep_unsupported(&format!("-{other}"))),
            }
        }
    }
    if patterns.is_empty() {
        if operands.is_empty() {
            return Err(CommandError::GrepMissingPattern);
        }
        patterns.push(operands.remove(0));
    }
    if operands.is_empty() {
        return Err(CommandError::GrepMissingFile);
    }
    let mut files = Vec::with_capacity(operands.len());
    for op in &operands {
        if op == "-" {
            return Err(CommandError::GrepMissingFile);
        }
        files.push((paths.check_str(op, cwd)?, op.clone()));
    }
    let alternatives: Vec<String> = patterns
        .iter()
        .map(|p| {
            let body = if fixed { regex::escape(p) } else { p.clone() };
            if line {
                format!("^(?:{body})$")
            } else if word {
                format!(r"\b(?:{body})\b")
            } else {
                format!("(?:{body})")
            }
        })
        .collect();
    let joined = alternatives.join("|");
    let regex = RegexBuilder::new(&joined)
        .case_insensitive(ignore_case)
        .size_limit(GREP_REGEX_SIZE_LIMIT)
        .dfa_size_limit(GREP_REGEX_SIZE_LIMIT)
        .build()
        .map_err(|e| CommandError::GrepInvalidPattern {
            pattern: patterns.join(" | "),
            reason: e
                .to_string()
                .lines()
                .last()
                .unwrap_or("invalid")
                .trim()
                .to_string(),
        })?;
    Ok(GrepOptions {
        patterns,
        regex,
        invert: opts.invert,
        count: opts.count,
        line_number: opts.line_number,
        files_with_matches: opts.files_with_matches,
        only_matching: opts.only_matching,
        quiet: opts.quiet,
        no_messages: opts.no_messages,
        with_filename: opts.with_filename,
        max_count: opts.max_count,
        files,
    })
}

#[derive(Default)]
struct GrepFlags {
    invert: bool,
    count: bool,
    line_number: bool,
    files_with_matches: bool,
    only_matching: bool,
    quiet: bool,
    no_messages: bool,
    with_filename: Option<bool>,
    max_count: Option<u64>,
}

fn parse_count(option: &str, v: &str) -> Result<u64, CommandError> {
    v.parse().map_err(|_| CommandError::UnsupportedOption {
        command: "grep".into(),
        option: format!("{option} {v}"),
        hint: "（需要一个非负整数 / expects a number）".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::path::PathPolicyConfig;
    use std::fs;
    use std::os::unix::fs::symlink;

    struct Fx {
        _tmp: tempfile::TempDir,
        uploads: PathBuf,
        outside: PathBuf,
        paths: PathPolicy,
        cmds: CommandPolicy,
    }

    fn fx() -> Fx {
        let tmp = tempfile::tempdir().expect("tempdir");
        let root = fs::canonicalize(tmp.path()).expect("canon");
        let data = root.join("data");
        let uploads = data.join("uploads");
        let outside = root.join("outside");
        fs::create_dir_all(&uploads).expect("mkdir");
        fs::create_dir_all(&outside).expect("mkdir");
        fs::write(uploads.join("app.log"), "ok\nERROR boom\n").expect("write");
        fs::write(outside.join("x.txt"), "x").expect("write");
        Fx {
            _tmp: tmp,
            paths: PathPolicy::new(&PathPolicyConfig::with_defaults(&data, &[])),
            cmds: CommandPolicy::new(CommandPolicyConfig::with_defaults(&data)),
            uploads,
            outside,
        }
    }

    fn v(f: &Fx, cmd: &str, args: &[&str]) -> Result<ValidatedCommand, CommandError> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        f.cmds.validate(cmd, &args, &f.paths)
    }

    fn refused(f: &Fx, cmd: &str, args: &[&str]) -> String {
        v(f, cmd, args)
            .expect_err(&format!("{cmd} {args:?} must be refused"))
            .to_string()
    }

    #[test]
    fn policy_cmd_follow_flag() {
        let f = fx();
        for args in [
            &["-f", "app.log"][..],
            &["-F", "app.log"],
            &["--follow", "app.log"],
            &["--follow=name", "app.log"],
            &["-fn", "5", "app.log"],
            &["-n", "5", "-f", "app.log"],
            &["-qf", "app.log"],
        ] {
            assert!(v(&f, "tail", args).expect("valid").follow, "{args:?}");
        }
        for args in [
            &["app.log"][..],
            &["-n", "5", "app.log"],
            &["-n5", "app.log"],
        ] {
            assert!(!v(&f, "tail", args).expect("valid").follow, "{args:?}");
        }
        assert!(!v(&f, "cat", &["app.log"]).expect("valid").follow);
        let s = |a: &[&str]| a.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        // `-nf` is `-n f`: a value, not the flag; nor is anything after `--`.
        assert!(!wants_follow("tail", &s(&["-nf"])));
        assert!(!wants_follow("tail", &s(&["--", "-f"])));
        assert!(wants_follow("journalctl", &s(&["-u", "nginx", "-f"])));
        assert!(wants_follow("journalctl", &s(&["--follow"])));
        assert!(!wants_follow(
            "journalctl",
            &s(&["-u", "nginx", "-n", "20"])
        ));
        assert!(!wants_follow("journalctl", &s(&["-uf"])));
    }

    #[test]
    fn policy_cmd_seed_examples_have_specific_messages() {
        let f = fx();
        assert_eq!(refused(&f, "rm", &["-rf", "/"]), "命令不在白名单中: rm");
        assert_eq!(refused(&f, "rm -rf /", &[]), "命令不在白名单中: rm");
        assert_eq!(
            refused(&f, "cat", &["/etc/shadow"]),
            "路径匹配禁止模式: /etc/shadow"
        );
        assert_eq!(refused(&f, "ls; reboot", &[]), "参数包含非法字符: ;");
        assert_eq!(refused(&f, "ls", &[";", "reboot"]), "参数包含非法字符: ;");
        assert_eq!(
            refused(&f, "ps", &["aux", "|", "head"]),
            "参数包含非法字符: |"
        );
        assert_eq!(refused(&f, "ps aux | head", &[]), "参数包含非法字符: |");
    }

    #[test]
    fn policy_cmd_every_forbidden_char_is_refused() {
        let f = fx();
        for arg in [
            "a;b", "a&b", "a&&b", "a|b", "a>b", "a<b", "`id`", "$(id)", "${HOME}", "(x)", "a\nb",
            "a\rb", "a\0b",
        ] {
            let e = v(&f, "ls", &[arg]).expect_err(arg);
            assert!(
                matches!(e, CommandError::IllegalChar { .. }),
                "{arg}: {e:?}"
            );
            assert!(e.to_string().starts_with("参数包含非法字符: "));
        }
        assert_eq!(refused(&f, "ls", &["a\nb"]), "参数包含非法字符: \\n (换行)");
    }

    #[test]
    fn policy_cmd_command_names_with_paths_are_refused() {
        let f = fx();
        for c in [
            "/bin/ls",
            "./ls",
            "../../bin/cat",
            "bin/ls",
            "\\bin\\ls",
            "/usr/bin/rm",
        ] {
            let e = v(&f, c, &[]).expect_err(c);
            assert!(matches!(e, CommandError::NotBare { .. }), "{c}: {e:?}");
        }
        assert_eq!(
            refused(&f, "/bin/ls", &[]),
            "命令必须是不带路径的命令名: /bin/ls（例如 ls 而不是 /bin/ls）"
        );
        for c in [
            "rm", "sh", "bash", "python3", "curl", "LS", "sudo", "find", "xargs",
        ] {
            assert!(
                matches!(v(&f, c, &[]), Err(CommandError::NotWhitelisted { .. })),
                "{c}"
            );
        }
        assert_eq!(refused(&f, "", &[]), "命令不能为空 (empty command)");
    }

    #[test]
    fn policy_cmd_file_operands_pass_path_policy() {
        let f = fx();
        let ok = v(&f, "cat", &["app.log"]).expect("allowed");
        assert_eq!(ok.argv, vec![OsString::from(f.uploads.join("app.log"))]);
        assert_eq!(ok.paths, vec![f.uploads.join("app.log")]);
        for (cmd, args) in [
            ("cat", vec!["../../outside/x.txt"]),
            ("head", vec!["-n", "5", "/etc/hostname"]),
            ("tail", vec!["-n5", "/etc/hostname"]),
            ("ls", vec!["-la", "/"]),
            ("ls", vec!["/root"]),
            ("cat", vec!["app.log", "/etc/hostname"]),
        ] {
            let e = v(&f, cmd, &args).expect_err(cmd);
            assert!(
                matches!(e, CommandError::Path(PathError::NotAllowed { .. })),
                "{cmd} {args:?}: {e:?}"
            );
        }
        // Values of value-taking options are not mistaken for paths.
        let ok = v(&f, "head", &["-n", "5", "app.log"]).expect("head -n 5");
        assert_eq!(ok.paths.len(), 1);
        let ok = v(&f, "tail", &["--lines", "3", "app.log"]).expect("tail --lines 3");
        assert_eq!(ok.paths.len(), 1);
    }

    #[test]
    fn policy_cmd_option_injection_is_handled() {
        let f = fx();
        // After `--` everything is an operand, even `-f`-looking names.
        let e = v(&f, "cat", &["--", "/etc/shadow"]).expect_err("--");
        assert_eq!(e.to_string(), "路径匹配禁止模式: /etc/shadow");
        let e = v(&f, "cat", &["--", "-f"]).expect("`-f` is a (nonexistent) file inside uploads");
        assert_eq!(e.paths, vec![f.uploads.join("-f")]);
        // grep's pattern-file options are refused.
        assert_eq!(
            refused(&f, "grep", &["-f", "/etc/shadow", "app.log"]),
            "不允许通过选项读取文件: -f（grep 的该选项已禁用）"
        );
        assert_eq!(
            refused(&f, "grep", &["--file=/etc/shadow", "app.log"]),
            "不允许通过选项读取文件: --file（grep 的该选项已禁用）"
        );
        assert_eq!(
            refused(&f, "grep", &["-if", "/etc/shadow", "app.log"]),
            "不允许通过选项读取文件: -f（grep 的该选项已禁用）"
        );
        assert!(matches!(
            v(&f, "cat", &["--files0-from=/etc/shadow"]),
            Err(CommandError::FileOption { .. })
        ));
        // grep file operands after `--` are checked.
        assert_eq!(
            refused(&f, "grep", &["x", "--", "/etc/shadow"]),
            "路径匹配禁止模式: /etc/shadow"
        );
        assert_eq!(
            refused(&f, "grep", &["-e", "root", "/etc/passwd"]),
            "路径匹配禁止模式: /etc/passwd"
        );
        assert!(matches!(
            v(&f, "grep", &["-r", "x", "."]),
            Err(CommandError::UnsupportedOption { .. })
        ));
        assert!(refused(&f, "grep", &["-P", "x", "app.log"]).contains("回溯"));
    }

    #[test]
    fn policy_cmd_symlink_operand_out_of_allow_list_is_refused() {
        let f = fx();
        symlink(f.outside.join("x.txt"), f.uploads.join("link")).expect("symlink");
        assert!(matches!(
            v(&f, "cat", &["link"]),
            Err(CommandError::Path(PathError::NotAllowed { .. }))
        ));
        symlink("/etc/shadow", f.uploads.join("sh")).expect("symlink");
        assert_eq!(
            refused(&f, "tail", &["sh"]),
            "路径匹配禁止模式: /etc/shadow"
        );
    }

    #[test]
    fn policy_cmd_bare_ls_checks_working_dir() {
        let f = fx();
        let ok = v(&f, "ls", &["-la"]).expect("bare ls");
        assert_eq!(ok.paths, vec![f.uploads.clone()]);
        assert_eq!(ok.cwd, f.uploads);
        // A working dir outside the allow-list makes every command refuse.
        let mut cfg = f.cmds.config().clone();
        cfg.working_dir = f.outside.clone();
        let bad = CommandPolicy::new(cfg);
        let e = bad.validate("ls", &[], &f.paths).expect_err("outside cwd");
        assert!(matches!(e, CommandError::WorkingDir(_)));
    }

    #[test]
    fn policy_cmd_grep_patterns_compile_with_regex_crate() {
        let f = fx();
        // `|` is a forbidden character even here; alternation is spelled with several -e.
        assert!(matches!(
            v(&f, "grep", &["-E", "error|warn", "app.log"]),
            Err(CommandError::IllegalChar { ch: '|', .. })
        ));
        let g = v(&f, "grep", &["-in", "-e", "error", "-e", "warn", "app.log"]).expect("grep");
        let opts = g.grep.expect("grep options");
        assert!(opts.regex.is_match("Error here") && opts.regex.is_match("WARN: x"));
        assert!(opts.line_number);
        assert_eq!(
            opts.files,
            vec![(f.uploads.join("app.log"), "app.log".to_string())]
        );
        // Back-references need backtracking: refused, not run. (Look-arounds need `(`,
        // which is a forbidden character anyway.)
        for bad in [r"a\1", "a{99999999}", "[", "[z-a]", "*x"] {
            let e = v(&f, "grep", &["-e", bad, "app.log"]);
            assert!(
                matches!(e, Err(CommandError::GrepInvalidPattern { .. })),
                "{bad}: {e:?}"
            );
        }
        // -F escapes regex syntax.
        let g = v(&f, "grep", &["-F", "a.b(", "app.log"]);
        // `(` is a forbidden char anyway.
        assert!(matches!(g, Err(CommandError::IllegalChar { .. })));
        let g = v(&f, "grep", &["-F", "a.b*", "app.log"]).expect("fixed");
        let re = g.grep.expect("grep").regex;
        assert!(re.is_match("xa.b*y") && !re.is_match("axb"));
        assert!(matches!(
            v(&f, "grep", &["x"]),
            Err(CommandError::GrepMissingFile)
        ));
        assert!(matches!(
            v(&f, "grep", &[]),
            Err(CommandError::GrepMissingPattern)
        ));
    }

    #[test]
    fn policy_cmd_no_operand_commands_and_ps_environment() {
        let f = fx();
        assert!(v(&f, "pwd", &[]).is_ok());
        assert!(v(&f, "whoami", &[]).is_ok());
        assert!(v(&f, "free", &["-h"]).is_ok());
        assert!(v(&f, "df", &["-h", "/"]).is_ok());
        assert!(v(&f, "ps", &["aux"]).is_ok());
        assert!(v(&f, "ps", &["-ef"]).is_ok());
        assert_eq!(refused(&f, "whoami", &["root"]), "whoami 不接受参数: root");
        assert!(matches!(
            v(&f, "ps", &["auxe"]),
            Err(CommandError::PsEnvironment { .. })
        ));
        assert!(matches!(
            v(&f, "ps", &["e"]),
            Err(CommandError::PsEnvironment { .. })
        ));
    }

    #[test]
    fn policy_cmd_limits() {
        let f = fx();
        let many: Vec<&str> = vec!["-l"; 65];
        assert!(matches!(
            v(&f, "ls", &many),
            Err(CommandError::TooManyArgs { .. })
        ));
        let long = "a".repeat(5000);
        assert!(matches!(
            v(&f, "ls", &[&long]),
            Err(CommandError::ArgTooLong { .. })
        ));
    }

    #[test]
    fn policy_cmd_configurable_whitelist() {
        let f = fx();
        let mut cfg = f.cmds.config().clone();
        cfg.allowed = vec!["ls".into()];
        let narrow = CommandPolicy::new(cfg);
        assert!(matches!(
            narrow.validate("cat", &["app.log".into()], &f.paths),
            Err(CommandError::NotWhitelisted { .. })
        ));
    }
}
