//! The `file_download` tool: resolves and checks a file (path policy, regular file), hashes it
//! off the runtime and returns a download offer as data. It never sends the file: the session
//! turns the offer into an offer frame and the transfer layer streams it after the user
//! accepts. The file's content never goes into `output`.

use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use llmops_tooldata::DownloadArgs;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::{
    human_size, parse_args, resolve_user_path, run_blocking, BlockingError, Tool, ToolCtx,
    ToolFuture, ToolResult,
};
use crate::audit::AuditOp;
use crate::data::{DownloadOffer, ToolData};
use llmops_common::{ToolName, TransferMode};
use llmops_policy::path::display_name;

/// The modes a model may ask for, in the schema's order.
fn modes() -> Vec<&'static str> {
    TransferMode::ALL.iter().map(|m| m.as_str()).collect()
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum HashError {
    #[error("文件不存在: {0}")]
    NotFound(String),
    #[error("路径是目录，不能下载: {0}")]
    IsDir(String),
    #[error("不是普通文件，不能下载: {0}")]
    NotRegular(String),
    #[error("读取文件失败: {0}: {1}")]
    Io(String, String),
    #[error("操作已取消 (cancelled)")]
    Cancelled,
}

/// Size and SHA-256 of a regular file, streamed. Blocking.
fn hash_file(path: &Path, shown: &str, cancel: &AtomicBool) -> Result<(u64, String), HashError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => HashError::NotFound(shown.to_string()),
        _ => HashError::Io(shown.to_string(), e.to_string()),
    })?;
    if meta.is_dir() {
        return Err(HashError::IsDir(shown.to_string()));
    }
    if !meta.is_file() {
        return Err(HashError::NotRegular(shown.to_string()));
    }
    let mut file = File::open(path).map_err(|e| HashError::Io(shown.to_string(), e.to_string()))?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; 256 * 1024];
    let mut size = 0u64;
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(HashError::Cancelled);
        }
        let n = file
            .read(&mut buf)
            .map_err(|e| HashError::Io(shown.to_string(), e.to_string()))?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
        size += n as u64;
    }
    Ok((size, hex::encode(hasher.finalize())))
}

/// `file_download {file_path, transport_mode: auto|rdt|nplt|http = auto}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileDownloadTool;

impl Tool for FileDownloadTool {
    fn name(&self) -> &'static str {
        ToolName::FileDownload.as_str()
    }

    fn description(&self) -> &'static str {
        "为用户准备文件下载：校验路径后向用户发出下载提议，用户确认后由协议层传输。Prepare a \
         download offer for a file (the user accepts or rejects; the transfer happens outside \
         the agent). 可先用 semantic_search 或 file_upload 找到文件路径。\
         关键词：下载、发给我、获取文件、传文件"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "file_path": {
                    "type": "string",
                    "description": "文件路径或本会话上传的文件名 / path, or the name of a file uploaded in this session"
                },
                "transport_mode": {
                    "type": "string",
                    "enum": modes(),
                    "default": TransferMode::Auto.as_str(),
                    "description": "传输方式 / transport: auto, rdt (UDP), nplt (TCP), http"
                }
            },
            "required": ["file_path"]
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: DownloadArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let mode = match args.transport_mode.as_deref() {
                None => TransferMode::Auto,
                Some(raw) => match TransferMode::parse_lenient(raw) {
                    Some(m) => m,
                    None => {
                        return ToolResult::failure(format!(
                            "transport_mode 必须是 auto、rdt、nplt 或 http 之一: {}",
                            raw.trim().to_lowercase()
                        ))
                    }
                },
            };
            let raw = args.file_path;
            let path: PathBuf = match resolve_user_path(ctx, &raw) {
                Ok(p) => p,
                Err(e) => return ctx.deny(self.name(), &raw, &e),
            };
            let shown = raw.clone();
            let p2 = path.clone();
            let (size, sha256) =
                match run_blocking(&ctx.cancel, move |flag| hash_file(&p2, &shown, flag)).await {
                    Ok(Ok(v)) => v,
                    Ok(Err(HashError::Cancelled)) | Err(BlockingError::Cancelled) => {
                        return ToolResult::cancelled()
                    }
                    Ok(Err(e)) => return ToolResult::failure(e.to_string()),
                    Err(BlockingError::Panicked) => {
                        return ToolResult::failure("准备下载失败: 内部错误")
                    }
                };
            let filename = display_name(&path);
            let path_s = path.display().to_string();
            ctx.audit.record(
                AuditOp::DownloadOffer,
                &[
                    ("session", &ctx.session_id),
                    ("file_path", &path_s),
                    ("filename", &filename),
                    ("size", &size.to_string()),
                    ("sha256", &sha256),
                    ("transport_mode", mode.as_str()),
                ],
            );
            let output = format!(
                "已准备下载: {filename}（{}，sha256 {}…），等待用户确认。\
                 Download offer prepared; waiting for the user to accept.",
                human_size(size),
                &sha256[..12]
            );
            ToolResult::success(
                output,
                ToolData::Offer(DownloadOffer {
                    file_path: path_s,
                    filename,
                    size,
                    sha256,
                    transport_mode: mode,
                }),
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;

    #[tokio::test]
    async fn tools_download_offer_has_size_and_sha256_not_content() {
        let env = Env::new();
        let u = env.upload(
            "s1",
            "config.yaml",
            b"database:\n  port: 5432\n",
            "2025-01-01T00:00:00Z",
        );
        let r = FileDownloadTool
            .call(json!({"file_path": "config.yaml"}), &env.ctx)
            .await;
        assert!(r.ok, "{r:?}");
        let data = r.data.to_value();
        let offer = &data["offer"];
        assert_eq!(offer["filename"], "config.yaml");
        assert_eq!(offer["size"], 23);
        assert_eq!(offer["file_path"], u.path.display().to_string());
        assert_eq!(offer["transport_mode"], "auto");
        let expected = hex::encode(Sha256::digest(b"database:\n  port: 5432\n"));
        assert_eq!(offer["sha256"], expected);
        assert!(!r.output.contains("5432"), "content never in output");
        assert!(r.output.starts_with("已准备下载: config.yaml（23 B"));
        let log = env.audit_log();
        assert!(
            log.contains("[DOWNLOAD_OFFER] session=s1 file_path="),
            "{log}"
        );
        assert!(log.contains(&format!("sha256={expected} transport_mode=auto")));

        let r = FileDownloadTool
            .call(
                json!({"file_path": u.path.display().to_string(), "transport_mode": "RDT"}),
                &env.ctx,
            )
            .await;
        assert_eq!(r.data.to_value()["offer"]["transport_mode"], "rdt");
    }

    #[tokio::test]
    async fn tools_download_refusals() {
        let env = Env::new();
        std::fs::create_dir_all(env.docs.join("d")).expect("mkdir");
        std::fs::write(env.docs.join(".env"), "KEY=secret").expect("write");
        let stray = env.ctx.uploads_root().join("stray.txt");
        std::fs::write(&stray, "not an upload").expect("write");
        let d = env.docs.join("d").display().to_string();
        let dotenv = env.docs.join(".env").display().to_string();
        for (args, msg) in [
            (
                json!({"file_path": "/etc/passwd"}),
                "路径匹配禁止模式: /etc/passwd".to_string(),
            ),
            (
                json!({"file_path": dotenv.clone()}),
                "路径匹配禁止模式: */.env".to_string(),
            ),
            (
                json!({"file_path": d.clone()}),
                format!("路径是目录，不能下载: {d}"),
            ),
            (
                json!({"file_path": "stray.txt"}),
                "该文件不属于本会话的上传: stray.txt (not an upload of this session)".to_string(),
            ),
            (
                json!({"file_path": "nope.txt"}),
                "文件不存在: nope.txt".to_string(),
            ),
            (
                json!({"file_path": "x", "transport_mode": "ftp"}),
                "transport_mode 必须是 auto、rdt、nplt 或 http 之一: ftp".to_string(),
            ),
        ] {
            let r = FileDownloadTool.call(args.clone(), &env.ctx).await;
            assert_eq!(r.error.as_deref(), Some(msg.as_ref()), "{args}");
        }
        let log = env.audit_log();
        assert!(
            log.contains("[DENY] session=s1 tool=file_download target=/etc/passwd"),
            "{log}"
        );
        assert!(log.contains("code=denied_pattern reason=\"路径匹配禁止模式: */.env\""));
        assert!(log.contains("target=stray.txt code=foreign_upload"));
        assert!(!log.contains("[DOWNLOAD_OFFER]"));
    }

    #[tokio::test]
    async fn tools_download_cancelled() {
        let env = Env::new();
        env.upload("s1", "a.txt", b"x", "2025-01-01T00:00:00Z");
        env.ctx.cancel.cancel();
        let r = FileDownloadTool
            .call(json!({"file_path": "a.txt"}), &env.ctx)
            .await;
        assert_eq!(r.error.as_deref(), Some("操作已取消 (cancelled)"));
    }
}
