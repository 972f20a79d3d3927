//! Questions over a planted log, understood and run through the log engine: each figure
//! checked against the one computed here from the planted lines.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

use llmops_common::query::{GroupRow, QueryResult, QueryValue};
use llmops_loganalysis::table::{self, QueryFile, QueryOptions};

use super::{FrameCtx, Understood};

/// A planted log, described as an upload is.
pub(super) struct Planted {
    _dir: tempfile::TempDir,
    ups: Vec<crate::UploadRef>,
}

impl Planted {
    pub(super) fn new(name: &str, text: &str) -> Planted {
        Planted::many(&[(name, text)])
    }

    /// Several planted logs of one session.
    pub(super) fn many(logs: &[(&str, &str)]) -> Planted {
        let dir = tempfile::tempdir().expect("tempdir");
        let names: Vec<&str> = logs.iter().map(|(n, _)| *n).collect();
        let mut ups = crate::tests::uploads(&names);
        for (u, (name, text)) in ups.iter_mut().zip(logs) {
            let path = dir.path().join(name);
            std::fs::write(&path, text).expect("write");
            let sample = table::Sample::read(&path).expect("sample");
            let d = table::describe_sample(table::builtin_registry(), &sample);
            u.path = path;
            u.columns = d.columns;
            u.format = d.format;
        }
        Planted { _dir: dir, ups }
    }

    pub(super) fn uploads(&self) -> &[crate::UploadRef] {
        &self.ups
    }

    pub(super) fn answer(&self, text: &str) -> QueryResult {
        self.answer_after(text, None)
    }

    /// The answer of `text` asked after `last`'s answer.
    pub(super) fn answer_after(&self, text: &str, last: Option<&QueryResult>) -> QueryResult {
        let last = last.map(crate::conversation::last_query);
        let ctx = FrameCtx {
            last_query: last.as_ref(),
            ..FrameCtx::of_uploads(&self.ups)
        };
        let Some(Understood::Query(f)) = super::question::understand(text, &ctx) else {
            panic!("no query for {text:?}");
        };
        self.answer_frame(text, &f)
    }

    /// A frame answered as the agent answers it: the tool's `or_else` conditions when its
    /// own match nothing (as `query_common::run_soft` does, soft words aside), then the
    /// agent's next steps (`query_steps`).
    fn answer_frame(&self, text: &str, f: &super::Frame) -> QueryResult {
        // A field the engine does not know fails the step; the agent then takes the number
        // written before the unit asked, when the frame has one.
        let r = match self.try_run(&f.query) {
            Err(_) if f.written_instead.is_some() => {
                return self.run(text, &crate::query_steps::with_written(f).query);
            }
            other => other.unwrap_or_else(|e| panic!("{text:?}: {:?}: {e}", f.query)),
        };
        let r = if r.matched == 0 && !f.or_else.is_empty() {
            let instead = llmops_common::query::Query {
                filters: f.or_else.clone(),
                ..f.query.clone()
            };
            Some(self.run(text, &instead))
                .filter(|second| second.matched > 0)
                .unwrap_or(r)
        } else {
            r
        };
        // A sum of written numbers that found too few counts the events; a field no event
        // has gives way to the number written before the unit asked.
        if f.sums_written() && crate::query_steps::too_few_summed(&r) {
            return self.run(text, &crate::query_steps::counted(f).query);
        }
        if f.written_instead.is_some() && crate::query_steps::no_value(&r) {
            return self.run(text, &crate::query_steps::with_written(f).query);
        }
        r
    }

    /// The answers of every query task a whole message becomes, in order, each run over
    /// the logs it names.
    pub(super) fn answers_of_message(&self, text: &str) -> Vec<QueryResult> {
        let conv = crate::conversation::Conversation::default();
        let ctx = crate::understand::MessageCtx {
            lang: crate::text::Lang::detect(text),
            uploads: &self.ups,
            referenced: self.ups.iter().collect(),
            history: &[],
            conv: &conv,
        };
        crate::understand::understand(text, &ctx)
            .into_iter()
            .map(|task| match task {
                crate::task::Task::Query(f) => self.answer_frame(text, &f),
                other => panic!("{text:?}: not a query: {other:?}"),
            })
            .collect()
    }

    /// One query over the logs it names, as the agent hands them to the engine.
    fn try_run(
        &self,
        q: &llmops_common::query::Query,
    ) -> Result<QueryResult, llmops_loganalysis::table::QueryError> {
        let files: Vec<QueryFile> = self
            .ups
            .iter()
            .filter(|u| {
                let path = u.path.to_string_lossy();
                q.files.is_empty() || q.files.iter().any(|f| *f == path)
            })
            .map(|u| QueryFile::new(u.filename.clone(), u.path.clone()))
            .collect();
        table::run_query(&files, q, &QueryOptions::default(), &AtomicBool::new(false))
    }

    fn run(&self, text: &str, q: &llmops_common::query::Query) -> QueryResult {
        self.try_run(q)
            .unwrap_or_else(|e| panic!("{text:?}: {q:?}: {e}"))
    }

    pub(super) fn top_group(&self, text: &str) -> GroupRow {
        match self.answer(text).value {
            QueryValue::Groups { rows, .. } => rows.into_iter().next().expect("a group"),
            other => panic!("{text:?}: not groups: {other:?}"),
        }
    }
}

/// An access log whose paths have planted mean times (ms): one path is slowest on
/// average though another holds the single slowest request, one fastest on average.
fn access_log() -> (String, BTreeMap<&'static str, Vec<f64>>) {
    let mut text = String::new();
    let mut times: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    let plan: [(&str, &str, [f64; 4]); 4] = [
        ("/api/quote", "10.0.0.11:8080", [0.420, 0.380, 0.410, 0.390]),
        ("/api/claim", "10.0.0.12:8080", [0.050, 0.060, 0.900, 0.070]),
        ("/healthz", "10.0.0.13:8080", [0.002, 0.003, 0.001, 0.002]),
        ("/api/login", "10.0.0.14:8080", [0.200, 0.210, 0.190, 0.220]),
    ];
    for round in 0..25 {
        for (path, up, secs) in plan {
            for (k, s) in secs.iter().enumerate() {
                let t = round * 16 + k;
                text.push_str(&format!(
                    "10.1.0.{k} - - [09/May/2031:01:{:02}:{:02} +0000] \"GET {path} HTTP/1.1\" 200 512 \"-\" \"curl/8.0\" rt={s:.3} urt=\"{s:.3}\" upstream_addr=\"{up}\"\n",
                    t / 60,
                    t % 60
                ));
                times.entry(path).or_default().push(*s);
            }
        }
    }
    (text, times)
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

/// "slowest on average" ranks the paths by their mean time, not by their slowest request;
/// "fastest on average" ranks them from the fastest.
#[test]
fn a_superlative_beside_an_average_ranks_the_groups_by_their_mean() {
    let (text, times) = access_log();
    let log = Planted::new("edge.log", &text);
    let by_mean = |desc: bool| {
        let mut v: Vec<(f64, &str)> = times.iter().map(|(p, t)| (mean(t), *p)).collect();
        v.sort_by(|a, b| a.0.total_cmp(&b.0));
        if desc {
            v.reverse();
        }
        v[0]
    };
    for q in [
        "which endpoint is slowest on average in edge.log",
        "edge.log 哪个接口平均最慢",
        "edge.log 里哪个接口平均耗时最长",
    ] {
        let top = log.top_group(q);
        let (m, path) = by_mean(true);
        assert_eq!(top.key, vec![path.to_string()], "{q}");
        let got = top.value.expect("a mean");
        assert!((got - m).abs() < 1e-9, "{q}: {got} vs {m}");
    }
    let top = log.top_group("which endpoint is fastest on average in edge.log");
    assert_eq!(top.key, vec![by_mean(false).1.to_string()]);
}

/// "耗时最长的 upstream", "the upstream with the highest average": the field beside the
/// superlative is whose figure is ranked.
#[test]
fn a_field_beside_a_superlative_is_grouped() {
    let (text, _) = access_log();
    let log = Planted::new("edge.log", &text);
    let top = log.top_group("edge.log 里耗时最长的 upstream");
    assert_eq!(top.key, vec!["10.0.0.12:8080".to_string()]);
    assert!((top.value.expect("a max") - 0.9).abs() < 1e-9);
    let top = log.top_group("the upstream with the highest average rt in edge.log");
    assert_eq!(top.key, vec!["10.0.0.11:8080".to_string()]);
    assert!((top.value.expect("a mean") - 0.4).abs() < 1e-9);
}

fn count(r: &QueryResult) -> u64 {
    match r.value {
        QueryValue::Count { count } => count,
        ref other => panic!("not a count: {other:?}"),
    }
}

/// "这个 client 一共发了多少请求" after the slowest request: that request's client, all of
/// its requests; "and that upstream's mean rt" its upstream.
#[test]
fn a_field_of_the_named_event_is_asked_of_its_value() {
    let (mut text, _) = access_log();
    // The slowest request of all, from a client that sent 3 in all.
    for (i, rt) in [(1, "9.500"), (2, "0.100"), (3, "0.100")] {
        text.push_str(&format!(
            "10.9.9.9 - - [09/May/2031:02:00:0{i} +0000] \"GET /api/quote HTTP/1.1\" 200 512 \"-\" \"curl/8.0\" rt={rt} urt=\"{rt}\" upstream_addr=\"10.0.0.14:8080\"\n"
        ));
    }
    let log = Planted::new("edge.log", &text);
    let slowest = log.answer("slowest request in edge.log");
    let planted = text.lines().filter(|l| l.starts_with("10.9.9.9 ")).count() as u64;
    for q in [
        "这个 client 一共发了多少请求",
        "how many requests did this client send in all?",
    ] {
        assert_eq!(count(&log.answer_after(q, Some(&slowest))), planted, "{q}");
    }
    let upstream = "10.0.0.14:8080";
    let want: Vec<f64> = text
        .lines()
        .filter(|l| l.contains(upstream))
        .map(|l| {
            let v = l.split("rt=").nth(1).and_then(|x| x.split(' ').next());
            v.expect("rt").parse::<f64>().expect("number")
        })
        .collect();
    let r = log.answer_after("那个 upstream 的平均 rt 呢", Some(&slowest));
    let QueryValue::Stat {
        value: Some(got), ..
    } = r.value
    else {
        panic!("not a stat: {:?}", r.value);
    };
    assert!((got - mean(&want)).abs() < 1e-9, "{got} vs {}", mean(&want));
}

/// The same follow-up through the whole planner, as the server asks it: the event's client
/// is a log query, not the machine's overview.
#[test]
fn the_planner_asks_the_named_event_s_field_of_the_log() {
    use crate::conversation::{Conversation, Topic};
    let (text, _) = access_log();
    let log = Planted::new("edge.log", &text);
    let slowest = log.answer("slowest request in edge.log");
    let conversation = Conversation {
        last_topic: Some(Topic::Query),
        last_query: Some(crate::conversation::last_query(&slowest)),
        ..Conversation::default()
    };
    let action = crate::plan(&crate::PlannerInput {
        text: "这个 client 一共发了多少请求",
        referenced_files: &[],
        uploads: &log.ups,
        history: &[],
        conversation: &conversation,
        steps: &[],
    });
    let crate::PlannerAction::Call { args, .. } = action else {
        panic!("{action:?}")
    };
    let llmops_tooldata::ToolArgs::LogQuery(q) = &args else {
        panic!("{args}")
    };
    assert_eq!(
        q.query.measure,
        llmops_common::query::Measure::Count,
        "{args}"
    );
}

/// "每分钟平均几个请求": the answer gives the mean per minute over the minutes from the
/// first matching request to the last, empty minutes counted.
#[test]
fn the_mean_per_minute_counts_the_empty_minutes() {
    let mut text = String::new();
    // 01:00 holds 6 requests, 01:01 none, 01:02 3: 9 over 3 minutes.
    for (m, n) in [(0, 6), (2, 3)] {
        for s in 0..n {
            text.push_str(&format!(
                "10.1.0.1 - - [09/May/2031:01:{m:02}:{s:02} +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"curl\"\n"
            ));
        }
    }
    let log = Planted::new("edge.log", &text);
    let r = log.answer("edge.log 每分钟平均有几个请求");
    let zh = crate::answer::query::render(&r, crate::Lang::Zh);
    assert!(zh.contains("平均每分钟 **3** 条（9 条 / 3 分钟"), "{zh}");
    let r = log.answer("requests per minute on average in edge.log");
    let en = crate::answer::query::render(&r, crate::Lang::En);
    assert!(
        en.contains("On average **3** per minute (9 over 3 minutes"),
        "{en}"
    );
    // Over a span too long to list every minute the engine lists the busy ones only: no
    // mean is shown, rather than one over those alone.
    let mut text = String::new();
    for day in [9, 12] {
        for s in 0..3 {
            text.push_str(&format!(
                "10.1.0.1 - - [{day:02}/May/2031:01:00:{s:02} +0000] \"GET /a HTTP/1.1\" 200 5 \"-\" \"curl\"\n"
            ));
        }
    }
    let log = Planted::new("edge.log", &text);
    let r = log.answer("requests per minute on average in edge.log");
    let en = crate::answer::query::render(&r, crate::Lang::En);
    assert!(!en.contains("On average"), "{en}");
}

/// "收件人域名有几个不同的", "top recipient domains by sent mail": the part after `@`
/// of the `to=` address, in a mail log with no domain field.
#[test]
fn recipient_domains_are_read_from_the_addresses() {
    let domains = ["mx.example.com", "mail.example.org", "inbox.example.net"];
    let mut text = String::new();
    let mut sent: BTreeMap<&str, u64> = BTreeMap::new();
    for i in 0..90u32 {
        let d = domains[(i * i % 7 % 3) as usize];
        let status = if i % 5 == 0 { "deferred" } else { "sent" };
        if status == "sent" {
            *sent.entry(d).or_default() += 1;
        }
        text.push_str(&format!(
            "Nov 14 01:{:02}:{:02} mail-01 postfix/qmgr[11]: Q{i:05}: from=<alerts@shop.example>, size=4{i:03}, nrcpt=1 (queue active)\n",
            i / 60, i % 60
        ));
        text.push_str(&format!(
            "Nov 14 01:{:02}:{:02} mail-01 postfix/smtp[12]: Q{i:05}: to=<u{i}@{d}>, relay=mx.{d}[192.0.2.1]:25, delay=0.{i}, dsn=2.0.0, status={status} (ok)\n",
            i / 60, i % 60
        ));
    }
    let log = Planted::new("maillog", &text);
    let r = log.answer("maillog 收件人域名有几个不同的？看 to=");
    let QueryValue::Distinct { count } = r.value else {
        panic!("not distinct: {:?}", r.value);
    };
    assert_eq!(count, domains.len() as u64);
    let top = log.top_group("top 3 recipient domains of status=sent mail in maillog");
    let (best, n) = sent.iter().max_by_key(|(_, n)| **n).expect("some sent");
    assert_eq!((top.key[0].as_str(), top.count), (*best, *n));
}

/// "which backend?" after a statistic of a logfmt log's errors: its events by that column.
#[test]
fn a_column_asked_after_a_statistic_groups_its_events() {
    let mut text = String::new();
    for i in 0..60u32 {
        let (lvl, backend) = if i % 3 == 0 {
            ("error", "rates-db")
        } else {
            ("info", "cache")
        };
        text.push_str(&format!(
            "time=2031-05-09T01:00:{:02}.000Z level={lvl} msg=\"call\" backend={backend} duration={}ms\n",
            i, 100 + i
        ));
    }
    let log = Planted::new("quoter.log", &text);
    let last = log.answer("quoter.log 里 error 的 p95 duration");
    let top = match log.answer_after("which backend?", Some(&last)).value {
        QueryValue::Groups { rows, .. } => rows.into_iter().next().expect("a group"),
        other => panic!("not groups: {other:?}"),
    };
    assert_eq!((top.key[0].as_str(), top.count), ("rates-db", 20));
}

/// The follow-ups' figures against planted lines: the bytes sent in all, the count in the
/// minute the last answer pointed at (over another log), all the listed events counted,
/// and the top client looked for in another log.
#[test]
fn follow_up_figures_match_the_planted_lines() {
    let mut access = String::new();
    let mut app = String::new();
    let (mut bytes, mut denied, mut in_peak_app) = (0u64, 0u64, 0u64);
    let mut by_client: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..600u64 {
        let (m, s) = (i / 60, i % 60);
        // 403s all along, more of them at 01:05, most from one client.
        let status = if i % 13 == 0 || (m == 5 && i % 3 == 0) {
            403
        } else {
            200
        };
        let client = if status == 403 && i % 2 == 0 {
            "203.0.113.77".to_string()
        } else {
            format!("10.0.0.{}", i % 9)
        };
        let size = 100 + i % 37;
        bytes += size;
        if status == 403 {
            denied += 1;
            *by_client.entry(client.clone()).or_default() += 1;
        }
        access += &format!("{client} - - [09/May/2031:01:{m:02}:{s:02} +0000] \"GET /a/{i} HTTP/1.1\" {status} {size} \"-\" \"curl\"\n");
        if i % 4 == 0 {
            // Errors at 01:05 and a few at other minutes, which the window leaves out.
            let error = m == 5 || i % 40 == 0;
            let level = if error { "ERROR" } else { "INFO" };
            if error && m == 5 {
                in_peak_app += 1;
            }
            app +=
                &format!("2031-05-09 01:{m:02}:{s:02},000 {level} [api] call from {client} done\n");
        }
    }
    let logs = Planted::many(&[("edge.log", &access), ("app.log", &app)]);
    let sum = logs.answer("how many bytes did edge.log send in all");
    assert!(
        matches!(sum.value, QueryValue::Stat { value: Some(v), .. } if v == bytes as f64),
        "{:?} vs {bytes}",
        sum.value
    );
    let peak = logs.answer("which minute had the most 403s in edge.log");
    let at_peak = logs.answer_after("how many errors in app.log at that time", Some(&peak));
    assert_eq!(count(&at_peak), in_peak_app);
    let listed = logs.answer("show the 403s in edge.log");
    let total = logs.answer_after("how many in total", Some(&listed));
    assert_eq!(count(&total), denied);
    let top = logs.answer("which client got the most 403s in edge.log");
    let (client, _) = by_client.iter().max_by_key(|(_, n)| **n).expect("a client");
    let in_app = app
        .lines()
        .filter(|l| l.contains(&format!("from {client} ")))
        .count() as u64;
    let there = logs.answer_after("app.log 里它出现了几次？", Some(&top));
    assert_eq!(count(&there), in_app);
}

/// A logfmt log with planted clients, minutes and durations, each ranking without ties.
struct Ranked {
    log: Planted,
    by_client: BTreeMap<String, u64>,
    by_minute: BTreeMap<String, u64>,
    /// Each event's time and duration (ms), in file order.
    events: Vec<(String, u64)>,
}

impl Ranked {
    fn new() -> Ranked {
        let per_client = [
            ("10.0.0.1", 9),
            ("10.0.0.2", 7),
            ("10.0.0.3", 5),
            ("10.0.0.4", 3),
        ];
        let clients: Vec<&str> = per_client
            .iter()
            .flat_map(|&(c, n)| std::iter::repeat_n(c, n))
            .collect();
        let n = clients.len();
        let (mut text, mut by_client, mut by_minute, mut events) =
            (String::new(), BTreeMap::new(), BTreeMap::new(), Vec::new());
        for i in 0..n {
            // A fixed shuffle of the clients; 10, 8 and 6 events in the three minutes.
            let client = clients[i * 5 % n];
            let minute = [0, 10, 18].iter().filter(|&&from| i >= from).count() - 1;
            let time = format!("2031-05-09T01:{minute:02}:{:02}Z", i % 60);
            let d = (i as u64 * 37 % 101) + 10;
            text.push_str(&format!(
                "time={time} level=info msg=\"served\" client={client} duration={d}ms\n"
            ));
            *by_client.entry(client.to_string()).or_insert(0) += 1;
            *by_minute.entry(format!("01:{minute:02}")).or_insert(0) += 1;
            events.push((time, d));
        }
        Ranked {
            log: Planted::new("served.log", &text),
            by_client,
            by_minute,
            events,
        }
    }
}

/// The key and the count at position `n` (1 is the most) of planted counts.
fn nth_of(m: &BTreeMap<String, u64>, n: usize) -> (String, u64) {
    let mut v: Vec<(&String, &u64)> = m.iter().collect();
    v.sort_by(|a, b| b.1.cmp(a.1));
    (v[n - 1].0.clone(), *v[n - 1].1)
}

/// "The client with the second most requests", "排第三的客户端": the answer leads with the
/// group at that position, and a follow-up refers to it.
#[test]
fn a_position_among_groups_leads_with_the_planted_one() {
    use crate::answer::query::render;
    use crate::text::Lang;
    let r = Ranked::new();
    for (q, n) in [
        ("which client sent the second most requests", 2),
        ("排第三的客户端是哪个", 3),
    ] {
        let answer = r.log.answer(q);
        let (client, events) = nth_of(&r.by_client, n);
        let lang = if q.is_ascii() { Lang::En } else { Lang::Zh };
        let lead = render(&answer, lang);
        let want = match lang {
            Lang::En => format!("number {n} is **{client}** ({events})"),
            Lang::Zh => format!("第 {n} 是 **{client}**（{events}）"),
        };
        assert!(lead.contains(&want), "{q}: {lead}");
        // "它呢" after it is the client at that position; the list keeps its order.
        let last = crate::conversation::last_query(&answer);
        let client = vec![("client".to_string(), client)];
        assert_eq!(last.top(), Some(&client), "{q}");
        assert_eq!(last.items.get(n - 1), Some(&client), "{q}");
    }
    // After the ranking itself, "第二多的呢" is the listed item at that position, and
    // after a ranked answer "the third one" is the third.
    let top = r.log.answer("which client sent the most requests");
    let (client, n) = nth_of(&r.by_client, 2);
    let picked = r.log.answer_after("第二多的呢", Some(&top));
    assert_eq!(count(&picked), n, "{client}: {:?}", picked.query);
    let ranked = r.log.answer("which client sent the second most requests");
    let (client, n) = nth_of(&r.by_client, 3);
    let third = r.log.answer_after("the third one", Some(&ranked));
    assert_eq!(count(&third), n, "{client}: {:?}", third.query);
}

/// "The second slowest request": the event at that position, by its time.
#[test]
fn a_position_among_events_leads_with_the_planted_one() {
    use crate::answer::query::render;
    use crate::text::Lang;
    let r = Ranked::new();
    let mut by_ms = r.events.clone();
    by_ms.sort_by_key(|e| std::cmp::Reverse(e.1));
    let when = &by_ms[1].0;
    for q in ["the second slowest request", "第二慢的请求是哪个"] {
        let answer = r.log.answer(q);
        let QueryValue::Rows { rows, .. } = &answer.value else {
            panic!("{q}: not rows: {:?}", answer.value);
        };
        assert_eq!(rows[1].time.as_ref(), Some(when), "{q}");
        assert!(
            render(&answer, Lang::En).contains(&format!("**{when}**")),
            "{q}"
        );
    }
}

/// "The second busiest minute", the quietest, the second quietest; a position past the
/// last says how many there are.
#[test]
fn a_position_among_buckets_leads_with_the_planted_one() {
    use crate::answer::query::render;
    use crate::text::Lang;
    let r = Ranked::new();
    let minutes = r.by_minute.len();
    // Each question, the position it asks, and the position of the minute listed first
    // under it (the asked end of the ranking).
    for (q, n, lang, first) in [
        ("the second busiest minute", 2, Lang::En, 1),
        ("哪一分钟请求最少", minutes, Lang::Zh, minutes),
        (
            "which minute had the second fewest requests",
            minutes - 1,
            Lang::En,
            minutes,
        ),
    ] {
        let (minute, events) = nth_of(&r.by_minute, n);
        let lead = render(&r.log.answer(q), lang);
        let want = match lang {
            Lang::En => format!("{minute}** ({events})"),
            Lang::Zh => format!("{minute}**（{events} 条）"),
        };
        assert!(lead.contains(&want), "{q}: {lead}");
        let first_listed = lead.lines().nth(1).unwrap_or_default();
        assert!(
            first_listed.contains(&nth_of(&r.by_minute, first).0),
            "{q}: {lead}"
        );
    }
    let lead = render(&r.log.answer("the 9th busiest minute"), Lang::En);
    assert!(
        lead.contains(&format!("there are only {minutes}, no number 9")),
        "{lead}"
    );
}

/// A position that shares its count with the one after it says so.
#[test]
fn a_tie_at_the_position_asked_is_said() {
    use crate::answer::query::render;
    use crate::text::Lang;
    // Four events of 10.0.0.1, then two each of 10.0.0.2 and 10.0.0.3.
    let text: String = ["1", "1", "1", "1", "2", "2", "3", "3"]
        .iter()
        .enumerate()
        .map(|(i, c)| {
            format!("time=2031-05-09T01:00:{i:02}Z level=info msg=\"served\" client=10.0.0.{c}\n")
        })
        .collect();
    let log = Planted::new("tied.log", &text);
    let lead = render(
        &log.answer("which client sent the second most requests"),
        Lang::En,
    );
    assert!(
        lead.contains("number 2 is **10.0.0.2** (2) (tied with number 3)"),
        "{lead}"
    );
}
