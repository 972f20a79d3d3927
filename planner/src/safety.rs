//! Refusals the planner gives before any tool runs: shell operators, commands outside the
//! whitelist, destructive requests and secret files. The tools' own policies remain the
//! real guard; this only gives the user a clear reason without a pointless tool call.

use super::slots::{
    is_known_command, shell_operator, typed_file_names, typed_paths, whitelist, CommandLine,
};
use super::text::{contains_any, Lang};

/// Why a request is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// `ps aux | head`: the tool runs one program, no shell.
    ShellOperator {
        op: String,
        plain: Option<String>,
        blocked: Vec<String>,
    },
    /// `rm -rf /`, `reboot`: not in the read-only whitelist.
    NotWhitelisted { command: String },
    /// `/etc/shadow`, `~/.ssh/id_rsa`, `.env`.
    Secret { target: String },
    /// "删除所有日志", "reboot the server": a state-changing request in words.
    Destructive,
}

/// Commands that mutate the system or escalate privileges: named in the refusal.
const DESTRUCTIVE: &[&str] = &[
    "rm", "rmdir", "mkfs", "dd", "reboot", "shutdown", "halt", "poweroff", "init", "kill",
    "killall", "pkill", "chmod", "chown", "chgrp", "mv", "truncate", "shred", "wipefs", "fdisk",
    "parted", "format", "sudo", "su", "passwd", "useradd", "userdel", "usermod", "iptables",
];

/// Checks a typed command line.
pub fn check_command(cl: &CommandLine) -> Option<Refusal> {
    if let Some(op) = shell_operator(&cl.raw) {
        // Suggest the part before the operator when it is itself allowed.
        let before = cl.raw.split(op).next().unwrap_or("").trim().to_string();
        let first = before.split_whitespace().next().unwrap_or("");
        let plain = (is_known_command(first) && secret_in(&before).is_none()).then_some(before);
        // Commands chained after the operator that would be refused on their own too.
        let blocked: Vec<String> = cl
            .raw
            .split(['|', '&', ';', '`', '>', '<', '(', ')', '$'])
            .skip(1)
            .filter_map(|part| part.split_whitespace().next())
            .filter(|c| {
                !is_known_command(c)
                    && c.chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '_')
            })
            .map(str::to_string)
            .collect();
        return Some(Refusal::ShellOperator {
            op: op.to_string(),
            plain,
            blocked,
        });
    }
    if !is_known_command(&cl.command) {
        return Some(Refusal::NotWhitelisted {
            command: cl.command.clone(),
        });
    }
    // Every stage of a pipeline must itself be a known command.
    if let Some(stage) = cl
        .args
        .split(|a| a == "|")
        .skip(1)
        .find_map(|stage| stage.first().filter(|c| !is_known_command(c)))
    {
        return Some(Refusal::NotWhitelisted {
            command: stage.clone(),
        });
    }
    let joined = cl.args.join(" ");
    secret_in(&joined).map(|target| Refusal::Secret { target })
}

fn is_secret_path(p: &str) -> bool {
    let lower = p.to_lowercase();
    let comps: Vec<&str> = lower.split('/').filter(|c| !c.is_empty()).collect();
    let last = comps.last().copied().unwrap_or("");
    let etc_secret = comps.first() == Some(&"etc")
        && [
            "shadow",
            "gshadow",
            "passwd",
            "sudoers",
            "master.passwd",
            "ssl",
        ]
        .contains(&comps.get(1).copied().unwrap_or(""));
    etc_secret
        || comps.iter().any(|c| {
            [
                ".ssh",
                ".gnupg",
                ".aws",
                ".kube",
                ".docker",
                ".password-store",
            ]
            .contains(c)
        })
        || comps.first() == Some(&"root")
        || (comps.first() == Some(&"proc") && last == "environ")
        || last == ".env"
        || last.starts_with(".env.")
        || last.starts_with("id_rsa")
        || last.starts_with("id_dsa")
        || last.starts_with("id_ecdsa")
        || last.starts_with("id_ed25519")
        || [
            "authorized_keys",
            ".netrc",
            ".pgpass",
            ".git-credentials",
            ".bash_history",
            ".zsh_history",
            "credentials",
            ".htpasswd",
            "shadow",
        ]
        .contains(&last)
        || [".pem", ".key", ".p12", ".pfx", ".keystore", ".jks"]
            .iter()
            .any(|e| last.ends_with(e))
}

/// The secret file or path a text mentions, if any.
pub fn secret_in(text: &str) -> Option<String> {
    for p in typed_paths(text) {
        if is_secret_path(&p) {
            return Some(p);
        }
    }
    for n in typed_file_names(text) {
        if is_secret_path(&n) {
            return Some(n);
        }
    }
    for w in text.split(|c: char| c.is_whitespace() || ",;:\"'".contains(c)) {
        if (w == ".env" || w.starts_with("id_rsa") || w == "shadow") && is_secret_path(w) {
            return Some(w.to_string());
        }
    }
    if text.contains(".env") {
        return Some(".env".to_string());
    }
    let hit = [
        "私钥",
        "密钥文件",
        "密码文件",
        "shadow文件",
        "private key",
        "ssh key",
        "ssh密钥",
        "credentials file",
        "凭据文件",
        "root密码",
    ]
    .into_iter()
    .find(|k| contains_any(text, &[k]));
    hit.map(|k| k.to_string())
}

/// A destructive request written as a sentence ("删掉所有日志", "reboot the server").
const DESTRUCTIVE_WORDS: &[&str] = &[
    "删除",
    "删掉",
    "清空",
    "格式化",
    "重启",
    "关机",
    "关掉服务器",
    "杀掉",
    "杀死",
    "kill掉",
    "卸载",
    "停掉",
    "提权",
    "root权限",
    "修改密码",
    "改密码",
    "抹掉",
    "擦除",
    "reboot",
    "shutdown",
    "shut down",
    "restart the",
    "format the",
    "wipe",
    "erase",
    "delete ",
    "remove the",
    "kill all",
    "kill the",
    "drop the",
    "drop database",
    "root access",
    "give me root",
    "change the root password",
    "chmod 777",
    "disable the firewall",
    "关闭防火墙",
    "把防火墙关",
];

/// Whether the message asks for a destructive change: a destructive word used as a verb
/// ("把日志都删除", "please reboot the server"). The same words as a noun or a modifier
/// ("删除的文件", "重启次数", "被删除的", "重启记录") ask about the past, read-only.
pub fn destructive_words(text: &str) -> bool {
    let lower = text.to_lowercase();
    lower
        .split([',', '，', ';', '；', '。', '!', '！', '?', '？'])
        .any(destructive_clause)
}

/// One clause of [`destructive_words`]. A clause that asks something (a number, a time,
/// which one: "删除预订成功的请求有多少个", "它最后一次 delete 是几点", "which pod was
/// deleted") is about what happened: its destructive word describes events; another
/// clause of the message may still ask for the change ("删除所有日志，看看还剩多少空间").
fn destructive_clause(lower: &str) -> bool {
    if crate::lexicon::lexicon().grammar.interrogative.asks(lower) {
        return false;
    }
    DESTRUCTIVE_WORDS.iter().any(|w| {
        lower.match_indices(w).any(|(i, _)| {
            let after = &lower[i + w.len()..];
            let before = &lower[..i];
            let nominal = [
                "的",
                "次数",
                "记录",
                "历史",
                "原因",
                "时间",
                "了几次",
                "了多少",
                "过",
                "失败",
                "日志里",
                "事件",
            ]
            .iter()
            .any(|n| after.trim_start().starts_with(n));
            let passive = before.trim_end().ends_with('被');
            !(nominal || passive)
        })
    })
}

/// The reply for a refusal, in the user's language.
pub fn refusal_text(r: &Refusal, lang: Lang) -> String {
    let allowed = whitelist().join(", ");
    match (r, lang) {
        (Refusal::ShellOperator { op, plain, blocked }, Lang::Zh) => {
            let mut s = format!(
                "不能执行：命令工具不经过 shell，不支持 `{op}` 这样的 shell 操作符（`&&`、`||`、`;`、重定向、命令替换都不行；简单的 `|` 管道可以）。"
            );
            if !blocked.is_empty() {
                s.push_str(&format!("而且 `{}` 不在命令白名单中。", blocked.join("`、`")));
            }
            if let Some(p) = plain {
                s.push_str(&format!("可以单独执行 `{p}`，输出较长时我会截断显示。"));
            } else {
                s.push_str(&format!("请每次只发一条白名单命令：{allowed}。"));
            }
            s
        }
        (Refusal::ShellOperator { op, plain, blocked }, Lang::En) => {
            let mut s = format!(
                "I can't run that: commands run without a shell, so operators like `{op}` (`&&`, `||`, `;`, redirects, substitutions) are not supported; a plain `|` pipeline is."
            );
            if !blocked.is_empty() {
                s.push_str(&format!(" Also, `{}` is not in the command whitelist.", blocked.join("`, `")));
            }
            if let Some(p) = plain {
                s.push_str(&format!(" You can run `{p}` on its own; long output is trimmed for you."));
            } else {
                s.push_str(&format!(" Send one whitelisted command at a time: {allowed}."));
            }
            s
        }
        (Refusal::NotWhitelisted { command }, Lang::Zh) => {
            let why = if DESTRUCTIVE.contains(&command.as_str()) {
                "它会修改或破坏系统（删除文件、格式化、重启、改权限等），"
            } else {
                ""
            };
            format!("已拒绝：`{command}` 不在允许的命令白名单中，{why}出于安全原因我只执行只读命令：{allowed}。")
        }
        (Refusal::NotWhitelisted { command }, Lang::En) => {
            let why = if DESTRUCTIVE.contains(&command.as_str()) {
                " it changes or destroys system state (deleting, formatting, rebooting, permissions), and"
            } else {
                ""
            };
            format!("Refused: `{command}` is not in the command whitelist;{why} I only run read-only commands: {allowed}.")
        }
        (Refusal::Secret { target }, Lang::Zh) => format!(
            "已拒绝：`{target}` 属于敏感文件（口令、密钥或环境变量），不能读取或下载。如需排查配置，可以上传去掉敏感信息的副本。"
        ),
        (Refusal::Secret { target }, Lang::En) => format!(
            "Refused: `{target}` is a sensitive file (passwords, keys or environment secrets) and cannot be read or downloaded. Upload a copy with the secrets removed if you need help with it."
        ),
        (Refusal::Destructive, Lang::Zh) => format!(
            "这个操作会修改系统状态（删除、重启、关机、改权限等），我不能执行。我只提供只读的运维操作：查看资源、执行白名单命令（{allowed}）、搜索和读取文件、准备下载。"
        ),
        (Refusal::Destructive, Lang::En) => format!(
            "That would change the system (delete, reboot, shut down, change permissions...), which I don't do. I only offer read-only operations: resource monitoring, whitelisted commands ({allowed}), search, file reading and downloads."
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::super::slots::explicit_command;
    use super::*;

    fn check(text: &str) -> Option<Refusal> {
        explicit_command(text, &[]).and_then(|c| check_command(&c))
    }

    #[test]
    fn refuses_attacks() {
        assert!(matches!(
            check("rm -rf /"),
            Some(Refusal::NotWhitelisted { .. })
        ));
        assert!(matches!(
            check("执行 mkfs /dev/sda"),
            Some(Refusal::NotWhitelisted { .. })
        ));
        assert!(matches!(
            check("ls && reboot"),
            Some(Refusal::ShellOperator { .. })
        ));
        // A verb with a colon in front is still a request to run what follows.
        for text in [
            "please execute: ls $(whoami)",
            "run: cat `id`",
            "帮我执行：ls $(id)",
        ] {
            assert!(
                matches!(check(text), Some(Refusal::ShellOperator { .. })),
                "{text}: {:?}",
                check(text)
            );
        }
        // A plain pipeline of known commands is built by the executor; anything else in a
        // stage, and every other operator, is still refused.
        assert_eq!(check("ps aux | head"), None);
        assert_eq!(check("ps aux|grep -i java|wc -l"), None);
        assert!(matches!(
            check("ps aux | nc 10.0.0.1 9"),
            Some(Refusal::NotWhitelisted { command }) if command == "nc"
        ));
        match check("ps aux || reboot") {
            Some(Refusal::ShellOperator { op, plain, .. }) => {
                assert_eq!(op, "||");
                assert_eq!(plain.as_deref(), Some("ps aux"))
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            check("ps aux |& head"),
            Some(Refusal::ShellOperator { .. })
        ));
        assert!(matches!(
            check("cat /etc/shadow"),
            Some(Refusal::Secret { .. })
        ));
        assert!(matches!(
            check("cat ~/.ssh/id_rsa"),
            Some(Refusal::Secret { .. })
        ));
        assert!(matches!(
            check("cat /proc/1/environ"),
            Some(Refusal::Secret { .. })
        ));
        assert_eq!(check("ls -la"), None);
        assert_eq!(check("cat /var/log/app.log"), None);
    }

    #[test]
    fn finds_secrets_in_sentences() {
        assert!(secret_in("下载/etc/passwd").is_some());
        assert!(secret_in("把.env文件发给我").is_some());
        assert!(secret_in("send me the server private key").is_some());
        assert!(secret_in("send me config.yaml").is_none());
        assert!(secret_in("下载 server.log").is_none());
    }

    #[test]
    fn destructive_sentences() {
        assert!(destructive_words("把日志都删除"));
        assert!(destructive_words("please reboot the server"));
        assert!(!destructive_words("查看磁盘"));
        // The words as nouns or modifiers ask about the past.
        for t in [
            "删除的文件有哪些",
            "access 日志中删除订单的请求一共多少条",
            "how many delete requests failed",
            "nginx 重启次数是多少",
            "被删除的用户",
            "看看重启记录",
            "上次重启的原因",
        ] {
            assert!(!destructive_words(t), "{t}");
        }
        // A question about the verb's events asks when, which or how many.
        for t in [
            "它上一次 delete 是几点",
            "which deployment got deleted first",
            "when did we last restart the broker",
            "谁删除的 configmap 最多",
            "重启了几回",
        ] {
            assert!(!destructive_words(t), "{t}");
        }
        assert!(destructive_words("delete the pod which crashed"));
        assert!(destructive_words("kill the foo process"));
        assert!(destructive_words("把 nginx 重启一下"));
        assert!(destructive_words("帮我重启 nginx"));
        // A count in another clause does not excuse the request.
        assert!(destructive_words("删除所有日志，看看还剩多少空间"));
    }
}
