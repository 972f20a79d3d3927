//! Lines into events: one line per event, or, for multi-line formats, a start line and the
//! continuation lines below it (a Java stack trace, a MySQL slow-log entry) as one event.

use super::def::Multiline;

/// One event handed to the consumer.
pub struct EventRef<'a> {
    pub text: &'a [u8],
    /// 0-based line number (within the part) of the event's first line.
    pub line: u64,
    pub nlines: u64,
}

/// Groups lines into events by a format's multi-line rules.
pub struct Assembler<'f> {
    ml: &'f Multiline,
    buf: Vec<u8>,
    first: u64,
    nlines: u64,
    /// Every line of the current event so far matched `header`.
    only_header: bool,
    /// A start has been seen (before it, a `preamble` format's lines are no events).
    started: bool,
}

impl<'f> Assembler<'f> {
    pub fn new(ml: &'f Multiline) -> Self {
        Assembler {
            ml,
            buf: Vec::with_capacity(4096),
            first: 0,
            nlines: 0,
            only_header: false,
            started: false,
        }
    }

    fn is_start(&self, line: &str) -> bool {
        self.ml.start.as_ref().is_some_and(|re| re.is_match(line))
            && !(self.nlines > 0 && self.ml.attach.as_ref().is_some_and(|re| re.is_match(line)))
    }

    /// Feeds one line (without its newline); `emit` receives every finished event.
    pub fn push(&mut self, line: &[u8], line_no: u64, emit: &mut dyn FnMut(EventRef<'_>)) {
        // A JSON object starts an event, read from its bytes: no text check on each line
        // of a JSON log, and a line with a stray non-UTF-8 byte still starts one.
        if self.ml.object_start && opens_object(line) {
            self.flush(emit);
            self.begin(line, line_no, false);
            return;
        }
        let s = std::str::from_utf8(line).unwrap_or("");
        let header = self.ml.header.as_ref().is_some_and(|re| re.is_match(s));
        if self.is_start(s) {
            if self.nlines > 0 && self.only_header {
                self.append(line, header);
                return;
            }
            self.flush(emit);
            self.begin(line, line_no, header);
            return;
        }
        let attached = self.ml.attach.as_ref().is_some_and(|re| re.is_match(s));
        let own = self.ml.own_record.as_ref().is_some_and(|re| re.is_match(s));
        let continues = self.nlines > 0
            && (attached || (!own && self.ml.cont.as_ref().is_none_or(|re| re.is_match(s))));
        if continues {
            self.append(line, header);
        } else if self.ml.preamble && !self.started {
            // The file's preamble: no event.
        } else {
            self.flush(emit);
            emit(EventRef {
                text: line,
                line: line_no,
                nlines: 1,
            });
        }
    }

    /// Whether an event starts at `line` whatever came before it but the line `prev`: a
    /// file may be cut there into parts read apart, which then read the same events.
    pub fn starts_whatever_before(ml: &Multiline, prev: &[u8], line: &[u8]) -> bool {
        if ml.object_start && opens_object(line) {
            return true;
        }
        let matches = |re: &Option<regex::Regex>, l: &[u8]| {
            re.as_ref()
                .is_some_and(|re| std::str::from_utf8(l).is_ok_and(|s| re.is_match(s)))
        };
        // A start under a header-only event joins it; a start that may attach never splits.
        matches(&ml.start, line) && !matches(&ml.attach, line) && !matches(&ml.header, prev)
    }

    fn begin(&mut self, line: &[u8], line_no: u64, header: bool) {
        self.buf.clear();
        self.buf.extend_from_slice(line);
        self.first = line_no;
        self.nlines = 1;
        self.started = true;
        self.only_header = header;
    }

    fn append(&mut self, line: &[u8], header: bool) {
        self.buf.push(b'\n');
        self.buf.extend_from_slice(line);
        self.nlines += 1;
        self.only_header &= header;
    }

    /// Emits the event being built, if any.
    pub fn flush(&mut self, emit: &mut dyn FnMut(EventRef<'_>)) {
        if self.nlines > 0 {
            emit(EventRef {
                text: &self.buf,
                line: self.first,
                nlines: self.nlines,
            });
            self.nlines = 0;
        }
    }
}

/// The line's first non-blank byte is `{`.
fn opens_object(line: &[u8]) -> bool {
    line.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'{')
}

/// Splits `data` into lines (without `\n` or a final `\r`), calling `f` with each.
pub fn for_each_line<'a>(data: &'a [u8], mut f: impl FnMut(&'a [u8])) {
    let mut pos = 0;
    for nl in memchr::memchr_iter(b'\n', data) {
        f(strip_cr(&data[pos..nl]));
        pos = nl + 1;
    }
    if pos < data.len() {
        f(strip_cr(&data[pos..]));
    }
}

pub fn strip_cr(line: &[u8]) -> &[u8] {
    match line.last() {
        Some(b'\r') => &line[..line.len() - 1],
        _ => line,
    }
}
