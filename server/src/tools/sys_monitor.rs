//! System sampler and the `sys_monitor` tool. One background task refreshes sysinfo (off the
//! runtime, on the blocking pool) and publishes `Snapshot`s on a watch channel that the tool
//! and the TUI gauge stream both read. The tool never samples by itself.

use std::collections::HashSet;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use sysinfo::{Disks, System, MINIMUM_CPU_UPDATE_INTERVAL};
use tokio::sync::watch;

use super::{human_size, parse_args, Tool, ToolCtx, ToolFuture, ToolResult};

/// CPU figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CpuStats {
    pub usage_percent: f32,
    /// Logical cores.
    pub cores: usize,
    /// Average current frequency over cores.
    pub frequency_mhz: u64,
    pub load_avg: [f64; 3],
}

/// Memory figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct MemoryStats {
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    pub usage_percent: f64,
}

/// One mounted real file system.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DiskStats {
    pub mount: String,
    pub fs: String,
    pub total_bytes: u64,
    pub used_bytes: u64,
    pub available_bytes: u64,
    pub usage_percent: f64,
}

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
}

/// Pseudo and virtual file systems that are not storage the user cares about.
const PSEUDO_FS: &[&str] = &[
    "tmpfs",
    "devtmpfs",
    "overlay",
    "overlayfs",
    "proc",
    "sysfs",
    "cgroup",
    "cgroup2",
    "devpts",
    "mqueue",
    "squashfs",
    "autofs",
    "debugfs",
    "tracefs",
    "securityfs",
    "pstore",
    "bpf",
    "configfs",
    "fusectl",
    "hugetlbfs",
    "nsfs",
    "ramfs",
    "rpc_pipefs",
    "binfmt_misc",
    "efivarfs",
    "selinuxfs",
    "fuse.lxcfs",
    "shm",
    "none",
    "nfsd",
    "aufs",
    "iso9660",
];

fn percent(part: u64, total: u64) -> f64 {
    if total == 0 {
        0.0
    } else {
        // Rounded to one decimal: enough for gauges, stable in JSON.
        ((part as f64 / total as f64) * 1000.0).round() / 10.0
    }
}

fn collect_disks(disks: &Disks) -> Vec<DiskStats> {
    let mut seen = HashSet::new();
    let mut all: Vec<DiskStats> = Vec::new();
    let mut root_fallback = None;
    for d in disks.list() {
        let fs = d.file_system().to_string_lossy().to_string();
        let mount = d.mount_point().display().to_string();
        let total = d.total_space();
        let avail = d.available_space().min(total);
        let stats = DiskStats {
            mount: mount.clone(),
            fs: fs.clone(),
            total_bytes: total,
            used_bytes: total - avail,
            available_bytes: avail,
            usage_percent: percent(total - avail, total),
        };
        if mount == "/" {
            root_fallback = Some(stats.clone());
        }
        if total == 0 || PSEUDO_FS.contains(&fs.as_str()) {
            continue;
        }
        // Bind mounts show the same device several times: keep the first (shortest path
        // sorts first below).
        let key = d.name().to_string_lossy().to_string();
        let key = if key.is_empty() { mount.clone() } else { key };
        if seen.insert(key) {
            all.push(stats);
        }
    }
    // In a container `/` is often overlay: still report it rather than nothing.
    if all.is_empty() {
        all.extend(root_fallback);
    }
    all.sort_by(|a, b| {
        a.mount
            .len()
            .cmp(&b.mount.len())
            .then(a.mount.cmp(&b.mount))
    });
    all
}

fn sample(sys: &mut System, disks: &mut Disks, seq: u64, relist_disks: bool) -> Snapshot {
    sys.refresh_cpu_all();
    sys.refresh_memory();
    if relist_disks {
        disks.refresh_list();
    } else {
        disks.refresh();
    }
    let cpus = sys.cpus();
    let freq = if cpus.is_empty() {
        0
    } else {
        cpus.iter().map(|c| c.frequency()).sum::<u64>() / cpus.len() as u64
    };
    let load = System::load_average();
    let total = sys.total_memory();
    let available = sys.available_memory().min(total);
    Snapshot {
        seq,
        taken_at: chrono::Local::now().to_rfc3339(),
        cpu: CpuStats {
            usage_percent: (sys.global_cpu_usage() * 10.0).round() / 10.0,
            cores: cpus.len(),
            frequency_mhz: freq,
            load_avg: [load.one, load.five, load.fifteen],
        },
        memory: MemoryStats {
            total_bytes: total,
            used_bytes: total - available,
            available_bytes: available,
            usage_percent: percent(total - available, total),
        },
        disks: collect_disks(disks),
    }
}

/// Starts the background sampler.
pub struct Sampler;

impl Sampler {
    /// Spawns the sampling task (needs a tokio runtime). It refreshes every `interval`
    /// (at least `MINIMUM_CPU_UPDATE_INTERVAL`) and stops when every handle is dropped.
    pub fn spawn(interval: Duration) -> SamplerHandle {
        let interval = interval.max(MINIMUM_CPU_UPDATE_INTERVAL);
        let (tx, rx) = watch::channel(Snapshot::default());
        tokio::spawn(async move {
            let mut state = Some((System::new(), Disks::new()));
            let mut seq = 0u64;
            loop {
                let Some((mut sys, mut disks)) = state.take() else {
                    break;
                };
                // The disk list changes rarely; re-list every 30 samples.
                let relist = seq.checked_rem(30) == Some(0);
                let joined = tokio::task::spawn_blocking(move || {
                    let snap = sample(&mut sys, &mut disks, seq, relist);
                    (sys, disks, snap)
                })
                .await;
                let Ok((sys, disks, snap)) = joined else {
                    tracing::error!("system sampler panicked; gauges stop updating");
                    break;
                };
                state = Some((sys, disks));
                if tx.send(snap).is_err() {
                    break;
                }
                seq += 1;
                tokio::select! {
                    () = tx.closed() => break,
                    () = tokio::time::sleep(interval) => {}
                }
            }
        });
        SamplerHandle { rx }
    }
}

/// Read side of the sampler. Cheap to clone.
#[derive(Debug, Clone)]
pub struct SamplerHandle {
    rx: watch::Receiver<Snapshot>,
}

impl SamplerHandle {
    /// A handle that always reports `snapshot` (tests, or platforms without sysinfo).
    pub fn fixed(snapshot: Snapshot) -> SamplerHandle {
        let (_tx, rx) = watch::channel(snapshot);
        SamplerHandle { rx }
    }

    /// The most recent snapshot.
    pub fn latest(&self) -> Snapshot {
        self.rx.borrow().clone()
    }

    /// A receiver to stream snapshots (the gauge feed).
    pub fn subscribe(&self) -> watch::Receiver<Snapshot> {
        self.rx.clone()
    }

    /// Waits until a snapshot with a real CPU measurement (seq >= 1) exists, or the
    /// sampler is gone, and returns the latest.
    pub async fn ready(&self) -> Snapshot {
        let mut rx = self.rx.clone();
        loop {
            if rx.borrow_and_update().seq >= 1 {
                break;
            }
            if rx.changed().await.is_err() {
                break;
            }
        }
        let snap = rx.borrow().clone();
        snap
    }
}

/// Which part of the snapshot the caller wants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Metric {
    Cpu,
    Memory,
    Disk,
    All,
}

#[derive(Debug, Deserialize)]
struct Args {
    #[serde(default)]
    metric: Option<String>,
}

/// `sys_monitor {metric: cpu|memory|disk|all}`.
pub struct SysMonitorTool {
    sampler: SamplerHandle,
}

impl SysMonitorTool {
    pub fn new(sampler: SamplerHandle) -> Self {
        SysMonitorTool { sampler }
    }
}

fn cpu_line(c: &CpuStats) -> String {
    format!(
        "CPU 使用率 {:.1}%（{} 核，{} MHz），负载 {:.2} / {:.2} / {:.2}",
        c.usage_percent, c.cores, c.frequency_mhz, c.load_avg[0], c.load_avg[1], c.load_avg[2]
    )
}

fn memory_line(m: &MemoryStats) -> String {
    format!(
        "内存 已用 {} / 共 {}（{:.1}%），可用 {}",
        human_size(m.used_bytes),
        human_size(m.total_bytes),
        m.usage_percent,
        human_size(m.available_bytes)
    )
}

fn disk_line(d: &DiskStats) -> String {
    format!(
        "磁盘 {}（{}）已用 {} / 共 {}（{:.1}%），可用 {}",
        d.mount,
        d.fs,
        human_size(d.used_bytes),
        human_size(d.total_bytes),
        d.usage_percent,
        human_size(d.available_bytes)
    )
}

/// Builds the tool result for `metric` from a snapshot.
fn render(snap: &Snapshot, metric: Metric) -> ToolResult {
    let mut data = serde_json::Map::new();
    let mut lines = Vec::new();
    if matches!(metric, Metric::Cpu | Metric::All) {
        data.insert("cpu".into(), json!(snap.cpu));
        lines.push(cpu_line(&snap.cpu));
    }
    if matches!(metric, Metric::Memory | Metric::All) {
        data.insert("memory".into(), json!(snap.memory));
        lines.push(memory_line(&snap.memory));
    }
    if matches!(metric, Metric::Disk | Metric::All) {
        data.insert("disks".into(), json!(snap.disks));
        if snap.disks.is_empty() {
            lines.push("磁盘: 未找到可报告的文件系统 (no real file systems found)".into());
        }
        lines.extend(snap.disks.iter().map(disk_line));
    }
    ToolResult::success(lines.join("\n"), Value::Object(data))
}

impl Tool for SysMonitorTool {
    fn name(&self) -> &'static str {
        "sys_monitor"
    }

    fn description(&self) -> &'static str {
        "监控系统资源使用情况（CPU、内存、磁盘）。Monitor system resources: CPU usage, \
         cores, frequency, load average, memory and per-mount disk usage. \
         关键词：CPU、内存、磁盘、使用率、负载、资源监控"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "metric": {
                    "type": "string",
                    "enum": ["cpu", "memory", "disk", "all"],
                    "default": "all",
                    "description": "要查看的指标 / which metric"
                }
            },
            "required": []
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: Args = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let raw = args.metric.unwrap_or_else(|| "all".into());
            let metric = match serde_json::from_value::<Metric>(json!(raw.trim().to_lowercase())) {
                Ok(m) => m,
                Err(_) => {
                    return ToolResult::failure(format!(
                        "metric 必须是 cpu、memory、disk 或 all 之一: {raw}"
                    ))
                }
            };
            tokio::select! {
                snap = self.sampler.ready() => render(&snap, metric),
                () = ctx.cancel.cancelled() => ToolResult::cancelled(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::testutil::Env;

    fn snap() -> Snapshot {
        Snapshot {
            seq: 3,
            taken_at: "2025-01-01T00:00:00+00:00".into(),
            cpu: CpuStats {
                usage_percent: 12.5,
                cores: 8,
                frequency_mhz: 2400,
                load_avg: [0.52, 0.40, 0.35],
            },
            memory: MemoryStats {
                total_bytes: 16 << 30,
                used_bytes: 8 << 30,
                available_bytes: 8 << 30,
                usage_percent: 50.0,
            },
            disks: vec![DiskStats {
                mount: "/".into(),
                fs: "ext4".into(),
                total_bytes: 100 << 30,
                used_bytes: 40 << 30,
                available_bytes: 60 << 30,
                usage_percent: 40.0,
            }],
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
        assert_eq!(r.data["cpu"]["cores"], 8);
        assert_eq!(r.data["cpu"]["load_avg"][2], 0.35);
        assert!(r.data.get("memory").is_none() && r.data.get("disks").is_none());

        let r = tool.call(json!({"metric": "memory"}), &env.ctx).await;
        assert_eq!(r.data["memory"]["usage_percent"], 50.0);
        assert!(r
            .output
            .starts_with("内存 已用 8.0 GiB / 共 16.0 GiB（50.0%）"));

        let r = tool.call(json!({"metric": "disk"}), &env.ctx).await;
        assert_eq!(r.data["disks"][0]["mount"], "/");
        assert_eq!(r.data["disks"][0]["available_bytes"], 60u64 << 30);

        let r = tool.call(json!({}), &env.ctx).await;
        assert!(
            r.data["cpu"].is_object() && r.data["memory"].is_object() && r.data["disks"].is_array()
        );
        assert_eq!(r.output.lines().count(), 3);

        let r = tool.call(json!({"metric": "gpu"}), &env.ctx).await;
        assert_eq!(
            r.error.as_deref(),
            Some("metric 必须是 cpu、memory、disk 或 all 之一: gpu")
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
        let tool = SysMonitorTool::new(SamplerHandle { rx });
        env.ctx.cancel.cancel();
        let r = tool.call(json!({"metric": "cpu"}), &env.ctx).await;
        assert_eq!(r.error.as_deref(), Some("操作已取消 (cancelled)"));
        drop(tx);
    }
}
