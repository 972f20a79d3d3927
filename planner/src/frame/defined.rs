//! Fields a question defines from the events' text, for what a log writes inside its lines
//! but has no field for: "TKT ids" (the tokens that start with `TKT` and hold a digit), "the
//! part after secret/teams/" / "secret/teams/ 后面那段" (what follows the literal), "which
//! replica" (the value the lines write after the noun). Each
//! becomes a column of the question (named by the noun a grouping word asks for, "which
//! role", else by the literal) and a `Query::extract` the engine cuts out of every event.
//! The words are data (`grammar.toml` `[defined]`).

use llmops_common::query::{Column, Extract, Measure};

use super::scan::{Lit, Spanned};
use crate::lexicon::{occurrences, Cue, Hit, Lexicon};

/// A field the question defines, and where it says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Defined {
    pub extract: Extract,
    /// The spans that name or define it: each becomes a hit of its column, and the words
    /// inside are no cues or literals of their own.
    pub spans: Vec<(usize, usize)>,
}

/// What the fields are looked for in.
pub struct Question<'a> {
    pub text: &'a str,
    pub lower: &'a str,
    pub hits: &'a [Hit],
    pub lits: &'a [Spanned],
    pub columns: &'a [Column],
    /// Where the question names files.
    pub files: &'a [(usize, usize)],
}

impl Question<'_> {
    fn is_column(&self, name: &str) -> bool {
        self.columns
            .iter()
            .any(|c| c.name.eq_ignore_ascii_case(name))
    }

    fn in_file_name(&self, s: usize, e: usize) -> bool {
        self.files.iter().any(|&(a, b)| a < e && s < b)
    }

    /// Whether a cue of the lexicon that carries content or asks covers part of the span.
    fn cued(&self, s: usize, e: usize) -> bool {
        self.hits
            .iter()
            .any(|h| h.start < e && s < h.end && (h.cue.is_content() || h.cue == Cue::Group))
    }
}

/// The fields the question defines from the text: each a column with
/// a hit at every span that names or defines it, the cues and literals inside those spans
/// dropped.
pub fn add(
    lex: &Lexicon,
    (text, lower, files): (&str, &str, &[(usize, usize)]),
    hits: &mut Vec<Hit>,
    lits: &mut Vec<Spanned>,
    columns: &mut Vec<Column>,
) -> Vec<Extract> {
    let q = Question {
        text,
        lower,
        hits,
        lits,
        columns,
        files,
    };
    let found = defined_fields(lex, &q);
    let mut out = Vec::new();
    for d in found {
        let i = columns.len();
        columns.push(Column {
            name: d.extract.name.clone(),
            ..Column::default()
        });
        let inside = |s: usize, e: usize| d.spans.iter().any(|&(a, b)| a <= s && e <= b);
        hits.retain(|h| !inside(h.start, h.end));
        lits.retain(|l| !inside(l.start, l.end));
        hits.extend(d.spans.iter().map(|&(start, end)| Hit {
            start,
            end,
            cue: Cue::Column(i),
        }));
        out.push(d.extract);
    }
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
    out
}

/// The fields `q` defines, at most one per span.
pub fn defined_fields(lex: &Lexicon, q: &Question<'_>) -> Vec<Defined> {
    let mut out = id_fields(lex, q);
    out.extend(mail_domain(lex, q));
    for (extract, spans) in super::shapes::shape_fields(lex, q.lower, q.columns, q.files) {
        let d = Defined { extract, spans };
        let overlaps = |o: &Defined| {
            o.spans
                .iter()
                .any(|&(a, b)| d.spans.iter().any(|&(s, e)| a < e && s < b))
        };
        if !out.iter().any(overlaps) {
            out.push(d);
        }
    }
    let after = after_fields(lex, q);
    for d in after.into_iter().chain(noun_fields(lex, q)) {
        let overlaps = |o: &Defined| {
            o.spans
                .iter()
                .any(|&(a, b)| d.spans.iter().any(|&(s, e)| a < e && s < b))
        };
        if !out.iter().any(overlaps) && !out.iter().any(|o| o.extract.name == d.extract.name) {
            out.push(d);
        }
    }
    out
}

/// "TKT ids", "TKT 编号": a prefix written with a capital (as logs write ids) right before an
/// id noun, no word the lexicon or the log knows.
fn id_fields(lex: &Lexicon, q: &Question<'_>) -> Vec<Defined> {
    let mut out: Vec<Defined> = Vec::new();
    let stop = &lex.grammar.stop.en;
    for noun in lex.grammar.defined.id.all() {
        for (ns, ne) in occurrences(q.lower, &noun.to_ascii_lowercase()) {
            let before = q.text[..ns].trim_end_matches([' ', '\t', '-']);
            let start = before
                .rfind(|c: char| !c.is_ascii_alphanumeric())
                .map_or(0, |i| {
                    i + before[i..].chars().next().map_or(1, char::len_utf8)
                });
            let prefix = &before[start..];
            let edge_ok = q.text[..start]
                .chars()
                .next_back()
                .is_none_or(|c| !matches!(c, '-' | '_' | '.' | '/' | ':' | '='));
            let plausible = (2..=12).contains(&prefix.len())
                && prefix.starts_with(|c: char| c.is_ascii_alphabetic())
                && prefix.bytes().any(|b| b.is_ascii_uppercase())
                && edge_ok
                && !stop.iter().any(|w| w.eq_ignore_ascii_case(prefix))
                && !q.is_column(prefix)
                && !q.cued(start, before.len())
                && !q.in_file_name(start, ne);
            let name = format!("{}_id", prefix.to_ascii_lowercase());
            if !plausible || q.is_column(&name) || out.iter().any(|d| d.extract.name == name) {
                continue;
            }
            let regex = format!(
                r"(?i)\b({}[-_:#]?[A-Za-z0-9]*\d[A-Za-z0-9]*)",
                regex::escape(prefix)
            );
            out.push(Defined {
                extract: Extract {
                    name,
                    regex,
                    numeric: false,
                },
                spans: vec![(start, ne)],
            });
        }
    }
    out
}

/// Whether a clause only defines a field ("the part after tenant=", "就是 secret/teams/
/// 后面那段"): it says what the question before it means, and belongs to it.
pub fn only_defines(lex: &Lexicon, clause: &str) -> bool {
    let text = crate::text::normalize(clause);
    let lower = text.to_ascii_lowercase();
    let hits = crate::lexicon::find(lex, &lower);
    let q = Question {
        text: &text,
        lower: &lower,
        hits: &hits,
        lits: &[],
        columns: &[],
        files: &[],
    };
    let Some(d) = after_fields(lex, &q).into_iter().next() else {
        return false;
    };
    let mut rest = lower.into_bytes();
    for &(s, e) in &d.spans {
        rest[s..e].fill(b' ');
    }
    let mut rest = format!(" {} ", String::from_utf8_lossy(&rest));
    let gloss = &lex.grammar.defined.gloss;
    for w in gloss
        .all()
        .chain(lex.grammar.stop.en.iter().map(String::as_str))
    {
        let word = if w.is_ascii() {
            format!(" {w} ")
        } else {
            w.to_string()
        };
        while let Some(i) = rest.find(&word) {
            rest.replace_range(i..i + word.len(), " ");
        }
    }
    !rest.chars().any(char::is_alphanumeric)
}

/// "the part after secret/teams/", "role= 后面的值": what follows a literal that ends
/// with `/`, `=` or `:`.
fn after_fields(lex: &Lexicon, q: &Question<'_>) -> Vec<Defined> {
    let words = &lex.grammar.defined;
    let mut out = Vec::new();
    for after in &words.after_en {
        for (s, e) in occurrences(q.lower, after) {
            let (ls, le, lit) = literal_after(q.text, e);
            let Some(lit) = lit else { continue };
            let part = part_before(q.lower, s, &words.part.en);
            // "after error:" says when as often as what; a part noun makes it the text.
            if lit.ends_with(':') && part.is_none() {
                continue;
            }
            let span = (glossed_from(lex, q.lower, part.unwrap_or(s)), le);
            out.extend(define(lex, q, &lit, span, ls));
        }
    }
    for after in &words.after_zh {
        for (s, e) in occurrences(q.lower, after) {
            let rest = &q.lower[e..];
            let Some(part) = words
                .part
                .zh
                .iter()
                .filter(|w| rest.starts_with(w.as_str()))
                .max_by_key(|w| w.len())
            else {
                continue;
            };
            let (ls, lit) = literal_before(q.text, s);
            let Some(lit) = lit else { continue };
            let span = (glossed_from(lex, q.lower, ls), e + part.len());
            out.extend(define(lex, q, &lit, span, ls));
        }
    }
    out
}

/// The field a literal defines, named by the noun the question asks for.
fn define(
    lex: &Lexicon,
    q: &Question<'_>,
    lit: &str,
    span: (usize, usize),
    lit_start: usize,
) -> Option<Defined> {
    if q.in_file_name(span.0, span.1) {
        return None;
    }
    let esc = regex::escape(lit);
    let regex = match lit.chars().last()? {
        '/' => format!(r#"{esc}([^/\s?#"',;&)\]}}]+)"#),
        '=' => format!(r#"{esc}"?([^\s"',;&)\]}}]+)"#),
        _ => format!(r#"{esc}[ \t]*([^\s"',;)\]}}]+)"#),
    };
    let mut spans = vec![span];
    let name = match asked_noun(lex, q, lit_start) {
        Some((noun, ns, ne)) => {
            spans.push((ns, ne));
            noun
        }
        None => {
            let last = lit
                .split(|c: char| !c.is_ascii_alphanumeric())
                .rfind(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))?;
            let name = last.to_ascii_lowercase();
            if q.is_column(&name) {
                format!("{name}_part")
            } else {
                name
            }
        }
    };
    Some(Defined {
        extract: Extract {
            name,
            regex,
            numeric: false,
        },
        spans,
    })
}

/// The literal right after byte `at` (past blanks and an opening quote): its span and
/// text, when it ends with `/`, `=` or `:` and holds a letter.
fn literal_after(text: &str, at: usize) -> (usize, usize, Option<String>) {
    let rest = &text[at..];
    let ws = rest.len() - rest.trim_start().len();
    let rest = &rest[ws..];
    let quote = rest.starts_with(['"', '\'', '`', '“', '‘']);
    let q = rest
        .chars()
        .next()
        .filter(|_| quote)
        .map_or(0, char::len_utf8);
    let body = &rest[q..];
    let len = body
        .find(|c: char| {
            c.is_whitespace() || matches!(c, '"' | '\'' | '`' | '”' | '’' | '，' | '？')
        })
        .unwrap_or(body.len());
    let word = body[..len].trim_end_matches([',', '?', ')', '.', ';']);
    let start = at + ws + q;
    let closing = body[len..].starts_with(['"', '\'', '`', '”', '’']);
    let end = start + len + usize::from(closing && word.len() == len);
    (start, end, plain_literal(word))
}

/// The literal that ends right before byte `at` (past blanks and a closing quote).
fn literal_before(text: &str, at: usize) -> (usize, Option<String>) {
    let head = text[..at].trim_end();
    let head = head.trim_end_matches(['"', '\'', '`', '”', '’']);
    let start = head
        .rfind(|c: char| c.is_whitespace() || !c.is_ascii() || matches!(c, '"' | '\'' | '`'))
        .map_or(0, |i| {
            i + head[i..].chars().next().map_or(1, char::len_utf8)
        });
    let word = &head[start..];
    // An opening quote is part of the definition's span.
    let quoted = text[..start].ends_with(['"', '\'', '`', '“', '‘']);
    let span_start = if quoted {
        start - text[..start].chars().next_back().map_or(0, char::len_utf8)
    } else {
        start
    };
    (span_start, plain_literal(word))
}

fn plain_literal(word: &str) -> Option<String> {
    let ok = word.len() >= 2
        && word.ends_with(['/', '=', ':'])
        && word.bytes().any(|b| b.is_ascii_alphabetic())
        && !word.starts_with("http");
    ok.then(|| word.to_string())
}

/// Where a definition starting at byte `at` starts with the gloss word before it ("i.e.",
/// "就是"), which then says nothing of its own.
fn glossed_from(lex: &Lexicon, lower: &str, at: usize) -> usize {
    let head = lower[..at].trim_end_matches([' ', ',', '，', ':', '：', '-']);
    let head = head.strip_suffix("the").map_or(head, str::trim_end);
    lex.grammar
        .defined
        .gloss
        .all()
        .filter(|w| {
            head.ends_with(*w)
                && !(w.is_ascii()
                    && head[..head.len() - w.len()].ends_with(|c: char| c.is_ascii_alphanumeric()))
        })
        .map(|w| head.len() - w.len())
        .min()
        .unwrap_or(at)
}

/// A part noun ("the part", "segment") right before byte `at`.
fn part_before(lower: &str, at: usize, parts: &[String]) -> Option<usize> {
    let head = lower[..at].trim_end();
    parts
        .iter()
        .filter(|w| {
            head.ends_with(w.as_str())
                && !head[..head.len() - w.len()].ends_with(|c: char| c.is_ascii_alphanumeric())
        })
        .map(|w| head.len() - w.len())
        .min()
}

/// The noun a grouping word or "how many different" asks for ("which role", "哪个
/// tenant", "distinct roles") that neither the lexicon nor the log knows: the field's name
/// (in the singular) and its span. The nearest such noun to the literal is taken.
fn asked_noun(lex: &Lexicon, q: &Question<'_>, near: usize) -> Option<(String, usize, usize)> {
    let asks = |h: &Hit| match h.cue {
        Cue::Group => true,
        Cue::Measure(i) => lex.measures[i].measure == Measure::CountDistinct,
        _ => false,
    };
    let stop = &lex.grammar.stop.en;
    q.lits
        .iter()
        .filter_map(|l| match &l.lit {
            Lit::Word(w) | Lit::Ident(w) => Some((l, w)),
            _ => None,
        })
        .filter(|(l, w)| {
            w.len() >= 2
                && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !stop.iter().any(|s| s.eq_ignore_ascii_case(w))
                && !q.is_column(w)
                && q.hits.iter().any(|h| {
                    asks(h) && h.end <= l.start && q.text[h.end..l.start].trim().is_empty()
                })
        })
        .min_by_key(|(l, _)| l.start.abs_diff(near))
        .map(|(l, w)| {
            let lower = w.to_ascii_lowercase();
            let one = match lower.strip_suffix('s') {
                Some(s) if s.len() >= 3 && !s.ends_with('s') => s.to_string(),
                _ => lower,
            };
            (one, l.start, l.end)
        })
}

/// "收件人域名", "which recipient domains": in a log that writes mail addresses (a column of
/// them, or both `to` and `from` keys) but has no domain field, the part after `@` of the event's
/// recipient (`to=<x@dom>`) when the words ask for it, else of its first address.
fn mail_domain(lex: &Lexicon, q: &Question<'_>) -> Option<Defined> {
    let words = &lex.grammar.defined.mail_domain;
    let has = |name: &str| q.columns.iter().any(|c| c.name.eq_ignore_ascii_case(name));
    // An address is `name@domain.tld` (not `postgres@db`, not a path's `/@vite/`); a mail
    // log's delivery lines write both a sender and a recipient key.
    let address = |v: &str| {
        v.split_once('@').is_some_and(|(name, dom)| {
            !name.is_empty() && !name.contains('/') && dom.contains('.') && !dom.contains('/')
        })
    };
    let addresses = q
        .columns
        .iter()
        .any(|c| c.values.iter().any(|v| address(v)))
        || (has("to") && has("from"));
    if has("domain") || !addresses {
        return None;
    }
    let spans: Vec<(usize, usize)> = words
        .all()
        .flat_map(|w| occurrences(q.lower, &w.to_lowercase()))
        .collect();
    let mut kept: Vec<(usize, usize)> = Vec::new();
    for s in spans {
        if !kept.iter().any(|&(a, b)| a < s.1 && s.0 < b) {
            kept.push(s);
        }
    }
    if kept.is_empty() {
        return None;
    }
    let recipient = lex
        .grammar
        .defined
        .recipient
        .all()
        .any(|w| q.lower.contains(&w.to_lowercase()));
    let domain = r"@([A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+)";
    let regex = if recipient && has("to") {
        format!(r"\bto=<?[^@\s<>,]+{domain}")
    } else {
        format!(r"[^@\s<>=,;]+{domain}")
    };
    Some(Defined {
        extract: Extract {
            name: "domain".into(),
            regex,
            numeric: false,
        },
        spans: kept,
    })
}

/// "which replica lost its connection most", "哪个 shard": a noun after a word asking which
/// one (`[defined] which`) that no cue, column or file name covers, which a log's lines
/// write before a value ("Connection with replica 10.0.0.8:6379 lost"): that value is a
/// field the question defines.
fn noun_fields(lex: &Lexicon, q: &Question<'_>) -> Vec<Defined> {
    let stop = &lex.grammar.stop.en;
    let mut out: Vec<Defined> = Vec::new();
    // "the longest query … and which table": a value of the extreme event is asked, no
    // grouping.
    let extreme = q.hits.iter().any(|h| {
        matches!(h.cue, Cue::Measure(i) if matches!(lex.measures[i].measure,
            Measure::Max | Measure::Min))
    });
    // Only of a log in view (its columns read): with none, the question is about the
    // machine, whose tables have no text to cut a field from. A word for a system table
    // does not forbid it: a log has its services and jobs too ("which service").
    if extreme || q.columns.is_empty() {
        return out;
    }
    // Only a word that asks which one ("which", "哪个"): a ranking or grouping word before
    // a noun ("the most data", "per irrigation cycle") says what is counted as often.
    let which = &lex.grammar.defined.which;
    let asks = |h: &&crate::lexicon::Hit| {
        h.cue == Cue::Group && which.all().any(|w| q.lower.get(h.start..h.end) == Some(w))
    };
    for h in q.hits.iter().filter(asks) {
        let Some(l) = q
            .lits
            .iter()
            .find(|l| l.start > h.end && q.text[h.end..l.start].trim().is_empty())
        else {
            continue;
        };
        let Lit::Word(w) = &l.lit else { continue };
        let noun = w.to_ascii_lowercase();
        let name = super::words::singular(&noun);
        let name = name.as_str();
        // A noun right before a field's word modifies it ("client addr"); one a column's
        // name holds ("container" of `containerName`) is that column.
        let modifies = q.hits.iter().any(|c| {
            matches!(c.cue, Cue::Field(_) | Cue::Column(_))
                && c.start >= l.end
                && q.text[l.end..c.start].trim().is_empty()
        });
        let a_columns = q
            .columns
            .iter()
            .any(|c| c.name.to_ascii_lowercase().contains(name));
        let plausible = !modifies
            && !a_columns
            && name.len() >= 3
            && name.bytes().all(|b| b.is_ascii_lowercase())
            && !stop.iter().any(|s| s.eq_ignore_ascii_case(&noun))
            && !q.is_column(name)
            && !q.is_column(&noun)
            && !q.cued(l.start, l.end)
            && !q.in_file_name(l.start, l.end);
        if !plausible || out.iter().any(|d| d.extract.name == name) {
            continue;
        }
        // The token after the noun (after a space, `:`, `=` or `#`, and an opening quote
        // or bracket), without the sentence's full stop; or the path segment after the
        // noun's collection in a URL (`/tenants/T-17/invoices`). A value ends at a `/`.
        let n = regex::escape(name);
        let regex = format!(
            r#"(?i)(?:\b{n}(?:e?s)?[\s:=#]+["'\[(]?|/{n}(?:e?s)?/)([^\s,;"'\])/?]*[^\s,;"'\]).?/])"#
        );
        out.push(Defined {
            extract: Extract {
                name: name.to_string(),
                regex,
                numeric: false,
            },
            spans: vec![(l.start, l.end)],
        });
    }
    out
}
