//! The `llmops-tui ask` subcommand against the real server: JSON output shape, uploads in
//! the same session, exit codes.

use llmops_tests::{run_tui, ServerProc};

#[test]
fn ask_json_with_upload() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    let fixture = llmops_tests::fixtures_dir().join("app.log");
    let (code, out, err) = run_tui(&[
        "ask",
        "--server",
        &addr,
        "--json",
        "--upload",
        fixture.to_str().expect("utf8 path"),
        "这个日志有什么错误？",
    ])
    .expect("run");
    assert_eq!(code, 0, "stderr: {err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    let sid = v["session_id"].as_str().expect("session_id");
    assert!(!sid.is_empty());
    assert!(!v["answer"].as_str().expect("answer").is_empty());
    assert!(v["steps"].is_array());

    // The upload landed in that session.
    let (code, out, _) =
        run_tui(&["files", "--server", &addr, "--session", sid, "--json"]).expect("run");
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    assert_eq!(v["files"][0]["filename"], "app.log");

    // Plain text mode prints the answer.
    let (code, out, _) = run_tui(&["ask", "--server", &addr, "hello"]).expect("run");
    assert_eq!(code, 0);
    assert!(!out.trim().is_empty());
}

#[test]
fn ask_exit_codes() {
    // Nothing listens on port 1 of loopback.
    let (code, _, err) = run_tui(&["ask", "--server", "127.0.0.1:1", "hi"]).expect("run");
    assert_eq!(code, 69, "{err}");
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    let (code, out, _) = run_tui(&[
        "ask",
        "--server",
        &addr,
        "--json",
        "--upload",
        "/nonexistent/file.log",
        "hi",
    ])
    .expect("run");
    assert_eq!(code, 1);
    assert!(out.contains("error"));
    let (code, _, _) =
        run_tui(&["ask", "--server", &addr, "--session", "nosuchsession", "hi"]).expect("run");
    assert_eq!(code, 1);
}

#[test]
fn upload_and_search_subcommands() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    let fixture = llmops_tests::fixtures_dir().join("nginx.conf");
    let (code, out, err) = run_tui(&[
        "upload",
        "--server",
        &addr,
        "--json",
        fixture.to_str().expect("utf8"),
    ])
    .expect("run");
    assert_eq!(code, 0, "{err}");
    let up: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    for key in [
        "session_id",
        "file_id",
        "filename",
        "size",
        "sha256",
        "state",
    ] {
        assert!(!up[key].is_null(), "missing {key} in {up}");
    }
    assert_eq!(up["filename"], "nginx.conf");
    let sid = up["session_id"].as_str().expect("sid");
    let (code, out, err) = run_tui(&[
        "search",
        "--server",
        &addr,
        "--session",
        sid,
        "--scope",
        "uploads",
        "--top-k",
        "2",
        "--json",
        "worker_connections",
    ])
    .expect("run");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    let hit = &v["results"][0];
    assert_eq!(hit["filename"], "nginx.conf");
    for key in ["filepath", "similarity", "chunk", "position", "match_type"] {
        assert!(!hit[key].is_null(), "missing {key} in {hit}");
    }
    // A bad scope is a specific error, not a crash.
    let (code, out, _) = run_tui(&[
        "search",
        "--server",
        &addr,
        "--scope",
        "everywhere",
        "--json",
        "x",
    ])
    .expect("run");
    assert_eq!(code, 1);
    assert!(out.contains("scope"), "{out}");
}

fn session_count(addr: &str) -> usize {
    let (code, out, err) = run_tui(&["sessions", "--server", addr, "--json"]).expect("run");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    v["sessions"].as_array().expect("sessions").len()
}

#[test]
fn read_only_subcommands_create_no_session() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    for args in [
        vec!["status"],
        vec!["files"],
        vec!["sessions"],
        vec!["search", "nginx"],
        vec!["files", "--json"],
    ] {
        let mut a = args.clone();
        a.extend(["--server", &addr]);
        let (code, _, err) = run_tui(&a).expect("run");
        assert_eq!(code, 0, "{args:?}: {err}");
    }
    assert_eq!(session_count(&addr), 0);
    // A question does make one.
    let (code, _, err) = run_tui(&["ask", "--server", &addr, "hello"]).expect("run");
    assert_eq!(code, 0, "{err}");
    assert_eq!(session_count(&addr), 1);
}

#[test]
fn upload_json_carries_the_answer_to_the_note() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    let fixture = llmops_tests::fixtures_dir().join("app.log");
    let (code, out, err) = run_tui(&[
        "upload",
        "--server",
        &addr,
        "--json",
        fixture.to_str().expect("utf8 path"),
        "这个日志有多少行？",
    ])
    .expect("run");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON object");
    assert_eq!(v["filename"], "app.log");
    assert!(!v["answer"].as_str().expect("answer").is_empty(), "{v}");
}

#[test]
fn ask_into_a_closed_pipe_exits_zero_quietly() {
    use std::process::{Command, Stdio};
    let server = ServerProc::start().expect("server");
    let exe = llmops_tests::bin("llmops-tui");
    let mut child = Command::new(exe)
        .args(["ask", "--server", &server.addr.to_string(), "ps -ef"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // `| head -0`: the reader goes away before anything is read.
    drop(child.stdout.take());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{err}"
    );
}

#[test]
fn a_peer_that_is_not_nplt_exits_69_with_a_sentence() {
    use std::io::{Read, Write};
    let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = l.local_addr().expect("addr").to_string();
    std::thread::spawn(move || {
        if let Ok((mut s, _)) = l.accept() {
            let mut buf = [0u8; 512];
            let _ = s.read(&mut buf);
            let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
        }
    });
    let (code, _, err) = run_tui(&["status", "--server", &addr]).expect("run");
    assert_eq!(code, 69, "{err}");
    assert!(err.contains("is not an llmops (NPLT) server"), "{err}");
}

/// A planted access log: request paths carry ticket ids (`TK-…`), some repeated; lines of
/// a tenant's calls name it after `tenant=`. Returns the text, the distinct ids of POSTs,
/// and the tenant with the most 5xx answers and its count.
fn planted_ticket_log() -> (String, usize, (String, usize)) {
    use std::collections::{BTreeMap, BTreeSet};
    use std::fmt::Write as _;
    let tenants = ["acme", "globex", "initech"];
    let (mut text, mut posted) = (String::new(), BTreeSet::new());
    let mut failures: BTreeMap<&str, usize> = BTreeMap::new();
    let mut seed = 17u64;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (seed >> 33) % n
    };
    for i in 0..600u32 {
        let id = format!("TK-{}", 1000 + next(240));
        let post = next(2) == 0;
        let tenant = tenants[usize::try_from(next(3)).expect("small")];
        // One tenant fails more than the others.
        let status = if next(if tenant == "globex" { 3 } else { 9 }) == 0 {
            503
        } else {
            200
        };
        if post {
            posted.insert(id.clone());
        }
        if status == 503 {
            *failures.entry(tenant).or_default() += 1;
        }
        let method = if post { "POST" } else { "GET" };
        let _ = writeln!(
            text,
            "10.1.0.{} - - [17/Feb/2032:01:{:02}:{:02} +0000] \"{method} /api/tickets/{id}?tenant={tenant} HTTP/1.1\" {status} 512 \"-\" \"curl/8.4\"",
            i % 11,
            (i / 60) % 60,
            i % 60
        );
    }
    let top = failures
        .iter()
        .max_by_key(|(_, n)| **n)
        .map(|(t, n)| ((*t).to_string(), *n))
        .expect("some failures");
    (text, posted.len(), top)
}

#[test]
fn questions_that_define_a_field_from_the_text_answer_the_planted_figures() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    let dir = tempfile::tempdir().expect("tempdir");
    let (text, posted, (tenant, failed)) = planted_ticket_log();
    let path = dir.path().join("tickets-access.log");
    std::fs::write(&path, text).expect("write");
    let path = path.to_str().expect("utf8 path");
    let ask = |question: &str, session: Option<&str>| {
        let mut args = vec!["ask", "--server", &addr, "--json"];
        match session {
            Some(sid) => args.extend(["--session", sid]),
            None => args.extend(["--new-session", "--upload", path]),
        }
        args.push(question);
        let (code, out, err) = run_tui(&args).expect("run");
        assert_eq!(code, 0, "{err}");
        let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
        let sid = v["session_id"].as_str().expect("session_id").to_string();
        (v["answer"].as_str().expect("answer").to_string(), sid)
    };
    let (a, sid) = ask("how many different TK ids were POSTed?", None);
    assert!(a.contains(&format!("**{posted}**")), "{a}");
    let (a, _) = ask(
        "which tenant got the most 503s? i.e. the part after tenant=",
        Some(&sid),
    );
    assert!(
        a.contains(&tenant) && a.contains(&failed.to_string()),
        "{a}"
    );
}
