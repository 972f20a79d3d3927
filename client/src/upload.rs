//! Uploads that survive a lost connection without duplicating: before a retry the client
//! asks the server (UPLOAD_LOOKUP) whether the file landed in its session, and sends it
//! again only when it did not.

use std::future::Future;
use std::path::Path;
use std::time::Duration;

use protocol::{FileInfo, Message, UploadLookup, UploadLookupReply};

use crate::connection::{sha256_file, Client, ClientError, UploadMode};

/// The WELCOME feature a server that answers UPLOAD_LOOKUP announces.
pub const LOOKUP_FEATURE: &str = "upload_lookup";

/// How an upload is retried after a lost connection.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Upload attempts in all (1: no retry).
    pub attempts: u32,
    /// How long to keep reconnecting after a loss (a restarting server needs a few seconds).
    pub reconnect_for: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            attempts: 3,
            reconnect_for: Duration::from_secs(30),
        }
    }
}

/// How an upload ended.
#[derive(Debug, Clone)]
pub struct Uploaded {
    pub file: FileInfo,
    /// Attempts made (1 when nothing was lost).
    pub attempts: u32,
    /// The file was found by UPLOAD_LOOKUP after a lost connection, not sent again.
    pub found_after_loss: bool,
}

impl Client {
    /// UPLOAD_LOOKUP: this session's uploads with `sha256`, oldest first (and how many the
    /// server is still receiving); `None` when the server does not answer lookups (it does
    /// not announce [`LOOKUP_FEATURE`]).
    pub async fn upload_lookup(
        &self,
        sha256: &str,
    ) -> Result<Option<UploadLookupReply>, ClientError> {
        if !self.welcome().features.iter().any(|f| f == LOOKUP_FEATURE) {
            return Ok(None);
        }
        let sha = sha256.to_string();
        let reply = self
            .request(
                |id| {
                    Message::UploadLookup(UploadLookup {
                        request_id: id,
                        sha256: sha,
                    })
                },
                Duration::from_secs(30),
            )
            .await?;
        match reply {
            Message::UploadLookupReply(r) => Ok(Some(r)),
            other => Err(ClientError::Protocol(format!(
                "unexpected reply {:?} to UPLOAD_LOOKUP",
                other.msg_type()
            ))),
        }
    }
}

impl Client {
    /// Waits until the server has indexed upload `file_id` (any state past `saved`:
    /// searchable, or `failed` with its reason), polling FILE_LIST; gives the file's info.
    /// An upload's result comes as soon as the file is durable, before indexing: a script
    /// that searches right after uploading waits here first.
    pub async fn wait_indexed(
        &self,
        file_id: &str,
        timeout: Duration,
    ) -> Result<FileInfo, ClientError> {
        let deadline = tokio::time::Instant::now() + timeout;
        let mut pause = Duration::from_millis(20);
        loop {
            let reply = self
                .request(
                    |id| Message::FileList(protocol::Req { request_id: id }),
                    Duration::from_secs(30),
                )
                .await?;
            let Message::FileListReply(r) = reply else {
                return Err(ClientError::Protocol(format!(
                    "unexpected reply {:?} to FILE_LIST",
                    reply.msg_type()
                )));
            };
            let Some(f) = r.files.into_iter().find(|f| f.file_id == file_id) else {
                return Err(ClientError::Server {
                    code: "not_found".into(),
                    message: format!(
                        "上传的文件已不在会话中 / upload {file_id} is no longer in this session"
                    ),
                });
            };
            if !matches!(f.state.as_str(), "saved" | "receiving") {
                return Ok(f);
            }
            if tokio::time::Instant::now() + pause > deadline {
                return Err(ClientError::Timeout);
            }
            tokio::time::sleep(pause).await;
            pause = (pause * 2).min(Duration::from_millis(500));
        }
    }
}

/// Uploads `path` on `client`; when the connection is lost it reconnects with
/// `reconnect(session_id)` (which must resume that session), asks whether the file landed
/// and sends it again only if it did not, up to `policy.attempts` times. Returns the client
/// to go on with (a new one after a loss).
///
/// A file already uploaded to the session before (same content) is told apart from this
/// upload by the lookup taken before the first attempt. A server without UPLOAD_LOOKUP
/// gets no retry: the loss is returned, since a retry could duplicate the file.
pub async fn upload_retrying<R, F>(
    mut client: Client,
    path: &Path,
    mode: UploadMode,
    policy: RetryPolicy,
    mut reconnect: R,
) -> (Client, Result<Uploaded, ClientError>)
where
    R: FnMut(String) -> F,
    F: Future<Output = Result<Client, ClientError>>,
{
    let before = match sha_and_lookup(&client, path).await {
        Ok(b) => b,
        Err(e) => return (client, Err(e)),
    };
    let mut attempts = 1;
    loop {
        let err = match client.upload_with(path, mode, &mut |_, _| {}).await {
            Ok(file) => {
                let up = Uploaded {
                    file,
                    attempts,
                    found_after_loss: false,
                };
                return (client, Ok(up));
            }
            Err(e) => e,
        };
        let Some((sha, before)) = before.as_ref() else {
            return (client, Err(err));
        };
        let session = client.session_id();
        if !matches!(err, ClientError::Disconnected) || attempts >= policy.attempts {
            return (client, Err(err));
        }
        if session.is_empty() {
            return (client, Err(err));
        }
        tracing::info!(%session, attempts, "connection lost during an upload; reconnecting");
        client = match reconnect_until(&mut reconnect, &session, policy.reconnect_for).await {
            Ok(c) => c,
            Err(e) => return (client, Err(e)),
        };
        if client.session_id() != session {
            let e = ClientError::Protocol(format!(
                "会话 {session} 无法恢复，未重新上传 / session {session} could not be resumed; not uploading again"
            ));
            return (client, Err(e));
        }
        match client.upload_lookup(sha).await {
            Ok(Some(now)) => {
                let pending = now.in_flight;
                if let Some(file) = landed(before, now.files) {
                    let up = Uploaded {
                        file,
                        attempts,
                        found_after_loss: true,
                    };
                    return (client, Ok(up));
                }
                if pending > 0 {
                    // The lost attempt may still land: sending again could make two copies.
                    let e = ClientError::Protocol(format!(
                        "服务器仍在接收上次的上传，未重新发送；稍后用 files 查看 / the server is still receiving the lost attempt ({pending} in flight); not sending again, check `files` later"
                    ));
                    return (client, Err(e));
                }
            }
            // The server after the restart no longer answers lookups: do not risk it.
            Ok(None) => return (client, Err(err)),
            Err(e) => return (client, Err(e)),
        }
        attempts += 1;
    }
}

/// How waiting for the index after an upload ended.
#[derive(Debug, Clone)]
pub struct IndexWait {
    /// The file as last seen: indexed (or `failed` with its reason), or as it was saved.
    pub file: FileInfo,
    /// `Some` when the server could not be asked again after a lost connection: the file
    /// landed (it was saved) but its indexing is not confirmed; the server indexes saved
    /// files when it starts.
    pub unconfirmed: Option<Unconfirmed>,
}

/// Why the index of a landed upload could not be confirmed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unconfirmed {
    /// The server did not come back in time: the last reconnect error.
    Unreachable(String),
    /// The server came back but gave a new session, not the upload's.
    SessionNotResumed { asked: String, got: String },
}

impl std::fmt::Display for Unconfirmed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unconfirmed::Unreachable(e) => {
                write!(f, "服务器未恢复 / the server did not come back: {e}")
            }
            Unconfirmed::SessionNotResumed { asked, got } => write!(
                f,
                "会话 {asked} 未恢复 (得到 {got}) / session {asked} was not resumed (got {got})"
            ),
        }
    }
}

/// Waits until the saved upload `saved` is indexed ([`Client::wait_indexed`]); when the
/// connection is lost it reconnects to the session with `reconnect` (up to
/// `policy.reconnect_for`) and waits again. The upload has landed whatever happens next,
/// so a server that does not come back in time gives the file as saved, unconfirmed,
/// never an error that would make a script upload it again.
pub async fn wait_indexed_retrying<R, F>(
    mut client: Client,
    saved: FileInfo,
    timeout: std::time::Duration,
    policy: RetryPolicy,
    mut reconnect: R,
) -> (Client, Result<IndexWait, ClientError>)
where
    R: FnMut(String) -> F,
    F: Future<Output = Result<Client, ClientError>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    let unconfirmed = |f: &FileInfo, why: Unconfirmed| IndexWait {
        file: f.clone(),
        unconfirmed: Some(why),
    };
    loop {
        let left = deadline.saturating_duration_since(tokio::time::Instant::now());
        match client.wait_indexed(&saved.file_id, left).await {
            Ok(file) => {
                let done = IndexWait {
                    file,
                    unconfirmed: None,
                };
                return (client, Ok(done));
            }
            Err(ClientError::Disconnected) => {}
            Err(e) => return (client, Err(e)),
        }
        let session = client.session_id();
        tracing::info!(%session, "connection lost while waiting for the index; reconnecting");
        match reconnect_until(&mut reconnect, &session, policy.reconnect_for).await {
            Ok(c) if c.session_id() == session => client = c,
            // Not resumable or not reachable: the file is saved; indexing is unconfirmed.
            Ok(c) => {
                let why = Unconfirmed::SessionNotResumed {
                    asked: session,
                    got: c.session_id(),
                };
                return (c, Ok(unconfirmed(&saved, why)));
            }
            Err(e) => {
                let why = Unconfirmed::Unreachable(e.to_string());
                return (client, Ok(unconfirmed(&saved, why)));
            }
        }
    }
}

/// The file's sha256 and the session's uploads with it now (`None`: no lookup possible).
async fn sha_and_lookup(
    client: &Client,
    path: &Path,
) -> Result<Option<(String, Vec<FileInfo>)>, ClientError> {
    let sha = sha256_file(path).await?;
    Ok(client.upload_lookup(&sha).await?.map(|r| (sha, r.files)))
}

/// The upload among `now` that was not there `before` (the newest such one).
fn landed(before: &[FileInfo], now: Vec<FileInfo>) -> Option<FileInfo> {
    now.into_iter()
        .rev()
        .find(|f| !before.iter().any(|b| b.file_id == f.file_id))
}

/// Calls `reconnect` with a growing pause (250 ms doubling, at most 2 s) until it succeeds or
/// `limit` has passed; the last error is returned.
async fn reconnect_until<R, F>(
    reconnect: &mut R,
    session: &str,
    limit: Duration,
) -> Result<Client, ClientError>
where
    R: FnMut(String) -> F,
    F: Future<Output = Result<Client, ClientError>>,
{
    let deadline = tokio::time::Instant::now() + limit;
    let mut pause = Duration::from_millis(250);
    loop {
        match reconnect(session.to_string()).await {
            Ok(c) => return Ok(c),
            Err(e) if tokio::time::Instant::now() + pause >= deadline => return Err(e),
            Err(e) => tracing::debug!("reconnect failed: {e}"),
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(2));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(id: &str) -> FileInfo {
        FileInfo {
            file_id: id.into(),
            filename: "a.log".into(),
            size: 3,
            sha256: "ab".into(),
            content_type: "text/plain".into(),
            uploaded_at: "2024-01-01T00:00:00Z".into(),
            state: "saved".into(),
            detail: None,
        }
    }

    #[test]
    fn an_earlier_upload_of_the_same_content_is_not_taken_for_this_one() {
        let before = vec![file("old")];
        assert!(landed(&before, vec![file("old")]).is_none());
        let got = landed(&before, vec![file("old"), file("new")]).expect("landed");
        assert_eq!(got.file_id, "new");
        assert_eq!(
            landed(&[], vec![file("x"), file("y")]).map(|f| f.file_id),
            Some("y".into())
        );
    }
}
