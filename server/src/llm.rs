//! LLM providers: the object-safe `LlmClient` trait the agent loop calls (chat completions
//! with tools, streamed text deltas, cancellation), its message and reply types, errors, and
//! the secret-holding `ApiKey`. The HTTP client lives in `openai`, presets and key loading in
//! `provider`, prompt assembly in `prompt`. Nothing here runs tools or touches sessions.

pub mod health;
pub mod openai;
pub mod prompt;
pub mod provider;
pub mod scripted;
pub mod sse;
pub mod textcall;

use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

pub use health::{Availability, LlmHealth};
pub use openai::OpenAiClient;
pub use provider::{LlmSettings, Preset, PRESETS};
pub use scripted::{Script, ScriptedLlm};

/// An API key. Never printed: `Debug` and `Display` show a redaction marker.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into().trim().to_string())
    }

    /// The secret itself, for the `Authorization` header only.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// A tool call the model asked for. `args` is the parsed JSON object, or the raw string
/// when the model sent arguments that are not valid JSON (the loop reports that back).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub args: Value,
}

/// One chat message, provider-neutral. Clients render it for the wire (native tool calls or
/// the text protocol).
#[derive(Debug, Clone, PartialEq)]
pub enum ChatMessage {
    System(String),
    User(String),
    Assistant {
        content: String,
        tool_calls: Vec<ToolCall>,
    },
    Tool {
        tool_call_id: String,
        name: String,
        content: String,
    },
}

impl ChatMessage {
    /// Characters of text this message carries (for budgeting).
    pub fn text_len(&self) -> usize {
        match self {
            ChatMessage::System(s) | ChatMessage::User(s) => s.chars().count(),
            ChatMessage::Assistant {
                content,
                tool_calls,
            } => {
                content.chars().count()
                    + tool_calls
                        .iter()
                        .map(|c| c.name.len() + c.args.to_string().chars().count())
                        .sum::<usize>()
            }
            ChatMessage::Tool { content, .. } => content.chars().count(),
        }
    }
}

/// How tools are offered to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToolMode {
    /// OpenAI function calling (`tools` in the request, `tool_calls` in the reply).
    Native,
    /// The strict `TOOL:`/`ARGS:` text protocol described in the system prompt.
    Text,
}

/// One chat-completions call.
#[derive(Debug, Clone)]
pub struct ChatRequest {
    pub model: String,
    pub messages: Vec<ChatMessage>,
    /// OpenAI function-calling tool list (`ToolRegistry::schemas()`); empty means the model
    /// must answer in text.
    pub tools: Vec<Value>,
}

/// What the model answered.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct ChatReply {
    /// All text content (for a tool-call reply: any preamble; in text mode: without the
    /// `TOOL:`/`ARGS:` lines).
    pub text: String,
    /// Empty for a final answer.
    pub tool_calls: Vec<ToolCall>,
    /// Which protocol produced this reply (the loop does not care, tests and logs do).
    pub mode: Option<ToolMode>,
}

impl ChatReply {
    pub fn is_final(&self) -> bool {
        self.tool_calls.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum LlmError {
    #[error("API key rejected / API 密钥无效 (HTTP {0})")]
    Auth(u16),
    #[error("model not found: {0} / 模型不存在")]
    ModelNotFound(String),
    #[error("请求过于频繁 / rate limited (HTTP 429){}", retry_note(.0))]
    RateLimited(Option<u64>),
    #[error("LLM 服务错误 / provider error: HTTP {status}: {excerpt}")]
    Status { status: u16, excerpt: String },
    #[error("无法连接 LLM 服务 / cannot connect to {host}: {detail}")]
    Connect { host: String, detail: String },
    #[error("LLM 响应超时 / timed out waiting for {0}")]
    Timeout(&'static str),
    #[error("LLM 响应无效 / invalid response: {0}")]
    Protocol(String),
    #[error("已取消 / cancelled")]
    Cancelled,
}

fn retry_note(after: &Option<u64>) -> String {
    after
        .map(|s| format!(", retry after {s} s"))
        .unwrap_or_default()
}

impl LlmError {
    /// Worth trying again after a pause (bounded retries in the HTTP client).
    pub fn is_transient(&self) -> bool {
        match self {
            LlmError::RateLimited(_) | LlmError::Connect { .. } => true,
            LlmError::Status { status, .. } => *status >= 500,
            _ => false,
        }
    }
}

/// Receives text deltas as they arrive (already stripped of any tool-call protocol text).
pub type DeltaSink<'a> = &'a mut (dyn FnMut(&str) + Send);

/// Boxed future returned by [`LlmClient::chat`] (keeps the trait object-safe).
pub type LlmFuture<'a> = Pin<Box<dyn Future<Output = Result<ChatReply, LlmError>> + Send + 'a>>;

/// A chat-completions backend. Dropping the returned future aborts the request at once;
/// `cancel` does the same from outside and makes the future return `Cancelled`.
pub trait LlmClient: Send + Sync {
    fn chat<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: DeltaSink<'a>,
        cancel: &'a CancellationToken,
    ) -> LlmFuture<'a>;
}

/// The configured LLM as the rest of the server sees it: a client plus what to tell users
/// (provider name, models, where data goes).
#[derive(Clone)]
pub struct LlmBackend {
    pub client: Arc<dyn LlmClient>,
    pub provider: String,
    pub models: Vec<String>,
    pub default_model: String,
    /// Host conversation text is sent to (`open.bigmodel.cn`).
    pub egress: String,
}

impl fmt::Debug for LlmBackend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("LlmBackend")
            .field("provider", &self.provider)
            .field("models", &self.models)
            .field("default_model", &self.default_model)
            .field("egress", &self.egress)
            .finish_non_exhaustive()
    }
}

impl LlmBackend {
    /// The OpenAI-compatible HTTP backend for resolved settings.
    pub fn from_settings(s: &LlmSettings) -> Result<LlmBackend, LlmError> {
        let client = OpenAiClient::new(s.clone())?;
        Ok(LlmBackend {
            client: Arc::new(client),
            provider: s.provider.clone(),
            models: s.models.clone(),
            default_model: s.default_model.clone(),
            egress: s.egress_host(),
        })
    }
}

/// Rough token count used for budgeting: CJK characters count one token each, other text
/// about three characters per token. Errs on the high side, which is the safe side.
pub fn estimate_tokens(s: &str) -> usize {
    let mut cjk = 0usize;
    let mut other = 0usize;
    for c in s.chars() {
        if llmops_common::is_wide(c) {
            cjk += 1;
        } else {
            other += 1;
        }
    }
    cjk + other.div_ceil(3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_never_print() {
        let k = ApiKey::new(" sk-secret-123 \n");
        assert_eq!(k.expose(), "sk-secret-123");
        assert!(!format!("{k:?} {k}").contains("secret"));
    }

    #[test]
    fn token_estimate_is_cjk_aware() {
        assert_eq!(estimate_tokens("你好世界"), 4);
        assert_eq!(estimate_tokens("abcdef"), 2);
        assert_eq!(estimate_tokens(""), 0);
    }

    #[test]
    fn transient_errors() {
        assert!(LlmError::RateLimited(None).is_transient());
        assert!(LlmError::Status {
            status: 502,
            excerpt: String::new()
        }
        .is_transient());
        assert!(!LlmError::Auth(401).is_transient());
        assert!(!LlmError::ModelNotFound("x".into()).is_transient());
    }
}
