//! Drawing the full-screen pager: a title row (what, lines shown, match count), the text
//! wrapped by character from the top line with matches highlighted (the current one
//! stronger) and an optional line-number gutter, and a bottom row with the prompt or the
//! key hints.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use crate::app::pager::{chunks, gutter_width, Match, Pager, PromptKind, Source};
use crate::app::App;
use crate::keymap::Ctx;
use crate::text;
use crate::ui::popup::hint_line;

/// Styled spans of `line[from..to]` with the matches in it highlighted.
fn spans_for(
    line: &str,
    from: usize,
    to: usize,
    ms: &[(usize, Match)],
    current: Option<usize>,
    hl: Style,
    cur: Style,
) -> Vec<Span<'static>> {
    let mut out = Vec::new();
    let mut at = from;
    for (idx, m) in ms {
        let (s, e) = (m.start.max(from), m.end.min(to));
        if s >= e || s < at {
            continue;
        }
        if !line.is_char_boundary(s) || !line.is_char_boundary(e) {
            continue;
        }
        if s > at {
            out.push(Span::raw(line[at..s].replace('\t', "    ")));
        }
        let st = if Some(*idx) == current { cur } else { hl };
        out.push(Span::styled(line[s..e].to_string(), st));
        at = e;
    }
    if at < to {
        out.push(Span::raw(line[at..to].replace('\t', "    ")));
    }
    out
}

/// The visible rows of the pager's text for a `w` x `h` area.
pub fn rows(app: &App, p: &Pager, w: usize, h: usize) -> Vec<Line<'static>> {
    let th = &app.theme;
    let gw = gutter_width(p);
    let tw = w.saturating_sub(gw).max(1);
    let hl = th.highlight;
    let cur = th
        .highlight
        .add_modifier(Modifier::REVERSED | Modifier::BOLD);
    let mut out = Vec::with_capacity(h);
    // Matches are sorted by line: start at the first one at or after the top.
    let mut mi = p.matches.partition_point(|m| m.line < p.top);
    for (i, line) in p.lines.iter().enumerate().skip(p.top) {
        if out.len() >= h {
            break;
        }
        let mut ms: Vec<(usize, Match)> = Vec::new();
        while mi < p.matches.len() && p.matches[mi].line == i {
            ms.push((mi, p.matches[mi]));
            mi += 1;
        }
        for (k, (a, b)) in chunks(line, tw).into_iter().enumerate() {
            if out.len() >= h {
                break;
            }
            let mut spans = Vec::new();
            if let Some(first) = p.first_line {
                // A search hit's chunk is marked with a heavy bar in the accent colour.
                let marked = p.marked.as_ref().is_some_and(|r| r.contains(&i));
                let (bar, style) = if marked {
                    ("┃", th.accent)
                } else {
                    ("│", th.dim)
                };
                let label = if k == 0 {
                    format!("{:>width$} {bar} ", first + i as u64, width = gw - 3)
                } else {
                    format!("{:>width$} {bar} ", "", width = gw - 3)
                };
                spans.push(Span::styled(label, style));
            }
            spans.extend(spans_for(line, a, b, &ms, p.current, hl, cur));
            out.push(Line::from(spans));
        }
    }
    out
}

pub fn render(app: &App, frame: &mut Frame, area: Rect, p: &Pager) {
    let th = &app.theme;
    frame.render_widget(Clear, area);
    if area.height < 3 {
        return;
    }
    let w = usize::from(area.width);
    let h = usize::from(area.height) - 2;
    // Title row.
    let shown_to = (p.top + h).min(p.lines.len());
    let mut right = match p.first_line {
        _ if p.lines.is_empty() => "empty".to_string(),
        // A file region: the file's own line numbers, as in the gutter.
        Some(f) => format!(
            "lines {}–{}",
            f + p.top as u64,
            f + shown_to.saturating_sub(1) as u64
        ),
        None => format!("lines {}–{} of {}", p.top + 1, shown_to, p.lines.len()),
    };
    if let Source::Output { total, loading, .. } = &p.source {
        if *loading {
            right.push_str(&format!(" (loading, {total} in all)"));
        } else if (p.lines.len() as u64) < *total {
            right.push_str(&format!(" (first {} of {total})", p.lines.len()));
        }
    }
    if !p.terms.is_empty() {
        right.push_str(&match p.current {
            Some(c) => format!(" · match {}/{}", c + 1, p.matches.len()),
            None => format!(" · {} matches", p.matches.len()),
        });
    }
    let title_w = w.saturating_sub(text::width(&right) + 3);
    let title = text::pad(&format!(" {}", p.title.replace('\n', " ")), title_w);
    let head = Line::from(vec![
        Span::styled(title, th.accent.add_modifier(Modifier::BOLD)),
        Span::styled(format!(" {right} "), th.dim),
    ])
    .style(th.selected);
    frame.render_widget(
        Paragraph::new(head),
        Rect::new(area.x, area.y, area.width, 1),
    );
    // Text.
    let body = rows(app, p, w, h);
    frame.render_widget(
        Paragraph::new(body),
        Rect::new(area.x, area.y + 1, area.width, h as u16),
    );
    // Bottom row: the prompt, the last notice, or the keys.
    let bottom = Rect::new(area.x, area.bottom() - 1, area.width, 1);
    match &p.prompt {
        Some(pr) => {
            let label = match pr.kind {
                PromptKind::Search => "/",
                PromptKind::Save => "save to: ",
            };
            let typed = pr.input.lines().join("");
            let mut spans = vec![
                Span::styled(label, th.accent.add_modifier(Modifier::BOLD)),
                Span::raw(typed),
                Span::styled("█", th.accent),
            ];
            if let Some(e) = &pr.error {
                spans.push(Span::styled(format!("  {e}"), th.error));
            }
            frame.render_widget(Paragraph::new(Line::from(spans)), bottom);
        }
        None => {
            let line = match &app.notice {
                Some((_, n)) => Line::styled(text::truncate(&format!(" {n}"), w), th.dim),
                None => hint_line(app, Ctx::Pager),
            };
            frame.render_widget(Paragraph::new(line), bottom);
        }
    }
}
