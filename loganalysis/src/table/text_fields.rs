//! Fields read out of an event's text when a log's format has no field of their role: the
//! address a line names, as `ip` answering for `client` (BIND's `client @0x.. 10.0.0.1#53`,
//! Mosquitto's `New connection from 10.0.0.1:5555`), and a duration written with its unit,
//! as `took` answering for `duration` (a GC pause's `3.456ms`, `completed in 1.2s`). A
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

/// One field a text may hold.
struct TextField {
    name: &'static str,
    role: &'static str,
    kind: FieldKind,
    unit: Unit,
    /// Its one named group is the value.
    regex: &'static str,
    /// Share (percent) of sampled events that must hold it: an address in one line in five;
    /// a duration in one in twenty (a GC log times its pauses, not its other lines).
    min_share: usize,
}

const FIELDS: [TextField; 2] = [
    TextField {
        name: "ip",
        role: "client",
        kind: FieldKind::Ip,
        unit: Unit::None,
        regex: r"(?:^|[^\d.])(?P<ip>(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?:[^\d.]|$)",
        min_share: 20,
    },
    TextField {
        name: "took",
        role: "duration",
        kind: FieldKind::Number,
        // Read as a Go-style duration (`3.456ms`, `1.2s`): in seconds. One after `key=` is
        // that key's value, not the event's.
        unit: Unit::S,
        regex: r"(?:^|[\s(])(?P<took>\d+(?:\.\d+)?(?:ms|us|µs|ns|s))(?:[\s,;)]|$)",
        min_share: 5,
    },
];

/// The regexes of [`FIELDS`], compiled once per process (every file opened asks).
fn compiled() -> &'static [Regex] {
    static RES: OnceLock<Vec<Regex>> = OnceLock::new();
    RES.get_or_init(|| {
        FIELDS
            .iter()
            .map(|tf| Regex::new(tf.regex).expect("a fixed, valid regex"))
            .collect()
    })
}

/// `fmt` with the text fields whose role `schema` (its reading of the file) lacks and that
/// enough of the sample `lines` (split into events by `each_event`) hold; `None` when it
/// gains none.
pub fn with_text_fields(
    fmt: &Format,
    schema: &Schema,
    lines: &[&[u8]],
    each_event: Events,
) -> Option<Format> {
    let mut out: Option<Format> = None;
    for (tf, re) in FIELDS.iter().zip(compiled()) {
        let has = schema
            .fields
            .iter()
            .any(|f| f.name == tf.name || f.roles.iter().any(|r| r == tf.role));
        if has {
            continue;
        }
        let (mut events, mut holding) = (0usize, 0usize);
        each_event(fmt, lines, &mut |ev| {
            events += 1;
            holding += usize::from(std::str::from_utf8(ev.text).is_ok_and(|t| re.is_match(t)));
        });
        if holding < MIN_EVENTS || holding * 100 < events * tf.min_share {
            continue;
        }
        let f = out.get_or_insert_with(|| fmt.clone());
        let field = f.fields.len();
        f.derived.push(Derived {
            from: DerivedFrom::Event,
            groups: vec![(1, field)],
            regex: re.clone(),
        });
        f.fields.push(FieldSpec {
            name: tf.name.to_string(),
            kind: tf.kind,
            unit: tf.unit,
            roles: vec![tf.role.to_string()],
            words: 1,
            awk: None,
            origin: Origin::Derived(vec![(f.derived.len() - 1, 1)]),
        });
    }
    out
}
