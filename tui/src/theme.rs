//! Colours and styles for the light and dark themes. Under `NO_COLOR` the renderer drops
//! every colour after drawing, keeping only modifiers (bold, reverse, underline).

use ratatui::style::{Color, Modifier, Style};

use crate::markdown::MdStyles;

#[derive(Debug, Clone, Copy)]
pub struct Theme {
    pub no_color: bool,
    /// Use ASCII instead of box-drawing and block characters for gauges and spinners.
    pub ascii: bool,
    pub accent: Style,
    pub dim: Style,
    pub user: Style,
    pub error: Style,
    pub ok: Style,
    pub warn: Style,
    pub border: Style,
    pub focus: Style,
    pub selected: Style,
    pub highlight: Style,
    pub bar: Style,
    pub md: MdStyles,
}

impl Theme {
    pub fn dark() -> Self {
        Theme {
            no_color: false,
            ascii: false,
            accent: Style::new().fg(Color::Cyan),
            dim: Style::new().fg(Color::DarkGray),
            user: Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
            error: Style::new().fg(Color::Red),
            ok: Style::new().fg(Color::Green),
            warn: Style::new().fg(Color::Yellow),
            border: Style::new().fg(Color::DarkGray),
            focus: Style::new().fg(Color::Cyan),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            highlight: Style::new()
                .fg(Color::Yellow)
                .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
            bar: Style::new().fg(Color::Black).bg(Color::Gray),
            md: MdStyles::default(),
        }
    }

    pub fn light() -> Self {
        let mut t = Theme::dark();
        t.accent = Style::new().fg(Color::Blue);
        t.dim = Style::new().fg(Color::Gray);
        t.user = Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD);
        t.warn = Style::new().fg(Color::Magenta);
        t.border = Style::new().fg(Color::Gray);
        t.focus = Style::new().fg(Color::Blue);
        t.highlight = Style::new()
            .fg(Color::Red)
            .add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
        t.bar = Style::new().fg(Color::White).bg(Color::DarkGray);
        t.md.heading = Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD);
        t.md.code = Style::new().fg(Color::Magenta);
        t.md.bullet = Style::new().fg(Color::Blue);
        t
    }
}

impl Default for Theme {
    fn default() -> Self {
        Theme::dark()
    }
}
