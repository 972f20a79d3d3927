//! "how many unique …" with no field named: a question back naming the fields to count,
//! rather than a query the engine refuses.

use llmops_common::query::{Measure, Query};

use crate::ctx::MessageCtx;
use crate::task::Task;
use crate::text::Lang;

/// "how many unique …" with no field named: which fields can be counted, from the log's
/// own columns when the server read them, else the usual roles.
pub(super) fn distinct_of_what(q: &Query, ctx: &MessageCtx) -> Option<Task> {
    if q.measure != Measure::CountDistinct || q.field.is_some() || !q.group_by.is_empty() {
        return None;
    }
    let mut names: Vec<String> = ctx
        .uploads
        .iter()
        .filter(|u| q.files.iter().any(|f| *f == u.path.to_string_lossy()))
        .flat_map(|u| {
            u.columns
                .iter()
                .filter(|c| !c.numeric)
                .map(|c| c.name.clone())
        })
        .collect();
    // Several logs name the same column: each once, in first-seen order.
    let mut seen = std::collections::HashSet::new();
    names.retain(|n| seen.insert(n.clone()));
    if names.is_empty() {
        names = ["client", "user", "path", "host", "status", "template"]
            .map(String::from)
            .to_vec();
    }
    names.truncate(12);
    let list = names.join(", ");
    Some(Task::Reply(match ctx.lang {
        Lang::Zh => format!(
            "要数哪一个字段的不同值？请说明字段，例如：{list}（如“有多少个不同的 client”）。"
        ),
        Lang::En => format!(
            "Distinct values of which field? Name one, for example: {list} (\"how many distinct clients\")."
        ),
    }))
}
