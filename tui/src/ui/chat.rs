//! The chat column: transcript (wrapped by display width, follow-tail or anchored scroll),
//! the agent status line with its spinner, and the input editor. Each entry is wrapped once
//! per width into the transcript's row cache and a frame copies only the visible rows, so
//! a 10k-line transcript scrolls as fast as a short one.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use std::cell::RefMut;

use crate::app::transcript::{CachedRows, Entry, Level, RowKey, ToolOut, ToolResult, LIVE_VISIBLE};
use crate::app::App;
use crate::keymap::Pane;
use crate::markdown::{LineKind, MdLine};
use crate::text::{self, wrap};
use crate::ui::{pane_block, spinner};

struct Glyphs {
    user: &'static str,
    closed: &'static str,
    open: &'static str,
    ok: &'static str,
    fail: &'static str,
    h: &'static str,
    v: &'static str,
    tl: &'static str,
    bl: &'static str,
    tr: &'static str,
    br: &'static str,
    vr: &'static str,
    file: &'static str,
}

fn glyphs(ascii: bool) -> Glyphs {
    if ascii {
        Glyphs {
            user: "> ",
            closed: "> ",
            open: "v ",
            ok: "ok",
            fail: "x",
            h: "-",
            v: "| ",
            tl: "+",
            bl: "+",
            tr: "+",
            br: "+",
            vr: "|",
            file: "file: ",
        }
    } else {
        Glyphs {
            user: "❯ ",
            closed: "▸ ",
            open: "▾ ",
            ok: "✓",
            fail: "✗",
            h: "─",
            v: "│ ",
            tl: "┌",
            bl: "└",
            tr: "┐",
            br: "┘",
            vr: "│",
            file: "📎 ",
        }
    }
}

fn level_style(app: &App, l: Level) -> Style {
    match l {
        Level::Info => app.theme.dim,
        Level::Ok => app.theme.ok,
        Level::Warn => app.theme.warn,
        Level::Error => app.theme.error,
    }
}

/// The rows of entry `e` for the layout inputs in `key`.
fn entry_rows(app: &App, e: &Entry, key: RowKey) -> Vec<Line<'static>> {
    let g = glyphs(app.theme.ascii);
    let mut out: Vec<Line<'static>> = Vec::new();
    match e {
        Entry::User { text, files } => user_rows(app, text, files, key, &g, &mut out),
        Entry::Assistant { doc, .. } => {
            if key.after_tool {
                out.push(Line::default());
            }
            for l in doc.lines() {
                md_rows(app, l, key.width, &g, &mut out);
            }
        }
        Entry::Tool {
            tool,
            args,
            result,
            out: tool_out,
            ..
        } => {
            tool_rows(app, tool, args, result.as_ref(), key, &g, &mut out);
            output_rows(app, result.as_ref(), tool_out, key.width, &g, &mut out);
        }
        Entry::System { level, text } => system_rows(app, *level, text, key.width, &mut out),
    }
    out
}

/// A system note: a mark for its level, then the text in the level's style.
fn system_rows(app: &App, level: Level, text: &str, width: usize, out: &mut Vec<Line<'static>>) {
    let mark = match level {
        Level::Info => "· ",
        Level::Ok => "✓ ",
        Level::Warn => "! ",
        Level::Error => "✗ ",
    };
    let mark = if app.theme.ascii && matches!(level, Level::Ok | Level::Error | Level::Info) {
        match level {
            Level::Ok => "+ ",
            Level::Error => "x ",
            _ => "- ",
        }
    } else {
        mark
    };
    let st = level_style(app, level);
    plain(out, text, width, Span::styled(mark, st), st);
}

/// Text wrapped to `width`: `first` leads its first row, later rows are indented as wide.
fn plain(out: &mut Vec<Line<'static>>, t: &str, width: usize, first: Span<'static>, st: Style) {
    let cont = Span::raw(" ".repeat(first.width()));
    for (i, l) in t.split('\n').enumerate() {
        let f = if i == 0 { first.clone() } else { cont.clone() };
        out.extend(wrap(
            &[Span::styled(l.to_string(), st)],
            width,
            &[f],
            std::slice::from_ref(&cont),
        ));
    }
}

/// Text wrapped to `width` where every row (each line and its wrapped continuation) keeps
/// the gutter.
fn guttered(out: &mut Vec<Line<'static>>, t: &str, width: usize, gutter: Span<'static>, st: Style) {
    for l in t.split('\n') {
        out.extend(wrap(
            &[Span::styled(l.to_string(), st)],
            width,
            std::slice::from_ref(&gutter),
            std::slice::from_ref(&gutter),
        ));
    }
}

/// A user message: its text, the files it referenced, then a blank row.
fn user_rows(
    app: &App,
    text: &str,
    files: &[String],
    key: RowKey,
    g: &Glyphs,
    out: &mut Vec<Line<'static>>,
) {
    let th = &app.theme;
    if key.after_rows {
        out.push(Line::default());
    }
    plain(
        out,
        text,
        key.width,
        Span::styled(g.user, th.user),
        Style::default(),
    );
    for f in files {
        out.push(Line::from(vec![
            Span::raw("  "),
            Span::styled(format!("{}{f}", g.file), th.dim),
        ]));
    }
    out.push(Line::default());
}

/// The rows of one rendered Markdown line of an answer; code sits in a bordered block.
fn md_rows(app: &App, l: &MdLine, width: usize, g: &Glyphs, out: &mut Vec<Line<'static>>) {
    let th = &app.theme;
    match &l.kind {
        LineKind::Text => out.extend(wrap(&l.spans, width, &l.first, &l.cont)),
        // Code rows end with the block's right border.
        LineKind::Code => {
            let inner = width.saturating_sub(2).max(1);
            for mut row in wrap(&l.spans, inner, &l.first, &l.cont) {
                let used = row.width();
                if width >= 4 {
                    row.spans
                        .push(Span::raw(" ".repeat(inner.saturating_sub(used))));
                    row.spans
                        .push(Span::styled(format!(" {}", g.vr), th.md.border));
                }
                out.push(row);
            }
        }
        LineKind::Blank => out.push(Line::default()),
        LineKind::Rule => out.push(Line::styled(g.h.repeat(width), th.md.border)),
        LineKind::CodeTop(lang) => {
            let head = if lang.is_empty() {
                format!("{}{}", g.tl, g.h)
            } else {
                format!("{}{} {lang} ", g.tl, g.h)
            };
            let rest = width.saturating_sub(text::width(&head) + 1);
            out.push(Line::styled(
                text::truncate(&format!("{head}{}{}", g.h.repeat(rest), g.tr), width),
                th.md.border,
            ));
        }
        LineKind::CodeBottom => out.push(Line::styled(
            format!("{}{}{}", g.bl, g.h.repeat(width.saturating_sub(2)), g.br),
            th.md.border,
        )),
    }
}

/// A tool call: one line (name, args, result mark, time, summary) when folded; its name,
/// pretty arguments and whole summary when tools are expanded.
fn tool_rows(
    app: &App,
    tool: &str,
    args: &str,
    result: Option<&ToolResult>,
    key: RowKey,
    g: &Glyphs,
    out: &mut Vec<Line<'static>>,
) {
    let th = &app.theme;
    let width = key.width;
    let expanded = key.tools_expanded;
    let head = tool_head(app, tool, args, result, expanded, g);
    if expanded {
        out.extend(wrap(&head, width, &[], &[Span::raw("  ")]));
        if !args.is_empty() {
            let pretty = serde_json::from_str::<serde_json::Value>(args)
                .ok()
                .and_then(|v| serde_json::to_string_pretty(&v).ok())
                .unwrap_or_else(|| args.to_string());
            guttered(out, &pretty, width, Span::styled(g.v, th.dim), th.dim);
        }
        if let Some(r) = result {
            guttered(
                out,
                &r.summary,
                width,
                Span::styled(g.v, th.dim),
                Style::default(),
            );
        }
    } else {
        // One row per call, cut to the width.
        let s: String = head.iter().map(|s| s.content.as_ref()).collect();
        if text::width(&s) <= width {
            out.push(Line::from(head));
        } else {
            let cut = text::truncate(&s.replace('\n', " "), width);
            out.push(Line::styled(cut, th.dim));
        }
    }
}

/// The spans of a tool call's head line.
fn tool_head(
    app: &App,
    tool: &str,
    args: &str,
    result: Option<&ToolResult>,
    expanded: bool,
    g: &Glyphs,
) -> Vec<Span<'static>> {
    let th = &app.theme;
    let mut head = vec![
        Span::styled(if expanded { g.open } else { g.closed }, th.accent),
        Span::styled(tool.to_string(), th.accent.add_modifier(Modifier::BOLD)),
    ];
    if !expanded && !args.is_empty() {
        head.push(Span::styled(format!(" {args}"), th.dim));
    }
    match result {
        None => head.push(Span::styled(" …", th.dim)),
        Some(r) => {
            head.push(Span::styled(
                format!(" {}", if r.ok { g.ok } else { g.fail }),
                if r.ok { th.ok } else { th.error },
            ));
            head.push(Span::styled(format!(" {} ms", r.duration_ms), th.dim));
            if !expanded {
                let first = r.summary.lines().next().unwrap_or("");
                head.push(Span::raw(format!(" {first}")));
            }
        }
    }
    head
}

/// Rows under a tool line: its opened output, or its last live lines, and a fold line
/// saying how much more there is and that Enter (on an empty input) opens it.
fn output_rows(
    app: &App,
    result: Option<&ToolResult>,
    o: &ToolOut,
    width: usize,
    g: &Glyphs,
    out: &mut Vec<Line<'static>>,
) {
    let th = &app.theme;
    let row = |out: &mut Vec<Line<'static>>, l: &str| {
        let s = format!("{}{l}", g.v);
        out.push(Line::styled(text::truncate(&s, width), th.dim));
    };
    let fold = |out: &mut Vec<Line<'static>>, s: String| {
        out.push(Line::styled(
            text::truncate(&format!("  {s}"), width),
            th.warn,
        ));
    };
    let stored = result.and_then(|r| r.output.as_ref());
    if let Some(op) = &o.opened {
        for l in &op.lines {
            row(out, l);
        }
        let more = op.total.saturating_sub(op.lines.len() as u64);
        if op.loading {
            fold(out, "… loading".into());
        } else if more > 0 {
            fold(out, format!("… {more} more lines · Enter loads more"));
        } else {
            let cut = if op.truncated {
                " (server kept the first 8 MiB)"
            } else {
                ""
            };
            fold(
                out,
                format!("end of output, {} lines{cut} · Enter closes", op.total),
            );
        }
        return;
    }
    let shown = o.live.len().min(LIVE_VISIBLE);
    for l in o.live.iter().skip(o.live.len() - shown) {
        row(out, l);
    }
    if result.is_none() && o.live_total > shown as u64 {
        let mut s = format!("… {} lines so far", o.live_total);
        if o.live_dropped > 0 {
            s.push_str(&format!(", {} not shown live (rate limit)", o.live_dropped));
        }
        fold(out, s);
    }
    if let Some(r) = stored {
        let more = r.lines.saturating_sub(shown as u64);
        if more > 0 {
            fold(out, format!("… {more} more lines · Enter opens"));
        }
    }
}

/// Entries with at least one row in `[top, top + h)` at `width` columns.
pub fn visible_entries(app: &App, width: usize, top: usize, h: usize) -> Vec<usize> {
    let cache = cached(app, width);
    let end = top.saturating_add(h);
    let mut at = 0;
    let mut out = Vec::new();
    for (i, c) in cache.iter().enumerate() {
        let n = c.as_ref().map_or(0, |c| c.rows.len());
        if n > 0 && at + n > top && at < end {
            out.push(i);
        }
        at += n;
    }
    out
}

/// Brings every entry's cached rows up to date for `width` (re-wrapping only entries that
/// changed or whose layout inputs changed) and returns the cache.
fn cached(app: &App, width: usize) -> RefMut<'_, Vec<Option<CachedRows>>> {
    let t = &app.transcript;
    let mut cache = t.rows.borrow_mut();
    cache.resize(t.entries.len(), None);
    let mut after_rows = false;
    for (i, e) in t.entries.iter().enumerate() {
        let key = RowKey {
            width,
            tools_expanded: t.tools_expanded,
            ascii: app.theme.ascii,
            after_rows,
            after_tool: i > 0 && matches!(t.entries[i - 1], Entry::Tool { .. }),
        };
        let slot = &mut cache[i];
        if slot.as_ref().is_none_or(|c| c.key != key) {
            *slot = Some(CachedRows {
                key,
                rows: entry_rows(app, e, key),
            });
        }
        after_rows |= slot.as_ref().is_some_and(|c| !c.rows.is_empty());
    }
    cache
}

/// First row and row count of entry `i` at `width` columns.
pub fn entry_span(app: &App, width: usize, i: usize) -> (usize, usize) {
    let cache = cached(app, width);
    let start = cache
        .iter()
        .take(i)
        .map(|c| c.as_ref().map_or(0, |c| c.rows.len()))
        .sum();
    let len = cache
        .get(i)
        .and_then(|c| c.as_ref())
        .map_or(0, |c| c.rows.len());
    (start, len)
}

/// Number of rows after dropping the blank rows at the very end.
fn total_rows(cache: &[Option<CachedRows>]) -> usize {
    let all: usize = cache.iter().flatten().map(|c| c.rows.len()).sum();
    let mut trailing = 0;
    for c in cache.iter().flatten().rev() {
        let blank = c
            .rows
            .iter()
            .rev()
            .take_while(|l| l.spans.is_empty())
            .count();
        trailing += blank;
        if blank < c.rows.len() {
            break;
        }
    }
    all - trailing
}

/// Rows `[top, top + h)` of the transcript at `width` columns; only these are copied.
pub fn visible(app: &App, width: usize, top: usize, h: usize) -> Vec<Line<'static>> {
    let cache = cached(app, width);
    let end = total_rows(&cache).min(top.saturating_add(h));
    let mut out = Vec::with_capacity(end.saturating_sub(top));
    let mut at = 0;
    for c in cache.iter().flatten() {
        let n = c.rows.len();
        if at + n > top && at < end {
            let from = top.saturating_sub(at);
            let to = (end - at).min(n);
            out.extend(c.rows[from..to].iter().cloned());
        }
        at += n;
        if at >= end {
            break;
        }
    }
    out
}

/// The whole transcript as wrapped rows for `width` columns.
pub fn lines(app: &App, width: usize) -> Vec<Line<'static>> {
    visible(app, width, 0, usize::MAX)
}

pub fn line_count(app: &App, width: usize) -> usize {
    total_rows(&cached(app, width))
}

pub fn render(app: &App, frame: &mut Frame, area: Rect, agent: Option<Rect>, input: Option<Rect>) {
    let th = &app.theme;
    let mut title = vec![Span::raw(" Chat ")];
    if !app.session_name.is_empty() {
        title.push(Span::styled(format!("— {} ", app.session_name), th.dim));
    }
    let block = pane_block(app, Pane::Chat, Line::from(title));
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = usize::from(inner.width.max(1));
    let h = usize::from(inner.height);
    let total = line_count(app, w);
    let max_top = total.saturating_sub(h);
    let top = app.scroll.map_or(max_top, |t| t.min(max_top));
    let mut view = visible(app, w, top, h);
    // The selected entry (Alt+Up/Down): a marker in the first column of its rows.
    if let Some(sel) = app.selected.filter(|i| *i < app.transcript.entries.len()) {
        let (start, len) = entry_span(app, w, sel);
        for r in start.max(top)..(start + len).min(top + view.len()) {
            let line = &mut view[r - top];
            if line.spans.is_empty() {
                continue;
            }
            line.style = line.style.patch(th.selected);
        }
    }
    frame.render_widget(Paragraph::new(view), inner);
    if top < max_top && inner.height > 0 {
        let more = max_top - top;
        let tag = format!(" ↓ {more} more · End follows ");
        let tw = text::width(&tag) as u16;
        if tw < inner.width {
            let r = Rect::new(inner.right() - tw, area.bottom() - 1, tw, 1);
            frame.render_widget(Paragraph::new(Span::styled(tag, th.warn)), r);
        }
    }
    if let Some(a) = agent {
        frame.render_widget(Paragraph::new(agent_line(app)), a);
    }
    if let Some(r) = input {
        let mut ta = app.input.clone();
        let focused = app.focus == Pane::Chat && app.modal.is_none();
        let mut title = String::from(" Message ");
        if !app.files.referenced.is_empty() {
            title = format!(" Message (+{} file) ", app.files.referenced.len());
        }
        ta.set_block(pane_block(app, Pane::Chat, title));
        ta.set_placeholder_style(th.dim);
        if !focused {
            ta.set_cursor_style(Style::default());
        }
        frame.render_widget(&ta, r);
    }
}

fn agent_line(app: &App) -> Line<'static> {
    let th = &app.theme;
    if let Some(t) = &app.turn {
        return Line::from(vec![
            Span::styled(format!(" {} ", spinner(app)), th.accent),
            Span::styled(t.status.clone(), th.accent),
            Span::styled("  (Ctrl+C cancels)", th.dim),
        ]);
    }
    if let Some((lvl, n)) = &app.notice {
        return Line::styled(format!(" {}", n.replace('\n', " ")), level_style(app, *lvl));
    }
    if app.scroll.is_some() {
        return Line::styled(
            " scrolled up: End or Ctrl+End follows the conversation",
            th.dim,
        );
    }
    if !app.files.referenced.is_empty() {
        let names: Vec<String> = app
            .files
            .referenced
            .iter()
            .map(|id| {
                app.files
                    .files
                    .iter()
                    .find(|f| f.file_id == *id)
                    .map_or(id.clone(), |f| f.filename.clone())
            })
            .collect();
        return Line::styled(
            format!(" next message references: {}", names.join(", ")),
            th.dim,
        );
    }
    Line::default()
}
