//! Render-time benchmark of the chat transcript: a ~10k-line conversation drawn at 120x40
//! on ratatui's TestBackend while scrolled, and at 160x45 with every pane and the processes
//! list, median time per frame. Writes its section of
//! docs/benchmarks.md between `<!-- bench:tui-render:begin -->` and
//! `<!-- bench:tui-render:end -->` (the CPU, the command and the date with it).
//! Run: `cargo bench -p llmops-tui --bench render` (`--quick` for fewer frames).

use std::time::{Duration, Instant};

use protocol::{AgentEvent, AgentEventKind, Message, StreamDelta, StreamEnd, StreamStart};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use llmops_tui::app::{update, App, AppEvent};
use llmops_tui::client::ClientEvent;
use llmops_tui::theme::Theme;

const W: u16 = 120;
const H: u16 = 40;
const TARGET_LINES: usize = 10_000;
const BEGIN: &str = "<!-- bench:tui-render:begin -->";
const END: &str = "<!-- bench:tui-render:end -->";

fn welcome() -> protocol::Welcome {
    protocol::Welcome {
        proto: 1,
        session_id: "3f2a9c0e-1111-2222-3333-444455556666".into(),
        session_name: "bench".into(),
        resumed: false,
        server_version: "0.1.0".into(),
        heartbeat_secs: 90,
        model: "offline".into(),
        models: vec!["offline".into()],
        features: vec![],
        planner: "offline".into(),
        egress: "none".into(),
        motd: String::new(),
        commands: vec!["df".into(), "ps".into()],
    }
}

/// One answer: headings, a wrapped paragraph, a list, a code block, Chinese text.
fn answer(i: usize) -> String {
    format!(
        "## Check {i}\n\nThe load on host-{i} is **moderate**: CPU at {}% across 2 cores, memory \
         at {}% of 7.6 GiB, and the disk on `/var` is {}% full, which leaves room for about a week \
         of logs at the current rate. 磁盘使用率正常，无需处理。\n\n\
         - nginx: 4 workers, 12 ms p50\n- postgres: 38 connections\n- cron: last run ok\n\n\
         ```sh\ndf -h /var\nfree -m\nuptime\n```\n\nNothing else needs attention right now.\n",
        i % 100,
        (i * 7) % 100,
        (i * 13) % 100
    )
}

fn ev(m: Message) -> AppEvent {
    AppEvent::TurnMsg(m)
}

/// A connected app whose transcript has at least `TARGET_LINES` wrapped lines at `W`.
fn build() -> App {
    let mut a = App::new("127.0.0.1:9999", Theme::dark());
    a.size = (W, H);
    update(&mut a, AppEvent::Client(ClientEvent::Connected(welcome())));
    let mut id = 1u64;
    loop {
        for c in format!("host-{id} 状态如何？").chars() {
            update(
                &mut a,
                AppEvent::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)),
            );
        }
        update(
            &mut a,
            AppEvent::Key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE)),
        );
        update(&mut a, AppEvent::TurnStarted(id));
        let agent = |event| {
            ev(Message::AgentEvent(AgentEvent {
                request_id: id,
                event,
            }))
        };
        update(
            &mut a,
            agent(AgentEventKind::ToolCall {
                step: 1,
                tool: "sys_monitor".into(),
                args: serde_json::json!({"metric": "all"}),
            }),
        );
        update(
            &mut a,
            agent(AgentEventKind::ToolResult {
                step: 1,
                tool: "sys_monitor".into(),
                ok: true,
                duration_ms: 3,
                summary: "cpu 12%, mem 40%, disk 61%".into(),
                output: None,
            }),
        );
        update(
            &mut a,
            ev(Message::StreamStart(StreamStart { request_id: id })),
        );
        let text = answer(id as usize);
        // Streamed in small deltas, as the server sends them.
        let chars: Vec<char> = text.chars().collect();
        for part in chars.chunks(24) {
            update(
                &mut a,
                ev(Message::StreamDelta(StreamDelta {
                    request_id: id,
                    text: part.iter().collect(),
                })),
            );
        }
        update(
            &mut a,
            ev(Message::StreamEnd(StreamEnd {
                request_id: id,
                status: protocol::EndStatus::Ok,
                message: None,
            })),
        );
        id += 1;
        if id.is_multiple_of(20) {
            let (w, _) = llmops_tui::ui::transcript_size(&a);
            if llmops_tui::ui::chat::line_count(&a, w) >= TARGET_LINES {
                break;
            }
        }
    }
    a
}

/// A monitor snapshot as the server sends it to the System pane: 8 cores, network and disk
/// rates, 100 processes of the pane's view (in parent/child chains for the tree), and on
/// the first one the server's five minutes of history.
fn snapshot(i: usize) -> protocol::MonitorSnapshot {
    let top_processes = (0..100u32)
        .map(|p| protocol::ProcessStats {
            pid: 1000 + p,
            ppid: if p < 4 { 1 } else { 1000 + p / 4 },
            user: if p % 3 == 0 { "postgres" } else { "www-data" }.into(),
            name: "python3".into(),
            cpu_percent: f64::from((p * 7 + i as u32) % 100),
            rss_bytes: u64::from(p + 1) << 24,
            mem_percent: f64::from(p) / 10.0,
            command: format!("/usr/bin/python3 worker.py --queue q{p} --concurrency 4"),
        })
        .collect();
    let history = if i == 0 {
        (0..300u64)
            .map(|t| protocol::HistoryPoint {
                ts_ms: t * 1000,
                cpu_percent: (t % 100) as f32,
                mem_percent: 37.5,
                net_rx_bytes_per_sec: t * 1000,
                net_tx_bytes_per_sec: t * 300,
                disk_read_bytes_per_sec: (t % 7) << 20,
                disk_write_bytes_per_sec: (t % 5) << 20,
            })
            .collect()
    } else {
        Vec::new()
    };
    protocol::MonitorSnapshot {
        ts_ms: 300_000 + i as u64 * 1000,
        cpu: protocol::CpuStats {
            usage_percent: (i % 100) as f32,
            cores: 8,
            frequency_mhz: 2400,
            load_avg: [2.5, 1.0, 0.5],
            per_core: (0..8).map(|c| ((c * 13 + i) % 100) as f32).collect(),
        },
        memory: protocol::MemoryStats {
            total_bytes: 8 << 30,
            used_bytes: 3 << 30,
            available_bytes: 5 << 30,
            usage_percent: 37.5,
        },
        disks: vec![protocol::DiskStats {
            mount: "/".into(),
            fs: "ext4".into(),
            total_bytes: 100 << 30,
            used_bytes: 61 << 30,
            available_bytes: 39 << 30,
            usage_percent: 61.0,
        }],
        top_processes,
        process_count: Some(212),
        net: Some(protocol::NetIo {
            rx_bytes_per_sec: 1_200_000 + i as u64,
            tx_bytes_per_sec: 300_000,
            interfaces: vec![],
        }),
        disk_io: Some(protocol::DiskIo {
            read_bytes_per_sec: 5 << 20,
            write_bytes_per_sec: 12 << 20,
            devices: vec![],
        }),
        interval_ms: 1000,
        history,
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let frames = if quick { 40 } else { 200 };
    let t0 = Instant::now();
    let mut app = build();
    let built = t0.elapsed();
    let (w, h) = llmops_tui::ui::transcript_size(&app);
    let total = llmops_tui::ui::chat::line_count(&app, w);
    let mut term = Terminal::new(TestBackend::new(W, H)).expect("test backend");
    // Warm up (fills any caches a renderer keeps) and check the frame is the transcript.
    term.draw(|f| llmops_tui::ui::render(&app, f))
        .expect("draw");

    // 1. Frames at scattered scroll positions (no input between them).
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        let top = (i * 7919) % total.saturating_sub(h).max(1);
        app.scroll = Some(top);
        let t = Instant::now();
        term.draw(|f| llmops_tui::ui::render(&app, f))
            .expect("draw");
        times.push(t.elapsed());
    }
    let frame = median(times);

    // 2. What a user does: PageUp from the tail, one frame per key press.
    app.scroll = None;
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        let t = Instant::now();
        update(
            &mut app,
            AppEvent::Key(KeyEvent::new(KeyCode::PageUp, KeyModifiers::NONE)),
        );
        term.draw(|f| llmops_tui::ui::render(&app, f))
            .expect("draw");
        times.push(t.elapsed());
    }
    let scroll = median(times);

    // 3. The widest case users see: 160x45, every pane, the System pane focused: per-core
    // CPU, I/O rates, five minutes of sparklines and 100 processes, the same transcript
    // beside it; then the same in tree view.
    const WW: u16 = 160;
    const WH: u16 = 45;
    app.size = (WW, WH);
    update(&mut app, AppEvent::Resize(WW, WH));
    for i in 0..5 {
        update(
            &mut app,
            AppEvent::Client(ClientEvent::Message(Message::MonitorSnapshot(snapshot(i)))),
        );
    }
    update(
        &mut app,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('4'), KeyModifiers::ALT)),
    );
    let mut wide = Terminal::new(TestBackend::new(WW, WH)).expect("test backend");
    let system_frames = |app: &mut App, wide: &mut Terminal<TestBackend>| {
        let mut times = Vec::with_capacity(frames);
        for i in 0..frames {
            // A new snapshot and a selection move between frames, as at the gauge rate.
            update(
                app,
                AppEvent::Client(ClientEvent::Message(Message::MonitorSnapshot(snapshot(
                    i + 5,
                )))),
            );
            update(
                app,
                AppEvent::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)),
            );
            let t = Instant::now();
            wide.draw(|f| llmops_tui::ui::render(app, f)).expect("draw");
            times.push(t.elapsed());
        }
        median(times)
    };
    let all_panes = system_frames(&mut app, &mut wide);
    update(
        &mut app,
        AppEvent::Key(KeyEvent::new(KeyCode::Char('t'), KeyModifiers::NONE)),
    );
    let tree = system_frames(&mut app, &mut wide);
    update(
        &mut app,
        AppEvent::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE)),
    );

    // 4. The pager at 160x45 over the whole transcript (Ctrl+F), a search with matches on
    // many lines, `n` (jump and highlight) between frames.
    let key = |c: KeyCode, m: KeyModifiers| AppEvent::Key(KeyEvent::new(c, m));
    update(&mut app, key(KeyCode::Esc, KeyModifiers::NONE));
    update(&mut app, key(KeyCode::Char('f'), KeyModifiers::CONTROL));
    for c in "load".chars() {
        update(&mut app, key(KeyCode::Char(c), KeyModifiers::NONE));
    }
    update(&mut app, key(KeyCode::Enter, KeyModifiers::NONE));
    let mut times = Vec::with_capacity(frames);
    for _ in 0..frames {
        update(&mut app, key(KeyCode::Char('n'), KeyModifiers::NONE));
        let t = Instant::now();
        wide.draw(|f| llmops_tui::ui::render(&app, f))
            .expect("draw");
        times.push(t.elapsed());
    }
    let pager = median(times);

    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find_map(|l| l.strip_prefix("model name"))
                .map(|v| v.trim_start_matches([' ', '\t', ':']).to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let today = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let date = llmops_tui::ui::process::local_time(today);
    let report = format!(
        "{BEGIN}\n\
         {cpu}, {cores} cores; {date}.\n\n\
         Command: `cargo bench -p llmops-tui --bench render` (release, in `make bench`). A transcript of \
         {total} wrapped lines ({} entries: user messages, tool lines, streamed Markdown answers with \
         lists, code blocks and Chinese text) drawn on ratatui's TestBackend at {W}x{H} \
         (transcript view {w}x{h}), {frames} frames each, medians.\n\n\
         | what | median per frame |\n|---|---|\n\
         | frame at a scattered scroll position | {:.3} ms |\n\
         | PageUp (through `update`) + frame | {:.3} ms |\n\
         | {WW}x{WH}, every pane, System focused: 8 cores, I/O rates, 5 min of sparklines, 100 processes | {:.3} ms |\n\
         | the same, processes as a tree | {:.3} ms |\n\
         | {WW}x{WH}, pager over the whole transcript, search `load`, `n` between frames | {:.3} ms |\n\n\
         Building the transcript (streamed in 24-character deltas): {:.0} ms.\n\
         {END}",
        app.transcript.entries.len(),
        ms(frame),
        ms(scroll),
        ms(all_panes),
        ms(tree),
        ms(pager),
        ms(built),
    );
    println!("{report}");
    if quick {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    // This section only; an older copy between the markers it used before is replaced.
    let section = [
        (BEGIN, END),
        ("<!-- tui-render -->", "<!-- /tui-render -->"),
    ]
    .into_iter()
    .find_map(|(b, e)| {
        let a = old.find(b)?;
        let z = old[a..].find(e)? + a + e.len();
        Some((a, z))
    });
    let new = match section {
        Some((a, z)) => format!("{}{report}{}", &old[..a], &old[z..]),
        None => format!(
            "{}\n\n## TUI rendering (`cargo bench -p llmops-tui --bench render`, release)\n\n{report}\n",
            old.trim_end_matches('\n')
        ),
    };
    std::fs::write(&path, new).expect("write docs/benchmarks.md");
    eprintln!("wrote {}", path.display());
}
