//! Receiving uploads: streamed to a temp file while hashing, validated (name, size, text
//! content), then renamed atomically into `uploads/{file_id}/{filename}` and recorded. A
//! crash at any point leaves no visible partial file: temp files live in `uploads/.tmp` and
//! are swept at start, as are upload folders without a database record.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;

use crate::store::{now_rfc3339, Store, UploadRow};

mod budget;
mod in_flight;
mod service;
pub use budget::{FreeSpace, StatVfs, TempBudget, TempHold};
pub use in_flight::{InFlight, InFlightGuard};
pub use service::{Uploads, LOOKUP_WAIT};

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum UploadError {
    #[error("文件名包含非法字符: {0}")]
    BadName(String),
    #[error("文件大小超过限制 ({size} > {limit})")]
    TooLarge { size: u64, limit: u64 },
    #[error("不支持的文件类型: {name} (仅支持文本文件)")]
    NotText { name: String },
    #[error("文件数据超出声明的大小 / more data than announced ({got} > {announced})")]
    Overrun { got: u64, announced: u64 },
    #[error("校验和不匹配 / sha256 mismatch: expected {expected}, got {actual}")]
    ChecksumMismatch { expected: String, actual: String },
    #[error("上传失败 / upload failed: {0}")]
    Io(String),
    #[error(
        "上传在 {secs} 秒内没有收到数据，已放弃 (已收到 {received} / {announced} 字节) / upload \
         stalled: no data for {secs} s, dropped after {received} of {announced} bytes"
    )]
    Stalled {
        secs: u64,
        received: u64,
        announced: u64,
    },
    #[error(
        "上传临时空间不足 / temp space for uploads in progress is full ({used} of {limit} bytes)"
    )]
    TempBudget {
        /// The client's share (else the server's total).
        client: bool,
        used: u64,
        limit: u64,
    },
    #[error("磁盘空间不足 / not enough free disk space ({free} bytes free, floor {floor})")]
    DiskLow { free: u64, floor: u64 },
}

impl UploadError {
    /// The text for extension clients: sizes human-readable (`12.3 MiB > 10.0 MiB`). The
    /// legacy reply keeps the seed's raw byte counts (`Display`).
    pub fn message(&self) -> String {
        match self {
            UploadError::TooLarge { size, limit } => format!(
                "文件大小超过限制 ({} > {}) / file too large",
                llmops_tools::human_size(*size),
                llmops_tools::human_size(*limit)
            ),
            UploadError::Overrun { got, announced } => format!(
                "文件数据超出声明的大小 / more data than announced ({} > {})",
                llmops_tools::human_size(*got),
                llmops_tools::human_size(*announced)
            ),
            UploadError::Stalled {
                secs,
                received,
                announced,
            } => format!(
                "上传在 {secs} 秒内没有收到数据，已放弃 (已收到 {} / {}) / upload stalled: no \
                 data for {secs} s, dropped after {} of {}; send it again",
                llmops_tools::human_size(*received),
                llmops_tools::human_size(*announced),
                llmops_tools::human_size(*received),
                llmops_tools::human_size(*announced)
            ),
            UploadError::TempBudget {
                client,
                used,
                limit,
            } => {
                let (zh, en) = if *client {
                    ("本客户端", "your client's")
                } else {
                    ("服务器", "the server's")
                };
                format!(
                    "上传临时空间不足：{zh}正在上传的文件已占 {} (上限 {})，请等其他上传完成后重试 / \
                     temp space for uploads in progress is full: {en} uploads in progress hold \
                     {} (limit {}); retry when they are done",
                    llmops_tools::human_size(*used),
                    llmops_tools::human_size(*limit),
                    llmops_tools::human_size(*used),
                    llmops_tools::human_size(*limit)
                )
            }
            UploadError::DiskLow { free, floor } => format!(
                "磁盘空间不足：仅剩 {}，上传必须为历史记录和日志保留 {} / not enough free disk \
                 space: {} free, and uploads must leave {} for the history and logs",
                llmops_tools::human_size(*free),
                llmops_tools::human_size(*floor),
                llmops_tools::human_size(*free),
                llmops_tools::human_size(*floor)
            ),
            other => other.to_string(),
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            UploadError::BadName(_) => "bad_filename",
            UploadError::TooLarge { .. } => "too_large",
            UploadError::NotText { .. } => "unsupported_type",
            UploadError::Overrun { .. } => "bad_size",
            UploadError::ChecksumMismatch { .. } => "checksum_mismatch",
            UploadError::Io(_) => "io_error",
            UploadError::Stalled { .. } => "upload_stalled",
            UploadError::TempBudget { .. } => "temp_budget",
            UploadError::DiskLow { .. } => "disk_low",
        }
    }
}

/// Checks an uploaded file name (a bare name, never a path).
pub fn validate_filename(name: &str) -> Result<(), UploadError> {
    if name.trim().is_empty() {
        return Err(UploadError::BadName("(空文件名 / empty name)".into()));
    }
    for bad in ["../", "..\\", "/", "\\"] {
        if name.contains(bad) {
            return Err(UploadError::BadName(bad.into()));
        }
    }
    if name == "." || name == ".." {
        return Err(UploadError::BadName(name.into()));
    }
    if let Some(c) = name.chars().find(|c| c.is_control()) {
        let shown = if c == '\0' {
            "NUL".to_string()
        } else {
            format!("U+{:04X}", c as u32)
        };
        return Err(UploadError::BadName(shown));
    }
    if name.len() > 255 {
        return Err(UploadError::BadName(format!(
            "名称过长 / name longer than 255 bytes ({})",
            name.len()
        )));
    }
    Ok(())
}

pub fn content_type_for(name: &str) -> &'static str {
    let ext = Path::new(name)
        .extension()
        .and_then(|e| e.to_str())
        .map(|e| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "md" | "markdown" => "text/markdown",
        "json" => "application/json",
        "yaml" | "yml" => "application/yaml",
        "toml" => "application/toml",
        "xml" => "application/xml",
        "html" | "htm" => "text/html",
        "csv" => "text/csv",
        _ => "text/plain",
    }
}

/// Incremental text sniffer: UTF-8 (with or without BOM) or UTF-16 with a BOM is text;
/// NUL bytes in UTF-8 or invalid UTF-8 are not.
#[derive(Debug, Default)]
struct TextSniffer {
    head: Vec<u8>,
    decided_utf16: Option<bool>,
    carry: Vec<u8>,
    bad: bool,
}

impl TextSniffer {
    fn feed(&mut self, data: &[u8]) {
        if self.bad {
            return;
        }
        if self.decided_utf16.is_none() {
            self.head.extend_from_slice(data);
            if self.head.len() < 2 {
                return;
            }
            let utf16 =
                self.head.starts_with(&[0xFF, 0xFE]) || self.head.starts_with(&[0xFE, 0xFF]);
            self.decided_utf16 = Some(utf16);
            let head = std::mem::take(&mut self.head);
            if !utf16 {
                self.feed_utf8(&head);
            }
            return;
        }
        if self.decided_utf16 == Some(false) {
            self.feed_utf8(data);
        }
    }

    fn feed_utf8(&mut self, data: &[u8]) {
        let mut buf = std::mem::take(&mut self.carry);
        buf.extend_from_slice(data);
        if buf.contains(&0) {
            self.bad = true;
            return;
        }
        match std::str::from_utf8(&buf) {
            Ok(_) => {}
            Err(e) if e.error_len().is_none() => {
                // An incomplete sequence at the end: keep it for the next chunk.
                self.carry = buf[e.valid_up_to()..].to_vec();
            }
            Err(_) => self.bad = true,
        }
    }

    fn is_text(&self) -> bool {
        if self.bad {
            return false;
        }
        match self.decided_utf16 {
            Some(_) => self.carry.is_empty(),
            // Fewer than 2 bytes in total.
            None => std::str::from_utf8(&self.head).is_ok() && !self.head.contains(&0),
        }
    }
}

/// An upload being received.
pub struct Incoming {
    pub filename: String,
    pub announced: u64,
    pub received: u64,
    pub expected_sha256: Option<String>,
    tmp_path: PathBuf,
    file: Option<tokio::fs::File>,
    hasher: Sha256,
    sniffer: TextSniffer,
    /// Held until the upload is saved or dropped (UPLOAD_LOOKUP waits for it).
    in_flight: Option<InFlightGuard>,
    /// Its share of the temp-space budget, given back when it is saved or dropped.
    temp: Option<TempHold>,
}

impl Incoming {
    /// Validates what is announced and opens the temp file.
    pub async fn begin(
        uploads_dir: &Path,
        filename: &str,
        size: u64,
        limit: u64,
        expected_sha256: Option<String>,
    ) -> Result<Incoming, UploadError> {
        validate_filename(filename)?;
        if size > limit {
            return Err(UploadError::TooLarge { size, limit });
        }
        let tmp_dir = uploads_dir.join(".tmp");
        tokio::fs::create_dir_all(&tmp_dir)
            .await
            .map_err(|e| UploadError::Io(e.to_string()))?;
        let tmp_path = tmp_dir.join(format!("{}.part", uuid::Uuid::new_v4().simple()));
        let file = tokio::fs::File::create(&tmp_path)
            .await
            .map_err(|e| UploadError::Io(e.to_string()))?;
        Ok(Incoming {
            filename: filename.to_string(),
            announced: size,
            received: 0,
            expected_sha256: expected_sha256.map(|s| s.to_ascii_lowercase()),
            tmp_path,
            file: Some(file),
            hasher: Sha256::new(),
            sniffer: TextSniffer::default(),
            in_flight: None,
            temp: None,
        })
    }

    /// Keeps the upload's temp-space reservation until it is saved or dropped.
    pub fn hold_temp(&mut self, hold: TempHold) {
        self.temp = Some(hold);
    }

    /// Marks the upload in flight until it is saved (after its row commits: `finish` drops
    /// it with `self`) or dropped.
    pub fn track(&mut self, guard: InFlightGuard) {
        self.in_flight = Some(guard);
    }

    pub fn is_complete(&self) -> bool {
        self.received >= self.announced
    }

    /// The temp file [`finish`](Self::finish) verifies and renames (an RDT upload resumed
    /// from its own partial file moves that file here first).
    pub fn temp_path(&self) -> &Path {
        &self.tmp_path
    }

    /// Appends data. On error the caller must `abort`.
    pub async fn write(&mut self, data: &[u8]) -> Result<(), UploadError> {
        // Size, hash and text sniff first: binary content is refused as soon as it shows up
        // rather than after 10 MB (the caller aborts on error, so the count may run ahead).
        self.absorb(data)?;
        let f = self
            .file
            .as_mut()
            .ok_or_else(|| UploadError::Io("upload already closed".into()))?;
        f.write_all(data)
            .await
            .map_err(|e| UploadError::Io(e.to_string()))
    }

    /// Verifies, moves the file into place and records it. On error the temp file is gone.
    pub async fn finish(
        mut self,
        uploads_dir: &Path,
        store: &Store,
        session_id: &str,
    ) -> Result<UploadRow, UploadError> {
        let result = self.finish_inner(uploads_dir, store, session_id).await;
        if result.is_err() {
            removed(tokio::fs::remove_file(&self.tmp_path).await, &self.tmp_path);
        }
        result
    }

    async fn finish_inner(
        &mut self,
        uploads_dir: &Path,
        store: &Store,
        session_id: &str,
    ) -> Result<UploadRow, UploadError> {
        if !self.sniffer.is_text() {
            return Err(UploadError::NotText {
                name: self.filename.clone(),
            });
        }
        let sha = hex::encode(std::mem::take(&mut self.hasher).finalize());
        if let Some(exp) = &self.expected_sha256 {
            if exp != &sha {
                return Err(UploadError::ChecksumMismatch {
                    expected: exp.clone(),
                    actual: sha,
                });
            }
        }
        let mut f = self
            .file
            .take()
            .ok_or_else(|| UploadError::Io("upload already closed".into()))?;
        f.flush()
            .await
            .map_err(|e| UploadError::Io(e.to_string()))?;
        f.sync_all()
            .await
            .map_err(|e| UploadError::Io(e.to_string()))?;
        drop(f);
        let file_id = uuid::Uuid::new_v4().simple().to_string();
        let dir = uploads_dir.join(&file_id);
        tokio::fs::create_dir_all(&dir)
            .await
            .map_err(|e| UploadError::Io(e.to_string()))?;
        let final_path = dir.join(&self.filename);
        tokio::fs::rename(&self.tmp_path, &final_path)
            .await
            .map_err(|e| UploadError::Io(e.to_string()))?;
        // The new name must survive a crash too: the row below points at it.
        sync_dir(&dir).await?;
        let row = UploadRow {
            file_id: file_id.clone(),
            session_id: session_id.to_string(),
            filename: self.filename.clone(),
            size: self.received,
            content_type: content_type_for(&self.filename).to_string(),
            sha256: sha,
            path: final_path.to_string_lossy().into_owned(),
            uploaded_at: now_rfc3339(),
            state: crate::store::UploadState::Saved,
            detail: None,
        };
        let r = row.clone();
        if let Err(e) = store.run(move |s| s.insert_upload(&r)).await {
            // No record, no file: the upload simply did not happen.
            removed(tokio::fs::remove_dir_all(&dir).await, &dir);
            return Err(UploadError::Io(e.to_string()));
        }
        Ok(row)
    }

    /// Like [`abort`](Self::abort), from synchronous code (an expired RDT upload grant).
    pub fn discard(mut self) {
        self.file.take();
        removed(std::fs::remove_file(&self.tmp_path), &self.tmp_path);
    }

    /// A handle for positioned writes (RDT uploads write chunks where they belong, out of
    /// order); the bytes must also be fed in order through [`absorb`](Self::absorb).
    pub async fn positioned_file(&self) -> Result<std::fs::File, UploadError> {
        // Opened again read-write: the driver reads filled holes back to hash them.
        let f = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&self.tmp_path)
            .map_err(|e| UploadError::Io(e.to_string()))?;
        f.set_len(self.announced)
            .map_err(|e| UploadError::Io(e.to_string()))?;
        Ok(f)
    }

    /// Accounts for bytes written elsewhere (in file order): hash, text sniff, size.
    pub fn absorb(&mut self, data: &[u8]) -> Result<(), UploadError> {
        let got = self.received + data.len() as u64;
        if got > self.announced {
            return Err(UploadError::Overrun {
                got,
                announced: self.announced,
            });
        }
        self.hasher.update(data);
        self.sniffer.feed(data);
        if self.sniffer.bad {
            return Err(UploadError::NotText {
                name: self.filename.clone(),
            });
        }
        self.received = got;
        Ok(())
    }

    pub async fn abort(mut self) {
        self.file.take();
        removed(tokio::fs::remove_file(&self.tmp_path).await, &self.tmp_path);
    }
}

/// fsyncs a directory, so that a name just created in it is durable.
async fn sync_dir(dir: &Path) -> Result<(), UploadError> {
    let d = dir.to_path_buf();
    tokio::task::spawn_blocking(move || std::fs::File::open(&d)?.sync_all())
        .await
        .map_err(|e| UploadError::Io(e.to_string()))?
        .map_err(|e| UploadError::Io(e.to_string()))
}

/// Logs a failed removal of an upload's file or folder (it stays on disk until the next
/// start-up sweep); one already gone is fine.
pub(crate) fn removed(res: std::io::Result<()>, path: &Path) {
    if let Err(e) = res {
        if e.kind() != std::io::ErrorKind::NotFound {
            tracing::warn!(path = %path.display(), "cannot remove upload file, left for the start-up sweep: {e}");
        }
    }
}

/// Start-up sweep: removes temp files and upload folders that have no database record
/// (a crash between rename and insert).
pub fn sweep(uploads_dir: &Path, store: &Store) -> std::io::Result<usize> {
    let mut removed = 0;
    let tmp = uploads_dir.join(".tmp");
    if tmp.is_dir() {
        for e in std::fs::read_dir(&tmp)?.flatten() {
            if std::fs::remove_file(e.path()).is_ok() {
                removed += 1;
            }
        }
    }
    if !uploads_dir.is_dir() {
        return Ok(removed);
    }
    let known: std::collections::HashSet<String> = store
        .all_uploads()
        .map_err(|e| std::io::Error::other(e.to_string()))?
        .into_iter()
        .map(|u| u.file_id)
        .collect();
    for e in std::fs::read_dir(uploads_dir)?.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name == ".tmp" || !e.path().is_dir() {
            continue;
        }
        if !known.contains(&name) && std::fs::remove_dir_all(e.path()).is_ok() {
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filenames_are_checked() {
        assert!(validate_filename("config.yaml").is_ok());
        assert!(validate_filename("性能报告.md").is_ok());
        assert!(validate_filename(".hidden").is_ok());
        for bad in [
            "", "  ", "../x", "..\\x", "a/b", "a\\b", "a\0b", "a\nb", "..", ".",
        ] {
            let e = validate_filename(bad).expect_err(bad);
            assert!(e.to_string().starts_with("文件名包含非法字符: "), "{e}");
        }
        assert_eq!(
            validate_filename("../etc")
                .expect_err("traversal")
                .to_string(),
            "文件名包含非法字符: ../"
        );
    }

    #[test]
    fn sniffer_accepts_text_refuses_binary() {
        let check = |chunks: &[&[u8]]| {
            let mut s = TextSniffer::default();
            for c in chunks {
                s.feed(c);
            }
            s.is_text()
        };
        assert!(check(&[b""]));
        assert!(check(&[b"a"]));
        assert!(check(&["你好".as_bytes()]));
        // A multi-byte char split across chunks.
        let b = "你".as_bytes();
        assert!(check(&[&b[..1], &b[1..]]));
        assert!(check(&[&[0xEF, 0xBB, 0xBF], b"bom"]));
        assert!(check(&[&[0xFF, 0xFE, b'a', 0]]));
        assert!(!check(&[b"ab\0cd"]));
        assert!(!check(&[&[0xC3, 0x28]]));
        assert!(!check(&[b"ok", &[0xE4, 0xBD]])); // truncated at the end
    }

    #[tokio::test]
    async fn upload_lands_atomically_and_refusals_leave_nothing() {
        let d = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&d.path().join("db")).expect("db");
        let sess = store.create_session(None).expect("session");
        let up = d.path().join("uploads");

        let mut inc = Incoming::begin(&up, "a.log", 11, 100, None)
            .await
            .expect("begin");
        inc.write(b"hello ").await.expect("write");
        inc.write(b"world").await.expect("write");
        assert!(inc.is_complete());
        let row = inc.finish(&up, &store, &sess.id).await.expect("finish");
        assert_eq!(std::fs::read(&row.path).expect("read"), b"hello world");
        assert_eq!(
            row.sha256,
            "b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9"
        );
        assert_eq!(store.list_uploads(&sess.id).expect("list").len(), 1);

        // Too large, announced.
        assert!(matches!(
            Incoming::begin(&up, "b.log", 101, 100, None).await,
            Err(UploadError::TooLarge {
                size: 101,
                limit: 100
            })
        ));
        let big = UploadError::TooLarge {
            size: 12_889_750,
            limit: 10_485_760,
        };
        assert_eq!(
            big.message(),
            "文件大小超过限制 (12.3 MiB > 10.0 MiB) / file too large"
        );
        assert_eq!(big.to_string(), "文件大小超过限制 (12889750 > 10485760)");
        // Binary content.
        let mut inc = Incoming::begin(&up, "c.bin", 4, 100, None)
            .await
            .expect("begin");
        let e = inc.write(b"\0\0\0\0").await.expect_err("binary");
        assert_eq!(e.to_string(), "不支持的文件类型: c.bin (仅支持文本文件)");
        inc.abort().await;
        // Checksum mismatch.
        let mut inc = Incoming::begin(&up, "d.txt", 1, 100, Some("00".into()))
            .await
            .expect("begin");
        inc.write(b"x").await.expect("write");
        assert!(matches!(
            inc.finish(&up, &store, &sess.id).await,
            Err(UploadError::ChecksumMismatch { .. })
        ));
        // Empty file works.
        let inc = Incoming::begin(&up, "empty.txt", 0, 100, None)
            .await
            .expect("begin");
        let row = inc.finish(&up, &store, &sess.id).await.expect("finish");
        assert_eq!(row.size, 0);
        // No temp files left behind.
        let tmp_left = std::fs::read_dir(up.join(".tmp")).expect("tmp").count();
        assert_eq!(tmp_left, 0);
    }

    #[test]
    fn sweep_removes_orphans_only() {
        let d = tempfile::tempdir().expect("tempdir");
        let store = Store::open(&d.path().join("db")).expect("db");
        let up = d.path().join("uploads");
        std::fs::create_dir_all(up.join(".tmp")).expect("mkdir");
        std::fs::write(up.join(".tmp/x.part"), "partial").expect("write");
        std::fs::create_dir_all(up.join("orphan")).expect("mkdir");
        std::fs::create_dir_all(up.join("kept")).expect("mkdir");
        store
            .insert_upload(&UploadRow {
                file_id: "kept".into(),
                session_id: "s".into(),
                filename: "k".into(),
                size: 0,
                content_type: "text/plain".into(),
                sha256: String::new(),
                path: String::new(),
                uploaded_at: now_rfc3339(),
                state: crate::store::UploadState::Saved,
                detail: None,
            })
            .expect("insert");
        assert_eq!(sweep(&up, &store).expect("sweep"), 2);
        assert!(up.join("kept").is_dir());
        assert!(!up.join("orphan").exists());
    }
}
