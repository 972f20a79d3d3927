//! Audit log of file operations, access denials and approved actions: one line per event appended to
//! `{data_dir}/logs/file_operations.log`. It never records file contents or secrets.
//!
//! Line format: `[YYYY-MM-DD HH:MM:SS] [OP] key=value key="value with spaces" ... prev=<hex>
//! hash=<hex>` (local time). The last two fields chain the records (`chain`): `audit verify`
//! finds an edited, deleted or reordered record.

pub mod chain;

use std::collections::HashMap;
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};

/// The kinds of audited events.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AuditOp {
    Upload,
    DownloadOffer,
    DownloadDone,
    DownloadReject,
    Read,
    Exec,
    Search,
    Deny,
    /// A mutating action was proposed and sent for approval.
    ApprovalRequest,
    /// Approved by the operator (once or always) or by a standing grant (`grant=`).
    Approved,
    Rejected,
    /// Nobody answered before the request expired.
    Expired,
    /// A deny rule refused a proposed action: it was never offered for approval.
    ActionDenied,
    /// An approved action ran: argv, exit code, duration.
    ActionExec,
    GrantAdded,
    GrantRevoked,
}

impl AuditOp {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditOp::Upload => "UPLOAD",
            AuditOp::DownloadOffer => "DOWNLOAD_OFFER",
            AuditOp::DownloadDone => "DOWNLOAD_DONE",
            AuditOp::DownloadReject => "DOWNLOAD_REJECT",
            AuditOp::Read => "READ",
            AuditOp::Exec => "EXEC",
            AuditOp::Search => "SEARCH",
            AuditOp::Deny => "DENY",
            AuditOp::ApprovalRequest => "APPROVAL_REQUEST",
            AuditOp::Approved => "APPROVED",
            AuditOp::Rejected => "REJECTED",
            AuditOp::Expired => "EXPIRED",
            AuditOp::ActionDenied => "ACTION_DENIED",
            AuditOp::ActionExec => "ACTION_EXEC",
            AuditOp::GrantAdded => "GRANT_ADDED",
            AuditOp::GrantRevoked => "GRANT_REVOKED",
        }
    }
}

impl fmt::Display for AuditOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Errors opening the audit log.
#[derive(Debug, thiserror::Error)]
pub enum AuditError {
    #[error("无法创建审计日志目录 {path}: {source}")]
    CreateDir { path: PathBuf, source: io::Error },
    #[error("无法打开审计日志 {path}: {source}")]
    Open { path: PathBuf, source: io::Error },
    #[error("无法读取审计日志的最后一条记录 {path}: {source}")]
    ReadTail { path: PathBuf, source: io::Error },
}

/// The open file and the hash the next record names in `prev=`.
struct Writer {
    out: BufWriter<File>,
    last: String,
}

struct Inner {
    path: Option<PathBuf>,
    writer: Mutex<Option<Writer>>,
}

/// Handles open in this process, by path: two `open`s of one file share one writer, so
/// the chain has one head.
fn open_logs() -> &'static Mutex<HashMap<PathBuf, Weak<Inner>>> {
    static OPEN: OnceLock<Mutex<HashMap<PathBuf, Weak<Inner>>>> = OnceLock::new();
    OPEN.get_or_init(Mutex::default)
}

/// Cheap cloneable, thread-safe audit log handle.
///
/// Writes are one short line under a std mutex with a flush per line: microseconds, so it is
/// fine to call from async code.
#[derive(Clone)]
pub struct Audit {
    inner: Arc<Inner>,
}

impl fmt::Debug for Audit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Audit")
            .field("path", &self.inner.path)
            .finish()
    }
}

impl Audit {
    /// Opens (creating if needed) `{data_dir}/logs/file_operations.log` for appending.
    pub fn open(data_dir: &Path) -> Result<Audit, AuditError> {
        let dir = data_dir.join("logs");
        std::fs::create_dir_all(&dir).map_err(|source| AuditError::CreateDir {
            path: dir.clone(),
            source,
        })?;
        Audit::open_file(&dir.join("file_operations.log"))
    }

    /// Opens an explicit log file for appending (its parent must exist); the chain goes on
    /// from its last record.
    pub fn open_file(path: &Path) -> Result<Audit, AuditError> {
        let key = std::fs::canonicalize(path.parent().unwrap_or(Path::new(".")))
            .map(|d| d.join(path.file_name().unwrap_or_default()))
            .unwrap_or_else(|_| path.to_path_buf());
        let mut open = match open_logs().lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        open.retain(|_, w| w.strong_count() > 0);
        if let Some(inner) = open.get(&key).and_then(Weak::upgrade) {
            return Ok(Audit { inner });
        }
        let last = chain::last_link(path).map_err(|source| AuditError::ReadTail {
            path: path.to_path_buf(),
            source,
        })?;
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|source| AuditError::Open {
                path: path.to_path_buf(),
                source,
            })?;
        let inner = Arc::new(Inner {
            path: Some(path.to_path_buf()),
            writer: Mutex::new(Some(Writer {
                out: BufWriter::new(file),
                last,
            })),
        });
        open.insert(key, Arc::downgrade(&inner));
        Ok(Audit { inner })
    }

    /// A handle that drops every record (for callers that have no data dir).
    pub fn disabled() -> Audit {
        Audit {
            inner: Arc::new(Inner {
                path: None,
                writer: Mutex::new(None),
            }),
        }
    }

    /// The log file path, if this handle writes anywhere.
    pub fn path(&self) -> Option<&Path> {
        self.inner.path.as_deref()
    }

    /// Appends one event. Never fails the caller: an I/O error is reported via `tracing`.
    pub fn record(&self, op: AuditOp, fields: &[(&str, &str)]) {
        let timestamp = chrono::Local::now().format("%Y-%m-%d %H:%M:%S").to_string();
        let line = format_line(&timestamp, op, fields);
        // A poisoned lock only means another thread panicked mid-write; the file is still usable.
        let mut guard = match self.inner.writer.lock() {
            Ok(g) => g,
            Err(poisoned) => poisoned.into_inner(),
        };
        if let Some(w) = guard.as_mut() {
            let (sealed, hash) = chain::seal(&line, &w.last);
            let res = w
                .out
                .write_all(sealed.as_bytes())
                .and_then(|()| w.out.write_all(b"\n"))
                .and_then(|()| w.out.flush());
            match res {
                Ok(()) => w.last = hash,
                // The record may be partly written; the next one still names the last
                // complete record, so `audit verify` shows where the write failed.
                Err(e) => tracing::warn!(error = %e, op = %op, "audit log write failed"),
            }
        }
    }

    /// Records an access denial: `[DENY] ... reason="..."`.
    pub fn deny(&self, fields: &[(&str, &str)], reason: &str) {
        let mut all: Vec<(&str, &str)> = fields.to_vec();
        all.push(("reason", reason));
        self.record(AuditOp::Deny, &all);
    }
}

/// Formats one log line (without the newline).
pub fn format_line(timestamp: &str, op: AuditOp, fields: &[(&str, &str)]) -> String {
    let mut line = format!("[{timestamp}] [{op}]");
    for (key, value) in fields {
        line.push(' ');
        line.push_str(&sanitize_key(key));
        line.push('=');
        line.push_str(&quote_value(value));
    }
    line
}

/// Keys are ASCII identifiers; anything else becomes `_` so a key can never forge a field.
fn sanitize_key(key: &str) -> String {
    let k: String = key
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if k.is_empty() {
        "_".to_string()
    } else {
        k
    }
}

/// Values with spaces, `=`, quotes or control characters are quoted; newlines are escaped so
/// one event is always one line.
pub fn quote_value(value: &str) -> String {
    let needs_quotes = value.is_empty()
        || value
            .chars()
            .any(|c| c.is_whitespace() || c == '=' || c == '"' || c == '\\' || c.is_control());
    if !needs_quotes {
        return value.to_string();
    }
    let mut out = String::with_capacity(value.len() + 2);
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_log(audit: &Audit) -> String {
        std::fs::read_to_string(audit.path().expect("file-backed audit")).expect("read log")
    }

    #[test]
    fn audit_format_line_quotes_spaces_and_equals() {
        let line = format_line(
            "2025-12-30 12:34:56",
            AuditOp::Deny,
            &[
                ("file_path", "/etc/passwd"),
                ("status", "denied"),
                ("reason", "路径不在白名单中: /etc/passwd"),
                ("arg", "a=b"),
                ("empty", ""),
            ],
        );
        assert_eq!(
            line,
            "[2025-12-30 12:34:56] [DENY] file_path=/etc/passwd status=denied \
             reason=\"路径不在白名单中: /etc/passwd\" arg=\"a=b\" empty=\"\""
        );
    }

    #[test]
    fn audit_values_cannot_inject_lines_or_fields() {
        let v = quote_value("x\n[2025-01-01 00:00:00] [UPLOAD] a=\"b\"");
        assert!(!v.contains('\n'));
        assert_eq!(v, "\"x\\n[2025-01-01 00:00:00] [UPLOAD] a=\\\"b\\\"\"");
        assert_eq!(sanitize_key("bad key=x"), "bad_key_x");
    }

    #[test]
    fn audit_open_creates_logs_dir_and_appends_lines() {
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = Audit::open(dir.path()).expect("open");
        assert_eq!(
            audit.path().expect("path"),
            dir.path().join("logs").join("file_operations.log")
        );
        audit.record(
            AuditOp::Upload,
            &[
                ("file_id", "abc"),
                ("filename", "config.yaml"),
                ("size", "1024"),
            ],
        );
        audit.clone().deny(
            &[("tool", "file_read"), ("path", "/etc/shadow")],
            "路径匹配禁止模式: /etc/shadow",
        );
        let text = read_log(&audit);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 2);
        let re = regex::Regex::new(r"^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] \[UPLOAD\] file_id=abc filename=config.yaml size=1024 prev=0{64} hash=[0-9a-f]{64}$")
            .expect("regex");
        assert!(re.is_match(lines[0]), "{}", lines[0]);
        assert!(lines[1].contains(
            "[DENY] tool=file_read path=/etc/shadow reason=\"路径匹配禁止模式: /etc/shadow\""
        ));

        // Reopening appends rather than truncating.
        let again = Audit::open(dir.path()).expect("reopen");
        again.record(AuditOp::Read, &[("path", "/x")]);
        assert_eq!(read_log(&again).lines().count(), 3);
    }

    #[test]
    fn audit_is_thread_safe_one_event_per_line() {
        let dir = tempfile::tempdir().expect("tempdir");
        let audit = Audit::open(dir.path()).expect("open");
        let handles: Vec<_> = (0..8)
            .map(|t| {
                let a = audit.clone();
                std::thread::spawn(move || {
                    for i in 0..50 {
                        a.record(
                            AuditOp::Exec,
                            &[("thread", &t.to_string()), ("i", &i.to_string())],
                        );
                    }
                })
            })
            .collect();
        for h in handles {
            h.join().expect("join");
        }
        let text = read_log(&audit);
        assert_eq!(text.lines().count(), 400);
        assert!(text.lines().all(|l| l.contains("[EXEC] thread=")));
    }

    #[test]
    fn audit_disabled_is_a_no_op() {
        let audit = Audit::disabled();
        assert!(audit.path().is_none());
        audit.record(AuditOp::Read, &[("path", "/x")]);
    }
}
