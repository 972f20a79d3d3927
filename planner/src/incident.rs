//! Incident questions in plain words: which process eats CPU or memory, is a service
//! running, what is listening, errors in the journal since a time, uptime, how big a
//! directory is, kernel messages, addresses, host and OS. Each rule turns a clause into one
//! read-only task; anything it does not recognise is left to the general rules.

use std::sync::OnceLock;

use regex::Regex;

use super::slots::{typed_file_names, typed_paths};
use super::task::Task;
use super::text::{ascii_words, contains_any, has_word};

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("incident regex literal is valid"))
}

fn exec(command: &str, args: &[&str]) -> Task {
    Task::Exec {
        command: command.to_string(),
        args: args.iter().map(|s| s.to_string()).collect(),
    }
}

pub use super::task::ProcSort;

/// Words that are never a service or process name in "is X running".
const NOT_A_NAME: &[&str] = &[
    "it",
    "this",
    "that",
    "everything",
    "anything",
    "something",
    "server",
    "system",
    "machine",
    "host",
    "box",
    "service",
    "services",
    "process",
    "processes",
    "the",
    "a",
    "an",
    "what",
    "which",
    "who",
    "there",
    "he",
    "she",
    "they",
    "job",
    "app",
    "still",
    // Words before "memory usage" that are no program ("why is memory usage so high").
    "is",
    "are",
    "was",
    "why",
    "how",
    "total",
    "overall",
    "current",
    "high",
    "my",
    "our",
    "your",
];

/// A service or program name as operators type it (`nginx`, `php-fpm`, `redis-server`,
/// `postgresql@14-main`).
fn is_name(w: &str) -> bool {
    let ok = !w.is_empty()
        && w.len() <= 64
        && w.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '@'));
    ok && !NOT_A_NAME.contains(&w.to_ascii_lowercase().as_str())
}

/// "哪个进程占用内存最多", "which process uses the most CPU", "what's eating memory".
fn top_process(lower: &str, words: &[String]) -> Option<ProcSort> {
    let w = |x: &str| has_word(words, x);
    // "日志里哪个进程报错最多" is a question about a log, not about live processes.
    if lower.contains("日志") || w("log") || w("logs") {
        return None;
    }
    let proc_word = contains_any(lower, &["进程", "程序", "服务"])
        || w("process")
        || w("processes")
        || w("procs")
        || w("program")
        || w("programs")
        || w("binary")
        || w("binaries")
        || w("pid");
    let memory =
        contains_any(lower, &["内存", "mem占"]) || w("memory") || w("ram") || w("mem") || w("rss");
    let cpu = lower.contains("cpu") || contains_any(lower, &["处理器", "算力"]);
    let ranking = contains_any(
        lower,
        &[
            "最多", "最高", "最大", "最猛", "最占", "占用", "占了", "吃", "消耗", "耗", "排行",
            "排名", "前几", "前十", "前5", "前 5", "top",
        ],
    ) || w("most")
        || w("highest")
        || w("top")
        || w("eating")
        || w("hogging")
        || w("hog")
        || w("consuming")
        || w("heaviest")
        || w("biggest")
        || w("using")
        || w("uses");
    // "为什么 CPU 这么高", "why is memory so high": the answer is who is using it.
    let why_high = (contains_any(lower, &["为什么", "为啥", "怎么这么", "咋这么"]) || w("why"))
        && (contains_any(lower, &["高", "满", "爆", "飙"])
            || w("high")
            || w("full")
            || w("spiking")
            || w("maxed"));
    let eating = contains_any(lower, &["what's eating", "whats eating", "what is eating"])
        || (why_high && (memory || cpu))
        || (w("eating") && (memory || cpu))
        || contains_any(lower, &["谁在吃", "谁吃", "谁占"]);
    if !((proc_word && ranking) || eating) || !(memory || cpu || proc_word) {
        return None;
    }
    if !memory && !cpu && names_another_process_column(lower) {
        return None;
    }
    if memory && !cpu {
        Some(ProcSort::Memory)
    } else if cpu || proc_word {
        // "top processes" without a resource ranks by CPU, as `top` does.
        Some(if memory {
            ProcSort::Memory
        } else {
            ProcSort::Cpu
        })
    } else {
        None
    }
}

/// A ranking by another column of the processes table ("the most threads", "running the
/// longest") is the typed query's: the monitor ranks by CPU or memory only.
fn names_another_process_column(lower: &str) -> bool {
    let lex = crate::lexicon::lexicon();
    lex.fields.iter().any(|f| {
        f.words.occur_in(lower)
            && lex.ranked_by_the_table(llmops_common::query::Source::Processes, &f.field)
    })
}

/// "nginx 在运行吗", "is redis running", "mysql 挂了吗": the name asked about.
fn running_name(text: &str, lower: &str) -> Option<String> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    static EN: OnceLock<Regex> = OnceLock::new();
    let zh = re(
        &ZH,
        r"([A-Za-z][A-Za-z0-9_.@\-]*)\s*(?:服务|进程)?\s*(?:现在|目前|还)?\s*(?:在|有没有在|是否在|是不是在|有在)?\s*(?:运行|跑|启动|工作)\s*(?:着)?\s*(?:吗|么|没|没有|呢)|([A-Za-z][A-Za-z0-9_.@\-]*)\s*(?:服务|进程)?\s*(?:是不是|是否)?\s*(?:挂了|宕了|停了|死了|还活着|活着)",
    );
    let en = re(
        &EN,
        r"(?i)\b(?:is|are)\s+(?:the\s+)?([A-Za-z][A-Za-z0-9_.@\-]*)\s+(?:service\s+|process\s+|daemon\s+)?(?:still\s+)?(?:running|up|alive|down|dead|started|working)\b|\b(?:check\s+if|whether)\s+([A-Za-z][A-Za-z0-9_.@\-]*)\s+(?:is\s+)?(?:running|up|alive)\b",
    );
    let caps = if text.chars().any(super::text::is_cjk) {
        zh.captures(text)
    } else {
        en.captures(lower)
    }?;
    let name = caps.get(1).or(caps.get(2))?.as_str().to_ascii_lowercase();
    is_name(&name).then_some(name)
}

/// "redis 用了多少内存", "how much memory is nginx using": the named
/// processes by that resource, not the host's total (which says nothing of redis).
fn usage_name(lower: &str) -> Option<(String, ProcSort)> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    static EN: OnceLock<Regex> = OnceLock::new();
    let zh = re(
        &ZH,
        r"([a-z][a-z0-9_.@\-]*)\s*(?:的)?\s*(?:服务|进程)?\s*(?:现在|目前|当前)?\s*(?:用了|占了|占用了?|吃了|使用了?)\s*(?:多少|多大)?\s*(内存|cpu)",
    );
    let en = re(
        &EN,
        r"\bhow\s+much\s+(memory|ram|cpu)\s+(?:is|does|do|are)\s+(?:the\s+)?([a-z][a-z0-9_.@\-]*)(?:\s+(?:service|process|processes|daemon))?\s+(?:use|using|take|taking|consume|consuming|eat|eating)\b",
    );
    // Not "X memory usage": "check memory usage" names no program.
    let (name, res) = if let Some(c) = zh.captures(lower) {
        (c.get(1)?.as_str(), c.get(2)?.as_str())
    } else {
        let c = en.captures(lower)?;
        (c.get(2)?.as_str(), c.get(1)?.as_str())
    };
    let sort = if res == "cpu" {
        ProcSort::Cpu
    } else {
        ProcSort::Memory
    };
    is_name(name).then(|| (name.to_string(), sort))
}

/// "nginx 服务状态", "status of the redis service", "systemd 里 nginx 怎么样".
fn service_status_name(lower: &str) -> Option<String> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    static EN: OnceLock<Regex> = OnceLock::new();
    let zh = re(
        &ZH,
        r"([a-z][a-z0-9_.@\-]*)\s*(?:的)?\s*服务\s*(?:的)?\s*(?:状态|情况)",
    );
    let en = re(
        &EN,
        r"\bstatus\s+of\s+(?:the\s+)?([a-z][a-z0-9_.@\-]*)(?:\s+(?:service|unit|daemon))?\b|\b([a-z][a-z0-9_.@\-]*)\s+(?:service|unit)\s+status\b",
    );
    // "worker 什么时候启动的", "when did nginx last restart": `systemctl status` says since
    // when it runs.
    static SINCE: OnceLock<Regex> = OnceLock::new();
    let since = re(
        &SINCE,
        r"([a-z][a-z0-9_.@\-]*)\s*(?:的)?\s*(?:服务)?\s*(?:是)?\s*(?:什么时候|何时|上次|上一次)\s*(?:被)?\s*(?:启动|重启|起来|拉起)|\bwhen\s+(?:did|was)\s+(?:the\s+)?([a-z][a-z0-9_.@\-]*)(?:\s+(?:service|unit|daemon))?\s+(?:last\s+)?(?:start|restart|boot|come\s+up)",
    );
    let caps = zh
        .captures(lower)
        .or_else(|| en.captures(lower))
        .or_else(|| since.captures(lower))?;
    let name = caps.get(1).or(caps.get(2))?.as_str().to_string();
    is_name(&name).then_some(name)
}

/// A `--since` value from "since 10:00", "10点以来", "today", "last hour", "最近一小时".
pub fn since_value(text: &str, lower: &str) -> Option<String> {
    static HM: OnceLock<Regex> = OnceLock::new();
    static ZH_HOUR: OnceLock<Regex> = OnceLock::new();
    static AGO: OnceLock<Regex> = OnceLock::new();
    let hm = re(&HM, r"\b(\d{1,2}):(\d{2})(?::(\d{2}))?\b");
    if let Some(c) = hm.captures(text) {
        let h: u32 = c[1].parse().ok()?;
        let m: u32 = c[2].parse().ok()?;
        if h < 24 && m < 60 {
            return Some(format!("{h:02}:{m:02}"));
        }
    }
    let zh_hour = re(&ZH_HOUR, r"(\d{1,2})\s*[点時时]");
    if let Some(c) = zh_hour.captures(text) {
        let mut h: u32 = c[1].parse().ok()?;
        if contains_any(text, &["下午", "晚上"]) && h < 12 {
            h += 12;
        }
        if h < 24 {
            return Some(format!("{h:02}:00"));
        }
    }
    let ago = re(
        &AGO,
        r"(?:last|past)\s+(\d+)\s*(minutes?|mins?|hours?|h|days?)\b|(?:最近|过去)\s*(\d+|一|两|半)\s*(?:个)?\s*(分钟|小时|天)",
    );
    if let Some(c) = ago.captures(lower) {
        let (n, unit) = match (c.get(1), c.get(2), c.get(3), c.get(4)) {
            (Some(n), Some(u), _, _) => (n.as_str().to_string(), u.as_str().to_string()),
            (_, _, Some(n), Some(u)) => (n.as_str().to_string(), u.as_str().to_string()),
            _ => return None,
        };
        let n = match n.as_str() {
            "一" => "1".to_string(),
            "两" => "2".to_string(),
            "半" => return Some("-30min".into()),
            x => x.to_string(),
        };
        let unit = if unit.starts_with('m') || unit == "分钟" {
            "min"
        } else if unit.starts_with('h') || unit == "小时" {
            "h"
        } else {
            "d"
        };
        return Some(format!("-{n}{unit}"));
    }
    let words = ascii_words(lower);
    if has_word(&words, "hour") && contains_any(lower, &["last hour", "past hour"])
        || contains_any(lower, &["最近一小时", "过去一小时", "一小时内"])
    {
        return Some("-1h".into());
    }
    if has_word(&words, "today") || lower.contains("今天") {
        return Some("today".into());
    }
    if has_word(&words, "yesterday") || lower.contains("昨天") {
        return Some("yesterday".into());
    }
    None
}

/// A unit named next to journal words: "nginx 的日志", "journal for redis", "-u sshd".
fn journal_unit(lower: &str) -> Option<String> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"([a-z][a-z0-9_.@\-]*)\s*(?:服务)?\s*的\s*(?:系统)?日志|\b(?:for|of|from)\s+(?:the\s+)?([a-z][a-z0-9_.@\-]*)(?:\s+(?:service|unit))?\b",
    );
    let c = r.captures(lower)?;
    let name = c.get(1).or(c.get(2))?.as_str().to_string();
    let skip = [
        "journal",
        "journald",
        "systemd",
        "kernel",
        "today",
        "yesterday",
        "errors",
        "error",
        "warnings",
        "the",
        "last",
        "past",
    ];
    (is_name(&name) && !skip.contains(&name.as_str())).then_some(name)
}

/// The directory a size question is about ("/var/log 多大", "how big is /var/log").
fn size_question(text: &str, lower: &str, words: &[String]) -> Option<(String, bool)> {
    let w = |x: &str| has_word(words, x);
    let sizey = contains_any(
        lower,
        &[
            "多大",
            "占了多少",
            "占用多少",
            "占多少",
            "大小",
            "多少空间",
            "空间占用",
            "占空间",
            "how big",
            "how large",
            "size of",
            "disk usage of",
            "space used by",
        ],
    ) || (w("size") && w("of"))
        || (w("du") && !w("du-"));
    let biggest = contains_any(
        lower,
        &[
            "哪个目录",
            "哪些目录",
            "最大的",
            "最占",
            "子目录",
            "biggest",
            "largest",
            "which dir",
            "what's taking",
            "whats taking",
        ],
    ) && (sizey || contains_any(lower, &["最大", "biggest", "largest", "taking"]));
    if !sizey && !biggest {
        return None;
    }
    let path = typed_paths(text).into_iter().find(|p| p.starts_with('/'))?;
    Some((path, biggest))
}

/// An incident clause with the forms every rule reads.
struct Clause<'a> {
    text: &'a str,
    lower: String,
    words: Vec<String>,
    /// The clause names a file (or is about the attached ones): words like "port" or
    /// "hostname" are about that file then.
    file_named: bool,
}

impl Clause<'_> {
    fn w(&self, x: &str) -> bool {
        has_word(&self.words, x)
    }
}

type IncidentRule = fn(&Clause) -> Option<Task>;

/// The incident rules in precedence order: the first that claims the clause decides it.
const INCIDENT_RULES: &[IncidentRule] = &[
    // "redis 用了多少内存": the named processes, before "进程 ... CPU" reads as the top list.
    named_usage,
    top_processes,
    service_status,
    named_running,
    // Following a log live: `tail -f` on the named file, `journalctl -f` for the journal.
    follow_live,
    // What is listening / which ports are open (not a port inside a config file).
    listening,
    journal,
    // Questions one fixed command answers, from `commands.toml`.
    fixed_command,
    directory_size,
];

/// The task for an incident question, if the clause is one.
pub fn incident_task(text: &str, file_named: bool) -> Option<Task> {
    let lower = text.to_lowercase();
    let c = Clause {
        text,
        words: ascii_words(&lower),
        lower,
        file_named,
    };
    INCIDENT_RULES.iter().find_map(|rule| rule(&c))
}

fn named_usage(c: &Clause) -> Option<Task> {
    let (name, sort) = usage_name(&c.lower).filter(|_| !c.file_named)?;
    Some(Task::Processes {
        sort,
        name: Some(name),
        limit: None,
    })
}

fn top_processes(c: &Clause) -> Option<Task> {
    let sort = top_process(&c.lower, &c.words).filter(|_| !c.file_named)?;
    Some(Task::Processes {
        sort,
        name: None,
        limit: None,
    })
}

fn service_status(c: &Clause) -> Option<Task> {
    let name = service_status_name(&c.lower).filter(|_| !c.file_named)?;
    Some(exec("systemctl", &["status", &name, "--no-pager"]))
}

fn named_running(c: &Clause) -> Option<Task> {
    let name = running_name(c.text, &c.lower).filter(|_| !c.file_named)?;
    Some(Task::Processes {
        sort: ProcSort::Cpu,
        name: Some(name),
        limit: None,
    })
}

fn follow_live(c: &Clause) -> Option<Task> {
    let follow = contains_any(
        &c.lower,
        &[
            "实时",
            "跟踪",
            "持续查看",
            "盯着",
            "滚动查看",
            "tail -f",
            "in real time",
        ],
    ) || ["live", "follow", "watch", "stream"].iter().any(|x| c.w(x));
    if !follow {
        return None;
    }
    let file = typed_paths(c.text)
        .into_iter()
        .find(|p| p.starts_with('/') && p.len() > 1)
        .or_else(|| typed_file_names(c.text).into_iter().next());
    if let Some(f) = file {
        return Some(exec("tail", &["-n", "20", "-f", &f]));
    }
    if !(c.w("journal") || c.w("journalctl") || c.lower.contains("系统日志")) {
        return None;
    }
    let mut args = vec!["-f".to_string(), "-n".to_string(), "20".to_string()];
    if let Some(unit) = journal_unit(&c.lower) {
        args.extend(["-u".to_string(), unit]);
    }
    Some(Task::Exec {
        command: "journalctl".into(),
        args,
    })
}

fn config_words(c: &Clause) -> bool {
    contains_any(&c.lower, &["配置", "config", "conf"]) || c.file_named
}

fn listening(c: &Clause) -> Option<Task> {
    let lower = &c.lower;
    let zh_ports = contains_any(
        lower,
        &[
            "监听",
            "开放的端口",
            "开放了哪些端口",
            "开了哪些端口",
            "哪些端口",
            "端口占用",
            "占用端口",
            "端口被占",
            "占用了",
        ],
    ) && lower.contains("端口");
    let listening = zh_ports
        || contains_any(lower, &["在监听", "监听哪些", "监听了哪些"])
        || c.w("listening")
        || contains_any(
            lower,
            &["open ports", "which ports", "what ports", "ports are open"],
        )
        || (c.w("port") && contains_any(lower, &["who is using", "what is using", "using port"]));
    (listening && !config_words(c)).then(|| exec("ss", &["-tlnp"]))
}

fn journal(c: &Clause) -> Option<Task> {
    let lower = &c.lower;
    let asked = c.w("journal")
        || c.w("journald")
        || c.w("journalctl")
        || contains_any(lower, &["系统日志", "systemd 日志", "systemd日志"])
        || (journal_unit(lower).is_some() && contains_any(lower, &["的日志", "的系统日志"]));
    if !asked || c.file_named {
        return None;
    }
    let mut args: Vec<String> = Vec::new();
    if let Some(unit) = journal_unit(lower) {
        args.extend(["-u".to_string(), unit]);
    }
    if contains_any(lower, &["错误", "报错", "异常", "失败", "error", "fail"]) || c.w("err")
    {
        args.extend(["-p".to_string(), "err".to_string()]);
    }
    if let Some(since) = since_value(c.text, lower) {
        args.extend(["--since".to_string(), since]);
    }
    args.extend([
        "-n".to_string(),
        "200".to_string(),
        "--no-pager".to_string(),
    ]);
    Some(Task::Exec {
        command: "journalctl".into(),
        args,
    })
}

fn fixed_command(c: &Clause) -> Option<Task> {
    let about_files = config_words(c);
    let cue = super::lexicon::lexicon()
        .commands
        .iter()
        .find(|cmd| !(cmd.not_about_files && about_files) && cmd.words.occur_in(&c.lower))?;
    let (command, args) = cue.argv.split_first()?;
    Some(Task::Exec {
        command: command.clone(),
        args: args.to_vec(),
    })
}

fn directory_size(c: &Clause) -> Option<Task> {
    let (path, biggest) = size_question(c.text, &c.lower, &c.words)?;
    // "how big is /": the root filesystem's size and free space, not a walk of every file.
    if path == "/" && !biggest {
        return Some(exec("df", &["-h", "/"]));
    }
    Some(if biggest {
        exec(
            "du",
            &[
                "-h",
                "--max-depth=1",
                &path,
                "|",
                "sort",
                "-rh",
                "|",
                "head",
                "-n",
                "15",
            ],
        )
    } else {
        exec("du", &["-sh", &path])
    })
}

/// True when a clause asks for numbers about a log (counts, top errors, first error time).
pub fn log_question(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let w = |x: &str| has_word(&words, x);
    let level = w("error")
        || w("errors")
        || w("warn")
        || w("warning")
        || w("warnings")
        || w("fatal")
        || w("exception")
        || w("exceptions")
        || contains_any(&lower, &["错误", "报错", "告警", "警告", "异常"]);
    let stats = contains_any(
        &lower,
        &[
            "多少",
            "几个",
            "几条",
            "几次",
            "统计",
            "最多",
            "最常见",
            "最频繁",
            "哪种",
            "什么时候",
            "何时",
            "开始",
            "第一次",
            "最后一次",
            "分布",
            "趋势",
            "分析",
            "总结",
        ],
    ) || w("how")
        || w("count")
        || w("most")
        || w("common")
        || w("frequent")
        || w("when")
        || w("first")
        || w("last")
        || w("start")
        || w("started")
        || w("begin")
        || w("analyse")
        || w("analyze")
        || w("summarize")
        || w("summarise")
        || w("summary")
        || w("top");
    (level && stats)
        || (contains_any(&lower, &["日志"]) && contains_any(&lower, &["分析", "总结", "统计"]))
        || ((w("log") || w("logs"))
            && (w("analyse") || w("analyze") || w("summarize") || w("summary")))
}

/// True when a path or file name is a log by its name.
pub fn is_log_name(path: &str) -> bool {
    let lower = path.to_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    // Rotated, compressed logs are binary to a text reader.
    if [".gz", ".xz", ".zst", ".bz2", ".zip"]
        .iter()
        .any(|e| name.ends_with(e))
    {
        return false;
    }
    name.ends_with(".log")
        || name.contains(".log.")
        || name.ends_with(".out")
        || name.ends_with(".err")
        || lower.starts_with("/var/log/")
        || ["syslog", "messages", "kern.log", "auth.log", "daemon.log"]
            .iter()
            .any(|n| name == *n || name.starts_with(&format!("{n}.")))
}

/// Whether the clause names any file (a typed name or path).
pub fn names_a_file(text: &str) -> bool {
    !typed_file_names(text).is_empty() || typed_paths(text).iter().any(|p| p.len() > 1)
}

#[cfg(test)]
mod tests;
