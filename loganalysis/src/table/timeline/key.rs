//! What kind of event a timeline's row is: a request's kind (status, method, route,
//! upstream), a message template, or the crash written below it.

use super::super::plan::{Plan, RequestPart, RowAccess};

/// A row's kind, and its template's count in the file and the file's events (1 and 1
/// without template counts).
pub(super) struct KindKey {
    pub key: Vec<u8>,
    pub in_file: u64,
    pub file_total: u64,
    /// Where a crash below the event starts (see [`crash_at`]).
    pub crash: Option<usize>,
}

/// What kind of event a row is.
pub(super) fn kind_key(row: &mut dyn RowAccess, plan: &Plan) -> KindKey {
    // Without template counts (a table without a message, an access log) an event's
    // kind is its first line with the numbers, addresses and ids masked, neither rare
    // nor common: notable kinds first, then the nearest the asked time.
    // In a log of requests, a line that is no request (an app's own line, a worker's
    // crash beside uWSGI's request lines) is a kind by its masked line.
    let request_or_line = |row: &mut dyn RowAccess| {
        request_key(row, plan).unwrap_or_else(|| line_template(row.whole()))
    };
    let (key, in_file, file_total) = match &plan.rarity {
        None if !plan.request_kind.is_empty() => (request_or_line(row), 1, 1),
        None => (line_template(row.whole()), 1, 1),
        Some(r) => {
            let key = match &r.field {
                None => Some(request_or_line(row)),
                Some(f) => row.val(f.id).map(|v| v.as_bytes().to_vec()),
            };
            match key {
                Some(k) => {
                    let n = r.counts.by_template.get(&k).copied().unwrap_or(1);
                    (k, n, r.counts.total)
                }
                None => (line_template(row.whole()), 1, r.counts.total),
            }
        }
    };
    let key = with_detail(key, row, plan);
    // A crash written below an event without a time of its own (a Go runtime's `fatal
    // error:`, a thread's uncaught exception) is a kind of its own, and tells.
    let crash = crash_at(row.whole());
    let key = crash.map_or(key, |at| line_template(&row.whole()[at..]));
    KindKey {
        key,
        in_file,
        file_total,
        crash,
    }
}

/// Marks a kind keyed by its request's fields: those are never clustered (a 503 and a 201
/// of one path differ only in a number, and are two kinds).
pub(crate) const REQUEST_KEY: u8 = 0x01;

/// A request's kind: its status and method as written, its path (without its query) and
/// upstream with numbers and ids masked (`/v2/rides/<n>`); none for a line without a status
/// (no request). A server error's kind is its status and upstream alone (its status and
/// path without an upstream): when a backend fails, every path and method it serves fails
/// with it, and one row of the failure with its count leaves room for the other logs' events.
fn request_key(row: &mut dyn RowAccess, plan: &Plan) -> Option<Vec<u8>> {
    let (status, _) = plan.request_kind.first()?;
    let server_error = row.val(status.id)?.as_bytes().starts_with(b"5");
    let has_upstream = plan
        .request_kind
        .iter()
        .any(|(_, p)| *p == RequestPart::Upstream);
    let mut key = vec![REQUEST_KEY];
    for (f, part) in &plan.request_kind {
        let dropped = match part {
            RequestPart::Status | RequestPart::Upstream => false,
            RequestPart::Method => server_error,
            RequestPart::Path => server_error && has_upstream,
        };
        if dropped {
            continue;
        }
        key.push(b' ');
        if let Some(v) = row.val(f.id) {
            if *part == RequestPart::Path {
                // A path's kind is its route, not its ids or parameters (`?clinic=BRS-05&…`).
                let b = v.as_bytes();
                let path = b.split(|c| *c == b'?').next().unwrap_or(b);
                crate::mask::route(path, &mut key);
            } else if part.masked() {
                crate::mask::template(v.as_bytes(), &mut key);
            } else {
                key.extend_from_slice(v.as_bytes());
            }
        }
    }
    Some(key)
}

/// Whether the event is a request answered without error (a status from 100 to 399).
pub(super) fn answered_fine(row: &mut dyn RowAccess, plan: &Plan) -> bool {
    let Some((status, _)) = plan.request_kind.first() else {
        return false;
    };
    row.val(status.id).is_some_and(|v| {
        matches!(v.as_bytes().first(), Some(b'1'..=b'3')) && v.as_bytes().len() == 3
    })
}

/// A kind's key with what went wrong added (`Plan::kind_detail`): the exception's class
/// name, without its package, so clustering keeps kinds of other exceptions apart (a
/// dotted name would read as an identifier).
fn with_detail(mut key: Vec<u8>, row: &mut dyn RowAccess, plan: &Plan) -> Vec<u8> {
    let Some(f) = &plan.kind_detail else {
        return key;
    };
    if let Some(v) = row.val(f.id) {
        let v = v.as_bytes();
        let class = v.rsplit(|&b| b == b'.').next().unwrap_or(v);
        if !class.is_empty() && key.first() != Some(&REQUEST_KEY) {
            key.extend_from_slice(b" \xe2\x80\x94 ");
            key.extend_from_slice(class);
        }
    }
    key
}

/// Where the first line after an event's first that reports a process's crash starts: the
/// runtime's own words, which no logger writes with a time.
pub(super) fn crash_at(whole: &[u8]) -> Option<usize> {
    const STARTS: [&[u8]; 5] = [
        b"fatal error: ",
        b"panic: ",
        b"Exception in thread \"",
        b"Segmentation fault",
        b"SIGSEGV",
    ];
    let mut at = 0;
    for (i, l) in whole.split(|&b| b == b'\n').enumerate().take(41) {
        if i > 0 && STARTS.iter().any(|s| l.starts_with(s)) {
            return Some(at);
        }
        at += l.len() + 1;
    }
    None
}

/// The template of an event's first line (`crate::mask::template`).
fn line_template(whole: &[u8]) -> Vec<u8> {
    let first = whole.split(|&b| b == b'\n').next().unwrap_or(whole);
    let mut out = Vec::new();
    crate::mask::template(first, &mut out);
    out
}
