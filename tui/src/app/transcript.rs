//! The chat transcript model: user messages, streamed assistant answers (incremental
//! Markdown), tool call lines and system notices. All text stored here is already
//! sanitised; rendering lives in `ui::chat`, which keeps each entry's wrapped rows in
//! `rows` (invalidated here whenever an entry changes) so a frame re-wraps only what changed.

use std::cell::RefCell;

use protocol::{HistoryMessage, RequestId};
use ratatui::text::Line;

use crate::markdown::{MdDoc, MdStyles};
use crate::sanitize::sanitize;

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
            text: sanitize(text),
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
            args: sanitize(&args.to_string()),
            result: None,
        });
    }

    pub fn tool_result(&mut self, id: Option<RequestId>, step: u32, tool: &str, r: ToolResult) {
        let tool = sanitize(tool);
        let r = ToolResult {
            summary: sanitize(&r.summary),
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
            }),
        }
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
                    args: sanitize(&t.args.to_string()),
                    result: Some(ToolResult {
                        ok: t.ok,
                        duration_ms: t.duration_ms,
                        summary: sanitize(&t.summary),
                    }),
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
