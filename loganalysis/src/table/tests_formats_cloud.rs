//! Cloud and cluster edge access logs (Classic ELB, CloudFront, S3, ingress-nginx) planted
//! line by line: the format is detected and every figure matches the one counted here.

use std::collections::{BTreeMap, BTreeSet};

use llmops_common::query::Measure;

use super::tests_formats::{
    class, count, distinct, eq, format_of, groups, nearest_rank, stat, tag, Lcg,
};

#[test]
fn classic_elb_counts_statuses_clients_and_backend_times_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name =
        "111122223333_elasticloadbalancing_eu-west-1_media-front_20310914T2240Z_10.0.0.9_a1b2.log";
    let clients = ["203.0.113.40", "198.51.100.8", "192.0.2.14"];
    let paths = ["/v2/thumbs/88", "/v2/upload", "/health"];
    let statuses = [200, 200, 200, 204, 301, 404, 500, 503, 504];
    let mut rng = Lcg(11);
    let mut text = String::new();
    let (mut fives, mut times, mut sent) = (BTreeMap::new(), Vec::new(), 0u64);
    let mut seen = BTreeSet::new();
    for i in 0..600u32 {
        let client = clients[rng.next(3) as usize];
        let path = paths[rng.next(3) as usize];
        let status = statuses[rng.next(9) as usize];
        let bytes = rng.next(90_000);
        // A 503 or 504 the balancer answered itself: no backend, its times -1.
        let no_backend = status >= 503 && rng.next(2) == 0;
        let us = rng.next(2_500_000);
        let (backend, btime, bstatus) = if no_backend {
            ("-".to_string(), "-1".to_string(), "-".to_string())
        } else {
            times.push(us as f64 / 1e6);
            (
                format!("10.4.2.{}:8080", 17 + i % 3),
                format!("{}.{:06}", us / 1_000_000, us % 1_000_000),
                status.to_string(),
            )
        };
        if status >= 500 {
            *fives.entry(path.to_string()).or_insert(0u64) += 1;
        }
        sent += bytes;
        seen.insert(client);
        text.push_str(&format!(
            "2031-09-14T22:{:02}:{:02}.{i:06}Z media-front {client}:{} {backend} 0.000041 {btime} 0.000029 {status} {bstatus} 0 {bytes} \"GET https://media.example.org:443{path}?n={i} HTTP/1.1\" \"okhttp/4.12.0\" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2\n",
            40 + i / 60 % 20,
            i % 60,
            30000 + i,
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "aws_elb");
    let by_path = groups(d, name, vec![class("elb_status_code", 5.0)], "endpoint");
    assert_eq!(by_path, fives);
    assert_eq!(distinct(d, name, "client"), seen.len() as u64);
    assert_eq!(stat(d, name, Measure::Sum, "sent_bytes"), sent as f64);
    for (m, p) in [(Measure::Max, 100.0), (Measure::P90, 90.0)] {
        assert_eq!(
            stat(d, name, m, "backend_processing_time"),
            nearest_rank(&times, p)
        );
    }
    let slow = times.iter().filter(|&&t| t > 1.0).count() as u64;
    assert_eq!(count(d, name, vec![tag("slow_request")]), slow);
}

#[test]
fn cloudfront_reads_tab_separated_columns_with_seconds() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "E2QWRUHAPOMQZL.2031-07-02-03.a1b2c3d4";
    let mut text = String::from("#Version: 1.0\n#Fields: date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end\n");
    let results = ["Hit", "Hit", "Miss", "RefreshHit", "Error"];
    let paths = ["/media/intro.mp4", "/api/views", "/index.html"];
    let mut rng = Lcg(5);
    let (mut misses, mut taken, mut errors_by_path) = (0u64, Vec::new(), BTreeMap::new());
    let mut bytes = 0u64;
    for i in 0..700u32 {
        let result = results[rng.next(5) as usize];
        let path = paths[rng.next(3) as usize];
        let status = if result == "Error" { 502 } else { 200 };
        let ms = rng.next(4000);
        let sc_bytes = rng.next(60_000);
        misses += u64::from(result == "Miss");
        taken.push(ms as f64 / 1000.0);
        bytes += sc_bytes;
        if status >= 500 {
            *errors_by_path.entry(path.to_string()).or_insert(0u64) += 1;
        }
        let fields = [
            "2031-07-02".to_string(),
            format!("03:{:02}:{:02}", i / 60 % 60, i % 60),
            "AMS54-C1".into(),
            sc_bytes.to_string(),
            format!("198.51.100.{}", 1 + i % 30),
            "GET".into(),
            "d2abcdef0123.cloudfront.net".into(),
            path.into(),
            status.to_string(),
            "-".into(),
            "Mozilla/5.0%20(X11;%20Linux%20x86_64)".into(),
            "-".into(),
            "-".into(),
            result.into(),
            format!("Xk3vQ9mX2fVZ3nC1w{i}=="),
            "video.example.net".into(),
            "https".into(),
            "211".into(),
            format!("{}.{:03}", ms / 1000, ms % 1000),
            "-".into(),
            "TLSv1.3".into(),
            "TLS_AES_128_GCM_SHA256".into(),
            result.into(),
            "HTTP/2.0".into(),
            "-".into(),
            "-".into(),
            (40000 + i).to_string(),
            "0.010".into(),
            result.into(),
            "text/html".into(),
            "78".into(),
            "-".into(),
            "-".into(),
        ];
        text.push_str(&fields.join("\t"));
        text.push('\n');
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "cloudfront");
    assert_eq!(
        count(d, name, vec![eq("x-edge-result-type", "Miss")]),
        misses
    );
    let by_path = groups(d, name, vec![class("sc-status", 5.0)], "endpoint");
    assert_eq!(by_path, errors_by_path);
    assert_eq!(stat(d, name, Measure::Sum, "sc-bytes"), bytes as f64);
    assert_eq!(
        stat(d, name, Measure::P95, "duration"),
        nearest_rank(&taken, 95.0)
    );
    assert_eq!(distinct(d, name, "client"), 30);
}

#[test]
fn ingress_nginx_reads_times_apart_from_lengths_and_the_last_attempt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "ingress-nginx-controller.log";
    let services = [
        "shop-orders-8080",
        "shop-cart-8080",
        "upstream-default-backend",
    ];
    let mut rng = Lcg(3);
    let mut text = String::new();
    let (mut times, mut by_service, mut answered_503, mut lengths) =
        (Vec::new(), BTreeMap::new(), 0u64, 0u64);
    for i in 0..500u32 {
        let service = services[rng.next(3) as usize];
        let ms = rng.next(4000);
        let length = 200 + rng.next(900);
        let retried = rng.next(4) == 0;
        let last_status = [200, 200, 503][rng.next(3) as usize];
        times.push(ms as f64 / 1000.0);
        lengths += length;
        *by_service.entry(service.to_string()).or_insert(0u64) += 1;
        answered_503 += u64::from(last_status == 503);
        let t = format!("{}.{:03}", ms / 1000, ms % 1000);
        let (addr, ulen, utime, ustatus) = if retried {
            (
                "10.4.0.7:8080, 10.4.1.9:8080".to_string(),
                "0, 512".to_string(),
                format!("0.500, {t}"),
                format!("502, {last_status}"),
            )
        } else {
            (
                "10.4.0.7:8080".to_string(),
                "512".to_string(),
                t.clone(),
                last_status.to_string(),
            )
        };
        text.push_str(&format!(
            "10.2.0.{} - - [01/May/2031:02:{:02}:{:02} +0000] \"GET /api/v1/items/{i} HTTP/1.1\" {last_status} 512 \"-\" \"okhttp/4.12.0\" {length} {t} [{service}] [] {addr} {ulen} {utime} {ustatus} {i:032x}\n",
            i % 9,
            i / 60 % 60,
            i % 60,
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "nginx_ingress");
    assert_eq!(
        stat(d, name, Measure::Max, "request_time"),
        nearest_rank(&times, 100.0)
    );
    assert_eq!(
        stat(d, name, Measure::Sum, "request_length"),
        lengths as f64
    );
    assert_eq!(
        groups(d, name, Vec::new(), "proxy_upstream_name"),
        by_service
    );
    assert_eq!(
        count(d, name, vec![eq("upstream_status", "503")]),
        answered_503
    );
}

#[test]
fn s3_access_counts_operations_errors_and_times_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "media-archive2031-02-06-00-00-38-5E2C6F7A8B9C0D1E";
    let ops = ["REST.GET.OBJECT", "REST.PUT.OBJECT", "REST.HEAD.OBJECT"];
    let mut rng = Lcg(17);
    let mut text = String::new();
    let (mut by_op, mut no_such_key, mut times, mut sent) =
        (BTreeMap::new(), 0u64, Vec::new(), 0u64);
    for i in 0..400u32 {
        let op = ops[rng.next(3) as usize];
        let missing = op != "REST.PUT.OBJECT" && rng.next(6) == 0;
        let (status, code) = if missing {
            (404, "NoSuchKey")
        } else {
            (200, "-")
        };
        let bytes = rng.next(80_000);
        let ms = 1 + rng.next(900);
        *by_op.entry(op.to_string()).or_insert(0u64) += 1;
        no_such_key += u64::from(missing);
        times.push(ms as f64);
        sent += bytes;
        text.push_str(&format!(
            "79a59df900b949e55d96a1e698fbacedfd6e09d98eacf8f8d5218e7cd47ef2be media-archive [06/Feb/2031:00:{:02}:{:02} +0000] 192.0.2.{} arn:aws:iam::111122223333:user/uploader 3E57427F3E{i:06} {op} clips/{i}.mp4 \"GET /media-archive/clips/{i}.mp4 HTTP/1.1\" {status} {code} {bytes} 90000 {ms} {} \"-\" \"aws-sdk-go-v2/1.24.0\" - hostid{i}= SigV4 ECDHE-RSA-AES128-GCM-SHA256 AuthHeader media-archive.s3.eu-west-1.amazonaws.com TLSv1.2 - -\n",
            i / 60 % 60,
            i % 60,
            i % 5,
            ms / 2,
        ));
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "aws_s3");
    assert_eq!(groups(d, name, Vec::new(), "operation"), by_op);
    assert_eq!(
        count(d, name, vec![eq("error_code", "NoSuchKey")]),
        no_such_key
    );
    assert_eq!(count(d, name, vec![class("http_status", 4.0)]), no_such_key);
    assert_eq!(stat(d, name, Measure::Sum, "bytes_sent"), sent as f64);
    assert_eq!(
        stat(d, name, Measure::P95, "total_time"),
        nearest_rank(&times, 95.0)
    );
}

/// A Lambda function's log as `aws logs tail --format detailed` prints it: cold starts (a
/// `REPORT` with an `Init Duration`), timeouts, the highest memory used and the mean
/// duration match the planted invocations.
#[test]
fn aws_lambda_reports_count_cold_starts_and_read_their_figures_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let name = "thumbnailer.log";
    let stream = "2031/05/01/[$LATEST]0f1e2d3c4b5a69788796a5b4c3d2e1f0";
    let mut rng = Lcg(5);
    let mut text = String::new();
    let (mut cold, mut timeouts, mut max_mem, mut durations) = (0u64, 0u64, 0u64, Vec::new());
    for i in 0..300u32 {
        let t = format!("2031-05-01T01:{:02}:{:02}", i / 60, i % 60);
        let id = format!("{:08x}-1553-41a8-a3bb-d549945a{:04x}", 0x5e00_0000 + i, i);
        let is_cold = rng.next(7) == 0;
        if is_cold {
            text.push_str(&format!(
                "{t}.100000+00:00 {stream} INIT_START Runtime Version: python:3.12.v18\n"
            ));
        }
        text.push_str(&format!(
            "{t}.200000+00:00 {stream} START RequestId: {id} Version: $LATEST\n"
        ));
        text.push_str(&format!(
            "{t}.210000+00:00 {stream} {t}.210Z\t{id}\tINFO\tqueued job {i} kind=thumbnail\n"
        ));
        let timeout = rng.next(25) == 0;
        let ms = if timeout {
            15000.0 + rng.next(50) as f64 / 100.0
        } else {
            rng.next(90_000) as f64 / 100.0
        };
        let mem = 60 + rng.next(200);
        max_mem = max_mem.max(mem);
        durations.push(ms);
        let init = if is_cold {
            format!("\tInit Duration: {}.{:02} ms", 150 + rng.next(200), i % 100)
        } else {
            String::new()
        };
        let status = if timeout { "\tStatus: timeout" } else { "" };
        if timeout {
            text.push_str(&format!(
                "{t}.900000+00:00 {stream} {t}.900Z {id} Task timed out after 15.00 seconds\n"
            ));
        }
        text.push_str(&format!("{t}.950000+00:00 {stream} END RequestId: {id}\n"));
        text.push_str(&format!(
            "{t}.950000+00:00 {stream} REPORT RequestId: {id}\tDuration: {ms:.2} ms\tBilled Duration: {} ms\tMemory Size: 512 MB\tMax Memory Used: {mem} MB{init}{status}\t\n",
            ms.ceil()
        ));
        cold += u64::from(is_cold);
        timeouts += u64::from(timeout);
    }
    std::fs::write(dir.path().join(name), &text).expect("write");
    let d = dir.path();
    assert_eq!(format_of(d, name), "aws_lambda");
    assert_eq!(count(d, name, vec![tag("cold_start")]), cold);
    assert_eq!(count(d, name, vec![eq("status", "timeout")]), timeouts);
    assert_eq!(
        stat(d, name, Measure::Max, "max_memory_used"),
        max_mem as f64
    );
    let mean = stat(d, name, Measure::Mean, "duration");
    let want = durations.iter().sum::<f64>() / durations.len() as f64;
    assert!((mean - want).abs() < 1e-6, "{mean} {want}");
}
