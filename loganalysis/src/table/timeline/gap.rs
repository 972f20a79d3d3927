//! A steady kind of event that stopped and came back inside a timeline's window: the first
//! event after the silence is a row of its own ("the first job done after nine
//! minutes without one"), the recovery an operator looks for, and the row before it says
//! when the kind stopped.

use super::Kind;
use crate::table::hit::Hit;
use crate::ts::Ts;

/// Silence (µs) between two events of a kind, at least, to be kept as its gap: shorter ones
/// are never a stop, and skipping them spares a row's copy on most events.
const GAP_MIN: i64 = 30_000_000;

/// A silence this many times the kind's mean spacing in the window, at least, is a stop:
/// the longest of a thousand random gaps is about seven times their mean.
const GAP_FACTOR: i64 = 8;

/// Events of a kind in the window, at least, for its spacing to say what a stop is.
const GAP_EVENTS: u64 = 10;

/// The longest silence between two events of a kind in the window.
#[derive(Debug)]
pub(super) struct Gap {
    /// µs from the last event before it to the first after it.
    silence: i64,
    /// The first event after it.
    after: Hit,
    /// Events before it, and the last one's time.
    before: u64,
    before_last: Ts,
}

/// Notes the silence before an event of `k` at `time` (before `k` counts it); `hit` makes
/// the event's row, only when the silence is the longest yet.
pub(super) fn note(k: &mut Kind, time: Ts, hit: impl FnOnce() -> Hit) {
    let Some(last) = k.last else { return };
    let silence = time.key - last.key;
    if silence >= GAP_MIN && k.gap.as_ref().is_none_or(|g| silence > g.silence) {
        k.gap = Some(Gap {
            silence,
            after: hit(),
            before: k.count,
            before_last: last,
        });
    }
}

/// The longest gap of one kind read in two parts (`a` and `b`, in either order), before
/// `a` takes in `b`'s events: each part's own and the one between them.
pub(super) fn join(a: &mut Kind, b: &mut Kind) {
    let b_earlier = b.first.time.map(|t| t.key) < a.first.time.map(|t| t.key);
    let best = {
        let (early, late) = if b_earlier {
            (&mut *b, &mut *a)
        } else {
            (&mut *a, &mut *b)
        };
        if let Some(g) = &mut late.gap {
            g.before += early.count;
        }
        let between = match (early.last, late.first.time) {
            (Some(l), Some(f)) if f.key - l.key >= GAP_MIN => Some(Gap {
                silence: f.key - l.key,
                after: late.first.clone(),
                before: early.count,
                before_last: l,
            }),
            _ => None,
        };
        [early.gap.take(), late.gap.take(), between]
            .into_iter()
            .flatten()
            .max_by_key(|g| g.silence)
    };
    a.gap = best;
}

/// A kind that stopped in the window and came back: its events up to the stop, and a kind
/// of the events from the first after it. `span` is the window's length in µs (none for an
/// open window: the kind's own span). A notable kind's second wave shows as it is.
pub(super) fn split(mut k: Kind, span: Option<i64>) -> (Kind, Option<Kind>) {
    let Some(g) = k.gap.take() else {
        return (k, None);
    };
    let own_span = match (k.first.time, k.last) {
        (Some(f), Some(l)) => l.key - f.key,
        _ => 0,
    };
    let spacing = span.unwrap_or(own_span) / k.count.max(1) as i64;
    if k.notable || k.count < GAP_EVENTS || g.silence < GAP_FACTOR * spacing || g.before == 0 {
        return (k, None);
    }
    let after = Kind {
        first: g.after,
        last: k.last,
        count: k.count - g.before,
        in_file: k.in_file,
        file_total: k.file_total,
        notable: false,
        milestone: k.milestone,
        slow: k.slow,
        routine: k.routine,
        gap: None,
        resumed_after: Some(g.silence),
        past: Vec::new(),
        continued: None,
    };
    k.count = g.before;
    k.last = Some(g.before_last);
    (k, Some(after))
}
