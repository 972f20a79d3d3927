//! Local operators by Unix identity, on the real server binary's Unix socket: two Unix
//! users on one host each see only their own sessions, a user outside `approvers` cannot
//! approve an action (and the audit log names the user), a user outside `operators` cannot
//! connect, and a new local client is served while another user holds 100 idle
//! connections. The users and groups are throwaway ones made here (`useradd`), removed on
//! drop; the clients run as them through `setpriv`. Needs root: outside CI the tests skip
//! without it, under `CI=true` they fail.

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use llmops_tests::{bin, ServerProc};

/// Whether this process may create users; under CI it must.
fn root_or_skip() -> bool {
    if nix_is_root() {
        return true;
    }
    assert!(
        std::env::var("CI").is_err(),
        "CI must run the local-user tests as root (they create throwaway users)"
    );
    eprintln!("skipped: creating users needs root");
    false
}

fn nix_is_root() -> bool {
    std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
        s.lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|v| v.split_whitespace().nth(1))
            == Some("0")
    })
}

/// Runs a user or group command, retrying while another test holds the passwd lock.
fn admin(args: &[&str]) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let out = Command::new(args[0])
            .args(&args[1..])
            .output()
            .expect("run user admin command");
        if out.status.success() {
            return;
        }
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(Instant::now() < deadline, "{args:?} failed: {err}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Throwaway users and groups, removed on drop.
struct Accounts {
    tag: String,
    users: Vec<String>,
    groups: Vec<String>,
}

impl Accounts {
    fn new(test: &str) -> Accounts {
        Accounts {
            tag: format!("l{}{}", std::process::id() % 100_000, test),
            users: Vec::new(),
            groups: Vec::new(),
        }
    }

    fn group(&mut self, role: &str) -> String {
        let name = format!("{}{role}", self.tag);
        admin(&["groupadd", &name]);
        self.groups.push(name.clone());
        name
    }

    /// A user (with its own primary group) in `groups`.
    fn user(&mut self, role: &str, groups: &[&str]) -> LocalUser {
        let name = format!("{}{role}", self.tag);
        let mut args = vec!["useradd", "--no-create-home", "--user-group"];
        let list = groups.join(",");
        if !groups.is_empty() {
            args.extend(["--groups", &list]);
        }
        args.push(&name);
        admin(&args);
        self.users.push(name.clone());
        let id = |flag: &str| -> u32 {
            let out = Command::new("id").args([flag, &name]).output().expect("id");
            String::from_utf8_lossy(&out.stdout)
                .trim()
                .parse()
                .expect("numeric id")
        };
        LocalUser {
            uid: id("-u"),
            gid: id("-g"),
            name,
        }
    }
}

impl Drop for Accounts {
    fn drop(&mut self) {
        for u in &self.users {
            let _ = Command::new("userdel").arg(u).output();
        }
        for g in &self.groups {
            let _ = Command::new("groupdel").arg(g).output();
        }
    }
}

struct LocalUser {
    uid: u32,
    gid: u32,
    name: String,
}

impl LocalUser {
    /// `program args…` as this user, with the supplementary groups of the group database.
    fn command(&self, program: &Path, home: &Path) -> Command {
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid",
            &self.uid.to_string(),
            "--regid",
            &self.gid.to_string(),
            "--init-groups",
            "--",
        ])
        .arg(program)
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::null());
        c
    }

    /// `llmops-tui --server unix:SOCKET --json ARGS…` as this user: (exit code, JSON, stderr).
    fn tui(&self, socket: &Path, home: &Path, args: &[&str]) -> (i32, serde_json::Value, String) {
        let server = format!("unix:{}", socket.display());
        let out = self
            .command(&bin("llmops-tui"), home)
            .args(["--server", &server, "--json"])
            .args(args)
            .output()
            .expect("run llmops-tui");
        let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
        let v = stdout
            .lines()
            .last()
            .and_then(|l| serde_json::from_str(l).ok())
            .unwrap_or(serde_json::Value::Null);
        (
            out.status.code().unwrap_or(-1),
            v,
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    }
}

/// A server listening on a socket in a folder every test user can reach.
struct LocalServer {
    server: ServerProc,
    socket: PathBuf,
    /// HOME of the clients (they read no configuration there).
    home: tempfile::TempDir,
    _dir: tempfile::TempDir,
}

fn local_server(extra: &[&str]) -> LocalServer {
    let dir = tempfile::tempdir().expect("dir");
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).expect("chmod");
    let socket = dir.path().join("llmops.sock");
    let sock = socket.to_str().expect("utf8").to_string();
    let mut args = vec!["--socket", sock.as_str(), "--embedder", "none"];
    args.extend_from_slice(extra);
    let server = ServerProc::start_with(&args).expect("server");
    assert_eq!(server.socket.as_deref(), Some(socket.as_path()));
    let home = tempfile::tempdir().expect("home");
    std::fs::set_permissions(home.path(), std::fs::Permissions::from_mode(0o777)).expect("chmod");
    LocalServer {
        server,
        socket,
        home,
        _dir: dir,
    }
}

fn session_ids(v: &serde_json::Value) -> Vec<String> {
    v["sessions"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s["id"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn two_local_users_each_see_only_their_own_sessions() {
    if !root_or_skip() {
        return;
    }
    let mut acc = Accounts::new("s");
    let ops = acc.group("ops");
    let alice = acc.user("alice", &[&ops]);
    let bob = acc.user("bob", &[&ops]);
    let ls = local_server(&["--operators-group", &ops]);
    let (sock, home) = (&ls.socket, ls.home.path());

    let (code, a, err) = alice.tui(sock, home, &["ask", "你好"]);
    assert_eq!(code, 0, "{err}");
    let (code, b, err) = bob.tui(sock, home, &["ask", "你好"]);
    assert_eq!(code, 0, "{err}");
    let (sa, sb) = (
        a["session_id"]
            .as_str()
            .expect("alice's session")
            .to_string(),
        b["session_id"].as_str().expect("bob's session").to_string(),
    );
    assert_ne!(sa, sb);

    let (_, list, _) = alice.tui(sock, home, &["sessions"]);
    assert_eq!(session_ids(&list), vec![sa.clone()], "{list}");
    let (_, list, _) = bob.tui(sock, home, &["sessions"]);
    assert_eq!(session_ids(&list), vec![sb.clone()], "{list}");
    // Not by its full id either.
    let (code, v, _) = alice.tui(sock, home, &["--session", &sb, "ask", "hi"]);
    assert_ne!(code, 0);
    assert_eq!(v["code"], "not_found", "{v}");

    // The sessions belong to the Unix users, not to the unnamed TCP owner.
    let db = rusqlite::Connection::open(ls.server.data_path().join("llmops.sqlite")).expect("db");
    let owner = |sid: &str| -> String {
        db.query_row("SELECT owner FROM sessions WHERE id = ?1", [sid], |r| {
            r.get(0)
        })
        .expect("owner")
    };
    assert_eq!(owner(&sa), format!("uid:{}", alice.uid));
    assert_eq!(owner(&sb), format!("uid:{}", bob.uid));
    // Nor around the socket: without a token, TCP names no user, so it is refused once an
    // operators group decides who may use the server.
    let tcp = ls.server.addr.to_string();
    let (code, out, err) =
        llmops_tests::run_tui(&["sessions", "--server", &tcp, "--json"]).expect("run");
    assert_ne!(code, 0, "{out}");
    assert!(
        format!("{out}{err}").contains(&format!("members of {ops}")),
        "{out} {err}"
    );
}

#[test]
fn a_user_outside_approvers_cannot_approve_and_the_audit_names_them() {
    if !root_or_skip() {
        return;
    }
    let mut acc = Accounts::new("a");
    let ops = acc.group("ops");
    let appr = acc.group("appr");
    let alice = acc.user("alice", &[&ops, &appr]);
    let bob = acc.user("bob", &[&ops]);
    let ls = local_server(&["--operators-group", &ops, "--approvers-group", &appr]);
    let (sock, home) = (&ls.socket, ls.home.path());
    let mut target = Command::new("sleep")
        .arg("300")
        .stdin(Stdio::null())
        .spawn()
        .expect("sleep");
    let kill = format!("kill -TERM {}", target.id());

    let (_, v, err) = bob.tui(sock, home, &["ask", "--yes-to", &kill, &kill]);
    let approvals = v["approvals"].as_array().cloned().unwrap_or_default();
    assert_eq!(approvals.len(), 1, "{v} {err}");
    assert_eq!(approvals[0]["state"], "denied", "{v}");
    assert!(target.try_wait().expect("wait").is_none(), "bob's kill ran");

    let (_, v, err) = alice.tui(sock, home, &["ask", "--yes-to", &kill, &kill]);
    let approvals = v["approvals"].as_array().cloned().unwrap_or_default();
    assert_eq!(approvals[0]["state"], "approved", "{v} {err}");
    let deadline = Instant::now() + Duration::from_secs(30);
    while target.try_wait().expect("wait").is_none() {
        assert!(
            Instant::now() < deadline,
            "alice's approved kill did not run"
        );
        std::thread::sleep(Duration::from_millis(20));
    }

    let log = std::fs::read_to_string(
        ls.server
            .data_path()
            .join("logs")
            .join("file_operations.log"),
    )
    .expect("audit log");
    let refused = log
        .lines()
        .find(|l| l.contains("reason=not_approver"))
        .expect("bob's refusal audited");
    assert!(
        refused.contains(&format!("uid={}", bob.uid)) && refused.contains(&bob.name),
        "{refused}"
    );
    assert!(
        log.lines()
            .any(|l| l.contains(&format!("uid={}", alice.uid)) && l.contains("decision=once")),
        "alice's approval audited with her uid"
    );
}

#[test]
fn a_user_outside_operators_cannot_connect() {
    if !root_or_skip() {
        return;
    }
    let mut acc = Accounts::new("o");
    let ops = acc.group("ops");
    let carol = acc.user("carol", &[]);
    let ls = local_server(&["--operators-group", &ops]);
    let (code, v, err) = carol.tui(&ls.socket, ls.home.path(), &["status"]);
    assert_eq!(code, 69, "{v} {err}");
    assert_eq!(v["code"], "unreachable", "{v}");
    assert!(
        v["error"]
            .as_str()
            .is_some_and(|e| e.contains("Permission denied")),
        "{v}"
    );
}

/// Environment of the helper that holds idle connections as another user.
const HOLD_ENV: &str = "LLMOPS_TEST_HOLD";

#[test]
fn a_new_local_client_is_served_while_another_user_holds_100_idle_connections() {
    if !root_or_skip() {
        return;
    }
    let mut acc = Accounts::new("i");
    let ops = acc.group("ops");
    let alice = acc.user("alice", &[&ops]);
    let bob = acc.user("bob", &[&ops]);
    let ls = local_server(&["--operators-group", &ops]);
    let (sock, home) = (&ls.socket, ls.home.path());

    // Alice's stuck script: 100 connections that said HELLO and then nothing.
    let exe = std::env::current_exe().expect("test executable");
    let mut holder: Child = alice
        .command(&exe, home)
        .args([
            "--exact",
            "hold_idle_connections_helper",
            "--ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(HOLD_ENV, format!("{}:100", sock.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("holder");
    let mut lines = BufReader::new(holder.stdout.take().expect("stdout")).lines();
    let held = lines
        .by_ref()
        .map_while(Result::ok)
        // libtest may have printed "test NAME ... " on the same line first.
        .find_map(|l| l.split("held ").nth(1).map(|x| x.trim().to_string()))
        .expect("the holder reports");
    assert_eq!(held, "100");

    // Bob is served, and so is a new client of Alice's own.
    for user in [&bob, &alice] {
        let (code, v, err) = user.tui(sock, home, &["status"]);
        assert_eq!(code, 0, "{}: {v} {err}", user.name);
    }
    // Alice's idle connections made room for her newer ones: at most 32 stayed.
    drop(holder.stdin.take());
    let evicted: usize = lines
        .map_while(Result::ok)
        .find_map(|l| l.split("evicted ").nth(1).map(|x| x.trim().to_string()))
        .expect("the holder reports evictions")
        .parse()
        .expect("count");
    let _ = holder.wait();
    assert!(
        evicted >= 100 - 32,
        "only {evicted} of alice's 100 were evicted"
    );
}

/// Not a test on its own: the helper the test above runs as another user. Opens N
/// connections to the socket, completes HELLO on each, says `held N`, waits for stdin to
/// close, then says how many the server closed (`evicted E`).
#[test]
#[ignore = "helper process of a_new_local_client_is_served_while_another_user_holds_100_idle_connections"]
fn hold_idle_connections_helper() {
    let Ok(spec) = std::env::var(HOLD_ENV) else {
        return;
    };
    let (path, n) = spec.rsplit_once(':').expect("PATH:N");
    let n: usize = n.parse().expect("count");
    let hello = br#"{"proto":1,"client":"idle","client_version":"0"}"#;
    let mut frame = vec![0x20, 0, 0];
    frame.extend_from_slice(&(hello.len() as u16).to_be_bytes());
    frame.extend_from_slice(hello);
    let mut held = Vec::new();
    for _ in 0..n {
        let mut s = UnixStream::connect(path).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(20)))
            .expect("timeout");
        s.write_all(&frame).expect("hello");
        let mut head = [0u8; 5];
        s.read_exact(&mut head).expect("welcome");
        let mut body = vec![0u8; u16::from_be_bytes([head[3], head[4]]) as usize];
        s.read_exact(&mut body).expect("welcome body");
        assert_eq!(head[0], 0x21, "{}", String::from_utf8_lossy(&body));
        held.push(s);
    }
    println!("held {}", held.len());
    let mut rest = String::new();
    let _ = std::io::stdin().read_to_string(&mut rest);
    // A connection the server closed answers a read with its notice, or EOF, at once.
    let mut evicted = 0;
    for mut s in held {
        s.set_read_timeout(Some(Duration::from_millis(50)))
            .expect("timeout");
        let mut b = [0u8; 1];
        match s.read(&mut b) {
            Ok(_) => evicted += 1,
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => evicted += 1,
            Err(_) => {}
        }
    }
    println!("evicted {evicted}");
}
