//! Slot extraction: metric, explicit commands and their arguments, "first/last N lines",
//! file names matched against the session's uploads, search queries and upload references.
//! Pure functions of the text and the upload list; no intent decisions here.

use std::sync::OnceLock;

use regex::Regex;

pub use super::command_line::{
    explicit_command, is_known_command, resolve_command_args, shell_operator, split_pipeline, stem,
    whitelist, CommandLine, OTHER_COMMANDS,
};
pub use super::query::{expand_query, search_query, search_scope, top_k};
use super::text::{ascii_words, contains_any, has_word, is_cjk};
use super::UploadRef;

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

/// Extensions of config files (the config category's).
pub(crate) const CONFIG_EXTS: &[&str] = &[
    "yaml",
    "yml",
    "toml",
    "ini",
    "conf",
    "cfg",
    "json",
    "properties",
    "cnf",
];

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
        exts: CONFIG_EXTS,
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

/// Config files outside the config category's extensions: systemd units, XML, HCL, env
/// and repo files.
const MORE_CONFIG_EXTS: &[&str] = &[
    "service", "socket", "timer", "network", "mount", "xml", "hcl", "tf", "env", "repo",
];

/// Whether `ext` (lower-case, no dot) is a kind of file operators upload: a category's,
/// another config's (`MORE_CONFIG_EXTS`), an archive's.
pub fn known_extension(ext: &str) -> bool {
    CATEGORIES.iter().any(|c| c.exts.contains(&ext))
        || MORE_CONFIG_EXTS.contains(&ext)
        || ext == "gz"
}

/// `ingest-agent` typed as a whole name (word splitting cuts it at the hyphen): not part
/// of a longer name on either side.
fn has_name(lower: &str, name: &str) -> bool {
    let part =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    lower.match_indices(name).any(|(i, _)| {
        !part(lower[..i].chars().next_back()) && !part(lower[i + name.len()..].chars().next())
    })
}

/// Parts of file names that many files share (`-deploy`, `-config`, `docker-`).
fn generic_name_part(part: &str) -> bool {
    const GENERIC: &[&str] = &[
        "deploy",
        "deployment",
        "config",
        "conf",
        "configs",
        "settings",
        "service",
        "services",
        "values",
        "prod",
        "production",
        "staging",
        "test",
        "main",
        "default",
        "defaults",
        "local",
        "application",
        "server",
        "client",
        "backup",
        "final",
        "copy",
        "docker",
        "manifest",
        "manifests",
        "site",
        "sites",
        "enabled",
        "available",
        "daemon",
        "override",
    ];
    GENERIC.contains(&part) || crate::command_line::is_known_command(part)
}

/// A config file by its name (`CONFIG_EXTS`, `MORE_CONFIG_EXTS`, or no extension): the
/// kind whose questions ask what it sets.
pub fn config_upload(u: &UploadRef) -> bool {
    // A `.json` the server read as events (its columns have a time) is a log, not settings.
    let read_as_events = u
        .columns
        .iter()
        .any(|c| c.roles.iter().any(|r| r == "time"));
    config_name(&u.filename) && !read_as_events
}

/// Whether a file name is a config's: a config extension, or none at all.
pub fn config_name(filename: &str) -> bool {
    let ext = extension(&filename.to_lowercase());
    CONFIG_EXTS.contains(&ext.as_str())
        || MORE_CONFIG_EXTS.contains(&ext.as_str())
        || !filename.contains('.')
}

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
        || (!cjk_stem && st.contains(['-', '_']) && has_name(&lower, &st))
    {
        return 90;
    }
    // One distinctive part of a joined stem (`payments` of `payments-deploy.yaml`,
    // `compose` of `docker-compose.yml`): a name, below the whole stem. Parts that name a
    // command or a kind of file say nothing about which file.
    if !cjk_stem
        && st
            .split(['-', '_', '.'])
            .filter(|p| p.len() >= 4 && p.len() < st.len() && !generic_name_part(p))
            .any(|p| has_word(&words, p))
    {
        return 75;
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
    let cat_score = cat_score.min(85);
    // Two kinds of evidence beat one: a name that shares words with the text and is also of
    // the kind of file mentioned ranks above a file that is only of that kind.
    let both = if score > 0 && cat_score > 0 { 5 } else { 0 };
    score.max(cat_score) + both
}

/// (score, index) of the uploads a text plausibly names: highest score first, among equals
/// the newest upload first.
fn scored_uploads(text: &str, uploads: &[UploadRef]) -> Vec<(u32, usize)> {
    let mut scored: Vec<(u32, usize)> = uploads
        .iter()
        .enumerate()
        .map(|(i, u)| (name_score(text, u), i))
        .filter(|(s, _)| *s >= 30)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    scored
}

/// The upload a text names, when exactly one upload is the clear best match.
pub fn best_upload<'a>(text: &str, uploads: &'a [UploadRef]) -> Option<&'a UploadRef> {
    let scored = scored_uploads(text, uploads);
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
    scored_uploads(text, uploads)
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
        columns: Vec::new(),
        format: None,
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
mod tests;
