//! Requests to change something (restart a service, end a process, shrink the journal): the
//! planner only proposes a `run_action`; the agent checks it and asks the operator, and the
//! answer says what ran and what was seen, or that nothing ran and why. Rules, in Chinese and
//! English: an imperative verb with a concrete target (a unit-like name, a pid, a journal
//! size or age). Questions about the past ("why did nginx restart") and targets that are not
//! a unit ("restart the server") are left to the other rules (a whole-machine restart stays
//! refused there).

use std::sync::OnceLock;

use llmops_tooldata::{ActionData, ActionState, ProcSort, RunActionArgs, ToolArgs};
use regex::Regex;

use super::text::Lang;
use super::{StepRecord, ToolName};

mod by_name;
use by_name::{kill_imperative, kill_it, kill_named, typed_kill_by_name};

/// What the user wants changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActIntent {
    /// A fully specified action (`systemctl restart nginx`, `kill -TERM 4242`, ...).
    Argv(Vec<String>),
    /// End the process using the most memory or CPU: look first, then propose.
    KillTop {
        sort: ProcSort,
        signal: &'static str,
        /// Among the processes of this name only ("the sleep process using the most memory").
        name: Option<String>,
    },
    /// End the processes whose command line names this: look them up, then propose one
    /// `kill` of every pid found (shown with its command line in the approval).
    KillNamed { name: String, signal: &'static str },
    /// "stop X": look X up first; a service's processes are stopped through their unit,
    /// processes no unit runs are ended (`kill -TERM`), and a name no process runs is
    /// stopped as a unit.
    StopNamed { name: String },
}

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("planner regex literal is valid"))
}

/// Words that look like unit names but are not one.
const NOT_UNITS: &[&str] = &[
    "it",
    "them",
    "those",
    "these",
    "the",
    "a",
    "an",
    "this",
    "that",
    "service",
    "services",
    "server",
    "servers",
    "system",
    "machine",
    "computer",
    "box",
    "host",
    "os",
    "everything",
    "all",
    "process",
    "processes",
    "pid",
    "now",
    "please",
    "again",
    "and",
    "then",
    "up",
    "down",
    "linux",
    "me",
    "my",
    "again",
    "journal",
    "logs",
    "log",
    "is",
    "was",
    "restart",
    "reload",
    "start",
    "stop",
    "kill",
    "to",
    "of",
    "for",
    "on",
    "in",
    "with",
    "k8s",
    "docker-compose",
    "cpu",
    "memory",
    "ram",
    "disk",
];

/// Question forms about the past or the state: never an action.
const QUESTION_CUES: &[&str] = &[
    "为什么",
    "为何",
    "几次",
    "多少次",
    "什么时候",
    "是否",
    "有没有",
    "怎么",
    "如何",
    "状态",
    "why",
    "when ",
    "did ",
    "was ",
    "has ",
    "have ",
    "how ",
    "is ",
    "are ",
    "does ",
    "status",
    "should i",
    "what ",
];

/// The intent of a message, when it asks to change something.
pub fn intent(text: &str) -> Option<ActIntent> {
    let t = text.trim().to_lowercase();
    let t = t.trim_end_matches(['.', '!', '。', '！', '?', '？']).trim();
    if let Some(argv) = typed_command(t) {
        return Some(ActIntent::Argv(argv));
    }
    if let Some(by_name) = typed_kill_by_name(t) {
        return Some(by_name);
    }
    // Cues ending in a space open a question ("is nginx running"); inside a message
    // ("nginx is down, restart it") they are a statement.
    let asks = QUESTION_CUES.iter().any(|q| {
        if q.ends_with(' ') {
            t.starts_with(q)
        } else {
            t.contains(q)
        }
    });
    if asks || crate::lexicon::lexicon().grammar.interrogative.asks(t) {
        return None;
    }
    kill_top(t)
        .or_else(|| kill_pids(t))
        .or_else(|| vacuum(t))
        .or_else(|| unit_verb(t))
        .or_else(|| kill_named(t))
        .or_else(|| kill_imperative(t))
        .or_else(|| kill_it(t))
        .or_else(|| kill_then_why(t))
}

/// "把 bill-sweeper 这个进程干掉，它一直在重复扣款": a first clause that is a whole stop request by
/// name, and the clauses after it saying why.
fn kill_then_why(t: &str) -> Option<ActIntent> {
    let (first, why) = t.split_once([',', '，', ';', '；'])?;
    (!why.trim().is_empty())
        .then(|| kill_named(first.trim()))
        .flatten()
}

/// "都杀掉吧", "kill all of them" after a question about a program's processes ("tape-rewinder
/// 现在有几个进程？"): the stop request is of the processes the last query was of.
pub fn kill_of_the_last(text: &str, last: Option<&crate::frame::LastQuery>) -> Option<ActIntent> {
    let t = text.trim().to_lowercase();
    let t = t.trim_end_matches(['.', '!', '。', '！']).trim();
    if crate::lexicon::lexicon().grammar.interrogative.asks(t) {
        return None;
    }
    let signal = by_name::kill_unnamed(t)?;
    let last = last?;
    if last.query.source != llmops_common::query::Source::Processes {
        return None;
    }
    let name = last.query.filters.iter().find_map(|f| {
        let program = f.field.as_ref().is_some_and(|x| x.as_str() == "program") && !f.negate;
        match &f.value {
            llmops_common::query::Scalar::Text(v) if program => Some(v.clone()),
            _ => None,
        }
    })?;
    Some(ActIntent::KillNamed { name, signal })
}

/// The processes a name lookup found: `(pid, command)`, from a `system_query` step.
pub fn named_processes(step: &StepRecord) -> Vec<(u64, String)> {
    named_processes_with_units(step)
        .into_iter()
        .map(|(pid, command, _)| (pid, command))
        .collect()
}

/// The proposal for "stop X" once X was looked up (`found`: pid, command, unit): the units
/// the processes run in when every one runs in one, else a `kill -TERM` of them all; a name
/// no process runs is stopped as a unit.
pub fn stop_argv(name: &str, found: &[(u64, String, Option<String>)]) -> Vec<String> {
    let mut units: Vec<&str> = found.iter().filter_map(|(_, _, u)| u.as_deref()).collect();
    units.dedup();
    if found.is_empty() || units.len() == found.len() && !units.is_empty() {
        let mut argv = vec!["systemctl".to_string(), "stop".to_string()];
        match units.is_empty() {
            true => argv.push(name.to_string()),
            false => argv.extend(units.iter().map(|u| u.to_string())),
        }
        return argv;
    }
    let mut argv = vec!["kill".to_string(), "-TERM".to_string()];
    argv.extend(found.iter().map(|(pid, _, _)| pid.to_string()));
    argv
}

/// The processes a name lookup found with the unit each runs in (none outside systemd).
pub fn named_processes_with_units(step: &StepRecord) -> Vec<(u64, String, Option<String>)> {
    use llmops_common::query::QueryValue;
    let Some(QueryValue::Rows { rows, .. }) = step.data.as_query().map(|r| &r.value) else {
        return Vec::new();
    };
    rows.iter()
        .filter_map(|row| {
            let get = |n: &str| {
                row.fields
                    .iter()
                    .find(|f| f.name == n)
                    .map(|f| f.value.clone())
            };
            let pid = get("pid")?.parse::<u64>().ok()?;
            let unit = get("unit").filter(|u| !u.is_empty() && u != "-");
            Some((
                pid,
                get("command").unwrap_or_else(|| row.text.clone()),
                unit,
            ))
        })
        .collect()
}

/// The `system_query` arguments that look a process up by the program it runs.
pub fn lookup_args(name: &str) -> ToolArgs {
    programs_args(name, None)
}

/// The processes of a program, the ones using the most of `sort` first.
pub fn top_named_args(name: &str, sort: ProcSort) -> ToolArgs {
    programs_args(name, Some(sort))
}

fn programs_args(name: &str, sort: Option<ProcSort>) -> ToolArgs {
    use llmops_common::query::{
        Field, Filter, FilterOp, Measure, Order, Query, QueryArgs, Scalar, Source,
    };
    let field = sort.map(|s| Field::new(s.column()));
    let query = Query {
        source: Source::Processes,
        measure: Measure::Rows,
        limit: Some(if field.is_some() { 5 } else { 50 }),
        order: Order::Desc,
        field,
        filters: vec![Filter::new(
            Some(Field::new("program")),
            FilterOp::Contains,
            Scalar::Text(name.to_string()),
        )],
        ..Query::default()
    };
    ToolArgs::SystemQuery(QueryArgs {
        query,
        soft: Vec::new(),
        or_else: Vec::new(),
        share_of: None,
    })
}

/// A typed action line: `systemctl restart nginx`, `kill -9 4242`, `journalctl --vacuum-…`.
fn typed_command(t: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let mutating = match words.as_slice() {
        ["systemctl", verb, _, ..] => {
            matches!(
                *verb,
                "restart" | "reload" | "start" | "stop" | "reset-failed"
            )
        }
        ["kill", rest @ ..] => {
            !rest.is_empty()
                && rest
                    .iter()
                    .all(|w| w.starts_with('-') || w.bytes().all(|b| b.is_ascii_digit()))
        }
        ["journalctl", opt, ..] => opt.starts_with("--vacuum-"),
        _ => false,
    };
    mutating.then(|| words.iter().map(|w| w.to_string()).collect())
}

fn signal_of(t: &str) -> &'static str {
    if ["-9", "强制", "force", "sigkill"]
        .iter()
        .any(|w| t.contains(w))
    {
        "-KILL"
    } else {
        "-TERM"
    }
}

/// `kill process 4242`, `结束进程 4242`, `terminate pid 4242 and 4243`.
fn kill_pids(t: &str) -> Option<ActIntent> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    let en = re(
        &EN,
        r"^(?:please |can you |could you |pls )?(?:kill|terminate|end|stop)(?: -9)? (?:the )?(?:process(?:es)?|pid|pids)?\s*(?:with pid )?(\d+(?:(?:\s*,\s*|\s+and\s+|\s+)\d+)*)$",
    );
    let zh = re(
        &ZH,
        r"(?:结束|杀掉|杀死|终止|干掉|停掉|kill掉?)(?:一下)?\s*(?:掉)?\s*(?:进程|pid)?\s*(?:号)?\s*(\d+(?:(?:\s*[,，、和]\s*|\s+)\d+)*)\s*(?:号)?\s*(?:进程)?(?:吧|一下)?$",
    );
    let caps = en.captures(t).or_else(|| zh.captures(t))?;
    let pids: Vec<String> = caps[1]
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    if pids.is_empty() {
        return None;
    }
    let mut argv = vec!["kill".to_string(), signal_of(t).to_string()];
    argv.extend(pids);
    Some(ActIntent::Argv(argv))
}

/// "stop the process eating memory", "结束占用内存最多的进程".
fn kill_top(t: &str) -> Option<ActIntent> {
    let verb = [
        "kill",
        "stop",
        "end",
        "terminate",
        "结束",
        "杀掉",
        "杀死",
        "终止",
        "干掉",
        "停掉",
    ]
    .iter()
    .any(|v| t.contains(v));
    let process = t.contains("process") || t.contains("进程");
    if !verb || !process {
        return None;
    }
    const MEMORY: [&str; 4] = ["memory", "ram", "mem", "rss"];
    const TOP: [&str; 15] = [
        "eating", "using", "hogging", "most", "top", "biggest", "heaviest", "largest", "highest",
        "最多", "最大", "最高", "占用", "吃", "more",
    ];
    // Whole words: "ram" is no part of "program".
    let words: Vec<&str> = t.split(|c: char| !c.is_ascii_alphanumeric()).collect();
    let memory = t.contains("内存") || MEMORY.iter().any(|w| words.contains(w));
    let cpu = words.contains(&"cpu");
    let top = TOP.iter().any(|w| t.contains(w));
    if !top || memory == cpu {
        return None;
    }
    let sort = if memory {
        ProcSort::Memory
    } else {
        ProcSort::Cpu
    };
    let picking: Vec<&str> = MEMORY.iter().chain(&TOP).chain(&["cpu"]).copied().collect();
    Some(ActIntent::KillTop {
        sort,
        signal: signal_of(t),
        name: by_name::named_among_the_top(t, &picking),
    })
}

/// "clean journal logs down to 500M", "把 journal 日志清理到 1G", "删除 7 天前的系统日志".
fn vacuum(t: &str) -> Option<ActIntent> {
    let journal = t.contains("journal") || t.contains("系统日志");
    let verb = [
        "clean", "vacuum", "shrink", "trim", "reduce", "清理", "清除", "压缩", "缩减", "删除",
    ]
    .iter()
    .any(|v| t.contains(v));
    if !journal || !verb {
        return None;
    }
    static SIZE: OnceLock<Regex> = OnceLock::new();
    static AGE: OnceLock<Regex> = OnceLock::new();
    let size = re(&SIZE, r"(?:to|到|至|保留)\s*(\d{1,9})\s*(k|m|g)(?:b|ib)?\b");
    let age = re(
        &AGE,
        r"(\d{1,6})\s*(days?|天|weeks?|周|months?|个月|hours?|小时)",
    );
    if let Some(c) = size.captures(t) {
        let arg = format!("--vacuum-size={}{}", &c[1], c[2].to_uppercase());
        return Some(ActIntent::Argv(vec!["journalctl".into(), arg]));
    }
    let c = age.captures(t)?;
    let unit = match &c[2] {
        u if u.starts_with("day") || u == "天" => "d",
        u if u.starts_with("week") || u == "周" => "weeks",
        u if u.starts_with("month") || u == "个月" => "months",
        _ => "h",
    };
    let arg = format!("--vacuum-time={}{unit}", &c[1]);
    Some(ActIntent::Argv(vec!["journalctl".into(), arg]))
}

/// "restart nginx", "重启 nginx 服务", "nginx 挂了，重启一下", "reload php-fpm": the verb with
/// the unit right after it (or the unit, a complaint, then the verb), the whole clause.
fn unit_verb(t: &str) -> Option<ActIntent> {
    const U: &str = r"([a-z0-9][a-z0-9@._:-]*)";
    static PATS: OnceLock<Vec<Regex>> = OnceLock::new();
    let pats = PATS.get_or_init(|| {
        [
            format!(r"(?:^|[,;]\s*|then |and )(?:please |pls |can you |could you |just )?(restart|reload|start|stop|reset-failed) (?:the )?(?:service )?{U}(?: service)?(?:(?: and |, ?| ){U}(?: service)?)?(?: now| please| for me)?$"),
            format!(r"^{U}(?: service)? (?:is down|is dead|is stuck|crashed|died|is not responding|hangs|is hanging)[,;]? (?:please |pls |so )?(restart|reload|start|stop)(?: it)?(?: please| now)?$"),
            format!(r"(?:^|[,，;；]\s*)(?:请|帮我|麻烦|帮忙|你)?\s*(重新启动|重新加载|重启|重载|启动|停止|停掉|关掉)(?:一下|下)?\s*(?:服务)?\s*{U}(?:\s*服务)?(?:\s*(?:和|、|,|，|与)\s*{U}(?:\s*服务)?)?\s*(?:吧|吗|呢)?$"),
            format!(r"^(?:把\s*)?{U}\s*(?:服务)?\s*(?:挂了|挂掉了|down了|宕了|有问题|不响应了|卡住了|卡死了)?\s*[,，]?\s*(?:请|帮我|麻烦)?\s*(重新启动|重新加载|重启|重载|启动|停止|停掉|关掉)(?:一下|下)?\s*(?:吧|它)?$"),
        ]
        .iter()
        .map(|p| Regex::new(p).expect("planner regex literal is valid"))
        .collect()
    });
    let verb_of = |w: &str| -> Option<&'static str> {
        Some(match w {
            "restart" | "重启" | "重新启动" => "restart",
            "reload" | "重载" | "重新加载" => "reload",
            "start" | "启动" => "start",
            "stop" | "停止" | "停掉" | "关掉" => "stop",
            "reset-failed" => "reset-failed",
            _ => return None,
        })
    };
    for (i, p) in pats.iter().enumerate() {
        let Some(c) = p.captures(t) else { continue };
        let groups: Vec<&str> = c.iter().skip(1).flatten().map(|m| m.as_str()).collect();
        // Pattern 0 and 2: verb first; 1 and 3: unit first.
        let (verb, units) = if i % 2 == 0 {
            (groups.first().copied(), groups[1..].to_vec())
        } else {
            (groups.last().copied(), groups[..groups.len() - 1].to_vec())
        };
        let Some(verb) = verb.and_then(verb_of) else {
            continue;
        };
        let units: Vec<String> = units
            .into_iter()
            .map(|u| u.trim_end_matches(['.', ':']).to_string())
            .collect();
        let real = |u: &String| {
            !NOT_UNITS.contains(&u.as_str()) && u.bytes().any(|b| b.is_ascii_alphabetic())
        };
        if units.is_empty() || !units.iter().all(real) {
            continue;
        }
        if let ([unit], "stop") = (units.as_slice(), verb) {
            if !unit.contains('.') {
                return Some(ActIntent::StopNamed { name: unit.clone() });
            }
        }
        let mut argv = vec!["systemctl".to_string(), verb.to_string()];
        argv.extend(units);
        return Some(ActIntent::Argv(argv));
    }
    None
}

/// The `run_action` arguments for an argv.
pub fn call_args(argv: &[String], reason: &str) -> ToolArgs {
    ToolArgs::RunAction(RunActionArgs::argv(argv.to_vec(), reason))
}

/// The pid and name of the top process from a `sys_monitor` processes step.
pub fn top_process(step: &StepRecord) -> Option<(u64, String)> {
    let p = step.data.as_processes()?.processes.first()?;
    Some((u64::from(p.pid), p.name.clone()))
}

/// The answer from a `run_action` step: per stage, what ran (exact argv, exit code, what
/// verification saw) or that it did not run and why.
pub fn answer(steps: &[StepRecord], lang: Lang) -> String {
    let mut parts = Vec::new();
    let acted = steps.iter().any(|s| s.tool == ToolName::RunAction);
    for s in steps {
        if s.tool == ToolName::SystemQuery {
            let found = named_processes(s);
            // "stop X" with no process of X goes on to stop the unit X.
            if found.is_empty() && acted {
                continue;
            }
            if found.is_empty() {
                parts.push(
                    lang.pick(
                        "没有进程在运行这个名字的程序，什么都没有执行。",
                        "No process runs a program of that name; nothing was run.",
                    )
                    .to_string(),
                );
            } else {
                let list: Vec<String> = found.iter().map(|(p, c)| format!("{p} `{c}`")).collect();
                parts.push(match lang {
                    Lang::Zh => format!("匹配的进程（{} 个）：{}。", found.len(), list.join("；")),
                    Lang::En => {
                        format!("Matching processes ({}): {}.", found.len(), list.join("; "))
                    }
                });
            }
            continue;
        }
        if s.tool != ToolName::RunAction {
            if let Some((pid, name)) = top_process(s) {
                parts.push(match lang {
                    Lang::Zh => format!("占用最多的进程是 {name} (PID {pid})。"),
                    Lang::En => format!("The top process is {name} (PID {pid})."),
                });
            }
            continue;
        }
        let Some(actions) = s.data.as_actions().map(|a| &a.actions) else {
            let why = s.error.clone().unwrap_or_else(|| s.output.clone());
            parts.push(match lang {
                Lang::Zh => format!("操作未执行: {why}"),
                Lang::En => format!("The action did not run: {why}"),
            });
            continue;
        };
        for a in actions {
            parts.push(stage_line(a, lang));
        }
    }
    parts.join("\n")
}

fn stage_line(a: &ActionData, lang: Lang) -> String {
    let cmd = a.argv.join(" ");
    let detail = a.detail.as_deref().unwrap_or("");
    let seen = a.verification.as_ref().map(|v| v.detail.as_str());
    match (a.state, lang) {
        (ActionState::Ran, _) => {
            let code = match (a.exit_code, a.timed_out) {
                (_, true) => lang
                    .pick("超时被终止", "timed out and was stopped")
                    .to_string(),
                (Some(c), _) => format!("{} {c}", lang.pick("退出码", "exit code")),
                (None, _) => lang.pick("被信号终止", "ended by a signal").to_string(),
            };
            let mut line = match lang {
                Lang::Zh => format!("已执行 `{cmd}`，{code}。"),
                Lang::En => format!("Ran `{cmd}`: {code}."),
            };
            if let Some(v) = seen {
                line.push_str(&format!(" {}{v}", lang.pick("验证: ", "Verification: ")));
            }
            let out = a.output.trim();
            if !out.is_empty() && a.exit_code != Some(0) {
                line.push_str(&format!("\n```\n{out}\n```"));
            }
            line
        }
        (ActionState::Denied, Lang::Zh) => {
            format!("`{cmd}` 被禁止规则拒绝，无法审批，未执行: {detail}")
        }
        (ActionState::Denied, Lang::En) => {
            format!("`{cmd}` is refused by a deny rule and cannot be approved; not run: {detail}")
        }
        (_, Lang::Zh) => format!("`{cmd}` 未执行: {detail}"),
        (_, Lang::En) => format!("`{cmd}` was not run: {detail}"),
    }
}

#[cfg(test)]
#[path = "act_tests.rs"]
mod tests;
