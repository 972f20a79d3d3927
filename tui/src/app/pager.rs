//! The full-screen pager: a tool output, an answer, a message, the whole transcript or a
//! search hit's region, read line by line. Scrolling (j/k, PgUp/PgDn, g/G), `/` search with
//! `n`/`N` and highlighted matches, `y` / `Y` copy (OSC 52 plus a file fallback), `s` save.
//! State and key handling only; drawing is `ui::pager`.

use std::ops::Range;
use std::path::{Path, PathBuf};

use tui_textarea::TextArea;

use super::transcript::{Entry, Level};
use super::{App, Command, Modal, Req};
use crate::text;

/// Lines fetched from a stored tool output at most (the rest stays on the server).
pub const MAX_OUTPUT_LINES: u64 = 100_000;

/// Where the pager's text came from (what loads more, what `d` downloads).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// An answer, a message or the transcript: all text is here.
    Text,
    /// A stored tool output, fetched page by page (OUTPUT_GET).
    Output {
        output_id: String,
        total: u64,
        loading: bool,
    },
    /// A search hit: its chunk, then the file region around it (FILE_REGION) once it
    /// arrives; `target` is what the region and a download offer ask for.
    Hit { target: String, loading: bool },
}

/// A search match: line index and byte range in that line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub line: usize,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    Search,
    Save,
}

pub struct Prompt {
    pub kind: PromptKind,
    pub input: Box<TextArea<'static>>,
    pub error: Option<String>,
    /// The path the last Enter refused because it exists: a second Enter replaces it.
    pub confirm: Option<PathBuf>,
}

pub struct Pager {
    pub title: String,
    pub lines: Vec<String>,
    /// Logical text that `y` copies (an answer's Markdown source); the lines otherwise.
    pub source_text: Option<String>,
    pub source: Source,
    /// Line number of the first line (shown in a gutter), if the lines are a file region.
    pub first_line: Option<u64>,
    /// Lines marked in the gutter (a search hit's chunk inside its file region).
    pub marked: Option<Range<usize>>,
    /// First visible line.
    pub top: usize,
    /// Terms highlighted and searched (the `/` query, or a search hit's query words).
    pub terms: Vec<String>,
    pub matches: Vec<Match>,
    pub current: Option<usize>,
    /// Line ranges inside fenced code blocks (`Y` copies one).
    pub code_blocks: Vec<Range<usize>>,
    pub prompt: Option<Prompt>,
    /// Default file name for `s`.
    pub save_name: String,
}

impl Pager {
    pub fn new(title: impl Into<String>, lines: Vec<String>, source: Source) -> Pager {
        let code_blocks = code_blocks(&lines);
        Pager {
            title: title.into(),
            lines,
            source_text: None,
            source,
            first_line: None,
            marked: None,
            top: 0,
            terms: Vec::new(),
            matches: Vec::new(),
            current: None,
            code_blocks,
            prompt: None,
            save_name: "llmops-output.txt".into(),
        }
    }

    /// The text `y` copies.
    pub fn logical_text(&self) -> String {
        self.source_text
            .clone()
            .unwrap_or_else(|| self.lines.join("\n"))
    }

    /// Sets the terms and finds every match (ASCII case-insensitive).
    pub fn set_terms(&mut self, terms: Vec<String>) {
        self.terms = terms.into_iter().filter(|t| !t.is_empty()).collect();
        self.rematch();
    }

    fn rematch(&mut self) {
        self.matches.clear();
        let terms: Vec<String> = self.terms.iter().map(|t| t.to_ascii_lowercase()).collect();
        for (i, l) in self.lines.iter().enumerate() {
            let low = l.to_ascii_lowercase();
            let mut found: Vec<(usize, usize)> = Vec::new();
            for t in &terms {
                let mut from = 0;
                while let Some(p) = low[from..].find(t.as_str()) {
                    let s = from + p;
                    found.push((s, s + t.len()));
                    from = s + t.len().max(1);
                }
            }
            found.sort();
            let mut last_end = 0;
            for (s, e) in found {
                if s >= last_end {
                    self.matches.push(Match {
                        line: i,
                        start: s,
                        end: e,
                    });
                    last_end = e;
                }
            }
        }
        self.current = None;
    }

    /// Appends a page of a stored output; true when more should be fetched.
    pub fn append(&mut self, lines: &[String], total: u64) -> bool {
        self.lines
            .extend(lines.iter().map(|l| crate::sanitize::sanitize(l)));
        self.code_blocks = code_blocks(&self.lines);
        if !self.terms.is_empty() {
            let cur = self.current;
            self.rematch();
            self.current = cur.filter(|c| *c < self.matches.len());
        }
        let have = self.lines.len() as u64;
        if let Source::Output {
            total: t, loading, ..
        } = &mut self.source
        {
            *t = total;
            *loading = have < total.min(MAX_OUTPUT_LINES) && !lines.is_empty();
            return *loading;
        }
        false
    }

    /// The code block `Y` copies: the one holding the current match, else the first one
    /// that starts in or above the view and ends in it, else the first below the top.
    pub fn block_in_view(&self) -> Option<&Range<usize>> {
        if let Some(m) = self.current.and_then(|c| self.matches.get(c)) {
            if let Some(b) = self.code_blocks.iter().find(|b| b.contains(&m.line)) {
                return Some(b);
            }
        }
        self.code_blocks
            .iter()
            .find(|b| b.end > self.top)
            .or(self.code_blocks.last())
    }
}

/// Content line ranges of fenced code blocks (fences excluded).
fn code_blocks(lines: &[String]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, l) in lines.iter().enumerate() {
        if l.trim_start().starts_with("```") {
            match open.take() {
                Some(s) => out.push(s..i),
                None => open = Some(i + 1),
            }
        }
    }
    out
}

/// Splits `s` into pieces of at most `width` columns (by character; tabs as 4 spaces).
pub fn chunks(s: &str, width: usize) -> Vec<(usize, usize)> {
    let width = width.max(1);
    let mut out = Vec::new();
    let mut start = 0;
    let mut w = 0;
    for (i, c) in s.char_indices() {
        let cw = if c == '\t' {
            4
        } else {
            text::width(c.encode_utf8(&mut [0; 4]))
        };
        if w + cw > width && i > start {
            out.push((start, i));
            start = i;
            w = 0;
        }
        w += cw;
    }
    out.push((start, s.len()));
    out
}

/// Rows a line takes at `width` columns in the pager (wrapped by character).
pub fn rows_of(line: &str, width: usize) -> usize {
    chunks(line, width).len()
}

/// The pager's text area: (width after the gutter, height) for the terminal size.
pub fn view_size(app: &App, p: &Pager) -> (usize, usize) {
    let (w, h) = (usize::from(app.size.0), usize::from(app.size.1));
    (
        w.saturating_sub(gutter_width(p)).max(1),
        h.saturating_sub(2).max(1),
    )
}

/// Columns taken by the line-number gutter (`  123 │ `).
pub fn gutter_width(p: &Pager) -> usize {
    match p.first_line {
        Some(f) => (f + p.lines.len() as u64).to_string().len().max(4) + 3,
        None => 0,
    }
}

/// The largest `top` that still fills the view.
fn max_top(p: &Pager, w: usize, h: usize) -> usize {
    let mut rows = 0;
    for i in (0..p.lines.len()).rev() {
        rows += rows_of(&p.lines[i], w);
        if rows > h {
            return i + 1;
        }
    }
    0
}

/// Keeps `top` where the view is still full (after the lines changed).
pub(crate) fn clamp_top(p: &mut Pager, w: usize, h: usize) {
    p.top = p.top.min(max_top(p, w, h));
}

/// What the pager does for a key (from the keymap).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagerOp {
    Up(usize),
    Down(usize),
    PageUp,
    PageDown,
    Top,
    Bottom,
    Find,
    Next,
    Prev,
    Copy,
    CopyBlock,
    Save,
    Download,
}

pub fn op(app: &mut App, o: PagerOp, out: &mut Vec<Command>) {
    let size = match &app.modal {
        Some(Modal::Pager(p)) => view_size(app, p),
        _ => return,
    };
    let download_dir = app.download_dir.clone();
    let Some(Modal::Pager(p)) = &mut app.modal else {
        return;
    };
    let (w, h) = size;
    let max = max_top(p, w, h);
    match o {
        PagerOp::Up(n) => p.top = p.top.saturating_sub(n),
        PagerOp::Down(n) => p.top = (p.top + n).min(max),
        PagerOp::PageUp => p.top = p.top.saturating_sub(h.saturating_sub(1).max(1)),
        PagerOp::PageDown => p.top = (p.top + h.saturating_sub(1).max(1)).min(max),
        PagerOp::Top => p.top = 0,
        PagerOp::Bottom => p.top = max,
        PagerOp::Find => p.prompt = Some(prompt(PromptKind::Search, "")),
        PagerOp::Next | PagerOp::Prev => step_match(p, o == PagerOp::Next, w, h),
        PagerOp::Save => {
            let path = download_dir.join(&p.save_name).display().to_string();
            p.prompt = Some(prompt(PromptKind::Save, &path));
        }
        PagerOp::Copy => {
            let t = p.logical_text();
            copy(app, t, "the text", out);
        }
        PagerOp::CopyBlock => match p.block_in_view().cloned() {
            Some(b) => {
                let t = p.lines[b].join("\n");
                copy(app, t, "the code block", out);
            }
            None => app.note(Level::Info, "没有代码块 / no code block here: y copies all"),
        },
        PagerOp::Download => {
            if let Source::Hit { target, .. } = &p.source {
                let t = target.clone();
                app.note(Level::Info, format!("asking for a download offer of {t}"));
                out.push(Command::Request(Req::Download(t)));
            }
        }
    }
}

fn prompt(kind: PromptKind, text: &str) -> Prompt {
    let mut input = TextArea::default();
    input.set_cursor_line_style(ratatui::style::Style::default());
    input.insert_str(text);
    Prompt {
        kind,
        input: Box::new(input),
        error: None,
        confirm: None,
    }
}

/// Moves to the next (or previous) match, wrapping, and scrolls it into view.
fn step_match(p: &mut Pager, forward: bool, w: usize, h: usize) {
    let n = p.matches.len();
    if n == 0 {
        return;
    }
    let next = match p.current {
        Some(c) if forward => (c + 1) % n,
        Some(c) => (c + n - 1) % n,
        // First jump: the first match at or below the top (or above, going back).
        None if forward => p.matches.iter().position(|m| m.line >= p.top).unwrap_or(0),
        None => p
            .matches
            .iter()
            .rposition(|m| m.line < p.top)
            .unwrap_or(n - 1),
    };
    p.current = Some(next);
    show_line(p, p.matches[next].line, w, h);
}

/// Scrolls so line `l` is in view (a few lines of context above it when it was not).
fn show_line(p: &mut Pager, l: usize, w: usize, h: usize) {
    let mut rows = 0;
    let mut visible = false;
    for i in p.top..p.lines.len() {
        rows += rows_of(&p.lines[i], w);
        if rows > h {
            break;
        }
        if i == l {
            visible = true;
            break;
        }
    }
    if !visible || l < p.top {
        p.top = l.saturating_sub(3).min(max_top(p, w, h).max(l.min(p.top)));
        if p.top > l {
            p.top = l;
        }
    }
}

/// Enter in the pager's prompt: run the search or save the text.
pub fn prompt_enter(app: &mut App) {
    let Some(Modal::Pager(p)) = &mut app.modal else {
        return;
    };
    let Some(mut pr) = p.prompt.take() else {
        return;
    };
    let typed = pr.input.lines().join("");
    match pr.kind {
        PromptKind::Search => {
            let size = view_size_of(app.size, p);
            let q = typed.trim().to_string();
            p.set_terms(if q.is_empty() {
                vec![]
            } else {
                vec![q.clone()]
            });
            if p.matches.is_empty() && !q.is_empty() {
                app.note(Level::Warn, format!("没有匹配 / no match for {q}"));
            } else if !q.is_empty() {
                step_match(p, true, size.0, size.1);
                let n = p.matches.len();
                app.note(
                    Level::Info,
                    format!("{n} matches for {q} · n next · N previous"),
                );
            }
        }
        PromptKind::Save => {
            let path = resolve(&typed, &app.download_dir);
            let confirmed = pr.confirm.as_ref() == Some(&path);
            if path.is_dir() {
                pr.error = Some(format!(
                    "是目录 / {} is a folder: add a file name",
                    path.display()
                ));
                p.prompt = Some(pr);
                return;
            }
            if path.exists() && !confirmed {
                pr.error = Some(format!(
                    "文件已存在 / {} exists: Enter again replaces it, or edit the path",
                    path.display()
                ));
                pr.confirm = Some(path);
                p.prompt = Some(pr);
                return;
            }
            let body = p.logical_text();
            match write_text(&path, &body) {
                Ok(()) => {
                    let n = body.lines().count();
                    app.note(
                        Level::Ok,
                        format!("已保存 / saved {n} lines to {}", path.display()),
                    );
                }
                Err(e) => {
                    pr.error = Some(format!("保存失败 / cannot write {}: {e}", path.display()));
                    p.prompt = Some(pr);
                }
            }
        }
    }
}

pub(crate) fn view_size_of(size: (u16, u16), p: &Pager) -> (usize, usize) {
    (
        usize::from(size.0).saturating_sub(gutter_width(p)).max(1),
        usize::from(size.1).saturating_sub(2).max(1),
    )
}

/// A typed save path: `~/` is home, a relative path is taken from `base`.
fn resolve(typed: &str, base: &Path) -> PathBuf {
    let t = typed.trim();
    if let Some(rest) = t.strip_prefix("~/") {
        if let Some(h) = dirs::home_dir() {
            return h.join(rest);
        }
    }
    let p = PathBuf::from(t);
    if p.is_absolute() {
        p
    } else {
        base.join(p)
    }
}

fn write_text(path: &Path, body: &str) -> std::io::Result<()> {
    if let Some(d) = path.parent() {
        std::fs::create_dir_all(d)?;
    }
    let mut b = body.to_string();
    if !b.ends_with('\n') {
        b.push('\n');
    }
    std::fs::write(path, b)
}

/// Copies `text`: OSC 52 to the terminal (the runtime writes it), and the same text to
/// `clipboard.txt` in the state folder, since many terminals ignore OSC 52; the notice says
/// where.
pub fn copy(app: &mut App, text: String, what: &str, out: &mut Vec<Command>) {
    let n = text.lines().count().max(1);
    let file = app.clip_dir.join("clipboard.txt");
    let saved = write_text(&file, &text);
    out.push(Command::Clipboard(text));
    match saved {
        Ok(()) => app.note(
            Level::Ok,
            format!(
                "已复制 / copied {what} ({n} lines) to the clipboard (OSC 52); also in {}",
                file.display()
            ),
        ),
        Err(e) => {
            tracing::warn!("cannot write the clipboard file {}: {e}", file.display());
            app.note(
                Level::Warn,
                format!(
                    "copied {what} ({n} lines) via OSC 52 only: cannot write {}: {e}",
                    file.display()
                ),
            )
        }
    }
}

/// OSC 52 sequence that puts `text` on the system clipboard.
pub fn osc52(text: &str) -> String {
    format!("\x1b]52;c;{}\x07", base64(text.as_bytes()))
}

fn base64(data: &[u8]) -> String {
    const T: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut s = String::with_capacity(data.len().div_ceil(3) * 4);
    for c in data.chunks(3) {
        let b = [c[0], *c.get(1).unwrap_or(&0), *c.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18u32, 12, 6, 0].iter().enumerate() {
            if i <= c.len() {
                s.push(T[((n >> shift) & 63) as usize] as char);
            } else {
                s.push('=');
            }
        }
    }
    s
}

/// A pager over transcript entry `i`; a stored tool output starts loading (returned
/// request).
pub fn for_entry(app: &App, i: usize) -> Option<(Pager, Option<Req>)> {
    let e = app.transcript.entries.get(i)?;
    Some(match e {
        Entry::Tool {
            tool,
            args,
            result,
            out,
            ..
        } => {
            let title = format!("{tool} {args}");
            match result.as_ref().and_then(|r| r.output.clone()) {
                Some(r) => {
                    let mut p = Pager::new(
                        title,
                        Vec::new(),
                        Source::Output {
                            output_id: r.output_id.clone(),
                            total: r.lines,
                            loading: true,
                        },
                    );
                    p.save_name = format!("{tool}-output.txt");
                    let req = Req::OutputPage {
                        output_id: r.output_id,
                        offset: 0,
                    };
                    (p, Some(req))
                }
                None => {
                    let mut lines: Vec<String> = result
                        .as_ref()
                        .map(|r| r.summary.lines().map(str::to_string).collect())
                        .unwrap_or_default();
                    lines.extend(out.live.iter().cloned());
                    let mut p = Pager::new(title, lines, Source::Text);
                    p.save_name = format!("{tool}-output.txt");
                    (p, None)
                }
            }
        }
        Entry::Assistant { doc, .. } => {
            let src = doc.source().to_string();
            let mut p = Pager::new(
                "answer",
                src.lines().map(str::to_string).collect(),
                Source::Text,
            );
            p.source_text = Some(src);
            p.save_name = "llmops-answer.md".into();
            (p, None)
        }
        Entry::User { text, .. } => (
            Pager::new(
                "your message",
                text.lines().map(str::to_string).collect(),
                Source::Text,
            ),
            None,
        ),
        Entry::System { text, .. } => (
            Pager::new(
                "notice",
                text.lines().map(str::to_string).collect(),
                Source::Text,
            ),
            None,
        ),
    })
}

/// The whole transcript as plain lines (for transcript search).
pub fn transcript_lines(app: &App) -> Vec<String> {
    let mut out = Vec::new();
    for e in &app.transcript.entries {
        if !out.is_empty() {
            out.push(String::new());
        }
        match e {
            Entry::User { text, .. } => {
                for (i, l) in text.lines().enumerate() {
                    out.push(format!("{}{l}", if i == 0 { "❯ " } else { "  " }));
                }
            }
            Entry::Assistant { doc, .. } => out.extend(doc.source().lines().map(str::to_string)),
            Entry::Tool {
                tool, args, result, ..
            } => {
                let mut s = format!("▸ {tool} {args}");
                if let Some(r) = result {
                    s.push_str(if r.ok { " ✓ " } else { " ✗ " });
                    s.push_str(r.summary.lines().next().unwrap_or(""));
                    out.push(s);
                    out.extend(r.summary.lines().skip(1).map(|l| format!("  {l}")));
                } else {
                    out.push(s);
                }
            }
            Entry::System { text, .. } => out.extend(text.lines().map(|l| format!("· {l}"))),
        }
    }
    out
}

/// Opens the pager on the whole transcript with the search prompt open (Ctrl+F).
pub fn search_transcript(app: &mut App) {
    let mut p = Pager::new("transcript", transcript_lines(app), Source::Text);
    p.save_name = "llmops-transcript.txt".into();
    let (w, h) = view_size(app, &p);
    p.top = max_top(&p, w, h);
    p.prompt = Some(prompt(PromptKind::Search, ""));
    app.modal = Some(Modal::Pager(Box::new(p)));
}

/// A page of a stored output arrived: feed the pager showing it; returns the next page
/// to ask for.
pub fn output_page(app: &mut App, p: &protocol::OutputPage) -> Option<Req> {
    let Some(Modal::Pager(pg)) = &mut app.modal else {
        return None;
    };
    let Source::Output { output_id, .. } = &pg.source else {
        return None;
    };
    if *output_id != p.output_id || p.offset != pg.lines.len() as u64 {
        return None;
    }
    let more = pg.append(&p.lines, p.total_lines);
    more.then(|| Req::OutputPage {
        output_id: p.output_id.clone(),
        offset: pg.lines.len() as u64,
    })
}

#[cfg(test)]
#[path = "pager_tests.rs"]
pub(crate) mod tests;
