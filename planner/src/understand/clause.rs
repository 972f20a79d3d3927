//! One clause's tasks: the clause rules in precedence order ([`CLAUSE_RULES`]: the first
//! that claims the clause decides it), then the classifier's intent for a clause none of
//! them claims ([`by_intent`]).

use super::{
    about_attachments, best_upload, chat_reply, classify, cmd, config_upload, contains_any,
    content_question, content_terms, degenerate, destructive_words, doc_request, download_task,
    explicit_command, incident_task, level_follow_up, line_window, listing_request, log_check,
    log_question, log_target, monitor_mention, names_a_file, natural_command, past_event_question,
    quantity_question, query_task, read_task, read_verb, refers_to_uploads, refusal_text,
    says_config, search_task, search_verb, setting_question, settings, target_path,
    typed_file_names, typed_paths, upload_howto, uploads_search, uploads_task, wants_download,
    Chat, Intent, MessageCtx, Refusal, Task, METRIC_WORDS,
};
use crate::slots::MonitorMention;
use llmops_common::query::Measure;

/// A clause with what several rules look at, computed once.
pub(super) struct Clause<'a> {
    text: &'a str,
    lower: String,
    mention: MonitorMention,
    /// The classifier's intent, when it is confident and not small talk in disguise.
    intent: Option<Intent>,
    /// The clause asks to search ("find", "查一下", "搜索").
    searchy: bool,
}

impl<'a> Clause<'a> {
    fn new(text: &'a str) -> Clause<'a> {
        // A run of one or two characters ("大大大…", "aaaa…") is no sentence: the
        // classifier's n-gram similarity would still pick an intent for it.
        let intent = classify(text)
            .filter(|_| !degenerate(text))
            .filter(|p| p.best_sim >= 0.12)
            .map(|p| p.intent)
            .filter(|i| crate::knowledge::small_talk_cue(*i, text));
        Clause {
            text,
            lower: text.to_lowercase(),
            mention: monitor_mention(text),
            intent,
            searchy: search_verb(text),
        }
    }

    fn small_talk(&self) -> bool {
        matches!(
            self.intent,
            Some(Intent::Greet | Intent::Thanks | Intent::Bye | Intent::Identity | Intent::Danger)
        )
    }
}

/// A clause rule: it claims the clause or passes.
type ClauseRule = fn(&Clause, &MessageCtx) -> Option<Vec<Task>>;

/// The clause rules in precedence order.
const CLAUSE_RULES: &[ClauseRule] = &[
    // A command line typed verbatim (with or without "run"/"帮我执行" around it).
    typed_command,
    // "head -n 20 app.log", "last 50 lines of x": a window of a file.
    line_window_of_file,
    // "它监听哪个端口", "send that file": the file the conversation is about.
    pronoun,
    // A limit or a configured value asked for is a setting before it is a process, service
    // or port question.
    config_setting,
    // "X in one log vs Y in another, which came first": a query per log.
    two_logs_compared,
    // "4xx vs 5xx", "GET 和 POST 分别多少": a query per value asked side by side.
    values_compared,
    // A question over a log or a system table is one typed query.
    table_query,
    // Incident questions in words: processes, services, ports, journal, uptime, sizes.
    incident_command,
    // Numbers about a log (counts, top errors, when errors started) from the whole file.
    whole_log_read,
    // A configured value asked about while the session holds files: the line that sets it,
    // found by searching the uploads ("容器的内存限制", "restart policy").
    setting_in_uploads,
    upload_howto_reply,
    download,
    about_uploads,
    // A message sent with files attached is about those files unless it clearly asks for
    // something else.
    attached_files,
    monitor,
    named_file_read,
    command_in_words,
    search,
];

/// The tasks of one clause.
pub(super) fn clause_tasks(text: &str, ctx: &MessageCtx) -> Vec<Task> {
    let c = Clause::new(text);
    CLAUSE_RULES
        .iter()
        .find_map(|rule| rule(&c, ctx))
        .unwrap_or_else(|| by_intent(&c, ctx))
}

fn typed_command(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    explicit_command(c.text, ctx.uploads).map(|cl| vec![super::command_line_task(&cl, ctx)])
}

fn line_window_of_file(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let (command, n) = line_window(c.text)?;
    let p = target_path(c.text, ctx).or_else(|| typed_file_names(c.text).into_iter().next())?;
    Some(vec![Task::Exec {
        command: command.to_string(),
        args: vec!["-n".into(), n.to_string(), p],
    }])
}

fn pronoun(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    crate::follow::pronoun_task(c.text, ctx).map(|t| vec![t])
}

fn config_setting(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    settings::config_tasks(c.text, ctx)
}

fn table_query(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    query_task(c.text, ctx, false).map(|t| vec![t])
}

/// "A 里第一次超时和 B 里第一次 OOM，哪个在前", "the first 502 in the proxy log vs the first
/// deadlock in the db log — which came first?": each side is a query over the log it names,
/// with the words after both (what is asked of each) added to it.
fn two_logs_compared(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let text = c.text;
    let lower = text.to_ascii_lowercase();
    let seps = &crate::lexicon::lexicon().grammar.side_by_side;
    seps.all().find_map(|sep| {
        crate::lexicon::occurrences(&lower, sep)
            .into_iter()
            .find_map(|(at, end)| {
                let (left, right) = (&text[..at], &text[end..]);
                // A dash between blanks ends a side as a comma does ("… in B - when?").
                let cut = [
                    right.find(['—', '，', ',', '？', '?', ';', '；', ':', '：']),
                    right.find(" - "),
                ]
                .into_iter()
                .flatten()
                .min()
                .unwrap_or(right.len());
                let (right, tail) = right.split_at(cut);
                let tail =
                    tail.trim_start_matches(['—', '，', ',', ';', '；', ':', '：', ' ', '-']);
                // Something asked of both sides after them ("哪个在前", "which came first");
                // without it the two logs are one question ("02:44 前后 A 和 B 都发生了什么").
                if tail.trim().is_empty() {
                    return None;
                }
                // What happened in both is one timeline of the two logs merged.
                let side = |s: &str| match query_task(&format!("{} {tail}", s.trim()), ctx, false)?
                {
                    Task::Query(f)
                        if f.query.files.len() == 1 && f.query.measure != Measure::Timeline =>
                    {
                        Some(f)
                    }
                    _ => None,
                };
                let (a, b) = (side(left)?, side(right)?);
                (a.query.files != b.query.files).then(|| vec![Task::Query(a), Task::Query(b)])
            })
    })
}

/// Several values of one field asked side by side ("4xx vs 5xx", "ERROR 和 WARN 分别有多少",
/// "GET and POST latency compared"): the query once per value, each value in place of the
/// condition matching any of them.
fn values_compared(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    if !crate::lexicon::lexicon()
        .grammar
        .each_side
        .occur_in(&c.lower)
    {
        return None;
    }
    let Task::Query(f) = query_task(c.text, ctx, false)? else {
        return None;
    };
    if f.query.measure == Measure::Timeline {
        return None;
    }
    let (at, sides) = f
        .query
        .filters
        .iter()
        .enumerate()
        .find_map(|(i, x)| crate::frame::alternatives::sides(x).map(|s| (i, s)))?;
    let merged = &f.query.filters[at];
    // In the order the question names them.
    let mut sides = sides;
    sides.sort_by_key(|side| {
        let said = crate::answer::query::sides::label(side).to_lowercase();
        c.lower.find(&said).unwrap_or(usize::MAX)
    });
    let tasks = sides.into_iter().map(|side| {
        let mut one = f.clone();
        // A share's population keeps the condition it was asked of.
        if let Some(base) = one.share_of.as_mut() {
            base.iter_mut()
                .filter(|b| *b == merged)
                .for_each(|b| *b = side.clone());
        }
        one.query.filters[at] = side;
        Task::Query(one)
    });
    Some(tasks.collect())
}

fn incident_command(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let file_named = names_a_file(c.text)
        || (!ctx.referenced.is_empty() && about_attachments(c.text))
        || crate::frame::log_names::names_a_session_log(c.text, ctx.uploads);
    incident_task(c.text, file_named).map(|t| match t {
        // "top 3 processes by memory": as many as asked.
        Task::Processes {
            sort,
            name,
            limit: None,
        } => vec![Task::Processes {
            sort,
            name,
            limit: crate::frame::how_many::asked_limit(c.text),
        }],
        t => vec![t],
    })
}

fn whole_log_read(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let asks = (log_question(c.text) || level_follow_up(c.text, ctx)) && !doc_request(c.text);
    if !asks {
        return None;
    }
    log_target(c.text, ctx).map(|path| {
        vec![Task::Read {
            path,
            question: c.text.to_string(),
        }]
    })
}

fn setting_in_uploads(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    (!ctx.uploads.is_empty()
        && setting_question(c.text)
        && !wants_download(c.text)
        && !refers_to_uploads(c.text))
    .then(|| vec![uploads_search(c.text)])
}

fn upload_howto_reply(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    (upload_howto(c.text) && !refers_to_uploads(c.text))
        .then(|| vec![Task::Reply(chat_reply(Chat::UploadHowto, ctx.lang))])
}

fn download(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    wants_download(c.text).then(|| vec![download_task(c.text, ctx)])
}

fn read_each(files: &[&crate::UploadRef], question: &str) -> Vec<Task> {
    files
        .iter()
        .take(3)
        .map(|u| Task::Read {
            path: u.path.to_string_lossy().into_owned(),
            question: question.to_string(),
        })
        .collect()
}

fn about_uploads(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    if !refers_to_uploads(c.text) {
        return None;
    }
    if !ctx.referenced.is_empty() && content_question(c.text) {
        return Some(read_each(&ctx.referenced, c.text));
    }
    if let Some(u) = best_upload(c.text, ctx.uploads).filter(|_| read_verb(c.text)) {
        return Some(vec![Task::Read {
            path: u.path.to_string_lossy().into_owned(),
            question: c.text.to_string(),
        }]);
    }
    let then_read = content_question(c.text) && !listing_request(c.text);
    Some(vec![uploads_task(c.text, then_read)])
}

fn attached_files(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    (!ctx.referenced.is_empty()
        && !c.small_talk()
        && !c.searchy
        && !c.mention.any()
        && natural_command(c.text).is_none())
    .then(|| read_each(&ctx.referenced, c.text))
}

fn monitor(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let claims = c.mention.any()
        && !c.searchy
        && typed_file_names(c.text).is_empty()
        && !settings::names_a_setting(c.text, ctx, METRIC_WORDS);
    if !claims {
        return None;
    }
    let mut tasks = vec![Task::Monitor {
        metric: c.mention.metric(),
    }];
    // "诊断系统状态：CPU、磁盘和日志": the logs are part of the diagnosis.
    if contains_any(&c.lower, &["日志", "log"]) {
        tasks.push(log_check(ctx));
    }
    Some(tasks)
}

fn named_file_read(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let clause = c.text;
    let named = best_upload(clause, ctx.uploads).is_some()
        || typed_paths(clause)
            .iter()
            .any(|p| p.starts_with('/') && p.len() > 1)
        || !typed_file_names(clause).is_empty()
        || (!ctx.referenced.is_empty()
            && typed_file_names(clause).is_empty()
            && (natural_command(clause).is_none() || about_attachments(clause)));
    (named && read_verb(clause) && !c.searchy).then(|| vec![read_task(clause, ctx)])
}

/// Words that ask for documents rather than for a command's output.
const DOC_WORDS: &[&str] = &[
    "文档",
    "资料",
    "文件里",
    "文件中",
    "说明",
    "docs",
    "documentation",
    "which file",
];

fn command_in_words(c: &Clause, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let clause = c.text;
    let t = natural_command(clause).filter(|_| !c.searchy || !contains_any(&c.lower, DOC_WORDS))?;
    // "X 用哪个用户跑的", "X 的工作目录" about an uploaded unit or config: the file says,
    // not `whoami` or `pwd`; so does a clause that says the value is configured in a
    // config upload ("how many worker processes does nginx.conf set" is not `ps aux`).
    let about_upload = best_upload(clause, ctx.uploads).is_some_and(|u| {
        matches!(&t, Task::Exec { command, .. } if ["whoami", "id", "pwd", "hostname"].contains(&command.as_str()))
            || (config_upload(u) && says_config(clause))
    });
    if about_upload {
        return Some(vec![uploads_search(clause)]);
    }
    let other = matches!(
        c.intent,
        Some(Intent::Search | Intent::Read | Intent::Download)
    );
    (c.intent == Some(Intent::Command) || !other).then(|| vec![t])
}

fn search(c: &Clause, _: &MessageCtx) -> Option<Vec<Task>> {
    let chat = matches!(
        c.intent,
        Some(Intent::Greet | Intent::Thanks | Intent::Bye | Intent::Identity)
    );
    (c.searchy && !chat).then(|| vec![search_task(c.text)])
}

/// What the classifier's intent alone decides.
fn by_intent(c: &Clause, ctx: &MessageCtx) -> Vec<Task> {
    let (clause, lang) = (c.text, ctx.lang);
    let reply = |chat| vec![Task::Reply(chat_reply(chat, lang))];
    match c.intent {
        Some(Intent::Greet) => reply(Chat::Greet),
        Some(Intent::Thanks) => reply(Chat::Thanks),
        Some(Intent::Bye) => reply(Chat::Bye),
        Some(Intent::Identity) => reply(Chat::Identity),
        // A key named with a config ("nofile for exporter", "kafka bootstrap servers",
        // "rabbitmq 内存水位线") asks what it is set to.
        Some(Intent::UploadHowto | Intent::Download)
            if settings::names_a_setting(clause, ctx, &[]) =>
        {
            vec![uploads_search(clause)]
        }
        Some(Intent::Monitor) if settings::names_a_setting(clause, ctx, METRIC_WORDS) => {
            vec![uploads_search(clause)]
        }
        Some(Intent::UploadHowto) => reply(Chat::UploadHowto),
        // "失败后多久重启" asks how long, "什么时候重启的" when: questions, searched.
        Some(Intent::Danger) if quantity_question(clause) || past_event_question(clause) => {
            vec![search_task(clause)]
        }
        // The classifier hears danger in the words; only a destructive verb is a request.
        Some(Intent::Danger) if destructive_words(clause) => {
            vec![Task::Reply(refusal_text(&Refusal::Destructive, lang))]
        }
        Some(Intent::Danger) => vec![search_task(clause)],
        Some(Intent::Monitor) => vec![Task::Monitor {
            metric: c.mention.metric(),
        }],
        Some(Intent::Command) => match natural_command(clause) {
            Some(t) => vec![t],
            // "show me README": a thing to look at, not a listing.
            None if content_terms(clause).chars().count() >= 2 => vec![read_task(clause, ctx)],
            None => vec![cmd("ls", &["-la"])],
        },
        Some(Intent::Download) => vec![download_task(clause, ctx)],
        Some(Intent::Read) => vec![read_task(clause, ctx)],
        Some(Intent::Uploads) => vec![uploads_task(clause, content_question(clause))],
        Some(Intent::Search) | Some(Intent::Explain) => vec![search_task(clause)],
        None if !ctx.referenced.is_empty() => vec![read_task(clause, ctx)],
        None if clause.chars().filter(|c| c.is_alphanumeric()).count() >= 4 => {
            vec![search_task(clause)]
        }
        None => reply(Chat::Unknown),
    }
}
