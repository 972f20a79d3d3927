//! The offline planner: the agent's embedded default when no LLM is configured. Given this
//! turn's message, the session's uploads, recent history and the steps already taken, it
//! decides the next tool call or writes the final answer. Pure and deterministic: no I/O,
//! no clock, no randomness.

pub mod act;
pub mod answer;
pub mod classify;
pub mod command_line;
mod compose;
pub mod config;
pub mod context;
pub mod conversation;
pub mod ctx;
pub mod cues;
pub mod follow;
pub mod frame;
pub mod incident;
pub mod incident_summary;
pub mod knowledge;
pub mod lexicon;
pub mod lookup;
pub mod process_detail;
pub mod query;
mod query_steps;
pub mod safety;
pub mod slots;
pub mod status;
pub mod task;
pub mod text;
mod tool_data;
pub mod trace;
pub mod understand;

#[cfg(test)]
mod eval_tests;
#[cfg(test)]
mod routing_system_tests;
#[cfg(test)]
mod routing_tests;
#[cfg(test)]
mod test_data;

use serde::{Deserialize, Serialize};

use self::conversation::Conversation;
use self::slots::hit_name_score;
use self::text::Lang;
use self::tool_data::{PageView, RunView};
use self::understand::{strip_file_refs, understand, MessageCtx, Task, Then};
pub use llmops_common::ToolName;

/// At most this many tool steps per turn (the agent loop enforces it too).
pub const MAX_STEPS: usize = 5;

pub use llmops_common::UploadRef;
pub use llmops_tooldata::{
    CommandArgs, DownloadArgs, FileReadArgs, ReadMode, SearchArgs, SearchData, SysMonitorArgs,
    ToolArgs, ToolData, UploadArgs,
};

/// One earlier turn of the conversation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HistoryTurn {
    /// `user` or `assistant`.
    pub role: String,
    pub text: String,
}

/// A tool step already taken this turn.
#[derive(Debug, Clone, PartialEq)]
pub struct StepRecord {
    pub tool: ToolName,
    pub args: ToolArgs,
    pub ok: bool,
    pub output: String,
    pub data: ToolData,
    pub error: Option<String>,
}

/// Everything the planner may look at.
#[derive(Debug, Clone, Copy)]
pub struct PlannerInput<'a> {
    /// This turn's user message (may contain the legacy marker `[file_ref:ID]`).
    pub text: &'a str,
    /// Files explicitly referenced by this message (upload-with-note).
    pub referenced_files: &'a [UploadRef],
    /// This session's uploads, oldest first.
    pub uploads: &'a [UploadRef],
    pub history: &'a [HistoryTurn],
    /// What the recent turns showed (lists, files, read positions), for follow-ups.
    pub conversation: &'a Conversation,
    pub steps: &'a [StepRecord],
}

/// The planner's decision for this step.
// One is made per agent step and moved once: boxing the call's arguments saves nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum PlannerAction {
    Call {
        tool: ToolName,
        args: ToolArgs,
        status: String,
    },
    Final {
        text: String,
    },
}

pub(crate) struct Call {
    args: ToolArgs,
}

impl Call {
    fn tool(&self) -> ToolName {
        self.args.tool()
    }
}

impl From<ToolArgs> for Call {
    fn from(args: ToolArgs) -> Self {
        Call { args }
    }
}

fn path_str(p: &str) -> String {
    p.to_string()
}

/// The hit a follow-up should use: the best name match for the user's words, then (for a
/// download, which needs a file on disk) a hit with an absolute path, then rank.
fn pick_hit(data: &ToolData, hint: &str, download: bool) -> Option<String> {
    let hits = &data.as_search()?.results;
    hits.iter()
        .enumerate()
        .filter_map(|(i, h)| {
            let path = Some(h.filepath.as_str()).filter(|p| !p.is_empty())?;
            let on_disk = download && path.starts_with('/');
            Some((
                hit_name_score(hint, &h.filename),
                on_disk,
                i,
                path.to_string(),
            ))
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)).then(b.2.cmp(&a.2)))
        .map(|x| x.3)
}

/// The path of a file named in the most recent `ls` output (joined to its cwd).
fn listed_path(before: &[StepRecord], name: &str, uploads: &[UploadRef]) -> Option<String> {
    let lname = name.to_lowercase();
    for s in before
        .iter()
        .rev()
        .filter(|s| s.ok && s.tool == ToolName::CommandExecutor)
    {
        let ToolArgs::Command(args) = &s.args else {
            continue;
        };
        let run = RunView::of(&s.data);
        if run.map_or(args.command.as_str(), |r| r.command) != "ls" {
            continue;
        }
        let cwd = run.map_or(".", |r| r.cwd);
        let dir_arg = args.args.iter().find(|x| !x.starts_with('-')).cloned();
        let base = dir_arg.unwrap_or_else(|| cwd.to_string());
        for line in run.map_or("", |r| r.stdout).lines() {
            let Some(file) = line.split_whitespace().last() else {
                continue;
            };
            let lf = file.to_lowercase();
            if lf == lname || slots::stem(&lf) == lname {
                let base = base.trim_end_matches('/');
                return Some(if file.starts_with('/') {
                    file.to_string()
                } else {
                    format!("{base}/{file}")
                });
            }
        }
    }
    slots::best_upload(name, uploads).map(|u| u.path.to_string_lossy().into_owned())
}

/// Reads a file: a log is analysed whole (exact counts), anything else read page by page.
fn read_call(path: &str) -> Call {
    if incident::is_log_name(path) {
        return analyze_call(path);
    }
    // A config is answered from all of it (up to the tool's page maximum), not a prefix.
    let limit = if slots::config_name(path.rsplit('/').next().unwrap_or(path)) {
        2000
    } else {
        200
    };
    ToolArgs::FileRead(FileReadArgs::page(path, 0, limit)).into()
}

fn analyze_call(path: &str) -> Call {
    ToolArgs::FileRead(FileReadArgs::analyze(path)).into()
}

/// A page read that turned out to be part of a longer log: its numbers would describe only
/// the page, so the whole file is analysed next.
fn partial_log_read(step: &StepRecord) -> Option<String> {
    let ToolArgs::FileRead(args) = &step.args else {
        return None;
    };
    if !step.ok || args.mode == ReadMode::Analyze {
        return None;
    }
    let page = PageView::of(&step.data);
    (page.more_lines > 0 && answer::logs::looks_like_log(&page.text()))
        .then(|| page.path.unwrap_or(&args.file_path).to_string())
}

/// The next call of one task given the steps it has taken (`own`) and all steps before it.
fn next_call(
    task: &Task,
    own: &[StepRecord],
    before: &[StepRecord],
    uploads: &[UploadRef],
) -> Option<Call> {
    match task {
        Task::Reply(_) => None,
        Task::Query(frame) => match own {
            [] => Some(query_steps::query_call(frame)),
            [first] => query_steps::count_instead(frame, first)
                .or_else(|| query_steps::written_instead(frame, first))
                .or_else(|| query_steps::few_events(frame, first))
                .map(|f| query_steps::query_call(&f)),
            _ => None,
        },
        Task::ProcessDetail { pid } => process_detail::next_call(*pid, own).map(Call::from),
        Task::Incident {
            logs,
            statused,
            configs,
            window,
            symptom,
        } => incident_summary::next_call(
            logs,
            (statused, configs),
            (window.as_ref(), symptom.as_ref()),
            own,
        ),
        Task::Act(intent) => act_call(intent, own),
        Task::Monitor { metric } => own.is_empty().then(|| {
            let args = SysMonitorArgs {
                metric: Some(metric.to_string()),
                ..SysMonitorArgs::default()
            };
            ToolArgs::SysMonitor(args).into()
        }),
        Task::Processes { sort, name, limit } => own.is_empty().then(|| {
            let n = limit.map_or(10, |n| n as usize);
            ToolArgs::SysMonitor(SysMonitorArgs::processes(*sort, n, name.clone())).into()
        }),
        Task::Exec { command, args } => own
            .is_empty()
            .then(|| ToolArgs::Command(CommandArgs::new(command.clone(), args.clone())).into()),
        Task::Download { path } => own.is_empty().then(|| download_call(path_str(path))),
        Task::Read { path, .. } => match own {
            [] => Some(read_call(&path_str(path))),
            [page] => partial_log_read(page).map(|p| analyze_call(&p)),
            _ => None,
        },
        Task::ExplainError(report) => own
            .is_empty()
            .then(|| search_call(report.search_terms(), "all", 3)),
        Task::ReadPage { path, offset } => own
            .is_empty()
            .then(|| ToolArgs::FileRead(FileReadArgs::page(path.clone(), *offset, 200)).into()),
        Task::Analyse { path, .. } => own.is_empty().then(|| analyze_call(path)),
        Task::ReadListed { name, .. } => match own {
            [] => listed_path(before, name, uploads).map(|p| read_call(&p)),
            [page] => partial_log_read(page).map(|p| analyze_call(&p)),
            _ => None,
        },
        Task::Search { .. } => search_next(task, own, uploads),
        Task::Uploads { then_read, .. } => match own {
            [] => Some(uploads_list_call(task)),
            [list, ..] if *then_read && list.ok => {
                let files = list.data.as_uploads()?;
                let k = own.len() - 1;
                let f = files.get(k).filter(|_| k < 3)?;
                Some(read_call(&f.path.to_string_lossy()))
            }
            _ => None,
        },
    }
}

/// A search's calls: the search, then reading or downloading its best hit, then the
/// whole-file analysis of a log read in part.
fn search_next(task: &Task, own: &[StepRecord], uploads: &[UploadRef]) -> Option<Call> {
    let Task::Search {
        query,
        scope,
        top_k,
        then,
        hint,
        question,
    } = task
    else {
        return None;
    };
    let then = *then;
    match own {
        [] => Some(search_call(query.clone(), scope, i64::from(*top_k))),
        // A configured value: the config the hits or the question point to, read as a tree.
        [hits, reads @ ..] if then == Then::Lookup => {
            lookup::next_read(hits, reads, question, uploads).map(|p| read_call(&p))
        }
        [hits] if then != Then::Nothing && hits.ok => {
            // No usable hit: a session upload matching the user's words still counts.
            let path = pick_hit(&hits.data, hint, then == Then::Download).or_else(|| {
                slots::best_upload(hint, uploads).map(|u| u.path.to_string_lossy().into_owned())
            })?;
            Some(match then {
                Then::Download => download_call(path),
                _ => read_call(&path),
            })
        }
        [_, page] if then == Then::Read => partial_log_read(page).map(|p| analyze_call(&p)),
        _ => None,
    }
}

fn search_call(query: String, scope: &str, top_k: i64) -> Call {
    ToolArgs::Search(SearchArgs {
        query,
        scope: Some(scope.to_string()),
        top_k: Some(top_k),
    })
    .into()
}

fn download_call(file_path: String) -> Call {
    ToolArgs::Download(DownloadArgs {
        file_path,
        transport_mode: Some("auto".into()),
    })
    .into()
}

/// The listing call of an uploads task.
fn uploads_list_call(task: &Task) -> Call {
    let mut args = UploadArgs {
        action: Some("list".into()),
        ..UploadArgs::default()
    };
    if let Task::Uploads {
        reference,
        count,
        file_type,
        time_range,
        ..
    } = task
    {
        args.reference = Some(reference.to_string());
        args.count = count.map(u64::from);
        args.file_type = file_type.clone();
        args.time_range = time_range.map(str::to_string);
    }
    ToolArgs::Upload(args).into()
}

/// The next step of an action request: look first when the target is "the top process",
/// then propose `run_action` once.
fn act_call(intent: &act::ActIntent, own: &[StepRecord]) -> Option<Call> {
    let reason = "the user asked for it";
    match (intent, own) {
        (act::ActIntent::Argv(argv), []) => Some(act::call_args(argv, reason).into()),
        // The top among one program's processes: looked up by the program, as a kill by
        // name is (a command line that only mentions the name is no such process).
        (
            act::ActIntent::KillTop {
                sort,
                name: Some(name),
                ..
            },
            [],
        ) => Some(act::top_named_args(name, *sort).into()),
        (
            act::ActIntent::KillTop {
                sort,
                name: Some(name),
                signal,
            },
            [look],
        ) if look.ok => {
            let (pid, command) = act::named_processes(look).into_iter().next()?;
            let argv = vec!["kill".to_string(), signal.to_string(), pid.to_string()];
            let why = format!(
                "{command} (PID {pid}) uses the most {} of the {name} processes",
                sort.as_str()
            );
            Some(act::call_args(&argv, &why).into())
        }
        (act::ActIntent::KillTop { sort, .. }, []) => {
            Some(ToolArgs::SysMonitor(SysMonitorArgs::processes(*sort, 5, None)).into())
        }
        (act::ActIntent::KillNamed { name, .. }, []) => Some(act::lookup_args(name).into()),
        (act::ActIntent::KillNamed { name, signal }, [look]) if look.ok => {
            let found = act::named_processes(look);
            if found.is_empty() {
                return None;
            }
            let mut argv = vec!["kill".to_string(), signal.to_string()];
            argv.extend(found.iter().map(|(pid, _)| pid.to_string()));
            let list: Vec<String> = found.iter().map(|(p, c)| format!("{p} ({c})")).collect();
            let why = format!("processes matching {name}: {}", list.join(", "));
            Some(act::call_args(&argv, &why).into())
        }
        (act::ActIntent::StopNamed { name }, []) => Some(act::lookup_args(name).into()),
        (act::ActIntent::StopNamed { name }, [look]) => {
            let found = if look.ok {
                act::named_processes_with_units(look)
            } else {
                Vec::new()
            };
            let argv = act::stop_argv(name, &found);
            let why = format!("stop {name}");
            Some(act::call_args(&argv, &why).into())
        }
        (act::ActIntent::KillTop { sort, signal, .. }, [look]) if look.ok => {
            let (pid, name) = act::top_process(look)?;
            let argv = vec!["kill".to_string(), signal.to_string(), pid.to_string()];
            let why = format!("{name} (PID {pid}) uses the most {}", sort.as_str());
            Some(act::call_args(&argv, &why).into())
        }
        _ => None,
    }
}

/// One turn of the offline planner: the message is understood once (its tasks, with their
/// typed queries), then each step is decided from those tasks and the steps taken so far;
/// no rule runs again after the first step.
#[derive(Debug, Clone)]
pub struct TurnPlan {
    tasks: Vec<Task>,
    lang: Lang,
    uploads: Vec<UploadRef>,
}

impl TurnPlan {
    /// Understands the turn's message.
    pub fn new(input: &PlannerInput) -> TurnPlan {
        let (clean, ref_ids) = strip_file_refs(input.text);
        let lang = Lang::detect(&clean);
        let mut referenced: Vec<&UploadRef> = input.referenced_files.iter().collect();
        for id in &ref_ids {
            if let Some(u) = input.uploads.iter().find(|u| &u.file_id == id) {
                if !referenced.iter().any(|r| r.file_id == u.file_id) {
                    referenced.push(u);
                }
            }
        }
        let ctx = MessageCtx {
            lang,
            uploads: input.uploads,
            referenced,
            history: input.history,
            conv: input.conversation,
        };
        TurnPlan {
            tasks: understand(&clean, &ctx),
            lang,
            uploads: input.uploads.to_vec(),
        }
    }

    /// The next step given the steps taken this turn: a tool call, or the final answer.
    pub fn next(&self, steps: &[StepRecord]) -> PlannerAction {
        let lang = self.lang;
        let mut cursor = 0;
        let mut ranges = Vec::with_capacity(self.tasks.len());
        for task in &self.tasks {
            let start = cursor;
            while let Some(call) =
                next_call(task, &steps[start..cursor], &steps[..start], &self.uploads)
            {
                if cursor < steps.len() {
                    cursor += 1;
                    continue;
                }
                let repeated_failure = steps.iter().any(|s| !s.ok && s.args == call.args);
                if steps.len() >= MAX_STEPS || repeated_failure {
                    break;
                }
                return PlannerAction::Call {
                    tool: call.tool(),
                    status: status::status(&call.args, lang),
                    args: call.args,
                };
            }
            ranges.push(start..cursor);
        }
        let sides = compose::side_by_side(&self.tasks, steps, &ranges, lang);
        let text = self
            .tasks
            .iter()
            .zip(ranges)
            .map(|(t, r)| compose::task_answer(t, &steps[r], lang))
            .filter(|s| !s.trim().is_empty());
        let text = sides
            .into_iter()
            .chain(text)
            .collect::<Vec<_>>()
            .join("\n\n");
        PlannerAction::Final { text }
    }
}

/// Decides the next step of a turn in one call (understanding the message again): for
/// tests and one-shot callers; the agent keeps a [`TurnPlan`] for the whole turn.
pub fn plan(input: &PlannerInput) -> PlannerAction {
    TurnPlan::new(input).next(input.steps)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use llmops_tooldata::SearchScope;
    use std::path::PathBuf;

    pub(crate) fn uploads(names: &[&str]) -> Vec<UploadRef> {
        names
            .iter()
            .enumerate()
            .map(|(i, n)| UploadRef {
                file_id: format!("id{i}"),
                filename: n.to_string(),
                path: PathBuf::from(format!("/data/uploads/id{i}/{n}")),
                size: 155,
                sha256: "ab".repeat(32),
                uploaded_at: "2026-10-01 10:00:00".into(),
                content_type: "text/plain".into(),
                columns: Vec::new(),
                format: None,
            })
            .collect()
    }

    /// The first step of a question sent with the logs `sent`, among the session's `ups`.
    pub(crate) fn first_sent(text: &str, ups: &[UploadRef], sent: &[UploadRef]) -> PlannerAction {
        plan(&PlannerInput {
            text,
            referenced_files: sent,
            uploads: ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &[],
        })
    }

    /// The file a read or a download names.
    fn path_of(args: &ToolArgs) -> &str {
        match args {
            ToolArgs::FileRead(a) => &a.file_path,
            ToolArgs::Download(a) => &a.file_path,
            other => panic!("no file in {other}"),
        }
    }

    fn first(text: &str, ups: &[UploadRef]) -> PlannerAction {
        plan(&PlannerInput {
            text,
            referenced_files: &[],
            uploads: ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &[],
        })
    }

    /// "top 3 processes by memory" lists three, not the monitor's ten.
    #[test]
    fn top_processes_list_as_many_as_asked() {
        for (text, n) in [
            ("top 3 processes by memory", 3),
            ("CPU 占用前 5 的进程", 5),
            ("what's eating memory on this box", 10),
        ] {
            let PlannerAction::Call {
                args: ToolArgs::SysMonitor(a),
                ..
            } = first(text, &[])
            else {
                panic!("{text}")
            };
            assert_eq!(a.limit, Some(serde_json::json!(n)), "{text}");
        }
    }

    #[test]
    fn a_note_with_an_attached_file_is_answered_from_the_file() {
        let ups = uploads(&["nginx.conf", "app.log"]);
        for text in [
            "这个配置监听哪个端口？",
            "what port does it listen on?",
            "有什么问题吗",
            "总结一下",
        ] {
            let a = plan(&PlannerInput {
                text,
                referenced_files: &ups[..1],
                uploads: &ups,
                history: &[],
                conversation: &Conversation::default(),
                steps: &[],
            });
            let PlannerAction::Call { tool, args, .. } = a else {
                panic!("{text}: {a:?}")
            };
            assert_eq!(tool, "file_read", "{text}");
            assert_eq!(path_of(&args), "/data/uploads/id0/nginx.conf", "{text}");
        }
        // Explicit other requests still win over the attachment.
        let a = plan(&PlannerInput {
            text: "CPU使用率是多少？",
            referenced_files: &ups[..1],
            uploads: &ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &[],
        });
        assert!(
            matches!(a, PlannerAction::Call { ref tool, .. } if tool == "sys_monitor"),
            "{a:?}"
        );
    }

    #[test]
    fn chains_search_then_download() {
        let ups = uploads(&["config.yaml", "database.yaml"]);
        let PlannerAction::Call { tool, args, .. } = first("搜索配置文件然后发给我", &ups)
        else {
            panic!()
        };
        assert_eq!(tool, "semantic_search");
        let step = StepRecord {
            tool,
            args,
            ok: true,
            output: String::new(),
            data: test_data::search(
                "配置",
                SearchScope::All,
                vec![
                    test_data::hit(
                        "database.yaml",
                        "/data/uploads/id1/database.yaml",
                        0.9,
                        "primary:",
                    ),
                    test_data::hit("config.yaml", "/data/uploads/id0/config.yaml", 0.8, "app:"),
                ],
            ),
            error: None,
        };
        let steps = vec![step];
        let a = plan(&PlannerInput {
            text: "搜索配置文件然后发给我",
            referenced_files: &[],
            uploads: &ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &steps,
        });
        let PlannerAction::Call { tool, args, .. } = a else {
            panic!("{a:?}")
        };
        assert_eq!(tool, "file_download");
        assert_eq!(path_of(&args), "/data/uploads/id0/config.yaml");
    }

    #[test]
    fn failed_step_is_explained_not_repeated() {
        let ups = uploads(&["app.log"]);
        let step = StepRecord {
            tool: ToolName::FileDownload,
            args: ToolArgs::Download(DownloadArgs {
                file_path: "/data/uploads/id0/app.log".into(),
                transport_mode: Some("auto".into()),
            }),
            ok: false,
            output: String::new(),
            data: ToolData::None,
            error: Some("文件不存在: /data/uploads/id0/app.log".into()),
        };
        let steps = vec![step];
        let a = plan(&PlannerInput {
            text: "下载 app.log",
            referenced_files: &[],
            uploads: &ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &steps,
        });
        let PlannerAction::Final { text } = a else {
            panic!("{a:?}")
        };
        assert!(
            text.contains("文件不存在: /data/uploads/id0/app.log"),
            "{text}"
        );
    }

    #[test]
    fn referenced_file_is_read() {
        let ups = uploads(&["a.yaml", "config.yaml"]);
        let refd = vec![ups[0].clone()];
        let a = plan(&PlannerInput {
            text: "这个配置里端口是多少",
            referenced_files: &refd,
            uploads: &ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &[],
        });
        let PlannerAction::Call { tool, args, .. } = a else {
            panic!("{a:?}")
        };
        assert_eq!(
            (tool.as_str(), Some(path_of(&args))),
            ("file_read", Some("/data/uploads/id0/a.yaml"))
        );
        let a = first("[file_ref:id1] 分析一下", &ups);
        let PlannerAction::Call { args, .. } = a else {
            panic!("{a:?}")
        };
        assert_eq!(path_of(&args), "/data/uploads/id1/config.yaml");
    }

    #[test]
    fn stops_at_step_budget() {
        let ups = uploads(&["a.log"]);
        let s = StepRecord {
            tool: ToolName::SysMonitor,
            args: ToolArgs::SysMonitor(SysMonitorArgs::of(llmops_tooldata::Metric::All)),
            ok: true,
            output: String::new(),
            data: ToolData::Monitor(llmops_tooldata::MonitorData::default()),
            error: None,
        };
        let steps = vec![s.clone(), s.clone(), s.clone(), s.clone(), s];
        let a = plan(&PlannerInput {
            text: "诊断系统状态和日志",
            referenced_files: &[],
            uploads: &ups,
            history: &[],
            conversation: &Conversation::default(),
            steps: &steps,
        });
        assert!(matches!(a, PlannerAction::Final { .. }), "{a:?}");
    }
}
