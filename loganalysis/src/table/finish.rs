//! Accumulated state into the result's value: top groups with the rest, statistics with
//! their rows, buckets with the peak (auto width by the analyser's rule), rows.

use std::cmp::Ordering;

use llmops_common::query::{BucketRow, GroupRow, Measure, Order, Query, QueryValue, Stats, Unit};
use rustc_hash::FxHashMap;

use super::agg::{split_key, Acc, AccKind, Buckets, Group};
use crate::ts::{self, Precision, Ts};

/// Buckets shown at most; beyond this only non-empty buckets are listed.
pub const MAX_BUCKETS: usize = 1000;

const MINUTE: i64 = 60_000_000;
const HOUR: i64 = 60 * MINUTE;
const DAY: i64 = 24 * HOUR;

/// The value of the measure over everything accumulated.
pub fn finish(acc: Acc, q: &Query, unit: Unit, nfiles: usize, files: &[String]) -> QueryValue {
    let matched = acc.matched;
    match acc.kind {
        AccKind::Count => match q.measure {
            Measure::Fields => QueryValue::Fields,
            _ => QueryValue::Count { count: matched },
        },
        AccKind::Distinct(set) => QueryValue::Distinct {
            count: set.len() as u64,
        },
        AccKind::Groups(map) => groups(map, q, unit),
        AccKind::Values(v) => {
            if q.measure == Measure::Stats {
                let sorted = v.sorted();
                let sum = v.exact_sum();
                let pct = |m: Measure| {
                    m.rank()
                        .and_then(|r| v.percentile(&sorted, r))
                        .unwrap_or(0.0)
                };
                let stats = (v.n > 0).then(|| Stats {
                    n: v.n,
                    min: v.min.as_ref().map_or(0.0, |x| x.0),
                    max: v.max.as_ref().map_or(0.0, |x| x.0),
                    mean: sum / v.n as f64,
                    sum,
                    p50: pct(Measure::P50),
                    p90: pct(Measure::P90),
                    p95: pct(Measure::P95),
                    p99: pct(Measure::P99),
                });
                QueryValue::Stats {
                    stats,
                    unit,
                    max_row: v.max.and_then(|x| x.1).map(|h| h.into_row(files)),
                }
            } else {
                let value = v.stat(q.measure);
                let row = match q.measure {
                    Measure::Max => v.max.and_then(|x| x.1),
                    Measure::Min => v.min.and_then(|x| x.1),
                    _ => None,
                };
                QueryValue::Stat {
                    measure: q.measure,
                    value,
                    unit,
                    n: v.n,
                    row: row.map(|h| h.into_row(files)),
                }
            }
        }
        AccKind::Buckets(b) => {
            let (width, buckets) = bucket_rows(b, q, nfiles);
            let peak = peak(&buckets);
            QueryValue::Buckets {
                width_seconds: (width / 1_000_000) as u64,
                buckets,
                peak,
            }
        }
        AccKind::Rows(r) => QueryValue::Rows {
            rows: r.hits.into_iter().map(|(_, h)| h.into_row(files)).collect(),
            total: matched,
        },
        AccKind::Timeline(r, b) => {
            let (width, buckets) = bucket_rows(b, q, nfiles);
            let (shown, unlisted) =
                r.finish(super::timeline::shown_limit(q, nfiles), q.limit.is_none());
            QueryValue::Timeline {
                rows: shown.into_iter().map(|s| s.into_row(files)).collect(),
                total: matched,
                width_seconds: (width / 1_000_000) as u64,
                buckets,
                unlisted,
            }
        }
    }
}

/// The figure groups are ranked by.
fn group_value(g: &Group, m: Measure) -> Option<f64> {
    match m {
        Measure::CountDistinct => Some(g.distinct.as_ref().map_or(0, |d| d.len()) as f64),
        m if m.is_stat() => g.values.as_ref().and_then(|v| v.stat(m)),
        Measure::Stats => g.values.as_ref().and_then(|v| v.stat(Measure::P95)),
        _ => None,
    }
}

/// A group being ranked: its key parts, count, value and example line.
type Ranked = (Vec<Vec<u8>>, u64, Option<f64>, Option<String>);

fn groups(map: FxHashMap<Vec<u8>, Group>, q: &Query, unit: Unit) -> QueryValue {
    let total_groups = map.len() as u64;
    let mut rows: Vec<Ranked> = map
        .into_iter()
        .map(|(k, g)| {
            let v = group_value(&g, q.measure);
            (split_key(&k), g.count, v, g.example)
        })
        .collect();
    let by_value = !matches!(q.measure, Measure::Count | Measure::Rows | Measure::Fields);
    rows.sort_by(|a, b| {
        let primary = if by_value {
            match (a.2, b.2) {
                (Some(x), Some(y)) => x.total_cmp(&y),
                (Some(_), None) => Ordering::Greater,
                (None, Some(_)) => Ordering::Less,
                (None, None) => Ordering::Equal,
            }
        } else {
            a.1.cmp(&b.1)
        };
        let primary = match q.order {
            Order::Desc => primary.reverse(),
            Order::Asc => primary,
        };
        primary.then_with(|| a.0.cmp(&b.0))
    });
    let limit = q.limit();
    let rest: u64 = rows.iter().skip(limit).map(|r| r.1).sum();
    rows.truncate(limit);
    QueryValue::Groups {
        by: q.group_by.iter().map(|f| f.0.clone()).collect(),
        rows: rows
            .into_iter()
            .map(|(k, count, value, example)| GroupRow {
                key: k
                    .iter()
                    .map(|b| String::from_utf8_lossy(b).into_owned())
                    .collect(),
                count,
                value: if by_value { value } else { None },
                example,
                of: None,
            })
            .collect(),
        groups: total_groups,
        rest,
        unit: if by_value && q.measure != Measure::CountDistinct {
            unit
        } else {
            Unit::None
        },
    }
}

/// The width the analyser would pick for a span: minute up to 3 hours, hour up to 7 days,
/// else day.
pub fn auto_width(span: i64) -> i64 {
    if span <= 3 * HOUR {
        MINUTE
    } else if span <= 7 * DAY {
        HOUR
    } else {
        DAY
    }
}

/// The bucket rows (continuous when at most [`MAX_BUCKETS`], else the non-empty ones) and
/// the width used, in microseconds.
pub fn bucket_rows(b: Buckets, q: &Query, nfiles: usize) -> (i64, Vec<BucketRow>) {
    let (Some(min), Some(max)) = (b.min, b.max) else {
        return (b.width, Vec::new());
    };
    let width = match q.bucket.seconds() {
        Some(_) => b.width,
        None => auto_width(max - min).max(b.width),
    };
    let mut cells: FxHashMap<i64, Vec<u64>> = FxHashMap::default();
    for ((idx, file), c) in b.cells {
        let k = (idx * b.width).div_euclid(width);
        let v = cells.entry(k).or_insert_with(|| vec![0; nfiles.max(1)]);
        if let Some(x) = v.get_mut(file) {
            *x += c;
        }
    }
    let precision = match width {
        w if w >= DAY => Precision::Day,
        w if w >= MINUTE => Precision::Minute,
        _ => Precision::Full,
    };
    let start = |i: i64| {
        let t = Ts {
            key: i * width,
            zone: ts::Zone::None,
            frac_digits: 0,
            dated: b.dated,
        };
        ts::format(&t, precision)
    };
    let (lo, hi) = (min.div_euclid(width), max.div_euclid(width));
    let row = |i: i64, per: Option<&Vec<u64>>| {
        let per_file = per.cloned().unwrap_or_else(|| vec![0; nfiles.max(1)]);
        BucketRow {
            start: start(i),
            count: per_file.iter().sum(),
            per_file: if nfiles > 1 { per_file } else { Vec::new() },
        }
    };
    let rows = if usize::try_from(hi - lo).is_ok_and(|n| n < MAX_BUCKETS) {
        (lo..=hi).map(|i| row(i, cells.get(&i))).collect()
    } else {
        let mut idx: Vec<i64> = cells.keys().copied().collect();
        idx.sort_unstable();
        idx.into_iter().map(|i| row(i, cells.get(&i))).collect()
    };
    (width, rows)
}

/// The bucket with the most rows (the earliest of equals).
pub fn peak(rows: &[BucketRow]) -> Option<BucketRow> {
    rows.iter()
        .fold(None, |best: Option<&BucketRow>, b| match best {
            Some(x) if x.count >= b.count => Some(x),
            _ => Some(b),
        })
        .filter(|b| b.count > 0)
        .cloned()
}
