//! The bursts of trouble of a night with several incidents: the minutes with trouble,
//! joined while the quiet between them is short, each with its count per log and the kinds
//! of trouble that began in it, so a summary names every incident, not only the worst.

use llmops_common::query::{BucketRow, QueryResult, Row};

use super::{buckets_of, rows_of};
use crate::answer::query::minute_of;
use crate::text::Lang;

/// Minutes with trouble at most this far apart are one burst.
const QUIET: u64 = 5;
/// Bursts shown, at most (the largest, in time order).
const SHOWN: usize = 5;
/// Kinds named per burst, at most.
const KINDS: usize = 3;

/// One burst: its first and last minute with trouble, and its counts.
#[derive(Debug, PartialEq)]
pub(super) struct Burst {
    pub first: String,
    pub last: String,
    pub count: u64,
    pub per_file: Vec<u64>,
}

/// The bursts of the per-minute counts, in time order.
pub(super) fn bursts(buckets: &[BucketRow]) -> Vec<Burst> {
    let mut out: Vec<(u64, Burst)> = Vec::new();
    for b in buckets.iter().filter(|b| b.count > 0) {
        let Some(m) = minute_of(&b.start) else {
            continue;
        };
        match out.last_mut() {
            Some((end, burst)) if m <= *end + QUIET => {
                *end = m;
                burst.last.clone_from(&b.start);
                burst.count += b.count;
                for (i, n) in b.per_file.iter().enumerate() {
                    if let Some(x) = burst.per_file.get_mut(i) {
                        *x += n;
                    }
                }
            }
            _ => out.push((
                m,
                Burst {
                    first: b.start.clone(),
                    last: b.start.clone(),
                    count: b.count,
                    per_file: b.per_file.clone(),
                },
            )),
        }
    }
    out.into_iter().map(|(_, b)| b).collect()
}

/// The section that lists the bursts, when there are two or more.
pub(super) fn section(r: &QueryResult, lang: Lang) -> Option<String> {
    let mut all = bursts(buckets_of(r));
    if all.len() < 2 {
        return None;
    }
    let left_out = all.len().saturating_sub(SHOWN);
    all.sort_by(|a, b| b.count.cmp(&a.count).then(a.first.cmp(&b.first)));
    all.truncate(SHOWN);
    all.sort_by(|a, b| a.first.cmp(&b.first));
    let names: Vec<&str> = r.sources.iter().map(|s| s.name.as_str()).collect();
    let lines: Vec<String> = all
        .iter()
        .map(|b| burst_line(b, &names, rows_of(r), lang))
        .collect();
    let more = match (left_out, lang) {
        (0, _) => String::new(),
        (n, Lang::Zh) => format!("\n（另有 {n} 段较小的未列出）"),
        (n, Lang::En) => format!("\n({n} smaller ones not listed)"),
    };
    let head = match lang {
        Lang::Zh => format!("出错集中的几段时间（相隔不超过 {QUIET} 分钟的算一段，按时间）："),
        Lang::En => format!(
            "The bursts of trouble (minutes at most {QUIET} apart are one burst), in time order:"
        ),
    };
    Some(format!("{head}\n{}{more}", lines.join("\n")))
}

fn burst_line(b: &Burst, names: &[&str], rows: &[Row], lang: Lang) -> String {
    let span = if b.first == b.last {
        b.first.clone()
    } else {
        format!(
            "{} – {}",
            b.first,
            b.last.split_once('T').map_or(&*b.last, |x| x.1)
        )
    };
    let split: Vec<String> = names
        .iter()
        .zip(&b.per_file)
        .filter(|(_, n)| **n > 0)
        .map(|(name, n)| format!("{name} {n}"))
        .collect();
    let (from, to) = (minute_of(&b.first), minute_of(&b.last));
    let kinds: Vec<String> = rows
        .iter()
        .filter(|row| {
            let m = row.time.as_deref().and_then(minute_of);
            matches!((m, from, to), (Some(m), Some(f), Some(t)) if m >= f && m <= t)
        })
        .take(KINDS)
        .map(|row| format!("  - {}", crate::answer::query::row_line(row, lang, false)))
        .collect();
    let head = format!("- **{span}** — {} ({})", b.count, split.join(", "));
    if kinds.is_empty() {
        head
    } else {
        format!("{head}\n{}", kinds.join("\n"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(start: &str, per_file: &[u64]) -> BucketRow {
        BucketRow {
            start: start.into(),
            count: per_file.iter().sum(),
            per_file: per_file.to_vec(),
        }
    }

    #[test]
    fn minutes_less_than_the_quiet_gap_apart_are_one_burst() {
        let buckets = [
            b("2031-01-01T01:12", &[3, 0]),
            b("2031-01-01T01:13", &[0, 0]),
            b("2031-01-01T01:17", &[1, 4]),
            b("2031-01-01T01:30", &[0, 2]),
            b("2031-01-01T23:59", &[1, 0]),
            b("2031-01-02T00:02", &[0, 1]),
        ];
        let got = bursts(&buckets);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(
            got[0],
            Burst {
                first: "2031-01-01T01:12".into(),
                last: "2031-01-01T01:17".into(),
                count: 8,
                per_file: vec![4, 4],
            }
        );
        assert_eq!(
            (got[1].count, got[1].first.as_str()),
            (2, "2031-01-01T01:30")
        );
        // Across midnight the minutes are still three apart.
        assert_eq!(
            (got[2].count, got[2].last.as_str()),
            (2, "2031-01-02T00:02")
        );
    }
}
