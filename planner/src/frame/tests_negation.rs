//! Conditions said in the negative, over planted logs and through the log engine: a class,
//! a tag, a network, an address, a method, a comparison and a list negated before, after or
//! in a Chinese clause ("没有报错的请求"), and the questions that only look negative ("有没有",
//! "是不是"). Each figure is checked against the one computed here from the planted lines.

use super::tests_answers::Planted;
use super::tests_counts::{access, number};

#[test]
fn a_negated_class_tag_network_or_address_keeps_the_other_requests() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let count = |keep: &dyn Fn(&super::tests_counts::Line) -> bool| {
        lines.iter().filter(|l| keep(l)).count() as u64
    };
    let not_5xx = count(&|l| l.status / 100 != 5);
    for q in [
        "how many requests in edge.log were not 5xx",
        "how many non-5xx requests are in edge.log",
        "edge.log 不是5xx的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), not_5xx, "{q}");
    }
    // `!=` as written in a query language is a negation too.
    let not_200 = count(&|l| l.status != 200);
    assert!(not_200 > 0 && not_200 < lines.len() as u64);
    for q in [
        "how many requests in edge.log where status != 200",
        "edge.log 里 status!=200 的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), not_200, "{q}");
    }
    // "neither … nor": both negated.
    let other = count(&|l| l.status != 200 && l.status != 404);
    assert!(other > 0);
    for q in [
        "count edge.log requests whose code was neither 200 nor 404",
        "edge.log 里状态码既不是 200 也不是 404 的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), other, "{q}");
    }
    let ok = count(&|l| l.status < 500);
    for q in [
        "how many requests in edge.log did not fail",
        "edge.log 没有报错的请求有多少",
        "count the requests in edge.log except errors",
    ] {
        assert_eq!(number(&log.answer(q)), ok, "{q}");
    }
    let outside =
        count(&|l| !["10.0.0.0", "10.0.0.1", "10.0.0.2", "10.0.0.3"].contains(&l.client.as_str()));
    assert!(outside > 0 && outside < lines.len() as u64);
    for q in [
        "how many requests in edge.log were not from 10.0.0.0/30",
        "edge.log 里不是来自 10.0.0.0/30 的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), outside, "{q}");
    }
    // A list negated as a whole, by a negation before its first item or after its last.
    let neither = count(&|l| l.status != 404 && l.status != 503);
    assert!(neither < ok);
    for q in [
        "how many requests in edge.log were not 404 or 503",
        "edge.log 除了 404 和 503 以外的请求有多少",
        "requests in edge.log, 404s and 503s excluded",
        "how many non-404, non-503 requests are in edge.log",
    ] {
        assert_eq!(number(&log.answer(q)), neither, "{q}");
    }
    // Lines without a status are no requests "not 5xx" or "not 404".
    let with_junk = format!("{text}-- rotated --\nkernel: eth0 link up\n");
    let junk = Planted::new("edge-junk.log", &with_junk);
    let not_404 = count(&|l| l.status != 404);
    let r = junk.answer("how many requests in edge-junk.log were not 404");
    assert_eq!(number(&r), not_404);
    let r = junk.answer("how many requests in edge-junk.log were not 5xx");
    assert_eq!(number(&r), not_5xx);
    let others = count(&|l| l.client != "10.0.0.3");
    let r = log.answer("edge.log 除了 10.0.0.3 以外的请求有多少");
    assert_eq!(number(&r), others);
    // Questions, not negations.
    let failed = lines.len() as u64 - ok;
    for q in ["edge.log 有没有报错的请求", "edge.log 是不是有5xx"] {
        assert_eq!(number(&log.answer(q)), failed, "{q}");
    }
}

#[test]
fn a_negated_method_or_comparison_keeps_the_other_requests() {
    let mut text = String::new();
    let mut planted = Vec::new();
    for i in 0..90u32 {
        let method = ["GET", "GET", "POST", "PUT", "GET"][i as usize % 5];
        let dur = (i * 37) % 1200;
        text.push_str(&format!(
            "ts=2031-05-09T01:{:02}:{:02}Z method={method} path=/v1/item/{} status=200 dur={dur}ms\n",
            i / 60,
            i % 60,
            i % 7
        ));
        planted.push((method, dur));
    }
    let log = Planted::new("api.log", &text);
    let not_get = planted.iter().filter(|(m, _)| *m != "GET").count() as u64;
    for q in [
        "how many requests in api.log were not GET",
        "api.log 除了 GET 以外的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), not_get, "{q}");
    }
    let quick = planted.iter().filter(|(_, d)| *d <= 500).count() as u64;
    assert!(quick > 0 && quick < planted.len() as u64);
    for q in [
        "how many requests in api.log took not more than 500ms",
        "how many requests in api.log were not slower than 500 ms",
        "api.log 耗时没有超过 500 毫秒的请求有多少",
    ] {
        assert_eq!(number(&log.answer(q)), quick, "{q}");
    }
}

#[test]
fn a_follow_up_negates_or_adds_a_negated_condition() {
    let (text, lines) = access();
    let log = Planted::new("edge.log", &text);
    let first = log.answer("how many 5xx requests are in edge.log");
    let not_5xx = lines.iter().filter(|l| l.status / 100 != 5).count() as u64;
    for q in ["and the ones that were not 5xx?", "那不是 5xx 的呢"] {
        assert_eq!(number(&log.answer_after(q, Some(&first))), not_5xx, "{q}");
    }
    let others = lines
        .iter()
        .filter(|l| l.status / 100 == 5 && l.client != "10.0.0.1")
        .count() as u64;
    for q in ["what about excluding 10.0.0.1", "10.0.0.1 以外的呢"] {
        assert_eq!(number(&log.answer_after(q, Some(&first))), others, "{q}");
    }
    // A negation of the same field narrows the last query; its opposite replaces it.
    let errors = log.answer("how many 4xx or 5xx requests are in edge.log");
    let not_404 = lines
        .iter()
        .filter(|l| l.status >= 400 && l.status != 404)
        .count() as u64;
    assert!(not_404 > 0);
    for q in ["excluding 404?", "除了 404 以外的呢"] {
        assert_eq!(number(&log.answer_after(q, Some(&errors))), not_404, "{q}");
    }
}
