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
use crate::turn::{Role, TurnEvent, TurnRequest};

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
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical");
    let data = root.join("data");
    let dir = data.join("uploads").join("f1");
    std::fs::create_dir_all(&dir).expect("mkdir");
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
    let path = dir.join("app.log");
    std::fs::write(&path, &log).expect("write");
    let upload = UploadRow {
        file_id: "f1".into(),
        session_id: "s1".into(),
        filename: "app.log".into(),
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
        llm: None,
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
            .any(|e| matches!(e, TurnEvent::ToolCall { tool, .. } if tool == "file_read")),
        "{events:?}"
    );
    assert!(out.answer.contains("37"), "{}", out.answer);
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
