//! End-to-end harness: starts the real `llmops-server` binary on ephemeral ports with a temp
//! data dir, waits for its readiness line (never a sleep), and kills it on drop so no test
//! leaves an orphan process. Also raw NPLT frame helpers for legacy-client scripts.

pub mod cpu;
pub mod pty;

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use llmops_client::{HandshakeReply, Turn};

/// Path of a workspace binary next to the running test executable
/// (`target/<profile>/deps/test-xxxx` -> `target/<profile>/NAME`).
pub fn bin(name: &str) -> PathBuf {
    if let Ok(p) = std::env::var(format!(
        "LLMOPS_{}_BIN",
        name.replace('-', "_").to_uppercase()
    )) {
        return PathBuf::from(p);
    }
    let exe = std::env::current_exe().expect("test executable path");
    let dir = exe
        .parent()
        .and_then(|d| d.parent())
        .expect("test executable lives in target/<profile>/deps");
    dir.join(name)
}

fn require_bin(name: &str) -> anyhow::Result<PathBuf> {
    let p = bin(name);
    if !p.is_file() {
        bail!(
            "{} is not built; run `cargo build --workspace --bins` first (make test does)",
            p.display()
        );
    }
    Ok(p)
}

pub mod netns;
pub mod planted;
pub mod procs;
pub mod relay;

pub use planted::{planted_log, PlantedLog};

/// A running server process.
pub struct ServerProc {
    child: Child,
    pub addr: SocketAddr,
    /// Bound RDT (UDP) address, from the `llmops-server rdt on ADDR` readiness line.
    pub rdt_addr: Option<SocketAddr>,
    /// Bound HTTP address, from the `llmops-server http on ADDR` readiness line.
    pub http_addr: Option<SocketAddr>,
    /// The Unix socket, from the `llmops-server socket on PATH` readiness line (a test
    /// that wants one passes `--socket PATH`; others run without).
    pub socket: Option<PathBuf>,
    pub data_dir: tempfile::TempDir,
}

impl ServerProc {
    pub fn start() -> anyhow::Result<ServerProc> {
        Self::start_with(&[])
    }

    /// Starts the server with extra flags on ephemeral ports and a fresh data dir.
    pub fn start_with(extra: &[&str]) -> anyhow::Result<ServerProc> {
        let data_dir = tempfile::tempdir()?;
        Self::start_in(data_dir, extra)
    }

    /// Starts (or restarts) a server on an existing data dir.
    pub fn start_in(data_dir: tempfile::TempDir, extra: &[&str]) -> anyhow::Result<ServerProc> {
        Self::start_wrapped(&[], data_dir, extra)
    }

    /// Like [`start_in`](Self::start_in), run through `wrapper` (e.g. `ip netns exec NS`,
    /// which execs, so the child is still the server). Listen flags in `extra` replace the
    /// loopback defaults.
    pub fn start_wrapped(
        wrapper: &[&str],
        data_dir: tempfile::TempDir,
        extra: &[&str],
    ) -> anyhow::Result<ServerProc> {
        let exe = require_bin("llmops-server")?;
        let mut cmd = match wrapper.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(exe);
                c
            }
            None => Command::new(exe),
        };
        for flag in ["--listen", "--rdt-listen", "--http-listen"] {
            if !extra.contains(&flag) {
                cmd.arg(flag).arg("127.0.0.1:0");
            }
        }
        // No developer config leaks in, unless the test brings its own.
        if !extra.contains(&"--config") {
            cmd.arg("--config").arg("/dev/null");
        }
        // Servers run side by side: none takes the user's runtime-dir socket.
        if !extra.contains(&"--socket") {
            cmd.arg("--socket").arg("none");
        }
        cmd.arg("--data-dir")
            .arg(data_dir.path())
            .args(extra)
            .env_remove("LLMOPS_AUTH_TOKEN")
            .env_remove("LLMOPS_SOCKET")
            .env_remove("ZHIPUAI_API_KEY")
            .env_remove("ZHIPU_API_KEY")
            // Tests run on the offline planner whatever the developer's environment says.
            .env_remove("LLMOPS_LLM_PROVIDER")
            .env_remove("LLMOPS_LLM_API_KEY")
            .env_remove("LLMOPS_LLM_BASE_URL")
            .env_remove("LLMOPS_LLM_MODEL")
            .env_remove("LLMOPS_LLM_KEY_FILE")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().context("spawn llmops-server")?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            // Forward the readiness lines (up to `llmops-server ready`), then keep draining
            // so the server never blocks on a full pipe.
            let mut forwarding = true;
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if forwarding {
                    forwarding = line != "llmops-server ready";
                    let _ = tx.send(line);
                }
            }
        });
        let line = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok(l) => l,
            Err(_) => {
                let _ = child.kill();
                let mut err = String::new();
                if let Some(mut e) = child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                bail!("server did not report readiness; stderr: {err}");
            }
        };
        let last_word = |line: &str| -> anyhow::Result<SocketAddr> {
            line.rsplit(' ')
                .next()
                .ok_or_else(|| anyhow!("bad readiness line {line:?}"))?
                .parse()
                .with_context(|| format!("bad readiness line {line:?}"))
        };
        let addr = last_word(&line)?;
        // The service lines follow at once; an older server prints none of them.
        let (mut rdt_addr, mut http_addr, mut socket) = (None, None, None);
        while let Ok(l) = rx.recv_timeout(Duration::from_secs(5)) {
            if l.starts_with("llmops-server rdt on ") {
                rdt_addr = Some(last_word(&l)?);
            } else if l.starts_with("llmops-server http on ") {
                http_addr = Some(last_word(&l)?);
            } else if let Some(p) = l.strip_prefix("llmops-server socket on ") {
                socket = Some(PathBuf::from(p));
            } else if l == "llmops-server ready" {
                break;
            }
        }
        Ok(ServerProc {
            child,
            addr,
            rdt_addr,
            http_addr,
            socket,
            data_dir,
        })
    }

    /// The server's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The server's resident set size in KiB (`VmRSS` of /proc/PID/status).
    pub fn rss_kib(&self) -> anyhow::Result<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
            .ok_or_else(|| anyhow!("no VmRSS in /proc/{}/status", self.child.id()))
    }

    pub fn data_path(&self) -> &Path {
        self.data_dir.path()
    }

    /// Sends SIGTERM and waits for a clean exit; returns the exit status success flag.
    pub fn terminate(mut self) -> anyhow::Result<(bool, tempfile::TempDir)> {
        let pid = self.child.id().to_string();
        let _ = Command::new("kill").arg("-TERM").arg(&pid).status();
        let deadline = std::time::Instant::now() + Duration::from_secs(20);
        let ok = loop {
            if let Some(st) = self.child.try_wait()? {
                break st.success();
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                break false;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // Move the data dir out; Drop then only reaps the already-exited child.
        let dir = std::mem::replace(&mut self.data_dir, tempfile::tempdir()?);
        Ok((ok, dir))
    }

    /// Kills the process without a chance to clean up (crash simulation).
    pub fn kill9(mut self) -> tempfile::TempDir {
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::mem::replace(
            &mut self.data_dir,
            tempfile::tempdir().expect("tempdir for the dropped handle"),
        )
    }
}

impl Drop for ServerProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A raw NPLT connection: writes and reads frames byte by byte as a legacy script would.
pub struct RawConn {
    pub stream: TcpStream,
    seq: u16,
}

impl RawConn {
    pub fn connect(addr: SocketAddr) -> anyhow::Result<RawConn> {
        Self::from_stream(TcpStream::connect(addr)?)
    }

    /// Connects from the local address `src` (e.g. 127.0.0.2, a second loopback peer).
    pub fn connect_from(src: std::net::IpAddr, addr: SocketAddr) -> anyhow::Result<RawConn> {
        let sock = socket2::Socket::new(
            socket2::Domain::for_address(addr),
            socket2::Type::STREAM,
            Some(socket2::Protocol::TCP),
        )?;
        sock.bind(&SocketAddr::new(src, 0).into())?;
        sock.connect(&addr.into())?;
        Self::from_stream(sock.into())
    }

    pub fn from_stream(stream: TcpStream) -> anyhow::Result<RawConn> {
        stream.set_read_timeout(Some(Duration::from_secs(20)))?;
        stream.set_nodelay(true)?;
        Ok(RawConn { stream, seq: 0 })
    }

    pub fn send(&mut self, ty: u8, payload: &[u8]) -> anyhow::Result<()> {
        let mut b = Vec::with_capacity(5 + payload.len());
        b.push(ty);
        b.extend_from_slice(&self.seq.to_be_bytes());
        b.extend_from_slice(&(payload.len() as u16).to_be_bytes());
        b.extend_from_slice(payload);
        self.seq = self.seq.wrapping_add(1);
        self.stream.write_all(&b)?;
        Ok(())
    }

    pub fn send_json(&mut self, ty: u8, v: serde_json::Value) -> anyhow::Result<()> {
        self.send(ty, v.to_string().as_bytes())
    }

    /// Reads one frame: (type, payload).
    pub fn recv(&mut self) -> anyhow::Result<(u8, Vec<u8>)> {
        let mut h = [0u8; 5];
        self.stream.read_exact(&mut h)?;
        let len = u16::from_be_bytes([h[3], h[4]]) as usize;
        let mut p = vec![0u8; len];
        self.stream.read_exact(&mut p)?;
        Ok((h[0], p))
    }

    pub fn recv_text(&mut self) -> anyhow::Result<(u8, String)> {
        let (t, p) = self.recv()?;
        Ok((t, String::from_utf8(p)?))
    }
}

/// An HTTP response: status code, headers (names lowercased), body.
pub type HttpResponse = (u16, Vec<(String, String)>, Vec<u8>);

/// A plain HTTP/1.1 GET over a fresh connection.
pub fn http_get(addr: SocketAddr, path: &str) -> anyhow::Result<HttpResponse> {
    http_raw(
        addr,
        format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
    )
}

/// Sends raw request bytes and parses the response (the server closes after one).
pub fn http_raw(addr: SocketAddr, request: &[u8]) -> anyhow::Result<HttpResponse> {
    let mut s = TcpStream::connect(addr)?;
    s.set_read_timeout(Some(Duration::from_secs(20)))?;
    s.write_all(request)?;
    let mut all = Vec::new();
    s.read_to_end(&mut all)?;
    let end = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .ok_or_else(|| anyhow!("no response head in {} bytes", all.len()))?;
    let head = String::from_utf8_lossy(&all[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| anyhow!("bad status line in {head:?}"))?;
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Ok((status, headers, all[end + 4..].to_vec()))
}

/// Type codes a legacy client understands.
pub const LEGACY_TYPES: &[u8] = &[
    0x01, 0x0A, 0x0C, 0x0D, 0x0E, 0x0F, 0x10, 0x11, 0x14, 0x15, 0x16, 0x17, 0x18,
];

/// `llmops-tui download --force --json` of `target` from `server` into `out` with `mode`;
/// returns (exit code, the JSON report or Null, stderr).
pub fn tui_download(
    server: SocketAddr,
    target: &Path,
    mode: &str,
    out: &Path,
) -> anyhow::Result<(i32, serde_json::Value, String)> {
    let addr = server.to_string();
    let (code, stdout, stderr) = run_tui(&[
        "download",
        "--server",
        &addr,
        "--out",
        out.to_str().ok_or_else(|| anyhow!("non-UTF-8 path"))?,
        "--mode",
        mode,
        "--force",
        "--json",
        target.to_str().ok_or_else(|| anyhow!("non-UTF-8 path"))?,
    ])?;
    let v = serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null);
    Ok((code, v, stderr))
}

/// Each run has a state folder of its own, so no session is remembered between runs (use
/// `run_tui_in` to share one, as one user's scripts and TUI do).
pub fn run_tui(args: &[&str]) -> anyhow::Result<(i32, String, String)> {
    let state = tempfile::tempdir()?;
    run_tui_in(state.path(), args)
}

/// Runs `llmops-tui` with args and `XDG_STATE_HOME=state` (where `last_sessions.json`
/// lives); returns (exit code, stdout, stderr).
pub fn run_tui_in(state: &Path, args: &[&str]) -> anyhow::Result<(i32, String, String)> {
    let exe = require_bin("llmops-tui")?;
    let out = Command::new(exe)
        .args(args)
        .env_remove("LLMOPS_SERVER")
        .env_remove("LLMOPS_AUTH_TOKEN")
        .env("XDG_STATE_HOME", state)
        .stdin(Stdio::null())
        .output()?;
    Ok((
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// The shared eval fixtures folder (beside the repo), if present.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures")
}

/// A model `make setup` installs under `storage/models/NAME`, when its file `file` is
/// there; `None` (with the reason printed) only outside CI, where a test that needs it
/// skips or runs without it. Under `CI=true` a missing model fails.
pub fn setup_model(name: &str, file: &str) -> Option<String> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../storage/models")
        .join(name);
    if dir.join(file).is_file() {
        return Some(dir.to_string_lossy().into_owned());
    }
    assert!(
        std::env::var("CI").is_err(),
        "CI must run `make setup` first: {} missing",
        dir.display()
    );
    eprintln!("{} missing; run `make setup`", dir.display());
    None
}

/// The default embedder's model (multilingual e5, what `make run` starts with).
pub fn e5_model() -> Option<String> {
    setup_model("multilingual-e5-small-q4", "e5-small-q4.bin")
}

/// A chat turn as the client saw it.
pub struct ChatTurn {
    /// The turn's STREAM_DELTA texts, joined.
    pub answer: String,
    /// Every message up to and including the turn's STREAM_END.
    pub msgs: Vec<protocol::Message>,
}

/// A synchronous extension-protocol connection built on the protocol crate's codec, for
/// tests that must see (or send) every frame; the handshake and the turn bookkeeping are
/// `llmops-client`'s, the same the TUI uses.
pub struct ExtConn {
    raw: RawConn,
    codec: protocol::MessageCodec,
    buf: bytes::BytesMut,
    pub welcome: Option<protocol::Welcome>,
    next_id: u64,
}

impl ExtConn {
    /// The server's index status (files, chunks, embedding backlog, mode).
    pub fn index_status(&mut self) -> protocol::IndexProgress {
        let rid = self.next_id();
        self.send(&protocol::Message::StatusRequest(protocol::Req {
            request_id: rid,
        }))
        .expect("send");
        let msgs = self
            .recv_until(|m| matches!(m, protocol::Message::ServerStatus(s) if s.request_id == rid))
            .expect("status");
        match msgs.last() {
            Some(protocol::Message::ServerStatus(s)) => s.index.clone(),
            other => panic!("{other:?}"),
        }
    }

    /// Polls the index status until `pred` holds (background indexing), failing after
    /// `secs`.
    pub fn wait_index(
        &mut self,
        secs: u64,
        pred: impl Fn(&protocol::IndexProgress) -> bool,
    ) -> protocol::IndexProgress {
        let deadline = std::time::Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.index_status();
            if pred(&s) {
                return s;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "index never reached the state: {s:?}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Connects and completes HELLO/WELCOME.
    pub fn connect(
        addr: SocketAddr,
        resume: Option<&str>,
        token: Option<&str>,
    ) -> anyhow::Result<ExtConn> {
        Self::handshake(RawConn::connect(addr)?, resume, token)
    }

    /// Completes HELLO/WELCOME on an open connection (e.g. from [`RawConn::connect_from`]).
    pub fn handshake(
        raw: RawConn,
        resume: Option<&str>,
        token: Option<&str>,
    ) -> anyhow::Result<ExtConn> {
        let mut c = ExtConn {
            raw,
            codec: protocol::MessageCodec::new(),
            buf: bytes::BytesMut::new(),
            welcome: None,
            next_id: 1,
        };
        c.send(&llmops_client::hello(
            "e2e",
            "0",
            resume.map(str::to_string),
            token.map(str::to_string),
            false,
        ))?;
        loop {
            match HandshakeReply::from(c.recv()?) {
                HandshakeReply::Welcome(w) => {
                    c.welcome = Some(w);
                    return Ok(c);
                }
                HandshakeReply::Refused(e) => bail!("refused: {} {}", e.code, e.message),
                HandshakeReply::Other => continue,
            }
        }
    }

    pub fn next_id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// How long a read waits before failing (20 s by default): the eval sets wait longer,
    /// for turns over large uploads on a loaded machine.
    pub fn set_read_timeout(&mut self, d: Duration) -> anyhow::Result<()> {
        self.raw.stream.set_read_timeout(Some(d))?;
        Ok(())
    }

    pub fn session_id(&self) -> String {
        self.welcome
            .as_ref()
            .map(|w| w.session_id.clone())
            .unwrap_or_default()
    }

    pub fn send(&mut self, m: &protocol::Message) -> anyhow::Result<()> {
        for f in self.codec.encode_frames(m)? {
            self.raw.stream.write_all(&f.to_bytes()?)?;
        }
        Ok(())
    }

    pub fn send_raw(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.raw.stream.write_all(bytes)?;
        Ok(())
    }

    /// Next decoded message; a bad frame from the server is a test failure.
    pub fn recv(&mut self) -> anyhow::Result<protocol::Message> {
        loop {
            if let Some(item) = self.codec.decode(&mut self.buf)? {
                return match item {
                    protocol::Inbound::Msg(m) => Ok(m),
                    protocol::Inbound::Bad { ty, error } => {
                        bail!("server sent a bad frame 0x{ty:02x}: {error}")
                    }
                };
            }
            let mut tmp = [0u8; 65536];
            let n = self.raw.stream.read(&mut tmp)?;
            if n == 0 {
                bail!("connection closed");
            }
            self.buf.extend_from_slice(&tmp[..n]);
        }
    }

    /// Receives until `pred` matches, returning everything seen (the match last).
    pub fn recv_until(
        &mut self,
        mut pred: impl FnMut(&protocol::Message) -> bool,
    ) -> anyhow::Result<Vec<protocol::Message>> {
        let mut seen = Vec::new();
        loop {
            let m = self.recv()?;
            let done = pred(&m);
            seen.push(m);
            if done {
                return Ok(seen);
            }
        }
    }

    /// One chat turn: sends `text` (with `file_ids`) and collects the streamed answer and
    /// every message up to and including the turn's STREAM_END. Like `llmops-tui ask`
    /// without `--yes-to`, it rejects every approval request the turn makes.
    pub fn chat(&mut self, text: &str, file_ids: Vec<String>) -> anyhow::Result<ChatTurn> {
        self.chat_deciding(text, file_ids, |_| protocol::ApprovalDecision::Reject)
    }

    /// A chat turn whose approval requests are answered by `decide`.
    pub fn chat_deciding(
        &mut self,
        text: &str,
        file_ids: Vec<String>,
        decide: impl FnMut(&protocol::ApprovalRequest) -> protocol::ApprovalDecision,
    ) -> anyhow::Result<ChatTurn> {
        self.turn_deciding(text, file_ids, None, decide)
    }

    /// A turn that proposes exactly `argv` (`CHAT` with `action`), answered by `decide`.
    pub fn propose_deciding(
        &mut self,
        text: &str,
        argv: &[&str],
        decide: impl FnMut(&protocol::ApprovalRequest) -> protocol::ApprovalDecision,
    ) -> anyhow::Result<ChatTurn> {
        let argv = argv.iter().map(|a| a.to_string()).collect();
        self.turn_deciding(text, Vec::new(), Some(argv), decide)
    }

    fn turn_deciding(
        &mut self,
        text: &str,
        file_ids: Vec<String>,
        action: Option<Vec<String>>,
        mut decide: impl FnMut(&protocol::ApprovalRequest) -> protocol::ApprovalDecision,
    ) -> anyhow::Result<ChatTurn> {
        let rid = self.next_id();
        self.send(&protocol::Message::Chat(protocol::ChatSend {
            request_id: rid,
            text: text.into(),
            file_ids,
            action,
        }))?;
        let mut turn = Turn::new(rid);
        let mut msgs = Vec::new();
        loop {
            let m = self.recv()?;
            let done = turn.push(&m);
            if let protocol::Message::ApprovalRequest(r) = &m {
                let decision = decide(r);
                self.send(&protocol::Message::ApprovalReply(protocol::ApprovalReply {
                    approval_id: r.approval_id.clone(),
                    decision,
                }))?;
            }
            msgs.push(m);
            if done {
                return Ok(ChatTurn {
                    answer: turn.answer,
                    msgs,
                });
            }
        }
    }

    /// Sends UPLOAD_START and `body` as UPLOAD_DATA frames; returns the request id.
    pub fn send_upload(&mut self, name: &str, body: &[u8]) -> anyhow::Result<u64> {
        let request_id = self.next_id();
        self.send(&protocol::Message::UploadStart(protocol::UploadStart {
            request_id,
            filename: name.into(),
            size: body.len() as u64,
            sha256: None,
            result_on_save: false,
        }))?;
        for part in body.chunks(60_000) {
            self.send(&protocol::Message::UploadData(protocol::Raw(
                bytes::Bytes::copy_from_slice(part),
            )))?;
        }
        Ok(request_id)
    }

    /// Uploads `body` as `name` and waits for this upload's result (after the lexical
    /// index) or its error.
    pub fn upload_bytes(
        &mut self,
        name: &str,
        body: &[u8],
    ) -> anyhow::Result<Result<protocol::FileInfo, protocol::ErrorMsg>> {
        let rid = self.send_upload(name, body)?;
        let msgs = self.recv_until(|m| match m {
            protocol::Message::UploadResult(r) => r.request_id == rid,
            protocol::Message::Error(e) => e.request_id == Some(rid),
            _ => false,
        })?;
        match msgs.last() {
            Some(protocol::Message::UploadResult(r)) => Ok(Ok(r.file.clone())),
            Some(protocol::Message::Error(e)) => Ok(Err(e.clone())),
            other => bail!("expected UPLOAD_RESULT or ERROR, got {other:?}"),
        }
    }

    /// This session's files (FILE_LIST), skipping pushes that arrive first.
    pub fn files(&mut self) -> anyhow::Result<Vec<protocol::FileInfo>> {
        let request_id = self.next_id();
        self.send(&protocol::Message::FileList(protocol::Req { request_id }))?;
        match self
            .recv_until(|m| matches!(m, protocol::Message::FileListReply(_)))?
            .pop()
        {
            Some(protocol::Message::FileListReply(l)) => Ok(l.files),
            other => bail!("expected FILE_LIST_REPLY, got {other:?}"),
        }
    }
}
