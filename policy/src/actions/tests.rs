//! Action grammar, deny rules and configured actions against attack strings.

use std::collections::BTreeMap;

use super::*;

const OWN: u32 = 777;
const PARENT: u32 = 776;

fn v(s: &str) -> Vec<String> {
    s.split(' ').map(String::from).collect()
}

/// Live processes: 4242 (sleep), 4243 (python3), 600 (sshd), 601 (dockerd via cmdline).
fn procs(pid: u32) -> Option<ProcInfo> {
    let (name, cmd) = match pid {
        1 => ("systemd", "/sbin/init"),
        4242 => ("sleep", "sleep"),
        4243 => ("python3", "/usr/bin/python3"),
        600 => ("sshd", "/usr/sbin/sshd"),
        601 => ("dockerd", "/usr/bin/dockerd"),
        602 => ("journald-x", "/lib/systemd/systemd-journald"),
        OWN | PARENT => ("llmops-server", "llmops-server"),
        _ => return None,
    };
    Some(ProcInfo {
        name: name.into(),
        cmd: Some(cmd.into()),
    })
}

fn policy_with(cfg: &ActionsConfig) -> ActionPolicy {
    ActionPolicy::new(cfg, OWN, Some(PARENT)).expect("policy")
}

fn policy() -> ActionPolicy {
    policy_with(&ActionsConfig::default())
}

fn check(s: &str) -> Result<Vec<ProposedAction>, ActionError> {
    policy().check(&ActionRequest::Argv(v(s)), &procs)
}

fn argvs(r: &[ProposedAction]) -> Vec<String> {
    r.iter().map(|p| p.argv.join(" ")).collect()
}

#[test]
fn systemctl_verbs_run_as_given_one_unit_per_stage() {
    for verb in ["restart", "reload", "start", "stop", "reset-failed"] {
        let r = check(&format!("systemctl {verb} nginx")).expect(verb);
        assert_eq!(argvs(&r), [format!("systemctl {verb} nginx")]);
        assert_eq!(r[0].action.name(), format!("systemctl {verb}"));
        assert_eq!(
            r[0].always.to_tokens(),
            r[0].argv,
            "always = the exact argv"
        );
        assert_eq!(r[0].always_text, format!("systemctl {verb} nginx"));
    }
    let r = check("/usr/bin/systemctl restart nginx.service php-fpm").expect("two units");
    assert_eq!(
        argvs(&r),
        [
            "systemctl restart nginx.service",
            "systemctl restart php-fpm"
        ]
    );
}

#[test]
fn systemctl_refuses_bad_units_options_and_verbs() {
    for (s, code) in [
        ("systemctl restart nginx;reboot", "injection"),
        ("systemctl restart nginx&&reboot", "injection"),
        ("systemctl restart $(reboot)", "injection"),
        ("systemctl restart `id`", "injection"),
        ("systemctl restart --force nginx", "option_not_allowed"),
        ("systemctl restart -- nginx", "option_not_allowed"),
        ("systemctl --now restart nginx", "option_not_allowed"),
        ("systemctl restart ngin*", "bad_unit"),
        ("systemctl restart ngin?", "bad_unit"),
        ("systemctl restart [ab]", "bad_unit"),
        ("systemctl restart ../etc/passwd", "bad_unit"),
        (
            "systemctl restart /etc/systemd/system/x.service",
            "bad_unit",
        ),
        ("systemctl restart ..service", "bad_unit"),
        ("systemctl restart .hidden", "bad_unit"),
        ("systemctl restart nginx.", "bad_unit"),
        ("systemctl restart ngіnx", "bad_unit"), // Cyrillic i
        ("systemctl restart ｎginx", "bad_unit"), // fullwidth n
        ("systemctl restart", "bad_unit"),
        ("systemctl enable nginx", "unknown_action"),
        ("systemctl daemon-reload", "unknown_action"),
        ("systemctl isolate rescue.target", "unknown_action"),
        ("systemctl RESTART nginx", "unknown_action"),
        ("/tmp/systemctl restart nginx", "unknown_action"),
        ("rm -rf /", "unknown_action"),
        ("reboot", "unknown_action"),
    ] {
        let e = check(s).expect_err(s);
        assert_eq!(e.code(), code, "{s}: {e}");
        assert!(!e.is_denied(), "{s}");
    }
    let nl = policy().check(
        &ActionRequest::Argv(vec!["systemctl".into(), "restart".into(), "a\nb".into()]),
        &procs,
    );
    assert_eq!(nl.expect_err("newline").code(), "injection");
    let empty = policy().check(
        &ActionRequest::Argv(vec!["systemctl".into(), "restart".into(), String::new()]),
        &procs,
    );
    assert_eq!(empty.expect_err("empty").code(), "injection");
}

#[test]
fn default_deny_units_cover_ssh_journald_dbus_and_the_server() {
    for unit in [
        "sshd",
        "ssh",
        "sshd.service",
        "ssh.socket",
        "sshd@1-10.0.0.1:22.service",
        "systemd-journald",
        "dbus",
        "dbus.service",
        "llmops-server",
        "llmops-server.service",
    ] {
        for verb in ["restart", "stop", "reload"] {
            let e = check(&format!("systemctl {verb} {unit}")).expect_err(unit);
            assert!(e.is_denied(), "{unit}: {e}");
            assert!(e.to_string().starts_with("禁止的操作目标: "), "{e}");
        }
    }
    // A compound request with one denied stage is denied as a whole, naming it.
    let e = check("systemctl restart nginx && systemctl stop sshd").expect_err("denied");
    assert!(e.is_denied());
    assert!(e.to_string().contains("sshd"), "{e}");
    let e = check("systemctl restart nginx sshd").expect_err("list");
    assert!(e.is_denied() && e.to_string().contains("sshd"));
    // Configured extra units and server unit.
    let cfg = ActionsConfig {
        deny_units: vec!["postgresql".into()],
        server_unit: Some("ops-agent.service".into()),
        ..Default::default()
    };
    let p = policy_with(&cfg);
    for unit in [
        "postgresql.service",
        "ops-agent",
        "sshd",
        "postgresql@14-main.service",
    ] {
        let e = p
            .check(
                &ActionRequest::Argv(v(&format!("systemctl restart {unit}"))),
                &procs,
            )
            .expect_err(unit);
        assert!(e.is_denied(), "{unit}");
    }
    assert!(p
        .check(&ActionRequest::Argv(v("systemctl restart nginx")), &procs)
        .is_ok());
    let bad = ActionsConfig {
        deny_units: vec!["a;b".into()],
        ..Default::default()
    };
    assert_eq!(
        ActionPolicy::new(&bad, OWN, None).expect_err("bad unit"),
        ActionConfigError::BadDenyUnit("a;b".into())
    );
}

#[test]
fn kill_normalises_the_signal_to_one_canonical_form() {
    for s in [
        "kill 4242",
        "kill -TERM 4242",
        "kill -15 4242",
        "kill -SIGTERM 4242",
        "kill -s TERM 4242",
        "kill -s 15 4242",
        "kill --signal SIGTERM 4242",
        "/bin/kill -term 4242",
    ] {
        assert_eq!(argvs(&check(s).expect(s)), ["kill -TERM 4242"], "{s}");
    }
    for (s, canon) in [
        ("kill -9 4242", "kill -KILL 4242"),
        ("kill -KILL 4242", "kill -KILL 4242"),
        ("kill -1 4242", "kill -HUP 4242"),
        ("kill -HUP 4242", "kill -HUP 4242"),
        ("kill -2 4242", "kill -INT 4242"),
        ("kill -s INT 4242", "kill -INT 4242"),
    ] {
        assert_eq!(argvs(&check(s).expect(s)), [canon]);
    }
    // A list is one proposal per pid, each with its exact argv as the always scope.
    let r = check("kill -9 4242 4243").expect("list");
    assert_eq!(argvs(&r), ["kill -KILL 4242", "kill -KILL 4243"]);
    assert_eq!(
        r[1].action,
        ActionKind::Kill {
            signal: Signal::Kill,
            pid: 4243
        }
    );
    assert!(r.iter().all(|p| p.always.to_tokens() == p.argv));
}

#[test]
fn kill_refuses_groups_bad_pids_and_other_signals() {
    for (s, code) in [
        ("kill -9 -1", "process_group"),
        ("kill -TERM -1", "process_group"),
        ("kill 0", "process_group"),
        ("kill -9 0", "process_group"),
        ("kill 4242 -9", "process_group"),
        ("kill -- -4242", "option_not_allowed"),
        ("kill -STOP 4242", "option_not_allowed"),
        ("kill -19 4242", "bad_signal"),
        ("kill -s STOP 4242", "bad_signal"),
        ("kill -s", "bad_signal"),
        ("kill -9 -KILL 4242", "bad_signal"),
        ("kill -l", "option_not_allowed"),
        ("kill", "bad_pid"),
        ("kill -TERM", "bad_pid"),
        ("kill 04242", "bad_pid"),
        ("kill +4242", "bad_pid"),
        ("kill 42a", "bad_pid"),
        ("kill 99999999999", "bad_pid"),
        ("kill 4294967295", "bad_pid"),
        ("kill 4194305", "bad_pid"),
        ("kill %1", "bad_pid"),
        ("kill 4242;reboot", "injection"),
        ("kill ４２４２", "bad_pid"),
        ("kill 31337", "no_such_process"),
    ] {
        let e = check(s).expect_err(s);
        assert_eq!(e.code(), code, "{s}: {e}");
    }
    assert_eq!(
        check("kill 31337").expect_err("gone"),
        ActionError::NoSuchProcess(31337)
    );
    assert!(check("kill 31337")
        .expect_err("gone")
        .to_string()
        .starts_with("没有这个进程: 31337"));
}

#[test]
fn kill_denies_init_the_server_its_parent_and_denied_names_as_a_whole() {
    for pid in [1, OWN, PARENT, 600, 602] {
        let e = check(&format!("kill -TERM {pid}")).expect_err("denied");
        assert!(e.is_denied(), "{pid}: {e}");
        assert!(e.to_string().contains(&format!("pid {pid}")), "{e}");
    }
    // Mixed lists are denied whole, naming the denied pid; never narrowed to the allowed.
    for s in [
        "kill 4242 1",
        "kill -9 1 4242",
        "kill 4242 4243 600",
        "kill 4242 && kill 1",
    ] {
        let e = check(s).expect_err(s);
        assert!(e.is_denied(), "{s}");
    }
    let e = check("kill 4242 600").expect_err("mixed");
    assert!(
        e.to_string().contains("pid 600") && e.to_string().contains("sshd"),
        "{e}"
    );
    // Configured pids and names (matched on comm or the command's base name).
    let cfg = ActionsConfig {
        deny_pids: vec![4243],
        deny_process_names: vec!["dockerd".into()],
        ..Default::default()
    };
    let p = policy_with(&cfg);
    for pid in [4243, 601] {
        let e = p
            .check(&ActionRequest::Argv(v(&format!("kill {pid}"))), &procs)
            .expect_err("denied");
        assert!(e.is_denied(), "{pid}");
    }
    assert!(p
        .check(&ActionRequest::Argv(v("kill 4242")), &procs)
        .is_ok());
}

#[test]
fn journal_vacuum_is_a_strict_number_and_unit() {
    for (s, canon) in [
        (
            "journalctl --vacuum-size=500M",
            "journalctl --vacuum-size=500M",
        ),
        ("journalctl --vacuum-size 1G", "journalctl --vacuum-size=1G"),
        (
            "journalctl --vacuum-size=100000",
            "journalctl --vacuum-size=100000",
        ),
        (
            "journalctl --vacuum-time=2weeks",
            "journalctl --vacuum-time=2weeks",
        ),
        (
            "journalctl --vacuum-time=10d",
            "journalctl --vacuum-time=10d",
        ),
        (
            "journalctl --vacuum-time=30min",
            "journalctl --vacuum-time=30min",
        ),
    ] {
        let r = check(s).expect(s);
        assert_eq!(argvs(&r), [canon]);
        assert_eq!(r[0].action.name(), "journalctl vacuum");
    }
    for s in [
        "journalctl --vacuum-size=0M",
        "journalctl --vacuum-size=-5M",
        "journalctl --vacuum-size=5T",
        "journalctl --vacuum-size=5.5G",
        "journalctl --vacuum-size=M",
        "journalctl --vacuum-size=",
        "journalctl --vacuum-time=10",
        "journalctl --vacuum-time=10years",
        "journalctl --vacuum-files=2",
        "journalctl --vacuum-size=1G --vacuum-time=1d",
        "journalctl --rotate",
        "journalctl -u nginx",
        "journalctl",
        "journalctl --vacuum-size=1G;reboot",
        "journalctl --vacuum-size=1G*",
    ] {
        assert!(check(s).is_err(), "{s}");
    }
}

#[test]
fn compound_requests_become_one_proposal_per_stage() {
    let r = check("systemctl restart nginx && systemctl reload php-fpm ; kill 4242").expect("ok");
    assert_eq!(
        argvs(&r),
        [
            "systemctl restart nginx",
            "systemctl reload php-fpm",
            "kill -TERM 4242"
        ]
    );
    // One string with spaces is tokenised the same way.
    let line = policy()
        .check(
            &ActionRequest::Argv(vec!["systemctl restart nginx&&kill 4242".into()]),
            &procs,
        )
        .expect("line");
    assert_eq!(argvs(&line), ["systemctl restart nginx", "kill -TERM 4242"]);
    for s in [
        "systemctl restart nginx && && kill 4242",
        "&& systemctl restart nginx",
        "systemctl restart nginx |",
    ] {
        assert_eq!(check(s).expect_err(s).code(), "empty", "{s}");
    }
    for line in [
        "systemctl restart \"nginx\"",
        "systemctl restart $UNIT",
        "systemctl restart nginx > /tmp/x",
        "kill $(pidof nginx)",
        "systemctl restart nginx\nreboot",
    ] {
        let e = policy()
            .check(&ActionRequest::Argv(vec![line.into()]), &procs)
            .expect_err(line);
        assert_eq!(e.code(), "injection", "{line}");
    }
    let many = ["systemctl restart a"; MAX_STAGES + 1].join(" ; ");
    assert_eq!(check(&many).expect_err("many").code(), "too_many_stages");
}

fn rotate_cfg() -> ActionsConfig {
    let toml_text = r#"
        [[custom]]
        name = "rotate-logs"
        description = "force a logrotate run for one service"
        argv = ["/usr/sbin/logrotate", "-f", "/etc/logrotate.d/{service}"]
        [custom.params]
        service = { kind = "name" }

        [[custom]]
        name = "scale-workers"
        argv = ["/usr/local/bin/scale", "--unit={unit}", "--count", "{n}", "--mode", "{mode}", "{dir}"]
        risk = "重启工作进程 / restarts workers"
        [custom.params]
        unit = { kind = "unit" }
        n = { kind = "int", min = 1, max = 16 }
        mode = { kind = "enum", values = ["fast", "safe"] }
        dir = { kind = "path", roots = ["/srv/app"] }
    "#;
    toml::from_str(toml_text).expect("toml")
}

fn params(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

#[test]
fn configured_actions_substitute_whole_values_into_one_element() {
    let p = policy_with(&rotate_cfg());
    let r = p
        .check(
            &ActionRequest::Configured {
                name: "rotate-logs".into(),
                params: params(&[("service", "nginx")]),
            },
            &procs,
        )
        .expect("ok");
    assert_eq!(argvs(&r), ["/usr/sbin/logrotate -f /etc/logrotate.d/nginx"]);
    assert_eq!(r[0].action.name(), "rotate-logs");
    assert!(r[0].risk.contains("force a logrotate run"), "{}", r[0].risk);
    let ok = params(&[
        ("unit", "worker@2.service"),
        ("n", "16"),
        ("mode", "safe"),
        ("dir", "/srv/app/releases/42"),
    ]);
    let r = p
        .check(
            &ActionRequest::Configured {
                name: "scale-workers".into(),
                params: ok.clone(),
            },
            &procs,
        )
        .expect("ok");
    assert_eq!(
        r[0].argv,
        [
            "/usr/local/bin/scale",
            "--unit=worker@2.service",
            "--count",
            "16",
            "--mode",
            "safe",
            "/srv/app/releases/42"
        ]
    );
    assert_eq!(
        p.custom()[0].template_text(),
        "/usr/sbin/logrotate -f /etc/logrotate.d/{service}"
    );
    assert!(p.recheck(&r[0], &procs).is_ok());
}

#[test]
fn configured_action_parameters_refuse_injection() {
    let p = policy_with(&rotate_cfg());
    let rotate = |v: &str| {
        p.check(
            &ActionRequest::Configured {
                name: "rotate-logs".into(),
                params: params(&[("service", v)]),
            },
            &procs,
        )
    };
    for bad in [
        "nginx;reboot",
        "nginx && reboot",
        "nginx reboot",
        "--force",
        "-f",
        "../../etc/shadow",
        "..",
        ".hidden",
        "ngin*",
        "a?b",
        "$(id)",
        "`id`",
        "a\nb",
        "a\tb",
        "",
        "nginx/../x",
        "a|b",
        "ngіnx",
        "{service}",
        "a'b",
    ] {
        let e = rotate(bad).expect_err(bad);
        assert_eq!(e.code(), "bad_param", "{bad:?}: {e}");
    }
    let base = [
        ("unit", "worker"),
        ("n", "2"),
        ("mode", "fast"),
        ("dir", "/srv/app/x"),
    ];
    let scale = |k: &str, val: &str| {
        let mut m = params(&base);
        m.insert(k.into(), val.into());
        p.check(
            &ActionRequest::Configured {
                name: "scale-workers".into(),
                params: m,
            },
            &procs,
        )
    };
    assert!(scale("n", "2").is_ok());
    for (k, val) in [
        ("n", "0"),
        ("n", "17"),
        ("n", "-1"),
        ("n", "+3"),
        ("n", "3.5"),
        ("n", "99999999999999999999"),
        ("mode", "FAST"),
        ("mode", "fast,safe"),
        ("dir", "/srv/app"),
        ("dir", "/srv/application"),
        ("dir", "/srv/app/../../etc"),
        ("dir", "srv/app/x"),
        ("dir", "/etc/passwd"),
        ("unit", "--now"),
        ("unit", "a*"),
    ] {
        assert_eq!(
            scale(k, val).expect_err(val).code(),
            "bad_param",
            "{k}={val}"
        );
    }
    // A unit parameter obeys the unit deny rules.
    assert!(scale("unit", "sshd").expect_err("sshd").is_denied());
    // Unknown, missing and extra parameters; unknown actions.
    let mut extra = params(&base);
    extra.insert("shell".into(), "x".into());
    assert!(matches!(
        p.check(
            &ActionRequest::Configured {
                name: "scale-workers".into(),
                params: extra
            },
            &procs
        ),
        Err(ActionError::UnknownParam { .. })
    ));
    assert!(matches!(
        p.check(
            &ActionRequest::Configured {
                name: "scale-workers".into(),
                params: params(&base[..2])
            },
            &procs
        ),
        Err(ActionError::MissingParam { .. })
    ));
    assert_eq!(
        p.check(
            &ActionRequest::Configured {
                name: "nope".into(),
                params: BTreeMap::new()
            },
            &procs
        ),
        Err(ActionError::UnknownAction("nope".into()))
    );
}

#[test]
fn configured_actions_are_validated_at_load() {
    let load = |s: &str| -> Result<ActionPolicy, ActionConfigError> {
        let cfg: ActionsConfig = toml::from_str(s).expect("toml");
        ActionPolicy::new(&cfg, OWN, None)
    };
    type IsError = fn(&ActionConfigError) -> bool;
    let cases: &[(&str, IsError)] = &[
        (
            "[[custom]]\nname='x'\nargv=['logrotate','{f}']\n[custom.params]\nf={kind='name'}",
            |e| matches!(e, ActionConfigError::ProgramNotAbsolute { .. }),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x','{g}']\n[custom.params]\nf={kind='name'}",
            |e| matches!(e, ActionConfigError::UnknownPlaceholder { placeholder, .. } if placeholder == "g"),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x','a']\n[custom.params]\nf={kind='name'}",
            |e| matches!(e, ActionConfigError::UnusedParam { .. }),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x','{f']\n[custom.params]\nf={kind='name'}",
            |e| matches!(e, ActionConfigError::BadTemplate { .. }),
        ),
        ("[[custom]]\nname='x'\nargv=[]", |e| matches!(e, ActionConfigError::EmptyArgv(_))),
        ("[[custom]]\nname='Bad Name'\nargv=['/bin/x']", |e| matches!(e, ActionConfigError::BadName(_))),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x']\n[[custom]]\nname='x'\nargv=['/bin/y']",
            |e| matches!(e, ActionConfigError::Duplicate(_)),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x','{n}']\n[custom.params]\nn={kind='int',min=5,max=1}",
            |e| matches!(e, ActionConfigError::BadParamKind { .. }),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x','{p}']\n[custom.params]\np={kind='path',roots=['rel']}",
            |e| matches!(e, ActionConfigError::BadParamKind { .. }),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/x','{p}']\n[custom.params]\np={kind='enum',values=['a b']}",
            |e| matches!(e, ActionConfigError::BadParamKind { .. }),
        ),
        (
            "[[custom]]\nname='x'\nargv=['/bin/sh','-c','a;b']",
            |e| matches!(e, ActionConfigError::BadLiteral { .. }),
        ),
    ];
    for (text, is) in cases {
        let e = load(text).expect_err(text);
        assert!(is(&e), "{text}: {e:?}");
        assert!(!e.to_string().is_empty());
    }
    let bad_kind: Result<ActionsConfig, _> = toml::from_str(
        "[[custom]]\nname='x'\nargv=['/bin/x','{p}']\n[custom.params]\np={kind='shell'}",
    );
    assert!(bad_kind.is_err());
}

#[test]
fn recheck_catches_a_process_that_changed_since_approval() {
    let r = check("kill 4242").expect("ok");
    let p = policy();
    assert!(p.recheck(&r[0], &procs).is_ok());
    // The pid now belongs to sshd, or is gone.
    let now_sshd = |pid: u32| {
        (pid == 4242).then(|| ProcInfo {
            name: "sshd".into(),
            cmd: None,
        })
    };
    assert!(p.recheck(&r[0], &now_sshd).expect_err("denied").is_denied());
    assert_eq!(
        p.recheck(&r[0], &|_| None),
        Err(ActionError::NoSuchProcess(4242))
    );
    // A tampered proposal (argv not what the grammar gives) is refused.
    let mut forged = r[0].clone();
    forged.argv = v("kill -KILL 4242");
    assert!(p.recheck(&forged, &procs).is_err());
}
