//! The default key bindings as data: one row per binding, grouped by what they serve. The
//! order is part of the meaning: within a context the first matching row wins (Enter on an
//! empty chat input opens the output before it would send), and help lists rows in it.

use ratatui::crossterm::event::{KeyCode as K, KeyModifiers};

use super::{Action as A, Binding, Cond, Ctx, Edit, PagerOp as P, Pane, TEXT_INPUTS};
use super::{ALT, CTRL, NONE, SHIFT};

/// Context, key, modifiers, condition, action, help text, shown in the status-bar hints.
type Row = (Ctx, K, KeyModifiers, Cond, A, &'static str, bool);
/// A row without its context, for keys bound alike in several contexts.
type Key = (K, KeyModifiers, Cond, A, &'static str, bool);

const AL: Cond = Cond::Always;

/// Every binding, in table order.
pub(super) fn bindings() -> Vec<Binding> {
    let mut b = Vec::new();
    let add = |b: &mut Vec<Binding>, table: &[Row]| b.extend(table.iter().copied().map(binding));
    // The same keys in each of `ctxs`, one context after the other.
    let add_in = |b: &mut Vec<Binding>, ctxs: &[Ctx], table: &[Key]| {
        for &ctx in ctxs {
            b.extend(table.iter().map(|&(code, mods, cond, action, desc, hint)| {
                binding((ctx, code, mods, cond, action, desc, hint))
            }));
        }
    };
    add(&mut b, GLOBAL);
    add(&mut b, CHAT);
    add_in(&mut b, &TEXT_INPUTS, READLINE);
    add(&mut b, SIDE_PANES);
    add(&mut b, PROCESS_VIEWS);
    add_in(&mut b, &SIDE_PANE_CTXS, SIDE_PANE_COMMON);
    add(&mut b, DIALOGS);
    add(&mut b, PAGER);
    add(&mut b, PICKER);
    add(&mut b, HELP);
    b
}

fn binding((ctx, code, mods, cond, action, desc, hint): Row) -> Binding {
    Binding {
        ctx,
        code,
        mods,
        cond,
        action,
        desc,
        hint,
    }
}

// One binding per line reads as a table; rustfmt would split every row.

/// Everywhere, and in every pane (Alt+digit follows `Pane::ALL`, as a test checks).
#[rustfmt::skip]
const GLOBAL: &[Row] = &[
    (Ctx::Any, K::Char('c'), CTRL, AL, A::Interrupt, "cancel turn / idle: twice in 2 s quits", false),
    (Ctx::Any, K::Char('z'), CTRL, AL, A::Suspend, "suspend to the shell", false),
    (Ctx::Any, K::Char('l'), CTRL, AL, A::Redraw, "redraw the screen", false),
    (Ctx::Panes, K::F(1), NONE, AL, A::Help, "help (all bindings)", false),
    (Ctx::Panes, K::Tab, NONE, AL, A::FocusNext, "next pane", true),
    (Ctx::Panes, K::BackTab, SHIFT, AL, A::FocusPrev, "previous pane", false),
    (Ctx::Panes, K::Char('1'), ALT, AL, A::Focus(Pane::Chat), "focus chat", false),
    (Ctx::Panes, K::Char('2'), ALT, AL, A::Focus(Pane::Files), "focus files", false),
    (Ctx::Panes, K::Char('3'), ALT, AL, A::Focus(Pane::Search), "focus search", false),
    (Ctx::Panes, K::Char('4'), ALT, AL, A::Focus(Pane::Gauges), "focus system gauges", false),
    (Ctx::Panes, K::Char('5'), ALT, AL, A::Focus(Pane::Transfers), "focus transfers", false),
    (Ctx::Panes, K::Char('o'), CTRL, AL, A::ToggleTools, "expand/collapse tool calls", false),
];

/// The chat input.
#[rustfmt::skip]
const CHAT: &[Row] = &[
    (Ctx::Chat, K::Enter, NONE, Cond::InputEmpty, A::OpenOutput, "open the tool output in view (empty input)", false),
    (Ctx::Chat, K::Enter, NONE, AL, A::Send, "send", true),
    (Ctx::Chat, K::Enter, ALT, AL, A::Newline, "newline", true),
    (Ctx::Chat, K::Enter, SHIFT, AL, A::Newline, "newline (when reported)", false),
    (Ctx::Chat, K::Tab, NONE, Cond::NonEmpty, A::Complete, "complete /command or /upload path", false),
    (Ctx::Chat, K::Up, NONE, Cond::SingleLine, A::HistoryPrev, "previous input", false),
    (Ctx::Chat, K::Down, NONE, Cond::SingleLine, A::HistoryNext, "next input", false),
    (Ctx::Chat, K::PageUp, NONE, AL, A::PageUp, "scroll transcript up", true),
    (Ctx::Chat, K::PageDown, NONE, AL, A::PageDown, "scroll transcript down", false),
    (Ctx::Chat, K::Home, NONE, Cond::InputEmpty, A::Top, "transcript top (empty input)", false),
    (Ctx::Chat, K::End, NONE, Cond::InputEmpty, A::Bottom, "follow the tail (empty input)", false),
    (Ctx::Chat, K::Home, NONE, AL, A::Edit(Edit::LineStart), "start of line", false),
    (Ctx::Chat, K::End, NONE, AL, A::Edit(Edit::LineEnd), "end of line", false),
    (Ctx::Chat, K::Home, CTRL, AL, A::Top, "transcript top", false),
    (Ctx::Chat, K::End, CTRL, AL, A::Bottom, "follow the tail", false),
    (Ctx::Chat, K::Char('?'), NONE, Cond::InputEmpty, A::Help, "help", true),
    (Ctx::Chat, K::Esc, NONE, AL, A::Close, "dismiss the notice / clear the selection", false),
    (Ctx::Chat, K::Up, ALT, AL, A::SelectPrev, "select the previous message (Enter opens it)", false),
    (Ctx::Chat, K::Down, ALT, AL, A::SelectNext, "select the next message", false),
    (Ctx::Chat, K::Char('f'), CTRL, AL, A::SearchTranscript, "search the transcript", true),
];

/// Readline editing in every text input.
#[rustfmt::skip]
const READLINE: &[Key] = &[
    (K::Char('u'), CTRL, AL, A::Edit(Edit::KillToStart), "delete to line start", false),
    (K::Char('k'), CTRL, AL, A::Edit(Edit::KillToEnd), "delete to line end", false),
    (K::Char('e'), CTRL, AL, A::Edit(Edit::LineEnd), "end of line", false),
    (K::Char('w'), CTRL, AL, A::Edit(Edit::KillWord), "delete the word before", false),
    (K::Char('y'), CTRL, AL, A::Edit(Edit::Yank), "paste what was deleted", false),
    (K::Char('u'), ALT, AL, A::Edit(Edit::Undo), "undo", false),
    (K::Char('r'), CTRL, AL, A::Edit(Edit::Redo), "redo", false),
];

/// The side panes: files, search hits, transfers, and the System pane's processes list.
#[rustfmt::skip]
const SIDE_PANES: &[Row] = &[
    // Files pane.
    (Ctx::Files, K::Up, NONE, AL, A::Up, "select previous", false),
    (Ctx::Files, K::Down, NONE, AL, A::Down, "select next", false),
    (Ctx::Files, K::Char('k'), NONE, AL, A::Up, "select previous", false),
    (Ctx::Files, K::Char('j'), NONE, AL, A::Down, "select next", false),
    (Ctx::Files, K::Enter, NONE, AL, A::Reference, "reference in next message", true),
    (Ctx::Files, K::Char('r'), NONE, AL, A::Reference, "reference in next message", false),
    (Ctx::Files, K::Char('u'), NONE, AL, A::OpenBrowser, "upload (local browser)", true),
    (Ctx::Files, K::Char('d'), NONE, AL, A::Delete, "delete (asks first)", true),
    (Ctx::Files, K::Delete, NONE, AL, A::Delete, "delete (asks first)", false),
    (Ctx::Files, K::Char('w'), NONE, AL, A::Download, "download", true),
    (Ctx::Files, K::F(5), NONE, AL, A::Refresh, "refresh", false),
    (Ctx::Files, K::Char('g'), NONE, AL, A::Refresh, "refresh", false),
    // Search pane.
    (Ctx::Search, K::Up, NONE, AL, A::Up, "previous hit", false),
    (Ctx::Search, K::Down, NONE, AL, A::Down, "next hit", true),
    (Ctx::Search, K::Char('k'), NONE, AL, A::Up, "previous hit", false),
    (Ctx::Search, K::Char('j'), NONE, AL, A::Down, "next hit", false),
    (Ctx::Search, K::Enter, NONE, AL, A::OpenHit, "open the hit (region, matches, download)", true),
    // Transfers pane.
    (Ctx::Transfers, K::Up, NONE, AL, A::Up, "select previous", false),
    (Ctx::Transfers, K::Down, NONE, AL, A::Down, "select next", false),
    (Ctx::Transfers, K::Enter, NONE, AL, A::ShowOffer, "open the offer or its progress", true),
    // System pane: the processes list.
    (Ctx::Gauges, K::Up, NONE, AL, A::Up, "previous process", false),
    (Ctx::Gauges, K::Down, NONE, AL, A::Down, "next process", false),
    (Ctx::Gauges, K::Enter, NONE, AL, A::Details, "details of the process", true),
    (Ctx::Gauges, K::Char('/'), NONE, AL, A::FilterStart, "filter (name, user, command line, pid)", true),
    (Ctx::Gauges, K::Char('k'), NONE, AL, A::Signal, "send a signal (asks for approval)", true),
    (Ctx::Gauges, K::Char('t'), NONE, AL, A::ToggleTree, "tree / flat list", true),
    (Ctx::Gauges, K::Char('a'), NONE, AL, A::AskAbout, "ask the agent about the process", true),
    (Ctx::Gauges, K::F(2), NONE, AL, A::ToggleSort, "sort by CPU / memory", false),
    (Ctx::Gauges, K::Char('s'), CTRL, AL, A::ToggleSort, "sort by CPU / memory", false),
    (Ctx::Gauges, K::Esc, NONE, AL, A::ClearFilter, "clear the filter, then back to chat", false),
    (Ctx::ProcFilter, K::Enter, NONE, AL, A::FilterDone, "keep the filter", true),
    (Ctx::ProcFilter, K::Esc, NONE, AL, A::ClearFilter, "clear the filter", true),
    (Ctx::ProcFilter, K::Up, NONE, AL, A::Up, "previous process", false),
    (Ctx::ProcFilter, K::Down, NONE, AL, A::Down, "next process", false),
];

/// Process details, the signal menu and a running `/watch`.
#[rustfmt::skip]
const PROCESS_VIEWS: &[Row] = &[
    // Process details and the signal menu.
    (Ctx::Process, K::Char('k'), NONE, AL, A::Signal, "send a signal (asks for approval)", true),
    (Ctx::Process, K::Char('a'), NONE, AL, A::AskAbout, "ask the agent about it", true),
    (Ctx::Process, K::Char('r'), NONE, AL, A::Refresh, "read it again", true),
    (Ctx::Process, K::Up, NONE, AL, A::Up, "scroll", false),
    (Ctx::Process, K::Down, NONE, AL, A::Down, "scroll", false),
    (Ctx::Process, K::PageUp, NONE, AL, A::PageUp, "scroll", false),
    (Ctx::Process, K::PageDown, NONE, AL, A::PageDown, "scroll", false),
    (Ctx::Process, K::Esc, NONE, AL, A::Close, "close", true),
    (Ctx::Process, K::Char('q'), NONE, AL, A::Close, "close", false),
    (Ctx::Signal, K::Up, NONE, AL, A::Up, "previous signal", false),
    (Ctx::Signal, K::Down, NONE, AL, A::Down, "next signal", false),
    (Ctx::Signal, K::Enter, NONE, AL, A::Accept, "propose it (the approval dialog follows)", true),
    (Ctx::Signal, K::Esc, NONE, AL, A::Close, "cancel", true),
    // A running /watch.
    (Ctx::Watch, K::Esc, NONE, AL, A::Close, "stop watching", true),
    (Ctx::Watch, K::Char('q'), NONE, AL, A::Close, "stop watching", false),
    (Ctx::Watch, K::Up, NONE, AL, A::Up, "scroll", false),
    (Ctx::Watch, K::Down, NONE, AL, A::Down, "scroll", false),
    (Ctx::Watch, K::PageUp, NONE, AL, A::PageUp, "scroll", false),
    (Ctx::Watch, K::PageDown, NONE, AL, A::PageDown, "scroll", false),
];

/// The side panes, which share `SIDE_PANE_COMMON`.
const SIDE_PANE_CTXS: [Ctx; 4] = [Ctx::Files, Ctx::Search, Ctx::Gauges, Ctx::Transfers];

/// Help and the way back to the chat, in each side pane.
#[rustfmt::skip]
const SIDE_PANE_COMMON: &[Key] = &[
    (K::Char('?'), NONE, AL, A::Help, "help", true),
    (K::Esc, NONE, AL, A::Focus(Pane::Chat), "back to chat", false),
];

/// Dialogs: the file browser, upload note, confirmation, offer, approval, grants, save-as
/// prompt and transfer view.
#[rustfmt::skip]
const DIALOGS: &[Row] = &[
    // Local file browser.
    (Ctx::Browser, K::Up, NONE, AL, A::Up, "select previous", false),
    (Ctx::Browser, K::Down, NONE, AL, A::Down, "select next", false),
    (Ctx::Browser, K::Enter, NONE, AL, A::Open, "open dir / pick file", true),
    (Ctx::Browser, K::Left, NONE, AL, A::Parent, "parent directory", true),
    (Ctx::Browser, K::Char('h'), ALT, AL, A::ToggleHidden, "show/hide hidden files", true),
    (Ctx::Browser, K::F(2), NONE, AL, A::ToggleHidden, "show/hide hidden files", false),
    (Ctx::Browser, K::Esc, NONE, AL, A::Close, "close", true),
    // Upload note.
    (Ctx::Note, K::Enter, NONE, AL, A::Send, "upload (with the note if any)", true),
    (Ctx::Note, K::Esc, NONE, AL, A::Close, "cancel the upload", true),
    // Confirmation.
    (Ctx::Confirm, K::Char('y'), NONE, AL, A::Yes, "yes", true),
    (Ctx::Confirm, K::Enter, NONE, AL, A::Yes, "yes", false),
    (Ctx::Confirm, K::Char('n'), NONE, AL, A::No, "no", true),
    (Ctx::Confirm, K::Esc, NONE, AL, A::No, "no", false),
    // Download offer.
    (Ctx::Offer, K::Char('a'), NONE, AL, A::Accept, "accept", true),
    (Ctx::Offer, K::Char('y'), NONE, AL, A::Accept, "accept", false),
    (Ctx::Offer, K::Char('r'), NONE, AL, A::Reject, "reject", true),
    (Ctx::Offer, K::Char('n'), NONE, AL, A::Reject, "reject", false),
    (Ctx::Offer, K::Esc, NONE, AL, A::Close, "decide later (Transfers pane)", true),
    // Approval: nothing is selected by default; Enter does nothing, Esc does not reject.
    (Ctx::Approval, K::Char('o'), NONE, AL, A::ApproveOnce, "approve once", true),
    (Ctx::Approval, K::Char('a'), NONE, AL, A::ApproveAlways, "always (then s/u)", true),
    (Ctx::Approval, K::Char('s'), NONE, AL, A::GrantSession, "always: this session", false),
    (Ctx::Approval, K::Char('u'), NONE, AL, A::GrantUntilRevoked, "always: until revoked", false),
    (Ctx::Approval, K::Char('r'), NONE, AL, A::Reject, "reject", true),
    (Ctx::Approval, K::Esc, NONE, AL, A::Close, "back from the lifetime choice", false),
    // Standing grants.
    (Ctx::Grants, K::Up, NONE, AL, A::Up, "previous", false),
    (Ctx::Grants, K::Down, NONE, AL, A::Down, "next", false),
    (Ctx::Grants, K::Char('d'), NONE, AL, A::Delete, "revoke", true),
    (Ctx::Grants, K::Delete, NONE, AL, A::Delete, "revoke", false),
    (Ctx::Grants, K::Char('r'), NONE, AL, A::Refresh, "refresh", true),
    (Ctx::Grants, K::Esc, NONE, AL, A::Close, "close", true),
    (Ctx::SaveAs, K::Enter, NONE, AL, A::Send, "download to this path", true),
    (Ctx::SaveAs, K::Esc, NONE, AL, A::Close, "back to the offer", true),
    (Ctx::Transfer, K::Esc, NONE, AL, A::Close, "close (a running download goes on)", true),
    (Ctx::Transfer, K::Enter, NONE, AL, A::Close, "close (a running download goes on)", false),
    (Ctx::Transfer, K::Char('q'), NONE, AL, A::Close, "close (a running download goes on)", false),
];

/// The pager and its search / save prompt.
#[rustfmt::skip]
const PAGER: &[Row] = &[
    (Ctx::Pager, K::Char('j'), NONE, AL, A::Pager(P::Down(1)), "scroll down", false),
    (Ctx::Pager, K::Down, NONE, AL, A::Pager(P::Down(1)), "scroll down", false),
    (Ctx::Pager, K::Char('k'), NONE, AL, A::Pager(P::Up(1)), "scroll up", false),
    (Ctx::Pager, K::Up, NONE, AL, A::Pager(P::Up(1)), "scroll up", false),
    (Ctx::Pager, K::PageDown, NONE, AL, A::Pager(P::PageDown), "page down", false),
    (Ctx::Pager, K::Char(' '), NONE, AL, A::Pager(P::PageDown), "page down", false),
    (Ctx::Pager, K::PageUp, NONE, AL, A::Pager(P::PageUp), "page up", false),
    (Ctx::Pager, K::Char('g'), NONE, AL, A::Pager(P::Top), "top", false),
    (Ctx::Pager, K::Home, NONE, AL, A::Pager(P::Top), "top", false),
    (Ctx::Pager, K::Char('G'), NONE, AL, A::Pager(P::Bottom), "bottom", false),
    (Ctx::Pager, K::End, NONE, AL, A::Pager(P::Bottom), "bottom", false),
    (Ctx::Pager, K::Char('/'), NONE, AL, A::Pager(P::Find), "search", true),
    (Ctx::Pager, K::Char('n'), NONE, AL, A::Pager(P::Next), "next match", true),
    (Ctx::Pager, K::Char('N'), NONE, AL, A::Pager(P::Prev), "previous match", false),
    (Ctx::Pager, K::Char('p'), NONE, AL, A::Pager(P::Prev), "previous match", false),
    (Ctx::Pager, K::Char('y'), NONE, AL, A::Pager(P::Copy), "copy the text", true),
    (Ctx::Pager, K::Char('Y'), NONE, AL, A::Pager(P::CopyBlock), "copy the code block", false),
    (Ctx::Pager, K::Char('s'), NONE, AL, A::Pager(P::Save), "save to a file", true),
    (Ctx::Pager, K::Char('d'), NONE, AL, A::Pager(P::Download), "download the file (search hit)", false),
    (Ctx::Pager, K::Char('q'), NONE, AL, A::Close, "close", true),
    (Ctx::Pager, K::Esc, NONE, AL, A::Close, "close", false),
    (Ctx::PagerPrompt, K::Enter, NONE, AL, A::Send, "search / save", true),
    (Ctx::PagerPrompt, K::Esc, NONE, AL, A::Close, "cancel", true),
];

/// The session picker (typing filters), its rename field, and the mistyped-command question.
#[rustfmt::skip]
const PICKER: &[Row] = &[
    // Session picker (typing filters).
    (Ctx::Picker, K::Up, NONE, AL, A::Up, "select previous", false),
    (Ctx::Picker, K::Down, NONE, AL, A::Down, "select next", false),
    (Ctx::Picker, K::Enter, NONE, AL, A::Send, "switch to it", true),
    (Ctx::Picker, K::Char('d'), CTRL, AL, A::PickerDelete, "delete (asks first)", true),
    (Ctx::Picker, K::Delete, NONE, AL, A::PickerDelete, "delete (asks first)", false),
    (Ctx::Picker, K::Char('r'), CTRL, AL, A::PickerRename, "rename", true),
    (Ctx::Picker, K::F(2), NONE, AL, A::PickerRename, "rename", false),
    (Ctx::Picker, K::Esc, NONE, AL, A::Close, "clear the filter, then close", true),
    (Ctx::Rename, K::Enter, NONE, AL, A::Send, "save the title", true),
    (Ctx::Rename, K::Esc, NONE, AL, A::Close, "cancel", true),
    // Mistyped command.
    (Ctx::DidYouMean, K::Char('y'), NONE, AL, A::RunSuggestion, "run the suggested command", true),
    (Ctx::DidYouMean, K::Enter, NONE, AL, A::Send, "send it as a message", true),
    (Ctx::DidYouMean, K::Esc, NONE, AL, A::Close, "edit it", true),
];

/// The help overlay.
#[rustfmt::skip]
const HELP: &[Row] = &[
    (Ctx::Help, K::Esc, NONE, AL, A::Close, "close help", true),
    (Ctx::Help, K::Char('?'), NONE, AL, A::Close, "close help", false),
    (Ctx::Help, K::Char('q'), NONE, AL, A::Close, "close help", false),
    (Ctx::Help, K::Up, NONE, AL, A::ScrollUp, "scroll", false),
    (Ctx::Help, K::Down, NONE, AL, A::ScrollDown, "scroll", false),
    (Ctx::Help, K::PageUp, NONE, AL, A::PageUp, "scroll", false),
    (Ctx::Help, K::PageDown, NONE, AL, A::PageDown, "scroll", false),
];
