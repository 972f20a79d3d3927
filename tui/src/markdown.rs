//! Lightweight Markdown for the transcript: headings, lists, emphasis, inline code, quotes,
//! tables and fenced code blocks become styled, unwrapped lines (wrapping happens at draw
//! time). `MdDoc` parses incrementally: finished blocks are parsed once, and each streamed
//! delta re-parses only the unfinished tail. Input must already be sanitised.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Span;

/// What a line is, so the renderer can draw width-dependent decorations.
#[derive(Debug, Clone, PartialEq)]
pub enum LineKind {
    Text,
    /// A code block's top border, with the language if any.
    CodeTop(String),
    Code,
    CodeBottom,
    Rule,
    Blank,
}

/// One logical line: prefixes for its first and continuation rows, then its content.
#[derive(Debug, Clone, PartialEq)]
pub struct MdLine {
    pub kind: LineKind,
    pub first: Vec<Span<'static>>,
    pub cont: Vec<Span<'static>>,
    pub spans: Vec<Span<'static>>,
}

impl MdLine {
    fn blank() -> Self {
        MdLine {
            kind: LineKind::Blank,
            first: vec![],
            cont: vec![],
            spans: vec![],
        }
    }
}

/// Styles for Markdown elements (colours are dropped later under NO_COLOR).
#[derive(Debug, Clone, Copy)]
pub struct MdStyles {
    pub heading: Style,
    pub code: Style,
    pub border: Style,
    pub bullet: Style,
    pub quote: Style,
    pub link: Style,
}

impl Default for MdStyles {
    fn default() -> Self {
        MdStyles {
            heading: Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
            code: Style::new().fg(Color::Yellow),
            border: Style::new().fg(Color::DarkGray),
            bullet: Style::new().fg(Color::Cyan),
            quote: Style::new().fg(Color::Gray).add_modifier(Modifier::ITALIC),
            link: Style::new()
                .fg(Color::Blue)
                .add_modifier(Modifier::UNDERLINED),
        }
    }
}

/// A streamed Markdown document.
#[derive(Debug, Clone, Default)]
pub struct MdDoc {
    done: Vec<MdLine>,
    tail: String,
    tail_lines: Vec<MdLine>,
    styles: MdStyles,
    /// Full source (for copying and history).
    source: String,
}

impl MdDoc {
    pub fn new(styles: MdStyles) -> Self {
        MdDoc {
            styles,
            ..Default::default()
        }
    }

    /// Appends streamed text; only the unfinished last block is parsed again.
    pub fn push(&mut self, s: &str) {
        self.source.push_str(s);
        self.tail.push_str(s);
        let cut = stable_prefix(&self.tail);
        if cut > 0 {
            let stable: String = self.tail.drain(..cut).collect();
            self.done.extend(parse(&stable, &self.styles));
        }
        self.tail_lines = parse(&self.tail, &self.styles);
    }

    /// The stream ended: the tail becomes final.
    pub fn finish(&mut self) {
        let tail = std::mem::take(&mut self.tail);
        self.done.extend(parse(&tail, &self.styles));
        self.tail_lines.clear();
        while self.done.last().is_some_and(|l| l.kind == LineKind::Blank) {
            self.done.pop();
        }
    }

    pub fn lines(&self) -> impl Iterator<Item = &MdLine> {
        self.done.iter().chain(self.tail_lines.iter())
    }

    pub fn source(&self) -> &str {
        &self.source
    }

    pub fn is_empty(&self) -> bool {
        self.source.is_empty()
    }

    /// Lines parsed so far that will not be parsed again (tests check incrementality).
    pub fn finished_len(&self) -> usize {
        self.done.len()
    }
}

/// Byte length of the longest prefix of `s` made of complete blocks: it ends after a blank
/// line outside any fenced code block, or after a closing fence.
fn stable_prefix(s: &str) -> usize {
    let mut cut = 0;
    let mut pos = 0;
    let mut fence: Option<(char, usize)> = None;
    for line in s.split_inclusive('\n') {
        pos += line.len();
        if !line.ends_with('\n') {
            break; // The last line is still being written.
        }
        let t = line.trim_start_matches(' ');
        let indent = line.len() - t.len();
        let marker = t.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |m| t.chars().take_while(|c| *c == m).count());
        match fence {
            None if indent < 4 && run >= 3 => fence = marker.map(|m| (m, run)),
            Some((m, n))
                if indent < 4 && marker == Some(m) && run >= n && t[run..].trim().is_empty() =>
            {
                fence = None;
                cut = pos;
            }
            None if line.trim().is_empty() => cut = pos,
            _ => {}
        }
    }
    cut
}

struct Builder<'s> {
    st: &'s MdStyles,
    out: Vec<MdLine>,
    cur: Vec<Span<'static>>,
    first: Vec<Span<'static>>,
    cont: Vec<Span<'static>>,
    styles: Vec<Style>,
    /// One entry per open list: the next number for ordered lists.
    lists: Vec<Option<u64>>,
    quote: usize,
    in_code: bool,
    link_dest: Vec<String>,
    table_cell: usize,
}

impl Builder<'_> {
    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn push_style(&mut self, f: impl FnOnce(Style) -> Style) {
        let s = f(self.style());
        self.styles.push(s);
    }

    fn indent(&self) -> Vec<Span<'static>> {
        let mut v = Vec::new();
        for _ in 0..self.quote {
            v.push(Span::styled("│ ", self.st.quote));
        }
        let depth = self.lists.len().saturating_sub(1);
        if !self.lists.is_empty() {
            v.push(Span::raw("  ".repeat(depth + 1)));
        }
        v
    }

    fn text(&mut self, t: &str) {
        self.cur.push(Span::styled(t.to_string(), self.style()));
    }

    /// Ends the current line if it has content.
    fn flush(&mut self) {
        if self.cur.is_empty() && self.first.is_empty() {
            return;
        }
        let first = if self.first.is_empty() {
            self.indent()
        } else {
            std::mem::take(&mut self.first)
        };
        let cont = if self.cont.is_empty() {
            self.indent()
        } else {
            self.cont.clone()
        };
        self.out.push(MdLine {
            kind: LineKind::Text,
            first,
            cont,
            spans: std::mem::take(&mut self.cur),
        });
    }

    fn blank(&mut self) {
        if self.lists.is_empty() && self.out.last().is_some_and(|l| l.kind != LineKind::Blank) {
            self.out.push(MdLine::blank());
        }
    }

    fn event(&mut self, ev: Event<'_>) {
        match ev {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(t) => {
                if self.in_code {
                    for l in t.split_inclusive('\n') {
                        let l = l.strip_suffix('\n').unwrap_or(l);
                        self.out.push(MdLine {
                            kind: LineKind::Code,
                            first: vec![Span::styled("│ ", self.st.border)],
                            cont: vec![Span::styled("│ ", self.st.border)],
                            spans: vec![Span::styled(l.to_string(), self.st.code)],
                        });
                    }
                } else {
                    self.text(&t);
                }
            }
            Event::Code(t) => self.cur.push(Span::styled(t.to_string(), self.st.code)),
            Event::Html(t) | Event::InlineHtml(t) => {
                for (i, l) in t.lines().enumerate() {
                    if i > 0 {
                        self.flush();
                    }
                    self.text(l);
                }
            }
            Event::SoftBreak => self.text(" "),
            Event::HardBreak => self.flush(),
            Event::Rule => {
                self.flush();
                self.out.push(MdLine {
                    kind: LineKind::Rule,
                    first: vec![],
                    cont: vec![],
                    spans: vec![Span::styled("", self.st.border)],
                });
            }
            Event::TaskListMarker(done) => self.text(if done { "[x] " } else { "[ ] " }),
            Event::FootnoteReference(t) => self.text(&format!("[{t}]")),
            _ => {}
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => {}
            Tag::Heading { level, .. } => {
                self.flush();
                let st = if level == HeadingLevel::H1 {
                    self.st.heading.add_modifier(Modifier::UNDERLINED)
                } else {
                    self.st.heading
                };
                self.styles.push(st);
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quote += 1;
            }
            Tag::CodeBlock(kind) => self.start_code(kind),
            Tag::List(start) => {
                self.flush();
                self.lists.push(start);
            }
            Tag::Item => self.start_item(),
            Tag::Emphasis => self.push_style(|s| s.add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(|s| s.add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(|s| s.add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } => {
                let link = self.st.link;
                self.push_style(|s| s.patch(link));
                self.link_dest.push(dest_url.to_string());
            }
            Tag::Image { dest_url, .. } => {
                self.text("[image: ");
                self.link_dest.push(dest_url.to_string());
            }
            Tag::Table(_) => self.flush(),
            Tag::TableHead | Tag::TableRow => {
                self.table_cell = 0;
                if matches!(tag, Tag::TableHead) {
                    self.push_style(|s| s.add_modifier(Modifier::BOLD));
                }
            }
            Tag::TableCell => {
                if self.table_cell > 0 {
                    self.cur.push(Span::styled(" │ ", self.st.border));
                }
                self.table_cell += 1;
            }
            _ => {}
        }
    }

    /// A code block opens with its top border (naming the language when fenced with one).
    fn start_code(&mut self, kind: CodeBlockKind<'_>) {
        self.flush();
        let lang = match kind {
            CodeBlockKind::Fenced(l) => l.split_whitespace().next().unwrap_or("").into(),
            CodeBlockKind::Indented => String::new(),
        };
        self.out.push(MdLine {
            kind: LineKind::CodeTop(lang),
            first: vec![],
            cont: vec![],
            spans: vec![],
        });
        self.in_code = true;
    }

    /// A list item: its first row carries the marker (number or bullet) after the quote
    /// bars and the nesting indent; its continuation rows line up under the text.
    fn start_item(&mut self) {
        self.flush();
        let depth = self.lists.len().saturating_sub(1);
        let pad = "  ".repeat(depth);
        let marker = match self.lists.last_mut() {
            Some(Some(n)) => {
                let m = format!("{n}. ");
                *n += 1;
                m
            }
            _ => "• ".to_string(),
        };
        let mut quote = Vec::new();
        for _ in 0..self.quote {
            quote.push(Span::styled("│ ", self.st.quote));
        }
        let mut first = quote.clone();
        first.push(Span::raw(pad.clone()));
        first.push(Span::styled(marker.clone(), self.st.bullet));
        let mut cont = quote;
        cont.push(Span::raw(format!(
            "{pad}{}",
            " ".repeat(marker.chars().count())
        )));
        self.first = first;
        self.cont = cont;
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => {
                self.flush();
                self.blank();
            }
            TagEnd::Heading(_) => {
                self.styles.pop();
                self.flush();
                self.blank();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quote = self.quote.saturating_sub(1);
                self.blank();
            }
            TagEnd::CodeBlock => {
                self.in_code = false;
                self.out.push(MdLine {
                    kind: LineKind::CodeBottom,
                    first: vec![],
                    cont: vec![],
                    spans: vec![],
                });
                self.blank();
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                self.first.clear();
                self.cont.clear();
                self.blank();
            }
            TagEnd::Item => {
                self.flush();
                self.first.clear();
                self.cont.clear();
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => {
                self.styles.pop();
            }
            TagEnd::Link => {
                self.styles.pop();
                if let Some(d) = self.link_dest.pop() {
                    let shown = self.cur.last().map(|s| s.content.to_string());
                    if !d.is_empty() && shown.as_deref() != Some(d.as_str()) {
                        self.cur
                            .push(Span::styled(format!(" <{d}>"), self.st.quote));
                    }
                }
            }
            TagEnd::Image => {
                if let Some(d) = self.link_dest.pop() {
                    self.text(&format!(" {d}]"));
                }
            }
            TagEnd::TableHead => {
                self.styles.pop();
                self.flush();
            }
            TagEnd::TableRow => self.flush(),
            TagEnd::Table => self.blank(),
            _ => {}
        }
    }
}

/// Parses complete Markdown into lines (upload paths shown as the uploads' names).
pub fn parse(src: &str, st: &MdStyles) -> Vec<MdLine> {
    let src = crate::upload_names::upload_names(src);
    let src = src.as_ref();
    let mut b = Builder {
        st,
        out: Vec::new(),
        cur: Vec::new(),
        first: Vec::new(),
        cont: Vec::new(),
        styles: Vec::new(),
        lists: Vec::new(),
        quote: 0,
        in_code: false,
        link_dest: Vec::new(),
        table_cell: 0,
    };
    let opts = Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    for ev in Parser::new_ext(src, opts) {
        b.event(ev);
    }
    b.flush();
    // An unclosed fence while streaming still gets its bottom border.
    if b.in_code {
        b.out.push(MdLine {
            kind: LineKind::CodeBottom,
            first: vec![],
            cont: vec![],
            spans: vec![],
        });
    }
    b.out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[MdLine]) -> Vec<String> {
        lines
            .iter()
            .map(|l| {
                let mut s: String = l.first.iter().map(|s| s.content.as_ref()).collect();
                s.extend(l.spans.iter().map(|s| s.content.as_ref()));
                match &l.kind {
                    LineKind::CodeTop(lang) => format!("<top {lang}>"),
                    LineKind::CodeBottom => "<bottom>".into(),
                    _ => s,
                }
            })
            .collect()
    }

    #[test]
    fn parses_headings_lists_code_and_emphasis() {
        let md = "# Title\n\nSome **bold** and *it* and `code`.\n\n- one\n- two\n\n1. a\n2. b\n\n```rust\nfn main() {}\n```\n";
        let lines = parse(md, &MdStyles::default());
        assert_eq!(
            texts(&lines),
            vec![
                "Title",
                "",
                "Some bold and it and code.",
                "",
                "• one",
                "• two",
                "",
                "1. a",
                "2. b",
                "",
                "<top rust>",
                "│ fn main() {}",
                "<bottom>",
                "",
            ]
        );
        let bold = lines[2]
            .spans
            .iter()
            .find(|s| s.content == "bold")
            .expect("bold span");
        assert!(bold.style.add_modifier.contains(Modifier::BOLD));
    }

    #[test]
    fn incremental_parse_matches_full_parse_and_freezes_finished_blocks() {
        let md =
            "Intro paragraph.\n\n```sh\nls -l\n\necho hi\n```\n\n- item *one*\n- item two\n\nEnd.";
        let full = {
            let mut d = MdDoc::new(MdStyles::default());
            d.push(md);
            d.finish();
            d.lines().cloned().collect::<Vec<_>>()
        };
        let mut d = MdDoc::new(MdStyles::default());
        for (i, ch) in md.char_indices() {
            d.push(&md[i..i + ch.len_utf8()]);
        }
        assert!(d.finished_len() > 0, "finished blocks are not re-parsed");
        d.finish();
        let inc: Vec<_> = d.lines().cloned().collect();
        assert_eq!(texts(&inc), texts(&full));
    }

    #[test]
    fn stable_prefix_does_not_cut_inside_a_fence() {
        assert_eq!(stable_prefix("a\n\n```\nx\n\ny\n"), 3);
        assert_eq!(stable_prefix("```\nx\n```\nrest"), 10);
        assert_eq!(stable_prefix("no newline"), 0);
    }
}
