//! The one answer to a pasted error or stack trace: what it means, likely causes, what to
//! check (allowed read-only commands filled with the trace's host, port and file), and the
//! documents or uploads the search found for its key terms.

use std::sync::OnceLock;

use llmops_tooldata::SearchData;
use serde::Deserialize;

use super::super::text::Lang;
use super::super::trace::{service_for_port, ErrorKind, ErrorReport};

/// Text in both languages.
#[derive(Debug, Deserialize)]
struct Bilingual {
    zh: String,
    en: String,
}

impl Bilingual {
    fn pick(&self, lang: Lang) -> &str {
        lang.pick(&self.zh, &self.en)
    }
}

/// What an error of one kind means and what usually causes it (`error_advice.toml`).
#[derive(Debug, Deserialize)]
struct Advice {
    kind: ErrorKind,
    meaning: Bilingual,
    causes: Vec<Bilingual>,
}

#[derive(Debug, Deserialize)]
struct AdviceFile {
    advice: Vec<Advice>,
}

const ADVICE: &str = include_str!("../../../assets/planner/error_advice.toml");

fn advice(kind: ErrorKind) -> &'static Advice {
    static ALL: OnceLock<Vec<Advice>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        // The file is embedded at build time; a test parses it, so this cannot fail at run time.
        toml::from_str::<AdviceFile>(ADVICE)
            .expect("error_advice.toml parses (checked by a test)")
            .advice
    });
    all.iter()
        .find(|a| a.kind == kind)
        .or_else(|| all.iter().find(|a| a.kind == ErrorKind::Other))
        .expect("error_advice.toml has an `other` entry (checked by a test)")
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
pub fn render(r: &ErrorReport, search: Option<&SearchData>, lang: Lang) -> String {
    let a = advice(r.kind);
    let quoted = match &r.class {
        Some(c) => format!("{c}: {}", r.message),
        None => r.message.clone(),
    };
    let quoted: String = quoted.chars().take(200).collect();
    let mut out = String::new();
    out.push_str(&match lang {
        Lang::Zh => format!("**报错含义**：`{quoted}`\n{}", a.meaning.zh),
        Lang::En => format!("**What it means**: `{quoted}`\n{}", a.meaning.en),
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
    for (i, cause) in a.causes.iter().enumerate() {
        out.push_str(&format!("\n{}. {}", i + 1, cause.pick(lang)));
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
    let hits = search.map_or(&[][..], |d| &d.results);
    let query = search.map_or("", |d| d.query.as_str());
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
            let name = &h.filename;
            let chunk = h.chunk.trim();
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
    use crate::test_data::hit;
    use llmops_tooldata::SearchScope;

    #[test]
    fn every_error_kind_has_its_own_advice_in_both_languages() {
        use ErrorKind::*;
        let file: AdviceFile = toml::from_str(ADVICE).expect("error_advice.toml parses");
        for kind in [
            ConnectionRefused,
            Timeout,
            UnknownHost,
            OutOfMemory,
            DiskFull,
            TooManyOpenFiles,
            PermissionDenied,
            FileNotFound,
            AddressInUse,
            Tls,
            AuthFailed,
            NullValue,
            Other,
        ] {
            let a = file.advice.iter().find(|a| a.kind == kind);
            let a = a.unwrap_or_else(|| panic!("no advice for {kind:?}"));
            assert!(
                !a.meaning.zh.is_empty() && !a.meaning.en.is_empty(),
                "{kind:?}"
            );
            assert!(!a.causes.is_empty(), "{kind:?}");
            assert!(a
                .causes
                .iter()
                .all(|c| !c.zh.is_empty() && !c.en.is_empty()));
        }
    }

    #[test]
    fn one_answer_with_meaning_causes_checks_and_hits() {
        let r = pasted_error(
            "why does this happen?\njava.net.ConnectException: Connection refused to db-main.internal:5432\n\tat com.acme.Repo.load(Repo.java:31)",
        )
        .expect("trace");
        let d = SearchData {
            query: "ConnectException".into(),
            scope: SearchScope::All,
            results: vec![hit(
                "runbook.md",
                "",
                0.0,
                "## Postgres down\nRestart postgresql and check port 5432.",
            )],
        };
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
