//! Client requests as typed values, whichever dialect carried them (mini-redis's `Command`
//! -> `apply`): legacy text-protocol frames and extension frames parse into the same
//! `Request`, `Conn::apply` handles each kind in one function, and each dialect only renders
//! the outcome (legacy: a chat line; extension: a typed reply or an ERROR frame).

use protocol::{Message, SessionOp};

use super::requests::SessionReplyParts;
use super::Conn;
use crate::store::{MessageRow, StoreError};

/// A request both dialects can make.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Request {
    Chat {
        request_id: u64,
        text: String,
        file_ids: Vec<String>,
        /// An action the operator proposes (extension clients only).
        action: Option<Vec<String>>,
    },
    History {
        limit: usize,
    },
    ClearHistory,
    Session(SessionOp),
    SetModel(String),
}

/// History messages a legacy client gets (it cannot ask for a number).
const LEGACY_HISTORY: usize = 50;
/// History messages an extension client gets when it does not say.
const DEFAULT_HISTORY: u32 = 200;

impl Request {
    /// The request a legacy frame makes, or the frame back when it is not one of the shared
    /// kinds. Heartbeat lines are handled by the caller first.
    // The frame comes back by value when it is not a shared request; boxing it would
    // allocate for every upload data frame.
    #[allow(clippy::result_large_err)]
    pub(super) fn from_legacy(m: Message) -> Result<Request, Message> {
        Ok(match m {
            Message::ChatText(text) => Request::Chat {
                request_id: 0,
                text,
                file_ids: Vec::new(),
                action: None,
            },
            Message::HistoryRequest(_) => Request::History {
                limit: LEGACY_HISTORY,
            },
            Message::ClearRequest(_) => Request::ClearHistory,
            Message::SessionList(_) => Request::Session(SessionOp::List),
            Message::SessionNew(_) => Request::Session(SessionOp::New { name: None }),
            Message::SessionSwitch(r) => Request::Session(SessionOp::Switch { id: r.session_id }),
            Message::SessionDelete(r) => Request::Session(SessionOp::Delete { id: r.session_id }),
            Message::ModelSwitch(m) => Request::SetModel(m.model),
            other => return Err(other),
        })
    }

    /// The request (and the id it answers) an extension frame makes, or the frame back when
    /// it is not one of the shared kinds.
    #[allow(clippy::result_large_err)]
    pub(super) fn from_extension(m: Message) -> Result<(u64, Request), Message> {
        Ok(match m {
            Message::Chat(c) => (
                c.request_id,
                Request::Chat {
                    request_id: c.request_id,
                    text: c.text,
                    file_ids: c.file_ids,
                    action: c.action,
                },
            ),
            Message::HistoryGet(h) => (
                h.request_id,
                Request::History {
                    limit: h.limit.unwrap_or(DEFAULT_HISTORY) as usize,
                },
            ),
            Message::ClearHistory(r) => (r.request_id, Request::ClearHistory),
            Message::SessionCmd(c) => (c.request_id, Request::Session(c.op)),
            Message::ModelSet(m) => (m.request_id, Request::SetModel(m.model)),
            other => return Err(other),
        })
    }
}

/// What a request did.
#[derive(Debug)]
pub(super) enum Outcome {
    TurnStarted,
    History(Vec<MessageRow>),
    /// Messages removed.
    Cleared(usize),
    Session(SessionReplyParts),
    ModelSet(String),
}

/// Why a request was not carried out.
#[derive(Debug)]
pub(super) enum RequestError {
    /// A chat with neither text nor files.
    Empty,
    /// A turn is still running (its request id).
    Busy(u64),
    Store(StoreError),
    BadModel(String),
}

impl From<StoreError> for RequestError {
    fn from(e: StoreError) -> Self {
        RequestError::Store(e)
    }
}

impl std::fmt::Display for RequestError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RequestError::Empty => f.write_str("消息为空 / empty message"),
            RequestError::Busy(id) => write!(
                f,
                "上一个请求 ({id}) 仍在处理中；可发送取消 / turn {id} is still running; cancel it first"
            ),
            RequestError::Store(e) => write!(f, "{e}"),
            RequestError::BadModel(e) => f.write_str(e),
        }
    }
}

impl Conn {
    /// Carries out one request: the only place each kind is handled.
    pub(super) async fn apply(&mut self, req: Request) -> Result<Outcome, RequestError> {
        match req {
            Request::Chat {
                request_id,
                text,
                file_ids,
                action,
            } => self.chat(request_id, text, file_ids, action).await,
            Request::History { limit } => Ok(Outcome::History(self.history(limit).await?)),
            Request::ClearHistory => Ok(Outcome::Cleared(self.clear_history().await?)),
            Request::Session(op) => Ok(Outcome::Session(self.session_cmd(op).await?)),
            Request::SetModel(m) => match self.set_model(&m).await {
                Ok(()) => Ok(Outcome::ModelSet(m)),
                Err(e) => Err(RequestError::BadModel(e)),
            },
        }
    }

    async fn chat(
        &mut self,
        request_id: u64,
        text: String,
        file_ids: Vec<String>,
        action: Option<Vec<String>>,
    ) -> Result<Outcome, RequestError> {
        if text.trim().is_empty() && file_ids.is_empty() {
            return Err(RequestError::Empty);
        }
        if let Some(t) = &self.turn {
            return Err(RequestError::Busy(t.request_id));
        }
        // The first message is what stores a reserved session.
        self.ensure_session().await?;
        let kind = match action {
            Some(argv) => crate::turn::TurnKind::Propose(argv),
            None => crate::turn::TurnKind::Ask,
        };
        self.start_turn(request_id, text, file_ids, kind);
        Ok(Outcome::TurnStarted)
    }

    async fn clear_history(&self) -> Result<usize, StoreError> {
        let id = self.session_id.clone();
        self.ctx.store.run(move |s| s.clear_history(&id)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_dialects_make_the_same_requests() {
        let legacy = |m: Message| Request::from_legacy(m).expect("a shared request");
        let ext = |m: Message| Request::from_extension(m).expect("a shared request").1;
        assert_eq!(
            legacy(Message::ClearRequest(protocol::Empty)),
            ext(Message::ClearHistory(protocol::Req { request_id: 3 }))
        );
        assert_eq!(
            legacy(Message::SessionSwitch(protocol::SessionRef {
                session_id: "ab1".into()
            })),
            ext(Message::SessionCmd(protocol::SessionCmd {
                request_id: 4,
                op: SessionOp::Switch { id: "ab1".into() },
            }))
        );
        assert_eq!(
            legacy(Message::SessionNew(protocol::Empty)),
            Request::Session(SessionOp::New { name: None })
        );
        assert_eq!(
            Request::from_extension(Message::HistoryGet(protocol::HistoryGet {
                request_id: 9,
                limit: None,
            }))
            .ok(),
            Some((9, Request::History { limit: 200 }))
        );
        assert_eq!(
            legacy(Message::HistoryRequest(protocol::Empty)),
            Request::History { limit: 50 }
        );
        // Transport frames are not requests of this kind.
        assert!(
            Request::from_legacy(Message::ClientUdpPort(protocol::UdpPort { udp_port: 9 }))
                .is_err()
        );
        assert!(Request::from_extension(Message::Heartbeat(protocol::Empty)).is_err());
    }
}
