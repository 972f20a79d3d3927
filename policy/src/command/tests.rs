//! Policy-level tests of the command policy: whole lines, every grammar's allowed and refused
//! forms, attack strings, upload-first resolution.

use super::*;
use crate::path::{PathError, PathPolicyConfig};
use std::fs;
use std::os::unix::fs::symlink;

pub(super) struct Fx {
    pub _tmp: tempfile::TempDir,
    pub uploads: PathBuf,
    pub outside: PathBuf,
    pub paths: PathPolicy,
    pub cmds: CommandPolicy,
}

pub(super) fn fx() -> Fx {
    let tmp = tempfile::tempdir().expect("tempdir");
    let root = fs::canonicalize(tmp.path()).expect("canon");
    let data = root.join("data");
    let uploads = data.join("uploads");
    let outside = root.join("outside");
    fs::create_dir_all(&uploads).expect("mkdir");
    fs::create_dir_all(&outside).expect("mkdir");
    fs::write(uploads.join("app.log"), "ok\nERROR boom\n").expect("write");
    fs::write(outside.join("x.txt"), "x").expect("write");
    Fx {
        _tmp: tmp,
        paths: PathPolicy::new(&PathPolicyConfig::with_defaults(&data, &[])),
        cmds: CommandPolicy::new(CommandPolicyConfig::with_defaults(&data)),
        uploads,
        outside,
    }
}

pub(super) fn v(f: &Fx, cmd: &str, args: &[&str]) -> Result<ValidatedCommand, CommandError> {
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    f.cmds.validate(cmd, &args, &f.paths)
}

pub(super) fn refused(f: &Fx, cmd: &str, args: &[&str]) -> String {
    v(f, cmd, args)
        .expect_err(&format!("{cmd} {args:?} must be refused"))
        .to_string()
}

#[test]
fn policy_cmd_seed_examples_have_specific_messages() {
    let f = fx();
    assert_eq!(refused(&f, "rm", &["-rf", "/"]), "命令不在白名单中: rm");
    assert_eq!(refused(&f, "rm -rf /", &[]), "命令不在白名单中: rm");
    assert_eq!(
        refused(&f, "cat", &["/etc/shadow"]),
        "路径匹配禁止模式: /etc/shadow"
    );
    assert_eq!(refused(&f, "ls; reboot", &[]), "参数包含非法字符: ;");
    assert_eq!(refused(&f, "ls", &[";", "reboot"]), "参数包含非法字符: ;");
    assert_eq!(
            refused(&f, "ps aux || head", &[]),
            "不支持的 shell 操作符: ||（命令不经过 shell，只支持单个 | 管道 / only plain `|` pipes are supported）"
        );
    assert_eq!(refused(&f, "ps aux | head > x", &[]), "参数包含非法字符: >");
    // `validate` is for single commands; pipelines go through `validate_pipeline`.
    assert_eq!(
        refused(&f, "ps aux | head", &[]),
        "此处只能执行单个命令，不能使用管道 (a single command is expected here)"
    );
}

#[test]
fn policy_cmd_every_forbidden_char_is_refused() {
    let f = fx();
    for arg in [
        "a;b", "a&b", "a&&b", "a>b", "a<b", "`id`", "$(id)", "${HOME}", "a\nb", "a\rb", "a\0b",
    ] {
        let e = v(&f, "ls", &[arg]).expect_err(arg);
        assert!(
            matches!(e, CommandError::IllegalChar { .. }),
            "{arg}: {e:?}"
        );
        assert!(e.to_string().starts_with("参数包含非法字符: "));
    }
    assert_eq!(refused(&f, "ls", &["a\nb"]), "参数包含非法字符: \\n (换行)");
}

#[test]
fn policy_cmd_command_names_with_paths_are_refused() {
    let f = fx();
    for c in [
        "/bin/ls",
        "./ls",
        "../../bin/cat",
        "bin/ls",
        "\\bin\\ls",
        "/usr/bin/rm",
    ] {
        let e = v(&f, c, &[]).expect_err(c);
        assert!(matches!(e, CommandError::NotBare { .. }), "{c}: {e:?}");
    }
    assert_eq!(
        refused(&f, "/bin/ls", &[]),
        "命令必须是不带路径的命令名: /bin/ls（例如 ls 而不是 /bin/ls）"
    );
    for c in [
        "rm", "sh", "bash", "python3", "curl", "LS", "sudo", "xargs", "kill", "awk", "sed", "tee",
        "env", "nice", "timeout", "strace",
    ] {
        assert!(
            matches!(v(&f, c, &[]), Err(CommandError::NotWhitelisted { .. })),
            "{c}"
        );
    }
    assert_eq!(refused(&f, "", &[]), "命令不能为空 (empty command)");
}

#[test]
fn policy_cmd_file_operands_pass_path_policy() {
    let f = fx();
    let ok = v(&f, "cat", &["app.log"]).expect("allowed");
    assert_eq!(ok.argv, vec![OsString::from(f.uploads.join("app.log"))]);
    assert_eq!(ok.paths, vec![f.uploads.join("app.log")]);
    for (cmd, args) in [
        ("cat", vec!["../../outside/x.txt"]),
        ("head", vec!["-n", "5", "/usr/bin/ls"]),
        ("tail", vec!["-n5", "/usr/bin/ls"]),
        ("ls", vec!["-la", "/"]),
        ("ls", vec!["/root"]),
        ("cat", vec!["app.log", "/usr/bin/ls"]),
    ] {
        let e = v(&f, cmd, &args).expect_err(cmd);
        assert!(
            matches!(e, CommandError::Path(PathError::NotAllowed { .. })),
            "{cmd} {args:?}: {e:?}"
        );
    }
    // Values of value-taking options are not mistaken for paths.
    let ok = v(&f, "head", &["-n", "5", "app.log"]).expect("head -n 5");
    assert_eq!(ok.paths.len(), 1);
    let ok = v(&f, "tail", &["--lines", "3", "app.log"]).expect("tail --lines 3");
    assert_eq!(ok.paths.len(), 1);
}

#[test]
fn policy_cmd_option_injection_is_handled() {
    let f = fx();
    // After `--` everything is an operand, even `-f`-looking names.
    let e = v(&f, "cat", &["--", "/etc/shadow"]).expect_err("--");
    assert_eq!(e.to_string(), "路径匹配禁止模式: /etc/shadow");
    let e = v(&f, "cat", &["--", "-f"]).expect("`-f` is a (nonexistent) file inside uploads");
    assert_eq!(e.paths, vec![f.uploads.join("-f")]);
    // grep's pattern-file options are refused.
    assert_eq!(
        refused(&f, "grep", &["-f", "/etc/shadow", "app.log"]),
        "不允许通过选项读取文件: -f（grep 的该选项已禁用）"
    );
    assert_eq!(
        refused(&f, "grep", &["--file=/etc/shadow", "app.log"]),
        "不允许通过选项读取文件: --file（grep 的该选项已禁用）"
    );
    assert_eq!(
        refused(&f, "grep", &["-if", "/etc/shadow", "app.log"]),
        "不允许通过选项读取文件: -f（grep 的该选项已禁用）"
    );
    assert!(matches!(
        v(&f, "cat", &["--files0-from=/etc/shadow"]),
        Err(CommandError::UnsupportedOption { .. })
    ));
    // grep file operands after `--` are checked.
    assert_eq!(
        refused(&f, "grep", &["x", "--", "/etc/shadow"]),
        "路径匹配禁止模式: /etc/shadow"
    );
    assert_eq!(
        refused(&f, "grep", &["-e", "root", "/etc/passwd"]),
        "路径匹配禁止模式: /etc/passwd"
    );
    assert!(matches!(
        v(&f, "grep", &["-r", "x", "."]),
        Err(CommandError::UnsupportedOption { .. })
    ));
    assert!(refused(&f, "grep", &["-P", "x", "app.log"]).contains("回溯"));
}

#[test]
fn policy_cmd_symlink_operand_out_of_allow_list_is_refused() {
    let f = fx();
    symlink(f.outside.join("x.txt"), f.uploads.join("link")).expect("symlink");
    assert!(matches!(
        v(&f, "cat", &["link"]),
        Err(CommandError::Path(PathError::NotAllowed { .. }))
    ));
    symlink("/etc/shadow", f.uploads.join("sh")).expect("symlink");
    assert_eq!(
        refused(&f, "tail", &["sh"]),
        "路径匹配禁止模式: /etc/shadow"
    );
}

#[test]
fn policy_cmd_bare_ls_checks_working_dir() {
    let f = fx();
    let ok = v(&f, "ls", &["-la"]).expect("bare ls");
    assert_eq!(ok.paths, vec![f.uploads.clone()]);
    assert_eq!(ok.cwd, f.uploads);
    // A working dir outside the allow-list makes every command refuse.
    let mut cfg = f.cmds.config().clone();
    cfg.working_dir = f.outside.clone();
    let bad = CommandPolicy::new(cfg);
    let e = bad.validate("ls", &[], &f.paths).expect_err("outside cwd");
    assert!(matches!(e, CommandError::WorkingDir(_)));
}

#[test]
fn policy_cmd_grep_patterns_compile_with_regex_crate() {
    let f = fx();
    // An argument (or quoted word) may hold `|`: it is not a pipe there.
    let g = v(&f, "grep", &["-E", "error|warn", "app.log"]).expect("alternation");
    assert!(g.grep.expect("grep").regex.is_match("a warn b"));
    let g = v(&f, "grep", &["-in", "-e", "error", "-e", "warn", "app.log"]).expect("grep");
    let opts = g.grep.expect("grep options");
    assert!(opts.regex.is_match("Error here") && opts.regex.is_match("WARN: x"));
    assert!(opts.line_number);
    assert_eq!(
        opts.files,
        vec![(f.uploads.join("app.log"), "app.log".to_string())]
    );
    // Back-references need backtracking: refused, not run. (Look-arounds need `(`,
    // which is a forbidden character anyway.)
    for bad in [r"a\1", "a{99999999}", "[", "[z-a]", "*x"] {
        let e = v(&f, "grep", &["-e", bad, "app.log"]);
        assert!(
            matches!(e, Err(CommandError::GrepInvalidPattern { .. })),
            "{bad}: {e:?}"
        );
    }
    // -F escapes regex syntax.
    let g = v(&f, "grep", &["-F", "a.b(", "app.log"]).expect("fixed with (");
    assert!(g.grep.expect("grep").regex.is_match("xa.b(y"));
    let g = v(&f, "grep", &["-F", "a.b*", "app.log"]).expect("fixed");
    let re = g.grep.expect("grep").regex;
    assert!(re.is_match("xa.b*y") && !re.is_match("axb"));
    assert!(matches!(
        v(&f, "grep", &["x"]),
        Err(CommandError::GrepMissingFile)
    ));
    assert!(matches!(
        v(&f, "grep", &[]),
        Err(CommandError::GrepMissingPattern)
    ));
}

#[test]
fn policy_cmd_no_operand_commands_and_ps_environment() {
    let f = fx();
    assert!(v(&f, "pwd", &[]).is_ok());
    assert!(v(&f, "whoami", &[]).is_ok());
    assert!(v(&f, "free", &["-h"]).is_ok());
    assert!(v(&f, "df", &["-h", "/"]).is_ok());
    assert!(v(&f, "ps", &["aux"]).is_ok());
    assert!(v(&f, "ps", &["-ef"]).is_ok());
    assert_eq!(refused(&f, "whoami", &["root"]), "whoami 不接受参数: root");
    assert!(matches!(
        v(&f, "ps", &["auxe"]),
        Err(CommandError::PsEnvironment { .. })
    ));
    assert!(matches!(
        v(&f, "ps", &["e"]),
        Err(CommandError::PsEnvironment { .. })
    ));
}

#[test]
fn policy_cmd_limits() {
    let f = fx();
    let many: Vec<&str> = vec!["-l"; 65];
    assert!(matches!(
        v(&f, "ls", &many),
        Err(CommandError::TooManyArgs { .. })
    ));
    let long = "a".repeat(5000);
    assert!(matches!(
        v(&f, "ls", &[&long]),
        Err(CommandError::ArgTooLong { .. })
    ));
}

#[test]
fn policy_cmd_configurable_whitelist() {
    let f = fx();
    let mut cfg = f.cmds.config().clone();
    cfg.allowed = vec!["ls".into()];
    let narrow = CommandPolicy::new(cfg);
    assert!(matches!(
        narrow.validate("cat", &["app.log".into()], &f.paths),
        Err(CommandError::NotWhitelisted { .. })
    ));
}
