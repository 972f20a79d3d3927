//! Slot extraction: metric, explicit commands and their arguments, "first/last N lines",
//! file names matched against the session's uploads, search queries and upload references.
//! Pure functions of the text and the upload list; no intent decisions here.

use std::sync::OnceLock;

use regex::Regex;

use super::text::{ascii_words, contains_any, has_word, is_cjk};
use super::UploadRef;

/// Commands the command tool knows (the command policy's one table): a message starting
/// with one of these is a command line, not a sentence.
pub fn whitelist() -> &'static [&'static str] {
    crate::policy::command::command_names()
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

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    // The patterns are literals in this file; a bad one is a programming error caught by tests.
    cell.get_or_init(|| Regex::new(pat).expect("planner regex literal is valid"))
}

// ---------------------------------------------------------------- monitor metric

/// Which resource families a text mentions.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct MonitorMention {
    pub cpu: bool,
    pub memory: bool,
    pub disk: bool,
    pub general: bool,
}

impl MonitorMention {
    pub fn any(&self) -> bool {
        self.cpu || self.memory || self.disk || self.general
    }

    /// The `metric` argument: one family, or `all` when several or the whole system.
    pub fn metric(&self) -> &'static str {
        let n = [self.cpu, self.memory, self.disk]
            .iter()
            .filter(|b| **b)
            .count();
        if self.general || n != 1 {
            "all"
        } else if self.cpu {
            "cpu"
        } else if self.memory {
            "memory"
        } else {
            "disk"
        }
    }
}

pub fn monitor_mention(text: &str) -> MonitorMention {
    let words = ascii_words(text);
    let w = |x: &str| has_word(&words, x);
    MonitorMention {
        cpu: w("cpu")
            || w("load")
            || w("processor")
            || contains_any(text, &["处理器", "负载", "cpu占", "算力"]),
        memory: w("memory")
            || w("ram")
            || w("mem")
            || w("swap")
            || contains_any(text, &["内存", "交换分区"]),
        disk: w("disk")
            || w("disks")
            || w("storage")
            || contains_any(
                text,
                &[
                    "磁盘",
                    "硬盘",
                    "存储",
                    "剩余空间",
                    "磁盘空间",
                    "根分区",
                    "分区",
                    "空间还",
                ],
            )
            || (w("space") && !w("memory")),
        general: contains_any(
            text,
            &[
                "系统状态",
                "系统资源",
                "资源使用",
                "资源占用",
                "服务器状态",
                "系统整体",
                "系统运行",
                "运行状况",
                "健康",
                "系统性能",
                "服务器性能",
                "机器状态",
                "整体资源",
                "资源概览",
                "资源够",
                "服务器压力",
                "卡不卡",
                "system status",
                "system health",
                "server status",
                "resource",
                "health check",
                "overall",
                "machine status",
            ],
        ) || (text.contains("系统") && text.contains("状态")),
    }
}

// ---------------------------------------------------------------- explicit commands

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
    let mut t = text.trim();
    const PREFIXES: &[&str] = &[
        "请帮我执行",
        "帮我执行一下",
        "帮我执行",
        "请执行",
        "执行一下",
        "执行命令",
        "执行",
        "帮我运行",
        "运行一下",
        "运行命令",
        "运行",
        "跑一下",
        "please run ",
        "run the command ",
        "run command ",
        "run ",
        "execute ",
        "exec ",
        "command:",
        "命令:",
        "$ ",
        "# ",
    ];
    loop {
        let before = t;
        for p in PREFIXES {
            if t.len() >= p.len()
                && t.is_char_boundary(p.len())
                && t[..p.len()].eq_ignore_ascii_case(p)
            {
                t = t[p.len()..].trim_start();
                break;
            }
        }
        if t == before {
            break;
        }
    }
    for s in ["命令", "一下", "看看"] {
        if let Some(x) = t.strip_suffix(s) {
            t = x.trim_end();
        }
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
    let ok = match first.as_str() {
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
    };
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

/// Replaces file arguments that name an upload with the upload's absolute path.
pub fn resolve_command_args(command: &str, args: &[String], uploads: &[UploadRef]) -> Vec<String> {
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

// ---------------------------------------------------------------- first/last N lines

/// `head`/`tail` and a line count from "前5行", "最后 20 行", "first 3 lines", "the last lines".
pub fn line_window(text: &str) -> Option<(&'static str, u32)> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    static EN: OnceLock<Regex> = OnceLock::new();
    let zh = re(
        &ZH,
        r"(前|头|开头|最前面|最后|末尾|最末|后|结尾|尾部)\s*的?\s*(\d+|[一二两三四五六七八九十百]+)?\s*行",
    );
    let en = re(
        &EN,
        r"(?i)\b(first|top|beginning|head|last|final|bottom|end|tail)\s+(?:(\d+|one|two|three|four|five|six|seven|eight|nine|ten|twenty|fifty|hundred)\s+)?lines?\b",
    );
    if let Some(c) = zh.captures(text) {
        let which = &c[1];
        let n = c.get(2).map(|m| parse_count(m.as_str())).unwrap_or(10);
        let cmd = if ["前", "头", "开头", "最前面"].contains(&which) {
            "head"
        } else {
            "tail"
        };
        return Some((cmd, n.clamp(1, 500)));
    }
    if let Some(c) = en.captures(text) {
        let which = c[1].to_lowercase();
        let n = c.get(2).map(|m| parse_count(m.as_str())).unwrap_or(10);
        let cmd = if ["first", "top", "beginning", "head"].contains(&which.as_str()) {
            "head"
        } else {
            "tail"
        };
        return Some((cmd, n.clamp(1, 500)));
    }
    None
}

/// Parses "5", "五", "两", "二十", "ten".
pub fn parse_count(s: &str) -> u32 {
    if let Ok(n) = s.parse::<u32>() {
        return n;
    }
    match s.to_lowercase().as_str() {
        "one" => return 1,
        "two" => return 2,
        "three" => return 3,
        "four" => return 4,
        "five" => return 5,
        "six" => return 6,
        "seven" => return 7,
        "eight" => return 8,
        "nine" => return 9,
        "ten" => return 10,
        "twenty" => return 20,
        "fifty" => return 50,
        "hundred" => return 100,
        _ => {}
    }
    let digit = |c: char| match c {
        '一' => Some(1),
        '二' | '两' => Some(2),
        '三' => Some(3),
        '四' => Some(4),
        '五' => Some(5),
        '六' => Some(6),
        '七' => Some(7),
        '八' => Some(8),
        '九' => Some(9),
        _ => None,
    };
    let mut total = 0;
    let mut cur = 0;
    for c in s.chars() {
        match c {
            '十' => {
                total += if cur == 0 { 10 } else { cur * 10 };
                cur = 0;
            }
            '百' => {
                total += if cur == 0 { 100 } else { cur * 100 };
                cur = 0;
            }
            _ => cur = digit(c).unwrap_or(0),
        }
    }
    let n = total + cur;
    if n == 0 {
        10
    } else {
        n
    }
}

// ---------------------------------------------------------------- files

pub fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(i) if i > 0 => &name[..i],
        _ => name,
    }
}

pub fn extension(name: &str) -> String {
    match name.rfind('.') {
        Some(i) if i > 0 => name[i + 1..].to_lowercase(),
        _ => String::new(),
    }
}

/// Kinds of file a phrase like "配置文件" or "the logs" can mean.
struct Category {
    words: &'static [&'static str],
    exts: &'static [&'static str],
    name_hints: &'static [&'static str],
}

const CATEGORIES: &[Category] = &[
    Category {
        words: &[
            "配置",
            "config",
            "conf",
            "设置",
            "settings",
            "cfg",
            "configuration",
        ],
        exts: &[
            "yaml",
            "yml",
            "toml",
            "ini",
            "conf",
            "cfg",
            "json",
            "properties",
            "cnf",
        ],
        name_hints: &["config", "conf", "settings", "配置", "cfg", "setting"],
    },
    Category {
        words: &["日志", "log", "logs", "报错记录"],
        exts: &["log"],
        name_hints: &["log", "日志"],
    },
    Category {
        words: &["报告", "report", "报表"],
        exts: &["md", "pdf", "txt", "docx", "html"],
        name_hints: &["报告", "report", "报表"],
    },
    Category {
        words: &[
            "文档", "说明", "手册", "document", "doc", "docs", "guide", "manual", "指南", "教程",
        ],
        exts: &["md", "txt", "pdf", "docx", "rst"],
        name_hints: &[
            "readme", "手册", "guide", "doc", "文档", "manual", "说明", "指南",
        ],
    },
    Category {
        words: &["数据库", "database", "db", "mysql", "postgres"],
        exts: &[],
        name_hints: &["database", "db", "数据库", "mysql", "postgres", "redis"],
    },
    Category {
        words: &["表格", "csv", "spreadsheet", "数据文件", "excel"],
        exts: &["csv", "xlsx", "xls", "tsv"],
        name_hints: &["data", "数据"],
    },
    Category {
        words: &["脚本", "script"],
        exts: &["sh", "py", "bash"],
        name_hints: &["script", "脚本"],
    },
];

/// Score of how well `text` names upload `u` (0 = not at all, 100 = exact file name).
pub fn name_score(text: &str, u: &UploadRef) -> u32 {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let name = u.filename.to_lowercase();
    if lower.contains(&name) {
        return 100;
    }
    let st = stem(&name).to_string();
    let cjk_stem = st.chars().any(is_cjk);
    if (cjk_stem && st.chars().count() >= 2 && lower.contains(&st))
        || (!cjk_stem && st.len() >= 3 && has_word(&words, &st))
    {
        return 90;
    }
    let mut score = 0;
    // Chinese stems mentioned in part ("部署手册" for "部署手册-v2.md"): bigram overlap.
    if cjk_stem {
        let sc: Vec<char> = st.chars().collect();
        let grams: Vec<String> = sc.windows(2).map(|w| w.iter().collect()).collect();
        if !grams.is_empty() {
            let hit = grams.iter().filter(|g| lower.contains(g.as_str())).count();
            if hit * 2 >= grams.len() && hit > 0 {
                score = score.max(70);
            } else if hit > 0 {
                score = score.max(30);
            }
        }
    }
    let ext = extension(&name);
    let mut cat_score = 0;
    for cat in CATEGORIES {
        let mentioned = cat.words.iter().any(|w| {
            if w.is_ascii() {
                has_word(&words, w)
            } else {
                lower.contains(w)
            }
        });
        if !mentioned {
            continue;
        }
        let hint = cat.name_hints.iter().any(|h| name.contains(h));
        let ext_hit = cat.exts.contains(&ext.as_str());
        cat_score += match (hint, ext_hit) {
            (true, true) => 60,
            (true, false) => 50,
            (false, true) => 30,
            (false, false) => 0,
        };
    }
    score.max(cat_score.min(85))
}

/// The upload a text names, when exactly one upload is the clear best match.
pub fn best_upload<'a>(text: &str, uploads: &'a [UploadRef]) -> Option<&'a UploadRef> {
    let mut scored: Vec<(u32, usize)> = uploads
        .iter()
        .enumerate()
        .map(|(i, u)| (name_score(text, u), i))
        .filter(|(s, _)| *s >= 30)
        .collect();
    // Highest score first; among equals the newest upload first.
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let (top, idx) = *scored.first()?;
    let second = scored.get(1).map(|s| s.0).unwrap_or(0);
    let exact_dup = top >= 90 && second >= 90 && {
        // Same file name uploaded twice: the newest one is meant.
        let a = &uploads[idx].filename;
        let b = &uploads[scored[1].1].filename;
        a.eq_ignore_ascii_case(b)
    };
    if top > second || exact_dup {
        uploads.get(idx)
    } else {
        None
    }
}

/// All uploads a phrase plausibly names, best first.
pub fn matching_uploads<'a>(text: &str, uploads: &'a [UploadRef]) -> Vec<&'a UploadRef> {
    let mut scored: Vec<(u32, usize)> = uploads
        .iter()
        .enumerate()
        .map(|(i, u)| (name_score(text, u), i))
        .filter(|(s, _)| *s >= 30)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    scored
        .into_iter()
        .filter_map(|(_, i)| uploads.get(i))
        .collect()
}

/// Score of a search hit's file name against the request (used to pick among hits).
pub fn hit_name_score(text: &str, filename: &str) -> u32 {
    let probe = UploadRef {
        file_id: String::new(),
        filename: filename.to_string(),
        path: Default::default(),
        size: 0,
        sha256: String::new(),
        uploaded_at: String::new(),
        content_type: String::new(),
    };
    name_score(text, &probe)
}

/// File names typed in the text (`nginx.conf`, `.env`, `性能报告.md`), as typed.
pub fn typed_file_names(text: &str) -> Vec<String> {
    static R: OnceLock<Regex> = OnceLock::new();
    // Explicit ASCII classes: `\w` would also match CJK, which glues "把.env" together.
    let r = re(
        &R,
        r"(?:^|[^A-Za-z0-9_.\-/~])((?:[A-Za-z0-9_\-\p{Han}]+[A-Za-z0-9_.\-]*\.[A-Za-z][A-Za-z0-9]{0,7})|\.[A-Za-z][A-Za-z0-9_\-]*)",
    );
    r.captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
        .map(|s| {
            // "下载README.md" / "把.env": drop the Chinese verb glued to an ASCII file name,
            // but keep Chinese stems such as "性能报告.md".
            let ascii_start = s
                .char_indices()
                .find(|(_, c)| !is_cjk(*c))
                .map(|(i, _)| i)
                .unwrap_or(0);
            let (head, tail) = s.split_at(ascii_start);
            let dotfile =
                tail.starts_with('.') && DOTFILES.contains(&tail[1..].to_lowercase().as_str());
            let ascii_name = !tail.starts_with('.') && tail.contains('.');
            if !head.is_empty() && (dotfile || ascii_name) {
                tail.to_string()
            } else {
                s
            }
        })
        .filter(|s| !s.ends_with('.'))
        .collect()
}

/// Dot-file names that are whole names, not extensions.
const DOTFILES: &[&str] = &[
    "env",
    "bashrc",
    "profile",
    "netrc",
    "pgpass",
    "htpasswd",
    "gitconfig",
    "npmrc",
    "bash_history",
    "zsh_history",
    "git-credentials",
    "ssh",
    "aws",
    "kube",
    "docker",
];

/// Absolute or home paths typed in the text (`/etc/passwd`, `~/.ssh/id_rsa`, `./app.log`).
pub fn typed_paths(text: &str) -> Vec<String> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?:^|[^A-Za-z0-9_.])((?:~|\.{1,2})?/[^\s,;:'\x22()\p{Han}]*)",
    );
    r.captures_iter(text)
        .filter_map(|c| {
            c.get(1)
                .map(|m| m.as_str().trim_end_matches(['.', '?', '!']).to_string())
        })
        .filter(|p| p.len() > 1 || p == "/")
        .collect()
}

// ---------------------------------------------------------------- search query

/// Keeps the key terms of a search request: drops request verbs and filler words.
pub fn search_query(text: &str) -> String {
    const ZH_FILLER: &[&str] = &[
        "请帮我",
        "帮我",
        "帮忙",
        "麻烦",
        "请",
        "给我",
        "我想要",
        "我想",
        "我要",
        "我需要",
        "需要",
        "文档检索",
        "搜索一下",
        "搜一下",
        "搜索",
        "搜",
        "查找一下",
        "查找",
        "检索一下",
        "检索",
        "找一下",
        "找找",
        "找到",
        "查一查",
        "查一下",
        "查询",
        "有没有",
        "是否有",
        "哪里有",
        "在哪里",
        "在哪儿",
        "在哪",
        "哪里",
        "哪个文件里",
        "哪个文件",
        "关于",
        "相关的",
        "相关",
        "方面的",
        "方面",
        "文档中",
        "文档里",
        "文档",
        "资料",
        "信息",
        "内容",
        "文件",
        "一下",
        "看看",
        "找",
        "什么",
        "的",
        "吗",
        "呢",
        "了",
    ];
    const EN_STOP_Q: &[&str] = &[
        "where",
        "is",
        "are",
        "the",
        "a",
        "an",
        "for",
        "search",
        "find",
        "look",
        "up",
        "about",
        "any",
        "docs",
        "documentation",
        "document",
        "documents",
        "file",
        "files",
        "me",
        "please",
        "set",
        "configured",
        "which",
        "mentions",
        "mention",
        "i",
        "need",
        "info",
        "information",
        "can",
        "read",
        "what",
        "how",
        "to",
        "of",
        "in",
        "on",
        "do",
        "does",
        "there",
        "anything",
        "related",
        "show",
        "locate",
        "get",
        "could",
        "you",
        "my",
        "some",
        "defined",
        "stuff",
    ];
    let mut t = text.to_string();
    for f in ZH_FILLER {
        t = t.replace(f, " ");
    }
    let cleaned: Vec<String> = t
        .split(|c: char| c.is_whitespace() || ",.;:?!\"'()".contains(c))
        .filter(|w| !w.is_empty())
        .filter(|w| !EN_STOP_Q.contains(&w.to_lowercase().as_str()))
        .map(|w| w.to_string())
        .collect();
    let q = cleaned.join(" ");
    if q.trim().is_empty() {
        text.trim().to_string()
    } else {
        q
    }
}

/// Adds the other language's word for common ops terms so one index serves both
/// ("配置" also finds `config.yaml`, "log" also finds "日志").
pub fn expand_query(q: &str) -> String {
    const PAIRS: &[(&str, &str)] = &[
        ("配置", "config"),
        ("日志", "log"),
        ("数据库", "database"),
        ("部署", "deploy"),
        ("性能", "performance"),
        ("升级", "upgrade"),
        ("端口", "port"),
        ("超时", "timeout"),
        ("错误", "error"),
        ("队列", "queue"),
        ("缓存", "cache"),
        ("证书", "certificate"),
        ("备份", "backup"),
        ("安装", "install"),
        ("网关", "gateway"),
        ("支付", "payment"),
        ("回滚", "rollback"),
        ("监控", "monitor"),
        ("报告", "report"),
        ("手册", "manual"),
    ];
    let lower = q.to_lowercase();
    let words = ascii_words(&lower);
    let mut extra: Vec<&str> = Vec::new();
    for (zh, en) in PAIRS {
        if lower.contains(zh) && !has_word(&words, en) {
            extra.push(en);
        } else if has_word(&words, en) && !lower.contains(zh) && q.chars().any(is_cjk) {
            extra.push(zh);
        }
    }
    if extra.is_empty() {
        q.to_string()
    } else {
        format!("{q} {}", extra.join(" "))
    }
}

/// `top_k` from "前5个结果", "top 5", "5 results"; default 3.
pub fn top_k(text: &str) -> u32 {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)(?:top\s*(\d+)|(\d+)\s*(?:results|hits|个结果|条结果|条)|前\s*(\d+)\s*(?:个|条))",
    );
    r.captures(text)
        .and_then(|c| c.get(1).or(c.get(2)).or(c.get(3)))
        .and_then(|m| m.as_str().parse::<u32>().ok())
        .map(|n| n.clamp(1, 10))
        .unwrap_or(3)
}

/// `scope` from the wording: the user's own files, the product manual, or both.
pub fn search_scope(text: &str) -> &'static str {
    if contains_any(
        text,
        &[
            "上传的",
            "我传的",
            "我的文件",
            "uploaded",
            "my uploads",
            "my files",
        ],
    ) {
        "uploads"
    } else if contains_any(
        text,
        &[
            "系统文档",
            "产品手册",
            "使用手册",
            "帮助文档",
            "system docs",
            "manual of",
        ],
    ) {
        "system"
    } else {
        "all"
    }
}

// ---------------------------------------------------------------- upload references

/// `reference` and `count` for `file_upload`.
pub fn upload_reference(text: &str) -> (&'static str, Option<u32>) {
    let words = ascii_words(text);
    let w = |x: &str| has_word(&words, x);
    static TWO: OnceLock<Regex> = OnceLock::new();
    let n_re = re(
        &TWO,
        r"(?i)(?:这|那|最近|these|those|last)\s*(\d+|[两二三四五六七八九十]|two|three|four|five)\s*(?:个|份|files?)?",
    );
    if contains_any(
        text,
        &[
            "这两",
            "这俩",
            "这些",
            "这几",
            "那两",
            "那些",
            "两个文件",
            "both",
        ],
    ) || w("these")
        || w("those")
    {
        let n = n_re
            .captures(text)
            .and_then(|c| c.get(1))
            .map(|m| parse_count(m.as_str()));
        let n = n.or(if contains_any(text, &["两", "俩", "both"]) || w("two") {
            Some(2)
        } else {
            None
        });
        return ("these", n);
    }
    if contains_any(text, &["之前", "以前", "上次", "早先", "早些", "前面"])
        || w("previous")
        || w("earlier")
        || w("before")
    {
        return ("previous", None);
    }
    if contains_any(
        text,
        &[
            "这个",
            "这份",
            "该文件",
            "此文件",
            "刚刚",
            "刚才",
            "刚上传",
            "刚传",
            "最新",
            "最后上传",
            "上一个",
        ],
    ) || (w("this") && !contains_any(text, &["this session", "this conversation", "this chat"]))
        || w("just")
        || w("latest")
        || w("newest")
        || (w("last") && (w("file") || w("upload")))
    {
        return ("this", None);
    }
    ("all", None)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    pub(crate) fn up(names: &[&str]) -> Vec<UploadRef> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| UploadRef {
                file_id: format!("f{i}"),
                filename: n.to_string(),
                path: PathBuf::from(format!("/data/uploads/f{i}/{n}")),
                size: 100,
                sha256: String::new(),
                uploaded_at: String::new(),
                content_type: String::new(),
            })
            .collect()
    }

    #[test]
    fn metrics() {
        assert_eq!(monitor_mention("CPU使用率是多少").metric(), "cpu");
        assert_eq!(monitor_mention("内存够用吗").metric(), "memory");
        assert_eq!(monitor_mention("磁盘空间").metric(), "disk");
        assert_eq!(monitor_mention("查看CPU和内存").metric(), "all");
        assert_eq!(monitor_mention("system status").metric(), "all");
        assert_eq!(monitor_mention("how much RAM is free").metric(), "memory");
        assert!(!monitor_mention("有没有关于性能的文档").any());
    }

    #[test]
    fn explicit_commands() {
        let u = up(&["app.log"]);
        let c = explicit_command("ls -la /tmp", &u).unwrap();
        assert_eq!(
            (c.command.as_str(), c.args.clone()),
            ("ls", vec!["-la".into(), "/tmp".into()])
        );
        assert_eq!(explicit_command("执行ls", &u).unwrap().command, "ls");
        assert_eq!(
            explicit_command("grep -i timeout app.log", &u)
                .unwrap()
                .command,
            "grep"
        );
        assert!(explicit_command("ls和ll有什么区别", &u).is_none());
        assert!(explicit_command("tail -f 是什么意思", &u).is_none());
        assert!(explicit_command("free memory please", &u).is_none());
        assert_eq!(explicit_command("rm -rf /", &u).unwrap().command, "rm");
        assert_eq!(explicit_command("ps aux | head", &u).unwrap().command, "ps");
        assert_eq!(explicit_command("ls&&reboot", &u).unwrap().command, "ls");
    }

    #[test]
    fn resolves_file_args() {
        let u = up(&["app.log", "README.md"]);
        let a = resolve_command_args("grep", &["ERROR".into(), "app.log".into()], &u);
        assert_eq!(
            a,
            vec!["ERROR".to_string(), "/data/uploads/f0/app.log".into()]
        );
        let a = resolve_command_args("head", &["-n".into(), "5".into(), "readme".into()], &u);
        assert_eq!(a[2], "/data/uploads/f1/README.md");
    }

    #[test]
    fn line_windows() {
        assert_eq!(line_window("看看app.log的前5行"), Some(("head", 5)));
        assert_eq!(line_window("日志最后二十行"), Some(("tail", 20)));
        assert_eq!(
            line_window("show the last 3 lines of app.log"),
            Some(("tail", 3))
        );
        assert_eq!(
            line_window("first ten lines of nginx.conf"),
            Some(("head", 10))
        );
        assert_eq!(line_window("查看日志"), None);
    }

    #[test]
    fn file_matching() {
        let u = up(&[
            "README.md",
            "config.yaml",
            "database.yaml",
            "server.log",
            "性能报告.md",
        ]);
        let name = |t: &str| best_upload(t, &u).map(|x| x.filename.clone());
        assert_eq!(name("把配置文件发给我").as_deref(), Some("config.yaml"));
        assert_eq!(name("日志").as_deref(), Some("server.log"));
        assert_eq!(name("性能报告").as_deref(), Some("性能报告.md"));
        assert_eq!(
            name("send me database.yaml").as_deref(),
            Some("database.yaml")
        );
        assert_eq!(name("数据库配置").as_deref(), Some("database.yaml"));
        assert_eq!(name("readme").as_deref(), Some("README.md"));
        let u2 = up(&["nginx.conf", "部署手册.md", "app.log"]);
        assert_eq!(
            best_upload("把部署手册发我", &u2).map(|x| x.filename.as_str()),
            Some("部署手册.md")
        );
        assert_eq!(
            best_upload("the nginx config", &u2).map(|x| x.filename.as_str()),
            Some("nginx.conf")
        );
    }

    #[test]
    fn typed_names_and_paths() {
        assert_eq!(
            typed_file_names("把.env文件发给我"),
            vec![".env".to_string()]
        );
        assert_eq!(
            typed_file_names("下载 server.log 吧"),
            vec!["server.log".to_string()]
        );
        assert_eq!(
            typed_paths("下载/etc/passwd"),
            vec!["/etc/passwd".to_string()]
        );
        assert_eq!(
            typed_paths("cat ~/.ssh/id_rsa"),
            vec!["~/.ssh/id_rsa".to_string()]
        );
    }

    #[test]
    fn queries_keep_key_terms() {
        assert!(search_query("搜索数据库配置文档").contains("数据库"));
        assert_eq!(
            search_query("where is the database port set?"),
            "database port"
        );
        assert!(search_query("查找使用说明文档").contains("说明"));
        assert!(search_query("哪里配置了消息队列").contains("队列"));
        assert_eq!(
            search_query("find the upgrade instructions"),
            "upgrade instructions"
        );
        assert_eq!(top_k("搜索日志，给我前5个结果"), 5);
    }

    #[test]
    fn references() {
        assert_eq!(upload_reference("刚刚上传的文件").0, "this");
        assert_eq!(upload_reference("对比这两个配置文件"), ("these", Some(2)));
        assert_eq!(upload_reference("我之前上传的日志").0, "previous");
        assert_eq!(upload_reference("我上传过哪些文件").0, "all");
        assert_eq!(parse_count("二十"), 20);
    }
}
