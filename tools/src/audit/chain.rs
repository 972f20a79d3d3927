//! The audit log's hash chain: every record ends with `prev=<hex>` (the hash of the record
//! before it) and `hash=<hex>` (sha256 of the record's text up to and including its `prev=`
//! field). A record's hash is its `hash=` field, or, for a record written before the chain
//! existed, the sha256 of its whole line; the first line of a file follows `GENESIS`. So an
//! edited record fails its own hash, a deleted one breaks the `prev=` of the next, a
//! reordered one points at a record that is elsewhere, and the chain survives restarts
//! (the writer reads the last record's hash on open).

use std::collections::HashMap;
use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::path::Path;

use sha2::{Digest, Sha256};

/// The `prev=` of the first record of a log.
pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";

const PREV_KEY: &str = " prev=";
const HASH_KEY: &str = " hash=";

pub fn sha256_hex(s: &str) -> String {
    hex::encode(Sha256::digest(s.as_bytes()))
}

/// Appends the chain fields to a formatted record; returns the line and its hash.
pub fn seal(line: &str, prev: &str) -> (String, String) {
    let body = format!("{line}{PREV_KEY}{prev}");
    let hash = sha256_hex(&body);
    (format!("{body}{HASH_KEY}{hash}"), hash)
}

/// A record's chain fields, when it has them: (prev, hash, body the hash covers).
fn fields(line: &str) -> Option<(&str, &str, &str)> {
    let i = line.rfind(HASH_KEY)?;
    let (body, hash) = (&line[..i], &line[i + HASH_KEY.len()..]);
    let j = body.rfind(PREV_KEY)?;
    let prev = &body[j + PREV_KEY.len()..];
    let hexish = |s: &str| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
    (hexish(prev) && hexish(hash)).then_some((prev, hash, body))
}

/// The hash the next record must name in `prev=`.
pub fn link_of(line: &str) -> String {
    match fields(line) {
        Some((_, hash, _)) => hash.to_string(),
        None => sha256_hex(line),
    }
}

/// The link of the last line of the file (`GENESIS` for a missing or empty file). Reads
/// only the tail, so opening a large log stays cheap.
pub fn last_link(path: &Path) -> io::Result<String> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(GENESIS.to_string()),
        Err(e) => return Err(e),
    };
    let len = f.metadata()?.len();
    let mut back = 64 * 1024u64;
    loop {
        let start = len.saturating_sub(back);
        f.seek(SeekFrom::Start(start))?;
        let mut buf = Vec::new();
        f.by_ref().take(len - start).read_to_end(&mut buf)?;
        let text = String::from_utf8_lossy(&buf);
        let trimmed = text.trim_end_matches('\n');
        match trimmed.rfind('\n') {
            Some(i) => return Ok(link_of(&trimmed[i + 1..])),
            None if start == 0 => {
                return Ok(if trimmed.is_empty() {
                    GENESIS.to_string()
                } else {
                    link_of(trimmed)
                })
            }
            None => back *= 4,
        }
    }
}

/// Why a record breaks the chain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ChainBreak {
    /// Its text no longer matches its own hash.
    Edited,
    /// Its `prev=` names a record found elsewhere in the file (at this line).
    Reordered { follows_line: usize },
    /// Its `prev=` names no record in the file: the one before it was deleted (or edited
    /// together with its hash).
    Deleted,
    /// A record without chain fields after the chain started (inserted, or fields stripped).
    Unchained,
}

impl fmt::Display for ChainBreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ChainBreak::Edited => f.write_str(
                "记录被修改: 内容与其 hash 不符 / record edited: its text does not match its hash",
            ),
            ChainBreak::Reordered { follows_line } => write!(
                f,
                "记录顺序被改动: prev 指向第 {follows_line} 行的记录 / records reordered: prev names the record on line {follows_line}"
            ),
            ChainBreak::Deleted => f.write_str(
                "前一条记录缺失 (被删除或连同 hash 一起被改写) / the record before it is missing (deleted, or rewritten with its hash)",
            ),
            ChainBreak::Unchained => f.write_str(
                "链开始后出现没有链字段的记录 (插入或字段被删) / a record without chain fields after the chain started (inserted or stripped)",
            ),
        }
    }
}

/// The result of checking a whole log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChainReport {
    /// Records (non-empty lines) read.
    pub records: usize,
    /// The line of the first chained record (None: no record carries chain fields).
    pub chain_starts: Option<usize>,
    /// The first record that breaks the chain: its line number (1-based) and why.
    pub first_bad: Option<(usize, ChainBreak)>,
}

impl ChainReport {
    pub fn intact(&self) -> bool {
        self.first_bad.is_none()
    }
}

/// Checks every record of the log at `path`.
pub fn verify(path: &Path) -> io::Result<ChainReport> {
    let reader = BufReader::new(File::open(path)?);
    let mut lines = Vec::new();
    for l in reader.split(b'\n') {
        lines.push(String::from_utf8_lossy(&l?).into_owned());
    }
    while lines.last().is_some_and(|l| l.is_empty()) {
        lines.pop();
    }
    Ok(verify_lines(&lines))
}

/// Checks records given as lines (the file's order).
pub fn verify_lines(lines: &[String]) -> ChainReport {
    let links: Vec<String> = lines.iter().map(|l| link_of(l)).collect();
    let mut by_link: HashMap<&str, usize> = HashMap::new();
    for (i, l) in links.iter().enumerate() {
        by_link.entry(l.as_str()).or_insert(i + 1);
    }
    let mut report = ChainReport {
        records: lines.len(),
        chain_starts: None,
        first_bad: None,
    };
    for (i, line) in lines.iter().enumerate() {
        let n = i + 1;
        let Some((prev, hash, body)) = fields(line) else {
            if report.chain_starts.is_some() {
                report.first_bad = Some((n, ChainBreak::Unchained));
                return report;
            }
            continue;
        };
        report.chain_starts.get_or_insert(n);
        if sha256_hex(body) != hash {
            report.first_bad = Some((n, ChainBreak::Edited));
            return report;
        }
        let expected = if i == 0 {
            GENESIS
        } else {
            links[i - 1].as_str()
        };
        if prev != expected {
            let why = match by_link.get(prev) {
                Some(&j) if j != n - 1 => ChainBreak::Reordered { follows_line: j },
                _ => ChainBreak::Deleted,
            };
            report.first_bad = Some((n, why));
            return report;
        }
    }
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{Audit, AuditOp};

    fn write_mixed(dir: &Path) -> std::path::PathBuf {
        let audit = Audit::open(dir).expect("open");
        audit.record(AuditOp::Upload, &[("file_id", "a"), ("size", "10")]);
        audit.deny(
            &[("tool", "file_read"), ("path", "/etc/shadow")],
            "路径匹配禁止模式",
        );
        audit.record(AuditOp::ApprovalRequest, &[("argv", "kill -TERM 4242")]);
        audit.record(
            AuditOp::ActionExec,
            &[("argv", "kill -TERM 4242"), ("exit_code", "0")],
        );
        audit.record(
            AuditOp::Exec,
            &[("command", "ps"), ("note", "x = \"y\"\nz")],
        );
        audit.path().expect("path").to_path_buf()
    }

    fn lines(path: &Path) -> Vec<String> {
        std::fs::read_to_string(path)
            .expect("read")
            .lines()
            .map(String::from)
            .collect()
    }

    fn write(path: &Path, lines: &[String]) {
        std::fs::write(path, lines.join("\n") + "\n").expect("write");
    }

    #[test]
    fn an_intact_log_of_mixed_records_verifies() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_mixed(dir.path());
        let r = verify(&path).expect("verify");
        assert_eq!(r.records, 5);
        assert_eq!(r.chain_starts, Some(1));
        assert!(r.intact(), "{r:?}");
        assert!(lines(&path)[0].contains(&format!(" prev={GENESIS} hash=")));
    }

    #[test]
    fn a_log_written_across_two_opens_verifies() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_mixed(dir.path());
        // Every handle of the first open is gone: the second reads the head from the file.
        let again = Audit::open(dir.path()).expect("reopen");
        again.record(AuditOp::GrantAdded, &[("rule", "systemctl restart nginx")]);
        drop(again);
        let third = Audit::open(dir.path()).expect("reopen");
        third.record(AuditOp::GrantRevoked, &[("grant", "g1")]);
        let r = verify(&path).expect("verify");
        assert_eq!((r.records, r.intact()), (7, true), "{r:?}");
        // Two live handles on one file share the head.
        let a = Audit::open(dir.path()).expect("a");
        let b = Audit::open(dir.path()).expect("b");
        a.record(AuditOp::Read, &[("path", "/x")]);
        b.record(AuditOp::Read, &[("path", "/y")]);
        a.record(AuditOp::Read, &[("path", "/z")]);
        let r = verify(&path).expect("verify");
        assert_eq!((r.records, r.intact()), (10, true), "{r:?}");
    }

    #[test]
    fn an_edited_record_is_found_on_its_own_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_mixed(dir.path());
        let mut l = lines(&path);
        l[3] = l[3].replace("exit_code=0", "exit_code=1");
        write(&path, &l);
        let r = verify(&path).expect("verify");
        assert_eq!(r.first_bad, Some((4, ChainBreak::Edited)));
        // Rewriting the hash too still breaks the next record's prev.
        let mut l = lines(&path);
        let i = l[3].rfind(" hash=").expect("hash");
        let body = l[3][..i].to_string();
        l[3] = format!("{body} hash={}", sha256_hex(&body));
        write(&path, &l);
        let r = verify(&path).expect("verify");
        assert_eq!(r.first_bad, Some((5, ChainBreak::Deleted)));
    }

    #[test]
    fn a_deleted_record_is_found_where_the_gap_is() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_mixed(dir.path());
        let mut l = lines(&path);
        l.remove(2);
        write(&path, &l);
        let r = verify(&path).expect("verify");
        assert_eq!(r.first_bad, Some((3, ChainBreak::Deleted)));
        assert_eq!(r.records, 4);
        // Deleting the first record breaks the genesis link.
        let mut l = lines(&path);
        l.remove(0);
        write(&path, &l);
        assert_eq!(
            verify(&path).expect("verify").first_bad,
            Some((1, ChainBreak::Deleted))
        );
    }

    #[test]
    fn reordered_records_are_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = write_mixed(dir.path());
        let mut l = lines(&path);
        l.swap(1, 2);
        write(&path, &l);
        let r = verify(&path).expect("verify");
        assert_eq!(
            r.first_bad,
            Some((2, ChainBreak::Reordered { follows_line: 3 }))
        );
        assert!(r
            .first_bad
            .expect("bad")
            .1
            .to_string()
            .contains("reordered"));
    }

    #[test]
    fn an_older_log_without_chain_fields_says_where_the_chain_starts() {
        let dir = tempfile::tempdir().expect("tempdir");
        let logs = dir.path().join("logs");
        std::fs::create_dir_all(&logs).expect("mkdir");
        let path = logs.join("file_operations.log");
        std::fs::write(
            &path,
            "[2025-01-01 00:00:00] [UPLOAD] file_id=a\n[2025-01-01 00:00:01] [READ] path=/x\n",
        )
        .expect("write");
        let audit = Audit::open(dir.path()).expect("open");
        audit.record(AuditOp::Read, &[("path", "/y")]);
        audit.record(AuditOp::Read, &[("path", "/z")]);
        let r = verify(&path).expect("verify");
        assert_eq!((r.records, r.chain_starts, r.intact()), (4, Some(3), true));
        // The first chained record binds the last unchained one.
        let mut l = lines(&path);
        l[1] = l[1].replace("/x", "/w");
        write(&path, &l);
        assert_eq!(
            verify(&path).expect("verify").first_bad,
            Some((3, ChainBreak::Deleted))
        );
        // An unchained line inserted after the chain started.
        let mut l = lines(&path);
        l[1] = l[1].replace("/w", "/x");
        l.push("[2025-01-01 00:00:02] [READ] path=/forged".into());
        write(&path, &l);
        assert_eq!(
            verify(&path).expect("verify").first_bad,
            Some((5, ChainBreak::Unchained))
        );
    }
}
