//! The words a clause is stripped of before its content terms are read: a download
//! request's verbs, a read request's verbs, and the pronouns that point at "the file".

use crate::slots::search_query;

/// The words of a download request ("发给我", "send me").
const DOWNLOAD_WORDS: &[&str] = &[
    "下载下来",
    "下载",
    "发给我",
    "发我",
    "传给我",
    "发送给我",
    "给我发一份",
    "发我一份",
    "给我一份",
    "给我发",
    "发一份",
    "一份",
    "导出",
    "拷贝到本地",
    "传过来",
    "发过来",
    "能",
    "一下",
    "把",
    "我要",
    "我想要",
    "副本",
    "send me",
    "send over",
    "send",
    "download",
    "a copy of",
    "copy of",
    "give me",
    "fetch",
    "grab",
    "for me",
    "to my machine",
    "export",
    "can i get",
    "i want to",
    "please",
    "over",
];

/// The verbs and nouns of a read request ("查看", "show the contents").
const READ_WORDS: &[&str] = &[
    "查看",
    "看看",
    "看下",
    "看一下",
    "读一下",
    "读取",
    "读",
    "打开",
    "显示",
    "分析",
    "内容",
    "总结",
    "它",
    "里面",
    "show",
    "read",
    "open",
    "it",
    "the",
    "contents",
    "content",
    "display",
    "me",
];

/// Words that point at "the file" ("that file", "这个文件", "它").
const PRONOUNS: &[&str] = &[
    "这个文件",
    "那个文件",
    "该文件",
    "这份文件",
    "这个日志",
    "那个日志",
    "这个",
    "那个",
    "这份",
    "那份",
    "它",
    "that file",
    "this file",
    "the file",
    "that log",
    "this log",
    "that one",
    "this one",
];

/// `text` with each of `words` (in order: longer phrases before their parts) blanked out.
fn blank_out(text: &str, words: &[&str]) -> String {
    words
        .iter()
        .fold(text.to_string(), |t, w| t.replace(w, " "))
}

/// The clause without the words of a download request.
pub(super) fn strip_download_words(text: &str) -> String {
    blank_out(text, DOWNLOAD_WORDS).trim().to_string()
}

/// Words left after removing request verbs: empty for "发给我", "then show it".
pub(super) fn content_terms(clause: &str) -> String {
    search_query(&blank_out(&strip_download_words(clause), READ_WORDS))
        .trim()
        .to_string()
}

/// The clause, lower-cased, without words that point at "the file".
pub(super) fn strip_pronouns(clause: &str) -> String {
    blank_out(&clause.to_lowercase(), PRONOUNS)
}
