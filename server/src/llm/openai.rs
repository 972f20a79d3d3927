//! The OpenAI-compatible chat-completions client (Zhipu GLM, OpenAI, Ollama, DeepSeek, any
//! base URL): streamed requests, SSE and tool-call delta assembly, timeouts (connect, first
//! byte, idle between chunks), bounded retries with backoff, error mapping, and the switch
//! to the text tool protocol for models that refuse `tools`. Never logs the key.

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use super::provider::LlmSettings;
use super::sse::SseParser;
use super::textcall::{self, TextGate};
use super::{
    ChatMessage, ChatReply, ChatRequest, DeltaSink, LlmClient, LlmError, LlmFuture, ToolCall,
    ToolMode,
};

/// Longest wait a `Retry-After` may impose before we give up instead.
const MAX_RETRY_AFTER: Duration = Duration::from_secs(30);
/// First backoff; doubles per retry.
const BACKOFF: Duration = Duration::from_millis(500);

pub struct OpenAiClient {
    settings: LlmSettings,
    http: reqwest::Client,
    /// Models that answered 400 to a request with `tools`: asked in text mode from then on.
    text_models: Mutex<HashSet<String>>,
}

impl fmt::Debug for OpenAiClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OpenAiClient")
            .field("provider", &self.settings.provider)
            .field("base_url", &self.settings.base_url)
            .finish_non_exhaustive()
    }
}

/// One attempt's failure, and whether text had already been streamed (then it must not be
/// retried: the user would see the text twice).
struct AttemptError {
    err: LlmError,
    streamed: bool,
    retry_after: Option<Duration>,
}

impl From<LlmError> for AttemptError {
    fn from(err: LlmError) -> Self {
        AttemptError {
            err,
            streamed: false,
            retry_after: None,
        }
    }
}

impl OpenAiClient {
    pub fn new(settings: LlmSettings) -> Result<OpenAiClient, LlmError> {
        let http = reqwest::Client::builder()
            .connect_timeout(settings.timeouts.connect)
            .user_agent(concat!("llmops/", env!("CARGO_PKG_VERSION")))
            .build()
            .map_err(|e| LlmError::Protocol(format!("cannot build the HTTP client: {e}")))?;
        Ok(OpenAiClient {
            settings,
            http,
            text_models: Mutex::new(HashSet::new()),
        })
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// The protocol `model` is asked with now.
    pub fn mode_for(&self, model: &str) -> ToolMode {
        let learned = self
            .text_models
            .lock()
            .map(|s| s.contains(model))
            .unwrap_or(false);
        if self.settings.native_tools(model) && !learned {
            ToolMode::Native
        } else {
            ToolMode::Text
        }
    }

    fn remember_text_mode(&self, model: &str) {
        if let Ok(mut s) = self.text_models.lock() {
            s.insert(model.to_string());
        }
    }

    fn body(req: &ChatRequest, mode: ToolMode) -> Value {
        let messages: Vec<Value> = match mode {
            ToolMode::Native => req.messages.iter().map(native_message).collect(),
            ToolMode::Text => textcall::render(&req.messages, &req.tools)
                .into_iter()
                .map(|(role, content)| json!({"role": role, "content": content}))
                .collect(),
        };
        let mut body = json!({
            "model": req.model,
            "messages": messages,
            "stream": true,
        });
        if mode == ToolMode::Native && !req.tools.is_empty() {
            body["tools"] = Value::Array(req.tools.clone());
            body["tool_choice"] = json!("auto");
        }
        body
    }

    async fn chat_impl(
        &self,
        req: &ChatRequest,
        on_delta: DeltaSink<'_>,
    ) -> Result<ChatReply, LlmError> {
        let mut mode = self.mode_for(&req.model);
        let mut retries = 0u32;
        loop {
            tracing::debug!(
                provider = %self.settings.provider,
                model = %req.model,
                ?mode,
                messages = req.messages.len(),
                "llm request"
            );
            let err = match self.attempt(req, mode, on_delta).await {
                Ok(reply) => return Ok(reply),
                Err(e) => e,
            };
            let tools_refused = matches!(err.err, LlmError::Status { status: 400, .. })
                && mode == ToolMode::Native
                && !req.tools.is_empty()
                && !err.streamed;
            if tools_refused {
                // Many OpenAI-compatible servers answer 400 to `tools` they do not support:
                // ask again in the text protocol and keep doing so for this model.
                tracing::info!(model = %req.model, "provider refused tools; using the text tool protocol");
                mode = ToolMode::Text;
                match self.attempt(req, mode, on_delta).await {
                    Ok(reply) => {
                        self.remember_text_mode(&req.model);
                        return Ok(reply);
                    }
                    Err(e) => {
                        if !matches!(e.err, LlmError::Status { status: 400, .. }) {
                            self.remember_text_mode(&req.model);
                        }
                        if !e.err.is_transient() || e.streamed {
                            return Err(e.err);
                        }
                        self.backoff(&e, &mut retries).await?;
                        continue;
                    }
                }
            }
            if !err.err.is_transient() || err.streamed {
                return Err(err.err);
            }
            self.backoff(&err, &mut retries).await?;
        }
    }

    /// Waits before the next retry, or returns the error when retries are used up.
    async fn backoff(&self, e: &AttemptError, retries: &mut u32) -> Result<(), LlmError> {
        if *retries >= self.settings.max_retries {
            return Err(e.err.clone());
        }
        let wait = match e.retry_after {
            Some(d) if d > MAX_RETRY_AFTER => return Err(e.err.clone()),
            Some(d) => d,
            None => BACKOFF * 2u32.saturating_pow(*retries),
        };
        *retries += 1;
        tracing::info!(
            "llm request failed ({}); retry {} of {} in {:?}",
            e.err,
            retries,
            self.settings.max_retries,
            wait
        );
        tokio::time::sleep(wait).await;
        Ok(())
    }

    async fn attempt(
        &self,
        req: &ChatRequest,
        mode: ToolMode,
        on_delta: DeltaSink<'_>,
    ) -> Result<ChatReply, AttemptError> {
        let resp = self.send(req, mode).await?;
        let status = resp.status();
        if !status.is_success() {
            return Err(self.refusal(resp, status, &req.model).await);
        }
        let is_sse = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.contains("event-stream"))
            .unwrap_or(true);
        if !is_sse {
            return self.whole_reply(resp, mode, on_delta).await;
        }
        self.streamed_reply(resp, mode, on_delta).await
    }

    /// Sends the request and waits for the response's head (at most the first-byte
    /// timeout).
    async fn send(
        &self,
        req: &ChatRequest,
        mode: ToolMode,
    ) -> Result<reqwest::Response, AttemptError> {
        let url = format!("{}/chat/completions", self.settings.base_url);
        let mut rb = self
            .http
            .post(&url)
            .header(reqwest::header::ACCEPT, "text/event-stream")
            .json(&Self::body(req, mode));
        if let Some(k) = &self.settings.api_key {
            rb = rb.bearer_auth(k.expose());
        }
        match tokio::time::timeout(self.settings.timeouts.first_byte, rb.send()).await {
            Err(_) => Err(LlmError::Timeout("the response").into()),
            Ok(Err(e)) => Err(self.transport_error(e).into()),
            Ok(Ok(r)) => Ok(r),
        }
    }

    /// A non-success status, with the provider's error body and its `Retry-After`.
    async fn refusal(
        &self,
        resp: reqwest::Response,
        status: reqwest::StatusCode,
        model: &str,
    ) -> AttemptError {
        let retry_after = resp
            .headers()
            .get(reqwest::header::RETRY_AFTER)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let body = match tokio::time::timeout(self.settings.timeouts.idle, resp.text()).await {
            Ok(Ok(b)) => b,
            _ => String::new(),
        };
        AttemptError {
            err: self.status_error(status.as_u16(), &body, model, retry_after),
            streamed: false,
            retry_after,
        }
    }

    /// A server that ignores `stream: true` answers one JSON completion.
    async fn whole_reply(
        &self,
        resp: reqwest::Response,
        mode: ToolMode,
        on_delta: DeltaSink<'_>,
    ) -> Result<ChatReply, AttemptError> {
        let body = match tokio::time::timeout(self.settings.timeouts.first_byte, resp.text()).await
        {
            Err(_) => return Err(LlmError::Timeout("the response body").into()),
            Ok(Err(e)) => return Err(self.transport_error(e).into()),
            Ok(Ok(b)) => b,
        };
        let v: Value = serde_json::from_str(&body)
            .map_err(|e| LlmError::Protocol(format!("not JSON: {e}")))?;
        let mut acc = Assembler::new(mode);
        acc.whole(&v).map_err(AttemptError::from)?;
        Ok(acc.finish(on_delta))
    }

    /// The SSE stream, chunk by chunk (each within the idle timeout), until `[DONE]` or
    /// the end of a complete reply.
    async fn streamed_reply(
        &self,
        mut resp: reqwest::Response,
        mode: ToolMode,
        on_delta: DeltaSink<'_>,
    ) -> Result<ChatReply, AttemptError> {
        let mut sse = SseParser::new();
        let mut acc = Assembler::new(mode);
        loop {
            let chunk = match tokio::time::timeout(self.settings.timeouts.idle, resp.chunk()).await
            {
                Err(_) => return Err(fail(LlmError::Timeout("the next chunk"), &acc)),
                Ok(Err(e)) => return Err(fail(self.transport_error(e), &acc)),
                Ok(Ok(c)) => c,
            };
            let events = match &chunk {
                Some(bytes) => sse
                    .push(bytes)
                    .map_err(|e| fail(LlmError::Protocol(e.to_string()), &acc))?,
                None => sse.finish().into_iter().collect(),
            };
            for ev in events {
                let data = ev.data.trim();
                if data == "[DONE]" {
                    return Ok(acc.finish(on_delta));
                }
                if data.is_empty() {
                    continue;
                }
                let v: Value = serde_json::from_str(data).map_err(|e| {
                    fail(LlmError::Protocol(format!("bad stream chunk: {e}")), &acc)
                })?;
                if let Some(err) = v.get("error") {
                    let msg = err["message"].as_str().unwrap_or("error").to_string();
                    return Err(fail(LlmError::Protocol(self.redact(&excerpt(&msg))), &acc));
                }
                acc.chunk(&v, on_delta);
            }
            if chunk.is_none() {
                if acc.finished {
                    return Ok(acc.finish(on_delta));
                }
                return Err(fail(
                    LlmError::Protocol("stream ended before the reply was complete".into()),
                    &acc,
                ));
            }
        }
    }

    fn transport_error(&self, e: reqwest::Error) -> LlmError {
        let host = self.settings.egress_host();
        if e.is_timeout() {
            LlmError::Timeout("the connection")
        } else {
            // Refused connects and resets mid-request alike: worth a retry.
            LlmError::Connect {
                host,
                detail: self.redact(&root_cause(&e)),
            }
        }
    }

    fn status_error(
        &self,
        status: u16,
        body: &str,
        model: &str,
        retry_after: Option<Duration>,
    ) -> LlmError {
        let v: Value = serde_json::from_str(body).unwrap_or(Value::Null);
        let err = if v["error"].is_object() {
            &v["error"]
        } else {
            &v
        };
        let code = match &err["code"] {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            _ => String::new(),
        };
        let message = err["message"].as_str().unwrap_or(body);
        // Zhipu says 1211 / 模型不存在, OpenAI model_not_found, Ollama "model ... not found".
        let model_missing = status == 404
            || code == "model_not_found"
            || code == "1211"
            || message.contains("模型不存在")
            || message.contains("model_not_found")
            || (message.contains("model") && message.contains("not found"));
        match status {
            401 | 403 => LlmError::Auth(status),
            429 => LlmError::RateLimited(retry_after.map(|d| d.as_secs())),
            _ if model_missing => LlmError::ModelNotFound(model.to_string()),
            _ => LlmError::Status {
                status,
                excerpt: self.redact(&excerpt(if message.is_empty() { body } else { message })),
            },
        }
    }

    /// Removes our own key from text that came back from the network (some servers echo it).
    fn redact(&self, s: &str) -> String {
        match &self.settings.api_key {
            Some(k) if !k.expose().is_empty() => s.replace(k.expose(), "<redacted>"),
            _ => s.to_string(),
        }
    }
}

/// A failure of a streamed reply: not retried once text reached the user.
fn fail(err: LlmError, acc: &Assembler) -> AttemptError {
    AttemptError {
        err,
        streamed: acc.streamed,
        retry_after: None,
    }
}

fn root_cause(e: &(dyn std::error::Error + 'static)) -> String {
    let mut cur = e;
    while let Some(next) = cur.source() {
        cur = next;
    }
    cur.to_string()
}

/// At most 200 characters on one line.
fn excerpt(s: &str) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    llmops_tools::truncate_chars(&one_line, 200)
}

fn native_message(m: &ChatMessage) -> Value {
    match m {
        ChatMessage::System(s) => json!({"role": "system", "content": s}),
        ChatMessage::User(s) => json!({"role": "user", "content": s}),
        ChatMessage::Assistant {
            content,
            tool_calls,
        } if !tool_calls.is_empty() => json!({
            "role": "assistant",
            "content": if content.is_empty() { Value::Null } else { json!(content) },
            "tool_calls": tool_calls.iter().map(|c| json!({
                "id": c.id,
                "type": "function",
                "function": {
                    "name": c.name,
                    "arguments": match &c.args {
                        Value::String(raw) => raw.clone(),
                        v => v.to_string(),
                    },
                },
            })).collect::<Vec<_>>(),
        }),
        ChatMessage::Assistant { content, .. } => json!({"role": "assistant", "content": content}),
        ChatMessage::Tool {
            tool_call_id,
            content,
            ..
        } => json!({"role": "tool", "tool_call_id": tool_call_id, "content": content}),
    }
}

#[derive(Debug, Default)]
struct PartialCall {
    id: String,
    name: String,
    args: String,
}

/// Builds a reply from stream chunks: content deltas (through the text gate in text mode)
/// and tool calls keyed by `index`, with arguments concatenated across chunks.
struct Assembler {
    mode: ToolMode,
    text: String,
    calls: BTreeMap<u64, PartialCall>,
    gate: TextGate,
    streamed: bool,
    finished: bool,
    /// A non-streamed reply whose text is delivered to the sink at `finish`.
    pending_whole: bool,
}

impl Assembler {
    fn new(mode: ToolMode) -> Assembler {
        Assembler {
            mode,
            text: String::new(),
            calls: BTreeMap::new(),
            gate: TextGate::new(),
            streamed: false,
            finished: false,
            pending_whole: false,
        }
    }

    fn content(&mut self, s: &str, on_delta: DeltaSink<'_>) {
        if s.is_empty() {
            return;
        }
        self.text.push_str(s);
        let out = match self.mode {
            ToolMode::Native => s.to_string(),
            ToolMode::Text => self.gate.push(s),
        };
        if !out.is_empty() {
            self.streamed = true;
            on_delta(&out);
        }
    }

    fn chunk(&mut self, v: &Value, on_delta: DeltaSink<'_>) {
        let Some(choice) = v["choices"].get(0) else {
            return; // usage-only or empty chunks
        };
        let delta = &choice["delta"];
        if let Some(s) = delta["content"].as_str() {
            self.content(s, on_delta);
        }
        if let Some(tcs) = delta["tool_calls"].as_array() {
            for (pos, tc) in tcs.iter().enumerate() {
                let id = tc["id"].as_str().unwrap_or_default();
                // Some servers omit `index`: a new id starts a new call, else it continues
                // the last one.
                let index = tc["index"].as_u64().unwrap_or_else(|| {
                    let known = self
                        .calls
                        .iter()
                        .find(|(_, c)| !id.is_empty() && c.id == id);
                    match (known, self.calls.keys().next_back()) {
                        (Some((i, _)), _) => *i,
                        (None, Some(last)) if id.is_empty() => *last,
                        (None, Some(last)) => last + 1,
                        (None, None) => pos as u64,
                    }
                });
                let c = self.calls.entry(index).or_default();
                if !id.is_empty() {
                    c.id = id.to_string();
                }
                if let Some(n) = tc["function"]["name"].as_str() {
                    c.name.push_str(n);
                }
                match &tc["function"]["arguments"] {
                    Value::String(a) => c.args.push_str(a),
                    Value::Null => {}
                    // A server that sends the arguments as an object, not a string.
                    other => c.args.push_str(&other.to_string()),
                }
            }
        }
        if choice["finish_reason"].is_string() {
            self.finished = true;
        }
    }

    /// A non-streamed completion.
    fn whole(&mut self, v: &Value) -> Result<(), LlmError> {
        let msg = &v["choices"][0]["message"];
        if !msg.is_object() {
            return Err(LlmError::Protocol("no choices in the response".into()));
        }
        let chunk = json!({"choices": [{"delta": msg, "finish_reason": "stop"}]});
        // Deltas of a whole reply are delivered by `finish` through the same path.
        let mut sink_text = String::new();
        let mut sink = |s: &str| sink_text.push_str(s);
        self.chunk(&chunk, &mut sink);
        // Nothing was shown yet: replay at finish time instead.
        self.streamed = false;
        self.gate = TextGate::new();
        self.pending_whole = true;
        Ok(())
    }

    fn finish(mut self, on_delta: DeltaSink<'_>) -> ChatReply {
        if self.pending_whole {
            let text = std::mem::take(&mut self.text);
            self.content(&text, on_delta);
        }
        match self.mode {
            ToolMode::Native => {
                let calls = self
                    .calls
                    .into_values()
                    .enumerate()
                    .filter(|(_, c)| !c.name.is_empty())
                    .map(|(i, c)| ToolCall {
                        id: if c.id.is_empty() {
                            format!("call_{}", i + 1)
                        } else {
                            c.id
                        },
                        name: c.name,
                        args: parse_args(&c.args),
                    })
                    .collect();
                ChatReply {
                    text: self.text,
                    tool_calls: calls,
                    mode: Some(ToolMode::Native),
                }
            }
            ToolMode::Text => {
                let rest = self.gate.finish();
                if !rest.is_empty() {
                    on_delta(&rest);
                }
                let (text, calls) = textcall::parse(&self.text);
                ChatReply {
                    text,
                    tool_calls: calls,
                    mode: Some(ToolMode::Text),
                }
            }
        }
    }
}

/// Tool-call arguments: empty means none; invalid JSON is passed on as the raw string so the
/// loop can tell the model.
fn parse_args(raw: &str) -> Value {
    let t = raw.trim();
    if t.is_empty() {
        return json!({});
    }
    serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.to_string()))
}

impl LlmClient for OpenAiClient {
    fn chat<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: DeltaSink<'a>,
        cancel: &'a CancellationToken,
    ) -> LlmFuture<'a> {
        Box::pin(async move {
            tokio::select! {
                r = self.chat_impl(req, on_delta) => r,
                // Dropping the request future closes the connection at once.
                () = cancel.cancelled() => Err(LlmError::Cancelled),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assemble(mode: ToolMode, chunks: &[Value]) -> (ChatReply, String) {
        let mut shown = String::new();
        let mut sink = |s: &str| shown.push_str(s);
        let mut a = Assembler::new(mode);
        for c in chunks {
            a.chunk(c, &mut sink);
        }
        let r = a.finish(&mut sink);
        (r, shown)
    }

    #[test]
    fn tool_call_deltas_are_assembled_by_index() {
        let chunks = vec![
            json!({"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"semantic_search","arguments":""}}]}}]}),
            json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"que"}}]}}]}),
            json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","function":{"name":"sys_monitor","arguments":"{}"}}]}}]}),
            json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ry\": \"nginx {x}\"}"}}]}}]}),
            json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
        ];
        let (r, shown) = assemble(ToolMode::Native, &chunks);
        assert_eq!(shown, "");
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].id, "call_a");
        assert_eq!(r.tool_calls[0].args, json!({"query": "nginx {x}"}));
        assert_eq!(r.tool_calls[1].name, "sys_monitor");
    }

    #[test]
    fn text_deltas_stream_in_native_mode() {
        let chunks = vec![
            json!({"choices":[{"delta":{"content":"CPU "}}]}),
            json!({"choices":[{"delta":{"reasoning_content":"hmm"}}]}),
            json!({"choices":[{"delta":{"content":"12%"}, "finish_reason":"stop"}]}),
            json!({"choices":[], "usage": {"total_tokens": 3}}),
        ];
        let (r, shown) = assemble(ToolMode::Native, &chunks);
        assert_eq!(shown, "CPU 12%");
        assert!(r.is_final());
        assert_eq!(r.text, "CPU 12%");
    }

    #[test]
    fn text_mode_hides_protocol() {
        let chunks = vec![
            json!({"choices":[{"delta":{"content":"TOOL: sys_"}}]}),
            json!({"choices":[{"delta":{"content":"monitor\nARGS: {\"metric\":"}}]}),
            json!({"choices":[{"delta":{"content":" \"cpu\"}"}}]}),
        ];
        let (r, shown) = assemble(ToolMode::Text, &chunks);
        assert_eq!(shown, "");
        assert_eq!(r.tool_calls[0].name, "sys_monitor");
        assert_eq!(r.tool_calls[0].args, json!({"metric": "cpu"}));
    }

    #[test]
    fn missing_index_and_bad_args() {
        let chunks = vec![
            json!({"choices":[{"delta":{"tool_calls":[{"id":"x1","function":{"name":"file_read","arguments":"{\"file_path\": "}}]}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"function":{"arguments":"\"/etc/hosts\"}"}}]}}]}),
            json!({"choices":[{"delta":{"tool_calls":[{"id":"x2","function":{"name":"sys_monitor","arguments":"not json"}}]}}]}),
        ];
        let (r, _) = assemble(ToolMode::Native, &chunks);
        assert_eq!(r.tool_calls.len(), 2);
        assert_eq!(r.tool_calls[0].args, json!({"file_path": "/etc/hosts"}));
        assert_eq!(r.tool_calls[1].args, Value::String("not json".into()));
    }

    #[test]
    fn status_errors_are_specific() {
        let mut s = LlmSettings::custom("t", "http://127.0.0.1:1/v1", &["m"]);
        s.api_key = Some(super::super::ApiKey::new("sk-SECRET"));
        let c = OpenAiClient::new(s).expect("client");
        assert_eq!(c.status_error(401, "{}", "m", None), LlmError::Auth(401));
        assert!(c
            .status_error(401, "", "m", None)
            .to_string()
            .contains("API key rejected / API 密钥无效"));
        assert_eq!(
            c.status_error(404, "", "glm-9", None),
            LlmError::ModelNotFound("glm-9".into())
        );
        assert_eq!(
            c.status_error(
                400,
                r#"{"error":{"code":"1211","message":"模型不存在，请检查模型代码。"}}"#,
                "glm-x",
                None
            )
            .to_string(),
            "model not found: glm-x / 模型不存在"
        );
        let e = c.status_error(
            500,
            r#"{"error":{"message":"boom with key sk-SECRET inside"}}"#,
            "m",
            None,
        );
        let t = e.to_string();
        assert!(t.contains("500") && t.contains("boom"), "{t}");
        assert!(!t.contains("sk-SECRET"));
        assert!(format!("{c:?}").find("SECRET").is_none());
    }
}
