//! The data directory across releases, through the real binaries: one written by the
//! release before schema versions (`tests/fixtures/datadir-v0`, made by its `make.sh`) is
//! migrated and served whole; one written by a newer release is refused and left as it was.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use llmops_tests::{bin, run_tui, ServerProc};
use rusqlite::{Connection, OpenFlags};

const ALICE: &str = "alice-token-0123456789";
const BOB: &str = "bob-token-0123456789";

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/datadir-v0/data")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read fixture") {
        let e = e.expect("entry");
        let dest = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy_dir(&e.path(), &dest);
        } else {
            std::fs::copy(e.path(), &dest).expect("copy");
        }
    }
}

/// Every file under `dir` (relative path -> bytes).
fn files_under(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let rel = p.strip_prefix(dir).expect("under dir").to_path_buf();
                out.insert(rel, std::fs::read(&p).expect("read"));
            }
        }
    }
    out
}

fn ro(path: &Path) -> Connection {
    Connection::open_with_flags(path, OpenFlags::SQLITE_OPEN_READ_ONLY).expect("open db")
}

fn user_version(c: &Connection) -> u32 {
    c.query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("user_version")
}

/// `llmops-tui --json ARGS` against the server with `token`; the parsed stdout.
fn tui_json(server: &ServerProc, token: &str, args: &[&str]) -> serde_json::Value {
    let addr = server.addr.to_string();
    let mut all = vec!["--server", &addr, "--token", token, "--json"];
    all.extend_from_slice(args);
    let (code, out, err) = run_tui(&all).expect("run llmops-tui");
    assert_eq!(code, 0, "llmops-tui {args:?}: {err}");
    serde_json::from_str(out.trim()).expect("json")
}

/// Message counts per session id, read from a database file directly.
fn message_counts(c: &Connection, owner: &str) -> BTreeMap<String, u64> {
    let mut st = c
        .prepare(
            "SELECT s.id, (SELECT COUNT(*) FROM messages m WHERE m.session_id = s.id)
             FROM sessions s WHERE s.owner = ?1",
        )
        .expect("prepare");
    let rows = st
        .query_map([owner], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))
        .expect("query")
        .collect::<rusqlite::Result<BTreeMap<String, u64>>>()
        .expect("rows");
    rows
}

#[test]
fn the_previous_releases_data_directory_is_migrated_and_served_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_dir(&fixture(), dir.path());
    let db = dir.path().join("llmops.sqlite");
    assert_eq!(user_version(&ro(&db)), 0, "the fixture predates versions");
    let before = {
        let c = ro(&db);
        (message_counts(&c, "alice"), message_counts(&c, "bob"))
    };
    assert_eq!(
        (before.0.len(), before.1.len()),
        (2, 1),
        "fixture: {before:?}"
    );

    let server = ServerProc::start_in(
        dir,
        &[
            "--embedder",
            "none",
            "--auth-token",
            &format!("alice={ALICE}"),
            "--auth-token",
            &format!("bob={BOB}"),
        ],
    )
    .expect("server on the old data directory");
    let data = server.data_path().to_path_buf();

    // Versioned now, with the history of the step, and the old file kept beside it.
    let c = ro(&db);
    let version = user_version(&c);
    assert!(version >= 1);
    let (max, from): (u32, Option<u32>) = c
        .query_row(
            "SELECT MAX(version), MIN(from_version) FROM schema_history",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .expect("history");
    assert_eq!((max, from), (version, Some(0)));
    let backup = data.join("llmops.sqlite.v0-backup");
    assert_eq!(user_version(&ro(&backup)), 0);

    // Each token sees its own sessions with the message counts the old database held.
    for (token, want) in [(ALICE, &before.0), (BOB, &before.1)] {
        let v = tui_json(&server, token, &["sessions"]);
        let got: BTreeMap<String, u64> = v["sessions"]
            .as_array()
            .expect("sessions")
            .iter()
            .map(|s| {
                (
                    s["id"].as_str().expect("id").to_string(),
                    s["messages"].as_u64().expect("messages"),
                )
            })
            .filter(|(id, _)| want.contains_key(id))
            .collect();
        assert_eq!(&got, want, "sessions of {token}");
    }

    // Alice's upload: listed with the sha256 of the file it was made from, and its bytes
    // come back whole.
    let app_log = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/app.log"))
        .expect("app.log");
    let sha = {
        use sha2::Digest;
        hex::encode(sha2::Sha256::digest(&app_log))
    };
    let session = before
        .0
        .keys()
        .find(|id| {
            let v = tui_json(&server, ALICE, &["--session", id, "files"]);
            v["files"].as_array().is_some_and(|f| !f.is_empty())
        })
        .expect("alice has a session with an upload")
        .clone();
    let v = tui_json(&server, ALICE, &["--session", &session, "files"]);
    let file = &v["files"][0];
    assert_eq!(file["filename"], "app.log");
    assert_eq!(file["sha256"], sha.as_str());
    let out = tempfile::tempdir().expect("out");
    let out_dir = out.path().to_string_lossy().into_owned();
    let file_id = file["file_id"].as_str().expect("file_id").to_string();
    tui_json(
        &server,
        ALICE,
        &[
            "--session",
            &session,
            "download",
            "--out",
            &out_dir,
            "--mode",
            "nplt",
            &file_id,
        ],
    );
    assert_eq!(
        std::fs::read(out.path().join("app.log")).expect("downloaded"),
        app_log
    );

    // The audit log written by the old release still verifies, with the new records.
    let (ok, dir) = server.terminate().expect("stop");
    assert!(ok, "clean exit");
    let st = Command::new(bin("llmops-server"))
        .args(["--config", "/dev/null", "audit", "verify", "--data-dir"])
        .arg(dir.path())
        .output()
        .expect("audit verify");
    assert!(
        st.status.success(),
        "{}",
        String::from_utf8_lossy(&st.stderr)
    );
}

#[test]
fn a_data_directory_from_a_newer_release_is_refused_and_left_as_it_was() {
    let server = ServerProc::start_with(&["--embedder", "none"]).expect("server");
    let (ok, dir) = server.terminate().expect("stop");
    assert!(ok);
    let db = dir.path().join("llmops.sqlite");
    let newer = {
        let c = Connection::open(&db).expect("open");
        let v = user_version(&c) + 1;
        c.pragma_update(None, "user_version", v).expect("bump");
        v
    };
    let before = files_under(dir.path());
    let out = Command::new(bin("llmops-server"))
        .args(["--config", "/dev/null", "--embedder", "none"])
        .args(["--listen", "127.0.0.1:0", "--rdt-listen", "127.0.0.1:0"])
        .args(["--http-listen", "127.0.0.1:0", "--data-dir"])
        .arg(dir.path())
        .output()
        .expect("run llmops-server");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "stderr: {err}");
    assert!(err.contains("written by a newer llmops"), "{err}");
    assert!(err.contains("更新版本"), "{err}");
    assert!(err.contains(&format!("schema version {newer}")), "{err}");
    assert!(
        String::from_utf8_lossy(&out.stdout).is_empty(),
        "no readiness"
    );
    assert_eq!(files_under(dir.path()), before, "nothing in it changed");
}
