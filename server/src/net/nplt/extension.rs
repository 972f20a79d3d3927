//! Extension-mode request dispatch, plus the read-only requests it answers directly:
//! monitor subscription, output pages and search.

use llmops_tooldata::SearchArgs;
use llmops_tools::data::SearchWire;
use llmops_tools::ToolArgs;
use protocol::{Ack, Cancel, FileListReply, History, Message, Req, UploadStart, LEGACY_HEARTBEAT};

use super::approvals::Abandon;
use super::request::{Outcome, Request, RequestError};
use super::{Conn, Flow, UploadSlot};
use crate::wire::{file_info, history_message, store_error};

impl Conn {
    pub(super) async fn on_extension(&mut self, m: Message, out: &mut Vec<Message>) -> Flow {
        // The session is stored when something uses it (a reserved one, or none at all for
        // a read-only connection).
        if (self.session_id.is_empty() || self.reserved.is_some()) && needs_session(&m) {
            if let Err(e) = self.ensure_session().await {
                let code = crate::wire::store_error_code(&e);
                out.push(Message::error(code, e.to_string(), request_id_of(&m)));
                return Flow::Continue;
            }
        }
        // Requests the legacy dialect shares are applied in one place (request.rs).
        let m = match Request::from_extension(m) {
            Ok((rid, req)) => {
                let res = self.apply(req).await;
                if let Some(reply) = self.extension_reply(rid, res).await {
                    out.push(reply);
                }
                return Flow::Continue;
            }
            Err(m) => m,
        };
        match m {
            Message::Hello(_) => out.push(Message::error(
                "protocol",
                "HELLO 只能是第一帧 / HELLO must be the first frame",
                None,
            )),
            Message::Heartbeat(_) => self.on_client_heartbeat(false, out),
            Message::ChatText(t) if t.trim() == LEGACY_HEARTBEAT => {
                self.on_client_heartbeat(false, out)
            }
            Message::Cancel(c) => self.on_cancel(&c, out),
            Message::ApprovalReply(r) => {
                let who = who!(self);
                self.approvals.reply(&self.ctx.approvals, who, r, out).await;
            }
            Message::GrantsList(r) => out.push(self.grants_list(r.request_id).await),
            Message::GrantRevoke(r) => out.push(self.grant_revoke(r).await),
            Message::ModelList(r) => out.push(self.model_info(r.request_id).await),
            Message::UploadStart(u) => {
                if matches!(self.on_upload_start(&u, out).await, Flow::Close) {
                    return Flow::Close;
                }
            }
            Message::UploadRdtStart(u) => out.push(self.rdt_upload_grant(&u).await),
            Message::UploadData(raw) => self.upload_data(&raw.0, out).await,
            Message::FileList(r) => out.push(self.file_list(&r).await),
            Message::FileDelete(d) => out.push(self.delete_file(d).await),
            Message::UploadLookup(q) => out.push(self.upload_lookup(q).await),
            Message::IndexRetry(d) => out.push(self.retry_index(d).await),
            Message::StatusRequest(r) => out.push(self.ctx.status(r.request_id).await),
            Message::MonitorSubscribe(m) => self.subscribe_monitor(m),
            Message::MonitorUnsubscribe(_) => {
                if let Some(t) = self.monitor.take() {
                    t.cancel();
                }
            }
            Message::Search(q) => out.push(self.search(q).await),
            Message::ProcessGet(g) => out.push(self.process_get(g).await),
            Message::WatchRun(w) => self.watch_run(w, out),
            Message::OutputGet(g) => out.push(self.output_page(g).await),
            Message::FileRegion(r) => out.push(self.file_region(r).await),
            Message::DownloadRequest(d) => out.push(self.download_request(d).await),
            Message::OfferAccept(a) => {
                if let Some(m) = self.accept_offer(a).await {
                    out.push(m);
                }
            }
            Message::OfferReject(r) => out.push(self.reject_offer(r).await),
            Message::TransferComplete(c) => self.ctx.offers.reported(&self.session_id, &c),
            Message::TransferProgress(_) => {}
            other => out.push(not_handled(&other)),
        }
        Flow::Continue
    }

    /// CANCEL: cancels the running turn (the one named, if any) and ends its pending
    /// approvals now, not at their expiry.
    fn on_cancel(&mut self, c: &Cancel, out: &mut Vec<Message>) {
        if let Some(t) = &self.turn {
            if c.request_id.is_none_or(|r| r == t.request_id) {
                t.cancel.cancel();
                let rid = t.request_id;
                let who = who!(self);
                self.approvals.abandon(
                    &self.ctx.approvals,
                    who,
                    Some(rid),
                    Abandon::Cancelled,
                    out,
                );
            }
        }
    }

    /// UPLOAD_START: begins an upload; `Flow::Close` when one is already running on this
    /// connection.
    async fn on_upload_start(&mut self, u: &UploadStart, out: &mut Vec<Message>) -> Flow {
        // A new start ends the discarding of a refused upload's data; a clean client
        // stops sending after the error, a streaming one may not.
        if matches!(self.upload, UploadSlot::Receiving { .. }) {
            out.push(Message::error(
                "busy",
                "已有上传正在进行 / another upload is in progress on this connection",
                Some(u.request_id),
            ));
            // Its data must not be mistaken for the running upload's.
            return Flow::Close;
        }
        let reply = super::transfers::UploadReply::extension(u);
        match self
            .begin_upload(reply, &u.filename, u.size, u.sha256.clone())
            .await
        {
            Err(e) => {
                out.push(Message::error(e.code(), e.message(), Some(u.request_id)));
                self.upload = UploadSlot::Discarding { remaining: u.size };
            }
            Ok(()) if u.size == 0 => self.finish_upload(out).await,
            Ok(()) => {}
        }
        Flow::Continue
    }

    /// FILE_LIST: this session's uploads.
    async fn file_list(&self, r: &Req) -> Message {
        match self.uploads().await {
            Ok(rows) => Message::FileListReply(FileListReply {
                request_id: r.request_id,
                files: rows.iter().map(file_info).collect(),
            }),
            Err(e) => store_error(e, r.request_id),
        }
    }

    /// A shared request's outcome as the extension client sees it: a typed reply, an ERROR
    /// frame, or nothing (a started turn streams its own frames).
    async fn extension_reply(
        &self,
        request_id: u64,
        res: Result<Outcome, RequestError>,
    ) -> Option<Message> {
        Some(match res {
            Ok(Outcome::TurnStarted) => return None,
            Ok(Outcome::History(rows)) => Message::History(History {
                request_id,
                session_id: self.session_id.clone(),
                messages: rows.into_iter().map(history_message).collect(),
            }),
            Ok(Outcome::Cleared(n)) => Message::Ack(Ack {
                request_id,
                message: format!("历史记录已清空 ({n} 条消息) / history cleared"),
            }),
            Ok(Outcome::Session(parts)) => Message::SessionReply(parts.with_request(request_id)),
            Ok(Outcome::ModelSet(_)) => self.model_info(request_id).await,
            Err(e @ RequestError::Empty) => {
                Message::error("empty", e.to_string(), Some(request_id))
            }
            Err(e @ RequestError::Busy(_)) => {
                Message::error("busy", e.to_string(), Some(request_id))
            }
            Err(RequestError::BadModel(e)) => Message::error("bad_model", e, Some(request_id)),
            Err(RequestError::Store(e)) => store_error(e, request_id),
        })
    }

    /// A page of a stored tool output of this session (OUTPUT_GET).
    async fn output_page(&self, g: protocol::OutputGet) -> Message {
        let store = self.ctx.agent.outputs.clone();
        let sid = self.session_id.clone();
        let (id, offset, count) = (g.output_id.clone(), g.offset, g.count);
        match tokio::task::spawn_blocking(move || store.page(&sid, &id, offset, count)).await {
            Ok(Ok(p)) => Message::OutputPage(protocol::OutputPage {
                request_id: g.request_id,
                output_id: g.output_id,
                offset: p.offset,
                lines: p.lines,
                total_lines: p.total_lines,
                total_bytes: p.total_bytes,
                truncated: p.truncated,
            }),
            Ok(Err(e)) => Message::error(e.code(), e.to_string(), Some(g.request_id)),
            Err(e) => {
                tracing::warn!("output page task failed: {e}");
                Message::error(
                    "internal",
                    "读取输出失败 / reading the output failed",
                    Some(g.request_id),
                )
            }
        }
    }

    async fn search(&self, q: protocol::SearchReq) -> Message {
        let args = ToolArgs::Search(SearchArgs {
            query: q.query.clone(),
            scope: Some(q.scope.clone()),
            top_k: Some(i64::from(q.top_k)),
        });
        let Ok(_permit) = self.ctx.search_slots.clone().try_acquire_owned() else {
            return Message::error(
                "busy",
                "搜索请求过多，请稍后重试 / too many concurrent searches",
                Some(q.request_id),
            );
        };
        let r = self
            .ctx
            .agent
            .tools
            .call_args(&args, &self.ctx.tool_ctx(&self.session_id))
            .await;
        if !r.ok {
            return Message::error(
                "search_failed",
                r.error.unwrap_or_else(|| "search failed".into()),
                Some(q.request_id),
            );
        }
        let results = r
            .data
            .as_search()
            .map(|s| s.wire_hits())
            .unwrap_or_default();
        Message::SearchResults(protocol::SearchResults {
            request_id: Some(q.request_id),
            query: q.query.clone(),
            scope: q.scope,
            results,
        })
    }
}

/// The request id a failed session store answers, when the message has one.
fn request_id_of(m: &Message) -> Option<u64> {
    match m {
        Message::Chat(c) => Some(c.request_id),
        Message::UploadStart(u) | Message::UploadRdtStart(u) => Some(u.request_id),
        Message::SessionCmd(c) => Some(c.request_id),
        Message::ModelSet(r) => Some(r.request_id),
        Message::ClearHistory(r) => Some(r.request_id),
        Message::DownloadRequest(d) => Some(d.request_id),
        Message::IndexRetry(d) | Message::FileDelete(d) => Some(d.request_id),
        Message::OutputGet(g) => Some(g.request_id),
        _ => None,
    }
}

/// Whether a message of a connection whose session is not stored yet stores it first: a
/// message, an upload, a setting. Reading (status, search, files, history, lookups, the
/// session list), transfers of what exists, and housekeeping do not.
fn needs_session(m: &Message) -> bool {
    !matches!(
        m,
        Message::Heartbeat(_)
            | Message::ChatText(_)
            | Message::StatusRequest(_)
            | Message::Search(_)
            | Message::FileRegion(_)
            | Message::FileList(_)
            | Message::UploadLookup(_)
            | Message::HistoryGet(_)
            | Message::ModelList(_)
            | Message::MonitorSubscribe(_)
            | Message::MonitorUnsubscribe(_)
            | Message::ProcessGet(_)
            | Message::WatchRun(_)
            | Message::Cancel(_)
            | Message::ApprovalReply(_)
            | Message::GrantsList(_)
            | Message::GrantRevoke(_)
            | Message::ClearHistory(_)
            | Message::OutputGet(_)
            | Message::FileDelete(_)
            | Message::IndexRetry(_)
            | Message::OfferAccept(_)
            | Message::OfferReject(_)
            | Message::TransferComplete(_)
            | Message::TransferProgress(_)
            | Message::SessionCmd(protocol::SessionCmd {
                op: protocol::SessionOp::List
                    | protocol::SessionOp::New { .. }
                    | protocol::SessionOp::Switch { .. }
                    | protocol::SessionOp::Delete { .. },
                ..
            })
    )
}

/// The ERROR for a message extension mode does not handle: one only a server sends, or one
/// this server does not support yet.
fn not_handled(other: &Message) -> Message {
    let t = other.msg_type();
    let (code, text) = if t.direction() == protocol::Direction::ServerToClient {
        (
            "unexpected",
            format!(
                "{} 是服务器发往客户端的消息 / is a server-to-client message",
                t.wire_name()
            ),
        )
    } else {
        (
            "unsupported",
            format!(
                "{} 尚未支持 / is not supported by this server yet",
                t.wire_name()
            ),
        )
    };
    Message::error(code, text, None)
}
