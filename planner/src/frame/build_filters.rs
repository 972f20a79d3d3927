//! The conditions of a question: the lexicon's filter cues (levels, tags, methods), and
//! its literals bound to fields by position (a word after a field's name, or before a
//! Chinese one, is its value; a name by a table's word is the program's, the unit's or the
//! socket's; numbers are `number_filter.rs`'s).

use llmops_common::query::{Filter, FilterOp, Scalar, Source, Unit};

use super::parsed::{field_before, filter, Kind, Parsed};
use super::scan::Lit;
use super::words::{any_wording, regex_escape, signal_wordings};
use crate::lexicon::{Cue, Lexicon};

/// The conditions of a question.
pub struct Conditions {
    pub hard: Vec<Filter>,
    /// Kept only when something matches them.
    pub soft: Vec<Filter>,
    /// Words the lexicon does not know taken as what the events contain: a condition of a
    /// question that is about a log for other reasons, never the reason it is.
    pub object: Option<Filter>,
    /// The object words stand right by a condition word and say whose it is ("nginx 的重启",
    /// "restarts of nginx"): they narrow even beside other conditions.
    pub object_qualifies: bool,
    /// The object's words, as written.
    pub object_words: Vec<String>,
    /// The object holds a word of four letters or more: a shorter one ("req") is a part of
    /// too many of a log's words to say which events it means.
    pub object_long: bool,
}

/// Hard filters, soft ones, and the unknown words a log question names.
pub fn filters(lex: &Lexicon, p: &Parsed, source: Source) -> Conditions {
    let mut hard = super::cue_filters::cue_filters(lex, p, source);
    // "which errors" keeps only failures unless a level or a tag is named ("which WARN
    // messages").
    if hard.is_empty() {
        hard.extend(field_filters(lex, p, source));
    }
    let mut soft = Vec::new();
    literal_conditions(lex, p, source, &mut hard, &mut soft);
    // "5xx errors", "500 errors", "421 errors" (a code in the text): the word qualifies the
    // code, it is not a level.
    let on = |f: &Filter, name: &str| f.field.as_ref().is_some_and(|x| x.as_str() == name);
    if hard
        .iter()
        .any(|f| on(f, "status") || super::missing_field::is_code_text(p, f))
    {
        hard.retain(|f| {
            !(on(f, "level") && f.op == FilterOp::Eq && f.value == Scalar::Text("ERROR".into()))
        });
    }
    if source == Source::Log {
        hard.extend(phrase_filters(lex, p));
        super::missing_field::read_as_the_log_can(p, &mut hard);
    }
    // With a text condition of its own, unknown words are the object only when they say
    // what the named thing did ("did thumb-worker exit").
    let has_text = hard
        .iter()
        .any(|f| matches!(f.op, FilterOp::Contains | FilterOp::Regex));
    let found = (source == Source::Log)
        .then(|| super::object_words::object_words(lex, p))
        .flatten()
        .filter(|o| !has_text || o.after_a_name);
    let object_qualifies = found
        .as_ref()
        .is_some_and(|o| o.qualifies || o.after_a_name);
    let object_words = found
        .as_ref()
        .filter(|o| names_events(lex, p, o.span))
        .map(|o| {
            let phrase = &p.lower[o.span.0..o.span.1];
            let words = phrase.split([' ', '-']).filter(|w| !w.is_empty());
            words.map(str::to_string).collect()
        })
        .unwrap_or_default();
    let object_long = found.as_ref().is_some_and(|o| {
        p.lower[o.span.0..o.span.1]
            .split(|c: char| !c.is_alphanumeric())
            .any(|w| w.chars().count() >= 4)
    });
    let object = found.map(|o| o.filter);
    hard.extend(source_filters(lex, p, source, false));
    soft.extend(source_filters(lex, p, source, true));
    if source == Source::Log {
        soft.extend(super::bridge::translated(lex, p));
    }
    Conditions {
        hard: super::alternatives::merged(hard),
        soft,
        object,
        object_qualifies,
        object_words,
        object_long,
    }
}

/// Whether unknown words at `span` may name the events a figure is of: not the words of a
/// field's phrase ("response time", "source IPs": right before a field, a measure or a
/// column) nor a field asked of them ("which table", "by region": right after a grouping
/// word). Latin words before a Chinese field's word are whose it is ("chunk 平均耗时"), and
/// after "per" or "每个" the events each figure is of ("avg time per chunk").
fn names_events(lex: &Lexicon, p: &Parsed, span: (usize, usize)) -> bool {
    let (start, end) = span;
    let latin = p.lower.get(start..end).is_some_and(|w| w.is_ascii());
    let before_a_field = p.hits.iter().any(|h| {
        matches!(h.cue, Cue::Field(_) | Cue::Measure(_) | Cue::Column(_))
            && h.start >= end
            && p.lower
                .get(end..h.start)
                .is_some_and(|g| g.trim().is_empty())
            && !(latin && p.lower[h.start..].starts_with(|c: char| !c.is_ascii()))
    });
    let asked = p.hits.iter().any(|h| {
        h.cue == Cue::Group
            && !p.hit_is(h, &lex.grammar.each)
            && h.end <= start
            && p.lower
                .get(h.end..start)
                .is_some_and(|g| g.trim().is_empty())
    });
    !before_a_field && !asked
}

/// The conditions the question's literals carry, negated as they are said; a name joins the
/// hard conditions when it is the first, the soft ones after it, or the name before it
/// when a list's word joins them.
fn literal_conditions(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    hard: &mut Vec<Filter>,
    soft: &mut Vec<Filter>,
) {
    let case = p.has(|c| c == Cue::Case);
    let mut named = 0;
    // The last name's end and where its filter went (hard or soft, and its index): a name
    // joined to it by a list's word is one more alternative of it ("sleep, cat and tail").
    let mut last_name: Option<(usize, bool, usize)> = None;
    for l in &p.lits {
        let Some((f, kind)) = literal_filter(lex, p, source, l) else {
            continue;
        };
        // A comparison's negation stands before its word ("not slower than 500ms").
        let start = p
            .hits
            .iter()
            .find(|h| matches!(h.cue, Cue::Compare(_)) && h.end <= l.start && l.start - h.end <= 2)
            .map_or(l.start, |h| h.start);
        let f = Filter {
            case_sensitive: case && matches!(f.value, Scalar::Text(_)),
            ..p.as_said((start, l.end), f)
        };
        match kind {
            Kind::Hard => hard.push(f),
            Kind::Name => {
                let joined = last_name.filter(|&(end, _, _)| {
                    p.joined_item((l.start, l.end), true)
                        .is_some_and(|(_, e)| e == end)
                });
                let merged = joined.is_some_and(|(_, in_hard, i)| {
                    let target = if in_hard { &mut hard[i] } else { &mut soft[i] };
                    one_more_name(target, &f)
                });
                if merged {
                    last_name = joined.map(|(_, h, i)| (l.end, h, i));
                } else if named == 0 {
                    named += 1;
                    hard.push(f);
                    last_name = Some((l.end, true, hard.len() - 1));
                } else {
                    soft.push(f);
                    last_name = Some((l.end, false, soft.len() - 1));
                }
            }
        }
    }
}

/// Chinese words for what English events say, written in the question unquoted ("删除的容器
/// 一共有几个", "被拒的交易"): a `phrases.toml` entry's Chinese word outside every cue and
/// literal matches any of the entry's wordings.
fn phrase_filters(lex: &Lexicon, p: &Parsed) -> Vec<Filter> {
    let mut out = Vec::new();
    let mut taken: Vec<(usize, usize)> = p.hits.iter().map(|h| (h.start, h.end)).collect();
    // An unknown word is no literal of its own here ("被 kill": `kill` is part of it).
    taken.extend(
        p.lits
            .iter()
            .filter(|l| !matches!(l.lit, Lit::Word(_)))
            .map(|l| (l.start, l.end)),
    );
    let mut words: Vec<(&str, &crate::lexicon::Phrase)> = lex
        .phrases
        .iter()
        .flat_map(|ph| ph.words.zh.iter().map(move |w| (w.as_str(), ph)))
        .collect();
    // Longest first: "连接被拒绝" before "被拒".
    words.sort_by_key(|(w, _)| std::cmp::Reverse(w.len()));
    for (w, ph) in words {
        for (s, e) in crate::lexicon::occurrences(&p.lower, w) {
            if taken.iter().any(|&(a, b)| a < e && s < b) {
                continue;
            }
            taken.push((s, e));
            let f = any_wording(None, ph.words.all());
            out.push(p.as_said((s, e), f));
        }
    }
    out
}

/// "for tenant hooli": a word right after a log's field's own name that the field holds
/// in the sample is that value, as the log writes it.
fn value_after_its_name(
    p: &Parsed,
    l: &super::scan::Spanned,
    w: &str,
    bound: Option<&str>,
) -> bool {
    let Some((column, _)) = p.column_with_value(w) else {
        return false;
    };
    let before = p.lower.get(..l.start).unwrap_or("").trim_end();
    Some(column) == bound
        && before.ends_with(&column.to_ascii_lowercase())
        && !before[..before.len() - column.len()].ends_with(|c: char| c.is_ascii_alphanumeric())
}

/// Whether a word after a field reads as its value: said to be it ("是 UF", "= UF", "is
/// UF") or written like a code (`UF`, `e5`), not a plain word ("client ips hit us").
fn value_like(p: &Parsed, l: &super::scan::Spanned) -> bool {
    let before = p.lower.get(..l.start).unwrap_or("").trim_end();
    let said = ["是", "为", "=", ":", "等于", " is", " equals"]
        .iter()
        .any(|c| before.ends_with(c));
    let written = p.text.get(l.start..l.end).unwrap_or("");
    said || written
        .chars()
        .any(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// The conditions the question's field cues carry.
fn field_filters(lex: &Lexicon, p: &Parsed, source: Source) -> Vec<Filter> {
    let mut out: Vec<Filter> = Vec::new();
    for h in &p.hits {
        let Cue::Field(i) = h.cue else { continue };
        let c = &lex.fields[i];
        if let (true, Some(f)) = (c.source.is_none_or(|s| s == source), &c.filter) {
            // A condition on a field the log lacks is no condition of this log.
            if f.field.as_deref().is_some_and(|x| !p.log_has(x)) {
                continue;
            }
            let f = filter(f.field.as_deref(), f.op, f.value.clone(), Unit::None);
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// The conditions source cues of this table carry: hard (`soft` false) or soft.
pub fn source_filters(lex: &Lexicon, p: &Parsed, source: Source, soft: bool) -> Vec<Filter> {
    let mut out: Vec<Filter> = Vec::new();
    for h in &p.hits {
        let Cue::Source(i) = h.cue else { continue };
        let c = &lex.sources[i];
        let f = if soft { &c.soft } else { &c.filter };
        if let (true, Some(f)) = (c.source == source, f) {
            let f = filter(f.field.as_deref(), f.op, f.value.clone(), Unit::None);
            let f = p.as_said((h.start, h.end), f);
            if !out.contains(&f) {
                out.push(f);
            }
        }
    }
    out
}

/// The field of a table a name is looked for in: a process by the program it runs (not
/// its whole command line, where the name also stands in an editor's file or a `tail` of
/// its log).
pub(super) fn name_field(source: Source) -> Option<&'static str> {
    match source {
        Source::Processes => Some("program"),
        Source::Sockets => Some("process"),
        Source::Units => Some("unit"),
        Source::Mounts | Source::Log => None,
    }
}

/// The field a literal is the value of: the field named right before it (text never binds
/// to a field of numbers: "pid of redis-server" names a process); a number binds to a field
/// of numbers named right after it ("哪个进程占用了 19999 端口") before a field of text named
/// before it.
fn bound_field(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    l: &super::scan::Spanned,
) -> Option<String> {
    let number = matches!(l.lit, Lit::Number { .. });
    let before =
        field_before(lex, p, source, l.start).filter(|f| number || !p.holds_numbers(lex, f));
    if number && before.as_ref().is_none_or(|f| !p.holds_numbers(lex, f)) {
        return super::parsed::numbers_field_after(lex, p, source, l.end, false).or(before);
    }
    before.or_else(|| text_field_after(lex, p, source, l))
}

/// "root 用户", "alice 账号": Chinese puts the noun after the name, so a word right before
/// a Chinese cue of a text field is that field's value.
fn text_field_after(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    l: &super::scan::Spanned,
) -> Option<String> {
    if !matches!(l.lit, Lit::Word(_) | Lit::Ident(_)) {
        return None;
    }
    super::parsed::field_hits(lex, p, source).find_map(|(h, f)| {
        let cue = p.text.get(h.start..h.end)?;
        let adjacent = h.start >= l.end && p.lower[l.end..h.start].trim().is_empty();
        // "sshd 以什么用户运行", "X 什么时候启动": a cue holding a question word asks.
        let g = &lex.grammar;
        let asking = (g.asks.zh.iter().chain(&g.interrogative.anywhere.zh))
            .any(|w| cue.contains(w.as_str()));
        let after_its_value = cue.starts_with(crate::text::is_cjk)
            || matches!(h.cue, Cue::Field(i) if lex.fields[i].follows_its_value);
        (adjacent
            && after_its_value
            && !asking
            && matches!(h.cue, Cue::Field(i) if !lex.fields[i].asks && !lex.fields[i].grouped)
            && !p.holds_numbers(lex, f))
        .then(|| f.to_string())
    })
}

/// The condition a place names: an address (the field it follows, else a log's client),
/// a URL path in a log, a path on the host over the mounts ("free space on /var": the
/// filesystem holding it, as `df PATH` reads it).
fn place_filter(source: Source, lit: &Lit, bound: Option<String>) -> Option<Filter> {
    let text = |field: Option<&str>, op: FilterOp, v: &str| {
        Some(filter(field, op, Scalar::Text(v.to_string()), Unit::None))
    };
    match lit {
        // A network: its addresses.
        Lit::Ip(ip) if ip.contains('/') => {
            let field = bound.or((source == Source::Log).then(|| "client".to_string()))?;
            let pattern = Scalar::Text(network_pattern(ip)?);
            Some(filter(Some(&field), FilterOp::Regex, pattern, Unit::None))
        }
        Lit::Ip(ip) => {
            let field = bound.or((source == Source::Log).then(|| "client".to_string()));
            let op = if field.is_some() {
                FilterOp::Eq
            } else {
                FilterOp::Contains
            };
            text(field.as_deref(), op, ip)
        }
        Lit::HostPath(path) | Lit::UrlPath(path) if source == Source::Mounts => {
            text(Some("mount"), FilterOp::Eq, path)
        }
        Lit::UrlPath(path) if source == Source::Log => match super::path_template::regex(path) {
            Some(pattern) => text(Some("path"), FilterOp::Regex, &pattern),
            None => text(Some("path"), FilterOp::Contains, path),
        },
        _ => None,
    }
}

/// The addresses of a network written with its prefix length ("10.20.0.0/16") as a regex
/// over dotted addresses: the octets the prefix fixes, then the range of the one it cuts
/// (`10.20.16.0/20`: third octet 16 to 31).
pub(super) fn network_pattern(cidr: &str) -> Option<String> {
    let (addr, len) = cidr.split_once('/')?;
    let len: u32 = len.parse().ok().filter(|l| *l <= 32)?;
    let octets: Vec<u32> = addr
        .split('.')
        .map(|o| o.parse().ok())
        .collect::<Option<_>>()?;
    let whole = (len / 8) as usize;
    let fixed: Vec<String> = octets[..whole].iter().map(u32::to_string).collect();
    let mut pattern = format!("^{}", fixed.join(r"\."));
    if whole == 4 {
        return Some(pattern + "$");
    }
    if whole > 0 {
        pattern.push_str(r"\.");
    }
    let cut = len % 8;
    if cut > 0 {
        let span = 1u32 << (8 - cut);
        let base = octets[whole] & !(span - 1);
        let alts: Vec<String> = (base..base + span).map(|v| v.to_string()).collect();
        pattern.push_str(&format!(r"(?:{})\b", alts.join("|")));
    }
    Some(pattern)
}

fn literal_filter(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    l: &super::scan::Spanned,
) -> Option<(Filter, Kind)> {
    let bound = bound_field(lex, p, source, l);
    let hard = |f: Filter| Some((f, Kind::Hard));
    match &l.lit {
        Lit::Number { value, unit } => {
            super::number_filter::number_filter(p, source, l.start, *value, *unit, bound)
        }
        Lit::Class(d) if source == Source::Log => hard(filter(
            Some("status"),
            FilterOp::Class,
            Scalar::Number(f64::from(*d)),
            Unit::None,
        )),
        Lit::Ip(_) | Lit::HostPath(_) | Lit::UrlPath(_) => {
            place_filter(source, &l.lit, bound).map(|f| (f, Kind::Hard))
        }
        // "orders-api" when an upload is `orders-api.jsonl`, "meter-ingest 的容器日志": the
        // log's name, not its text.
        // Even after a field's word ("这个 IP 在 db 日志里"): a part of an upload's name right
        // before a word for a log names that log.
        Lit::Ident(t)
            if source == Source::Log
                && bound.is_none()
                && (p.names_an_upload(t)
                    || super::object_words::stands_before_a_log_word(lex, p, l)) =>
        {
            None
        }
        Lit::Ident(t) | Lit::Word(t)
            if source == Source::Log
                && p.names_an_upload(t)
                && super::object_words::stands_before_a_log_word(lex, p, l) =>
        {
            None
        }
        // "the most UF", "SERVFAIL 最多": a word that is one column's value in the sample,
        // also after another field's name ("accounts by AUTH_DENIED count": `event`'s value).
        Lit::Word(w) | Lit::Ident(w)
            if source == Source::Log
                && (bound.is_none()
                    || p.column_with_value(w)
                        .is_some_and(|(f, _)| Some(f) != bound.as_deref())) =>
        {
            unbound_word_filter(lex, p, l, w)
        }
        // "the command line of ledger-daemon": an unquoted name is the program's, whatever
        // field is asked of it; a quoted text is looked for in the command line.
        Lit::Ident(t) if source == Source::Processes && bound.as_deref() == Some("command") => {
            Some(text_filter(lex, source, t, None))
        }
        Lit::Quoted(t) | Lit::Ident(t) => Some(text_filter(lex, source, t, bound.as_deref())),
        Lit::Word(w) => bound_word_filter(p, source, l, w, bound.as_deref())
            .or_else(|| word_filter(lex, p, source, (l.start, l.end), w)),
        Lit::Pair { field, value } => pair_filter(p, source, field, value),
        _ => None,
    }
}

/// A word bound to the field named by it: "tenant hooli" in a log is the value as the
/// sample writes it; "error_code 为 E42", "with error_code E42": a word right after a log's
/// field is that field's value, as written; over a system table, any word right after a
/// column's cue ("running as root", "owned by postgres").
fn bound_word_filter(
    p: &Parsed,
    source: Source,
    l: &super::scan::Spanned,
    w: &str,
    bound: Option<&str>,
) -> Option<(Filter, Kind)> {
    let text = |field: &str, v: &str| {
        let f = filter(
            Some(field),
            FilterOp::Eq,
            Scalar::Text(v.to_string()),
            Unit::None,
        );
        Some((f, Kind::Hard))
    };
    if source == Source::Log && value_after_its_name(p, l, w, bound) {
        let (field, value) = p.column_with_value(w)?;
        return text(field, value);
    }
    let field = bound?;
    if source != Source::Log || value_like(p, l) {
        return text(field, p.text.get(l.start..l.end)?);
    }
    None
}

/// A log's word bound to no field: a column's value when one column holds it in the
/// sample ("the most UF", "SERVFAIL 最多"), else text the events contain.
fn unbound_word_filter(
    lex: &Lexicon,
    p: &Parsed,
    l: &super::scan::Spanned,
    w: &str,
) -> Option<(Filter, Kind)> {
    match p.column_with_value(w) {
        Some((field, value)) => Some((
            filter(
                Some(field),
                FilterOp::Eq,
                Scalar::Text(value.to_string()),
                Unit::None,
            ),
            Kind::Hard,
        )),
        None => match &l.lit {
            Lit::Ident(t) => Some(text_filter(lex, Source::Log, t, None)),
            _ => word_filter(lex, p, Source::Log, (l.start, l.end), w).or_else(|| {
                // Where a name stands: the subject of the question ("did redix drop"),
                // or any English word of a Chinese question; a whole name a column holds,
                // anywhere ("the last thing sshd logged").
                let part = p.name_may_stand_at(l.start) && p.part_of_a_logged_name(w);
                // A word naming the log itself ("the pgbouncer log", "notifier 容器日志")
                // is no condition, whatever column also holds it.
                let names_the_log = p.names_an_upload(w)
                    || super::object_words::stands_before_a_log_word(lex, p, l);
                let whole = (!part && !names_the_log).then(|| whole_name(p, w));
                if let Some(f) = whole.flatten() {
                    return Some((f, Kind::Hard));
                }
                part.then(|| {
                    let f = filter(None, FilterOp::Contains, Scalar::Text(w.into()), Unit::None);
                    (f, Kind::Hard)
                })
            }),
        },
    }
}

/// A whole name a column of names holds ("sshd" of `program`, "payments" of a service's
/// `component`): that column's events; a program's or a unit's is looked for as text,
/// since other programs' lines about it (systemd's "Started sshd") are about it too.
fn whole_name(p: &Parsed, w: &str) -> Option<Filter> {
    let (field, value) = p.any_column_with_value(w)?;
    let talked_about = p.columns.iter().any(|c| {
        c.name == field
            && c.roles
                .iter()
                .any(|r| matches!(r.as_str(), "program" | "unit" | "process"))
    });
    Some(if talked_about {
        filter(None, FilterOp::Contains, Scalar::Text(w.into()), Unit::None)
    } else {
        filter(
            Some(field),
            FilterOp::Eq,
            Scalar::Text(value.into()),
            Unit::None,
        )
    })
}

/// A quoted or name-like text: looked for in the events (or in the name column of a
/// system table), in every wording the lexicon knows for it.
fn text_filter(lex: &Lexicon, source: Source, t: &str, bound: Option<&str>) -> (Filter, Kind) {
    // A text that is no program's name (`gunicorn app:app`, `--config=/etc/x`) is looked
    // for in a process's whole command line.
    let program_like = !t.contains(|c: char| c.is_whitespace() || matches!(c, '/' | '=' | ':'))
        && !t.starts_with('-');
    let field = match bound.or(name_field(source)) {
        Some("program") if !program_like => Some("command"),
        f => f,
    };
    let kind = if source == Source::Log {
        Kind::Hard
    } else {
        Kind::Name
    };
    // A phrase the lexicon knows in both languages matches either wording. Only a phrase
    // written in Chinese or an acronym ("NPE"): an English name (`OutOfMemoryError`) is
    // matched as written.
    let cjk = t.chars().any(crate::text::is_cjk);
    let acronym = t.len() <= 5 && t.bytes().all(|b| b.is_ascii_uppercase());
    let wordings = (source == Source::Log && (cjk || acronym))
        .then(|| lex.wordings(t))
        .flatten();
    let signal = (source == Source::Log)
        .then(|| signal_wordings(t))
        .flatten();
    let joined = (source == Source::Log && bound.is_none())
        .then(|| any_joiner(t))
        .flatten();
    let f = match (wordings, signal.or(joined)) {
        (Some(ws), _) => any_wording(field, ws.into_iter()),
        (None, Some(re)) => filter(field, FilterOp::Regex, Scalar::Text(re), Unit::None),
        (None, None) => filter(
            field,
            FilterOp::Contains,
            Scalar::Text(t.to_string()),
            Unit::None,
        ),
    };
    (f, kind)
}

/// A name of words joined by `-` or `_` (`slot-api`) as a regex that finds it joined either
/// way: a service is `slot-api` in its deployment and `slot_api` in its own module paths.
fn any_joiner(t: &str) -> Option<String> {
    let parts: Vec<&str> = t.split(['-', '_']).collect();
    // Words only: a host or an instance (`web-03`, `worker-7`) is written one way.
    let plain = |p: &&str| p.len() >= 2 && p.bytes().all(|b| b.is_ascii_alphabetic());
    (parts.len() > 1 && parts.iter().all(plain)).then(|| {
        let alts: Vec<String> = parts.iter().map(|p| regex_escape(p)).collect();
        alts.join("[-_]")
    })
}

/// `field=value`: that field's value; over a field the log does not have, text of its
/// events ("sku=BK-7" in a message), or no condition at all ("a == b").
fn pair_filter(p: &Parsed, source: Source, field: &str, value: &str) -> Option<(Filter, Kind)> {
    if source == Source::Log && !p.log_has(field) {
        if value.starts_with('=') {
            return None;
        }
        let whole = Scalar::Text(format!("{field}={value}"));
        return Some((
            filter(None, FilterOp::Contains, whole, Unit::None),
            Kind::Hard,
        ));
    }
    let v = value
        .parse::<f64>()
        .map(Scalar::Number)
        .unwrap_or_else(|_| Scalar::Text(value.to_string()));
    Some((filter(Some(field), FilterOp::Eq, v, Unit::None), Kind::Hard))
}

/// Whether a word of this table (its name, or one of its fields) stands right before or
/// after the span: "nginx processes", "pid of redis", "postgres 进程".
/// A count asked between them does not part them ("nginx 有几个进程").
fn next_to_cue(lex: &Lexicon, p: &Parsed, source: Source, start: usize, end: usize) -> bool {
    let apart = |from: usize, to: usize| {
        // "how many connections does redis have": a helping verb before the name.
        // "sshd 的命令行", "the command line of sshd": whose field it is.
        let gap = p.lower[from..to].trim();
        if gap.chars().count() <= 1 || lex.grammar.helping.all().any(|w| w == gap) {
            return true;
        }
        // The gap less a count's words: at most one character ("有").
        let count = p.hits.iter().find(|m| {
            matches!(m.cue, Cue::Measure(i) if lex.measures[i].measure == llmops_common::query::Measure::Count)
                && m.start >= from
                && m.end <= to
        });
        count.is_some_and(|m| {
            let rest = format!("{}{}", &p.lower[from..m.start], &p.lower[m.end..to]);
            rest.trim().chars().count() <= 1
        })
    };
    p.hits.iter().any(|h| {
        let of_table = match h.cue {
            Cue::Source(i) => lex.sources[i].source == source,
            Cue::Field(i) => lex.fields[i].source.is_none_or(|s| s == source),
            Cue::Column(_) => source == Source::Log,
            _ => false,
        };
        let clause = matches!(h.cue, Cue::Source(_)) && clause_between(lex, p, h.end, start);
        of_table
            && ((h.end <= start && (apart(h.end, start) || clause))
                || (h.start >= end && apart(end, h.start)))
    })
}

/// "processes that are not java", "processes other than nginx", "processes are java": a
/// table's word, then at most three helping words and a negation, then the name.
fn clause_between(lex: &Lexicon, p: &Parsed, from: usize, to: usize) -> bool {
    if from > to {
        return false;
    }
    let negation: Vec<(usize, usize)> = p
        .hits
        .iter()
        .filter(|h| h.cue == Cue::Negate && h.start >= from && h.end <= to)
        .map(|h| (h.start, h.end))
        .collect();
    // The words between them, less those a negation covers (overlapping ones too).
    let mut words = Vec::new();
    let mut at = from;
    for w in p.lower[from..to].split(' ') {
        let (s, e) = (at, at + w.len());
        at = e + 1;
        if !w.is_empty() && !negation.iter().any(|&(a, b)| a <= s && e <= b) {
            words.push(w);
        }
    }
    let stop = &lex.grammar.stop.en;
    words.len() <= 3
        && words
            .iter()
            .all(|w| *w == "that" || stop.iter().any(|s| s == w))
}

/// A plain word: a name in a system table when it stands by a table or field word; in a
/// log only after "containing"/"包含".
fn word_filter(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    (at, end): (usize, usize),
    w: &str,
) -> Option<(Filter, Kind)> {
    let op = FilterOp::Contains;
    // "which of sleep, cat and tail", "sshd 和 cron 哪个": a list of words names things.
    let listed = |s: Option<(usize, usize)>| {
        s.is_some_and(|(a, b)| p.lits.iter().any(|l| (l.start, l.end) == (a, b)))
    };
    let in_a_list =
        listed(p.joined_item((at, end), true)) || listed(p.joined_item((at, end), false));
    match name_field(source) {
        Some(_) if !next_to_cue(lex, p, source, at, end) && !in_a_list => None,
        Some(field) => Some((
            filter(Some(field), op, Scalar::Text(w.to_string()), Unit::None),
            Kind::Name,
        )),
        None => {
            let asked = p.hits.iter().any(|h| {
                h.cue == Cue::Contains && h.end <= at && p.lower[h.end..at].trim().len() <= 8
            });
            asked.then(|| {
                (
                    filter(None, op, Scalar::Text(w.to_string()), Unit::None),
                    Kind::Hard,
                )
            })
        }
    }
}

/// Adds the name `f` to the name filter `target` as an alternative ("sleep, cat and tail":
/// any of them; "other than java and python": none of them). False when they are not names
/// of one field said the same way.
fn one_more_name(target: &mut Filter, f: &Filter) -> bool {
    let held = |x: &Filter| {
        matches!(
            x.op,
            FilterOp::Contains | FilterOp::Regex | FilterOp::NotContains
        )
        .then(|| !x.excludes())
    };
    if target.field != f.field || held(target).is_none() || held(target) != held(f) {
        return false;
    }
    let pattern = |x: &Filter| match x.op {
        FilterOp::Regex => x.value.to_string(),
        _ => regex_escape(&x.value.to_string()),
    };
    let value = format!("(?:{}|{})", pattern(target), pattern(f));
    let positive = held(target) == Some(true);
    *target = Filter {
        negate: !positive,
        case_sensitive: target.case_sensitive,
        ..filter(
            target.field.as_ref().map(|x| x.as_str()),
            FilterOp::Regex,
            Scalar::Text(value),
            Unit::None,
        )
    };
    true
}
