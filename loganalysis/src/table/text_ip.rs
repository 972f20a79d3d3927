//! The address a line names in its text, as the log's `ip` field answering for `client`,
//! when its format has no client field of its own: BIND's `client @0x.. 10.0.0.1#53`,
//! Mosquitto's `New connection from 10.0.0.1:5555`, an app's `[CLIENT: 10.0.0.5]`. "Which
//! client" is then answered (by the first IPv4 address of each event, and said so in the
//! field's name) instead of being an unknown field.

use llmops_common::query::{FieldKind, Unit};
use regex::Regex;

use super::def::{Derived, DerivedFrom, FieldSpec, Format, Origin};
use super::event::Schema;
use super::registry::{each_event, sample_lines};

/// The field's name: what the answer says it read.
pub const NAME: &str = "ip";
/// Share (percent) of sampled events that must hold an address.
const MIN_SHARE: usize = 20;

fn ipv4() -> Regex {
    Regex::new(r"(?:^|[^\d.])(?P<ip>(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?:[^\d.]|$)")
        .expect("a fixed, valid regex")
}

/// `fmt` with an `ip` field read out of the event text, when `schema` (its reading of the
/// file) has no client and one sampled event in five names an IPv4 address.
pub fn with_text_ip(fmt: &Format, schema: &Schema, head: &[u8]) -> Option<Format> {
    let has_client = schema
        .fields
        .iter()
        .any(|f| f.name == NAME || f.roles.iter().any(|r| r == "client"));
    if has_client {
        return None;
    }
    let re = ipv4();
    let lines = sample_lines(head);
    let (mut events, mut with_ip) = (0usize, 0usize);
    each_event(fmt, &lines, &mut |ev| {
        events += 1;
        with_ip += usize::from(std::str::from_utf8(ev.text).is_ok_and(|t| re.is_match(t)));
    });
    if events == 0 || with_ip * 100 < events * MIN_SHARE {
        return None;
    }
    let mut out = fmt.clone();
    let field = out.fields.len();
    out.derived.push(Derived {
        from: DerivedFrom::Event,
        groups: vec![(1, field)],
        regex: re,
    });
    out.fields.push(FieldSpec {
        name: NAME.to_string(),
        kind: FieldKind::Ip,
        unit: Unit::None,
        roles: vec!["client".to_string()],
        words: 1,
        awk: None,
        origin: Origin::Derived(vec![(out.derived.len() - 1, 1)]),
    });
    Some(out)
}
