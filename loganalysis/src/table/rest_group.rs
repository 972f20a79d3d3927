//! A regex format whose last group takes the rest of the line (`… (?P<message>.*)`) read
//! with the regex up to that group: the regex engine then captures over the line's head
//! only, and the rest of the line is the group. The same captures, about twice as fast
//! (the captures ran over the whole message, byte by byte).
//!
//! Why it is exact: under leftmost-first matching the regex `H(?P<m>.*)` takes the first
//! way `H` matches in priority order, as `.*` matches whatever follows; so `H`'s captures
//! are the same and `m` runs from `H`'s end to the line's end. With a final `$` (the end
//! of the text), that holds when no newline follows `H`'s match; otherwise the whole regex
//! reads the text. Regexes with inline flags (which could change `.` or `$`) are left whole.

use regex::{CaptureLocations, Regex};
use regex_syntax::ast::{self, Ast, GroupKind, RepetitionKind, RepetitionOp};

/// The regex without its last group, and what the group was.
#[derive(Debug, Clone)]
pub struct RestGroup {
    head: Regex,
    /// The group's index in the whole regex (the last group).
    group: usize,
    /// The regex ends in `$`: the rest must run to the end of the text.
    to_end: bool,
}

impl RestGroup {
    /// The head of `src` (compiled as `re`) when its last item is a `(?P<name>.*)` group,
    /// optionally followed by `$`.
    pub fn of(src: &str, re: &Regex) -> Option<RestGroup> {
        if has_inline_flags(src) {
            return None;
        }
        let parsed = ast::parse::Parser::new().parse(src).ok()?;
        let Ast::Concat(concat) = &parsed else {
            return None;
        };
        let mut items: &[Ast] = &concat.asts;
        let to_end = matches!(
            items.last(),
            Some(Ast::Assertion(a)) if a.kind == ast::AssertionKind::EndLine
        );
        if to_end {
            items = &items[..items.len() - 1];
        }
        let Some(Ast::Group(g)) = items.last() else {
            return None;
        };
        if !matches!(g.kind, GroupKind::CaptureName { .. }) || !any_line(&g.ast) {
            return None;
        }
        let head = Regex::new(&src[..g.span.start.offset]).ok()?;
        // The group is the last one opened, so the head has every other group at the
        // same index.
        let group = re.captures_len() - 1;
        (head.captures_len() == group).then_some(RestGroup {
            head,
            group,
            to_end,
        })
    }
}

/// `.*`, greedy.
fn any_line(a: &Ast) -> bool {
    let Ast::Repetition(r) = a else {
        return false;
    };
    matches!(
        r.op,
        RepetitionOp {
            kind: RepetitionKind::ZeroOrMore,
            ..
        }
    ) && r.greedy
        && matches!(*r.ast, Ast::Dot(_))
}

/// Whether `src` may hold an inline flag group (`(?s)`, `(?m:…)`); conservative: an
/// escaped parenthesis before `?` counts too, and such a regex is only left whole.
fn has_inline_flags(src: &str) -> bool {
    src.as_bytes().windows(3).any(|w| {
        w[0] == b'('
            && w[1] == b'?'
            && matches!(w[2], b'i' | b'm' | b's' | b'U' | b'u' | b'x' | b'R' | b'-')
    })
}

/// Capture locations of a regex format's line, read by the head where it can be.
#[derive(Debug, Clone)]
pub struct RegexLocs<'f> {
    re: &'f Regex,
    full: CaptureLocations,
    /// The head and its locations, for a regex with a rest group.
    head: Option<(&'f RestGroup, CaptureLocations)>,
    /// The rest group's span when the head read the line.
    rest: Option<(usize, usize)>,
}

impl<'f> RegexLocs<'f> {
    pub fn new(re: &'f Regex, rest: Option<&'f RestGroup>) -> Self {
        RegexLocs {
            re,
            full: re.capture_locations(),
            head: rest.map(|r| (r, r.head.capture_locations())),
            rest: None,
        }
    }

    /// Reads `s` (through the head when there is one); whether it matched.
    pub fn read(&mut self, s: &str) -> bool {
        self.rest = None;
        if let Some((r, locs)) = self.head.as_mut() {
            let Some(m) = r.head.captures_read(locs, s) else {
                return false;
            };
            let newline = memchr::memchr(b'\n', &s.as_bytes()[m.end()..]).map(|p| m.end() + p);
            if !(r.to_end && newline.is_some()) {
                self.rest = Some((m.end(), newline.unwrap_or(s.len())));
                return true;
            }
        }
        self.re.captures_read(&mut self.full, s).is_some()
    }

    /// The span of group `i` of the whole regex in the line last read.
    pub fn get(&self, i: usize) -> Option<(usize, usize)> {
        match (self.rest, &self.head) {
            (Some(span), Some((r, _))) if i == r.group => Some(span),
            (Some(span), Some((_, head))) if i == 0 => head.get(0).map(|(a, _)| (a, span.1)),
            (Some(_), Some((_, head))) => head.get(i),
            _ => self.full.get(i),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests_formats::Lcg;
    use super::*;

    /// Each group's span, by index.
    type Spans = Vec<Option<(usize, usize)>>;

    /// Every group's span of `line` through the head and through the whole regex.
    fn both(re: &Regex, rest: &RestGroup, line: &str) -> (Spans, Spans) {
        let mut fast = RegexLocs::new(re, Some(rest));
        let mut slow = RegexLocs::new(re, None);
        let (a, b) = (fast.read(line), slow.read(line));
        let spans = |l: &RegexLocs, ok: bool| {
            (0..re.captures_len())
                .map(|i| if ok { l.get(i) } else { None })
                .collect::<Vec<_>>()
        };
        (spans(&fast, a), spans(&slow, b))
    }

    fn compiled(src: &str) -> (Regex, RestGroup) {
        let re = Regex::new(src).expect("test regex");
        let rest = RestGroup::of(src, &re).expect("the regex has a rest group");
        (re, rest)
    }

    #[test]
    fn only_a_last_rest_group_without_flags_is_split_off() {
        let of = |s: &str| RestGroup::of(s, &Regex::new(s).expect("test regex"));
        assert!(of(r"^(?P<a>\w+) (?P<message>.*)").is_some());
        assert!(of(r"^(?P<a>\w+) (?P<message>.*)$").is_some());
        assert!(of(r"^(?P<a>\w+) (?P<message>.+)").is_none());
        assert!(of(r"^(?P<a>\w+) (?P<message>.*?)").is_none());
        assert!(of(r"^(?P<a>\w+) (?P<message>.*) x").is_none());
        assert!(of(r"^(?P<a>\w+)|(?P<message>.*)").is_none());
        assert!(of(r"(?s)^(?P<a>\w+) (?P<message>.*)").is_none());
        assert!(of(r"^(?m:(?P<a>\w+)) (?P<message>.*)").is_none());
        assert!(
            of(r"^(?P<a>\w+) (.*)").is_none(),
            "an unnamed group is no field"
        );
    }

    #[test]
    fn head_and_whole_regex_capture_alike_on_random_lines() {
        // Lazy columns, optional groups and a trailing `$`: the shapes learned layouts and
        // shipped formats write, over lines of the characters they hinge on.
        let regexes = [
            r"^(?P<time>\d+:\d+)[ \t]*\[[ \t]*(?P<level>[^\]]*?)[ \t]*\][ \t]*(?P<logger>[^ \t]+?) *:(?:[ \t]|$)[ \t]*(?P<message>.*)",
            r"^(?P<time>\d+:\d+)(?:[ \t]*\((?P<thread>[^)]*?)\))?[ \t]*(?P<logger>[^ \t]+)[ \t]*(?P<message>.*)$",
            r"^(?P<a>\w+)(?: (?P<b>\d+))? - (?P<message>.*)",
            r"(?P<level>[A-Z]+): (?P<message>.*)$",
        ];
        let alphabet: Vec<char> = "0123456789:[]() \t\n-abcXYZé".chars().collect();
        let mut rng = Lcg(11);
        let mut matched = 0;
        let leads = ["12:30 [ W ] db : ", "1:2 (t 1) a ", "x 5 - ", "ERR: "];
        for (src, lead) in regexes.iter().zip(leads) {
            let (re, rest) = compiled(src);
            for _ in 0..4000 {
                let mut line = String::new();
                // Most lines start as the regex expects, so both readings are exercised.
                if rng.next(4) > 0 {
                    line.push_str(lead);
                }
                for _ in 0..rng.next(24) {
                    line.push(alphabet[rng.next(alphabet.len() as u64) as usize]);
                }
                let (fast, slow) = both(&re, &rest, &line);
                assert_eq!(fast, slow, "regex {src:?}, line {line:?}");
                matched += usize::from(slow[0].is_some());
            }
        }
        assert!(
            matched > 8000,
            "few lines matched ({matched}): the test reads little"
        );
    }

    #[test]
    fn a_final_dollar_with_a_newline_after_the_head_reads_the_whole_regex() {
        let (re, rest) = compiled(r"^(?P<a>\w+) (?P<message>.*)$");
        let (fast, slow) = both(&re, &rest, "abc def\nmore");
        assert_eq!(fast, slow);
        assert_eq!(slow[0], None);
        let (re, rest) = compiled(r"^(?P<a>\w+) (?P<message>.*)");
        let (fast, slow) = both(&re, &rest, "abc def\nmore");
        assert_eq!(fast, slow);
        assert_eq!(fast[2], Some((4, 7)));
    }

    #[test]
    fn shipped_formats_read_their_test_lines_alike_through_the_head() {
        let mut split = 0;
        for f in crate::table::builtin_registry().formats() {
            let (super::super::def::Parser::Regex(re), Some(rest)) = (&f.parser, &f.rest_group)
            else {
                continue;
            };
            split += 1;
            for t in &f.tests {
                // Each line alone, and each event's lines together as a multi-line event.
                let lines = t.input.lines().chain(std::iter::once(t.input.as_str()));
                for line in lines {
                    let (fast, slow) = both(re, rest, line);
                    assert_eq!(fast, slow, "format {}, line {line:?}", f.name);
                }
            }
        }
        assert!(
            split >= 20,
            "only {split} shipped formats read through the head"
        );
    }
}
