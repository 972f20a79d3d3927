//! Ctrl+C: cancels a running turn, closes a dialog, clears a half-typed line (Ctrl+Y
//! brings it back), or (idle, empty input) arms a quit that a second Ctrl+C within
//! `QUIT_WINDOW` confirms; the hint goes away when the window closes. A Ctrl+C that
//! cancels a turn never quits.

use std::time::{Duration, Instant};

use super::turn::cancel_turn;
use super::{App, Command, Level};

/// How long an idle Ctrl+C waits for the second one.
pub const QUIT_WINDOW: Duration = Duration::from_secs(2);

/// The hint shown after the first idle Ctrl+C.
pub const QUIT_HINT: &str = "再按 Ctrl+C 退出（2 秒内）/ Ctrl+C again within 2 s quits (or /quit)";

/// Whether a first Ctrl+C at `armed` still counts at `now`.
pub fn armed_at(armed: Option<Instant>, now: Instant) -> bool {
    armed.is_some_and(|t| now.saturating_duration_since(t) <= QUIT_WINDOW)
}

pub(super) fn interrupt(app: &mut App, out: &mut Vec<Command>) {
    if app.turn.is_some() {
        app.quit_armed = None;
        cancel_turn(app, out);
    } else if app.modal.is_some() {
        app.quit_armed = None;
        if matches!(app.modal, Some(super::Modal::Watch)) {
            super::watch::stop(app);
        }
        app.modal = None;
    } else if !app.input_text().is_empty() {
        // Like a shell: the line is dropped, but kept for Ctrl+Y.
        app.quit_armed = None;
        let text = app.input_text();
        app.clear_input();
        app.input.set_yank_text(text);
        app.history_pos = None;
        app.note(Level::Info, CLEARED_HINT);
    } else if armed_at(app.quit_armed, app.now) {
        app.quit = true;
        out.push(Command::Quit);
    } else {
        app.quit_armed = Some(app.now);
        app.note_for(Level::Warn, QUIT_HINT, QUIT_WINDOW);
    }
}

/// The hint after Ctrl+C cleared the input.
pub const CLEARED_HINT: &str = "已清空输入，Ctrl+Y 恢复 / input cleared: Ctrl+Y brings it back";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::tests::{connected, ctrl, key, start_turn, submit};
    use crate::app::update;
    use ratatui::crossterm::event::KeyCode;

    #[test]
    fn idle_ctrl_c_asks_and_a_second_within_the_window_quits() {
        let mut a = connected();
        let t0 = a.now;
        assert!(update(&mut a, ctrl('c')).is_empty());
        assert!(!a.quit);
        assert_eq!(a.notice.as_ref().map(|n| n.1.as_str()), Some(QUIT_HINT));
        a.now = t0 + Duration::from_millis(1500);
        assert_eq!(update(&mut a, ctrl('c')), vec![Command::Quit]);
        assert!(a.quit);
    }

    #[test]
    fn a_second_ctrl_c_after_the_window_asks_again() {
        let mut a = connected();
        let t0 = a.now;
        update(&mut a, ctrl('c'));
        a.now = t0 + Duration::from_millis(2500);
        assert!(update(&mut a, ctrl('c')).is_empty());
        assert!(!a.quit);
        a.now = t0 + Duration::from_millis(3000);
        assert_eq!(update(&mut a, ctrl('c')), vec![Command::Quit]);
    }

    #[test]
    fn another_key_between_disarms() {
        let mut a = connected();
        update(&mut a, ctrl('c'));
        update(&mut a, key(KeyCode::Char('x')));
        assert!(update(&mut a, ctrl('c')).is_empty());
        assert!(!a.quit);
    }

    #[test]
    fn ctrl_c_that_cancels_a_turn_never_quits_and_does_not_arm() {
        let mut a = connected();
        start_turn(&mut a, "long", 3);
        let cmds = update(&mut a, ctrl('c'));
        assert!(!cmds.contains(&Command::Quit));
        // The turn ends (cancelled) right away: the next Ctrl+C only asks.
        a.turn = None;
        assert!(update(&mut a, ctrl('c')).is_empty());
        assert!(!a.quit);
    }

    #[test]
    fn slash_quit_quits_at_once() {
        let mut a = connected();
        assert_eq!(submit(&mut a, "/quit"), vec![Command::Quit]);
    }
}
