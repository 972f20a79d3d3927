//! What `run_action` returns: every stage of one approved (or refused) action, where it
//! ended, its exit code and what verification saw of its effect.

use std::time::Duration;

use serde::Serialize;

/// How long an action may run (a `systemctl restart` waits for the unit to start); the
/// summary of a timed-out stage quotes it.
pub const ACTION_TIMEOUT: Duration = Duration::from_secs(90);

/// Where a proposed action ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ActionState {
    /// It ran (see the exit code and the verification).
    Ran,
    /// A deny rule or the grammar refused it: never offered for approval.
    Denied,
    Rejected,
    Expired,
    /// The client cannot approve (legacy).
    Unsupported,
    /// The turn was cancelled while waiting.
    Cancelled,
    /// Approved, but it could not start (not installed, refused by the re-check).
    Failed,
}

impl ActionState {
    pub fn as_str(self) -> &'static str {
        match self {
            ActionState::Ran => "ran",
            ActionState::Denied => "denied",
            ActionState::Rejected => "rejected",
            ActionState::Expired => "expired",
            ActionState::Unsupported => "unsupported",
            ActionState::Cancelled => "cancelled",
            ActionState::Failed => "failed",
        }
    }
}

/// What verification concluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The expected effect is seen.
    Confirmed,
    /// The expected effect is not seen (the detail says what was).
    NotConfirmed,
    /// Nothing to check with (configured actions, a check that could not run).
    NotChecked,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Verification {
    pub verdict: Verdict,
    /// What was seen, one sentence, Chinese first.
    pub detail: String,
}

/// `ToolData::Action`: one proposed action and what became of it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionData {
    /// `systemctl restart`, `kill`, `journalctl vacuum` or a configured action's name.
    pub action: String,
    /// Exactly what ran (or would have run).
    pub argv: Vec<String>,
    pub state: ActionState,
    pub approval_id: Option<String>,
    pub grant_id: Option<String>,
    /// None when it did not run, timed out or was ended by a signal.
    pub exit_code: Option<i32>,
    pub duration_ms: u64,
    pub timed_out: bool,
    /// stdout then stderr, each bounded.
    pub output: String,
    pub verification: Option<Verification>,
    /// Why it did not run, in one sentence.
    pub detail: Option<String>,
}

impl ActionData {
    /// A proposal that did not run, and why.
    pub fn not_run(
        action: String,
        argv: Vec<String>,
        state: ActionState,
        approval_id: Option<String>,
        detail: String,
    ) -> ActionData {
        ActionData {
            action,
            argv,
            state,
            approval_id,
            grant_id: None,
            exit_code: None,
            duration_ms: 0,
            timed_out: false,
            output: String::new(),
            verification: None,
            detail: Some(detail),
        }
    }

    /// One paragraph for the answer: what ran, its exit code and what verification saw, or
    /// that it did not run and why.
    pub fn summary(&self) -> String {
        let cmd = self.argv.join(" ");
        match self.state {
            ActionState::Ran => {
                let code = match (self.exit_code, self.timed_out) {
                    (_, true) => format!(
                        "超时 ({} 秒) 被终止 / timed out after {} s and was stopped",
                        ACTION_TIMEOUT.as_secs(),
                        ACTION_TIMEOUT.as_secs()
                    ),
                    (Some(c), _) => format!("退出码 {c} / exit code {c}"),
                    (None, _) => "被信号终止，无退出码 / ended by a signal, no exit code".into(),
                };
                let mut s = format!("已执行 `{cmd}`，{code}。/ Ran `{cmd}`.");
                if let Some(v) = &self.verification {
                    s.push_str(&format!("\n验证 / verification: {}", v.detail));
                }
                s
            }
            state => format!(
                "未执行 `{cmd}` ({}): {} / not run",
                state.as_str(),
                self.detail.as_deref().unwrap_or("")
            ),
        }
    }

    /// Whether it ran and exited 0.
    pub fn succeeded(&self) -> bool {
        self.state == ActionState::Ran && self.exit_code == Some(0) && !self.timed_out
    }
}

/// `ToolData::Actions`: every stage of one `run_action` call, in order.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ActionsData {
    pub actions: Vec<ActionData>,
}
