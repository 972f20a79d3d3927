//! What a query returns: the table's schema, its sources as read, and the value of the
//! measure (a count, a statistic, groups, buckets, rows or a timeline) with the filters as
//! resolved and the shell pipeline that checks it.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::*;

/// One field of a table's schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FieldInfo {
    pub name: String,
    pub kind: FieldKind,
    #[serde(default, skip_serializing_if = "is_default")]
    pub unit: Unit,
    /// Roles this field answers for (`duration` for `request_time`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub roles: Vec<String>,
    /// A value the field holds (from the first events read), for `measure: fields`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
}

/// The type of a field's values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FieldKind {
    Text,
    Integer,
    Number,
    Time,
    Ip,
}

/// What one source of rows held: a log file, or a system table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SourceInfo {
    /// The file's name as the user knows it (the upload's name), or the table's name.
    pub name: String,
    /// The resolved path (logs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The detected format (`nginx_combined`, `json_lines`, `java_log4j`, ...), or the table.
    pub format: String,
    pub fields: Vec<FieldInfo>,
    /// Lines read (exactly `wc -l` plus an unterminated last line), bytes read, and
    /// whether that was the whole file.
    pub lines: u64,
    /// Events (a multi-line stack trace is one event) or rows.
    pub events: u64,
    pub bytes: u64,
    pub complete: bool,
    /// Lines the format did not parse (counted in no field, still in `lines`).
    #[serde(default)]
    pub unparsed: u64,
}

/// A field reference resolved to the field the engine used.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Resolved {
    pub asked: Field,
    pub used: String,
    #[serde(default, skip_serializing_if = "is_default")]
    pub unit: Unit,
}

/// One value of a row or event's field, as text (numbers as written).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct FieldValue {
    pub name: String,
    pub value: String,
}

/// One event of a log or one row of a system table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Row {
    /// The file it came from (logs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// 1-based line of the event's first line (logs; 0 for system rows).
    #[serde(default)]
    pub line: u64,
    /// The event's time as the log writes it, in ISO form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
    /// The event's text (a multi-line event's first lines and, when longer, `…` and its last
    /// line, cut at 800 bytes), or a system row rendered as one line.
    pub text: String,
    /// How many lines the event has in all (its text may show only some); 0 for a system
    /// row.
    #[serde(default, skip_serializing_if = "is_default")]
    pub lines: u64,
    /// The fields the query used and the table's key fields.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fields: Vec<FieldValue>,
    /// A timeline row that stands for every event of its kind (message template) in the
    /// window: this row is the first of them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeats: Option<Repeats>,
}

/// The events a timeline row stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Repeats {
    /// Events of the kind in the window, this one included.
    pub count: u64,
    /// The last one's time as the log writes it, in ISO form.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_time: Option<String>,
    /// A kind that stopped and came back in the window: this row is the first event after a
    /// silence of this many seconds, and `count` counts from it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_after_secs: Option<u64>,
    /// Events of the kind that follow on after the window without a long pause.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continued: Option<Continued>,
}

/// A timeline kind's events that go on after the window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Continued {
    /// Events after the window, up to the first long pause.
    pub count: u64,
    /// The last one's time as the log writes it, in ISO form.
    pub last_time: String,
}

/// One group's figures.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct GroupRow {
    /// The group's values, one per `group_by` field.
    pub key: Vec<String>,
    pub count: u64,
    /// The measure's value when it is not a count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// One event of the group as written, when the key masks what varies (a message
    /// template hides the numbers, hosts and ids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<String>,
    /// The group's own population when a share per group was asked ("the error rate of
    /// each endpoint"): `count` is a share of these rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<u64>,
}

/// One time bucket.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct BucketRow {
    /// The bucket's start as the log writes time (`2024-05-01T10:05`).
    pub start: String,
    pub count: u64,
    /// Per file, in `files` order, when several files were queried.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub per_file: Vec<u64>,
}

/// The statistics of a numeric field.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Stats {
    /// Rows that had a value for the field.
    pub n: u64,
    pub min: f64,
    pub max: f64,
    pub mean: f64,
    pub sum: f64,
    /// Exact nearest-rank percentiles (the value at rank ceil(p/100 * n)).
    pub p50: f64,
    pub p90: f64,
    pub p95: f64,
    pub p99: f64,
}

/// The answer's value, by measure.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum QueryValue {
    Count {
        count: u64,
    },
    Distinct {
        count: u64,
    },
    /// One statistic (`measure` names which) in the field's `unit`, with the row holding
    /// it for min and max.
    Stat {
        measure: Measure,
        value: Option<f64>,
        unit: Unit,
        n: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        row: Option<Row>,
    },
    Stats {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        stats: Option<Stats>,
        unit: Unit,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_row: Option<Row>,
    },
    /// The top groups; `groups` is how many distinct groups there were, `rest` the rows in
    /// groups not listed.
    Groups {
        by: Vec<String>,
        rows: Vec<GroupRow>,
        groups: u64,
        rest: u64,
        #[serde(default, skip_serializing_if = "is_default")]
        unit: Unit,
    },
    Buckets {
        width_seconds: u64,
        buckets: Vec<BucketRow>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        peak: Option<BucketRow>,
    },
    Rows {
        rows: Vec<Row>,
        total: u64,
    },
    Timeline {
        rows: Vec<Row>,
        total: u64,
        width_seconds: u64,
        buckets: Vec<BucketRow>,
        /// Events of the window whose kind was not tracked (past the engine's cap on kinds
        /// per window): they are in no row, and a row's count may be short by some of them.
        #[serde(default, skip_serializing_if = "is_default")]
        unlisted: u64,
    },
    Fields,
}

/// What a query computed, and how to check it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct QueryResult {
    /// The query as run (defaults filled in).
    pub query: Query,
    /// The query in words, Chinese and English.
    pub described_zh: String,
    pub described_en: String,
    pub sources: Vec<SourceInfo>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resolved: Vec<Resolved>,
    /// Rows that passed the filters and the window.
    pub matched: u64,
    /// The same figure per file, in `sources` order, when several files were queried.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub matched_per_file: Vec<u64>,
    pub value: QueryValue,
    /// A shell pipeline that computes the same figure with the standard tools, when one
    /// exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<String>,
    /// Anything the reader must know (a field missing, part of a file read).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// The population a share was asked of (`QueryArgs::share_of`), counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub share_base: Option<ShareBase>,
}

/// The rows a count is a share of, and what picks them in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ShareBase {
    pub rows: u64,
    pub described_zh: String,
    pub described_en: String,
    /// A sum's share ("what % of the bytes went to /api"): the field's total over those
    /// rows, which the sum is a share of.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
}
