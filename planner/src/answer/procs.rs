//! Process answers: names the process that uses the most CPU or memory (or the processes
//! matching a name) from `sys_monitor {metric: "processes"}` data, with a small table.

use llmops_tooldata::SysMonitorArgs;
use llmops_tooldata::{ProcSort, ProcessInfo, ProcessesData};

use super::super::text::{human_size, Lang};

/// A percentage; 0 for one the tool could not measure (its JSON has `null` there).
fn f(x: f64) -> f64 {
    if x.is_finite() {
        x
    } else {
        0.0
    }
}

/// Characters of the command line shown in the answer's table.
const COMMAND_CHARS: usize = 36;

/// The command line with its program shown by name (`rustc --crate-name x`), not by a long
/// install path that would use up the column.
fn short_command(p: &ProcessInfo) -> String {
    let full = p.command.as_str();
    let (prog, rest) = full.split_once(' ').unwrap_or((full, ""));
    let prog = if prog.starts_with('/') {
        prog.rsplit('/').next().unwrap_or(prog)
    } else {
        prog
    };
    let line = if rest.is_empty() {
        prog.to_string()
    } else {
        format!("{prog} {rest}")
    };
    // The row stays within an 80-column chat pane (42 columns before the command).
    let mut out: String = line.chars().take(COMMAND_CHARS).collect();
    if line.chars().count() > COMMAND_CHARS {
        out.push('…');
    }
    out
}

fn row(p: &ProcessInfo) -> String {
    let cmd = short_command(p);
    format!(
        "{:>7} {:<10} {:>6.1} {:>9} {:>5.1}  {}",
        p.pid,
        p.user.chars().take(10).collect::<String>(),
        f(p.cpu_percent),
        human_size(p.rss_bytes),
        f(p.mem_percent),
        if cmd.is_empty() { p.name.clone() } else { cmd }
    )
}

fn table(list: &[ProcessInfo]) -> String {
    let mut out = String::from("\n```\n    PID USER         %CPU       RSS  %MEM  COMMAND\n");
    for p in list.iter().take(10) {
        out.push_str(&row(p));
        out.push('\n');
    }
    out.push_str("```");
    out
}

fn who(p: &ProcessInfo, lang: Lang) -> String {
    let (name, pid, user) = (&p.name, p.pid, &p.user);
    match lang {
        Lang::Zh => format!("{name}（pid {pid}，用户 {user}）"),
        Lang::En => format!("{name} (pid {pid}, user {user})"),
    }
}

/// The processes matching a name the question gave ("is nginx running").
fn named(name: &str, list: &[ProcessInfo], total: Option<usize>, lang: Lang) -> String {
    if list.is_empty() {
        return match (lang, total) {
            (Lang::Zh, Some(t)) => format!(
                "没有找到名称或命令行包含 “{name}” 的进程（当前共 {t} 个进程），{name} 看起来没有在运行。"
            ),
            (Lang::Zh, None) => format!("没有找到名称或命令行包含 “{name}” 的进程，{name} 看起来没有在运行。"),
            (Lang::En, Some(t)) => format!(
                "No process has \"{name}\" in its name or command line ({t} processes running): {name} does not look like it is running."
            ),
            (Lang::En, None) => format!(
                "No process has \"{name}\" in its name or command line: {name} does not look like it is running."
            ),
        };
    }
    let n = list.len();
    let cpu: f64 = list.iter().map(|p| f(p.cpu_percent)).sum();
    let rss: u64 = list.iter().map(|p| p.rss_bytes).sum();
    let pids: Vec<String> = list.iter().take(8).map(|p| p.pid.to_string()).collect();
    let more = if n > pids.len() { "…" } else { "" };
    let head = match lang {
        Lang::Zh => format!(
            "{name} 正在运行：{n} 个匹配的进程（pid {}{more}），合计 CPU {cpu:.1}%、RSS {}。",
            pids.join(", "),
            human_size(rss)
        ),
        Lang::En => format!(
            "{name} is running: {n} matching process(es) (pid {}{more}), {cpu:.1}% CPU and {} RSS in total.",
            pids.join(", "),
            human_size(rss)
        ),
    };
    head + &table(list)
}

/// The answer for a processes step; `args` are the call's arguments (sort, name).
pub fn render(data: Option<&ProcessesData>, args: &SysMonitorArgs, lang: Lang) -> String {
    let list = data.map_or(&[][..], |d| &d.processes);
    let total = data.map(|d| d.total_processes);
    let by_memory = match data {
        Some(d) => d.sort == ProcSort::Memory,
        None => args.sort() == Ok(ProcSort::Memory),
    };
    if let Some(name) = args.name.as_deref().filter(|n| !n.is_empty()) {
        return named(name, list, total, lang);
    }
    let Some(top) = list.first() else {
        return lang
            .pick("没有拿到进程列表。", "No process list came back.")
            .to_string();
    };
    let cores = data.map(|d| d.cores);
    let cpu = f(top.cpu_percent);
    let rss = human_size(top.rss_bytes);
    let mem = f(top.mem_percent);
    let mut head = match (lang, by_memory) {
        (Lang::Zh, true) => format!(
            "占用内存最多的进程是 {}：RSS {rss}，占内存 {mem:.1}%，CPU {cpu:.1}%。",
            who(top, lang)
        ),
        (Lang::Zh, false) => format!(
            "占用 CPU 最多的进程是 {}：CPU {cpu:.1}%，RSS {rss}（占内存 {mem:.1}%）。",
            who(top, lang)
        ),
        (Lang::En, true) => format!(
            "The process using the most memory is {}: {rss} RSS, {mem:.1}% of memory, {cpu:.1}% CPU.",
            who(top, lang)
        ),
        (Lang::En, false) => format!(
            "The process using the most CPU is {}: {cpu:.1}% CPU, {rss} RSS ({mem:.1}% of memory).",
            who(top, lang)
        ),
    };
    if !by_memory {
        if let Some(c) = cores {
            head.push_str(&match lang {
                Lang::Zh => format!("（100% 表示占满一个核，本机 {c} 核）"),
                Lang::En => format!(" (100% is one full core; this machine has {c})"),
            });
        }
    }
    let shown = list.len().min(10);
    head.push_str(&match (lang, total) {
        (Lang::Zh, Some(t)) => format!("\n前 {shown} 个（共 {t} 个进程）："),
        (Lang::Zh, None) => format!("\n前 {shown} 个："),
        (Lang::En, Some(t)) => format!("\nTop {shown} of {t} processes:"),
        (Lang::En, None) => format!("\nTop {shown}:"),
    });
    head + &table(list)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_data::{process, processes};
    use llmops_tooldata::ToolData;

    fn data(sort: ProcSort) -> ToolData {
        processes(
            sort,
            183,
            2,
            vec![
                process(
                    5120,
                    "svc",
                    "ingestd",
                    3.5,
                    734003200,
                    8.7,
                    "ingestd --workers 4",
                ),
                process(
                    77,
                    "root",
                    "sshd",
                    0.0,
                    5242880,
                    0.1,
                    "sshd: /usr/sbin/sshd",
                ),
            ],
        )
    }

    #[test]
    fn names_the_top_process_with_its_numbers() {
        let t = render(
            data(ProcSort::Memory).as_processes(),
            &SysMonitorArgs {
                sort: Some("memory".into()),
                ..SysMonitorArgs::default()
            },
            Lang::Zh,
        );
        assert!(
            t.contains("占用内存最多的进程是 ingestd（pid 5120，用户 svc）"),
            "{t}"
        );
        assert!(
            t.contains("RSS 700.0 MiB") || t.contains("RSS 700 MiB"),
            "{t}"
        );
        assert!(t.contains("8.7%") && t.contains("共 183 个进程"), "{t}");
        assert!(t.contains("sshd: /usr/sbin/sshd"), "{t}");
        let long = ProcessInfo {
            command: "/opt/very/long/install/prefix/bin/java -Xmx4g -jar orders.jar".into(),
            ..ProcessInfo::default()
        };
        assert_eq!(short_command(&long), "java -Xmx4g -jar orders.jar");
        let t = render(
            data(ProcSort::Cpu).as_processes(),
            &SysMonitorArgs {
                sort: Some("cpu".into()),
                ..SysMonitorArgs::default()
            },
            Lang::En,
        );
        assert!(
            t.contains("most CPU is ingestd (pid 5120, user svc): 3.5% CPU"),
            "{t}"
        );
    }

    #[test]
    fn name_filter_says_running_or_not() {
        let t = render(
            processes(ProcSort::Cpu, 90, 0, Vec::new()).as_processes(),
            &SysMonitorArgs {
                name: Some("nginx".into()),
                ..SysMonitorArgs::default()
            },
            Lang::En,
        );
        assert!(
            t.contains("does not look like it is running") && t.contains("90"),
            "{t}"
        );
        let t = render(
            data(ProcSort::Cpu).as_processes(),
            &SysMonitorArgs {
                name: Some("ingestd".into()),
                ..SysMonitorArgs::default()
            },
            Lang::Zh,
        );
        assert!(
            t.contains("ingestd 正在运行：2 个匹配的进程（pid 5120, 77）"),
            "{t}"
        );
        assert!(t.contains("合计 CPU 3.5%"), "{t}");
    }
}
