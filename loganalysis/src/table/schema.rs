//! The fields of one file: the format's own, then keys found in its first events (their
//! roles, kinds and units inferred from the names and the values).

use llmops_common::query::{FieldKind, Unit};

use super::def::{FieldSpec, Format, Origin};
use crate::{level, ts};

/// An envelope's inner line: the detected format and the schema of the sample's inner lines.
#[derive(Debug, Clone)]
pub struct Inner {
    pub fmt: Format,
    pub schema: Schema,
}

/// The fields of one file: the format's own, then keys found in its first events.
#[derive(Debug, Clone)]
pub struct Schema {
    pub fields: Vec<FieldSpec>,
    /// Example values, by field.
    pub examples: Vec<Option<String>>,
    pub time: Option<usize>,
    pub level: Option<usize>,
    /// `w3c` formats: the field of each column of data lines before any header is read.
    pub columns: Vec<Option<usize>>,
    /// An envelope's inner line: its format and schema (Docker's `log`).
    pub inner: Option<Box<Inner>>,
}

impl Schema {
    pub fn of(fmt: &Format) -> Schema {
        Schema {
            examples: vec![None; fmt.fields.len()],
            fields: fmt.fields.clone(),
            time: fmt.time,
            level: fmt.level,
            columns: Vec::new(),
            inner: None,
        }
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    /// Adds `template`, the message with its variable parts masked, when the schema has a
    /// message (a field named or with the role `message`) and no field of that name.
    pub fn add_template(&mut self) {
        let message = self
            .fields
            .iter()
            .position(|f| f.roles.iter().any(|r| r == "message"))
            .or_else(|| self.index("message"));
        if let (Some(m), None) = (message, self.index("template")) {
            self.fields.push(FieldSpec {
                name: "template".to_string(),
                kind: FieldKind::Text,
                unit: Unit::None,
                roles: vec!["template".to_string()],
                words: 0,
                awk: None,
                origin: Origin::Template(m),
            });
            self.examples.push(None);
        }
    }

    /// Adds a key found in an event (JSON, logfmt, tail), its role and unit inferred from
    /// the name.
    pub fn add_key(&mut self, key: &str, example: &str) {
        self.add_field_of(key, example, Origin::Key(key.to_string()));
    }

    /// Adds a `key=value` pair found inside the free text of field `message`.
    pub fn add_message_key(&mut self, message: usize, key: &str, example: &str) {
        let origin = Origin::InMessage {
            message,
            key: key.to_string(),
        };
        self.add_field_of(key, example, origin);
    }

    /// Adds a `key=value` pair found anywhere in an event's first line.
    pub fn add_line_key(&mut self, key: &str, example: &str) {
        self.add_field_of(key, example, Origin::InLine(key.to_string()));
    }

    /// Adds a pair written in a record's own syntax (`PID     : 31207`, `User(mqm)`).
    pub fn add_record_key(&mut self, key: &str, example: &str) {
        self.add_field_of(key, example, Origin::InRecord(key.to_string()));
    }

    pub(super) fn add_field_of(&mut self, key: &str, example: &str, origin: Origin) {
        if let Some(i) = self.index(key) {
            if self.examples[i].is_none() && !example.is_empty() {
                self.examples[i] = Some(example.to_string());
            }
            return;
        }
        // A flag (`preserve_host: false`) is no host, path or user, whatever its name ends in.
        let flag = matches!(example, "true" | "false");
        let numeric = example.is_empty() || looks_numeric(example);
        let inferred = super::roles::infer(key)
            .filter(|i| !flag && i.fits(numeric))
            .map(|i| time_as_duration(i, example))
            .or_else(|| self.role_by_value(example));
        let (mut kind, mut unit, roles) = match (&inferred, super::roles::suffix_unit(key)) {
            (Some(i), _) => (i.kind, i.unit, vec![i.role.clone()]),
            (None, Some(u)) if looks_numeric(example) => (FieldKind::Number, u, Vec::new()),
            (None, _) => (FieldKind::Text, Unit::None, Vec::new()),
        };
        // A duration whose name gives no unit and whose value is a whole number of a
        // million or more is nanoseconds: Go writes a `time.Duration` so (Traefik's
        // `Duration`), and a request of eleven days in seconds is no reading at all.
        let whole = inferred
            .as_ref()
            .is_some_and(|i| i.role == "duration" && i.unit_defaulted)
            && !example.is_empty()
            && example.bytes().all(|b| b.is_ascii_digit());
        // A shorter whole number is milliseconds (restify's and bunyan's `latency`): a
        // duration in seconds is written with a fraction.
        if whole {
            unit = if example.len() >= 7 {
                Unit::Ns
            } else {
                Unit::Ms
            };
        }
        // `416µs`, `1m2.5s`: a Go `time.Duration` as text, read in seconds.
        let may_be_duration = inferred.as_ref().is_none_or(|i| i.role == "duration");
        if may_be_duration && super::go_duration::go_duration(example.as_bytes()).is_some() {
            (kind, unit) = (FieldKind::Number, Unit::S);
        }
        if kind == FieldKind::Text && looks_numeric(example) {
            kind = FieldKind::Number;
        }
        if matches!(kind, FieldKind::Integer | FieldKind::Number)
            && !looks_numeric(example)
            && unit != Unit::S
        {
            kind = FieldKind::Text;
        }
        self.fields.push(FieldSpec {
            name: key.to_string(),
            kind,
            unit,
            roles,
            words: 0,
            awk: None,
            origin,
        });
        self.examples
            .push((!example.is_empty()).then(|| example.to_string()));
        let i = self.fields.len() - 1;
        let role = |r: &str| inferred.as_ref().is_some_and(|x| x.role == r);
        if self.time.is_none() && role("time") {
            self.time = Some(i);
            self.fields[i].kind = FieldKind::Time;
        }
        if self.level.is_none() && role("level") {
            self.level = Some(i);
        }
    }
}

/// A key named for the time whose value is a short number (`time: 0.0512`, `time=12`) is
/// how long something took, in seconds: a time of day is written as one, and an epoch
/// time has ten digits or more.
fn time_as_duration(i: super::roles::Inferred, example: &str) -> super::roles::Inferred {
    let whole = example.split('.').next().unwrap_or("");
    let short_number = looks_numeric(example) && whole.len() < 9;
    if i.role != "time" || !short_number {
        return i;
    }
    super::roles::Inferred {
        role: "duration".into(),
        kind: FieldKind::Number,
        unit: Unit::S,
        unit_defaulted: true,
        by_word: false,
    }
}

impl Schema {
    /// The role of a key whose name says nothing, from its first value: a whole timestamp
    /// (`"when": "2027-03-09T04:11:37Z"`) is the time and a level word (`"sev": "ERROR"`)
    /// the level, when the file has none yet.
    fn role_by_value(&self, example: &str) -> Option<super::roles::Inferred> {
        let v = example.trim();
        let role = if self.time.is_none()
            && ts::parse_at(v.as_bytes(), 0).is_some_and(|(_, end)| end == v.len())
        {
            ("time", FieldKind::Time)
        } else if self.level.is_none() && level::word_level(v.as_bytes()).is_some() {
            ("level", FieldKind::Text)
        } else {
            return None;
        };
        Some(super::roles::Inferred {
            role: role.0.to_string(),
            kind: role.1,
            unit: Unit::None,
            unit_defaulted: true,
            by_word: false,
        })
    }
}

pub(super) fn looks_numeric(s: &str) -> bool {
    !s.is_empty() && s.parse::<f64>().is_ok_and(f64::is_finite)
}
