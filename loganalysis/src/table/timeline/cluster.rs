//! One file's kinds of event in a timeline's window merged where their templates differ
//! only in identifiers: "Shrinking ISR" of forty partitions is one kind, and a mail log's
//! deliveries to a thousand recipients are one "status=sent".

use rustc_hash::FxHashMap;

use super::{Kind, REQUEST_KEY};

/// Past this many templates of one length in one file's window, they are not clustered
/// (the pairwise comparison is quadratic).
const MAX_CLUSTERED: usize = 2_000;

/// One file's kinds with templates that differ only in identifiers merged (see
/// [`same_kind`]): "Shrinking ISR" of forty partitions is one kind.
pub(super) fn cluster(kinds: FxHashMap<Vec<u8>, Kind>) -> Vec<Kind> {
    let mut by_len: FxHashMap<usize, Vec<(Vec<u8>, Kind)>> = FxHashMap::default();
    for (t, k) in kinds {
        let n = if t.first() == Some(&REQUEST_KEY) {
            usize::MAX
        } else {
            t.split(u8::is_ascii_whitespace)
                .filter(|w| !w.is_empty())
                .count()
        };
        by_len.entry(n).or_default().push((t, k));
    }
    // Each kind with its skeleton (none for a request's kind).
    let mut out: Vec<(Option<Vec<u8>>, Kind)> = Vec::new();
    if let Some(requests) = by_len.remove(&usize::MAX) {
        out.extend(requests.into_iter().map(|(_, k)| (None, k)));
    }
    let with_skeleton = |(t, k): (Vec<u8>, Kind)| (Some(skeleton(&t)), k);
    for (_, mut group) in by_len {
        if group.len() > MAX_CLUSTERED {
            out.extend(group.into_iter().map(with_skeleton));
            continue;
        }
        // File order first, so a cluster is named by its earliest template.
        group.sort_by_key(|(_, k)| (k.first.time.map(|t| t.key), k.first.line));
        let mut clusters: Vec<(Vec<u8>, Kind)> = Vec::new();
        for (t, k) in group {
            match clusters.iter_mut().find(|(rep, _)| same_kind(rep, &t)) {
                Some((_, c)) => c.merge(k),
                None => clusters.push((t, k)),
            }
        }
        out.extend(clusters.into_iter().map(with_skeleton));
    }
    merge_by_skeleton(out)
}

/// Kinds whose templates say the same words once their identifiers are left out, however
/// many identifiers each has, are one kind: a mail log's deliveries to a thousand
/// recipients through as many relays, each a template of its own, are one "status=sent".
/// A template of identifiers alone, and a request's kind, stay as they are. The earliest
/// kind names the merged one.
fn merge_by_skeleton(mut kinds: Vec<(Option<Vec<u8>>, Kind)>) -> Vec<Kind> {
    kinds.sort_by_key(|(_, k)| (k.first.time.map(|t| t.key), k.first.line));
    let mut out: Vec<Kind> = Vec::with_capacity(kinds.len());
    let mut by_skeleton: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
    for (skeleton, k) in kinds {
        match skeleton.filter(|s| !s.is_empty()) {
            Some(s) => match by_skeleton.get(&s) {
                Some(&i) => out[i].merge(k),
                None => {
                    by_skeleton.insert(s, out.len());
                    out.push(k);
                }
            },
            None => out.push(k),
        }
    }
    out
}

/// A template's words that are no identifiers (see [`identifier`]), in order.
fn skeleton(template: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for w in template
        .split(u8::is_ascii_whitespace)
        .filter(|w| !w.is_empty() && !identifier(w))
    {
        if !out.is_empty() {
            out.push(b' ');
        }
        out.extend_from_slice(w);
    }
    out
}

/// Whether two templates of as many words are one kind of event: at least half their
/// words the same, and each word that differs an identifier or a value on one side at
/// least (a digit, a mask, or `-_./=@:` inside it): "on partition notify-events-<n>" and
/// "on partition orders-<n>" are one kind, "node <n> failed" and "node <n> recovered" two.
fn same_kind(a: &[u8], b: &[u8]) -> bool {
    let words = |t: &[u8]| -> Vec<Vec<u8>> {
        t.split(u8::is_ascii_whitespace)
            .filter(|w| !w.is_empty())
            .map(<[u8]>::to_vec)
            .collect()
    };
    let (a, b) = (words(a), words(b));
    if a.len() != b.len() || a.is_empty() {
        return false;
    }
    let mut same = 0;
    for (x, y) in a.iter().zip(&b) {
        if x == y {
            same += 1;
        } else if !(identifier(x) || identifier(y)) {
            return false;
        }
    }
    same * 2 >= a.len()
}

/// Keys whose value says what kind of work a line is about (`class=ExportJob`) or what
/// came of it (`status=bounced`).
const KIND_KEYS: [&[u8]; 12] = [
    b"class", b"job", b"type", b"event", b"queue", b"task", b"worker", b"status", b"state",
    b"result", b"outcome", b"action",
];

/// A word that names or counts something rather than saying what happened. Of a
/// `key=value` word only the value counts: `broker=<n>` is an identifier; a word value of
/// a key that names a kind of work (`type=export`) or written in capitals
/// (`class=ExportJob`, `method=POST`) is what the event is about; `user=alice` names who.
fn identifier(w: &[u8]) -> bool {
    let w = w
        .strip_suffix(b".")
        .or_else(|| w.strip_suffix(b","))
        .or_else(|| w.strip_suffix(b";"))
        .unwrap_or(w);
    if let Some(eq) = w.iter().position(|c| *c == b'=').filter(|i| *i > 0) {
        let (key, value) = (&w[..eq], &w[eq + 1..]);
        let kind = KIND_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k))
            || value.iter().any(u8::is_ascii_uppercase);
        let names_the_kind = kind && value.iter().all(u8::is_ascii_alphabetic);
        return !(value.is_empty() || names_the_kind);
    }
    let inner = w.get(1..w.len().saturating_sub(1)).unwrap_or(&[]);
    w.iter().any(|c| c.is_ascii_digit() || *c == b'<')
        || inner.iter().any(|c| b"-_./=@:".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_differing_only_in_identifiers_are_one_kind() {
        let one = |a: &str, b: &str| same_kind(a.as_bytes(), b.as_bytes());
        assert!(one(
            "[Partition notify-events-<n> broker=<n>] Shrinking ISR from <n>,<n> to <n>.",
            "[Partition appointment-events-<n> broker=<n>] Shrinking ISR from <n>,<n> to <n>."
        ));
        assert!(one(
            "Error processing append on partition orders-<n> (kafka.server.ReplicaManager)",
            "Error processing append on partition payments-<n> (kafka.server.ReplicaManager)"
        ));
        assert!(!one(
            "Connection to node <n> failed",
            "Connection to node <n> established"
        ));
        assert!(!one("user alice logged in", "user bob logged in"));
        assert!(one("fetch broker=<n> done", "fetch broker=<id> done"));
        // Who did it is an identifier; what kind of work it is is not.
        assert!(one(
            "login attempt: db=app user=alice",
            "login attempt: db=app user=report"
        ));
        assert!(!one(
            "pid=<n> class=ExportJob jid=<id> INFO: start",
            "pid=<n> class=ThumbJob jid=<id> INFO: start"
        ));
        assert!(!one("a b", "a b c"));
    }

    #[test]
    fn kinds_that_say_the_same_words_but_for_identifiers_are_one() {
        let sent = [
            "<hex>: to=<a@x.example>, relay=mx.x.example[<ip>]:<num>, status=sent (<num> Ok: queued as <hex>)",
            "<hex>: to=<b.c@y.example>, relay=mail.y.example[<ip>]:<num>, status=sent (<num> <num>.<num> Ok: queued as <hex>)",
        ];
        let bounced = "<hex>: to=<d@z.example>, relay=mx.z.example[<ip>]:<num>, status=bounced (<num> Ok: queued as <hex>)";
        let mut kinds: FxHashMap<Vec<u8>, Kind> = FxHashMap::default();
        for (i, t) in sent.iter().chain([&bounced]).enumerate() {
            let mut k = super::super::tests::kind(2, 5, 1000, false);
            k.first.line = i as u64;
            kinds.insert(t.as_bytes().to_vec(), k);
        }
        let mut got: Vec<(u64, u64)> = cluster(kinds)
            .iter()
            .map(|k| (k.count, k.in_file))
            .collect();
        got.sort_unstable();
        // The two deliveries are one kind, the bounce (`status=` names what came of it) another.
        assert_eq!(got, vec![(2, 5), (4, 10)]);
        // Identifiers alone say nothing: such templates stay apart.
        assert!(skeleton(b"<hex>: <num> user=<n>").is_empty());
    }
}
