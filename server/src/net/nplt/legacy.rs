//! Legacy (old-client) mode: plain-text request dispatch, turns rendered as a chat-text
//! stream, and the text renderings of history and the session list.

use protocol::{AgentThought, EndStatus, Message, SessionInfo, SessionOp, LEGACY_HEARTBEAT};

use llmops_tools::audit::AuditOp;

use crate::turn::{ApprovalAsk, ApprovalOutcome, TurnEvent};

use super::request::{Outcome, Request, RequestError};
use super::{Conn, Flow};

impl Conn {
    pub(super) async fn on_legacy(&mut self, m: Message, out: &mut Vec<Message>) -> Flow {
        match m {
            Message::ChatText(t) if t.trim() == LEGACY_HEARTBEAT => {
                self.on_client_heartbeat(true, out)
            }
            // The legacy client's UDP port is not used: downloads are client-initiated
            // over RDT, so the server never pushes to a registered port.
            Message::ClientUdpPort(_) => {}
            Message::FileMetadata(meta) => {
                // An upload is a use of the reserved session.
                if let Err(e) = self.ensure_session().await {
                    out.push(Message::ChatText(format!("文件上传失败: {e}")));
                    self.upload = super::UploadSlot::Discarding {
                        remaining: meta.size,
                    };
                    return Flow::Continue;
                }
                let r = self
                    .begin_upload(
                        super::transfers::UploadReply::Legacy,
                        &meta.filename,
                        meta.size,
                        None,
                    )
                    .await;
                if let Err(e) = r {
                    out.push(Message::ChatText(format!("文件上传失败: {e}")));
                } else if meta.size == 0 {
                    self.finish_upload(out).await;
                }
            }
            Message::FileData(raw) => self.upload_data(&raw.0, out).await,
            m => match Request::from_legacy(m) {
                Ok(req) => {
                    let kind = LegacyKind::of(&req);
                    let res = self.apply(req).await;
                    if let Some(text) = legacy_reply(kind, res, &self.session_id) {
                        out.push(Message::ChatText(text));
                    }
                }
                Err(m) => {
                    // Extension or server-only types from a legacy client: ignored, as the
                    // legacy server did with anything it did not know.
                    tracing::debug!("legacy client sent {:?}; ignored", m.msg_type());
                }
            },
        }
        Flow::Continue
    }

    pub(super) fn legacy_turn_event(&mut self, ev: TurnEvent, out: &mut Vec<Message>) {
        let thought = |kind: &str, content: String| {
            Message::AgentThought(AgentThought {
                kind: kind.into(),
                content: Some(content),
            })
        };
        match ev {
            TurnEvent::Status(t) => out.push(thought("thinking", t)),
            TurnEvent::ToolCall { tool, args, .. } => {
                out.push(thought("tool_call", format!("调用工具 {tool} {args}")))
            }
            TurnEvent::ToolResult {
                tool, ok, summary, ..
            } => out.push(thought(
                "thinking",
                format!("{tool} {}: {summary}", if ok { "完成" } else { "失败" }),
            )),
            TurnEvent::AnswerStart => {
                out.push(thought("generating", "正在生成回答…".into()));
                out.push(Message::AgentThought(AgentThought {
                    kind: "stream_start".into(),
                    content: None,
                }));
            }
            TurnEvent::Delta(d) => {
                self.legacy_pending.push_str(&d);
                if legacy_chunk_ok(&self.legacy_pending) {
                    out.push(Message::ChatText(std::mem::take(&mut self.legacy_pending)));
                }
            }
            // Legacy clients get no live lines: the final result is all they see.
            TurnEvent::Search(_) | TurnEvent::ToolOutput { .. } => {}
            TurnEvent::Offer(o) => {
                // Legacy clients can only be told about offers in text: their RDT deadlocks
                // and their offer frame carries an MD5 we do not compute.
                self.legacy_pending.push_str(&format!(
                    "\n[下载] {} ({} 字节) 可通过 `llmops-tui download {}` 获取\n",
                    o.filename,
                    o.size,
                    o.file_id.clone().unwrap_or_else(|| o.file_path.clone())
                ));
            }
            TurnEvent::Approval(ask) => self.legacy_approval(&ask),
            TurnEvent::ApprovalDenied { argv, detail } => {
                self.legacy_approval_denied(&argv, &detail)
            }
            TurnEvent::Done(outcome) => {
                self.turn = None;
                let note = match (outcome.status, outcome.message) {
                    (EndStatus::Ok, _) => None,
                    (EndStatus::Cancelled, _) => Some("（已取消 / cancelled）".to_string()),
                    (EndStatus::Error, Some(m)) => Some(format!("\n（{m}）")),
                    (EndStatus::Error, None) => Some("（出错 / error）".to_string()),
                };
                self.legacy_flush_end(out, note.as_deref());
            }
        }
    }

    /// An approval request in legacy mode: a legacy client has no approval frame, so the
    /// action never runs; it is told so in the text and the rejection is audited.
    fn legacy_approval(&mut self, ask: &ApprovalAsk) {
        self.legacy_pending.push_str(&format!(
            "\n[需要批准 / needs approval] {} —— 旧版客户端无法批准操作，未执行 / \
             a legacy client cannot approve actions: not run\n",
            ask.argv.join(" ")
        ));
        let approval_id = uuid::Uuid::new_v4().simple().to_string();
        let rid = self.legacy_request_id();
        self.ctx.approvals.record_action(
            AuditOp::Rejected,
            who!(self),
            &ask.argv,
            &approval_id,
            &[
                ("request", &rid),
                ("action", &ask.action),
                ("reason", "legacy_client"),
            ],
        );
        ask.reply.send(ApprovalOutcome::Unsupported { approval_id });
    }

    /// An action a deny rule refused: told in the text and audited.
    fn legacy_approval_denied(&mut self, argv: &[String], detail: &str) {
        self.legacy_pending
            .push_str(&format!("\n[禁止 / denied] {}: {detail}\n", argv.join(" ")));
        let rid = self.legacy_request_id();
        self.ctx.approvals.record_action(
            AuditOp::ActionDenied,
            who!(self),
            argv,
            &uuid::Uuid::new_v4().simple().to_string(),
            &[("request", &rid), ("reason", detail)],
        );
    }

    /// The running turn's request id for the audit record (empty without one).
    fn legacy_request_id(&self) -> String {
        self.turn
            .as_ref()
            .map(|t| t.request_id.to_string())
            .unwrap_or_default()
    }

    /// Ends a legacy stream: flushes held-back text and sends the empty end marker.
    pub(super) fn legacy_flush_end(&mut self, out: &mut Vec<Message>, note: Option<&str>) {
        if let Some(n) = note {
            self.legacy_pending.push_str(n);
        }
        let rest = std::mem::take(&mut self.legacy_pending);
        if !rest.trim().is_empty() {
            let rest = if rest.trim() == LEGACY_HEARTBEAT {
                format!("{rest}.")
            } else {
                rest
            };
            out.push(Message::ChatText(rest));
        }
        out.push(Message::ChatText(String::new()));
    }
}

/// A legacy stream chunk must not be blank (ends the stream) or exactly `HEARTBEAT`
/// (swallowed).
pub(super) fn legacy_chunk_ok(s: &str) -> bool {
    !s.trim().is_empty() && s.trim() != LEGACY_HEARTBEAT
}

fn legacy_history_text(rows: &[crate::store::MessageRow]) -> String {
    if rows.is_empty() {
        return "暂无历史记录".into();
    }
    let mut s = String::from("历史记录:\n");
    for m in rows {
        let who = if m.role == "user" { "用户" } else { "助手" };
        s.push_str(&format!("[{}] {}: {}\n", m.time, who, m.text));
        for c in &m.tool_calls {
            s.push_str(&format!(
                "    工具 {} {} ({} ms): {}\n",
                c.tool,
                if c.ok { "成功" } else { "失败" },
                c.duration_ms,
                c.summary
            ));
        }
    }
    s
}

fn legacy_sessions_text(list: &[SessionInfo], current: &str) -> String {
    let mut s = String::from("会话列表:\n");
    for r in list {
        s.push_str(&format!(
            "{} {} {} ({} 条消息, 更新于 {})\n",
            if r.id == current { "*" } else { " " },
            &r.id,
            r.name,
            r.messages,
            r.updated_at
        ));
    }
    s
}

/// Which legacy request an outcome answers (its texts differ per kind).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LegacyKind {
    Chat,
    History,
    Clear,
    List,
    New,
    Switch,
    Delete,
    Rename,
    Model,
}

impl LegacyKind {
    fn of(req: &Request) -> LegacyKind {
        match req {
            Request::Chat { .. } => LegacyKind::Chat,
            Request::History { .. } => LegacyKind::History,
            Request::ClearHistory => LegacyKind::Clear,
            Request::Session(SessionOp::List) => LegacyKind::List,
            Request::Session(SessionOp::New { .. }) => LegacyKind::New,
            Request::Session(SessionOp::Switch { .. }) => LegacyKind::Switch,
            Request::Session(SessionOp::Delete { .. }) => LegacyKind::Delete,
            Request::Session(SessionOp::Rename { .. }) => LegacyKind::Rename,
            Request::SetModel(_) => LegacyKind::Model,
        }
    }

    /// How a failure of this request reads in the legacy chat.
    fn failed(self) -> &'static str {
        match self {
            LegacyKind::Chat => "发送失败",
            LegacyKind::History => "获取历史记录失败",
            LegacyKind::Clear => "清空历史记录失败",
            LegacyKind::List => "获取会话列表失败",
            LegacyKind::New => "创建会话失败",
            LegacyKind::Switch => "切换会话失败",
            LegacyKind::Delete => "删除会话失败",
            LegacyKind::Rename => "重命名会话失败",
            LegacyKind::Model => "切换模型失败",
        }
    }
}

/// A request's outcome as the legacy client sees it: one chat line, or nothing (a chat
/// starts a stream of its own; an empty or overlapping chat line is ignored, as the legacy
/// server did).
fn legacy_reply(
    kind: LegacyKind,
    res: Result<Outcome, RequestError>,
    current: &str,
) -> Option<String> {
    let outcome = match res {
        Ok(o) => o,
        Err(RequestError::Empty) => return None,
        Err(RequestError::Busy(_)) => {
            tracing::debug!("legacy chat during a turn ignored");
            return None;
        }
        Err(e) => return Some(format!("{}: {e}", kind.failed())),
    };
    Some(match outcome {
        Outcome::TurnStarted => return None,
        Outcome::History(rows) => legacy_history_text(&rows),
        Outcome::Cleared(n) => format!("历史记录已清空 ({n} 条消息)"),
        Outcome::ModelSet(m) => format!("已切换模型: {m}"),
        Outcome::Session(parts) => match kind {
            LegacyKind::List => legacy_sessions_text(&parts.sessions, current),
            LegacyKind::New => format!(
                "已创建新会话: {} ({})",
                parts.current.name, parts.current.id
            ),
            LegacyKind::Switch => format!(
                "已切换到会话: {} ({})",
                parts.current.name, parts.current.id
            ),
            LegacyKind::Delete => format!("已删除会话: {}", parts.deleted.unwrap_or_default()),
            _ => format!(
                "会话 / session: {} ({})",
                parts.current.name, parts.current.id
            ),
        },
    })
}
