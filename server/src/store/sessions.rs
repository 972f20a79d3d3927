//! Sessions in SQLite and who owns them: creating (full 128-bit random ids), listing,
//! resolving a prefix, renaming and deleting, each within one owner's sessions.
//!
//! An owner is the name of the auth token a client presented (`--auth-token NAME=TOKEN`),
//! or a local Unix user on the server's socket (`uid:N`, which no token name can be).
//! Sessions made with no token, with the unnamed token, or while sessions are shared
//! (`--shared-sessions`), and every session made before owners existed, belong to the
//! unnamed owner (`''`): a named token never sees them.

use rusqlite::{params, Connection, OptionalExtension};

use super::{now_rfc3339, session_from_row, SessionRow, Store, StoreError, UploadRow};

/// Whose sessions a client sees: the name of its auth token, or the unnamed owner.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Owner(String);

impl Owner {
    /// The owner of sessions made without a named token (and of pre-existing ones).
    pub fn unnamed() -> Owner {
        Owner(String::new())
    }

    /// The owner named `name` (a token name, validated by the configuration).
    pub fn named(name: &str) -> Owner {
        Owner(name.to_string())
    }

    /// The local Unix user `uid` (on the server's Unix socket). Token names cannot contain
    /// `:`, so this never collides with a token's owner.
    pub fn local_user(uid: u32) -> Owner {
        Owner(format!("uid:{uid}"))
    }

    /// The stored column value (`''` for the unnamed owner).
    pub fn as_str(&self) -> &str {
        &self.0
    }

    pub fn is_unnamed(&self) -> bool {
        self.0.is_empty()
    }
}

impl std::fmt::Display for Owner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.0.is_empty() {
            f.write_str("(unnamed)")
        } else {
            f.write_str(&self.0)
        }
    }
}

/// A new session id: 128 random bits as 32 lowercase hex digits (a v4 UUID has only 122).
pub fn new_session_id() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

/// A session's name: the one given (trimmed), else `会话 MM-DD HH:MM`.
pub fn session_name(name: Option<&str>) -> String {
    match name {
        Some(n) if !n.trim().is_empty() => n.trim().to_string(),
        _ => format!("会话 {}", chrono::Local::now().format("%m-%d %H:%M")),
    }
}

/// Adds the `owner` column to a `sessions` table made before owners existed; its rows
/// become the unnamed owner's.
pub(super) fn migrate(c: &Connection) -> rusqlite::Result<()> {
    super::add_column_if_missing(c, "sessions", "owner", "TEXT NOT NULL DEFAULT ''")?;
    c.execute_batch("CREATE INDEX IF NOT EXISTS sessions_owner ON sessions(owner, updated_at)")
}

const SELECT: &str = "SELECT s.id, s.name, s.created_at, s.updated_at, s.model,
        (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)
     FROM sessions s";

impl Store {
    /// A new session of the unnamed owner.
    pub fn create_session(&self, name: Option<&str>) -> Result<SessionRow, StoreError> {
        self.create_session_for(&Owner::unnamed(), name)
    }

    /// A new session of `owner`.
    pub fn create_session_for(
        &self,
        owner: &Owner,
        name: Option<&str>,
    ) -> Result<SessionRow, StoreError> {
        let now = now_rfc3339();
        self.create_session_with_id(owner, &new_session_id(), &session_name(name), &now)
    }

    /// Stores a session a connection reserved (showed its client) before anything used
    /// it: the same id, name and creation time. Stored already by `owner` (another of its
    /// connections resumed it first): that row. Taken by another owner: refused
    /// (`Forbidden`), never merged.
    pub fn create_session_with_id(
        &self,
        owner: &Owner,
        id: &str,
        name: &str,
        created_at: &str,
    ) -> Result<SessionRow, StoreError> {
        // Empty sessions are not kept: one left idle for a day goes when the next is made.
        match self.prune_empty_sessions() {
            Ok(0) => {}
            Ok(n) => tracing::info!("removed {n} empty sessions idle for over a day"),
            Err(e) => tracing::warn!("cannot remove empty sessions: {e}"),
        }
        let now = now_rfc3339();
        let inserted = self.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO sessions (id, name, created_at, updated_at, owner)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![id, name, created_at, now, owner.as_str()],
            )
        })?;
        if inserted == 0 && self.session_owner(id)?.as_ref() != Some(owner) {
            return Err(StoreError::Forbidden(format!(
                "会话 ID 已被占用 / session id {id} is already taken"
            )));
        }
        self.session(id)
    }

    /// Deletes sessions with no messages, uploads or offers that were not touched for a
    /// day (a connection that is still using one keeps it fresh by writing to it).
    pub fn prune_empty_sessions(&self) -> Result<usize, StoreError> {
        self.with(|c| {
            c.execute(
                "DELETE FROM sessions WHERE julianday(updated_at) < julianday('now', '-1 day')
                   AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.session_id = sessions.id)
                   AND NOT EXISTS (SELECT 1 FROM uploads u WHERE u.session_id = sessions.id)
                   AND NOT EXISTS (SELECT 1 FROM offers o WHERE o.session_id = sessions.id)",
                [],
            )
        })
    }

    /// The session `id`, whoever owns it (callers hold an id they resolved for their owner).
    pub fn session(&self, id: &str) -> Result<SessionRow, StoreError> {
        self.with(|c| {
            c.query_row(
                &format!("{SELECT} WHERE s.id = ?1"),
                params![id],
                session_from_row,
            )
            .optional()
        })?
        .ok_or_else(|| StoreError::NotFound(id.to_string()))
    }

    /// The owner of session `id`, if it exists.
    pub fn session_owner(&self, id: &str) -> Result<Option<Owner>, StoreError> {
        let o: Option<String> = self.with(|c| {
            c.query_row(
                "SELECT owner FROM sessions WHERE id = ?1",
                params![id],
                |r| r.get(0),
            )
            .optional()
        })?;
        Ok(o.map(Owner))
    }

    /// Every session, newest first (all owners: for maintenance and tests).
    pub fn list_sessions(&self) -> Result<Vec<SessionRow>, StoreError> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "{SELECT} ORDER BY s.updated_at DESC, s.created_at DESC"
            ))?;
            let rows = st.query_map([], session_from_row)?;
            rows.collect()
        })
    }

    /// `owner`'s sessions, newest first.
    pub fn list_sessions_of(&self, owner: &Owner) -> Result<Vec<SessionRow>, StoreError> {
        self.with(|c| {
            let mut st = c.prepare(&format!(
                "{SELECT} WHERE s.owner = ?1 ORDER BY s.updated_at DESC, s.created_at DESC"
            ))?;
            let rows = st.query_map(params![owner.as_str()], session_from_row)?;
            rows.collect()
        })
    }

    /// Resolves a full id or a unique prefix among the unnamed owner's sessions.
    pub fn resolve_session(&self, prefix: &str) -> Result<String, StoreError> {
        self.resolve_session_of(&Owner::unnamed(), prefix)
    }

    /// Resolves a full id or a unique prefix among `owner`'s sessions only: another
    /// owner's session is `NotFound`, even by its full id, and never makes a prefix
    /// ambiguous.
    pub fn resolve_session_of(&self, owner: &Owner, prefix: &str) -> Result<String, StoreError> {
        let p = prefix.trim();
        if p.is_empty() {
            return Err(StoreError::NotFound(prefix.to_string()));
        }
        let ids: Vec<String> = self.with(|c| {
            let mut st = c.prepare(
                "SELECT id FROM sessions WHERE owner = ?2
                   AND (id = ?1 OR substr(id, 1, length(?1)) = ?1) LIMIT 10",
            )?;
            let rows = st.query_map(params![p, owner.as_str()], |r| r.get(0))?;
            rows.collect()
        })?;
        if let Some(exact) = ids.iter().find(|i| i.as_str() == p) {
            return Ok(exact.clone());
        }
        match ids.len() {
            0 => Err(StoreError::NotFound(p.to_string())),
            1 => Ok(ids[0].clone()),
            n => Err(StoreError::Ambiguous {
                prefix: p.to_string(),
                count: n,
            }),
        }
    }

    pub fn rename_session(&self, id: &str, name: &str) -> Result<(), StoreError> {
        let n = self.with(|c| {
            c.execute(
                "UPDATE sessions SET name = ?2, updated_at = ?3 WHERE id = ?1",
                params![id, name.trim(), now_rfc3339()],
            )
        })?;
        if n == 0 {
            return Err(StoreError::NotFound(id.to_string()));
        }
        Ok(())
    }

    pub fn set_session_model(&self, id: &str, model: &str) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE sessions SET model = ?2 WHERE id = ?1",
                params![id, model],
            )
        })?;
        Ok(())
    }

    /// Deletes the session with its messages; returns the upload rows it owned so the
    /// caller can remove their files.
    pub fn delete_session(&self, id: &str) -> Result<Vec<UploadRow>, StoreError> {
        let uploads = self.list_uploads(id)?;
        let n = self.with_reserve(|c| {
            let tx = c.unchecked_transaction()?;
            tx.execute("DELETE FROM messages WHERE session_id = ?1", params![id])?;
            tx.execute("DELETE FROM uploads WHERE session_id = ?1", params![id])?;
            tx.execute("DELETE FROM offers WHERE session_id = ?1", params![id])?;
            let n = tx.execute("DELETE FROM sessions WHERE id = ?1", params![id])?;
            tx.commit()?;
            Ok(n)
        })?;
        if n == 0 {
            return Err(StoreError::NotFound(id.to_string()));
        }
        Ok(uploads)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::tests::store;

    #[test]
    fn ids_are_128_random_bits() {
        let (_d, s) = store();
        let a = s.create_session(None).expect("a").id;
        let b = new_session_id();
        for id in [&a, &b] {
            assert_eq!(id.len(), 32, "{id}");
            assert!(id
                .bytes()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        }
        assert_ne!(a, b);
        // Not a v4 UUID: the version nibble is random (over 64 ids, not all '4').
        let nibbles: std::collections::HashSet<u8> =
            (0..64).map(|_| new_session_id().as_bytes()[12]).collect();
        assert!(nibbles.len() > 1);
    }

    #[test]
    fn a_reserved_session_is_stored_with_its_id_once_and_never_over_another() {
        let (_d, s) = store();
        let alice = Owner::local_user(1001);
        let id = new_session_id();
        let row = s
            .create_session_with_id(&alice, &id, "ops", "2024-01-01T00:00:00+00:00")
            .expect("stored");
        assert_eq!((row.id.as_str(), row.name.as_str()), (id.as_str(), "ops"));
        assert_eq!(row.created_at, "2024-01-01T00:00:00+00:00");
        assert_eq!(s.session_owner(&id).expect("owner"), Some(alice.clone()));
        // The same id again: the same row for its owner, refused for another.
        let again = s
            .create_session_with_id(&alice, &id, "other name", "now")
            .expect("its owner's");
        assert_eq!(again.name, "ops");
        let again = s.create_session_with_id(&Owner::named("bob"), &id, "x", "now");
        assert!(matches!(again, Err(StoreError::Forbidden(_))), "{again:?}");
        assert_eq!(s.list_sessions_of(&alice).expect("list").len(), 1);
        assert_ne!(Owner::local_user(7), Owner::named("uid7"));
    }

    #[test]
    fn owners_never_see_each_others_sessions() {
        let (_d, s) = store();
        let (alice, bob) = (Owner::named("alice"), Owner::named("bob"));
        let a = s.create_session_for(&alice, Some("a")).expect("a");
        let b = s.create_session_for(&bob, Some("b")).expect("b");
        let u = s.create_session(Some("u")).expect("u");
        let names = |o: &Owner| -> Vec<String> {
            s.list_sessions_of(o)
                .expect("list")
                .into_iter()
                .map(|r| r.name)
                .collect()
        };
        assert_eq!(names(&alice), vec!["a"]);
        assert_eq!(names(&bob), vec!["b"]);
        assert_eq!(names(&Owner::unnamed()), vec!["u"]);
        assert_eq!(s.list_sessions().expect("all").len(), 3);
        // Not by full id, not by prefix.
        for p in [&b.id[..], &b.id[..3], &b.id[..16]] {
            assert!(matches!(
                s.resolve_session_of(&alice, p),
                Err(StoreError::NotFound(_))
            ));
        }
        assert_eq!(s.resolve_session_of(&bob, &b.id[..3]).expect("own"), b.id);
        assert_eq!(s.resolve_session(&u.id).expect("unnamed"), u.id);
        assert!(s.resolve_session(&a.id).is_err());
        assert_eq!(s.session_owner(&a.id).expect("owner"), Some(alice));
        assert_eq!(s.session_owner("nope").expect("owner"), None);
    }

    #[test]
    fn a_prefix_is_never_ambiguous_through_another_owners_session() {
        let (_d, s) = store();
        let (alice, bob) = (Owner::named("alice"), Owner::named("bob"));
        let a = s.create_session_for(&alice, None).expect("a").id;
        let b = s.create_session_for(&bob, None).expect("b").id;
        // Give both the same first 8 characters (ids are random; plant a collision).
        let shared = format!("{}{}", &a[..8], &b[8..]);
        s.with(|c| {
            c.execute(
                "UPDATE sessions SET id = ?2 WHERE id = ?1",
                params![b, shared],
            )
        })
        .expect("plant");
        assert_eq!(s.resolve_session_of(&alice, &a[..8]).expect("alice"), a);
        assert_eq!(s.resolve_session_of(&bob, &a[..8]).expect("bob"), shared);
    }

    #[test]
    fn sessions_made_before_owners_existed_become_the_unnamed_owners() {
        let d = tempfile::tempdir().expect("tempdir");
        let path = d.path().join("db.sqlite");
        {
            let c = Connection::open(&path).expect("open");
            c.execute_batch(
                "CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL,
                   created_at TEXT NOT NULL, updated_at TEXT NOT NULL, model TEXT);
                 INSERT INTO sessions VALUES ('0123456789abcdef0123456789abcdef', 'old',
                   '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:00+00:00', NULL);",
            )
            .expect("old schema");
        }
        let s = Store::open(&path).expect("migrate");
        assert_eq!(
            s.resolve_session_of(&Owner::unnamed(), "0123")
                .expect("unnamed"),
            "0123456789abcdef0123456789abcdef"
        );
        assert!(s
            .resolve_session_of(&Owner::named("alice"), "0123")
            .is_err());
        drop(s);
        // Opening again does not add the column twice.
        Store::open(&path).expect("reopen");
    }
}
