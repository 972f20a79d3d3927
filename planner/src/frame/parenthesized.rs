//! A column named in parentheses after the word a question says it with ("which depot
//! (warehouse)", "仓库（warehouse）"): the column the log writes is what is asked, and the word
//! before it (an English one) says nothing more.

use llmops_common::query::Column;

/// The question with each `word (column)` read as the column alone; `None` when no
/// parenthesized name is a column of the logs at hand.
pub(super) fn column_for_its_word(text: &str, columns: &[Column]) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    let mut changed = false;
    while let Some(open) = rest.find('(') {
        let Some(close) = rest[open..].find(')').map(|c| open + c) else {
            break;
        };
        let inner = rest[open + 1..close].trim();
        let is_column = !inner.is_empty()
            && !inner.contains(char::is_whitespace)
            && columns.iter().any(|c| c.name.eq_ignore_ascii_case(inner));
        if !is_column {
            out.push_str(&rest[..=close]);
            rest = &rest[close + 1..];
            continue;
        }
        let before = rest[..open].trim_end();
        // An English word right before it is the column's other name; a Chinese one stays
        // (where it ends is not plain).
        let kept = match before
            .char_indices()
            .rev()
            .find(|(_, c)| !c.is_ascii_alphanumeric())
        {
            _ if !before.ends_with(|c: char| c.is_ascii_alphanumeric()) => before,
            Some((i, c)) => &before[..i + c.len_utf8()],
            None => "",
        };
        out.push_str(kept);
        // A name that is also a word of the question's grammar (`from`, `to`) stays the
        // column's where quoted as one.
        let grammar = crate::lexicon::lexicon()
            .grammar
            .stop
            .en
            .iter()
            .any(|w| w.eq_ignore_ascii_case(inner));
        if grammar {
            out.push_str(" `");
            out.push_str(inner);
            out.push_str("` ");
        } else {
            out.push(' ');
            out.push_str(inner);
            out.push(' ');
        }
        rest = &rest[close + 1..];
        changed = true;
    }
    out.push_str(rest);
    changed.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> Vec<Column> {
        names
            .iter()
            .map(|n| Column {
                name: n.to_string(),
                ..Column::default()
            })
            .collect()
    }

    #[test]
    fn a_column_in_parentheses_stands_for_the_word_before_it() {
        let c = cols(&["warehouse", "region_code"]);
        assert_eq!(
            column_for_its_word("which depot (warehouse) shipped the fewest parcels?", &c)
                .as_deref(),
            Some("which  warehouse  shipped the fewest parcels?")
        );
        assert_eq!(
            column_for_its_word("哪个仓库(warehouse)发货最少", &c).as_deref(),
            Some("哪个仓库 warehouse 发货最少")
        );
        // Not a column, or more than a name: left as written.
        assert_eq!(column_for_its_word("which region (eu) failed", &c), None);
        assert_eq!(column_for_its_word("p95 (in ms) of warehouse", &c), None);
        assert_eq!(column_for_its_word("unclosed (warehouse", &c), None);
    }
}
