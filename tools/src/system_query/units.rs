//! The systemd units table, from `systemctl list-units --all --plain --no-legend
//! --no-pager` (unit, load, active, sub, description), where systemd runs.

use llmops_common::query::{FieldKind, Unit};

use super::table::{col, SysCell, SysTable};

/// Parses `systemctl list-units --plain --no-legend` lines.
pub fn parse(text: &str) -> Vec<Vec<SysCell>> {
    text.lines()
        .filter_map(|l| {
            let l = l.trim_start_matches(['●', '*', ' ']);
            let mut it = l.split_whitespace();
            let unit = it.next()?;
            let load = it.next()?;
            let active = it.next()?;
            let sub = it.next()?;
            let description = it.collect::<Vec<_>>().join(" ");
            Some(vec![
                SysCell::Text(unit.to_string()),
                SysCell::Text(load.to_string()),
                SysCell::Text(active.to_string()),
                SysCell::Text(sub.to_string()),
                SysCell::Text(description),
            ])
        })
        .collect()
}

/// Why the units table could not be read.
#[derive(Debug, thiserror::Error)]
pub enum UnitsError {
    #[error("这台主机上没有 systemctl，无法列出 systemd 单元 (systemctl is not installed here)")]
    Missing,
    #[error("systemd 没有在这台主机上运行 (systemd is not running on this host): {0}")]
    NotRunning(String),
}

/// The units table of this host (runs `systemctl`, bounded by the caller's timeout).
pub async fn table() -> Result<SysTable, UnitsError> {
    let out = tokio::process::Command::new("systemctl")
        .args([
            "list-units",
            "--all",
            "--plain",
            "--no-legend",
            "--no-pager",
        ])
        .kill_on_drop(true)
        .output()
        .await
        .map_err(|_| UnitsError::Missing)?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(UnitsError::NotRunning(err));
    }
    Ok(SysTable {
        name: "units",
        fields: vec![
            col("unit", FieldKind::Text, Unit::None),
            col("load", FieldKind::Text, Unit::None),
            col("active", FieldKind::Text, Unit::None),
            col("sub", FieldKind::Text, Unit::None),
            col("description", FieldKind::Text, Unit::None),
        ],
        rows: parse(&String::from_utf8_lossy(&out.stdout)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn list_units_lines_parse_with_their_description() {
        let rows = parse(
            "nginx.service loaded active running A high performance web server\n\
             ● redis.service loaded failed failed Advanced key-value store\n",
        );
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[1][0], SysCell::Text("redis.service".into()));
        assert_eq!(rows[1][2], SysCell::Text("failed".into()));
        assert_eq!(
            rows[0][4],
            SysCell::Text("A high performance web server".into())
        );
    }
}
