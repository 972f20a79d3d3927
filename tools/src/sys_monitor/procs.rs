//! Per-process figures as `top` and `ps` compute them, read straight from `/proc`: %CPU is
//! the delta of utime+stime between two scans over the wall time between them (100 = one
//! core), RSS is `/proc/PID/stat` rss pages (what `ps -o rss` shows), %MEM is RSS over
//! MemTotal, the user is the effective uid's name. Only `stat` is read every scan; `status`
//! (uid) and `cmdline` are read once per process (again after an exec changes its name).

use std::collections::{HashMap, HashSet};
use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::path::Path;
use std::time::{Duration, Instant};

pub use llmops_tooldata::{ProcSort, ProcessInfo};

/// Command lines are cut to this many characters (data and text).
pub const COMMAND_WIDTH: usize = 120;
/// How many processes by CPU and by memory the snapshot keeps (their union, deduplicated).
pub const SNAPSHOT_TOP: usize = 20;

/// Every process of one scan (what the tool answers from).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ProcessTable {
    /// The snapshot `seq` this table belongs to.
    pub seq: u64,
    /// Wall time the %CPU figures are measured over; 0 on the first scan (all %CPU 0).
    pub interval_ms: u64,
    pub memory_total_bytes: u64,
    pub processes: Vec<ProcessInfo>,
}

/// What a process looked like at the previous scan.
#[derive(Debug, Clone)]
struct Known {
    start_time: u64,
    ticks: u64,
    name: String,
    user: String,
    command: String,
    program: String,
}

/// Who a process is: its user, command line, program and name, and whether its name
/// stayed the same while they were read.
struct Identity {
    user: String,
    command: String,
    program: String,
    name: String,
    settled: bool,
}

/// The fields of `/proc/PID/stat` we use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Stat {
    pub comm: String,
    /// One-letter state (`R`, `S`, `D`, `Z`, ...).
    pub state: char,
    pub ppid: u32,
    /// utime + stime, in clock ticks.
    pub ticks: u64,
    /// Start time after boot, in clock ticks (identifies a pid across reuse).
    pub start_time: u64,
    /// Resident pages.
    pub rss_pages: u64,
    pub threads: u64,
}

/// Parses `/proc/PID/stat`. The command name may contain spaces and parentheses, so it is
/// taken between the first `(` and the last `)`.
pub(super) fn parse_stat(text: &str) -> Option<Stat> {
    let open = text.find('(')?;
    let close = text.rfind(')')?;
    let comm = text.get(open + 1..close)?.to_string();
    // Fields after the comm start at field 3 (state); utime is field 14, stime 15,
    // num_threads 20, starttime 22, rss 24 (proc(5)), i.e. indices 11, 12, 17, 19, 21 here.
    let rest: Vec<&str> = text.get(close + 1..)?.split_whitespace().collect();
    let num = |i: usize| rest.get(i).and_then(|s| s.parse::<u64>().ok());
    Some(Stat {
        comm,
        state: rest.first()?.chars().next()?,
        ppid: u32::try_from(num(1)?).ok()?,
        ticks: num(11)? + num(12)?,
        start_time: num(19)?,
        rss_pages: num(21)?,
        threads: num(17)?,
    })
}

/// Effective uid from `/proc/PID/status` (`Uid:` real, effective, saved, fs).
pub(super) fn parse_euid(status: &str) -> Option<u32> {
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|rest| rest.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
}

/// `/proc/PID/cmdline` (NUL-separated) as one line cut to `COMMAND_WIDTH` characters.
/// Control characters (newlines in a `-c` script) show as `?`, as ps shows them.
pub(super) fn command_line(raw: &[u8], comm: &str) -> String {
    let text = String::from_utf8_lossy(raw);
    let joined: String = text
        .split('\0')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
        .chars()
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if joined.is_empty() {
        return format!("[{comm}]");
    }
    cut(&joined, COMMAND_WIDTH)
}

/// Cuts to `width` characters, ending in `…` when something was cut.
pub(super) fn cut(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        return s.to_string();
    }
    let mut out: String = s.chars().take(width.saturating_sub(1)).collect();
    out.push('…');
    out
}

/// User name of a uid via the system's user database (NSS), like ps.
pub(crate) fn lookup_user(uid: u32) -> Option<String> {
    let mut buf: Vec<libc::c_char> = vec![0; 1024];
    loop {
        let mut pwd = MaybeUninit::<libc::passwd>::zeroed();
        let mut result: *mut libc::passwd = std::ptr::null_mut();
        // SAFETY: every pointer is valid for the call: `pwd` and `result` are live locals,
        // `buf` is a live buffer of `buf.len()` bytes that getpwuid_r may use for strings.
        let rc = unsafe {
            libc::getpwuid_r(
                uid,
                pwd.as_mut_ptr(),
                buf.as_mut_ptr(),
                buf.len(),
                &mut result,
            )
        };
        if rc == libc::ERANGE && buf.len() < (1 << 20) {
            buf.resize(buf.len() * 2, 0);
            continue;
        }
        if rc != 0 || result.is_null() {
            return None;
        }
        // SAFETY: on success `result` points to `pwd`, whose `pw_name` is a NUL-terminated
        // string inside `buf`, both still alive here.
        let name = unsafe { CStr::from_ptr((*result).pw_name) };
        return Some(name.to_string_lossy().into_owned());
    }
}

pub(crate) fn sysconf(name: libc::c_int, fallback: u64) -> u64 {
    // SAFETY: sysconf has no memory-safety preconditions.
    let v = unsafe { libc::sysconf(name) };
    u64::try_from(v).ok().filter(|v| *v > 0).unwrap_or(fallback)
}

/// Scans `/proc`, keeping what it needs from the previous scan for %CPU.
#[derive(Debug)]
pub(super) struct ProcScanner {
    clk_tck: u64,
    page_size: u64,
    cores: u64,
    last_scan: Option<Instant>,
    known: HashMap<u32, Known>,
    users: HashMap<u32, String>,
}

impl ProcScanner {
    pub fn new() -> ProcScanner {
        ProcScanner {
            clk_tck: sysconf(libc::_SC_CLK_TCK, 100),
            page_size: sysconf(libc::_SC_PAGESIZE, 4096),
            cores: sysconf(libc::_SC_NPROCESSORS_ONLN, 1),
            last_scan: None,
            known: HashMap::new(),
            users: HashMap::new(),
        }
    }

    fn user(users: &mut HashMap<u32, String>, uid: u32) -> String {
        users
            .entry(uid)
            .or_insert_with(|| lookup_user(uid).unwrap_or_else(|| uid.to_string()))
            .clone()
    }

    /// One pass over `/proc`. Processes that exit while being read are skipped.
    pub fn scan(&mut self, seq: u64, memory_total_bytes: u64) -> ProcessTable {
        let now = Instant::now();
        let elapsed = self.last_scan.map(|t| now.duration_since(t));
        let mut processes = Vec::new();
        let mut next_known = HashMap::with_capacity(self.known.len());
        let entries = match std::fs::read_dir("/proc") {
            Ok(e) => e,
            Err(e) => {
                tracing::warn!("cannot list /proc: {e}");
                return ProcessTable {
                    seq,
                    memory_total_bytes,
                    ..ProcessTable::default()
                };
            }
        };
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            if let Some((info, known)) =
                self.scan_one(pid, &entry.path(), elapsed, memory_total_bytes)
            {
                processes.push(info);
                next_known.insert(pid, known);
            }
        }
        self.known = next_known;
        self.last_scan = Some(now);
        ProcessTable {
            seq,
            interval_ms: elapsed.map_or(0, |e| u64::try_from(e.as_millis()).unwrap_or(u64::MAX)),
            memory_total_bytes,
            processes,
        }
    }

    /// One process of a scan: its figures, and what to remember of it for the next scan.
    /// `None` when it exited while being read.
    fn scan_one(
        &mut self,
        pid: u32,
        dir: &Path,
        elapsed: Option<Duration>,
        memory_total_bytes: u64,
    ) -> Option<(ProcessInfo, Known)> {
        let stat = std::fs::read_to_string(dir.join("stat"))
            .ok()
            .and_then(|t| parse_stat(&t))?;
        let prev = self
            .known
            .get(&pid)
            .filter(|k| k.start_time == stat.start_time);
        let id = match prev {
            // Same process, same program: uid and command line are as read before.
            Some(k) if k.name == stat.comm => Identity {
                user: k.user.clone(),
                command: k.command.clone(),
                program: k.program.clone(),
                name: stat.comm.clone(),
                settled: true,
            },
            _ => Self::identity(&mut self.users, dir, &stat.comm),
        };
        // A process new since the last scan ran all its ticks within the interval.
        let prev_ticks = prev.map_or(0, |k| k.ticks);
        let cpu_percent = self.cpu_percent(&stat, prev_ticks, elapsed);
        let rss_bytes = stat.rss_pages.saturating_mul(self.page_size);
        let info = ProcessInfo {
            pid,
            ppid: stat.ppid,
            user: id.user.clone(),
            name: id.name.clone(),
            cpu_percent,
            rss_bytes,
            mem_percent: super::sample::percent(rss_bytes, memory_total_bytes),
            command: id.command.clone(),
            program: id.program.clone(),
        };
        let known = Known {
            start_time: stat.start_time,
            ticks: stat.ticks,
            // A process that exec'd while being read is read again next scan, whatever its
            // name then (a shim that execs `env`, then the same-named program).
            name: if id.settled { id.name } else { String::new() },
            user: id.user,
            command: id.command,
            program: id.program,
        };
        Some((info, known))
    }

    /// Who a process not seen before (or that exec'd since) is. Its name is read again
    /// after its command line: a process that exec'd in between (a shim that execs `env`,
    /// then the program) is read again, a few times at most, else marked unsettled.
    fn identity(users: &mut HashMap<u32, String>, dir: &Path, comm: &str) -> Identity {
        let uid = std::fs::read_to_string(dir.join("status"))
            .ok()
            .and_then(|s| parse_euid(&s));
        let user = uid
            .map(|u| Self::user(users, u))
            .unwrap_or_else(|| "?".into());
        let mut name = comm.to_string();
        let (mut raw, mut settled) = (Vec::new(), false);
        for _ in 0..3 {
            raw = std::fs::read(dir.join("cmdline")).unwrap_or_default();
            let now = std::fs::read_to_string(dir.join("comm"))
                .map(|c| c.trim_end_matches('\n').to_string())
                .unwrap_or_default();
            settled = now == name;
            if settled || now.is_empty() {
                break;
            }
            name = now;
        }
        let program = super::program::program_of(&super::program::argv_of(&raw, &name), &name);
        Identity {
            user,
            command: command_line(&raw, &name),
            program,
            name,
            settled,
        }
    }

    /// %CPU over the interval since the last scan; 0 on the first scan.
    fn cpu_percent(&self, stat: &Stat, prev_ticks: u64, elapsed: Option<Duration>) -> f64 {
        // Ticks are 10 ms and stat files are read at slightly different moments, so a
        // short interval can overshoot: never more than its threads (or the cores) can do.
        let ceiling = (stat.threads.clamp(1, self.cores.max(1)) * 100) as f64;
        match elapsed {
            Some(e) if !e.is_zero() => {
                let secs = stat.ticks.saturating_sub(prev_ticks) as f64 / self.clk_tck as f64;
                (((secs / e.as_secs_f64()) * 1000.0).round() / 10.0).min(ceiling)
            }
            _ => 0.0,
        }
    }
}

/// Sorts in place: by %CPU (then RSS) or by RSS (then %CPU), highest first, pid last.
pub(super) fn sort(procs: &mut [ProcessInfo], by: ProcSort) {
    procs.sort_by(|a, b| {
        let cpu = b.cpu_percent.total_cmp(&a.cpu_percent);
        let rss = b.rss_bytes.cmp(&a.rss_bytes);
        match by {
            ProcSort::Cpu => cpu.then(rss),
            ProcSort::Memory => rss.then(cpu),
        }
        .then(a.pid.cmp(&b.pid))
    });
}

/// The union of the top `n` by CPU and the top `n` by memory, without duplicates, ordered by
/// CPU: what the snapshot carries for the TUI.
pub(super) fn top_union(procs: &[ProcessInfo], n: usize) -> Vec<ProcessInfo> {
    let mut by_cpu = procs.to_vec();
    sort(&mut by_cpu, ProcSort::Cpu);
    let mut by_mem = procs.to_vec();
    sort(&mut by_mem, ProcSort::Memory);
    let mut seen = HashSet::new();
    let mut out: Vec<ProcessInfo> = by_cpu
        .into_iter()
        .take(n)
        .chain(by_mem.into_iter().take(n))
        .filter(|p| seen.insert(p.pid))
        .collect();
    sort(&mut out, ProcSort::Cpu);
    out
}

/// Whether a process matches a name filter: case-insensitive substring of the name or the
/// command line.
pub(super) fn matches_name(p: &ProcessInfo, needle_lower: &str) -> bool {
    p.name.to_lowercase().contains(needle_lower) || p.command.to_lowercase().contains(needle_lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pid: u32, cpu: f64, rss: u64) -> ProcessInfo {
        ProcessInfo {
            pid,
            ppid: 1,
            user: "u".into(),
            name: format!("p{pid}"),
            cpu_percent: cpu,
            rss_bytes: rss,
            mem_percent: 0.0,
            command: format!("/bin/p{pid} --flag"),
            program: format!("p{pid}"),
        }
    }

    /// A process whose name changed while its command line was read (it exec'd) is read
    /// again and shown with its new name, and is marked to be read afresh next scan.
    #[test]
    fn tools_sys_monitor_a_process_that_execs_while_read_is_read_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("status"), "Uid:\t0\t0\t0\t0\n").expect("status");
        std::fs::write(dir.path().join("cmdline"), b"python3\0-u\0job.py\0").expect("cmdline");
        std::fs::write(dir.path().join("comm"), "python3\n").expect("comm");
        let mut users = HashMap::new();
        // Read as the shim's name ("env"), it now says python3: read again under that name.
        let id = ProcScanner::identity(&mut users, dir.path(), "env");
        assert_eq!((id.name.as_str(), id.settled), ("python3", true));
        assert_eq!(id.program, "job.py");
        assert!(
            id.command.starts_with("python3 -u job.py"),
            "{}",
            id.command
        );
        // Its name unreadable (it exited): not settled, kept as asked.
        std::fs::remove_file(dir.path().join("comm")).expect("rm");
        let id = ProcScanner::identity(&mut users, dir.path(), "env");
        assert_eq!((id.name.as_str(), id.settled), ("env", false));
    }

    #[test]
    fn tools_sys_monitor_parses_proc_stat() {
        // A comm with spaces and parentheses; numbers from a real stat line.
        let text = "4242 (my (weird) app) S 1 4242 4242 0 -1 4194560 1516 0 0 0 \
                    250 50 0 0 20 0 3 0 123456 2147483648 30000 18446744073709551615 \
                    1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0";
        let s = parse_stat(text).expect("parses");
        assert_eq!(s.comm, "my (weird) app");
        assert_eq!((s.state, s.ppid), ('S', 1));
        assert_eq!(s.ticks, 300);
        assert_eq!(s.start_time, 123456);
        assert_eq!(s.rss_pages, 30000);
        assert_eq!(s.threads, 3);
        assert!(parse_stat("12 (x) S 1").is_none());
    }

    #[test]
    fn tools_sys_monitor_parses_status_and_cmdline() {
        let status = "Name:\tjava\nUmask:\t0022\nState:\tS\nUid:\t1000\t1001\t1001\t1001\n";
        assert_eq!(parse_euid(status), Some(1001));
        assert_eq!(parse_euid("Name:\tx\n"), None);
        assert_eq!(
            command_line(b"java\0-jar\0x.jar\0", "java"),
            "java -jar x.jar"
        );
        assert_eq!(command_line(b"", "kworker/0:1"), "[kworker/0:1]");
        assert_eq!(command_line(b"sh\0-c\0a\nb\0", "sh"), "sh -c a?b");
        let long = format!("{}\0", "a".repeat(300));
        let c = command_line(long.as_bytes(), "a");
        assert_eq!(c.chars().count(), COMMAND_WIDTH);
        assert!(c.ends_with('…'));
    }

    #[test]
    fn tools_sys_monitor_sorts_and_keeps_a_bounded_union() {
        let procs: Vec<ProcessInfo> = (1..=50)
            .map(|i| p(i, f64::from(i), u64::from(51 - i) * 1000))
            .collect();
        let mut by_mem = procs.clone();
        sort(&mut by_mem, ProcSort::Memory);
        assert_eq!(by_mem[0].pid, 1);
        let mut by_cpu = procs.clone();
        sort(&mut by_cpu, ProcSort::Cpu);
        assert_eq!(by_cpu[0].pid, 50);
        let top = top_union(&procs, 20);
        assert_eq!(top.len(), 40, "disjoint tops: 20 + 20");
        let top = top_union(&procs, 30);
        assert_eq!(top.len(), 50, "overlap counted once");
        let pids: HashSet<u32> = top.iter().map(|p| p.pid).collect();
        assert_eq!(pids.len(), 50);
        assert_eq!(top[0].pid, 50, "ordered by CPU");
        // Ties: by RSS, then pid.
        let mut tie = vec![p(3, 1.0, 10), p(2, 1.0, 10), p(1, 1.0, 20)];
        sort(&mut tie, ProcSort::Cpu);
        assert_eq!(tie.iter().map(|p| p.pid).collect::<Vec<_>>(), vec![1, 2, 3]);
    }

    #[test]
    fn tools_sys_monitor_name_filter_is_case_insensitive_on_name_and_command() {
        let mut x = p(7, 0.0, 0);
        x.name = "nginx".into();
        x.command = "nginx: worker process".into();
        assert!(matches_name(&x, "nginx"));
        assert!(matches_name(&x, "worker"));
        x.name = "NGINX".into();
        assert!(matches_name(&x, "ngin"));
        assert!(!matches_name(&x, "java"));
    }

    #[test]
    fn tools_sys_monitor_scanner_reads_this_process() {
        let mut s = ProcScanner::new();
        let me = std::process::id();
        let t = s.scan(1, 1 << 40);
        assert_eq!(t.interval_ms, 0);
        let row = t
            .processes
            .iter()
            .find(|p| p.pid == me)
            .expect("this process is listed");
        assert_eq!(row.cpu_percent, 0.0, "first scan has no interval");
        assert!(row.rss_bytes > 0);
        assert!(!row.command.is_empty());
        let ps_user = std::process::Command::new("ps")
            .args(["-o", "user=", "-p", &me.to_string()])
            .output()
            .expect("ps");
        assert_eq!(row.user, String::from_utf8_lossy(&ps_user.stdout).trim());
        // Threads are not processes: pids are unique.
        let pids: HashSet<u32> = t.processes.iter().map(|p| p.pid).collect();
        assert_eq!(pids.len(), t.processes.len());
        // Burn some CPU in this process; the second scan measures it.
        let start = Instant::now();
        let mut x = 0u64;
        while start.elapsed().as_millis() < 300 {
            x = x.wrapping_mul(31).wrapping_add(7);
        }
        std::hint::black_box(x);
        let t2 = s.scan(2, 1 << 40);
        assert!(t2.interval_ms >= 300);
        let row = t2.processes.iter().find(|p| p.pid == me).expect("listed");
        assert!(row.cpu_percent > 0.0, "{row:?}");
    }
}
