//! A log's own field names in a question: as written, in their words, or by a nested key's
//! last segment; which of them stand as the field and which are a lexicon word's or a
//! phrase's.

use llmops_common::query::{Column, Source};

use crate::lexicon::{find, lexicon, Cue, Hit};

/// Whether a key's last segment is a compound of its own (`dur_ms`).
fn compound_last(last: &str) -> bool {
    last.contains(['_', '-'])
}

/// Where column `i` is said: as written, in its words, or by its last segment after a
/// grouping word. A key that is a short word of the question's own grammar and no field's
/// (a `by` key) is the key only where written as one: quoted, or before `=`/`:`.
fn said_at(
    (text, lower, unhyphened): (&str, &str, &str),
    columns: &[Column],
    spoken: &[Vec<String>],
    i: usize,
    hits: &[Hit],
) -> Vec<(usize, usize)> {
    let c = &columns[i];
    let name = c.name.to_ascii_lowercase();
    let stop = name.len() <= 3
        && lexicon().grammar.stop.en.contains(&name)
        && find(lexicon(), &name).is_empty();
    let keyed = |&(s, e): &(usize, usize)| {
        let before = lower[..s].chars().next_back();
        let after = lower[e..].chars().next();
        matches!(before, Some('`' | '"' | '\''))
            || matches!(after, Some('=' | ':' | '`' | '"' | '\''))
    };
    let mut at = column_named_at((text, lower, unhyphened), columns, c);
    if stop {
        at.retain(keyed);
    }
    at.extend(said_in_words(lower, columns, spoken, i));
    at.extend(an_objects_id(lower, columns, c));
    at.extend(grouped_by_last(text, columns, c, hits));
    at.sort_unstable();
    at.dedup();
    at
}

/// "which dock": a nested object named by its key is what names it, when it has such a key
/// and no field is named so itself: its `name` or `username` before its `id` (`dock.id` of
/// `dock.{id,region}`, `owner.username` of `owner.{id,username}`): an operator reads a
/// name where there is one.
fn an_objects_id(lower: &str, columns: &[Column], c: &Column) -> Vec<(usize, usize)> {
    let Some(object) = object_named_by(columns, c) else {
        return Vec::new();
    };
    let mut at = crate::lexicon::occurrences(lower, &object);
    at.extend(crate::lexicon::occurrences(lower, &format!("{object}s")));
    at
}

/// The object (lower-cased) that column `c` names, when it is one's naming key.
fn object_named_by(columns: &[Column], c: &Column) -> Option<String> {
    const NAMING: [&str; 3] = ["name", "username", "id"];
    let name = c.name.to_ascii_lowercase();
    let (object, key) = name.rsplit_once('.')?;
    let named = |n: &str| columns.iter().any(|o| o.name.eq_ignore_ascii_case(n));
    let first = NAMING.iter().find(|k| named(&format!("{object}.{k}")));
    let names = first == Some(&key) && object.len() >= 3 && !object.contains('.');
    (names && !named(object)).then(|| object.to_string())
}

/// Whether the lexicon's hit `h` on the span gives way to the log's own field `c`: a field
/// word for a field the log lacks (zap's `caller` beside the lexicon's "caller" for a
/// client), the word of an object the log writes (a gateway's `server` object for "server", not
/// the server role's field), a system table's word the log writes as a field's name (Kafka's `partition`),
/// or the key written exactly where it holds the role the lexicon's word reads (a `took`
/// beside an `elapsed`, both durations).
fn the_logs_own(
    lower: &str,
    columns: &[Column],
    c: &Column,
    span: (usize, usize),
    h: &Hit,
) -> bool {
    let name = c.name.to_ascii_lowercase();
    (h.start, h.end) == span
        && match h.cue {
            Cue::Field(k) => {
                let f = &lexicon().fields[k].field;
                super::value_words::column_for(columns, f).is_none()
                    || object_named_by(columns, c).is_some_and(|o| lower[span.0..span.1] == o)
                    || (lower[span.0..span.1] == name
                        && !f.eq_ignore_ascii_case(&name)
                        && c.roles.iter().any(|r| r == f))
            }
            Cue::Source(k) => lexicon().sources[k].source != Source::Log,
            _ => false,
        }
}

/// A field named by the log's own name ("request_time", "user.id", "Tr"). A plain word
/// the lexicon already reads ("status", "host") stays the lexicon's: the lexicon's role
/// resolves to the same field. A name with `_`, `.` or `-` is unambiguous and wins over
/// the lexicon's words inside it. Names of three letters or fewer match as written or
/// with a capital ("Tr" for `tr`), not as a lower-case word.
pub(super) fn column_hits(text: &str, lower: &str, columns: &[Column], hits: &mut Vec<Hit>) {
    let mut found = Vec::new();
    let spoken: Vec<Vec<String>> = columns
        .iter()
        .map(|c| llmops_loganalysis::table::spoken_names(&c.name))
        .collect();
    let unhyphened = lower.replace('-', " ");
    for (i, c) in columns.iter().enumerate() {
        let name = c.name.to_ascii_lowercase();
        if name.len() < 2 || matches!(name.as_str(), "template" | "message" | "line") {
            continue;
        }
        for (start, end) in said_at((text, lower, &unhyphened), columns, &spoken, i, hits) {
            // Written with `_`, `.` or `-`, the name is the log's own beyond doubt; said in
            // words ("errors" for `error_count`, "dock" for `dock.id`) a lexicon word
            // on it keeps its reading.
            // So is one in backticks, as code quotes it.
            let backticked = lower[..start].ends_with('`') && lower[end..].starts_with('`');
            let compound = lower[start..end].contains(['_', '.', '-']) || backticked;
            let overlaps = |h: &Hit| h.start < end && start < h.end;
            // A name longer than the lexicon's words inside it is the name ("buffer used").
            // A unit's word names a unit after a number ("over 20 kg"); elsewhere a column
            // of that name is the column ("kg >= 20", "sum of kg").
            let after_a_number = |h: &Hit| {
                lower[..h.start]
                    .trim_end()
                    .ends_with(|ch: char| ch.is_ascii_digit())
            };
            // "by list", "按 list 分组": right after a grouping word, a name written as the
            // log writes it is that field, whatever else the word means.
            let grouped =
                lower[start..end] == name && right_after_a_key_word(lower, hits, start, end);
            let the_lexicons = |h: &Hit| {
                overlaps(h)
                    && !grouped
                    && !h.strictly_within((start, end))
                    && !the_logs_own(lower, columns, c, (start, end), h)
                    && (!matches!(h.cue, Cue::Unit(_)) || after_a_number(h))
            };
            if !compound && hits.iter().any(the_lexicons) {
                continue;
            }
            found.push(Hit {
                start,
                end,
                cue: Cue::Column(i),
            });
        }
    }
    found.extend(last_segment_over_role(lower, columns, hits));
    if found.is_empty() {
        return;
    }
    // A column said inside a longer one's name ("dock" in `dock.id`) is that longer one.
    let spans: Vec<(usize, usize)> = found.iter().map(|h| (h.start, h.end)).collect();
    found.retain(|h| !spans.iter().any(|&s| h.strictly_within(s)));
    // A word glossed by the field's name ("仓库 (warehouse)", "用户（user.id）") is that
    // field: the gloss replaces the lexicon's reading of the word.
    let glossed = |h: &Hit| {
        matches!(h.cue, Cue::Field(_))
            && found.iter().any(|f| {
                h.end <= f.start
                    && lower
                        .get(h.end..f.start)
                        .is_some_and(|g| g.trim().chars().all(|c| matches!(c, '(' | '（')))
            })
    };
    hits.retain(|h| !found.iter().any(|f| f.start <= h.start && h.end <= f.end) && !glossed(h));
    hits.extend(found);
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
}

/// "哪个 ns", "by ns", "top 3 ns": right after a grouping word (or "top N"), a nested key's
/// last segment written as the log writes it names the key, when no other field ends so
/// (`attr.ns`).
fn grouped_by_last(
    text: &str,
    columns: &[Column],
    c: &Column,
    hits: &[Hit],
) -> Vec<(usize, usize)> {
    let Some((_, last)) = c.name.rsplit_once('.') else {
        return Vec::new();
    };
    let unique = columns
        .iter()
        .filter(|o| o.name.rsplit('.').next() == Some(last))
        .count()
        == 1;
    if !unique || last.len() < 2 {
        return Vec::new();
    }
    crate::lexicon::occurrences(text, last)
        .into_iter()
        .filter(|&(start, _)| right_after_grouping(text, hits, start))
        .collect()
}

/// Whether the name at `start..end` is what a key word ("by", "per", "按", "分组") puts
/// right before it groups by: not a ranking's or a question's word ("the most", "which"),
/// nor a name that counts ("by request count" ranks by a count of requests).
fn right_after_a_key_word(lower: &str, hits: &[Hit], start: usize, end: usize) -> bool {
    let g = &lexicon().grammar;
    let gap = |a: usize, b: usize| lower.get(a..b).is_some_and(|t| t.trim().is_empty());
    let key_word = |h: &Hit| {
        let w = lower.get(h.start..h.end).unwrap_or("");
        let one_of = |words: &crate::lexicon::Words| words.all().any(|r| r.eq_ignore_ascii_case(w));
        h.cue == Cue::Group
            && h.end <= start
            && gap(h.end, start)
            && !one_of(&g.rank)
            && !one_of(&g.asks)
            && !one_of(&g.limit.before)
    };
    // A measure's word right after the name counts it ("by request count").
    let counted = hits
        .iter()
        .any(|h| matches!(h.cue, Cue::Measure(_)) && h.start >= end && gap(end, h.start));
    hits.iter().any(key_word) && !counted
}

/// Whether `start` follows a grouping word ("by", "按", "which") or "top N" directly.
fn right_after_grouping(text: &str, hits: &[Hit], start: usize) -> bool {
    hits.iter().any(|g| {
        let gap = text.get(g.end.min(start)..start).unwrap_or("x").trim();
        g.end <= start
            && match g.cue {
                Cue::Group => gap.is_empty(),
                Cue::Limit => !gap.is_empty() && gap.bytes().all(|b| b.is_ascii_digit()),
                _ => false,
            }
    })
}

/// Where the text names column `c`: by its name, in the plural, by its last segment (a
/// compound one, or camelCase as written), or with spaces for its underscores.
fn column_named_at(
    (text, lower, unhyphened): (&str, &str, &str),
    columns: &[Column],
    c: &Column,
) -> Vec<(usize, usize)> {
    let name = c.name.to_ascii_lowercase();
    // A nested key by its last segment when that is a compound of its own and no other
    // field ends so (`dur_ms` for `req.dur_ms`).
    let last = name.rsplit('.').next().unwrap_or(&name).to_string();
    // Or a camelCase one written as the log writes it (`durationMillis` for
    // `attr.durationMillis`): a plain word never matches it.
    let written_last = c.name.rsplit('.').next().unwrap_or(&c.name);
    let camel = written_last.len() >= 6
        && written_last.bytes().skip(1).any(|b| b.is_ascii_uppercase())
        && written_last.bytes().all(|b| b.is_ascii_alphanumeric());
    let by_last = last != name
        && (last.contains(['_', '-']) || camel)
        && columns
            .iter()
            .filter(|o| o.name.to_ascii_lowercase().rsplit('.').next() == Some(last.as_str()))
            .count()
            == 1;
    let mut at = crate::lexicon::occurrences(lower, &name);
    // "distinct orderIds", "which slots": a field named in the plural (not a framing
    // word's: "times" is no plural of `time`).
    let framing = crate::lexicon::lexicon().grammar.stop.en.contains(&name);
    if name.len() >= 3 && !name.ends_with('s') && !framing {
        at.extend(crate::lexicon::occurrences(lower, &format!("{name}s")));
    }
    if by_last {
        at.extend(crate::lexicon::occurrences(lower, &last));
    }
    // A dotted tail of the path no other field ends with (`queue.dropped` for
    // `health.queue.dropped`).
    let dots: Vec<usize> = name.match_indices('.').map(|(i, _)| i + 1).collect();
    for &from in dots.iter().rev().skip(1) {
        let tail = &name[from..];
        let ends_so = |o: &Column| {
            let o = o.name.to_ascii_lowercase();
            o == tail || o.ends_with(&format!(".{tail}"))
        };
        if columns.iter().filter(|o| ends_so(o)).count() == 1 {
            at.extend(crate::lexicon::occurrences(lower, tail));
        }
    }
    // `response_flags` said as "response flags", `fault.class` as "fault class(es)",
    // `time_to_first_byte` as "Time-To-First-Byte" (`unhyphened`: a hyphen read as a space,
    // same offsets).
    for spaced in [
        last.replace(['_', '-'], " "),
        name.replace(['_', '-', '.'], " "),
    ] {
        if spaced != last && spaced != name && spaced.len() >= 6 {
            for form in [spaced.clone(), format!("{spaced}s"), format!("{spaced}es")] {
                at.extend(crate::lexicon::occurrences(unhyphened, &form));
            }
        }
    }
    at.sort_unstable();
    at.dedup();
    at.retain(|&(start, end)| {
        // A short name in lower case is a word more often than a field ("at", "id").
        let written = text.get(start..end).unwrap_or("");
        let plain_camel = camel
            && !compound_last(&last)
            && written.eq_ignore_ascii_case(&last)
            && written != written_last;
        // Its plural is no word of its own ("bids", "tids").
        let plural = written.strip_suffix('s') == Some(c.name.as_str());
        let short_word = name.len() <= 3
            && written != c.name
            && !plural
            && !written.bytes().any(|b| b.is_ascii_uppercase());
        !(plain_camel || short_word)
    });
    at
}

/// Where column `i` is said in its words (`bufferUsedMb` as "buffer used", `replLagMs` as
/// "repl lag", `openSockets` as "open sockets"; `spoken`: every column's), with its unit or
/// without, when no other column is said the same.
fn said_in_words(
    lower: &str,
    columns: &[Column],
    spoken: &[Vec<String>],
    i: usize,
) -> Vec<(usize, usize)> {
    let stop = &crate::lexicon::lexicon().grammar.stop.en;
    let mut at = Vec::new();
    for said in &spoken[i] {
        let unique =
            columns.iter().zip(spoken).enumerate().all(|(j, (o, s))| {
                j == i || (!s.contains(said) && !o.name.eq_ignore_ascii_case(said))
            });
        if said.len() >= 3 && unique && !stop.contains(said) {
            at.extend(crate::lexicon::occurrences(lower, said));
            at.extend(crate::lexicon::occurrences(lower, &format!("{said}s")));
        }
    }
    at
}

/// "alerts of severity 3" in an IDS log: a lexicon word for a role the log answers with
/// another column (`alert.metadata.signature_severity`) names the one nested key whose last
/// segment it is (`alert.severity`) instead.
fn last_segment_over_role(lower: &str, columns: &[Column], hits: &[Hit]) -> Vec<Hit> {
    let mut out = Vec::new();
    for h in hits {
        let Cue::Field(k) = h.cue else { continue };
        let word = &lower[h.start..h.end];
        let Some(role_col) = super::value_words::column_for(columns, &lexicon().fields[k].field)
        else {
            continue;
        };
        let mut own = columns.iter().enumerate().filter(|(_, c)| {
            c.name
                .rsplit('.')
                .next()
                .is_some_and(|l| l.eq_ignore_ascii_case(word))
        });
        if let (Some((i, c)), None) = (own.next(), own.next()) {
            if c.name != role_col.name && c.name.contains('.') {
                out.push(Hit {
                    start: h.start,
                    end: h.end,
                    cue: Cue::Column(i),
                });
            }
        }
    }
    out
}
