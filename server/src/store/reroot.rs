//! Upload rows whose stored path is outside this data directory (the directory was moved
//! or copied: a package install over a user's data, a restore from a backup) are pointed
//! again at the same file under it, `uploads/<file_id>/<name>`, when that file is there.

use std::path::Path;

use rusqlite::{params, Connection};

/// Re-roots the rows whose file is missing at its stored path but present under
/// `data_dir`; returns how many were changed.
pub fn reroot_uploads(c: &Connection, data_dir: &Path) -> rusqlite::Result<usize> {
    let uploads = data_dir.join("uploads");
    let rows: Vec<(String, String)> = {
        let mut st = c.prepare("SELECT file_id, path FROM uploads")?;
        let it = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        it.collect::<rusqlite::Result<_>>()?
    };
    let mut changed = 0;
    for (id, stored) in rows {
        let old = Path::new(&stored);
        if old.exists() {
            continue;
        }
        let Some(name) = old.file_name() else {
            continue;
        };
        let here = uploads.join(&id).join(name);
        if here.is_file() {
            c.execute(
                "UPDATE uploads SET path = ?1 WHERE file_id = ?2",
                params![here.to_string_lossy(), id],
            )?;
            changed += 1;
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_moved_upload_is_found_under_the_data_dir_and_a_present_one_is_left() {
        let dir = tempfile::tempdir().expect("tempdir");
        let c = Connection::open_in_memory().expect("db");
        c.execute_batch("CREATE TABLE uploads (file_id TEXT PRIMARY KEY, path TEXT NOT NULL)")
            .expect("table");
        let moved = dir.path().join("uploads/a1/app.log");
        std::fs::create_dir_all(moved.parent().expect("parent")).expect("mkdir");
        std::fs::write(&moved, "x").expect("write");
        let kept = dir.path().join("elsewhere.log");
        std::fs::write(&kept, "y").expect("write");
        c.execute(
            "INSERT INTO uploads VALUES ('a1', '/old/place/uploads/a1/app.log'), ('b2', ?1), ('c3', '/gone/c3/x.log')",
            params![kept.to_string_lossy()],
        )
        .expect("rows");
        assert_eq!(reroot_uploads(&c, dir.path()).expect("reroot"), 1);
        let path: String = c
            .query_row("SELECT path FROM uploads WHERE file_id = 'a1'", [], |r| {
                r.get(0)
            })
            .expect("row");
        assert_eq!(Path::new(&path), moved);
        let same: String = c
            .query_row("SELECT path FROM uploads WHERE file_id = 'b2'", [], |r| {
                r.get(0)
            })
            .expect("row");
        assert_eq!(Path::new(&same), kept);
    }
}
