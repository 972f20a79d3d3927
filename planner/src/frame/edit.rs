//! Follow-ups edit the last query: "那 4xx 呢" swaps the status filter, "按小时呢" changes
//! the bucket, "它呢 / and that one?" narrows to the last answer's top item, "when was the
//! last one" keeps the rows and changes the measure. A question with its own table, or its
//! own measure and condition, is a new query instead.

use llmops_common::query::{Field, Filter, FilterOp, Measure, Order, Query, Scalar, Source, Unit};

use super::build::frame_of;
use super::parsed::{filter, Parsed};
use super::{Frame, FrameCtx, LastQuery};
use crate::lexicon::{Cue, Hit, Lexicon};
use crate::text::ends_with_word;

/// Whether the question is a follow-up of the last query, and the edited frame if so.
pub fn follow_up(lex: &Lexicon, p: &Parsed, ctx: &FrameCtx) -> Option<Frame> {
    let last = ctx.last_query?;
    if !p.files.is_empty() {
        return other_log(lex, p, last);
    }
    if let Some(frame) = whole_edit(lex, p, last) {
        return Some(frame);
    }
    // A system table is read anew each time: ranking it is no narrowing of the last rows.
    if last.query.source != Source::Log && ranks_the_table(lex, p) {
        return None;
    }
    let picked = picked_item(lex, p, last);
    // A time of day asked is of events: "跑的" in "几点跑的" is no process table.
    let asks_time = asks_an_occurrence(lex, p);
    if picked.is_none()
        && !asks_time
        && !of_the_listed_item(lex, p, last)
        && names_other_table(lex, p, last.query.source)
    {
        return None;
    }
    let mut new = frame_of(lex, p, last.query.source, last.query.files.clone());
    if picked.is_some() && day_as_ordinal(p) {
        new.query.window = None;
    }
    let a = Asked::of(p, &new, last, asks_time);
    // "它呢" / "and that one?": a reference with a follow-up marker and nothing else; a
    // bare pronoun ("send it") is some other request about the conversation's file.
    // The item the last query already asks about ("the second one" a turn ago) is the one
    // "its" means, else the top one.
    let current = last.item_asked(&last.query);
    // "how many WARN lines does it have" after the most common error: a kind of event
    // belongs to the condition it was listed under; a question that swaps that condition
    // asks "it" of the log.
    let referred = (a.refers || a.count_of_top).then(|| current.or(last.top()));
    let referred = referred
        .flatten()
        .filter(|it| !kind_swapped(it, &last.query, &new.query));
    let item = picked.or(referred);
    if !(a.own_content
        || a.field_of_it
        || picked.is_some()
        || (a.refers && p.has(|c| c == Cue::Follow)))
    {
        return None;
    }
    // A new figure asked without a follow-up word or a picked item is a fresh question
    // ("哪个进程占用内存最多" after a count of errors); a bucket alone ("per minute?") is
    // the last query's events by time.
    let bucket_only = p.has(|c| matches!(c, Cue::Bucket(_)))
        && !p.has(|c| matches!(c, Cue::Field(_) | Cue::Column(_) | Cue::Source(_)))
        && new.query.filters.is_empty()
        && new.query.field.is_none()
        && new.query.group_by.is_empty()
        && new.query.window.is_none();
    if a.total {
        return Some(all_counted(&last.query, new));
    }
    if !a.marked
        && picked.is_none()
        && a.own_measure
        && !a.time_of_last
        && !a.count_of_top
        && !bucket_only
        && !ranks_the_last_events(lex, p, &new.query, &last.query)
    {
        return None;
    }
    let mut q = last.query.clone();
    if let Some(item) = item {
        of_the_item(lex, p, &mut q, item, a.own_measure);
    }
    apply(&mut q, &new.query, a.own_measure || a.latest, p);
    drop_unasked(lex, p, &mut q, &new.query);
    one_event(&mut q, &last.query, &a, picked.is_some());
    if a.field_of_it && q.measure == Measure::Rows {
        super::shown::asked_of_the_event(lex, p, &mut q);
    }
    Some(edited(q, new.soft, new.object))
}

/// Whether `item` is a kind of event (a message template) and the new conditions swap one
/// of the last query's for another on the same subject.
fn kind_swapped(item: &[(String, String)], last: &Query, new: &Query) -> bool {
    let kind = item.iter().any(|(f, _)| super::is_event_text(f));
    kind && new.filters.iter().any(|f| {
        last.filters
            .iter()
            .any(|o| o != f && !f.excludes() && same_subject(o, f))
    })
}

/// The last query narrowed to a listed item (`(field, value)` pairs).
fn of_the_item(lex: &Lexicon, p: &Parsed, q: &mut Query, item: &[(String, String)], own: bool) {
    for (field, value) in item {
        put_filter(&mut q.filters, refer_filter(field, value));
        q.group_by.retain(|g| g.as_str() != field);
    }
    // An item of a list is counted; a statistic asked of the last item is asked of this
    // one ("p95 of its latency", then "the second one?").
    let stat = q.measure.is_stat() || q.measure == Measure::Stats;
    if q.group_by.is_empty() && q.measure != Measure::Rows && !own && !stat {
        q.measure = Measure::Count;
    }
    // "这个客户端一共发了多少请求", "how many requests did it send in all": every event of the
    // item, the last query's other conditions put aside.
    if p.has(|c| c == Cue::Total) && lex.grammar.all_events.occur_in(&p.lower) {
        q.filters.retain(|f| {
            f.field
                .as_ref()
                .is_some_and(|x| item.iter().any(|(field, _)| field == x.as_str()))
        });
    }
}

/// "the 2nd" after a list is its second item, not the 2nd of the month ("on the 2nd" is).
fn day_as_ordinal(p: &Parsed) -> bool {
    p.lits.iter().any(|l| {
        matches!(l.lit, super::scan::Lit::Date(_))
            && p.lower
                .get(l.start..l.end)
                .is_some_and(|d| d.starts_with("the "))
    })
}

/// "how many in total": the last query's events, counted, its list or buckets put aside.
fn all_counted(last: &Query, new: Frame) -> Frame {
    let mut q = last.clone();
    // A count of the events with a field ("the most overheat warnings by pump", the warnings
    // being the lines with a `limit`) keeps counting those.
    if last.measure != Measure::Count {
        q.field = None;
    }
    q.measure = Measure::Count;
    q.group_by.clear();
    q.order = Order::default();
    q.limit = None;
    edited(q, new.soft, new.object)
}

/// The edits that make the whole new query at once: the same list longer ("and the next
/// 3", "the 4th and 5th"), a field of named rows, a figure of the named event, the last
/// answer in another unit.
fn whole_edit(lex: &Lexicon, p: &Parsed, last: &LastQuery) -> Option<Frame> {
    let shown = if last.items.is_empty() {
        last.query.limit()
    } else {
        last.items.len()
    };
    if let Some(limit) = super::edit_ops::more_items(lex, p, &last.query, shown) {
        let mut query = last.query.clone();
        query.limit = Some(limit);
        return Some(edited(query, Vec::new(), None));
    }
    if let Some(frame) = field_of_named_rows(lex, p, &last.query) {
        return Some(frame);
    }
    if let Some(frame) = about_the_event(lex, p, last) {
        return Some(frame);
    }
    if let Some(frame) = the_counted_events(lex, p, &last.query) {
        return Some(frame);
    }
    in_another_unit(p).then(|| edited(last.query.clone(), Vec::new(), None))
}

/// "它总共连过几回" after the user with the most connections in a log: a pronoun with a
/// table's word is about the listed item's events.
fn of_the_listed_item(lex: &Lexicon, p: &Parsed, last: &LastQuery) -> bool {
    let pronoun = |h: &Hit| {
        h.cue == Cue::Refer
            && lex
                .grammar
                .follow
                .pronouns
                .iter()
                .any(|w| p.lower.get(h.start..h.end) == Some(w.as_str()))
    };
    p.hits.iter().any(pronoun) && !last.items.is_empty() && last.query.source == Source::Log
}

/// "the second one", "最后一个": an item of the last answer's list by position; what the
/// question asks is then about that item, whatever table its words suggest. "its last one"
/// asked with a time is its last event, no item.
fn picked_item<'a>(
    lex: &Lexicon,
    p: &Parsed,
    last: &'a LastQuery,
) -> Option<&'a Vec<(String, String)>> {
    // "第二多的呢": a position asked of nothing named anew, in the ranking the list
    // has (a count's "most", not "第二慢" after a count), is the listed item there.
    let own = p.has(|c| matches!(c, Cue::Field(_) | Cue::Column(_) | Cue::Source(_)));
    let same_ranking = super::build::measure_cue(lex, p).is_some_and(|i| {
        lex.measures[i].field.as_deref() == last.query.field.as_ref().map(|f| f.as_str())
    });
    let position = p
        .rank
        .filter(|_| !own && same_ranking)
        .map(|n| crate::follow::Ordinal::Nth(n as usize));
    // "when was the first one", "its last one" asked with a time are events; "second one:
    // when was it first seen?" is still the second item.
    let an_event = |o: &crate::follow::Ordinal| {
        asks_an_occurrence(lex, p) && !matches!(o, crate::follow::Ordinal::Nth(n) if *n >= 2)
    };
    crate::follow::ordinal(&p.text)
        .or(position)
        .filter(|o| !an_event(o))
        .and_then(|o| match o {
            crate::follow::Ordinal::Nth(n) => last.items.get(n.checked_sub(1)?),
            crate::follow::Ordinal::Last => last.items.last(),
        })
        // "the slowest one" is the top item; "the second slowest one" the one at that position.
        .or_else(|| {
            let at = p.rank.map_or(0, |n| n as usize - 1);
            ranked_first(lex, p, &last.query).then(|| last.items.get(at))?
        })
}

/// "这个 client 一共发了多少请求", "how many requests did that client send" after the
/// slowest request: a field named with a word that refers back is the named event's value
/// of it, and the question asks its own figure of the same logs.
fn about_the_event(lex: &Lexicon, p: &Parsed, last: &LastQuery) -> Option<Frame> {
    if last.event.is_empty()
        || last.query.source != Source::Log
        || !p.has(|c| matches!(c, Cue::Measure(_)))
    {
        return None;
    }
    // The reference stands right before the field ("这个 client", "this client's", "its
    // host"): a reference elsewhere is to something else ("per client this hour").
    let referred = |h: &Hit| {
        let before = p.lower[..h.start].trim_end();
        let follow = &lex.grammar.follow;
        follow
            .before_a_field
            .iter()
            .any(|w| ends_with_word(before, w))
            || p.hits
                .iter()
                .any(|r| r.cue == Cue::Refer && r.end <= h.start && p.close(r.end, h.start))
    };
    let (field, value) = super::parsed::field_hits(lex, p, Source::Log).find_map(|(h, f)| {
        if !referred(h) {
            return None;
        }
        let named = |name: &str| {
            name == f
                || p.columns
                    .iter()
                    .any(|c| c.name == name && c.roles.iter().any(|r| r == f))
        };
        let measured = last.query.field.as_ref().is_some_and(|m| m.as_str() == f);
        last.event
            .iter()
            .find(|(name, _)| !measured && named(name))
            .map(|(_, v)| (f, v.as_str()))
    })?;
    let new = frame_of(lex, p, Source::Log, last.query.files.clone());
    let mut q = new.query;
    q.group_by.retain(|g| g.as_str() != field);
    if q.field.as_ref().is_some_and(|x| x.as_str() == field) {
        q.field = None;
    }
    q.filters
        .retain(|x| x.field.as_ref().is_none_or(|x| x.as_str() != field));
    put_filter(&mut q.filters, refer_filter(field, value));
    Some(edited(q, new.soft, new.object))
}

/// "in seconds pls", "换成毫秒", "in MB?": the last answer again (its figures are shown in
/// the units a reader asks for: seconds and milliseconds, bytes and their multiples). A
/// number with the unit is a threshold or a window instead ("over 5 seconds"), and "the
/// second one" an item.
fn in_another_unit(p: &Parsed) -> bool {
    p.has(|c| matches!(c, Cue::Unit(_)))
        && crate::follow::ordinal(&p.text).is_none()
        && !p.has(|c| {
            c.is_content()
                || matches!(
                    c,
                    Cue::Group
                        | Cue::Bucket(_)
                        | Cue::Last
                        | Cue::From
                        | Cue::To
                        | Cue::Around
                        | Cue::Between
                )
        })
        && p.lits
            .iter()
            .all(|l| matches!(l.lit, super::scan::Lit::Word(_)))
}

/// "all statuses": the last query's conditions on the fields a `[scope]` word names go;
/// the message's own stay ("all paths under /api/v2").
fn drop_unasked(lex: &Lexicon, p: &Parsed, q: &mut Query, new: &Query) {
    for field in fields_not_asked(lex, p) {
        q.filters.retain(|f| {
            new.filters.contains(f) || f.field.as_ref().is_none_or(|x| x.as_str() != field)
        });
    }
}

/// "all statuses", "不管状态码": the fields a `[scope]` word right before their name says
/// no condition is asked on.
fn fields_not_asked<'a>(lex: &'a Lexicon, p: &'a Parsed) -> Vec<&'a str> {
    let scope = &lex.grammar.scope;
    super::parsed::field_hits(lex, p, Source::Log)
        .filter(|(h, _)| {
            let before = p.lower[..h.start].trim_end();
            scope.all().any(|w| ends_with_word(before, w))
        })
        .map(|(_, f)| f)
        .collect()
}

/// What a follow-up asks of its own.
struct Asked {
    marked: bool,
    refers: bool,
    own_measure: bool,
    own_content: bool,
    /// "几点跑的？" after the longest statement: the time of that event.
    time_of_last: bool,
    /// "how many times?" after the client denied most: the top item's count.
    count_of_top: bool,
    /// "how many in total?", "一共多少条": the last query's events, all counted.
    total: bool,
    /// "its last request": the latest of the events, asked with "last" and no measure word.
    latest: bool,
    /// "它的 client 是谁", "and its host?": a field asked of the event the last answer
    /// named, nothing counted.
    field_of_it: bool,
}

impl Asked {
    fn of(p: &Parsed, new: &Frame, last: &LastQuery, asks_time: bool) -> Asked {
        let refers = p.has(|c| c == Cue::Refer);
        let marked = refers || p.has(|c| c == Cue::Follow);
        let lex = crate::lexicon::lexicon();
        // Unknown words are a condition only with a follow-up word ("and the deadlocks?").
        let own_condition = new
            .query
            .filters
            .iter()
            .any(|f| Some(f) != new.object.as_ref() || marked)
            || !new.query.group_by.is_empty();
        // "what % of requests are 5xx": a share asked with a condition of its own is a
        // figure of its own, as a count word is ("what % of those" refers, and edits).
        let own_share = !marked
            && !new.query.filters.is_empty()
            && (lex.grammar.share.occur_in(&p.lower) || super::rate::rate_asked(lex, p).is_some());
        // "有没有 504", "are there any 504s": asked yes or no, a count of their own.
        let own_measure =
            p.has(|c| matches!(c, Cue::Measure(_))) || p.asks_if_any(lex) || own_share;
        let latest = p.asks_the_latest(&new.query);
        let own_content = own_measure
            || own_condition
            || latest
            || new.query.window.is_some()
            || p.has(|c| matches!(c, Cue::Bucket(_) | Cue::Then));
        // A figure asked of nothing named is asked of the last answer.
        let named = |c: Cue| matches!(c, Cue::Field(_) | Cue::Column(_) | Cue::Source(_));
        let of_nothing = own_measure
            && new.query.filters.is_empty()
            && new.query.group_by.is_empty()
            && new.query.window.is_none()
            && (!p.has(named) || asks_time);
        Asked {
            marked,
            refers,
            own_measure,
            own_content,
            time_of_last: asks_time && of_nothing,
            count_of_top: of_nothing
                && new.query.measure == Measure::Count
                && !last.query.group_by.is_empty(),
            total: of_nothing
                && new.query.measure == Measure::Count
                && last.query.group_by.is_empty()
                && p.has(|c| c == Cue::Total)
                && !refers,
            latest,
            field_of_it: refers
                && !own_measure
                && (!new.query.group_by.is_empty()
                    || p.has(|c| matches!(c, Cue::Field(_) | Cue::Column(_))))
                && new.query.filters.is_empty()
                && new.query.window.is_none(),
        }
    }
}

/// The edits that make the answer one event: "when did it run?" after the longest one is
/// that event's time, "它的 client 是谁" its line; "and the third one, which host?" after
/// a list of events is that event, whole (its line holds what is asked about it).
fn one_event(q: &mut Query, last: &Query, a: &Asked, picked: bool) {
    let of_the_event = a.time_of_last || a.field_of_it;
    if let (true, Some(order)) = (of_the_event, extreme_order(last.measure)) {
        q.measure = Measure::Rows;
        q.field = last.field.clone();
        q.order = order;
        q.limit = Some(1);
        q.group_by.clear();
    }
    if (picked || a.field_of_it) && last.measure == Measure::Rows {
        q.measure = Measure::Rows;
        q.group_by.clear();
        q.field = last.field.clone();
        q.order = last.order;
        q.limit = Some(1);
    }
}

/// "which thread had the most?", "哪个线程最多" after a count of errors (or a statistic of
/// them): a ranking whose word ends the question counts nothing of its own, so it ranks the
/// events the last query read; "which thread logged the most warnings" names its own.
fn ranks_the_last_events(lex: &Lexicon, p: &Parsed, new: &Query, last: &Query) -> bool {
    let ends_with_rank = p
        .hits
        .iter()
        .filter(|h| h.cue == Cue::Group && p.hit_is(h, &lex.grammar.rank))
        .any(|h| p.text[h.end..].chars().all(|c| !c.is_alphanumeric()));
    ends_with_rank
        && new.measure == Measure::Count
        && !new.group_by.is_empty()
        && new.filters.is_empty()
        && new.field.is_none()
        && new.window.is_none()
        && last.measure != Measure::Timeline
        && !last.filters.is_empty()
        && !p.has(|c| matches!(c, Cue::Source(_)))
}

/// The order that lists a largest (smallest) value first.
fn extreme_order(m: Measure) -> Option<Order> {
    match m {
        Measure::Max => Some(Order::Desc),
        Measure::Min => Some(Order::Asc),
        _ => None,
    }
}

/// "the slowest one" after a list of the slowest requests: the list's first row, named by
/// the superlative that ranked it (the same field, the same direction).
fn ranked_first(lex: &Lexicon, p: &Parsed, last: &Query) -> bool {
    let Some(sorted) = last
        .field
        .as_ref()
        .filter(|_| last.measure == Measure::Rows)
    else {
        return false;
    };
    p.hits.iter().any(|h| {
        let Cue::Measure(i) = h.cue else { return false };
        let m = &lex.measures[i];
        let same_way = match m.measure {
            Measure::Max => last.order == Order::Desc,
            Measure::Min => last.order == Order::Asc,
            _ => false,
        };
        same_way && m.field.as_deref() == Some(sorted.as_str())
    })
}

/// "report-cruncher 还在跑吗" then "pid 是多少" / "and its user?": over the rows of a system
/// table a name picked, a field asked alone (no name, no figure of its own) is read off
/// them; a numeric one combines as its cue says (a program's memory is the sum).
fn field_of_named_rows(lex: &Lexicon, p: &Parsed, last: &Query) -> Option<Frame> {
    let name = super::build_filters::name_field(last.source)?;
    let named = last.filters.iter().any(|f| {
        f.field
            .as_ref()
            .is_some_and(|x| x.as_str() == name || x.as_str() == "command")
    });
    let a_name = p.lits.iter().any(|l| {
        matches!(
            l.lit,
            super::scan::Lit::Ident(_) | super::scan::Lit::Quoted(_) | super::scan::Lit::Word(_)
        )
    });
    // "which process owns port 19999": another table's field with a value of its own is a
    // question of that table, not a field of the rows named before.
    let own_condition = names_other_table(lex, p, last.source)
        && p.lits.iter().any(|l| {
            matches!(
                l.lit,
                super::scan::Lit::Number { .. } | super::scan::Lit::Ip(_)
            )
        });
    if !named
        || a_name
        || own_condition
        || ranks_the_table(lex, p)
        || super::build::measure_cue(lex, p)
            .is_some_and(|i| !matches!(lex.measures[i].measure, Measure::Rows | Measure::Count))
    {
        return None;
    }
    let (h, f) = super::parsed::field_hits(lex, p, last.source).find(|(_, f)| *f != name)?;
    let mut q = last.clone();
    if p.is_numeric(lex, f) {
        q.measure = lex.of_many(h.cue);
        q.field = Some(Field::new(f));
    } else {
        q.measure = Measure::Rows;
        q.field = None;
    }
    Some(edited(q, Vec::new(), None))
}

/// "which process uses the most memory", "top 5 by cpu": a ranking, said with no word
/// pointing back ("its busiest port") or marking a follow-up, is a question of its own.
fn ranks_the_table(lex: &Lexicon, p: &Parsed) -> bool {
    !p.has(|c| matches!(c, Cue::Refer | Cue::Follow))
        && p.hits
            .iter()
            .any(|h| h.cue == Cue::Limit || (h.cue == Cue::Group && p.hit_is(h, &lex.grammar.rank)))
}

fn edited(query: Query, soft: Vec<Filter>, object: Option<Filter>) -> Frame {
    Frame {
        query,
        soft,
        or_else: Vec::new(),
        share_of: None,
        object,
        unused_object: None,
        follow_up: true,
        written_instead: None,
    }
}

/// Whether the question's measure is the first or last event ("when was its last one",
/// "第一次是几点"): an ordinal word in it says which event, not which item of a list.
fn asks_an_occurrence(lex: &Lexicon, p: &Parsed) -> bool {
    super::build::measure_cue(lex, p).is_some_and(|i| {
        let m = &lex.measures[i];
        m.measure == Measure::Rows && m.field.as_deref() == Some("time")
    })
}

/// "when, and what did they say?", "什么时候？都说了什么" after a count: the events
/// counted, listed in time order with their lines. A question naming a field, a condition
/// or a log of its own is a question of its own.
fn the_counted_events(lex: &Lexicon, p: &Parsed, last: &Query) -> Option<Frame> {
    let counted = last.measure == Measure::Count && last.group_by.is_empty();
    let said = lex.grammar.what_said.occur_in(&p.lower);
    // "when" is a listing's own cue; any other figure asked is a question of its own.
    let figure = |c: Cue| matches!(c, Cue::Measure(i) if lex.measures[i].measure != Measure::Rows);
    let own = p.has(|c| {
        figure(c)
            || matches!(
                c,
                Cue::Field(_) | Cue::Column(_) | Cue::Source(_) | Cue::Filter(_)
            )
    }) || !p.lits.is_empty();
    if !counted || !said || own || last.source != Source::Log {
        return None;
    }
    let mut q = last.clone();
    q.measure = Measure::Rows;
    q.field = Some(Field::new("time"));
    q.order = Order::Asc;
    q.limit = None;
    Some(edited(q, Vec::new(), None))
}

/// "chat-db-b 呢", "same for app.log": the last question over the log named, with what
/// else the message says. A message with a figure of its own is a new question.
fn other_log(lex: &Lexicon, p: &Parsed, last: &LastQuery) -> Option<Frame> {
    let marked = p.has(|c| c == Cue::Follow);
    let own_measure = p.has(|c| matches!(c, Cue::Measure(_)));
    if last.query.source != Source::Log || p.files == last.query.files {
        return None;
    }
    if own_measure {
        return the_item_in_another_log(lex, p, last);
    }
    if !marked {
        return None;
    }
    let last = &last.query;
    let new = frame_of(lex, p, Source::Log, p.files.clone());
    let mut q = last.clone();
    apply(&mut q, &new.query, false, p);
    q.files = p.files.clone();
    Some(edited(q, new.soft, new.object))
}

/// "app.log 里它出现了几次？" after the client denied most often: a pronoun
/// in a question of its own over another log stands for the last answer's top item,
/// looked for as a whole word in that log's text.
fn the_item_in_another_log(lex: &Lexicon, p: &Parsed, last: &LastQuery) -> Option<Frame> {
    let item = last
        .item_asked(&last.query)
        .or(last.top())
        .filter(|i| !i.is_empty() && i.iter().all(|(_, v)| !v.trim().is_empty()))?;
    if !of_the_listed_item(lex, p, last) {
        return None;
    }
    let mut frame = frame_of(lex, p, Source::Log, p.files.clone());
    // As written anywhere in the event, a whole word: the other log may hold the value
    // under another name (a proxy's client in an app's `x-forwarded-for`), and a field of
    // the same role there may hold something else (the proxy's own address).
    for (_, value) in item {
        let edge = |c: Option<char>| {
            if c.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                r"\b"
            } else {
                ""
            }
        };
        let pattern = format!(
            "{}{}{}",
            edge(value.chars().next()),
            regex::escape(value),
            edge(value.chars().last())
        );
        frame.query.filters.push(filter(
            None,
            FilterOp::Regex,
            Scalar::Text(pattern),
            Unit::None,
        ));
    }
    frame.follow_up = true;
    Some(frame)
}

/// The question names another table, or a field only another table has ("内存" after
/// a log query).
fn names_other_table(lex: &Lexicon, p: &Parsed, source: Source) -> bool {
    let other = |s: Source| s != source && s != Source::Log;
    // A table's word that is also a log field's word the last log has is that field ("and
    // what port was it hitting?" after a firewall log's sources: its `DPT`).
    let log_field = |h: &Hit| {
        source == Source::Log
            && !p.columns.is_empty()
            && p.hits.iter().any(|f| {
                (f.start, f.end) == (h.start, h.end)
                    && matches!(f.cue, Cue::Field(j)
                        if lex.fields[j].source == Some(Source::Log) && p.log_has(&lex.fields[j].field))
            })
    };
    p.hits.iter().any(|h| match h.cue {
        Cue::Source(i) => other(lex.sources[i].source) && !log_field(h),
        Cue::Field(i) => lex.fields[i].source.is_some_and(other),
        _ => false,
    })
}

fn refer_filter(field: &str, value: &str) -> Filter {
    let v = value
        .parse::<f64>()
        .map(Scalar::Number)
        .unwrap_or_else(|_| Scalar::Text(value.to_string()));
    filter(Some(field), FilterOp::Eq, v, Unit::None)
}

/// Adds a filter, replacing one on the same field (or the same kind of tag).
fn put_filter(filters: &mut Vec<Filter>, f: Filter) {
    filters.retain(|o| !same_subject(o, &f));
    filters.push(f);
}

fn same_subject(a: &Filter, b: &Filter) -> bool {
    match (a.op, b.op) {
        (FilterOp::Tag, FilterOp::Tag) => true,
        _ => (a.field.is_some() && a.field == b.field) || tag_over(a, b) || tag_over(b, a),
    }
}

/// A tag and a condition on a field the tag is defined over say the same thing two ways:
/// "那 4xx 呢" after an access log's failures (its 5xx) swaps them.
fn tag_over(tag: &Filter, f: &Filter) -> bool {
    let (FilterOp::Tag, Scalar::Text(name), Some(field)) = (tag.op, &tag.value, &f.field) else {
        return false;
    };
    llmops_loganalysis::table::tag_fields(name).contains(&field.as_str())
}

/// The new question's slots over the last query's.
fn apply(q: &mut Query, new: &Query, own_measure: bool, p: &Parsed) {
    // The new conditions replace the last ones on their fields all together: both bounds of
    // a range ("between 1 and 2 seconds") stay.
    let mut put: Vec<Filter> = Vec::new();
    for f in &new.filters {
        // "excluding 503" after "how many 5xx" narrows it; "不是 5xx 的呢" after "5xx" is its
        // opposite, which replaces it.
        if f.excludes() {
            q.filters
                .retain(|o| !(o.field == f.field && o.op == f.op && o.value == f.value));
            q.filters.push(f.clone());
            continue;
        }
        // A status class replaces a status code and the other way round.
        let status = |x: &Filter| x.field.as_ref().is_some_and(|f| f.as_str() == "status");
        if status(f) {
            q.filters.retain(|o| !status(o));
        }
        // "and expanding?" after "Shrinking ISR": the text looked for, swapped.
        if !super::edit_ops::swap_text(&mut q.filters, f) {
            put.push(f.clone());
        }
    }
    q.filters
        .retain(|o| !put.iter().any(|f| same_subject(o, f)));
    q.filters.extend(put);
    // "and when did it come back?" after when it started: the first such event too, not
    // their spread over time.
    let first_event = q.measure == Measure::Rows
        && q.field.as_ref().is_some_and(|f| f.as_str() == "time")
        && new.measure == Measure::Buckets
        && !p.has(|c| matches!(c, Cue::Bucket(_)));
    if own_measure && !first_event {
        // "平均呢" after a median, "and the p95?": another statistic of the same field,
        // over the same groups, when the message names no field of its own.
        let stat = |m: Measure| m.is_stat() || m == Measure::Stats;
        let names_field = p.has(|c| matches!(c, Cue::Field(_) | Cue::Column(_)));
        let same_field = !names_field && q.field.is_some() && stat(new.measure) && stat(q.measure);
        if !same_field {
            q.field = new.field.clone();
        }
        if !(same_field && new.group_by.is_empty()) {
            q.group_by = new.group_by.clone();
        }
        q.measure = new.measure;
        q.order = new.order;
        q.limit = new.limit;
    } else if !new.group_by.is_empty() {
        q.group_by = new.group_by.clone();
        if matches!(q.measure, Measure::Rows | Measure::Buckets) {
            q.measure = Measure::Count;
        }
    }
    if p.has(|c| matches!(c, Cue::Bucket(_))) {
        q.bucket = new.bucket;
        if !own_measure || new.measure == Measure::Buckets {
            q.measure = Measure::Buckets;
            q.group_by.clear();
        }
    }
    if new.window.is_some() {
        q.window = new.window.clone();
    }
    if new.limit.is_some() {
        q.limit = new.limit;
    }
    if q.measure.is_stat() && q.field.is_none() {
        q.field = Some(Field::new("duration"));
    }
    // Fields the follow-up defines from the text join those the last query defined.
    for x in &new.extract {
        if !q.extract.iter().any(|o| o.name == x.name) {
            q.extract.push(x.clone());
        }
    }
}
