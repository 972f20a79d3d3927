//! The real `llmops-tui` inside a pseudo-terminal: keystrokes in, the screen parsed by a
//! terminal emulator (vt100) out, so scenarios assert on what a person would see. Every
//! wait has a timeout and a failure carries a dump of the screen.

use std::io::{Read, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{anyhow, bail, Context};
use portable_pty::{native_pty_system, Child, CommandBuilder, MasterPty, PtySize};

pub struct Tui {
    master: Box<dyn MasterPty + Send>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    parser: Arc<Mutex<vt100::Parser>>,
    /// Always `Some` until `take_home` (a relaunch in the same HOME).
    home: Option<tempfile::TempDir>,
}

impl Tui {
    /// Starts the TUI against `server` in a `cols`x`rows` terminal, with a private HOME
    /// and XDG dirs so no user config leaks in.
    pub fn start(server: &str, cols: u16, rows: u16, extra: &[&str]) -> anyhow::Result<Tui> {
        Tui::start_in(server, cols, rows, extra, tempfile::tempdir()?)
    }

    /// Like `start`, in the HOME (and XDG dirs) of an earlier run: a relaunch.
    pub fn start_in(
        server: &str,
        cols: u16,
        rows: u16,
        extra: &[&str],
        home: tempfile::TempDir,
    ) -> anyhow::Result<Tui> {
        let pty = native_pty_system();
        let pair = pty
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| anyhow!("openpty: {e}"))?;
        let mut cmd = CommandBuilder::new(crate::bin("llmops-tui"));
        cmd.arg("--server");
        cmd.arg(server);
        for a in extra {
            cmd.arg(a);
        }
        cmd.env("TERM", "xterm-256color");
        cmd.env("HOME", home.path());
        cmd.env("XDG_CONFIG_HOME", home.path().join("config"));
        cmd.env("XDG_DATA_HOME", home.path().join("data"));
        cmd.env("XDG_STATE_HOME", home.path().join("state"));
        cmd.env("LANG", "C.UTF-8");
        cmd.env_remove("LLMOPS_SERVER");
        cmd.env_remove("NO_COLOR");
        cmd.cwd(home.path());
        let child = pair
            .slave
            .spawn_command(cmd)
            .map_err(|e| anyhow!("spawn llmops-tui: {e}"))?;
        drop(pair.slave);
        let mut reader = pair
            .master
            .try_clone_reader()
            .map_err(|e| anyhow!("pty reader: {e}"))?;
        let writer = pair
            .master
            .take_writer()
            .map_err(|e| anyhow!("pty writer: {e}"))?;
        let parser = Arc::new(Mutex::new(vt100::Parser::new(rows, cols, 0)));
        let p = parser.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .process(&buf[..n]);
            }
        });
        Ok(Tui {
            master: pair.master,
            writer,
            child,
            parser,
            home: Some(home),
        })
    }

    /// The private HOME the TUI runs in (its cwd, and where downloads land).
    pub fn home(&self) -> &std::path::Path {
        self.home
            .as_ref()
            .map_or(std::path::Path::new("/nonexistent"), |h| h.path())
    }

    /// Hands the HOME over for a relaunch (`start_in`); call after the TUI exited.
    pub fn take_home(&mut self) -> Option<tempfile::TempDir> {
        self.home.take()
    }

    /// The screen as text, one line per row, trailing spaces trimmed.
    pub fn screen(&self) -> String {
        let p = self.parser.lock().unwrap_or_else(|e| e.into_inner());
        p.screen()
            .rows(0, p.screen().size().1)
            .map(|r| r.trim_end().to_string())
            .collect::<Vec<_>>()
            .join("\n")
    }

    pub fn dump(&self) -> String {
        format!("---- screen ----\n{}\n----------------", self.screen())
    }

    /// Waits until `pred` holds on the screen text.
    pub fn wait_until(
        &self,
        what: &str,
        timeout: Duration,
        pred: impl Fn(&str) -> bool,
    ) -> anyhow::Result<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let s = self.screen();
            if pred(&s) {
                return Ok(s);
            }
            if Instant::now() > deadline {
                bail!("timed out waiting for {what}\n{}", self.dump());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn wait_for(&self, text: &str, timeout: Duration) -> anyhow::Result<String> {
        self.wait_until(&format!("{text:?}"), timeout, |s| s.contains(text))
    }

    /// Types text (UTF-8, Chinese included).
    pub fn type_text(&mut self, s: &str) -> anyhow::Result<()> {
        self.writer.write_all(s.as_bytes())?;
        self.writer.flush()?;
        Ok(())
    }

    /// Sends raw key bytes (e.g. `\r` Enter, `\x7f` Backspace, `\x1b[A` Up, `\x03` Ctrl+C).
    pub fn keys(&mut self, bytes: &[u8]) -> anyhow::Result<()> {
        self.writer.write_all(bytes)?;
        self.writer.flush()?;
        Ok(())
    }

    /// Pastes text with bracketed-paste markers.
    pub fn paste(&mut self, s: &str) -> anyhow::Result<()> {
        self.keys(b"\x1b[200~")?;
        self.type_text(s)?;
        self.keys(b"\x1b[201~")
    }

    pub fn resize(&mut self, cols: u16, rows: u16) -> anyhow::Result<()> {
        // The screen first, then the terminal: the TUI answers SIGWINCH with a clear and a
        // full redraw at the new size, and on a loaded machine the reader could parse that
        // redraw before a screen resized second, leaving it garbled for good (nothing
        // changes after, so nothing is drawn again). Old bytes still unread are parsed at
        // the new size, and the redraw that follows them repaints the screen.
        self.parser
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .set_size(rows, cols);
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .map_err(|e| anyhow!("resize: {e}"))?;
        Ok(())
    }

    /// Waits for the process to exit; returns its success flag.
    pub fn wait_exit(&mut self, timeout: Duration) -> anyhow::Result<bool> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(st) = self.child.try_wait().context("try_wait")? {
                return Ok(st.success());
            }
            if Instant::now() > deadline {
                bail!("llmops-tui did not exit\n{}", self.dump());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
