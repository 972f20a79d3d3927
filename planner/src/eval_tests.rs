//! Test harness: runs eval-format case files through `plan` with simulated tools (test-only
//! approximations of the real tools and policies) and scores them with the eval README's rules.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use llmops_tooldata::{DownloadOffer, PageData, ProcSort, SearchScope, ToolArgs, ToolData};
use serde_json::Value;

use super::conversation::{facts_of, Conversation, StepFacts};
use super::test_data::{hit, machine, process, processes, ran, search};
use super::{plan, HistoryTurn, PlannerAction, PlannerInput, StepRecord, UploadRef, MAX_STEPS};

pub(super) struct Fixture {
    upload: UploadRef,
    content: String,
}

pub(super) fn load_fixtures(dir: &Path) -> Vec<Fixture> {
    let mut names: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
        .into_iter()
        .enumerate()
        .map(|(i, p)| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let content = std::fs::read_to_string(&p).unwrap();
            let id = format!("{:08x}-u{i}", 0x1234_5678 + i);
            Fixture {
                upload: UploadRef {
                    file_id: id.clone(),
                    filename: name.clone(),
                    path: PathBuf::from(format!("/data/uploads/{id}/{name}")),
                    size: content.len() as u64,
                    sha256: "0f".repeat(32),
                    uploaded_at: format!("2026-10-01 09:0{i}:00"),
                    content_type: "text/plain".into(),
                    columns: Vec::new(),
                    format: None,
                },
                content,
            }
        })
        .collect()
}

fn forbidden(path: &str) -> bool {
    let p = path.to_lowercase();
    [
        "/etc/shadow",
        "/etc/passwd",
        "/etc/sudoers",
        ".ssh",
        "id_rsa",
        ".env",
        "/root",
        "/proc",
    ]
    .iter()
    .any(|x| p.contains(x))
}

fn fixture_by_path<'a>(fx: &'a [Fixture], path: &str) -> Option<&'a Fixture> {
    fx.iter().find(|f| f.upload.path.to_string_lossy() == path)
}

fn ok(data: ToolData) -> (bool, ToolData, Option<String>) {
    (true, data, None)
}

fn fail(msg: String) -> (bool, ToolData, Option<String>) {
    (false, ToolData::None, Some(msg))
}

/// Terms of a query: ASCII words and CJK bigrams (or single chars for 1-char runs).
fn terms(q: &str) -> Vec<String> {
    let mut out: Vec<String> = super::text::ascii_words(q)
        .into_iter()
        .filter(|w| w.len() >= 2)
        .collect();
    let chars: Vec<char> = q.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if super::text::is_cjk(*c) {
            if let Some(n) = chars.get(i + 1).filter(|n| super::text::is_cjk(**n)) {
                out.push(format!("{c}{n}"));
            }
        }
    }
    out
}

/// `log_query` with the real engine over the fixtures' bytes (only the file system is
/// simulated: each fixture is written to a temp dir under its upload's name).
fn sim_log_query(args: &Value, fx: &[Fixture]) -> (bool, ToolData, Option<String>) {
    let q: llmops_common::query::QueryArgs = match serde_json::from_value(args.clone()) {
        Ok(q) => q,
        Err(e) => return fail(format!("参数错误: {e}")),
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for f in &q.query.files {
        let Some(x) = fixture_by_path(fx, f) else {
            return fail(format!("文件不存在: {f}"));
        };
        let path = dir.path().join(&x.upload.filename);
        std::fs::write(&path, &x.content).expect("write fixture");
        files.push(llmops_loganalysis::QueryFile::new(
            x.upload.filename.clone(),
            path,
        ));
    }
    let mut query = q.query.clone();
    query.filters.extend(q.soft.iter().cloned());
    let cancel = std::sync::atomic::AtomicBool::new(false);
    let opts = llmops_loganalysis::QueryOptions::default();
    match llmops_loganalysis::run_query(&files, &query, &opts, &cancel) {
        Ok(mut r) => {
            // The real tool reports the resolved upload paths, not the temp copies.
            for (src, asked) in r.sources.iter_mut().zip(&q.query.files) {
                src.path = Some(asked.clone());
            }
            ok(ToolData::Query(Box::new(r)))
        }
        Err(e) => fail(e.to_string()),
    }
}

/// `system_query` over a fixed process table with the real engine.
fn sim_system_query(args: &Value) -> (bool, ToolData, Option<String>) {
    use llmops_common::query::{FieldInfo, FieldKind, Unit};
    use llmops_loganalysis::{Cell, MemTable};
    let q: llmops_common::query::QueryArgs = match serde_json::from_value(args.clone()) {
        Ok(q) => q,
        Err(e) => return fail(format!("参数错误: {e}")),
    };
    let col = |name: &str, kind: FieldKind, unit: Unit| FieldInfo {
        name: name.into(),
        kind,
        unit,
        roles: Vec::new(),
        example: None,
    };
    let row = |pid: i64, user: &str, name: &str, cpu: f64, rss: i64, cmd: &str| {
        vec![
            Cell::Int(pid),
            Cell::Text(user.into()),
            Cell::Text(name.into()),
            Cell::Num(cpu),
            Cell::Int(rss),
            Cell::Text(cmd.into()),
        ]
    };
    let table = MemTable {
        name: "processes".into(),
        fields: vec![
            col("pid", FieldKind::Integer, Unit::None),
            col("user", FieldKind::Text, Unit::None),
            col("name", FieldKind::Text, Unit::None),
            col("cpu_percent", FieldKind::Number, Unit::Percent),
            col("rss_bytes", FieldKind::Integer, Unit::B),
            col("command", FieldKind::Text, Unit::None),
        ],
        rows: vec![
            row(
                812,
                "mysql",
                "mysqld",
                4.0,
                1_610_612_736,
                "/usr/sbin/mysqld",
            ),
            row(
                1403,
                "www-data",
                "php-fpm",
                61.0,
                104_857_600,
                "php-fpm: pool www",
            ),
        ],
    };
    if q.query.source != llmops_common::query::Source::Processes {
        return fail(format!(
            "simulated table: only processes, not {}",
            q.query.source.as_str()
        ));
    }
    match llmops_loganalysis::run_table(&table, &q.query) {
        Ok(r) => ok(ToolData::Query(Box::new(r))),
        Err(e) => fail(e.to_string()),
    }
}

/// Simulated tools: enough behaviour to exercise chains and the eval's scoring.
fn run_tool(tool: &str, args: &Value, fx: &[Fixture]) -> (bool, ToolData, Option<String>) {
    let s = |k: &str| args[k].as_str().unwrap_or("").to_string();
    match tool {
        "sys_monitor" if s("metric") == "processes" => {
            let mut procs = vec![
                process(
                    812,
                    "mysql",
                    "mysqld",
                    4.0,
                    1_610_612_736,
                    18.8,
                    "/usr/sbin/mysqld",
                ),
                process(
                    1403,
                    "www-data",
                    "php-fpm",
                    61.0,
                    104_857_600,
                    1.2,
                    "php-fpm: pool www",
                ),
            ];
            if s("sort") == "cpu" {
                procs.reverse();
            }
            let name = s("name");
            procs.retain(|p| name.is_empty() || p.name.contains(&name));
            let sort = if s("sort") == "memory" {
                ProcSort::Memory
            } else {
                ProcSort::Cpu
            };
            ok(processes(sort, 97, 4, procs))
        }
        "sys_monitor" => {
            let metric = s("metric");
            if !["cpu", "memory", "disk", "all"].contains(&metric.as_str()) {
                return fail(format!("unknown metric: {metric}"));
            }
            ok(machine())
        }
        "command_executor" => {
            let command = s("command");
            let argv: Vec<String> = args["args"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|x| x.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            if !super::slots::is_known_command(&command) {
                return fail(format!("命令不在白名单中: {command}"));
            }
            // `|` alone separates pipeline stages; each stage must be a known command.
            if let Some(stage) = argv
                .split(|a| a == "|")
                .skip(1)
                .find_map(|st| st.first().filter(|c| !super::slots::is_known_command(c)))
            {
                return fail(format!("命令不在白名单中: {stage}"));
            }
            if let Some(bad) = argv
                .iter()
                .filter(|a| *a != "|")
                .find(|a| a.contains(['|', '&', ';', '>', '<', '`', '$']))
            {
                return fail(format!("参数包含非法字符: {bad}"));
            }
            if let Some(bad) = argv.iter().find(|a| forbidden(a)) {
                return fail(format!("路径匹配禁止模式: {bad}"));
            }
            let files: Vec<&Fixture> = argv.iter().filter_map(|a| fixture_by_path(fx, a)).collect();
            let stdout = match command.as_str() {
                "ls" => fx
                    .iter()
                    .map(|f| f.upload.filename.clone())
                    .collect::<Vec<_>>()
                    .join("\n"),
                "cat" | "head" | "tail" | "grep" if files.is_empty() => {
                    let missing = argv
                        .iter()
                        .find(|a| !a.starts_with('-') && a.contains('.'))
                        .cloned();
                    return fail(format!(
                        "No such file or directory: {}",
                        missing.unwrap_or_default()
                    ));
                }
                "cat" | "head" | "tail" => files[0].content.clone(),
                "grep" => {
                    let pat = argv
                        .iter()
                        .find(|a| !a.starts_with('-'))
                        .cloned()
                        .unwrap_or_default();
                    files[0]
                        .content
                        .lines()
                        .filter(|l| l.contains(&pat))
                        .collect::<Vec<_>>()
                        .join("\n")
                }
                "pwd" => "/srv/app".into(),
                "whoami" => "llmops".into(),
                _ => "ok".into(),
            };
            let argv: Vec<&str> = argv.iter().map(String::as_str).collect();
            ok(ran(&command, &argv, &stdout, "/srv/app"))
        }
        "semantic_search" => {
            let q = s("query");
            if q.trim().is_empty() {
                return fail("query 不能为空".into());
            }
            let k = args["top_k"].as_u64().unwrap_or(3) as usize;
            let ts = terms(&q);
            let mut scored: Vec<(usize, &Fixture)> = fx
                .iter()
                .map(|f| {
                    let hay = format!("{} {}", f.upload.filename, f.content).to_lowercase();
                    (ts.iter().filter(|t| hay.contains(t.as_str())).count(), f)
                })
                .filter(|(n, _)| *n > 0)
                .collect();
            scored.sort_by_key(|a| std::cmp::Reverse(a.0));
            let results = scored
                .iter()
                .take(k)
                .map(|(n, f)| {
                    let chunk: String = f.content.chars().take(120).collect();
                    let path = f.upload.path.to_string_lossy();
                    let similarity = (0.5 + 0.1 * *n as f64) as f32;
                    llmops_tooldata::SearchHit {
                        position: "line 1".into(),
                        match_type: "lexical".into(),
                        file_id: Some(f.upload.file_id.clone()),
                        ..hit(&f.upload.filename, &path, similarity, &chunk)
                    }
                })
                .collect();
            let scope = SearchScope::parse(&s("scope")).unwrap_or_default();
            ok(search(&q, scope, results))
        }
        "file_read" => {
            let p = s("file_path");
            if forbidden(&p) {
                return fail(format!("路径匹配禁止模式: {p}"));
            }
            match fixture_by_path(fx, &p) {
                // The real analyser over the fixture's bytes (only the I/O is simulated).
                Some(f) if s("mode") == "analyze" => {
                    let report = llmops_loganalysis::analyze_bytes(
                        f.content.as_bytes(),
                        llmops_loganalysis::AnalyzeOptions::default(),
                    );
                    let data = llmops_loganalysis::FileAnalysis {
                        mode: llmops_loganalysis::AnalyzeMode::Analyze,
                        path: p.clone(),
                        file: f.upload.filename.clone(),
                        report,
                    };
                    ok(ToolData::Analysis(Box::new(data)))
                }
                Some(f) => {
                    let offset = args["offset"].as_u64().unwrap_or(0) as usize;
                    let limit = args["limit"].as_u64().unwrap_or(200) as usize;
                    let all: Vec<&str> = f.content.lines().collect();
                    let page: Vec<&str> = all.iter().skip(offset).take(limit).copied().collect();
                    let more = all.len().saturating_sub(offset + page.len());
                    ok(ToolData::Page(PageData {
                        path: p,
                        offset: offset as u64,
                        limit: limit as u64,
                        total_lines: all.len() as u64,
                        lines: page.iter().map(|l| l.to_string()).collect(),
                        more_lines: more as u64,
                        ..PageData::default()
                    }))
                }
                None => fail(format!("文件不存在: {p}")),
            }
        }
        "log_query" => sim_log_query(args, fx),
        "system_query" => sim_system_query(args),
        "file_upload" => {
            let all: Vec<&UploadRef> = fx.iter().map(|f| &f.upload).collect();
            let sel: Vec<&UploadRef> = match s("reference").as_str() {
                "this" => all.last().copied().into_iter().collect(),
                "these" => {
                    let n = args["count"].as_u64().unwrap_or(2) as usize;
                    all[all.len().saturating_sub(n)..].to_vec()
                }
                "previous" => all[..all.len().saturating_sub(1)].to_vec(),
                "all" => all,
                other => return fail(format!("unknown reference: {other}")),
            };
            ok(ToolData::Uploads(sel.into_iter().cloned().collect()))
        }
        "file_download" => {
            let p = s("file_path");
            if forbidden(&p) {
                return fail(format!("路径匹配禁止模式: {p}"));
            }
            match fixture_by_path(fx, &p) {
                Some(f) => ok(ToolData::Offer(DownloadOffer {
                    file_path: p,
                    filename: f.upload.filename.clone(),
                    size: f.upload.size,
                    sha256: f.upload.sha256.clone(),
                    transport_mode: llmops_common::TransferMode::Auto,
                })),
                None => fail(format!("文件不存在: {p}")),
            }
        }
        other => fail(format!("unknown tool {other}")),
    }
}

/// One session of the harness: the history and conversation state earlier turns left, built
/// as the agent loop builds them (`conversation::facts_of` per step, the last turns folded).
#[derive(Default)]
struct Session {
    history: Vec<HistoryTurn>,
    turns: Vec<(String, Vec<StepFacts>)>,
}

impl Session {
    /// Runs one turn; returns the steps and the final text.
    fn ask(
        &mut self,
        text: &str,
        fx: &[Fixture],
        attach: &[UploadRef],
    ) -> (Vec<StepRecord>, String) {
        let conv =
            Conversation::from_turns(self.turns.iter().map(|(u, f)| (u.as_str(), f.clone())));
        let (steps, answer) = run_turn_with(text, fx, attach, &self.history, &conv);
        if std::env::var_os("PLANNER_SHOW").is_some() {
            let trace: Vec<String> = steps
                .iter()
                .map(|s| format!("{}{}{}", s.tool, s.args, if s.ok { "" } else { "!" }))
                .collect();
            println!("  turn {text:?} {trace:?}");
        }
        self.history.push(HistoryTurn {
            role: "user".into(),
            text: text.to_string(),
        });
        self.history.push(HistoryTurn {
            role: "assistant".into(),
            text: answer.clone(),
        });
        let facts = steps
            .iter()
            .filter_map(|s| facts_of(&s.args, s.ok, &s.data))
            .collect();
        self.turns.push((text.to_string(), facts));
        (steps, answer)
    }
}

/// Runs one turn in a fresh session; returns the steps and the final text.
pub(super) fn run_turn(text: &str, fx: &[Fixture]) -> (Vec<StepRecord>, String) {
    run_turn_with(text, fx, &[], &[], &Conversation::default())
}

fn run_turn_with(
    text: &str,
    fx: &[Fixture],
    attach: &[UploadRef],
    history: &[HistoryTurn],
    conversation: &Conversation,
) -> (Vec<StepRecord>, String) {
    let uploads: Vec<UploadRef> = fx.iter().map(|f| f.upload.clone()).collect();
    let mut steps: Vec<StepRecord> = Vec::new();
    for _ in 0..=MAX_STEPS {
        let input = PlannerInput {
            text,
            referenced_files: attach,
            uploads: &uploads,
            history,
            conversation,
            steps: &steps,
        };
        match plan(&input) {
            PlannerAction::Final { text } => return (steps, text),
            PlannerAction::Call { tool, args, status } => {
                assert!(!status.is_empty());
                assert!(
                    steps.len() < MAX_STEPS,
                    "planner asked for a step past the budget: {text}"
                );
                let (ok, data, error) = run_tool(tool.as_str(), &args.to_json(), fx);
                steps.push(StepRecord {
                    tool,
                    args,
                    ok,
                    output: data.to_value().to_string(),
                    data,
                    error,
                });
            }
        }
    }
    panic!("planner did not finish: {text}");
}

fn basename(p: &str) -> &str {
    p.rsplit('/').next().unwrap_or(p)
}

/// Applies the README's scoring rules; returns the failed rule names.
fn score(case: &Value, steps: &[StepRecord], answer: &str) -> Vec<String> {
    let mut bad = Vec::new();
    for want in case["answer_has"].as_array().into_iter().flatten() {
        let want = want.as_str().unwrap_or_default();
        if !answer.contains(want) {
            bad.push(format!("answer_has {want:?}"));
        }
    }
    if let Some(first) = case["first"].as_array() {
        let got = steps
            .first()
            .map(|s| Value::String(s.tool.to_string()))
            .unwrap_or(Value::Null);
        if !first.contains(&got) {
            bad.push(format!("first={got}"));
        }
    }
    if let Some(cs) = case["contains"].as_array() {
        for c in cs.iter().filter_map(Value::as_str) {
            if !steps.iter().any(|s| s.tool == c) {
                bad.push(format!("contains {c}"));
            }
        }
    }
    if let Some(args) = case["args"].as_object() {
        for (tool, spec) in args {
            let Some(step) = steps.iter().find(|s| s.tool == tool.as_str()) else {
                bad.push(format!("args: no {tool}"));
                continue;
            };
            for (k, v) in spec.as_object().into_iter().flatten() {
                if k == "query_any" {
                    let q = step.args.to_json()["query"]
                        .as_str()
                        .unwrap_or("")
                        .to_lowercase();
                    let hit = v
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter_map(Value::as_str)
                        .any(|s| q.contains(&s.to_lowercase()));
                    if !hit {
                        bad.push(format!("query {q}"));
                    }
                } else if let Some(list) = v.as_array() {
                    if !list.contains(&step.args.to_json()[k]) {
                        bad.push(format!("{tool}.{k}={}", step.args.to_json()[k]));
                    }
                }
            }
        }
    }
    if let Some(c) = case["cmd"].as_object() {
        let want = c["command"].as_str().unwrap_or("");
        let any: Vec<&str> = c
            .get("args_any")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let base = c.get("file_basename").and_then(Value::as_str);
        let hit = steps
            .iter()
            .filter_map(|s| match &s.args {
                ToolArgs::Command(c) if s.ok && c.command == want => Some(c),
                _ => None,
            })
            .any(|c| {
                let argv: Vec<&str> = c.args.iter().map(String::as_str).collect();
                (any.is_empty() || argv.iter().any(|a| any.contains(a)))
                    && match base {
                        None => true,
                        Some(b) => argv.iter().any(|a| basename(a) == b),
                    }
            });
        if !hit {
            bad.push("cmd".into());
        }
    }
    if let Some(b) = case["download_basename"].as_str() {
        if !steps.iter().any(|s| {
            s.ok && s.tool == "file_download"
                && s.args.to_json()["file_path"]
                    .as_str()
                    .is_some_and(|p| basename(p) == b)
        }) {
            bad.push(format!("download {b}"));
        }
    }
    if case["no_exec"].as_bool() == Some(true)
        && steps
            .iter()
            .any(|s| s.ok && (s.tool == "command_executor" || s.tool == "file_download"))
    {
        bad.push("no_exec".into());
    }
    bad
}

/// Runs a case file; returns overall accuracy after printing per-category results.
fn run_set(cases_path: &str, fixtures: &Path, label: &str) -> Option<f64> {
    let Ok(src) = std::fs::read_to_string(cases_path) else {
        // A missing set is a broken checkout in CI, not a pass.
        assert!(
            std::env::var_os("CI").is_none(),
            "{cases_path} absent under CI=true; {label} cannot be skipped"
        );
        eprintln!("note: {cases_path} absent; {label} skipped");
        return None;
    };
    let fx = load_fixtures(fixtures);
    assert!(!fx.is_empty(), "no fixtures in {}", fixtures.display());
    let mut per_cat: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let (mut pass, mut total) = (0, 0);
    for line in src.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).unwrap();
        let text = case["text"].as_str().unwrap();
        // Earlier turns of the same session; only the last one is scored.
        let mut session = Session::default();
        for t in case["turns"].as_array().into_iter().flatten() {
            session.ask(t.as_str().expect("turns are strings"), &fx, &[]);
        }
        // Files attached to the scored message (`ask --upload`), by fixture name.
        let attach: Vec<UploadRef> = case["attach"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .map(|n| {
                fx.iter()
                    .find(|f| f.upload.filename == n)
                    .map(|f| f.upload.clone())
                    .unwrap_or_else(|| panic!("attach: no fixture {n}"))
            })
            .collect();
        let (steps, answer) = session.ask(text, &fx, &attach);
        assert!(!answer.trim().is_empty(), "empty answer for {text}");
        let bad = score(&case, &steps, &answer);
        let cat = case["cat"].as_str().unwrap_or("?").to_string();
        let e = per_cat.entry(cat).or_insert((0, 0));
        e.1 += 1;
        total += 1;
        if std::env::var_os("PLANNER_SHOW").is_some() {
            let trace: Vec<String> = steps
                .iter()
                .map(|s| format!("{}{}{}", s.tool, s.args, if s.ok { "" } else { "!" }))
                .collect();
            println!("---- {} {text:?} {trace:?}\n{answer}", case["id"]);
        }
        if bad.is_empty() {
            e.0 += 1;
            pass += 1;
        } else {
            let trace: Vec<String> = steps
                .iter()
                .map(|s| format!("{}{}{}", s.tool, s.args, if s.ok { "" } else { "!" }))
                .collect();
            println!(
                "FAIL {} {text:?}: {bad:?} steps={trace:?}\n  answer: {}",
                case["id"],
                answer.replace('\n', " | ")
            );
        }
    }
    println!("{label}: {pass}/{total}");
    for (cat, (p, t)) in &per_cat {
        println!("  {cat:14} {p}/{t} ({:.0}%)", 100.0 * *p as f64 / *t as f64);
    }
    Some(pass as f64 / total as f64)
}

#[test]
fn dev_set_accuracy() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = format!("{root}/../../shared/eval/agent-dev.jsonl");
    let fixtures = PathBuf::from(format!("{root}/../../shared/eval/fixtures"));
    if let Some(acc) = run_set(&cases, &fixtures, "dev") {
        assert!(acc >= 0.97, "dev accuracy {acc:.3} < 0.97");
    }
}

#[test]
fn dev2_set_accuracy() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = format!("{root}/../assets/eval/dev2/dev2.jsonl");
    let fixtures = PathBuf::from(format!("{root}/../assets/eval/dev2/fixtures"));
    let acc = run_set(&cases, &fixtures, "dev2").expect("dev2.jsonl ships with the planner");
    assert!(acc >= 0.97, "dev2 accuracy {acc:.3} < 0.97");
}

#[test]
fn conversation_set_accuracy() {
    let root = env!("CARGO_MANIFEST_DIR");
    let cases = format!("{root}/../assets/eval/conversation/conversation-dev.jsonl");
    let fixtures = PathBuf::from(format!("{root}/../assets/eval/conversation/fixtures"));
    let acc = run_set(&cases, &fixtures, "conversation")
        .expect("the conversation set ships with the repo");
    assert!(acc >= 0.97, "conversation accuracy {acc:.3} < 0.97");
}

#[test]
fn answers_from_tool_results() {
    let root = env!("CARGO_MANIFEST_DIR");
    let fx = load_fixtures(&PathBuf::from(format!(
        "{root}/../assets/eval/dev2/fixtures"
    )));
    let (_, a) = run_turn("分析一下app.log", &fx);
    assert!(a.contains("ERROR 3") && a.contains("WARN 2"), "{a}");
    let (_, a) = run_turn("nginx.conf 监听哪个端口", &fx);
    assert!(a.contains("8080"), "{a}");
    let (_, a) = run_turn("下载 /etc/shadow", &fx);
    assert!(a.contains("拒绝"), "{a}");
    let (steps, a) = run_turn("cat /srv/missing.txt", &fx);
    assert!(!steps[0].ok && a.contains("No such file"), "{a}");
    let (_, a) = run_turn("send me nginx.conf", &fx);
    assert!(
        a.contains("nginx.conf (") && a.contains("accept or reject"),
        "{a}"
    );
}

#[test]
fn odd_inputs_never_panic_and_finish() {
    let root = env!("CARGO_MANIFEST_DIR");
    let fx = load_fixtures(&PathBuf::from(format!(
        "{root}/../assets/eval/dev2/fixtures"
    )));
    let long = "日志".repeat(2000);
    for text in [
        "",
        "   ",
        "?",
        "🙂🙂",
        "[file_ref:nope]",
        "ls -",
        "cat",
        "grep",
        "head -n",
        "tail -n x app.log",
        "下载",
        "send me",
        "先,再,然后",
        "then then then",
        "/",
        "~",
        "..",
        "what is",
        "是什么",
        "ll",
        "top",
        "du -sh /",
        &long,
        "把它发给我",
        "show me README",
        "grep timeout in the logs",
        "what's the db port in settings.json",
        "how much memory does the server have",
        "nginx.conf 监听哪个端口",
        "把这个日志分析一下",
    ] {
        let (steps, answer) = run_turn(text, &fx);
        assert!(steps.len() <= MAX_STEPS);
        assert!(!answer.trim().is_empty(), "empty answer for {text:?}");
        if std::env::var_os("PLANNER_SHOW").is_some() {
            let trace: Vec<String> = steps
                .iter()
                .map(|s| format!("{}{}{}", s.tool, s.args, if s.ok { "" } else { "!" }))
                .collect();
            println!(
                "---- {:?} {trace:?}\n{answer}",
                text.chars().take(40).collect::<String>()
            );
        }
    }
}

mod incident;
