//! The `semantic_search` tool and its backend seam. `SearchBackend` is what the real index
//! (lexical + dense, another module) will implement; `RawTextSearch` is the interim backend:
//! file-name matching plus raw token matching (English words, CJK bigrams) over this
//! session's uploads and the doc folders, scored into [0, 1]. Only files the path policy
//! allows are ever read.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use llmops_tooldata::SearchArgs;
use serde_json::{json, Value};

use super::{
    parse_args, run_blocking, truncate_chars, BlockingError, Tool, ToolCtx, ToolFuture, ToolResult,
    UploadCatalog,
};
use crate::data::{SearchData, ToolData};
pub use crate::data::{SearchHit, SearchScope};
use llmops_common::ToolName;
use llmops_policy::PathPolicy;

/// A search engine over this session's uploads and the system docs. Blocking: the tool calls
/// it on the blocking pool.
pub trait SearchBackend: Send + Sync {
    fn search(
        &self,
        session_id: &str,
        query: &str,
        scope: SearchScope,
        top_k: usize,
    ) -> Result<Vec<SearchHit>, String>;
}

const MAX_CHUNK_CHARS: usize = 200;
const WINDOW_LINES: usize = 5;

/// Query tokens (lower-cased words, CJK character bigrams): the index crate's tokenizer,
/// so the fallback ranks like the real index.
pub use llmops_index::rank::{filename_score, simple_tokens as tokenize};

/// Result of matching tokens against a text.
#[derive(Debug, Clone, PartialEq)]
pub struct LexicalMatch {
    pub score: f32,
    /// 0-based first and last line of the best window.
    pub lines: (usize, usize),
    pub chunk: String,
}

/// Scores `text` by query-token coverage (whole document and best 5-line window).
pub fn lexical_match(text: &str, tokens: &[String]) -> Option<LexicalMatch> {
    if tokens.is_empty() {
        return None;
    }
    let lines: Vec<&str> = text.lines().collect();
    let masks: Vec<u64> = lines
        .iter()
        .map(|l| {
            let l = l.to_lowercase();
            tokens
                .iter()
                .enumerate()
                .filter(|(_, t)| l.contains(t.as_str()))
                .fold(0u64, |m, (i, _)| m | (1 << i))
        })
        .collect();
    let doc = masks.iter().fold(0u64, |a, m| a | m);
    if doc == 0 {
        return None;
    }
    let (mut best_mask, mut best_start) = (0u64, 0usize);
    for start in 0..masks.len() {
        if masks[start] == 0 {
            continue;
        }
        let end = (start + WINDOW_LINES).min(masks.len());
        let m = masks[start..end].iter().fold(0u64, |a, m| a | m);
        if m.count_ones() > best_mask.count_ones() {
            best_mask = m;
            best_start = start;
        }
    }
    let n = tokens.len() as f32;
    let cov_doc = doc.count_ones() as f32 / n;
    let cov_win = best_mask.count_ones() as f32 / n;
    let score = 0.85 * (0.4 * cov_doc + 0.6 * cov_win);
    // The chunk: the window's lines that matched plus the lines between them.
    let end = (best_start + WINDOW_LINES).min(masks.len());
    let last = (best_start..end)
        .rev()
        .find(|&i| masks[i] != 0)
        .unwrap_or(best_start);
    let chunk = lines[best_start..=last]
        .iter()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n");
    Some(LexicalMatch {
        score,
        lines: (best_start, last),
        chunk: truncate_chars(&chunk, MAX_CHUNK_CHARS),
    })
}

/// Interim backend: raw text search over uploads and doc folders.
pub struct RawTextSearch {
    uploads: Arc<dyn UploadCatalog>,
    doc_dirs: Vec<PathBuf>,
    paths: Arc<PathPolicy>,
    /// Never walked as system docs (the uploads root: other sessions' files live there).
    exclude: Option<PathBuf>,
    max_files: usize,
    max_file_bytes: u64,
}

impl RawTextSearch {
    pub fn new(
        uploads: Arc<dyn UploadCatalog>,
        doc_dirs: Vec<PathBuf>,
        paths: Arc<PathPolicy>,
        exclude: Option<PathBuf>,
    ) -> Self {
        RawTextSearch {
            uploads,
            doc_dirs,
            paths,
            exclude: exclude.and_then(|p| llmops_policy::path::resolve(&p).ok()),
            max_files: 5000,
            max_file_bytes: 2 * 1024 * 1024,
        }
    }

    fn read_text(&self, path: &Path) -> Option<String> {
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > self.max_file_bytes {
            return None;
        }
        let bytes = std::fs::read(path).ok()?;
        if bytes[..bytes.len().min(8192)].contains(&0) {
            return None;
        }
        let body = bytes
            .strip_prefix(&[0xEF, 0xBB, 0xBF][..])
            .unwrap_or(&bytes);
        Some(String::from_utf8_lossy(body).into_owned())
    }

    fn score_file(
        &self,
        path: &Path,
        filename: &str,
        query: &str,
        tokens: &[String],
        file_id: Option<String>,
    ) -> Option<SearchHit> {
        // Only files the policy allows, by their resolved path.
        let resolved = self.paths.check(path).ok()?;
        let text = self.read_text(&resolved)?;
        let f = filename_score(filename, query, tokens);
        let lex = lexical_match(&text, tokens);
        let l = lex.as_ref().map(|m| m.score).unwrap_or(0.0);
        if f <= 0.0 && l <= 0.0 {
            return None;
        }
        let similarity = (f.max(l) + 0.1 * f.min(l)).clamp(0.0, 1.0);
        let (chunk, position, match_type) = match lex {
            Some(m) if l >= f => (
                m.chunk,
                format!("lines {}-{}", m.lines.0 + 1, m.lines.1 + 1),
                "lexical",
            ),
            _ => {
                let head: Vec<&str> = text.lines().take(WINDOW_LINES).collect();
                let shown = head.len().max(1);
                (
                    truncate_chars(head.join("\n").trim(), MAX_CHUNK_CHARS),
                    format!("lines 1-{shown}"),
                    "filename",
                )
            }
        };
        Some(SearchHit {
            filename: filename.to_string(),
            filepath: resolved.display().to_string(),
            similarity: (similarity * 1000.0).round() / 1000.0,
            chunk,
            position,
            match_type: match_type.to_string(),
            file_id,
            answer: None,
        })
    }
}

impl SearchBackend for RawTextSearch {
    fn search(
        &self,
        session_id: &str,
        query: &str,
        scope: SearchScope,
        top_k: usize,
    ) -> Result<Vec<SearchHit>, String> {
        let tokens = tokenize(query);
        let mut hits = Vec::new();
        if matches!(scope, SearchScope::All | SearchScope::Uploads) {
            for u in self.uploads.list(session_id) {
                if let Some(h) = self.score_file(
                    &u.path,
                    &u.filename,
                    query,
                    &tokens,
                    Some(u.file_id.clone()),
                ) {
                    hits.push(h);
                }
            }
        }
        if matches!(scope, SearchScope::All | SearchScope::System) {
            let mut files = Vec::new();
            for d in &self.doc_dirs {
                walk_files(d, 0, self.max_files, self.exclude.as_deref(), &mut files);
            }
            for p in files {
                let name = llmops_policy::path::display_name(&p);
                if let Some(h) = self.score_file(&p, &name, query, &tokens, None) {
                    hits.push(h);
                }
            }
        }
        hits.sort_by(|a, b| {
            b.similarity
                .total_cmp(&a.similarity)
                .then_with(|| a.filepath.cmp(&b.filepath))
        });
        hits.dedup_by(|a, b| a.filepath == b.filepath);
        hits.truncate(top_k);
        Ok(hits)
    }
}

/// A query is searched by its first [`MAX_QUERY_CHARS`] characters: a longer one is pasted
/// text (a log, a dump), whose opening says what it is, and scoring every document against
/// tens of thousands of terms would hold the turn for seconds.
const MAX_QUERY_CHARS: usize = 1000;

fn search_words(query: &str) -> String {
    match query.char_indices().nth(MAX_QUERY_CHARS) {
        Some((cut, _)) => query[..cut].to_string(),
        None => query.to_string(),
    }
}

/// `semantic_search {query, scope: all|system|uploads, top_k 1..10 = 3}`.
pub struct SemanticSearchTool {
    backend: Arc<dyn SearchBackend>,
}

impl SemanticSearchTool {
    pub fn new(backend: Arc<dyn SearchBackend>) -> Self {
        SemanticSearchTool { backend }
    }
}

impl Tool for SemanticSearchTool {
    fn name(&self) -> &'static str {
        ToolName::SemanticSearch.as_str()
    }

    fn description(&self) -> &'static str {
        "检索系统文档和本会话上传的文件，返回文件路径与相关片段。Search the system docs and this \
         session's uploads by natural language or file name; returns paths, similarity and a \
         snippet. scope: all | system（系统文档）| uploads（上传文件）。\
         关键词：搜索、检索、查找、文档、文件、配置、日志"
    }

    fn schema(&self) -> Value {
        json!({
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "查询文本或文件名 / query or file name"},
                "scope": {
                    "type": "string",
                    "enum": ["all", "system", "uploads"],
                    "default": "all"
                },
                "top_k": {"type": "integer", "minimum": 1, "maximum": 10, "default": 3}
            },
            "required": ["query"]
        })
    }

    fn call<'a>(&'a self, args: Value, ctx: &'a ToolCtx) -> ToolFuture<'a> {
        Box::pin(async move {
            let args: SearchArgs = match parse_args(args) {
                Ok(a) => a,
                Err(e) => return ToolResult::failure(e),
            };
            let query = args.query.trim();
            if query.is_empty() {
                return ToolResult::failure("查询文本不能为空 (empty query)");
            }
            let cut = query.chars().count() > MAX_QUERY_CHARS;
            let query = search_words(query);
            // A cut query says so, beside whatever it found.
            let cut_note = if cut {
                format!("（按前 {MAX_QUERY_CHARS} 个字符检索 / searched by the first {MAX_QUERY_CHARS} characters）")
            } else {
                String::new()
            };
            let top_k = args.top_k.unwrap_or(3);
            if !(1..=10).contains(&top_k) {
                return ToolResult::failure(format!("top_k 必须在 1-10 之间: {top_k}"));
            }
            let scope_raw = args.scope.unwrap_or_else(|| "all".into());
            let Some(scope) = SearchScope::parse(&scope_raw) else {
                return ToolResult::failure(format!(
                    "scope 必须是 all、system 或 uploads 之一: {scope_raw}"
                ));
            };
            let backend = self.backend.clone();
            let (session, q) = (ctx.session_id.clone(), query.clone());
            let res = run_blocking(&ctx.cancel, move |_| {
                backend.search(&session, &q, scope, top_k as usize)
            })
            .await;
            let hits = match res {
                Ok(Ok(h)) => h,
                Ok(Err(e)) => return ToolResult::failure(format!("检索失败: {e}")),
                Err(BlockingError::Cancelled) => return ToolResult::cancelled(),
                Err(BlockingError::Panicked) => return ToolResult::failure("检索失败: 内部错误"),
            };
            let data = ToolData::Search(SearchData {
                query: query.clone(),
                scope,
                results: hits.clone(),
            });
            if hits.is_empty() {
                return ToolResult::success(
                    format!("没有找到与「{query}」相关的内容 / no results{cut_note}"),
                    data,
                );
            }
            let mut text = format!(
                "找到 {} 个结果 / {} results{cut_note}:\n",
                hits.len(),
                hits.len()
            );
            for (i, h) in hits.iter().enumerate() {
                text.push_str(&format!(
                    "{}. {}（相似度 {:.2}，{}）\n   路径: {}\n   {}\n",
                    i + 1,
                    h.filename,
                    h.similarity,
                    h.position,
                    h.filepath,
                    h.chunk.replace('\n', "\n   ")
                ));
                // The line that answers, for a model reading this text as the planner
                // reads `answer`.
                if let Some(a) = &h.answer {
                    let key = a
                        .key
                        .as_deref()
                        .map(|k| format!("（键 {k}）"))
                        .unwrap_or_default();
                    // A comment is the closest line, not a value set.
                    let label = if a.comment {
                        "最接近的注释 / closest comment"
                    } else {
                        "答案行 / answer line"
                    };
                    text.push_str(&format!("   {label} {}: {}{key}\n", a.line, a.text));
                }
            }
            ToolResult::success(text.trim_end().to_string(), data)
        })
    }
}

/// Regular files under `dir` in name order, up to `max` and 8 levels deep, skipping dot
/// entries and anything under `exclude`. Symlinks are not followed while walking (no loops,
/// no escapes); callers check every path against the policy anyway.
pub fn walk_files(
    dir: &Path,
    depth: usize,
    max: usize,
    exclude: Option<&Path>,
    out: &mut Vec<PathBuf>,
) {
    if depth > 8 || out.len() >= max {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().collect();
    entries.sort_by_key(|e| e.file_name());
    for e in entries {
        if out.len() >= max {
            return;
        }
        if e.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        let p = e.path();
        if exclude.is_some_and(|x| p.starts_with(x)) {
            continue;
        }
        if ft.is_dir() {
            walk_files(&p, depth + 1, max, exclude, out);
        } else if ft.is_file() {
            out.push(p);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testutil::Env;

    fn backend(env: &Env) -> RawTextSearch {
        RawTextSearch::new(
            env.ctx.uploads.clone(),
            vec![env.docs.clone()],
            env.ctx.paths.clone(),
            Some(env.ctx.uploads_root()),
        )
    }

    #[test]
    fn tools_search_tokenize_words_and_cjk_bigrams() {
        assert_eq!(
            tokenize("How to configure the Database port"),
            ["configure", "database", "port"]
        );
        assert_eq!(tokenize("数据库配置"), ["数据", "据库", "库配", "配置"]);
        assert_eq!(tokenize("nginx 日志 5"), ["nginx", "日志", "5"]);
        assert_eq!(tokenize("库"), ["库"]);
    }

    #[test]
    fn tools_search_scores_in_unit_range() {
        let t = tokenize("config.yaml");
        assert_eq!(filename_score("config.yaml", "config.yaml", &t), 1.0);
        assert_eq!(
            filename_score("CONFIG.yaml", "config", &tokenize("config")),
            0.95
        );
        assert!(filename_score("conifg.yaml", "config.yaml", &t) > 0.6);
        assert_eq!(filename_score("readme.md", "config.yaml", &t), 0.0);
        let m = lexical_match(
            "a\nport: 5432\ndatabase: main\nz",
            &tokenize("database port"),
        )
        .expect("match");
        assert!((0.0..=1.0).contains(&m.score));
        assert!((m.score - 0.85).abs() < 1e-6, "all tokens in one window");
        assert_eq!(m.lines, (1, 2));
        assert_eq!(m.chunk, "port: 5432\ndatabase: main");
        assert!(lexical_match("nothing here", &tokenize("database")).is_none());
    }

    #[test]
    fn tools_search_raw_backend_finds_uploads_and_docs() {
        let env = Env::new();
        env.upload(
            "s1",
            "config.yaml",
            b"server:\n  port: 80\ndatabase:\n  host: db\n  port: 5432\n",
            "2025-01-01T00:00:00Z",
        );
        env.upload(
            "s2",
            "theirs.yaml",
            b"database: other session\n",
            "2025-01-01T00:00:00Z",
        );
        std::fs::write(
            env.docs.join("manual.md"),
            "# 手册\n\n数据库配置说明：编辑 config.yaml 的 database 段。\n",
        )
        .expect("write");
        std::fs::write(env.docs.join(".env"), "database password").expect("write");
        std::fs::write(env.docs.join("db_secret.md"), "database secret").expect("write");
        let b = backend(&env);

        let hits = b
            .search("s1", "config.yaml", SearchScope::Uploads, 3)
            .expect("search");
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].filename, "config.yaml");
        assert_eq!(hits[0].similarity, 1.0);
        assert_eq!(hits[0].match_type, "filename");
        assert!(hits[0].file_id.is_some());

        let hits = b
            .search("s1", "数据库配置", SearchScope::System, 3)
            .expect("search");
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].filename, "manual.md");
        assert_eq!(hits[0].match_type, "lexical");
        assert!(hits[0].chunk.contains("数据库配置说明"));
        assert_eq!(hits[0].position, "lines 3-3");

        let hits = b
            .search("s1", "database", SearchScope::All, 10)
            .expect("search");
        let names: Vec<&str> = hits.iter().map(|h| h.filename.as_str()).collect();
        assert!(
            names.contains(&"config.yaml") && names.contains(&"manual.md"),
            "{names:?}"
        );
        assert!(!names.contains(&"theirs.yaml"), "other session's upload");
        assert!(
            !names.contains(&".env") && !names.contains(&"db_secret.md"),
            "denied files never searched"
        );
        for h in &hits {
            assert!((0.0..=1.0).contains(&h.similarity));
            assert!(h.chunk.chars().count() <= 200);
        }
        let hits = b
            .search("s1", "database", SearchScope::All, 1)
            .expect("search");
        assert_eq!(hits.len(), 1);
    }

    /// A backend with one fixed hit: the tool's text for a hit the index gave a line.
    struct OneHit(SearchHit);

    impl SearchBackend for OneHit {
        fn search(
            &self,
            _: &str,
            _: &str,
            _: SearchScope,
            _: usize,
        ) -> Result<Vec<SearchHit>, String> {
            Ok(vec![self.0.clone()])
        }
    }

    #[tokio::test]
    async fn tools_search_text_names_the_answer_line() {
        let env = Env::new();
        let hit = SearchHit {
            filename: "api.yaml".into(),
            filepath: "/u/1/api.yaml".into(),
            similarity: 0.9,
            chunk: "limits:\n  memory: 1536Mi".into(),
            position: "lines 16-17".into(),
            match_type: "lexical".into(),
            file_id: Some("1".into()),
            answer: Some(llmops_common::AnswerLine {
                line: 17,
                text: "memory: 1536Mi".into(),
                key: Some("spec.resources.limits.memory".into()),
                comment: false,
            }),
        };
        let tool = SemanticSearchTool::new(Arc::new(OneHit(hit.clone())));
        let r = tool.call(json!({"query": "memory limit"}), &env.ctx).await;
        assert!(r.ok, "{r:?}");
        assert!(
            r.output.contains(
                "答案行 / answer line 17: memory: 1536Mi（键 spec.resources.limits.memory）"
            ),
            "{}",
            r.output
        );
        assert_eq!(r.data.to_value()["results"][0]["answer"]["line"], 17);
        // A comment as the closest line is named a comment, not an answer.
        let mut commented = hit;
        commented.answer = Some(llmops_common::AnswerLine {
            line: 15,
            text: "# limits agreed with the platform team".into(),
            key: None,
            comment: true,
        });
        let tool = SemanticSearchTool::new(Arc::new(OneHit(commented)));
        let r = tool.call(json!({"query": "memory limit"}), &env.ctx).await;
        assert!(
            r.output.contains(
                "最接近的注释 / closest comment 15: # limits agreed with the platform team"
            ),
            "{}",
            r.output
        );
        assert!(!r.output.contains("answer line"), "{}", r.output);
        assert_eq!(r.data.to_value()["results"][0]["answer"]["comment"], true);
    }

    #[tokio::test]
    async fn tools_search_tool_validates_and_returns_hits() {
        let env = Env::new();
        env.upload(
            "s1",
            "app.log",
            b"INFO ok\nERROR disk full on /var\n",
            "2025-01-01T00:00:00Z",
        );
        let tool = SemanticSearchTool::new(Arc::new(backend(&env)));
        let r = tool
            .call(
                json!({"query": "disk full error", "scope": "uploads"}),
                &env.ctx,
            )
            .await;
        assert!(r.ok, "{r:?}");
        assert_eq!(r.data.to_value()["query"], "disk full error");
        assert_eq!(r.data.to_value()["scope"], "uploads");
        assert_eq!(r.data.to_value()["results"][0]["filename"], "app.log");
        assert_eq!(r.data.to_value()["results"][0]["position"], "lines 2-2");
        assert!(r.output.starts_with("找到 1 个结果"));

        let r = tool.call(json!({"query": "zzzz qqqq"}), &env.ctx).await;
        assert!(r.ok);
        assert_eq!(r.data.to_value()["results"], json!([]));
        // A pasted wall of text is searched by its opening characters.
        let pasted = format!("disk full error {}", "大".repeat(40_000));
        let r = tool
            .call(json!({"query": pasted, "scope": "uploads"}), &env.ctx)
            .await;
        assert!(r.ok, "{r:?}");
        let searched = r.data.to_value()["query"]
            .as_str()
            .map(|q| q.chars().count());
        assert_eq!(searched, Some(MAX_QUERY_CHARS));
        assert!(
            r.output.contains("searched by the first 1000 characters"),
            "{}",
            r.output
        );
        for (args, msg) in [
            (json!({"query": "  "}), "查询文本不能为空 (empty query)"),
            (
                json!({"query": "x", "top_k": 0}),
                "top_k 必须在 1-10 之间: 0",
            ),
            (
                json!({"query": "x", "top_k": 11}),
                "top_k 必须在 1-10 之间: 11",
            ),
            (
                json!({"query": "x", "scope": "web"}),
                "scope 必须是 all、system 或 uploads 之一: web",
            ),
        ] {
            let r = tool.call(args.clone(), &env.ctx).await;
            assert_eq!(r.error.as_deref(), Some(msg), "{args}");
        }
    }
}
