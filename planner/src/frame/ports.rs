//! An address asked of a field that writes it with a port: the address alone, one group or
//! distinct value per host rather than per connection.

use llmops_common::query::{Extract, Field, Measure, Query};

use crate::lexicon::{occurrences, Lexicon};

/// "which client IP (peer) …" of a log whose `peer` holds `172.20.0.5:40312`: an address
/// asked of a field that writes it with a port is the address alone, one group per host
/// rather than per connection. The field is read as the text writes it (`peer=…`,
/// `"peer":"…"`), when the log's head does; a field without its name in the text stays.
pub(super) fn ports_left_out(lex: &Lexicon, p: &super::parsed::Parsed, q: &mut Query) {
    let asked = lex
        .grammar
        .defined
        .shape
        .iter()
        .filter(|s| s.address)
        .flat_map(|s| s.words.all())
        .any(|w| !occurrences(&p.said, &w.to_lowercase()).is_empty());
    let [file] = q.files.as_slice() else { return };
    if !asked {
        return;
    }
    let distinct = q.measure == Measure::CountDistinct;
    let fields: Vec<String> = q
        .group_by
        .iter()
        .chain(q.field.iter().filter(|_| distinct))
        .map(|f| f.as_str().to_string())
        .collect();
    for name in fields {
        // By its name, or by the role the question named it by (`client` of `peer`).
        let col = p.columns.iter().find(|c| c.name == name).or_else(|| {
            let mut by_role = p.columns.iter().filter(|c| c.roles.contains(&name));
            by_role.next().filter(|_| by_role.next().is_none())
        });
        let Some(col) = col else {
            continue;
        };
        // Sampled values must be addresses with ports; a field of too many values to
        // sample is judged by the text alone.
        if !col.values.is_empty() && !with_ports(&col.values) {
            continue;
        }
        let key = col.name.rsplit('.').next().unwrap_or(&col.name);
        let regex = format!(
            r#"(?:^|[^\w.-])"?{}"?\s*[=:]\s*"?((?:\d{{1,3}}\.){{3}}\d{{1,3}}):\d{{1,5}}\b"#,
            super::words::regex_escape(key)
        );
        if !head_matches(std::path::Path::new(file), &regex) {
            continue;
        }
        let x = Extract {
            name: format!(
                "{}_ip",
                key.replace(|c: char| !c.is_ascii_alphanumeric(), "_")
            ),
            regex,
            numeric: false,
        };
        let to = Field::new(&x.name);
        for g in q.group_by.iter_mut().filter(|g| g.as_str() == name) {
            *g = to.clone();
        }
        if distinct && q.field.as_ref().is_some_and(|f| f.as_str() == name) {
            q.field = Some(to.clone());
        }
        q.extract.push(x);
    }
}

/// Whether a field's sampled values are IPv4 addresses with a port, nearly all of them.
fn with_ports(values: &[String]) -> bool {
    static R: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let r = R.get_or_init(|| {
        regex::Regex::new(r"^(?:\d{1,3}\.){3}\d{1,3}:\d{1,5}$").expect("a fixed pattern")
    });
    let seen: Vec<&String> = values.iter().filter(|v| !v.is_empty()).collect();
    let ported = seen.iter().filter(|v| r.is_match(v)).count();
    ported * 10 >= seen.len() * 9
}

/// Whether the regex matches a line of the log's first block.
fn head_matches(path: &std::path::Path, regex: &str) -> bool {
    let Ok(re) = regex::bytes::Regex::new(regex) else {
        return false;
    };
    let mut found = false;
    super::log_read::blocks(path, |block| {
        found = re.is_match(block);
        false
    });
    found
}
