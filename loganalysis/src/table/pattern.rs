//! nginx `log_format`-style line patterns: literals and `$field`s, each field ending at the
//! next literal (found with memchr/memmem, no backtracking), compiled once per format.

use llmops_common::query::FieldKind;
use memchr::memmem;
use serde::Deserialize;

use crate::ts;

/// What follows the pattern on a line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum Tail {
    /// Nothing may follow.
    #[default]
    Strict,
    /// Anything may follow and is ignored.
    Ignore,
    /// `key=value` pairs may follow; each key becomes a field.
    Extras,
}

/// One field of a pattern and the literal that ends it.
#[derive(Debug, Clone)]
struct Step {
    lit: Vec<u8>,
    finder: Option<memmem::Finder<'static>>,
    /// A time field ended by whitespace: the timestamp parser finds its end (a syslog
    /// time holds spaces).
    by_time: bool,
}

#[derive(Debug, Clone)]
pub struct Pattern {
    src: String,
    lead: Vec<u8>,
    names: Vec<String>,
    steps: Vec<Step>,
    tail: Tail,
}

/// The first occurrence of `lit` in `hay`: literals of a pattern are a few bytes, for
/// which memchr on the first byte beats a general substring search's setup per call.
#[inline]
fn find_lit(hay: &[u8], lit: &[u8], finder: &memmem::Finder<'_>) -> Option<usize> {
    match lit.len() {
        1 => memchr::memchr(lit[0], hay),
        2..=4 => {
            let mut from = 0;
            while let Some(p) = memchr::memchr(lit[0], &hay[from..]) {
                let at = from + p;
                if hay[at..].starts_with(lit) {
                    return Some(at);
                }
                from = at + 1;
            }
            None
        }
        _ => finder.find(hay),
    }
}

/// A timestamp in any form the analyser reads, for the Perl form of a pattern.
const TIME_RE: &str = r"(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d(?::?\d\d)?)?|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?|\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d(?:\.\d+)?(?: [+-]\d{4})?)";

impl Pattern {
    /// Compiles `$name` fields and the literals between them. Two fields must be separated
    /// by a literal.
    pub fn compile(
        src: &str,
        tail: Tail,
        kind_of: &dyn Fn(&str) -> FieldKind,
    ) -> Result<Pattern, String> {
        let b = src.as_bytes();
        let mut lead = Vec::new();
        let mut names: Vec<String> = Vec::new();
        let mut lits: Vec<Vec<u8>> = Vec::new();
        let mut cur = Vec::new();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'$' {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'_') {
                    j += 1;
                }
                if j == start {
                    return Err(format!("`$` without a field name at byte {i}"));
                }
                if names.is_empty() {
                    lead = std::mem::take(&mut cur);
                } else {
                    if cur.is_empty() {
                        return Err(format!(
                            "fields `${}` and `${}` need a literal between them",
                            names[names.len() - 1],
                            &src[start..j]
                        ));
                    }
                    lits.push(std::mem::take(&mut cur));
                }
                let name = src[start..j].to_string();
                if names.contains(&name) {
                    return Err(format!("field `${name}` appears twice"));
                }
                names.push(name);
                i = j;
            } else {
                cur.push(b[i]);
                i += 1;
            }
        }
        if names.is_empty() {
            return Err("a pattern needs at least one `$field`".into());
        }
        lits.push(cur);
        let steps = names
            .iter()
            .zip(lits)
            .map(|(n, lit)| {
                let ws = lit.iter().all(u8::is_ascii_whitespace);
                Step {
                    by_time: ws && kind_of(n) == FieldKind::Time,
                    finder: (!lit.is_empty()).then(|| memmem::Finder::new(&lit).into_owned()),
                    lit,
                }
            })
            .collect();
        Ok(Pattern {
            src: src.to_string(),
            lead,
            names,
            steps,
            tail,
        })
    }

    /// The pattern as written.
    pub fn source(&self) -> &str {
        &self.src
    }

    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// Splits `line` into one span per field. Returns the end of the matched part (the
    /// tail starts there), or `None` when the line does not fit the pattern.
    pub fn split(&self, line: &[u8], spans: &mut Vec<(u32, u32)>) -> Option<usize> {
        spans.clear();
        if !line.starts_with(&self.lead) {
            return None;
        }
        let mut pos = self.lead.len();
        let last = self.steps.len() - 1;
        for (k, step) in self.steps.iter().enumerate() {
            let end = if step.by_time {
                let (_, e) = ts::parse_at(line, pos)?;
                if !line[e..].starts_with(&step.lit) {
                    return None;
                }
                e
            } else if let Some(f) = &step.finder {
                pos + find_lit(&line[pos..], &step.lit, f)?
            } else if k == last && self.tail == Tail::Strict {
                line.len()
            } else {
                memchr::memchr(b' ', &line[pos..]).map_or(line.len(), |p| pos + p)
            };
            spans.push((pos as u32, end as u32));
            pos = end + step.lit.len();
        }
        if self.tail == Tail::Strict && pos != line.len() {
            return None;
        }
        Some(pos)
    }

    /// The same pattern as a Perl-compatible regex with named groups (for pipelines); a
    /// non-strict tail is captured as `_tail`.
    pub fn to_regex(&self, _words: &dyn Fn(&str) -> u8) -> String {
        let mut re = String::from("^");
        re.push_str(&regex::escape(&String::from_utf8_lossy(&self.lead)));
        let last = self.steps.len() - 1;
        for (k, (name, step)) in self.names.iter().zip(&self.steps).enumerate() {
            let body = if step.by_time {
                TIME_RE
            } else if step.finder.is_some() {
                ".*?"
            } else if k == last && self.tail == Tail::Strict {
                ".*"
            } else {
                r"[^ ]*"
            };
            re.push_str(&format!("(?P<{name}>{body})"));
            re.push_str(&regex::escape(&String::from_utf8_lossy(&step.lit)));
        }
        if self.tail != Tail::Strict {
            re.push_str("(?P<_tail>.*)");
        }
        re.push('$');
        re
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pat(src: &str, tail: Tail) -> Pattern {
        let kinds = |n: &str| {
            if n.starts_with("time") {
                FieldKind::Time
            } else {
                FieldKind::Text
            }
        };
        Pattern::compile(src, tail, &kinds).expect("compiles")
    }

    fn fields(p: &Pattern, line: &str) -> Option<Vec<String>> {
        let mut spans = Vec::new();
        p.split(line.as_bytes(), &mut spans)?;
        Some(
            spans
                .iter()
                .map(|&(a, b)| line[a as usize..b as usize].to_string())
                .collect(),
        )
    }

    #[test]
    fn combined_line_splits_at_literals() {
        let p = pat(
            r#"$remote_addr - $remote_user [$time_local] "$request" $status $bytes "$referer" "$agent""#,
            Tail::Extras,
        );
        let line = r#"10.0.0.1 - - [01/May/2024:10:00:00 +0000] "GET /a?b=1 HTTP/1.1" 503 12 "-" "curl/8" rt=0.5"#;
        let f = fields(&p, line).expect("parses");
        assert_eq!(f[3], "GET /a?b=1 HTTP/1.1");
        assert_eq!(f[4], "503");
        assert_eq!(f[7], "curl/8");
        assert!(fields(&p, "garbage").is_none());
        let re = regex::Regex::new(&p.to_regex(&|_| 1)).expect("regex");
        let c = re.captures(line).expect("regex matches");
        assert_eq!(&c["status"], "503");
        assert_eq!(&c["_tail"], " rt=0.5");
    }

    #[test]
    fn syslog_time_holds_spaces() {
        let p = pat("$time $host $program: $message", Tail::Strict);
        let f = fields(&p, "May  1 10:00:00 web01 sshd[12]: Failed password").expect("parses");
        assert_eq!(
            f,
            ["May  1 10:00:00", "web01", "sshd[12]", "Failed password"]
        );
        let re = regex::Regex::new(&p.to_regex(&|_| 1)).expect("regex");
        assert_eq!(
            &re.captures("May  1 10:00:00 web01 sshd[12]: x").expect("m")["time"],
            "May  1 10:00:00"
        );
    }

    #[test]
    fn bad_patterns_are_errors() {
        let kinds = |_: &str| FieldKind::Text;
        assert!(Pattern::compile("$a$b", Tail::Strict, &kinds).is_err());
        assert!(Pattern::compile("no fields", Tail::Strict, &kinds).is_err());
        assert!(Pattern::compile("$a $a", Tail::Strict, &kinds).is_err());
    }
}
