//! The subcommands that ask the server one thing and print its reply: `search`,
//! `reindex`, `files`, `sessions` and `status`.

use std::time::Duration;

use protocol::{Message, Req, SessionCmd, SessionOp};
use serde_json::json;

use super::args::Common;
use crate::client::{Client, ClientError};

/// `search`: the best hits in the shipped docs, doc folders and this session's uploads.
pub(super) async fn search(
    client: &Client,
    common: &Common,
    scope: &str,
    top_k: u32,
    query: &str,
) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::Search(protocol::SearchReq {
                    request_id: id,
                    query: query.to_string(),
                    scope: scope.to_string(),
                    top_k,
                })
            },
            Duration::from_secs(30),
        )
        .await?;
    if let Message::SearchResults(r) = reply {
        if common.json {
            outln!("{}", json!({ "results": r.results }));
        } else if r.results.is_empty() {
            outln!("没有找到相关结果 / no results for {query:?}");
        } else {
            for (i, h) in r.results.iter().enumerate() {
                outln!(
                    "{}. {:.2} [{}] {} ({})\n   {}",
                    i + 1,
                    h.similarity,
                    h.match_type,
                    h.filepath,
                    h.position,
                    h.chunk.replace('\n', " ")
                );
            }
        }
    }
    Ok(0)
}

/// INDEX_RETRY for one failed upload; states then follow in the files pane / `files`.
pub(super) async fn reindex(
    client: &Client,
    common: &Common,
    file_id: &str,
) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::IndexRetry(protocol::FileDelete {
                    request_id: id,
                    file_id: file_id.to_string(),
                })
            },
            Duration::from_secs(30),
        )
        .await?;
    if let Message::Ack(a) = reply {
        if common.json {
            outln!("{}", json!({"file_id": file_id, "message": a.message}));
        } else {
            outln!("{}", a.message);
        }
    }
    Ok(0)
}

/// `files`: this session's uploads with their size, hash prefix and state.
pub(super) async fn files(client: &Client, common: &Common) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| Message::FileList(Req { request_id: id }),
            Duration::from_secs(10),
        )
        .await?;
    if let Message::FileListReply(r) = reply {
        if common.json {
            outln!(
                "{}",
                json!({"session_id": client.session_id(), "files": r.files})
            );
        } else if r.files.is_empty() {
            outln!("本会话还没有上传文件 / no files uploaded in this session");
        } else {
            for f in r.files {
                outln!(
                    "{}  {:>10}  {}  {}  {}",
                    &f.file_id,
                    f.size,
                    &f.sha256[..f.sha256.len().min(12)],
                    f.state,
                    f.filename
                );
            }
        }
    }
    Ok(0)
}

/// `sessions`: every session, the current one marked `*`.
pub(super) async fn sessions(client: &Client, common: &Common) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::SessionCmd(SessionCmd {
                    request_id: id,
                    op: SessionOp::List,
                })
            },
            Duration::from_secs(10),
        )
        .await?;
    if let Message::SessionReply(r) = reply {
        if common.json {
            outln!("{}", json!({"current": r.current, "sessions": r.sessions}));
        } else {
            for s in r.sessions {
                let mark = if s.id == r.current.id { "*" } else { " " };
                outln!(
                    "{mark} {}  {}  ({} messages, {})",
                    s.id,
                    s.name,
                    s.messages,
                    s.updated_at
                );
            }
        }
    }
    Ok(0)
}

/// `status`: the server's version, uptime, connections and index.
pub(super) async fn status(client: &Client, common: &Common) -> Result<u8, ClientError> {
    let reply = client
        .request(
            |id| Message::StatusRequest(Req { request_id: id }),
            Duration::from_secs(10),
        )
        .await?;
    if let Message::ServerStatus(s) = reply {
        if common.json {
            outln!("{}", serde_json::to_string(&s).unwrap_or_default());
        } else {
            outln!(
                "server {} up {}s, {} connections; index: {} files, {} chunks, backlog {}, {}",
                s.server_version,
                s.uptime_secs,
                s.connections,
                s.index.files,
                s.index.chunks,
                s.index.embedding_backlog,
                s.index.mode
            );
        }
    }
    Ok(0)
}
