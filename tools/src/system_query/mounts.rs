//! The mounts table, as `df -T` shows it: the sampler's file systems with df's figures
//! (used = blocks - free, Use% rounded up over used + available).

use llmops_common::query::{FieldKind, Unit};

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
