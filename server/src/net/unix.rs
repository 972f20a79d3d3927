//! The Unix socket file: bound under a temporary name, given its mode and group (0660 and
//! the operators group, or 0600: the server's user and root only), then renamed into
//! place, so it is never reachable with looser permissions. A stale socket left by a
//! crashed server is replaced; a live one (another server answers) or any other file is
//! left alone and reported.

use std::io;
use std::os::unix::fs::{FileTypeExt, MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::peer::LocalAccess;

/// A bound socket file; [`SocketFile::remove`] deletes it if it is still ours.
#[derive(Debug)]
pub struct SocketFile {
    pub path: PathBuf,
    /// Inode and change time: an inode number alone may be reused by the next file.
    id: (u64, i64, i64),
}

fn file_id(m: &std::fs::Metadata) -> (u64, i64, i64) {
    (m.ino(), m.ctime(), m.ctime_nsec())
}

impl SocketFile {
    /// Removes the socket file at shutdown, unless another server has replaced it since.
    pub fn remove(&self) {
        match std::fs::symlink_metadata(&self.path) {
            Ok(m) if file_id(&m) == self.id => {
                if let Err(e) = std::fs::remove_file(&self.path) {
                    tracing::warn!(path = %self.path.display(), "socket not removed: {e}");
                }
            }
            _ => {}
        }
    }
}

/// Binds the listener at `path` with the access `access` asks for.
pub fn bind(
    path: &Path,
    access: &LocalAccess,
) -> io::Result<(tokio::net::UnixListener, SocketFile)> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    clear_stale(path)?;
    let tmp = path.with_file_name(format!(
        ".{}.{}.tmp",
        path.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default(),
        std::process::id()
    ));
    let _ = std::fs::remove_file(&tmp);
    let std_listener = std::os::unix::net::UnixListener::bind(&tmp)?;
    let prepared = (|| {
        let mode = match &access.operators {
            Some(g) => {
                std::os::unix::fs::chown(&tmp, None, Some(g.gid))?;
                0o660
            }
            None => 0o600,
        };
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(mode))?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = prepared {
        let _ = std::fs::remove_file(&tmp);
        return Err(e);
    }
    std_listener.set_nonblocking(true)?;
    let id = file_id(&std::fs::symlink_metadata(path)?);
    let listener = tokio::net::UnixListener::from_std(std_listener)?;
    Ok((
        listener,
        SocketFile {
            path: path.to_path_buf(),
            id,
        },
    ))
}

/// Removes a socket nobody listens on; refuses to touch a live socket or another file.
fn clear_stale(path: &Path) -> io::Result<()> {
    let meta = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    if !meta.file_type().is_socket() {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} exists and is not a socket; not replacing it",
                path.display()
            ),
        ));
    }
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(_) => Err(io::Error::new(
            io::ErrorKind::AddrInUse,
            format!("another server is listening on {}", path.display()),
        )),
        Err(e) if e.kind() == io::ErrorKind::ConnectionRefused => {
            tracing::info!(path = %path.display(), "removing a stale socket");
            std::fs::remove_file(path)
        }
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::peer::NamedGroup;

    fn access(operators: Option<NamedGroup>) -> LocalAccess {
        LocalAccess {
            server_uid: 0,
            operators,
            approvers: None,
        }
    }

    #[tokio::test]
    async fn the_socket_gets_its_mode_replaces_a_stale_one_and_keeps_a_live_one() {
        let d = tempfile::tempdir().expect("dir");
        let path = d.path().join("run").join("llmops.sock");
        let (l, file) = bind(&path, &access(None)).expect("bind");
        let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
        // A second server on the same path is refused while the first listens.
        let e = bind(&path, &access(None)).expect_err("live");
        assert_eq!(e.kind(), io::ErrorKind::AddrInUse);
        // The first one is gone without removing its file (a crash): the file is stale.
        drop(l);
        let (_l2, file2) = bind(&path, &access(None)).expect("stale replaced");
        // The old server's cleanup does not remove the new server's socket.
        file.remove();
        assert!(path.exists());
        file2.remove();
        assert!(!path.exists());
        // Another kind of file is never replaced.
        std::fs::write(&path, b"x").expect("file");
        let e = bind(&path, &access(None)).expect_err("not a socket");
        assert_eq!(e.kind(), io::ErrorKind::AlreadyExists);
    }

    #[tokio::test]
    async fn with_an_operators_group_the_socket_is_group_accessible() {
        let d = tempfile::tempdir().expect("dir");
        let path = d.path().join("llmops.sock");
        // Our own group: a process may always give its files to it.
        let gid = nix::unistd::getegid().as_raw();
        let own = NamedGroup {
            name: "own".into(),
            gid,
        };
        let (_l, file) = bind(&path, &access(Some(own))).expect("bind");
        let meta = std::fs::metadata(&path).expect("meta");
        assert_eq!(meta.permissions().mode() & 0o777, 0o660);
        assert_eq!(meta.gid(), gid);
        file.remove();
    }
}
