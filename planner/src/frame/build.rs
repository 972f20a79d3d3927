//! From a question to a [`Frame`]: the lexicon's cues and the question's literals fill the
//! query's slots by position (a field after "which"/"per"/"按" is grouped, a number after
//! "over" is compared, a duration after "last" is a window). Each slot has one function.

use llmops_common::query::{
    BucketWidth, Extract, Field, Filter, FilterOp, Measure, Order, Query, Scalar, Source,
    TimePoint, Window,
};

use super::how_many::{how_many_rows, length_after};
use super::parsed::{field_hits, Parsed};
use super::scan::Lit;
use super::{Frame, FrameCtx};
use crate::lexicon::{find, lexicon, Cue, Hit, Lexicon};
use crate::text::normalize;

/// The measure cue that wins: highest weight, then longest.
pub(super) fn measure_cue(lex: &Lexicon, p: &Parsed) -> Option<usize> {
    winning_measure(lex, &p.hits)
}

/// Of the measure cues among `hits`, the one that wins: highest weight, then longest.
fn winning_measure(lex: &Lexicon, hits: &[Hit]) -> Option<usize> {
    hits.iter()
        .filter_map(|h| match h.cue {
            Cue::Measure(i) => Some((lex.measures[i].weight, h.end - h.start, i)),
            _ => None,
        })
        .max()
        .map(|(_, _, i)| i)
}

/// The measure, its field, order and limit, and the grouping: the query's first slots,
/// with the measure cue that set them.
fn measured<'a>(
    lex: &'a Lexicon,
    p: &Parsed,
    source: Source,
    files: Vec<String>,
) -> (Query, Option<&'a crate::lexicon::MeasureCue>) {
    let ranked = ranked_statistic(lex, p);
    let cue = ranked
        .as_ref()
        .map(|r| r.stat)
        .or_else(|| measure_cue(lex, p).map(|i| &lex.measures[i]));
    let mut q = Query {
        source,
        files,
        measure: cue.map_or(Measure::Count, |c| c.measure),
        order: ranked
            .as_ref()
            .map(|r| r.order)
            .or_else(|| cue.and_then(|c| c.order))
            .unwrap_or_default(),
        limit: cue.and_then(|c| c.limit),
        ..Query::default()
    };
    let implied = ranked.map_or_else(|| cue.and_then(|c| c.field.clone()), |r| r.field);
    let stat_field =
        super::measured_field::stat_field(lex, p, source, implied, measure_cue(lex, p));
    q.field = stat_field.clone().map(Field);
    q.group_by = super::grouping::groups(lex, p, source, stat_field.as_deref());
    (q, cue)
}

/// A statistic ranked by a superlative: "slowest on average", "平均耗时最长的接口", "fastest
/// p95". The statistic is the measure; the superlative gives the field it implies
/// (`slowest` -> `duration`) and the direction (largest or smallest first).
struct RankedStat<'a> {
    stat: &'a crate::lexicon::MeasureCue,
    field: Option<String>,
    order: Order,
}

fn ranked_statistic<'a>(lex: &'a Lexicon, p: &Parsed) -> Option<RankedStat<'a>> {
    let cues = || {
        p.hits.iter().filter_map(|h| match h.cue {
            Cue::Measure(i) => Some(&lex.measures[i]),
            _ => None,
        })
    };
    let extreme = |m: Measure| matches!(m, Measure::Max | Measure::Min);
    let superlative = cues().find(|c| extreme(c.measure))?;
    let stat = cues()
        .filter(|c| c.measure.is_stat() && !extreme(c.measure))
        .max_by_key(|c| c.weight)?;
    Some(RankedStat {
        stat,
        field: stat.field.clone().or_else(|| superlative.field.clone()),
        order: match superlative.measure {
            Measure::Min => Order::Asc,
            _ => Order::Desc,
        },
    })
}

/// Whether the question asks for a figure outright (a measure cue other than "show").
pub fn asks_a_measure(text: &str) -> bool {
    let lex = lexicon();
    let lower = normalize(text).to_ascii_lowercase();
    find(lex, &lower).iter().any(|h| match h.cue {
        Cue::Measure(i) => {
            lex.measures[i].measure != Measure::Rows || lex.measures[i].limit.is_some()
        }
        _ => false,
    })
}

/// "有没有 504", "是否有报错", "are there any 504s": whether any event has a condition the
/// lexicon or a status code names, asked yes or no (`[yes_no]`); the answer is their count.
/// ("有没有关于部署的文档" names no condition: a search.)
pub fn asks_if_any(text: &str) -> bool {
    Parsed::new(text, &FrameCtx::of_uploads(&[])).asks_if_any(lexicon())
}

/// Whether the winning measure cue of a parsed question is a timeline's.
pub(super) fn timeline_cue(lex: &Lexicon, p: &Parsed) -> bool {
    measure_cue(lex, p).is_some_and(|i| lex.measures[i].measure == Measure::Timeline)
}

/// Whether the question's winning measure cue asks for a timeline ("what happened",
/// "timeline pls").
pub fn asks_a_timeline(text: &str) -> bool {
    let lex = lexicon();
    let lower = normalize(text).to_ascii_lowercase();
    winning_measure(lex, &find(lex, &lower))
        .is_some_and(|i| lex.measures[i].measure == Measure::Timeline)
}

/// Every slot of the query from the parsed question.
pub fn frame_of(lex: &Lexicon, p: &Parsed, source: Source, files: Vec<String>) -> Frame {
    let (mut q, cue) = measured(lex, p, source, files);
    measured_groups(lex, p, &mut q);
    peak_of_a_field(lex, p, &mut q);
    distribution_of_values(lex, p, &mut q);
    super::measured_field::distinct_counted(lex, p, source, &mut q);
    let mut cond = super::build_filters::filters(lex, p, source);
    // A zone's name says when, not what the events say.
    let zone_word = |f: &Filter| {
        f.field.is_none()
            && matches!(&f.value, Scalar::Text(v) if super::zones::is_zone_word(lex, v))
    };
    cond.hard.retain(|f| !zone_word(f));
    cond.soft.retain(|f| !zone_word(f));
    q.filters = std::mem::take(&mut cond.hard);
    q.window = window(lex, p);
    // "the proxy and the app, around 04:10?": several logs at a time, with no figure asked
    // (or only their events: "list the events between 01:10 and 01:15"), is what happened
    // then across them.
    let rows_only = cue.is_some_and(|c| c.measure == Measure::Rows && c.field.is_none());
    if (cue.is_none() || rows_only)
        && q.files.len() > 1
        && q.window.is_some()
        && q.filters.is_empty()
        && q.group_by.is_empty()
        && q.field.is_none()
    {
        q.measure = Measure::Timeline;
    }
    measure_over_window_and_buckets(p, cue, &mut q);
    let before = q.field.clone();
    how_many_rows(lex, p, cue, &mut q);
    super::path_template::ranked_paths(lex, p, &mut q);
    super::counted::of_a_named_field(lex, p, source, measure_cue(lex, p), &mut q);
    settle(lex, p, &mut q);
    let measured = measure_cue(lex, p).is_some();
    super::system_rows::system_field_asked(lex, p, &mut q, measured);
    // A statistic of a system table needs a field of numbers; with none named ("连接池最大
    // 多少" of a process's sockets) the rows are what can be shown, never a query the
    // tool refuses.
    if q.source != Source::Log && q.measure.is_stat() && q.field.is_none() {
        q.measure = Measure::Rows;
    }
    tag_subject(lex, p, &mut q);
    let timeline = q.measure == Measure::Timeline;
    let (object, unused_object) = object_of(&q, &mut cond);
    q.filters.extend(object.clone());
    let named = statistic_of_named_events(&q, object.as_ref(), &cond.object_words);
    let mut soft = [cond.soft, named].concat();
    if timeline {
        timeline_conditions(lex, p, &mut q, &mut soft);
    }
    q.extract = used_definitions(p, &q, &soft);
    let mut or_else = super::level_phrase::of_query(lex, p, &q);
    if or_else.is_empty() {
        or_else = super::owner::owner_instead(&q);
    }
    if or_else.is_empty() {
        or_else = super::words::phrase_apart(&q);
    }
    last_touches(lex, p, before, &mut q);
    let winning = measure_cue(lex, p);
    if let Some(words) = super::written_quantity::summed(lex, p, winning, &mut q) {
        soft.extend(words);
    }
    let written = super::written_quantity::written_measure(lex, p, winning, &mut q);
    let written_instead = match written {
        Some(super::written_quantity::Written::Now(words)) => {
            soft.extend(words);
            None
        }
        Some(super::written_quantity::Written::Instead(x)) => Some(Box::new(x)),
        None => None,
    };
    Frame {
        query: q,
        soft,
        or_else,
        share_of: None,
        object,
        unused_object,
        follow_up: false,
        written_instead,
    }
}

/// The unknown words' condition, and the one left out. They name what is counted or shown
/// only when nothing else does: with a condition, a grouping or a field of their own they
/// are verbs and filler ("which endpoint throws the most 5xx", "how many client ips hit
/// us"), left for the log to confirm. A timeline shows everything in its window, the
/// notable events first: its unknown words are how the question is put ("what's going on",
/// "the portal went down"), not text to look for, unless a filter word binds them.
fn object_of(
    q: &Query,
    cond: &mut super::build_filters::Conditions,
) -> (Option<Filter>, Option<Box<Filter>>) {
    let bare = q.filters.is_empty()
        && q.group_by.is_empty()
        && q.field.as_ref().is_none_or(|f| f.as_str() == "time");
    let timeline = q.measure == Measure::Timeline;
    match cond.object.take() {
        Some(o) if cond.object_qualifies || (bare && !timeline) => (Some(o), None),
        other => (
            None,
            other
                .filter(|_| !timeline && cond.object_long)
                .map(Box::new),
        ),
    }
}

/// What the whole query settles last: a cause asked at one second, the values asked of
/// listed events, roles by the log's columns, the position and the percentile asked.
fn last_touches(lex: &Lexicon, p: &Parsed, before: Option<Field>, q: &mut Query) {
    cause_at_a_second(q);
    super::shown::asked_of_rows(lex, p, before, q);
    roles_by_their_columns(p, q);
    super::ports::ports_left_out(lex, p, q);
    to_position(p.rank, q);
    super::percentile::apply(p.percentile, q);
}

/// "The second slowest", "排第三的客户端": a ranking is read down to the position asked,
/// which the answer leads with; no position asked is none (a follow-up asks its own). The
/// largest value of a field becomes its rows, largest first; groups and buckets rank as
/// they are. A position of anything else is no ranking.
pub(super) fn to_position(rank: Option<u32>, q: &mut Query) {
    q.rank = None;
    let Some(n) = rank.filter(|&n| n >= 2) else {
        return;
    };
    match q.measure {
        Measure::Max | Measure::Min if q.group_by.is_empty() && q.field.is_some() => {
            q.order = if q.measure == Measure::Max {
                Order::Desc
            } else {
                Order::Asc
            };
            q.measure = Measure::Rows;
        }
        Measure::Rows if q.field.is_some() => {}
        Measure::Buckets => {}
        _ if !q.group_by.is_empty() => {}
        _ => return,
    }
    q.rank = Some(n);
}

/// Groupings that are no keys: the log's time field ("which minute (by ts)") is its
/// buckets, not a key per instant; a field that measures something beside a key ("top 3
/// source IPs by orig_bytes") is summed per group, not a second key.
fn measured_groups(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    let is_time = |g: &Field| {
        g.as_str() == "time"
            || p.columns
                .iter()
                .any(|c| c.name == g.as_str() && c.roles.iter().any(|r| r == "time"))
    };
    // "the 5 busiest clients", "最繁忙的客户端": a peak word ranking a field's values is a
    // count per value, not per period (unless a period is named: "busiest minute per host").
    let ranks_a_peak = p
        .hits
        .iter()
        .any(|h| super::grouping::peak_ranks(lex, p, h));
    if q.measure == Measure::Buckets
        && ranks_a_peak
        && !q.group_by.is_empty()
        && !q.group_by.iter().any(is_time)
        && !p.has(|c| matches!(c, Cue::Bucket(_)))
    {
        q.measure = Measure::Count;
    }
    // "list the paths that returned 5xx": each value once, with its count.
    if q.measure == Measure::Rows
        && q.field.is_none()
        && !q.group_by.is_empty()
        && !q.group_by.iter().any(is_time)
    {
        q.measure = Measure::Count;
    }
    if q.source == Source::Log && q.group_by.iter().any(is_time) {
        q.group_by.retain(|g| !is_time(g));
        if q.group_by.is_empty() && matches!(q.measure, Measure::Count | Measure::Rows) {
            q.measure = Measure::Buckets;
        }
    }
    if q.group_by.len() > 1 && q.measure == Measure::Count && q.field.is_none() {
        if let Some(i) = q
            .group_by
            .iter()
            .position(|g| p.is_numeric(lex, g.as_str()))
        {
            q.field = Some(q.group_by.remove(i));
            q.measure = Measure::Sum;
        }
    }
}

/// "peak latency", "峰值延迟", "peak buffer used": the peak of a numeric field is its largest
/// value, not the busiest period (unless a period or a count is asked beside it).
fn peak_of_a_field(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    let numeric = q
        .field
        .as_ref()
        .is_some_and(|f| p.is_numeric(lex, f.as_str()));
    // A count asked of the field after it is its value asked ("峰值延迟是多少").
    let named_at = p
        .hits
        .iter()
        .find(|h| matches!(h.cue, Cue::Field(_) | Cue::Column(_)))
        .map_or(usize::MAX, |h| h.start);
    let counted = p.hits.iter().any(|h| match h.cue {
        Cue::Measure(i) => lex.measures[i].measure == Measure::Count && h.start < named_at,
        Cue::Bucket(_) => true,
        _ => false,
    });
    if q.measure == Measure::Buckets && numeric && q.group_by.is_empty() && !counted {
        q.measure = Measure::Max;
    }
}

/// "状态码分布", "distribution of request methods": the distribution of a field of values
/// (not numbers) is its values counted, not the statistics of the time taken.
fn distribution_of_values(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    if q.measure != Measure::Stats || !q.group_by.is_empty() {
        return;
    }
    // A field the lexicon knows is a measure only when it says so: a status is codes, even
    // where a JSON log writes them as numbers.
    let measures = |f: &str| match lex.fields.iter().any(|c| c.field == f) {
        true => lex.is_numeric(f),
        false => p.is_numeric(lex, f),
    };
    let Some((_, f)) = field_hits(lex, p, q.source).find(|(_, f)| !measures(f)) else {
        return;
    };
    q.group_by = vec![Field::new(f)];
    q.measure = Measure::Count;
    q.field = None;
}

/// What a window or a bucket makes of the measure: "how many in the last hour" over a log
/// may be another measure (the cue's `over_a_window`); "per minute" counts per bucket.
fn measure_over_window_and_buckets(
    p: &Parsed,
    cue: Option<&crate::lexicon::MeasureCue>,
    q: &mut Query,
) {
    if let Some(m) = cue
        .and_then(|c| c.over_a_window)
        .filter(|_| q.source == Source::Log && q.window.is_some())
    {
        q.measure = m;
    }
    if let Some(b) = bucket(p) {
        q.bucket = b;
        // "reqs/min on average": a mean of nothing named, per bucket, is the events per bucket
        // (whose answer gives the mean per bucket).
        let named = p.has(|c| matches!(c, Cue::Field(_) | Cue::Column(_)));
        let mean_of_nothing = q.measure == Measure::Mean && q.field.is_none() && !named;
        // "最高的每秒请求数", "the highest per-minute count": the peak bucket.
        // A count asked beside it says so ("每分钟最长的请求" is the longest request).
        let counted = p.hits.iter().any(
            |h| matches!(h.cue, Cue::Measure(i) if lexicon().measures[i].measure == Measure::Count),
        );
        let peak_of_nothing = q.measure == Measure::Max
            && !named
            && counted
            && cue.is_some_and(|c| c.field.is_none());
        if (matches!(q.measure, Measure::Count | Measure::Rows)
            || mean_of_nothing
            || peak_of_nothing)
            && q.group_by.is_empty()
        {
            q.measure = Measure::Buckets;
        }
    }
}

/// The fields the question defines from the text that a slot of a log query reads.
fn used_definitions(p: &Parsed, q: &Query, soft: &[Filter]) -> Vec<Extract> {
    p.defined
        .iter()
        .filter(|x| q.source == Source::Log && names_field(q, soft, &x.name))
        .cloned()
        .collect()
}

/// Whether a slot of the query (or a soft filter) reads field `name`.
pub(super) fn names_field(q: &Query, soft: &[Filter], name: &str) -> bool {
    let is = |f: &Field| f.as_str() == name;
    q.field.as_ref().is_some_and(is)
        || q.group_by.iter().any(is)
        || q.filters
            .iter()
            .chain(soft)
            .any(|f| f.field.as_ref().is_some_and(is))
}

/// A timeline's conditions: the names in it narrow softly, its words in other languages
/// are dropped, and a word that names the logs is no condition (see `docs/planner.md`).
fn timeline_conditions(lex: &Lexicon, p: &Parsed, q: &mut Query, soft: &mut Vec<Filter>) {
    // A timeline lists events in time order: a grouping word ("各自写了什么": what each log
    // wrote) asks for every log's events, not for groups.
    q.group_by.clear();
    // Its words in another language are dropped ("之间" of a clock window).
    let bridged = super::bridge::translated(lex, p);
    soft.retain(|f| !bridged.contains(f));
    // "what happened on kafka-2 around 01:48": a name may be the host the log came
    // from, which its lines never write; it narrows the window only where it matches.
    let (text, kept): (Vec<Filter>, Vec<Filter>) = q
        .filters
        .drain(..)
        .partition(|f| f.field.is_none() && matches!(f.op, FilterOp::Contains | FilterOp::Regex));
    q.filters = kept;
    soft.extend(text);
    // "api 挂了？proxy + api 排个时间线": a timeline asked over several logs with
    // a failure word says what the question is about; the timeline shows everything, the
    // failures first.
    if q.files.len() > 1 && timeline_cue(lex, p) {
        q.filters
            .retain(|f| !(f.op == FilterOp::Tag && f.value == Scalar::Text("failure".into())));
    }
    // "chat 的 mongo 出了啥事": a word that names the logs ("chat" of
    // `mongod-chat-db-b.log`) says which logs, not which of their events.
    q.filters.retain(|f| match &f.value {
        Scalar::Text(v) => f.field.is_none() || !p.names_an_upload(v),
        _ => true,
    });
}

/// Whether the text says a time or a time window of its own ("around 02:47", "last hour").
pub fn says_a_time(text: &str) -> bool {
    window(lexicon(), &Parsed::new(text, &FrameCtx::of_uploads(&[]))).is_some()
}

/// The window a text says between two times, in words a question of its own reads the
/// same ("between 02:30 and 03:00"); `None` for any other window, or none.
pub(crate) fn window_words(text: &str) -> Option<String> {
    match window(lexicon(), &Parsed::new(text, &FrameCtx::of_uploads(&[]))) {
        Some(Window::Between {
            from: Some(a),
            to: Some(b),
        }) => Some(format!("between {} and {}", a.0, b.0)),
        _ => None,
    }
}

/// The time window an incident question says ("2 点多", "around 02:47"): a time of day is
/// searched half an hour either side, as such a time is remembered, not read off a log.
pub(crate) fn incident_window(text: &str, uploads: &[crate::UploadRef]) -> Option<Window> {
    const NEAR: u64 = 1800;
    let ctx = FrameCtx::of_uploads(uploads);
    match window(lexicon(), &Parsed::new(text, &ctx))? {
        Window::Around { at, seconds } => Some(Window::Around {
            at,
            seconds: seconds.max(NEAR),
        }),
        w => Some(w),
    }
}

/// The symptom an incident question names by an HTTP 4xx ("一堆 403", "the 404s"), when a
/// log of the session has a status: what the summary counts in place of its own idea of
/// trouble, which holds no 4xx. A 5xx named is trouble already, and the summary's reading
/// of it (with every log's errors) stands.
pub(crate) fn incident_symptom(text: &str, statused: &[&crate::UploadRef]) -> Option<Filter> {
    if statused.is_empty() {
        return None;
    }
    let owned: Vec<crate::UploadRef> = statused.iter().map(|u| (*u).clone()).collect();
    let ctx = FrameCtx::of_uploads(&owned);
    let a_4xx = |f: &Filter| match (&f.op, &f.value) {
        (FilterOp::Class, Scalar::Number(c)) => *c == 4.0,
        (FilterOp::Eq, Scalar::Number(n)) => (400.0..500.0).contains(n),
        _ => false,
    };
    super::build_filters::filters(lexicon(), &Parsed::new(text, &ctx), Source::Log)
        .hard
        .into_iter()
        .find(|f| f.field.as_ref().is_some_and(|x| x.as_str() == "status") && a_4xx(f))
}

/// A time window: "last 10 minutes", "between 02:40 and 02:50", "around 02:47".
fn window(lex: &Lexicon, p: &Parsed) -> Option<Window> {
    let last = p.hits.iter().filter(|h| h.cue == Cue::Last);
    if let Some(secs) = last.filter_map(|h| length_after(p, h)).next() {
        return Some(Window::Last {
            seconds: secs.round().max(1.0) as u64,
        });
    }
    let clock = super::clock_window::clock_window(lex, p);
    let day = p.lits.iter().find_map(|l| match l.lit {
        Lit::Date(d) => Some(d.point()),
        _ => None,
    });
    let w = match (day, clock) {
        (None, w) => w,
        // "8号": the whole day.
        (Some(d), None) => Some(Window::Between {
            from: Some(TimePoint(d.clone())),
            to: Some(TimePoint(d)),
        }),
        // "8号 02:47 前后": the clock on that day.
        (Some(d), Some(w)) => Some(on_day(w, &d)),
    };
    // "北京时间 9:36", "10:47pm EDT": the times are in that zone.
    match super::zones::zone_asked(lex, &p.text) {
        Some(z) => w.map(|w| super::zones::in_zone(w, &z)),
        None => w,
    }
}

/// The window with `day` put before each time point that has no date of its own.
fn on_day(w: Window, day: &str) -> Window {
    w.map_points(|t| {
        if t.0.contains('-') {
            t
        } else {
            TimePoint(format!("{day} {}", t.0))
        }
    })
}

fn bucket(p: &Parsed) -> Option<BucketWidth> {
    p.hits.iter().find_map(|h| match h.cue {
        Cue::Bucket(b) => Some(b),
        _ => None,
    })
}

/// "the 3 slowest requests": more than one event with the largest (smallest) value are
/// those events, listed by that value.
fn extremes_as_rows(q: &mut Query) {
    let order = match q.measure {
        Measure::Max => Order::Desc,
        Measure::Min => Order::Asc,
        _ => return,
    };
    if q.group_by.is_empty() && q.field.is_some() && q.limit.is_some_and(|n| n > 1) {
        q.measure = Measure::Rows;
        q.order = order;
    }
}

/// Makes the slots agree: a statistic of a field that is not numeric groups by it; rows
/// with a grouping count the groups; a grouping on a system table's row key lists rows.
fn settle(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    fill_field(lex, p, q);
    let numeric = q
        .field
        .as_ref()
        .is_some_and(|f| p.is_numeric(lex, f.as_str()));
    if (q.measure.is_stat() || q.measure == Measure::Stats) && q.field.is_some() && !numeric {
        if let Some(f) = q.field.take() {
            if !q.group_by.contains(&f) {
                q.group_by.insert(0, f);
            }
        }
        q.measure = Measure::Count;
    }
    if q.measure == Measure::Rows
        && !q.group_by.is_empty()
        && q.field.as_ref().is_none_or(|f| f.0 != "time")
    {
        q.measure = Measure::Count;
        q.field = None;
    }
    if q.measure == Measure::Rows && q.field.as_ref().is_some_and(|f| f.0 == "time") {
        q.group_by.clear();
    }
    let row_keys = ["pid", "command", "local_port", "mount", "unit"];
    if q.source != Source::Log
        && q.group_by.iter().any(|g| row_keys.contains(&g.as_str()))
        && !q.measure.is_stat()
    {
        q.group_by.clear();
        q.measure = Measure::Rows;
    }
    super::system_rows::rows_by_a_quantity(lex, p, q);
    if q.measure == Measure::Count && q.field.is_some() && q.group_by.is_empty() && !numeric {
        q.field = None;
    }
    // "一共发了多少字节", "how many bytes": a count of a quantity is its sum.
    // So is a log's own column of numbers asked in total ("how many rows were processed in
    // total", "一共处理了多少 rows"): a column the lexicon does not know may be a gauge
    // (`queue_depth`), which only a total asked for adds up. Not one with a role.
    let in_total = p.has(|c| c == Cue::Total);
    let additive = q.field.as_ref().is_some_and(|f| {
        lex.fields
            .iter()
            .any(|c| c.additive && c.field == f.as_str())
            || (in_total
                && p.columns
                    .iter()
                    .any(|c| c.name == f.as_str() && c.numeric && c.roles.is_empty()))
    });
    // Not when the quantity is a condition ("how many requests over 1000 bytes").
    let a_condition = q.filters.iter().any(|f| f.field == q.field);
    if q.measure == Measure::Count && numeric && additive && !a_condition {
        q.measure = Measure::Sum;
    }
    // The buckets rank from the busiest unless the fewest is asked ("哪一分钟请求最少").
    let fewest = q.measure == Measure::Buckets && super::system_rows::asks_the_fewest(lex, p);
    if fewest {
        q.order = Order::Asc;
    } else if q.measure == Measure::Buckets || q.measure == Measure::CountDistinct {
        q.order = Order::Desc;
    }
    extremes_as_rows(q);
}

/// "what segfaulted", "谁登录失败了": a question word and a condition with a subject, and
/// no field of its own: the subjects, counted.
fn tag_subject(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    if q.source != Source::Log || !q.group_by.is_empty() || q.field.is_some() {
        return;
    }
    let asks = p
        .hits
        .iter()
        .any(|g| g.cue == Cue::Group && p.hit_is(g, &lex.grammar.asks));
    let subject = p.hits.iter().find_map(|h| match h.cue {
        Cue::Filter(i) => lex.filters[i].subject.clone(),
        _ => None,
    });
    if let (true, Some(s), Measure::Count) = (asks, subject, q.measure) {
        q.group_by.push(Field::new(s));
    }
}

/// The fields a role word asked, by the column that has the role where another only bears
/// its name (see [`super::measured_field::role_column`]).
fn roles_by_their_columns(p: &Parsed, q: &mut Query) {
    if q.source != Source::Log {
        return;
    }
    use super::measured_field::role_column;
    q.field = q.field.take().map(|f| Field(role_column(p, f.0)));
    let by = std::mem::take(&mut q.group_by);
    q.group_by = by.into_iter().map(|f| Field(role_column(p, f.0))).collect();
}

/// "what caused the exception thrown at 03:41:27": the cause of the events of that second,
/// not of the minutes around it.
fn cause_at_a_second(q: &mut Query) {
    let by_cause = q.group_by.len() == 1 && q.group_by[0].as_str() == "cause";
    if let Some(Window::Around { at, seconds }) = &mut q.window {
        let to_the_second =
            at.0.rsplit(['T', ' '])
                .next()
                .unwrap_or(&at.0)
                .matches(':')
                .count()
                == 2;
        if by_cause && to_the_second {
            *seconds = 1;
        }
    }
}

/// "total price of the closed refund batches", "how long did bookings take on average": a
/// statistic's unknown words say which events it is of, when no condition does. Each word
/// of four letters or more narrows softly (the tool drops one that leaves nothing to measure): the log may write
/// them in another order ("Refund batch 12 closed") or not at all ("take").
fn statistic_of_named_events(q: &Query, object: Option<&Filter>, words: &[String]) -> Vec<Filter> {
    let stat = q.measure.is_stat() || q.measure == Measure::Stats;
    // With conditions of their own ("sold (status=paid) tickets") the events are picked.
    if q.source != Source::Log || !stat || object.is_some() || !q.filters.is_empty() {
        return Vec::new();
    }
    words
        .iter()
        .filter(|w| w.chars().count() >= 4 && w.chars().all(|c| c.is_alphanumeric()))
        .take(3)
        .map(|w| {
            let (op, text) = super::words::word_forms(w);
            Filter::new(None, op, Scalar::Text(text))
        })
        .collect()
}

/// A figure that needs a field and got none: "how many unique client ips" counts distinct
/// clients (the grouped field), "the busiest client" ranks the groups by count, and a
/// statistic of a log with no field named is of its time taken (`duration`, resolved by
/// role: request_time, latency_ms, took_ms, ...).
fn fill_field(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    if q.field.is_some() {
        return;
    }
    let stat = q.measure.is_stat() || q.measure == Measure::Stats;
    if q.measure == Measure::CountDistinct && q.group_by.len() == 1 {
        q.field = q.group_by.pop();
    } else if q.measure == Measure::CountDistinct && q.group_by.is_empty() {
        // "how many unique client IPs": the field a role word of the question names.
        q.field = field_hits(lex, p, q.source)
            .next()
            .map(|(_, f)| Field::new(f));
    } else if stat
        && q.group_by
            .first()
            .is_some_and(|g| p.is_numeric(lex, g.as_str()))
    {
        q.field = Some(q.group_by.remove(0));
    } else if stat && !q.group_by.is_empty() {
        q.measure = Measure::Count;
    } else if stat && q.source == Source::Log {
        q.field = Some(Field::new("duration"));
    }
}
