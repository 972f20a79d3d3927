//! Questions of a system table's rows: a field asked of the rows a name picks ("the pid of
//! X", "how much memory does X use"), and rows ranked by a quantity ("top 3 processes by
//! thread count", "the fewest threads").

use llmops_common::query::{Field, Measure, Order, Query, Source};

use super::parsed::{field_hits, Parsed};
use crate::lexicon::{Cue, Lexicon};

/// "top 3 processes by thread count", "按线程数排前5的进程": a system table grouped by a
/// quantity (not a key, not a name) ranks its rows by it, from the top unless the fewest is
/// asked; it does not count the rows holding each value.
pub(super) fn rows_by_a_quantity(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    if q.source == Source::Log
        || q.measure.is_stat()
        || q.group_by.len() != 1
        || !q
            .group_by
            .iter()
            .all(|f| lex.is_quantity(q.source, f.as_str()))
    {
        return;
    }
    q.field = q.group_by.pop();
    q.measure = Measure::Rows;
    q.order = if asks_the_fewest(lex, p) {
        Order::Asc
    } else {
        Order::Desc
    };
    q.limit = q.limit.or(Some(5));
}

/// A count cue ranked from the bottom ("fewest", "最少").
pub(super) fn asks_the_fewest(lex: &Lexicon, p: &Parsed) -> bool {
    p.has(|c| {
        matches!(c, Cue::Measure(i) if lex.measures[i].measure == Measure::Count
            && lex.measures[i].order == Some(Order::Asc))
    })
}

/// "report-cruncher 的 pid 是多少", "how much memory does image-resizer use": a count over a
/// system table that names a field no condition uses asks for that field of the matching
/// rows: the total when it is numeric, else the rows that show it. `measured`: the question
/// cues a measure of its own.
pub(super) fn system_field_asked(lex: &Lexicon, p: &Parsed, q: &mut Query, measured: bool) {
    // The name column's condition is the name asked about, not a condition on the field.
    let name = super::build_filters::name_field(q.source);
    let named = q
        .filters
        .iter()
        .any(|x| x.field.as_ref().map(|g| g.as_str()) == name);
    let ranked = p
        .hits
        .iter()
        .any(|g| g.cue == Cue::Group && p.hit_is(g, &lex.grammar.rank));
    // "X 是哪个用户跑的": which user of the named rows is read off them, with their pids.
    if q.source != Source::Log && q.measure == Measure::Count && named && !ranked {
        q.group_by.clear();
    }
    // "sshd 和 cron 哪个内存占用大": which of several names, by a figure, ranks their rows.
    let which_of_several = p.hits.iter().any(|g| p.hit_is(g, &lex.grammar.asks))
        && p.names_a_list()
        && named
        && q.filters.iter().all(|x| !x.negate);
    let unranked_rows = q.measure == Measure::Rows && q.field.is_none() && which_of_several;
    if q.source == Source::Log
        || (q.measure != Measure::Count && !unranked_rows)
        || !q.group_by.is_empty()
    {
        return;
    }
    let conditioned = |f: &str| {
        Some(f) != name
            && q.filters
                .iter()
                .any(|x| x.field.as_ref().is_some_and(|g| g.as_str() == f))
    };
    // The figure that ranks them first ("哪个占内存最多，pid 是多少": by memory, with the pid).
    let numeric = |f: &str| p.is_numeric(lex, f) && !conditioned(f);
    let asked = field_hits(lex, p, q.source)
        .find(|(_, f)| which_of_several && numeric(f))
        .or_else(|| field_hits(lex, p, q.source).find(|(_, f)| !conditioned(f)));
    // "what's listening on 8080": no figure asked, so the rows themselves; "根分区用了多少":
    // a row named by a unique name (a mount point, a unit) is shown, not counted.
    let one_named_row = named && matches!(q.source, Source::Mounts | Source::Units);
    if asked.is_none() && (!measured || one_named_row) {
        q.measure = Measure::Rows;
        q.field = None;
        return;
    }
    match asked {
        // "the most memory": the rows with the most, first.
        // "the fewest threads", "前5": the rows from the bottom, or as many as asked.
        Some((h, f))
            if p.is_numeric(lex, f)
                && (super::grouping::ranked_at(lex, p, h)
                    || which_of_several
                    || asks_the_fewest(lex, p)
                    || q.limit.is_some()) =>
        {
            q.measure = Measure::Rows;
            q.field = Some(Field::new(f));
            q.order = if asks_the_fewest(lex, p) {
                Order::Asc
            } else {
                Order::Desc
            };
            q.limit = q.limit.or(Some(5));
        }
        Some((h, f)) if p.is_numeric(lex, f) => {
            q.measure = lex.of_many(h.cue);
            q.field = Some(Field::new(f));
        }
        Some(_) => {
            q.measure = Measure::Rows;
            q.field = None;
        }
        None => {}
    }
}
