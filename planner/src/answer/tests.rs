//! The answer writers on typed tool data: monitor sentences, search hits (the answering
//! line first, secrets masked), page reads of configs and logs, offers and failures.

use super::*;
use crate::test_data::{hit, page};
use llmops_tooldata::{PageData, SearchScope};
use serde_json::{json, Value};

fn step(tool: &str, args: Value, ok: bool, data: ToolData, error: Option<&str>) -> StepRecord {
    let tool: crate::ToolName = tool.parse().expect("a tool name");
    StepRecord {
        tool,
        args: ToolArgs::from_json(tool, args).expect("valid arguments"),
        ok,
        output: String::new(),
        data,
        error: error.map(str::to_string),
    }
}

#[test]
fn failure_quotes_error() {
    let s = step(
        "file_download",
        json!({"file_path": "/etc/passwd"}),
        false,
        ToolData::None,
        Some("路径匹配禁止模式: /etc/passwd"),
    );
    let t = failure(&s, Lang::Zh);
    assert!(
        t.contains("路径匹配禁止模式: /etc/passwd") && t.contains("失败"),
        "{t}"
    );
}

#[test]
fn monitor_sentence() {
    let d = MonitorData {
        cpu: Some(CpuStats {
            usage_percent: 12.5,
            cores: 8,
            frequency_mhz: 2400,
            load_avg: [0.5, 0.4, 0.3],
            per_core: Vec::new(),
        }),
        memory: Some(MemoryStats {
            total_bytes: 16 << 30,
            used_bytes: 4 << 30,
            available_bytes: 12 << 30,
            usage_percent: 25.0,
            ..MemoryStats::default()
        }),
        disks: None,
    };
    let t = monitor(Some(&d), "all", Lang::Zh);
    let m = monitor(Some(&d), "memory", Lang::Zh);
    assert!(!m.contains("CPU") && m.contains("内存"), "{m}");
    assert!(
        t.contains("CPU 使用率 12.5%")
            && t.contains("8 核")
            && t.contains("25.0%")
            && t.contains("16.0 GiB"),
        "{t}"
    );
}

#[test]
fn search_answer_leads_with_the_line_that_sets_the_value() {
    let answered =
        |h: SearchHit, line: u32, text: &str, key: Option<&str>, comment: bool| SearchHit {
            answer: Some(AnswerLine {
                line,
                text: text.into(),
                key: key.map(str::to_string),
                comment,
            }),
            ..h
        };
    let d = SearchData {
        query: "orders 容器 内存限制".into(),
        scope: SearchScope::All,
        results: vec![
            answered(
                hit(
                    "orders.yaml",
                    "/u/orders.yaml",
                    0.9,
                    "limits:\n  memory: 1536Mi",
                ),
                88,
                "memory: 1536Mi",
                Some("spec.containers.resources.limits.memory"),
                false,
            ),
            answered(
                hit("cache.conf", "/u/cache.conf", 0.5, "requirepass hunter2"),
                3,
                "requirepass hunter2",
                None,
                false,
            ),
        ],
    };
    let a = search(Some(&d), Lang::Zh);
    assert!(
        a.starts_with("最相关的一行：**orders.yaml** 第 88 行 `memory: 1536Mi`（键 `spec.containers.resources.limits.memory`）"),
        "{a}"
    );
    assert!(
        a.contains("第 3 行 requirepass ******") && !a.contains("hunter2"),
        "{a}"
    );
    let a = search(Some(&d), Lang::En);
    assert!(
        a.starts_with("Best match: **orders.yaml** line 88: `memory: 1536Mi`"),
        "{a}"
    );
    // A comment as the closest line is not offered as the value.
    let comment = "# ---- Redis (shared cache) ----";
    let d = SearchData {
        query: "redis port".into(),
        scope: SearchScope::All,
        results: vec![answered(
            hit("app.properties", "/u/app.properties", 0.7, comment),
            68,
            comment,
            None,
            true,
        )],
    };
    let a = search(Some(&d), Lang::En);
    assert!(
        a.starts_with(
            "No line that sets it matched; the closest is a comment, **app.properties** line 68"
        ),
        "{a}"
    );
    let a = search(Some(&d), Lang::Zh);
    assert!(a.starts_with("没有找到直接设置它的行"), "{a}");
}

#[test]
fn yaml_answer_quotes_value() {
    let text =
        "app:\n  name: billing\ndatabase:\n  host: 127.0.0.1\n  port: 3306\nqueue:\n  port: 5672\n";
    let d = ToolData::Page(PageData {
        path: "/u/1/config.yaml".into(),
        limit: 200,
        total_lines: 11,
        lines: text.lines().map(str::to_string).collect(),
        ..PageData::default()
    });
    let t = read(&d, "数据库端口是多少", Lang::Zh);
    assert!(
        t.starts_with("`port = 3306` — config.yaml 第 5 行，位于 `database`")
            && !t.contains("5672"),
        "{t}"
    );
}

#[test]
fn a_config_no_setting_matches_answers_with_the_lines_that_say_the_words() {
    let cfg = "global\n    log /dev/log local0\n    user haproxy\n    chroot /var/lib/haproxy\n    maxconn 48000\n\ndefaults\n    timeout connect 5s\n";
    let lines: Vec<&str> = cfg.lines().collect();
    let d = page("/u/1/haproxy.cfg", &lines, 0, 200, 8);
    let t = read(&d, "haproxy 全局 maxconn 多少", Lang::Zh);
    assert!(t.contains("> maxconn 48000"), "{t}");
    // The file's name alone picks no line.
    assert!(!t.contains("chroot"), "{t}");
    // A question no line speaks to gets the file's first lines.
    let t = read(&d, "看看这个配置", Lang::Zh);
    assert!(t.contains("主要内容") && t.contains("> global"), "{t}");
}

#[test]
fn log_answer_counts() {
    let d = page(
        "/u/1/app.log",
        &[
            "2026-01-01 00:00:01 ERROR a failed",
            "2026-01-01 00:00:02 ERROR a failed",
            "2026-01-01 00:00:03 INFO ok",
        ],
        0,
        200,
        3,
    );
    let t = read(&d, "分析日志", Lang::Zh);
    assert!(
        t.contains("ERROR 2") && t.contains("INFO 1") && t.contains("a failed（2 次）"),
        "{t}"
    );
}

#[test]
fn a_log_page_is_never_reported_as_the_whole_file() {
    let lines: Vec<String> = (0..200)
        .map(|i| {
            format!(
                "2026-01-01 00:00:{:02} {} step {i}",
                i % 60,
                if i % 10 == 0 { "ERROR" } else { "INFO" }
            )
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let d = page("/u/1/app.log", &lines, 0, 200, 13000);
    let t = read(&d, "有多少个 ERROR", Lang::Zh);
    assert!(
        t.starts_with(
            "app.log 只读取了第 1–200 行（全文 13000 行），以下统计只针对这 200 行，不是全文总数"
        ),
        "{t}"
    );
    assert!(
        t.contains("ERROR 20") && !t.contains("共 200 行日志"),
        "{t}"
    );
    let t = read(&d, "how many errors", Lang::En);
    assert!(t.contains("only lines 1-200 of 13000 were read"), "{t}");
}

#[test]
fn download_offer() {
    let d = DownloadOffer {
        file_path: "/u/1/config.yaml".into(),
        filename: "config.yaml".into(),
        size: 155,
        sha256: "abc".into(),
        transport_mode: llmops_common::TransferMode::Auto,
    };
    assert!(download(Some(&d), Lang::Zh)
        .starts_with("已准备好 config.yaml (155 B)，请在对话框中接受或拒绝"));
}

#[test]
fn disk_figures_include_what_df_h_prints() {
    // `df` on a 252G disk: 48572736 KiB used, 46713152 KiB available -> `47G` and `45G`.
    let d = DiskStats {
        mount: "/".into(),
        usage_percent: 50.98,
        used_bytes: 48572736 * 1024,
        total_bytes: 264212084 * 1024,
        available_bytes: 46713152 * 1024,
        ..DiskStats::default()
    };
    let mut warn = Vec::new();
    let s = disks_sentence(std::slice::from_ref(&d), Lang::En, &mut warn).expect("one mount");
    assert!(
        s.contains("51.0% used") && s.contains("df -h: 47G used, 45G avail"),
        "{s}"
    );
    let s = disks_sentence(std::slice::from_ref(&d), Lang::Zh, &mut warn).expect("one mount");
    assert!(s.contains("已用 47G，可用 45G"), "{s}");
    // The sampler's Use% is df's, a whole number rounded up: written as df prints it.
    let d = DiskStats {
        usage_percent: 51.0,
        ..d
    };
    let s = disks_sentence(&[d], Lang::Zh, &mut warn).expect("one mount");
    assert!(s.contains("/ 已用 51%（"), "{s}");
}
