//! The processes list under the System gauges: who is eating the CPU or the memory, from
//! the latest monitor snapshot (pid, user, name, %CPU as top shows it, RSS).

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::app::procs::{rows, selected_index, ProcSort};
use crate::app::App;
use crate::keymap::Pane;
use crate::text;
use crate::ui::panes::{compact, window};

/// Draws the list into `area` (any size; nothing when there is no room).
pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    if area.height < 2 || area.width < 20 {
        return;
    }
    let th = &app.theme;
    let w = usize::from(area.width);
    let Some(snap) = &app.gauges.snap else {
        return;
    };
    let mut lines: Vec<Line> = Vec::new();
    let count = snap
        .process_count
        .map_or_else(String::new, |n| format!(" ({n})"));
    let mut head = format!(
        "Processes{count} by {} · F2 sort",
        match app.procs.sort {
            ProcSort::Cpu => "CPU",
            ProcSort::Memory => "memory",
        }
    );
    if !app.procs.filter.is_empty() {
        head.push_str(&format!(" · filter: {}", app.procs.filter));
    } else if app.focus == Pane::Gauges {
        head.push_str(" · Enter ask · type to filter");
    }
    lines.push(Line::styled(text::truncate(&head, w), th.accent));
    if snap.top_processes.is_empty() {
        lines.push(Line::styled(
            text::truncate("no process data from this server", w),
            th.dim,
        ));
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    // PID, USER (dropped when narrow), NAME (the rest), %CPU, RSS.
    let (pid_w, cpu_w, rss_w) = (7, 6, 7);
    let user_w = if w >= 46 { 9 } else { 0 };
    let name_w = w.saturating_sub(pid_w + user_w + cpu_w + rss_w + 1).max(4);
    let row = |pid: &str, user: &str, name: &str, cpu: &str, rss: &str| -> String {
        let mut s = format!("{pid:>6} ");
        if user_w > 0 {
            s.push_str(&text::pad(&text::truncate(user, user_w - 1), user_w));
        }
        s.push_str(&text::pad(&text::truncate(name, name_w), name_w));
        s.push_str(&format!("{cpu:>cpu_w$} {rss:>6}"));
        s
    };
    lines.push(Line::styled(
        text::truncate(&row("PID", "USER", "NAME", "%CPU", "RSS"), w),
        th.dim,
    ));
    let r = rows(app);
    if r.is_empty() {
        lines.push(Line::styled(
            text::truncate(&format!("no process matches '{}'", app.procs.filter), w),
            th.dim,
        ));
    }
    let sel = selected_index(app, &r);
    let h = usize::from(area.height).saturating_sub(lines.len());
    let (a, b) = window(r.len(), sel, h);
    for (i, p) in r.iter().enumerate().take(b).skip(a) {
        let s = row(
            &p.pid.to_string(),
            &p.user,
            &p.name,
            &format!("{:.1}", p.cpu_percent),
            &compact(p.rss_bytes),
        );
        let mut line = Line::from(Span::raw(text::truncate(&s, w)));
        if i == sel && app.focus == Pane::Gauges {
            line = line.style(th.selected);
        } else if p.cpu_percent >= 90.0 {
            line = line.style(th.warn);
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), area);
}
