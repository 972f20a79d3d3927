//! In-process grep over files the command policy already validated, using the linear-time
//! `regex` crate (no backtracking engine ever sees the pattern). Blocking: call it on the
//! blocking pool; it polls a cancel flag and stops once the output cap is reached.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};

use crate::policy::GrepOptions;

/// What a grep run produced (mirrors a process: exit 0 = selected lines, 1 = none, 2 = error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrepOutput {
    pub exit_code: i32,
    pub stdout: String,
    pub stderr: String,
    pub truncated: bool,
    pub cancelled: bool,
}

/// Bytes sniffed for NUL to call a file binary (as GNU grep does).
const BINARY_SNIFF: usize = 8192;

struct Out {
    buf: String,
    cap: usize,
    truncated: bool,
}

impl Out {
    /// Appends a line; returns false once the cap is hit.
    fn line(&mut self, s: &str) -> bool {
        if self.truncated {
            return false;
        }
        if self.buf.len() + s.len() + 1 > self.cap {
            let room = self.cap.saturating_sub(self.buf.len());
            let mut cut = room.min(s.len());
            while cut > 0 && !s.is_char_boundary(cut) {
                cut -= 1;
            }
            self.buf.push_str(&s[..cut]);
            self.truncated = true;
            return false;
        }
        self.buf.push_str(s);
        self.buf.push('\n');
        true
    }
}

/// Runs grep with `opts`, capping stdout at `max_output` bytes.
pub fn run(opts: &GrepOptions, max_output: usize, cancel: &AtomicBool) -> GrepOutput {
    let mut out = Out {
        buf: String::new(),
        cap: max_output,
        truncated: false,
    };
    let mut stderr = String::new();
    let mut any_selected = false;
    let mut had_error = false;
    let prefix_names = opts.with_filename.unwrap_or(opts.files.len() > 1);

    'files: for (path, shown) in &opts.files {
        if cancel.load(Ordering::Relaxed) {
            break;
        }
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) => {
                had_error = true;
                if !opts.no_messages {
                    let why = match e.kind() {
                        std::io::ErrorKind::NotFound => {
                            "没有那个文件或目录 (No such file or directory)".to_string()
                        }
                        std::io::ErrorKind::PermissionDenied => {
                            "权限不够 (Permission denied)".to_string()
                        }
                        _ => e.to_string(),
                    };
                    stderr.push_str(&format!("grep: {shown}: {why}\n"));
                }
                continue;
            }
        };
        if path.is_dir() {
            had_error = true;
            if !opts.no_messages {
                stderr.push_str(&format!("grep: {shown}: 是一个目录 (Is a directory)\n"));
            }
            continue;
        }
        let mut reader = BufReader::new(file);
        // Binary sniff without consuming: fill_buf returns what the buffer holds.
        let is_binary = match reader.fill_buf() {
            Ok(buf) => buf[..buf.len().min(BINARY_SNIFF)].contains(&0),
            Err(_) => false,
        };
        let mut count: u64 = 0;
        let mut line_no: u64 = 0;
        let mut raw = Vec::new();
        loop {
            raw.clear();
            match reader.by_ref().take(1 << 20).read_until(b'\n', &mut raw) {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    had_error = true;
                    if !opts.no_messages {
                        stderr.push_str(&format!("grep: {shown}: {e}\n"));
                    }
                    break;
                }
            }
            line_no += 1;
            if line_no & 1023 == 0 && cancel.load(Ordering::Relaxed) {
                break 'files;
            }
            while matches!(raw.last(), Some(b'\n' | b'\r')) {
                raw.pop();
            }
            let text = String::from_utf8_lossy(&raw);
            let matched = opts.regex.is_match(&text);
            if matched == opts.invert {
                continue;
            }
            count += 1;
            any_selected = true;
            if opts.quiet {
                break 'files;
            }
            if opts.files_with_matches || is_binary {
                break;
            }
            if !opts.count {
                let mut head = String::new();
                if prefix_names {
                    head.push_str(shown);
                    head.push(':');
                }
                if opts.line_number {
                    head.push_str(&format!("{line_no}:"));
                }
                let keep_going = if opts.only_matching && !opts.invert {
                    opts.regex
                        .find_iter(&text)
                        .filter(|m| !m.as_str().is_empty())
                        .all(|m| out.line(&format!("{head}{}", m.as_str())))
                } else {
                    out.line(&format!("{head}{text}"))
                };
                if !keep_going {
                    // The cap is reached; the exit code (0) is already known.
                    break 'files;
                }
            }
            if opts.max_count.is_some_and(|m| count >= m) {
                break;
            }
        }
        if opts.files_with_matches {
            if count > 0 && !out.line(shown) {
                break;
            }
        } else if is_binary && count > 0 {
            if !out.line(&format!("匹配到二进制文件: {shown} (binary file matches)")) {
                break;
            }
        } else if opts.count {
            let line = if prefix_names {
                format!("{shown}:{count}")
            } else {
                count.to_string()
            };
            if !out.line(&line) {
                break;
            }
        }
    }
    let cancelled = cancel.load(Ordering::Relaxed);
    let exit_code = if opts.quiet && any_selected {
        0
    } else if had_error {
        2
    } else if any_selected {
        0
    } else {
        1
    };
    GrepOutput {
        exit_code,
        stdout: out.buf,
        stderr,
        truncated: out.truncated,
        cancelled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{CommandPolicy, CommandPolicyConfig, PathPolicy, PathPolicyConfig};
    use std::fs;
    use std::path::PathBuf;

    struct Fx {
        _tmp: tempfile::TempDir,
        uploads: PathBuf,
        paths: PathPolicy,
        cmds: CommandPolicy,
    }

    fn fx() -> Fx {
        let tmp = tempfile::tempdir().expect("tempdir");
        let data = fs::canonicalize(tmp.path()).expect("canon").join("data");
        let uploads = data.join("uploads");
        fs::create_dir_all(&uploads).expect("mkdir");
        fs::write(
            uploads.join("a.log"),
            "INFO start\nERROR disk full\ninfo done\nError again\n",
        )
        .expect("write");
        fs::write(uploads.join("b.log"), "nothing\nERROR net\n").expect("write");
        fs::write(uploads.join("bin.dat"), b"ERROR\0\x01\x02").expect("write");
        fs::create_dir_all(uploads.join("dir")).expect("mkdir");
        Fx {
            _tmp: tmp,
            paths: PathPolicy::new(&PathPolicyConfig::with_defaults(&data, &[])),
            cmds: CommandPolicy::new(CommandPolicyConfig::with_defaults(&data)),
            uploads,
        }
    }

    fn grep(f: &Fx, args: &[&str]) -> GrepOutput {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let v = f
            .cmds
            .validate("grep", &args, &f.paths)
            .expect("valid grep");
        run(
            &v.grep.expect("grep opts"),
            100 * 1024,
            &AtomicBool::new(false),
        )
    }

    #[test]
    fn tools_grep_basic_flags() {
        let f = fx();
        let o = grep(&f, &["ERROR", "a.log"]);
        assert_eq!((o.exit_code, o.stdout.as_str()), (0, "ERROR disk full\n"));
        let o = grep(&f, &["-in", "error", "a.log"]);
        assert_eq!(o.stdout, "2:ERROR disk full\n4:Error again\n");
        let o = grep(&f, &["-c", "-i", "error", "a.log"]);
        assert_eq!(o.stdout, "2\n");
        let o = grep(&f, &["-v", "-i", "error", "a.log"]);
        assert_eq!(o.stdout, "INFO start\ninfo done\n");
        let o = grep(&f, &["-E", "-e", "start", "-e", "done", "a.log"]);
        assert_eq!(o.stdout, "INFO start\ninfo done\n");
        let o = grep(&f, &["-o", "-i", "err[a-z]+", "a.log"]);
        assert_eq!(o.stdout, "ERROR\nError\n");
        let o = grep(&f, &["-m", "1", "-i", "error", "a.log"]);
        assert_eq!(o.stdout, "ERROR disk full\n");
        let o = grep(&f, &["nomatch", "a.log"]);
        assert_eq!((o.exit_code, o.stdout.as_str()), (1, ""));
    }

    #[test]
    fn tools_grep_multiple_files_prefix_names() {
        let f = fx();
        let o = grep(&f, &["-n", "ERROR", "a.log", "b.log"]);
        assert_eq!(o.stdout, "a.log:2:ERROR disk full\nb.log:2:ERROR net\n");
        let o = grep(&f, &["-c", "ERROR", "a.log", "b.log"]);
        assert_eq!(o.stdout, "a.log:1\nb.log:1\n");
        let o = grep(&f, &["-l", "net", "a.log", "b.log"]);
        assert_eq!(o.stdout, "b.log\n");
        let o = grep(&f, &["-h", "ERROR", "a.log", "b.log"]);
        assert_eq!(o.stdout, "ERROR disk full\nERROR net\n");
    }

    #[test]
    fn tools_grep_errors_binary_and_cap() {
        let f = fx();
        let o = grep(&f, &["ERROR", "missing.log", "a.log"]);
        assert_eq!(o.exit_code, 2);
        assert!(o.stderr.contains("missing.log: 没有那个文件或目录"));
        assert_eq!(o.stdout, "a.log:ERROR disk full\n");
        let o = grep(&f, &["x", "dir"]);
        assert!(o.stderr.contains("是一个目录"), "{o:?}");
        let o = grep(&f, &["ERROR", "bin.dat"]);
        assert_eq!(
            o.stdout,
            "匹配到二进制文件: bin.dat (binary file matches)\n"
        );

        fs::write(f.uploads.join("big.log"), "match me\n".repeat(10_000)).expect("write");
        let v = f
            .cmds
            .validate("grep", &["match".into(), "big.log".into()], &f.paths)
            .expect("valid");
        let o = run(&v.grep.expect("opts"), 1000, &AtomicBool::new(false));
        assert!(o.truncated);
        assert!(o.stdout.len() <= 1000);
        assert_eq!(o.exit_code, 0);
        let o = run(
            &f.cmds
                .validate("grep", &["match".into(), "big.log".into()], &f.paths)
                .expect("valid")
                .grep
                .expect("opts"),
            1 << 20,
            &AtomicBool::new(true),
        );
        assert!(o.cancelled);
    }
}
