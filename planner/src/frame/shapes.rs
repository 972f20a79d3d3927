//! Values a log writes in a shape of their own (a MAC address, an IP address, a domain
//! name): where the log in view has no field of that name or role, a question naming one
//! ("which mac was rejected most", "几个不同的 mac 地址", "哪个域名被问得最多") defines it as the
//! first value of that shape in each event. The shapes and their words are data (`grammar.toml`
//! `[[defined.shape]]`).

use llmops_common::query::{Column, Extract};

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
