//! Actions with the operator's approval, end to end through the real server on the offline
//! planner: approve once, approve always (a matching request then runs without asking, a
//! different one asks), revoke, reject, expiry, deny rules no approval unlocks, a legacy
//! client that cannot approve, `ask --yes-to`, a kill asked by a program's name, and the
//! tamper-evident audit chain. The targets are harmless processes the test starts itself.

use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use llmops_tests::{bin, run_tui, ExtConn, RawConn, ServerProc};
use protocol::*;

/// A process the test owns; killed and reaped on drop.
struct Target {
    child: Child,
}

impl Target {
    /// `sleep 300`: dies on TERM.
    fn sleeper() -> Target {
        let child = Command::new("sleep")
            .arg("300")
            .stdin(Stdio::null())
            .spawn()
            .expect("spawn sleep");
        Target { child }
    }

    /// A sleep that ignores HUP (the disposition survives `exec`): `kill -HUP` leaves it
    /// running, so the same argv can be approved more than once.
    fn hup_proof() -> Target {
        let child = Command::new("sh")
            .args(["-c", "trap '' HUP; exec sleep 300"])
            .stdin(Stdio::null())
            .spawn()
            .expect("spawn sh");
        let t = Target { child };
        // Until the exec, a HUP would hit the shell's default; wait for the sleep image.
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let comm =
                std::fs::read_to_string(format!("/proc/{}/comm", t.pid())).unwrap_or_default();
            if comm.trim() == "sleep" {
                return t;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the HUP-proof target never exec'd sleep");
    }

    fn pid(&self) -> u32 {
        self.child.id()
    }

    fn running(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    /// Its exit status once it ended (bounded wait: a correctness bound, not a timing).
    fn ended(&mut self) -> Option<ExitStatus> {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            if let Some(s) = self.child.try_wait().expect("try_wait") {
                return Some(s);
            }
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Target {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends a chat message; returns its request id.
fn start_turn(c: &mut ExtConn, text: &str) -> u64 {
    let rid = c.next_id();
    c.send(&Message::Chat(ChatSend {
        request_id: rid,
        text: text.into(),
        file_ids: vec![],
        action: None,
    }))
    .expect("send chat");
    rid
}

fn is_end(m: &Message, rid: u64) -> bool {
    matches!(m, Message::StreamEnd(e) if e.request_id == rid)
}

/// Receives until the turn asks for an approval (returned) or ends (None).
fn next_request(c: &mut ExtConn, rid: u64, seen: &mut Vec<Message>) -> Option<ApprovalRequest> {
    let msgs = c
        .recv_until(|m| matches!(m, Message::ApprovalRequest(_)) || is_end(m, rid))
        .expect("turn frames");
    let last = msgs.last().cloned();
    seen.extend(msgs);
    match last {
        Some(Message::ApprovalRequest(r)) => Some(*r),
        _ => None,
    }
}

fn finish(c: &mut ExtConn, rid: u64, seen: &mut Vec<Message>) {
    seen.extend(c.recv_until(|m| is_end(m, rid)).expect("turn end"));
}

fn reply(c: &mut ExtConn, req: &ApprovalRequest, decision: ApprovalDecision) {
    c.send(&Message::ApprovalReply(ApprovalReply {
        approval_id: req.approval_id.clone(),
        decision,
    }))
    .expect("send reply");
}

fn states(seen: &[Message]) -> Vec<ApprovalState> {
    seen.iter()
        .filter_map(|m| match m {
            Message::ApprovalState(s) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

fn answer(seen: &[Message]) -> String {
    seen.iter()
        .filter_map(|m| match m {
            Message::StreamDelta(d) => Some(d.text.as_str()),
            _ => None,
        })
        .collect()
}

fn argv(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

fn audit_log(server: &ServerProc) -> String {
    std::fs::read_to_string(server.data_path().join("logs/file_operations.log")).expect("audit log")
}

fn audit_verify(data_dir: &std::path::Path) -> (i32, String) {
    let out = Command::new(bin("llmops-server"))
        .args(["audit", "verify", "--data-dir"])
        .arg(data_dir)
        .output()
        .expect("run audit verify");
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

#[test]
fn approve_once_runs_exactly_the_argv_verifies_it_and_audits_a_verifiable_chain() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let mut t = Target::sleeper();
    let pid = t.pid().to_string();

    let rid = start_turn(&mut c, &format!("kill process {pid}"));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("an approval request");
    assert_eq!(req.argv, argv(&format!("kill -TERM {pid}")));
    assert_eq!(req.request_id, Some(rid));
    assert_eq!(req.always.rule, req.argv, "a kill grant is the exact argv");
    assert!(!req.risk.is_empty() && !req.reason.is_empty(), "{req:?}");
    assert!(t.running(), "nothing runs before the approval");

    reply(&mut c, &req, ApprovalDecision::ApproveOnce);
    finish(&mut c, rid, &mut seen);
    let status = t.ended().expect("the approved kill ended the target");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(15),
        "ended by TERM"
    );
    let st = states(&seen);
    assert_eq!(st.len(), 1, "{st:?}");
    assert_eq!(st[0].state, ApprovalStateKind::Approved);
    assert_eq!(st[0].grant_id, None);
    let text = answer(&seen);
    assert!(text.contains(&pid), "the answer names the pid: {text}");

    let log = audit_log(&server);
    for op in ["APPROVAL_REQUEST", "APPROVED", "ACTION_EXEC"] {
        assert!(
            log.lines()
                .any(|l| l.contains(&format!("[{op}]")) && l.contains(&pid)),
            "{op} with the pid in the audit log:\n{log}"
        );
    }
    assert!(
        log.lines().any(|l| l.contains("[ACTION_EXEC]")
            && l.contains("exit_code=0")
            && l.contains("client=127.0.0.1")),
        "the execution is audited with its exit code and the client address:\n{log}"
    );
    let (code, out) = audit_verify(server.data_path());
    assert_eq!(code, 0, "an untouched log verifies: {out}");

    // Editing one record breaks the chain at that record.
    let path = server.data_path().join("logs/file_operations.log");
    let (_, dir) = server.terminate().expect("stop");
    let edited = log.replacen(&format!("-TERM {pid}"), "-TERM 1", 1);
    assert_ne!(edited, log);
    std::fs::write(&path, edited).expect("edit");
    let (code, out) = audit_verify(dir.path());
    assert_eq!(code, 1, "an edited record is found: {out}");
}

/// A shell whose command line mentions `name` without running it.
fn mentioning(name: &str) -> Target {
    let child = Command::new("sh")
        .args(["-c", &format!("sleep 300 # {name}")])
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn sh -c");
    Target { child }
}

/// A program with its own name, run by `sh` from a temp dir: `sh DIR/NAME`.
fn named_script(dir: &std::path::Path, name: &str) -> Target {
    let path = dir.join(name);
    std::fs::write(&path, "while :; do sleep 1; done\n").expect("write script");
    let child = Command::new("sh")
        .arg(&path)
        .stdin(Stdio::null())
        .spawn()
        .expect("spawn sh");
    Target { child }
}

#[test]
fn a_kill_asked_by_name_proposes_the_program_and_not_what_only_mentions_it() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "llmops-e2e-cruncher";
    let target = named_script(dir.path(), name);
    // Processes whose command lines name it without running it.
    let log = dir.path().join(format!("{name}.log"));
    std::fs::write(&log, "").expect("write log");
    let mut tail = Target {
        child: Command::new("tail")
            .arg("-f")
            .arg(&log)
            .stdin(Stdio::null())
            .spawn()
            .expect("spawn tail"),
    };
    let mut shell = mentioning(name);

    let rid = start_turn(&mut c, &format!("kill the {name} process"));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("an approval request");
    assert_eq!(req.argv, argv(&format!("kill -TERM {}", target.pid())));
    reply(&mut c, &req, ApprovalDecision::Reject);
    finish(&mut c, rid, &mut seen);
    assert!(tail.running() && shell.running(), "nothing ran");
}

#[test]
fn the_top_process_of_a_name_is_one_of_that_program_s() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let (one, two) = (
        tempfile::tempdir().expect("dir"),
        tempfile::tempdir().expect("dir"),
    );
    let name = "llmops-e2e-hog";
    let (a, b) = (
        named_script(one.path(), name),
        named_script(two.path(), name),
    );
    // One that only mentions the name in its command line is no such process.
    let mut shell = mentioning(name);
    let rid = start_turn(
        &mut c,
        &format!("kill the {name} process using the most memory"),
    );
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("an approval request");
    let ours = [a.pid(), b.pid()].map(|p| argv(&format!("kill -TERM {p}")));
    assert!(ours.contains(&req.argv), "{:?}", req.argv);
    reply(&mut c, &req, ApprovalDecision::Reject);
    finish(&mut c, rid, &mut seen);
    assert!(shell.running(), "nothing ran");
}

#[test]
fn reject_and_expiry_never_run_the_action() {
    let dir = tempfile::tempdir().expect("dir");
    let cfg = dir.path().join("server.toml");
    std::fs::write(&cfg, "approval_timeout_secs = 1\n").expect("config");
    let server =
        ServerProc::start_with(&["--config", cfg.to_str().expect("utf8")]).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let mut t = Target::sleeper();
    let pid = t.pid();

    let rid = start_turn(&mut c, &format!("kill -TERM {pid}"));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("an approval request");
    reply(&mut c, &req, ApprovalDecision::Reject);
    finish(&mut c, rid, &mut seen);
    assert!(t.running(), "a rejected kill never runs");
    assert_eq!(states(&seen)[0].state, ApprovalStateKind::Rejected);

    // Nobody answers: the request expires on its own timer and nothing runs.
    let rid = start_turn(&mut c, &format!("kill -TERM {pid}"));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("an approval request");
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock")
        .as_secs();
    assert!(
        req.expires_at <= now + 2,
        "expires after the configured second"
    );
    finish(&mut c, rid, &mut seen);
    assert!(t.running(), "an expired request never runs");
    let st = states(&seen);
    assert_eq!(st.last().map(|s| s.state), Some(ApprovalStateKind::Expired));
    // A late answer to the expired request is refused, specifically.
    reply(&mut c, &req, ApprovalDecision::ApproveOnce);
    let msgs = c
        .recv_until(|m| matches!(m, Message::Error(_)))
        .expect("error");
    match msgs.last() {
        Some(Message::Error(e)) => assert_eq!(e.code, "not_found", "{e:?}"),
        other => panic!("{other:?}"),
    }
    assert!(t.running());
    assert!(audit_log(&server).contains("[EXPIRED]"));
}

#[test]
fn approve_always_covers_the_same_argv_only_and_revoke_ends_it() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let mut a = Target::hup_proof();
    let mut b = Target::hup_proof();
    let hup = |t: &Target| format!("kill -HUP {}", t.pid());

    let rid = start_turn(&mut c, &hup(&a));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("asks the first time");
    assert_eq!(req.argv, argv(&hup(&a)));
    reply(
        &mut c,
        &req,
        ApprovalDecision::ApproveAlways {
            lifetime: GrantLifetime::Session,
        },
    );
    finish(&mut c, rid, &mut seen);
    assert!(a.running(), "HUP is ignored by the target");
    assert_eq!(states(&seen)[0].state, ApprovalStateKind::Approved);

    // The same argv runs without asking, approved by the grant.
    let rid = start_turn(&mut c, &hup(&a));
    let mut seen = Vec::new();
    assert!(
        next_request(&mut c, rid, &mut seen).is_none(),
        "a matching request is not asked again"
    );
    let st = states(&seen);
    assert_eq!(st.len(), 1, "{st:?}");
    assert_eq!(st[0].state, ApprovalStateKind::Approved);
    let grant_id = st[0].grant_id.clone().expect("approved by the grant");

    // Another pid is another act: asked.
    let rid = start_turn(&mut c, &hup(&b));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("a different pid asks");
    assert_eq!(req.argv, argv(&hup(&b)));
    reply(&mut c, &req, ApprovalDecision::Reject);
    finish(&mut c, rid, &mut seen);
    assert!(b.running());

    // The grant is listed with its scope and use count, and revoking it ends it.
    let lid = c.next_id();
    c.send(&Message::GrantsList(Req { request_id: lid }))
        .expect("send");
    let grants = match c
        .recv_until(|m| matches!(m, Message::Grants(_)))
        .expect("grants")
        .pop()
    {
        Some(Message::Grants(g)) => g.grants,
        other => panic!("{other:?}"),
    };
    assert_eq!(grants.len(), 1, "{grants:?}");
    assert_eq!(grants[0].grant_id, grant_id);
    assert_eq!(grants[0].scope.rule, argv(&hup(&a)));
    assert_eq!(grants[0].lifetime, GrantLifetime::Session);
    assert_eq!(grants[0].uses, 1);
    let vid = c.next_id();
    c.send(&Message::GrantRevoke(GrantRevoke {
        request_id: vid,
        grant_id: grant_id.clone(),
    }))
    .expect("send");
    let msgs = c
        .recv_until(|m| matches!(m, Message::Ack(_) | Message::Error(_)))
        .expect("ack");
    assert!(matches!(msgs.last(), Some(Message::Ack(_))), "{msgs:?}");

    let rid = start_turn(&mut c, &hup(&a));
    let mut seen = Vec::new();
    let req = next_request(&mut c, rid, &mut seen).expect("asks again after the revoke");
    reply(&mut c, &req, ApprovalDecision::Reject);
    finish(&mut c, rid, &mut seen);
    assert!(a.running() && b.running());
    let log = audit_log(&server);
    assert!(log.contains("[GRANT_ADDED]") && log.contains("[GRANT_REVOKED]"));
}

#[test]
fn deny_rules_cannot_be_approved() {
    let server = ServerProc::start().expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    let mut t = Target::sleeper();
    for text in [
        "kill -TERM 1".to_string(),
        format!("kill -KILL {}", server.pid()),
        // One denied pid denies the whole list; the allowed one is not killed either.
        format!("kill -TERM {} 1", t.pid()),
    ] {
        let rid = start_turn(&mut c, &text);
        let mut seen = Vec::new();
        assert!(
            next_request(&mut c, rid, &mut seen).is_none(),
            "{text}: a denied action is never offered for approval"
        );
        let st = states(&seen);
        assert_eq!(st.len(), 1, "{text}: {st:?}");
        assert_eq!(st[0].state, ApprovalStateKind::Denied, "{text}");
        assert!(st[0].detail.as_deref().is_some_and(|d| !d.is_empty()));
    }
    assert!(t.running());
    assert!(audit_log(&server).contains("[ACTION_DENIED]"));
}

#[test]
fn a_legacy_client_cannot_approve_and_nothing_runs() {
    let server = ServerProc::start().expect("server");
    let mut t = Target::sleeper();
    let mut c = RawConn::connect(server.addr).expect("connect");
    c.send_json(0x18, serde_json::json!({"udp_port": 40000}))
        .expect("send");
    let (ty, _welcome) = c.recv_text().expect("welcome");
    assert_eq!(ty, 0x01);
    c.send(0x01, format!("kill -TERM {}", t.pid()).as_bytes())
        .expect("send");
    let mut text = String::new();
    let mut started = false;
    loop {
        let (ty, p) = c.recv_text().expect("frame");
        match ty {
            0x0A if p.contains("stream_start") => started = true,
            0x01 if started && p.is_empty() => break,
            0x01 if started => text.push_str(&p),
            _ => {}
        }
    }
    assert!(
        text.contains("旧版客户端无法批准") && text.contains("legacy"),
        "{text}"
    );
    assert!(t.running(), "a legacy client never approves");
}

#[test]
fn ask_approves_only_the_yes_to_argv_and_reports_every_approval() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    let mut t = Target::sleeper();
    let kill = format!("kill -TERM {}", t.pid());

    // Without --yes-to, script mode never approves.
    let (code, out, err) = run_tui(&["ask", "--server", &addr, "--json", &kill]).expect("run");
    assert_eq!(code, 0, "{out}{err}");
    assert!(t.running(), "ask never approves by itself");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["approvals"][0]["state"], "rejected", "{v}");

    // --yes-to with another argv approves nothing.
    let other = format!("kill -TERM {}", t.pid() + 1);
    let (_, out, _) = run_tui(&[
        "ask", "--server", &addr, "--json", "--yes-to", &other, &kill,
    ])
    .expect("run");
    assert!(t.running());
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(v["approvals"][0]["state"], "rejected", "{v}");

    let (code, out, err) =
        run_tui(&["ask", "--server", &addr, "--json", "--yes-to", &kill, &kill]).expect("run");
    assert_eq!(code, 0, "{out}{err}");
    assert!(t.ended().is_some(), "the exact --yes-to argv ran");
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let approvals = v["approvals"].as_array().expect("approvals");
    assert_eq!(approvals.len(), 1, "{v}");
    assert_eq!(approvals[0]["state"], "approved");
    assert_eq!(approvals[0]["argv"], serde_json::json!(argv(&kill)));
}
