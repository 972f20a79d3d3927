//! The planner's views of typed tool results that several answers share: a page read (of a
//! file or of a stored output) and a command's run (to its end or followed).

use llmops_tooldata::ToolData;

/// What a `file_read` step shows of a file: every field is absent for a kind of data that
/// has none (an analysis has a path but no page, a stored output a page but no path).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PageView<'a> {
    pub path: Option<&'a str>,
    pub lines: Option<&'a [String]>,
    pub offset: u64,
    pub limit: Option<u64>,
    pub total_lines: Option<u64>,
    /// Lines after this page.
    pub more_lines: u64,
}

impl<'a> PageView<'a> {
    pub fn of(data: &'a ToolData) -> PageView<'a> {
        match data {
            ToolData::Page(p) => PageView {
                path: Some(&p.path),
                lines: Some(&p.lines),
                offset: p.offset,
                limit: Some(p.limit),
                total_lines: Some(p.total_lines),
                more_lines: p.more_lines,
            },
            ToolData::StoredPage(p) => PageView {
                path: None,
                lines: Some(&p.lines),
                offset: p.offset,
                limit: None,
                total_lines: Some(p.total_lines),
                more_lines: p.more_lines,
            },
            ToolData::Analysis(a) => PageView {
                path: Some(&a.path),
                ..PageView::default()
            },
            _ => PageView::default(),
        }
    }

    /// Lines shown, when the data is a page.
    pub fn shown(&self) -> Option<u64> {
        self.lines.map(|l| l.len() as u64)
    }

    /// The page's lines as one text (empty when the data is no page).
    pub fn text(&self) -> String {
        self.lines.map(|l| l.join("\n")).unwrap_or_default()
    }
}

/// A `command_executor` run, to its end or followed (`tail -f`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct RunView<'a> {
    pub command: &'a str,
    pub cwd: &'a str,
    pub stdout: &'a str,
    pub stderr: &'a str,
    /// `None` when killed or ended by a signal (or still running at a follow's end).
    pub exit_code: Option<i32>,
    pub truncated: bool,
}

impl<'a> RunView<'a> {
    pub fn of(data: &'a ToolData) -> Option<RunView<'a>> {
        match data {
            ToolData::Command(c) => Some(RunView {
                command: &c.command,
                cwd: &c.cwd,
                stdout: &c.stdout,
                stderr: &c.stderr,
                exit_code: c.exit_code,
                truncated: c.truncated,
            }),
            ToolData::Follow(f) => Some(RunView {
                command: &f.command,
                cwd: &f.cwd,
                stdout: &f.stdout,
                stderr: &f.stderr,
                exit_code: f.exit_code,
                truncated: f.truncated,
            }),
            _ => None,
        }
    }
}
