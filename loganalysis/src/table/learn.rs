//! A layout learned from a log's sample when no shipped format reads more than its time and
//! level: the shape of the timestamp at the line start marks where events begin (lines
//! between are the event's continuation: a stack trace, a traceback, an indented detail),
//! and the columns between the time and the message (a level, a bracketed thread, a pid, a
//! logger ending in `:`, `|`-separated fields) become fields with roles by the shape of
//! their values. The result is a format definition compiled like a shipped one, so every
//! query reads the file the same way.

use std::fmt::Write as _;

use super::def::{compile, Format};
use crate::level::word_level;
use crate::ts;

mod columns;

use columns::{
    column_regex, columns, is_identifier, layout, naming, unique, Column, Kind, LETTERS, SHARE,
};

/// Share (percent) of sampled lines not indented that must begin with a time for the
/// layout to be learned.
const MIN_START_SHARE: usize = 50;
/// Share (percent) of those lines a layout of records of several lines needs.
const MIN_RECORD_SHARE: usize = 4;
/// Fewest event starts to learn from.
const MIN_STARTS: usize = 5;

/// How a line's leading time is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clock {
    /// Any form the timestamp parser knows (ISO, ctime, syslog, epoch).
    Auto,
    /// `11-30 09:15:02.123`, declared because it is too plain to guess elsewhere.
    MonthDay,
    /// `03/29/26,00:03:06`, `11/30/2026, 9:15:02 AM`: which number is the month is read
    /// from the whole sample.
    Slash,
    /// `09:15:02.123` at the line's start: a time of day alone.
    TimeOfDay,
}

/// Header tokens that may stand before the time (`[Nest] 4312  - 11/30/2026, ...`).
const MAX_PREFIX_TOKENS: usize = 3;

/// Where a line's leading time is.
#[derive(Debug, Clone, Copy)]
struct Lead {
    clock: Clock,
    /// Blank-separated tokens before it.
    prefix: usize,
    start: usize,
    end: usize,
    bracketed: bool,
}

/// The time at the line start, or after at most [`MAX_PREFIX_TOKENS`] tokens.
fn leading_time(line: &[u8]) -> Option<Lead> {
    let mut at = 0;
    for prefix in 0..=MAX_PREFIX_TOKENS {
        if let Some(lead) = time_at(line, at, prefix) {
            return Some(lead);
        }
        at += line[at..].iter().position(|b| matches!(b, b' ' | b'\t'))?;
        at += line[at..].iter().position(|b| !matches!(b, b' ' | b'\t'))?;
    }
    None
}

/// A time starting at `at` (after an optional `[`) that a blank, a separator or the line
/// end follows.
fn time_at(line: &[u8], at: usize, prefix: usize) -> Option<Lead> {
    let bracketed = line.get(at) == Some(&b'[');
    let i = at + usize::from(bracketed);
    let (clock, end) = if let Some((_, end)) = ts::parse_at(line, i) {
        (Clock::Auto, end)
    } else if let Some((_, end)) = ts::month_day_dashed(line, i) {
        (Clock::MonthDay, end)
    } else if let Some((_, end)) =
        ts::slash_date(line, i, false).or_else(|| ts::slash_date(line, i, true))
    {
        // Month first or day first: the sample decides which, from all its dates.
        (Clock::Slash, end)
    } else if let Some((_, end)) = ts::clock_only(line, i).filter(|_| prefix == 0) {
        // A clock alone is too plain to look for after other tokens.
        (Clock::TimeOfDay, end)
    } else {
        // Epoch seconds to nanoseconds (the parser takes 10, 13, 16 or 19 digits).
        let (_, end) = ts::epoch(line, i)?;
        (Clock::Auto, end)
    };
    if bracketed && line.get(end) != Some(&b']') {
        return None;
    }
    let after = line.get(end + usize::from(bracketed));
    let joined_bracket = bracketed && after == Some(&b'[');
    (joined_bracket || matches!(after, None | Some(b' ' | b'\t' | b'|' | b',' | b':'))).then_some(
        Lead {
            clock,
            prefix,
            start: i,
            end,
            bracketed,
        },
    )
}

/// The `time_format` a learned definition declares for slashed dates.
pub(super) fn slash_format(day_first: bool) -> &'static str {
    if day_first {
        "slash_day_first"
    } else {
        "slash_month_first"
    }
}

/// The time's written shape as a regex: digit runs `\d+`, letter runs `[A-Za-z]+`, blanks
/// ` +`, other bytes as themselves.
pub(super) fn shape(text: &str) -> String {
    let mut out = String::new();
    let mut last = ' ';
    let class_of = |c: char| {
        if c.is_ascii_digit() {
            'd'
        } else if c.is_ascii_alphabetic() {
            'a'
        } else if c == ' ' {
            's'
        } else {
            c
        }
    };
    for c in text.chars() {
        let class = class_of(c);
        let run = matches!(class, 'd' | 'a' | 's') && class == last;
        if !run {
            match class {
                'd' => out.push_str(r"\d+"),
                'a' => out.push_str("[A-Za-z]+"),
                's' => out.push_str(" +"),
                _ => out.push_str(&regex::escape(&c.to_string())),
            }
        }
        last = class;
    }
    out
}

/// The layout of `lines` (a sample's non-empty lines) as a format, when most lines begin
/// with a time of one shape and the lines between read as continuations; and whether the
/// sample shows events of several lines.
pub fn learn(lines: &[&[u8]]) -> Option<(Format, bool)> {
    let texts: Vec<&str> = lines
        .iter()
        .filter_map(|l| std::str::from_utf8(l).ok())
        .collect();
    let leads: Vec<Option<Lead>> = texts.iter().map(|t| leading_time(t.as_bytes())).collect();
    let timed: Vec<(&str, Lead)> = texts
        .iter()
        .zip(&leads)
        .filter_map(|(t, at)| at.map(|l| (*t, l)))
        .collect();
    // Indented lines are continuations whatever the layout (a trace's frames), as is a
    // `LEVEL:` line right under a timed one: the share is of the others.
    let flush_left = texts
        .iter()
        .enumerate()
        .filter(|(i, t)| {
            let under_time = *i > 0 && leads[i - 1].is_some();
            !(t.starts_with([' ', '\t']) || (under_time && opens_with_level(t)))
        })
        .count();
    if timed.len() < MIN_STARTS || timed.len() * 100 < flush_left * MIN_RECORD_SHARE {
        return None;
    }
    // Fewer timed lines than half: records of many lines each (IBM MQ's, Db2's), each
    // begun by its time, with no other line as the record's start.
    if timed.len() * 100 < flush_left * MIN_START_SHARE && !records(&texts, &leads) {
        return None;
    }
    let (first, lead) = timed[0];
    let time_shape = shape(&first[lead.start..lead.end]);
    let open = if lead.bracketed { r"\[" } else { "" };
    let skip = if lead.prefix > 0 {
        format!(r"(?:[^ \t]+[ \t]+){{{}}}", lead.prefix)
    } else {
        String::new()
    };
    let start = format!("^{skip}{open}{time_shape}");
    let start_re = regex::Regex::new(&start).ok()?;
    let starts: Vec<&(&str, Lead)> = timed
        .iter()
        .filter(|(t, l)| l.clock == lead.clock && l.prefix == lead.prefix && start_re.is_match(t))
        .collect();
    if starts.len() * 100 < timed.len() * SHARE {
        return None;
    }
    // Lines without the time continue the event above them (a trace's frames, a crash
    // dump's raw lines, a response body), whether or not the sample shows one: a dump is
    // rare. The sample shows multi-line events when some lines between starts are indented
    // or come two or more together.
    let below = level_below(&texts, &start_re);
    let untimed = |t: &&str| !start_re.is_match(t);
    let spans_seen = below
        || texts
            .iter()
            .any(|t| t.starts_with([' ', '\t']) && untimed(t))
        || texts
            .windows(2)
            .skip(1)
            .any(|w| untimed(&w[0]) && untimed(&w[1]));
    let rests: Vec<&str> = starts
        .iter()
        .map(|(t, l)| &t[(l.end + usize::from(l.bracketed)).min(t.len())..])
        .collect();
    let prefixes: Vec<&str> = starts
        .iter()
        .map(|(t, l)| &t[..l.start - usize::from(l.bracketed)])
        .collect();
    let day_first = lead.clock == Clock::Slash
        && ts::day_first(starts.iter().map(|(t, l)| &t.as_bytes()[l.start..]));
    let shape = Shape {
        start: &start,
        clock: lead.clock,
        day_first,
        level_below: below,
    };
    let definition = definition(&prefixes, &rests, lead.bracketed, &time_shape, &shape)?;
    // The definition is built from escaped pieces; one that does not compile is a layout
    // not learned, and the catch-all reads the file.
    Some((compile("learned", &definition).ok()?, spans_seen))
}

/// What a learned layout is made of, before it is written as a definition.
struct Parts {
    /// The event regex up to the message.
    re: String,
    /// `[[fields]]` entries giving columns their roles.
    fields: String,
    /// The level column's name and whether it holds one-letter levels.
    level: Option<(String, bool)>,
    /// `[[derived]]` entries.
    derived: String,
}

/// The regex and field entries of the header columns of `rests` (each event start after
/// its time) and of the `prefixes` before it, and whether they are `|`-separated; `None`
/// when the columns learned do not read the prefixes.
fn header(
    prefixes: &[&str],
    rests: &[&str],
    bracketed: bool,
    time_shape: &str,
) -> Option<(Parts, bool)> {
    let (open, close) = if bracketed { (r"\[", r"\]") } else { ("", "") };
    let mut p = Parts {
        re: "^".into(),
        fields: String::new(),
        level: None,
        derived: String::new(),
    };
    let mut taken: Vec<String> = vec!["time".into()];
    if prefixes.iter().any(|x| !x.is_empty()) {
        let (cols, _) = columns(prefixes);
        push_columns(&mut p, &cols, (false, false), &mut taken, true);
        p.re.push_str("[ \t]*");
        let whole = regex::Regex::new(&format!("{}$", p.re)).ok()?;
        let read = prefixes.iter().filter(|x| whole.is_match(x)).count();
        if read * 100 < prefixes.len() * SHARE {
            writer_column(prefixes, &mut p)?;
            taken.push(WRITER.into());
        }
    }
    let _ = write!(p.re, "{open}(?P<time>{time_shape}){close}");
    let (cols, spans, piped) = layout(rests);
    push_columns(&mut p, &cols, (spans, piped), &mut taken, false);
    Some((p, piped))
}

/// The column of a bare name standing alone before every line's time
/// (`update-alternatives 2025-06-24 14:36:53: …`, `web-01 2031-…`).
const WRITER: &str = "source";

/// Reads `prefixes` as one bare name each, the program or host that wrote the line, into
/// `p` (in place of the columns that did not read them); `None` when they are not.
fn writer_column(prefixes: &[&str], p: &mut Parts) -> Option<()> {
    let named = prefixes
        .iter()
        .filter(|x| {
            let x = x.trim_end();
            !x.contains([' ', '\t']) && is_identifier(x.trim_end_matches(':'))
        })
        .count();
    if named * 100 < prefixes.len() * SHARE {
        return None;
    }
    p.re = format!(r"^[ \t]*(?P<{WRITER}>[^ \t]+?):?[ \t]+");
    let _ = write!(
        p.fields,
        "\n[[fields]]\nname = \"{WRITER}\"\nroles = [\"program\", \"host\"]\n"
    );
    Some(())
}

/// Appends `cols` to the regex and fields of `p`. Before the time (`before`), a bracketed
/// name with one value in the whole sample (`[Nest]`) is the writer's mark, not a field.
fn push_columns(
    p: &mut Parts,
    cols: &[Column],
    (spans, piped): (bool, bool),
    taken: &mut Vec<String>,
    before: bool,
) {
    let mut shaped: Vec<&'static str> = Vec::new();
    for (i, c) in cols.iter().enumerate() {
        if piped && c.kind != Kind::Level && shaped_column(p, c, taken, &mut shaped) {
            continue;
        }
        let ints_after = cols.get(i + 1).is_some_and(|n| n.kind == Kind::Int);
        let mark = before
            && c.kind == Kind::Name
            && c.open == Some(b'[')
            && c.values.iter().all(|v| *v == c.values[0]);
        if mark {
            p.re.push_str(r"[ \t]*\[[^\]]*\]");
            continue;
        }
        let (name, roles) = naming(c, taken, ints_after);
        if piped {
            let _ = write!(p.re, r"[ \t]*\|[ \t]*(?P<{name}>[^|]*?)");
        } else if spans && c.kind == Kind::Logger && c.colon {
            // Spans before the target hold a request's fields (`request{id=5 path=/x}:`):
            // they stay in the message, and the target is read out of it.
            p.derived.push_str(&span_target(&name));
        } else {
            let one = format!(r"[ \t]*{}", column_regex(c, &name));
            if c.always {
                p.re.push_str(&one);
            } else {
                let _ = write!(p.re, "(?:{one})?");
            }
            if c.kind == Kind::Literal {
                continue;
            }
        }
        taken.push(name.clone());
        if matches!(c.kind, Kind::Level | Kind::Letter) && p.level.is_none() {
            p.level = Some((name.clone(), c.kind == Kind::Letter));
        }
        if !roles.is_empty() {
            let roles: Vec<String> = roles.iter().map(|r| format!("\"{r}\"")).collect();
            let _ = write!(
                p.fields,
                "\n[[fields]]\nname = \"{name}\"\nroles = [{}]\n",
                roles.join(", ")
            );
        }
    }
}

/// Appends a `|`-separated column whose values show its role (an address, a method, a
/// status, a duration) to `p`; false when they show none.
fn shaped_column(
    p: &mut Parts,
    c: &Column,
    taken: &mut Vec<String>,
    shaped: &mut Vec<&'static str>,
) -> bool {
    let values: Vec<&str> = c.values.iter().map(String::as_str).collect();
    let Some(r) = super::value_roles::by_values(&values, shaped) else {
        return false;
    };
    shaped.push(r.role);
    let name = unique(r.name, taken);
    let _ = write!(p.re, r"[ \t]*\|[ \t]*(?P<{name}>[^|]*?)");
    let text = |v: serde_json::Value| v.as_str().unwrap_or_default().to_string();
    let (kind, unit) = (
        text(serde_json::to_value(r.kind).unwrap_or_default()),
        text(serde_json::to_value(r.unit).unwrap_or_default()),
    );
    let _ = write!(
        p.fields,
        "\n[[fields]]\nname = \"{name}\"\nkind = \"{kind}\"\nunit = \"{unit}\"\nroles = [\"{}\"]\n",
        r.role
    );
    taken.push(name);
    true
}

/// How a learned layout's events run beyond their first line's columns.
struct Shape<'a> {
    start: &'a str,
    clock: Clock,
    /// A slashed date writes the day first.
    day_first: bool,
    /// The level opens the event's second line (`INFO: message` under java.util.logging's
    /// `time class method` line).
    level_below: bool,
}

fn definition(
    prefixes: &[&str],
    rests: &[&str],
    bracketed: bool,
    time_shape: &str,
    shape: &Shape<'_>,
) -> Option<String> {
    let (mut p, piped) = header(prefixes, rests, bracketed, time_shape)?;
    p.re.push_str(if piped {
        r"[ \t]*\|[ \t]*(?P<message>.*)"
    } else if shape.level_below && p.level.is_none() {
        p.level = Some(("level".into(), false));
        r"[ \t]*(?P<caller>[^\n]*)\n(?P<level>[A-Za-z]+):[ \t]*(?P<message>.*)"
    } else {
        r"[ \t]*(?P<message>.*)"
    });
    let mut out = String::from("name = \"learned\"\ntitle = \"a layout learned from the file's first lines\"\npriority = -5\n\n[parse]\nkind = \"regex\"\n");
    let _ = writeln!(out, "regex = '''{}'''\ntime = \"time\"", p.re);
    match shape.clock {
        Clock::MonthDay => out.push_str("time_format = \"month_day\"\n"),
        Clock::TimeOfDay => out.push_str("time_format = \"clock\"\n"),
        Clock::Slash => {
            let f = slash_format(shape.day_first);
            let _ = writeln!(out, "time_format = \"{f}\"");
        }
        Clock::Auto => {}
    }
    match &p.level {
        Some((name, letters)) => {
            let _ = writeln!(out, "level = \"{name}\"");
            if *letters {
                let map: Vec<String> = LETTERS
                    .iter()
                    .map(|(l, n)| format!("{l} = \"{n}\""))
                    .collect();
                let _ = writeln!(out, "level_map = {{ {} }}", map.join(", "));
            }
        }
        None => out.push_str("level = \"@analyser\"\n"),
    }
    let _ = writeln!(
        out,
        "\n[multiline]\nstart = '''{}'''\npreamble = true",
        shape.start
    );
    out.push_str(&p.fields);
    out.push_str("\n[[fields]]\nname = \"message\"\nwords = 0\nroles = [\"message\"]\n");
    out.push_str(EXCEPTION);
    out.push_str(&p.derived);
    Some(out)
}

/// Whether the timed lines of `texts` begin records of several lines: every line
/// between two of them is untimed, and the records are alike in length (the longest
/// under four times the median), as a writer of records makes them.
fn records(texts: &[&str], leads: &[Option<Lead>]) -> bool {
    let starts: Vec<usize> = (0..texts.len()).filter(|&i| leads[i].is_some()).collect();
    let mut lens: Vec<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    if lens.len() + 1 < MIN_STARTS {
        return false;
    }
    lens.sort_unstable();
    let median = lens[lens.len() / 2];
    median >= 3 && lens.last().is_some_and(|&m| m < median * 4)
}

/// A line that opens with a level word and a colon (`WARNING: disk full`).
fn opens_with_level(t: &str) -> bool {
    let word = t.split(':').next().unwrap_or("");
    t.contains(':') && word_level(word.as_bytes()).is_some()
}

/// Whether the line under nine event starts in ten opens with a level word and a colon.
fn level_below(texts: &[&str], start_re: &regex::Regex) -> bool {
    let (mut starts, mut below) = (0, 0);
    for pair in texts.windows(2) {
        if !start_re.is_match(pair[0]) || start_re.is_match(pair[1]) {
            continue;
        }
        starts += 1;
        below += usize::from(opens_with_level(pair[1]));
    }
    starts >= MIN_STARTS && below * 100 >= starts * SHARE
}

/// A `[[derived]]` reading a tracing target (`booking::db:`) after the spans that open
/// the message.
fn span_target(name: &str) -> String {
    let re = format!(r"^(?:(?:[^ \t{{]*\{{[^}}]*\}}:)+[ \t]+)?(?P<{name}>[^ \t]+?):(?:[ \t]|$)");
    format!("\n[[derived]]\nfrom = \"message\"\nregex = '{re}'\n")
}

/// The exception a continuation line names (Java's, .NET's `---> X`, Python's last line),
/// else one the first line names after a colon, package and all (`Handling exception:
/// java.net.SocketException: Connection reset`, a Java exception's `toString`).
const EXCEPTION: &str = r#"
[[fields]]
name = "exception"
roles = ["exception"]

[[derived]]
from = "@event"
regex = '''(?m)^(?:Caused by: |[ \t]*---> )?(?P<exception>[A-Za-z_$][\w$]*(?:\.[\w$]+)*(?:Exception|Error|Throwable))(?:[:( ]|$)'''

[[derived]]
from = "@event"
regex = '''\A[^\n]*?: (?P<exception>[A-Za-z_$][\w$]*(?:\.[\w$]+)+(?:Exception|Error|Throwable))(?:[:( ]|$)'''
"#;
