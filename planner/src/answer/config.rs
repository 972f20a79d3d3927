//! Config files flattened to `key.path = value` pairs (YAML-ish indentation, JSON, TOML/INI,
//! nginx-style blocks, KEY=VALUE), and the pairs a question asks about.

use super::super::slots::{extension, stem};
use super::super::text::{ascii_words, Lang};

/// One leaf setting.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Setting {
    pub path: String,
    pub value: String,
}

fn push(out: &mut Vec<Setting>, path: String, value: &str) {
    let v = value
        .trim()
        .trim_matches('"')
        .trim_matches('\'')
        .to_string();
    out.push(Setting { path, value: v });
}

fn flatten_json(v: &serde_json::Value, prefix: &str, out: &mut Vec<Setting>) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m {
                let p = if prefix.is_empty() {
                    k.clone()
                } else {
                    format!("{prefix}.{k}")
                };
                flatten_json(x, &p, out);
            }
        }
        serde_json::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten_json(x, &format!("{prefix}[{i}]"), out);
            }
        }
        serde_json::Value::String(s) => push(out, prefix.to_string(), s),
        other => push(out, prefix.to_string(), &other.to_string()),
    }
}

fn flatten_toml(v: &toml::Value, prefix: &str, out: &mut Vec<Setting>) {
    let join = |k: &str| {
        if prefix.is_empty() {
            k.to_string()
        } else {
            format!("{prefix}.{k}")
        }
    };
    match v {
        toml::Value::Table(t) => {
            for (k, x) in t {
                flatten_toml(x, &join(k), out);
            }
        }
        toml::Value::Array(a) => {
            for (i, x) in a.iter().enumerate() {
                flatten_toml(x, &format!("{prefix}[{i}]"), out);
            }
        }
        toml::Value::String(s) => push(out, prefix.to_string(), s),
        other => push(out, prefix.to_string(), &other.to_string()),
    }
}

fn strip_comment(line: &str) -> &str {
    // A `#` after whitespace (or at the start) starts a comment in YAML/TOML/INI/nginx.
    let bytes = line.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        if (*b == b'#' || *b == b';') && (i == 0 || bytes[i - 1] == b' ' || bytes[i - 1] == b'\t') {
            if *b == b';' && i > 0 {
                continue;
            }
            return &line[..i];
        }
    }
    line
}

fn flatten_yaml(content: &str, out: &mut Vec<Setting>) {
    let mut stack: Vec<(usize, String)> = Vec::new();
    for raw in content.lines() {
        let line = strip_comment(raw);
        if line.trim().is_empty() || line.trim_start().starts_with("---") {
            continue;
        }
        let mut indent = line.len() - line.trim_start().len();
        let mut body = line.trim();
        if let Some(rest) = body.strip_prefix("- ") {
            indent += 2;
            body = rest.trim();
        }
        let Some(colon) = body.find(':') else {
            continue;
        };
        let (key, value) = (body[..colon].trim(), body[colon + 1..].trim());
        if key.is_empty() || key.contains(' ') && key.len() > 40 {
            continue;
        }
        while stack.last().is_some_and(|(i, _)| *i >= indent) {
            stack.pop();
        }
        let path = stack
            .iter()
            .map(|(_, k)| k.as_str())
            .chain(std::iter::once(key))
            .collect::<Vec<_>>()
            .join(".");
        if value.is_empty() {
            stack.push((indent, key.to_string()));
        } else {
            push(out, path, value);
        }
    }
}

fn flatten_ini(content: &str, out: &mut Vec<Setting>) {
    let mut section = String::new();
    for raw in content.lines() {
        let line = strip_comment(raw).trim();
        if line.starts_with('[') && line.ends_with(']') {
            section = line
                .trim_matches(|c| c == '[' || c == ']')
                .trim()
                .to_string();
            continue;
        }
        let Some(eq) = line.find('=').or_else(|| line.find(':')) else {
            continue;
        };
        let key = line[..eq].trim().trim_start_matches("export ").trim();
        if key.is_empty() {
            continue;
        }
        let path = if section.is_empty() {
            key.to_string()
        } else {
            format!("{section}.{key}")
        };
        push(out, path, &line[eq + 1..]);
    }
}

fn flatten_nginx(content: &str, out: &mut Vec<Setting>) {
    let mut stack: Vec<String> = Vec::new();
    for raw in content.lines() {
        let line = strip_comment(raw).trim();
        if line.is_empty() {
            continue;
        }
        for part in line.split_inclusive(['{', '}', ';']) {
            let part = part.trim();
            if let Some(head) = part.strip_suffix('{') {
                let name = head.split_whitespace().collect::<Vec<_>>().join(" ");
                stack.push(name);
            } else if part == "}" {
                stack.pop();
            } else if let Some(stmt) = part.strip_suffix(';') {
                let mut it = stmt.splitn(2, char::is_whitespace);
                let key = it.next().unwrap_or("").trim();
                let value = it.next().unwrap_or("").trim();
                if key.is_empty() {
                    continue;
                }
                let mut path: Vec<&str> = stack.iter().map(|s| s.as_str()).collect();
                path.push(key);
                push(out, path.join("."), value);
            }
        }
    }
}

/// Flattens a config file's text by its file name.
pub fn flatten(content: &str, filename: &str) -> Vec<Setting> {
    let mut out = Vec::new();
    let ext = extension(filename);
    match ext.as_str() {
        "json" => {
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(content) {
                flatten_json(&v, "", &mut out);
            }
        }
        // A real TOML parser for nested tables, inline tables and arrays; a file it cannot
        // parse (a fragment, a template) still gets the line-based reading.
        "toml" => match content.parse::<toml::Table>() {
            Ok(t) => flatten_toml(&toml::Value::Table(t), "", &mut out),
            Err(_) => flatten_ini(content, &mut out),
        },
        "ini" | "cfg" | "cnf" | "properties" | "env" => flatten_ini(content, &mut out),
        "conf" if content.contains('{') => flatten_nginx(content, &mut out),
        "conf" => flatten_ini(content, &mut out),
        _ => flatten_yaml(content, &mut out),
    }
    let urls: Vec<Setting> = out.iter().flat_map(url_parts).collect();
    out.extend(urls);
    out
}

/// The parts of a URL-valued setting as settings of their own, so a question about a port
/// finds the port inside `jdbc:postgresql://db:5433/orders` (`….port = 5433`). Credentials
/// in the URL are never split out.
fn url_parts(s: &Setting) -> Vec<Setting> {
    static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let r = R.get_or_init(|| {
        regex::Regex::new(
            r"^(?:jdbc:)?([A-Za-z][A-Za-z0-9+.\-]*)://(?:([^:@/\s]*)(?::[^@/\s]*)?@)?(\[[^\]]+\]|[^:/?#\s,@]+)(?::(\d{1,5}))?(?:/([^?#\s]*))?",
        )
        .expect("url regex literal is valid")
    });
    let Some(c) = r.captures(s.value.trim()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut add = |k: &str, v: Option<regex::Match>| {
        if let Some(v) = v.map(|m| m.as_str()).filter(|v| !v.is_empty()) {
            out.push(Setting {
                path: format!("{}.{k}", s.path),
                value: v.to_string(),
            });
        }
    };
    add("scheme", c.get(1));
    add("user", c.get(2));
    add("host", c.get(3));
    add("port", c.get(4));
    add("database", c.get(5));
    out
}

pub fn is_config_name(filename: &str) -> bool {
    matches!(
        extension(filename).as_str(),
        "yaml" | "yml" | "json" | "toml" | "ini" | "cfg" | "cnf" | "conf" | "properties" | "env"
    )
}

/// Concepts in questions, each with the key words that express it in config files.
const CONCEPTS: &[(&[&str], &[&str], bool)] = &[
    // (question words, key words, is an attribute rather than an entity)
    (&["端口", "port", "ports"], &["port", "listen"], true),
    (
        &[
            "主机",
            "地址",
            "host",
            "address",
            "hostname",
            "ip",
            "域名",
            "server_name",
        ],
        &[
            "host",
            "address",
            "addr",
            "server_name",
            "hostname",
            "ip",
            "listen",
            "url",
        ],
        true,
    ),
    (
        &["用户名", "用户", "user", "username", "账号"],
        &["user", "username", "login"],
        true,
    ),
    (
        &["密码", "password", "口令"],
        &["password", "passwd", "pass"],
        true,
    ),
    (&["超时", "timeout"], &["timeout"], true),
    (&["名称", "名字", "name"], &["name"], true),
    (&["监听", "listen"], &["listen"], true),
    (
        &["线程", "进程数", "worker", "workers", "threads"],
        &["worker", "thread", "process"],
        true,
    ),
    (
        &["代理", "proxy", "upstream", "上游"],
        &["proxy", "upstream"],
        true,
    ),
    (&["根目录", "root"], &["root"], true),
    (
        &["证书", "ssl", "tls", "cert", "certificate"],
        &["ssl", "tls", "cert"],
        true,
    ),
    (&["版本", "version"], &["version"], true),
    (&["日志", "log", "logging"], &["log"], true),
    (
        &["大小", "size", "limit", "上限", "限制"],
        &["size", "limit", "max"],
        true,
    ),
    (
        &["数据库", "database", "db", "mysql", "postgres"],
        &[
            "database",
            "db",
            "mysql",
            "postgres",
            "primary",
            "replica",
            "datasource",
            "jdbc",
            "dsn",
            "sql",
        ],
        false,
    ),
    (
        &["队列", "消息队列", "queue", "mq", "rabbitmq", "kafka"],
        &["queue", "mq", "rabbitmq", "kafka", "amqp"],
        false,
    ),
    (&["缓存", "cache", "redis"], &["cache", "redis"], false),
    (
        &["应用", "app", "application", "服务"],
        &["app", "application", "server", "service"],
        false,
    ),
];

/// A key (or a config line) that sets a secret: its value is never shown.
pub(crate) fn secret_key(path: &str) -> bool {
    let p = path.to_lowercase();
    [
        "password",
        "passwd",
        "secret",
        "token",
        "api_key",
        "apikey",
        "private",
        "requirepass",
        "masterauth",
    ]
    .iter()
    .any(|k| p.contains(k))
}

/// The settings a question asks about, best matches only; empty when nothing matches.
pub fn answer_matches<'a>(
    settings: &'a [Setting],
    question: &str,
    filename: &str,
) -> Vec<&'a Setting> {
    let q = question.to_lowercase();
    let words = ascii_words(&q);
    let asked: Vec<&(&[&str], &[&str], bool)> = CONCEPTS
        .iter()
        .filter(|(qw, _, _)| {
            qw.iter().any(|w| {
                if w.is_ascii() {
                    words.iter().any(|x| x == w)
                } else {
                    q.contains(w)
                }
            })
        })
        .collect();
    if asked.is_empty() {
        return Vec::new();
    }
    let file_ctx = stem(filename).to_lowercase();
    let want_attr = asked.iter().any(|c| c.2);
    let mut best: Vec<(usize, &Setting)> = Vec::new();
    for s in settings {
        let segs: Vec<String> = s
            .path
            .to_lowercase()
            .split(['.', '[', ']', ' '])
            .map(|x| x.to_string())
            .collect();
        let seg_hit = |kw: &[&str]| segs.iter().any(|seg| kw.iter().any(|k| seg.contains(k)));
        let mut score = 0;
        let mut attr_hit = false;
        for (_, kws, is_attr) in &asked {
            if seg_hit(kws) {
                score += 2;
                attr_hit |= *is_attr;
            } else if !*is_attr && kws.iter().any(|k| file_ctx.contains(k)) {
                // "database.yaml" gives every key in it the database context.
                score += 1;
            }
        }
        if score == 0 || (want_attr && !attr_hit) {
            continue;
        }
        best.push((score, s));
    }
    let Some(max) = best.iter().map(|b| b.0).max() else {
        return Vec::new();
    };
    best.into_iter()
        .filter(|b| b.0 == max)
        .map(|b| b.1)
        .take(12)
        .collect()
}

/// A sentence-plus-list answer about a config file.
pub fn render(settings: &[Setting], question: &str, filename: &str, lang: Lang) -> Option<String> {
    if settings.is_empty() {
        return None;
    }
    let show = |s: &Setting| {
        let v = if secret_key(&s.path) {
            "******"
        } else {
            s.value.as_str()
        };
        format!("- `{}` = `{}`", s.path, v)
    };
    let hits = answer_matches(settings, question, filename);
    if !hits.is_empty() {
        let list: Vec<String> = hits.iter().map(|s| show(s)).collect();
        let lead = if hits.len() == 1 {
            let s = hits[0];
            let v = if secret_key(&s.path) {
                "******"
            } else {
                s.value.as_str()
            };
            match lang {
                Lang::Zh => format!("{filename} 中 `{}` 的值是 {v}。", s.path),
                Lang::En => format!("In {filename}, `{}` is {v}.", s.path),
            }
        } else {
            match lang {
                Lang::Zh => format!("{filename} 中相关的配置项："),
                Lang::En => format!("Matching settings in {filename}:"),
            }
        };
        if hits.len() == 1 {
            return Some(lead);
        }
        return Some(format!("{lead}\n{}", list.join("\n")));
    }
    let mut tops: Vec<&str> = Vec::new();
    for s in settings {
        let top = s.path.split(['.', '[']).next().unwrap_or("");
        if !tops.contains(&top) {
            tops.push(top);
        }
    }
    let list: Vec<String> = settings.iter().take(15).map(show).collect();
    let more = settings.len().saturating_sub(15);
    let mut out = match lang {
        Lang::Zh => format!(
            "{filename} 共 {} 个配置项，顶层分组：{}。\n{}",
            settings.len(),
            tops.join("、"),
            list.join("\n")
        ),
        Lang::En => format!(
            "{filename} has {} settings; top-level sections: {}.\n{}",
            settings.len(),
            tops.join(", "),
            list.join("\n")
        ),
    };
    if more > 0 {
        out.push_str(&match lang {
            Lang::Zh => format!("\n…另有 {more} 项"),
            Lang::En => format!("\n… {more} more"),
        });
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFIG: &str = "app:\n  name: billing\n  listen: 0.0.0.0:9000\ndatabase:\n  host: 127.0.0.1\n  port: 3306\n  user: billing\nqueue:\n  kind: rabbitmq\n  host: mq.local\n  port: 5672\n";

    #[test]
    fn yaml_paths() {
        let s = flatten(CONFIG, "config.yaml");
        assert!(s.contains(&Setting {
            path: "database.port".into(),
            value: "3306".into()
        }));
        assert!(s.contains(&Setting {
            path: "queue.kind".into(),
            value: "rabbitmq".into()
        }));
    }

    #[test]
    fn answers_database_port() {
        let s = flatten(CONFIG, "config.yaml");
        let a = render(&s, "数据库端口是多少", "config.yaml", Lang::Zh).unwrap();
        assert!(a.contains("database.port") && a.contains("3306"), "{a}");
        assert!(!a.contains("5672"), "{a}");
        let db = flatten("primary:\n  host: db1.local\n  port: 3306\nreplica:\n  host: db2.local\n  port: 3306\n", "database.yaml");
        let a = render(&db, "数据库端口是多少", "database.yaml", Lang::Zh).unwrap();
        assert!(
            a.contains("primary.port") && a.contains("replica.port"),
            "{a}"
        );
    }

    #[test]
    fn ports_inside_urls() {
        let s = flatten(
            "spring:\n  datasource:\n    url: jdbc:postgresql://pg-main:5433/orders?ssl=true\n    username: app\n",
            "application.yml",
        );
        assert!(s.contains(&Setting {
            path: "spring.datasource.url.port".into(),
            value: "5433".into()
        }));
        assert!(s.contains(&Setting {
            path: "spring.datasource.url.database".into(),
            value: "orders".into()
        }));
        let a = render(&s, "数据库端口是多少", "application.yml", Lang::Zh).unwrap();
        assert!(a.contains("5433"), "{a}");
        // Another port in the same file is not the database's.
        let s = flatten(
            "server:\n  port: 8443\nspring:\n  datasource:\n    url: jdbc:postgresql://ledger-db.internal:6432/ledger?sslmode=require\n",
            "application.yml",
        );
        let a = render(&s, "数据库端口是多少", "application.yml", Lang::Zh).unwrap();
        assert!(a.contains("6432") && !a.contains("8443"), "{a}");
        let e = flatten("CACHE_URL=redis://:pw@cache-1:6380/2\n", "app.env");
        assert!(e.contains(&Setting {
            path: "CACHE_URL.port".into(),
            value: "6380".into()
        }));
        assert!(!e.iter().any(|x| x.value == "pw"), "{e:?}");
        let a = render(&e, "redis port?", "app.env", Lang::En).unwrap();
        assert!(a.contains("6380"), "{a}");
    }

    #[test]
    fn toml_nested_tables_and_arrays() {
        let s = flatten(
            "title = \"orders\"\n[database]\nhost = \"pg-1\"\n[database.pool]\nmax = 20\n\n[[upstreams]]\nurl = \"http://10.0.0.5:8081/api\"\n[cache]\nredis = { host = \"r1\", port = 6381 }\n",
            "app.toml",
        );
        for (path, value) in [
            ("database.pool.max", "20"),
            ("upstreams[0].url.port", "8081"),
            ("cache.redis.port", "6381"),
            ("title", "orders"),
        ] {
            assert!(
                s.contains(&Setting {
                    path: path.into(),
                    value: value.into()
                }),
                "{path}: {s:?}"
            );
        }
        let a = render(&s, "redis 端口是多少", "app.toml", Lang::Zh).expect("answer");
        assert!(a.contains("6381"), "{a}");
    }

    #[test]
    fn nginx_and_ini() {
        let n = flatten("http {\n  server {\n    listen 8080;\n    server_name example.com;\n    location / { proxy_pass http://127.0.0.1:3000; }\n  }\n}\n", "nginx.conf");
        assert!(n.contains(&Setting {
            path: "http.server.listen".into(),
            value: "8080".into()
        }));
        let a = render(&n, "what port does it listen on", "nginx.conf", Lang::En).unwrap();
        assert!(a.contains("8080"), "{a}");
        let i = flatten("[db]\nport = 5432\npassword = hunter2\n", "app.ini");
        let a = render(&i, "db password?", "app.ini", Lang::En).unwrap();
        assert!(a.contains("******") && !a.contains("hunter2"), "{a}");
    }
}
