//! Understanding a message: splits it into clauses, decides each clause's intent (rules
//! first when slots are unambiguous, the classifier otherwise) and fills the tool arguments.
//! Produces a task list; executing it and writing answers happen elsewhere.

use std::sync::OnceLock;

use regex::Regex;

use super::classify::{classify, Intent};
use super::context::{about_attachments, doc_request, level_follow_up, log_target, target_path};
use super::cues::{
    content_question, listing_request, natural_command, past_event_question, quantity_question,
    read_verb, refers_to_uploads, says_config, search_verb, setting_question, upload_howto,
    wants_download, METRIC_WORDS,
};
use super::incident::{incident_task, log_question, names_a_file, ProcSort};
use super::knowledge::{chat_reply, explain, Chat};
use super::safety::{check_command, destructive_words, refusal_text, secret_in, Refusal};
use super::slots::{
    best_upload, config_upload, expand_query, explicit_command, line_window, monitor_mention,
    resolve_command_args, search_query, search_scope, top_k, typed_file_names, typed_paths,
    upload_reference, CommandLine,
};
use super::text::{contains_any, normalize};
use super::UploadRef;
use clause::clause_tasks;
use settings::uploads_search;
use words::{content_terms, strip_download_words, strip_pronouns};

pub use super::task::{Task, Then};

pub use super::ctx::MessageCtx;

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("planner regex literal is valid"))
}

/// The question as a query over a table, if it is one; `follow_up` lets it edit the
/// conversation's last query.
fn query_task(text: &str, ctx: &MessageCtx, follow_up: bool) -> Option<Task> {
    let named_before = history_upload(ctx).map(|u| u.path.to_string_lossy().into_owned());
    let last_file = ctx
        .conv
        .last_file
        .as_ref()
        .map(|f| f.path.as_str())
        .or(named_before.as_deref());
    let fctx = super::frame::FrameCtx {
        uploads: ctx.uploads,
        referenced: &ctx.referenced,
        last_file,
        last_query: if follow_up {
            ctx.conv.last_query.as_ref()
        } else {
            None
        },
    };
    if !follow_up && !query_shaped(text, ctx) {
        return None;
    }
    match super::frame::question::understand(text, &fctx)? {
        // "跑了几个进程？" after "X 在跑吗": the count of X's, a follow-up's to read.
        super::frame::Understood::Query(frame)
            if !follow_up && counts_the_last_table(text, &frame, ctx) =>
        {
            None
        }
        super::frame::Understood::Query(frame) if follow_up == frame.follow_up => {
            if let Some(reply) = distinct::distinct_of_what(&frame.query, ctx) {
                return Some(reply);
            }
            Some(
                super::process_detail::one_pid(&frame.query)
                    .map_or(Task::Query(*frame), |pid| Task::ProcessDetail { pid }),
            )
        }
        super::frame::Understood::Query(_) => None,
        super::frame::Understood::Summary { path } if !follow_up => Some(Task::Analyse {
            path,
            question: text.to_string(),
            note: None,
        }),
        super::frame::Understood::Summary { .. } => None,
    }
}

/// Whether a fresh question may be a query at all: not a search, a look at a file's first
/// or last lines, a question naming a file that holds no events, or a configured value of
/// an uploaded config ("worker restart policy", "the carts timeout"), unless it asks for a
/// number outright ("how many timeouts").
fn query_shaped(text: &str, ctx: &MessageCtx) -> bool {
    let names_other_file = typed_file_names(text)
        .iter()
        .any(|n| best_upload(n, ctx.uploads).is_some_and(|u| !super::frame::is_log_upload(u)));
    let setting = settings::config_tasks(text, ctx).is_some()
        || (ctx.uploads.iter().any(config_upload) && setting_question(text));
    // "有没有 504": asked yes or no of the events, unless what is looked for is a document
    // ("有没有 502 的排查文档") or a setting.
    let asked_if = crate::lexicon::lexicon()
        .grammar
        .yes_no
        .all()
        .fold(text.to_string(), |t, w| t.replace(w, ""));
    let yes_no = super::frame::build::asks_if_any(text) && !setting && !search_verb(&asked_if);
    let counts = super::frame::build::asks_a_measure(text) || yes_no;
    !names_other_file && line_window(text).is_none() && (counts || !(search_verb(text) || setting))
}

/// A bare count of the system table the query just answered read with conditions ("跑了几个
/// 进程？" after "X 在跑吗"): no fresh question, unless asked in total.
fn counts_the_last_table(text: &str, frame: &super::frame::Frame, ctx: &MessageCtx) -> bool {
    let q = &frame.query;
    let last = ctx.conv.last_query.as_ref().map(|l| &l.query);
    let just_asked = ctx.conv.last_topic == Some(super::conversation::Topic::Query);
    let total = crate::lexicon::lexicon()
        .grammar
        .follow
        .total()
        .occur_in(&text.to_lowercase());
    just_asked
        && !total
        && q.source != llmops_common::query::Source::Log
        && q.measure == llmops_common::query::Measure::Count
        && q.filters.is_empty()
        && q.group_by.is_empty()
        && last.is_some_and(|l| l.source == q.source && !l.filters.is_empty())
}

/// Removes legacy `[file_ref:ID]` markers, returning the IDs.
pub fn strip_file_refs(text: &str) -> (String, Vec<String>) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"\[file_ref:([^\]\s]+)\]");
    let ids = r
        .captures_iter(text)
        .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
        .collect();
    (r.replace_all(text, " ").trim().to_string(), ids)
}

/// Splits on sequencing words ("然后", "再", "同时", "then", "also") and sentence ends.
fn clauses(text: &str) -> Vec<String> {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)\s*(?:[,;.!?]\s*(?:然后再|然后|接着|之后再|之后|并且|同时|另外|顺便|再|还要|还想|也想|并)|然后再|然后|接着|同时也|同时|顺便|另外|;|[.!?]\s+|,\s*(?:and\s+)?(?:then|also|after that|afterwards)\b|\s+and\s+then\b|\s+then\b|\s+and\s+also\b)\s*",
    );
    // A Chinese sentence ends at `?` / `!` / `.` with no space after it ("是几点?traefik 里…").
    let mut spaced = String::with_capacity(text.len() + 8);
    let (mut before, mut prev) = (' ', ' ');
    for c in text.chars() {
        if matches!(prev, '?' | '!' | '.') && crate::text::is_cjk(before) && !c.is_whitespace() {
            spaced.push(' ');
        }
        spaced.push(c);
        (before, prev) = (prev, c);
    }
    // "when did X fail, and when did Y log its first Z?": a second question after ", and".
    static SECOND: OnceLock<Regex> = OnceLock::new();
    let second = re(
        &SECOND,
        r"(?i),\s*and\s+(when|what|which|how|who|where|did|was|is|are|were)\b",
    );
    let spaced = second.replace_all(&spaced, "; $1").into_owned();
    // "i.e." and "e.g." end no sentence.
    static ABBR: OnceLock<Regex> = OnceLock::new();
    let abbr = re(&ABBR, r"(?i)\b(i)\.(e)\.|\b(e)\.(g)\.");
    let spaced = abbr.replace_all(&spaced, "$1$2$3$4").into_owned();
    // A dot standing alone is a path ("find . -name x", "du -sh ."), no sentence's end.
    const HERE: char = '\u{E000}';
    let mut spaced = format!("{spaced} ");
    // Twice over, for dots side by side ("ls . ..": the matches of one pass do not overlap).
    for _ in 0..2 {
        spaced = spaced.replace(" . ", &format!(" {HERE} "));
    }
    let text = spaced.trim_end();
    let mut out = Vec::new();
    let parts: Vec<&str> = r.split(text).collect();
    // "first check the disk, then …" is a sequence; a lone "first 502 in gateway.log" asks
    // for the first event.
    let sequence = parts.iter().filter(|p| !p.trim().is_empty()).count() > 1;
    for part in parts {
        let p = part.trim().trim_start_matches("先");
        let p = if sequence {
            p.trim_start_matches("first ")
        } else {
            p
        };
        let p = p.trim_matches(|c: char| ",;.!?: ".contains(c)).trim();
        if !p.is_empty() {
            out.push(p.replace(HERE, "."));
        }
    }
    if out.is_empty() {
        out.push(text.trim().replace(HERE, "."));
    }
    join_bare_measures(out)
}

/// "any warnings in the redis log? how many": a clause that is only a measure ("how many",
/// "多少条") asks it of the clause before it.
fn join_bare_measures(parts: Vec<String>) -> Vec<String> {
    // The measure words and fillers, longest first, collected once.
    static CUES: OnceLock<Vec<&'static str>> = OnceLock::new();
    let cues = CUES.get_or_init(|| {
        let fillers = [
            "呢",
            "啊",
            "呀",
            "吧",
            "了",
            "有",
            "are there",
            "in total",
            "of them",
            "exactly",
            "again",
        ];
        let mut cues: Vec<&'static str> = crate::lexicon::lexicon()
            .measures
            .iter()
            .flat_map(|m| m.words.all())
            .chain(fillers)
            .collect();
        cues.sort_by_key(|w| std::cmp::Reverse(w.len()));
        cues
    });
    let bare = |p: &str| {
        let lower = p.to_lowercase();
        let mut rest = lower.clone();
        for w in cues {
            rest = rest.replace(w, " ");
        }
        rest != lower && rest.chars().all(|c| !c.is_alphanumeric())
    };
    let mut out: Vec<String> = Vec::with_capacity(parts.len());
    for p in parts {
        match out.last_mut() {
            Some(prev) if bare(&p) => {
                prev.push_str(", ");
                prev.push_str(&p);
            }
            _ => out.push(p),
        }
    }
    out
}

fn cmd(command: &str, args: &[&str]) -> Task {
    Task::Exec {
        command: command.to_string(),
        args: args.iter().map(|s| s.to_string()).collect(),
    }
}

fn history_upload<'a>(ctx: &MessageCtx<'a>) -> Option<&'a UploadRef> {
    ctx.history
        .iter()
        .rev()
        .take(6)
        .find_map(|h| best_upload(&h.text, ctx.uploads))
}

/// The clause's words for a search, without request verbs.
fn query_for(clause: &str) -> String {
    let names = typed_file_names(clause);
    if let Some(n) = names.first() {
        return n.clone();
    }
    let stripped = strip_download_words(clause);
    expand_query(&search_query(&stripped))
}

/// A task for a clause that wants a file sent. Without any target words it becomes a search
/// with an empty query, which the merge step attaches to the previous task.
fn download_task(clause: &str, ctx: &MessageCtx) -> Task {
    if let Some(p) = target_path(clause, ctx) {
        return Task::Download { path: p };
    }
    let pronoun = refers_to_uploads(clause)
        || contains_any(clause, &["它", "这个", "那个"])
        || super::follow::pronoun(clause);
    if pronoun {
        if let Some(u) = ctx.referenced.first() {
            return Task::Download {
                path: u.path.to_string_lossy().into_owned(),
            };
        }
    }
    // "send it" / "把这个文件发给我": bare, so it follows this message's previous task or,
    // failing that, the conversation's file (see `resolve_bare`).
    let bare = content_terms(clause).chars().count() <= 1
        || (pronoun && content_terms(&strip_pronouns(clause)).chars().count() <= 1);
    Task::Search {
        query: if bare {
            String::new()
        } else {
            query_for(clause)
        },
        scope: "all",
        top_k: 3,
        then: Then::Download,
        hint: clause.to_string(),
        question: clause.to_string(),
    }
}

fn read_task(clause: &str, ctx: &MessageCtx) -> Task {
    if let Some(p) = target_path(clause, ctx) {
        return Task::Read {
            path: p,
            question: clause.to_string(),
        };
    }
    if ctx.referenced.len() > 1 {
        return Task::Uploads {
            reference: "these",
            count: Some(ctx.referenced.len() as u32),
            file_type: None,
            time_range: None,
            then_read: true,
            question: clause.to_string(),
        };
    }
    if refers_to_uploads(clause) && !ctx.uploads.is_empty() {
        return uploads_task(clause, true);
    }
    let bare = content_terms(clause).chars().count() <= 1
        || (super::follow::pronoun(clause)
            && content_terms(&strip_pronouns(clause)).chars().count() <= 1);
    Task::Search {
        query: if bare {
            String::new()
        } else {
            query_for(clause)
        },
        scope: "all",
        top_k: 3,
        then: Then::Read,
        hint: clause.to_string(),
        question: clause.to_string(),
    }
}

fn uploads_task(clause: &str, then_read: bool) -> Task {
    let (reference, count) = upload_reference(clause);
    let lower = clause.to_lowercase();
    let file_type = if contains_any(&lower, &["日志", "log"]) {
        Some("log".to_string())
    } else {
        None
    };
    let time_range = if contains_any(&lower, &["今天", "today"]) {
        Some("today")
    } else if contains_any(&lower, &["最近", "recent"]) {
        Some("recent")
    } else {
        None
    };
    Task::Uploads {
        reference,
        count,
        file_type,
        time_range,
        then_read,
        question: clause.to_string(),
    }
}

fn search_task(clause: &str) -> Task {
    search_in(clause, search_scope(clause))
}

fn search_in(clause: &str, scope: &'static str) -> Task {
    Task::Search {
        query: expand_query(&search_query(clause)),
        scope,
        top_k: top_k(clause),
        then: Then::Nothing,
        hint: clause.to_string(),
        question: clause.to_string(),
    }
}

/// Turns a typed command line into a task (refusal, monitor for `top`, or an exec).
fn command_line_task(cl: &CommandLine, ctx: &MessageCtx) -> Task {
    let not_allowed =
        || check_command(cl).is_some_and(|r| matches!(r, Refusal::NotWhitelisted { .. }));
    match cl.command.as_str() {
        // `top` is asked for its process table: the sampler's ranking answers it.
        "top" | "htop" | "atop" if not_allowed() => {
            return Task::Processes {
                sort: ProcSort::Cpu,
                name: None,
                limit: None,
            };
        }
        "vmstat" | "iostat" if not_allowed() => {
            return Task::Monitor { metric: "all" };
        }
        "ll" if super::slots::shell_operator(&cl.raw).is_none() => {
            let mut args = vec!["-l".to_string()];
            args.extend(resolve_command_args("ls", &cl.args, ctx.uploads));
            return Task::Exec {
                command: "ls".into(),
                args,
            };
        }
        _ => {}
    }
    if let Some(r) = check_command(cl) {
        return Task::Reply(refusal_text(&r, ctx.lang));
    }
    // Upload names resolve per pipeline stage (`cat app.log | grep -c ERROR`).
    let mut args = Vec::with_capacity(cl.args.len());
    let mut stage_cmd = cl.command.clone();
    for (i, stage) in cl.args.split(|a| a == "|").enumerate() {
        if i == 0 {
            args.extend(resolve_command_args(&stage_cmd, stage, ctx.uploads));
            continue;
        }
        args.push("|".to_string());
        if let Some((c, rest)) = stage.split_first() {
            stage_cmd = c.clone();
            args.push(c.clone());
            args.extend(resolve_command_args(&stage_cmd, rest, ctx.uploads));
        }
    }
    Task::Exec {
        command: cl.command.clone(),
        args,
    }
}

/// A long text made of very few distinct characters (a key held down, a paste of filler).
fn degenerate(text: &str) -> bool {
    let chars: Vec<char> = text.chars().filter(|c| !c.is_whitespace()).collect();
    let mut distinct: Vec<char> = chars.clone();
    distinct.sort_unstable();
    distinct.dedup();
    chars.len() >= 12 && distinct.len() <= 3
}

/// The log part of a diagnosis: analyse the newest uploaded log, else search for logs.
fn log_check(ctx: &MessageCtx) -> Task {
    match ctx
        .uploads
        .iter()
        .rev()
        .find(|u| u.filename.to_lowercase().ends_with(".log"))
    {
        Some(u) => Task::Read {
            path: u.path.to_string_lossy().into_owned(),
            question: "日志错误 errors".into(),
        },
        None => Task::Search {
            query: "日志 错误 error log".into(),
            scope: "all",
            top_k: 3,
            then: Then::Nothing,
            hint: "log".into(),
            question: "log errors".into(),
        },
    }
}

/// A clause that only says "send it"/"then show it" follows the previous task's result.
fn attach_to_previous(tasks: &mut [Task], next: Task) -> Option<Task> {
    let (want, query, question) = match &next {
        Task::Search {
            then,
            query,
            question,
            ..
        } if *then != Then::Nothing => (*then, query.clone(), question.clone()),
        _ => return Some(next),
    };
    let bare = query.trim().is_empty();
    match tasks.last_mut() {
        Some(Task::Search { then, .. }) if *then == Then::Nothing && bare => {
            *then = want;
            None
        }
        Some(Task::Exec { command, .. }) if command == "ls" && want == Then::Read && !bare => {
            Some(Task::ReadListed {
                name: query,
                question,
            })
        }
        _ => Some(next),
    }
}

/// A follow-up with nothing to follow: use the file the conversation is about, or ask.
fn resolve_bare(task: Task, ctx: &MessageCtx) -> Task {
    match task {
        Task::Search {
            ref query,
            then,
            ref question,
            ..
        } if query.trim().is_empty() && then != Then::Nothing => {
            // Guessing among several uploads would be wrong half the time: only a lone
            // upload is "it" without any other context.
            let lone = if ctx.uploads.len() == 1 {
                ctx.uploads.first()
            } else {
                None
            };
            let file = ctx
                .referenced
                .first()
                .map(|u| u.path.to_string_lossy().into_owned())
                .or_else(|| super::follow::conversation_file(ctx.conv))
                .or_else(|| {
                    history_upload(ctx)
                        .or(lone)
                        .map(|u| u.path.to_string_lossy().into_owned())
                });
            match (file, then) {
                (Some(path), Then::Download) => Task::Download { path },
                (Some(path), _) => Task::Read { path, question: question.clone() },
                (None, _) => Task::Reply(
                    ctx.lang
                        .pick(
                            "请告诉我是哪个文件（文件名或大致内容），我先找到它再处理。",
                            "Which file do you mean? Give me its name or what it contains and I'll find it.",
                        )
                        .to_string(),
                ),
            }
        }
        other => other,
    }
}

/// A message-level rule: it claims the whole message (one unit, not split into clauses)
/// or passes.
type MessageRule = fn(&str, &MessageCtx) -> Option<Vec<Task>>;

/// The message-level rules in precedence order: the first that claims the message wins;
/// a message none claims is split into clauses ([`clause_tasks`], whose own order is
/// written there).
const MESSAGE_RULES: &[MessageRule] = &[
    // A pasted error or stack trace is one question about that error, whatever its lines say.
    pasted_error,
    // A request to change something (restart a unit, end a process, shrink the journal) is
    // one proposal the operator approves; questions about it are not.
    action_request,
    // "more"/"next" after a partial read: the pager word means "continue", not the command.
    pager_word,
    // A typed command line the policy refuses is refused as a whole.
    refused_command,
    capabilities,
    concept_question,
    secret_request,
    destructive_request,
    // "what went wrong", "总结一下这次故障": every log of the session, side by side.
    super::incident_summary::task,
    // "再看看" / "again": the previous question once more.
    again,
    // A follow-up of the conversation ("第二个", "继续", "内存呢"); after a query, one
    // that edits it ("那 4xx 呢", "按小时呢") first.
    follow_up,
];

/// The tasks for a whole message.
pub fn understand(text: &str, ctx: &MessageCtx) -> Vec<Task> {
    let text = normalize(text);
    let text = if text.contains('\n') {
        text
    } else {
        words::strip_politeness(&text)
    };
    if text.is_empty() {
        return empty_message(ctx);
    }
    // A typed command runs as typed; a question is read with its informal spellings as
    // the words they stand for.
    let text = if explicit_command(&text, ctx.uploads).is_some() {
        text
    } else {
        spelling::respell(&text)
    };
    if let Some(tasks) = MESSAGE_RULES.iter().find_map(|rule| rule(&text, ctx)) {
        return tasks;
    }
    let mut tasks: Vec<Task> = Vec::new();
    let parts = listed::listed_moments(clauses(&text), ctx);
    let parts = joined::timeline_requests(joined::with_file_clauses(parts, ctx));
    for clause in parts {
        for t in clause_tasks(&clause, ctx) {
            if let Some(t) = attach_to_previous(&mut tasks, t) {
                let t = resolve_bare(t, ctx);
                if !tasks.contains(&t) {
                    tasks.push(t);
                }
            }
        }
    }
    // Replies only make sense alone; with real work to do, drop the chit-chat.
    if tasks.iter().any(|t| !matches!(t, Task::Reply(_))) {
        tasks.retain(|t| !matches!(t, Task::Reply(_)));
    } else {
        tasks.truncate(1);
    }
    if tasks.is_empty() {
        tasks.push(Task::Reply(chat_reply(Chat::Unknown, ctx.lang)));
    }
    tasks
}

/// Nothing typed: the attached files, else a prompt to ask something.
fn empty_message(ctx: &MessageCtx) -> Vec<Task> {
    if ctx.referenced.is_empty() {
        return vec![Task::Reply(chat_reply(Chat::Unknown, ctx.lang))];
    }
    ctx.referenced
        .iter()
        .take(3)
        .map(|u| Task::Read {
            path: u.path.to_string_lossy().into_owned(),
            question: String::new(),
        })
        .collect()
}

fn pasted_error(text: &str, _: &MessageCtx) -> Option<Vec<Task>> {
    super::trace::pasted_error(text).map(|r| vec![Task::ExplainError(r)])
}

fn action_request(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    super::act::intent(text)
        .or_else(|| super::act::kill_of_the_last(text, ctx.conv.last_query.as_ref()))
        .map(|i| vec![Task::Act(i)])
}

fn pager_word(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let word = text.to_lowercase();
    if !matches!(word.trim_end_matches(['?', '.', '!']), "more" | "next") {
        return None;
    }
    super::follow::resolve(text, ctx).map(|t| vec![t])
}

fn refused_command(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let cl = explicit_command(text, ctx.uploads)?;
    let r = check_command(&cl)?;
    // These have answers of their own (the monitor, a listing) unless a shell operator
    // makes them something else.
    let handled = matches!(
        cl.command.as_str(),
        "top" | "htop" | "atop" | "vmstat" | "iostat" | "ll"
    );
    (!handled || matches!(r, Refusal::ShellOperator { .. }))
        .then(|| vec![Task::Reply(refusal_text(&r, ctx.lang))])
}

fn capabilities(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    (super::knowledge::asks_capabilities(text) && !settings::about_config(text, ctx))
        .then(|| vec![Task::Reply(chat_reply(Chat::Identity, ctx.lang))])
}

fn concept_question(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    explain(text, ctx.lang).map(|a| vec![Task::Reply(a)])
}

fn secret_request(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    let secret = secret_in(text)?;
    let typed = typed_paths(text)
        .iter()
        .any(|p| p.contains(secret.as_str()))
        || typed_file_names(text)
            .iter()
            .any(|n| n.contains(secret.as_str()))
        || secret == ".env";
    (typed || wants_download(text) || read_verb(text)).then(|| {
        vec![Task::Reply(refusal_text(
            &Refusal::Secret { target: secret },
            ctx.lang,
        ))]
    })
}

fn destructive_request(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    // "restart policy" asks what a file sets, not for a restart.
    let asks_setting =
        !ctx.uploads.is_empty() && (setting_question(text) || settings::about_config(text, ctx));
    let request = destructive_words(text)
        && explicit_command(text, ctx.uploads).is_none()
        && !asks_setting
        && !past_event_question(text)
        && !quantity_question(text);
    if !request {
        return None;
    }
    let pred = classify(text).map(|p| p.intent);
    (!matches!(pred, Some(Intent::Search | Intent::Explain)) || !search_verb(text))
        .then(|| vec![Task::Reply(refusal_text(&Refusal::Destructive, ctx.lang))])
}

/// The previous question once more, its own follow-ups resolved without it (so a repeat
/// of a repeat cannot loop).
fn again(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    if !super::follow::asks_again(text) {
        return None;
    }
    let last = ctx.conv.last_user.clone()?;
    let mut conv = ctx.conv.clone();
    conv.last_user = None;
    let inner = MessageCtx {
        lang: ctx.lang,
        uploads: ctx.uploads,
        referenced: ctx.referenced.clone(),
        history: ctx.history,
        conv: &conv,
    };
    Some(understand(&last, &inner))
}

fn follow_up(text: &str, ctx: &MessageCtx) -> Option<Vec<Task>> {
    if explicit_command(text, ctx.uploads).is_some() {
        return None;
    }
    // A process listing is the processes table ranked: "它的 pid" edits it as a query.
    let processes_ranked = ctx.conv.last_topic_is_processes()
        && ctx
            .conv
            .last_query
            .as_ref()
            .is_some_and(|q| q.query.source == llmops_common::query::Source::Processes);
    // The monitor's own follow-ups ("by cpu?", "第一个进程详细看看") come first there.
    if processes_ranked {
        if let Some(t) = super::follow::resolve(text, ctx) {
            return Some(vec![t]);
        }
    }
    let after_query =
        ctx.conv.last_topic == Some(super::conversation::Topic::Query) || processes_ranked;
    if let Some(edit) = after_query.then(|| query_task(text, ctx, true)).flatten() {
        return Some(vec![edit]);
    }
    // "same for the uwsgi log - slowest request?": a question of its own about another log
    // is a new query, not the last question asked again.
    if after_query && query_task(text, ctx, false).is_some() {
        return None;
    }
    super::follow::resolve(text, ctx).map(|t| vec![t])
}

mod clause;
mod distinct;
mod joined;
mod listed;
mod settings;
mod spelling;
#[cfg(test)]
mod tests;
mod words;
