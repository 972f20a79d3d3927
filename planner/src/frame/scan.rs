//! The literals of a question: numbers with their units, status codes and classes, IP
//! addresses, times of day, URL paths, quoted text and identifier-like words
//! (`OutOfMemoryError`, `redis-server`, `checkout-svc`). Spans index the normalised text
//! the lexicon's hits index, so the two can be read side by side.

use std::sync::OnceLock;

use regex::Regex;

use llmops_common::query::Unit;

use super::hours::Said;
use crate::lexicon::{Cue, Hit, Lexicon};

fn re(cell: &'static OnceLock<Regex>, pat: &str) -> &'static Regex {
    cell.get_or_init(|| Regex::new(pat).expect("frame regex literal is valid"))
}

/// A time of day, with a date when one was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Clock {
    pub date: Option<(u16, u8, u8)>,
    pub h: u8,
    pub m: u8,
    pub s: Option<u8>,
}

impl Clock {
    /// As the query's `TimePoint` writes it.
    pub fn point(&self) -> String {
        let hms = match self.s {
            Some(s) => format!("{:02}:{:02}:{:02}", self.h, self.m, s),
            None => format!("{:02}:{:02}", self.h, self.m),
        };
        match self.date {
            Some((y, mo, d)) => format!("{y:04}-{mo:02}-{d:02} {hms}"),
            None => hms,
        }
    }
}

/// One literal.
#[derive(Debug, Clone, PartialEq)]
pub enum Lit {
    /// A number, with the unit written right after it.
    Number {
        value: f64,
        unit: Option<Unit>,
    },
    /// `5xx`: the hundreds digit.
    Class(u8),
    Ip(String),
    Clock(Clock),
    /// A whole hour of the day ("2 点多": a bit past two).
    Hour(u8),
    /// A calendar day without a time ("8号", "Mar 8").
    Date(super::dates::Day),
    /// A URL path (`/api/orders`).
    UrlPath(String),
    /// A path on this host that names no log (`/var`, `/data/pg`): where a filesystem
    /// question asks about.
    HostPath(String),
    /// Text in quotes or backticks.
    Quoted(String),
    /// A word shaped like a name in code or on a system (`OutOfMemoryError`, `redis-server`,
    /// `ECONNRESET`, `com.acme.Db`).
    Ident(String),
    /// A plain lower-case word the lexicon does not know (`nginx`, `postgres`).
    Word(String),
    /// `field=value` as written in a log line (`sku=BK-77120`, `status=504`).
    Pair {
        field: String,
        value: String,
    },
}

/// A literal and its span.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned {
    pub start: usize,
    pub end: usize,
    pub lit: Lit,
}

fn overlaps(taken: &[(usize, usize)], s: usize, e: usize) -> bool {
    taken.iter().any(|&(a, b)| a < e && s < b)
}

/// The literals of `text` (normalised; `lower` is its ASCII lower-case twin), skipping the
/// spans in `skip` (file names the caller resolved) and the lexicon's own words.
pub fn literals(
    lex: &Lexicon,
    text: &str,
    lower: &str,
    hits: &[Hit],
    skip: &[(usize, usize)],
) -> Vec<Spanned> {
    let mut taken: Vec<(usize, usize)> = skip.to_vec();
    // A measure's own digits ("p95", "95分位", "99th percentile") are no number asked.
    taken.extend(
        hits.iter()
            .filter(|h| matches!(h.cue, Cue::Measure(_)))
            .filter(|h| {
                lower
                    .get(h.start..h.end)
                    .is_some_and(|w| w.bytes().any(|b| b.is_ascii_digit()))
            })
            .map(|h| (h.start, h.end)),
    );
    let mut out = Vec::new();
    shell(text, &mut taken, &mut out);
    pairs(text, &mut taken, &mut out);
    quoted(text, &mut taken, &mut out);
    let mut logged = Vec::new();
    super::log_text::unquoted_log_text(text, hits, &mut taken, &mut logged);
    out.extend(logged.into_iter().map(|(start, end, run)| Spanned {
        start,
        end,
        lit: Lit::Quoted(run),
    }));
    capitalised_runs(lex, text, hits, &mut taken, &mut out);
    clocks(text, &mut taken, &mut out);
    for (start, end, said) in super::hours::hours(text, &mut taken) {
        let lit = match said {
            Said::Hour(h) => Lit::Hour(h),
            Said::Clock { h, m } => Lit::Clock(Clock {
                date: None,
                h,
                m,
                s: None,
            }),
        };
        out.push(Spanned { start, end, lit });
    }
    for (start, end, day) in super::dates::dates(text, lower, &mut taken) {
        out.push(Spanned {
            start,
            end,
            lit: Lit::Date(day),
        });
    }
    emails(text, &mut taken, &mut out);
    ips(text, &mut taken, &mut out);
    classes(lower, &mut taken, &mut out);
    url_paths(text, &mut taken, &mut out);
    numbers(lex, text, lower, &mut taken, &mut out);
    words(lex, text, lower, hits, &mut taken, &mut out);
    out.sort_by_key(|s| s.start);
    out
}

fn pairs(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r#"(?-u:\b)([A-Za-z_][A-Za-z0-9_.]{0,63}(?:-[A-Za-z0-9_.]{1,63}){0,8})(\s?)(==?)(\s?)(?:"([^"]{1,200})"|'([^']{1,200})'|([^\s,;，。、)）"']{1,200}))"#,
    );
    for c in r.captures_iter(text) {
        let whole = c.get(0).expect("group 0 always matches");
        let (Some(field), Some(value)) = (c.get(1), c.get(5).or(c.get(6)).or(c.get(7))) else {
            continue;
        };
        // "the mean delay= of sent mail": a key written as the log writes it, `=` and
        // all, names the field; a value follows `=` at once, or after a space on both sides.
        let spaced = |i: usize| c.get(i).is_some_and(|m| !m.as_str().is_empty());
        if spaced(4) && !spaced(2) {
            continue;
        }
        // "the == lines" (exim's flag): `==` compares a key, not a word of the sentence.
        let stop = &crate::lexicon::lexicon().grammar.stop;
        if c.get(3).is_some_and(|m| m.as_str() == "==") && stop.has(field.as_str()) {
            continue;
        }
        // "pool=green?": the sentence's mark after an unquoted value is not part of it.
        let (value, end) = match c.get(7) {
            Some(m) => {
                let v = m
                    .as_str()
                    .trim_end_matches(['?', '!', '.', ':', '？', '！', '：']);
                (v, m.start() + v.len())
            }
            None => (value.as_str(), whole.end()),
        };
        if value.is_empty() || overlaps(taken, whole.start(), end) {
            continue;
        }
        taken.push((whole.start(), end));
        out.push(Spanned {
            start: whole.start(),
            end,
            lit: Lit::Pair {
                field: field.as_str().to_string(),
                value: value.to_string(),
            },
        });
    }
}

/// Shell written into a question to say what is meant ("what would `grep -c 'deadline
/// exceeded'` give", "就是 awk '{print $1}' | sort -u | wc -l 那个数"): a `grep`'s pattern is
/// the text looked for (none for `grep -v`); an `awk` program and the filters piped after
/// it are no condition at all.
fn shell(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static GREP: OnceLock<Regex> = OnceLock::new();
    static AWK: OnceLock<Regex> = OnceLock::new();
    static PIPE: OnceLock<Regex> = OnceLock::new();
    let grep = re(
        &GREP,
        r#"\b[ef]?grep((?:\s+-[A-Za-z]+)*)\s+(?:'([^']{1,200})'|"([^"]{1,200})"|([^\s`'"|]+))"#,
    );
    for c in grep.captures_iter(text) {
        let whole = c.get(0).expect("group 0 always matches");
        let flags = c.get(1).map_or("", |m| m.as_str());
        taken.push((whole.start(), whole.end()));
        let Some(pat) = c.get(2).or(c.get(3)).or(c.get(4)) else {
            continue;
        };
        if !flags.contains('v') {
            out.push(Spanned {
                start: whole.start(),
                end: whole.end(),
                lit: Lit::Quoted(pat.as_str().to_string()),
            });
        }
    }
    let awk = re(&AWK, r#"\bawk\s+(?:-F\s*\S+\s+)?'[^']*'"#);
    let pipe = re(
        &PIPE,
        r"\|\s*(?:sort|uniq|wc|head|tail|cut|tr)\b(?:\s+-[A-Za-z0-9]+)*",
    );
    for m in awk.find_iter(text).chain(pipe.find_iter(text)) {
        taken.push((m.start(), m.end()));
    }
}

fn quoted(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r#""([^"]{1,200})"|'([^'\s][^']{0,199})'|`([^`]{1,200})`"#,
    );
    // An apostrophe inside a word ("what's", "10.0.0.3's", "don't") opens no quote.
    let b = text.as_bytes();
    let masked: String = text
        .char_indices()
        .map(|(i, ch)| {
            let inside = ch == '\''
                && i > 0
                && b[i - 1].is_ascii_alphanumeric()
                && b.get(i + 1).is_some_and(u8::is_ascii_alphanumeric);
            if inside {
                '\u{1}'
            } else {
                ch
            }
        })
        .collect();
    for c in r.captures_iter(&masked) {
        let whole = c.get(0).expect("group 0 always matches");
        let inner = c.get(1).or(c.get(2)).or(c.get(3));
        // Shell read above: its span is taken, whole or in part.
        if overlaps(taken, whole.start(), whole.end()) {
            taken.push((whole.start(), whole.end()));
            continue;
        }
        if let Some(m) = inner {
            taken.push((whole.start(), whole.end()));
            out.push(Spanned {
                start: whole.start(),
                end: whole.end(),
                lit: Lit::Quoted(text[m.start()..m.end()].to_string()),
            });
        }
    }
}

/// Two or more words in a row that each read like a log's own name for something
/// (capitalised or code-like: `Shrinking ISR`, `NotEnoughReplicas Exception`) and that no
/// cue reads: one phrase looked for as written, as if quoted, rather than a word of it.
fn capitalised_runs(
    lex: &Lexicon,
    text: &str,
    hits: &[Hit],
    taken: &mut Vec<(usize, usize)>,
    out: &mut Vec<Spanned>,
) {
    let coded = |w: &str| {
        w.bytes().any(|b| b.is_ascii_alphabetic())
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_-.:".contains(&b))
            && (w.starts_with(|c: char| c.is_ascii_uppercase())
                || w.bytes().skip(1).any(|b| b.is_ascii_uppercase()))
    };
    let free = |s: usize, e: usize| {
        !overlaps(taken, s, e) && !hits.iter().any(|h| h.start < e && s < h.end)
    };
    // A word in capitals is the log's own even where a cue reads it ("WORKER TIMEOUT" is
    // that marker, not any timeout), in a run with a word no condition cue reads.
    // A capital word that names a field or a field's value ("HTTP POST": the method; "SQL
    // SELECT": the statement) keeps that reading.
    let a_fields_word = |s: usize, e: usize| {
        hits.iter().any(|h| {
            h.start < e
                && s < h.end
                && match h.cue {
                    Cue::Field(_) | Cue::Column(_) | Cue::Measure(_) => true,
                    Cue::Filter(i) => lex.filters[i].field.is_some(),
                    _ => false,
                }
        })
    };
    let shouted = |w: &str, s: usize, e: usize| {
        w.len() >= 3
            && w.bytes().all(|b| b.is_ascii_uppercase() || b == b'_')
            && !overlaps(taken, s, e)
            && !a_fields_word(s, e)
    };
    // (start, end, words, words no condition cue reads)
    let mut runs: Vec<(usize, usize, usize, usize)> = Vec::new();
    let mut at = 0;
    for word in text.split(' ') {
        let w = word.trim_end_matches([',', '?', '!', ';', ')', '.', ':']);
        let (s, e) = (at, at + w.len());
        at += word.len() + 1;
        let w_ok = (coded(w) && free(s, e)) || shouted(w, s, e);
        // Only condition words in capitals ("ERROR TIMEOUT") are those conditions.
        let own = !hits
            .iter()
            .any(|h| matches!(h.cue, Cue::Filter(_)) && h.start < e && s < h.end);
        match runs.last_mut() {
            Some((_, end, n, k)) if w_ok && *end + 1 == s => {
                *end = e;
                *n += 1;
                *k += usize::from(own);
            }
            _ if w_ok => runs.push((s, e, 1, usize::from(own))),
            _ => {}
        }
    }
    for (s, e, n, own) in runs {
        // A name right before a word for the log is whose log it is ("the AWS ALB log").
        let rest = text[e..].trim_start().to_ascii_lowercase();
        if n < 2 || own == 0 || rest.starts_with("log") || rest.starts_with("日志") {
            continue;
        }
        taken.push((s, e));
        out.push(Spanned {
            start: s,
            end: e,
            lit: Lit::Quoted(text[s..e].to_string()),
        });
    }
}

fn clocks(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?i)(?:(\d{4})-(\d{1,2})-(\d{1,2})[ T])?(?-u:\b)([01]?\d|2[0-3])[:：]([0-5]\d)(?:[:：]([0-5]\d))?(?:\s?([ap])\.?m\b\.?)?(?-u:\b)",
    );
    for c in r.captures_iter(text) {
        let whole = c.get(0).expect("group 0 always matches");
        if overlaps(taken, whole.start(), whole.end()) {
            continue;
        }
        let num = |i: usize| c.get(i).and_then(|m| m.as_str().parse::<u16>().ok());
        let date = match (num(1), num(2), num(3)) {
            (Some(y), Some(mo), Some(d)) => Some((y, mo as u8, d as u8)),
            _ => None,
        };
        let (Some(h), Some(m)) = (num(4), num(5)) else {
            continue;
        };
        let h = super::hours::twelve_hour(h, c.get(7).map(|x| x.as_str()), &text[..whole.start()]);
        taken.push((whole.start(), whole.end()));
        out.push(Spanned {
            start: whole.start(),
            end: whole.end(),
            lit: Lit::Clock(Clock {
                date,
                h: h as u8,
                m: m as u8,
                s: num(6).map(|s| s as u8),
            }),
        });
    }
}

fn ips(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(
        &R,
        r"(?-u:\b)((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3})(?:/(?:3[0-2]|[12]?\d))?(?-u:\b)",
    );
    // An address with its last parts wild ("10.8.3.x", "10.2.*.*") is the network they
    // span, as a prefix length writes it.
    static WILD: OnceLock<Regex> = OnceLock::new();
    let wild = re(
        &WILD,
        r"(?-u:\b)((?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){0,2})((?:\.(?:x|X|\*)){1,3})(?:$|[^\w.*])",
    );
    for c in wild.captures_iter(text) {
        let (Some(fixed), Some(wild_part)) = (c.get(1), c.get(2)) else {
            continue;
        };
        let parts = fixed.as_str().split('.').count();
        let wild_parts = wild_part.as_str().matches('.').count();
        if parts + wild_parts != 4 || overlaps(taken, fixed.start(), wild_part.end()) {
            continue;
        }
        taken.push((fixed.start(), wild_part.end()));
        let zeros = ".0".repeat(wild_parts);
        out.push(Spanned {
            start: fixed.start(),
            end: wild_part.end(),
            lit: Lit::Ip(format!("{}{zeros}/{}", fixed.as_str(), parts * 8)),
        });
    }
    // With a prefix length, a network ("10.20.0.0/16"): `Lit::Ip` keeps it whole.
    each_match(r, text, taken, out, |m| Lit::Ip(m.to_string()));
}

/// Each match of `r` not inside a span already taken, as the literal `lit` makes of it.
fn each_match(
    r: &Regex,
    text: &str,
    taken: &mut Vec<(usize, usize)>,
    out: &mut Vec<Spanned>,
    lit: impl Fn(&str) -> Lit,
) {
    for m in r.find_iter(text) {
        if overlaps(taken, m.start(), m.end()) {
            continue;
        }
        taken.push((m.start(), m.end()));
        out.push(Spanned {
            start: m.start(),
            end: m.end(),
            lit: lit(m.as_str()),
        });
    }
}

fn classes(lower: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"(?-u:\b)([1-5])xx(?-u:\b)");
    for c in r.captures_iter(lower) {
        let whole = c.get(0).expect("group 0 always matches");
        if overlaps(taken, whole.start(), whole.end()) {
            continue;
        }
        let digit = c[1].parse::<u8>().unwrap_or(5);
        taken.push((whole.start(), whole.end()));
        out.push(Spanned {
            start: whole.start(),
            end: whole.end(),
            lit: Lit::Class(digit),
        });
    }
}

/// A name joined by `@` is one name, not two words: a mail address
/// (`ops@example.org`), a proxy's router (`orders@docker`), a node (`rabbit@mq-01`).
pub(super) fn at_names() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?-u:\b)[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*(?-u:\b)",
    )
}

/// A name of three dotted labels or more, the last in letters (`api.svc.cluster.local`,
/// `shop.corp.example`), or a domain's suffix of two or more written with its leading dot
/// (`.svc.cluster`): a host's or a service's name, one value, whose labels name no log
/// (`*.corp.example` is no word for `corp-resolver.log`).
pub(super) fn dotted_names() -> &'static Regex {
    static R: OnceLock<Regex> = OnceLock::new();
    re(
        &R,
        r"(?-u:\b)[A-Za-z0-9_-]{1,63}(?:\.[A-Za-z0-9_-]{1,63}){1,}\.[A-Za-z][A-Za-z0-9-]{0,62}(?-u:\b)|(?-u:\B)\.[A-Za-z0-9_-]{1,63}(?:\.[A-Za-z0-9_-]{1,63})*\.[A-Za-z][A-Za-z0-9-]{0,62}(?-u:\b)",
    )
}

fn emails(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    each_match(at_names(), text, taken, out, |m| Lit::Ident(m.to_string()));
}

fn url_paths(text: &str, taken: &mut Vec<(usize, usize)>, out: &mut Vec<Spanned>) {
    static R: OnceLock<Regex> = OnceLock::new();
    // `{id}` or `*` stands for a route's parameter ("/bookings/{ref}/seats"); an ellipsis before
    // it elides the start (".../refill": paths that hold `/refill`).
    let r = re(
        &R,
        r"(?:^|[\s(（,，、：;；])(?:\.\.\.?|…)?(/[A-Za-z0-9._~%/\-{}*]*[A-Za-z0-9_~%\-/{}*])",
    );
    for c in r.captures_iter(text) {
        let m = c.get(1).expect("group 1 always matches");
        if overlaps(taken, m.start(), m.end()) || m.as_str() == "/" {
            continue;
        }
        taken.push((m.start(), m.end()));
        out.push(Spanned {
            start: m.start(),
            end: m.end(),
            lit: Lit::UrlPath(m.as_str().to_string()),
        });
    }
}

/// The unit written right after `end` (spaces allowed, none needed: `1.5s`, `500 ms`):
/// the longest unit word there that does not run on into a longer word.
fn unit_after(lex: &Lexicon, lower: &str, end: usize) -> Option<(Unit, usize)> {
    let rest = &lower[end..];
    let gap = rest.len() - rest.trim_start().len();
    let rest = &rest[gap..];
    lex.grammar
        .unit
        .iter()
        .flat_map(|u| u.words.all().map(move |w| (u.unit, w)))
        .filter(|(_, w)| {
            rest.starts_with(w)
                && rest[w.len()..]
                    .chars()
                    .next()
                    .is_none_or(|c| !(c.is_ascii_alphanumeric() && w.is_ascii()))
        })
        .max_by_key(|(_, w)| w.len())
        .map(|(u, w)| (u, end + gap + w.len()))
}

fn numbers(
    lex: &Lexicon,
    text: &str,
    lower: &str,
    taken: &mut Vec<(usize, usize)>,
    out: &mut Vec<Spanned>,
) {
    static R: OnceLock<Regex> = OnceLock::new();
    // Digits not glued to letters on the left (`user42` is a name, `p95` a cue).
    let r = re(&R, r"(?:^|[^A-Za-z0-9_.])(\d+(?:\.\d+)?)");
    for c in r.captures_iter(text) {
        let m = c.get(1).expect("group 1 always matches");
        if overlaps(taken, m.start(), m.end()) {
            continue;
        }
        // "app-02", "BK-77120": the digits end a name ("1-2s", "400-499" are two numbers).
        let b = text.as_bytes();
        let at = m.start();
        // "non-200" is a negated code, not a name.
        let negated =
            b[..at].ends_with(b"-") && crate::text::ends_with_word(&lower[..at - 1], "non");
        let after_a_name = at >= 2
            && (b[at - 1] == b'_' || (b[at - 1] == b'-' && !b[at - 2].is_ascii_digit()))
            && b[at - 2].is_ascii_alphanumeric()
            && !negated;
        if after_a_name {
            continue;
        }
        // "99th", "21st": an ordinal (a percentile, a position), no count or value.
        let rest = &lower[m.end()..];
        let suffix = ["st", "nd", "rd", "th"].iter().any(|s| {
            rest.strip_prefix(s)
                .is_some_and(|r| !r.starts_with(|c: char| c.is_ascii_alphanumeric()))
        });
        let Ok(value) = m.as_str().parse::<f64>() else {
            continue;
        };
        if suffix {
            continue;
        }
        push_number(lex, lower, taken, out, (m.start(), m.end()), value);
    }
    // Number words standing before a unit: "一秒", "a second", "two minutes".
    let words = lex
        .grammar
        .numbers
        .zh
        .iter()
        .chain(lex.grammar.numbers.en.iter());
    for (w, v) in words {
        for (s, e) in crate::lexicon::occurrences(lower, w) {
            if overlaps(taken, s, e) || unit_after(lex, lower, e).is_none() {
                continue;
            }
            push_number(lex, lower, taken, out, (s, e), *v);
        }
    }
    count_words(lex, lower, taken, out);
}

/// Number words that count things, with no unit: "top five", "the three slowest", "前五个",
/// "哪三个". English words of two or more anywhere; Chinese ones after 前/哪 or before a
/// measure word (个, 条, 名…), where they cannot be part of another word (一下, 三角).
fn count_words(
    lex: &Lexicon,
    lower: &str,
    taken: &mut Vec<(usize, usize)>,
    out: &mut Vec<Spanned>,
) {
    static ZH: OnceLock<Regex> = OnceLock::new();
    let zh = re(
        &ZH,
        r"(前|哪)?([二三四五六七八九]?十[一二三四五六七八九]?|[二三四五六七八九两])([个条名位台种项家])?",
    );
    let mut found: Vec<(usize, usize, f64)> = Vec::new();
    for c in zh.captures_iter(lower) {
        let n = c.get(2).expect("group 2 always matches");
        let Some(v) = crate::follow::zh_number(n.as_str()) else {
            continue;
        };
        let ordinal = lower[..n.start()].ends_with('第');
        if (c.get(1).is_some() || c.get(3).is_some()) && !ordinal && v >= 2 {
            found.push((n.start(), n.end(), v as f64));
        }
    }
    for (w, v) in &lex.grammar.numbers.en {
        if *v >= 2.0 && v.fract() == 0.0 {
            found.extend(
                crate::lexicon::occurrences(lower, w)
                    .into_iter()
                    .map(|(s, e)| (s, e, *v)),
            );
        }
    }
    for (s, e, v) in found {
        if !overlaps(taken, s, e) {
            push_number(lex, lower, taken, out, (s, e), v);
        }
    }
}

fn push_number(
    lex: &Lexicon,
    lower: &str,
    taken: &mut Vec<(usize, usize)>,
    out: &mut Vec<Spanned>,
    (start, end): (usize, usize),
    value: f64,
) {
    let (unit, end) = match unit_after(lex, lower, end) {
        Some((u, e)) => (Some(u), e),
        None => (None, end),
    };
    taken.push((start, end));
    out.push(Spanned {
        start,
        end,
        lit: Lit::Number { value, unit },
    });
}

/// A capital after a lower-case letter (`NightlyRefundJob`, `replLagMs`).
fn inner_capital(w: &str) -> bool {
    w.char_indices()
        .skip(1)
        .any(|(i, c)| c.is_ascii_uppercase() && w[..i].chars().any(|p| p.is_ascii_lowercase()))
}

/// A word shaped like the name of one thing: letters with a digit (`P7`, `db-02`) or
/// a capital inside (`NightlyRefundJob`); a state written in capitals (`FAULT`) is what
/// happened, not whom to.
pub(super) fn names_one_thing(w: &str) -> bool {
    let digit = w.chars().any(|c| c.is_ascii_digit());
    (digit || inner_capital(w)) && w.chars().any(|c| c.is_ascii_alphabetic())
}

/// Identifier-like: mixed case inside, a digit beside letters, `_`/`-`/`.`/`$` between
/// letters, or upper case of three letters or more.
fn ident_like(w: &str) -> bool {
    let letters = w.chars().filter(|c| c.is_ascii_alphabetic()).count();
    if letters == 0 {
        return false;
    }
    let inner_upper = inner_capital(w);
    let digit = w.chars().any(|c| c.is_ascii_digit());
    let joined = w.contains(['_', '-', '.', '$', ':']);
    let caps = letters >= 3 && w.chars().all(|c| !c.is_ascii_lowercase());
    // An id of one letter and a number (`P17`, `T9`), written with a capital as ids are.
    let letter_id =
        digit && letters == 1 && w.len() >= 3 && w.starts_with(|c: char| c.is_ascii_uppercase());
    inner_upper || (digit && letters >= 2) || letter_id || joined || caps
}

fn words(
    lex: &Lexicon,
    text: &str,
    lower: &str,
    hits: &[Hit],
    taken: &mut [(usize, usize)],
    out: &mut Vec<Spanned>,
) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"[A-Za-z0-9][A-Za-z0-9_.:$\-]*[A-Za-z0-9]|[A-Za-z]{2,}");
    let stop: Vec<&str> = lex.grammar.stop.en.iter().map(String::as_str).collect();
    for m in r.find_iter(text) {
        let (s, e) = (m.start(), m.end());
        if overlaps(taken, s, e) {
            continue;
        }
        // A lexicon word is a cue, not a name: skip words a content or grammar cue covers.
        if hits.iter().any(|h| h.start <= s && e <= h.end) {
            continue;
        }
        let w = m.as_str().trim_end_matches(['.', ':', '-']);
        let lw = &lower[s..s + w.len()];
        // "awk-style", "grep-like": how the question is put, not what it looks for.
        let manner = ["-style", "-like", "-ish", "-wise"]
            .iter()
            .any(|x| lw.ends_with(x));
        if stop.contains(&lw) || w.chars().all(|c| c.is_ascii_digit()) || manner {
            continue;
        }
        // A signal or an acronym made a verb ("SIGKILLed", "OOMed", "SERVFAILing"): the
        // events say the acronym.
        // So is one in the plural ("NPEs", "OOMs").
        let acronym_verb = w
            .strip_suffix("ed")
            .or_else(|| w.strip_suffix("ing"))
            .or_else(|| w.strip_suffix('s'))
            .filter(|stem| stem.len() >= 3 && stem.bytes().all(|b| b.is_ascii_uppercase()));
        // An error code in the plural ("H12s", "R14s", "E11000s"): capitals, then digits.
        let code_plural = w.strip_suffix('s').filter(|stem| {
            let letters = stem.bytes().take_while(u8::is_ascii_uppercase).count();
            (1..=3).contains(&letters)
                && stem.len() > letters
                && stem.bytes().skip(letters).all(|b| b.is_ascii_digit())
        });

        // A CamelCase name in the plural ("TimeoutErrors", "NullPointerExceptions"): the
        // events name one at a time.
        let camel_plural = w.strip_suffix('s').filter(|stem| {
            !stem.ends_with('s')
                && stem.bytes().skip(1).any(|b| b.is_ascii_uppercase())
                && stem.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
                && stem.bytes().last().is_some_and(|b| b.is_ascii_lowercase())
                && stem.bytes().all(|b| b.is_ascii_alphanumeric())
        });
        let lit = if let Some(stem) = acronym_verb.or(code_plural).or(camel_plural) {
            Lit::Ident(stem.to_string())
        } else if ident_like(w) {
            Lit::Ident(w.to_string())
        } else if w.len() >= 2 {
            Lit::Word(lw.to_string())
        } else {
            continue;
        };
        out.push(Spanned {
            start: s,
            end: s + w.len(),
            lit,
        });
    }
}

/// "处理完(ok)的那些": an English word in parentheses right after Chinese is the log's own
/// word for what the Chinese says, looked for as written even when it is a common word
/// the scan leaves out ("done"); one a cue reads (a field's name, a tag's word) stays that
/// cue.
pub(super) fn chinese_glosses(
    text: &str,
    hits: &[Hit],
    (files, uploads): (&[(usize, usize)], &[String]),
    lits: &mut Vec<Spanned>,
) {
    static R: OnceLock<Regex> = OnceLock::new();
    let r = re(&R, r"\p{Han}\s*[(（]\s*([A-Za-z][A-Za-z0-9_.:-]*)\s*[)）]");
    for c in r.captures_iter(text) {
        let Some(m) = c.get(1) else { continue };
        let (s, e) = (m.start(), m.end());
        // "支付服务(payments.log)", "网关(nginx)": a file or the log's name says which log.
        let word = m.as_str().to_ascii_lowercase();
        let names_a_log =
            files.iter().any(|&(a, b)| a < e && s < b) || uploads.iter().any(|u| u.contains(&word));
        if names_a_log || hits.iter().any(|h| h.start < e && s < h.end) {
            continue;
        }
        lits.retain(|l| !(l.start >= s && l.end <= e));
        lits.push(Spanned {
            start: s,
            end: e,
            lit: Lit::Quoted(m.as_str().to_string()),
        });
    }
}
