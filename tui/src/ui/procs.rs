//! The processes list under the System gauges: pid, user, the command line cut to the
//! width (three `python3` jobs look different), %CPU as top shows it and RSS; in tree mode
//! each command sits under its parent, ancestors shown only for context dimmed.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::app::procs::{rows, selected_index};
use crate::app::App;
use crate::keymap::Pane;
use crate::text;
use crate::ui::widgets::{compact, window};
use protocol::ProcessSort;

/// A command line as the list shows it: the program's path reduced to its name, then the
/// arguments (`/usr/bin/python3 worker.py` -> `python3 worker.py`); `[kthreadd]` as is.
pub fn short_command(command: &str, name: &str) -> String {
    if command.is_empty() {
        return format!("[{name}]");
    }
    if command.starts_with('[') {
        return command.to_string();
    }
    let (prog, rest) = command.split_once(' ').unwrap_or((command, ""));
    let prog = prog
        .rsplit('/')
        .next()
        .filter(|p| !p.is_empty())
        .unwrap_or(prog);
    if rest.is_empty() {
        prog.to_string()
    } else {
        format!("{prog} {rest}")
    }
}

fn head(app: &App, shown: usize, total: Option<u32>) -> String {
    let by = match app.procs.sort {
        ProcessSort::Cpu => "CPU",
        ProcessSort::Memory => "memory",
    };
    let count = match total {
        Some(n) if (n as usize) > shown => format!(" ({shown} of {n})"),
        Some(n) => format!(" ({n})"),
        None => String::new(),
    };
    let mut h = format!("Processes{count} by {by}");
    if app.procs.tree {
        h.push_str(" · tree");
    }
    if app.procs.filtering {
        h.push_str(&format!(
            " · filter: {}▏ Enter keeps · Esc clears",
            app.procs.filter
        ));
    } else if !app.procs.filter.is_empty() {
        h.push_str(&format!(" · filter: {}", app.procs.filter));
    }
    if app.focus == Pane::Gauges && !app.procs.filtering {
        h.push_str(" · Enter details · / filter · k signal · t tree · a ask · F2 sort");
    }
    h
}

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
    let r = rows(app);
    let mut lines: Vec<Line> = vec![Line::styled(
        text::truncate(&head(app, r.len(), snap.process_count), w),
        th.accent,
    )];
    if snap.top_processes.is_empty() {
        lines.push(Line::styled(
            text::truncate("no process data from this server", w),
            th.dim,
        ));
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    // PID, USER (dropped when narrow), COMMAND (the rest), %CPU, RSS.
    let (pid_w, cpu_w, rss_w) = (7, 6, 7);
    let user_w = if w >= 46 { 9 } else { 0 };
    let cmd_w = w.saturating_sub(pid_w + user_w + cpu_w + rss_w + 1).max(4);
    let row = |pid: &str, user: &str, cmd: &str, cpu: &str, rss: &str| -> String {
        let mut s = format!("{pid:>6} ");
        if user_w > 0 {
            s.push_str(&text::pad(&text::truncate(user, user_w - 1), user_w));
        }
        s.push_str(&text::pad(&text::truncate(cmd, cmd_w), cmd_w));
        s.push_str(&format!("{cpu:>cpu_w$} {rss:>6}"));
        s
    };
    lines.push(Line::styled(
        text::truncate(&row("PID", "USER", "COMMAND", "%CPU", "RSS"), w),
        th.dim,
    ));
    if r.is_empty() {
        lines.push(Line::styled(
            text::truncate(&format!("no process matches '{}'", app.procs.filter), w),
            th.dim,
        ));
    }
    let sel = selected_index(app, &r);
    let h = usize::from(area.height).saturating_sub(lines.len());
    let (a, b) = window(r.len(), sel, h);
    for (i, row_) in r.iter().enumerate().take(b).skip(a) {
        let p = row_.p;
        let cmd = format!("{}{}", row_.branch, short_command(&p.command, &p.name));
        // Cut in the middle: jobs of one program differ in their last arguments.
        let cmd = text::truncate_middle(&cmd, cmd_w);
        let s = row(
            &p.pid.to_string(),
            &p.user,
            &cmd,
            &format!("{:.1}", p.cpu_percent),
            &compact(p.rss_bytes),
        );
        let mut line = Line::from(Span::raw(text::truncate(&s, w)));
        if i == sel && app.focus == Pane::Gauges {
            line = line.style(th.selected);
        } else if row_.context {
            line = line.style(th.dim);
        } else if p.cpu_percent >= 90.0 {
            line = line.style(th.warn);
        }
        lines.push(line);
    }
    frame.render_widget(Paragraph::new(lines), area);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_show_their_arguments_with_the_program_name() {
        assert_eq!(
            short_command("/usr/bin/python3 worker.py --queue a", "python3"),
            "python3 worker.py --queue a"
        );
        assert_eq!(short_command("[kthreadd]", "kthreadd"), "[kthreadd]");
        assert_eq!(short_command("", "kworker/0:1"), "[kworker/0:1]");
        assert_eq!(
            short_command("nginx: worker process", "nginx"),
            "nginx: worker process"
        );
        assert_eq!(short_command("/sbin/init", "systemd"), "init");
    }
}
