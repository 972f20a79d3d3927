//! SQLite (WAL) persistence: sessions, messages with their tool calls, uploads and download
//! offers. All calls are synchronous and short; async callers go through `Store::run`,
//! which moves them off the runtime's worker threads.

use std::path::Path;
use std::sync::{Arc, Mutex};

use rusqlite::{params, Connection, OptionalExtension};
use serde::{Deserialize, Serialize};

mod grants;
mod reroot;
mod reserved;
pub mod schema;
mod sessions;
mod states;

pub use grants::GrantRow;
pub use llmops_common::TransferMode;
pub use reserved::{Reservations, Reserved};
pub use sessions::{new_session_id, session_name, Owner};
pub use states::{OfferState, UnknownState, UploadState};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("数据库错误 / database error: {0}")]
    Db(#[from] rusqlite::Error),
    #[error("会话不存在 / no session matches '{0}'")]
    NotFound(String),
    #[error("会话前缀不唯一 / '{prefix}' matches {count} sessions; type more characters")]
    Ambiguous { prefix: String, count: usize },
    #[error("database task failed: {0}")]
    Join(String),
    /// A refusal that is not a database failure (e.g. deleting the current session).
    #[error("{0}")]
    Forbidden(String),
    /// SQLITE_FULL: the data dir's disk (or the database's page cap) is full.
    #[error("磁盘已满 / disk full: {0}")]
    DiskFull(rusqlite::Error),
    /// The database's schema version: newer than this build, or a failed migration.
    #[error(transparent)]
    Schema(#[from] schema::SchemaError),
}

impl StoreError {
    fn from_db(e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DiskFull) => StoreError::DiskFull(e),
            _ => StoreError::Db(e),
        }
    }
}

/// Space kept free in the data dir for deletes on a full disk (see [`Store::with_reserve`]).
pub const RESERVE_BYTES: u64 = 4 * 1024 * 1024;

/// The reserve file beside the database.
fn reserve_path(db: &Path) -> std::path::PathBuf {
    db.with_file_name(".llmops-reserve")
}

/// Creates the reserve file (`RESERVE_BYTES` of zeros, fsync'd) if it is missing; a disk
/// too full for it leaves none (logged), to be made on a later call.
pub fn ensure_reserve(db: &Path) {
    make_reserve(&reserve_path(db));
}

fn make_reserve(p: &Path) {
    if std::fs::metadata(p).is_ok_and(|m| m.len() == RESERVE_BYTES) {
        return;
    }
    let res = (|| {
        use std::io::Write;
        let mut f = std::fs::File::create(p)?;
        f.write_all(&vec![0u8; RESERVE_BYTES as usize])?;
        f.sync_all()
    })();
    if let Err(e) = res {
        tracing::warn!(path = %p.display(), "cannot keep the disk reserve: {e}");
        if let Err(e) = std::fs::remove_file(p) {
            tracing::debug!("partial reserve not removed: {e}");
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SessionRow {
    pub id: String,
    pub name: String,
    pub created_at: String,
    pub updated_at: String,
    pub model: Option<String>,
    pub messages: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallRow {
    pub tool: String,
    pub args: serde_json::Value,
    pub ok: bool,
    pub duration_ms: u64,
    pub summary: String,
    /// The step's stored output (rows written before outputs were kept have none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<protocol::OutputRef>,
    /// What the step showed that a follow-up may refer to (the offline planner's
    /// conversation state); absent on rows written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facts: Option<llmops_planner::conversation::StepFacts>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MessageRow {
    pub role: String,
    pub text: String,
    pub time: String,
    pub tool_calls: Vec<ToolCallRow>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UploadRow {
    pub file_id: String,
    pub session_id: String,
    pub filename: String,
    pub size: u64,
    pub content_type: String,
    pub sha256: String,
    pub path: String,
    pub uploaded_at: String,
    pub state: UploadState,
    pub detail: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OfferRow {
    pub offer_id: String,
    pub session_id: String,
    pub file_id: Option<String>,
    pub file_path: String,
    pub filename: String,
    pub size: u64,
    pub sha256: String,
    pub mode: TransferMode,
    pub state: OfferState,
    pub created_at: String,
    pub expires_at: u64,
    pub request_id: Option<u64>,
    pub tool_call: Option<String>,
    pub reason: Option<String>,
}

/// Cloneable handle to the database.
#[derive(Clone)]
pub struct Store {
    conn: Arc<Mutex<Connection>>,
    /// The reserve file released for deletes on a full disk (`None`: in-memory stores).
    reserve: Option<std::path::PathBuf>,
}

/// Logs a store write the caller carries on without, naming the session (or file) and
/// what is not saved. Use instead of dropping the result of a write.
pub fn log_unsaved<T>(res: Result<T, StoreError>, owner: &str, lost: &str) {
    if let Err(e) = res {
        tracing::warn!(owner = %owner, "store write failed; not saved: {lost}: {e}");
    }
}

/// A session title from its first question: the first non-empty line, at most 40
/// characters (an ellipsis marks a cut).
pub fn title_from(text: &str) -> Option<String> {
    let line = text.lines().map(str::trim).find(|l| !l.is_empty())?;
    let mut t: String = line.chars().take(40).collect();
    if line.chars().count() > 40 {
        t.push('…');
    }
    Some(t)
}

pub fn now_rfc3339() -> String {
    chrono::Local::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, false)
}

const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    model TEXT
);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    role TEXT NOT NULL,
    text TEXT NOT NULL,
    time TEXT NOT NULL,
    tool_calls TEXT NOT NULL DEFAULT '[]'
);
CREATE INDEX IF NOT EXISTS messages_session ON messages(session_id, id);
CREATE TABLE IF NOT EXISTS uploads (
    file_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    filename TEXT NOT NULL,
    size INTEGER NOT NULL,
    content_type TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    path TEXT NOT NULL,
    uploaded_at TEXT NOT NULL,
    state TEXT NOT NULL,
    detail TEXT
);
CREATE INDEX IF NOT EXISTS uploads_session ON uploads(session_id, uploaded_at);
CREATE TABLE IF NOT EXISTS offers (
    offer_id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    file_id TEXT,
    file_path TEXT NOT NULL,
    filename TEXT NOT NULL,
    size INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    mode TEXT NOT NULL,
    state TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    request_id INTEGER,
    tool_call TEXT,
    reason TEXT
);
"#;

impl Store {
    /// Opens the database at `path`, making it or migrating it to
    /// [`schema::SCHEMA_VERSION`]; one written by a newer release is refused before
    /// anything is written (see `store/schema.rs`).
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        let found = schema::check(path)?;
        ensure_reserve(path);
        let conn = Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        schema::migrate(&conn, path, found)?;
        if let Some(dir) = path.parent() {
            match reroot::reroot_uploads(&conn, dir) {
                Ok(0) => {}
                Ok(n) => tracing::info!(n, "upload paths pointed at this data directory"),
                Err(e) => tracing::warn!("cannot check the upload paths: {e}"),
            }
        }
        Ok(Store {
            conn: Arc::new(Mutex::new(conn)),
            reserve: Some(reserve_path(path)),
        })
    }

    /// Like `with`, for writes that free space or must work on a full disk (deleting an
    /// upload, a session): on SQLITE_FULL the reserve file is released and the write tried
    /// once more. The reserve is made again by [`ensure_reserve`] once space was freed.
    fn with_reserve<T>(
        &self,
        f: impl Fn(&Connection) -> rusqlite::Result<T>,
    ) -> Result<T, StoreError> {
        match self.with(&f) {
            Err(StoreError::DiskFull(e)) => {
                let Some(p) = self.reserve.as_ref().filter(|p| p.exists()) else {
                    return Err(StoreError::DiskFull(e));
                };
                tracing::warn!("disk full: releasing the reserve so a delete can proceed");
                if let Err(re) = std::fs::remove_file(p) {
                    tracing::warn!(path = %p.display(), "cannot release the disk reserve: {re}");
                    return Err(StoreError::DiskFull(e));
                }
                self.with(&f)
            }
            other => other,
        }
    }

    /// Makes the reserve again if it was released (after space was freed).
    pub fn restore_reserve(&self) {
        if let Some(p) = &self.reserve {
            if !p.exists() {
                make_reserve(p);
            }
        }
    }

    /// Runs `f` with the connection on the blocking pool.
    pub async fn run<T, F>(&self, f: F) -> Result<T, StoreError>
    where
        T: Send + 'static,
        F: FnOnce(&Store) -> Result<T, StoreError> + Send + 'static,
    {
        let me = self.clone();
        tokio::task::spawn_blocking(move || f(&me))
            .await
            .map_err(|e| StoreError::Join(e.to_string()))?
    }

    /// Caps the database at its current size, so the next write that needs a page fails
    /// with SQLITE_FULL (a full disk, simulated).
    #[cfg(test)]
    pub fn set_max_pages_for_test(&self) -> Result<(), StoreError> {
        self.with(|c| {
            let n: i64 = c.query_row("PRAGMA page_count", [], |r| r.get(0))?;
            c.query_row(&format!("PRAGMA max_page_count = {n}"), [], |_| Ok(()))
        })
    }

    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, StoreError> {
        // A poisoned lock only means another thread panicked mid-call; SQLite's own
        // transactions keep the data consistent, so carry on with the inner connection.
        let guard = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&guard).map_err(StoreError::from_db)
    }

    // ----- messages ------------------------------------------------------------------

    pub fn append_message(
        &self,
        session_id: &str,
        role: &str,
        text: &str,
        tool_calls: &[ToolCallRow],
    ) -> Result<(), StoreError> {
        let calls = serde_json::to_string(tool_calls).unwrap_or_else(|_| "[]".into());
        let now = now_rfc3339();
        self.with(|c| {
            // Whether this is the session's first message: an index probe, not a count (a
            // count grows with the session and showed in every turn's latency).
            let first = role == "user"
                && !c.query_row(
                    "SELECT EXISTS(SELECT 1 FROM messages WHERE session_id = ?1)",
                    params![session_id],
                    |r| r.get::<_, bool>(0),
                )?;
            c.execute(
                "INSERT INTO messages (session_id, role, text, time, tool_calls) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![session_id, role, text, now, calls],
            )?;
            // A session still under its default name is titled from its first question.
            if first {
                if let Some(title) = title_from(text) {
                    c.execute(
                        "UPDATE sessions SET name = ?2 WHERE id = ?1
                           AND name GLOB '会话 [0-9][0-9]-[0-9][0-9] [0-9][0-9]:[0-9][0-9]'",
                        params![session_id, title],
                    )?;
                }
            }
            c.execute(
                "UPDATE sessions SET updated_at = ?2 WHERE id = ?1",
                params![session_id, now],
            )
        })?;
        Ok(())
    }

    /// The last `limit` messages, oldest first.
    pub fn history(&self, session_id: &str, limit: usize) -> Result<Vec<MessageRow>, StoreError> {
        let mut rows: Vec<MessageRow> = self.with(|c| {
            let mut st = c.prepare(
                "SELECT role, text, time, tool_calls FROM messages WHERE session_id = ?1
                 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = st.query_map(params![session_id, limit as i64], |r| {
                let calls: String = r.get(3)?;
                Ok(MessageRow {
                    role: r.get(0)?,
                    text: r.get(1)?,
                    time: r.get(2)?,
                    tool_calls: serde_json::from_str(&calls).unwrap_or_default(),
                })
            })?;
            rows.collect()
        })?;
        rows.reverse();
        Ok(rows)
    }

    pub fn clear_history(&self, session_id: &str) -> Result<usize, StoreError> {
        self.with(|c| {
            c.execute(
                "DELETE FROM messages WHERE session_id = ?1",
                params![session_id],
            )
        })
    }

    // ----- uploads -------------------------------------------------------------------

    pub fn insert_upload(&self, u: &UploadRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO uploads (file_id, session_id, filename, size, content_type, sha256, path, uploaded_at, state, detail)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![u.file_id, u.session_id, u.filename, u.size as i64, u.content_type, u.sha256, u.path, u.uploaded_at, u.state, u.detail],
            )
        })?;
        Ok(())
    }

    pub fn set_upload_state(
        &self,
        file_id: &str,
        state: UploadState,
        detail: Option<&str>,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE uploads SET state = ?2, detail = ?3 WHERE file_id = ?1",
                params![file_id, state, detail],
            )
        })?;
        Ok(())
    }

    /// Oldest first.
    pub fn list_uploads(&self, session_id: &str) -> Result<Vec<UploadRow>, StoreError> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT file_id, session_id, filename, size, content_type, sha256, path, uploaded_at, state, detail
                 FROM uploads WHERE session_id = ?1 ORDER BY uploaded_at ASC, rowid ASC",
            )?;
            let rows = st.query_map(params![session_id], upload_from_row)?;
            rows.collect()
        })
    }

    pub fn all_uploads(&self) -> Result<Vec<UploadRow>, StoreError> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT file_id, session_id, filename, size, content_type, sha256, path, uploaded_at, state, detail
                 FROM uploads ORDER BY uploaded_at ASC, rowid ASC",
            )?;
            let rows = st.query_map([], upload_from_row)?;
            rows.collect()
        })
    }

    pub fn count_uploads(&self) -> Result<u64, StoreError> {
        let n: i64 =
            self.with(|c| c.query_row("SELECT COUNT(*) FROM uploads", [], |r| r.get(0)))?;
        Ok(n.max(0) as u64)
    }

    pub fn upload(&self, file_id: &str) -> Result<Option<UploadRow>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT file_id, session_id, filename, size, content_type, sha256, path, uploaded_at, state, detail
                 FROM uploads WHERE file_id = ?1",
                params![file_id],
                upload_from_row,
            )
            .optional()
        })
    }

    pub fn delete_upload(&self, file_id: &str) -> Result<Option<UploadRow>, StoreError> {
        let row = self.upload(file_id)?;
        self.with_reserve(|c| {
            c.execute("DELETE FROM uploads WHERE file_id = ?1", params![file_id])
        })?;
        Ok(row)
    }

    // ----- offers --------------------------------------------------------------------

    pub fn insert_offer(&self, o: &OfferRow) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "INSERT INTO offers (offer_id, session_id, file_id, file_path, filename, size, sha256, mode, state, created_at, expires_at, request_id, tool_call, reason)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
                params![o.offer_id, o.session_id, o.file_id, o.file_path, o.filename, o.size as i64, o.sha256, o.mode.as_str(), o.state, o.created_at, o.expires_at as i64, o.request_id.map(|r| r as i64), o.tool_call, o.reason],
            )
        })?;
        Ok(())
    }

    pub fn offer(&self, offer_id: &str) -> Result<Option<OfferRow>, StoreError> {
        self.with(|c| {
            c.query_row(
                "SELECT offer_id, session_id, file_id, file_path, filename, size, sha256, mode, state, created_at, expires_at, request_id, tool_call, reason
                 FROM offers WHERE offer_id = ?1",
                params![offer_id],
                |r| {
                    Ok(OfferRow {
                        offer_id: r.get(0)?,
                        session_id: r.get(1)?,
                        file_id: r.get(2)?,
                        file_path: r.get(3)?,
                        filename: r.get(4)?,
                        size: r.get::<_, i64>(5)? as u64,
                        sha256: r.get(6)?,
                        mode: states::mode_column(r, 7)?,
                        state: r.get(8)?,
                        created_at: r.get(9)?,
                        expires_at: r.get::<_, i64>(10)? as u64,
                        request_id: r.get::<_, Option<i64>>(11)?.map(|v| v as u64),
                        tool_call: r.get(12)?,
                        reason: r.get(13)?,
                    })
                },
            )
            .optional()
        })
    }

    pub fn set_offer_state(
        &self,
        offer_id: &str,
        state: OfferState,
        reason: Option<&str>,
    ) -> Result<(), StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE offers SET state = ?2, reason = COALESCE(?3, reason) WHERE offer_id = ?1",
                params![offer_id, state, reason],
            )
        })?;
        Ok(())
    }

    /// Marks pending offers past their expiry as expired; returns how many.
    pub fn expire_offers(&self, now_unix: u64) -> Result<usize, StoreError> {
        self.with(|c| {
            c.execute(
                "UPDATE offers SET state = ?2 WHERE state = ?3 AND expires_at <= ?1",
                params![now_unix as i64, OfferState::Expired, OfferState::Pending],
            )
        })
    }
}

/// Adds `column` to `table` unless it is there (databases made by older versions).
fn add_column_if_missing(
    c: &Connection,
    table: &str,
    column: &str,
    decl: &str,
) -> rusqlite::Result<()> {
    let mut st = c.prepare(&format!("PRAGMA table_info({table})"))?;
    let has = st
        .query_map([], |r| r.get::<_, String>(1))?
        .collect::<rusqlite::Result<Vec<_>>>()?
        .iter()
        .any(|n| n == column);
    if !has {
        c.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {decl}"))?;
    }
    Ok(())
}

fn session_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<SessionRow> {
    Ok(SessionRow {
        id: r.get(0)?,
        name: r.get(1)?,
        created_at: r.get(2)?,
        updated_at: r.get(3)?,
        model: r.get(4)?,
        messages: r.get::<_, i64>(5)? as u64,
    })
}

fn upload_from_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<UploadRow> {
    Ok(UploadRow {
        file_id: r.get(0)?,
        session_id: r.get(1)?,
        filename: r.get(2)?,
        size: r.get::<_, i64>(3)? as u64,
        content_type: r.get(4)?,
        sha256: r.get(5)?,
        path: r.get(6)?,
        uploaded_at: r.get(7)?,
        state: r.get(8)?,
        detail: r.get(9)?,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A store on a fresh database in a temp dir (kept alive by the returned guard).
    pub(crate) fn store() -> (tempfile::TempDir, Store) {
        let d = tempfile::tempdir().expect("tempdir");
        let s = Store::open(&d.path().join("db.sqlite")).expect("open");
        (d, s)
    }

    #[test]
    fn a_new_session_is_titled_from_its_first_question_and_empty_ones_are_pruned() {
        let (_d, s) = store();
        let a = s.create_session(None).expect("create");
        s.append_message(&a.id, "user", "\n  /var/log 目录占了多少空间？\nmore", &[])
            .expect("append");
        assert_eq!(
            s.session(&a.id).expect("get").name,
            "/var/log 目录占了多少空间？"
        );
        // Later questions and named sessions keep their names.
        s.append_message(&a.id, "user", "second", &[])
            .expect("append");
        assert_eq!(
            s.session(&a.id).expect("get").name,
            "/var/log 目录占了多少空间？"
        );
        let named = s.create_session(Some("incident 42")).expect("create");
        s.append_message(&named.id, "user", "CPU?", &[])
            .expect("append");
        assert_eq!(s.session(&named.id).expect("get").name, "incident 42");
        assert_eq!(
            title_from(&"x".repeat(50)).map(|t| t.chars().count()),
            Some(41)
        );
        // An empty session idle for two days goes; a fresh empty one and used ones stay.
        let old = s.create_session(None).expect("create");
        let fresh = s.create_session(None).expect("create");
        s.with(|c| {
            c.execute(
                "UPDATE sessions SET updated_at = '2020-01-01T00:00:00+00:00' WHERE id IN (?1, ?2)",
                params![old.id, a.id],
            )
        })
        .expect("age");
        assert_eq!(s.prune_empty_sessions().expect("prune"), 1);
        assert!(s.session(&old.id).is_err());
        for id in [&a.id, &fresh.id, &named.id] {
            assert!(s.session(id).is_ok());
        }
    }

    #[test]
    fn sessions_resolve_by_unique_prefix() {
        let (_d, s) = store();
        let a = s.create_session(Some("alpha")).expect("create");
        let b = s.create_session(None).expect("create");
        assert_eq!(s.resolve_session(&a.id[..8]).expect("unique"), a.id);
        assert_eq!(s.resolve_session(&b.id).expect("full"), b.id);
        assert!(matches!(
            s.resolve_session("zzzz"),
            Err(StoreError::NotFound(_))
        ));
        // The empty prefix matches everything: refuse rather than pick one.
        assert!(s.resolve_session("").is_err());
        s.rename_session(&a.id, "beta").expect("rename");
        assert_eq!(s.session(&a.id).expect("get").name, "beta");
        assert_eq!(s.list_sessions().expect("list").len(), 2);
    }

    #[test]
    fn history_keeps_tool_calls_and_survives_reopen() {
        let d = tempfile::tempdir().expect("tempdir");
        let path = d.path().join("db.sqlite");
        let id = {
            let s = Store::open(&path).expect("open");
            let sess = s.create_session(None).expect("create");
            s.append_message(&sess.id, "user", "CPU?", &[])
                .expect("append");
            let call = ToolCallRow {
                tool: "sys_monitor".into(),
                args: serde_json::json!({"metric": "cpu"}),
                ok: true,
                duration_ms: 3,
                summary: "CPU 5%".into(),
                output: None,
                facts: None,
            };
            s.append_message(&sess.id, "assistant", "CPU 5%", &[call])
                .expect("append");
            sess.id
        };
        let s = Store::open(&path).expect("reopen");
        let h = s.history(&id, 10).expect("history");
        assert_eq!(h.len(), 2);
        assert_eq!(h[0].role, "user");
        assert_eq!(h[1].tool_calls[0].tool, "sys_monitor");
        assert_eq!(s.history(&id, 1).expect("history")[0].role, "assistant");
        assert_eq!(s.clear_history(&id).expect("clear"), 2);
    }

    #[test]
    fn deleting_a_session_removes_its_rows() {
        let (_d, s) = store();
        let sess = s.create_session(None).expect("create");
        s.append_message(&sess.id, "user", "hi", &[])
            .expect("append");
        s.insert_upload(&UploadRow {
            file_id: "f1".into(),
            session_id: sess.id.clone(),
            filename: "a.txt".into(),
            size: 1,
            content_type: "text/plain".into(),
            sha256: "00".into(),
            path: "/x/a.txt".into(),
            uploaded_at: now_rfc3339(),
            state: UploadState::Indexed,
            detail: None,
        })
        .expect("upload");
        assert_eq!(s.count_uploads().expect("count"), 1);
        let gone = s.delete_session(&sess.id).expect("delete");
        assert_eq!(gone.len(), 1);
        assert_eq!(s.count_uploads().expect("count"), 0);
        assert!(s.upload("f1").expect("query").is_none());
        assert!(matches!(
            s.delete_session(&sess.id),
            Err(StoreError::NotFound(_))
        ));
    }

    #[test]
    fn offers_expire() {
        let (_d, s) = store();
        let o = OfferRow {
            offer_id: "o1".into(),
            session_id: "s".into(),
            file_id: None,
            file_path: "/x".into(),
            filename: "x".into(),
            size: 0,
            sha256: String::new(),
            mode: TransferMode::Auto,
            state: OfferState::Pending,
            created_at: now_rfc3339(),
            expires_at: 100,
            request_id: Some(3),
            tool_call: None,
            reason: None,
        };
        s.insert_offer(&o).expect("insert");
        assert_eq!(s.expire_offers(99).expect("expire"), 0);
        assert_eq!(s.expire_offers(100).expect("expire"), 1);
        assert_eq!(
            s.offer("o1").expect("get").expect("exists").state,
            "expired"
        );
    }
}
