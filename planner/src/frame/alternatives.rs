//! Several values of one field asked together: "502 and 504", "ERROR or WARN", "4xx or
//! 5xx" are one condition matching any of them, and, asked side by side ("4xx vs 5xx",
//! "GET 和 POST 分别"), one condition per value again.

use llmops_common::query::{Filter, FilterOp, Scalar};

use super::words::regex_escape;

/// Several equalities or classes on one field mean any of them ("502 and 504", "ERROR or
/// WARN", "4xx or 5xx"): one regular expression of the alternatives.
pub(super) fn merged(filters: Vec<Filter>) -> Vec<Filter> {
    // The alternative a condition that holds adds, when it is one.
    fn alternative(f: &Filter) -> Option<String> {
        if f.negate || f.field.is_none() {
            return None;
        }
        match (f.op, &f.value) {
            (FilterOp::Eq, v) => Some(regex_escape(&v.to_string())),
            (FilterOp::Class, Scalar::Number(d)) => Some(format!(r"{d}\d\d")),
            (FilterOp::Regex, Scalar::Text(t)) => t
                .strip_prefix("^(?:")
                .and_then(|r| r.strip_suffix(")$"))
                .map(str::to_string),
            _ => None,
        }
    }
    let mut out: Vec<Filter> = Vec::new();
    for f in filters {
        let alt = alternative(&f).filter(|_| f.op != FilterOp::Regex);
        let same = alt.as_ref().and_then(|_| {
            out.iter_mut()
                .find(|o| o.field == f.field && alternative(o).is_some())
        });
        match (same, alt) {
            (Some(o), Some(b)) => {
                let a = alternative(o).unwrap_or_default();
                o.op = FilterOp::Regex;
                o.value = Scalar::Text(format!("^(?:{a}|{b})$"));
            }
            _ => out.push(f),
        }
    }
    out
}

/// The conditions a merged condition ([`merged`]) was made of, in the order asked (`4\d\d`
/// is the class 4xx); `None` for any other filter.
pub fn sides(f: &Filter) -> Option<Vec<Filter>> {
    let Scalar::Text(t) = &f.value else {
        return None;
    };
    let inner = t.strip_prefix("^(?:")?.strip_suffix(")$")?;
    if f.op != FilterOp::Regex || f.negate || f.field.is_none() {
        return None;
    }
    let mut out = Vec::new();
    for alt in split_alternatives(inner) {
        let class = alt
            .strip_suffix(r"\d\d")
            .and_then(|d| d.parse::<f64>().ok())
            .filter(|d| (1.0..=9.0).contains(d) && d.fract() == 0.0);
        let (op, value) = match class {
            Some(d) => (FilterOp::Class, Scalar::Number(d)),
            None => {
                let v = unescape(&alt)?;
                match v.parse::<f64>() {
                    Ok(n) => (FilterOp::Eq, Scalar::Number(n)),
                    Err(_) => (FilterOp::Eq, Scalar::Text(v)),
                }
            }
        };
        out.push(Filter {
            op,
            value,
            ..f.clone()
        });
    }
    (out.len() > 1).then_some(out)
}

/// The alternatives of a regular expression's top level, split at `|` outside escapes.
fn split_alternatives(inner: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                let last = out.last_mut().expect("one alternative at least");
                last.push(c);
                last.extend(chars.next());
            }
            '|' => out.push(String::new()),
            c => out.last_mut().expect("one alternative at least").push(c),
        }
    }
    out
}

/// A value written by `regex_escape`, as it was; `None` when the text is a pattern.
fn unescape(alt: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = alt.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next()?),
            c if "\\.+*?()|[]{}^$".contains(c) => return None,
            c => out.push(c),
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use llmops_common::query::{Field, Filter, FilterOp, Scalar};

    use super::{merged, sides};

    fn on(op: FilterOp, value: Scalar) -> Filter {
        Filter::new(Some(Field::new("status")), op, value)
    }

    #[test]
    fn merged_values_split_back_into_the_conditions_asked() {
        let asked = vec![
            on(FilterOp::Class, Scalar::Number(4.0)),
            on(FilterOp::Eq, Scalar::Number(502.0)),
            on(FilterOp::Eq, Scalar::Text("a.b|c".into())),
        ];
        let one = merged(asked.clone());
        assert_eq!(one.len(), 1, "{one:?}");
        assert_eq!(sides(&one[0]), Some(asked));
        // One value, or a pattern of the user's own, has no sides.
        assert_eq!(sides(&on(FilterOp::Eq, Scalar::Number(404.0))), None);
        let typed = on(FilterOp::Regex, Scalar::Text("^(?:4.*|5)$".into()));
        assert_eq!(sides(&typed), None);
    }
}
