//! Typed tool data for the tests: the results the tools would return, built from the few
//! figures a test cares about (everything else the type's default).

use llmops_tooldata::{
    CommandData, CpuStats, DiskStats, MemoryStats, MonitorData, PageData, ProcSort, ProcessInfo,
    ProcessesData, SearchData, SearchHit, SearchScope, ToolData,
};

/// A page of a file: `lines` from `offset`, of `total` lines.
pub(crate) fn page(path: &str, lines: &[&str], offset: u64, limit: u64, total: u64) -> ToolData {
    let shown = lines.len() as u64;
    ToolData::Page(PageData {
        path: path.into(),
        offset,
        limit,
        total_lines: total,
        lines: lines.iter().map(|l| l.to_string()).collect(),
        more_lines: total.saturating_sub(offset + shown),
        ..PageData::default()
    })
}

/// A search hit with a chunk (no answer line).
pub(crate) fn hit(filename: &str, filepath: &str, similarity: f32, chunk: &str) -> SearchHit {
    SearchHit {
        filename: filename.into(),
        filepath: filepath.into(),
        similarity,
        chunk: chunk.into(),
        ..SearchHit::default()
    }
}

pub(crate) fn search(query: &str, scope: SearchScope, results: Vec<SearchHit>) -> ToolData {
    ToolData::Search(SearchData {
        query: query.into(),
        scope,
        results,
    })
}

/// One process row.
pub(crate) fn process(
    pid: u32,
    user: &str,
    name: &str,
    cpu_percent: f64,
    rss_bytes: u64,
    mem_percent: f64,
    command: &str,
) -> ProcessInfo {
    ProcessInfo {
        pid,
        user: user.into(),
        name: name.into(),
        cpu_percent,
        rss_bytes,
        mem_percent,
        command: command.into(),
        ..ProcessInfo::default()
    }
}

/// A process listing of `total` processes on `cores` cores.
pub(crate) fn processes(
    sort: ProcSort,
    total: usize,
    cores: usize,
    list: Vec<ProcessInfo>,
) -> ToolData {
    ToolData::Processes(ProcessesData {
        sort,
        total_processes: total,
        matched: list.len(),
        cores,
        processes: list,
        ..ProcessesData::default()
    })
}

/// A command run to its end with exit code 0.
pub(crate) fn ran(command: &str, args: &[&str], stdout: &str, cwd: &str) -> ToolData {
    ToolData::Command(CommandData {
        command: command.into(),
        args: args.iter().map(|a| a.to_string()).collect(),
        exit_code: Some(0),
        stdout: stdout.into(),
        cwd: cwd.into(),
        ..CommandData::default()
    })
}

/// A 4-core machine with 8 GiB of memory and one 100 GiB disk, nothing near its limits.
pub(crate) fn machine() -> ToolData {
    ToolData::Monitor(MonitorData {
        cpu: Some(CpuStats {
            usage_percent: 23.5,
            cores: 4,
            frequency_mhz: 2400,
            load_avg: [0.8, 0.6, 0.5],
            per_core: Vec::new(),
        }),
        memory: Some(MemoryStats {
            total_bytes: 8 << 30,
            used_bytes: 3 << 30,
            available_bytes: 5 << 30,
            usage_percent: 37.5,
            ..MemoryStats::default()
        }),
        disks: Some(vec![DiskStats {
            mount: "/".into(),
            fs: "ext4".into(),
            total_bytes: 100 << 30,
            used_bytes: 40 << 30,
            available_bytes: 60 << 30,
            usage_percent: 40.0,
        }]),
    })
}
