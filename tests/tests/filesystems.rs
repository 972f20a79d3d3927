//! Filesystem questions through the real server: the figure asked of a mount point, or of a
//! path on it, is the one `df` prints for that filesystem, led with, in both languages.

use llmops_tests::{run_tui, ServerProc};

/// `df -B1 --output=FIELD PATH`'s value.
fn df(field: &str, path: &str) -> u64 {
    let out = std::process::Command::new("df")
        .args(["-B1", &format!("--output={field}"), path])
        .output()
        .expect("df runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let value = text.lines().nth(1).expect("df prints a value line");
    value
        .trim()
        .trim_end_matches('%')
        .parse()
        .expect("a number")
}

/// The bytes in the answer's lead (`**54161317888 B (…)**`).
fn bytes_in(answer: &str) -> u64 {
    let bold = answer.split("**").nth(1).expect("a bold figure");
    bold.split(' ')
        .next()
        .expect("a number")
        .parse()
        .expect("bytes")
}

fn ask(addr: &str, question: &str) -> String {
    let (code, out, err) =
        run_tui(&["ask", "--server", addr, "--new-session", "--json", question]).expect("run");
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).expect("json");
    v["answer"].as_str().expect("answer").to_string()
}

#[test]
fn free_space_and_use_of_a_path_are_its_filesystems_as_df_reads_them() {
    let server = ServerProc::start().expect("server");
    let addr = server.addr.to_string();
    // The disk is shared with other work: its free space may move a little between the
    // server's sample and df's.
    let close = |a: u64, b: u64| a.abs_diff(b) <= 256 << 20;
    // Under the build's own directory: /tmp may be a tmpfs the mounts table leaves out.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).expect("tempdir");
    let deep = dir.path().join("a/b");
    std::fs::create_dir_all(&deep).expect("mkdir");
    let deep = deep.to_str().expect("utf8 path").to_string();

    let a = ask(&addr, "how much space is left on the root partition");
    assert!(a.starts_with("avail_bytes of mount / (mounts): **"), "{a}");
    assert!(close(bytes_in(&a), df("avail", "/")), "{a}");

    // A directory that is no mount point: the filesystem holding it, and the answer says so.
    let a = ask(&addr, &format!("free space on {deep}?"));
    assert!(close(bytes_in(&a), df("avail", &deep)), "{a}");
    assert!(a.contains(&format!("{deep} is no mount point")), "{a}");

    let a = ask(&addr, "根分区用了百分之多少");
    assert!(a.starts_with("mounts 表中 mount / 的 use_percent："), "{a}");
    let percent = df("pcent", "/");
    assert!(
        (percent.saturating_sub(1)..=percent + 1).any(|p| a.contains(&format!("**{p}%**"))),
        "df says {percent}%: {a}"
    );
}
