//! A JSON log's keys as an operator says them: a key written exactly (`took` beside
//! `elapsed`, both durations), a key that is a grammar word (`by`), a nested key (`dock.id`
//! beside `route.dock`), a key said without its unit (`weight_kg` as "weight"), a total
//! "across every" event, a distinct count of the key right after its word, narrowed by a
//! clause after it; each figure checked against the planted lines.

use llmops_common::query::{Field, QueryValue};

use super::tests_answers::Planted;

struct Shipment {
    dock: &'static str,
    weight_kg: u64,
}

/// A packing service's log: shipments (a nested `dock`, a numeric `batch`, `elapsed`) and
/// index rebuilds (`took`, and a `by` key).
fn packer() -> (Planted, Vec<Shipment>, Vec<f64>) {
    let docks = [
        "D-north-1",
        "D-north-2",
        "D-south-1",
        "D-south-2",
        "D-east-1",
    ];
    let (mut text, mut lines, mut took) = (String::new(), Vec::new(), Vec::new());
    for i in 0..60u64 {
        let dock = docks[(i * 3 % 5) as usize];
        let weight_kg = 40 + (i * 29) % 300;
        text.push_str(&format!(
            "{{\"level\":\"info\",\"ts\":{}.25,\"msg\":\"shipment packed\",\"dock\":{{\"id\":\"{dock}\",\"region\":\"r{}\"}},\"route\":{{\"dock\":\"{}\"}},\"batch\":{},\"weight_kg\":{weight_kg},\"elapsed\":\"1m{}s\"}}\n",
            1900000000 + i * 60,
            i % 2,
            docks[(i % 5) as usize],
            700 + i % 9,
            5 + i % 50
        ));
        lines.push(Shipment { dock, weight_kg });
        if i % 5 == 0 {
            let ms = 150.0 + (i as f64) * 7.0;
            took.push(ms);
            text.push_str(&format!(
                "{{\"level\":\"info\",\"ts\":{}.75,\"msg\":\"index rebuilt\",\"took\":\"{ms}ms\",\"by\":\"cron\"}}\n",
                1900000000 + i * 60
            ));
        }
    }
    (Planted::new("packer.log", &text), lines, took)
}

fn figure(p: &Planted, text: &str) -> f64 {
    match p.answer(text).value {
        QueryValue::Stat { value: Some(v), .. } => v,
        QueryValue::Distinct { count } => count as f64,
        other => panic!("{text:?}: {other:?}"),
    }
}

#[test]
fn keys_said_as_an_operator_says_them() {
    let (p, lines, took) = packer();
    // `took` written: that duration, not `elapsed`; "by" is a word there, not the key.
    let max_took = took.iter().cloned().fold(0.0, f64::max);
    assert_eq!(
        figure(&p, "the max took of the rebuilds kicked off by cron"),
        max_took / 1000.0
    );
    // "weight" is `weight_kg`, totalled across every event, no grouping.
    let total: u64 = lines.iter().map(|l| l.weight_kg).sum();
    let r = p.answer("total weight across every shipment");
    assert!(r.query.group_by.is_empty(), "{:?}", r.query);
    assert_eq!(
        figure(&p, "total weight across every shipment"),
        total as f64
    );
    // The key right after the distinct word, nested: not `batch`, which the question names
    // too.
    let mut docks: Vec<&str> = lines.iter().map(|l| l.dock).collect();
    docks.sort();
    docks.dedup();
    let n = figure(&p, "count of distinct dock ids over all the batch events");
    assert_eq!(n, docks.len() as f64);
    // Grouped by `dock.id` only, not also by `route.dock`.
    let r = p.answer("按 dock.id 求和 weight_kg");
    assert_eq!(r.query.group_by, [Field::new("dock.id")], "{:?}", r.query);
}

#[test]
fn a_clause_after_a_distinct_counts_field_says_which_are_counted() {
    let mut text = String::new();
    let (mut escalated, mut all) = (Vec::new(), Vec::new());
    for i in 0..90u64 {
        let msg = if i % 3 == 0 {
            "ticket opened"
        } else {
            "ticket escalated"
        };
        // Some tickets are opened and never escalated.
        let ticket = format!(
            "T-{}",
            if i % 3 == 0 {
                900 + i % 11
            } else {
                500 + i % 37
            }
        );
        if msg == "ticket escalated" {
            escalated.push(ticket.clone());
        }
        all.push(ticket.clone());
        text.push_str(&format!(
            "{{\"level\":\"info\",\"ts\":{}.5,\"msg\":\"{msg}\",\"ticket\":\"{ticket}\"}}\n",
            1900000000 + i * 60
        ));
    }
    for v in [&mut escalated, &mut all] {
        v.sort();
        v.dedup();
    }
    assert_ne!(escalated.len(), all.len());
    let p = Planted::new("helpdesk.log", &text);
    assert_eq!(
        figure(&p, "how many distinct tickets were escalated?"),
        escalated.len() as f64
    );
    assert_eq!(figure(&p, "how many distinct tickets"), all.len() as f64);
    // How often is no clause: "at least once" narrows nothing.
    assert_eq!(
        figure(&p, "how many distinct tickets showed up at least once"),
        all.len() as f64
    );
}

#[test]
fn a_nested_object_named_is_its_id() {
    let mut text = String::new();
    let mut per: std::collections::BTreeMap<String, u64> = Default::default();
    for i in 0..60u64 {
        let dock = format!("D-{}", [1, 2, 2, 3, 3, 3][(i % 6) as usize]);
        *per.entry(dock.clone()).or_default() += 1;
        text.push_str(&format!(
            "{{\"level\":\"warn\",\"ts\":{}.5,\"msg\":\"loading delayed\",\"dock\":{{\"id\":\"{dock}\",\"region\":\"r{}\",\"crane\":\"c{}\"}}}}\n",
            1900000000 + i * 60,
            i % 5,
            i % 2
        ));
    }
    let p = Planted::new("yard.log", &text);
    let r = p.answer("which dock reported the most delays?");
    assert_eq!(r.query.group_by, [Field::new("dock.id")]);
    let QueryValue::Groups { rows, .. } = r.value else {
        panic!("groups: {:?}", r.value)
    };
    let (top, n) = per.iter().max_by_key(|(_, n)| **n).expect("planted");
    assert_eq!((&rows[0].key[0], rows[0].count), (top, *n));
}

#[test]
fn a_field_named_like_a_part_of_the_file_name_is_the_field() {
    let mut text = String::new();
    let mut bytes: std::collections::BTreeMap<&str, u64> = Default::default();
    for i in 0..40u64 {
        let vhost = ["docs.example:443", "api.example:443", "api.example:443"][(i % 3) as usize];
        let b = 1000 + i * 17;
        *bytes.entry(vhost).or_default() += b;
        text.push_str(&format!(
            "{vhost} 198.18.4.{i} - - [08/Feb/2035:00:30:{:02} +0000] \"GET /v2/x HTTP/1.1\" 200 {b} \"-\" \"curl/8\" 54415\n",
            i
        ));
    }
    // Debian's name for the access log of every virtual host.
    let p = Planted::new("other_vhosts_access.log", &text);
    let r = p.answer("top 3 vhosts by bytes");
    assert_eq!(r.query.group_by, [Field::new("vhost")]);
    let QueryValue::Groups { rows, .. } = r.value else {
        panic!("groups: {:?}", r.value)
    };
    let (top, sum) = bytes.iter().max_by_key(|(_, b)| **b).expect("planted");
    assert_eq!(
        (rows[0].key[0].as_str(), rows[0].value),
        (*top, Some(*sum as f64))
    );
}

#[test]
fn a_key_said_in_words_leaves_the_lexicon_s_word_its_reading() {
    let mut text = String::new();
    let mut errors = 0;
    for i in 0..30u64 {
        let level = if i % 4 == 0 { "error" } else { "info" };
        errors += u64::from(level == "error");
        text.push_str(&format!(
            "{{\"level\":\"{level}\",\"ts\":{}.5,\"msg\":\"batch done\",\"error_count\":{}}}\n",
            1900000000 + i * 60,
            i % 3
        ));
    }
    let p = Planted::new("batcher.log", &text);
    let r = p.answer("how many errors?");
    assert_eq!(r.matched, errors, "{:?}", r.query);
}

#[test]
fn a_hyphenated_key_written_with_its_value_is_that_field() {
    let mut text = String::new();
    let mut misses = 0u64;
    for i in 0..120u32 {
        let result = ["Hit", "Miss", "Hit", "RefreshHit"][(i % 7 % 4) as usize];
        misses += u64::from(result == "Miss");
        text.push_str(&format!(
            "{{\"time\":\"2034-05-17T01:{:02}:{:02}Z\",\"x-edge-result-type\":\"{result}\",\"sc-bytes\":{}}}\n",
            i / 60,
            i % 60,
            100 + i
        ));
    }
    let p = Planted::new("cdn.json", &text);
    for q in [
        "how many x-edge-result-type=Miss requests in cdn.json",
        "cdn.json 里 x-edge-result-type = Miss 的有几条",
    ] {
        assert_eq!(super::tests_counts::number(&p.answer(q)), misses, "{q}");
    }
}

/// "which tenant had the most throttled messages": "messages" after the condition names
/// the events counted, so the groups are the tenants alone, each with its throttled count.
#[test]
fn a_word_for_events_after_a_condition_is_no_second_key() {
    let tenants = ["acme", "globex", "initech"];
    let mut text = String::new();
    let mut throttled = [0u64; 3];
    for i in 0..90u64 {
        let t = ((i * 7) % 11 % 3) as usize;
        let state = if i % 4 == 1 { "accepted" } else { "throttled" };
        throttled[t] += u64::from(state == "throttled");
        text.push_str(&format!(
            "{{\"ts\":\"2031-03-02T04:{:02}:{:02}Z\",\"tenant\":\"{}\",\"state\":\"{state}\",\"msg\":\"publish {i}\"}}\n",
            i / 60,
            i % 60,
            tenants[t]
        ));
    }
    let p = Planted::new("broker.json", &text);
    let top = (0..3).max_by_key(|&t| throttled[t]).expect("a tenant");
    for q in [
        "which tenant had the most throttled messages in broker.json",
        "top 2 tenants by throttled messages in broker.json",
    ] {
        let r = p.answer(q);
        assert_eq!(r.query.group_by, vec![Field::new("tenant")], "{q}");
        let QueryValue::Groups { rows, .. } = r.value else {
            panic!("{q}: not groups")
        };
        assert_eq!(
            (rows[0].key.clone(), rows[0].count),
            (vec![tenants[top].to_string()], throttled[top]),
            "{q}"
        );
    }
}

/// A database proxy's log: errors by database and by user, the busiest pair not of the
/// busiest user. Two field words side by side are one noun ("database user": the user);
/// joined by "and", both are keys.
#[test]
fn two_keys_side_by_side_are_one_noun_and_joined_are_two() {
    let pairs = [
        ("shop", "admin", 9),
        ("shop", "report", 4),
        ("analytics", "report", 8),
        ("analytics", "app", 3),
    ];
    let mut text = String::new();
    let mut i = 0;
    for (db, user, n) in pairs {
        for _ in 0..n {
            text.push_str(&format!(
                "{{\"ts\":\"2031-04-10T02:{:02}:{:02}Z\",\"level\":\"error\",\"database\":\"{db}\",\"user\":\"{user}\",\"msg\":\"permission denied\"}}\n",
                i / 60,
                i % 60
            ));
            i += 1;
        }
    }
    let p = Planted::new("pgproxy.json", &text);
    // report has 12 errors in all, more than admin's 9 on one database.
    let r = p.answer("which database user logged the most errors in pgproxy.json");
    assert_eq!(r.query.group_by, vec![Field::new("user")]);
    let top = p.top_group("which database user logged the most errors in pgproxy.json");
    assert_eq!((top.key, top.count), (vec!["report".to_string()], 12));
    for q in [
        "errors by database and user in pgproxy.json",
        "pgproxy.json 按数据库和用户统计错误",
    ] {
        let r = p.answer(q);
        let both = vec![Field::new("database"), Field::new("user")];
        assert_eq!(r.query.group_by, both, "{q}");
        let QueryValue::Groups { rows, .. } = r.value else {
            panic!("{q}: not groups")
        };
        assert_eq!(
            (rows[0].key.join("/"), rows[0].count),
            ("shop/admin".into(), 9)
        );
    }
}
