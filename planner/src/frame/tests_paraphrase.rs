//! Paraphrases plan one query: the same question in other words, in English and in
//! Chinese (counts of a class, the top N in number words, a count of a field's values,
//! yes or no, the latest event with a code, a method and a code, the bytes summed) asks
//! the same of the log.

use super::tests_framing::{planned, session};

/// Each group's questions, asked of `edge-access.log`, plan the first one's query.
#[test]
fn paraphrases_plan_one_query() {
    let ups = session();
    let groups: [&[&str]; 7] = [
        &[
            "how many requests returned a 5xx",
            "how many 5xx responses are there",
            "有多少个5xx",
            "返回5xx的请求有多少",
            "5xx有多少个",
        ],
        &[
            "which 5 clients sent the most requests",
            "top five clients by request count",
            "what are the 5 busiest clients",
            "请求最多的前五个客户端",
            "哪5个客户端请求最多",
            "请求数前5的客户端",
        ],
        &[
            "how many clients are there",
            "how many unique clients",
            "有几个客户端",
            "客户端有多少个",
            "有多少个不同的客户端",
        ],
        &[
            "are there any 504s",
            "有没有 504",
            "是不是有 504",
            "有 504 吗",
        ],
        &[
            "when was the last 504",
            "最后一个504是什么时候",
            "504 最后一次出现在几点",
        ],
        &[
            "how many GET requests returned 404",
            "GET 请求里 404 有多少个",
            "有多少个返回404的GET请求",
            "返回 404 的 GET 请求共计多少",
        ],
        &[
            "total bytes sent",
            "how many bytes were sent in total",
            "一共发送了多少字节",
            "总共传输了多少字节",
        ],
    ];
    let ask = |q: &str| {
        let text = if q.is_ascii() {
            format!("{q} in edge-access.log")
        } else {
            format!("edge-access.log 里{q}")
        };
        planned(&ups, &text)
    };
    // What each group's first question plans: the reading all of them share.
    let reads: [&[&str]; 7] = [
        &[
            r#""measure":"count""#,
            r#"{"field":"status","op":"class","value":5.0}"#,
        ],
        &[r#""group_by":["client"]"#, r#""limit":5"#],
        &[r#""measure":"count_distinct""#, r#""field":"client""#],
        &[
            r#""measure":"count""#,
            r#"{"field":"status","op":"eq","value":504.0}"#,
        ],
        &[r#""measure":"rows""#, r#""limit":1"#, r#""value":504.0"#],
        &[r#""value":"GET""#, r#""value":404.0"#],
        &[r#""measure":"sum""#, r#""field":"bytes""#],
    ];
    for (group, read) in groups.iter().zip(reads) {
        let want = ask(group[0]);
        for r in read {
            assert!(want.contains(r), "{}: {want} lacks {r}", group[0]);
        }
        for q in &group[1..] {
            assert_eq!(ask(q), want, "{q} (vs {})", group[0]);
        }
    }
}
