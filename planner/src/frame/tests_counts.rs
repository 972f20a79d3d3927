//! Counts asked in other words, over planted logs and through the log engine: a count of a
//! field's values, the busiest groups, number words as limits, errors in logs without
//! levels, a status class written against Chinese, a code or a count after "last". Each
//! figure is checked against the one computed here from the planted lines.

use std::collections::{BTreeMap, BTreeSet};

use llmops_common::query::{QueryResult, QueryValue};

use super::tests_answers::Planted;

/// One planted access-log line: its client, path and status.
pub(super) struct Line {
    pub(super) client: String,
    pub(super) path: String,
    pub(super) status: u16,
}

/// An access log: client `10.0.0.i` sends `20 - 3i` requests (7 clients) over five paths
/// in turn; every 9th request is a 503 and every 13th a 404.
pub(super) fn access() -> (String, Vec<Line>) {
    let mut left: Vec<u32> = (0..7).map(|i| 20 - 3 * i).collect();
    let (mut text, mut lines) = (String::new(), Vec::new());
    let mut n = 0u32;
    while left.iter().any(|&l| l > 0) {
        for (i, l) in left.iter_mut().enumerate() {
            if *l == 0 {
                continue;
            }
            *l -= 1;
            n += 1;
            let status = match n {
                n if n % 9 == 0 => 503,
                n if n % 13 == 0 => 404,
                _ => 200,
            };
            let client = format!("10.0.0.{i}");
            let path = format!("/api/p{}", n % 5);
            text.push_str(&format!(
                "{client} - - [09/May/2031:01:{:02}:{:02} +0000] \"GET {path} HTTP/1.1\" {status} 512 \"-\" \"curl/8.0\"\n",
                n / 60,
                n % 60
            ));
            lines.push(Line {
                client,
                path,
                status,
            });
        }
    }
    (text, lines)
}

pub(super) fn number(r: &QueryResult) -> u64 {
    match r.value {
        QueryValue::Count { count } | QueryValue::Distinct { count } => count,
        ref other => panic!("not a number: {other:?}"),
    }
}

/// The planted clients by their number of requests, most first (ties by name).
fn by_requests(lines: &[Line]) -> Vec<(String, u64)> {
    let mut m: BTreeMap<&str, u64> = BTreeMap::new();
    for l in lines {
        *m.entry(&l.client).or_default() += 1;
    }
    let mut v: Vec<(String, u64)> = m.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v
}

fn groups(r: &QueryResult) -> Vec<(String, u64)> {
    match &r.value {
        QueryValue::Groups { rows, .. } => {
            rows.iter().map(|g| (g.key.join(" "), g.count)).collect()
        }
        other => panic!("not groups: {other:?}"),
    }
}

#[test]
fn a_count_asked_of_a_field_counts_its_values() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let clients: BTreeSet<&str> = lines.iter().map(|l| l.client.as_str()).collect();
    for q in [
        "how many clients are there in edge.log",
        "edge.log 里有几个客户端",
        "edge.log 的客户端有多少个",
        "edge.log client count",
        "edge.log 客户端有几个",
    ] {
        let r = log.answer(q);
        assert!(matches!(r.value, QueryValue::Distinct { .. }), "{q}: {r:?}");
        assert_eq!(number(&r), clients.len() as u64, "{q}");
    }
    let failing: BTreeSet<&str> = lines
        .iter()
        .filter(|l| l.status == 503)
        .map(|l| l.client.as_str())
        .collect();
    let r = log.answer("how many client IPs got a 503 in edge.log");
    assert_eq!(number(&r), failing.len() as u64);
    // The events themselves, when they are what is counted.
    assert_eq!(
        number(&log.answer("how many requests are in edge.log")),
        lines.len() as u64
    );
    let of_3 = lines.iter().filter(|l| l.client == "10.0.0.3").count() as u64;
    for q in [
        "edge.log 里 10.0.0.3 有多少个请求",
        "what's client 10.0.0.3's request count in edge.log",
    ] {
        let r = log.answer(q);
        assert!(matches!(r.value, QueryValue::Count { .. }), "{q}: {r:?}");
        assert_eq!(number(&r), of_3, "{q}");
    }
}

#[test]
fn the_busiest_and_top_n_in_words_rank_the_groups() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let want = by_requests(&lines);
    for (q, n) in [
        ("the 3 busiest clients in edge.log", 3),
        ("edge.log 最繁忙的三个客户端", 3),
        ("top five clients in edge.log", 5),
        ("edge.log 请求最多的前五个客户端", 5),
        ("edge.log 哪5个客户端请求最多", 5),
        ("edge.log 请求数前5的客户端", 5),
        ("edge.log 请求最多的前六个客户端", 6),
    ] {
        assert_eq!(groups(&log.answer(q)), want[..n].to_vec(), "{q}");
    }
}

#[test]
fn an_error_in_a_log_without_levels_is_what_that_log_calls_one() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let server_errors = lines.iter().filter(|l| l.status >= 500).count() as u64;
    for q in [
        "how many requests returned an error in edge.log",
        "edge.log 有多少请求出错",
        "how many server errors are in edge.log",
    ] {
        assert_eq!(number(&log.answer(q)), server_errors, "{q}");
    }
    let client_errors = lines
        .iter()
        .filter(|l| (400..500).contains(&l.status))
        .count();
    let r = log.answer("edge.log 客户端错误有多少");
    assert_eq!(number(&r), client_errors as u64);
    // Neither levels nor a status: the word in the events, as `grep -ci error` counts.
    let mut json = String::new();
    for i in 0..30 {
        let event = if i % 6 == 0 {
            "sync error: timeout"
        } else {
            "sync ok"
        };
        json.push_str(&format!(
            "{{\"ts\":\"2031-05-09T01:00:{i:02}Z\",\"user\":\"u{}\",\"event\":\"{event}\"}}\n",
            i % 4
        ));
    }
    let grep = json
        .lines()
        .filter(|l| l.to_lowercase().contains("error"))
        .count();
    let log = Planted::new("sync.jsonl", &json);
    assert_eq!(
        number(&log.answer("how many errors are in sync.jsonl")),
        grep as u64
    );
}

#[test]
fn a_status_class_against_chinese_is_the_class() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let five = lines.iter().filter(|l| l.status / 100 == 5).count() as u64;
    for q in [
        "edge.log 有多少个5xx",
        "edge.log 返回5xx的请求有多少",
        "edge.log里5xx有几个",
    ] {
        assert_eq!(number(&log.answer(q)), five, "{q}");
    }
}

/// A 3-digit code over a log whose status is a word (postfix's `status=sent`) is the code
/// as the lines write it (an SMTP reply), counted as `grep -cw` counts it.
#[test]
fn a_code_in_a_log_whose_status_is_a_word_is_its_text() {
    let mut text = String::new();
    for i in 0..60 {
        let t = format!("Mar  7 03:{:02}:{:02}", i / 60, i % 60);
        if i % 5 == 0 {
            text.push_str(&format!(
                "{t} mail postfix/smtpd[456]: NOQUEUE: reject: RCPT from x{i}[192.0.2.{i}]: 421 4.7.0 Try again later; from=<a{i}@example.org> to=<b@example.net> proto=ESMTP helo=<x{i}>\n"
            ));
        } else {
            let st = if i % 3 == 0 {
                "deferred (timed out)"
            } else {
                "sent (250 2.0.0 OK)"
            };
            text.push_str(&format!(
                "{t} mail postfix/smtp[123]: 4F1A{i:02}: to=<u{i}@example.net>, relay=mx[198.51.100.9]:25, delay=1.{}, dsn=2.0.0, status={st}\n",
                i % 10
            ));
        }
    }
    let grep = text
        .lines()
        .filter(|l| {
            l.split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == "421")
        })
        .count() as u64;
    let log = Planted::new("maillog", &text);
    for q in ["how many 421 are in maillog", "maillog 里 421 一共多少次"] {
        assert_eq!(number(&log.answer(q)), grep, "{q}");
    }
    let sent = text.lines().filter(|l| l.contains("status=sent")).count() as u64;
    assert_eq!(number(&log.answer("how many status=sent in maillog")), sent);
}

/// "the last 504" is the latest event with that status; "the last 200 requests" the 200
/// latest events, in either language.
#[test]
fn a_code_after_last_is_a_status_and_a_count_with_its_noun_is_rows() {
    for text in [
        "when was the last 504 in access.log",
        "access.log 里最后一个 504 是什么时候",
    ] {
        let f = super::tests::frame(text);
        assert_eq!(f["measure"], "rows", "{text}: {f}");
        assert_eq!(f["limit"], 1, "{text}: {f}");
        assert_eq!(
            f["filters"],
            serde_json::json!([{"field": "status", "op": "eq", "value": 504.0}]),
            "{text}: {f}"
        );
    }
    for text in [
        "the last 200 requests in access.log",
        "access.log 最后 200 条请求",
    ] {
        let f = super::tests::frame(text);
        assert_eq!(f["measure"], "rows", "{text}: {f}");
        assert_eq!(f["limit"], 200, "{text}: {f}");
        assert!(f.get("filters").is_none(), "{text}: {f}");
    }
    // A code in the plural is those responses when the status holds it; otherwise seconds.
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let r = log.answer("show me the last 503s in edge.log");
    let last_503 = text
        .lines()
        .rfind(|l| l.contains("\" 503 "))
        .expect("a planted 503");
    let llmops_common::query::QueryValue::Rows { rows, .. } = &r.value else {
        panic!("not rows: {:?}", r.value);
    };
    assert_eq!(rows.first().map(|x| x.text.as_str()), Some(last_503));
    assert!(lines.iter().any(|l| l.status == 503));
    // "503s": several of them, the latest first, as many as a list shows.
    let latest: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\" 503 "))
        .rev()
        .take(llmops_common::query::Query::DEFAULT_LIMIT as usize)
        .collect();
    assert!(latest.len() > 1, "several planted 503s");
    let shown: Vec<&str> = rows.iter().map(|x| x.text.as_str()).collect();
    assert_eq!(shown, latest);
    assert_eq!(r.query.window, None, "{:?}", r.query);
    assert_eq!(
        r.query.filters,
        vec![llmops_common::query::Filter::new(
            Some(llmops_common::query::Field::new("status")),
            llmops_common::query::FilterOp::Eq,
            llmops_common::query::Scalar::Number(503.0)
        )]
    );
    let f = super::tests::frame("requests in access.log in the last 120s");
    assert_eq!(
        f["window"],
        serde_json::json!({"last": {"seconds": 120}}),
        "{f}"
    );
    assert!(f.get("filters").is_none(), "{f}");
}

/// "how many processes did the OOM killer kill": one process per kill, though the killed
/// programs' names repeat (the kernel names the program, each kill a new pid).
#[test]
fn processes_killed_are_counted_by_kill_not_by_name() {
    let mut text = String::new();
    for i in 0..12u32 {
        let name = ["java", "node", "java"][(i % 3) as usize];
        text.push_str(&format!(
            "Mar  7 03:00:{i:02} web-1 kernel: [{}.123456] Out of memory: Killed process {} ({name}) total-vm:812000kB, anon-rss:640000kB\n",
            1000 + i,
            4000 + i
        ));
        text.push_str(&format!(
            "Mar  7 03:00:{i:02} web-1 kernel: [{}.223456] eth0: link up\n",
            1000 + i
        ));
    }
    let kills = text
        .lines()
        .filter(|l| l.contains("Killed process"))
        .count() as u64;
    let log = Planted::new("kern.log", &text);
    for q in [
        "how many processes did the OOM killer kill in kern.log",
        "kern.log 里 OOM 一共 kill 了多少个进程",
    ] {
        assert_eq!(number(&log.answer(q)), kills, "{q}");
    }
}

/// "list the paths that returned a 503": each path once, with its count of them.
#[test]
fn a_listed_field_in_the_plural_lists_its_values() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for l in lines.iter().filter(|l| l.status == 503) {
        *want.entry(l.path.clone()).or_default() += 1;
    }
    for q in [
        "list the paths that returned a 503 in edge.log",
        "edge.log 里返回过 503 的路径有哪些",
    ] {
        let got: BTreeMap<String, u64> = groups(&log.answer(q)).into_iter().collect();
        assert_eq!(got, want, "{q}");
    }
}
/// "total bytes sent", "总流量": the bytes summed, as `awk '{s+=$10} END {print s}'`.
#[test]
fn total_bytes_are_the_bytes_summed() {
    let (text, _) = access();
    let log = Planted::new("edge.log", &text);
    let want: f64 = text
        .lines()
        .filter_map(|l| l.split_whitespace().nth(9)?.parse::<f64>().ok())
        .sum();
    for q in ["total bytes sent in edge.log", "edge.log 的总流量是多少"] {
        match log.answer(q).value {
            QueryValue::Stat { value, .. } => assert_eq!(value, Some(want), "{q}"),
            other => panic!("{q}: {other:?}"),
        }
    }
}

/// "有没有 504", "是不是有 504", "有 504 吗": asked yes or no, the answer is their count;
/// neither 不 of 是不是 nor 没 of 有没有 negates it.
#[test]
fn a_yes_no_question_counts_what_it_asks_about() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let n = lines.iter().filter(|l| l.status == 503).count() as u64;
    for q in [
        "edge.log 里有没有 503",
        "edge.log 是不是有 503",
        "edge.log 里有 503 吗",
        "are there any 503s in edge.log",
    ] {
        assert_eq!(number(&log.answer(q)), n, "{q}");
    }
}

/// "which class threw the most exceptions": the loggers ranked by their events with an
/// exception, the exception no second key.
#[test]
fn the_most_exceptions_rank_the_class_asked_for() {
    let plan = [
        ("org.acme.ledger.SyncJob", 5u64),
        ("org.acme.ledger.RateCache", 3),
        ("org.acme.ledger.AuditClient", 1),
    ];
    let (mut text, mut t) = (String::new(), 0);
    for (logger, n) in plan {
        for i in 0..n + 4 {
            t += 1;
            let clock = format!("2027-03-09 03:{:02}:{:02},118", t / 60, t % 60);
            if i < n {
                text.push_str(&format!(
                    "{clock} ERROR [pool-1-thread-{i}] {logger} - call failed\njava.net.SocketTimeoutException: Read timed out\n\tat java.base/java.net.SocketInputStream.read(SocketInputStream.java:168)\n"
                ));
            } else {
                text.push_str(&format!("{clock} INFO  [main] {logger} - ok {i}\n"));
            }
        }
    }
    let log = Planted::new("svc.log", &text);
    let want: Vec<(String, u64)> = plan.iter().map(|(l, n)| (l.to_string(), *n)).collect();
    for q in [
        "which class threw the most exceptions in svc.log",
        "svc.log 里哪个类抛出的异常最多",
        "svc.log 抛异常最多的 logger 是哪个",
    ] {
        assert_eq!(groups(&log.answer(q)), want, "{q}");
    }
}

/// "what caused the LedgerSyncException", "LedgerSyncException 是什么引起的": over a Java log that
/// writes causes, the named exception's events grouped by their "Caused by:".
#[test]
fn the_cause_of_a_named_exception_groups_its_causes() {
    let causes = [
        ("java.net.ConnectException", 4u64),
        ("java.net.SocketTimeoutException", 2),
    ];
    let (mut text, mut t) = (String::new(), 0);
    for (cause, n) in causes {
        for _ in 0..n {
            t += 1;
            text.push_str(&format!(
                "2027-03-09 03:00:{t:02},118 ERROR [pool-1-thread-1] org.acme.ledger.SyncJob - sync failed\norg.acme.ledger.LedgerSyncException: ledger sync failed\n\tat org.acme.ledger.SyncJob.run(SyncJob.java:88)\nCaused by: {cause}: refused\n\t... 12 more\n"
            ));
        }
        t += 1;
        text.push_str(&format!(
            "2027-03-09 03:00:{t:02},200 INFO  [main] org.acme.ledger.RateCache - ok\n"
        ));
    }
    let log = Planted::new("svc.log", &text);
    let want: Vec<(String, u64)> = causes.iter().map(|(c, n)| (c.to_string(), *n)).collect();
    for q in [
        "what caused the LedgerSyncException in svc.log",
        "svc.log 里 LedgerSyncException 是什么引起的",
        "what is the cause of the LedgerSyncException errors in svc.log",
    ] {
        assert_eq!(groups(&log.answer(q)), want, "{q}");
    }
}

/// "between 1 and 2 seconds", "1 到 2 秒之间": at least the low end, at most the high one,
/// as `awk '$rt >= 1 && $rt <= 2'` counts.
#[test]
fn a_range_of_a_measure_is_both_bounds() {
    let mut text = String::new();
    for i in 0..40u32 {
        text.push_str(&format!(
            "10.0.0.1 - - [09/May/2031:01:00:{i:02} +0000] \"GET /a HTTP/1.1\" 200 512 \"-\" \"curl/8.0\" rt={:.3}\n",
            f64::from(i) / 10.0
        ));
    }
    let want = (0..40u32)
        .map(|i| f64::from(i) / 10.0)
        .filter(|rt| (1.0..=2.0).contains(rt))
        .count() as u64;
    let log = Planted::new("edge.log", &text);
    for q in [
        "how many requests in edge.log took between 1 and 2 seconds",
        "edge.log 里耗时在1到2秒之间的请求有多少",
        "how many requests in edge.log took 1000 to 2000 ms",
        "how many requests in edge.log took 1-2s",
    ] {
        assert_eq!(number(&log.answer(q)), want, "{q}");
    }
}

/// A range of codes is a range of statuses, named or not ("400 to 499", "400-499"); two
/// codes joined by "and" are those two codes.
#[test]
fn a_range_of_codes_is_a_range_of_statuses() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let four = lines
        .iter()
        .filter(|l| (400..=499).contains(&l.status))
        .count() as u64;
    for q in [
        "how many 400 to 499 responses in edge.log",
        "edge.log 里 status 400-499 的请求有多少",
        "how many requests in edge.log had a status between 400 and 499",
    ] {
        assert_eq!(number(&log.answer(q)), four, "{q}");
    }
    let two = lines
        .iter()
        .filter(|l| matches!(l.status, 404 | 503))
        .count() as u64;
    assert_eq!(number(&log.answer("how many 404 and 503 in edge.log")), two);
}

/// "how many requests were rate limited", "被限流的请求有多少": an access log's 429s; in an
/// app's own log, the lines that say so.
#[test]
fn rate_limited_requests_are_an_access_logs_429s() {
    let mut text = String::new();
    for i in 0..30u32 {
        let status = if i % 4 == 0 { 429 } else { 200 };
        text.push_str(&format!(
            "10.0.0.{} - - [09/May/2031:01:00:{i:02} +0000] \"GET /a HTTP/1.1\" {status} 17 \"-\" \"curl/8.0\"\n",
            i % 3
        ));
    }
    let want = text.lines().filter(|l| l.contains("\" 429 ")).count() as u64;
    let log = Planted::new("gw.log", &text);
    for q in [
        "how many requests were rate limited in gw.log",
        "gw.log 里被限流的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), want, "{q}");
    }
    let mut app = String::new();
    for i in 0..20u32 {
        let msg = if i % 5 == 0 {
            "rate limit exceeded for tenant t1"
        } else {
            "quote priced"
        };
        app.push_str(&format!("2031-05-09 01:00:{i:02},000 WARN [api] {msg}\n"));
    }
    let grep = app.lines().filter(|l| l.contains("rate limit")).count() as u64;
    let log = Planted::new("api.log", &app);
    for q in [
        "how many requests were throttled in api.log",
        "how many rate limit errors in api.log",
    ] {
        assert_eq!(number(&log.answer(q)), grep, "{q}");
    }
}

/// "最高的每秒请求数", "峰值每秒请求数": the busiest second and its count.
#[test]
fn the_highest_count_per_second_is_the_peak_second() {
    let mut text = String::new();
    let mut most = 0u64;
    for s in 0..10u32 {
        let n = u64::from(s % 4 + 1) + u64::from(s == 7) * 3;
        most = most.max(n);
        for _ in 0..n {
            text.push_str(&format!(
                "10.0.0.1 - - [09/May/2031:01:00:{s:02} +0000] \"GET /a HTTP/1.1\" 200 17 \"-\" \"curl/8.0\"\n"
            ));
        }
    }
    let log = Planted::new("gw.log", &text);
    for q in ["gw.log 最高的每秒请求数是多少", "gw.log 峰值每秒请求数"] {
        match log.answer(q).value {
            QueryValue::Buckets { peak: Some(p), .. } => {
                assert_eq!(p.count, most, "{q}");
                assert!(p.start.ends_with("01:00:07"), "{q}: {}", p.start);
            }
            other => panic!("{q}: {other:?}"),
        }
    }
}

/// "requests from 10.0.0.0/30": the network's addresses (`/30`: the last octet 0 to 3), as
/// the planted clients of `access()` fall in or out of it.
#[test]
fn a_network_is_its_addresses() {
    assert_eq!(
        super::build_filters::network_pattern("10.20.0.0/16").as_deref(),
        Some(r"^10\.20\.")
    );
    assert_eq!(
        super::build_filters::network_pattern("10.20.16.0/20").as_deref(),
        Some(r"^10\.20\.(?:16|17|18|19|20|21|22|23|24|25|26|27|28|29|30|31)\b")
    );
    assert_eq!(
        super::build_filters::network_pattern("10.0.0.7/32").as_deref(),
        Some(r"^10\.0\.0\.7$")
    );
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let inside = |l: &&Line| {
        l.client
            .rsplit('.')
            .next()
            .and_then(|o| o.parse::<u32>().ok())
            < Some(4)
    };
    let want = lines.iter().filter(inside).count() as u64;
    for q in [
        "how many requests in edge.log came from 10.0.0.0/30",
        "edge.log 里 10.0.0.0/30 发了多少请求",
    ] {
        assert_eq!(number(&log.answer(q)), want, "{q}");
    }
}

/// "状态码分布" is the statuses counted, and "success rate" the 2xx with their share, as
/// the planted lines hold them.
#[test]
fn a_distribution_of_statuses_and_the_success_rate_match_the_lines() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let mut want: BTreeMap<String, u64> = BTreeMap::new();
    for l in &lines {
        *want.entry(l.status.to_string()).or_default() += 1;
    }
    for q in [
        "edge.log 状态码分布",
        "distribution of status codes in edge.log",
    ] {
        let got: BTreeMap<String, u64> = groups(&log.answer(q)).into_iter().collect();
        assert_eq!(got, want, "{q}");
    }
    let ok = lines.iter().filter(|l| l.status / 100 == 2).count() as u64;
    for q in [
        "what is the success rate of edge.log",
        "edge.log 的成功率是多少",
    ] {
        let r = log.answer(q);
        assert_eq!(number(&r), ok, "{q}");
        assert!(r
            .query
            .filters
            .iter()
            .any(|f| f.op == llmops_common::query::FilterOp::Class));
    }
}

/// "WARN 及以上", "warnings and above", "errors or worse": the level and the more severe
/// ones, counted against the planted lines.
#[test]
fn a_level_and_above_takes_the_more_severe_levels() {
    let levels = ["DEBUG", "INFO", "INFO", "WARN", "ERROR", "FATAL"];
    let mut text = String::new();
    for i in 0..240usize {
        text.push_str(&format!(
            "2031-04-02 05:{:02}:{:02},000 {:<5} [main] c.e.Sorter - parcel {i} sorted\n",
            i / 60,
            i % 60,
            levels[i * 7 % levels.len()]
        ));
    }
    let at_least = |from: usize| {
        (0..240usize)
            .filter(|i| {
                levels
                    .iter()
                    .position(|l| *l == levels[i * 7 % levels.len()])
                    >= Some(from)
            })
            .count() as u64
    };
    let log = Planted::new("sorter.log", &text);
    for (q, from) in [
        ("sorter.log 中 WARN 及以上共多少条", 3),
        ("how many warnings and above in sorter.log", 3),
        ("errors or worse in sorter.log, how many", 4),
        // The level said twice, once with "or worse", is the range.
        ("in sorter.log, errors: error or worse, how many", 4),
    ] {
        assert_eq!(number(&log.answer(q)), at_least(from), "{q}");
    }
}
