//! Words as logs write them: a signal in its usual spellings, a plain word by its stem
//! (`saving` for "save", `retry` for "retries"), a plural by its singular.

use llmops_common::query::{Field, Filter, FilterOp, Scalar};

/// A signal named as `SIGKILL`: the ways logs write it (`SIGKILL`, `signal 9`, systemd's
/// `status=9/KILL`, `signal=KILL`, Go's `signal: killed`), as one case-insensitive regex.
pub(super) fn signal_wordings(t: &str) -> Option<String> {
    const SIGNALS: [(&str, u8, &str); 9] = [
        ("HUP", 1, "hangup"),
        ("INT", 2, "interrupt"),
        ("QUIT", 3, "quit"),
        ("ABRT", 6, "aborted"),
        ("KILL", 9, "killed"),
        ("SEGV", 11, "segmentation fault"),
        ("PIPE", 13, "broken pipe"),
        ("TERM", 15, "terminated"),
        ("BUS", 7, "bus error"),
    ];
    let name = t.strip_prefix("SIG")?;
    let (n, num, go) = SIGNALS.iter().find(|(n, _, _)| *n == name)?;
    Some(format!(
        "(?i)(?:\\bsig{n}\\b|\\bsignal[ =:]+(?:{num}|{n})\\b|status={num}/{n}\\b|signal: {go})"
    ))
}

/// The text a phrase of plain words finds in events written in another form of the same
/// words: as written, its last word singular ("deadlocks" finds "deadlock"), unless a word
/// has an ending (`-ing`, `-ed`, a final `e`): then every word by its stem, as a regex
/// ("background save" finds "Background saving started", "restarting" finds "restarted").
pub(super) fn word_forms(phrase: &str) -> (FilterOp, String) {
    let words: Vec<&str> = phrase.split([' ', '-']).filter(|w| !w.is_empty()).collect();
    let stems: Vec<String> = words.iter().map(|w| stem(w)).collect();
    let irregular: Vec<Option<Vec<String>>> = words.iter().map(|w| verb_forms(w)).collect();
    let inflected = words.iter().zip(&stems).any(|(w, s)| singular(w) != *s)
        || irregular.iter().any(Option::is_some);
    let short = words.len() == 1 && phrase.chars().count() <= 4;
    if !inflected && !short {
        return (FilterOp::Contains, singular(phrase));
    }
    // A short word is a word of its own, not the inside of another ("ban" is not the end
    // of "fail2ban"). A verb of `[verb_forms]` is any of its forms ("won" for "win").
    let parts: Vec<String> = stems
        .iter()
        .zip(&irregular)
        .map(|(s, forms)| match forms {
            Some(forms) => {
                let alts: Vec<String> = forms.iter().map(|f| regex_escape(f)).collect();
                format!("\\b(?:{})\\b", alts.join("|"))
            }
            None => format!("\\b{}\\w*", regex_escape(s)),
        })
        .collect();
    let forward = parts.join("[\\s_-]+");
    // Two words a log may write a word or two apart ("children exited": "child 4454
    // exited"), or the other way round ("losing pressure": "pressure lost"; "closed
    // batches": "Batch 0502 closed").
    if let [a, b] = parts.as_slice() {
        let apart = |x: &str, y: &str| format!("{x}(?:\\W+\\w+){{0,2}}?\\W+{y}");
        return (FilterOp::Regex, format!("{}|{}", apart(a, b), apart(b, a)));
    }
    (FilterOp::Regex, forward)
}

/// The forms of an English verb the lexicon lists as irregular (`[verb_forms]`), the base
/// first, when `w` is one of them: "won" -> win, won, wins, winning.
pub(super) fn verb_forms(w: &str) -> Option<Vec<String>> {
    let w = w.to_ascii_lowercase();
    let table = &crate::lexicon::lexicon().grammar.verb_forms;
    let (base, forms) = table
        .get_key_value(&w)
        .or_else(|| table.iter().find(|(_, forms)| forms.contains(&w)))?;
    Some(std::iter::once(base).chain(forms).cloned().collect())
}

/// An English word without its inflection: `-ing`, `-ed`, a plural `s`, a final `e`
/// (`saving`, `saved`, `saves`, `save` -> `sav`), keeping at least three letters.
pub(super) fn stem(w: &str) -> String {
    // "retries", "retried" -> "retr" + y/i: both forms start "retr".
    for suffix in ["ies", "ied"] {
        if let Some(s) = w.strip_suffix(suffix).filter(|s| s.len() >= 3) {
            return s.to_string();
        }
    }
    let w = singular(w);
    for suffix in ["ing", "ed", "e"] {
        if let Some(s) = w.strip_suffix(suffix) {
            if s.chars().count() >= 3 && s.chars().all(|c| c.is_ascii_alphanumeric()) {
                return undouble(s).to_string();
            }
        }
    }
    w
}

/// "bann" (of "banned") -> "ban", "stopp" -> "stop"; "kill", "pass", "buzz" keep theirs.
fn undouble(s: &str) -> &str {
    let b = s.as_bytes();
    let n = b.len();
    let doubled = n >= 4
        && b[n - 1] == b[n - 2]
        && !b"aeiouylsz".contains(&b[n - 1])
        && b[n - 1].is_ascii_alphabetic();
    if doubled {
        &s[..n - 1]
    } else {
        s
    }
}

/// A plural's singular, so "deadlocks" finds "deadlock" (and "deadlocks"): a plural the
/// lexicon lists (`[plurals]`: "children") is its singular; `-es` goes after `ss`, `x`,
/// `ch`, `sh` ("boxes", "classes"); else a trailing `s` goes unless the word ends in `ss`,
/// `us` or `is` ("class", "bus", "analysis" stay).
pub(super) fn singular(phrase: &str) -> String {
    if let Some(one) = crate::lexicon::lexicon().grammar.plurals.get(phrase) {
        return one.clone();
    }
    let es = ["sses", "xes", "ches", "shes"]
        .iter()
        .any(|e| phrase.ends_with(e));
    let keep = ["ss", "us", "is"].iter().any(|e| phrase.ends_with(e));
    match phrase.strip_suffix(if es { "es" } else { "s" }) {
        Some(stem) if (es || !keep) && stem.len() >= 3 => stem.to_string(),
        _ => phrase.to_string(),
    }
}

/// `s` as a regex that matches it literally.
pub(super) fn regex_escape(s: &str) -> String {
    s.chars()
        .flat_map(|c| {
            let special = "\\.+*?()|[]{}^$".contains(c);
            special
                .then_some('\\')
                .into_iter()
                .chain(std::iter::once(c))
        })
        .collect()
}

/// A filter matching any of `words` as written (a regular expression of them, case
/// ignored).
pub(super) fn any_wording<'w>(field: Option<&str>, words: impl Iterator<Item = &'w str>) -> Filter {
    // An English wording is a whole word ("NPE" is not inside "OpenPending").
    let bounded = |w: &str| {
        let word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
        let (a, b) = (word(w.chars().next()), word(w.chars().next_back()));
        // Written out, not `\b`, so that grep, Perl and jq read it as the engine does,
        // whatever characters stand beside the word.
        format!(
            "{}{}{}",
            if a { "(?:^|[^A-Za-z0-9_])" } else { "" },
            regex_escape(w),
            if b { "(?:[^A-Za-z0-9_]|$)" } else { "" }
        )
    };
    let alts: Vec<String> = words.map(bounded).collect();
    Filter::new(
        field.map(Field::new),
        FilterOp::Regex,
        Scalar::Text(format!("(?:{})", alts.join("|"))),
    )
}

#[cfg(test)]
mod tests {
    use super::{signal_wordings, singular};

    /// One singular for every reader: `-es` after a sibilant, a plain `s` otherwise, the
    /// lexicon's irregular plurals, and words that only end like a plural kept.
    #[test]
    fn a_plurals_singular() {
        for (plural, one) in [
            ("deadlocks", "deadlock"),
            ("boxes", "box"),
            ("classes", "class"),
            ("matches", "match"),
            ("replicas", "replica"),
            ("children", "child"),
            ("class", "class"),
            ("bus", "bus"),
            ("analysis", "analysis"),
            ("ids", "ids"),
        ] {
            assert_eq!(singular(plural), one, "{plural}");
        }
    }

    #[test]
    fn a_signal_matches_the_ways_logs_write_it_and_no_other_signal() {
        let re = regex::Regex::new(&signal_wordings("SIGKILL").expect("a signal")).expect("regex");
        for line in [
            "fare-engine.service: Main process exited, code=killed, status=9/KILL",
            "worker 12 killed by signal 9",
            "process got SIGKILL",
            "exit: signal: killed",
            "child exited signal=KILL",
        ] {
            assert!(re.is_match(line), "{line}");
        }
        for line in [
            "status=15/TERM",
            "signal 95 received",
            "killed the flow",
            "SIGKILLER",
        ] {
            assert!(!re.is_match(line), "{line}");
        }
        assert!(signal_wordings("SIGFOO").is_none());
        assert!(signal_wordings("KILL").is_none());
    }
}

#[cfg(test)]
mod word_form_tests {
    use super::{word_forms, FilterOp};

    #[test]
    fn words_find_the_other_forms_of_themselves() {
        let matches = |phrase: &str, line: &str| {
            let (op, text) = word_forms(phrase);
            match op {
                FilterOp::Contains => line.to_lowercase().contains(&text),
                _ => regex::RegexBuilder::new(&text)
                    .case_insensitive(true)
                    .build()
                    .expect("regex")
                    .is_match(line),
            }
        };
        assert!(matches(
            "background save",
            "* Background saving started by pid 3012"
        ));
        assert!(matches("restarting", "worker restarted after crash"));
        assert!(matches("losing pressure", "msg=\"pump pressure lost\""));
        assert!(matches("closed batches", "Batch 0502 closed: rows=20"));
        assert!(!matches("closed batches", "batch a b c d closed"));
        assert!(matches(
            "deadlocks",
            "Deadlock found when trying to get lock"
        ));
        assert!(matches(
            "connection reset",
            "read: connection reset by peer"
        ));
        assert_eq!(word_forms("connection reset").0, FilterOp::Contains);
        assert!(!matches("background save", "background job finished"));
        assert!(matches("ban", "NOTICE [sshd] Ban 192.0.2.7"));
        assert!(matches("banned", "NOTICE [sshd] Ban 192.0.2.7"));
        assert!(matches("retries", "Task x[1] retry: Retry in 30s"));
        // Irregular verbs in any of their forms, as whole words.
        assert!(matches("lose lease", "coord.lease: lease lost holder=n3"));
        assert!(matches("ran", "nightly backup run finished"));
        assert!(matches("sent", "sending batch 4 to the sink"));
        assert!(!matches("run", "runtime error"));
        assert!(matches("killed", "process killed"));
        assert!(!matches(
            "ban",
            "2028-01-17 fail2ban.filter [911]: INFO [sshd] Found 192.0.2.7"
        ));
    }
}

/// "when did the kafka circuit breaker trip" of a log that writes "circuit breaker
/// opened" with `breaker=kafka-producer`: the query's filters with its one phrase of
/// several words (an event's text, as said) taken apart, each word in its forms anywhere in
/// the event; empty when it has no such phrase. Tried when the phrase matches nothing.
pub(super) fn phrase_apart(q: &llmops_common::query::Query) -> Vec<Filter> {
    let phrase = |f: &Filter| {
        f.field.is_none()
            && f.op == FilterOp::Contains
            && !f.negate
            && matches!(&f.value, Scalar::Text(v) if v.split_whitespace().count() >= 2)
    };
    if q.filters.iter().filter(|f| phrase(f)).count() != 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for f in &q.filters {
        match &f.value {
            Scalar::Text(v) if phrase(f) => {
                for w in v.split_whitespace() {
                    let (op, text) = word_forms(w);
                    out.push(Filter::new(None, op, Scalar::Text(text)));
                }
            }
            _ => out.push(f.clone()),
        }
    }
    out
}
