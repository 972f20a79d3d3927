//! Timestamp recognition checks: every form at the line start, epoch precisions, klog and
//! logcat forms read only when declared.
use super::*;

fn show(line: &str) -> Option<(String, Option<usize>)> {
    find(line.as_bytes()).map(|(t, e)| (format(&t, Precision::Full), e))
}

#[test]
fn epoch_times_in_four_precisions() {
    let at = |s: &str| epoch(s.as_bytes(), 0).map(|(t, e)| (format(&t, Precision::Full), e));
    let want = |frac: &str, end| Some((format!("2026-03-23T14:00:02{frac}Z"), end));
    assert_eq!(at("1774274402 x"), want("", 10));
    assert_eq!(at("1774274402785 x"), want(".785", 13));
    assert_eq!(at("1774274402785429 x"), want(".785429", 16));
    assert_eq!(at("1774274402785429933 x"), want(".785429", 19));
    // An id of nineteen digits is no time.
    assert_eq!(at("9223372036854775807"), None);
}

#[test]
fn ciscos_month_day_and_year() {
    assert_eq!(
        show("Mar 23 2026 14:00:02 fw01 : %ASA-6-302013: Built"),
        Some(("2026-03-23T14:00:02".to_string(), Some(20)))
    );
    assert_eq!(
        show("Mar  3 2026 04:00:02.250 fw01"),
        Some(("2026-03-03T04:00:02.250".to_string(), Some(24)))
    );
    // A syslog line whose host is a number is still syslog's form.
    assert_eq!(
        show("Mar 23 14:00:02 2026 x"),
        Some(("Mar 23 14:00:02".to_string(), Some(15)))
    );
}

#[test]
fn javas_medium_form_with_a_twelve_hour_clock() {
    assert_eq!(
        show("Nov 29, 2026 9:48:03 PM jenkins.Main run"),
        Some(("2026-11-29T21:48:03".to_string(), Some(23)))
    );
    assert_eq!(
        show("Dec 1, 2026 12:05:09 AM x"),
        Some(("2026-12-01T00:05:09".to_string(), Some(23)))
    );
    assert_eq!(show("Nov 29, 2026 13:48:03 PM x"), None);
}

#[test]
fn recognised_forms_and_prefix_end() {
    let cases: [(&str, &str, Option<usize>); 15] = [
        (
            "21 Aug 2027 17:00:00.123 * Ready",
            "2027-08-21T17:00:00.123",
            Some(24),
        ),
        (
            "21-Aug-2027 17:00:00.123 SEVERE [main]",
            "2027-08-21T17:00:00.123",
            Some(24),
        ),
        ("2024-05-01T10:00:00Z x", "2024-05-01T10:00:00Z", Some(20)),
        (
            "2024-05-01 10:00:00,123 - app",
            "2024-05-01T10:00:00.123",
            Some(23),
        ),
        (
            "2024-05-01T10:00:00.123456789+08:00 x",
            "2024-05-01T10:00:00.123456+08:00",
            Some(35),
        ),
        (
            "2024/05/01 10:00:07 [error] 1#0",
            "2024-05-01T10:00:07",
            Some(19),
        ),
        ("[2024-05-01 23:59:59] x", "2024-05-01T23:59:59", Some(21)),
        (
            "2031.06.03 02:00:00.050000 [ 1 ] {} <Information> x",
            "2031-06-03T02:00:00.050000",
            Some(26),
        ),
        (
            "May  1 10:00:00 web01 app[1]: x",
            "May  1 10:00:00",
            Some(15),
        ),
        ("Dec 31 23:59:59 h", "Dec 31 23:59:59", Some(15)),
        (
            "<34>1 2024-05-01T10:00:00.5-0700 h",
            "2024-05-01T10:00:00.5-07:00",
            Some(32),
        ),
        (
            "[Wed May 01 10:00:00.123456 2024] [core:error]",
            "2024-05-01T10:00:00.123456",
            Some(33),
        ),
        (
            "10.0.0.1 - - [01/May/2024:10:00:00 +0000] \"GET / HTTP/1.1\"",
            "2024-05-01T10:00:00+00:00",
            None,
        ),
        (
            "{\"level\":\"info\",\"ts\":1714557600.25,\"msg\":\"x\"}",
            "2024-05-01T10:00:00.25Z",
            None,
        ),
        (
            "{\"time\":\"2024-05-01T10:00:00+02:00\",\"msg\":\"x\"}",
            "2024-05-01T10:00:00+02:00",
            None,
        ),
    ];
    for (line, want, end) in cases {
        assert_eq!(show(line), Some((want.to_string(), end)), "{line}");
    }
    assert_eq!(
        show("time=2024-05-01T10:00:00Z level=error msg=x"),
        Some(("2024-05-01T10:00:00Z".into(), Some(25)))
    );
}

/// Forms of other locales and programs: IBM's dotted time with its minutes zone, a zone
/// after a blank (gunicorn), the day first with dots, Django's access time.
#[test]
fn more_recognised_forms() {
    let cases: [(&str, &str, Option<usize>); 7] = [
        (
            "2026-03-13-19.03.11.402118-300 E0E859 LEVEL: Event",
            "2026-03-13T19:03:11.402118-05:00",
            Some(30),
        ),
        (
            "[2029-07-03 09:12:44 +0000] [17] [WARNING] slow query",
            "2029-07-03T09:12:44+00:00",
            Some(27),
        ),
        (
            "2032-02-17 00:31:09 -1 queries",
            "2032-02-17T00:31:09",
            Some(19),
        ),
        (
            "17.02.2032 00:30:01.123 [W] carousel-2 : slot jammed",
            "2032-02-17T00:30:01.123",
            Some(23),
        ),
        (
            "[14/Mar/2026 09:02:32] \"GET /api/ HTTP/1.1\" 200 1746",
            "2026-03-14T09:02:32",
            Some(22),
        ),
        // A time of day alone at the line's start (logback's default console layout).
        (
            "10:00:00.123 [main] INFO  c.e.App - started",
            "10:00:00.123",
            Some(12),
        ),
        ("[10:00:00] time only", "10:00:00", Some(10)),
    ];
    for (line, want, end) in cases {
        assert_eq!(show(line), Some((want.to_string(), end)), "{line}");
    }
}

#[test]
fn klog_times_are_read_only_when_asked_for() {
    let (t, end) = klog(b"0821 17:00:00.123456 1", 0).expect("klog time");
    assert_eq!(
        (format(&t, Precision::Full), end, t.dated == Dated::NoYear),
        ("Aug 21 17:00:00.123456".to_string(), 20, true)
    );
    assert!(find(b"0821 17:00:00.123456 1 x.go:1] m").is_none());
    assert!(klog(b"1321 17:00:00", 0).is_none());
}

#[test]
fn rejects_non_timestamps() {
    for line in [
        "",
        "hello world",
        "2024-13-01 10:00:00 bad month",
        "2024-05-01 25:00:00 bad hour",
        "2024-05-01 no time",
        "10:00:00:12 a colon after the seconds",
        "10:00:0 short",
        "00:1a:2b:3c:4d:5e a mac address",
        "took 10:00:00 after a word",
        "Mayday 1 10:00:00",
        "\tat com.example.Foo.bar(Foo.java:12)",
        "{\"msg\":\"no time here\"}",
    ] {
        assert_eq!(show(line), None, "{line}");
    }
}

#[test]
fn civil_round_trip_and_order() {
    for days in [-800_000i64, -1, 0, 59, 60, 365, 11_016, 19_844, 2_932_896] {
        let (y, m, d) = civil_from_days(days);
        assert_eq!(days_from_civil(y, m, d), days);
    }
    assert_eq!(days_from_civil(1970, 1, 1), 0);
    assert_eq!(
        days_from_civil(2024, 3, 1) - days_from_civil(2024, 2, 28),
        2
    );
    let a = find(b"May  1 10:00:00 x").map(|t| t.0.key);
    let b = find(b"May 12 09:00:00 x").map(|t| t.0.key);
    assert!(a < b);
    let t = find(b"2024-05-01T10:07:00Z").map(|t| t.0);
    let t = t.expect("ts");
    assert_eq!(format(&t, Precision::Minute), "2024-05-01T10:07");
    assert_eq!(format(&t, Precision::Day), "2024-05-01");
}

#[test]
fn a_date_and_time_apart_by_more_blanks_is_one_time() {
    assert_eq!(
        show("Start-Date: 2031-04-05  06:07:08"),
        None,
        "not at the line start"
    );
    assert_eq!(
        show("2031-04-05  06:07:08 upgrade"),
        Some(("2031-04-05T06:07:08".to_string(), Some(20)))
    );
    assert_eq!(
        show("2031-04-05 06:07:08.250 x"),
        Some(("2031-04-05T06:07:08.250".to_string(), Some(23)))
    );
    // Gin's logger: a dash between blanks.
    assert_eq!(
        show("2031/04/05 - 06:07:08 | 200 |"),
        Some(("2031-04-05T06:07:08".to_string(), Some(21)))
    );
    assert_eq!(show("2031/04/05 - x"), None);
}

/// A syslog time placed by the newest dated event beside it: that year, or the year before
/// for a day after it (the December of a log that crossed the New Year).
#[test]
fn a_time_without_a_year_is_placed_by_the_newest_dated_event() {
    let at = |line: &str| find(line.as_bytes()).expect("a time").0;
    let jan = at("Jan  1 00:05:00 x").in_year((2031, 1, 1));
    let dec = at("Dec 31 23:55:00 x").in_year((2031, 1, 1));
    assert!(jan.dated.has_year() && dec.dated.has_year());
    assert_eq!(format(&jan, Precision::Full), "2031-01-01T00:05:00");
    assert_eq!(format(&dec, Precision::Full), "2030-12-31T23:55:00");
    assert!(dec.key < jan.key);
}
