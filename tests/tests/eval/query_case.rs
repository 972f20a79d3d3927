//! The case fields of the query sets (`assets/eval/queries*`, see their READMEs): planted
//! processes (`procs`), placeholders resolved at run time (`{pid:NAME}`, `{pids:NAME}`,
//! `{count:NAME}`, `{port:NAME}`, `{user:NAME}`, `{df:PATH:FIELD}`), `answer_has` entries
//! that list alternatives, and `approval` (the action proposed for the operator's approval,
//! and nothing ran).

use llmops_tests::procs::{Planted, ProcSpec};
use serde_json::Value;

/// The planted processes a case asks for.
pub fn proc_specs(case: &Value) -> Result<Vec<ProcSpec>, String> {
    let Some(list) = case.get("procs") else {
        return Ok(Vec::new());
    };
    let list = list.as_array().ok_or("procs: not a list")?;
    list.iter()
        .map(|p| {
            let name = p["name"].as_str().ok_or("procs: an entry without a name")?;
            Ok(ProcSpec {
                name: name.to_string(),
                args: p["args"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .filter_map(|x| x.as_str().map(String::from))
                            .collect()
                    })
                    .unwrap_or_default(),
                count: p["count"].as_u64().unwrap_or(1) as usize,
                user: p["user"].as_str().map(String::from),
                listen: p["listen"].as_bool().unwrap_or(false),
                interp: p["interp"].as_bool().unwrap_or(false),
                mem_mb: p["mem_mb"].as_u64().unwrap_or(0) as u32,
            })
        })
        .collect()
}

/// Replaces every placeholder in `s`; text in other braces (`/v1/orders/{id}`) stays.
pub fn resolve(s: &str, planted: Option<&Planted>) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        let close = tail.find('}');
        let value = close.and_then(|c| {
            let (kind, arg) = tail[1..c].split_once(':')?;
            Some(placeholder(kind, arg, planted))
        });
        match (close, value) {
            (Some(c), Some(v)) => {
                out.push_str(&v?);
                rest = &tail[c + 1..];
            }
            _ => {
                out.push('{');
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// `None` when `kind` is not a placeholder kind (the braces are literal text).
fn placeholder(kind: &str, arg: &str, planted: Option<&Planted>) -> Result<String, String> {
    if kind == "df" {
        return df_field(arg);
    }
    let p = planted.ok_or_else(|| format!("{{{kind}:{arg}}} without planted processes"))?;
    let pids = p.pids(arg);
    let first = p
        .get(arg)
        .ok_or_else(|| format!("{{{kind}:{arg}}}: no planted process {arg}"))?;
    Ok(match kind {
        "pid" if pids.len() == 1 => pids[0].to_string(),
        "pid" => return Err(format!("{{pid:{arg}}}: {} processes, use pids", pids.len())),
        "pids" => pids
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        "count" => pids.len().to_string(),
        "port" => first
            .port
            .ok_or_else(|| format!("{{port:{arg}}}: {arg} does not listen"))?
            .to_string(),
        "user" => first.user.clone(),
        other => return Err(format!("unknown placeholder kind {other:?}")),
    })
}

/// `{df:PATH:FIELD}`: what `df -h --output=FIELD PATH` prints (the standard tool's figure).
fn df_field(arg: &str) -> Result<String, String> {
    let (path, field) = arg
        .rsplit_once(':')
        .ok_or_else(|| format!("{{df:{arg}}}: want PATH:FIELD"))?;
    let out = std::process::Command::new("df")
        .args(["-h", &format!("--output={field}"), path])
        .output()
        .map_err(|e| format!("df: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    match (out.status.success(), text.lines().nth(1)) {
        (true, Some(v)) if !v.trim().is_empty() => Ok(v.trim().to_string()),
        _ => Err(format!("df --output={field} {path} failed")),
    }
}

/// Every `answer_has` entry appears in `answer`; an entry that is a list passes when any
/// one of its strings appears.
pub fn check_answer(case: &Value, answer: &str, planted: Option<&Planted>) -> Result<(), String> {
    for want in case["answer_has"].as_array().into_iter().flatten() {
        let options: Vec<&str> = match want {
            Value::String(s) => vec![s.as_str()],
            Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
            other => return Err(format!("answer_has: bad entry {other}")),
        };
        let mut resolved = Vec::new();
        for o in options {
            resolved.push(resolve(o, planted).map_err(|e| format!("harness: {e}"))?);
        }
        if !resolved.iter().any(|o| answer.contains(o.as_str())) {
            return Err(format!("answer_has: {resolved:?} missing from {answer:?}"));
        }
    }
    Ok(())
}

/// `approval`: some approval request of the turn proposes the action, and every planted
/// process still runs afterwards (the harness rejects every request, so nothing may run).
/// `{"kill": NAME}`: `kill` of pids that are all NAME's; `{"argv": [...]}`: that argv.
pub fn check_approval(
    case: &Value,
    asked: &[Vec<String>],
    planted: Option<&mut Planted>,
) -> Result<(), String> {
    if let Some(p) = planted {
        p.all_alive()
            .map_err(|e| format!("a planted process is gone, the action ran: {e}"))?;
        if let Some(name) = case["approval"]["kill"].as_str() {
            let pids: Vec<String> = p.pids(name).iter().map(u32::to_string).collect();
            let ok = asked.iter().any(|argv| {
                let targets: Vec<&String> = argv
                    .iter()
                    .skip(1)
                    .filter(|a| !a.starts_with('-'))
                    .collect();
                argv.first().is_some_and(|c| c == "kill")
                    && !targets.is_empty()
                    && targets.iter().all(|t| pids.contains(t))
            });
            if !ok {
                return Err(format!(
                    "approval: no kill of {name} ({pids:?}) among {asked:?}"
                ));
            }
        }
    }
    if let Some(want) = case["approval"]["argv"].as_array() {
        let want: Vec<&str> = want.iter().filter_map(Value::as_str).collect();
        if !asked
            .iter()
            .any(|a| a.iter().map(String::as_str).eq(want.iter().copied()))
        {
            return Err(format!("approval: no {want:?} among {asked:?}"));
        }
    }
    if case.get("approval").is_some() && asked.is_empty() {
        return Err("approval: the turn asked for none".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_braces_stay_and_df_resolves() {
        assert_eq!(
            resolve("/v1/orders/{id}/refund", None).unwrap(),
            "/v1/orders/{id}/refund"
        );
        assert_eq!(resolve("a {b c", None).unwrap(), "a {b c");
        let size = resolve("{df:/:size}", None).unwrap();
        assert!(
            size.chars().next().is_some_and(|c| c.is_ascii_digit()),
            "{size}"
        );
        assert!(resolve("{pid:nothing}", None).is_err());
    }

    /// `{kind:arg}` placeholders of `s` naming planted processes, as (kind, name).
    fn proc_placeholders(s: &str) -> Vec<(String, String)> {
        let mut out = Vec::new();
        for piece in s.split('{').skip(1) {
            let Some((inner, _)) = piece.split_once('}') else {
                continue;
            };
            if let Some((kind, arg)) = inner.split_once(':') {
                if ["pid", "pids", "count", "port", "user"].contains(&kind) {
                    out.push((kind.to_string(), arg.to_string()));
                }
            }
        }
        out
    }

    /// The query sets are runnable: their planted processes parse and are nameable, every
    /// placeholder names a planted process that can fill it, and every `files` entry is a
    /// fixture. Reports case ids only (the held-out questions stay unprinted).
    #[test]
    fn query_sets_are_well_formed() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../assets/eval");
        for (set, file) in [
            ("queries", "queries-dev.jsonl"),
            ("queries-dev2", "queries-dev2.jsonl"),
            ("queries-dev3", "queries-dev3.jsonl"),
            ("queries-heldout", "queries-heldout.jsonl"),
            ("queries-heldout2", "queries-heldout2.jsonl"),
            ("queries-heldout3", "queries-heldout3.jsonl"),
            ("queries-heldout4", "queries-heldout4.jsonl"),
            ("queries-dev4", "queries-dev4.jsonl"),
            ("queries-heldout5", "queries-heldout5.jsonl"),
            ("queries-dev5", "queries-dev5.jsonl"),
            ("queries-heldout6", "queries-heldout6.jsonl"),
            ("queries-heldout7", "queries-heldout7.jsonl"),
            ("queries-heldout8", "queries-heldout8.jsonl"),
            ("queries-heldout9", "queries-heldout9.jsonl"),
            ("queries-heldout10", "queries-heldout10.jsonl"),
            ("queries-heldout11", "queries-heldout11.jsonl"),
            ("queries-heldout12", "queries-heldout12.jsonl"),
            ("queries-heldout13", "queries-heldout13.jsonl"),
            ("queries-heldout14", "queries-heldout14.jsonl"),
            ("queries-heldout15", "queries-heldout15.jsonl"),
            ("queries-heldout16", "queries-heldout16.jsonl"),
            ("queries-heldout17", "queries-heldout17.jsonl"),
            ("queries-heldout18", "queries-heldout18.jsonl"),
            ("queries-heldout19", "queries-heldout19.jsonl"),
            ("queries-heldout20", "queries-heldout20.jsonl"),
            ("queries-heldout21", "queries-heldout21.jsonl"),
            ("queries-heldout22", "queries-heldout22.jsonl"),
            ("queries-dev6", "queries-dev6.jsonl"),
            ("queries-dev7", "queries-dev7.jsonl"),
            ("queries-dev8", "queries-dev8.jsonl"),
            ("queries-dev9", "queries-dev9.jsonl"),
            ("queries-dev10", "queries-dev10.jsonl"),
            ("queries-dev11", "queries-dev11.jsonl"),
            ("queries-dev12", "queries-dev12.jsonl"),
            ("queries-dev13", "queries-dev13.jsonl"),
            ("queries-dev14", "queries-dev14.jsonl"),
            ("queries-heldout23", "queries-heldout23.jsonl"),
            ("queries-heldout24", "queries-heldout24.jsonl"),
            ("queries-dev15", "queries-dev15.jsonl"),
            ("queries-heldout25", "queries-heldout25.jsonl"),
            ("queries-heldout26", "queries-heldout26.jsonl"),
        ] {
            let dir = root.join(set);
            let text = std::fs::read_to_string(dir.join(file)).expect("set file");
            let mut n = 0;
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let case: Value = serde_json::from_str(line).expect("case json");
                let id = case["id"].as_str().unwrap_or("?").to_string();
                let specs = proc_specs(&case).unwrap_or_else(|e| panic!("{set} {id}: {e}"));
                for s in &specs {
                    assert!(
                        (1..=15).contains(&s.name.len()) && !s.name.contains('/'),
                        "{set} {id}: process name {:?}",
                        s.name
                    );
                }
                for f in case["files"].as_array().into_iter().flatten() {
                    let f = f.as_str().expect("file name");
                    assert!(dir.join("fixtures").join(f).is_file(), "{set} {id}: no {f}");
                }
                let mut texts = vec![case["text"].to_string(), case["answer_has"].to_string()];
                texts.push(case["turns"].to_string());
                if let Some(k) = case["approval"]["kill"].as_str() {
                    texts.push(format!("{{count:{k}}}"));
                }
                for (kind, name) in texts.iter().flat_map(|t| proc_placeholders(t)) {
                    let mine: Vec<_> = specs.iter().filter(|s| s.name == name).collect();
                    assert!(
                        !mine.is_empty(),
                        "{set} {id}: {{{kind}:{name}}} not planted"
                    );
                    let copies: usize = mine.iter().map(|s| s.count.max(1)).sum();
                    assert!(kind != "pid" || copies == 1, "{set} {id}: pid of {copies}");
                    assert!(
                        kind != "port" || mine[0].listen,
                        "{set} {id}: {name} no port"
                    );
                }
                assert!(
                    case["answer_has"].as_array().is_some_and(|a| !a.is_empty())
                        || case.get("approval").is_some(),
                    "{set} {id}: scores nothing"
                );
                n += 1;
            }
            assert!(n >= 40, "{set}: {n} cases");
        }
    }
}
