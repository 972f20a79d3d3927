//! Server logging: tracing into daily files under `{data_dir}/logs/`, each day's file
//! capped in size and only the newest few days kept. Never the terminal of a TUI.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use tracing_appender::non_blocking::WorkerGuard;
use tracing_subscriber::EnvFilter;

/// Per-day cap; past it lines are dropped (one notice line says so).
pub const MAX_DAY_BYTES: u64 = 64 * 1024 * 1024;
/// Days of log files kept.
pub const KEEP_DAYS: usize = 7;

/// A writer that rolls to a new file each day, stops writing a day's file at `max_bytes`
/// and prunes old files.
pub struct CappedDailyWriter {
    dir: PathBuf,
    prefix: String,
    max_bytes: u64,
    keep: usize,
    day: String,
    file: Option<File>,
    written: u64,
    capped: bool,
}

impl CappedDailyWriter {
    pub fn new(dir: &Path, prefix: &str, max_bytes: u64, keep: usize) -> io::Result<Self> {
        std::fs::create_dir_all(dir)?;
        Ok(CappedDailyWriter {
            dir: dir.to_path_buf(),
            prefix: prefix.to_string(),
            max_bytes,
            keep,
            day: String::new(),
            file: None,
            written: 0,
            capped: false,
        })
    }

    fn roll_if_needed(&mut self) -> io::Result<()> {
        let today = chrono::Local::now().format("%Y-%m-%d").to_string();
        if self.file.is_some() && today == self.day {
            return Ok(());
        }
        let path = self.dir.join(format!("{}.{}.log", self.prefix, today));
        let f = OpenOptions::new().create(true).append(true).open(&path)?;
        self.written = f.metadata().map(|m| m.len()).unwrap_or(0);
        self.capped = self.written >= self.max_bytes;
        self.file = Some(f);
        self.day = today;
        self.prune();
        Ok(())
    }

    fn prune(&self) {
        let Ok(rd) = std::fs::read_dir(&self.dir) else {
            return;
        };
        let prefix = format!("{}.", self.prefix);
        let mut files: Vec<PathBuf> = rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| {
                p.file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with(&prefix) && n.ends_with(".log"))
            })
            .collect();
        // Names carry ISO dates, so lexical order is age order.
        files.sort();
        if files.len() > self.keep {
            for old in &files[..files.len() - self.keep] {
                let _ = std::fs::remove_file(old);
            }
        }
    }
}

impl Write for CappedDailyWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.roll_if_needed()?;
        let Some(f) = self.file.as_mut() else {
            return Ok(buf.len());
        };
        if self.capped {
            return Ok(buf.len());
        }
        if self.written + buf.len() as u64 > self.max_bytes {
            self.capped = true;
            let _ = f.write_all(b"-- log size cap reached for today; further lines dropped --\n");
            return Ok(buf.len());
        }
        f.write_all(buf)?;
        self.written += buf.len() as u64;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        match self.file.as_mut() {
            Some(f) => f.flush(),
            None => Ok(()),
        }
    }
}

/// Installs the global subscriber writing to `{logs_dir}/llmops-server.DATE.log`.
/// Keep the guard alive for the life of the process (it flushes on drop).
pub fn init(logs_dir: &Path, level: &str) -> io::Result<WorkerGuard> {
    let writer = CappedDailyWriter::new(logs_dir, "llmops-server", MAX_DAY_BYTES, KEEP_DAYS)?;
    let (nb, guard) = tracing_appender::non_blocking(writer);
    let filter = EnvFilter::try_new(level).unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(nb)
        .with_ansi(false)
        .try_init();
    Ok(guard)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_a_days_file() {
        let d = tempfile::tempdir().expect("tempdir");
        let mut w = CappedDailyWriter::new(d.path(), "t", 100, 3).expect("writer");
        for _ in 0..20 {
            w.write_all(b"0123456789\n").expect("write");
        }
        w.flush().expect("flush");
        let files: Vec<_> = std::fs::read_dir(d.path()).expect("dir").collect();
        assert_eq!(files.len(), 1);
        let len = std::fs::metadata(files[0].as_ref().expect("entry").path())
            .expect("meta")
            .len();
        assert!(len <= 100 + 80, "file grew to {len}");
    }

    #[test]
    fn prunes_old_days() {
        let d = tempfile::tempdir().expect("tempdir");
        for day in ["2020-01-01", "2020-01-02", "2020-01-03", "2020-01-04"] {
            std::fs::write(d.path().join(format!("t.{day}.log")), "x").expect("write");
        }
        let mut w = CappedDailyWriter::new(d.path(), "t", 100, 2).expect("writer");
        w.write_all(b"hello\n").expect("write");
        let n = std::fs::read_dir(d.path()).expect("dir").count();
        assert_eq!(n, 2);
    }
}
