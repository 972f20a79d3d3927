//! `/watch [SECS] COMMAND`: re-runs a read-only command line (or a question) every SECS
//! seconds (default 2, at least `MIN_INTERVAL`) in a view of its own until Esc, marking
//! the lines that changed since the previous run, like `watch -d`. Each run is a
//! WATCH_RUN: the server runs it like the agent would but writes no history, and refuses
//! runs faster than its budget. The next run is scheduled when the previous answer
//! arrives, so runs never overlap and a slow command stretches the interval.

use std::time::{Duration, Instant};

use protocol::{WatchKind, WatchOutput};

use super::transcript::Level;
use super::{App, Command, Modal, Req};

/// Default interval, as `watch`'s.
pub const DEFAULT_INTERVAL: Duration = Duration::from_secs(2);
/// Shortest interval (the server refuses more than one run a second anyway).
pub const MIN_INTERVAL: Duration = Duration::from_secs(1);

/// A running watch.
#[derive(Debug, Clone)]
pub struct WatchState {
    pub text: String,
    pub interval: Duration,
    /// Runs answered so far.
    pub runs: u64,
    pub kind: Option<WatchKind>,
    pub ok: bool,
    pub lines: Vec<String>,
    /// Per line of `lines`: new or different from the same line of the previous run.
    pub changed: Vec<bool>,
    /// Lines the previous run had beyond this one's end.
    pub removed: usize,
    pub error: Option<String>,
    pub duration_ms: u64,
    /// A run is on its way.
    pub in_flight: bool,
    /// When the next run starts (none while one is in flight).
    pub next_at: Option<Instant>,
    /// Wall-clock Unix seconds of the last answer.
    pub last_at: u64,
    pub scroll: u16,
}

/// `/watch` arguments: an optional interval in seconds, then what to run.
pub fn parse(args: &str) -> Result<(Duration, String), String> {
    let args = args.trim();
    let (first, rest) = args
        .split_once(char::is_whitespace)
        .map_or((args, ""), |(a, b)| (a, b.trim()));
    let (interval, text) = match first.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs > 0.0 && !rest.is_empty() => {
            (Duration::from_secs_f64(secs), rest.to_string())
        }
        Ok(_) if !rest.is_empty() => {
            return Err(format!(
                "间隔必须是正数 / the interval must be a positive number of seconds: {first}"
            ))
        }
        _ => (DEFAULT_INTERVAL, args.to_string()),
    };
    if text.is_empty() {
        return Err("用法 / usage: /watch [SECS] COMMAND (e.g. /watch 2 ss -tln)".into());
    }
    Ok((interval, text))
}

/// Starts watching `text` every `interval` (raised to the floor).
pub(super) fn start(app: &mut App, interval: Duration, text: String, out: &mut Vec<Command>) {
    if !app.server_has("watch") {
        app.note(Level::Error, super::process::OLD_SERVER);
        return;
    }
    if interval < MIN_INTERVAL {
        app.note(
            Level::Info,
            format!(
                "间隔已提高到 {0} 秒（下限）/ interval raised to the {0} s floor",
                MIN_INTERVAL.as_secs()
            ),
        );
    }
    app.watch = Some(WatchState {
        text: text.clone(),
        interval: interval.max(MIN_INTERVAL),
        runs: 0,
        kind: None,
        ok: true,
        lines: Vec::new(),
        changed: Vec::new(),
        removed: 0,
        error: None,
        duration_ms: 0,
        in_flight: true,
        next_at: None,
        last_at: 0,
        scroll: 0,
    });
    app.modal = Some(Modal::Watch);
    out.push(Command::Request(Req::Watch(text)));
}

/// Marks each new line that differs from the same line of `old`.
pub fn diff(old: &[String], new: &[String]) -> Vec<bool> {
    new.iter()
        .enumerate()
        .map(|(i, l)| old.get(i) != Some(l))
        .collect()
}

/// A run's answer (or failure) for the watch on `text`; schedules the next run.
pub(super) fn on_output(app: &mut App, text: &str, result: Result<WatchOutput, String>) {
    let now = app.now;
    let unix = app.unix_now;
    let Some(w) = app.watch.as_mut().filter(|w| w.text == text) else {
        return;
    };
    w.in_flight = false;
    w.next_at = Some(now + w.interval);
    match result {
        Ok(o) => {
            let lines: Vec<String> = o
                .lines
                .iter()
                .map(|l| {
                    crate::upload_names::upload_names(&crate::sanitize::sanitize(l)).into_owned()
                })
                .collect();
            // The first run has nothing to compare with: nothing is marked.
            w.changed = if w.runs == 0 {
                vec![false; lines.len()]
            } else {
                diff(&w.lines, &lines)
            };
            w.removed = w.lines.len().saturating_sub(lines.len());
            w.lines = lines;
            w.kind = Some(o.kind);
            w.ok = o.ok;
            w.error = o.error.map(|e| crate::sanitize::sanitize(&e));
            w.duration_ms = o.duration_ms;
            w.runs += 1;
            w.last_at = unix;
        }
        // A refused run (the server's budget, a lost connection) is retried next time.
        Err(e) => w.error = Some(crate::sanitize::sanitize(&e)),
    }
}

/// The next run is due: start it.
pub(super) fn on_tick(app: &mut App, out: &mut Vec<Command>) {
    let now = app.now;
    let Some(w) = app.watch.as_mut() else {
        return;
    };
    if w.in_flight || w.next_at.is_none_or(|t| now < t) {
        return;
    }
    w.in_flight = true;
    w.next_at = None;
    out.push(Command::Request(Req::Watch(w.text.clone())));
}

/// Esc: the watch ends (a run on its way is ignored when it comes back).
pub(super) fn stop(app: &mut App) {
    if let Some(w) = app.watch.take() {
        app.note(
            Level::Info,
            format!("停止监视 / stopped watching: {} ({} runs)", w.text, w.runs),
        );
    }
    if matches!(app.modal, Some(Modal::Watch)) {
        app.modal = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_take_an_optional_interval() {
        assert_eq!(
            parse("2 ss -tln"),
            Ok((Duration::from_secs(2), "ss -tln".into()))
        );
        assert_eq!(parse("ss -tln"), Ok((DEFAULT_INTERVAL, "ss -tln".into())));
        assert_eq!(
            parse("0.5 df -h"),
            Ok((Duration::from_millis(500), "df -h".into()))
        );
        assert_eq!(
            parse("CPU使用率是多少？"),
            Ok((DEFAULT_INTERVAL, "CPU使用率是多少？".into()))
        );
        assert!(parse("").is_err());
        assert!(parse("-3 df").is_err());
        // A number alone is what to run (nothing else was given).
        assert_eq!(parse("5"), Ok((DEFAULT_INTERVAL, "5".into())));
    }

    #[test]
    fn changed_lines_are_marked_by_position() {
        let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert_eq!(
            diff(&v(&["a", "b", "c"]), &v(&["a", "x", "c", "d"])),
            vec![false, true, false, true]
        );
        assert_eq!(diff(&v(&["a"]), &v(&[])), Vec::<bool>::new());
    }
}
