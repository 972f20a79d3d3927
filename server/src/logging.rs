//! Server logging: tracing into daily files under `{data_dir}/logs/`, each day's file
//! capped in size and only the newest few days kept, or into the systemd journal when the
//! server runs as a service. Never the terminal of a TUI.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::MetadataExt as _;
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

/// Where the log goes (`log_output` in the config, `--log-output`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum LogOutput {
    /// The journal when stderr is the journal's stream (a systemd service), else files.
    #[default]
    Auto,
    /// Daily files in `{data_dir}/logs/`.
    Files,
    /// Standard error, one line per event with a syslog priority prefix (`<4>` for a
    /// warning) that journald reads as the entry's priority; no timestamp (the journal
    /// stamps each entry).
    Journal,
}

impl LogOutput {
    /// `Auto` decided for this process: `Journal` when `JOURNAL_STREAM` names the file
    /// stderr is (systemd sets it for a service's stdout and stderr), `Files` otherwise.
    pub fn resolve(self) -> LogOutput {
        match self {
            LogOutput::Auto => {
                let stderr = std::fs::metadata("/proc/self/fd/2").ok();
                let env = std::env::var("JOURNAL_STREAM").ok();
                match stderr {
                    Some(m) if is_journal_stream(env.as_deref(), m.dev(), m.ino()) => {
                        LogOutput::Journal
                    }
                    _ => LogOutput::Files,
                }
            }
            other => other,
        }
    }
}

/// Whether `JOURNAL_STREAM` (`DEVICE:INODE`, decimal) names the file with `dev` and `ino`:
/// a child that inherited the variable but writes elsewhere is not the journal.
pub fn is_journal_stream(env: Option<&str>, dev: u64, ino: u64) -> bool {
    let Some((d, i)) = env.and_then(|v| v.split_once(':')) else {
        return false;
    };
    d.trim().parse::<u64>() == Ok(dev) && i.trim().parse::<u64>() == Ok(ino)
}

/// The syslog priority journald reads from a line's `<N>` prefix.
fn priority(level: &tracing::Level) -> u8 {
    match *level {
        tracing::Level::ERROR => 3,
        tracing::Level::WARN => 4,
        tracing::Level::INFO => 6,
        _ => 7,
    }
}

/// The usual line format after a `<N>` priority prefix.
struct JournalFormat<F>(F);

impl<S, N, F> tracing_subscriber::fmt::FormatEvent<S, N> for JournalFormat<F>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
    N: for<'a> tracing_subscriber::fmt::FormatFields<'a> + 'static,
    F: tracing_subscriber::fmt::FormatEvent<S, N>,
{
    fn format_event(
        &self,
        ctx: &tracing_subscriber::fmt::FmtContext<'_, S, N>,
        mut writer: tracing_subscriber::fmt::format::Writer<'_>,
        event: &tracing::Event<'_>,
    ) -> std::fmt::Result {
        write!(writer, "<{}>", priority(event.metadata().level()))?;
        self.0.format_event(ctx, writer, event)
    }
}

/// Installs the global subscriber: `{logs_dir}/llmops-server.DATE.log` or the journal, as
/// `output` resolves. Keep the guard alive for the life of the process (it flushes on
/// drop).
pub fn init(logs_dir: &Path, level: &str, output: LogOutput) -> io::Result<WorkerGuard> {
    let filter = EnvFilter::try_new(level).unwrap_or_else(|_| EnvFilter::new("info"));
    if output.resolve() == LogOutput::Journal {
        let (nb, guard) = tracing_appender::non_blocking(io::stderr());
        let format = tracing_subscriber::fmt::format()
            .without_time()
            .with_ansi(false);
        let _ = tracing_subscriber::fmt()
            .with_env_filter(filter)
            .with_writer(nb)
            .with_ansi(false)
            .event_format(JournalFormat(format))
            .try_init();
        return Ok(guard);
    }
    let writer = CappedDailyWriter::new(logs_dir, "llmops-server", MAX_DAY_BYTES, KEEP_DAYS)?;
    let (nb, guard) = tracing_appender::non_blocking(writer);
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
    fn the_journal_is_chosen_only_when_stderr_is_its_stream() {
        assert!(is_journal_stream(Some("8:12345"), 8, 12345));
        // Inherited from a service by a child writing to a file or a terminal.
        assert!(!is_journal_stream(Some("8:12345"), 8, 99));
        assert!(!is_journal_stream(Some("9:12345"), 8, 12345));
        for bad in [None, Some(""), Some("8"), Some("x:y"), Some("8:")] {
            assert!(!is_journal_stream(bad, 8, 12345), "{bad:?}");
        }
        // This test's stderr is not a journal stream whatever the variable says.
        assert_eq!(LogOutput::Files.resolve(), LogOutput::Files);
        assert_eq!(LogOutput::Journal.resolve(), LogOutput::Journal);
    }

    #[test]
    fn journal_lines_carry_the_syslog_priority() {
        use std::sync::{Arc, Mutex};
        use tracing_subscriber::fmt::MakeWriter;
        #[derive(Clone, Default)]
        struct Buf(Arc<Mutex<Vec<u8>>>);
        impl Write for Buf {
            fn write(&mut self, b: &[u8]) -> io::Result<usize> {
                self.0.lock().expect("buf").extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        impl<'a> MakeWriter<'a> for Buf {
            type Writer = Buf;
            fn make_writer(&'a self) -> Buf {
                self.clone()
            }
        }
        let buf = Buf::default();
        let sub = tracing_subscriber::fmt()
            .with_writer(buf.clone())
            .with_ansi(false)
            .event_format(JournalFormat(
                tracing_subscriber::fmt::format()
                    .without_time()
                    .with_ansi(false),
            ))
            .finish();
        tracing::subscriber::with_default(sub, || {
            tracing::error!("disk gone");
            tracing::warn!(addr = "127.0.0.1:9", "cannot bind");
            tracing::info!("listening");
        });
        let text = String::from_utf8(buf.0.lock().expect("buf").clone()).expect("utf8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 3, "{text}");
        assert!(lines[0].starts_with("<3>") && lines[0].contains("disk gone"));
        assert!(lines[1].starts_with("<4>") && lines[1].contains("addr=\"127.0.0.1:9\""));
        assert!(lines[2].starts_with("<6>") && lines[2].contains("listening"));
    }

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
