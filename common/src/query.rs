//! The typed query over tables: a log is events with fields, the system is processes,
//! sockets, mounts and units; one query shape (filters, a window, a measure, grouping,
//! order, limit) and one result shape serve both, for the offline planner, the tools and
//! any LLM (whose tool schemas are generated from these types).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which table the rows come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Source {
    /// The events of the log files in `Query::files`.
    #[default]
    Log,
    /// Running processes: pid, ppid, user, name, command, program (what it runs: the
    /// executable, or the script/jar an interpreter runs; match a process by name on it),
    /// state, start_time, cpu_percent, rss_bytes, mem_percent, threads, unit.
    Processes,
    /// Sockets with their owning process: proto, state, local, local_port, peer, pid,
    /// process, user.
    Sockets,
    /// Mounted filesystems as `df` shows them: mount, device, fstype, size_bytes,
    /// used_bytes, avail_bytes, use_percent.
    Mounts,
    /// systemd units: unit, load, active, sub, description.
    Units,
}

impl Source {
    pub const fn as_str(self) -> &'static str {
        match self {
            Source::Log => "log",
            Source::Processes => "processes",
            Source::Sockets => "sockets",
            Source::Mounts => "mounts",
            Source::Units => "units",
        }
    }

    /// What an answer calls its rows (Chinese, English): a log's are events, a system
    /// table's rows.
    pub const fn row_words(self) -> (&'static str, &'static str) {
        match self {
            Source::Log => ("事件", "events"),
            _ => ("行", "rows"),
        }
    }
}

/// A field by name: a format's own field (`status`, `request_time`), a JSON key by dotted
/// path (`http.status`), or a role every format maps to one of its fields (`time`, `level`,
/// `message`, `client`, `method`, `path`, `status`, `bytes`, `duration`, `upstream`,
/// `user`, `host`, `program`, `pid`, `logger`, `thread`, `exception`, `cause`). The engine
/// resolves it against the table's schema and says which field it used.
#[derive(
    Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(transparent)]
pub struct Field(pub String);

impl Field {
    pub fn new(name: impl Into<String>) -> Self {
        Field(name.into())
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A field of a log's table as a question can name it: its own name, and whether a
/// statistic can read it (a number that is not an identifier).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Column {
    pub name: String,
    pub numeric: bool,
    /// The roles the field answers for (`client`, `duration`, `time`, `level`, ...), and
    /// those it stands in for when the log has no field of its own for them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<String>,
    /// Every value the field took in the sample, when it took few (flags, codes, names of
    /// jails or queues): a word of a question that is one of them is this field's value.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// A unit a number in a filter or a result is measured in. Durations are compared in
/// seconds and sizes in bytes whatever unit the field is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    #[default]
    None,
    /// Nanoseconds, microseconds, milliseconds, seconds, minutes, hours, days.
    Ns,
    Us,
    Ms,
    S,
    Min,
    H,
    D,
    /// Bytes and binary multiples (`KB` is read as KiB, like `ls -h`).
    B,
    Kib,
    Mib,
    Gib,
    Percent,
    /// Millilitres and litres, grams and kilograms: what a sensor or a scale writes
    /// (`volume_ml`, `load_kg`).
    Ml,
    L,
    G,
    Kg,
}

impl Unit {
    /// The dimension of the unit: what it can be compared with.
    pub const fn dimension(self) -> Dimension {
        match self {
            Unit::None => Dimension::Plain,
            Unit::Ns | Unit::Us | Unit::Ms | Unit::S | Unit::Min | Unit::H | Unit::D => {
                Dimension::Time
            }
            Unit::B | Unit::Kib | Unit::Mib | Unit::Gib => Dimension::Size,
            Unit::Percent => Dimension::Percent,
            Unit::Ml | Unit::L => Dimension::Volume,
            Unit::G | Unit::Kg => Dimension::Mass,
        }
    }

    /// Multiplier to the dimension's base unit (seconds, bytes, litres, kilograms; 1
    /// otherwise).
    pub const fn factor(self) -> f64 {
        match self {
            Unit::Ns => 1e-9,
            Unit::Us => 1e-6,
            Unit::Ms => 1e-3,
            Unit::Min => 60.0,
            Unit::H => 3600.0,
            Unit::D => 86400.0,
            Unit::Kib => 1024.0,
            Unit::Mib => 1024.0 * 1024.0,
            Unit::Gib => 1024.0 * 1024.0 * 1024.0,
            Unit::Ml | Unit::G => 1e-3,
            Unit::None | Unit::S | Unit::B | Unit::Percent | Unit::L | Unit::Kg => 1.0,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Unit::None => "",
            Unit::Ns => "ns",
            Unit::Us => "us",
            Unit::Ms => "ms",
            Unit::S => "s",
            Unit::Min => "min",
            Unit::H => "h",
            Unit::D => "d",
            Unit::B => "B",
            Unit::Kib => "KiB",
            Unit::Mib => "MiB",
            Unit::Gib => "GiB",
            Unit::Percent => "%",
            Unit::Ml => "ml",
            Unit::L => "l",
            Unit::G => "g",
            Unit::Kg => "kg",
        }
    }
}

/// What a unit measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dimension {
    Plain,
    Time,
    Size,
    Percent,
    Volume,
    Mass,
}

/// A literal in a filter: a number (with its unit) or text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Scalar {
    Number(f64),
    Text(String),
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Number(n) if n.fract() == 0.0 && n.abs() < 1e15 => write!(f, "{}", *n as i64),
            Scalar::Number(n) => write!(f, "{n}"),
            Scalar::Text(t) => f.write_str(t),
        }
    }
}

/// How a filter compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FilterOp {
    /// Equal (numbers numerically, text case-insensitively unless `case_sensitive`).
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    /// The field (or the whole event when `field` is absent) contains the text.
    Contains,
    NotContains,
    /// A regular expression (Rust `regex` syntax) matches the field or the event.
    Regex,
    /// A numeric class: `value` 5 keeps 500..=599 (`5xx`), 4 keeps 4xx.
    Class,
    /// A named predicate the log's format defines (`failed_login`, `slow_query`): `value`
    /// is its name; `field` is unused.
    Tag,
}

/// One condition rows must meet. All filters of a query must hold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Filter {
    /// The field compared; absent: the whole event text (for `contains`, `regex`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<Field>,
    pub op: FilterOp,
    pub value: Scalar,
    /// The unit of a numeric `value` (`1` with `s` is one second, whatever unit the log
    /// writes the field in).
    #[serde(default, skip_serializing_if = "is_default")]
    pub unit: Unit,
    /// Text comparisons ignore case unless this is true.
    #[serde(default, skip_serializing_if = "is_default")]
    pub case_sensitive: bool,
    /// The rows where the condition does not hold ("not 5xx", "not tagged failure", "not
    /// from 10.20.0.0/16"); a condition on a field keeps only rows that have the field.
    #[serde(default, skip_serializing_if = "is_default")]
    pub negate: bool,
}

fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

impl Filter {
    /// The condition reversed: a comparison by its opposite op, a containment in the whole
    /// event by `not_contains`, anything else marked `negate` (so that a condition on a field
    /// keeps only rows that have the field, however it is written).
    pub fn negated(self) -> Filter {
        let op = match self.op {
            FilterOp::Lt => FilterOp::Ge,
            FilterOp::Le => FilterOp::Gt,
            FilterOp::Gt => FilterOp::Le,
            FilterOp::Ge => FilterOp::Lt,
            FilterOp::Contains if self.field.is_none() && !self.negate => FilterOp::NotContains,
            FilterOp::NotContains if self.field.is_none() => FilterOp::Contains,
            _ => {
                return Filter {
                    negate: !self.negate,
                    ..self
                }
            }
        };
        Filter { op, ..self }
    }

    /// Whether the condition keeps the rows where something does not hold (`ne`,
    /// `not_contains`, or any op with `negate`).
    pub fn excludes(&self) -> bool {
        self.negate != matches!(self.op, FilterOp::Ne | FilterOp::NotContains)
    }

    /// The rows that have `field`, whatever its value (an empty pattern matches any value
    /// a row has, and no row without the field).
    pub fn present(field: Field) -> Self {
        Filter::new(Some(field), FilterOp::Regex, Scalar::Text(String::new()))
    }

    pub fn new(field: Option<Field>, op: FilterOp, value: Scalar) -> Self {
        Filter {
            field,
            op,
            value,
            unit: Unit::None,
            case_sensitive: false,
            negate: false,
        }
    }
}

/// A point in a log's time: `HH:MM[:SS]` (on the log's last day that has that time, or
/// the day before the log's end when it is later than the end's time of day), a full
/// `YYYY-MM-DD HH:MM[:SS]`, or a date with less written: `--MM-DD` (the log's last year
/// that has it) or `---DD` (its last month that has that day), each with an optional
/// ` HH:MM[:SS]`; a date alone spans its whole day; a month `YYYY-MM` or `--MM` (the log's
/// last year that has it) spans the whole month. Times are compared as the log writes
/// them (the zone is not applied), like the analyser, unless the time names its zone right
/// after it (`09:36+08:00`, `22:47-04:00`, `01:12Z`): then it is moved onto the log's clock
/// (a log that writes no zone is taken as UTC).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(transparent)]
pub struct TimePoint(pub String);

/// Which events by time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Window {
    /// The last N seconds before the newest event of the log (or now, for the system).
    Last { seconds: u64 },
    /// From one time to another (both included; either may be open).
    Between {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        from: Option<TimePoint>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        to: Option<TimePoint>,
    },
    /// N seconds either side of a time.
    Around { at: TimePoint, seconds: u64 },
}

impl Window {
    /// The window with `f` applied to each of its time points.
    pub fn map_points(self, f: impl Fn(TimePoint) -> TimePoint) -> Window {
        match self {
            Window::Around { at, seconds } => Window::Around { at: f(at), seconds },
            Window::Between { from, to } => Window::Between {
                from: from.map(&f),
                to: to.map(&f),
            },
            last @ Window::Last { .. } => last,
        }
    }
}

/// What the query computes over the rows that pass the filters and the window. On the wire
/// it is one string: `count`, `mean`, `p95`, or any percentile as `p` and its rank (`p80`,
/// `p99.9`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Measure {
    /// How many rows (per group when grouped).
    #[default]
    Count,
    /// How many distinct values of `field`.
    CountDistinct,
    /// Statistics of the numeric `field` (per group when grouped; groups ordered by the
    /// statistic the `order` names): one of these names it.
    Min,
    Max,
    Mean,
    Sum,
    P50,
    P90,
    P95,
    P99,
    /// A percentile other than the four named ones (`p80`, `p99.9`).
    Percentile(Rank),
    /// All of count, min, max, mean, p50, p90, p95, p99 of `field`, and the row holding
    /// the maximum.
    Stats,
    /// Rows per time bucket, with the peak bucket.
    Buckets,
    /// The rows themselves: in file order, or sorted by `field` (with `order`), `limit` of
    /// them. First/last event: sort by `time`, limit 1.
    Rows,
    /// The events of every file in `files` merged in time order, each tagged with its file,
    /// with per-file counts per bucket side by side.
    Timeline,
    /// The table's schema: its format and fields with example values.
    Fields,
}

/// A percentile's rank in hundredths of a percent (`8000`: p80, `9990`: p99.9), from 1 to
/// 9999: p0 and p100 are the minimum and the maximum.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u16);

impl Rank {
    /// The rank of a percentile written in percent (`80`, `99.9`); none outside (0, 100) or
    /// finer than a hundredth.
    pub fn of_percent(pct: f64) -> Option<Rank> {
        let hundredths = (pct * 100.0).round();
        ((pct * 100.0 - hundredths).abs() < 1e-6 && (1.0..=9999.0).contains(&hundredths))
            .then_some(Rank(hundredths as u16))
    }

    /// Hundredths of a percent.
    pub const fn hundredths(self) -> u64 {
        self.0 as u64
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, frac) = (self.0 / 100, self.0 % 100);
        match frac {
            0 => write!(f, "{whole}"),
            _ if frac % 10 == 0 => write!(f, "{whole}.{}", frac / 10),
            _ => write!(f, "{whole}.{frac:02}"),
        }
    }
}

/// The named measures, as the wire spells them.
const MEASURE_NAMES: [(Measure, &str); 15] = [
    (Measure::Count, "count"),
    (Measure::CountDistinct, "count_distinct"),
    (Measure::Min, "min"),
    (Measure::Max, "max"),
    (Measure::Mean, "mean"),
    (Measure::Sum, "sum"),
    (Measure::P50, "p50"),
    (Measure::P90, "p90"),
    (Measure::P95, "p95"),
    (Measure::P99, "p99"),
    (Measure::Stats, "stats"),
    (Measure::Buckets, "buckets"),
    (Measure::Rows, "rows"),
    (Measure::Timeline, "timeline"),
    (Measure::Fields, "fields"),
];

impl Measure {
    /// A single statistic of a numeric field.
    pub const fn is_stat(self) -> bool {
        matches!(
            self,
            Measure::Min
                | Measure::Max
                | Measure::Mean
                | Measure::Sum
                | Measure::P50
                | Measure::P90
                | Measure::P95
                | Measure::P99
                | Measure::Percentile(_)
        )
    }

    /// The percentile at `rank`: one of the four named ones where it is one.
    pub fn percentile(rank: Rank) -> Measure {
        match rank.0 {
            5000 => Measure::P50,
            9000 => Measure::P90,
            9500 => Measure::P95,
            9900 => Measure::P99,
            _ => Measure::Percentile(rank),
        }
    }

    /// The rank of a percentile measure.
    pub const fn rank(self) -> Option<Rank> {
        match self {
            Measure::P50 => Some(Rank(5000)),
            Measure::P90 => Some(Rank(9000)),
            Measure::P95 => Some(Rank(9500)),
            Measure::P99 => Some(Rank(9900)),
            Measure::Percentile(r) => Some(r),
            _ => None,
        }
    }

    /// Its name on the wire (`p95`, `p99.9`).
    pub fn name(self) -> std::borrow::Cow<'static, str> {
        match MEASURE_NAMES.iter().find(|(n, _)| *n == self) {
            Some((_, s)) => (*s).into(),
            // Only a percentile by rank is not in the table.
            None => match self.rank() {
                Some(r) => format!("p{r}").into(),
                None => "count".into(),
            },
        }
    }

    /// The measure a wire name names.
    pub fn from_name(s: &str) -> Option<Measure> {
        if let Some((m, _)) = MEASURE_NAMES.iter().find(|(_, n)| *n == s) {
            return Some(*m);
        }
        let pct: f64 = s.strip_prefix('p')?.parse().ok()?;
        Rank::of_percent(pct).map(Measure::percentile)
    }
}

impl fmt::Display for Measure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl Serialize for Measure {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

impl<'de> Deserialize<'de> for Measure {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = std::borrow::Cow::<'de, str>::deserialize(d)?;
        Measure::from_name(&s).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown measure `{s}`: one of {}, or a percentile as p<rank> (p80, p99.9)",
                MEASURE_NAMES.map(|(_, n)| n).join(", ")
            ))
        })
    }
}

impl JsonSchema for Measure {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Measure".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let names: Vec<&str> = MEASURE_NAMES.iter().map(|(_, n)| *n).collect();
        schemars::json_schema!({
            "description": "What the query computes: count (rows, per group when grouped), \
                count_distinct (distinct values of `field`), min, max, mean, sum, p50, p90, \
                p95, p99 or any percentile as p<rank> (p80, p99.9) of the numeric `field`, \
                stats (all of these), buckets (rows per time bucket, with the peak), rows \
                (the rows themselves, sorted by `field` with `order`), timeline (the events \
                of every file merged in time order), fields (the table's schema).",
            "type": "string",
            "anyOf": [
                { "enum": names },
                { "pattern": "^p[0-9]{1,2}(\\.[0-9]{1,2})?$" }
            ]
        })
    }
}

/// Most first or least first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Desc,
    Asc,
}

/// The width of time buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum BucketWidth {
    /// Minute up to 3 hours of span, hour up to 7 days, else day (the analyser's rule).
    #[default]
    Auto,
    Second,
    Minute,
    #[serde(rename = "5min")]
    FiveMinutes,
    #[serde(rename = "10min")]
    TenMinutes,
    Hour,
    Day,
}

impl BucketWidth {
    /// Seconds per bucket; `None` for `Auto`.
    pub const fn seconds(self) -> Option<u64> {
        match self {
            BucketWidth::Auto => None,
            BucketWidth::Second => Some(1),
            BucketWidth::Minute => Some(60),
            BucketWidth::FiveMinutes => Some(300),
            BucketWidth::TenMinutes => Some(600),
            BucketWidth::Hour => Some(3600),
            BucketWidth::Day => Some(86400),
        }
    }
}

/// One query over one table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
pub struct Query {
    #[serde(default)]
    pub source: Source,
    /// Log files (paths, or names of this session's uploads) for `source: log`. Several
    /// files: the measure runs over all of them, with per-file figures beside the total.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub filters: Vec<Filter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    #[serde(default)]
    pub measure: Measure,
    /// The field the measure reads: counted distinct, a statistic's field, or the rows'
    /// sort key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub field: Option<Field>,
    /// Zero, one or two fields to group by (top N groups by the measure).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group_by: Vec<Field>,
    /// Fields cut out of each event's text by a regex, for what the log writes inside its
    /// lines but has no field for (`TKT-40412` ids, the segment after `secret/teams/`):
    /// the other slots name them like the log's own fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extract: Vec<Extract>,
    #[serde(default, skip_serializing_if = "is_default")]
    pub bucket: BucketWidth,
    #[serde(default, skip_serializing_if = "is_default")]
    pub order: Order,
    /// Groups, rows or events to return (default 10, at most 1000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    /// The position in the ranking the question asks for (2: the second slowest request,
    /// the client with the second most requests, the second busiest minute): the groups
    /// or rows up to it, and one more to tell a tie, are returned and the answer leads
    /// with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<u32>,
    /// Fields whose values each listed row leads with (`measure: rows`): the value asked
    /// of an event ("kernel drops in the last stats event", "its trace id").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub show: Vec<Field>,
}

impl Query {
    /// The default and the ceiling of `limit`.
    pub const DEFAULT_LIMIT: u32 = 10;
    pub const MAX_LIMIT: u32 = 1000;

    /// How many groups or rows to return: at least one more than the position asked.
    pub fn limit(&self) -> usize {
        self.limit
            .unwrap_or(Self::DEFAULT_LIMIT)
            .max(self.rank.map_or(0, |n| n + 1))
            .clamp(1, Self::MAX_LIMIT) as usize
    }
}

/// A field a query defines from the events' text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Extract {
    /// Its name: letters, digits and `_`, starting with a letter, and no field of the log.
    pub name: String,
    /// A regular expression (Rust syntax) looked for in the whole event: the value is its
    /// first group, or the whole match when it has none. Events without a match have no
    /// value.
    pub regex: String,
    /// Its values are numbers (a count the text writes: `Flushed 800 rows`), so statistics
    /// and sums may be taken of it; a value that reads as no number is missing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub numeric: bool,
}

/// The arguments of the `log_query` and `system_query` tools: a query, plus filters that
/// narrow only when something matches them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
pub struct QueryArgs {
    #[serde(flatten)]
    pub query: Query,
    /// Filters applied only when at least one row passes them (and all other filters):
    /// one that would leave nothing is dropped, and the result says so.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub soft: Vec<Filter>,
    /// Filters that replace the query's own when those match nothing: the phrase a level
    /// word was part of ("handshake error": a TLS proxy writes it at WARNING), tried when no
    /// event has both the level and the word. The result says which ran.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub or_else: Vec<Filter>,
    /// A share asked of a population ("what percentage of the blue pool's jobs failed",
    /// "checkout 接口的错误率"): the count is also given as a share of the rows these filters
    /// pick (a part of the query's own) that have every field the query's other filters
    /// compare. With `group_by` and a count: each group's share of its own such rows ("the
    /// error rate of each endpoint"), groups ranked by it; when these filters are the
    /// query's own, each group's part of all the rows counted ("what share of the errors
    /// each service logged").
    /// Absent: no share asked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_of: Option<Vec<Filter>>,
}

mod result;
pub use result::*;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_round_trips_through_json_with_defaults_omitted() {
        let q = Query {
            files: vec!["access.log".into()],
            filters: vec![Filter {
                unit: Unit::S,
                ..Filter::new(
                    Some(Field::new("duration")),
                    FilterOp::Gt,
                    Scalar::Number(1.0),
                )
            }],
            measure: Measure::Count,
            group_by: vec![Field::new("path")],
            ..Query::default()
        };
        let v = serde_json::to_value(&q).expect("serialises");
        assert_eq!(
            v,
            serde_json::json!({"source": "log", "files": ["access.log"],
                "filters": [{"field": "duration", "op": "gt", "value": 1.0, "unit": "s"}],
                "measure": "count", "group_by": ["path"]})
        );
        let back: Query = serde_json::from_value(v).expect("parses");
        assert_eq!(back, q);
        let minimal: Query = serde_json::from_str(r#"{"files":["a.log"]}"#).expect("parses");
        assert_eq!(minimal.measure, Measure::Count);
        assert_eq!(minimal.limit(), 10);
    }

    #[test]
    fn units_convert_to_their_dimension_base() {
        assert_eq!(Unit::Ms.factor() * 1500.0, 1.5);
        assert_eq!(Unit::Mib.dimension(), Dimension::Size);
        assert_eq!(BucketWidth::FiveMinutes.seconds(), Some(300));
        let w: Window =
            serde_json::from_str(r#"{"around":{"at":"02:47","seconds":300}}"#).expect("parses");
        assert_eq!(
            w,
            Window::Around {
                at: TimePoint("02:47".into()),
                seconds: 300
            }
        );
    }

    #[test]
    fn the_schema_names_every_measure() {
        let schema = serde_json::to_string(&schemars::schema_for!(Query)).expect("schema");
        for m in [
            "count_distinct",
            "p95",
            "timeline",
            "buckets",
            "rows",
            "p<rank>",
        ] {
            assert!(schema.contains(m), "{m}");
        }
    }

    #[test]
    fn a_measure_is_one_string_any_percentile_by_its_rank() {
        for (wire, rank) in [
            ("p80", Some(8000)),
            ("p99.9", Some(9990)),
            ("p95", Some(9500)),
        ] {
            let m: Measure = serde_json::from_value(serde_json::json!(wire)).expect(wire);
            assert_eq!(m.rank().map(Rank::hundredths), rank, "{wire}");
            assert_eq!(serde_json::to_value(m).expect("serialises"), wire);
        }
        assert_eq!(
            serde_json::from_value::<Measure>(serde_json::json!("p95")).ok(),
            Some(Measure::P95)
        );
        for bad in ["p0", "p100", "p99.999", "median", "p"] {
            let e = serde_json::from_value::<Measure>(serde_json::json!(bad));
            assert!(e.is_err_and(|e| e.to_string().contains("p<rank>")), "{bad}");
        }
    }
}
