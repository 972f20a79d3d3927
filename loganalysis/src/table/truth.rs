//! Synthetic logs in every shipped format with planted ground truth (seeded): each event's
//! time, group key, status, duration, tag and token are chosen here and recorded
//! independently of the engine's parsing, for tests and the benchmark.

use std::io::{self, Write};

use crate::ts;

/// What one planted event holds, as the engine must see it.
#[derive(Debug, Clone, PartialEq)]
pub struct TruthEvent {
    /// 1-based first line.
    pub line: u64,
    pub lines: u64,
    /// Second on the log's clock (year 0 for syslog times); `None` without a time.
    pub sec: Option<i64>,
    /// The value of the log's group field (`TruthLog::group`), when the event has one.
    pub key: Option<String>,
    pub status: Option<u16>,
    /// The duration field's value in the field's own unit.
    pub dur: Option<f64>,
    /// `TruthLog::tag` holds.
    pub tagged: bool,
    /// The event text contains `TOKEN` (any case).
    pub token: bool,
}

/// A generated log and its truth.
#[derive(Debug, Clone)]
pub struct TruthLog {
    pub format: &'static str,
    pub lines: u64,
    pub bytes: u64,
    /// Lines no format field describes (garbage, headers), each its own event.
    pub unparsed: u64,
    pub events: Vec<TruthEvent>,
    /// The field grouped by, as a query names it.
    pub group: &'static str,
    /// The duration field's name and its unit factor to seconds.
    pub duration: Option<(&'static str, f64)>,
    pub tag: Option<&'static str>,
    pub no_year: bool,
}

/// The word planted in some events, in mixed case.
pub const TOKEN: &str = "checkout";

/// Formats the generator writes.
pub const FORMATS: &[&str] = &[
    "nginx_combined",
    "nginx_timed",
    "nginx_common",
    "traefik",
    "json_lines",
    "journal_json",
    "logfmt",
    "syslog_rfc3164",
    "syslog_rfc5424",
    "sshd",
    "kernel",
    "dmesg",
    "java_logback",
    "java_log4j",
    "haproxy_http",
    "postgresql",
    "mysql_slow",
    "generic",
    "w3c",
    "docker_json",
];

/// splitmix64: a small seeded generator (no dependency).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }
    pub fn pick<T: Copy>(&mut self, v: &[T]) -> T {
        v[self.below(v.len() as u64) as usize]
    }
    pub fn chance(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
}

/// One event's attributes before rendering.
struct Planted {
    ms: i64,
    client: String,
    method: &'static str,
    path: String,
    status: u16,
    bytes: u64,
    dur_ms: u64,
    user: &'static str,
    level: &'static str,
    token: bool,
    n: u64,
    /// The header block the event is written under (W3C logs change fields mid-file).
    block: u8,
}

const CLIENTS: [&str; 8] = [
    "10.0.0.1",
    "10.0.0.2",
    "10.0.0.3",
    "10.0.0.4",
    "10.0.0.5",
    "192.168.7.20",
    "172.16.3.9",
    "203.0.113.50",
];
const USERS: [&str; 4] = ["alice", "bob", "deploy", "shop"];
const LEVELS: [&str; 4] = ["INFO", "INFO", "WARN", "ERROR"];

fn plant(rng: &mut Rng, ms: i64, n: u64) -> Planted {
    // Skewed so the top groups differ in size.
    let ci = (rng.below(64) as f64).sqrt() as usize % CLIENTS.len();
    let token = rng.chance(12);
    let word = rng.pick(&["checkout", "Checkout", "CHECKOUT"]);
    let path = if token {
        format!("/api/{word}?cart={}", rng.below(50))
    } else {
        rng.pick(&[
            "/api/orders?id=7",
            "/login",
            "/static/app.js",
            "/api/users/42",
            "/health",
        ])
        .to_string()
    };
    let status = rng.pick(&[200, 200, 200, 200, 200, 200, 301, 404, 500, 502, 503]);
    let dur_ms = if rng.chance(6) {
        1000 + rng.below(4000)
    } else {
        1 + rng.below(800)
    };
    Planted {
        ms,
        client: CLIENTS[ci].to_string(),
        method: rng.pick(&["GET", "GET", "POST"]),
        path,
        status,
        bytes: rng.below(20_000),
        dur_ms,
        user: rng.pick(&USERS),
        level: rng.pick(&LEVELS),
        token,
        n,
        block: 0,
    }
}

/// (y, mo, d, h, mi, s, ms) of a millisecond count since 1970.
fn parts(ms: i64) -> (i64, u32, u32, i64, i64, i64, i64) {
    let secs = ms.div_euclid(1000);
    let (y, mo, d) = ts::civil_from_days(secs.div_euclid(86_400));
    let sod = secs.rem_euclid(86_400);
    (
        y,
        mo,
        d,
        sod / 3600,
        sod / 60 % 60,
        sod % 60,
        ms.rem_euclid(1000),
    )
}

const MON: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn iso(ms: i64, sep: char, frac: &str) -> String {
    let (y, mo, d, h, mi, s, f) = parts(ms);
    let mut out = format!("{y:04}-{mo:02}-{d:02}{sep}{h:02}:{mi:02}:{s:02}");
    if !frac.is_empty() {
        out.push_str(&format!("{frac}{f:03}"));
    }
    out
}

fn access_time(ms: i64, frac: bool) -> String {
    let (y, mo, d, h, mi, s, f) = parts(ms);
    let m = MON[(mo - 1) as usize];
    if frac {
        format!("{d:02}/{m}/{y:04}:{h:02}:{mi:02}:{s:02}.{f:03}")
    } else {
        format!("{d:02}/{m}/{y:04}:{h:02}:{mi:02}:{s:02} +0000")
    }
}

fn syslog_time(ms: i64) -> String {
    let (_, mo, d, h, mi, s, _) = parts(ms);
    format!("{} {d:>2} {h:02}:{mi:02}:{s:02}", MON[(mo - 1) as usize])
}

/// The second on the log's clock (year 0 when the format writes no year).
fn clock(ms: i64, no_year: bool) -> i64 {
    let secs = ms.div_euclid(1000);
    if !no_year {
        return secs + ts::days_from_civil(1970, 1, 1) * 86_400;
    }
    let (_, mo, d, h, mi, s, _) = parts(ms);
    ts::days_from_civil(0, mo, d) * 86_400 + h * 3600 + mi * 60 + s
}

fn secs3(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// One rendered event: its lines and what the engine must see.
struct Rendered {
    lines: Vec<String>,
    key: Option<String>,
    status: Option<u16>,
    dur: Option<f64>,
    tagged: bool,
    token: bool,
    timed: bool,
}

fn simple(lines: Vec<String>, p: &Planted, key: Option<String>) -> Rendered {
    Rendered {
        lines,
        key,
        status: None,
        dur: None,
        tagged: false,
        token: p.token,
        timed: true,
    }
}

fn msg(p: &Planted) -> String {
    if p.token {
        format!("order {} Checkout step done", p.n)
    } else {
        format!("request {} handled", p.n)
    }
}

fn access(p: &Planted, fmt: &str) -> Rendered {
    let req = format!("{} {} HTTP/1.1", p.method, p.path);
    let t = access_time(p.ms, false);
    let (line, dur) = match fmt {
        "nginx_common" => (
            format!(
                "{} - {} [{t}] \"{req}\" {} {}",
                p.client, p.user, p.status, p.bytes
            ),
            None,
        ),
        "nginx_timed" => (
            format!(
                "{} - - [{t}] \"{req}\" {} {} \"-\" \"Mozilla/5.0 (X11; Linux)\" {} {}",
                p.client,
                p.status,
                p.bytes,
                secs3(p.dur_ms),
                secs3(p.dur_ms.saturating_sub(1))
            ),
            Some(p.dur_ms as f64 / 1000.0),
        ),
        "traefik" => (
            format!(
                "{} - - [{t}] \"{req}\" {} {} \"-\" \"curl/8.1\" {} \"{}@docker\" \"http://10.40.1.{}:8080\" {}ms",
                p.client,
                p.status,
                p.bytes,
                p.n + 1000,
                p.client.replace('.', "-"),
                p.n % 7 + 1,
                p.dur_ms
            ),
            // In the log's own unit, as the engine reports the field by its name.
            Some(p.dur_ms as f64),
        ),
        _ => (
            format!(
                "{} - - [{t}] \"{req}\" {} {} \"-\" \"curl/8.1\" rt={} urt={}",
                p.client,
                p.status,
                p.bytes,
                secs3(p.dur_ms),
                secs3(p.dur_ms)
            ),
            Some(p.dur_ms as f64 / 1000.0),
        ),
    };
    // Traefik's rows are grouped by their router, one per client here.
    let key = match fmt {
        "traefik" => format!("{}@docker", p.client.replace('.', "-")),
        _ => p.client.clone(),
    };
    Rendered {
        lines: vec![line],
        key: Some(key),
        status: Some(p.status),
        dur,
        tagged: (500..600).contains(&p.status),
        token: p.token,
        timed: true,
    }
}

fn json_like(p: &Planted, fmt: &str) -> Rendered {
    match fmt {
        "json_lines" => Rendered {
            lines: vec![format!(
                "{{\"ts\":\"{}Z\",\"level\":\"{}\",\"msg\":\"{}\",\"client_ip\":\"{}\",\"http\":{{\"method\":\"{}\",\"path\":\"{}\",\"status\":{}}},\"latency_ms\":{}}}",
                iso(p.ms, 'T', "."), p.level.to_lowercase(), msg(p), p.client, p.method, p.path, p.status, p.dur_ms
            )],
            key: Some(p.client.clone()),
            status: Some(p.status),
            dur: Some(p.dur_ms as f64),
            tagged: false,
            token: p.token,
            timed: true,
        },
        "logfmt" => Rendered {
            lines: vec![format!(
                "time={}Z level={} msg=\"{}\" client={} path={} status={} duration_ms={}",
                iso(p.ms, 'T', "."), p.level.to_lowercase(), msg(p), p.client, p.path, p.status, p.dur_ms
            )],
            key: Some(p.client.clone()),
            status: Some(p.status),
            dur: Some(p.dur_ms as f64),
            tagged: false,
            token: p.token,
            timed: true,
        },
        _ => {
            let unit = *["nginx.service", "payments.service", "cron.service"]
                .get(p.n as usize % 3)
                .unwrap_or(&"x.service");
            let pri = match p.level {
                "ERROR" => 3,
                "WARN" => 4,
                _ => 6,
            };
            let us = (p.ms + ts::days_from_civil(1970, 1, 1)) * 1000;
            let line = format!(
                "{{\"__REALTIME_TIMESTAMP\":\"{us}\",\"PRIORITY\":\"{pri}\",\"_SYSTEMD_UNIT\":\"{unit}\",\"SYSLOG_IDENTIFIER\":\"{}\",\"_PID\":\"{}\",\"_HOSTNAME\":\"web01\",\"MESSAGE\":\"{}\"}}",
                unit.trim_end_matches(".service"), 100 + p.n % 7, msg(p)
            );
            simple(vec![line], p, Some(unit.to_string()))
        }
    }
}

fn syslogish(rng: &mut Rng, p: &Planted, fmt: &str) -> Rendered {
    let t = syslog_time(p.ms);
    match fmt {
        "syslog_rfc3164" => {
            let prog = rng.pick(&["CRON", "app", "systemd", "nginx"]);
            simple(
                vec![format!(
                    "{t} web01 {prog}[{}]: {} {}",
                    200 + p.n % 9,
                    p.level,
                    msg(p)
                )],
                p,
                Some(prog.to_string()),
            )
        }
        "syslog_rfc5424" => {
            let prog = rng.pick(&["payments", "auth", "api"]);
            let pri = if p.level == "ERROR" { 11 } else { 14 };
            simple(
                vec![format!(
                    "<{pri}>1 {}Z web01 {prog} {} - - {}",
                    iso(p.ms, 'T', "."),
                    300 + p.n % 5,
                    msg(p)
                )],
                p,
                Some(prog.to_string()),
            )
        }
        "sshd" => sshd(rng, p, &t),
        _ => kernel(rng, p, fmt, &t),
    }
}

/// An auth.log line from sshd: failed (tagged) or accepted logins, or a session line.
fn sshd(rng: &mut Rng, p: &Planted, t: &str) -> Rendered {
    let pid = 4000 + p.n;
    let port = 40000 + p.n % 2000;
    let (text, key, tagged) = match rng.below(4) {
        0 => (
            format!(
                "Failed password for invalid user {} from {} port {port} ssh2",
                p.user, p.client
            ),
            Some(p.client.clone()),
            true,
        ),
        1 => (
            format!(
                "Failed password for {} from {} port {port} ssh2",
                p.user, p.client
            ),
            Some(p.client.clone()),
            true,
        ),
        2 => (
            format!(
                "Accepted publickey for {} from {} port {port} ssh2",
                p.user, p.client
            ),
            Some(p.client.clone()),
            false,
        ),
        _ => (
            format!("pam_unix(sshd:session): session opened for user {}", p.user),
            None,
            false,
        ),
    };
    let mut r = simple(vec![format!("{t} bastion sshd[{pid}]: {text}")], p, key);
    r.tagged = tagged;
    r.token = false;
    r
}

/// A kernel line (kern.log or dmesg): OOM kills (tagged), segfaults, link messages.
fn kernel(rng: &mut Rng, p: &Planted, fmt: &str, t: &str) -> Rendered {
    let up = format!(
        "{:>5}.{:06}",
        1000 + p.ms / 1000 % 90000,
        (p.n * 7919) % 1_000_000
    );
    let (text, key, tagged) = if rng.chance(10) {
        let victim = rng.pick(&["java", "postgres", "chrome"]);
        (
            format!(
                "Out of memory: Killed process {} ({victim}) total-vm:812345kB",
                3000 + p.n
            ),
            Some(victim.to_string()),
            true,
        )
    } else if rng.chance(5) {
        (
            format!(
                "reportd[{}]: segfault at 0 ip 00007f sp 00007ffe error 4",
                900 + p.n
            ),
            // The process the event is about: the one that crashed.
            Some("reportd".to_string()),
            false,
        )
    } else {
        (
            format!("eth0: link up, {} Mbps", 100 * (1 + p.n % 10)),
            None,
            false,
        )
    };
    let line = if fmt == "kernel" {
        format!("{t} db01 kernel: [{up}] {text}")
    } else {
        format!("[{up}] {text}")
    };
    let mut r = simple(vec![line], p, key);
    r.tagged = tagged;
    r.token = false;
    r.timed = fmt == "kernel";
    r
}

fn java(rng: &mut Rng, p: &Planted, fmt: &str) -> Rendered {
    let thread = rng.pick(&[
        "main",
        "http-nio-8080-exec-1",
        "http-nio-8080-exec-2",
        "scheduler-1",
    ]);
    let first = if fmt == "java_logback" {
        format!(
            "{} [{thread}] {} c.e.OrderService - {}",
            iso(p.ms, ' ', "."),
            p.level,
            msg(p)
        )
    } else {
        format!(
            "{} {} [{thread}] com.example.OrderService - {}",
            iso(p.ms, ' ', ","),
            p.level,
            msg(p)
        )
    };
    let mut lines = vec![first];
    let trace = p.level == "ERROR" && rng.chance(60);
    if trace {
        lines.push("java.lang.IllegalStateException: order failed".into());
        lines.push("\tat c.e.OrderService.place(OrderService.java:42)".into());
        lines.push("Caused by: java.net.SocketTimeoutException: Read timed out".into());
        lines.push("\t... 12 more".into());
    }
    let mut r = simple(lines, p, Some(thread.to_string()));
    r.tagged = trace;
    r
}

fn haproxy(p: &Planted) -> Rendered {
    let backend = if p.path.starts_with("/api") {
        "api"
    } else {
        "web"
    };
    let line = format!(
        "{} lb1 haproxy[1234]: {}:{} [{}] www~ {backend}/srv{} 1/0/2/{}/{} {} {} - - ---- 3/3/1/1/0 0/0 \"{} {} HTTP/1.1\"",
        syslog_time(p.ms), p.client, 50000 + p.n % 9999, access_time(p.ms, true), p.n % 3,
        p.dur_ms.saturating_sub(3), p.dur_ms, p.status, p.bytes, p.method, p.path
    );
    Rendered {
        lines: vec![line],
        key: Some(backend.to_string()),
        status: Some(p.status),
        dur: Some(p.dur_ms as f64),
        tagged: (500..600).contains(&p.status),
        token: p.token,
        timed: true,
    }
}

fn databases(p: &Planted, fmt: &str) -> Rendered {
    let q = if p.token {
        "SELECT * FROM checkout WHERE id = 7"
    } else {
        "SELECT * FROM orders WHERE id = 7"
    };
    if fmt == "postgresql" {
        let head = format!(
            "{} UTC [{}] {}@shop ",
            iso(p.ms, ' ', "."),
            4000 + p.n % 13,
            p.user
        );
        let timed = p.n.is_multiple_of(2);
        let (line, dur) = if timed {
            (
                format!(
                    "{head}LOG:  duration: {} ms  statement: {q}",
                    secs3(p.dur_ms * 1000)
                ),
                Some(p.dur_ms as f64),
            )
        } else {
            (
                format!("{head}LOG:  connection authorized: user={}", p.user),
                None,
            )
        };
        let mut lines = vec![line];
        if timed && p.n.is_multiple_of(5) {
            lines.push("\tAND status = 'open'".into());
        }
        let mut r = simple(lines, p, Some(p.user.to_string()));
        r.dur = dur;
        r.tagged = dur.is_some_and(|d| d >= 1000.0);
        r.token = timed && p.token;
        return r;
    }
    let (_, _, _, _, _, _, f) = parts(p.ms);
    let qt = format!(
        "{}.{:06}",
        p.dur_ms / 1000,
        (p.dur_ms % 1000) * 1000 + f as u64 % 7
    );
    let lines = vec![
        format!("# Time: {}{:03}Z", iso(p.ms, 'T', "."), p.n % 1000),
        format!(
            "# User@Host: {}[{}] @ app1 [{}]  Id:    {}",
            p.user,
            p.user,
            p.client,
            10 + p.n
        ),
        format!(
            "# Query_time: {qt}  Lock_time: 0.000100 Rows_sent: 1  Rows_examined: {}",
            p.bytes
        ),
        format!("SET timestamp={};", p.ms / 1000),
        q.to_string(),
        "  LIMIT 10;".to_string(),
    ];
    let dur: f64 = qt.parse().unwrap_or(0.0);
    let mut r = simple(lines, p, Some(p.user.to_string()));
    r.dur = Some(dur);
    r.tagged = dur >= 1.0;
    r
}

/// The `#Fields:` of each W3C header block: IIS's default, then other fields in another order.
const W3C_FIELDS: [&str; 2] = [
    "date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken",
    "date time cs-host c-ip cs-username cs-method cs-uri-stem cs-uri-query sc-status sc-bytes time-taken cs(User-Agent)",
];

fn w3c(p: &Planted) -> Rendered {
    let (stem, query) = p.path.split_once('?').unwrap_or((&p.path, "-"));
    let user = if p.user == "shop" { "-" } else { p.user };
    let agent = "Mozilla/5.0+(Windows+NT+10.0;+Win64)";
    let stamp = iso(p.ms, ' ', "");
    let (date, time) = stamp.split_once(' ').unwrap_or((&stamp, ""));
    let line = match p.block {
        0 => format!(
            "{date} {time} 10.0.0.80 {} {stem} {query} 443 {user} {} {agent} - {} 0 0 {}",
            p.method, p.client, p.status, p.dur_ms
        ),
        _ => format!(
            "{date} {time} shop.example.com {} {user} {} {stem} {query} {} {} {} {agent}",
            p.client, p.method, p.status, p.bytes, p.dur_ms
        ),
    };
    Rendered {
        lines: vec![line],
        key: Some(p.client.clone()),
        status: Some(p.status),
        dur: Some(p.dur_ms as f64),
        tagged: false,
        token: p.token,
        timed: true,
    }
}

/// A Docker json-file line around a logfmt line whose `dur` is a Go duration; the truth is
/// in seconds, computed as the value is written.
fn docker(p: &Planted) -> Rendered {
    let (dur, secs) = match p.n % 3 {
        0 => (format!("{}ms", p.dur_ms), p.dur_ms as f64 * 1e-3),
        1 => (
            format!("{}\u{b5}s", p.dur_ms * 1000),
            (p.dur_ms * 1000) as f64 * 1e-6,
        ),
        _ => (
            format!("{}s", p.dur_ms as f64 / 1000.0),
            p.dur_ms as f64 / 1000.0,
        ),
    };
    let t = iso(p.ms, 'T', ".");
    let inner = format!(
        "time={t}Z level={} msg=\\\"{}\\\" client={} path={} status={} dur={dur}",
        p.level.to_lowercase(),
        msg(p),
        p.client,
        p.path,
        p.status
    );
    let stream = ["stdout", "stderr"][usize::from(p.level == "ERROR")];
    Rendered {
        lines: vec![format!(
            "{{\"log\":\"{inner}\\n\",\"stream\":\"{stream}\",\"time\":\"{t}000000Z\"}}"
        )],
        key: Some(p.client.clone()),
        status: Some(p.status),
        dur: Some(secs),
        tagged: false,
        token: p.token,
        timed: true,
    }
}

fn render(rng: &mut Rng, p: &Planted, fmt: &str) -> Rendered {
    match fmt {
        "nginx_combined" | "nginx_timed" | "nginx_common" | "traefik" => access(p, fmt),
        "json_lines" | "logfmt" | "journal_json" => json_like(p, fmt),
        "syslog_rfc3164" | "syslog_rfc5424" | "sshd" | "kernel" | "dmesg" => syslogish(rng, p, fmt),
        "java_logback" | "java_log4j" => java(rng, p, fmt),
        "haproxy_http" => haproxy(p),
        "postgresql" | "mysql_slow" => databases(p, fmt),
        "w3c" => w3c(p),
        "docker_json" => docker(p),
        _ => simple(
            vec![format!("{} {} {}", iso(p.ms, ' ', ""), p.level, msg(p))],
            p,
            Some(p.level.to_string()),
        ),
    }
}

fn meta(
    fmt: &str,
) -> (
    &'static str,
    Option<(&'static str, f64)>,
    Option<&'static str>,
) {
    match fmt {
        "nginx_combined" => ("client", Some(("rt", 1.0)), Some("server_error")),
        "nginx_timed" => ("client", Some(("request_time", 1.0)), Some("server_error")),
        "nginx_common" => ("client", None, Some("server_error")),
        "traefik" => ("router", Some(("duration", 0.001)), Some("server_error")),
        "json_lines" | "logfmt" => ("client", Some(("duration", 0.001)), None),
        "journal_json" => ("unit", None, None),
        "syslog_rfc3164" | "syslog_rfc5424" => ("program", None, None),
        "sshd" => ("client", None, Some("failed_login")),
        "kernel" | "dmesg" => ("victim", None, Some("oom_kill")),
        "java_logback" | "java_log4j" => ("thread", None, Some("stack_trace")),
        "haproxy_http" => ("upstream", Some(("duration", 0.001)), Some("server_error")),
        "postgresql" => ("user", Some(("duration", 0.001)), Some("slow_query")),
        "mysql_slow" => ("user", Some(("duration", 1.0)), Some("slow_query")),
        "w3c" => ("c-ip", Some(("time-taken", 0.001)), None),
        "docker_json" => ("client", Some(("dur", 1.0)), None),
        _ => ("level", None, None),
    }
}

/// Writes `n` events of `fmt` (with a few unparsable lines where the format allows) and
/// returns the truth.
pub fn generate(fmt: &'static str, seed: u64, n: usize, w: &mut dyn Write) -> io::Result<TruthLog> {
    let mut rng = Rng::new(seed);
    let no_year = matches!(fmt, "syslog_rfc3164" | "sshd" | "kernel");
    let (group, duration, tag) = meta(fmt);
    let mut log = TruthLog {
        format: fmt,
        lines: 0,
        bytes: 0,
        unparsed: 0,
        events: Vec::with_capacity(n),
        group,
        duration,
        tag,
        no_year,
    };
    let mut emit = |log: &mut TruthLog, line: &str| -> io::Result<()> {
        w.write_all(line.as_bytes())?;
        w.write_all(b"\n")?;
        log.lines += 1;
        log.bytes += line.len() as u64 + 1;
        Ok(())
    };
    if fmt == "mysql_slow" {
        emit(
            &mut log,
            "/usr/sbin/mysqld, Version: 8.0.36 (MySQL Community Server - GPL). started with:",
        )?;
        log.unparsed += 1;
    }
    // The combined log stays clean so its awk pipelines (exact only when every line
    // parses) are exercised; the others carry unparsable lines.
    let garbage = !matches!(fmt, "mysql_slow" | "nginx_combined");
    let start_ms = (ts::days_from_civil(2024, 5, 1) - ts::days_from_civil(1970, 1, 1)) * 86_400_000
        + 10 * 3_600_000;
    let mut ms = start_ms;
    for i in 0..n {
        ms += rng.below(3000) as i64;
        let mut p = plant(&mut rng, ms, i as u64);
        if fmt == "w3c" {
            p.block = u8::from(i >= n / 2);
            if i == 0 || i == n / 2 {
                for l in w3c_header(p.ms, p.block) {
                    emit(&mut log, &l)?;
                }
            }
        }
        let r = render(&mut rng, &p, fmt);
        let ev = TruthEvent {
            line: log.lines + 1,
            lines: r.lines.len() as u64,
            sec: r.timed.then(|| clock(ms, no_year)),
            key: r.key,
            status: r.status,
            dur: r.dur,
            tagged: r.tagged,
            token: r.token,
        };
        for l in &r.lines {
            emit(&mut log, l)?;
        }
        log.events.push(ev);
        if garbage && rng.chance(2) {
            let (line, kind) = garbage_line(fmt, i);
            emit(&mut log, &line)?;
            match (kind, log.events.last_mut()) {
                (Garbage::Continues, Some(ev)) => ev.lines += 1,
                _ => log.unparsed += 1,
            }
            // A blank line would go on the unparsed object, and count as a line of it.
            if kind == Garbage::OpenObject {
                continue;
            }
        }
        if garbage && i % 17 == 5 {
            // A blank line (or one of blanks) is no event.
            emit(&mut log, if i % 2 == 0 { "" } else { "  " })?;
        }
    }
    Ok(log)
}

/// How the engine reads a line of garbage.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Garbage {
    /// An event of its own, unparsed.
    Own,
    /// A line of the event above it (no JSON object among JSON lines).
    Continues,
    /// An event of its own that starts as a JSON object and does not parse.
    OpenObject,
}

/// Garbage after event `i`: a W3C line starting with `#` is a directive, not an event;
/// among JSON lines, a line that is no object belongs to the event above it, and one that
/// starts as an object but does not parse is an event of its own.
fn garbage_line(fmt: &str, i: usize) -> (String, Garbage) {
    let json = matches!(fmt, "json_lines" | "journal_json" | "docker_json");
    let (g, kind) = match fmt {
        "w3c" => ("", Garbage::Own),
        _ if json && i.is_multiple_of(2) => ("{ ", Garbage::OpenObject),
        _ if json => ("### ", Garbage::Continues),
        _ => ("### ", Garbage::Own),
    };
    (format!("{g}garbage {i} {}", g.trim()), kind)
}

/// A W3C header block as IIS writes one at start-up.
fn w3c_header(ms: i64, block: u8) -> Vec<String> {
    vec![
        "#Software: Microsoft Internet Information Services 10.0".to_string(),
        "#Version: 1.0".to_string(),
        format!("#Date: {}", iso(ms, ' ', "")),
        format!("#Fields: {}", W3C_FIELDS[usize::from(block)]),
    ]
}

impl TruthLog {
    /// Events the engine counts: planted events plus unparsable lines.
    pub fn engine_events(&self) -> u64 {
        self.events.len() as u64 + self.unparsed
    }
}
