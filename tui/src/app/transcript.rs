//! The chat transcript model: user messages, streamed assistant answers (incremental
//! Markdown), tool call lines and system notices. All text stored here is already
//! sanitised; rendering lives in `ui::chat`, which keeps each entry's wrapped rows in
//! `rows` (invalidated here whenever an entry changes) so a frame re-wraps only what changed.

use std::cell::RefCell;
use std::collections::VecDeque;

use protocol::{HistoryMessage, OutputPage, OutputRef, RequestId};
use ratatui::text::Line;

use crate::markdown::{MdDoc, MdStyles};
use crate::sanitize::sanitize;
use crate::upload_names::upload_names;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Ok,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolResult {
    pub ok: bool,
    pub duration_ms: u64,
    pub summary: String,
    /// The server keeps the whole output: it can be opened (OUTPUT_GET).
    pub output: Option<OutputRef>,
}

/// Live lines kept per tool entry (follow mode); the oldest go first.
pub const LIVE_KEEP: usize = 200;
/// Live lines shown under a tool line.
pub const LIVE_VISIBLE: usize = 10;
/// Lines asked for per OUTPUT_GET.
pub const PAGE_LINES: u32 = 500;

/// What a tool entry shows besides its line: live lines while it runs, and its stored
/// output once opened.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolOut {
    /// The last live lines (at most `LIVE_KEEP`).
    pub live: VecDeque<String>,
    /// Lines the tool produced so far, and those the server did not send live.
    pub live_total: u64,
    pub live_dropped: u64,
    /// The stored output, fetched from line 0, when opened.
    pub opened: Option<Opened>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Opened {
    pub lines: Vec<String>,
    pub total: u64,
    /// A page request is in flight.
    pub loading: bool,
    pub truncated: bool,
}

#[derive(Debug, Clone)]
pub enum Entry {
    User {
        text: String,
        /// Names (or ids) of files the message referenced.
        files: Vec<String>,
    },
    Assistant {
        doc: MdDoc,
        request_id: Option<RequestId>,
        done: bool,
    },
    Tool {
        request_id: Option<RequestId>,
        step: u32,
        tool: String,
        /// Compact JSON of the arguments.
        args: String,
        result: Option<ToolResult>,
        out: ToolOut,
    },
    System {
        level: Level,
        text: String,
    },
}

/// What an entry's wrapped rows depend on besides the entry itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RowKey {
    pub width: usize,
    pub tools_expanded: bool,
    pub ascii: bool,
    /// Some earlier entry produced rows (a user message is then preceded by a blank row).
    pub after_rows: bool,
    /// The previous entry is a tool line (an answer is then preceded by a blank row).
    pub after_tool: bool,
}

/// One entry's rows as last drawn.
#[derive(Debug, Clone)]
pub struct CachedRows {
    pub key: RowKey,
    pub rows: Vec<Line<'static>>,
}

#[derive(Debug, Clone, Default)]
pub struct Transcript {
    pub entries: Vec<Entry>,
    /// Show tool calls with their full arguments and output.
    pub tools_expanded: bool,
    pub md: MdStyles,
    /// Render cache, one slot per entry (filled by `ui::chat` during drawing, which only
    /// has `&App`; hence the RefCell). Mutations below clear the slots they affect.
    pub rows: RefCell<Vec<Option<CachedRows>>>,
}

impl Transcript {
    pub fn new(md: MdStyles) -> Self {
        Transcript {
            md,
            ..Default::default()
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.rows.get_mut().clear();
    }

    /// Entry `i` changed: its rows must be drawn again.
    fn touch(&mut self, i: usize) {
        if let Some(slot) = self.rows.get_mut().get_mut(i) {
            *slot = None;
        }
    }

    pub fn user(&mut self, text: &str, files: Vec<String>) {
        self.entries.push(Entry::User {
            text: sanitize(text),
            files,
        });
    }

    pub fn system(&mut self, level: Level, text: &str) {
        self.entries.push(Entry::System {
            level,
            text: upload_names(&sanitize(text)).into_owned(),
        });
    }

    /// Appends a streamed delta to this turn's answer, creating it on first use.
    pub fn delta(&mut self, id: RequestId, text: &str) {
        let text = sanitize(text);
        if let Some(i) = self.assistant_idx(id) {
            if let Entry::Assistant { doc, .. } = &mut self.entries[i] {
                doc.push(&text);
            }
            self.touch(i);
            return;
        }
        let mut doc = MdDoc::new(self.md);
        doc.push(&text);
        self.entries.push(Entry::Assistant {
            doc,
            request_id: Some(id),
            done: false,
        });
    }

    /// Starts an (empty) answer for the turn if it has none yet.
    pub fn start_answer(&mut self, id: RequestId) {
        if self.assistant_idx(id).is_none() {
            self.entries.push(Entry::Assistant {
                doc: MdDoc::new(self.md),
                request_id: Some(id),
                done: false,
            });
        }
    }

    pub fn finish_answer(&mut self, id: RequestId) {
        if let Some(i) = self.assistant_idx(id) {
            if let Entry::Assistant { doc, done, .. } = &mut self.entries[i] {
                doc.finish();
                *done = true;
            }
            self.touch(i);
        }
        // An answer that never got text is noise.
        let before = self.entries.len();
        self.entries.retain(|e| {
            !matches!(e, Entry::Assistant { doc, request_id: Some(r), .. } if *r == id && doc.is_empty())
        });
        if self.entries.len() != before {
            // Rare: indices shifted, so every slot is suspect.
            self.rows.get_mut().clear();
        }
    }

    fn assistant_idx(&self, id: RequestId) -> Option<usize> {
        self.entries
            .iter()
            .rposition(|e| matches!(e, Entry::Assistant { request_id: Some(r), .. } if *r == id))
    }

    pub fn tool_call(
        &mut self,
        id: Option<RequestId>,
        step: u32,
        tool: &str,
        args: &serde_json::Value,
    ) {
        self.entries.push(Entry::Tool {
            request_id: id,
            step,
            tool: sanitize(tool),
            args: upload_names(&sanitize(&args.to_string())).into_owned(),
            result: None,
            out: ToolOut::default(),
        });
    }

    pub fn tool_result(&mut self, id: Option<RequestId>, step: u32, tool: &str, r: ToolResult) {
        let tool = sanitize(tool);
        let r = ToolResult {
            summary: upload_names(&sanitize(&r.summary)).into_owned(),
            ..r
        };
        let slot = self.entries.iter().rposition(|e| {
            matches!(e, Entry::Tool { request_id, step: s, tool: t, result: None, .. }
                if *request_id == id && *s == step && *t == tool)
        });
        match slot {
            Some(i) => {
                if let Entry::Tool { result, .. } = &mut self.entries[i] {
                    *result = Some(r);
                }
                self.touch(i);
            }
            // A result without its call (e.g. after reconnecting) still gets a line.
            _ => self.entries.push(Entry::Tool {
                request_id: id,
                step,
                tool,
                args: String::new(),
                result: Some(r),
                out: ToolOut::default(),
            }),
        }
    }

    /// The exact argv of the turn's `run_action` step (from its approval request) replaces
    /// the arguments the model wrote, so the tool line reads as the approval dialog does;
    /// each later stage of the same step is added after `&&`.
    pub fn action_argv(&mut self, id: RequestId, argv: &str) {
        let slot = self.entries.iter().rposition(|e| {
            matches!(e, Entry::Tool { request_id: Some(r), tool, .. }
                if *r == id && tool == "run_action")
        });
        let Some(i) = slot else { return };
        if let Entry::Tool { args, .. } = &mut self.entries[i] {
            if args.starts_with('{') || args.is_empty() {
                *args = argv.to_string();
            } else if !args.split(" && ").any(|a| a == argv) {
                args.push_str(" && ");
                args.push_str(argv);
            }
        }
        self.touch(i);
    }

    /// Live lines of a running tool call (TOOL_OUTPUT), kept bounded.
    pub fn tool_output(
        &mut self,
        id: Option<RequestId>,
        step: u32,
        tool: &str,
        lines: &[String],
        dropped: u64,
        total: u64,
    ) {
        let tool = sanitize(tool);
        let slot = self.entries.iter().rposition(|e| {
            matches!(e, Entry::Tool { request_id, step: s, tool: t, .. }
                if *request_id == id && *s == step && *t == tool)
        });
        let Some(i) = slot else { return };
        if let Entry::Tool { out, .. } = &mut self.entries[i] {
            for l in lines {
                if out.live.len() == LIVE_KEEP {
                    out.live.pop_front();
                }
                out.live.push_back(sanitize(l));
            }
            out.live_dropped += dropped;
            out.live_total = out.live_total.max(total);
        }
        self.touch(i);
    }

    /// Whether entry `i` has a stored output that can be opened or closed.
    pub fn has_output(&self, i: usize) -> bool {
        matches!(
            self.entries.get(i),
            Some(Entry::Tool {
                result: Some(ToolResult {
                    output: Some(_),
                    ..
                }),
                ..
            })
        )
    }

    /// Enter on entry `i`: opens its stored output (first page), loads the next page of an
    /// open one, or closes a fully loaded one. Returns the page to ask for.
    pub fn open_output(&mut self, i: usize) -> Option<(String, u64)> {
        let Some(Entry::Tool {
            result: Some(ToolResult {
                output: Some(r), ..
            }),
            out,
            ..
        }) = self.entries.get_mut(i)
        else {
            return None;
        };
        let ask = match &mut out.opened {
            None => {
                out.opened = Some(Opened {
                    total: r.lines,
                    loading: true,
                    truncated: r.truncated,
                    ..Default::default()
                });
                Some((r.output_id.clone(), 0))
            }
            Some(o) if o.loading => None,
            Some(o) if (o.lines.len() as u64) < o.total => {
                o.loading = true;
                Some((r.output_id.clone(), o.lines.len() as u64))
            }
            Some(_) => {
                out.opened = None;
                None
            }
        };
        self.touch(i);
        ask
    }

    /// A page of a stored output arrived (OUTPUT_PAGE).
    pub fn output_page(&mut self, p: &OutputPage) {
        let Some(i) = self.output_entry(&p.output_id) else {
            return;
        };
        if let Entry::Tool { out, .. } = &mut self.entries[i] {
            if let Some(o) = &mut out.opened {
                if p.offset == o.lines.len() as u64 {
                    o.lines.extend(p.lines.iter().map(|l| sanitize(l)));
                }
                o.total = p.total_lines;
                o.truncated = p.truncated;
                o.loading = false;
            }
        }
        self.touch(i);
    }

    /// A page request failed: the entry can be asked again.
    pub fn output_failed(&mut self, output_id: &str) {
        let Some(i) = self.output_entry(output_id) else {
            return;
        };
        if let Entry::Tool { out, .. } = &mut self.entries[i] {
            if out.opened.as_ref().is_some_and(|o| o.lines.is_empty()) {
                out.opened = None;
            } else if let Some(o) = &mut out.opened {
                o.loading = false;
            }
        }
        self.touch(i);
    }

    fn output_entry(&self, output_id: &str) -> Option<usize> {
        self.entries.iter().rposition(|e| {
            matches!(e, Entry::Tool { result: Some(ToolResult { output: Some(r), .. }), .. }
                if r.output_id == output_id)
        })
    }

    /// Replaces the transcript with a session's stored history.
    pub fn load_history(&mut self, messages: &[HistoryMessage]) {
        self.clear();
        for m in messages {
            if m.role == "user" {
                self.user(&m.text, vec![]);
                continue;
            }
            for t in &m.tool_calls {
                self.entries.push(Entry::Tool {
                    request_id: None,
                    step: 0,
                    tool: sanitize(&t.tool),
                    args: upload_names(&sanitize(&t.args.to_string())).into_owned(),
                    result: Some(ToolResult {
                        ok: t.ok,
                        duration_ms: t.duration_ms,
                        summary: upload_names(&sanitize(&t.summary)).into_owned(),
                        output: t.output.clone(),
                    }),
                    out: ToolOut::default(),
                });
            }
            let mut doc = MdDoc::new(self.md);
            doc.push(&sanitize(&m.text));
            doc.finish();
            self.entries.push(Entry::Assistant {
                doc,
                request_id: None,
                done: true,
            });
        }
    }
}
