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
/// holding it, as `df PATH` does: the longest mount point that is a whole-component prefix
/// of the path. Returns a note per path so read, in both languages.
pub fn on_their_filesystems(filters: &mut [Filter], mounts: &[&str]) -> Vec<String> {
    let mut notes = Vec::new();
    for f in filters.iter_mut() {
        let is_mount = f.field.as_ref().is_some_and(|x| x.as_str() == "mount");
        let (true, FilterOp::Eq, Scalar::Text(path)) = (is_mount, f.op, &f.value) else {
            continue;
        };
        if !path.starts_with('/') || mounts.contains(&path.as_str()) {
            continue;
        }
        let Some(holder) = holding_mount(path, mounts) else {
            continue;
        };
        notes.push(format!(
            "{path} 不是挂载点，按它所在的文件系统 {holder} 计算 / {path} is no mount point: \
             its filesystem is the one mounted at {holder}"
        ));
        f.value = Scalar::Text(holder.to_string());
    }
    notes
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
        }
    }

    #[test]
    fn a_path_is_read_as_the_filesystem_holding_it() {
        let mounts = ["/", "/var", "/boot/efi", "/data"];
        for (path, holder) in [
            ("/var/log/nginx", "/var"),
            ("/var", "/var"),
            ("/variant", "/"),
            ("/boot/efi/EFI", "/boot/efi"),
            ("/boot", "/"),
            ("/data/", "/data"),
            ("/home/u", "/"),
        ] {
            let mut f = [mount_is(path)];
            let notes = on_their_filesystems(&mut f, &mounts);
            assert_eq!(f[0].value, Scalar::Text(holder.into()), "{path}");
            assert_eq!(
                notes.len(),
                usize::from(path != holder),
                "{path}: {notes:?}"
            );
        }
        // A relative path or another field is left as written.
        let mut f = [mount_is("var")];
        assert!(on_their_filesystems(&mut f, &mounts).is_empty());
        assert_eq!(f[0].value, Scalar::Text("var".into()));
    }
}
