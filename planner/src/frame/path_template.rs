//! A request path written as a template ("/reports/xxx.pdf", "/img/{album}/{n}.jpg",
//! "/users/:id", "/img/*.png"): the paths it stands for, as a regex, and the grouping a
//! ranking over it asks ("the most requested /reports/xxx.pdf": which of those paths).

use llmops_common::query::{Field, FilterOp, Measure, Query, Scalar};

use super::parsed::Parsed;
use crate::lexicon::Lexicon;

/// Whether a part of a path segment stands for any value: `{name}`, `<name>`, `:name` (a
/// whole segment), `*`, `xxx`/`XXX`, an ellipsis.
fn placeholder(part: &str, whole_segment: bool) -> bool {
    let braced = |o: char, c: char| part.len() > 2 && part.starts_with(o) && part.ends_with(c);
    braced('{', '}')
        || braced('<', '>')
        || (whole_segment && part.len() > 1 && part.starts_with(':'))
        || matches!(part, "*" | "..." | "…")
        || (part.len() >= 3 && (part.bytes().all(|b| b == b'x') || part.bytes().all(|b| b == b'X')))
}

/// The regex of the paths a template stands for, anchored at the path's start (after a
/// scheme and host, if the log writes them) and its end (before a query string); none for
/// a path with no placeholder.
pub(super) fn regex(path: &str) -> Option<String> {
    let mut out = String::from("^(?:[a-z]+://[^/]+)?");
    let mut any = false;
    for (i, seg) in path.split('/').enumerate() {
        if i > 0 {
            out.push('/');
        }
        if placeholder(seg, true) {
            out.push_str("[^/?#]+");
            any = true;
            continue;
        }
        // A placeholder before an extension or after a prefix ("xxx.xml", "e{n}.mp3").
        let mut rest = seg;
        while !rest.is_empty() {
            let cut = rest.find(['.', '-', '_']).map_or(rest.len(), |c| c.max(1));
            let (part, tail) = rest.split_at(cut);
            if placeholder(part, false) {
                out.push_str("[^/?#.]+");
                any = true;
            } else {
                out.push_str(&regex::escape(part));
            }
            rest = tail;
        }
    }
    out.push_str("(?:[?#].*)?$");
    any.then_some(out)
}

/// "top 3 /reports/xxx.pdf", "被请求最多的 /img/{album}/{n}.jpg": a ranking over a template's
/// paths with nothing else grouped ranks the paths themselves.
pub(super) fn ranked_paths(lex: &Lexicon, p: &Parsed, q: &mut Query) {
    let template = q.filters.iter().any(|f| {
        f.op == FilterOp::Regex
            && f.field.as_ref().is_some_and(|x| x.as_str() == "path")
            && matches!(&f.value, Scalar::Text(v) if v.starts_with("^(?:[a-z]+://"))
    });
    let ranked = q.limit.is_some() || p.hits.iter().any(|h| p.hit_is(h, &lex.grammar.rank));
    if template && ranked && q.group_by.is_empty() && q.measure == Measure::Count {
        q.group_by.push(Field::new("path"));
    }
}

#[cfg(test)]
mod tests {
    use super::regex;

    #[test]
    fn templates_match_the_paths_they_stand_for() {
        let re = |t: &str| ::regex::Regex::new(&regex(t).expect("a template")).expect("valid");
        let reports = re("/reports/xxx.pdf");
        assert!(reports.is_match("/reports/q3-sales.pdf"));
        assert!(reports.is_match("/reports/q3-sales.pdf?dl=1"));
        assert!(!reports.is_match("/reports/a/b.pdf") && !reports.is_match("/reports/a.csv"));
        let ep = re("/img/{album}/{n}.jpg");
        assert!(ep.is_match("/img/harbour/0154.jpg") && !ep.is_match("/img/harbour.jpg"));
        assert!(re("/users/:id/orders").is_match("https://api.example/users/42/orders"));
        assert!(re("/img/*.png").is_match("/img/logo.png"));
        assert!(re("/v2/<ref>").is_match("/v2/AB12"));
        assert_eq!(regex("/reports/q3-sales.pdf"), None, "no placeholder");
        assert_eq!(regex("/api/xxxl/size"), None, "a word with x's is a word");
    }
}
