//! What the dense embedder reads of a log chunk: volatile fields (timestamps, uuids, long
//! hex, IPv4 addresses, long numbers) replaced by short placeholders and repeated lines
//! kept once, so the model spends its tokens on the words. Only chunks that look like a
//! log (most lines carry a timestamp) are touched; any other text is returned as is, so
//! its embedding does not change. BM25 always indexes the raw text.

use std::borrow::Cow;
use std::collections::HashSet;

/// The placeholders (at most two SentencePiece tokens each in e5's vocabulary, checked by a
/// test in `passage_cache.rs`).
const UUID: &str = "uuid";
const HEX: &str = "hex";
const IP: &str = "IP";
const NUM: &str = "N";
const VERSION: &str = "V";

/// A number with this many digits or more is an id, a size or a counter: a placeholder.
const LONG_DIGITS: usize = 5;
/// A run of hex digits (with both digits and letters a-f) this long is a hash or address.
const LONG_HEX: usize = 8;

/// The dense side's text of `chunk`: normalised when it looks like a log, else unchanged.
pub fn dense_text(chunk: &str) -> Cow<'_, str> {
    if !looks_like_log(chunk) {
        return Cow::Borrowed(chunk);
    }
    let mut out = String::with_capacity(chunk.len());
    let mut seen: HashSet<String> = HashSet::new();
    for line in chunk.lines() {
        let n = normalise_line(line);
        let n = n.trim();
        if n.is_empty() || !seen.insert(n.to_string()) {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(n);
    }
    Cow::Owned(out)
}

/// True when at least half of the non-blank lines (and at least one) start with a
/// timestamp: a date, a time of day or a kernel uptime stamp (optionally in brackets),
/// or a syslog `Mon DD HH:MM:SS`; or carry a full date and time within their first
/// `EARLY_BYTES` (an access log's `[24/Nov/2026:10:00:00 +0000]` after the client address,
/// a JSON or logfmt line's `"ts":"2026-11-24T10:00:00Z"`).
pub fn looks_like_log(chunk: &str) -> bool {
    let (mut lines, mut stamped) = (0usize, 0usize);
    for line in chunk.lines() {
        if line.trim().is_empty() {
            continue;
        }
        lines += 1;
        if has_leading_stamp(line) || has_early_stamp(line) {
            stamped += 1;
        }
    }
    stamped > 0 && stamped * 2 >= lines
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

fn has_leading_stamp(line: &str) -> bool {
    let b = line.as_bytes();
    let mut i = run(b, 0, |c| c == b' ' || c == b'\t');
    if i >= b.len() {
        return false;
    }
    if stamp_len(b, i).is_some() {
        return true;
    }
    if b[i] == b'[' && i + 1 < b.len() && stamp_len(b, i + 1).is_some() {
        return true;
    }
    // Syslog: `Jun 24 14:36:27` (the day may be space-padded).
    if i + 4 <= b.len() && MONTHS.iter().any(|m| &b[i..i + 3] == m.as_bytes()) && b[i + 3] == b' ' {
        i += 4;
        i += run(b, i, |c| c == b' ');
        let d = run(b, i, |c| c.is_ascii_digit());
        if (1..=2).contains(&d) && b.get(i + d) == Some(&b' ') {
            return time_len(b, i + d + 1).is_some();
        }
    }
    false
}

/// How far into a line a date with a time still marks it as a log line (past the client
/// address and identity of an access log, a JSON line's first key).
const EARLY_BYTES: usize = 48;

/// A full date and time (not a bare time of day, which prose has too) starting at a field
/// boundary within the line's first `EARLY_BYTES`.
fn has_early_stamp(line: &str) -> bool {
    let b = line.as_bytes();
    (1..b.len().min(EARLY_BYTES)).any(|i| {
        boundary(b, i)
            && b[i].is_ascii_digit()
            && (clf_len(b, i).is_some() || stamp_len(b, i).is_some_and(|n| n > 10))
    })
}

/// The Common Log Format's stamp `24/Nov/2026:10:00:00` (and its ` +0000` zone).
fn clf_len(b: &[u8], i: usize) -> Option<usize> {
    if !(digits(b, i, 2)
        && b.get(i + 2) == Some(&b'/')
        && b.get(i + 3..i + 6)
            .is_some_and(|m| MONTHS.iter().any(|x| x.as_bytes() == m))
        && b.get(i + 6) == Some(&b'/')
        && digits(b, i + 7, 4)
        && b.get(i + 11) == Some(&b':'))
    {
        return None;
    }
    let mut j = i + 12 + time_len(b, i + 12)?;
    if b.get(j) == Some(&b' ') && matches!(b.get(j + 1), Some(b'+' | b'-')) && digits(b, j + 2, 4) {
        j += 6;
    }
    Some(j - i)
}

/// A field can start at `i` when the byte before is not a letter or digit, nor a dot
/// after one (`1.2.3.4.5` has no IP address inside).
fn boundary(b: &[u8], i: usize) -> bool {
    i == 0
        || !(b[i - 1].is_ascii_alphanumeric()
            || (b[i - 1] == b'.' && i >= 2 && b[i - 2].is_ascii_alphanumeric()))
}

/// How many bytes of `b[i..]` a run of `n` ASCII digits takes (exactly `n`).
fn digits(b: &[u8], i: usize, n: usize) -> bool {
    i + n <= b.len() && b[i..i + n].iter().all(u8::is_ascii_digit)
}

fn run(b: &[u8], i: usize, f: impl Fn(u8) -> bool) -> usize {
    b[i.min(b.len())..].iter().take_while(|&&c| f(c)).count()
}

/// A timestamp starting at `i`: `YYYY-MM-DD` / `YYYY/MM/DD` (with an optional `T` or
/// space and a time), a time of day `H:MM:SS` (fractions, `Z` or an offset), or a kernel
/// stamp `[ 12.345678]`. Returns its length.
fn stamp_len(b: &[u8], i: usize) -> Option<usize> {
    if b[i] == b'[' {
        let sp = run(b, i + 1, |c| c == b' ');
        let d = run(b, i + 1 + sp, |c| c.is_ascii_digit());
        let j = i + 1 + sp + d;
        if d > 0 && b.get(j) == Some(&b'.') {
            let f = run(b, j + 1, |c| c.is_ascii_digit());
            if f > 0 && b.get(j + 1 + f) == Some(&b']') {
                return Some(j + 2 + f - i);
            }
        }
        return None;
    }
    if digits(b, i, 4)
        && matches!(b.get(i + 4), Some(b'-' | b'/'))
        && digits(b, i + 5, 2)
        && b.get(i + 7) == b.get(i + 4)
        && digits(b, i + 8, 2)
    {
        let mut j = i + 10;
        if matches!(b.get(j), Some(b'T' | b' ')) {
            if let Some(t) = time_len(b, j + 1) {
                j += 1 + t;
            }
        }
        return Some(j - i);
    }
    time_len(b, i)
}

/// `H:MM:SS` or `HH:MM:SS`, optional `.fff` / `,fff`, optional `Z` or `+HH:MM` / `-HHMM`.
fn time_len(b: &[u8], i: usize) -> Option<usize> {
    let h = run(b, i, |c| c.is_ascii_digit());
    if !(1..=2).contains(&h) {
        return None;
    }
    let mut j = i + h;
    for _ in 0..2 {
        if b.get(j) != Some(&b':') || !digits(b, j + 1, 2) {
            return None;
        }
        j += 3;
    }
    if matches!(b.get(j), Some(b'.' | b',')) {
        let f = run(b, j + 1, |c| c.is_ascii_digit());
        if f > 0 {
            j += 1 + f;
        }
    }
    match b.get(j) {
        Some(b'Z') => j += 1,
        Some(b'+' | b'-') if digits(b, j + 1, 2) => {
            let mut k = j + 3;
            if b.get(k) == Some(&b':') {
                k += 1;
            }
            if digits(b, k, 2) {
                j = k + 2;
            }
        }
        _ => {}
    }
    // Not the start of something longer (a version like 1:22:33.4.5 is not a time).
    if b.get(j).is_some_and(|c| c.is_ascii_alphanumeric()) {
        return None;
    }
    Some(j - i)
}

fn uuid_len(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    for (k, n) in [8usize, 4, 4, 4, 12].into_iter().enumerate() {
        if k > 0 {
            if b.get(j) != Some(&b'-') {
                return None;
            }
            j += 1;
        }
        if run(b, j, |c| c.is_ascii_hexdigit()) != n {
            return None;
        }
        j += n;
    }
    Some(j - i)
}

/// `0x` + 4 or more hex digits, or a bare run of LONG_HEX+ hex digits holding both a digit
/// and a letter (so neither a word like `deadbeef` nor a plain number qualifies).
fn hex_len(b: &[u8], i: usize) -> Option<usize> {
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        let n = run(b, i + 2, |c| c.is_ascii_hexdigit());
        return (n >= 4).then_some(2 + n);
    }
    let n = run(b, i, |c| c.is_ascii_hexdigit());
    let s = &b[i..i + n];
    (n >= LONG_HEX && s.iter().any(u8::is_ascii_digit) && s.iter().any(u8::is_ascii_alphabetic))
        .then_some(n)
}

/// A digit, then digits, letters and `.+~:_-` with two digit groups joined by a dot and
/// a second dot or another separator or letter, 5 bytes or more, ending in a letter or
/// digit: a package or program version.
fn version_len(b: &[u8], i: usize) -> Option<usize> {
    if !b[i].is_ascii_digit() {
        return None;
    }
    let mut n = run(b, i, |c| {
        c.is_ascii_alphanumeric() || matches!(c, b'.' | b'+' | b'~' | b':' | b'_' | b'-')
    });
    while n > 0 && !b[i + n - 1].is_ascii_alphanumeric() {
        n -= 1;
    }
    let s = &b[i..i + n];
    let dotted = s
        .windows(3)
        .any(|w| w[0].is_ascii_digit() && w[1] == b'.' && w[2].is_ascii_digit());
    // A decimal like `1.234` is a measurement, not a version.
    let dots = s.iter().filter(|&&c| c == b'.').count();
    let more = s.iter().any(|&c| !c.is_ascii_digit() && c != b'.');
    (n >= 5 && dotted && (dots >= 2 || more)).then_some(n)
}

/// Dotted quad with an optional `:port`.
fn ipv4_len(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    for k in 0..4 {
        if k > 0 {
            if b.get(j) != Some(&b'.') {
                return None;
            }
            j += 1;
        }
        let d = run(b, j, |c| c.is_ascii_digit());
        if !(1..=3).contains(&d) {
            return None;
        }
        j += d;
    }
    // Not the start of a longer dotted number (a version, an OID).
    if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if b.get(j) == Some(&b':') {
        let p = run(b, j + 1, |c| c.is_ascii_digit());
        if p > 0 {
            j += 1 + p;
        }
    }
    Some(j - i)
}

/// The kinds of volatile field.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Field {
    /// Dates, times of day, kernel uptime stamps: removed.
    Timestamp,
    Uuid,
    /// `0x...` or a long run of hex digits (hashes, addresses, commit ids).
    Hex,
    /// IPv4 address, with its port if any.
    Ip,
    /// A number of LONG_DIGITS digits or more.
    Number,
    /// A dotted version (`252.36-1~deb12u1`, `3.11.7`, `2:1.2.3+dfsg-1`).
    Version,
}

impl Field {
    /// What the dense text has in its place (a timestamp carries no meaning a question
    /// asks for and is the longest field in tokens: nothing).
    pub fn placeholder(self) -> &'static str {
        match self {
            Field::Timestamp => "",
            Field::Uuid => UUID,
            Field::Hex => HEX,
            Field::Ip => IP,
            Field::Number => NUM,
            Field::Version => VERSION,
        }
    }
}

/// The volatile fields of one line: (byte range, kind), in order, not overlapping.
pub fn fields(line: &str) -> Vec<(std::ops::Range<usize>, Field)> {
    let b = line.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        if !boundary(b, i) || !(b[i].is_ascii_alphanumeric() || b[i] == b'[') {
            i += 1;
            continue;
        }
        let found: Option<(usize, Field)> = stamp_len(b, i)
            .or_else(|| clf_len(b, i))
            .map(|n| (n, Field::Timestamp))
            .or_else(|| uuid_len(b, i).map(|n| (n, Field::Uuid)))
            .or_else(|| ipv4_len(b, i).map(|n| (n, Field::Ip)))
            .or_else(|| hex_len(b, i).map(|n| (n, Field::Hex)))
            .or_else(|| version_len(b, i).map(|n| (n, Field::Version)))
            .or_else(|| {
                let n = run(b, i, |c| c.is_ascii_digit());
                (n >= LONG_DIGITS).then_some((n, Field::Number))
            });
        // A field ends at a non-alphanumeric byte (else it is part of a longer word).
        match found {
            Some((n, f)) if !b.get(i + n).is_some_and(|c| c.is_ascii_alphanumeric()) => {
                out.push((i..i + n, f));
                i += n;
            }
            // A bracket that opens no kernel stamp: the field may start after it.
            _ if b[i] == b'[' => i += 1,
            _ => {
                // Skip the rest of this word.
                i += 1;
                while i < b.len() && b[i].is_ascii_alphanumeric() {
                    i += 1;
                }
            }
        }
    }
    out
}

/// One line with its volatile fields replaced by their placeholders.
pub fn normalise_line(line: &str) -> String {
    let b = line.as_bytes();
    let mut out = String::with_capacity(line.len());
    let mut copied = 0;
    for (r, f) in fields(line) {
        // Fields start and end on ASCII bytes: char boundaries.
        out.push_str(&line[copied..r.start]);
        out.push_str(f.placeholder());
        copied = r.end;
        // A removed field leaves no double space behind.
        if f == Field::Timestamp && out.ends_with([' ', '\t']) {
            copied += run(b, copied, |c| c == b' ' || c == b'\t');
        }
    }
    out.push_str(&line[copied.min(line.len())..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_log_text_normalises_volatile_fields() {
        let chunk = "2025-06-24 14:36:25 upgrade libsystemd0:amd64 252.36-1~deb12u1\n\
                     2025-06-24T14:36:26.123Z sshd[811]: Connection refused from 10.0.0.7:22\n\
                     Jun 24 14:36:27 kernel: req 4f1c2a9e-0b7d-4c55-9a1e-2f6b3c8d9e10 at 0x7ffd12ab size 1048576\n\
                     [  123.456789] nvme0n1: I/O 423 QID 3 timeout, commit 3fa9c2e17b\n";
        assert!(looks_like_log(chunk));
        let d = dense_text(chunk);
        assert_eq!(
            d,
            "upgrade libsystemd0:amd64 V\n\
             sshd[811]: Connection refused from IP\n\
             Jun 24 kernel: req uuid at hex size N\n\
             nvme0n1: I/O 423 QID 3 timeout, commit hex"
        );
    }

    #[test]
    fn index_log_text_keeps_repeated_lines_once() {
        let chunk = "12:00:01 sshd[9]: Connection refused from 10.0.0.7\n\
                     12:00:02 sshd[9]: Connection refused from 10.0.0.8\n\
                     \n\
                     12:00:03 cron[4]: job done\n\
                     12:00:04 sshd[9]: Connection refused from 10.0.0.9\n";
        assert_eq!(
            dense_text(chunk),
            "sshd[9]: Connection refused from IP\ncron[4]: job done"
        );
    }

    #[test]
    fn index_log_text_access_and_json_logs_are_logs() {
        // The stamp is not at the start of an access log's lines.
        let access = "10.0.0.7 - - [24/Nov/2026:10:00:01 +0000] \"GET /api/orders?id=123456 HTTP/1.1\" 502 157 \"-\" \"curl/8.5.0\"\n\
                      10.0.0.8 - alice [24/Nov/2026:10:00:02 +0000] \"POST /login HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0\"\n";
        assert!(looks_like_log(access));
        assert_eq!(
            dense_text(access),
            "IP - - [] \"GET /api/orders?id=N HTTP/1.1\" 502 157 \"-\" \"curl/V\"\n\
             IP - alice [] \"POST /login HTTP/1.1\" 200 512 \"-\" \"Mozilla/5.0\""
        );
        let json = "{\"ts\":\"2026-11-24T10:00:01.120Z\",\"level\":\"error\",\"msg\":\"pool exhausted\"}\n\
                    {\"ts\":\"2026-11-24T10:00:02.481Z\",\"level\":\"info\",\"msg\":\"retry\"}\n";
        assert!(looks_like_log(json));
        assert!(dense_text(json).starts_with("{\"ts\":\"\",\"level\":\"error\""));
        // A date alone (no time) early in prose lines, or a time of day, is no log.
        for text in [
            "Released 2019-07-13 with the new block sorter.\nSee the changelog for 2019-07-13.\n",
            "The job runs at 10:00:00 every day.\nIt ends by 11:30:00.\n",
            "Backups from 24/Nov/2026 are kept for a week.\n",
        ] {
            assert!(!looks_like_log(text), "{text}");
        }
    }

    #[test]
    fn index_log_text_leaves_other_text_alone() {
        for text in [
            "bzip2 compresses files using the Burrows-Wheeler block sorting algorithm.\n\
             Released 2019-07-13; see https://sourceware.org/bzip2/ for 0xdeadbeef1 details.",
            "server {\n  listen 10.0.0.1:8080;\n  proxy_read_timeout 300000;\n}\n",
            "数据库连接超时，请检查 proxy_read_timeout 设置",
            "",
            "version 1:22:33.4.5 of the package",
        ] {
            assert!(matches!(dense_text(text), Cow::Borrowed(_)), "{text}");
        }
        // Words that merely look like fields are not fields.
        assert_eq!(
            normalise_line("deadbeef caf3babe12345 v12345 12345abc 1.2.3.4.5 1.234 a12:00:00"),
            "deadbeef hex v12345 hex V 1.234 a12:00:00"
        );
        assert_eq!(normalise_line("x 2024/01/02 y 12:30 z"), "x y 12:30 z");
        assert_eq!(normalise_line("é 12:00:00 ü"), "é ü");
    }
}
