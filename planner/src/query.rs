//! Search slots: the key terms of a search request (request verbs and filler dropped,
//! Chinese and English terms paired), how many hits and which scope it asks for.

use std::sync::OnceLock;

use regex::Regex;

use super::text::{ascii_words, contains_any, has_word, is_cjk};

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    // The patterns are literals in this file; a bad one is a programming error caught by tests.
    cell.get_or_init(|| Regex::new(pat).expect("planner regex literal is valid"))
}

/// Chinese request verbs and filler a search drops.
const ZH_FILLER: &[&str] = &[
    "请帮我",
    "帮我",
    "帮忙",
    "麻烦",
    "请",
    "给我",
    "我想要",
    "我想",
    "我要",
    "我需要",
    "需要",
    "文档检索",
    "搜索一下",
    "搜一下",
    "搜索",
    "搜",
    "查找一下",
    "查找",
    "检索一下",
    "检索",
    "找一下",
    "找找",
    "找到",
    "查一查",
    "查一下",
    "查询",
    "有没有",
    "是否有",
    "哪里有",
    "在哪里",
    "在哪儿",
    "在哪",
    "哪里",
    "哪个文件里",
    "哪个文件",
    "关于",
    "相关的",
    "相关",
    "方面的",
    "方面",
    "文档中",
    "文档里",
    "文档",
    "资料",
    "信息",
    "内容",
    "文件",
    "一下",
    "看看",
    "找",
    "什么",
    "的",
    "吗",
    "呢",
    "了",
];

/// English words a search drops: request verbs and function words.
const EN_STOP_Q: &[&str] = &[
    "where",
    "is",
    "are",
    "the",
    "a",
    "an",
    "for",
    "search",
    "find",
    "look",
    "up",
    "about",
    "any",
    "docs",
    "documentation",
    "document",
    "documents",
    "file",
    "files",
    "me",
    "please",
    "set",
    "configured",
    "which",
    "mentions",
    "mention",
    "i",
    "need",
    "info",
    "information",
    "can",
    "read",
    "what",
    "how",
    "to",
    "of",
    "in",
    "on",
    "do",
    "does",
    "there",
    "anything",
    "related",
    "show",
    "locate",
    "get",
    "could",
    "you",
    "my",
    "some",
    "defined",
    "stuff",
    // Function words of a question asked as a sentence ("how long does nginx wait
    // before it gives up"): none of them is in the line that answers, and each
    // lowers the share of the question a config line can cover.
    "it",
    "its",
    "that",
    "this",
    "be",
    "by",
    "with",
    "at",
    "from",
    "and",
    "or",
    "if",
    "than",
    "we",
    "our",
    "they",
    "their",
    "will",
    "would",
    "should",
    "much",
    "many",
    "before",
    "after",
    "has",
    "have",
    "was",
    "were",
    "s",
    "t",
    "re",
    "ve",
    "ll",
];

/// Keeps the key terms of a search request: drops request verbs and filler words.
pub fn search_query(text: &str) -> String {
    let mut t = text.to_string();
    for f in ZH_FILLER {
        t = t.replace(f, " ");
    }
    let cleaned: Vec<String> = t
        .split(|c: char| c.is_whitespace() || ",.;:?!\"'()".contains(c))
        .filter(|w| !w.is_empty())
        .filter(|w| !EN_STOP_Q.contains(&w.to_lowercase().as_str()))
        .map(|w| w.to_string())
        .collect();
    let q = cleaned.join(" ");
    if q.trim().is_empty() {
        text.trim().to_string()
    } else {
        q
    }
}

/// Adds the other language's word for common ops terms so one index serves both
/// ("配置" also finds `config.yaml`, "log" also finds "日志").
pub fn expand_query(q: &str) -> String {
    const PAIRS: &[(&str, &str)] = &[
        ("配置", "config"),
        ("日志", "log"),
        ("数据库", "database"),
        ("部署", "deploy"),
        ("性能", "performance"),
        ("升级", "upgrade"),
        ("端口", "port"),
        ("超时", "timeout"),
        ("错误", "error"),
        ("队列", "queue"),
        ("缓存", "cache"),
        ("证书", "certificate"),
        ("备份", "backup"),
        ("安装", "install"),
        ("网关", "gateway"),
        ("支付", "payment"),
        ("回滚", "rollback"),
        ("监控", "monitor"),
        ("报告", "report"),
        ("手册", "manual"),
    ];
    let lower = q.to_lowercase();
    let words = ascii_words(&lower);
    let mut extra: Vec<&str> = Vec::new();
    for (zh, en) in PAIRS {
        if lower.contains(zh) && !has_word(&words, en) {
            extra.push(en);
        } else if has_word(&words, en) && !lower.contains(zh) && q.chars().any(is_cjk) {
            extra.push(zh);
        }
    }
    if extra.is_empty() {
        q.to_string()
    } else {
        format!("{q} {}", extra.join(" "))
    }
}

/// `top_k` from "前5个结果", "top 5", "5 results"; default 3.
pub fn top_k(text: &str) -> u32 {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)(?:top\s*(\d+)|(\d+)\s*(?:results|hits|个结果|条结果|条)|前\s*(\d+)\s*(?:个|条))",
    );
    r.captures(text)
        .and_then(|c| c.get(1).or(c.get(2)).or(c.get(3)))
        .and_then(|m| m.as_str().parse::<u32>().ok())
        .map(|n| n.clamp(1, 10))
        .unwrap_or(3)
}

/// `scope` from the wording: the user's own files, the product manual, or both.
pub fn search_scope(text: &str) -> &'static str {
    if contains_any(
        text,
        &[
            "上传的",
            "我传的",
            "我的文件",
            "uploaded",
            "my uploads",
            "my files",
        ],
    ) {
        "uploads"
    } else if contains_any(
        text,
        &[
            "系统文档",
            "产品手册",
            "使用手册",
            "帮助文档",
            "system docs",
            "manual of",
        ],
    ) {
        "system"
    } else {
        "all"
    }
}
