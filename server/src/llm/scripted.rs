//! A scripted `LlmClient` for tests: replies are taken from a queue (streamed text, tool
//! calls, failures, a reply that never comes) and every request is recorded for assertions.

use std::collections::VecDeque;
use std::sync::Mutex;

use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::{ChatReply, ChatRequest, DeltaSink, LlmClient, LlmError, LlmFuture, ToolCall};

#[derive(Debug, Clone)]
pub enum Script {
    /// Streams `deltas`, then replies with them as text plus `tool_calls`.
    Reply {
        deltas: Vec<String>,
        tool_calls: Vec<ToolCall>,
    },
    Fail(LlmError),
    /// Streams `deltas`, then fails (a connection lost mid-answer).
    FailAfter(Vec<String>, LlmError),
    /// Never answers; only cancellation ends it.
    Hang,
}

impl Script {
    /// A final answer streamed in these pieces.
    pub fn text(pieces: &[&str]) -> Script {
        Script::Reply {
            deltas: pieces.iter().map(|s| s.to_string()).collect(),
            tool_calls: vec![],
        }
    }

    /// One tool call with id `call_{name}`.
    pub fn call(name: &str, args: Value) -> Script {
        Script::Reply {
            deltas: vec![],
            tool_calls: vec![ToolCall {
                id: format!("call_{name}"),
                name: name.to_string(),
                args,
            }],
        }
    }
}

#[derive(Debug, Default)]
pub struct ScriptedLlm {
    script: Mutex<VecDeque<Script>>,
    requests: Mutex<Vec<ChatRequest>>,
}

impl ScriptedLlm {
    pub fn new(script: Vec<Script>) -> ScriptedLlm {
        ScriptedLlm {
            script: Mutex::new(script.into()),
            requests: Mutex::new(Vec::new()),
        }
    }

    /// Appends more replies.
    pub fn push(&self, s: Script) {
        self.script
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push_back(s);
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    pub fn remaining(&self) -> usize {
        self.script.lock().unwrap_or_else(|p| p.into_inner()).len()
    }
}

impl LlmClient for ScriptedLlm {
    fn chat<'a>(
        &'a self,
        req: &'a ChatRequest,
        on_delta: DeltaSink<'a>,
        cancel: &'a CancellationToken,
    ) -> LlmFuture<'a> {
        self.requests
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(req.clone());
        let next = self
            .script
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .pop_front();
        Box::pin(async move {
            match next {
                None => Err(LlmError::Protocol("script exhausted".into())),
                Some(Script::Fail(e)) => Err(e),
                Some(Script::FailAfter(deltas, e)) => {
                    for d in &deltas {
                        on_delta(d);
                        tokio::task::yield_now().await;
                    }
                    Err(e)
                }
                Some(Script::Hang) => {
                    cancel.cancelled().await;
                    Err(LlmError::Cancelled)
                }
                Some(Script::Reply { deltas, tool_calls }) => {
                    let mut text = String::new();
                    for d in &deltas {
                        if cancel.is_cancelled() {
                            return Err(LlmError::Cancelled);
                        }
                        text.push_str(d);
                        on_delta(d);
                        tokio::task::yield_now().await;
                    }
                    Ok(ChatReply {
                        text,
                        tool_calls,
                        mode: None,
                    })
                }
            }
        })
    }
}
