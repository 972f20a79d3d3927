//! Which of a program's logs a question is about when its words name the wrong one: "the
//! p95 %D of the shop site" is of `shop_access.log`, not `shop_error.log`.

use llmops_common::query::{Query, Source};

use super::value_words::column_for;
use super::{is_log_upload, FrameCtx};
use crate::UploadRef;

/// The one other log that shares the chosen log's name (`gunicorn-error.log`,
/// `gunicorn-access.log`) and has every field the query reads, when the chosen one lacks
/// some; `None` when the chosen log has them, or no single sibling does.
pub(super) fn sibling_with_the_fields(ctx: &FrameCtx, q: &Query, text: &str) -> Option<UploadRef> {
    let [file] = q.files.as_slice() else {
        return None;
    };
    if q.source != Source::Log {
        return None;
    }
    let needed: Vec<&str> = q
        .field
        .iter()
        .chain(&q.group_by)
        .map(|f| f.as_str())
        .filter(|f| !matches!(*f, "time" | "timestamp"))
        .filter(|f| !q.extract.iter().any(|x| x.name == *f))
        .collect();
    let chosen = ctx
        .uploads
        .iter()
        .find(|u| u.path.to_string_lossy() == file.as_str())?;
    // A log named by its file name is the one asked about; one whose columns are unknown
    // lacks nothing it can be shown to lack.
    if needed.is_empty()
        || chosen.columns.is_empty()
        || text.contains(chosen.filename.as_str())
        || has_all(chosen, &needed)
    {
        return None;
    }
    let stem = first_part(&chosen.filename);
    let mut siblings = ctx.uploads.iter().filter(|u| {
        u.path != chosen.path
            && is_log_upload(u)
            && first_part(&u.filename) == stem
            && has_all(u, &needed)
    });
    match (siblings.next(), siblings.next()) {
        (Some(u), None) => Some(u.clone()),
        _ => None,
    }
}

/// The file name's first word (`catalog` of `catalog_access.log`), lower case.
fn first_part(name: &str) -> String {
    name.split(['-', '_', '.', '@'])
        .next()
        .unwrap_or("")
        .to_lowercase()
}

/// Whether the log has a column for each field, by name, role or a role's fallback.
fn has_all(u: &UploadRef, fields: &[&str]) -> bool {
    !u.columns.is_empty()
        && fields.iter().all(|f| {
            column_for(&u.columns, f).is_some()
                || llmops_loganalysis::table::role_fallbacks(f)
                    .iter()
                    .any(|alt| column_for(&u.columns, alt).is_some())
        })
}
