//! A question with the lexicon's cues and its literals found ([`Parsed`]), and the
//! helpers every slot rule shares: which field a literal binds to, how a filter is made.

use llmops_common::query::{Column, Extract, Field, Filter, FilterOp, Scalar, Source, Unit};

use super::log_names::{name_parts, named_files, Named};
use super::scan::{literals, Lit, Spanned};
use super::{is_log_upload, FrameCtx};
use crate::lexicon::{find, lexicon, Cue, Hit, Lexicon};
use crate::text::normalize;

/// A question with its cues and literals found.
pub struct Parsed {
    pub text: String,
    pub lower: String,
    pub hits: Vec<Hit>,
    pub lits: Vec<Spanned>,
    /// Log files the question names (resolved paths).
    pub files: Vec<String>,
    /// Where the question names files (blanked in `lower`).
    pub file_spans: Vec<(usize, usize)>,
    /// The fields of the log the question is about, by their own names; a
    /// [`Cue::Column`] hit indexes this.
    pub columns: Vec<Column>,
    /// The session's upload names, lower-cased: words in them name a log, not its contents.
    pub upload_names: Vec<String>,
    /// Fields the question defines from the events' text (also in `columns`).
    pub defined: Vec<Extract>,
    /// The position in a ranking asked ("the second slowest": 2); the ordinal is out of
    /// `text`, which reads as the superlative.
    pub rank: Option<u32>,
    /// The rank of a percentile asked by number ("p80"); the text reads it as any
    /// percentile cue.
    pub percentile: Option<llmops_common::query::Rank>,
    /// The question as written, lower-cased, before a column named in parentheses took
    /// the place of the word before it ("客户端 ip（peer）").
    pub said: String,
}

impl Parsed {
    pub fn new(text: &str, ctx: &FrameCtx) -> Parsed {
        let lex = lexicon();
        let text = normalize(text);
        // The logs' columns are looked up for a name in parentheses only when one is written.
        if text.contains('(') {
            let at_hand = log_columns(&named_files(&text, ctx).files, ctx);
            if let Some(plain) = super::parenthesized::column_for_its_word(&text, &at_hand) {
                let mut p = Parsed::new(&plain, ctx);
                p.said = text.to_lowercase();
                return p;
            }
        }
        let (text, rank) = super::rank::ranked(&text);
        let (text, percentile) = super::percentile::asked(&text);
        let Named { files, spans, host } = named_files(&text, ctx);
        // File names are not cues: "error.log" says nothing about errors.
        let mut lower = text.to_ascii_lowercase().into_bytes();
        for &(s, e) in &spans {
            lower[s..e].fill(b' ');
        }
        let lower = String::from_utf8(lower).unwrap_or_else(|_| text.to_ascii_lowercase());
        let mut columns = log_columns(&files, ctx);
        let formats = log_formats(&files, ctx);
        let mut hits = cue_hits(lex, (&text, &lower, &spans), &columns, &formats);
        let mut lits = literals(lex, &text, &lower, &hits, &spans);
        let upload_names: Vec<String> = ctx
            .uploads
            .iter()
            .map(|u| u.filename.to_lowercase())
            .collect();
        super::scan::chinese_glosses(&text, &hits, (&spans, &upload_names), &mut lits);
        lits.extend(host);
        lits.sort_by_key(|l| l.start);
        // Cue words inside a hyphenated name are part of it ("ledger-daemon"); a hyphenated
        // run of cue words is those cues ("err-severity").
        let all_cues = |l: &Spanned| {
            let Lit::Ident(n) = &l.lit else { return false };
            let mut at = l.start;
            n.split('-').all(|part| {
                let (s, e) = (at, at + part.len());
                at = e + 1;
                hits.iter().any(|h| h.start == s && h.end == e)
            })
        };
        let names: Vec<(usize, usize)> = lits
            .iter()
            .filter(|l| matches!(&l.lit, Lit::Ident(n) if n.contains('-')) && !all_cues(l))
            .map(|l| (l.start, l.end))
            .collect();
        let cue_runs: Vec<(usize, usize)> = lits
            .iter()
            .filter(|l| matches!(&l.lit, Lit::Ident(n) if n.contains('-')) && all_cues(l))
            .map(|l| (l.start, l.end))
            .collect();
        hits.retain(|h| !names.iter().any(|&s| h.strictly_within(s)));
        lits.retain(|l| !cue_runs.contains(&(l.start, l.end)));
        super::value_words::value_before_its_field(lex, &lower, &columns, &mut hits, &mut lits);
        super::value_words::value_after_its_field(&lower, &columns, &mut hits, &mut lits);
        super::value_words::common_words_written_as_values(&text, &columns, &hits, &mut lits);
        super::value_words::kinds_of_events(&lower, &columns, &mut hits, &mut lits);
        super::value_words::kinds_named_in_words(&lower, &columns, &mut hits, &mut lits);
        lits.sort_by_key(|l| l.start);
        super::buckets::sized_buckets(lex, &lower, &mut hits, &mut lits);
        backticked_columns(&text, &hits, &mut lits);
        no_cues_inside_text(&text, &lower, &mut hits, &mut lits);
        let words = (text.as_str(), lower.as_str(), spans.as_slice());
        let defined = super::defined::add(lex, words, &mut hits, &mut lits, &mut columns);
        Parsed {
            said: text.to_lowercase(),
            text,
            lower,
            hits,
            lits,
            files,
            file_spans: spans,
            columns,
            defined,
            upload_names,
            rank,
            percentile,
        }
    }
}

/// A log's field name in backticks ("`from`", as a column named in parentheses is
/// written) is that field, not a text to look for.
fn backticked_columns(text: &str, hits: &[Hit], lits: &mut Vec<Spanned>) {
    lits.retain(|l| {
        let quoted = matches!(l.lit, Lit::Quoted(_))
            && text
                .get(l.start..l.end)
                .is_some_and(|t| t.len() > 2 && t.starts_with('`') && t.ends_with('`'));
        !(quoted
            && hits.iter().any(|h| {
                matches!(h.cue, Cue::Column(_)) && h.start == l.start + 1 && h.end == l.end - 1
            }))
    });
}

/// Words inside a quoted phrase, a grep's pattern, a `key=value` pair or a path are that
/// text, not cues of their own: "“连接超时”有几条" looks for the phrase, it adds no timeout
/// tag; "res=failed" is that field's value, no failure tag. A parenthesis right after a
/// code glosses it ("UF (connect failures)", "504（网关超时）"): its words explain the code
/// and add no condition of their own.
fn no_cues_inside_text(text: &str, lower: &str, hits: &mut Vec<Hit>, lits: &mut Vec<Spanned>) {
    // A cue that starts or ends inside such a text shares a word with it ("login … failed"
    // from "/login requests failed"): the word is the text's, and the cues of the rest of
    // its words are read alone ("failed").
    let texts: Vec<(usize, usize)> = lits
        .iter()
        .filter(|l| matches!(l.lit, Lit::Quoted(_) | Lit::Pair { .. } | Lit::UrlPath(_)))
        .map(|l| (l.start, l.end))
        .collect();
    let mut rest: Vec<Hit> = Vec::new();
    hits.retain(|h| {
        // A cue spanning the whole text (its words on both sides: "删除 (DELETE /api/x)
        // 的请求") keeps it; one with a word inside the text loses it.
        let Some(&(a, b)) = texts.iter().find(|&&(a, b)| {
            let inside = |i: usize| a < i && i < b;
            (a <= h.start && h.end <= b) || inside(h.start) || inside(h.end)
        }) else {
            return true;
        };
        if a <= h.start && h.end <= b {
            return false;
        }
        // The words before the text and after it, each read alone.
        for span in [(h.start, a.max(h.start)), (b.min(h.end), h.end)] {
            rest.extend(cues_read_alone(lower, span));
        }
        false
    });
    if !rest.is_empty() {
        hits.extend(rest);
        hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
    }
    let mut glosses = gloss_spans(text, lower, lits);
    // "REST.COPY.OBJECT (HTTP status 206)": a parenthesis stating a field's value is a
    // condition of the question, not a gloss.
    glosses.retain(|&span| !super::log_text::states_a_value(text, hits, span));
    let inside = |s: usize, e: usize| glosses.iter().any(|&(a, b)| a <= s && e <= b);
    hits.retain(|h| !inside(h.start, h.end));
    lits.retain(|l| !inside(l.start, l.end));
}

impl Parsed {
    /// Whether a question word stands right before the cue ("which user"): the field is
    /// what the answer shows.
    pub fn asked(&self, lex: &Lexicon, h: &Hit) -> bool {
        // "distinct partitions had an ISR shrink": what a distinct count counts is asked
        // too, it takes no value.
        let distinct = |g: &Hit| {
            matches!(g.cue, Cue::Measure(i)
                if lex.measures[i].measure == llmops_common::query::Measure::CountDistinct)
        };
        self.hits.iter().any(|g| {
            g.end <= h.start
                && self.close(g.end, h.start)
                && ((g.cue == Cue::Group && self.hit_is(g, &lex.grammar.asks)) || distinct(g))
        })
    }

    /// Whether an English word at `at` stands where a name does: whose the field is ("the
    /// parent of sshd") or the subject of the question ("how much memory does sshd use",
    /// "what user is redis running as").
    pub fn stands_as_a_name(&self, at: usize) -> bool {
        let before = self.lower[..at].trim_end();
        let helping = &crate::lexicon::lexicon().grammar.helping;
        helping
            .all()
            .any(|w| crate::text::ends_with_word(before, w))
    }

    /// Whether a word at `at` may be a name: any English word of a Chinese question, or
    /// one where [`Self::stands_as_a_name`].
    pub fn name_may_stand_at(&self, at: usize) -> bool {
        self.text.chars().any(crate::text::is_cjk) || self.stands_as_a_name(at)
    }

    /// Whether a word of four letters or more is one part of a name the log's sample
    /// writes between dots, slashes or dashes (`redix` of `Redix.Connection`,
    /// `checkout` of `/api/checkout`): the events that name it are what is asked about. A
    /// whole value is [`Self::column_with_value`]'s.
    pub fn part_of_a_logged_name(&self, word: &str) -> bool {
        word.chars().count() >= 4
            && self.columns.iter().filter(|c| !c.numeric).any(|c| {
                c.values.iter().any(|v| {
                    !v.trim().contains(char::is_whitespace)
                        && !v.eq_ignore_ascii_case(word)
                        && v.split(|ch: char| !ch.is_ascii_alphanumeric())
                            .any(|t| t.eq_ignore_ascii_case(word))
                })
            })
    }

    /// The one column of the log whose sampled values include `word` (case ignored), and
    /// that value as the log writes it: "UF" is a `response_flags`, "sshd" a `jail`.
    /// Columns that name who did something (a program, a host, a user) are left out: their
    /// names also stand in other events' text ("fare-engine" in systemd's line about it).
    /// So are names (`berth-planner`, `api.example`): a code or a plain word only.
    pub fn column_with_value(&self, word: &str) -> Option<(&str, &str)> {
        if word.contains(['-', '.', '/', ':', '@']) {
            return None;
        }
        const NAMES: [&str; 9] = [
            "program", "unit", "host", "logger", "user", "service", "process", "victim", "pod",
        ];
        let coded = |c: &&Column| !c.roles.iter().any(|r| NAMES.contains(&r.as_str()));
        self.value_among(word, &coded, true)
    }

    /// The one column of the log, names included, whose sampled values include `word` as
    /// written (case ignored; no other form of it: "queried" is no `queries`): "for
    /// payments" is the `component` payments' events.
    pub fn any_column_with_value(&self, word: &str) -> Option<(&str, &str)> {
        if word.contains(['-', '.', '/', ':', '@']) {
            return None;
        }
        self.value_among(word, &|_: &&Column| true, false)
    }

    /// The one column among those `keep` lets through whose sampled values include `word`,
    /// and the value as the log writes it; with `forms`, another form of the word too.
    fn value_among(
        &self,
        word: &str,
        keep: &dyn Fn(&&Column) -> bool,
        forms: bool,
    ) -> Option<(&str, &str)> {
        // Of several columns with the value (Suricata's `event_type` and `app_proto` both
        // say "http"), the one that names the kind of each event.
        let one = |same: &dyn Fn(&str) -> bool| {
            let found: Vec<(&str, &str)> = self
                .columns
                .iter()
                .filter(|c| !c.numeric && keep(c))
                .filter_map(|c| {
                    let v = c.values.iter().find(|v| same(v))?;
                    Some((c.name.as_str(), v.as_str()))
                })
                .collect();
            match found.as_slice() {
                [one] => Some(*one),
                [] => None,
                many => {
                    let mut kinds = many
                        .iter()
                        .filter(|(n, _)| super::value_words::names_event_kinds(n));
                    let first = kinds.next()?;
                    kinds.next().is_none().then_some(*first)
                }
            }
        };
        // As written, else another form of the same word ("upgraded" for the action
        // `upgrade`, "restarts" for `restart`): a word of letters, stems of four or more.
        let stem = |w: &str| super::words::stem(&w.to_ascii_lowercase());
        let letters = |w: &str| w.len() >= 4 && w.bytes().all(|b| b.is_ascii_alphabetic());
        one(&|v| v.eq_ignore_ascii_case(word)).or_else(|| {
            if !forms {
                return None;
            }
            let s = stem(word);
            (letters(word) && s.len() >= 4)
                .then(|| one(&|v| letters(v) && stem(v) == s))
                .flatten()
        })
    }

    /// Whether the log the question is about has the field, by name or role (always,
    /// when its fields are unknown). "仓库" reads as a database only in a log with one.
    pub fn log_has(&self, field: &str) -> bool {
        self.columns.is_empty()
            || super::is_event_text(field)
            || super::value_words::column_for(&self.columns, field).is_some()
    }

    /// Whether `word` is part of an upload's name, whole parts only: "gateway" and
    /// "orders-api" name `gateway-access.log` and `orders-api.jsonl`; "orders" does not
    /// name `ordersync.log`.
    pub fn names_an_upload(&self, word: &str) -> bool {
        let w = name_parts(&word.to_lowercase());
        w.len() > 2 && self.upload_names.iter().any(|n| name_parts(n).contains(&w))
    }

    /// Whether the text of a grammar hit is one of `words` ("which" among the asking
    /// words, "most" among the ranking ones).
    pub fn hit_is(&self, h: &Hit, words: &crate::lexicon::Words) -> bool {
        words
            .all()
            .any(|w| self.lower.get(h.start..h.end) == Some(w))
    }

    /// Whether a statistic can read the field: a numeric role of the lexicon or a numeric
    /// field of the log.
    pub fn is_numeric(&self, lex: &Lexicon, field: &str) -> bool {
        lex.is_numeric(field) || self.columns.iter().any(|c| c.name == field && c.numeric)
    }

    /// Whether the field's values are numbers (a name never binds to it).
    pub fn holds_numbers(&self, lex: &Lexicon, field: &str) -> bool {
        lex.holds_numbers(field) || self.columns.iter().any(|c| c.name == field && c.numeric)
    }

    pub fn has(&self, pred: impl Fn(Cue) -> bool) -> bool {
        self.hits.iter().any(|h| pred(h.cue))
    }

    /// The text between two byte offsets, trimmed.
    pub(super) fn gap(&self, from: usize, to: usize) -> &str {
        if from >= to {
            return "";
        }
        self.lower.get(from..to).unwrap_or("").trim()
    }

    /// Whether the question asks yes or no whether events (or a system table's rows) with a
    /// condition it names exist ("有没有 504", "are there any 504s", "有没有 java 进程").
    pub fn asks_if_any(&self, lex: &Lexicon) -> bool {
        // Or a system table's word with a name or a number ("有没有 java 进程"), or one that
        // is a condition itself ("有没有僵尸进程").
        let system = |with_filter: bool| {
            self.has(|c| {
                matches!(c, Cue::Source(i) if lex.sources[i].source != llmops_common::query::Source::Log
                    && (!with_filter || lex.sources[i].filter.is_some()))
            })
        };
        let condition = self.has(|c| matches!(c, Cue::Filter(_)))
            || (system(false) && !self.lits.is_empty())
            || system(true)
            || self.lits.iter().any(|l| match l.lit {
                Lit::Class(_) => true,
                Lit::Number { value, unit: None } => (100.0..600.0).contains(&value),
                _ => false,
            });
        (lex.grammar.yes_no.occur_in(&self.lower) || self.opens_yes_no(lex))
            && condition
            && !lex.grammar.incident.occur_in(&self.lower)
    }

    /// Whether the question opens as a yes-or-no one ("any zombies?", "有僵尸进程吗").
    fn opens_yes_no(&self, lex: &Lexicon) -> bool {
        let o = &lex.grammar.yes_no_opening;
        let t = self.lower.trim();
        let ends = t.trim_end_matches(['?', '？', '!', ' ']);
        let opens = |w: &String| t.starts_with(w.as_str());
        // An English word opens only whole ("any", not "anyone"); 什么/怎么 end no yes-or-no.
        let whole = |w: &String| {
            t.strip_prefix(w.as_str())
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_alphanumeric()))
        };
        let closes = |w: &String| {
            ends.strip_suffix(w.as_str())
                .is_some_and(|before| !before.ends_with(['什', '怎']))
        };
        o.before.en.iter().any(whole)
            || (o.before.zh.iter().any(opens) && o.after_zh.iter().any(closes))
    }

    /// Whether the condition written at `start..end` is negated: a negation word right
    /// before it, one right after it ("fatal 的不算"), or a clause "没有 X 的" that says what
    /// the events are without ("没有报错的请求"). An item of a list is negated with the list:
    /// by a negation before an item ahead of it ("not GET or POST", "除了 404 和 500") or after
    /// one behind it ("404 and 500 excluded").
    pub(super) fn negates(&self, start: usize, end: usize) -> bool {
        let mut item = Some((start, end));
        while let Some((s, e)) = item {
            if self.negated_before(s, e) {
                return true;
            }
            item = self.joined_item((s, e), true);
        }
        let mut item = Some((start, end));
        while let Some((s, e)) = item {
            if self.negated_after(e) {
                return true;
            }
            item = self.joined_item((s, e), false);
        }
        false
    }

    /// The condition written at `start..end` as it is said: negated when [`Self::negates`].
    pub(super) fn as_said(&self, (start, end): (usize, usize), f: Filter) -> Filter {
        if self.negates(start, end) {
            f.negated()
        } else {
            f
        }
    }

    fn negated_before(&self, start: usize, end: usize) -> bool {
        // The clause's 的 ends the condition ("报错的请求" holds it) or follows it.
        let de = self.lower[start..end].contains('的')
            || self.lower[end..].trim_start().starts_with('的');
        let clause = |h: &Hit| {
            h.cue == Cue::NegateClause
                && h.end <= start
                && self.gap(h.end, start).chars().count() <= 2
                && !self.a_not_a(h)
                && de
        };
        self.negated_at(start) || self.hits.iter().any(clause)
    }

    fn negated_after(&self, end: usize) -> bool {
        self.hits.iter().any(|h| {
            h.cue == Cue::NegateAfter && h.start >= end && self.gap(end, h.start).len() <= 4
        })
    }

    /// Whether only a list's word (`[joiners]`: "and", "或", "、") stands between `a` and `b`.
    pub(super) fn list_word_between(&self, a: usize, b: usize) -> bool {
        let joiners = &crate::lexicon::lexicon().grammar.joiners;
        a <= b && joiners.all().any(|j| j == self.gap(a, b))
    }

    /// The condition (a literal or a filter's cue) of the same kind joined to `item` by a
    /// list's word ("and", "或", "、"): the one ending before it (`before`), else the one
    /// starting after it. "404 或 5xx" are one list; "from 10.0.0.3 and 404s" are not.
    pub(super) fn joined_item(&self, item: (usize, usize), before: bool) -> Option<(usize, usize)> {
        let joined = |a: usize, b: usize| self.list_word_between(a, b);
        let kind = self.item_kind(item)?;
        let spans = self.lits.iter().map(|l| (l.start, l.end)).chain(
            self.hits
                .iter()
                .filter(|h| matches!(h.cue, Cue::Filter(_)))
                .map(|h| (h.start, h.end)),
        );
        let mut found = spans.filter(|&(s, e)| {
            let next = if before {
                joined(e, item.0)
            } else {
                joined(item.1, s)
            };
            next && self.item_kind((s, e)).as_ref() == Some(&kind)
        });
        found.next()
    }

    /// Whether the question names things in a list ("sleep, cat and tail", "sshd 和 cron").
    pub(super) fn names_a_list(&self) -> bool {
        self.lits.iter().any(|l| {
            let span = (l.start, l.end);
            self.item_kind(span) == Some(ItemKind::Name) && self.joined_item(span, false).is_some()
        })
    }

    /// What a condition written at `span` is, for telling the items of one list.
    fn item_kind(&self, span: (usize, usize)) -> Option<ItemKind> {
        if let Some(l) = self.lits.iter().find(|l| (l.start, l.end) == span) {
            return Some(match &l.lit {
                Lit::Number { unit: None, .. } | Lit::Class(_) => ItemKind::Code,
                Lit::Number { unit: Some(u), .. } => ItemKind::Quantity(u.dimension()),
                // A column's value is a condition on that column ("not GET or POST").
                Lit::Word(w) | Lit::Ident(w) => match self.column_with_value(w) {
                    Some((field, _)) => ItemKind::Filter(Some(field.to_string())),
                    None => ItemKind::Name,
                },
                Lit::Quoted(_) => ItemKind::Name,
                other => ItemKind::Other(std::mem::discriminant(other)),
            });
        }
        let lex = crate::lexicon::lexicon();
        self.hits.iter().find_map(|h| match h.cue {
            Cue::Filter(i) if (h.start, h.end) == span => {
                Some(ItemKind::Filter(lex.filters[i].field.clone()))
            }
            _ => None,
        })
    }

    /// Whether a negation word stands right before `at`, with no other condition between
    /// them: "non-404 errors" negates the code, not the errors.
    pub(super) fn negated_at(&self, at: usize) -> bool {
        let between = |from: usize| {
            self.lits.iter().any(|l| l.start >= from && l.start < at)
                || self
                    .hits
                    .iter()
                    .any(|h| matches!(h.cue, Cue::Filter(_)) && h.start >= from && h.start < at)
        };
        self.hits.iter().any(|h| {
            h.cue == Cue::Negate
                && h.end <= at
                && at - h.end <= 12
                && !self.a_not_a(h)
                && !between(h.end)
        })
    }

    /// "是不是有 504", "有没有报错的" ask, they negate nothing: a 不 or 没 between the same
    /// word twice is a question.
    fn a_not_a(&self, h: &Hit) -> bool {
        let before = self.text[..h.start].chars().next_back();
        let mut from = self.text[h.start..].chars();
        matches!(from.next(), Some('不' | '没')) && before.is_some() && from.next() == before
    }

    /// Whether the query the question makes asks for its latest events by saying "last"
    /// ("its last request", "最后 200 条请求"), with no measure word of its own.
    pub(super) fn asks_the_latest(&self, q: &llmops_common::query::Query) -> bool {
        q.measure == llmops_common::query::Measure::Rows && self.has(|c| c == Cue::Last)
    }

    /// Whether `to` follows `from` with at most a filler word or two between them.
    pub(super) fn close(&self, from: usize, to: usize) -> bool {
        if to < from {
            return false;
        }
        let gap = self.gap(from, to);
        let cjk = gap.chars().filter(|c| crate::text::is_cjk(*c)).count();
        let words = gap.split_whitespace().count();
        // A table's word between them qualifies, it does not interrupt ("哪个 systemd unit").
        let no_content = !self.hits.iter().any(|h| {
            h.cue.is_content() && !matches!(h.cue, Cue::Source(_)) && h.start >= from && h.end <= to
        });
        no_content && cjk <= 3 && words <= 2 && gap.len() <= 16
    }
}

/// The log the conversation or the session is about when the question names none.
pub(super) fn context_log(ctx: &FrameCtx) -> Option<String> {
    let path = |u: &&crate::UploadRef| u.path.to_string_lossy().into_owned();
    if let Some(u) = ctx.referenced.iter().find(|u| is_log_upload(u)) {
        return Some(path(u));
    }
    // A message sent with other files attached is about those files.
    if !ctx.referenced.is_empty() {
        return None;
    }
    if let Some(f) = ctx.last_file {
        // The last file shown is the log only when it is one: a manual or a config the
        // last answer quoted is not what a log question counts.
        let known = match ctx.uploads.iter().find(|u| u.path.to_string_lossy() == f) {
            Some(u) => is_log_upload(u),
            None => crate::incident::is_log_name(f),
        };
        if known {
            return Some(f.to_string());
        }
    }
    let logs: Vec<_> = ctx.uploads.iter().filter(|u| is_log_upload(u)).collect();
    logs.last().map(path)
}

/// The fields of the logs the question names, or else of the log it is about.
/// The uploads a question is about: the files it names, else the conversation's log.
fn target_uploads<'a>(files: &[String], ctx: &FrameCtx<'a>) -> Vec<&'a crate::UploadRef> {
    let about;
    let paths: &[String] = if files.is_empty() {
        about = context_log(ctx).into_iter().collect::<Vec<_>>();
        &about
    } else {
        files
    };
    ctx.uploads
        .iter()
        .chain(ctx.referenced.iter().copied())
        .filter(|u| paths.iter().any(|p| u.path.to_string_lossy() == p.as_str()))
        .collect()
}

/// The detected formats of the logs the question is about.
fn log_formats(files: &[String], ctx: &FrameCtx) -> Vec<String> {
    target_uploads(files, ctx)
        .into_iter()
        .filter_map(|u| u.format.clone())
        .collect()
}

fn log_columns(files: &[String], ctx: &FrameCtx) -> Vec<Column> {
    let mut out: Vec<Column> = Vec::new();
    for u in target_uploads(files, ctx) {
        for c in &u.columns {
            if !out.iter().any(|o| o.name == c.name) {
                out.push(c.clone());
            }
        }
    }
    out
}

fn field_cue_applies(lex: &Lexicon, i: usize, source: Source) -> bool {
    lex.fields[i].source.is_none_or(|s| s == source)
}

/// A system table's word for a field a log has too ("不同的 pid" of a gunicorn log's `pid`)
/// is the log's field.
fn log_has_the_table_field(lex: &Lexicon, p: &Parsed, i: usize) -> bool {
    lex.fields[i].source.is_some_and(|s| s != Source::Log)
        && p.columns.iter().any(|c| c.name == lex.fields[i].field)
}

/// The field hits that apply to this table, in order.
pub(super) fn field_hits<'a>(
    lex: &'a Lexicon,
    p: &'a Parsed,
    source: Source,
) -> impl Iterator<Item = (&'a Hit, &'a str)> + 'a {
    p.hits.iter().filter_map(move |h| match h.cue {
        Cue::Field(i)
            if (field_cue_applies(lex, i, source)
                && (source != Source::Log || p.log_has(&lex.fields[i].field)))
                || (source == Source::Log && log_has_the_table_field(lex, p, i)) =>
        {
            Some((h, lex.fields[i].field.as_str()))
        }
        Cue::Column(i) if source == Source::Log => Some((h, p.columns[i].name.as_str())),
        _ => None,
    })
}

/// The cues of a question over logs of `formats` with `columns`: the lexicon's, then the
/// logs' own field names.
fn cue_hits(
    lex: &crate::lexicon::Lexicon,
    (text, lower, files): (&str, &str, &[(usize, usize)]),
    columns: &[Column],
    formats: &[String],
) -> Vec<Hit> {
    let mut hits = find(lex, lower);
    // A format's own vocabulary ("退信" in a mail log) is no cue over another log. A
    // possessive's `s` ("the event's") is no unit of seconds.
    hits.retain(|h| match h.cue {
        Cue::Filter(i) => {
            let only = &lex.filters[i].formats;
            only.is_empty() || formats.iter().any(|f| only.contains(f))
        }
        Cue::Unit(_) => !lower[..h.start].ends_with(['\'', '’']),
        _ => true,
    });
    // "how many timeouts were logged in app.log": a cue ending in a word that opens a log's
    // name ("logged in" a login) is not that cue; the words before that word are read
    // alone.
    let mut rest: Vec<Hit> = Vec::new();
    hits.retain(|h| match before_a_file(lex, lower, h, files) {
        Some(word_at) => {
            rest.extend(cues_read_alone(lower, (h.start, word_at)));
            false
        }
        None => true,
    });
    hits.extend(rest);
    // Searched in the text as typed: a field like `user.id` looks like a file name. A part
    // of a file's name is no field ("log" of `ride-api.log`, "rx" of `rx-api.log`).
    super::column_hits::column_hits(text, &text.to_ascii_lowercase(), columns, &mut hits);
    hits.retain(|h| {
        !matches!(h.cue, Cue::Column(_)) || !files.iter().any(|&(s, e)| s <= h.start && h.end <= e)
    });
    let translated = super::zh_runs::column_words(text, &hits, columns);
    hits.extend(translated);
    hits.sort_by_key(|h| (h.start, std::cmp::Reverse(h.end)));
    hits
}

/// Where the last word of a multi-word cue starts when it is a word that opens a log's name
/// (`[before_a_file]`: "in", "from") and a log's name follows at once.
fn before_a_file(
    lex: &crate::lexicon::Lexicon,
    lower: &str,
    h: &Hit,
    files: &[(usize, usize)],
) -> Option<usize> {
    let words = &lower[h.start..h.end];
    let (head, last) = words.rsplit_once(' ')?;
    let opens = lex.grammar.before_a_file.has(last)
        && files
            .iter()
            .any(|&(s, _)| s >= h.end && lower[h.end..s].trim().is_empty());
    opens.then_some(h.start + head.len())
}

/// The content cues of `lower[start..end]` read alone, at their places in `lower`.
fn cues_read_alone(lower: &str, (start, end): (usize, usize)) -> Vec<Hit> {
    let Some(words) = lower.get(start..end).filter(|w| !w.trim().is_empty()) else {
        return Vec::new();
    };
    crate::lexicon::find(lexicon(), words)
        .into_iter()
        .filter(|r| r.cue.is_content())
        .map(|r| Hit {
            start: r.start + start,
            end: r.end + start,
            cue: r.cue,
        })
        .collect()
}

/// The spans of parentheses that follow a code (a name with a capital or a digit, or a bare
/// number), brackets included.
fn gloss_spans(text: &str, lower: &str, lits: &[Spanned]) -> Vec<(usize, usize)> {
    let code = |l: &Spanned| match &l.lit {
        Lit::Ident(_) | Lit::Word(_) => text.get(l.start..l.end).is_some_and(|w| {
            w.bytes()
                .any(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        }),
        Lit::Number { unit: None, .. } => true,
        _ => false,
    };
    lits.iter()
        .filter(|l| code(l))
        .filter_map(|l| {
            let after = lower.get(l.end..)?;
            let open = l.end + (after.len() - after.trim_start().len());
            let rest = lower.get(open..)?;
            let width = ['(', '（']
                .iter()
                .find(|c| rest.starts_with(**c))?
                .len_utf8();
            let close = rest.find([')', '）']).filter(|&c| c <= 80)?;
            let close_w = rest[close..].chars().next().map_or(1, char::len_utf8);
            (close > width).then_some((open, open + close + close_w))
        })
        .collect()
}

/// The field a literal or a comparison right after a field cue binds to.
pub fn field_before(lex: &Lexicon, p: &Parsed, source: Source, at: usize) -> Option<String> {
    // A number right after its field's word states it, even where the words ask ("what is
    // pid 1", "what's on port 22").
    let number_at = p
        .lits
        .iter()
        .any(|l| l.start == at && matches!(l.lit, Lit::Number { .. }));
    let states = |h: &Hit, f: &str| {
        number_at && p.lower[h.end..at].trim().is_empty() && p.holds_numbers(lex, f)
    };
    field_hits(lex, p, source)
        .filter(|(h, f)| h.end <= at && p.close(h.end, at) && (states(h, f) || !p.asked(lex, h)))
        .filter(|(h, _)| !matches!(h.cue, Cue::Field(i) if lex.fields[i].asks))
        .last()
        .map(|(_, f)| f.to_string())
}

/// The field of numbers whose cue stands right after a number: in Chinese, which puts the
/// noun after the value ("19999 端口"); in English only after a comparison (`compared`: "more
/// than 400 rows"), since an English word after a bare number counts it ("which 3 status
/// codes").
pub fn numbers_field_after(
    lex: &Lexicon,
    p: &Parsed,
    source: Source,
    end: usize,
    compared: bool,
) -> Option<String> {
    let chinese = |h: &Hit| {
        p.text
            .get(h.start..h.end)
            .is_some_and(|w| w.chars().any(crate::text::is_cjk))
    };
    field_hits(lex, p, source)
        .find(|(h, f)| {
            h.start >= end
                && p.gap(end, h.start).is_empty()
                && (compared || chinese(h))
                && p.holds_numbers(lex, f)
        })
        .map(|(_, f)| f.to_string())
}

/// What a condition is, for telling the items of one list: a status code (a bare number or
/// a class), a quantity in a dimension, a name, another literal, or a lexicon filter on a
/// field.
#[derive(Debug, Clone, PartialEq)]
enum ItemKind {
    Code,
    Quantity(llmops_common::query::Dimension),
    Name,
    Other(std::mem::Discriminant<Lit>),
    Filter(Option<String>),
}

/// How a literal's condition holds: always, or as a name (a process or unit name: the
/// first is required, the rest narrow softly).
pub(super) enum Kind {
    Hard,
    Name,
}

/// Makes a filter with the usual defaults.
pub fn filter(field: Option<&str>, op: FilterOp, value: Scalar, unit: Unit) -> Filter {
    Filter {
        unit,
        ..Filter::new(field.map(Field::new), op, value)
    }
}
