//! The one answer to a pasted error or stack trace: what it means, likely causes, what to
//! check (allowed read-only commands filled with the trace's host, port and file), and the
//! documents or uploads the search found for its key terms.

use serde_json::Value;

use super::super::text::Lang;
use super::super::trace::{service_for_port, ErrorKind, ErrorReport};

struct Advice {
    meaning: (&'static str, &'static str),
    causes: &'static [(&'static str, &'static str)],
}

fn advice(kind: ErrorKind) -> Advice {
    use ErrorKind::*;
    match kind {
        ConnectionRefused => Advice {
            meaning: ("连接被拒绝：目标主机可达，但该端口上没有进程在监听，或被防火墙主动拒绝。", "Connection refused: the host answered, but nothing listens on that port (or a firewall rejects it)."),
            causes: &[
                ("目标服务没有启动、已崩溃或正在重启", "the target service is not running, crashed or is restarting"),
                ("服务监听在别的地址或端口（如只监听 127.0.0.1）", "it listens on another address or port (e.g. only 127.0.0.1)"),
                ("客户端配置里的主机名或端口写错了", "the host or port in the client's configuration is wrong"),
                ("防火墙或安全组拒绝了该端口", "a firewall or security group rejects the port"),
            ],
        },
        Timeout => Advice {
            meaning: ("请求超时：在规定时间内没有收到对方的响应。", "Timed out: no answer arrived within the allowed time."),
            causes: &[
                ("对端服务过载或处理太慢（慢查询、锁等待、GC 停顿）", "the remote side is overloaded or slow (slow queries, lock waits, GC pauses)"),
                ("网络丢包、路由不通或防火墙静默丢弃", "packet loss, no route, or a firewall silently dropping traffic"),
                ("连接池耗尽，请求在排队", "an exhausted connection pool, requests queueing"),
                ("超时阈值设置过小", "a timeout set too low"),
            ],
        },
        UnknownHost => Advice {
            meaning: ("域名解析失败：主机名无法解析成 IP 地址。", "Name resolution failed: the host name does not resolve to an address."),
            causes: &[
                ("主机名拼写错误或该记录不存在", "a typo in the host name, or the record does not exist"),
                ("DNS 服务器不可用或 /etc/resolv.conf 配置有误", "the DNS server is unreachable or /etc/resolv.conf is wrong"),
                ("/etc/hosts 里缺少内网主机的条目", "a missing /etc/hosts entry for an internal host"),
            ],
        },
        OutOfMemory => Advice {
            meaning: ("内存不足：进程无法再分配内存（JVM 堆或系统内存已满）。", "Out of memory: the process could not allocate more (JVM heap or system memory is full)."),
            causes: &[
                ("堆或容器内存上限设置过小", "the heap or container memory limit is too small"),
                ("内存泄漏或一次加载了过多数据", "a memory leak, or too much data loaded at once"),
                ("同机的其他进程占用了大量内存", "other processes on the host use most of the memory"),
            ],
        },
        DiskFull => Advice {
            meaning: ("磁盘空间不足：写入时设备上已没有可用空间（或 inode 用尽）。", "No space left: the device is full (or out of inodes) when writing."),
            causes: &[
                ("日志或临时文件把分区写满", "logs or temporary files filled the partition"),
                ("inode 用尽（大量小文件）", "inodes exhausted (many small files)"),
                ("已删除但仍被进程打开的大文件没有释放空间", "large deleted files still held open by a process"),
            ],
        },
        TooManyOpenFiles => Advice {
            meaning: ("打开的文件数超限：进程的文件描述符达到上限（ulimit -n）。", "Too many open files: the process hit its file-descriptor limit (ulimit -n)."),
            causes: &[
                ("连接或文件句柄泄漏，没有关闭", "leaked connections or file handles that are never closed"),
                ("并发量大而 nofile 上限过小", "high concurrency with a low nofile limit"),
            ],
        },
        PermissionDenied => Advice {
            meaning: ("权限被拒绝：运行进程的用户没有访问该文件、目录或端口的权限。", "Permission denied: the process's user may not access that file, directory or port."),
            causes: &[
                ("文件属主或权限位不对", "wrong file owner or mode bits"),
                ("服务以非特权用户运行却要绑定 1024 以下端口", "an unprivileged service binding a port below 1024"),
                ("SELinux/AppArmor 策略拦截", "an SELinux/AppArmor policy blocks it"),
            ],
        },
        FileNotFound => Advice {
            meaning: ("文件或目录不存在：程序按给定路径找不到它。", "No such file or directory: nothing exists at the path the program used."),
            causes: &[
                ("路径写错，或相对路径相对于了另一个工作目录", "a wrong path, or a relative path resolved from another working directory"),
                ("文件还没生成、已被清理或挂载点没挂上", "the file was not created yet, was cleaned up, or a mount is missing"),
            ],
        },
        AddressInUse => Advice {
            meaning: ("地址已被占用：要监听的端口已经有别的进程在用。", "Address already in use: another process already listens on that port."),
            causes: &[
                ("旧进程还没退出，或同一服务启动了两次", "an old instance is still running, or the service started twice"),
                ("另一个服务配置了同一个端口", "another service is configured with the same port"),
            ],
        },
        Tls => Advice {
            meaning: ("TLS/SSL 握手或证书校验失败。", "The TLS/SSL handshake or certificate check failed."),
            causes: &[
                ("证书过期、域名不匹配或缺少中间证书", "an expired certificate, a name mismatch, or a missing intermediate"),
                ("客户端不信任签发的 CA", "the client does not trust the issuing CA"),
                ("双方支持的协议版本或加密套件不一致", "no common protocol version or cipher"),
            ],
        },
        AuthFailed => Advice {
            meaning: ("认证失败：用户名、密码或凭据被服务端拒绝。", "Authentication failed: the server rejected the user, password or credential."),
            causes: &[
                ("密码或用户名配置错误，或密码已轮换", "a wrong or rotated password or user name"),
                ("服务端的访问规则（如 pg_hba.conf）不允许该来源", "the server's access rules (e.g. pg_hba.conf) do not allow this client"),
            ],
        },
        NullValue => Advice {
            meaning: ("空值引用：代码使用了一个为 null/None/undefined 的对象。", "A null reference: the code used an object that is null/None/undefined."),
            causes: &[
                ("上游返回了空结果或缺少字段", "an upstream call returned nothing or a field is missing"),
                ("配置项缺失导致对象没有初始化", "a missing setting left an object uninitialised"),
            ],
        },
        Other => Advice {
            meaning: ("程序在运行中抛出了错误。", "The program raised an error while running."),
            causes: &[
                ("错误消息中提到的资源或配置有问题", "a problem with the resource or setting the message names"),
                ("依赖的服务异常", "a dependency misbehaving"),
            ],
        },
    }
}

/// Read-only commands (all allowed by the executor) worth running for this error.
fn checks(r: &ErrorReport) -> Vec<String> {
    use ErrorKind::*;
    let host = r
        .host
        .as_deref()
        .filter(|h| *h != "localhost" && *h != "127.0.0.1");
    let service = r.port.and_then(service_for_port);
    let mut out: Vec<String> = Vec::new();
    match r.kind {
        ConnectionRefused | Timeout | AddressInUse => {
            out.push("ss -tlnp".into());
            if let Some(p) = r.port {
                out.push(format!("lsof -i :{p}"));
            }
            if let Some(h) = host {
                out.push(format!("ping -c 3 {h}"));
            }
        }
        UnknownHost => {
            if let Some(h) = host {
                out.push(format!("getent hosts {h}"));
                out.push(format!("ping -c 3 {h}"));
            }
            out.push("cat /etc/resolv.conf".into());
            out.push("cat /etc/hosts".into());
        }
        OutOfMemory => {
            out.push("free -h".into());
            out.push("ps aux --sort=-%mem | head -10".into());
            out.push("dmesg | grep -i oom".into());
        }
        DiskFull => {
            out.push("df -h".into());
            out.push("df -i".into());
            out.push("du -sh /var/log".into());
        }
        TooManyOpenFiles => {
            out.push("ps aux --sort=-%cpu | head -10".into());
            out.push("lsof -p <pid>".into());
        }
        PermissionDenied | FileNotFound => {
            if let Some(p) = path_in(&r.message) {
                out.push(format!("ls -l {p}"));
                out.push(format!("stat {p}"));
            }
            out.push("whoami".into());
        }
        Tls | AuthFailed | NullValue | Other => {}
    }
    if let Some(s) = service {
        out.push(format!("systemctl status {s}"));
        out.push(format!("journalctl -u {s} -n 100"));
    }
    out
}

fn path_in(message: &str) -> Option<String> {
    message
        .split(|c: char| c.is_whitespace() || c == '\'' || c == '"')
        .find(|w| w.starts_with('/') && w.len() > 1)
        .map(|w| w.trim_end_matches([',', ';', ')']).to_string())
}

/// The answer: meaning, causes, checks, and what the search found (from `search`'s data).
pub fn render(r: &ErrorReport, search: Option<&Value>, lang: Lang) -> String {
    let a = advice(r.kind);
    let quoted = match &r.class {
        Some(c) => format!("{c}: {}", r.message),
        None => r.message.clone(),
    };
    let quoted: String = quoted.chars().take(200).collect();
    let mut out = String::new();
    out.push_str(&match lang {
        Lang::Zh => format!("**报错含义**：`{quoted}`\n{}", a.meaning.0),
        Lang::En => format!("**What it means**: `{quoted}`\n{}", a.meaning.1),
    });
    let mut place = Vec::new();
    if let (Some(h), Some(p)) = (&r.host, r.port) {
        place.push(match lang {
            Lang::Zh => format!("目标是 {h}:{p}"),
            Lang::En => format!("the target is {h}:{p}"),
        });
    }
    if let Some(l) = &r.location {
        place.push(match lang {
            Lang::Zh => format!("出错位置在 {l}"),
            Lang::En => format!("it was raised at {l}"),
        });
    }
    if !place.is_empty() {
        out.push_str(&match lang {
            Lang::Zh => format!("（{}）", place.join("，")),
            Lang::En => format!(" ({})", place.join("; ")),
        });
    }
    out.push_str(lang.pick("\n\n**可能原因**：", "\n\n**Likely causes**:"));
    for (i, (zh, en)) in a.causes.iter().enumerate() {
        out.push_str(&format!("\n{}. {}", i + 1, lang.pick(zh, en)));
    }
    let cmds = checks(r);
    if !cmds.is_empty() {
        out.push_str(lang.pick(
            "\n\n**建议检查**（可以直接让我执行）：",
            "\n\n**What to check** (ask me to run any of these):",
        ));
        for c in &cmds {
            out.push_str(&format!("\n- `{c}`"));
        }
    }
    let hits = search
        .and_then(|d| d["results"].as_array())
        .cloned()
        .unwrap_or_default();
    let query = search.and_then(|d| d["query"].as_str()).unwrap_or_default();
    if hits.is_empty() {
        out.push_str(&match lang {
            Lang::Zh => format!("\n\n文档和上传文件中没有找到与“{query}”相关的内容。"),
            Lang::En => format!("\n\nNothing in the docs or uploads matched \"{query}\"."),
        });
    } else {
        out.push_str(&match lang {
            Lang::Zh => format!("\n\n**相关资料**（搜索“{query}”找到 {} 条）：", hits.len()),
            Lang::En => format!(
                "\n\n**Related material** ({} hit(s) for \"{query}\"):",
                hits.len()
            ),
        });
        for (i, h) in hits.iter().enumerate().take(3) {
            let name = h["filename"].as_str().unwrap_or("?");
            let chunk = h["chunk"].as_str().unwrap_or("").trim();
            let line = chunk
                .lines()
                .find(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
                .unwrap_or(chunk);
            let snippet: String = line.trim().chars().take(100).collect();
            out.push_str(&format!("\n{}. **{name}** — {snippet}", i + 1));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::super::super::trace::pasted_error;
    use super::*;
    use serde_json::json;

    #[test]
    fn one_answer_with_meaning_causes_checks_and_hits() {
        let r = pasted_error(
            "why does this happen?\njava.net.ConnectException: Connection refused to db-main.internal:5432\n\tat com.acme.Repo.load(Repo.java:31)",
        )
        .expect("trace");
        let d = json!({"query": "ConnectException", "results": [{"filename": "runbook.md", "chunk": "## Postgres down\nRestart postgresql and check port 5432."}]});
        let a = render(&r, Some(&d), Lang::En);
        for want in [
            "Connection refused",
            "db-main.internal:5432",
            "Repo.java:31",
            "`ss -tlnp`",
            "`systemctl status postgresql`",
            "`ping -c 3 db-main.internal`",
            "1 hit(s)",
            "runbook.md",
        ] {
            assert!(a.contains(want), "{want} missing: {a}");
        }
        // One coherent piece: each section once.
        assert_eq!(a.matches("Likely causes").count(), 1);
    }
}
