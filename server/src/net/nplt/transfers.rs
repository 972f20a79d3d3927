//! File transfers: uploads (start, data, finish, retry, delete), downloads and offers.

use llmops_tooldata::DownloadArgs;
use llmops_tools::ToolArgs;
use protocol::{Ack, Message, UploadResult, UploadStatus};

use crate::store::{OfferState, StoreError, TransferMode, UploadRow, UploadState};
use crate::uploads::{Incoming, UploadError, LOOKUP_WAIT};

use super::{Conn, Dialect, UploadSlot};
use crate::transfer::offers::OfferFile;
use crate::wire::{file_info, store_error};

/// How, and when, the outcome of an upload on this connection is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UploadReply {
    /// A legacy client: a chat line once the upload is indexed.
    Legacy,
    /// UPLOAD_RESULT once the lexical index has it (clients that did not ask otherwise).
    AfterIndex(u64),
    /// UPLOAD_RESULT (state `saved`) as soon as the file is durable; the index states
    /// follow as UPLOAD_STATUS (`result_on_save`).
    OnSave(u64),
}

impl UploadReply {
    pub(super) fn extension(u: &protocol::UploadStart) -> Self {
        if u.result_on_save {
            UploadReply::OnSave(u.request_id)
        } else {
            UploadReply::AfterIndex(u.request_id)
        }
    }

    pub(super) fn request_id(self) -> Option<u64> {
        match self {
            UploadReply::Legacy => None,
            UploadReply::AfterIndex(r) | UploadReply::OnSave(r) => Some(r),
        }
    }
}

impl Conn {
    pub(super) async fn download_request(&self, d: protocol::DownloadRequest) -> Message {
        // A target is an upload id (or unique prefix) of this session, else a path.
        let path = match self.uploads().await {
            Ok(rows) => {
                let t = d.target.trim();
                let hits: Vec<&UploadRow> = rows
                    .iter()
                    .filter(|u| !t.is_empty() && u.file_id.starts_with(t))
                    .collect();
                match hits.as_slice() {
                    [one] => one.path.clone(),
                    _ => t.to_string(),
                }
            }
            Err(e) => return store_error(e, d.request_id),
        };
        let args = ToolArgs::Download(DownloadArgs {
            file_path: path,
            transport_mode: Some(d.mode),
        });
        let r = self
            .ctx
            .agent
            .tools
            .call_args(&args, &self.ctx.tool_ctx(&self.session_id))
            .await;
        if !r.ok {
            return Message::error(
                "refused",
                r.error.unwrap_or_else(|| "download refused".into()),
                Some(d.request_id),
            );
        }
        let Some(o) = r.data.as_offer() else {
            return Message::error(
                "internal",
                "下载工具没有给出下载提议 / the download tool returned no offer",
                Some(d.request_id),
            );
        };
        let file = OfferFile {
            path: &o.file_path,
            filename: &o.filename,
            size: o.size,
            sha256: &o.sha256,
            mode: o.transport_mode,
        };
        let row = self.ctx.offers.new_offer(
            &self.session_id,
            file,
            Some(d.request_id),
            Some(format!("download {}", d.target)),
        );
        match self.ctx.offers.insert(&row).await {
            Ok(()) => Message::Offer(crate::wire::offer_msg(&row)),
            Err(e) => store_error(e, d.request_id),
        }
    }

    /// Loads an offer of this session that is still pending, or explains why not.
    async fn pending_offer(&self, offer_id: &str) -> Result<crate::store::OfferRow, Message> {
        let id = offer_id.to_string();
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        let row = self
            .ctx
            .store
            .run(move |s| {
                s.expire_offers(now)?;
                s.offer(&id)
            })
            .await
            .map_err(|e| Message::error("internal", e.to_string(), None))?;
        match row {
            Some(o) if o.session_id != self.session_id => Err(Message::error(
                "not_found",
                format!("没有这个下载邀请 / no offer {offer_id} in this session"),
                None,
            )),
            Some(o) if o.state == OfferState::Pending => Ok(o),
            Some(o) => Err(Message::error(
                "offer_closed",
                format!("下载邀请已{} / offer is {}", o.state.verb_zh(), o.state),
                None,
            )),
            None => Err(Message::error(
                "not_found",
                format!("没有这个下载邀请 / no offer {offer_id}"),
                None,
            )),
        }
    }

    pub(super) async fn reject_offer(&self, r: protocol::OfferReject) -> Message {
        let o = match self.pending_offer(&r.offer_id).await {
            Ok(o) => o,
            Err(m) => return m,
        };
        let id = o.offer_id.clone();
        let reason = r
            .reason
            .clone()
            .unwrap_or_else(|| "用户拒绝 / declined".into());
        let rs = reason.clone();
        let res = self
            .ctx
            .store
            .run(move |s| s.set_offer_state(&id, OfferState::Rejected, Some(&rs)))
            .await;
        crate::store::log_unsaved(res, &self.session_id, "offer state `rejected`");
        self.ctx.audit.record(
            llmops_tools::audit::AuditOp::DownloadReject,
            &[
                ("session", self.session_id.as_str()),
                ("offer", o.offer_id.as_str()),
                ("file", o.file_path.as_str()),
                ("reason", reason.as_str()),
            ],
        );
        // Told to the session's history so the agent's next answer knows.
        let sid = self.session_id.clone();
        let note = format!(
            "（用户拒绝了下载 {} / the user declined the download）",
            o.filename
        );
        let res = self
            .ctx
            .store
            .run(move |s| s.append_message(&sid, "assistant", &note, &[]))
            .await;
        crate::store::log_unsaved(res, &self.session_id, "history note of a declined download");
        Message::Ack(Ack {
            request_id: o.request_id.unwrap_or(0),
            message: format!("已拒绝下载 {} / download declined", o.filename),
        })
    }

    /// Loads an offer of this session that may be accepted: pending, or accepted/failed
    /// before its expiry (a retry or resume of an interrupted transfer).
    async fn acceptable_offer(&self, offer_id: &str) -> Result<crate::store::OfferRow, Message> {
        let o = match self.pending_offer(offer_id).await {
            Ok(o) => return Ok(o),
            Err(m) => m,
        };
        let id = offer_id.to_string();
        let now = chrono::Utc::now().timestamp().max(0) as u64;
        match self.ctx.store.run(move |s| s.offer(&id)).await {
            Ok(Some(row))
                if row.session_id == self.session_id
                    && matches!(row.state, OfferState::Accepted | OfferState::Failed)
                    && row.expires_at > now =>
            {
                Ok(row)
            }
            _ => Err(o),
        }
    }

    pub(super) async fn accept_offer(&mut self, a: protocol::OfferAccept) -> Option<Message> {
        use crate::transfer::GrantKind;
        let o = match self.acceptable_offer(&a.offer_id).await {
            Ok(o) => o,
            Err(m) => return Some(m),
        };
        let rdt_addr = self.ctx.transfers.rdt_addr.get().copied();
        let http_addr = self.ctx.transfers.http_addr.get().copied();
        let mode = match offer_mode(&a.mode, rdt_addr, http_addr, o.request_id) {
            Ok(m) => m,
            Err(m) => return Some(m),
        };
        if mode == TransferMode::Nplt && self.transfer.as_ref().is_some_and(|t| !t.is_cancelled()) {
            return Some(Message::error(
                "busy",
                "已有传输正在进行 / a transfer is already running on this connection",
                o.request_id,
            ));
        }
        let id = o.offer_id.clone();
        let res = self
            .ctx
            .store
            .run(move |s| s.set_offer_state(&id, OfferState::Accepted, None))
            .await;
        crate::store::log_unsaved(res, &self.session_id, "offer state `accepted`");
        let now = std::time::Instant::now();
        let mut start = protocol::TransferStart {
            offer_id: o.offer_id.clone(),
            mode: mode.as_str().into(),
            token: String::new(),
            rdt_addr: None,
            url: None,
            size: o.size,
            sha256: o.sha256.clone(),
        };
        if matches!(mode, TransferMode::Rdt | TransferMode::Http) {
            // It runs outside this connection, which counts as busy while it reports.
            self.remote
                .insert(format!("o:{}", o.offer_id), tokio::time::Instant::now());
        }
        match (mode, rdt_addr, http_addr) {
            (TransferMode::Rdt, Some(addr), _) => {
                start.token = self.issue_grant(GrantKind::Rdt, &o, now);
                start.rdt_addr = Some(addr.to_string());
                Some(Message::TransferStart(start))
            }
            (TransferMode::Http, _, Some(addr)) => {
                let token = self.issue_grant(GrantKind::Http, &o, now);
                start.url = Some(format!(
                    "http://{}/api/files/download/{token}",
                    crate::net::http::url_host(addr)
                ));
                start.token = token;
                Some(Message::TransferStart(start))
            }
            _ => self.start_nplt_download(o, start, a.resume_from).await,
        }
    }

    /// The token of a download that runs outside this connection (RDT or HTTP); its
    /// reports come back through this connection's push channel.
    fn issue_grant(
        &self,
        kind: crate::transfer::GrantKind,
        o: &crate::store::OfferRow,
        now: std::time::Instant,
    ) -> String {
        let (token, _) = self.ctx.transfers.issue(
            kind,
            o,
            &self.session_id,
            self.push_tx.clone(),
            &self.ctx.shutdown,
            now,
        );
        token
    }

    /// Starts sending the file over this connection, from `resume_from`: TRANSFER_START
    /// and the data go through the transfer queue, so nothing is answered directly.
    async fn start_nplt_download(
        &mut self,
        o: crate::store::OfferRow,
        mut start: protocol::TransferStart,
        resume_from: u64,
    ) -> Option<Message> {
        let attempt = self
            .ctx
            .transfers
            .begin_attempt(&o.offer_id, &self.ctx.shutdown);
        let tok = attempt.cancel.clone();
        self.transfer = Some(tok.clone());
        start.token = hex::encode(rand::random::<[u8; 16]>());
        // TRANSFER_START must precede the data: send it through the same queue.
        if self
            .transfer_tx
            .send(Message::TransferStart(start))
            .await
            .is_err()
        {
            return None;
        }
        let ctx = self.ctx.clone();
        let tx = self.transfer_tx.clone();
        let resume = resume_from.min(o.size);
        self.ctx.tracker.spawn(async move {
            let offer_id = o.offer_id.clone();
            super::download::send_file_nplt(ctx.clone(), o, resume, tx, tok).await;
            ctx.transfers.end_attempt(&offer_id, attempt.id);
        });
        None
    }

    /// An upload's temp file, with its announced size reserved from the temp-space budget
    /// of this client (and checked against the free-space floor) first.
    async fn incoming(
        &self,
        filename: &str,
        size: u64,
        sha256: Option<String>,
    ) -> Result<Incoming, UploadError> {
        crate::uploads::validate_filename(filename)?;
        let limit = self.ctx.cfg.upload_limit;
        if size > limit {
            return Err(UploadError::TooLarge { size, limit });
        }
        let hold = self.ctx.uploads.budget().reserve(self.peer.key(), size)?;
        let mut inc =
            Incoming::begin(&self.ctx.cfg.uploads_dir(), filename, size, limit, sha256).await?;
        inc.hold_temp(hold);
        self.ctx.uploads.track(&self.session_id, &mut inc);
        Ok(inc)
    }

    pub(super) async fn begin_upload(
        &mut self,
        reply: UploadReply,
        filename: &str,
        size: u64,
        sha256: Option<String>,
    ) -> Result<(), UploadError> {
        match self.incoming(filename, size, sha256).await {
            Ok(inc) => {
                self.upload = UploadSlot::Receiving {
                    inc: Box::new(inc),
                    reply,
                    last_status: 0,
                    progress_at: tokio::time::Instant::now(),
                };
                Ok(())
            }
            Err(e) => {
                self.ctx
                    .uploads
                    .audit_refused(&self.session_id, filename, &e);
                if reply == UploadReply::Legacy {
                    // Legacy: discard the data frames that follow the refused metadata.
                    self.upload = UploadSlot::Discarding { remaining: size };
                }
                Err(e)
            }
        }
    }

    /// UPLOAD_RDT_START: the same checks as UPLOAD_START, then a grant the client redeems on
    /// the RDT port; the RDT receiver task answers with UPLOAD_RESULT through `push_tx`.
    pub(super) async fn rdt_upload_grant(&mut self, u: &protocol::UploadStart) -> Message {
        let Some(addr) = self.ctx.transfers.rdt_addr.get().copied() else {
            return Message::error(
                "rdt_unavailable",
                "服务器未开启 RDT / the server's RDT port is not running; upload with nplt",
                Some(u.request_id),
            );
        };
        let inc = match self.incoming(&u.filename, u.size, u.sha256.clone()).await {
            Ok(inc) => inc,
            Err(e) => {
                self.ctx
                    .uploads
                    .audit_refused(&self.session_id, &u.filename, &e);
                return Message::error(e.code(), e.message(), Some(u.request_id));
            }
        };
        // The datagrams bypass this connection; it counts as busy while the upload reports.
        self.remote
            .insert(format!("u:{}", u.request_id), tokio::time::Instant::now());
        let token = self.ctx.transfers.issue_upload(
            inc,
            &self.session_id,
            u.request_id,
            self.push_tx.clone(),
            self.mode == Dialect::Extension,
            u.result_on_save,
            std::time::Instant::now(),
        );
        Message::UploadGrant(protocol::UploadGrant {
            request_id: u.request_id,
            token,
            rdt_addr: addr.to_string(),
            size: u.size,
        })
    }

    pub(super) async fn upload_data(&mut self, data: &[u8], out: &mut Vec<Message>) {
        match &mut self.upload {
            UploadSlot::None => {
                if self.mode == Dialect::Extension {
                    out.push(Message::error(
                        "no_upload",
                        "没有正在进行的上传 / data without UPLOAD_START",
                        None,
                    ));
                }
            }
            UploadSlot::Discarding { remaining } => {
                *remaining = remaining.saturating_sub(data.len() as u64);
                if *remaining == 0 {
                    self.upload = UploadSlot::None;
                }
            }
            UploadSlot::Receiving {
                inc,
                reply,
                last_status,
                progress_at,
            } => {
                // Data is progress (heartbeats are not): the stall deadline moves.
                *progress_at = tokio::time::Instant::now();
                if let Err(e) = inc.write(data).await {
                    let rid = reply.request_id();
                    let remaining = inc
                        .announced
                        .saturating_sub(inc.received + data.len() as u64);
                    let filename = inc.filename.clone();
                    if let UploadSlot::Receiving { inc, .. } =
                        std::mem::replace(&mut self.upload, UploadSlot::Discarding { remaining })
                    {
                        inc.abort().await;
                    }
                    if remaining == 0 {
                        self.upload = UploadSlot::None;
                    }
                    self.ctx
                        .uploads
                        .audit_refused(&self.session_id, &filename, &e);
                    out.push(self.upload_error(rid, &e));
                    return;
                }
                // Progress for the files pane about every 5% (extension clients only).
                if self.mode == Dialect::Extension && inc.announced > 0 {
                    let pct = inc.received * 20 / inc.announced;
                    if pct > *last_status && !inc.is_complete() {
                        *last_status = pct;
                        out.push(Message::UploadStatus(UploadStatus {
                            file_id: String::new(),
                            filename: inc.filename.clone(),
                            state: UploadState::Receiving.as_str().into(),
                            detail: None,
                            done: inc.received,
                            total: inc.announced,
                        }));
                    }
                }
                if inc.is_complete() {
                    self.finish_upload(out).await;
                }
            }
        }
    }

    pub(super) fn upload_error(&self, rid: Option<u64>, e: &UploadError) -> Message {
        match rid {
            Some(r) => Message::error(e.code(), e.message(), Some(r)),
            None => Message::ChatText(format!("文件上传失败: {e}")),
        }
    }

    pub(super) async fn finish_upload(&mut self, out: &mut Vec<Message>) {
        let UploadSlot::Receiving { inc, reply, .. } =
            std::mem::replace(&mut self.upload, UploadSlot::None)
        else {
            return;
        };
        // Extension clients get the index states (saved, indexed, embedding n/m, ready).
        let push = (self.mode == Dialect::Extension).then(|| self.push_tx.clone());
        let uploads = &self.ctx.uploads;
        let row = match uploads.save(&self.session_id, *inc).await {
            Ok(row) => row,
            Err(e) => {
                out.push(self.upload_error(reply.request_id(), &e));
                return;
            }
        };
        match reply {
            UploadReply::OnSave(r) => {
                // Durable now: say so before indexing, which a crash may interrupt (the
                // start-up catch-up indexes it then). `out` is written before the pushed
                // index states, which only the connection loop forwards.
                out.push(Message::UploadResult(UploadResult {
                    request_id: r,
                    file: file_info(&row),
                }));
                let uploads = uploads.clone();
                self.ctx.tracker.spawn(async move {
                    uploads.after_upload(row, push).await;
                });
            }
            UploadReply::AfterIndex(r) => {
                let row = uploads.after_upload(row, push).await;
                out.push(Message::UploadResult(UploadResult {
                    request_id: r,
                    file: file_info(&row),
                }));
            }
            UploadReply::Legacy => {
                let row = uploads.after_upload(row, push).await;
                out.push(Message::ChatText(format!(
                    "文件上传成功: {} (ID: {})",
                    row.filename, row.file_id
                )));
            }
        }
    }

    /// UPLOAD_LOOKUP: this session's uploads with the given sha256.
    pub(super) async fn upload_lookup(&self, q: protocol::UploadLookup) -> Message {
        match self
            .ctx
            .uploads
            .with_sha256(&self.session_id, &q.sha256, LOOKUP_WAIT)
            .await
        {
            Ok((rows, pending)) => Message::UploadLookupReply(protocol::UploadLookupReply {
                request_id: q.request_id,
                sha256: q.sha256,
                files: rows.iter().map(file_info).collect(),
                in_flight: u32::try_from(pending).unwrap_or(u32::MAX),
            }),
            Err(e) => store_error(e, q.request_id),
        }
    }

    pub(super) async fn uploads(&self) -> Result<Vec<UploadRow>, StoreError> {
        let id = self.session_id.clone();
        self.ctx.store.run(move |s| s.list_uploads(&id)).await
    }

    /// INDEX_RETRY: a `failed` upload of this session is indexed / embedded again.
    pub(super) async fn retry_index(&self, d: protocol::FileDelete) -> Message {
        let rows = match self.uploads().await {
            Ok(r) => r,
            Err(e) => return store_error(e, d.request_id),
        };
        let p = d.file_id.trim();
        let found: Vec<&UploadRow> = rows
            .iter()
            .filter(|u| !p.is_empty() && u.file_id.starts_with(p))
            .collect();
        let row = match found.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Message::error(
                    "not_found",
                    format!("本会话没有文件 {p} / no such file in this session"),
                    Some(d.request_id),
                )
            }
            many => {
                return Message::error(
                    "ambiguous",
                    format!(
                        "文件 ID 前缀 {p} 匹配 {} 个文件 / ambiguous prefix",
                        many.len()
                    ),
                    Some(d.request_id),
                )
            }
        };
        if row.state != UploadState::Failed {
            return Message::error(
                "not_failed",
                format!(
                    "文件 {} 的索引状态是 {}，无需重试 / only a failed file can be retried",
                    row.filename, row.state
                ),
                Some(d.request_id),
            );
        }
        let Some(h) = self.ctx.index.clone() else {
            return Message::error(
                "unavailable",
                "文档索引未启用 / the document index is off".to_string(),
                Some(d.request_id),
            );
        };
        let push = (self.mode == Dialect::Extension).then(|| self.push_tx.clone());
        let r = row.clone();
        let (state, _) = tokio::task::spawn_blocking(move || h.retry_upload(&r, push))
            .await
            .unwrap_or_else(|_| (UploadState::Failed, Some("indexing panicked".into())));
        Message::Ack(Ack {
            request_id: d.request_id,
            message: format!("已重新开始索引 {} ({state}) / retrying", row.filename),
        })
    }

    pub(super) async fn delete_file(&self, d: protocol::FileDelete) -> Message {
        let rows = match self.uploads().await {
            Ok(r) => r,
            Err(e) => return store_error(e, d.request_id),
        };
        let matches: Vec<&UploadRow> = rows
            .iter()
            .filter(|u| u.file_id.starts_with(d.file_id.trim()) && !d.file_id.trim().is_empty())
            .collect();
        let row = match matches.as_slice() {
            [one] => (*one).clone(),
            [] => {
                return Message::error(
                    "not_found",
                    format!(
                        "本会话没有文件 {} / no such file in this session",
                        d.file_id
                    ),
                    Some(d.request_id),
                )
            }
            many => {
                return Message::error(
                    "ambiguous",
                    format!(
                        "文件 ID 前缀 {} 匹配 {} 个文件 / ambiguous prefix",
                        d.file_id,
                        many.len()
                    ),
                    Some(d.request_id),
                )
            }
        };
        match self.ctx.uploads.delete(&row).await {
            Ok(()) => Message::Ack(Ack {
                request_id: d.request_id,
                message: format!("已删除文件 {} / deleted", row.filename),
            }),
            Err(e) => Message::error("io_error", e, Some(d.request_id)),
        }
    }
}

/// The mode an OFFER_ACCEPT asks for, as this server runs it: `auto` is RDT when it is
/// bound, else nplt; RDT or HTTP not running, or an unknown mode, is ERROR
/// `unsupported_mode`.
// The refusal is the frame sent as it is, once per refused request.
#[allow(clippy::result_large_err)]
fn offer_mode(
    asked: &str,
    rdt_addr: Option<std::net::SocketAddr>,
    http_addr: Option<std::net::SocketAddr>,
    request_id: Option<u64>,
) -> Result<TransferMode, Message> {
    match (TransferMode::parse(asked), rdt_addr, http_addr) {
        (Some(TransferMode::Auto | TransferMode::Rdt), Some(_), _) => Ok(TransferMode::Rdt),
        (Some(TransferMode::Auto | TransferMode::Nplt), _, _) => Ok(TransferMode::Nplt),
        (Some(TransferMode::Http), _, Some(_)) => Ok(TransferMode::Http),
        (Some(other @ (TransferMode::Rdt | TransferMode::Http)), _, _) => Err(Message::error(
            "unsupported_mode",
            format!(
                "传输模式 {other} 未启用 / mode {other} is not running on this server; use nplt"
            ),
            request_id,
        )),
        (None, _, _) => {
            let other = asked;
            Err(Message::error(
                "unsupported_mode",
                format!("未知传输模式 {other} / unknown mode {other}; use auto, rdt, nplt or http"),
                request_id,
            ))
        }
    }
}
