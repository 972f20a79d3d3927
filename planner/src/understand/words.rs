//! The words a clause is stripped of before its content terms are read: a download
//! request's verbs, a read request's verbs, the pronouns that point at "the file", and
//! the politeness around a typed command.

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

/// Drops politeness around a request ("cat /etc/hostname please", "请 df -h"), so a
/// command line typed with it still parses as one.
pub(super) fn strip_politeness(text: &str) -> String {
    let mut t = text.trim();
    for _ in 0..2 {
        let lower = t.to_lowercase();
        for p in [
            "please",
            "pls",
            "plz",
            "thanks",
            "thank you",
            "谢谢",
            "请",
            "麻烦",
        ] {
            if lower.ends_with(p) && t.len() > p.len() {
                let cut = t.len() - p.len();
                if t.is_char_boundary(cut) {
                    t = t[..cut].trim_end_matches([' ', ',', '!', '.']);
                }
            }
            if lower.starts_with(p)
                && t.len() > p.len()
                && t.is_char_boundary(p.len())
                && !starts_a_word(t, p)
            {
                t = t[p.len()..].trim_start_matches([' ', ',']);
            }
        }
    }
    t.to_string()
}

/// Whether the polite word at the start of `t` is the start of a longer word: "请问",
/// "请求" are no "please".
fn starts_a_word(t: &str, polite: &str) -> bool {
    let Some(next) = t[polite.len()..].chars().next() else {
        return false;
    };
    crate::text::is_cjk(next)
        && !crate::config::words::dictionary_words(&format!("{polite}{next}")).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_politeness() {
        assert_eq!(
            strip_politeness("cat /etc/hostname please"),
            "cat /etc/hostname"
        );
        assert_eq!(strip_politeness("请 df -h"), "df -h");
        assert_eq!(strip_politeness("please, uptime, thanks"), "uptime");
        assert_eq!(strip_politeness("please"), "please");
        // The start of a word is no politeness.
        assert_eq!(strip_politeness("请问最慢的请求"), "请问最慢的请求");
        assert_eq!(strip_politeness("请求最多的客户端"), "请求最多的客户端");
        assert_eq!(strip_politeness("请帮我看 df"), "帮我看 df");
    }
}
