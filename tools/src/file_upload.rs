//! The `file_upload` tool: lists this session's uploads (via `UploadCatalog`) so the model can
//! resolve "this file", "these two", "the previous log". It does not upload anything: uploads
//! arrive through the protocol layer.

use crate::data::ToolData;
use llmops_common::ToolName;
use llmops_tooldata::UploadArgs;
use serde_json::{json, Value};

use super::{
    human_size, parse_args, upload_time, Tool, ToolCtx, ToolFuture, ToolResult, UploadRef,
};

fn extension(name: &str) -> Option<String> {
    let (stem, ext) = name.rsplit_once('.')?;
    (!stem.is_empty()).then(|| ext.to_ascii_lowercase())
}

/// Whether an upload matches a requested type: extension (`log`, `.log`), an alias (`yml` for
/// `yaml`, `text` for plain text) or a part of the content type (`json`).
fn type_matches(u: &UploadRef, wanted: &str) -> bool {
    let w = wanted.trim().trim_start_matches('.').to_ascii_lowercase();
    if w.is_empty() {
        return true;
    }
    let ext = extension(&u.filename);
    let aliases: &[&str] = match w.as_str() {
        "yaml" | "yml" => &["yaml", "yml"],
        "markdown" | "md" => &["md", "markdown"],
        "text" | "txt" => &["txt", "text"],
        "log" | "logs" | "日志" => &["log"],
        "config" | "conf" | "配置" => &["conf", "cfg", "ini", "yaml", "yml", "toml", "json"],
        _ => &[],
    };
    match &ext {
        Some(e) if *e == w || aliases.contains(&e.as_str()) => true,
        _ => u.content_type.to_ascii_lowercase().contains(&w),
    }
}

fn in_time_range(u: &UploadRef, range: &str, now: chrono::DateTime<chrono::Local>) -> bool {
    let Some(t) = upload_time(u) else {
        return false;
    };
    let t = t.with_timezone(&chrono::Local);
    match range {
        // "Recent" as in the seed: the last five minutes.
        "recent" => now.signed_duration_since(t) <= chrono::Duration::minutes(5),
        "today" => t.date_naive() == now.date_naive(),
        _ => true,
    }
}

/// `file_upload {action: list|get, reference: this|these|previous|all, file_type?, count?,
/// time_range?: recent|today}`.
#[derive(Debug, Clone, Copy, Default)]
pub struct FileUploadTool;

impl FileUploadTool {
    fn select(
        args: &UploadArgs,
        files: Vec<UploadRef>,
        now: chrono::DateTime<chrono::Local>,
    ) -> Result<Vec<UploadRef>, String> {
        let action = args
            .action
            .as_deref()
            .unwrap_or("list")
            .trim()
            .to_lowercase();
        if action != "list" && action != "get" {
            return Err(format!("不支持的操作: {action}（支持 list、get）"));
        }
        if let Some(id) = args.file_id.as_deref().filter(|s| !s.trim().is_empty()) {
            return match files.into_iter().find(|u| u.file_id == id.trim()) {
                Some(u) => Ok(vec![u]),
                None => Err(format!("文件不存在: {id}（不是本会话上传的文件）")),
            };
        }
        let default_ref = if action == "get" { "this" } else { "all" };
        let reference = args
            .reference
            .as_deref()
            .unwrap_or(default_ref)
            .trim()
            .to_lowercase();
        if !["this", "these", "previous", "all"].contains(&reference.as_str()) {
            return Err(format!(
                "reference 必须是 this、these、previous 或 all 之一: {reference}"
            ));
        }
        let mut files: Vec<UploadRef> = files;
        if let Some(t) = args.file_type.as_deref() {
            files.retain(|u| type_matches(u, t));
        }
        if let Some(r) = args.time_range.as_deref() {
            let r = r.trim().to_lowercase();
            if r != "recent" && r != "today" {
                return Err(format!("time_range 必须是 recent 或 today: {r}"));
            }
            files.retain(|u| in_time_range(u, &r, now));
        }
        let n = files.len();
        let picked = match reference.as_str() {
            "this" => files.split_off(n.saturating_sub(1)),
            "these" => {
                let c = args.count.unwrap_or(2).max(1) as usize;
                files.split_off(n.saturating_sub(c))
            }
            "previous" => {
                if n >= 2 {
                    vec![files.swap_remove(n - 2)]
                } else {
                    Vec::new()
                }
            }
            _ => {
                // `count` limits `all` to the most recent ones.
                match args.count {
                    Some(c) => files.split_off(n.saturating_sub(c.max(1) as usize)),
                    None => files,
                }
            }
        };
        Ok(picked)
    }
}

impl Tool for FileUploadTool {
    fn name(&self) -> &'static str {
        ToolName::FileUpload.as_str()
    }

    fn description(&self) -> &'static str {
        "列出本会话已上传的文件（不执行上传，上传由客户端完成）。List the files uploaded in this \
         session: reference=this（刚上传的）、these（最近 count 个，默认 2）、previous（之前那个）、\
         all（全部）；可按 file_type（扩展名，如 log、yaml）和 time_range（recent 最近 5 分钟 / \
         today 今天）过滤。关键词：这个文件、这两个、之前上传的、我上传的、所有文件"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "action": {"type": "string", "enum": ["list", "get"], "default": "list"},
                "reference": {
                    "type": "string",
                    "enum": ["this", "these", "previous", "all"],
                    "default": "all",
                    "description": "this=最近一个, these=最近 count 个, previous=倒数第二个, all=全部"
                },
                "file_type": {"type": "string", "description": "扩展名或类型，如 log、yaml、json"},
                "count": {"type": "integer", "minimum": 1, "description": "数量 / how many (these: default 2)"},
                "time_range": {"type": "string", "enum": ["recent", "today"]},
                "file_id": {"type": "string", "description": "action=get 时按 file_id 取一个文件"}
            },
            "required": []
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: UploadArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let all = ctx.session_uploads();
            if all.is_empty() {
                return ToolResult::success(
                    "本会话还没有上传文件 / no files uploaded in this session",
                    ToolData::Uploads(Vec::new()),
                );
            }
            let files = match Self::select(&args, all, chrono::Local::now()) {
                Ok(f) => f,
                Err(e) => return ToolResult::failure(e),
            };
            if files.is_empty() {
                return ToolResult::success(
                    "没有符合条件的上传文件 / no uploaded file matches",
                    ToolData::Uploads(Vec::new()),
                );
            }
            let mut text = format!("本会话上传的文件（{} 个）/ uploaded files:\n", files.len());
            for (i, u) in files.iter().enumerate() {
                text.push_str(&format!(
                    "{}. {}（{}，{}）路径: {}  file_id: {}\n",
                    i + 1,
                    u.filename,
                    human_size(u.size),
                    u.uploaded_at,
                    u.path.display(),
                    u.file_id
                ));
            }
            ToolResult::success(text.trim_end().to_string(), ToolData::Uploads(files))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;

    fn names(r: &ToolResult) -> Vec<String> {
        r.data.to_value()["files"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter_map(|f| f["filename"].as_str().map(String::from))
                    .collect()
            })
            .unwrap_or_default()
    }

    #[tokio::test]
    async fn tools_upload_empty_session_is_explicit() {
        let env = Env::new();
        let r = FileUploadTool
            .call(json!({"reference": "this"}), &env.ctx)
            .await;
        assert!(r.ok);
        assert_eq!(
            r.output,
            "本会话还没有上传文件 / no files uploaded in this session"
        );
        assert_eq!(r.data.to_value(), json!({"files": []}));
    }

    #[tokio::test]
    async fn tools_upload_references() {
        let env = Env::new();
        // Inserted out of order: the tool sorts by upload time.
        env.upload("s1", "app.log", b"a", "2025-01-01T08:00:00Z");
        env.upload("s1", "config_old.yaml", b"bb", "2025-01-01T08:20:00Z");
        env.upload("s1", "config.yaml", b"ccc", "2025-01-01T08:10:00Z");
        env.upload("s2", "other.log", b"x", "2025-01-01T09:00:00Z");

        let call = |args: Value| FileUploadTool.call(args, &env.ctx);
        assert_eq!(
            names(&call(json!({"reference": "this"})).await),
            ["config_old.yaml"]
        );
        assert_eq!(
            names(&call(json!({"reference": "these"})).await),
            ["config.yaml", "config_old.yaml"]
        );
        assert_eq!(
            names(&call(json!({"reference": "these", "count": 3})).await),
            ["app.log", "config.yaml", "config_old.yaml"]
        );
        assert_eq!(
            names(&call(json!({"reference": "previous"})).await),
            ["config.yaml"]
        );
        assert_eq!(names(&call(json!({"reference": "all"})).await).len(), 3);
        assert_eq!(
            names(&call(json!({})).await).len(),
            3,
            "other sessions are invisible"
        );
        assert_eq!(
            names(&call(json!({"reference": "previous", "file_type": "yaml"})).await),
            ["config.yaml"]
        );
        assert_eq!(
            names(&call(json!({"reference": "all", "file_type": ".LOG"})).await),
            ["app.log"]
        );
        assert_eq!(
            names(&call(json!({"reference": "all", "file_type": "yml"})).await).len(),
            2
        );
        let r = call(json!({"action": "get", "file_id": "id-s1-0"})).await;
        assert_eq!(names(&r), ["app.log"]);
        let r = call(json!({"reference": "this"})).await;
        assert!(
            r.output
                .contains("config_old.yaml（2 B，2025-01-01T08:20:00Z）"),
            "{}",
            r.output
        );
        assert_eq!(r.data.to_value()["files"][0]["size"], 2);
        assert!(r.data.to_value()["files"][0]["path"]
            .as_str()
            .unwrap_or("")
            .ends_with("config_old.yaml"));

        let r = call(json!({"reference": "that"})).await;
        assert_eq!(
            r.error.as_deref(),
            Some("reference 必须是 this、these、previous 或 all 之一: that")
        );
        let r = call(json!({"action": "delete"})).await;
        assert_eq!(
            r.error.as_deref(),
            Some("不支持的操作: delete（支持 list、get）")
        );
        let r = call(json!({"action": "get", "file_id": "id-s2-3"})).await;
        assert!(r
            .error
            .as_deref()
            .unwrap_or("")
            .starts_with("文件不存在: id-s2-3"));
    }

    #[test]
    fn tools_upload_time_ranges() {
        use chrono::TimeZone;
        // Local noon, so "today" does not depend on the machine's time zone.
        let now = chrono::Local
            .with_ymd_and_hms(2025, 6, 1, 12, 0, 0)
            .single()
            .expect("unambiguous local noon");
        let mk = |name: &str, at: chrono::DateTime<chrono::Local>| UploadRef {
            file_id: name.into(),
            filename: name.into(),
            path: name.into(),
            size: 1,
            sha256: String::new(),
            uploaded_at: at.to_rfc3339(),
            content_type: "text/plain".into(),
            columns: Vec::new(),
            format: None,
        };
        let files = vec![
            mk("old.txt", now - chrono::Duration::days(3)),
            mk("hour.txt", now - chrono::Duration::hours(1)),
            mk("fresh.txt", now - chrono::Duration::minutes(2)),
        ];
        let args = |r: &str| UploadArgs {
            action: None,
            reference: Some("all".into()),
            file_type: None,
            count: None,
            time_range: Some(r.into()),
            file_id: None,
        };
        let got = FileUploadTool::select(&args("recent"), files.clone(), now).expect("ok");
        assert_eq!(
            got.iter().map(|u| u.filename.as_str()).collect::<Vec<_>>(),
            ["fresh.txt"]
        );
        let got = FileUploadTool::select(&args("today"), files.clone(), now).expect("ok");
        assert_eq!(
            got.iter().map(|u| u.filename.as_str()).collect::<Vec<_>>(),
            ["hour.txt", "fresh.txt"]
        );
        assert!(FileUploadTool::select(&args("yesterday"), files, now).is_err());
    }
}
