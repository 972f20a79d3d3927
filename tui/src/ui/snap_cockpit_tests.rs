//! Snapshot tests of the cockpit: the System pane with per-core CPU, I/O rates and
//! history, the process tree, the details view, the signal menu, a watch with changed
//! lines, and the approval dialog on small terminals.

use protocol::{Message, WatchKind, WatchOutput};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use crate::app::procs::tests::jobs;
use crate::app::tests::approvals::request;
use crate::app::tests::{connected, key, monitor_with, start_turn, turn};
use crate::app::{update, App, AppEvent, Req};
use crate::client::ClientEvent;

fn draw(app: &App, w: u16, h: u16) -> String {
    super::tests::draw(app, w, h)
        .into_iter()
        .map(|s| format!("|{s}|\n"))
        .collect()
}

/// Jobs, then a snapshot with the server's history, 4 cores and I/O rates.
fn cockpit() -> App {
    let mut a = connected();
    monitor_with(&mut a, jobs());
    let mut s = a.gauges.snap.clone().expect("a snapshot");
    s.cpu.cores = 4;
    s.cpu.per_core = vec![12.0, 97.0, 3.0, 45.0];
    s.net = Some(protocol::NetIo {
        rx_bytes_per_sec: 1_250_000,
        tx_bytes_per_sec: 310_000,
        interfaces: vec![],
    });
    s.disk_io = Some(protocol::DiskIo {
        read_bytes_per_sec: 5 << 20,
        write_bytes_per_sec: 12 << 20,
        devices: vec![],
    });
    s.history = (0..300u64)
        .map(|t| protocol::HistoryPoint {
            ts_ms: t * 1000,
            cpu_percent: ((t * 7) % 100) as f32,
            mem_percent: 25.0,
            net_rx_bytes_per_sec: if t == 150 { 9_000_000 } else { t * 2000 },
            net_tx_bytes_per_sec: 1000,
            disk_read_bytes_per_sec: (t % 9) << 18,
            disk_write_bytes_per_sec: (t % 4) << 19,
        })
        .collect();
    update(
        &mut a,
        AppEvent::Client(ClientEvent::Message(Message::MonitorSnapshot(s))),
    );
    update(
        &mut a,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    a
}

#[test]
fn system_pane_with_cores_rates_and_history() {
    let a = cockpit();
    let s = draw(&a, 160, 45);
    assert!(s.contains("cores  0 "), "{s}");
    assert!(s.contains(" 97% "), "{s}");
    assert!(s.contains("Net   ↓"), "{s}");
    assert!(s.contains("I/O   R"), "{s}");
    assert!(s.contains("peak 8.6M/s"), "the spike of the history: {s}");
    assert!(s.contains("python3 worker.py --queue b"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn process_tree() {
    let mut a = cockpit();
    update(&mut a, key(KeyCode::Char('t')));
    let s = draw(&a, 160, 45);
    // Two jobs of one program stay distinct however narrow the column.
    for (branch, queue) in [
        ("   ├─ python3", "--queue b "),
        ("   └─ python3", "--queue a "),
    ] {
        assert!(
            s.lines().any(|l| l.contains(branch) && l.contains(queue)),
            "{branch} … {queue}: {s}"
        );
    }
    insta::assert_snapshot!(s);
}

#[test]
fn process_details_and_signal_menu() {
    let mut a = cockpit();
    a.unix_now = 1_700_000_400;
    update(&mut a, key(KeyCode::Enter));
    let pid = 302;
    let d = protocol::ProcessDetails {
        pid,
        name: "python3".into(),
        argv: ["/usr/bin/python3", "worker.py", "--queue", "b"]
            .map(String::from)
            .to_vec(),
        user: "app".into(),
        parent: Some(protocol::ProcessRef {
            pid: 200,
            name: "supervisord".into(),
        }),
        children: vec![],
        state: "S (sleeping)".into(),
        threads: 3,
        started_at: 1_700_000_000,
        cpu_percent: Some(50.0),
        rss_bytes: 40 << 20,
        cwd: Some("/srv/app".into()),
        exe: Some("/usr/bin/python3.11".into()),
        files: vec![protocol::OpenFile {
            fd: 3,
            target: "/srv/app/queue.db".into(),
        }],
        sockets: vec![protocol::SocketInfo {
            fd: 4,
            proto: "tcp".into(),
            local: "127.0.0.1:8000".into(),
            remote: String::new(),
            state: "LISTEN".into(),
        }],
        fds_total: 6,
        hidden: 1,
        fds_error: None,
    };
    update(
        &mut a,
        AppEvent::Reply {
            req: Req::Process(pid),
            result: Ok(Message::ProcessInfo(protocol::ProcessInfoReply {
                request_id: 3,
                process: d,
            })),
        },
    );
    // The start time is local time: the same screen on any machine, whatever its zone.
    let s = draw(&a, 120, 36).replace(
        &crate::ui::process::local_time(1_700_000_000),
        "YYYY-MM-DD hh:mm:ss",
    );
    assert!(s.contains("/usr/bin/python3 worker.py --queue b"), "{s}");
    assert!(s.contains("(6m 40s ago)"), "{s}");
    assert!(s.contains("1 hidden by the path policy"), "{s}");
    insta::assert_snapshot!("process_details", s);
    update(&mut a, key(KeyCode::Char('k')));
    insta::assert_snapshot!("signal_menu", draw(&a, 120, 36));
}

#[test]
fn watch_marks_changed_lines() {
    let mut a = connected();
    update(&mut a, key(KeyCode::Char('/')));
    for c in "watch 2 ss -tln".chars() {
        update(&mut a, key(KeyCode::Char(c)));
    }
    update(&mut a, key(KeyCode::Enter));
    let out = |lines: &[&str]| {
        Ok(Message::WatchOutput(WatchOutput {
            request_id: 1,
            kind: WatchKind::Command,
            ok: true,
            lines: lines.iter().map(|s| s.to_string()).collect(),
            error: None,
            duration_ms: 7,
        }))
    };
    let reply = |a: &mut App, lines: &[&str]| {
        update(
            a,
            AppEvent::Reply {
                req: Req::Watch("ss -tln".into()),
                result: out(lines),
            },
        )
    };
    reply(
        &mut a,
        &[
            "State  Recv-Q Send-Q Local Address:Port Peer Address:Port",
            "LISTEN 0      128          0.0.0.0:22        0.0.0.0:*",
        ],
    );
    a.now = a.watch.as_ref().and_then(|w| w.next_at).expect("next run");
    update(&mut a, AppEvent::Tick);
    reply(
        &mut a,
        &[
            "State  Recv-Q Send-Q Local Address:Port Peer Address:Port",
            "LISTEN 0      128          0.0.0.0:22        0.0.0.0:*",
            "LISTEN 0      128        127.0.0.1:8080      0.0.0.0:*",
        ],
    );
    let s = draw(&a, 100, 20);
    assert!(
        s.contains("▌LISTEN 0      128        127.0.0.1:8080"),
        "{s}"
    );
    assert!(s.contains("run 2") && s.contains("1 changed"), "{s}");
    insta::assert_snapshot!(s);
}

#[test]
fn approval_dialog_on_small_terminals() {
    let mut a = connected();
    a.unix_now = 1_000_000;
    start_turn(&mut a, "stop the runaway worker", 7);
    turn(&mut a, request("a1", 7, &["kill", "-TERM", "4242"]));
    // 60x20: the argv and the keys are there, whatever else gives way.
    let s = draw(&a, 60, 20);
    assert!(s.contains("kill -TERM 4242"), "{s}");
    assert!(
        s.contains("[o]") && s.contains("[a]") && s.contains("[r]"),
        "{s}"
    );
    insta::assert_snapshot!("approval_60x20", s);
    // 40x15: says it is too small rather than cutting a button.
    let s = draw(&a, 40, 15);
    assert!(s.contains("too small"), "{s}");
    assert!(!s.contains("[o]"), "{s}");
    insta::assert_snapshot!("approval_40x15", s);
}
