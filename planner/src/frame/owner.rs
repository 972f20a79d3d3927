//! A plain name of processes is a program's or a user's: the program is tried first.

use llmops_common::query::{Field, Filter, FilterOp, Query, Scalar, Source};

/// "root 运行的进程", "processes of postgres": a plain name of processes is a program's or a
/// user's. The program is tried first; when none runs, the user of that name (the answer
/// says which was read).
pub(super) fn owner_instead(q: &Query) -> Vec<Filter> {
    let account = |v: &str| {
        let mut cs = v.chars();
        cs.next()
            .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
            && cs.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '_' | '-'))
    };
    let named = |f: &Filter| {
        f.field.as_ref().is_some_and(|x| x.as_str() == "program")
            && f.op == FilterOp::Contains
            && !f.negate
            && matches!(&f.value, Scalar::Text(v) if account(v))
    };
    if q.source != Source::Processes || q.filters.iter().filter(|f| named(f)).count() != 1 {
        return Vec::new();
    }
    q.filters
        .iter()
        .map(|f| match f {
            f if named(f) => Filter {
                field: Some(Field::new("user")),
                op: FilterOp::Eq,
                ..f.clone()
            },
            f => f.clone(),
        })
        .collect()
}
