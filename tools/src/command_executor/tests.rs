//! Tests of the command_executor tool with real processes: refusals, pipelines with planted
//! counts, upload-first names, session privacy, caps, timeouts, cancellation, not installed.

use super::*;
use crate::testutil::Env;
use llmops_policy::{CommandPolicy, CommandPolicyConfig};
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

fn with_timeout(env: &Env, ms: u64) -> ToolCtx {
    let mut cfg = CommandPolicyConfig::with_defaults(&env.data);
    cfg.timeout_ms = ms;
    let mut ctx = env.ctx.clone();
    ctx.commands = Arc::new(CommandPolicy::new(cfg));
    ctx
}

async fn call(env: &Env, args: Value) -> ToolResult {
    CommandExecutorTool.call(args, &env.ctx).await
}

#[tokio::test]
async fn tools_cmd_refusals_are_specific_and_audited() {
    let env = Env::new();
    for (args, msg) in [
            (
                json!({"command": "rm", "args": ["-rf", "/"]}),
                "命令不在白名单中: rm",
            ),
            (
                json!({"command": "cat", "args": ["/etc/shadow"]}),
                "路径匹配禁止模式: /etc/shadow",
            ),
            (json!({"command": "ls; reboot"}), "参数包含非法字符: ;"),
            (
                json!({"command": "ps", "args": ["aux", "||", "head"]}),
                "不支持的 shell 操作符: ||（命令不经过 shell，只支持单个 | 管道 / only plain `|` pipes are supported）",
            ),
            (json!({"command": "ps aux | head > x"}), "参数包含非法字符: >"),
            (
                json!({"command": "/bin/ls"}),
                "命令必须是不带路径的命令名: /bin/ls（例如 ls 而不是 /bin/ls）",
            ),
            (
                json!({"command": "grep", "args": ["-f", "/etc/shadow", "x"]}),
                "不允许通过选项读取文件: -f（grep 的该选项已禁用）",
            ),
            (
                json!({"command": "systemctl restart nginx"}),
                "systemctl 只允许只读操作，不允许: restart（允许 / allowed: status|is-active|is-enabled|is-failed|list-units|list-timers|list-unit-files|list-sockets|show|cat）",
            ),
        ] {
            let r = call(&env, args.clone()).await;
            assert!(!r.ok, "{args}");
            assert_eq!(r.error.as_deref(), Some(msg), "{args}");
            assert_eq!(r.data.to_value()["blocked"], true);
        }
    let log = env.audit_log();
    let denies: Vec<&str> = log.lines().filter(|l| l.contains("[DENY]")).collect();
    assert_eq!(denies.len(), 8, "{log}");
    assert!(denies[0].contains("tool=command_executor target=\"rm -rf /\" code=not_whitelisted reason=\"命令不在白名单中: rm\""), "{}", denies[0]);
    assert!(denies[1].contains("reason=\"路径匹配禁止模式: /etc/shadow\""));
    assert!(denies[2].contains("reason=\"参数包含非法字符: ;\""));
    assert!(denies[7].contains("code=not_read_only"));
    assert!(!log.contains("[EXEC]"), "nothing refused was executed");
}

#[tokio::test]
async fn tools_cmd_runs_real_processes_in_working_dir() {
    let env = Env::new();
    let notes = up(&env, "notes.txt", "one\ntwo\nthree\n");
    let r = call(&env, json!({"command": "ls"})).await;
    assert!(r.ok, "{r:?}");
    assert!(r.data.to_value()["stdout"]
        .as_str()
        .unwrap_or("")
        .contains("id-s1-0"));
    assert_eq!(r.data.to_value()["exit_code"], 0);
    assert_eq!(
        r.data.to_value()["cwd"],
        env.ctx.uploads_root().display().to_string()
    );

    let r = call(&env, json!({"command": "head", "args": ["-n", "2", notes]})).await;
    assert_eq!(r.data.to_value()["stdout"], "one\ntwo\n");
    assert!(r.output.contains("[退出码 exit code: 0]"));

    let r = call(&env, json!({"command": "pwd"})).await;
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::trim),
        Some(env.ctx.uploads_root().to_str().unwrap_or(""))
    );

    // A nonzero exit is reported with stderr.
    let r = call(&env, json!({"command": "cat", "args": ["missing.txt"]})).await;
    assert!(!r.ok);
    assert_eq!(r.data.to_value()["exit_code"], 1);
    assert!(r
        .error
        .as_deref()
        .unwrap_or("")
        .starts_with("命令返回非零退出码 1: "));
    assert!(r.data.to_value()["stderr"]
        .as_str()
        .unwrap_or("")
        .contains("missing.txt"));

    // New read-only commands run for real; ps sees this very process.
    let me = std::process::id();
    let r = call(&env, json!({"command": format!("ps -p {me} -o pid=")})).await;
    assert!(r.ok, "{r:?}");
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::trim),
        Some(me.to_string().as_str())
    );
    let r = call(&env, json!({"command": "uname -s"})).await;
    assert_eq!(r.data.to_value()["stdout"], "Linux\n");

    let log = env.audit_log();
    assert!(
        log.contains("[EXEC] session=s1 command=ls args=\"\""),
        "{log}"
    );
    assert!(log.contains("command=cat args=missing.txt"), "{log}");
}

#[tokio::test]
async fn tools_cmd_pipelines_connect_real_processes() {
    let env = Env::new();
    // 1000 lines, ERROR on every 7th (143 of them), the rest INFO.
    let mut log = String::new();
    let mut errors = 0;
    for i in 0..1000 {
        if i % 7 == 0 {
            errors += 1;
            log.push_str(&format!("2024-05-01 ERROR job {i} failed\n"));
        } else {
            log.push_str(&format!("2024-05-01 INFO job {i} ok\n"));
        }
    }
    assert_eq!(errors, 143);
    env.upload("s1", "app.log", log.as_bytes(), "2025-01-01T00:00:00Z");
    let r = call(&env, json!({"command": "cat app.log | grep ERROR | wc -l"})).await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["stdout"], "143\n");
    assert_eq!(
        r.data.to_value()["stages"],
        json!([["cat", "app.log"], ["grep", "ERROR"], ["wc", "-l"]])
    );
    assert_eq!(r.data.to_value()["stage_exit_codes"], json!([0, 0, 0]));
    // grep first (files, in-process) into a process.
    let r = call(&env, json!({"command": "grep -v ERROR app.log | wc -l"})).await;
    assert_eq!(r.data.to_value()["stdout"], "857\n", "{r:?}");
    // Process into grep into grep into process.
    let r = call(
        &env,
        json!({"command": "cat app.log | grep ERROR | grep -c 'job [0-9]*0 '"}),
    )
    .await;
    let ends_in_zero = (0..1000).filter(|i| i % 7 == 0 && i % 10 == 0).count();
    assert_eq!(
        r.data.to_value()["stdout"],
        format!("{ends_in_zero}\n"),
        "{r:?}"
    );
    // A five-stage pipeline with sort/uniq/head: the most common level.
    let r = call(
        &env,
        json!({"command": "cut -d ' ' -f 2 app.log | sort | uniq -c | sort -rn | head -1"}),
    )
    .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::trim),
        Some("857 INFO")
    );
    // `head` exits early; the stages before it end too and the answer is still right.
    let r = call(&env, json!({"command": "cat app.log | head -n 2 | wc -l"})).await;
    assert_eq!(r.data.to_value()["stdout"], "2\n");
    // A last grep without a match is exit 1, a normal answer.
    let r = call(&env, json!({"command": "cat app.log | grep NOPE"})).await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["exit_code"], 1);
    let audit = env.audit_log();
    assert!(
        audit.contains("command=cat args=\"app.log | grep ERROR | wc -l\""),
        "{audit}"
    );
}

#[tokio::test]
async fn tools_cmd_relative_names_use_this_sessions_upload() {
    let env = Env::new();
    env.upload(
        "s1",
        "app.log",
        b"ERROR a\nok\nERROR b\n",
        "2025-01-01T00:00:00Z",
    );
    let newest = env.upload(
        "s1",
        "app.log",
        b"ERROR 1\nERROR 2\nERROR 3\n",
        "2025-01-02T00:00:00Z",
    );
    env.upload("s2", "other.log", b"ERROR x\n", "2025-01-01T00:00:00Z");
    let r = call(
        &env,
        json!({"command": "grep", "args": ["-c", "ERROR", "app.log"]}),
    )
    .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(
        r.data.to_value()["stdout"],
        "3\n",
        "the newest upload of that name"
    );
    assert_eq!(r.data.to_value()["resolved"][0]["arg"], "app.log");
    assert_eq!(r.data.to_value()["resolved"][0]["source"], "upload");
    assert_eq!(
        r.data.to_value()["resolved"][0]["path"],
        newest.path.display().to_string()
    );
    let line = format!(
            "文件 app.log → 本会话上传 (upload) {}（本会话有 2 个同名上传，使用最新的 / 2 uploads share this name, using the newest）",
            newest.path.display()
        );
    assert!(r.output.contains(&line), "{}", r.output);
    // Another session's upload is never found by its name.
    let r = call(&env, json!({"command": "grep -c ERROR other.log"})).await;
    assert!(!r.ok);
    assert!(r.data.to_value()["stderr"]
        .as_str()
        .unwrap_or("")
        .contains("other.log: 没有那个文件或目录"));
}

#[tokio::test]
async fn tools_cmd_other_sessions_uploads_are_private() {
    let env = Env::new();
    let mine = env.upload("s1", "mine.txt", b"mine\n", "2025-01-01T00:00:00Z");
    let theirs = env.upload("s2", "theirs.txt", b"theirs\n", "2025-01-01T00:00:00Z");
    let rel = |u: &crate::UploadRef| format!("{}/{}", u.file_id, u.filename);
    let r = call(&env, json!({"command": "cat", "args": [rel(&mine)]})).await;
    assert_eq!(r.data.to_value()["stdout"], "mine\n");
    for args in [
        json!({"command": "cat", "args": [rel(&theirs)]}),
        json!({"command": "ls", "args": [theirs.file_id.clone()]}),
        json!({"command": "grep", "args": ["x", rel(&theirs)]}),
        json!({"command": format!("cat mine.txt | cat {}", rel(&theirs))}),
        json!({"command": format!("wc -l {}", theirs.path.display())}),
    ] {
        let r = call(&env, args.clone()).await;
        assert!(
            r.error
                .as_deref()
                .unwrap_or("")
                .starts_with("该文件不属于本会话的上传"),
            "{args}: {r:?}"
        );
    }
    let r = call(
        &env,
        json!({"command": "ls", "args": [mine.file_id.clone()]}),
    )
    .await;
    assert!(r.ok, "own upload dir is listable: {r:?}");
    assert!(env.audit_log().contains("code=foreign_upload"));
    // Recursive walks from the shared uploads root would list other sessions' files.
    for cmd in ["find . -name '*.txt'", "find", "ls -R", "du -a"] {
        let r = call(&env, json!({ "command": cmd })).await;
        assert_eq!(
            r.data.to_value()["code"],
            "shared_uploads_root",
            "{cmd}: {r:?}"
        );
    }
    let r = call(
        &env,
        json!({"command": format!("find {} -name '*.txt'", mine.file_id)}),
    )
    .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::trim),
        Some(mine.path.to_str().unwrap_or(""))
    );
}

#[tokio::test]
async fn tools_cmd_grep_runs_in_process() {
    let env = Env::new();
    let app = up(&env, "app.log", "ok\nERROR a\nerror b\n");
    let r = call(
        &env,
        json!({"command": "grep", "args": ["-in", "error", app.clone()]}),
    )
    .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["stdout"], "2:ERROR a\n3:error b\n");
    assert_eq!(r.data.to_value()["pid"], Value::Null);
    let r = call(&env, json!({"command": "grep", "args": ["zzz", app]})).await;
    assert!(r.ok, "no match is not a failure");
    assert_eq!(r.data.to_value()["exit_code"], 1);
}

#[tokio::test]
async fn tools_cmd_output_is_capped() {
    let env = Env::new();
    let big = up(&env, "big.txt", &"x".repeat(300 * 1024));
    let r = call(&env, json!({"command": "cat", "args": [big]})).await;
    assert!(r.ok);
    assert_eq!(r.data.to_value()["truncated"], true);
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::len),
        Some(100 * 1024)
    );
    assert!(r.output.contains("[输出已截断"));
    // The whole output is kept for the session's store.
    let full = r.full.expect("whole output");
    assert_eq!((full.text.len(), full.produced), (300 * 1024, 300 * 1024));
}

#[tokio::test]
async fn tools_cmd_full_output_cap_stops_every_stage() {
    let env = Env::new();
    // 9.6 MB: past the 8 MiB capture cap (the whole output kept for the session's store).
    let big = up(&env, "big.log", &"0123456789\n".repeat(880_000));
    // `tail -f` never ends by itself: only the capture cap can stop it before the timeout.
    let ctx = with_timeout(&env, 60_000);
    let r = CommandExecutorTool
        .call(
            json!({"command": format!("tail -n +1 -f {big} | cat")}),
            &ctx,
        )
        .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["timed_out"], false);
    assert_eq!(r.data.to_value()["stopped_at_cap"], true);
    assert_eq!(r.data.to_value()["truncated"], true);
    // The model and `data` see the 100 KB head; the store keeps the captured 8 MiB.
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::len),
        Some(100 * 1024)
    );
    let full = r.full.as_ref().expect("whole output");
    let (kept, note) = full
        .text
        .split_at(full.text.find("[输出超过").expect("cap note"));
    assert_eq!(
        kept.len(),
        crate::outputs::STEP_CAP + 1,
        "the cap plus the added newline"
    );
    assert!(note.contains("the rest was not kept"), "{note}");
    if let Some(pid) = r.data.to_value()["pid"].as_u64() {
        assert!(!alive(pid));
    }
}

/// A listening socket planted by the test, seen by `ss` and `lsof` (when installed).
#[tokio::test]
async fn tools_cmd_network_listing_sees_a_planted_listener() {
    let env = Env::new();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let search: Vec<std::path::PathBuf> =
        SAFE_PATH.split(':').map(std::path::PathBuf::from).collect();
    let r = call(
        &env,
        json!({"command": format!("ss -H -t -l -n sport = :{port}")}),
    )
    .await;
    if locate("ss", &search).is_some() {
        assert!(r.ok, "{r:?}");
        let data = r.data.to_value();
        let out = data["stdout"].as_str().unwrap_or("");
        assert_eq!(out.lines().count(), 1, "{out}");
        assert!(out.contains(&format!("127.0.0.1:{port}")), "{out}");
    } else {
        assert_eq!(
            r.error.as_deref(),
            Some(not_installed_message("ss").as_str())
        );
    }
    let me = std::process::id();
    let r = call(
        &env,
        json!({"command": format!("lsof -n -P -p {me} -i :{port}")}),
    )
    .await;
    if locate("lsof", &search).is_some() {
        assert!(r.ok, "{r:?}");
        let data = r.data.to_value();
        let out = data["stdout"].as_str().unwrap_or("");
        let rows: Vec<&str> = out.lines().skip(1).collect();
        assert_eq!(rows.len(), 1, "{out}");
        assert!(
            rows[0].contains(&format!("127.0.0.1:{port} (LISTEN)")),
            "{out}"
        );
        assert!(
            rows[0].split_whitespace().nth(1) == Some(me.to_string().as_str()),
            "{out}"
        );
        // One row: -p is ANDed with -i, so none of this process's many open files (test
        // binary, libraries, pipes) are listed.
    } else {
        assert_eq!(
            r.error.as_deref(),
            Some(not_installed_message("lsof").as_str())
        );
    }
    drop(listener);
}

/// Stores a file as this session's upload; returns its path relative to the working dir.
fn up(env: &Env, name: &str, content: &str) -> String {
    let u = env.upload("s1", name, content.as_bytes(), "2025-01-01T00:00:00Z");
    format!("{}/{}", u.file_id, u.filename)
}

fn alive(pid: u64) -> bool {
    // A reaped child has no /proc entry; a zombie would show state Z.
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        Ok(s) => !s.contains(") Z "),
        Err(_) => false,
    }
}

#[tokio::test]
async fn tools_cmd_follow_cap_keeps_collected_output_and_kills_the_child() {
    let env = Env::new();
    let f = up(&env, "f.log", "line one\nline two\n");
    // `tail -f` never exits on its own: a single follow command streams until the follow
    // cap (here 300 ms), which is its normal end, and returns what it collected.
    let mut ctx = with_timeout(&env, 300);
    ctx.follow.max = Duration::from_millis(300);
    let r = CommandExecutorTool
        .call(json!({"command": "tail", "args": ["-f", f]}), &ctx)
        .await;
    assert!(r.ok, "a follow ending at its cap is its normal end: {r:?}");
    assert_eq!(r.data.to_value()["follow"]["ended"], "cap", "{r:?}");
    assert_eq!(r.data.to_value()["stdout"], "line one\nline two\n");
    let pid = r.data.to_value()["pid"].as_u64().expect("pid");
    assert!(!alive(pid), "child {pid} must be killed and reaped");
    assert!(env
        .audit_log()
        .contains("command=tail args=\"-f id-s1-0/f.log\""));
    // Through a pipeline the command timeout applies: every stage is killed, the filtered
    // lines are kept and marked as cut off.
    let r = CommandExecutorTool
        .call(json!({"command": "tail -f f.log | grep two | cat"}), &ctx)
        .await;
    assert_eq!(r.data.to_value()["timed_out"], true);
    assert_eq!(r.data.to_value()["stdout"], "line two\n", "{r:?}");
    assert!(
        r.output.contains("以上是终止前收集到的输出（不完整）"),
        "{}",
        r.output
    );
    assert!(env.audit_log().contains("status=timeout"));
}

#[tokio::test]
async fn tools_cmd_no_match_exits_are_answers() {
    let env = Env::new();
    let log = up(&env, "a.log", "INFO ok\nINFO fine\n");
    // grep -c prints 0 and exits 1: the count is the answer.
    let r = call(
        &env,
        json!({"command": "grep", "args": ["-c", "ERROR", log]}),
    )
    .await;
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["stdout"], "0\n");
    assert!(r.output.contains("no matching lines"), "{}", r.output);
    // Nothing listens on port 1: lsof's 1 means "nothing matched", not a failure.
    let r = call(&env, json!({"command": "lsof", "args": ["-i", ":1"]})).await;
    assert!(r.ok, "{r:?}");
    assert!(r.output.contains("nothing matched"), "{}", r.output);
    // A real failure stays a failure.
    let r = call(&env, json!({"command": "cat", "args": ["missing.txt"]})).await;
    assert!(!r.ok);
}

#[tokio::test]
async fn tools_cmd_runner_returns_collected_output_on_timeout() {
    let env = Env::new();
    let f = up(&env, "f.log", "a\nb\n");
    let v = env
        .ctx
        .commands
        .validate(&format!("tail -f {f}"), &[], &env.ctx.paths)
        .expect("valid");
    assert!(v.follow);
    let out = execute(
        &v,
        Duration::from_millis(300),
        1024,
        &CancellationToken::new(),
    )
    .await;
    assert!(out.timed_out);
    assert_eq!(out.exit_code, None);
    assert_eq!(out.stdout, "a\nb\n");
}

#[tokio::test]
async fn tools_cmd_follow_cancellation_kills_the_child_and_keeps_the_lines() {
    let env = Env::new();
    let f = up(&env, "f.log", "line\n");
    let ctx = with_timeout(&env, 600_000);
    let cancel = ctx.cancel.clone();
    let task = tokio::spawn(async move {
        CommandExecutorTool
            .call(json!({"command": "tail", "args": ["-f", f]}), &ctx)
            .await
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    cancel.cancel();
    let r = task.await.expect("join");
    assert!(r.ok, "{r:?}");
    assert_eq!(r.data.to_value()["follow"]["ended"], "cancelled");
    if let Some(pid) = r.data.to_value()["pid"].as_u64() {
        assert!(!alive(pid));
    }
}

#[tokio::test]
async fn tools_cmd_not_installed_is_said_clearly() {
    let env = Env::new();
    let p = env
        .ctx
        .commands
        .validate_pipeline("ps aux | grep x | lsof -i", &[], &env.ctx.paths, &[])
        .expect("valid");
    let empty = env.root.join("empty-bin");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let out = run::run_stages(
        &p.stages,
        Duration::from_secs(5),
        1024,
        &CancellationToken::new(),
        &[empty],
    )
    .await;
    assert_eq!(
        out.not_installed.as_deref(),
        Some("命令未安装: ps（本机未安装该命令 / not installed on this host）")
    );
    assert!(out.pids.is_empty(), "nothing started");
    let r = report(&env.ctx, &p, &out, Duration::from_secs(5), 1024, false);
    assert!(!r.ok);
    assert_eq!(
        r.error.as_deref(),
        Some("命令未安装: ps（本机未安装该命令 / not installed on this host）")
    );
    assert!(env.audit_log().contains("status=not_installed"));
    assert_eq!(
        not_installed_message("lsof"),
        "命令未安装: lsof（本机未安装该命令 / not installed on this host）"
    );
    assert!(locate(
        "ls",
        &[
            std::path::PathBuf::from("/usr/bin"),
            std::path::PathBuf::from("/bin")
        ]
    )
    .is_some());
}

#[tokio::test]
async fn tools_cmd_timeout_of_a_finite_command_is_a_failure_that_keeps_output() {
    let env = Env::new();
    let p = env
        .ctx
        .commands
        .validate_pipeline("du -h /var/log | sort -h", &[], &env.ctx.paths, &[])
        .expect("valid");
    let out = ExecOutcome {
        stdout: "4.0K\t/var/log/a\n".into(),
        timed_out: true,
        stage_exit_codes: vec![None, None],
        ..Default::default()
    };
    let r = report(&env.ctx, &p, &out, Duration::from_secs(5), 1024, false);
    assert!(!r.ok);
    assert_eq!(
        r.error.as_deref(),
        Some("命令执行超时: du -h /var/log | sort -h（5 秒后已终止 / killed after timeout）")
    );
    assert!(
        r.output
            .starts_with("$ du -h /var/log | sort -h\n4.0K\t/var/log/a\n[已在 5 秒后终止"),
        "{}",
        r.output
    );
    assert_eq!(r.data.to_value()["stdout"], "4.0K\t/var/log/a\n");
}

#[tokio::test]
async fn tools_cmd_execute_is_reusable_without_the_tool() {
    let env = Env::new();
    let v = env
        .ctx
        .commands
        .validate("whoami", &[], &env.ctx.paths)
        .expect("valid");
    let out = execute(&v, Duration::from_secs(5), 1024, &CancellationToken::new()).await;
    assert_eq!(out.exit_code, Some(0));
    assert!(!out.stdout.trim().is_empty());
}

#[tokio::test]
async fn listing_the_uploads_root_shows_only_this_sessions_uploads() {
    let env = Env::new();
    let mine = env.upload("s1", "mine.log", b"a\n", "2025-01-01T00:00:00Z");
    let theirs = env.upload("s2", "theirs.log", b"b\n", "2025-01-01T00:00:00Z");
    let root = env.ctx.uploads_root().display().to_string();
    for args in [
        json!({"command": "ls"}),
        json!({"command": "ls", "args": ["-la", root]}),
        json!({"command": format!("ls {root} | sort")}),
    ] {
        let r = call(&env, args.clone()).await;
        assert!(r.ok, "{args}: {r:?}");
        let out = r.data.to_value()["stdout"]
            .as_str()
            .unwrap_or("")
            .to_string();
        assert!(out.contains(&mine.file_id), "{args}: {out}");
        assert!(!out.contains(&theirs.file_id), "{args} leaks: {out}");
    }
    // Counted through a pipe, the listing is this session's one upload.
    let r = call(&env, json!({"command": format!("ls {root} | wc -l")})).await;
    assert_eq!(
        r.data.to_value()["stdout"].as_str().map(str::trim),
        Some("1"),
        "{r:?}"
    );
    // du over the root sizes only this session's uploads.
    let r = call(&env, json!({"command": "du", "args": [root]})).await;
    let out = r.data.to_value()["stdout"]
        .as_str()
        .unwrap_or("")
        .to_string();
    assert!(
        out.contains(&mine.file_id) && !out.contains(&theirs.file_id),
        "{out}"
    );
    // The display and the audit keep what was asked, not the hidden names.
    assert!(!r.output.contains("--exclude"), "{}", r.output);
}
