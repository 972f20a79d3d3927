//! Key bindings: the one table that maps keys to `Action`s per context. `update` asks it
//! what a key means; the status-bar hints and the `?` help overlay are generated from it, so
//! they cannot drift from the real bindings. No default binding on Ctrl+B or Ctrl+A (tmux
//! and screen prefixes).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub use crate::app::pager::PagerOp;

/// Which pane a focus action targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pane {
    Chat,
    Files,
    Search,
    Gauges,
    Transfers,
}

impl Pane {
    pub const ALL: [Pane; 5] = [
        Pane::Chat,
        Pane::Files,
        Pane::Search,
        Pane::Gauges,
        Pane::Transfers,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Pane::Chat => "Chat",
            Pane::Files => "Files",
            Pane::Search => "Search",
            Pane::Gauges => "System",
            Pane::Transfers => "Transfers",
        }
    }
}

/// Shell-style editing of the focused input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Edit {
    KillToStart,
    KillToEnd,
    KillWord,
    Yank,
    Undo,
    Redo,
    LineStart,
    LineEnd,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Edit(Edit),
    /// A key of the full-screen pager.
    Pager(PagerOp),
    /// Chat: select the previous / next transcript entry (Enter then opens it in the pager).
    SelectPrev,
    SelectNext,
    /// Chat: search the whole transcript (opens the pager with its search prompt).
    SearchTranscript,
    /// Search pane: open the selected hit (its region in the pager).
    OpenHit,
    /// Session picker: delete (asks first) / rename the selected session.
    PickerDelete,
    PickerRename,
    /// Mistyped command: run the suggested one.
    RunSuggestion,
    /// Processes list: sort by CPU or by memory.
    ToggleSort,
    /// Processes list or details: ask the agent about the process.
    AskAbout,
    /// Processes list: open the selected process's details.
    Details,
    /// Processes list or details: choose a signal to propose for the process.
    Signal,
    /// Processes list: parents above their children, or a flat list.
    ToggleTree,
    /// Processes list: typing edits the filter (until Enter or Esc).
    FilterStart,
    /// Processes list: Enter ends the filter editing, keeping the filter.
    FilterDone,
    /// Processes list: clear the filter, or back to chat when there is none.
    ClearFilter,
    /// Ctrl+C: cancel the running turn; when idle, a second press within 2 s quits.
    Interrupt,
    Suspend,
    Redraw,
    Help,
    FocusNext,
    FocusPrev,
    Focus(Pane),
    Send,
    Newline,
    HistoryPrev,
    HistoryNext,
    Complete,
    PageUp,
    PageDown,
    ScrollUp,
    ScrollDown,
    Top,
    Bottom,
    ToggleTools,
    /// Open, page or close the folded tool output in view.
    OpenOutput,
    Close,
    Up,
    Down,
    Reference,
    Delete,
    Download,
    OpenBrowser,
    Refresh,
    Accept,
    Reject,
    Yes,
    No,
    Open,
    Parent,
    ToggleHidden,
    ShowOffer,
    /// Approval modal: approve once / always (then choose the lifetime).
    ApproveOnce,
    ApproveAlways,
    GrantSession,
    GrantUntilRevoked,
}

/// Where a binding applies. `Any` also applies inside modal dialogs; `Panes` in any pane
/// when no dialog is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ctx {
    Any,
    Panes,
    Chat,
    Files,
    Search,
    Gauges,
    Transfers,
    Browser,
    Confirm,
    Offer,
    /// The save-as path prompt after accepting an offer.
    SaveAs,
    /// The progress view of an accepted download.
    Transfer,
    Note,
    Help,
    /// The full-screen pager (tool output, answer, transcript, search hit).
    Pager,
    /// The pager's search or save-as prompt.
    PagerPrompt,
    /// The `/sessions` picker.
    Picker,
    /// Typing a new session title in the picker.
    Rename,
    /// "Did you mean /xyz?" after a mistyped command.
    DidYouMean,
    /// An action waits for the operator's approval.
    Approval,
    /// The `/grants` list.
    Grants,
    /// Typing the processes filter (after `/`).
    ProcFilter,
    /// The details of one process.
    Process,
    /// Choosing the signal to propose.
    Signal,
    /// A running `/watch`.
    Watch,
}

impl Ctx {
    pub fn title(self) -> &'static str {
        match self {
            Ctx::Any => "Everywhere",
            Ctx::Panes => "Panes",
            Ctx::Chat => "Chat input",
            Ctx::Files => "Files pane",
            Ctx::Search => "Search pane",
            Ctx::Gauges => "System pane",
            Ctx::Transfers => "Transfers pane",
            Ctx::Browser => "File browser",
            Ctx::Confirm => "Confirmation",
            Ctx::Offer => "Download offer",
            Ctx::SaveAs => "Save download as",
            Ctx::Transfer => "Download progress",
            Ctx::Note => "Upload note",
            Ctx::Help => "Help",
            Ctx::Pager => "Pager",
            Ctx::PagerPrompt => "Pager prompt",
            Ctx::Picker => "Sessions",
            Ctx::Rename => "Rename session",
            Ctx::DidYouMean => "Did you mean",
            Ctx::Approval => "Approval needed",
            Ctx::Grants => "Standing grants",
            Ctx::ProcFilter => "Processes filter",
            Ctx::Process => "Process details",
            Ctx::Signal => "Send a signal",
            Ctx::Watch => "Watch",
        }
    }

    /// The Chinese title shown before the English one in the help overlay.
    pub fn title_zh(self) -> &'static str {
        match self {
            Ctx::Any => "全局",
            Ctx::Panes => "窗格",
            Ctx::Chat => "输入框",
            Ctx::Files => "文件",
            Ctx::Search => "搜索",
            Ctx::Gauges => "系统",
            Ctx::Transfers => "传输",
            Ctx::Browser => "本地文件",
            Ctx::Confirm => "确认",
            Ctx::Offer => "下载请求",
            Ctx::SaveAs => "另存为",
            Ctx::Transfer => "下载进度",
            Ctx::Note => "上传备注",
            Ctx::Help => "帮助",
            Ctx::Pager => "全屏查看",
            Ctx::PagerPrompt => "查看器输入",
            Ctx::Picker => "会话",
            Ctx::Rename => "重命名会话",
            Ctx::DidYouMean => "命令提示",
            Ctx::Approval => "需要批准",
            Ctx::Grants => "长期授权",
            Ctx::ProcFilter => "进程过滤",
            Ctx::Process => "进程详情",
            Ctx::Signal => "发送信号",
            Ctx::Watch => "监视",
        }
    }

    fn is_modal(self) -> bool {
        matches!(
            self,
            Ctx::Browser
                | Ctx::Confirm
                | Ctx::Offer
                | Ctx::SaveAs
                | Ctx::Transfer
                | Ctx::Note
                | Ctx::Help
                | Ctx::Pager
                | Ctx::PagerPrompt
                | Ctx::Picker
                | Ctx::Rename
                | Ctx::DidYouMean
                | Ctx::Approval
                | Ctx::Grants
                | Ctx::Process
                | Ctx::Signal
                | Ctx::Watch
        )
    }
}

/// Extra condition on a binding, checked against the editor's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    Always,
    /// The chat editor is empty (so Home/End/`?` are not needed for editing).
    InputEmpty,
    /// The editor holds one line (so Up/Down are free for history).
    SingleLine,
    /// The editor starts with `/`.
    Slash,
    /// The editor has text (Tab completes instead of moving focus).
    NonEmpty,
}

/// Editor facts the conditions look at.
#[derive(Debug, Clone, Copy, Default)]
pub struct InputState {
    pub empty: bool,
    pub single_line: bool,
    pub slash: bool,
}

#[derive(Debug, Clone)]
pub struct Binding {
    pub ctx: Ctx,
    pub code: KeyCode,
    pub mods: KeyModifiers,
    pub cond: Cond,
    pub action: Action,
    pub desc: &'static str,
    /// Shown in the status bar's hints.
    pub hint: bool,
}

#[derive(Debug, Clone)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

const NONE: KeyModifiers = KeyModifiers::NONE;
const CTRL: KeyModifiers = KeyModifiers::CONTROL;
const ALT: KeyModifiers = KeyModifiers::ALT;
const SHIFT: KeyModifiers = KeyModifiers::SHIFT;

impl Default for Keymap {
    // One binding per line reads as a table; rustfmt would split every call.
    #[rustfmt::skip]
    fn default() -> Self {
        use Action as A;
        use KeyCode as K;
        let mut b = Vec::new();
        let mut add = |ctx, code, mods, cond, action, desc, hint| {
            b.push(Binding {
                ctx,
                code,
                mods,
                cond,
                action,
                desc,
                hint,
            })
        };
        let al = Cond::Always;
        add(Ctx::Any, K::Char('c'), CTRL, al, A::Interrupt, "cancel turn / idle: twice in 2 s quits", false);
        add(Ctx::Any, K::Char('z'), CTRL, al, A::Suspend, "suspend to the shell", false);
        add(Ctx::Any, K::Char('l'), CTRL, al, A::Redraw, "redraw the screen", false);
        add(Ctx::Panes, K::F(1), NONE, al, A::Help, "help (all bindings)", false);
        add(Ctx::Panes, K::Tab, NONE, al, A::FocusNext, "next pane", true);
        add(Ctx::Panes, K::BackTab, SHIFT, al, A::FocusPrev, "previous pane", false);
        for (i, p) in Pane::ALL.iter().enumerate() {
            let digit = char::from(b'1' + i as u8);
            let desc = match p {
                Pane::Chat => "focus chat",
                Pane::Files => "focus files",
                Pane::Search => "focus search",
                Pane::Gauges => "focus system gauges",
                Pane::Transfers => "focus transfers",
            };
            add(Ctx::Panes, K::Char(digit), ALT, al, A::Focus(*p), desc, false);
        }
        add(Ctx::Panes, K::Char('o'), CTRL, al, A::ToggleTools, "expand/collapse tool calls", false);
        // Chat input.
        add(Ctx::Chat, K::Enter, NONE, Cond::InputEmpty, A::OpenOutput, "open the tool output in view (empty input)", false);
        add(Ctx::Chat, K::Enter, NONE, al, A::Send, "send", true);
        add(Ctx::Chat, K::Enter, ALT, al, A::Newline, "newline", true);
        add(Ctx::Chat, K::Enter, SHIFT, al, A::Newline, "newline (when reported)", false);
        add(Ctx::Chat, K::Tab, NONE, Cond::NonEmpty, A::Complete, "complete /command or /upload path", false);
        add(Ctx::Chat, K::Up, NONE, Cond::SingleLine, A::HistoryPrev, "previous input", false);
        add(Ctx::Chat, K::Down, NONE, Cond::SingleLine, A::HistoryNext, "next input", false);
        add(Ctx::Chat, K::PageUp, NONE, al, A::PageUp, "scroll transcript up", true);
        add(Ctx::Chat, K::PageDown, NONE, al, A::PageDown, "scroll transcript down", false);
        add(Ctx::Chat, K::Home, NONE, Cond::InputEmpty, A::Top, "transcript top (empty input)", false);
        add(Ctx::Chat, K::End, NONE, Cond::InputEmpty, A::Bottom, "follow the tail (empty input)", false);
        add(Ctx::Chat, K::Home, NONE, al, A::Edit(Edit::LineStart), "start of line", false);
        add(Ctx::Chat, K::End, NONE, al, A::Edit(Edit::LineEnd), "end of line", false);
        add(Ctx::Chat, K::Home, CTRL, al, A::Top, "transcript top", false);
        add(Ctx::Chat, K::End, CTRL, al, A::Bottom, "follow the tail", false);
        add(Ctx::Chat, K::Char('?'), NONE, Cond::InputEmpty, A::Help, "help", true);
        add(Ctx::Chat, K::Esc, NONE, al, A::Close, "dismiss the notice / clear the selection", false);
        add(Ctx::Chat, K::Up, ALT, al, A::SelectPrev, "select the previous message (Enter opens it)", false);
        add(Ctx::Chat, K::Down, ALT, al, A::SelectNext, "select the next message", false);
        add(Ctx::Chat, K::Char('f'), CTRL, al, A::SearchTranscript, "search the transcript", true);
        // Readline editing in every text input.
        for ctx in TEXT_INPUTS {
            add(ctx, K::Char('u'), CTRL, al, A::Edit(Edit::KillToStart), "delete to line start", false);
            add(ctx, K::Char('k'), CTRL, al, A::Edit(Edit::KillToEnd), "delete to line end", false);
            add(ctx, K::Char('e'), CTRL, al, A::Edit(Edit::LineEnd), "end of line", false);
            add(ctx, K::Char('w'), CTRL, al, A::Edit(Edit::KillWord), "delete the word before", false);
            add(ctx, K::Char('y'), CTRL, al, A::Edit(Edit::Yank), "paste what was deleted", false);
            add(ctx, K::Char('u'), ALT, al, A::Edit(Edit::Undo), "undo", false);
            add(ctx, K::Char('r'), CTRL, al, A::Edit(Edit::Redo), "redo", false);
        }
        // Files pane.
        add(Ctx::Files, K::Up, NONE, al, A::Up, "select previous", false);
        add(Ctx::Files, K::Down, NONE, al, A::Down, "select next", false);
        add(Ctx::Files, K::Char('k'), NONE, al, A::Up, "select previous", false);
        add(Ctx::Files, K::Char('j'), NONE, al, A::Down, "select next", false);
        add(Ctx::Files, K::Enter, NONE, al, A::Reference, "reference in next message", true);
        add(Ctx::Files, K::Char('r'), NONE, al, A::Reference, "reference in next message", false);
        add(Ctx::Files, K::Char('u'), NONE, al, A::OpenBrowser, "upload (local browser)", true);
        add(Ctx::Files, K::Char('d'), NONE, al, A::Delete, "delete (asks first)", true);
        add(Ctx::Files, K::Delete, NONE, al, A::Delete, "delete (asks first)", false);
        add(Ctx::Files, K::Char('w'), NONE, al, A::Download, "download", true);
        add(Ctx::Files, K::F(5), NONE, al, A::Refresh, "refresh", false);
        add(Ctx::Files, K::Char('g'), NONE, al, A::Refresh, "refresh", false);
        // Search pane.
        add(Ctx::Search, K::Up, NONE, al, A::Up, "previous hit", false);
        add(Ctx::Search, K::Down, NONE, al, A::Down, "next hit", true);
        add(Ctx::Search, K::Char('k'), NONE, al, A::Up, "previous hit", false);
        add(Ctx::Search, K::Char('j'), NONE, al, A::Down, "next hit", false);
        add(Ctx::Search, K::Enter, NONE, al, A::OpenHit, "open the hit (region, matches, download)", true);
        // Transfers pane.
        add(Ctx::Transfers, K::Up, NONE, al, A::Up, "select previous", false);
        add(Ctx::Transfers, K::Down, NONE, al, A::Down, "select next", false);
        add(Ctx::Transfers, K::Enter, NONE, al, A::ShowOffer, "open the offer or its progress", true);
        // System pane: the processes list.
        add(Ctx::Gauges, K::Up, NONE, al, A::Up, "previous process", false);
        add(Ctx::Gauges, K::Down, NONE, al, A::Down, "next process", false);
        add(Ctx::Gauges, K::Enter, NONE, al, A::Details, "details of the process", true);
        add(Ctx::Gauges, K::Char('/'), NONE, al, A::FilterStart, "filter (name, user, command line, pid)", true);
        add(Ctx::Gauges, K::Char('k'), NONE, al, A::Signal, "send a signal (asks for approval)", true);
        add(Ctx::Gauges, K::Char('t'), NONE, al, A::ToggleTree, "tree / flat list", true);
        add(Ctx::Gauges, K::Char('a'), NONE, al, A::AskAbout, "ask the agent about the process", true);
        add(Ctx::Gauges, K::F(2), NONE, al, A::ToggleSort, "sort by CPU / memory", false);
        add(Ctx::Gauges, K::Char('s'), CTRL, al, A::ToggleSort, "sort by CPU / memory", false);
        add(Ctx::Gauges, K::Esc, NONE, al, A::ClearFilter, "clear the filter, then back to chat", false);
        add(Ctx::ProcFilter, K::Enter, NONE, al, A::FilterDone, "keep the filter", true);
        add(Ctx::ProcFilter, K::Esc, NONE, al, A::ClearFilter, "clear the filter", true);
        add(Ctx::ProcFilter, K::Up, NONE, al, A::Up, "previous process", false);
        add(Ctx::ProcFilter, K::Down, NONE, al, A::Down, "next process", false);
        // Process details and the signal menu.
        add(Ctx::Process, K::Char('k'), NONE, al, A::Signal, "send a signal (asks for approval)", true);
        add(Ctx::Process, K::Char('a'), NONE, al, A::AskAbout, "ask the agent about it", true);
        add(Ctx::Process, K::Char('r'), NONE, al, A::Refresh, "read it again", true);
        add(Ctx::Process, K::Up, NONE, al, A::Up, "scroll", false);
        add(Ctx::Process, K::Down, NONE, al, A::Down, "scroll", false);
        add(Ctx::Process, K::PageUp, NONE, al, A::PageUp, "scroll", false);
        add(Ctx::Process, K::PageDown, NONE, al, A::PageDown, "scroll", false);
        add(Ctx::Process, K::Esc, NONE, al, A::Close, "close", true);
        add(Ctx::Process, K::Char('q'), NONE, al, A::Close, "close", false);
        add(Ctx::Signal, K::Up, NONE, al, A::Up, "previous signal", false);
        add(Ctx::Signal, K::Down, NONE, al, A::Down, "next signal", false);
        add(Ctx::Signal, K::Enter, NONE, al, A::Accept, "propose it (the approval dialog follows)", true);
        add(Ctx::Signal, K::Esc, NONE, al, A::Close, "cancel", true);
        // A running /watch.
        add(Ctx::Watch, K::Esc, NONE, al, A::Close, "stop watching", true);
        add(Ctx::Watch, K::Char('q'), NONE, al, A::Close, "stop watching", false);
        add(Ctx::Watch, K::Up, NONE, al, A::Up, "scroll", false);
        add(Ctx::Watch, K::Down, NONE, al, A::Down, "scroll", false);
        add(Ctx::Watch, K::PageUp, NONE, al, A::PageUp, "scroll", false);
        add(Ctx::Watch, K::PageDown, NONE, al, A::PageDown, "scroll", false);
        for ctx in [Ctx::Files, Ctx::Search, Ctx::Gauges, Ctx::Transfers] {
            add(ctx, K::Char('?'), NONE, al, A::Help, "help", true);
            add(ctx, K::Esc, NONE, al, A::Focus(Pane::Chat), "back to chat", false);
        }
        // Local file browser.
        add(Ctx::Browser, K::Up, NONE, al, A::Up, "select previous", false);
        add(Ctx::Browser, K::Down, NONE, al, A::Down, "select next", false);
        add(Ctx::Browser, K::Enter, NONE, al, A::Open, "open dir / pick file", true);
        add(Ctx::Browser, K::Left, NONE, al, A::Parent, "parent directory", true);
        add(Ctx::Browser, K::Char('h'), ALT, al, A::ToggleHidden, "show/hide hidden files", true);
        add(Ctx::Browser, K::F(2), NONE, al, A::ToggleHidden, "show/hide hidden files", false);
        add(Ctx::Browser, K::Esc, NONE, al, A::Close, "close", true);
        // Upload note.
        add(Ctx::Note, K::Enter, NONE, al, A::Send, "upload (with the note if any)", true);
        add(Ctx::Note, K::Esc, NONE, al, A::Close, "cancel the upload", true);
        // Confirmation.
        add(Ctx::Confirm, K::Char('y'), NONE, al, A::Yes, "yes", true);
        add(Ctx::Confirm, K::Enter, NONE, al, A::Yes, "yes", false);
        add(Ctx::Confirm, K::Char('n'), NONE, al, A::No, "no", true);
        add(Ctx::Confirm, K::Esc, NONE, al, A::No, "no", false);
        // Download offer.
        add(Ctx::Offer, K::Char('a'), NONE, al, A::Accept, "accept", true);
        add(Ctx::Offer, K::Char('y'), NONE, al, A::Accept, "accept", false);
        add(Ctx::Offer, K::Char('r'), NONE, al, A::Reject, "reject", true);
        add(Ctx::Offer, K::Char('n'), NONE, al, A::Reject, "reject", false);
        add(Ctx::Offer, K::Esc, NONE, al, A::Close, "decide later (Transfers pane)", true);
        // Approval: nothing is selected by default; Enter does nothing, Esc does not reject.
        add(Ctx::Approval, K::Char('o'), NONE, al, A::ApproveOnce, "approve once", true);
        add(Ctx::Approval, K::Char('a'), NONE, al, A::ApproveAlways, "always (then s/u)", true);
        add(Ctx::Approval, K::Char('s'), NONE, al, A::GrantSession, "always: this session", false);
        add(Ctx::Approval, K::Char('u'), NONE, al, A::GrantUntilRevoked, "always: until revoked", false);
        add(Ctx::Approval, K::Char('r'), NONE, al, A::Reject, "reject", true);
        add(Ctx::Approval, K::Esc, NONE, al, A::Close, "back from the lifetime choice", false);
        // Standing grants.
        add(Ctx::Grants, K::Up, NONE, al, A::Up, "previous", false);
        add(Ctx::Grants, K::Down, NONE, al, A::Down, "next", false);
        add(Ctx::Grants, K::Char('d'), NONE, al, A::Delete, "revoke", true);
        add(Ctx::Grants, K::Delete, NONE, al, A::Delete, "revoke", false);
        add(Ctx::Grants, K::Char('r'), NONE, al, A::Refresh, "refresh", true);
        add(Ctx::Grants, K::Esc, NONE, al, A::Close, "close", true);
        add(Ctx::SaveAs, K::Enter, NONE, al, A::Send, "download to this path", true);
        add(Ctx::SaveAs, K::Esc, NONE, al, A::Close, "back to the offer", true);
        add(Ctx::Transfer, K::Esc, NONE, al, A::Close, "close (a running download goes on)", true);
        add(Ctx::Transfer, K::Enter, NONE, al, A::Close, "close (a running download goes on)", false);
        add(Ctx::Transfer, K::Char('q'), NONE, al, A::Close, "close (a running download goes on)", false);
        // Pager.
        {
            use PagerOp as P;
            add(Ctx::Pager, K::Char('j'), NONE, al, A::Pager(P::Down(1)), "scroll down", false);
            add(Ctx::Pager, K::Down, NONE, al, A::Pager(P::Down(1)), "scroll down", false);
            add(Ctx::Pager, K::Char('k'), NONE, al, A::Pager(P::Up(1)), "scroll up", false);
            add(Ctx::Pager, K::Up, NONE, al, A::Pager(P::Up(1)), "scroll up", false);
            add(Ctx::Pager, K::PageDown, NONE, al, A::Pager(P::PageDown), "page down", false);
            add(Ctx::Pager, K::Char(' '), NONE, al, A::Pager(P::PageDown), "page down", false);
            add(Ctx::Pager, K::PageUp, NONE, al, A::Pager(P::PageUp), "page up", false);
            add(Ctx::Pager, K::Char('g'), NONE, al, A::Pager(P::Top), "top", false);
            add(Ctx::Pager, K::Home, NONE, al, A::Pager(P::Top), "top", false);
            add(Ctx::Pager, K::Char('G'), NONE, al, A::Pager(P::Bottom), "bottom", false);
            add(Ctx::Pager, K::End, NONE, al, A::Pager(P::Bottom), "bottom", false);
            add(Ctx::Pager, K::Char('/'), NONE, al, A::Pager(P::Find), "search", true);
            add(Ctx::Pager, K::Char('n'), NONE, al, A::Pager(P::Next), "next match", true);
            add(Ctx::Pager, K::Char('N'), NONE, al, A::Pager(P::Prev), "previous match", false);
            add(Ctx::Pager, K::Char('p'), NONE, al, A::Pager(P::Prev), "previous match", false);
            add(Ctx::Pager, K::Char('y'), NONE, al, A::Pager(P::Copy), "copy the text", true);
            add(Ctx::Pager, K::Char('Y'), NONE, al, A::Pager(P::CopyBlock), "copy the code block", false);
            add(Ctx::Pager, K::Char('s'), NONE, al, A::Pager(P::Save), "save to a file", true);
            add(Ctx::Pager, K::Char('d'), NONE, al, A::Pager(P::Download), "download the file (search hit)", false);
            add(Ctx::Pager, K::Char('q'), NONE, al, A::Close, "close", true);
            add(Ctx::Pager, K::Esc, NONE, al, A::Close, "close", false);
            add(Ctx::PagerPrompt, K::Enter, NONE, al, A::Send, "search / save", true);
            add(Ctx::PagerPrompt, K::Esc, NONE, al, A::Close, "cancel", true);
        }
        // Session picker (typing filters).
        add(Ctx::Picker, K::Up, NONE, al, A::Up, "select previous", false);
        add(Ctx::Picker, K::Down, NONE, al, A::Down, "select next", false);
        add(Ctx::Picker, K::Enter, NONE, al, A::Send, "switch to it", true);
        add(Ctx::Picker, K::Char('d'), CTRL, al, A::PickerDelete, "delete (asks first)", true);
        add(Ctx::Picker, K::Delete, NONE, al, A::PickerDelete, "delete (asks first)", false);
        add(Ctx::Picker, K::Char('r'), CTRL, al, A::PickerRename, "rename", true);
        add(Ctx::Picker, K::F(2), NONE, al, A::PickerRename, "rename", false);
        add(Ctx::Picker, K::Esc, NONE, al, A::Close, "clear the filter, then close", true);
        add(Ctx::Rename, K::Enter, NONE, al, A::Send, "save the title", true);
        add(Ctx::Rename, K::Esc, NONE, al, A::Close, "cancel", true);
        // Mistyped command.
        add(Ctx::DidYouMean, K::Char('y'), NONE, al, A::RunSuggestion, "run the suggested command", true);
        add(Ctx::DidYouMean, K::Enter, NONE, al, A::Send, "send it as a message", true);
        add(Ctx::DidYouMean, K::Esc, NONE, al, A::Close, "edit it", true);
        // Help overlay.
        add(Ctx::Help, K::Esc, NONE, al, A::Close, "close help", true);
        add(Ctx::Help, K::Char('?'), NONE, al, A::Close, "close help", false);
        add(Ctx::Help, K::Char('q'), NONE, al, A::Close, "close help", false);
        add(Ctx::Help, K::Up, NONE, al, A::ScrollUp, "scroll", false);
        add(Ctx::Help, K::Down, NONE, al, A::ScrollDown, "scroll", false);
        add(Ctx::Help, K::PageUp, NONE, al, A::PageUp, "scroll", false);
        add(Ctx::Help, K::PageDown, NONE, al, A::PageDown, "scroll", false);
        Keymap { bindings: b }
    }
}

/// Shift is implied by the character itself ('?' arrives as Shift+'?') and by BackTab.
fn norm_mods(code: KeyCode, mods: KeyModifiers) -> KeyModifiers {
    let m = mods & (CTRL | ALT | SHIFT);
    match code {
        KeyCode::Char(_) | KeyCode::BackTab => m - SHIFT,
        _ => m,
    }
}

fn cond_ok(c: Cond, s: &InputState) -> bool {
    match c {
        Cond::Always => true,
        Cond::InputEmpty => s.empty,
        Cond::SingleLine => s.single_line,
        Cond::Slash => s.slash,
        Cond::NonEmpty => !s.empty,
    }
}

/// Text inputs that take readline keys.
const TEXT_INPUTS: [Ctx; 5] = [
    Ctx::Chat,
    Ctx::Note,
    Ctx::SaveAs,
    Ctx::PagerPrompt,
    Ctx::Rename,
];

impl Keymap {
    /// The default keys plus Ctrl+A (start of line) when no terminal multiplexer runs:
    /// GNU screen (`STY`) and tmux (`TMUX`, whose prefix is often rebound to Ctrl+A) keep it.
    /// Home works everywhere.
    pub fn for_terminal(env: impl Fn(&str) -> Option<String>) -> Keymap {
        let mut km = Keymap::default();
        let multiplexed = env("STY").is_some() || env("TMUX").is_some();
        if !multiplexed {
            for ctx in TEXT_INPUTS {
                km.bindings.push(Binding {
                    ctx,
                    code: KeyCode::Char('a'),
                    mods: CTRL,
                    cond: Cond::Always,
                    action: Action::Edit(Edit::LineStart),
                    desc: "start of line (not under screen/tmux)",
                    hint: false,
                });
            }
        }
        km
    }

    /// The action for a key in `ctx`: the context's own bindings first, then the pane-wide
    /// ones (not inside dialogs), then those that apply everywhere.
    pub fn lookup(&self, ctx: Ctx, key: &KeyEvent, st: &InputState) -> Option<Action> {
        let mods = norm_mods(key.code, key.modifiers);
        let code = match key.code {
            // Ctrl+letter may arrive upper-case when Shift or Caps Lock is on.
            KeyCode::Char(c) if mods.contains(CTRL) => KeyCode::Char(c.to_ascii_lowercase()),
            c => c,
        };
        let mut order = vec![ctx];
        if !ctx.is_modal() {
            order.push(Ctx::Panes);
        }
        order.push(Ctx::Any);
        for c in order {
            for b in self.bindings.iter().filter(|b| b.ctx == c) {
                if b.code == code && norm_mods(b.code, b.mods) == mods && cond_ok(b.cond, st) {
                    return Some(b.action);
                }
            }
        }
        None
    }

    /// Short hints for the status bar: `(key label, description)` for `ctx`. The help key
    /// comes first: it leads to every other binding, so a narrow bar never drops it.
    pub fn hints(&self, ctx: Ctx) -> Vec<(String, &'static str)> {
        let mut out: Vec<(String, &'static str)> = Vec::new();
        for c in [ctx, Ctx::Panes] {
            if c == Ctx::Panes && ctx.is_modal() {
                continue;
            }
            for b in self.bindings.iter().filter(|b| b.ctx == c && b.hint) {
                if !out.iter().any(|(_, d)| *d == b.desc) {
                    out.push((key_label(b.code, b.mods), b.desc));
                }
            }
        }
        // Stable: the help key moves to the front, the rest keep their order.
        out.sort_by_key(|(_, d)| *d != "help");
        out
    }

    /// Every binding grouped by context, for the help overlay.
    pub fn help(&self) -> Vec<(Ctx, Vec<(String, &'static str)>)> {
        let order = [
            Ctx::Any,
            Ctx::Panes,
            Ctx::Chat,
            Ctx::Files,
            Ctx::Search,
            Ctx::Gauges,
            Ctx::ProcFilter,
            Ctx::Process,
            Ctx::Signal,
            Ctx::Watch,
            Ctx::Transfers,
            Ctx::Browser,
            Ctx::Note,
            Ctx::Confirm,
            Ctx::Offer,
            Ctx::Approval,
            Ctx::Grants,
            Ctx::SaveAs,
            Ctx::Transfer,
            Ctx::Pager,
            Ctx::PagerPrompt,
            Ctx::Picker,
            Ctx::Rename,
            Ctx::DidYouMean,
            Ctx::Help,
        ];
        order
            .iter()
            .map(|c| {
                let mut rows: Vec<(String, &'static str)> = Vec::new();
                for b in self.bindings.iter().filter(|b| b.ctx == *c) {
                    let label = key_label(b.code, b.mods);
                    // Merge keys that do the same thing: "k / Up  select previous".
                    if let Some(r) = rows.iter_mut().find(|r| r.1 == b.desc) {
                        r.0 = format!("{} / {label}", r.0);
                    } else {
                        rows.push((label, b.desc));
                    }
                }
                (*c, rows)
            })
            .collect()
    }
}

/// Human label of a key: `Ctrl+C`, `Alt+Enter`, `PgUp`, `?`.
pub fn key_label(code: KeyCode, mods: KeyModifiers) -> String {
    let mut s = String::new();
    if mods.contains(CTRL) {
        s.push_str("Ctrl+");
    }
    if mods.contains(ALT) {
        s.push_str("Alt+");
    }
    if mods.contains(SHIFT) && !matches!(code, KeyCode::Char(_) | KeyCode::BackTab) {
        s.push_str("Shift+");
    }
    let k = match code {
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) if mods.contains(CTRL) => c.to_ascii_uppercase().to_string(),
        KeyCode::Char(c) => c.to_string(),
        KeyCode::Enter => "Enter".into(),
        KeyCode::Tab => "Tab".into(),
        KeyCode::BackTab => "Shift+Tab".into(),
        KeyCode::Esc => "Esc".into(),
        KeyCode::Up => "Up".into(),
        KeyCode::Down => "Down".into(),
        KeyCode::Left => "Left".into(),
        KeyCode::Right => "Right".into(),
        KeyCode::PageUp => "PgUp".into(),
        KeyCode::PageDown => "PgDn".into(),
        KeyCode::Home => "Home".into(),
        KeyCode::End => "End".into(),
        KeyCode::Delete => "Del".into(),
        KeyCode::Backspace => "Backspace".into(),
        KeyCode::F(n) => format!("F{n}"),
        other => format!("{other:?}"),
    };
    s.push_str(&k);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, mods)
    }

    #[test]
    fn context_bindings_win_and_conditions_apply() {
        let km = Keymap::default();
        let st = InputState {
            empty: false,
            single_line: true,
            slash: true,
        };
        assert_eq!(
            km.lookup(Ctx::Chat, &key(KeyCode::Tab, NONE), &st),
            Some(Action::Complete)
        );
        let st2 = InputState { slash: false, ..st };
        // Text in the editor: Tab completes (never moves focus); empty: next pane.
        assert_eq!(
            km.lookup(Ctx::Chat, &key(KeyCode::Tab, NONE), &st2),
            Some(Action::Complete)
        );
        let empty = InputState { empty: true, ..st2 };
        assert_eq!(
            km.lookup(Ctx::Chat, &key(KeyCode::Tab, NONE), &empty),
            Some(Action::FocusNext)
        );
        // '?' types a character while the editor has text.
        assert_eq!(
            km.lookup(Ctx::Chat, &key(KeyCode::Char('?'), SHIFT), &st2),
            None
        );
        assert_eq!(
            km.lookup(Ctx::Files, &key(KeyCode::Char('?'), SHIFT), &st2),
            Some(Action::Help)
        );
        assert_eq!(
            km.lookup(Ctx::Offer, &key(KeyCode::Char('C'), CTRL | SHIFT), &st2),
            Some(Action::Interrupt)
        );
        // Dialogs do not let pane keys through.
        assert_eq!(
            km.lookup(Ctx::Confirm, &key(KeyCode::Tab, NONE), &st2),
            None
        );
    }

    #[test]
    fn ctrl_a_starts_the_line_only_outside_a_multiplexer() {
        let ctrl_a = |km: &Keymap| {
            km.bindings.iter().any(|b| {
                b.code == KeyCode::Char('a')
                    && b.mods == CTRL
                    && b.action == Action::Edit(Edit::LineStart)
            })
        };
        assert!(ctrl_a(&Keymap::for_terminal(|_| None)));
        assert!(!ctrl_a(&Keymap::for_terminal(
            |k| (k == "TMUX").then(|| "/tmp/tmux-0/default,1,0".into())
        )));
        assert!(!ctrl_a(&Keymap::for_terminal(
            |k| (k == "STY").then(|| "123.pts-0".into())
        )));
        // Ctrl+E and Home/End are always there.
        let km = Keymap::default();
        assert!(km.bindings.iter().any(|b| b.code == KeyCode::Char('e')
            && b.mods == CTRL
            && b.action == Action::Edit(Edit::LineEnd)));
    }

    #[test]
    fn no_default_binding_on_tmux_and_screen_prefixes() {
        let km = Keymap::default();
        for b in &km.bindings {
            let prefix =
                b.mods.contains(CTRL) && matches!(b.code, KeyCode::Char('a') | KeyCode::Char('b'));
            assert!(!prefix, "binding on {:?}", b);
        }
    }

    #[test]
    fn hints_and_help_come_from_the_table() {
        let km = Keymap::default();
        let hints = km.hints(Ctx::Chat);
        assert!(hints.iter().any(|(k, d)| k == "Enter" && *d == "send"));
        assert!(hints.iter().any(|(k, _)| k == "Alt+Enter"));
        // Every pane with a help key shows it first, so a narrow status bar keeps it.
        for ctx in [
            Ctx::Chat,
            Ctx::Gauges,
            Ctx::Files,
            Ctx::Search,
            Ctx::Transfers,
        ] {
            let first = km.hints(ctx).into_iter().next().expect("hints");
            assert_eq!(first.0, "?", "{ctx:?}: {first:?}");
        }
        let help = km.help();
        let total: usize = help.iter().map(|(_, r)| r.len()).sum();
        assert!(total > 30);
        assert_eq!(key_label(KeyCode::Char('c'), CTRL), "Ctrl+C");
    }
}
