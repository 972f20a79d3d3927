//! The transfer view: one download's progress (bar, rate, ETA, RTT, retransmissions), the
//! window strip (acked / in flight / lost / waiting across the file, with the congestion
//! window) and then the verified result or the failure reason. Drawn as a modal after
//! accepting an offer and as the compact rows of the Transfers pane.

use protocol::TransferProgress;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;

use crate::app::{human_size, App, Transfer, TransferState};
use crate::theme::Theme;
use crate::ui::widgets::bar;

/// Bytes per RDT data packet, to turn packet counts into a share of the file. The real
/// size is negotiated per transfer; the default is close enough for a picture.
pub const CHUNK: u64 = protocol::rdt::packet::DEFAULT_CHUNK_SIZE as u64;

/// The file split into the four states the sender knows about, in bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    pub acked: u64,
    pub in_flight: u64,
    pub lost: u64,
    pub waiting: u64,
}

impl Split {
    pub fn of(p: &TransferProgress) -> Split {
        let total = p.total.max(p.bytes);
        let acked = p.bytes.min(total);
        let rest = total - acked;
        let lost = (u64::from(p.lost) * CHUNK).min(rest);
        let in_flight = (u64::from(p.in_flight) * CHUNK).min(rest - lost);
        Split {
            acked,
            in_flight,
            lost,
            waiting: rest - lost - in_flight,
        }
    }
}

/// Cell counts for a strip of `w` cells: proportional, but a state that has any bytes
/// gets at least one cell so a small window stays visible next to a large file.
pub fn cells(s: &Split, w: usize) -> [usize; 4] {
    let parts = [s.acked, s.in_flight, s.lost, s.waiting];
    let total: u64 = parts.iter().sum();
    if total == 0 || w == 0 {
        return [0, 0, 0, w];
    }
    let mut n = parts.map(|p| {
        if p == 0 {
            0
        } else {
            ((p as f64 / total as f64) * w as f64).round().max(1.0) as usize
        }
    });
    // Fix rounding by growing or shrinking the largest part.
    loop {
        let sum: usize = n.iter().sum();
        if sum == w {
            break;
        }
        let i = (0..4).max_by_key(|i| n[*i]).unwrap_or(3);
        if sum > w {
            if n[i] <= 1 {
                break;
            }
            n[i] -= 1;
        } else {
            n[i] += 1;
        }
    }
    n
}

/// Glyphs for acked, in flight, lost, waiting.
fn glyphs(ascii: bool) -> [&'static str; 4] {
    if ascii {
        ["#", ">", "x", "."]
    } else {
        ["█", "▓", "✗", "░"]
    }
}

fn styles(th: &Theme) -> [Style; 4] {
    [th.ok, th.accent, th.error, th.dim]
}

/// The strip itself, `w` cells.
pub fn strip(p: &TransferProgress, w: usize, th: &Theme) -> Line<'static> {
    let n = cells(&Split::of(p), w);
    let g = glyphs(th.ascii);
    let st = styles(th);
    Line::from(
        (0..4)
            .filter(|i| n[*i] > 0)
            .map(|i| Span::styled(g[i].repeat(n[i]), st[i]))
            .collect::<Vec<_>>(),
    )
}

/// The legend under the strip: what each glyph means, with the numbers.
pub fn legend(p: &TransferProgress, th: &Theme) -> Line<'static> {
    let s = Split::of(p);
    let g = glyphs(th.ascii);
    let st = styles(th);
    let item = |i: usize, text: String| {
        vec![
            Span::styled(g[i].to_string(), st[i]),
            Span::raw(format!(" {text}  ")),
        ]
    };
    let mut spans = Vec::new();
    spans.extend(item(0, format!("acked {}", human_size(s.acked))));
    spans.extend(item(1, format!("in flight {}", p.in_flight)));
    spans.extend(item(2, format!("lost {}", p.lost)));
    spans.extend(item(3, format!("waiting {}", human_size(s.waiting))));
    if p.window > 0 {
        spans.push(Span::styled(format!("cwnd {}", p.window), th.dim));
    }
    Line::from(spans)
}

/// Rate, ETA, RTT and retransmissions on one line.
pub fn stats_text(p: &TransferProgress) -> String {
    let mut parts = Vec::new();
    if p.bytes_per_sec > 0 {
        let left = p.total.saturating_sub(p.bytes);
        parts.push(format!("{}/s", human_size(p.bytes_per_sec)));
        parts.push(format!("eta {}s", left.div_ceil(p.bytes_per_sec)));
    }
    if p.rtt_ms > 0 {
        parts.push(format!("rtt {} ms", p.rtt_ms));
    }
    parts.push(format!("retx {}", p.retransmits));
    parts.join(" · ")
}

fn pct(p: &TransferProgress) -> f64 {
    if p.total > 0 {
        p.bytes as f64 * 100.0 / p.total as f64
    } else {
        0.0
    }
}

/// Lines of the transfer view for `w` columns.
pub fn lines(app: &App, t: &Transfer, w: usize) -> Vec<Line<'static>> {
    let th = &app.theme;
    let o = &t.offer;
    let label = |l: &str| Span::styled(format!("{l:<8}"), th.dim);
    let mut rows = vec![Line::from(vec![
        label("File"),
        Span::styled(
            crate::sanitize::sanitize(&o.filename),
            Style::default().add_modifier(Modifier::BOLD),
        ),
        Span::styled(
            format!("  {} ({} bytes)", human_size(o.size), o.size),
            th.dim,
        ),
    ])];
    if let Some(d) = &t.dest {
        rows.push(Line::from(vec![
            label("To"),
            Span::raw(crate::text::truncate(
                &d.display().to_string(),
                w.saturating_sub(8),
            )),
        ]));
    }
    rows.push(Line::default());
    rows.extend(state_rows(app, t, w));
    rows
}

/// Where the transfer is: waiting, running (bar, figures and the window strip), or its
/// result.
fn state_rows(app: &App, t: &Transfer, w: usize) -> Vec<Line<'static>> {
    let th = &app.theme;
    let o = &t.offer;
    let mut rows = Vec::new();
    match &t.state {
        TransferState::Offered => rows.push(Line::styled("waiting for your answer", th.warn)),
        TransferState::Accepted => {
            rows.push(Line::styled("accepted, waiting for the server…", th.dim))
        }
        TransferState::Rejected => rows.push(Line::styled("rejected", th.dim)),
        TransferState::Started { mode } => {
            rows.push(Line::styled(format!("started ({mode})…"), th.accent))
        }
        TransferState::Progress(p) => {
            let pc = pct(p);
            let bw = w.saturating_sub(6).min(60);
            rows.push(Line::from(vec![
                Span::styled(bar(pc, bw, th.ascii), th.accent),
                Span::raw(format!(" {pc:.0}%")),
            ]));
            rows.push(Line::raw(format!(
                "{} of {} · {}",
                human_size(p.bytes),
                human_size(p.total),
                stats_text(p)
            )));
            // Only the RDT sender reports a window; TCP modes have no strip to show.
            if p.window > 0 || p.in_flight > 0 || p.lost > 0 {
                rows.push(Line::default());
                rows.push(strip(p, bw, th));
                rows.push(legend(p, th));
            }
        }
        TransferState::Done { ok: true, .. } => {
            rows.push(Line::styled("complete", th.ok));
        }
        TransferState::Saved { path } => {
            rows.push(Line::styled(
                format!(
                    "{} saved to {} (sha256 verified)",
                    if th.ascii { "+" } else { "✓" },
                    path.display()
                ),
                th.ok.add_modifier(Modifier::BOLD),
            ));
            rows.push(Line::styled(
                format!("sha256 {}", o.sha256.chars().take(32).collect::<String>()),
                th.dim,
            ));
        }
        TransferState::Done { ok: false, error } => {
            rows.push(Line::styled(
                format!(
                    "{} failed: {}",
                    if th.ascii { "x" } else { "✗" },
                    error.as_deref().unwrap_or("unknown reason / 原因未知")
                ),
                th.error.add_modifier(Modifier::BOLD),
            ));
        }
    }
    rows
}

/// The modal transfer view of `offer_id`, as tall as its content.
pub fn render(app: &App, frame: &mut Frame, area: Rect, offer_id: &str) {
    let Some(t) = app.offer(offer_id) else { return };
    let w = 76u16.min(area.width);
    let rows = lines(app, t, usize::from(w.saturating_sub(2)));
    let h = (rows.len() as u16).saturating_add(4);
    let r = crate::ui::popup::centered(area, w, h);
    frame.render_widget(Clear, r);
    let b = crate::ui::popup::dialog(app, " Download ");
    let inner = b.inner(r);
    frame.render_widget(b, r);
    let [body, hint] = Layout::vertical([Constraint::Min(0), Constraint::Length(1)]).areas(inner);
    frame.render_widget(Paragraph::new(rows).wrap(Wrap { trim: false }), body);
    frame.render_widget(
        Paragraph::new(crate::ui::popup::hint_line(
            app,
            crate::keymap::Ctx::Transfer,
        )),
        hint,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prog(bytes: u64, total: u64, in_flight: u32, lost: u32) -> TransferProgress {
        TransferProgress {
            offer_id: "o".into(),
            bytes,
            total,
            in_flight,
            lost,
            window: 32,
            ..Default::default()
        }
    }

    #[test]
    fn split_accounts_for_every_byte() {
        let s = Split::of(&prog(1_000_000, 2_000_000, 20, 3));
        assert_eq!(s.acked, 1_000_000);
        assert_eq!(s.in_flight, 20 * CHUNK);
        assert_eq!(s.lost, 3 * CHUNK);
        assert_eq!(s.acked + s.in_flight + s.lost + s.waiting, 2_000_000);
        // Near the end the window cannot claim more than what is left.
        let s = Split::of(&prog(1_999_000, 2_000_000, 20, 3));
        assert_eq!(s.acked + s.in_flight + s.lost + s.waiting, 2_000_000);
        assert_eq!(s.waiting, 0);
    }

    #[test]
    fn cells_fill_the_width_and_keep_small_states_visible() {
        let s = Split::of(&prog(1_000_000, 100_000_000, 4, 1));
        let n = cells(&s, 40);
        assert_eq!(n.iter().sum::<usize>(), 40);
        assert!(n[1] >= 1 && n[2] >= 1, "{n:?}");
        assert_eq!(cells(&Split::of(&prog(0, 0, 0, 0)), 10), [0, 0, 0, 10]);
        let done = cells(&Split::of(&prog(500, 500, 0, 0)), 10);
        assert_eq!(done, [10, 0, 0, 0]);
        let th = Theme {
            ascii: true,
            ..Theme::dark()
        };
        let line = strip(&prog(50 * CHUNK, 100 * CHUNK, 10, 5), 20, &th);
        let text: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
        assert_eq!(text, "##########>>x.......");
    }

    #[test]
    fn stats_show_rate_eta_rtt_and_retransmissions() {
        let mut p = prog(50, 250, 0, 0);
        p.bytes_per_sec = 100;
        p.rtt_ms = 12;
        p.retransmits = 3;
        let s = stats_text(&p);
        assert!(
            s.contains("eta 2s") && s.contains("rtt 12 ms") && s.contains("retx 3"),
            "{s}"
        );
    }
}
