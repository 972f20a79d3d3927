//! Informal spellings in a question read as the words they stand for ("w/" is "with",
//! "thru" is "through"), from the lexicon's `[[spelling]]` table, so every cue written with
//! the full word matches them too. Quoted and backticked text and typed command lines keep
//! what was typed.

use crate::lexicon::lexicon;
use crate::lexicon::Spelling;

/// `text` with each informal spelling that stands as a whole token replaced by its word.
pub(super) fn respell(text: &str) -> String {
    let spellings = &lexicon().grammar.spelling;
    // Longer spellings first: "w/o" is not "w/" followed by "o".
    let mut pairs: Vec<(&str, &Spelling)> = spellings
        .iter()
        .flat_map(|s| s.en.iter().map(move |e| (e.as_str(), s)))
        .collect();
    pairs.sort_by_key(|(e, _)| std::cmp::Reverse(e.len()));
    let mut out = String::with_capacity(text.len() + 16);
    let mut quote: Option<char> = None;
    let mut i = 0;
    while i < text.len() {
        let rest = &text[i..];
        let c = rest
            .chars()
            .next()
            .expect("i is a char boundary inside text");
        if let Some(q) = quote {
            quote = (c != q).then_some(q);
        } else if c == '"' || c == '`' {
            quote = Some(c);
        } else if token_starts(text, i) {
            let found = pairs
                .iter()
                .find(|(e, s)| token_at(rest, e) && in_context(s, &text[..i], &rest[e.len()..]));
            if let Some((spelled, s)) = found {
                out.push_str(&s.word);
                // A slash spelling may run into the next word ("w/retries").
                if spelled.ends_with('/') && !rest[spelled.len()..].starts_with(' ') {
                    out.push(' ');
                }
                i += spelled.len();
                continue;
            }
        }
        out.push(c);
        i += c.len_utf8();
    }
    out
}

/// Whether the spelling reads as its word here: after one of its `after` words, and not
/// before one of its `not_before` words.
fn in_context(s: &Spelling, before: &str, after: &str) -> bool {
    let before = before.to_ascii_lowercase();
    let said_after = s.after.is_empty()
        || s.after
            .iter()
            .any(|w| !crate::lexicon::occurrences(&before, w).is_empty());
    let next: String = after
        .trim_start()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '\'')
        .collect::<String>()
        .to_ascii_lowercase();
    said_after && !s.not_before.contains(&next)
}

/// Whether a token may start at byte `i`: the text's start, or after a space or an opening
/// bracket (not inside a path, a file name or a word).
fn token_starts(text: &str, i: usize) -> bool {
    text[..i]
        .chars()
        .next_back()
        .is_none_or(|p| p.is_whitespace() || matches!(p, '(' | '[' | ',' | '，'))
}

/// Whether `rest` begins with the spelling `e` (ASCII case ignored) ending a token there.
fn token_at(rest: &str, e: &str) -> bool {
    let Some(head) = rest.get(..e.len()) else {
        return false;
    };
    if !head.eq_ignore_ascii_case(e) {
        return false;
    }
    let after = &rest[e.len()..];
    let mut next = after.chars();
    match next.next() {
        None => true,
        Some(n) if n.is_whitespace() || n == ')' => true,
        // Punctuation ends the token unless a name goes on after it ("msgs.log").
        Some(',' | '.' | ';' | ':' | '?' | '!') => next
            .next()
            .is_none_or(|m| !(m.is_alphanumeric() || m == '_')),
        // "w/retries": a slash spelling ends at its slash.
        Some(n) => e.ends_with('/') && n.is_alphabetic(),
    }
}

#[cfg(test)]
mod tests {
    use super::respell;

    #[test]
    fn informal_spellings_read_as_their_words() {
        for (typed, read) in [
            ("pods w/ restarts", "pods with restarts"),
            ("errors w/o a retry", "errors without a retry"),
            ("requests W/O auth", "requests without auth"),
            ("jobs w/retries", "jobs with retries"),
            ("read thru the night", "read through the night"),
            ("lines b/w 2:00 and 2:05", "lines between 2:00 and 2:05"),
            (
                "how many msgs, errs and conns?",
                "how many messages, errors and connections?",
            ),
        ] {
            assert_eq!(respell(typed), read, "{typed}");
        }
    }

    /// "log in" is "login" where a word before it makes it a verb and no noun phrase goes
    /// on after it.
    #[test]
    fn a_verb_is_read_as_its_word_only_in_its_context() {
        for (typed, read) in [
            (
                "how many times did u011 log in",
                "how many times did u011 login",
            ),
            (
                "users who couldn't sign in today",
                "users who couldn't login today",
            ),
            ("when did bob last log on?", "when did bob last login?"),
            // No verb's word before it, or a noun phrase after it: as typed.
            ("the gateway log in json", "the gateway log in json"),
            (
                "how many errors did the app log in total",
                "how many errors did the app log in total",
            ),
            (
                "did the proxy log in the last hour",
                "did the proxy log in the last hour",
            ),
        ] {
            assert_eq!(respell(typed), read, "{typed}");
        }
    }

    /// A question with informal spellings plans what the same question spelled out does.
    #[test]
    fn a_question_spelled_informally_plans_as_spelled_out() {
        let ups = crate::tests::uploads(&["api.log"]);
        for (typed, spelled) in [
            (
                "count api.log's errors b/w 02:03 and 02:05",
                "count api.log's errors between 02:03 and 02:05",
            ),
            (
                "how many requests w/ no http-1 thread in api.log",
                "how many requests with no http-1 thread in api.log",
            ),
            (
                "how many errors w/o the http-1 thread in api.log",
                "how many errors without the http-1 thread in api.log",
            ),
        ] {
            assert_eq!(
                crate::tests::first_sent(typed, &ups, &[]),
                crate::tests::first_sent(spelled, &ups, &[]),
                "{typed}"
            );
        }
    }

    /// A typed command line runs as typed, its arguments unread.
    #[test]
    fn a_command_line_keeps_its_spelling() {
        let ups = crate::tests::uploads(&["api.log"]);
        let crate::PlannerAction::Call { args, .. } =
            crate::tests::first_sent("grep -c thru api.log", &ups, &[])
        else {
            panic!("no call")
        };
        assert!(args.to_string().contains("thru"), "{args}");
    }

    #[test]
    fn paths_words_and_quotes_keep_what_was_typed() {
        for typed in [
            "grep in /var/w/o/app.log",
            "lines saying \"w/o retry\" in app.log",
            "count `thru` in x.log",
            "the thruput of api.log",
            "how many in msgs.log",
            "what did errs.log say",
        ] {
            assert_eq!(respell(typed), typed, "{typed}");
        }
    }
}
