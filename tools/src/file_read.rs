//! The `file_read` tool: paged reading of a text file that passed the path policy (bare names
//! resolve to this session's uploads first). Detects binary files and the encoding (UTF-8,
//! UTF-8 BOM, UTF-16 LE/BE BOM, lossy fallback). Reads on the blocking pool, streaming, so a
//! large log is never loaded whole (UTF-16 excepted, capped). Mode "analyze" (see
//! `file_read/analyze.rs`) analyses the whole file instead of returning a page.

mod analyze;
mod stored;

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{json, Value};

use super::{
    parse_args, resolve_user_path, run_blocking, BlockingError, Tool, ToolCtx, ToolFuture,
    ToolResult,
};
use crate::audit::AuditOp;
pub use crate::data::Encoding;
use crate::data::{PageData, ToolData};
use llmops_common::ToolName;
use llmops_tooldata::FileReadArgs;
pub use llmops_tooldata::ReadMode;

const DEFAULT_LIMIT: u64 = 200;
const MAX_LIMIT: u64 = 2000;
/// Longest line shown, in characters; longer ones are cut with a note.
const MAX_LINE_CHARS: usize = 2000;
/// UTF-16 files are decoded whole; refuse larger ones.
const MAX_UTF16_BYTES: u64 = 20 * 1024 * 1024;
const SNIFF: usize = 8192;

/// Cap of mode "analyze" on local (non-upload) files unless configured: 1 GiB.
pub const DEFAULT_ANALYZE_MAX_BYTES: u64 = 1 << 30;

/// What one page of a file holds.
#[derive(Debug, Clone, PartialEq)]
struct Page {
    lines: Vec<String>,
    total_lines: u64,
    encoding: Encoding,
    /// Some bytes were not valid in the detected encoding (shown as U+FFFD).
    lossy: bool,
    cut_lines: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum ReadError {
    #[error("文件不存在: {0}")]
    NotFound(String),
    #[error("路径是目录而不是文件: {0} (is a directory)")]
    IsDir(String),
    #[error("不是普通文件: {0}")]
    NotRegular(String),
    #[error("二进制文件，无法按文本读取: {0} (binary file: contains NUL bytes)")]
    Binary(String),
    #[error("UTF-16 文件过大: {0}（上限 20 MiB）")]
    TooLarge(String),
    #[error("权限不足，无法读取: {0} (permission denied)")]
    Permission(String),
    #[error("读取文件失败: {0}: {1}")]
    Io(String, String),
    #[error("操作已取消 (cancelled)")]
    Cancelled,
}

fn io_err(shown: &str, e: &std::io::Error) -> ReadError {
    match e.kind() {
        std::io::ErrorKind::NotFound => ReadError::NotFound(shown.to_string()),
        std::io::ErrorKind::PermissionDenied => ReadError::Permission(shown.to_string()),
        _ => ReadError::Io(shown.to_string(), e.to_string()),
    }
}

fn push_line(page: &mut Page, text: String) {
    if text.chars().count() > MAX_LINE_CHARS {
        let mut cut: String = text.chars().take(MAX_LINE_CHARS).collect();
        cut.push_str(" …[行过长已截断 / line cut]");
        page.cut_lines += 1;
        page.lines.push(cut);
    } else {
        page.lines.push(text);
    }
}

/// Reads lines `[offset, offset+limit)` and counts all lines. Blocking.
fn read_page(
    path: &Path,
    shown: &str,
    offset: u64,
    limit: u64,
    cancel: &AtomicBool,
) -> Result<Page, ReadError> {
    let meta = std::fs::metadata(path).map_err(|e| io_err(shown, &e))?;
    if meta.is_dir() {
        return Err(ReadError::IsDir(shown.to_string()));
    }
    if !meta.is_file() {
        // FIFOs and devices could block forever or never end.
        return Err(ReadError::NotRegular(shown.to_string()));
    }
    let file = File::open(path).map_err(|e| io_err(shown, &e))?;
    let mut reader = BufReader::with_capacity(64 * 1024, file);
    let head = reader.fill_buf().map_err(|e| io_err(shown, &e))?.to_vec();
    let encoding = detect_encoding(&head);
    let mut page = Page {
        lines: Vec::new(),
        total_lines: 0,
        encoding,
        lossy: false,
        cut_lines: 0,
    };
    let wanted = offset..offset.saturating_add(limit);
    match encoding {
        Encoding::Utf16Le | Encoding::Utf16Be => {
            if meta.len() > MAX_UTF16_BYTES {
                return Err(ReadError::TooLarge(shown.to_string()));
            }
            read_utf16(reader, meta.len(), shown, wanted, &mut page)?;
        }
        Encoding::Utf8 | Encoding::Utf8Bom => {
            if head[..head.len().min(SNIFF)].contains(&0) {
                return Err(ReadError::Binary(shown.to_string()));
            }
            if encoding == Encoding::Utf8Bom {
                reader.consume(3);
            }
            read_utf8(reader, shown, wanted, cancel, &mut page)?;
        }
    }
    Ok(page)
}

/// The encoding named by the byte order mark at the start of the file; UTF-8 without one.
fn detect_encoding(head: &[u8]) -> Encoding {
    if head.starts_with(&[0xEF, 0xBB, 0xBF]) {
        Encoding::Utf8Bom
    } else if head.starts_with(&[0xFF, 0xFE]) {
        Encoding::Utf16Le
    } else if head.starts_with(&[0xFE, 0xFF]) {
        Encoding::Utf16Be
    } else {
        Encoding::Utf8
    }
}

/// Decodes a UTF-16 file (BOM first) whole and keeps the `wanted` lines; the caller has
/// checked its size.
fn read_utf16(
    mut reader: BufReader<File>,
    len: u64,
    shown: &str,
    wanted: Range<u64>,
    page: &mut Page,
) -> Result<(), ReadError> {
    let mut bytes = Vec::with_capacity(len as usize);
    reader
        .read_to_end(&mut bytes)
        .map_err(|e| io_err(shown, &e))?;
    let body = &bytes[2..];
    if body.len() % 2 == 1 {
        page.lossy = true;
    }
    let units: Vec<u16> = body
        .chunks_exact(2)
        .map(|c| {
            if page.encoding == Encoding::Utf16Le {
                u16::from_le_bytes([c[0], c[1]])
            } else {
                u16::from_be_bytes([c[0], c[1]])
            }
        })
        .collect();
    let text = match String::from_utf16(&units) {
        Ok(t) => t,
        Err(_) => {
            page.lossy = true;
            String::from_utf16_lossy(&units)
        }
    };
    for (i, line) in text.lines().enumerate() {
        if wanted.contains(&(i as u64)) {
            push_line(page, line.trim_end_matches('\r').to_string());
        }
        page.total_lines += 1;
    }
    Ok(())
}

/// Streams a UTF-8 file line by line (BOM already skipped), keeping the `wanted` lines and
/// counting all of them.
fn read_utf8(
    mut reader: BufReader<File>,
    shown: &str,
    wanted: Range<u64>,
    cancel: &AtomicBool,
    page: &mut Page,
) -> Result<(), ReadError> {
    let mut raw = Vec::new();
    loop {
        raw.clear();
        let n = reader
            .read_until(b'\n', &mut raw)
            .map_err(|e| io_err(shown, &e))?;
        if n == 0 {
            return Ok(());
        }
        let i = page.total_lines;
        page.total_lines += 1;
        if i & 4095 == 0 && cancel.load(Ordering::Relaxed) {
            return Err(ReadError::Cancelled);
        }
        if wanted.contains(&i) {
            while matches!(raw.last(), Some(b'\n' | b'\r')) {
                raw.pop();
            }
            let text = match String::from_utf8(std::mem::take(&mut raw)) {
                Ok(t) => t,
                Err(e) => {
                    page.lossy = true;
                    String::from_utf8_lossy(e.as_bytes()).into_owned()
                }
            };
            push_line(page, text);
        }
    }
}

/// `file_read {file_path, mode="read", offset=0, limit=200}`; `mode="analyze"` analyses the
/// whole file. Carries the analyze cap of local files (uploads are analysed whole).
#[derive(Debug, Clone, Copy)]
pub struct FileReadTool {
    analyze_max_bytes: u64,
}

impl Default for FileReadTool {
    fn default() -> Self {
        FileReadTool::new(DEFAULT_ANALYZE_MAX_BYTES)
    }
}

impl FileReadTool {
    /// `analyze_max_bytes`: mode "analyze" reads at most this much of a local file (uploads
    /// are always analysed whole).
    pub fn new(analyze_max_bytes: u64) -> Self {
        FileReadTool {
            analyze_max_bytes: analyze_max_bytes.max(1),
        }
    }

    pub fn analyze_max_bytes(&self) -> u64 {
        self.analyze_max_bytes
    }
}

impl Tool for FileReadTool {
    fn name(&self) -> &'static str {
        ToolName::FileRead.as_str()
    }

    fn description(&self) -> &'static str {
        "读取文本文件内容（分页，行号从 0 开始的 offset，默认 200 行）。Read a text file with \
         paging (offset is 0-based, limit default 200). mode=\"analyze\": 分析整个日志文件（不是\
         前 200 行）：精确的总行数、各级别（ERROR/WARN...）行数、高频消息模板及首末时间、时间\
         范围、按分钟/小时的直方图；统计错误数、最常见错误、错误何时开始时用它。mode=\"analyze\" \
         analyses the WHOLE log: exact line and per-level counts, top message templates with \
         first/last time, time span, histogram; use it for counts and \"most common error\". \
         文件名可直接写本会话上传的文件名；路径必须在允许的目录内。关键词：读取、查看文件、打开、\
         内容、分析日志、统计"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "file_path": {
                    "type": "string",
                    "description": "文件路径或本会话上传的文件名 / path, or the name of a file uploaded in this session"
                },
                "mode": {
                    "type": "string",
                    "enum": ["read", "analyze"],
                    "default": "read",
                    "description": "read: 返回一页行 / a page of lines; analyze: 整个文件的日志统计（精确计数、模板、时间、直方图）/ whole-file log statistics (exact counts, templates, times, histogram); offset/limit are ignored"
                },
                "offset": {
                    "type": "integer",
                    "minimum": 0,
                    "default": 0,
                    "description": "起始行（从 0 开始）/ first line, 0-based"
                },
                "limit": {
                    "type": "integer",
                    "minimum": 1,
                    "maximum": MAX_LIMIT,
                    "default": DEFAULT_LIMIT,
                    "description": "最多读取的行数 / maximum lines"
                },
                "output_id": {
                    "type": "string",
                    "description": "读取本会话之前某一步保存的完整输出（观察结果被截断时会给出编号）而不是文件 / page through a stored output of an earlier step (its id is given when an observation was cut) instead of a file"
                }
            }
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: FileReadArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let offset = args.offset.unwrap_or(0);
            let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
            if limit == 0 || limit > MAX_LIMIT {
                return ToolResult::failure(format!("limit 必须在 1-{MAX_LIMIT} 之间: {limit}"));
            }
            if let Some(id) = args.output_id.as_deref() {
                return stored::run(id, offset, limit, ctx).await;
            }
            if args.file_path.trim().is_empty() {
                return ToolResult::failure(
                    "缺少参数 file_path（或 output_id）/ missing file_path (or output_id)",
                );
            }
            if args.mode == ReadMode::Analyze {
                return analyze::run(self, &args.file_path, ctx).await;
            }
            self.read(&args.file_path, offset, limit, ctx).await
        })
    }
}

impl FileReadTool {
    /// Mode "read": one page of the file `raw` names.
    async fn read(&self, raw: &str, offset: u64, limit: u64, ctx: &ToolCtx) -> ToolResult {
        let path: PathBuf = match resolve_user_path(ctx, raw) {
            Ok(p) => p,
            Err(e) => return ctx.deny(self.name(), raw, &e),
        };
        let shown = raw.to_string();
        let p2 = path.clone();
        let res = run_blocking(&ctx.cancel, move |flag| {
            read_page(&p2, &shown, offset, limit, flag)
        })
        .await;
        let page = match res {
            Ok(Ok(page)) => page,
            Ok(Err(ReadError::Cancelled)) | Err(BlockingError::Cancelled) => {
                return ToolResult::cancelled()
            }
            Ok(Err(e)) => return ToolResult::failure(e.to_string()),
            Err(BlockingError::Panicked) => return ToolResult::failure("读取文件失败: 内部错误"),
        };
        page_result(ctx, &path, offset, limit, page)
    }
}

/// Audits the read and turns the page into the tool result.
fn page_result(ctx: &ToolCtx, path: &Path, offset: u64, limit: u64, page: Page) -> ToolResult {
    let shown_count = page.lines.len() as u64;
    let more = page
        .total_lines
        .saturating_sub(offset.saturating_add(shown_count));
    ctx.audit.record(
        AuditOp::Read,
        &[
            ("session", &ctx.session_id),
            ("path", &path.display().to_string()),
            ("offset", &offset.to_string()),
            ("lines", &shown_count.to_string()),
            ("total_lines", &page.total_lines.to_string()),
        ],
    );
    let text = page_text(&page, offset, more);
    let data = ToolData::Page(PageData {
        path: path.display().to_string(),
        offset,
        limit,
        total_lines: page.total_lines,
        lines: page.lines,
        more_lines: more,
        encoding: page.encoding,
        lossy: page.lossy,
        cut_lines: page.cut_lines,
    });
    ToolResult::success(text.trim_end().to_string(), data)
}

/// The numbered lines of the page and the notes on what is past it or was not valid.
fn page_text(page: &Page, offset: u64, more: u64) -> String {
    let shown_count = page.lines.len() as u64;
    let mut text = String::new();
    for (i, line) in page.lines.iter().enumerate() {
        text.push_str(&format!("{:>6}\t{line}\n", offset + i as u64 + 1));
    }
    if page.total_lines == 0 {
        text.push_str("（空文件 / empty file）\n");
    } else if page.lines.is_empty() {
        text.push_str(&format!(
            "（offset {offset} 超出文件总行数 {} / offset past the end）\n",
            page.total_lines
        ));
    }
    if more > 0 {
        text.push_str(&format!(
            "\n... 还有 {more} 行 / {more} more lines（使用 offset={} 继续读取）\n",
            offset + shown_count
        ));
    }
    if page.lossy {
        text.push_str(&format!(
            "（注意：文件含有无效的 {} 字节，已用替换字符显示 / invalid bytes shown as U+FFFD）\n",
            page.encoding.name()
        ));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;
    use std::os::unix::fs::symlink;

    fn numbered(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[tokio::test]
    async fn tools_read_pages_with_more_lines_note() {
        let env = Env::new();
        env.upload(
            "s1",
            "big.log",
            numbered(1000).as_bytes(),
            "2025-01-01T00:00:00Z",
        );
        let r = FileReadTool::default()
            .call(json!({"file_path": "big.log"}), &env.ctx)
            .await;
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data.to_value()["total_lines"], 1000);
        assert_eq!(
            r.data.to_value()["lines"].as_array().map(Vec::len),
            Some(200)
        );
        assert_eq!(r.data.to_value()["more_lines"], 800);
        assert!(r.output.contains("还有 800 行 / 800 more lines"));
        assert!(r.output.starts_with("     1\tline 1\n"));

        let r = FileReadTool::default()
            .call(
                json!({"file_path": "big.log", "offset": 995, "limit": 10}),
                &env.ctx,
            )
            .await;
        assert_eq!(
            r.data.to_value()["lines"],
            json!(["line 996", "line 997", "line 998", "line 999", "line 1000"])
        );
        assert_eq!(r.data.to_value()["more_lines"], 0);
        assert!(!r.output.contains("more lines"));

        let r = FileReadTool::default()
            .call(json!({"file_path": "big.log", "offset": 2000}), &env.ctx)
            .await;
        assert!(r.ok);
        assert!(r.output.contains("超出文件总行数 1000"));

        let r = FileReadTool::default()
            .call(json!({"file_path": "big.log", "limit": 0}), &env.ctx)
            .await;
        assert_eq!(r.error.as_deref(), Some("limit 必须在 1-2000 之间: 0"));
        assert!(env.audit_log().contains("[READ] session=s1 path="));
    }

    #[tokio::test]
    async fn tools_read_encodings() {
        let env = Env::new();
        let at = "2025-01-01T00:00:00Z";
        env.upload(
            "s1",
            "bom.txt",
            b"\xEF\xBB\xBF\xE4\xBD\xA0\xE5\xA5\xBD\r\nb\r\n",
            at,
        );
        let mut le = vec![0xFF, 0xFE];
        for u in "数据库\nport: 5432\n".encode_utf16() {
            le.extend_from_slice(&u.to_le_bytes());
        }
        env.upload("s1", "le.txt", &le, at);
        let mut be = vec![0xFE, 0xFF];
        for u in "hello\nworld".encode_utf16() {
            be.extend_from_slice(&u.to_be_bytes());
        }
        env.upload("s1", "be.txt", &be, at);
        env.upload("s1", "latin1.txt", b"caf\xE9\nok\n", at);

        let r = FileReadTool::default()
            .call(json!({"file_path": "bom.txt"}), &env.ctx)
            .await;
        assert_eq!(
            (
                r.data.to_value()["encoding"].clone(),
                r.data.to_value()["lines"].clone()
            ),
            (json!("utf-8-bom"), json!(["你好", "b"]))
        );
        let r = FileReadTool::default()
            .call(json!({"file_path": "le.txt"}), &env.ctx)
            .await;
        assert_eq!(r.data.to_value()["lines"], json!(["数据库", "port: 5432"]));
        assert_eq!(r.data.to_value()["encoding"], "utf-16le");
        let r = FileReadTool::default()
            .call(json!({"file_path": "be.txt"}), &env.ctx)
            .await;
        assert_eq!(r.data.to_value()["lines"], json!(["hello", "world"]));
        let r = FileReadTool::default()
            .call(json!({"file_path": "latin1.txt"}), &env.ctx)
            .await;
        assert!(r.ok);
        assert_eq!(r.data.to_value()["lossy"], true);
        assert_eq!(r.data.to_value()["lines"][0], "caf\u{FFFD}");
        assert!(r.output.contains("替换字符"));
    }

    #[tokio::test]
    async fn tools_read_refusals_and_errors() {
        let env = Env::new();
        let up = env.ctx.uploads_root();
        env.upload("s1", "bin.dat", b"abc\0def", "2025-01-01T00:00:00Z");
        std::fs::create_dir_all(env.docs.join("d")).expect("mkdir");
        let d = env.docs.join("d").display().to_string();
        std::fs::write(env.root.join("outside.txt"), "x").expect("write");
        symlink(env.root.join("outside.txt"), up.join("escape.txt")).expect("symlink");

        let cases = [
            ("bin.dat", "二进制文件，无法按文本读取: bin.dat (binary file: contains NUL bytes)"),
            ("missing.txt", "文件不存在: missing.txt"),
            ("/etc/shadow", "路径匹配禁止模式: /etc/shadow"),
            (
                "../../../../../../../../../../usr/bin/ls",
                "路径不在白名单中: ../../../../../../../../../../usr/bin/ls（实际指向 /usr/bin/ls）",
            ),
        ];
        for (p, msg) in cases {
            let r = FileReadTool::default()
                .call(json!({"file_path": p}), &env.ctx)
                .await;
            assert_eq!(r.error.as_deref(), Some(msg), "{p}");
        }
        let r = FileReadTool::default()
            .call(json!({"file_path": d.clone()}), &env.ctx)
            .await;
        let dir_msg = format!("路径是目录而不是文件: {d} (is a directory)");
        assert_eq!(r.error.as_deref(), Some(dir_msg.as_str()));
        let r = FileReadTool::default()
            .call(json!({"file_path": "escape.txt"}), &env.ctx)
            .await;
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("路径不在白名单中: escape.txt"));
        let r = FileReadTool::default()
            .call(json!({"file_path": "a\0b"}), &env.ctx)
            .await;
        assert!(r.error.as_deref().unwrap_or("").contains("NUL"));
        let log = env.audit_log();
        assert!(
            log.contains("[DENY] session=s1 tool=file_read target=/etc/shadow code=denied_pattern"),
            "{log}"
        );
        assert!(log.contains("target=escape.txt code=not_allowed"));
        let r = FileReadTool::default()
            .call(json!({"offset": 1}), &env.ctx)
            .await;
        assert!(r.error.as_deref().unwrap_or("").contains("file_path"));
    }

    #[tokio::test]
    async fn tools_read_other_sessions_upload_is_refused() {
        let env = Env::new();
        let theirs = env.upload("s2", "private.txt", b"theirs", "2025-01-01T00:00:00Z");
        let r = FileReadTool::default()
            .call(
                json!({"file_path": theirs.path.display().to_string()}),
                &env.ctx,
            )
            .await;
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("该文件不属于本会话的上传"));
        assert!(env.audit_log().contains("code=foreign_upload"));
    }

    #[tokio::test]
    async fn tools_read_cancelled() {
        let env = Env::new();
        env.upload("s1", "a.txt", b"x\n", "2025-01-01T00:00:00Z");
        env.ctx.cancel.cancel();
        let r = FileReadTool::default()
            .call(json!({"file_path": "a.txt"}), &env.ctx)
            .await;
        assert_eq!(r.error.as_deref(), Some("操作已取消 (cancelled)"));
    }
}
