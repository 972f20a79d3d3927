//! A client's view of the process table: the processes a monitor subscriber wants with its
//! snapshots (a filter over all processes, not only the top ones; a sort; a limit; in tree
//! mode every listed process's ancestors too, so the tree it draws is connected).

use std::collections::{HashMap, HashSet};

use super::procs::{sort, ProcSort, ProcessInfo, ProcessTable};

/// Most processes one view returns (ancestors in tree mode come on top of it).
pub const MAX_VIEW: usize = 500;

/// What a subscriber wants listed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcView {
    /// Case-insensitive text matched against the name, user and command line, or a pid
    /// prefix; empty matches everything.
    pub filter: String,
    pub sort: ProcSort,
    /// At most this many matching processes (capped at `MAX_VIEW`).
    pub limit: usize,
    /// Add the ancestors of every listed process.
    pub tree: bool,
}

/// Whether `p` matches a lower-cased filter (the same rule the TUI applies locally).
pub fn matches_filter(p: &ProcessInfo, filter_lower: &str) -> bool {
    filter_lower.is_empty()
        || p.name.to_lowercase().contains(filter_lower)
        || p.user.to_lowercase().contains(filter_lower)
        || p.command.to_lowercase().contains(filter_lower)
        || p.pid.to_string().starts_with(filter_lower)
}

impl ProcessTable {
    /// The processes `view` asks for: the first `limit` matches in its order, then (tree
    /// mode) their ancestors not already listed. Each process once.
    pub fn select(&self, view: &ProcView) -> Vec<ProcessInfo> {
        let f = view.filter.trim().to_lowercase();
        let mut hits: Vec<ProcessInfo> = self
            .processes
            .iter()
            .filter(|p| matches_filter(p, &f))
            .cloned()
            .collect();
        sort(&mut hits, view.sort);
        hits.truncate(view.limit.min(MAX_VIEW));
        if !view.tree {
            return hits;
        }
        let by_pid: HashMap<u32, &ProcessInfo> =
            self.processes.iter().map(|p| (p.pid, p)).collect();
        let mut seen: HashSet<u32> = hits.iter().map(|p| p.pid).collect();
        let mut ancestors = Vec::new();
        for p in &hits {
            let mut ppid = p.ppid;
            // The walk ends at the root, at a parent that exited, or at a pid seen before
            // (which also stops a cycle a pid reuse could make between two scans).
            while ppid != 0 && seen.insert(ppid) {
                let Some(parent) = by_pid.get(&ppid) else {
                    break;
                };
                ancestors.push((*parent).clone());
                ppid = parent.ppid;
            }
        }
        hits.extend(ancestors);
        hits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(pid: u32, ppid: u32, name: &str, cpu: f64, cmd: &str) -> ProcessInfo {
        ProcessInfo {
            pid,
            ppid,
            user: "app".into(),
            name: name.into(),
            cpu_percent: cpu,
            rss_bytes: u64::from(pid) << 10,
            mem_percent: 0.0,
            command: cmd.into(),
            program: crate::sys_monitor::program::program_of_line(cmd, name),
        }
    }

    fn table() -> ProcessTable {
        ProcessTable {
            processes: vec![
                p(1, 0, "systemd", 0.1, "/sbin/init"),
                p(200, 1, "supervisor", 0.0, "supervisord -n"),
                p(301, 200, "python3", 5.0, "python3 worker.py --queue a"),
                p(302, 200, "python3", 50.0, "python3 worker.py --queue b"),
                p(303, 1, "python3", 1.0, "python3 -m http.server 8000"),
                p(400, 1, "sleep", 0.0, "sleep 987654"),
            ],
            ..ProcessTable::default()
        }
    }

    fn pids(v: &[ProcessInfo]) -> Vec<u32> {
        v.iter().map(|p| p.pid).collect()
    }

    #[test]
    fn tools_sys_monitor_view_filters_every_process_by_command_line() {
        let t = table();
        let view = |filter: &str, limit| ProcView {
            filter: filter.into(),
            sort: ProcSort::Cpu,
            limit,
            tree: false,
        };
        // An idle process nobody would see in a top list is found by its arguments.
        assert_eq!(pids(&t.select(&view("987654", 10))), vec![400]);
        assert_eq!(pids(&t.select(&view("QUEUE", 10))), vec![302, 301]);
        assert_eq!(
            pids(&t.select(&view("30", 10))),
            vec![302, 301, 303],
            "pid prefix, by CPU"
        );
        assert_eq!(
            pids(&t.select(&view("", 2))),
            vec![302, 301],
            "limit, by CPU"
        );
        let mut mem = view("python3", 10);
        mem.sort = ProcSort::Memory;
        assert_eq!(pids(&t.select(&mem)), vec![303, 302, 301]);
        assert!(t.select(&view("nothing-like-this", 10)).is_empty());
    }

    #[test]
    fn tools_sys_monitor_tree_view_adds_ancestors_once() {
        let t = table();
        let v = t.select(&ProcView {
            filter: "queue".into(),
            sort: ProcSort::Cpu,
            limit: 10,
            tree: true,
        });
        assert_eq!(pids(&v), vec![302, 301, 200, 1]);
        // A parent that is gone ends the walk; a cycle does not loop.
        let mut t = table();
        t.processes[1].ppid = 302;
        let v = t.select(&ProcView {
            filter: "queue b".into(),
            sort: ProcSort::Cpu,
            limit: 10,
            tree: true,
        });
        assert_eq!(pids(&v), vec![302, 200]);
    }
}
