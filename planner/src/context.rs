//! What a message refers to beyond its own words: the files attached to it, the log the
//! conversation is about, a follow-up that repeats the last question for another level.

use super::ctx::MessageCtx;
use super::slots::{best_upload, typed_file_names, typed_paths};
use super::text::{ascii_words, contains_any, has_word};
use super::UploadRef;

/// Words that point at the files attached to this message ("this", "这个", "analyse").
pub fn about_attachments(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    let words = ascii_words(&lower);
    [
        "this",
        "these",
        "it",
        "attached",
        "attachment",
        "file",
        "files",
        "log",
        "logs",
    ]
    .iter()
    .any(|w| has_word(&words, w))
        || contains_any(
            &lower,
            &[
                "这个",
                "这些",
                "这份",
                "它",
                "附件",
                "该文件",
                "文件",
                "日志",
                "分析",
                "总结",
                "analy",
                "summar",
            ],
        )
}

/// "WARN 呢？", "and warnings?" right after a log analysis: the same question for another
/// level, about the same log.
pub fn level_follow_up(clause: &str, ctx: &MessageCtx) -> bool {
    let lower = clause.to_lowercase();
    let words = ascii_words(&lower);
    let level = [
        "warn", "warning", "warnings", "error", "errors", "info", "debug", "fatal",
    ]
    .iter()
    .any(|w| has_word(&words, w))
        || contains_any(&lower, &["告警", "警告", "错误", "报错"]);
    let after_analysis = super::follow::conversation_log(ctx.conv).is_some_and(|f| f.analysed)
        || ctx
            .history
            .iter()
            .rev()
            .find(|h| h.role == "assistant")
            .is_some_and(|h| h.text.contains("各级别行数") || h.text.contains("Lines by level"));
    level && after_analysis && clause.chars().count() <= 24
}

/// "查找关于错误处理的文档": a request for documents, not for a log's numbers.
pub fn doc_request(clause: &str) -> bool {
    let lower = clause.to_lowercase();
    contains_any(
        &lower,
        &[
            "文档",
            "资料",
            "手册",
            "说明书",
            "documentation",
            "docs",
            "manual",
        ],
    )
}

/// The log a log question is about: the file it names, else the log the conversation was
/// about, else this session's newest log upload.
pub fn log_target(clause: &str, ctx: &MessageCtx) -> Option<String> {
    if let Some(p) = target_path(clause, ctx) {
        return Some(p);
    }
    if let Some(f) = super::follow::conversation_log(ctx.conv) {
        return Some(f.path.clone());
    }
    let is_log = |u: &&UploadRef| super::incident::is_log_name(&u.filename);
    ctx.history
        .iter()
        .rev()
        .take(6)
        .find_map(|h| best_upload(&h.text, ctx.uploads).filter(is_log))
        .or_else(|| ctx.uploads.iter().rev().find(is_log))
        .map(|u| u.path.to_string_lossy().into_owned())
}

/// File a clause points at: typed absolute path, a named upload, or a referenced upload.
pub(super) fn target_path(clause: &str, ctx: &MessageCtx) -> Option<String> {
    // A file attached to this very message beats a fuzzy name match ("这个配置").
    if ctx.referenced.len() == 1 && typed_file_names(clause).is_empty() {
        return ctx
            .referenced
            .first()
            .map(|u| u.path.to_string_lossy().into_owned());
    }
    // A typed absolute path is explicit: it beats any fuzzy upload-name match
    // ("/var/log/syslog" is not the upload "checkout.log").
    if let Some(p) = typed_paths(clause)
        .into_iter()
        .find(|p| p.starts_with('/') && p.len() > 1)
    {
        return Some(p);
    }
    if let Some(u) = best_upload(clause, ctx.uploads) {
        return Some(u.path.to_string_lossy().into_owned());
    }
    if ctx.referenced.len() == 1 && typed_file_names(clause).is_empty() {
        return ctx
            .referenced
            .first()
            .map(|u| u.path.to_string_lossy().into_owned());
    }
    None
}
