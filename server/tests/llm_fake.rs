//! The LLM half of the agent against a local fake OpenAI-compatible server (127.0.0.1 only,
//! never the internet) and a scripted client: streamed tool-call deltas cut mid-JSON,
//! retries, error mapping, the text-protocol fallback, timeouts and cancellation, and whole
//! turns through `run_turn` with their exact event sequences and stored history.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use llmops_server::llm::provider::Timeouts;
use llmops_server::llm::{
    ChatMessage, ChatRequest, LlmBackend, LlmClient, LlmError, LlmSettings, OpenAiClient, Script,
    ScriptedLlm, ToolMode,
};
use llmops_server::turn::{TurnEvent, TurnKind, TurnOutcome, TurnRequest};
use llmops_server::{Cli, Config, Ctx};
use protocol::EndStatus;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

// ----- fake server ------------------------------------------------------------------------

fn fixture(name: &str) -> Vec<u8> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/llm")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()))
}

#[derive(Clone)]
enum Reply {
    /// An event stream written in pieces of `cut` bytes, flushed one by one.
    Sse { body: Vec<u8>, cut: usize },
    Status {
        code: u16,
        headers: Vec<(&'static str, String)>,
        body: Vec<u8>,
    },
    /// Headers and the first bytes of a stream, then silence.
    Stall { first: Vec<u8> },
}

fn sse(name: &str) -> Reply {
    Reply::Sse {
        body: fixture(name),
        cut: 7,
    }
}

fn status(code: u16, name: &str) -> Reply {
    Reply::Status {
        code,
        headers: vec![],
        body: fixture(name),
    }
}

#[derive(Debug, Clone)]
struct Seen {
    path: String,
    auth: Option<String>,
    body: Value,
}

#[derive(Clone, Default)]
struct Fake {
    replies: Arc<Mutex<Vec<Reply>>>,
    seen: Arc<Mutex<Vec<Seen>>>,
    /// Set when a stalled response's client went away.
    closed: Arc<Mutex<Option<Instant>>>,
}

impl Fake {
    async fn start(replies: Vec<Reply>) -> (Fake, String) {
        let l = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = l.local_addr().expect("addr");
        let fake = Fake {
            replies: Arc::new(Mutex::new(replies)),
            ..Default::default()
        };
        let f = fake.clone();
        tokio::spawn(async move {
            while let Ok((s, _)) = l.accept().await {
                let f = f.clone();
                tokio::spawn(async move { f.serve(s).await });
            }
        });
        (fake, format!("http://{addr}/v1"))
    }

    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("lock").clone()
    }

    async fn serve(&self, mut s: TcpStream) {
        let mut buf = Vec::new();
        let mut tmp = [0u8; 4096];
        let (head_end, len) = loop {
            let n = match s.read(&mut tmp).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            buf.extend_from_slice(&tmp[..n]);
            if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&buf[..i]).to_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                break (i + 4, len);
            }
        };
        while buf.len() < head_end + len {
            let n = match s.read(&mut tmp).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            buf.extend_from_slice(&tmp[..n]);
        }
        let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
        let path = head.split_whitespace().nth(1).unwrap_or("").to_string();
        let auth = head.lines().find_map(|l| {
            l.to_lowercase()
                .starts_with("authorization:")
                .then(|| l["authorization:".len()..].trim().to_string())
        });
        let body = serde_json::from_slice(&buf[head_end..head_end + len]).unwrap_or(Value::Null);
        self.seen
            .lock()
            .expect("lock")
            .push(Seen { path, auth, body });
        let reply = {
            let mut r = self.replies.lock().expect("lock");
            if r.is_empty() {
                None
            } else {
                Some(r.remove(0))
            }
        };
        let ok_head = "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ncache-control: no-cache\r\nconnection: close\r\n\r\n";
        match reply {
            None => {
                let _ = s
                    .write_all(b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 13\r\nconnection: close\r\n\r\nno more reply")
                    .await;
            }
            Some(Reply::Sse { body, cut }) => {
                let _ = s.write_all(ok_head.as_bytes()).await;
                for piece in body.chunks(cut.max(1)) {
                    if s.write_all(piece).await.is_err() {
                        return;
                    }
                    let _ = s.flush().await;
                    // Separate network reads on the client side.
                    tokio::time::sleep(Duration::from_millis(1)).await;
                }
            }
            Some(Reply::Status {
                code,
                headers,
                body,
            }) => {
                let mut h = format!(
                    "HTTP/1.1 {code} Error\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n",
                    body.len()
                );
                for (k, v) in headers {
                    h.push_str(&format!("{k}: {v}\r\n"));
                }
                h.push_str("\r\n");
                let _ = s.write_all(h.as_bytes()).await;
                let _ = s.write_all(&body).await;
            }
            Some(Reply::Stall { first }) => {
                let _ = s.write_all(ok_head.as_bytes()).await;
                let _ = s.write_all(&first).await;
                let _ = s.flush().await;
                // Wait for the client to hang up (read returns 0 or an error).
                let mut b = [0u8; 64];
                loop {
                    match s.read(&mut b).await {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {}
                    }
                }
                *self.closed.lock().expect("lock") = Some(Instant::now());
            }
        }
        let _ = s.shutdown().await;
    }
}

fn settings(base: &str, model: &str) -> LlmSettings {
    let mut s = LlmSettings::custom("fake", base, &[model]);
    s.api_key = Some(llmops_server::llm::ApiKey::new("test-key-123"));
    s
}

fn simple_req(model: &str) -> ChatRequest {
    ChatRequest {
        model: model.into(),
        messages: vec![
            ChatMessage::System("sys".into()),
            ChatMessage::User("CPU?".into()),
        ],
        tools: vec![
            json!({"type": "function", "function": {"name": "sys_monitor", "description": "d", "parameters": {"type": "object", "properties": {}}}}),
        ],
    }
}

async fn chat(
    c: &OpenAiClient,
    req: &ChatRequest,
) -> (Result<llmops_server::llm::ChatReply, LlmError>, Vec<String>) {
    let mut deltas = Vec::new();
    let mut sink = |s: &str| deltas.push(s.to_string());
    let cancel = CancellationToken::new();
    let r = c.chat(req, &mut sink, &cancel).await;
    (r, deltas)
}

// ----- client against the fake server -----------------------------------------------------

#[tokio::test]
async fn tool_call_deltas_split_mid_json() {
    let (fake, base) = Fake::start(vec![sse("tool_call.sse")]).await;
    let c = OpenAiClient::new(settings(&base, "glm-4-flash")).expect("client");
    let (r, deltas) = chat(&c, &simple_req("glm-4-flash")).await;
    let r = r.expect("reply");
    assert!(deltas.is_empty(), "{deltas:?}");
    assert_eq!(r.mode, Some(ToolMode::Native));
    assert_eq!(r.tool_calls.len(), 1);
    assert_eq!(r.tool_calls[0].id, "call_-8960");
    assert_eq!(r.tool_calls[0].name, "semantic_search");
    assert_eq!(
        r.tool_calls[0].args,
        json!({"query": "nginx 配置 {server}", "scope": "all"})
    );
    let seen = fake.seen();
    assert_eq!(seen.len(), 1);
    assert_eq!(seen[0].path, "/v1/chat/completions");
    assert_eq!(seen[0].auth.as_deref(), Some("Bearer test-key-123"));
    assert_eq!(seen[0].body["stream"], true);
    assert_eq!(seen[0].body["model"], "glm-4-flash");
    assert_eq!(seen[0].body["tools"][0]["function"]["name"], "sys_monitor");
    assert_eq!(seen[0].body["messages"][1]["content"], "CPU?");
}

#[tokio::test]
async fn final_text_streams_as_it_arrives() {
    let (_fake, base) = Fake::start(vec![Reply::Sse {
        body: fixture("final_answer.sse"),
        cut: 3,
    }])
    .await;
    let c = OpenAiClient::new(settings(&base, "glm-4-flash")).expect("client");
    let (r, deltas) = chat(&c, &simple_req("glm-4-flash")).await;
    let r = r.expect("reply");
    assert!(r.is_final());
    assert_eq!(r.text, "当前 CPU 使用率为 12.5%，负载正常。");
    assert_eq!(deltas, ["当前 CPU", " 使用率为 12.5%，", "负载正常。"]);
}

#[tokio::test]
async fn rate_limit_then_success_is_retried() {
    let (fake, base) = Fake::start(vec![
        Reply::Status {
            code: 429,
            headers: vec![("retry-after", "0".into())],
            body: fixture("rate_limit_429.json"),
        },
        Reply::Status {
            code: 503,
            headers: vec![],
            body: b"upstream busy".to_vec(),
        },
        sse("final_answer.sse"),
    ])
    .await;
    let c = OpenAiClient::new(settings(&base, "glm-4-flash")).expect("client");
    let (r, _) = chat(&c, &simple_req("glm-4-flash")).await;
    assert_eq!(
        r.expect("reply").text,
        "当前 CPU 使用率为 12.5%，负载正常。"
    );
    assert_eq!(fake.seen().len(), 3);
}

#[tokio::test]
async fn retries_are_bounded() {
    let busy = || Reply::Status {
        code: 502,
        headers: vec![("retry-after", "0".into())],
        body: b"<html>bad gateway</html>".to_vec(),
    };
    let (fake, base) = Fake::start(vec![busy(), busy(), busy(), busy(), busy()]).await;
    let c = OpenAiClient::new(settings(&base, "m")).expect("client");
    let (r, _) = chat(&c, &simple_req("m")).await;
    let e = r.expect_err("fails");
    assert!(
        e.to_string().contains("HTTP 502") && e.to_string().contains("bad gateway"),
        "{e}"
    );
    // One attempt plus three retries.
    assert_eq!(fake.seen().len(), 4);
}

#[tokio::test]
async fn bad_key_is_reported_without_retry() {
    let (fake, base) = Fake::start(vec![status(401, "auth_401.json")]).await;
    let c = OpenAiClient::new(settings(&base, "glm-4-flash")).expect("client");
    let (r, _) = chat(&c, &simple_req("glm-4-flash")).await;
    let e = r.expect_err("401");
    assert_eq!(e, LlmError::Auth(401));
    assert!(e.to_string().contains("API key rejected / API 密钥无效"));
    assert!(!e.to_string().contains("test-key-123"));
    assert_eq!(fake.seen().len(), 1);
}

#[tokio::test]
async fn unknown_model_is_reported() {
    let (_fake, base) = Fake::start(vec![status(404, "model_not_found_404.json")]).await;
    let c = OpenAiClient::new(settings(&base, "glm-9")).expect("client");
    let (r, _) = chat(&c, &simple_req("glm-9")).await;
    let e = r.expect_err("404");
    assert_eq!(e.to_string(), "model not found: glm-9 / 模型不存在");
}

#[tokio::test]
async fn tools_refused_switch_to_text_protocol_and_stay() {
    let (fake, base) = Fake::start(vec![
        status(400, "tools_400.json"),
        sse("text_tool_call.sse"),
        sse("text_final.sse"),
    ])
    .await;
    let c = OpenAiClient::new(settings(&base, "tiny")).expect("client");
    assert_eq!(c.mode_for("tiny"), ToolMode::Native);
    let (r, deltas) = chat(&c, &simple_req("tiny")).await;
    let r = r.expect("reply");
    assert!(
        deltas.is_empty(),
        "protocol lines are not shown: {deltas:?}"
    );
    assert_eq!(r.mode, Some(ToolMode::Text));
    assert_eq!(r.tool_calls[0].name, "sys_monitor");
    assert_eq!(r.tool_calls[0].args, json!({"metric": "cpu"}));
    let seen = fake.seen();
    assert!(seen[0].body.get("tools").is_some());
    assert!(seen[1].body.get("tools").is_none());
    let sys = seen[1].body["messages"][0]["content"]
        .as_str()
        .unwrap_or("");
    assert!(
        sys.contains("TOOL: <tool name>") && sys.contains("- sys_monitor: d"),
        "{sys}"
    );
    // Remembered: the next request goes straight to text mode.
    assert_eq!(c.mode_for("tiny"), ToolMode::Text);
    let (r, deltas) = chat(&c, &simple_req("tiny")).await;
    assert_eq!(
        r.expect("reply").text,
        "CPU usage is low; the system is idle."
    );
    assert_eq!(deltas.concat(), "CPU usage is low; the system is idle.");
    assert_eq!(fake.seen().len(), 3);
}

#[tokio::test]
async fn stalled_stream_times_out() {
    let (_fake, base) = Fake::start(vec![Reply::Stall {
        first: b"data: {\"choices\":[{\"delta\":{\"content\":\"half".to_vec(),
    }])
    .await;
    let mut s = settings(&base, "m");
    s.timeouts = Timeouts {
        idle: Duration::from_millis(300),
        ..Timeouts::default()
    };
    let c = OpenAiClient::new(s).expect("client");
    // The stall never ends: only the idle timer can end this call (the outer timeout is a
    // hang guard, not a speed assertion).
    let (r, _) = tokio::time::timeout(Duration::from_secs(60), chat(&c, &simple_req("m")))
        .await
        .expect("the idle timeout never fired");
    assert_eq!(r.expect_err("stalled"), LlmError::Timeout("the next chunk"));
}

#[tokio::test]
async fn connect_errors_are_clear() {
    // A port nobody listens on (bound then dropped).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("port");
    let mut s = settings(&format!("http://127.0.0.1:{port}/v1"), "m");
    s.max_retries = 1;
    let c = OpenAiClient::new(s).expect("client");
    let (r, _) = chat(&c, &simple_req("m")).await;
    let e = r.expect_err("refused");
    assert!(matches!(e, LlmError::Connect { .. }), "{e:?}");
    assert!(e.to_string().contains("127.0.0.1"), "{e}");
}

#[tokio::test]
async fn cancel_stops_the_request_at_once() {
    let (fake, base) = Fake::start(vec![Reply::Stall {
        first: b": waiting\n\n".to_vec(),
    }])
    .await;
    let c = Arc::new(OpenAiClient::new(settings(&base, "m")).expect("client"));
    let cancel = CancellationToken::new();
    let c2 = c.clone();
    let k = cancel.clone();
    let task = tokio::spawn(async move {
        let mut sink = |_: &str| {};
        let req = simple_req("m");
        c2.chat(&req, &mut sink, &k).await
    });
    tokio::time::sleep(Duration::from_millis(200)).await;
    let at = Instant::now();
    cancel.cancel();
    let r = tokio::time::timeout(Duration::from_secs(2), task)
        .await
        .expect("returns at once")
        .expect("task");
    assert_eq!(r, Err(LlmError::Cancelled));
    // The connection is closed too, not left streaming.
    for _ in 0..100 {
        if fake.closed.lock().expect("lock").is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let closed = fake
        .closed
        .lock()
        .expect("lock")
        .expect("server saw the hang-up");
    assert!(closed.duration_since(at) < Duration::from_secs(1));
}

// ----- whole turns ------------------------------------------------------------------------

struct TestServer {
    ctx: Arc<Ctx>,
    docs: PathBuf,
    _dir: tempfile::TempDir,
}

/// A real `Ctx` over a temp data dir with one docs folder holding `nginx.conf`.
async fn server(llm: Option<LlmBackend>) -> TestServer {
    let dir = tempfile::tempdir().expect("tempdir");
    let docs = dir.path().join("docs");
    std::fs::create_dir_all(&docs).expect("docs");
    std::fs::write(
        docs.join("nginx.conf"),
        "server {\n    listen 80;\n    server_name example.com;\n}\n",
    )
    .expect("write");
    let docs = std::fs::canonicalize(&docs).expect("canonical");
    let cli = Cli {
        config: Some(PathBuf::from("/dev/null")),
        data_dir: Some(dir.path().join("data")),
        docs: vec![docs.clone()],
        llm_provider: Some("offline".into()),
        ..Default::default()
    };
    let cfg = Config::resolve(cli).expect("config");
    std::fs::create_dir_all(cfg.uploads_dir()).expect("uploads");
    let store = llmops_server::store::Store::open(&cfg.db_path()).expect("db");
    let audit = llmops_tools::audit::Audit::open(&cfg.data_dir).expect("audit");
    let mut ctx = Ctx::new(cfg, store, audit);
    ctx.set_llm(llm);
    TestServer {
        ctx: Arc::new(ctx),
        docs,
        _dir: dir,
    }
}

fn backend(client: Arc<dyn LlmClient>, models: &[&str]) -> LlmBackend {
    LlmBackend {
        client,
        provider: "fake".into(),
        models: models.iter().map(|m| m.to_string()).collect(),
        default_model: models[0].to_string(),
        egress: "127.0.0.1".into(),
    }
}

fn new_session(ctx: &Ctx) -> String {
    ctx.store.create_session(None).expect("session").id
}

async fn turn(ctx: &Arc<Ctx>, sid: &str, text: &str) -> (Vec<TurnEvent>, TurnOutcome) {
    turn_with(ctx, sid, text, CancellationToken::new()).await
}

async fn turn_with(
    ctx: &Arc<Ctx>,
    sid: &str,
    text: &str,
    cancel: CancellationToken,
) -> (Vec<TurnEvent>, TurnOutcome) {
    let (tx, mut rx) = mpsc::channel(10_000);
    let req = TurnRequest {
        request_id: 7,
        session_id: sid.to_string(),
        text: text.to_string(),
        file_ids: vec![],
        client: None,
        kind: TurnKind::Ask,
    };
    let out = llmops_server::agent::run::run_turn(ctx.agent.clone(), req, &tx, cancel).await;
    drop(tx);
    let mut evs = Vec::new();
    while let Some(e) = rx.recv().await {
        evs.push(e);
    }
    (evs, out)
}

/// Events with volatile parts (durations, summaries, offers, hits) reduced to a shape.
fn shape(evs: &[TurnEvent]) -> Vec<String> {
    evs.iter()
        .map(|e| match e {
            TurnEvent::Status(s) => format!("status {s}"),
            TurnEvent::ToolCall { step, tool, args } => format!("call {step} {tool} {args}"),
            TurnEvent::ToolResult { step, tool, ok, .. } => format!("result {step} {tool} {ok}"),
            TurnEvent::ToolOutput { step, lines, .. } => format!("output {step} {}", lines.len()),
            TurnEvent::AnswerStart => "answer".into(),
            TurnEvent::Delta(d) => format!("delta {d}"),
            TurnEvent::Search(s) => format!("search {}", s.query),
            TurnEvent::Offer(o) => format!("offer {}", o.filename),
            TurnEvent::Approval(a) => format!("approval {}", a.argv.join(" ")),
            TurnEvent::ApprovalDenied { argv, .. } => format!("denied {}", argv.join(" ")),
            TurnEvent::Done(_) => "done".into(),
        })
        .collect()
}

fn history(ctx: &Ctx, sid: &str) -> Vec<llmops_server::store::MessageRow> {
    ctx.store.history(sid, 100).expect("history")
}

#[tokio::test]
async fn native_tool_calling_turn_search_then_download() {
    let llm = Arc::new(ScriptedLlm::new(vec![]));
    let srv = server(Some(backend(llm.clone(), &["glm-4-flash"]))).await;
    let path = srv.docs.join("nginx.conf").display().to_string();
    llm.push(Script::call(
        "semantic_search",
        json!({"query": "nginx.conf", "scope": "system"}),
    ));
    llm.push(Script::call("file_download", json!({"file_path": path})));
    llm.push(Script::text(&[
        "已为你准备好 nginx.conf 的下载，",
        "请在弹出的下载对话框中确认接收或拒绝，",
        "文件会校验 sha256。",
    ]));
    let sid = new_session(&srv.ctx);
    let (evs, out) = turn(&srv.ctx, &sid, "把 nginx 配置文件发给我").await;
    assert_eq!(out.status, EndStatus::Ok);
    let answer =
        "已为你准备好 nginx.conf 的下载，请在弹出的下载对话框中确认接收或拒绝，文件会校验 sha256。";
    assert_eq!(
        shape(&evs),
        [
            "status 正在搜索“nginx.conf”…".to_string(),
            format!(
                "call 1 semantic_search {}",
                json!({"query": "nginx.conf", "scope": "system"})
            ),
            "result 1 semantic_search true".into(),
            "search nginx.conf".into(),
            "status 正在准备下载 nginx.conf…".into(),
            format!("call 2 file_download {}", json!({"file_path": path})),
            "result 2 file_download true".into(),
            "offer nginx.conf".into(),
            "answer".into(),
            // The first pieces are held until they cannot be a preamble to tool calls.
            "delta 已为你准备好 nginx.conf 的下载，请在弹出的下载对话框中确认接收或拒绝，".into(),
            "delta 文件会校验 sha256。".into(),
        ]
    );
    assert_eq!(out.answer, answer);
    let h = history(&srv.ctx, &sid);
    assert_eq!(h.len(), 2);
    assert_eq!(h[0].role, "user");
    assert_eq!(h[1].role, "assistant");
    assert_eq!(h[1].text, answer);
    let tools: Vec<&str> = h[1].tool_calls.iter().map(|c| c.tool.as_str()).collect();
    assert_eq!(tools, ["semantic_search", "file_download"]);
    assert!(h[1].tool_calls.iter().all(|c| c.ok));
    // The model saw its calls and their observations.
    let reqs = llm.requests();
    assert_eq!(reqs.len(), 3);
    assert_eq!(reqs[0].model, "glm-4-flash");
    // The eight registry tools (six plus log_query and system_query) and `run_action`
    // (proposals only; the agent runs it after an approval).
    assert_eq!(reqs[0].tools.len(), 9);
    assert!(matches!(&reqs[0].messages[0], ChatMessage::System(s) if s.contains("file_download")));
    assert!(
        matches!(reqs[0].messages.last(), Some(ChatMessage::User(t)) if t == "把 nginx 配置文件发给我")
    );
    let last = &reqs[2].messages;
    let n = last.len();
    assert!(
        matches!(&last[n - 2], ChatMessage::Assistant { tool_calls, .. } if tool_calls[0].name == "file_download")
    );
    assert!(
        matches!(&last[n - 1], ChatMessage::Tool { tool_call_id, content, .. }
        if tool_call_id == "call_file_download" && content.contains("nginx.conf"))
    );

    // The next turn's history carries this turn's tool calls.
    llm.push(Script::text(&["好的。"]));
    let (_, out) = turn(&srv.ctx, &sid, "谢谢").await;
    assert_eq!(out.answer, "好的。");
    let msgs = &llm.requests()[3].messages;
    assert!(msgs
        .iter()
        .any(|m| matches!(m, ChatMessage::Assistant { tool_calls, .. }
        if tool_calls.iter().any(|c| c.name == "semantic_search"))));
    assert!(msgs
        .iter()
        .any(|m| matches!(m, ChatMessage::Assistant { content, .. } if content == answer)));
}

#[tokio::test]
async fn text_protocol_turn_over_http() {
    let (fake, base) = Fake::start(vec![
        status(400, "tools_400.json"),
        sse("text_tool_call.sse"),
        sse("text_final.sse"),
    ])
    .await;
    let client = Arc::new(OpenAiClient::new(settings(&base, "tiny")).expect("client"));
    let srv = server(Some(backend(client, &["tiny"]))).await;
    let sid = new_session(&srv.ctx);
    let (evs, out) = turn(&srv.ctx, &sid, "How busy is the CPU?").await;
    assert_eq!(out.status, EndStatus::Ok);
    let sh = shape(&evs);
    assert_eq!(sh[0], "status Checking system resources…");
    assert_eq!(
        sh[1],
        format!("call 1 sys_monitor {}", json!({"metric": "cpu"}))
    );
    assert_eq!(sh[2], "result 1 sys_monitor true");
    assert_eq!(sh[3], "answer");
    let deltas: String = evs
        .iter()
        .filter_map(|e| match e {
            TurnEvent::Delta(d) => Some(d.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(deltas, "CPU usage is low; the system is idle.");
    assert_eq!(out.answer, deltas);
    let h = history(&srv.ctx, &sid);
    assert_eq!(h[1].text, deltas);
    assert_eq!(h[1].tool_calls.len(), 1);
    assert_eq!(h[1].tool_calls[0].tool, "sys_monitor");
    // The third request carries the call as protocol text and the observation.
    let seen = fake.seen();
    assert_eq!(seen.len(), 3);
    let msgs = seen[2].body["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(msgs.iter().any(|m| m["role"] == "assistant"
        && m["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("TOOL: sys_monitor\nARGS: "))));
    assert!(msgs.iter().any(|m| m["role"] == "user"
        && m["content"]
            .as_str()
            .is_some_and(|c| c.starts_with("OBSERVATION (sys_monitor)"))));
}

#[tokio::test]
async fn three_failures_switch_the_session_to_offline() {
    let fail = || {
        Script::Fail(LlmError::Status {
            status: 500,
            excerpt: "boom".into(),
        })
    };
    let llm = Arc::new(ScriptedLlm::new(vec![fail(), fail(), fail()]));
    let srv = server(Some(backend(llm.clone(), &["glm-4-flash"]))).await;
    let sid = new_session(&srv.ctx);
    for i in 1..=3 {
        let (evs, out) = turn(&srv.ctx, &sid, "CPU使用率是多少？").await;
        assert_eq!(out.status, EndStatus::Ok, "turn {i}");
        // The offline planner answered with its own tool call.
        assert!(
            out.tool_calls.iter().any(|c| c.tool == "sys_monitor"),
            "turn {i}"
        );
        let note = if i < 3 {
            "LLM 请求失败，本轮由离线规划器回答"
        } else {
            "LLM 不可用，已切换到离线规划器 / LLM unavailable, using the offline planner"
        };
        assert!(out.answer.starts_with(note), "turn {i}: {}", out.answer);
        assert!(
            matches!(&evs[0], TurnEvent::Status(s) if s.starts_with(note)),
            "turn {i}"
        );
    }
    assert_eq!(llm.requests().len(), 3);
    // Cooling down: the LLM is not asked, the answer says why.
    let (_, out) = turn(&srv.ctx, &sid, "CPU使用率是多少？").await;
    assert_eq!(llm.requests().len(), 3);
    assert!(out.answer.starts_with("（LLM 暂不可用"), "{}", out.answer);
    // Another session is not affected.
    llm.push(Script::text(&["fine"]));
    let other = new_session(&srv.ctx);
    let (_, out) = turn(&srv.ctx, &other, "hello").await;
    assert_eq!(out.answer, "fine");
}

#[tokio::test]
async fn failure_mid_turn_falls_back_for_that_turn() {
    let llm = Arc::new(ScriptedLlm::new(vec![
        Script::call("sys_monitor", json!({"metric": "memory"})),
        Script::Fail(LlmError::Timeout("the next chunk")),
        Script::text(&["next turn works"]),
    ]));
    let srv = server(Some(backend(llm.clone(), &["glm-4-flash"]))).await;
    let sid = new_session(&srv.ctx);
    let (evs, out) = turn(&srv.ctx, &sid, "内存使用率是多少？").await;
    assert_eq!(out.status, EndStatus::Ok);
    let sh = shape(&evs);
    assert!(sh[0].starts_with("status "));
    assert_eq!(
        sh[1],
        format!("call 1 sys_monitor {}", json!({"metric": "memory"}))
    );
    assert!(sh.iter().any(|s| s.starts_with("status LLM 请求失败")));
    // The offline planner's own step continues the numbering.
    assert!(
        sh.iter().any(|s| s.starts_with("call 2 sys_monitor")),
        "{sh:?}"
    );
    assert!(out.answer.contains("timed out"), "{}", out.answer);
    assert_eq!(out.tool_calls.len(), 2);
    let (_, out) = turn(&srv.ctx, &sid, "again").await;
    assert_eq!(out.answer, "next turn works");
}

#[tokio::test]
async fn cancel_during_llm_request_ends_the_turn_at_once() {
    let llm = Arc::new(ScriptedLlm::new(vec![Script::Hang]));
    let srv = server(Some(backend(llm.clone(), &["glm-4-flash"]))).await;
    let sid = new_session(&srv.ctx);
    let cancel = CancellationToken::new();
    let k = cancel.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(100)).await;
        k.cancel();
    });
    // The scripted LLM hangs forever: only the cancel can end this turn (the outer timeout
    // is a hang guard, not a speed assertion).
    let (_, out) = tokio::time::timeout(
        Duration::from_secs(60),
        turn_with(&srv.ctx, &sid, "anything", cancel),
    )
    .await
    .expect("cancel did not end the turn");
    assert_eq!(out.status, EndStatus::Cancelled);
    // A cancel is not an LLM failure.
    llm.push(Script::text(&["ok"]));
    let (_, out) = turn(&srv.ctx, &sid, "again").await;
    assert_eq!(out.answer, "ok");
    let h = history(&srv.ctx, &sid);
    assert_eq!(h[1].text, "（已取消 / cancelled）");
}

#[tokio::test]
async fn offline_model_and_switching() {
    let llm = Arc::new(ScriptedLlm::new(vec![Script::text(&["from the llm"])]));
    let srv = server(Some(backend(
        llm.clone(),
        &["glm-4-flash", "glm-4.5-flash"],
    )))
    .await;
    assert_eq!(
        srv.ctx.models(),
        ["offline", "glm-4-flash", "glm-4.5-flash"]
    );
    assert_eq!(srv.ctx.default_model(), "glm-4-flash");
    assert_eq!(srv.ctx.planner_name(), "fake");
    assert_eq!(srv.ctx.agent.egress(), "127.0.0.1");
    let sid = new_session(&srv.ctx);
    srv.ctx
        .store
        .set_session_model(&sid, "offline")
        .expect("set");
    let (_, out) = turn(&srv.ctx, &sid, "CPU使用率是多少？").await;
    assert!(out.tool_calls.iter().any(|c| c.tool == "sys_monitor"));
    assert!(llm.requests().is_empty());
    srv.ctx
        .store
        .set_session_model(&sid, "glm-4.5-flash")
        .expect("set");
    let (_, out) = turn(&srv.ctx, &sid, "hi").await;
    assert_eq!(out.answer, "from the llm");
    assert_eq!(llm.requests()[0].model, "glm-4.5-flash");
}

#[tokio::test]
async fn without_llm_everything_is_offline() {
    let srv = server(None).await;
    assert_eq!(srv.ctx.models(), ["offline"]);
    assert_eq!(srv.ctx.default_model(), "offline");
    assert_eq!(srv.ctx.planner_name(), "offline");
    assert_eq!(srv.ctx.agent.egress(), "none");
}

#[tokio::test]
async fn step_budget_ends_with_an_answer_without_tools() {
    let mut script: Vec<Script> = (0..5)
        .map(|_| Script::call("sys_monitor", json!({"metric": "cpu"})))
        .collect();
    script.push(Script::text(&["CPU is fine after five checks."]));
    let llm = Arc::new(ScriptedLlm::new(script));
    let srv = server(Some(backend(llm.clone(), &["m"]))).await;
    let sid = new_session(&srv.ctx);
    let (_, out) = turn(&srv.ctx, &sid, "check cpu a lot").await;
    assert_eq!(out.tool_calls.len(), 5);
    assert_eq!(out.answer, "CPU is fine after five checks.");
    let reqs = llm.requests();
    assert_eq!(reqs.len(), 6);
    assert!(reqs[5].tools.is_empty(), "the last call offers no tools");
}

#[tokio::test]
async fn follow_streams_live_lines_and_cancel_keeps_them() {
    let llm = Arc::new(ScriptedLlm::new(vec![]));
    let srv = server(Some(backend(llm.clone(), &["glm-4-flash"]))).await;
    let path = srv.docs.join("nginx.conf").display().to_string();
    llm.push(Script::call(
        "command_executor",
        json!({"command": "tail", "args": ["-f", path]}),
    ));
    let sid = new_session(&srv.ctx);
    let (tx, mut rx) = mpsc::channel(10_000);
    let cancel = CancellationToken::new();
    let req = TurnRequest {
        request_id: 7,
        session_id: sid.clone(),
        text: "tail -f nginx.conf".into(),
        file_ids: vec![],
        client: None,
        kind: TurnKind::Ask,
    };
    let task = tokio::spawn({
        let (ctx, cancel) = (srv.ctx.clone(), cancel.clone());
        async move { llmops_server::agent::run::run_turn(ctx.agent.clone(), req, &tx, cancel).await }
    });
    // The file's 4 lines arrive live, under step 1, before the call ends.
    let mut live = Vec::new();
    while live.len() < 4 {
        match rx.recv().await.expect("event") {
            TurnEvent::ToolOutput { step, lines, .. } => {
                assert_eq!(step, 1);
                live.extend(lines);
            }
            TurnEvent::ToolResult { .. } => panic!("the follow ended before the cancel"),
            _ => {}
        }
    }
    assert_eq!(live[1], "    listen 80;");
    cancel.cancel();
    let out = task.await.expect("join");
    let mut rest = Vec::new();
    while let Some(e) = rx.recv().await {
        rest.push(e);
    }
    assert_eq!(out.status, EndStatus::Cancelled);
    let Some(TurnEvent::ToolResult {
        ok,
        summary,
        output,
        ..
    }) = rest
        .iter()
        .find(|e| matches!(e, TurnEvent::ToolResult { .. }))
    else {
        panic!("no tool result: {rest:?}")
    };
    assert!(ok, "a cancelled follow is an OK result");
    assert!(summary.contains("收到 4 行"), "{summary}");
    let r = output.clone().expect("output stored");
    assert_eq!((r.lines, r.truncated), (4, false));
    let page = srv
        .ctx
        .agent
        .outputs
        .page(&sid, &r.output_id, 1, 2)
        .expect("page");
    assert_eq!(
        page.lines,
        ["    listen 80;", "    server_name example.com;"]
    );
    let h = history(&srv.ctx, &sid);
    assert_eq!(h[1].tool_calls[0].output.as_ref(), Some(&r));
}
