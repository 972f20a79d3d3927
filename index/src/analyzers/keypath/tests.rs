//! Key paths per nesting, with the lines that must stay without one.

use super::*;

fn paths(text: &str, n: Nesting) -> Vec<String> {
    line_paths(text, n)
        .into_iter()
        .flatten()
        .map(|p| p.full())
        .collect()
}

#[test]
fn index_keypath_yaml_nesting_lists_and_block_scalars() {
    let yaml = "\
# app config
spring:
  datasource:
    url: jdbc:postgresql://db:5432/orders   # a comment
    hikari:
      maximum-pool-size: 20
  redis:
    host: redis-01
    timeout: 2s
containers:
  - name: gw
    image: gw:1.2
    resources:
      limits:
        memory: 2Gi
  - name: sidecar  # the log shipper
    image: vector:0.34
  - task: restart the service
  - volumes:
    - mountPath: /etc
annotations:
  description: |
    summary: not a key
    port: 9
  after: 1
'quoted.key': 3
";
    assert_eq!(
        paths(yaml, Nesting::Yaml),
        [
            "spring",
            "spring.datasource",
            "spring.datasource.url",
            "spring.datasource.hikari",
            "spring.datasource.hikari.maximum-pool-size",
            "spring.redis",
            "spring.redis.host",
            "spring.redis.timeout",
            "containers",
            "containers.name",
            "containers.gw.image",
            "containers.gw.resources",
            "containers.gw.resources.limits",
            "containers.gw.resources.limits.memory",
            "containers.name",
            "containers.sidecar.image",
            "containers.task",
            "containers.volumes",
            "containers.volumes.mountPath",
            "annotations",
            "annotations.description",
            "annotations.after",
            "quoted.key",
        ]
    );
    // Line numbers line up with the text's lines.
    let per_line = line_paths(yaml, Nesting::Yaml);
    assert_eq!(per_line.len(), yaml.lines().count());
    assert_eq!(
        per_line[8].as_ref().map(KeyPath::full).as_deref(),
        Some("spring.redis.timeout")
    );
    // Lines 7-12 (1-based): the full paths of the keys under a block (line 10,
    // `containers:`, has none), then the blocks they sit in with `_`, `spring` being
    // inside `spring.redis`.
    assert_eq!(
            chunk_context(&per_line, 7, 12),
            "spring.redis\nspring.redis.host\nspring.redis.timeout\ncontainers.name\ncontainers.gw.image\nspring_redis\ncontainers_gw"
        );
}

#[test]
fn index_keypath_prometheus_jobs_and_rules_name_their_items() {
    let yaml = "\
scrape_configs:
  - job_name: redis
    static_configs:
      - targets: ['10.0.0.20:9121']
  - job_name: 'node'
    scrape_interval: 30s
groups:
  - name: storage
    rules:
      - alert: DiskAlmostFull
        expr: disk_free < 0.1
        for: 10m
      - record: job:errors:rate5m
        expr: sum(rate(errors[5m]))
";
    let got = paths(yaml, Nesting::Yaml);
    for want in [
        "scrape_configs.redis.static_configs.targets",
        "scrape_configs.node.scrape_interval",
        "groups.storage.rules.DiskAlmostFull.expr",
        "groups.storage.rules.DiskAlmostFull.for",
    ] {
        assert!(got.iter().any(|p| p == want), "{want} not in {got:?}");
    }
    // A recording rule is not named (its name has colons).
    assert!(
        got.iter().any(|p| p == "groups.storage.rules.expr"),
        "{got:?}"
    );
}

#[test]
fn index_keypath_sections_of_ini_toml_and_units() {
    let unit = "[Unit]\nDescription=Orders API\n\n[Service]\nExecStart=/usr/bin/java -jar x.jar\nRestart=on-failure\n# Restart=always\n";
    assert_eq!(
        nesting_of("orders-api.service", unit),
        Some(Nesting::Sections)
    );
    assert_eq!(
        paths(unit, Nesting::Sections),
        ["Unit.Description", "Service.ExecStart", "Service.Restart"]
    );
    let toml = "title = \"x\"\n[server.http]\nport = 8080\n[[inputs.cpu]]\npercpu: true\n";
    assert_eq!(
        paths(toml, Nesting::Sections),
        ["server.http.port", "inputs.cpu.percpu"]
    );
    assert_eq!(nesting_of("values.YAML", ""), Some(Nesting::Yaml));
}

#[test]
fn index_keypath_brace_blocks_of_nginx_configs() {
    let conf = "\
user nginx;
http {
    # upstream of the orders API
    upstream orders_api {
        server 10.0.0.1:8080 weight=5;
    }
    server {
        listen 443 ssl;
        location /api/orders/ {
            proxy_read_timeout 20s;   # slow reports
        }
        location /nginx_status { stub_status; }
    }
}
";
    assert_eq!(nesting_of("nginx.conf", conf), Some(Nesting::Braces));
    assert_eq!(nesting_of("default", conf), Some(Nesting::Braces));
    // Source code nests braces too: only config-named files are read this way.
    assert_eq!(nesting_of("main.c", conf), None);
    // What the backfill reads again: config names, not source or logs.
    assert!(may_nest("nginx.conf") && may_nest("default") && may_nest("x.service"));
    assert!(!may_nest("main.c") && !may_nest("app.log") && !may_nest("notes.md"));
    let log = "Nov 29 02:30:01 host cron[1]: job started {\nNov 29 02:30:02 host x: done;\n";
    assert_eq!(nesting_of("syslog", log), None);
    assert_eq!(
        paths(conf, Nesting::Braces),
        [
            "user",
            "http",
            "http.upstream_orders_api",
            "http.upstream_orders_api.server",
            "http.server",
            "http.server.listen",
            "http.server.location_api_orders",
            "http.server.location_api_orders.proxy_read_timeout",
            "http.server.location_nginx_status",
        ]
    );
    // Unbalanced braces never panic; a stray `}` pops nothing.
    let odd = "}\n}\nserver {\nlisten 80;\n";
    assert_eq!(paths(odd, Nesting::Braces), ["server", "server.listen"]);
}

#[test]
fn index_keypath_hcl_blocks() {
    let hcl = r#"// payments job
job "payments" {
  datacenters = ["dc1"]
  group "api" {
    count = 3
    task "server" {
      resources {
        memory = 2048   # MB
      }
      env = {
        TIMEOUT = "20s"
      }
    }
  }
}
"#;
    assert_eq!(nesting_of("payments.nomad", hcl), Some(Nesting::Hcl));
    assert_eq!(nesting_of("main.tf", ""), Some(Nesting::Hcl));
    assert_eq!(
        paths(hcl, Nesting::Hcl),
        [
            "job_payments",
            "job_payments.datacenters",
            "job_payments.group_api",
            "job_payments.group_api.count",
            "job_payments.group_api.task_server",
            "job_payments.group_api.task_server.resources",
            "job_payments.group_api.task_server.resources.memory",
            "job_payments.group_api.task_server.env",
            "job_payments.group_api.task_server.env.TIMEOUT",
        ]
    );
}

#[test]
fn index_keypath_haproxy_sections() {
    let cfg = "\
# haproxy.cfg
global
    maxconn 48000
    stats socket /run/haproxy/admin.sock mode 660

defaults
    timeout client 50s
listen stats
    bind :8404
    stats uri /haproxy-stats
backend be-catalog
    server catalog-01 10.40.10.31:8271 check
";
    assert_eq!(nesting_of("haproxy.cfg", cfg), Some(Nesting::Stanzas));
    assert_eq!(
        paths(cfg, Nesting::Stanzas),
        [
            "global",
            "global.maxconn",
            "global.stats_socket",
            "defaults",
            "defaults.timeout_client",
            "listen_stats",
            "listen_stats.bind",
            "listen_stats.stats_uri",
            "backend_be_catalog",
            "backend_be_catalog.server",
        ]
    );
    // `global` over indented text of another kind is not a section file.
    let prose = "global\n    settings apply everywhere\nlocal\n    settings apply here\n";
    assert_eq!(nesting_of("notes.txt", prose), None);
}

#[test]
fn index_keypath_xml_elements() {
    let xml = r#"<?xml version="1.0"?>
<configuration>
  <!-- rolled daily
       <notAnElement> -->
  <appender name="FILE"
            class="ch.qos.logback.core.rolling.RollingFileAppender">
    <rollingPolicy class="x.SizeAndTimeBasedRollingPolicy">
      <maxFileSize>200MB</maxFileSize>
      <maxHistory>14</maxHistory>
    </rollingPolicy>
  </appender>
  <logger name="com.shop.payments" level="DEBUG"/>
  <root level="INFO"><appender-ref ref="FILE"/></root>
</configuration>
"#;
    assert_eq!(nesting_of("logback.xml", xml), Some(Nesting::Xml));
    assert_eq!(
        nesting_of("web.config", "<configuration/>"),
        Some(Nesting::Xml)
    );
    assert_eq!(
        paths(xml, Nesting::Xml),
        [
            "configuration",
            "configuration.appender_FILE",
            "configuration.appender_FILE.rollingPolicy",
            "configuration.appender_FILE.rollingPolicy.maxFileSize",
            "configuration.appender_FILE.rollingPolicy.maxHistory",
            "configuration.logger_com_shop_payments",
            "configuration.root",
        ]
    );
    let per_line = line_paths(xml, Nesting::Xml);
    assert_eq!(per_line.len(), xml.lines().count());
    assert_eq!(
        per_line[7].as_ref().map(KeyPath::full).as_deref(),
        Some("configuration.appender_FILE.rollingPolicy.maxFileSize")
    );
    // Broken XML: unmatched end tags, an unterminated tag, `<` in text.
    let odd = "</a>\n<b>\n  <c x=\"1 < 2\">v</c>\n</z>\n<d";
    assert_eq!(paths(odd, Nesting::Xml), ["b", "b.c", "b.d"]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any text in any nesting: no panic, one entry per line, every chunk's context
    /// built.
    #[test]
    fn index_keypath_any_text(s in "[ a-z0-9_:.\\-{};#\\[\\]=<>/!?\"'|\n\t数据]{0,600}") {
        for n in [Nesting::Yaml, Nesting::Sections, Nesting::Braces, Nesting::Xml, Nesting::Hcl] {
            let p = line_paths(&s, n);
            proptest::prop_assert_eq!(p.len(), s.lines().count());
            let _ = chunk_context(&p, 1, p.len());
        }
        let _ = nesting_of("x.conf", &s);
    }
}

#[test]
fn index_keypath_leaves_other_text_alone() {
    // Markdown links, logs with bracketed levels, prose and code have no key paths.
    assert_eq!(nesting_of("notes.md", "[Service]\nRestart=always\n"), None);
    let log = "[INFO]\n2026-11-20 02:30:01 backup started\n[x for x in y]\n";
    assert_eq!(nesting_of("backup.log", log), None);
    assert_eq!(nesting_of("redis.conf", "maxmemory 6gb\nport 6379\n"), None);
    // Hostile YAML: deep dashes, tabs, a colon in a value, keys too long.
    let odd = format!(
        "- - - a: 1\n\tb: 2\nurl: http://x:80\n{}: 1\n",
        "k".repeat(200)
    );
    let p = paths(&odd, Nesting::Yaml);
    assert_eq!(p, ["a", "url"]);
    // Nesting 2,000 deep: each path names its nearest 6 ancestors.
    let deep: String = (0..2000)
        .map(|i| format!("{}k{i}:\n", " ".repeat(i)))
        .collect();
    let p = paths(&deep, Nesting::Yaml);
    assert_eq!(p.len(), 2000);
    assert_eq!(p[1999], "k1993.k1994.k1995.k1996.k1997.k1998.k1999");
    assert!(chunk_context(&line_paths(&odd, Nesting::Yaml), 1, 99).is_empty());
}
