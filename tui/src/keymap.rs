//! Key bindings: the one table that maps keys to `Action`s per context. `update` asks it
//! what a key means; the status-bar hints and the `?` help overlay are generated from it, so
//! they cannot drift from the real bindings. No default binding on Ctrl+B or Ctrl+A (tmux
//! and screen prefixes).

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

pub use crate::app::pager::PagerOp;

mod table;

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
    fn default() -> Self {
        Keymap {
            bindings: table::bindings(),
        }
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
    fn alt_digits_focus_the_panes_in_their_order() {
        let km = Keymap::default();
        let st = InputState::default();
        for (i, p) in Pane::ALL.iter().enumerate() {
            let digit = char::from(b'1' + i as u8);
            let got = km.lookup(Ctx::Files, &key(KeyCode::Char(digit), ALT), &st);
            assert_eq!(got, Some(Action::Focus(*p)), "Alt+{digit}");
        }
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
