//! `key=value` pairs written inside a free-text message (`poll failed station="KF-3"
//! attempt=4`): klog's structured form, logrus text, most hand-written app logs; and the
//! `"key": value` members of a JSON object written after a message (zap's console encoder,
//! `msg {"order":"A-1","ms":12}`). Keys seen in the sample become fields of the file, read
//! out of the message when a query asks. Also the pairs of a whole logfmt line.

use llmops_common::query::Unit;

/// Longest key taken as one.
const MAX_KEY: usize = 40;
/// A key must occur in at least this many sampled events (or in every one of fewer) to
/// become a field: one `a=b` in one message is text, not a column.
pub const MIN_EVENTS: usize = 2;

fn key_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')
}

/// What may stand before a key: the start, a space or an opening bracket or comma.
fn boundary(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b',' | b'(' | b'[' | b'{' | b';' | b'\'')
}

/// The end of a value starting at `i` (after `=`): a double-quoted string with `\`
/// escapes (the quotes excluded from the value), else up to a space or closing bracket.
fn value_at(msg: &[u8], i: usize) -> (usize, usize, usize) {
    if msg.get(i) == Some(&b'"') {
        let mut j = i + 1;
        while j < msg.len() && msg[j] != b'"' {
            j += if msg[j] == b'\\' { 2 } else { 1 };
        }
        let end = j.min(msg.len());
        return (i + 1, end, (end + 1).min(msg.len()));
    }
    let mut j = i;
    while j < msg.len()
        && !matches!(
            msg[j],
            b' ' | b'\t' | b',' | b')' | b']' | b'}' | b';' | b'\''
        )
    {
        j += 1;
    }
    (i, j, j)
}

/// Every `key=value` pair in `msg`: (key start, key end, value start, value end).
pub fn pairs(msg: &[u8]) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b'=', &msg[i..]) {
        let eq = i + p;
        let mut ks = eq;
        while ks > 0 && key_byte(msg[ks - 1]) {
            ks -= 1;
        }
        let key_ok = ks < eq
            && eq - ks <= MAX_KEY
            && msg[ks].is_ascii_alphabetic()
            && (ks == 0 || boundary(msg[ks - 1]))
            && msg.get(eq + 1) != Some(&b'=');
        if key_ok {
            let (vs, ve, next) = value_at(msg, eq + 1);
            out.push((ks, eq, vs, ve));
            i = next.max(eq + 1);
        } else {
            i = eq + 1;
        }
        if i >= msg.len() {
            break;
        }
    }
    out.extend(json_members(msg));
    out.extend(colon_numbers(msg));
    out.sort_unstable();
    out
}

/// `key: number` pairs (`status: 200 len: 1234 time: 0.0512`, the tail of a Python WSGI
/// line): a word key, a colon and blanks, then a number with at most a unit's letters. A
/// text after `key:` is not taken: `error: connection refused` is a message, not a field.
fn colon_numbers(msg: &[u8]) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b':', &msg[i..]) {
        let colon = i + p;
        i = colon + 1;
        let mut ks = colon;
        while ks > 0 && (msg[ks - 1].is_ascii_alphanumeric() || msg[ks - 1] == b'_') {
            ks -= 1;
        }
        let key_ok = ks < colon
            && colon - ks <= MAX_KEY
            && msg[ks].is_ascii_alphabetic()
            && (ks == 0 || boundary(msg[ks - 1]));
        let mut vs = colon + 1;
        while matches!(msg.get(vs), Some(b' ' | b'\t')) {
            vs += 1;
        }
        if !key_ok || vs == colon + 1 {
            continue;
        }
        let (_, ve, _) = value_at(msg, vs);
        // With a unit word after it, the number alone would read in the wrong unit: the
        // pair is left to the format.
        if number_with_unit(&msg[vs..ve]) && unit_word_after(msg, ve).is_none() {
            out.push((ks, colon, vs, ve));
            i = ve.max(i);
        }
    }
    out
}

/// The unit written as its own word after the number ending at `end` (PostgreSQL's
/// `duration: 12.3 ms`, an app's `took=109 ms`): a word that names one, then the text's
/// end, a space or a punctuation mark.
pub(super) fn unit_word_after(msg: &[u8], end: usize) -> Option<Unit> {
    if msg.get(end) != Some(&b' ') {
        return None;
    }
    unit_word(&msg[end + 1..])
}

/// The unit word `rest` starts with (`ms`, `seconds`, `MB`), whatever follows it.
pub(super) fn unit_word(rest: &[u8]) -> Option<Unit> {
    let word = &rest[..rest
        .iter()
        .position(|b| !b.is_ascii_alphabetic())
        .unwrap_or(rest.len())];
    let unit = match word.to_ascii_lowercase().as_slice() {
        b"ns" => Unit::Ns,
        b"us" => Unit::Us,
        b"ms" | b"msec" | b"msecs" => Unit::Ms,
        b"s" | b"sec" | b"secs" | b"seconds" => Unit::S,
        b"min" | b"mins" | b"minutes" => Unit::Min,
        b"b" | b"bytes" => Unit::B,
        b"kb" | b"kib" => Unit::Kib,
        b"mb" | b"mib" => Unit::Mib,
        b"gb" | b"gib" => Unit::Gib,
        b"ml" => Unit::Ml,
        b"kg" => Unit::Kg,
        _ => return None,
    };
    Some(unit)
}

/// `1234`, `0.0512`, `12ms`, `3.5KB`: digits, an optional fraction, at most two letters.
fn number_with_unit(v: &[u8]) -> bool {
    let digits = v.iter().take_while(|b| b.is_ascii_digit()).count();
    let mut j = digits;
    if v.get(j) == Some(&b'.') {
        let frac = v[j + 1..].iter().take_while(|b| b.is_ascii_digit()).count();
        if frac == 0 {
            return false;
        }
        j += 1 + frac;
    }
    let letters = v.len() - j;
    digits > 0 && letters <= 2 && v[j..].iter().all(u8::is_ascii_alphabetic)
}

/// The scalar `"key": value` members in `msg` (a nested object or array is skipped; its own
/// scalar members are found as members too).
fn json_members(msg: &[u8]) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(p) = memchr::memchr(b':', &msg[i..]) {
        let colon = i + p;
        i = colon + 1;
        if colon < 2 || msg[colon - 1] != b'"' {
            continue;
        }
        let ke = colon - 1;
        let mut ks = ke;
        while ks > 0 && key_byte(msg[ks - 1]) {
            ks -= 1;
        }
        // The member opens the object or follows a comma (spaces between allowed).
        let opener = msg[..ks.saturating_sub(1)]
            .iter()
            .rev()
            .find(|b| !matches!(b, b' ' | b'\t'));
        let key_ok = ks < ke
            && ke - ks <= MAX_KEY
            && ks >= 2
            && msg[ks - 1] == b'"'
            && matches!(opener, Some(b'{' | b','))
            && msg[ks].is_ascii_alphabetic();
        let mut vs = colon + 1;
        while matches!(msg.get(vs), Some(b' ')) {
            vs += 1;
        }
        if !key_ok || matches!(msg.get(vs), None | Some(b'{' | b'[')) {
            continue;
        }
        let (a, b, next) = value_at(msg, vs);
        out.push((ks, ke, a, b));
        i = next.max(i);
    }
    out
}

/// The value of `key` in `msg`, as a span of `msg`.
pub fn find(msg: &[u8], key: &str) -> Option<(usize, usize)> {
    pairs(msg)
        .into_iter()
        .find(|&(ks, ke, _, _)| &msg[ks..ke] == key.as_bytes())
        .map(|(_, _, vs, ve)| (vs, ve))
}

/// The pairs of a record's own syntax, over every line of an event: `KEY : value` with
/// a key of upper-case letters in aligned columns (Db2's `PID     : 31207   TID : 1402`, `AUTHID  :
/// BATCHUSR`) and `Key(value)` (IBM MQ's `Process(5310.7) User(mqm) Program(amqrmppa)`).
/// A level word is no key (`ERROR: disk full` is a message).
pub fn record_pairs(text: &[u8]) -> Vec<(usize, usize, usize, usize)> {
    let mut out = Vec::new();
    let n = text.len();
    let mut i = 0;
    while i < n {
        let starts = i == 0 || matches!(text[i - 1], b' ' | b'\t' | b'\n');
        if !starts || !text[i].is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        let ks = i;
        while i < n && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
            i += 1;
        }
        let key = &text[ks..i];
        if key.len() < 2 || key.len() > MAX_KEY {
            continue;
        }
        if text.get(i) == Some(&b'(') {
            let vs = i + 1;
            let ve = vs
                + text[vs..]
                    .iter()
                    .position(|b| matches!(b, b')' | b'(' | b' ' | b'\t' | b'\n'))
                    .unwrap_or(n - vs);
            let closed = text.get(ve) == Some(&b')')
                && text.get(ve + 1).is_none_or(|b| b.is_ascii_whitespace());
            if closed && ve > vs && key[0].is_ascii_uppercase() {
                out.push((ks, i, vs, ve));
                i = ve + 1;
            }
            continue;
        }
        let mut c = i;
        while c < n && text[c] == b' ' {
            c += 1;
        }
        // Letters only: `AMQ9209E: Connection …` is a message's id, not a key.
        let upper = key.iter().all(|b| b.is_ascii_uppercase() || *b == b'_');
        let level = crate::level::word_level(key).is_some();
        if c < n && text[c] == b':' && upper && !level && matches!(text.get(c + 1), Some(b' ')) {
            let mut vs = c + 1;
            while vs < n && text[vs] == b' ' {
                vs += 1;
            }
            let ve = vs
                + text[vs..]
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .unwrap_or(n - vs);
            if ve > vs {
                out.push((ks, i, vs, ve));
                i = ve;
            }
        }
    }
    out
}

/// The length of a line's leading `[tag] ` prefixes.
pub fn leading_tags(line: &[u8]) -> usize {
    let mut at = 0;
    while line.get(at) == Some(&b'[') {
        match memchr::memchr(b']', &line[at..]) {
            Some(end) if line.get(at + end + 1) == Some(&b' ') => at += end + 2,
            _ => break,
        }
    }
    at
}

/// `key=value` pairs from `from` on (values bare or double-quoted): key and value spans.
/// `None` when a word is not a pair.
pub fn logfmt_pairs(line: &[u8], from: usize) -> Option<Vec<(u32, u32, u32, u32)>> {
    let mut out = Vec::new();
    let mut i = from;
    let n = line.len();
    while i < n {
        while i < n && line[i] == b' ' {
            i += 1;
        }
        if i >= n {
            break;
        }
        let ks = i;
        while i < n && line[i] != b'=' && line[i] != b' ' {
            i += 1;
        }
        if i >= n || line[i] != b'=' || i == ks {
            return None;
        }
        let ke = i;
        i += 1;
        let (vs, ve) = if line.get(i) == Some(&b'"') {
            let vs = i + 1;
            let j = closing(line, vs, b'"')?;
            i = j + 1;
            (vs, j)
        } else if let Some(j) = single_quoted(line, i) {
            // Python's repr of a string (structlog's `event='job_failed'`).
            let vs = i + 1;
            i = j + 1;
            (vs, j)
        } else {
            let vs = i;
            while i < n && line[i] != b' ' {
                i += 1;
            }
            // A list nginx writes unquoted (`upstream=10.0.0.1:80, 10.0.0.2:80` when it
            // tried a second upstream): a word after a value ending in a comma, with no `=`
            // of its own, continues the value.
            while i + 1 < n && line[i - 1] == b',' && line[i] == b' ' {
                let next = i + 1;
                let end = line[next..]
                    .iter()
                    .position(|&b| b == b' ')
                    .map_or(n, |p| next + p);
                if end == next || line[next..end].contains(&b'=') {
                    break;
                }
                i = end;
            }
            // The last pair inside a single-quoted group (auditd's `msg='... res=failed'`)
            // ends before the quote that closes the group.
            let ve = if i > vs && line[i - 1] == b'\'' && line[vs] != b'\'' {
                i - 1
            } else {
                i
            };
            (vs, ve)
        };
        out.push((ks as u32, ke as u32, vs as u32, ve as u32));
    }
    Some(out)
}

/// The index of the `quote` that closes a value starting at `from` (a backslash escapes
/// the next byte); `None` when the line ends first.
fn closing(line: &[u8], from: usize, quote: u8) -> Option<usize> {
    let mut j = from;
    while j < line.len() && line[j] != quote {
        j += if line[j] == b'\\' { 2 } else { 1 };
    }
    (j < line.len()).then_some(j)
}

/// The closing quote of a single-quoted value at `at` that is one value: no `=` inside
/// (auditd's `msg='op=PAM:… res=failed'` is a group of pairs, read pair by pair) and a
/// space or the line's end after it.
fn single_quoted(line: &[u8], at: usize) -> Option<usize> {
    if line.get(at) != Some(&b'\'') {
        return None;
    }
    let j = closing(line, at + 1, b'\'')?;
    let one_value =
        !line[at + 1..j].contains(&b'=') && line.get(j + 1).is_none_or(|b| b.is_ascii_whitespace());
    let ends_a_pair =
        |q: usize| q + 1 == line.len() || (line[q + 1] == b' ' && next_pair(line, q + 2));
    if one_value && ends_a_pair(j) {
        return Some(j);
    }
    // A message quoted as is, with apostrophes and `=` inside (lograge's `error='Couldn't
    // find Product with 'id'=9'`): it ends at the quote before the next `key=` or the end.
    // A group that starts with a pair of its own (auditd's `msg='op=login res=failed'`)
    // is pairs, not one value.
    if next_pair(line, at + 1) {
        return None;
    }
    (at + 1..line.len())
        .find(|&q| line[q] == b'\'' && ends_a_pair(q))
        .or(one_value.then_some(j))
}

/// Whether a `key=` starts at `from`.
fn next_pair(line: &[u8], from: usize) -> bool {
    let rest = line.get(from..).unwrap_or_default();
    let k = rest
        .iter()
        .position(|b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-')))
        .unwrap_or(rest.len());
    k > 0 && rest.get(k) == Some(&b'=')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(msg: &str) -> Vec<(String, String)> {
        let b = msg.as_bytes();
        pairs(b)
            .into_iter()
            .map(|(a, k, v, e)| (msg[a..k].to_string(), msg[v..e].to_string()))
            .collect()
    }

    #[test]
    fn quoted_bare_and_escaped_values() {
        assert_eq!(
            all(r#""poll failed" station="KF-PIER-3" attempt=4 err="a \"b\" c""#),
            vec![
                ("station".into(), "KF-PIER-3".into()),
                ("attempt".into(), "4".into()),
                ("err".into(), r#"a \"b\" c"#.into()),
            ]
        );
        assert_eq!(
            all("retry (user=bob, dur=1.5s) done"),
            vec![("user".into(), "bob".into()), ("dur".into(), "1.5s".into())]
        );
    }

    #[test]
    fn members_of_a_json_object_after_the_message() {
        assert_eq!(
            all(r#"order failed	{"order": "A-1", "ms":12, "ctx":{"shard":3}, "ok":false}"#),
            vec![
                ("order".into(), "A-1".into()),
                ("ms".into(), "12".into()),
                ("shard".into(), "3".into()),
                ("ok".into(), "false".into()),
            ]
        );
        assert!(all(r#"said "hi": there"#).is_empty());
    }

    #[test]
    fn a_key_a_colon_and_a_number() {
        assert_eq!(
            all(r#"10.0.0.1 "GET /v2 HTTP/1.1" status: 404 len: 1234 time: 0.0512301"#),
            vec![
                ("status".into(), "404".into()),
                ("len".into(), "1234".into()),
                ("time".into(), "0.0512301".into()),
            ]
        );
        assert_eq!(
            all("flush took: 12ms, rows:3"),
            vec![("took".into(), "12ms".into())]
        );
        // A text, a clock or an address after the colon is no pair.
        assert!(all("error: connection refused").is_empty());
        // A unit written apart is left to the format (it would read in the wrong unit).
        assert!(all("duration: 12.3 ms statement: SELECT 1").is_empty());
        assert!(all("at: 10:00:01 host: 10.0.0.1 port: 80x80").is_empty());
    }

    fn record(text: &str) -> Vec<(String, String)> {
        record_pairs(text.as_bytes())
            .into_iter()
            .map(|(a, k, v, e)| (text[a..k].to_string(), text[v..e].to_string()))
            .collect()
    }

    #[test]
    fn a_records_aligned_keys_and_parenthesised_values() {
        let db2 = "2028-04-02-10.11.12.123456-300 I1200E512              LEVEL: Warning\n\
                   PID     : 31207                TID : 139911000000001 PROC : db2sysc 0\n\
                   AUTHID  : BATCHUSR              HOSTNAME: dbhost7\n\
                   MESSAGE : ADM5502W  The escalation of locks";
        let got = record(db2);
        for want in [
            ("PID", "31207"),
            ("TID", "139911000000001"),
            ("PROC", "db2sysc"),
            ("AUTHID", "BATCHUSR"),
            ("HOSTNAME", "dbhost7"),
            ("MESSAGE", "ADM5502W"),
        ] {
            assert!(
                got.contains(&(want.0.into(), want.1.into())),
                "{want:?} in {got:?}"
            );
        }
        let mq = "03/13/2026 10:04:43 PM - Process(5310.7) User(mqm) Program(amqrmppa)\n\
                  \x20                   Host(mqhost3) Installation(Installation1)";
        assert_eq!(
            record(mq),
            vec![
                ("Process".into(), "5310.7".into()),
                ("User".into(), "mqm".into()),
                ("Program".into(), "amqrmppa".into()),
                ("Host".into(), "mqhost3".into()),
                ("Installation".into(), "Installation1".into()),
            ]
        );
        // Calls, lower-case words before a colon and a colon without a blank are no pairs.
        assert!(record("ERROR: disk full; retry connect(fd) after Timeout(30s)x").is_empty());
        assert!(record("error: refused at 10:00:01 URL:http://x").is_empty());
        assert!(record("AMQ9209E: Connection to host closed.").is_empty());
    }

    #[test]
    fn not_pairs_query_strings_comparisons_and_numbers() {
        assert!(all("GET /x?id=3&b=4 HTTP/1.1").is_empty());
        assert!(all("if a==b then").is_empty());
        assert!(all("x 3=4 y").is_empty());
        assert_eq!(find(b"a=1 b=2", "b"), Some((6, 7)));
        assert_eq!(find(b"a=1 b=2", "c"), None);
        assert_eq!(all("trailing key="), vec![("key".into(), String::new())]);
    }

    fn logfmt(line: &str) -> Vec<(String, String)> {
        let b = line.as_bytes();
        logfmt_pairs(b, 0)
            .expect("pairs")
            .into_iter()
            .map(|(a, k, v, e)| {
                let (a, k, v, e) = (a as usize, k as usize, v as usize, e as usize);
                (line[a..k].to_string(), line[v..e].to_string())
            })
            .collect()
    }

    #[test]
    fn single_quoted_values_are_one_value_and_a_quoted_group_of_pairs_is_not() {
        assert_eq!(
            logfmt("timestamp='2034-03-07T00:30:06.199737Z' level='info' event='job failed' n=3"),
            vec![
                ("timestamp".into(), "2034-03-07T00:30:06.199737Z".into()),
                ("level".into(), "info".into()),
                ("event".into(), "job failed".into()),
                ("n".into(), "3".into()),
            ]
        );
        // auditd: the quoted group's pairs are read one by one.
        let got = logfmt("pid=1 msg='op=PAM:session_open acct=\"root\" res=success'");
        assert_eq!(got[1], ("msg".into(), "'op=PAM:session_open".into()));
        assert_eq!(got.last(), Some(&("res".into(), "success".into())));
    }

    #[test]
    fn an_unquoted_list_after_a_comma_is_one_value() {
        let got = logfmt("status=502 t=0.000, 0.020 up=10.0.0.1:80, 10.0.0.2:80, 10.0.0.3:80 n=2");
        assert_eq!(
            got,
            vec![
                ("status".into(), "502".into()),
                ("t".into(), "0.000, 0.020".into()),
                ("up".into(), "10.0.0.1:80, 10.0.0.2:80, 10.0.0.3:80".into()),
                ("n".into(), "2".into()),
            ]
        );
        // A comma before a pair ends the value there.
        assert_eq!(logfmt("a=x, b=y")[1], ("b".into(), "y".into()));
    }
}
