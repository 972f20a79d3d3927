//! `quic-bench`: the QUIC side of `make bench`'s download comparison. `serve` sends a
//! requested file over one quinn stream (self-signed certificate, its DER written to a file
//! the client trusts); `get` asks for a file, writes it to a temp file in the output folder
//! while hashing, verifies size and sha256 against what the server announced and renames it
//! into place: the same work `llmops-tui download --mode nplt` does, so whole-process wall
//! times are comparable.
//!
//! Wire format on the one bidirectional stream: the client sends the file's path (UTF-8)
//! and finishes its half; the server answers `size: u64 BE`, `sha256: [u8; 32]`, the bytes.
//!
//! Transport settings (everything else is quinn 0.11's default: Cubic congestion control,
//! MTU discovery on, 1200-byte initial MTU, GSO/GRO where the kernel has them): the stream
//! and connection flow-control windows are raised to 16/32 MiB so they never cap goodput
//! below the bandwidth-delay product (quinn's default 1.25 MB stream window would limit a
//! 20 ms RTT path to about 60 MB/s).

use std::io::Write;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{anyhow, bail, Context};
use quinn::crypto::rustls::{QuicClientConfig, QuicServerConfig};
use quinn::{Endpoint, TransportConfig, VarInt};
use sha2::{Digest, Sha256};

const STREAM_WINDOW: u32 = 16 << 20;
const CONN_WINDOW: u32 = 32 << 20;
/// File read / network write unit on the server.
const CHUNK: usize = 1 << 20;

fn usage() -> anyhow::Error {
    anyhow!(
        "用法 / usage:\n  quic-bench serve --listen ADDR --cert-out FILE\n  \
         quic-bench get --server ADDR --cert FILE --out DIR PATH"
    )
}

fn transport() -> Arc<TransportConfig> {
    let mut t = TransportConfig::default();
    t.stream_receive_window(VarInt::from_u32(STREAM_WINDOW))
        .receive_window(VarInt::from_u32(CONN_WINDOW))
        .send_window(u64::from(CONN_WINDOW));
    Arc::new(t)
}

/// `--name value` pairs plus positional arguments.
struct Args {
    flags: Vec<(String, String)>,
    rest: Vec<String>,
}

impl Args {
    fn parse(args: impl Iterator<Item = String>) -> anyhow::Result<Args> {
        let (mut flags, mut rest) = (Vec::new(), Vec::new());
        let mut it = args.peekable();
        while let Some(a) = it.next() {
            if let Some(name) = a.strip_prefix("--") {
                let v = it
                    .next()
                    .ok_or_else(|| anyhow!("缺少参数值 / missing value for --{name}"))?;
                flags.push((name.to_string(), v));
            } else {
                rest.push(a);
            }
        }
        Ok(Args { flags, rest })
    }

    fn get(&self, name: &str) -> anyhow::Result<&str> {
        self.flags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .ok_or_else(|| anyhow!("缺少 --{name} / --{name} is required\n{}", usage()))
    }
}

fn main() -> anyhow::Result<()> {
    let mut argv = std::env::args().skip(1);
    let mode = argv.next().ok_or_else(usage)?;
    let args = Args::parse(argv)?;
    // The ring provider is the only one compiled in; install it so rustls never has to guess.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("tokio runtime")?;
    match mode.as_str() {
        "serve" => rt.block_on(serve(
            args.get("listen")?.parse().context("--listen")?,
            Path::new(args.get("cert-out")?),
        )),
        "get" => {
            let [path] = args.rest.as_slice() else {
                return Err(usage());
            };
            rt.block_on(get(
                args.get("server")?.parse().context("--server")?,
                Path::new(args.get("cert")?),
                Path::new(args.get("out")?),
                path,
            ))
        }
        _ => Err(usage()),
    }
}

async fn serve(listen: SocketAddr, cert_out: &Path) -> anyhow::Result<()> {
    let ck = rcgen::generate_simple_self_signed(vec!["localhost".into()])
        .context("self-signed certificate")?;
    let cert_der = ck.cert.der().clone();
    let key = rustls::pki_types::PrivatePkcs8KeyDer::from(ck.key_pair.serialize_der());
    // Write the certificate before announcing readiness: the client reads it to trust us.
    let tmp = cert_out.with_extension("tmp");
    std::fs::write(&tmp, cert_der.as_ref()).context("write certificate")?;
    std::fs::rename(&tmp, cert_out).context("write certificate")?;

    let tls = rustls::ServerConfig::builder()
        .with_no_client_auth()
        .with_single_cert(vec![cert_der], key.into())
        .context("server TLS config")?;
    let mut cfg = quinn::ServerConfig::with_crypto(Arc::new(
        QuicServerConfig::try_from(tls).context("QUIC server TLS config")?,
    ));
    cfg.transport_config(transport());
    let sock = udp_socket(listen).with_context(|| format!("无法监听 / cannot listen on {listen}"))?;
    let ep = Endpoint::new(
        quinn::EndpointConfig::default(),
        Some(cfg),
        sock,
        Arc::new(quinn::TokioRuntime),
    )
    .with_context(|| format!("无法监听 / cannot listen on {listen}"))?;
    println!("quic-bench listening on {}", ep.local_addr()?);
    std::io::stdout().flush()?;
    while let Some(inc) = ep.accept().await {
        tokio::spawn(async move {
            if let Err(e) = serve_one(inc).await {
                eprintln!("quic-bench: transfer failed: {e:#}");
            }
        });
    }
    Ok(())
}

async fn serve_one(inc: quinn::Incoming) -> anyhow::Result<()> {
    let conn = inc.await.context("handshake")?;
    let (mut send, mut recv) = conn.accept_bi().await.context("accept stream")?;
    let req = recv.read_to_end(4096).await.context("read request")?;
    let path = PathBuf::from(String::from_utf8(req).context("request is not UTF-8")?);
    // Hash first, like the llmops server does when it makes an offer.
    let p = path.clone();
    let (size, sha) = tokio::task::spawn_blocking(move || hash_file(&p))
        .await
        .context("hash task")??;
    let mut head = Vec::with_capacity(40);
    head.extend_from_slice(&size.to_be_bytes());
    head.extend_from_slice(&sha);
    send.write_all(&head).await?;
    let mut f = std::fs::File::open(&path)?;
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = std::io::Read::read(&mut f, &mut buf)?;
        if n == 0 {
            break;
        }
        send.write_all(&buf[..n]).await?;
    }
    send.finish()?;
    // Resolves once the client has read everything; then we close, so the client never
    // waits for a close handshake.
    let _ = send.stopped().await;
    conn.close(VarInt::from_u32(0), b"done");
    Ok(())
}

fn hash_file(path: &Path) -> anyhow::Result<(u64, [u8; 32])> {
    let mut f = std::fs::File::open(path)
        .with_context(|| format!("无法打开 / cannot open {}", path.display()))?;
    let mut h = Sha256::new();
    let mut buf = vec![0u8; CHUNK];
    let mut size = 0u64;
    loop {
        let n = std::io::Read::read(&mut f, &mut buf)?;
        if n == 0 {
            break;
        }
        h.update(&buf[..n]);
        size += n as u64;
    }
    Ok((size, h.finalize().into()))
}

async fn get(server: SocketAddr, cert: &Path, out: &Path, path: &str) -> anyhow::Result<()> {
    let der = std::fs::read(cert)
        .with_context(|| format!("无法读取证书 / cannot read certificate {}", cert.display()))?;
    let mut roots = rustls::RootCertStore::empty();
    roots
        .add(rustls::pki_types::CertificateDer::from(der))
        .context("trust certificate")?;
    let tls = rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let mut cfg = quinn::ClientConfig::new(Arc::new(
        QuicClientConfig::try_from(tls).context("QUIC client TLS config")?,
    ));
    cfg.transport_config(transport());
    let bind: SocketAddr = if server.is_ipv4() {
        "0.0.0.0:0"
    } else {
        "[::]:0"
    }
    .parse()
    .expect("literal address");
    let mut ep = Endpoint::new(
        quinn::EndpointConfig::default(),
        None,
        udp_socket(bind).context("client socket")?,
        Arc::new(quinn::TokioRuntime),
    )
    .context("client socket")?;
    ep.set_default_client_config(cfg);
    let conn = ep
        .connect(server, "localhost")?
        .await
        .with_context(|| format!("连接失败 / cannot connect to {server}"))?;
    let (mut send, mut recv) = conn.open_bi().await?;
    send.write_all(path.as_bytes()).await?;
    send.finish()?;

    let mut head = [0u8; 40];
    recv.read_exact(&mut head).await.context("read header")?;
    let size = u64::from_be_bytes(head[..8].try_into().expect("8 bytes"));
    let want = hex::encode(&head[8..]);
    let name = Path::new(path)
        .file_name()
        .ok_or_else(|| anyhow!("no file name in {path}"))?;
    let dest = out.join(name);
    let tmp = out.join(format!(".{}.quic-part", name.to_string_lossy()));
    let mut f = std::io::BufWriter::with_capacity(
        CHUNK,
        std::fs::File::create(&tmp).with_context(|| format!("create {}", tmp.display()))?,
    );
    let mut h = Sha256::new();
    let mut got = 0u64;
    while let Some(chunk) = recv.read_chunk(usize::MAX, true).await? {
        h.update(&chunk.bytes);
        f.write_all(&chunk.bytes)?;
        got += chunk.bytes.len() as u64;
    }
    f.flush()?;
    drop(f);
    let sha = hex::encode(h.finalize());
    if got != size || sha != want {
        let _ = std::fs::remove_file(&tmp);
        bail!(
            "校验失败 / verification failed: {got} bytes sha256 {sha}, server said {size} bytes sha256 {want}"
        );
    }
    std::fs::rename(&tmp, &dest)?;
    println!("{{\"bytes\":{got},\"sha256\":\"{sha}\"}}");
    // The server closes once it sees the stream read to the end; no need to wait for that.
    ep.close(VarInt::from_u32(0), b"ok");
    Ok(())
}

/// A UDP socket with the same 4 MiB buffers the RDT client and server ask for, so a burst
/// from the relay's delay line is not dropped by QUIC's socket where RDT's would absorb it.
fn udp_socket(addr: SocketAddr) -> anyhow::Result<std::net::UdpSocket> {
    let s = socket2::Socket::new(
        socket2::Domain::for_address(addr),
        socket2::Type::DGRAM,
        Some(socket2::Protocol::UDP),
    )?;
    let _ = s.set_recv_buffer_size(4 << 20);
    let _ = s.set_send_buffer_size(4 << 20);
    s.bind(&addr.into())?;
    Ok(s.into())
}
