//! JSON with the line of every key (serde_json keeps none): objects become keys, arrays
//! list items; `//` and `/* */` comments and trailing commas are accepted (JSONC, as
//! editors and many tools write it). Anything else malformed gives no tree.

use super::{Node, MAX_DEPTH};

struct P<'a> {
    s: &'a [u8],
    lines: Vec<&'a str>,
    i: usize,
    line: usize,
}

/// Parses the text; `None` unless it is one JSON value holding an object or an array.
pub(super) fn parse(text: &str) -> Option<Vec<Node>> {
    let mut p = P {
        s: text.as_bytes(),
        lines: text.lines().collect(),
        i: 0,
        line: 1,
    };
    p.ws();
    let top = p.value("", 0)?;
    p.ws();
    if p.i < p.s.len() || top.children.is_empty() {
        return None;
    }
    Some(top.children)
}

impl P<'_> {
    fn peek(&self) -> Option<u8> {
        self.s.get(self.i).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let c = self.peek()?;
        self.i += 1;
        if c == b'\n' {
            self.line += 1;
        }
        Some(c)
    }

    /// Skips whitespace and comments.
    fn ws(&mut self) {
        loop {
            match (self.peek(), self.s.get(self.i + 1).copied()) {
                (Some(c), _) if c.is_ascii_whitespace() => {
                    self.bump();
                }
                (Some(b'/'), Some(b'/')) => {
                    while self.peek().is_some_and(|c| c != b'\n') {
                        self.bump();
                    }
                }
                (Some(b'/'), Some(b'*')) => {
                    self.i += 2;
                    while self.peek().is_some() && !self.s[self.i..].starts_with(b"*/") {
                        self.bump();
                    }
                    self.i = (self.i + 2).min(self.s.len());
                }
                _ => return,
            }
        }
    }

    fn source(&self, line: usize) -> &str {
        self.lines
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or("")
    }

    /// A value as a node named `key` (a scalar's text as written, without quotes).
    fn value(&mut self, key: &str, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let line = self.line;
        let mut n = Node::new(key, line, self.source(line));
        match self.peek()? {
            b'{' => {
                self.bump();
                self.members(&mut n, depth)?;
            }
            b'[' => {
                self.bump();
                self.elements(&mut n, depth)?;
            }
            b'"' => n.value = Some(self.string()?),
            _ => n.value = Some(self.bare()?),
        }
        n.last_line = self.line;
        Some(n)
    }

    fn members(&mut self, n: &mut Node, depth: usize) -> Option<()> {
        loop {
            self.ws();
            match self.peek()? {
                b'}' => {
                    self.bump();
                    return Some(());
                }
                b'"' => {
                    let key = self.string()?;
                    self.ws();
                    (self.bump()? == b':').then_some(())?;
                    self.ws();
                    n.children.push(self.value(&key, depth + 1)?);
                    self.ws();
                    match self.bump()? {
                        b',' => {}
                        b'}' => return Some(()),
                        _ => return None,
                    }
                }
                _ => return None,
            }
        }
    }

    fn elements(&mut self, n: &mut Node, depth: usize) -> Option<()> {
        loop {
            self.ws();
            if self.peek()? == b']' {
                self.bump();
                return Some(());
            }
            let mut it = self.value("", depth + 1)?;
            it.item = Some(n.children.len());
            n.children.push(it);
            self.ws();
            match self.bump()? {
                b',' => {}
                b']' => return Some(()),
                _ => return None,
            }
        }
    }

    fn string(&mut self) -> Option<String> {
        self.bump();
        let mut out: Vec<u8> = Vec::new();
        loop {
            match self.bump()? {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => match self.bump()? {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' | b'f' => out.push(b' '),
                    b'u' => {
                        let hex = self.s.get(self.i..self.i + 4)?;
                        self.i += 4;
                        let code = u32::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
                        let c = char::from_u32(code).unwrap_or('\u{FFFD}');
                        out.extend_from_slice(c.to_string().as_bytes());
                    }
                    other => out.push(other),
                },
                b'\n' => return None,
                c => out.push(c),
            }
        }
    }

    /// A number, `true`, `false` or `null` as written.
    fn bare(&mut self) -> Option<String> {
        let start = self.i;
        while self
            .peek()
            .is_some_and(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'+' | b'.'))
        {
            self.bump();
        }
        let word = std::str::from_utf8(&self.s[start..self.i]).ok()?;
        let ok = matches!(word, "true" | "false" | "null") || word.parse::<f64>().is_ok();
        ok.then(|| word.to_string())
    }
}
