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
