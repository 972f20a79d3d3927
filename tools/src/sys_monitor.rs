//! System sampler and the `sys_monitor` tool. One background task (`sampler`) refreshes
//! the machine's figures and publishes `Snapshot`s that the tool and the TUI gauge stream
//! both read, plus the full process table (for `metric: "processes"` and the process views
//! of clients) and the last few minutes of history. The tool never samples by itself.
//! Figures match the standard tools: memory as `free`, disks as `df`, processes as
//! `top`/`ps`, I/O rates as `sar`/`iostat` (see `sample`, `procs`, `io`).

pub mod details;
pub mod history;
mod io;
#[cfg(test)]
mod proc_tests;
pub(crate) mod procs;
pub(crate) mod program;
mod render;
mod sample;
mod sampler;
mod sockets;
mod view;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use super::{parse_args, Tool, ToolCtx, ToolFuture, ToolResult};
use llmops_common::ToolName;
use llmops_tooldata::{Metric, SysMonitorArgs, MONITOR_DEFAULT_LIMIT, MONITOR_MAX_LIMIT};

pub use history::{HistoryPoint, HISTORY_POINTS};
pub use io::DISKSTATS_SECTOR;
pub use llmops_tooldata::{CpuStats, DiskStats, MemoryStats};
pub use procs::{ProcSort, ProcessInfo, ProcessTable, COMMAND_WIDTH, SNAPSHOT_TOP};
use render::{Parts, ProcQuery};
#[cfg(test)]
use sample::PSEUDO_FS;
pub use sampler::{Sampler, SamplerHandle};
pub use view::{matches_filter, ProcView, MAX_VIEW};

/// One sample of the machine. Sent to clients as JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    /// 0 for the first sample, whose CPU usage is not meaningful yet; increments per refresh.
    pub seq: u64,
    /// RFC 3339 local time of the sample.
    pub taken_at: String,
    pub cpu: CpuStats,
    pub memory: MemoryStats,
    pub disks: Vec<DiskStats>,
    /// How many processes exist (all of them, not only `top_processes`).
    #[serde(default)]
    pub process_count: usize,
    /// The top `SNAPSHOT_TOP` processes by CPU and the top `SNAPSHOT_TOP` by memory, each
    /// process once, ordered by CPU. Only part of the table: the tool answers from all.
    #[serde(default)]
    pub top_processes: Vec<ProcessInfo>,
    /// Network rates over the last interval.
    #[serde(default)]
    pub net: protocol::NetIo,
    /// Disk read/write rates over the last interval.
    #[serde(default)]
    pub disk_io: protocol::DiskIo,
    /// Wall time the CPU figures and rates are measured over (0 on the first sample).
    #[serde(default)]
    pub interval_ms: u64,
}

/// The process listing a call asks for.
fn proc_query(args: &SysMonitorArgs) -> Result<ProcQuery, String> {
    Ok(ProcQuery {
        sort: args.sort()?,
        limit: args.limit()?,
        name: args.name().map(str::to_string),
    })
}

/// `sys_monitor {metric: cpu|memory|disk|processes|all, sort, limit, name}`.
pub struct SysMonitorTool {
    sampler: SamplerHandle,
}

impl SysMonitorTool {
    pub fn new(sampler: SamplerHandle) -> Self {
        SysMonitorTool { sampler }
    }

    fn answer(&self, snap: &Snapshot, metric: Metric, query: &ProcQuery) -> ToolResult {
        let parts = |cpu, memory, disk| Parts { cpu, memory, disk };
        match metric {
            Metric::Cpu => render::summary(snap, parts(true, false, false)),
            Metric::Memory => render::summary(snap, parts(false, true, false)),
            Metric::Disk => render::summary(snap, parts(false, false, true)),
            Metric::All => render::summary(snap, parts(true, true, true)),
            Metric::Processes => {
                render::processes(&self.sampler.processes(), snap.cpu.cores, query)
            }
        }
    }
}

impl Tool for SysMonitorTool {
    fn name(&self) -> &'static str {
        ToolName::SysMonitor.as_str()
    }

    fn description(&self) -> &'static str {
        "监控系统资源使用情况（CPU、内存、磁盘、进程）。Monitor system resources: CPU usage, \
         cores, load average, memory (like `free`), per-mount disk usage (like `df`), and \
         processes: top N by CPU or memory with pid, user, %CPU, RSS, %MEM and command line, \
         optionally filtered by name (metric=processes, sort=cpu|memory, limit, name). \
         关键词：CPU、内存、磁盘、使用率、负载、进程、占用最多、top"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "metric": {
                    "type": "string",
                    "enum": ["cpu", "memory", "disk", "processes", "all"],
                    "default": "all",
                    "description": "要查看的指标 / which metric; processes = 进程列表 (top N)"
                },
                "sort": {
                    "type": "string",
                    "enum": ["cpu", "memory"],
                    "default": "cpu",
                    "description": "metric=processes 时的排序 / sort order of processes"
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MONITOR_MAX_LIMIT,
                    "default": MONITOR_DEFAULT_LIMIT,
                    "description": "metric=processes 时返回的进程数 / how many processes"
                },
                "name": {
                    "type": "string",
                    "description": "只看名称或命令行包含此文本的进程（不区分大小写）/ \
                                    only processes whose name or command line contains this"
                }
            },
            "required": []
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: SysMonitorArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let metric = match args.metric() {
                Ok(m) => m,
                Err(e) => return ToolResult::failure(e),
            };
            let query = match proc_query(&args) {
                Ok(q) => q,
                Err(e) => return ToolResult::failure(e),
            };
            tokio::select! {
                snap = self.sampler.ready() => self.answer(&snap, metric, &query),
                () = ctx.cancel.cancelled() => ToolResult::cancelled(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;
    use std::sync::Arc;
    use sysinfo::MINIMUM_CPU_UPDATE_INTERVAL;
    use tokio::sync::watch;

    fn snap() -> Snapshot {
        Snapshot {
            seq: 3,
            taken_at: "2025-01-01T00:00:00+00:00".into(),
            cpu: CpuStats {
                usage_percent: 12.5,
                cores: 8,
                frequency_mhz: 2400,
                load_avg: [0.52, 0.40, 0.35],
                per_core: vec![10.0, 15.0],
            },
            memory: MemoryStats {
                total_bytes: 16 << 30,
                used_bytes: 8 << 30,
                available_bytes: 8 << 30,
                usage_percent: 50.0,
                ..MemoryStats::default()
            },
            disks: vec![DiskStats {
                mount: "/".into(),
                fs: "ext4".into(),
                total_bytes: 100 << 30,
                used_bytes: 40 << 30,
                available_bytes: 60 << 30,
                usage_percent: 40.0,
            }],
            ..Snapshot::default()
        }
    }

    #[tokio::test]
    async fn tools_sys_monitor_reports_only_requested_parts() {
        let env = Env::new();
        let tool = SysMonitorTool::new(SamplerHandle::fixed(snap()));
        let r = tool.call(json!({"metric": "cpu"}), &env.ctx).await;
        assert!(r.ok, "{r:?}");
        assert_eq!(
            r.output,
            "CPU 使用率 12.5%（8 核，2400 MHz），负载 0.52 / 0.40 / 0.35"
        );
        assert_eq!(r.data.to_value()["cpu"]["cores"], 8);
        assert_eq!(r.data.to_value()["cpu"]["load_avg"][2], 0.35);
        assert!(
            r.data.to_value().get("memory").is_none() && r.data.to_value().get("disks").is_none()
        );

        let r = tool.call(json!({"metric": "memory"}), &env.ctx).await;
        assert_eq!(r.data.to_value()["memory"]["usage_percent"], 50.0);
        assert!(r
            .output
            .starts_with("内存 已用 8.0 GiB / 共 16.0 GiB（50.0%）"));

        let r = tool.call(json!({"metric": "disk"}), &env.ctx).await;
        assert_eq!(r.data.to_value()["disks"][0]["mount"], "/");
        assert_eq!(
            r.data.to_value()["disks"][0]["available_bytes"],
            60u64 << 30
        );

        let r = tool.call(json!({}), &env.ctx).await;
        assert!(
            r.data.to_value()["cpu"].is_object()
                && r.data.to_value()["memory"].is_object()
                && r.data.to_value()["disks"].is_array()
        );
        assert_eq!(r.output.lines().count(), 3);

        let r = tool.call(json!({"metric": "gpu"}), &env.ctx).await;
        assert_eq!(
            r.error.as_deref(),
            Some("metric 必须是 cpu、memory、disk、processes 或 all 之一: gpu")
        );
    }

    #[test]
    fn tools_sys_monitor_snapshot_roundtrips_json() {
        let s = snap();
        let text = serde_json::to_string(&s).expect("ser");
        let back: Snapshot = serde_json::from_str(&text).expect("de");
        assert_eq!(back, s);
    }

    #[tokio::test]
    async fn tools_sys_monitor_real_sampler_measures_this_machine() {
        let handle = Sampler::spawn(MINIMUM_CPU_UPDATE_INTERVAL);
        let s = handle.ready().await;
        assert!(s.seq >= 1);
        assert!(s.cpu.cores >= 1);
        assert!((0.0..=100.0).contains(&s.cpu.usage_percent));
        assert!(s.memory.total_bytes > 0);
        assert!(s.memory.used_bytes <= s.memory.total_bytes);
        assert!(!s.disks.is_empty(), "at least / is reported");
        for d in &s.disks {
            assert!(
                !PSEUDO_FS.contains(&d.fs.as_str()) || d.mount == "/",
                "{d:?}"
            );
            assert!(d.used_bytes <= d.total_bytes);
        }
        // The watch receiver streams further snapshots.
        let mut rx = handle.subscribe();
        rx.borrow_and_update();
        rx.changed().await.expect("sampler alive");
        assert!(rx.borrow().seq > s.seq);
    }

    #[tokio::test]
    async fn tools_sys_monitor_honours_cancellation_while_waiting() {
        let env = Env::new();
        // seq 0 = no CPU measurement yet; the sender is kept so `ready` would wait forever.
        let (tx, rx) = watch::channel(Snapshot::default());
        let (_ptx, procs) = watch::channel(Arc::new(ProcessTable::default()));
        let tool = SysMonitorTool::new(SamplerHandle::from_channels(rx, procs));
        env.ctx.cancel.cancel();
        let r = tool.call(json!({"metric": "cpu"}), &env.ctx).await;
        assert_eq!(r.error.as_deref(), Some("操作已取消 (cancelled)"));
        drop(tx);
    }
}
