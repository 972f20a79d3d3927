//! Fields a question defines from the events' text: ids named by their prefix, the part
//! after a literal, and the words that define nothing.

use serde_json::{json, Value};

use super::tests::{frame, frame_with};
use super::LastQuery;

fn extract_names(f: &Value) -> Vec<String> {
    f["extract"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|x| x["name"].as_str().map(String::from))
        .collect()
}

#[test]
fn ids_named_by_their_prefix_are_a_field_cut_from_the_text() {
    for text in [
        "how many distinct INC ids are in app.log",
        "app.log 里有多少个不同的 INC 编号",
    ] {
        let f = frame(text);
        assert_eq!(
            (&f["measure"], &f["field"]),
            (&json!("count_distinct"), &json!("inc_id")),
            "{text}: {f}"
        );
        let re = f["extract"][0]["regex"].as_str().expect("a regex");
        let re = regex::Regex::new(re).expect("valid");
        let id = |line: &str| {
            re.captures(line)
                .and_then(|c| c.get(1))
                .map(|m| m.as_str().to_string())
        };
        assert_eq!(
            id("closed INC-20417 after 3m").as_deref(),
            Some("INC-20417")
        );
        assert_eq!(
            id("path=/tickets/INC0042/notes").as_deref(),
            Some("INC0042")
        );
        assert_eq!(id("the inc-api pod restarted"), None, "{text}");
    }
    let f = frame("top 5 INC ids by error count in app.log");
    assert_eq!(f["group_by"], json!(["inc_id"]), "{f}");
}

#[test]
fn words_that_are_no_prefix_define_nothing() {
    for text in [
        "how many distinct user ids in app.log",
        "how many distinct request ids in app.log",
        "how many unique ids in app.log",
        "how many distinct inc ids in app.log",
    ] {
        let f = frame_with(text, None);
        let names = f.as_ref().map(extract_names).unwrap_or_default();
        assert!(names.is_empty(), "{text}: {f:?}");
    }
}

#[test]
fn the_part_after_a_literal_is_the_field_the_question_asks_for() {
    for (text, name) in [
        (
            "which tenant sent the most errors in app.log, i.e. the part after tenant=",
            "tenant",
        ),
        (
            "app.log 里报错最多的是哪个 bucket？就是 s3://backups/ 后面那段",
            "bucket",
        ),
        ("app.log: count per segment after /api/v2/", "segment"),
    ] {
        let f = frame(text);
        assert_eq!(f["group_by"], json!([name]), "{text}: {f}");
        assert_eq!(extract_names(&f), vec![name.to_string()], "{text}: {f}");
        // The definition's words are no condition.
        let filters = f["filters"].to_string();
        assert!(
            !filters.contains("part") && !filters.contains("后面"),
            "{text}: {f}"
        );
    }
    let f = frame("app.log 里报错最多的是哪个 bucket？就是 s3://backups/ 后面那段");
    let re = regex::Regex::new(f["extract"][0]["regex"].as_str().expect("regex")).expect("ok");
    let c = re
        .captures("put s3://backups/pg-main/2026/base.tar failed")
        .expect("match");
    assert_eq!(&c[1], "pg-main");
}

#[test]
fn a_time_or_a_plain_word_after_after_is_no_definition() {
    for text in [
        "how many errors after 02:30 in app.log",
        "which host logged the most errors after the deploy in app.log",
    ] {
        let f = frame(text);
        assert!(extract_names(&f).is_empty(), "{text}: {f}");
    }
}

#[test]
fn a_follow_up_on_a_defined_field_keeps_its_definition() {
    let first = frame("which tenant sent the most errors in app.log, i.e. the part after tenant=");
    let last = LastQuery {
        query: serde_json::from_value(first.clone()).expect("query"),
        items: vec![
            vec![("tenant".into(), "acme".into())],
            vec![("tenant".into(), "globex".into())],
        ],
        event: Vec::new(),
        at: None,
    };
    let f = frame_with("the second one: when was its last error?", Some(&last)).expect("a frame");
    assert_eq!(extract_names(&f), vec!["tenant".to_string()], "{f}");
    assert!(
        f["filters"]
            .as_array()
            .expect("filters")
            .contains(&json!({"field": "tenant", "op": "eq", "value": "globex"})),
        "{f}"
    );
}

/// "which replica lost its connection most": a noun asked with "which" that the log has no
/// field for is the value its lines write after it; the count per replica is planted.
#[test]
fn a_noun_asked_which_is_the_value_written_after_it() {
    let replicas = [
        "10.0.0.7:6379",
        "10.0.0.8:6379",
        "10.0.0.8:6379",
        "10.0.0.9:6379",
    ];
    let mut text = String::new();
    for i in 0..40 {
        let line = if i % 3 == 0 {
            format!("# Connection with replica {} lost.", replicas[i % 4])
        } else {
            "* 100 changes in 300 seconds. Saving...".to_string()
        };
        text.push_str(&format!("4242:M 10 Apr 2031 02:00:{i:02}.000 {line}\n"));
    }
    let p = super::tests_answers::Planted::new("redis.log", &text);
    for q in [
        "which replica lost its connection most often in redis.log",
        "redis.log 里哪个 replica 断开最多",
    ] {
        let top = p.top_group(q);
        let planted = text.matches("replica 10.0.0.8:6379 lost").count() as u64;
        assert_eq!(
            (top.key, top.count),
            (vec!["10.0.0.8:6379".to_string()], planted),
            "{q}"
        );
    }
    // A noun before a field's word modifies it; a value of the extreme event asks no
    // grouping.
    let f = frame("which client addr got dropped the most in app.log");
    assert!(!extract_names(&f).contains(&"client".to_string()), "{f}");
    let f = frame("the longest request in app.log, and which table?");
    assert!(extract_names(&f).is_empty(), "{f}");
}

/// A noun is cut from a log's text only with a log in view: with none, a question is about
/// the machine, whose tables have no text ("which job has the most threads").
#[test]
fn a_noun_is_cut_only_from_a_log_in_view() {
    let none = super::FrameCtx::of_uploads(&[]);
    let p = super::parsed::Parsed::new("which job has the most threads", &none);
    assert!(p.defined.is_empty(), "{:?}", p.defined);
    let ups = super::tests_answers::Planted::new(
        "jobs.log",
        "2031-01-01 01:00:00 INFO job nightly-7 started\n",
    );
    let ctx = super::FrameCtx::of_uploads(ups.uploads());
    let p = super::parsed::Parsed::new("which job failed the most", &ctx);
    assert!(p.defined.iter().any(|d| d.name == "job"), "{:?}", p.defined);
    // A plural loses its `s` or `es`; a word that ends in one keeps it.
    for (q, name) in [
        ("which boxes failed the most", "box"),
        ("which bus failed the most", "bus"),
        ("which replicas failed the most", "replica"),
    ] {
        let p = super::parsed::Parsed::new(q, &ctx);
        assert!(
            p.defined.iter().any(|d| d.name == name),
            "{q}: {:?}",
            p.defined
        );
    }
    // Asked who, it is a person, never a value after a noun.
    let p = super::parsed::Parsed::new("whose job failed the most", &ctx);
    assert!(p.defined.is_empty(), "{:?}", p.defined);
}

/// "which tenant had the most 503s": a noun an access log writes only as its collection's
/// path segment (`/v2/tenants/T-17/invoices`) is the segment after it; the count per tenant
/// is planted.
#[test]
fn a_noun_asked_which_is_the_segment_after_its_collection_in_a_path() {
    let tenants = ["T-1001", "T-1002", "T-1002", "T-1003", "T-1002"];
    let mut text = String::new();
    for i in 0..50 {
        let status = if i % 2 == 0 { 503 } else { 200 };
        text.push_str(&format!(
            "10.0.0.{} - - [10/Apr/2031:02:00:{:02} +0000] \"GET /v2/tenants/{}/invoices?n={i} HTTP/1.1\" {status} 12 \"-\" \"curl/8\"\n",
            i % 7,
            i,
            tenants[i % 5]
        ));
    }
    let planted = text
        .lines()
        .filter(|l| l.contains("/T-1002/") && l.contains(" 503 "))
        .count() as u64;
    let p = super::tests_answers::Planted::new("access.log", &text);
    let top = p.top_group("which tenant had the most 503s in access.log");
    assert_eq!((top.key, top.count), (vec!["T-1002".to_string()], planted));
}
