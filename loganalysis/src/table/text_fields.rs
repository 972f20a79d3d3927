//! Fields read out of an event's text when a log's format has no field of their role: the
//! address a line names, as `ip` answering for `client` (BIND's `client @0x.. 10.0.0.1#53`,
//! Mosquitto's `New connection from 10.0.0.1:5555`), and a duration written with its unit,
//! as `took` answering for `duration` (a GC pause's `3.456ms`, `completed in 1.2s`), and a
//! quoted HTTP request line's method, path and status (`"GET /v2 HTTP/1.1" status: 200`). A
//! question is then answered from the text, under the field's own name, instead of being an
//! unknown field.

use std::sync::OnceLock;

use llmops_common::query::{FieldKind, Unit};
use regex::Regex;

use super::assemble::EventRef;
use super::def::{Derived, DerivedFrom, FieldSpec, Format, Origin};
use super::event::Schema;

/// How a format splits sample lines into events (the registry's multi-line reading).
pub type Events = fn(&Format, &[&[u8]], &mut dyn FnMut(EventRef<'_>));

/// Fewest sampled events that must hold the value.
const MIN_EVENTS: usize = 3;

/// One field a text pattern reads.
struct TextField {
    /// The field's name and the pattern's group holding its value.
    name: &'static str,
    role: &'static str,
    kind: FieldKind,
    unit: Unit,
}

/// A pattern an event's text may hold, and the fields it reads.
struct TextPattern {
    regex: &'static str,
    fields: &'static [TextField],
    /// Share (percent) of sampled events that must hold it: an address in one line in five;
    /// a duration in one in twenty (a GC log times its pauses, not its other lines).
    min_share: usize,
}

const fn field(name: &'static str, role: &'static str, kind: FieldKind, unit: Unit) -> TextField {
    TextField {
        name,
        role,
        kind,
        unit,
    }
}

const PATTERNS: [TextPattern; 6] = [
    TextPattern {
        // No peer is `0.x.x.x` (a listener's `0.0.0.0`) or `255.x.x.x` (a mask), nor an
        // address with its netmask (`10.0.0.1/255.255.255.0`: a route); the next address of
        // the line is read instead. `/N` after one is often its port (Cisco's
        // `outside:192.0.2.7/443`), so a prefix length stays.
        regex: r"(?:^|[^\d.])(?P<ip>(?:25[0-4]|2[0-4]\d|1\d\d|[1-9]\d?)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?:[^\d./]|/\d*(?:[^\d.]|$)|$)",
        fields: &[field("ip", "client", FieldKind::Ip, Unit::None)],
        min_share: 20,
    },
    TextPattern {
        // Read as a Go-style duration (`3.456ms`, `1.2s`, or with a space as a sentence
        // writes it: `completed in 289 ms`): in seconds. One after `key=` or `key: ` is that
        // key's value, not the event's, unless the key names a duration (`processing time:
        // 7.4s`).
        regex: r"(?:^|[^:\s][ \t]+|(?i:time|took|elapsed|duration|latency):[ \t]+|\()(?P<took>\d+(?:\.\d+)? ?(?:ms|us|µs|ns|s))(?:[\s,;:)]|$)",
        fields: &[field("took", "duration", FieldKind::Number, Unit::S)],
        min_share: 5,
    },
    TextPattern {
        // An HTTP request line quoted inside an application's line (a WSGI server's, a
        // proxy's): its method, its path without the query, a status right after it and,
        // as the common log format has it, a whole number after that is the bytes sent.
        regex: r#""(?P<method>[A-Z]{3,7}) (?P<path>/[^ "?]*)[^ "]* HTTP/[\d.]+"(?:[ \t]+(?:status:?[ \t]*)?(?P<status>[1-5]\d\d)\b(?:[ \t]+(?P<bytes>\d+)(?:\s|$))?)?"#,
        fields: &[
            field("method", "method", FieldKind::Text, Unit::None),
            field("path", "path", FieldKind::Text, Unit::None),
            field("status", "status", FieldKind::Integer, Unit::None),
            field("bytes", "bytes", FieldKind::Integer, Unit::B),
        ],
        min_share: 20,
    },
    TextPattern {
        // A fraction of a second that ends an access line after its quoted user agent:
        // the request time gunicorn (`%(L)s`), nginx (`$request_time`) and Apache
        // (`%{ms}T` in seconds) append.
        regex: r#""[ \t]+(?P<request_time>\d+\.\d+)[ \t]*$"#,
        fields: &[field(
            "request_time",
            "duration",
            FieldKind::Number,
            Unit::S,
        )],
        min_share: 20,
    },
    TextPattern {
        // A user named in quotes in a message (RabbitMQ's `user 'app' authenticated`,
        // `for user "deploy"`).
        regex: r#"\b(?i:user)[ \t]+['"](?P<user>[^'"\s]{1,64})['"]"#,
        fields: &[field("user", "user", FieldKind::Text, Unit::None)],
        min_share: 5,
    },
    TextPattern {
        // A whole number there is Apache's `%D`, the time taken in microseconds, the usual
        // addition to its combined format: three digits at least (`%T`'s whole seconds
        // are one or two).
        regex: r#""[ \t]+(?P<time_taken_us>\d{3,})[ \t]*$"#,
        fields: &[field(
            "time_taken_us",
            "duration",
            FieldKind::Integer,
            Unit::Us,
        )],
        min_share: 20,
    },
];

/// The regexes of [`PATTERNS`], compiled once per process (every file opened asks).
fn compiled() -> &'static [Regex] {
    static RES: OnceLock<Vec<Regex>> = OnceLock::new();
    RES.get_or_init(|| {
        PATTERNS
            .iter()
            .map(|tp| Regex::new(tp.regex).expect("a fixed, valid regex"))
            .collect()
    })
}

/// `fmt` with the text fields whose role `schema` (its reading of the file) lacks and that
/// enough of the sample `lines` (split into events by `each_event`) hold, or that a
/// question asks for by name or role (`wanted`: a batch's `finished in 31.5s` may be in
/// a dozen lines of thousands) and one sampled event holds; `None` when it gains none.
pub fn with_text_fields(
    fmt: &Format,
    schema: &Schema,
    lines: &[&[u8]],
    each_event: Events,
    wanted: &[&str],
) -> Option<Format> {
    let mut out: Option<Format> = None;
    for (tp, re) in PATTERNS.iter().zip(compiled()) {
        // Against the fields an earlier pattern added too: one duration, not two.
        let added = out
            .as_ref()
            .map_or(&[][..], |f| &f.fields[fmt.fields.len()..]);
        let lacking: Vec<&TextField> = tp
            .fields
            .iter()
            .filter(|tf| {
                !schema
                    .fields
                    .iter()
                    .chain(added)
                    .any(|f| f.name == tf.name || f.roles.iter().any(|r| r == tf.role))
            })
            .collect();
        if lacking.is_empty() {
            continue;
        }
        let asked = lacking
            .iter()
            .any(|tf| wanted.iter().any(|w| *w == tf.name || *w == tf.role));
        let (mut events, mut holding) = (0usize, 0usize);
        each_event(fmt, lines, &mut |ev| {
            events += 1;
            holding += usize::from(std::str::from_utf8(ev.text).is_ok_and(|t| re.is_match(t)));
        });
        // Asked for, one event of the sample is enough.
        if holding == 0 || !asked && (holding < MIN_EVENTS || holding * 100 < events * tp.min_share)
        {
            continue;
        }
        let f = out.get_or_insert_with(|| fmt.clone());
        let derived = f.derived.len();
        let mut groups = Vec::new();
        for tf in lacking {
            let group = re
                .capture_names()
                .position(|n| n == Some(tf.name))
                .expect("every text field names a group of its pattern");
            groups.push((group, f.fields.len()));
            f.fields.push(FieldSpec {
                name: tf.name.to_string(),
                kind: tf.kind,
                unit: tf.unit,
                roles: vec![tf.role.to_string()],
                words: 1,
                awk: None,
                origin: Origin::Derived(vec![(derived, group)]),
            });
        }
        f.derived.push(Derived {
            from: DerivedFrom::Event,
            groups,
            regex: re.clone(),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::compiled;

    /// The address the `ip` pattern reads out of `line`.
    fn ip(line: &str) -> Option<&str> {
        compiled()[0]
            .captures(line)
            .and_then(|c| c.name("ip"))
            .map(|m| m.as_str())
    }

    #[test]
    fn a_peer_address_is_read_and_listeners_and_masks_are_passed_over() {
        assert_eq!(ip("accepted from 203.0.113.7:5222"), Some("203.0.113.7"));
        assert_eq!(ip("client @0x7f 10.1.2.3#53 query"), Some("10.1.2.3"));
        assert_eq!(ip("bound on 0.0.0.0:4222"), None);
        assert_eq!(
            ip("listening on 0.0.0.0:80, first peer 198.51.100.4"),
            Some("198.51.100.4")
        );
        assert_eq!(ip("gateway 10.0.0.1/255.255.255.0 dev eth0"), None);
        assert_eq!(
            ip("outside:198.51.100.23/51234 to inside:10.4.0.9/443"),
            Some("198.51.100.23")
        );
        assert_eq!(ip("served 192.0.2.9/index.html"), Some("192.0.2.9"));
        assert_eq!(ip("version 1.2.3.4.5"), None);
    }

    #[test]
    fn a_duration_is_read_with_or_without_a_space_before_its_unit() {
        let took = |line: &str| {
            compiled()[1]
                .captures(line)
                .and_then(|c| c.name("took"))
                .map(|m| m.as_str().to_string())
        };
        assert_eq!(
            took("GET /rides completed in 289 ms").as_deref(),
            Some("289 ms")
        );
        assert_eq!(
            took("flush done in 3.5ms, 12 rows").as_deref(),
            Some("3.5ms")
        );
        assert_eq!(took("retry after 2 s").as_deref(), Some("2 s"));
        assert_eq!(took("copied 12 items").as_deref(), None);
    }
}
