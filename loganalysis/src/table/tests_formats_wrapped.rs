//! Formats among other lines: a specific format written through syslog with other lines of
//! the same program between (the specific format is the file's when it reads nine lines in
//! ten), and an access log on the same stdout as a server's multi-line error log (each
//! access line its own event); the figures match the planted ones.

use llmops_common::query::Measure;

use super::tests_formats::{class, count, format_of, nearest_rank, stat, Lcg};

#[test]
fn haproxy_requests_between_its_notices_are_haproxys() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "haproxy.log";
    let mut rng = Lcg(29);
    let (mut text, mut fives, mut ta) = (String::new(), 0u64, Vec::new());
    for i in 0..400u32 {
        let (m, s) = (i / 60 % 60, i % 60);
        // One line in 16 is the proxy's own notice, not a request.
        if i % 16 == 0 {
            text.push_str(&format!(
                "May  1 02:{m:02}:{s:02} lb01 haproxy[23817]: Server be_api/api{} is UP, reason: Layer7 check passed, code: 200, check duration: 3ms.\n",
                i % 3
            ));
            continue;
        }
        let status = [200, 200, 200, 304, 404, 502, 503][rng.next(7) as usize];
        let total = 5 + rng.next(3000);
        fives += u64::from(status >= 500);
        ta.push(total as f64);
        text.push_str(&format!(
            "May  1 02:{m:02}:{s:02} lb01 haproxy[23817]: 192.0.2.{}:{} [01/May/2031:02:{m:02}:{s:02}.{:03}] https-in~ be_api/api{} 0/0/1/{}/{total} {status} {} - - ---- 40/39/32/15/0 0/0 \"GET /api/v1/items/{i} HTTP/1.1\"\n",
            i % 50,
            30000 + i,
            i % 1000,
            i % 3,
            total.saturating_sub(2),
            100 + rng.next(9000),
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "haproxy_http");
    assert_eq!(count(d, name, vec![class("status", 5.0)]), fives);
    assert_eq!(stat(d, name, Measure::Max, "ta"), nearest_rank(&ta, 100.0));
    assert_eq!(stat(d, name, Measure::P95, "ta"), nearest_rank(&ta, 95.0));
}

#[test]
fn access_lines_among_gunicorn_error_lines_are_their_own_events() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "web-stdout.log";
    let mut rng = Lcg(37);
    let mut text = String::from(
        "[2031-05-01 02:00:00 +0000] [1] [INFO] Starting gunicorn 22.0.0\n[2031-05-01 02:00:00 +0000] [8] [INFO] Booting worker with pid: 8\n",
    );
    let (mut fives, mut micros, mut requests) = (0u64, Vec::new(), 0u64);
    for i in 0..300u32 {
        let (m, s) = (i / 60 % 60, i % 60);
        if i % 40 == 39 {
            text.push_str(&format!(
                "[2031-05-01 02:{m:02}:{s:02} +0000] [8] [ERROR] Exception on /api/cart [POST]\nTraceback (most recent call last):\n  File \"/app/views.py\", line 41, in cart\nKeyError: 'sku'\n"
            ));
            continue;
        }
        let status = [200, 200, 201, 302, 404, 500][rng.next(6) as usize];
        let us = 900 + rng.next(600_000);
        requests += 1;
        fives += u64::from(status >= 500);
        micros.push(us as f64);
        text.push_str(&format!(
            "10.0.0.{} - - [01/May/2031:02:{m:02}:{s:02} +0000] \"GET /api/items/{i}/ HTTP/1.1\" {status} {} \"-\" \"okhttp/4.12.0\" {us}\n",
            i % 20,
            100 + rng.next(9000),
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(count(d, name, vec![class("status", 5.0)]), fives);
    assert_eq!(
        count(d, name, vec![super::tests_formats::eq("method", "GET")]),
        requests
    );
    assert_eq!(
        stat(d, name, Measure::Max, "duration"),
        nearest_rank(&micros, 100.0)
    );
}
