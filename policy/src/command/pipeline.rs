//! Splits a command line into pipeline stages without a shell: words separated by blanks,
//! simple '…' and "…" quoting, and a plain `|` between stages. Every other shell operator is
//! refused: `; & > < ` $` and line breaks anywhere, `( )` outside quotes (`FORBIDDEN_ARG_CHARS`),
//! `||` and `|&`. Backslashes outside double quotes are plain characters.

use super::{CommandError, FORBIDDEN_ARG_CHARS};

/// At most this many stages in one pipeline.
pub const MAX_STAGES: usize = 5;

/// Refused in every word, quoted or not: they mean something to a shell even inside double
/// quotes, or separate commands, and no supported command needs them.
pub const ALWAYS_FORBIDDEN: &[char] = &[';', '&', '>', '<', '`', '$', '\n', '\r', '\0'];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Word(String),
    Pipe,
}

fn illegal(ch: char, arg: &str) -> CommandError {
    CommandError::IllegalChar {
        ch,
        arg: arg.to_string(),
    }
}

/// Tokenizes a whole command line.
fn tokenize(line: &str) -> Result<Vec<Token>, CommandError> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if in_word {
                    out.push(Token::Word(std::mem::take(&mut word)));
                    in_word = false;
                }
            }
            '|' => {
                match chars.peek() {
                    Some('|') => return Err(CommandError::ShellOperator { op: "||".into() }),
                    Some('&') => return Err(CommandError::ShellOperator { op: "|&".into() }),
                    _ => {}
                }
                if in_word {
                    out.push(Token::Word(std::mem::take(&mut word)));
                    in_word = false;
                }
                out.push(Token::Pipe);
            }
            '\'' | '"' => {
                in_word = true;
                let mut closed = false;
                while let Some(q) = chars.next() {
                    if q == c {
                        closed = true;
                        break;
                    }
                    if c == '"' && q == '\\' && matches!(chars.peek(), Some('"' | '\\')) {
                        if let Some(escaped) = chars.next() {
                            word.push(escaped);
                        }
                        continue;
                    }
                    if ALWAYS_FORBIDDEN.contains(&q) {
                        return Err(illegal(q, line));
                    }
                    word.push(q);
                }
                if !closed {
                    return Err(CommandError::UnterminatedQuote { quote: c });
                }
            }
            // Outside quotes (`|` was handled above); inside quotes only ALWAYS_FORBIDDEN.
            c if ALWAYS_FORBIDDEN.contains(&c) || FORBIDDEN_ARG_CHARS.contains(&c) => {
                return Err(illegal(c, line));
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        out.push(Token::Word(word));
    }
    Ok(out)
}

/// One argument from the `args` array: literal text, except that an element that is exactly
/// `|` separates stages.
fn arg_token(arg: &str) -> Result<Token, CommandError> {
    match arg {
        "|" => Ok(Token::Pipe),
        "||" | "|&" => Err(CommandError::ShellOperator { op: arg.into() }),
        _ => match arg.chars().find(|c| ALWAYS_FORBIDDEN.contains(c)) {
            Some(ch) => Err(illegal(ch, arg)),
            None => Ok(Token::Word(arg.to_string())),
        },
    }
}

/// Splits `command` (a whole line or a bare name) plus the literal `args` into stages, each
/// a non-empty word list (program first).
pub fn split_stages(command: &str, args: &[String]) -> Result<Vec<Vec<String>>, CommandError> {
    let mut tokens = tokenize(command)?;
    for a in args {
        tokens.push(arg_token(a)?);
    }
    if tokens.is_empty() {
        return Err(CommandError::Empty);
    }
    let mut stages: Vec<Vec<String>> = vec![Vec::new()];
    for t in tokens {
        match t {
            Token::Word(w) => {
                if let Some(last) = stages.last_mut() {
                    last.push(w);
                }
            }
            Token::Pipe => stages.push(Vec::new()),
        }
    }
    if stages.iter().any(Vec::is_empty) {
        return Err(CommandError::EmptyStage);
    }
    if stages.len() > MAX_STAGES {
        return Err(CommandError::TooManyStages {
            count: stages.len(),
            max: MAX_STAGES,
        });
    }
    Ok(stages)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(line: &str) -> Result<Vec<Vec<String>>, CommandError> {
        split_stages(line, &[])
    }

    fn words(v: &[&[&str]]) -> Vec<Vec<String>> {
        v.iter()
            .map(|s| s.iter().map(|w| w.to_string()).collect())
            .collect()
    }

    #[test]
    fn policy_pipeline_splits_on_plain_pipes() {
        assert_eq!(
            split("ps aux | grep nginx | head -20").expect("ok"),
            words(&[&["ps", "aux"], &["grep", "nginx"], &["head", "-20"]])
        );
        assert_eq!(
            split("ps aux|grep nginx").expect("no blanks"),
            words(&[&["ps", "aux"], &["grep", "nginx"]])
        );
        // Quoted pipes are text.
        assert_eq!(
            split(r#"grep "a|b" f"#).expect("quoted"),
            words(&[&["grep", "a|b", "f"]])
        );
        assert_eq!(
            split("grep -E 'error|warn (x)' f").expect("single quoted"),
            words(&[&["grep", "-E", "error|warn (x)", "f"]])
        );
        assert_eq!(
            split(r#"grep "say \"hi\"" f"#).expect("escaped quote"),
            words(&[&["grep", "say \"hi\"", "f"]])
        );
        assert_eq!(
            split("grep '' f").expect("empty word"),
            words(&[&["grep", "", "f"]])
        );
        // The args array: literal words, an exact `|` separates.
        let args: Vec<String> = ["aux", "|", "head", "a|b"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(
            split_stages("ps", &args).expect("args"),
            words(&[&["ps", "aux"], &["head", "a|b"]])
        );
    }

    #[test]
    fn policy_pipeline_refuses_other_operators() {
        for (line, code) in [
            ("ls || reboot", "shell_operator"),
            ("ls |& cat", "shell_operator"),
            ("ls ; reboot", "illegal_char"),
            ("ls && reboot", "illegal_char"),
            ("ls > out", "illegal_char"),
            ("cat < in", "illegal_char"),
            ("echo `id`", "illegal_char"),
            ("echo $(id)", "illegal_char"),
            ("ls (x)", "illegal_char"),
            ("ls\nreboot", "illegal_char"),
            ("grep '$HOME' f", "illegal_char"),
            ("grep \"a;b\" f", "illegal_char"),
            ("grep 'abc f", "unterminated_quote"),
            ("| ls", "empty_stage"),
            ("ls |", "empty_stage"),
            ("ls | | wc", "empty_stage"),
            ("ls | wc | wc | wc | wc | wc", "too_many_stages"),
            ("", "empty"),
            ("   ", "empty"),
        ] {
            let e = split(line).expect_err(line);
            assert_eq!(e.code(), code, "{line}: {e}");
        }
        for bad in ["||", "|&"] {
            let e = split_stages("ls", &[bad.to_string()]).expect_err(bad);
            assert_eq!(e.code(), "shell_operator");
        }
        assert_eq!(
            split("ls || reboot").expect_err("||").to_string(),
            "不支持的 shell 操作符: ||（命令不经过 shell，只支持单个 | 管道 / only plain `|` pipes are supported）"
        );
        assert_eq!(split("a|b|c|d|e").expect("five stages").len(), MAX_STAGES);
    }
}
