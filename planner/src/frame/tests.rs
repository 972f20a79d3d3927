//! Frames of questions over planted uploads: each slot checked.

use llmops_common::query::{Query, Source};

use super::build::understand;
use super::{FrameCtx, Understood};
use crate::tests::uploads;

fn q(text: &str) -> Option<Query> {
    let ups = uploads(&["access.log", "app.log", "nginx.conf"]);
    let ctx = FrameCtx {
        uploads: &ups,
        referenced: &[],
        last_file: None,
        last_query: None,
    };
    match understand(text, &ctx) {
        Some(Understood::Query(f)) => Some(f.query),
        _ => None,
    }
}

#[test]
fn dump() {
    for t in [
        "how many requests returned 503 in access.log",
        "how many 5xx in access.log",
        "which URL fails most in access.log",
        "which endpoint is slowest in access.log",
        "when did the 502s spike in access.log",
        "access.log 里有多少个 503",
        "access.log 中哪个 IP 请求最多",
        "how many times does OutOfMemoryError appear in app.log",
        "how many nginx workers are running",
        "what is the pid of redis-server",
        "which process listens on port 8080",
        "how many requests took over 1 second in access.log",
        "access.log 最近 10 分钟有多少 5xx",
        "what happened around 02:47 in app.log",
        "p95 latency per endpoint in access.log",
        "payments.log 里一共有多少条 ERROR？",
        "how many failed logins, from which IP",
        "每个接口的平均耗时",
        "top 5 clients by requests",
    ] {
        println!("{t}\n   => {}", q(t).map(|q| serde_json::to_string(&q).unwrap_or_default()).unwrap_or("None".into()));
    }
    let _ = Source::Log;
}
