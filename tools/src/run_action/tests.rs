//! Running approved actions on a real, harmless process this test starts itself.

use std::process::{Child, Command};

use super::*;
use crate::testutil::Env;
use llmops_policy::{ActionRequest, ActionsConfig};

fn policy() -> ActionPolicy {
    ActionPolicy::new(&ActionsConfig::default(), std::process::id(), None).expect("policy")
}

fn sleeper() -> Child {
    Command::new("sleep")
        .arg("300")
        .spawn()
        .expect("spawn sleep")
}

fn propose(p: &ActionPolicy, line: &str) -> ProposedAction {
    let argv = line.split(' ').map(String::from).collect();
    let mut v = p
        .check(&ActionRequest::Argv(argv), &proc_info)
        .expect("allowed");
    assert_eq!(v.len(), 1);
    v.remove(0)
}

fn audit_text(env: &Env) -> String {
    std::fs::read_to_string(env.data.join("logs/file_operations.log")).unwrap_or_default()
}

#[tokio::test]
async fn an_approved_kill_runs_is_audited_and_verified_gone() {
    let env = Env::new();
    let mut child = sleeper();
    let pid = child.id();
    let p = policy();
    let proposal = propose(&p, &format!("kill {pid}"));
    assert_eq!(proposal.argv, ["kill", "-TERM", &pid.to_string()]);
    let approved = Approved::new(proposal, "ap-1".into(), None);
    let a = run_approved(approved, &p, &env.ctx).await;
    let r = ActionsData {
        actions: vec![a.clone()],
    }
    .into_result();
    assert_eq!(r.data.to_value()["actions"][0]["state"], "ran");
    assert_eq!(a.state, ActionState::Ran);
    assert_eq!(a.exit_code, Some(0), "{a:?}");
    assert!(r.ok, "{r:?}");
    let v = a.verification.as_ref().expect("verified");
    assert_eq!(v.verdict, Verdict::Confirmed, "{v:?}");
    assert!(
        v.detail.contains(&format!("pid {pid} is gone")),
        "{}",
        v.detail
    );
    assert!(r.output.contains(&format!("`kill -TERM {pid}`")) && r.output.contains("exit code 0"));
    // The kernel saw SIGTERM: the child ended by that signal.
    let status = child.wait().expect("wait");
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(status.signal(), Some(15));
    let log = audit_text(&env);
    let line = log
        .lines()
        .find(|l| l.contains("[ACTION_EXEC]"))
        .expect("exec record");
    assert!(
        line.contains(&format!("argv=\"kill -TERM {pid}\"")),
        "{line}"
    );
    assert!(
        line.contains("exit_code=0")
            && line.contains("approval=ap-1")
            && line.contains("session=s1"),
        "{line}"
    );
    assert!(
        crate::audit::chain::verify(&env.data.join("logs/file_operations.log"))
            .expect("verify")
            .intact()
    );
}

#[tokio::test]
async fn a_process_gone_since_the_approval_is_not_signalled() {
    let env = Env::new();
    let mut child = sleeper();
    let pid = child.id();
    let p = policy();
    let proposal = propose(&p, &format!("kill -KILL {pid}"));
    child.kill().expect("kill");
    child.wait().expect("reap");
    let a = run_approved(Approved::new(proposal, "ap-2".into(), None), &p, &env.ctx).await;
    assert!(!a.succeeded());
    assert_eq!(a.state, ActionState::Failed);
    assert!(
        a.detail
            .as_deref()
            .unwrap_or("")
            .contains("no such process"),
        "{a:?}"
    );
    let log = audit_text(&env);
    assert!(!log.contains("[ACTION_EXEC]"), "{log}");
    assert!(log.contains("[ACTION_DENIED]"), "{log}");
}

#[tokio::test]
async fn a_forged_proposal_is_refused_before_running() {
    let env = Env::new();
    let mut child = sleeper();
    let p = policy();
    let mut proposal = propose(&p, &format!("kill {}", child.id()));
    // Someone edits the argv after the check: the re-check refuses it.
    proposal.argv = vec!["kill".into(), "-KILL".into(), "1".into()];
    let a = run_approved(Approved::new(proposal, "ap-3".into(), None), &p, &env.ctx).await;
    assert_eq!(a.state, ActionState::Denied, "{a:?}");
    assert!(!audit_text(&env).contains("[ACTION_EXEC]"));
    assert!(matches!(proc_state(child.id()), ProcState::Alive { .. }));
    child.kill().expect("kill");
    child.wait().expect("reap");
}

#[tokio::test]
async fn run_argv_bounds_output_and_times_out() {
    let cancel = tokio_util::sync::CancellationToken::new();
    let argv: Vec<String> = ["seq", "1", "100000"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let r = run_argv(&argv, Duration::from_secs(20), 1000, &cancel).await;
    assert_eq!(r.exit_code, Some(0));
    assert_eq!(r.stdout.len(), 1000);
    assert!(r.truncated);
    let argv: Vec<String> = ["sleep", "30"].iter().map(|s| s.to_string()).collect();
    let r = run_argv(&argv, Duration::from_millis(200), 1000, &cancel).await;
    assert!(r.timed_out && r.exit_code.is_none());
    let missing = vec!["no-such-program-xyz".to_string()];
    let r = run_argv(&missing, Duration::from_secs(1), 1000, &cancel).await;
    assert!(r
        .spawn_error
        .expect("not installed")
        .starts_with("命令未安装"));
}

#[test]
fn journal_disk_usage_is_quoted_as_journalctl_prints_it() {
    assert_eq!(
        verify::parse_disk_usage("Archived and active journals take up 1.1G in the file system.\n"),
        Some("1.1G".into())
    );
    assert_eq!(
        verify::parse_disk_usage("No journal files were found.\n"),
        None
    );
}

#[test]
fn the_registry_cannot_run_actions() {
    // `run_action` is a tool name (models propose it) but never a registered tool: a call
    // by name through the registry is an unknown tool, so only `run_approved` runs actions.
    assert_eq!(
        llmops_common::ToolName::parse("run_action"),
        Some(llmops_common::ToolName::RunAction)
    );
    assert!(!llmops_common::ToolName::ALL.contains(&llmops_common::ToolName::RunAction));
}

/// A transient unit the test starts itself: restart → active, stop → inactive. Only where
/// systemd runs (and the test may start units); elsewhere it says why it skipped.
#[tokio::test]
async fn a_restarted_then_stopped_transient_unit_is_verified() {
    if !std::path::Path::new("/run/systemd/system").is_dir() {
        eprintln!("skipped: systemd is not running here (/run/systemd/system absent)");
        return;
    }
    let unit = format!("llmops-act-test-{}.service", std::process::id());
    let started = Command::new("systemd-run")
        .args(["--unit", &unit, "--quiet", "sleep", "300"])
        .status();
    if !started.is_ok_and(|s| s.success()) {
        eprintln!("skipped: cannot start a transient unit with systemd-run (not root?)");
        return;
    }
    let env = Env::new();
    let p = policy();
    let restart = propose(&p, &format!("systemctl restart {unit}"));
    let a = run_approved(Approved::new(restart, "ap-r".into(), None), &p, &env.ctx).await;
    assert_eq!(a.exit_code, Some(0), "{a:?}");
    let v = a.verification.expect("verified");
    assert_eq!(v.verdict, Verdict::Confirmed, "{v:?}");
    assert!(
        v.detail
            .starts_with(&format!("systemctl is-active {unit}: active")),
        "{}",
        v.detail
    );
    let stop = propose(&p, &format!("systemctl stop {unit}"));
    let a = run_approved(Approved::new(stop, "ap-s".into(), None), &p, &env.ctx).await;
    let v = a.verification.expect("verified");
    assert_eq!(v.verdict, Verdict::Confirmed, "{v:?}");
}
