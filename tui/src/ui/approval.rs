//! The approval modal (what will run, why, the risk, the expiry, what "always" would
//! grant) and the `/grants` list.

use protocol::ApprovalRequest;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::dialogs::{centered, dialog, hint_line};
use crate::app::approval::{lifetime_text, GrantsView};
use crate::app::{short, App};
use crate::keymap::Ctx;
use crate::sanitize::sanitize;
use crate::text;

/// Marks a line that continues inside one argument (an argument is never cut silently).
pub const CONT: char = '↩';

/// The argv as display lines of at most `width` columns: arguments shell-quoted and
/// separated by spaces, lines broken between arguments; an argument wider than a line is
/// cut into pieces, each cut line ending in `↩`.
pub fn argv_lines(argv: &[String], width: usize) -> Vec<String> {
    let width = width.max(4);
    let mut lines = Vec::new();
    let mut cur = String::new();
    for a in argv {
        let tok = shlex::try_quote(&sanitize(a))
            .map(|c| c.into_owned())
            .unwrap_or_else(|_| format!("{a:?}"));
        let sep = usize::from(!cur.is_empty());
        if text::width(&cur) + sep + text::width(&tok) <= width {
            if sep == 1 {
                cur.push(' ');
            }
            cur.push_str(&tok);
            continue;
        }
        if !cur.is_empty() {
            lines.push(std::mem::take(&mut cur));
        }
        if text::width(&tok) <= width {
            cur = tok;
            continue;
        }
        // Too wide for any line: pieces of width - 1, each marked.
        let mut piece = String::new();
        for c in tok.chars() {
            if text::width(&piece) + text::width(c.encode_utf8(&mut [0; 4])) > width - 1 {
                piece.push(CONT);
                lines.push(std::mem::take(&mut piece));
            }
            piece.push(c);
        }
        cur = piece;
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}

fn countdown(app: &App, expires_at: u64) -> String {
    if app.unix_now == 0 {
        return String::new();
    }
    let left = expires_at.saturating_sub(app.unix_now);
    if left == 0 {
        "已过期 / expired".into()
    } else {
        format!(
            "{}m {:02}s 后过期 / expires in {}m {:02}s",
            left / 60,
            left % 60,
            left / 60,
            left % 60
        )
    }
}

fn rows(app: &App, r: &ApprovalRequest, width: usize) -> Vec<Line<'static>> {
    let th = &app.theme;
    let label = |l: &str| Span::styled(format!("{l} "), th.dim);
    let mono = Style::default().add_modifier(Modifier::BOLD);
    let mut rows = vec![Line::from(label("将执行 / Will run (exactly):"))];
    for l in argv_lines(&r.argv, width.saturating_sub(2)) {
        rows.push(Line::from(vec![Span::raw("  "), Span::styled(l, mono)]));
    }
    let field = |name: &str, value: &str| Line::from(vec![label(name), Span::raw(sanitize(value))]);
    rows.push(field("原因 / Why:", &r.reason));
    rows.push(field("请求 / You asked:", &r.user_request));
    rows.push(Line::from(vec![
        label("风险 / Risk:"),
        Span::styled(sanitize(&r.risk), th.warn),
    ]));
    rows.push(field(
        "来自 / From:",
        &format!("{} ({}) {}", r.tool, r.action, r.args),
    ));
    rows.push(field("“始终”授权 / Always grants:", &r.always.text));
    let choosing = app.approvals.choosing_lifetime;
    let lifetimes = Line::from(vec![
        label("  期限 / for:"),
        Span::styled(
            "[s] 本会话 / this session   [u] 直到撤销 / until revoked",
            if choosing {
                th.accent.add_modifier(Modifier::BOLD)
            } else {
                th.dim
            },
        ),
    ]);
    rows.push(lifetimes);
    rows.push(Line::from(Span::styled(
        countdown(app, r.expires_at),
        th.dim,
    )));
    rows.push(Line::default());
    if choosing {
        rows.push(Line::from(Span::styled(
            "选择期限: s 本会话 / u 直到撤销, Esc 返回 — choose: s this session, u until revoked, Esc back",
            th.accent,
        )));
    } else {
        rows.push(hint_line(app, Ctx::Approval));
    }
    rows
}

pub fn approval(app: &App, frame: &mut Frame, area: Rect) {
    let Some(r) = app.approvals.pending.first() else {
        return;
    };
    let w = area.width.min(90);
    let inner_w = usize::from(w.saturating_sub(2));
    let body = rows(app, r, inner_w);
    // Wrapped height of the text fields, so nothing is cut off.
    let need: usize = body
        .iter()
        .map(|l| {
            text::width(&text::line_text(l))
                .div_ceil(inner_w.max(1))
                .max(1)
        })
        .sum();
    let rect = centered(area, w, (need as u16).saturating_add(2));
    frame.render_widget(Clear, rect);
    let more = app.approvals.pending.len() - 1;
    let title = if more > 0 {
        format!(" 需要批准 / Approval needed (+{more} waiting) ")
    } else {
        " 需要批准 / Approval needed ".to_string()
    };
    let b = dialog(app, title);
    let inner = b.inner(rect);
    frame.render_widget(b, rect);
    frame.render_widget(Paragraph::new(body).wrap(Wrap { trim: false }), inner);
}

pub fn grants(app: &App, frame: &mut Frame, area: Rect, v: &GrantsView) {
    let th = &app.theme;
    let h = (v.grants.len() as u16).saturating_add(5).min(area.height);
    let rect = centered(area, area.width.min(110), h.max(6));
    frame.render_widget(Clear, rect);
    let b = dialog(app, " 长期授权 / Standing grants ");
    let inner = b.inner(rect);
    frame.render_widget(b, rect);
    let mut rows = vec![Line::styled(
        format!(
            "{}{}{}{}{}",
            text::pad("规则 / rule", 34),
            text::pad("期限 / lifetime", 26),
            text::pad("会话", 10),
            text::pad("创建 / created", 26),
            "次数 / uses"
        ),
        th.dim,
    )];
    if v.grants.is_empty() {
        rows.push(Line::raw("没有长期授权 / no standing grants"));
    }
    for (i, g) in v.grants.iter().enumerate() {
        let line = format!(
            "{}{}{}{}{}",
            text::pad(&text::truncate(&sanitize(&g.scope.text), 33), 34),
            text::pad(lifetime_text(g.lifetime), 26),
            text::pad(short(&g.session_id), 10),
            text::pad(&g.created_at, 26),
            g.uses
        );
        let style = if i == v.selected {
            th.accent.add_modifier(Modifier::REVERSED)
        } else {
            Style::default()
        };
        rows.push(Line::styled(line, style));
    }
    rows.push(Line::default());
    rows.push(hint_line(app, Ctx::Grants));
    frame.render_widget(Paragraph::new(rows), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn argv_breaks_between_arguments_and_marks_a_cut_inside_one() {
        assert_eq!(
            argv_lines(&v(&["systemctl", "restart", "nginx.service"]), 20),
            vec!["systemctl restart", "nginx.service"]
        );
        assert_eq!(
            argv_lines(&v(&["rotate-logs", "my service"]), 40),
            vec!["rotate-logs 'my service'"]
        );
        let long = "a".repeat(25);
        let lines = argv_lines(&v(&["kill", &long]), 10);
        assert_eq!(lines[0], "kill");
        assert!(
            lines[1..lines.len() - 1].iter().all(|l| l.ends_with(CONT)),
            "{lines:?}"
        );
        // Nothing is lost: the pieces rebuild the argument.
        let rebuilt: String = lines[1..].concat().replace(CONT, "");
        assert_eq!(rebuilt, long);
        assert!(lines.iter().all(|l| text::width(l) <= 10), "{lines:?}");
    }
}
