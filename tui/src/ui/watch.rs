//! The `/watch` view: what runs and how often, the last run's output with the lines that
//! changed since the run before marked, and when the next run comes.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use super::popup::{centered, dialog, hint_line};
use crate::app::watch::WatchState;
use crate::app::App;
use crate::keymap::Ctx;
use crate::text;

fn status(app: &App, w: &WatchState) -> String {
    let mut s = format!("每 {0}s / every {0}s", w.interval.as_secs_f64());
    s.push_str(&format!(" · run {}", w.runs));
    if w.runs > 0 {
        s.push_str(&format!(" · took {} ms", w.duration_ms));
        let changed = w.changed.iter().filter(|c| **c).count();
        s.push_str(&format!(" · {changed} changed"));
        if w.removed > 0 {
            s.push_str(&format!(", {} gone", w.removed));
        }
    }
    if w.in_flight {
        s.push_str(" · running…");
    } else if let Some(next) = w.next_at {
        let left = next.saturating_duration_since(app.now).as_secs_f64();
        s.push_str(&format!(" · next in {left:.0}s"));
    }
    s
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let Some(w) = &app.watch else {
        return;
    };
    let th = &app.theme;
    let r = centered(
        area,
        area.width.saturating_sub(2),
        area.height.saturating_sub(1),
    );
    frame.render_widget(Clear, r);
    let title = format!(" watch: {} ", w.text);
    let b = dialog(
        app,
        text::truncate(&title, usize::from(r.width).saturating_sub(4)),
    );
    let inner = b.inner(r);
    frame.render_widget(b, r);
    if inner.height < 3 {
        return;
    }
    let width = usize::from(inner.width);
    let mut rows = vec![Line::styled(text::truncate(&status(app, w), width), th.dim)];
    if let Some(e) = &w.error {
        rows.push(Line::styled(text::truncate(e, width), th.error));
    }
    let body_h = usize::from(inner.height).saturating_sub(rows.len() + 1);
    let first = usize::from(w.scroll).min(w.lines.len().saturating_sub(body_h));
    for (i, l) in w.lines.iter().enumerate().skip(first).take(body_h) {
        let changed = w.changed.get(i).copied().unwrap_or(false);
        let mark = if changed { "▌" } else { " " };
        let line = Line::from(vec![
            Span::styled(mark, th.accent),
            Span::raw(text::truncate(l, width.saturating_sub(1))),
        ]);
        rows.push(if changed {
            line.style(th.highlight)
        } else {
            line
        });
    }
    if w.runs == 0 && w.error.is_none() {
        rows.push(Line::styled("正在运行 / running…", th.dim));
    }
    frame.render_widget(Paragraph::new(rows), inner);
    let hints = Rect::new(inner.x, inner.bottom() - 1, inner.width, 1);
    frame.render_widget(Clear, hints);
    frame.render_widget(Paragraph::new(hint_line(app, Ctx::Watch)), hints);
}
