//! Format definitions: the TOML shape of `formats/*.toml` and its compiled form
//! ([`Format`]), with load errors that name the file and the line.

use std::collections::BTreeMap;

use llmops_common::query::{FieldKind, Filter, Unit};
use regex::Regex;
use serde::Deserialize;

use super::error::QueryError;
use super::pattern::Pattern;
pub use super::pattern::Tail;

/// How a format's lines become fields.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParseKind {
    /// nginx `log_format` style: literals and `$field`s.
    Pattern,
    /// A regular expression with named groups.
    Regex,
    /// One JSON object per line.
    Json,
    /// `key=value` pairs.
    Logfmt,
    /// The analyser's rule: a timestamp at the line start, then a level word, then the
    /// message.
    Analyser,
    /// Columns declared by a header directive (W3C extended log `#Fields:`, Zeek
    /// `#fields`): data lines are separated values in the order of the latest header.
    W3c,
}

/// How the level field is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum LevelFormat {
    /// A level word (`ERROR`, `warning`, `E`...), or a key of `level_map`.
    #[default]
    Word,
    /// A syslog priority or severity number: severity = value % 8 (journal `PRIORITY`,
    /// RFC 5424 `<PRI>`).
    SyslogPri,
}

/// How the time field is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default)]
#[serde(rename_all = "snake_case")]
pub enum TimeFormat {
    /// Any form the analyser recognises (ISO, access log, syslog, ctime).
    #[default]
    Auto,
    /// Only the BSD syslog form `May  1 10:00:00`.
    Syslog,
    /// klog's `0821 17:00:00.123456` (no year).
    Klog,
    /// `11-30 09:15:02.123` (no year; Android logcat).
    MonthDay,
    /// `09:15:02.123`: a time of day alone (no date).
    Clock,
    /// `11/30/2026, 9:15:02 AM`, `03/29/26,00:03:06`: month, day, year.
    SlashMonthFirst,
    /// `30/11/2026 21:15:02`: day, month, year.
    SlashDayFirst,
    Epoch,
    EpochMs,
    EpochUs,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ParseToml {
    kind: ParseKind,
    pattern: Option<String>,
    regex: Option<String>,
    #[serde(default)]
    tail: Tail,
    time: Option<String>,
    #[serde(default)]
    time_format: TimeFormat,
    /// A field name, or `@analyser` for the analyser's level rule on the event.
    level: Option<String>,
    #[serde(default)]
    level_map: BTreeMap<String, String>,
    #[serde(default)]
    level_format: LevelFormat,
    /// JSON: keys every line must have to count as this format.
    #[serde(default)]
    require_keys: Vec<String>,
    /// JSON: the key whose text is itself a log line in another format (Docker's `log`).
    envelope: Option<String>,
    /// A line that marks a file as this format: detection considers the format only for a
    /// sample where at least one line matches (a uWSGI request line among application
    /// lines any Python log has).
    signature: Option<String>,
    // `kind = "w3c"`: how the header directive and the data lines are written.
    /// The directive that names the columns (`#Fields:`).
    header: Option<String>,
    /// The separator of data lines and of the header's names (one byte).
    separator: Option<String>,
    /// Columns of data lines before any header (the writer's default field list).
    #[serde(default)]
    columns: Vec<String>,
    /// Columns that together are the event's time (`date`, `time`), joined by `T`, in UTC.
    #[serde(default)]
    time_columns: Vec<String>,
    /// Values that mean "no value" (`-`).
    #[serde(default)]
    empty: Vec<String>,
    /// Columns where `+` stands for a space (IIS's `cs(User-Agent)`).
    #[serde(default)]
    plus_space: Vec<String>,
    /// Fields cut from a quoted value where `""` stands for one `"` (CSV quoting).
    #[serde(default)]
    doubled_quotes: Vec<String>,
    /// Fields captured with their CSV quotes (a column quoted only where a value needs it):
    /// the quotes are dropped and `""` is one `"`.
    #[serde(default)]
    quoted: Vec<String>,
    /// Only lines the regex reads are events: the others (a table's header row, the notes
    /// above it) are the file's own lines.
    #[serde(default)]
    only_rows: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct MultilineToml {
    start: Option<String>,
    #[serde(rename = "continue")]
    cont: Option<String>,
    header: Option<String>,
    attach: Option<String>,
    #[serde(default)]
    preamble: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FieldToml {
    name: String,
    #[serde(default = "text_kind")]
    kind: FieldKind,
    #[serde(default)]
    unit: Unit,
    #[serde(default)]
    roles: Vec<String>,
    /// Whitespace-separated words the value holds (for `awk` columns); 0: any number.
    #[serde(default = "one")]
    words: u8,
    /// The field as an awk expression, for fields that are not a whole column
    /// (`$7` for the path inside the quoted request).
    awk: Option<String>,
}

fn text_kind() -> FieldKind {
    FieldKind::Text
}

fn one() -> u8 {
    1
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DerivedToml {
    /// A field, or `@event` for the whole event text.
    from: String,
    regex: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TagToml {
    name: String,
    title: String,
    filters: Vec<Filter>,
}

/// A check every definition carries: input lines, the events they make and field values
/// of the first event.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FormatTest {
    pub input: String,
    pub events: u64,
    #[serde(default)]
    pub unparsed: u64,
    #[serde(default)]
    pub fields: BTreeMap<String, String>,
    #[serde(default)]
    pub tags: Vec<String>,
    /// The test's events have no time, in a format where the time is optional (`dmesg`
    /// with seconds since boot).
    #[serde(default)]
    pub untimed: bool,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FormatToml {
    name: String,
    title: String,
    #[serde(default)]
    priority: i32,
    parse: ParseToml,
    multiline: Option<MultilineToml>,
    #[serde(default)]
    fields: Vec<FieldToml>,
    #[serde(default)]
    derived: Vec<DerivedToml>,
    #[serde(default)]
    tags: Vec<TagToml>,
    #[serde(default)]
    tests: Vec<FormatTest>,
    /// A regex format's rows read by splitting instead (a learned header table).
    split: Option<super::split::SplitToml>,
}

/// Where a field's value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// Pattern field `i` or regex group `i`.
    Capture(usize),
    /// A group of a derived rule: the first (rule, group) that matched.
    Derived(Vec<(usize, usize)>),
    /// A JSON key (dotted path) or logfmt / tail key.
    Key(String),
    /// A `key=value` pair written inside field `message`'s free text.
    InMessage { message: usize, key: String },
    /// A `key=value` pair anywhere in the event's first line: the analyser's reading,
    /// whose message starts after the level, where pairs stand before it (Sidekiq's
    /// `time pid=7 tid=x class=Job jid=y INFO: done`).
    InLine(String),
    /// A pair in a record's own syntax anywhere in the event (`PID     : 31207`,
    /// `User(mqm)`): `inline_pairs::record_pairs`.
    InRecord(String),
    /// The first of a role's keys an event has (JSON or logfmt), for a role a question asks
    /// that no key of the sample answers (bunyan's `err.name` only in later error lines).
    AnyKey(Vec<String>),
    /// A header-declared column, by name.
    Column(String),
    /// Columns (field indexes) that together are the event's time.
    ColumnTime(Vec<usize>),
    /// Field `i` of the inner line of an envelope (Docker's `log`), in the inner format.
    Inner(usize),
    /// The analyser rule's time, level or message.
    Analyser(AnalyserPart),
    /// Field `i` (the message) with its variable parts masked (`<num>`, `<ip>`, `<uuid>`,
    /// `<hex>`, `<dur>`): what "which error" groups by.
    Template(usize),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnalyserPart {
    Time,
    Level,
    Message,
}

/// One field of a format's schema.
#[derive(Debug, Clone)]
pub struct FieldSpec {
    pub name: String,
    pub kind: FieldKind,
    pub unit: Unit,
    pub roles: Vec<String>,
    pub words: u8,
    /// The awk expression of the field, when the definition gives one.
    pub awk: Option<String>,
    pub origin: Origin,
}

/// The source of a derived rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DerivedFrom {
    Field(usize),
    Event,
}

#[derive(Debug, Clone)]
pub struct Derived {
    pub from: DerivedFrom,
    pub regex: Regex,
    /// (regex group index, field index)
    pub groups: Vec<(usize, usize)>,
}

#[derive(Debug, Clone)]
pub struct Tag {
    pub name: String,
    pub title: String,
    pub filters: Vec<Filter>,
}

#[derive(Debug, Clone)]
pub struct Multiline {
    pub start: Option<Regex>,
    pub cont: Option<Regex>,
    pub header: Option<Regex>,
    /// A line that looks like a start but belongs to the event before it (PostgreSQL's
    /// `DETAIL:`, `HINT:` and `STATEMENT:` lines under an `ERROR:`).
    pub attach: Option<Regex>,
    /// Lines before the first start are the file's preamble (a banner, a reloader's
    /// notes), not events.
    pub preamble: bool,
    /// A line that is a record of its own, never a continuation, when the format gives no
    /// `cont` rule: another writer's line in the same file (an access line among gunicorn's
    /// error lines, both on a container's stdout) is its own event, not part of the event
    /// above it.
    pub own_record: Option<Regex>,
    /// A line whose first non-blank byte is `{` starts an event (JSON formats).
    pub object_start: bool,
}

/// Heads of lines that are records of their own: an access log's `client ident user
/// [dd/Mon/yyyy:hh:mm:ss` (a time at the head of a line is not enough: Couchbase quotes a
/// crashed port's timed lines inside its own event).
const OWN_RECORD: &str = r"^\S+ \S+ \S+ \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d";

/// Where an event starts among JSON lines: an object, or a line another writer to the same
/// stream starts a record of its own with (a Go panic, a Python traceback, a JVM's uncaught
/// exception, Node's warning, a timed plain line, an access log's head). Any other line
/// goes on the event above it (a trace's frames), and lines before the first start are the
/// file's preamble (a banner).
const JSON_START: &str = r"^(?:\s*\{|panic: |fatal error: |\(node:\d+\) |Traceback \(most recent call last\):|Exception in thread |\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d |\S+ \S+ \S+ \[\d\d/[A-Z][a-z]{2}/\d{4}:\d\d:\d\d:\d\d)";

#[derive(Debug, Clone)]
pub enum Parser {
    Pattern(Pattern),
    Regex(Regex),
    Json,
    Logfmt,
    Analyser,
    Columns(Columns),
}

/// The header-declared columns of a `w3c` format.
#[derive(Debug, Clone)]
pub struct Columns {
    pub header: String,
    pub separator: u8,
    pub defaults: Vec<String>,
    pub time_columns: Vec<String>,
    pub empty: Vec<String>,
    pub plus_space: Vec<String>,
    /// Known column names with their kinds, units and roles (the definition's `[[fields]]`).
    pub catalog: Vec<FieldSpec>,
}

impl Columns {
    /// The column names a header line declares, when `line` is one.
    pub fn header_names<'l>(&self, line: &'l [u8]) -> Option<Vec<&'l [u8]>> {
        let rest = line.strip_prefix(self.header.as_bytes())?;
        Some(
            rest.split(|&b| b == self.separator || b == b' ' || b == b'\t')
                .filter(|n| !n.is_empty())
                .collect(),
        )
    }

    pub fn known(&self, name: &str) -> Option<&FieldSpec> {
        self.catalog.iter().find(|f| f.name == name)
    }
}

/// A compiled format definition.
#[derive(Debug, Clone)]
pub struct Format {
    pub name: String,
    pub title: String,
    pub priority: i32,
    pub kind: ParseKind,
    pub parser: Parser,
    /// The line regex in Perl-compatible syntax (patterns compiled to one), for pipelines.
    pub line_regex: Option<String>,
    pub tail: Tail,
    pub fields: Vec<FieldSpec>,
    pub time: Option<usize>,
    pub time_format: TimeFormat,
    pub level: Option<usize>,
    pub level_map: BTreeMap<String, String>,
    pub level_format: LevelFormat,
    pub require_keys: Vec<String>,
    /// JSON: the key holding an inner log line.
    pub envelope: Option<String>,
    /// Detection considers the format only when a sample line matches this.
    pub signature: Option<Regex>,
    /// Fields whose `""` is one `"` (values cut from CSV quoting).
    pub doubled_quotes: Vec<String>,
    /// Fields captured with their CSV quotes (`[parse] quoted`).
    pub quoted: Vec<String>,
    /// Lines the parser does not read are not events (`[parse] only_rows`).
    pub only_rows: bool,
    /// A regex format whose rows are split by their separator instead of matched.
    pub split: Option<super::split::Split>,
    /// A regex format read without its last group, the rest of the line (none when
    /// `split` reads the rows).
    pub rest_group: Option<super::rest_group::RestGroup>,
    pub multiline: Option<Multiline>,
    pub derived: Vec<Derived>,
    pub tags: Vec<Tag>,
    pub tests: Vec<FormatTest>,
    /// The definition file it came from.
    pub file: String,
}

impl Format {
    pub fn field(&self, name: &str) -> Option<usize> {
        self.fields.iter().position(|f| f.name == name)
    }

    pub fn is_multiline(&self) -> bool {
        self.multiline.is_some()
    }

    pub fn is_dynamic(&self) -> bool {
        matches!(
            self.kind,
            ParseKind::Json | ParseKind::Logfmt | ParseKind::W3c
        ) || self.tail == Tail::Extras
    }

    /// Whether reading a line needs the lines before it (a header that names the columns):
    /// such a file is read on one thread, from its start.
    pub fn is_stateful(&self) -> bool {
        matches!(self.parser, Parser::Columns(_))
    }

    /// The header-declared columns, for a `w3c` format.
    pub fn columns(&self) -> Option<&Columns> {
        match &self.parser {
            Parser::Columns(c) => Some(c),
            _ => None,
        }
    }
}

/// 1-based line in `text` of the first occurrence of `needle` (else 1).
fn line_of(text: &str, needle: &str) -> usize {
    text.find(needle)
        .map_or(1, |p| text[..p].matches('\n').count() + 1)
}

fn bad(file: &str, text: &str, needle: &str, msg: String) -> QueryError {
    QueryError::BadFormat {
        file: file.to_string(),
        line: line_of(text, needle),
        message: msg,
    }
}

/// A definition being compiled: errors point at the line of the offending text.
struct Compiler<'a> {
    file: &'a str,
    text: &'a str,
    def: &'a FormatToml,
}

impl Compiler<'_> {
    fn err(&self, needle: &str, msg: String) -> QueryError {
        bad(self.file, self.text, needle, msg)
    }

    fn regex(&self, src: &str) -> Result<Regex, QueryError> {
        Regex::new(src).map_err(|e| self.err(src, format!("bad regex: {e}")))
    }

    fn declared(&self, name: &str) -> Option<&FieldToml> {
        self.def.fields.iter().find(|f| f.name == name)
    }

    /// A field made by `origin`, typed by its `[[fields]]` entry when there is one.
    fn spec(&self, name: &str, origin: Origin) -> FieldSpec {
        let d = self.declared(name);
        FieldSpec {
            name: name.to_string(),
            kind: d.map_or(FieldKind::Text, |d| d.kind),
            unit: d.map_or(Unit::None, |d| d.unit),
            roles: d.map_or_else(Vec::new, |d| d.roles.clone()),
            words: d.map_or(1, |d| d.words),
            awk: d.and_then(|d| d.awk.clone()),
            origin,
        }
    }

    /// The line parser, the fields it makes, and its Perl-compatible regex.
    fn parser(&self, fields: &mut Vec<FieldSpec>) -> Result<(Parser, Option<String>), QueryError> {
        let p = &self.def.parse;
        Ok(match p.kind {
            ParseKind::Pattern => {
                let src = p.pattern.as_deref().ok_or_else(|| {
                    self.err("[parse]", "kind = \"pattern\" needs `pattern`".into())
                })?;
                let kinds = |n: &str| self.declared(n).map_or(FieldKind::Text, |d| d.kind);
                let pat =
                    Pattern::compile(src, p.tail, &kinds).map_err(|m| self.err("pattern", m))?;
                for (i, name) in pat.names().iter().enumerate() {
                    fields.push(self.spec(name, Origin::Capture(i)));
                }
                let re = pat.to_regex(&|n| self.declared(n).map_or(1, |d| d.words));
                (Parser::Pattern(pat), Some(re))
            }
            ParseKind::Regex => {
                let src = p
                    .regex
                    .as_deref()
                    .ok_or_else(|| self.err("[parse]", "kind = \"regex\" needs `regex`".into()))?;
                let re = self.regex(src)?;
                for (i, name) in re.capture_names().enumerate() {
                    if let Some(name) = name {
                        fields.push(self.spec(name, Origin::Capture(i)));
                    }
                }
                (Parser::Regex(re), Some(src.to_string()))
            }
            ParseKind::Json | ParseKind::Logfmt => {
                for d in &self.def.fields {
                    fields.push(self.spec(&d.name, Origin::Key(d.name.clone())));
                }
                let parser = if p.kind == ParseKind::Json {
                    Parser::Json
                } else {
                    Parser::Logfmt
                };
                (parser, None)
            }
            ParseKind::Analyser => {
                for (name, part) in [
                    ("time", AnalyserPart::Time),
                    ("level", AnalyserPart::Level),
                    ("message", AnalyserPart::Message),
                ] {
                    fields.push(self.spec(name, Origin::Analyser(part)));
                }
                (Parser::Analyser, None)
            }
            ParseKind::W3c => (Parser::Columns(self.columns()?), None),
        })
    }

    fn columns(&self) -> Result<Columns, QueryError> {
        let c = &self.def.parse;
        let header = c
            .header
            .clone()
            .ok_or_else(|| self.err("[parse]", "kind = \"w3c\" needs `header`".into()))?;
        let separator = match c.separator.as_deref().unwrap_or(" ").as_bytes() {
            [b] => *b,
            _ => return Err(self.err("separator", "`separator` must be one byte".into())),
        };
        let catalog = self
            .def
            .fields
            .iter()
            .map(|d| self.spec(&d.name, Origin::Column(d.name.clone())))
            .collect();
        Ok(Columns {
            header,
            separator,
            defaults: c.columns.clone(),
            time_columns: c.time_columns.clone(),
            empty: c.empty.clone(),
            plus_space: c.plus_space.clone(),
            catalog,
        })
    }

    /// Derived rules; each named group is a field (several rules may make the same one).
    fn derived(&self, fields: &mut Vec<FieldSpec>) -> Result<Vec<Derived>, QueryError> {
        let mut derived = Vec::new();
        for d in &self.def.derived {
            let from = if d.from == "@event" {
                DerivedFrom::Event
            } else {
                let i = fields
                    .iter()
                    .position(|f| f.name == d.from)
                    .ok_or_else(|| {
                        self.err(&d.from, format!("derived from unknown field `{}`", d.from))
                    })?;
                DerivedFrom::Field(i)
            };
            let re = self.regex(&d.regex)?;
            let rule = derived.len();
            let mut groups = Vec::new();
            for (g, name) in re.capture_names().enumerate() {
                let Some(name) = name else { continue };
                let idx = match fields.iter().position(|f| f.name == name) {
                    Some(i) => match &mut fields[i].origin {
                        Origin::Derived(alts) => {
                            alts.push((rule, g));
                            i
                        }
                        _ => {
                            return Err(self.err(
                                name,
                                format!("derived field `{name}` is already a field of the line"),
                            ))
                        }
                    },
                    None => {
                        fields.push(self.spec(name, Origin::Derived(vec![(rule, g)])));
                        fields.len() - 1
                    }
                };
                groups.push((g, idx));
            }
            derived.push(Derived {
                from,
                regex: re,
                groups,
            });
        }
        Ok(derived)
    }

    /// The time and level fields, with their roles.
    fn time_and_level(
        &self,
        fields: &mut Vec<FieldSpec>,
    ) -> Result<(Option<usize>, Option<usize>), QueryError> {
        let p = &self.def.parse;
        let find = |fields: &[FieldSpec], name: &Option<String>, what: &str| match name.as_deref() {
            None | Some("@analyser") => Ok(None),
            Some(n) => fields
                .iter()
                .position(|f| f.name == n)
                .map(Some)
                .ok_or_else(|| self.err(n, format!("{what} field `{n}` is not a field"))),
        };
        let (mut time, mut level) = (
            find(fields, &p.time, "time")?,
            find(fields, &p.level, "level")?,
        );
        if p.kind == ParseKind::Analyser {
            (time, level) = (Some(0), Some(1));
            push_role(&mut fields[2], "message");
        } else if p.level.as_deref() == Some("@analyser") {
            fields.push(self.spec("level", Origin::Analyser(AnalyserPart::Level)));
            level = Some(fields.len() - 1);
        }
        if let Some(t) = time {
            fields[t].kind = FieldKind::Time;
            push_role(&mut fields[t], "time");
        }
        if let Some(l) = level {
            push_role(&mut fields[l], "level");
        }
        Ok((time, level))
    }

    fn multiline(&self) -> Result<Option<Multiline>, QueryError> {
        let Some(m) = &self.def.multiline else {
            if self.def.parse.kind == ParseKind::Json {
                return Ok(Some(Multiline {
                    start: Some(self.regex(JSON_START)?),
                    cont: None,
                    header: None,
                    attach: None,
                    preamble: true,
                    own_record: None,
                    object_start: true,
                }));
            }
            return Ok(None);
        };
        let re = |s: &Option<String>| s.as_deref().map(|s| self.regex(s)).transpose();
        Ok(Some(Multiline {
            start: re(&m.start)?,
            cont: re(&m.cont)?,
            header: re(&m.header)?,
            attach: re(&m.attach)?,
            preamble: m.preamble,
            own_record: match m.cont {
                Some(_) => None,
                None => Some(self.regex(OWN_RECORD)?),
            },
            object_start: false,
        }))
    }

    /// Every declared field must be made by the parser or a derived rule.
    fn check_declared(&self, fields: &[FieldSpec]) -> Result<(), QueryError> {
        let def = self.def;
        // A `w3c` definition's fields are a catalog of column names a header may declare.
        if let Some(d) = def
            .fields
            .iter()
            .filter(|_| def.parse.kind != ParseKind::W3c)
            .find(|d| !fields.iter().any(|f| f.name == d.name))
        {
            return Err(self.err(
                &d.name,
                format!(
                    "field `{}` is declared but no pattern, group or key makes it",
                    d.name
                ),
            ));
        }
        Ok(())
    }

    /// The `[split]` table, which only a regex parser's groups can feed.
    fn split(&self, parser: &Parser) -> Result<Option<super::split::Split>, QueryError> {
        Ok(match (&self.def.split, parser) {
            (Some(t), Parser::Regex(re)) => {
                let names: Vec<Option<&str>> = re.capture_names().collect();
                Some(super::split::Split::compile(t, &names).map_err(|m| self.err("[split]", m))?)
            }
            (Some(_), _) => {
                return Err(self.err("[split]", "[split] needs kind = \"regex\"".into()))
            }
            (None, _) => None,
        })
    }

    /// Every field `doubled_quotes` names must be a field.
    fn check_doubled_quotes(&self, fields: &[FieldSpec]) -> Result<(), QueryError> {
        if let Some(n) = self
            .def
            .parse
            .doubled_quotes
            .iter()
            .find(|n| !fields.iter().any(|f| f.name == **n))
        {
            return Err(self.err(
                n,
                format!("doubled_quotes names `{n}`, which is not a field"),
            ));
        }
        Ok(())
    }
}

/// Parses the TOML of one definition file; errors name its line.
fn parse_toml(file: &str, text: &str) -> Result<FormatToml, QueryError> {
    toml::from_str(text).map_err(|e| QueryError::BadFormat {
        file: file.to_string(),
        line: e.span().map_or(1, |s| {
            text[..s.start.min(text.len())].matches('\n').count() + 1
        }),
        message: e.message().to_string(),
    })
}

/// Parses and compiles one definition file.
pub fn compile(file: &str, text: &str) -> Result<Format, QueryError> {
    let def = parse_toml(file, text)?;
    let cx = Compiler {
        file,
        text,
        def: &def,
    };
    let mut fields = Vec::new();
    let (parser, line_regex) = cx.parser(&mut fields)?;
    let derived = cx.derived(&mut fields)?;
    cx.check_declared(&fields)?;
    let (time, level) = cx.time_and_level(&mut fields)?;
    let multiline = cx.multiline()?;
    let split = cx.split(&parser)?;
    let rest_group = match (&parser, &line_regex, &split) {
        (Parser::Regex(re), Some(src), None) => super::rest_group::RestGroup::of(src, re),
        _ => None,
    };
    let p = &def.parse;
    let signature = p.signature.as_deref().map(|s| cx.regex(s)).transpose()?;
    cx.check_doubled_quotes(&fields)?;
    Ok(Format {
        name: def.name.clone(),
        title: def.title.clone(),
        priority: def.priority,
        kind: p.kind,
        parser,
        line_regex,
        tail: p.tail,
        fields,
        time,
        time_format: p.time_format,
        level,
        level_map: p.level_map.clone(),
        level_format: p.level_format,
        require_keys: p.require_keys.clone(),
        envelope: p.envelope.clone(),
        signature,
        doubled_quotes: p.doubled_quotes.clone(),
        quoted: p.quoted.clone(),
        only_rows: p.only_rows,
        split,
        rest_group,
        multiline,
        derived,
        tags: def
            .tags
            .iter()
            .map(|t| Tag {
                name: t.name.clone(),
                title: t.title.clone(),
                filters: t.filters.clone(),
            })
            .collect(),
        tests: def.tests.clone(),
        file: file.to_string(),
    })
}

fn push_role(f: &mut FieldSpec, role: &str) {
    if !f.roles.iter().any(|r| r == role) {
        f.roles.push(role.to_string());
    }
}
