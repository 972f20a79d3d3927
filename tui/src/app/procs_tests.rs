//! `update` tests of the processes list, the details view, the signal menu and "ask".

use super::*;
use crate::app::tests::{connected, key, monitor_with, submit, type_str};
use crate::app::{update, AppEvent, Modal, Req};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub fn planted() -> Vec<ProcessStats> {
    let p = |pid, ppid, user: &str, name: &str, cpu, rss_mib: u64, cmd: &str| ProcessStats {
        pid,
        ppid,
        user: user.into(),
        name: name.into(),
        cpu_percent: cpu,
        rss_bytes: rss_mib << 20,
        mem_percent: (rss_mib as f64 / 8192.0 * 1000.0).round() / 10.0,
        command: cmd.into(),
    };
    vec![
        p(
            812,
            1,
            "postgres",
            "postgres",
            12.5,
            1900,
            "/usr/lib/postgresql/bin/postgres -D /data",
        ),
        p(
            4242,
            1,
            "root",
            "burn-cpu",
            99.0,
            3,
            "/usr/bin/burn-cpu --serve",
        ),
        p(
            1337,
            1,
            "www-data",
            "nginx",
            3.0,
            64,
            "nginx: worker process",
        ),
        p(
            77,
            1,
            "app",
            "java",
            41.0,
            2600,
            "java -Xmx2g -jar orders.jar",
        ),
    ]
}

/// Three python jobs under a supervisor under init.
pub fn jobs() -> Vec<ProcessStats> {
    let p = |pid, ppid, cpu, cmd: &str| ProcessStats {
        pid,
        ppid,
        user: "app".into(),
        name: cmd
            .split(' ')
            .next()
            .unwrap_or("")
            .rsplit('/')
            .next()
            .unwrap_or("")
            .into(),
        cpu_percent: cpu,
        rss_bytes: u64::from(pid) << 10,
        mem_percent: 0.0,
        command: cmd.into(),
    };
    vec![
        p(1, 0, 0.0, "/sbin/init"),
        p(200, 1, 0.1, "/usr/bin/supervisord -n"),
        p(301, 200, 5.0, "/usr/bin/python3 worker.py --queue a"),
        p(302, 200, 50.0, "/usr/bin/python3 worker.py --queue b"),
        p(303, 1, 1.0, "/usr/bin/python3 -m http.server 8000"),
    ]
}

fn focus_system(a: &mut App) {
    update(
        a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    assert_eq!(a.focus, Pane::Gauges);
}

fn pids(a: &App) -> Vec<u32> {
    rows(a).iter().map(|r| r.p.pid).collect()
}

#[test]
fn sorted_by_cpu_then_memory_and_filtered_after_slash() {
    let mut a = connected();
    monitor_with(&mut a, planted());
    assert_eq!(pids(&a), vec![4242, 77, 812, 1337]);
    focus_system(&mut a);
    let cmds = update(&mut a, key(KeyCode::F(2)));
    assert_eq!(a.procs.sort, ProcessSort::Memory);
    assert_eq!(pids(&a), vec![77, 812, 1337, 4242]);
    // The server is asked for the list in the new order.
    assert!(
        matches!(&cmds[..], [Command::Send(Message::MonitorSubscribe(m))]
        if m.processes.as_ref().is_some_and(|v| v.sort == ProcessSort::Memory))
    );
    // `/` then typing filters (the chat input stays empty); each key re-scopes the server's list.
    update(&mut a, key(KeyCode::Char('/')));
    let cmds = type_str(&mut a, "NGI");
    assert_eq!(cmds.len(), 3);
    assert!(
        matches!(cmds.last(), Some(Command::Send(Message::MonitorSubscribe(m)))
        if m.processes.as_ref().is_some_and(|v| v.filter == "NGI" && v.limit == VIEW_LIMIT))
    );
    assert_eq!(a.focus, Pane::Gauges);
    assert_eq!(a.input_text(), "");
    assert_eq!(pids(&a), vec![1337]);
    for _ in 0..3 {
        update(&mut a, key(KeyCode::Backspace));
    }
    assert_eq!(pids(&a).len(), 4);
    // By user, and by the command line's arguments.
    type_str(&mut a, "post");
    assert_eq!(pids(&a), vec![812]);
    update(&mut a, key(KeyCode::Esc));
    type_str(&mut a, "/orders.jar");
    assert_eq!(pids(&a), vec![77]);
    // Enter keeps the filter and keys are commands again; Esc clears, a second goes to chat.
    update(&mut a, key(KeyCode::Enter));
    assert!(!a.procs.filtering);
    assert_eq!(a.procs.filter, "orders.jar");
    update(&mut a, key(KeyCode::Esc));
    assert!(a.procs.filter.is_empty());
    assert_eq!(a.focus, Pane::Gauges);
    update(&mut a, key(KeyCode::Esc));
    assert_eq!(a.focus, Pane::Chat);
}

#[test]
fn selection_follows_the_pid_across_snapshots() {
    let mut a = connected();
    monitor_with(&mut a, planted());
    focus_system(&mut a);
    update(&mut a, key(KeyCode::Down));
    assert_eq!(a.procs.selected_pid, Some(77));
    let mut next = planted();
    next[3].cpu_percent = 150.0;
    monitor_with(&mut a, next);
    let r = rows(&a);
    assert_eq!(r[selected_index(&a, &r)].p.pid, 77);
    update(&mut a, key(KeyCode::Up));
    update(&mut a, key(KeyCode::Up));
    assert_eq!(a.procs.selected_pid, Some(77));
}

#[test]
fn the_tree_puts_children_under_their_parent() {
    let mut a = connected();
    monitor_with(&mut a, jobs());
    focus_system(&mut a);
    let cmds = update(&mut a, key(KeyCode::Char('t')));
    assert!(a.procs.tree);
    assert!(
        matches!(&cmds[..], [Command::Send(Message::MonitorSubscribe(m))]
        if m.processes.as_ref().is_some_and(|v| v.tree))
    );
    let shown: Vec<(u32, String)> = rows(&a)
        .iter()
        .map(|r| (r.p.pid, r.branch.clone()))
        .collect();
    assert_eq!(
        shown,
        vec![
            (1, String::new()),
            (303, "├─ ".into()),
            (200, "└─ ".into()),
            (302, "   ├─ ".into()),
            (301, "   └─ ".into()),
        ]
    );
    // With a filter, ancestors stay as context (dimmed) and unrelated branches go.
    update(&mut a, key(KeyCode::Char('/')));
    type_str(&mut a, "queue a");
    let r = rows(&a);
    let shown: Vec<(u32, bool)> = r.iter().map(|r| (r.p.pid, r.context)).collect();
    assert_eq!(shown, vec![(1, true), (200, true), (301, false)]);
}

#[test]
fn enter_opens_the_details_and_a_asks_in_the_users_language() {
    let mut a = connected();
    monitor_with(&mut a, planted());
    focus_system(&mut a);
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(cmds, vec![Command::Request(Req::Process(4242))]);
    assert!(matches!(&a.modal, Some(Modal::Process(v)) if v.pid == 4242));
    update(&mut a, key(KeyCode::Esc));
    assert!(a.modal.is_none());
    let cmds = update(&mut a, key(KeyCode::Char('a')));
    assert_eq!(
        cmds,
        vec![Command::Chat {
            text: "进程 4242（burn-cpu）在做什么？".into(),
            file_ids: vec![]
        }]
    );
    assert_eq!(a.focus, Pane::Chat);
    // Someone who asks in English gets the question in English.
    let mut b = connected();
    submit(&mut b, "why is the box slow");
    b.turn = None;
    monitor_with(&mut b, planted());
    focus_system(&mut b);
    update(&mut b, key(KeyCode::Down));
    let cmds = update(&mut b, key(KeyCode::Char('a')));
    assert!(matches!(&cmds[..], [Command::Chat { text, .. }]
        if text == "What is process 77 (java) doing?"));
}

#[test]
fn k_proposes_the_chosen_signal_through_a_turn() {
    let mut a = connected();
    monitor_with(&mut a, jobs());
    focus_system(&mut a);
    // The busiest python job is first; `k` opens the menu on TERM.
    update(&mut a, key(KeyCode::Char('k')));
    assert!(matches!(&a.modal, Some(Modal::Signal(m)) if m.pid == 302 && m.selected == 0));
    // Esc proposes nothing.
    assert!(update(&mut a, key(KeyCode::Esc)).is_empty());
    assert!(a.modal.is_none() && a.turn.is_none());
    update(&mut a, key(KeyCode::Char('k')));
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Down));
    let cmds = update(&mut a, key(KeyCode::Enter));
    assert_eq!(
        cmds,
        vec![Command::Propose {
            text: "向进程 302（/usr/bin/python3 worker.py --queue b）发送 SIGKILL".into(),
            argv: vec!["kill".into(), "-KILL".into(), "302".into()],
        }]
    );
    assert!(
        a.turn.is_some(),
        "a turn runs: the approval request comes with it"
    );
    assert!(a.modal.is_none());
    // While it runs, another proposal is not sent (the menu stays).
    focus_system(&mut a);
    update(&mut a, key(KeyCode::Char('k')));
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(matches!(a.modal, Some(Modal::Signal(_))));
}

#[test]
fn the_details_view_offers_the_signal_menu_for_its_process() {
    let mut a = connected();
    monitor_with(&mut a, planted());
    focus_system(&mut a);
    update(&mut a, key(KeyCode::Down));
    update(&mut a, key(KeyCode::Enter));
    let details = protocol::ProcessDetails {
        pid: 77,
        name: "java".into(),
        argv: vec![
            "java".into(),
            "-Xmx2g".into(),
            "-jar".into(),
            "orders.jar".into(),
        ],
        ..Default::default()
    };
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Process(77),
            result: Ok(Message::ProcessInfo(protocol::ProcessInfoReply {
                request_id: 9,
                process: details,
            })),
        },
    );
    assert!(matches!(&a.modal, Some(Modal::Process(v)) if v.details.is_some()));
    update(&mut a, key(KeyCode::Char('k')));
    assert!(matches!(&a.modal, Some(Modal::Signal(m))
        if m.pid == 77 && m.command == "java -Xmx2g -jar orders.jar"));
    // A gone process says so in the view.
    update(&mut a, key(KeyCode::Esc));
    focus_system(&mut a);
    update(&mut a, key(KeyCode::Enter));
    let pid = match &a.modal {
        Some(Modal::Process(v)) => v.pid,
        _ => panic!("no details view"),
    };
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Process(pid),
            result: Err("没有这个进程 (no process)".into()),
        },
    );
    assert!(matches!(&a.modal, Some(Modal::Process(v)) if v.error.is_some()));
}

#[test]
fn an_older_server_gets_no_request_it_cannot_answer() {
    let mut a = connected();
    if let Some(w) = &mut a.welcome {
        w.features.clear();
    }
    monitor_with(&mut a, planted());
    focus_system(&mut a);
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(matches!(&a.modal, Some(Modal::Process(v))
        if v.error.as_deref() == Some(crate::app::process::OLD_SERVER)));
    update(&mut a, key(KeyCode::Esc));
    update(&mut a, key(KeyCode::Char('k')));
    assert!(update(&mut a, key(KeyCode::Enter)).is_empty());
    assert!(a.turn.is_none());
    update(&mut a, key(KeyCode::Esc));
    update(&mut a, key(KeyCode::Esc));
    assert!(submit(&mut a, "/watch 2 df -h").is_empty());
    assert!(a.watch.is_none());
}
