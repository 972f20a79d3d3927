//! nginx-style configs: `name args { ... }` blocks and `name args;` statements, `#`
//! comments, quoted words; statements end at `;` (or, in a file that never writes one, such
//! as keepalived.conf, at the end of the line). Unbalanced braces are tolerated: a stray
//! `}` is dropped, blocks open at the end are closed.

use super::build::Arena;
use super::Node;

#[derive(Debug, PartialEq)]
enum Tok {
    Word(String),
    Open,
    Close,
    Semi,
    Newline,
}

/// The words and punctuation of the text, each with its 1-based line.
fn tokens(text: &str) -> Vec<(Tok, usize)> {
    let mut out = Vec::new();
    let mut line = 1;
    let mut chars = text.chars().peekable();
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut Vec<(Tok, usize)>, line: usize| {
        if !word.is_empty() {
            out.push((Tok::Word(std::mem::take(word)), line));
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                flush(&mut word, &mut out, line);
                out.push((Tok::Newline, line));
                line += 1;
            }
            '#' if word.is_empty() => {
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '"' | '\'' if word.is_empty() => {
                let start = line;
                let mut s = String::new();
                while let Some(n) = chars.next() {
                    match n {
                        '\\' => {
                            if let Some(e) = chars.next() {
                                s.push(e);
                            }
                        }
                        q if q == c => break,
                        '\n' => {
                            line += 1;
                            s.push(' ');
                        }
                        other => s.push(other),
                    }
                }
                out.push((Tok::Word(s), start));
            }
            '{' | '}' | ';' => {
                flush(&mut word, &mut out, line);
                out.push((
                    match c {
                        '{' => Tok::Open,
                        '}' => Tok::Close,
                        _ => Tok::Semi,
                    },
                    line,
                ));
            }
            c if c.is_whitespace() => flush(&mut word, &mut out, line),
            c => word.push(c),
        }
    }
    flush(&mut word, &mut out, line);
    out
}

/// Parses the text; `None` when it has no block or nests deeper than the cap.
pub(super) fn parse(text: &str) -> Option<Vec<Node>> {
    let lines: Vec<&str> = text.lines().collect();
    let toks = tokens(text);
    if !toks.iter().any(|t| t.0 == Tok::Open) {
        return None;
    }
    let newline_ends = !toks.iter().any(|t| t.0 == Tok::Semi);
    let mut arena = Arena::default();
    let mut open: Vec<usize> = Vec::new();
    let mut words: Vec<(String, usize)> = Vec::new();
    let source = |l: usize| lines.get(l.saturating_sub(1)).copied().unwrap_or("");
    for (tok, line) in toks {
        match tok {
            Tok::Word(w) => words.push((w, line)),
            Tok::Newline if !newline_ends => {}
            Tok::Newline | Tok::Semi => {
                if let Some(n) = statement(&mut words, source) {
                    arena.push(open.last().copied(), n).ok()?;
                }
            }
            Tok::Open => {
                let mut n = statement(&mut words, source)
                    .unwrap_or_else(|| Node::new("", line, source(line)));
                n.value = None;
                open.push(arena.push(open.last().copied(), n).ok()?);
            }
            Tok::Close => {
                if let Some(n) = statement(&mut words, source) {
                    arena.push(open.last().copied(), n).ok()?;
                }
                if let Some(b) = open.pop() {
                    let node = arena.node(b);
                    node.last_line = node.last_line.max(line);
                }
            }
        }
    }
    if let Some(n) = statement(&mut words, source) {
        arena.push(open.last().copied(), n).ok()?;
    }
    Some(arena.into_roots())
}

/// The statement the collected words make (its key, its arguments, its value: the
/// arguments as written).
fn statement<'a>(
    words: &mut Vec<(String, usize)>,
    source: impl Fn(usize) -> &'a str,
) -> Option<Node> {
    if words.is_empty() {
        return None;
    }
    let ws = std::mem::take(words);
    let line = ws[0].1;
    let mut n = Node::new(&ws[0].0, line, source(line));
    n.args = ws[1..].iter().map(|w| w.0.clone()).collect();
    n.value = Some(n.args.join(" "));
    n.last_line = ws.last().map_or(line, |w| w.1);
    Some(n)
}
