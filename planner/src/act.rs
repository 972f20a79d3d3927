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

/// What the user wants changed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActIntent {
    /// A fully specified action (`systemctl restart nginx`, `kill -TERM 4242`, ...).
    Argv(Vec<String>),
    /// End the process using the most memory or CPU: look first, then propose.
    KillTop {
        sort: ProcSort,
        signal: &'static str,
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
}

/// "can you kill off the stuck gearbox-indexer", "stop ledger-sync, it's eating memory": an
/// English stop verb opening the request (after polite words) with one identifier-shaped
/// name (`-`, `_` or `.` in it, trailing punctuation cut) as its object; the words after
/// the name say why, not what.
fn kill_imperative(t: &str) -> Option<ActIntent> {
    const POLITE: [&str; 11] = [
        "please", "pls", "can", "could", "would", "you", "just", "go", "ahead", "and", "now",
    ];
    let clause = t.split([',', ';', '，', '；', '—']).next()?;
    let words: Vec<&str> = clause.split_whitespace().collect();
    let start = words.iter().position(|w| !POLITE.contains(w))?;
    let rest = words.get(start..)?.join(" ");
    // "end" is a noun as often ("end time of job-42", "end of the api-gw log").
    let verb = KILL_VERBS
        .iter()
        .filter(|v| v.is_ascii() && **v != "end")
        .find(|v| rest.strip_prefix(**v).is_some_and(|r| r.starts_with(' ')))?;
    let after = &rest[verb.len()..];
    // "stop worrying about …": a verb after the stop verb is what stops.
    if after
        .split_whitespace()
        .next()
        .is_some_and(|w| w.ends_with("ing"))
    {
        return None;
    }
    // A file's name is no process's ("stop tailing build.log").
    const FILES: [&str; 8] = [
        ".log", ".txt", ".conf", ".json", ".yaml", ".yml", ".csv", ".gz",
    ];
    // The name is the verb's object: only filler and words for its state stand before it
    // ("kill off the stuck X"; not "stop the alerts for db-1").
    const STATE: [&str; 10] = [
        "off", "stuck", "hung", "hanging", "runaway", "frozen", "broken", "zombie", "old", "that",
    ];
    let words: Vec<&str> = after
        .split_whitespace()
        .map(|w| w.trim_matches(['"', '\'', '`', '(', ')', '.', '!', '?']))
        .collect();
    let first_name = words.iter().position(|w| identifier_shaped(w))?;
    if !words[..first_name]
        .iter()
        .all(|w| KILL_FILLER.contains(w) || STATE.contains(w))
    {
        return None;
    }
    let names: Vec<&str> = words
        .into_iter()
        .filter(|w| !FILES.iter().any(|e| w.ends_with(e)) && identifier_shaped(w))
        .collect();
    let [name] = names.as_slice() else {
        return None;
    };
    Some(ActIntent::KillNamed {
        name: name.to_string(),
        signal: signal_of(t),
    })
}

/// "hull-scan is pegging a core, kill it", "thumbnailer 卡住了，干掉它", "ledger-rollup 占了太多
/// 内存，帮我 kill 掉": a last clause of one stop verb, filler and a pronoun (Chinese may drop
/// the pronoun: the object is what the sentence opened with) after a clause that names one
/// process (`named_in`).
fn kill_it(t: &str) -> Option<ActIntent> {
    let (before, last) = t.rsplit_once([',', '，', ';', '；', '—', ':', '：'])?;
    let lower = format!(" {} ", last.to_lowercase());
    // Plural ones first, so "它们" is not read as "它" and a stray "们".
    const PRONOUNS: [&str; 12] = [
        " them ", " those ", " these ", "它们", "这些", "那些", " it ", " this ", " that ", "它",
        "这个", "那个",
    ];
    let pronoun = PRONOUNS.iter().any(|p| lower.contains(p));
    // Chinese drops the object only in a request ("帮我 kill 掉", "杀掉吧"); "结束了",
    // "终止了" alone say that it has ended.
    const ASKING: [&str; 7] = ["帮我", "请", "麻烦", "给我", "掉", "吧", "一下"];
    let dropped = last.chars().any(crate::text::is_cjk) && ASKING.iter().any(|w| last.contains(w));
    if !pronoun && !dropped {
        return None;
    }
    let bare = PRONOUNS.iter().fold(lower, |l, p| l.replace(p, " "));
    // The clause is a stop verb and filler, nothing else.
    let (verbs, rest) = without_kill_words(&bare);
    if verbs != 1 || !rest.trim().is_empty() {
        return None;
    }
    Some(ActIntent::KillNamed {
        name: named_in(before)?.to_string(),
        signal: signal_of(t),
    })
}

/// The one process a clause before a stop request names: its one identifier-shaped word
/// (`hull-scan`, `etl_worker`, `feed.py`); else, in a Chinese clause, its one plain ASCII
/// word ("thumbnailer 卡住了"); else the subject of an English clause saying what state it is
/// in ("thumbnailer is stuck again"). Words for a resource ("cpu", "memory") name none.
fn named_in(clause: &str) -> Option<&str> {
    const RESOURCES: [&str; 12] = [
        "cpu", "mem", "memory", "ram", "io", "disk", "swap", "oom", "load", "rss", "gc", "it",
    ];
    const STATE_VERBS: [&str; 14] = [
        "is", "was", "has", "had", "keeps", "kept", "seems", "looks", "hangs", "hung", "froze",
        "went", "died", "eats",
    ];
    let words: Vec<&str> = clause
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | '，' | '(' | ')' | '"'))
        .map(|w| {
            w.trim_matches(['\'', '`'])
                .trim_end_matches(['.', '!', '?'])
        })
        .filter(|w| !w.is_empty())
        .collect();
    let mut shaped: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| identifier_shaped(w))
        .collect();
    shaped.dedup();
    if !shaped.is_empty() {
        return match shaped.as_slice() {
            [name] => Some(name),
            _ => None,
        };
    }
    let plain = |w: &&str| {
        w.len() >= 2
            && w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.bytes().all(|b| b.is_ascii_alphanumeric())
            && !RESOURCES.contains(w)
    };
    if clause.chars().any(crate::text::is_cjk) {
        let ascii: Vec<&str> = clause
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(plain)
            .collect();
        return match ascii.as_slice() {
            [name] => Some(name),
            _ => None,
        };
    }
    let subject: Vec<&str> = words
        .iter()
        .copied()
        .skip_while(|w| matches!(*w, "the" | "my" | "our" | "that" | "this" | "and" | "so"))
        .take(2)
        .collect();
    // Words that open a clause without naming anything ("that's enough, stop it").
    const NO_NAME: [&str; 14] = [
        "that",
        "there",
        "it",
        "this",
        "what",
        "here",
        "who",
        "he",
        "she",
        "everything",
        "something",
        "nothing",
        "which",
        "everyone",
    ];
    let named = |w: &&str| plain(w) && !NO_NAME.contains(w);
    match subject.as_slice() {
        [name, verb] if STATE_VERBS.contains(verb) && named(name) => Some(name),
        [name, ..] => name.strip_suffix("'s").filter(named),
        _ => None,
    }
}

/// A process's name shaped like an identifier (`hull-scan`, `etl_worker`, `feed.py`): letters,
/// digits and `-`, `_` or `.`, one of those inside, no leading `-` (a flag).
fn identifier_shaped(w: &str) -> bool {
    w.contains(['-', '_', '.'])
        && !w.starts_with('-')
        && w.bytes().any(|b| b.is_ascii_alphabetic())
        && w.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
}

/// Words that stop a process by name.
const KILL_VERBS: &[&str] = &[
    "send a sigkill to",
    "send a sigterm to",
    "send sigkill to",
    "send sigterm to",
    "shut down",
    "get rid of",
    "take down",
    "kill",
    "nuke",
    "terminate",
    "stop",
    "end",
    "杀掉",
    "杀死",
    "杀了",
    "干掉",
    "结束掉",
    "结束",
    "终止掉",
    "终止",
    "停掉",
    "停止",
    "关掉",
    "kill掉",
];

/// Words around a process name in a kill request that say nothing more about it.
const KILL_FILLER: &[&str] = &[
    "please",
    "pls",
    "can",
    "you",
    "could",
    "just",
    "the",
    "all",
    "every",
    "process",
    "processes",
    "proc",
    "procs",
    "named",
    "called",
    "worker",
    "workers",
    "job",
    "jobs",
    "daemon",
    "daemons",
    "program",
    "programs",
    "instance",
    "instances",
    "now",
    "for",
    "me",
    "of",
    "its",
    "it",
    "-9",
    "-kill",
    "-term",
    "请",
    "帮我",
    "麻烦",
    "帮忙",
    "强制",
    "强行",
    "把",
    "将",
    "这个",
    "那个",
    "这些",
    "那些",
    "进程",
    "程序",
    "任务",
    "实例",
    "给",
    "了",
    "一下",
    "吧",
    "的",
    "全部",
    "所有",
    "都",
    // "kill 掉" with a space: the verb's particle.
    "掉",
];

/// "kill the report-cruncher process", "把 report-cruncher 这个进程杀掉", "ledger-sync 的
/// worker 全部停掉": one stop verb, one name, and nothing but filler words.
/// `t` without its stop verbs and filler words: how many stop verbs it had, and what is
/// left.
fn without_kill_words(t: &str) -> (usize, String) {
    let mut rest = format!(" {t} ");
    let mut verbs = 0;
    // Longest first, so "结束掉" is one verb and not "结束" and a stray "掉".
    let mut words: Vec<(&str, bool)> = KILL_VERBS.iter().map(|w| (*w, true)).collect();
    words.extend(KILL_FILLER.iter().map(|w| (*w, false)));
    words.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
    for (w, verb) in words {
        let cjk = w.chars().any(crate::text::is_cjk);
        let pat = if cjk { w.to_string() } else { format!(" {w} ") };
        let found = rest.matches(pat.as_str()).count();
        if found > 0 {
            verbs += usize::from(verb) * found;
            rest = rest.replace(pat.as_str(), "  ");
        }
    }
    (verbs, rest)
}

fn kill_named(t: &str) -> Option<ActIntent> {
    let (verbs, rest) = without_kill_words(t);
    let names: Vec<&str> = rest.split_whitespace().collect();
    let [name] = names.as_slice() else {
        return None;
    };
    let shaped = name.bytes().all(|b| {
        b.is_ascii_alphanumeric() || matches!(b, b'@' | b'.' | b'_' | b':' | b'/' | b'+' | b'-')
    });
    if verbs != 1 || !shaped {
        return None;
    }
    let name = name.to_string();
    let real = !NOT_UNITS.contains(&name.as_str())
        && name.bytes().any(|b| b.is_ascii_alphabetic())
        && !name.starts_with('-');
    real.then(|| ActIntent::KillNamed {
        name,
        signal: signal_of(t),
    })
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
    use llmops_common::query::{
        Field, Filter, FilterOp, Measure, Query, QueryArgs, Scalar, Source,
    };
    let query = Query {
        source: Source::Processes,
        measure: Measure::Rows,
        limit: Some(50),
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

/// `pkill thumbnailer`, `pkill -9 -f report.py`: the processes are looked up by name (as
/// `pkill` matches, a part of the name) and the pids found are proposed, as for the same
/// request in words; the approval shows each pid with its command line, which `pkill`
/// itself never does. `killall` matches whole names only, which this lookup cannot say,
/// so it stays refused.
fn typed_kill_by_name(t: &str) -> Option<ActIntent> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let ["pkill", rest @ ..] = words.as_slice() else {
        return None;
    };
    let (flags, names): (Vec<&str>, Vec<&str>) = rest.iter().partition(|w| w.starts_with('-'));
    let [name] = names.as_slice() else {
        return None;
    };
    // `-f` widens the match to the command line, as the lookup does; `-x`, `-u`, `-t` and
    // friends narrow it or take a value this form cannot read, so they are left to the
    // whitelist's refusal rather than guessed.
    const KILL: [&str; 3] = ["-9", "-kill", "-sigkill"];
    let known = |f: &&str| KILL.contains(f) || matches!(*f, "-f" | "-term" | "-15" | "-sigterm");
    if !flags.iter().all(known) || !name.bytes().any(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let signal = if flags.iter().any(|f| KILL.contains(f)) {
        "-KILL"
    } else {
        "-TERM"
    };
    Some(ActIntent::KillNamed {
        name: name.to_string(),
        signal,
    })
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
    let memory = ["memory", "ram", "内存"].iter().any(|w| t.contains(w));
    let cpu = t.contains("cpu");
    let top = [
        "eating", "using", "hogging", "most", "top", "biggest", "heaviest", "最多", "最大", "最高",
        "占用", "吃",
    ]
    .iter()
    .any(|w| t.contains(w));
    if !top || memory == cpu {
        return None;
    }
    let sort = if memory {
        ProcSort::Memory
    } else {
        ProcSort::Cpu
    };
    Some(ActIntent::KillTop {
        sort,
        signal: signal_of(t),
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
