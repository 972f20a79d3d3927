//! Planted configs in every format: the format detected, and the tree each parses to (keys,
//! arguments, values, children, 1-based lines); bad input gives no tree, never a panic.

use super::*;

/// The node at a path of `key` or `key arg` steps (`["http", "upstream pay"]`).
fn at<'a>(t: &'a Tree, path: &[&str]) -> &'a Node {
    let mut level = &t.roots;
    let mut found: Option<&Node> = None;
    for step in path {
        let (key, arg) = step.split_once(' ').unwrap_or((step, ""));
        let n = level
            .iter()
            .find(|n| {
                n.key == key && (arg.is_empty() || n.args.first().map(String::as_str) == Some(arg))
            })
            .unwrap_or_else(|| panic!("no {step:?} in {path:?}:\n{}", dump(t)));
        found = Some(n);
        level = &n.children;
    }
    found.expect("a path has at least one step")
}

fn dump(t: &Tree) -> String {
    t.walk()
        .iter()
        .map(|(d, n)| {
            format!(
                "{}{} {:?} = {:?} @{}-{}\n",
                "  ".repeat(*d),
                n.key,
                n.args,
                n.value,
                n.line,
                n.last_line
            )
        })
        .collect()
}

fn tree(text: &str, name: &str, format: Format) -> Tree {
    let t = parse(text, name).unwrap_or_else(|| panic!("{name} did not parse"));
    assert_eq!(t.format, format, "{name}:\n{}", dump(&t));
    t
}

fn value<'a>(t: &'a Tree, path: &[&str]) -> (&'a str, usize) {
    let n = at(t, path);
    (n.value.as_deref().unwrap_or("<none>"), n.line)
}

#[test]
fn nginx_blocks_with_arguments() {
    let text = "worker_processes 2;\nhttp {\n  upstream api_pool {\n    server 10.9.0.1:80 max_fails=2;\n    server 10.9.0.2:80;\n  }\n  server {\n    location /static/ { root /srv; }\n  }\n}\n";
    let t = tree(text, "site.conf", Format::Brace);
    assert_eq!(value(&t, &["worker_processes"]), ("2", 1));
    let up = at(&t, &["http", "upstream api_pool"]);
    assert_eq!((up.line, up.last_line, up.value.as_deref()), (3, 6, None));
    let servers: Vec<_> = up.children.iter().filter(|c| c.key == "server").collect();
    assert_eq!(servers.len(), 2, "{}", dump(&t));
    assert_eq!(
        (servers[0].args[0].as_str(), servers[0].line),
        ("10.9.0.1:80", 4)
    );
    // `k=v` arguments are read as settings of their directive.
    assert_eq!(
        value(&t, &["http", "upstream api_pool", "server", "max_fails"]),
        ("2", 4)
    );
    assert_eq!(
        value(&t, &["http", "server", "location /static/", "root"]),
        ("/srv", 8)
    );
}

#[test]
fn yaml_maps_lists_and_named_items() {
    let text = "api:\n  timeouts:\n    read: 15s\n    connect: 2s\nworkers:\n  - name: mailer\n    count: 3\n  - name: indexer\n    count: 1\ntags: [a, b]\n";
    let t = tree(text, "svc.yaml", Format::Yaml);
    assert_eq!(value(&t, &["api", "timeouts", "read"]), ("15s", 3));
    assert_eq!(value(&t, &["api", "timeouts", "connect"]), ("2s", 4));
    let workers = at(&t, &["workers"]);
    assert_eq!(workers.children.len(), 2, "{}", dump(&t));
    // A list item that names itself takes the name as its argument.
    assert_eq!(workers.children[1].args, vec!["indexer".to_string()]);
    assert_eq!(workers.children[1].line, 8);
    assert_eq!(workers.last_line, 9);
}

#[test]
fn toml_tables_and_arrays_of_tables() {
    let text = "title = \"shop\"\n\n[database]\nhost = \"db.local\"\nport = 5433\n\n[[worker]]\nqueue = \"mail\"\n\n[[worker]]\nqueue = \"index\"\n";
    let t = tree(text, "app.toml", Format::Toml);
    assert_eq!(value(&t, &["title"]), ("shop", 1));
    assert_eq!(value(&t, &["database", "port"]), ("5433", 5));
    let workers: Vec<_> = t
        .walk()
        .into_iter()
        .filter(|(_, n)| n.key == "queue")
        .collect();
    assert_eq!(workers.len(), 2, "{}", dump(&t));
    assert_eq!(
        (workers[1].1.value.as_deref(), workers[1].1.line),
        (Some("index"), 11)
    );
}

#[test]
fn ini_properties_and_env() {
    let ini = "[server]\nport=8081\n; a comment\n[cache]\nttl = 300\n";
    let t = tree(ini, "app.ini", Format::Ini);
    assert_eq!(value(&t, &["cache", "ttl"]), ("300", 5));
    assert_eq!(value(&t, &["server", "port"]), ("8081", 2));
    let props = "# pool\ndb.pool.max=20\ndb.pool.min=2\nspring.datasource.url=jdbc:postgresql://db:5433/orders\n";
    let t = parse(props, "application.properties").expect("properties parse");
    let max = t
        .walk()
        .into_iter()
        .find(|(_, n)| n.value.as_deref() == Some("20"))
        .map(|(_, n)| n.line);
    assert_eq!(max, Some(2), "{}", dump(&t));
    // A URL value is split into its parts.
    let port = t
        .walk()
        .into_iter()
        .find(|(_, n)| n.key == "port")
        .and_then(|(_, n)| n.value.clone());
    assert_eq!(port.as_deref(), Some("5433"), "{}", dump(&t));
    let env = "export REDIS_HOST=cache\nREDIS_PORT=6380\nLOG_LEVEL=\"debug\"\n";
    let t = tree(env, ".env", Format::Ini);
    assert_eq!(value(&t, &["REDIS_PORT"]), ("6380", 2));
    assert_eq!(value(&t, &["LOG_LEVEL"]), ("debug", 3));
}

#[test]
fn systemd_unit_with_repeated_keys() {
    let text = "[Unit]\nDescription=Orders API\n\n[Service]\nExecStart=/opt/orders/bin/run\nEnvironment=PORT=9000 MODE=prod\nEnvironment=REGION=eu\nRestart=on-failure\nRestartSec=7\n\n[Install]\nWantedBy=multi-user.target\n";
    let t = tree(text, "orders.service", Format::Ini);
    assert_eq!(value(&t, &["Service", "RestartSec"]), ("7", 9));
    let envs: Vec<_> = at(&t, &["Service"])
        .children
        .iter()
        .filter(|c| c.key == "Environment")
        .collect();
    assert_eq!(envs.len(), 2, "repeated keys are kept:\n{}", dump(&t));
    assert_eq!(value(&t, &["Service", "Environment", "PORT"]), ("9000", 6));
}

#[test]
fn json_objects_and_arrays() {
    let text = "{\n  \"server\": {\n    \"port\": 7070,\n    \"tls\": true\n  },\n  \"backends\": [\n    {\"name\": \"a\", \"url\": \"http://a:1\"},\n    {\"name\": \"b\", \"url\": \"http://b:2\"}\n  ]\n}\n";
    let t = tree(text, "cfg.json", Format::Json);
    assert_eq!(value(&t, &["server", "port"]), ("7070", 3));
    assert_eq!(value(&t, &["server", "tls"]), ("true", 4));
    let b = at(&t, &["backends"]);
    assert_eq!(b.children.len(), 2, "{}", dump(&t));
    assert_eq!(
        (b.children[1].args[0].as_str(), b.children[1].line),
        ("b", 8)
    );
}

#[test]
fn haproxy_sections_by_indentation() {
    let text = "global\n    maxconn 4000\n\ndefaults\n    timeout connect 4s\n    timeout server 30s\n\nbackend orders_be\n    balance roundrobin\n    server o1 10.1.0.1:80 check\n    server o2 10.1.0.2:80 check\n    server o3 10.1.0.3:80 check backup\n";
    let t = tree(text, "haproxy.cfg", Format::Directive);
    let be = at(&t, &["backend orders_be"]);
    assert_eq!((be.line, be.last_line), (8, 12));
    assert_eq!(be.children.iter().filter(|c| c.key == "server").count(), 3);
    let timeouts: Vec<_> = at(&t, &["defaults"])
        .children
        .iter()
        .map(|c| (c.args.clone(), c.line))
        .collect();
    assert_eq!(
        timeouts,
        vec![
            (vec!["connect".to_string(), "4s".to_string()], 5),
            (vec!["server".to_string(), "30s".to_string()], 6)
        ]
    );
    assert_eq!(value(&t, &["global", "maxconn"]), ("4000", 2));
}

#[test]
fn apache_sections_and_flat_directives() {
    let text = "Listen 8080\nTimeout 120\n<VirtualHost *:8080>\n    ServerName shop.local\n    <Directory /srv/shop>\n        AllowOverride None\n    </Directory>\n</VirtualHost>\n";
    let t = tree(text, "httpd.conf", Format::Directive);
    assert_eq!(value(&t, &["Timeout"]), ("120", 2));
    let vh = at(&t, &["VirtualHost *:8080"]);
    assert_eq!((vh.line, vh.last_line), (3, 8), "{}", dump(&t));
    assert_eq!(
        value(&t, &["VirtualHost", "Directory /srv/shop", "AllowOverride"]),
        ("None", 6)
    );
    let redis = "bind 127.0.0.1\nport 6380\nmaxmemory 2gb\nmaxmemory-policy allkeys-lru\n";
    let t = tree(redis, "redis.conf", Format::Directive);
    assert_eq!(value(&t, &["maxmemory-policy"]), ("allkeys-lru", 4));
}

#[test]
fn bad_input_gives_no_tree_and_never_panics() {
    assert!(parse("", "x.yaml").is_none());
    assert!(parse(
        "just some prose about the weather.\nnothing else here at all, really.\n",
        "notes"
    )
    .is_none());
    // Unbalanced, truncated or absurdly deep input: read or refused, never a panic.
    let deep = "a {\n".repeat(MAX_DEPTH + 10);
    assert!(parse(&deep, "deep.conf").is_none_or(|t| t.walk().len() <= MAX_DEPTH + 1));
    let deep_json = format!("{}{}", "{\"a\":".repeat(200), "1");
    let _ = parse(&deep_json, "deep.json");
    for text in [
        "http {\n  server {\n",
        "}\n}\n",
        "key: [unclosed\n  - x\n",
        "{\"a\": ",
        "[[[\n",
        "<Tag>\n",
        "\u{feff}\u{0}\u{7f}",
        "a:\n\t- b\n  c: d\n",
        "= = =\n",
        "- \n-\n- - -\n",
    ] {
        let _ = parse(text, "x.conf");
        let _ = parse(text, "x.yaml");
        let _ = parse(text, "x.json");
        let _ = parse(text, "x.toml");
    }
}
