//! The details of one process, read from `/proc` when a client asks (the TUI's process
//! details view): the whole command line, user, parent and children, state, threads, start
//! time, RSS, %CPU from the sampler's last table, and its open descriptors (`lsof -p`),
//! sockets resolved to addresses. Descriptor paths the path policy's deny rules cover are
//! counted, not shown: the name of a secret stays hidden here as everywhere else. The
//! read-only `/dev`, `/proc` and `/sys` denies are about reading those files, not about
//! naming them (`/dev/null`, a tty), so they do not hide a descriptor.

use std::path::Path;

use llmops_policy::{PathError, PathPolicy};
use protocol::{OpenFile, ProcessDetails, ProcessRef, SocketInfo};

use super::procs::{lookup_user, parse_euid, parse_stat, sysconf, ProcessTable};
use super::program::argv_of;
use super::sockets::sockets_of;

/// Descriptors listed at most (files and sockets together); `fds_total` counts all.
pub const MAX_FDS: usize = 256;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DetailsError {
    #[error("没有这个进程: {0} (no process with pid {0}; it may have exited)")]
    NotFound(u32),
}

/// `R` -> `R (running)` as `/proc/PID/status` spells the states.
fn state_word(c: char) -> String {
    let word = match c {
        'R' => "running",
        'S' => "sleeping",
        'D' => "disk sleep",
        'T' => "stopped",
        't' => "tracing stop",
        'Z' => "zombie",
        'X' | 'x' => "dead",
        'I' => "idle",
        'P' => "parked",
        'W' => "waking",
        'K' => "wakekill",
        _ => "unknown",
    };
    format!("{c} ({word})")
}

/// Boot time in Unix seconds (`btime` of `/proc/stat`).
fn boot_time() -> u64 {
    std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("btime "))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Whether the deny rules hide this path: a deny pattern other than a top-level one
/// (`/proc`, `/sys`, `/dev`, which protect reading, not naming).
pub(super) fn hidden_by_policy(paths: &PathPolicy, target: &str) -> bool {
    if !target.starts_with('/') {
        return false;
    }
    let path = target.strip_suffix(" (deleted)").unwrap_or(target);
    match paths.check(Path::new(path)) {
        Err(PathError::Denied { pattern, .. }) => {
            let top_level = pattern
                .strip_prefix('/')
                .is_some_and(|rest| !rest.contains('/') && !rest.contains(' '));
            !top_level
        }
        _ => false,
    }
}

fn comm_of(pid: u32) -> Option<String> {
    std::fs::read_to_string(format!("/proc/{pid}/comm"))
        .ok()
        .map(|s| s.trim_end_matches('\n').to_string())
}

/// A link of `/proc/PID/...` unless the policy hides it (`None` then, or when unreadable).
fn visible_link(paths: &PathPolicy, link: &Path) -> Option<String> {
    let t = std::fs::read_link(link).ok()?.display().to_string();
    (!hidden_by_policy(paths, &t)).then_some(t)
}

/// The descriptors of `pid`: files, sockets, how many there are and how many are hidden,
/// or why they could not be read.
fn descriptors(pid: u32, paths: &PathPolicy, d: &mut ProcessDetails) {
    let dir = match std::fs::read_dir(format!("/proc/{pid}/fd")) {
        Ok(dir) => dir,
        Err(e) => {
            d.fds_error = Some(format!(
                "无法读取打开的文件 / cannot read the open files of {pid}: {e}"
            ));
            return;
        }
    };
    let mut fds: Vec<(u32, String)> = dir
        .flatten()
        .filter_map(|e| {
            let fd = e.file_name().to_str()?.parse::<u32>().ok()?;
            let target = std::fs::read_link(e.path()).ok()?.display().to_string();
            Some((fd, target))
        })
        .collect();
    fds.sort_by_key(|(fd, _)| *fd);
    d.fds_total = u32::try_from(fds.len()).unwrap_or(u32::MAX);
    let needs_sockets = fds.iter().any(|(_, t)| t.starts_with("socket:["));
    let known = if needs_sockets {
        sockets_of(pid)
    } else {
        Default::default()
    };
    for (fd, target) in fds {
        if d.files.len() + d.sockets.len() >= MAX_FDS {
            break;
        }
        if let Some(inode) = target
            .strip_prefix("socket:[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse::<u64>().ok())
        {
            let s = known.get(&inode).cloned().unwrap_or_else(|| SocketInfo {
                proto: "socket".into(),
                local: target.clone(),
                ..SocketInfo::default()
            });
            d.sockets.push(SocketInfo { fd, ..s });
        } else if hidden_by_policy(paths, &target) {
            d.hidden += 1;
        } else {
            d.files.push(OpenFile { fd, target });
        }
    }
}

/// Everything `/proc` tells about `pid`; `table` (the sampler's latest) gives %CPU and the
/// children.
pub fn process_details(
    pid: u32,
    table: &ProcessTable,
    paths: &PathPolicy,
) -> Result<ProcessDetails, DetailsError> {
    let dir = format!("/proc/{pid}");
    let stat = std::fs::read_to_string(format!("{dir}/stat"))
        .ok()
        .and_then(|t| parse_stat(&t))
        .ok_or(DetailsError::NotFound(pid))?;
    let user = std::fs::read_to_string(format!("{dir}/status"))
        .ok()
        .and_then(|s| parse_euid(&s))
        .map(|uid| lookup_user(uid).unwrap_or_else(|| uid.to_string()))
        .unwrap_or_else(|| "?".into());
    let raw = std::fs::read(format!("{dir}/cmdline")).unwrap_or_default();
    let clk_tck = sysconf(libc::_SC_CLK_TCK, 100);
    let page = sysconf(libc::_SC_PAGESIZE, 4096);
    let mut children: Vec<ProcessRef> = table
        .processes
        .iter()
        .filter(|p| p.ppid == pid && p.pid != pid)
        .map(|p| ProcessRef {
            pid: p.pid,
            name: p.name.clone(),
        })
        .collect();
    children.sort_by_key(|c| c.pid);
    let mut d = ProcessDetails {
        pid,
        argv: argv_of(&raw, &stat.comm),
        name: stat.comm,
        user,
        parent: (stat.ppid != 0).then(|| ProcessRef {
            pid: stat.ppid,
            name: comm_of(stat.ppid).unwrap_or_else(|| "?".into()),
        }),
        children,
        state: state_word(stat.state),
        threads: stat.threads,
        started_at: boot_time() + stat.start_time / clk_tck.max(1),
        cpu_percent: table
            .processes
            .iter()
            .find(|p| p.pid == pid)
            .map(|p| p.cpu_percent),
        rss_bytes: stat.rss_pages.saturating_mul(page),
        cwd: visible_link(paths, Path::new(&format!("{dir}/cwd"))),
        exe: visible_link(paths, Path::new(&format!("{dir}/exe"))),
        ..ProcessDetails::default()
    };
    descriptors(pid, paths, &mut d);
    Ok(d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn policy(dir: &Path) -> PathPolicy {
        let mut cfg = llmops_policy::PathPolicyConfig::with_defaults(dir, &[]);
        cfg.deny.push("**/*secret*".into());
        PathPolicy::new(&cfg)
    }

    #[test]
    fn tools_sys_monitor_argv_and_states() {
        assert_eq!(
            argv_of(b"python3\0worker.py\0--queue\0a b\0", "python3"),
            vec!["python3", "worker.py", "--queue", "a b"]
        );
        assert_eq!(argv_of(b"", "kworker/0:1"), vec!["[kworker/0:1]"]);
        assert_eq!(argv_of(b"sh\0-c\0x\ny\0", "sh")[2], "x?y");
        assert_eq!(state_word('S'), "S (sleeping)");
        assert_eq!(state_word('Z'), "Z (zombie)");
    }

    /// A planted child: its command line, parent, state and an open file and a listening
    /// socket it holds are what the details say, checked against `ps` for the start time.
    #[test]
    fn tools_sys_monitor_details_of_a_planted_process() {
        let dir = tempfile::tempdir().expect("tempdir");
        let data = dir.path().join("data.txt");
        let secret = dir.path().join("my-secret.txt");
        std::fs::File::create(&data)
            .and_then(|mut f| f.write_all(b"x"))
            .expect("write");
        std::fs::write(&secret, "s").expect("write");
        // python3 holds both files open and listens on a port it prints.
        let script = format!(
            "import socket,sys,time\na=open({:?})\nb=open({:?})\ns=socket.socket()\n\
             s.bind(('127.0.0.1',0))\ns.listen()\nprint(s.getsockname()[1],flush=True)\n\
             time.sleep(60)\n",
            data.display().to_string(),
            secret.display().to_string()
        );
        let mut child = std::process::Command::new("python3")
            .args(["-c", &script, "planted-marker"])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python3 runs");
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().expect("stdout")),
            &mut line,
        )
        .expect("port");
        let port: u16 = line.trim().parse().expect("a port");
        let pid = child.id();
        let me = std::process::id();
        let table = ProcessTable {
            processes: vec![super::super::ProcessInfo {
                pid: me,
                ppid: 1,
                cpu_percent: 1.5,
                ..Default::default()
            }],
            ..ProcessTable::default()
        };
        let d = process_details(pid, &table, &policy(dir.path()));
        let ps_start = std::process::Command::new("ps")
            .args(["-o", "lstart=", "-p", &pid.to_string()])
            .output()
            .expect("ps");
        let _ = child.kill();
        let _ = child.wait();
        let d = d.expect("details");
        assert_eq!(d.name, "python3");
        assert_eq!(d.argv.last().map(String::as_str), Some("planted-marker"));
        assert_eq!(d.argv[1], "-c");
        assert_eq!(d.parent.as_ref().map(|p| p.pid), Some(me));
        assert_eq!(d.cpu_percent, None, "not in the table");
        assert!(d.rss_bytes > 0 && d.threads >= 1);
        assert!(
            d.state.starts_with('S') || d.state.starts_with('R'),
            "{}",
            d.state
        );
        assert!(
            d.files
                .iter()
                .any(|f| f.target == data.display().to_string()),
            "{:?}",
            d.files
        );
        assert!(
            !d.files.iter().any(|f| f.target.contains("secret")),
            "the secret's name is hidden: {:?}",
            d.files
        );
        assert_eq!(d.hidden, 1);
        assert!(
            d.sockets
                .iter()
                .any(|s| s.local == format!("127.0.0.1:{port}") && s.state == "LISTEN"),
            "{:?}",
            d.sockets
        );
        assert!(d.fds_total as usize >= d.files.len() + d.sockets.len());
        // The start time matches ps's (to the second; ps prints local time).
        let lstart = String::from_utf8_lossy(&ps_start.stdout).trim().to_string();
        let ours = chrono::DateTime::from_timestamp(d.started_at as i64, 0)
            .expect("time")
            .with_timezone(&chrono::Local)
            .format("%a %b %e %H:%M:%S %Y")
            .to_string();
        assert_eq!(
            ours.split_whitespace().collect::<Vec<_>>(),
            lstart.split_whitespace().collect::<Vec<_>>()
        );
        // This process lists its own children from the table.
        let mine = process_details(me, &table, &policy(dir.path())).expect("me");
        assert_eq!(mine.cpu_percent, Some(1.5));
        assert_eq!(
            process_details(u32::MAX - 1, &table, &policy(dir.path())),
            Err(DetailsError::NotFound(u32::MAX - 1))
        );
    }

    #[test]
    fn tools_sys_monitor_top_level_denies_do_not_hide_descriptors() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = policy(dir.path());
        assert!(!hidden_by_policy(&p, "/dev/null"));
        assert!(!hidden_by_policy(&p, "pipe:[1234]"));
        assert!(hidden_by_policy(&p, "/etc/shadow"));
        assert!(hidden_by_policy(&p, "/home/a/.ssh/id_rsa (deleted)"));
    }
}
