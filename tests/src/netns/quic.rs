//! The QUIC comparison program (`bench/quic`, `quic-bench`) for tests and benches: where
//! its binary is, its server (`quic-bench serve`, on the host or in a namespace, killed on
//! drop) and the command of a `quic-bench get` download.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};

/// The `quic-bench` binary, when built. `bench/quic` is its own cargo workspace: `make
/// bench` builds it in release and `make test` in debug, both into the shared target dir,
/// so the profile of the running test or bench comes first and the other one is taken
/// when it is the only one there (`LLMOPS_QUIC_BENCH_BIN` overrides both).
pub fn quic_bench_bin() -> Option<PathBuf> {
    let own = crate::bin("quic-bench");
    if own.is_file() {
        return Some(own);
    }
    let dir = own.parent()?;
    let other = match dir.file_name()?.to_str()? {
        "debug" => "release",
        _ => "debug",
    };
    let p = dir.parent()?.join(other).join("quic-bench");
    p.is_file().then_some(p)
}

/// A running `quic-bench serve`, killed on drop.
pub struct QuicServer {
    child: Child,
    exe: PathBuf,
    pub addr: SocketAddr,
    /// Its self-signed certificate (DER), which `get` trusts.
    pub cert: PathBuf,
}

impl QuicServer {
    /// Starts `quic-bench serve --listen LISTEN` in network namespace `ns` (the host's when
    /// None), its certificate written into `dir`; waits for its address (30 s at most).
    pub fn start(ns: Option<&str>, listen: &str, dir: &Path) -> anyhow::Result<QuicServer> {
        static N: AtomicU32 = AtomicU32::new(0);
        let exe = quic_bench_bin()
            .ok_or_else(|| anyhow!("quic-bench is not built (bench/quic; make bench builds it)"))?;
        let cert = dir.join(format!(
            "quic-cert-{}-{}.der",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let mut cmd = match ns {
            None => Command::new(&exe),
            Some(ns) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", ns]).arg(&exe);
                c
            }
        };
        let mut child = cmd
            .args(["serve", "--listen", listen, "--cert-out"])
            .arg(&cert)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .context("spawn quic-bench serve")?;
        let stdout = child.stdout.take().ok_or_else(|| anyhow!("stdout"))?;
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        // `quic-bench listening on ADDR`
        let addr = rx
            .recv_timeout(Duration::from_secs(30))
            .ok()
            .and_then(|l| l.rsplit(' ').next().and_then(|a| a.parse().ok()));
        match addr {
            Some(addr) => Ok(QuicServer {
                child,
                exe,
                addr,
                cert,
            }),
            None => {
                if let Err(e) = child.kill() {
                    eprintln!("quic-bench serve: kill: {e}");
                }
                if let Err(e) = child.wait() {
                    eprintln!("quic-bench serve: wait: {e}");
                }
                bail!("quic-bench serve did not report its address")
            }
        }
    }

    /// `quic-bench get` of `file` from `to` (this server or a relay in front of it) into
    /// `out`, not started; run in namespace `ns` (the host's when None). It verifies size
    /// and sha256 against what the server announced and prints `{"bytes":N,"sha256":"..."}`.
    pub fn get_command(
        &self,
        ns: Option<&str>,
        to: SocketAddr,
        file: &Path,
        out: &Path,
    ) -> Command {
        let mut cmd = match ns {
            None => Command::new(&self.exe),
            Some(ns) => {
                let mut c = Command::new("ip");
                c.args(["netns", "exec", ns]).arg(&self.exe);
                c
            }
        };
        cmd.args(["get", "--server", &to.to_string(), "--cert"])
            .arg(&self.cert)
            .arg("--out")
            .arg(out)
            .arg(file);
        cmd
    }
}

impl Drop for QuicServer {
    fn drop(&mut self) {
        if let Err(e) = self.child.kill() {
            eprintln!("quic-bench serve: kill: {e}");
        }
        if let Err(e) = self.child.wait() {
            eprintln!("quic-bench serve: wait: {e}");
        }
    }
}
