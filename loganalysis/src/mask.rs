//! Message templates: variable parts of a message replaced by placeholders, in one byte scan.
//!
//! At a word start (the previous byte is not a letter, digit or `_`), in this order:
//! `<uuid>` (8-4-4-4-12 hex), `<ip>` (IPv4 a.b.c.d with octets <= 255; IPv6 with `::` or
//! 7 colons), `<hex>` (`0x` + hex digits, or a run of >= 6 hex characters holding a digit and
//! a letter a-f), `<dur>` (a number followed by ns, us, µs, ms, s, sec, secs, m, min, mins, h,
//! hr, hrs, chains like `1h2m3.5s`); right after `=`, `<id>` (a value whose letters and
//! digits alternate, `x=2l8x`, or any value of a key ending in `id`: `tid=owmlt`). Anywhere
//! else, every run of digits (with a `.digits`
//! fraction) becomes `<num>`: `user42` -> `user<num>`, `:8080` -> `:<num>`. Templates keep at
//! most [`MAX_TEMPLATE`] bytes (then `…`); leading and trailing whitespace is trimmed.

/// Longest template kept, in bytes (cut at a character boundary, then `…`).
pub const MAX_TEMPLATE: usize = 300;

#[inline]
fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

#[inline]
fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

fn hex_run(b: &[u8], i: usize, n: usize) -> bool {
    b.len() >= i + n && b[i..i + n].iter().all(|&c| is_hex(c))
}

/// End of the word-boundary check: true when `i` is the end or a non-word byte.
#[inline]
fn boundary(b: &[u8], i: usize) -> bool {
    i >= b.len() || !is_word(b[i])
}

fn uuid(b: &[u8], i: usize) -> Option<usize> {
    if b.len() < i + 36 {
        return None;
    }
    let ok = hex_run(b, i, 8)
        && b[i + 8] == b'-'
        && hex_run(b, i + 9, 4)
        && b[i + 13] == b'-'
        && hex_run(b, i + 14, 4)
        && b[i + 18] == b'-'
        && hex_run(b, i + 19, 4)
        && b[i + 23] == b'-'
        && hex_run(b, i + 24, 12)
        && boundary(b, i + 36);
    ok.then_some(i + 36)
}

fn ipv4(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    for part in 0..4 {
        let s = j;
        let mut v = 0u32;
        while j < b.len() && b[j].is_ascii_digit() && j - s < 3 {
            v = v * 10 + u32::from(b[j] - b'0');
            j += 1;
        }
        if j == s || v > 255 || (j < b.len() && b[j].is_ascii_digit()) {
            return None;
        }
        if part < 3 {
            if b.get(j) != Some(&b'.') {
                return None;
            }
            j += 1;
        }
    }
    // `1.2.3.4.5` is not an address.
    if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    boundary(b, j).then_some(j)
}

fn ipv6(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    let mut colons = 0;
    let mut double = false;
    let mut hexes = 0;
    while j < b.len() && (is_hex(b[j]) || b[j] == b':' || b[j] == b'.') {
        if b[j] == b':' {
            colons += 1;
            if j > i && b[j - 1] == b':' {
                if double {
                    return None;
                }
                double = true;
            }
        } else if b[j] != b'.' {
            hexes += 1;
        }
        j += 1;
    }
    // A trailing `:` belongs to the text (`addr ::1:` is rare, `host fe80::1: x` common).
    if j > i + 1 && b[j - 1] == b':' && b[j - 2] != b':' {
        j -= 1;
        colons -= 1;
    }
    if j == i || b[j - 1] == b'.' {
        return None;
    }
    let ok = hexes > 0 && (2..=7).contains(&colons) && (double || colons == 7) && boundary(b, j);
    ok.then_some(j)
}

fn hex_word(b: &[u8], i: usize) -> Option<usize> {
    if b[i] == b'0' && matches!(b.get(i + 1), Some(b'x' | b'X')) {
        let mut j = i + 2;
        while j < b.len() && is_hex(b[j]) {
            j += 1;
        }
        return (j > i + 2 && boundary(b, j)).then_some(j);
    }
    let mut j = i;
    let (mut digits, mut letters) = (0, 0);
    while j < b.len() && is_hex(b[j]) {
        if b[j].is_ascii_digit() {
            digits += 1;
        } else {
            letters += 1;
        }
        j += 1;
    }
    (j - i >= 6 && digits > 0 && letters > 0 && boundary(b, j)).then_some(j)
}

/// Digits with an optional `.digits` fraction.
fn number(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j < b.len() && b[j].is_ascii_digit() {
        j += 1;
    }
    if b.get(j) == Some(&b'.') && b.get(j + 1).is_some_and(u8::is_ascii_digit) {
        j += 1;
        while j < b.len() && b[j].is_ascii_digit() {
            j += 1;
        }
    }
    j
}

const UNITS: [&[u8]; 13] = [
    b"ns",
    b"us",
    "µs".as_bytes(),
    b"ms",
    b"secs",
    b"sec",
    b"s",
    b"mins",
    b"min",
    b"m",
    b"hrs",
    b"hr",
    b"h",
];

/// A duration starting at the digit `i`: `12ms`, `1.5s`, `1h2m3.5s`.
fn duration(b: &[u8], i: usize) -> Option<usize> {
    let mut j = i;
    let mut any = false;
    loop {
        if !b.get(j).is_some_and(u8::is_ascii_digit) {
            break;
        }
        let n = number(b, j);
        let unit = UNITS
            .iter()
            .find(|u| b[n..].starts_with(u))
            .map(|u| u.len());
        let Some(len) = unit else { break };
        let e = n + len;
        // The unit ends the word, or another number of the chain follows.
        if !(boundary(b, e) || b[e].is_ascii_digit()) {
            break;
        }
        j = e;
        any = true;
    }
    (any && boundary(b, j)).then_some(j)
}

/// Appends the template of `msg` to `out`.
/// A `key=value` pair's value whose letters and digits alternate at least twice each way
/// (`tid=2l8x`, `req=a9Bz07`): an id, whatever its alphabet. A number with its unit
/// (`512MB`) or a name with a digit (`Job2Runner`, `x86_64`) is none. Its end, when it is one.
fn pair_id(b: &[u8], i: usize) -> Option<usize> {
    let len = b[i..].iter().take_while(|&&c| is_word(c)).count();
    let v = &b[i..i + len];
    let class = |c: &u8| (c.is_ascii_digit(), c.is_ascii_alphabetic());
    let runs = 1 + v
        .windows(2)
        .filter(|w| class(&w[0]) != class(&w[1]))
        .count();
    (runs >= 4 && !v.contains(&b'_')).then_some(i + len)
}

/// The value of a pair whose key names an id (`tid=owmlt`, `req_id=ab12`, `jobId=x9`),
/// whatever its alphabet, when it holds a letter. Its end, when the key ends in `id`.
fn id_keyed(b: &[u8], i: usize) -> Option<usize> {
    let key_start = b[..i - 1]
        .iter()
        .rposition(|&c| !is_word(c))
        .map_or(0, |p| p + 1);
    let key = &b[key_start..i - 1];
    let len = b[i..].iter().take_while(|&&c| is_word(c)).count();
    // A number stays `<num>`, as every number does.
    let letters = b[i..i + len].iter().any(u8::is_ascii_alphabetic);
    // `id`, `tid`, `jid`, `req_id`, `trace-id`, `jobId`; not `valid` or `paid`.
    let ends = |suffix: &[u8]| key.ends_with(suffix);
    let id_key = key.eq_ignore_ascii_case(b"id")
        || (key.len() == 3 && key[1..].eq_ignore_ascii_case(b"id"))
        || ends(b"_id")
        || ends(b"-id")
        || ends(b".id")
        || (ends(b"Id") && key.len() > 2);
    (id_key && letters).then_some(i + len)
}

/// The message template: see the module's doc.
pub(crate) fn template(msg: &[u8], out: &mut Vec<u8>) {
    let base = out.len();
    let mut s = 0;
    while s < msg.len() && msg[s].is_ascii_whitespace() {
        s += 1;
    }
    let msg = &msg[s..];
    let n = msg.len();
    let mut i = 0;
    while i < n {
        if out.len() - base >= MAX_TEMPLATE {
            let mut cut = base + MAX_TEMPLATE;
            while cut > base && out.get(cut).is_some_and(|&c| c & 0xC0 == 0x80) {
                cut -= 1;
            }
            out.truncate(cut);
            out.extend_from_slice("…".as_bytes());
            return;
        }
        let b = msg[i];
        let word_start = i == 0 || !is_word(msg[i - 1]);
        if word_start && (is_hex(b) || b == b':') {
            if let Some(e) = uuid(msg, i) {
                out.extend_from_slice(b"<uuid>");
                i = e;
                continue;
            }
            if b.is_ascii_digit() {
                if let Some(e) = ipv4(msg, i) {
                    out.extend_from_slice(b"<ip>");
                    i = e;
                    continue;
                }
            }
            if let Some(e) = ipv6(msg, i) {
                out.extend_from_slice(b"<ip>");
                i = e;
                continue;
            }
            if b != b':' {
                if let Some(e) = hex_word(msg, i) {
                    out.extend_from_slice(b"<hex>");
                    i = e;
                    continue;
                }
            }
            if b.is_ascii_digit() {
                if let Some(e) = duration(msg, i) {
                    out.extend_from_slice(b"<dur>");
                    i = e;
                    continue;
                }
            }
        }
        if word_start && i > 0 && msg[i - 1] == b'=' {
            if let Some(e) = pair_id(msg, i).or_else(|| id_keyed(msg, i)) {
                out.extend_from_slice(b"<id>");
                i = e;
                continue;
            }
        }
        if b.is_ascii_digit() {
            out.extend_from_slice(b"<num>");
            i = number(msg, i);
            continue;
        }
        out.push(b);
        i += 1;
    }
    while out.len() > base && out.last().is_some_and(u8::is_ascii_whitespace) {
        out.pop();
    }
}

/// A request path's route: each segment that holds a digit (an id, a plate, an invoice
/// number: `/parcels/KX42ABC`, `/tickets/TK-2031-0042`) masked whole as `<id>`, an API
/// version (`v2`) kept. Masking digits alone (`KX<num>ABC`) would make every parcel a
/// route of its own. The caller drops the query string.
pub(crate) fn route(path: &[u8], out: &mut Vec<u8>) {
    let base = out.len();
    for (i, seg) in path.split(|&b| b == b'/').enumerate() {
        if out.len() - base >= MAX_TEMPLATE {
            out.extend_from_slice("…".as_bytes());
            return;
        }
        if i > 0 {
            out.push(b'/');
        }
        let version = (2..=3).contains(&seg.len())
            && seg[0] == b'v'
            && seg[1..].iter().all(u8::is_ascii_digit);
        if seg.iter().any(u8::is_ascii_digit) && !version {
            out.extend_from_slice(b"<id>");
        } else {
            out.extend_from_slice(seg);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> String {
        let mut out = Vec::new();
        template(s.as_bytes(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn a_route_masks_each_segment_with_a_digit_whole_and_keeps_an_api_version() {
        let r = |p: &str| {
            let mut out = Vec::new();
            route(p.as_bytes(), &mut out);
            String::from_utf8_lossy(&out).into_owned()
        };
        assert_eq!(r("/api/v1/parcels/KX42ABC"), "/api/v1/parcels/<id>");
        assert_eq!(r("/api/v1/parcels/ZZ07QRS"), "/api/v1/parcels/<id>");
        assert_eq!(r("/v2/tickets/TK-2031-0042/pdf"), "/v2/tickets/<id>/pdf");
        assert_eq!(r("/healthz"), "/healthz");
        assert_eq!(r("/"), "/");
    }

    #[test]
    fn placeholders() {
        let cases = [
            (
                "connect to 10.0.0.12:5432 failed after 1500ms",
                "connect to <ip>:<num> failed after <dur>",
            ),
            (
                "request 123e4567-e89b-12d3-a456-426614174000 done",
                "request <uuid> done",
            ),
            (
                "upstream [2001:db8::1]:8080 timed out",
                "upstream [<ip>]:<num> timed out",
            ),
            ("from ::1 and fe80::1%eth0", "from <ip> and <ip>%eth<num>"),
            (
                "pid=7 tid=2l8x class=Job2Runner user=bob jid=5ecfdd5b done",
                "pid=<num> tid=<id> class=Job<num>Runner user=bob jid=<hex> done",
            ),
            (
                "tid=owmlt req_id=abc1 jobId=x9 valid=yes",
                "tid=<id> req_id=<id> jobId=<id> valid=yes",
            ),
            (
                "ptr 0x7ffd5a3c and span 4bf92f3577b34da6",
                "ptr <hex> and span <hex>",
            ),
            (
                "GC pause 1.25s heap=512MB took 1h2m3.5s",
                "GC pause <dur> heap=<num>MB took <dur>",
            ),
            (
                "user42 order_839201 v1.2.3",
                "user<num> order_<num> v<num>.<num>",
            ),
            ("  disk 93% full  ", "disk <num>% full"),
            (
                "at 10:00:00 on 2024-05-01",
                "at <num>:<num>:<num> on <num>-<num>-<num>",
            ),
            (
                "deadbeef cafe std::vector Foo::bar",
                "deadbeef cafe std::vector Foo::bar",
            ),
            ("version 300.1.2.3 not ip", "version <num>.<num> not ip"),
            ("took 5 ms", "took <num> ms"),
            ("mac aa:bb:cc:dd:ee:ff", "mac aa:bb:cc:dd:ee:ff"),
            ("host fe80::1: up", "host <ip>: up"),
            ("1.2.3.4.5", "<num>.<num>.<num>"),
        ];
        for (input, want) in cases {
            assert_eq!(t(input), want, "{input}");
        }
    }

    #[test]
    fn long_and_invalid_input() {
        let long = "é".repeat(400);
        let out = t(&long);
        assert!(out.ends_with('…'));
        assert!(out.len() <= MAX_TEMPLATE + 3);
        let mut raw = Vec::new();
        template(b"bad \xFF\xFE byte 12", &mut raw);
        assert_eq!(raw, b"bad \xFF\xFE byte <num>");
    }
}
