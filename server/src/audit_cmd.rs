//! `llmops-server audit verify [--data-dir DIR]`: checks the audit log's hash chain and says
//! so in one line: exit 0 "intact, N records", 1 with the first bad record's line and why,
//! 2 when the log cannot be read.

use std::path::Path;

use llmops_tools::audit::chain::{self, ChainReport};

/// The exit code and the line to print for the log under `data_dir`.
pub fn verify(data_dir: &Path) -> (u8, String) {
    let path = data_dir.join("logs").join("file_operations.log");
    match chain::verify(&path) {
        Ok(r) => report(&path, &r),
        Err(e) => (
            2,
            format!(
                "无法读取审计日志 {}: {e} / cannot read the audit log {}: {e}",
                path.display(),
                path.display()
            ),
        ),
    }
}

fn report(path: &Path, r: &ChainReport) -> (u8, String) {
    let p = path.display();
    if let Some((line, why)) = &r.first_bad {
        return (1, format!("{p}: 第 {line} 行 / line {line}: {why}"));
    }
    match r.chain_starts {
        None if r.records > 0 => (
            0,
            format!(
                "{p}: 没有带链字段的记录，无法校验 ({} 条旧记录) / no chained records to check ({} older records)",
                r.records, r.records
            ),
        ),
        Some(start) if start > 1 => (
            0,
            format!(
                "{p}: intact, {} records (链从第 {start} 行开始，之前 {} 条为旧格式 / the chain starts at line {start}; the {} records before it predate it)",
                r.records,
                start - 1,
                start - 1
            ),
        ),
        _ => (0, format!("{p}: intact, {} records", r.records)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use llmops_tools::audit::{Audit, AuditOp};

    #[test]
    fn verify_says_intact_or_names_the_first_bad_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(verify(dir.path()).0, 2, "no log");
        let audit = Audit::open(dir.path()).expect("open");
        for i in 0..4 {
            audit.record(AuditOp::Read, &[("path", &format!("/x{i}"))]);
        }
        drop(audit);
        let (code, text) = verify(dir.path());
        assert_eq!(code, 0);
        assert!(text.ends_with("intact, 4 records"), "{text}");
        let path = dir.path().join("logs/file_operations.log");
        let edited = std::fs::read_to_string(&path)
            .expect("read")
            .replace("/x2", "/y2");
        std::fs::write(&path, edited).expect("write");
        let (code, text) = verify(dir.path());
        assert_eq!(code, 1);
        assert!(text.contains("line 3") && text.contains("edited"), "{text}");
    }
}
