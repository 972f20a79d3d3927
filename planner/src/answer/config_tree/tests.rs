//! Planted configs in every format, asked in English and Chinese: the value of the key
//! asked for (never a near key), did-you-mean, children counted and listed, with lines.

use super::*;

fn ask(name: &str, content: &str, question: &str) -> String {
    let lang = Lang::detect(question);
    answer(&[ConfigText { name, content }], question, lang)
        .unwrap_or_else(|| panic!("no answer for {question:?}"))
}

const GATEWAY: &str = "# edge gateway
payment-gateway:
  base-url: https://pay.internal:8443/v2
  connect-timeout-ms: 2000
  retries: 3
inventory:
  base-url: http://inv.internal:9100
  connect-timeout-ms: 500
  read-timeout-ms: 3000
services:
  orders:
    image: shop/orders:1.4
    replicas: 4
    resources:
      limits:
        memory: 768Mi
      requests:
        memory: 256Mi
  carts:
    image: shop/carts:2.0
    replicas: 2
";

#[test]
fn the_key_asked_for_never_a_near_one() {
    let a = ask("gateway.yaml", GATEWAY, "read timeout of inventory?");
    assert!(
        a.starts_with("`read-timeout-ms = 3000` — gateway.yaml:9, in `inventory`"),
        "{a}"
    );
    let a = ask("gateway.yaml", GATEWAY, "inventory 的读超时是多少");
    assert!(
        a.starts_with("`read-timeout-ms = 3000` — gateway.yaml 第 9 行，位于 `inventory`"),
        "{a}"
    );
    let a = ask(
        "gateway.yaml",
        GATEWAY,
        "connect timeout for the payment gateway",
    );
    assert!(
        a.starts_with("`connect-timeout-ms = 2000` — gateway.yaml:4"),
        "{a}"
    );
    // Limits, not requests; the service named, not the other one.
    let a = ask("gateway.yaml", GATEWAY, "orders 容器的内存限制");
    assert!(
        a.starts_with(
            "`memory = 768Mi` — gateway.yaml 第 16 行，位于 `services.orders.resources.limits`"
        ),
        "{a}"
    );
    let a = ask("gateway.yaml", GATEWAY, "memory request of carts");
    assert!(a.starts_with("No setting in gateway.yaml"), "{a}");
}

#[test]
fn a_near_key_is_offered_as_did_you_mean() {
    let a = ask(
        "gateway.yaml",
        GATEWAY,
        "what's the read timeout of the payment gateway?",
    );
    assert!(
        a.starts_with("No setting in gateway.yaml matches \"read timeout of the payment gateway\" exactly. Did you mean:"),
        "{a}"
    );
    assert!(
        a.contains(
            "\n- `connect-timeout-ms = 2000` — gateway.yaml:4, in `payment-gateway` (no \"read\")"
        ),
        "{a}"
    );
    assert!(
        a.contains("`read-timeout-ms = 3000` — gateway.yaml:9, in `inventory` (no \"payment\")"),
        "{a}"
    );
    let a = ask("gateway.yaml", GATEWAY, "支付网关的读超时是多少");
    assert!(
        a.starts_with("gateway.yaml 中没有与“支付网关的读超时”完全对应的配置项"),
        "{a}"
    );
    assert!(a.contains("- `connect-timeout-ms = 2000` — gateway.yaml 第 4 行，位于 `payment-gateway`（没有“读超时”）"), "{a}");
}

#[test]
fn counts_and_lists_of_a_keyed_block() {
    let a = ask("gateway.yaml", GATEWAY, "which services are defined?");
    assert!(
        a.starts_with("**2** `services` in gateway.yaml:") || a.contains("**2**"),
        "{a}"
    );
    assert!(a.contains("`orders") && a.contains("`carts"), "{a}");
    // One number asked as "how many": the value.
    let a = ask("gateway.yaml", GATEWAY, "how many replicas does carts run");
    assert!(a.starts_with("`replicas = 2` — gateway.yaml:21"), "{a}");
}

const NGINX: &str = "worker_processes 4;
events { worker_connections 2048; }
http {
    upstream payment_backend {
        least_conn;
        server 10.0.1.11:8080 weight=3;
        server 10.0.1.12:8080;
        server 10.0.1.13:8080 backup;
    }
    upstream search_backend {
        server 10.0.2.21:9200;
        server 10.0.2.22:9200;
    }
    server {
        listen 443 ssl;
        server_name shop.example.com;
        proxy_connect_timeout 5s;
        proxy_read_timeout 45s;
        location /api/pay/ {
            proxy_pass http://payment_backend;
            proxy_read_timeout 90s;
        }
        location /search/ {
            proxy_pass http://search_backend;
        }
        location / {
            root /srv/www;
        }
    }
}
";

#[test]
fn nginx_upstream_backends_are_counted() {
    let a = ask(
        "shop.conf",
        NGINX,
        "how many backends in upstream payment_backend?",
    );
    assert!(
        a.starts_with("**3** `server` in `http › upstream payment_backend` (shop.conf lines 4–9):"),
        "{a}"
    );
    for (ip, line) in [
        ("10.0.1.11:8080 weight=3", 6),
        ("10.0.1.12:8080", 7),
        ("10.0.1.13:8080 backup", 8),
    ] {
        assert!(a.contains(&format!("- `server {ip}` (line {line})")), "{a}");
    }
    assert!(!a.contains("10.0.2.21"), "{a}");
    let a = ask("shop.conf", NGINX, "upstream search_backend 有几个后端");
    assert!(
        a.starts_with(
            "`http › upstream search_backend` 中共有 **2** 个 `server`（shop.conf 第 10–13 行）"
        ),
        "{a}"
    );
    let a = ask("shop.conf", NGINX, "list the locations");
    assert!(a.starts_with("**3** `location` in `http › server`"), "{a}");
    assert!(
        a.contains("`location /api/pay/` (line 19)") && a.contains("`location /` (line 26)"),
        "{a}"
    );
    let a = ask("shop.conf", NGINX, "which upstreams are defined");
    assert!(a.starts_with("**2** `upstream` in `http`"), "{a}");
    assert!(
        a.contains("upstream payment_backend") && a.contains("upstream search_backend"),
        "{a}"
    );
}

#[test]
fn nginx_values_by_block() {
    let a = ask("shop.conf", NGINX, "proxy read timeout for /api/pay/");
    assert!(
        a.starts_with(
            "`proxy_read_timeout = 90s` — shop.conf:21, in `http › server › location /api/pay/`"
        ),
        "{a}"
    );
    let a = ask("shop.conf", NGINX, "how many worker processes?");
    assert!(a.starts_with("`worker_processes = 4` — shop.conf:1"), "{a}");
    let a = ask("shop.conf", NGINX, "what's the send timeout");
    assert!(
        a.starts_with("No setting in shop.conf matches \"send timeout\" exactly"),
        "{a}"
    );
    // Both proxy read timeouts tie when no block is named.
    let a = ask("shop.conf", NGINX, "proxy_read_timeout?");
    assert!(
        a.starts_with("2 settings match \"proxy_read_timeout\":"),
        "{a}"
    );
    assert!(a.contains("45s") && a.contains("90s"), "{a}");
}

/// The value asked for in each remaining format, in English and Chinese, with its line.
#[test]
fn values_in_every_format() {
    let haproxy = "global\n    maxconn 4000\ndefaults\n    timeout connect 4s\n    timeout server 30s\n    timeout client 25s\nbackend orders_be\n    balance roundrobin\n    server o1 10.1.0.1:80 check\n    server o2 10.1.0.2:80 check\n";
    let systemd = "[Unit]\nDescription=Orders API\n[Service]\nExecStart=/opt/orders/bin/run\nRestart=on-failure\nRestartSec=7\nTimeoutStopSec=20\n";
    let toml = "[server]\nport = 8080\nread_timeout = \"12s\"\nwrite_timeout = \"9s\"\n[database]\nmax_connections = 40\n";
    let ini = "[mysqld]\nport=3307\nmax_connections=250\nwait_timeout=600\n[client]\nport=3308\n";
    let env = "DB_HOST=db\nDB_PORT=5433\nHTTP_READ_TIMEOUT=30\nHTTP_CONNECT_TIMEOUT=4\n";
    let props = "server.port=9090\nspring.datasource.hikari.maximum-pool-size=16\nspring.datasource.hikari.connection-timeout=2500\n";
    let json = "{\n  \"gateway\": {\n    \"timeouts\": {\n      \"connect\": 1500,\n      \"read\": 8000\n    }\n  }\n}\n";
    let mut bad = Vec::new();
    let apache = "Listen 8080\nTimeout 120\nKeepAliveTimeout 5\n<VirtualHost *:8080>\n    ServerName shop.local\n</VirtualHost>\n";
    for (name, text, question, lead) in [
        (
            "haproxy.cfg",
            haproxy,
            "server timeout?",
            "`timeout server = 30s` — haproxy.cfg:5, in `defaults`",
        ),
        (
            "haproxy.cfg",
            haproxy,
            "haproxy 的连接超时",
            "`timeout connect = 4s` — haproxy.cfg 第 4 行，位于 `defaults`",
        ),
        (
            "orders.service",
            systemd,
            "restart delay",
            "`RestartSec = 7` — orders.service:6",
        ),
        (
            "orders.service",
            systemd,
            "停止超时是多少",
            "`TimeoutStopSec = 20` — orders.service 第 7 行",
        ),
        (
            "app.toml",
            toml,
            "server read timeout",
            "`read_timeout = 12s` — app.toml:3",
        ),
        (
            "app.toml",
            toml,
            "数据库最大连接数",
            "`max_connections = 40` — app.toml 第 6 行",
        ),
        ("my.ini", ini, "mysqld port", "`port = 3307` — my.ini:2"),
        (
            "my.ini",
            ini,
            "client 的端口",
            "`port = 3308` — my.ini 第 6 行",
        ),
        (
            ".env",
            env,
            "http read timeout",
            "`HTTP_READ_TIMEOUT = 30` — .env:3",
        ),
        (
            "app.properties",
            props,
            "hikari connection timeout",
            "`spring.datasource.hikari.connection-timeout = 2500` — app.properties:3",
        ),
        (
            "gw.json",
            json,
            "gateway read timeout",
            "`read = 8000` — gw.json:5",
        ),
        (
            "httpd.conf",
            apache,
            "keepalive timeout",
            "`KeepAliveTimeout = 5` — httpd.conf:3",
        ),
    ] {
        let a = ask(name, text, question);
        if !a.starts_with(lead) {
            bad.push(format!("{name}: {question}\n{a}"));
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n\n"));
}

/// Children of a HAProxy backend and of a YAML list, counted with their lines.
#[test]
fn children_in_haproxy_and_yaml_lists() {
    let haproxy = "defaults\n    timeout connect 4s\nbackend orders_be\n    balance roundrobin\n    server o1 10.1.0.1:80 check\n    server o2 10.1.0.2:80 check\n    server o3 10.1.0.3:80 check backup\nbackend search_be\n    server s1 10.2.0.1:9200 check\n";
    let a = ask(
        "haproxy.cfg",
        haproxy,
        "how many servers in backend orders_be",
    );
    assert!(a.contains("**3**") && a.contains("(line 7)"), "{a}");
    assert!(!a.contains("10.2.0.1"), "{a}");
    let a = ask("haproxy.cfg", haproxy, "backend search_be 有几个后端");
    assert!(a.contains("**1**") && a.contains("10.2.0.1:9200"), "{a}");
    let pool = "pool:\n  size: 3\n  workers:\n    - name: w1\n      queue: mail\n    - name: w2\n      queue: mail\n    - name: w3\n      queue: index\n";
    let a = ask("pool.yaml", pool, "how many workers does the pool have");
    assert!(a.contains("**3**"), "{a}");
    assert!(a.contains("`w1") && a.contains("`w3"), "{a}");
}
