//! Which session a script subcommand uses (one session everywhere): the one the
//! full-screen client last used on the server unless `--session` or `--new-session` says
//! otherwise, made on first use when there is none, and remembered afterwards.

use std::time::Duration;

use protocol::{Message, SessionCmd, SessionOp};

use super::args::Common;
use crate::client::Client;

/// Which session a script uses: `--session`, else (unless `--new-session`) the one the
/// full-screen client last used on this server (`last_sessions.json`), else none until one
/// is needed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionChoice {
    /// `--session ID`: must exist.
    Given(String),
    /// The remembered one (it may have been deleted since).
    Remembered(String),
    /// Nothing remembered: a session is made only if the command needs one.
    OnFirstUse,
    /// `--new-session`: a new one, as before.
    New,
}

impl SessionChoice {
    pub fn of(common: &Common, remembered: Option<String>) -> SessionChoice {
        match (&common.session, common.new_session, remembered) {
            (Some(s), _, _) => SessionChoice::Given(s.clone()),
            (None, true, _) => SessionChoice::New,
            (None, false, Some(r)) => SessionChoice::Remembered(r),
            (None, false, None) => SessionChoice::OnFirstUse,
        }
    }

    /// The session to resume in HELLO.
    pub fn resume(&self) -> Option<String> {
        match self {
            SessionChoice::Given(s) | SessionChoice::Remembered(s) => Some(s.clone()),
            SessionChoice::OnFirstUse | SessionChoice::New => None,
        }
    }

    /// Whether the session used (or made) is remembered for the next script and launch.
    pub fn remembers(&self) -> bool {
        matches!(
            self,
            SessionChoice::Remembered(_) | SessionChoice::OnFirstUse
        )
    }
}

/// The session this connection ended up in (one made on first use has no WELCOME of its
/// own: asked for once, `SESSION_CMD list`); empty when none was made.
pub async fn session_id(client: &Client) -> String {
    let known = client.session_id();
    if !known.is_empty() {
        return known;
    }
    let list = client
        .request(
            |id| {
                Message::SessionCmd(SessionCmd {
                    request_id: id,
                    op: SessionOp::List,
                })
            },
            Duration::from_secs(10),
        )
        .await;
    match list {
        Ok(Message::SessionReply(r)) => r.current.id,
        _ => String::new(),
    }
}

/// Records the session a script used as the last one on `server`, so the next script and
/// the next launch of the full-screen client continue it.
pub async fn remember(client: &Client, server: &str, state: Option<&std::path::Path>) {
    let Some(path) = state else { return };
    let sid = session_id(client).await;
    if sid.is_empty() {
        return;
    }
    if let Err(e) = crate::last_session::save(path, server, &sid) {
        errln!(
            "无法记录会话 / cannot remember the session in {}: {e}",
            path.display()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn common(session: Option<&str>, new_session: bool) -> Common {
        Common {
            server: "127.0.0.1:9999".into(),
            session: session.map(str::to_string),
            new_session,
            json: false,
            token: None,
        }
    }

    #[test]
    fn scripts_use_the_remembered_session_unless_told_otherwise() {
        let r = Some("3f2a".to_string());
        let c = SessionChoice::of(&common(None, false), r.clone());
        assert_eq!(c, SessionChoice::Remembered("3f2a".into()));
        assert_eq!(c.resume().as_deref(), Some("3f2a"));
        assert!(c.remembers());
        let c = SessionChoice::of(&common(Some("9e1"), false), r.clone());
        assert_eq!(c.resume().as_deref(), Some("9e1"));
        assert!(!c.remembers(), "an explicit --session is not remembered");
        let c = SessionChoice::of(&common(None, true), r);
        assert_eq!((c.resume(), c.remembers()), (None, false), "--new-session");
        let c = SessionChoice::of(&common(None, false), None);
        assert_eq!(c, SessionChoice::OnFirstUse);
        assert_eq!((c.resume(), c.remembers()), (None, true));
    }
}
