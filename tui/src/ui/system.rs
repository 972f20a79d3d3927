//! The System pane: CPU (total with its recent history, and each core), memory, load,
//! network and disk I/O rates with their history, disk usage, then the processes list in
//! the room left. Everything comes from the monitor snapshots the server's one sampler
//! sends; the sparklines span the recent history the server kept (about five minutes),
//! squeezed to the width by taking each column's highest sample.

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::app::App;
use crate::keymap::Pane;
use crate::text;
use crate::ui::pane_block;
use crate::ui::widgets::{bar, compact};

const LABEL_W: usize = 6;
/// One core's cell in the per-core grid: ` 0 ▕█████▏ 45%` and a space.
const CORE_CELL: usize = 14;
/// Grid rows at most; more cores than fit get one character each.
const CORE_ROWS: usize = 4;

/// `vals` squeezed to at most `w` columns: each column is the highest of its samples, so a
/// spike stays visible; the newest sample is always the last column.
pub fn fit(vals: &[u64], w: usize) -> Vec<u64> {
    if w == 0 {
        return Vec::new();
    }
    if vals.len() <= w {
        return vals.to_vec();
    }
    (0..w)
        .map(|i| {
            let (a, b) = (
                i * vals.len() / w,
                ((i + 1) * vals.len() / w).max(i * vals.len() / w + 1),
            );
            vals[a..b].iter().copied().max().unwrap_or(0)
        })
        .collect()
}

/// Sparkline of `vals` scaled to `max`, `w` cells, right-aligned (newest on the right).
pub fn spark(vals: &[u64], max: u64, w: usize, ascii: bool) -> String {
    const UNI: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    const ASC: [char; 8] = ['_', '.', ':', '-', '=', '+', '*', '#'];
    let set = if ascii { ASC } else { UNI };
    let vals = fit(vals, w);
    let max = max.max(1);
    let mut s = " ".repeat(w.saturating_sub(vals.len()));
    for v in vals {
        let i = ((v.min(max) as u128 * 7 + u128::from(max) / 2) / u128::from(max)) as usize;
        s.push(set[i.min(7)]);
    }
    s
}

/// A rate like `1.2M/s`.
pub fn rate(n: u64) -> String {
    format!("{}/s", compact(n))
}

fn level_style(app: &App, pct: f64) -> Style {
    let th = &app.theme;
    if pct >= 90.0 {
        th.error
    } else if pct >= 70.0 {
        th.warn
    } else {
        th.ok
    }
}

/// One gauge row: label, bar, percent and a tail.
fn gauge(app: &App, w: usize, label: &str, pct: f64, tail: String) -> Line<'static> {
    let th = &app.theme;
    let tail_w = 22;
    let bw = w.saturating_sub(LABEL_W + tail_w).max(4);
    Line::from(vec![
        Span::styled(text::pad(label, LABEL_W), th.dim),
        Span::styled(bar(pct, bw, th.ascii), level_style(app, pct)),
        Span::raw(text::truncate(&format!(" {pct:>3.0}% {tail}"), tail_w)),
    ])
}

/// The per-core rows: a grid of small bars with percentages, or one block per core when
/// there are too many cores for the grid.
fn cores(app: &App, w: usize, per_core: &[f32]) -> Vec<Line<'static>> {
    let th = &app.theme;
    let room = w.saturating_sub(LABEL_W);
    if per_core.is_empty() || room < CORE_CELL {
        return Vec::new();
    }
    let per_row = room / CORE_CELL;
    let mut out = Vec::new();
    if per_core.len().div_ceil(per_row) <= CORE_ROWS {
        for (r, chunk) in per_core.chunks(per_row).enumerate() {
            let label = if r == 0 { "cores" } else { "" };
            let mut spans = vec![Span::styled(text::pad(label, LABEL_W), th.dim)];
            for (j, pct) in chunk.iter().enumerate() {
                let i = r * per_row + j;
                let pct = f64::from(*pct);
                spans.push(Span::styled(format!("{i:>2} "), th.dim));
                spans.push(Span::styled(bar(pct, 5, th.ascii), level_style(app, pct)));
                spans.push(Span::raw(format!(" {pct:>3.0}% ")));
            }
            out.push(Line::from(spans));
        }
        return out;
    }
    // Many cores: one character each, its height the core's load.
    let levels: Vec<u64> = per_core
        .iter()
        .map(|p| p.clamp(0.0, 100.0) as u64)
        .collect();
    let busiest = per_core.iter().copied().fold(0.0f32, f32::max);
    for (r, chunk) in levels.chunks(room.saturating_sub(10).max(1)).enumerate() {
        let label = if r == 0 { "cores" } else { "" };
        let mut spans = vec![Span::styled(text::pad(label, LABEL_W), th.dim)];
        spans.push(Span::styled(
            spark(chunk, 100, chunk.len(), th.ascii),
            th.accent,
        ));
        if r == 0 {
            spans.push(Span::raw(format!(" max {busiest:.0}%")));
        }
        out.push(Line::from(spans));
    }
    out
}

/// A rate row: `Net   ↓ 1.2M/s ↑ 300K/s` then the history of the sum, scaled to its peak.
fn rate_row(
    app: &App,
    w: usize,
    label: &str,
    (a_mark, a): (&str, u64),
    (b_mark, b): (&str, u64),
    hist: &[u64],
) -> Line<'static> {
    let th = &app.theme;
    let figures = format!("{a_mark} {:>7} {b_mark} {:>7}", rate(a), rate(b));
    let mut spans = vec![
        Span::styled(text::pad(label, LABEL_W), th.dim),
        Span::raw(figures.clone()),
    ];
    let peak = hist.iter().copied().max().unwrap_or(0);
    let peak_label = format!(" peak {}", rate(peak));
    let room = w.saturating_sub(LABEL_W + text::width(&figures) + 1 + text::width(&peak_label));
    if room >= 8 {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(spark(hist, peak, room, th.ascii), th.accent));
        spans.push(Span::styled(peak_label, th.dim));
    }
    Line::from(spans)
}

/// The gauge rows for `w` columns (the processes list takes what is left).
pub fn rows(app: &App, w: usize) -> Vec<Line<'static>> {
    let th = &app.theme;
    let Some(s) = &app.gauges.snap else {
        return vec![Line::styled("waiting for monitor data…", th.dim)];
    };
    let mut out = cpu_rows(app, w, &s.cpu);
    let m = &s.memory;
    out.push(gauge(
        app,
        w,
        "Mem",
        f64::from(m.usage_percent),
        format!("{}/{}", compact(m.used_bytes), compact(m.total_bytes)),
    ));
    out.push(load(app, &s.cpu));
    out.extend(rate_rows(app, w, s));
    for d in &s.disks {
        out.push(gauge(
            app,
            w,
            &d.mount,
            f64::from(d.usage_percent),
            format!("{}/{}", compact(d.used_bytes), compact(d.total_bytes)),
        ));
    }
    out
}

/// CPU: the total gauge, its recent history as a sparkline, then each core.
fn cpu_rows(app: &App, w: usize, c: &protocol::CpuStats) -> Vec<Line<'static>> {
    let th = &app.theme;
    let freq = if c.frequency_mhz > 0 {
        format!(" {} MHz", c.frequency_mhz)
    } else {
        String::new()
    };
    let mut out = vec![gauge(
        app,
        w,
        "CPU",
        f64::from(c.usage_percent),
        format!("{} cores{freq}", c.cores),
    )];
    let h = &app.gauges.history;
    let span_label = match (h.front(), h.back()) {
        (Some(a), Some(b)) if b.ts_ms > a.ts_ms => {
            format!(" {}m", ((b.ts_ms - a.ts_ms) / 60_000).max(1))
        }
        _ => String::new(),
    };
    let cpu_hist: Vec<u64> = h
        .iter()
        .map(|p| p.cpu_percent.clamp(0.0, 100.0) as u64)
        .collect();
    let spark_w = w.saturating_sub(LABEL_W + text::width(&span_label));
    out.push(Line::from(vec![
        Span::raw(" ".repeat(LABEL_W)),
        Span::styled(spark(&cpu_hist, 100, spark_w, th.ascii), th.accent),
        Span::styled(span_label, th.dim),
    ]));
    out.extend(cores(app, w, &c.per_core));
    out
}

/// Network and disk I/O rates with their recent history, for what the snapshot has.
fn rate_rows(app: &App, w: usize, s: &protocol::MonitorSnapshot) -> Vec<Line<'static>> {
    let th = &app.theme;
    let h = &app.gauges.history;
    let mut out = Vec::new();
    let (down, up) = if th.ascii { ("v", "^") } else { ("↓", "↑") };
    if let Some(n) = &s.net {
        let hist: Vec<u64> = h
            .iter()
            .map(|p| p.net_rx_bytes_per_sec + p.net_tx_bytes_per_sec)
            .collect();
        out.push(rate_row(
            app,
            w,
            "Net",
            (down, n.rx_bytes_per_sec),
            (up, n.tx_bytes_per_sec),
            &hist,
        ));
    }
    if let Some(d) = &s.disk_io {
        let hist: Vec<u64> = h
            .iter()
            .map(|p| p.disk_read_bytes_per_sec + p.disk_write_bytes_per_sec)
            .collect();
        out.push(rate_row(
            app,
            w,
            "I/O",
            ("R", d.read_bytes_per_sec),
            ("W", d.write_bytes_per_sec),
            &hist,
        ));
    }
    out
}

/// Load per core: above 1 (more runnable tasks than cores) is a warning, above 2 an error.
fn load(app: &App, c: &protocol::CpuStats) -> Line<'static> {
    let th = &app.theme;
    let cores = f64::from(c.cores.max(1));
    let load_style = |l: f64| {
        let per = l / cores;
        if per > 2.0 {
            th.error
        } else if per > 1.0 {
            th.warn
        } else {
            th.ok
        }
    };
    let mut spans = vec![Span::styled(text::pad("Load", LABEL_W), th.dim)];
    for (i, l) in c.load_avg.iter().enumerate() {
        let sep = if i == 0 { "" } else { " " };
        spans.push(Span::styled(format!("{sep}{l:.2}"), load_style(*l)));
    }
    let now = c.load_avg[0];
    spans.push(Span::styled(
        format!("  {:.2}/core", now / cores),
        load_style(now),
    ));
    if now > cores {
        spans.push(Span::styled(" > cores", load_style(now)));
    }
    Line::from(spans)
}

/// How many rows the gauges take at `w` columns (the layout sizes the pane with it).
pub fn height(app: &App, w: usize) -> usize {
    rows(app, w).len()
}

pub fn render(app: &App, frame: &mut Frame, area: Rect) {
    let block = pane_block(app, Pane::Gauges, " System ");
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let rows = rows(app, usize::from(inner.width));
    let used = u16::try_from(rows.len()).unwrap_or(u16::MAX);
    frame.render_widget(Paragraph::new(rows), inner);
    // The processes list takes the room left under the gauges (one blank line between).
    if app.gauges.snap.is_some() && inner.height > used.saturating_add(3) {
        let top = inner.y + used + 1;
        let procs = Rect::new(inner.x, top, inner.width, inner.bottom() - top);
        crate::ui::procs::render(app, frame, procs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn history_is_squeezed_keeping_peaks_and_the_newest_sample() {
        let v: Vec<u64> = (0..300).map(|i| if i == 17 { 100 } else { 1 }).collect();
        let f = fit(&v, 30);
        assert_eq!(f.len(), 30);
        assert_eq!(
            f.iter().filter(|x| **x == 100).count(),
            1,
            "the spike stays"
        );
        assert_eq!(fit(&[1, 2, 3], 10), vec![1, 2, 3]);
        let mut rising: Vec<u64> = vec![0; 299];
        rising.push(9);
        assert_eq!(*fit(&rising, 7).last().expect("a column"), 9);
    }

    #[test]
    fn sparklines_scale_to_their_peak_and_keep_their_width() {
        assert_eq!(spark(&[0, 50, 100], 100, 5, false), "  ▁▅█");
        assert_eq!(spark(&[10, 20], 20, 2, true), "=#");
        assert_eq!(spark(&[], 0, 3, false), "   ");
        assert_eq!(rate(1_500_000), "1.4M/s");
    }
}
