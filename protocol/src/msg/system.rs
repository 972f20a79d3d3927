//! Extension payloads about the machine: monitor subscriptions and snapshots (gauges, I/O
//! rates, recent history, the process list a subscriber asked for), the details of one
//! process, and watch runs (a read-only command or a question re-run by a client).

use super::*;

/// How a process list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
#[serde(rename_all = "lowercase")]
pub enum ProcessSort {
    #[default]
    Cpu,
    Memory,
}

/// The process list a monitor subscriber wants with each snapshot, chosen from all
/// processes (not only the top ones).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessView {
    /// Case-insensitive text matched against name, user and command line, or a pid prefix;
    /// empty: every process.
    #[serde(default)]
    pub filter: String,
    #[serde(default)]
    pub sort: ProcessSort,
    /// At most this many matching processes (the server caps it).
    pub limit: u32,
    /// Also send the ancestors of every listed process (a connected tree).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tree: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct MonitorSubscribe {
    /// Snapshot interval; the server clamps it to [250 ms, 60 s].
    pub interval_ms: u32,
    /// The process list to send; absent: the top processes by CPU and by memory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processes: Option<ProcessView>,
    /// Send the recent history (`MonitorSnapshot::history`) with the first snapshot.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub history: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct CpuStats {
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub usage_percent: f32,
    pub cores: u32,
    pub frequency_mhz: u64,
    #[cfg_attr(
        test,
        proptest(strategy = "[0.0f64..64.0, 0.0f64..64.0, 0.0f64..64.0]")
    )]
    pub load_avg: [f64; 3],
    /// Each logical core's usage over the last interval, in core order; absent from older
    /// servers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(
        test,
        proptest(strategy = "proptest::collection::vec(0.0f32..=100.0, 0..4)")
    )]
    pub per_core: Vec<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct MemoryStats {
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub usage_percent: f32,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DiskStats {
    pub mount: String,
    pub fs: String,
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub usage_percent: f32,
}

/// One network interface: cumulative bytes (`/proc/net/dev`) and the rates since the
/// previous sample.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct NetInterface {
    pub name: String,
    pub rx_bytes: u64,
    pub tx_bytes: u64,
    pub rx_bytes_per_sec: u64,
    pub tx_bytes_per_sec: u64,
    /// The loopback interface: listed, not in the totals.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub loopback: bool,
}

/// Network rates: the totals over every interface but loopback, and each interface.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct NetIo {
    pub rx_bytes_per_sec: u64,
    pub tx_bytes_per_sec: u64,
    pub interfaces: Vec<NetInterface>,
}

/// One block device: cumulative bytes (`/proc/diskstats` sectors x 512) and the rates
/// since the previous sample.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DiskDevice {
    pub name: String,
    pub read_bytes: u64,
    pub written_bytes: u64,
    pub read_bytes_per_sec: u64,
    pub write_bytes_per_sec: u64,
}

/// Disk rates: the totals over whole disks (not partitions, loop, ram or stacked devices,
/// which would count the same bytes twice), and each of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct DiskIo {
    pub read_bytes_per_sec: u64,
    pub write_bytes_per_sec: u64,
    pub devices: Vec<DiskDevice>,
}

/// One sample's figures as the sparklines draw them.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct HistoryPoint {
    /// Unix milliseconds of the sample.
    pub ts_ms: u64,
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub cpu_percent: f32,
    #[cfg_attr(test, proptest(strategy = "0.0f32..=100.0"))]
    pub mem_percent: f32,
    pub net_rx_bytes_per_sec: u64,
    pub net_tx_bytes_per_sec: u64,
    pub disk_read_bytes_per_sec: u64,
    pub disk_write_bytes_per_sec: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct MonitorSnapshot {
    /// Unix milliseconds when sampled.
    pub ts_ms: u64,
    pub cpu: CpuStats,
    pub memory: MemoryStats,
    pub disks: Vec<DiskStats>,
    /// The processes the subscription asked for (`MonitorSubscribe::processes`), else the
    /// top processes by CPU and the top by memory (their union); absent from older servers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub top_processes: Vec<ProcessStats>,
    /// How many processes exist (all of them, not only `top_processes`); absent from
    /// older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub process_count: Option<u32>,
    /// Network rates over the last interval; absent from older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub net: Option<NetIo>,
    /// Disk I/O rates over the last interval; absent from older servers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disk_io: Option<DiskIo>,
    /// Wall time the CPU figures and rates are measured over (0: unknown).
    #[serde(default, skip_serializing_if = "is_zero_u64")]
    pub interval_ms: u64,
    /// The recent samples, oldest first: only in the first snapshot after a subscription
    /// that asked for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub history: Vec<HistoryPoint>,
}

fn is_zero_u64(n: &u64) -> bool {
    *n == 0
}

/// One process of a monitor snapshot, with the numbers `ps`/`top` show.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessStats {
    pub pid: u32,
    /// Parent pid (0: none or unknown, and from older servers).
    #[serde(default)]
    pub ppid: u32,
    /// Effective user name (or the numeric uid).
    pub user: String,
    /// Kernel command name (`comm`, what `top` shows).
    pub name: String,
    /// CPU over the last sampling interval, 100 = one full core (like top).
    #[cfg_attr(test, proptest(strategy = "0.0f64..=400.0"))]
    pub cpu_percent: f64,
    /// Resident set size in bytes.
    pub rss_bytes: u64,
    /// RSS / MemTotal in percent (like `ps -o %mem`).
    #[cfg_attr(test, proptest(strategy = "0.0f64..=100.0"))]
    pub mem_percent: f64,
    /// Command line (cut by the server), `[name]` for kernel threads.
    #[serde(default)]
    pub command: String,
}

/// PROCESS_GET: the details of one process.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessGet {
    pub request_id: RequestId,
    pub pid: u32,
}

/// A process named by pid.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessRef {
    pub pid: u32,
    pub name: String,
}

/// One open file descriptor that is not a socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct OpenFile {
    pub fd: u32,
    /// What the descriptor points at: a path, `pipe:[…]`, `anon_inode:[…]`, ….
    pub target: String,
}

/// One socket descriptor, resolved through `/proc/net` when it is an inet or unix socket.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct SocketInfo {
    pub fd: u32,
    /// `tcp`, `tcp6`, `udp`, `udp6`, `unix`, or `socket` when not found.
    pub proto: String,
    /// `addr:port` (inet) or the socket's path (unix; may be empty).
    pub local: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub remote: String,
    /// TCP state (`LISTEN`, `ESTABLISHED`, …); empty otherwise.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub state: String,
}

/// What `/proc` says about one process (`ps`, `lsof -p` and `/proc/PID/status` in one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessDetails {
    pub pid: u32,
    /// Kernel command name (`comm`).
    pub name: String,
    /// The whole command line, one element per argument (`[name]` alone for a kernel
    /// thread); control characters shown as `?`.
    pub argv: Vec<String>,
    pub user: String,
    pub parent: Option<ProcessRef>,
    pub children: Vec<ProcessRef>,
    /// `R (running)`, `S (sleeping)`, `D (disk sleep)`, `Z (zombie)`, ….
    pub state: String,
    pub threads: u64,
    /// Unix seconds when it started.
    pub started_at: u64,
    /// CPU over the sampler's last interval (100 = one core), when it was in that sample.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, proptest(strategy = "proptest::option::of(0.0f64..=400.0)"))]
    pub cpu_percent: Option<f64>,
    pub rss_bytes: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exe: Option<String>,
    /// Open descriptors that are not sockets (at most a few hundred; see `fds_total`).
    pub files: Vec<OpenFile>,
    pub sockets: Vec<SocketInfo>,
    /// All open descriptors, including those not listed.
    pub fds_total: u32,
    /// Descriptors whose path the path policy hides (a secret's name is not shown).
    #[serde(default, skip_serializing_if = "is_zero_u32")]
    pub hidden: u32,
    /// Why the descriptors could not be read (permissions), when they could not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fds_error: Option<String>,
}

fn is_zero_u32(n: &u32) -> bool {
    *n == 0
}

/// PROCESS_INFO: the answer to PROCESS_GET.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct ProcessInfoReply {
    pub request_id: RequestId,
    pub process: ProcessDetails,
}

/// WATCH_RUN: run a read-only command line, or ask a question, once, for a watch pane;
/// nothing is written to the session's history.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct WatchRun {
    pub request_id: RequestId,
    pub text: String,
}

/// How a watch run was carried out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
#[serde(rename_all = "snake_case")]
pub enum WatchKind {
    /// A command line, run by the command tool (its grammar, timeout and output cap).
    Command,
    /// A question, answered by the agent without writing history.
    Answer,
}

/// WATCH_OUTPUT: the result of one watch run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(Arbitrary))]
pub struct WatchOutput {
    pub request_id: RequestId,
    pub kind: WatchKind,
    pub ok: bool,
    /// The command's output or the answer, one element per line.
    pub lines: Vec<String>,
    /// Why it failed (a refused command, a timeout), when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    pub duration_ms: u64,
}
