//! Questions about what the session's uploaded configs set, told apart from the host's
//! live state and from requests: "worker 服务失败后多久重启" with `worker.service`
//! uploaded asks for its `RestartSec=`, not for a restart (a refusal), the capabilities
//! text ("启动命令是什么") or `pwd` ("探针检查哪个路径").

use super::{incident_task, search_in, MessageCtx, Task, Then};
use crate::cues::{
    limit_question, live_state, past_event_question, read_verb, says_config, value_question,
    wants_download,
};
use crate::incident::log_question;
use crate::slots::{best_upload, config_upload, matching_uploads, name_score, typed_file_names};
use crate::text::{ascii_words, contains_any, has_word};

/// Lowest `slots::name_score` that counts as naming a file: a stem or a distinctive part
/// of it, not only the kind of file.
const NAMED: u32 = 75;

/// Words that point at a config the operator gave ("the config I sent", "配置里").
fn points_at_sent_config(lower: &str) -> bool {
    let words = ascii_words(lower);
    contains_any(
        lower,
        &[
            "配置里",
            "配置中",
            "配置文件里",
            "配置文件中",
            "i sent",
            "i gave",
            "i shared",
        ],
    ) || (["config", "configs", "configuration"]
        .iter()
        .any(|w| has_word(&words, w))
        && ["in", "from", "per", "according"]
            .iter()
            .any(|w| has_word(&words, w)))
}

/// A question whose answer is a line of an uploaded config: the session holds one, the
/// clause asks for a value (not the live state, a log's numbers or a download) and names
/// a config upload or points at "the config I sent". A file typed by its full name or
/// attached to the message is read instead.
pub(super) fn about_config(clause: &str, ctx: &MessageCtx) -> bool {
    let lower = clause.to_lowercase();
    // "according to the config I sent": the file, whatever else the words say; so do
    // words that say the value is configured ("进程数配置").
    let pointed = points_at_sent_config(&lower);
    if ctx.uploads.is_empty()
        || !ctx.referenced.is_empty()
        || !(value_question(clause) || (says_config(clause) && !asks_for_the_file(clause)))
        || (live_state(clause) && !pointed && !says_config(clause))
        || past_event_question(clause)
        || wants_download(clause)
        || log_question(clause)
        || !typed_file_names(clause).is_empty()
    {
        return false;
    }
    let named = matching_uploads(clause, ctx.uploads)
        .first()
        .is_some_and(|u| {
            config_upload(u) && !crate::frame::is_log_upload(u) && name_score(clause, u) >= NAMED
        });
    named || (pointed && ctx.uploads.iter().any(config_upload))
}

/// A search of this session's uploads only, then the configs among its hits read and
/// asked: the files that set a value asked about, and the value (`lookup`).
pub(super) fn uploads_search(clause: &str) -> Task {
    let mut task = search_in(clause, "uploads");
    if let Task::Search { then, .. } = &mut task {
        *then = Then::Lookup;
    }
    task
}

/// The tasks for a limit ("最多能用多少内存", "memory limit") or a config question
/// (`about_config`) while the session holds uploads: the uploads' search, and for a port
/// asked about ("mosquitto 监听哪个端口") the live listeners as well, since the config
/// says what should listen and `ss` what does. `None` for any other clause.
pub(super) fn config_tasks(clause: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    // A limit ("最多重试多少次") is a setting only when the session holds a config to read
    // it from; over logs alone "最多的客户端是谁，几次" is a count.
    let configs = ctx.uploads.iter().any(config_upload);
    if configs && limit_question(clause) && !wants_download(clause) {
        return Some(vec![uploads_search(clause)]);
    }
    if !about_config(clause, ctx) {
        return None;
    }
    let listeners = incident_task(clause, false)
        .filter(|t| matches!(t, Task::Exec { command, .. } if command == "ss"));
    Some(
        std::iter::once(uploads_search(clause))
            .chain(listeners)
            .collect(),
    )
}

/// Verbs of a request for a file itself ("give me the exporter config"): the download
/// guess stands.
const REQUEST_VERBS: &[&str] = &[
    "give", "send", "get", "fetch", "grab", "want", "need", "copy", "share", "upload",
];

/// A request verb among lower-cased `words`.
fn request_verb(words: &[String]) -> bool {
    REQUEST_VERBS.iter().any(|v| has_word(words, v))
}

/// A request to read or get the file itself ("查看 nginx 配置", "give me the exporter
/// config"), not a value in it.
fn asks_for_the_file(clause: &str) -> bool {
    read_verb(clause) || request_verb(&ascii_words(&clause.to_lowercase()))
}

/// Words that name a file or its kind, not something set in it (3+ letters; shorter
/// words never count).
const FILE_WORDS: &[&str] = &[
    "the",
    "please",
    "file",
    "files",
    "config",
    "configs",
    "configuration",
    "conf",
    "unit",
    "manifest",
    "yaml",
    "yml",
    "settings",
    "uploads",
    "for",
    "this",
    "that",
];

/// A clause that, besides naming a config upload (and any of `extra`), names something
/// else the file may set (`nofile` in "nofile for exporter"): with no request word
/// (`wants_download`, `upload_howto`), the classifier's download or upload guess is a
/// setting asked tersely; so is a metric word with more ("rabbitmq vm memory high
/// watermark"). "give me the exporter config" is a request (`REQUEST_VERBS`), "exporter
/// config file" names nothing else; the live state (`live_state`) is never a setting.
pub(super) fn names_a_setting(clause: &str, ctx: &MessageCtx, extra: &[&str]) -> bool {
    let lower = clause.to_lowercase();
    let words = ascii_words(&lower);
    if live_state(clause) || lower.contains('传') || request_verb(&words) {
        return false;
    }
    let Some(u) = best_upload(clause, ctx.uploads).filter(|u| config_upload(u)) else {
        // No file named: any config upload, when the clause is a key in English words
        // ("kafka bootstrap servers") and says nothing of uploading; never for a metric
        // (`extra`), where "the memory and cpu of the machine" is the host's.
        return ctx.uploads.iter().any(config_upload)
            && extra.is_empty()
            && leftover_words(&lower, &[], false) >= 2;
    };
    let name = u.filename.to_lowercase();
    let stem = crate::command_line::stem(&name);
    // Its name's words, extension included (`exporter`, `service`).
    let parts: Vec<&str> = name
        .split(['-', '_', '.'])
        .chain([stem, name.as_str()])
        .chain(extra.iter().copied())
        .collect();
    // Chinese words only beside a metric: "再发一次 nginx.conf" asks for the file again,
    // "rabbitmq 内存水位线" for a setting.
    leftover_words(&lower, &parts, !extra.is_empty()) >= 1
}

/// Content words (3+ letters) of a lower-cased clause outside `names` and `FILE_WORDS`;
/// with `cjk`, a run of 2+ Chinese characters counts as one.
fn leftover_words(lower: &str, names: &[&str], cjk: bool) -> usize {
    let mut n = ascii_words(lower)
        .iter()
        .filter(|w| w.len() >= 3 && !names.contains(&w.as_str()))
        .filter(|w| !FILE_WORDS.contains(&w.as_str()))
        .count();
    if cjk {
        let runs: String = lower
            .chars()
            .map(|c| if crate::text::is_cjk(c) { c } else { ' ' })
            .collect();
        n += runs
            .split_whitespace()
            .filter(|r| r.chars().count() >= 2 && !names.contains(r))
            .count();
    }
    n
}
