//! Render-time benchmark of the chat transcript: a ~10k-line conversation drawn at 120x40
//! on ratatui's TestBackend while scrolled, and at 160x45 with every pane and the processes
//! list, median time per frame. Writes its section of
//! docs/benchmarks.md between `<!-- tui-render -->` and `<!-- /tui-render -->`.
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

/// A monitor snapshot with 40 processes (the server's top 20 by CPU and top 20 by memory).
fn snapshot(i: usize) -> protocol::MonitorSnapshot {
    let top_processes = (0..40u32)
        .map(|p| protocol::ProcessStats {
            pid: 1000 + p,
            user: if p % 3 == 0 { "postgres" } else { "www-data" }.into(),
            name: format!("worker-{p}"),
            cpu_percent: f64::from((p * 7 + i as u32) % 100),
            rss_bytes: u64::from(p + 1) << 24,
            mem_percent: f64::from(p) / 10.0,
            command: format!("/usr/bin/worker-{p} --serve"),
        })
        .collect();
    protocol::MonitorSnapshot {
        ts_ms: i as u64,
        cpu: protocol::CpuStats {
            usage_percent: (i % 100) as f32,
            cores: 2,
            frequency_mhz: 2400,
            load_avg: [2.5, 1.0, 0.5],
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

    // 3. The widest case users see: 160x45, every pane, the System pane focused with its
    // processes list (40 processes, as the server sends), the same transcript beside it.
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
    let mut times = Vec::with_capacity(frames);
    for i in 0..frames {
        // A new snapshot and a selection move between frames, as at the gauge rate.
        update(
            &mut app,
            AppEvent::Client(ClientEvent::Message(Message::MonitorSnapshot(snapshot(i)))),
        );
        update(
            &mut app,
            AppEvent::Key(KeyEvent::new(KeyCode::Down, KeyModifiers::NONE)),
        );
        let t = Instant::now();
        wide.draw(|f| llmops_tui::ui::render(&app, f))
            .expect("draw");
        times.push(t.elapsed());
    }
    let all_panes = median(times);

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

    let report = format!(
        "<!-- tui-render -->\n\
         Command: `cargo bench -p llmops-tui --bench render` (release, in `make bench`). A transcript of \
         {total} wrapped lines ({} entries: user messages, tool lines, streamed Markdown answers with \
         lists, code blocks and Chinese text) drawn on ratatui's TestBackend at {W}x{H} \
         (transcript view {w}x{h}), {frames} frames each, medians.\n\n\
         | what | median per frame |\n|---|---|\n\
         | frame at a scattered scroll position | {:.3} ms |\n\
         | PageUp (through `update`) + frame | {:.3} ms |\n\
         | {WW}x{WH}, every pane, System focused with 40 processes | {:.3} ms |\n\
         | {WW}x{WH}, pager over the whole transcript, search `load`, `n` between frames | {:.3} ms |\n\n\
         Building the transcript (streamed in 24-character deltas): {:.0} ms.\n\
         <!-- /tui-render -->",
        app.transcript.entries.len(),
        ms(frame),
        ms(scroll),
        ms(all_panes),
        ms(pager),
        ms(built),
    );
    println!("{report}");
    if quick {
        return;
    }
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/benchmarks.md");
    let old = std::fs::read_to_string(&path).unwrap_or_default();
    let new = match (
        old.find("<!-- tui-render -->"),
        old.find("<!-- /tui-render -->"),
    ) {
        (Some(a), Some(b)) if a < b => {
            let end = b + "<!-- /tui-render -->".len();
            format!("{}{report}{}", &old[..a], &old[end..])
        }
        _ => format!(
            "{}\n\n## TUI rendering (`cargo bench -p llmops-tui --bench render`, release)\n\n{report}\n",
            old.trim_end_matches('\n')
        ),
    };
    std::fs::write(&path, new).expect("write docs/benchmarks.md");
    eprintln!("wrote {}", path.display());
}
