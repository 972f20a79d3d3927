//! Tests of the path policy: allow roots, deny patterns, exceptions, symlinks and tricks.

use super::rules::glob_match;
use super::*;
use std::fs;
use std::os::unix::fs::symlink;

struct Fixture {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    uploads: PathBuf,
    docs: PathBuf,
    outside: PathBuf,
    policy: PathPolicy,
}

fn fixture() -> Fixture {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = fs::canonicalize(tmp.path()).expect("canon");
    let data = root.join("data");
    let uploads = data.join("uploads");
    let docs = root.join("docs");
    let outside = root.join("outside");
    for d in [&uploads, &docs, &outside] {
        fs::create_dir_all(d).expect("mkdir");
    }
    fs::write(uploads.join("a.txt"), "hello").expect("write");
    fs::write(docs.join("guide.md"), "# guide").expect("write");
    fs::write(outside.join("secret_plans.txt"), "x").expect("write");
    fs::write(outside.join("plain.txt"), "x").expect("write");
    let policy = PathPolicy::new(&PathPolicyConfig::with_defaults(
        &data,
        std::slice::from_ref(&docs),
    ));
    Fixture {
        _tmp: tmp,
        root,
        uploads,
        docs,
        outside,
        policy,
    }
}

fn err(f: &Fixture, raw: &str) -> PathError {
    f.policy
        .check_str(raw, &f.uploads)
        .expect_err(&format!("{raw} must be refused"))
}

#[test]
fn policy_path_allows_files_under_roots() {
    let f = fixture();
    let ok = f.policy.check_str("a.txt", &f.uploads).expect("allowed");
    assert_eq!(ok, f.uploads.join("a.txt"));
    let abs = f.docs.join("guide.md");
    assert_eq!(f.policy.check(&abs).expect("doc allowed"), abs);
    // Not existing yet (an upload target): allowed and resolved.
    let new = f
        .policy
        .check_str("sub/new.txt", &f.uploads)
        .expect("new file");
    assert_eq!(new, f.uploads.join("sub/new.txt"));
    // The root itself is allowed (bare `ls` in the working dir).
    assert!(f.policy.check(&f.uploads).is_ok());
}

#[test]
fn policy_path_dotdot_in_every_position_cannot_escape() {
    let f = fixture();
    let attacks = [
        "../../outside/plain.txt",
        "../../../../../../../../usr/bin/ls",
        "./../../outside/plain.txt",
        "sub/../../../outside/plain.txt",
        "a.txt/../../../outside/plain.txt",
        "nonexist/../../../outside/plain.txt",
        "..",
        "../",
        "../..",
        "./../.",
    ];
    for a in attacks {
        let e = err(&f, a);
        assert!(matches!(e, PathError::NotAllowed { .. }), "{a}: {e:?}");
        assert!(e.to_string().starts_with("路径不在白名单中: "), "{e}");
    }
    // `..` that stays inside is fine.
    assert_eq!(
        f.policy
            .check_str("sub/../a.txt", &f.uploads)
            .expect("inside"),
        f.uploads.join("a.txt")
    );
}

#[test]
fn policy_path_absolute_paths_outside_are_refused() {
    let f = fixture();
    for a in [
        "/",
        "/opt",
        "/root",
        "/tmp",
        "/usr/bin/ls",
        "//usr//bin//ls",
        "/ETC/hosts",
    ] {
        assert!(matches!(err(&f, a), PathError::NotAllowed { .. }), "{a}");
    }
    assert_eq!(
        err(&f, "/usr/bin/ls").to_string(),
        "路径不在白名单中: /usr/bin/ls"
    );
}

#[test]
fn policy_path_sibling_prefix_never_matches() {
    let f = fixture();
    let evil = f.root.join("data").join("uploads_evil");
    fs::create_dir_all(&evil).expect("mkdir");
    fs::write(evil.join("x.txt"), "x").expect("write");
    let e = f.policy.check(&evil.join("x.txt")).expect_err("sibling");
    assert!(matches!(e, PathError::NotAllowed { .. }));
    assert!(f.policy.check(&evil).is_err());
}

#[test]
fn policy_path_deny_list_wins_inside_allowed_roots() {
    let f = fixture();
    fs::write(
        f.uploads.join("ca.pem"),
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----\n",
    )
    .expect("write");
    let cases = [
        (".env", "*/.env"),
        (".env.production", "*/.env.*"),
        ("proj/.git/config", "*/.git/config"),
        ("home/.ssh/authorized_keys", "**/.ssh"),
        ("home/.SSH/known_hosts", "**/.ssh"),
        ("id_rsa", "*/id_rsa"),
        ("id_ed25519", "*/id_ed25519"),
        ("id_ed25519.pub", "*/id_ed25519.*"),
        ("ca.pem", "*/*.pem contains:PRIVATE KEY"),
        ("tls/server.KEY", "*/*.key"),
        ("my_secret_notes.txt", "**/*secret*"),
        ("Secrets/readme.md", "**/*secret*"),
        ("aws_credentials.json", "**/*credential*"),
    ];
    for (p, pattern) in cases {
        let e = err(&f, p);
        assert_eq!(e.to_string(), format!("路径匹配禁止模式: {pattern}"), "{p}");
        assert_eq!(e.code(), "denied_pattern");
    }
}

#[test]
fn policy_path_system_files_denied_with_pattern() {
    let policy = PathPolicy::new(&PathPolicyConfig {
        allow: vec![PathBuf::from("/")],
        deny: DEFAULT_DENY_PATTERNS
            .iter()
            .map(|s| s.to_string())
            .collect(),
        exceptions: vec![],
    });
    for (p, pattern) in [
        ("/etc/shadow", "/etc/shadow"),
        ("/etc/passwd", "/etc/passwd"),
        ("/etc/sudoers", "/etc/sudoers"),
        ("/etc/sudoers.d/README", "/etc/sudoers.d"),
        ("/etc/../etc/shadow", "/etc/shadow"),
        ("/proc/self/environ", "/proc"),
        ("/root/.ssh/id_rsa", "**/.ssh"),
    ] {
        let e = policy.check_str(p, Path::new("/")).expect_err(p);
        assert_eq!(e.to_string(), format!("路径匹配禁止模式: {pattern}"), "{p}");
    }
    // Even with `/` allowed, the deny list protects these; with defaults they are also
    // outside the allow-list, and the deny message is the more specific one.
    let f = fixture();
    assert_eq!(
        err(&f, "/etc/shadow").to_string(),
        "路径匹配禁止模式: /etc/shadow"
    );
}

#[test]
fn policy_path_symlink_out_of_allow_list_is_refused() {
    let f = fixture();
    symlink(f.outside.join("plain.txt"), f.uploads.join("link.txt")).expect("symlink");
    let e = err(&f, "link.txt");
    assert!(matches!(e, PathError::NotAllowed { .. }), "{e:?}");
    assert!(e.to_string().contains("实际指向"), "{e}");
    // A link to /etc/shadow is refused by the deny list on its resolved target.
    symlink("/etc/shadow", f.uploads.join("innocent.txt")).expect("symlink");
    assert_eq!(
        err(&f, "innocent.txt").to_string(),
        "路径匹配禁止模式: /etc/shadow"
    );
}

#[test]
fn policy_path_symlinked_parent_out_of_allow_list_is_refused() {
    let f = fixture();
    symlink(&f.outside, f.uploads.join("dir")).expect("symlink");
    assert!(matches!(
        err(&f, "dir/plain.txt"),
        PathError::NotAllowed { .. }
    ));
    // Also for files that do not exist yet below the linked directory.
    assert!(matches!(
        err(&f, "dir/new.txt"),
        PathError::NotAllowed { .. }
    ));
    // `dir/..` resolves physically to outside's parent, never lexically back to uploads.
    assert!(matches!(
        err(&f, "dir/../a.txt"),
        PathError::NotAllowed { .. }
    ));
}

#[test]
fn policy_path_symlink_inside_allow_list_is_followed() {
    let f = fixture();
    symlink(f.uploads.join("a.txt"), f.uploads.join("alias.txt")).expect("symlink");
    assert_eq!(
        f.policy.check_str("alias.txt", &f.uploads).expect("ok"),
        f.uploads.join("a.txt")
    );
}

#[test]
fn policy_path_dangling_and_looping_symlinks_are_refused() {
    let f = fixture();
    symlink(f.outside.join("missing.txt"), f.uploads.join("dangling")).expect("symlink");
    assert!(matches!(err(&f, "dangling"), PathError::BadSymlink { .. }));
    symlink(f.uploads.join("loop_b"), f.uploads.join("loop_a")).expect("symlink");
    symlink(f.uploads.join("loop_a"), f.uploads.join("loop_b")).expect("symlink");
    assert!(matches!(err(&f, "loop_a"), PathError::BadSymlink { .. }));
}

#[test]
fn policy_path_unicode_look_alikes_are_refused() {
    let f = fixture();
    for a in [
        "／etc／passwd",
        "..／..／outside／plain.txt",
        "．．/．．/outside/plain.txt",
        "a\u{2215}b",
        "x\u{202E}txt.exe",
        "a\u{200B}.txt",
    ] {
        assert!(matches!(err(&f, a), PathError::LookAlike { .. }), "{a}");
    }
    assert!(err(&f, "／etc／passwd").to_string().contains("U+FF0F"));
}

#[test]
fn policy_path_nul_empty_control_and_long_are_refused() {
    let f = fixture();
    assert_eq!(err(&f, ""), PathError::Empty);
    assert_eq!(err(&f, "   "), PathError::Empty);
    assert_eq!(err(&f, "a.txt\0/etc/passwd"), PathError::NulByte);
    assert_eq!(err(&f, "a\nb"), PathError::ControlChar);
    let long = "a/".repeat(2100);
    assert!(matches!(err(&f, &long), PathError::TooLong { .. }));
    assert!(err(&f, &long).to_string().starts_with("路径过长"));
    let long_name = "x".repeat(300);
    assert!(matches!(
        err(&f, &long_name),
        PathError::ComponentTooLong { len: 300 }
    ));
}

#[test]
fn policy_path_invalid_deny_patterns_are_skipped() {
    let p = PathPolicy::new(&PathPolicyConfig {
        allow: vec![PathBuf::from("/tmp")],
        deny: vec![
            "**/".into(),
            "a/b".into(),
            "*/".into(),
            "x".into(),
            "*/*.pem contains:".into(),
        ],
        exceptions: vec![
            "proc/loadavg".into(),
            "/proc/**".into(),
            "/proc/../etc/shadow".into(),
            "/proc/uptime".into(),
        ],
    });
    assert_eq!(p.deny.len(), 1);
    assert_eq!(p.exceptions().collect::<Vec<_>>(), vec!["/proc/uptime"]);
}

#[test]
fn policy_path_glob_matcher() {
    assert!(glob_match("*.pem", "server.pem"));
    assert!(!glob_match("*.pem", "server.pem.txt"));
    assert!(glob_match("*secret*", "secret"));
    assert!(glob_match("id_rsa.*", "id_rsa.pub"));
    assert!(!glob_match("id_rsa.*", "id_rsa"));
    assert!(glob_match("a?c", "abc"));
    assert!(glob_match("*a*b*c*", "xxaxxbxxcxx"));
    assert!(!glob_match("*a*b*c*", "xxaxxcxxbxx"));
}

proptest::proptest! {
    /// Any relative path built from hostile pieces either resolves inside an allowed root
    /// or is refused: never allowed outside.
    #[test]
    fn policy_path_prop_never_escapes(pieces in proptest::collection::vec(
        proptest::sample::select(vec!["..", ".", "a.txt", "sub", "outside", "/", "//", "etc", "passwd", "x y"]),
        0..12,
    )) {
        let f = fixture();
        let raw = pieces.join("/");
        if let Ok(p) = f.policy.check_str(&raw, &f.uploads) {
            proptest::prop_assert!(
                p.starts_with(&f.uploads) || p.starts_with(&f.docs) || p.starts_with("/var/log")
                    || p.starts_with("/etc"),
                "{raw} -> {}", p.display()
            );
        }
    }
}

/// Asserts `raw` is refused by the deny pattern `pattern`.
fn denied_by(policy: &PathPolicy, raw: &str, pattern: &str) {
    match policy.check_str(raw, Path::new("/")) {
        Err(e @ PathError::Denied { .. }) => {
            assert_eq!(
                e.to_string(),
                format!("路径匹配禁止模式: {pattern}"),
                "{raw}"
            );
        }
        other => panic!("{raw}: expected denial by {pattern}, got {other:?}"),
    }
}

fn allowed(policy: &PathPolicy, raw: &str) -> PathBuf {
    policy
        .check_str(raw, Path::new("/"))
        .unwrap_or_else(|e| panic!("{raw} must be allowed: {e}"))
}

#[test]
fn policy_path_etc_is_readable_and_the_deny_list_still_wins() {
    let f = fixture();
    let p = &f.policy;
    for ok in [
        "/etc/hostname",
        "/etc/hosts",
        "/etc",
        "/etc/ssl/../hosts",
        "/etc/nginx/nginx.conf",
        // Public host keys are fine (whether or not this machine has them).
        "/etc/ssh/ssh_host_ed25519_key.pub",
    ] {
        allowed(p, ok);
    }
    // `/etc/os-release` links into /usr/lib, opened by an exception.
    if Path::new("/etc/os-release").exists() {
        allowed(p, "/etc/os-release");
    }
    for (raw, pattern) in [
        ("/etc/shadow", "/etc/shadow"),
        ("/etc/shadow-", "/etc/shadow-"),
        ("/etc/gshadow", "/etc/gshadow"),
        ("/etc/passwd", "/etc/passwd"),
        ("/etc/passwd-", "/etc/passwd-"),
        ("/etc/sudoers", "/etc/sudoers"),
        ("/etc/sudoers.d/90-cloud", "/etc/sudoers.d"),
        ("/etc/ssh/ssh_host_rsa_key", "*/ssh_host_*_key"),
        ("/etc/ssh/ssh_host_ed25519_key", "*/ssh_host_*_key"),
        ("/etc/ssl/private/x", "/etc/ssl/private"),
        ("/etc/ssl/private", "/etc/ssl/private"),
        ("/etc/nginx/tls/site.key", "*/*.key"),
        ("/etc/app/.env", "*/.env"),
        ("/etc/app/db_password.txt", "**/*password*"),
        ("/etc/ppp/chap-secrets", "**/*secret*"),
        ("/etc/mysql/debian.cnf", "/etc/mysql/debian.cnf"),
        // Case and `..` tricks.
        ("/etc/SHADOW", "/etc/shadow"),
        ("/Etc/Shadow", "/etc/shadow"),
        ("/etc/Sudoers.D/x", "/etc/sudoers.d"),
        ("/etc/nginx/../shadow", "/etc/shadow"),
        ("/etc/./ssl/./private/../private/k", "/etc/ssl/private"),
        ("/var/log/../../etc/passwd", "/etc/passwd"),
    ] {
        denied_by(p, raw, pattern);
    }
    // A link out of /etc into a denied file: /etc/mtab -> /proc/.../mounts.
    if Path::new("/etc/mtab").exists() {
        denied_by(p, "/etc/mtab", "/proc");
    }
    // Out of /etc by `..`: not allowed.
    assert!(matches!(
        p.check_str("/etc/../root/x", Path::new("/")),
        Err(PathError::NotAllowed { .. })
    ));
}

#[test]
fn policy_path_symlink_from_an_allowed_root_into_denied_files() {
    let f = fixture();
    for (name, target) in [
        ("hosts", "/etc/hosts"),
        ("sh", "/etc/shadow"),
        ("env", "/proc/1/environ"),
        ("selfenv", "/proc/self/environ"),
        ("load", "/proc/loadavg"),
    ] {
        symlink(target, f.uploads.join(name)).expect("symlink");
    }
    symlink("/proc/loadavg", f.uploads.join(".env")).expect("symlink");
    assert_eq!(
        f.policy.check_str("hosts", &f.uploads).expect("hosts"),
        PathBuf::from("/etc/hosts")
    );
    assert_eq!(err(&f, "sh").to_string(), "路径匹配禁止模式: /etc/shadow");
    assert_eq!(err(&f, "env").to_string(), "路径匹配禁止模式: /proc");
    assert_eq!(err(&f, "selfenv").to_string(), "路径匹配禁止模式: /proc");
    // The exception is about the file read, wherever the link sits...
    assert_eq!(
        f.policy.check_str("load", &f.uploads).expect("loadavg"),
        PathBuf::from("/proc/loadavg")
    );
    // ...but a specific deny on the link's own name still wins.
    assert_eq!(err(&f, ".env").to_string(), "路径匹配禁止模式: */.env");
}

#[test]
fn policy_path_proc_and_sys_exceptions() {
    let f = fixture();
    let p = &f.policy;
    for ok in [
        "/proc/loadavg",
        "/proc/meminfo",
        "/proc/cpuinfo",
        "/proc/uptime",
        "/proc/version",
        "/proc/1/status",
        "/proc/12/status",
        "/proc/1/../12/status",
        "/sys/class/net/lo/statistics/rx_bytes",
        "/sys/fs/cgroup/memory.max",
        "/sys/fs/cgroup/system.slice/app.service/memory.current",
        "/sys/fs/cgroup/memory/memory.limit_in_bytes",
    ] {
        allowed(p, ok);
    }
    // `self` resolves to this process's numeric pid, so its status is allowed too.
    let me = std::process::id();
    assert_eq!(
        allowed(p, "/proc/self/status"),
        PathBuf::from(format!("/proc/{me}/status"))
    );
    for raw in [
        "/proc",
        "/proc/self/environ",
        "/proc/1/environ",
        "/proc/12/environ",
        "/proc/1/../1/environ",
        "/proc/12/cmdline",
        "/proc/12/maps",
        "/proc/1/task/1/status",
        "/proc/abc/status",
        "/proc/12a/status",
        "/proc/kcore",
        "/proc/sys/kernel/hostname",
        "/PROC/loadavg",
        "/proc/LOADAVG",
        "/proc/loadavg/../kcore",
        "/sys",
        "/sys/class/net",
        "/sys/class/net/lo/address",
        "/sys/kernel/debug/x",
        "/dev/mem",
    ] {
        denied_by(p, raw, raw_top(raw));
    }
}

/// The top-level deny pattern a path under /proc, /sys or /dev hits.
fn raw_top(raw: &str) -> &'static str {
    let lower = raw.to_ascii_lowercase();
    if lower.starts_with("/proc") {
        "/proc"
    } else if lower.starts_with("/sys") {
        "/sys"
    } else {
        "/dev"
    }
}

#[test]
fn policy_path_specific_deny_beats_an_exception() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let cfg = PathPolicyConfig::with_overrides(
        tmp.path(),
        &[],
        &PathPolicyOverrides {
            extra_deny: vec!["/proc/1".into()],
            extra_exceptions: vec!["/proc/stat".into()],
            ..PathPolicyOverrides::default()
        },
    );
    let p = PathPolicy::new(&cfg);
    denied_by(&p, "/proc/1/status", "/proc/1");
    allowed(&p, "/proc/2/status");
    allowed(&p, "/proc/stat");
    // A glob deny is specific too: an interface named like a secret stays hidden.
    denied_by(
        &p,
        "/sys/class/net/secret0/statistics/rx_bytes",
        "**/*secret*",
    );
}

#[test]
fn policy_path_overrides_from_config() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // No system roots, no exceptions: /etc and /proc/loadavg are closed.
    let p = PathPolicy::new(&PathPolicyConfig::with_overrides(
        tmp.path(),
        &[],
        &PathPolicyOverrides {
            roots: Some(vec![PathBuf::from("/var/log")]),
            exceptions: Some(vec![]),
            extra_deny: vec!["/etc/hosts".into()],
            ..PathPolicyOverrides::default()
        },
    ));
    assert!(matches!(
        p.check(Path::new("/etc/hostname")),
        Err(PathError::NotAllowed { .. })
    ));
    denied_by(&p, "/proc/loadavg", "/proc");
    assert_eq!(p.exceptions().count(), 0);
    let cfg = PathPolicyConfig::with_defaults(tmp.path(), &[]);
    assert!(cfg.allow.contains(&PathBuf::from("/etc")));
    assert_eq!(cfg.exceptions.len(), DEFAULT_EXCEPTIONS.len());
    assert!(cfg.deny.iter().any(|d| d == "**/*password*"));
    // The table as server.toml spells it.
    let o: PathPolicyOverrides = toml::from_str(
        "roots = [\"/srv/logs\"]\nextra_deny = [\"*/*.bak\"]\nextra_exceptions = [\"/proc/stat\"]\n",
    )
    .expect("toml");
    assert_eq!(o.roots, Some(vec![PathBuf::from("/srv/logs")]));
    assert!(toml::from_str::<PathPolicyOverrides>("rots = []").is_err());
}

const CERT: &str = "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIE\n-----END CERTIFICATE-----\n";

#[test]
fn policy_path_pem_denied_only_with_a_private_key() {
    let f = fixture();
    let u = &f.uploads;
    fs::write(u.join("cert.pem"), CERT).expect("write");
    fs::write(u.join("chain.crt"), CERT.repeat(3)).expect("write");
    fs::write(
        u.join("key.pem"),
        "-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----\n",
    )
    .expect("write");
    fs::write(
        u.join("ec.pem"),
        "-----BEGIN EC PRIVATE KEY-----\nMHc\n-----END EC PRIVATE KEY-----\n",
    )
    .expect("write");
    // A bundle whose key sits after 64 KiB of certificates, straddling a read chunk.
    let mut bundle = CERT.repeat(2000);
    bundle.truncate(65_530);
    bundle.push_str("-----BEGIN RSA PRIVATE KEY-----\n");
    fs::write(u.join("bundle.pem"), bundle).expect("write");
    fs::write(
        u.join("both.crt"),
        format!("{CERT}-----BEGIN PRIVATE KEY-----\n"),
    )
    .expect("write");
    // Too large to check: refused without reading.
    let big = fs::File::create(u.join("huge.pem")).expect("create");
    big.set_len(rules::SNIFF_CAP + 1).expect("sparse");
    // A key without the extension behind a `.pem` link, and a `.txt` link to a key.
    fs::write(u.join("k.bin"), "-----BEGIN OPENSSH PRIVATE KEY-----\n").expect("write");
    symlink(u.join("k.bin"), u.join("link.pem")).expect("symlink");
    symlink(u.join("key.pem"), u.join("innocent.txt")).expect("symlink");

    // `KEY.PEM` is another, absent file on a case-sensitive file system: nothing to leak.
    for ok in ["cert.pem", "chain.crt", "new.pem", "k.bin", "KEY.PEM"] {
        f.policy
            .check_str(ok, u)
            .unwrap_or_else(|e| panic!("{ok}: {e}"));
    }
    for (raw, pattern) in [
        ("key.pem", "*/*.pem contains:PRIVATE KEY"),
        ("ec.pem", "*/*.pem contains:PRIVATE KEY"),
        ("bundle.pem", "*/*.pem contains:PRIVATE KEY"),
        ("huge.pem", "*/*.pem contains:PRIVATE KEY"),
        ("link.pem", "*/*.pem contains:PRIVATE KEY"),
        ("innocent.txt", "*/*.pem contains:PRIVATE KEY"),
        ("both.crt", "*/*.crt contains:PRIVATE KEY"),
    ] {
        assert_eq!(
            err(&f, raw).to_string(),
            format!("路径匹配禁止模式: {pattern}"),
            "{raw}"
        );
    }
}

#[test]
fn policy_path_exception_patterns() {
    let e = |p: &str| rules::Exception::parse(p).unwrap_or_else(|| panic!("{p} parses"));
    let status = e("/proc/<pid>/status");
    assert!(status.matches(Path::new("/proc/12/status")));
    assert!(!status.matches(Path::new("/proc/self/status")));
    assert!(!status.matches(Path::new("/proc/12a/status")));
    assert!(!status.matches(Path::new("/proc/12/task/12/status")));
    assert!(!status.matches(Path::new("/PROC/12/status")));
    let mem = e("/sys/fs/cgroup/**/memory.max");
    assert!(mem.matches(Path::new("/sys/fs/cgroup/memory.max")));
    assert!(mem.matches(Path::new("/sys/fs/cgroup/a/b/memory.max")));
    assert!(!mem.matches(Path::new("/sys/fs/cgroup/a/memory.max/x")));
    let net = e("/sys/class/net/*/statistics/*");
    assert!(net.matches(Path::new("/sys/class/net/eth0/statistics/rx_bytes")));
    assert!(!net.matches(Path::new("/sys/class/net/eth0/statistics")));
    assert!(!net.matches(Path::new("/sys/class/net/eth0/address")));
    for bad in ["proc/x", "/proc/**", "/proc/../etc", ""] {
        assert!(rules::Exception::parse(bad).is_none(), "{bad}");
    }
}
