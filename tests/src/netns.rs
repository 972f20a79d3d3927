//! Kernel-level random loss for end-to-end tests and benches, for TCP as well as UDP: a pair
//! of network namespaces joined by a veth pair with nftables drop rules, made and removed by
//! `scripts/netns.sh` (one implementation for the script users and the harness). Names are
//! unique per process and pair, and the pair is deleted on drop, panics included.

use std::net::{IpAddr, Ipv4Addr};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use anyhow::{anyhow, bail, Context};

mod bottleneck;
mod quic;
pub use bottleneck::{
    in_namespace, jain_index, quantile, rate_while_sending, shares, Bottleneck, Flow, FlowCounters,
    NsSide, QdiscStats, Transport, UdpPing, UdpSnmp,
};
pub use quic::{quic_bench_bin, QuicServer};

/// Server-side and client-side addresses (fixed in `scripts/netns.sh`; each pair has its
/// own namespaces, so pairs never clash).
pub const SERVER_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 203, 0, 1));
pub const CLIENT_IP: IpAddr = IpAddr::V4(Ipv4Addr::new(10, 203, 0, 2));

/// The server listens beyond loopback here, which requires an auth token; the namespaces
/// are private to the test, so a fixed one will do.
pub const TOKEN: &str = "llmops-netns-test-token";

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/netns.sh")
}

fn on_path(cmd: &str) -> bool {
    std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).any(|d| d.join(cmd).is_file()))
        .unwrap_or(false)
}

/// `None` when namespaces with nftables loss can be made here, else why not (to print
/// when skipping).
pub fn unavailable() -> Option<String> {
    let uid = Command::new("id")
        .arg("-u")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    if uid.as_deref() != Some("0") {
        return Some("not running as root (network namespaces need root)".into());
    }
    // sbin is not on every PATH; `ip netns exec` and the script find it there anyway.
    let has = |c: &str| on_path(c) || Path::new("/usr/sbin").join(c).is_file();
    if !has("nft") {
        return Some("`nft` is missing (make setup installs nftables when root with apt)".into());
    }
    if !has("ip") {
        return Some("`ip` (iproute2) is missing".into());
    }
    None
}

/// A live namespace pair; deleted on drop.
pub struct NetnsPair {
    pub name: String,
    pub loss: u8,
}

fn run_script(args: &[&str]) -> anyhow::Result<()> {
    let out = Command::new("bash")
        .arg(script())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .context("run scripts/netns.sh")?;
    if !out.status.success() {
        bail!(
            "scripts/netns.sh {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(())
}

impl NetnsPair {
    /// Creates a fresh pair dropping `loss`% of packets in each direction.
    pub fn create(loss: u8) -> anyhow::Result<NetnsPair> {
        static N: AtomicU32 = AtomicU32::new(0);
        let name = format!(
            "llmops{}x{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        );
        // Own the name before creating, so a half-made pair is still cleaned up.
        let pair = NetnsPair { name, loss };
        run_script(&["up", &pair.name, &loss.to_string()])?;
        Ok(pair)
    }

    /// Changes the drop percentage (both directions) in place.
    pub fn set_loss(&mut self, loss: u8) -> anyhow::Result<()> {
        run_script(&["loss", &self.name, &loss.to_string()])?;
        self.loss = loss;
        Ok(())
    }

    pub fn server_ns(&self) -> String {
        format!("{}-s", self.name)
    }

    pub fn client_ns(&self) -> String {
        format!("{}-c", self.name)
    }

    /// The router namespace `set_bottleneck` puts between the two.
    pub fn router_ns(&self) -> String {
        format!("{}-r", self.name)
    }

    /// Sets the veth's `gso_max_segs` on both sides (1 as created: drops hit single packets).
    pub fn set_gso_max_segs(&self, segs: u32) -> anyhow::Result<()> {
        run_script(&["gso", &self.name, &segs.to_string()])
    }

    /// Packets the drop rules have dropped so far, both sides together (the rules' nft
    /// counters; they restart at 0 whenever the loss is changed).
    pub fn dropped_packets(&self) -> anyhow::Result<u64> {
        let mut total = 0;
        for ns in [self.server_ns(), self.client_ns()] {
            let out = Command::new("ip")
                .args(["netns", "exec", &ns, "nft", "list", "chain", "inet"])
                .args(["llmops_loss", "in"])
                .output()
                .context("nft list chain")?;
            let text = String::from_utf8_lossy(&out.stdout);
            // `... counter packets N bytes M drop`
            let mut words = text.split_whitespace();
            while let Some(w) = words.next() {
                if w == "packets" {
                    total += words
                        .next()
                        .and_then(|n| n.parse::<u64>().ok())
                        .unwrap_or(0);
                }
            }
        }
        Ok(total)
    }

    /// Command prefix running a program in the server's namespace.
    pub fn server_wrapper(&self) -> [String; 4] {
        ["ip".into(), "netns".into(), "exec".into(), self.server_ns()]
    }

    /// A command for `program` in the client's namespace.
    pub fn client_command(&self, program: &Path) -> Command {
        let mut c = Command::new("ip");
        c.args(["netns", "exec", &self.client_ns()]).arg(program);
        c
    }
}

impl Drop for NetnsPair {
    fn drop(&mut self) {
        if let Err(e) = run_script(&["down", &self.name]) {
            eprintln!("netns: cleanup of {} failed: {e:#}", self.name);
        }
    }
}

/// Starts the real server inside the pair's server namespace, listening on [`SERVER_IP`]
/// (ephemeral ports) for NPLT, RDT and HTTP.
pub fn start_server(pair: &NetnsPair, extra: &[&str]) -> anyhow::Result<crate::ServerProc> {
    let any = format!("{SERVER_IP}:0");
    let wrapper = pair.server_wrapper();
    let w: Vec<&str> = wrapper.iter().map(String::as_str).collect();
    let mut args = vec![
        "--listen",
        any.as_str(),
        "--rdt-listen",
        any.as_str(),
        "--http-listen",
        any.as_str(),
        "--auth-token",
        TOKEN,
    ];
    args.extend_from_slice(extra);
    crate::ServerProc::start_wrapped(&w, tempfile::tempdir()?, &args)
}

/// A counter from the server's `/metrics`, fetched inside the server's namespace (bash's
/// /dev/tcp there, no extra tool); 0 when the server has no HTTP listener or no such line.
pub fn server_metric(pair: &NetnsPair, server: &crate::ServerProc, name: &str) -> u64 {
    let Some(h) = server.http_addr else { return 0 };
    let script = format!(
        "exec 3<>/dev/tcp/{}/{} && printf 'GET /metrics HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n' >&3 && cat <&3",
        h.ip(),
        h.port()
    );
    let body = Command::new("ip")
        .args(["netns", "exec", &pair.server_ns(), "bash", "-c", &script])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    body.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|r| r.trim().parse().ok()))
        .unwrap_or(0)
}

/// `llmops-tui download --force --json` run in the client namespace; returns (exit code,
/// the JSON report or Null, stderr). `timeout` is a hang guard only.
pub fn tui_download(
    pair: &NetnsPair,
    server: std::net::SocketAddr,
    target: &Path,
    mode: &str,
    out: &Path,
    timeout: std::time::Duration,
) -> anyhow::Result<(i32, serde_json::Value, String)> {
    let exe = crate::bin("llmops-tui");
    let mut cmd = pair.client_command(&exe);
    cmd.args(["download", "--server", &server.to_string(), "--out"])
        .arg(out)
        .args(["--mode", mode, "--force", "--json", "--token", TOKEN])
        .arg(target)
        .env_remove("LLMOPS_SERVER")
        .env_remove("LLMOPS_AUTH_TOKEN");
    let (code, stdout, stderr) = run_with_timeout(cmd, timeout)?;
    let v = serde_json::from_str(stdout.trim()).unwrap_or(serde_json::Value::Null);
    Ok((code, v, stderr))
}

/// Runs `cmd` to completion or kills it after `timeout`; (exit code or -1, stdout, stderr).
pub fn run_with_timeout(
    mut cmd: Command,
    timeout: std::time::Duration,
) -> anyhow::Result<(i32, String, String)> {
    use std::io::Read;
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| anyhow!("spawn {cmd:?}: {e}"))?;
    // Drain both pipes on threads so a chatty child never blocks on a full pipe.
    let mut o = child.stdout.take().ok_or_else(|| anyhow!("no stdout"))?;
    let mut e = child.stderr.take().ok_or_else(|| anyhow!("no stderr"))?;
    let to = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = o.read_to_string(&mut s);
        s
    });
    let te = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = e.read_to_string(&mut s);
        s
    });
    let deadline = std::time::Instant::now() + timeout;
    let code = loop {
        if let Some(st) = child.try_wait()? {
            break st.code().unwrap_or(-1);
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            break -1;
        }
        std::thread::sleep(std::time::Duration::from_millis(1));
    };
    let out = to.join().unwrap_or_default();
    let err = te.join().unwrap_or_default();
    Ok((code, out, err))
}
