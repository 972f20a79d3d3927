//! Pure rendering: `render(&App, &mut Frame)` draws the whole screen from state and never
//! changes it. The layout adapts to the terminal: side panes beside the chat when wide,
//! tabs when narrow, a notice below the minimum size. Under NO_COLOR colours are dropped
//! after drawing.

pub mod approval;
pub mod chat;
pub mod dialogs;
pub mod pager;
pub mod panes;
pub mod picker;
pub mod popup;
pub mod process;
pub mod procs;
pub mod system;
pub mod transfer;
pub mod watch;
pub mod widgets;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::{App, Conn};
use crate::keymap::Pane;
use crate::text;

pub const MIN_W: u16 = 40;
pub const MIN_H: u16 = 10;
/// Width from which side panes sit beside the chat instead of behind tabs.
pub const WIDE_W: u16 = 100;
pub const WIDE_H: u16 = 20;

/// Where everything goes for one frame.
#[derive(Debug, Clone, Default)]
pub struct Areas {
    pub tabs: Option<Rect>,
    /// The chat block (transcript inside its border).
    pub chat: Option<Rect>,
    pub agent: Option<Rect>,
    pub input: Option<Rect>,
    pub panes: Vec<(Pane, Rect)>,
    pub bar: Rect,
}

pub fn too_small(area: Rect) -> bool {
    area.width < MIN_W || area.height < MIN_H
}

pub fn is_wide(area: Rect) -> bool {
    area.width >= WIDE_W && area.height >= WIDE_H
}

fn input_height(app: &App) -> u16 {
    (app.input.lines().len().clamp(1, 6) as u16) + 2
}

pub fn layout(app: &App, area: Rect) -> Areas {
    let [body, bar] = Layout::vertical([Constraint::Min(1), Constraint::Length(1)]).areas(area);
    let mut a = Areas {
        bar,
        ..Default::default()
    };
    let chat_col = |a: &mut Areas, r: Rect| {
        let [chat, agent, input] = Layout::vertical([
            Constraint::Min(3),
            Constraint::Length(1),
            Constraint::Length(input_height(app)),
        ])
        .areas(r);
        a.chat = Some(chat);
        a.agent = Some(agent);
        a.input = Some(input);
    };
    if is_wide(area) {
        let side_w = (area.width * 38 / 100).clamp(36, 64);
        let [left, right] =
            Layout::horizontal([Constraint::Min(40), Constraint::Length(side_w)]).areas(body);
        chat_col(&mut a, left);
        let tr_h = if app.transfers.is_empty() && app.focus != Pane::Transfers {
            3
        } else {
            6
        };
        let [g, f, s, t] = Layout::vertical([
            gauges_height(app, side_w),
            Constraint::Fill(1),
            Constraint::Fill(1),
            Constraint::Length(tr_h),
        ])
        .areas(right);
        a.panes = vec![
            (Pane::Gauges, g),
            (Pane::Files, f),
            (Pane::Search, s),
            (Pane::Transfers, t),
        ];
    } else {
        let [tabs, rest] =
            Layout::vertical([Constraint::Length(1), Constraint::Min(1)]).areas(body);
        a.tabs = Some(tabs);
        if app.focus == Pane::Chat {
            chat_col(&mut a, rest);
        } else {
            a.panes = vec![(app.focus, rest)];
        }
    }
    a
}

/// Height of the System pane on a wide screen: the gauges, then (when the server reports
/// processes) a few of the top processes; most of the column while it has the focus.
fn gauges_height(app: &App, side_w: u16) -> Constraint {
    if app.focus == Pane::Gauges {
        return Constraint::Percentage(60);
    }
    let gauges = system::height(app, usize::from(side_w.saturating_sub(2))) as u16;
    let procs = app
        .gauges
        .snap
        .as_ref()
        .map_or(0, |s| s.top_processes.len())
        .min(5) as u16;
    let procs_rows = if procs > 0 { 3 + procs } else { 0 };
    Constraint::Length((2 + gauges + procs_rows).clamp(9, 26))
}

/// Inner size of the transcript for the current terminal size (used by `update` to scroll).
pub fn transcript_size(app: &App) -> (usize, usize) {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let l = layout(app, area);
    let inner = l
        .chat
        .map(|c| Block::bordered().inner(c))
        .unwrap_or_default();
    (
        usize::from(inner.width.max(1)),
        usize::from(inner.height.max(1)),
    )
}

pub fn pane_block<'a>(app: &App, pane: Pane, title: impl Into<Line<'a>>) -> Block<'a> {
    let focused = app.focus == pane && app.modal.is_none();
    let mut b = Block::bordered().title(title).border_style(if focused {
        app.theme.focus
    } else {
        app.theme.border
    });
    if focused {
        b = b.border_type(BorderType::Thick);
    }
    if app.theme.ascii {
        b = b.border_set(ASCII_BORDER);
    }
    b
}

pub const ASCII_BORDER: ratatui::symbols::border::Set = ratatui::symbols::border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

/// Draws the whole UI.
pub fn render(app: &App, frame: &mut Frame) {
    let area = frame.area();
    if area.width == 0 || area.height == 0 {
        return;
    }
    if too_small(area) {
        let msg = format!(
            "Terminal too small ({}x{}): need at least {MIN_W}x{MIN_H}",
            area.width, area.height
        );
        frame.render_widget(Paragraph::new(msg).wrap(Wrap { trim: true }), area);
        return;
    }
    let l = layout(app, area);
    if let Some(t) = l.tabs {
        draw_tabs(app, frame, t);
    }
    if let Some(c) = l.chat {
        chat::render(app, frame, c, l.agent, l.input);
    }
    for (p, r) in &l.panes {
        panes::render(app, frame, *p, *r);
    }
    draw_bar(app, frame, l.bar);
    dialogs::render(app, frame, area);
    if app.theme.no_color {
        for cell in frame.buffer_mut().content.iter_mut() {
            cell.fg = Color::Reset;
            cell.bg = Color::Reset;
            cell.underline_color = Color::Reset;
        }
    }
}

fn draw_tabs(app: &App, frame: &mut Frame, r: Rect) {
    let mut spans = Vec::new();
    for (i, p) in Pane::ALL.iter().enumerate() {
        let label = format!(" {} {} ", i + 1, p.title());
        let st = if *p == app.focus {
            app.theme.selected.add_modifier(Modifier::BOLD)
        } else {
            app.theme.dim
        };
        spans.push(Span::styled(label, st));
        spans.push(Span::raw(" "));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), r);
}

/// The cause in a connection error, without the address and errno noise:
/// `…cannot reach the server at 127.0.0.1:9: Connection refused (os error 111)` gives
/// `Connection refused`.
pub fn short_reason(reason: &str) -> String {
    let tail = reason.rsplit(": ").next().unwrap_or(reason).trim();
    let tail = match tail.find(" (os error") {
        Some(i) => &tail[..i],
        None => tail,
    };
    tail.to_string()
}

pub fn spinner(app: &App) -> &'static str {
    const UNI: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
    const ASC: [&str; 4] = ["|", "/", "-", "\\"];
    if app.theme.ascii {
        ASC[app.spinner % ASC.len()]
    } else {
        UNI[app.spinner % UNI.len()]
    }
}

/// The status bar's hint for the help key, which every pane's hints start with.
const HELP_HINT: &str = "? help";

/// The connection's dot, words and style at the start of the status bar.
fn conn_label(app: &App, r: Rect) -> (&'static str, String, Style) {
    let th = &app.theme;
    match &app.conn {
        Conn::Connected => ("●", "connected".to_string(), th.ok),
        Conn::Connecting => ("◌", "connecting".to_string(), th.warn),
        Conn::Reconnecting {
            attempt,
            until,
            reason,
        } => {
            let secs = until
                .saturating_duration_since(app.now)
                .as_secs_f32()
                .ceil() as u64;
            let why = short_reason(reason);
            let conn = if why.is_empty() {
                format!("reconnecting in {secs}s (attempt {attempt})")
            } else {
                // The reason is what the user needs at a dead address; the attempt count
                // gives way on narrow terminals.
                let why = text::truncate(&why, usize::from(r.width / 3).max(12));
                format!("reconnecting in {secs}s (attempt {attempt}): {why}")
            };
            ("◌", conn, th.warn)
        }
    }
}

/// As many of `hints` as fit in `room` columns, joined by ` · `.
fn hint_text(hints: Vec<String>, room: usize) -> String {
    let mut hint = String::new();
    for h in hints {
        let add = if hint.is_empty() {
            h
        } else {
            format!(" · {h}")
        };
        if text::width(&hint) + text::width(&add) > room {
            break;
        }
        hint.push_str(&add);
    }
    hint
}

fn draw_bar(app: &App, frame: &mut Frame, r: Rect) {
    let th = &app.theme;
    let (dot, conn, st) = conn_label(app, r);
    let dot = if th.ascii { "*" } else { dot };
    let sep = Span::styled(if th.ascii { " | " } else { " │ " }, th.dim);
    let head = format!("{dot} {conn}");
    let hints: Vec<String> = app
        .keymap
        .hints(app.ctx())
        .into_iter()
        .map(|(k, d)| format!("{k} {d}"))
        .collect();
    // The address gives way before egress and the help key: a socket path, or a list of
    // endpoints, can be longer than a narrow terminal.
    let egress_w = if app.egress.is_empty() {
        0
    } else {
        3 + text::width("egress: ") + text::width(&app.egress)
    };
    let help_w = match hints.first() {
        Some(h) if h == HELP_HINT => 3 + text::width(h),
        _ => 0,
    };
    let tail = egress_w + help_w;
    let room = usize::from(r.width).saturating_sub(text::width(&head) + 1 + tail);
    let mut spans = vec![
        Span::styled(head, st.add_modifier(Modifier::BOLD)),
        Span::raw(" "),
        Span::raw(text::truncate(&app.server, room)),
    ];
    // Fields in the order shown; on narrow terminals the least important go first so the
    // connection, egress and a key hint stay visible.
    let mut fields: Vec<(&str, &str, u8)> = vec![
        ("session", &app.session_name, 3),
        ("model", &app.model, 1),
        ("planner", &app.planner, 0),
        ("egress", &app.egress, 4),
    ];
    fields.retain(|f| !f.1.is_empty());
    let width_of = |fields: &[(&str, &str, u8)]| -> usize {
        fields
            .iter()
            .map(|(l, v, _)| 3 + text::width(l) + 2 + text::width(v))
            .sum()
    };
    let base: usize = spans.iter().map(|s| s.width()).sum();
    let want = usize::from(r.width).saturating_sub(16);
    while base + width_of(&fields) > want {
        let Some(i) = (0..fields.len()).min_by_key(|i| fields[*i].2) else {
            break;
        };
        if fields[i].2 >= 4 {
            break;
        }
        fields.remove(i);
    }
    for (label, v, _) in fields {
        spans.push(sep.clone());
        spans.push(Span::styled(format!("{label}: "), th.dim));
        spans.push(Span::raw(v.to_string()));
    }
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let hint = hint_text(hints, usize::from(r.width).saturating_sub(used + 3));
    if !hint.is_empty() {
        spans.push(sep);
        spans.push(Span::styled(hint, th.dim));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)).style(Style::default()), r);
}

#[cfg(test)]
mod snap_approval_tests;
#[cfg(test)]
mod snap_cockpit_tests;
#[cfg(test)]
mod snap_pager_tests;
#[cfg(test)]
mod snap_tests;
#[cfg(test)]
mod tests;
