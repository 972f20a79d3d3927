//! Where the server is: a TCP `host:port`, or a Unix socket (`unix:/path`, or a bare
//! absolute path) on which the server knows the local user by the kernel's peer
//! credentials, no token needed. A server string may list several, comma-separated; they
//! are tried in order, the next one only when a connection cannot be made at all (the
//! default: the local socket when it exists, then TCP on loopback).

use std::io;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpStream, UnixStream};

/// The TCP address a client uses when nothing else is said.
pub const DEFAULT_TCP: &str = "127.0.0.1:9999";
/// The socket's file name in a runtime directory (the server's `SOCKET_NAME`).
pub const SOCKET_NAME: &str = "llmops.sock";
/// The packaged service's socket (systemd `RuntimeDirectory=llmops`).
pub const SYSTEM_SOCKET: &str = "/run/llmops/llmops.sock";

/// One place a server may listen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Tcp(String),
    Unix(PathBuf),
}

impl std::fmt::Display for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Endpoint::Tcp(a) => f.write_str(a),
            Endpoint::Unix(p) => write!(f, "unix:{}", p.display()),
        }
    }
}

/// The endpoints of a server string, in the order to try them.
pub fn parse(server: &str) -> Vec<Endpoint> {
    server
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s.strip_prefix("unix:") {
            Some(p) => Endpoint::Unix(PathBuf::from(p)),
            None if s.starts_with('/') => Endpoint::Unix(PathBuf::from(s)),
            None => Endpoint::Tcp(s.to_string()),
        })
        .collect()
}

/// The server string a client uses when none is given: the local socket first when one
/// exists (`$XDG_RUNTIME_DIR/llmops.sock` of a server the user runs, then the service's
/// `/run/llmops/llmops.sock`), then TCP on loopback.
pub fn default_server() -> String {
    let user = std::env::var_os("XDG_RUNTIME_DIR")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(SOCKET_NAME));
    let found = user
        .into_iter()
        .chain([PathBuf::from(SYSTEM_SOCKET)])
        .find(|p| is_socket(p));
    match found {
        Some(p) => format!("unix:{},{DEFAULT_TCP}", p.display()),
        None => DEFAULT_TCP.to_string(),
    }
}

fn is_socket(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::metadata(p).is_ok_and(|m| m.file_type().is_socket())
}

/// A connected stream of either kind.
#[derive(Debug)]
pub enum Stream {
    Tcp(TcpStream),
    Unix(UnixStream),
}

/// Connects to the first endpoint of `server` that accepts, each within `timeout`; the
/// error names every endpoint tried.
pub async fn connect(server: &str, timeout: Duration) -> Result<Stream, String> {
    let mut errors = Vec::new();
    for ep in parse(server) {
        let attempt = async {
            match &ep {
                Endpoint::Tcp(a) => TcpStream::connect(a).await.map(|s| {
                    let _ = s.set_nodelay(true);
                    Stream::Tcp(s)
                }),
                Endpoint::Unix(p) => UnixStream::connect(p).await.map(Stream::Unix),
            }
        };
        match tokio::time::timeout(timeout, attempt).await {
            Ok(Ok(s)) => return Ok(s),
            Ok(Err(e)) => errors.push(format!("{ep}: {e}")),
            Err(_) => errors.push(format!("{ep}: timed out")),
        }
    }
    if errors.is_empty() {
        return Err("no server address given".into());
    }
    Err(errors.join("; "))
}

impl AsyncRead for Stream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(s) => Pin::new(s).poll_read(cx, buf),
            Stream::Unix(s) => Pin::new(s).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Stream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Stream::Tcp(s) => Pin::new(s).poll_write(cx, buf),
            Stream::Unix(s) => Pin::new(s).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(s) => Pin::new(s).poll_flush(cx),
            Stream::Unix(s) => Pin::new(s).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Stream::Tcp(s) => Pin::new(s).poll_shutdown(cx),
            Stream::Unix(s) => Pin::new(s).poll_shutdown(cx),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn server_strings_name_tcp_addresses_and_sockets_in_order() {
        assert_eq!(
            parse("unix:/run/llmops/llmops.sock, 127.0.0.1:9999"),
            vec![
                Endpoint::Unix(PathBuf::from("/run/llmops/llmops.sock")),
                Endpoint::Tcp("127.0.0.1:9999".into())
            ]
        );
        assert_eq!(
            parse("/tmp/s.sock"),
            vec![Endpoint::Unix("/tmp/s.sock".into())]
        );
        assert_eq!(parse("host:1"), vec![Endpoint::Tcp("host:1".into())]);
        assert!(parse(" , ").is_empty());
    }

    #[tokio::test]
    async fn a_missing_socket_falls_back_to_the_next_endpoint() {
        let l = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = l.local_addr().expect("addr");
        let d = tempfile::tempdir().expect("dir");
        let missing = d.path().join("none.sock");
        let server = format!("unix:{},{addr}", missing.display());
        let s = connect(&server, Duration::from_secs(5))
            .await
            .expect("fallback");
        assert!(matches!(s, Stream::Tcp(_)));
        // Both gone: the error names each endpoint tried.
        drop(l);
        let e = connect(&server, Duration::from_secs(5))
            .await
            .expect_err("none");
        assert!(
            e.contains("none.sock") && e.contains(&addr.to_string()),
            "{e}"
        );
        // A live socket is used first.
        let sock = d.path().join("live.sock");
        let _u = tokio::net::UnixListener::bind(&sock).expect("unix bind");
        let s = connect(
            &format!("unix:{},{addr}", sock.display()),
            Duration::from_secs(5),
        )
        .await
        .expect("socket");
        assert!(matches!(s, Stream::Unix(_)));
    }
}
