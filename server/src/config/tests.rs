//! Configuration tests: precedence of flag, env, file and default, validation errors.

use super::*;

#[test]
fn analyze_max_bytes_default_file_and_flag() {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(&p, "analyze_max_bytes = 4096\n").expect("write");
    let c = Config::resolve(Cli {
        config: Some(p.clone()),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.analyze_max_bytes, 4096);
    let c = Config::resolve(Cli {
        config: Some(p.clone()),
        analyze_max_bytes: Some(8192),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.analyze_max_bytes, 8192);
    std::fs::write(&p, "").expect("write");
    let c = Config::resolve(Cli {
        config: Some(p.clone()),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.analyze_max_bytes, 1 << 30);
    let zero = Config::resolve(Cli {
        config: Some(p),
        analyze_max_bytes: Some(0),
        ..Default::default()
    });
    assert!(zero.is_err());
}

#[test]
fn flags_beat_file_beat_defaults() {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(
        &p,
        "listen = \"127.0.0.1:7000\"\nmax_connections = 5\nlog_level = \"debug\"\n",
    )
    .expect("write");
    let cli = Cli {
        config: Some(p),
        max_connections: Some(9),
        ..Default::default()
    };
    let c = Config::resolve(cli).expect("valid");
    assert_eq!(c.listen.port(), 7000);
    assert_eq!(c.max_connections, 9);
    assert_eq!(c.log_level, "debug");
    assert_eq!(c.heartbeat_secs, 90);
    assert_eq!(c.idle_timeout_secs, 180);
}

#[test]
fn index_embedder_default_model_dir_and_per_file() {
    let d = tempfile::tempdir().expect("tempdir");
    let c = Config::resolve(Cli::default()).expect("valid");
    assert_eq!(c.index.embedder, "e5");
    assert!(c.model_dir().ends_with("models/multilingual-e5-small-q4"));
    assert_eq!(c.index.per_file, 3);
    let p = d.path().join("s.toml");
    std::fs::write(
        &p,
        "embedder = \"openai\"\nsearch_per_file = 5\nembedding_input_type = true\n",
    )
    .expect("write");
    let cli = Cli {
        config: Some(p.clone()),
        ..Default::default()
    };
    let c = Config::resolve(cli).expect("valid");
    assert_eq!(c.index.embedder, "openai");
    assert_eq!(c.index.per_file, 5);
    assert!(c.index.embedding_input_type);
    for bad in [Some(0), Some(101)] {
        let cli = Cli {
            search_per_file: bad,
            ..Default::default()
        };
        assert!(Config::resolve(cli).is_err(), "{bad:?}");
    }
}

#[test]
fn public_listen_needs_a_token() {
    let cli = Cli {
        listen: Some("0.0.0.0:9999".parse().expect("addr")),
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    };
    assert!(matches!(
        Config::resolve(cli),
        Err(ConfigError::TokenRequired {
            flag: "--listen",
            ..
        })
    ));
    let cli = Cli {
        listen: Some("0.0.0.0:9999".parse().expect("addr")),
        auth_token: vec!["s3cret-0123456789".into()],
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    };
    assert!(Config::resolve(cli).is_ok());
}

#[test]
fn http_and_rdt_beyond_loopback_need_a_token_too() {
    let any: SocketAddr = "0.0.0.0:0".parse().expect("addr");
    for (flag, cli) in [
        (
            "--http-listen",
            Cli {
                http_listen: Some(any),
                ..Default::default()
            },
        ),
        (
            "--rdt-listen",
            Cli {
                rdt_listen: Some(any),
                ..Default::default()
            },
        ),
    ] {
        let cli = Cli {
            config: Some(PathBuf::from("/dev/null")),
            ..cli
        };
        match Config::resolve(cli) {
            Err(e @ ConfigError::TokenRequired { flag: f, .. }) => {
                assert_eq!(f, flag);
                assert!(e.to_string().starts_with(&format!("{flag} 0.0.0.0:0 ")));
            }
            other => panic!("{flag}: expected TokenRequired, got {other:?}"),
        }
    }
    let cli = Cli {
        http_listen: Some(any),
        rdt_listen: Some(any),
        auth_token: vec!["0123456789abcdef".into()],
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    };
    assert!(Config::resolve(cli).is_ok());
}

#[test]
fn weak_tokens_are_refused_with_the_rule() {
    for (token, strong) in [("   ", 0), ("s3cret", 6), ("abc def ghi jkl mn", 14)] {
        let cli = Cli {
            auth_token: vec![token.into()],
            config: Some(PathBuf::from("/dev/null")),
            ..Default::default()
        };
        match Config::resolve(cli) {
            Err(e @ ConfigError::WeakToken(n)) => {
                assert_eq!(n, strong, "{token:?}");
                assert!(e.to_string().contains("at least 16 non-space characters"));
            }
            other => panic!("{token:?}: expected WeakToken, got {other:?}"),
        }
    }
    // A file token is held to the same rule; 16 non-space characters pass.
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(&p, "auth_token = \"   \"\nlisten = \"0.0.0.0:9999\"\n").expect("write");
    assert!(matches!(
        Config::resolve(Cli {
            config: Some(p),
            ..Default::default()
        }),
        Err(ConfigError::WeakToken(0))
    ));
    let cli = Cli {
        auth_token: vec!["0123456789abcdef".into()],
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    };
    assert!(Config::resolve(cli).is_ok());
}

#[test]
fn named_tokens_from_flags_or_the_file_and_their_owners() {
    let cli = Cli {
        auth_token: vec![
            "alice=a1b2c3d4e5f6a7b8".into(),
            "bob=b9c8d7e6f5a4b3c2".into(),
        ],
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    };
    let c = Config::resolve(cli).expect("valid");
    assert!(c.token_required());
    assert_eq!(
        c.owner_for(Some("b9c8d7e6f5a4b3c2")),
        Some(Owner::named("bob"))
    );
    assert_eq!(c.owner_for(Some("wrong")), None);
    assert_eq!(c.owner_for(None), None);
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(
        &p,
        "auth_tokens = { alice = \"a1b2c3d4e5f6a7b8\", bob = \"short\" }\n",
    )
    .expect("write");
    match Config::resolve(Cli {
        config: Some(p.clone()),
        ..Default::default()
    }) {
        Err(ConfigError::WeakNamedToken { name, chars }) => {
            assert_eq!((name.as_str(), chars), ("bob", 5))
        }
        other => panic!("expected WeakNamedToken, got {other:?}"),
    }
    std::fs::write(
        &p,
        "auth_tokens = { alice = \"a1b2c3d4e5f6a7b8\" }\nshared_sessions = true\n",
    )
    .expect("write");
    let c = Config::resolve(Cli {
        config: Some(p),
        ..Default::default()
    })
    .expect("valid");
    // Shared: the token still admits, every session is the unnamed owner's.
    assert_eq!(
        c.owner_for(Some("a1b2c3d4e5f6a7b8")),
        Some(Owner::unnamed())
    );
    assert_eq!(c.owner_for(Some("x")), None);
    // No token configured: everyone is the unnamed owner.
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    })
    .expect("valid");
    assert!(!c.token_required());
    assert_eq!(c.owner_for(None), Some(Owner::unnamed()));
}

#[test]
fn llm_table_and_flags() {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(
        &p,
        "[llm]\nprovider = \"ollama\"\nmodel = \"llama3.1\"\ntool_calling = false\n",
    )
    .expect("write");
    let c = Config::resolve(Cli {
        config: Some(p.clone()),
        ..Default::default()
    })
    .expect("valid");
    let llm = c.llm.expect("configured");
    assert_eq!(llm.provider, "ollama");
    assert_eq!(llm.default_model, "llama3.1");
    assert!(!llm.tool_calling);
    // The flag wins over the file; `offline` turns the LLM off.
    let c = Config::resolve(Cli {
        config: Some(p),
        llm_provider: Some("offline".into()),
        ..Default::default()
    })
    .expect("valid");
    assert!(c.llm.is_none());
    std::fs::write(d.path().join("bad.toml"), "[llm]\nprovder = \"x\"\n").expect("write");
    let err = Config::resolve(Cli {
        config: Some(d.path().join("bad.toml")),
        ..Default::default()
    })
    .expect_err("typo");
    assert!(err.to_string().contains("provder"));
}

#[test]
fn follow_limits_flag_file_default() {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(&p, "follow_max_secs = 120\nfollow_keep_lines = 50\n").expect("write");
    let c = Config::resolve(Cli {
        config: Some(p.clone()),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.follow_limits().max.as_secs(), 120);
    assert_eq!(c.follow_limits().keep_lines, 50);
    let c = Config::resolve(Cli {
        config: Some(p),
        follow_max_secs: Some(30),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.follow_max_secs, 30);
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!((c.follow_max_secs, c.follow_keep_lines), (600, 200));
    let e = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        follow_max_secs: Some(0),
        ..Default::default()
    })
    .expect_err("zero");
    assert!(e.to_string().contains("follow_max_secs"));
}

#[test]
fn path_policy_table() {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(
        &p,
        "allow_paths = [\"/srv/app\"]\n[path_policy]\nroots = [\"/var/log\"]\n\
         extra_deny = [\"*/*.bak\"]\nexceptions = [\"/proc/loadavg\"]\n",
    )
    .expect("write");
    let c = Config::resolve(Cli {
        config: Some(p),
        ..Default::default()
    })
    .expect("valid");
    let pc = c.path_policy_config(&[]);
    assert_eq!(
        pc.allow,
        vec![
            c.uploads_dir(),
            PathBuf::from("/var/log"),
            PathBuf::from("/srv/app")
        ]
    );
    assert_eq!(pc.exceptions, vec!["/proc/loadavg".to_string()]);
    assert_eq!(pc.deny.last().map(String::as_str), Some("*/*.bak"));
    assert!(pc.deny.iter().any(|d| d == "/etc/shadow"));
    // Without the table: the defaults, /etc included.
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    })
    .expect("valid");
    assert!(c
        .path_policy_config(&[])
        .allow
        .contains(&PathBuf::from("/etc")));
    std::fs::write(d.path().join("bad.toml"), "[path_policy]\nexception = []\n").expect("write");
    let err = Config::resolve(Cli {
        config: Some(d.path().join("bad.toml")),
        ..Default::default()
    })
    .expect_err("typo");
    assert!(err.to_string().contains("exception"), "{err}");
}

#[test]
fn unknown_file_keys_are_reported() {
    let d = tempfile::tempdir().expect("tempdir");
    let p = d.path().join("s.toml");
    std::fs::write(&p, "lisen = \"x\"\n").expect("write");
    let err = Config::resolve(Cli {
        config: Some(p),
        ..Default::default()
    })
    .expect_err("typo");
    assert!(err.to_string().contains("lisen"));
}

#[test]
fn the_socket_path_comes_from_the_flag_then_systemd_then_the_users_runtime_dir() {
    use std::ffi::OsString;
    let env = |vars: &'static [(&'static str, &'static str)]| {
        move |k: &str| {
            vars.iter()
                .find(|(n, _)| *n == k)
                .map(|(_, v)| OsString::from(v))
        }
    };
    let both = env(&[
        ("RUNTIME_DIRECTORY", "/run/llmops:/run/other"),
        ("XDG_RUNTIME_DIR", "/run/user/1000"),
    ]);
    assert_eq!(
        super::socket_path(None, &both),
        Some(PathBuf::from("/run/llmops/llmops.sock"))
    );
    let user = env(&[("XDG_RUNTIME_DIR", "/run/user/1000")]);
    assert_eq!(
        super::socket_path(None, &user),
        Some(PathBuf::from("/run/user/1000/llmops.sock"))
    );
    assert_eq!(super::socket_path(None, &env(&[])), None);
    // A relative runtime dir is ignored (it would depend on the working directory).
    assert_eq!(
        super::socket_path(None, &env(&[("XDG_RUNTIME_DIR", "run")])),
        None
    );
    assert_eq!(
        super::socket_path(Some(PathBuf::from("/tmp/x.sock")), &both),
        Some(PathBuf::from("/tmp/x.sock"))
    );
    assert_eq!(super::socket_path(Some(PathBuf::from("none")), &both), None);
}

#[test]
fn upload_guards_have_defaults_and_refuse_zero() {
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.upload_guard, super::UploadGuard::default());
    assert_eq!(c.upload_guard.stall, std::time::Duration::from_secs(60));
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        upload_stall_secs: Some(5),
        upload_temp_per_client_mib: Some(64),
        ..Default::default()
    })
    .expect("valid");
    assert_eq!(c.upload_guard.stall, std::time::Duration::from_secs(5));
    assert_eq!(c.upload_guard.temp_per_client, 64 << 20);
    let bad = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        upload_temp_budget_mib: Some(0),
        ..Default::default()
    });
    assert!(matches!(bad, Err(ConfigError::Invalid(_))), "{bad:?}");
}

#[test]
fn a_missing_group_is_an_error_not_an_open_door() {
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        approvers_group: Some("no-such-group-llmops-test".into()),
        ..Default::default()
    })
    .expect("valid");
    let e = c.local_access().expect_err("missing group");
    assert!(e.to_string().contains("no-such-group-llmops-test"), "{e}");
    let c = Config::resolve(Cli {
        config: Some(PathBuf::from("/dev/null")),
        operators_group: Some("root".into()),
        ..Default::default()
    })
    .expect("valid");
    let a = c.local_access().expect("root group exists");
    assert_eq!(a.operators.map(|g| g.gid), Some(0));
}
