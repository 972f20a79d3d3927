//! Opening a search hit: the pager shows the hit's chunk at once and asks the server for the
//! file region around it (`FILE_REGION`, `CONTEXT` lines either side); when the region
//! arrives it replaces the chunk, the chunk's lines marked in the gutter and the query terms
//! highlighted, `n`/`p` move between matches and `d` asks for a download offer of the file.
//! A refusal (a path the policy denies, an older server) leaves the chunk with the reason.

use protocol::FileRegionReply;

use super::pager::{Pager, Source};
use super::transcript::Level;
use super::{App, Command, Modal, Req};
use crate::sanitize::sanitize;

/// Lines of context asked for above and below the chunk.
pub const CONTEXT: u64 = 30;

/// Query words to highlight; a run of CJK longer than two characters also gives its
/// bigrams, as the index matches them.
pub fn terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in query.split_whitespace() {
        let w = w.trim_matches(|c: char| c.is_ascii_punctuation());
        if w.is_empty() {
            continue;
        }
        out.push(w.to_string());
        let chars: Vec<char> = w.chars().collect();
        if chars.len() > 2 && chars.iter().all(|c| !c.is_ascii()) {
            for pair in chars.windows(2) {
                out.push(pair.iter().collect());
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|t| seen.insert(t.clone()));
    // Longer terms first, so a match of the whole word wins over its bigrams.
    out.sort_by_key(|t| std::cmp::Reverse(t.len()));
    out
}

/// First line number of a hit position such as `lines 120-160`.
pub fn first_line(position: &str) -> Option<u64> {
    line_span(position).map(|(a, _)| a)
}

/// First and last line of a hit position `lines 120-160` (or `lines 7`).
pub fn line_span(position: &str) -> Option<(u64, u64)> {
    let rest = position.strip_prefix("lines ")?;
    let mut it = rest.split('-');
    let a: u64 = it.next()?.trim().parse().ok()?;
    let b: u64 = match it.next() {
        Some(b) => b.trim().parse().ok()?,
        None => a,
    };
    (a >= 1 && b >= a).then_some((a, b))
}

/// Enter in the Search pane.
pub fn open(app: &mut App, out: &mut Vec<Command>) {
    let Some(h) = app.search.hits.get(app.search.selected) else {
        app.note(Level::Info, "no hit selected: /search <query> first");
        return;
    };
    let target = h.file_id.clone().unwrap_or_else(|| h.filepath.clone());
    let title = format!("{} · {} · {}", h.filepath, h.position, h.match_type);
    let span = line_span(&h.position);
    let lines: Vec<String> = h.chunk.lines().map(str::to_string).collect();
    let mut p = Pager::new(
        title,
        lines,
        Source::Hit {
            target: target.clone(),
            loading: span.is_some(),
        },
    );
    p.first_line = span.map(|(a, _)| a);
    p.save_name = format!("{}-excerpt.txt", h.filename);
    p.set_terms(terms(&app.search.query));
    let n = p.matches.len();
    app.modal = Some(Modal::Pager(Box::new(p)));
    match span {
        Some((a, b)) => {
            out.push(Command::Request(Req::FileRegion {
                target,
                first_line: a.saturating_sub(CONTEXT).max(1),
                last_line: b + CONTEXT,
            }));
            app.note(
                Level::Info,
                "读取上下文 / reading the lines around the hit…",
            );
        }
        None => app.note(
            Level::Info,
            format!("{n} matches · n/p move between them · d offers the file for download"),
        ),
    }
}

/// The open hit viewer waiting for this target's region, if any.
fn waiting<'a>(app: &'a mut App, req_target: &str) -> Option<&'a mut Pager> {
    match &mut app.modal {
        Some(Modal::Pager(p)) if matches!(&p.source, Source::Hit { target, loading: true } if target == req_target) => {
            Some(p)
        }
        _ => None,
    }
}

/// The region arrived: it replaces the chunk, whose lines stay marked.
pub fn on_region(app: &mut App, req_target: &str, r: &FileRegionReply) {
    let size = app.size;
    let Some(p) = waiting(app, req_target) else {
        return;
    };
    if let Source::Hit { loading, .. } = &mut p.source {
        *loading = false;
    }
    if r.lines.is_empty() {
        return;
    }
    let chunk_first = p.first_line.unwrap_or(r.first_line);
    let chunk_len = p.lines.len() as u64;
    let lines: Vec<String> = r.lines.iter().map(|l| sanitize(l)).collect();
    let n = lines.len() as u64;
    let start = chunk_first.saturating_sub(r.first_line).min(n);
    let end = (start + chunk_len).min(n);
    p.lines = lines;
    p.first_line = Some(r.first_line);
    p.marked = Some(start as usize..end as usize);
    p.title = format!("{} · {} lines in the file", p.title, r.total_lines);
    let terms = p.terms.clone();
    p.set_terms(terms);
    // The chunk near the top, its first match current.
    p.top = (start as usize).saturating_sub(3);
    p.current = p.matches.iter().position(|m| m.line >= start as usize);
    let (w, h) = super::pager::view_size_of(size, p);
    super::pager::clamp_top(p, w, h);
    let total = p.matches.len();
    app.note(
        Level::Info,
        format!(
            "{total} matches · ┃ marks the hit · n/p move between matches · d offers the file \
             for download"
        ),
    );
}

/// The region was refused: the chunk stays, with the reason.
pub fn region_failed(app: &mut App, req_target: &str, reason: &str) {
    let Some(p) = waiting(app, req_target) else {
        return;
    };
    if let Source::Hit { loading, .. } = &mut p.source {
        *loading = false;
    }
    app.note(
        Level::Warn,
        format!(
            "只显示片段 / showing the indexed chunk only: {}",
            sanitize(reason)
        ),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_and_line_numbers() {
        assert_eq!(terms("disk  full"), vec!["disk", "full"]);
        assert_eq!(terms("磁盘满"), vec!["磁盘满", "磁盘", "盘满"]);
        assert_eq!(first_line("lines 120-160"), Some(120));
        assert_eq!(first_line("page 3"), None);
        assert_eq!(line_span("lines 120-160"), Some((120, 160)));
        assert_eq!(line_span("lines 7"), Some((7, 7)));
        assert_eq!(line_span("lines 9-3"), None);
    }
}
