//! The agent evaluation set run through the real server exactly as `shared/eval/README.md`
//! describes: a fresh server, a new session per case with every fixture uploaded (sorted
//! by name), the text sent, the tool steps recorded and scored. Prints accuracy overall and
//! per category. `LLMOPS_EVAL_DIR` points at another set in the same format (held-out).
//! The project's own sets run too (`assets/eval/incident`, `assets/eval/dev2`,
//! `assets/eval/conversation`, `assets/eval/settings*`); they add `answer_has` (every
//! listed string appears in the final answer), `turns` (earlier messages sent in the same
//! session first; only the last turn is scored) and `attach` (fixtures attached to the
//! scored message). The query sets (`assets/eval/queries`, `queries-dev2`, `queries-dev3`,
//! `queries-heldout*`) add `files` (the fixtures uploaded for the case, instead of all),
//! planted processes, run-time placeholders, `answer_has` alternatives and `approval` (see
//! `eval/query_case.rs`).

#[path = "eval/query_case.rs"]
mod query_case;

use std::collections::BTreeMap;
use std::path::PathBuf;

use llmops_tests::procs::{self, Planted};
use llmops_tests::{ExtConn, ServerProc};
use protocol::*;
use serde_json::Value;

#[derive(Debug, Clone)]
struct Step {
    tool: String,
    args: Value,
    ok: bool,
}

fn eval_dir() -> PathBuf {
    std::env::var("LLMOPS_EVAL_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/eval"))
}

/// Uploads one fixture; returns its file id.
fn upload(c: &mut ExtConn, name: &str, body: &[u8]) -> String {
    match c.upload_bytes(name, body).expect("upload reply") {
        Ok(f) => f.file_id,
        Err(e) => panic!("upload of {name} failed: {e:?}"),
    }
}

/// What a scored turn did: its tool steps, its answer and the argv of every approval it asked
/// for (all rejected, as `llmops-tui ask` without `--yes-to` does).
struct TurnRecord {
    steps: Vec<Step>,
    answer: String,
    asked: Vec<Vec<String>>,
}

fn run_case(c: &mut ExtConn, text: &str, file_ids: Vec<String>) -> TurnRecord {
    let turn = c.chat(text, file_ids).expect("turn");
    let mut steps: Vec<Step> = Vec::new();
    let mut asked = Vec::new();
    for m in turn.msgs {
        if let Message::ApprovalRequest(r) = &m {
            asked.push(r.argv.clone());
        }
        if let Message::AgentEvent(e) = m {
            match e.event {
                AgentEventKind::ToolCall { tool, args, .. } => steps.push(Step {
                    tool,
                    args,
                    ok: false,
                }),
                AgentEventKind::ToolResult { ok, .. } => {
                    if let Some(s) = steps.last_mut() {
                        s.ok = ok;
                    }
                }
                AgentEventKind::Status { .. } => {}
            }
        }
    }
    TurnRecord {
        steps,
        answer: turn.answer,
        asked,
    }
}

fn str_args(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Scores one case by the README's rules; returns the first rule that failed.
fn score(case: &Value, turn: &TurnRecord, planted: Option<&mut Planted>) -> Result<(), String> {
    let (steps, answer) = (&turn.steps[..], turn.answer.as_str());
    query_case::check_answer(case, answer, planted.as_deref())?;
    query_case::check_approval(case, &turn.asked, planted)?;
    if let Some(first) = case["first"].as_array() {
        let got = steps.first().map(|s| s.tool.as_str());
        let ok = first.iter().any(|f| match (f.as_str(), got) {
            (None, None) => f.is_null(),
            (Some(t), Some(g)) => t == g,
            _ => false,
        });
        if !ok {
            return Err(format!("first: got {got:?}, want {first:?}"));
        }
    }
    if let Some(list) = case["contains"].as_array() {
        for t in list.iter().filter_map(|t| t.as_str()) {
            if !steps.iter().any(|s| s.tool == t) {
                return Err(format!("contains: no {t} step"));
            }
        }
    }
    if let Some(map) = case["args"].as_object() {
        for (tool, rules) in map {
            let Some(step) = steps.iter().find(|s| &s.tool == tool) else {
                // The rules are for one of the `first` alternatives; another one taken
                // (a log query where a whole-file read was expected) is judged by the
                // answer's checks.
                let alternative = case["first"].as_array().is_some_and(|alts| {
                    alts.iter()
                        .filter_map(Value::as_str)
                        .any(|a| a != tool && steps.first().is_some_and(|s| s.tool == a))
                });
                if alternative {
                    continue;
                }
                return Err(format!("args: no {tool} step"));
            };
            for (key, want) in rules.as_object().into_iter().flatten() {
                if key == "query_any" {
                    let q = step.args["query"]
                        .as_str()
                        .unwrap_or_default()
                        .to_lowercase();
                    if !str_args(want).iter().any(|w| q.contains(&w.to_lowercase())) {
                        return Err(format!("args: query {q:?} has none of {want}"));
                    }
                } else if let Some(options) = want.as_array() {
                    if !options.contains(&step.args[key]) {
                        return Err(format!("args: {key}={} not in {want}", step.args[key]));
                    }
                }
            }
        }
    }
    if let Some(cmd) = case["cmd"].as_object() {
        let command = cmd
            .get("command")
            .and_then(Value::as_str)
            .unwrap_or_default();
        let any = cmd.get("args_any").map(str_args).unwrap_or_default();
        let base = cmd.get("file_basename").and_then(|b| b.as_str());
        let ok = steps.iter().any(|s| {
            if s.tool != "command_executor" || !s.ok || s.args["command"] != command {
                return false;
            }
            let args = str_args(&s.args["args"]);
            (any.is_empty() || args.iter().any(|a| any.contains(a)))
                && base.is_none_or(|b| args.iter().any(|a| a.ends_with(b)))
        });
        if !ok {
            return Err(format!(
                "cmd: no successful {command} step matching {cmd:?}"
            ));
        }
    }
    if let Some(base) = case["download_basename"].as_str() {
        let ok = steps.iter().any(|s| {
            s.tool == "file_download"
                && s.ok
                && s.args["file_path"]
                    .as_str()
                    .is_some_and(|p| p.ends_with(base))
        });
        if !ok {
            return Err(format!("download_basename: no successful offer of {base}"));
        }
    }
    if case["no_exec"].as_bool() == Some(true)
        && steps.iter().any(|s| {
            s.ok && (s.tool == "command_executor"
                || s.tool == "file_download"
                || s.tool == "run_action")
        })
    {
        return Err("no_exec: a command, an action or a download succeeded".into());
    }
    Ok(())
}

#[test]
fn agent_eval_set() {
    run_set(&eval_dir());
}

/// The project's own dev set for the incident capabilities (processes, whole-file log
/// analysis, read-only system commands, pipelines), scored with the same rules.
#[test]
fn incident_eval_set() {
    run_set(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/eval/incident"));
}

/// The planner's second dev set (written with the rules, so a dev set, not a held-out one).
#[test]
fn dev2_eval_set() {
    run_set(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/eval/dev2"));
}

/// Multi-turn conversations: follow-ups, ordinals, continued reads, pasted traces,
/// attachments (`turns` and `attach`, see `assets/eval/conversation/README.md`).
#[test]
fn conversation_eval_set() {
    run_set(&PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/eval/conversation"));
}

/// Questions about configured values in uploaded configs (`assets/eval/settings` and
/// `settings2`, dev sets, and `settings-heldout2`, held out: nobody tunes on its lines and
/// its misses are not printed): the answer must hold the value the file sets.
/// They run below the 97% floor of the routing sets: a value is found only when the
/// search ranks its line first; the floors keep what works.
#[test]
fn settings_eval_sets() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/eval");
    run_set_min(&root.join("settings"), 65.0);
    run_set_min(&root.join("settings2"), 55.0);
    run_set_min(&root.join("settings-heldout2"), 70.0);
}

/// The query sets: questions over logs in every common format and over the system as
/// tables (`assets/eval/queries`, the dev set whose misses are printed, and
/// `assets/eval/queries-heldout`, scores only). They measure; no floor fails the build, but
/// a harness error (a fixture that cannot be uploaded, a planted process that does not
/// start) does. The two run one after the other (a lock), so their planted processes
/// never run at the same time, and each can be run alone by its test name. Their questions
/// are asked as soon as the upload is searchable by words: a log question is answered from
/// the whole file, not the semantic index, and embedding a multi-megabyte log takes minutes
/// per session on a 2-core machine.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev_eval_set() {
    run_queries_set("queries");
}

/// A second query dev set (`assets/eval/queries-dev2`, other formats, services and
/// phrasings, written blind; its misses are printed and may be tuned on). Its cases are the
/// one `.jsonl` at the top of its directory, `queries-dev2.jsonl`.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev2_eval_set() {
    run_queries_set("queries-dev2");
}

/// A third query dev set (`assets/eval/queries-dev3`, other formats again: Caddy, Envoy,
/// RabbitMQ, Celery, Jenkins, Exim, CoreDNS, fail2ban, auditd, the Elasticsearch slow log, a
/// pipe-separated nginx `log_format`, ECS JSON and Rails; written blind; its misses are
/// printed and may be tuned on). Its cases are `queries-dev3.jsonl`.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev3_eval_set() {
    run_queries_set("queries-dev3");
}

/// The first held-out twin of [`queries_dev_eval_set`]; a dev set now (read many times).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout_eval_set() {
    run_queries_set("queries-heldout");
}

/// A second held-out twin (`assets/eval/queries-heldout2`, other formats, services and
/// phrasings, written blind); a dev set now (formats added while known).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout2_eval_set() {
    run_queries_set("queries-heldout2");
}

/// A third held-out twin (`assets/eval/queries-heldout3`, other formats, services and
/// phrasings again, written blind); a dev set now (its misses were read and tuned on).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout3_eval_set() {
    run_queries_set("queries-heldout3");
}

/// A fourth set written as held out (`assets/eval/queries-heldout4`, other formats, services
/// and phrasings again, written blind); a dev set now: its scores chose between two guards
/// of a change (`READ_SINCE`).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout4_eval_set() {
    run_queries_set("queries-heldout4");
}

/// A fourth query dev set (`assets/eval/queries-dev4`, other formats, services and phrasings,
/// weighted to top-N, statistics, follow-ups and timelines; written blind; its misses are
/// printed and may be tuned on). Its cases are `queries-dev4.jsonl`.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev4_eval_set() {
    run_queries_set("queries-dev4");
}

/// A fifth query dev set (`assets/eval/queries-dev5`, other formats, services and phrasings,
/// weighted to follow-ups, timelines and incident summaries across files; written blind; its
/// misses are printed and may be tuned on). Its cases are `queries-dev5.jsonl`.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev5_eval_set() {
    run_queries_set("queries-dev5");
}

/// A sixth query dev set (`assets/eval/queries-dev6`, other formats, services and phrasings,
/// weighted to timelines, follow-ups and incident summaries across files; written blind; its
/// misses are printed and may be tuned on). Its cases are `queries-dev6.jsonl`.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev6_eval_set() {
    run_queries_set("queries-dev6");
}

/// A seventh query dev set (`assets/eval/queries-dev7`, other formats, services and
/// phrasings, weighted to follow-ups; written blind; its misses are printed and may be
/// tuned on). Its cases are `queries-dev7.jsonl`.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev7_eval_set() {
    run_queries_set("queries-dev7");
}

/// The eighth query dev set (`assets/eval/queries-dev8`, zeek, zap JSON, PHP-FPM, dockerd,
/// Sidekiq, PgBouncer and a journal; weighted to timelines, incidents, units and disks;
/// written blind; its misses are printed and may be tuned on).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev8_eval_set() {
    run_queries_set("queries-dev8");
}

/// The ninth query dev set (`assets/eval/queries-dev9`, Apache access + error, gunicorn
/// access + error, RabbitMQ, Postfix and a Docker json-file log; weighted to stats and
/// follow-ups; written blind; its misses are printed and may be tuned on).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev9_eval_set() {
    run_queries_set("queries-dev9");
}

/// The tenth query dev set (`assets/eval/queries-dev10`, Traefik access, Rails production.log,
/// Spring Boot logback, pino JSON, a keepalived/postgres syslog and structlog key=value; weighted
/// to follow-ups, timelines and incidents across logs; written blind; its misses are printed
/// and may be tuned on).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev10_eval_set() {
    run_queries_set("queries-dev10");
}

/// A fifth held-out twin (`assets/eval/queries-heldout5`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout5_eval_set() {
    run_queries_set("queries-heldout5");
}

/// A sixth held-out twin (`assets/eval/queries-heldout6`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout6_eval_set() {
    run_queries_set("queries-heldout6");
}

/// A seventh held-out twin (`assets/eval/queries-heldout7`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout7_eval_set() {
    run_queries_set("queries-heldout7");
}

/// An eighth twin (`assets/eval/queries-heldout8`, other formats, services and phrasings
/// again, written blind; now dev: one of its lines was printed).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout8_eval_set() {
    run_queries_set("queries-heldout8");
}

/// A ninth held-out twin (`assets/eval/queries-heldout9`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout9_eval_set() {
    run_queries_set("queries-heldout9");
}

/// A tenth held-out twin (`assets/eval/queries-heldout10`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout10_eval_set() {
    run_queries_set("queries-heldout10");
}

/// An eleventh held-out twin (`assets/eval/queries-heldout11`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout11_eval_set() {
    run_queries_set("queries-heldout11");
}

/// A twelfth held-out twin (`assets/eval/queries-heldout12`, other formats, services and
/// phrasings again, written blind before the change it measures): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout12_eval_set() {
    run_queries_set("queries-heldout12");
}

/// A thirteenth held-out twin (`assets/eval/queries-heldout13`, a CloudFront access log, a
/// Spring Boot Log4j2 log, Rust tracing JSON and planted processes; written blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout13_eval_set() {
    run_queries_set("queries-heldout13");
}

/// A fourteenth held-out twin (`assets/eval/queries-heldout14`, a lighttpd access log, a .NET
/// JSON console log, a Quarkus log and planted processes; written blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout14_eval_set() {
    run_queries_set("queries-heldout14");
}

/// An eleventh dev set (`assets/eval/queries-dev11`, an Apache vhost access log, a Go zap
/// JSON log, a Logback log and planted processes; written blind, then read: a dev set).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev11_eval_set() {
    run_queries_set("queries-dev11");
}

/// A twelfth dev set (`assets/eval/queries-dev12`, an nginx key=value access log, a Go
/// logrus text log, a Log4j2 log and planted processes; written blind, then read: a dev set).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev12_eval_set() {
    run_queries_set("queries-dev12");
}

/// A thirteenth dev set (`assets/eval/queries-dev13`; written blind): its misses are read.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev13_eval_set() {
    run_queries_set("queries-dev13");
}

/// A fifteenth held-out twin (`assets/eval/queries-heldout15`; written blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout15_eval_set() {
    run_queries_set("queries-heldout15");
}

/// A sixteenth set (`assets/eval/queries-heldout16`; written blind, held out, then read: dev).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout16_eval_set() {
    run_queries_set("queries-heldout16");
}

/// A seventeenth twin (`assets/eval/queries-heldout17`; written blind, now dev: formats for
/// its logs were added while it was known to hold them).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout17_eval_set() {
    run_queries_set("queries-heldout17");
}

/// A eighteenth held-out twin (written blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout18_eval_set() {
    run_queries_set("queries-heldout18");
}

/// A nineteenth held-out twin (`assets/eval/queries-heldout19`, a Flask app's Python logging log,
/// a MySQL slow query log, a MongoDB JSON log and planted processes; written blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout19_eval_set() {
    run_queries_set("queries-heldout19");
}

/// A twentieth set written as held out (`assets/eval/queries-heldout20`, a Squid native access
/// log, a Kubernetes kubelet klog log, a HashiCorp Vault file audit log and planted processes;
/// written blind); a dev set now: its scores chose between two guards of a change
/// (`READ_SINCE`).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout20_eval_set() {
    run_queries_set("queries-heldout20");
}

/// A twenty-first held-out twin (`assets/eval/queries-heldout21`, an AWS Application Load Balancer
/// access log, a PostgreSQL 16 stderr log, a Redis 7.2 server log and planted processes; written
/// blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout21_eval_set() {
    run_queries_set("queries-heldout21");
}

/// A twenty-second held-out twin (`assets/eval/queries-heldout22`, an nginx access log with
/// `$request_time $upstream_response_time`, the nginx error log, a PHP-FPM 8.3 log and planted
/// processes; written blind): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout22_eval_set() {
    run_queries_set("queries-heldout22");
}

/// A fourteenth dev set (`assets/eval/queries-dev14`, a Gin access log with Go panics, a Laravel
/// daily log and a Lambda log from `aws logs tail`, weighted to timelines, top-N and
/// statistics; written blind): its misses are read.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev14_eval_set() {
    run_queries_set("queries-dev14");
}

/// A twenty-third set written as held out (`assets/eval/queries-heldout23`; written blind by
/// a helper that read only the harness and heldout22's generator); a dev set now: its README,
/// which describes its log lines and categories, was read before a change that adds up the
/// quantities logs write (`READ_SINCE`).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout23_eval_set() {
    run_queries_set("queries-heldout23");
}

/// A twenty-fourth held-out twin (`assets/eval/queries-heldout24`: a Slurm controller log,
/// the Ceph cluster log and a dnsmasq log of one night, and planted processes; written blind
/// by a helper that read only the harness and heldout23's generator): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout24_eval_set() {
    run_queries_set("queries-heldout24");
}

/// A fifteenth query dev set (`assets/eval/queries-dev15`: a Consul agent log in hclog text, a
/// BIND 9 `named` log with query logging and a Kea DHCPv4 log of one night, formats with no
/// definition in `loganalysis/formats/`, and planted processes; written blind by a helper that
/// read only the harness and heldout23's generator; its misses are printed and may be tuned on).
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_dev15_eval_set() {
    run_queries_set("queries-dev15");
}

/// A twenty-fifth held-out twin (`assets/eval/queries-heldout25`: a Pacemaker 2.0
/// `pacemaker.log` of the DC, a RabbitMQ 3.12 node log and an Asterisk 20 `full` log of one
/// night, and planted processes; written blind by a helper that read only the harness and
/// heldout23's generator): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout25_eval_set() {
    run_queries_set("queries-heldout25");
}

/// A twenty-sixth held-out twin (`assets/eval/queries-heldout26`: an nginx access log in the
/// combined format with `$request_time`, a FastAPI service's structlog JSON log and a Spring Boot
/// logback log with stack traces, of one night, and planted processes; written blind by a helper
/// that read only the harness and heldout23's generator): scores only.
#[test]
#[ignore = "slow (minutes per set): `make eval` runs it"]
fn queries_heldout26_eval_set() {
    run_queries_set("queries-heldout26");
}

fn run_queries_set(name: &str) {
    static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A panic in the other set (a harness error) fails that test, not this one.
    let _guard = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../assets/eval");
    run_set_with(&root.join(name), 0.0, false);
}

fn run_set(dir: &std::path::Path) {
    run_set_min(dir, 97.0)
}

fn run_set_min(dir: &std::path::Path, min_acc: f64) {
    run_set_with(dir, min_acc, true)
}

/// How one case ended.
enum Outcome {
    Pass,
    Fail(String),
    Skip(String),
}

fn load_fixtures(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut fixtures: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir.join("fixtures"))
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().is_file())
                .filter_map(|e| {
                    Some((
                        e.file_name().into_string().ok()?,
                        std::fs::read(e.path()).ok()?,
                    ))
                })
                .collect()
        })
        .unwrap_or_default();
    fixtures.sort();
    fixtures
}

/// Runs one case in a new session: uploads its fixtures (`files`, or all), plants its
/// processes, sends the earlier turns and the scored one, and scores it.
fn run_one(
    c: &mut ExtConn,
    case: &Value,
    fixtures: &[(String, Vec<u8>)],
    wait_embedding: bool,
    trace: bool,
) -> Outcome {
    let specs = query_case::proc_specs(case).unwrap_or_else(|e| panic!("case {case}: {e}"));
    if let Some(why) = specs.iter().find_map(procs::unsupported) {
        // Anything a test needs is there in CI: a skip there is a failure.
        assert!(
            std::env::var("CI").is_err(),
            "eval: cannot run {case} under CI=true: {why}"
        );
        return Outcome::Skip(why);
    }
    let session = session_cmd(c, SessionOp::New { name: None });
    let outcome = run_in_session(c, case, fixtures, (wait_embedding, trace), specs);
    // The case's session goes with its uploads (and any embedding still queued for them),
    // so one case's background work never slows the next.
    session_cmd(c, SessionOp::New { name: None });
    session_cmd(c, SessionOp::Delete { id: session });
    outcome
}

/// Sends a session command and returns the current session's id from the reply.
fn session_cmd(c: &mut ExtConn, op: SessionOp) -> String {
    let rid = c.next_id();
    c.send(&Message::SessionCmd(SessionCmd {
        request_id: rid,
        op,
    }))
    .expect("send");
    match c
        .recv_until(|m| matches!(m, Message::SessionReply(r) if r.request_id == rid))
        .expect("session reply")
        .pop()
    {
        Some(Message::SessionReply(r)) => r.current.id,
        other => panic!("expected SESSION_REPLY, got {other:?}"),
    }
}

fn run_in_session(
    c: &mut ExtConn,
    case: &Value,
    fixtures: &[(String, Vec<u8>)],
    (wait_embedding, trace): (bool, bool),
    specs: Vec<procs::ProcSpec>,
) -> Outcome {
    let wanted: Option<Vec<String>> = case.get("files").map(str_args);
    let mut ids = BTreeMap::new();
    for (name, body) in fixtures {
        if wanted.as_ref().is_none_or(|w| w.contains(name)) {
            ids.insert(name.clone(), upload(c, name, body));
        }
    }
    if let Some(missing) = wanted.iter().flatten().find(|w| !ids.contains_key(*w)) {
        panic!("case {}: no fixture {missing}", case["id"]);
    }
    // Asked once the files are searchable by meaning too, as an operator who uploads
    // and then types a question gets them (a few seconds for a config set).
    if wait_embedding && !ids.is_empty() {
        c.wait_index(600, |s| s.embedding_backlog == 0);
    }
    let mut planted = (!specs.is_empty()).then(|| {
        Planted::start(&specs).unwrap_or_else(|e| panic!("case {}: planting: {e:#}", case["id"]))
    });
    let text = |s: &str| {
        query_case::resolve(s, planted.as_ref())
            .unwrap_or_else(|e| panic!("case {}: {e}", case["id"]))
    };
    // Earlier turns of the same session; only the last one is scored.
    for t in str_args(&case["turns"]) {
        let turn = run_case(c, &text(&t), vec![]);
        // `LLMOPS_EVAL_TRACE=1` shows what the earlier turns did (dev sets only: a held-out
        // set's turns are its questions).
        if trace {
            let head: String = turn.answer.chars().take(600).collect();
            eprintln!("  turn {t:?}: {:?}\n    {head}", turn.steps);
        }
    }
    // Files attached to the scored message (`ask --upload`), by fixture name.
    let attach: Vec<String> = str_args(&case["attach"])
        .iter()
        .map(|n| {
            ids.get(n)
                .cloned()
                .unwrap_or_else(|| panic!("attach: no fixture {n}"))
        })
        .collect();
    let turn = run_case(c, &text(case["text"].as_str().unwrap_or_default()), attach);
    match score(case, &turn, planted.as_mut()) {
        Ok(()) => Outcome::Pass,
        Err(why) if why.starts_with("harness: ") => panic!("case {}: {why}", case["id"]),
        Err(why) => Outcome::Fail(format!(
            "{} {:?}: {why}; steps {:?}",
            case["id"].as_str().unwrap_or("?"),
            case["text"].as_str().unwrap_or_default(),
            turn.steps
                .iter()
                .map(|s| format!("{}{}{}", s.tool, s.args, if s.ok { "✓" } else { "✗" }))
                .collect::<Vec<_>>()
        )),
    }
}

fn run_set_with(dir: &std::path::Path, min_acc: f64, wait_embedding: bool) {
    let cases_path = std::fs::read_dir(dir).ok().and_then(|rd| {
        rd.flatten()
            .map(|e| e.path())
            .find(|p| p.extension().is_some_and(|e| e == "jsonl"))
    });
    let Some(cases_path) = cases_path else {
        // A missing set is a broken checkout in CI, not a pass.
        assert!(
            std::env::var("CI").is_err(),
            "eval: no set at {} under CI=true",
            dir.display()
        );
        eprintln!("eval: no set at {} (skipped)", dir.display());
        return;
    };
    let fixtures = load_fixtures(dir);
    let text = std::fs::read_to_string(&cases_path).expect("eval set");
    // The default embedder; without it (outside CI) the sets run lexical-only.
    let model = llmops_tests::e5_model();
    let args: Vec<&str> = model
        .as_deref()
        .map(|d| vec!["--model-dir", d])
        .unwrap_or_default();
    let server = ServerProc::start_with(&args).expect("server");
    let mut c = ExtConn::connect(server.addr, None, None).expect("connect");
    // Indexing a multi-megabyte log or answering over it can take longer than the default
    // read timeout on a loaded 2-core machine.
    c.set_read_timeout(std::time::Duration::from_secs(300))
        .expect("read timeout");
    let mut per_cat: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    // Scores by the case's area (a log, or the live processes) beside its category: a score
    // only, so a held-out set may print it too.
    let mut per_area: BTreeMap<String, (u32, u32)> = BTreeMap::new();
    let (mut failures, mut skipped) = (Vec::new(), Vec::new());
    // `LLMOPS_EVAL_ONLY=id1,id2` runs only the cases whose ids contain one of these
    // (while iterating on a dev set's misses); a full run leaves it unset.
    let only: Vec<String> = std::env::var("LLMOPS_EVAL_ONLY")
        .map(|v| v.split(',').map(str::to_string).collect())
        .unwrap_or_default();
    let trace = std::env::var_os("LLMOPS_EVAL_TRACE").is_some() && !is_held_out(dir);
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: Value = serde_json::from_str(line).expect("case json");
        let id = case["id"].as_str().unwrap_or_default();
        if !only.is_empty() && !only.iter().any(|o| id.contains(o.as_str())) {
            continue;
        }
        let outcome = run_one(&mut c, &case, &fixtures, wait_embedding, trace);
        let cat = case["cat"].as_str().unwrap_or("?").to_string();
        let area = case["area"].as_str().map(str::to_string);
        let passed = match outcome {
            Outcome::Skip(why) => {
                skipped.push(format!("{}: {why}", case["id"]));
                continue;
            }
            Outcome::Pass => true,
            Outcome::Fail(why) => {
                failures.push(why);
                false
            }
        };
        for (map, key) in [(&mut per_cat, Some(cat)), (&mut per_area, area)] {
            if let Some(key) = key {
                let e = map.entry(key).or_default();
                e.0 += u32::from(passed);
                e.1 += 1;
            }
        }
    }
    for (area, (p, t)) in &per_area {
        println!("  area {area:<9} {p:>3}/{t:<3}");
    }
    report(dir, &cases_path, &per_cat, &failures, &skipped, min_acc);
}

/// Sets written as held out whose misses have since been read (or whose formats were added
/// while they were known, or whose scores chose between two versions of a change): dev sets
/// now, their misses printed.
const READ_SINCE: &[&str] = &[
    "queries-heldout",
    "queries-heldout2",
    "queries-heldout3",
    "queries-heldout4",
    "queries-heldout13",
    "queries-heldout15",
    "queries-heldout16",
    "queries-heldout17",
    "queries-heldout20",
    "queries-heldout23",
    "queries-heldout8",
];

/// A set written as held out whose misses are still unread.
fn is_held_out(dir: &std::path::Path) -> bool {
    dir.file_name().is_some_and(|n| {
        let n = n.to_string_lossy();
        n.contains("heldout") && !READ_SINCE.contains(&n.as_ref())
    })
}

fn report(
    dir: &std::path::Path,
    cases_path: &std::path::Path,
    per_cat: &BTreeMap<String, (u32, u32)>,
    failures: &[String],
    skipped: &[String],
    min_acc: f64,
) {
    let (pass, total) = per_cat
        .values()
        .fold((0, 0), |(p, t), (a, b)| (p + a, t + b));
    // A held-out set's misses stay unread (the set measures; tuning on its lines would
    // spend it): its scores only, unless `LLMOPS_EVAL_SHOW_HELDOUT=1` asks for them.
    let held_out = is_held_out(dir);
    println!(
        "eval set ({}): {}",
        if held_out { "held out" } else { "dev" },
        cases_path.display()
    );
    for (cat, (p, t)) in per_cat {
        println!(
            "  {cat:<14} {p:>3}/{t:<3} {:>6.1}%",
            100.0 * *p as f64 / *t as f64
        );
    }
    let acc = 100.0 * pass as f64 / total.max(1) as f64;
    println!("  {:<14} {pass:>3}/{total:<3} {acc:>6.1}%", "overall");
    if !skipped.is_empty() {
        println!("  ({} skipped: {})", skipped.len(), skipped.join("; "));
    }
    if held_out && std::env::var_os("LLMOPS_EVAL_SHOW_HELDOUT").is_none() {
        println!("  ({} misses not shown: held-out set)", failures.len());
    } else {
        for f in failures {
            println!("  FAIL {f}");
        }
    }
    assert!(acc >= min_acc, "accuracy {acc:.1}% is below {min_acc}%");
}
