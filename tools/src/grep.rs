//! In-process grep over files the command policy already validated, or over the previous
//! pipeline stage's output, using the linear-time `regex` crate (no backtracking engine ever
//! sees the pattern). Streaming: reads line by line and writes selected lines to an async
//! writer (a pipe to the next stage or the capture); the executor caps and cancels.

use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, BufWriter,
};

use llmops_policy::GrepOptions;

/// How a grep run ended (mirrors a process: exit 0 = selected lines, 1 = none, 2 = error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GrepStatus {
    pub exit_code: i32,
    pub stderr: String,
}

/// Bytes sniffed for NUL to call a file binary (as GNU grep does).
const BINARY_SNIFF: usize = 8192;
/// Longest line handled as one line; longer lines are split.
const MAX_LINE: u64 = 1 << 20;
/// Read buffer per input.
const READ_BUF: usize = 256 * 1024;
/// Name grep prints for standard input.
pub const STDIN_NAME: &str = "(standard input)";

/// Whether the run goes on after one input.
enum Flow {
    Next,
    /// `-q` matched, or the writer is gone (the next stage exited).
    Stop,
}

struct Run<'a, W: AsyncWrite + Unpin> {
    opts: &'a GrepOptions,
    out: BufWriter<W>,
    prefix_names: bool,
    any_selected: bool,
    had_error: bool,
    stderr: String,
}

impl<W: AsyncWrite + Unpin> Run<'_, W> {
    async fn line(&mut self, s: &str) -> bool {
        self.out.write_all(s.as_bytes()).await.is_ok() && self.out.write_all(b"\n").await.is_ok()
    }

    fn error(&mut self, shown: &str, why: &str) {
        self.had_error = true;
        if !self.opts.no_messages {
            self.stderr.push_str(&format!("grep: {shown}: {why}\n"));
        }
    }

    /// Writes a selected line (line `line_no` of `shown`), or only its matches with `-o`;
    /// false when the output is gone.
    async fn selected(&mut self, shown: &str, line_no: u64, text: &str) -> bool {
        let opts = self.opts;
        let mut head = String::new();
        if self.prefix_names {
            head.push_str(shown);
            head.push(':');
        }
        if opts.line_number {
            head.push_str(&format!("{line_no}:"));
        }
        if opts.only_matching && !opts.invert {
            for m in opts
                .regex
                .find_iter(text)
                .filter(|m| !m.as_str().is_empty())
            {
                if !self.line(&format!("{head}{}", m.as_str())).await {
                    return false;
                }
            }
            true
        } else {
            self.line(&format!("{head}{text}")).await
        }
    }

    /// The line that ends an input: its name (`-l`), the binary-file note, or the count
    /// (`-c`).
    fn summary(&self, shown: &str, count: u64, is_binary: bool) -> Option<String> {
        let opts = self.opts;
        if opts.files_with_matches {
            (count > 0).then(|| shown.to_string())
        } else if is_binary && count > 0 {
            Some(format!("匹配到二进制文件: {shown} (binary file matches)"))
        } else if opts.count {
            Some(if self.prefix_names {
                format!("{shown}:{count}")
            } else {
                count.to_string()
            })
        } else {
            None
        }
    }

    async fn input<R: AsyncRead + Unpin>(&mut self, reader: R, shown: &str) -> Flow {
        let opts = self.opts;
        let mut reader = BufReader::with_capacity(READ_BUF, reader);
        // Binary sniff without consuming: fill_buf returns what the buffer holds.
        let is_binary = match reader.fill_buf().await {
            Ok(buf) => buf[..buf.len().min(BINARY_SNIFF)].contains(&0),
            Err(_) => false,
        };
        let mut count: u64 = 0;
        let mut line_no: u64 = 0;
        let mut raw = Vec::new();
        loop {
            raw.clear();
            match (&mut reader)
                .take(MAX_LINE)
                .read_until(b'\n', &mut raw)
                .await
            {
                Ok(0) => break,
                Ok(_) => {}
                Err(e) => {
                    self.error(shown, &e.to_string());
                    break;
                }
            }
            line_no += 1;
            while matches!(raw.last(), Some(b'\n' | b'\r')) {
                raw.pop();
            }
            let text = String::from_utf8_lossy(&raw);
            if opts.regex.is_match(&text) == opts.invert {
                continue;
            }
            count += 1;
            self.any_selected = true;
            if opts.quiet {
                return Flow::Stop;
            }
            if opts.files_with_matches || is_binary {
                break;
            }
            if !opts.count && !self.selected(shown, line_no, &text).await {
                return Flow::Stop;
            }
            if opts.max_count.is_some_and(|m| count >= m) {
                break;
            }
            // Nothing more is buffered: the next read may wait (a live stream), so pass on
            // what was selected so far.
            if reader.buffer().is_empty() && self.out.flush().await.is_err() {
                return Flow::Stop;
            }
        }
        let summary = self.summary(shown, count, is_binary);
        match summary {
            Some(line) if !self.line(&line).await => Flow::Stop,
            _ => Flow::Next,
        }
    }
}

/// Runs grep with `opts`, writing to `out`: over `opts.files`, or over `stdin` when the
/// policy resolved no files (a later pipeline stage).
pub async fn run<R, W>(opts: &GrepOptions, stdin: Option<R>, out: W) -> GrepStatus
where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut run = Run {
        opts,
        out: BufWriter::with_capacity(64 * 1024, out),
        prefix_names: opts.with_filename.unwrap_or(opts.files.len() > 1),
        any_selected: false,
        had_error: false,
        stderr: String::new(),
    };
    if opts.files.is_empty() {
        if let Some(r) = stdin {
            run.input(r, STDIN_NAME).await;
        }
    } else {
        for (path, shown) in &opts.files {
            if path.is_dir() {
                run.error(shown, "是一个目录 (Is a directory)");
                continue;
            }
            let file = match tokio::fs::File::open(path).await {
                Ok(f) => f,
                Err(e) => {
                    let why = match e.kind() {
                        std::io::ErrorKind::NotFound => {
                            "没有那个文件或目录 (No such file or directory)".to_string()
                        }
                        std::io::ErrorKind::PermissionDenied => {
                            "权限不够 (Permission denied)".to_string()
                        }
                        _ => e.to_string(),
                    };
                    run.error(shown, &why);
                    continue;
                }
            };
            if let Flow::Stop = run.input(file, shown).await {
                break;
            }
        }
    }
    if let Err(e) = run.out.flush().await {
        // The next stage exited before reading everything: as with SIGPIPE, not an error.
        tracing::debug!("grep output closed early: {e}");
    }
    let exit_code = if opts.quiet && run.any_selected {
        0
    } else if run.had_error {
        2
    } else if run.any_selected {
        0
    } else {
        1
    };
    GrepStatus {
        exit_code,
        stderr: run.stderr,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use llmops_policy::{CommandPolicy, CommandPolicyConfig, PathPolicy, PathPolicyConfig};
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

    struct Out {
        status: GrepStatus,
        stdout: String,
    }

    async fn grep_in(f: &Fx, args: &[&str], stdin: Option<&[u8]>) -> Out {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let line = if stdin.is_some() {
            "cat x | grep"
        } else {
            "grep"
        };
        let p = f
            .cmds
            .validate_pipeline(line, &args, &f.paths, &[])
            .expect("valid grep");
        let opts = p
            .stages
            .last()
            .and_then(|s| s.grep.clone())
            .expect("grep opts");
        let mut buf: Vec<u8> = Vec::new();
        let status = run(&opts, stdin, &mut buf).await;
        Out {
            status,
            stdout: String::from_utf8(buf).expect("utf8"),
        }
    }

    async fn grep(f: &Fx, args: &[&str]) -> Out {
        grep_in(f, args, None).await
    }

    #[tokio::test]
    async fn tools_grep_basic_flags() {
        let f = fx();
        let o = grep(&f, &["ERROR", "a.log"]).await;
        assert_eq!(
            (o.status.exit_code, o.stdout.as_str()),
            (0, "ERROR disk full\n")
        );
        let o = grep(&f, &["-in", "error", "a.log"]).await;
        assert_eq!(o.stdout, "2:ERROR disk full\n4:Error again\n");
        let o = grep(&f, &["-c", "-i", "error", "a.log"]).await;
        assert_eq!(o.stdout, "2\n");
        let o = grep(&f, &["-v", "-i", "error", "a.log"]).await;
        assert_eq!(o.stdout, "INFO start\ninfo done\n");
        let o = grep(&f, &["-E", "-e", "start", "-e", "done", "a.log"]).await;
        assert_eq!(o.stdout, "INFO start\ninfo done\n");
        let o = grep(&f, &["-E", "start|done", "a.log"]).await;
        assert_eq!(o.stdout, "INFO start\ninfo done\n");
        let o = grep(&f, &["-o", "-i", "err[a-z]+", "a.log"]).await;
        assert_eq!(o.stdout, "ERROR\nError\n");
        let o = grep(&f, &["-m", "1", "-i", "error", "a.log"]).await;
        assert_eq!(o.stdout, "ERROR disk full\n");
        let o = grep(&f, &["nomatch", "a.log"]).await;
        assert_eq!((o.status.exit_code, o.stdout.as_str()), (1, ""));
    }

    #[tokio::test]
    async fn tools_grep_multiple_files_prefix_names() {
        let f = fx();
        let o = grep(&f, &["-n", "ERROR", "a.log", "b.log"]).await;
        assert_eq!(o.stdout, "a.log:2:ERROR disk full\nb.log:2:ERROR net\n");
        let o = grep(&f, &["-c", "ERROR", "a.log", "b.log"]).await;
        assert_eq!(o.stdout, "a.log:1\nb.log:1\n");
        let o = grep(&f, &["-l", "net", "a.log", "b.log"]).await;
        assert_eq!(o.stdout, "b.log\n");
        let o = grep(&f, &["-h", "ERROR", "a.log", "b.log"]).await;
        assert_eq!(o.stdout, "ERROR disk full\nERROR net\n");
    }

    #[tokio::test]
    async fn tools_grep_errors_and_binary() {
        let f = fx();
        let o = grep(&f, &["ERROR", "missing.log", "a.log"]).await;
        assert_eq!(o.status.exit_code, 2);
        assert!(o.status.stderr.contains("missing.log: 没有那个文件或目录"));
        assert_eq!(o.stdout, "a.log:ERROR disk full\n");
        let o = grep(&f, &["x", "dir"]).await;
        assert!(o.status.stderr.contains("是一个目录"), "{:?}", o.status);
        let o = grep(&f, &["ERROR", "bin.dat"]).await;
        assert_eq!(
            o.stdout,
            "匹配到二进制文件: bin.dat (binary file matches)\n"
        );
        // -q stops at the first match.
        let o = grep(&f, &["-q", "ERROR", "a.log", "missing.log"]).await;
        assert_eq!((o.status.exit_code, o.stdout.as_str()), (0, ""));
    }

    #[tokio::test]
    async fn tools_grep_reads_stdin_in_later_stages() {
        let f = fx();
        let input = b"a 1\nb 2\na 3\n";
        let o = grep_in(&f, &["a"], Some(input)).await;
        assert_eq!(o.stdout, "a 1\na 3\n");
        let o = grep_in(&f, &["-c", "a"], Some(input)).await;
        assert_eq!(o.stdout, "2\n");
        let o = grep_in(&f, &["-H", "b"], Some(input)).await;
        assert_eq!(o.stdout, "(standard input):b 2\n");
        // A planted count over many lines, with CRLF endings and a long line.
        let mut big = String::new();
        for i in 0..10_000 {
            if i % 7 == 0 {
                big.push_str(&format!("ERROR {i}\r\n"));
            } else {
                big.push_str(&format!("ok {}\n", "x".repeat(i % 300)));
            }
        }
        let o = grep_in(&f, &["-c", "ERROR"], Some(big.as_bytes())).await;
        assert_eq!(
            o.stdout,
            format!("{}\n", (0..10_000).filter(|i| i % 7 == 0).count())
        );
    }

    #[tokio::test]
    async fn tools_grep_stops_when_the_reader_is_gone() {
        let f = fx();
        fs::write(f.uploads.join("big.log"), "match me\n".repeat(100_000)).expect("write");
        let p = f
            .cmds
            .validate("grep", &["match".into(), "big.log".into()], &f.paths)
            .expect("valid");
        let (w, r) = tokio::io::duplex(1024);
        drop(r);
        let st = run(&p.grep.expect("opts"), None::<&[u8]>, w).await;
        assert_eq!(st.exit_code, 0, "selected lines before the pipe closed");
    }
}
