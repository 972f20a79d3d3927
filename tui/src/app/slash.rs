//! Slash commands typed in the chat input: parsing (with quoted paths), completion of
//! command names, and the table `/help` prints. Pure string handling, no I/O.

use std::path::PathBuf;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Slash {
    Help,
    Upload {
        path: PathBuf,
        note: String,
    },
    Files,
    Search(String),
    Sessions,
    New,
    Switch(String),
    Delete(String),
    Rename(String),
    History,
    Clear,
    Model(Option<String>),
    Cancel,
    Download(String),
    Grants,
    /// `/watch [SECS] COMMAND`: re-run every SECS seconds until Esc.
    Watch {
        interval: std::time::Duration,
        text: String,
    },
    Quit,
}

/// `(name, arguments, description)` for every command, in `/help` order.
pub const COMMANDS: &[(&str, &str, &str)] = &[
    ("/help", "", "命令与按键 / list commands and keys"),
    (
        "/upload",
        "<path> [text]",
        "上传文件，可附问题 / upload a file; the text is asked about it",
    ),
    ("/files", "", "本会话的文件 / this session's uploads"),
    (
        "/search",
        "<query>",
        "搜索文档与上传 / search system docs and uploads",
    ),
    (
        "/sessions",
        "",
        "会话列表 / pick a session (switch, delete, rename)",
    ),
    ("/new", "", "新会话 / start a new session"),
    (
        "/switch",
        "<id-prefix>",
        "切换会话 / switch to another session",
    ),
    (
        "/delete",
        "<id-prefix>",
        "删除会话 / delete a session (asks first)",
    ),
    ("/rename", "<name>", "重命名 / rename this session"),
    (
        "/history",
        "",
        "重新加载历史 / reload this session's history",
    ),
    ("/clear", "", "清空历史 / clear this session's history"),
    (
        "/model",
        "[name]",
        "查看或切换模型 / show models or switch model",
    ),
    ("/cancel", "", "取消当前回合 / cancel the running turn"),
    (
        "/grants",
        "",
        "长期授权列表，可撤销 / standing approval grants (d revokes)",
    ),
    (
        "/download",
        "<file-id>",
        "请求下载 / ask for a download offer",
    ),
    (
        "/watch",
        "[secs] <command>",
        "每隔几秒重跑只读命令或问题，标出变化，Esc 停止 / re-run a read-only command (or question), changes marked, Esc stops",
    ),
    ("/quit", "", "退出 / leave"),
    ("/exit", "", "退出 / leave"),
];

/// Splits one shell-like word off the front: `"a b"`, `'a b'` or `a\ b`. Returns the word
/// and the untouched rest, or an error for an unterminated quote.
pub fn split_word(s: &str) -> Result<(String, &str), String> {
    let s = s.trim_start();
    let mut word = String::new();
    let mut chars = s.char_indices().peekable();
    let mut quote: Option<char> = None;
    while let Some((i, c)) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => return Ok((word, &s[i..])),
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            // Backslash escapes outside quotes and inside double quotes.
            (None | Some('"'), '\\') => {
                if let Some((_, n)) = chars.next() {
                    word.push(n);
                }
            }
            (_, c) => word.push(c),
        }
    }
    if quote.is_some() {
        return Err("unterminated quote / 引号未闭合".into());
    }
    Ok((word, ""))
}

fn arg(cmd: &str, rest: &str, usage: &str) -> Result<String, String> {
    let a = rest.trim();
    if a.is_empty() {
        Err(format!("{cmd} needs an argument: {cmd} {usage}"))
    } else {
        Ok(a.to_string())
    }
}

/// Top-level directories an operator starts a question with (`/var/log 占了多少空间`).
const ROOT_DIRS: &[&str] = &[
    "/bin", "/boot", "/data", "/dev", "/etc", "/home", "/lib", "/media", "/mnt", "/opt", "/proc",
    "/root", "/run", "/sbin", "/srv", "/sys", "/tmp", "/usr", "/var",
];

/// True when a line starting with `/` is a message about a path, not a command: its first
/// word is a path (`/var/log`, `/etc/nginx/nginx.conf`, `/tmp`) rather than a command name.
pub fn is_path_message(line: &str) -> bool {
    let first = line.split_whitespace().next().unwrap_or("");
    if COMMANDS.iter().any(|c| c.0 == first) || first == "/?" {
        return false;
    }
    let first = first.trim_end_matches('/');
    first[1..].contains('/') || ROOT_DIRS.contains(&first)
}

/// Parses a line that starts with `/`. Errors are specific sentences for the user.
pub fn parse(line: &str) -> Result<Slash, String> {
    let line = line.trim();
    let (cmd, rest) = match line.find(char::is_whitespace) {
        Some(i) => (&line[..i], &line[i..]),
        None => (line, ""),
    };
    let no_args = |s: Slash| {
        if rest.trim().is_empty() {
            Ok(s)
        } else {
            Err(format!("{cmd} takes no arguments"))
        }
    };
    match cmd {
        "/help" | "/?" => Ok(Slash::Help),
        "/upload" => {
            let (path, note) = split_word(rest).map_err(|e| format!("/upload: {e}"))?;
            if path.is_empty() {
                return Err(
                    "/upload needs a path: /upload <path> [text] (quote paths with spaces)".into(),
                );
            }
            Ok(Slash::Upload {
                path: expand_home(&path),
                note: note.trim().to_string(),
            })
        }
        "/files" => no_args(Slash::Files),
        "/search" => Ok(Slash::Search(arg(cmd, rest, "<query>")?)),
        "/sessions" => no_args(Slash::Sessions),
        "/new" => no_args(Slash::New),
        "/switch" => Ok(Slash::Switch(arg(cmd, rest, "<id-prefix>")?)),
        "/delete" => Ok(Slash::Delete(arg(cmd, rest, "<id-prefix>")?)),
        "/rename" => Ok(Slash::Rename(arg(cmd, rest, "<name>")?)),
        "/history" => no_args(Slash::History),
        "/clear" => no_args(Slash::Clear),
        "/model" => {
            let m = rest.trim();
            Ok(Slash::Model((!m.is_empty()).then(|| m.to_string())))
        }
        "/cancel" => no_args(Slash::Cancel),
        "/grants" => no_args(Slash::Grants),
        "/download" => Ok(Slash::Download(arg(cmd, rest, "<file-id>")?)),
        "/watch" => {
            let (interval, text) = super::watch::parse(rest)?;
            Ok(Slash::Watch { interval, text })
        }
        "/quit" | "/exit" => Ok(Slash::Quit),
        other => {
            let close: Vec<&str> = COMMANDS
                .iter()
                .map(|c| c.0)
                .filter(|c| c.starts_with(&other[..other.len().min(3)]))
                .collect();
            let hint = if close.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", close.join(", "))
            };
            Err(format!(
                "unknown command {other}{hint} — /help lists the commands / 未知命令"
            ))
        }
    }
}

/// Levenshtein distance in characters.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The known command a mistyped first word is closest to, when it is 1 or 2 edits away
/// (`/serch` -> `/search`); `None` for known commands and for anything further off.
pub fn suggest(line: &str) -> Option<&'static str> {
    let first = line.split_whitespace().next()?;
    if COMMANDS.iter().any(|c| c.0 == first) || first == "/?" || first.len() < 3 {
        return None;
    }
    COMMANDS
        .iter()
        .map(|c| (distance(first, c.0), c.0))
        .filter(|(d, _)| (1..=2).contains(d))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn expand_home(p: &str) -> PathBuf {
    if let Some(rest) = p.strip_prefix("~/") {
        if let Some(h) = dirs::home_dir() {
            return h.join(rest);
        }
    }
    PathBuf::from(p)
}

/// Result of Tab on a `/` line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Completion {
    /// The new input text, when completion changed it.
    pub text: Option<String>,
    /// All commands that match (shown when ambiguous).
    pub candidates: Vec<&'static str>,
}

/// Completes the command name (the first word) of `input`.
pub fn complete(input: &str) -> Completion {
    if input.contains(char::is_whitespace) {
        return Completion {
            text: None,
            candidates: vec![],
        };
    }
    let cands: Vec<&'static str> = COMMANDS
        .iter()
        .map(|c| c.0)
        .filter(|c| c.starts_with(input))
        .collect();
    let text = match cands.as_slice() {
        [] => None,
        [one] => Some(format!("{one} ")),
        many => {
            let first = many[0];
            let mut n = first.len();
            for c in &many[1..] {
                n = n.min(
                    first
                        .bytes()
                        .zip(c.bytes())
                        .take_while(|(a, b)| a == b)
                        .count(),
                );
            }
            (n > input.len()).then(|| first[..n].to_string())
        }
    };
    Completion {
        text,
        candidates: if cands.len() > 1 { cands } else { vec![] },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn upload_with_quoted_paths_and_notes() {
        assert_eq!(
            parse(r#"/upload "/tmp/my file.log" what failed?"#),
            Ok(Slash::Upload {
                path: "/tmp/my file.log".into(),
                note: "what failed?".into()
            })
        );
        assert_eq!(
            parse("/upload '/tmp/it''s.txt'"),
            Ok(Slash::Upload {
                path: "/tmp/its.txt".into(),
                note: String::new()
            })
        );
        assert_eq!(
            parse(r"/upload /tmp/a\ b.txt  summarise  this "),
            Ok(Slash::Upload {
                path: "/tmp/a b.txt".into(),
                note: "summarise  this".into()
            })
        );
        assert_eq!(
            parse("/upload /var/log/日志.txt 看看"),
            Ok(Slash::Upload {
                path: "/var/log/日志.txt".into(),
                note: "看看".into()
            })
        );
        assert!(parse(r#"/upload "/tmp/x"#)
            .expect_err("unterminated")
            .contains("unterminated"));
        assert!(parse("/upload")
            .expect_err("no path")
            .contains("needs a path"));
    }

    #[test]
    fn other_commands_and_errors() {
        assert_eq!(
            parse("/search disk  full"),
            Ok(Slash::Search("disk  full".into()))
        );
        assert_eq!(parse("/model"), Ok(Slash::Model(None)));
        assert_eq!(
            parse("/model glm-4"),
            Ok(Slash::Model(Some("glm-4".into())))
        );
        assert_eq!(parse("/switch 3f2a"), Ok(Slash::Switch("3f2a".into())));
        assert_eq!(parse("/exit"), Ok(Slash::Quit));
        assert!(parse("/switch")
            .expect_err("arg")
            .contains("/switch <id-prefix>"));
        assert!(parse("/files x")
            .expect_err("args")
            .contains("no arguments"));
        let e = parse("/serch x").expect_err("unknown");
        assert!(e.contains("unknown command /serch"), "{e}");
        for line in [
            "/var/log 目录占了多少空间",
            "/etc/nginx/nginx.conf 里监听哪个端口",
            "/tmp is full?",
        ] {
            assert!(is_path_message(line), "{line}");
        }
        for line in [
            "/search /var/log",
            "/upload /tmp/a.log note",
            "/serch x",
            "/help",
        ] {
            assert!(!is_path_message(line), "{line}");
        }
        assert!(e.contains("/search"), "{e}");
    }

    #[test]
    fn mistyped_commands_get_a_suggestion() {
        assert_eq!(suggest("/serch disk full"), Some("/search"));
        assert_eq!(suggest("/sesions"), Some("/sessions"));
        assert_eq!(suggest("/hlep"), Some("/help"));
        assert_eq!(suggest("/search x"), None);
        assert_eq!(suggest("/frobnicate now"), None);
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn completes_command_names() {
        assert_eq!(complete("/fi").text.as_deref(), Some("/files "));
        let c = complete("/s");
        assert_eq!(c.text, None);
        assert_eq!(c.candidates, vec!["/search", "/sessions", "/switch"]);
        assert_eq!(complete("/se").text, None);
        assert_eq!(complete("/sw").text.as_deref(), Some("/switch "));
        assert_eq!(complete("/ses").text.as_deref(), Some("/sessions "));
        assert_eq!(complete("/upload x").text, None);
    }
}
