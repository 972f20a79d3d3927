//! Answer writing: turns tool results into short, useful replies (monitor sentences, trimmed
//! command output, ranked search hits, log and config analyses, download offers, failures).
//! Reads only the step records it is given.

pub mod config;
pub mod config_tree;
pub mod error;
pub mod log_report;
pub mod logs;
pub mod procs;
pub mod query;

use llmops_common::{df_size, AnswerLine};
use serde_json::Value;

use super::slots::extension;
use super::text::{human_size, trim_block, Lang};
use super::{StepRecord, ToolName};

fn f64_of(v: &Value) -> Option<f64> {
    v.as_f64().or_else(|| {
        v.as_str()
            .and_then(|s| s.trim_end_matches('%').parse().ok())
    })
}

fn pct(v: &Value) -> String {
    f64_of(v)
        .map(|x| format!("{x:.1}%"))
        .unwrap_or_else(|| "?".into())
}

fn bytes(v: &Value) -> String {
    match v.as_u64() {
        Some(n) => human_size(n),
        None => v.as_str().map(str::to_string).unwrap_or_else(|| "?".into()),
    }
}

/// The failure sentence for a step, quoting the tool's error.
pub fn failure(step: &StepRecord, lang: Lang) -> String {
    let err = step
        .error
        .clone()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or_else(|| step.output.trim().to_string());
    let what = describe_call(step, lang);
    match lang {
        Lang::Zh => format!("{what}失败：{err}"),
        Lang::En => format!("{what} failed: {err}"),
    }
}

fn describe_call(step: &StepRecord, lang: Lang) -> String {
    let a = &step.args;
    let s = |k: &str| a[k].as_str().unwrap_or("").to_string();
    match (ToolName::parse(&step.tool), lang) {
        (Some(ToolName::CommandExecutor), _) => {
            let args: Vec<&str> = a["args"]
                .as_array()
                .map(|x| x.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let line = std::iter::once(s("command").as_str())
                .chain(args)
                .collect::<Vec<_>>()
                .join(" ");
            lang.pick("执行 `", "Running `").to_string() + &line + "` "
        }
        (Some(ToolName::FileDownload), Lang::Zh) => format!("准备下载 {} ", s("file_path")),
        (Some(ToolName::FileDownload), Lang::En) => {
            format!("Preparing the download of {} ", s("file_path"))
        }
        (Some(ToolName::FileRead), Lang::Zh) => format!("读取 {} ", s("file_path")),
        (Some(ToolName::FileRead), Lang::En) => format!("Reading {} ", s("file_path")),
        (Some(ToolName::SemanticSearch), Lang::Zh) => format!("搜索“{}”", s("query")),
        (Some(ToolName::SemanticSearch), Lang::En) => format!("Searching for \"{}\" ", s("query")),
        (Some(ToolName::SysMonitor), Lang::Zh) => "查询系统资源".to_string(),
        (Some(ToolName::SysMonitor), Lang::En) => "Reading system resources ".to_string(),
        (Some(ToolName::FileUpload), Lang::Zh) => "查询上传文件".to_string(),
        (_, Lang::Zh) => format!("{} ", step.tool),
        (_, Lang::En) => format!("{} ", step.tool),
    }
}

/// A sentence (or three) about CPU, memory and disks; only the families asked for.
pub fn monitor(data: &Value, metric: &str, lang: Lang) -> String {
    let want = |m: &str| metric == "all" || metric == m || metric.is_empty();
    let mut parts = Vec::new();
    let mut warn = Vec::new();
    if let Some(cpu) = data.get("cpu").filter(|v| v.is_object() && want("cpu")) {
        parts.push(cpu_sentence(cpu, lang, &mut warn));
    }
    if let Some(m) = data
        .get("memory")
        .filter(|v| v.is_object() && want("memory"))
    {
        parts.push(memory_sentence(m, lang, &mut warn));
    }
    if let Some(disks) = data
        .get("disks")
        .and_then(Value::as_array)
        .filter(|_| want("disk"))
    {
        parts.extend(disks_sentence(disks, lang, &mut warn));
    }
    if parts.is_empty() {
        return lang
            .pick("没有拿到系统资源数据。", "No resource data came back.")
            .to_string();
    }
    warn.dedup();
    let verdict = if warn.is_empty() {
        lang.pick("整体正常。", "Overall healthy.").to_string()
    } else {
        match lang {
            Lang::Zh => format!("注意：{}。", warn.join("，")),
            Lang::En => format!("Attention: {}.", warn.join(", ")),
        }
    };
    format!(
        "{}{}{verdict}",
        parts.join(lang.pick("；", "; ")),
        lang.pick("。", ". ")
    )
}

fn cpu_sentence(cpu: &Value, lang: Lang, warn: &mut Vec<&'static str>) -> String {
    let load: Vec<String> = cpu["load_avg"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(f64_of)
                .map(|x| format!("{x:.2}"))
                .collect()
        })
        .unwrap_or_default();
    let mut s = match lang {
        Lang::Zh => format!("CPU 使用率 {}", pct(&cpu["usage_percent"])),
        Lang::En => format!("CPU at {}", pct(&cpu["usage_percent"])),
    };
    if let Some(c) = cpu["cores"].as_u64() {
        s.push_str(&match lang {
            Lang::Zh => format!("（{c} 核"),
            Lang::En => format!(" ({c} cores"),
        });
        if let Some(f) = cpu["frequency_mhz"].as_f64().filter(|f| *f > 0.0) {
            s.push_str(&format!(", {f:.0} MHz"));
        }
        if load.len() == 3 {
            s.push_str(&match lang {
                Lang::Zh => format!("，负载 {}", load.join(" / ")),
                Lang::En => format!(", load {}", load.join(" / ")),
            });
        }
        s.push_str(lang.pick("）", ")"));
    }
    if f64_of(&cpu["usage_percent"]).is_some_and(|x| x >= 85.0) {
        warn.push(lang.pick("CPU 偏高", "CPU is high"));
    }
    s
}

fn memory_sentence(m: &Value, lang: Lang, warn: &mut Vec<&'static str>) -> String {
    if f64_of(&m["usage_percent"]).is_some_and(|x| x >= 90.0) {
        warn.push(lang.pick("内存紧张", "memory is tight"));
    }
    match lang {
        Lang::Zh => format!(
            "内存已用 {} / {}（{}），可用 {}",
            bytes(&m["used_bytes"]),
            bytes(&m["total_bytes"]),
            pct(&m["usage_percent"]),
            bytes(&m["available_bytes"])
        ),
        Lang::En => format!(
            "memory {} of {} used ({}), {} available",
            bytes(&m["used_bytes"]),
            bytes(&m["total_bytes"]),
            pct(&m["usage_percent"]),
            bytes(&m["available_bytes"])
        ),
    }
}

/// "disks: / 41.0% used (…)" for up to six mounts; `None` when there are none.
fn disks_sentence(disks: &[Value], lang: Lang, warn: &mut Vec<&'static str>) -> Option<String> {
    let ds: Vec<String> = disks
        .iter()
        .take(6)
        .map(|d| {
            let mount = d["mount"].as_str().unwrap_or("?");
            if f64_of(&d["usage_percent"]).is_some_and(|x| x >= 90.0) {
                warn.push(lang.pick("有磁盘接近写满", "a disk is nearly full"));
            }
            // The figures `df -h` prints too, so either reading can be checked against it.
            let df = |k: &str| d[k].as_u64().map_or_else(|| "?".into(), df_size);
            match lang {
                Lang::Zh => format!(
                    "{mount} 已用 {}（{} / {}，剩余 {}；df -h：已用 {}，可用 {}）",
                    pct(&d["usage_percent"]),
                    bytes(&d["used_bytes"]),
                    bytes(&d["total_bytes"]),
                    bytes(&d["available_bytes"]),
                    df("used_bytes"),
                    df("available_bytes")
                ),
                Lang::En => format!(
                    "{mount} {} used ({} of {}, {} free; df -h: {} used, {} avail)",
                    pct(&d["usage_percent"]),
                    bytes(&d["used_bytes"]),
                    bytes(&d["total_bytes"]),
                    bytes(&d["available_bytes"]),
                    df("used_bytes"),
                    df("available_bytes")
                ),
            }
        })
        .collect();
    (!ds.is_empty())
        .then(|| lang.pick("磁盘：", "disks: ").to_string() + &ds.join(lang.pick("；", "; ")))
}

/// Command output, trimmed, in a code block.
pub fn command(step: &StepRecord, lang: Lang) -> String {
    let d = &step.data;
    let line = describe_call(step, lang);
    let line = line
        .trim_start_matches("执行 ")
        .trim_start_matches("Running ")
        .trim();
    let stdout = d["stdout"].as_str().unwrap_or(step.output.as_str());
    let stderr = d["stderr"].as_str().unwrap_or("");
    let code = d["exit_code"].as_i64().unwrap_or(0);
    let mut out = match lang {
        Lang::Zh => format!("{line} 的输出："),
        Lang::En => format!("Output of {line}:"),
    };
    if stdout.trim().is_empty() {
        out.push_str(lang.pick("（无输出）", " (no output)"));
    } else {
        out.push_str("\n```\n");
        out.push_str(&trim_block(stdout, 40, 4000, lang));
        out.push_str("```");
    }
    if d["truncated"].as_bool() == Some(true) {
        out.push_str(lang.pick("\n（输出过长，已被截断）", "\n(output was truncated)"));
    }
    if code != 0 {
        out.push_str(&match lang {
            Lang::Zh => format!("\n退出码 {code}：{}", stderr.trim()),
            Lang::En => format!("\nExit code {code}: {}", stderr.trim()),
        });
    }
    out
}

/// Search hits as a short ranked list.
pub fn search(data: &Value, lang: Lang) -> String {
    let query = data["query"].as_str().unwrap_or("");
    let hits = data["results"].as_array().cloned().unwrap_or_default();
    if hits.is_empty() {
        return match lang {
            Lang::Zh => {
                format!("没有找到与“{query}”相关的内容。可以换个关键词，或先上传相关文件。")
            }
            Lang::En => format!(
                "Nothing matched \"{query}\". Try other words, or upload the relevant file first."
            ),
        };
    }
    let mut out = String::new();
    // The line the best hit answers with leads: the operator asked for a value, not a list.
    if let Some(a) = hits.first().and_then(answer_line) {
        let name = hits[0]["filename"].as_str().unwrap_or("?");
        // A comment sets nothing: said so, not offered as the value.
        out = match (lang, a.comment) {
            (Lang::Zh, false) => format!("最相关的一行：**{name}** 第 {} 行 `{}`", a.line, a.text),
            (Lang::En, false) => format!("Best match: **{name}** line {}: `{}`", a.line, a.text),
            (Lang::Zh, true) => format!(
                "没有找到直接设置它的行；最接近的是 **{name}** 第 {} 行的注释 `{}`",
                a.line, a.text
            ),
            (Lang::En, true) => format!(
                "No line that sets it matched; the closest is a comment, **{name}** line {}: `{}`",
                a.line, a.text
            ),
        };
        if let Some(k) = a.key {
            out.push_str(&match lang {
                Lang::Zh => format!("（键 `{k}`）"),
                Lang::En => format!(" (key `{k}`)"),
            });
        }
        out.push_str(lang.pick("。\n", ".\n"));
    }
    out.push_str(&match lang {
        Lang::Zh => format!("找到 {} 条与“{query}”相关的结果：", hits.len()),
        Lang::En => format!("{} result(s) for \"{query}\":", hits.len()),
    });
    for (i, h) in hits.iter().enumerate().take(10) {
        let name = h["filename"].as_str().unwrap_or("?");
        let path = h["filepath"].as_str().unwrap_or("");
        let sim = f64_of(&h["similarity"])
            .map(|s| format!("{s:.2}"))
            .unwrap_or_default();
        let chunk = match answer_line(h) {
            Some(a) => match lang {
                Lang::Zh => format!("第 {} 行 {}", a.line, a.text),
                Lang::En => format!("line {}: {}", a.line, a.text),
            },
            None => best_line(h["chunk"].as_str().unwrap_or(""), query),
        };
        let snippet: String = chunk.chars().take(80).collect();
        let ell = if chunk.chars().count() > 80 {
            "…"
        } else {
            ""
        };
        out.push_str(&format!("\n{}. **{name}** ({sim}) `{path}`", i + 1));
        if !snippet.is_empty() {
            out.push_str(&format!(" — {snippet}{ell}"));
        }
    }
    out.push_str(lang.pick(
        "\n需要的话，我可以读取其中的文件或准备下载。",
        "\nI can read any of these or prepare a download.",
    ));
    out
}

/// The line a hit answers with (the search tool's `answer`), its value masked when the
/// line sets a secret (`requirepass s3cret` -> `requirepass ******`).
fn answer_line(hit: &Value) -> Option<AnswerLine> {
    let mut a: AnswerLine = serde_json::from_value(hit.get("answer")?.clone()).ok()?;
    if config::secret_key(&a.text) {
        a.text = match a.text.find(['=', ':', ' ', '\t']) {
            Some(i) => format!("{} ******", a.text[..=i].trim_end()),
            None => "******".to_string(),
        };
    }
    Some(a)
}

/// The chunk line that mentions the most query terms (whitespace collapsed), so a hit shows
/// "port: 3306" rather than the chunk's first line.
fn best_line(chunk: &str, query: &str) -> String {
    let terms: Vec<String> = query
        .split_whitespace()
        .map(str::to_lowercase)
        .filter(|t| t.chars().count() >= 2)
        .collect();
    let lines: Vec<&str> = chunk
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let best = lines
        .iter()
        .enumerate()
        .max_by_key(|(i, l)| {
            let low = l.to_lowercase();
            (
                terms.iter().filter(|t| low.contains(t.as_str())).count(),
                std::cmp::Reverse(*i),
            )
        })
        .map(|(i, _)| i)
        .unwrap_or(0);
    lines
        .iter()
        .skip(best)
        .take(3)
        .copied()
        .collect::<Vec<_>>()
        .join(" ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The session's uploads as a list.
pub fn uploads(data: &Value, lang: Lang) -> String {
    let files = data["files"].as_array().cloned().unwrap_or_default();
    if files.is_empty() {
        return lang
            .pick(
                "本会话还没有匹配的上传文件。可以在 TUI 里用 `/upload <路径>` 上传。",
                "No matching uploads in this session yet. Upload with `/upload <path>` in the TUI.",
            )
            .to_string();
    }
    let mut out = match lang {
        Lang::Zh => format!("本会话中有 {} 个相关的上传文件：", files.len()),
        Lang::En => format!("{} uploaded file(s) in this session:", files.len()),
    };
    for (i, f) in files.iter().enumerate() {
        let name = f["filename"].as_str().unwrap_or("?");
        let size = f["size"].as_u64().map(human_size).unwrap_or_default();
        let at = f["uploaded_at"].as_str().unwrap_or("");
        out.push_str(&format!(
            "\n{}. {name} ({size}{}{at})",
            i + 1,
            if at.is_empty() { "" } else { ", " }
        ));
    }
    out
}

/// The download offer sentence.
pub fn download(data: &Value, lang: Lang) -> String {
    let o = data.get("offer").unwrap_or(data);
    let name = o["filename"].as_str().unwrap_or("?");
    let size = o["size"]
        .as_u64()
        .map(human_size)
        .unwrap_or_else(|| "?".into());
    let mode = o["transport_mode"].as_str().unwrap_or("auto");
    let sha: String = o["sha256"]
        .as_str()
        .unwrap_or("")
        .chars()
        .take(12)
        .collect();
    match lang {
        Lang::Zh => format!(
            "已准备好 {name} ({size})，请在对话框中接受或拒绝。传输方式：{mode}{}",
            if sha.is_empty() { String::new() } else { format!("，SHA-256 {sha}…") }
        ),
        Lang::En => format!(
            "{name} ({size}) is ready; accept or reject it in the download dialog. Transport: {mode}{}",
            if sha.is_empty() { String::new() } else { format!(", SHA-256 {sha}…") }
        ),
    }
}

/// Key terms of a question that are worth grepping for in plain text.
fn question_terms(question: &str) -> Vec<String> {
    let q = super::slots::search_query(question);
    q.split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| w.chars().count() >= 2)
        .filter(|w| {
            ![
                "读取",
                "分析",
                "查看",
                "打开",
                "内容",
                "总结",
                "看看",
                "读一下",
                "read",
                "analyze",
                "analyse",
                "summarize",
                "open",
                "contents",
                "what's",
                "whats",
                "this",
                "these",
                "它",
                "这个",
                "里面",
                "写了",
            ]
            .contains(&w.as_str())
        })
        .collect()
}

/// A `file_read` result's file name and text: the tool returns `lines` (one string per
/// line); `content` is accepted too.
pub fn read_text(data: &Value) -> (&str, std::borrow::Cow<'_, str>) {
    let path = data["path"].as_str().unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or(path);
    let content = match (data["content"].as_str(), data["lines"].as_array()) {
        (Some(c), _) => std::borrow::Cow::Borrowed(c),
        (None, Some(lines)) => std::borrow::Cow::Owned(
            lines
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
        _ => std::borrow::Cow::Borrowed(""),
    };
    (name, content)
}

/// What a file says: log summary, config answer or a text excerpt.
pub fn read(data: &Value, question: &str, lang: Lang) -> String {
    let (name, content) = read_text(data);
    let content = content.as_ref();
    let total = data["total_lines"].as_u64();
    // `more_lines` is a count from the tool (a flag in older callers).
    let more = data["more_lines"].as_bool() == Some(true)
        || data["more_lines"].as_u64().is_some_and(|n| n > 0);
    let ext = extension(name);
    let offset = data["offset"].as_u64().unwrap_or(0);
    let shown = data["lines"].as_array().map(|a| a.len() as u64);
    let is_log = ext == "log" || logs::looks_like_log(content);
    let page = (more || offset > 0).then(|| {
        let last = offset + shown.unwrap_or_else(|| content.lines().count() as u64);
        (offset + 1, last, total.unwrap_or(last))
    });
    let tree = (!is_log && crate::slots::config_name(name))
        .then(|| {
            let file = config_tree::ConfigText { name, content };
            config_tree::answer(&[file], question, lang)
        })
        .flatten();
    let mut out = if is_log {
        logs::render(&logs::summarize(content), name, page, lang)
    } else if let Some(answer) = tree {
        answer
    } else if config::is_config_name(name) {
        let settings = config::flatten(content, name);
        let hits = relevant_lines(content, name, question);
        // No setting matched, but lines say the question's words (`maxconn` in a
        // haproxy.cfg this reader cannot nest): those lines, not a list of other keys.
        let grep = !hits.is_empty() && config::answer_matches(&settings, question, name).is_empty();
        match config::render(&settings, question, name, lang) {
            Some(a) if !grep => a,
            _ => excerpt(name, content, &hits, total, lang),
        }
    } else {
        let hits = relevant_lines(content, name, question);
        excerpt(name, content, &hits, total, lang)
    };
    if is_log {
        // The first sentence already says which lines the figures cover.
    } else if offset > 0 {
        // A continued read: say which lines this page holds and what is left.
        let first = offset + 1;
        let last = offset + shown.unwrap_or(0);
        let total = total.unwrap_or(last);
        let rest = total.saturating_sub(last);
        out.push_str(&match lang {
            Lang::Zh => format!("\n（第 {first}–{last} 行，共 {total} 行，还剩 {rest} 行）"),
            Lang::En => format!("\n(lines {first}–{last} of {total}; {rest} left)"),
        });
    } else if more {
        let limit = shown.unwrap_or_else(|| data["limit"].as_u64().unwrap_or(200));
        out.push_str(&match lang {
            Lang::Zh => format!("\n（只读取了前 {limit} 行，共 {} 行）", total.unwrap_or(0)),
            Lang::En => format!("\n(read the first {limit} of {} lines)", total.unwrap_or(0)),
        });
    }
    out
}

/// The non-blank lines of a file that hold most of the question's words, at most 6, in
/// file order. The file's own name says nothing about a line (`haproxy` in haproxy.cfg):
/// other words count first.
fn relevant_lines<'a>(content: &'a str, name: &str, question: &str) -> Vec<&'a str> {
    let mut terms = question_terms(question);
    let lname = name.to_lowercase();
    if terms.iter().any(|t| !lname.contains(t.as_str())) {
        terms.retain(|t| !lname.contains(t.as_str()));
    }
    let lines: Vec<&str> = content.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut scored: Vec<(usize, usize)> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let low = l.to_lowercase();
            (terms.iter().filter(|t| low.contains(t.as_str())).count(), i)
        })
        .filter(|(n, _)| *n > 0)
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.truncate(6);
    scored.sort_by_key(|s| s.1);
    scored.iter().map(|s| lines[s.1]).collect()
}

/// A file's size and title, then its `hits` (`relevant_lines`), or its first lines.
fn excerpt(name: &str, content: &str, hits: &[&str], total: Option<u64>, lang: Lang) -> String {
    let lines: Vec<&str> = content.lines().filter(|l| !l.trim().is_empty()).collect();
    if lines.is_empty() {
        return match lang {
            Lang::Zh => format!("{name} 是空文件。"),
            Lang::En => format!("{name} is empty."),
        };
    }
    let title = lines
        .iter()
        .find(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim());
    let total = total.unwrap_or(content.lines().count() as u64);
    let mut out = match (lang, title) {
        (Lang::Zh, Some(t)) => format!("{name}（{total} 行），标题“{t}”。"),
        (Lang::Zh, None) => format!("{name}（{total} 行）。"),
        (Lang::En, Some(t)) => format!("{name} ({total} lines), titled \"{t}\"."),
        (Lang::En, None) => format!("{name} ({total} lines)."),
    };
    let (label, body): (&str, Vec<&str>) = if hits.is_empty() {
        (
            lang.pick("\n主要内容：", "\nMain content:"),
            lines
                .iter()
                .filter(|l| !l.starts_with('#'))
                .take(8)
                .copied()
                .collect(),
        )
    } else {
        (
            lang.pick("\n相关内容：", "\nRelevant lines:"),
            hits.to_vec(),
        )
    };
    out.push_str(label);
    for l in body {
        let l: String = l.trim().chars().take(160).collect();
        out.push_str(&format!("\n> {l}"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn step(tool: &str, args: Value, ok: bool, data: Value, error: Option<&str>) -> StepRecord {
        StepRecord {
            tool: tool.into(),
            args,
            ok,
            output: String::new(),
            data,
            error: error.map(str::to_string),
        }
    }

    #[test]
    fn failure_quotes_error() {
        let s = step(
            "file_download",
            json!({"file_path": "/etc/passwd"}),
            false,
            Value::Null,
            Some("路径匹配禁止模式: /etc/passwd"),
        );
        let t = failure(&s, Lang::Zh);
        assert!(
            t.contains("路径匹配禁止模式: /etc/passwd") && t.contains("失败"),
            "{t}"
        );
    }

    #[test]
    fn monitor_sentence() {
        let d = json!({"cpu": {"usage_percent": 12.5, "cores": 8, "frequency_mhz": 2400, "load_avg": [0.5, 0.4, 0.3]},
                       "memory": {"total_bytes": 16u64 << 30, "used_bytes": 4u64 << 30, "available_bytes": 12u64 << 30, "usage_percent": 25.0}});
        let t = monitor(&d, "all", Lang::Zh);
        let m = monitor(&d, "memory", Lang::Zh);
        assert!(!m.contains("CPU") && m.contains("内存"), "{m}");
        assert!(
            t.contains("CPU 使用率 12.5%")
                && t.contains("8 核")
                && t.contains("25.0%")
                && t.contains("16.0 GiB"),
            "{t}"
        );
    }

    #[test]
    fn search_answer_leads_with_the_line_that_sets_the_value() {
        let d = json!({"query": "orders 容器 内存限制", "results": [
            {"filename": "orders.yaml", "filepath": "/u/orders.yaml", "similarity": 0.9,
             "chunk": "limits:\n  memory: 1536Mi", "position": "lines 87-88",
             "answer": {"line": 88, "text": "memory: 1536Mi", "key": "spec.containers.resources.limits.memory"}},
            {"filename": "cache.conf", "filepath": "/u/cache.conf", "similarity": 0.5,
             "chunk": "requirepass hunter2", "position": "lines 3-3",
             "answer": {"line": 3, "text": "requirepass hunter2"}}
        ]});
        let a = search(&d, Lang::Zh);
        assert!(
            a.starts_with("最相关的一行：**orders.yaml** 第 88 行 `memory: 1536Mi`（键 `spec.containers.resources.limits.memory`）"),
            "{a}"
        );
        assert!(
            a.contains("第 3 行 requirepass ******") && !a.contains("hunter2"),
            "{a}"
        );
        let a = search(&d, Lang::En);
        assert!(
            a.starts_with("Best match: **orders.yaml** line 88: `memory: 1536Mi`"),
            "{a}"
        );
        // A comment as the closest line is not offered as the value.
        let d = json!({"query": "redis port", "results": [
            {"filename": "app.properties", "filepath": "/u/app.properties", "similarity": 0.7,
             "chunk": "# ---- Redis (shared cache) ----", "position": "lines 68-68",
             "answer": {"line": 68, "text": "# ---- Redis (shared cache) ----", "comment": true}}
        ]});
        let a = search(&d, Lang::En);
        assert!(a.starts_with("No line that sets it matched; the closest is a comment, **app.properties** line 68"), "{a}");
        let a = search(&d, Lang::Zh);
        assert!(a.starts_with("没有找到直接设置它的行"), "{a}");
    }

    #[test]
    fn yaml_answer_quotes_value() {
        let d = json!({"path": "/u/1/config.yaml", "offset": 0, "limit": 200, "total_lines": 11,
            "content": "app:\n  name: billing\ndatabase:\n  host: 127.0.0.1\n  port: 3306\nqueue:\n  port: 5672\n", "more_lines": false});
        let t = read(&d, "数据库端口是多少", Lang::Zh);
        assert!(
            t.starts_with("`port = 3306` — config.yaml 第 5 行，位于 `database`")
                && !t.contains("5672"),
            "{t}"
        );
    }

    #[test]
    fn a_config_no_setting_matches_answers_with_the_lines_that_say_the_words() {
        let cfg = "global\n    log /dev/log local0\n    user haproxy\n    chroot /var/lib/haproxy\n    maxconn 48000\n\ndefaults\n    timeout connect 5s\n";
        let d = json!({"path": "/u/1/haproxy.cfg", "content": cfg, "total_lines": 8, "more_lines": false});
        let t = read(&d, "haproxy 全局 maxconn 多少", Lang::Zh);
        assert!(t.contains("> maxconn 48000"), "{t}");
        // The file's name alone picks no line.
        assert!(!t.contains("chroot"), "{t}");
        // A question no line speaks to gets the file's first lines.
        let t = read(&d, "看看这个配置", Lang::Zh);
        assert!(t.contains("主要内容") && t.contains("> global"), "{t}");
    }

    #[test]
    fn log_answer_counts() {
        let d = json!({"path": "/u/1/app.log", "content": "2026-01-01 00:00:01 ERROR a failed\n2026-01-01 00:00:02 ERROR a failed\n2026-01-01 00:00:03 INFO ok\n", "total_lines": 3, "more_lines": false});
        // The tool's own shape: `lines` and a `more_lines` count.
        let tool_shape = json!({"path": "/u/1/app.log", "lines": ["2026-01-01 00:00:01 ERROR a failed", "2026-01-01 00:00:02 ERROR a failed", "2026-01-01 00:00:03 INFO ok"], "total_lines": 3, "more_lines": 0});
        assert_eq!(read(&d, "", Lang::Zh), read(&tool_shape, "", Lang::Zh));
        let t = read(&d, "分析日志", Lang::Zh);
        assert!(
            t.contains("ERROR 2") && t.contains("INFO 1") && t.contains("a failed（2 次）"),
            "{t}"
        );
    }

    #[test]
    fn a_log_page_is_never_reported_as_the_whole_file() {
        let lines: Vec<String> = (0..200)
            .map(|i| {
                format!(
                    "2026-01-01 00:00:{:02} {} step {i}",
                    i % 60,
                    if i % 10 == 0 { "ERROR" } else { "INFO" }
                )
            })
            .collect();
        let d = json!({"path": "/u/1/app.log", "lines": lines, "offset": 0, "limit": 200, "total_lines": 13000, "more_lines": 12800});
        let t = read(&d, "有多少个 ERROR", Lang::Zh);
        assert!(t.starts_with("app.log 只读取了第 1–200 行（全文 13000 行），以下统计只针对这 200 行，不是全文总数"), "{t}");
        assert!(
            t.contains("ERROR 20") && !t.contains("共 200 行日志"),
            "{t}"
        );
        let t = read(&d, "how many errors", Lang::En);
        assert!(t.contains("only lines 1-200 of 13000 were read"), "{t}");
    }

    #[test]
    fn download_offer() {
        let d = json!({"offer": {"file_path": "/u/1/config.yaml", "filename": "config.yaml", "size": 155, "sha256": "abc", "transport_mode": "auto"}});
        assert!(download(&d, Lang::Zh)
            .starts_with("已准备好 config.yaml (155 B)，请在对话框中接受或拒绝"));
    }

    #[test]
    fn disk_figures_include_what_df_h_prints() {
        // `df` on a 252G disk: 48572736 KiB used, 46713152 KiB available -> `47G` and `45G`.
        let d = json!({"mount": "/", "usage_percent": 50.98, "used_bytes": 48572736u64 * 1024,
                       "total_bytes": 264212084u64 * 1024, "available_bytes": 46713152u64 * 1024});
        let mut warn = Vec::new();
        let s = disks_sentence(std::slice::from_ref(&d), Lang::En, &mut warn).expect("one mount");
        assert!(
            s.contains("51.0% used") && s.contains("df -h: 47G used, 45G avail"),
            "{s}"
        );
        let s = disks_sentence(&[d], Lang::Zh, &mut warn).expect("one mount");
        assert!(s.contains("已用 47G，可用 45G"), "{s}");
    }
}
