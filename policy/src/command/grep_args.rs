//! grep's argv: flags, patterns and files. Patterns compile with the linear-time `regex`
//! crate (no backtracking engine ever sees them); the executor runs grep in-process. In a
//! pipeline stage after the first, grep reads standard input and needs no file.

use std::path::PathBuf;

use regex::{Regex, RegexBuilder};

use super::argv::{inline_or_next, split_long, take};
use super::resolve::Resolver;
use super::CommandError;

/// Compiled-regex size cap for grep patterns (bounds memory, not only time).
const GREP_REGEX_SIZE_LIMIT: usize = 1 << 20;

/// A validated grep invocation, run in-process.
#[derive(Debug, Clone)]
pub struct GrepOptions {
    /// The pattern(s) as given.
    pub patterns: Vec<String>,
    /// Compiled matcher (flags -i -F -w -x already applied).
    pub regex: Regex,
    pub invert: bool,
    pub count: bool,
    pub line_number: bool,
    pub files_with_matches: bool,
    pub only_matching: bool,
    pub quiet: bool,
    pub no_messages: bool,
    /// `Some(true)` for -H, `Some(false)` for -h, `None` = prefix when several files.
    pub with_filename: Option<bool>,
    pub max_count: Option<u64>,
    /// Resolved files, and how the user wrote them (grep prints names as given). Empty:
    /// read standard input (only in a pipeline stage after the first).
    pub files: Vec<(PathBuf, String)>,
}

pub(super) fn grep_unsupported(option: &str) -> CommandError {
    let hint = match option {
        "-P" | "--perl-regexp" => "（不支持回溯正则 / backtracking regex is disabled）",
        "-r" | "-R" | "--recursive" | "--dereference-recursive" => {
            "（不支持递归搜索，请列出具体文件 / list files explicitly）"
        }
        _ => "（支持 -i -n -c -v -E -F -G -w -x -H -h -l -o -q -s -m N -e PATTERN）",
    };
    CommandError::UnsupportedOption {
        command: "grep".to_string(),
        option: option.to_string(),
        hint: hint.to_string(),
    }
}

/// Parses grep's argv. `stdin` is true in a pipeline stage after the first: then file
/// operands are optional (none = read the previous stage's output).
pub fn parse_grep(
    args: &[String],
    stdin: bool,
    res: &mut Resolver<'_>,
) -> Result<GrepOptions, CommandError> {
    let mut scan = GrepScan::scan(args)?;
    if scan.patterns.is_empty() {
        if scan.operands.is_empty() {
            return Err(CommandError::GrepMissingPattern);
        }
        scan.patterns.push(scan.operands.remove(0));
    }
    let files = resolve_files(&scan.operands, stdin, res)?;
    let regex = scan.compile()?;
    let GrepScan { patterns, opts, .. } = scan;
    Ok(GrepOptions {
        patterns,
        regex,
        invert: opts.invert,
        count: opts.count,
        line_number: opts.line_number,
        files_with_matches: opts.files_with_matches,
        only_matching: opts.only_matching,
        quiet: opts.quiet,
        no_messages: opts.no_messages,
        with_filename: opts.with_filename,
        max_count: opts.max_count,
        files,
    })
}

/// What grep's flags and operands say before any file is resolved: the matcher settings
/// (which shape the regex) apart from the output flags.
#[derive(Default)]
struct GrepScan {
    patterns: Vec<String>,
    operands: Vec<String>,
    ignore_case: bool,
    fixed: bool,
    word: bool,
    line: bool,
    opts: GrepFlags,
}

impl GrepScan {
    /// Splits `args` into flags, patterns and operands; refuses unknown and file-reading
    /// options.
    fn scan(args: &[String]) -> Result<Self, CommandError> {
        let mut scan = Self::default();
        let mut only_operands = false;
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].clone();
            i += 1;
            if only_operands || arg == "-" || !arg.starts_with('-') {
                scan.operands.push(arg);
                continue;
            }
            if arg == "--" {
                only_operands = true;
                continue;
            }
            if let Some(long) = arg.strip_prefix("--") {
                scan.long_option(long, &arg, args, &mut i)?;
                continue;
            }
            scan.short_cluster(&arg, args, &mut i)?;
        }
        Ok(scan)
    }

    /// One `--name` or `--name=value` option; `arg` is it as written.
    fn long_option(
        &mut self,
        long: &str,
        arg: &str,
        args: &[String],
        i: &mut usize,
    ) -> Result<(), CommandError> {
        let opts = &mut self.opts;
        let (name, inline) = split_long(long);
        match name {
            "ignore-case" => self.ignore_case = true,
            "no-ignore-case" => self.ignore_case = false,
            "line-number" => opts.line_number = true,
            "count" => opts.count = true,
            "invert-match" => opts.invert = true,
            "extended-regexp" | "basic-regexp" => self.fixed = false,
            "fixed-strings" => self.fixed = true,
            "word-regexp" => self.word = true,
            "line-regexp" => self.line = true,
            "with-filename" => opts.with_filename = Some(true),
            "no-filename" => opts.with_filename = Some(false),
            "files-with-matches" => opts.files_with_matches = true,
            "only-matching" => opts.only_matching = true,
            "quiet" | "silent" => opts.quiet = true,
            "no-messages" => opts.no_messages = true,
            "color" | "colour" => {}
            "regexp" => {
                let v = inline_or_next(inline, args, i, arg)?;
                self.patterns.push(v);
            }
            "max-count" => {
                let v = inline_or_next(inline, args, i, arg)?;
                opts.max_count = Some(parse_count(arg, &v)?);
            }
            "file" | "exclude-from" | "files0-from" => {
                return Err(CommandError::FileOption {
                    command: "grep".into(),
                    option: format!("--{name}"),
                })
            }
            _ => return Err(grep_unsupported(&format!("--{name}"))),
        }
        Ok(())
    }

    /// A cluster of short flags such as `-inm5` or `-e PATTERN`.
    fn short_cluster(
        &mut self,
        arg: &str,
        args: &[String],
        i: &mut usize,
    ) -> Result<(), CommandError> {
        let opts = &mut self.opts;
        let body: Vec<char> = arg[1..].chars().collect();
        let mut k = 0;
        while k < body.len() {
            let c = body[k];
            k += 1;
            match c {
                'i' | 'y' => self.ignore_case = true,
                'n' => opts.line_number = true,
                'c' => opts.count = true,
                'v' => opts.invert = true,
                'E' | 'G' => self.fixed = false,
                'F' => self.fixed = true,
                'w' => self.word = true,
                'x' => self.line = true,
                'H' => opts.with_filename = Some(true),
                'h' => opts.with_filename = Some(false),
                'l' => opts.files_with_matches = true,
                'o' => opts.only_matching = true,
                'q' => opts.quiet = true,
                's' => opts.no_messages = true,
                'e' | 'm' => {
                    let rest: String = body[k..].iter().collect();
                    let v = if rest.is_empty() {
                        take(args, i, arg)?
                    } else {
                        rest
                    };
                    if c == 'e' {
                        self.patterns.push(v);
                    } else {
                        opts.max_count = Some(parse_count(arg, &v)?);
                    }
                    k = body.len();
                }
                'f' => {
                    return Err(CommandError::FileOption {
                        command: "grep".into(),
                        option: "-f".into(),
                    })
                }
                other => return Err(grep_unsupported(&format!("-{other}"))),
            }
        }
        Ok(())
    }

    /// Compiles the patterns as one alternation, with -F -w -x -i applied.
    fn compile(&self) -> Result<Regex, CommandError> {
        let alternatives: Vec<String> = self
            .patterns
            .iter()
            .map(|p| {
                let body = if self.fixed {
                    regex::escape(p)
                } else {
                    p.clone()
                };
                if self.line {
                    format!("^(?:{body})$")
                } else if self.word {
                    format!(r"\b(?:{body})\b")
                } else {
                    format!("(?:{body})")
                }
            })
            .collect();
        let joined = alternatives.join("|");
        RegexBuilder::new(&joined)
            .case_insensitive(self.ignore_case)
            .size_limit(GREP_REGEX_SIZE_LIMIT)
            .dfa_size_limit(GREP_REGEX_SIZE_LIMIT)
            .build()
            .map_err(|e| CommandError::GrepInvalidPattern {
                pattern: self.patterns.join(" | "),
                reason: e
                    .to_string()
                    .lines()
                    .last()
                    .unwrap_or("invalid")
                    .trim()
                    .to_string(),
            })
    }
}

/// Resolves the file operands through the path policy. `-` (standard input) is only the
/// sole operand of a pipeline stage after the first.
fn resolve_files(
    operands: &[String],
    stdin: bool,
    res: &mut Resolver<'_>,
) -> Result<Vec<(PathBuf, String)>, CommandError> {
    if operands.is_empty() && !stdin {
        return Err(CommandError::GrepMissingFile);
    }
    let mut files = Vec::with_capacity(operands.len());
    for op in operands {
        if op == "-" {
            if stdin && operands.len() == 1 {
                break;
            }
            return Err(CommandError::GrepMissingFile);
        }
        files.push((res.path(op)?, op.clone()));
    }
    Ok(files)
}

#[derive(Default)]
struct GrepFlags {
    invert: bool,
    count: bool,
    line_number: bool,
    files_with_matches: bool,
    only_matching: bool,
    quiet: bool,
    no_messages: bool,
    with_filename: Option<bool>,
    max_count: Option<u64>,
}

fn parse_count(option: &str, v: &str) -> Result<u64, CommandError> {
    v.parse().map_err(|_| CommandError::UnsupportedOption {
        command: "grep".into(),
        option: format!("{option} {v}"),
        hint: "（需要一个非负整数 / expects a number）".into(),
    })
}
