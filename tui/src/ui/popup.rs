//! The frame every modal view draws in: a rectangle centred on the screen, a bordered
//! block in the focus colour (ASCII under `LLMOPS_ASCII`), and the line of key hints the
//! keymap gives for the view. Shared by the dialogs and by each view `ui::dialogs` opens.

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use crate::app::App;
use crate::keymap::Ctx;
use crate::ui::ASCII_BORDER;

/// A `w` x `h` rectangle centred in `area` (cut to fit it).
pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect::new(
        area.x + (area.width - w) / 2,
        area.y + (area.height - h) / 2,
        w,
        h,
    )
}

/// A modal's bordered block with its title.
pub(crate) fn dialog<'a>(app: &App, title: impl Into<Line<'a>>) -> Block<'a> {
    let mut b = Block::bordered().title(title).border_style(app.theme.focus);
    if app.theme.ascii {
        b = b.border_set(ASCII_BORDER);
    }
    b
}

/// The `[key] what` hints of the keymap for `ctx`, on one line.
pub(crate) fn hint_line(app: &App, ctx: Ctx) -> Line<'static> {
    let mut spans = Vec::new();
    for (k, d) in app.keymap.hints(ctx) {
        spans.push(Span::styled(
            format!("[{k}]"),
            app.theme.accent.add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {d}   ")));
    }
    Line::from(spans)
}
