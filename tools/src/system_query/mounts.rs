//! The mounts table, as `df -T` shows it: the sampler's file systems with df's figures
//! (used = blocks - free, Use% rounded up over used + available).

use llmops_common::query::{FieldKind, Filter, FilterOp, Scalar, Unit};

use super::table::{col, SysCell, SysTable};
use crate::sys_monitor::DiskStats;

fn int(v: u64) -> SysCell {
    SysCell::Int(i64::try_from(v).unwrap_or(i64::MAX))
}

/// The mounts table from the sampler's disks.
pub fn table(disks: &[DiskStats]) -> SysTable {
    SysTable {
        name: "mounts",
        fields: vec![
            col("mount", FieldKind::Text, Unit::None),
            col("fstype", FieldKind::Text, Unit::None),
            col("size_bytes", FieldKind::Integer, Unit::B),
            col("used_bytes", FieldKind::Integer, Unit::B),
            col("avail_bytes", FieldKind::Integer, Unit::B),
            col("use_percent", FieldKind::Number, Unit::Percent),
        ],
        rows: disks
            .iter()
            .map(|d| {
                vec![
                    SysCell::Text(d.mount.clone()),
                    SysCell::Text(d.fs.clone()),
                    int(d.total_bytes),
                    int(d.used_bytes),
                    int(d.available_bytes),
                    SysCell::Num(d.usage_percent),
                ]
            })
            .collect(),
    }
}

/// Reads a `mount = PATH` condition on a path that is no mount point as the filesystem
/// holding it, as `df PATH` does: the longest mount point of the host (`every`, from
/// `/proc/self/mounts`) that is a whole-component prefix of the path. When that filesystem
/// is one the table lists (`listed`), the condition names it, with a note in both
/// languages; when the table leaves it out (a tmpfs, an overlay), the note says so and the
/// condition is left to match nothing rather than another filesystem's figures.
pub fn on_their_filesystems(
    filters: &mut [Filter],
    listed: &[&str],
    every: &[String],
) -> Vec<String> {
    let mut notes = Vec::new();
    for f in filters.iter_mut() {
        let is_mount = f.field.as_ref().is_some_and(|x| x.as_str() == "mount");
        let (true, FilterOp::Eq, Scalar::Text(path)) = (is_mount, f.op, &f.value) else {
            continue;
        };
        let path = path.clone();
        let trimmed = match path.trim_end_matches('/') {
            "" => "/",
            t => t,
        };
        if !path.starts_with('/') {
            continue;
        }
        if listed.contains(&trimmed) {
            f.value = Scalar::Text(trimmed.to_string());
            continue;
        }
        let all: Vec<&str> = every
            .iter()
            .map(String::as_str)
            .chain(listed.iter().copied())
            .collect();
        let Some(holder) = holding_mount(trimmed, &all) else {
            continue;
        };
        if listed.contains(&holder) {
            notes.push(format!(
                "{path} 不是挂载点，按它所在的文件系统 {holder} 计算 / {path} is no mount point: \
                 its filesystem is the one mounted at {holder}"
            ));
            f.value = Scalar::Text(holder.to_string());
        } else {
            notes.push(format!(
                "{path} 在 {holder} 挂载的文件系统上，挂载表不列出它（tmpfs、overlay 等）/ {path} \
                 is on the filesystem mounted at {holder}, which the mounts table leaves out \
                 (tmpfs, overlay and the like)"
            ));
        }
    }
    notes
}

/// The mount points of the host, from `/proc/self/mounts` (octal escapes such as `\040` for
/// a space decoded); empty when it cannot be read.
pub fn host_mount_points() -> Vec<String> {
    let text = std::fs::read_to_string("/proc/self/mounts").unwrap_or_default();
    text.lines()
        .filter_map(|l| l.split(' ').nth(1))
        .map(unescape_octal)
        .collect()
}

/// `\NNN` octal escapes (as the kernel writes a space or a tab in a mount point) decoded.
fn unescape_octal(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let code = (b[i] == b'\\')
            .then(|| b.get(i + 1..i + 4))
            .flatten()
            .and_then(|o| std::str::from_utf8(o).ok())
            .and_then(|o| u8::from_str_radix(o, 8).ok());
        match code {
            Some(c) => {
                out.push(c);
                i += 4;
            }
            None => {
                out.push(b[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The longest mount point that holds `path` (`/var/log` is on `/var` when that is
/// mounted, else on `/`; `/variant` is not on `/var`).
fn holding_mount<'a>(path: &str, mounts: &[&'a str]) -> Option<&'a str> {
    let path = path.trim_end_matches('/');
    mounts
        .iter()
        .filter(|m| {
            let m = m.trim_end_matches('/');
            m.is_empty() || path == m || path.strip_prefix(m).is_some_and(|r| r.starts_with('/'))
        })
        .max_by_key(|m| m.len())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;
    use llmops_common::query::Field;

    fn mount_is(path: &str) -> Filter {
        Filter {
            field: Some(Field::new("mount")),
            op: FilterOp::Eq,
            value: Scalar::Text(path.into()),
            unit: Unit::None,
            case_sensitive: false,
            negate: false,
        }
    }

    #[test]
    fn a_path_is_read_as_the_filesystem_holding_it() {
        let mounts = ["/", "/var", "/boot/efi", "/data"];
        let every: Vec<String> = ["/", "/tmp", "/dev/shm", "/var"]
            .iter()
            .map(|m| m.to_string())
            .collect();
        for (path, holder, noted) in [
            ("/var/log/nginx", "/var", true),
            ("/var", "/var", false),
            ("/variant", "/", true),
            ("/boot/efi/EFI", "/boot/efi", true),
            ("/boot", "/", true),
            ("/data/", "/data", false),
            ("/home/u", "/", true),
        ] {
            let mut f = [mount_is(path)];
            let notes = on_their_filesystems(&mut f, &mounts, &every);
            assert_eq!(f[0].value, Scalar::Text(holder.into()), "{path}");
            assert_eq!(notes.len(), usize::from(noted), "{path}: {notes:?}");
        }
        // On a filesystem the table leaves out (a tmpfs): said, and no other figures.
        let mut f = [mount_is("/tmp/x")];
        let notes = on_their_filesystems(&mut f, &mounts, &every);
        assert_eq!(f[0].value, Scalar::Text("/tmp/x".into()));
        assert!(
            notes[0].contains("mounted at /tmp, which the mounts table leaves out"),
            "{notes:?}"
        );
        // A relative path or another field is left as written.
        let mut f = [mount_is("var")];
        assert!(on_their_filesystems(&mut f, &mounts, &every).is_empty());
        assert_eq!(f[0].value, Scalar::Text("var".into()));
        assert_eq!(unescape_octal("/mnt/my\\040disk"), "/mnt/my disk");
    }
}
