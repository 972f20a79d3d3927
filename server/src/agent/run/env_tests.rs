//! The agent loop on its narrow environment: an in-memory `TurnStore`, real tools and
//! policies on a temp dir. No socket, no database, no `Ctx`.

use std::sync::{Arc, Mutex};

use llmops_policy::{CommandPolicy, CommandPolicyConfig, PathPolicy, PathPolicyConfig};
use llmops_tools::audit::Audit;
use llmops_tools::outputs::OutputStore;
use llmops_tools::{
    LiveSink, RawTextSearch, Sampler, TimeBudget, ToolCtx, ToolRegistry, UploadCatalog, UploadRef,
};
use protocol::EndStatus;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::run_turn;
use crate::agent::env::{AgentEnv, TurnContext, TurnStore};
use crate::llm::LlmHealth;
use crate::store::{MessageRow, OfferRow, ToolCallRow, UploadRow};
use crate::turn::{Role, TurnEvent, TurnKind, TurnRequest};

/// A session kept in memory: what the turn loads and what it appends.
#[derive(Default)]
struct MemoryStore {
    uploads: Vec<UploadRow>,
    messages: Mutex<Vec<MessageRow>>,
    offers: Mutex<Vec<OfferRow>>,
}

impl TurnStore for MemoryStore {
    fn load(&self, _session_id: &str, limit: usize) -> futures::future::BoxFuture<'_, TurnContext> {
        let history = self.messages.lock().expect("lock").clone();
        let skip = history.len().saturating_sub(limit);
        let ctx = TurnContext {
            history: history.into_iter().skip(skip).collect(),
            uploads: self.uploads.clone(),
            model: None,
        };
        Box::pin(async move { ctx })
    }

    fn append(
        &self,
        _session_id: &str,
        role: Role,
        text: &str,
        calls: &[ToolCallRow],
    ) -> futures::future::BoxFuture<'_, Result<(), String>> {
        self.messages.lock().expect("lock").push(MessageRow {
            role: role.as_str().into(),
            text: text.into(),
            time: String::new(),
            tool_calls: calls.to_vec(),
        });
        Box::pin(async { Ok(()) })
    }

    fn insert_offer(&self, row: &OfferRow) -> futures::future::BoxFuture<'_, Result<(), String>> {
        self.offers.lock().expect("lock").push(row.clone());
        Box::pin(async { Ok(()) })
    }
}

struct Catalog(Vec<UploadRef>);

impl UploadCatalog for Catalog {
    fn list(&self, _session_id: &str) -> Vec<UploadRef> {
        self.0.clone()
    }
}

struct Fixture {
    _tmp: tempfile::TempDir,
    store: Arc<MemoryStore>,
    env: Arc<AgentEnv>,
}

/// An environment whose session holds one upload, `app.log`, with `errors` ERROR lines
/// among `lines` lines.
fn fixture(lines: usize, errors: usize) -> Fixture {
    fixture_with(lines, errors, None)
}

fn fixture_with(lines: usize, errors: usize, llm: Option<crate::llm::LlmBackend>) -> Fixture {
    let mut log = String::new();
    let mut planted = 0;
    for i in 0..lines {
        let level = if i % (lines / errors) == 0 && planted < errors {
            planted += 1;
            "ERROR"
        } else {
            "INFO"
        };
        log.push_str(&format!(
            "2026-11-24 03:{:02}:{:02} {level} worker-{} request {i} handled\n",
            (i / 60) % 60,
            i % 60,
            i % 7
        ));
    }
    assert_eq!(
        log.matches(" ERROR ").count(),
        errors,
        "planted ground truth"
    );
    fixture_of("app.log", &log, llm)
}

/// A session with one uploaded log, `name`, holding `log`.
fn fixture_of(name: &str, log: &str, llm: Option<crate::llm::LlmBackend>) -> Fixture {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    let data = root.join("data");
    let dir = data.join("uploads").join("f1");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let path = dir.join(name);
    std::fs::write(&path, log).expect("write");
    let upload = UploadRow {
        file_id: "f1".into(),
        session_id: "s1".into(),
        filename: name.into(),
        size: log.len() as u64,
        content_type: "text/plain".into(),
        sha256: String::new(),
        path: path.to_string_lossy().into_owned(),
        uploaded_at: "2026-11-24T03:00:00Z".into(),
        state: crate::store::UploadState::Indexed,
        detail: None,
    };
    let catalog: Arc<dyn UploadCatalog> = Arc::new(Catalog(vec![super::upload_ref(&upload)]));
    let paths = Arc::new(PathPolicy::new(&PathPolicyConfig::with_defaults(
        &data,
        &[],
    )));
    let search = Arc::new(RawTextSearch::new(
        catalog.clone(),
        vec![],
        paths.clone(),
        Some(data.join("uploads")),
    ));
    let store = Arc::new(MemoryStore {
        uploads: vec![upload],
        ..Default::default()
    });
    let env = Arc::new(AgentEnv {
        store: store.clone(),
        tools: ToolRegistry::standard(Sampler::spawn(std::time::Duration::from_secs(1)), search),
        tool_base: ToolCtx {
            session_id: String::new(),
            client: None,
            paths,
            commands: Arc::new(CommandPolicy::new(CommandPolicyConfig::with_defaults(
                &data,
            ))),
            audit: Audit::open(&data).expect("audit"),
            data_dir: data.clone(),
            cancel: CancellationToken::new(),
            uploads: catalog,
            live: LiveSink::none(),
            budget: TimeBudget::default(),
            follow: Default::default(),
        },
        outputs: OutputStore::new(&data),
        uploads_dir: data.join("uploads"),
        llm,
        llm_health: Arc::new(LlmHealth::default()),
        actions: Arc::new(llmops_policy::ActionPolicy::defaults(
            std::process::id(),
            Some(std::os::unix::process::parent_id()),
        )),
    });
    Fixture {
        _tmp: tmp,
        store,
        env,
    }
}

async fn ask(f: &Fixture, text: &str) -> (crate::turn::TurnOutcome, Vec<TurnEvent>) {
    let (tx, mut rx) = mpsc::channel(1024);
    let req = TurnRequest {
        request_id: 1,
        session_id: "s1".into(),
        text: text.into(),
        file_ids: vec![],
        client: None,
        kind: TurnKind::Ask,
    };
    let out = run_turn(f.env.clone(), req, &tx, CancellationToken::new()).await;
    drop(tx);
    let mut events = Vec::new();
    while let Some(e) = rx.recv().await {
        events.push(e);
    }
    (out, events)
}

#[tokio::test]
async fn a_turn_counts_a_planted_log_exactly_without_socket_or_database() {
    let f = fixture(5000, 37);
    let (out, events) = ask(&f, "app.log 里有多少个 ERROR？").await;
    assert_eq!(out.status, EndStatus::Ok, "{:?}", out.message);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, TurnEvent::ToolCall { tool, .. } if tool == "log_query")),
        "{events:?}"
    );
    assert!(out.answer.contains("**37**"), "{}", out.answer);
    assert!(out.answer.contains("5000"), "{}", out.answer);
    // Both messages went to the store, the answer with the tool call that produced it.
    let saved = f.store.messages.lock().expect("lock").clone();
    assert_eq!(saved.len(), 2);
    assert_eq!(
        (saved[0].role.as_str(), saved[1].role.as_str()),
        ("user", "assistant")
    );
    assert_eq!(saved[1].text, out.answer);
    assert_eq!(saved[1].tool_calls.len(), out.tool_calls.len());
    assert!(saved[1].tool_calls.iter().all(|c| c.ok));
}

/// A JSON log of services with planted errors: (service, events, errors). `probe` wrote
/// one event, which says little about its rate.
const SERVICES: [(&str, u32, u32); 4] = [
    ("ledger", 30, 9),
    ("mailer", 80, 4),
    ("search", 50, 10),
    ("probe", 1, 1),
];

fn services_log() -> String {
    let mut log = String::new();
    let mut i = 0;
    for (service, n, errors) in SERVICES {
        for k in 0..n {
            let level = if k % (n / errors) == 0 && k / (n / errors) < errors {
                "error"
            } else {
                "info"
            };
            log.push_str(&format!(
                "{{\"ts\":\"2031-02-01T04:{:02}:{:02}Z\",\"level\":\"{level}\",\"service\":\"{service}\",\"latency_ms\":{},\"msg\":\"call {i}\"}}\n",
                i / 60,
                i % 60,
                latency(i)
            ));
            i += 1;
        }
    }
    for (service, n, errors) in SERVICES {
        let planted = log
            .lines()
            .filter(|l| l.contains(&format!("\"{service}\"")) && l.contains("\"error\""))
            .count();
        assert_eq!((planted, n >= errors), (errors as usize, true), "{service}");
    }
    log
}

/// The planted latency of the i-th event, in ms.
fn latency(i: usize) -> u32 {
    (i as u32 * 37) % 900 + 20
}

/// "12.3%" as the answer writes a share (one decimal from 10% up, two below).
fn pct(part: u32, of: u32) -> String {
    let p = f64::from(part) * 100.0 / f64::from(of);
    if p >= 10.0 {
        format!("{p:.1}%")
    } else {
        format!("{p:.2}%")
    }
}

#[tokio::test]
async fn a_rate_per_group_is_each_groups_share_of_its_own_events() {
    let f = fixture_of("api.json", &services_log(), None);
    let answer = |q: &'static str| {
        let f = &f;
        async move {
            let (out, _) = ask(f, q).await;
            assert_eq!(out.status, EndStatus::Ok, "{q}: {:?}", out.message);
            out.answer
        }
    };
    // The highest rate is ledger's 9 of 30, though search logged more errors; probe's one
    // event is ranked last.
    let a = answer("which service in api.json has the highest error rate").await;
    assert!(a.contains("**ledger**") && a.contains(&pct(9, 30)), "{a}");
    assert!(a.contains("9 of its 30"), "{a}");
    for (service, n, errors) in SERVICES {
        assert!(
            a.contains(&format!("{service} — {errors} of {n} ({})", pct(errors, n))),
            "{service}: {a}"
        );
    }
    let probe = a.find("probe —").expect("probe listed");
    assert!(a.find("mailer —").is_some_and(|m| m < probe), "{a}");
    // Asked for the lowest, in Chinese.
    let a = answer("api.json 里哪个服务的错误率最低").await;
    assert!(a.contains("**mailer**") && a.contains(&pct(4, 80)), "{a}");
    // A share of the errors: each service's part of all 24.
    let a = answer("what share of the errors in api.json came from each service").await;
    let all: u32 = SERVICES.iter().map(|s| s.2).sum();
    assert!(
        a.contains(&format!("search — 10 ({})", pct(10, all))),
        "{a}"
    );
    assert!(a.contains(&format!("of the {all} matching")), "{a}");
}

/// Values of one field asked side by side are a query each, with one line setting their
/// figures side by side first.
#[tokio::test]
async fn values_asked_side_by_side_are_counted_each() {
    let f = fixture_of("api.json", &services_log(), None);
    let errors: u32 = SERVICES.iter().map(|s| s.2).sum();
    let events: u32 = SERVICES.iter().map(|s| s.1).sum();
    for q in [
        "how many errors vs info lines in api.json",
        "api.json 里 error 和 info 分别有多少",
    ] {
        let (out, events_seen) = ask(&f, q).await;
        assert_eq!(out.status, EndStatus::Ok, "{q}: {:?}", out.message);
        let queries = events_seen
            .iter()
            .filter(|e| matches!(e, TurnEvent::ToolCall { tool, .. } if tool == "log_query"))
            .count();
        assert_eq!(queries, 2, "{q}: {}", out.answer);
        let first = out.answer.lines().next().unwrap_or_default();
        let want = format!("ERROR **{errors}** · INFO **{}**", events - errors);
        assert!(first.starts_with(&want), "{q}: {first}");
        assert!(first.contains(&events.to_string()), "{q}: {first}");
    }
    // In the order asked.
    let (out, _) = ask(&f, "how many info vs error events in api.json").await;
    let want = format!("INFO **{}** · ERROR **{errors}**", events - errors);
    assert!(out.answer.starts_with(&want), "{}", out.answer);
    // A statistic side by side: each level's mean latency, as planted.
    let mean = |level: &str| {
        let ms: Vec<f64> = services_log()
            .lines()
            .enumerate()
            .filter(|(_, l)| l.contains(&format!("\"level\":\"{level}\"")))
            .map(|(i, _)| f64::from(latency(i)))
            .collect();
        let m = ms.iter().sum::<f64>() / ms.len() as f64;
        llmops_planner::answer::query::with_unit(m, llmops_common::query::Unit::Ms)
    };
    let (out, _) = ask(&f, "average latency_ms of error vs info in api.json").await;
    let want = format!("ERROR **{}** · INFO **{}**", mean("error"), mean("info"));
    assert!(out.answer.starts_with(&want), "{want}\n{}", out.answer);
    // Without a word setting them side by side, the two values are one count of either.
    let (out, _) = ask(&f, "how many error or info lines in api.json").await;
    assert!(
        out.answer.contains(&format!("**{events}**")),
        "{}",
        out.answer
    );
}

#[tokio::test]
async fn a_download_request_records_the_offer_before_announcing_it() {
    let f = fixture(100, 4);
    let (out, events) = ask(&f, "把 app.log 下载给我").await;
    assert_eq!(out.status, EndStatus::Ok, "{:?}", out.message);
    let offers = f.store.offers.lock().expect("lock").clone();
    assert_eq!(offers.len(), 1, "{events:?}");
    let o = &offers[0];
    assert_eq!(
        (o.filename.as_str(), o.file_id.as_deref()),
        ("app.log", Some("f1"))
    );
    let size = std::fs::metadata(&o.file_path).expect("offered file").len();
    assert_eq!(o.size, size);
    assert!(events
        .iter()
        .any(|e| matches!(e, TurnEvent::Offer(r) if r.offer_id == o.offer_id)));
}

/// Runs a turn, answering each approval with `answer(argv)` (None: leave it unanswered
/// until the turn is cancelled by the caller's token).
async fn ask_with_approvals(
    f: &Fixture,
    text: &str,
    answer: impl Fn(&[String], &str) -> Option<crate::turn::ApprovalOutcome>,
) -> (crate::turn::TurnOutcome, Vec<TurnEvent>) {
    let (tx, mut rx) = mpsc::channel(1024);
    let req = TurnRequest {
        request_id: 1,
        session_id: "s1".into(),
        text: text.into(),
        file_ids: vec![],
        client: None,
        kind: TurnKind::Ask,
    };
    let env = f.env.clone();
    let turn = tokio::spawn(async move { run_turn(env, req, &tx, CancellationToken::new()).await });
    let mut events = Vec::new();
    let mut n = 0;
    while let Some(e) = rx.recv().await {
        if let TurnEvent::Approval(ask) = &e {
            n += 1;
            match answer(&ask.argv, &format!("ap-{n}")) {
                Some(o) => assert!(ask.reply.send(o), "the agent is waiting"),
                // Unanswered: the event (and its reply slot) is dropped, as when the
                // connection is gone.
                None => continue,
            }
        }
        events.push(e);
    }
    (turn.await.expect("turn task"), events)
}

/// A process to act on: `sleep 300`, killed by the test or reaped at its end.
fn sleeper() -> std::process::Child {
    std::process::Command::new("sleep")
        .arg("300")
        .spawn()
        .expect("spawn sleep")
}

/// The audit log of file operations and actions (empty when none was written).
fn action_log(f: &Fixture) -> String {
    std::fs::read_to_string(f.env.tool_base.data_dir.join("logs/file_operations.log"))
        .unwrap_or_default()
}

fn alive(pid: u32) -> bool {
    matches!(
        llmops_tools::run_action::proc_state(pid),
        llmops_tools::run_action::ProcState::Alive { .. }
    )
}

#[tokio::test]
async fn an_approved_kill_ends_the_process_and_the_answer_says_so() {
    let f = fixture(100, 4);
    let mut child = sleeper();
    let pid = child.id();
    let (out, events) = ask_with_approvals(&f, &format!("kill process {pid}"), |argv, id| {
        assert_eq!(argv, ["kill", "-TERM", &pid.to_string()]);
        Some(crate::turn::ApprovalOutcome::Approved {
            approval_id: id.into(),
            grant_id: None,
        })
    })
    .await;
    assert_eq!(out.status, EndStatus::Ok, "{:?}", out.message);
    let ask = events
        .iter()
        .find_map(|e| match e {
            TurnEvent::Approval(a) => Some(a),
            _ => None,
        })
        .expect("an approval was asked");
    assert_eq!(ask.action, "kill");
    assert_eq!(ask.tool, "run_action");
    assert_eq!(ask.always.rule, ask.argv, "always = the exact argv");
    assert_eq!(ask.user_request, format!("kill process {pid}"));
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        child.wait().expect("reap").signal(),
        Some(15),
        "SIGTERM reached it"
    );
    assert!(
        out.answer.contains(&format!("`kill -TERM {pid}`")) && out.answer.contains("exit code 0"),
        "{}",
        out.answer
    );
    assert!(
        out.answer.contains(&format!("pid {pid} is gone")),
        "{}",
        out.answer
    );
    let log = action_log(&f);
    assert!(log.contains(&format!("[ACTION_EXEC] session=s1 action=kill argv=\"kill -TERM {pid}\" approval=ap-1 exit_code=0")), "{log}");
}

#[tokio::test]
async fn a_rejected_kill_runs_nothing_and_the_answer_says_not_run() {
    let f = fixture(100, 4);
    let mut child = sleeper();
    let pid = child.id();
    for (outcome, word) in [
        (
            crate::turn::ApprovalOutcome::Rejected {
                approval_id: "x".into(),
            },
            "rejected",
        ),
        (
            crate::turn::ApprovalOutcome::Expired {
                approval_id: "x".into(),
            },
            "expired",
        ),
        (
            crate::turn::ApprovalOutcome::Unsupported {
                approval_id: "x".into(),
            },
            "cannot approve",
        ),
    ] {
        let (out, events) = ask_with_approvals(&f, &format!("结束进程 {pid}"), |_, _| {
            Some(outcome.clone())
        })
        .await;
        assert!(events.iter().any(|e| matches!(e, TurnEvent::Approval(_))));
        assert!(alive(pid), "still running after {word}");
        assert!(
            out.answer.contains(&format!("`kill -TERM {pid}` 未执行")),
            "{}",
            out.answer
        );
        assert!(out.answer.contains(word), "{word}: {}", out.answer);
    }
    // The connection gone (the slot dropped unanswered) is a rejection too.
    let (out, _) = ask_with_approvals(&f, &format!("kill {pid}"), |_, _| None).await;
    assert!(alive(pid));
    assert!(out.answer.contains("connection is gone"), "{}", out.answer);
    let log = action_log(&f);
    assert!(!log.contains("[ACTION_EXEC]"), "{log}");
    child.kill().expect("kill");
    child.wait().expect("reap");
}

#[tokio::test]
async fn denied_pids_are_reported_never_offered_and_never_run() {
    let f = fixture(100, 4);
    for pid in [1, std::process::id()] {
        let (out, events) = ask_with_approvals(&f, &format!("kill -9 {pid}"), |_, _| {
            panic!("a denied action must never be offered for approval")
        })
        .await;
        let denied = events
            .iter()
            .find_map(|e| match e {
                TurnEvent::ApprovalDenied { argv, detail } => Some((argv, detail)),
                _ => None,
            })
            .expect("denied event");
        assert_eq!(denied.0, &["kill", "-9", &pid.to_string()]);
        assert!(denied.1.starts_with("禁止的操作目标: pid"), "{}", denied.1);
        assert!(out.answer.contains("deny rule"), "{}", out.answer);
        assert!(!events.iter().any(|e| matches!(e, TurnEvent::Approval(_))));
    }
    let log = action_log(&f);
    assert!(!log.contains("[ACTION_EXEC]"), "{log}");
}

#[tokio::test]
async fn a_cancelled_turn_stops_waiting_and_runs_nothing() {
    let f = fixture(100, 4);
    let mut child = sleeper();
    let pid = child.id();
    let (tx, mut rx) = mpsc::channel(1024);
    let req = TurnRequest {
        request_id: 1,
        session_id: "s1".into(),
        text: format!("kill {pid}"),
        file_ids: vec![],
        client: None,
        kind: TurnKind::Ask,
    };
    let cancel = CancellationToken::new();
    let env = f.env.clone();
    let c2 = cancel.clone();
    let turn = tokio::spawn(async move { run_turn(env, req, &tx, c2).await });
    let mut slots = Vec::new();
    while let Some(e) = rx.recv().await {
        if let TurnEvent::Approval(ask) = e {
            // Keep the slot alive (the operator has not answered) and cancel the turn.
            slots.push(ask.reply.clone());
            cancel.cancel();
        }
    }
    let out = turn.await.expect("turn");
    assert_eq!(out.status, EndStatus::Cancelled);
    assert_eq!(slots.len(), 1);
    assert!(
        !slots[0].send(crate::turn::ApprovalOutcome::Approved {
            approval_id: "late".into(),
            grant_id: None
        }),
        "nobody waits any more"
    );
    assert!(alive(pid));
    child.kill().expect("kill");
    child.wait().expect("reap");
}

#[tokio::test]
async fn the_top_memory_process_is_looked_up_before_the_kill_is_proposed() {
    let f = fixture(100, 4);
    let (out, events) = ask_with_approvals(&f, "stop the process eating memory", |_, id| {
        Some(crate::turn::ApprovalOutcome::Rejected {
            approval_id: id.into(),
        })
    })
    .await;
    let tools: Vec<&str> = events
        .iter()
        .filter_map(|e| match e {
            TurnEvent::ToolCall { tool, .. } => Some(tool.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(tools, ["sys_monitor", "run_action"], "{events:?}");
    // The proposal names the pid sys_monitor ranked first (or a deny rule refused it).
    let top = out.tool_calls[0].summary.clone();
    assert!(
        events.iter().any(
            |e| matches!(e, TurnEvent::Approval(a) if a.argv[0] == "kill" && a.argv[1] == "-TERM")
        ) || events
            .iter()
            .any(|e| matches!(e, TurnEvent::ApprovalDenied { .. })),
        "{top} {events:?}"
    );
    assert!(out.answer.contains("The top process is"), "{}", out.answer);
}

/// A fixture whose session model is a scripted LLM.
fn with_llm(script: Vec<crate::llm::Script>) -> (Fixture, Arc<crate::llm::ScriptedLlm>) {
    let llm = Arc::new(crate::llm::ScriptedLlm::new(script));
    let backend = crate::llm::LlmBackend {
        client: llm.clone(),
        provider: "scripted".into(),
        models: vec!["m".into()],
        default_model: "m".into(),
        egress: "nowhere".into(),
    };
    (fixture_with(5000, 37, Some(backend)), llm)
}

#[tokio::test]
async fn an_llm_calls_the_log_and_system_queries_and_reads_their_typed_results() {
    use crate::llm::Script;
    use serde_json::json;
    let (f, llm) = with_llm(vec![
        Script::call(
            "log_query",
            json!({"files": ["app.log"], "measure": "count",
                       "filters": [{"field": "level", "op": "eq", "value": "ERROR"}]}),
        ),
        Script::call(
            "system_query",
            json!({"source": "processes", "measure": "rows", "limit": 1,
                       "filters": [{"field": "pid", "op": "eq", "value": std::process::id()}]}),
        ),
        Script::text(&["37 errors; this test process is running."]),
    ]);
    let (tx, mut rx) = mpsc::channel(1024);
    let req = TurnRequest {
        request_id: 1,
        session_id: "s1".into(),
        text: "how many errors, and is this process alive?".into(),
        file_ids: vec![],
        client: None,
        kind: TurnKind::Ask,
    };
    let out = run_turn(f.env.clone(), req, &tx, CancellationToken::new()).await;
    drop(tx);
    while rx.recv().await.is_some() {}
    assert_eq!(out.status, EndStatus::Ok, "{:?}", out.message);
    let tools: Vec<&str> = out.tool_calls.iter().map(|c| c.tool.as_str()).collect();
    assert_eq!(tools, ["log_query", "system_query"]);
    assert!(out.tool_calls.iter().all(|c| c.ok), "{:?}", out.tool_calls);
    // Both schemas reach the model, generated from the query types.
    let first = &llm.requests()[0];
    let names: Vec<String> = first
        .tools
        .iter()
        .filter_map(|t| t["function"]["name"].as_str().map(str::to_string))
        .collect();
    assert!(
        names.contains(&"log_query".to_string()) && names.contains(&"system_query".to_string())
    );
    // The observations the model read carry the exact figure and the pid's row.
    let last = llm.requests().last().cloned().expect("requests");
    let seen = format!("{:?}", last.messages);
    assert!(seen.contains("37 matched"), "{seen}");
    assert!(seen.contains(&std::process::id().to_string()), "{seen}");
}

#[tokio::test]
async fn an_llm_call_the_tools_cannot_take_is_a_failed_step_the_model_reads() {
    use crate::llm::Script;
    use serde_json::json;
    let (f, llm) = with_llm(vec![
        Script::call("file_read", json!({"path": "app.log", "limit": "many"})),
        Script::call("rm", json!({"path": "/"})),
        Script::text(&["Neither call worked."]),
    ]);
    let (out, events) = ask(&f, "read app.log").await;
    assert_eq!(out.status, EndStatus::Ok, "{:?}", out.message);
    let calls: Vec<(&str, bool)> = out
        .tool_calls
        .iter()
        .map(|c| (c.tool.as_str(), c.ok))
        .collect();
    assert_eq!(calls, [("file_read", false), ("rm", false)]);
    // The call is shown and stored as the model wrote it.
    assert_eq!(
        out.tool_calls[0].args,
        json!({"path": "app.log", "limit": "many"})
    );
    assert!(events
        .iter()
        .any(|e| matches!(e, TurnEvent::ToolCall { tool, .. } if tool == "rm")));
    let seen = format!("{:?}", llm.requests().last().expect("requests").messages);
    assert!(seen.contains("参数错误 (invalid arguments)"), "{seen}");
    assert!(seen.contains("未知工具: rm"), "{seen}");
}
