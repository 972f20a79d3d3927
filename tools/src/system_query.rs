//! `system_query`: the typed query ([`llmops_common::query`]) over the system as tables —
//! processes, sockets with their owners, mounts as `df` shows them, systemd units — run by
//! the same engine as log queries (`llmops_loganalysis::run_table`). Soft filters narrow
//! only when something matches them; one that would leave nothing is dropped and said.

pub mod mounts;
pub mod procs;
pub mod sockets;
pub mod table;
pub mod units;

use std::time::Duration;

use llmops_common::query::{QueryArgs, Source};
use llmops_loganalysis::{run_table, Cell, MemTable};
use serde_json::Value;

use crate::data::ToolData;
use crate::query_common::{run_soft, summary_text};
use crate::sys_monitor::SamplerHandle;
use crate::{parse_args, Tool, ToolCtx, ToolFuture, ToolName, ToolResult};
use table::{SysCell, SysTable};

/// How long `systemctl list-units` may take.
const UNITS_TIMEOUT: Duration = Duration::from_secs(5);

/// The `system_query` tool.
#[derive(Clone)]
pub struct SystemQueryTool {
    sampler: SamplerHandle,
}

impl SystemQueryTool {
    pub fn new(sampler: SamplerHandle) -> Self {
        SystemQueryTool { sampler }
    }

    async fn table(&self, source: Source) -> Result<SysTable, String> {
        match source {
            Source::Processes => {
                // %CPU needs two scans: wait for the sampler's first interval if needed;
                // then a sample taken now, so a process started a moment ago is in it.
                self.sampler.ready().await;
                self.sampler.fresh().await;
                Ok(procs::table(&self.sampler.processes()))
            }
            Source::Sockets => tokio::task::spawn_blocking(sockets::table)
                .await
                .map_err(|_| "读取套接字失败 (reading sockets failed)".to_string()),
            Source::Mounts => Ok(mounts::table(&self.sampler.latest().disks)),
            Source::Units => match tokio::time::timeout(UNITS_TIMEOUT, units::table()).await {
                Ok(r) => r.map_err(|e| e.to_string()),
                Err(_) => Err("systemctl 超时 (systemctl timed out)".to_string()),
            },
            Source::Log => Err(
                "日志请用 log_query 查询 (logs are queried with log_query, not system_query)"
                    .to_string(),
            ),
        }
    }
}

/// The engine's table of a system table.
pub fn mem_table(t: SysTable) -> MemTable {
    MemTable {
        name: t.name.to_string(),
        fields: t.fields,
        rows: t
            .rows
            .into_iter()
            .map(|r| {
                r.into_iter()
                    .map(|c| match c {
                        SysCell::Text(s) => Cell::Text(s),
                        SysCell::Int(i) => Cell::Int(i),
                        SysCell::Num(n) => Cell::Num(n),
                        SysCell::Null => Cell::Empty,
                    })
                    .collect()
            })
            .collect(),
    }
}

/// The query's `mount = PATH` conditions, hard and soft, on the filesystems holding them
/// (see [`mounts::on_their_filesystems`]).
fn paths_on_their_filesystems(args: &mut QueryArgs, table: &MemTable) -> Vec<String> {
    let mounts: Vec<&str> = table
        .rows
        .iter()
        .filter_map(|r| match r.first() {
            Some(Cell::Text(m)) => Some(m.as_str()),
            _ => None,
        })
        .collect();
    let every = mounts::host_mount_points();
    let mut notes = mounts::on_their_filesystems(&mut args.query.filters, &mounts, &every);
    notes.extend(mounts::on_their_filesystems(
        &mut args.soft,
        &mounts,
        &every,
    ));
    notes
}

impl Tool for SystemQueryTool {
    fn name(&self) -> &'static str {
        ToolName::SystemQuery.as_str()
    }

    fn description(&self) -> &'static str {
        "查询系统表 / Query the system as tables: source=processes (pid, ppid, user, name, \
         state, threads, start_time, elapsed_seconds, cpu_percent, rss_bytes, mem_percent, command, unit, \
         program: the executable or the script/jar an interpreter runs; match a process \
         by name on program, not command), \
         sockets (proto, state, local, local_port, peer, peer_port, pid, process, user), \
         mounts (mount, fstype, size_bytes, used_bytes, avail_bytes, use_percent) or units \
         (unit, load, active, sub, description); filters, count, count_distinct, group_by \
         with top N, min/max/mean/percentiles of a numeric field, rows sorted by a field."
    }

    fn schema(&self) -> Value {
        crate::query_common::args_schema()
    }

    fn call<'a>(&'a self, args: Value, _ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let mut args: QueryArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let table = match self.table(args.query.source).await {
                Ok(t) => mem_table(t),
                Err(e) => return ToolResult::failure(e),
            };
            let notes = match args.query.source {
                Source::Mounts => paths_on_their_filesystems(&mut args, &table),
                _ => Vec::new(),
            };
            match run_soft(&args, |q| run_table(&table, q)) {
                Ok(mut r) => {
                    r.notes.splice(0..0, notes);
                    ToolResult::success(summary_text(&r), ToolData::Query(Box::new(r)))
                }
                Err(e) => ToolResult::failure(e.to_string()),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::sys_monitor::{ProcessInfo, ProcessTable, Snapshot};
    use crate::testutil::Env;

    fn proc(pid: u32, rss: u64, command: &str) -> ProcessInfo {
        ProcessInfo {
            pid,
            ppid: 1,
            user: "app".into(),
            name: command.split(' ').next().unwrap_or("").into(),
            cpu_percent: 0.0,
            rss_bytes: rss,
            mem_percent: 0.0,
            command: command.into(),
            program: crate::sys_monitor::program::program_of_line(command, ""),
        }
    }

    /// "How much memory does X use": the total RSS of the processes that run X (its
    /// `program`), exact against the planted table; processes whose command lines only name
    /// it (an editor, a `tail` of its log, a script asked about it) are not X's.
    #[tokio::test]
    async fn the_memory_of_a_named_program_is_the_sum_of_its_processes() {
        let table = ProcessTable {
            seq: 2,
            interval_ms: 1000,
            memory_total_bytes: 8 << 30,
            processes: vec![
                proc(5101, 104_857_600, "image-resizer --queue a"),
                proc(5102, 52_428_800, "image-resizer --queue b"),
                proc(5103, 999_999_999, "postgres: writer"),
                proc(5104, 7_000_000, "vim /etc/image-resizer/image-resizer.conf"),
                proc(5105, 3_000_000, "tail -f /var/log/image-resizer.log"),
                proc(
                    5106,
                    2_000_000,
                    "/bin/bash /tmp/ask.sh how much memory does image-resizer use",
                ),
            ],
        };
        let snap = Snapshot {
            seq: 2,
            ..Snapshot::default()
        };
        let tool = SystemQueryTool::new(SamplerHandle::fixed_with_processes(snap, table));
        let env = Env::new();
        let args = json!({"source": "processes", "measure": "sum", "field": "rss_bytes",
            "filters": [{"field": "program", "op": "contains", "value": "image-resizer"}]});
        let r = tool.call(args, &env.ctx).await;
        assert!(r.ok, "{r:?}");
        let v = r.data.to_value();
        assert_eq!(v["matched"], 2, "{v}");
        assert_eq!(v["value"]["value"], 157_286_400.0, "{v}");
    }
}
