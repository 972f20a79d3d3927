//! Go `time.Duration` strings (`692µs`, `386.2ms`, `1m2.5s`) as seconds: how Go services
//! write durations in logfmt, JSON and `key=value` pairs.

/// Seconds per unit of a Go duration, longest unit names first.
const GO_UNITS: &[(&str, f64)] = &[
    ("ns", 1e-9),
    ("us", 1e-6),
    ("\u{b5}s", 1e-6),
    ("\u{3bc}s", 1e-6),
    ("ms", 1e-3),
    ("s", 1.0),
    ("m", 60.0),
    ("h", 3600.0),
];

/// A Go `time.Duration` string (`692µs`, `386.2ms`, `1m2.5s`, `-1.5h`) in seconds.
pub fn go_duration(b: &[u8]) -> Option<f64> {
    let s = std::str::from_utf8(b).ok()?.trim();
    let (sign, mut rest) = match s.strip_prefix('-') {
        Some(r) => (-1.0, r),
        None => (1.0, s.strip_prefix('+').unwrap_or(s)),
    };
    if rest.is_empty() {
        return None;
    }
    let mut total = 0.0;
    while !rest.is_empty() {
        let n = rest
            .bytes()
            .take_while(|c| c.is_ascii_digit() || *c == b'.')
            .count();
        let v: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let (unit, scale) = GO_UNITS.iter().find(|(u, _)| rest.starts_with(u))?;
        total += v * scale;
        rest = &rest[unit.len()..];
    }
    Some(sign * total)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations_in_seconds() {
        let d = |s: &str| go_duration(s.as_bytes());
        assert_eq!(d("692µs"), Some(692e-6));
        assert_eq!(d("692us"), Some(692e-6));
        assert_eq!(d("386.2ms"), Some(0.3862));
        assert_eq!(d("7.412803s"), Some(7.412803));
        assert_eq!(d("1m2.5s"), Some(62.5));
        assert_eq!(d("1h0m0s"), Some(3600.0));
        assert_eq!(d("-3s"), Some(-3.0));
        assert_eq!(d("12"), None);
        assert_eq!(d("ms"), None);
        assert_eq!(d("5 s"), None);
        assert_eq!(d("INFO"), None);
    }
}
