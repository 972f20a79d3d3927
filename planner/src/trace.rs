//! Pasted errors and stack traces: recognises them ("为什么会出现下面的报错？" + a trace, or a
//! bare trace), extracts the key terms (exception class, message, innermost file:line, host
//! and port), and classifies the failure so one answer can say what it means, why it
//! happens and what to check.

use std::sync::OnceLock;

use regex::Regex;

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("trace regex literal is valid"))
}

/// What kind of failure an error is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    ConnectionRefused,
    Timeout,
    UnknownHost,
    OutOfMemory,
    DiskFull,
    TooManyOpenFiles,
    PermissionDenied,
    FileNotFound,
    AddressInUse,
    Tls,
    AuthFailed,
    NullValue,
    Other,
}

/// A pasted error, reduced to what a search and an answer need.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ErrorReport {
    /// The exception or error type as written (`java.net.ConnectException`), if any.
    pub class: Option<String>,
    /// The error message (the root cause's when a `Caused by:` chain is given).
    pub message: String,
    /// The innermost frame with a file and line (`OrderRepository.java:88`).
    pub location: Option<String>,
    /// `host:port` named in the message.
    pub host: Option<String>,
    pub port: Option<u16>,
    pub kind: ErrorKind,
    /// The user's own question, if they asked one before the trace.
    pub question: String,
}

impl ErrorReport {
    /// The class's short name (`ConnectException`).
    pub fn short_class(&self) -> Option<&str> {
        self.class
            .as_deref()
            .map(|c| c.rsplit(['.', ':']).next().unwrap_or(c))
    }

    /// Words to search the docs and uploads for.
    pub fn search_terms(&self) -> String {
        let mut terms: Vec<String> = Vec::new();
        if let Some(c) = self.short_class() {
            terms.push(c.to_string());
        }
        let msg: String = self
            .message
            .split_whitespace()
            .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
            .filter(|w| {
                w.chars().count() > 2
                    && w.chars().all(|c| c.is_alphabetic() || c == '-' || c == '_')
            })
            .take(6)
            .collect::<Vec<_>>()
            .join(" ");
        if !msg.is_empty() {
            terms.push(msg);
        }
        if terms.is_empty() {
            terms.push(self.message.chars().take(60).collect());
        }
        terms.join(" ")
    }
}

/// Lines that only a trace or error dump has.
fn trace_line(line: &str) -> bool {
    static FRAME: OnceLock<Regex> = OnceLock::new();
    static CLASS: OnceLock<Regex> = OnceLock::new();
    let l = line.trim();
    let frame = re(
        &FRAME,
        r#"^(?:at\s+[\w$.<>/]+\s*\(.*\)|at\s+\S+\s+\(.+:\d+:\d+\)|File "[^"]+", line \d+|Traceback \(most recent call last\)|Caused by:|Exception in thread|thread '.*' panicked at|goroutine \d+ \[|\.\.\. \d+ more)"#,
    );
    let class = re(
        &CLASS,
        r"(?:^|\s)(?:[a-z_][\w]*\.)*[A-Z]\w*(?:Exception|Error|Errno|Fault)\b(?::|$|\s*\()",
    );
    frame.is_match(l) || class.is_match(l)
}

/// Error phrases that make a single pasted line an error report.
fn error_phrase(lower: &str) -> bool {
    [
        "connection refused",
        "econnrefused",
        "timed out",
        "etimedout",
        "name or service not known",
        "unknownhostexception",
        "no route to host",
        "outofmemoryerror",
        "out of memory",
        "cannot allocate memory",
        "no space left on device",
        "too many open files",
        "permission denied",
        "eacces",
        "no such file or directory",
        "enoent",
        "address already in use",
        "eaddrinuse",
        "certificate verify failed",
        "sslhandshakeexception",
        "password authentication failed",
        "access denied for user",
        "nullpointerexception",
        "segmentation fault",
        "fatal:",
        "panic:",
    ]
    .iter()
    .any(|p| lower.contains(p))
}

/// A log line at error level: `... ERROR [svc] text`, `npm ERR! code ENOENT`, `FATAL: ...`.
fn level_line(line: &str) -> bool {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?:^|\s|\[)(?:ERROR|ERR!|FATAL|CRITICAL|SEVERE|PANIC)(?:\]|:|\s)",
    );
    line.trim().chars().count() >= 12 && r.is_match(line)
}

/// The text after a log line's level token (`payment-gateway call failed: ...`).
fn after_level(line: &str) -> String {
    for tok in ["ERROR", "ERR!", "FATAL", "CRITICAL", "SEVERE", "PANIC"] {
        if let Some(i) = line.find(tok) {
            let rest = line[i + tok.len()..].trim_start_matches([']', ':', ' ']);
            // Drop a `[component]` tag.
            let rest = match rest.strip_prefix('[').and_then(|r| r.split_once(']')) {
                Some((_, after)) => after,
                None => rest,
            };
            return rest.trim().to_string();
        }
    }
    line.trim().to_string()
}

fn kind_of(text: &str) -> ErrorKind {
    let t = text.to_lowercase();
    let has = |ws: &[&str]| ws.iter().any(|w| t.contains(w));
    if has(&["connection refused", "econnrefused", "connectexception"]) {
        ErrorKind::ConnectionRefused
    } else if has(&[
        "unknownhost",
        "name or service not known",
        "could not resolve",
        "nodename nor servname",
        "getaddrinfo",
        "no such host",
    ]) {
        ErrorKind::UnknownHost
    } else if has(&["timed out", "timeout", "etimedout", "deadline exceeded"]) {
        ErrorKind::Timeout
    } else if has(&[
        "outofmemory",
        "out of memory",
        "cannot allocate memory",
        "memoryerror",
        "oom",
    ]) {
        ErrorKind::OutOfMemory
    } else if has(&["no space left", "enospc", "disk full"]) {
        ErrorKind::DiskFull
    } else if has(&["too many open files", "emfile"]) {
        ErrorKind::TooManyOpenFiles
    } else if has(&["address already in use", "eaddrinuse", "bindexception"]) {
        ErrorKind::AddressInUse
    } else if has(&[
        "password authentication failed",
        "access denied for user",
        "authentication failed",
        "unauthorized",
        "401",
    ]) {
        ErrorKind::AuthFailed
    } else if has(&[
        "permission denied",
        "eacces",
        "accessdeniedexception",
        "operation not permitted",
    ]) {
        ErrorKind::PermissionDenied
    } else if has(&["no such file", "enoent", "filenotfound", "nosuchfile"]) {
        ErrorKind::FileNotFound
    } else if has(&["ssl", "tls", "certificate", "handshake"]) {
        ErrorKind::Tls
    } else if has(&[
        "nullpointer",
        "nonetype",
        "undefined is not",
        "cannot read properties of undefined",
        "null reference",
        "nil pointer",
    ]) {
        ErrorKind::NullValue
    } else {
        ErrorKind::Other
    }
}

/// A pasted error or stack trace in the message, with the user's question if any.
pub fn pasted_error(text: &str) -> Option<ErrorReport> {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let (first_err, last_err) = error_span(text, &lines)?;
    // The question: prose before the error, or a short line after it ("这是什么问题").
    let mut question_lines: Vec<&str> = lines[..first_err].to_vec();
    question_lines.extend(
        lines[last_err + 1..]
            .iter()
            .filter(|l| !l.starts_with(char::is_whitespace)),
    );
    let question = question_lines.join(" ").trim().to_string();
    let body = &lines[first_err..=last_err.max(first_err)];
    let (class, message) = root_cause(body, &lines);
    let (host, port) = host_and_port(body);
    let kind = kind_of(&format!("{} {}", class.as_deref().unwrap_or(""), message));
    let kind = if kind == ErrorKind::Other {
        kind_of(&body.join("\n"))
    } else {
        kind
    };
    Some(ErrorReport {
        class,
        message,
        location: source_location(body),
        host,
        port,
        kind,
        question,
    })
}

/// The first and last line (of the non-empty `lines`) that belong to the error, or `None`
/// when the text is not an error at all.
fn error_span(text: &str, lines: &[&str]) -> Option<(usize, usize)> {
    let marked: Vec<usize> = (0..lines.len()).filter(|i| trace_line(lines[*i])).collect();
    // Lines that are part of the error: trace lines, error phrases, log lines at ERROR level.
    let err_line = |i: usize| {
        marked.contains(&i) || error_phrase(&lines[i].to_lowercase()) || level_line(lines[i])
    };
    let err_lines: Vec<usize> = (0..lines.len()).filter(|i| err_line(*i)).collect();
    let is_error = if lines.len() >= 2 {
        !err_lines.is_empty()
    } else {
        // One line: an exception with a message, or a well-known error phrase with a colon
        // ("psql: error: connection ... failed: Connection refused").
        (!marked.is_empty() && text.contains(':'))
            || (error_phrase(&text.to_lowercase()) && text.matches(':').count() >= 2)
    };
    if !is_error {
        return None;
    }
    let first_err = err_lines.first().copied().unwrap_or(0);
    Some((first_err, err_lines.last().copied().unwrap_or(first_err)))
}

/// The root cause's class and message: the last `Caused by:` line, else the first exception
/// line, else the first ERROR-level line or error phrase.
fn root_cause(body: &[&str], lines: &[&str]) -> (Option<String>, String) {
    static CLASS_MSG: OnceLock<Regex> = OnceLock::new();
    let class_msg = re(
        &CLASS_MSG,
        r"((?:[A-Za-z_][\w]*\.)*[A-Z]\w*(?:Exception|Error|Errno|Fault))(?:\s*\[[^\]]*\])?\s*:\s*(.+)$",
    );
    let mut class = None;
    let mut message = String::new();
    for l in body {
        let l = l.trim().trim_start_matches("Caused by:").trim();
        if let Some(c) = class_msg.captures(l) {
            let is_cause = class.is_none()
                || lines
                    .iter()
                    .any(|x| x.contains("Caused by:") && x.contains(l));
            if is_cause {
                class = c.get(1).map(|m| m.as_str().to_string());
                message = c
                    .get(2)
                    .map(|m| m.as_str().trim().to_string())
                    .unwrap_or_default();
            }
        }
    }
    if message.is_empty() {
        message = body
            .iter()
            .find(|l| level_line(l))
            .map(|l| after_level(l))
            .or_else(|| {
                body.iter()
                    .find(|l| error_phrase(&l.to_lowercase()))
                    .or(body.last())
                    .map(|l| l.trim().to_string())
            })
            .unwrap_or_default();
    }
    (class, message)
}

/// `File.java:88` / `app.py:12`: the innermost frame (Python's is the last, Java's the
/// first `at` line).
fn source_location(body: &[&str]) -> Option<String> {
    static LOC: OnceLock<Regex> = OnceLock::new();
    let loc = re(
        &LOC,
        r#"\(([\w$.-]+\.(?:java|kt|scala|groovy)):(\d+)\)|File "([^"]+)", line (\d+)|\(?((?:/|\./|[\w-]+/)[\w./-]+\.(?:js|ts|go|rs|py|rb|php)):(\d+)(?::\d+)?\)?"#,
    );
    let python = body.iter().any(|l| l.contains("Traceback"));
    let mut locs = body.iter().filter_map(|l| {
        let c = loc.captures(l)?;
        let (f, n) = if let (Some(f), Some(n)) = (c.get(1), c.get(2)) {
            (f.as_str(), n.as_str())
        } else if let (Some(f), Some(n)) = (c.get(3), c.get(4)) {
            (f.as_str(), n.as_str())
        } else {
            (c.get(5)?.as_str(), c.get(6)?.as_str())
        };
        Some(format!("{}:{n}", f.rsplit('/').next().unwrap_or(f)))
    });
    if python {
        locs.next_back()
    } else {
        locs.next()
    }
}

/// The peer the error names: `host:port`, else a port alone ("port 5432", ":::8080").
fn host_and_port(body: &[&str]) -> (Option<String>, Option<u16>) {
    static HOSTPORT: OnceLock<Regex> = OnceLock::new();
    static PORT: OnceLock<Regex> = OnceLock::new();
    let hp = re(
        &HOSTPORT,
        r"(?:^|[\s/@(\[])((?:\d{1,3}\.){3}\d{1,3}|[a-zA-Z][\w.-]*\.[a-zA-Z][\w-]*|localhost|[a-z][\w-]+)(?:/[\d.]+)?:(\d{2,5})\b",
    );
    let (host, port) = body
        .iter()
        .find_map(|l| {
            let c = hp.captures(l)?;
            let port: u16 = c.get(2)?.as_str().parse().ok()?;
            let host = c.get(1)?.as_str().to_string();
            // `Foo.java:88` is a source line, not a host.
            let src = [
                ".java", ".py", ".kt", ".js", ".ts", ".go", ".rs", ".rb", ".scala",
            ];
            (!src.iter().any(|s| host.ends_with(s))).then_some((Some(host), Some(port)))
        })
        .unwrap_or((None, None));
    let port = port.or_else(|| {
        let r = re(
            &PORT,
            r"(?i)(?:\bport\s+|:::|\[::\]:|\*:|0\.0\.0\.0:)(\d{2,5})\b",
        );
        body.iter()
            .find_map(|l| r.captures(l)?.get(1)?.as_str().parse().ok())
    });
    (host, port)
}

/// The usual service behind a well-known port, for `systemctl`/`journalctl` suggestions.
pub fn service_for_port(port: u16) -> Option<&'static str> {
    Some(match port {
        5432 | 6432 => "postgresql",
        3306 => "mysql",
        6379 => "redis",
        27017 => "mongod",
        9092 => "kafka",
        5672 => "rabbitmq-server",
        80 | 443 => "nginx",
        9200 => "elasticsearch",
        2181 => "zookeeper",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_trace_with_question() {
        let t = "为什么会出现下面的报错？\norg.springframework.jdbc.CannotGetJdbcConnectionException: Failed to obtain JDBC Connection\n\tat org.springframework.jdbc.datasource.DataSourceUtils.getConnection(DataSourceUtils.java:84)\n\tat com.shop.orders.OrderRepository.save(OrderRepository.java:57)\nCaused by: java.net.ConnectException: Connection refused (Connection refused) to pg-main.internal:5432\n\tat java.base/sun.nio.ch.Net.connect0(Native Method)";
        let r = pasted_error(t).expect("a trace");
        assert_eq!(r.question, "为什么会出现下面的报错？");
        assert_eq!(r.short_class(), Some("ConnectException"));
        assert_eq!(r.kind, ErrorKind::ConnectionRefused);
        assert_eq!(r.location.as_deref(), Some("DataSourceUtils.java:84"));
        assert_eq!(
            (r.host.as_deref(), r.port),
            (Some("pg-main.internal"), Some(5432))
        );
        assert!(r.search_terms().contains("ConnectException"));
    }

    #[test]
    fn python_trace_innermost_frame() {
        let t = "Traceback (most recent call last):\n  File \"/srv/app/main.py\", line 12, in <module>\n    run()\n  File \"/srv/app/jobs.py\", line 40, in run\n    open(path)\nFileNotFoundError: [Errno 2] No such file or directory: '/data/in.csv'";
        let r = pasted_error(t).expect("a trace");
        assert_eq!(r.location.as_deref(), Some("jobs.py:40"));
        assert_eq!(r.kind, ErrorKind::FileNotFound);
        assert_eq!(r.short_class(), Some("FileNotFoundError"));
    }

    #[test]
    fn ordinary_questions_are_not_traces() {
        for t in [
            "payments.log 里有多少个 ERROR",
            "what does ConnectionError mean in the docs",
            "how many errors today?",
            "grep -c Exception app.log",
            "查一下 timeout 的文档",
        ] {
            assert!(pasted_error(t).is_none(), "{t}");
        }
        assert!(pasted_error("java.lang.OutOfMemoryError: Java heap space").is_some());
        for t in ["分析 checkout.log\n有多少 ERROR", "先看 CPU\n再看内存"] {
            assert!(pasted_error(t).is_none(), "{t}");
        }
    }

    #[test]
    fn a_log_line_with_a_question_after_it() {
        let r = pasted_error(
            "2026-11-10 08:00:07 ERROR [checkout] payment-gateway call failed: connect timeout after 162ms\n这是什么问题",
        )
        .expect("an error line");
        assert_eq!(r.question, "这是什么问题");
        assert_eq!(r.kind, ErrorKind::Timeout);
        assert!(
            r.message.starts_with("payment-gateway call failed"),
            "{}",
            r.message
        );
        let r = pasted_error(
            "npm ERR! code ENOENT\nnpm ERR! syscall open\nnpm ERR! path /app/package.json",
        )
        .expect("npm error");
        assert_eq!(r.kind, ErrorKind::FileNotFound);
    }
}
