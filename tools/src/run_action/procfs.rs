//! What `/proc` says about a pid: its name for the deny rules, and whether it still runs
//! (a zombie has exited; its start time tells a reused pid from the original process).

use llmops_policy::ProcInfo;

/// The live process `pid` (`/proc/PID/comm` and the first word of its command line), None
/// when there is no such process.
pub fn proc_info(pid: u32) -> Option<ProcInfo> {
    let dir = format!("/proc/{pid}");
    let name = std::fs::read_to_string(format!("{dir}/comm")).ok()?;
    let cmd = std::fs::read(format!("{dir}/cmdline")).ok().and_then(|b| {
        let first = b.split(|c| *c == 0).next()?;
        (!first.is_empty()).then(|| String::from_utf8_lossy(first).into_owned())
    });
    Some(ProcInfo {
        name: name.trim_end_matches('\n').to_string(),
        cmd,
    })
}

/// A process as seen at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProcState {
    /// Running (any state but zombie), with its start time in clock ticks since boot.
    Alive {
        start_ticks: u64,
    },
    /// Exited, not yet reaped by its parent.
    Zombie,
    Gone,
}

/// The state of `pid` from `/proc/PID/stat`.
pub fn proc_state(pid: u32) -> ProcState {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return ProcState::Gone;
    };
    // The name is in parentheses and may hold spaces: fields start after the last `)`.
    let Some(rest) = stat.rfind(')').map(|i| &stat[i + 1..]) else {
        return ProcState::Gone;
    };
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // fields[0] is the state (field 3); starttime is field 22, so fields[19].
    match fields.first() {
        Some(&"Z") | Some(&"X") | Some(&"x") => ProcState::Zombie,
        Some(_) => ProcState::Alive {
            start_ticks: fields.get(19).and_then(|s| s.parse().ok()).unwrap_or(0),
        },
        None => ProcState::Gone,
    }
}
