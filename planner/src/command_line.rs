//! Typed command lines: the command table the planner shares with the command policy,
//! telling a command line from a sentence that starts with a command word, pipelines split
//! into stages, and upload names in arguments resolved to their paths. No intent decisions.

use std::sync::OnceLock;

use regex::Regex;

use super::text::is_cjk;
use super::UploadRef;

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    // The patterns are literals in this file; a bad one is a programming error caught by tests.
    cell.get_or_init(|| Regex::new(pat).expect("planner regex literal is valid"))
}

/// Commands the command tool knows (the command policy's one table): a message starting
/// with one of these is a command line, not a sentence.
pub fn whitelist() -> &'static [&'static str] {
    llmops_policy::command_names()
}

/// True when `name` is a command the command tool knows.
pub fn is_known_command(name: &str) -> bool {
    whitelist().contains(&name)
}

/// Command names that are recognisably commands but are not whitelisted; seeing one at the
/// start of a message means the user typed a command we must refuse, not a sentence.
pub const OTHER_COMMANDS: &[&str] = &[
    "rm", "rmdir", "mkfs", "dd", "reboot", "shutdown", "halt", "poweroff", "init", "kill",
    "killall", "pkill", "chmod", "chown", "chgrp", "mv", "cp", "wget", "curl", "sudo", "su",
    "useradd", "userdel", "usermod", "passwd", "iptables", "service", "mount", "umount", "fdisk",
    "parted", "nc", "ncat", "bash", "sh", "zsh", "python", "python3", "perl", "crontab", "vi",
    "vim", "nano", "apt", "apt-get", "yum", "dnf", "pip", "echo", "touch", "mkdir", "ln", "tee",
    "scp", "ssh", "rsync", "tar", "zip", "unzip", "less", "more", "top", "htop", "ifconfig",
    "docker", "kubectl", "git", "sed", "awk", "xargs", "env", "export", "history", "vmstat",
    "iostat", "truncate", "shred", "wipefs", "format", "nohup", "eval", "exec", "source", "ll",
];

/// English words that mark a sentence rather than command arguments.
const EN_STOP: &[&str] = &[
    "the", "a", "an", "of", "me", "my", "for", "to", "is", "are", "what", "how", "please", "and",
    "with", "about", "in", "on", "it", "this", "that", "does", "do", "mean", "usage", "command",
    "show", "file", "files", "memory", "space", "usage?", "can", "you", "i",
];

/// A command line the user typed, split on whitespace (no shell).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandLine {
    pub command: String,
    pub args: Vec<String>,
    /// The text after the command-line prefix ("执行", "run" ...), as typed.
    pub raw: String,
}

/// Strips "执行"/"run"/"$ " style prefixes and "命令"/"一下" suffixes.
fn strip_command_prefix(text: &str) -> &str {
    static PREFIX: OnceLock<Regex> = OnceLock::new();
    static SUFFIX: OnceLock<Regex> = OnceLock::new();
    // A request verb in front ("帮我执行一下", "could you please run the command") and
    // politeness behind ("for me", "谢谢") wrap a command line; they are not its words.
    let prefix = re(
        &PREFIX,
        r"(?i)^(?:(?:please|pls|plz|can you|could you|would you|kindly|just|now|go ahead and|try)\s+)*(?:run|execute|exec|type|do)\b\s*(?:the\s+)?(?:command\b\s*)?[:：]?\s*|^(?:请|麻烦|帮忙|帮我|给我|你|再|先)*\s*(?:执行|运行|跑)(?:一下|下)?\s*(?:命令|一下)?\s*[:：]?\s*|^(?:command|命令)\s*[:：]\s*|^[$#]\s+",
    );
    let suffix = re(
        &SUFFIX,
        r"(?i)\s*(?:[,，]?\s*(?:for me|please|pls|plz|thanks|thank you|now|谢谢|一下|吧|看看|命令))+\s*[.!。！]?$",
    );
    let mut t = text.trim();
    while let Some(m) = prefix.find(t) {
        if m.end() == 0 {
            break;
        }
        t = t[m.end()..].trim_start();
    }
    if let Some(m) = suffix.find(t) {
        t = t[..m.start()].trim_end();
    }
    t
}

/// Shell operators the command tool never interprets. A single `|` between commands is a
/// pipeline, which the executor builds itself without a shell; `||` and `|&` stay operators.
pub fn shell_operator(text: &str) -> Option<&'static str> {
    ["&&", "||", "|&", ";", "`", "$(", ">", "<", "\n", "&", "$"]
        .into_iter()
        .find(|op| text.contains(op))
}

/// Splits a command line into pipeline stages on unquoted `|`, each stage tokenised like
/// [`split_args`]. One stage when there is no pipe.
pub fn split_pipeline(raw: &str) -> Vec<Vec<String>> {
    let mut stages = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in raw.chars() {
        match quote {
            Some(q) if c == q => {
                quote = None;
                cur.push(c);
            }
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                cur.push(c);
            }
            None if c == '|' => stages.push(split_args(&std::mem::take(&mut cur))),
            None => cur.push(c),
        }
    }
    stages.push(split_args(&cur));
    stages
}

fn is_arg_like(tok: &str, uploads: &[UploadRef]) -> bool {
    let lower = tok.to_lowercase();
    if tok.starts_with('-') || tok.contains('/') || tok.contains('~') || tok.parse::<f64>().is_ok()
    {
        return true;
    }
    if uploads.iter().any(|u| u.filename.to_lowercase() == lower) {
        return true;
    }
    if tok.chars().any(is_cjk) {
        // Chinese words are sentences unless they name a file with an extension.
        return file_name_re().is_match(tok);
    }
    if shell_operator(tok).is_some() {
        return true;
    }
    !EN_STOP.contains(&lower.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
}

fn file_name_re() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(&R, r"^[\p{Han}\w.\-]+\.[A-Za-z0-9]{1,8}$")
}

/// Tokenises on whitespace honouring simple single/double quotes.
fn split_args(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    let mut had = false;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                had = true;
            }
            None if c.is_whitespace() => {
                if !cur.is_empty() || had {
                    out.push(std::mem::take(&mut cur));
                    had = false;
                }
            }
            None => cur.push(c),
        }
    }
    if !cur.is_empty() || had {
        out.push(cur);
    }
    out
}

/// Parses a message that IS a command line (`ls -la`, `执行 df -h`, `grep ERROR app.log`).
/// Returns `None` for sentences that merely start with a command word.
pub fn explicit_command(text: &str, uploads: &[UploadRef]) -> Option<CommandLine> {
    let raw = strip_command_prefix(text);
    let toks = split_args(raw);
    let first = toks.first()?.to_lowercase();
    let known = is_known_command(&first) || OTHER_COMMANDS.contains(&first.as_str());
    if !known {
        // "ls&&reboot" glued together: still a command line with an operator.
        let head: String = first
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if shell_operator(&first).is_some()
            && (is_known_command(&head) || OTHER_COMMANDS.contains(&head.as_str()))
        {
            return Some(CommandLine {
                command: head,
                args: vec![],
                raw: raw.to_string(),
            });
        }
        return None;
    }
    let stages = split_pipeline(raw);
    if stages.len() > 1 && shell_operator(raw).is_none() {
        // `ps aux | grep nginx | head`: a pipeline; its stages are checked by the policy.
        let first_stage = stages.first().cloned().unwrap_or_default();
        let mut args: Vec<String> = first_stage.into_iter().skip(1).collect();
        for stage in &stages[1..] {
            args.push("|".to_string());
            args.extend(stage.iter().cloned());
        }
        return Some(CommandLine {
            command: first,
            args,
            raw: raw.to_string(),
        });
    }
    let args: Vec<String> = toks[1..].to_vec();
    if shell_operator(raw).is_some() {
        return Some(CommandLine {
            command: first,
            args,
            raw: raw.to_string(),
        });
    }
    let ok = args_fit(&first, &args, uploads);
    // "find the upgrade instructions" is a sentence, not `find`.
    if !ok {
        return None;
    }
    Some(CommandLine {
        command: first,
        args,
        raw: raw.to_string(),
    })
}

/// Whether `args` read as arguments of `command` rather than as the words of a sentence
/// ("find the upgrade instructions" is not `find`).
fn args_fit(command: &str, args: &[String], uploads: &[UploadRef]) -> bool {
    match command {
        "pwd" | "whoami" | "uptime" | "hostname" | "id" | "w" | "uname" | "dmesg" | "ss"
        | "netstat" => args.iter().all(|a| a.starts_with('-')),
        // `ip` is a command line when its object is one of ip's; the policy then decides
        // (and refuses `ip link set ...` with its reason rather than the planner guessing).
        "ip" => {
            const IP_OBJECTS: &[&str] = &[
                "a",
                "addr",
                "address",
                "l",
                "link",
                "r",
                "route",
                "n",
                "neigh",
                "neighbour",
                "rule",
                "maddr",
                "tunnel",
                "netns",
                "monitor",
                "tuntap",
                "xfrm",
                "help",
            ];
            args.iter()
                .find(|a| !a.starts_with('-'))
                .is_none_or(|obj| IP_OBJECTS.contains(&obj.as_str()))
                && !args.iter().any(|a| a.chars().any(is_cjk))
        }
        "systemctl" => {
            args.iter()
                .all(|a| a.starts_with('-') || !a.chars().any(is_cjk))
                && args.iter().any(|a| !a.starts_with('-'))
        }
        "free" => args.iter().all(|a| a.starts_with('-')),
        // `find /var/log -name '*.gz'`, `find logs -mtime -1`: a path or a test; "find foo
        // process" is a sentence.
        "find" => {
            let path = |a: &String| a.starts_with(['/', '.', '~']);
            (args.first().is_none_or(path) || args.iter().any(|a| a.starts_with('-')))
                && args.iter().all(|a| is_arg_like(a, uploads))
        }
        // `top -b -n 1 -o %MEM`: flags and their values; "top 3 ns by count" is a sentence.
        "top" | "htop" => {
            args.iter().all(|a| {
                a.starts_with('-')
                    || a.starts_with('%')
                    || a.parse::<f64>().is_ok()
                    || a.contains(',')
            }) && args.first().is_none_or(|a| a.parse::<f64>().is_err())
        }
        "df" => args
            .iter()
            .all(|a| a.starts_with('-') || a.starts_with('/') || a == "."),
        "grep" => {
            // The first non-flag token is the pattern and may be any word.
            let mut seen_pattern = false;
            args.iter().all(|a| {
                if a.starts_with('-') || seen_pattern {
                    is_arg_like(a, uploads)
                } else {
                    seen_pattern = true;
                    !a.chars().any(is_cjk) || file_name_re().is_match(a) || a.chars().count() <= 8
                }
            })
        }
        _ => args.iter().all(|a| is_arg_like(a, uploads)),
    }
}

/// Replaces file arguments that name an upload with the upload's absolute path.
pub fn resolve_command_args(command: &str, args: &[String], uploads: &[UploadRef]) -> Vec<String> {
    let cmd = llmops_policy::command::Cmd::from_name(command);
    if cmd.is_some_and(|c| !llmops_policy::command::operands_are_paths(c)) {
        return args.to_vec();
    }
    let mut out = Vec::with_capacity(args.len());
    let mut pattern_seen = command != "grep";
    let mut skip_value = false;
    for a in args {
        if skip_value {
            out.push(a.clone());
            skip_value = false;
            continue;
        }
        if a.starts_with('-') {
            // `-n 5`, `-e PATTERN`, `-m 3` take a value.
            skip_value = matches!(a.as_str(), "-n" | "-c" | "-e" | "-m" | "-A" | "-B" | "-C");
            if command == "grep" && a == "-e" {
                pattern_seen = true;
            }
            out.push(a.clone());
            continue;
        }
        if !pattern_seen {
            pattern_seen = true;
            out.push(a.clone());
            continue;
        }
        let lower = a.to_lowercase();
        let hit = uploads
            .iter()
            .rev()
            .find(|u| u.filename.to_lowercase() == lower)
            .or_else(|| {
                // `cat README` for README.md: a unique stem match.
                let stems: Vec<&UploadRef> = uploads
                    .iter()
                    .filter(|u| stem(&u.filename).to_lowercase() == lower)
                    .collect();
                if stems.len() == 1 {
                    stems.first().copied()
                } else {
                    None
                }
            });
        match hit {
            Some(u) if !a.contains('/') => out.push(u.path.to_string_lossy().into_owned()),
            _ => out.push(a.clone()),
        }
    }
    out
}

/// A file name without its extension (`README` for `README.md`).
pub fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}
