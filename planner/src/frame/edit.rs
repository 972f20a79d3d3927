//! Follow-ups edit the last query: "那 4xx 呢" swaps the status filter, "按小时呢" changes
//! the bucket, "它呢 / and that one?" narrows to the last answer's top item, "when was the
//! last one" keeps the rows and changes the measure. A question with its own table, or its
//! own measure and condition, is a new query instead.

use llmops_common::query::{Field, Filter, FilterOp, Measure, Query, Scalar, Source, Unit};

use super::build::frame_of;
use super::parsed::{filter, Parsed};
use super::{Frame, FrameCtx};
use crate::lexicon::{Cue, Hit, Lexicon};

/// Whether the question is a follow-up of the last query, and the edited frame if so.
pub fn follow_up(lex: &Lexicon, p: &Parsed, ctx: &FrameCtx) -> Option<Frame> {
    let last = ctx.last_query?;
    // "the second one", "最后一个": an item of the last answer's list by position; what
    // the question asks is then about that item, whatever table its words suggest.
    let picked = crate::follow::ordinal(&p.text).and_then(|o| match o {
        crate::follow::Ordinal::Nth(n) => last.items.get(n.checked_sub(1)?),
        crate::follow::Ordinal::Last => last.items.last(),
    });
    if !p.files.is_empty() || (picked.is_none() && names_other_table(lex, p, last.query.source)) {
        return None;
    }
    let marked = p.has(|c| matches!(c, Cue::Follow | Cue::Refer));
    let refers = p.has(|c| c == Cue::Refer);
    let new = frame_of(lex, p, last.query.source, last.query.files.clone());
    let own_measure = p.has(|c| matches!(c, Cue::Measure(_)));
    // Unknown words are a condition only with a follow-up word ("and the deadlocks?").
    let own_condition = new
        .query
        .filters
        .iter()
        .any(|f| Some(f) != new.object.as_ref() || marked)
        || !new.query.group_by.is_empty();
    let own_content = own_measure
        || own_condition
        || new.query.window.is_some()
        || p.has(|c| matches!(c, Cue::Bucket(_)));
    // "它呢" / "and that one?": a reference with a follow-up marker and nothing else; a
    // bare pronoun ("send it") is some other request about the conversation's file.
    let item = picked.or(if refers { last.items.first() } else { None });
    if !(own_content || picked.is_some() || (refers && p.has(|c| c == Cue::Follow))) {
        return None;
    }
    // A new figure asked without a follow-up word or a picked item is a fresh question
    // ("哪个进程占用内存最多" after a count of errors).
    if !marked && picked.is_none() && own_measure {
        return None;
    }
    let mut q = last.query.clone();
    if let Some(item) = item {
        for (field, value) in item {
            put_filter(&mut q.filters, refer_filter(field, value));
            q.group_by.retain(|g| g.as_str() != field);
        }
        if q.group_by.is_empty() && q.measure != Measure::Rows && !own_measure {
            q.measure = Measure::Count;
        }
    }
    apply(&mut q, &new.query, own_measure, p);
    // "and the third one, which host?" after a list of events: that one event, whole
    // (its line holds what is asked about it).
    if picked.is_some() && last.query.measure == Measure::Rows {
        q.measure = Measure::Rows;
        q.group_by.clear();
        q.field = last.query.field.clone();
        q.order = last.query.order;
        q.limit = Some(1);
    }
    Some(Frame {
        query: q,
        soft: new.soft,
        object: new.object,
        follow_up: true,
    })
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
        _ => a.field.is_some() && a.field == b.field,
    }
}

/// The new question's slots over the last query's.
fn apply(q: &mut Query, new: &Query, own_measure: bool, p: &Parsed) {
    for f in &new.filters {
        // A status class replaces a status code and the other way round.
        let status = |x: &Filter| x.field.as_ref().is_some_and(|f| f.as_str() == "status");
        if status(f) {
            q.filters.retain(|o| !status(o));
        }
        put_filter(&mut q.filters, f.clone());
    }
    if own_measure {
        q.measure = new.measure;
        q.field = new.field.clone();
        q.order = new.order;
        q.limit = new.limit;
        q.group_by = new.group_by.clone();
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
}
