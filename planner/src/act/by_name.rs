//! A process named in a request to stop it: the request in words ("kill the
//! report-cruncher process", "thumbnailer 卡住了，干掉它") or a typed `pkill NAME`, read as
//! the name to look up and the signal to send.

use super::{signal_of, ActIntent, NOT_UNITS};

/// `pkill thumbnailer`, `pkill -9 -f report.py`: the processes are looked up by name (as
/// `pkill` matches, a part of the name) and the pids found are proposed, as for the same
/// request in words; the approval shows each pid with its command line, which `pkill`
/// itself never does. `killall` matches whole names only, which this lookup cannot say,
/// so it stays refused.
pub(super) fn typed_kill_by_name(t: &str) -> Option<ActIntent> {
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

/// "can you kill off the stuck gearbox-indexer", "stop ledger-sync, it's eating memory": an
/// English stop verb opening the request (after polite words) with one identifier-shaped
/// name (`-`, `_` or `.` in it, trailing punctuation cut) as its object; the words after
/// the name say why, not what.
pub(super) fn kill_imperative(t: &str) -> Option<ActIntent> {
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

/// Words that stand for the processes a stop request is about, padded with spaces as a
/// message is matched; plural ones first, so "它们" is not read as "它" and a stray "们".
const PRONOUNS: [&str; 12] = [
    " them ", " those ", " these ", "它们", "这些", "那些", " it ", " this ", " that ", "它",
    "这个", "那个",
];

/// "hull-scan is pegging a core, kill it", "thumbnailer 卡住了，干掉它", "ledger-rollup 占了太多
/// 内存，帮我 kill 掉": a last clause of one stop verb, filler and a pronoun (Chinese may drop
/// the pronoun: the object is what the sentence opened with) after a clause that names one
/// process (`named_in`).
pub(super) fn kill_it(t: &str) -> Option<ActIntent> {
    let (before, last) = t.rsplit_once([',', '，', ';', '；', '—', ':', '：'])?;
    let lower = format!(" {} ", last.to_lowercase());
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
/// in ("thumbnailer is stuck again"). A resource ("cpu", "memory") or a word that opens a
/// clause without naming anything ("that's enough, stop it") names none.
fn named_in(clause: &str) -> Option<&str> {
    const NOT_A_NAME: [&str; 24] = [
        "cpu",
        "mem",
        "memory",
        "ram",
        "io",
        "disk",
        "swap",
        "oom",
        "load",
        "rss",
        "gc",
        "it",
        "that",
        "there",
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
    let shaped: Vec<&str> = words
        .iter()
        .copied()
        .filter(|w| identifier_shaped(w))
        .collect();
    if !shaped.is_empty() {
        return only(shaped);
    }
    let plain = |w: &&str| {
        w.len() >= 2
            && w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.bytes().all(|b| b.is_ascii_alphanumeric())
            && !NOT_A_NAME.contains(w)
    };
    if clause.chars().any(crate::text::is_cjk) {
        return only(
            clause
                .split(|c: char| !c.is_ascii_alphanumeric())
                .filter(plain)
                .collect(),
        );
    }
    let subject: Vec<&str> = words
        .iter()
        .copied()
        .skip_while(|w| matches!(*w, "the" | "my" | "our" | "that" | "this" | "and" | "so"))
        .take(2)
        .collect();
    match subject.as_slice() {
        [name, verb] if STATE_VERBS.contains(verb) && plain(name) => Some(name),
        [name, ..] => name.strip_suffix("'s").filter(plain),
        _ => None,
    }
}

/// "kill the sleep process using the most memory", "把内存最大的 sleep 进程杀掉": the name said
/// right before the word for a process, or after "named"/"called", that is no word of the
/// request itself (`picking`: the resource and the words that pick the top one).
pub(super) fn named_among_the_top(t: &str, picking: &[&str]) -> Option<String> {
    let stop = &crate::lexicon::lexicon().grammar.stop.en;
    // Words of ASCII, with the Chinese word for a process as one of them.
    const PROCESS: &str = "\u{1}";
    let marked = t.replace("进程", &format!(" {PROCESS} "));
    let words: Vec<&str> = marked
        .split(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '\u{1}')))
        .map(|w| w.trim_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    let name_like = |w: &&str| {
        w.len() >= 2
            && w.starts_with(|c: char| c.is_ascii_alphabetic())
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
            && !stop.iter().any(|s| s == w)
            && !picking.contains(w)
            && !NOT_UNITS.contains(w)
    };
    let names: Vec<&str> = words
        .windows(2)
        .filter_map(|pair| match pair {
            [name, "process" | "processes" | PROCESS] => Some(*name),
            ["named" | "called", name] => Some(*name),
            _ => None,
        })
        .filter(name_like)
        .collect();
    only(names).map(str::to_string)
}

/// The one name of `names` (repeats counted once), if there is one.
fn only(mut names: Vec<&str>) -> Option<&str> {
    names.dedup();
    match names.as_slice() {
        [name] => Some(*name),
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

/// "都杀掉吧", "kill all of them", "kill it" as a message of its own: one stop verb and
/// filler or a pronoun, naming nothing; its signal. The caller takes the name from the
/// conversation (the processes the last query was of).
pub(super) fn kill_unnamed(t: &str) -> Option<&'static str> {
    let padded = format!(" {t} ");
    // The request names its object: a pronoun or "all" ("stop" alone, "结束了" say nothing
    // of which); a sentence ending in 了 without 把 says it has ended.
    const ALL: [&str; 7] = [" all ", " every ", " each ", "全部", "全都", "所有", "都"];
    let object = PRONOUNS.iter().chain(&ALL).any(|o| padded.contains(o));
    let statement = t.ends_with('了') && !t.contains('把');
    let bare = PRONOUNS
        .iter()
        .chain(&ALL)
        .fold(padded, |l, p| l.replace(p, " "));
    let (verbs, rest) = without_kill_words(&bare);
    (object && !statement && verbs == 1 && rest.trim().is_empty()).then(|| signal_of(t))
}

pub(super) fn kill_named(t: &str) -> Option<ActIntent> {
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
