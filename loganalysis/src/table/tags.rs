//! Tags every log has unless its format defines one of the same name
//! (`formats/tags.toml`): each lists alternatives, and the first whose fields the log has
//! is used, so `failure` is a 5xx in an access log and ERROR or worse in an application log.

use std::sync::OnceLock;

use llmops_common::query::{Filter, FilterOp};
use serde::Deserialize;

const TABLE: &str = include_str!("../../formats/tags.toml");

/// One tag with its alternatives, in order.
#[derive(Debug, Clone, Deserialize)]
pub struct GenericTag {
    pub name: String,
    /// What the tag means, in English and in Chinese (shown in a query's description).
    pub title: String,
    #[serde(default)]
    pub title_zh: String,
    /// Whether an event it tags is shown first in a timeline (an incident's tags are; a
    /// successful login or a service's state change is not).
    #[serde(default = "yes")]
    pub notable: bool,
    pub when: Vec<Vec<Filter>>,
    /// Alternatives (each one's filters all hold) any one of which also tags an event,
    /// where the log has their fields.
    #[serde(default)]
    pub also: Vec<Vec<Filter>>,
}

fn yes() -> bool {
    true
}

#[derive(Debug, Deserialize)]
struct TagsFile {
    tag: Vec<GenericTag>,
}

/// The shipped generic tags.
pub fn generic_tags() -> &'static [GenericTag] {
    static T: OnceLock<Vec<GenericTag>> = OnceLock::new();
    T.get_or_init(|| {
        // Compiled in and parsed by a test: a failure is a build defect.
        toml::from_str::<TagsFile>(TABLE)
            .expect("formats/tags.toml parses")
            .tag
    })
}

/// The fields a generic tag's own alternatives compare (`failure`: `status`, `level`): a
/// condition on one of them says what the tag says, another way.
pub fn tag_fields(name: &str) -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    let when = generic_tags().iter().filter(|g| g.name == name);
    for f in when.flat_map(|g| g.when.iter().flatten()) {
        if let Some(field) = f.field.as_ref().map(|x| x.as_str()) {
            if !out.contains(&field) {
                out.push(field);
            }
        }
    }
    out
}

/// What a generic tag's events say, as one pattern: its alternatives that look only at the
/// text (one regex, no field), joined. `None` for a tag with none (`slow_query` reads a
/// duration): whether a log says it can only be known by running it.
pub fn tag_text_pattern(name: &str) -> Option<String> {
    let tag = generic_tags().iter().find(|g| g.name == name)?;
    let texts: Vec<String> = tag
        .when
        .iter()
        .chain(&tag.also)
        .filter_map(|alt| match alt.as_slice() {
            [f] if f.field.is_none() && f.op == FilterOp::Regex && !f.negate => {
                Some(format!("(?:{})", f.value))
            }
            _ => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join("|"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tags_text_is_its_text_only_alternatives() {
        let p = tag_text_pattern("failed_login").expect("a text tag");
        let re = regex::Regex::new(&format!("(?i){p}")).expect("compiles");
        assert!(re.is_match("sshd[1]: Failed password for root from 10.0.0.1"));
        assert!(!re.is_match("Accepted publickey for deploy"));
        assert_eq!(tag_text_pattern("slow_query"), None);
        assert_eq!(tag_text_pattern("no_such_tag"), None);
    }

    #[test]
    fn the_table_parses_and_every_tag_has_an_alternative() {
        let t = generic_tags();
        assert!(t.iter().any(|g| g.name == "failure" && g.when.len() == 2));
        assert!(t
            .iter()
            .all(|g| !g.when.is_empty() && g.when.iter().all(|w| !w.is_empty())));
        assert_eq!(tag_fields("failure"), ["status", "level"]);
        assert!(tag_fields("no such tag").is_empty());
    }
}
