//! Modal overlays: download offer, save-as prompt and overwrite question, yes/no
//! confirmation, local file browser, upload note and the help overlay (generated from the
//! keymap and the slash-command table). The transfer view lives in `ui::transfer`.

use std::path::Path;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;
use tui_textarea::TextArea;

use crate::app::slash::COMMANDS;
use crate::app::{human_size, App, Confirm, Modal};
use crate::keymap::Ctx;
use crate::text;
use crate::ui::popup::{centered, dialog, hint_line};

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    match &app.modal {
        None => {}
        Some(Modal::Offer { offer_id }) => offer(app, frame, area, offer_id),
        Some(Modal::Approval) => super::approval::approval(app, frame, area),
        Some(Modal::Grants(v)) => super::approval::grants(app, frame, area, v),
        Some(Modal::SaveAs {
            offer_id,
            input,
            error,
        }) => save_as(app, frame, area, offer_id, input, error.as_deref()),
        Some(Modal::Overwrite { path, existing, .. }) => {
            overwrite(app, frame, area, path, *existing)
        }
        Some(Modal::Transfer { offer_id }) => {
            crate::ui::transfer::render(app, frame, area, offer_id)
        }
        Some(Modal::Confirm(c)) => confirm(app, frame, area, c),
        Some(Modal::Browser(_)) => browser(app, frame, area),
        Some(Modal::Note { path, input }) => note(app, frame, area, path, input),
        Some(Modal::Help { scroll }) => help(app, frame, area, *scroll),
        Some(Modal::Pager(p)) => crate::ui::pager::render(app, frame, area, p),
        Some(Modal::Sessions(p)) => crate::ui::picker::render(app, frame, area, p),
        Some(Modal::DidYouMean { text, suggestion }) => {
            crate::ui::picker::did_you_mean(app, frame, area, text, suggestion)
        }
        Some(Modal::Process(v)) => crate::ui::process::details(app, frame, area, v),
        Some(Modal::Signal(m)) => crate::ui::process::signal_menu(app, frame, area, m),
        Some(Modal::Watch) => crate::ui::watch::render(app, frame, area),
    }
}

/// The save-as path exists: overwrite it or go back and pick another name.
fn overwrite(app: &App, frame: &mut Frame, area: Rect, path: &Path, existing: Option<u64>) {
    let r = centered(area, 70, 8);
    frame.render_widget(Clear, r);
    let b = dialog(app, " File exists ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let size = existing
        .map(|n| format!(" ({})", human_size(n)))
        .unwrap_or_default();
    let rows = vec![
        Line::styled(
            format!("{}{size} already exists.", path.display()),
            app.theme.warn,
        ),
        Line::raw("Overwrite it with the download? 文件已存在，是否覆盖？"),
        Line::default(),
        hint_line(app, Ctx::Confirm),
    ];
    frame.render_widget(Paragraph::new(rows).wrap(Wrap { trim: false }), inner);
}

/// A yes/no question; yes runs what it asked about.
fn confirm(app: &App, frame: &mut Frame, area: Rect, c: &Confirm) {
    let r = centered(area, 64, 7);
    frame.render_widget(Clear, r);
    let b = dialog(app, " Confirm ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let rows = vec![
        Line::raw(c.prompt.clone()),
        Line::default(),
        hint_line(app, Ctx::Confirm),
    ];
    frame.render_widget(Paragraph::new(rows).wrap(Wrap { trim: false }), inner);
}

/// The note to send with an upload picked in the browser.
fn note(app: &App, frame: &mut Frame, area: Rect, path: &Path, input: &TextArea<'static>) {
    let r = centered(area, 72, 8);
    frame.render_widget(Clear, r);
    let b = dialog(app, " Upload ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let [p, i, h] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Length(3),
        Constraint::Min(0),
    ])
    .areas(inner);
    frame.render_widget(
        Paragraph::new(format!(
            "{}\nNote for the agent (optional):",
            path.display()
        )),
        p,
    );
    let mut ta = input.clone();
    ta.set_block(Block::bordered().border_style(app.theme.border));
    ta.set_placeholder_style(app.theme.dim);
    frame.render_widget(&ta, i);
    frame.render_widget(Paragraph::new(hint_line(app, Ctx::Note)), h);
}

fn offer(app: &App, frame: &mut Frame, area: Rect, id: &str) {
    let Some(t) = app.offer(id) else { return };
    let o = &t.offer;
    let th = &app.theme;
    let r = centered(area, 70, 9);
    frame.render_widget(Clear, r);
    let b = dialog(app, " Download offer ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let from = match (&o.tool_call, o.request_id) {
        (Some(tc), Some(rq)) => format!("{tc} (request #{rq})"),
        (Some(tc), None) => tc.clone(),
        (None, Some(rq)) => format!("request #{rq}"),
        (None, None) => "the server".into(),
    };
    let left = o.expires_at.saturating_sub(app.unix_now);
    let expiry = if app.unix_now == 0 {
        String::new()
    } else if left == 0 {
        "expired".into()
    } else {
        format!("expires in {}m {:02}s", left / 60, left % 60)
    };
    let label = |l: &str| Span::styled(format!("{l:<8}"), th.dim);
    let rows = vec![
        Line::from(vec![
            label("File"),
            Span::styled(
                crate::sanitize::sanitize(&o.filename),
                Style::default().add_modifier(Modifier::BOLD),
            ),
        ]),
        Line::from(vec![
            label("Size"),
            Span::raw(format!("{} ({} bytes)", human_size(o.size), o.size)),
        ]),
        Line::from(vec![
            label("sha256"),
            Span::raw(o.sha256.chars().take(16).collect::<String>()),
        ]),
        Line::from(vec![
            label("From"),
            Span::raw(text::truncate(
                &crate::sanitize::sanitize(&from),
                usize::from(inner.width).saturating_sub(8),
            )),
        ]),
        Line::from(vec![
            label("Mode"),
            Span::raw(format!("{}   {expiry}", o.mode)),
        ]),
        Line::default(),
        hint_line(app, Ctx::Offer),
    ];
    frame.render_widget(Paragraph::new(rows), inner);
}

fn save_as(
    app: &App,
    frame: &mut Frame,
    area: Rect,
    id: &str,
    input: &tui_textarea::TextArea<'static>,
    error: Option<&str>,
) {
    let Some(t) = app.offer(id) else { return };
    let th = &app.theme;
    let r = centered(area, 76, 10);
    frame.render_widget(Clear, r);
    let b = dialog(app, " Save download as ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let [head, field, msg, hints] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(3),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::raw("Save "),
            Span::styled(
                crate::sanitize::sanitize(&t.offer.filename),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!(" ({}) to:", human_size(t.offer.size)), th.dim),
        ])),
        head,
    );
    let mut ta = input.clone();
    ta.set_block(Block::bordered().border_style(th.border));
    frame.render_widget(&ta, field);
    let m = match error {
        Some(e) => Line::styled(e.to_string(), th.error),
        None => Line::styled(
            "an existing file is not replaced without asking; free space is checked first",
            th.dim,
        ),
    };
    frame.render_widget(Paragraph::new(m).wrap(Wrap { trim: false }), msg);
    frame.render_widget(Paragraph::new(hint_line(app, Ctx::SaveAs)), hints);
}

fn browser(app: &App, frame: &mut Frame, area: Rect) {
    let Some(Modal::Browser(b)) = &app.modal else {
        return;
    };
    let th = &app.theme;
    let r = centered(
        area,
        area.width.saturating_sub(8).max(40),
        area.height.saturating_sub(4).max(8),
    );
    frame.render_widget(Clear, r);
    let title = format!(" Upload: {} ", b.dir.display());
    let blk = dialog(
        app,
        text::truncate(&title, usize::from(r.width).saturating_sub(4)),
    );
    let inner = blk.inner(r);
    frame.render_widget(blk, r);
    let [f, list, h] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let filter = if b.filter.is_empty() {
        Span::styled("type to filter", th.dim)
    } else {
        Span::raw(b.filter.clone())
    };
    let hidden = if b.show_hidden {
        "  (showing hidden)"
    } else {
        ""
    };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("filter: ", th.dim),
            filter,
            Span::styled(hidden, th.dim),
        ])),
        f,
    );
    let w = usize::from(list.width);
    let h_rows = usize::from(list.height);
    let entries = b.visible();
    let first = b.selected.saturating_sub(h_rows.saturating_sub(1));
    let mut rows: Vec<Line> = Vec::new();
    if let Some(e) = &b.error {
        rows.push(Line::styled(e.clone(), th.error));
    }
    for (i, e) in entries.iter().enumerate().skip(first).take(h_rows) {
        let name = crate::sanitize::sanitize(&e.name);
        let (name, size, st) = if e.is_dir {
            (format!("{name}/"), String::new(), th.accent)
        } else {
            (name, human_size(e.size), Style::default())
        };
        let mut line = Line::from(vec![
            Span::styled(text::pad(&name, w.saturating_sub(12)), st),
            Span::styled(format!("{size:>11}"), th.dim),
        ]);
        if i == b.selected {
            line = line.style(th.selected);
        }
        rows.push(line);
    }
    if entries.is_empty() {
        rows.push(Line::styled("nothing matches", th.dim));
    }
    frame.render_widget(Paragraph::new(rows), list);
    frame.render_widget(Paragraph::new(hint_line(app, Ctx::Browser)), h);
}

/// The help text: slash commands, then every binding from the keymap.
pub fn help_lines(app: &App) -> Vec<Line<'static>> {
    let th = &app.theme;
    let mut rows = vec![Line::styled(
        "命令 / Commands",
        th.accent.add_modifier(Modifier::BOLD),
    )];
    for (c, args, d) in COMMANDS {
        rows.push(Line::from(vec![
            Span::raw(format!("  {:<26}", format!("{c} {args}"))),
            Span::styled(d.to_string(), th.dim),
        ]));
    }
    for (ctx, binds) in app.keymap.help() {
        if binds.is_empty() {
            continue;
        }
        rows.push(Line::default());
        rows.push(Line::styled(
            format!("{} / {}", ctx.title_zh(), ctx.title()),
            th.accent.add_modifier(Modifier::BOLD),
        ));
        for (k, d) in binds {
            rows.push(Line::from(vec![
                Span::raw(format!("  {:<26}", k)),
                Span::styled(d.to_string(), th.dim),
            ]));
        }
    }
    rows
}

fn help(app: &App, frame: &mut Frame, area: Rect, scroll: u16) {
    // As wide as the terminal allows (up to 110 columns); long rows wrap, never cut.
    let r = centered(
        area,
        area.width.saturating_sub(4).clamp(40, 110),
        area.height.saturating_sub(2),
    );
    frame.render_widget(Clear, r);
    let b = dialog(app, " 帮助 / Help: Esc closes, Up/Down scroll ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let rows = help_lines(app);
    let iw = usize::from(inner.width.max(1));
    let total: usize = rows.iter().map(|l| l.width().div_ceil(iw).max(1)).sum();
    let max = total.saturating_sub(usize::from(inner.height));
    let p = Paragraph::new(rows).wrap(Wrap { trim: false });
    let s = usize::from(scroll).min(max) as u16;
    frame.render_widget(p.scroll((s, 0)), inner);
}
