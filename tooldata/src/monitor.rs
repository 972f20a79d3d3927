//! What `sys_monitor` returns: the CPU, memory and disk figures of a summary and the
//! process listing (with the sort order it ranks by).

use serde::{Deserialize, Serialize};

/// The figures a `sys_monitor` summary asked for (absent parts are left out).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct MonitorData {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cpu: Option<CpuStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory: Option<MemoryStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub disks: Option<Vec<DiskStats>>,
}

/// The value of `metric` in a process answer (always `"processes"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum ProcessesMetric {
    #[default]
    #[serde(rename = "processes")]
    Processes,
}

/// The top processes by CPU or memory (docs/tools.md, `sys_monitor` metric `processes`).
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct ProcessesData {
    pub metric: ProcessesMetric,
    pub sort: ProcSort,
    /// The name filter asked for.
    pub name: Option<String>,
    pub total_processes: usize,
    /// How many processes matched the name (all of them without one).
    pub matched: usize,
    pub memory_total_bytes: u64,
    pub cores: usize,
    pub interval_ms: u64,
    /// At most `limit` of the matching processes, sorted.
    pub processes: Vec<ProcessInfo>,
}

/// CPU figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuStats {
    pub usage_percent: f32,
    /// Logical cores.
    pub cores: usize,
    /// Average current frequency over cores.
    pub frequency_mhz: u64,
    pub load_avg: [f64; 3],
    /// Each logical core's usage over the last interval, in core order.
    #[serde(default)]
    pub per_core: Vec<f32>,
}

/// Memory figures, as procps-ng 4 `free` computes them (used = total - available).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryStats {
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    pub usage_percent: f64,
    /// MemFree (`free`'s "free" column).
    #[serde(default)]
    pub free_bytes: u64,
    /// Shmem (`free`'s "shared").
    #[serde(default)]
    pub shared_bytes: u64,
    /// Buffers + Cached + SReclaimable (`free`'s "buff/cache").
    #[serde(default)]
    pub buff_cache_bytes: u64,
    #[serde(default)]
    pub swap_total_bytes: u64,
    #[serde(default)]
    pub swap_used_bytes: u64,
    #[serde(default)]
    pub swap_free_bytes: u64,
}

/// One mounted real file system, with `df`'s figures: used = total - free (root's reserve
/// counts as used), available = what unprivileged users may still write, and
/// `usage_percent` = df's Use% (ceil(used * 100 / (used + available)), a whole number).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DiskStats {
    pub mount: String,
    pub fs: String,
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    pub usage_percent: f64,
}

/// One process.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ProcessInfo {
    pub pid: u32,
    /// Parent pid (0 for the kernel's own threads and when unknown).
    #[serde(default)]
    pub ppid: u32,
    /// Effective user name (`ps -o user`), or the numeric uid when it has no name.
    pub user: String,
    /// Kernel command name (`comm`, at most 15 bytes, what `top` shows).
    pub name: String,
    /// Like top: CPU time over the last sampling interval, 100 = one full core (capped at
    /// 100 per thread, at most the core count, against tick jitter on short intervals).
    pub cpu_percent: f64,
    /// Resident set size in bytes (`ps -o rss` is the same in KiB).
    pub rss_bytes: u64,
    /// Like `ps -o %mem`: RSS / MemTotal, one decimal.
    pub mem_percent: f64,
    /// Command line, arguments joined by spaces, cut to `COMMAND_WIDTH` characters;
    /// `[name]` for kernel threads (as ps shows them).
    pub command: String,
    /// What it runs: the executable's name, or the script, jar or module an interpreter
    /// runs (read off the whole command line, before it is cut).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub program: String,
}

/// Sort order of a process listing (the tool's default is by CPU).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProcSort {
    #[default]
    Cpu,
    Memory,
}

impl ProcSort {
    /// Parses the `sort` argument (`mem`/`rss` mean memory).
    pub fn parse(raw: &str) -> Option<ProcSort> {
        match raw.trim().to_ascii_lowercase().as_str() {
            "cpu" | "%cpu" => Some(ProcSort::Cpu),
            "memory" | "mem" | "%mem" | "rss" => Some(ProcSort::Memory),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            ProcSort::Cpu => "cpu",
            ProcSort::Memory => "memory",
        }
    }
    /// The column of the processes table (`system_query`) that ranks the same way.
    pub fn column(self) -> &'static str {
        match self {
            ProcSort::Cpu => "cpu_percent",
            ProcSort::Memory => "rss_bytes",
        }
    }

    /// The sort whose column is `column`.
    pub fn of_column(column: &str) -> Option<ProcSort> {
        [ProcSort::Cpu, ProcSort::Memory]
            .into_iter()
            .find(|s| s.column() == column)
    }
}
