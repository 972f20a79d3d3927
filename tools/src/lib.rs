//! Agent tools: the `Tool` trait, its result and call context, the registry the agent loop
//! uses, and shared helpers (argument parsing, upload-aware path resolution, audited denials,
//! cancellable blocking work). Tools never touch sockets: anything that must reach the client
//! (an offer, search hits, gauges) comes back as typed `ToolResult::data` ([`ToolData`]).

pub mod audit;
pub mod command_executor;
pub mod data;
pub mod file_download;
pub mod file_read;
pub mod file_upload;
pub mod follow;
pub mod full_output;
pub mod grep;
pub mod live;
pub mod log_query;
pub mod outputs;
pub mod query_common;
pub mod run_action;
pub mod semantic_search;
pub mod sys_monitor;
pub mod system_query;

use std::fmt;
use std::future::Future;
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use futures::FutureExt;
use serde::Serialize;
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use crate::audit::Audit;
use llmops_policy::{CommandPolicy, PathError, PathPolicy};

pub use command_executor::{execute, CommandExecutorTool, ExecOutcome};
pub use data::{
    CommandData, Denial, DownloadOffer, FollowData, FollowStats, MonitorData, PageData,
    ProcessesData, ProcessesMetric, SearchData, SearchWire, StoredPageData, ToolData,
};
pub use file_download::FileDownloadTool;
pub use file_read::FileReadTool;
pub use file_upload::FileUploadTool;
pub use follow::FollowLimits;
pub use full_output::FullOutput;
pub use live::{LiveChunk, LiveSink, TimeBudget};
pub use llmops_common::{ToolName, TransferMode};
/// Parses tool arguments. `null` means no arguments; a JSON string holding an object is
/// accepted too (some models double-encode).
pub use llmops_tooldata::parse_args;
pub use llmops_tooldata::ToolArgs;
pub use log_query::LogQueryTool;
pub use semantic_search::{
    RawTextSearch, SearchBackend, SearchHit, SearchScope, SemanticSearchTool,
};
pub use sys_monitor::{Sampler, SamplerHandle, Snapshot, SysMonitorTool};
pub use system_query::SystemQueryTool;

/// Boxed future returned by [`Tool::call`] (keeps the trait object-safe).
pub type ToolFuture<'a> = Pin<Box<dyn Future<Output = ToolResult> + Send + 'a>>;

/// One agent tool. Implementations must not block the runtime and must honour
/// `ctx.cancel`.
pub trait Tool: Send + Sync {
    /// Name the model calls it by (`sys_monitor`, `command_executor`, ...).
    fn name(&self) -> &'static str;
    /// What it does, for the model (bilingual).
    fn description(&self) -> &'static str;
    /// JSON schema of the arguments (OpenAI function-calling `parameters`).
    fn schema(&self) -> Value;
    /// Runs the tool. `duration_ms` is filled in by [`ToolRegistry::call`].
    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a>;
}

/// What a tool returns.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ToolResult {
    pub ok: bool,
    /// Readable text for the model / the answer.
    pub output: String,
    /// Structured result, typed per result kind; its JSON (`data.to_value()`) is what the
    /// model and the planner see.
    pub data: ToolData,
    /// Specific error message when `ok` is false.
    pub error: Option<String>,
    pub duration_ms: u64,
    /// The step's whole output when `output` is not all of it (a follow keeps the last N
    /// lines in `output`): what the session stores for paging.
    #[serde(skip)]
    pub full: Option<FullOutput>,
}

impl ToolResult {
    pub fn success(output: impl Into<String>, data: ToolData) -> Self {
        ToolResult {
            ok: true,
            output: output.into(),
            data,
            error: None,
            duration_ms: 0,
            full: None,
        }
    }

    /// A failure; the error is also the output so the model sees it.
    pub fn failure(error: impl Into<String>) -> Self {
        Self::failure_with_data(error, ToolData::None)
    }

    pub fn failure_with_data(error: impl Into<String>, data: ToolData) -> Self {
        let error = error.into();
        ToolResult {
            ok: false,
            output: format!("错误: {error}"),
            data,
            error: Some(error),
            duration_ms: 0,
            full: None,
        }
    }

    /// The result of a cancelled call.
    pub fn cancelled() -> Self {
        Self::failure("操作已取消 (cancelled)")
    }

    /// One line of at most 120 characters for status lines and logs.
    pub fn summary(&self) -> String {
        let text = match (&self.ok, &self.error) {
            (false, Some(e)) => format!("失败: {e}"),
            _ => self
                .output
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("")
                .to_string(),
        };
        truncate_chars(text.trim(), 120)
    }
}

pub use llmops_common::UploadRef;

/// This session's uploads, oldest first (implemented over SQLite by the store).
pub trait UploadCatalog: Send + Sync {
    fn list(&self, session_id: &str) -> Vec<UploadRef>;
}

/// A catalog with no uploads (for contexts that have none).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoUploads;

impl UploadCatalog for NoUploads {
    fn list(&self, _session_id: &str) -> Vec<UploadRef> {
        Vec::new()
    }
}

/// Everything a tool call may use. Cheap to clone.
#[derive(Clone)]
pub struct ToolCtx {
    pub session_id: String,
    /// The address of the client whose turn this is (for the audit log); `None` for calls
    /// no client started.
    pub client: Option<String>,
    pub paths: Arc<PathPolicy>,
    pub commands: Arc<CommandPolicy>,
    pub audit: Audit,
    pub data_dir: PathBuf,
    /// Cancelled when the turn is aborted or the session ends; tools stop promptly.
    pub cancel: CancellationToken,
    pub uploads: Arc<dyn UploadCatalog>,
    /// Live lines of this call for the client (a no-op without one).
    pub live: LiveSink,
    /// More time than the agent's per-call limit, asked for by the tool (follow mode).
    pub budget: TimeBudget,
    /// Limits of follow mode (`tail -f`, `journalctl -f`).
    pub follow: FollowLimits,
}

impl fmt::Debug for ToolCtx {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ToolCtx")
            .field("session_id", &self.session_id)
            .field("data_dir", &self.data_dir)
            .finish_non_exhaustive()
    }
}

impl ToolCtx {
    /// Working dir for relative paths and commands (the command policy's).
    pub fn working_dir(&self) -> &Path {
        self.commands.working_dir()
    }

    /// Root of all sessions' uploads: `{data_dir}/uploads`.
    pub fn uploads_root(&self) -> PathBuf {
        self.data_dir.join("uploads")
    }

    /// This session's uploads sorted oldest first (stable for equal timestamps).
    pub fn session_uploads(&self) -> Vec<UploadRef> {
        let mut list = self.uploads.list(&self.session_id);
        list.sort_by_key(|u| {
            upload_time(u)
                .map(|t| t.timestamp_micros())
                .unwrap_or(i64::MIN)
        });
        list
    }

    /// Records a denial in the audit log and turns it into a failed result.
    pub fn deny(&self, tool: &str, target: &str, err: &dyn DenyReason) -> ToolResult {
        let message = err.to_string();
        self.audit.deny(
            &[
                ("session", &self.session_id),
                ("tool", tool),
                ("target", target),
                ("code", err.code()),
            ],
            &message,
        );
        ToolResult::failure_with_data(
            message,
            ToolData::Denied(Denial {
                code: err.code(),
                target: target.to_string(),
            }),
        )
    }
}

pub(crate) fn upload_time(u: &UploadRef) -> Option<chrono::DateTime<chrono::FixedOffset>> {
    chrono::DateTime::parse_from_rfc3339(&u.uploaded_at).ok()
}

/// A typed refusal that can be audited.
pub trait DenyReason: fmt::Display {
    fn code(&self) -> &'static str;
}

impl DenyReason for PathError {
    fn code(&self) -> &'static str {
        PathError::code(self)
    }
}

impl DenyReason for llmops_policy::CommandError {
    fn code(&self) -> &'static str {
        llmops_policy::CommandError::code(self)
    }
}

/// Why a user-supplied path could not be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ResolveError {
    #[error(transparent)]
    Policy(#[from] PathError),
    /// Under the uploads root but not one of this session's uploads: sessions are isolated.
    #[error("该文件不属于本会话的上传: {path} (not an upload of this session)")]
    ForeignUpload { path: String },
}

impl DenyReason for ResolveError {
    fn code(&self) -> &'static str {
        match self {
            ResolveError::Policy(p) => p.code(),
            ResolveError::ForeignUpload { .. } => "foreign_upload",
        }
    }
}

/// Resolves a `file_path` argument: an absolute path is used as is; a bare file name or a
/// relative path first matches this session's uploads (exact file name, or the tail of an
/// upload's stored path), then resolves against the working dir. The result passed the path
/// policy, and a file under the uploads root must belong to this session.
pub fn resolve_user_path(ctx: &ToolCtx, raw: &str) -> Result<PathBuf, ResolveError> {
    let trimmed = raw.trim();
    let uploads = ctx.session_uploads();
    let p = Path::new(trimmed);
    let candidate: Option<&UploadRef> = if p.is_absolute() || trimmed.is_empty() {
        None
    } else {
        uploads
            .iter()
            .rev()
            .find(|u| u.filename == trimmed)
            .or_else(|| {
                let tail_ok = p.components().all(|c| matches!(c, Component::Normal(_)));
                uploads
                    .iter()
                    .rev()
                    .find(|u| tail_ok && u.path.ends_with(p))
            })
    };
    let resolved = match candidate {
        Some(u) => ctx.paths.check(&u.path)?,
        None => ctx.paths.check_str(trimmed, ctx.working_dir())?,
    };
    check_session_isolation(ctx, &uploads, &resolved, trimmed)?;
    Ok(resolved)
}

/// Session isolation: the uploads root is allowed for everyone, so the path policy alone would
/// let one session reach another's files by path. An existing path strictly under the uploads
/// root must be one of `uploads` (this session's) or a directory holding one. Missing paths
/// pass (the tool reports them as not found).
pub fn check_session_isolation(
    ctx: &ToolCtx,
    uploads: &[UploadRef],
    resolved: &Path,
    shown: &str,
) -> Result<(), ResolveError> {
    let Ok(root) = llmops_policy::path::resolve(&ctx.uploads_root()) else {
        return Ok(());
    };
    if !resolved.starts_with(&root) || resolved == root || !resolved.exists() {
        return Ok(());
    }
    let is_dir = resolved.is_dir();
    let mine = uploads.iter().any(|u| {
        llmops_policy::path::resolve(&u.path)
            .map(|r| r == resolved || (is_dir && r.starts_with(resolved)))
            .unwrap_or(false)
    });
    if mine {
        Ok(())
    } else {
        Err(ResolveError::ForeignUpload {
            path: shown.to_string(),
        })
    }
}

/// How cancellable blocking work ended without a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockingError {
    Cancelled,
    Panicked,
}

/// Runs `f` on the blocking pool. On cancellation returns at once and raises the flag `f`
/// polls, so the thread stops soon after.
pub async fn run_blocking<T, F>(cancel: &CancellationToken, f: F) -> Result<T, BlockingError>
where
    T: Send + 'static,
    F: FnOnce(&AtomicBool) -> T + Send + 'static,
{
    if cancel.is_cancelled() {
        return Err(BlockingError::Cancelled);
    }
    let flag = Arc::new(AtomicBool::new(false));
    let flag2 = flag.clone();
    let handle = tokio::task::spawn_blocking(move || f(&flag2));
    tokio::select! {
        res = handle => res.map_err(|_| BlockingError::Panicked),
        () = cancel.cancelled() => {
            flag.store(true, Ordering::Relaxed);
            Err(BlockingError::Cancelled)
        }
    }
}

pub use llmops_common::{human_size, truncate_chars};

/// How long a cancelled tool may take to return its own result before it is dropped.
pub const CANCEL_GRACE: std::time::Duration = std::time::Duration::from_millis(1500);

/// Name -> tool, in registration order.
#[derive(Clone, Default)]
pub struct ToolRegistry {
    tools: Vec<Arc<dyn Tool>>,
}

impl fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.names()).finish()
    }
}

impl ToolRegistry {
    pub fn new() -> Self {
        Self::default()
    }

    /// The standard tools.
    pub fn standard(sampler: SamplerHandle, search: Arc<dyn SearchBackend>) -> Self {
        let mut r = Self::new();
        r.register(Arc::new(SysMonitorTool::new(sampler.clone())));
        r.register(Arc::new(CommandExecutorTool));
        r.register(Arc::new(SemanticSearchTool::new(search)));
        r.register(Arc::new(FileReadTool::default()));
        r.register(Arc::new(FileDownloadTool));
        r.register(Arc::new(FileUploadTool));
        r.register(Arc::new(LogQueryTool::default()));
        r.register(Arc::new(SystemQueryTool::new(sampler)));
        r
    }

    /// Adds a tool; one with the same name is replaced in place (keeping the order).
    pub fn register(&mut self, tool: Arc<dyn Tool>) {
        match self.tools.iter_mut().find(|t| t.name() == tool.name()) {
            Some(slot) => *slot = tool,
            None => self.tools.push(tool),
        }
    }

    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name).cloned()
    }

    pub fn names(&self) -> Vec<&'static str> {
        self.tools.iter().map(|t| t.name()).collect()
    }

    /// OpenAI function-calling tool list:
    /// `[{"type":"function","function":{"name","description","parameters"}}]`.
    pub fn schemas(&self) -> Vec<Value> {
        self.tools
            .iter()
            .map(|t| {
                json!({
                    "type": "function",
                    "function": {
                        "name": t.name(),
                        "description": t.description(),
                        "parameters": t.schema(),
                    }
                })
            })
            .collect()
    }

    /// Calls the tool `args` are for. The tools read their arguments from JSON (the
    /// model's wire), so typed arguments cross the `Tool::call` boundary as their JSON.
    pub async fn call_args(&self, args: &ToolArgs, ctx: &ToolCtx) -> ToolResult {
        self.call(args.tool().as_str(), args.to_json(), ctx).await
    }

    /// Calls a tool by name: unknown names, panics and cancellation become failed results,
    /// and `duration_ms` is measured here.
    pub async fn call(&self, name: &str, args: Value, ctx: &ToolCtx) -> ToolResult {
        let start = Instant::now();
        let mut result = match self.get(name) {
            None => ToolResult::failure(format!(
                "未知工具: {name}（可用: {}）",
                self.names().join(", ")
            )),
            Some(tool) => {
                let fut = std::panic::AssertUnwindSafe(tool.call(args, ctx)).catch_unwind();
                tokio::pin!(fut);
                let done = |r: std::thread::Result<ToolResult>| {
                    r.unwrap_or_else(|_| {
                        tracing::error!(tool = name, "tool panicked");
                        ToolResult::failure(format!("工具内部错误: {name}"))
                    })
                };
                tokio::select! {
                    r = &mut fut => done(r),
                    () = ctx.cancel.cancelled() => {
                        // A tool that honours cancellation returns its own result (a
                        // follow returns the lines it collected); one that does not is
                        // dropped after the grace period.
                        match tokio::time::timeout(CANCEL_GRACE, &mut fut).await {
                            Ok(r) => done(r),
                            Err(_) => ToolResult::cancelled(),
                        }
                    }
                }
            }
        };
        result.duration_ms = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
        result
    }
}

#[cfg(test)]
pub(crate) mod testutil {
    //! Shared fixtures for tool tests: a temp data dir, policies, a Vec-backed catalog.

    use super::*;
    use llmops_policy::{CommandPolicyConfig, PathPolicyConfig};
    use std::sync::Mutex;

    #[derive(Default)]
    pub struct VecCatalog {
        pub files: Mutex<Vec<(String, UploadRef)>>,
    }

    impl UploadCatalog for VecCatalog {
        fn list(&self, session_id: &str) -> Vec<UploadRef> {
            self.files
                .lock()
                .expect("catalog lock")
                .iter()
                .filter(|(s, _)| s == session_id)
                .map(|(_, u)| u.clone())
                .collect()
        }
    }

    pub struct Env {
        pub _tmp: tempfile::TempDir,
        pub root: PathBuf,
        pub data: PathBuf,
        pub docs: PathBuf,
        pub catalog: Arc<VecCatalog>,
        pub ctx: ToolCtx,
    }

    impl Env {
        pub fn new() -> Env {
            let tmp = tempfile::tempdir().expect("tempdir");
            let root = std::fs::canonicalize(tmp.path()).expect("canon");
            let data = root.join("data");
            let docs = root.join("docs");
            std::fs::create_dir_all(data.join("uploads")).expect("mkdir");
            std::fs::create_dir_all(&docs).expect("mkdir");
            let catalog = Arc::new(VecCatalog::default());
            let ctx = ToolCtx {
                session_id: "s1".into(),
                client: None,
                paths: Arc::new(PathPolicy::new(&PathPolicyConfig::with_defaults(
                    &data,
                    std::slice::from_ref(&docs),
                ))),
                commands: Arc::new(CommandPolicy::new(CommandPolicyConfig::with_defaults(
                    &data,
                ))),
                audit: Audit::open(&data).expect("audit"),
                data_dir: data.clone(),
                cancel: CancellationToken::new(),
                uploads: catalog.clone(),
                live: LiveSink::none(),
                budget: TimeBudget::default(),
                follow: FollowLimits::default(),
            };
            Env {
                _tmp: tmp,
                root,
                data,
                docs,
                catalog,
                ctx,
            }
        }

        /// Stores a file as the upload pipeline would and records it for `session`.
        pub fn upload(&self, session: &str, filename: &str, content: &[u8], at: &str) -> UploadRef {
            let file_id = format!(
                "id-{}-{}",
                session,
                self.catalog.files.lock().expect("lock").len()
            );
            let dir = self.data.join("uploads").join(&file_id);
            std::fs::create_dir_all(&dir).expect("mkdir");
            let path = dir.join(filename);
            std::fs::write(&path, content).expect("write");
            let u = UploadRef {
                file_id,
                filename: filename.into(),
                path,
                size: content.len() as u64,
                sha256: "0".repeat(64),
                uploaded_at: at.into(),
                content_type: "text/plain".into(),
                columns: Vec::new(),
                format: None,
            };
            self.catalog
                .files
                .lock()
                .expect("lock")
                .push((session.into(), u.clone()));
            u
        }

        pub fn audit_log(&self) -> String {
            std::fs::read_to_string(self.data.join("logs/file_operations.log")).unwrap_or_default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::testutil::Env;
    use super::*;

    struct Sleepy;
    impl Tool for Sleepy {
        fn name(&self) -> &'static str {
            "sleepy"
        }
        fn description(&self) -> &'static str {
            "sleeps"
        }
        fn schema(&self) -> Value {
            json!({"type": "object", "properties": {}})
        }
        fn call<'a>(&'a self, _args: Value, _ctx: &'a ToolCtx) -> ToolFuture<'a> {
            Box::pin(async {
                tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
                ToolResult::success("done", ToolData::None)
            })
        }
    }

    struct Panicky;
    impl Tool for Panicky {
        fn name(&self) -> &'static str {
            "panicky"
        }
        fn description(&self) -> &'static str {
            "panics"
        }
        fn schema(&self) -> Value {
            json!({"type": "object", "properties": {}})
        }
        fn call<'a>(&'a self, _args: Value, _ctx: &'a ToolCtx) -> ToolFuture<'a> {
            Box::pin(async { panic!("boom") })
        }
    }

    #[test]
    fn tools_result_summary_is_short_and_specific() {
        let r = ToolResult::success(format!("\n{}\nsecond", "x".repeat(300)), ToolData::None);
        assert_eq!(r.summary().chars().count(), 120);
        assert!(r.summary().ends_with('…'));
        let f = ToolResult::failure("路径不在白名单中: /etc");
        assert_eq!(f.summary(), "失败: 路径不在白名单中: /etc");
        assert_eq!(f.output, "错误: 路径不在白名单中: /etc");
    }

    #[test]
    fn tools_registry_schemas_are_openai_function_format() {
        let sampler = SamplerHandle::fixed(Snapshot::default());
        let env = Env::new();
        let search = Arc::new(RawTextSearch::new(
            env.ctx.uploads.clone(),
            vec![env.docs.clone()],
            env.ctx.paths.clone(),
            Some(env.ctx.uploads_root()),
        ));
        let reg = ToolRegistry::standard(sampler, search);
        assert_eq!(
            reg.names(),
            vec![
                "sys_monitor",
                "command_executor",
                "semantic_search",
                "file_read",
                "file_download",
                "file_upload",
                "log_query",
                "system_query"
            ]
        );
        for s in reg.schemas() {
            assert_eq!(s["type"], "function");
            assert!(s["function"]["name"].is_string());
            assert!(!s["function"]["description"]
                .as_str()
                .unwrap_or("")
                .is_empty());
            assert_eq!(s["function"]["parameters"]["type"], "object");
            assert!(s["function"]["parameters"]["properties"].is_object());
        }
    }

    // Paused time: the cancel grace of the sleeper (which ignores cancellation) passes at once.
    #[tokio::test(start_paused = true)]
    async fn tools_registry_unknown_tool_panic_and_cancel() {
        let env = Env::new();
        let mut reg = ToolRegistry::new();
        reg.register(Arc::new(Sleepy));
        reg.register(Arc::new(Panicky));
        let r = reg.call("nope", Value::Null, &env.ctx).await;
        assert!(!r.ok);
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("未知工具: nope"));
        let r = reg.call("panicky", Value::Null, &env.ctx).await;
        assert_eq!(r.error.as_deref(), Some("工具内部错误: panicky"));
        let ctx = env.ctx.clone();
        let cancel = ctx.cancel.clone();
        let task = tokio::spawn(async move { reg.call("sleepy", Value::Null, &ctx).await });
        cancel.cancel();
        let r = task.await.expect("join");
        assert_eq!(r.error.as_deref(), Some("操作已取消 (cancelled)"));
    }

    #[test]
    fn tools_parse_args_accepts_null_and_string_json() {
        #[derive(serde::Deserialize)]
        struct A {
            #[serde(default)]
            x: u32,
        }
        assert_eq!(parse_args::<A>(Value::Null).expect("null").x, 0);
        assert_eq!(parse_args::<A>(json!("{\"x\": 3}")).expect("str").x, 3);
        assert!(parse_args::<A>(json!({"x": "no"}))
            .err()
            .unwrap_or_default()
            .starts_with("参数错误"));
    }

    #[test]
    fn tools_resolve_prefers_session_uploads_and_isolates_sessions() {
        let env = Env::new();
        let mine = env.upload("s1", "config.yaml", b"port: 1", "2025-01-01T00:00:00Z");
        let theirs = env.upload("s2", "other.txt", b"x", "2025-01-01T00:00:00Z");
        assert_eq!(
            resolve_user_path(&env.ctx, "config.yaml").expect("mine"),
            mine.path
        );
        let tail = format!("{}/config.yaml", mine.file_id);
        assert_eq!(resolve_user_path(&env.ctx, &tail).expect("tail"), mine.path);
        let e =
            resolve_user_path(&env.ctx, &theirs.path.display().to_string()).expect_err("foreign");
        assert!(matches!(e, ResolveError::ForeignUpload { .. }));
        assert!(e.to_string().starts_with("该文件不属于本会话的上传"));
        // A bare name of another session's file is not among mine: it resolves in the
        // working dir (uploads root), where it does not exist.
        let p = resolve_user_path(&env.ctx, "other.txt").expect("resolves");
        assert_eq!(p, env.ctx.uploads_root().join("other.txt"));
        assert!(!p.exists());
    }

    #[test]
    fn tools_full_output_split() {
        let mut s = "héllo\nworld\n".to_string();
        let mut t = false;
        assert_eq!(FullOutput::split(&mut s, &mut t, 100), None);
        assert!(!t);
        let f = FullOutput::split(&mut s, &mut t, 2).expect("cut");
        assert_eq!(s, "h", "cut at a character boundary");
        assert!(t);
        assert_eq!(f.text, "héllo\nworld\n");
        assert_eq!(f.produced, 13);
        let mut s = "abc".to_string();
        let mut t = true;
        let f = FullOutput::split(&mut s, &mut t, 100).expect("capture was cut");
        assert_eq!(s, "abc");
        assert!(f.text.starts_with("abc\n[输出超过"), "{}", f.text);
    }

    #[test]
    fn tools_human_size() {
        assert_eq!(human_size(10), "10 B");
        assert_eq!(human_size(1536), "1.5 KiB");
        assert_eq!(human_size(5 * 1024 * 1024), "5.0 MiB");
    }
}
