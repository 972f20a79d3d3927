//! `http` mode: a minimal HTTP/1.1 GET of the one-time URL, resumed with `Range: bytes=N-`
//! when a `.part` of the same file is held, streamed to the temp file while hashing the
//! whole file; the length, the `X-Checksum-Sha256` header and the offer must agree.

use std::path::Path;
use std::time::Duration;

use protocol::{Offer, TransferStart};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

use super::stream::{open_part, verified};
use super::{keep_partial, Failure, Received};
use crate::connection::ClientError;

/// What the response head says about the body.
#[derive(Debug, PartialEq, Eq)]
struct Head {
    /// 200 (whole file) or 206 (from `from`).
    from: u64,
    length: Option<u64>,
    checksum: Option<String>,
}

fn parse_head(head: &str, asked_from: u64, size: u64) -> Result<Head, ClientError> {
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap_or_default();
    let code = status.split(' ').nth(1).unwrap_or_default();
    let (mut length, mut checksum, mut range) = (None, None, None);
    for l in lines {
        if let Some((k, v)) = l.split_once(':') {
            let v = v.trim();
            if k.eq_ignore_ascii_case("content-length") {
                length = v.parse::<u64>().ok();
            } else if k.eq_ignore_ascii_case("x-checksum-sha256") {
                checksum = Some(v.to_ascii_lowercase());
            } else if k.eq_ignore_ascii_case("content-range") {
                range = Some(v.to_string());
            }
        }
    }
    let from = match code {
        "200" => 0,
        // Only the range asked for, of this file's size, is acceptable.
        "206"
            if asked_from > 0
                && range.as_deref()
                    == Some(
                        format!("bytes {asked_from}-{}/{size}", size.saturating_sub(1)).as_str(),
                    ) =>
        {
            asked_from
        }
        _ => {
            return Err(ClientError::Server {
                code: "http".into(),
                message: format!("HTTP {}", status.trim()),
            })
        }
    };
    Ok(Head {
        from,
        length,
        checksum,
    })
}

/// Limit on each connect, write and read of the exchange.
const IO_TIMEOUT: Duration = Duration::from_secs(30);

/// GETs the URL of `start` into `tmp`, asking for the bytes from `held` on (the `.part`
/// holds that prefix); a server that answers 200 instead sends the whole file again.
pub(super) async fn http_get(
    start: &TransferStart,
    offer: &Offer,
    tmp: &Path,
    held: u64,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<Received, Failure> {
    // Failures before any byte is written keep what the `.part` held; so do lost
    // connections after.
    let mut s = request(start, held).await?;
    let mut chunk = vec![0u8; 256 * 1024];
    let (buf, head_end) = read_head(&mut s, &mut chunk).await?;
    let from = check_head(&buf[..head_end], held, offer)?;
    // The prefix is hashed from the `.part` (a 200 starts it over).
    let (f, hasher) = open_part(tmp, offer, from).await.map_err(keep_partial)?;
    let mut sink = Sink {
        f,
        hasher,
        got: from,
    };
    sink.write(&buf[head_end..]).await?;
    read_body(&mut s, &mut sink, &mut chunk, offer.size, progress).await?;
    let Sink { mut f, hasher, got } = sink;
    f.flush().await.map_err(|e| keep_partial(e.into()))?;
    f.sync_all().await.map_err(|e| keep_partial(e.into()))?;
    if got < offer.size {
        // A short body is a lost connection, not corrupted data: say so, and keep it.
        return Err(keep_partial(ClientError::Protocol(format!(
            "传输中断 / the HTTP body ended after {got} of {} bytes: server connection lost (the partial file is kept for a resume)",
            offer.size
        ))));
    }
    verified(hasher, got, from, offer, "http", progress)
}

/// Connects to the host of `start`'s URL and sends the GET, with a Range from `held`.
async fn request(start: &TransferStart, held: u64) -> Result<TcpStream, Failure> {
    let proto = |m: String| keep_partial(ClientError::Protocol(m));
    let url = start
        .url
        .as_deref()
        .ok_or_else(|| proto("no url in TRANSFER_START".into()))?;
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| proto(format!("unsupported url {url}")))?;
    let (host, path) = match rest.find('/') {
        Some(i) => (&rest[..i], &rest[i..]),
        None => (rest, "/"),
    };
    let mut s = tokio::time::timeout(IO_TIMEOUT, TcpStream::connect(host))
        .await
        .map_err(|_| keep_partial(ClientError::Timeout))?
        .map_err(|e| keep_partial(e.into()))?;
    let range = if held > 0 {
        format!("Range: bytes={held}-\r\n")
    } else {
        String::new()
    };
    let req = format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: llmops-tui\r\n{range}Connection: close\r\n\r\n");
    s.write_all(req.as_bytes())
        .await
        .map_err(|e| keep_partial(e.into()))?;
    Ok(s)
}

/// Reads the response head (bounded) through `chunk`: what was read, whatever body bytes
/// came with the head included, and where the head ends in it.
async fn read_head(s: &mut TcpStream, chunk: &mut [u8]) -> Result<(Vec<u8>, usize), Failure> {
    let proto = |m: &str| keep_partial(ClientError::Protocol(m.into()));
    let mut buf = Vec::with_capacity(4096);
    loop {
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            return Ok((buf, i + 4));
        }
        if buf.len() > 16 * 1024 {
            return Err(proto("HTTP response head too large"));
        }
        let n = tokio::time::timeout(IO_TIMEOUT, s.read(chunk))
            .await
            .map_err(|_| keep_partial(ClientError::Timeout))?
            .map_err(|e| keep_partial(e.into()))?;
        if n == 0 {
            return Err(proto("HTTP connection closed before the response head"));
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

/// Where the body starts in the file, once the head agrees with the offer.
fn check_head(head: &[u8], held: u64, offer: &Offer) -> Result<u64, Failure> {
    let head = String::from_utf8_lossy(head).into_owned();
    let h = parse_head(&head, held, offer.size).map_err(keep_partial)?;
    if h.length != Some(offer.size - h.from) || h.checksum.as_deref() != Some(offer.sha256.as_str())
    {
        return Err(keep_partial(ClientError::Protocol(format!(
            "HTTP headers disagree with the offer (length {:?}, sha256 {:?})",
            h.length, h.checksum
        ))));
    }
    Ok(h.from)
}

/// The `.part` being written, the hash of everything in it, and its length.
struct Sink {
    f: tokio::fs::File,
    hasher: Sha256,
    got: u64,
}

impl Sink {
    async fn write(&mut self, data: &[u8]) -> Result<(), Failure> {
        self.got += data.len() as u64;
        self.hasher.update(data);
        self.f
            .write_all(data)
            .await
            .map_err(|e| keep_partial(e.into()))
    }
}

/// Streams the rest of the body into `sink` until it holds `size` bytes or the server
/// closes the connection.
async fn read_body(
    s: &mut TcpStream,
    sink: &mut Sink,
    chunk: &mut [u8],
    size: u64,
    progress: &mut (impl FnMut(u64, u64) + Send),
) -> Result<(), Failure> {
    while sink.got < size {
        let n = match tokio::time::timeout(IO_TIMEOUT, s.read(chunk)).await {
            Err(_) => return Err(keep_partial(ClientError::Timeout)),
            Ok(Err(e)) => {
                sink.f.flush().await.map_err(|e| keep_partial(e.into()))?;
                return Err(keep_partial(e.into()));
            }
            Ok(Ok(n)) => n,
        };
        if n == 0 {
            break;
        }
        let n = n.min((size - sink.got) as usize);
        sink.write(&chunk[..n]).await?;
        progress(sink.got, size);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_answer_must_be_the_range_asked_for() {
        let h = |s: &str| format!("HTTP/1.1 {s}\r\nContent-Length: 10\r\n\r\n");
        let ok = parse_head(
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 40-99/100\r\nContent-Length: 60\r\n\r\n",
            40,
            100,
        )
        .expect("206");
        assert_eq!(ok.from, 40);
        assert_eq!(ok.length, Some(60));
        // A server that ignores the range starts over.
        assert_eq!(parse_head(&h("200 OK"), 40, 100).expect("200").from, 0);
        for bad in [
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 41-99/100\r\n\r\n",
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 40-99/101\r\n\r\n",
            "HTTP/1.1 206 Partial Content\r\n\r\n",
        ] {
            assert!(parse_head(bad, 40, 100).is_err(), "{bad}");
        }
        assert!(parse_head(&h("206 Partial Content"), 0, 100).is_err());
        assert!(parse_head(&h("404 Not Found"), 0, 100).is_err());
    }

    /// An HTTP peer that sends the response head and `body` and then closes.
    async fn short_http(size: u64, sha: &str, body: Vec<u8>) -> String {
        use tokio::io::AsyncReadExt;
        let l = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = l.local_addr().expect("addr");
        let sha = sha.to_string();
        tokio::spawn(async move {
            let (mut s, _) = l.accept().await.expect("accept");
            let mut req = [0u8; 1024];
            let _n = s.read(&mut req).await.expect("request");
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Length: {size}\r\nX-Checksum-Sha256: {sha}\r\n\r\n"
            );
            s.write_all(head.as_bytes()).await.expect("head");
            s.write_all(&body).await.expect("body");
        });
        format!("http://{addr}/d/token")
    }

    #[tokio::test]
    async fn a_short_http_body_is_a_lost_connection_not_a_checksum_failure() {
        let full = vec![7u8; 1000];
        let sha = hex::encode(Sha256::digest(&full));
        let offer = Offer {
            offer_id: "o".into(),
            file_id: None,
            filename: "a.bin".into(),
            size: 1000,
            sha256: sha.clone(),
            expires_at: 0,
            request_id: None,
            tool_call: None,
            mode: "http".into(),
        };
        let url = short_http(1000, &sha, full[..400].to_vec()).await;
        let start = TransferStart {
            offer_id: "o".into(),
            mode: "http".into(),
            token: String::new(),
            rdt_addr: None,
            url: Some(url),
            size: 1000,
            sha256: sha,
        };
        let dir = tempfile::tempdir().expect("tempdir");
        let part = dir.path().join("a.part");
        let (err, keep) = http_get(&start, &offer, &part, 0, &mut |_, _| {})
            .await
            .expect_err("a short body fails");
        // Kept for a resume: 400 bytes held.
        assert!(keep);
        assert_eq!(std::fs::metadata(&part).expect("part").len(), 400);
        let text = err.to_string();
        assert!(text.contains("after 400 of 1000 bytes"), "{text}");
        assert!(text.contains("server connection lost"), "{text}");
        assert!(!text.contains("verification failed"), "{text}");
    }
}
