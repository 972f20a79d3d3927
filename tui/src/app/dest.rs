//! Where an accepted download goes: resolving the path typed in the save-as prompt
//! (`~`, relative to the download folder, a folder means "this name inside it"), and the
//! checks made before any byte moves: the folder can exist, the file does not silently get
//! overwritten, and the destination filesystem has room (statvfs).

use std::path::{Path, PathBuf};

use crate::app::human_size;

/// A destination that passed the checks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    pub path: PathBuf,
    /// A file already exists there: the user must confirm overwriting it.
    pub exists: bool,
}

/// Turns what the user typed into an absolute file path. Relative paths are taken from
/// `base` (the download folder); an existing folder (or a trailing `/`) gets `filename`.
pub fn resolve(typed: &str, base: &Path, filename: &str) -> Result<PathBuf, String> {
    let t = typed.trim();
    if t.is_empty() {
        return Err("请输入保存路径 / enter a path to save the file to".into());
    }
    let mut p = if t == "~" || t.starts_with("~/") {
        let home = dirs::home_dir()
            .ok_or_else(|| "找不到主目录 / cannot find the home folder for ~".to_string())?;
        home.join(t.trim_start_matches('~').trim_start_matches('/'))
    } else {
        PathBuf::from(t)
    };
    if p.is_relative() {
        p = base.join(p);
    }
    if t.ends_with('/') || p.is_dir() {
        p = p.join(filename);
    }
    Ok(p)
}

/// The nearest ancestor of `p` that exists (where a missing folder would be created).
fn existing_ancestor(p: &Path) -> Option<&Path> {
    p.ancestors().skip(1).find(|a| a.exists())
}

/// Bytes available to this (unprivileged) user on the filesystem holding `p`.
pub fn free_space(p: &Path) -> std::io::Result<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(p.as_os_str().as_bytes())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    // SAFETY: `c` is a valid NUL-terminated path and `st` a properly sized out-parameter
    // that statvfs fills in completely on success.
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    let rc = unsafe { libc::statvfs(c.as_ptr(), &mut st) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error());
    }
    #[allow(clippy::unnecessary_cast)] // the field types differ between platforms
    Ok((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

/// The free-space rule on its own: the whole file must fit (it is written to a temp file
/// beside the destination before the rename, so an old file's space is not reusable).
pub fn fits(size: u64, free: u64) -> bool {
    size <= free
}

/// Checks `path` as the destination of a `size`-byte download.
pub fn check(path: &Path, size: u64) -> Result<Checked, String> {
    if path.file_name().is_none() {
        return Err(format!(
            "不是文件路径 / {} is not a file path",
            path.display()
        ));
    }
    if path.is_dir() {
        return Err(format!(
            "这是一个文件夹 / {} is a folder, not a file",
            path.display()
        ));
    }
    let dir = existing_ancestor(path).ok_or_else(|| {
        format!(
            "目标文件夹不存在 / no existing folder above {}",
            path.display()
        )
    })?;
    if !dir.is_dir() {
        return Err(format!(
            "路径中有文件而非文件夹 / {} is a file, not a folder",
            dir.display()
        ));
    }
    let free = free_space(dir).map_err(|e| {
        format!(
            "无法检查剩余空间 / cannot check free space on {}: {e}",
            dir.display()
        )
    })?;
    if !fits(size, free) {
        return Err(format!(
            "磁盘空间不足 / not enough space on {}: the file needs {}, only {} free",
            dir.display(),
            human_size(size),
            human_size(free)
        ));
    }
    Ok(Checked {
        path: path.to_path_buf(),
        exists: path.exists(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resolves_relative_folders_and_trailing_slashes() {
        let d = tempfile::tempdir().expect("tempdir");
        let base = d.path();
        std::fs::create_dir(base.join("sub")).expect("mkdir");
        assert_eq!(
            resolve("x.conf", base, "n.conf").expect("ok"),
            base.join("x.conf")
        );
        assert_eq!(
            resolve("sub", base, "n.conf").expect("ok"),
            base.join("sub/n.conf")
        );
        assert_eq!(
            resolve("new/", base, "n.conf").expect("ok"),
            base.join("new/n.conf")
        );
        let abs = base.join("abs.txt");
        assert_eq!(
            resolve(&abs.display().to_string(), Path::new("/elsewhere"), "n").expect("ok"),
            abs
        );
        assert!(resolve("  ", base, "n")
            .unwrap_err()
            .contains("enter a path"));
    }

    #[test]
    fn check_flags_existing_files_folders_and_missing_space() {
        let d = tempfile::tempdir().expect("tempdir");
        let f = d.path().join("a.txt");
        let c = check(&f, 10).expect("fits");
        assert!(!c.exists);
        std::fs::write(&f, b"old").expect("write");
        assert!(check(&f, 10).expect("fits").exists);
        // A missing folder is fine: it is created, and the space checked where it would be.
        assert!(check(&d.path().join("new/dir/b.txt"), 10).is_ok());
        let e = check(d.path(), 10).unwrap_err();
        assert!(e.contains("is a folder"), "{e}");
        // Far more than any filesystem has free: refused with both languages.
        let e = check(&d.path().join("huge.bin"), u64::MAX / 2).unwrap_err();
        assert!(
            e.contains("磁盘空间不足") && e.contains("not enough space"),
            "{e}"
        );
        assert!(free_space(d.path()).expect("statvfs") > 0);
        assert!(fits(5, 5) && !fits(6, 5));
    }
}
