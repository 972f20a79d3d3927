//! The literals a question holds: numbers with units, codes, clocks, quoted and copied
//! log text, names, apostrophes and number words.

use llmops_common::query::Unit;

use super::scan::*;
use crate::lexicon::{find, lexicon};

fn lits(text: &str) -> Vec<Lit> {
    let lex = lexicon();
    let lower = text.to_ascii_lowercase();
    let hits = find(lex, &lower);
    literals(lex, text, &lower, &hits, &[])
        .into_iter()
        .map(|s| s.lit)
        .collect()
}

#[test]
fn a_log_line_copied_into_a_chinese_question_is_that_text() {
    let quoted = |t: &str| {
        lits(t)
            .into_iter()
            .filter_map(|l| match l {
                Lit::Quoted(q) => Some(q),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        quoted("worker 报 Lost connection to broker 多少次"),
        ["Lost connection to broker"]
    );
    assert_eq!(
        quoted("里 open() failed (13: Permission denied) 有多少条"),
        ["open() failed (13: Permission denied)"]
    );
    // The question's own English: a query word, a time of day, a lone name.
    assert!(quoted("Top 3 client IPs 是哪些？").is_empty());
    // A bracket of the sentence around English is no quote of its own.
    assert!(quoted("哪个 task 报错最多（raised unexpected 那种）").is_empty());
    assert!(quoted("From 09:30 To 10:00 之间的错误有多少").is_empty());
    assert!(quoted("cart-svc 的 p95 延迟是多少").is_empty());
    // English with a Chinese word in it is a question, not a quote.
    assert!(quoted("How many Timeout errors 在 the gateway log?").is_empty());
}

#[test]
fn an_apostrophe_inside_a_word_opens_no_quote() {
    let quoted = |t: &str| {
        lits(t)
            .into_iter()
            .filter(|l| matches!(l, Lit::Quoted(_)))
            .count()
    };
    assert_eq!(quoted("what's client 10.0.0.3's request count"), 0);
    assert_eq!(quoted("don't count the 'health check' lines"), 1);
    assert!(lits("what's the 'health check' count").contains(&Lit::Quoted("health check".into())));
}

#[test]
fn numbers_take_the_unit_written_after_them() {
    assert_eq!(
        lits("queries over 1.5s"),
        vec![Lit::Number {
            value: 1.5,
            unit: Some(Unit::S)
        }]
    );
    assert_eq!(
        lits("超过500毫秒的请求"),
        vec![Lit::Number {
            value: 500.0,
            unit: Some(Unit::Ms)
        }]
    );
    assert_eq!(
        lits("took longer than a second"),
        vec![Lit::Number {
            value: 1.0,
            unit: Some(Unit::S)
        }]
    );
    assert_eq!(
        lits("how many 503"),
        vec![Lit::Number {
            value: 503.0,
            unit: None
        }]
    );
}

#[test]
fn a_camel_case_name_in_the_plural_is_searched_in_the_singular() {
    let l = lits("which minute had the most ConnectionResetErrors in app.log");
    assert!(
        l.contains(&Lit::Ident("ConnectionResetError".into())),
        "{l:?}"
    );
    // A name that is not CamelCase keeps its final s.
    let l = lits("how many MySQLs and Kubernetes errors");
    assert!(!l.contains(&Lit::Ident("Kubernete".into())), "{l:?}");
}

#[test]
fn names_times_addresses_and_classes_are_told_apart() {
    assert_eq!(
        lits("the importer was SIGKILLed")[1],
        Lit::Ident("SIGKILL".into())
    );
    // An error code in the plural is the code the events write.
    let l = lits("which dyno had the most Q31s");
    assert!(l.contains(&Lit::Ident("Q31".into())), "{l:?}");
    let l = lits("OutOfMemoryError from 10.0.0.7 around 02:47, 5xx on /api/orders");
    assert!(l.contains(&Lit::Ident("OutOfMemoryError".into())), "{l:?}");
    assert!(l.contains(&Lit::Ip("10.0.0.7".into())), "{l:?}");
    assert!(l.contains(&Lit::Class(5)), "{l:?}");
    assert!(l.contains(&Lit::UrlPath("/api/orders".into())), "{l:?}");
    assert!(
        l.iter()
            .any(|x| matches!(x, Lit::Clock(c) if c.h == 2 && c.m == 47)),
        "{l:?}"
    );
    // A `*` stands for a segment, inside parentheses too.
    let l = lits("p90 of the invoice GETs (GET /v2/tenants/*/invoices)");
    assert!(
        l.contains(&Lit::UrlPath("/v2/tenants/*/invoices".into())),
        "{l:?}"
    );
    let l = lits("what is the pid of redis-server");
    assert_eq!(l, vec![Lit::Ident("redis-server".into())]);
    let l = lits("how many nginx workers are running");
    assert_eq!(l, vec![Lit::Word("nginx".into())]);
}

#[test]
fn twelve_hour_clocks_are_read_on_a_24_hour_clock() {
    let clock = |text: &str| {
        lits(text)
            .into_iter()
            .find_map(|l| match l {
                Lit::Clock(c) => Some((c.h, c.m)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no clock in {text:?}"))
    };
    assert_eq!(clock("around 10:47pm EDT"), (22, 47));
    assert_eq!(clock("around 10:47 p.m."), (22, 47));
    assert_eq!(clock("at 12:05am"), (0, 5));
    assert_eq!(clock("at 9:36 AM"), (9, 36));
    assert_eq!(clock("昨晚 10:47 左右"), (22, 47));
    assert_eq!(clock("下午3:10 前后"), (15, 10));
    assert_eq!(clock("早上 9:36"), (9, 36));
    assert_eq!(clock("02:47 前后"), (2, 47));
}

/// Chinese number words that count, compounds whole ("二十", "十五"); an ordinal's ("第十二")
/// is no count.
#[test]
fn chinese_number_words_count_whole() {
    let numbers = |t: &str| -> Vec<f64> {
        lits(t)
            .into_iter()
            .filter_map(|l| match l {
                Lit::Number { value, unit: None } => Some(value),
                _ => None,
            })
            .collect()
    };
    assert_eq!(numbers("前二十个客户端"), vec![20.0]);
    assert_eq!(numbers("最慢的十五条请求"), vec![15.0]);
    assert_eq!(numbers("哪三个 tenant"), vec![3.0]);
    assert_eq!(numbers("top five clients"), vec![5.0]);
    assert!(numbers("第十二个请求").is_empty());
}
