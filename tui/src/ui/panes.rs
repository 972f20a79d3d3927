//! Side panes: this session's files, search hits and transfers (the System pane is
//! `ui::system`). Each draws from state only; long lists keep the selection in view.

use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

use crate::app::{human_size, App, TransferState};
use crate::keymap::Pane;
use crate::text;
use crate::ui::widgets::{bar, window};
use crate::ui::{pane_block, spinner};

pub fn render(app: &App, frame: &mut Frame, pane: Pane, area: Rect) {
    match pane {
        Pane::Chat => {}
        Pane::Files => files(app, frame, area),
        Pane::Search => search(app, frame, area),
        Pane::Gauges => crate::ui::system::render(app, frame, area),
        Pane::Transfers => transfers(app, frame, area),
    }
}

/// One transfer's progress line: bar, percent, rate, ETA, RTT and retransmissions.
fn progress_text(p: &protocol::TransferProgress, pct: f64, ascii: bool) -> String {
    let mut s = format!("{} {pct:.0}%", bar(pct, 10, ascii));
    if p.bytes_per_sec > 0 {
        let left = p.total.saturating_sub(p.bytes);
        s.push_str(&format!(
            " {}/s eta {}s",
            human_size(p.bytes_per_sec),
            left.div_ceil(p.bytes_per_sec)
        ));
    }
    if p.rtt_ms > 0 {
        s.push_str(&format!(" rtt {} ms", p.rtt_ms));
    }
    if p.retransmits > 0 {
        s.push_str(&format!(" retx {}", p.retransmits));
    }
    s
}

fn files(app: &App, frame: &mut Frame, area: Rect) {
    let th = &app.theme;
    let n = app.files.files.len();
    let title = format!(" Files ({n}) ");
    let block = pane_block(app, Pane::Files, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = usize::from(inner.width);
    let mut rows: Vec<Line> = Vec::new();
    for u in &app.files.uploading {
        let pct = (u.done * 100)
            .checked_div(u.total)
            .map(|p| format!(" {p}%"))
            .unwrap_or_default();
        rows.push(Line::styled(
            text::truncate(
                &format!("{} {} {}{pct}", spinner(app), u.filename, u.state),
                w,
            ),
            th.warn,
        ));
    }
    if n == 0 && app.files.uploading.is_empty() {
        rows.push(Line::styled("no uploads in this session", th.dim));
        rows.push(Line::styled("u: upload a file · /upload <path>", th.dim));
    }
    let h = usize::from(inner.height).saturating_sub(rows.len());
    let (a, b) = window(n, app.files.selected, h);
    let name_w = w.saturating_sub(30).max(8);
    for (i, f) in app.files.files.iter().enumerate().take(b).skip(a) {
        let refd = app.files.referenced.contains(&f.file_id);
        let mark = if refd { "+" } else { " " };
        let state_st = match f.state.as_str() {
            "ready" | "indexed" => th.ok,
            "failed" => th.error,
            _ => th.warn,
        };
        let mut spans = vec![
            Span::styled(mark, th.accent),
            Span::raw(text::pad(&f.filename, name_w)),
            Span::styled(format!(" {:>9}", human_size(f.size)), th.dim),
            Span::styled(format!(" {}", &f.sha256[..f.sha256.len().min(8)]), th.dim),
            Span::styled(format!(" {}", f.state), state_st),
        ];
        if let Some(d) = &f.detail {
            spans.push(Span::styled(format!(" {d}"), th.dim));
        }
        let mut line = Line::from(spans);
        if i == app.files.selected && app.focus == Pane::Files {
            line = line.style(th.selected);
        }
        rows.push(line);
    }
    frame.render_widget(Paragraph::new(rows), inner);
}

/// Splits `chunk` into spans with the query's terms highlighted (case-insensitive).
pub fn highlight(chunk: &str, query: &str, base: Style, hi: Style) -> Vec<Span<'static>> {
    let terms: Vec<String> = query
        .split_whitespace()
        .filter(|t| !t.is_empty())
        .map(|t| t.to_lowercase())
        .collect();
    let lower: Vec<char> = chunk
        .chars()
        .flat_map(|c| c.to_lowercase().take(1))
        .collect();
    let chars: Vec<char> = chunk.chars().collect();
    // Only map case when it keeps one char per char (true for the scripts we show).
    let same_len = lower.len() == chars.len();
    let mut marked = vec![false; chars.len()];
    if same_len {
        for t in &terms {
            let tc: Vec<char> = t.chars().collect();
            if tc.is_empty() || tc.len() > lower.len() {
                continue;
            }
            for i in 0..=(lower.len() - tc.len()) {
                if lower[i..i + tc.len()] == tc[..] {
                    marked[i..i + tc.len()].iter_mut().for_each(|m| *m = true);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut cur_m = false;
    for (c, m) in chars.iter().zip(marked) {
        if m != cur_m && !cur.is_empty() {
            out.push(Span::styled(
                std::mem::take(&mut cur),
                if cur_m { hi } else { base },
            ));
        }
        cur_m = m;
        cur.push(if *c == '\n' || *c == '\t' { ' ' } else { *c });
    }
    if !cur.is_empty() {
        out.push(Span::styled(cur, if cur_m { hi } else { base }));
    }
    out
}

fn search(app: &App, frame: &mut Frame, area: Rect) {
    let th = &app.theme;
    let s = &app.search;
    let mut title = String::from(" Search ");
    if !s.query.is_empty() {
        title = format!(
            " Search: {} ({}) ",
            text::truncate(&s.query, 30),
            s.hits.len()
        );
    }
    let block = pane_block(app, Pane::Search, title);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = usize::from(inner.width);
    let mut rows: Vec<Line> = Vec::new();
    if s.pending {
        rows.push(Line::styled(format!("{} searching…", spinner(app)), th.dim));
    } else if s.hits.is_empty() {
        let msg = if s.query.is_empty() {
            "/search <query> · agent searches show here".to_string()
        } else if s.awaiting_index > 0 {
            format!(
                "no hits yet: {} upload(s) still indexing, searching again when ready / 文件索引中，完成后自动重新搜索",
                s.awaiting_index
            )
        } else {
            "no hits".to_string()
        };
        rows.push(Line::styled(msg, th.dim));
    } else if s.from_agent {
        rows.push(Line::styled(
            "hits from the agent's semantic_search",
            th.dim,
        ));
    }
    let focused = app.focus == Pane::Search;
    for (i, hit) in s.hits.iter().enumerate().skip(s.selected.saturating_sub(2)) {
        let sel = focused && i == s.selected;
        let bar_w = 8.min(w / 4);
        let sim = f64::from(hit.similarity.clamp(0.0, 1.0));
        let mut head = vec![
            Span::styled(bar(sim * 100.0, bar_w, th.ascii), th.accent),
            Span::raw(format!(" {sim:.2} ")),
            Span::styled(format!("{} ", hit.match_type), th.dim),
            Span::styled(
                hit.filename.clone(),
                Style::default().add_modifier(Modifier::BOLD),
            ),
            Span::styled(format!(" {}", hit.position), th.dim),
        ];
        if sel {
            head.insert(0, Span::styled("▶", th.accent));
        }
        rows.push(Line::from(head));
        let body = highlight(&hit.chunk, &s.query, Style::default(), th.highlight);
        let max_rows = if sel { 6 } else { 2 };
        let wrapped = text::wrap(&body, w, &[Span::raw("  ")], &[Span::raw("  ")]);
        let more = wrapped.len() > max_rows;
        rows.extend(wrapped.into_iter().take(max_rows));
        if more {
            rows.push(Line::styled("  …", th.dim));
        }
    }
    frame.render_widget(Paragraph::new(rows), inner);
}

fn transfers(app: &App, frame: &mut Frame, area: Rect) {
    let th = &app.theme;
    let block = pane_block(
        app,
        Pane::Transfers,
        format!(" Transfers ({}) ", app.transfers.len()),
    );
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let w = usize::from(inner.width);
    let mut rows: Vec<Line> = Vec::new();
    if app.transfers.is_empty() {
        rows.push(Line::styled("no download offers yet", th.dim));
    }
    let (a, b) = window(
        app.transfers.len(),
        app.transfer_selected,
        usize::from(inner.height),
    );
    for (i, t) in app.transfers.iter().enumerate().take(b).skip(a) {
        let (state, st) = match &t.state {
            TransferState::Offered => ("offered: Enter to answer".to_string(), th.warn),
            TransferState::Accepted => ("accepted, waiting for the server".into(), th.dim),
            TransferState::Rejected => ("rejected".into(), th.dim),
            TransferState::Started { mode } => (format!("started ({mode})"), th.accent),
            TransferState::Progress(p) => {
                let pct = if p.total > 0 {
                    p.bytes as f64 * 100.0 / p.total as f64
                } else {
                    0.0
                };
                (progress_text(p, pct, th.ascii), th.accent)
            }
            TransferState::Done { ok: true, .. } => ("complete".into(), th.ok),
            TransferState::Saved { path } => (format!("saved {}", path.display()), th.ok),
            TransferState::Done { ok: false, error } => (
                format!("failed: {}", error.as_deref().unwrap_or("unknown")),
                th.error,
            ),
        };
        let mut line = Line::from(vec![
            Span::raw(text::pad(&t.offer.filename, (w / 3).max(8))),
            Span::styled(format!(" {:>9} ", human_size(t.offer.size)), th.dim),
            Span::styled(state, st),
        ]);
        if i == app.transfer_selected && app.focus == Pane::Transfers {
            line = line.style(th.selected);
        }
        rows.push(line);
        // A running RDT transfer gets its window strip under its row when there is room.
        if let TransferState::Progress(p) = &t.state {
            if (p.window > 0 || p.in_flight > 0) && rows.len() < usize::from(inner.height) {
                let mut strip = crate::ui::transfer::strip(p, w.saturating_sub(2).min(40), th);
                strip.spans.insert(0, Span::raw("  "));
                rows.push(strip);
            }
        }
    }
    frame.render_widget(Paragraph::new(rows), inner);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_line_has_rate_eta_rtt_and_retransmissions() {
        let p = protocol::TransferProgress {
            offer_id: "o".into(),
            bytes: 50,
            total: 250,
            bytes_per_sec: 100,
            rtt_ms: 12,
            retransmits: 3,
            in_flight: 0,
            window: 0,
            lost: 0,
        };
        let s = progress_text(&p, 20.0, true);
        assert!(s.contains("20%") && s.contains("eta 2s"), "{s}");
        assert!(s.contains("rtt 12 ms") && s.contains("retx 3"), "{s}");
        let idle = protocol::TransferProgress::default();
        assert!(!progress_text(&idle, 0.0, true).contains("eta"));
    }

    #[test]
    fn highlight_marks_query_terms_case_insensitively() {
        let hi = Style::default().add_modifier(Modifier::BOLD);
        let spans = highlight(
            "Disk FULL on /var, disk 磁盘",
            "disk 磁盘",
            Style::default(),
            hi,
        );
        let marked: Vec<&str> = spans
            .iter()
            .filter(|s| s.style == hi)
            .map(|s| s.content.as_ref())
            .collect();
        assert_eq!(marked, vec!["Disk", "disk", "磁盘"]);
    }
}
