//! Mutating actions the agent may propose for the operator's approval: the argv grammar of
//! the built-in actions (`grammar`), operator-defined actions from `[[actions.custom]]`
//! (`custom`), the deny rules no approval unlocks (`deny`), and `ActionPolicy::check`,
//! which turns a request into one `ProposedAction` per stage (a compound request, a unit
//! list or a pid list is approved stage by stage; one denied stage denies the whole
//! request, naming it). Pure: the caller passes what it knows about live processes.
//!
//! "Approve always" scope: the exact argv for every kind. A unit restart is the same act each
//! time; a pid is ephemeral (pid 4242 tomorrow is another process), and "any pid" is far
//! wider than what the operator saw, so a kill grant is never widened to `{pid}`.

mod custom;
mod deny;
mod error;
pub mod grammar;

use std::collections::BTreeMap;

use serde::Deserialize;

pub use custom::{CustomAction, CustomActionConfig, ParamKind};
pub use deny::{
    canonical_unit, DenyRules, ProcInfo, DEFAULT_DENY_PROCESS_NAMES, DEFAULT_DENY_UNITS,
    DEFAULT_SERVER_UNIT,
};
pub use error::{ActionConfigError, ActionError};
pub use grammar::{Signal, SystemctlVerb, Vacuum};

use crate::command::FORBIDDEN_ARG_CHARS;
use crate::grant::GrantRule;

/// Most stages one request may have.
pub const MAX_STAGES: usize = 8;
/// Tokens that separate the stages of a compound request.
pub const STAGE_SEPARATORS: &[&str] = &["&&", "||", ";", "|", "&"];

/// `[actions]` in server.toml. The deny lists add to the defaults.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ActionsConfig {
    #[serde(default)]
    pub deny_units: Vec<String>,
    #[serde(default)]
    pub deny_pids: Vec<u32>,
    #[serde(default)]
    pub deny_process_names: Vec<String>,
    /// The server's own unit (default `llmops-server.service`): always denied.
    #[serde(default)]
    pub server_unit: Option<String>,
    /// `[[actions.custom]]`.
    #[serde(default)]
    pub custom: Vec<CustomActionConfig>,
}

/// What the agent asks for: an argv (possibly compound), or a configured action by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionRequest {
    Argv(Vec<String>),
    Configured {
        name: String,
        params: BTreeMap<String, String>,
    },
}

/// The kind of one checked stage.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ActionKind {
    Systemctl {
        verb: SystemctlVerb,
        unit: String,
    },
    Kill {
        signal: Signal,
        pid: u32,
    },
    JournalVacuum(Vacuum),
    Configured {
        name: String,
        params: BTreeMap<String, String>,
    },
}

impl ActionKind {
    /// `systemctl restart`, `kill`, `journalctl vacuum`, or the configured action's name.
    pub fn name(&self) -> String {
        match self {
            ActionKind::Systemctl { verb, .. } => format!("systemctl {}", verb.as_str()),
            ActionKind::Kill { .. } => "kill".into(),
            ActionKind::JournalVacuum(_) => "journalctl vacuum".into(),
            ActionKind::Configured { name, .. } => name.clone(),
        }
    }
}

/// One stage that passed the grammar and the deny rules: exactly what would run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProposedAction {
    /// The canonical argv (no shell).
    pub argv: Vec<String>,
    pub action: ActionKind,
    /// What "approve always" grants: the exact argv (see the module doc).
    pub always: GrantRule,
    pub always_text: String,
    /// What can go wrong, one sentence, Chinese first.
    pub risk: String,
}

/// The grammar, the configured actions and the deny rules in force.
#[derive(Debug, Clone)]
pub struct ActionPolicy {
    deny: DenyRules,
    custom: Vec<CustomAction>,
}

impl ActionPolicy {
    /// Validates `[actions]`; `own_pid` and `parent_pid` are the server's (both denied).
    pub fn new(
        cfg: &ActionsConfig,
        own_pid: u32,
        parent_pid: Option<u32>,
    ) -> Result<ActionPolicy, ActionConfigError> {
        let deny = DenyRules::new(cfg, own_pid, parent_pid)?;
        let mut custom: Vec<CustomAction> = Vec::new();
        for c in &cfg.custom {
            let a = CustomAction::new(c)?;
            if custom.iter().any(|x| x.name == a.name) {
                return Err(ActionConfigError::Duplicate(a.name));
            }
            custom.push(a);
        }
        Ok(ActionPolicy { deny, custom })
    }

    /// The built-in grammar and the default deny rules only (no configured actions).
    pub fn defaults(own_pid: u32, parent_pid: Option<u32>) -> ActionPolicy {
        ActionPolicy {
            deny: DenyRules::defaults(own_pid, parent_pid),
            custom: Vec::new(),
        }
    }

    /// The configured actions.
    pub fn custom(&self) -> &[CustomAction] {
        &self.custom
    }

    /// Checks a request: one proposal per stage, or the first refusal (a denied stage
    /// denies the whole request; nothing is silently dropped). `procs` resolves a live pid.
    pub fn check(
        &self,
        req: &ActionRequest,
        procs: &dyn Fn(u32) -> Option<ProcInfo>,
    ) -> Result<Vec<ProposedAction>, ActionError> {
        match req {
            ActionRequest::Configured { name, params } => Ok(vec![self.configured(name, params)?]),
            ActionRequest::Argv(argv) => {
                let tokens = match argv.as_slice() {
                    [one] if one.chars().any(char::is_whitespace) => tokenize(one)?,
                    _ => argv.clone(),
                };
                let stages = split_stages(&tokens)?;
                let mut out = Vec::new();
                for stage in stages {
                    out.extend(self.stage(stage, procs)?);
                }
                Ok(out)
            }
        }
    }

    /// Defence in depth right before running: the proposal is still exactly what the
    /// grammar and today's deny rules produce (the process may have changed since).
    pub fn recheck(
        &self,
        p: &ProposedAction,
        procs: &dyn Fn(u32) -> Option<ProcInfo>,
    ) -> Result<(), ActionError> {
        let req = match &p.action {
            ActionKind::Configured { name, params } => ActionRequest::Configured {
                name: name.clone(),
                params: params.clone(),
            },
            _ => ActionRequest::Argv(p.argv.clone()),
        };
        let again = self.check(&req, procs)?;
        if again.len() == 1 && again[0] == *p {
            Ok(())
        } else {
            Err(ActionError::Injection(p.argv.join(" ")))
        }
    }

    fn configured(
        &self,
        name: &str,
        params: &BTreeMap<String, String>,
    ) -> Result<ProposedAction, ActionError> {
        let a = self
            .custom
            .iter()
            .find(|a| a.name == name)
            .ok_or_else(|| ActionError::UnknownAction(name.to_string()))?;
        let (argv, units) = a.build(params)?;
        for u in &units {
            self.deny.check_unit(u)?;
        }
        let risk = a.risk.clone().unwrap_or_else(|| {
            format!(
                "运行已配置的操作 {name}: {desc} / runs the configured action {name}: {desc}",
                desc = a.description
            )
        });
        proposal(
            argv,
            ActionKind::Configured {
                name: name.to_string(),
                params: params.clone(),
            },
            risk,
        )
    }

    fn stage(
        &self,
        stage: &[String],
        procs: &dyn Fn(u32) -> Option<ProcInfo>,
    ) -> Result<Vec<ProposedAction>, ActionError> {
        for a in stage {
            if a.is_empty()
                || a.contains(FORBIDDEN_ARG_CHARS)
                || a.chars().any(|c| c.is_whitespace() || c.is_control())
            {
                return Err(ActionError::Injection(a.clone()));
            }
        }
        let (program, args) = stage.split_first().ok_or(ActionError::EmptyStage)?;
        match program_name(program) {
            Some("systemctl") => {
                let (verb, units) = grammar::systemctl(args)?;
                for u in &units {
                    self.deny.check_unit(u)?;
                }
                units
                    .into_iter()
                    .map(|unit| {
                        let argv = vec!["systemctl".into(), verb.as_str().into(), unit.clone()];
                        proposal(
                            argv,
                            ActionKind::Systemctl { verb, unit },
                            systemctl_risk(verb),
                        )
                    })
                    .collect()
            }
            Some("kill") => {
                let (signal, pids) = grammar::kill(args)?;
                // Every pid first: one denied pid denies the whole list.
                for pid in &pids {
                    self.deny.check_pid(*pid, procs)?;
                }
                pids.into_iter()
                    .map(|pid| {
                        let argv = vec![
                            "kill".into(),
                            format!("-{}", signal.name()),
                            pid.to_string(),
                        ];
                        proposal(argv, ActionKind::Kill { signal, pid }, kill_risk(signal))
                    })
                    .collect()
            }
            Some("journalctl") => {
                let v = grammar::journalctl(args)?;
                let argv = vec!["journalctl".into(), v.arg()];
                Ok(vec![proposal(
                    argv,
                    ActionKind::JournalVacuum(v),
                    "删除较旧的日志归档，无法恢复 / deletes older archived journal files; this \
                     cannot be undone"
                        .into(),
                )?])
            }
            _ => Err(ActionError::UnknownProgram(program.clone())),
        }
    }
}

/// `systemctl`, `/usr/bin/systemctl` and `/bin/systemctl` are the same program; any other
/// path is not one of ours.
fn program_name(p: &str) -> Option<&'static str> {
    ["systemctl", "kill", "journalctl"]
        .into_iter()
        .find(|name| {
            p == *name
                || ["/usr/bin/", "/bin/"]
                    .iter()
                    .any(|d| p.strip_prefix(d) == Some(name))
        })
}

fn proposal(
    argv: Vec<String>,
    action: ActionKind,
    risk: String,
) -> Result<ProposedAction, ActionError> {
    let always = GrantRule::exact(&argv).map_err(|_| ActionError::Empty)?;
    Ok(ProposedAction {
        always_text: always.to_string(),
        argv,
        action,
        always,
        risk,
    })
}

fn systemctl_risk(verb: SystemctlVerb) -> String {
    match verb {
        SystemctlVerb::Restart => "重启会断开该服务的现有连接；若启动失败服务将保持停止 / restarting drops the service's open connections; if it fails to start it stays down",
        SystemctlVerb::Reload => "重新加载配置；配置有误时服务可能报错 / reloads the configuration; a bad configuration may make the service fail",
        SystemctlVerb::Start => "启动服务，它将开始占用端口和资源 / starts the service; it takes its ports and resources",
        SystemctlVerb::Stop => "停止后服务不可用，直到再次启动 / the service is unavailable until started again",
        SystemctlVerb::ResetFailed => "清除失败状态和重启计数，不启动也不停止服务 / clears the failed state and restart counter; does not start or stop it",
    }
    .into()
}

fn kill_risk(signal: Signal) -> String {
    match signal {
        Signal::Term | Signal::Int => "进程将被要求退出，未保存的数据可能丢失 / the process is asked to exit; unsaved work may be lost",
        Signal::Kill => "立即强制结束，进程无法清理 (临时文件、锁、未写入的数据) / killed at once with no cleanup (temp files, locks, unwritten data)",
        Signal::Hup => "多数守护进程会重新加载配置，其他进程可能退出 / most daemons reload their configuration; other processes may exit",
    }
    .into()
}

/// Splits one command line on whitespace; `&&`, `||`, `;`, `|` and `&` become their own
/// tokens (stage separators). Quotes, `$`, backticks, redirections and control characters
/// are refused: an action line is never shell.
pub fn tokenize(line: &str) -> Result<Vec<String>, ActionError> {
    let mut out: Vec<String> = Vec::new();
    let mut cur = String::new();
    let mut chars = line.chars().peekable();
    let flush = |cur: &mut String, out: &mut Vec<String>| {
        if !cur.is_empty() {
            out.push(std::mem::take(cur));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => flush(&mut cur, &mut out),
            ';' => {
                flush(&mut cur, &mut out);
                out.push(";".into());
            }
            '&' | '|' => {
                flush(&mut cur, &mut out);
                if chars.peek() == Some(&c) {
                    chars.next();
                    out.push(format!("{c}{c}"));
                } else {
                    out.push(c.to_string());
                }
            }
            '\'' | '"' | '`' | '$' | '<' | '>' | '(' | ')' | '\\' => {
                return Err(ActionError::Injection(line.to_string()))
            }
            c if c.is_control() || c.is_whitespace() => {
                return Err(ActionError::Injection(line.to_string()))
            }
            c => cur.push(c),
        }
    }
    flush(&mut cur, &mut out);
    Ok(out)
}

/// The stages of a tokenized request (separator tokens removed). An empty stage or more
/// than `MAX_STAGES` is refused.
pub fn split_stages(tokens: &[String]) -> Result<Vec<&[String]>, ActionError> {
    if tokens.is_empty() {
        return Err(ActionError::Empty);
    }
    let stages: Vec<&[String]> = tokens
        .split(|t| STAGE_SEPARATORS.contains(&t.as_str()))
        .collect();
    if stages.iter().any(|s| s.is_empty()) {
        return Err(ActionError::EmptyStage);
    }
    if stages.len() > MAX_STAGES {
        return Err(ActionError::TooManyStages(stages.len()));
    }
    Ok(stages)
}

#[cfg(test)]
mod tests;
