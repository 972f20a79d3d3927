//! Whole-file analysis: size cap at a line end, the file split at line boundaries over worker
//! threads, exact merge, cancellation and progress.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use crate::analyzer::{AnalyzeOptions, LogAnalyzer};
use crate::report::LogReport;

/// Read size per step (cancellation and progress are checked between steps).
const CHUNK: usize = 1024 * 1024;
/// Files below this are analysed on the calling thread.
const PARALLEL_MIN: u64 = 16 * 1024 * 1024;
/// Bytes sniffed for NUL (binary) like `file_read`'s read mode.
const SNIFF: usize = 8192;

/// Why a file could not be analysed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AnalyzeError {
    NotFound(PathBuf),
    IsDir(PathBuf),
    /// FIFOs, devices, sockets: could block or never end.
    NotRegular(PathBuf),
    PermissionDenied(PathBuf),
    /// NUL bytes in the first 8 KiB.
    Binary(PathBuf),
    /// UTF-16 byte-order mark: not analysed (read mode decodes it).
    Utf16(PathBuf),
    Io(PathBuf, String),
    Cancelled,
}

impl std::fmt::Display for AnalyzeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnalyzeError::NotFound(p) => write!(f, "文件不存在: {}", p.display()),
            AnalyzeError::IsDir(p) => {
                write!(f, "路径是目录而不是文件: {} (is a directory)", p.display())
            }
            AnalyzeError::NotRegular(p) => write!(f, "不是普通文件: {}", p.display()),
            AnalyzeError::PermissionDenied(p) => {
                write!(f, "权限不足，无法读取: {} (permission denied)", p.display())
            }
            AnalyzeError::Binary(p) => write!(
                f,
                "二进制文件，无法按日志分析: {} (binary file: contains NUL bytes)",
                p.display()
            ),
            AnalyzeError::Utf16(p) => write!(
                f,
                "UTF-16 编码的文件不支持分析，请用 mode=read 读取: {} (UTF-16 is not analysed)",
                p.display()
            ),
            AnalyzeError::Io(p, e) => write!(f, "读取文件失败: {}: {e}", p.display()),
            AnalyzeError::Cancelled => write!(f, "操作已取消 (cancelled)"),
        }
    }
}

impl std::error::Error for AnalyzeError {}

fn io_err(path: &Path, e: &std::io::Error) -> AnalyzeError {
    match e.kind() {
        std::io::ErrorKind::NotFound => AnalyzeError::NotFound(path.to_path_buf()),
        std::io::ErrorKind::PermissionDenied => AnalyzeError::PermissionDenied(path.to_path_buf()),
        _ => AnalyzeError::Io(path.to_path_buf(), e.to_string()),
    }
}

/// Reads up to `buf.len()` bytes at `pos` (fewer only at the end of the file).
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

/// The position just after the first `\n` at or after `pos` (before `end`), else `end`.
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

/// The end of the last complete line within `[0, cap)`: just after its `\n` (searching back
/// at most 1 MiB), else `cap`.
fn cut_at_line_end(file: &mut File, cap: u64) -> std::io::Result<u64> {
    let from = cap.saturating_sub(CHUNK as u64);
    let len = usize::try_from(cap - from).unwrap_or(CHUNK);
    let mut buf = vec![0u8; len];
    let n = read_at(file, from, &mut buf)?;
    Ok(match memchr::memrchr(b'\n', &buf[..n]) {
        Some(p) => from + p as u64 + 1,
        None => cap,
    })
}

/// Analyses `[start, end)` of the file. `on_chunk` runs after each chunk (progress).
fn run_part(
    path: &Path,
    start: u64,
    end: u64,
    opts: &AnalyzeOptions,
    cancel: &AtomicBool,
    done: &AtomicU64,
    on_chunk: &mut dyn FnMut(),
) -> Result<LogAnalyzer, AnalyzeError> {
    let mut file = File::open(path).map_err(|e| io_err(path, &e))?;
    file.seek(SeekFrom::Start(start))
        .map_err(|e| io_err(path, &e))?;
    let mut an = LogAnalyzer::new(opts.clone());
    let mut buf = vec![0u8; CHUNK];
    let mut pos = start;
    while pos < end {
        if cancel.load(Ordering::Relaxed) {
            return Err(AnalyzeError::Cancelled);
        }
        let want = usize::try_from((end - pos).min(CHUNK as u64)).unwrap_or(CHUNK);
        let n = match file.read(&mut buf[..want]) {
            Ok(0) => break, // The file shrank while being read.
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_err(path, &e)),
        };
        an.feed(&buf[..n]);
        pos += n as u64;
        done.fetch_add(n as u64, Ordering::Relaxed);
        on_chunk();
    }
    Ok(an)
}

/// Opens `path` for analysis: a regular file that is neither UTF-16 nor binary. Returns the
/// open file and its size.
fn open_checked(path: &Path) -> Result<(File, u64), AnalyzeError> {
    let meta = std::fs::metadata(path).map_err(|e| io_err(path, &e))?;
    if meta.is_dir() {
        return Err(AnalyzeError::IsDir(path.to_path_buf()));
    }
    if !meta.is_file() {
        return Err(AnalyzeError::NotRegular(path.to_path_buf()));
    }
    let size = meta.len();
    let mut file = File::open(path).map_err(|e| io_err(path, &e))?;
    let mut head = vec![0u8; SNIFF];
    let n = read_at(&mut file, 0, &mut head).map_err(|e| io_err(path, &e))?;
    let head = &head[..n];
    if head.starts_with(&[0xFF, 0xFE]) || head.starts_with(&[0xFE, 0xFF]) {
        return Err(AnalyzeError::Utf16(path.to_path_buf()));
    }
    if head.contains(&0) {
        return Err(AnalyzeError::Binary(path.to_path_buf()));
    }
    Ok((file, size))
}

/// Part boundaries over `[0, end)`, each at a line start: `[0, .., end]`, one part per worker
/// thread for large files, else a single part.
fn part_bounds(
    file: &mut File,
    path: &Path,
    end: u64,
    opts: &AnalyzeOptions,
) -> Result<Vec<u64>, AnalyzeError> {
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(8)),
        t => t,
    };
    let parts = if end >= PARALLEL_MIN {
        threads.max(1)
    } else {
        1
    };
    let mut bounds = vec![0u64];
    for k in 1..parts as u64 {
        let at =
            next_line_start(file, end / parts as u64 * k, end).map_err(|e| io_err(path, &e))?;
        if at > *bounds.last().unwrap_or(&0) && at < end {
            bounds.push(at);
        }
    }
    bounds.push(end);
    Ok(bounds)
}

/// Runs one worker thread per part, reporting progress from this thread until all finish.
/// The analyzers come back in part order.
fn run_parallel(
    path: &Path,
    bounds: &[u64],
    opts: &AnalyzeOptions,
    cancel: &AtomicBool,
    done: &AtomicU64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<Vec<LogAnalyzer>, AnalyzeError> {
    let end = *bounds.last().unwrap_or(&0);
    let main = std::thread::current();
    std::thread::scope(|s| {
        let handles: Vec<_> = bounds
            .windows(2)
            .map(|w| {
                let (a, b) = (w[0], w[1]);
                let main = main.clone();
                s.spawn(move || {
                    let r = run_part(path, a, b, opts, cancel, done, &mut || {});
                    main.unpark();
                    r
                })
            })
            .collect();
        while !handles.iter().all(|h| h.is_finished()) {
            progress(done.load(Ordering::Relaxed), end);
            std::thread::park_timeout(Duration::from_millis(100));
        }
        handles
            .into_iter()
            .map(|h| {
                h.join().unwrap_or_else(|_| {
                    Err(AnalyzeError::Io(
                        path.to_path_buf(),
                        "worker panicked".into(),
                    ))
                })
            })
            .collect::<Result<Vec<_>, _>>()
    })
}

/// Analyses the whole file (at most `opts.max_bytes`; the cut falls at a line end and the
/// report says `complete: false`). Blocking; runs worker threads for files of 16 MiB and
/// more. `cancel` is polled every 1 MiB; `progress(done, total)` is called on this thread
/// with bytes analysed so far and bytes to analyse.
pub fn analyze_file(
    path: &Path,
    opts: &AnalyzeOptions,
    cancel: &AtomicBool,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<LogReport, AnalyzeError> {
    let (mut file, size) = open_checked(path)?;
    let capped = size > opts.max_bytes;
    let end = if capped {
        cut_at_line_end(&mut file, opts.max_bytes).map_err(|e| io_err(path, &e))?
    } else {
        size
    };
    let bounds = part_bounds(&mut file, path, end, opts)?;
    drop(file);

    let done = AtomicU64::new(0);
    progress(0, end);
    let mut analyzers = if bounds.len() == 2 {
        let mut tick = || progress(done.load(Ordering::Relaxed), end);
        vec![run_part(path, 0, end, opts, cancel, &done, &mut tick)?]
    } else {
        run_parallel(path, &bounds, opts, cancel, &done, progress)?
    };
    // Every part finished: all `end` bytes are analysed (`done` may lag by a last step).
    progress(end, end);
    let mut whole = analyzers.remove(0);
    for later in analyzers {
        whole.merge(later);
    }
    let read = whole.bytes();
    let mut report = whole.finish();
    report.bytes = size.max(read);
    report.bytes_read = read;
    report.complete = !capped;
    Ok(report)
}
