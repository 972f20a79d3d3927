//! The built-in action grammars: `systemctl VERB UNIT...`, `kill [SIGNAL] PID...` and
//! `journalctl --vacuum-size=|--vacuum-time=`, each parsed strictly into a typed value whose
//! canonical argv is the one that runs (`kill -15 42`, `kill -s TERM 42` and `kill 42` all
//! become `kill -TERM 42`).

use std::fmt;

use super::ActionError;
use crate::command::is_unit_name;

/// `systemctl` verbs that change state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SystemctlVerb {
    Restart,
    Reload,
    Start,
    Stop,
    ResetFailed,
}

impl SystemctlVerb {
    pub const ALL: [SystemctlVerb; 5] = [
        SystemctlVerb::Restart,
        SystemctlVerb::Reload,
        SystemctlVerb::Start,
        SystemctlVerb::Stop,
        SystemctlVerb::ResetFailed,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            SystemctlVerb::Restart => "restart",
            SystemctlVerb::Reload => "reload",
            SystemctlVerb::Start => "start",
            SystemctlVerb::Stop => "stop",
            SystemctlVerb::ResetFailed => "reset-failed",
        }
    }

    pub fn parse(s: &str) -> Option<SystemctlVerb> {
        Self::ALL.into_iter().find(|v| v.as_str() == s)
    }
}

/// The signals `kill` may send.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signal {
    Term,
    Hup,
    Int,
    Kill,
}

impl Signal {
    pub const ALL: [Signal; 4] = [Signal::Term, Signal::Hup, Signal::Int, Signal::Kill];

    /// The name without `SIG` (`TERM`).
    pub fn name(self) -> &'static str {
        match self {
            Signal::Term => "TERM",
            Signal::Hup => "HUP",
            Signal::Int => "INT",
            Signal::Kill => "KILL",
        }
    }

    pub fn number(self) -> i32 {
        match self {
            Signal::Term => 15,
            Signal::Hup => 1,
            Signal::Int => 2,
            Signal::Kill => 9,
        }
    }

    /// `TERM`, `SIGTERM`, `term` or `15`.
    pub fn parse(s: &str) -> Option<Signal> {
        let up = s.to_ascii_uppercase();
        let name = up.strip_prefix("SIG").unwrap_or(&up);
        Self::ALL
            .into_iter()
            .find(|sig| sig.name() == name || sig.number().to_string() == s)
    }

    /// Whether the process is expected to exit (HUP asks it to reload).
    pub fn ends_process(self) -> bool {
        !matches!(self, Signal::Hup)
    }
}

impl fmt::Display for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `journalctl --vacuum-*` limit, validated.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Vacuum {
    /// `--vacuum-size=500M`.
    Size(String),
    /// `--vacuum-time=2weeks`.
    Time(String),
}

impl Vacuum {
    pub fn arg(&self) -> String {
        match self {
            Vacuum::Size(v) => format!("--vacuum-size={v}"),
            Vacuum::Time(v) => format!("--vacuum-time={v}"),
        }
    }
}

/// `systemctl VERB UNIT...`: the verb and the units (one stage each).
pub fn systemctl(args: &[String]) -> Result<(SystemctlVerb, Vec<String>), ActionError> {
    let verb_s = args
        .first()
        .ok_or(ActionError::UnknownVerb(String::new()))?;
    if verb_s.starts_with('-') {
        return Err(ActionError::OptionNotAllowed(verb_s.clone()));
    }
    let verb =
        SystemctlVerb::parse(verb_s).ok_or_else(|| ActionError::UnknownVerb(verb_s.clone()))?;
    let units = &args[1..];
    if units.is_empty() {
        return Err(ActionError::MissingUnit(verb.as_str().into()));
    }
    for u in units {
        check_unit(u)?;
    }
    Ok((verb, units.to_vec()))
}

/// A unit name as systemctl takes it: never an option, no glob, no path, ASCII only.
pub fn check_unit(u: &str) -> Result<(), ActionError> {
    if u.starts_with('-') {
        return Err(ActionError::OptionNotAllowed(u.to_string()));
    }
    if u.is_empty() || !is_unit_name(u) || u.contains("..") || u.ends_with('.') {
        return Err(ActionError::BadUnit(u.to_string()));
    }
    Ok(())
}

/// `kill [-SIG|-N|-s SIG] PID...`: the signal (default TERM) and the pids, each checked
/// for syntax here (existence and deny rules are the caller's).
pub fn kill(args: &[String]) -> Result<(Signal, Vec<u32>), ActionError> {
    let mut signal: Option<Signal> = None;
    let mut i = 0;
    let set = |signal: &mut Option<Signal>, s: Signal, raw: &str| {
        if signal.is_some() {
            return Err(ActionError::SecondSignal(raw.to_string()));
        }
        *signal = Some(s);
        Ok(())
    };
    let mut pids = Vec::new();
    while let Some(a) = args.get(i) {
        i += 1;
        if pids.is_empty() && (a == "-s" || a == "--signal") {
            let v = args
                .get(i)
                .ok_or_else(|| ActionError::BadSignal(a.clone()))?;
            i += 1;
            let s = Signal::parse(v).ok_or_else(|| ActionError::BadSignal(v.clone()))?;
            set(&mut signal, s, v)?;
            continue;
        }
        if let Some(rest) = a.strip_prefix('-') {
            // `-1` after a signal (or after a pid) is a negative pid: every process.
            if signal.is_some() || !pids.is_empty() {
                return Err(
                    if rest.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty() {
                        ActionError::ProcessGroup(a.clone())
                    } else if Signal::parse(rest).is_some() {
                        ActionError::SecondSignal(a.clone())
                    } else {
                        ActionError::OptionNotAllowed(a.clone())
                    },
                );
            }
            match Signal::parse(rest) {
                Some(s) => set(&mut signal, s, a)?,
                None if rest.bytes().all(|b| b.is_ascii_digit()) && !rest.is_empty() => {
                    return Err(ActionError::BadSignal(a.clone()))
                }
                None => return Err(ActionError::OptionNotAllowed(a.clone())),
            }
            continue;
        }
        pids.push(parse_pid(a)?);
    }
    if pids.is_empty() {
        return Err(ActionError::MissingPid);
    }
    Ok((signal.unwrap_or(Signal::Term), pids))
}

/// A pid as written: decimal digits, no sign, no leading zero, fits a pid (≤ 2^22 on
/// Linux, checked as u32 here). `0` is the caller's process group.
pub fn parse_pid(a: &str) -> Result<u32, ActionError> {
    if a == "0" {
        return Err(ActionError::ProcessGroup(a.to_string()));
    }
    if a.is_empty() || a.len() > 10 || !a.bytes().all(|b| b.is_ascii_digit()) || a.starts_with('0')
    {
        return Err(ActionError::BadPid(a.to_string()));
    }
    a.parse::<u32>()
        .ok()
        .filter(|p| *p <= MAX_PID)
        .ok_or_else(|| ActionError::BadPid(a.to_string()))
}

/// The largest pid Linux can hand out (`pid_max` ≤ 2^22).
pub const MAX_PID: u32 = 4_194_304;

/// `journalctl --vacuum-size=N[K|M|G]` or `--vacuum-time=N(s|min|h|d|weeks|months)`
/// (also with the value as the next argument). Exactly one option.
pub fn journalctl(args: &[String]) -> Result<Vacuum, ActionError> {
    let (opt, value) = match args {
        [one] => match one.split_once('=') {
            Some((o, v)) => (o, v.to_string()),
            None => return Err(ActionError::BadVacuum(one.clone())),
        },
        [o, v] => (o.as_str(), v.clone()),
        [] => return Err(ActionError::BadVacuum(String::new())),
        more => return Err(ActionError::OptionNotAllowed(more[more.len() - 1].clone())),
    };
    let bad = || ActionError::BadVacuum(format!("{opt}={value}"));
    let digits = value.bytes().take_while(u8::is_ascii_digit).count();
    let (num, unit) = value.split_at(digits);
    if num.is_empty() || num.len() > 9 || num.starts_with('0') {
        return Err(bad());
    }
    match opt {
        "--vacuum-size" if matches!(unit, "" | "K" | "M" | "G") => Ok(Vacuum::Size(value)),
        "--vacuum-time" if matches!(unit, "s" | "min" | "h" | "d" | "weeks" | "months") => {
            Ok(Vacuum::Time(value))
        }
        "--vacuum-size" | "--vacuum-time" => Err(bad()),
        other if other.starts_with('-') => Err(ActionError::OptionNotAllowed(other.to_string())),
        _ => Err(bad()),
    }
}
