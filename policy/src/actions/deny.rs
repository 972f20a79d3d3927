//! Deny rules: targets no approval can unlock. Units (compared as systemctl resolves them:
//! a bare name is `NAME.service`, a template instance also matches its template), pids, and
//! processes by name (the caller resolves a pid to its `ProcInfo`).

use super::{ActionConfigError, ActionError, ActionsConfig};

/// Units denied by default: remote access, the journal, the system bus and the init system.
pub const DEFAULT_DENY_UNITS: &[&str] = &[
    "ssh.service",
    "sshd.service",
    "ssh.socket",
    "sshd.socket",
    "systemd-journald.service",
    "systemd-journald.socket",
    "dbus.service",
    "dbus.socket",
    "dbus-broker.service",
    "systemd-logind.service",
    "init.scope",
    "-.slice",
];

/// Process names denied by default (`/proc/PID/comm`, or the first word of the command line).
pub const DEFAULT_DENY_PROCESS_NAMES: &[&str] = &[
    "systemd",
    "init",
    "sshd",
    "systemd-journal",
    "systemd-journald",
    "dbus-daemon",
    "dbus-broker",
    "systemd-logind",
];

/// The server's own unit when none is configured.
pub const DEFAULT_SERVER_UNIT: &str = "llmops-server.service";

/// What the caller knows about a live process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcInfo {
    /// `/proc/PID/comm` (at most 15 bytes).
    pub name: String,
    /// The first word of `/proc/PID/cmdline`, when readable (a full path or a name).
    pub cmd: Option<String>,
}

/// The deny rules in force.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DenyRules {
    units: Vec<String>,
    pids: Vec<(u32, &'static str)>,
    extra_pids: Vec<u32>,
    names: Vec<String>,
}

impl DenyRules {
    /// Defaults plus the configured lists. `own_pid` is the server's pid; `parent_pid` its
    /// parent (the supervisor or shell that started it: killing it may take the server
    /// down too), denied when above 1.
    pub fn new(
        cfg: &ActionsConfig,
        own_pid: u32,
        parent_pid: Option<u32>,
    ) -> Result<DenyRules, ActionConfigError> {
        let mut units: Vec<String> = DEFAULT_DENY_UNITS.iter().map(|u| u.to_string()).collect();
        let server_unit = cfg.server_unit.as_deref().unwrap_or(DEFAULT_SERVER_UNIT);
        for u in std::iter::once(server_unit).chain(cfg.deny_units.iter().map(String::as_str)) {
            if super::grammar::check_unit(u).is_err() && u != "-.slice" {
                return Err(ActionConfigError::BadDenyUnit(u.to_string()));
            }
            units.push(canonical_unit(u));
        }
        let mut pids = vec![
            (1, "init / pid 1"),
            (own_pid, "llmops-server 自身 / the server itself"),
        ];
        if let Some(p) = parent_pid.filter(|p| *p > 1) {
            pids.push((p, "llmops-server 的父进程 / the server's parent"));
        }
        let mut names: Vec<String> = DEFAULT_DENY_PROCESS_NAMES
            .iter()
            .map(|n| n.to_string())
            .collect();
        names.extend(cfg.deny_process_names.iter().cloned());
        Ok(DenyRules {
            units,
            pids,
            extra_pids: cfg.deny_pids.clone(),
            names,
        })
    }

    /// The default rules only.
    pub fn defaults(own_pid: u32, parent_pid: Option<u32>) -> DenyRules {
        let mut units: Vec<String> = DEFAULT_DENY_UNITS.iter().map(|u| u.to_string()).collect();
        units.push(DEFAULT_SERVER_UNIT.to_string());
        DenyRules {
            units,
            pids: Self::pid_rules(own_pid, parent_pid),
            extra_pids: Vec::new(),
            names: DEFAULT_DENY_PROCESS_NAMES
                .iter()
                .map(|n| n.to_string())
                .collect(),
        }
    }

    fn pid_rules(own_pid: u32, parent_pid: Option<u32>) -> Vec<(u32, &'static str)> {
        let mut pids = vec![
            (1, "init / pid 1"),
            (own_pid, "llmops-server 自身 / the server itself"),
        ];
        if let Some(p) = parent_pid.filter(|p| *p > 1) {
            pids.push((p, "llmops-server 的父进程 / the server's parent"));
        }
        pids
    }

    /// Refuses a denied unit (as systemctl would resolve it).
    pub fn check_unit(&self, unit: &str) -> Result<(), ActionError> {
        let canon = canonical_unit(unit);
        let family = template_of(&canon);
        match self.units.iter().find(|d| {
            **d == canon
                || family
                    .as_ref()
                    .is_some_and(|(t, base)| *d == t || *d == base)
        }) {
            Some(d) => Err(ActionError::Denied {
                target: unit.to_string(),
                rule: format!("deny_units: {d}"),
            }),
            None => Ok(()),
        }
    }

    /// Refuses a denied pid, a pid whose process name is denied, and a pid that does not
    /// exist (`procs` resolves a pid to the live process).
    pub fn check_pid(
        &self,
        pid: u32,
        procs: &dyn Fn(u32) -> Option<ProcInfo>,
    ) -> Result<(), ActionError> {
        let denied = |rule: String| ActionError::Denied {
            target: format!("pid {pid}"),
            rule,
        };
        if let Some((_, why)) = self.pids.iter().find(|(p, _)| *p == pid) {
            return Err(denied(why.to_string()));
        }
        if self.extra_pids.contains(&pid) {
            return Err(denied("deny_pids".into()));
        }
        let info = procs(pid).ok_or(ActionError::NoSuchProcess(pid))?;
        let cmd_name = info
            .cmd
            .as_deref()
            .map(|c| c.rsplit('/').next().unwrap_or(c).to_string());
        if let Some(n) = self
            .names
            .iter()
            .find(|n| **n == info.name || cmd_name.as_deref() == Some(n.as_str()))
        {
            return Err(denied(format!("deny_process_names: {n}")));
        }
        Ok(())
    }
}

/// The unit as systemctl resolves a name without a type suffix: `NAME.service`.
pub fn canonical_unit(unit: &str) -> String {
    const TYPES: &[&str] = &[
        ".service",
        ".socket",
        ".target",
        ".timer",
        ".mount",
        ".automount",
        ".swap",
        ".path",
        ".slice",
        ".scope",
        ".device",
    ];
    if TYPES.iter().any(|t| unit.ends_with(t)) {
        unit.to_string()
    } else {
        format!("{unit}.service")
    }
}

/// `sshd@x.service` → (`sshd@.service`, `sshd.service`): denying a unit or its template
/// denies its instances.
fn template_of(canon: &str) -> Option<(String, String)> {
    let (name, rest) = canon.split_once('@')?;
    let suffix = rest.rfind('.').map(|i| &rest[i..])?;
    Some((format!("{name}@{suffix}"), format!("{name}{suffix}")))
}
