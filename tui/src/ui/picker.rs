//! Drawing the `/sessions` picker (filter row, one row per session: title, messages, last
//! activity, id prefix; the delete question or the rename field at the bottom) and the
//! "did you mean" question after a mistyped command.

use protocol::SessionInfo;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::picker::{when, Picker};
use crate::app::{short, App};
use crate::keymap::Ctx;
use crate::text;
use crate::ui::popup::{centered, dialog, hint_line};

pub fn render(app: &App, frame: &mut Frame, area: Rect, p: &Picker) {
    let r = centered(area, 84, area.height.saturating_sub(4).clamp(8, 24));
    frame.render_widget(Clear, r);
    let b = dialog(app, " 会话 / Sessions ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let [f, list, extra, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(if p.rename.is_some() { 3 } else { 1 }),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(filter_line(app, p)), f);
    let vis = p.visible();
    frame.render_widget(Paragraph::new(session_rows(app, p, &vis, list)), list);
    bottom(app, frame, extra, p, &vis);
    let ctx = if p.confirm_delete.is_some() {
        Ctx::Confirm
    } else if p.rename.is_some() {
        Ctx::Rename
    } else {
        Ctx::Picker
    };
    frame.render_widget(Paragraph::new(hint_line(app, ctx)), hints);
}

/// The filter typed so far, and how many empty sessions are left out.
fn filter_line(app: &App, p: &Picker) -> Line<'static> {
    let th = &app.theme;
    let filter = if p.filter.is_empty() {
        Span::styled("type to filter", th.dim)
    } else {
        Span::raw(p.filter.clone())
    };
    let mut head = vec![Span::styled("filter: ", th.dim), filter];
    if p.hidden_empty > 0 {
        head.push(Span::styled(
            format!("   ({} empty not listed)", p.hidden_empty),
            th.dim,
        ));
    }
    Line::from(head)
}

/// One row per session that fits in `list`, scrolled to keep the selection in view.
fn session_rows(app: &App, p: &Picker, vis: &[&SessionInfo], list: Rect) -> Vec<Line<'static>> {
    let th = &app.theme;
    let w = usize::from(list.width);
    let rows_h = usize::from(list.height);
    let first = p.selected.saturating_sub(rows_h.saturating_sub(1));
    let mut rows: Vec<Line> = Vec::new();
    if p.loading && p.sessions.is_empty() {
        rows.push(Line::styled("loading…", th.dim));
    } else if vis.is_empty() {
        rows.push(Line::styled("no session matches", th.dim));
    }
    let meta_w = 38;
    for (i, s) in vis.iter().enumerate().skip(first).take(rows_h) {
        let mark = if s.id == p.current { "● " } else { "  " };
        let title = text::pad(&format!("{mark}{}", s.name), w.saturating_sub(meta_w));
        let meta = format!(
            "{:>5} msg  {}  {}",
            s.messages,
            when(&s.updated_at),
            short(&s.id)
        );
        let mut line = Line::from(vec![
            Span::raw(title),
            Span::styled(text::pad(&meta, meta_w), th.dim),
        ]);
        if i == p.selected {
            line = line.style(th.selected);
        }
        rows.push(line);
    }
    rows
}

/// Under the list: the delete question or the rename field, when either is open.
fn bottom(app: &App, frame: &mut Frame, area: Rect, p: &Picker, vis: &[&SessionInfo]) {
    let th = &app.theme;
    match (&p.confirm_delete, &p.rename) {
        (Some(id), _) => {
            let name = vis
                .iter()
                .find(|s| s.id == *id)
                .map_or(short(id).to_string(), |s| s.name.clone());
            frame.render_widget(
                Paragraph::new(Line::styled(
                    format!("删除会话及其历史？/ Delete '{name}' and its history? y / n"),
                    th.warn,
                )),
                area,
            );
        }
        (None, Some(input)) => {
            let mut ta = input.as_ref().clone();
            ta.set_block(
                Block::bordered()
                    .title(" new title ")
                    .border_style(th.border),
            );
            frame.render_widget(&ta, area);
        }
        (None, None) => {}
    }
}

pub fn did_you_mean(app: &App, frame: &mut Frame, area: Rect, text: &str, suggestion: &str) {
    let r = centered(area, 72, 7);
    frame.render_widget(Clear, r);
    let b = dialog(app, " 未知命令 / Unknown command ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let first = text.split_whitespace().next().unwrap_or(text);
    let rows = vec![
        Line::from(vec![
            Span::raw(format!("{first}: 你是想输入 / did you mean ")),
            Span::styled(
                suggestion.to_string(),
                app.theme.accent.add_modifier(Modifier::BOLD),
            ),
            Span::raw("? (Enter sends it as a message)"),
        ]),
        Line::default(),
        hint_line(app, Ctx::DidYouMean),
    ];
    frame.render_widget(Paragraph::new(rows).wrap(Wrap { trim: false }), inner);
}
