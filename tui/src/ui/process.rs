//! The process details view (what `/proc` says about one pid) and the signal menu.

use protocol::ProcessDetails;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::popup::{centered, dialog, hint_line};
use crate::app::process::{ProcessView, SignalMenu, SIGNALS};
use crate::app::{human_size, App};
use crate::keymap::Ctx;
use crate::sanitize::sanitize;
use crate::text;

/// Local date and time of Unix seconds `t` (`2025-03-04 10:02:07`).
pub fn local_time(t: u64) -> String {
    let secs = libc::time_t::try_from(t).unwrap_or(0);
    let mut tm = std::mem::MaybeUninit::<libc::tm>::zeroed();
    // SAFETY: `secs` and `tm` are valid for the call; localtime_r only writes into `tm`
    // and returns null on failure, in which case `tm` is not read.
    let ok = unsafe { !libc::localtime_r(&secs, tm.as_mut_ptr()).is_null() };
    if !ok {
        return format!("@{t}");
    }
    // SAFETY: localtime_r succeeded, so it filled `tm` (which was zeroed anyway).
    let tm = unsafe { tm.assume_init() };
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02}:{:02}",
        tm.tm_year + 1900,
        tm.tm_mon + 1,
        tm.tm_mday,
        tm.tm_hour,
        tm.tm_min,
        tm.tm_sec
    )
}

/// `3d 4h`, `2h 05m`, `4m 10s`, `12s`.
pub fn elapsed(secs: u64) -> String {
    let (d, h, m, s) = (secs / 86_400, secs / 3600 % 24, secs / 60 % 60, secs % 60);
    if d > 0 {
        format!("{d}d {h}h")
    } else if h > 0 {
        format!("{h}h {m:02}m")
    } else if m > 0 {
        format!("{m}m {s:02}s")
    } else {
        format!("{s}s")
    }
}

/// The details view: what the process is (command, user, family, times, memory), then
/// what it has open.
fn detail_rows(app: &App, d: &ProcessDetails) -> Vec<Line<'static>> {
    let th = &app.theme;
    let label = |l: &str| Span::styled(format!("{l:<20}"), th.dim);
    let field = |l: &str, v: String| Line::from(vec![label(l), Span::raw(v)]);
    let cmd: Vec<String> = d.argv.iter().map(|a| sanitize(a)).collect();
    let mut rows = vec![Line::from(vec![
        label("命令 / Command"),
        Span::styled(cmd.join(" "), th.accent.add_modifier(Modifier::BOLD)),
    ])];
    rows.push(field(
        "用户 / User",
        format!(
            "{}    状态 / State {}    线程 / Threads {}",
            sanitize(&d.user),
            d.state,
            d.threads
        ),
    ));
    let parent = d.parent.as_ref().map_or_else(
        || "—".to_string(),
        |p| format!("{} {}", p.pid, sanitize(&p.name)),
    );
    rows.push(field("父进程 / Parent", parent));
    let kids = if d.children.is_empty() {
        "—".to_string()
    } else {
        d.children
            .iter()
            .map(|c| format!("{} {}", c.pid, sanitize(&c.name)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    rows.push(field(
        &format!("子进程 / Children ({})", d.children.len()),
        kids,
    ));
    let started = if app.unix_now >= d.started_at && app.unix_now > 0 {
        format!(
            "{} ({} ago)",
            local_time(d.started_at),
            elapsed(app.unix_now - d.started_at)
        )
    } else {
        local_time(d.started_at)
    };
    rows.push(field("启动 / Started", started));
    let cpu = d
        .cpu_percent
        .map_or_else(|| "—".to_string(), |c| format!("{c:.1}%"));
    rows.push(field(
        "CPU / RSS",
        format!("{cpu}    RSS {}", human_size(d.rss_bytes)),
    ));
    if let Some(c) = &d.cwd {
        rows.push(field("cwd", sanitize(c)));
    }
    if let Some(e) = &d.exe {
        rows.push(field("exe", sanitize(e)));
    }
    rows.push(Line::default());
    rows.extend(descriptor_rows(app, d));
    rows
}

/// The open files and sockets, under a head saying how many are listed of how many.
fn descriptor_rows(app: &App, d: &ProcessDetails) -> Vec<Line<'static>> {
    let th = &app.theme;
    let mut rows = Vec::new();
    let mut head = format!(
        "打开的文件 / Open files ({} listed of {} descriptors",
        d.files.len() + d.sockets.len(),
        d.fds_total
    );
    if d.hidden > 0 {
        head.push_str(&format!(
            "; {} hidden by the path policy / {} 个被路径策略隐藏",
            d.hidden, d.hidden
        ));
    }
    head.push(')');
    rows.push(Line::styled(head, th.accent));
    if let Some(e) = &d.fds_error {
        rows.push(Line::styled(format!("  {}", sanitize(e)), th.warn));
    }
    for f in &d.files {
        rows.push(Line::raw(format!("  {:>4} {}", f.fd, sanitize(&f.target))));
    }
    rows.push(Line::styled(
        format!("套接字 / Sockets ({})", d.sockets.len()),
        th.accent,
    ));
    for s in &d.sockets {
        let mut l = format!("  {:>4} {:<5} {}", s.fd, s.proto, sanitize(&s.local));
        if !s.remote.is_empty() {
            l.push_str(&format!(" → {}", sanitize(&s.remote)));
        }
        if !s.state.is_empty() {
            l.push_str(&format!("  {}", s.state));
        }
        rows.push(Line::raw(l));
    }
    rows
}

pub fn details(app: &App, frame: &mut Frame, area: Rect, v: &ProcessView) {
    let th = &app.theme;
    let r = centered(
        area,
        area.width.saturating_sub(4).clamp(40, 110),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, r);
    let title = format!(" 进程 / Process {} {} ", v.pid, sanitize(&v.name));
    let b = dialog(
        app,
        text::truncate(&title, usize::from(r.width).saturating_sub(4)),
    );
    let inner = b.inner(r);
    frame.render_widget(b, r);
    if inner.height < 2 {
        return;
    }
    let body_h = inner.height - 1;
    let rows = match (&v.details, &v.error) {
        (_, Some(e)) => vec![
            Line::raw(sanitize(&v.command)),
            Line::default(),
            Line::styled(e.clone(), th.error),
        ],
        (Some(d), None) => detail_rows(app, d),
        (None, None) => vec![
            Line::raw(sanitize(&v.command)),
            Line::default(),
            Line::styled("正在读取 / reading /proc…", th.dim),
        ],
    };
    let body = Rect::new(inner.x, inner.y, inner.width, body_h);
    frame.render_widget(
        Paragraph::new(rows)
            .wrap(Wrap { trim: false })
            .scroll((v.scroll, 0)),
        body,
    );
    let hints = Rect::new(inner.x, inner.y + body_h, inner.width, 1);
    frame.render_widget(Paragraph::new(hint_line(app, Ctx::Process)), hints);
}

pub fn signal_menu(app: &App, frame: &mut Frame, area: Rect, m: &SignalMenu) {
    let th = &app.theme;
    let r = centered(area, area.width.min(72), (SIGNALS.len() as u16) + 7);
    frame.render_widget(Clear, r);
    let title = format!(" 发送信号 / Send a signal to {} ", m.pid);
    let b = dialog(app, title);
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let w = usize::from(inner.width);
    let mut rows = vec![Line::styled(
        text::truncate(&sanitize(&m.command), w),
        th.dim,
    )];
    for (i, (sig, what)) in SIGNALS.iter().enumerate() {
        let mark = if i == m.selected { "▶ " } else { "  " };
        let line = format!("{mark}{sig:<5} {what}");
        let mut l = Line::raw(text::truncate(&line, w));
        if i == m.selected {
            l = l.style(th.selected);
        }
        rows.push(l);
    }
    rows.push(Line::styled(
        text::truncate(
            "不会直接发送：先在批准对话框中确认 / nothing is sent yet: the approval dialog asks first",
            w,
        ),
        th.dim,
    ));
    rows.push(Line::default());
    rows.push(hint_line(app, Ctx::Signal));
    frame.render_widget(Paragraph::new(rows), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_like_ps_etime() {
        assert_eq!(elapsed(12), "12s");
        assert_eq!(elapsed(250), "4m 10s");
        assert_eq!(elapsed(2 * 3600 + 5 * 60), "2h 05m");
        assert_eq!(elapsed(3 * 86_400 + 4 * 3600 + 59), "3d 4h");
        assert_eq!(local_time(0).len(), 19);
    }
}
