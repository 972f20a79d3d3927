//! The last session the full-screen client used, per server address, kept in a small JSON
//! file in the XDG state dir (`$XDG_STATE_HOME/llmops/last_sessions.json`, else the data
//! dir) so a relaunch reopens it; `--new-session` skips it.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// At most this many servers are remembered (the oldest entries are not kept).
const MAX_SERVERS: usize = 64;

/// Where the file lives, if the platform has a state or data dir.
pub fn default_path() -> Option<PathBuf> {
    dirs::state_dir()
        .or_else(dirs::data_dir)
        .map(|d| d.join("llmops").join("last_sessions.json"))
}

fn read_map(path: &Path) -> BTreeMap<String, String> {
    match std::fs::read_to_string(path) {
        Ok(s) => serde_json::from_str(&s).unwrap_or_else(|e| {
            tracing::warn!("ignoring unreadable {}: {e}", path.display());
            BTreeMap::new()
        }),
        Err(_) => BTreeMap::new(),
    }
}

/// The session last used on `server`, if any.
pub fn load(path: &Path, server: &str) -> Option<String> {
    read_map(path).remove(server).filter(|s| !s.is_empty())
}

/// Records `session_id` as the last one used on `server` (written atomically).
pub fn save(path: &Path, server: &str, session_id: &str) -> std::io::Result<()> {
    let mut map = read_map(path);
    if map.get(server).map(String::as_str) == Some(session_id) {
        return Ok(());
    }
    if !map.contains_key(server) && map.len() >= MAX_SERVERS {
        if let Some(k) = map.keys().next().cloned() {
            map.remove(&k);
        }
    }
    map.insert(server.to_string(), session_id.to_string());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let tmp = path.with_extension("json.tmp");
    let mut f = std::fs::File::create(&tmp)?;
    f.write_all(serde_json::to_string_pretty(&map)?.as_bytes())?;
    f.sync_all()?;
    std::fs::rename(&tmp, path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_one_session_per_server() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("state").join("last_sessions.json");
        assert_eq!(load(&p, "127.0.0.1:9999"), None);
        save(&p, "127.0.0.1:9999", "aaa").expect("save");
        save(&p, "10.0.0.2:9999", "bbb").expect("save");
        save(&p, "127.0.0.1:9999", "ccc").expect("save");
        assert_eq!(load(&p, "127.0.0.1:9999").as_deref(), Some("ccc"));
        assert_eq!(load(&p, "10.0.0.2:9999").as_deref(), Some("bbb"));
        assert_eq!(load(&p, "other:1"), None);
    }

    #[test]
    fn a_corrupt_file_is_ignored_and_replaced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let p = dir.path().join("last_sessions.json");
        std::fs::write(&p, "not json").expect("write");
        assert_eq!(load(&p, "s:1"), None);
        save(&p, "s:1", "x").expect("save");
        assert_eq!(load(&p, "s:1").as_deref(), Some("x"));
    }
}
