//! The processes table: the sampler's last scan (pid, user, comm, %CPU over its interval,
//! RSS, %MEM, command line) joined with what `/proc/PID/stat` says now (parent, state,
//! threads, start time and the seconds since), as `ps -eo
//! pid,ppid,user,stat,nlwp,lstart,etimes,pcpu,rss,args` shows it,
//! and the program each runs (the sampler reads it off the whole command line).

use llmops_common::query::{FieldKind, Unit};

use super::table::{col, SysCell, SysTable};
use crate::sys_monitor::procs::{sysconf, ProcessTable};

/// What `/proc/PID/stat` adds to the sampler's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatExtra {
    pub ppid: i64,
    pub state: String,
    pub threads: i64,
    /// Start time after boot, in clock ticks.
    pub start_ticks: u64,
}

/// Parses the fields the table adds from `/proc/PID/stat` (the comm may hold spaces and
/// parentheses, so fields are counted after its last `)`).
pub fn parse_extra(stat: &str) -> Option<StatExtra> {
    let close = stat.rfind(')')?;
    let rest: Vec<&str> = stat.get(close + 1..)?.split_whitespace().collect();
    // After the comm: state is field 3, ppid 4, num_threads 20, starttime 22 (proc(5)).
    Some(StatExtra {
        state: rest.first()?.to_string(),
        ppid: rest.get(1)?.parse().ok()?,
        threads: rest.get(17)?.parse().ok()?,
        start_ticks: rest.get(19)?.parse().ok()?,
    })
}

/// The systemd unit a process runs in, from `/proc/PID/cgroup` (v2 `0::/system.slice/x.service`
/// or v1 `name=systemd:/system.slice/x.service`): the last `.service` or `.scope` segment.
pub fn unit_of(cgroup: &str) -> Option<String> {
    cgroup.lines().find_map(|l| {
        let path = l.splitn(3, ':').nth(2)?;
        path.split('/')
            .rev()
            .find(|seg| seg.ends_with(".service") || seg.ends_with(".scope"))
            .map(str::to_string)
    })
}

/// Boot time in seconds since the epoch (`btime` of `/proc/stat`).
fn boot_time() -> Option<i64> {
    let text = std::fs::read_to_string("/proc/stat").ok()?;
    text.lines()
        .find_map(|l| l.strip_prefix("btime "))
        .and_then(|v| v.trim().parse().ok())
}

/// When a process started, in seconds since the epoch, from its start after boot in clock
/// ticks (as `ps` reads `lstart` and `etimes`).
fn started_at(boot: i64, ticks: u64, clk_tck: u64) -> i64 {
    boot + i64::try_from(ticks / clk_tck.max(1)).unwrap_or(0)
}

/// Whole seconds since boot (`/proc/uptime`'s first figure).
fn uptime_seconds() -> Option<i64> {
    let text = std::fs::read_to_string("/proc/uptime").ok()?;
    let secs: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(secs as i64)
}

/// A start time as local `YYYY-MM-DDTHH:MM:SS`.
fn start_iso(secs: i64) -> String {
    chrono::DateTime::from_timestamp(secs, 0)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%Y-%m-%dT%H:%M:%S")
                .to_string()
        })
        .unwrap_or_default()
}

/// The processes table from the sampler's last scan.
pub fn table(scan: &ProcessTable) -> SysTable {
    let clk_tck = sysconf(libc::_SC_CLK_TCK, 100);
    let boot = boot_time();
    // Seconds since boot, as `ps` reads `etimes`: the wall clock and `btime` drift apart.
    let uptime = uptime_seconds();
    let fields = vec![
        col("pid", FieldKind::Integer, Unit::None),
        col("ppid", FieldKind::Integer, Unit::None),
        col("user", FieldKind::Text, Unit::None),
        col("name", FieldKind::Text, Unit::None),
        col("state", FieldKind::Text, Unit::None),
        col("threads", FieldKind::Integer, Unit::None),
        col("start_time", FieldKind::Time, Unit::None),
        col("elapsed_seconds", FieldKind::Integer, Unit::S),
        col("cpu_percent", FieldKind::Number, Unit::Percent),
        col("rss_bytes", FieldKind::Integer, Unit::B),
        col("mem_percent", FieldKind::Number, Unit::Percent),
        col("command", FieldKind::Text, Unit::None),
        col("unit", FieldKind::Text, Unit::None),
        col("program", FieldKind::Text, Unit::None),
    ];
    let rows = scan
        .processes
        .iter()
        .map(|p| {
            let extra = std::fs::read_to_string(format!("/proc/{}/stat", p.pid))
                .ok()
                .and_then(|s| parse_extra(&s));
            let (ppid, state, threads) = match &extra {
                Some(e) => (
                    SysCell::Int(e.ppid),
                    SysCell::Text(e.state.clone()),
                    SysCell::Int(e.threads),
                ),
                None => (SysCell::Null, SysCell::Null, SysCell::Null),
            };
            let started = extra
                .as_ref()
                .zip(boot)
                .map(|(e, b)| started_at(b, e.start_ticks, clk_tck));
            let (start, elapsed) = match started {
                Some(at) => (
                    SysCell::Text(start_iso(at)),
                    extra.as_ref().zip(uptime).map_or(SysCell::Null, |(e, up)| {
                        let since_boot = i64::try_from(e.start_ticks / clk_tck.max(1)).unwrap_or(0);
                        SysCell::Int((up - since_boot).max(0))
                    }),
                ),
                None => (SysCell::Null, SysCell::Null),
            };
            vec![
                SysCell::Int(i64::from(p.pid)),
                ppid,
                SysCell::Text(p.user.clone()),
                SysCell::Text(p.name.clone()),
                state,
                threads,
                start,
                elapsed,
                SysCell::Num(p.cpu_percent),
                SysCell::Int(i64::try_from(p.rss_bytes).unwrap_or(i64::MAX)),
                SysCell::Num(p.mem_percent),
                SysCell::Text(p.command.clone()),
                std::fs::read_to_string(format!("/proc/{}/cgroup", p.pid))
                    .ok()
                    .and_then(|c| unit_of(&c))
                    .map_or(SysCell::Null, SysCell::Text),
                SysCell::Text(p.program.clone()),
            ]
        })
        .collect();
    SysTable {
        name: "processes",
        fields,
        rows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_fields_are_counted_after_the_last_parenthesis() {
        let stat = "4242 (my (odd) proc) S 1 4242 4242 0 -1 4194560 100 0 0 0 7 3 0 0 20 0 \
                    5 0 123456 1000000 250 18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0";
        let e = parse_extra(stat).expect("parses");
        assert_eq!(
            e,
            StatExtra {
                ppid: 1,
                state: "S".into(),
                threads: 5,
                start_ticks: 123456
            }
        );
    }

    #[test]
    fn the_unit_comes_from_the_cgroup_path() {
        assert_eq!(
            unit_of("0::/system.slice/nginx.service\n").as_deref(),
            Some("nginx.service")
        );
        assert_eq!(
            unit_of("9:name=systemd:/system.slice/redis-server.service\n0::/\n").as_deref(),
            Some("redis-server.service")
        );
        assert_eq!(
            unit_of("0::/user.slice/user-1000.slice/session-3.scope").as_deref(),
            Some("session-3.scope")
        );
        assert_eq!(unit_of("0::/\n"), None);
    }

    /// A process started some seconds ago is in the table with `ps -o etimes`' figure (give
    /// or take the second that may tick between the two reads).
    #[test]
    fn elapsed_seconds_are_what_ps_says() {
        use crate::sys_monitor::ProcessInfo;
        let mut child = std::process::Command::new("sleep")
            .arg("600")
            .spawn()
            .expect("sleep runs");
        std::thread::sleep(std::time::Duration::from_millis(2100));
        let pid = child.id();
        let scan = ProcessTable {
            seq: 1,
            interval_ms: 0,
            memory_total_bytes: 1,
            processes: vec![ProcessInfo {
                pid,
                ppid: 1,
                user: "u".into(),
                name: "sleep".into(),
                cpu_percent: 0.0,
                rss_bytes: 0,
                mem_percent: 0.0,
                command: "sleep 600".into(),
                program: "sleep".into(),
            }],
        };
        let t = table(&scan);
        let ps = std::process::Command::new("ps")
            .args(["-o", "etimes=", "-p", &pid.to_string()])
            .output()
            .expect("ps runs");
        let _ = child.kill();
        let _ = child.wait();
        let ps: i64 = String::from_utf8_lossy(&ps.stdout)
            .trim()
            .parse()
            .expect("etimes");
        let at = t
            .fields
            .iter()
            .position(|f| f.name == "elapsed_seconds")
            .expect("the column");
        let SysCell::Int(ours) = t.rows[0][at] else {
            panic!("{:?}", t.rows[0][at]);
        };
        assert!(ps >= 2 && (ours - ps).abs() <= 1, "ours {ours}, ps {ps}");
    }

    #[test]
    fn this_process_is_in_the_table_with_its_parent_and_threads() {
        let me = std::process::id();
        let stat = std::fs::read_to_string(format!("/proc/{me}/stat")).expect("own stat");
        let e = parse_extra(&stat).expect("parses");
        // The parent as the kernel reports it to the standard library.
        assert_eq!(e.ppid, i64::from(std::os::unix::process::parent_id()));
        assert!(e.threads >= 1);
    }
}
