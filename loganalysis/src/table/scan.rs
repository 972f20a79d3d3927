//! Reading a log file for a query: checks (missing, binary, UTF-16), the size cap at a line
//! end, format detection on the head, and the whole file streamed in 1 MiB chunks, split at
//! line boundaries over worker threads for files of 16 MiB and more (multi-line formats at
//! lines that surely start an event) and merged exactly.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use llmops_common::query::{Extract, Query};

use super::agg::Acc;
use super::assemble::{strip_cr, Assembler, EventRef};
use super::def::Format;
use super::error::QueryError;
use super::event::{Extractor, Schema, Val};
use super::plan::{Plan, RowAccess};
use super::registry::{reading, Registry};
use crate::ts::Ts;

/// Read size per step; cancellation is checked between steps.
pub const CHUNK: usize = 1024 * 1024;
/// Files below this are scanned on the calling thread.
pub const PARALLEL_MIN: u64 = 16 * 1024 * 1024;
const SNIFF: usize = 8192;
/// Bytes read from the head for detection and the schema.
const HEAD: usize = 256 * 1024;

/// A log file to query: the name the user knows (an upload's name) and the real path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueryFile {
    pub name: String,
    pub path: PathBuf,
}

impl QueryFile {
    pub fn new(name: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        QueryFile {
            name: name.into(),
            path: path.into(),
        }
    }
}

/// How to run a query.
#[derive(Debug, Clone)]
pub struct QueryOptions {
    /// Read at most this many bytes of each file (cut at a line end; the result says
    /// `complete: false`).
    pub max_bytes: u64,
    /// Worker threads per file; 0 = available cores (at most 8).
    pub threads: usize,
    /// Use this format instead of detecting one.
    pub format: Option<String>,
    /// Files of this many bytes and more are split over the worker threads.
    pub split_min_bytes: u64,
}

impl Default for QueryOptions {
    fn default() -> Self {
        QueryOptions {
            max_bytes: u64::MAX,
            threads: 0,
            format: None,
            split_min_bytes: PARALLEL_MIN,
        }
    }
}

/// A file opened for a query.
pub struct Opened {
    pub file: QueryFile,
    pub size: u64,
    /// Bytes to read (the cap cut at a line end).
    pub end: u64,
    /// The format it is read in (a shipped one, or a layout learned from its sample).
    pub fmt: std::sync::Arc<Format>,
    pub schema: Schema,
    /// Share of the sample the format parsed.
    pub sample_parsed: u64,
    pub sample_lines: u64,
    /// Fields added for roles the question asks that the sample shows no key for.
    pub role_keys: Vec<String>,
    /// The newest dated day its times written without a year are placed by (see
    /// [`ScanJob::newest_day`]).
    pub newest_day: Option<(i64, u32, u32)>,
}

fn read_at(file: &mut File, pos: u64, buf: &mut [u8]) -> std::io::Result<usize> {
    file.seek(SeekFrom::Start(pos))?;
    let mut n = 0;
    while n < buf.len() {
        match file.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

/// Checks, caps and detects one file; `wanted`: the fields a question names; `extracts`:
/// the fields it defines from the text.
pub fn open(
    reg: &Registry,
    qf: &QueryFile,
    opts: &QueryOptions,
    wanted: &[&str],
    extracts: &[Extract],
) -> Result<Opened, QueryError> {
    let path = &qf.path;
    let meta = std::fs::metadata(path).map_err(|e| QueryError::io(path, &e))?;
    if meta.is_dir() {
        return Err(QueryError::IsDir(path.clone()));
    }
    if !meta.is_file() {
        return Err(QueryError::NotRegular(path.clone()));
    }
    let size = meta.len();
    let mut f = File::open(path).map_err(|e| QueryError::io(path, &e))?;
    let mut head = vec![0u8; HEAD];
    let n = read_at(&mut f, 0, &mut head).map_err(|e| QueryError::io(path, &e))?;
    head.truncate(n);
    let sniff = &head[..n.min(SNIFF)];
    if sniff.starts_with(&[0xFF, 0xFE]) || sniff.starts_with(&[0xFE, 0xFF]) {
        return Err(QueryError::Utf16(path.clone()));
    }
    if sniff.contains(&0) {
        return Err(QueryError::Binary(path.clone()));
    }
    let end = if size > opts.max_bytes {
        cut_at_line_end(&mut f, opts.max_bytes).map_err(|e| QueryError::io(path, &e))?
    } else {
        size
    };
    head.truncate(usize::try_from(end).unwrap_or(usize::MAX).min(head.len()));
    let det = reg.detect(&head);
    let fmt = match &opts.format {
        Some(name) => reg
            .get(name)
            .cloned()
            .ok_or_else(|| QueryError::UnknownFormat(name.clone()))?,
        None => det.chosen(reg).clone(),
    };
    let fmt = super::extract::with_extracts(fmt, extracts)?;
    let (fmt, mut schema) = reading(reg, fmt, &head, wanted);
    super::extract::check_names(&schema, extracts)?;
    let role_keys = super::role_keys::add_role_keys(&fmt, &mut schema, wanted);
    Ok(Opened {
        file: qf.clone(),
        size,
        end,
        fmt: std::sync::Arc::new(fmt),
        schema,
        sample_parsed: det.parsed,
        sample_lines: det.lines,
        role_keys,
        newest_day: None,
    })
}

fn cut_at_line_end(file: &mut File, cap: u64) -> std::io::Result<u64> {
    let from = cap.saturating_sub(CHUNK as u64);
    let mut buf = vec![0u8; usize::try_from(cap - from).unwrap_or(CHUNK)];
    let n = read_at(file, from, &mut buf)?;
    Ok(match memchr::memrchr(b'\n', &buf[..n]) {
        Some(p) => from + p as u64 + 1,
        None => cap,
    })
}

fn next_line_start(file: &mut File, pos: u64, end: u64) -> std::io::Result<u64> {
    let mut buf = vec![0u8; 64 * 1024];
    let mut at = pos;
    while at < end {
        let want = usize::try_from((end - at).min(buf.len() as u64)).unwrap_or(buf.len());
        let n = read_at(file, at, &mut buf[..want])?;
        if n == 0 {
            break;
        }
        if let Some(p) = memchr::memchr(b'\n', &buf[..n]) {
            return Ok(at + p as u64 + 1);
        }
        at += n as u64;
    }
    Ok(end)
}

/// How far past a cut point a multi-line log is searched for a line that surely starts an
/// event; a file with no such line that near is not cut there.
const SPLIT_SEARCH: usize = 1024 * 1024;

/// Where a part of the file may start at or after `pos`: the next line start for a
/// single-line format, else the next line that starts an event whatever came before it
/// (`end` when there is none within [`SPLIT_SEARCH`]).
fn next_part_start(file: &mut File, pos: u64, end: u64, fmt: &Format) -> std::io::Result<u64> {
    let at = next_line_start(file, pos, end)?;
    let Some(ml) = &fmt.multiline else {
        return Ok(at);
    };
    let want =
        usize::try_from(end.saturating_sub(at)).map_or(SPLIT_SEARCH, |n| n.min(SPLIT_SEARCH));
    let mut buf = vec![0u8; want];
    let n = read_at(file, at, &mut buf)?;
    let buf = &buf[..n];
    // The first whole line is only the one above a candidate.
    let mut prev: Option<&[u8]> = None;
    let mut pos_in = 0;
    for nl in memchr::memchr_iter(b'\n', buf) {
        let line = strip_cr(&buf[pos_in..nl]);
        if prev.is_some_and(|p| Assembler::starts_whatever_before(ml, p, line)) {
            return Ok(at + pos_in as u64);
        }
        prev = Some(line);
        pos_in = nl + 1;
    }
    Ok(end)
}

/// One event as a row.
struct LogRow<'a, 'f> {
    ex: &'a mut Extractor<'f>,
    text: &'a [u8],
}

impl RowAccess for LogRow<'_, '_> {
    fn val(&mut self, f: usize) -> Option<Val<'_>> {
        self.ex.value(self.text, f)
    }
    fn whole(&self) -> &[u8] {
        self.text
    }
    fn time(&mut self) -> Option<Ts> {
        self.ex.time(self.text)
    }
}

/// What the scan of one part found.
pub struct PartOut {
    pub acc: Acc,
    pub lines: u64,
    pub events: u64,
    pub unparsed: u64,
    pub max_time: Option<Ts>,
    /// The oldest event's time, read alongside `max_time` (no plan).
    pub min_time: Option<Ts>,
}

/// Receives events: counts, filters, accumulates.
struct Sink<'f> {
    ex: Extractor<'f>,
    plan: Option<&'f Plan>,
    q: &'f Query,
    file: usize,
    out: PartOut,
}

impl Sink<'_> {
    fn event(&mut self, ev: EventRef<'_>) {
        // A blank line is no event (a multi-line event keeps the blank lines inside it).
        if ev.text.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        // Reset first: an `only_rows` format's directive check parses the line, once.
        self.ex.reset();
        if self.ex.directive(ev.text) {
            return;
        }
        self.out.events += 1;
        if !self.ex.parses(ev.text) {
            self.out.unparsed += ev.nlines;
        }
        let mut row = LogRow {
            ex: &mut self.ex,
            text: ev.text,
        };
        match self.plan {
            Some(plan) => {
                if plan.passes(&mut row) {
                    self.out
                        .acc
                        .add(&mut row, plan, self.q, self.file, ev.line + 1);
                } else if self.out.acc.follows_past() {
                    if let Some(t) = plan.past_window(&mut row) {
                        self.out.acc.add_past(&mut row, t, plan, self.file);
                    }
                }
            }
            None => {
                if let Some(t) = row.time() {
                    if self.out.max_time.is_none_or(|m| t.key > m.key) {
                        self.out.max_time = Some(t);
                    }
                    if self.out.min_time.is_none_or(|m| t.key < m.key) {
                        self.out.min_time = Some(t);
                    }
                }
            }
        }
    }
}

/// Scans `[start, end)` of one file.
struct PartScan<'f> {
    asm: Option<Assembler<'f>>,
    sink: Sink<'f>,
    partial: Vec<u8>,
}

impl<'f> PartScan<'f> {
    fn new(
        fmt: &'f Format,
        schema: &'f Schema,
        plan: Option<&'f Plan>,
        q: &'f Query,
        file: usize,
        acc: Acc,
    ) -> Self {
        PartScan {
            asm: fmt.multiline.as_ref().map(Assembler::new),
            sink: Sink {
                ex: Extractor::new(fmt, schema),
                plan,
                q,
                file,
                out: PartOut {
                    acc,
                    lines: 0,
                    events: 0,
                    unparsed: 0,
                    max_time: None,
                    min_time: None,
                },
            },
            partial: Vec::new(),
        }
    }

    fn line(&mut self, line: &[u8]) {
        let line = strip_cr(line);
        let n = self.sink.out.lines;
        self.sink.out.lines += 1;
        match &mut self.asm {
            Some(asm) => {
                let sink = &mut self.sink;
                asm.push(line, n, &mut |ev| sink.event(ev));
            }
            None => self.sink.event(EventRef {
                text: line,
                line: n,
                nlines: 1,
            }),
        }
    }

    fn feed(&mut self, data: &[u8]) {
        let mut pos = 0;
        if !self.partial.is_empty() {
            match memchr::memchr(b'\n', data) {
                Some(p) => {
                    let mut l = std::mem::take(&mut self.partial);
                    l.extend_from_slice(&data[..p]);
                    self.line(&l);
                    pos = p + 1;
                }
                None => {
                    self.partial.extend_from_slice(data);
                    return;
                }
            }
        }
        let rest = &data[pos..];
        let last = match memchr::memrchr(b'\n', rest) {
            Some(p) => p,
            None => {
                self.partial.extend_from_slice(rest);
                return;
            }
        };
        let mut start = 0;
        for nl in memchr::memchr_iter(b'\n', &rest[..=last]) {
            self.line(&rest[start..nl]);
            start = nl + 1;
        }
        self.partial.extend_from_slice(&rest[last + 1..]);
    }

    fn finish(mut self) -> PartOut {
        if !self.partial.is_empty() {
            let l = std::mem::take(&mut self.partial);
            self.line(&l);
        }
        if let Some(asm) = &mut self.asm {
            let sink = &mut self.sink;
            asm.flush(&mut |ev| sink.event(ev));
        }
        self.sink.out
    }
}

/// What to do with each event of a scan.
pub struct ScanJob<'f> {
    pub fmt: &'f Format,
    pub schema: &'f Schema,
    /// `None`: only find the newest event's time.
    pub plan: Option<&'f Plan>,
    pub q: &'f Query,
    pub file: usize,
    pub make_acc: &'f (dyn Fn() -> Acc + Sync),
    /// The newest dated event (year, month, day) of the other logs of the query, by which
    /// this file's times written without a year are placed (a syslog beside dated logs).
    pub newest_day: Option<(i64, u32, u32)>,
}

fn scan_part(
    path: &Path,
    start: u64,
    end: u64,
    job: &ScanJob<'_>,
    cancel: &AtomicBool,
) -> Result<PartOut, QueryError> {
    let mut f = File::open(path).map_err(|e| QueryError::io(path, &e))?;
    f.seek(SeekFrom::Start(start))
        .map_err(|e| QueryError::io(path, &e))?;
    let mut scan = PartScan::new(
        job.fmt,
        job.schema,
        job.plan,
        job.q,
        job.file,
        (job.make_acc)(),
    );
    scan.sink.ex.set_newest_day(job.newest_day);
    let mut buf = vec![0u8; CHUNK];
    let mut pos = start;
    while pos < end {
        if cancel.load(Ordering::Relaxed) {
            return Err(QueryError::Cancelled);
        }
        let want = usize::try_from((end - pos).min(CHUNK as u64)).unwrap_or(CHUNK);
        let n = match f.read(&mut buf[..want]) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(QueryError::io(path, &e)),
        };
        scan.feed(&buf[..n]);
        pos += n as u64;
    }
    Ok(scan.finish())
}

/// Scans `[0, end)` of a file, in parallel parts when it is large (a multi-line log is cut
/// only before a line that starts an event whatever came before it).
pub fn scan_file(
    path: &Path,
    end: u64,
    (threads, split_min): (usize, u64),
    job: &ScanJob<'_>,
    cancel: &AtomicBool,
) -> Result<PartOut, QueryError> {
    let threads = match threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(8)),
        t => t,
    };
    let parts = if end >= split_min.max(1) && !job.fmt.is_stateful() {
        threads.max(1)
    } else {
        1
    };
    let mut bounds = vec![0u64];
    if parts > 1 {
        let mut f = File::open(path).map_err(|e| QueryError::io(path, &e))?;
        for k in 1..parts as u64 {
            let at = next_part_start(&mut f, end / parts as u64 * k, end, job.fmt)
                .map_err(|e| QueryError::io(path, &e))?;
            if at > *bounds.last().unwrap_or(&0) && at < end {
                bounds.push(at);
            }
        }
    }
    bounds.push(end);
    let outs: Vec<Result<PartOut, QueryError>> = if bounds.len() == 2 {
        vec![scan_part(path, 0, end, job, cancel)]
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = bounds
                .windows(2)
                .map(|w| {
                    let (a, b) = (w[0], w[1]);
                    s.spawn(move || scan_part(path, a, b, job, cancel))
                })
                .collect();
            handles
                .into_iter()
                .map(|h| {
                    h.join().unwrap_or_else(|_| {
                        Err(QueryError::Io(path.to_path_buf(), "worker panicked".into()))
                    })
                })
                .collect()
        })
    };
    merge_parts(outs)
}

fn merge_parts(outs: Vec<Result<PartOut, QueryError>>) -> Result<PartOut, QueryError> {
    let mut total: Option<PartOut> = None;
    for o in outs {
        let mut o = o?;
        match &mut total {
            None => total = Some(o),
            Some(t) => {
                o.acc.shift_lines(t.lines);
                t.acc.merge(o.acc);
                t.lines += o.lines;
                t.events += o.events;
                t.unparsed += o.unparsed;
                if let Some(m) = o.max_time {
                    if t.max_time.is_none_or(|x| m.key > x.key) {
                        t.max_time = Some(m);
                    }
                }
                if let Some(m) = o.min_time {
                    if t.min_time.is_none_or(|x| m.key < x.key) {
                        t.min_time = Some(m);
                    }
                }
            }
        }
    }
    total.ok_or(QueryError::Cancelled)
}

/// A file's newest event's time and its oldest's (when read).
pub type Edges = (Option<Ts>, Option<Ts>);

/// The newest event's time (from the last MiB when it has one, else the whole file) and,
/// when `oldest` is asked, the oldest event's (from the part already read when that was the
/// whole file, else the first MiB: a log is written in time order).
pub fn edge_times(
    path: &Path,
    end: u64,
    job: &ScanJob<'_>,
    cancel: &AtomicBool,
    oldest: bool,
) -> Result<Edges, QueryError> {
    // A part of a file whose header names its columns is read from the start.
    let from = if end > CHUNK as u64 && !job.fmt.is_stateful() {
        let mut f = File::open(path).map_err(|e| QueryError::io(path, &e))?;
        next_line_start(&mut f, end - CHUNK as u64, end).map_err(|e| QueryError::io(path, &e))?
    } else {
        0
    };
    let mut read = scan_part(path, from, end, job, cancel)?;
    let mut whole = from == 0;
    if read.max_time.is_none() && !whole {
        read = scan_file(path, end, (1, u64::MAX), job, cancel)?;
        whole = true;
    }
    let first = match (oldest, whole) {
        (false, _) => None,
        (true, true) => read.min_time,
        (true, false) => scan_part(path, 0, end.min(CHUNK as u64), job, cancel)?.min_time,
    };
    Ok((read.max_time, first))
}
