//! Per-grammar tests: for every command the forms that are allowed (and the argv that runs)
//! and the ones refused (attack strings included); pipelines and upload-first
//! resolution through `validate_pipeline`.

use super::tests::{fx, Fx};
use super::*;
use std::fs;

fn line(f: &Fx, l: &str) -> Result<Pipeline, CommandError> {
    f.cmds.validate_pipeline(l, &[], &f.paths, &[])
}

fn ok(f: &Fx, l: &str) -> Pipeline {
    match line(f, l) {
        Ok(p) => p,
        Err(e) => panic!("{l:?} must be allowed: {e}"),
    }
}

/// The argv that runs for a single-stage line.
fn argv(f: &Fx, l: &str) -> Vec<String> {
    ok(f, l).stages[0]
        .argv
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect()
}

fn code(f: &Fx, l: &str) -> &'static str {
    match line(f, l) {
        Ok(p) => panic!("{l:?} must be refused, got {:?}", p.stages[0].argv),
        Err(e) => e.code(),
    }
}

fn msg(f: &Fx, l: &str) -> String {
    line(f, l)
        .map(|_| String::new())
        .unwrap_or_else(|e| e.to_string())
}

#[test]
fn policy_table_is_the_one_command_list() {
    let f = fx();
    assert_eq!(command_names().len(), Cmd::ALL.len());
    assert_eq!(DEFAULT_ALLOWED_COMMANDS, command_names());
    for name in command_names() {
        assert!(f.cmds.is_allowed(name), "{name}");
        assert_eq!(Cmd::from_name(name).map(Cmd::name), Some(*name));
    }
    for name in ["rm", "sh", "LS", "", "kill"] {
        assert!(!f.cmds.is_allowed(name), "{name}");
    }
    let mut cfg = f.cmds.config().clone();
    cfg.allowed = vec!["ls".into(), "bogus".into()];
    let narrow = CommandPolicy::new(cfg);
    assert!(narrow.is_allowed("ls") && !narrow.is_allowed("cat") && !narrow.is_allowed("bogus"));
}

#[test]
fn policy_grammar_unknown_flags_list_the_supported_ones() {
    let f = fx();
    let m = msg(&f, "uname -Z");
    assert!(
        m.starts_with("uname 不支持的选项: -Z（支持 / supported: -a/--all"),
        "{m}"
    );
    assert_eq!(code(&f, "wc --frobnicate x"), "unsupported_option");
    assert_eq!(code(&f, "uptime --since=x"), "bad_value");
    assert_eq!(code(&f, "head -n abc app.log"), "bad_value");
    assert_eq!(code(&f, "head -n"), "missing_option_value");
}

#[test]
fn policy_grammar_system_info_commands() {
    let f = fx();
    for l in [
        "uname -a",
        "uname -srm",
        "uptime",
        "uptime -p",
        "hostname",
        "hostname -I",
        "hostname -f",
        "id",
        "id -un",
        "id root",
        "w",
        "w -h",
        "whoami",
        "pwd",
        "free -h",
        "free -m -s 1 -c 2",
        "df -h /",
        "df -i",
        "df -hT --output=source,pcent",
    ] {
        ok(&f, l);
    }
    for (l, c) in [
        ("hostname newname", "unexpected_operand"),
        ("hostname -F /etc/hostname", "refused_option"),
        ("hostname -b x", "refused_option"),
        ("hostname --file=x", "refused_option"),
        ("uname extra", "unexpected_operand"),
        ("uptime now", "unexpected_operand"),
        ("id '-u;x'", "illegal_char"),
        ("id --bad", "unsupported_option"),
        ("id ../x", "bad_operand"),
        ("free -s 1", "missing_operand"),
        ("free -c 99", "bad_value"),
        ("df --output=secret", "bad_value"),
        ("whoami root", "unexpected_operand"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
}

#[test]
fn policy_grammar_ps() {
    let f = fx();
    for l in [
        "ps aux",
        "ps -ef",
        "ps -eo pid,user,%cpu,%mem,rss,comm,args --sort=-%mem",
        "ps -eo pid,comm --sort -%cpu",
        "ps -p 1",
        "ps -p 1,2 -o pid=,comm=",
        "ps -C nginx",
        "ps -u root",
        "ps axo pid,comm",
        "ps 1",
        "ps auxf",
    ] {
        ok(&f, l);
    }
    assert_eq!(argv(&f, "ps -eo pid,comm"), ["-e", "-o", "pid,comm"]);
    for l in [
        "ps e",
        "ps auxe",
        "ps aeux",
        "ps -o environ",
        "ps -eo pid,environ",
        "ps -o pid,ENV",
        "ps --format=pid,env",
        "ps axo pid,environ",
        "ps -O environ",
    ] {
        assert_eq!(code(&f, l), "ps_environment", "{l}");
    }
    for (l, c) in [
        ("ps --sort=environ", "bad_value"),
        ("ps -p abc", "bad_value"),
        ("ps -C '-x'", "bad_value"),
        ("ps auxq", "unsupported_option"),
        ("ps -W", "unsupported_option"),
        ("ps axo", "missing_option_value"),
        ("ps oax pid", "unsupported_option"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
}

#[test]
fn policy_grammar_network() {
    let f = fx();
    for l in [
        "ss -tlnp",
        "ss -s",
        "ss -tan state established",
        "ss -tn sport = :443",
        "netstat -tlnp",
        "netstat -rn",
        "ip a",
        "ip addr",
        "ip addr show",
        "ip -br a",
        "ip -4 addr show dev eth0",
        "ip a show lo",
        "ip link",
        "ip l",
        "ip -s link show eth0",
        "ip route",
        "ip r",
        "ip -j r",
        "ip neigh",
        "ip n show",
        "ip -6 route list",
        "ip link show up",
        "ping -c 3 example.com",
        "ping -c 1 -W 1 127.0.0.1",
        "ping -c 5 -i 0.2 ::1",
        "getent hosts localhost",
        "getent ahosts example.com",
        "getent hosts",
    ] {
        ok(&f, l);
    }
    assert_eq!(argv(&f, "ip -br a"), ["-brief", "addr", "show"]);
    assert_eq!(argv(&f, "ip a show lo"), ["addr", "show", "dev", "lo"]);
    for (l, c) in [
        ("ss -K", "refused_option"),
        ("ss --kill dst 1.2.3.4", "refused_option"),
        ("ss -D out", "refused_option"),
        ("ss -F filterfile", "refused_option"),
        ("ss -N otherns", "refused_option"),
        ("netstat -c", "refused_option"),
        ("netstat extra", "unexpected_operand"),
        ("ip link set eth0 down", "not_read_only"),
        ("ip link set dev eth0 up", "not_read_only"),
        ("ip addr add 10.0.0.1/24 dev eth0", "not_read_only"),
        ("ip addr del 10.0.0.1/24 dev eth0", "not_read_only"),
        ("ip route flush table main", "not_read_only"),
        ("ip route flush", "not_read_only"),
        ("ip link flush", "not_read_only"),
        ("ip route replace default via 1.1.1.1", "not_read_only"),
        ("ip route change default via 1.1.1.1", "not_read_only"),
        ("ip neigh flush all", "not_read_only"),
        ("ip monitor", "not_read_only"),
        ("ip xfrm state", "not_read_only"),
        ("ip netns exec x sh", "not_read_only"),
        ("ip addr show dev", "not_read_only"),
        ("ip addr show dev eth0 extra", "not_read_only"),
        ("ip -b cmds.txt", "unsupported_option"),
        ("ip -force link", "unsupported_option"),
        ("ip -n ns link", "unsupported_option"),
        ("ip", "missing_operand"),
        ("ping example.com", "missing_operand"),
        ("ping -c 0 example.com", "missing_operand"),
        ("ping -c 6 example.com", "bad_value"),
        ("ping -c 1000 example.com", "bad_value"),
        ("ping -f -c 3 example.com", "refused_option"),
        ("ping -c 3 -f example.com", "refused_option"),
        ("ping -F 1 -c 3 example.com", "refused_option"),
        ("ping -l 100 -c 3 example.com", "refused_option"),
        ("ping -c 3 -i 0.01 example.com", "bad_value"),
        ("ping -c 3 -i 0 example.com", "bad_value"),
        ("ping -c 3 -W 100 example.com", "bad_value"),
        ("ping -c 3 -w 3600 example.com", "bad_value"),
        ("ping -c 3 -- -f", "bad_operand"),
        ("ping -c 3 -bad-host", "unsupported_option"),
        ("ping -c 3 a b", "too_many_operands"),
        ("ping -c 3 exa_mple.com", "bad_operand"),
        ("getent passwd", "not_read_only"),
        ("getent shadow root", "not_read_only"),
        ("getent hosts -x", "unsupported_option"),
        ("getent hosts ../etc", "bad_operand"),
        ("getent", "missing_operand"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
}

#[test]
fn policy_grammar_lsof_is_network_only() {
    let f = fx();
    assert_eq!(argv(&f, "lsof -i :80"), ["-i", ":80"]);
    assert_eq!(argv(&f, "lsof -i:80"), ["-i", ":80"]);
    assert_eq!(argv(&f, "lsof -nPi"), ["-n", "-P", "-i"]);
    assert_eq!(
        argv(&f, "lsof -iTCP -sTCP:LISTEN"),
        ["-i", "TCP", "-sTCP:LISTEN"]
    );
    // -p/-u/-c are ANDed with -i: never all of a process's files.
    assert_eq!(argv(&f, "lsof -p 1234 -i"), ["-p", "1234", "-i", "-a"]);
    assert_eq!(argv(&f, "lsof -a -u root -i"), ["-a", "-u", "root", "-i"]);
    for (l, c) in [
        ("lsof", "missing_operand"),
        ("lsof -p 1234", "missing_operand"),
        ("lsof -u root", "missing_operand"),
        ("lsof /var/log/syslog", "unexpected_operand"),
        ("lsof -i /etc/shadow", "unexpected_operand"),
        ("lsof +D /etc -i", "unexpected_operand"),
        ("lsof -r 1 -i", "refused_option"),
        ("lsof -d 1 -i", "refused_option"),
        ("lsof -i;id", "illegal_char"),
        ("lsof -p x -i", "bad_value"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
}

#[test]
fn policy_grammar_journal_services_kernel() {
    let f = fx();
    for l in [
        "journalctl -u nginx",
        "journalctl -u nginx.service -p err -n 50 --no-pager",
        "journalctl -u nginx --since '2024-05-01 10:00' --until now",
        "journalctl --since=-1h -o short-iso",
        "journalctl -b -1 -k",
        "journalctl -b",
        "journalctl -p err..warning -r -q",
        "journalctl _PID=1",
        "journalctl -f -u nginx",
        "journalctl --disk-usage",
        "systemctl status nginx",
        "systemctl status",
        "systemctl is-active nginx sshd.service",
        "systemctl is-enabled nginx",
        "systemctl is-failed nginx",
        "systemctl list-units --type=service --state=failed --no-pager",
        "systemctl list-timers --all",
        "systemctl list-unit-files",
        "systemctl show nginx -p MainPID",
        "systemctl cat getty@tty1.service",
        "systemctl --failed",
        "dmesg",
        "dmesg -T",
        "dmesg -T -l err,warn",
        "dmesg --level=err -x -k",
        "dmesg -H -L",
    ] {
        ok(&f, l);
    }
    assert_eq!(argv(&f, "journalctl -b -1"), ["-b", "-1"]);
    assert_eq!(argv(&f, "journalctl -b -k"), ["-b", "-k"]);
    assert_eq!(
        argv(&f, "journalctl --since '2024-05-01 10:00'"),
        ["-S", "2024-05-01 10:00"]
    );
    for (l, c) in [
        ("journalctl --vacuum-size=1M", "refused_option"),
        ("journalctl --vacuum-time=1s", "refused_option"),
        ("journalctl --vacuum-files=1", "refused_option"),
        ("journalctl --rotate", "refused_option"),
        ("journalctl --flush", "refused_option"),
        ("journalctl --sync", "refused_option"),
        ("journalctl --relinquish-var", "refused_option"),
        ("journalctl --setup-keys", "refused_option"),
        ("journalctl --update-catalog", "refused_option"),
        ("journalctl --cursor-file=x", "refused_option"),
        ("journalctl -g 'a+b'", "refused_option"),
        ("journalctl -M other", "refused_option"),
        ("journalctl -D /root", "not_allowed"),
        ("journalctl --file=/etc/shadow", "denied_pattern"),
        ("journalctl --root=/", "not_allowed"),
        ("journalctl -u 'nginx;id'", "illegal_char"),
        ("journalctl -u --vacuum-size=1", "bad_value"),
        ("journalctl -u '*'", "bad_value"),
        ("journalctl -u ../../etc/x", "bad_value"),
        ("journalctl -p loud", "bad_value"),
        ("journalctl -n lots", "bad_value"),
        ("journalctl /usr/bin/sshd", "bad_operand"),
        ("journalctl --since 'now;id'", "illegal_char"),
        ("systemctl restart nginx", "not_read_only"),
        ("systemctl stop nginx", "not_read_only"),
        ("systemctl start nginx", "not_read_only"),
        ("systemctl enable nginx", "not_read_only"),
        ("systemctl disable nginx", "not_read_only"),
        ("systemctl mask nginx", "not_read_only"),
        ("systemctl daemon-reload", "not_read_only"),
        ("systemctl kill nginx", "not_read_only"),
        ("systemctl set-property nginx CPUQuota=1%", "not_read_only"),
        ("systemctl edit nginx", "not_read_only"),
        ("systemctl reboot", "not_read_only"),
        ("systemctl --no-pager restart nginx", "not_read_only"),
        ("systemctl status -- --force", "bad_operand"),
        ("systemctl status 'nginx*'", "bad_operand"),
        ("systemctl status ng?nx", "bad_operand"),
        ("systemctl status ../../etc/passwd", "bad_operand"),
        ("systemctl status /etc/x", "bad_operand"),
        ("systemctl status 'a b'", "bad_operand"),
        ("systemctl cat", "missing_operand"),
        ("systemctl is-active", "missing_operand"),
        ("systemctl -H host status", "refused_option"),
        ("systemctl --host=h status", "refused_option"),
        ("systemctl status nginx;reboot", "illegal_char"),
        ("dmesg -c", "refused_option"),
        ("dmesg -C", "refused_option"),
        ("dmesg --clear", "refused_option"),
        ("dmesg -D", "refused_option"),
        ("dmesg -E", "refused_option"),
        ("dmesg -n 1", "refused_option"),
        ("dmesg --console-off", "refused_option"),
        ("dmesg --console-level=1", "refused_option"),
        ("dmesg -F /etc/x", "refused_option"),
        ("dmesg -TC", "refused_option"),
        ("dmesg -l loud", "bad_value"),
        ("dmesg x", "unexpected_operand"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
    assert!(ok(&f, "journalctl -f -u nginx").follow());
    assert!(ok(&f, "journalctl --follow").follow());
    assert!(!ok(&f, "journalctl -u nginx").follow());
    assert!(ok(&f, "dmesg -w").follow());
}

#[test]
fn policy_grammar_file_commands() {
    let f = fx();
    let app = f.uploads.join("app.log").display().to_string();
    for l in [
        "wc -l app.log",
        "wc app.log",
        "sort -n -r -k 2,2n -t , app.log",
        "sort -u app.log",
        "uniq -c app.log",
        "uniq app.log",
        "cut -d : -f 1,3 app.log",
        "cut -c 1-10 app.log",
        "stat app.log",
        "stat -c '%s %n' app.log",
        "file app.log",
        "file -b --mime-type app.log",
        "md5sum app.log",
        "sha256sum app.log",
        "sha256sum --tag app.log",
        "head -20 app.log",
        "head -n 5 app.log",
        "tail -n +2 app.log",
        "tail -f app.log",
        "tail -F app.log",
        "tail --follow=name app.log",
        "cat -n app.log",
        "ls -la",
        "ls -lhS /var/log",
        "du -sh /var/log",
        "du -h -d 2 /var/log",
        "find /var/log -name '*.log' -size +1M -mtime -1",
        "find /var/log -type f -maxdepth 2 -print",
        "find /var/log ! -name '*.gz' -o -empty",
    ] {
        ok(&f, l);
    }
    assert_eq!(argv(&f, "wc -l app.log"), ["-l", app.as_str()]);
    assert_eq!(argv(&f, "head -20 app.log"), ["-n", "20", app.as_str()]);
    assert_eq!(
        argv(&f, "cat -- -n"),
        [f.uploads.join("-n").display().to_string()]
    );
    assert!(ok(&f, "tail -f app.log").follow());
    assert!(ok(&f, "tail --follow app.log").follow());
    assert!(!ok(&f, "tail -n 5 app.log").follow());
    // du: a depth bound is added unless -s or a depth is given.
    assert_eq!(argv(&f, "du -h /var/log"), ["-h", "-d", "3", "/var/log"]);
    assert_eq!(argv(&f, "du -sh /var/log"), ["-s", "-h", "/var/log"]);
    assert_eq!(
        argv(&f, "du --max-depth=1 /var/log"),
        ["-d", "1", "/var/log"]
    );
    // find: start paths checked, -maxdepth bounded and moved before the tests.
    assert_eq!(
        argv(&f, "find /var/log -name '*.log'"),
        ["/var/log", "-maxdepth", "5", "-name", "*.log"]
    );
    assert_eq!(
        argv(&f, "find /var/log -type f -maxdepth 2"),
        ["/var/log", "-maxdepth", "2", "-type", "f"]
    );
    assert!(ok(&f, "find /var/log -name x").stages[0].recursive);
    for (l, c) in [
        ("sort -o out app.log", "refused_option"),
        ("sort --output=out app.log", "refused_option"),
        ("sort --compress-program=sh app.log", "refused_option"),
        ("sort --files0-from=list", "refused_option"),
        ("sort -T /tmp app.log", "refused_option"),
        ("sort -S 90% app.log", "refused_option"),
        ("uniq app.log out.txt", "too_many_operands"),
        ("uniq a b", "too_many_operands"),
        ("wc --files0-from=/etc/shadow", "refused_option"),
        ("md5sum -c sums.txt", "refused_option"),
        ("sha256sum --check sums.txt", "refused_option"),
        ("file -f list.txt", "refused_option"),
        ("file -m magic app.log", "refused_option"),
        ("file -C -m x", "refused_option"),
        ("cut -d ab -f 1 app.log", "bad_value"),
        ("cut -f x app.log", "bad_value"),
        ("stat /etc/shadow", "denied_pattern"),
        ("cat ../../outside/x.txt", "not_allowed"),
        ("head -n 5 /root/x", "not_allowed"),
        ("tail --pid=1 -f app.log", "refused_option"),
        ("ls -L", "refused_option"),
        ("ls --dereference /var/log", "refused_option"),
        ("du -L /var/log", "refused_option"),
        ("du -X excl /var/log", "refused_option"),
        ("du -d 50 /var/log", "bad_value"),
        ("du /etc/shadow", "denied_pattern"),
        ("find / -name x", "not_allowed"),
        ("find /var/log -exec rm {} +", "refused_option"),
        ("find /var/log -name x -execdir id", "refused_option"),
        ("find /var/log -ok rm", "refused_option"),
        ("find /var/log -okdir rm", "refused_option"),
        ("find /var/log -delete", "refused_option"),
        ("find /var/log -fprint /tmp/x", "refused_option"),
        ("find /var/log -fprint0 /tmp/x", "refused_option"),
        ("find /var/log -fprintf /tmp/x %p", "refused_option"),
        ("find /var/log -fls /tmp/x", "refused_option"),
        ("find -L /var/log", "refused_option"),
        ("find /var/log -follow", "refused_option"),
        ("find /var/log -regex '(a+)+$'", "illegal_char"),
        ("find /var/log -regex 'a.*'", "refused_option"),
        ("find /var/log -- -exec id", "refused_option"),
        ("find /var/log -maxdepth 99", "bad_value"),
        ("find /var/log -name x /etc", "bad_operand"),
        ("find /var/log -newer /etc/shadow", "denied_pattern"),
        ("find /var/log -frobnicate", "unsupported_option"),
        ("find /var/log -name", "missing_option_value"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
    // `-exec` hidden after `--` is an operand (a file name), never an action.
    let p = ok(&f, "cat -- -exec");
    assert_eq!(p.stages[0].paths, vec![f.uploads.join("-exec")]);
    assert_eq!(
        msg(&f, "uniq a b"),
        "uniq 参数过多: 最多 1 个（第二个参数会被当作输出文件写入 / a second operand is uniq's OUTPUT file）"
    );
}

#[test]
fn policy_pipeline_validates_every_stage() {
    let f = fx();
    let p = ok(&f, "ps aux | grep nginx | head -20");
    assert_eq!(p.stages.len(), 3);
    assert_eq!(p.display(), "ps aux | grep nginx | head -20");
    let g = p.stages[1].grep.as_ref().expect("grep stage");
    assert!(g.files.is_empty(), "a later grep stage reads stdin");
    assert_eq!(
        p.stages[2].argv,
        vec![OsString::from("-n"), OsString::from("20")]
    );
    ok(&f, "cat app.log | grep -c ERROR");
    ok(
        &f,
        "journalctl -u nginx --no-pager | grep -i error | tail -n 20",
    );
    ok(&f, "cat app.log | sort | uniq -c | sort -rn | head -5");
    ok(&f, r#"grep "a|b" app.log"#);
    assert_eq!(ok(&f, r#"grep "a|b" app.log"#).stages.len(), 1);
    for (l, c) in [
        ("grep x", "grep_missing_file"),
        ("ps aux | rm -rf /", "not_whitelisted"),
        ("ps aux | sh", "not_whitelisted"),
        ("ps aux | /bin/sh", "not_bare"),
        ("cat app.log | sort -o /tmp/x", "refused_option"),
        ("cat app.log | tee x", "not_whitelisted"),
        ("ps aux || reboot", "shell_operator"),
        ("ps aux |& head", "shell_operator"),
        ("ps aux | | head", "empty_stage"),
        ("| head", "empty_stage"),
        ("ps aux |", "empty_stage"),
        ("ps | head | head | head | head | head", "too_many_stages"),
        ("ps aux | grep x > out", "illegal_char"),
        ("ps aux; id", "illegal_char"),
        ("cat app.log | cat /etc/shadow", "denied_pattern"),
        ("ps aux | grep -f /etc/shadow", "file_option"),
        ("ps e | head", "ps_environment"),
    ] {
        assert_eq!(code(&f, l), c, "{l}");
    }
}

#[test]
fn policy_relative_names_resolve_to_this_sessions_uploads_first() {
    let f = fx();
    fs::create_dir_all(f.uploads.join("u1")).expect("mkdir");
    fs::create_dir_all(f.uploads.join("u2")).expect("mkdir");
    fs::write(f.uploads.join("u1/app.log"), "old\n").expect("write");
    fs::write(f.uploads.join("u2/app.log"), "new\n").expect("write");
    let ups = vec![
        UploadFile {
            filename: "app.log".into(),
            path: f.uploads.join("u1/app.log"),
        },
        UploadFile {
            filename: "app.log".into(),
            path: f.uploads.join("u2/app.log"),
        },
    ];
    let args: Vec<String> = vec!["-c".into(), "ERROR".into(), "app.log".into()];
    let p = f
        .cmds
        .validate_pipeline("grep", &args, &f.paths, &ups)
        .expect("grep");
    let g = p.stages[0].grep.as_ref().expect("grep");
    assert_eq!(
        g.files,
        vec![(f.uploads.join("u2/app.log"), "app.log".to_string())]
    );
    let r = p.resolved();
    assert_eq!(r.len(), 1);
    assert_eq!(r[0].source, PathSource::Upload);
    assert_eq!(r[0].same_name, 2);
    // Without uploads the same name is the file in the working dir.
    let p = line(&f, "wc -l app.log").expect("wc");
    assert_eq!(p.stages[0].paths, vec![f.uploads.join("app.log")]);
    assert_eq!(p.resolved()[0].source, PathSource::Root);
    // Through a pipeline too.
    let p = f
        .cmds
        .validate_pipeline("cat app.log | wc -l", &[], &f.paths, &ups)
        .expect("pipe");
    assert_eq!(
        p.stages[0].argv,
        vec![OsString::from(f.uploads.join("u2/app.log"))]
    );
}
