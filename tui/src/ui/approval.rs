//! The approval modal (what will run, why, the risk, the expiry, what "always" would
//! grant) and the `/grants` list.

use protocol::ApprovalRequest;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::popup::{centered, dialog, hint_line};
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

/// Smallest terminal the approval dialog is drawn in: below it the dialog says so rather
/// than cut off the argv or a button.
pub const MIN_W: u16 = 50;
pub const MIN_H: u16 = 16;

/// The fields under the argv, in display order, each with its priority (0 is kept first
/// when the terminal is short).
fn fields(app: &App, r: &ApprovalRequest) -> Vec<(u8, Line<'static>)> {
    let th = &app.theme;
    let label = |l: &str| Span::styled(format!("{l} "), th.dim);
    let field = |name: &str, value: &str| Line::from(vec![label(name), Span::raw(sanitize(value))]);
    let choosing = app.approvals.choosing_lifetime;
    vec![
        (1, field("原因 / Why:", &r.reason)),
        (3, field("请求 / You asked:", &r.user_request)),
        (
            0,
            Line::from(vec![
                label("风险 / Risk:"),
                Span::styled(sanitize(&r.risk), th.warn),
            ]),
        ),
        (
            6,
            field(
                "来自 / From:",
                &format!("{} ({}) {}", r.tool, r.action, r.args),
            ),
        ),
        (4, field("“始终”授权 / Always grants:", &r.always.text)),
        (
            if choosing { 0 } else { 5 },
            Line::from(vec![
                label("  期限 / for:"),
                Span::styled(
                    "[s] 本会话 / this session   [u] 直到撤销 / until revoked",
                    if choosing {
                        th.accent.add_modifier(Modifier::BOLD)
                    } else {
                        th.dim
                    },
                ),
            ]),
        ),
        (
            2,
            Line::from(Span::styled(countdown(app, r.expires_at), th.dim)),
        ),
    ]
}

/// The keys row, shortened when the full one does not fit: it is never cut.
fn buttons(app: &App, width: usize) -> Line<'static> {
    let th = &app.theme;
    let (full, short) = if app.approvals.choosing_lifetime {
        (
            "选择期限: s 本会话 / u 直到撤销, Esc 返回 — choose: s this session, u until revoked, Esc back",
            "[s] this session  [u] until revoked  [Esc] back",
        )
    } else {
        ("", "[o] once  [a] always  [r] reject")
    };
    if app.approvals.choosing_lifetime {
        let text = if text::width(full) <= width {
            full
        } else {
            short
        };
        return Line::from(Span::styled(text.to_string(), th.accent));
    }
    let line = hint_line(app, Ctx::Approval);
    if text::width(text::line_text(&line).trim_end()) <= width {
        line
    } else {
        Line::from(Span::styled(
            short.to_string(),
            th.accent.add_modifier(Modifier::BOLD),
        ))
    }
}

fn wrapped_height(l: &Line, width: usize) -> usize {
    text::width(&text::line_text(l))
        .div_ceil(width.max(1))
        .max(1)
}

fn too_small(app: &App, frame: &mut Frame, area: Rect) {
    let rect = centered(area, area.width, 5.min(area.height));
    frame.render_widget(Clear, rect);
    let b = dialog(app, " 需要批准 / Approval needed ");
    let inner = b.inner(rect);
    frame.render_widget(b, rect);
    let msg = format!(
        "终端太小，无法显示批准对话框（至少 {MIN_W}x{MIN_H}）/ terminal too small for the approval dialog (needs {MIN_W}x{MIN_H}); the action waits"
    );
    frame.render_widget(
        Paragraph::new(Line::styled(msg, app.theme.warn)).wrap(Wrap { trim: false }),
        inner,
    );
}

pub fn approval(app: &App, frame: &mut Frame, area: Rect) {
    let Some(r) = app.approvals.pending.first() else {
        return;
    };
    if area.width < MIN_W || area.height < MIN_H {
        return too_small(app, frame, area);
    }
    let th = &app.theme;
    let w = area.width.min(90);
    let inner_w = usize::from(w.saturating_sub(2));
    let mono = Style::default().add_modifier(Modifier::BOLD);
    let mut head = vec![Line::from(Span::styled(
        "将执行 / Will run (exactly): ",
        th.dim,
    ))];
    for l in argv_lines(&r.argv, inner_w.saturating_sub(2)) {
        head.push(Line::from(vec![Span::raw("  "), Span::styled(l, mono)]));
    }
    let buttons = buttons(app, inner_w);
    // Room for the fields: the height less the borders, the argv, a blank and the keys.
    let room = usize::from(area.height.saturating_sub(2)).saturating_sub(head.len() + 2);
    if room == 0 {
        return too_small(app, frame, area);
    }
    let fields = fields(app, r);
    let mut by_priority: Vec<usize> = (0..fields.len()).collect();
    by_priority.sort_by_key(|i| fields[*i].0);
    let mut keep = vec![false; fields.len()];
    let mut used = 0;
    for i in by_priority {
        let h = wrapped_height(&fields[i].1, inner_w);
        // One row stays free for "… N more" when a field does not fit.
        if used + h < room || (used + h == room && keep.iter().filter(|k| !**k).count() == 1) {
            keep[i] = true;
            used += h;
        }
    }
    let left_out = keep.iter().filter(|k| !**k).count();
    let mut body = head;
    body.extend(
        fields
            .into_iter()
            .zip(&keep)
            .filter(|(_, k)| **k)
            .map(|((_, l), _)| l),
    );
    if left_out > 0 {
        body.push(Line::styled(
            format!("… {left_out} more fields: enlarge the terminal / 终端放大可见更多"),
            th.dim,
        ));
    }
    let body_h: usize = body.iter().map(|l| wrapped_height(l, inner_w)).sum();
    let rect = centered(area, w, (body_h as u16).saturating_add(4));
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
    let text_area = Rect::new(
        inner.x,
        inner.y,
        inner.width,
        inner.height.saturating_sub(1),
    );
    frame.render_widget(Paragraph::new(body).wrap(Wrap { trim: false }), text_area);
    let keys = Rect::new(inner.x, inner.bottom().saturating_sub(1), inner.width, 1);
    frame.render_widget(Paragraph::new(buttons), keys);
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
