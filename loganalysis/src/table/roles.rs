//! Roles inferred from key names (`latency_ms` -> `duration` in ms), from the table in
//! `formats/roles.toml`.

use std::sync::OnceLock;

use llmops_common::query::{FieldKind, Unit};
use serde::Deserialize;

const TABLE: &str = include_str!("../../formats/roles.toml");

#[derive(Debug, Deserialize)]
struct SuffixToml {
    suffix: String,
    unit: Unit,
}

#[derive(Debug, Deserialize)]
struct RoleToml {
    role: String,
    #[serde(default = "text")]
    kind: FieldKind,
    #[serde(default)]
    unit: Unit,
    keys: Vec<String>,
}

fn text() -> FieldKind {
    FieldKind::Text
}

/// A role answered by another when a table has no field of its own for it.
#[derive(Debug, Deserialize)]
struct FallbackToml {
    role: String,
    to: Vec<String>,
}

#[derive(Debug, Deserialize)]
struct TableToml {
    suffix: Vec<SuffixToml>,
    role: Vec<RoleToml>,
    #[serde(default)]
    fallback: Vec<FallbackToml>,
    /// Suffixes that name a unit the engine does not convert (`dose_ml`, `load_pct`): a key
    /// is said without them too ("water", "load").
    #[serde(default)]
    spoken_suffix: Vec<String>,
    /// Whole keys with the unit their product documents (`latencies.proxy:ms`).
    #[serde(default)]
    unit_keys: Vec<String>,
    /// Role keys that give no role as a key's last word (`uid`: `rule_uid` is a rule's).
    #[serde(default)]
    whole_only: Vec<String>,
}

/// What a key name says about its field.
#[derive(Debug, Clone, PartialEq)]
pub struct Inferred {
    pub role: String,
    pub kind: FieldKind,
    pub unit: Unit,
    /// The unit is the role's default: the name says none (`Duration`, not `took_ms`).
    pub unit_defaulted: bool,
    /// Read from the key's last word only (`upstream_status`, `log_status`).
    pub by_word: bool,
}

impl Inferred {
    /// Whether the role fits values that are (`numeric`) or are not numbers: a role of
    /// numbers read from a key's last word only holds numbers (VPC Flow's `log_status` of
    /// `OK` is no HTTP status).
    pub fn fits(&self, numeric: bool) -> bool {
        numeric || !(self.by_word && self.kind == FieldKind::Integer)
    }
}

fn table() -> &'static TableToml {
    static T: OnceLock<TableToml> = OnceLock::new();
    // The table is compiled in and checked by a test: a parse failure is a build defect.
    T.get_or_init(|| toml::from_str(TABLE).expect("formats/roles.toml parses"))
}

/// A role's kind, unit and keys (without their unit suffixes), when the table has it.
pub fn role_keys(role: &str) -> Option<(FieldKind, Unit, Vec<String>)> {
    let r = table().role.iter().find(|r| r.role == role)?;
    let keys = r
        .keys
        .iter()
        .map(|k| key_and_unit(k).0.to_string())
        .collect();
    Some((r.kind, r.unit, keys))
}

/// Every role that has stand-ins.
pub fn fallback_roles() -> impl Iterator<Item = &'static String> {
    table().fallback.iter().map(|f| &f.role)
}

/// The roles that stand in for `role` when a table has no field for it, in order
/// (`endpoint` -> `path`: a path with its query string is still the endpoint asked for).
pub fn fallbacks(role: &str) -> &'static [String] {
    table()
        .fallback
        .iter()
        .find(|f| f.role == role)
        .map_or(&[], |f| f.to.as_slice())
}

/// `DownstreamStatus` -> `downstream_status`, `clientIP` -> `client_ip`: the words of a
/// camelCase or kebab-case key, lower-cased and joined by `_`.
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    let b: Vec<char> = key.chars().collect();
    for (i, &c) in b.iter().enumerate() {
        if c == '-' || c == '_' {
            if !out.ends_with('_') && !out.is_empty() {
                out.push('_');
            }
            continue;
        }
        let prev = i.checked_sub(1).map(|j| b[j]);
        let next = b.get(i + 1).copied();
        let hump = c.is_uppercase()
            && prev.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(char::is_lowercase))
            });
        if hump && !out.ends_with('_') {
            out.push('_');
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The names a key is looked up by, best first: the whole key, its last dotted segment, that
/// segment's words joined by `_`, each without a unit suffix (with the suffix's unit), and
/// last the last word of a key of several (`DownstreamStatus` is a status, `req_dur_ms` a
/// duration in ms). Also how many come before the last words.
fn candidates(key: &str) -> (Vec<(String, Option<Unit>)>, usize) {
    let t = table();
    let lower = key.to_ascii_lowercase();
    let last_raw = key.rsplit('.').next().unwrap_or(key);
    let last = last_raw.to_ascii_lowercase();
    let snaked = snake(last_raw);
    let mut names = vec![lower, last.clone()];
    if snaked != last {
        names.push(snaked.clone());
    }
    let mut out: Vec<(String, Option<Unit>)> = Vec::new();
    let push = |name: &str, unit: Option<Unit>, out: &mut Vec<(String, Option<Unit>)>| {
        if !name.is_empty() && !out.iter().any(|(n, _)| n == name) {
            out.push((name.to_string(), unit));
        }
    };
    for n in &names {
        push(n, None, &mut out);
    }
    let mut stems = Vec::new();
    for n in [&last, &snaked] {
        for s in &t.suffix {
            if let Some(stem) = n.strip_suffix(s.suffix.as_str()) {
                push(stem, Some(s.unit), &mut out);
                stems.push((stem.to_string(), Some(s.unit)));
            }
        }
    }
    let whole = out.len();
    for (n, unit) in std::iter::once((snaked.clone(), None)).chain(stems) {
        if let Some((_, word)) = n.rsplit_once('_') {
            push(word, unit, &mut out);
        }
    }
    (out, whole)
}

/// The ways an operator says a key's last segment in words: its words (`bufferUsedMb`,
/// `buffer_used_mb`: "buffer used mb"), without a prefix of one or two letters before two
/// words or more (W3C's `x-edge-location`, `cs-uri-stem`: "edge location", "uri stem") and,
/// when it ends in a unit, the words before the unit ("buffer used", "repl lag" for
/// `replLagMs`). Empty for a key of one word without a unit.
pub fn spoken_names(key: &str) -> Vec<String> {
    let last = key.rsplit('.').next().unwrap_or(key);
    let snaked = snake(last);
    let mut out = Vec::new();
    if snaked.contains('_') {
        out.push(snaked.replace('_', " "));
    }
    if let Some((prefix, rest)) = snaked.split_once('_') {
        if prefix.len() <= 2
            && prefix.bytes().all(|b| b.is_ascii_alphabetic())
            && rest.contains('_')
        {
            out.push(rest.replace('_', " "));
        }
    }
    let t = table();
    let suffixes = t.suffix.iter().map(|s| &s.suffix).chain(&t.spoken_suffix);
    for s in suffixes {
        if let Some(stem) = snaked.strip_suffix(s.as_str()) {
            if !stem.is_empty() {
                out.push(stem.replace('_', " "));
            }
        }
    }
    out.extend(said_with_parent(key));
    out.dedup();
    out
}

/// A nested key said with the object it sits in: `response.size` is "response size", and a
/// part of a plural object is said before it in the singular (`timings.db`, "db
/// timing"; `latencies.upstream`, "upstream latency").
fn said_with_parent(key: &str) -> Vec<String> {
    let mut parts = key.rsplit('.');
    let (Some(last), Some(parent)) = (parts.next(), parts.next()) else {
        return Vec::new();
    };
    // Said without a unit the name ends in: `timings.db_ms` is "db timing".
    let last = snake(last);
    let stem = table()
        .suffix
        .iter()
        .find_map(|s| last.strip_suffix(s.suffix.as_str()))
        .filter(|s| !s.is_empty())
        .unwrap_or(&last);
    let (last, parent) = (stem.replace('_', " "), snake(parent).replace('_', " "));
    if last.is_empty() || parent.is_empty() || parent.bytes().any(|b| b.is_ascii_digit()) {
        return Vec::new();
    }
    let mut out = vec![format!("{parent} {last}")];
    let singular = parent
        .strip_suffix("ies")
        .map(|s| format!("{s}y"))
        .or_else(|| {
            parent
                .strip_suffix('s')
                .filter(|s| !s.ends_with('s'))
                .map(str::to_string)
        });
    if let Some(one) = singular.filter(|s| s.len() >= 3) {
        out.push(format!("{last} {one}"));
    }
    out
}

/// How well a key answers for `role`, lower first, when it does: a key named as one of the
/// role's keys before one that only ends in one (`src_ip` is the client before `dest_ip`,
/// `duration_s` the duration before `db_duration_s`), then by where that key stands in the
/// role's list (auditd's `acct` before `uid`), then by how closely the name matched.
pub fn key_rank(role: &str, key: &str) -> Option<usize> {
    let r = table().role.iter().find(|r| r.role == role)?;
    let (names, whole) = candidates(key);
    r.keys
        .iter()
        .enumerate()
        .filter_map(|(at, k)| {
            let k = key_and_unit(k).0;
            let how = names.iter().position(|(n, _)| n == k)?;
            let by_word = usize::from(how >= whole);
            Some(by_word * 1_000_000 + at * 32 + how.min(31))
        })
        .min()
}

/// The role a key name implies, with its kind and unit.
pub fn infer(key: &str) -> Option<Inferred> {
    let t = table();
    let (names, whole) = candidates(key);
    for (at, (name, suffix_unit)) in names.into_iter().enumerate() {
        let by_word = at >= whole;
        if by_word && t.whole_only.contains(&name) {
            continue;
        }
        for r in &t.role {
            for k in &r.keys {
                let (k, unit) = key_and_unit(k);
                if k != name {
                    continue;
                }
                let kind = if suffix_unit.is_some() && r.kind == FieldKind::Text {
                    FieldKind::Number
                } else {
                    r.kind
                };
                return Some(Inferred {
                    role: r.role.clone(),
                    kind,
                    unit: suffix_unit.or(unit).unwrap_or(r.unit),
                    unit_defaulted: suffix_unit.or(unit).is_none(),
                    by_word,
                });
            }
        }
    }
    None
}

/// The unit a key's name ends in (`queue_wait_ms`, `volume_ml`, `rss_mb`), whether or not
/// the key has a role: a number written under such a name is in that unit.
pub fn suffix_unit(key: &str) -> Option<Unit> {
    let documented = table().unit_keys.iter().find_map(|k| {
        let (name, unit) = key_and_unit(k);
        name.eq_ignore_ascii_case(key).then_some(unit)?
    });
    if documented.is_some() {
        return documented;
    }
    let last = key.rsplit('.').next().unwrap_or(key);
    let names = [last.to_ascii_lowercase(), snake(last)];
    table()
        .suffix
        .iter()
        .filter(|s| {
            names
                .iter()
                .any(|n| n.len() > s.suffix.len() && n.ends_with(&s.suffix))
        })
        .max_by_key(|s| s.suffix.len())
        .map(|s| s.unit)
}

/// A table entry `name` or `name:unit`: the name and the unit it gives.
fn key_and_unit(entry: &str) -> (&str, Option<Unit>) {
    match entry.split_once(':') {
        Some((name, unit)) => (name, unit_named(unit)),
        None => (entry, None),
    }
}

fn unit_named(s: &str) -> Option<Unit> {
    serde_json::from_value(serde_json::Value::String(s.to_string())).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_without_a_role_keeps_the_unit_its_name_ends_in() {
        assert_eq!(infer("volume_ml").map(|i| i.role), None);
        assert_eq!(suffix_unit("volume_ml"), Some(Unit::Ml));
        assert_eq!(suffix_unit("net_kg"), Some(Unit::Kg));
        assert_eq!(suffix_unit("queueWaitMs"), Some(Unit::Ms));
        assert_eq!(suffix_unit("tank_l"), Some(Unit::L));
        assert_eq!(suffix_unit("status"), None);
        assert_eq!(suffix_unit("_ms"), None);
    }

    #[test]
    fn a_key_is_said_without_its_unit_converted_or_not() {
        assert_eq!(spoken_names("dose_ml"), ["dose ml", "dose"]);
        assert_eq!(spoken_names("replLagMs"), ["repl lag ms", "repl lag"]);
        assert_eq!(spoken_names("status"), Vec::<String>::new());
        assert_eq!(
            spoken_names("x-edge-location"),
            ["x edge location", "edge location"]
        );
        assert_eq!(spoken_names("cs-uri-stem"), ["cs uri stem", "uri stem"]);
        assert_eq!(spoken_names("sc-status"), ["sc status"]);
        assert_eq!(spoken_names("response.size"), ["response size"]);
        assert_eq!(
            spoken_names("timings.upstream"),
            ["timings upstream", "upstream timing"]
        );
        assert_eq!(
            spoken_names("timings.db_ms"),
            ["db ms", "db", "timings db", "db timing"]
        );
    }

    #[test]
    fn a_kubernetes_audit_events_status_is_its_response_code() {
        assert_eq!(infer("responseStatus.code").expect("code").role, "status");
        let (code, words) = (
            key_rank("status", "responseStatus.code"),
            key_rank("status", "responseStatus.status"),
        );
        assert!(code.is_some() && code < words, "{code:?} {words:?}");
    }

    #[test]
    fn an_account_name_ranks_before_a_numeric_user_id() {
        assert_eq!(infer("acct").expect("acct").role, "user");
        let (acct, uid) = (key_rank("user", "acct"), key_rank("user", "uid"));
        assert!(acct.is_some() && acct < uid, "{acct:?} {uid:?}");
        assert_eq!(key_rank("user", "latency_ms"), None);
    }

    #[test]
    fn a_client_key_by_name_ranks_before_one_whose_last_word_is_ip() {
        let (src, dest) = (key_rank("client", "src_ip"), key_rank("client", "dest_ip"));
        assert!(
            src.is_some() && dest.is_some() && src < dest,
            "{src:?} {dest:?}"
        );
    }

    #[test]
    fn a_key_named_for_its_role_ranks_before_one_that_ends_in_it() {
        let (own, other) = (
            key_rank("duration", "duration_s"),
            key_rank("duration", "db_duration_s"),
        );
        assert!(
            own.is_some() && other.is_some() && own < other,
            "{own:?} {other:?}"
        );
    }

    #[test]
    fn common_keys_get_roles_and_units() {
        let i = infer("latency_ms").expect("latency_ms");
        assert_eq!((i.role.as_str(), i.unit), ("duration", Unit::Ms));
        assert_eq!(infer("request_time").expect("rt").unit, Unit::S);
        assert_eq!(infer("took").expect("took").unit, Unit::Ms);
        assert_eq!(infer("http.status_code").expect("status").role, "status");
        // A request's or a response's `code`; a bare `code` (an error code) is none.
        assert_eq!(infer("req.code").expect("req.code").role, "status");
        assert_eq!(infer("res.code").expect("res.code").role, "status");
        assert!(infer("code").is_none_or(|i| i.role != "status"));
        // Beside a key named for the status, a response's `code` (a business code) is not it.
        let (status, code) = (key_rank("status", "status"), key_rank("status", "res.code"));
        assert!(status.is_some() && status < code, "{status:?} {code:?}");
        assert_eq!(infer("client_ip").expect("ip").role, "client");
        assert_eq!(infer("duration_us").expect("us").unit, Unit::Us);
        assert!(infer("payload").is_none());
        // A rule's or a trace's uid is no user; a user's is.
        assert!(infer("rule_uid").is_none());
        assert_eq!(infer("uid").expect("uid").role, "user");
    }

    #[test]
    fn keys_of_several_words_are_read_by_their_words() {
        let role = |k: &str| infer(k).map(|i| (i.role, i.unit));
        assert_eq!(
            role("DownstreamStatus"),
            Some(("status".into(), Unit::None))
        );
        assert_eq!(role("RequestPath").map(|r| r.0), Some("path".into()));
        assert_eq!(role("clientIP").map(|r| r.0), Some("client".into()));
        assert_eq!(role("req.dur_ms"), Some(("duration".into(), Unit::Ms)));
        assert_eq!(
            role("upstream-latency-ms"),
            Some(("duration".into(), Unit::Ms))
        );
        // The whole name wins over its last word.
        assert_eq!(role("ClientHost").map(|r| r.0), Some("client".into()));
        assert_eq!(role("RouterName"), None);
        assert_eq!(snake("HTTPServerName"), "http_server_name");
    }
}
