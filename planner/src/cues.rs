//! Cue words of a clause: which request verbs it uses (read, search, download, upload),
//! whether it points at this session's uploads, and the plain-word phrasings of simple
//! commands ("查看进程", "who am I"). Each is a yes/no (or a command) about the words only.

use super::lexicon::lexicon;
use super::slots::{extension, known_extension, typed_file_names};
use super::task::Task;
use super::text::{ascii_words, contains_any, has_word};

/// Natural-language phrasing of a whitelisted command ("查看进程", "当前目录", "who am I"),
/// from the `[[natural]]` entries of `commands.toml`.
pub(super) fn natural_command(text: &str) -> Option<Task> {
    let lower = text.to_lowercase();
    let cue = lexicon()
        .natural_commands
        .iter()
        .find(|c| c.words.occur_in(&lower))?;
    let (command, args) = cue.argv.split_first()?;
    Some(Task::Exec {
        command: command.clone(),
        args: args.to_vec(),
    })
}

pub fn wants_download(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    if contains_any(&lower, &["给你", "传给你", "send you"]) {
        return false;
    }
    // "几个副本" counts a deployment's replicas; "要一个副本" asks for a copy.
    let replicas = contains_any(&lower, &["几个副本", "多少副本", "多少个副本", "副本数"]);
    (lower.contains("副本") && !replicas)
        || contains_any(
            &lower,
            &[
                "下载",
                "发给我",
                "发我",
                "传给我",
                "发送给我",
                "给我发",
                "发一份",
                "导出",
                "拷贝到本地",
                "传过来",
                "发过来",
                "拿一份",
                "要一份",
                "send me",
                "send it",
                "send over",
                "copy of",
                "to my machine",
                "download",
                "send the",
                "send this",
                "send that",
            ],
        )
        || (has_word(&words, "send") && has_word(&words, "me"))
        || ((has_word(&words, "fetch") || has_word(&words, "grab") || has_word(&words, "export"))
            && !contains_any(&lower, &["search", "find"]))
}

pub(super) fn upload_howto(text: &str) -> bool {
    let lower = text.to_lowercase();
    let past = contains_any(
        &lower,
        &[
            "上传的",
            "上传过",
            "上传了",
            "已上传",
            "刚上传",
            "之前上传",
            "传的",
            "传过",
            "uploaded",
            "my uploads",
            "my upload",
            "上传记录",
            "did i upload",
            "have i upload",
            "what i upload",
            "i've uploaded",
        ],
    );
    if past {
        return false;
    }
    contains_any(
        &lower,
        &[
            "上传",
            "分享",
            "传到服务器",
            "传输文件到",
            "传上去",
            "传文件",
            "文件怎么传",
            "给你发",
            "发给你",
            "要给你",
            "给你文件",
            "传给你",
            "发你",
            "给你传",
            "upload",
            "share",
            "send you",
            "to the server",
        ],
    ) && !wants_download(&lower)
}

pub(super) fn refers_to_uploads(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let file_word = contains_any(
        &lower,
        &[
            "文件", "文档", "日志", "那个", "这个", "这份", "这些", "这两", "这俩",
        ],
    ) || has_word(&words, "file")
        || has_word(&words, "files");
    contains_any(
        &lower,
        &[
            "上传的",
            "上传过",
            "上传了",
            "已上传",
            "刚上传",
            "刚传",
            "我传的",
            "传过的",
            "发过来的",
            "给你的文件",
            "uploaded",
            "my uploads",
            "my upload",
            "上传记录",
            "会话里",
            "did i upload",
            "have i upload",
            "did i send",
            "what i upload",
            "本会话的文件",
            "会话中的文件",
        ],
    ) || has_word(&words, "uploads")
        || (file_word
            && (contains_any(
                &lower,
                &[
                    "这个文件",
                    "这份文件",
                    "这些文件",
                    "这两个",
                    "这俩",
                    "那个文件",
                    "刚刚",
                    "刚才",
                ],
            ) || ((has_word(&words, "this") || has_word(&words, "these"))
                && (has_word(&words, "file") || has_word(&words, "files")))))
}

/// "show my uploads", "列出上传的文件", "which files did I upload": a list, not contents.
pub(super) fn listing_request(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let w = |x: &str| has_word(&words, x);
    let about_content = contains_any(
        &lower,
        &[
            "内容", "写了", "分析", "总结", "content", "analy", "summar", "inside", "端口", "port",
        ],
    );
    !about_content
        && (contains_any(
            &lower,
            &[
                "列出",
                "列一下",
                "哪些",
                "什么文件",
                "清单",
                "列表",
                "which files",
                "what files",
                "show my",
                "show me my",
                "show the upload",
                "show what i",
            ],
        ) || w("list"))
}

pub fn content_question(text: &str) -> bool {
    let lower = text.to_lowercase();
    contains_any(
        &lower,
        &[
            "是什么",
            "什么内容",
            "内容",
            "讲什么",
            "讲了",
            "写了",
            "分析",
            "总结",
            "多少",
            "哪些错误",
            "报错",
            "错误",
            "端口",
            "对比",
            "比较",
            "区别",
            "解读",
            "看看",
            "读",
            "打开",
            "what is",
            "what's",
            "what does",
            "analy",
            "summar",
            "content",
            "error",
            "port",
            "compare",
            "read",
            "open",
            "show",
            "explain",
        ],
    )
}

pub fn read_verb(text: &str) -> bool {
    let lower = text.to_lowercase();
    contains_any(
        &lower,
        &[
            "看看",
            "看下",
            "看一下",
            "查看",
            "读",
            "分析",
            "打开",
            "内容",
            "总结",
            "解读",
            "写了",
            "讲了",
            "讲什么",
            "里有",
            "里的",
            "中的",
            "里面",
            "多少",
            "有哪些",
            "是什么",
            "显示",
            "过一遍",
            "统计",
            "写的啥",
            "检查",
            "read",
            "analy",
            "open",
            "show",
            "what's in",
            "whats in",
            "contents",
            "summar",
            "what does",
            "what port",
            "explain",
            "go through",
            "look at",
            "check",
            "count",
            "inside",
            "in ",
        ],
    )
}

pub(super) fn search_verb(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    contains_any(
        &lower,
        &[
            "搜索",
            "搜一下",
            "搜搜",
            "查找",
            "检索",
            "找一下",
            "找找",
            "寻找",
            "帮我找",
            "有没有",
            "哪里",
            "在哪",
            "哪个文件",
            "资料",
            "文档",
            "search",
            "look up",
            "where is",
            "where are",
            "which file",
            "locate",
            "documentation",
            "docs",
        ],
    ) || has_word(&words, "find")
        || lower.starts_with('找')
}

/// The question's own words: typed file names of the kinds operators upload
/// (`settings.json`, not `spring.redis.timeout`) and paths (`/etc/app_x`) blanked.
fn question_words(text: &str) -> String {
    let mut t = text.to_string();
    for name in typed_file_names(text)
        .iter()
        .filter(|n| known_extension(&extension(n)))
    {
        t = t.replace(name.as_str(), " ");
    }
    t.split_whitespace()
        .filter(|w| !w.contains('/'))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Limit words in a lower-cased question (`limit_question`).
fn says_limit(lower: &str) -> bool {
    let words = ascii_words(lower);
    contains_any(
        lower,
        &["限制", "上限", "限额", "配额", "最多能", "最多可以", "允许"],
    ) || (lower.contains("最多") && contains_any(lower, &["多少", "多大", "多久", "多长", "几"]))
        || ["limit", "limits", "limited", "capped", "quota", "allowed"]
            .iter()
            .any(|w| has_word(&words, w))
}

/// A question asking for a value or a fact (`多少`, `哪个`, `吗`; what, which, how, is ...),
/// not a request to do something.
pub fn value_question(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    // A cause ("为什么 worker 起不来") or a how-to ("how do I reload nginx") is no value.
    if contains_any(
        &lower,
        &[
            "为什么",
            "为啥",
            "怎么回事",
            "怎么办",
            "如何",
            "怎么做",
            "how do i",
            "how to",
            "how can i",
            "how should i",
        ],
    ) || has_word(&words, "why")
    {
        return false;
    }
    contains_any(
        &lower,
        &[
            "多少",
            "什么",
            "哪",
            "几",
            "多久",
            "多大",
            "多长",
            "吗",
            "是否",
            "有没有",
            "怎么配",
        ],
    ) || ["what", "whats", "which", "where", "how", "when", "who"]
        .iter()
        .any(|w| has_word(&words, w))
        || (lower.trim_end().ends_with('?')
            && words
                .first()
                .is_some_and(|w| ["is", "are", "does", "do", "can", "will"].contains(&w.as_str())))
}

/// A question about when something happened ("worker 什么时候启动的", "when did nginx last
/// restart"): about the past, not a request to start or restart anything.
pub fn past_event_question(text: &str) -> bool {
    contains_any(
        &text.to_lowercase(),
        &[
            "什么时候",
            "何时",
            "上次",
            "上一次",
            "最近一次",
            "多久前",
            "when did",
            "when was",
            "last time",
            "how long ago",
            "since when",
        ],
    )
}

/// A question about how long or how often ("失败后多久重启", "how often does it retry"):
/// never a request, whatever verb it names.
pub fn quantity_question(text: &str) -> bool {
    contains_any(
        &text.to_lowercase(),
        &[
            "多久",
            "多长时间",
            "几秒",
            "几分钟",
            "几次",
            "多少秒",
            "多少次",
            "how long",
            "how often",
            "how many times",
            "after how",
        ],
    )
}

/// The host's metrics as a clause names them: "rabbitmq 内存" is its memory, "rabbitmq
/// 内存水位线" a setting (`understand::settings::names_a_setting`); "how much memory does
/// X use" asks the live state (`live_state`).
pub const METRIC_WORDS: &[&str] = &[
    "memory", "mem", "ram", "cpu", "disk", "load", "swap", "内存", "磁盘", "负载", "硬盘",
];

/// The machine's live state asked about (`用了多少内存`, "is it running"): the host
/// answers, not a file that configures it.
pub fn live_state(text: &str) -> bool {
    // A status page is a configured thing ("haproxy status page port").
    let lower = text
        .to_lowercase()
        .replace("status page", " ")
        .replace("状态页", " ");
    let words = ascii_words(&lower);
    contains_any(
        &lower,
        &[
            "用了",
            "占用",
            "使用率",
            "使用了",
            "正在",
            "在跑",
            "运行状态",
            "活着",
            "挂了吗",
            "挂没挂",
            "是不是挂了",
            "崩了吗",
            "现在有",
            "现在连",
            "进程",
            "状态",
            "启动的",
            "运行了多久",
            "pid",
        ],
    ) || ([
        "use", "uses", "taking", "take", "takes", "consume", "consumes",
    ]
    .iter()
    .any(|w| has_word(&words, w))
        && METRIC_WORDS.iter().any(|w| has_word(&words, w)))
        || [
            "using",
            "used",
            "usage",
            "running",
            "alive",
            "currently",
            "now",
            "consuming",
            "eating",
            "process",
            "processes",
            "status",
            "started",
            "uptime",
        ]
        .iter()
        .any(|w| has_word(&words, w))
}

/// Words that say the value asked is configured ("进程数配置", "how many worker processes
/// does nginx set"): they outweigh the live-state words next to them.
pub fn says_config(text: &str) -> bool {
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    contains_any(
        &lower,
        &[
            "配置", "设置", "配了", "配的", "设了", "设的", "配成", "设成",
        ],
    ) || ["config", "configured", "set", "sets", "setting", "settings"]
        .iter()
        .any(|w| has_word(&words, w))
}

/// A limit or quota asked for ("最多能用多少内存", "memory limit", "how much CPU is X
/// allowed"): a setting even where its words also name a process or a service question.
pub fn limit_question(text: &str) -> bool {
    says_limit(&question_words(text).to_lowercase())
}

/// A question about a configured value, not the machine's live state or an action: a
/// limit (`limit_question`), a policy, timeout or threshold asked for, a setting word, or
/// a key typed by name (`RestartSec`, `max_connections`, `spring.redis.timeout`). With
/// uploads in the session such a question is answered from the lines of the files that
/// set it ("容器的内存限制" is a container's `limits.memory`, not this host's memory in use).
pub fn setting_question(text: &str) -> bool {
    let text = question_words(text);
    let lower = text.to_lowercase();
    let words = ascii_words(&lower);
    let zh = contains_any(
        &lower,
        &[
            "下限",
            "策略",
            "参数",
            "阈值",
            "配置的",
            "配置成",
            "配置为",
            "配置了",
            "配的",
            "配了",
            "配成",
            "设置的",
            "设置成",
            "设置为",
            "设置了",
            "设的",
            "设了",
            "设成",
            "设为",
            "超时",
            "间隔",
            "级别",
        ],
    );
    let en = [
        "cap",
        "policy",
        "threshold",
        "timeout",
        "timeouts",
        "configured",
        "setting",
        "settings",
        "max",
        "maximum",
        "interval",
        "delay",
        "backoff",
        "period",
        "retries",
    ]
    .iter()
    .any(|w| has_word(&words, w));
    // "memory request" is a container's reservation; "requests" alone is traffic.
    let request = words
        .windows(2)
        .any(|p| matches!(p[0].as_str(), "memory" | "cpu" | "mem") && p[1].starts_with("request"));
    says_limit(&lower) || zh || en || request || text.split_whitespace().any(typed_key)
}

/// A config key typed by name: `snake_case`, `camelCase` / `PascalCase` with an inner
/// capital, or a dotted key of 3+ parts (2 parts unless it reads as a file name).
fn typed_key(word: &str) -> bool {
    let w = word.trim_matches(|c: char| !c.is_ascii_alphanumeric() && c != '_' && c != '.');
    if w.is_empty() || !w.is_ascii() || !w.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return false;
    }
    let snake = w.contains('_') && w.split('_').all(|p| !p.is_empty());
    let camel = w
        .as_bytes()
        .windows(2)
        .any(|p| p[0].is_ascii_lowercase() && p[1].is_ascii_uppercase());
    let parts: Vec<&str> = w.split('.').collect();
    let dotted = parts.len() >= 2
        && parts
            .iter()
            .all(|p| p.chars().any(|c| c.is_ascii_alphabetic()))
        && (parts.len() >= 3 || !known_extension(&extension(w)));
    snake || camel || dotted
}

#[cfg(test)]
mod setting_tests {
    use super::*;

    #[test]
    fn settings_are_asked_by_limit_policy_or_key_not_by_file_names() {
        for q in [
            "订单服务容器的内存限制是多少",
            "worker 的重启策略",
            "how much memory is the api container allowed",
            "RestartSec for the agent",
            "what is max_connections",
            "spring.redis.timeout 多少",
            "redis.conf里 timeout 设的多少",
        ] {
            assert!(setting_question(q), "{q}");
        }
        for q in [
            "settings.json里数据库端口是多少",
            "读取 /etc/debian_version",
            "内存使用率是多少",
            "cat app_config.yaml",
            "磁盘还剩多少",
        ] {
            assert!(!setting_question(q), "{q}");
        }
        assert!(limit_question("这个服务最多能用多少内存"));
        assert!(limit_question("wal 最多保留多大"));
        assert!(!limit_question("哪个进程占内存最多"));
    }

    #[test]
    fn value_questions_and_the_live_state() {
        for q in [
            "worker 多久重启",
            "which port",
            "is anonymous access allowed?",
            "副本数是几",
        ] {
            assert!(value_question(q), "{q}");
        }
        for q in ["restart worker", "把 nginx.conf 下载下来", "is fine."] {
            assert!(!value_question(q), "{q}");
        }
        for q in [
            "redis 用了多少内存",
            "is redis running",
            "what is nginx using now",
        ] {
            assert!(live_state(q), "{q}");
        }
        assert!(!live_state("redis 最多能用多少内存"));
        // A deployment's replicas are counted, not downloaded; a copy is.
        assert!(!wants_download("payments 部署了几个副本"));
        assert!(wants_download("给我一个副本"));
    }
}
