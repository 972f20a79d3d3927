//! Runs a validated pipeline without a shell: every program located in a fixed search path
//! first (a missing one is reported as not installed before anything starts), explicit argv,
//! cleared environment, stdout of each stage piped straight into stdin of the next (in-process
//! grep stages stream through an in-memory pipe), stdout/stderr capped. Timeout, cancellation
//! and a full output cap kill and reap every stage; what was collected until then is kept.

use std::path::{Path, PathBuf};
use std::process::{ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt, DuplexStream};
use tokio::process::{Child, ChildStdout};
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;

use crate::grep::{self, GrepStatus};
use llmops_policy::{GrepOptions, Pipeline, ValidatedCommand};

pub use llmops_policy::SAFE_PATH;

/// How long, after a timeout or cancellation killed the stages, the readers may take to
/// collect what is still in the pipes.
const DRAIN_AFTER_KILL: Duration = Duration::from_millis(500);

/// In-memory pipe size between an in-process grep stage and its neighbour.
const STREAM_PIPE: usize = 64 * 1024;

/// How a run ended.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExecOutcome {
    /// Exit code of the last stage (as a shell without pipefail); None when killed (timeout,
    /// cancellation) or terminated by a signal.
    pub exit_code: Option<i32>,
    /// Exit code of every stage, in order.
    pub stage_exit_codes: Vec<Option<i32>>,
    /// Output of the last stage (what was collected, also on timeout).
    pub stdout: String,
    /// Error output of every stage, in order.
    pub stderr: String,
    /// Output exceeded the cap and was cut.
    pub truncated: bool,
    pub timed_out: bool,
    pub cancelled: bool,
    /// The output cap was reached and every stage was stopped there (`truncated` is set).
    pub stopped_at_cap: bool,
    /// Process id of the first external stage (None when every stage is in-process grep).
    pub pid: Option<u32>,
    /// Process ids of every external stage.
    pub pids: Vec<u32>,
    /// A program of the pipeline is not installed: the user-facing message.
    pub not_installed: Option<String>,
    /// Could not start at all.
    pub spawn_error: Option<String>,
}

/// `命令未安装: lsof（本机未安装该命令 / not installed on this host）`.
pub fn not_installed_message(program: &str) -> String {
    format!("命令未安装: {program}（本机未安装该命令 / not installed on this host）")
}

/// Finds `program` in `search` (executable regular files only).
pub fn locate(program: &str, search: &[PathBuf]) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    search.iter().map(|d| d.join(program)).find(|p| {
        std::fs::metadata(p)
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    })
}

fn safe_search_path() -> Vec<PathBuf> {
    SAFE_PATH.split(':').map(PathBuf::from).collect()
}

/// Bytes kept from a stream, at most `cap`; the rest is drained so no writer ever blocks.
#[derive(Debug, Default)]
struct Capture {
    buf: Vec<u8>,
    cap: usize,
    truncated: bool,
}

type Shared<T> = Arc<Mutex<T>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Reads `r` into `into`. When `full` is given it is raised once the cap is exceeded (the
/// pipeline output: the run stops there); otherwise the rest is drained so no writer blocks.
async fn drain<R: AsyncRead + Unpin>(
    mut r: R,
    into: Shared<Capture>,
    full: Option<CancellationToken>,
) {
    let mut chunk = vec![0u8; 16 * 1024];
    loop {
        match r.read(&mut chunk).await {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                let mut c = lock(&into);
                let room = c.cap.saturating_sub(c.buf.len());
                if n > room {
                    c.truncated = true;
                    if let Some(f) = &full {
                        f.cancel();
                    }
                }
                c.buf.extend_from_slice(&chunk[..n.min(room)]);
            }
        }
    }
}

fn take_capture(c: &Shared<Capture>) -> (String, bool) {
    let c = lock(c);
    (String::from_utf8_lossy(&c.buf).into_owned(), c.truncated)
}

/// What feeds the next stage.
enum Upstream {
    None,
    Child(ChildStdout),
    Stream(DuplexStream),
}

/// Runs one validated command with `timeout`, killing it on timeout or cancellation.
pub async fn execute(
    cmd: &ValidatedCommand,
    timeout: Duration,
    max_output: usize,
    cancel: &CancellationToken,
) -> ExecOutcome {
    run_stages(
        std::slice::from_ref(cmd),
        timeout,
        max_output,
        cancel,
        &safe_search_path(),
    )
    .await
}

/// Runs a validated pipeline with `timeout`, killing every stage on timeout or cancellation.
pub async fn execute_pipeline(
    p: &Pipeline,
    timeout: Duration,
    max_output: usize,
    cancel: &CancellationToken,
) -> ExecOutcome {
    run_stages(&p.stages, timeout, max_output, cancel, &safe_search_path()).await
}

async fn kill_and_reap(children: &mut [Child], statuses: &mut [Option<ExitStatus>]) {
    for c in children.iter_mut() {
        if let Err(e) = c.start_kill() {
            // Already exited (and reaped) is the common reason; nothing else to do.
            tracing::debug!("kill of a pipeline stage failed: {e}");
        }
    }
    for (k, c) in children.iter_mut().enumerate() {
        let st = c.wait().await.ok();
        if let Some(slot) = statuses.get_mut(k) {
            if slot.is_none() {
                *slot = st;
            }
        }
    }
}

/// Runs `stages` (already validated), locating programs in `search`.
pub(crate) async fn run_stages(
    stages: &[ValidatedCommand],
    timeout: Duration,
    max_output: usize,
    cancel: &CancellationToken,
    search: &[PathBuf],
) -> ExecOutcome {
    if cancel.is_cancelled() {
        return ExecOutcome {
            cancelled: true,
            ..Default::default()
        };
    }
    let programs = match locate_all(stages, search) {
        Ok(p) => p,
        Err(missing) => {
            return ExecOutcome {
                not_installed: Some(not_installed_message(missing)),
                ..Default::default()
            }
        }
    };
    let Some(first) = stages.first() else {
        return ExecOutcome {
            spawn_error: Some("空命令 (empty pipeline)".into()),
            ..Default::default()
        };
    };
    let cwd: &Path = &first.cwd;
    // The working dir is inside the allow-list (checked by the policy); it may not exist yet
    // on a fresh data dir.
    if let Err(e) = tokio::fs::create_dir_all(cwd).await {
        return ExecOutcome {
            spawn_error: Some(format!("无法创建工作目录 {}: {e}", cwd.display())),
            ..Default::default()
        };
    }
    let mut run = Running::new(stages.len(), max_output);
    let upstream = match run.spawn_all(stages, &programs, cwd).await {
        Ok(u) => u,
        Err(why) => {
            return ExecOutcome {
                spawn_error: Some(why),
                ..Default::default()
            }
        }
    };
    let full = CancellationToken::new();
    match upstream {
        Upstream::Child(o) => {
            run.tasks
                .spawn(drain(o, run.out_cap.clone(), Some(full.clone())));
        }
        Upstream::Stream(d) => {
            run.tasks
                .spawn(drain(d, run.out_cap.clone(), Some(full.clone())));
        }
        Upstream::None => {}
    }
    let pids: Vec<u32> = run.children.iter().filter_map(Child::id).collect();
    let mut statuses: Vec<Option<ExitStatus>> = vec![None; run.children.len()];
    let end = run.wait(&mut statuses, timeout, cancel, &full).await;
    run.outcome(stages.len(), &statuses, end, pids)
}

/// Every external stage's program (`None` for an in-process grep stage); the first
/// program that is not installed otherwise, so nothing starts.
fn locate_all<'a>(
    stages: &'a [ValidatedCommand],
    search: &[PathBuf],
) -> Result<Vec<Option<PathBuf>>, &'a str> {
    let mut programs: Vec<Option<PathBuf>> = Vec::with_capacity(stages.len());
    for s in stages {
        if s.grep.is_some() {
            programs.push(None);
            continue;
        }
        match locate(&s.program, search) {
            Some(p) => programs.push(Some(p)),
            None => return Err(&s.program),
        }
    }
    Ok(programs)
}

/// How a run ended.
enum End {
    Done,
    TimedOut,
    Cancelled,
    Full,
}

/// A started pipeline: its external children (and the stage each one is), the tasks that
/// feed, filter and drain it, and where its output and every stage's errors land.
struct Running {
    out_cap: Shared<Capture>,
    err_caps: Vec<Shared<Capture>>,
    grep_slots: Vec<Shared<Option<GrepStatus>>>,
    children: Vec<Child>,
    child_stage: Vec<usize>,
    tasks: JoinSet<()>,
}

impl Running {
    fn new(stages: usize, max_output: usize) -> Running {
        let capture = || {
            Arc::new(Mutex::new(Capture {
                cap: max_output,
                ..Default::default()
            }))
        };
        Running {
            out_cap: capture(),
            err_caps: (0..stages).map(|_| capture()).collect(),
            grep_slots: (0..stages).map(|_| Arc::new(Mutex::new(None))).collect(),
            children: Vec::new(),
            child_stage: Vec::new(),
            tasks: JoinSet::new(),
        }
    }

    /// Starts every stage, each reading the one before; returns the last stage's output.
    /// On a failure (the error is the user-facing message) the stages already started are
    /// killed and reaped.
    async fn spawn_all(
        &mut self,
        stages: &[ValidatedCommand],
        programs: &[Option<PathBuf>],
        cwd: &Path,
    ) -> Result<Upstream, String> {
        let mut upstream = Upstream::None;
        for (i, (stage, program)) in stages.iter().zip(programs).enumerate() {
            let input = std::mem::replace(&mut upstream, Upstream::None);
            if let Some(opts) = stage.grep.clone() {
                upstream = self.spawn_grep(i, opts, input);
                continue;
            }
            let Some(program) = program else {
                continue;
            };
            upstream = self.spawn_external(i, stage, program, input, cwd).await?;
        }
        Ok(upstream)
    }

    /// Stage `i` as an in-process grep task streaming into an in-memory pipe.
    fn spawn_grep(&mut self, i: usize, opts: GrepOptions, input: Upstream) -> Upstream {
        let reader: Option<Box<dyn AsyncRead + Unpin + Send>> = match input {
            Upstream::None => None,
            Upstream::Child(o) => Some(Box::new(o)),
            Upstream::Stream(d) => Some(Box::new(d)),
        };
        let (w, r) = tokio::io::duplex(STREAM_PIPE);
        let slot = self.grep_slots[i].clone();
        self.tasks.spawn(async move {
            let st = grep::run(&opts, reader, w).await;
            *lock(&slot) = Some(st);
        });
        Upstream::Stream(r)
    }

    /// Stage `i` as a child process reading `input`; its stderr is drained in the
    /// background.
    async fn spawn_external(
        &mut self,
        i: usize,
        stage: &ValidatedCommand,
        program: &Path,
        input: Upstream,
        cwd: &Path,
    ) -> Result<Upstream, String> {
        let mut feed: Option<DuplexStream> = None;
        let stdin: Stdio = match input {
            Upstream::None => Stdio::null(),
            Upstream::Child(o) => match o.try_into() {
                Ok(s) => s,
                Err(e) => {
                    let mut statuses = vec![None; self.children.len()];
                    kill_and_reap(&mut self.children, &mut statuses).await;
                    return Err(format!("无法连接管道 (pipe setup failed): {e}"));
                }
            },
            Upstream::Stream(d) => {
                feed = Some(d);
                Stdio::piped()
            }
        };
        let mut command = stage_command(stage, program, cwd, stdin);
        let spawned = command.spawn();
        // Drop the command now: it still holds the previous stage's pipe end otherwise.
        drop(command);
        let mut child = match spawned {
            Ok(c) => c,
            Err(e) => {
                let mut statuses = vec![None; self.children.len()];
                kill_and_reap(&mut self.children, &mut statuses).await;
                let why = if e.kind() == std::io::ErrorKind::NotFound {
                    not_installed_message(&stage.program)
                } else {
                    format!("无法启动命令 {}: {e}", stage.program)
                };
                return Err(why);
            }
        };
        if let (Some(mut d), Some(mut sink)) = (feed, child.stdin.take()) {
            self.tasks.spawn(async move {
                // A broken pipe means the stage exited early (like `head`): not an error.
                if let Err(e) = tokio::io::copy(&mut d, &mut sink).await {
                    tracing::debug!("pipeline feed ended: {e}");
                }
            });
        }
        if let Some(err) = child.stderr.take() {
            self.tasks.spawn(drain(err, self.err_caps[i].clone(), None));
        }
        let upstream = match child.stdout.take() {
            Some(o) => Upstream::Child(o),
            None => Upstream::None,
        };
        self.children.push(child);
        self.child_stage.push(i);
        Ok(upstream)
    }

    /// Waits for the pipeline to finish, the timeout, cancellation or the output cap
    /// (`full`); anything but a finish stops every stage. Fills `statuses`.
    async fn wait(
        &mut self,
        statuses: &mut [Option<ExitStatus>],
        timeout: Duration,
        cancel: &CancellationToken,
        full: &CancellationToken,
    ) -> End {
        let end = {
            let run = async {
                for (k, c) in self.children.iter_mut().enumerate() {
                    statuses[k] = c.wait().await.ok();
                }
                while self.tasks.join_next().await.is_some() {}
            };
            tokio::select! {
                biased;
                () = cancel.cancelled() => End::Cancelled,
                () = tokio::time::sleep(timeout) => End::TimedOut,
                () = run => End::Done,
                () = full.cancelled() => End::Full,
            }
        };
        if !matches!(end, End::Done) {
            self.stop(statuses, matches!(end, End::TimedOut)).await;
        }
        end
    }

    /// Stops a pipeline that did not finish by itself and collects what is in the pipes.
    async fn stop(&mut self, statuses: &mut [Option<ExitStatus>], timed_out: bool) {
        if timed_out {
            // Cut the pipeline at its source: stop the first external stage, so the later
            // stages see end of input, pass on what they hold and exit by themselves.
            if let Some(c) = self.children.first_mut() {
                if let Err(e) = c.start_kill() {
                    tracing::debug!("kill of the first stage failed: {e}");
                }
            }
            let rest = async {
                for (k, c) in self.children.iter_mut().enumerate() {
                    statuses[k] = c.wait().await.ok();
                }
                while self.tasks.join_next().await.is_some() {}
            };
            if tokio::time::timeout(DRAIN_AFTER_KILL, rest).await.is_ok() {
                // Everything ended and was collected.
                self.children.clear();
            }
        }
        // Kill and reap whatever is left (kill_on_drop alone would leave zombies until
        // tokio's orphan reaper runs), then let the readers collect what is in the pipes.
        kill_and_reap(&mut self.children, statuses).await;
        let collect = async { while self.tasks.join_next().await.is_some() {} };
        if tokio::time::timeout(DRAIN_AFTER_KILL, collect)
            .await
            .is_err()
        {
            self.tasks.abort_all();
        }
    }

    /// The outcome: exit codes per stage (in-process grep's own), the output, every
    /// stage's errors, and how it ended.
    fn outcome(
        &self,
        stages: usize,
        statuses: &[Option<ExitStatus>],
        end: End,
        pids: Vec<u32>,
    ) -> ExecOutcome {
        let mut stage_exit_codes: Vec<Option<i32>> = vec![None; stages];
        for (k, st) in statuses.iter().enumerate() {
            stage_exit_codes[self.child_stage[k]] = st.and_then(|s| s.code());
        }
        let mut stderr = String::new();
        for (i, slot) in self.grep_slots.iter().enumerate() {
            let g = lock(slot).take();
            if let Some(g) = g {
                stage_exit_codes[i] = Some(g.exit_code);
                stderr.push_str(&g.stderr);
            } else {
                stderr.push_str(&take_capture(&self.err_caps[i]).0);
            }
        }
        let killed = !matches!(end, End::Done);
        let (stdout, out_trunc) = take_capture(&self.out_cap);
        let err_trunc = self.err_caps.iter().any(|c| lock(c).truncated);
        ExecOutcome {
            exit_code: if killed {
                None
            } else {
                stage_exit_codes.last().copied().flatten()
            },
            stage_exit_codes,
            stdout,
            stderr,
            truncated: out_trunc || err_trunc,
            timed_out: matches!(end, End::TimedOut),
            stopped_at_cap: matches!(end, End::Full),
            cancelled: matches!(end, End::Cancelled),
            pid: pids.first().copied(),
            pids,
            not_installed: None,
            spawn_error: None,
        }
    }
}

/// The child process of an external stage: explicit argv, cleared environment, the
/// working dir as HOME, stdout and stderr piped.
fn stage_command(
    stage: &ValidatedCommand,
    program: &Path,
    cwd: &Path,
    stdin: Stdio,
) -> tokio::process::Command {
    let mut command = tokio::process::Command::new(program);
    command
        .args(&stage.argv)
        .current_dir(cwd)
        .env_clear()
        .env("PATH", SAFE_PATH)
        .env("LC_ALL", "C.UTF-8")
        .env("HOME", cwd)
        .env("SYSTEMD_PAGER", "")
        .env("SYSTEMD_COLORS", "0")
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    command
}
