//! Follow-ups resolved against the conversation: ordinals, repeat targets, pronouns and
//! positions past what the last answer listed.

use super::*;

#[test]
fn parses_ordinals() {
    assert_eq!(ordinal("把第二个发给我"), Some(Ordinal::Nth(2)));
    assert_eq!(ordinal("打开第 3 个"), Some(Ordinal::Nth(3)));
    assert_eq!(ordinal("第十二条"), Some(Ordinal::Nth(12)));
    assert_eq!(ordinal("最后一个是什么"), Some(Ordinal::Last));
    assert_eq!(ordinal("send me the second one"), Some(Ordinal::Nth(2)));
    assert_eq!(ordinal("which calls took over a second?"), None);
    assert_eq!(ordinal("billing 最后一条日志是什么时候"), None);
    assert_eq!(ordinal("anything slower than 1 second"), None);
    assert_eq!(ordinal("open the 3rd file"), Some(Ordinal::Nth(3)));
    assert_eq!(ordinal("read the last one"), Some(Ordinal::Last));
    assert_eq!(ordinal("open #2"), Some(Ordinal::Nth(2)));
    assert_eq!(ordinal("看第 20 行"), None);
    assert_eq!(ordinal("first check the disk usage"), None);
    assert_eq!(ordinal("what is the load"), None);
}

#[test]
fn finds_repeat_targets() {
    assert_eq!(repeat_target("内存呢？").as_deref(), Some("内存"));
    assert_eq!(repeat_target("再看看 CPU").as_deref(), Some("CPU"));
    assert_eq!(repeat_target("the same for WARN").as_deref(), Some("WARN"));
    assert_eq!(repeat_target("what about disk?").as_deref(), Some("disk"));
    assert_eq!(repeat_target("那 WARN 呢").as_deref(), Some("WARN"));
    assert_eq!(repeat_target("how is the disk"), None);
    assert!(only_vocabulary("WARN 的", LEVEL_WORDS));
    assert!(only_vocabulary("内存使用率", METRIC_WORDS));
    assert!(!only_vocabulary("nginx 的日志里 ERROR 有多少", LEVEL_WORDS));
}

/// "and the second one?" after an answer that listed one server: a reply naming it, in
/// the question's language; with the position listed, the frame's edit picks it.
#[test]
fn a_position_beyond_the_last_answers_items_says_so() {
    let query = serde_json::from_value(serde_json::json!({"source": "log",
        "files": ["/u/1/haproxy.log"], "measure": "count", "group_by": ["server"]}))
    .expect("query");
    let last = |items: &[&str]| crate::frame::LastQuery {
        query: Clone::clone(&query),
        items: items
            .iter()
            .map(|v| vec![("server".to_string(), v.to_string())])
            .collect(),
        event: Vec::new(),
        at: None,
    };
    let ask = |conv: &Conversation, text: &str, lang: Lang| {
        let ctx = MessageCtx {
            lang,
            uploads: &[],
            referenced: Vec::new(),
            history: &[],
            conv,
        };
        resolve(text, &ctx)
    };
    let one = Conversation {
        last_query: Some(last(&["api-3"])),
        turns: 1,
        ..Conversation::default()
    };
    for (text, lang, says) in [
        ("and the second one?", Lang::En, "listed only 1 (**api-3**)"),
        (
            "那第二个呢",
            Lang::Zh,
            "只列出了 1 项（api-3），没有第 2 项",
        ),
    ] {
        match ask(&one, text, lang) {
            Some(Task::Reply(r)) => assert!(r.contains(says), "{text}: {r}"),
            other => panic!("{text}: {other:?}"),
        }
    }
    let three = Conversation {
        last_query: Some(last(&["api-3", "api-1", "st-2"])),
        turns: 1,
        ..Conversation::default()
    };
    assert!(
        !matches!(
            ask(&three, "and the second one?", Lang::En),
            Some(Task::Reply(_))
        ),
        "a listed position is the frame's to pick"
    );
    let none = Conversation {
        last_query: Some(last(&[])),
        last_topic: Some(Topic::Query),
        turns: 1,
        ..Conversation::default()
    };
    match ask(&none, "那第二个呢", Lang::Zh) {
        Some(Task::Reply(r)) => assert!(r.contains("没有列出任何项"), "{r}"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn continue_and_pronouns_are_word_bound() {
    assert!(continue_words("继续分析剩下的 242 行"));
    assert!(continue_words("continue"));
    assert!(!continue_words("restart nginx"));
    assert!(pronoun("把它发给我"));
    assert!(pronoun("send that file"));
    assert!(!pronoun("edit the item"));
}
