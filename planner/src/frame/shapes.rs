//! Values a log writes in a shape of their own (a MAC address, an IP address, a domain
//! name): where the log in view has no field of that name or role, a question naming one
//! ("which mac was rejected most", "几个不同的 mac 地址", "哪个域名被问得最多") defines it as the
//! first value of that shape in each event. The shapes and their words are data (`grammar.toml`
//! `[[defined.shape]]`).

use llmops_common::query::{Column, Extract, Field, Measure, Query};

use crate::lexicon::{occurrences, Lexicon};

/// The fields the question (`lower`) names by a shape's words, one per shape, each with
/// the spans that name it; `files` are where it names files (no shape's words there).
pub(super) fn shape_fields(
    lex: &Lexicon,
    lower: &str,
    columns: &[Column],
    files: &[(usize, usize)],
) -> Vec<(Extract, Vec<(usize, usize)>)> {
    let mut out = Vec::new();
    if columns.is_empty() {
        return out;
    }
    for shape in &lex.grammar.defined.shape {
        let has = columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(&shape.field) || c.roles.contains(&shape.field));
        if has {
            continue;
        }
        let mut words: Vec<&str> = shape.words.all().collect();
        words.sort_by_key(|w| std::cmp::Reverse(w.len()));
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for w in words {
            for (s, e) in occurrences(lower, &w.to_lowercase()) {
                let taken = spans.iter().chain(files).any(|&(a, b)| a < e && s < b);
                if !taken {
                    spans.push((s, e));
                }
            }
        }
        if spans.is_empty() {
            continue;
        }
        let extract = Extract {
            name: shape.field.clone(),
            regex: shape.regex.clone(),
            numeric: false,
        };
        out.push((extract, spans));
    }
    out
}

/// "which source IP (from) …" of a log whose `from` holds `10.40.2.31:32856`: an address
/// asked of a field that writes it with a port is the address alone, one group per host
/// rather than per connection. The field is read as the text writes it (`from=…`,
/// `"from":"…"`), when the log's head does; a field without its name in the text stays.
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
        let Some(col) = p.columns.iter().find(|c| c.name == name) else {
            continue;
        };
        // Sampled values must be addresses with ports; a field of too many values to
        // sample is judged by the text alone.
        if !col.values.is_empty() && !with_ports(&col.values) {
            continue;
        }
        let key = name.rsplit('.').next().unwrap_or(&name);
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

#[cfg(test)]
mod tests {
    use regex::Regex;

    use crate::lexicon::lexicon;

    fn first(field: &str, line: &str) -> Option<String> {
        let shape = lexicon()
            .grammar
            .defined
            .shape
            .iter()
            .find(|s| s.field == field)
            .expect("the shape is in the lexicon");
        let re = Regex::new(&shape.regex).expect("the shape's regex compiles");
        re.captures(line)
            .and_then(|c| c.get(1))
            .map(|m| m.as_str().to_string())
    }

    #[test]
    fn a_mac_is_six_octets_not_part_of_a_longer_id() {
        let line = "REJECT from 3c:22:fb:01:9a:7e (client-id 01:3c:22:fb:01:9a:7e) taken";
        assert_eq!(first("mac", line).as_deref(), Some("3c:22:fb:01:9a:7e"));
        assert_eq!(first("mac", "client-id 01:3c:22:fb:01:9a:7e only"), None);
        assert_eq!(
            first("mac", "dev AA-BB-CC-00-11-22 up").as_deref(),
            Some("AA-BB-CC-00-11-22")
        );
    }

    #[test]
    fn an_address_is_the_first_ipv4_without_its_port() {
        let line = "http: TLS handshake error from 10.4.9.231:55538: EOF";
        assert_eq!(first("client", line).as_deref(), Some("10.4.9.231"));
        assert_eq!(first("client", "version 1.2.3.4.5 only"), None);
    }

    #[test]
    fn a_domain_is_a_dotted_name_not_a_file_an_address_or_a_mail_host() {
        let q = "client @0x7f 10.1.2.3#5300 (api.corp.example): query: api.corp.example IN A";
        assert_eq!(first("domain", q).as_deref(), Some("api.corp.example"));
        assert_eq!(
            first("domain", "name=web.svc.local. type=A").as_deref(),
            Some("web.svc.local")
        );
        assert_eq!(first("domain", "failed at query.c:7837"), None);
        assert_eq!(
            first("domain", "read /etc/app/app.conf from 10.0.0.1"),
            None
        );
        assert_eq!(first("domain", "mail from ops@mail.example.org"), None);
    }
}
