//! Tests of the schema version: made, migrated (with a backup), refused when newer, rolled
//! back when a step fails.

use super::*;
use crate::store::{Owner, Store, StoreError};

/// Every file in `dir` with its bytes, sorted by name.
fn snapshot(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("dir")
        .map(|e| {
            let p = e.expect("entry").path();
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            let bytes = if p.is_file() {
                std::fs::read(&p).expect("read")
            } else {
                vec![]
            };
            (name, bytes)
        })
        .collect();
    v.sort();
    v
}

fn user_version(path: &Path) -> u32 {
    let c = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open");
    version(&c).expect("version")
}

fn history_rows(path: &Path) -> Vec<(u32, Option<u32>, String)> {
    let c = Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open");
    let mut st = c
        .prepare("SELECT version, from_version, server_version FROM schema_history ORDER BY rowid")
        .expect("prepare");
    let rows = st
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .expect("query")
        .collect::<rusqlite::Result<Vec<_>>>()
        .expect("rows");
    rows
}

/// A database in the oldest layout this code still migrates: sessions without owners,
/// messages, uploads and offers, no grants.
fn plant_oldest(path: &Path) {
    let c = Connection::open(path).expect("open");
    c.execute_batch(
        "PRAGMA journal_mode = WAL;
         CREATE TABLE sessions (id TEXT PRIMARY KEY, name TEXT NOT NULL,
           created_at TEXT NOT NULL, updated_at TEXT NOT NULL, model TEXT);
         CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT,
           session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
           role TEXT NOT NULL, text TEXT NOT NULL, time TEXT NOT NULL,
           tool_calls TEXT NOT NULL DEFAULT '[]');
         INSERT INTO sessions VALUES ('00112233445566778899aabbccddeeff', 'incident 7',
           '2024-01-01T00:00:00+00:00', '2024-01-01T00:00:00+00:00', NULL);
         INSERT INTO messages (session_id, role, text, time) VALUES
           ('00112233445566778899aabbccddeeff', 'user', 'disk?', '2024-01-01T00:00:00+00:00'),
           ('00112233445566778899aabbccddeeff', 'assistant', '42%', '2024-01-01T00:00:01+00:00');",
    )
    .expect("old schema");
}

#[test]
fn a_new_database_is_made_at_the_current_version_without_a_backup() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    drop(Store::open(&db).expect("open"));
    assert_eq!(user_version(&db), SCHEMA_VERSION);
    let h = history_rows(&db);
    assert_eq!(h.len(), STEPS.len());
    assert_eq!(h[0].0, 1);
    assert_eq!(h[0].1, None, "made, not migrated");
    assert_eq!(h[0].2, env!("CARGO_PKG_VERSION"));
    // Opening it again changes nothing.
    drop(Store::open(&db).expect("reopen"));
    assert_eq!(history_rows(&db).len(), STEPS.len());
    assert!(std::fs::read_dir(d.path()).expect("dir").all(|e| !e
        .expect("e")
        .file_name()
        .to_string_lossy()
        .contains("backup")));
}

#[test]
fn an_unversioned_database_is_backed_up_then_migrated_with_its_rows() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    plant_oldest(&db);
    assert_eq!(check(&db).expect("check"), Found::Version(0));
    let s = Store::open(&db).expect("migrate");
    assert_eq!(user_version(&db), SCHEMA_VERSION);
    assert_eq!(
        history_rows(&db),
        vec![(1, Some(0), env!("CARGO_PKG_VERSION").to_string())]
    );
    // The rows are the unnamed owner's, with their messages, and grants work.
    let id = s
        .resolve_session_of(&Owner::unnamed(), "0011")
        .expect("old session");
    let h = s.history(&id, 10).expect("history");
    assert_eq!(
        h.iter().map(|m| m.text.as_str()).collect::<Vec<_>>(),
        ["disk?", "42%"]
    );
    assert!(s
        .resolve_session_of(&Owner::named("alice"), "0011")
        .is_err());
    drop(s);
    // The backup is the database as it was: version 0, the two messages, no owners.
    let b = backup_path(&db, 0);
    assert_eq!(user_version(&b), 0);
    let c = Connection::open_with_flags(&b, OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open");
    let n: i64 = c
        .query_row("SELECT COUNT(*) FROM messages", [], |r| r.get(0))
        .expect("count");
    assert_eq!(n, 2);
    let has_owner: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM pragma_table_info('sessions') WHERE name = 'owner'",
            [],
            |r| r.get(0),
        )
        .expect("columns");
    assert_eq!(has_owner, 0);
}

#[test]
fn a_newer_database_is_refused_and_left_byte_for_byte() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    drop(Store::open(&db).expect("open"));
    {
        let c = Connection::open(&db).expect("open");
        c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .expect("bump");
        c.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")
            .expect("checkpoint");
    }
    std::fs::remove_file(d.path().join(".llmops-reserve")).expect("no reserve");
    let before = snapshot(d.path());
    let err = match Store::open(&db) {
        Err(e) => e,
        Ok(_) => panic!("a newer database was opened"),
    };
    assert!(
        matches!(
            &err,
            StoreError::Schema(SchemaError::Newer { found, supported, .. })
                if *found == SCHEMA_VERSION + 1 && *supported == SCHEMA_VERSION
        ),
        "{err:?}"
    );
    let msg = err.to_string();
    assert!(msg.contains("written by a newer llmops"), "{msg}");
    assert!(msg.contains("更新版本"), "{msg}");
    assert!(msg.contains(&format!("schema version {}", SCHEMA_VERSION + 1)));
    assert_eq!(snapshot(d.path()), before, "nothing written or removed");
}

#[test]
fn a_failed_step_rolls_back_and_leaves_the_database_as_it_was() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    {
        // `sessions` as a view: step 1 cannot add the owner column to it.
        let c = Connection::open(&db).expect("open");
        c.execute_batch(
            "CREATE TABLE s0 (id TEXT, name TEXT, created_at TEXT, updated_at TEXT, model TEXT);
             CREATE VIEW sessions AS SELECT * FROM s0;",
        )
        .expect("plant");
    }
    let err = Store::open(&db).err().expect("refused");
    assert!(
        matches!(err, StoreError::Schema(SchemaError::Step { to: 1, .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("rolled back"));
    let c = Connection::open_with_flags(&db, OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open");
    assert_eq!(version(&c).expect("version"), 0);
    // The tables step 1 made before it failed are gone with the transaction.
    let made: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM sqlite_master WHERE name IN ('messages', 'grants', 'schema_history')",
            [],
            |r| r.get(0),
        )
        .expect("tables");
    assert_eq!(made, 0);
}

#[test]
fn no_backup_means_no_migration() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    plant_oldest(&db);
    // Something that is not our backup where the backup goes: a non-empty directory.
    let b = backup_path(&db, 0);
    std::fs::create_dir_all(b.join("keep")).expect("dir");
    let err = Store::open(&db).err().expect("refused");
    assert!(
        matches!(err, StoreError::Schema(SchemaError::Backup { .. })),
        "{err:?}"
    );
    assert!(err.to_string().contains("left untouched"));
    assert_eq!(user_version(&db), 0);
    assert!(b.join("keep").is_dir());
}

#[test]
fn a_file_that_is_not_a_database_is_named_in_the_error() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    std::fs::write(
        &db,
        b"this is not sqlite, just text long enough to have a header....",
    )
    .expect("write");
    let err = check(&db).expect_err("not a database");
    assert!(err.to_string().contains("llmops.sqlite"), "{err}");
}

#[test]
fn a_newer_version_still_in_the_wal_is_seen() {
    let d = tempfile::tempdir().expect("tempdir");
    let db = d.path().join("llmops.sqlite");
    drop(Store::open(&db).expect("open"));
    // A newer server still running: its version change is in the -wal, not in the file.
    let c = Connection::open(&db).expect("open");
    c.pragma_update(None, "wal_autocheckpoint", 0)
        .expect("no checkpoint");
    c.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
        .expect("bump");
    assert_eq!(
        header_version(&db).expect("header"),
        Some(SCHEMA_VERSION),
        "the file's header is stale"
    );
    assert!(matches!(
        check(&db),
        Err(SchemaError::Newer { found, .. }) if found == SCHEMA_VERSION + 1
    ));
    drop(c);
}
