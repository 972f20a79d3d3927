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

use llmops_common::{df_size, AnswerLine, UploadRef};
use llmops_tooldata::{
    CpuStats, DiskStats, DownloadOffer, MemoryStats, MonitorData, SearchData, SearchHit, ToolData,
};

use super::slots::extension;
use super::text::{human_size, trim_block, Lang};
use super::tool_data::{PageView, RunView};
use super::{StepRecord, ToolArgs};

/// A percentage to one decimal; `?` for a figure the tool could not measure (JSON has no
/// NaN: the model sees `null` there).
fn pct(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}%")
    } else {
        "?".into()
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
    match (&step.args, lang) {
        (ToolArgs::Command(a), _) => {
            lang.pick("执行 `", "Running `").to_string() + &a.line() + "` "
        }
        (ToolArgs::Download(a), Lang::Zh) => format!("准备下载 {} ", a.file_path),
        (ToolArgs::Download(a), Lang::En) => {
            format!("Preparing the download of {} ", a.file_path)
        }
        (ToolArgs::FileRead(a), Lang::Zh) => format!("读取 {} ", a.file_path),
        (ToolArgs::FileRead(a), Lang::En) => format!("Reading {} ", a.file_path),
        (ToolArgs::Search(a), Lang::Zh) => format!("搜索“{}”", a.query),
        (ToolArgs::Search(a), Lang::En) => format!("Searching for \"{}\" ", a.query),
        (ToolArgs::SysMonitor(_), Lang::Zh) => "查询系统资源".to_string(),
        (ToolArgs::SysMonitor(_), Lang::En) => "Reading system resources ".to_string(),
        (ToolArgs::Upload(_), Lang::Zh) => "查询上传文件".to_string(),
        (_, Lang::Zh) => format!("{} ", step.tool),
        (_, Lang::En) => format!("{} ", step.tool),
    }
}

/// A sentence (or three) about CPU, memory and disks; only the families asked for.
pub fn monitor(data: Option<&MonitorData>, metric: &str, lang: Lang) -> String {
    let want = |m: &str| metric == "all" || metric == m || metric.is_empty();
    let mut parts = Vec::new();
    let mut warn = Vec::new();
    if let Some(cpu) = data.and_then(|d| d.cpu.as_ref()).filter(|_| want("cpu")) {
        parts.push(cpu_sentence(cpu, lang, &mut warn));
    }
    if let Some(m) = data
        .and_then(|d| d.memory.as_ref())
        .filter(|_| want("memory"))
    {
        parts.push(memory_sentence(m, lang, &mut warn));
    }
    if let Some(disks) = data
        .and_then(|d| d.disks.as_deref())
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

fn cpu_sentence(cpu: &CpuStats, lang: Lang, warn: &mut Vec<&'static str>) -> String {
    let load: Vec<String> = cpu
        .load_avg
        .iter()
        .filter(|x| x.is_finite())
        .map(|x| format!("{x:.2}"))
        .collect();
    let usage = f64::from(cpu.usage_percent);
    let c = cpu.cores;
    let mut s = match lang {
        Lang::Zh => format!("CPU 使用率 {}（{c} 核", pct(usage)),
        Lang::En => format!("CPU at {} ({c} cores", pct(usage)),
    };
    if cpu.frequency_mhz > 0 {
        s.push_str(&format!(", {} MHz", cpu.frequency_mhz));
    }
    if load.len() == 3 {
        s.push_str(&match lang {
            Lang::Zh => format!("，负载 {}", load.join(" / ")),
            Lang::En => format!(", load {}", load.join(" / ")),
        });
    }
    s.push_str(lang.pick("）", ")"));
    if usage >= 85.0 {
        warn.push(lang.pick("CPU 偏高", "CPU is high"));
    }
    s
}

fn memory_sentence(m: &MemoryStats, lang: Lang, warn: &mut Vec<&'static str>) -> String {
    if m.usage_percent >= 90.0 {
        warn.push(lang.pick("内存紧张", "memory is tight"));
    }
    let (used, total, avail) = (
        human_size(m.used_bytes),
        human_size(m.total_bytes),
        human_size(m.available_bytes),
    );
    let p = pct(m.usage_percent);
    match lang {
        Lang::Zh => format!("内存已用 {used} / {total}（{p}），可用 {avail}"),
        Lang::En => format!("memory {used} of {total} used ({p}), {avail} available"),
    }
}

/// "disks: / 41.0% used (…)" for up to six mounts; `None` when there are none.
fn disks_sentence(disks: &[DiskStats], lang: Lang, warn: &mut Vec<&'static str>) -> Option<String> {
    let ds: Vec<String> = disks
        .iter()
        .take(6)
        .map(|d| {
            let mount = &d.mount;
            if d.usage_percent >= 90.0 {
                warn.push(lang.pick("有磁盘接近写满", "a disk is nearly full"));
            }
            // df's Use% is a whole number (rounded up): written as df writes it.
            let p = if d.usage_percent.fract() == 0.0 {
                format!("{:.0}%", d.usage_percent)
            } else {
                pct(d.usage_percent)
            };
            let (used, total, avail) = (
                human_size(d.used_bytes),
                human_size(d.total_bytes),
                human_size(d.available_bytes),
            );
            // The figures `df -h` prints too, so either reading can be checked against it.
            let (df_used, df_avail) = (df_size(d.used_bytes), df_size(d.available_bytes));
            match lang {
                Lang::Zh => format!(
                    "{mount} 已用 {p}（{used} / {total}，剩余 {avail}；df -h：已用 {df_used}，可用 {df_avail}）"
                ),
                Lang::En => format!(
                    "{mount} {p} used ({used} of {total}, {avail} free; df -h: {df_used} used, {df_avail} avail)"
                ),
            }
        })
        .collect();
    (!ds.is_empty())
        .then(|| lang.pick("磁盘：", "disks: ").to_string() + &ds.join(lang.pick("；", "; ")))
}

/// Command output, trimmed, in a code block.
pub fn command(step: &StepRecord, lang: Lang) -> String {
    let run = RunView::of(&step.data);
    let line = describe_call(step, lang);
    let line = line
        .trim_start_matches("执行 ")
        .trim_start_matches("Running ")
        .trim();
    let stdout = run.map_or(step.output.as_str(), |r| r.stdout);
    let stderr = run.map_or("", |r| r.stderr);
    let code = run.and_then(|r| r.exit_code).unwrap_or(0);
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
    if run.is_some_and(|r| r.truncated) {
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
pub fn search(data: Option<&SearchData>, lang: Lang) -> String {
    let query = data.map_or("", |d| d.query.as_str());
    let hits = data.map_or(&[][..], |d| &d.results);
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
        let name = &hits[0].filename;
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
        let (name, path) = (&h.filename, &h.filepath);
        let sim = Some(f64::from(h.similarity))
            .filter(|x| x.is_finite())
            .map(|x| format!("{x:.2}"))
            .unwrap_or_default();
        let chunk = match answer_line(h) {
            Some(a) => match lang {
                Lang::Zh => format!("第 {} 行 {}", a.line, a.text),
                Lang::En => format!("line {}: {}", a.line, a.text),
            },
            None => best_line(&h.chunk, query),
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
fn answer_line(hit: &SearchHit) -> Option<AnswerLine> {
    let mut a = hit.answer.clone()?;
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
pub fn uploads(files: &[UploadRef], lang: Lang) -> String {
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
        let (name, size, at) = (&f.filename, human_size(f.size), &f.uploaded_at);
        out.push_str(&format!(
            "\n{}. {name} ({size}{}{at})",
            i + 1,
            if at.is_empty() { "" } else { ", " }
        ));
    }
    out
}

/// The download offer sentence.
pub fn download(offer: Option<&DownloadOffer>, lang: Lang) -> String {
    let name = offer.map_or("?", |o| o.filename.as_str());
    let size = offer.map_or_else(|| "?".into(), |o| human_size(o.size));
    let mode = offer.map_or("auto", |o| o.transport_mode.as_str());
    let sha: String = offer
        .map_or("", |o| o.sha256.as_str())
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

/// A `file_read` result's file name and text (its lines joined).
pub fn read_text(data: &ToolData) -> (&str, String) {
    let page = PageView::of(data);
    let path = page.path.unwrap_or("");
    let name = path.rsplit('/').next().unwrap_or(path);
    (name, page.text())
}

/// What a file says: log summary, config answer or a text excerpt.
pub fn read(data: &ToolData, question: &str, lang: Lang) -> String {
    let (name, content) = read_text(data);
    let content = content.as_str();
    let view = PageView::of(data);
    let total = view.total_lines;
    let more = view.more_lines > 0;
    let ext = extension(name);
    let offset = view.offset;
    let shown = view.shown();
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
        let limit = shown.unwrap_or_else(|| view.limit.unwrap_or(200));
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
mod tests;
