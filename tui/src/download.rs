//! Receiving a download: asks for an offer, accepts it, writes the data to a temp file in
//! the destination folder while hashing, verifies size and sha256 against the offer and
//! renames into place only then. Reports completion to the server either way.

use std::path::{Path, PathBuf};
use std::time::Duration;

use protocol::{DownloadRequest, Message, Offer, OfferAccept, TransferComplete};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

use crate::client::{Client, ClientError, ClientEvent};

#[derive(Debug, Clone, serde::Serialize)]
pub struct Downloaded {
    pub offer_id: String,
    pub path: PathBuf,
    pub size: u64,
    pub sha256: String,
    pub mode: String,
}

/// Only a plain final component is acceptable as a local file name.
pub fn safe_filename(name: &str) -> Result<String, ClientError> {
    let ok = !name.is_empty()
        && name != "."
        && name != ".."
        && !name.contains(['/', '\\', '\0'])
        && !name.chars().any(char::is_control);
    if ok {
        Ok(name.to_string())
    } else {
        Err(ClientError::Protocol(format!(
            "服务器给出的文件名不安全 / unsafe file name from server: {name:?}"
        )))
    }
}

/// Asks the server for an offer of `target` (an upload id or a path).
pub async fn request_offer(client: &Client, target: &str, mode: &str) -> Result<Offer, ClientError> {
    let reply = client
        .request(
            |id| {
                Message::DownloadRequest(DownloadRequest {
                    request_id: id,
                    target: target.to_string(),
                    mode: mode.to_string(),
                })
            },
            Duration::from_secs(60),
        )
        .await?;
    match reply {
        Message::Offer(o) => Ok(o),
        other => Err(ClientError::Protocol(format!(
            "unexpected reply {:?}",
            other.msg_type()
        ))),
    }
}

/// Accepts `offer` and receives it into `out_dir`. `progress` sees each progress report.
pub async fn receive(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    mode: &str,
    out_dir: &Path,
    overwrite: bool,
    mut progress: impl FnMut(u64, u64),
) -> Result<Downloaded, ClientError> {
    let name = safe_filename(&offer.filename)?;
    let dest = out_dir.join(&name);
    if dest.exists() && !overwrite {
        return Err(ClientError::Protocol(format!(
            "目标文件已存在 / {} exists (use --force to overwrite)",
            dest.display()
        )));
    }
    let tmp = out_dir.join(format!(".{name}.{}.part", offer.offer_id));
    let res = receive_into(client, events, offer, mode, &tmp, &mut progress).await;
    let report = |ok: bool, bytes: u64, sha: String, error: Option<String>| {
        Message::TransferComplete(TransferComplete {
            offer_id: offer.offer_id.clone(),
            ok,
            bytes,
            sha256: sha,
            side: "client".into(),
            error,
        })
    };
    match res {
        Ok((bytes, sha, used_mode)) => {
            tokio::fs::rename(&tmp, &dest).await?;
            let _ = client.send(report(true, bytes, sha.clone(), None)).await;
            Ok(Downloaded {
                offer_id: offer.offer_id.clone(),
                path: dest,
                size: bytes,
                sha256: sha,
                mode: used_mode,
            })
        }
        Err(e) => {
            let _ = tokio::fs::remove_file(&tmp).await;
            let _ = client
                .send(report(false, 0, String::new(), Some(e.to_string())))
                .await;
            Err(e)
        }
    }
}

async fn receive_into(
    client: &Client,
    events: &mut mpsc::UnboundedReceiver<ClientEvent>,
    offer: &Offer,
    mode: &str,
    tmp: &Path,
    progress: &mut impl FnMut(u64, u64),
) -> Result<(u64, String, String), ClientError> {
    client
        .send(Message::OfferAccept(OfferAccept {
            offer_id: offer.offer_id.clone(),
            mode: mode.to_string(),
            resume_from: 0,
        }))
        .await?;
    let mut file: Option<tokio::fs::File> = None;
    let mut hasher = Sha256::new();
    let mut got = 0u64;
    let mut used_mode = String::new();
    loop {
        let ev = tokio::time::timeout(Duration::from_secs(60), events.recv())
            .await
            .map_err(|_| ClientError::Timeout)?
            .ok_or(ClientError::Disconnected)?;
        let ClientEvent::Message(m) = ev else {
            if let ClientEvent::Reconnecting { .. } = ev {
                return Err(ClientError::Disconnected);
            }
            continue;
        };
        match m {
            Message::TransferStart(s) if s.offer_id == offer.offer_id => {
                if s.mode != "nplt" {
                    return Err(ClientError::Protocol(format!(
                        "transfer mode {} is not supported by this client yet",
                        s.mode
                    )));
                }
                used_mode = s.mode;
                file = Some(tokio::fs::File::create(tmp).await?);
            }
            Message::TransferData(d) => {
                let f = file.as_mut().ok_or_else(|| {
                    ClientError::Protocol("data before TRANSFER_START".into())
                })?;
                got += d.0.len() as u64;
                if got > offer.size {
                    return Err(ClientError::Protocol(format!(
                        "收到的数据超过文件大小 / more data than the offered {} bytes",
                        offer.size
                    )));
                }
                hasher.update(&d.0);
                f.write_all(&d.0).await?;
            }
            Message::TransferProgress(p) if p.offer_id == offer.offer_id => {
                progress(p.bytes, p.total)
            }
            Message::TransferComplete(c) if c.offer_id == offer.offer_id => {
                if !c.ok {
                    return Err(ClientError::Server {
                        code: "transfer_failed".into(),
                        message: c.error.unwrap_or_else(|| "transfer failed".into()),
                    });
                }
                let Some(mut f) = file.take() else {
                    return Err(ClientError::Protocol("completion before data".into()));
                };
                f.flush().await?;
                f.sync_all().await?;
                let sha = hex::encode(hasher.finalize());
                if got != offer.size || sha != offer.sha256 {
                    return Err(ClientError::Protocol(format!(
                        "校验失败 / verification failed: {got} bytes sha256 {sha}, offer said {} bytes sha256 {}",
                        offer.size, offer.sha256
                    )));
                }
                progress(got, offer.size);
                return Ok((got, sha, used_mode));
            }
            Message::Error(e) => {
                return Err(ClientError::Server {
                    code: e.code,
                    message: e.message,
                })
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_names_are_sanitised() {
        assert!(safe_filename("config.yaml").is_ok());
        assert!(safe_filename("性能报告.md").is_ok());
        for bad in ["", ".", "..", "../x", "a/b", "a\\b", "a\0", "a\nb"] {
            assert!(safe_filename(bad).is_err(), "{bad:?}");
        }
    }
}
