//! Shell-style editing in the chat input and the one-line prompts (readline kill/yank keys,
//! undo on Alt+U since Ctrl+U kills), and Tab completion: slash command names, and local
//! paths after `/upload`.

use std::path::{Path, PathBuf};

use tui_textarea::{CursorMove, TextArea};

use super::{slash, App, Level, Modal};
use crate::keymap::{Edit, Pane};

/// Candidates listed in the notice at most.
const MAX_SHOWN: usize = 12;

fn apply_to(t: &mut TextArea<'static>, e: Edit) -> bool {
    match e {
        Edit::KillToStart => t.delete_line_by_head(),
        Edit::KillToEnd => t.delete_line_by_end(),
        Edit::KillWord => t.delete_word(),
        Edit::Yank => t.paste(),
        Edit::Undo => t.undo(),
        Edit::Redo => t.redo(),
        Edit::LineStart => {
            t.move_cursor(CursorMove::Head);
            true
        }
        Edit::LineEnd => {
            t.move_cursor(CursorMove::End);
            true
        }
    }
}

/// Applies an editing key to the editor that has the keyboard.
pub(super) fn edit(app: &mut App, e: Edit) {
    match &mut app.modal {
        Some(Modal::Note { input, .. }) => {
            apply_to(input, e);
        }
        Some(Modal::SaveAs { input, error, .. }) => {
            if apply_to(input, e) {
                *error = None;
            }
        }
        Some(Modal::Pager(p)) => {
            if let Some(pr) = &mut p.prompt {
                apply_to(&mut pr.input, e);
            }
        }
        Some(Modal::Sessions(p)) => {
            if let Some(input) = &mut p.rename {
                apply_to(input, e);
            }
        }
        Some(_) => {}
        None => {
            app.focus = Pane::Chat;
            app.history_pos = None;
            apply_to(&mut app.input, e);
        }
    }
}

/// Tab in a non-empty chat input: never moves focus.
pub(super) fn complete(app: &mut App) {
    let text = app.input_text();
    if let Some(partial) = text.strip_prefix("/upload ") {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
        let c = complete_path(partial.trim_start(), &cwd);
        if let Some(p) = c.text {
            app.set_input(&format!("/upload {p}"));
        }
        match c.candidates.len() {
            0 if c.unchanged => app.note(
                Level::Warn,
                format!("没有匹配的路径 / no path matches {}", partial.trim()),
            ),
            0 => {}
            n => {
                let mut shown = c.candidates[..n.min(MAX_SHOWN)].join("  ");
                if n > MAX_SHOWN {
                    shown.push_str(&format!("  … (+{})", n - MAX_SHOWN));
                }
                app.note(Level::Info, shown);
            }
        }
        return;
    }
    if let Some(partial) = text.strip_prefix("/download ") {
        let names: Vec<(String, String)> = app
            .files
            .files
            .iter()
            .map(|f| (f.filename.clone(), f.file_id.clone()))
            .collect();
        let p = partial.trim();
        let hits: Vec<&(String, String)> = names
            .iter()
            .filter(|(n, id)| n.starts_with(p) || id.starts_with(p))
            .collect();
        match hits.as_slice() {
            [] => app.note(
                Level::Warn,
                format!("没有匹配的上传 / no upload matches {p}"),
            ),
            [(name, id)] => {
                app.set_input(&format!("/download {id}"));
                app.note(Level::Info, format!("{name} ({id})"));
            }
            many => {
                let shown: Vec<String> = many.iter().map(|(n, _)| n.clone()).collect();
                app.note(Level::Info, shown.join("  "));
            }
        }
        return;
    }
    if !text.starts_with('/') {
        return complete_upload_name(app, &text);
    }
    if text.contains(char::is_whitespace) {
        app.note(Level::Info, TAB_HELP);
        return;
    }
    let c = slash::complete(&text);
    if let Some(t) = &c.text {
        app.set_input(t);
    }
    if !c.candidates.is_empty() {
        app.note(Level::Info, c.candidates.join("  "));
    } else if c.text.is_none() {
        app.note(Level::Warn, format!("no command starts with {text}"));
    }
}

const TAB_HELP: &str = "Tab 补全 /命令、允许的命令名、/upload 路径和上传的文件名 / Tab completes /commands, allowed command names, /upload paths and upload names";

/// Whether the word starting at byte `start` of `text` is where a command name goes: the
/// first word of the message, or the first after a `|`.
fn command_position(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end();
    before.is_empty() || before.ends_with('|')
}

/// Tab in a message: completes the last word to the name of an upload of this session (the
/// server resolves upload names in questions) or, where a command goes (the start of the
/// message or after `|`), to a command the server allows (its whitelist, from WELCOME).
fn complete_upload_name(app: &mut App, text: &str) {
    let start = text.rfind(char::is_whitespace).map_or(0, |i| {
        i + text[i..].chars().next().map_or(1, char::len_utf8)
    });
    let word = &text[start..];
    if word.is_empty() {
        app.note(Level::Info, TAB_HELP);
        return;
    }
    let commands: &[String] = match &app.welcome {
        Some(w) if command_position(text, start) => &w.commands,
        _ => &[],
    };
    let mut names: Vec<String> = app
        .files
        .files
        .iter()
        .map(|f| f.filename.clone())
        .chain(commands.iter().cloned())
        .filter(|n| n.starts_with(word))
        .collect();
    names.sort();
    names.dedup();
    match names.as_slice() {
        [] => app.note(Level::Info, TAB_HELP),
        [one] => app.set_input(&format!("{}{one} ", &text[..start])),
        many => {
            let first = &many[0];
            let n = many[1..].iter().fold(first.len(), |n, m| {
                first
                    .char_indices()
                    .zip(m.chars())
                    .take_while(|((_, a), b)| a == b)
                    .last()
                    .map_or(0, |((i, a), _)| i + a.len_utf8())
                    .min(n)
            });
            if n > word.len() {
                app.set_input(&format!("{}{}", &text[..start], &first[..n]));
            }
            app.note(Level::Info, many.join("  "));
        }
    }
}

/// Result of completing a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathCompletion {
    /// The completed argument (spaces escaped), when it got longer.
    pub text: Option<String>,
    /// Names that match, when more than one does.
    pub candidates: Vec<String>,
    /// Nothing matched at all.
    pub unchanged: bool,
}

fn unescape(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace(' ', "\\ ")
}

/// Completes a local path typed after `/upload` (relative to `cwd`, `~/` is home):
/// a single match is completed (`/` after a folder, a space after a file), several are
/// completed to their common prefix and listed. Hidden names only when asked for (`.`).
pub fn complete_path(partial: &str, cwd: &Path) -> PathCompletion {
    let none = |unchanged| PathCompletion {
        text: None,
        candidates: vec![],
        unchanged,
    };
    // Past the path (a note is being typed): nothing to complete.
    if partial.contains(' ') && !partial.contains("\\ ") {
        return none(false);
    }
    let raw = unescape(partial);
    let (dir_part, prefix) = match raw.rfind('/') {
        Some(i) => (&raw[..=i], &raw[i + 1..]),
        None => ("", raw.as_str()),
    };
    let dir = if let Some(rest) = dir_part.strip_prefix("~/") {
        dirs::home_dir().unwrap_or_default().join(rest)
    } else if dir_part.is_empty() {
        cwd.to_path_buf()
    } else {
        cwd.join(dir_part)
    };
    let Ok(rd) = std::fs::read_dir(&dir) else {
        return none(true);
    };
    let mut matches: Vec<(String, bool)> = rd
        .filter_map(Result::ok)
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let is_dir = e.path().is_dir();
            (name.starts_with(prefix) && (prefix.starts_with('.') || !name.starts_with('.')))
                .then_some((name, is_dir))
        })
        .collect();
    matches.sort();
    match matches.as_slice() {
        [] => none(true),
        [(name, is_dir)] => {
            let tail = if *is_dir { "/" } else { " " };
            PathCompletion {
                text: Some(format!("{}{}{tail}", escape(dir_part), escape(name))),
                candidates: vec![],
                unchanged: false,
            }
        }
        many => {
            let first = &many[0].0;
            let mut n = first.len();
            for (m, _) in &many[1..] {
                n = n.min(
                    first
                        .char_indices()
                        .zip(m.chars())
                        .take_while(|((_, a), b)| a == b)
                        .last()
                        .map_or(0, |((i, a), _)| i + a.len_utf8()),
                );
            }
            let text =
                (n > prefix.len()).then(|| format!("{}{}", escape(dir_part), escape(&first[..n])));
            PathCompletion {
                text,
                candidates: many
                    .iter()
                    .map(|(m, d)| if *d { format!("{m}/") } else { m.clone() })
                    .collect(),
                unchanged: false,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::{connected, ctrl, key, type_str};
    use crate::app::{update, AppEvent};
    use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

    fn alt(c: char) -> AppEvent {
        AppEvent::Key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::ALT))
    }

    #[test]
    fn readline_kill_and_yank() {
        let mut a = connected();
        type_str(&mut a, "hello big world");
        update(&mut a, ctrl('w'));
        assert_eq!(a.input_text(), "hello big ");
        update(&mut a, ctrl('u'));
        assert_eq!(a.input_text(), "");
        update(&mut a, ctrl('y'));
        assert_eq!(a.input_text(), "hello big ");
        update(&mut a, key(KeyCode::Home));
        update(&mut a, ctrl('k'));
        assert_eq!(a.input_text(), "");
        update(&mut a, ctrl('y'));
        assert_eq!(a.input_text(), "hello big ");
        // Undo is on Alt+U now.
        update(&mut a, alt('u'));
        assert_eq!(a.input_text(), "");
        update(&mut a, key(KeyCode::End));
        type_str(&mut a, "x");
        assert_eq!(a.input_text(), "x");
    }

    #[test]
    fn ctrl_u_kills_in_the_upload_note_too() {
        let mut a = connected();
        let mut input = TextArea::default();
        input.insert_str("what failed");
        a.modal = Some(Modal::Note {
            path: "/tmp/x.log".into(),
            input: Box::new(input),
        });
        update(&mut a, ctrl('u'));
        match &a.modal {
            Some(Modal::Note { input, .. }) => assert_eq!(input.lines().join(""), ""),
            _ => panic!("note closed"),
        }
    }

    #[test]
    fn tab_with_text_completes_and_never_moves_focus() {
        let mut a = connected();
        type_str(&mut a, "why is it slow");
        update(&mut a, key(KeyCode::Tab));
        assert_eq!(a.focus, Pane::Chat);
        assert_eq!(a.input_text(), "why is it slow");
        // Empty input: Tab moves focus.
        let mut b = connected();
        update(&mut b, key(KeyCode::Tab));
        assert_eq!(b.focus, Pane::Files);
        // A command name is completed.
        let mut c = connected();
        type_str(&mut c, "/up");
        update(&mut c, key(KeyCode::Tab));
        assert_eq!(c.input_text(), "/upload ");
    }

    fn file(id: &str, name: &str) -> protocol::FileInfo {
        protocol::FileInfo {
            file_id: id.into(),
            filename: name.into(),
            size: 10,
            sha256: "00".into(),
            content_type: "text/plain".into(),
            uploaded_at: String::new(),
            state: "ready".into(),
            detail: None,
        }
    }

    #[test]
    fn tab_completes_upload_names_in_messages_and_after_download() {
        let mut a = connected();
        a.files.files = vec![
            file("f1aa", "app.log"),
            file("f2bb", "app.log.1"),
            file("f3cc", "nginx.conf"),
        ];
        type_str(&mut a, "how many ERROR in ng");
        update(&mut a, key(KeyCode::Tab));
        assert_eq!(a.input_text(), "how many ERROR in nginx.conf ");
        let mut b = connected();
        b.files.files = a.files.files.clone();
        type_str(&mut b, "summarise ap");
        update(&mut b, key(KeyCode::Tab));
        assert_eq!(b.input_text(), "summarise app.log");
        assert!(b.notice.as_ref().is_some_and(|n| n.1.contains("app.log.1")));
        let mut c = connected();
        c.files.files = a.files.files.clone();
        type_str(&mut c, "/download ngi");
        update(&mut c, key(KeyCode::Tab));
        assert_eq!(c.input_text(), "/download f3cc");
        assert_eq!(c.focus, Pane::Chat);
    }

    #[test]
    fn tab_completes_allowed_command_names_where_a_command_goes() {
        // The welcome of `connected()` allows cat, df, du, free, journalctl, ps, ss, systemctl.
        let mut a = connected();
        type_str(&mut a, "journ");
        update(&mut a, key(KeyCode::Tab));
        assert_eq!(a.input_text(), "journalctl ");
        // Ambiguous: the common prefix, and the candidates in the notice.
        let mut b = connected();
        type_str(&mut b, "s");
        update(&mut b, key(KeyCode::Tab));
        assert_eq!(b.input_text(), "s");
        assert!(b.notice.as_ref().is_some_and(|n| n.1 == "ss  systemctl"));
        // After a pipe a command goes again; elsewhere in a sentence it does not.
        let mut c = connected();
        type_str(&mut c, "ps aux | fr");
        update(&mut c, key(KeyCode::Tab));
        assert_eq!(c.input_text(), "ps aux | free ");
        let mut d = connected();
        type_str(&mut d, "is the disk fr");
        update(&mut d, key(KeyCode::Tab));
        assert_eq!(d.input_text(), "is the disk fr");
        // A command the server does not allow is never offered.
        let mut e = connected();
        type_str(&mut e, "rm");
        update(&mut e, key(KeyCode::Tab));
        assert_eq!(e.input_text(), "rm");
        // An older server sends no list: nothing to complete, uploads still are.
        let mut f = connected();
        if let Some(w) = &mut f.welcome {
            w.commands.clear();
        }
        f.files.files = vec![file("f1", "df-report.txt")];
        type_str(&mut f, "df");
        update(&mut f, key(KeyCode::Tab));
        assert_eq!(f.input_text(), "df-report.txt ");
        assert_eq!(f.focus, Pane::Chat);
    }

    #[test]
    fn upload_paths_complete_from_the_file_system() {
        let d = tempfile::tempdir().expect("temp dir");
        std::fs::create_dir(d.path().join("logs")).expect("mkdir");
        std::fs::write(d.path().join("logs/app.log"), "x").expect("write");
        std::fs::write(d.path().join("logs/app.log.1"), "x").expect("write");
        std::fs::write(d.path().join("logs/my file.txt"), "x").expect("write");
        std::fs::write(d.path().join(".hidden"), "x").expect("write");
        let c = complete_path("lo", d.path());
        assert_eq!(c.text.as_deref(), Some("logs/"));
        let c = complete_path("logs/a", d.path());
        assert_eq!(c.text.as_deref(), Some("logs/app.log"));
        assert_eq!(c.candidates, vec!["app.log", "app.log.1"]);
        let c = complete_path("logs/m", d.path());
        assert_eq!(c.text.as_deref(), Some("logs/my\\ file.txt "));
        // Hidden names only when asked for; absolute paths work.
        let abs = format!("{}/", d.path().display());
        let c = complete_path(&abs, d.path());
        assert_eq!(c.candidates, Vec::<String>::new());
        assert_eq!(c.text, Some(format!("{abs}logs/")));
        let c = complete_path(&format!("{abs}.h"), d.path());
        assert_eq!(c.text, Some(format!("{abs}.hidden ")));
        assert!(complete_path("nope", d.path()).unchanged);
        // The completed path parses back to the real file.
        let line = format!(
            "/upload {}",
            complete_path("logs/m", d.path()).text.expect("t")
        );
        assert!(matches!(
            slash::parse(&line),
            Ok(slash::Slash::Upload { path, .. }) if path == std::path::Path::new("logs/my file.txt")
        ));
    }
}
