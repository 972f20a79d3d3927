//! The database's schema version (`PRAGMA user_version`): a new database is made at
//! [`SCHEMA_VERSION`], an older one is copied aside and then migrated step by step in one
//! transaction, and a newer one (written by a later llmops) is refused before anything in
//! the data directory is written.
//!
//! Version 0 is every database made before versions were kept (`user_version` 0 with
//! tables in it); step 1 brings any of them, however old, to the first versioned layout.
//! A later change of the schema adds a step to [`STEPS`] and raises [`SCHEMA_VERSION`].

use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OpenFlags};

/// The schema version this build writes and reads.
pub const SCHEMA_VERSION: u32 = 1;

/// What a database file holds, read without writing anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Found {
    /// No file, or a file with no tables: made at the current version.
    Fresh,
    /// A database at this version (0: made before versions were kept).
    Version(u32),
}

#[derive(Debug, thiserror::Error)]
pub enum SchemaError {
    #[error(
        "数据目录由更新版本的 llmops 写入（数据库结构版本 {found}，本程序最高支持 {supported}），\
         未做任何改动：请运行更新版本的 llmops-server，或使用升级前的备份 / the data directory \
         holding {path} was written by a newer llmops (schema version {found}; this server \
         reads up to {supported}) and was left untouched: run the newer llmops-server, or \
         restore the backup taken before that upgrade"
    )]
    Newer {
        path: PathBuf,
        found: u32,
        supported: u32,
    },
    #[error(
        "升级数据库前无法备份 {path}，数据库未改动 / cannot back up the database to {path} \
         before migrating it (it was left untouched): {err}"
    )]
    Backup { path: PathBuf, err: String },
    #[error(
        "数据库结构迁移到版本 {to} 失败，已回滚 / migrating the database to schema version \
         {to} failed and was rolled back: {err}"
    )]
    Step { to: u32, err: rusqlite::Error },
    #[error("无法读取数据库结构版本 / cannot read the schema version of {path}: {err}")]
    Read { path: PathBuf, err: String },
}

/// One migration: from `to - 1` to `to`.
struct Step {
    to: u32,
    what: &'static str,
    apply: fn(&Connection) -> rusqlite::Result<()>,
}

const STEPS: &[Step] = &[Step {
    to: 1,
    what: "every table of the unversioned layout, owners on sessions and grants, schema history",
    apply: step_1,
}];

/// Reads the schema version of the database at `path` and refuses a newer one, writing
/// nothing: with no `-wal` file beside it the file's header is the whole truth and is read
/// as bytes (opening it, even read-only, would leave `-wal` and `-shm` files); otherwise
/// through a read-only connection, which never checkpoints or rewrites the file.
pub fn check(path: &Path) -> Result<Found, SchemaError> {
    if !path.exists() {
        return Ok(Found::Fresh);
    }
    let newer = |found| SchemaError::Newer {
        path: path.to_path_buf(),
        found,
        supported: SCHEMA_VERSION,
    };
    if !wal_path(path).exists() {
        match header_version(path)? {
            None => return Ok(Found::Fresh),
            Some(v) if v > SCHEMA_VERSION => return Err(newer(v)),
            Some(_) => {}
        }
    }
    let read = |err: rusqlite::Error| SchemaError::Read {
        path: path.to_path_buf(),
        err: err.to_string(),
    };
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let c = Connection::open_with_flags(path, flags).map_err(read)?;
    let version = version(&c).map_err(read)?;
    let tables: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .map_err(read)?;
    if version > SCHEMA_VERSION {
        return Err(newer(version));
    }
    Ok(if version == 0 && tables == 0 {
        Found::Fresh
    } else {
        Found::Version(version)
    })
}

fn wal_path(db: &Path) -> PathBuf {
    PathBuf::from(format!("{}-wal", db.display()))
}

/// The `user_version` field of an SQLite file's 100-byte header (big-endian at offset 60);
/// `None` for an empty file, which SQLite treats as an empty database.
fn header_version(path: &Path) -> Result<Option<u32>, SchemaError> {
    use std::io::Read as _;
    let read = |err: String| SchemaError::Read {
        path: path.to_path_buf(),
        err,
    };
    let mut head = Vec::with_capacity(100);
    std::fs::File::open(path)
        .and_then(|f| f.take(100).read_to_end(&mut head))
        .map_err(|e| read(e.to_string()))?;
    if head.is_empty() {
        return Ok(None);
    }
    if head.len() < 100 || !head.starts_with(b"SQLite format 3\0") {
        return Err(read("not an SQLite database / 不是 SQLite 数据库".into()));
    }
    Ok(Some(u32::from_be_bytes([
        head[60], head[61], head[62], head[63],
    ])))
}

/// Where the copy of a database at `version` is kept while and after migrating it.
pub fn backup_path(db: &Path, version: u32) -> PathBuf {
    let name = db
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "llmops.sqlite".into());
    db.with_file_name(format!("{name}.v{version}-backup"))
}

/// Brings the database on `c` (found as `found` by [`check`]) to [`SCHEMA_VERSION`]: a
/// fresh one is made, an older one is first copied to [`backup_path`] and then migrated in
/// one transaction, so a failed step leaves it as it was.
pub fn migrate(c: &Connection, db: &Path, found: Found) -> Result<(), SchemaError> {
    let from = match found {
        Found::Version(v) if v == SCHEMA_VERSION => return Ok(()),
        Found::Version(v) => {
            backup(c, &backup_path(db, v))?;
            v
        }
        Found::Fresh => 0,
    };
    let step_err = |to| move |err| SchemaError::Step { to, err };
    c.execute_batch("BEGIN IMMEDIATE")
        .map_err(step_err(from + 1))?;
    let res = (|| {
        for step in STEPS.iter().filter(|s| s.to > from) {
            (step.apply)(c).map_err(step_err(step.to))?;
            let created = found == Found::Fresh;
            record(c, (!created).then_some(from), step).map_err(step_err(step.to))?;
        }
        c.pragma_update(None, "user_version", SCHEMA_VERSION)
            .map_err(step_err(SCHEMA_VERSION))?;
        c.execute_batch("COMMIT").map_err(step_err(SCHEMA_VERSION))
    })();
    if res.is_err() {
        if let Err(e) = c.execute_batch("ROLLBACK") {
            tracing::warn!("rollback after a failed migration: {e}");
        }
    } else if found != Found::Fresh {
        tracing::info!(from, to = SCHEMA_VERSION, "database migrated");
    }
    res
}

/// A consistent copy of the database (`VACUUM INTO` a temporary name, then renamed), made
/// before a migration so the previous release can be put back.
fn backup(c: &Connection, to: &Path) -> Result<(), SchemaError> {
    let err = |err: String| SchemaError::Backup {
        path: to.to_path_buf(),
        err,
    };
    let tmp = PathBuf::from(format!("{}.tmp", to.display()));
    // A copy left by an earlier attempt that stopped half-way.
    if let Err(e) = std::fs::remove_file(&tmp) {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(path = %tmp.display(), "cannot remove a stale backup: {e}");
        }
    }
    let tmp_str = tmp.to_string_lossy().into_owned();
    c.execute("VACUUM INTO ?1", params![tmp_str])
        .map_err(|e| err(e.to_string()))?;
    if let Err(e) = std::fs::rename(&tmp, to) {
        if let Err(re) = std::fs::remove_file(&tmp) {
            tracing::warn!(path = %tmp.display(), "cannot remove an unused backup: {re}");
        }
        return Err(err(format!("rename {}: {e}", tmp.display())));
    }
    tracing::info!(path = %to.display(), "database backed up before migrating");
    Ok(())
}

/// One row of `schema_history` per applied step: what an operator reads to see when and by
/// which release the data directory was made and upgraded (`from`: the version the
/// migration started at; `None` for a database made by this release).
fn record(c: &Connection, from: Option<u32>, step: &Step) -> rusqlite::Result<()> {
    c.execute(
        "INSERT INTO schema_history (version, from_version, applied_at, server_version, what)
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![
            step.to,
            from,
            super::now_rfc3339(),
            env!("CARGO_PKG_VERSION"),
            step.what
        ],
    )?;
    Ok(())
}

/// Version 1: every table and index of the unversioned layout (`IF NOT EXISTS`, so a
/// database made by any earlier release gains what it lacks), the `owner` columns, and
/// the history of migrations.
fn step_1(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(super::SCHEMA)?;
    c.execute_batch(super::grants::SCHEMA)?;
    super::sessions::migrate(c)?;
    super::grants::migrate(c)?;
    c.execute_batch(
        "CREATE TABLE IF NOT EXISTS schema_history (
            version INTEGER NOT NULL,
            from_version INTEGER,
            applied_at TEXT NOT NULL,
            server_version TEXT NOT NULL,
            what TEXT NOT NULL
        );",
    )
}

/// The schema version of the database on `c`.
pub fn version(c: &Connection) -> rusqlite::Result<u32> {
    c.query_row("PRAGMA user_version", [], |r| r.get(0))
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
