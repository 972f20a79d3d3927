//! Text and JSON answers of `sys_monitor`: the summary lines (CPU, memory like `free`, disks
//! like `df`) and the process answer that names the top process, then a small table.

use super::procs::{cut, matches_name, sort, ProcSort, ProcessInfo, ProcessTable, COMMAND_WIDTH};
use super::{CpuStats, DiskStats, MemoryStats, Snapshot};
use crate::data::{MonitorData, ProcessesData, ProcessesMetric, ToolData};
use crate::{human_size, ToolResult};

pub(super) fn cpu_line(c: &CpuStats) -> String {
    format!(
        "CPU 使用率 {:.1}%（{} 核，{} MHz），负载 {:.2} / {:.2} / {:.2}",
        c.usage_percent, c.cores, c.frequency_mhz, c.load_avg[0], c.load_avg[1], c.load_avg[2]
    )
}

pub(super) fn memory_line(m: &MemoryStats) -> String {
    let mut s = format!(
        "内存 已用 {} / 共 {}（{:.1}%），可用 {}",
        human_size(m.used_bytes),
        human_size(m.total_bytes),
        m.usage_percent,
        human_size(m.available_bytes)
    );
    // Snapshots from before these fields existed deserialize them as 0: say nothing then.
    if m.free_bytes > 0 || m.buff_cache_bytes > 0 {
        s.push_str(&format!(
            "，空闲 {}，缓存 {}",
            human_size(m.free_bytes),
            human_size(m.buff_cache_bytes)
        ));
    }
    if m.swap_total_bytes > 0 {
        s.push_str(&format!(
            "；交换区 已用 {} / 共 {}",
            human_size(m.swap_used_bytes),
            human_size(m.swap_total_bytes)
        ));
    }
    s
}

pub(super) fn disk_line(d: &DiskStats) -> String {
    format!(
        "磁盘 {}（{}）已用 {} / 共 {}（{:.0}%），可用 {}",
        d.mount,
        d.fs,
        human_size(d.used_bytes),
        human_size(d.total_bytes),
        d.usage_percent,
        human_size(d.available_bytes)
    )
}

/// Which parts of the summary to include.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Parts {
    pub cpu: bool,
    pub memory: bool,
    pub disk: bool,
}

/// The summary answer (`cpu`, `memory`, `disk`, `all`).
pub(super) fn summary(snap: &Snapshot, parts: Parts) -> ToolResult {
    let mut data = MonitorData::default();
    let mut lines = Vec::new();
    if parts.cpu {
        data.cpu = Some(snap.cpu.clone());
        lines.push(cpu_line(&snap.cpu));
    }
    if parts.memory {
        data.memory = Some(snap.memory.clone());
        lines.push(memory_line(&snap.memory));
    }
    if parts.disk {
        data.disks = Some(snap.disks.clone());
        if snap.disks.is_empty() {
            lines.push("磁盘: 未找到可报告的文件系统 (no real file systems found)".into());
        }
        lines.extend(snap.disks.iter().map(disk_line));
    }
    ToolResult::success(lines.join("\n"), ToolData::Monitor(data))
}

/// A `processes` request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ProcQuery {
    pub sort: ProcSort,
    /// 1..=50.
    pub limit: usize,
    /// Case-insensitive substring of the name or command line.
    pub name: Option<String>,
}

fn who(p: &ProcessInfo) -> String {
    format!("{} (pid {}, 用户 {})", p.name, p.pid, p.user)
}

fn headline(
    p: &ProcessInfo,
    sort: ProcSort,
    cores: usize,
    interval_ms: u64,
    scope: &str,
) -> String {
    let secs = interval_ms as f64 / 1000.0;
    match sort {
        ProcSort::Memory => format!(
            "{scope}占用内存最多的进程: {} RSS {}，占内存 {:.1}%，CPU {:.1}%",
            who(p),
            human_size(p.rss_bytes),
            p.mem_percent,
            p.cpu_percent
        ),
        ProcSort::Cpu => format!(
            "{scope}占用 CPU 最多的进程: {} CPU {:.1}%（最近 {secs:.1} 秒，100% = 1 个核，共 {cores} 核），\
             RSS {}，占内存 {:.1}%",
            who(p),
            p.cpu_percent,
            human_size(p.rss_bytes),
            p.mem_percent
        ),
    }
}

fn table(rows: &[ProcessInfo]) -> String {
    let mut out = format!(
        "{:>7}  {:<10} {:>6} {:>6} {:>10}  COMMAND",
        "PID", "USER", "%CPU", "%MEM", "RSS"
    );
    for p in rows {
        out.push_str(&format!(
            "\n{:>7}  {:<10} {:>6.1} {:>6.1} {:>10}  {}",
            p.pid,
            cut(&p.user, 10),
            p.cpu_percent,
            p.mem_percent,
            human_size(p.rss_bytes),
            cut(&p.command, COMMAND_WIDTH)
        ));
    }
    out
}

/// The `processes` answer from a full process table.
pub(super) fn processes(table_: &ProcessTable, cores: usize, q: &ProcQuery) -> ToolResult {
    let total = table_.processes.len();
    if total == 0 {
        return ToolResult::failure("进程列表暂不可用 (no process table yet)".to_string());
    }
    let needle = q.name.as_ref().map(|n| n.trim().to_lowercase());
    let mut rows: Vec<ProcessInfo> = match &needle {
        Some(n) => table_
            .processes
            .iter()
            .filter(|p| matches_name(p, n))
            .cloned()
            .collect(),
        None => table_.processes.clone(),
    };
    let matched = rows.len();
    sort(&mut rows, q.sort);
    rows.truncate(q.limit);
    let data = ToolData::Processes(ProcessesData {
        metric: ProcessesMetric::Processes,
        sort: q.sort,
        name: q.name.clone(),
        total_processes: total,
        matched,
        memory_total_bytes: table_.memory_total_bytes,
        cores,
        interval_ms: table_.interval_ms,
        processes: rows.clone(),
    });
    let order = match q.sort {
        ProcSort::Cpu => "CPU",
        ProcSort::Memory => "内存",
    };
    let text = match (&q.name, rows.first()) {
        (Some(name), None) => format!(
            "没有名称或命令行包含 \"{name}\" 的进程（共检查 {total} 个进程）。\
             No process matched \"{name}\" ({total} processes checked)."
        ),
        (None, None) => "进程列表为空 (no processes)".to_string(),
        (name, Some(top)) => {
            let scope = match name {
                Some(n) => format!("名称或命令行包含 \"{n}\" 的进程共 {matched} 个；其中"),
                None => String::new(),
            };
            let shown = if rows.len() < matched {
                format!(
                    "按{order}排序的前 {} 个（共 {matched} 个{}）:",
                    rows.len(),
                    if name.is_some() {
                        "匹配的进程"
                    } else {
                        "进程"
                    }
                )
            } else {
                format!("按{order}排序，全部 {matched} 个:")
            };
            format!(
                "{}\n{shown}\n{}",
                headline(top, q.sort, cores, table_.interval_ms, &scope),
                table(&rows)
            )
        }
    };
    ToolResult::success(text, data)
}
