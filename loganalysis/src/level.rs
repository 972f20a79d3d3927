//! Level detection: which severity an operator would say a line has (the rule is in
//! docs/tools.md and on [`detect`]).

use serde::{Deserialize, Serialize};

/// Canonical levels, most severe first (`NONE`: the line has no level).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Level {
    Fatal,
    Critical,
    Error,
    Warn,
    Notice,
    Info,
    Debug,
    Trace,
    None,
}

impl Level {
    /// All levels, most severe first.
    pub const ALL: [Level; 9] = [
        Level::Fatal,
        Level::Critical,
        Level::Error,
        Level::Warn,
        Level::Notice,
        Level::Info,
        Level::Debug,
        Level::Trace,
        Level::None,
    ];

    /// The canonical name (`ERROR`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Level::Fatal => "FATAL",
            Level::Critical => "CRITICAL",
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Notice => "NOTICE",
            Level::Info => "INFO",
            Level::Debug => "DEBUG",
            Level::Trace => "TRACE",
            Level::None => "NONE",
        }
    }

    /// FATAL, CRITICAL and ERROR: what the histogram counts as errors.
    pub fn is_error(self) -> bool {
        matches!(self, Level::Fatal | Level::Critical | Level::Error)
    }

    pub(crate) fn index(self) -> usize {
        self as usize
    }
}

/// Word -> level. `bare`: also counts as a bare upper-case word (not only bracketed or as a
/// key's value).
const WORDS: [(&[u8], Level, bool); 24] = [
    (b"FATAL", Level::Fatal, true),
    (b"PANIC", Level::Fatal, true),
    (b"EMERG", Level::Fatal, true),
    (b"EMERGENCY", Level::Fatal, false),
    (b"ALERT", Level::Fatal, false),
    (b"CRITICAL", Level::Critical, true),
    (b"CRIT", Level::Critical, true),
    (b"ERROR", Level::Error, true),
    (b"ERR", Level::Error, true),
    (b"SEVERE", Level::Error, true),
    (b"WARN", Level::Warn, true),
    (b"WARNING", Level::Warn, true),
    (b"NOTICE", Level::Notice, true),
    (b"INFO", Level::Info, true),
    // .NET's and Serilog's names: bracketed or a key's value only.
    (b"INFORMATION", Level::Info, false),
    (b"VERBOSE", Level::Trace, false),
    // NestJS's and PostgreSQL's name for an informational line.
    (b"LOG", Level::Info, false),
    (b"DEBUG", Level::Debug, true),
    (b"TRACE", Level::Trace, true),
    // Three-letter forms (zerolog's console, NATS, Serilog's templates, Ceph's
    // `[DBG]`): bracketed, a key's value or a header column only.
    (b"FTL", Level::Fatal, false),
    (b"WRN", Level::Warn, false),
    (b"INF", Level::Info, false),
    (b"DBG", Level::Debug, false),
    (b"TRC", Level::Trace, false),
];

/// Every level word (upper case) with its canonical name, for the shell equivalents.
pub(crate) fn words() -> impl Iterator<Item = (&'static str, &'static str)> {
    WORDS.iter().map(|(w, l, _)| {
        (
            std::str::from_utf8(w).expect("level words are ASCII literals"),
            l.name(),
        )
    })
}

const KEYS: [&[u8]; 5] = [b"level", b"lvl", b"severity", b"loglevel", b"levelname"];

/// `word` (any case) as a level: (level, allowed bare).
pub(crate) fn word_level(word: &[u8]) -> Option<(Level, bool)> {
    if word.len() < 3 || word.len() > 11 {
        return None;
    }
    WORDS
        .iter()
        .find(|(w, _, _)| w.eq_ignore_ascii_case(word))
        .map(|&(_, l, bare)| (l, bare))
}

#[inline]
fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// pino's and bunyan's numeric levels.
pub(crate) fn pino(n: &[u8]) -> Option<Level> {
    match n {
        b"10" => Some(Level::Trace),
        b"20" => Some(Level::Debug),
        b"30" => Some(Level::Info),
        b"40" => Some(Level::Warn),
        b"50" => Some(Level::Error),
        b"60" => Some(Level::Fatal),
        _ => None,
    }
}

/// The value of a level key whose name ends at `end` (`"level":"error"`, `level=error`,
/// `level="ERROR"`, `"level":50`): (level, end of the value).
fn key_value(line: &[u8], start: usize, end: usize) -> Option<(Level, usize)> {
    let quoted_key = start > 0 && line[start - 1] == b'"' && line.get(end) == Some(&b'"');
    let mut j = if quoted_key { end + 1 } else { end };
    if quoted_key {
        while matches!(line.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
        if line.get(j) != Some(&b':') {
            return None;
        }
        j += 1;
        while matches!(line.get(j), Some(b' ' | b'\t')) {
            j += 1;
        }
    } else {
        if start > 0 && !matches!(line[start - 1], b' ' | b'\t' | b'{' | b',') {
            return None;
        }
        // `level=error`, or a record's `LEVEL: Warning` (Db2's diagnostic log).
        while matches!(line.get(j), Some(b' ')) {
            j += 1;
        }
        match line.get(j) {
            Some(b'=') if j == end => j += 1,
            Some(b':') if matches!(line.get(j + 1), Some(b' ' | b'\t')) => {
                j += 1;
                while matches!(line.get(j), Some(b' ' | b'\t')) {
                    j += 1;
                }
            }
            _ => return None,
        }
    }
    let quoted = line.get(j) == Some(&b'"');
    if quoted {
        j += 1;
    }
    let v0 = j;
    while j < line.len() && line[j].is_ascii_alphanumeric() {
        j += 1;
    }
    let value = &line[v0..j];
    if quoted && line.get(j) != Some(&b'"') {
        return None;
    }
    let level = if !quoted && quoted_key {
        pino(value)?
    } else {
        word_level(value)?.0
    };
    Some((level, if quoted { j + 1 } else { j }))
}

/// Detects a line's level, scanning from `from`. Returns the level and the byte index just
/// after the level token (where the message begins), or `None` for a line without a level.
///
/// The rule: in JSON lines (first byte `{`) a key `level`/`lvl`/`severity`/`loglevel`/
/// `levelname` wins wherever it is. Otherwise the first word (maximal run of ASCII letters
/// not touching a letter, digit or `_`) that is one of
/// - a level key with a level value: `level=error`, `level="WARN"`, `LEVEL: Warning`,
///   `"level":"info"`,
///   `"level":50` (pino numbers);
/// - a level word in any case inside brackets: `[error]`, `[Warning]`, `[core:error]`,
///   `<info>`;
/// - an upper-case level word anywhere: `ERROR`, `WARN`, `INFO`, ... (not `ALERT` or
///   `EMERGENCY`, which count only bracketed or as key values);
/// - a level word in any case with a colon after it that follows `: `
///   (`postfix/smtpd[7]: warning: ...`).
///
/// Level words: FATAL/PANIC/EMERG/EMERGENCY/ALERT -> FATAL, CRITICAL/CRIT -> CRITICAL,
/// ERROR/ERR/SEVERE -> ERROR, WARN/WARNING -> WARN, NOTICE, INFO, DEBUG, TRACE.
pub(crate) fn detect(line: &[u8], from: usize) -> Option<(Level, usize)> {
    if line.first() == Some(&b'{') {
        if let Some(hit) = scan(line, 0, true) {
            return Some(hit);
        }
    }
    scan(line, from, false)
}

fn scan(line: &[u8], from: usize, keys_only: bool) -> Option<(Level, usize)> {
    let n = line.len();
    let mut i = from;
    while i < n {
        let b = line[i];
        if !b.is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let start = i;
        while i < n && line[i].is_ascii_alphabetic() {
            i += 1;
        }
        let end = i;
        if start > 0 && is_word_byte(line[start - 1]) {
            continue;
        }
        if end < n && is_word_byte(line[end]) {
            while i < n && is_word_byte(line[i]) {
                i += 1;
            }
            continue;
        }
        let word = &line[start..end];
        // Heroku's (and l2met's) logfmt writes the level as `at=error`.
        if word == b"at" && line.get(end) == Some(&b'=') {
            if let Some(hit) = key_value(line, start, end) {
                return Some(hit);
            }
            continue;
        }
        if word.len() < 3 || word.len() > 9 {
            continue;
        }
        let first = word[0] | 0x20;
        if matches!(first, b'l' | b's') && KEYS.iter().any(|k| k.eq_ignore_ascii_case(word)) {
            if let Some(hit) = key_value(line, start, end) {
                return Some(hit);
            }
            continue;
        }
        if keys_only {
            continue;
        }
        let Some((level, bare)) = word_level(word) else {
            continue;
        };
        let prev = if start > 0 { line[start - 1] } else { 0 };
        let next = line.get(end).copied().unwrap_or(0);
        let bracketed =
            (matches!(prev, b'[' | b':') && next == b']') || (prev == b'<' && next == b'>');
        let upper = word.iter().all(u8::is_ascii_uppercase);
        if bracketed {
            return Some((level, end + 1));
        }
        // `postfix/smtpd[7]: warning: ...`, `sshd[9]: error: ...`: a level word in any case
        // that opens the text after a program's `: `, with its own colon.
        let opens = start >= 2 && &line[start - 2..start] == b": ";
        if opens && next == b':' && bare {
            return Some((level, end + 1));
        }
        // `heroku[web.1]: Error R14 (Memory quota exceeded)`, `: ERROR 1045 (28000): …`: a
        // level word opening the text, capitalised, before an error's code.
        if opens && next == b' ' && word[0].is_ascii_uppercase() && code_follows(line, end + 1) {
            return Some((level, end));
        }
        if upper && bare {
            return Some((level, end));
        }
    }
    None
}

/// Whether an error code (`R14`, `E11000`, `1045`: capitals, then digits) starts at `i`
/// and ends at a blank, `:`, `(` or the line's end.
fn code_follows(line: &[u8], i: usize) -> bool {
    let rest = line.get(i..).unwrap_or_default();
    let letters = rest.iter().take_while(|b| b.is_ascii_uppercase()).count();
    let digits = rest[letters..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let after = rest.get(letters + digits).copied();
    letters <= 3 && digits > 0 && matches!(after, None | Some(b' ' | b':' | b'('))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lv(line: &str) -> Level {
        detect(line.as_bytes(), 0).map_or(Level::None, |h| h.0)
    }

    #[test]
    fn common_formats() {
        let cases = [
            (
                "2024-05-01 10:00:00.123 [main] ERROR com.foo.Bar - boom",
                Level::Error,
            ),
            (
                "2024-05-01 10:00:00,123 - app - WARNING - disk",
                Level::Warn,
            ),
            ("ERROR:root:failed", Level::Error),
            (
                "2024/05/01 10:00:00 [error] 12#0: *3 connect() failed",
                Level::Error,
            ),
            ("2024/05/01 10:00:00 [crit] 12#0: x", Level::Critical),
            (
                "[Wed May 01 10:00:00 2024] [core:error] [pid 1] x",
                Level::Error,
            ),
            ("May  1 10:00:00 web01 app[12]: INFO started", Level::Info),
            (
                "2031-03-04T01:00:00+00:00 heroku[web.1]: Error R14 (Memory quota exceeded)",
                Level::Error,
            ),
            (
                "2031-03-04T01:00:00+00:00 heroku[router]: at=error code=H12 desc=\"x\"",
                Level::Error,
            ),
            ("app[web.1]: Error handling request", Level::None),
            (
                "{\"msg\":\"ERROR in payload\",\"level\":\"info\"}",
                Level::Info,
            ),
            ("{\"level\":50,\"msg\":\"x\"}", Level::Error),
            (
                "{\"severity\": \"WARNING\", \"message\": \"x\"}",
                Level::Warn,
            ),
            (
                "time=2024-05-01T10:00:00Z level=debug msg=\"ERROR later\"",
                Level::Debug,
            ),
            (
                "2024-05-01T10:00:00Z\tFATAL\tpkg/x.go:1\tout of memory",
                Level::Fatal,
            ),
            ("2024-05-01 10:00:00 [Warning] mysqld: x", Level::Warn),
            ("<notice> x", Level::Notice),
            ("2024-05-01 10:00:00 TRACE x", Level::Trace),
            // Serilog's and .NET's level names.
            ("{\"level\":\"Verbose\",\"msg\":\"x\"}", Level::Trace),
            ("{\"level\":\"Information\",\"msg\":\"x\"}", Level::Info),
            (
                "2024-05-01 10:00:00 INFO job done with ERROR code",
                Level::Info,
            ),
            (
                "Mar 14 08:01:29 mx1 postfix/smtpd[27028]: warning: hostname x",
                Level::Warn,
            ),
            (
                "Mar 14 08:01:29 mx1 postfix/qmgr[2]: fatal: no",
                Level::Fatal,
            ),
            ("[4121] 2026/03/12 14:00:03.512353 [WRN] slow", Level::Warn),
            (
                "2028-04-02-10.11.12.123456-300 I1200E512   LEVEL: Warning",
                Level::Warn,
            ),
        ];
        for (line, want) in cases {
            assert_eq!(lv(line), want, "{line}");
        }
    }

    #[test]
    fn words_that_are_not_levels() {
        for line in [
            "",
            "connection error while reading",
            "ValueError: bad",
            "ERROR_CODE=5",
            "ERRORS=5 total",
            "ERROR5 x",
            "\tat com.example.Error.run(Error.java:3)",
            "sent ALERT to pager",
            "info: lower-case word",
            "app[1]: request failed: error while reading",
            "INF without brackets",
            "{\"msg\":\"x\",\"level\":\"loud\"}",
            "mylevel=error",
        ] {
            assert_eq!(lv(line), Level::None, "{line}");
        }
    }

    #[test]
    fn message_starts_after_the_level() {
        let line = b"2024-05-01 10:00:00 [error] 12#0: x";
        assert_eq!(detect(line, 19), Some((Level::Error, 27)));
        let line = b"x ERROR y";
        assert_eq!(detect(line, 0), Some((Level::Error, 7)));
        let line = b"a level=\"warn\" b";
        assert_eq!(detect(line, 0), Some((Level::Warn, 14)));
    }
}
