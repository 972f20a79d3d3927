//! Server-sent events parser (the `text/event-stream` framing of streamed chat completions):
//! bytes in as they come off the network, cut anywhere, events out. Handles LF, CRLF and
//! CR line ends (also a CRLF split across reads), multi-line `data:`, comments/keep-alives
//! and a final event without its blank line. Sans-IO.

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, if any (OpenAI-style streams do not use it).
    pub event: Option<String>,
    /// `data:` lines joined with `\n`.
    pub data: String,
}

/// A line longer than this is a broken or hostile stream, not a chat delta.
pub const MAX_LINE: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("SSE line longer than {MAX_LINE} bytes")]
pub struct LineTooLong;

#[derive(Debug, Default)]
pub struct SseParser {
    /// Bytes of the current, unterminated line. Lines are decoded only when complete, so a
    /// UTF-8 character split across reads is never cut.
    line: Vec<u8>,
    /// The previous chunk ended in CR: a leading LF in the next one belongs to it.
    skip_lf: bool,
    data: String,
    has_data: bool,
    event: Option<String>,
}

impl SseParser {
    pub fn new() -> SseParser {
        SseParser::default()
    }

    /// Feeds bytes; returns the events completed by them.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, LineTooLong> {
        let mut out = Vec::new();
        let mut rest = bytes;
        if self.skip_lf {
            self.skip_lf = false;
            if let Some((&b'\n', r)) = rest.split_first() {
                rest = r;
            }
        }
        while let Some(i) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            self.line.extend_from_slice(&rest[..i]);
            let ended_cr = rest[i] == b'\r';
            rest = &rest[i + 1..];
            if ended_cr {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.skip_lf = true,
                }
            }
            let line = std::mem::take(&mut self.line);
            if let Some(ev) = self.line_done(&line) {
                out.push(ev);
            }
        }
        self.line.extend_from_slice(rest);
        if self.line.len() > MAX_LINE {
            return Err(LineTooLong);
        }
        Ok(out)
    }

    /// The stream ended: an event still pending (no blank line after it) is dispatched.
    pub fn finish(&mut self) -> Option<SseEvent> {
        let line = std::mem::take(&mut self.line);
        if !line.is_empty() {
            if let Some(ev) = self.line_done(&line) {
                return Some(ev);
            }
        }
        self.dispatch()
    }

    fn line_done(&mut self, line: &[u8]) -> Option<SseEvent> {
        if line.is_empty() {
            return self.dispatch();
        }
        if line[0] == b':' {
            return None; // comment / keep-alive
        }
        let text = String::from_utf8_lossy(line);
        let (field, value) = match text.find(':') {
            Some(i) => {
                let v = &text[i + 1..];
                (&text[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (&text[..], ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = Some(value.to_string()),
            _ => {} // id, retry and unknown fields do not matter here
        }
        None
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = self.event.take();
        if !self.has_data {
            return None;
        }
        self.has_data = false;
        Some(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut out = Vec::new();
        for c in chunks {
            out.extend(p.push(c).expect("line ok"));
        }
        out.extend(p.finish());
        out
    }

    fn data(evs: &[SseEvent]) -> Vec<&str> {
        evs.iter().map(|e| e.data.as_str()).collect()
    }

    const STREAM: &str = ": keep-alive\n\ndata: {\"a\":\"你好\"}\n\n: ping\ndata: line1\ndata:line2\n\nevent: x\ndata: y\r\n\r\ndata: [DONE]\n\n";

    #[test]
    fn basic_events() {
        let evs = all(&[STREAM.as_bytes()]);
        assert_eq!(
            data(&evs),
            ["{\"a\":\"你好\"}", "line1\nline2", "y", "[DONE]"]
        );
        assert_eq!(evs[2].event.as_deref(), Some("x"));
    }

    #[test]
    fn split_at_every_byte_index() {
        let bytes = STREAM.as_bytes();
        let whole = all(&[bytes]);
        for i in 0..=bytes.len() {
            assert_eq!(all(&[&bytes[..i], &bytes[i..]]), whole, "split at {i}");
        }
        for i in 0..=bytes.len() {
            for j in i..=bytes.len() {
                assert_eq!(
                    all(&[&bytes[..i], &bytes[i..j], &bytes[j..]]),
                    whole,
                    "split at {i},{j}"
                );
            }
        }
        // One byte at a time.
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(all(&singles), whole);
    }

    #[test]
    fn cr_only_and_crlf_split() {
        assert_eq!(
            data(&all(&[b"data: a\r\r", b"data: b\r", b"\n\r\n"])),
            ["a", "b"]
        );
        assert_eq!(data(&all(&[b"data: a\r", b"\r"])), ["a"]);
    }

    #[test]
    fn final_event_without_blank_line() {
        assert_eq!(data(&all(&[b"data: [DONE]"])), ["[DONE]"]);
        assert_eq!(data(&all(&[b"data: x\n"])), ["x"]);
        assert!(all(&[b": only a comment"]).is_empty());
    }

    #[test]
    fn empty_data_field_is_an_event() {
        assert_eq!(data(&all(&[b"data\n\n"])), [""]);
        assert!(all(&[b"event: e\n\n"]).is_empty());
    }

    #[test]
    fn overlong_line_is_an_error() {
        let mut p = SseParser::new();
        let big = vec![b'a'; MAX_LINE + 1];
        assert_eq!(p.push(&big), Err(LineTooLong));
    }
}
