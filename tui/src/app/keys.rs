//! Keyboard, paste and mouse handling: keys go through the keymap to `Action`s, which
//! `on_action` applies (focus, scrolling, selection, history; Ctrl+C through `quit`).

use ratatui::crossterm::event::{KeyEvent, MouseEvent, MouseEventKind};
use tui_textarea::TextArea;

use super::submit::{answer_offer, ask_destination, confirm_destination, start_upload, submit};
use super::transcript::Level;
use super::{
    editing, pager, picker, procs, quit, short, App, Command, Confirm, Modal, Req, TransferState,
};
use crate::browser::Browser;
use crate::keymap::{Action, Pane};
use crate::sanitize::sanitize;

/// Enter on an empty input: opens (or pages, or closes) the stored output of the lowest
/// tool entry in view that has one.
fn open_output(app: &mut App, out: &mut Vec<Command>) {
    if let Some(i) = app.selected {
        return open_pager(app, i, out);
    }
    let (w, h) = crate::ui::transcript_size(app);
    let total = crate::ui::chat::line_count(app, w);
    let top = app
        .scroll
        .map_or(total.saturating_sub(h), |t| t.min(total.saturating_sub(h)));
    let in_view = crate::ui::chat::visible_entries(app, w, top, h);
    // A tool line in view, else the turn in view's own tool output (its answer may quote
    // "(48 more lines)" with the tool line scrolled away above it).
    let target = in_view
        .iter()
        .rev()
        .copied()
        .find(|&i| app.transcript.has_output(i))
        .or_else(|| {
            let last = *in_view.last()?;
            (0..=last)
                .rev()
                .take_while(|&i| {
                    !matches!(
                        app.transcript.entries.get(i),
                        Some(super::transcript::Entry::User { .. })
                    )
                })
                .find(|&i| app.transcript.has_output(i))
        });
    match target {
        Some(i) => {
            if let Some((output_id, offset)) = app.transcript.open_output(i) {
                out.push(Command::Request(Req::OutputPage { output_id, offset }));
            }
        }
        None => app.note(
            Level::Info,
            "no folded tool output in view: scroll to one (PageUp) and press Enter",
        ),
    }
}

/// Opens transcript entry `i` in the pager (a stored tool output starts loading).
fn open_pager(app: &mut App, i: usize, out: &mut Vec<Command>) {
    match pager::for_entry(app, i) {
        Some((p, req)) => {
            app.modal = Some(Modal::Pager(Box::new(p)));
            out.extend(req.map(Command::Request));
        }
        None => app.selected = None,
    }
}

/// Alt+Up / Alt+Down: moves the selection through the transcript and scrolls it into view.
fn select_entry(app: &mut App, d: isize) {
    let n = app.transcript.entries.len();
    if n == 0 {
        return;
    }
    let i = match app.selected.filter(|i| *i < n) {
        Some(i) => i.saturating_add_signed(d).min(n - 1),
        None => n - 1,
    };
    app.selected = Some(i);
    let (w, h) = crate::ui::transcript_size(app);
    let (start, len) = crate::ui::chat::entry_span(app, w, i);
    let (total, _) = chat_metrics(app);
    let max_top = total.saturating_sub(h);
    let top = app.scroll.unwrap_or(max_top).min(max_top);
    let new = if start < top {
        start
    } else if start + len > top + h {
        (start + len).saturating_sub(h).min(start)
    } else {
        top
    };
    app.scroll = if new >= max_top { None } else { Some(new) };
    app.note(
        Level::Info,
        "Enter 打开 / Enter opens it full-screen · Esc clears the selection",
    );
}

pub(super) fn on_paste(app: &mut App, s: &str) {
    // Pasted text keeps its newlines but loses control sequences and carriage returns.
    let clean = sanitize(&s.replace("\r\n", "\n").replace('\r', "\n"));
    match &mut app.modal {
        Some(Modal::Note { input, .. }) | Some(Modal::SaveAs { input, .. }) => {
            input.insert_str(clean.replace('\n', " "));
        }
        Some(Modal::Pager(p)) => {
            if let Some(pr) = &mut p.prompt {
                pr.input.insert_str(clean.replace('\n', " "));
            }
        }
        Some(Modal::Sessions(p)) => match &mut p.rename {
            Some(input) => {
                input.insert_str(clean.replace('\n', " "));
            }
            None => p.filter.push_str(&clean.replace('\n', " ")),
        },
        Some(Modal::Browser(b)) => {
            for c in clean.chars().filter(|c| !c.is_control()) {
                b.type_char(c);
            }
        }
        Some(_) => {}
        None => {
            app.focus = Pane::Chat;
            app.input.insert_str(clean);
        }
    }
}

pub(super) fn on_mouse(app: &mut App, m: MouseEvent) {
    match m.kind {
        MouseEventKind::ScrollUp => scroll_by(app, -3),
        MouseEventKind::ScrollDown => scroll_by(app, 3),
        _ => {}
    }
}

/// Transcript metrics for scrolling: (total wrapped lines, view height).
fn chat_metrics(app: &App) -> (usize, usize) {
    let (w, h) = crate::ui::transcript_size(app);
    (crate::ui::chat::line_count(app, w), h)
}

fn scroll_by(app: &mut App, delta: isize) {
    let (total, h) = chat_metrics(app);
    let max_top = total.saturating_sub(h);
    let top = app.scroll.unwrap_or(max_top).min(max_top);
    let new = top.saturating_add_signed(delta).min(max_top);
    app.scroll = if new >= max_top { None } else { Some(new) };
}

fn page(app: &App) -> isize {
    let (_, h) = crate::ui::transcript_size(app);
    h.saturating_sub(2).max(1) as isize
}

pub(super) fn on_key(app: &mut App, key: KeyEvent, out: &mut Vec<Command>) {
    let ctx = app.ctx();
    let st = app.input_state();
    let action = app.keymap.lookup(ctx, &key, &st);
    if action != Some(Action::Interrupt) {
        app.quit_armed = None;
    }
    match action {
        Some(a) => on_action(app, a, out),
        None => match &mut app.modal {
            Some(Modal::Note { input, .. }) => {
                input.input(key);
            }
            Some(Modal::SaveAs { input, error, .. }) => {
                // One line only: Enter is bound (confirm), so input never gets a newline.
                if input.input(key) {
                    *error = None;
                }
            }
            Some(Modal::Pager(p)) => {
                if let Some(pr) = &mut p.prompt {
                    if pr.input.input(key) {
                        pr.error = None;
                        pr.confirm = None;
                    }
                }
            }
            Some(Modal::Sessions(p)) if p.rename.is_some() => {
                if let Some(input) = &mut p.rename {
                    input.input(key);
                }
            }
            Some(Modal::Sessions(_)) => {
                use ratatui::crossterm::event::{KeyCode, KeyModifiers};
                let plain = !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                match key.code {
                    KeyCode::Char(c) if plain => picker::type_char(app, c),
                    KeyCode::Backspace => picker::backspace(app),
                    _ => {}
                }
            }
            Some(Modal::Browser(b)) => {
                use ratatui::crossterm::event::{KeyCode, KeyModifiers};
                let plain = !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                match key.code {
                    KeyCode::Char(c) if plain => b.type_char(c),
                    KeyCode::Backspace => b.backspace(),
                    _ => {}
                }
            }
            Some(_) => {}
            None => {
                use ratatui::crossterm::event::{KeyCode, KeyModifiers};
                let printable = matches!(key.code, KeyCode::Char(_))
                    && !key
                        .modifiers
                        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
                // After `/` in the System pane, typing edits the processes filter.
                if app.focus == Pane::Gauges && app.procs.filtering {
                    match key.code {
                        KeyCode::Char(c) if printable => return procs::type_char(app, c, out),
                        KeyCode::Backspace => return procs::backspace(app, out),
                        _ => return,
                    }
                }
                // Typing in another side pane goes to the chat editor rather than nowhere.
                if app.focus != Pane::Chat && printable {
                    app.focus = Pane::Chat;
                }
                if app.focus == Pane::Chat {
                    app.history_pos = None;
                    app.input.input(key);
                }
            }
        },
    }
}

fn on_action(app: &mut App, a: Action, out: &mut Vec<Command>) {
    if modal_took(app, a, out) {
        return;
    }
    match a {
        Action::Interrupt => quit::interrupt(app, out),
        Action::Suspend => out.push(Command::Suspend),
        Action::Redraw => out.push(Command::Redraw),
        Action::Help => app.modal = Some(Modal::Help { scroll: 0 }),
        Action::FocusNext | Action::FocusPrev => focus_step(app, a == Action::FocusNext),
        Action::Focus(p) => {
            app.focus = p;
            if p == Pane::Files && app.files.files.is_empty() {
                out.push(Command::Request(Req::FileList));
            }
        }
        Action::Send => on_send(app, out),
        Action::RunSuggestion => {
            if let Some(Modal::DidYouMean { text, suggestion }) = app.modal.take() {
                super::submit::run_suggestion(app, &text, suggestion, out);
            }
        }
        Action::Pager(o) => pager::op(app, o, out),
        Action::SelectPrev => select_entry(app, -1),
        Action::SelectNext => select_entry(app, 1),
        Action::SearchTranscript => pager::search_transcript(app),
        Action::OpenHit => super::hits::open(app, out),
        Action::PickerDelete => picker::ask_delete(app),
        Action::PickerRename => picker::start_rename(app),
        Action::Newline => {
            app.input.insert_newline();
        }
        Action::HistoryPrev => history_step(app, -1),
        Action::HistoryNext => history_step(app, 1),
        Action::Complete => editing::complete(app),
        Action::ToggleSort => procs::toggle_sort(app, out),
        Action::AskAbout => procs::ask(app, out),
        Action::ClearFilter => procs::escape(app, out),
        Action::Details => super::process::open_selected(app, out),
        Action::Signal => super::process::signal_selected(app),
        Action::ToggleTree => procs::toggle_tree(app, out),
        Action::FilterStart => procs::start_filter(app),
        Action::FilterDone => procs::end_filter(app),
        Action::Edit(e) => editing::edit(app, e),
        Action::PageUp | Action::PageDown | Action::ScrollUp | Action::ScrollDown => {
            scroll_action(app, a)
        }
        Action::Top => {
            let (total, h) = chat_metrics(app);
            app.scroll = (total > h).then_some(0);
        }
        Action::Bottom => app.scroll = None,
        Action::ToggleTools => {
            app.transcript.tools_expanded = !app.transcript.tools_expanded;
        }
        Action::OpenOutput => open_output(app, out),
        Action::Close => on_close(app),
        Action::Up | Action::Down => select_step(app, if a == Action::Up { -1 } else { 1 }),
        Action::Reference => toggle_reference(app),
        Action::Delete => ask_delete_file(app),
        Action::Download => ask_download(app, out),
        Action::OpenBrowser => {
            app.modal = Some(Modal::Browser(Browser::open(&app.browse_dir)));
        }
        Action::Refresh => out.push(Command::Request(Req::FileList)),
        Action::Accept => answer(app, Answer::Accept, out),
        Action::Reject => answer(app, Answer::Reject, out),
        Action::Yes => answer(app, Answer::Yes, out),
        Action::No => answer(app, Answer::No, out),
        Action::ShowOffer => show_offer(app),
        Action::Open => browser_action(app, BrowserKey::Open),
        Action::Parent => browser_action(app, BrowserKey::Parent),
        Action::ToggleHidden => browser_action(app, BrowserKey::ToggleHidden),
        // Only the approval modal uses these (handled in `modal_took`).
        Action::ApproveOnce
        | Action::ApproveAlways
        | Action::GrantSession
        | Action::GrantUntilRevoked => {}
    }
}

/// Views that read keys their own way first (approval, process, `/watch`, grants); true
/// when one of them took `a`.
fn modal_took(app: &mut App, a: Action, out: &mut Vec<Command>) -> bool {
    if matches!(app.modal, Some(Modal::Approval)) && super::approval::on_action(app, a, out) {
        return true;
    }
    if matches!(app.modal, Some(Modal::Process(_) | Modal::Signal(_)))
        && super::process::on_action(app, a, out)
    {
        return true;
    }
    if matches!(app.modal, Some(Modal::Watch)) && watch_action(app, a) {
        return true;
    }
    super::approval::on_grants_action(app, a, out)
}

/// Tab / Shift+Tab: the next (or previous) pane, wrapping around.
fn focus_step(app: &mut App, next: bool) {
    let i = Pane::ALL.iter().position(|p| *p == app.focus).unwrap_or(0);
    let n = Pane::ALL.len();
    let j = if next { (i + 1) % n } else { (i + n - 1) % n };
    app.focus = Pane::ALL[j];
}

/// Enter: confirms the open prompt, or sends the chat input when none is open.
fn on_send(app: &mut App, out: &mut Vec<Command>) {
    match app.modal.take() {
        Some(Modal::Note { path, input }) => {
            let note = input.lines().join(" ").trim().to_string();
            start_upload(app, path, note, out);
        }
        Some(Modal::SaveAs {
            offer_id, input, ..
        }) => {
            let typed = input.lines().join("");
            confirm_destination(app, offer_id, &typed, *input, out);
        }
        Some(Modal::Pager(p)) => {
            app.modal = Some(Modal::Pager(p));
            pager::prompt_enter(app);
        }
        Some(Modal::Sessions(p)) => {
            app.modal = Some(Modal::Sessions(p));
            picker::enter(app, out);
        }
        Some(Modal::DidYouMean { text, .. }) => {
            super::submit::send_anyway(app, text, out);
        }
        other => {
            app.modal = other;
            submit(app, out);
        }
    }
}

/// Esc: backs out of the open dialog one step, or clears the notice and the selection.
fn on_close(app: &mut App) {
    match app.modal.take() {
        Some(Modal::Note { path, .. }) => {
            app.note(
                Level::Info,
                format!("upload of {} cancelled", path.display()),
            );
        }
        Some(Modal::Offer { offer_id }) => {
            app.note(
                Level::Info,
                format!("offer {offer_id} is waiting in the Transfers pane (Alt+5)"),
            );
        }
        // Back from the path prompt to the offer: nothing was accepted yet.
        Some(Modal::SaveAs { offer_id, .. }) => app.modal = Some(Modal::Offer { offer_id }),
        Some(Modal::Transfer { .. }) => {
            app.note(
                Level::Info,
                "the download continues in the Transfers pane (Alt+5)",
            );
        }
        // Esc in a pager prompt closes the prompt, not the pager.
        Some(Modal::Pager(mut p)) => {
            if p.prompt.take().is_some() {
                app.modal = Some(Modal::Pager(p));
            }
        }
        Some(Modal::Sessions(p)) => {
            app.modal = Some(Modal::Sessions(p));
            picker::escape(app);
        }
        Some(Modal::DidYouMean { text, .. }) => app.set_input(&text),
        Some(_) => {}
        None => {
            app.notice = None;
            app.selected = None;
        }
    }
}

/// PageUp/PageDown/Up/Down as scrolling: of the help overlay when it is open, else of the
/// transcript.
fn scroll_action(app: &mut App, a: Action) {
    if let Some(Modal::Help { scroll }) = &mut app.modal {
        *scroll = match a {
            Action::PageUp => scroll.saturating_sub(10),
            Action::PageDown => scroll.saturating_add(10),
            Action::ScrollUp => scroll.saturating_sub(1),
            _ => scroll.saturating_add(1),
        };
    } else {
        let p = page(app);
        let d = match a {
            Action::PageUp => -p,
            Action::PageDown => p,
            Action::ScrollUp => -1,
            _ => 1,
        };
        scroll_by(app, d);
    }
}

/// Files pane Enter / `r`: the selected upload is (or no longer is) referenced by the next
/// message.
fn toggle_reference(app: &mut App) {
    let Some(f) = app.files.files.get(app.files.selected) else {
        return;
    };
    let id = f.file_id.clone();
    let name = f.filename.clone();
    if let Some(i) = app.files.referenced.iter().position(|r| *r == id) {
        app.files.referenced.remove(i);
        app.note(Level::Info, format!("{name} will not be referenced"));
    } else {
        app.files.referenced.push(id);
        app.note(
            Level::Info,
            format!("{name} will be referenced by your next message"),
        );
    }
}

/// Files pane `d`: asks before deleting the selected upload.
fn ask_delete_file(app: &mut App) {
    if let Some(f) = app.files.files.get(app.files.selected) {
        app.modal = Some(Modal::Confirm(Confirm {
            prompt: format!(
                "Delete the upload {} ({}) and its index entries?",
                sanitize(&f.filename),
                short(&f.file_id)
            ),
            on_yes: vec![Command::Request(Req::FileDelete(f.file_id.clone()))],
        }));
    }
}

/// Files pane `w`: asks the server to offer the selected upload for download.
fn ask_download(app: &mut App, out: &mut Vec<Command>) {
    if let Some(f) = app.files.files.get(app.files.selected) {
        out.push(Command::Request(Req::Download(f.file_id.clone())));
        app.note(
            Level::Info,
            format!("asking for a download offer of {}", sanitize(&f.filename)),
        );
    }
}

/// An answer to the open question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Answer {
    Accept,
    Reject,
    Yes,
    No,
}

/// Answers to the open question: accept/reject an offer, yes/no to a confirmation, the
/// overwrite question or the picker's delete.
fn answer(app: &mut App, a: Answer, out: &mut Vec<Command>) {
    match a {
        Answer::Accept | Answer::Reject => {
            if let Some(Modal::Offer { offer_id }) = app.modal.take() {
                if a == Answer::Accept {
                    ask_destination(app, offer_id, None);
                } else {
                    answer_offer(app, &offer_id, false, None, out);
                }
            }
        }
        Answer::Yes | Answer::No if matches!(app.modal, Some(Modal::Sessions(_))) => {
            picker::answer_delete(app, a == Answer::Yes, out);
        }
        Answer::Yes => match app.modal.take() {
            Some(Modal::Confirm(c)) => out.extend(c.on_yes),
            Some(Modal::Overwrite { offer_id, path, .. }) => {
                answer_offer(app, &offer_id, true, Some((path, true)), out);
            }
            other => app.modal = other,
        },
        Answer::No => match app.modal.take() {
            Some(Modal::Confirm(_)) => {
                super::submit::drop_asking(app);
                app.note(Level::Info, "cancelled");
            }
            Some(Modal::Overwrite { offer_id, path, .. }) => {
                // Back to the prompt with the same path, to pick another name.
                ask_destination(app, offer_id, Some(path.display().to_string()));
            }
            other => app.modal = other,
        },
    }
}

/// Opens the selected transfer from its pane: the offer to answer, else its progress or
/// result.
fn show_offer(app: &mut App) {
    if let Some(t) = app.transfers.get(app.transfer_selected) {
        let offer_id = t.offer.offer_id.clone();
        app.modal = Some(match t.state {
            TransferState::Offered => Modal::Offer { offer_id },
            // Anything else has a progress or result to look at.
            _ => Modal::Transfer { offer_id },
        });
    }
}

/// A key of the local file browser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum BrowserKey {
    Open,
    Parent,
    ToggleHidden,
}

/// Keys of the local file browser: open a directory or pick a file (then ask for a note),
/// go up, show or hide hidden files.
fn browser_action(app: &mut App, a: BrowserKey) {
    let Some(Modal::Browser(b)) = &mut app.modal else {
        return;
    };
    match a {
        BrowserKey::Open => {
            if let Some(path) = b.enter() {
                app.browse_dir = b.dir.clone();
                let mut input = TextArea::default();
                input.set_placeholder_text("optional: what should the agent do with it?");
                input.set_cursor_line_style(ratatui::style::Style::default());
                app.modal = Some(Modal::Note {
                    path,
                    input: Box::new(input),
                });
            }
        }
        BrowserKey::Parent => b.parent(),
        BrowserKey::ToggleHidden => b.toggle_hidden(),
    }
}

/// A key in the `/watch` view; true when it was one of its own.
fn watch_action(app: &mut App, a: Action) -> bool {
    let Some(w) = app.watch.as_mut() else {
        return false;
    };
    match a {
        Action::Close => super::watch::stop(app),
        Action::Up => w.scroll = w.scroll.saturating_sub(1),
        Action::Down => w.scroll = w.scroll.saturating_add(1),
        Action::PageUp => w.scroll = w.scroll.saturating_sub(10),
        Action::PageDown => w.scroll = w.scroll.saturating_add(10),
        _ => return false,
    }
    true
}

fn select_step(app: &mut App, d: isize) {
    let step = |i: usize, n: usize| -> usize {
        if n == 0 {
            0
        } else {
            i.saturating_add_signed(d).min(n - 1)
        }
    };
    if matches!(app.modal, Some(Modal::Sessions(_))) {
        return picker::step(app, d);
    }
    if let Some(Modal::Browser(b)) = &mut app.modal {
        if d < 0 {
            b.up()
        } else {
            b.down()
        }
        return;
    }
    match app.focus {
        Pane::Files => app.files.selected = step(app.files.selected, app.files.files.len()),
        Pane::Search => app.search.selected = step(app.search.selected, app.search.hits.len()),
        Pane::Transfers => app.transfer_selected = step(app.transfer_selected, app.transfers.len()),
        Pane::Gauges => procs::step(app, d),
        Pane::Chat => {}
    }
}

fn history_step(app: &mut App, d: isize) {
    if app.history.is_empty() {
        return;
    }
    let n = app.history.len();
    let pos = match (app.history_pos, d < 0) {
        (None, true) => {
            app.draft = app.input_text();
            Some(n - 1)
        }
        (None, false) => None,
        (Some(p), true) => Some(p.saturating_sub(1)),
        (Some(p), false) if p + 1 < n => Some(p + 1),
        (Some(_), false) => None,
    };
    app.history_pos = pos;
    let text = match pos {
        Some(p) => app.history[p].clone(),
        None => std::mem::take(&mut app.draft),
    };
    app.set_input(&text);
}
