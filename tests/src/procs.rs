//! Planted processes for end-to-end checks of the system-as-tables questions: named
//! long-running processes (optionally as another user, holding memory, or listening on an
//! ephemeral port) started before a case and killed when the [`Planted`] set drops, so the
//! truth ("how many X", "pid of Y", "what listens on port P") is known exactly.
//!
//! A process named `NAME` is a Python script at `<tmp>/bin/NAME` run through its `#!` line,
//! so the kernel names it `NAME` (`/proc/PID/comm`, what `ps -C`/`pgrep` match) and its
//! command line reads `python3 <tmp>/bin/NAME ARGS`, like a packaged Python daemon. With
//! `interp` it is run as `python3 <tmp>/jobs/NAME ARGS` instead (comm `python3`, the name
//! only in the command line, like an ad-hoc job).

use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{mpsc, OnceLock};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};

/// One planted process kind, as an eval case describes it.
#[derive(Debug, Clone, Default)]
pub struct ProcSpec {
    /// The process name (at most 15 bytes: the kernel's comm length).
    pub name: String,
    pub args: Vec<String>,
    /// How many copies to start (at least 1).
    pub count: usize,
    /// Run as this user, created (as a system user without a home) when missing; needs root.
    pub user: Option<String>,
    /// Listen on 127.0.0.1 on an ephemeral port (reported as the `port`).
    pub listen: bool,
    /// Run through `python3 SCRIPT` (comm `python3`) instead of as `NAME`.
    pub interp: bool,
    /// Resident memory to hold, in MiB (touched, so it counts in RSS).
    pub mem_mb: u32,
}

/// Why a spec cannot be planted on this machine (the case is skipped, or fails under CI).
pub fn unsupported(spec: &ProcSpec) -> Option<String> {
    let root = id(&["-u"]).as_deref() == Some("0");
    match &spec.user {
        Some(u) if !root => Some(format!("running as user {u} needs root")),
        _ => None,
    }
}

/// A started process.
pub struct PlantedProc {
    pub name: String,
    pub pid: u32,
    pub port: Option<u16>,
    pub user: String,
    child: Child,
}

/// A set of planted processes, killed (and any user it created removed) on drop.
pub struct Planted {
    pub procs: Vec<PlantedProc>,
    created_users: Vec<String>,
    dir: tempfile::TempDir,
}

const SCRIPT: &str = r#"
import os, socket, time
hold = bytearray(int(os.environ.get("PLANT_MEM_MB", "0")) * 1048576)
for i in range(0, len(hold), 4096):
    hold[i] = 1
if os.environ.get("PLANT_LISTEN") == "1":
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", 0))
    s.listen(16)
    print(s.getsockname()[1], flush=True)
else:
    print("ready", flush=True)
time.sleep(3600)
"#;

/// The real interpreter (not a version-manager shim, which would exec it under another name),
/// one every user can run: the distribution's `/usr/bin/python3` when there is one (a
/// version manager's interpreter under a private home is out of a planted user's reach),
/// else whatever `python3` on the PATH names as its executable.
fn python() -> anyhow::Result<&'static Path> {
    static PY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    PY.get_or_init(|| {
        let system = Path::new("/usr/bin/python3");
        if system.exists() {
            return Ok(system.to_path_buf());
        }
        let out = Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .map_err(|e| format!("python3 not runnable: {e}"))?;
        let p = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if p.is_empty() {
            return Err("python3 did not name its executable".into());
        }
        Ok(PathBuf::from(p))
    })
    .as_ref()
    .map(PathBuf::as_path)
    .map_err(|e| anyhow!("{e}"))
}

impl Planted {
    /// Starts every spec's copies and waits until each reports ready (its port, if any).
    pub fn start(specs: &[ProcSpec]) -> anyhow::Result<Planted> {
        let dir = tempfile::Builder::new().prefix("planted").tempdir()?;
        // Readable by a planted user too.
        std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755))?;
        let mut set = Planted {
            procs: Vec::new(),
            created_users: Vec::new(),
            dir,
        };
        for spec in specs {
            if spec.name.len() > 15 || spec.name.contains('/') || spec.name.is_empty() {
                bail!("planted process name {:?}: 1..15 bytes, no '/'", spec.name);
            }
            let ids = match &spec.user {
                Some(u) => Some(set.ensure_user(u)?),
                None => None,
            };
            let script = set.write_script(spec)?;
            for _ in 0..spec.count.max(1) {
                let p = spawn(spec, &script, ids)?;
                set.procs.push(p);
            }
        }
        Ok(set)
    }

    fn write_script(&self, spec: &ProcSpec) -> anyhow::Result<PathBuf> {
        let sub = self
            .dir
            .path()
            .join(if spec.interp { "jobs" } else { "bin" });
        std::fs::create_dir_all(&sub)?;
        std::fs::set_permissions(&sub, std::fs::Permissions::from_mode(0o755))?;
        let path = sub.join(&spec.name);
        if !path.exists() {
            let body = format!("#!{}\n{SCRIPT}", python()?.display());
            std::fs::write(&path, body)?;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
        }
        Ok(path)
    }

    /// The user's (uid, gid), creating it as a system user when it does not exist.
    fn ensure_user(&mut self, user: &str) -> anyhow::Result<(u32, u32)> {
        if let Some(ids) = passwd_ids(user)? {
            return Ok(ids);
        }
        let ok = Command::new("useradd")
            .args([
                "--system",
                "--no-create-home",
                "--shell",
                "/usr/sbin/nologin",
                user,
            ])
            .status()
            .context("useradd")?
            .success();
        if !ok {
            bail!("useradd {user} failed");
        }
        self.created_users.push(user.to_string());
        passwd_ids(user)?.ok_or_else(|| anyhow!("user {user} missing after useradd"))
    }

    /// Pids of the processes planted as `name`, in start order.
    pub fn pids(&self, name: &str) -> Vec<u32> {
        self.procs
            .iter()
            .filter(|p| p.name == name)
            .map(|p| p.pid)
            .collect()
    }

    pub fn get(&self, name: &str) -> Option<&PlantedProc> {
        self.procs.iter().find(|p| p.name == name)
    }

    /// Err naming the first planted process that is no longer running.
    pub fn all_alive(&mut self) -> Result<(), String> {
        for p in &mut self.procs {
            match p.child.try_wait() {
                Ok(None) => {}
                Ok(Some(st)) => return Err(format!("{} (pid {}) exited: {st}", p.name, p.pid)),
                Err(e) => return Err(format!("{} (pid {}): {e}", p.name, p.pid)),
            }
        }
        Ok(())
    }
}

fn spawn(spec: &ProcSpec, script: &Path, ids: Option<(u32, u32)>) -> anyhow::Result<PlantedProc> {
    let mut cmd = if spec.interp {
        let mut c = Command::new(python()?);
        c.arg(script);
        c
    } else {
        Command::new(script)
    };
    cmd.args(&spec.args)
        .env("PLANT_MEM_MB", spec.mem_mb.to_string())
        .env("PLANT_LISTEN", if spec.listen { "1" } else { "0" })
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if let Some((uid, gid)) = ids {
        cmd.uid(uid).gid(gid);
    }
    let mut child = cmd
        .spawn()
        .with_context(|| format!("start planted {}", spec.name))?;
    let pid = child.id();
    let out = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = BufReader::new(out)
            .read_line(&mut line)
            .map(|_| tx.send(line));
    });
    let line = match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(l) if !l.trim().is_empty() => l,
        _ => {
            let _ = child.kill();
            let _ = child.wait();
            bail!("planted {} (pid {pid}) did not become ready", spec.name);
        }
    };
    let port = if spec.listen {
        Some(line.trim().parse::<u16>().context("planted port line")?)
    } else {
        None
    };
    Ok(PlantedProc {
        name: spec.name.clone(),
        pid,
        port,
        user: spec.user.clone().unwrap_or_else(current_user),
        child,
    })
}

fn current_user() -> String {
    id(&["-un"]).unwrap_or_default()
}

/// `id ARGS`'s output, trimmed.
fn id(args: &[&str]) -> Option<String> {
    let out = Command::new("id").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// (uid, gid) of `user` from /etc/passwd.
fn passwd_ids(user: &str) -> anyhow::Result<Option<(u32, u32)>> {
    let passwd = std::fs::read_to_string("/etc/passwd").context("read /etc/passwd")?;
    for l in passwd.lines() {
        let f: Vec<&str> = l.split(':').collect();
        if f.len() > 3 && f[0] == user {
            return Ok(Some((f[2].parse()?, f[3].parse()?)));
        }
    }
    Ok(None)
}

impl Drop for Planted {
    fn drop(&mut self) {
        for p in &mut self.procs {
            let _ = p.child.kill();
            let _ = p.child.wait();
        }
        for u in &self.created_users {
            match Command::new("userdel").arg(u).status() {
                Ok(s) if s.success() => {}
                other => eprintln!("planted: userdel {u} failed: {other:?}"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planted_processes_are_named_counted_and_listening() {
        let specs = [
            ProcSpec {
                name: "plant-probe".into(),
                args: vec!["--mode".into(), "probe".into()],
                count: 3,
                ..Default::default()
            },
            ProcSpec {
                name: "plant-listen".into(),
                count: 1,
                listen: true,
                ..Default::default()
            },
        ];
        let mut set = Planted::start(&specs).expect("planted");
        let pids = set.pids("plant-probe");
        assert_eq!(pids.len(), 3);
        for pid in &pids {
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).expect("comm");
            assert_eq!(comm.trim(), "plant-probe");
            let cmd = std::fs::read(format!("/proc/{pid}/cmdline")).expect("cmdline");
            let cmd = String::from_utf8_lossy(&cmd).replace('\0', " ");
            assert!(cmd.contains("plant-probe --mode probe"), "{cmd}");
        }
        let port = set.get("plant-listen").and_then(|p| p.port).expect("port");
        assert!(std::net::TcpStream::connect(("127.0.0.1", port)).is_ok());
        assert_eq!(set.all_alive(), Ok(()));
        drop(set);
        for pid in pids {
            assert!(
                !Path::new(&format!("/proc/{pid}")).exists(),
                "{pid} still there"
            );
        }
    }

    #[test]
    fn a_planted_process_runs_as_its_user_and_the_user_goes_after() {
        let spec = ProcSpec {
            name: "plant-owned".into(),
            count: 1,
            user: Some("plant-probe-u".into()),
            ..Default::default()
        };
        if let Some(why) = unsupported(&spec) {
            assert!(std::env::var("CI").is_err(), "under CI=true: {why}");
            eprintln!("skipped: {why}");
            return;
        }
        let set = Planted::start(std::slice::from_ref(&spec)).expect("planted as a user");
        let pid = set.pids("plant-owned")[0];
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("status");
        let uid = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|l| l.split_whitespace().next())
            .expect("Uid line");
        let (want, _) = passwd_ids("plant-probe-u")
            .expect("passwd")
            .expect("user exists");
        assert_eq!(uid, want.to_string());
        let comm = std::fs::read_to_string(format!("/proc/{pid}/comm")).expect("comm");
        assert_eq!(comm.trim(), "plant-owned");
        assert_eq!(
            set.get("plant-owned").expect("planted").user,
            "plant-probe-u"
        );
        drop(set);
        assert_eq!(passwd_ids("plant-probe-u").expect("passwd"), None);
    }
}
