//! Follow-ups resolved against the conversation state: ordinals ("第二个", "the last one")
//! pick from the last list, "continue"/"剩下的" pages on from where a read stopped, and "the
//! same for WARN" / "内存呢" / "what about disk" repeat the last question for another target.

use std::sync::OnceLock;

use regex::Regex;

use super::conversation::{Conversation, FileRef, ListItem, ListKind, ListShown, Topic};
use super::ctx::MessageCtx;
use super::cues::{content_question, read_verb, wants_download};
use super::incident::{is_log_name, log_question, ProcSort};
use super::slots::{best_upload, monitor_mention, typed_file_names, typed_paths};
use super::task::Task;
use super::text::{ascii_words, contains_any, has_word, Lang};

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("follow-up regex literal is valid"))
}

/// Which entry of a list a message points at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ordinal {
    /// 1-based position.
    Nth(usize),
    Last,
}

pub(crate) fn zh_number(s: &str) -> Option<usize> {
    if let Ok(n) = s.parse::<usize>() {
        return Some(n);
    }
    let digit = |c: char| "零一二三四五六七八九".chars().position(|d| d == c);
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        ['两'] => Some(2),
        ['十'] => Some(10),
        [c] => digit(*c),
        ['十', u] => Some(10 + digit(*u)?),
        [t, '十'] => Some(10 * digit(*t)?),
        [t, '十', u] => Some(10 * digit(*t)? + digit(*u)?),
        _ => None,
    }
}

/// "over a second", "took one second", "1 second": the text before "second" makes it a
/// duration, not the second entry.
fn a_duration(before: &str) -> bool {
    let last_word = before.trim_end().rsplit(' ').next().unwrap_or("");
    matches!(
        last_word,
        "a" | "one" | "half" | "per" | "than" | "over" | "under"
    ) || (!last_word.is_empty() && last_word.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// "第二个", "第 3 条", "最后一个", "the second one", "the last file", "#2", "number 2".
pub fn ordinal(text: &str) -> Option<Ordinal> {
    static NUM: OnceLock<Regex> = OnceLock::new();
    let lower = text.to_lowercase();
    // "最后一条日志" is the log's last event, not the last entry of a list.
    let of_a_log = contains_any(&lower, &["日志", "记录", "报错", "log line", "log entry"]);
    if !of_a_log
        && contains_any(
            &lower,
            &[
                "最后一个",
                "最后那个",
                "最后一条",
                "最后一项",
                "最后那条",
                "倒数第一",
            ],
        )
    {
        return Some(Ordinal::Last);
    }
    if let Some(o) = zh_ordinal(&lower) {
        return Some(o);
    }
    if let Some(o) = en_ordinal(&lower) {
        return o;
    }
    let num = re(&NUM, r"(?:#|\bnumber\s+|\bno\.\s*|编号\s*)([0-9]{1,2})\b");
    num.captures(&lower)
        .and_then(|c| c.get(1)?.as_str().parse().ok())
        .filter(|n| *n > 0)
        .map(Ordinal::Nth)
}

/// "第二个", "第 3 条" (not "第 3 行", a line number).
fn zh_ordinal(lower: &str) -> Option<Ordinal> {
    static ZH: OnceLock<Regex> = OnceLock::new();
    let zh = re(
        &ZH,
        r"第\s*([0-9]{1,2}|[一二三四五六七八九十两]{1,3})\s*(个|条|项|份|位|篇|张|名|只)?",
    );
    if let Some(c) = zh.captures(lower) {
        // "第 3 行" is a line number, not a list entry.
        let after = lower[c.get(0).map_or(0, |m| m.end())..].chars().next();
        let unit = c.get(2).is_some();
        if unit
            || !matches!(
                after,
                Some('行' | '页' | '列' | '天' | '步' | '章' | '节' | '次')
            )
        {
            if let Some(n) = c.get(1).and_then(|m| zh_number(m.as_str())) {
                return (n > 0).then_some(Ordinal::Nth(n));
            }
        }
    }
    None
}

/// "the second one", "last file", "3rd": `Some(answer)` once the English form decided
/// (`Some(None)`: "a second" is a duration, a bare "top" the command), `None` when absent.
fn en_ordinal(lower: &str) -> Option<Option<Ordinal>> {
    static EN: OnceLock<Regex> = OnceLock::new();
    let en = re(
        &EN,
        r"\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|top|1st|2nd|3rd|[4-9]th|10th)\b(?:\s+(?:one|file|result|hit|item|match|entry|upload|log|process|link|path)s?\b|\s*$|\s+(?:to|please|on|in|from)\b|\s*[?.!])",
    );
    if let Some(c) = en.captures(lower) {
        let w = c.get(1).map_or("", |m| m.as_str());
        if w == "second" && a_duration(&lower[..c.get(1).map_or(0, |m| m.start())]) {
            return Some(None);
        }
        // "top" is an entry only as "the top one/result/hit" (else it is the command).
        let whole = c.get(0).map_or("", |m| m.as_str());
        if w == "top"
            && !["one", "result", "hit", "match", "file"]
                .iter()
                .any(|n| whole.contains(n))
        {
            return Some(None);
        }
        let n = match w {
            "last" => return Some(Some(Ordinal::Last)),
            "first" | "top" | "1st" => 1,
            "second" | "2nd" => 2,
            "third" | "3rd" => 3,
            "fourth" => 4,
            "fifth" => 5,
            "sixth" => 6,
            "seventh" => 7,
            "eighth" => 8,
            "ninth" => 9,
            "tenth" | "10th" => 10,
            other => match other.trim_end_matches("th").parse() {
                Ok(n) => n,
                Err(_) => return Some(None),
            },
        };
        return Some(Some(Ordinal::Nth(n)));
    }
    None
}

fn pick(list: &ListShown, o: Ordinal) -> Option<&ListItem> {
    match o {
        Ordinal::Last => list.items.last(),
        Ordinal::Nth(n) => list.items.get(n - 1),
    }
}

/// "continue", "继续", "剩下的", "the rest", "next page".
fn continue_words(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let w = |x: &str| has_word(&words, x);
    contains_any(
        &lower,
        &[
            "继续",
            "剩下",
            "剩余",
            "后面的",
            "后面部分",
            "接着看",
            "接着读",
            "下一页",
            "往下",
            "余下",
            "后面还有",
            "还有吗",
            "后续",
            "其余",
        ],
    ) || w("continue")
        || w("rest")
        || w("remaining")
        || (w("next") && (w("lines") || w("page") || w("part")))
        || [
            "more",
            "show more",
            "more please",
            "read more",
            "more lines",
            "some more",
        ]
        .contains(&lower.trim_matches(|c: char| !c.is_alphanumeric()))
        || contains_any(
            &lower,
            &[
                "next page",
                "keep going",
                "keep reading",
                "go on",
                "more lines",
            ],
        )
}

/// A file the message points at with a pronoun ("它", "that file", "this log").
pub fn pronoun(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    contains_any(
        &lower,
        &[
            "它",
            "这个文件",
            "那个文件",
            "该文件",
            "这份",
            "那份",
            "这个日志",
            "那个日志",
            "这个配置",
            "那个配置",
        ],
    ) || has_word(&words, "it")
        || ["that", "this", "the"].iter().any(|d| {
            ["file", "log", "config", "document", "doc"]
                .iter()
                .any(|n| lower.contains(&format!("{d} {n}")))
        })
}

/// The file the conversation is about: the last file read/analysed/offered, else the only
/// file of the last list, else the best hit of the last search.
pub fn conversation_file(conv: &Conversation) -> Option<String> {
    if let Some(f) = &conv.last_file {
        return Some(f.path.clone());
    }
    let list = conv.last_list.as_ref()?;
    match (&list.kind, list.items.as_slice()) {
        (ListKind::Processes { .. }, _) => None,
        (_, [only]) => only.path.clone(),
        (ListKind::SearchHits { .. }, [best, ..]) => best.path.clone(),
        _ => None,
    }
}

/// The log the conversation is about, if its last file is one.
pub fn conversation_log(conv: &Conversation) -> Option<&FileRef> {
    conv.last_file
        .as_ref()
        .filter(|f| is_log_name(&f.path) || f.analysed)
}

fn names_something(text: &str) -> bool {
    !typed_file_names(text).is_empty() || typed_paths(text).iter().any(|p| p.starts_with('/'))
}

fn read_task(path: String, question: &str) -> Task {
    Task::Read {
        path,
        question: question.to_string(),
    }
}

/// "继续" after a partial read: the next page (a log is analysed whole instead, since a page
/// of counts would be a partial figure).
fn continue_task(text: &str, ctx: &MessageCtx) -> Option<Task> {
    // "剩余内存", "search the rest api docs": other questions that share a word.
    let other = monitor_mention(&text.to_lowercase()).any()
        || contains_any(&text.to_lowercase(), &["搜索", "查找", "search", "find "]);
    if !continue_words(text) || other || names_something(text) || text.chars().count() > 40 {
        return None;
    }
    let conv = ctx.conv;
    if let Some(r) = conv.last_read.as_ref() {
        let newer_file = conv.last_file.as_ref().is_some_and(|f| f.path != r.path);
        if !newer_file {
            if is_log_name(&r.path) {
                return Some(Task::Analyse {
                    path: r.path.clone(),
                    question: text.to_string(),
                    note: None,
                });
            }
            if r.remaining() > 0 {
                return Some(Task::ReadPage {
                    path: r.path.clone(),
                    offset: r.next_offset(),
                });
            }
            let name = r.path.rsplit('/').next().unwrap_or(&r.path).to_string();
            return Some(Task::Reply(match ctx.lang {
                Lang::Zh => format!(
                    "{name} 已经读完了（共 {} 行），没有剩下的内容。",
                    r.total_lines
                ),
                Lang::En => format!(
                    "{name} has been read to the end ({} lines); nothing is left.",
                    r.total_lines
                ),
            }));
        }
    }
    let f = conversation_log(conv).filter(|f| f.analysed)?;
    let note = f.total_lines.map(|n| match ctx.lang {
        Lang::Zh => format!("上次的分析已覆盖 {} 的全部 {n} 行，没有剩下未分析的行；以下是整个文件的结果。", f.name()),
        Lang::En => format!("The last analysis already covered all {n} lines of {}; nothing was left out. Here is the whole-file result again.", f.name()),
    });
    Some(Task::Analyse {
        path: f.path.clone(),
        question: text.to_string(),
        note,
    })
}

/// "第二个" / "the last one": an entry of the last list; the words decide what to do with it.
fn ordinal_task(text: &str, ctx: &MessageCtx) -> Option<Task> {
    let o = ordinal(text)?;
    // "第一个报错是什么时候": the first error of a log, not an entry of a list; "第二慢的请求"
    // with no list shown a position in a ranking ("第二大的那个" after a list of uploads
    // is still the listed one).
    let position = ctx.conv.last_list.is_none() && crate::frame::rank::ranked(text).1.is_some();
    if position || names_something(text) || level_of(text) || log_question(text) {
        return None;
    }
    if let Some(reply) = beyond_the_last_answers_items(o, ctx) {
        return Some(reply);
    }
    let Some(list) = ctx.conv.last_list.as_ref() else {
        // "when did rabbit first hit the memory alarm": an ordinal inside a question of its
        // own is that question's; only a bare pick ("the second one") needs a list.
        // A figure in it ("第一个 504 是什么时候") is what the question is about too.
        let figure = text
            .split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() >= 2);
        if text.trim().chars().count() > 16 || figure {
            return None;
        }
        return Some(Task::Reply(
            ctx.lang
                .pick(
                    "前面没有列出可以按序号选择的内容。可以先让我列出上传的文件（“我上传了哪些文件”）或搜索文档，再说“第几个”。",
                    "There is no earlier list to pick from. Ask me to list your uploads or search the docs first, then say which one.",
                )
                .to_string(),
        ));
    };
    let Some(item) = pick(list, o) else {
        let n = list.items.len();
        return Some(Task::Reply(match ctx.lang {
            Lang::Zh => format!("上一次的列表只有 {n} 项，请换一个序号。"),
            Lang::En => format!("The last list has only {n} entries; pick another number."),
        }));
    };
    if let ListKind::Processes { sort, .. } = &list.kind {
        return Some(Task::Processes {
            sort: *sort,
            name: Some(item.name.clone()),
            limit: None,
        });
    }
    let path = item.path.clone()?;
    if wants_download(text) {
        return Some(Task::Download { path });
    }
    Some(read_task(path, text))
}

/// "and the second one?" after an answer that listed one item, or none (nothing matched):
/// says so, naming what it listed, instead of looking for the words or reading the file.
/// `None` when the position is there (the frame's edit picks it) or the last answer was no
/// query's.
fn beyond_the_last_answers_items(o: Ordinal, ctx: &MessageCtx) -> Option<Task> {
    let last = ctx.conv.last_query.as_ref()?;
    let n = last.items.len();
    let Ordinal::Nth(k) = o else { return None };
    let just_asked = ctx.conv.last_topic == Some(Topic::Query);
    if k <= n || ctx.conv.last_list.is_some() || (n == 0 && !just_asked) {
        return None;
    }
    if n == 0 {
        return Some(Task::Reply(
            ctx.lang
                .pick(
                    "上一个回答没有列出任何项（没有匹配的事件），没有可选的第几项。",
                    "The last answer listed nothing (no event matched), so there is no item to pick.",
                )
                .to_string(),
        ));
    }
    let names: Vec<String> = last
        .items
        .iter()
        .map(|item| {
            let values: Vec<&str> = item.iter().map(|(_, v)| v.as_str()).collect();
            values.join(" / ")
        })
        .collect();
    let names = names.join(", ");
    Some(Task::Reply(match ctx.lang {
        Lang::Zh => format!("上一个回答只列出了 {n} 项（{names}），没有第 {k} 项。"),
        Lang::En => {
            format!("The last answer listed only {n} (**{names}**); there is no number {k}.")
        }
    }))
}

/// The target of "the same for X", "X 呢", "再看看 X", "what about X".
pub fn repeat_target(text: &str) -> Option<String> {
    static EN: OnceLock<Regex> = OnceLock::new();
    static ZH: OnceLock<Regex> = OnceLock::new();
    static ZH2: OnceLock<Regex> = OnceLock::new();
    let t = text
        .trim()
        .trim_end_matches(['?', '.', '!', ' ', '？', '！', '。']);
    let en = re(
        &EN,
        r"(?i)^(?:ok[, ]+|and\s+)?(?:(?:now\s+)?(?:do\s+)?(?:the\s+)?same\s+(?:thing\s+)?(?:for|with)|what\s+about|how\s+about|and\s+(?:for|now|by)|now\s+for|also\s+for|same\s+question\s+for|check|now\s+check|by|sorted\s+by|and)\s+(?:the\s+)?(.{1,40})$",
    );
    let zh = re(
        &ZH,
        r"^(?:那|那么|那么再|好的?[,，]?\s*)?(?:再看看|再看一下|再看下|再查查|再查一下|再查下|换成|也看看|也查一下|同样看看|同样查一下|同样地?看看)\s*(.{1,20})$",
    );
    let zh2 = re(
        &ZH2,
        r"^(?:那|那么|好的?[,，]?\s*)?(.{1,16}?)\s*(?:呢|也一样|也是吗|也看看|也查一下|同样)$",
    );
    for r in [zh, zh2, en] {
        if let Some(c) = r.captures(t) {
            let x = c.get(1)?.as_str().trim().to_string();
            if !x.is_empty() {
                return Some(x);
            }
        }
    }
    None
}

const FILLER: &[&str] = &[
    "的",
    "呢",
    "级别",
    "日志",
    "行",
    "条",
    "情况",
    "使用率",
    "占用",
    "用量",
    "怎么样",
    "如何",
    "lines",
    "line",
    "level",
    "logs",
    "the",
    "usage",
    "use",
    "used",
    "ones",
    "too",
    "then",
    "now",
];
const LEVEL_WORDS: &[&str] = &[
    "warnings", "warning", "warn", "errors", "error", "info", "debug", "fatal", "critical", "告警",
    "警告", "错误", "报错", "调试",
];
const METRIC_WORDS: &[&str] = &[
    "memory",
    "mem",
    "ram",
    "swap",
    "cpu",
    "processor",
    "load",
    "disks",
    "disk",
    "storage",
    "space",
    "内存",
    "处理器",
    "负载",
    "磁盘",
    "硬盘",
    "存储",
    "空间",
];

/// The target is only `vocab` words and filler ("WARN 的", "内存使用率"): a bare
/// follow-up, not a new question that happens to end in "呢".
fn only_vocabulary(target: &str, vocab: &[&str]) -> bool {
    let mut t = format!(" {} ", target.to_lowercase());
    for w in vocab.iter().chain(FILLER) {
        t = if w.is_ascii() {
            t.split(|c: char| !c.is_ascii_alphanumeric() && !super::text::is_cjk(c))
                .filter(|x| x != w)
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            t.replace(w, " ")
        };
    }
    !t.chars().any(char::is_alphanumeric)
}

fn level_of(target: &str) -> bool {
    let lower = target.to_lowercase();
    let words = ascii_words(&lower);
    [
        "warn", "warning", "warnings", "error", "errors", "info", "debug", "fatal", "critical",
    ]
    .iter()
    .any(|w| has_word(&words, w))
        || contains_any(&lower, &["告警", "警告", "错误", "报错", "调试"])
}

/// "the same for WARN", "内存呢", "再看看 CPU", "what about nginx.log".
fn repeat_task(text: &str, ctx: &MessageCtx) -> Option<Task> {
    let target = repeat_target(text)?;
    let conv = ctx.conv;
    let last = conv.last_user.as_deref()?;
    if level_of(&target) && only_vocabulary(&target, LEVEL_WORDS) {
        let log = conversation_log(conv)?;
        return Some(Task::Analyse {
            path: log.path.clone(),
            question: text.to_string(),
            note: None,
        });
    }
    let m = monitor_mention(&target.to_lowercase());
    if (m.cpu || m.memory || m.disk) && only_vocabulary(&target, METRIC_WORDS) {
        if let Some(ListShown {
            kind: ListKind::Processes { .. },
            ..
        }) = conv
            .last_list
            .as_ref()
            .filter(|_| conv.last_topic_is_processes())
        {
            if !m.disk {
                let sort = if m.memory {
                    ProcSort::Memory
                } else {
                    ProcSort::Cpu
                };
                return Some(Task::Processes {
                    sort,
                    name: None,
                    limit: None,
                });
            }
        }
        return Some(Task::Monitor { metric: m.metric() });
    }
    // "redis 呢" after "is nginx running": the same process question for another name.
    if let Some(ListShown {
        kind: ListKind::Processes {
            sort,
            name: Some(_),
        },
        ..
    }) = conv
        .last_list
        .as_ref()
        .filter(|_| conv.last_topic_is_processes())
    {
        let name_like = target.len() >= 2
            && target.len() <= 40
            && target
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.@".contains(c));
        if name_like {
            return Some(Task::Processes {
                sort: *sort,
                name: Some(target),
                limit: None,
            });
        }
    }
    // Another file: the same question about it.
    let file = best_upload(&target, ctx.uploads)
        .map(|u| u.path.to_string_lossy().into_owned())
        .or_else(|| {
            typed_paths(&target)
                .into_iter()
                .find(|p| p.starts_with('/') && p.len() > 1)
        });
    if let Some(path) = file {
        if conv.last_file.is_some() {
            return Some(read_task(path, last));
        }
    }
    None
}

/// The conversation's file when the last step showed a file or a list of files (not after
/// a process table or a metric: "它" then means something else).
fn pronoun_file(conv: &Conversation) -> Option<String> {
    match conv.last_topic {
        Some(Topic::File) | Some(Topic::List) => conversation_file(conv),
        _ => None,
    }
}

/// A clause that points at "the file" with a pronoun and nothing attached: send or read the
/// conversation's file.
pub fn pronoun_task(clause: &str, ctx: &MessageCtx) -> Option<Task> {
    if !ctx.referenced.is_empty() || names_something(clause) || !pronoun(clause) {
        return None;
    }
    let path = pronoun_file(ctx.conv)?;
    if wants_download(clause) {
        return Some(Task::Download { path });
    }
    let asks = read_verb(clause)
        || content_question(clause)
        || log_question(clause)
        || contains_any(
            &clause.to_lowercase(),
            &[
                "多少行",
                "几行",
                "how many lines",
                "端口",
                "port",
                "listen",
                "监听",
            ],
        );
    asks.then(|| read_task(path, clause))
}

/// "再看看", "再查一次", "again", "refresh": the previous question once more.
pub fn asks_again(text: &str) -> bool {
    let t: String = text
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .collect();
    let t = t.trim();
    [
        "再看看",
        "再看一下",
        "再看下",
        "再查一下",
        "再查查",
        "再查一次",
        "再来一次",
        "再试一次",
        "再试试",
        "刷新",
        "刷新一下",
        "重新查一下",
        "重新看一下",
        "again",
        "once more",
        "refresh",
        "try again",
        "check again",
        "do it again",
        "one more time",
        "same again",
    ]
    .contains(&t)
}

/// Resolves a follow-up against the conversation; `None` when the message stands alone.
/// Whole-message repeats ("再看看") are handled by the caller, which re-reads the previous
/// question.
pub fn resolve(text: &str, ctx: &MessageCtx) -> Option<Task> {
    if ordinal(text).is_some() {
        if let Some(t) = ordinal_task(text, ctx) {
            return Some(t);
        }
    }
    if ctx.conv.turns == 0 {
        return None;
    }
    continue_task(text, ctx).or_else(|| repeat_task(text, ctx))
}

#[cfg(test)]
#[path = "follow_tests.rs"]
mod tests;
