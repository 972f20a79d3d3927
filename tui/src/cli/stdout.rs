//! Writing the script subcommands' output (stdout and stderr): a closed reader (`llmops-tui ask … | head`) is a
//! clean end (exit 0, nothing on stderr), never a panic; other write errors are reported.

use std::io::{ErrorKind, Write};

/// What happened to a write.
#[derive(Debug, PartialEq, Eq)]
pub enum Written {
    Ok,
    /// The reader went away (EPIPE): stop quietly.
    Closed,
}

/// Writes `s` (and a newline when asked) and flushes, telling a closed pipe apart.
pub fn write_to(w: &mut impl Write, s: &str, newline: bool) -> std::io::Result<Written> {
    let r = w
        .write_all(s.as_bytes())
        .and_then(|()| if newline { w.write_all(b"\n") } else { Ok(()) })
        .and_then(|()| w.flush());
    match r {
        Ok(()) => Ok(Written::Ok),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(Written::Closed),
        Err(e) => Err(e),
    }
}

fn emit(s: &str, newline: bool) {
    match write_to(&mut std::io::stdout().lock(), s, newline) {
        Ok(Written::Ok) => {}
        // Whoever read our output has what they wanted: a clean exit.
        Ok(Written::Closed) => std::process::exit(0),
        Err(e) => {
            tracing::warn!("cannot write to stdout: {e}");
            err_line(&format!(
                "llmops-tui: 无法写出结果 / cannot write the output: {e}"
            ));
            std::process::exit(1);
        }
    }
}

/// `print!` that ends the process with 0 when stdout is a closed pipe.
pub fn text(s: &str) {
    emit(s, false);
}

/// `println!` that ends the process with 0 when stdout is a closed pipe.
pub fn line(s: &str) {
    emit(s, true);
}

/// `eprintln!` for diagnostics: a closed stderr (`2>&1 | head`) ends quietly with 0 too.
pub fn err_line(s: &str) {
    match write_to(&mut std::io::stderr().lock(), s, true) {
        Ok(Written::Ok) => {}
        Ok(Written::Closed) => std::process::exit(0),
        // Nowhere left to report it but the log.
        Err(e) => tracing::warn!("cannot write to stderr: {e}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Pipe {
        room: usize,
        got: Vec<u8>,
    }

    impl Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.room == 0 {
                return Err(std::io::Error::from(ErrorKind::BrokenPipe));
            }
            let n = buf.len().min(self.room);
            self.room -= n;
            self.got.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_reader_is_a_clean_end_not_an_error() {
        let mut p = Pipe {
            room: 6,
            got: Vec::new(),
        };
        assert_eq!(write_to(&mut p, "abc", true).expect("first"), Written::Ok);
        assert_eq!(p.got, b"abc\n");
        assert_eq!(
            write_to(&mut p, "defgh", true).expect("second"),
            Written::Closed
        );
    }

    #[test]
    fn other_errors_are_errors() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
                Err(std::io::Error::from(ErrorKind::StorageFull))
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        assert!(write_to(&mut Full, "x", false).is_err());
    }
}
