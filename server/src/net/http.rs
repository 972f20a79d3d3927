//! Minimal HTTP/1.1 endpoint (loopback by default): `GET /api/health`, `GET /metrics`
//! (Prometheus text) and `GET /api/files/download/{token}` (one-time URL of an offer
//! accepted in `http` mode, streamed from disk). One request per connection (no
//! keep-alive), head size and read time limited; anything else gets 400/404/405. Never
//! panics on garbage. Admission is the NPLT one's (`net/admission.rs`): a newcomer over a
//! limit takes the place of the longest-waiting socket whose request head has not arrived
//! (a slowloris), never of a download in progress; refused ones get 503 with Retry-After.

use std::net::SocketAddr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::admission::{Admission, Busy, Limits, Phase, Refusal, Slot};
use crate::app::Ctx;
use crate::peer::Peer;
use crate::transfer::GrantKind;

/// Largest request head (request line + headers) we read.
const MAX_HEAD: usize = 8 * 1024;
/// Time a client gets to send its request head.
const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// A stalled reader of a download is dropped after this long without progress.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);
/// Concurrent HTTP connections; more are closed at once.
const MAX_CONNS: usize = 64;
/// Concurrent HTTP connections from one peer address, so idle sockets from one address
/// cannot keep `/api/health` and download URLs from everyone else.
const MAX_CONNS_PER_IP: usize = 16;

/// Host part for URLs naming `addr`: an unspecified bind address is shown as loopback
/// (the URL is meant for a client on this box unless `--http-listen` names an address).
pub fn url_host(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        std::net::IpAddr::V4(v) if v.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(v) if v.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    SocketAddr::new(ip, addr.port()).to_string()
}

/// Refusals (503) being written at once; beyond this an over-limit socket is closed.
const MAX_REFUSALS: usize = 16;

pub async fn serve(ctx: Arc<Ctx>, listener: TcpListener) {
    let admission = Admission::new(Limits {
        total: MAX_CONNS,
        per_address: MAX_CONNS_PER_IP,
        per_user: MAX_CONNS_PER_IP,
        opening: None,
        closing: MAX_CONNS,
    });
    let refusals = Arc::new(Semaphore::new(MAX_REFUSALS));
    while let Some((stream, peer)) = super::accept::accept_next(&ctx, &listener, "http").await {
        match admission.admit(Peer::Tcp(peer).key()) {
            Ok(slot) => {
                let c = ctx.clone();
                ctx.tracker.spawn(async move {
                    if let Err(e) = handle(&c, stream, &slot).await {
                        tracing::debug!(%peer, "http: {e}");
                    }
                    drop(slot);
                });
            }
            Err(r) => {
                tracing::debug!(%peer, limit = r.limit_word(), "http: connection refused");
                if let Ok(p) = refusals.clone().try_acquire_owned() {
                    tokio::spawn(async move {
                        let mut stream = stream;
                        let _ = refuse(&mut stream, r).await;
                        drop(p);
                    });
                }
            }
        }
    }
}

/// 503 with `Retry-After` and which limit, to a socket refused or evicted.
async fn refuse(stream: &mut TcpStream, r: Refusal) -> std::io::Result<()> {
    let secs = r.retry_secs.max(1);
    let body = serde_json::json!({
        "error": "503 Service Unavailable",
        "limit": r.limit_word(),
        "max": r.n,
        "retry_after_secs": secs,
    })
    .to_string();
    let extra = [("Retry-After", secs.to_string())];
    let write = respond(
        stream,
        "503 Service Unavailable",
        "application/json",
        &extra,
        body.as_bytes(),
    );
    // A slow peer does not hold the refusal either.
    tokio::time::timeout(Duration::from_secs(2), write)
        .await
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))?
}

/// A parsed request line.
#[derive(Debug, PartialEq, Eq)]
struct Request {
    method: String,
    path: String,
}

#[derive(Debug, PartialEq, Eq)]
enum HeadError {
    TooLarge,
    Malformed,
}

/// Parses the request head (bytes up to and including the blank line).
fn parse_head(head: &[u8]) -> Result<Request, HeadError> {
    let text = std::str::from_utf8(head).map_err(|_| HeadError::Malformed)?;
    let mut lines = text.split("\r\n");
    let first = lines.next().ok_or(HeadError::Malformed)?;
    let mut parts = first.split(' ');
    let (Some(method), Some(target), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(HeadError::Malformed);
    };
    if !matches!(version, "HTTP/1.1" | "HTTP/1.0")
        || method.is_empty()
        || !method.bytes().all(|b| b.is_ascii_uppercase())
        || !target.starts_with('/')
    {
        return Err(HeadError::Malformed);
    }
    for l in lines {
        if l.is_empty() {
            break;
        }
        if !l.contains(':') || l.bytes().any(|b| b.is_ascii_control() && b != b'\t') {
            return Err(HeadError::Malformed);
        }
    }
    let path = target
        .split(['?', '#'])
        .next()
        .unwrap_or(target)
        .to_string();
    Ok(Request {
        method: method.to_string(),
        path,
    })
}

/// The start of a `Range: bytes=N-` header (a resumed download), if the head has exactly
/// that form. Other range forms (`bytes=a-b`, suffixes, several ranges) are ignored, as
/// RFC 9110 allows: the whole file is sent with 200.
fn range_start(head: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(head).ok()?;
    let mut found = None;
    for l in text.split("\r\n").skip(1) {
        let Some((k, v)) = l.split_once(':') else {
            continue;
        };
        if !k.trim().eq_ignore_ascii_case("range") {
            continue;
        }
        if found.is_some() {
            return None;
        }
        let n = v.trim().strip_prefix("bytes=")?.strip_suffix('-')?;
        if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        found = Some(n.parse().ok()?);
    }
    found
}

/// Reads the request head within the size and time limits.
async fn read_head(stream: &mut TcpStream) -> Result<Vec<u8>, HeadError> {
    let mut buf = Vec::with_capacity(1024);
    let mut tmp = [0u8; 1024];
    let read = async {
        loop {
            if let Some(end) = find_blank_line(&buf) {
                buf.truncate(end);
                return Ok(());
            }
            if buf.len() > MAX_HEAD {
                return Err(HeadError::TooLarge);
            }
            match stream.read(&mut tmp).await {
                Ok(0) | Err(_) => return Err(HeadError::Malformed),
                Ok(n) => buf.extend_from_slice(&tmp[..n]),
            }
        }
    };
    tokio::time::timeout(HEAD_TIMEOUT, read)
        .await
        .map_err(|_| HeadError::Malformed)??;
    Ok(buf)
}

fn find_blank_line(b: &[u8]) -> Option<usize> {
    b.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
}

async fn respond(
    stream: &mut TcpStream,
    status: &str,
    ctype: &str,
    extra: &[(&str, String)],
    body: &[u8],
) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nConnection: close\r\nCache-Control: no-store\r\n",
        body.len()
    );
    for (k, v) in extra {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    tokio::time::timeout(WRITE_TIMEOUT, stream.write_all(&out))
        .await
        .map_err(|_| std::io::Error::from(std::io::ErrorKind::TimedOut))??;
    let _ = stream.shutdown().await;
    Ok(())
}

async fn error(
    stream: &mut TcpStream,
    status: &str,
    extra: &[(&str, String)],
) -> std::io::Result<()> {
    let body = format!("{{\"error\":\"{status}\"}}\n");
    respond(stream, status, "application/json", extra, body.as_bytes()).await
}

async fn handle(ctx: &Arc<Ctx>, mut stream: TcpStream, slot: &Slot) -> std::io::Result<()> {
    // Until its head is in, the socket is the first to make room for a newcomer. A head
    // already in wins over an eviction signalled at the same moment (`biased`), so a
    // prompt request is never refused for a flood that arrived behind it.
    let head = tokio::select! {
        biased;
        h = read_head(&mut stream) => h,
        why = slot.evicted() => {
            let r = Refusal { retry_secs: 1, ..why };
            return refuse(&mut stream, r).await;
        }
    };
    slot.set_phase(Phase::Active);
    slot.set_busy(Busy::Now);
    let (req, range) = match head {
        Ok(h) => (parse_head(&h), range_start(&h)),
        Err(e) => (Err(e), None),
    };
    let req = match req {
        Ok(r) => r,
        Err(HeadError::TooLarge) => {
            return error(&mut stream, "431 Request Header Fields Too Large", &[]).await
        }
        Err(HeadError::Malformed) => return error(&mut stream, "400 Bad Request", &[]).await,
    };
    let route = match req.path.as_str() {
        "/api/health" => Route::Health,
        "/metrics" => Route::Metrics,
        p => match p.strip_prefix("/api/files/download/") {
            Some(tok) if !tok.is_empty() && !tok.contains('/') => Route::Download(tok.to_string()),
            _ => return error(&mut stream, "404 Not Found", &[]).await,
        },
    };
    if req.method != "GET" {
        return error(
            &mut stream,
            "405 Method Not Allowed",
            &[("Allow", "GET".into())],
        )
        .await;
    }
    match route {
        Route::Health => {
            let body = health(ctx).to_string();
            respond(
                &mut stream,
                "200 OK",
                "application/json",
                &[],
                body.as_bytes(),
            )
            .await
        }
        Route::Metrics => {
            let body = metrics(ctx).await;
            respond(
                &mut stream,
                "200 OK",
                "text/plain; version=0.0.4; charset=utf-8",
                &[],
                body.as_bytes(),
            )
            .await
        }
        Route::Download(tok) => download(ctx, &mut stream, &tok, range.unwrap_or(0)).await,
    }
}

enum Route {
    Health,
    Metrics,
    Download(String),
}

fn health(ctx: &Ctx) -> serde_json::Value {
    let t = &ctx.transfers;
    serde_json::json!({
        "status": "ok",
        "version": env!("CARGO_PKG_VERSION"),
        "uptime_secs": ctx.started.elapsed().as_secs(),
        "connections": ctx.connections.load(Ordering::Relaxed),
        "rdt_addr": t.rdt_addr.get().map(|a| a.to_string()),
        "transfers_active": t.metrics.rdt.active.load(Ordering::Relaxed)
            + t.metrics.http.active.load(Ordering::Relaxed),
    })
}

/// Offers per state, read through a separate read-only connection (WAL readers never
/// block the writer).
fn offer_counts(db: &std::path::Path) -> Vec<(String, u64)> {
    let flags =
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let Ok(c) = rusqlite::Connection::open_with_flags(db, flags) else {
        return vec![];
    };
    let Ok(mut st) = c.prepare("SELECT state, COUNT(*) FROM offers GROUP BY state") else {
        return vec![];
    };
    let rows = st.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)));
    match rows {
        Ok(rows) => rows
            .filter_map(Result::ok)
            .map(|(s, n)| (s, n.max(0) as u64))
            .collect(),
        Err(_) => vec![],
    }
}

async fn metrics(ctx: &Ctx) -> String {
    use std::fmt::Write as _;
    let db = ctx.cfg.db_path();
    let offers = tokio::task::spawn_blocking(move || offer_counts(&db))
        .await
        .unwrap_or_default();
    let m = &ctx.transfers.metrics;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "# HELP llmops_connections Open NPLT connections.\n# TYPE llmops_connections gauge"
    );
    let _ = writeln!(
        s,
        "llmops_connections {}",
        ctx.connections.load(Ordering::Relaxed)
    );
    transfer_metrics(&mut s, m);
    rdt_metrics(&mut s, m);
    offer_metrics(&mut s, &offers);
    s
}

/// The per-mode transfer gauges and counters (RDT, HTTP, NPLT).
fn transfer_metrics(s: &mut String, m: &crate::transfer::grants::Metrics) {
    use crate::store::TransferMode;
    use std::fmt::Write as _;
    let modes = [
        (TransferMode::Rdt.as_str(), &m.rdt),
        (TransferMode::Http.as_str(), &m.http),
        (TransferMode::Nplt.as_str(), &m.nplt),
    ];
    for (name, help, kind, get) in [
        (
            "llmops_transfers_active",
            "Transfers in progress.",
            "gauge",
            0,
        ),
        (
            "llmops_transfers_completed_total",
            "Transfers completed.",
            "counter",
            1,
        ),
        (
            "llmops_transfers_failed_total",
            "Transfers failed or cancelled.",
            "counter",
            2,
        ),
        (
            "llmops_transfer_bytes_sent_total",
            "Payload bytes sent, retransmissions included.",
            "counter",
            3,
        ),
    ] {
        let _ = writeln!(s, "# HELP {name} {help}\n# TYPE {name} {kind}");
        for (mode, c) in modes {
            let v = match get {
                0 => &c.active,
                1 => &c.completed,
                2 => &c.failed,
                _ => &c.bytes_sent,
            };
            let _ = writeln!(s, "{name}{{mode=\"{mode}\"}} {}", v.load(Ordering::Relaxed));
        }
    }
}

/// The RDT counters that belong to no one mode.
fn rdt_metrics(s: &mut String, m: &crate::transfer::grants::Metrics) {
    use std::fmt::Write as _;
    for (name, help, v) in [
        (
            "llmops_rdt_retransmissions_total",
            "RDT data packets sent more than once.",
            &m.retransmissions,
        ),
        (
            "llmops_rdt_bad_tokens_total",
            "RDT requests with an unknown, used or expired token.",
            &m.bad_tokens,
        ),
        (
            "llmops_rdt_stray_datagrams_total",
            "Datagrams that belonged to no transfer.",
            &m.stray_datagrams,
        ),
    ] {
        let _ = writeln!(
            s,
            "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}",
            v.load(Ordering::Relaxed)
        );
    }
}

/// Download offers by state (`offers`: count per state name).
fn offer_metrics(s: &mut String, offers: &[(String, u64)]) {
    use std::fmt::Write as _;
    let _ = writeln!(
        s,
        "# HELP llmops_offers Download offers by state.\n# TYPE llmops_offers gauge"
    );
    for state in crate::store::OfferState::ALL.iter().map(|s| s.as_str()) {
        let n = offers
            .iter()
            .find(|(s, _)| s == state)
            .map(|(_, n)| *n)
            .unwrap_or(0);
        let _ = writeln!(s, "llmops_offers{{state=\"{state}\"}} {n}");
    }
}

/// Streams the file of a one-time download URL, from byte `from` for a resumed download
/// (`Range: bytes=N-`). Each OFFER_ACCEPT issues a fresh grant, so a resume accepts the
/// offer again and gets a new URL; a URL is still good for one request only.
async fn download(
    ctx: &Arc<Ctx>,
    stream: &mut TcpStream,
    token_hex: &str,
    from: u64,
) -> std::io::Result<()> {
    let grant = hex::decode(token_hex).ok().and_then(|t| {
        ctx.transfers
            .redeem(GrantKind::Http, &t, Instant::now())
            .ok()
    });
    let Some(g) = grant else {
        ctx.transfers
            .metrics
            .bad_tokens
            .fetch_add(1, Ordering::Relaxed);
        return error(stream, "404 Not Found", &[]).await;
    };
    let m = &ctx.transfers.metrics.http;
    m.active.fetch_add(1, Ordering::Relaxed);
    let result = send_file(stream, &g, from).await;
    m.active.fetch_sub(1, Ordering::Relaxed);
    let (ok, sent, err) = match result {
        Ok(n) => (true, n, None),
        Err((n, e)) => (false, n, Some(e)),
    };
    // The outcome counts the bytes the client holds (the resumed prefix too).
    m.bytes_sent
        .fetch_add(sent.saturating_sub(from), Ordering::Relaxed);
    if ok {
        m.completed.fetch_add(1, Ordering::Relaxed);
    } else {
        m.failed.fetch_add(1, Ordering::Relaxed);
    }
    ctx.offers.finish(&ctx.transfers, &g, ok, sent, err).await;
    Ok(())
}

/// Sends the file from `from` (0: all of it, 200; else 206 with `Content-Range`); returns
/// the end offset reached (`from` + bytes sent).
async fn send_file(
    stream: &mut TcpStream,
    g: &crate::transfer::Grant,
    from: u64,
) -> Result<u64, (u64, String)> {
    use tokio::io::AsyncSeekExt;
    let o = &g.offer;
    let mut file = match tokio::fs::File::open(&o.file_path).await {
        Ok(f) => f,
        Err(e) => {
            let _ = error(stream, "410 Gone", &[]).await;
            return Err((0, format!("无法打开文件 / cannot open: {e}")));
        }
    };
    let len = file.metadata().await.map(|m| m.len()).unwrap_or(u64::MAX);
    if len != o.size {
        let _ = error(stream, "410 Gone", &[]).await;
        return Err((
            0,
            "文件在提供下载后被修改 / file changed since the offer".into(),
        ));
    }
    let ascii_name = ascii_filename(&o.filename);
    if from > 0 && from >= o.size {
        let _ = error(
            stream,
            "416 Range Not Satisfiable",
            &[("Content-Range", format!("bytes */{}", o.size))],
        )
        .await;
        return Err((
            from,
            format!(
                "续传起点超出文件 / resume offset {from} is not below the size {}",
                o.size
            ),
        ));
    }
    let status = if from > 0 {
        file.seek(std::io::SeekFrom::Start(from))
            .await
            .map_err(|e| (from, e.to_string()))?;
        format!(
            "206 Partial Content\r\nContent-Range: bytes {from}-{}/{}",
            o.size - 1,
            o.size
        )
    } else {
        "200 OK".to_string()
    };
    // X-Checksum-Sha256 is always the whole file's: the client verifies the whole file.
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\nX-Checksum-Sha256: {}\r\nContent-Disposition: attachment; filename=\"{ascii_name}\"\r\nConnection: close\r\nCache-Control: no-store\r\n\r\n",
        o.size - from,
        o.sha256
    );
    let io = |e: std::io::Error| e.to_string();
    tokio::time::timeout(WRITE_TIMEOUT, stream.write_all(head.as_bytes()))
        .await
        .map_err(|_| (0, "写超时 / write timeout".to_string()))?
        .map_err(|e| (0, io(e)))?;
    stream_body(stream, g, file, from).await
}

/// The file's name for `Content-Disposition`: quotes and non-ASCII would need RFC 6266
/// encoding, so they become `_`.
fn ascii_filename(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Sends the body (the file from `from`, already positioned there) and closes the stream;
/// returns the end offset reached, an error when the file shrank meanwhile.
async fn stream_body(
    stream: &mut TcpStream,
    g: &crate::transfer::Grant,
    file: tokio::fs::File,
    from: u64,
) -> Result<u64, (u64, String)> {
    let o = &g.offer;
    let io = |e: std::io::Error| e.to_string();
    let mut reader = tokio::io::BufReader::with_capacity(256 * 1024, file.take(o.size - from));
    let mut buf = vec![0u8; 256 * 1024];
    let mut sent = from;
    loop {
        if g.cancel.is_cancelled() {
            return Err((sent, "已取消 / cancelled".into()));
        }
        let n = reader.read(&mut buf).await.map_err(|e| (sent, io(e)))?;
        if n == 0 {
            break;
        }
        tokio::time::timeout(WRITE_TIMEOUT, stream.write_all(&buf[..n]))
            .await
            .map_err(|_| (sent, "写超时 / write timeout".to_string()))?
            .map_err(|e| (sent, io(e)))?;
        sent += n as u64;
    }
    let _ = stream.shutdown().await;
    if sent != o.size {
        return Err((sent, "文件变短了 / file shrank while sending".into()));
    }
    Ok(sent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_heads_are_parsed_strictly() {
        let r = parse_head(b"GET /api/health?x=1 HTTP/1.1\r\nHost: a\r\n\r\n").expect("ok");
        assert_eq!(
            r,
            Request {
                method: "GET".into(),
                path: "/api/health".into()
            }
        );
        for bad in [
            &b"GET /x\r\n\r\n"[..],
            b"GET x HTTP/1.1\r\n\r\n",
            b"get /x HTTP/1.1\r\n\r\n",
            b"GET /x HTTP/2\r\n\r\n",
            b"GET /x HTTP/1.1 extra\r\n\r\n",
            b"GET /x HTTP/1.1\r\nno colon\r\n\r\n",
            b"\xff\xfe\r\n\r\n",
            b"",
        ] {
            assert!(parse_head(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn only_an_open_ended_byte_range_resumes() {
        let head = |r: &str| format!("GET /x HTTP/1.1\r\nHost: a\r\n{r}\r\n");
        assert_eq!(
            range_start(head("Range: bytes=1048576-\r\n").as_bytes()),
            Some(1_048_576)
        );
        assert_eq!(range_start(head("range:bytes=0-\r\n").as_bytes()), Some(0));
        assert_eq!(range_start(head("").as_bytes()), None);
        for ignored in [
            "Range: bytes=0-99\r\n",
            "Range: bytes=-500\r\n",
            "Range: bytes=1-,5-\r\n",
            "Range: items=5-\r\n",
            "Range: bytes=+5-\r\n",
            "Range: bytes=5-\r\nRange: bytes=6-\r\n",
            "Range: bytes=99999999999999999999999-\r\n",
        ] {
            assert_eq!(range_start(head(ignored).as_bytes()), None, "{ignored}");
        }
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..2000 {
            let n = rng.gen_range(0..200);
            let mut v: Vec<u8> = (0..n).map(|_| rng.gen()).collect();
            if rng.gen_bool(0.5) {
                v.splice(0..0, b"GET /".iter().copied());
            }
            let _ = parse_head(&v);
        }
    }

    #[test]
    fn url_host_replaces_unspecified() {
        assert_eq!(
            url_host("0.0.0.0:80".parse().expect("addr")),
            "127.0.0.1:80"
        );
        assert_eq!(
            url_host("10.0.0.1:80".parse().expect("addr")),
            "10.0.0.1:80"
        );
    }
}
