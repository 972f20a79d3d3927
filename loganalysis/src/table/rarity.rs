//! How common each message template is in a file: a timeline ranks the routine events of
//! its window by it, so a rare line ("Shrinking ISR", an election, a config reload) is
//! shown before the thousandth "request served".

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use llmops_common::query::{Field, Measure, Query};

use super::agg::{split_key, Acc, AccKind};
use super::error::QueryError;
use super::plan::{plan, Counts, Rarity, Table};
use super::scan::{scan_file, Opened, QueryOptions, ScanJob};

/// Past this many distinct templates a file's lines are not templated well enough for
/// their counts to mean rarity (every line its own template), and the map would be large.
const MAX_TEMPLATES: usize = 100_000;

/// Files whose template counts are kept: uploads do not change, and a follow-up ("and
/// around 02:40?") or the incident summary's second timeline reads the same files again.
const CACHED_FILES: usize = 8;

/// What a file's counts were taken of: its path, size, modification time, the bytes read
/// and its format.
type FileKey = (PathBuf, u64, Option<SystemTime>, u64, String);

/// The counts and their total, most recently used last.
type Cache = Vec<(FileKey, Arc<Counts>)>;

static CACHE: Mutex<Cache> = Mutex::new(Vec::new());

fn file_key(o: &Opened) -> FileKey {
    let modified = std::fs::metadata(&o.file.path)
        .and_then(|m| m.modified())
        .ok();
    (
        o.file.path.clone(),
        o.size,
        modified,
        o.end,
        o.fmt.name.clone(),
    )
}

fn cached(cache: &Mutex<Cache>, key: &FileKey) -> Option<Arc<Counts>> {
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let at = cache.iter().position(|(k, _)| k == key)?;
    let hit = cache.remove(at);
    let counts = hit.1.clone();
    cache.push(hit);
    Some(counts)
}

fn remember(cache: &Mutex<Cache>, key: FileKey, counts: Arc<Counts>) {
    let mut cache = cache
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    cache.retain(|(k, _)| k != &key);
    if cache.len() >= CACHED_FILES {
        cache.remove(0);
    }
    cache.push((key, counts));
}

/// Counts the templates of a whole file (one extra scan, without the window or filters,
/// unless the file's counts are cached), or `None` when the table has no template or too
/// many.
pub fn rarity(
    table: &Table<'_>,
    o: &Opened,
    opts: &QueryOptions,
    cancel: &AtomicBool,
) -> Result<Option<Rarity>, QueryError> {
    let template = Field::new("template");
    // A log of requests is counted by its kinds of request, whatever template it has.
    let requests = !super::plan::request_kind(table).is_empty();
    let field = table.resolve(&template).ok().filter(|_| !requests);
    let key = file_key(o);
    if let Some(counts) = cached(&CACHE, &key) {
        return Ok(Some(Rarity { field, counts }));
    }
    let Some(field) = field else {
        return request_rarity(table, o, opts, cancel, key);
    };
    let q = Query {
        measure: Measure::Count,
        group_by: vec![template],
        ..Query::default()
    };
    let p = plan(table, &q, None)?;
    let AccKind::Groups(map) = whole_file(o, (opts, cancel), &q, &p)? else {
        return Ok(None);
    };
    if map.len() > MAX_TEMPLATES {
        return Ok(None);
    }
    // One group field: the key's only part is the template as written.
    let by_template: rustc_hash::FxHashMap<Vec<u8>, u64> = map
        .into_iter()
        .filter_map(|(k, g)| split_key(&k).pop().map(|t| (t, g.count)))
        .collect();
    let counts = Arc::new(Counts {
        total: by_template.values().sum(),
        by_template,
    });
    remember(&CACHE, key, counts.clone());
    Ok(Some(Rarity {
        field: Some(field),
        counts,
    }))
}

/// The accumulated `q` over the whole of one file (no window).
fn whole_file(
    o: &Opened,
    (opts, cancel): (&QueryOptions, &AtomicBool),
    q: &Query,
    p: &super::plan::Plan,
) -> Result<AccKind, QueryError> {
    let make = || Acc::new(q, p);
    let job = ScanJob {
        fmt: &o.fmt,
        schema: &o.schema,
        plan: Some(p),
        q,
        file: 0,
        make_acc: &make,
        newest_day: o.newest_day,
    };
    let out = scan_file(
        &o.file.path,
        o.end,
        (opts.threads, opts.split_min_bytes),
        &job,
        cancel,
    )?;
    Ok(out.acc.kind)
}

/// A log of requests is counted by its kinds of request, not by any message template it
/// has (a timeline of the whole file, whose kinds' counts are the file's), so a rare
/// request (a probe of `/.env`, a job created once) stands out among the steady traffic.
/// `None` for a table that holds no requests.
fn request_rarity(
    table: &Table<'_>,
    o: &Opened,
    opts: &QueryOptions,
    cancel: &AtomicBool,
    key: FileKey,
) -> Result<Option<Rarity>, QueryError> {
    let q = Query {
        measure: Measure::Timeline,
        ..Query::default()
    };
    let mut p = plan(table, &q, None)?;
    if p.request_kind.is_empty() {
        return Ok(None);
    }
    // Only the kinds are counted: no event is judged notable here.
    p.notable.clear();
    let AccKind::Timeline(t, _) = whole_file(o, (opts, cancel), &q, &p)? else {
        return Ok(None);
    };
    let Some(by_template) = t.counts() else {
        return Ok(None);
    };
    let counts = Arc::new(Counts {
        total: by_template.values().sum(),
        by_template,
    });
    remember(&CACHE, key, counts.clone());
    Ok(Some(Rarity {
        field: None,
        counts,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_files_counts_are_reused_until_it_changes_and_only_the_last_few_are_kept() {
        let key = |n: u64| {
            (
                PathBuf::from(format!("/u/{n}.log")),
                n,
                None,
                n,
                "f".to_string(),
            )
        };
        let counts = || {
            Arc::new(Counts {
                by_template: Default::default(),
                total: 7,
            })
        };
        let cache = Mutex::new(Vec::new());
        remember(&cache, key(1), counts());
        assert_eq!(cached(&cache, &key(1)).map(|c| c.total), Some(7));
        // The same file grown is another key.
        let grown = (PathBuf::from("/u/1.log"), 2, None, 2, "f".to_string());
        assert!(cached(&cache, &grown).is_none());
        for n in 100..100 + CACHED_FILES as u64 {
            remember(&cache, key(n), counts());
        }
        assert!(cached(&cache, &key(1)).is_none(), "the oldest is dropped");
        assert!(cached(&cache, &key(100 + CACHED_FILES as u64 - 1)).is_some());
    }
}
