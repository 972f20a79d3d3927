//! A zap-style JSON log's keys as an operator says them: a key written exactly (`took`
//! beside `elapsed`, both durations), a key that is a grammar word (`for`), a nested key
//! (`zone.id`), a key said without its unit (`water_ml` as "water"), a total "across every"
//! event, a distinct count of the key right after its word; each figure checked against
//! the planted lines.

use llmops_common::query::QueryValue;

use super::tests_answers::Planted;

struct Line {
    zone: &'static str,
    water_ml: u64,
    cycle: u64,
}

fn planted() -> (Planted, Vec<Line>, Vec<f64>) {
    let zones = ["GH1-Z01", "GH1-Z02", "GH2-Z01", "GH2-Z02", "GH3-Z01"];
    let (mut text, mut lines, mut took) = (String::new(), Vec::new(), Vec::new());
    for i in 0..60u64 {
        let zone = zones[(i * 7 % 5) as usize];
        let water_ml = 1000 + (i * 37) % 900;
        let cycle = 1000 + i % 12;
        text.push_str(&format!(
            "{{\"level\":\"info\",\"ts\":{}.5,\"msg\":\"irrigation cycle finished\",\"zone\":{{\"id\":\"{zone}\"}},\"cycle\":{cycle},\"water_ml\":{water_ml},\"elapsed\":\"2m{}s\"}}\n",
            2054507400 + i * 60,
            10 + i % 40
        ));
        lines.push(Line {
            zone,
            water_ml,
            cycle,
        });
        if i % 6 == 0 {
            let ms = 200.0 + (i as f64) * 10.0;
            took.push(ms);
            text.push_str(&format!(
                "{{\"level\":\"info\",\"ts\":{}.9,\"msg\":\"schedule recomputed\",\"took\":\"{ms}ms\",\"for\":\"15m0s\"}}\n",
                2054507400 + i * 60
            ));
        }
    }
    (Planted::new("irrigod.log", &text), lines, took)
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
    let (p, lines, took) = planted();
    // `took` written: that duration, not `elapsed`; `for` is a word there, not the key.
    let max_took = took.iter().cloned().fold(0.0, f64::max);
    assert_eq!(
        figure(&p, "max took for schedule recomputed"),
        max_took / 1000.0
    );
    // "water" is `water_ml`, totalled across every event.
    let total: u64 = lines.iter().map(|l| l.water_ml).sum();
    let r = p.answer("total water across every irrigation cycle");
    assert!(r.query.group_by.is_empty(), "{:?}", r.query);
    assert_eq!(
        figure(&p, "total water across every irrigation cycle"),
        total as f64
    );
    // The key right after the distinct word, nested: not `cycle`, which the question names
    // too.
    let mut zones: Vec<&str> = lines.iter().map(|l| l.zone).collect();
    zones.sort();
    zones.dedup();
    let n = figure(&p, "how many different zone ids show up in the cycle logs?");
    assert_eq!(n, zones.len() as f64);
    let mut cycles: Vec<u64> = lines.iter().map(|l| l.cycle).collect();
    cycles.sort();
    cycles.dedup();
    assert_ne!(cycles.len(), zones.len(), "the two readings differ");
    // Grouped by `zone.id` only (not every key with "zone" in it).
    let r = p.answer("按 zone.id 汇总 water_ml");
    assert_eq!(r.query.group_by.len(), 1, "{:?}", r.query);
}

#[test]
fn words_after_a_distinct_counts_field_say_which_are_counted() {
    let mut text = String::new();
    let (mut allocated, mut all) = (Vec::new(), Vec::new());
    for i in 0..90u64 {
        let msg = if i % 3 == 0 {
            "reserve ok"
        } else {
            "crate allocated"
        };
        // Some orders are reserved and never allocated.
        let order = format!(
            "HG-{}",
            if i % 3 == 0 {
                900 + i % 11
            } else {
                500 + i % 37
            }
        );
        if msg == "crate allocated" {
            allocated.push(order.clone());
        }
        all.push(order.clone());
        text.push_str(&format!(
            "{{\"level\":\"info\",\"ts\":{}.5,\"msg\":\"{msg}\",\"order\":\"{order}\"}}\n",
            2054507400 + i * 60
        ));
    }
    for v in [&mut allocated, &mut all] {
        v.sort();
        v.dedup();
    }
    assert_ne!(allocated.len(), all.len());
    let p = Planted::new("alloc.log", &text);
    assert_eq!(
        figure(&p, "how many unique orders got crates allocated?"),
        allocated.len() as f64
    );
    assert_eq!(figure(&p, "how many distinct orders"), all.len() as f64);
}

#[test]
fn a_nested_object_named_is_its_id() {
    let mut text = String::new();
    let mut per: std::collections::BTreeMap<String, u64> = Default::default();
    for i in 0..60u64 {
        let gw = format!("gw-{}", [1, 2, 2, 3, 3, 3][(i % 6) as usize]);
        *per.entry(gw.clone()).or_default() += 1;
        text.push_str(&format!(
            "{{\"level\":\"warn\",\"ts\":{}.5,\"msg\":\"telemetry rate limited\",\"gateway\":{{\"id\":\"{gw}\",\"ip\":\"203.0.113.{}\",\"fw\":\"3.8.{}\"}}}}\n",
            2054507400 + i * 60,
            i % 5,
            i % 2
        ));
    }
    let p = Planted::new("irrigod.log", &text);
    let r = p.answer("which gateway got rate limited the most?");
    assert_eq!(
        r.query.group_by,
        [llmops_common::query::Field::new("gateway.id")]
    );
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
        let vhost = ["shop.example:443", "grow.example:443", "grow.example:443"][(i % 3) as usize];
        let b = 1000 + i * 17;
        *bytes.entry(vhost).or_default() += b;
        text.push_str(&format!(
            "{vhost} 198.18.4.{i} - - [08/Feb/2035:00:30:{:02} +0000] \"GET /v2/x HTTP/1.1\" 200 {b} \"-\" \"curl/8\" 54415\n",
            i
        ));
    }
    let p = Planted::new("other_vhosts_access.log", &text);
    let r = p.answer("top 3 vhosts by bytes");
    assert_eq!(
        r.query.group_by,
        [llmops_common::query::Field::new("vhost")]
    );
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
            2054507400 + i * 60,
            i % 3
        ));
    }
    let p = Planted::new("batcher.log", &text);
    let r = p.answer("how many errors?");
    assert_eq!(r.matched, errors, "{:?}", r.query);
}
